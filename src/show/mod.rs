//! One renderer of a table: the table as it stands after each step of a recorded game, of a
//! fixture, or as one seat sees it (the person at the terminal, [`human`]), drawn as plain text
//! ([`text`]), in a terminal ([`tui`]) or as a self-contained HTML page ([`html`], which also
//! draws a tournament's report). It sits above the fixtures, the verifier and the tournament,
//! whose results it draws (docs/architecture.md).
//!
//! Everything is read off the game model: a record is replayed through the rules
//! ([`crate::verify::replay_lines_in`]), a fixture is run ([`crate::fixture::run`]), and each
//! step's [`Table`] is built from the model's state ([`crate::fixture::State`]) or a seat's
//! [`View`]; what happened is told from the model's [`Event`]s. No protocol text is read here.

pub mod html;
pub mod human;
pub mod text;
pub mod tournament_report;
pub mod tui;
pub mod tune_report;

use crate::cards::{Card, Special};
use crate::fixture::{self, Engine, Fixture, Run, State, report};
use crate::game::{Event, Points, Seat, TakeReason, View};
use crate::record::{Header, Line};
use crate::rules::{GameEnd, Rules};
use crate::variants::Variant;
use crate::verify::{self, VerifyError};
use serde::Serialize;
use std::path::Path;

/// A number card as drawn: its number, bullheads, and (the circle game) whether they are red
/// (minus) or green (plus).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Face {
    pub n: u16,
    pub bullheads: u32,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub red: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub green: bool,
}

impl Face {
    fn of(card: Card, rules: &Rules) -> Face {
        let known = rules.deck.contains(card);
        let coloured = rules.circle.is_some() && known;
        let red = coloured && rules.deck.is_red(card);
        Face {
            n: card.0,
            bullheads: if known { rules.deck.bullheads(card) } else { 0 },
            red,
            green: coloured && !red,
        }
    }
}

fn faces(cards: &[Card], rules: &Rules) -> Vec<Face> {
    cards.iter().map(|&c| Face::of(c, rules)).collect()
}

/// A special card as drawn: its name in records and answers (`fifth_row`), the name printed on
/// it (`5th Row`) and the icon the page draws on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SpecialFace {
    pub kind: &'static str,
    pub name: &'static str,
    pub icon: &'static str,
}

impl SpecialFace {
    pub fn of(special: Special) -> SpecialFace {
        // Glyphs DejaVu Sans has (the fonts a bare machine's browser falls back to).
        let icon = match special {
            Special::FifthRow => "5",
            Special::SevenNimmt => "7",
            Special::Insert => "\u{21a7}",
            Special::Replace => "\u{21c4}",
            Special::Shift => "\u{21b7}",
            Special::Stop => "\u{2298}",
            Special::NegativePositive => "\u{b1}",
            // The circle's cards carry their name as their picture.
            Special::Double | Special::PlusFive => special.printed_name(),
        };
        SpecialFace {
            kind: special.name(),
            name: special.printed_name(),
            icon,
        }
    }
}

fn specials_drawn(specials: &[Special]) -> Vec<SpecialFace> {
    specials.iter().map(|&s| SpecialFace::of(s)).collect()
}

/// One row of the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Row {
    pub cards: Vec<Face>,
    /// Cards the row holds before the next one takes it.
    pub capacity: usize,
    /// The circle game: special cards lying in the row.
    pub specials: Vec<SpecialFace>,
    /// Anniversary: a Stop card blocks the row.
    pub stopped: bool,
    /// Anniversary: a 7 nimmt! card lies on the row.
    pub seven: bool,
    /// A row beyond the rules' number of rows: the anniversary's 5th row, whose 5th Row card
    /// lies beside it until a row is taken.
    pub extra: bool,
}

