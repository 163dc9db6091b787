//! `builtin:mcs`: determinized Monte Carlo search, for every decision of every variant, over
//! the game model's search calls only ([`Model`]): the legal actions of the decision, a game
//! rebuilt from the seat's view with the cards it cannot see drawn at random ([`Model::determinize`],
//! fed with what the event lines showed: [`Memory`]), and cheap copies of it.
//!
//! Each decision: draw a determinization; for each legal action still in play, copy it, apply
//! the action and play the rest of the round with built-in bots ([`Policies`]), with the same
//! random choices for every action (common random numbers: the actions are compared on the
//! same futures); score the round's end for the seat; repeat, dropping the worse half of the
//! actions after each stage of the budget (sequential halving), and take the best. How a
//! round's end is scored: see [`McsPlayer`]. docs/mcs.md has the figures.

use super::builtin::{Builtin, Strategy, cheapest_row, dodger_card, fallback};
use super::{Answer, GameStart, Legality, Player};
use crate::cards::Card;
use crate::game::model::{Memory, Model};
use crate::game::{Action, Decision, Discard, Event, Game, Seat, ToMove, View};
use crate::rng::{GameRng, Stream};
use crate::rules::Rules;
use crate::variants::Variant;
use crate::variants::anniversary::Anniversary;
use crate::variants::circle::Circle;
use crate::variants::classic::Classic;
use crate::variants::pro::Pro;
use crate::variants::take_a_number::TakeANumber;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The work a decision gets by default, in steps (the decisions played in its rollouts, one
/// for each action tried, and `seats` for each determinization), by variant: a count, so games
/// are reproducible from the seed, and bounded, so a decision with long rollouts or many
/// actions gets fewer rollouts. Chosen to keep every decision under 10 ms on one core of this
/// project's machine (docs/mcs.md).
pub fn default_steps(variant: Variant) -> u64 {
    match variant {
        Variant::Classic | Variant::TakeANumber | Variant::Pro => 40_000,
        Variant::Anniversary => 25_000,
        Variant::Circle => 15_000,
    }
}

/// The rollouts' policy by default.
pub const DEFAULT_POLICY: Strategy = Strategy::Random;

/// The searching seat's own policy in the rollouts by default: the dodger (its own later
/// choices played well, the others' at random: 2 points a game better than random for both in
/// classic 4-player games, docs/mcs.md).
pub const DEFAULT_OWN: Strategy = Strategy::Dodger;

/// Percent of the other seats' rollout decisions made by the dodger by default (the rest at
/// random): a table of players of mixed strength (docs/mcs.md).
pub const DEFAULT_MIX: u32 = 50;

/// How much the points of the other seat doing best so far count against the seat's own by
/// default, in percent, at a table of three or more (docs/mcs.md).
pub const DEFAULT_RIVAL: u32 = 50;

/// Whether the other seats' rollout play follows how they played so far, by default.
pub const DEFAULT_INFER: bool = false;

/// `builtin:mcs`'s options, from its player spec (`builtin:mcs:rollouts=2000:ms=50`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct McsOptions {
    /// Rollouts per decision (over all its actions) instead of a count of steps.
    pub rollouts: Option<u32>,
    /// Steps per decision (see [`default_steps`]); `None`: the default, unless `rollouts` or
    /// `ms` is given.
    pub steps: Option<u64>,
    /// A time budget per decision in milliseconds instead of a count: the games then depend on
    /// the machine's speed, so they are not reproducible from the seed.
    pub ms: Option<u32>,
    /// The built-in bot that plays every seat in the rollouts.
    pub policy: Strategy,
    /// The built-in bot that plays the searching seat in the rollouts.
    pub own: Strategy,
    /// At a table of three or more: how much the others' mean points count against the
    /// seat's own, in percent (0: only its own points count).
    pub versus: u32,
    /// Percent of the other seats' rollout decisions made by the dodger instead of `policy`.
    pub mix: u32,
    /// At a table of three or more: how much the points of the other seat doing best so far
    /// count against the seat's own, in percent.
    pub rival: u32,
    /// Classic and Pro: each other seat's share of dodger decisions in the rollouts follows
    /// how it has played so far this game (see [`Style`]) instead of `mix` alone.
    pub infer: bool,
    /// With `infer` (`infer=2`): a seat's share of dodger decisions is never below `mix`.
    pub lift: bool,
    /// Classic: the searching seat's own cards in the rollouts by [`careful_card`] instead of
    /// `own` (`own=careful`).
    pub careful: bool,
    /// Classic: each determinization is picked from this many draws, by how likely each makes
    /// the cards the others played this round (see [`Past`]); 0 or 1: the first draw.
    pub hands: u32,
    /// Percent of the searching seat's rollout decisions made by `own` (the rest by `policy`).
    pub ownmix: u32,
    /// Successive rejects (one action dropped after each stage) instead of sequential halving.
    pub rejects: bool,
    /// Classic: the searching seat's own cards in the rollouts by [`seer_card`] (`own=seer`).
    pub seer: bool,
    /// Each other seat plays a whole rollout as the dodger (with chance `mix`, or its inferred
    /// share with `infer`) or at random, instead of each decision.
    pub types: bool,
    /// Sequential halving: percent of the actions in play kept after each stage.
    pub keep: u32,
    /// When a seat's total reaches this, the rollouts play the next round too.
    pub past: Option<u32>,
}

