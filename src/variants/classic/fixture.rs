//! Classic's part in rule fixtures (docs/fixtures.md): the table a `setup` gives, which the Pro
//! variant, Take a Number and the anniversary variant build on with their own shapes.

use super::Table;
use crate::game::Points;
use crate::rules::{GameEnd, Rules};
use crate::variants::fixtures::{SetupError, TableInput, fail};
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
            format!("{given} rows given, the rules have {}{extra}", rules.rows),
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
                    "row {i} holds {} cards; it holds 1 to {}",
                    row_cards.len(),
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
    if hands.value.len() != seats {
        return fail(
            hands,
            format!("{} hands given for {seats} players", hands.value.len()),
        );
    }
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
                    "seat {seat} holds {} cards, seat 0 holds {first}: every hand holds as many",
                    hand_cards.len()
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
            if piles.value.len() != seats {
                return fail(
                    piles,
                    format!("{} piles given for {seats} players", piles.value.len()),
                );
            }
            input.cards.lists(piles)?
        }
    };
    let scores = match &s.scores {
        None => vec![0; seats],
        Some(scores) if scores.value.len() != seats => {
            return fail(
                scores,
                format!("{} scores given for {seats} players", scores.value.len()),
            );
        }
        Some(scores) => scores.value.clone(),
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
