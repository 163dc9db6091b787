//! The command line: one module per subcommand. Errors end here, as a message on stderr and
//! an exit status: 0 success, 1 a check that failed, 2 bad input (flags, files, scripts).

mod play;

use clap::{Parser, Subcommand};
use std::fmt;
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  take5 play --player builtin:random --player builtin:dodger --player builtin:lowest --seed 7
  take5 play --player 'python3 scripts/bots/python_bot.py' --player builtin:dodger --games 20
  take5 play --player builtin:random --player builtin:random --record game.jsonl --seed 1

Players: builtin:random, builtin:lowest, builtin:highest, builtin:dodger, or the command line of
a bot speaking the take5 protocol (docs/protocol.md).";

/// A referee and rules-checker for Take 5 / 6 nimmt! and its variants.
#[derive(Parser, Debug)]
#[command(name = "take5", version, about, after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play games between built-in bots and bots over pipes, and report the results.
    #[command(after_help = EXAMPLES)]
    Play(play::PlayArgs),
}

/// A failure to report to the user, with the exit status it maps to.
#[derive(Debug)]
pub struct CliError {
    pub message: String,
    pub status: u8,
}

impl CliError {
    /// Bad input: a flag, a file, a script.
    pub fn input(message: impl fmt::Display) -> CliError {
        CliError {
            message: message.to_string(),
            status: 2,
        }
    }
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Play(args) => play::run(args),
    };
    match result {
        Ok(status) => status,
        Err(error) => {
            eprintln!("take5: {}", error.message);
            ExitCode::from(error.status)
        }
    }
}
