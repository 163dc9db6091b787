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
//! round's end is scored: see [`McsPlayer`]. At a table of two in Pro and Take a Number, a
//! tree over the next decisions instead ([`super::tree`], `tree=`): where nothing is hidden
//! (Pro) kept from one decision to the next, else over determinizations. docs/mcs.md has the
//! figures.

use super::builtin::{Builtin, DodgerRows, Strategy, circle_safe, fallback};
use super::tree::{self, Tree};
use super::{Answer, Legality, Player};
use crate::cards::Card;
use crate::game::model::{Memory, Model};
use crate::game::{Action, Decision, Discard, Event, Game, Seat, ToMove, View};
use crate::rng::{GameRng, Stream};
use crate::rules::Rules;
use crate::seat::GameStart;
use crate::variants::common::rows::row_for;
use crate::variants::{Variant, Visitor};
use smallvec::SmallVec;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The work a decision gets by default, in steps (the decisions played in its rollouts, one
/// for each action tried, and `seats` for each determinization, the last two weighed by
/// [`copy_steps`]), by variant and table (each variant's [`SearchBudget`]): a count,
/// so games are reproducible from the seed, and bounded, so a decision with long rollouts or
/// many actions gets fewer rollouts. Chosen to keep every decision under 10 ms on one core of
/// this project's machine (docs/mcs.md): classic at three seats or more gets more work than a
/// table of two, whose steps cost more (a determinization and a copy per action weigh more
/// beside rollouts of two seats), but no more than bought strength once the others' hands
/// were read from their play (60000 and 70000 steps were no stronger, and slower). Take a
/// Number, the anniversary variant and the circle game were cut by a fifth to a quarter when
/// their slowest decisions reached 11-12 ms in a slower hour of the machine (their steps cost
/// more: Take a Number's and the anniversary's copies weigh on short rollouts, the circle
/// game's moves on long hands); Take a Number and the anniversary variant got their work back
/// once their copies were counted at their weight ([`copy_steps`]).
///
/// [`SearchBudget`]: crate::variants::registry::SearchBudget
pub fn default_steps(variant: Variant, seats: usize) -> u64 {
    let budget = &variant.describe().search;
    if seats > 2 {
        budget.steps
    } else {
        budget.steps_two_seats
    }
}

/// What a copy of the game (one for each action tried) counts in steps, and a determinization
/// `seats` times that: Take a Number's and the anniversary variant's tables (the #-rows, the
/// special cards) weigh about four rollout decisions, so a late decision, whose rollouts are
/// short and mostly copies, would otherwise take twice the time of an early one.
pub fn copy_steps(variant: Variant) -> u64 {
    variant.describe().search.copy_steps
}

/// With a learnt judgement and its first pass ([`SearchBudget::judge_keep`]): the
/// determinizations that pass judges every action in, as many as half the decision's steps
/// allow, up to this.
///
/// [`SearchBudget::judge_keep`]: crate::variants::registry::SearchBudget
pub const JUDGED_WORLDS: u32 = 8;

/// The rollouts' policy by default.
pub const DEFAULT_POLICY: Strategy = Strategy::Random;

/// The searching seat's own policy in the rollouts by default: the dodger (its own later
/// choices played well, the others' at random: 2 points a game better than random for both in
/// classic 4-player games, docs/mcs.md), unless the variant's [`SearchBudget`] says random
/// ([`default_own`]).
///
/// [`SearchBudget`]: crate::variants::registry::SearchBudget
pub const DEFAULT_OWN: Strategy = Strategy::Dodger;

/// The searching seat's own policy in the rollouts by default in `variant` at a table of
/// `seats`: random where its [`SearchBudget`] says so (Pro: nothing is hidden, so the dodger
/// there would play one plan in every rollout of an action, 25 points a game worse; the circle
/// game at two seats, 13 points; docs/mcs.md, "Third round"), else [`DEFAULT_OWN`].
///
/// [`SearchBudget`]: crate::variants::registry::SearchBudget
pub fn default_own(variant: Variant, seats: usize) -> Strategy {
    if seats <= variant.describe().search.own_random_up_to {
        Strategy::Random
    } else {
        DEFAULT_OWN
    }
}

/// The other seats' percent of dodger decisions in the rollouts by default in `variant` at a
/// table of `seats`: none where its [`SearchBudget`] says so (the circle game at two seats:
/// the plain search's rollouts; docs/mcs.md, "Third round"), else
/// [`DEFAULT_MIX`].
///
/// [`SearchBudget`]: crate::variants::registry::SearchBudget
pub fn default_mix(variant: Variant, seats: usize) -> u32 {
    if seats <= variant.describe().search.others_random_up_to {
        0
    } else {
        DEFAULT_MIX
    }
}

/// Whether a decision is searched by a tree by default in `variant` at a table of `seats` (two
/// only, where its [`SearchBudget`] says so: Pro, where nothing is hidden, docs/mcs.md,
/// "Fourth round: Pro"; Take a Number, over determinizations, "Fifth round: Take a Number and
/// classic at six seats").
///
/// [`SearchBudget`]: crate::variants::registry::SearchBudget
pub fn default_tree(variant: Variant, seats: usize) -> bool {
    seats == 2 && variant.describe().search.tree_two_seats
}

/// How much the others' mean points and the rival's count against the seat's own by default in
/// `variant` at a table of `seats`, in percent (`versus`, `rival`): the others' mean, no rival,
/// where its [`SearchBudget`] says so (classic at six seats: docs/mcs.md, "Sixth round: classic
/// at six seats"; Take a Number and the circle game from four: "Seventh round"), else none and
/// [`DEFAULT_RIVAL`].
///
/// [`SearchBudget`]: crate::variants::registry::SearchBudget
pub fn default_weights(variant: Variant, seats: usize) -> (u32, u32) {
    let from = variant.describe().search.versus_all_from;
    if from > 0 && seats >= from {
        (100, 0)
    } else {
        (0, DEFAULT_RIVAL)
    }
}

/// Percent of the other seats' rollout decisions made by the dodger by default (the rest at
/// random): a table of players of mixed strength (docs/mcs.md).
pub const DEFAULT_MIX: u32 = 50;

/// How much the points of the other seat doing best so far count against the seat's own by
/// default, in percent, at a table of three or more (docs/mcs.md).
pub const DEFAULT_RIVAL: u32 = 50;

/// Whether the other seats' rollout play follows how they played so far, by default (classic
/// and Pro; better at two and four classic seats on fresh seeds and in Pro, docs/mcs.md).
pub const DEFAULT_INFER: bool = true;

/// Percent of the other seats' rollout decisions not given to the dodger that play a safe card
/// at random instead of `policy` (docs/mcs.md, "The gauntlet"), by default, unless the
/// variant's [`SearchBudget`] says otherwise at the table ([`default_safe`]).
///
/// [`SearchBudget`]: crate::variants::registry::SearchBudget
pub const DEFAULT_SAFE: u32 = 0;

/// The safe player's percent of the other seats' rollout decisions not given to the dodger
/// by default in `variant` at a table of `seats`: its [`SearchBudget`]'s share there (classic
/// at six seats, half: docs/mcs.md, "Seventh round: classic at six seats"; the circle game at
/// two to four seats, all: "Thirteenth round"), else [`DEFAULT_SAFE`] (0).
///
/// [`SearchBudget`]: crate::variants::registry::SearchBudget
pub fn default_safe(variant: Variant, seats: usize) -> u32 {
    variant.describe().search.safe.at(seats)
}

/// Percent of the searching seat's own rollout decisions that the safe player makes instead of
/// `own`, by default, unless the variant's [`SearchBudget`] says otherwise at the table
/// ([`default_own_safe`]): none, `own` plays them all.
///
/// [`SearchBudget`]: crate::variants::registry::SearchBudget
pub const DEFAULT_OWN_SAFE: u32 = 0;

/// The safe player's percent of the searching seat's own rollout decisions by default in
/// `variant` at a table of `seats`: its [`SearchBudget`]'s share there (the circle game at two
/// to four seats, all: docs/mcs.md, "Thirteenth round"), else [`DEFAULT_OWN_SAFE`] (0).
///
/// [`SearchBudget`]: crate::variants::registry::SearchBudget
pub fn default_own_safe(variant: Variant, seats: usize) -> u32 {
    variant.describe().search.own_safe.at(seats)
}

/// With `infer`, the most a seat found not to be the dodger (a card the dodger would not have
/// played) keeps of dodger decisions in the rollouts, in percent: none, so it is played at
/// random (the model tested against the evidence falls back to the one that fits no one: a
/// strong bot plays safe cards as the dodger does, and was modelled as the dodger, which lost
/// 7 points a game at two classic seats to the plain Monte Carlo search; docs/mcs.md, "The
/// gauntlet").
pub const DEFAULT_FOUND: u32 = 0;

/// With `infer`, the percent of the dodger share a seat found out loses that goes to the
/// safe-card player instead of `policy`, by default: all of it. A seat that plays as safely as
/// the dodger but is not the dodger (a search, a careful bot) is modelled as a competent player
/// that is not the dodger, a random one as random still (its share was small); at four classic
/// seats against the plain Monte Carlo search this was 9.7 points a game better than `found=0`
/// alone (docs/mcs.md, "The gauntlet, second round").
pub const DEFAULT_RECAST: u32 = 100;

/// `builtin:mcs`'s options, from its player spec (`builtin:mcs:rollouts=2000:ms=50`), by what
/// they shape: how much a decision searches, who plays the rollouts, how the others' play is
/// read, how a rollout's end is scored, and where a tree or a prior replaces the flat search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct McsOptions {
    pub work: Work,
    pub players: RolloutPlayers,
    pub reading: Reading,
    pub weights: Weights,
    pub shape: Shape,
}

