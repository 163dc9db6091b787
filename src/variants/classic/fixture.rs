//! Classic's part in rule fixtures (docs/fixtures.md): the table a `setup` gives, which the Pro
//! variant, Take a Number and the anniversary variant build on with their own shapes.

use super::Table;
use crate::cards::Card;
use crate::game::{Points, Seat};
use crate::rules::{GameEnd, Rules};
use crate::variants::fixtures::{
    CardLists, SetupError, SetupFile, TableInput, fail, one_a_seat, spanned,
};
use crate::words::count;
use serde_saphyr::Spanned;

/// What a variant changes of the classic table: its rows' count and capacities, and whether
/// hands may differ in size.
pub struct TableShape<'a> {
    /// The card that adds a row to the rules' `rows` when it is on the table (the
    /// anniversary's 5th Row card); `None` when no card does.
    pub extra_row: Option<&'a str>,
    /// Each row's capacity, for the number of rows given (an error is named where it is
    /// written).
    pub capacities: Box<dyn Fn(usize) -> Result<Vec<usize>, SetupError> + 'a>,
    /// Whether hands may differ in size (Take a Number's: taken cards go into them).
    pub hands_differ: bool,
}

impl TableShape<'_> {
    /// Classic's: the rules' rows, each holding `row_capacity` cards, hands all of a size.
    pub fn classic(rules: &Rules) -> TableShape<'_> {
        TableShape {
            extra_row: None,
            capacities: Box::new(|rows| Ok(vec![rules.row_capacity; rows])),
            hands_differ: false,
        }
    }
}

/// The classic table of a `setup`: the rows (each 1 to its capacity cards, ascending), the
/// hands, the piles, the totals of earlier rounds (ones the rules can reach), round and turn.
pub fn table(input: &mut TableInput, shape: &TableShape) -> Result<Table, SetupError> {
    let (s, rules, seats) = (&input.setup.value, input.rules, input.seats);
    let rows = input.rows;
    let given = rows.value.len();
    if given != rules.rows && !(shape.extra_row.is_some() && given == rules.rows + 1) {
        let extra = match shape.extra_row {
            Some(card) => format!(" ({} with {card})", rules.rows + 1),
            None => String::new(),
        };
        return fail(
            rows,
            format!(
                "{} given, the rules have {}{extra}",
                count(given, "row"),
                rules.rows
            ),
        );
    }
    let capacities = (shape.capacities)(given)?;
    let mut table_rows = Vec::new();
    for (i, row) in rows.value.iter().enumerate() {
        let row_cards = input.cards.cards(&row.value)?;
        if row_cards.is_empty() || row_cards.len() > capacities[i] {
            return fail(
                row,
                format!(
                    "row {i} holds {}; it holds 1 to {}",
                    count(row_cards.len(), "card"),
                    capacities[i]
                ),
            );
        }
        if row_cards.windows(2).any(|w| w[0] >= w[1]) {
            return fail(row, format!("row {i} is not in ascending order"));
        }
        table_rows.push(row_cards);
    }
    let hands = input.hands;
    one_a_seat(hands, seats, "hand")?;
    let mut table_hands = Vec::new();
    for (seat, hand) in hands.value.iter().enumerate() {
        let hand_cards = input.cards.cards(&hand.value)?;
        if !shape.hands_differ
            && let Some(first) = table_hands.first().map(Vec::len)
            && first != hand_cards.len()
        {
            return fail(
                hand,
                format!(
                    "seat {seat} holds {}, seat 0 holds {first}: every hand holds as many",
                    count(hand_cards.len(), "card")
                ),
            );
        }
        if hand_cards.is_empty() {
            return fail(hand, format!("seat {seat}'s hand is empty"));
        }
        table_hands.push(hand_cards);
    }
    let piles = match &s.piles {
        None => vec![Vec::new(); seats],
        Some(piles) => {
            one_a_seat(piles, seats, "pile")?;
            input.cards.lists(piles)?
        }
    };
    let scores = match &s.scores {
        None => vec![0; seats],
        Some(scores) => {
            one_a_seat(scores, seats, "score")?;
            scores.value.clone()
        }
    };
    let counted = |n: &Option<Spanned<u32>>, what: &str| -> Result<u32, SetupError> {
        match n {
            None => Ok(1),
            Some(n) if n.value == 0 => fail(n, format!("{what} counts from 1")),
            Some(n) => Ok(n.value),
        }
    };
    let round = counted(&s.round, "round")?;
    if let Some(given) = &s.scores {
        reachable_totals(given, &scores, round, rules, input.housed)?;
    }
    Ok(Table {
        round,
        turn: counted(&s.turn, "turn")?,
        hands: table_hands,
        rows: table_rows,
        scores,
        piles,
    })
}