/// Percent of the actions kept after each stage by default (halving).
pub const DEFAULT_KEEP: u32 = 50;

impl Default for McsOptions {
    fn default() -> McsOptions {
        McsOptions {
            rollouts: None,
            steps: None,
            ms: None,
            policy: DEFAULT_POLICY,
            own: DEFAULT_OWN,
            versus: 0,
            mix: DEFAULT_MIX,
            rival: DEFAULT_RIVAL,
            infer: DEFAULT_INFER,
            lift: false,
            careful: false,
            hands: 0,
            ownmix: 100,
            rejects: false,
            seer: false,
            types: false,
            keep: DEFAULT_KEEP,
            past: None,
        }
    }
}

impl McsOptions {
    /// The options after `mcs` in a spec: empty, or `:name=value` pairs (`rollouts`, `ms`).
    pub fn parse(options: &str) -> Result<McsOptions, String> {
        let mut parsed = McsOptions::default();
        for option in options.split(':').filter(|o| !o.is_empty()) {
            let (name, value) = option
                .split_once('=')
                .ok_or_else(|| format!("mcs option `{option}`: expected name=value"))?;
            if name == "own" && (value == "careful" || value == "seer") {
                parsed.own = Strategy::Dodger;
                parsed.careful = value == "careful";
                parsed.seer = value == "seer";
                continue;
            }
            if name == "policy" || name == "own" {
                let strategy = Strategy::from_name(value)
                    .ok_or_else(|| format!("mcs option `{name}`: no built-in bot `{value}`"))?;
                match name {
                    "policy" => parsed.policy = strategy,
                    _ => {
                        parsed.own = strategy;
                        parsed.careful = false;
                        parsed.seer = false;
                    }
                }
                continue;
            }
            let number = value
                .parse::<u32>()
                .ok()
                .filter(|&n| {
                    n > 0
                        || [
                            "versus", "mix", "rival", "infer", "hands", "rejects", "types",
                        ]
                        .contains(&name)
                })
                .ok_or_else(|| {
                    format!("mcs option `{name}`: `{value}` is not a whole number above 0")
                })?;
            match name {
                "rollouts" => parsed.rollouts = Some(number),
                "steps" => parsed.steps = Some(u64::from(number)),
                "ms" => parsed.ms = Some(number),
                "versus" => parsed.versus = number,
                "mix" => parsed.mix = number.min(100),
                "rival" => parsed.rival = number,
                "infer" => {
                    parsed.infer = number > 0;
                    parsed.lift = number == 2;
                }
                "hands" => parsed.hands = number,
                "ownmix" => parsed.ownmix = number.min(100),
                "rejects" => parsed.rejects = number > 0,
                "types" => parsed.types = number > 0,
                "keep" => parsed.keep = number.clamp(1, 99),
                "past" => parsed.past = Some(number),
                _ => {
                    return Err(format!(
                        "unknown mcs option `{name}` (known: rollouts, steps, ms, policy, own, versus, mix, rival, infer, hands, ownmix, rejects, types, keep, past)"
                    ));
                }
            }
        }
        Ok(parsed)
    }

    /// The spec's text after `builtin:` (defaults left out).
    pub fn spec(&self) -> String {
        let mut spec = String::from("mcs");
        if let Some(rollouts) = self.rollouts {
            spec.push_str(&format!(":rollouts={rollouts}"));
        }
        if let Some(steps) = self.steps {
            spec.push_str(&format!(":steps={steps}"));
        }
        if let Some(ms) = self.ms {
            spec.push_str(&format!(":ms={ms}"));
        }
        if self.policy != DEFAULT_POLICY {
            spec.push_str(&format!(":policy={}", self.policy.name()));
        }
        if self.versus != 0 {
            spec.push_str(&format!(":versus={}", self.versus));
        }
        if self.rival != DEFAULT_RIVAL {
            spec.push_str(&format!(":rival={}", self.rival));
        }
        if self.mix != DEFAULT_MIX {
            spec.push_str(&format!(":mix={}", self.mix));
        }
        if self.infer != DEFAULT_INFER {
            let infer = u32::from(self.infer) + u32::from(self.lift);
            spec.push_str(&format!(":infer={infer}"));
        }
        if self.careful {
            spec.push_str(":own=careful");
        } else if self.seer {
            spec.push_str(":own=seer");
        } else if self.own != DEFAULT_OWN {
            spec.push_str(&format!(":own={}", self.own.name()));
        }
        if self.ownmix != 100 {
            spec.push_str(&format!(":ownmix={}", self.ownmix));
        }
        if self.rejects {
            spec.push_str(":rejects=1");
        }
        if self.types {
            spec.push_str(":types=1");
        }
        if let Some(past) = self.past {
            spec.push_str(&format!(":past={past}"));
        }
        if self.keep != DEFAULT_KEEP {
            spec.push_str(&format!(":keep={}", self.keep));
        }
        if self.hands > 1 {
            spec.push_str(&format!(":hands={}", self.hands));
        }
        spec
    }
}

