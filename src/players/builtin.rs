//! Built-in bots, played in-process. Each is a pure policy over the [`View`] a pipe bot would
//! get, so they are also reference answers for bot authors.

use super::{Answer, Legality, Player};
use crate::cards::{Card, Special};
use crate::game::{Action, Decision, Points, SpecialPlay, View};
use crate::rng::{GameRng, Stream};
use crate::seat::GameStart;
use crate::variants::anniversary::{byte, legal_plays};
use crate::variants::circle::{card_points, row_for_number, taken_points, total_points};
use smallvec::SmallVec;

/// The built-in strategies, named `builtin:<name>` on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// Any card at random; a random row; in a draft, any card of the pool; in the anniversary
    /// variant, any legal special card play or none, at random.
    Random,
    /// Always the lowest card; the cheapest row; in a draft, the lowest card of the pool. This
    /// is also the referee's fallback.
    Lowest,
    /// Always the highest card; the cheapest row; in a draft, the highest card of the pool.
    Highest,
    /// Plays the card least likely to take a row (see [`dodger_card`]); the cheapest row; in a
    /// draft, cheap cards spread over the range (see [`dodger_pick`]); in the anniversary
    /// variant, special cards that avoid a take (see [`dodger_special`]).
    Dodger,
}

impl Strategy {
    pub const ALL: [Strategy; 4] = [
        Strategy::Random,
        Strategy::Lowest,
        Strategy::Highest,
        Strategy::Dodger,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Strategy::Random => "random",
            Strategy::Lowest => "lowest",
            Strategy::Highest => "highest",
            Strategy::Dodger => "dodger",
        }
    }

    pub fn from_name(name: &str) -> Option<Strategy> {
        Strategy::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// The options of the search bot's spec, if `name` (after `builtin:`) names it: `mcs`, or
/// `mcs:` and its options (see [`crate::players::search::McsOptions`]).
pub fn mcs_options(name: &str) -> Option<&str> {
    match name.strip_prefix("mcs") {
        Some(options) if options.is_empty() || options.starts_with(':') => Some(options),
        _ => None,
    }
}

/// A built-in bot at one seat of a match.
pub struct Builtin {
    strategy: Strategy,
    name: String,
    /// Made from the match seed; moved to the stream of each game as it starts.
    rng: GameRng,
}

impl Builtin {
    /// `seed` is the match seed; each game's random choices come from their own stream of it.
    pub fn new(strategy: Strategy, seed: u64) -> Builtin {
        Builtin {
            strategy,
            name: format!("builtin:{}", strategy.name()),
            rng: GameRng::new(seed, Stream::Bot { game: 0, seat: 0 }),
        }
    }

    /// Plays by `strategy` from now on (its generator as it was).
    pub fn set_strategy(&mut self, strategy: Strategy) {
        if strategy != self.strategy {
            self.strategy = strategy;
            self.name = format!("builtin:{}", strategy.name());
        }
    }

    /// The generator of its random choices (a search replays the same choices from a copy).
    pub fn rng(&mut self) -> &mut GameRng {
        &mut self.rng
    }

    /// The decision, without the [`Player`] plumbing: the referee asks a built-in bot through it
    /// (see [`Player::as_builtin`]), inlined, as do the benchmarks.
    #[inline(always)]
    pub fn choose(&mut self, view: &View) -> Action {
        match (self.strategy, view.decision) {
            (Strategy::Random, Some(Decision::PlayCard)) => {
                let i = self.rng.below(view.hand.len() as u32) as usize;
                Action::Play(view.hand[i])
            }
            (Strategy::Random, Some(Decision::ChooseRow { .. })) => {
                // A row no Stop blocks (the anniversary variant), counted, not collected: no
                // allocation per decision. Without a Stop the pick is the row itself: no walk
                // over the rows, whose random length the CPU would mispredict.
                let rows = view.rows.len();
                let stops = view
                    .specials
                    .map_or(0, |t| t.stops.iter().take(rows).filter(|&&s| s).count());
                let pick = self.rng.below((rows - stops) as u32) as usize;
                let row = match stops {
                    0 => pick,
                    _ => (0..rows)
                        .filter(|&r| !view.stopped(r))
                        .nth(pick)
                        .expect("an open row"),
                };
                Action::TakeRow(row)
            }
            (Strategy::Random, Some(Decision::Special { card })) => {
                let mut plays = vec![Action::Pass];
                for (i, &special) in view.special_hand.iter().enumerate() {
                    if i == 0 || view.special_hand[i - 1] != special {
                        plays.extend(legal_plays(view, card, special).map(Action::Special));
                    }
                }
                plays[self.rng.below(plays.len() as u32) as usize]
            }
            (Strategy::Random, Some(Decision::Cancel)) => {
                let i = self.rng.below(view.taking().len() as u32 + 1) as usize;
                view.taking()
                    .get(i)
                    .map_or(Action::Pass, |&c| Action::Cancel(c))
            }
            (Strategy::Random, Some(Decision::Swap)) => {
                let i = self.rng.below(view.special_hand.len() as u32 + 1) as usize;
                view.special_hand
                    .get(i)
                    .map_or(Action::Pass, |&s| Action::Swap(s))
            }
            (Strategy::Dodger, Some(Decision::Special { card })) => {
                dodger_special(view, card).map_or(Action::Pass, Action::Special)
            }
            (Strategy::Dodger, Some(Decision::Cancel)) => {
                let deck = &view.rules.deck;
                let costliest = view.taking().iter().max_by_key(|&&c| deck.bullheads(c));
                costliest.map_or(Action::Pass, |&c| Action::Cancel(c))
            }
            (Strategy::Random, Some(Decision::KeepCard)) => {
                let i = self.rng.below(view.keep_from().len() as u32) as usize;
                Action::Keep(view.keep_from()[i])
            }
            (Strategy::Highest, Some(Decision::KeepCard)) => {
                Action::Keep(*view.keep_from().last().expect("cards to keep from"))
            }
            (Strategy::Dodger, Some(Decision::KeepCard)) => Action::Keep(dodger_keep(view)),
            (Strategy::Highest, Some(Decision::PlayCard)) => {
                Action::Play(*view.hand.last().expect("a hand to play from"))
            }
            (Strategy::Dodger, Some(Decision::PlayCard)) => Action::Play(dodger_card(view)),
            (Strategy::Random, Some(Decision::Pick)) => {
                let i = self.rng.below(view.pool.len() as u32) as usize;
                Action::Pick(view.pool[i])
            }
            (Strategy::Highest, Some(Decision::Pick)) => {
                Action::Pick(*view.pool.last().expect("a pool to pick from"))
            }
            (Strategy::Dodger, Some(Decision::Pick)) => Action::Pick(dodger_pick(view)),
            (Strategy::Random, Some(Decision::Place { .. })) => circle_random(view, &mut self.rng),
            (Strategy::Highest, Some(Decision::Place { placed: 0, .. }))
                if !view.rows.is_empty() =>
            {
                match view.hand.last() {
                    Some(&card) => Action::Play(card),
                    None => fallback(view),
                }
            }
            (Strategy::Dodger, Some(Decision::Place { .. })) => circle_greedy(view),
            _ => fallback(view),
        }
    }
}

impl Player for Builtin {
    fn name(&self) -> &str {
        &self.name
    }

    fn start_game(&mut self, start: &GameStart) -> Answer<()> {
        let stream = Stream::Bot {
            game: start.number,
            seat: start.seat,
        };
        // The generator was made from the same seed, so it only moves to the game's stream.
        self.rng.restart(stream);
        Ok(())
    }

    fn decide(&mut self, view: &View, _: Legality, _: super::Limit) -> Answer<Action> {
        Ok(self.choose(view))
    }

    fn as_builtin(&mut self) -> Option<&mut Builtin> {
        Some(self)
    }
}

/// The referee's move for a seat whose player failed: the lowest card in hand, the row with
/// the fewest bullheads (the first such row on a tie), in a draft the lowest card of the pool,
/// the first of the cards taken for the #-row (Take a Number), no special card (the anniversary
/// variant), or in the circle game the end of the turn once a card is placed, else the lowest
/// card, else the first special card into the first row without one of its kind.
/// Deterministic, so records stay replayable.
pub fn fallback(view: &View) -> Action {
    match view.decision {
        Some(Decision::Place { placed, .. }) => match (placed, view.hand.first()) {
            (1.., _) => Action::EndTurn,
            (0, Some(&card)) if !view.rows.is_empty() => Action::Play(card),
            _ => circle_moves(view)
                .next()
                .expect("a seat asked to place has a card it may place"),
        },
        Some(Decision::Special { .. } | Decision::Cancel | Decision::Swap) => Action::Pass,
        Some(Decision::ChooseRow { .. }) => Action::TakeRow(cheapest_row(view)),
        Some(Decision::KeepCard) => Action::Keep(*view.keep_from().first().expect("cards taken")),
        Some(Decision::Pick) => Action::Pick(*view.pool.first().expect("a pool to pick from")),
        _ => Action::Play(*view.hand.first().expect("a hand to play from")),
    }
}

/// The row with the fewest bullheads that no Stop blocks; the first one on a tie.
pub fn cheapest_row(view: &View) -> usize {
    let deck = &view.rules.deck;
    (0..view.rows.len())
        .filter(|&r| !view.stopped(r))
        .min_by_key(|&r| deck.sum(&view.rows[r]))
        .expect("at least one row")
}

/// The dodger's pick in a draft: the card with the fewest bullheads, then the one farthest from
/// the cards already in hand (so the hand spreads over the range), then the lowest.
pub fn dodger_pick(view: &View) -> Card {
    let deck = &view.rules.deck;
    let distance = |card: Card| {
        view.hand
            .iter()
            .map(|c| c.0.abs_diff(card.0))
            .min()
            .unwrap_or(0)
    };
    *view
        .pool
        .iter()
        .min_by_key(|&&card| (deck.bullheads(card), std::cmp::Reverse(distance(card))))
        .expect("a pool to pick from")
}

/// The dodger's card: for each card, what it would cost if it were placed now (the row it would
/// fill, or the cheapest row for a low card) and how much room the row has left; the cheapest
/// card wins, then the one with most room, then the one closest to its row's end.
pub fn dodger_card(view: &View) -> Card {
    let rows = DodgerRows::new(view);
    // The first card of the least key.
    let mut best = None;
    for &card in view.hand {
        let key = rows.key(card);
        if best.is_none_or(|(_, least)| key < least) {
            best = Some((card, key));
        }
    }
    best.expect("a hand to play from").0
}

/// The rows as [`dodger_card`] weighs a card against them: kept, a search can ask which cards
/// the dodger would have preferred to the one it played on a table it has seen.
#[derive(Clone, Debug)]
pub struct DodgerRows {
    /// Every card is scored against every row, and a search asks this of millions of rollout
    /// decisions: each open row's end, room and bullheads are read once, not once a card.
    open: SmallVec<[OpenRow; 8]>,
    /// The bullheads of the cheapest open row (what a low card costs).
    cheapest: u32,
}

impl DodgerRows {
    /// The open rows of `view`'s table (at least one). Built where it is returned: rows
    /// collected first and then moved into the struct were copied, 29 instructions a call.
    pub fn new(view: &View) -> DodgerRows {
        let deck = &view.rules.deck;
        let mut rows = DodgerRows {
            open: SmallVec::new(),
            cheapest: u32::MAX,
        };
        for r in (0..view.rows.len()).filter(|&r| !view.stopped(r)) {
            let row = &view.rows[r];
            let bullheads = deck.sum(row);
            rows.open.push(OpenRow {
                end: row[row.len() - 1],
                room: view.capacity(r).saturating_sub(row.len()),
                bullheads,
            });
            rows.cheapest = rows.cheapest.min(bullheads);
        }
        assert!(!rows.open.is_empty(), "at least one row");
        rows
    }

    /// What `card` costs, then how little room its row has left, then how far it lands from
    /// the row's end, packed in one number: the dodger plays the least (a low card lands
    /// nowhere: distance 0), the lowest card of a tie.
    #[inline]
    pub fn key(&self, card: Card) -> u64 {
        let (cost, room, distance) = match self.target(card) {
            // A low card costs the cheapest row, and gets to restart it.
            None => (self.cheapest, 0, 0),
            Some(row) if row.room == 0 => (row.bullheads, 0, u16::MAX),
            Some(row) => (0, row.room, card.0 - row.end.0),
        };
        let crowding = u16::MAX - room.min(usize::from(u16::MAX)) as u16;
        u64::from(cost) << 32 | u64::from(crowding) << 16 | u64::from(distance)
    }

    /// Whether `card` lands on a row with room left (not low, not the one that fills a row).
    pub fn lands_safely(&self, card: Card) -> bool {
        self.target(card).is_some_and(|row| row.room > 0)
    }

    /// The row `card` goes to: the one with the highest end below it (none: a low card).
    #[inline]
    fn target(&self, card: Card) -> Option<&OpenRow> {
        let mut target: Option<&OpenRow> = None;
        for row in &self.open {
            if row.end < card && target.is_none_or(|t| row.end > t.end) {
                target = Some(row);
            }
        }
        target
    }

    /// Whether the dodger, holding `held` and `played`, plays `played` on these rows.
    #[inline]
    pub fn prefers(&self, played: Card, held: Card) -> bool {
        (self.key(played), played) < (self.key(held), held)
    }
}

/// A row a card may go to, as [`dodger_card`] weighs it.
#[derive(Clone, Copy, Debug)]
struct OpenRow {
    end: Card,
    /// Places left before it is full (0: the next card takes it).
    room: usize,
    bullheads: u32,
}

/// The circle game's legal moves, in this order: every number card (ascending), every kind of
/// special card held (`x2` first) into every row without one of its kind, and the end of the
/// turn once a card is placed. An iterator, so a bot's decision allocates nothing.
pub fn circle_moves<'a>(view: &View<'a>) -> impl Iterator<Item = Action> + 'a {
    let cards: &[Card] = if view.rows.is_empty() { &[] } else { view.hand };
    let row_specials = view.row_specials();
    let specials = held_kinds(view.special_hand).flat_map(move |special| {
        open_rows(row_specials, special).map(move |row| Action::PlaceSpecial { special, row })
    });
    let end = can_end_turn(view).then_some(Action::EndTurn);
    cards
        .iter()
        .map(|&card| Action::Play(card))
        .chain(specials)
        .chain(end)
}

