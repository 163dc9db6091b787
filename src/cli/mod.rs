//! The command line: one file per subcommand, each a clap `Args` struct and a `run` function
//! returning the [`Status`] that becomes the exit code.

pub mod check;
mod status;
pub mod verify;

pub use status::Status;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// take5: a referee and rules-checker for Take 5 / 6 nimmt!
#[derive(Debug, Parser)]
#[command(name = "take5", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run rule fixtures (YAML scenarios) and say whether the rules produce what they expect.
    Check(check::CheckArgs),
    /// Re-check game records against the rules.
    Verify(verify::VerifyArgs),
}

/// Parses the command line, runs the subcommand, and maps the outcome to the exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Check(args) => check::run(args),
        Command::Verify(args) => verify::run(args),
    };
    match result {
        Ok(status) => status.into(),
        Err(e) => {
            eprintln!("take5: {e}");
            Status::Unreadable.into()
        }
    }
}
