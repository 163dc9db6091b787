//! The mechanics several variants share, written once, each with one state layout that every
//! engine uses: a variant's own file then holds only what its rulebook section adds.
//!
//! - [`board`]: the table every engine keeps (rules, seats, round, turn, hands, rows, piles,
//!   points, totals, house hooks) and the accessors and `Game` methods that read only it.
//! - [`reveal`]: the simultaneous turn: everyone chooses a card face down, the cards are
//!   revealed and placed lowest first ([`reveal::Reveal`]).
//! - [`rows`]: the rows that cards are placed on and taken from, each with its end cached
//!   ([`rows::Rows`]): the row for a card by least difference, a row taken at its Nth card.
//! - [`judge`]: why an action is refused in the phases those engines share.
//! - [`scoring`]: the end of a round: house rules' last word, the totals, the game's end.
//! - [`deal`]: the checks of a deal and of a table given explicitly.
//!
//! House rules' hooks are called through [`crate::game::house::Hooks`], the same way in every
//! engine: a failing hook is the error of the step that called it, returned at once (`?`).

pub mod board;
pub mod deal;
pub mod judge;
pub mod reveal;
pub mod rows;
pub mod scoring;
pub mod value;