/// Each kind of special card `held` holds, once (they are sorted).
fn held_kinds(held: &[Special]) -> impl Iterator<Item = Special> + '_ {
    let firsts = held.iter().enumerate();
    firsts
        .filter(|&(i, kind)| i == 0 || held[i - 1] != *kind)
        .map(|(_, &kind)| kind)
}

/// The rows (by index) without a special card of kind `special`, where it may go.
fn open_rows(row_specials: &[Vec<Special>], special: Special) -> impl Iterator<Item = usize> + '_ {
    let rows = row_specials.iter().enumerate();
    rows.filter(move |(_, in_row)| !in_row.contains(&special))
        .map(|(row, _)| row)
}

/// Whether the seat may end its turn: once it has placed a card.
fn can_end_turn(view: &View) -> bool {
    matches!(view.decision, Some(Decision::Place { placed: 1.., .. }))
}

/// One of [`circle_moves`] at random: the same move as counting them and taking the one at a
/// random place, found without listing them (the hot path of the search's rollouts).
pub fn circle_random(view: &View, rng: &mut GameRng) -> Action {
    let cards: &[Card] = if view.rows.is_empty() { &[] } else { view.hand };
    let (held, row_specials) = (view.special_hand, view.row_specials());
    let placements: usize = held_kinds(held)
        .map(|kind| open_rows(row_specials, kind).count())
        .sum();
    let count = cards.len() + placements + usize::from(can_end_turn(view));
    let mut pick = rng.below(count as u32) as usize;
    if let Some(&card) = cards.get(pick) {
        return Action::Play(card);
    }
    pick -= cards.len();
    for special in held_kinds(held) {
        match open_rows(row_specials, special).nth(pick) {
            Some(row) => return Action::PlaceSpecial { special, row },
            None => pick -= open_rows(row_specials, special).count(),
        }
    }
    Action::EndTurn
}