/// How much a decision searches: none given, the variant's default count of steps. More than
/// one may be given (each is written back in the spec): the search then goes by `ms`, else by
/// `steps`; `rollouts` counts only without either. A tree ([`Shape::tree`]) searches only by
/// steps: `ms` or `rollouts` given, the search is flat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// Rollouts per decision (over all its actions) instead of a count of steps.
    pub rollouts: Option<u32>,
    /// Steps per decision (see [`default_steps`]).
    pub steps: Option<u64>,
    /// A time budget per decision in milliseconds instead of a count: the games then depend on
    /// the machine's speed, so they are not reproducible from the seed.
    pub ms: Option<u32>,
}

/// The built-in bots that play the rollouts ([`Policies`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RolloutPlayers {
    /// The built-in bot that plays every seat in the rollouts.
    pub policy: Strategy,
    /// The built-in bot that plays the searching seat in the rollouts; `None`: the variant's
    /// default ([`default_own`]).
    pub own: Option<Strategy>,
    /// Percent of the other seats' rollout decisions made by the dodger instead of `policy`;
    /// `None`: the variant's default ([`default_mix`]).
    pub mix: Option<u32>,
    /// Percent of the other seats' rollout decisions not given to the dodger that the safe
    /// player makes (`safe_choice`) instead of `policy`; `None`: the variant's
    /// default ([`default_safe`]).
    pub safe: Option<u32>,
    /// Percent of the searching seat's own rollout decisions that the safe player makes
    /// instead of `own`; `None`: the variant's default ([`default_own_safe`]).
    pub own_safe: Option<u32>,
}

