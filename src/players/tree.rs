//! The search of a decision by a tree over the next decisions. Where nothing is hidden (Pro:
//! every card face up, every pick public), at a table of two, every determinization is the one
//! world, so the rollouts of a decision can share a tree over the next decisions instead of
//! each action being judged on its own by random futures (docs/mcs.md, "Fourth round: Pro").
//! Where the others' hands are hidden (Take a Number), each walk is a determinization of its
//! own and a seat's actions at a node those its hand holds in it ([`Tree::search_hidden`];
//! "Fifth round: Take a Number and classic at six seats").
//!
//! Decoupled UCT: a node is a state of the game; each seat that decides there keeps its own
//! statistics of its actions (visits, total reward) and picks by UCB1 on them, alone (the
//! round's cards are chosen at once: the pair picked is the joint move, the child is the state
//! it leads to); the draft's picks and the rows are nodes of one seat. A node is added to the
//! tree by the first walk that reaches it, and the rest of the round is played out from it with
//! the rollout bots; the round's end is scored for each seat (lower better, as the flat
//! search's: at a table of two the searching seat's points less the other's, the other
//! seat's reward its negative). The action chosen is the searching seat's most visited at the
//! root.

use crate::cards::Card;
use crate::game::model::{Memory, Model};
use crate::game::{Action, Discard, Seat, ToMove, View};
use crate::rng::GameRng;
use crate::rules::Rules;
use std::any::Any;
use std::sync::Arc;

/// One seat's choice at a node.
#[derive(Clone, Debug, Default)]
struct Mover {
    seat: Seat,
    actions: Vec<Action>,
    visits: Vec<u32>,
    rewards: Vec<f64>,
}

/// A state of the game in the tree.
#[derive(Clone, Debug, Default)]
struct Node {
    /// The seats that decide here, in seat order (none: the round is over).
    movers: Vec<Mover>,
    /// Walks through this node.
    visits: u32,
    /// The children: the joint move (the index of each mover's action, a byte each) and the
    /// node it leads to.
    children: Vec<(u32, u32)>,
}

/// The tree and its buffers, kept by the player between decisions.
#[derive(Default)]
pub struct Tree {
    nodes: Vec<Node>,
    path: Vec<(u32, u32)>,
    actions: Vec<Action>,
    /// The game at the root of the last search (a `G`), whose tree is kept for the next.
    root: Option<Box<dyn Any>>,
    /// Walks kept from the last search (for the measurements).
    pub kept: u64,
}

/// `cards` in ascending order (a hand rebuilt from the picks is in the order of the picks).
fn sorted(cards: &[Card]) -> Vec<Card> {
    let mut cards = cards.to_vec();
    cards.sort_unstable();
    cards
}

/// Whether `a` and `b` are the same state, as far as every seat's view tells.
fn same<G: Model>(a: &G, b: &G) -> bool {
    if a.to_move() != b.to_move() || a.seats() != b.seats() {
        return false;
    }
    (0..a.seats()).all(|seat| {
        let (x, y) = (a.view(seat), b.view(seat));
        x.round == y.round
            && x.turn == y.turn
            && x.decision == y.decision
            && sorted(x.hand) == sorted(y.hand)
            && x.rows == y.rows
            && x.scores == y.scores
            && x.taken == y.taken
            && x.revealed == y.revealed
            && x.pool == y.pool
    })
}

/// UCB1's constant, in points of a round (the searching seat's less the other's): chosen on
/// the tuning deals of the gauntlet (docs/mcs.md, "Fourth round: Pro").
pub const EXPLORE: f64 = 25.0;

/// The most seats a node may have deciding at once (a joint move's key holds a byte each).
pub const MOST_MOVERS: usize = 4;

/// UCB1's constant where something is hidden ([`Tree::search_hidden`]), in the same units:
/// chosen on the tuning deals of the gauntlet (docs/mcs.md, "Fifth round: Take a Number and
/// classic at six seats").
pub const EXPLORE_HIDDEN: f64 = 25.0;

