//! The tournament's YAML file (docs/tournaments.md), read with file:line:column errors.

use crate::players::PlayerSpec;
use crate::players::pipe::{DECISION_TIMEOUT_MS, STARTUP_TIMEOUT_MS};
use crate::players::sandbox::Sandbox;
use crate::rules::Rules;
use crate::seat::{Clock, TimeLimits};
use crate::variants::Variant;
use crate::yaml::YamlError;
use serde::{Deserialize, Serialize};
use serde_saphyr::{Location, Spanned};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// The file as written, or its keys given by flags (`take5 tournament --bot ...`, where a
/// value has no place in a file: [`unplaced`]).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct File {
    pub bots: Vec<BotEntry>,
    pub seats: Spanned<usize>,
    /// Default: the book's deals with `deals_from`, else 1.
    #[serde(default)]
    pub deals: Option<Spanned<u64>>,
    /// A deal book (relative to the file): deal `d` is the book's `d`-th.
    #[serde(default)]
    pub deals_from: Option<Spanned<PathBuf>>,
    #[serde(default)]
    pub variant: Variant,
    #[serde(default)]
    pub house: Option<PathBuf>,
    pub seed: u64,
    #[serde(default = "decision_default")]
    pub timeout_ms: u64,
    #[serde(default = "startup_default")]
    pub startup_timeout_ms: u64,
    /// A game clock for every bot (`BASE+INC`, as `--clock`), instead of `timeout_ms`.
    #[serde(default)]
    pub clock: Option<Spanned<String>>,
    /// With a clock: the time a decision may run over it before it is a loss on time.
    #[serde(default)]
    pub clock_margin_ms: u64,
    pub format: Format,
    #[serde(default)]
    pub seatings: Seatings,
    /// Confines every command bot of the pool (`--sandbox`), unless a bot says otherwise.
    #[serde(default)]
    pub sandbox: Option<SandboxEntry>,
}

/// `sandbox:` of the file or of a bot: `true` (the default limits), `false`, or the settings
/// (docs/sandbox.md).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum SandboxEntry {
    Switch(bool),
    Settings(SandboxSettings),
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SandboxSettings {
    memory_mb: Option<u64>,
    processes: Option<u64>,
    open_files: Option<u64>,
    file_mb: Option<u64>,
    cpu_seconds: Option<u64>,
    /// Folders the bots may read besides the system's and their own, relative to the file.
    #[serde(default)]
    read: Vec<PathBuf>,
}

impl SandboxSettings {
    /// These settings over `sandbox`; read paths taken from `base`.
    fn over(&self, mut sandbox: Sandbox, base: Option<&Path>) -> Result<Sandbox, String> {
        let limits = [
            ("memory_mb", self.memory_mb),
            ("processes", self.processes),
            ("open_files", self.open_files),
            ("file_mb", self.file_mb),
            ("cpu_seconds", self.cpu_seconds),
        ];
        for (key, value) in limits {
            if let Some(value) = value {
                sandbox.limits.set(key, value)?;
            }
        }
        sandbox.read.extend(self.read.iter().map(|p| match base {
            Some(base) if p.is_relative() => base.join(p),
            _ => p.clone(),
        }));
        Ok(sandbox)
    }
}

/// The sandbox of a bot whose entry says `own`, in a file that says `all`.
fn sandbox_of(
    all: Option<&SandboxEntry>,
    own: Option<&SandboxEntry>,
    base: Option<&Path>,
) -> Result<Option<Sandbox>, String> {
    let pool = match all {
        None | Some(SandboxEntry::Switch(false)) => None,
        Some(SandboxEntry::Switch(true)) => Some(Sandbox::default()),
        Some(SandboxEntry::Settings(s)) => Some(s.over(Sandbox::default(), base)?),
    };
    Ok(match own {
        None => pool,
        Some(SandboxEntry::Switch(false)) => None,
        Some(SandboxEntry::Switch(true)) => Some(pool.unwrap_or_default()),
        Some(SandboxEntry::Settings(s)) => Some(s.over(pool.unwrap_or_default(), base)?),
    })
}