/// One seat as the table shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeatView {
    pub name: String,
    /// The hand, when it may be shown (all seats, or the one seat shown).
    pub hand: Option<Vec<Face>>,
    pub hand_count: usize,
    /// Special cards held, when they may be shown (the circle game's are public).
    pub specials: Option<Vec<SpecialFace>>,
    pub special_count: usize,
    /// Cards taken (the #-pile in Take a Number); `None` when the view does not show them.
    pub pile: Option<usize>,
    /// Take a Number: the #-row.
    pub hash_row: Vec<Face>,
    /// Total of the rounds before this one; in a game of one round, the points so far; once
    /// the game is over, the final total.
    pub score: Points,
    /// Taken (or won) this round.
    pub taken: Points,
    /// Owes a decision now.
    pub waiting: bool,
}

/// The table at one moment: what [`text`], [`tui`] and [`html`] draw.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Table {
    pub variant: Variant,
    pub round: u32,
    pub turn: u32,
    pub rows: Vec<Row>,
    pub seats: Vec<SeatView>,
    /// The Pro variant's draft pool.
    pub pool: Vec<Face>,
    /// The cards of the turn by seat, once revealed.
    pub revealed: Vec<Face>,
    /// Anniversary: cards in the special deck and the discard pile (oldest first).
    pub special_deck: Option<usize>,
    pub discard: Vec<SpecialFace>,
    /// The rows lie in a circle (the circle game): drawn as a ring, clockwise.
    pub ring: bool,
    /// The game is one round: a seat's score is what it holds this round.
    pub one_round: bool,
    /// Who must act, in words.
    pub to_move: String,
    /// The final totals once the game is over.
    pub final_totals: Option<Vec<Points>>,
}

/// Whose hands a table shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hands {
    All,
    /// Only this seat's (what its bot saw).
    Seat(Seat),
}

impl Hands {
    fn shows(self, seat: Seat) -> bool {
        match self {
            Hands::All => true,
            Hands::Seat(s) => s == seat,
        }
    }
}

fn capacity(variant: Variant, rules: &Rules, row: usize, seven: bool) -> usize {
    (variant.describe().row_capacity)(rules, row) + usize::from(seven)
}

impl Table {
    /// The table of a model state (all of it is known: a record, a fixture), showing `hands`.
    pub fn from_state(
        state: &State,
        variant: Variant,
        rules: &Rules,
        players: &[String],
        revealed: &[Card],
        hands: Hands,
    ) -> Table {
        let specials = state.specials.as_ref();
        let marked = |list: Option<&Vec<usize>>, row: usize| list.is_some_and(|l| l.contains(&row));
        let rows = state
            .rows
            .iter()
            .enumerate()
            .map(|(r, cards)| {
                let seven = marked(specials.map(|s| &s.sevens), r);
                Row {
                    cards: faces(cards, rules),
                    capacity: capacity(variant, rules, r, seven),
                    specials: state
                        .row_specials
                        .get(r)
                        .map_or(Vec::new(), |s| specials_drawn(s)),
                    stopped: marked(specials.map(|s| &s.stops), r),
                    seven,
                    extra: r >= rules.rows,
                }
            })
            .collect();
        let seats = (0..state.hands.len())
            .map(|s| {
                let held: Option<&Vec<Special>> = match specials {
                    Some(sp) => sp.hands.get(s),
                    None => state.held.get(s),
                };
                SeatView {
                    name: players
                        .get(s)
                        .cloned()
                        .unwrap_or_else(|| format!("seat {s}")),
                    hand: Some(faces(&state.hands[s], rules)),
                    hand_count: state.hands[s].len(),
                    specials: held.map(|h| specials_drawn(h)),
                    special_count: held.map_or(0, Vec::len),
                    pile: state.piles.get(s).map(Vec::len),
                    hash_row: state
                        .hash_rows
                        .get(s)
                        .map_or(Vec::new(), |h| faces(h, rules)),
                    score: state.scores.get(s).copied().unwrap_or(0),
                    taken: state.taken.get(s).copied().unwrap_or(0),
                    waiting: state.waiting.contains(&s),
                }
            })
            .collect();
        Table {
            variant,
            round: state.round,
            turn: state.turn,
            rows,
            seats,
            pool: faces(&state.pool, rules),
            revealed: faces(revealed, rules),
            special_deck: specials.map(|s| s.deck.len()),
            discard: specials.map_or(Vec::new(), |s| specials_drawn(&s.discard)),
            to_move: report::to_move(state),
            final_totals: state.outcome.as_ref().map(|o| o.totals.clone()),
            ring: variant.describe().rows_in_a_circle,
            one_round: one_round(rules),
        }
        .standing()
        .seen_by(hands)
    }

