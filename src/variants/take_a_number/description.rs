//! What the rest of take5 needs to know of Take a Number ([`Description`]).

use super::row_capacities;
use crate::game::house::Hook;
use crate::rules::Rules;
use crate::variants::registry::{
    BASE, Description, Forced, HouseParts, OwnSettings, SearchBudget, SelftestParts, range,
    scripted_deal,
};

pub const DESCRIPTION: Description = Description {
    name: "take-a-number",
    rules: super::rules,
    row_capacity,
    house: HouseParts {
        settings: &[OwnSettings::in_own_rules(
            &["takes_at", "hash_pile_multiplier"],
            "Take a Number's (its rows and #-piles)",
        )],
        hooks: &[
            (Hook::HashRow, "a card sent to a #-row"),
            (Hook::HashPile, "a #-row sent to the #-pile"),
        ],
        ..BASE.house
    },
    // A copy weighs about four rollout decisions (the #-rows). At two seats a tree over
    // determinizations (docs/mcs.md, "Fifth round: Take a Number and classic at six seats"); at
    // four a rollout's end scored by the others' mean points ("Seventh round"), and a learnt
    // judgement of the table each action leaves (value.rs; a network for four seats only)
    // keeps 6 actions for the rollouts and counts as 32 rollouts beside theirs: against the
    // plain search at 10 times the steps 1.7-3.2 points a game better on the tuning seeds,
    // where it had been level ("Tenth round"), and 0.74 [0.14, 1.34] on 300 held-out deals
    // ("Eleventh round").
    search: SearchBudget::flat(50_000, 4)
        .tree_two_seats()
        .versus_all_from(4)
        .judged(32, 6, |seats| super::value::network(seats).is_some()),
    selftest: SelftestParts {
        asks: &[("play", true), ("row", true), ("keep", true)],
        takes: true,
        forced,
    },
    ..BASE
};

/// Row `row`'s capacity: each row has its own.
fn row_capacity(rules: &Rules, row: usize) -> usize {
    row_capacities(rules)
        .get(row)
        .copied()
        .unwrap_or(rules.row_capacity)
}

fn forced() -> Vec<Forced> {
    // builtin:lowest's 27 is placed first, after the 26 of row 0, which then holds the two
    // cards it takes; every card of the bot's goes after 27 and takes both: the bot chooses
    // which it keeps.
    let mut lowest = vec![27];
    lowest.extend(range(36, 42));
    vec![
        // The rows' ends are 50, 60 and 70, the #-rows 1 and 2: every card of the bot's is low.
        Forced {
            name: "a low card",
            deal: scripted_deal(&[range(3, 10), range(11, 18)], &[50, 60, 70, 1, 2], None),
        },
        Forced {
            name: "cards to keep",
            deal: scripted_deal(&[range(28, 35), lowest], &[26, 10, 6, 1, 2], None),
        },
    ]
}