impl Default for RolloutPlayers {
    fn default() -> RolloutPlayers {
        RolloutPlayers {
            policy: DEFAULT_POLICY,
            own: None,
            mix: None,
            safe: None,
            own_safe: None,
        }
    }
}

/// How the other seats' rollout play follows how they played so far ([`Style`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    /// Classic and Pro: each other seat's share of dodger decisions in the rollouts follows
    /// how it has played so far this game instead of `mix` alone; in classic, a seat that has
    /// played as the dodger would is dealt only hands the dodger's choices allow.
    pub infer: bool,
    /// With `infer`: the most, in percent, of a seat's rollout decisions given to the dodger
    /// once it played a card the dodger would not have.
    pub found: u32,
    /// With `infer`: the percent of the dodger share a found-out seat loses (above `found`)
    /// given to the safe-card player instead of `policy`: a seat that plays as safely as the
    /// dodger, but otherwise, is modelled as a competent player that is not the dodger.
    pub recast: u32,
}

impl Default for Reading {
    fn default() -> Reading {
        Reading {
            infer: DEFAULT_INFER,
            found: DEFAULT_FOUND,
            recast: DEFAULT_RECAST,
        }
    }
}

/// At a table of three or more, how much the other seats' points count against the seat's
/// own, in percent, when a rollout's end is scored (see [`McsPlayer`]); `None`: the variant's
/// default at the table ([`default_weights`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Weights {
    /// The others' mean points (0: only its own points count).
    pub versus: Option<u32>,
    /// The points of the other seat doing best so far.
    pub rival: Option<u32>,
}

impl Weights {
    /// `(versus, rival)`, each the variant's default at a table of `seats` where not named.
    pub fn or_defaults(self, variant: Variant, seats: usize) -> (u32, u32) {
        let (versus, rival) = default_weights(variant, seats);
        (self.versus.unwrap_or(versus), self.rival.unwrap_or(rival))
    }
}

/// Which actions are searched, and how: `None`, the variant's default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shape {
    /// A tree over the next decisions instead of each action judged by its own rollouts
    /// ([`super::tree`]): where nothing is hidden, at a table of two, kept from one decision
    /// to the next; else over determinizations, at a table of up to four (the default:
    /// [`default_tree`]).
    pub tree: Option<bool>,
    /// The most actions of those the variant's prior weighs that are searched (the circle
    /// game: its special-card placements, [`circle_prior`](super::builtin::circle_prior));
    /// 0: every action.
    pub prior: Option<u32>,
    /// The weight, in rollouts, of the variant's learnt judgement of the table each action
    /// leaves (its mean over the determinizations judged) beside the action's rollouts; 0:
    /// none (the default: the variant's [`SearchBudget`]).
    ///
    /// [`SearchBudget`]: crate::variants::registry::SearchBudget
    pub judge: Option<u32>,
}

/// An option of `builtin:mcs` that is a whole number from 0 (`infer`: 0 or 1): its name, the
/// value a spec writes for it (none where leaving it out gives the same options), and how a
/// number given sets it.
struct Count {
    name: &'static str,
    written: fn(&McsOptions) -> Option<u32>,
    set: fn(&mut McsOptions, u32),
}

const fn count(
    name: &'static str,
    written: fn(&McsOptions) -> Option<u32>,
    set: fn(&mut McsOptions, u32),
) -> Count {
    Count { name, written, set }
}

/// `value`, unless it is the default a spec that leaves it out gets.
fn unless_default(value: u32, default: u32) -> Option<u32> {
    (value != default).then_some(value)
}

/// A percent option (`group.field`): written unless it is `default`, a number given above 100
/// taken as 100.
macro_rules! percent {
    ($group:ident . $field:ident, $default:expr) => {
        count(
            stringify!($field),
            |o| unless_default(o.$group.$field, $default),
            |o, n| o.$group.$field = n.min(100),
        )
    };
}

/// The whole-number options, in the order [`McsOptions::spec`] writes them. `versus`, `rival`,
/// `mix`, `safe` and `own_safe` are written whenever they were given: left out, they are the
/// variant's own defaults at the table.
const COUNTS: [Count; 11] = [
    count(
        "versus",
        |o| o.weights.versus,
        |o, n| o.weights.versus = Some(n),
    ),
    count(
        "rival",
        |o| o.weights.rival,
        |o, n| o.weights.rival = Some(n),
    ),
    count(
        "mix",
        |o| o.players.mix,
        |o, n| o.players.mix = Some(n.min(100)),
    ),
    count(
        "infer",
        |o| unless_default(u32::from(o.reading.infer), u32::from(DEFAULT_INFER)),
        |o, n| o.reading.infer = n > 0,
    ),
    count(
        "safe",
        |o| o.players.safe,
        |o, n| o.players.safe = Some(n.min(100)),
    ),
    count(
        "own_safe",
        |o| o.players.own_safe,
        |o, n| o.players.own_safe = Some(n.min(100)),
    ),
    percent!(reading.found, DEFAULT_FOUND),
    percent!(reading.recast, DEFAULT_RECAST),
    count(
        "tree",
        |o| o.shape.tree.map(u32::from),
        |o, n| o.shape.tree = Some(n > 0),
    ),
    count("prior", |o| o.shape.prior, |o, n| o.shape.prior = Some(n)),
    count("judge", |o| o.shape.judge, |o, n| o.shape.judge = Some(n)),
];