/// The seatings each deal is played in.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Seatings {
    /// Once per rotation of the seats (the referee's rotation).
    #[default]
    Rotations,
    /// Once per permutation of the table's bots over the seats.
    Permutations,
}

/// A bot of a pool as written (a tournament's `bots`, a tuning's `opponents`), or given by
/// `--bot` ([`BotEntry::parse_flag`]).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BotEntry {
    name: Spanned<String>,
    /// `builtin:<strategy>` or a command line, as for `take5 play --player`.
    player: String,
    #[serde(default)]
    timeout_ms: Option<u64>,
    #[serde(default)]
    startup_timeout_ms: Option<u64>,
    /// This bot's game clock (`BASE+INC`), over the file's: time odds.
    #[serde(default)]
    clock: Option<Spanned<String>>,
    /// The folder the bot starts in, relative to the file.
    #[serde(default)]
    dir: Option<Spanned<PathBuf>>,
    /// This bot's sandbox, over the pool's.
    #[serde(default)]
    sandbox: Option<SandboxEntry>,
}

/// A value given by a flag, not in a file: no place to name.
pub fn unplaced<T>(value: T) -> Spanned<T> {
    Spanned::new(value, Location::UNKNOWN, Location::UNKNOWN)
}

/// Which tables play.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum Format {
    /// Every combination of the pool at the table size.
    RoundRobin,
    /// The named bot against every combination of the others.
    Gauntlet { bot: String },
    /// `tables` tables drawn at random from the pool (seeded).
    Random { tables: u64 },
}

fn decision_default() -> u64 {
    DECISION_TIMEOUT_MS
}
fn startup_default() -> u64 {
    STARTUP_TIMEOUT_MS
}

/// A bot of the pool.
#[derive(Clone, Debug)]
pub struct Bot {
    pub name: String,
    pub player: PlayerSpec,
    /// Its time per decision, to start, and its game clock if it plays on one.
    pub limits: TimeLimits,
    /// The folder its process starts in.
    pub dir: Option<PathBuf>,
    /// How its processes are confined (`--sandbox`, `sandbox:`), if they are.
    pub sandbox: Option<Sandbox>,
}

impl Tournament {
    /// Confines every command bot of the pool (`--sandbox` on the command line): a bot with a
    /// sandbox of its own keeps its settings.
    pub fn sandbox_all(&mut self, sandbox: &Sandbox) {
        for bot in &mut self.pool {
            if bot.sandbox.is_none() {
                bot.sandbox = Some(sandbox.clone());
            }
        }
    }
}

impl Bot {
    /// Its player as `take5 play --player` takes it: `builtin:<strategy>` or its command line
    /// (also the name the record of its game gives it).
    pub fn player_text(&self) -> String {
        match &self.player {
            PlayerSpec::Builtin(s) => format!("builtin:{}", s.name()),
            PlayerSpec::Mcs(o) => format!("builtin:{}", o.spec()),
            PlayerSpec::Command(c) => c.clone(),
        }
    }
}

/// A tournament, checked and expanded into its tables.
#[derive(Clone, Debug)]
pub struct Tournament {
    pub pool: Vec<Bot>,
    pub seats: usize,
    pub deals: u64,
    pub game: GameRules,
    pub seed: u64,
    /// The deal book the deals come from, if any (else from the seed).
    pub book: Option<super::book::Book>,
    pub format: Format,
    pub seatings: Seatings,
    /// Pool indices of the bots of each table, in seat order of rotation 0.
    pub tables: Vec<Vec<usize>>,
}

/// Reads and checks a tournament file. House rule paths are relative to the file.
pub fn load(path: &Path) -> Result<Tournament, String> {
    crate::input::parse_file(path, crate::input::TOURNAMENT, parse)
}

/// Parses a tournament file's text; `path` names it in errors.
pub fn parse(text: &str, path: &Path) -> Result<Tournament, String> {
    let file: File = crate::yaml::parse(text, path).map_err(|e: YamlError| e.to_string())?;
    build(file, text, path, path.parent())
}