    /// The table as `view`'s seat sees it (what a bot is asked with): its own hand only.
    pub fn from_view(view: &View, variant: Variant, players: &[String]) -> Table {
        let rules = view.rules;
        let rows = view
            .rows
            .iter()
            .enumerate()
            .map(|(r, cards)| Row {
                cards: faces(cards, rules),
                capacity: view.capacity(r),
                specials: view
                    .row_specials()
                    .get(r)
                    .map_or(Vec::new(), |s| specials_drawn(s)),
                stopped: view.stopped(r),
                seven: view
                    .specials
                    .is_some_and(|t| t.sevens.get(r) == Some(&true)),
                extra: r >= rules.rows,
            })
            .collect();
        let seats = (0..view.seats)
            .map(|s| {
                let own = s == view.seat;
                let hand_count = if own {
                    view.hand.len()
                } else if let Some(c) = view.circle {
                    c.hand_sizes.get(s).copied().unwrap_or(0)
                } else if !view.hand_sizes().is_empty() {
                    view.hand_sizes()[s]
                } else {
                    // Classic and its kin: every seat holds as many cards.
                    view.hand.len()
                };
                let (specials, special_count) = match (view.circle, view.specials) {
                    (Some(c), _) => {
                        let held = c.held.get(s).map_or(Vec::new(), |h| specials_drawn(h));
                        let n = held.len();
                        (Some(held), n)
                    }
                    (None, Some(t)) => (
                        own.then(|| specials_drawn(view.special_hand)),
                        t.hand_counts.get(s).copied().unwrap_or(0),
                    ),
                    (None, None) => (None, 0),
                };
                SeatView {
                    name: players
                        .get(s)
                        .cloned()
                        .unwrap_or_else(|| format!("seat {s}")),
                    hand: own.then(|| faces(view.hand, rules)),
                    hand_count,
                    specials,
                    special_count,
                    pile: view.hash_piles().get(s).copied(),
                    hash_row: view
                        .hash_rows()
                        .get(s)
                        .map_or(Vec::new(), |h| faces(h, rules)),
                    score: view.scores.get(s).copied().unwrap_or(0),
                    taken: view.taken.get(s).copied().unwrap_or(0),
                    waiting: own && view.decision.is_some(),
                }
            })
            .collect();
        Table {
            variant,
            round: view.round,
            turn: view.turn,
            rows,
            seats,
            pool: faces(view.pool, rules),
            revealed: faces(view.revealed, rules),
            special_deck: view.specials.map(|t| t.deck),
            discard: view
                .specials
                .map_or(Vec::new(), |t| specials_drawn(&t.discard)),
            to_move: String::new(),
            final_totals: None,
            ring: variant.describe().rows_in_a_circle,
            one_round: one_round(rules),
        }
        .standing()
    }
}

/// Whether the game is played in one round (the circle game).
fn one_round(rules: &Rules) -> bool {
    rules.end == GameEnd::Rounds(1)
}

impl Table {
    /// The table with each seat's score as a player keeps it: its final total once the game is
    /// over, and in a game of one round what it holds so far (the model counts a round's points
    /// apart until the round's end).
    fn standing(mut self) -> Table {
        for (s, seat) in self.seats.iter_mut().enumerate() {
            if let Some(total) = self.final_totals.as_ref().and_then(|t| t.get(s)) {
                seat.score = *total;
            } else if self.one_round {
                seat.score += seat.taken;
            }
        }
        self
    }

