//! Re-checks a game record (docs/records.md) against the rules: replays every game through the
//! model and requires each line the model emits to be the recorded line, in order.
//!
//! The record drives the replay: a `deal` line is applied with [`Game::deal`], a `reveal` line
//! becomes one [`Action::Play`] per seat, and a `take` line with reason `low` becomes the
//! [`Action::TakeRow`] of its seat; a `pick` line (the Pro variant's draft) becomes the
//! [`Action::Pick`] of its seat (the draft's last pick deals the round: its `deal` line
//! follows), and a `keep` line where the model waits for a #-row choice (Take a Number) the
//! [`Action::Keep`] of its seat. Every other event line (`place`, `take` of a full row,
//! `round_end`, `game_end`) must be exactly what the model emits next. `fault` lines are the
//! referee's notes and change nothing. The first line that is wrong is named, with why.
//!
//! A game whose header names a house rule script (`house`) is replayed with that script: it is
//! loaded from its path relative to the record's folder and must have the hash the header gives
//! ([`crate::house::load_for_record`]); each game gets fresh hooks.
//!
//! ```
//! let record = take5::verify::verify_record(std::io::Cursor::new("")).unwrap_err();
//! assert_eq!(record.to_string(), "the record holds no game");
//! ```

use crate::cards::Card;
use crate::fixture::report;
use crate::game::{
    Action, Deal, Decision, Discard, Event, EventSink, Game, Outcome, Points, Seat, SpecialDeal,
    TakeReason, ToMove,
};
use crate::house::{self, House};
use crate::record::{
    Answer, ClockLine, FORMAT, FORMAT_COMPACT, Header, HouseScript, Line, LineReader, MAX_LINE,
    ReadError,
};
use crate::rng::{GameRng, Stream};
use crate::rules::Rules;
use crate::seat::{FaultKind, RunningClock};
use crate::variants::AnyGame;
use crate::variants::Variant;
use std::collections::VecDeque;
use std::fmt;
use std::io::BufRead;
use std::path::Path;
use std::sync::Arc;

/// What a valid record holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    pub games: Vec<GameSummary>,
    /// Lines read (blank lines not counted).
    pub lines: usize,
}

/// One verified game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    /// The game's number, from its header.
    pub number: u64,
    /// The line of its header, from 1.
    pub line: usize,
    pub variant: Variant,
    pub players: Vec<String>,
    /// Rounds played.
    pub rounds: u32,
    pub outcome: Outcome,
    /// `fault` lines in the game.
    pub faults: usize,
}

/// The first thing wrong with a record, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyError {
    /// The line (from 1) it is about; `None` when it is about the whole record.
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub message: String,
    /// The record could not be read at all (an I/O error), as opposed to being wrong.
    pub unreadable: bool,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (Some(line), Some(column)) => write!(f, "{line}:{column}: {}", self.message),
            (Some(line), None) => write!(f, "{line}: {}", self.message),
            _ => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for VerifyError {}

impl VerifyError {
    fn at(line: usize, message: impl Into<String>) -> VerifyError {
        VerifyError {
            line: Some(line),
            column: None,
            message: message.into(),
            unreadable: false,
        }
    }

    /// The error with the record's name in front: `record.jsonl:37: ...`.
    pub fn in_file(&self, name: &str) -> String {
        if self.line.is_some() {
            format!("{name}:{self}")
        } else {
            format!("{name}: {self}")
        }
    }
}

/// Verifies every game of a record read from `input`; house rule scripts its headers name are
/// found from the current folder (see [`verify_record_in`]).
pub fn verify_record(input: impl BufRead) -> Result<Summary, VerifyError> {
    verify_record_in(input, Path::new(""))
}

/// Verifies every game of a record read from `input`, a file in `record_dir`: the house rule
/// scripts its headers name are found from there. The summary holds every game: for records of
/// any size, [`verify_stream`] holds none.
pub fn verify_record_in(input: impl BufRead, record_dir: &Path) -> Result<Summary, VerifyError> {
    let mut games = Vec::new();
    let counts = verify_stream(input, record_dir, |game| games.push(game))?;
    Ok(Summary {
        games,
        lines: counts.lines,
    })
}

/// What [`verify_stream`] read of a valid record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counts {
    pub games: u64,
    /// Lines read (blank lines not counted).
    pub lines: usize,
}

/// Verifies every game of a record read from `input` (plain text: see [`record::open`] for
/// compressed files), a file in `record_dir`, reading one line at a time: memory holds two
/// lines and the game being replayed, whatever the record's size. `on_game` gets each game once
/// it has verified.
pub fn verify_stream(
    input: impl BufRead,
    record_dir: &Path,
    on_game: impl FnMut(GameSummary),
) -> Result<Counts, VerifyError> {
    let mut reader = LineReader::new(input);
    let lines = std::iter::from_fn(move || match reader.next_parsed() {
        Ok(Some((number, line))) => Some(line.map(|l| (number, l)).map_err(|e| VerifyError {
            line: Some(e.line),
            column: Some(e.column),
            message: format!("not a record line: {}", e.message),
            unreadable: false,
        })),
        Ok(None) => None,
        Err(e) => Some(Err(read_error(e))),
    });
    verify_iter(lines, record_dir, on_game, None)
}

fn read_error(e: ReadError) -> VerifyError {
    match e {
        ReadError::Io { error, line } => VerifyError {
            line: None,
            column: None,
            message: format!("cannot read the record after line {line}: {error}"),
            unreadable: true,
        },
        // Past a documented input limit: input take5 will not read (exit 2), not a wrong game.
        ReadError::TooLong { line } => VerifyError {
            unreadable: true,
            ..VerifyError::at(
                line,
                format!(
                    "the line is longer than {MAX_LINE} bytes, the longest a record line may be"
                ),
            )
        },
        ReadError::NotText { line } => VerifyError::at(line, "the line is not UTF-8 text"),
    }
}

/// Verifies parsed record lines, each with its line number; house rule scripts are found from
/// the current folder.
pub fn verify_lines(lines: &[(usize, Line)]) -> Result<Summary, VerifyError> {
    verify_lines_in(lines, Path::new(""))
}

