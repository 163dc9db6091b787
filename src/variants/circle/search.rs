//! The circle game's part of `builtin:mcs` (src/players/search.rs): a prior that narrows the
//! actions searched.

use crate::game::{Action, View};
use crate::players::builtin::circle_value;

/// Keeps every number card and the end of the turn, and of the special-card placements (a kind
/// into a row: up to half the actions of a turn) the `keep` best by [`circle_value`] (the first
/// of a tie), so the search's budget goes to fewer actions.
pub fn prune(view: &View, actions: &mut Vec<Action>, keep: usize) {
    let mut specials: Vec<(i32, usize)> = (actions.iter().enumerate())
        .filter(|(_, a)| matches!(a, Action::PlaceSpecial { .. }))
        .map(|(i, &a)| (circle_value(view, a), i))
        .collect();
    if specials.len() <= keep {
        return;
    }
    specials.sort_by_key(|&(value, i)| (std::cmp::Reverse(value), i));
    let mut dropped = vec![false; actions.len()];
    for &(_, i) in &specials[keep..] {
        dropped[i] = true;
    }
    let mut i = 0;
    actions.retain(|_| {
        i += 1;
        !dropped[i - 1]
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{Card, Special};
    use crate::game::Game;
    use crate::game::model::Model;
    use crate::variants::circle::{Circle, CircleSetup, rules};
    use std::sync::Arc;

    fn cards(numbers: &[u16]) -> Vec<Card> {
        numbers.iter().map(|&n| Card(n)).collect()
    }

    /// Rows 5, 10, 15, 20 (four red cards: the next card takes it), 40 and 70; seat 0 holds
    /// 22 (takes the first row), 45 and 75, and one special card of each kind.
    fn game() -> Circle {
        let setup = CircleSetup {
            rows: vec![cards(&[5, 10, 15, 20]), cards(&[40]), cards(&[70])],
            row_specials: vec![Vec::new(); 3],
            hands: vec![cards(&[22, 45, 75]), cards(&[90])],
            held: vec![Special::CIRCLE.to_vec(), Special::CIRCLE.to_vec()],
            first: 0,
        };
        Circle::from_setup(Arc::new(rules()), &setup).unwrap()
    }

    #[test]
    fn the_prior_keeps_every_number_card_and_the_best_special_placements() {
        let game = game();
        let mut all = Vec::new();
        game.legal_actions(0, &mut all);
        let view = game.view(0);
        let specials = |actions: &[Action]| {
            let placements = actions
                .iter()
                .filter(|a| matches!(a, Action::PlaceSpecial { .. }));
            placements.copied().collect::<Vec<_>>()
        };
        assert_eq!(specials(&all).len(), 6, "two kinds into three rows");
        for keep in [1, 2, 6] {
            let mut kept = all.clone();
            prune(&view, &mut kept, keep);
            let numbers = |a: &[Action]| a.iter().filter(|a| matches!(a, Action::Play(_))).count();
            assert_eq!(numbers(&kept), 3, "keep {keep}");
            assert_eq!(specials(&kept).len(), keep.min(6));
            // The placements kept are the ones the prior values most, in the order offered.
            let mut best = specials(&all);
            best.sort_by_key(|&a| std::cmp::Reverse(circle_value(&view, a)));
            let worst_kept = specials(&kept)
                .iter()
                .map(|&a| circle_value(&view, a))
                .min();
            assert_eq!(worst_kept, Some(circle_value(&view, best[keep.min(6) - 1])));
            assert!(kept.iter().all(|a| all.contains(a)));
        }
    }
}
