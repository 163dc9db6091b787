//! Results files: a header line that says which tournament they are of, then one JSON line per
//! finished game, appended and flushed as soon as it is over, so a killed run loses at most the
//! games under way (docs/tournaments.md). A run holds a lock on its file: a second writer is
//! refused.

use super::Scheduled;
use super::config::Tournament;
use crate::game::Outcome;
use crate::record::FaultLine;
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::Path;

/// One finished game. Two results are the same game when all but their `times` agree (times
/// differ from run to run).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameResult {
    /// The game's id in the schedule: `(table * deals + deal) * seats + rotation`.
    pub game: u64,
    pub table: u64,
    /// Which deal: every table plays the same deals, each once per rotation.
    pub deal: u64,
    pub rotation: u64,
    /// The game's seed: `take5 play --seed SEED` with the bots of `seating` in that order
    /// replays it (the whole command: `take5 tournament ... --replay ID`, docs/tournaments.md);
    /// absent from files of older take5s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The bot (its pool name) at each seat.
    pub seating: Vec<String>,
    /// Each seat's final total (penalty points).
    pub totals: Vec<i32>,
    /// Each seat's rank, 1 the best; equal results share a rank (1, 1, 3).
    pub ranks: Vec<u32>,
    pub winners: Vec<usize>,
    pub faults: Vec<FaultLine>,
    /// Each seat's decision times, for the command bots (none for a built-in bot); absent when
    /// no seat is a command bot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub times: Option<Vec<Option<super::timing::SeatTimes>>>,
}

impl PartialEq for GameResult {
    fn eq(&self, other: &GameResult) -> bool {
        let GameResult {
            game,
            table,
            deal,
            rotation,
            seed,
            seating,
            totals,
            ranks,
            winners,
            faults,
            times: _,
        } = self;
        (
            game, table, deal, rotation, seed, seating, totals, ranks, winners, faults,
        ) == (
            &other.game,
            &other.table,
            &other.deal,
            &other.rotation,
            &other.seed,
            &other.seating,
            &other.totals,
            &other.ranks,
            &other.winners,
            &other.faults,
        )
    }
}

impl Eq for GameResult {}

impl GameResult {
    pub fn new<'a>(
        game: &Scheduled,
        seed: u64,
        pool: impl Iterator<Item = &'a str> + Clone,
        outcome: &Outcome,
        faults: Vec<FaultLine>,
        times: Option<Vec<Option<super::timing::SeatTimes>>>,
    ) -> GameResult {
        let names: Vec<&str> = pool.collect();
        GameResult {
            game: game.id,
            table: game.table,
            deal: game.deal,
            rotation: game.rotation,
            seed: Some(seed),
            seating: game.seating.iter().map(|&b| names[b].to_string()).collect(),
            totals: outcome.totals.clone(),
            ranks: outcome.ranks(),
            winners: outcome.winners.clone(),
            faults,
            times,
        }
    }
}

/// Why `result` is not game `result.game` of the schedule `tournament` plays (in `shard`), if
/// it is not: its deal, table, rotation, seating (the bots at their seats) and seed must be the
/// schedule's. A game without a seed (from an older take5) passes only when `has_header`: the
/// file's header vouches for its seed; without one nothing else tells which seed it was played
/// with.
pub fn not_scheduled(
    tournament: &Tournament,
    shard: Option<(u64, u64)>,
    result: &GameResult,
    has_header: bool,
) -> Option<String> {
    let total = tournament.games();
    if result.game >= total {
        return Some(format!("this tournament has {total} games"));
    }
    if let Some((k, n)) = shard
        && !super::in_shard(result.game, shard)
    {
        return Some(format!("it is not in shard {k}/{n}"));
    }
    let game = tournament.game(result.game);
    let names: Vec<&str> = game
        .seating
        .iter()
        .map(|&b| tournament.pool[b].name.as_str())
        .collect();
    let seed = tournament.game_seed(game.deal);
    let differs = |what: &str, theirs: String, ours: String| {
        Some(format!("its {what} is {theirs}, the schedule's is {ours}"))
    };
    if (result.table, result.deal, result.rotation) != (game.table, game.deal, game.rotation) {
        return differs(
            "table, deal and rotation",
            format!("{}, {}, {}", result.table, result.deal, result.rotation),
            format!("{}, {}, {}", game.table, game.deal, game.rotation),
        );
    }
    if result.seating != names {
        return differs("seating", result.seating.join(","), names.join(","));
    }
    match result.seed {
        Some(theirs) if theirs != seed => differs("seed", theirs.to_string(), seed.to_string()),
        None if !has_header => Some(
            "it has no seed, and the file no header: which seed it was played with cannot be checked"
                .to_string(),
        ),
        _ => None,
    }
}