impl BotEntry {
    /// A bot given by `--bot NAME=PLAYER`, or `--bot NAME[KEY=VALUE,...]=PLAYER` with the
    /// options of a bot in the file: the keys `timeout_ms`, `startup_timeout_ms`, `clock` and
    /// `dir` (a folder without `,` or `]`).
    pub fn parse_flag(text: &str) -> Result<BotEntry, String> {
        let bad = || {
            format!(
                "`{text}` is not NAME=PLAYER or NAME[timeout_ms=MS,startup_timeout_ms=MS,clock=BASE+INC,dir=DIR]=PLAYER (e.g. r=builtin:random)"
            )
        };
        let equals = text.find('=').ok_or_else(bad)?;
        let (head, player) = match text.find('[') {
            Some(open) if open < equals => {
                let close = text[open..].find(']').ok_or_else(bad)? + open;
                let player = text[close + 1..].strip_prefix('=').ok_or_else(bad)?;
                (&text[..close + 1], player)
            }
            _ => (&text[..equals], &text[equals + 1..]),
        };
        let (name, options) = match head.split_once('[') {
            Some((name, options)) => (name, options.strip_suffix(']').ok_or_else(bad)?),
            None => (head, ""),
        };
        let mut bot = BotEntry {
            name: unplaced(name.to_string()),
            player: player.to_string(),
            timeout_ms: None,
            startup_timeout_ms: None,
            clock: None,
            dir: None,
            sandbox: None,
        };
        let millis = |key: &str, ms: &str| {
            ms.parse()
                .map_err(|_| format!("bot {name}: {key}=`{ms}` is not a number of milliseconds"))
        };
        for option in options.split(',').filter(|o| !o.is_empty()) {
            match option.split_once('=') {
                Some((key @ "timeout_ms", ms)) => bot.timeout_ms = Some(millis(key, ms)?),
                Some((key @ "startup_timeout_ms", ms)) => {
                    bot.startup_timeout_ms = Some(millis(key, ms)?)
                }
                Some(("dir", dir)) => bot.dir = Some(unplaced(PathBuf::from(dir))),
                Some(("clock", clock)) => {
                    Clock::parse(clock).map_err(|e| format!("bot {name}: {e}"))?;
                    bot.clock = Some(unplaced(clock.to_string()));
                }
                _ => {
                    return Err(format!(
                        "bot {name}: unknown option `{option}` (known: timeout_ms=MS, startup_timeout_ms=MS, clock=BASE+INC, dir=DIR)"
                    ));
                }
            }
        }
        Ok(bot)
    }
}

/// Checks and expands a tournament given by flags (the file's keys, paths relative to the
/// current folder): the same checks as a file's; errors start with `command line:`.
pub fn from_flags(file: File) -> Result<Tournament, String> {
    build(file, "", Path::new("command line"), None)
}

