//! The `fieldnotes` command: parse arguments, call the library, print, exit.

use clap::Parser;
use fieldnotes::cli::{Cli, Command};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Build(args) => fieldnotes::commands::build(&cli.root, args),
        Command::Lint(args) => fieldnotes::commands::lint(&cli.root, args),
        Command::Serve(args) => fieldnotes::commands::serve(&cli.root, args),
        Command::Schema(args) => fieldnotes::commands::schema(&cli.root, args),
        Command::Sources(args) => fieldnotes::commands::sources(&cli.root, args),
        Command::New(what) => fieldnotes::commands::new(&cli.root, what),
        Command::Completions { shell } => fieldnotes::commands::completions(shell),
        Command::Man => fieldnotes::commands::man(),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::from(2)
        }
    }
}