impl McsOptions {
    /// The options after `mcs` in a spec: empty, or `:name=value` pairs (`rollouts`, `ms`).
    pub fn parse(options: &str) -> Result<McsOptions, String> {
        let mut parsed = McsOptions::default();
        for option in options.split(':').filter(|o| !o.is_empty()) {
            let (name, value) = option
                .split_once('=')
                .ok_or_else(|| format!("mcs option `{option}`: expected name=value"))?;
            if name == "policy" || name == "own" {
                let strategy = Strategy::from_name(value)
                    .ok_or_else(|| format!("mcs option `{name}`: no built-in bot `{value}`"))?;
                match name {
                    "policy" => parsed.players.policy = strategy,
                    _ => parsed.players.own = Some(strategy),
                }
                continue;
            }
            let number = value
                .parse::<u32>()
                .ok()
                .filter(|&n| n > 0 || COUNTS.iter().any(|c| c.name == name))
                .ok_or_else(|| {
                    format!("mcs option `{name}`: `{value}` is not a whole number above 0")
                })?;
            match name {
                "rollouts" => parsed.work.rollouts = Some(number),
                "steps" => parsed.work.steps = Some(u64::from(number)),
                "ms" => parsed.work.ms = Some(number),
                _ => match COUNTS.iter().find(|c| c.name == name) {
                    Some(count) => (count.set)(&mut parsed, number),
                    None => {
                        return Err(format!(
                            "unknown mcs option `{name}` (known: rollouts, steps, ms, policy, own, versus, mix, rival, infer, safe, own_safe, found, recast, tree, prior, judge)"
                        ));
                    }
                },
            }
        }
        Ok(parsed)
    }

    /// With `infer`, `seat`'s shares of the rollout decisions, in percent, from how it has
    /// played (`style`): the dodger's, and of the rest the safe-card player's. A seat found
    /// out keeps at most `found` of the dodger share, and `recast` percent of what it loses
    /// goes to the safe-card player.
    pub fn shares(&self, style: &Style, seat: Seat) -> (u32, u32) {
        let RolloutPlayers { mix, safe, .. } = self.players;
        let safe = safe.unwrap_or(DEFAULT_SAFE);
        let share = style.dodger_share(seat, mix.unwrap_or(DEFAULT_MIX));
        if !style.found_out(seat) {
            return (share, safe);
        }
        let dodger = share.min(self.reading.found);
        let lost = (share - dodger) * self.reading.recast / 100;
        // What it loses, as a part of what is left after the dodger's share.
        let recast = lost * 100 / (100 - dodger).max(1);
        (dodger, recast.max(safe))
    }

    /// The options with what `variant` decides at a table of `seats` when not named (`own`,
    /// `mix`, `safe`, `own_safe`, `versus`, `rival`, `prior`, `judge`) filled in.
    pub fn resolved(&self, variant: Variant, seats: usize) -> McsOptions {
        let (players, shape) = (self.players, self.shape);
        let (versus, rival) = self.weights.or_defaults(variant, seats);
        McsOptions {
            weights: Weights {
                versus: Some(versus),
                rival: Some(rival),
            },
            players: RolloutPlayers {
                own: Some(players.own.unwrap_or_else(|| default_own(variant, seats))),
                mix: Some(players.mix.unwrap_or_else(|| default_mix(variant, seats))),
                safe: Some(players.safe.unwrap_or_else(|| default_safe(variant, seats))),
                own_safe: Some(
                    (players.own_safe).unwrap_or_else(|| default_own_safe(variant, seats)),
                ),
                ..players
            },
            shape: Shape {
                prior: Some(shape.prior.unwrap_or(variant.describe().search.prior)),
                judge: Some(
                    (shape.judge).unwrap_or_else(|| variant.describe().search.judge_at(seats)),
                ),
                ..shape
            },
            ..*self
        }
    }

    /// The spec's text after `builtin:` (defaults left out).
    pub fn spec(&self) -> String {
        let mut spec = String::from("mcs");
        let Work {
            rollouts,
            steps,
            ms,
        } = self.work;
        if let Some(rollouts) = rollouts {
            spec.push_str(&format!(":rollouts={rollouts}"));
        }
        if let Some(steps) = steps {
            spec.push_str(&format!(":steps={steps}"));
        }
        if let Some(ms) = ms {
            spec.push_str(&format!(":ms={ms}"));
        }
        if self.players.policy != DEFAULT_POLICY {
            spec.push_str(&format!(":policy={}", self.players.policy.name()));
        }
        for count in &COUNTS {
            if let Some(value) = (count.written)(self) {
                spec.push_str(&format!(":{}={value}", count.name));
            }
        }
        if let Some(own) = self.players.own {
            spec.push_str(&format!(":own={}", own.name()));
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
    /// The options as named in the spec.
    named: McsOptions,
    /// The options this game plays by: `named`, with the variant's defaults filled in.
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
    /// Reused buffers.
    actions: Vec<Action>,
    totals: Vec<f64>,
    /// By action, what its learnt judgement has added to `totals`.
    judged_added: Vec<f64>,
    /// What the last decision's search did.
    searched: Searched,
    /// The tree of a game where nothing is hidden, at a table of two.
    tree: Tree,
}

/// One decision's search, in the variant's own game type ([`McsPlayer::search`]).
struct Search<'a, 'v> {
    player: &'a mut McsPlayer,
    rules: &'a Arc<Rules>,
    view: &'a View<'v>,
}

impl Visitor for Search<'_, '_> {
    type Output = Option<Action>;

    #[inline]
    fn visit<G: Model>(self) -> Option<Action> {
        self.player.search::<G>(self.rules, self.view)
    }
}

/// What one decision's search did: its rollouts (each action played out once from one
/// determinization counts one) and its steps (see [`default_steps`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Searched {
    pub rollouts: u64,
    pub steps: u64,
}

impl McsPlayer {
    /// `seed` is the match seed; each game's draws come from their own stream of it.
    pub fn new(options: McsOptions, seed: u64) -> McsPlayer {
        McsPlayer {
            name: format!("builtin:{}", options.spec()),
            named: options,
            options,
            rng: GameRng::new(seed, Stream::Bot { game: 0, seat: 0 }),
            // Other keys for the rollouts, so their streams are not the determinizations'.
            policies: Policies::new(&options, seed),
            variant: Variant::default(),
            rules: None,
            memory: Memory::default(),
            style: Style::default(),
            actions: Vec::new(),
            totals: Vec::new(),
            judged_added: Vec::new(),
            searched: Searched::default(),
            tree: Tree::default(),
        }
    }