/// The results format this take5 writes (the header's `take5_results`).
pub const FORMAT: u32 = 1;

/// The first line of a results file: where its games come from. Two files hold games of the
/// same tournament when their headers are equal but for `take5` and `shard`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// The results format's version.
    pub take5_results: u32,
    /// The version of take5 that started the file.
    pub take5: String,
    /// The game played (its fields are the line's own).
    #[serde(flatten)]
    pub game: GameHeader,
    pub seed: u64,
    /// The SHA-256 of the deal book the deals come from (`deals_from`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub book_sha256: Option<String>,
    pub pool: Vec<PoolBot>,
    pub seats: usize,
    pub deals: u64,
    pub format: super::config::Format,
    pub seatings: super::config::Seatings,
    /// `K/N` for a shard, none for the whole tournament.
    pub shard: Option<String>,
    /// The event the tournament is played as, if said (`--event`): told, not compared (a
    /// resumed run or a shard may say it or not).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<Event>,
}

/// The game a header says was played (a results file's, a tuning's state's): the variant, the
/// rules with the house script's settings, the script's SHA-256.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameHeader {
    pub variant: crate::variants::Variant,
    /// The rules played, the deck included.
    pub rules: crate::rules::Rules,
    /// The SHA-256 of the house rules script, if any.
    pub house_sha256: Option<String>,
}

impl GameHeader {
    pub fn of(game: &super::config::GameRules) -> GameHeader {
        GameHeader {
            variant: game.variant,
            rules: (*game.rules).clone(),
            house_sha256: game.house_sha256.clone(),
        }
    }
}

/// What a tournament is played as: `--event NAME`, `--site SITE`, `--date DATE` (text, as
/// given).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Event {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
}

impl Event {
    /// `NAME, SITE, DATE`, the parts given.
    pub fn text(&self) -> String {
        [Some(&self.name), self.site.as_ref(), self.date.as_ref()]
            .into_iter()
            .flatten()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// A bot of the pool, as the header names it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PoolBot {
    pub name: String,
    /// `builtin:<strategy>` or its command line.
    pub player: String,
    pub timeout_ms: u64,
    /// Its game clock (`BASE+INC` in milliseconds, as `--clock` takes it), if it has one; left
    /// out otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<String>,
    /// The folder it starts in, if not take5's.
    pub dir: Option<String>,
}

impl PoolBot {
    /// How a header names `bot`.
    pub fn of(bot: &super::config::Bot) -> PoolBot {
        PoolBot {
            name: bot.name.clone(),
            player: bot.player_text(),
            timeout_ms: bot.limits.decision.as_millis() as u64,
            clock: bot.limits.clock.map(|c| match c.margin_ms {
                0 => c.spec(),
                margin => format!("{}, margin {margin}", c.spec()),
            }),
            dir: bot.dir.as_ref().map(|d| d.display().to_string()),
        }
    }
}

impl Header {
    /// The header of `tournament`'s results, for shard `K/N` if given.
    pub fn of(tournament: &Tournament, shard: Option<(u64, u64)>) -> Header {
        Header {
            take5_results: FORMAT,
            take5: env!("CARGO_PKG_VERSION").to_string(),
            game: GameHeader::of(&tournament.game),
            seed: tournament.seed,
            book_sha256: tournament.book.as_ref().map(|b| b.sha256.clone()),
            pool: tournament.pool.iter().map(PoolBot::of).collect(),
            seats: tournament.seats,
            deals: tournament.deals,
            format: tournament.format.clone(),
            seatings: tournament.seatings,
            shard: shard.map(|(k, n)| format!("{k}/{n}")),
            event: None,
        }
    }

    /// The first field (in the header's order; inside a field, its first part that differs,
    /// as `rules.max_players` or `pool.1.timeout_ms`) where `self` and `other` differ, with both
    /// values, skipping the top-level fields named in `ignore`; none when they agree.
    pub fn differs(&self, other: &Header, ignore: &[&str]) -> Option<(String, String, String)> {
        let (a, b) = (
            serde_json::to_value(self).expect("a header serializes"),
            serde_json::to_value(other).expect("a header serializes"),
        );
        FIELDS
            .iter()
            .filter(|key| !ignore.contains(key))
            .find_map(|key| first_difference(key.to_string(), &a[key], &b[key]))
    }
}

/// The header's fields, in their order.
const FIELDS: [&str; 14] = [
    "take5_results",
    "take5",
    "variant",
    "rules",
    "house_sha256",
    "seed",
    "book_sha256",
    "pool",
    "seats",
    "deals",
    "format",
    "seatings",
    "shard",
    "event",
];

/// Where `a` and `b` first differ, as a path from `at`, with both values (shortened).
pub fn first_difference(
    at: String,
    a: &serde_json::Value,
    b: &serde_json::Value,
) -> Option<(String, String, String)> {
    use serde_json::Value;
    if a == b {
        return None;
    }
    let inner = match (a, b) {
        (Value::Object(x), Value::Object(y)) => x.keys().chain(y.keys()).find_map(|k| {
            let (x, y) = (
                x.get(k).unwrap_or(&Value::Null),
                y.get(k).unwrap_or(&Value::Null),
            );
            first_difference(format!("{at}.{k}"), x, y)
        }),
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (x, y))| first_difference(format!("{at}.{i}"), x, y)),
        _ => None,
    };
    inner.or_else(|| {
        let short = |v: &Value| {
            let text = v.to_string();
            match text.char_indices().nth(80) {
                Some((cut, _)) => format!("{}...", &text[..cut]),
                None => text,
            }
        };
        Some((at, short(a), short(b)))
    })
}

