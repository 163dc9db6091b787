//! Results files read together in order of game id, in bounded memory (docs/tournaments.md):
//! each file is read line by line, with a window of its next lines held back, since a
//! tournament writes its games in the order they finish, which is only about the order of their
//! ids (a game finishes ahead of the games under way on other jobs). The next game is the
//! lowest of the files' windows. A game given twice (in two files, or twice in one) is taken
//! once, and must be the same game each time.

use super::results::{self, GameResult};
use serde::Deserialize;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

/// Lines held back per file by default.
pub const WINDOW: usize = 4096;

/// A game from a file, ordered by its id, then by its line; the result itself waits in the
/// reader's `slots` (the heap moves only these few bytes).
struct Held {
    game: u64,
    line: u64,
    slot: usize,
}

impl PartialEq for Held {
    fn eq(&self, other: &Held) -> bool {
        (self.game, self.line) == (other.game, other.line)
    }
}
impl Eq for Held {}
impl PartialOrd for Held {
    fn partial_cmp(&self, other: &Held) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Held {
    fn cmp(&self, other: &Held) -> std::cmp::Ordering {
        (self.game, self.line).cmp(&(other.game, other.line))
    }
}

struct Reader {
    path: PathBuf,
    lines: BufReader<File>,
    buffer: Vec<u8>,
    line: u64,
    held: BinaryHeap<Reverse<Held>>,
    /// The results held, and the last one handed on; a freed slot is parsed into again in
    /// place, so its strings and lists are reused rather than allocated line after line.
    slots: Vec<GameResult>,
    free: Vec<usize>,
    ended: bool,
}

impl Reader {
    fn open(path: &Path) -> Result<Reader, String> {
        let file = File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Ok(Reader {
            path: path.to_path_buf(),
            lines: BufReader::with_capacity(1 << 16, file),
            buffer: Vec::with_capacity(512),
            line: 0,
            held: BinaryHeap::new(),
            slots: Vec::new(),
            free: Vec::new(),
            ended: false,
        })
    }

    /// Reads lines until `window` are held or the file ends. A last line cut short by a killed
    /// run (no newline at its end) is left out, as `take5 tournament --resume` does.
    fn fill(&mut self, window: usize) -> Result<(), String> {
        while !self.ended && self.held.len() < window {
            let n =
                results::read_line(&mut self.lines, &mut self.buffer, &self.path, self.line + 1)?;
            if n == 0 || self.buffer.last() != Some(&b'\n') {
                self.ended = true;
                break;
            }
            self.line += 1;
            // The file's header names its tournament (checked before the merge), no game.
            if self.line == 1 && self.buffer.starts_with(results::HEADER_START.as_bytes()) {
                continue;
            }
            let mut de = serde_json::Deserializer::from_slice(&self.buffer);
            let (parsed, slot) = match self.free.pop() {
                Some(slot) => (
                    GameResult::deserialize_in_place(&mut de, &mut self.slots[slot]),
                    slot,
                ),
                None => match GameResult::deserialize(&mut de) {
                    Ok(result) => {
                        self.slots.push(result);
                        (Ok(()), self.slots.len() - 1)
                    }
                    Err(e) => (Err(e), 0),
                },
            };
            parsed.and_then(|()| de.end()).map_err(|e| {
                format!(
                    "{}:{}: not a game result: {e}",
                    self.path.display(),
                    self.line
                )
            })?;
            let game = self.slots[slot].game;
            self.held.push(Reverse(Held {
                game,
                line: self.line,
                slot,
            }));
        }
        Ok(())
    }

    fn next_game(&self) -> Option<u64> {
        self.held.peek().map(|Reverse(h)| h.game)
    }

    /// Takes the lowest game held, and reads the next line in its place: the game's slot
    /// (still held: free it when done with it), its line.
    fn take(&mut self, window: usize) -> Result<(usize, u64), String> {
        let Reverse(held) = self.held.pop().expect("it has a next game");
        self.fill(window)?;
        Ok((held.slot, held.line))
    }
}

/// Hands the games of `paths` to `each` in order of game id, each once, holding at most
/// `window` lines of each file. A file more out of order than that is refused, with the line
/// of the game that came too late (a larger window reads it).
pub fn merge(
    paths: &[PathBuf],
    window: usize,
    mut each: impl FnMut(&GameResult),
) -> Result<(), String> {
    let window = window.max(1);
    let mut readers: Vec<Reader> = paths
        .iter()
        .map(|p| Reader::open(p))
        .collect::<Result<_, _>>()?;
    for reader in &mut readers {
        reader.fill(window)?;
    }
    // The reader and slot of the last game handed on.
    let mut last: Option<(usize, usize)> = None;
    loop {
        let Some(i) = (0..readers.len())
            .filter_map(|i| readers[i].next_game().map(|g| (g, i)))
            .min()
            .map(|(_, i)| i)
        else {
            return Ok(());
        };
        let (slot, line) = readers[i].take(window)?;
        let result = &readers[i].slots[slot];
        if let Some((r, s)) = last {
            let previous = &readers[r].slots[s];
            let path = readers[i].path.display();
            if result.game < previous.game {
                return Err(format!(
                    "{path}:{line}: game {} comes more than {window} line{} after its place (game \
                     {} was taken already): give a larger --window",
                    result.game,
                    if window == 1 { "" } else { "s" },
                    previous.game
                ));
            }
            if result.game == previous.game {
                if result != previous {
                    return Err(format!(
                        "{path}:{line}: game {} is given twice with different results (results of \
                         different tournaments?)",
                        result.game
                    ));
                }
                readers[i].free.push(slot);
                continue;
            }
        }
        each(result);
        if let Some((r, s)) = last {
            readers[r].free.push(s);
        }
        last = Some((i, slot));
    }
}