/// What a search did: the action chosen, its walks and its steps.
pub struct Outcome {
    pub action: Option<Action>,
    pub walks: u64,
    pub steps: u64,
}

impl Tree {
    /// The node for `game`, at the end of `round` or not.
    fn node<G: Model>(&mut self, game: &G, round: u32) -> Node {
        let mut node = Node::default();
        let seats: Vec<Seat> = match game.to_move() {
            ToMove::Deal | ToMove::GameOver => Vec::new(),
            ToMove::Everyone(_) => (0..game.seats())
                .filter(|&s| game.owes(s).is_some())
                .collect(),
            ToMove::Seat(seat, _) => {
                if game.view(seat).round == round {
                    vec![seat]
                } else {
                    Vec::new()
                }
            }
        };
        for seat in seats {
            self.actions.clear();
            game.legal_actions(seat, &mut self.actions);
            let n = self.actions.len();
            node.movers.push(Mover {
                seat,
                actions: self.actions.clone(),
                visits: vec![0; n],
                rewards: vec![0.0; n],
            });
        }
        debug_assert!(
            node.movers.len() <= 4 && node.movers.iter().all(|m| m.actions.len() <= 256),
            "a joint move's key holds a byte for each of up to four movers"
        );
        node
    }

    /// Searches `root` for `me` until `budget` steps are spent (a copy of the game counting
    /// `copy_cost`, each decision in the tree or the rollouts one); `playout` plays a game out
    /// to the end of `round` and returns its steps (the search's rollout bots); `value` scores
    /// a game at the end of `round` for a seat, lower better (`me`'s; the other seat's, at a
    /// table of two, its negative); `explore` is UCB1's constant, in the value's units.
    #[allow(clippy::too_many_arguments)]
    pub fn search<G: Model>(
        &mut self,
        root: &G,
        me: Seat,
        round: u32,
        playout: impl FnMut(&mut G) -> u64,
        budget: u64,
        copy_cost: u64,
        explore: f64,
        value: impl Fn(&G, Seat) -> f64,
    ) -> Outcome {
        self.kept = 0;
        let found = self.find(root);
        match found {
            Some(at) if at > 0 => self.reroot(at),
            Some(_) => {}
            None => {
                self.nodes.clear();
                let first = self.node(root, round);
                self.nodes.push(first);
            }
        }
        self.kept = u64::from(self.nodes[0].visits);
        self.root = Some(Box::new(root.clone()));
        let walk = Walk {
            me,
            round,
            budget,
            explore,
            hidden: false,
        };
        let world = |game: &mut G| {
            game.clone_from(root);
            Some(copy_cost)
        };
        self.walks(root, &walk, world, playout, value)
    }

    /// [`Tree::search`] where something is hidden (the others' hands): each walk starts from
    /// a determinization of its own, of what `known` (the rules, the seat's view, what it saw)
    /// leaves open, drawn from `rng` into the walk's game (`deal_cost` steps). A seat's
    /// actions at a node are the ones legal in the walk's determinization (information-set
    /// search: the others' cards join their node's actions as walks find them, and an action
    /// the walk's hand does not hold is not picked); the searching seat's own, its hand being
    /// known, are the same in every walk. The tree is not kept from one decision to the next
    /// (docs/mcs.md, "Fifth round: Take a Number and classic at six seats").
    #[allow(clippy::too_many_arguments)]
    pub fn search_hidden<G: Model>(
        &mut self,
        root: &G,
        known: (&Arc<Rules>, &View, &Memory),
        rng: &mut GameRng,
        playout: impl FnMut(&mut G) -> u64,
        budget: u64,
        deal_cost: u64,
        value: impl Fn(&G, Seat) -> f64,
    ) -> Outcome {
        let (rules, view, memory) = known;
        self.kept = 0;
        self.root = None;
        self.nodes.clear();
        let first = self.node(root, view.round);
        self.nodes.push(first);
        let walk = Walk {
            me: view.seat,
            round: view.round,
            budget,
            explore: EXPLORE_HIDDEN,
            hidden: true,
        };
        let world = |game: &mut G| {
            let drawn = game.determinize_into(rules, view, memory, rng);
            drawn.ok().map(|()| deal_cost)
        };
        self.walks(root, &walk, world, playout, value)
    }