/// Totals the rules can reach before round `round`: none before round 1, and, in a game that
/// ends at a target score, all below it (the game would have ended otherwise; house rules may
/// end a game their own way, so with a house script only the first holds).
fn reachable_totals(
    given: &Spanned<Vec<Points>>,
    totals: &[Points],
    round: u32,
    rules: &Rules,
    housed: bool,
) -> Result<(), SetupError> {
    if round == 1
        && let Some((seat, total)) = totals.iter().enumerate().find(|(_, t)| **t != 0)
    {
        return fail(
            given,
            format!(
                "seat {seat} has a total of {total} before round 1: the scores are the totals \
                 of the rounds before, and there are none"
            ),
        );
    }
    if let GameEnd::TargetScore(target) = rules.end
        && !housed
        && let Some((seat, total)) = totals
            .iter()
            .enumerate()
            .find(|(_, t)| i64::from(**t) >= i64::from(target))
    {
        return fail(
            given,
            format!(
                "seat {seat} has a total of {total} before round {round}: the game ends at \
                 {target}, so it would have ended with the round that reached it"
            ),
        );
    }
    Ok(())
}

/// The other seats' cards in a question whose `setup` gives the `hands`: each seat's highest,
/// which must be above `seat`'s `card` (the others' cards of the turn are placed after it).
pub fn question_others(
    hands: &CardLists,
    seat: Seat,
    card: Card,
) -> Result<Vec<(Seat, Card)>, SetupError> {
    let mut others = Vec::new();
    for (other, hand) in hands.value.iter().enumerate() {
        let highest = hand.value.iter().map(|c| c.value).max();
        match highest {
            _ if other == seat => {}
            None => return fail(hand, format!("seat {other}'s hand is empty")),
            Some(highest) if highest < card => {
                return fail(
                    hand,
                    format!(
                        "seat {other}'s highest card, {highest}, is below {card}: it would be \
                         placed first, and the question is asked of the table as it stands \
                         (give seat {other} a card above {card})"
                    ),
                );
            }
            Some(highest) => others.push((other, highest)),
        }
    }
    Ok(others)
}

/// A question's hands when its `setup` gives none, filled in `filled`: `seat` holds `like`'s
/// card, and every other seat one of the `free` cards above it, the highest, so that they are
/// placed after it; the turn, unless given, is the round's last of `hand_size` (one card in
/// hand), so that the events read true. The other seats' cards.
pub fn question_hands(
    filled: &mut SetupFile,
    like: &Spanned<Card>,
    seat: Seat,
    seats: usize,
    free: Vec<Card>,
    hand_size: usize,
) -> Result<Vec<(Seat, Card)>, SetupError> {
    let card = like.value;
    let mut above: Vec<Card> = free.into_iter().filter(|&c| c > card).collect();
    if above.len() < seats - 1 {
        let (others, free) = match (seats - 1, above.len()) {
            (1, _) => ("the other seat plays".to_string(), "none is".to_string()),
            (n, 0) => (format!("the other {n} seats play"), "none is".into()),
            (n, 1) => (format!("the other {n} seats play"), "1 is".into()),
            (n, k) => (format!("the other {n} seats play"), format!("{k} are")),
        };
        return fail(
            like,
            format!(
                "{others} a card above {card} (placed after it), and {free} free: give every \
                 seat's hand in the setup's `hands`"
            ),
        );
    }
    let mut hands = vec![Vec::new(); seats];
    hands[seat].push(spanned(card, like));
    let mut others = Vec::new();
    for (other, hand) in hands.iter_mut().enumerate() {
        if other != seat {
            let highest = above.pop().expect("counted");
            hand.push(spanned(highest, like));
            others.push((other, highest));
        }
    }
    if filled.turn.is_none() {
        let last = u32::try_from(hand_size).unwrap_or(u32::MAX);
        filled.turn = Some(spanned(last.max(1), like));
    }
    let hands = hands.into_iter().map(|hand| spanned(hand, like));
    filled.hands = Some(spanned(hands.collect(), like));
    Ok(others)
}