/// The search bot at one seat of a match.
///
/// A rollout is scored at the end of the round it started in (or of the game): the seat's
/// points in that round; at a table of two, minus the other's (what ranks); otherwise the
/// seat's own points (what its total is made of), less `versus` percent of the others' mean
/// and `rival` percent of the points of the other seat doing best so far. Penalties count
/// against, the circle game's points for.
pub struct McsPlayer {
    options: McsOptions,
    name: String,
    /// The search's own draws (determinizations).
    rng: GameRng,
    /// The rollouts' bots.
    policies: Policies,
    variant: Variant,
    /// The view's rules, shared with the games built from them (made again when they change).
    rules: Option<Arc<Rules>>,
    memory: Memory,
    /// How the other seats have played this game.
    style: Style,
    /// The turns of this round so far (for `hands`).
    past: Past,
    /// Reused buffers.
    actions: Vec<Action>,
    totals: Vec<f64>,
}

impl McsPlayer {
    /// `seed` is the match seed; each game's draws come from their own stream of it.
    pub fn new(options: McsOptions, seed: u64) -> McsPlayer {
        McsPlayer {
            name: format!("builtin:{}", options.spec()),
            options,
            rng: GameRng::new(seed, Stream::Bot { game: 0, seat: 0 }),
            // Other keys for the rollouts, so their streams are not the determinizations'.
            policies: Policies::new(&options, seed),
            variant: Variant::Classic,
            rules: None,
            memory: Memory::default(),
            style: Style::default(),
            past: Past::default(),
            actions: Vec::new(),
            totals: Vec::new(),
        }
    }

    /// The decision for `view`, searched in the current variant.
    pub fn choose(&mut self, view: &View) -> Action {
        if self.options.hands > 1 && self.variant == Variant::Classic {
            self.style.before_reveal(view);
            self.past.before_reveal(view);
        }
        if self.options.infer {
            self.style.before_reveal(view);
            let prior = self.options.mix;
            let mixes = &mut self.policies.mixes;
            mixes.clear();
            let lift = self.options.lift;
            mixes.extend((0..view.seats).map(|s| {
                let share = self.style.dodger_share(s, prior);
                if lift { share.max(prior) } else { share }
            }));
        }
        let rules = match &self.rules {
            Some(rules) if **rules == *view.rules => rules.clone(),
            _ => {
                let rules = Arc::new(view.rules.clone());
                self.rules = Some(rules.clone());
                rules
            }
        };
        let chosen = match self.variant {
            Variant::Classic => self.search::<Classic>(&rules, view),
            Variant::Pro => self.search::<Pro>(&rules, view),
            Variant::TakeANumber => self.search::<TakeANumber>(&rules, view),
            Variant::Circle => self.search::<Circle>(&rules, view),
            Variant::Anniversary => self.search::<Anniversary>(&rules, view),
        };
        chosen.unwrap_or_else(|| self.policies.smart.choose(view))
    }

