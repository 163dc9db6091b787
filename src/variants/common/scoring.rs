//! The end of a round, the same in every variant that plays rounds: house rules may change the
//! penalties and end the game ([`Hooks::close_round`]), the penalties go onto the totals, and
//! the game is over as the rules' [`GameEnd`] says; the lowest total wins.
//!
//! [`Hooks::close_round`]: crate::game::house::Hooks::close_round

use crate::game::house::RoundScores;
use crate::game::{Emitter, Event, Outcome, Points};
use crate::rules::{GameEnd, Rules};

/// Whether the rules end the game after round `round`, with these totals.
pub fn game_over(rules: &Rules, totals: &[Points], round: u32) -> bool {
    match rules.end {
        GameEnd::TargetScore(target) => totals.iter().any(|&s| s >= target as Points),
        GameEnd::Rounds(rounds) => round >= rounds,
    }
}

/// Closes round `round` with what its end left (`end`): its penalties into `taken` and the new
/// totals into `scores` (by seat), reported as a round's end and, when the game is over, the
/// game's with its winners (ties broken as `rules` say). Returns whether the game is over.
pub fn close_round(
    end: RoundScores,
    (rules, round): (&Rules, u32),
    taken: &mut Vec<Points>,
    scores: &mut Vec<Points>,
    events: &mut Emitter,
) -> bool {
    *taken = end.penalties;
    *scores = end.totals;
    events.emit(|| Event::RoundEnd {
        round,
        penalties: taken.clone(),
        totals: scores.clone(),
    });
    if end.over {
        events.emit(|| {
            let Outcome { totals, winners } = Outcome::of(scores, taken, rules.ties);
            Event::GameEnd { totals, winners }
        });
    }
    end.over
}