    /// The walks of a search from the root node (`nodes[0]`, the game `root`), each game set
    /// up by `world`.
    fn walks<G: Model>(
        &mut self,
        root: &G,
        walk: &Walk,
        mut world: impl FnMut(&mut G) -> Option<u64>,
        mut playout: impl FnMut(&mut G) -> u64,
        value: impl Fn(&G, Seat) -> f64,
    ) -> Outcome {
        let Walk {
            me,
            round,
            budget,
            explore,
            hidden,
        } = *walk;
        let mut game = root.clone();
        let mut work = 0u64;
        let mut walks = 0u64;
        let (mut legal, mut available, mut rewards) = (Vec::new(), Vec::new(), Vec::new());
        while work < budget {
            let Some(cost) = world(&mut game) else {
                break;
            };
            work += cost;
            walks += 1;
            self.path.clear();
            let mut at = 0usize;
            'walk: loop {
                let node = &mut self.nodes[at];
                if node.movers.is_empty() {
                    break;
                }
                let mut key = 0u32;
                let ln = f64::from(node.visits.max(1)).ln();
                for mover in &mut node.movers {
                    let pick = if hidden {
                        legal.clear();
                        game.legal_actions(mover.seat, &mut legal);
                        mover.available(&legal, &mut available);
                        if available.is_empty() {
                            // The node's seat has nothing to decide in this walk's world (the
                            // hidden cards decide who moves): the walk leaves the tree here.
                            work += playout(&mut game);
                            break 'walk;
                        }
                        ucb_of(mover, &available, ln, explore)
                    } else {
                        ucb(mover, ln, explore)
                    };
                    key = key << 8 | pick as u32;
                    let action = mover.actions[pick];
                    game.apply(mover.seat, action, &mut Discard)
                        .expect("a legal action of the tree applies");
                    work += 1;
                }
                self.path.push((at as u32, key));
                let found = node.children.iter().find(|&&(k, _)| k == key).map(|c| c.1);
                if let Some(child) = found {
                    at = child as usize;
                    continue;
                }
                let child = self.node(&game, round);
                if !child.movers.is_empty() {
                    work += playout(&mut game);
                }
                let index = self.nodes.len() as u32;
                self.nodes.push(child);
                self.nodes[at].children.push((key, index));
                break;
            }
            // The round's end, scored for each seat (at a node of the round's end too: where
            // something is hidden its value differs from walk to walk, the hands counting).
            rewards.clear();
            rewards.extend((0..game.seats()).map(|s| -value(&game, s)));
            for &(at, key) in &self.path {
                let node = &mut self.nodes[at as usize];
                node.visits += 1;
                let count = node.movers.len();
                for (m, mover) in node.movers.iter_mut().enumerate() {
                    let pick = picked(key, count, m);
                    mover.visits[pick] += 1;
                    mover.rewards[pick] += rewards[mover.seat];
                }
            }
        }
        let action = self.nodes[0]
            .movers
            .iter()
            .find(|m| m.seat == me)
            .and_then(|m| {
                let best = (0..m.actions.len()).max_by(|&a, &b| {
                    (m.visits[a], m.rewards[a])
                        .partial_cmp(&(m.visits[b], m.rewards[b]))
                        .expect("rewards are numbers")
                })?;
                Some(m.actions[best])
            });
        Outcome {
            action,
            walks,
            steps: work,
        }
    }
}

/// What a search's walks are for: the searching seat, the round they end with, the steps they
/// may spend, UCB1's constant, and whether each walk is a determinization of its own.
#[derive(Clone, Copy)]
struct Walk {
    me: Seat,
    round: u32,
    budget: u64,
    explore: f64,
    hidden: bool,
}

