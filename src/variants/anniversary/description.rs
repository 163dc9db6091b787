//! What the rest of take5 needs to know of the anniversary variant ([`Description`]).

use crate::cards::Special;
use crate::game::house::Hook;
use crate::variants::registry::{
    BASE, Description, Forced, HouseParts, OwnSettings, SearchBudget, SelftestParts, range,
    scripted_deal,
};

pub const DESCRIPTION: Description = Description {
    name: "anniversary",
    rules: super::rules,
    // Secret: a seat sees only its own.
    check_first_deal: super::check_first_deal,
    house: HouseParts {
        settings: &[OwnSettings::in_own_rules(
            &["specials", "specials_dealt", "swapping"],
            "the anniversary variant's (its special cards)",
        )],
        hooks: &[
            (Hook::SpecialPlayed, "a special card played"),
            (Hook::Swap, "a swap of special cards"),
        ],
        ..BASE.house
    },
    // A copy weighs about four rollout decisions (the special cards).
    search: SearchBudget::flat(25_000, 4),
    selftest: SelftestParts {
        asks: &[
            ("play", true),
            ("special", true),
            ("row", true),
            ("cancel", true),
            ("swap", true),
        ],
        takes: true,
        forced,
    },
    ..BASE
};

/// The bot's low card with a Stop card to play first (or not), then a row it takes while
/// holding Negative = Positive, then the swap of a special card it still holds.
fn forced() -> Vec<Forced> {
    let hands = vec![
        vec![Special::NegativePositive, Special::Stop, Special::Stop],
        vec![Special::Replace; 3],
    ];
    vec![Forced {
        name: "special cards at a low card",
        deal: scripted_deal(
            &[range(1, 12), range(13, 24)],
            &[101, 102, 103, 104],
            Some(hands),
        ),
    }]
}
