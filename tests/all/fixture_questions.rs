//! The "where does this card go?" form of a fixture (docs/fixtures.md): its table is filled in
//! to one the rules can hold, its answer is read off the engine's step, and a question the
//! table cannot answer as written is refused where it is written.

use std::path::Path;
use take5::cards::Card;
use take5::fixture::{self, Fact, Goes, StepAction, report};

/// Cards from their numbers.
fn cards(numbers: &[u16]) -> Vec<Card> {
    numbers.iter().copied().map(Card).collect()
}

/// A question fixture of `variant` with `rest` (its setup and question) after the header.
fn text(variant: &str, rest: &str) -> String {
    format!("name: q\npins: p\nvariant: {variant}\n{rest}")
}

/// A question fixture of `variant` with `rest`, loaded.
fn parse(variant: &str, rest: &str) -> fixture::Fixture {
    fixture::parse(&text(variant, rest), Path::new("q.yaml")).unwrap_or_else(|e| panic!("{e}"))
}

/// The error for a fixture, as `line:column: message`.
fn error(text: &str) -> String {
    let e = fixture::parse(text, Path::new("q.yaml")).unwrap_err();
    let at = e.at.map(|at| at.to_string()).unwrap_or_default();
    format!("{at}: {}", e.message)
}

/// What the question's step answers, and its report when it fails.
fn answer(text: &str) -> (Goes, Option<String>) {
    let f = fixture::parse(text, Path::new("q.yaml")).unwrap_or_else(|e| panic!("{e}"));
    let run = fixture::run(&f).unwrap();
    let goes = run.steps[0]
        .goes
        .clone()
        .expect("a question's step has an answer");
    (goes, run.failure.as_ref().map(report::diff))
}

#[test]
fn the_other_seats_are_filled_in_with_the_highest_free_cards_above_the_card() {
    let f = parse(
        "classic",
        "players: 3\nsetup:\n  rows: [[10], [20], [30], [104]]\nquestion: {card: 25, seat: 1, \
         goes: {row: 1, at: 1}}\n",
    );
    assert_eq!(f.players.len(), 3);
    assert_eq!(
        f.steps[0].action,
        StepAction::Question {
            seat: 1,
            card: Card(25),
            others: vec![(0, Card(103)), (2, Card(102))],
        }
    );
    let fixture::Start::Table(table) = &f.start else {
        panic!("a classic table: {:?}", f.start)
    };
    assert_eq!(table.hands, [cards(&[103]), cards(&[25]), cards(&[102])]);
    // One card each: the round's last turn.
    assert_eq!((table.round, table.turn), (1, 10));
    assert!(fixture::run(&f).unwrap().passed());
}

#[test]
fn without_players_a_question_has_the_rules_fewest() {
    let f = parse(
        "take-a-number",
        "setup:\n  rows: [[10], [30], [50]]\nquestion: {card: 55, goes: {row: 2, at: 1}}\n",
    );
    assert_eq!(f.players, ["seat 0", "seat 1"]);
    let fixture::Start::Number(table) = &f.start else {
        panic!("a take-a-number table: {:?}", f.start)
    };
    // The #-rows get the lowest free cards.
    assert_eq!(table.hash_rows, [cards(&[1]), cards(&[2])]);
    assert_eq!(table.table.hands, [cards(&[55]), cards(&[100])]);
}

#[test]
fn a_wrong_answer_is_a_goes_mismatch_with_the_engines_answer() {
    let rows = "setup:\n  rows: [[1, 2, 3, 4, 5], [20], [30], [40]]\n";
    let (goes, diff) = answer(&text(
        "classic",
        &format!("{rows}question: {{card: 6, goes: {{row: 0, at: 5}}}}\n"),
    ));
    assert_eq!(
        goes,
        Goes::Row {
            row: 0,
            at: Some(0),
            takes: cards(&[1, 2, 3, 4, 5]),
        }
    );
    assert_eq!(
        diff.unwrap(),
        "  step 1 (line 6): where does seat 0's 6 go? (the others play after it: seat 1 104)
  goes (line 6): - expected, + actual
    - row 0 at 5
    + row 0 at 0, taking 1 2 3 4 5
"
    );
    // The place may be left out; the take may not.
    let (_, diff) = answer(&text(
        "classic",
        &format!("{rows}question: {{card: 6, goes: {{row: 0, takes: [1, 2, 3, 4, 5]}}}}\n"),
    ));
    assert_eq!(diff, None);
    let (_, diff) = answer(&text(
        "classic",
        &format!("{rows}question: {{card: 6, goes: {{row: 0}}}}\n"),
    ));
    assert!(
        diff.unwrap()
            .ends_with("    - row 0\n    + row 0 at 0, taking 1 2 3 4 5\n")
    );
}

#[test]
fn a_low_card_waits_for_its_players_row_choice() {
    let (goes, diff) = answer(&text(
        "anniversary",
        "setup:\n  rows: [[10], [20], [30], [40]]\n  specials: [[negative_positive], []]\n\
         question: {card: 3, goes: low}\n",
    ));
    assert_eq!((goes, diff), (Goes::Low, None));
}

