//! The games stay the same: a corpus of records (both formats) across every variant, player
//! counts over each variant's range, the built-in bots (the search bot too), a pipe bot and
//! house scripts, each replayed from its seed and compared byte for byte with the record kept
//! under tests/corpus/. A refactor must leave every one unchanged; a change to the rules or to a
//! built-in bot's play that is meant rewrites them with `TAKE5_CORPUS_WRITE=1 cargo test --test
//! all corpus` and shows in review as a diff of the records (tests/corpus/README.md).

use std::path::{Path, PathBuf};
use std::process::Command;

const R: &str = "builtin:random";
const D: &str = "builtin:dodger";
const L: &str = "builtin:lowest";
const H: &str = "builtin:highest";
/// The search bot with a small budget (a count of steps, so its games are reproducible), to
/// keep the test quick in a debug build.
const M: &str = "builtin:mcs:steps=1500";
/// The search bot with enough steps for a learnt judgement (the circle game's, Take a
/// Number's at four seats) to narrow the actions before the rollouts.
const MJ: &str = "builtin:mcs:steps=8000";
const PY: &str = "python3 sdk/python/example_bot.py";

/// One game setting: a name (the record's file name) and the arguments of `take5 play` after
/// the players.
struct Case {
    name: &'static str,
    players: &'static [&'static str],
    args: &'static [&'static str],
}

const fn case(
    name: &'static str,
    players: &'static [&'static str],
    args: &'static [&'static str],
) -> Case {
    Case {
        name,
        players,
        args,
    }
}

const CASES: &[Case] = &[
    case("classic-2", &[R, D], &["--seed", "1", "--games", "2"]),
    case("classic-4", &[R, D, L, H], &["--seed", "2", "--games", "2"]),
    case(
        "classic-10",
        &[R, D, L, H, R, D, L, H, R, D],
        &["--seed", "3"],
    ),
    case("classic-mcs-3", &[M, D, R], &["--seed", "4"]),
    case("classic-pipe-3", &[PY, D, R], &["--seed", "5"]),
    case(
        "classic-house-shoot-the-moon",
        &[R, D, L],
        &["--seed", "6", "--house", "scripts/house/shoot_the_moon.lua"],
    ),
    case(
        "classic-house-five-rows",
        &[R, D, L, H, R],
        &["--seed", "7", "--house", "scripts/house/five_rows.lua"],
    ),
    case(
        "classic-house-seven-nimmt",
        &[D, R],
        &["--seed", "8", "--house", "scripts/house/seven_nimmt.lua"],
    ),
    case(
        "classic-house-cheapest-row",
        &[D, R, D],
        &["--seed", "9", "--house", "scripts/house/cheapest_row.lua"],
    ),
    case(
        "pro-2",
        &[R, D],
        &["--variant", "pro", "--seed", "10", "--games", "2"],
    ),
    case(
        "pro-4",
        &[R, D, L, H],
        &["--variant", "pro", "--seed", "11"],
    ),
    case(
        "pro-6-snake",
        &[R, D, L, H, R, D],
        &["--variant", "pro", "--seed", "12", "--draft", "snake"],
    ),
    case(
        "pro-mcs-3",
        &[M, D, R],
        &["--variant", "pro", "--seed", "13"],
    ),
    case(
        "pro-house-short-game",
        &[R, D, L],
        &[
            "--variant",
            "pro",
            "--seed",
            "14",
            "--house",
            "scripts/house/pro/short_game.lua",
        ],
    ),
    case(
        "take-a-number-2",
        &[R, D],
        &["--variant", "take-a-number", "--seed", "15", "--games", "2"],
    ),
    case(
        "take-a-number-4",
        &[R, D, L, H],
        &["--variant", "take-a-number", "--seed", "16"],
    ),
    case(
        "take-a-number-mcs-3",
        &[M, D, R],
        &["--variant", "take-a-number", "--seed", "17"],
    ),
    case(
        "take-a-number-mcs-4",
        &[MJ, D, R, MJ],
        &["--variant", "take-a-number", "--seed", "34"],
    ),
    case(
        "take-a-number-pipe-2",
        &[PY, D],
        &["--variant", "take-a-number", "--seed", "18"],
    ),
    case(
        "take-a-number-house-single-pile",
        &[R, D, L],
        &[
            "--variant",
            "take-a-number",
            "--seed",
            "19",
            "--house",
            "scripts/house/take-a-number/single_pile.lua",
        ],
    ),
    case(
        "circle-2",
        &[R, D],
        &["--variant", "circle", "--seed", "20", "--games", "2"],
    ),
    case(
        "circle-4",
        &[R, D, L, H],
        &["--variant", "circle", "--seed", "21"],
    ),
    case(
        "circle-6",
        &[R, D, L, H, R, D],
        &["--variant", "circle", "--seed", "22"],
    ),
    case(
        "circle-mcs-3",
        &[M, D, R],
        &["--variant", "circle", "--seed", "23"],
    ),
    case(
        "circle-mcs-2",
        &[MJ, R],
        &["--variant", "circle", "--seed", "32"],
    ),
    case(
        "circle-mcs-4",
        &[MJ, D, R, MJ],
        &["--variant", "circle", "--seed", "33"],
    ),
    case(
        "circle-pipe-2",
        &[PY, R],
        &["--variant", "circle", "--seed", "24"],
    ),
    case(
        "circle-house-red-double",
        &[R, D, L],
        &[
            "--variant",
            "circle",
            "--seed",
            "25",
            "--house",
            "scripts/house/circle/red_double.lua",
        ],
    ),
    case(
        "anniversary-2",
        &[R, D],
        &["--variant", "anniversary", "--seed", "26", "--games", "2"],
    ),
    case(
        "anniversary-5",
        &[R, D, L, H, R],
        &["--variant", "anniversary", "--seed", "27"],
    ),
    case(
        "anniversary-8",
        &[R, D, L, H, R, D, L, H],
        &["--variant", "anniversary", "--seed", "28"],
    ),
    case(
        "anniversary-mcs-3",
        &[M, D, R],
        &["--variant", "anniversary", "--seed", "29"],
    ),
    case(
        "anniversary-pipe-2",
        &[PY, D],
        &["--variant", "anniversary", "--seed", "30"],
    ),
    case(
        "anniversary-house-specials-cost",
        &[R, D, L],
        &[
            "--variant",
            "anniversary",
            "--seed",
            "31",
            "--house",
            "scripts/house/anniversary/specials_cost.lua",
        ],
    ),
];