/// Checks `file`, read from `path` (named in errors); relative paths are taken from `base`.
fn build(file: File, text: &str, path: &Path, base: Option<&Path>) -> Result<Tournament, String> {
    let fail = |message: String| format!("{}: {message}", path.display());
    let fail_at = |place: Location, message: String| placed(path, place, message);
    let book = match &file.deals_from {
        Some(from) => {
            let full = match base {
                Some(base) if from.value.is_relative() => base.join(&from.value),
                _ => from.value.clone(),
            };
            Some(super::book::load(&full).map_err(|e| fail_at(from.referenced, e))?)
        }
        None => None,
    };
    let seats = file.seats.value;
    let (deals, deals_at) = match (&file.deals, &book) {
        (Some(deals), _) => (deals.value, deals.referenced),
        (None, Some(book)) => (book.seeds.len() as u64, Location::UNKNOWN),
        (None, None) => (1, Location::UNKNOWN),
    };
    if let Some(book) = &book
        && deals > book.seeds.len() as u64
    {
        return Err(fail_at(
            deals_at,
            format!(
                "deals is {deals} but the book {} has {}",
                book.path.display(),
                crate::words::count(book.seeds.len(), "deal")
            ),
        ));
    }
    let clock = match &file.clock {
        Some(spec) => Some(Clock::parse(&spec.value).map_err(|e| fail_at(spec.referenced, e))?),
        None => None,
    };
    let mut pool = Vec::new();
    for entry in &file.bots {
        let bot = check_bot(
            entry,
            Defaults {
                timeout_ms: file.timeout_ms,
                startup_timeout_ms: file.startup_timeout_ms,
                clock,
                clock_margin_ms: file.clock_margin_ms,
            },
            &pool,
            text,
            path,
            base,
            file.sandbox.as_ref(),
        )?;
        pool.push(bot);
    }
    if deals == 0 {
        return Err(fail_at(deals_at, "deals must be at least 1".into()));
    }
    if seats < 2 || seats > pool.len() {
        return Err(fail_at(
            file.seats.referenced,
            format!(
                "seats is {seats} but the pool has {} (need 2 <= seats <= bots)",
                crate::words::count(pool.len(), "bot")
            ),
        ));
    }
    let game = house_rules(file.variant, file.house.as_ref(), base).map_err(fail)?;
    game.rules
        .check_players(seats)
        .map_err(|e| fail_at(file.seats.referenced, e.to_string()))?;
    let everyone: Vec<usize> = (0..pool.len()).collect();
    // Tables are made before the first game: their number is checked before they are.
    let table_count = match &file.format {
        Format::RoundRobin => binomial(pool.len() as u64, seats as u64),
        Format::Gauntlet { .. } => binomial(pool.len() as u64 - 1, seats as u64 - 1),
        Format::Random { tables } => Some(*tables),
    };
    match table_count {
        Some(n) if n <= MAX_TABLES => {}
        _ => {
            return Err(fail(format!(
                "the format gives more than {MAX_TABLES} tables (the most a tournament may have)"
            )));
        }
    }
    let arrangements = match file.seatings {
        Seatings::Rotations => Some(seats as u64),
        Seatings::Permutations => (1..=seats as u64).try_fold(1u64, |p, k| p.checked_mul(k)),
    };
    if table_count
        .zip(arrangements)
        .and_then(|(t, a)| t.checked_mul(a))
        .and_then(|g| g.checked_mul(deals))
        .is_none()
    {
        return Err(fail_at(
            deals_at,
            format!(
                "deals is {deals}: tables x deals x seatings would be more than {} games",
                u64::MAX
            ),
        ));
    }
    let tables = match &file.format {
        Format::RoundRobin => combinations(&everyone, seats),
        Format::Gauntlet { bot } => {
            let hero = pool
                .iter()
                .position(|b| &b.name == bot)
                .ok_or_else(|| fail(format!("gauntlet: no bot is named `{bot}`")))?;
            let others: Vec<usize> = everyone.iter().copied().filter(|&i| i != hero).collect();
            combinations(&others, seats - 1)
                .into_iter()
                .map(|rest| std::iter::once(hero).chain(rest).collect())
                .collect()
        }
        Format::Random { tables } => {
            let mut rng = crate::rng::GameRng::new(file.seed, crate::rng::Stream::Deal(u64::MAX));
            (0..*tables)
                .map(|_| {
                    let mut all = everyone.clone();
                    let mut table = rng.draw(&mut all, seats).to_vec();
                    table.sort_unstable();
                    table
                })
                .collect()
        }
    };
    if tables.is_empty() {
        return Err(fail("the format gives no table to play".into()));
    }
    Ok(Tournament {
        pool,
        seats,
        deals,
        game,
        seed: file.seed,
        book,
        format: file.format,
        seatings: file.seatings,
        tables,
    })
}

/// An error about one value, naming where it is written (`FILE:LINE:COLUMN: ...`) when it is in
/// a file, else the file (`command line: ...`).
pub fn placed(path: &Path, place: Location, message: String) -> String {
    match place == Location::UNKNOWN {
        true => format!("{}: {message}", path.display()),
        false => format!(
            "{}:{}:{}: {message}",
            path.display(),
            place.line(),
            place.column()
        ),
    }
}

