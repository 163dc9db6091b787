//! Hostile and broken house rule scripts (tests/house/*.lua) through `take5 play --house`, in
//! every variant where the script's moment comes: each fails quickly, with a message naming the
//! script, the line and what it tried, and take5 exits 2 without a panic.

use crate::common;

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// Every variant (each plays with four seats).
const ALL: &[&str] = &["classic", "pro", "take-a-number", "circle", "anniversary"];

/// The variants with a low card (a card below every row's end takes a row): all but the circle
/// game, whose rows take no low card.
const LOW_CARD: &[&str] = &["classic", "pro", "take-a-number", "anniversary"];

/// Runs `take5 play --variant VARIANT` with four built-in bots and `--house SCRIPT` (relative to
/// the crate, so messages show `tests/house/...`), plus `extra` flags; returns the output and
/// how long it took.
fn play_in(variant: &str, script: &str, extra: &[&str]) -> (Output, Duration) {
    play_games(variant, script, 2, extra)
}

fn play_games(variant: &str, script: &str, games: u32, extra: &[&str]) -> (Output, Duration) {
    let start = Instant::now();
    let games = games.to_string();
    let output = Command::new(env!("CARGO_BIN_EXE_take5"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "play",
            "--variant",
            variant,
            "--seed",
            "3",
            "--games",
            &games,
        ])
        .args(["--house", script])
        .args(["-p", "builtin:random", "-p", "builtin:dodger"])
        .args(["-p", "builtin:lowest", "-p", "builtin:highest"])
        .args(extra)
        .output()
        .expect("take5 runs");
    (output, start.elapsed())
}

fn play(script: &str, extra: &[&str]) -> (Output, Duration) {
    play_in("classic", script, extra)
}

/// `take5 play --house tests/house/NAME` fails cleanly in every variant and says `expected`
/// (each part, in order); the last variant's stderr.
fn refused(name: &str, expected: &[&str]) -> String {
    refused_in(ALL, name, expected)
}

/// [`refused`] in `variants`.
fn refused_in(variants: &[&str], name: &str, expected: &[&str]) -> String {
    let mut stderr = String::new();
    for variant in variants {
        stderr = refused_as(variant, name, expected);
    }
    stderr
}

fn refused_as(variant: &str, name: &str, expected: &[&str]) -> String {
    let script = format!("tests/house/{name}");
    let (output, took) = play_in(variant, &script, &[]);
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    let name = format!("{name} in {variant}");
    assert_eq!(output.status.code(), Some(2), "{name}: {stderr}");
    assert!(!stderr.contains("panicked"), "{name}: {stderr}");
    // Each stops within about a second of its budget; the bound is generous for a loaded
    // machine (and the debug build's slower Lua, whose time limit is 30 s).
    assert!(took < Duration::from_secs(90), "{name} took {took:?}");
    let mut rest = stderr.as_str();
    for part in expected {
        let at = rest
            .find(part)
            .unwrap_or_else(|| panic!("{name}: `{part}` missing from: {stderr}"));
        rest = &rest[at + part.len()..];
    }
    stderr
}

const BUDGET: &str =
    "instruction budget exceeded (10000000 Lua instructions per call; an endless loop?)";

#[test]
fn an_endless_loop_at_the_top_level() {
    refused(
        "loop_top.lua",
        &["take5: tests/house/loop_top.lua:", BUDGET],
    );
}

#[test]
fn an_endless_loop_in_a_hook() {
    refused(
        "loop_hook.lua",
        &[
            "take5: house rule hook `row_taken` failed in round 1 turn ",
            ": tests/house/loop_hook.lua:",
            BUDGET,
        ],
    );
}

#[test]
fn an_endless_loop_that_catches_errors() {
    refused(
        "loop_pcall.lua",
        &[
            "house rule hook `row_taken` failed",
            "tests/house/loop_pcall.lua:",
            BUDGET,
        ],
    );
}

#[test]
fn an_endless_loop_in_a_coroutine() {
    refused(
        "loop_coroutine.lua",
        &[
            "house rule hook `round_end` failed in round 1 turn ",
            BUDGET,
        ],
    );
}

#[test]
fn a_memory_bomb() {
    refused(
        "memory_bomb.lua",
        &[
            "house rule hook `row_taken` failed",
            "tests/house/memory_bomb.lua: not enough memory (a house rule script may use 64 MiB)",
        ],
    );
}

#[test]
fn os_execute() {
    refused(
        "os_execute.lua",
        &["take5: tests/house/os_execute.lua:2: os is not available in take5 house rules\n"],
    );
    assert!(
        !Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("take5-house-pwned")
            .exists()
    );
}

