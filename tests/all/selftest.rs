//! `take5 selftest`: the example bots (the kits' and the scripts') pass every item of every
//! variant, and each kind of bad bot (tests/bots/selftest_bad.py) fails, naming the item.
//! Time limits are generous; the one bad bot that never answers is held to a finite one.

use std::path::Path;
use std::process::Output;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `take5 selftest BOT ARGS...` from the repository's root.
fn selftest(bot: &str, args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_take5"))
        .arg("selftest")
        .arg(bot)
        .args(["--startup-timeout", "60000"])
        .args(args)
        .current_dir(root())
        .output()
        .unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).to_string()
}

fn passes_every_variant(bot: &str) {
    let output = selftest(bot, &["--variant", "all", "--timeout", "20000"]);
    let text = stdout(&output);
    assert!(output.status.success(), "{bot}:\n{text}");
    assert!(text.contains("result: PASS"), "{text}");
    for variant in ["classic", "pro", "take-a-number", "circle", "anniversary"] {
        assert!(
            text.lines().any(|l| l == variant),
            "{bot}: {variant} tested:\n{text}"
        );
    }
    assert!(!text.contains("FAIL"), "{text}");
}

#[test]
fn the_python_kits_example_bot_passes_every_variant() {
    passes_every_variant("python3 sdk/python/example_bot.py");
}

#[test]
fn the_js_kits_example_bot_passes_every_variant() {
    passes_every_variant("node sdk/js/example_bot.mjs");
}

#[test]
fn the_python_example_bot_passes_every_variant() {
    passes_every_variant("python3 scripts/bots/python_bot.py");
}

/// The C kit's example bot, built as its README says.
#[test]
fn the_c_kits_example_bot_passes_every_variant() {
    let bot = crate::common::build_c_example_bot(&crate::common::fresh_folder("c-bot"));
    passes_every_variant(bot.to_str().unwrap());
}

#[test]
fn the_shell_example_bot_passes_every_variant() {
    passes_every_variant("sh scripts/bots/shell_bot.sh");
}

/// The bad bot of `mode` fails `item` of `variant`: exit 1, a FAIL line for the item with what
/// was sent and what came back, and the item named in the result line.
fn fails(mode: &str, variant: &str, timeout: &str, item: &str) -> String {
    let bot = format!("python3 tests/bots/selftest_bad.py {mode}");
    let output = selftest(&bot, &["--variant", variant, "--timeout", timeout]);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{mode}:\n{text}");
    let line = text
        .lines()
        .position(|l| l.starts_with(&format!("  FAIL  {item} ")))
        .unwrap_or_else(|| panic!("{mode}: no FAIL line for {item}:\n{text}"));
    let details: Vec<&str> = text
        .lines()
        .skip(line + 1)
        .take_while(|l| l.starts_with("    "))
        .collect();
    assert!(
        details.iter().any(|l| l.trim_start().starts_with("sent:")),
        "{text}"
    );
    assert!(
        details.iter().any(|l| l.trim_start().starts_with("got:")),
        "{text}"
    );
    assert!(
        details
            .iter()
            .any(|l| l.trim_start().starts_with("expected:")),
        "{text}"
    );
    let result = text.lines().last().unwrap();
    assert!(result.contains(&format!("{variant}: {item}")), "{result}");
    text
}

#[test]
fn a_bot_answering_a_row_question_with_a_card_fails_ask_row() {
    let text = fails("row-card", "classic", "20000", "ask row (a low card)");
    assert!(text.contains("does not answer \"ask row\""), "{text}");
}

#[test]
fn a_bot_that_never_answers_ask_pick_fails_ask_pick() {
    // The bot sleeps for ever: any finite limit shows it.
    let text = fails("sleep-pick", "pro", "3000", "ask pick");
    assert!(text.contains("timeout: no reply within 3000 ms"), "{text}");
}

#[test]
fn a_bot_that_ignores_an_error_line_fails_the_error_item() {
    let text = fails(
        "ignore-error",
        "classic",
        "3000",
        "an error line, answered again",
    );
    assert!(
        text.contains("refuses the first answer to this request on purpose"),
        "{text}"
    );
}

#[test]
fn a_bot_that_stops_after_one_game_fails_games_in_a_row() {
    let text = fails("one-game", "classic", "20000", "3 games in a row");
    assert!(text.contains("crash"), "{text}");
}

#[test]
fn a_bot_printing_garbage_fails_its_first_question() {
    let text = fails("garbage", "classic", "20000", "ask play");
    assert!(text.contains("got:      thinking about it..."), "{text}");
}

/// The bot's chatter before each answer is told as such, and the exchange is shown in the
/// order it went: the request, the chatter, the `error` it earned, the answer.
#[test]
fn a_line_nobody_asked_for_is_named_and_the_exchange_shown_in_order() {
    let text = fails("garbage", "classic", "20000", "ask play");
    let at = text.find("  FAIL  ask play ").unwrap();
    let item: Vec<&str> = text[at..]
        .lines()
        .take_while(|l| !l.starts_with("  PASS") && !l.starts_with("  FAIL  ask row"))
        .collect();
    assert!(
        item[0].contains("the bot wrote a line nobody asked for"),
        "{text}"
    );
    let exchange: Vec<&str> = item
        .iter()
        .map(|l| l.trim_start())
        .filter(|l| l.starts_with("sent:") || l.starts_with("got:"))
        .map(|l| l.split_whitespace().take(2).last().unwrap())
        .collect();
    assert_eq!(
        exchange,
        ["game", "ask", "thinking", "error", "play"],
        "{text}"
    );
}

