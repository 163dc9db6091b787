//! How a failing fixture is reported: the step, and each differing field as a diff.

use std::path::Path;
use take5::fixture::{self, report};

fn diff(steps: &str) -> String {
    let text = format!(
        "name: n
pins: p
variant: classic
players: 2
setup:
  turn: 9
  rows: [[10], [20], [30], [40]]
  hands: [[15, 60], [50, 70]]
steps:
{steps}"
    );
    let f = fixture::parse(&text, Path::new("f.yaml")).unwrap();
    let run = fixture::run(&f).unwrap();
    report::diff(run.failure.as_ref().expect("the fixture fails"))
}

#[test]
fn an_error_that_did_not_happen() {
    assert_eq!(
        diff("  - play: [15, 50]\n    expect: {error: not_in_hand}\n"),
        "  step 1 (line 10): play [15, 50]
  error (line 11): - expected, + actual
    - error not_in_hand
    + no error: the step was allowed
"
    );
}

#[test]
fn an_error_that_was_not_expected() {
    assert_eq!(
        diff("  - play: [16, 50]\n"),
        "  step 1 (line 10): play [16, 50]
  error: - expected, + actual
    - no error: the step was allowed
    + error not_in_hand: card 16 is not in seat 0's hand
"
    );
}

#[test]
fn another_error() {
    assert_eq!(
        diff("  - play: [16, 50]\n    expect:\n      error: already_chosen\n"),
        "  step 1 (line 10): play [16, 50]
  error (line 12): - expected, + actual
    - error already_chosen
    + error not_in_hand: card 16 is not in seat 0's hand
"
    );
}

#[test]
fn events_are_diffed_line_by_line() {
    let got = diff(
        "  - play: [15, 50]
    expect:
      events:
        - {event: reveal, round: 1, turn: 9, cards: [15, 50]}
        - {event: place, seat: 1, card: 50, row: 3}
      waiting: [1]
",
    );
    assert_eq!(
        got,
        "  step 1 (line 10): play [15, 50]
  events (line 13): - expected, + actual
      reveal round 1 turn 9: 15 (seat 0), 50 (seat 1)
    + seat 0 places 15 on row 0
      seat 1 places 50 on row 3
  waiting (line 15): - expected, + actual
    - seat 1
    + seats 0 1
"
    );
}

#[test]
fn the_first_failing_step_stops_the_run() {
    let text = "name: n
pins: p
variant: classic
players: 2
setup:
  turn: 9
  rows: [[10], [20], [30], [40]]
  hands: [[15, 60], [50, 70]]
steps:
  - play: [15, 50]
    expect: {turn: 11}
  - play: [60, 70]
";
    let f = fixture::parse(text, Path::new("f.yaml")).unwrap();
    let run = fixture::run(&f).unwrap();
    assert_eq!(run.steps.len(), 1);
    assert_eq!(run.failure.unwrap().step, 0);
}

#[test]
fn a_hook_that_fails_unexpectedly() {
    let text = "name: n
pins: p
variant: classic
house: tests/house/hook_error.lua
players: 2
setup:
  turn: 10
  rows: [[1, 2, 3, 4, 5], [20], [30], [40]]
  hands: [[6], [50]]
steps:
  - play: [6, 50]
";
    let f = fixture::parse(text, Path::new("f.yaml")).unwrap();
    let run = fixture::run(&f).unwrap();
    assert_eq!(
        report::diff(run.failure.as_ref().expect("the fixture fails")),
        "  step 1 (line 11): play [6, 50]
  error: - expected, + actual
    - no error: the step was allowed
    + error house_rule: house rule hook `row_taken` failed in round 1 turn 10: tests/house/hook_error.lua:4: attempt to index a nil value (field 'top')
"
    );
    // The transcript shows what happened up to the failure.
    let transcript = report::transcript(&f, &run);
    assert!(
        transcript.contains(
            "  reveal round 1 turn 10: 6 (seat 0), 50 (seat 1)\n  failed: house_rule: house rule \
             hook `row_taken` failed"
        ),
        "{transcript}"
    );
}
