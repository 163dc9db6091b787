//! Deal books (docs/tournaments.md, "A deal book"): a list of deals that tournaments of other
//! pools and seeds play alike, as a chess tester's book of openings. A deal is a seed: every
//! round of a game of it is dealt from that seed, as `take5 play --seed` deals, and the game's
//! built-in bots and `seed=` draw from it too. So a deal takes one number whatever the rounds
//! and the seats, and a game of the book is replayed by `take5 play --seed`.

use serde::Deserialize;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    deals: Vec<Entry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    seed: u64,
}

/// A deal book, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    pub path: PathBuf,
    /// Each deal's seed, in the book's order: deal `d` of a tournament is the book's `d`-th.
    pub seeds: Vec<u64>,
    /// The SHA-256 of the file: the results' header names the book by it.
    pub sha256: String,
}

/// Reads a book; errors name the file (and the line and column of a value it refuses).
pub fn load(path: &Path) -> Result<Book, String> {
    let cannot = |e: std::io::Error| format!("{}: cannot read: {e}", path.display());
    let bytes = crate::input::read(path, crate::input::YAML).map_err(cannot)?;
    let text = std::str::from_utf8(&bytes)
        .map_err(|e| format!("{}: not UTF-8 text: {e}", path.display()))?;
    let file: File = crate::yaml::parse(text, path).map_err(|e| e.to_string())?;
    if file.deals.is_empty() {
        return Err(format!("{}: the book has no deals", path.display()));
    }
    Ok(Book {
        path: path.to_path_buf(),
        seeds: file.deals.iter().map(|d| d.seed).collect(),
        sha256: crate::house::sha256_hex(&bytes),
    })
}

/// The book of the first `deals` deals of `seed`: the deals a tournament of that seed plays
/// without a book. The same text on every run.
pub fn write(seed: u64, deals: u64) -> String {
    let mut out = format!(
        "# A deal book of take5 (docs/tournaments.md): the first {deals} deals of seed {seed}, written by\n# `take5 deals --seed {seed} --deals {deals}`. Each deal is a seed: every round of a game of it is dealt from it.\ndeals:\n"
    );
    for deal in 0..deals {
        let _ = writeln!(out, "  - seed: {}", super::deal_seed(seed, deal));
    }
    out
}
