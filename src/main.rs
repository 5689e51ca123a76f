//! The `fieldnotes` command: parse arguments, call the library, print, exit.

use clap::Parser;
use fieldnotes::cli::{Cli, Command};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Build(args) => fieldnotes::commands::build(&cli.root, args),
        Command::Lint(args) => fieldnotes::commands::lint(&cli.root, args),
        Command::Schema(args) => fieldnotes::commands::schema(&cli.root, args),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::from(2)
        }
    }
}