/// The dodger in the circle game: the move worth most by [`circle_value`]; the first such
/// move on a tie (number cards come first, ascending, then special cards, then the end of the
/// turn).
pub fn circle_greedy(view: &View) -> Action {
    // The rows' final numbers once for every move (the hot path of the search's rollouts).
    let ends: Vec<Card> = view.rows.iter().map(|r| r[r.len() - 1]).collect();
    let mut moves = circle_moves(view);
    let mut best = moves.next().expect("a seat asked to place has a move");
    let mut best_value = circle_value_on(view, &ends, best);
    for action in moves {
        let value = circle_value_on(view, &ends, action);
        if value > best_value {
            best = action;
            best_value = value;
        }
    }
    best
}

/// The circle game's safe player (`builtin:mcs`'s rollouts, `safe=` and `own_safe=`): when a
/// number card takes a row worth points, the one that takes the row worth most (the first of a
/// tie); else any move at random (from `rng`) but a number card that takes a row worth less
/// than nothing, or any move at all when every move is one of those.
pub fn circle_safe(view: &View, rng: &mut GameRng) -> Action {
    let moves = || circle_moves(view);
    let capacity = view.rules.row_capacity;
    let full = |row: &Vec<Card>| row.len() >= capacity;
    let (Some(circle), true) = (view.rules.circle.as_ref(), view.rows.iter().any(full)) else {
        // No card takes a row: every move is safe.
        return circle_random(view, rng);
    };
    let ends: SmallVec<[Card; 16]> = view.rows.iter().map(|r| r[r.len() - 1]).collect();
    let row_specials = view.row_specials();
    // The cards that take a row, by the row's worth with them: the best (the lowest card of a
    // tie) and the costly ones.
    let mut best: Option<(Points, Card)> = None;
    let mut costly: SmallVec<[Card; 16]> = SmallVec::new();
    let deck = &view.rules.deck;
    let points = |card: Card| card_points(deck, circle, card);
    // By row, its cards' points summed once, in the order `taken_points` sums them.
    let mut printed: SmallVec<[Option<Points>; 16]> = SmallVec::from_elem(None, ends.len());
    for &card in view.hand {
        let row = row_for_number(&ends, card);
        let cards = &view.rows[row];
        if !full(cards) {
            continue;
        }
        let sum = || {
            cards
                .iter()
                .map(|&c| points(c))
                .fold(0, Points::saturating_add)
        };
        let printed = *printed[row].get_or_insert_with(sum);
        let taken = [printed, points(card)].into_iter();
        let worth = total_points(circle, taken, &row_specials[row]);
        // (The hand ascends: the first card of a tie is the lowest.)
        if worth > 0 && best.is_none_or(|(most, _)| worth > most) {
            best = Some((worth, card));
        } else if worth < 0 {
            costly.push(card);
        }
    }
    if let Some((_, card)) = best {
        return Action::Play(card);
    }
    if costly.is_empty() {
        return circle_random(view, rng);
    }
    let allowed = |action: &Action| !matches!(action, Action::Play(c) if costly.contains(c));
    let safe_moves = || moves().filter(allowed);
    match safe_moves().next() {
        Some(_) => pick_at_random(rng, safe_moves),
        None => pick_at_random(rng, moves),
    }
}