    /// The table with the hands `hands` hides turned face down (and the anniversary's special
    /// cards, which are secret; the circle game's are public).
    pub fn seen_by(&self, hands: Hands) -> Table {
        let mut table = self.clone();
        for (s, seat) in table.seats.iter_mut().enumerate() {
            if !hands.shows(s) {
                seat.hand = None;
                if !table.variant.describe().specials_public {
                    seat.specials = None;
                }
            }
        }
        table
    }
}

/// One step of a game: what happened and the table after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Step {
    /// What the step is, e.g. `round 1, turn 3` or `setup`.
    pub title: String,
    /// What happened, one sentence an event.
    pub said: Vec<String>,
    pub table: Table,
    /// The seats that took a row in this step.
    pub takers: Vec<Seat>,
    /// The round and turn the step happens in (the table after it may be at the next).
    pub round: u32,
    pub turn: u32,
    /// Where the step comes from (`line 12` of a record, `step 3 (line 40)` of a fixture).
    pub source: String,
}

/// A whole game to show.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Shown {
    pub title: String,
    pub variant: Variant,
    pub players: Vec<String>,
    pub steps: Vec<Step>,
    /// The totals after each round, in order (for the score chart).
    pub rounds: Vec<Vec<Points>>,
    /// Whether the highest total wins (the circle game).
    pub highest_wins: bool,
}

impl Shown {
    /// The index of the first step of `round`, `turn` (or the last step before it), if any.
    pub fn turn_step(&self, round: u32, turn: u32) -> Option<usize> {
        self.steps
            .iter()
            .position(|s| (s.round, s.turn) >= (round, turn))
    }

    /// The first step after `from` in which `seat` took a row.
    pub fn next_take(&self, from: usize, seat: Seat) -> Option<usize> {
        (from + 1..self.steps.len()).find(|&i| self.steps[i].takers.contains(&seat))
    }
}

/// The seat's name in a sentence: `seat 2 (dodger)`.
fn who(seat: Seat, players: &[String]) -> String {
    match players.get(seat) {
        Some(name) if !name.is_empty() && *name != format!("seat {seat}") => {
            format!("seat {seat} ({name})")
        }
        _ => format!("seat {seat}"),
    }
}

use crate::words::count as plural;

