//! Fixtures that cannot be run are refused with the place and the reason.

use std::path::Path;
use take5::fixture;

const BASE: &str = "name: n
pins: p
variant: classic
players: 2
setup:
  turn: 9
  rows: [[10], [20], [30], [40]]
  hands: [[15, 60], [50, 70]]
steps:
  - play: [15, 50]
";

/// The error for `BASE` with `from` replaced by `to`, as `line:column: message`.
fn error(from: &str, to: &str) -> String {
    assert!(BASE.contains(from), "{from}");
    let text = BASE.replace(from, to);
    let e = fixture::parse(&text, Path::new("f.yaml")).unwrap_err();
    let at = e.at.map(|at| at.to_string()).unwrap_or_default();
    format!("{at}: {}", e.message)
}

#[test]
fn shape_errors_name_line_and_column() {
    assert_eq!(error("pins: p\n", ""), "8:1: missing field `pins`");
    assert_eq!(
        error("pins: p\n", "pins: p\npins: q\n"),
        "3:1: duplicate mapping key: pins, set DuplicateKeyPolicy in Options if acceptable"
    );
    assert_eq!(
        error("players: 2", "players: two"),
        "4:1: invalid type: string \"two\", expected a number of players or a list of their names"
    );
    assert_eq!(
        error("variant: classic", "variant: nimmt"),
        "3:10: unknown variant `nimmt`, expected one of classic, pro, take-a-number, circle, \
         anniversary"
    );
    assert_eq!(
        error("  - play: [15, 50]", "  - play: [15, 50]\n    house: x.lua"),
        "11:5: unknown field `house`, expected one of play, choose, deal, pick, keep, \
         place_special, end, special, pass, cancel, swap, expect"
    );
    assert_eq!(
        error("  - play: [15, 50]", "  - deal: randum"),
        "10:5: invalid value: string \"randum\", expected `random`, `{hands: [...], rows: [...]}` \
         or `{deck: [...]}`"
    );
}

/// A bracket left open is noticed by the YAML parser only at the next key: the error names the
/// bracket, and where the parser noticed.
#[test]
fn an_unclosed_bracket_is_blamed_not_the_line_after_it() {
    assert_eq!(
        error("[[10], [20], [30], [40]]", "[[10], [20], [30], [40]"),
        "7:9: this `[` is not closed (the YAML parser noticed at 8:8: illegal placement of ':' \
         indicator)"
    );
    // A bracket closed on a later line, more indented, is fine.
    assert!(
        fixture::parse(
            &BASE.replace("[[10], [20], [30], [40]]", "[[10], [20],\n    [30], [40]]"),
            Path::new("f.yaml")
        )
        .is_ok()
    );
}

#[test]
fn meaning_errors_name_line_and_column() {
    assert_eq!(
        error("[15, 60]", "[15, 10]"),
        "8:16: card 10 is already on the table at 7:11"
    );
    assert_eq!(
        error("[15, 60]", "[15, 0]"),
        "8:16: card 0 is not in the deck (1 to 104)"
    );
    assert_eq!(
        error("[[15, 60], [50, 70]]", "[[15, 60], [50]]"),
        "8:21: seat 1 holds 1 card, seat 0 holds 2: every hand holds as many"
    );
    assert_eq!(
        error("[[15, 60], [50, 70]]", "[[15, 60]]"),
        "8:10: 1 hand given for 2 players"
    );
    assert_eq!(
        error("[[10], [20], [30], [40]]", "[[10], [20], [30, 25], [40]]"),
        "7:22: row 2 is not in ascending order"
    );
    assert_eq!(
        error("[[10], [20], [30], [40]]", "[[10], [20], [30]]"),
        "7:9: 3 rows given, the rules have 4"
    );
    assert_eq!(error("turn: 9", "turn: 0"), "6:9: turn counts from 1");
    assert_eq!(
        error("players: 2", "players: 11"),
        "4:10: rule setting `players`: 11 players asked for, the rules allow 2 to 10"
    );
    assert_eq!(
        error("  turn: 9", "  seed: 3\n  turn: 9"),
        "6:3: a setup is either a `seed` or a table (`rows`, `hands`, ...), not both"
    );
    assert_eq!(
        error("  - play: [15, 50]", "  - deal: random"),
        "10:11: `deal: random` deals from the setup's seed, and this setup has none"
    );
    assert_eq!(
        error(
            "  - play: [15, 50]",
            "  - play: [15, 50]\n    choose: {seat: 0, row: 1}"
        ),
        "10:5: a step does one thing: give only one of `play`, `choose`, `deal`, `pick`, `keep`, \
         `place_special`, `end`, `special`, `pass`, `cancel` and `swap`"
    );
    assert_eq!(
        error("  - play: [15, 50]", "  - expect: {turn: 9}"),
        "10:5: a step needs an action: `play`, `choose`, `deal`, `pick`, `keep`, \
         `place_special`, `end`, `special`, `pass`, `cancel` or `swap`"
    );
    assert!(
        error(
            "  - play: [15, 50]",
            "  - play: [15, 51]\n    expect: {error: not_in_hnd}"
        )
        .starts_with("11:21: `not_in_hnd` is not a rule error; the kinds are: game_over,")
    );
    assert_eq!(
        error("steps:\n  - play: [15, 50]\n", "steps: []\n"),
        "9:8: a fixture needs at least one step"
    );
    assert_eq!(
        error("players: 2", "players: 2\nrules: {rows: 0}"),
        "5:8: rule setting `rows`: there must be at least 1 row"
    );
}

