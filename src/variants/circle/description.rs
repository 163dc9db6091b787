//! What the rest of take5 needs to know of the circle game ([`Description`]).

use crate::game::house::Hook;
use crate::rules::{CircleDeal, Rules};
use crate::variants::registry::{
    BASE, Description, HouseParts, OwnSettings, SearchBudget, SelftestParts, no_situations,
};

pub const DESCRIPTION: Description = Description {
    name: "circle",
    rules: super::rules,
    highest_wins: true,
    total: "points",
    row_worth: "points",
    rows_heading: Some("the rows of the circle, clockwise:"),
    rows_in_a_circle: true,
    specials_public: true,
    told_rules,
    house: HouseParts {
        settings: &[
            OwnSettings::in_own_rules(
                &[
                    "deal",
                    "cards_per_turn",
                    "plus5_points",
                    "x2_multiplier",
                    "held_penalty",
                    "green_multiplier",
                    "red_multiplier",
                ],
                "the circle game's (its deal and scoring)",
            ),
            OwnSettings {
                names: &["red"],
                whose: "the circle game's (its red bullheads)",
                own_rules: false,
            },
        ],
        unused: &[
            (
                &["rows", "hand_size"],
                "the circle game deals its hands and rows by the number of players",
            ),
            (
                &["target_score", "rounds", "ties"],
                "the circle game is one round and the highest score wins",
            ),
        ],
        hooks: &[
            (Hook::RowCollected, "a row collected"),
            (Hook::FinalScore, "a seat's final score"),
        ],
    },
    // At two seats plain rollouts (every seat's moves at random, the dodger's greedy
    // placements nowhere) were 13 points a game better against the plain search at 10 times
    // the steps on the tuning seeds, and cheaper: more of them fit in the time. At four they
    // were 16 points worse at a table with the dodger, and no better on held-out deals
    // (docs/mcs.md, "Third round"). At every table the search weighs only the 3 special-card
    // placements its prior values most (of up to 24), with every number card and the end of
    // the turn: against the plain search at 10 times the steps 11 points a game better at two
    // seats and at four on the tuning seeds, 3-4 on held-out deals, still behind it; at the
    // dodger's table no loss shown over 60 deals (docs/mcs.md, "Fourth round: the circle game").
    // From four seats a rollout's end scored by the others' mean points (docs/mcs.md,
    // "Seventh round: the circle game"). At every table a learnt judgement of the table each
    // action leaves (value.rs) keeps 6 actions for the rollouts and counts as 32 rollouts
    // beside theirs: head to head 10 points a game better at two seats, 15-28 at three to six;
    // against the plain search at 10 times the steps ahead at four seats on held-out deals
    // (docs/mcs.md, "Ninth round"). At two to four seats every rollout decision is the safe
    // player's (the row worth most when a card takes one worth points, else a move at random
    // but one that takes a row worth less than nothing), the searching seat's and the
    // others', none the dodger's: head to head 8-12 points a game better (at two seats either
    // seat's alone was worse; at five and six seats level on a few deals, not kept there). Its
    // moves cost more than random ones: 16000 steps at two seats keep the slowest decision
    // well under 10 ms ("Thirteenth round").
    search: SearchBudget {
        steps_two_seats: 16_000,
        own_random_up_to: 2,
        prior: 3,
        ..SearchBudget::flat(12_000, 1)
            .versus_all_from(4)
            .judged(32, 6, |seats| super::value::network(seats).is_some())
            .all_safe_up_to(4)
    },
    // One kind of question: the games in a row show it.
    selftest: SelftestParts {
        asks: &[("place", true)],
        takes: false,
        forced: no_situations,
    },
    ..BASE
};

/// The protocol sends neither the scoring of special cards nor the cards per turn: a table gets
/// the variant's (which `take5 play` plays unless a house script changes them), dealing its
/// `hand_size` and `rows`.
fn told_rules(rules: &mut Rules) {
    let defaults = super::rules().circle.expect("the circle's settings");
    rules.circle = Some(Box::new(crate::rules::CircleRules {
        deal: vec![CircleDeal {
            players: rules.min_players,
            hand_size: rules.hand_size,
            rows: rules.rows,
        }],
        ..*defaults
    }));
}