/// Whether a results file's line is its header (the first line of a file since results
/// format 1).
pub fn is_header(line: &str) -> bool {
    line.starts_with(HEADER_START)
}

/// How a results file's header line starts (and no game result does).
pub const HEADER_START: &str = "{\"take5_results\":";

/// The header of a results file; none for a file written before headers (or an empty one).
pub fn read_header(path: &Path) -> Result<Option<Header>, String> {
    let file = File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut line = String::new();
    BufReader::new(file)
        .take(MAX_HEADER_BYTES)
        .read_line(&mut line)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if !is_header(&line) {
        return Ok(None);
    }
    if !line.ends_with('\n') {
        return Err(format!(
            "{}:1: the header is cut short (or longer than {MAX_HEADER_BYTES} bytes)",
            path.display()
        ));
    }
    serde_json::from_str(&line)
        .map(Some)
        .map_err(|e| format!("{}:1: not a results header: {e}", path.display()))
}

/// The longest header line read.
const MAX_HEADER_BYTES: u64 = 1 << 20;

/// The longest line a results file may have, in bytes: a record's ([`crate::record::MAX_LINE`]),
/// far more than a game's result or a header takes. Readers refuse a longer line, naming it,
/// rather than hold it (`/dev/zero` ends with that error, in bounded memory).
pub const MAX_LINE: usize = crate::record::MAX_LINE;

/// Reads the next line of a results file into `line` (cleared first), with its line end, but
/// refuses a line longer than [`MAX_LINE`]: line `number` of `path`. The bytes read; 0 at the
/// end. A last line without a line end (torn by a kill) is returned as it is.
pub fn read_line(
    input: &mut impl BufRead,
    line: &mut Vec<u8>,
    path: &Path,
    number: u64,
) -> Result<usize, String> {
    line.clear();
    let n = (&mut *input)
        .take(MAX_LINE as u64 + 1)
        .read_until(b'\n', line)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if n > MAX_LINE && line.last() != Some(&b'\n') {
        return Err(format!(
            "{}:{number}: the line is longer than {MAX_LINE} bytes, the longest a results line may be (not a results file?)",
            path.display()
        ));
    }
    Ok(n)
}

/// Reads a results file's games (its header, if any, is skipped: see [`read_header`]). A last
/// line cut short by a killed run (no newline at its end) is dropped, and the length of the
/// whole lines returned so the file can be cut back to them.
pub fn read(path: &Path) -> Result<(Vec<GameResult>, u64), String> {
    let file = File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut reader = BufReader::new(file);
    let mut results = Vec::new();
    let mut line = Vec::new();
    let mut good = 0u64;
    let mut number = 0;
    loop {
        let n = read_line(&mut reader, &mut line, path, number + 1)?;
        if n == 0 {
            break;
        }
        number += 1;
        if line.last() != Some(&b'\n') {
            // A line torn by a kill: the game was not finished as far as the file knows.
            break;
        }
        if number == 1 && line.starts_with(HEADER_START.as_bytes()) {
            good += n as u64;
            continue;
        }
        let result: GameResult = serde_json::from_slice(&line)
            .map_err(|e| format!("{}:{number}: not a game result: {e}", path.display()))?;
        results.push(result);
        good += n as u64;
    }
    Ok((results, good))
}

/// What [`open`] found in the file.
pub struct Opened {
    /// Open for appending, and locked for as long as it is open.
    pub file: File,
    /// The games already in it.
    pub done: Vec<GameResult>,
    /// With `--resume`: a warning for a file without a header.
    pub warning: Option<String>,
    /// Whether the file has a header (a new file gets one).
    pub has_header: bool,
}