/// The record formats, by the suffix of their files.
const FORMATS: &[(&str, &str)] = &[("1", ""), ("2", ".compact")];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Plays `case` with `format`, writing its record beside the kept one (so that a house
/// script's path, which a record gives relative to itself, is the same); returns the new
/// record's path.
fn play(case: &Case, format: &str, suffix: &str) -> PathBuf {
    let fresh = root().join(format!("tests/corpus/{}{suffix}.new.jsonl", case.name));
    let mut command = Command::new(env!("CARGO_BIN_EXE_take5"));
    command.current_dir(root()).arg("play");
    for player in case.players {
        command.args(["--player", player]);
    }
    let output = command
        .args(case.args)
        // A generous limit (records do not hold it): a Python bot can take seconds to start on
        // a loaded machine, and a timeout would be a fault, another game.
        .args(["--timeout", "600000"])
        .args(["--record-format", format, "--quiet", "--record"])
        .arg(&fresh)
        .output()
        .expect("take5 runs");
    assert!(
        output.status.success(),
        "{}: take5 play failed: {}",
        case.name,
        String::from_utf8_lossy(&output.stderr)
    );
    fresh
}

/// The first line where two records differ, for the failure message.
fn first_difference(kept: &str, fresh: &str) -> String {
    let (mut kept_lines, mut fresh_lines) = (kept.lines(), fresh.lines());
    for number in 1.. {
        match (kept_lines.next(), fresh_lines.next()) {
            (None, None) => break,
            (a, b) if a == b => {}
            (a, b) => {
                return format!(
                    "line {number}:\n  kept:  {}\n  fresh: {}",
                    a.unwrap_or("(none)"),
                    b.unwrap_or("(none)")
                );
            }
        }
    }
    "(the same lines, other bytes)".into()
}

#[test]
fn every_record_of_the_corpus_is_replayed_byte_for_byte() {
    let write = std::env::var_os("TAKE5_CORPUS_WRITE").is_some();
    let mut changed = Vec::new();
    for case in CASES {
        for (format, suffix) in FORMATS {
            let fresh_path = play(case, format, suffix);
            let kept_path = root().join(format!("tests/corpus/{}{suffix}.jsonl", case.name));
            let fresh = std::fs::read_to_string(&fresh_path).unwrap();
            if write {
                std::fs::rename(&fresh_path, &kept_path).unwrap();
                continue;
            }
            let kept = std::fs::read_to_string(&kept_path).unwrap_or_else(|e| {
                panic!(
                    "{}: {e} (write it with TAKE5_CORPUS_WRITE=1)",
                    kept_path.display()
                )
            });
            if kept == fresh {
                std::fs::remove_file(&fresh_path).unwrap();
            } else {
                changed.push(format!(
                    "{} (kept beside it as .new.jsonl): {}",
                    kept_path.display(),
                    first_difference(&kept, &fresh)
                ));
            }
        }
    }
    assert!(
        changed.is_empty(),
        "records that changed:\n{}",
        changed.join("\n")
    );
}

/// Every file under tests/corpus/ is a case's record: a case removed from the list leaves none
/// behind, unnoticed.
#[test]
fn the_corpus_holds_only_the_cases_records() {
    let mut expected: Vec<String> = CASES
        .iter()
        .flat_map(|case| {
            FORMATS
                .iter()
                .map(move |(_, suffix)| format!("{}{suffix}.jsonl", case.name))
        })
        .collect();
    expected.push("README.md".into());
    expected.sort();
    let mut found: Vec<String> = std::fs::read_dir(root().join("tests/corpus"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| !name.ends_with(".new.jsonl"))
        .collect();
    found.sort();
    assert_eq!(found, expected);
}