    /// The best action by rollouts from determinizations of `G`; `None` if the view cannot be
    /// rebuilt (then the caller plays the dodger).
    fn search<G: Model>(&mut self, rules: &Arc<Rules>, view: &View) -> Option<Action> {
        let seat = view.seat;
        let (mut world, mut drawn) = self.draw::<G>(rules, view)?;
        self.actions.clear();
        world.legal_actions(seat, &mut self.actions);
        match self.actions.len() {
            0 => return None,
            1 => return Some(self.actions[0]),
            _ => {}
        }
        let n = self.actions.len();
        self.totals.clear();
        self.totals.resize(n, 0.0);
        // Sequential halving: the budget is spent in stages; after each, the worse half of the
        // actions still in play is dropped, so the close calls get most of the rollouts.
        let rejects = self.options.rejects;
        let keep = self.options.keep;
        let kept = |len: usize| (len * keep as usize).div_ceil(100).clamp(1, len - 1);
        let stages = if rejects {
            (n as u32 - 1).max(1)
        } else if keep == DEFAULT_KEEP {
            n.next_power_of_two().trailing_zeros().max(1)
        } else {
            let (mut len, mut stages) = (n, 0);
            while len > 1 {
                len = kept(len);
                stages += 1;
            }
            stages.max(1)
        };
        // Successive rejects: stage k (k actions dropped so far, a = n - k in play) gets
        // 1 / (logbar (a + 1)) of the budget, the first 1 / logbar (Audibert, Bubeck and
        // Munos 2010); sequential halving: an even share.
        let logbar = 0.5 + (2..=n).map(|i| 1.0 / i as f64).sum::<f64>();
        let share = |stage: u32| {
            let a = (n as u32 - stage) as f64;
            if stage == 0 {
                1.0 / logbar
            } else {
                1.0 / (logbar * (a + 1.0))
            }
        };
        let (ms, rollouts, steps) = (self.options.ms, self.options.rollouts, self.options.steps);
        let variant = self.variant;
        let budget_at = |stage: u32| match (ms, rollouts, steps) {
            (Some(ms), ..) if rejects => {
                Budget::Time(Duration::from_millis(u64::from(ms)).mul_f64(share(stage)))
            }
            (Some(ms), ..) => Budget::Time(Duration::from_millis(u64::from(ms)) / stages),
            (None, Some(rollouts), None) if rejects => {
                Budget::Rollouts((f64::from(rollouts) * share(stage)) as u32)
            }
            (None, Some(rollouts), None) => Budget::Rollouts(rollouts / stages),
            (None, _, steps) => {
                let steps = steps.unwrap_or_else(|| default_steps(variant));
                if rejects {
                    Budget::Steps((steps as f64 * share(stage)) as u64)
                } else {
                    Budget::Steps(steps / u64::from(stages))
                }
            }
        };
        let high_wins = rules.circle.is_some();
        // The rival: the other seat doing best so far (totals and this round's points).
        let standing = |s: Seat| {
            let points = view.scores[s] + view.taken.get(s).copied().unwrap_or(0);
            if high_wins { -points } else { points }
        };
        let rival = (0..view.seats)
            .filter(|&s| s != seat)
            .min_by_key(|&s| standing(s));
        let scoring = Scoring {
            high_wins,
            versus: self.options.versus,
            rival: rival
                .filter(|_| self.options.rival > 0)
                .map(|s| (s, self.options.rival)),
        };
        // With `past`: when a seat's total (with this round's points) reaches it, the rollouts
        // play the next round too.
        let near = (0..view.seats)
            .map(|s| view.scores[s] + view.taken.get(s).copied().unwrap_or(0))
            .max()
            .unwrap_or(0);
        let until = match self.options.past {
            Some(total) if !high_wins && near >= total as i32 => view.round + 1,
            _ => view.round,
        };
        let shares: Vec<u32> = match self.options.types {
            true if self.options.infer => self.policies.mixes.clone(),
            true => vec![self.options.mix; view.seats],
            false => Vec::new(),
        };
        let mut game = world.clone();
        let mut active: Vec<usize> = (0..n).collect();
        let mut fresh = true;
        for stage in 0..stages {
            let budget = budget_at(stage);
            let start = Instant::now();
            let mut spent = 0u32;
            let mut work = 0u64;
            loop {
                if !fresh {
                    (world, drawn) = self.draw::<G>(rules, view)?;
                }
                fresh = false;
                work += drawn;
                if self.options.types {
                    // Each other seat plays the whole rollout as the dodger or at random.
                    let mixes = &mut self.policies.mixes;
                    mixes.clear();
                    for &share in &shares {
                        mixes.push(if self.rng.below(100) < share { 100 } else { 0 });
                    }
                }
                let p = &mut self.policies;
                let futures = (p.others.rng().clone(), p.own.rng().clone());
                for &k in &active {
                    game.clone_from(&world);
                    *self.policies.others.rng() = futures.0.clone();
                    *self.policies.own.rng() = futures.1.clone();
                    if game.apply(seat, self.actions[k], &mut Discard).is_err() {
                        self.totals[k] = f64::INFINITY;
                        continue;
                    }
                    let p = &mut self.policies;
                    work += 1 + rollout_until(&mut game, p, seat, view.round, until);
                    self.totals[k] += value(&game, seat, view.scores, &scoring);
                }
                spent += active.len() as u32;
                let done = match budget {
                    Budget::Time(limit) => start.elapsed() >= limit,
                    Budget::Rollouts(count) => spent >= count,
                    Budget::Steps(count) => work >= count,
                };
                if done {
                    break;
                }
            }
            // Every action still in play has the same rollouts: their totals compare.
            active.sort_by(|&a, &b| self.totals[a].total_cmp(&self.totals[b]));
            if stage + 1 < stages {
                let next = if rejects {
                    active.len() - 1
                } else if keep == DEFAULT_KEEP {
                    active.len().div_ceil(2)
                } else {
                    kept(active.len())
                };
                active.truncate(next.max(1));
            }
        }
        if self.options.types {
            self.policies.mixes.clone_from(&shares);
            if !self.options.infer {
                self.policies.mixes.clear();
            }
        }
        Some(self.actions[active[0]])
    }