/// Verifies parsed record lines, each with its line number, of a record in `record_dir` (where
/// the house rule scripts its headers name are found from).
pub fn verify_lines_in(lines: &[(usize, Line)], record_dir: &Path) -> Result<Summary, VerifyError> {
    replay_lines_in(lines, record_dir, None)
}

/// One record line as the replay took it, with the game after it (for viewers: `take5 show`).
pub struct Replayed<'a> {
    /// The line's number, from 1.
    pub number: usize,
    pub line: &'a Line,
    /// The header of the game the line belongs to.
    pub header: &'a Header,
    /// Whether the line drove the game on (a deal, the cards of a turn, a decision); the other
    /// event lines are what the model emitted when the last driving line was applied.
    pub drove: bool,
    /// The game after the line.
    pub game: &'a AnyGame,
}

/// [`verify_lines_in`], telling `seen` (where given) of every line once the replay has taken it.
pub fn replay_lines_in(
    lines: &[(usize, Line)],
    record_dir: &Path,
    seen: Option<&mut dyn FnMut(Replayed)>,
) -> Result<Summary, VerifyError> {
    let mut games = Vec::new();
    let counts = verify_iter(
        lines.iter().cloned().map(Ok),
        record_dir,
        |game| games.push(game),
        seen,
    )?;
    Ok(Summary {
        games,
        lines: counts.lines,
    })
}

/// The replay of a record's lines, each looked at with the line after it; `seen`, where given,
/// is told of every line after it was taken.
fn verify_iter(
    mut lines: impl Iterator<Item = Result<(usize, Line), VerifyError>>,
    record_dir: &Path,
    mut on_game: impl FnMut(GameSummary),
    mut seen: Option<&mut dyn FnMut(Replayed)>,
) -> Result<Counts, VerifyError> {
    let mut houses = Houses {
        record_dir,
        loaded: Vec::new(),
    };
    let mut counts = Counts { games: 0, lines: 0 };
    let mut current: Option<Replay> = None;
    // The last game's replay, finished: the next game of the same table reuses its memory.
    let mut spent: Option<Replay> = None;
    let mut next = lines.next().transpose()?;
    let mut last = 0;
    while let Some((number, line)) = next.take() {
        next = lines.next().transpose()?;
        counts.lines += 1;
        last = number;
        let mut drove = false;
        match &line {
            Line::Game(_) => {
                if let Some(mut replay) = current.take() {
                    on_game(replay.finish(number, "the next game starts")?);
                    counts.games += 1;
                    spent = Some(replay);
                }
                // A viewer is shown the line after the replay took it (the header moves into
                // the replay), so it gets a copy; verifying alone copies nothing.
                let shown = seen.is_some().then(|| line.clone());
                let Line::Game(header) = line else {
                    unreachable!("matched")
                };
                let replay = Replay::start(header, number, &mut houses, spent.take())?;
                if let (Some(seen), Some(line)) = (seen.as_mut(), &shown) {
                    seen(Replayed {
                        number,
                        line,
                        header: &replay.header,
                        drove: false,
                        game: &replay.game,
                    });
                }
                current = Some(replay);
                continue;
            }
            Line::Fault(fault) => {
                let replay = current.as_mut().ok_or_else(|| no_header(number))?;
                if fault.seat >= replay.game.seats() {
                    return Err(VerifyError::at(
                        number,
                        format!(
                            "fault of seat {}, but the game has seats 0 to {}",
                            fault.seat,
                            replay.game.seats() - 1
                        ),
                    ));
                }
                let over = if replay.compact {
                    replay.ended
                } else {
                    replay.pending.is_empty() && replay.game.outcome().is_some()
                };
                if over {
                    return Err(VerifyError::at(
                        number,
                        format!(
                            "a `fault` line after the end of game {} (its `game_end` line): a \
                             game's faults come before it",
                            replay.header.id()
                        ),
                    ));
                }
                replay.faults += 1;
                // A seat out of time is not timed again, whatever its last line measured.
                if fault.kind == FaultKind::Clock
                    && let Some(Some(run)) = replay.clocks.get_mut(fault.seat)
                {
                    run.lost = true;
                }
            }
            Line::Clock(clock) => {
                let replay = current.as_mut().ok_or_else(|| no_header(number))?;
                let run = replay.clocks.get_mut(clock.seat).and_then(Option::as_mut);
                let Some(run) = run else {
                    return Err(VerifyError::at(
                        number,
                        format!(
                            "a `clock` line of seat {}, which has no clock in the header's \
                             `clocks`",
                            clock.seat
                        ),
                    ));
                };
                run_clock(run, clock).map_err(|message| VerifyError::at(number, message))?;
            }
            Line::Stopped(stop) => {
                current.as_ref().ok_or_else(|| no_header(number))?;
                return Err(VerifyError::at(
                    number,
                    format!(
                        "the referee stopped this game before its end: {}",
                        stop.reason
                    ),
                ));
            }
            Line::Turn(answers) => {
                let replay = current.as_mut().ok_or_else(|| no_header(number))?;
                if !replay.compact {
                    return Err(VerifyError::at(
                        number,
                        format!(
                            "a turn line in a game of record format {}: turn lines are those of \
                             compact records (format {FORMAT_COMPACT})",
                            replay.header.format
                        ),
                    ));
                }
                replay.compact_turn(answers, number, &mut seen)?;
                continue;
            }
            Line::Event(event) => {
                let replay = current.as_mut().ok_or_else(|| no_header(number))?;
                let at = EventAt {
                    event,
                    line: number,
                    next: match &next {
                        Some((_, Line::Event(e))) => Some(e),
                        _ => None,
                    },
                };
                if replay.compact {
                    replay.compact_event(at, &mut seen)?;
                    continue;
                }
                drove = replay.pending.is_empty();
                replay.event(at)?;
            }
        }
        if let (Some(seen), Some(replay)) = (seen.as_mut(), &current) {
            seen(Replayed {
                number,
                line: &line,
                header: &replay.header,
                drove,
                game: &replay.game,
            });
        }
    }
    match current {
        Some(mut replay) => {
            on_game(replay.finish(last, "the record ends")?);
            counts.games += 1;
        }
        None => {
            return Err(VerifyError {
                line: None,
                column: None,
                message: "the record holds no game".into(),
                unreadable: false,
            });
        }
    }
    Ok(counts)
}