/// The file's defaults for a bot's limits.
#[derive(Clone, Copy, Debug)]
pub struct Defaults {
    pub timeout_ms: u64,
    pub startup_timeout_ms: u64,
    /// The pool's game clock (a bot's own `clock:` replaces it) and its margin.
    pub clock: Option<Clock>,
    pub clock_margin_ms: u64,
}

/// Checks a bot of a pool, read from `path` (whose `text` it is) after the bots of `pool`, its
/// folder relative to `base`, confined as its own `sandbox:` over the file's (`sandbox`) says: a
/// name fit for a file name and not taken, a player, limits above 0, a folder that exists.
pub fn check_bot(
    entry: &BotEntry,
    defaults: Defaults,
    pool: &[Bot],
    text: &str,
    path: &Path,
    base: Option<&Path>,
    sandbox: Option<&SandboxEntry>,
) -> Result<Bot, String> {
    let fail_at = |place: Location, message: String| placed(path, place, message);
    let (name, name_at) = (&entry.name.value, entry.name.referenced);
    // A name cut short by a ` #` comment is the likely cause of a refused name.
    let hint = crate::yaml::comment_after(
        text,
        name_at.line() as usize,
        name_at.column() as usize,
        name,
    )
    .map_or(String::new(), |hint| format!(" ({hint})"));
    if name.is_empty() || name.contains('/') || name.starts_with('.') {
        // Names are file names in `--log-io` folders.
        return Err(fail_at(
            name_at,
            format!(
                "bot name `{name}`: must be non-empty, without `/`, not starting with \
                 `.`{hint}"
            ),
        ));
    }
    if pool.iter().any(|b: &Bot| &b.name == name) {
        return Err(fail_at(
            name_at,
            format!("two bots are named `{name}`{hint}"),
        ));
    }
    let player = PlayerSpec::parse(&entry.player)
        .map_err(|e| fail_at(name_at, format!("bot {name}: {e}")))?;
    let ms = entry.timeout_ms.unwrap_or(defaults.timeout_ms);
    if ms == 0 {
        return Err(fail_at(
            name_at,
            format!("bot {name}: timeout_ms must be > 0"),
        ));
    }
    let startup_ms = entry
        .startup_timeout_ms
        .unwrap_or(defaults.startup_timeout_ms);
    if startup_ms == 0 {
        return Err(fail_at(
            name_at,
            format!("bot {name}: startup_timeout_ms must be > 0"),
        ));
    }
    let clock = match &entry.clock {
        Some(spec) => Some(
            Clock::parse(&spec.value)
                .map_err(|e| fail_at(spec.referenced, format!("bot {name}: {e}")))?,
        ),
        None => defaults.clock,
    };
    // A built-in bot answers in well under a microsecond: it is not timed, so it has no clock.
    let clock = clock.filter(|_| !matches!(player, PlayerSpec::Builtin(_)));
    let dir = match &entry.dir {
        Some(dir) => Some(folder(dir, base, name, path)?),
        None => None,
    };
    let sandbox = sandbox_of(sandbox, entry.sandbox.as_ref(), base)
        .map_err(|e| fail_at(name_at, format!("bot {name}: sandbox: {e}")))?;
    Ok(Bot {
        name: name.clone(),
        player,
        limits: TimeLimits {
            decision: Duration::from_millis(ms),
            startup: Duration::from_millis(startup_ms),
            clock: clock.map(|clock| Clock {
                margin_ms: defaults.clock_margin_ms,
                ..clock
            }),
        },
        dir,
        sandbox,
    })
}

/// A bot's folder (`dir`), relative to `base`: it must exist.
pub fn folder(
    dir: &Spanned<PathBuf>,
    base: Option<&Path>,
    name: &str,
    path: &Path,
) -> Result<PathBuf, String> {
    let full = match base {
        Some(base) if dir.value.is_relative() => base.join(&dir.value),
        _ => dir.value.clone(),
    };
    if !full.is_dir() {
        return Err(placed(
            path,
            dir.referenced,
            format!("bot {name}: dir `{}` is not a folder", full.display()),
        ));
    }
    Ok(full)
}