/// The checklist says what time limits the bot was held to.
#[test]
fn the_checklist_names_its_time_limits() {
    let output = selftest("python3 /nonexistent.py", &["--variant", "classic"]);
    let text = stdout(&output);
    assert_eq!(
        text.lines().nth(1),
        Some("time limits: 2000 ms a decision (--timeout), 60000 ms a start (--startup-timeout)"),
        "{text}"
    );
}

/// Runs `take5 selftest` of a shell bot whose script is `script` (`$1` is a scratch file, where
/// it may note what it is asked) with `args`; returns the scratch file's lines and the report.
fn selftest_noting(script: &str, args: &[&str]) -> (Vec<String>, String) {
    let thread = std::thread::current();
    let name = thread.name().unwrap_or("noting").replace("::", "-");
    let notes = std::env::temp_dir().join(format!("take5-{name}-{}", std::process::id()));
    let _ = std::fs::remove_file(&notes);
    let bot = format!("sh -c '{script}' bot {}", notes.display());
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_take5"))
        .args(["selftest", &bot, "--variant", "classic"])
        .args(args)
        .output()
        .unwrap();
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    let noted = std::fs::read_to_string(&notes).unwrap_or_default();
    (noted.lines().map(str::to_string).collect(), text)
}

/// A bot that never says hello is started once per variant, not once per game of every
/// situation: after its first timeout the variant's other items are not reached.
#[test]
fn a_silent_bot_is_given_up_after_its_first_timeout_in_a_variant() {
    let (starts, text) = selftest_noting(
        "echo started >> \"$1\"; exec sleep 600",
        &["--startup-timeout", "1000"],
    );
    assert_eq!(starts.len(), 1, "{text}");
    assert!(
        text.contains(
            "  FAIL  3 games in a row                                 0  never reached: \
             the bot was given up for this variant at its first timeout"
        ),
        "{text}"
    );
}

/// A bot that greets, then never answers, is asked once per variant.
#[test]
fn a_bot_that_never_answers_is_asked_once_per_variant() {
    let (asks, text) = selftest_noting(
        "read l; echo hello version=1 name=mute; \
         while read l; do case $l in ask*) echo \"$l\" >> \"$1\";; esac; done",
        &["--timeout", "500"],
    );
    assert_eq!(asks.len(), 1, "{asks:?}\n{text}");
    assert!(text.contains("  FAIL  ask play "), "{text}");
}

#[test]
fn json_gives_every_item_with_its_evidence() {
    let bot = "python3 tests/bots/selftest_bad.py row-card";
    let output = selftest(
        bot,
        &[
            "--variant",
            "classic",
            "--format",
            "json",
            "--timeout",
            "20000",
        ],
    );
    assert_eq!(output.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["passed"], false);
    assert_eq!(report["bot"], bot);
    let checks = report["checks"].as_array().unwrap();
    let row = checks
        .iter()
        .find(|c| c["item"] == "ask row (a low card)")
        .unwrap();
    assert_eq!(row["status"], "FAIL");
    assert_eq!(row["variant"], "classic");
    // The lines in the order they went: the request, then the bot's answer to it.
    assert!(
        row["lines"][0]["sent"]
            .as_str()
            .unwrap()
            .starts_with("ask row "),
        "{row}"
    );
    assert!(
        row["lines"][1]["got"]
            .as_str()
            .unwrap()
            .starts_with("play "),
        "{row}"
    );
    let play = checks.iter().find(|c| c["item"] == "ask play").unwrap();
    assert_eq!(play["status"], "PASS");
    assert!(play["seen"].as_u64().unwrap() > 0);
    assert!(report["decisions"]["count"].as_u64().unwrap() > 0);
    assert!(report["startup"]["count"].as_u64().unwrap() > 0);
}

#[test]
fn a_bot_that_cannot_be_run_fails_its_handshake() {
    let output = selftest("python3 /nonexistent.py", &["--variant", "classic"]);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(text.contains("  FAIL  handshake "), "{text}");
    assert!(text.contains("nonexistent.py"), "{text}");
}

/// docs/selftest.md's example is what take5 prints (the times aside, which vary).
#[test]
fn the_docs_example_is_what_take5_prints() {
    let doc = std::fs::read_to_string(root().join("docs/selftest.md")).unwrap();
    let prompt = "$ take5 selftest \"python3 tests/bots/selftest_bad.py row-card\" --variant classic --timeout 20000 --startup-timeout 60000\n";
    let start = doc.find(prompt).expect("the example") + prompt.len();
    let shown = &doc[start..start + doc[start..].find("```").unwrap()];
    let output = selftest(
        "python3 tests/bots/selftest_bad.py row-card",
        &["--variant", "classic", "--timeout", "20000"],
    );
    let printed = stdout(&output);
    let (shown, printed): (Vec<&str>, Vec<&str>) =
        (shown.lines().collect(), printed.lines().collect());
    assert_eq!(shown.len(), printed.len(), "{printed:#?}");
    for (shown, printed) in shown.iter().zip(&printed) {
        let times = |l: &str| l.starts_with("decision times:") || l.starts_with("start-up time:");
        if times(shown) {
            assert_eq!(
                shown.split(", median").next(),
                printed.split(", median").next(),
            );
        } else {
            assert_eq!(shown, printed);
        }
    }
}