fn no_header(line: usize) -> VerifyError {
    VerifyError::at(line, "a record starts with a `game` line")
}

/// The house rule scripts of a record, each loaded once (games get fresh hooks from it).
struct Houses<'a> {
    record_dir: &'a Path,
    loaded: Vec<(HouseScript, Variant, House)>,
}

impl Houses<'_> {
    /// The script a header at `line` names, loaded over the rules of the header's `variant`
    /// and checked against the header.
    fn get(
        &mut self,
        script: &HouseScript,
        variant: Variant,
        line: usize,
    ) -> Result<&House, VerifyError> {
        let found = self
            .loaded
            .iter()
            .position(|(s, v, _)| s == script && *v == variant);
        let index = match found {
            Some(index) => index,
            None => {
                let house = house::load_for_record_with(script, self.record_dir, variant.rules())
                    .map_err(|e| VerifyError {
                    line: Some(line),
                    column: None,
                    message: format!(
                        "the house rule script of the header ({}) cannot be used: {}",
                        script.path, e.message
                    ),
                    unreadable: true,
                })?;
                self.loaded.push((script.clone(), variant, house));
                self.loaded.len() - 1
            }
        };
        Ok(&self.loaded[index].2)
    }
}

/// The settings in which `a` and `b` differ, by name.
fn differing_settings(a: &Rules, b: &Rules) -> Vec<&'static str> {
    // Each setting's name is its field's.
    macro_rules! differing {
        ($($setting:ident)*) => {
            [$((stringify!($setting), a.$setting != b.$setting)),*]
        };
    }
    let settings = differing!(deck rows draft row_capacity hand_size min_players max_players end
        ties circle take_a_number anniversary pro);
    let differ = settings.into_iter().filter(|&(_, differ)| differ);
    differ.map(|(name, _)| name).collect()
}

/// One game being replayed.
struct Replay {
    header: Box<Header>,
    line: usize,
    game: AnyGame,
    /// Events the model emitted that the record has not shown yet.
    pending: VecDeque<Event>,
    faults: usize,
    rounds: u32,
    /// The deal stream of the header's seed, if it has one.
    rng: Option<GameRng>,
    /// A compact record (format 2): the lines are the players' answers.
    compact: bool,
    /// Compact records: while every seat decides, the next seat the referee asks (it asks
    /// each seat in turn, from 0, whether it owes a decision).
    sweep: Option<Seat>,
    /// Compact records: the `game_end` line was read.
    ended: bool,
    /// Compact records: the `specials` line of the deal line just read is due.
    specials_due: bool,
    /// Compact records replayed for a viewer: the events the last step emitted.
    shown: Vec<Event>,
    /// Each seat's clock as its `clock` lines run it (none for a seat without one): the time
    /// left they must say next, and whether the seat lost on time (then no `clock` line of it
    /// may follow).
    clocks: Vec<Option<RunningClock>>,
}

/// Takes a `clock` line into its seat's clock: it must say the time left the lines before it
/// leave, and come before the seat lost on time.
fn run_clock(clock: &mut RunningClock, line: &ClockLine) -> Result<(), String> {
    if clock.lost {
        return Err(format!(
            "a `clock` line of seat {} after it lost on time: the fallback plays for it, untimed",
            line.seat
        ));
    }
    if line.left_us != clock.left_us {
        return Err(format!(
            "seat {}'s clock had {} us left, not {}: its base, less the times taken before, plus \
             an increment of {} ms for each",
            line.seat, clock.left_us, line.left_us, clock.clock.increment_ms
        ));
    }
    clock.take(line.took_us);
    Ok(())
}

/// A record's event line: the event, its line number, and the event on the line after it when
/// that line is one (a record line may be checked with the line that follows it).
#[derive(Clone, Copy)]
struct EventAt<'a> {
    event: &'a Event,
    line: usize,
    next: Option<&'a Event>,
}

/// What the referee asks next in a compact record's game.
enum Question {
    /// `seat` owes an answer to the decision.
    Answer(Seat, Decision),
    /// Round N must be dealt, and the seed does not deal it: the record's `deal` line does.
    Deal(u32),
    Over,
}

impl Question {
    /// What the rules wait for, in words (the end of the game: nothing).
    fn in_words(&self) -> String {
        match *self {
            Question::Answer(seat, decision) => asked(seat, decision),
            Question::Deal(round) => format!("the deal of round {round}"),
            Question::Over => "nothing: the game is over".into(),
        }
    }
}

