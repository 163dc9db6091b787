//! Rule settings as plain data. A variant is a set of defaults; house rules change them.
//! The engine reads every number it needs from here: it has no magic numbers of its own.

use crate::cards::{Deck, Special};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Everything a variant or a house rule may change about the table and the scoring.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// The number cards and their bullheads.
    pub deck: Deck,
    /// Rows on the table.
    pub rows: usize,
    /// Cards a row holds; the card after that (classic: the 6th) takes the row.
    pub row_capacity: usize,
    /// Cards dealt to each player per round.
    pub hand_size: usize,
    /// Fewest players the game allows.
    pub min_players: usize,
    /// Most players the game allows.
    pub max_players: usize,
    /// When the game is over.
    pub end: GameEnd,
    /// Who wins when totals tie.
    pub ties: Ties,
    /// The order of the Pro variant's draft (other variants deal and ignore it). Left out of
    /// records and settings when it is the default, `seat_order`.
    #[serde(default, skip_serializing_if = "Draft::is_seat_order")]
    pub draft: Draft,
    /// The circle game's own settings; `None`, and left out of records, for the other variants.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub circle: Option<Box<CircleRules>>,
    /// Take a Number's own settings; `None`, and left out of records, when they are the
    /// rulebook's (see [`NumberRules`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub take_a_number: Option<Box<NumberRules>>,
    /// The anniversary variant's own settings; `None`, and left out of records, when they are
    /// the rulebook's (see [`AnniversaryRules::default`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub anniversary: Option<Box<AnniversaryRules>>,
    /// The Pro variant's deck size; `None`, and left out of records, for the rulebook's
    /// `players * hand_size + rows` (see [`ProRules`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pro: Option<Box<ProRules>>,
}

/// Take a Number's settings beyond the shared ones (rulebook 003, "Take a Number").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NumberRules {
    /// The card count at which each centre row is taken, by row: the rulebook's row cards say
    /// 3, 4 and 5. `rows` is its length and `row_capacity` its largest value less one.
    pub takes_at: Vec<usize>,
    /// What a #-pile card's bullheads count, times (the rulebook: twice).
    pub hash_pile_multiplier: i32,
}

impl NumberRules {
    /// The rulebook's #-pile multiplier.
    pub const HASH_PILE_MULTIPLIER: i32 = 2;

    /// The rows of `rows` rows holding up to `row_capacity` cards: row `i` takes at its
    /// `row_capacity - (rows - 1 - i) + 1`th card (3, 4, 5 with the rulebook's 3 rows and 4).
    pub fn default_takes_at(rows: usize, row_capacity: usize) -> Vec<usize> {
        (0..rows)
            .map(|i| (row_capacity + 1).saturating_sub(rows - 1 - i))
            .collect()
    }
}

/// The anniversary variant's settings beyond the shared ones (rulebook 003, "6 nimmt!
/// Anniversary Variant").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnniversaryRules {
    /// How many copies of each special card the deck holds, every anniversary kind once, in
    /// the rulebook's order (default: 4 of each, 28 cards).
    pub specials: Vec<(Special, usize)>,
    /// Special cards dealt to each seat at the start of every round (default 3; fewer when the
    /// special deck is short).
    pub specials_dealt: usize,
    /// Whether a seat that took a row may swap a special card for the top of the deck.
    pub swap: bool,
}

impl Default for AnniversaryRules {
    fn default() -> AnniversaryRules {
        AnniversaryRules {
            specials: Special::ANNIVERSARY.map(|s| (s, Special::COPIES)).to_vec(),
            specials_dealt: AnniversaryRules::SPECIALS_DEALT,
            swap: true,
        }
    }
}

impl AnniversaryRules {
    /// The rulebook's special cards per seat and round.
    pub const SPECIALS_DEALT: usize = 3;

    /// Copies of `kind` in the deck (0 for a kind that is not the anniversary variant's).
    pub fn copies(&self, kind: Special) -> usize {
        self.specials
            .iter()
            .find(|(s, _)| *s == kind)
            .map_or(0, |&(_, n)| n)
    }

