//! Text from a bot or a file (names, replies, stderr, paths, a fixture's name) printed by every
//! command with its control characters visible (`\x1b`): none reaches the terminal raw, so a bot
//! or a file cannot retitle the terminal, write its clipboard or clear it.

use crate::common::{self, ok, take5, temp};
use std::process::Output;

/// A terminal attack: retitle the window (OSC 0), write the clipboard (OSC 52), reset the
/// terminal (ESC c, which clears the screen), and a C1 control (CSI). Without `/`, `=`, `[` or
/// `'`, so it can be a bot's name in a tournament and be quoted in a player's command line.
const HOSTILE: &str = "\x1b]0;owned\x07\x1b]52;c;b3duZWQ\x07\x1bc\u{9b}2J";
/// The same as take5 prints it.
const SHOWN: &str = r"\x1b]0;owned\x07\x1b]52;c;b3duZWQ\x07\x1bc\u{9b}2J";

/// Asserts that `output` (stdout and stderr of a command) holds no control character but line
/// ends, and that it shows `shown`.
fn shows_visibly(output: &Output, shown: &str) {
    for (stream, bytes) in [("stdout", &output.stdout), ("stderr", &output.stderr)] {
        let text = String::from_utf8_lossy(bytes);
        let raw: Vec<char> = text
            .chars()
            .filter(|c| c.is_control() && *c != '\n')
            .collect();
        assert!(raw.is_empty(), "raw {raw:?} on {stream}:\n{text}");
    }
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(all.contains(shown), "`{shown}` is not shown in:\n{all}");
}

