//! The `fieldnotes` command: parse arguments, call the library, print, exit.

use clap::Parser;
use fieldnotes::cli::{Cli, Command};
use fieldnotes::commands::Invocation;
use std::process::ExitCode;

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
        Command::New(what) => fieldnotes::commands::new(&run, what),
        Command::Submit(args) => fieldnotes::commands::submit(&run, args),
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

/// Two glibc malloc settings that keep a build's peak memory down (BENCHMARKS.md):
/// - one arena per core, not up to eight: a build's millions of short-lived strings, freed
///   on other threads than they were made on, otherwise fragment many heaps;
/// - blocks of 1 MiB and more (whole pages, the data API) always from `mmap`, so they go
///   back to the system when freed; glibc's sliding threshold would keep them in the heap.
///
/// Measured at 10,000 notes: 340 MiB peak with glibc's defaults, 288 MiB with both, at the
/// same speed.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn tune_malloc() {
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let arenas = i32::try_from(cores).unwrap_or(i32::MAX);
    // SAFETY: mallopt only sets allocator parameters; it runs before any other thread.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, arenas);
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn tune_malloc() {}