#[test]
fn an_unreadable_file_is_named() {
    let e = fixture::load(Path::new("no/such/fixture.yaml")).unwrap_err();
    assert_eq!(e.at, None);
    assert!(
        e.to_string()
            .starts_with("no/such/fixture.yaml: cannot read:"),
        "{e}"
    );
}

/// `BASE` with a `house` script (from the package root, the tests' working folder).
fn with_house(script: &str) -> String {
    BASE.replace(
        "variant: classic\n",
        &format!("variant: classic\nhouse: {script}\n"),
    )
}

/// The error for `text`, as `line:column: message`.
fn error_of(text: &str) -> String {
    let e = fixture::parse(text, Path::new("f.yaml")).unwrap_err();
    let at = e.at.map(|at| at.to_string()).unwrap_or_default();
    format!("{at}: {}", e.message)
}

#[test]
fn a_house_script_that_cannot_be_loaded_is_named_with_the_house_key() {
    assert_eq!(
        error_of(&with_house("tests/house/syntax_error.lua")),
        "4:1: the house script cannot be loaded: tests/house/syntax_error.lua:3: unexpected \
         symbol near '='"
    );
    assert_eq!(
        error_of(&with_house("tests/house/os_execute.lua")),
        "4:1: the house script cannot be loaded: tests/house/os_execute.lua:2: os is not \
         available in take5 house rules"
    );
    let missing = error_of(&with_house("scripts/house/none.lua"));
    assert!(
        missing.starts_with(
            "4:1: the house script cannot be loaded: cannot read scripts/house/none.lua:"
        ),
        "{missing}"
    );
    // The path is relative to the fixture file's folder.
    let f = fixture::parse(
        &with_house("seven_nimmt.lua"),
        Path::new("scripts/house/f.yaml"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(f.rules.row_capacity, 6);
}

#[test]
fn a_house_script_sets_the_rules_under_the_fixtures_own() {
    // five_rows.lua: 5 rows, at most 9 players.
    let five = with_house("scripts/house/five_rows.lua");
    assert_eq!(error_of(&five), "8:9: 4 rows given, the rules have 5");
    let fixed = five.replace("[[10], [20], [30], [40]]", "[[10], [20], [30], [40], [41]]");
    let f = fixture::parse(&fixed, Path::new("f.yaml")).unwrap();
    assert_eq!((f.rules.rows, f.rules.max_players), (5, 9));
    assert_eq!(
        f.house.as_ref().unwrap().path,
        "scripts/house/five_rows.lua"
    );
    assert_eq!(
        error_of(&fixed.replace("players: 2", "players: 10")),
        "5:10: rule setting `players`: 10 players asked for, the rules allow 2 to 9 (with the \
         house rules of scripts/house/five_rows.lua)"
    );
    let four = fixed.replace("players: 2", "players: 2\nrules: {rows: 4}");
    let four = four.replace("[[10], [20], [30], [40], [41]]", "[[10], [20], [30], [40]]");
    let f = fixture::parse(&four, Path::new("f.yaml")).unwrap();
    assert_eq!((f.rules.rows, f.rules.max_players), (4, 9));
    // The hooks of cheapest_row.lua see the script's bullheads: the fixture cannot change them.
    let deck = with_house("scripts/house/cheapest_row.lua").replace(
        "players: 2",
        "players: 2\nrules: {deck: {lowest: 1, bullheads: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, \
         1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, \
         1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, \
         1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, \
         1, 1, 1, 1, 1]}}",
    );
    assert_eq!(
        error_of(&deck),
        "6:8: `deck` cannot be changed here: the hooks of scripts/house/cheapest_row.lua see the \
         script's bullheads (give `deck` and `bullheads` in the script)"
    );
}

#[test]
fn house_rule_errors_need_a_house_and_end_the_fixture() {
    let expect = "  - play: [15, 50]\n    expect: {error: house_rule}";
    assert_eq!(
        error("  - play: [15, 50]", expect),
        "11:21: `house_rule` is the error of a failing house rule hook, and this fixture names \
         no `house` script"
    );
    let housed = with_house("tests/house/hook_error.lua");
    assert_eq!(
        error_of(&housed.replace(
            "  - play: [15, 50]",
            &format!("{expect}\n  - play: [60, 70]")
        )),
        "13:5: no step can follow one that expects `house_rule`: the game stops when a house \
         rule fails"
    );
    assert_eq!(
        error_of(&housed.replace(
            "  - play: [15, 50]",
            "  - play: [15, 50]\n    expect: {turn: 10, error: house_rule}"
        )),
        "12:20: a step that expects `house_rule` expects nothing else: the game stops half-way \
         through the step"
    );
}

const CIRCLE: &str = "name: n
pins: p
variant: circle
players: 2
setup:
  rows: [[10], [20], [30]]
  hands: [[15], [50]]
steps:
  - play: {seat: 0, card: 15}
";

/// The error for `CIRCLE` with `from` replaced by `to`.
fn circle_error(from: &str, to: &str) -> String {
    assert!(CIRCLE.contains(from), "{from}");
    error_of(&CIRCLE.replace(from, to))
}

#[test]
fn circle_setups_are_checked() {
    assert_eq!(
        circle_error("[[10], [20], [30]]", "[[10], [30], [20]]"),
        "6:3: the engine refuses this setup: bad deal: the rows' final numbers, read clockwise, \
         must ascend around the circle (as the dealt circle does)"
    );
    assert_eq!(
        circle_error("[[10], [20], [30]]", "[[10, 11, 12, 13, 14], [20], [30]]"),
        "6:3: the engine refuses this setup: bad deal: row 0 holds 5 number cards; a row holds 1 \
         to 4"
    );
    assert_eq!(
        circle_error("  hands:", "  specials: [[x2], [x2, x2], []]\n  hands:"),
        "6:3: the engine refuses this setup: bad deal: row 1 holds two x2 cards"
    );
    assert_eq!(
        circle_error("  hands:", "  specials: [[x2]]\n  hands:"),
        "7:13: special cards given for 1 row, the setup has 3"
    );
    assert_eq!(
        circle_error("  hands:", "  turn: 3\n  hands:"),
        "7:9: a circle setup has `rows`, `hands`, `specials`, `held` and `first` only"
    );
    assert_eq!(
        circle_error("[[15], [50]]", "[[15], [20]]"),
        "7:18: card 20 is already on the table at 6:17"
    );
    assert_eq!(
        error("  turn: 9", "  turn: 9\n  held: [[x2], []]"),
        "7:9: `held` and `first` set up the circle game only"
    );
}

const NUMBER: &str = "name: n
pins: p
variant: take-a-number
players: 2
setup:
  turn: 4
  rows: [[10, 11], [20], [30]]
  hands: [[15, 60], [50]]
  hash_rows: [[1, 2], [3]]
  hash_piles: [[4], []]
steps:
  - play: [15, 50]
";

/// The error for `NUMBER` with `from` replaced by `to`.
fn number_error(from: &str, to: &str) -> String {
    assert!(NUMBER.contains(from), "{from}");
    error_of(&NUMBER.replace(from, to))
}

#[test]
fn take_a_number_setups_are_checked() {
    // Hands of different sizes, and most of the deck in no place, are fine.
    let f = fixture::parse(NUMBER, Path::new("f.yaml")).unwrap();
    assert!(fixture::run(&f).unwrap().failure.is_none());
    assert_eq!(
        number_error("[[1, 2], [3]]", "[[1, 2], [15]]"),
        "9:24: card 15 is already on the table at 8:12"
    );
    assert_eq!(
        number_error("[[4], []]", "[[4], [20]]"),
        "10:22: card 20 is already on the table at 7:21"
    );
    assert_eq!(
        number_error("[[1, 2], [3]]", "[[1, 2]]"),
        "9:14: 1 #-row given for 2 players"
    );
    assert_eq!(
        number_error("[[4], []]", "[[4], [], []]"),
        "10:15: 3 #-piles given for 2 players"
    );
    assert_eq!(
        number_error("[[1, 2], [3]]", "[[1, 2], []]"),
        "9:23: seat 1's #-row is empty: it holds a card from the deal on"
    );
    assert_eq!(
        number_error("[[1, 2], [3]]", "[[2, 1], [3]]"),
        "9:15: seat 0's #-row is not in ascending order (a lower card starts a new #-row)"
    );
    assert_eq!(
        number_error("  hash_rows: [[1, 2], [3]]\n", ""),
        "6:3: a take-a-number setup needs `hash_rows`, every seat's #-row"
    );
    // Each centre row holds as many cards as its row card says, less one.
    assert_eq!(
        number_error("[[10, 11], [20], [30]]", "[[10, 11, 12], [20], [30]]"),
        "7:10: row 0 holds 3 cards; it holds 1 to 2"
    );
    assert_eq!(
        number_error("[[15, 60], [50]]", "[[15, 60], []]"),
        "8:21: seat 1's hand is empty"
    );
    assert_eq!(
        number_error("  hash_piles:", "  piles: [[5], []]\n  hash_piles:"),
        "10:10: a take-a-number setup has no `piles`: taken cards go to the #-row and the hand; \
         give each seat's #-pile as `hash_piles`"
    );
    assert_eq!(
        number_error("  turn: 4", "  turn: 4\n  first: 1"),
        "7:10: `held` and `first` set up the circle game only"
    );
    assert_eq!(
        number_error("  turn: 4", "  seed: 3"),
        "6:3: a setup is either a `seed` or a table (`rows`, `hands`, ...), not both"
    );
    assert_eq!(
        number_error("players: 2", "players: 2\nrules: {row_capacity: 2}"),
        "7:3: the engine refuses this setup: rule setting `row_capacity`: Take a Number's rows \
         hold row_capacity - (rows - 1 - row) cards, so row_capacity must be at least rows (3)"
    );
    // The #-rows and #-piles are Take a Number's.
    assert_eq!(
        error("  turn: 9", "  turn: 9\n  hash_piles: [[], []]"),
        "7:15: `hash_rows` and `hash_piles` set up Take a Number only"
    );
}

const ANNIVERSARY: &str = "name: n
pins: p
variant: anniversary
players: 2
setup:
  turn: 11
  rows: [[10], [20], [30, 31, 32, 33, 34, 35], [40]]
  hands: [[15, 60], [50, 70]]
  specials: [[stop], []]
  special_deck: [insert]
  discard: [shift]
  stops: [1]
  sevens: [2]
steps:
  - play: [15, 50]
";

/// The error for `ANNIVERSARY` with `from` replaced by `to`.
fn anniversary_error(from: &str, to: &str) -> String {
    assert!(ANNIVERSARY.contains(from), "{from}");
    error_of(&ANNIVERSARY.replace(from, to))
}

#[test]
fn anniversary_setups_are_checked() {
    let f = fixture::parse(ANNIVERSARY, Path::new("f.yaml")).unwrap();
    assert!(fixture::run(&f).unwrap().failure.is_none());
    assert_eq!(
        anniversary_error(
            "[[10], [20], [30, 31, 32, 33, 34, 35], [40]]",
            "[[10], [20]]"
        ),
        "7:9: 2 rows given, the rules have 4 (5 with a 5th Row card)"
    );
    assert_eq!(
        anniversary_error("  sevens: [2]", "  sevens: [4]"),
        "13:12: a 7 nimmt! card on row 4, and the rows are 0 to 3"
    );
    // Without its 7 nimmt! card, row 2 holds one card too many.
    assert_eq!(
        anniversary_error("  sevens: [2]", "  sevens: [3]"),
        "7:22: row 2 holds 6 cards; it holds 1 to 5"
    );
    assert_eq!(
        anniversary_error("  stops: [1]", "  stops: [1, 1]"),
        "12:14: two Stop cards on row 1"
    );
    assert_eq!(
        anniversary_error("  stops: [1]", "  stops: [0, 1, 3]"),
        "12:10: 3 rows blocked by Stop cards: at most 2 are at once"
    );
    assert_eq!(
        anniversary_error("[[stop], []]", "[[stop], [x2]]"),
        "9:22: x2 is not one of the anniversary variant's special cards"
    );
    assert_eq!(
        anniversary_error("[insert]", "[insert, plus5]"),
        "10:17: plus5 is not one of the anniversary variant's special cards"
    );
    assert_eq!(
        anniversary_error("[[stop], []]", "[[stop]]"),
        "9:13: special cards given for 1 seat, there are 2"
    );
    // A Stop in hand, on row 1 and three in the discard pile: one too many.
    assert_eq!(
        anniversary_error("[shift]", "[shift, stop, stop, stop]"),
        "6:3: the engine refuses this setup: bad deal: 5 stop cards among the hands, the deck, \
         the discard pile and the table; there are 4"
    );
    assert_eq!(
        anniversary_error("[[15, 60], [50, 70]]", "[[15, 60], [50, 10]]"),
        "8:26: card 10 is already on the table at 7:11"
    );
    // Other variants' keys are refused.
    assert_eq!(
        anniversary_error("  turn: 11", "  turn: 11\n  hash_rows: [[1], [2]]"),
        "7:14: `hash_rows` and `hash_piles` set up Take a Number only"
    );
    assert_eq!(
        anniversary_error("  turn: 11", "  turn: 11\n  held: [[], []]"),
        "7:9: `held` and `first` set up the circle game only"
    );
    assert_eq!(
        anniversary_error("  turn: 11", "  seed: 3"),
        "6:3: a setup is either a `seed` or a table (`rows`, `hands`, ...), not both"
    );
    // The anniversary's keys are refused in other variants.
    assert_eq!(
        error("  turn: 9", "  turn: 9\n  stops: [1]"),
        "7:10: `special_deck`, `discard`, `stops`, `sevens` and `reshuffle_seed` set up the \
         anniversary variant only"
    );
    assert_eq!(
        error("  turn: 9", "  turn: 9\n  specials: [[stop], []]"),
        "7:13: `specials` sets up the circle game (by row) and the anniversary variant (by seat) \
         only"
    );
    assert_eq!(
        number_error("  turn: 4", "  turn: 4\n  reshuffle_seed: 5"),
        "7:19: `special_deck`, `discard`, `stops`, `sevens` and `reshuffle_seed` set up the \
         anniversary variant only"
    );
}

/// The number of players is checked before anything is made for them: a huge count is an
/// error at once, not an allocation of gigabytes (or an abort).
#[test]
fn a_huge_player_count_is_refused_before_anything_is_allocated() {
    for count in ["100000000", "18446744073709551615"] {
        let message = error("players: 2", &format!("players: {count}"));
        assert!(message.starts_with("4:10: "), "{message}");
        assert!(message.contains(&format!("{count} players")), "{message}");
    }
}

/// A setup gives a table the rules can reach: no totals before round 1, and none at or above
/// the target score (the game would have ended with the round that reached it).
#[test]
fn a_setup_the_rules_cannot_reach_is_refused() {
    assert_eq!(
        error("  turn: 9\n", "  turn: 9\n  scores: [0, 3]\n"),
        "7:11: seat 1 has a total of 3 before round 1: the scores are the totals of the rounds \
         before, and there are none"
    );
    assert_eq!(
        error("  turn: 9\n", "  round: 4\n  turn: 9\n  scores: [70, 3]\n"),
        "8:11: seat 0 has a total of 70 before round 4: the game ends at 66, so it would have \
         ended with the round that reached it"
    );
    // Below the target, in a later round, is a table the rules reach.
    let text = BASE.replace("  turn: 9\n", "  round: 4\n  turn: 9\n  scores: [65, 3]\n");
    assert!(fixture::parse(&text, Path::new("f.yaml")).is_ok());
}

/// A deal given as a deck must hold enough cards for the hands and rows, and is either a deck
/// or hands and rows.
#[test]
fn a_deck_order_deal_is_checked() {
    let base =
        "name: n\npins: p\nvariant: classic\nplayers: 2\nrules: {hand_size: 2}\nsteps:\n  - deal: ";
    let error = |deal: &str| {
        let e = fixture::parse(&format!("{base}{deal}\n"), Path::new("f.yaml")).unwrap_err();
        format!("{}: {}", e.at.unwrap(), e.message)
    };
    assert_eq!(
        error("{deck: [1, 2, 3, 4, 5, 6, 7]}"),
        "7:11: a deck of 7 cards deals 2 hands of 2 and 4 rows: it needs 8"
    );
    assert_eq!(
        error("{deck: [1, 2, 3, 4, 5, 6, 7, 8], rows: [5, 6, 7, 8]}"),
        "7:11: a deal gives `hands` and `rows`, or a `deck` (the cards in the order dealt), not both"
    );
}