    /// A determinization of `view`, and its work in steps (one per seat for each draw, one
    /// for each play weighed): with `hands`, in classic, one of `hands` draws picked by the
    /// likelihood of the round's plays ([`Past::weight`]).
    fn draw<G: Model>(&mut self, rules: &Arc<Rules>, view: &View) -> Option<(G, u64)> {
        let mut world = G::determinize(rules, view, &self.memory, &mut self.rng).ok()?;
        let draws = self.options.hands;
        let deal_cost = view.seats as u64;
        if draws <= 1 || self.past.turns.is_empty() || self.variant != Variant::Classic {
            return Some((world, deal_cost));
        }
        let mixes: Vec<f64> = (0..view.seats)
            .map(|s| f64::from(self.style.dodger_share(s, self.options.mix).clamp(5, 95)) / 100.0)
            .collect();
        let mut total = self.past.weight(&world, view, &mixes);
        for _ in 1..draws {
            let other = G::determinize(rules, view, &self.memory, &mut self.rng).ok()?;
            let weight = self.past.weight(&other, view, &mixes);
            total += weight;
            let u = f64::from(self.rng.below(1 << 24)) / f64::from(1u32 << 24);
            if total > 0.0 && u * total < weight {
                world = other;
            }
        }
        let weighed = (view.seats as u64 - 1) * self.past.turns.len() as u64;
        Some((world, u64::from(draws) * (deal_cost + weighed)))
    }
}

/// The classic turns of the current round the seat has seen: the rows everyone chose on, and
/// the cards then revealed, by seat. A determinization's hands then say what each seat held
/// at each turn (its hand now and the cards it played since), so how likely the round's plays
/// were from them, if the seat plays like the dodger or at random.
#[derive(Clone, Debug, Default)]
pub struct Past {
    round: u32,
    /// By turn: the rows, and the cards revealed (empty until they are).
    turns: Vec<(Vec<Vec<Card>>, Vec<Card>)>,
    /// Reused buffer: a hand.
    hand: Vec<Card>,
}

impl Past {
    /// Notes the rows before a classic card is chosen.
    pub fn before_reveal(&mut self, view: &View) {
        if view.round != self.round {
            self.round = view.round;
            self.turns.clear();
        }
        let plain = view.number.is_none() && view.circle.is_none() && view.specials.is_none();
        if plain && view.decision == Some(Decision::PlayCard) {
            self.turns.retain(|(_, cards)| !cards.is_empty());
            self.turns.push((view.rows.to_vec(), Vec::new()));
        }
    }

    /// The turn's cards, by seat.
    pub fn revealed(&mut self, cards: &[Card]) {
        if let Some((_, seen)) = self.turns.last_mut().filter(|(_, seen)| seen.is_empty()) {
            seen.extend_from_slice(cards);
        }
    }

    /// How likely the round's plays are from `world`'s hands (up to a factor that is the same
    /// for every world), each other seat playing like the dodger with chance `mixes[seat]`,
    /// else at random.
    fn weight<G: Game>(&mut self, world: &G, view: &View, mixes: &[f64]) -> f64 {
        let mut weight = 1.0;
        for seat in (0..view.seats).filter(|&s| s != view.seat) {
            let mix = mixes[seat];
            self.hand.clear();
            self.hand.extend_from_slice(world.view(seat).hand);
            for (rows, cards) in self.turns.iter().rev() {
                let Some(&played) = cards.get(seat) else {
                    continue;
                };
                let at = self.hand.partition_point(|&c| c < played);
                self.hand.insert(at, played);
                let then = View {
                    hand: &self.hand,
                    rows,
                    decision: Some(Decision::PlayCard),
                    ..*view
                };
                let dodger = if dodger_card(&then) == played {
                    1.0
                } else {
                    0.0
                };
                weight *= mix * dodger + (1.0 - mix) / self.hand.len() as f64;
            }
        }
        weight
    }
}

