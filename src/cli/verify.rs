//! `take5 verify RECORD...`: re-checks game records against the rules (docs/records.md).

use super::Status;
use crate::verify::verify_stream;
use crate::visible::visible_lines;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Arguments of `take5 verify`.
#[derive(Clone, Debug, clap::Args)]
pub struct VerifyArgs {
    /// Game records (JSON Lines, as `take5 play --record` writes them; zstd or gzip compressed
    /// ones too), or `-` for standard input. Each is read line by line, in the memory of one
    /// game.
    #[arg(required = true, value_name = "RECORD")]
    pub records: Vec<PathBuf>,
}

/// Verifies each record: its verdict on stdout, `OK path  N games, M lines` or `path:line: what
/// is wrong`; a record that cannot be read (nor a house rule script it names) is an error on
/// stderr, `take5: path: ...` (docs/records.md). Exit status: 0 when all are valid, 1 when any
/// is wrong, 2 when any cannot be read.
pub fn run(args: &VerifyArgs) -> io::Result<Status> {
    run_to(args, &mut io::stdout().lock(), &mut io::stderr().lock())
}

/// [`run`], writing the verdicts to `out` and the errors to `err`.
pub fn run_to(args: &VerifyArgs, out: &mut dyn Write, err: &mut dyn Write) -> io::Result<Status> {
    let mut status = Status::Passed;
    for path in &args.records {
        let name = path.display().to_string();
        let input = match crate::record::open(path) {
            Ok(input) => input,
            Err(e) => {
                super::item_error(err, &format!("{name}: cannot read: {e}"))?;
                status = status.max(Status::Unreadable);
                continue;
            }
        };
        // House rule scripts are named relative to the record's folder.
        let folder = path.parent().unwrap_or(Path::new(""));
        match verify_stream(input, folder, |_| {}) {
            Ok(counts) => {
                let games = counts.games;
                say(
                    out,
                    &format!(
                        "OK {name}  {}, {}",
                        crate::words::count(games, "game"),
                        crate::words::count(counts.lines, "line")
                    ),
                )?;
            }
            Err(e) if e.unreadable => {
                super::item_error(err, &e.in_file(&name))?;
                status = status.max(Status::Unreadable);
            }
            Err(e) => {
                say(out, &e.in_file(&name))?;
                status = status.max(Status::Failed);
            }
        }
    }
    Ok(status)
}

/// Prints a verdict, which may quote the record (its name, a house path, a line's text).
fn say(out: &mut dyn Write, line: &str) -> io::Result<()> {
    writeln!(out, "{}", visible_lines(line))
}
