//! The variants. Each is one module implementing [`crate::game::Game`]; adding one touches
//! nothing else but the registry below.

pub mod classic;

use crate::game::Game;
use crate::rules::{Rules, RulesError};
use std::sync::Arc;

/// The variants take5 knows, by the name used on the command line, in fixtures and in records.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, clap::ValueEnum,
)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    Classic,
}

impl Variant {
    pub fn name(self) -> &'static str {
        match self {
            Variant::Classic => "classic",
        }
    }

    /// The variant's default rules.
    pub fn rules(self) -> Rules {
        match self {
            Variant::Classic => Rules::classic(),
        }
    }

    /// A new game of this variant, waiting for its first deal.
    pub fn new_game(self, rules: Arc<Rules>, seats: usize) -> Result<Box<dyn Game>, RulesError> {
        match self {
            Variant::Classic => Ok(Box::new(classic::Classic::new(rules, seats)?)),
        }
    }
}