    /// The whole special deck, kind by kind in the rulebook's order (a fresh deck's order).
    pub fn deck(&self) -> impl Iterator<Item = Special> + '_ {
        self.specials
            .iter()
            .flat_map(|&(s, n)| std::iter::repeat_n(s, n))
    }

    /// Special cards in the deck.
    pub fn deck_size(&self) -> usize {
        self.specials.iter().map(|(_, n)| n).sum()
    }
}

/// The Pro variant's deck: the first `players * per_player + extra` cards of the deck (the
/// rulebook: `hand_size` and `rows`, 1-44 for four players). The draft fills the hands; the
/// lowest `rows` cards left start the rows and the others are out of the round, face up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProRules {
    pub per_player: usize,
    pub extra: usize,
}

/// The circle game's settings (rulebook 000): the deal by number of players and the special
/// cards' scoring.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CircleRules {
    /// Cards per hand and cards on the table, by number of players. A player count not listed
    /// uses `hand_size` and `rows`.
    pub deal: Vec<CircleDeal>,
    /// The most cards a player places in one turn.
    pub cards_per_turn: u8,
    /// Points a "+5" card in its taker's pile is worth.
    pub plus: i32,
    /// What an "x2" card in its taker's pile multiplies the points by.
    pub times: i32,
    /// Points lost for each special card still in hand at the end.
    pub held_penalty: i32,
    /// What a green bullhead in a taken row counts, times (left out of records when 1).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub green_multiplier: i32,
    /// What a red bullhead in a taken row costs, times (left out of records when 1).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub red_multiplier: i32,
}

fn one() -> i32 {
    1
}

fn is_one(n: &i32) -> bool {
    *n == 1
}

/// The circle game's deal for one number of players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CircleDeal {
    pub players: usize,
    pub hand_size: usize,
    pub rows: usize,
}

/// Who picks when in a draft (the Pro variant's "take turns picking one card"; the rulebook
/// does not say in which order, see docs/rulings.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
#[value(rename_all = "snake_case")]
pub enum Draft {
    /// Seat 0, 1, ..., last, then seat 0 again: one card at a time.
    #[default]
    SeatOrder,
    /// Seat 0 to the last, then back from the last to seat 0, and so on (the last seat picks
    /// twice in a row at each turn of the snake).
    Snake,
}

impl Draft {
    pub fn is_seat_order(&self) -> bool {
        *self == Draft::SeatOrder
    }

    /// The seat that makes pick number `pick` (from 0) among `seats` seats.
    pub fn seat(self, pick: usize, seats: usize) -> usize {
        let lap = pick / seats;
        let at = pick % seats;
        match self {
            Draft::Snake if lap % 2 == 1 => seats - 1 - at,
            _ => at,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Draft::SeatOrder => "seat_order",
            Draft::Snake => "snake",
        }
    }
}

/// How the game ends; checked at the end of each round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum GameEnd {
    /// The game ends after the round in which someone's total reaches this score.
    TargetScore(u32),
    /// The game ends after this many rounds.
    Rounds(u32),
}

/// Who wins among the players with the lowest total.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ties {
    /// Everyone with the lowest total wins (the rulebook: "you have multiple winners").
    Shared,
    /// Among them, the fewest bullheads in the last round wins; a tie there is shared.
    FewestInLastRound,
}

/// A rule setting that cannot work, named so the user can fix it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesError {
    pub setting: &'static str,
    pub problem: String,
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "rule setting `{}`: {}", self.setting, self.problem)
    }
}

impl std::error::Error for RulesError {}

impl Rules {
    /// Classic Take 5 / 6 nimmt!: 104 cards, 4 rows of 5, 10 cards each, 2-10 players, to 66.
    pub fn classic() -> Rules {
        Rules {
            deck: Deck::classic(104),
            rows: 4,
            row_capacity: 5,
            hand_size: 10,
            min_players: 2,
            max_players: 10,
            end: GameEnd::TargetScore(66),
            ties: Ties::Shared,
            draft: Draft::SeatOrder,
            circle: None,
            take_a_number: None,
            anniversary: None,
            pro: None,
        }
    }

