//! What each variant tells the rest of take5 about itself (as OpenSpiel registers a game type
//! with its factory): a [`Description`] per variant, kept in its own folder
//! (`src/variants/NAME/description.rs`) and listed once in the registry of [`super`], which
//! also gives its factory ([`Variant::new_game`](super::Variant::new_game)) and the generic dispatch
//! ([`Variant::visit`](super::Variant::visit)). Upper
//! modules (the search bot, house rules, selftest, the viewer, `play`, `verify`, the protocol)
//! read a variant's facts and parts here, through [`Variant::describe`](super::Variant::describe), and never name one.
//!
//! Everything here is plain data or a function over the lower layers' types (cards, rules,
//! game), so a variant's folder needs nothing from the modules that use it.

use crate::cards::{Card, Special};
use crate::game::house::Hook;
use crate::game::model::Model;
use crate::game::{Deal, SpecialDeal};
use crate::rules::Rules;

/// One variant, as the rest of take5 needs to know it.
#[derive(Debug)]
pub struct Description {
    /// The name on the command line, in fixtures and in records (kebab-case).
    pub name: &'static str,
    /// The variant's default rules.
    pub rules: fn() -> Rules,
    /// Whether the highest total wins (the others: the lowest, totals being penalties).
    pub highest_wins: bool,
    /// What a seat's total is ("penalty", or "points" where they are won).
    pub total: &'static str,
    /// What a row is worth in, as the viewer notes it beside a row ("bullheads", "points").
    pub row_worth: &'static str,
    /// A line the viewer writes above the rows, if the variant's rows need one (the circle's).
    pub rows_heading: Option<&'static str>,
    /// Whether the rows lie in a circle, each followed clockwise by the next and the last by
    /// the first (the viewer draws them as a ring).
    pub rows_in_a_circle: bool,
    /// Whether every seat sees every seat's special cards (a viewer of one seat hides the others'
    /// special cards otherwise).
    pub specials_public: bool,
    /// How many cards row `row` holds before the next card takes it, under `rules`.
    pub row_capacity: fn(&Rules, usize) -> usize,
    /// Whether the hands are drafted (`play --draft` and a record's `draft` order apply).
    pub drafts: bool,
    /// What a given first round (`play --deal`, a record's `deal` line) must deal beyond what any
    /// deal must (the anniversary's special cards): what is wrong with it
    /// ([`Variant::check_given_deal`](super::Variant::check_given_deal)).
    pub check_first_deal: fn(&Rules, &Deal) -> Result<(), String>,
    /// Fills in the variant's own settings of rules told by the protocol's `game` line (which
    /// does not send them): `rules` hold the table's shared settings, seats as both player limits.
    pub told_rules: fn(&mut Rules),
    pub house: HouseParts,
    pub search: SearchBudget,
    pub selftest: SelftestParts,
}

/// The base game's facts, for a variant's description to start from (`..BASE`) and give what
/// differs: its name, rules, search budget and selftest are always its own.
pub const BASE: Description = Description {
    name: "",
    rules: Rules::classic,
    highest_wins: false,
    total: "penalty",
    row_worth: "bullheads",
    rows_heading: None,
    rows_in_a_circle: false,
    specials_public: false,
    row_capacity: uniform_row_capacity,
    drafts: false,
    check_first_deal: any_first_deal,
    told_rules: nothing_told,
    house: HouseParts {
        settings: &[],
        unused: &[],
        hooks: &[],
    },
    search: SearchBudget::flat(0, 1),
    selftest: SelftestParts {
        asks: &[],
        takes: true,
        forced: no_situations,
    },
};

/// Code generic over a variant's game type, run for one variant by [`Variant::visit`](super::Variant::visit): the
/// match on the variant stays in the registry, and `visit` is compiled for each game type, so
/// a hot loop inside it calls the variant's engine directly (the search bot's rollouts).
pub trait Visitor {
    type Output;
    fn visit<G: Model>(self) -> Self::Output;
}