/// What `events` tell, one sentence each: the events' prose ([`report::told`]), the players
/// named and the special cards as printed, what `hands` hides not told (the special card
/// another seat draws); but for the sentences below, which the viewer says otherwise on
/// purpose.
pub fn narrate(events: &[Event], players: &[String], hands: Hands) -> Vec<String> {
    let teller = report::Teller {
        seat: &|seat| who(seat, players),
        special: Special::printed_name,
        sees: &|seat| hands.shows(seat),
    };
    let mut said = Vec::with_capacity(events.len());
    for (i, event) in events.iter().enumerate() {
        let sentence = match event {
            // A deal's cards are on the table beside the sentence (for the seats `hands` shows,
            // and no one else's): the sentence says only what everyone sees.
            Event::Deal { round, rows, .. } => {
                let firsts: Vec<String> = rows.iter().map(Card::to_string).collect();
                format!(
                    "round {round} is dealt; the rows start with {}",
                    firsts.join(", ")
                )
            }
            Event::Specials {
                hands: dealt, deck, ..
            } => {
                let counts: Vec<String> = dealt.iter().map(|h| h.len().to_string()).collect();
                format!(
                    "special cards dealt: {} by seat; {} in the deck",
                    counts.join(", "),
                    deck.len()
                )
            }
            // No player sees the order of a shuffled deck, only its size.
            Event::Reshuffle { deck } => format!(
                "the discard pile is shuffled into a new special deck of {} cards",
                deck.len()
            ),
            // The step's title says the round and turn; the sentence names who played what.
            Event::Reveal { cards, .. } => {
                let shown: Vec<String> = cards
                    .iter()
                    .enumerate()
                    .map(|(s, c)| format!("{} {c}", who(s, players)))
                    .collect();
                format!("revealed: {}", shown.join(", "))
            }
            // A take is told with the card that made it (the `place` after it) and why, as a
            // player watching would say it; the report tells each line as it stands.
            Event::Take {
                seat,
                row,
                cards,
                bullheads,
                reason,
            } => {
                let by = who(*seat, players);
                let placed = events[i + 1..].iter().find_map(|e| match e {
                    Event::Place { seat: s, card, .. } if s == seat => Some(*card),
                    _ => None,
                });
                let list = report::cards(cards);
                match (reason, placed) {
                    (TakeReason::Full, Some(card)) => format!(
                        "{by} played {card}, the {} card: takes row {row} {list}, {}",
                        report::ordinal(cards.len() + 1),
                        plural(*bullheads, "bullhead")
                    ),
                    (TakeReason::Low, Some(card)) => format!(
                        "{by} played {card}, lower than every row: takes row {row} {list}, {}",
                        plural(*bullheads, "bullhead")
                    ),
                    _ => format!(
                        "{by} takes row {row} {list}, {}",
                        plural(*bullheads, "bullhead")
                    ),
                }
            }
            // Likewise the circle's take: the row completed, its cards as a take's; the
            // special cards' printed names hold spaces (`x 2`), so they are listed with `and`
            // and commas.
            Event::Collect {
                seat,
                row,
                cards,
                specials,
                points,
            } => {
                let extra = if specials.is_empty() {
                    String::new()
                } else {
                    let printed: Vec<&str> = specials.iter().map(|s| s.printed_name()).collect();
                    format!(" and {}", printed.join(", "))
                };
                format!(
                    "{} completes row {row} and takes it out of the circle: {}{extra}, {}",
                    who(*seat, players),
                    report::cards(cards),
                    plural(*points, "point")
                )
            }
            other => report::told(other, &teller),
        };
        said.push(sentence);
    }
    said
}

/// The cards revealed this turn, if `events` reveal them.
fn revealed(events: &[Event]) -> Vec<Card> {
    events
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::Reveal { cards, .. } => Some(cards.clone()),
            _ => None,
        })
        .unwrap_or_default()
}

fn takers(events: &[Event]) -> Vec<Seat> {
    let mut seats: Vec<Seat> = events
        .iter()
        .filter_map(|e| match e {
            Event::Take { seat, .. } | Event::Collect { seat, .. } => Some(*seat),
            _ => None,
        })
        .collect();
    seats.dedup();
    seats
}

fn round_totals(events: &[Event]) -> impl Iterator<Item = Vec<Points>> + '_ {
    events.iter().filter_map(|e| match e {
        Event::RoundEnd { totals, .. } => Some(totals.clone()),
        _ => None,
    })
}

/// A step being gathered from a record's lines.
struct Pending {
    events: Vec<Event>,
    /// What the referee's own lines said in the step: faults, and a clocked seat's times.
    notes: Vec<String>,
    state: State,
    line: usize,
}