/// Opens the file at `path` to read and write, made if missing and nothing cut from it yet, and
/// locks it for this run ([`lock`]).
pub fn open_locked(path: &Path) -> Result<File, String> {
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    lock(&file, path)?;
    Ok(file)
}

/// Locks `file` (at `path`) for this run, or says that another take5 holds it.
fn lock(file: &File, path: &Path) -> Result<(), String> {
    match file.try_lock() {
        Ok(()) => Ok(()),
        Err(std::fs::TryLockError::WouldBlock) => Err(format!(
            "{} is being written by another take5 (it holds the file's lock): wait for it to end, or write another file",
            path.display()
        )),
        Err(std::fs::TryLockError::Error(e)) => {
            Err(format!("cannot write {}: {e}", path.display()))
        }
    }
}

/// Opens a results file for appending: a new one, started with `header`, or with `resume`, an
/// existing one cut back to its whole lines, whose header must be `header` (but for the take5
/// version; a file without a header, from an older take5, gets a warning). The file is locked:
/// a second take5 writing it is refused.
pub fn open(path: &Path, resume: bool, header: &Header) -> Result<Opened, String> {
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
    let fail = |e: io::Error| format!("cannot write {}: {e}", path.display());
    let mut file = open_locked(path)?;
    let mut warning = None;
    let mut has_header = true;
    let (done, good) = if exists && resume {
        match read_header(path)? {
            Some(old) => {
                if let Some((field, theirs, ours)) = old.differs(header, &["take5", "event"]) {
                    return Err(format!(
                        "{}: the results are of another tournament: its header's `{field}` is {theirs}, this tournament's is {ours}",
                        path.display()
                    ));
                }
            }
            None => {
                has_header = false;
                warning = Some(format!(
                    "{}: no header (written by an older take5): its games are checked one by one against this tournament's schedule (seed, deal, bots at their seats)",
                    path.display()
                ))
            }
        }
        read(path)?
    } else {
        (Vec::new(), 0)
    };
    file.set_len(good).map_err(fail)?;
    file.seek(SeekFrom::End(0)).map_err(fail)?;
    if good == 0 {
        let mut line = serde_json::to_vec(header)
            .map_err(io::Error::other)
            .map_err(fail)?;
        line.push(b'\n');
        file.write_all(&line).map_err(fail)?;
    }
    Ok(Opened {
        file,
        done,
        warning,
        has_header,
    })
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

    /// A tournament of two built-in bots.
    const POOL: &str = "bots:
  - {name: a, player: 'builtin:random'}
  - {name: b, player: 'builtin:lowest'}
seats: 2
seed: 1
format: round-robin
";

    /// The header of the tournament file `text`, for `shard`.
    fn header(text: &str, shard: Option<(u64, u64)>) -> Header {
        let t = crate::tournament::config::parse(text, Path::new("t.yaml")).unwrap();
        Header::of(&t, shard)
    }

    #[test]
    fn a_header_names_the_first_field_that_differs() {
        let pool = POOL;
        let one = header(pool, None);
        assert_eq!(one.differs(&one.clone(), &[]), None);
        let seed = header(&pool.replace("seed: 1", "seed: 2"), None);
        assert_eq!(
            one.differs(&seed, &[]),
            Some(("seed".into(), "1".into(), "2".into()))
        );
        let slow = header(&pool.replace("lowest'}", "lowest', timeout_ms: 5}"), None);
        assert_eq!(
            one.differs(&slow, &[]),
            Some(("pool.1.timeout_ms".into(), "2000".into(), "5".into()))
        );
        let shard = header(pool, Some((2, 4)));
        assert_eq!(
            one.differs(&shard, &[]),
            Some(("shard".into(), "null".into(), "\"2/4\"".into()))
        );
        assert_eq!(one.differs(&shard, &["shard"]), None);
    }

    /// The game's fields stand in the header line as its own, after `take5`; the line reads
    /// back, and a key it does not know is refused.
    #[test]
    fn a_header_line_holds_the_game_in_place_and_refuses_unknown_keys() {
        let header = header(POOL, None);
        let line = serde_json::to_string(&header).unwrap();
        let start = format!(
            r#"{{"take5_results":{FORMAT},"take5":"{}","variant":"classic","rules":{{"#,
            env!("CARGO_PKG_VERSION")
        );
        assert!(line.starts_with(&start), "{line}");
        assert!(
            line.contains(r#"},"house_sha256":null,"seed":1,"#),
            "{line}"
        );
        assert_eq!(serde_json::from_str::<Header>(&line).unwrap(), header);
        let extra = line.replacen(r#""seed":1"#, r#""seed":1,"speed":2"#, 1);
        let refused = serde_json::from_str::<Header>(&extra).unwrap_err();
        assert!(refused.to_string().contains("speed"), "{refused}");
    }
}