impl Replay {
    /// The replay of the game whose header is at `line`; `spent`, the last game's finished
    /// replay, is reused when the game is played at the same table with the same rules (the
    /// header's checks then hold as they did for it).
    fn start(
        header: Box<Header>,
        line: usize,
        houses: &mut Houses,
        spent: Option<Replay>,
    ) -> Result<Replay, VerifyError> {
        if header.format != FORMAT && header.format != FORMAT_COMPACT {
            return Err(VerifyError::at(
                line,
                format!(
                    "record format {} is not known; this take5 reads formats {FORMAT} and \
                     {FORMAT_COMPACT}",
                    header.format
                ),
            ));
        }
        let compact = header.format == FORMAT_COMPACT;
        let same_table = |old: &Replay| {
            old.header.house.is_none()
                && header.house.is_none()
                && old.header.variant == header.variant
                && old.game.seats() == header.players.len()
                && old.header.given_deck == header.given_deck
                && old.header.seed.is_some() == header.seed.is_some()
                && old.header.rules == header.rules
        };
        if let Some(mut old) = spent.filter(same_table) {
            old.game.restart();
            let seats = header.players.len() as u64;
            old.rng = match (old.rng, header.seed) {
                (Some(mut rng), Some(seed)) if old.header.seed == Some(seed) => {
                    rng.restart(Stream::Deal(header.game / seats));
                    Some(rng)
                }
                (_, seed) => seed.map(|seed| GameRng::new(seed, Stream::Deal(header.game / seats))),
            };
            old.header = header;
            old.line = line;
            old.pending.clear();
            old.faults = 0;
            old.rounds = 0;
            old.compact = compact;
            old.sweep = None;
            old.ended = false;
            old.specials_due = false;
            old.shown.clear();
            return Ok(old);
        }
        let rules = Arc::new(header.rules.clone());
        let mut game = header
            .variant
            .new_game(rules, header.players.len())
            .map_err(|e| {
                VerifyError::at(line, format!("the header's game cannot be set up: {e}"))
            })?;
        if let Some(script) = &header.house {
            let house = houses.get(script, header.variant, line)?;
            // The header's rules are the script's settings applied: the hooks see those.
            let played = house.rules().at_table(header.players.len());
            let differ = differing_settings(&header.rules, &played);
            if !differ.is_empty() {
                return Err(VerifyError::at(
                    line,
                    format!(
                        "the header's rules are not those of its house rule script ({}): {} \
                         differ{}",
                        script.path,
                        differ.join(", "),
                        if differ.len() == 1 { "s" } else { "" }
                    ),
                ));
            }
            let hooks = house.new_game().map_err(|e| VerifyError {
                line: Some(line),
                column: None,
                message: format!(
                    "the house rule script of the header ({}) cannot start the game: {}",
                    script.path, e.message
                ),
                unreadable: true,
            })?;
            game.set_house(hooks);
        } else {
            // Without a script, the rules are the variant's, but for what the header says was
            // given and a variant's own options. A record without a seed (every deal given, as
            // by hand) may set its own table and length of game, not its deck.
            let mut expected = header.variant.rules().at_table(header.players.len());
            if header.seed.is_none() {
                expected = Rules {
                    deck: expected.deck,
                    ..header.rules.clone()
                };
            }
            if header.given_deck {
                expected.deck = header.rules.deck.clone();
            }
            if header.variant.describe().drafts {
                expected.draft = header.rules.draft;
            }
            let differ = differing_settings(&header.rules, &expected);
            if !differ.is_empty() {
                return Err(VerifyError::at(
                    line,
                    format!(
                        "the header's rules are not those of the {} variant: {} differ{}{}",
                        header.variant.name(),
                        differ.join(", "),
                        if differ.len() == 1 { "s" } else { "" },
                        if differ == ["deck"] {
                            " (a deck given with --deck is marked `given_deck`)"
                        } else {
                            ""
                        }
                    ),
                ));
            }
        }
        // The deals the header's seed made are drawn again, from the stream the referee drew
        // them from (docs/records.md, "Seeds").
        let rng = header.seed.map(|seed| {
            let seats = header.players.len().max(1) as u64;
            GameRng::new(seed, Stream::Deal(header.game / seats))
        });
        Ok(Replay {
            line,
            game,
            pending: VecDeque::new(),
            faults: 0,
            rounds: 0,
            rng,
            compact,
            sweep: None,
            ended: false,
            specials_due: false,
            shown: Vec::new(),
            clocks: (header.clocks.iter())
                .map(|clock| clock.map(RunningClock::new))
                .collect(),
            header,
        })
    }

    /// Compact records: the question the referee asks next, found as its loop finds it (every
    /// seat asked in turn from 0 while everyone decides, else the seat the rules name). On the
    /// way the rounds the header's seed deals are dealt, if `deal_seed`.
    #[inline(always)]
    fn next_question(
        &mut self,
        deal_seed: bool,
        collect: bool,
        line: usize,
    ) -> Result<Question, VerifyError> {
        let seats = self.game.seats();
        loop {
            if let Some(seat) = self.sweep {
                if seat < seats {
                    self.sweep = Some(seat + 1);
                    if let Some(decision) = self.game.owes(seat) {
                        return Ok(Question::Answer(seat, decision));
                    }
                    continue;
                }
                self.sweep = None;
            }
            match self.game.to_move() {
                ToMove::Deal => {
                    let round = self.rounds + 1;
                    match &mut self.rng {
                        Some(rng) if deal_seed && round > self.header.given_deals => {
                            let mut discard = Discard;
                            let sink: &mut dyn EventSink = if collect {
                                &mut self.shown
                            } else {
                                &mut discard
                            };
                            self.game.deal_random(rng, sink).map_err(|e| {
                                VerifyError::at(
                                    line,
                                    format!(
                                        "the seed's deal of round {round} breaks the rules: {}: {e}",
                                        e.kind()
                                    ),
                                )
                            })?;
                            self.rounds = round;
                        }
                        _ => return Ok(Question::Deal(round)),
                    }
                }
                ToMove::Everyone(_) => self.sweep = Some(0),
                ToMove::Seat(seat, decision) => return Ok(Question::Answer(seat, decision)),
                ToMove::GameOver => return Ok(Question::Over),
            }
        }
    }

    /// Tells a viewer of the events the last step emitted, the first as the one that drove.
    fn show(&mut self, number: usize, seen: &mut Option<&mut dyn FnMut(Replayed)>) {
        let Some(seen) = seen.as_mut() else {
            return;
        };
        for (i, event) in self.shown.drain(..).enumerate() {
            let line = Line::Event(event);
            seen(Replayed {
                number,
                line: &line,
                header: &self.header,
                drove: i == 0,
                game: &self.game,
            });
        }
    }

    /// A compact record's turn line at `line`: each answer is applied for the seat the
    /// referee asked, as the question it answered.
    fn compact_turn(
        &mut self,
        answers: &[Answer],
        line: usize,
        seen: &mut Option<&mut dyn FnMut(Replayed)>,
    ) -> Result<(), VerifyError> {
        if answers.is_empty() {
            return Err(VerifyError::at(
                line,
                "an empty turn line: a turn line holds one answer or more",
            ));
        }
        let collect = seen.is_some();
        for (i, &answer) in answers.iter().enumerate() {
            let which = || match answers.len() {
                1 => String::new(),
                _ => format!("answer {} of the line: ", i + 1),
            };
            let question = self.next_question(true, collect, line)?;
            if collect {
                self.show(line, seen);
            }
            let (seat, decision) = match question {
                Question::Answer(seat, decision) => (seat, decision),
                Question::Deal(round) => {
                    return Err(VerifyError::at(
                        line,
                        format!(
                            "{}the rules wait for the deal of round {round}, a round the \
                             record gives (a `deal` line), not its seed",
                            which()
                        ),
                    ));
                }
                Question::Over => {
                    return Err(VerifyError::at(
                        line,
                        format!(
                            "{}an answer after the end of the game (the next line is its \
                             `game_end`)",
                            which()
                        ),
                    ));
                }
            };
            let action = compact_action(answer, seat, decision)
                .map_err(|m| VerifyError::at(line, format!("{}{m}", which())))?;
            let mut discard = Discard;
            let sink: &mut dyn EventSink = if collect {
                &mut self.shown
            } else {
                &mut discard
            };
            self.game.apply(seat, action, sink).map_err(|e| {
                VerifyError::at(
                    line,
                    format!(
                        "{}seat {seat} cannot {}: {}: {e}",
                        which(),
                        describe(action),
                        e.kind()
                    ),
                )
            })?;
            if collect {
                self.show(line, seen);
            }
        }
        Ok(())
    }