/// The game a tournament (or a tuning) plays: the variant, the rules it plays with, and the
/// house rules script, if any.
#[derive(Clone, Debug)]
pub struct GameRules {
    pub variant: Variant,
    /// The variant's rules, with the house script's settings.
    pub rules: Arc<Rules>,
    pub house: Option<PathBuf>,
    /// The SHA-256 of the house rules script, if any.
    pub house_sha256: Option<String>,
}

/// The game of `variant` with the house rules script `house` names (relative to `base`), if
/// any: the rules the variant plays with it (its own without), and the script's SHA-256.
pub fn house_rules(
    variant: Variant,
    house: Option<&PathBuf>,
    base: Option<&Path>,
) -> Result<GameRules, String> {
    let house = house.map(|h| match base {
        Some(dir) if h.is_relative() => dir.join(h),
        _ => h.clone(),
    });
    match &house {
        Some(h) => {
            let script =
                crate::house::House::load_with(h, variant.rules()).map_err(|e| e.to_string())?;
            script.check_variant(variant)?;
            let sha256 = script.for_record(String::new()).sha256;
            Ok(GameRules {
                variant,
                rules: Arc::new(script.rules().clone()),
                house,
                house_sha256: Some(sha256),
            })
        }
        None => Ok(GameRules {
            variant,
            rules: Arc::new(variant.rules()),
            house: None,
            house_sha256: None,
        }),
    }
}

/// The most tables a tournament may have (they are made before the first game).
pub const MAX_TABLES: u64 = 1_000_000;

/// `n` choose `k`, none if it does not fit in 64 bits.
fn binomial(n: u64, k: u64) -> Option<u64> {
    let k = k.min(n.saturating_sub(k));
    (0..k).try_fold(1u64, |acc, i| {
        // acc * (n - i) / (i + 1) is exact at every step; the product is checked.
        u64::try_from(u128::from(acc) * u128::from(n - i) / u128::from(i + 1)).ok()
    })
}

