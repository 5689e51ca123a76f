//! The `fieldnotes` command: parse arguments, call the library, print, exit.

use clap::Parser;
use fieldnotes::cli::{Cli, Command};
use fieldnotes::commands::Invocation;
use std::process::ExitCode;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    tune_malloc();
    let cli = Cli::parse();
    let run = Invocation::from_cli(&cli);
    let result = match cli.command {
        Command::Build(args) => fieldnotes::commands::build(&run, args),
        Command::Lint(args) => fieldnotes::commands::lint(&run, args),
        Command::Serve(args) => fieldnotes::commands::serve(&run, args),
        Command::Mcp(args) => fieldnotes::commands::mcp(&run, args),
        Command::Schema(args) => fieldnotes::commands::schema(&run, args),
        Command::Sources(args) => fieldnotes::commands::sources(&run, args),
        Command::Diff(args) => fieldnotes::commands::diff(&run, args),
        Command::Lsp(args) => fieldnotes::commands::lsp(&run, args),
        Command::Probe(what) => fieldnotes::commands::probe(&run, what),
        Command::Init(args) => fieldnotes::commands::init(&run, args),
        Command::New(what) => fieldnotes::commands::new(&run, what),
        Command::Submit(args) => fieldnotes::commands::submit(&run, args),
        Command::Workflows(args) => fieldnotes::commands::workflows(&run, args),
        Command::Completions { shell } => fieldnotes::commands::completions(shell),
        Command::Man => fieldnotes::commands::man(),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(error) => {
            eprintln!("{}", error.terminal_line());
            ExitCode::from(2)
        }
    }
}

/// Two settings that keep a build's peak memory down with mimalloc (BENCHMARKS.md, issue 33),
/// measured at 10,000 notes (the outside corpus), a cold build: 365 MiB peak with mimalloc's
/// defaults and THP off, 335 MiB with a 10 ms purge delay too, for 3% more time (glibc's
/// malloc: 335 MiB and 20% more CPU).
/// - No transparent huge pages for the process: mimalloc asks for them (`madvise`), and the
///   kernel then backs 2 MiB at a time where a few KiB are used.
/// - Freed memory goes back to the system after 10 ms, not a second: a build frees each
///   page's text and scratch all the time, and in a second much more is made than returned.
fn tune_malloc() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl with PR_SET_THP_DISABLE only sets a flag of the calling process.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
    // SAFETY: mi_option_get and mi_option_set read and write one of mimalloc's settings.
    unsafe {
        // The option is set only where it reads as the purge delay's default (1,000 ms), so
        // a mimalloc that numbers its options otherwise is left as it is.
        if libmimalloc_sys::mi_option_get(MI_OPTION_PURGE_DELAY) == 1000 {
            libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 10);
        }
    }
}

/// `mi_option_purge_delay` in mimalloc 3's `mimalloc.h` (the sys crate names no constant).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;
