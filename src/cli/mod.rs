//! The command line: one module per subcommand, each a clap `Args` struct and a `run` function.
//! Errors end here, as a message on stderr and an exit status ([`Status`]): 0 success, 1 a check
//! that failed, 2 input that cannot be used (flags, files, scripts).

pub mod check;
pub mod completions;
pub mod deals;
pub mod play;
pub mod sandbox;
pub mod selftest;
pub mod show;
mod status;
pub mod tournament;
pub mod tune;
pub mod verify;

pub use status::Status;

use crate::visible::visible_lines;
use clap::{Parser, Subcommand};
use std::fmt;
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  take5 play --player builtin:random --player builtin:dodger --player builtin:lowest --seed 7
  take5 play --player 'python3 scripts/bots/python_bot.py' --player builtin:dodger --games 20
  take5 play --player builtin:random --player builtin:random --record game.jsonl --seed 1
  take5 verify game.jsonl
  take5 check fixtures/
  take5 show game.jsonl
  take5 play --player human --player builtin:dodger

Players: builtin:random, builtin:lowest, builtin:highest, builtin:dodger, builtin:mcs (a Monte
Carlo search, the strongest; options as builtin:mcs:steps=N, docs/mcs.md), human (you, at this
terminal; take5 play only), or the command line of a bot speaking the take5 protocol
(docs/protocol.md).";

/// A referee and rules-checker for Take 5 / 6 nimmt! and its variants.
#[derive(Debug, Parser)]
#[command(name = "take5", version, about, after_help = EXAMPLES)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play games between built-in bots and bots over pipes, and report the results.
    #[command(after_help = EXAMPLES)]
    Play(Box<play::PlayArgs>),
    /// Run rule fixtures (YAML scenarios) and say whether the rules produce what they expect.
    Check(check::CheckArgs),
    /// Re-check game records against the rules.
    Verify(verify::VerifyArgs),
    /// Play a tournament between a pool of bots from a YAML file, with results that survive.
    Tournament(Box<tournament::TournamentArgs>),
    /// Statistics of tournament results files, merged.
    Stats(tournament::StatsArgs),
    /// Tune a bot's numeric parameters by SPSA on duplicate deals (each iteration a small
    /// tournament, resumable), then play the tuned values against the start.
    Tune(tune::TuneArgs),
    /// Write a deal book: deals that tournaments of other pools and seeds play alike.
    Deals(deals::DealsArgs),
    /// Show a recorded game step by step: in the terminal, as text, or as an HTML page.
    Show(show::ShowArgs),
    /// Test a bot: scripted situations of every variant, a PASS/FAIL checklist, its times.
    Selftest(selftest::SelftestArgs),
    /// Tell whether this machine's kernel can confine bots (`--sandbox`), step by step.
    SandboxCheck(sandbox::SandboxCheckArgs),
    /// Print the shell completion script for SHELL (bash, zsh, fish, elvish, powershell).
    Completions(completions::CompletionsArgs),
    /// Print take5's man page (roff), or write a page per subcommand with --dir.
    Man(completions::ManArgs),
}

/// A failure to report to the user, with the exit status it maps to.
#[derive(Debug)]
pub struct CliError {
    pub message: String,
    pub status: Status,
}

impl CliError {
    /// Input that cannot be used: a flag, a file, a script.
    pub fn input(message: impl fmt::Display) -> CliError {
        CliError {
            message: message.to_string(),
            status: Status::Unreadable,
        }
    }
}

/// With `--log-io`: an error (exit status 1) naming the logs that lost lines (each was warned
/// of as it happened), once the bots that wrote them are stopped.
fn logs_written() -> Result<(), CliError> {
    let lost = crate::players::process::logs::lost_so_far();
    if lost.is_empty() {
        return Ok(());
    }
    let named: Vec<String> = lost
        .iter()
        .map(|(path, why)| format!("{} ({why})", path.display()))
        .collect();
    Err(CliError {
        message: format!(
            "the --log-io logs were not all written, each is cut short where its write failed: {}",
            named.join(", ")
        ),
        status: Status::Failed,
    })
}

impl From<std::io::Error> for CliError {
    /// A closed stdout (`take5 check ... | head`) ends take5 quietly, as other Unix tools:
    /// an error without a message, exit 0.
    fn from(e: std::io::Error) -> CliError {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            return CliError {
                message: String::new(),
                status: Status::Passed,
            };
        }
        CliError::input(e)
    }
}

/// Prints an error about one of a command's items (a record `take5 verify` cannot read, a
/// fixture `take5 check` cannot load) on `err`, as every error of take5 is printed (`take5:
/// ...`, what it quotes made visible), while the command goes on to its other items.
fn item_error(err: &mut dyn std::io::Write, message: &str) -> std::io::Result<()> {
    writeln!(err, "take5: {}", visible_lines(message))
}

/// Writes a `--format json` report: `value` as indented JSON, and a line end.
fn write_json(out: &mut impl std::io::Write, value: &impl serde::Serialize) -> std::io::Result<()> {
    let json = serde_json::to_string_pretty(value).expect("a report serializes");
    writeln!(out, "{json}")
}

/// Parses the command line, runs the subcommand, and maps the outcome to the exit code.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // A usage error is told as take5's other errors are (`take5: ...`, exit 2); help and
        // the version are printed as clap prints them.
        Err(error) if error.use_stderr() => {
            let text = error.render().to_string();
            eprint!("take5: {}", text.strip_prefix("error: ").unwrap_or(&text));
            return Status::Unreadable.into();
        }
        Err(error) => error.exit(),
    };
    let result = match &cli.command {
        Command::Play(args) => play::run(args),
        Command::Check(args) => check::run(args),
        Command::Verify(args) => verify::run(args).map_err(CliError::from),
        Command::Tournament(args) => tournament::run(args),
        Command::Stats(args) => tournament::run_stats(args),
        Command::Tune(args) => tune::run(args),
        Command::Deals(args) => deals::run(args),
        Command::Show(args) => show::run(args),
        Command::Selftest(args) => selftest::run(args),
        Command::SandboxCheck(args) => sandbox::run(args),
        Command::Completions(args) => completions::completions(args),
        Command::Man(args) => completions::man(args),
    };
    match result {
        Ok(status) => status.into(),
        Err(error) => {
            if !error.message.is_empty() {
                // Messages quote files and bots (a line, a name, a bot's stderr).
                eprintln!("take5: {}", visible_lines(&error.message));
            }
            error.status.into()
        }
    }
}
