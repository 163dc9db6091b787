//! The records of a tournament's games (`--record FILE` or `--record DIR`), kept in step with
//! the results file (docs/tournaments.md): a game's record is written before its result line,
//! under the same lock, so the record holds the results file's games in the same order, and at
//! most the games under way (their records, whole or cut short) more. `--resume` cuts those
//! away, so that after a kill and a resume the record holds every game of the results file
//! exactly once.

use super::in_shard;
use super::results::{self, GameResult};
use crate::fixture::report::ordinal;
use crate::record::{Line, LineReader};
use std::cell::Cell;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Where the records go.
pub enum Records {
    /// The games one after another, appended to one file (open and locked).
    File { file: File, path: PathBuf },
    /// Each game into `DIR/game-ID.jsonl`.
    Dir(PathBuf),
}

/// What [`open`] found.
pub struct Opened {
    pub records: Records,
    /// With `--resume`: a warning for a record that holds none of the results file's games.
    pub warning: Option<String>,
}

/// Opens the records at `path`: a folder (an existing one) or a file. Without `resume` a file
/// or folder that holds records already is refused. With `resume`, `done` are the games of the
/// results file, in its order: the record must hold them (or nothing at all, with a warning),
/// and what it holds beyond them is removed. A folder's records of games outside `shard` are
/// another shard's, and left alone.
pub fn open(
    path: &Path,
    resume: bool,
    done: &[GameResult],
    shard: Option<(u64, u64)>,
) -> Result<Opened, String> {
    if !resume {
        refuse_existing(path, shard)?;
    }
    if path.is_dir() {
        return open_dir(path, done, shard);
    }
    let empty = !std::fs::metadata(path).is_ok_and(|m| m.len() > 0);
    let fail = |e: io::Error| format!("cannot write {}: {e}", path.display());
    let mut file = results::open_locked(path)?;
    let mut warning = None;
    let keep = if empty {
        if !done.is_empty() {
            warning = Some(none_recorded(path, done.len()));
        }
        0
    } else {
        games_to_keep(&file, path, done)?
    };
    file.set_len(keep).map_err(fail)?;
    file.seek(SeekFrom::End(0)).map_err(fail)?;
    Ok(Opened {
        records: Records::File {
            file,
            path: path.to_path_buf(),
        },
        warning,
    })
}

/// Refuses records at `path` that a run without `--resume` would add to: a file that is not
/// empty, a folder that holds game records. (Called before the results file is made, so that a
/// refused run leaves nothing behind.)
pub fn refuse_existing(path: &Path, shard: Option<(u64, u64)>) -> Result<(), String> {
    if path.is_dir() {
        let read_fail = |e: io::Error| format!("cannot read {}: {e}", path.display());
        for entry in std::fs::read_dir(path).map_err(read_fail)? {
            let name = entry.map_err(read_fail)?.file_name();
            if name
                .to_str()
                .and_then(record_in_dir)
                .is_some_and(|(id, _)| in_shard(id, shard))
            {
                return Err(format!(
                    "{} holds game records already ({}): continue with --resume (with its results file), or give another folder",
                    path.display(),
                    name.to_string_lossy()
                ));
            }
        }
        return Ok(());
    }
    if std::fs::metadata(path).is_ok_and(|m| m.len() > 0) {
        return Err(format!(
            "{} exists: continue it with --resume (with its results file), or remove it",
            path.display()
        ));
    }
    Ok(())
}

fn none_recorded(path: &Path, games: usize) -> String {
    format!(
        "{} holds none of the {games} games already in the results file: it gets only the games played from now on",
        path.display()
    )
}

/// A reader that counts the bytes consumed from it (where a line ends in the file).
struct Counted<R> {
    inner: R,
    consumed: Rc<Cell<u64>>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.consumed.set(self.consumed.get() + n as u64);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counted<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }
    fn consume(&mut self, n: usize) {
        self.consumed.set(self.consumed.get() + n as u64);
        self.inner.consume(n);
    }
}