    /// An event line of a compact record: the `deal` (and `specials`) of a round given, or
    /// the `game_end`, whose totals and winners must be the rules'.
    fn compact_event(
        &mut self,
        at: EventAt,
        seen: &mut Option<&mut dyn FnMut(Replayed)>,
    ) -> Result<(), VerifyError> {
        let collect = seen.is_some();
        if self.ended {
            return Err(VerifyError::at(
                at.line,
                format!(
                    "extra line after the end of the game: `{}` (the game is over)",
                    report::event(at.event)
                ),
            ));
        }
        if self.specials_due {
            self.specials_due = false;
            if matches!(at.event, Event::Specials { .. }) {
                return Ok(());
            }
        }
        match at.event {
            Event::Deal {
                round: given,
                hands,
                rows,
            } => {
                let round = match self.next_question(false, collect, at.line)? {
                    Question::Deal(round) => round,
                    answer @ Question::Answer(..) => {
                        let waiting = answer.in_words();
                        let why = format!("a `deal` line, but the rules wait for {waiting}");
                        return Err(VerifyError::at(at.line, why));
                    }
                    Question::Over => {
                        return Err(VerifyError::at(
                            at.line,
                            "a `deal` line after the end of the game (the next line is its \
                             `game_end`)",
                        ));
                    }
                };
                if let Some(seed) = self.header.seed
                    && round > self.header.given_deals
                {
                    return Err(VerifyError::at(
                        at.line,
                        format!(
                            "round {round} is dealt by the header's seed {seed}: a compact \
                             record has `deal` lines only for the rounds given (`given_deals`: \
                             {})",
                            self.header.given_deals
                        ),
                    ));
                }
                if *given != round {
                    return Err(VerifyError::at(
                        at.line,
                        format!("the deal of round {given}, but round {round} is due"),
                    ));
                }
                let specials = special_deal(at.next);
                self.specials_due = specials.is_some();
                let deal = Deal {
                    hands: hands.clone(),
                    rows: rows.clone(),
                    specials,
                };
                given_deal_holds(&self.header, round, &deal, at.line)?;
                let mut discard = Discard;
                let sink: &mut dyn EventSink = if collect {
                    &mut self.shown
                } else {
                    &mut discard
                };
                self.game.deal(&deal, sink).map_err(|e| {
                    VerifyError::at(
                        at.line,
                        format!("the deal breaks the rules: {}: {e}", e.kind()),
                    )
                })?;
                self.rounds = round;
                self.show(at.line, seen);
                Ok(())
            }
            Event::GameEnd { .. } => {
                match self.next_question(true, collect, at.line)? {
                    Question::Over => {}
                    waiting => {
                        let waiting = waiting.in_words();
                        let why = format!("the game is not over: the rules wait for {waiting}");
                        return Err(VerifyError::at(at.line, why));
                    }
                }
                self.show(at.line, seen);
                let outcome = self.game.outcome().expect("the game is over");
                let expected = Event::GameEnd {
                    totals: outcome.totals,
                    winners: outcome.winners,
                };
                if *at.event != expected {
                    return Err(VerifyError::at(at.line, explain(at.event, &expected)));
                }
                // (A Pro round is dealt by its draft's last pick, not by a deal.)
                self.rounds = self.rounds.max(self.game.view(0).round);
                self.ended = true;
                Ok(())
            }
            other => Err(VerifyError::at(
                at.line,
                format!(
                    "a `{}` line in a compact record (format {FORMAT_COMPACT}): its games hold \
                     turn lines, the `deal` lines of rounds given and a `game_end` line \
                     (docs/records.md)",
                    other.name()
                ),
            )),
        }
    }

    fn event(&mut self, at: EventAt) -> Result<(), VerifyError> {
        if self.pending.is_empty() {
            self.drive(at)?;
        } else if matches!(
            at.event,
            Event::Deal { .. } | Event::Reveal { .. } | Event::Pick { .. }
        ) && self.pending.front() != Some(at.event)
        {
            // (A pro round's deal line follows the draft's last pick, which emits it.)
            let due = &self.pending[0];
            let message = if std::mem::discriminant(due) == std::mem::discriminant(at.event) {
                // The line the rules emit here, changed: say how it differs.
                explain(at.event, due)
            } else {
                format!(
                    "a line is missing before this one: the rules emit `{}` first",
                    report::event(due)
                )
            };
            return Err(VerifyError::at(at.line, message));
        }
        let expected = self
            .pending
            .pop_front()
            .expect("the model emitted something");
        if *at.event == expected {
            return Ok(());
        }
        let message = if self.pending.front() == Some(at.event) {
            format!(
                "a line is missing before this one: the rules emit `{}` first",
                report::event(&expected)
            )
        } else if at.next == Some(&expected) {
            format!(
                "extra line `{}`: the rules emit `{}` here, as the next line says",
                report::event(at.event),
                report::event(&expected)
            )
        } else {
            explain(at.event, &expected)
        };
        Err(VerifyError::at(at.line, message))
    }