/// The house-rule settings and hooks that are a variant's own (docs/house-rules.md).
#[derive(Debug)]
pub struct HouseParts {
    /// Settings only this variant reads, with whose they are.
    pub settings: &'static [OwnSettings],
    /// Shared settings this variant has no use for, with why.
    pub unused: &'static [(&'static [&'static str], &'static str)],
    /// Hooks only this variant calls, with the moment each is called at.
    pub hooks: &'static [(Hook, &'static str)],
}

/// Settings only one variant reads.
#[derive(Debug)]
pub struct OwnSettings {
    pub names: &'static [&'static str],
    /// Whose they are, as an error for another variant says it ("the circle game's (its deal
    /// and scoring)").
    pub whose: &'static str,
    /// Whether they live in the variant's own part of the rules: a script for another variant
    /// is refused before it is applied (applied, they could make no sense of its rules).
    pub own_rules: bool,
}

impl OwnSettings {
    /// Settings `names`, `whose` they are, that live in the variant's own part of the rules.
    pub const fn in_own_rules(names: &'static [&'static str], whose: &'static str) -> OwnSettings {
        OwnSettings {
            names,
            whose,
            own_rules: true,
        }
    }
}

impl HouseParts {
    /// The group of this variant's own settings that holds `setting`, if any.
    pub fn setting(&self, setting: &str) -> Option<&'static OwnSettings> {
        self.settings.iter().find(|s| s.names.contains(&setting))
    }
}

/// How much work `builtin:mcs` gives a decision by default (docs/mcs.md).
#[derive(Debug)]
pub struct SearchBudget {
    /// Steps a decision gets at a table of three or more.
    pub steps: u64,
    /// Steps a decision gets at a table of two.
    pub steps_two_seats: u64,
    /// What a copy of the game counts in steps (a determinization: seats times that).
    pub copy_steps: u64,
    /// At tables of up to this many seats the searching seat's own later decisions in the
    /// rollouts are played at random by default instead of by the dodger (`own=`; 0: the
    /// dodger at every table): where nothing is hidden (Pro) the dodger there plays one fixed
    /// plan in every rollout of an action, which cost 25 points a game (docs/mcs.md).
    pub own_random_up_to: usize,
    /// At tables of up to this many seats none of the other seats' rollout decisions are the
    /// dodger's by default (`mix=0`; 0: the even mix at every table): all `policy`'s (random),
    /// or the safe player's where `safe` says so.
    pub others_random_up_to: usize,
    /// At a table of two: a tree over the next decisions instead of the flat search (`tree=`;
    /// Pro, where nothing is hidden, over the one world; Take a Number over determinizations).
    pub tree_two_seats: bool,
    /// How many of the actions the search's prior weighs it keeps by default (`prior=`; 0:
    /// every action searched). Only the circle game has a prior (its special-card placements,
    /// `circle_prior` in src/players/builtin.rs).
    pub prior: u32,
    /// At tables of at least this many seats a rollout's end is scored by default by the
    /// seat's own points less the others' mean (`versus=100`, `rival=0`) instead of less half
    /// the points of the other seat doing best so far (0: at no table).
    pub versus_all_from: usize,
    /// The percent of the other seats' rollout decisions not given to the dodger that the safe
    /// player plays by default (`safe=`) instead of `policy` (a random safe card in classic;
    /// `safe_choice` in src/players/search.rs), by table size.
    pub safe: ShareAt,
    /// The percent of the searching seat's own rollout decisions that the safe player plays by
    /// default (`own_safe=`) instead of `own`, by table size.
    pub own_safe: ShareAt,
    /// The weight, in rollouts, of the variant's learnt judgement of the table each action
    /// leaves ([`Model::judged`]: the circle game's and Take a Number's networks) beside the
    /// action's rollouts, by default (`judge=`; 0: none), at the tables `judged_at` says the
    /// variant has a judgement for (0 at the others).
    ///
    /// [`Model::judged`]: crate::game::model::Model::judged
    pub judge: u32,
    /// Whether the variant has a learnt judgement for a table of this many seats (asked of
    /// its shipped networks, so that the default and the networks cannot disagree).
    pub judged_at: fn(usize) -> bool,
    /// With a judgement: the actions a first pass of judgements alone keeps for the rollouts
    /// (0: no first pass, every action rolled out).
    pub judge_keep: usize,
}