/// The length of the record file's first `done.len()` games, checked one for one against the
/// results (each game's id, seed and number of seats); an error if it holds fewer games, or
/// other ones. A last line cut short (no line end) is of a game under way.
fn games_to_keep(file: &File, path: &Path, done: &[GameResult]) -> Result<u64, String> {
    let read_fail = |e: io::Error| format!("cannot read {}: {e}", path.display());
    let len = file.metadata().map_err(read_fail)?.len();
    let mut last = [0u8];
    file.read_exact_at(&mut last, len - 1).map_err(read_fail)?;
    let ends_whole = last[0] == b'\n';
    let consumed = Rc::new(Cell::new(0));
    let input = Counted {
        inner: BufReader::with_capacity(1 << 16, file),
        consumed: Rc::clone(&consumed),
    };
    let mut lines = LineReader::new(input);
    let mut games = 0;
    let mut end = 0;
    loop {
        let start = consumed.get();
        let Some((number, text)) = lines
            .next_line()
            .map_err(|e| format!("{}:{e}", path.display()))?
        else {
            break;
        };
        if consumed.get() == len && !ends_whole {
            // Torn by the kill: the record of a game under way.
            break;
        }
        // Every header holds the string `"game"`; no other line can (see record::LineReader).
        let header = match text.contains("\"game\"") {
            true => match Line::parse(text, number) {
                Ok(Line::Game(header)) => Some(header),
                Ok(_) => None,
                Err(e) => return Err(format!("{}:{e}", path.display())),
            },
            false => None,
        };
        match header {
            Some(_) if games == done.len() => return Ok(start),
            Some(header) => {
                let result = &done[games];
                let seed_differs = result.seed.is_some_and(|seed| header.seed != Some(seed));
                // A record of an older take5 does not say which game it is.
                let id_differs = header
                    .tournament
                    .as_ref()
                    .is_some_and(|t| t.game != result.game);
                if seed_differs || id_differs || header.players.len() != result.seating.len() {
                    return Err(format!(
                        "{}:{number}: the record's game {} is not game {} of the results file (the {} in it): the record is of other games",
                        path.display(),
                        games + 1,
                        result.game,
                        ordinal(games + 1),
                    ));
                }
                games += 1;
            }
            None if games == 0 => {
                return Err(format!(
                    "{}:{number}: not a record (a record starts with a `game` line)",
                    path.display()
                ));
            }
            None => {}
        }
        end = consumed.get();
    }
    if games < done.len() {
        return Err(format!(
            "{}: the record holds {games} games, the results file {}: game {} of the results has no record (write the records of this run elsewhere)",
            path.display(),
            done.len(),
            done[games].game
        ));
    }
    Ok(end)
}

/// Where `--record DIR` writes the record of game `id`: `DIR/game-ID.jsonl`.
pub fn path_in_dir(dir: &Path, id: u64) -> PathBuf {
    dir.join(format!("game-{id}.jsonl"))
}

/// The id of the game whose record a folder's entry `name` is (`game-ID.jsonl`), and whether it
/// is a record still being written (`game-ID.jsonl.part`).
fn record_in_dir(name: &str) -> Option<(u64, bool)> {
    let rest = name.strip_prefix("game-")?;
    let (id, part) = match rest.strip_suffix(".jsonl.part") {
        Some(id) => (id, true),
        None => (rest.strip_suffix(".jsonl")?, false),
    };
    id.parse().ok().map(|id| (id, part))
}

/// `--record DIR`: the records of games not in the results file (to be played again) and those
/// cut short are removed, and every game of the results must have its record.
fn open_dir(dir: &Path, done: &[GameResult], shard: Option<(u64, u64)>) -> Result<Opened, String> {
    let read_fail = |e: io::Error| format!("cannot read {}: {e}", dir.display());
    let mut ids: Vec<u64> = done.iter().map(|r| r.game).collect();
    ids.sort_unstable();
    let mut found = 0;
    for entry in std::fs::read_dir(dir).map_err(read_fail)? {
        let entry = entry.map_err(read_fail)?;
        let name = entry.file_name();
        let Some((id, part)) = name
            .to_str()
            .and_then(record_in_dir)
            .filter(|&(id, _)| in_shard(id, shard))
        else {
            continue;
        };
        if !part && ids.binary_search(&id).is_ok() {
            found += 1;
            continue;
        }
        let stale = entry.path();
        std::fs::remove_file(&stale)
            .map_err(|e| format!("cannot remove {}: {e}", stale.display()))?;
    }
    let mut warning = None;
    if found == 0 && !ids.is_empty() {
        warning = Some(none_recorded(dir, ids.len()));
    } else if found < ids.len() {
        let missing = ids
            .iter()
            .find(|&&id| !path_in_dir(dir, id).exists())
            .expect("some game has no record");
        return Err(format!(
            "{}: game {missing} of the results file has no record game-{missing}.jsonl (write the records of this run elsewhere)",
            dir.display()
        ));
    }
    Ok(Opened {
        records: Records::Dir(dir.to_path_buf()),
        warning,
    })
}

impl Records {
    /// Writes the record `lines` of game `id`: appended to the file, or into `DIR/game-ID.jsonl`
    /// through a `.part` file renamed once whole (a kill never leaves half a game there).
    pub fn write(&mut self, id: u64, lines: &[u8]) -> Result<(), String> {
        match self {
            Records::File { file, path } => file
                .write_all(lines)
                .map_err(|e| format!("cannot write {}: {e}", path.display())),
            Records::Dir(dir) => {
                let path = path_in_dir(dir, id);
                let mut part = path.clone().into_os_string();
                part.push(".part");
                let part = PathBuf::from(part);
                std::fs::write(&part, lines)
                    .and_then(|()| std::fs::rename(&part, &path))
                    .map_err(|e| {
                        let _ = std::fs::remove_file(&part);
                        format!("cannot write {}: {e}", path.display())
                    })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_s_records_are_named_by_game() {
        assert_eq!(record_in_dir("game-17.jsonl"), Some((17, false)));
        assert_eq!(record_in_dir("game-17.jsonl.part"), Some((17, true)));
        assert_eq!(record_in_dir("game-x.jsonl"), None);
        assert_eq!(record_in_dir("notes.txt"), None);
    }
}