#[test]
fn io_open() {
    refused_in(
        LOW_CARD,
        "io_open.lua",
        &[
            "house rule hook `low_card` failed in round ",
            "tests/house/io_open.lua:4: io is not available in take5 house rules",
        ],
    );
}

#[test]
fn require() {
    refused(
        "require.lua",
        &[
            "tests/house/require.lua:2: require is not available in take5 house rules (house rules cannot load code)",
        ],
    );
}

#[test]
fn load_of_bytecode() {
    refused(
        "load_bytecode.lua",
        &[
            "tests/house/load_bytecode.lua:3: load is not available in take5 house rules (house rules cannot load code)",
        ],
    );
    refused(
        "string_dump.lua",
        &["tests/house/string_dump.lua:2: string.dump is not available in take5 house rules"],
    );
}

#[test]
fn a_bytecode_file() {
    let bytecode = b"\x1bLua\x54\x00\x19\x93\r\n\x1a\n\x04\x08\x08";
    let script = script_file("compiled.lua", bytecode);
    let (output, _) = play(&script, &[]);
    says(
        &output,
        "compiled.lua: is Lua bytecode; house rules must be Lua source",
    );
}

#[test]
fn a_syntax_error_shows_file_and_line() {
    refused(
        "syntax_error.lua",
        &["take5: tests/house/syntax_error.lua:3: unexpected symbol near '='\n"],
    );
}

#[test]
fn an_error_in_a_hook_shows_hook_line_and_moment() {
    let stderr = refused(
        "hook_error.lua",
        &[
            "take5: house rule hook `row_taken` failed in round 1 turn ",
            ": tests/house/hook_error.lua:4: attempt to index a nil value (field 'top')\n",
        ],
    );
    assert_eq!(
        stderr.lines().count(),
        1,
        "one line, no traceback: {stderr}"
    );
}