    /// With nothing pending, the event `at` must be the line that makes the game go on.
    fn drive(&mut self, at: EventAt) -> Result<(), VerifyError> {
        // What the model emits goes straight to the lines pending (none are, when a line drives).
        let emitted = &mut self.pending;
        let game = &mut self.game;
        let refused = |what: String, e: crate::game::RuleError| {
            VerifyError::at(at.line, format!("{what}: {}: {e}", e.kind()))
        };
        // A low card's row is on its `take` line, which follows the `cancel` line of a Negative =
        // Positive played with it (anniversary).
        let low_take = match (at.event, at.next) {
            (
                Event::Take {
                    seat,
                    row,
                    reason: TakeReason::Low,
                    ..
                },
                _,
            )
            | (
                Event::Cancel { .. },
                Some(Event::Take {
                    seat,
                    row,
                    reason: TakeReason::Low,
                    ..
                }),
            ) => Some((*seat, *row)),
            _ => None,
        };
        // A swap's line follows the reshuffle it causes.
        let swapped = match (at.event, at.next) {
            (Event::Swap { seat, gave, .. }, _)
            | (Event::Reshuffle { .. }, Some(Event::Swap { seat, gave, .. })) => {
                Some((*seat, *gave))
            }
            _ => None,
        };
        match (game.to_move(), at.event) {
            (ToMove::Deal, Event::Deal { hands, rows, .. }) => {
                // An anniversary deal's special cards are on the line after it.
                let specials = special_deal(at.next);
                let round = self.rounds + 1;
                match &mut self.rng {
                    Some(rng) if round > self.header.given_deals => {
                        game.deal_random(rng, emitted)
                            .map_err(|e| refused("the seed's deal breaks the rules".into(), e))?;
                        let dealt = emitted.front().expect("a deal emits its line");
                        if dealt != at.event {
                            return Err(VerifyError::at(
                                at.line,
                                format!(
                                    "{} (round {round} from the header's seed {})",
                                    explain(at.event, dealt),
                                    self.header.seed.expect("a seed"),
                                ),
                            ));
                        }
                    }
                    _ => {
                        let deal = Deal {
                            hands: hands.clone(),
                            rows: rows.clone(),
                            specials,
                        };
                        given_deal_holds(&self.header, round, &deal, at.line)?;
                        game.deal(&deal, emitted)
                            .map_err(|e| refused("the deal breaks the rules".into(), e))?;
                    }
                }
                self.rounds += 1;
            }
            (ToMove::Everyone(_), Event::Reveal { cards, .. }) => {
                let seats = game.seats();
                if cards.len() != seats {
                    return Err(VerifyError::at(
                        at.line,
                        format!(
                            "{} revealed for {seats} seats",
                            crate::words::count(cards.len(), "card")
                        ),
                    ));
                }
                for (seat, &card) in cards.iter().enumerate() {
                    game.apply(seat, Action::Play(card), emitted)
                        .map_err(|e| refused(format!("seat {seat} cannot play {card}"), e))?;
                }
            }
            (ToMove::Seat(_, Decision::ChooseRow { .. }), _) if low_take.is_some() => {
                let (seat, row) = low_take.expect("checked");
                game.apply(seat, Action::TakeRow(row), emitted)
                    .map_err(|e| refused(format!("seat {seat} cannot take row {row}"), e))?;
            }
            (ToMove::Seat(_, Decision::Pick), Event::Pick { seat, card }) => {
                game.apply(*seat, Action::Pick(*card), emitted)
                    .map_err(|e| refused(format!("seat {seat} cannot pick {card}"), e))?;
                // The draft's last pick deals the round.
                if emitted.iter().any(|e| matches!(e, Event::Deal { .. })) {
                    self.rounds += 1;
                }
            }
            (ToMove::Seat(_, Decision::KeepCard), Event::Keep { seat, card }) => {
                game.apply(*seat, Action::Keep(*card), emitted)
                    .map_err(|e| refused(format!("seat {seat} cannot keep {card}"), e))?;
            }
            (ToMove::Seat(_, Decision::Place { .. }), Event::Place { seat, card, .. }) => {
                game.apply(*seat, Action::Play(*card), emitted)
                    .map_err(|e| refused(format!("seat {seat} cannot place {card}"), e))?;
            }
            (
                ToMove::Seat(_, Decision::Place { .. }),
                &Event::PlaceSpecial { seat, special, row },
            ) => {
                game.apply(seat, Action::PlaceSpecial { special, row }, emitted)
                    .map_err(|e| {
                        refused(
                            format!("seat {seat} cannot put {special} into row {row}"),
                            e,
                        )
                    })?;
            }
            (ToMove::Seat(_, Decision::Special { .. }), Event::Special { seat, play, .. }) => {
                game.apply(*seat, Action::Special(*play), emitted)
                    .map_err(|e| {
                        refused(
                            format!("seat {seat} cannot play {}", report::special_play(play)),
                            e,
                        )
                    })?;
            }
            (ToMove::Seat(_, Decision::Place { .. }), &Event::EndTurn { seat }) => {
                game.apply(seat, Action::EndTurn, emitted)
                    .map_err(|e| refused(format!("seat {seat} cannot end its turn"), e))?;
            }
            (ToMove::Seat(_, Decision::Cancel), Event::Cancel { seat, card, .. }) => {
                game.apply(*seat, Action::Cancel(*card), emitted)
                    .map_err(|e| refused(format!("seat {seat} cannot cancel {card}"), e))?;
            }
            (ToMove::Seat(_, Decision::Swap), _) if swapped.is_some() => {
                let (seat, gave) = swapped.expect("checked");
                game.apply(seat, Action::Swap(gave), emitted)
                    .map_err(|e| refused(format!("seat {seat} cannot swap {gave}"), e))?;
            }
            (
                ToMove::Seat(seat, Decision::Special { .. } | Decision::Cancel | Decision::Swap),
                _,
            ) => {
                // No line for the special card question: the seat passed.
                game.apply(seat, Action::Pass, emitted)
                    .map_err(|e| refused(format!("seat {seat} cannot pass"), e))?;
            }
            (ToMove::GameOver, _) => {
                return Err(VerifyError::at(
                    at.line,
                    format!(
                        "extra line after the end of the game: `{}` (the game is over)",
                        report::event(at.event)
                    ),
                ));
            }
            (to_move, _) => {
                return Err(VerifyError::at(
                    at.line,
                    format!(
                        "the rules wait for {}; the record has `{}`",
                        waiting_for(game, to_move),
                        report::event(at.event)
                    ),
                ));
            }
        }
        if emitted.is_empty() {
            // The action said nothing and led to another decision (anniversary: a low card's
            // row, then Negative = Positive; a pass, then a row or the next turn's cards): the
            // line drives that too.
            return self.drive(at);
        }
        Ok(())
    }

