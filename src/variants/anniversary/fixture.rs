//! The anniversary variant's part in rule fixtures (docs/fixtures.md, "The anniversary variant:
//! setup"): a `setup` adds where the special cards are to the classic table (a 5th Row card
//! adds a row; a 7 nimmt! card lets its row hold one card more), and a fixture reads them back.

use super::{Anniversary, AnniversarySetup, check_kinds, check_stops, marked_rows};
use crate::cards::Special;
use crate::variants::classic::fixture::{TableShape, table};
use crate::variants::fixtures::{SetupError, TableInput, fail, setup_fields};
use serde_saphyr::Spanned;

setup_fields! {
    /// The anniversary variant's own `setup` fields (with `specials`, which it reads by seat).
    pub struct Fields {
        /// The face-down special deck, top card first (empty when left out).
        special_deck: Vec<Special>,
        /// The special discard pile, oldest first (empty when left out).
        discard: Vec<Special>,
        /// The rows with a Stop card (none when left out).
        stops: Vec<Spanned<usize>>,
        /// The rows with a 7 nimmt! card (none when left out).
        sevens: Vec<Spanned<usize>>,
        /// The seed of the generator that reshuffles the discard pile (0 when left out), as a
        /// deal's `specials: {seed: N}`.
        reshuffle_seed: u64,
    }
}

/// Why another variant's `setup` cannot have these fields.
pub const ONLY: &str = "`special_deck`, `discard`, `stops`, `sevens` and `reshuffle_seed` set \
                        up the anniversary variant only";

/// An anniversary table: the classic table (one row more with a 5th Row card, a row under a 7
/// nimmt! card holding one card more) and the special cards (each seat's, the deck, the
/// discard pile, the rows under a Stop or a 7 nimmt!), and the reshuffles' seed.
pub fn setup(input: &mut TableInput) -> Result<AnniversarySetup, SetupError> {
    let (setup, rules) = (input.setup, input.rules);
    let s = &setup.value;
    let fields = &s.anniversary;
    let shape = TableShape {
        extra_row: Some("a 5th Row card"),
        capacities: Box::new(|rows| {
            let sevens = marked(&fields.sevens, rows, "7 nimmt!")?;
            // A row under a 7 nimmt! card holds one card more.
            let capacity = |seven: &bool| rules.row_capacity + usize::from(*seven);
            Ok(sevens.iter().map(capacity).collect())
        }),
        hands_differ: false,
    };
    let table = table(input, &shape)?;
    let (seats, rows) = (table.hands.len(), table.rows.len());
    marked(&fields.stops, rows, "Stop")?;
    if let Some(given) = &fields.stops
        && let Err(why) = check_stops(given.value.len(), rows)
    {
        return fail(given, why);
    }
    if let Some(specials) = &s.specials
        && specials.value.len() != seats
    {
        return fail(
            specials,
            format!(
                "special cards given for {}, there are {seats}",
                crate::words::count(specials.value.len(), "seat")
            ),
        );
    }
    let hands = s.specials.iter().flat_map(|h| &h.value);
    let piles = [&fields.special_deck, &fields.discard]
        .into_iter()
        .flatten();
    for list in hands.chain(piles) {
        if let Err(why) = check_kinds(&list.value) {
            return fail(list, why);
        }
    }
    let specials = match &s.specials {
        None => vec![Vec::new(); seats],
        Some(specials) => specials.value.iter().map(|h| h.value.clone()).collect(),
    };
    let pile = |list: &Option<Spanned<Vec<Special>>>| {
        list.as_ref().map_or_else(Vec::new, |l| l.value.clone())
    };
    let rows_named = |list: &Option<Spanned<Vec<Spanned<usize>>>>| {
        list.as_ref()
            .map_or_else(Vec::new, |l| l.value.iter().map(|row| row.value).collect())
    };
    Ok(AnniversarySetup {
        table,
        specials,
        special_deck: pile(&fields.special_deck),
        discard: pile(&fields.discard),
        stops: rows_named(&fields.stops),
        sevens: rows_named(&fields.sevens),
        reshuffle_seed: fields.reshuffle_seed.as_ref().map_or(0, |seed| seed.value),
    })
}

/// The rows of a `rows`-row table under a `card` (a Stop or a 7 nimmt!), by row, from the rows
/// `given` names (none when left out); a wrong entry is named where it is written.
fn marked(
    given: &Option<Spanned<Vec<Spanned<usize>>>>,
    rows: usize,
    card: &str,
) -> Result<Vec<bool>, SetupError> {
    let Some(given) = given else {
        return Ok(vec![false; rows]);
    };
    let named: Vec<usize> = given.value.iter().map(|r| r.value).collect();
    marked_rows(&named, rows, card).or_else(|(i, why)| fail(&given.value[i], why))
}

/// Where the special cards are, as a fixture expects them.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct SpecialState {
    /// Every seat's special cards, sorted by kind.
    pub hands: Vec<Vec<Special>>,
    /// The face-down deck, top card first.
    pub deck: Vec<Special>,
    /// The discard pile, oldest first.
    pub discard: Vec<Special>,
    /// The rows with a Stop card.
    pub stops: Vec<usize>,
    /// The rows with a 7 nimmt! card.
    pub sevens: Vec<usize>,
}

impl SpecialState {
    pub fn of(game: &Anniversary) -> SpecialState {
        let table = game.specials();
        let marked = |marks: &[bool]| (0..marks.len()).filter(|&r| marks[r]).collect();
        SpecialState {
            hands: game.special_hands().to_vec(),
            deck: game.special_deck().to_vec(),
            discard: table.discard.clone(),
            stops: marked(&table.stops),
            sevens: marked(&table.sevens),
        }
    }
}