#[test]
fn play_shows_a_bots_name_stderr_and_refused_reply_with_control_characters_visible() {
    let output = common::hostile_game(HOSTILE, HOSTILE, &temp("game.jsonl"), &[]);
    // The names (their commands) in each game and in the summary, the stderr in the fault.
    shows_visibly(&output, &format!("stderr '{SHOWN}'"));
    shows_visibly(&output, &format!("reply '{SHOWN}'"));
    shows_visibly(&output, &format!("\ndying: {SHOWN}\n"));
    // The refused reply, quoted as the protocol's error quotes it.
    shows_visibly(&output, r#"found "\u{1b}]0;owned\u{7}"#);
}

#[test]
fn a_bot_that_fails_its_handshake_is_told_with_its_stderr_visible() {
    let bot = format!("sh -c 'printf \"%s\\n\" \"$0\" >&2; exit 1' '{HOSTILE}'");
    let output = take5(&["play", "--player", &bot, "--player", "builtin:lowest"]);
    assert_eq!(output.status.code(), Some(2));
    shows_visibly(
        &output,
        &format!("--- last lines of its stderr ---\n{SHOWN}"),
    );
}

#[test]
fn selftest_shows_a_bots_lines_with_control_characters_visible() {
    let output = take5(&[
        "selftest",
        "--variant",
        "classic",
        "--timeout",
        "60000",
        "--startup-timeout",
        "60000",
        &common::hostile_bot("reply", HOSTILE),
    ]);
    assert_eq!(output.status.code(), Some(1), "the bot fails");
    shows_visibly(&output, &format!("        got:      {SHOWN}\n"));
    shows_visibly(&output, "take5 selftest: python3 ");
}

#[test]
fn show_plain_shows_player_names_and_faults_with_control_characters_visible() {
    let record = temp("game.jsonl");
    common::hostile_game(HOSTILE, HOSTILE, &record, &[]);
    // Named by their command lines (which hold the hostile strings), not their hellos'.
    common::without_hello_names(&record);
    let output = take5(&["show", "--plain", record.to_str().unwrap()]);
    ok(&output);
    shows_visibly(&output, "> seat 0 python3 ");
    shows_visibly(&output, &format!("reply '{SHOWN}': score 0"));
    shows_visibly(
        &output,
        &format!("\ndying: {SHOWN} (the referee played for it)\n"),
    );
}

#[test]
fn tournament_and_stats_show_bot_names_with_control_characters_visible() {
    let results = temp("results.jsonl");
    let name = format!("{HOSTILE}=builtin:random");
    let output = common::round_robin(&[&name, "lowest=builtin:lowest"], 2, &results, &[]);
    ok(&output);
    shows_visibly(&output, &format!("\n{SHOWN} "));
    let results = results.to_str().unwrap();
    for format in ["table", "csv"] {
        let output = take5(&["stats", "--format", format, "--times", results]);
        ok(&output);
        shows_visibly(&output, &format!("\n{SHOWN}"));
    }
    // JSON stays JSON, with the name as it is (serde writes its control characters escaped).
    let json: serde_json::Value =
        serde_json::from_str(&ok(&take5(&["stats", "--format", "json", results]))).unwrap();
    let names = common::bot_names(&json);
    assert!(names.contains(&HOSTILE), "{names:?}");
}

#[test]
fn a_tournament_notice_shows_a_failing_bots_stderr_visibly() {
    let results = temp("results.jsonl");
    let bot = format!("never=sh -c 'printf \"%s\\n\" \"$0\" >&2; exit 1' '{HOSTILE}'");
    let output = common::round_robin(
        &[&bot, "lowest=builtin:lowest"],
        3,
        &results,
        &["--jobs", "1", "--allow-dropouts"],
    );
    ok(&output);
    shows_visibly(&output, "bot never taken out of the tournament");
    shows_visibly(
        &output,
        &format!("--- last lines of its stderr ---\n{SHOWN}); the fallback plays"),
    );
}

/// Plays a game of two built-ins with the house rule `script` (at `name` in this test's folder)
/// and `more` flags.
fn play_with_house(name: &str, script: &str, more: &[&str]) -> Output {
    let path = temp(name);
    std::fs::write(&path, script).unwrap();
    let mut args = vec![
        "play",
        "--player",
        "builtin:random",
        "--player",
        "builtin:lowest",
    ];
    args.extend(["--seed", "1", "--quiet", "--house", path.to_str().unwrap()]);
    args.extend(more);
    take5(&args)
}

#[test]
fn verify_names_a_records_house_path_with_control_characters_visible() {
    let record = temp("house.jsonl");
    let record_flag = ["--record", record.to_str().unwrap()];
    ok(&play_with_house(
        "short.lua",
        "return { target_score = 20 }\n",
        &record_flag,
    ));
    let text = std::fs::read_to_string(&record).unwrap();
    let path = serde_json::to_string(&format!("{HOSTILE}.lua")).unwrap();
    assert!(text.contains(r#""path":"short.lua""#));
    std::fs::write(
        &record,
        text.replace(r#""path":"short.lua""#, &format!(r#""path":{path}"#)),
    )
    .unwrap();
    let output = take5(&["verify", record.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "the script cannot be read");
    shows_visibly(
        &output,
        &format!("the house rule script of the header ({SHOWN}.lua)"),
    );
}

#[test]
fn check_shows_a_fixtures_name_and_lines_with_control_characters_visible() {
    let fixture = include_str!("../../fixtures/classic/bullheads.yaml");
    let (_, rest) = fixture.split_once('\n').unwrap();
    // YAML's escapes for ESC, BEL and a C1 control.
    let name = r#"name: "\e]0;owned\a\e]52;c;b3duZWQ\a\ec\x9b2J""#;
    let path = temp("hostile.yaml");
    std::fs::write(&path, format!("{name}\n{rest}")).unwrap();
    let path = path.to_str().unwrap();
    let output = take5(&["check", path]);
    ok(&output);
    shows_visibly(&output, &format!("PASS {path}  {SHOWN}\n"));
    let output = take5(&["check", "--show", path]);
    ok(&output);
    shows_visibly(&output, &format!("{SHOWN}: Cards ending in 5"));
    // A raw ESC in a file that is no fixture: the error quotes the line.
    std::fs::write(temp("raw.yaml"), format!("name: x\n# {HOSTILE}\n")).unwrap();
    let output = take5(&["check", temp("raw.yaml").to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    shows_visibly(&output, &format!("# {SHOWN}"));
}

#[test]
fn a_house_scripts_print_reaches_stderr_with_control_characters_visible() {
    let output = play_with_house("loud.lua", "print(\"\\27]0;owned\\7\")\nreturn {}\n", &[]);
    ok(&output);
    shows_visibly(&output, r"loud.lua: \x1b]0;owned\x07");
}