/// A share of rollout decisions, in percent, by default at tables of `from` to `up_to` seats
/// (0 at the others).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShareAt {
    pub from: usize,
    pub up_to: usize,
    pub percent: u32,
}

impl ShareAt {
    /// None at any table.
    pub const NONE: ShareAt = ShareAt {
        from: 0,
        up_to: 0,
        percent: 0,
    };

    /// The share at a table of `seats`.
    pub fn at(self, seats: usize) -> u32 {
        match (self.from..=self.up_to).contains(&seats) {
            true => self.percent,
            false => 0,
        }
    }
}

impl SearchBudget {
    /// `steps` a decision at a table of any size, a copy of the game counting `copy_steps`.
    pub const fn flat(steps: u64, copy_steps: u64) -> SearchBudget {
        SearchBudget {
            steps,
            steps_two_seats: steps,
            copy_steps,
            own_random_up_to: 0,
            others_random_up_to: 0,
            tree_two_seats: false,
            prior: 0,
            versus_all_from: 0,
            safe: ShareAt::NONE,
            own_safe: ShareAt::NONE,
            judge: 0,
            judge_keep: 0,
            judged_at: no_judgement,
        }
    }

    /// The same, a table of two searched by a tree.
    pub const fn tree_two_seats(self) -> SearchBudget {
        SearchBudget {
            tree_two_seats: true,
            ..self
        }
    }

    /// The same, a rollout's end scored by the others' mean points (`versus=100`, `rival=0`)
    /// by default at tables of `seats` or more.
    pub const fn versus_all_from(self, seats: usize) -> SearchBudget {
        SearchBudget {
            versus_all_from: seats,
            ..self
        }
    }

    /// The same, `share` percent of the other seats' rollout decisions not given to the dodger
    /// played by the safe-card player by default at tables of `seats` or more.
    pub const fn safe_from(self, seats: usize, share: u32) -> SearchBudget {
        SearchBudget {
            safe: ShareAt {
                from: seats,
                up_to: usize::MAX,
                percent: share,
            },
            ..self
        }
    }

    /// The same, every seat's rollout decisions (the searching seat's and the others') played
    /// by the safe player by default at tables of up to `seats`: none by the dodger (`mix=0`,
    /// as `others_random_up_to`), all the others' by the safe player (`safe=100`), all the
    /// searching seat's too (`own_safe=100`).
    pub const fn all_safe_up_to(self, seats: usize) -> SearchBudget {
        let every = ShareAt {
            from: 0,
            up_to: seats,
            percent: 100,
        };
        SearchBudget {
            others_random_up_to: seats,
            safe: every,
            own_safe: every,
            ..self
        }
    }

    /// The same, the variant's learnt judgement counted as `judge` rollouts by default at the
    /// tables `at` says it has one for, a first pass of judgements keeping `keep` actions for
    /// the rollouts.
    pub const fn judged(self, judge: u32, keep: usize, at: fn(usize) -> bool) -> SearchBudget {
        SearchBudget {
            judge,
            judge_keep: keep,
            judged_at: at,
            ..self
        }
    }

    /// The judgement's weight by default at a table of `seats`.
    pub fn judge_at(&self, seats: usize) -> u32 {
        if (self.judged_at)(seats) {
            self.judge
        } else {
            0
        }
    }

    /// The same, the searching seat's own rollout decisions at random by default at tables of
    /// up to `seats`.
    pub const fn own_random_up_to(self, seats: usize) -> SearchBudget {
        SearchBudget {
            own_random_up_to: seats,
            ..self
        }
    }
}