/// The games of a record, each as the steps its replay goes through (`number`: only the game
/// with that [`Header::id`]), its players by [`Header::names`]. The record is verified as it is
/// replayed: a game is shown up to its first wrong line (or its end, if the record stops
/// mid-game), and the last step says what is wrong; a record with nothing to show is the error.
pub fn from_record(
    lines: &[(usize, Line)],
    record_dir: &Path,
    hands: Hands,
    number: Option<u64>,
) -> Result<Vec<Shown>, VerifyError> {
    let mut games: Vec<Shown> = Vec::new();
    let mut current: Option<(Header, Pending)> = None;
    let finish = |games: &mut Vec<Shown>, header: &Header, pending: Pending| {
        // The header alone is no step: the table is empty until the deal.
        if let Some(game) = games.last_mut()
            && !pending.events.is_empty()
        {
            let before = game.steps.last().map(|s| (s.table.round, s.table.turn));
            game.steps.push(record_step(header, pending, hands, before));
        }
    };
    let replayed = verify::replay_lines_in(
        lines,
        record_dir,
        Some(&mut |seen| {
            let wanted = number.is_none_or(|n| n == seen.header.id());
            match seen.line {
                Line::Game(header) => {
                    if let Some((h, p)) = current.take() {
                        finish(&mut games, &h, p);
                    }
                    if !wanted {
                        return;
                    }
                    games.push(Shown {
                        title: format!(
                            "game {} of {} ({}): {}",
                            header.id(),
                            header.variant.name(),
                            plural(header.players.len() as Points, "player"),
                            header.names().join(", ")
                        ),
                        variant: header.variant,
                        players: header.names(),
                        steps: Vec::new(),
                        rounds: Vec::new(),
                        highest_wins: header.variant.describe().highest_wins,
                    });
                    current = Some((
                        (**header).clone(),
                        Pending {
                            events: Vec::new(),
                            notes: Vec::new(),
                            state: Engine::state_of(seen.game),
                            line: seen.number,
                        },
                    ));
                }
                _ if !wanted => {}
                Line::Event(event) => {
                    if seen.drove
                        && let Some((h, p)) = current.take()
                    {
                        finish(&mut games, &h, p);
                        current = Some((
                            h,
                            Pending {
                                events: Vec::new(),
                                notes: Vec::new(),
                                state: Engine::state_of(seen.game),
                                line: seen.number,
                            },
                        ));
                    }
                    if let Some((_, p)) = current.as_mut() {
                        p.events.push(event.clone());
                        if let Some(game) = games.last_mut() {
                            game.rounds
                                .extend(round_totals(std::slice::from_ref(event)));
                        }
                    }
                }
                Line::Fault(fault) => {
                    if let Some((_, p)) = current.as_mut() {
                        p.notes.push(format!(
                            "fault of seat {}: {}: {} (the referee played for it)",
                            fault.seat, fault.kind, fault.detail
                        ));
                    }
                }
                Line::Clock(clock) => {
                    if let Some((_, p)) = current.as_mut() {
                        p.notes.push(format!(
                            "seat {}'s clock: {} ms left, and it took {:.3} ms",
                            clock.seat,
                            clock.left_us / 1000,
                            clock.took_us as f64 / 1000.0
                        ));
                    }
                }
                Line::Stopped(_) | Line::Turn(_) => {}
            }
        }),
    );
    // A record that goes wrong (or stops) part-way is shown up to there, the problem told in
    // its last step: a game cut short is still worth seeing.
    let shown_game_broke = current.is_some();
    if let Some((h, p)) = current.take() {
        finish(&mut games, &h, p);
    }
    if let Err(problem) = replayed {
        let any = !games.is_empty();
        match games.last_mut().and_then(|g| g.steps.last_mut()) {
            Some(last) if shown_game_broke => {
                let at = problem
                    .line
                    .map_or(String::new(), |l| format!(" (line {l})"));
                last.said.push(format!(
                    "the record goes no further{at}: {}",
                    problem.message
                ));
            }
            _ if any => {}
            _ => return Err(problem),
        }
    }
    if games.is_empty()
        && let Some(n) = number
    {
        return Err(VerifyError {
            line: None,
            column: None,
            message: format!("the record holds no game {n}"),
            unreadable: false,
        });
    }
    Ok(games)
}

/// The round and turn `events` happen in: those they reveal or deal, else `before` (the table
/// the decision was taken at).
fn when(events: &[Event], before: Option<(u32, u32)>) -> (u32, u32) {
    events
        .iter()
        .find_map(|e| match e {
            Event::Reveal { round, turn, .. } => Some((*round, *turn)),
            Event::Deal { round, .. } => Some((*round, 0)),
            _ => None,
        })
        .or(before)
        .unwrap_or((0, 0))
}

