//! `take5 show RECORD`: a recorded game step by step (docs/viewer.md): in the terminal viewer
//! on a terminal, every step as plain text when piped, or one self-contained HTML page.

use super::{CliError, Status};
use crate::record::{self, Games, Line, LineReader};
use crate::show::{self, Hands, Shown};
use crate::tournament::records;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};

/// Arguments of `take5 show`.
#[derive(Clone, Debug, clap::Args)]
pub struct ShowArgs {
    /// A game record (JSON Lines, as `take5 play --record` writes it), or a folder of a
    /// tournament's records (`take5 tournament --record DIR`).
    #[arg(value_name = "RECORD")]
    pub record: PathBuf,
    /// The game to show, by its number in the record, or its id in a tournament's record file or
    /// folder (the first game when not given).
    #[arg(long, value_name = "N")]
    pub game: Option<u64>,
    /// Show only this seat's hand (what its bot saw); all hands when not given.
    #[arg(long, value_name = "S")]
    pub seat: Option<usize>,
    /// Write one self-contained HTML page of the game to stdout.
    #[arg(long)]
    pub html: bool,
    /// Print every step as plain text even on a terminal.
    #[arg(long)]
    pub plain: bool,
}

/// Reads the lines of one game of a record file (plain, .zst or .gz): the game numbered `game`,
/// or the first. Memory holds that game only, whatever the record's size (the games before it
/// are skipped unparsed).
fn read_game(path: &Path, game: Option<u64>) -> Result<Vec<(usize, Line)>, CliError> {
    let name = path.display();
    let input =
        record::open(path).map_err(|e| CliError::input(format!("{name}: cannot read: {e}")))?;
    let mut games = Games::new(LineReader::new(input));
    let found = match game {
        Some(number) => games.skip_to(number),
        None => games.next_game(),
    }
    .map_err(|e| CliError::input(format!("{name}:{e}")))?;
    let Some(found) = found else {
        return Err(CliError::input(match game {
            Some(number) => format!("{name}: the record holds no game {number}"),
            None => format!("{name}: the record holds no game"),
        }));
    };
    let mut lines = Vec::with_capacity(found.lines.len() + 1);
    lines.push((found.line, Line::Game(Box::new(found.header))));
    lines.extend(found.lines);
    Ok(lines)
}

fn check_seat(shown: &Shown, seat: Option<usize>) -> Result<Hands, CliError> {
    match seat {
        None => Ok(Hands::All),
        Some(s) if s < shown.players.len() => Ok(Hands::Seat(s)),
        Some(s) => Err(CliError::input(format!(
            "--seat {s}: the game has seats 0 to {}",
            shown.players.len() - 1
        ))),
    }
}

/// Shows `shown` as asked: HTML, the terminal viewer, or plain text.
pub fn present(
    shown: &Shown,
    seat: Option<usize>,
    html: bool,
    plain: bool,
) -> Result<(), CliError> {
    let hands = check_seat(shown, seat)?;
    let mut shown = shown.clone();
    for step in &mut shown.steps {
        step.table = step.table.seen_by(hands);
    }
    let mut out = io::stdout().lock();
    let written = if html {
        out.write_all(show::html::game(&shown).as_bytes())
    } else if !plain && out.is_terminal() && io::stdin().is_terminal() {
        drop(out);
        show::tui::run(&shown, seat)
    } else {
        out.write_all(show::text::game(&shown).as_bytes())
    };
    match written {
        // A reader that has seen enough (`| head`) is no error.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}

/// The record file to read: RECORD, or in a folder of a tournament's records, game `game`'s.
fn record_file(record: &Path, game: Option<u64>) -> Result<PathBuf, CliError> {
    if !record.is_dir() {
        return Ok(record.to_path_buf());
    }
    let Some(id) = game else {
        return Err(CliError::input(format!(
            "{} is a folder: name the tournament's game to show with --game ID",
            record.display()
        )));
    };
    let path = records::path_in_dir(record, id);
    if !path.exists() {
        return Err(CliError::input(format!(
            "{}: the folder holds no record of game {id} ({} is not there)",
            record.display(),
            path.display()
        )));
    }
    Ok(path)
}

pub fn run(args: &ShowArgs) -> Result<Status, CliError> {
    let record = record_file(&args.record, args.game)?;
    let lines = read_game(&record, args.game)?;
    let folder = record.parent().unwrap_or(Path::new(""));
    let name = record.display().to_string();
    let games = show::from_record(&lines, folder, Hands::All, args.game)
        .map_err(|e| CliError::input(e.in_file(&name)))?;
    let Some(shown) = games.first() else {
        return Err(CliError::input(format!("{name}: the record holds no game")));
    };
    present(shown, args.seat, args.html, args.plain)?;
    Ok(Status::Passed)
}
