//! `take5 verify RECORD...`: re-checks game records against the rules (docs/records.md).

use super::Status;
use crate::verify::verify_record_in;
use std::io::{self, BufReader, Write};
use std::path::{Path, PathBuf};

/// Arguments of `take5 verify`.
#[derive(Clone, Debug, clap::Args)]
pub struct VerifyArgs {
    /// Game records (JSON Lines, as `take5 play --record` writes them).
    #[arg(required = true, value_name = "RECORD")]
    pub records: Vec<PathBuf>,
}

/// Verifies each record and prints `OK path  N games, M lines` or `path:line: what is wrong`.
/// Exit status: 0 when all are valid, 1 when any is wrong, 2 when any cannot be read.
pub fn run(args: &VerifyArgs) -> io::Result<Status> {
    run_to(args, &mut io::stdout().lock())
}

/// [`run`], writing to `out`.
pub fn run_to(args: &VerifyArgs, out: &mut dyn Write) -> io::Result<Status> {
    let mut status = Status::Passed;
    for path in &args.records {
        let name = path.display().to_string();
        let file = match crate::input::open(path, crate::input::RECORD) {
            Ok(file) => file,
            Err(e) => {
                writeln!(out, "{name}: cannot read: {e}")?;
                status = status.max(Status::Unreadable);
                continue;
            }
        };
        // House rule scripts are named relative to the record's folder.
        let folder = path.parent().unwrap_or(Path::new(""));
        match verify_record_in(BufReader::new(file), folder) {
            Ok(summary) => {
                let games = summary.games.len();
                writeln!(
                    out,
                    "OK {name}  {games} game{}, {} lines",
                    if games == 1 { "" } else { "s" },
                    summary.lines
                )?;
            }
            Err(e) => {
                writeln!(out, "{}", e.in_file(&name))?;
                status = status.max(if e.unreadable {
                    Status::Unreadable
                } else {
                    Status::Failed
                });
            }
        }
    }
    Ok(status)
}