fn record_step(
    header: &Header,
    pending: Pending,
    hands: Hands,
    before: Option<(u32, u32)>,
) -> Step {
    let (round, turn) = when(&pending.events, before);
    let names = header.names();
    let mut said = narrate(&pending.events, &names, hands);
    said.extend(pending.notes);
    let table = Table::from_state(
        &pending.state,
        header.variant,
        &header.rules,
        &names,
        &revealed(&pending.events),
        hands,
    );
    let title = match pending.events.first() {
        Some(Event::Deal { round, .. }) => format!("round {round}: the deal"),
        _ if turn == 0 => format!("round {round}"),
        _ => format!("round {round}, turn {turn}"),
    };
    Step {
        title,
        round,
        turn,
        takers: takers(&pending.events),
        said,
        table,
        source: format!("line {}", pending.line),
    }
}

/// A fixture's run as steps: the setup, then each step that the rules took (a refused step is
/// told, with the table as it stays).
pub fn from_fixture(fixture: &Fixture, run: &Run, hands: Hands) -> Shown {
    let table = |state: &State, events: &[Event]| {
        Table::from_state(
            state,
            fixture.variant,
            &fixture.rules,
            &fixture.players,
            &revealed(events),
            hands,
        )
    };
    let mut steps = vec![Step {
        title: "setup".into(),
        round: run.start.state.round,
        turn: run.start.state.turn,
        said: narrate(&run.start.events, &fixture.players, hands),
        table: table(&run.start.state, &run.start.events),
        takers: takers(&run.start.events),
        source: fixture.path.display().to_string(),
    }];
    let mut rounds = Vec::new();
    for record in &run.steps {
        let step = &fixture.steps[record.index];
        let (events, mut said) = match &record.result {
            Ok(events) => (events.as_slice(), narrate(events, &fixture.players, hands)),
            Err(e) => (
                record.partial.as_slice(),
                vec![format!("refused: {}: {e}", e.kind())],
            ),
        };
        if let Some(failure) = run.failure.as_ref().filter(|f| f.step == record.index) {
            let fields: Vec<&str> = failure.mismatches.iter().map(|m| m.field).collect();
            said.push(format!(
                "FAILED here: the fixture expects other {}",
                fields.join(", ")
            ));
        }
        rounds.extend(round_totals(events));
        let before = steps.last().map(|s| (s.table.round, s.table.turn));
        let (round, turn) = when(events, before);
        steps.push(Step {
            round,
            turn,
            title: format!("step {}: {}", record.index + 1, step.action),
            said,
            table: table(&record.state, events),
            takers: takers(events),
            source: format!("{}:{}", fixture.path.display(), step.at.line),
        });
    }
    Shown {
        title: format!("{}: {}", fixture.name, fixture.pins),
        variant: fixture.variant,
        players: fixture.players.clone(),
        steps,
        rounds,
        highest_wins: fixture.variant.describe().highest_wins,
    }
}

/// Loads and runs a fixture file for showing.
pub fn load_fixture(path: &Path, hands: Hands) -> Result<Shown, fixture::FixtureError> {
    let fixture = fixture::load(path)?;
    let run = fixture::run(&fixture)?;
    Ok(from_fixture(&fixture, &run, hands))
}