    /// The game's lines are over (at `line`, because `why`): nothing may be left to say.
    fn finish(&mut self, line: usize, why: &str) -> Result<GameSummary, VerifyError> {
        if self.compact && !self.ended && self.game.outcome().is_some() {
            return Err(VerifyError::at(
                line,
                format!("a line is missing: {why}, but the game's `game_end` line is not there"),
            ));
        }
        if let Some(missing) = self.pending.front() {
            return Err(VerifyError::at(
                line,
                format!(
                    "a line is missing: {why}, but the rules emit `{}` first",
                    report::event(missing)
                ),
            ));
        }
        let Some(outcome) = self.game.outcome() else {
            let to_move = self.game.to_move();
            return Err(VerifyError::at(
                line,
                format!(
                    "game {} (line {}) is unfinished: {why}, but the rules wait for {}",
                    self.header.id(),
                    self.line,
                    waiting_for(&self.game, to_move)
                ),
            ));
        };
        Ok(GameSummary {
            number: self.header.game,
            line: self.line,
            variant: self.header.variant,
            players: std::mem::take(&mut self.header.players),
            rounds: self.rounds,
            outcome,
            faults: self.faults,
        })
    }
}

/// A compact record's `answer` as the action it is for `seat`'s `decision`, or why it is not
/// one.
fn compact_action(answer: Answer, seat: Seat, decision: Decision) -> Result<Action, Unfit> {
    let unfit = |why| Unfit {
        seat,
        decision,
        answer,
        why,
    };
    let card = |n: u32| u16::try_from(n).map(Card).map_err(|_| unfit(Why::NoCard));
    Ok(match (decision, answer) {
        (Decision::PlayCard | Decision::Place { .. }, Answer::Number(n)) => Action::Play(card(n)?),
        (Decision::ChooseRow { .. }, Answer::Number(n)) => Action::TakeRow(n as usize),
        (Decision::KeepCard, Answer::Number(n)) => Action::Keep(card(n)?),
        (Decision::Pick, Answer::Number(n)) => Action::Pick(card(n)?),
        (Decision::Cancel, Answer::Number(n)) => Action::Cancel(card(n)?),
        (Decision::Special { .. } | Decision::Cancel | Decision::Swap, Answer::Pass) => {
            Action::Pass
        }
        (Decision::Place { .. }, Answer::EndTurn) => Action::EndTurn,
        (Decision::Place { .. }, Answer::PlaceSpecial { special, row }) => Action::PlaceSpecial {
            special,
            row: usize::from(row),
        },
        (Decision::Special { .. }, Answer::Special(play)) => Action::Special(play),
        (Decision::Swap, Answer::Swap(special)) => Action::Swap(special),
        _ => return Err(unfit(Why::Unexpected)),
    })
}

/// A compact record's answer that is no action for the decision waited for, put in words only
/// when shown: every answer of a record is made an action, and a `String` error's set-up cost
/// there more than the making (docs/performance.md, "The classic engine and the compact
/// record doing less").
#[derive(Clone, Copy, Debug)]
struct Unfit {
    seat: Seat,
    decision: Decision,
    answer: Answer,
    why: Why,
}

/// Why an answer is no action ([`Unfit`]).
#[derive(Clone, Copy, Debug)]
enum Why {
    /// A number above every card, for a card.
    NoCard,
    /// An answer of another kind than the decision takes.
    Unexpected,
}

impl fmt::Display for Unfit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let waited = asked(self.seat, self.decision);
        match (self.why, self.answer) {
            (Why::NoCard, Answer::Number(n)) => write!(f, "{n} is no card ({waited} waited for)"),
            (_, answer) => write!(
                f,
                "the rules wait for {waited}; the line has `{}`",
                serde_json::to_string(&answer).unwrap_or_default()
            ),
        }
    }
}

/// A decision a compact record answers, in words, with the answers it takes.
fn asked(seat: Seat, decision: Decision) -> String {
    match decision {
        Decision::PlayCard => format!("seat {seat}'s card"),
        Decision::ChooseRow { card } => format!("seat {seat}'s row for its low card {card}"),
        Decision::KeepCard => format!("seat {seat}'s choice of a #-row card"),
        Decision::Pick => format!("seat {seat}'s pick"),
        Decision::Place { .. } => {
            format!("seat {seat}'s placement (a card, {{\"special\":..,\"row\":..}}, or \"end\")")
        }
        Decision::Special { card } => {
            format!("seat {seat}'s special card for {card} (its play, or \"pass\")")
        }
        Decision::Cancel => format!("seat {seat}'s Negative = Positive (a card, or \"pass\")"),
        Decision::Swap => format!("seat {seat}'s swap (a special card's name, or \"pass\")"),
    }
}

/// An action, as what a seat does: `play 17`, `take row 2`.
fn describe(action: Action) -> String {
    match action {
        Action::Play(card) => format!("play {card}"),
        Action::TakeRow(row) => format!("take row {row}"),
        Action::Keep(card) => format!("keep {card}"),
        Action::Pick(card) => format!("pick {card}"),
        Action::PlaceSpecial { special, row } => format!("put {special} into row {row}"),
        Action::EndTurn => "end its turn".into(),
        Action::Special(play) => format!("play {}", report::special_play(&play)),
        Action::Pass => "pass".into(),
        Action::Cancel(card) => format!("cancel {card}"),
        Action::Swap(special) => format!("swap {special}"),
    }
}

/// What the game waits for, in words.
fn waiting_for(game: &dyn Game, to_move: ToMove) -> String {
    let view = game.view(0);
    match to_move {
        ToMove::Deal => format!("the deal of round {}", view.round + 1),
        ToMove::Everyone(_) => format!(
            "the cards of round {} turn {} (a `reveal` line)",
            view.round, view.turn
        ),
        ToMove::Seat(seat, Decision::ChooseRow { card }) => format!(
            "seat {seat}'s row choice for its low card {card} (a `take` line with reason `low`)"
        ),
        ToMove::Seat(seat, Decision::PlayCard) => format!("seat {seat}'s card"),
        ToMove::Seat(seat, Decision::Pick) => format!("seat {seat}'s pick (a `pick` line)"),
        ToMove::Seat(seat, Decision::KeepCard) => {
            format!("seat {seat}'s choice of a #-row card (a `keep` line)")
        }
        ToMove::Seat(seat, Decision::Place { .. }) => format!(
            "seat {seat}'s placement or the end of its turn (a `place`, `place_special` or \
             `end_turn` line)"
        ),
        ToMove::Seat(seat, Decision::Special { card }) => {
            format!("seat {seat}'s special card for {card} (a `special` line, or none)")
        }
        ToMove::Seat(seat, Decision::Cancel) => {
            format!("seat {seat}'s Negative = Positive (a `cancel` line, or none)")
        }
        ToMove::Seat(seat, Decision::Swap) => {
            format!("seat {seat}'s swap (a `swap` line, or none)")
        }
        ToMove::GameOver => "nothing: the game is over".into(),
    }
}

