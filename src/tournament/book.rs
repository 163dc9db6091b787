//! Deal books (docs/tournaments.md, "A deal book"): a list of deals that tournaments of other
//! pools and seeds play alike, as a chess tester's book of openings. A deal is a seed: every
//! round of a game of it is dealt from that seed, as `take5 play --seed` deals, and the game's
//! built-in bots and `seed=` draw from it too. So a deal takes one number whatever the rounds
//! and the seats, and a game of the book is replayed by `take5 play --seed`.

use crate::game::Points;
use crate::players::PlayerSpec;
use crate::players::pipe::StartupLimit;
use crate::referee::{MatchConfig, play_match};
use crate::variants::Variant;
use serde::Deserialize;
use std::fmt::Write as _;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// The file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    /// How a balanced book chose its deals (absent in a plain one).
    #[serde(default)]
    balanced: Option<Balanced>,
    deals: Vec<Entry>,
}

/// What a balanced book says of how its deals were chosen (docs/tournaments.md, "A balanced
/// book"): the table they were judged at, the judge, the rule, the largest spread kept, and how
/// many candidates were drawn.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Balanced {
    pub variant: String,
    pub seats: usize,
    pub judge: String,
    /// `--keep`: the share of the candidates kept, the most balanced (absent with `--bound`).
    #[serde(default)]
    pub keep_percent: Option<u32>,
    /// The largest spread of a kept deal, in points (`--bound`, or what `--keep` came to).
    pub bound: u64,
    pub candidates: u64,
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
    /// How its deals were chosen, if it is balanced.
    pub balanced: Option<Balanced>,
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
        balanced: file.balanced,
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

impl Balanced {
    /// Why the balance does not carry to a tournament of `variant` at `seats` (with rules other
    /// than the variant's, `other_rules`, or not), if it does not: a deal gives other hands at
    /// another number of seats, and other rules play it otherwise.
    pub fn not_for(&self, variant: &str, seats: usize, other_rules: bool) -> Option<String> {
        let table = format!("{} at {}", self.variant, self.seats);
        let why = if self.variant != variant || self.seats != seats {
            format!("this tournament plays {variant} at {seats}")
        } else if other_rules {
            "this tournament plays other rules (house rules, or a deck of its own)".to_string()
        } else {
            return None;
        };
        Some(format!(
            "the deal book was balanced for {table} seats with the variant's own rules, and \
             {why}: its deals are played, but they are not balanced here"
        ))
    }
}

/// Which deals a balanced book keeps, by their spread (the highest total minus the lowest of
/// the judge's game at every seat).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// The given percent of the candidates with the least spread: `deals x 100 / percent`
    /// candidates are drawn (rounded up), and the `deals` of least spread kept (the earlier on
    /// a tie).
    MostBalanced { percent: u32 },
    /// The first candidates whose spread is at most this many points.
    Within { points: u64 },
}

/// How `take5 deals --balanced` chooses deals: the table (variant, seats), the judge that plays
/// every seat, and which deals are kept.
#[derive(Clone, Debug)]
pub struct Balance {
    pub variant: Variant,
    pub seats: usize,
    /// A built-in bot (a search with a budget in steps or rollouts, not in time): the book must
    /// be the same on every run.
    pub judge: PlayerSpec,
    /// The judge as given (`builtin:dodger`), for the book's header.
    pub judge_name: String,
    pub keep: Keep,
    /// With [`Keep::Within`]: candidates drawn at most before giving up.
    pub max_candidates: u64,
}

impl Balance {
    /// Checks that the judge is deterministic and the table playable.
    pub fn new(
        variant: Variant,
        seats: usize,
        judge: &str,
        keep: Keep,
        max_candidates: u64,
    ) -> Result<Balance, String> {
        let spec = PlayerSpec::parse(judge).map_err(|e| format!("--judge: {e}"))?;
        match &spec {
            PlayerSpec::Builtin(_) => {}
            PlayerSpec::Mcs(options) if options.work.ms.is_none() => {}
            PlayerSpec::Mcs(_) => {
                return Err(format!(
                    "--judge {judge}: a search with a budget in time plays as fast as the \
                     machine is, and a book must be the same on every run: give it steps= or \
                     rollouts="
                ));
            }
            PlayerSpec::Command(_) => {
                return Err(format!(
                    "--judge {judge}: the judge is a built-in bot (builtin:NAME): a book must be \
                     the same on every run, and a program's play cannot be promised so"
                ));
            }
        }
        if let Keep::MostBalanced { percent } = keep
            && !(1..=100).contains(&percent)
        {
            return Err(format!("--keep {percent}: a percent from 1 to 100"));
        }
        if variant.describe().drafts {
            return Err(format!(
                "--balanced: {}'s hands are drafted from every card, not dealt: every deal gives \
                 the seats the same cards, so there is nothing to balance (a book of its deals \
                 is written without --balanced)",
                variant.name()
            ));
        }
        variant
            .rules()
            .check_players(seats)
            .map_err(|e| format!("--seats {seats}: {e}"))?;
        Ok(Balance {
            variant,
            seats,
            judge: spec,
            judge_name: judge.to_string(),
            keep,
            max_candidates,
        })
    }

