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
        error("variant: classic", "variant: pro"),
        "3:10: unknown variant `pro`, expected one of classic"
    );
    assert_eq!(
        error("  - play: [15, 50]", "  - play: [15, 50]\n    house: x.lua"),
        "11:5: unknown field `house`, expected one of play, choose, deal, expect"
    );
    assert_eq!(
        error("  - play: [15, 50]", "  - deal: randum"),
        "10:5: invalid value: string \"randum\", expected `random` or `{hands: [...], rows: [...]}`"
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
        "8:21: seat 1 holds 1 cards, seat 0 holds 2: every hand holds as many"
    );
    assert_eq!(
        error("[[15, 60], [50, 70]]", "[[15, 60]]"),
        "8:10: 1 hands given for 2 players"
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
        "10:5: a step does one thing: give only one of `play`, `choose` and `deal`"
    );
    assert_eq!(
        error("  - play: [15, 50]", "  - expect: {turn: 9}"),
        "10:5: a step needs an action: `play`, `choose` or `deal`"
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