#[test]
fn the_expectation_is_the_questions_only_one() {
    let f = parse(
        "circle",
        "setup:\n  rows: [[10], [20]]\nquestion: {card: 15, goes: {row: 0, at: 1}}\n",
    );
    assert_eq!(f.steps.len(), 1);
    let expect: Vec<&Fact> = f.steps[0].expect.iter().map(|e| &e.fact).collect();
    assert_eq!(
        expect,
        [&Fact::Goes(Goes::Row {
            row: 0,
            at: Some(1),
            takes: Vec::new()
        })]
    );
    // In the circle game the other seats play nothing.
    assert_eq!(
        f.steps[0].action,
        StepAction::Question {
            seat: 0,
            card: Card(15),
            others: Vec::new()
        }
    );
}

#[test]
fn a_question_the_table_cannot_answer_as_written_is_refused_where_it_is_written() {
    let rows = "setup:\n  rows: [[10], [20], [30], [40]]\n";
    let cases = [
        (
            "classic",
            format!("{rows}question: {{card: 104, goes: {{row: 3}}}}\n"),
            "6:18: the other seat plays a card above 104 (placed after it), and none is free: \
             give every seat's hand in the setup's `hands`",
        ),
        (
            "classic",
            format!("players: 4\n{rows}question: {{card: 102, goes: {{row: 3}}}}\n"),
            "7:18: the other 3 seats play a card above 102 (placed after it), and 2 are free: \
             give every seat's hand in the setup's `hands`",
        ),
        (
            "classic",
            format!(
                "{rows}  hands: [[25, 60], [15, 18]]\nquestion: {{card: 25, goes: {{row: 1}}}}\n"
            ),
            "6:21: seat 1's highest card, 18, is below 25: it would be placed first, and the \
             question is asked of the table as it stands (give seat 1 a card above 25)",
        ),
        (
            "classic",
            format!(
                "{rows}  hands: [[26, 60], [35, 70]]\nquestion: {{card: 25, goes: {{row: 1}}}}\n"
            ),
            "7:18: card 25 is not in seat 0's hand (the setup's `hands`)",
        ),
        (
            "classic",
            format!("{rows}question: {{card: 20, goes: {{row: 1}}}}\n"),
            "6:18: card 20 is already on the table at 5:17",
        ),
        (
            "classic",
            format!("{rows}question: {{card: 25, seat: 2, goes: {{row: 1}}}}\n"),
            "6:28: seat 2: the table has seats 0 to 1",
        ),
        (
            "classic",
            format!("{rows}question: {{card: 25, goes: {{row: 4}}}}\n"),
            "6:28: row 4: the setup has rows 0 to 3",
        ),
        (
            "pro",
            format!("{rows}question: {{card: 25, goes: {{row: 1}}}}\n"),
            "6:18: card 25 is not in the deck (1 to 24)",
        ),
        (
            "circle",
            format!("{rows}question: {{card: 25, goes: low}}\n"),
            "6:28: in the circle game every card has a row (the circle wraps around): `goes` \
             is a row",
        ),
        (
            "circle",
            format!("{rows}  first: 1\nquestion: {{card: 25, goes: {{row: 1}}}}\n"),
            "6:10: in a question the seat whose turn it is is the question's `seat`: leave \
             `first` out",
        ),
        (
            "classic",
            "setup: {seed: 3}\nquestion: {card: 25, goes: low}\n".to_string(),
            "4:8: a question is asked at a table (`rows`, and `hands` if you like), not at a \
             seeded deal",
        ),
        (
            "classic",
            "question: {card: 25, goes: low}\n".to_string(),
            "4:11: a question is asked at a table: give the `setup`'s `rows` (and `hands` if you \
             like: they are filled in when left out)",
        ),
        (
            "classic",
            format!("{rows}question: {{card: 25, goes: {{row: 1, place: 2}}}}\n"),
            "6:37: unknown field `place`, expected one of row, at, takes",
        ),
        (
            "classic",
            format!(
                "players: 2\n{rows}question: {{card: 25, goes: low}}\nsteps:\n  - play: [1, 2]\n"
            ),
            "7:11: a fixture has `steps` or a `question`, not both",
        ),
        (
            "classic",
            format!("{rows}steps:\n  - play: [1, 2]\n"),
            "7:3: missing field `players`: a fixture with `steps` names its players \
             (`players: 2`)",
        ),
        (
            "pro",
            format!("players: 2\n{rows}  hands: [[1], [2]]\nsteps:\n  - play: [1, 2]\n"),
            "6:3: a pro game starts with its draft: a pro fixture has no `setup` table (a \
             `question` may have one)",
        ),
    ];
    for (variant, rest, expected) in cases {
        assert_eq!(error(&text(variant, &rest)), expected, "{rest}");
    }
}
