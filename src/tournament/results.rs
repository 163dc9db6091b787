//! Results files: one JSON line per finished game, appended and flushed as soon as it is over,
//! so a killed run loses at most the games under way (docs/tournaments.md).

use super::Scheduled;
use crate::game::Outcome;
use crate::record::FaultLine;
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::Path;

/// One finished game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameResult {
    /// The game's id in the schedule: `(table * deals + deal) * seats + rotation`.
    pub game: u64,
    pub table: u64,
    /// Which deal: every table plays the same deals, each once per rotation.
    pub deal: u64,
    pub rotation: u64,
    /// The bot (its pool name) at each seat.
    pub seating: Vec<String>,
    /// Each seat's final total (penalty points).
    pub totals: Vec<i32>,
    /// Each seat's rank, 1 the best; equal results share a rank (1, 1, 3).
    pub ranks: Vec<u32>,
    pub winners: Vec<usize>,
    pub faults: Vec<FaultLine>,
}

impl GameResult {
    pub fn new<'a>(
        game: &Scheduled,
        pool: impl Iterator<Item = &'a str> + Clone,
        outcome: &Outcome,
        faults: Vec<FaultLine>,
    ) -> GameResult {
        let names: Vec<&str> = pool.collect();
        GameResult {
            game: game.id,
            table: game.table,
            deal: game.deal,
            rotation: game.rotation,
            seating: game.seating.iter().map(|&b| names[b].to_string()).collect(),
            totals: outcome.totals.clone(),
            ranks: ranks(outcome),
            winners: outcome.winners.clone(),
            faults,
        }
    }
}

/// Ranks by total, best first (fewest, or most in the circle game); the winners rank 1 (the rules break ties among equal totals,
/// and a seat tied on total with a winner but not one itself ranks after the winners).
pub fn ranks(outcome: &Outcome) -> Vec<u32> {
    let totals = &outcome.totals;
    // Totals are penalties, lowest best, except in the circle game, where points are won and
    // the winners hold the highest total: the winners' total says which way is better.
    let highest_wins = outcome.winners.first().is_some_and(|&w| {
        totals.iter().all(|&t| t <= totals[w]) && totals.iter().any(|&t| t < totals[w])
    });
    let ahead = |a: i32, b: i32| if highest_wins { a > b } else { a < b };
    (0..totals.len())
        .map(|seat| {
            if outcome.winners.contains(&seat) {
                return 1;
            }
            let better = (0..totals.len())
                .filter(|&s| {
                    ahead(totals[s], totals[seat])
                        || (totals[s] == totals[seat] && outcome.winners.contains(&s))
                })
                .count();
            better as u32 + 1
        })
        .collect()
}

/// Reads a results file. A last line cut short by a killed run (no newline at its end) is
/// dropped, and its length returned so the file can be cut back to whole lines.
pub fn read(path: &Path) -> Result<(Vec<GameResult>, u64), String> {
    let file = File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut reader = BufReader::new(file);
    let mut results = Vec::new();
    let mut line = String::new();
    let mut good = 0u64;
    let mut number = 0;
    loop {
        line.clear();
        let n = reader
            .read_line(&mut line)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        if n == 0 {
            break;
        }
        number += 1;
        if !line.ends_with('\n') {
            // A line torn by a kill: the game was not finished as far as the file knows.
            break;
        }
        let result: GameResult = serde_json::from_str(&line)
            .map_err(|e| format!("{}:{number}: not a game result: {e}", path.display()))?;
        results.push(result);
        good += n as u64;
    }
    Ok((results, good))
}

/// Opens a results file for appending: a new one, or with `resume`, an existing one cut back
/// to its whole lines (returned).
pub fn open(path: &Path, resume: bool) -> Result<(File, Vec<GameResult>), String> {
    let exists = path.exists();
    if exists && !resume {
        let empty = std::fs::metadata(path)
            .map(|m| m.len() == 0)
            .unwrap_or(false);
        if !empty {
            return Err(format!(
                "{} exists: continue it with --resume, or remove it",
                path.display()
            ));
        }
    }
    let (done, good) = if exists && resume {
        read(path)?
    } else {
        (Vec::new(), 0)
    };
    let fail = |e: io::Error| format!("cannot write {}: {e}", path.display());
    let mut file = OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(false)
        .open(path)
        .map_err(fail)?;
    file.set_len(good).map_err(fail)?;
    file.seek(SeekFrom::End(0)).map_err(fail)?;
    Ok((file, done))
}

/// Appends a result as one line, written in one call and flushed to the file.
pub fn append(file: &mut File, result: &GameResult) -> io::Result<()> {
    let mut line = serde_json::to_vec(result).map_err(io::Error::other)?;
    line.push(b'\n');
    file.write_all(&line)?;
    file.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_share_ties_and_put_winners_first() {
        let outcome = |totals: Vec<i32>, winners: Vec<usize>| Outcome { totals, winners };
        assert_eq!(
            ranks(&outcome(vec![70, 12, 30, 12], vec![1, 3])),
            [4, 1, 3, 1]
        );
        // Tied on total, the rules' tie-break picked seat 0.
        assert_eq!(ranks(&outcome(vec![5, 5, 66], vec![0])), [1, 2, 3]);
        // The circle game: points are won, the highest total wins.
        assert_eq!(ranks(&outcome(vec![4, -18, 30, 4], vec![2])), [2, 4, 1, 2]);
    }
}