/// A rollout's card for the searching seat with `own=careful` (classic): the card whose
/// expected penalty this turn is lowest. A card above a row's end lands on it; the others'
/// cards between the end and it land there first, each of the others playing one with the
/// chance that a card it cannot see lies there (the cards it cannot see between them over all
/// it cannot see); the row is taken if they fill it. A low card costs the cheapest row; a card
/// for a full row, the row. Ties as the dodger: most room, then closest to its row's end.
pub fn careful_card(view: &View) -> Card {
    let deck = &view.rules.deck;
    let others = view.seats.saturating_sub(1) as i32;
    let on_table: usize = view.rows.iter().map(Vec::len).sum();
    let unseen = deck.len().saturating_sub(view.hand.len() + on_table).max(1) as f64;
    let cheapest = f64::from(deck.sum(&view.rows[cheapest_row(view)]));
    let score = |card: Card| {
        let target = view
            .rows
            .iter()
            .enumerate()
            .filter(|&(r, row)| row[row.len() - 1] < card && !view.stopped(r))
            .max_by_key(|(_, row)| row[row.len() - 1]);
        match target {
            None => (cheapest, 0, u16::MAX),
            Some((r, row)) => {
                let end = row[row.len() - 1];
                let room = view.capacity(r).saturating_sub(row.len());
                let points = f64::from(deck.sum(row));
                if room == 0 {
                    return (points, 0, 0);
                }
                let held = view.hand.iter().filter(|&&c| end < c && c < card).count();
                let gap = usize::from(card.0 - end.0 - 1).saturating_sub(held);
                let p = (gap as f64 / unseen).min(1.0);
                (
                    points * at_least(others, p, room as i32),
                    room,
                    u16::MAX - (card.0 - end.0),
                )
            }
        }
    };
    *view
        .hand
        .iter()
        .min_by(|&&a, &&b| {
            let (ca, ra, na) = score(a);
            let (cb, rb, nb) = score(b);
            ca.total_cmp(&cb).then(rb.cmp(&ra)).then(nb.cmp(&na))
        })
        .expect("a hand to play from")
}

/// A rollout's card for the searching seat with `own=seer` (classic), which sees `others`,
/// the other seats' cards of the turn: the card that takes the fewest bullheads when the
/// turn's cards are placed (a low card taking the cheapest row), then the one that lands
/// closest to its row's end.
pub fn seer_card(view: &View, others: &[Card]) -> Card {
    let deck = &view.rules.deck;
    let start: Vec<(Card, usize, u32)> = view
        .rows
        .iter()
        .map(|row| (row[row.len() - 1], row.len(), deck.sum(row)))
        .collect();
    let mut rows = start.clone();
    let mut outcome = |mine: Card| {
        rows.clone_from(&start);
        let mut result = (0, u16::MAX);
        let lower = others.iter().filter(|&&c| c < mine).count();
        let mut order: Vec<Card> = others.to_vec();
        order.insert(lower.min(order.len()), mine);
        order[..].sort_unstable();
        for card in order {
            let target = (0..rows.len())
                .filter(|&r| rows[r].0 < card)
                .max_by_key(|&r| rows[r].0);
            let (taken, gap) = match target {
                None => {
                    let r = (0..rows.len()).min_by_key(|&r| rows[r].2).expect("a row");
                    let taken = rows[r].2;
                    rows[r] = (card, 1, deck.bullheads(card));
                    (taken, u16::MAX)
                }
                Some(r) if rows[r].1 >= view.capacity(r) => {
                    let taken = rows[r].2;
                    let gap = card.0 - rows[r].0.0;
                    rows[r] = (card, 1, deck.bullheads(card));
                    (taken, gap)
                }
                Some(r) => {
                    let gap = card.0 - rows[r].0.0;
                    rows[r] = (card, rows[r].1 + 1, rows[r].2 + deck.bullheads(card));
                    (0, gap)
                }
            };
            if card == mine {
                result = (taken, gap);
            }
        }
        result
    };
    *view
        .hand
        .iter()
        .min_by_key(|&&card| outcome(card))
        .expect("a hand to play from")
}

/// The chance of at least `k` successes in `n` trials of chance `p`.
fn at_least(n: i32, p: f64, k: i32) -> f64 {
    if k > n {
        return 0.0;
    }
    let mut total = 0.0;
    let mut choose = 1.0;
    for j in 0..=n {
        if j >= k {
            total += choose * p.powi(j) * (1.0 - p).powi(n - j);
        }
        choose = choose * f64::from(n - j) / f64::from(j + 1);
    }
    total
}

/// How a rollout's end is scored for the searching seat.
struct Scoring {
    /// Points are won (the circle game), not penalties.
    high_wins: bool,
    /// Weight of the others' mean points, in percent.
    versus: u32,
    /// The rival seat and the weight of its points, in percent.
    rival: Option<(Seat, u32)>,
}

/// How much search a stage gets.
#[derive(Clone, Copy)]
enum Budget {
    Time(Duration),
    Rollouts(u32),
    Steps(u64),
}

/// How the other seats have played this game, for a model of them in the rollouts (classic
/// and Pro rounds): of each seat's cards, how many were *unsafe* when revealed (a low card, or
/// one that lands on a full row), by the rows as they were when the seat chose. The dodger
/// plays a safe card whenever it holds one; a random player plays what its hand gives.
#[derive(Clone, Debug, Default)]
pub struct Style {
    /// By seat: cards seen played, and how many of them unsafe.
    counts: Vec<(u32, u32)>,
    /// The rows' ends this turn and whether each is full, taken at the seat's own choice
    /// (everyone chooses on the same table); empty when the turn is not one to read.
    ends: Vec<(Card, bool)>,
}