/// The seat whose hand a recorded deal line lists out of order, when that is all that is wrong
/// with it (the rules emit each hand sorted).
fn unsorted_hand(recorded: &Event, expected: &Event) -> Option<Seat> {
    let (
        Event::Deal {
            round: d1,
            hands: h1,
            rows: r1,
        },
        Event::Deal {
            round: d2,
            hands: h2,
            rows: r2,
        },
    ) = (recorded, expected)
    else {
        return None;
    };
    let sorted = |hand: &Vec<Card>| {
        let mut hand = hand.clone();
        hand.sort_unstable();
        hand
    };
    let same_sorted = h1.len() == h2.len() && h1.iter().map(sorted).eq(h2.iter().cloned());
    if d1 != d2 || r1 != r2 || !same_sorted {
        return None;
    }
    h1.iter().position(|h| h.windows(2).any(|w| w[0] > w[1]))
}

/// Why a recorded line is not the one the rules emit, as precisely as the two lines allow.
fn explain(recorded: &Event, expected: &Event) -> String {
    let numbers = |v: &[Points]| {
        v.iter()
            .map(Points::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    let cards = |v: &[Card]| v.iter().map(Card::to_string).collect::<Vec<_>>().join(" ");
    if let Some(seat) = unsorted_hand(recorded, expected) {
        return format!(
            "seat {seat}'s hand is not in ascending order: a deal line lists each hand sorted"
        );
    }
    // A deal the rules make (from the seed, by the draft) that the record changed.
    if let Some(how) = report::deal_difference("the record", recorded, expected) {
        return how;
    }
    match (recorded, expected) {
        (
            Event::Place {
                seat: s1,
                card: c1,
                row: r1,
            },
            Event::Place {
                seat: s2,
                card: c2,
                row: r2,
            },
        ) if s1 == s2 && c1 == c2 => {
            format!("card {c1} was placed on row {r1}, the rules put it on row {r2}")
        }
        (
            Event::Place { seat, card, row },
            Event::Take {
                seat: taker,
                row: taken,
                reason: TakeReason::Full,
                ..
            },
        ) if seat == taker => format!(
            "card {card} was placed on row {row}, but the rules have seat {seat} take row {taken} first: it is full"
        ),
        (
            Event::Take {
                seat: s1, row: r1, ..
            },
            Event::Place {
                seat: s2,
                card,
                row: r2,
            },
        ) if s1 == s2 => format!(
            "seat {s1} took row {r1}, but the rules put its card {card} on row {r2} without a take"
        ),
        (
            Event::Take {
                seat: s1,
                row: r1,
                cards: k1,
                bullheads: b1,
                reason: why1,
            },
            Event::Take {
                seat: s2,
                row: r2,
                cards: k2,
                bullheads: b2,
                reason: why2,
            },
        ) if s1 == s2 && r1 == r2 && why1 == why2 => {
            if k1 != k2 {
                format!(
                    "row {r1} taken by seat {s1} holds {} in the record, the rules say {}",
                    cards(k1),
                    cards(k2)
                )
            } else {
                format!(
                    "row {r1} ({}) is worth {}, the record says {b1}",
                    cards(k1),
                    crate::words::count(*b2, "bullhead")
                )
            }
        }
        (
            Event::RoundEnd {
                round,
                penalties: p1,
                totals: t1,
            },
            Event::RoundEnd {
                penalties: p2,
                totals: t2,
                ..
            },
        ) => {
            if p1 != p2 {
                format!(
                    "wrong score: round {round} ends with bullheads taken {} in the record, the rules give {}",
                    numbers(p1),
                    numbers(p2)
                )
            } else {
                format!(
                    "wrong score: round {round} ends with totals {} in the record, the rules give {}",
                    numbers(t1),
                    numbers(t2)
                )
            }
        }
        (
            Event::GameEnd {
                totals: t1,
                winners: w1,
            },
            Event::GameEnd {
                totals: t2,
                winners: w2,
            },
        ) => {
            let seats = |w: &[Seat]| w.iter().map(Seat::to_string).collect::<Vec<_>>().join(" ");
            if t1 != t2 {
                format!(
                    "wrong score: the game ends with totals {} in the record, the rules give {}",
                    numbers(t1),
                    numbers(t2)
                )
            } else {
                format!(
                    "wrong winners: the record names seats {}, the rules name seats {}",
                    seats(w1),
                    seats(w2)
                )
            }
        }
        _ => format!(
            "the record has `{}`, the rules emit `{}`",
            report::event(recorded),
            report::event(expected)
        ),
    }
}

/// A deal the record gives (not the seed's) must be one the rules deal, as `take5 play --deal`
/// checks it ([`Variant::check_given_deal`]): the anniversary variant's round 1 gives each seat
/// its special cards.
fn given_deal_holds(
    header: &Header,
    round: u32,
    deal: &Deal,
    line: usize,
) -> Result<(), VerifyError> {
    header
        .variant
        .check_given_deal(&header.rules, round, deal)
        .map_err(|e| {
            VerifyError::at(
                line,
                format!("the deal of round {round} breaks the rules: {e}"),
            )
        })
}

/// The special cards of an anniversary deal, from the `specials` line that follows its `deal`
/// line (`next`); `None` when the next line is something else.
fn special_deal(next: Option<&Event>) -> Option<SpecialDeal> {
    match next {
        Some(Event::Specials {
            hands,
            deck,
            reshuffled,
            seed,
            ..
        }) => Some(SpecialDeal {
            hands: hands.clone(),
            deck: deck.clone(),
            reshuffled: *reshuffled,
            seed: *seed,
        }),
        _ => None,
    }
}