/// A variant without a learnt judgement has none at any table.
const fn no_judgement(_seats: usize) -> bool {
    false
}

/// What `take5 selftest` asks of a bot in this variant.
#[derive(Debug)]
pub struct SelftestParts {
    /// The questions the variant asks, as the protocol names them, each with whether every bot
    /// must meet it in the situations (the others come when the bot's own choices lead there).
    pub asks: &'static [(&'static str, bool)],
    /// Whether every bot must see a take in the situations.
    pub takes: bool,
    /// The variant's scripted situations (beyond those of every variant), each a first deal
    /// for a table of two whose rules play one round.
    pub forced: fn() -> Vec<Forced>,
}

/// A scripted situation: a deal that brings the bot at seat 0 to a question whatever it answers.
#[derive(Clone, Debug)]
pub struct Forced {
    /// What it is for, as the checklist says it.
    pub name: &'static str,
    pub deal: Deal,
}

/// Row `row`'s capacity when every row has the rules' `row_capacity`.
pub fn uniform_row_capacity(rules: &Rules, _row: usize) -> usize {
    rules.row_capacity
}

/// A first round needs nothing beyond what any deal needs.
pub fn any_first_deal(_rules: &Rules, _deal: &Deal) -> Result<(), String> {
    Ok(())
}

/// No settings of the variant's own to tell.
pub fn nothing_told(_rules: &mut Rules) {}

/// No situations of the variant's own.
pub fn no_situations() -> Vec<Forced> {
    Vec::new()
}

/// The numbers `first` to `last`.
pub fn range(first: u16, last: u16) -> Vec<u16> {
    (first..=last).collect()
}

/// A deal of `hands` and `rows`, and (for special cards) the special cards `specials` by seat,
/// the rest of the anniversary's special deck face down, in the order of the kinds.
pub fn scripted_deal(
    hands: &[Vec<u16>],
    rows: &[u16],
    specials: Option<Vec<Vec<Special>>>,
) -> Deal {
    let cards = |numbers: &[u16]| numbers.iter().map(|&n| Card(n)).collect::<Vec<_>>();
    Deal {
        hands: hands.iter().map(|h| cards(h)).collect(),
        rows: cards(rows),
        specials: specials.map(|hands| {
            let mut deck = Vec::new();
            for kind in Special::ANNIVERSARY {
                let dealt = hands.iter().flatten().filter(|&&s| s == kind).count();
                deck.extend(std::iter::repeat_n(kind, Special::COPIES - dealt));
            }
            SpecialDeal {
                hands,
                deck,
                reshuffled: false,
                seed: 0,
            }
        }),
    }
}

#[cfg(test)]
mod tests {
    use crate::variants::Variant;

    #[test]
    fn each_variant_is_described_under_its_name_everywhere() {
        for &variant in Variant::ALL {
            let name = variant.name();
            let clap = clap::ValueEnum::to_possible_value(&variant).unwrap();
            assert_eq!(clap.get_name(), name);
            assert_eq!(
                serde_json::to_string(&variant).unwrap(),
                format!("\"{name}\"")
            );
            assert_eq!(Variant::from_name(name), Some(variant));
        }
        assert_eq!(Variant::from_name("chess"), None);
        assert_eq!(Variant::default(), Variant::ALL[0]);
        assert_eq!(Variant::default().name(), "classic");
    }

    #[test]
    fn a_settings_or_hooks_owner_is_one_variant() {
        for (i, &a) in Variant::ALL.iter().enumerate() {
            for &b in &Variant::ALL[i + 1..] {
                let (a, b) = (&a.describe().house, &b.describe().house);
                for own in a.settings {
                    assert!(own.names.iter().all(|&n| b.setting(n).is_none()), "{own:?}");
                }
                for (hook, _) in a.hooks {
                    assert!(b.hooks.iter().all(|(h, _)| h != hook), "{hook:?}");
                }
            }
        }
    }
}