    /// What the last decision's search did (nothing, if it had one action or none).
    pub fn searched(&self) -> Searched {
        self.searched
    }

    /// The decision for `view`, searched in the current variant.
    pub fn choose(&mut self, view: &View) -> Action {
        self.searched = Searched::default();
        if self.options.reading.infer {
            self.style.before_reveal(view);
            let Policies { mixes, safes, .. } = &mut self.policies;
            mixes.clear();
            safes.clear();
            for seat in 0..view.seats {
                let (dodger, safe) = self.options.shares(&self.style, seat);
                mixes.push(dodger);
                safes.push(safe);
            }
            // A seat that has played as the dodger could have is taken to be one: its hand holds
            // none of the cards the dodger would have played instead.
            let ruled_out = &mut self.memory.ruled_out;
            ruled_out.resize_with(view.seats, Vec::new);
            for (seat, out) in ruled_out.iter_mut().enumerate() {
                out.clear();
                if seat != view.seat && self.style.dodger_like(seat) {
                    self.style.rule_out(seat, view.rules, out);
                }
            }
        }
        let rules = match &self.rules {
            Some(rules) if **rules == *view.rules => rules.clone(),
            _ => {
                let rules = Arc::new(view.rules.clone());
                self.rules = Some(rules.clone());
                rules
            }
        };
        let chosen = self.variant.visit(Search {
            player: self,
            rules: &rules,
            view,
        });
        chosen.unwrap_or_else(|| self.policies.smart.choose(view))
    }