impl Style {
    /// Unsafe cards per card played: the dodger's and a random player's rates at classic
    /// 4-player tables (measured, docs/mcs.md).
    const DODGER: f64 = 0.18;
    const RANDOM: f64 = 0.38;

    /// Nothing seen yet, at a table of `seats`.
    pub fn new(seats: usize) -> Style {
        Style {
            counts: vec![(0, 0); seats],
            ends: Vec::new(),
        }
    }

    /// Notes the table before a classic or Pro card is chosen (the others choose on it too).
    pub fn before_reveal(&mut self, view: &View) {
        self.ends.clear();
        let plain = view.number.is_none() && view.circle.is_none() && view.specials.is_none();
        if plain && view.decision == Some(Decision::PlayCard) {
            let ends = view.rows.iter().enumerate().map(|(r, row)| {
                let full = row.len() >= view.capacity(r);
                (row[row.len() - 1], full)
            });
            self.ends.extend(ends);
        }
    }

    /// Reads the turn's `cards` (by seat) against the table noted, except `me`'s.
    pub fn revealed(&mut self, cards: &[Card], me: Seat) {
        if self.ends.is_empty() {
            return;
        }
        for (seat, &card) in cards.iter().enumerate().filter(|&(s, _)| s != me) {
            let target = self.ends.iter().filter(|(end, _)| *end < card).max();
            let unsafe_card = target.is_none_or(|&(_, full)| full);
            if let Some((played, risky)) = self.counts.get_mut(seat) {
                *played += 1;
                *risky += u32::from(unsafe_card);
            }
        }
        self.ends.clear();
    }

    /// The percent of `seat`'s rollout decisions to give the dodger: the chance that it plays
    /// like the dodger rather than at random, from `prior` percent and what it played.
    pub fn dodger_share(&self, seat: Seat, prior: u32) -> u32 {
        let Some(&(played, risky)) = self.counts.get(seat) else {
            return prior;
        };
        let prior = f64::from(prior.clamp(1, 99)) / 100.0;
        let (d, r) = (Style::DODGER, Style::RANDOM);
        let safe = f64::from(played - risky);
        let log_odds = (prior / (1.0 - prior)).ln()
            + f64::from(risky) * (d / r).ln()
            + safe * ((1.0 - d) / (1.0 - r)).ln();
        let share = 1.0 / (1.0 + (-log_odds).exp());
        (share * 100.0).round() as u32
    }
}

/// The built-in bots that play a rollout: `own` at the searching seat; at the others `others`,
/// or, for `mix` percent of their decisions (drawn from `others`' generator), `smart`.
pub struct Policies {
    pub own: Builtin,
    pub others: Builtin,
    pub smart: Builtin,
    pub mix: u32,
    /// By seat, the percent for `smart` instead of `mix` (empty: `mix` at every seat).
    pub mixes: Vec<u32>,
    /// The searching seat's classic cards by [`careful_card`] instead of `own`.
    pub careful: bool,
    /// Percent of the searching seat's rollout decisions made by `own` (the rest by `others`).
    pub ownmix: u32,
    /// The searching seat's classic cards by [`seer_card`], seeing the others' cards of the
    /// turn (they are chosen first).
    pub seer: bool,
    /// The others' cards of the turn, for `seer`.
    pub seen: Vec<Card>,
}

impl Policies {
    /// The policies `options` name, their generators made from `seed` (each its own key).
    pub fn new(options: &McsOptions, seed: u64) -> Policies {
        Policies {
            own: Builtin::new(options.own, seed ^ 0x6d63_735f_6f77_6e5f),
            others: Builtin::new(options.policy, seed ^ 0x6d63_735f_726f_6c6c),
            smart: Builtin::new(Strategy::Dodger, seed ^ 0x6d63_735f_736d_7274),
            mix: options.mix,
            mixes: Vec::new(),
            careful: options.careful,
            ownmix: options.ownmix,
            seer: options.seer,
            seen: Vec::new(),
        }
    }

    /// The bot for `seat`'s next decision when `me` searches.
    #[inline]
    fn at(&mut self, seat: Seat, me: Seat) -> &mut Builtin {
        let mix = self.mixes.get(seat).copied().unwrap_or(self.mix);
        if seat == me {
            if self.ownmix < 100 && self.own.rng().below(100) >= self.ownmix {
                &mut self.others
            } else {
                &mut self.own
            }
        } else if mix > 0 && self.others.rng().below(100) < mix {
            &mut self.smart
        } else {
            &mut self.others
        }
    }
}