/// Every `k`-combination of `items`, in lexicographic order.
fn combinations(items: &[usize], k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for (i, &first) in items.iter().enumerate() {
        for rest in combinations(&items[i + 1..], k - 1) {
            out.push(std::iter::once(first).chain(rest).collect());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(text: &str) -> Result<Tournament, String> {
        parse(text, Path::new("t.yaml"))
    }

    #[test]
    fn bot_flags_parse() {
        let bot = |name: &str, player: &str, ms: Option<u64>, dir: Option<&str>| BotEntry {
            name: unplaced(name.into()),
            player: player.into(),
            timeout_ms: ms,
            startup_timeout_ms: None,
            clock: None,
            dir: dir.map(|d| unplaced(PathBuf::from(d))),
            sandbox: None,
        };
        let parse = BotEntry::parse_flag;
        assert_eq!(
            parse("py=python3 bot.py --x=1").unwrap(),
            bot("py", "python3 bot.py --x=1", None, None)
        );
        assert_eq!(
            parse("py[timeout_ms=5000,dir=bots]=python3 bot.py --x=[1]").unwrap(),
            bot("py", "python3 bot.py --x=[1]", Some(5000), Some("bots"))
        );
        assert_eq!(
            parse("py[dir=a]=./bot").unwrap(),
            bot("py", "./bot", None, Some("a"))
        );
        let slow = parse("py[startup_timeout_ms=30000]=python3 bot.py").unwrap();
        assert_eq!(slow.startup_timeout_ms, Some(30000));
        assert_eq!(slow.timeout_ms, None);
        assert!(parse("builtin:random").is_err());
        assert!(parse("py[timeout_ms=5000=x").is_err());
        let unknown = parse("py[time=5]=x").unwrap_err();
        assert!(unknown.contains("unknown option `time=5`"), "{unknown}");
        let ms = parse("py[timeout_ms=soon]=x").unwrap_err();
        assert!(ms.contains("`soon` is not a number"), "{ms}");
    }

    const POOL: &str = "bots:
  - {name: a, player: 'builtin:random'}
  - {name: b, player: 'builtin:lowest'}
  - {name: c, player: 'builtin:highest'}
  - {name: d, player: 'builtin:dodger', timeout_ms: 50}
seats: 3
deals: 2
seed: 7
";

    #[test]
    fn formats_give_their_tables() {
        let rr = parse_str(&format!("{POOL}format: round-robin\n")).unwrap();
        assert_eq!(
            rr.tables,
            vec![vec![0, 1, 2], vec![0, 1, 3], vec![0, 2, 3], vec![1, 2, 3]]
        );
        assert_eq!(rr.games(), 4 * 2 * 3);
        assert_eq!(rr.pool[3].limits.decision, Duration::from_millis(50));
        // The start-up limit is apart from the decision limit, 10 s unless given.
        assert_eq!(rr.pool[3].limits.startup, Duration::from_secs(10));
        let slow = POOL.replace(
            "timeout_ms: 50}",
            "timeout_ms: 50, startup_timeout_ms: 30000}",
        );
        let slow = parse_str(&format!(
            "{slow}startup_timeout_ms: 500\nformat: round-robin\n"
        ))
        .unwrap();
        assert_eq!(slow.pool[0].limits.startup, Duration::from_millis(500));
        assert_eq!(slow.pool[3].limits.startup, Duration::from_secs(30));
        let g = parse_str(&format!("{POOL}format: {{gauntlet: {{bot: c}}}}\n")).unwrap();
        assert_eq!(g.tables, vec![vec![2, 0, 1], vec![2, 0, 3], vec![2, 1, 3]]);
        let r = parse_str(&format!("{POOL}format: {{random: {{tables: 5}}}}\n")).unwrap();
        assert_eq!(r.tables.len(), 5);
        assert!(r.tables.iter().all(|t| t.len() == 3));
    }

    #[test]
    fn schedule_rotates_seats_per_deal() {
        let t = parse_str(&format!("{POOL}format: round-robin\n")).unwrap();
        let seatings: Vec<Vec<usize>> = (6..9).map(|id| t.game(id).seating).collect();
        assert_eq!(seatings, vec![vec![0, 1, 3], vec![1, 3, 0], vec![3, 0, 1]]);
        let g = t.game(10);
        assert_eq!((g.table, g.deal, g.rotation), (1, 1, 1));
    }

    #[test]
    fn permutations_play_every_order() {
        let t = parse_str(&format!(
            "{POOL}format: round-robin\nseatings: permutations\n"
        ))
        .unwrap();
        assert_eq!(t.arrangements(), 6);
        assert_eq!(t.games(), 4 * 2 * 6);
        let orders: Vec<Vec<usize>> = (0..6).map(|id| t.game(id).seating).collect();
        assert_eq!(
            orders,
            vec![
                vec![0, 1, 2],
                vec![0, 2, 1],
                vec![1, 0, 2],
                vec![1, 2, 0],
                vec![2, 0, 1],
                vec![2, 1, 0]
            ]
        );
        let g = t.game(6 * 3 + 4);
        assert_eq!((g.table, g.deal, g.rotation), (1, 1, 4));
        assert_eq!(g.seating, vec![3, 0, 1]);
    }

    #[test]
    fn errors_say_where() {
        let typo = parse_str(&format!("{POOL}format: round-robin\nsead: 1\n")).unwrap_err();
        assert!(
            typo.starts_with("t.yaml:10:1: unknown field `sead`"),
            "{typo}"
        );
        let hero = parse_str(&format!("{POOL}format: {{gauntlet: {{bot: z}}}}\n")).unwrap_err();
        assert_eq!(hero, "t.yaml: gauntlet: no bot is named `z`");
        let big = parse_str(&(POOL.replace("seats: 3", "seats: 5") + "format: round-robin\n"));
        assert!(big.unwrap_err().contains("seats is 5"));
    }
}