    /// The best action by rollouts from determinizations of `G`; `None` if the view cannot be
    /// rebuilt (then the caller plays the dodger).
    fn search<G: Model>(&mut self, rules: &Arc<Rules>, view: &View) -> Option<Action> {
        let seat = view.seat;
        let before = self.rng.position();
        let mut world = G::determinize(rules, view, &self.memory, &mut self.rng).ok()?;
        // Nothing hidden was drawn: every determinization is this one.
        let one_world = self.rng.position() == before;
        self.actions.clear();
        world.legal_actions(seat, &mut self.actions);
        let keep = self.options.shape.prior.unwrap_or(0) as usize;
        if keep > 0 && view.circle.is_some() {
            super::builtin::circle_prior(view, &mut self.actions, keep);
        }
        match self.actions.len() {
            0 => return None,
            1 => return Some(self.actions[0]),
            _ => {}
        }
        let n = self.actions.len();
        self.totals.clear();
        self.totals.resize(n, 0.0);
        self.judged_added.clear();
        self.judged_added.resize(n, 0.0);
        // Sequential halving: the budget is spent in stages; after each, the worse half of the
        // actions still in play is dropped, so the close calls get most of the rollouts.
        let stages = n.next_power_of_two().trailing_zeros().max(1);
        let Work {
            rollouts,
            steps,
            ms,
        } = self.options.work;
        let budget = match (ms, rollouts, steps) {
            (Some(ms), ..) => Budget::Time(Duration::from_millis(u64::from(ms)) / stages),
            (None, Some(rollouts), None) => Budget::Rollouts(rollouts / stages),
            (None, _, steps) => {
                let steps = steps.unwrap_or_else(|| default_steps(self.variant, view.seats));
                Budget::Steps(steps / u64::from(stages))
            }
        };
        let copy_cost = copy_steps(self.variant);
        let deal_cost = view.seats as u64 * copy_cost;
        let high_wins = rules.circle.is_some();
        // The rival: the other seat doing best so far (totals and this round's points).
        let standing = |s: Seat| {
            let points = view.scores[s] + view.taken.get(s).copied().unwrap_or(0);
            if high_wins { -points } else { points }
        };
        let rival = (0..view.seats)
            .filter(|&s| s != seat)
            .min_by_key(|&s| standing(s));
        let (versus, weight) = self.options.weights.or_defaults(self.variant, view.seats);
        let scoring = Scoring {
            high_wins,
            versus,
            rival: rival.filter(|_| weight > 0).map(|s| (s, weight)),
        };
        // The tree, with a count of steps (`ms=` and `rollouts=` search flat): where nothing
        // is hidden (Pro) over the one world at a table of two, else over determinizations
        // (Take a Number; [`Tree::search_hidden`]) at a table of up to four.
        let tree_asked = (self.options.shape.tree)
            .unwrap_or_else(|| default_tree(self.variant, view.seats))
            && ms.is_none()
            && rollouts.is_none();
        if tree_asked && (view.seats == 2 || !one_world) && view.seats <= tree::MOST_MOVERS {
            let steps = steps.unwrap_or_else(|| default_steps(self.variant, view.seats));
            let playout = |g: &mut G| rollout(g, &mut self.policies, seat, view.round);
            // The other seats' ends scored by their own points (at a table of two, the value
            // is the seat's points less the other's, the other's its negative).
            let theirs = Scoring {
                rival: None,
                versus: 0,
                ..scoring
            };
            let score = |g: &G, s: Seat| {
                let scoring = if s == seat { &scoring } else { &theirs };
                value(g, s, view.scores, scoring)
            };
            let (tree, round) = (&mut self.tree, view.round);
            let out = if one_world {
                let explore = tree::EXPLORE;
                tree.search(
                    &world, seat, round, playout, steps, copy_cost, explore, score,
                )
            } else {
                let known = (rules, view, &self.memory);
                tree.search_hidden(
                    &world,
                    known,
                    &mut self.rng,
                    playout,
                    steps,
                    deal_cost,
                    score,
                )
            };
            self.searched.rollouts = out.walks;
            self.searched.steps = out.steps;
            return out.action;
        }
        let mut game = world.clone();
        let mut active: Vec<usize> = (0..n).collect();
        // The learnt judgement, where the variant has one for the table: by action, the sum
        // of its tables' judgements over the determinizations judged, and their count.
        let judge = f64::from(self.options.shape.judge.unwrap_or(0));
        let judgement_steps = (judge > 0.0)
            .then(|| world.judged(seat).map(|(_, steps)| steps))
            .flatten();
        let judging = judgement_steps.is_some();
        let mut judged = vec![(0.0f64, 0u32); if judging { n } else { 0 }];
        let mut fresh = true;
        let keep = self.variant.describe().search.judge_keep;
        let (mut stages, mut budget) = (stages, budget);
        // A first pass of judgements alone, over a few determinizations, keeps the actions
        // judged best for the rollouts, which the rest of the budget is shared among. It
        // takes at most half the budget (a small budget gets fewer determinizations, or
        // none: then every action is rolled out, the judgement counted beside them).
        let total = match budget {
            Budget::Steps(per_stage) => per_stage * u64::from(stages),
            _ => 0,
        };
        let world_steps =
            deal_cost + active.len() as u64 * (copy_cost + judgement_steps.unwrap_or(0));
        let worlds = (total / 2 / world_steps).min(u64::from(JUDGED_WORLDS));
        if judging && keep > 0 && active.len() > keep && worlds > 0 {
            let mut work = 0u64;
            for _ in 0..worlds {
                if !fresh {
                    world
                        .determinize_into(rules, view, &self.memory, &mut self.rng)
                        .ok()?;
                }
                fresh = false;
                work += deal_cost;
                for &k in &active {
                    game.clone_from(&world);
                    if game.apply(seat, self.actions[k], &mut Discard).is_err() {
                        self.totals[k] = f64::INFINITY;
                        continue;
                    }
                    work += copy_cost + note_judgement(&game, seat, &mut judged[k]);
                }
            }
            self.searched.steps += work;
            let mean = |k: usize| match judged[k] {
                _ if self.totals[k].is_infinite() => f64::INFINITY,
                (sum, count) => sum / f64::from(count.max(1)),
            };
            active.sort_by(|&a, &b| mean(a).total_cmp(&mean(b)));
            active.truncate(keep);
            let left = total.saturating_sub(work);
            stages = active.len().next_power_of_two().trailing_zeros().max(1);
            budget = Budget::Steps(left / u64::from(stages));
        }
        'stages: for stage in 0..stages {
            let start = Instant::now();
            let mut spent = 0u32;
            let mut work = 0u64;
            let steps_before = self.searched.steps;
            loop {
                if !fresh {
                    world
                        .determinize_into(rules, view, &self.memory, &mut self.rng)
                        .ok()?;
                }
                fresh = false;
                let mut certain = one_world;
                work += deal_cost;
                let p = &mut self.policies;
                let futures = (p.others.rng().clone(), p.own.rng().clone());
                let smart = p.smart.rng().position();
                for &k in &active {
                    game.clone_from(&world);
                    *self.policies.others.rng() = futures.0.clone();
                    *self.policies.own.rng() = futures.1.clone();
                    if game.apply(seat, self.actions[k], &mut Discard).is_err() {
                        self.totals[k] = f64::INFINITY;
                        continue;
                    }
                    // The first stage's tables are judged too.
                    if stage == 0 && judging {
                        work += note_judgement(&game, seat, &mut judged[k]);
                    }
                    work += copy_cost + rollout(&mut game, &mut self.policies, seat, view.round);
                    self.totals[k] += value(&game, seat, view.scores, &scoring);
                    let p = &mut self.policies;
                    certain &= p.others.rng().position() == futures.0.position()
                        && p.own.rng().position() == futures.1.position();
                }
                spent += active.len() as u32;
                self.searched.rollouts += active.len() as u64;
                self.searched.steps = steps_before + work;
                // Neither the world nor any rollout drew at random (a row chosen on the round's
                // last turn, say): every further round of rollouts would be this one again, so
                // the actions compare now, as they would at the end of the budget.
                if certain && self.policies.smart.rng().position() == smart {
                    break 'stages;
                }
                let done = match budget {
                    Budget::Time(limit) => start.elapsed() >= limit,
                    Budget::Rollouts(count) => spent >= count,
                    Budget::Steps(count) => work >= count,
                };
                if done {
                    break;
                }
            }
            // Every action still in play has the same rollouts: their totals compare, with
            // the learnt judgement counted as `judge` rollouts.
            self.add_judged(&judged, judge, &active);
            active.sort_by(|&a, &b| self.totals[a].total_cmp(&self.totals[b]));
            if stage + 1 < stages {
                active.truncate(active.len().div_ceil(2).max(1));
            }
        }
        self.add_judged(&judged, judge, &active);
        // (Already sorted, unless the search stopped early.)
        active.sort_by(|&a, &b| self.totals[a].total_cmp(&self.totals[b]));
        Some(self.actions[active[0]])
    }

    /// Counts each active action's mean learnt judgement (`judged`: sums and counts) as
    /// `judge` rollouts in its total, in place of what was counted before.
    fn add_judged(&mut self, judged: &[(f64, u32)], judge: f64, active: &[usize]) {
        if judged.is_empty() {
            return;
        }
        for &k in active {
            let (sum, count) = judged[k];
            let added = judge * sum / f64::from(count.max(1));
            self.totals[k] += added - self.judged_added[k];
            self.judged_added[k] = added;
        }
    }
}

