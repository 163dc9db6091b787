//! `take5 completions SHELL` and `take5 man`: shell completions and man pages, generated from
//! the command line's own definition (clap_complete, clap_mangen), so they never drift from it.

use super::{Cli, CliError, Status};
use clap::{Args, CommandFactory};
use clap_complete::Shell;
use std::io::Write;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, elvish or powershell.
    #[arg(value_enum)]
    shell: Shell,
}

#[derive(Args, Debug)]
pub struct ManArgs {
    /// Write take5.1 and a page per subcommand (take5-play.1, ...) into this folder, instead of
    /// printing take5.1 on stdout.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

/// Prints the completion script for `args.shell` on stdout.
pub fn completions(args: &CompletionsArgs) -> Result<Status, CliError> {
    let mut command = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut command, "take5", &mut out);
    std::io::stdout().lock().write_all(&out)?;
    Ok(Status::Passed)
}

/// Prints the man page, or writes every page into `args.dir`.
pub fn man(args: &ManArgs) -> Result<Status, CliError> {
    match &args.dir {
        Some(dir) => {
            std::fs::create_dir_all(dir)
                .map_err(|e| CliError::input(format!("cannot create {}: {e}", dir.display())))?;
            clap_mangen::generate_to(Cli::command(), dir).map_err(|e| {
                CliError::input(format!("cannot write into {}: {e}", dir.display()))
            })?;
        }
        None => {
            let mut out = Vec::new();
            clap_mangen::Man::new(Cli::command()).render(&mut out)?;
            std::io::stdout().lock().write_all(&out)?;
        }
    }
    Ok(Status::Passed)
}