/// One of the actions `moves` lists, at random (`moves` is asked twice: to count, to pick).
fn pick_at_random<I: Iterator<Item = Action>>(rng: &mut GameRng, moves: impl Fn() -> I) -> Action {
    let count = moves().count();
    let pick = rng.below(count as u32) as usize;
    moves().nth(pick).expect("a move to pick")
}

/// What a circle move is worth to its player, in tenths of a point: taking a row wins its
/// points; filling a row to four number cards hands half its points to whoever comes next (a
/// green row is a gift, a red one a trap); a special card is worth what it adds to a row this
/// seat can still take this turn, or half of what it takes away from a row someone else will
/// take, plus the 10 points it would cost in hand once few number cards are left; any other
/// card costs a little, so the turn ends when nothing is worth placing.
pub fn circle_value(view: &View, action: Action) -> i32 {
    let ends: Vec<Card> = view.rows.iter().map(|r| r[r.len() - 1]).collect();
    circle_value_on(view, &ends, action)
}

/// [`circle_value`], the rows' final numbers `ends` given.
fn circle_value_on(view: &View, ends: &[Card], action: Action) -> i32 {
    let Some(circle) = view.rules.circle.as_ref() else {
        return 0;
    };
    let deck = &view.rules.deck;
    let capacity = view.rules.row_capacity;
    let worth = |cards: &[Card], extra: Option<Card>, specials: &[Special]| {
        taken_points(deck, circle, cards.iter().copied().chain(extra), specials)
    };
    let row_specials = view.row_specials();
    let remaining = match view.decision {
        Some(Decision::Place { remaining, .. }) => remaining,
        _ => 0,
    };
    match action {
        Action::Play(card) => {
            let row = row_for_number(ends, card);
            let cards = &view.rows[row];
            // (Worked out only where it counts: most moves land on a row with room.)
            let after = || worth(cards, Some(card), &row_specials[row]);
            match (cards.len() + 1).cmp(&capacity) {
                std::cmp::Ordering::Greater => after() * 10,
                std::cmp::Ordering::Equal => -after() * 5,
                std::cmp::Ordering::Less => -1,
            }
        }
        Action::PlaceSpecial { special, row } => {
            let cards = &view.rows[row];
            let before = worth(cards, None, &row_specials[row]);
            let mut with = row_specials[row].clone();
            with.push(special);
            let gain = worth(cards, None, &with) - before;
            let takeable = remaining >= 2
                && cards.len() == capacity
                && view.hand.iter().any(|&c| row_for_number(ends, c) == row);
            let stuck = if view.hand.len() <= 2 {
                circle.held_penalty * 10
            } else {
                0
            };
            stuck + if takeable { gain * 10 } else { -gain * 5 }
        }
        _ => 0,
    }
}