#[cfg(test)]
impl Table {
    /// A table of `variant` at `round`, `turn` with no rows and no seats, for tests to fill.
    pub(crate) fn empty(variant: Variant, round: u32, turn: u32) -> Table {
        Table {
            variant,
            round,
            turn,
            rows: Vec::new(),
            seats: Vec::new(),
            pool: Vec::new(),
            revealed: Vec::new(),
            special_deck: None,
            discard: Vec::new(),
            to_move: String::new(),
            final_totals: None,
            ring: variant.describe().rows_in_a_circle,
            one_round: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::TakeReason;

    fn players() -> Vec<String> {
        vec!["ann".into(), "bob".into()]
    }

    #[test]
    fn a_take_is_told_with_the_card_that_made_it() {
        let events = [
            Event::Take {
                seat: 1,
                row: 2,
                cards: vec![Card(10), Card(11), Card(12), Card(13), Card(14)],
                bullheads: 7,
                reason: TakeReason::Full,
            },
            Event::Place {
                seat: 1,
                card: Card(37),
                row: 2,
            },
            Event::Take {
                seat: 0,
                row: 0,
                cards: vec![Card(40)],
                bullheads: 1,
                reason: TakeReason::Low,
            },
            Event::Place {
                seat: 0,
                card: Card(3),
                row: 0,
            },
        ];
        assert_eq!(
            narrate(&events, &players(), Hands::All),
            [
                "seat 1 (bob) played 37, the 6th card: takes row 2 [10, 11, 12, 13, 14], 7 bullheads",
                "seat 1 (bob) places 37 on row 2",
                "seat 0 (ann) played 3, lower than every row: takes row 0 [40], 1 bullhead",
                "seat 0 (ann) places 3 on row 0",
            ]
        );
    }

    #[test]
    fn what_a_seat_may_not_see_is_not_told() {
        let events = [Event::Swap {
            seat: 0,
            gave: Special::Stop,
            drew: Special::Insert,
        }];
        assert_eq!(
            narrate(&events, &players(), Hands::Seat(1)),
            ["seat 0 (ann) swaps Stop for the top of the special deck"]
        );
        assert_eq!(
            narrate(&events, &players(), Hands::Seat(0)),
            ["seat 0 (ann) swaps Stop for Insert"]
        );
    }

    fn step(round: u32, turn: u32, takers: Vec<Seat>) -> Step {
        Step {
            title: String::new(),
            said: Vec::new(),
            table: Table::empty(Variant::default(), round, turn),
            takers,
            round,
            turn,
            source: String::new(),
        }
    }

    #[test]
    fn the_viewer_finds_a_turn_and_the_next_take_of_a_seat() {
        let shown = Shown {
            title: String::new(),
            variant: Variant::default(),
            players: players(),
            steps: vec![
                step(1, 0, vec![]),
                step(1, 1, vec![1]),
                step(1, 2, vec![0]),
                step(2, 1, vec![1]),
            ],
            rounds: Vec::new(),
            highest_wins: false,
        };
        assert_eq!(shown.turn_step(1, 2), Some(2));
        assert_eq!(shown.turn_step(2, 1), Some(3));
        assert_eq!(shown.turn_step(3, 1), None);
        assert_eq!(shown.next_take(0, 1), Some(1));
        assert_eq!(shown.next_take(1, 1), Some(3));
        assert_eq!(shown.next_take(2, 0), None);
    }

    #[test]
    fn a_seat_sees_its_own_hand_and_the_circle_specials_of_all() {
        let seat = |specials: Vec<SpecialFace>| SeatView {
            name: String::new(),
            hand: Some(vec![Face {
                n: 5,
                bullheads: 2,
                red: false,
                green: false,
            }]),
            hand_count: 1,
            specials: Some(specials),
            special_count: 1,
            pile: None,
            hash_row: Vec::new(),
            score: 0,
            taken: 0,
            waiting: false,
        };
        let mut table = step(1, 1, vec![]).table;
        let stop = SpecialFace::of(Special::Stop);
        table.seats = vec![
            seat(vec![stop]),
            seat(vec![SpecialFace::of(Special::Insert)]),
        ];
        let seen = table.seen_by(Hands::Seat(1));
        assert_eq!(seen.seats[0].hand, None);
        assert_eq!(seen.seats[0].specials, None);
        assert_eq!(seen.seats[1], table.seats[1]);
        table.variant = Variant::from_name("circle").unwrap();
        let seen = table.seen_by(Hands::Seat(1));
        assert_eq!(seen.seats[0].hand, None);
        assert_eq!(seen.seats[0].specials, Some(vec![stop]));
    }
}
