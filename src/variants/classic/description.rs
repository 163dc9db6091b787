//! What the rest of take5 needs to know of classic ([`Description`]).

use crate::rules::Rules;
use crate::variants::registry::{
    BASE, Description, Forced, SearchBudget, SelftestParts, range, scripted_deal,
};

pub const DESCRIPTION: Description = Description {
    name: "classic",
    rules: Rules::classic,
    // A table of two gets less: its steps cost more (a determinization and a copy per action
    // weigh more beside rollouts of two seats), and more bought no strength (docs/mcs.md). At
    // six seats a rollout's end is scored by the seat's points less the others' mean (no
    // rival): about 1.8 points a game better than half the rival's against the defaults of
    // 2026-12-01 on 120 tuning deals; on 48 held-out deals level with them there and better
    // against each other opponent (docs/mcs.md, "Sixth round: classic at six seats"). And
    // there half of the others' rollout decisions not given to the dodger play a safe card
    // at random (`safe=50`): about 2.5 points a game better against those defaults on 120
    // tuning deals ("Seventh round: classic at six seats").
    search: SearchBudget {
        steps_two_seats: 40_000,
        ..SearchBudget::flat(50_000, 1)
            .versus_all_from(6)
            .safe_from(6, 50)
    },
    selftest: SelftestParts {
        asks: &[("play", true), ("row", true)],
        takes: true,
        forced,
    },
    ..BASE
};

/// Every card of the bot's hand is below every row: its first card is low, it chooses a row
/// and takes it.
fn forced() -> Vec<Forced> {
    vec![Forced {
        name: "a low card",
        deal: scripted_deal(&[range(1, 10), range(11, 20)], &[101, 102, 103, 104], None),
    }]
}
