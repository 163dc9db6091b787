//! The anniversary variant as a search sees it: its legal actions and a game rebuilt from one
//! seat's view.

use super::*;
use crate::game::SetupError;

impl Model for Anniversary {
    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        let kinds = |held: &[Special]| {
            let mut kinds = held.to_vec();
            kinds.dedup();
            kinds
        };
        match self.phase {
            Phase::Choose if self.reveal.owes(seat) => {
                self.board.play_actions(seat, out);
            }
            Phase::Special { seat: s, card } if s == seat => {
                out.push(Action::Pass);
                let view = self.view(seat);
                for special in kinds(&self.special_hands[seat]) {
                    out.extend(legal_plays(&view, card, special).map(Action::Special));
                }
            }
            Phase::ChooseRow { seat: s, .. } if s == seat => {
                let open = (0..self.board.rows.len()).filter(|&r| !self.table.stops[r]);
                out.extend(open.map(Action::TakeRow));
            }
            Phase::Cancel { seat: s, .. } if s == seat => {
                out.push(Action::Pass);
                let mut taking = self.table.taking.clone();
                taking.sort_unstable();
                taking.dedup();
                out.extend(taking.into_iter().map(Action::Cancel));
            }
            Phase::Swap { seat: s } if s == seat => {
                out.push(Action::Pass);
                out.extend(
                    kinds(&self.special_hands[seat])
                        .into_iter()
                        .map(Action::Swap),
                );
            }
            _ => {}
        }
    }

    /// Hidden are the others' number cards (drawn as in classic: from the cards in no row,
    /// not in the seat's hand, not revealed and not taken this round), their special cards
    /// and the order of the special deck (drawn from the special cards in no hand of the
    /// seat's, not on the table and not discarded; as many for each as the table shows). The
    /// state is laid out as the view shows it, mid-turn included; a row about to be taken
    /// (Negative = Positive due) is found among the rows by the cards the view says it takes.
    fn resample(known: &Knowledge, rng: &mut GameRng) -> Result<Anniversary, RuleError> {
        let (rules, view, memory) = (known.rules, known.view, known.memory);
        let seats = view.seats;
        let bad = |why: &str| RuleError::Setup(SetupError::BadDeal(why.to_string()));
        let table = view
            .specials
            .ok_or_else(|| bad("not an anniversary view"))?;
        let mut game = Anniversary::new(rules.clone(), seats)
            .map_err(|e| RuleError::Setup(SetupError::BadDeal(e.to_string())))?;
        let revealed = view.revealed;
        // A Replace card this turn put another card in place of the one revealed (which went
        // back into its player's hand): the card being placed is seen too, so is no one's.
        // The cards a Replace sent back are known to be in their players' hands.
        let replaced = |s: Seat| {
            let found = memory.replaced.iter().find(|&&(by, ..)| by == s);
            found.map(|&(_, _, instead)| instead)
        };
        let instead = memory.replaced.iter().map(|(_, _, instead)| instead);
        let returned = memory.returned.iter().map(|(_, back)| back);
        let placing = match view.decision {
            Some(Decision::Special { card } | Decision::ChooseRow { card }) => Some(card),
            _ => None,
        };
        let seen = (view.hand.iter().chain(view.rows.iter().flatten()))
            .chain(revealed)
            .chain(&memory.taken)
            .chain(instead)
            .chain(returned)
            .chain(&placing);
        let mut unseen = unseen_cards(rules, seen);
        // The special cards no one is known to hold.
        let mut specials: Vec<Special> = rules.anniversary_rules().deck().collect();
        let five = (view.rows.len() > rules.rows).then_some(Special::FifthRow);
        fn marked(marks: &[bool], kind: Special) -> impl Iterator<Item = Special> + '_ {
            marks.iter().filter(|&&m| m).map(move |_| kind)
        }
        let out = (view.special_hand.iter().chain(&table.discard).copied())
            .chain(marked(&table.sevens, Special::SevenNimmt))
            .chain(marked(&table.stops, Special::Stop))
            .chain(five);
        for special in out {
            if let Some(at) = specials.iter().position(|&s| s == special) {
                specials.swap_remove(at);
            }
        }
        let hidden = table.deck
            + (0..seats)
                .filter(|&s| s != view.seat)
                .map(|s| table.hand_counts[s])
                .sum::<usize>();
        if specials.len() != hidden {
            return Err(bad("the special cards do not add up"));
        }
        rng.shuffle(&mut specials);
        for seat in 0..seats {
            if seat == view.seat {
                game.board.hands[seat] = view.hand.to_vec();
                game.special_hands[seat] = view.special_hand.to_vec();
            } else {
                // A seat holds the cards a Replace sent back, and the others drawn.
                let back = memory.returned.iter().filter(|&&(by, _)| by == seat);
                let mut hand: Vec<Card> = back.map(|&(_, card)| card).collect();
                let drawn = view.hand.len().saturating_sub(hand.len());
                hand.extend(draw_hand(rng, &mut unseen, drawn));
                hand.sort_unstable();
                game.board.hands[seat] = hand;
                let mut held = specials.split_off(specials.len() - table.hand_counts[seat]);
                held.sort_unstable();
                game.special_hands[seat] = held;
            }
        }
        game.deck = specials;
        game.table.clone_from(table);
        *game.reshuffler = GameRng::new(u64::from(rng.next_u32()), Stream::Deal(0));
        game.board.round = view.round;
        game.board.turn = view.turn;
        game.board.rows.lay(view.rows);
        game.board.taken.copy_from_slice(view.taken);
        game.board.scores.copy_from_slice(view.scores);
        let seat = view.seat;
        if !revealed.is_empty() {
            game.reveal.restore(revealed, seat);
        }
        game.phase = match view.decision {
            Some(Decision::Special { card }) => Phase::Special { seat, card },
            Some(Decision::ChooseRow { card }) => Phase::ChooseRow { seat, card },
            Some(Decision::Swap) => Phase::Swap { seat },
            Some(Decision::Cancel) => {
                let card = match replaced(seat) {
                    Some(instead) => instead,
                    None => *revealed.get(seat).ok_or_else(|| bad("no card revealed"))?,
                };
                let taking = game
                    .taking_of(card, &table.taking)
                    .ok_or_else(|| bad("no row the view takes"))?;
                Phase::Cancel { seat, card, taking }
            }
            _ => Phase::Choose,
        };
        Ok(game)
    }
}

impl Anniversary {
    /// How placing `card` takes `cards` (what [`Anniversary::cards_taken`] gives), found among
    /// the rows: the end of a row (low when the card is below every open row's end, else full),
    /// or a row it was inserted into.
    fn taking_of(&self, card: Card, cards: &[Card]) -> Option<Taking> {
        let low = self.target(card).is_none();
        let reason = if low {
            TakeReason::Low
        } else {
            TakeReason::Full
        };
        (0..self.board.rows.len()).find_map(|row| {
            let end = Taking::End { row, reason };
            let at = self.board.rows[row].partition_point(|&c| c < card);
            let insert = Taking::Insert { row, at };
            [end, insert]
                .into_iter()
                .find(|&taking| self.cards_taken(card, taking).0 == cards)
        })
    }
}