/// The circle game's prior for `builtin:mcs` (`prior=`; docs/mcs.md, "Fourth round: the circle
/// game"): keeps every number card and the end of the turn, and of the special-card placements
/// (a kind into a row: up to half the actions of a turn) the `keep` best by [`circle_value`]
/// (the first of a tie), so the search's budget goes to fewer actions.
pub fn circle_prior(view: &View, actions: &mut Vec<Action>, keep: usize) {
    let mut specials: Vec<(i32, usize)> = (actions.iter().enumerate())
        .filter(|(_, a)| matches!(a, Action::PlaceSpecial { .. }))
        .map(|(i, &a)| (circle_value(view, a), i))
        .collect();
    if specials.len() <= keep {
        return;
    }
    specials.sort_by_key(|&(value, i)| (std::cmp::Reverse(value), i));
    let mut dropped = vec![false; actions.len()];
    for &(_, i) in &specials[keep..] {
        dropped[i] = true;
    }
    let mut i = 0;
    actions.retain(|_| {
        i += 1;
        !dropped[i - 1]
    });
}

/// The dodger's #-row card (Take a Number): the lowest card taken that the #-row can go on
/// with (above its end), so the row stays open to as many later cards as it can; when every card
/// taken is lower than the end (the #-row goes to the pile whichever is kept), the card with the
/// most bullheads, which the new #-row keeps safe instead of the hand. Ties go to the lower card.
pub fn dodger_keep(view: &View) -> Card {
    let end = view
        .hash_rows()
        .get(view.seat)
        .and_then(|row| row.last())
        .copied()
        .unwrap_or(Card(0));
    let deck = &view.rules.deck;
    if let Some(&card) = view.keep_from().iter().filter(|&&c| c > end).min() {
        return card;
    }
    *view
        .keep_from()
        .iter()
        .min_by_key(|&&c| (std::cmp::Reverse(deck.bullheads(c)), c))
        .expect("cards taken")
}