/// Adds `game`'s learnt judgement for `seat` (lower is better) to `judged`, an action's sum
/// and count; returns its steps.
fn note_judgement<G: Model>(game: &G, seat: Seat, judged: &mut (f64, u32)) -> u64 {
    let Some((worth, steps)) = game.judged(seat) else {
        return 0;
    };
    judged.0 -= worth;
    judged.1 += 1;
    steps
}

/// How a rollout's end is scored for the searching seat.
#[derive(Clone, Copy)]
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
///
/// And whether each could be the dodger: a card played was in the seat's hand at every earlier
/// turn of the round, so a dodger preferred what it played then (by [`DodgerRows`]); a seat
/// whose play has never broken that is taken to be the dodger, and the cards it would have
/// played instead are ruled out of its hand when a classic game is rebuilt
/// ([`Memory::ruled_out`]).
#[derive(Clone, Debug, Default)]
pub struct Style {
    /// By seat: cards seen played, and how many of them unsafe.
    counts: Vec<(u32, u32)>,
    /// The table as the dodger weighs it, taken at the seat's own choice this turn (everyone
    /// chooses on the same table); `None` when the turn is not one to read.
    table: Option<DodgerRows>,
    /// The round whose turns `turns` holds.
    round: u32,
    /// This round's turns read: the table as the dodger weighed it, and the cards revealed,
    /// by seat.
    turns: Vec<(DodgerRows, Vec<Card>)>,
    /// By seat: whether its play has been one the dodger would not make, whatever its hand.
    not_dodger: Vec<bool>,
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
            not_dodger: vec![false; seats],
            ..Style::default()
        }
    }

    /// Notes the table before a classic or Pro card is chosen (the others choose on it too).
    pub fn before_reveal(&mut self, view: &View) {
        self.table = None;
        if view.round != self.round {
            self.round = view.round;
            self.turns.clear();
        }
        let plain = view.number.is_none() && view.circle.is_none() && view.specials.is_none();
        if plain && view.decision == Some(Decision::PlayCard) {
            self.table = Some(DodgerRows::new(view));
        }
    }

    /// Reads the turn's `cards` (by seat) against the table noted, except `me`'s.
    pub fn revealed(&mut self, cards: &[Card], me: Seat) {
        let Some(table) = self.table.take() else {
            return;
        };
        for (seat, &card) in cards.iter().enumerate().filter(|&(s, _)| s != me) {
            if let Some((played, risky)) = self.counts.get_mut(seat) {
                *played += 1;
                *risky += u32::from(!table.lands_safely(card));
            }
            // The card was in the seat's hand at each earlier turn of the round: the dodger
            // would have played it then if it preferred it to what it did play.
            let broken = self
                .played_earlier(seat)
                .any(|(rows, then)| !rows.prefers(then, card));
            if broken && let Some(not_dodger) = self.not_dodger.get_mut(seat) {
                *not_dodger = true;
            }
        }
        self.turns.push((table, cards.to_vec()));
    }

    /// `seat`'s cards read this round, each with the table it was chosen on.
    fn played_earlier(&self, seat: Seat) -> impl Iterator<Item = (&DodgerRows, Card)> {
        self.turns
            .iter()
            .filter_map(move |(rows, cards)| Some((rows, *cards.get(seat)?)))
    }

    /// Whether `seat` has played a card the dodger would not have, whatever its hand.
    pub fn found_out(&self, seat: Seat) -> bool {
        self.not_dodger.get(seat) == Some(&true)
    }

    /// Whether every card `seat` played this game is one the dodger could have played (some
    /// hand allows it), with at least one read this round.
    pub fn dodger_like(&self, seat: Seat) -> bool {
        self.not_dodger.get(seat) == Some(&false) && self.played_earlier(seat).next().is_some()
    }

    /// Into `out`, indexed from the deck's lowest card: each card of `rules`' deck that
    /// `seat`, were it the dodger, would have played instead of a card it played this round.
    pub fn rule_out(&self, seat: Seat, rules: &Rules, out: &mut Vec<bool>) {
        out.clear();
        out.extend(rules.deck.cards().map(|card| {
            self.played_earlier(seat)
                .any(|(rows, played)| !rows.prefers(played, card))
        }));
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

/// The built-in bots that play a rollout: `own` at the searching seat, or for `own_safe` percent
/// of its decisions (drawn from `own`'s generator) the safe player (`safe_choice`);
/// at the others `others`, or, for `mix` percent of their decisions (drawn from `others`'
/// generator), `smart`, and of the rest `safe` percent the safe player.
pub struct Policies {
    pub own: Builtin,
    pub others: Builtin,
    pub smart: Builtin,
    pub mix: u32,
    /// By seat, the percent for `smart` instead of `mix` (empty: `mix` at every seat).
    pub mixes: Vec<u32>,
    pub safe: u32,
    /// By seat, the percent for the safe-card player instead of `safe` (empty: `safe`).
    pub safes: Vec<u32>,
    /// The percent of the searching seat's decisions the safe player makes (100: all, none
    /// drawn).
    pub own_safe: u32,
}

impl Policies {
    /// The policies `options` name, their generators made from `seed` (each its own key).
    pub fn new(options: &McsOptions, seed: u64) -> Policies {
        let players = &options.players;
        Policies {
            own: Builtin::new(
                players.own.unwrap_or(DEFAULT_OWN),
                seed ^ 0x6d63_735f_6f77_6e5f,
            ),
            others: Builtin::new(players.policy, seed ^ 0x6d63_735f_726f_6c6c),
            smart: Builtin::new(Strategy::Dodger, seed ^ 0x6d63_735f_736d_7274),
            mix: players.mix.unwrap_or(DEFAULT_MIX),
            mixes: Vec::new(),
            safe: players.safe.unwrap_or(DEFAULT_SAFE),
            safes: Vec::new(),
            own_safe: players.own_safe.unwrap_or(DEFAULT_OWN_SAFE),
        }
    }

    /// `seat`'s next decision when `me` searches. (The safe share is drawn only when it is
    /// above 0, so that without it the rollouts draw as they always did.) The built-in bot
    /// that plays is picked first and asked once: its `choose` is inlined at one place only.
    #[inline]
    fn choose(&mut self, view: &View, seat: Seat, me: Seat) -> Action {
        let share = |by_seat: &[u32], all| by_seat.get(seat).copied().unwrap_or(all);
        let bot = if seat == me {
            let own_safe = match self.own_safe {
                0 => false,
                100.. => true,
                share => self.own.rng().below(100) < share,
            };
            if own_safe {
                return safe_choice(view, self.own.rng(), &mut self.smart);
            }
            &mut self.own
        } else if self.drawn(share(&self.mixes, self.mix)) {
            &mut self.smart
        } else if self.drawn(share(&self.safes, self.safe)) {
            return safe_choice(view, self.others.rng(), &mut self.smart);
        } else {
            &mut self.others
        };
        bot.choose(view)
    }

    /// Whether a share of `percent` is drawn from `others`' generator (0 draws nothing).
    #[inline]
    fn drawn(&mut self, percent: u32) -> bool {
        percent > 0 && self.others.rng().below(100) < percent
    }
}

/// The safe player, a competent player that is not the dodger: in classic and Pro rounds, a
/// card at random of those that take no row (the dodger's card when none does); in the circle
/// game, the best row worth taking, else a move at random but one that takes a row worth less
/// than nothing ([`circle_safe`]); every other decision the dodger's (`smart`). Its draws come
/// from `rng`, the generator of the seat it plays. (Not inlined: a rollout without a safe
/// share does not carry it.)
#[inline(never)]
fn safe_choice(view: &View, rng: &mut GameRng, smart: &mut Builtin) -> Action {
    if view.circle.is_some() && matches!(view.decision, Some(Decision::Place { .. })) {
        return circle_safe(view, rng);
    }
    let plain = view.number.is_none() && view.circle.is_none() && view.specials.is_none();
    if !plain || view.decision != Some(Decision::PlayCard) {
        return smart.choose(view);
    }
    // The cards that land on a row with room left (as [`DodgerRows::lands_safely`] judges
    // them, without the rows' bullheads, which it does not need: this is asked of most of a
    // rollout's decisions at a classic table of six). Classic and Pro rows are never stopped.
    let ends: SmallVec<[Card; 8]> = view.rows.iter().map(|row| row[row.len() - 1]).collect();
    let lands_safely =
        |card: Card| row_for(&ends, card).is_some_and(|r| view.capacity(r) > view.rows[r].len());
    let safe: SmallVec<[Card; 16]> = view
        .hand
        .iter()
        .copied()
        .filter(|&c| lands_safely(c))
        .collect();
    if safe.is_empty() {
        return smart.choose(view);
    }
    let pick = rng.below(safe.len() as u32) as usize;
    Action::Play(safe[pick])
}

/// Plays `game` to the end of round `round` (or of the game) with `policies`, `me` being the
/// searching seat: one rollout (public for the benchmark). Returns its steps: the decisions
/// played.
pub fn rollout<G: Game>(game: &mut G, policies: &mut Policies, me: Seat, round: u32) -> u64 {
    let mut steps = 0;
    loop {
        match game.to_move() {
            ToMove::Deal | ToMove::GameOver => return steps,
            ToMove::Everyone(_) => {
                for seat in 0..game.seats() {
                    steps += step(game, policies, seat, me);
                }
            }
            ToMove::Seat(seat, _) => {
                if game.view(seat).round != round {
                    return steps;
                }
                steps += step(game, policies, seat, me);
            }
        }
    }
}

/// `seat` decides by `policies`, if it owes a decision; returns the decisions made (0 or 1).
#[inline]
fn step<G: Game>(game: &mut G, policies: &mut Policies, seat: Seat, me: Seat) -> u64 {
    let view = game.view(seat);
    if view.decision.is_none() {
        return 0;
    }
    let action = policies.choose(&view, seat, me);
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
        self.options = self.named.resolved(start.variant, start.seats);
        self.policies
            .own
            .set_strategy(self.options.players.own.unwrap_or(DEFAULT_OWN));
        self.policies.mix = self.options.players.mix.unwrap_or(DEFAULT_MIX);
        self.policies.safe = self.options.players.safe.unwrap_or(DEFAULT_SAFE);
        self.policies.own_safe = (self.options.players.own_safe).unwrap_or(DEFAULT_OWN_SAFE);
        self.policies.own.start_game(start)?;
        self.policies.others.start_game(start)?;
        self.variant = start.variant;
        self.tree = Tree::default();
        self.memory = Memory::new(start.seat, start.seats);
        self.style = Style::new(start.seats);
        Ok(())
    }

    fn wants_events(&self) -> bool {
        true
    }

    fn observe(&mut self, _seat: Seat, event: &Event) -> Answer<()> {
        self.memory.observe(event);
        if let Event::Reveal { cards, .. } = event {
            self.style.revealed(cards, self.memory.seat);
        }
        Ok(())
    }

    fn decide(&mut self, view: &View, _: Legality, _: super::Limit) -> Answer<Action> {
        Ok(self.choose(view))
    }
}
