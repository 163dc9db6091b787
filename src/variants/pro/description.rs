//! What the rest of take5 needs to know of the Pro variant ([`Description`]).

use crate::game::house::Hook;
use crate::rules::Rules;
use crate::variants::registry::{
    BASE, Description, HouseParts, OwnSettings, SearchBudget, SelftestParts, no_situations,
};

pub const DESCRIPTION: Description = Description {
    name: "pro",
    rules: Rules::pro,
    drafts: true,
    house: HouseParts {
        settings: &[
            OwnSettings::in_own_rules(&["pro_deck"], "the pro variant's (its deck)"),
            OwnSettings {
                names: &["draft"],
                whose: "the pro variant's (its draft order); other variants deal",
                own_rules: false,
            },
        ],
        hooks: &[(Hook::DraftPick, "a pick of the draft")],
        ..BASE.house
    },
    // Every hand is known: the dodger at the searching seat's own later decisions would play
    // one plan in every rollout of an action (docs/mcs.md, "Third round"); so random at every
    // table.
    search: SearchBudget::flat(40_000, 1)
        .own_random_up_to(usize::MAX)
        .tree_two_seats(),
    // The hands are drafted (no deal to script): the games in a row show every question.
    selftest: SelftestParts {
        asks: &[("pick", true), ("play", true), ("row", false)],
        takes: false,
        forced: no_situations,
    },
    ..BASE
};