    /// Take a Number's centre rows: the card count at which each is taken.
    pub fn takes_at(&self) -> Vec<usize> {
        match &self.take_a_number {
            Some(n) => n.takes_at.clone(),
            None => NumberRules::default_takes_at(self.rows, self.row_capacity),
        }
    }

    /// Take a Number's #-pile multiplier.
    pub fn hash_pile_multiplier(&self) -> i32 {
        self.take_a_number
            .as_ref()
            .map_or(NumberRules::HASH_PILE_MULTIPLIER, |n| {
                n.hash_pile_multiplier
            })
    }

    /// The anniversary variant's own settings (the rulebook's when none are given).
    pub fn anniversary_rules(&self) -> std::borrow::Cow<'_, AnniversaryRules> {
        match &self.anniversary {
            Some(a) => std::borrow::Cow::Borrowed(a),
            None => std::borrow::Cow::Owned(AnniversaryRules::default()),
        }
    }

    /// The anniversary variant's special cards dealt per seat and round (at most).
    pub fn specials_dealt(&self) -> usize {
        self.anniversary
            .as_ref()
            .map_or(AnniversaryRules::SPECIALS_DEALT, |a| a.specials_dealt)
    }

    /// Whether the anniversary variant lets a seat that took a row swap a special card.
    pub fn swaps(&self) -> bool {
        self.anniversary.as_ref().is_none_or(|a| a.swap)
    }

    /// The Pro variant's deck size for `players`.
    pub fn pro_deck_size(&self, players: usize) -> usize {
        match &self.pro {
            Some(p) => players * p.per_player + p.extra,
            None => players * self.hand_size + self.rows,
        }
    }

    /// Cards per hand and rows on the table for `players` (the circle game deals by player
    /// count; every other variant deals `hand_size` and `rows`).
    pub fn deal_size(&self, players: usize) -> (usize, usize) {
        self.circle
            .as_ref()
            .and_then(|c| c.deal.iter().find(|d| d.players == players))
            .map_or((self.hand_size, self.rows), |d| (d.hand_size, d.rows))
    }

    /// The Pro variant (rulebook 003): the classic rules for 2-6 players. The deck is cut to
    /// `players * hand_size + rows` cards when a game starts (1-44 for four players).
    pub fn pro() -> Rules {
        Rules {
            max_players: 6,
            ..Rules::classic()
        }
    }

    /// Checks the settings on their own (not for a particular number of players): each setting
    /// ([`Rules::validate_settings`]), then that the deck holds the hands and rows of a full
    /// table ([`Rules::check_players`] with `max_players`).
    pub fn validate(&self) -> Result<(), RulesError> {
        self.validate_settings()?;
        self.check_players(self.max_players)
    }

    /// Checks each setting, alone and against the others, but not yet against the deck's size.
    pub fn validate_settings(&self) -> Result<(), RulesError> {
        let fail = |setting, problem: String| Err(RulesError { setting, problem });
        if self.deck.is_empty() {
            return fail("deck", "the deck has no cards".into());
        }
        if usize::from(self.deck.lowest) + self.deck.len() - 1 > usize::from(u16::MAX) {
            return fail("deck", format!("cards must be at most {}", u16::MAX));
        }
        if let Some(&red) = self.deck.red.iter().find(|&&c| !self.deck.contains(c)) {
            return fail("deck", format!("red card {red} is not in the deck"));
        }
        if self.deck.red.windows(2).any(|w| w[0] >= w[1]) {
            return fail(
                "deck",
                "the red cards must be listed once each, ascending".into(),
            );
        }
        if self.rows == 0 {
            return fail("rows", "there must be at least 1 row".into());
        }
        if self.row_capacity == 0 {
            return fail("row_capacity", "a row must hold at least 1 card".into());
        }
        if let Some(circle) = &self.circle {
            if circle.cards_per_turn == 0 {
                return fail("circle", "a turn places at least 1 card".into());
            }
            if let Some(d) = circle.deal.iter().find(|d| d.hand_size == 0 || d.rows == 0) {
                return fail(
                    "circle",
                    format!(
                        "the deal for {} players needs at least 1 card per hand and 1 row",
                        d.players
                    ),
                );
            }
        }
        if self.hand_size == 0 {
            return fail("hand_size", "players need at least 1 card".into());
        }
        if let Some(number) = &self.take_a_number {
            let takes_at = &number.takes_at;
            if takes_at.len() != self.rows {
                return fail(
                    "takes_at",
                    format!(
                        "{} rows listed, the rules have {} rows",
                        takes_at.len(),
                        self.rows
                    ),
                );
            }
            if let Some((row, n)) =
                (takes_at.iter().enumerate()).find(|&(_, &n)| n < 2 || n > self.row_capacity + 1)
            {
                return fail(
                    "takes_at",
                    format!(
                        "row {row} takes at its card {n}; a row takes at its 2nd card at the \
                         earliest and at most at row_capacity + 1 ({})",
                        self.row_capacity + 1
                    ),
                );
            }
            if number.hash_pile_multiplier < 0 {
                return fail(
                    "hash_pile_multiplier",
                    format!("must be at least 0, is {}", number.hash_pile_multiplier),
                );
            }
        }
        if let Some(anniversary) = &self.anniversary {
            let kinds: Vec<Special> = anniversary.specials.iter().map(|&(s, _)| s).collect();
            if kinds != Special::ANNIVERSARY {
                return fail(
                    "specials",
                    "every anniversary special card is listed once, in the rulebook's order".into(),
                );
            }
            if anniversary.specials_dealt > anniversary.deck_size() {
                return fail(
                    "specials_dealt",
                    format!(
                        "{} special cards dealt to each seat, the special deck has {}",
                        anniversary.specials_dealt,
                        anniversary.deck_size()
                    ),
                );
            }
        }
        if let Some(pro) = &self.pro
            && let Some(players) = (self.min_players..=self.max_players)
                .find(|&n| self.pro_deck_size(n) < n * self.hand_size + self.rows)
        {
            return fail(
                "pro_deck",
                format!(
                    "{players} players x {} + {} = {} cards, fewer than their hands and rows \
                     need ({players} x {} + {})",
                    pro.per_player,
                    pro.extra,
                    self.pro_deck_size(players),
                    self.hand_size,
                    self.rows
                ),
            );
        }
        if self.min_players < 1 || self.min_players > self.max_players {
            return fail(
                "min_players",
                format!(
                    "must be between 1 and max_players ({}), is {}",
                    self.max_players, self.min_players
                ),
            );
        }
        match self.end {
            GameEnd::TargetScore(0) => fail("end", "the target score must be above 0".into()),
            GameEnd::Rounds(0) => fail("end", "there must be at least 1 round".into()),
            _ => Ok(()),
        }
    }

    /// These rules as a game of `players` plays them: the circle game's deal table resolved
    /// into `hand_size` and `rows` (what a record's header shows). Other variants: unchanged.
    pub fn at_table(&self, players: usize) -> Rules {
        let (hand_size, rows) = self.deal_size(players);
        Rules {
            hand_size,
            rows,
            ..self.clone()
        }
    }

    /// Checks that the deck holds the `needed` cards of a deal; `who` says who needs them, as
    /// the error starts ("4 players need 40 cards").
    pub fn check_deck_holds(
        &self,
        needed: usize,
        who: impl FnOnce() -> String,
    ) -> Result<(), RulesError> {
        if needed > self.deck.len() {
            let problem = format!("{}, the deck has {}", who(), self.deck.len());
            return Err(RulesError {
                setting: "deck",
                problem,
            });
        }
        Ok(())
    }

    /// Checks that `players` may play with these settings.
    pub fn check_players(&self, players: usize) -> Result<(), RulesError> {
        if players < self.min_players || players > self.max_players {
            return Err(RulesError {
                setting: "players",
                problem: format!(
                    "{} asked for, the rules allow {} to {}",
                    crate::words::count(players, "player"),
                    self.min_players,
                    self.max_players
                ),
            });
        }
        let (hand_size, rows) = self.deal_size(players);
        let needed = players * hand_size + rows;
        self.check_deck_holds(needed, || {
            format!(
                "{players} players with {hand_size} cards each and {rows} rows need {needed} cards"
            )
        })?;
        if self.pro.is_some() && self.pro_deck_size(players) > self.deck.len() {
            return Err(RulesError {
                setting: "pro_deck",
                problem: format!(
                    "{players} players need a deck of {} cards, the deck has {}",
                    self.pro_deck_size(players),
                    self.deck.len()
                ),
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classic_rules_are_valid_for_2_to_10_players() {
        let rules = Rules::classic();
        rules.validate().unwrap();
        assert!(rules.check_players(1).is_err());
        assert!(rules.check_players(11).is_err());
        assert!((2..=10).all(|n| rules.check_players(n).is_ok()));
    }

    #[test]
    fn the_circle_game_deals_by_number_of_players() {
        let rules = crate::variants::circle::rules();
        rules.validate().unwrap();
        let sizes: Vec<(usize, usize)> = (2..=6).map(|n| rules.deal_size(n)).collect();
        assert_eq!(sizes, [(14, 7), (12, 9), (12, 12), (12, 15), (10, 15)]);
        assert!((2..=6).all(|n| rules.check_players(n).is_ok()));
        assert!(rules.check_players(7).is_err());
        // Other variants deal `hand_size` and `rows` whatever the number of players.
        assert_eq!(Rules::classic().deal_size(7), (10, 4));
    }

    #[test]
    fn red_cards_must_be_in_the_deck_once_and_ascending() {
        let mut rules = crate::variants::circle::rules();
        rules.deck.red = vec![crate::cards::Card(99)];
        let err = rules.validate().unwrap_err();
        assert_eq!(
            err.to_string(),
            "rule setting `deck`: red card 99 is not in the deck"
        );
        rules.deck.red = vec![crate::cards::Card(10), crate::cards::Card(5)];
        assert!(rules.validate().is_err());
    }

    #[test]
    fn too_small_a_deck_is_named() {
        let mut rules = Rules::classic();
        rules.hand_size = 11;
        let err = rules.validate().unwrap_err();
        assert_eq!(err.setting, "deck");
        assert!(err.to_string().contains("need 114 cards"), "{err}");
    }

    #[test]
    fn the_variants_own_settings_are_checked_by_name() {
        let mut rules = crate::variants::take_a_number::rules();
        rules.take_a_number = Some(Box::new(NumberRules {
            takes_at: vec![3, 4],
            hash_pile_multiplier: 2,
        }));
        assert_eq!(rules.validate().unwrap_err().setting, "takes_at");
        rules.take_a_number = Some(Box::new(NumberRules {
            takes_at: vec![3, 4, 6],
            hash_pile_multiplier: 2,
        }));
        let err = rules.validate().unwrap_err();
        assert_eq!(
            err.setting, "takes_at",
            "6 is above row_capacity + 1: {err}"
        );
        let mut rules = crate::variants::anniversary::rules();
        let mut own = AnniversaryRules::default();
        own.specials.swap(0, 1);
        rules.anniversary = Some(Box::new(own));
        assert_eq!(rules.validate().unwrap_err().setting, "specials");
        let mut rules = Rules::pro();
        rules.pro = Some(Box::new(ProRules {
            per_player: 10,
            extra: 3,
        }));
        assert_eq!(rules.validate().unwrap_err().setting, "pro_deck");
        rules.pro = Some(Box::new(ProRules {
            per_player: 17,
            extra: 4,
        }));
        assert_eq!(rules.validate().unwrap_err().setting, "pro_deck");
        assert_eq!(rules.pro_deck_size(6), 106);
    }

    #[test]
    fn the_defaults_of_the_variants_own_settings() {
        let number = crate::variants::take_a_number::rules();
        assert_eq!(number.takes_at(), [3, 4, 5]);
        assert_eq!(number.hash_pile_multiplier(), 2);
        let anniversary = crate::variants::anniversary::rules();
        assert_eq!(anniversary.anniversary_rules().deck_size(), 28);
        assert_eq!(
            (anniversary.specials_dealt(), anniversary.swaps()),
            (3, true)
        );
        assert_eq!(Rules::pro().pro_deck_size(4), 44);
    }
}
