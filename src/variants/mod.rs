//! The variants. Each is one module implementing [`Game`]; adding one touches nothing else but
//! the registry below ([`Variant`] and [`AnyGame`]).

pub mod anniversary;
pub mod circle;
pub mod classic;
pub mod fixtures;
pub mod pro;
pub mod take_a_number;

use crate::game::house::HouseHooks;
use crate::game::{
    Action, Deal, Decision, EventSink, Game, Outcome, RuleError, Seat, ToMove, View,
};
use crate::rng::GameRng;
use crate::rules::{Rules, RulesError};
use std::sync::Arc;

/// The variants take5 knows, by the name used on the command line, in fixtures and in records
/// (the same kebab-case name everywhere, e.g. `take-a-number`).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, clap::ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    /// 6 nimmt! / Take 5: 2-10 players, 104 cards, four rows; the lowest total wins.
    Classic,
    /// Take 5's Pro variant: 2-6 players, cards 1 to 10 x players + 4, hands drafted.
    Pro,
    /// Take a Number (X nimmt!): 2-4 players, rows of 3, 4 and 5 cards, a #-row per player.
    TakeANumber,
    /// The circle game ("Take 5!", Hornochsen!): 2-6 players, rows in a circle, 1-3 cards a
    /// turn in seat order, green and red bullheads, "x2" and "+5" special cards; the highest
    /// score wins.
    Circle,
    /// 6 nimmt!'s anniversary variant: 2-8 players, 28 special cards, two rounds.
    Anniversary,
}

impl Variant {
    pub fn name(self) -> &'static str {
        match self {
            Variant::Classic => "classic",
            Variant::Pro => "pro",
            Variant::TakeANumber => "take-a-number",
            Variant::Circle => "circle",
            Variant::Anniversary => "anniversary",
        }
    }

    /// The variant's default rules.
    pub fn rules(self) -> Rules {
        match self {
            Variant::Classic => Rules::classic(),
            Variant::Pro => Rules::pro(),
            Variant::TakeANumber => take_a_number::rules(),
            Variant::Circle => circle::rules(),
            Variant::Anniversary => anniversary::rules(),
        }
    }

    /// Checks a deal given rather than dealt from a seed (`take5 play --deal`, a record's `deal`
    /// line) for what the rules deal beyond what the model checks: the anniversary variant's
    /// round 1 gives each seat its special cards. (A fixture may set up any deal instead.)
    pub fn check_given_deal(self, rules: &Rules, round: u32, deal: &Deal) -> Result<(), String> {
        match self {
            Variant::Anniversary if round == 1 => anniversary::check_first_deal(rules, deal),
            _ => Ok(()),
        }
    }

    /// A new game of this variant, waiting for its first deal.
    pub fn new_game(self, rules: Arc<Rules>, seats: usize) -> Result<AnyGame, RulesError> {
        match self {
            Variant::Classic => Ok(AnyGame::Classic(classic::Classic::new(rules, seats)?)),
            Variant::Pro => Ok(AnyGame::Pro(pro::Pro::new(rules, seats)?)),
            Variant::TakeANumber => Ok(AnyGame::TakeANumber(take_a_number::TakeANumber::new(
                rules, seats,
            )?)),
            Variant::Circle => Ok(AnyGame::Circle(circle::Circle::new(rules, seats)?)),
            Variant::Anniversary => Ok(AnyGame::Anniversary(anniversary::Anniversary::new(
                rules, seats,
            )?)),
        }
    }
}

/// A game of any variant. An enum rather than a `Box<dyn Game>` so the referee's inner loop
/// calls the variant directly (and the compiler can inline it).
#[derive(Debug)]
#[repr(u8)] // an explicit tag: telling the variant apart is then one byte compare
pub enum AnyGame {
    Classic(classic::Classic),
    Pro(pro::Pro),
    TakeANumber(take_a_number::TakeANumber),
    Circle(circle::Circle),
    Anniversary(anniversary::Anniversary),
}

/// Forwards a [`Game`] method to the variant inside.
macro_rules! dispatch {
    ($self:ident, $game:ident => $call:expr) => {
        match $self {
            AnyGame::Classic($game) => $call,
            AnyGame::Pro($game) => $call,
            AnyGame::TakeANumber($game) => $call,
            AnyGame::Circle($game) => $call,
            AnyGame::Anniversary($game) => $call,
        }
    };
}

impl Game for AnyGame {
    fn rules(&self) -> &Rules {
        dispatch!(self, g => g.rules())
    }
    fn seats(&self) -> usize {
        dispatch!(self, g => g.seats())
    }
    #[inline(always)]
    fn to_move(&self) -> ToMove {
        dispatch!(self, g => g.to_move())
    }
    #[inline]
    fn owes(&self, seat: Seat) -> Option<Decision> {
        dispatch!(self, g => g.owes(seat))
    }
    fn check(&self, seat: Seat, action: Action) -> Result<(), RuleError> {
        dispatch!(self, g => g.check(seat, action))
    }
    #[inline]
    fn apply(
        &mut self,
        seat: Seat,
        action: Action,
        events: &mut dyn EventSink,
    ) -> Result<(), RuleError> {
        dispatch!(self, g => g.apply(seat, action, events))
    }
    fn deal(&mut self, deal: &Deal, events: &mut dyn EventSink) -> Result<(), RuleError> {
        dispatch!(self, g => g.deal(deal, events))
    }
    fn deal_random(
        &mut self,
        rng: &mut GameRng,
        events: &mut dyn EventSink,
    ) -> Result<(), RuleError> {
        dispatch!(self, g => g.deal_random(rng, events))
    }
    #[inline(always)]
    fn view(&self, seat: Seat) -> View<'_> {
        dispatch!(self, g => g.view(seat))
    }
    fn outcome(&self) -> Option<Outcome> {
        dispatch!(self, g => g.outcome())
    }
    fn restart(&mut self) {
        dispatch!(self, g => g.restart())
    }
    fn set_house(&mut self, house: Option<Box<dyn HouseHooks>>) {
        dispatch!(self, g => g.set_house(house))
    }
}