impl Mover {
    /// Into `out`, the index of each of `legal` among this mover's actions, an action not
    /// among them added (a card of another seat's hand first met in this determinization).
    fn available(&mut self, legal: &[Action], out: &mut Vec<usize>) {
        out.clear();
        for &action in legal {
            let at = match self.actions.iter().position(|&a| a == action) {
                Some(at) => at,
                // A joint move's key holds a byte for each mover: an action beyond the 256th
                // met is left out (never with a deck of up to 256 cards).
                None if self.actions.len() >= 256 => continue,
                None => {
                    self.actions.push(action);
                    self.visits.push(0);
                    self.rewards.push(0.0);
                    self.actions.len() - 1
                }
            };
            out.push(at);
        }
    }
}

impl Tree {
    /// The node of the last search's tree whose game is `now`, within a few moves of its root.
    fn find<G: Model>(&self, now: &G) -> Option<usize> {
        let old = self.root.as_ref()?.downcast_ref::<G>()?;
        if self.nodes.is_empty() {
            return None;
        }
        // Breadth first, to two moves (the other's pick after its own; a row taken after a
        // turn's cards): (node, its game).
        let mut level: Vec<(usize, G)> = vec![(0, old.clone())];
        for _ in 0..=2 {
            let mut next = Vec::new();
            for (at, game) in &level {
                // (A node at the round's end is never a decision's.)
                if !self.nodes[*at].movers.is_empty() && same(game, now) {
                    return Some(*at);
                }
                let node = &self.nodes[*at];
                let count = node.movers.len();
                for &(key, child) in &node.children {
                    let mut game = game.clone();
                    for (m, mover) in node.movers.iter().enumerate() {
                        let action = mover.actions[picked(key, count, m)];
                        game.apply(mover.seat, action, &mut Discard)
                            .expect("a legal action of the tree applies");
                    }
                    next.push((child as usize, game));
                }
            }
            level = next;
        }
        None
    }

    /// Makes node `at` the root, keeping its subtree only.
    fn reroot(&mut self, at: usize) {
        let mut old = std::mem::take(&mut self.nodes);
        // New index of each old node kept, in the order they are copied (depth first).
        let mut stack = vec![at];
        let mut index = vec![u32::MAX; old.len()];
        let mut order = Vec::new();
        while let Some(n) = stack.pop() {
            index[n] = order.len() as u32;
            order.push(n);
            stack.extend(old[n].children.iter().map(|&(_, c)| c as usize));
        }
        for &n in &order {
            let mut node = std::mem::take(&mut old[n]);
            for child in &mut node.children {
                child.1 = index[child.1 as usize];
            }
            self.nodes.push(node);
        }
    }
}

/// The index of mover `m`'s action (of `movers`) in a joint move's key, as the walk builds it:
/// a byte each, the first mover's highest.
fn picked(key: u32, movers: usize, m: usize) -> usize {
    (key >> (8 * (movers - 1 - m)) & 0xff) as usize
}

/// The action UCB1 picks for `mover` (`ln` the log of its node's visits): an action not tried
/// yet first, in order.
fn ucb(mover: &Mover, ln: f64, explore: f64) -> usize {
    let mut best = 0;
    let mut best_score = f64::NEG_INFINITY;
    for (a, (&n, &total)) in mover.visits.iter().zip(&mover.rewards).enumerate() {
        if n == 0 {
            return a;
        }
        let n = f64::from(n);
        let score = total / n + explore * (ln / n).sqrt();
        if score > best_score {
            best_score = score;
            best = a;
        }
    }
    best
}

/// The action UCB1 picks for `mover` among the indices `available` (`ln` the log of its
/// node's visits): one not tried yet first, in their order.
fn ucb_of(mover: &Mover, available: &[usize], ln: f64, explore: f64) -> usize {
    let mut best = available[0];
    let mut best_score = f64::NEG_INFINITY;
    for &a in available {
        let n = mover.visits[a];
        if n == 0 {
            return a;
        }
        let n = f64::from(n);
        let score = mover.rewards[a] / n + explore * (ln / n).sqrt();
        if score > best_score {
            best_score = score;
            best = a;
        }
    }
    best
}
