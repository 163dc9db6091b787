//! The variants. Each lives in its own folder (`src/variants/NAME/`): its engine (a type
//! implementing [`Game`] and [`Model`](crate::game::model::Model)) and its [`Description`]
//! (`description.rs`: its rules, facts and the parts the upper modules use: house settings and
//! hooks, search budget, selftest situations, what the viewer and `play` need), listed once in
//! the registry below. No file outside `src/variants/` names a variant
//! (tests/all/variant_rooms.rs keeps it so): the rest of take5 reads a variant through
//! [`Variant::describe`], [`Variant::new_game`] and [`Variant::visit`]. How to add one:
//! src/variants/README.md.

pub mod anniversary;
pub mod circle;
pub mod classic;
pub mod common;
pub mod fixtures;
pub mod pro;
pub mod registry;
pub mod take_a_number;

pub use registry::{Description, Visitor};

use crate::game::house::HouseHooks;
use crate::game::{Action, Deal, Decision, Emitter, Game, Outcome, RuleError, Seat, ToMove, View};
use crate::rng::GameRng;
use crate::rules::{Rules, RulesError};
use std::sync::Arc;

/// Declares the variants: each line is the variant's doc (its `--help` line), its name (the
/// kebab-case of which is its name on the command line, in fixtures and in records) and its
/// game type (in its folder, beside its `description::DESCRIPTION`). From it come [`Variant`],
/// [`AnyGame`], the registry of descriptions and the dispatch over the game types.
macro_rules! registry {
    ($( $(#[$doc:meta])* $name:ident => $folder:ident :: $game:ident, )*) => {
        /// The variants take5 knows, by the name used on the command line, in fixtures and in
        /// records (the same kebab-case name everywhere, e.g. `take-a-number`).
        #[derive(
            Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize,
            clap::ValueEnum,
        )]
        #[serde(rename_all = "kebab-case")]
        pub enum Variant {
            $( $(#[$doc])* $name, )*
        }

        /// Every variant's description, in the order of [`Variant`].
        static REGISTRY: &[&Description] = &[$( &$folder::description::DESCRIPTION, )*];

        impl Variant {
            /// Every variant, in the registry's order.
            pub const ALL: &[Variant] = &[$( Variant::$name, )*];

            /// A new game of this variant, waiting for its first deal.
            pub fn new_game(self, rules: Arc<Rules>, seats: usize) -> Result<AnyGame, RulesError> {
                match self {
                    $( Variant::$name => Ok(AnyGame::$name($folder::$game::new(rules, seats)?)), )*
                }
            }

            /// Runs `visitor` with this variant's game type.
            #[inline]
            pub fn visit<V: Visitor>(self, visitor: V) -> V::Output {
                match self {
                    $( Variant::$name => visitor.visit::<$folder::$game>(), )*
                }
            }
        }

        /// A game of any variant. An enum rather than a `Box<dyn Game>` so the referee's inner
        /// loop calls the variant directly (and the compiler can inline it).
        #[derive(Debug)]
        #[repr(u8)] // an explicit tag: telling the variant apart is then one byte compare
        pub enum AnyGame {
            $( $name($folder::$game), )*
        }

        /// Forwards a [`Game`] method to the variant inside.
        macro_rules! dispatch {
            ($self_:ident, $g:ident => $call:expr) => {
                match $self_ {
                    $( AnyGame::$name($g) => $call, )*
                }
            };
        }
    };
}

registry! {
    /// 6 nimmt! / Take 5: 2-10 players, 104 cards, four rows; the lowest total wins.
    Classic => classic::Classic,
    /// Take 5's Pro variant: 2-6 players, cards 1 to 10 x players + 4, hands drafted.
    Pro => pro::Pro,
    /// Take a Number (X nimmt!): 2-4 players, rows of 3, 4 and 5 cards, a #-row per player.
    TakeANumber => take_a_number::TakeANumber,
    /// The circle game ("Take 5!", Hornochsen!): 2-6 players, rows in a circle, 1-3 cards a
    /// turn in seat order, green and red bullheads, "x2" and "+5" special cards; the highest
    /// score wins.
    Circle => circle::Circle,
    /// 6 nimmt!'s anniversary variant: 2-8 players, 28 special cards, two rounds.
    Anniversary => anniversary::Anniversary,
}

impl Variant {
    /// What take5 knows of this variant.
    #[inline]
    pub fn describe(self) -> &'static Description {
        REGISTRY[self as usize]
    }

    pub fn name(self) -> &'static str {
        self.describe().name
    }

    /// The variant's default rules.
    pub fn rules(self) -> Rules {
        (self.describe().rules)()
    }

    /// The variant named `name`, if there is one.
    pub fn from_name(name: &str) -> Option<Variant> {
        Variant::ALL.iter().copied().find(|v| v.name() == name)
    }

    /// Checks a deal given rather than dealt from a seed (`take5 play --deal`, a record's `deal`
    /// line) for what the rules deal beyond what the model checks: the anniversary variant's
    /// round 1 gives each seat its special cards (its description's `check_first_deal`). (A
    /// fixture may set up any deal instead.)
    pub fn check_given_deal(self, rules: &Rules, round: u32, deal: &Deal) -> Result<(), String> {
        match round {
            1 => (self.describe().check_first_deal)(rules, deal),
            _ => Ok(()),
        }
    }
}

impl Default for Variant {
    /// The first registered (classic).
    fn default() -> Variant {
        Variant::ALL[0]
    }
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
    fn act(&mut self, seat: Seat, action: Action, events: &mut Emitter) -> Result<(), RuleError> {
        dispatch!(self, g => g.act(seat, action, events))
    }
    fn deal_given(&mut self, deal: &Deal, events: &mut Emitter) -> Result<(), RuleError> {
        dispatch!(self, g => g.deal_given(deal, events))
    }
    fn deal_drawn(&mut self, rng: &mut GameRng, events: &mut Emitter) -> Result<(), RuleError> {
        dispatch!(self, g => g.deal_drawn(rng, events))
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