    /// The final totals of deal `seed` played by the judge at every seat.
    pub fn totals(&self, seed: u64) -> Result<Vec<Points>, String> {
        let startup = StartupLimit::flag(Duration::from_secs(1));
        let mut players = (0..self.seats)
            .map(|_| self.judge.create(seed, startup))
            .collect::<Result<Vec<_>, _>>()?;
        let config = MatchConfig {
            variant: self.variant,
            rules: Arc::new(self.variant.rules()),
            seed,
            games: 1,
            deals: Vec::new(),
            timeout: Duration::from_secs(1),
            clocks: Vec::new(),
            house: None,
            tournament: None,
        };
        let mut totals = None;
        play_match(&config, &mut players, None, |report| {
            totals = Some(report.outcome.totals);
            ControlFlow::Continue(())
        })
        .map_err(|e| format!("deal {seed}: {e}"))?;
        totals.ok_or_else(|| format!("deal {seed}: no game was played"))
    }
}

/// A game's spread: its highest total minus its lowest, in points.
pub fn spread(totals: &[Points]) -> u64 {
    let (Some(high), Some(low)) = (totals.iter().max(), totals.iter().min()) else {
        return 0;
    };
    high.abs_diff(*low).into()
}

/// A candidate of a balanced book: its seed and the judge's totals.
struct Candidate {
    seed: u64,
    totals: Vec<Points>,
}

/// The balanced book of `deals` deals of `seed`: the candidates are the seed's deals in order
/// (those of [`write`]), each played by the judge at every seat, and those `balance.keep` says
/// kept, in the candidates' order; an error when too few are. `command` is written in its
/// header, with the criterion and each deal's totals.
pub fn write_balanced(
    seed: u64,
    deals: u64,
    balance: &Balance,
    command: &str,
) -> Result<String, String> {
    let candidate = |index: u64| -> Result<Candidate, String> {
        let seed = super::deal_seed(seed, index);
        Ok(Candidate {
            seed,
            totals: balance.totals(seed)?,
        })
    };
    let (kept, bound, drawn) = match balance.keep {
        Keep::MostBalanced { percent } => {
            let drawn = (deals * 100).div_ceil(u64::from(percent));
            let all = (0..drawn).map(candidate).collect::<Result<Vec<_>, _>>()?;
            let mut order: Vec<usize> = (0..all.len()).collect();
            // The least spread first, the earlier candidate on a tie.
            order.sort_by_key(|&i| (spread(&all[i].totals), i));
            let mut chosen = vec![false; all.len()];
            for &i in &order[..deals as usize] {
                chosen[i] = true;
            }
            let bound = spread(&all[order[deals as usize - 1]].totals);
            let kept = all
                .into_iter()
                .zip(chosen)
                .filter_map(|(candidate, chosen)| chosen.then_some(candidate))
                .collect();
            (kept, bound, drawn)
        }
        Keep::Within { points } => {
            let mut kept = Vec::new();
            let mut drawn = 0;
            while (kept.len() as u64) < deals {
                if drawn == balance.max_candidates {
                    return Err(format!(
                        "only {} of {deals} deals kept among {drawn} candidates: a spread of at \
                         most {points} points keeps too few deals here; allow a wider --bound, \
                         more --candidates, or keep a share of them (--keep PERCENT)",
                        kept.len()
                    ));
                }
                let next = candidate(drawn)?;
                drawn += 1;
                if spread(&next.totals) <= points {
                    kept.push(next);
                }
            }
            (kept, points, drawn)
        }
    };
    let judge = &balance.judge_name;
    let variant = balance.variant.name();
    let seats = balance.seats;
    let rule = match balance.keep {
        Keep::MostBalanced { percent } => format!(
            "the {deals} of least spread among the first {drawn} (the {percent}% most balanced; the earlier on a tie)"
        ),
        Keep::Within { .. } => format!("the first {deals} of spread at most {bound} points"),
    };
    let mut out = format!(
        "# A deal book of take5 (docs/tournaments.md): {deals} deals of seed {seed} balanced for {variant} at {seats} seats, written by\n\
         # `{command}`. Each deal is a seed: every round of a game of it is dealt from it.\n\
         # The candidates are the seed's deals in order, each played by {judge} at every seat; a deal's spread is the highest\n\
         # total minus the lowest (shown after each deal). Kept: {rule}.\n\
         balanced:\n  variant: {variant}\n  seats: {seats}\n  judge: {judge}\n"
    );
    if let Keep::MostBalanced { percent } = balance.keep {
        let _ = writeln!(out, "  keep_percent: {percent}");
    }
    let _ = write!(out, "  bound: {bound}\n  candidates: {drawn}\ndeals:\n");
    for kept in kept {
        let totals: Vec<String> = kept.totals.iter().map(|t| t.to_string()).collect();
        let _ = writeln!(
            out,
            "  - seed: {}  # totals {}",
            kept.seed,
            totals.join(",")
        );
    }
    Ok(out)
}