/// The row `card` goes to among the open rows, `blocked` also left out (anniversary: rows a Stop
/// blocks are skipped); `None` for a low card.
fn row_of(view: &View, card: Card, blocked: Option<usize>) -> Option<usize> {
    let end = |r: usize| view.rows[r][view.rows[r].len() - 1];
    (0..view.rows.len())
        .filter(|&r| Some(r) != blocked && !view.stopped(r) && end(r) < card)
        .max_by_key(|&r| end(r))
}

/// Whether `card`, placed now (with `blocked` stopped too), would take a row.
fn would_take(view: &View, card: Card, blocked: Option<usize>) -> bool {
    row_of(view, card, blocked).is_none_or(|r| view.rows[r].len() >= view.capacity(r))
}

/// The dodger's special card for its revealed `card` (anniversary variant): none when the card
/// goes to a row without taking it; otherwise the first of these that it holds and that avoids
/// the take: a 5th Row for the card; a 7 nimmt! on the full row it goes to; an Insert into the
/// row with most room left; a Stop on that full row, when the card then goes to a row with room;
/// a Replace by the lowest card of the hand that takes no row.
pub fn dodger_special(view: &View, card: Card) -> Option<SpecialPlay> {
    let target = row_of(view, card, None);
    if !would_take(view, card, None) {
        return None;
    }
    let held = |special: Special| view.special_hand.contains(&special);
    let legal = |play: SpecialPlay| {
        held(play.card()) && legal_plays(view, card, play.card()).any(|p| p == play)
    };
    if legal(SpecialPlay::FifthRow) {
        return Some(SpecialPlay::FifthRow);
    }
    if let Some(row) = target
        && legal(SpecialPlay::SevenNimmt { row: byte(row) })
    {
        return Some(SpecialPlay::SevenNimmt { row: byte(row) });
    }
    let room = |row: u8| {
        let row = usize::from(row);
        view.capacity(row) - view.rows[row].len().min(view.capacity(row))
    };
    if held(Special::Insert)
        && let Some(play) = legal_plays(view, card, Special::Insert)
            .filter(|&play| matches!(play, SpecialPlay::Insert { row, .. } if room(row) > 0))
            .max_by_key(|&play| match play {
                SpecialPlay::Insert { row, .. } => room(row),
                _ => 0,
            })
    {
        return Some(play);
    }
    if let Some(row) = target
        && !would_take(view, card, Some(row))
        && legal(SpecialPlay::Stop { row: byte(row) })
    {
        return Some(SpecialPlay::Stop { row: byte(row) });
    }
    if held(Special::Replace)
        && let Some(&instead) = view.hand.iter().find(|&&c| !would_take(view, c, None))
    {
        return Some(SpecialPlay::Replace { card: instead });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::SpecialTable;
    use crate::variants::anniversary;

    fn cards(numbers: &[u16]) -> Vec<Card> {
        numbers.iter().map(|&n| Card(n)).collect()
    }

    /// The dodger's special card for `card`, with row 1 full and the given special cards and
    /// hand.
    fn special(card: u16, held: &[Special], hand: &[u16]) -> Option<SpecialPlay> {
        let rules = anniversary::rules();
        let rows = vec![
            cards(&[10]),
            cards(&[20, 21, 22, 23, 24]),
            cards(&[30]),
            cards(&[40]),
        ];
        let table = SpecialTable {
            hand_counts: vec![held.len(), 0],
            sevens: vec![false; 4],
            stops: vec![false; 4],
            ..SpecialTable::default()
        };
        let hand = cards(hand);
        let view = View {
            rules: &rules,
            seat: 0,
            seats: 2,
            round: 1,
            turn: 1,
            decision: Some(Decision::Special { card: Card(card) }),
            hand: &hand,
            rows: &rows,
            scores: &[0, 0],
            taken: &[0, 0],
            revealed: &[],
            pool: &[],
            number: None,
            circle: None,
            specials: Some(&table),
            special_hand: held,
        };
        dodger_special(&view, Card(card))
    }

    #[test]
    fn the_dodger_plays_a_special_card_only_to_avoid_a_take() {
        use Special::*;
        // 35 goes after the 30: nothing to avoid.
        assert_eq!(special(35, &[FifthRow, Stop], &[]), None);
        // 25 would be the 6th card of row 1.
        assert_eq!(
            special(25, &[Stop, FifthRow], &[]),
            Some(SpecialPlay::FifthRow)
        );
        assert_eq!(
            special(25, &[SevenNimmt, Insert], &[]),
            Some(SpecialPlay::SevenNimmt { row: 1 })
        );
        assert!(matches!(
            special(25, &[Insert], &[]),
            Some(SpecialPlay::Insert { row, .. }) if row != 1
        ));
        // With row 1 stopped, 25 goes after the 10.
        assert_eq!(
            special(25, &[Stop], &[]),
            Some(SpecialPlay::Stop { row: 1 })
        );
        // 5 is low whatever is stopped.
        assert_eq!(special(5, &[Stop], &[]), None);
        assert_eq!(
            special(25, &[Replace], &[5, 12, 26]),
            Some(SpecialPlay::Replace { card: Card(12) })
        );
        assert_eq!(special(25, &[Replace], &[5, 26]), None);
    }
}
