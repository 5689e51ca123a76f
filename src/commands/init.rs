//! `fieldnotes init [DIR] [--example minimal|mcp]`: write a new site, then say what to run next.

use super::Invocation;
use crate::cli::InitArgs;
use crate::error::Result;

pub fn init(run: &Invocation, args: InitArgs) -> Result<u8> {
    let written = crate::init::init(&args.dir, args.example)?;
    for path in &written {
        println!("{}", args.dir.join(path).display());
    }
    let enter = if args.dir == std::path::Path::new(".") {
        String::new()
    } else {
        format!("cd {} && ", args.dir.display())
    };
    run.say(&format!(
        "wrote a site of {} files into {}; next: `{enter}fieldnotes build` (then open \
         public/index.html), or `fieldnotes serve` to see it while you edit; `fieldnotes lint` \
         checks every change",
        written.len(),
        args.dir.display()
    ));
    Ok(0)
}