/// Plays `game` to the end of round `round` (or of the game) with `policies`, `me` being the
/// searching seat: one rollout (public for the benchmark). Returns its steps: the decisions
/// played.
pub fn rollout<G: Game>(game: &mut G, policies: &mut Policies, me: Seat, round: u32) -> u64 {
    rollout_until(game, policies, me, round, round)
}

/// [`rollout`] to the end of round `until` (`round` or later; the next rounds dealt at random
/// from the others' generator).
fn rollout_until<G: Game>(
    game: &mut G,
    policies: &mut Policies,
    me: Seat,
    round: u32,
    until: u32,
) -> u64 {
    let mut steps = 0;
    let mut current = round;
    loop {
        match game.to_move() {
            ToMove::GameOver => return steps,
            ToMove::Deal if current < until => {
                if game
                    .deal_random(policies.others.rng(), &mut Discard)
                    .is_err()
                {
                    return steps;
                }
                current += 1;
            }
            ToMove::Deal => return steps,
            ToMove::Everyone(_) if policies.seer => {
                // The others first, so the searching seat's card can see theirs.
                policies.seen.clear();
                for seat in (0..game.seats()).filter(|&s| s != me) {
                    steps += step(game, policies, seat, me);
                }
                steps += step(game, policies, me, me);
            }
            ToMove::Everyone(_) => {
                for seat in 0..game.seats() {
                    steps += step(game, policies, seat, me);
                }
            }
            ToMove::Seat(seat, _) => {
                if game.view(seat).round != current {
                    return steps;
                }
                steps += step(game, policies, seat, me);
            }
        }
    }
}

/// `seat` decides with its policy, if it owes a decision; returns the decisions made (0 or 1).
#[inline]
fn step<G: Game>(game: &mut G, policies: &mut Policies, seat: Seat, me: Seat) -> u64 {
    let view = game.view(seat);
    if view.decision.is_none() {
        return 0;
    }
    let plain = view.decision == Some(Decision::PlayCard)
        && view.number.is_none()
        && view.circle.is_none()
        && view.specials.is_none();
    let action = if seat == me && plain && policies.careful {
        Action::Play(careful_card(&view))
    } else if seat == me && plain && policies.seer {
        Action::Play(seer_card(&view, &policies.seen))
    } else {
        policies.at(seat, me).choose(&view)
    };
    if let (true, Action::Play(card)) = (policies.seer && plain && seat != me, action) {
        policies.seen.push(card);
    }
    if game.apply(seat, action, &mut Discard).is_err() {
        let action = fallback(&game.view(seat));
        game.apply(seat, action, &mut Discard)
            .expect("the fallback move is always legal");
    }
    1
}

/// What a finished rollout is worth to `seat`, lower is better (see [`McsPlayer`]): `before`
/// are the totals when the decision was asked.
fn value<G: Game>(game: &G, seat: Seat, before: &[i32], score: &Scoring) -> f64 {
    let high_wins = score.high_wins;
    let view = game.view(seat);
    let sign = if high_wins { -1.0 } else { 1.0 };
    // Between rounds the totals are the scores; once the game is over, the outcome's (the
    // circle game has no rounds: its totals are only in the outcome).
    let outcome = game.outcome();
    let totals = outcome.as_ref().map_or(view.scores, |o| &o.totals[..]);
    let gained = |s: Seat| f64::from(totals[s] - before[s]);
    let mine = gained(seat);
    let duel = view.seats == 2;
    if !duel {
        let others = (0..view.seats).filter(|&s| s != seat).map(gained);
        let mean = others.sum::<f64>() / (view.seats - 1) as f64;
        let rival = score
            .rival
            .map_or(0.0, |(s, weight)| gained(s) * f64::from(weight) / 100.0);
        return sign * (mine - mean * f64::from(score.versus) / 100.0 - rival);
    }
    let others = (0..view.seats)
        .filter(|&s| s != seat)
        .map(|s| sign * gained(s));
    let best_other = others.fold(f64::INFINITY, f64::min);
    sign * mine - best_other
}

impl Player for McsPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn start_game(&mut self, start: &GameStart) -> Answer<()> {
        self.rng.restart(Stream::Bot {
            game: start.number,
            seat: start.seat,
        });
        self.policies.own.start_game(start)?;
        self.policies.others.start_game(start)?;
        self.variant = start.variant;
        self.memory = Memory::new(start.seat, start.seats);
        self.style = Style::new(start.seats);
        self.past = Past::default();
        Ok(())
    }

    fn wants_events(&self) -> bool {
        true
    }

    fn observe(&mut self, _seat: Seat, event: &Event) -> Answer<()> {
        self.memory.observe(event);
        if let Event::Reveal { cards, .. } = event {
            self.style.revealed(cards, self.memory.seat);
            self.past.revealed(cards);
        }
        Ok(())
    }

    fn decide(&mut self, view: &View, _: Legality, _: Duration) -> Answer<Action> {
        Ok(self.choose(view))
    }
}
