//! `fieldnotes serve`: build in memory, serve, rebuild on every save.

use crate::cli::ServeArgs;
use crate::dates;
use crate::error::Result;
use crate::serve::ServeOptions;

use super::Invocation;

pub fn serve(run: &Invocation, args: ServeArgs) -> Result<u8> {
    let options = ServeOptions {
        root: run.root()?.to_path_buf(),
        bind: args.bind,
        port: args.port,
        open: args.open,
        today: dates::today(args.today.as_deref())?,
        color: run.stderr_color(),
        quiet: run.quiet(),
    };
    if let Some(dir) = crate::render::highlight::default_dir() {
        crate::render::highlight::use_disk_cache(&dir);
    }
    crate::serve::serve(&options)?;
    Ok(0)
}