#[test]
fn a_failed_game_leaves_its_record_readable() {
    let dir = std::env::temp_dir().join(format!("take5-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("failed.jsonl");
    let (output, _) = play(
        "tests/house/hook_error.lua",
        &["--record", record.to_str().unwrap()],
    );
    assert_eq!(output.status.code(), Some(2));
    let text = std::fs::read_to_string(&record).unwrap();
    let lines: Vec<_> = text
        .lines()
        .enumerate()
        .map(|(i, l)| take5::record::Line::parse(l, i + 1).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    assert!(lines.len() > 2, "the header and the first turns are there");
    let take5::record::Line::Game(header) = &lines[0] else {
        panic!("a header first")
    };
    assert!(header.house.is_some());
    // The last line says why the game ends there, with the script's error.
    let Some(take5::record::Line::Stopped(stop)) = lines.last() else {
        panic!("a `stopped` line last: {text}")
    };
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stop.reason.contains("hook_error.lua"), "{}", stop.reason);
    assert!(stderr.contains(&stop.reason), "{stderr}");
    // `take5 verify` replays what was played, then names the stop at its line.
    let verify = Command::new(env!("CARGO_BIN_EXE_take5"))
        .args(["verify", record.to_str().unwrap()])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&verify.stdout).to_string()
        + &String::from_utf8_lossy(&verify.stderr);
    assert_eq!(verify.status.code(), Some(1), "{said}");
    let at = format!("failed.jsonl:{}", lines.len());
    assert!(said.contains(&at), "{said}");
    assert!(
        said.contains("the referee stopped this game before its end"),
        "{said}"
    );
}

// Issue 19, points 1-6: what the instruction budget alone did not stop.

#[test]
fn a_finalizer_that_loops_is_refused() {
    refused(
        "gc_loop.lua",
        &[
            "take5: tests/house/gc_loop.lua:2: setmetatable: __gc is not available in take5 house \
             rules (finalizers run outside the instruction budget)",
        ],
    );
}

#[test]
fn a_close_handler_that_loops_is_refused() {
    refused(
        "close_loop.lua",
        &[
            "house rule hook `row_taken` failed in round ",
            "tests/house/close_loop.lua:4: setmetatable: __close is not available in take5 house \
             rules",
        ],
    );
}

#[test]
fn a_close_handler_added_after_setmetatable_never_runs() {
    refused(
        "close_later.lua",
        &[
            "house rule hook `row_taken` failed in round ",
            "tests/house/close_later.lua:11: variable 'g' got a non-closable value",
        ],
    );
}

#[test]
fn a_message_handler_that_loops_is_skipped_once_the_budget_is_spent() {
    refused(
        "handler_loop.lua",
        &[
            "house rule hook `row_taken` failed",
            "tests/house/handler_loop.lua:",
            BUDGET,
        ],
    );
}

#[test]
fn a_backtracking_pattern_is_stopped_by_the_budget() {
    refused(
        "find_backtrack.lua",
        &[
            "house rule hook `row_taken` failed",
            "tests/house/find_backtrack.lua:4: ",
            BUDGET,
        ],
    );
}

#[test]
fn plain_finds_over_a_long_string_are_charged() {
    refused(
        "find_plain_loop.lua",
        &["take5: tests/house/find_plain_loop.lua:4: ", BUDGET],
    );
}

#[test]
fn gsub_over_a_long_string_is_charged() {
    refused(
        "gsub_loop.lua",
        &["take5: tests/house/gsub_loop.lua:4: ", BUDGET],
    );
}

#[test]
fn concatenating_long_strings_meets_the_time_limit() {
    refused_in(
        &["classic"],
        "concat_loop.lua",
        &[
            "take5: tests/house/concat_loop.lua:4: time limit exceeded (a call may use ",
            " s of processor time; long strings in a loop?)",
        ],
    );
}

#[test]
fn a_bullheads_function_over_a_huge_deck_meets_the_reading_budget() {
    refused(
        "slow_bullheads.lua",
        &[
            "take5: tests/house/slow_bullheads.lua: setting bullheads: tests/house/slow_bullheads.lua:",
            "reading the script ran more than 50000000 Lua instructions in all",
        ],
    );
}

#[test]
fn a_parser_stack_overflow_names_the_script_and_line() {
    refused(
        "deep_nesting.lua",
        &["take5: tests/house/deep_nesting.lua:4: C stack overflow"],
    );
}

#[test]
fn an_error_with_a_table_names_the_script_and_line() {
    refused(
        "error_table.lua",
        &[
            "house rule hook `row_taken` failed",
            "tests/house/error_table.lua:4: error called with a table value (house rules raise \
             errors with a message: a string)",
        ],
    );
}

#[test]
fn a_budget_error_in_a_coroutine_points_at_the_script() {
    let stderr = refused(
        "coroutine_resume_loop.lua",
        &[
            "house rule hook `round_end` failed in round 1 turn ",
            ": tests/house/coroutine_resume_loop.lua:",
            BUDGET,
        ],
    );
    assert!(!stderr.contains("take5 sandbox"), "{stderr}");
}

#[test]
fn a_script_larger_than_the_limit_is_refused_before_it_is_read() {
    let text = "return {}\n".to_string() + &"-- padding\n".repeat(200_000);
    let (output, _) = play(&script_file("big.lua", &text), &[]);
    says(
        &output,
        "big.lua: too large: a house rule script may hold at most 1 MiB",
    );
}

/// A script holding `text`, written to a temporary folder; its path.
fn script_file(name: &str, text: impl AsRef<[u8]>) -> String {
    let dir = std::env::temp_dir().join(format!("take5-hostile-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// Asserts that take5 refused as bad input (exit 2, no panic), saying `expected`.
fn says(output: &Output, expected: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        stderr.contains(expected),
        "`{expected}` missing from: {stderr}"
    );
}

/// The rounds of the last game of a record.
fn rounds_played(record: &Path) -> usize {
    let text = std::fs::read_to_string(record).unwrap();
    let last_game = text.rfind("\"event\":\"game\"").unwrap();
    text[last_game..].matches("\"event\":\"round_end\"").count()
}

#[test]
fn a_game_that_never_ends_by_its_rules_ends_after_the_most_rounds() {
    let dir = std::env::temp_dir().join(format!("take5-hostile-end-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for variant in ALL {
        // The circle game is one round, over when the cards are out: it has no target score.
        let scripts: &[&str] = match *variant {
            "circle" => &["game_never_ends.lua"],
            _ => &["game_never_ends.lua", "free_rows.lua"],
        };
        for &script in scripts {
            let record = dir.join(format!("{variant}-{script}.jsonl"));
            let (output, took) = play_games(
                variant,
                &format!("tests/house/{script}"),
                1,
                &["--record", record.to_str().unwrap()],
            );
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(
                output.status.code(),
                Some(0),
                "{variant} {script}: {stderr}"
            );
            assert!(
                took < Duration::from_secs(60),
                "{variant} {script}: {took:?}"
            );
            let rounds = rounds_played(&record);
            assert!(
                rounds <= take5::game::house::MAX_ROUNDS as usize,
                "{variant} {script}: {rounds} rounds"
            );
            common::ok(&common::take5(&["verify", record.to_str().unwrap()]));
        }
    }
}

#[test]
fn rounds_beyond_the_most_are_refused() {
    let script = script_file("rounds.lua", "return { rounds = 4294967295 }\n");
    let (output, _) = play(&script, &[]);
    says(
        &output,
        "setting rounds: must be at most 100, got 4294967295 (a game has at most 100 rounds)",
    );
}

#[test]
fn points_that_overflow_are_a_house_rule_error() {
    for script in ["overflow.lua", "underflow.lua"] {
        refused(
            script,
            &[
                "house rule hook `",
                "failed in round ",
                "overflow the points a seat can hold (-2147483648 to 2147483647)",
            ],
        );
    }
}

#[test]
fn a_setting_of_another_variant_is_refused_naming_the_setting_and_the_variant() {
    let cases = [
        (
            "classic",
            "fixtures/house/circle_all_green.lua",
            "setting red is not a setting of the classic variant",
        ),
        (
            "take-a-number",
            "fixtures/house/circle_all_green.lua",
            "setting red is not a setting of the take-a-number variant",
        ),
        (
            "anniversary",
            "tests/house/snake_draft.lua",
            "setting draft is not a setting of the anniversary variant",
        ),
        (
            "circle",
            "scripts/house/three_rounds.lua",
            "setting rounds is not a setting of the circle variant",
        ),
    ];
    for (variant, script, expected) in cases {
        let (output, _) = play_in(variant, script, &[]);
        says(&output, &format!("take5: --house: {script}: {expected}"));
    }
}

#[test]
fn memory_used_up_slowly_names_the_line() {
    refused(
        "memory_slow.lua",
        &[
            "take5: tests/house/memory_slow.lua:6: not enough memory (a house rule script may use 64 MiB)",
        ],
    );
}

/// Each variant's own hooks, with the arguments they get (as a Lua parameter list).
const OWN_HOOKS: &[(&str, &str, &str)] = &[
    ("take-a-number", "hash_row", "t, seat, card"),
    ("take-a-number", "hash_pile", "t, seat, cards, points"),
    ("anniversary", "special_played", "t, seat, special, card"),
    ("anniversary", "swap", "t, seat, gave, drew"),
    (
        "circle",
        "row_collected",
        "t, seat, row, cards, specials, points",
    ),
    ("circle", "final_score", "t, seat, score"),
    ("pro", "draft_pick", "t, seat, card, pool"),
];

/// A variant's own hook that raises an error, returns what it may not, or never ends stops the
/// game with the hook's name, the moment, and the script's name and line.
#[test]
fn the_variants_own_hooks_that_fail_are_stopped_with_the_script_and_line() {
    for &(variant, hook, params) in OWN_HOOKS {
        let observes = !matches!(hook, "hash_row" | "hash_pile" | "final_score");
        let wrong = if observes { "1" } else { "'x'" };
        let answer = if observes {
            format!("{hook} returned 1: it only observes the game, so it must return nothing (nil)")
        } else {
            format!("{hook} returned \"x\": it must return whole points")
        };
        let cases = [
            ("error", "error('boom')", ":3: boom".to_string()),
            (
                "wrong",
                &*format!("return {wrong}"),
                format!(":2: {answer}"),
            ),
            ("loop", "while true do end", format!(":3: {BUDGET}")),
        ];
        for (kind, body, expected) in cases {
            let text =
                format!("return {{\n  {hook} = function({params})\n    {body}\n  end,\n}}\n");
            let file = format!("{variant}-{hook}-{kind}.lua");
            let script = script_file(&file, text);
            // Eight games: the built-in bots swap rarely (only builtin:random does).
            let (output, took) = play_games(variant, &script, 8, &[]);
            let stderr = String::from_utf8_lossy(&output.stderr);
            let name = format!("{hook} ({kind}) in {variant}");
            assert!(took < Duration::from_secs(90), "{name} took {took:?}");
            says(
                &output,
                &format!("take5: house rule hook `{hook}` failed in round "),
            );
            // Lua names a long path by its end (`...files-1/NAME.lua`).
            assert!(
                stderr.contains(&format!("/{file}{expected}")),
                "{name}: `{file}{expected}` missing from: {stderr}"
            );
        }
    }
}

/// A variant's own hook in a script for another variant is refused before any game, naming
/// the hook and its variant.
#[test]
fn another_variants_hook_is_refused_naming_the_hook_and_its_variant() {
    for &(variant, hook, params) in OWN_HOOKS {
        let text = format!("return {{ {hook} = function({params}) end }}\n");
        let script = script_file(&format!("foreign-{hook}.lua"), text);
        let other = if variant == "classic" {
            "pro"
        } else {
            "classic"
        };
        let (output, _) = play_in(other, &script, &[]);
        says(
            &output,
            &format!(
                "take5: --house: {script}: hook {hook} is not a hook of the {other} variant: it \
                 is the {variant} variant's ("
            ),
        );
        let (output, _) = play_in(variant, &script, &[]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{hook} in {variant}: {stderr}"
        );
    }
}
