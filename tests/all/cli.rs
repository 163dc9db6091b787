//! `take5 check` and `take5 verify` end to end: output and exit status of the real binary.

use std::path::{Path, PathBuf};
use std::process::Command;

fn take5(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_take5"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap() + &String::from_utf8(out.stderr).unwrap();
    (out.status.code().unwrap(), text)
}

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("take5-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const PASSING: &str = "name: passes
pins: a card after the closest lower end
variant: classic
players: 2
setup:
  turn: 10
  rows: [[10], [20], [30], [40]]
  hands: [[25], [50]]
steps:
  - play: [25, 50]
    expect:
      rows: [[10], [20, 25], [30], [40, 50]]
";

#[test]
fn check_passes_the_shipped_fixtures() {
    let (code, out) = take5(&["check", "fixtures"]);
    assert_eq!(code, 0, "{out}");
    let mut count = 0;
    let mut stack = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
                count += 1; // (fixtures/house also holds a script for a fixture)
            }
        }
    }
    assert_eq!(out.lines().count(), count);
    assert!(
        out.lines().all(|l| l.starts_with("PASS fixtures/")),
        "{out}"
    );
    let mut sorted: Vec<&str> = out.lines().collect();
    sorted.sort();
    assert_eq!(sorted, out.lines().collect::<Vec<_>>(), "sorted order");
}

#[test]
fn check_exit_status_and_formats() {
    let dir = scratch("check");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("a.yaml"), PASSING).unwrap();
    std::fs::write(
        dir.join("sub/b.yml"),
        PASSING.replace("[20, 25]", "[20, 26]"),
    )
    .unwrap();
    std::fs::write(dir.join("notes.txt"), "not a fixture").unwrap();
    let d = dir.to_str().unwrap();

    let (code, out) = take5(&["check", d]);
    assert_eq!(code, 1, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], format!("PASS {d}/a.yaml  passes"));
    assert_eq!(lines[1], format!("FAIL {d}/sub/b.yml  passes"));
    assert_eq!(lines[2], "  step 1 (line 10): play [25, 50]");
    assert!(
        out.contains("    - row 1: 20 26\n    + row 1: 20 25\n"),
        "{out}"
    );

    let (code, out) = take5(&["check", "--format", "json", d]);
    assert_eq!(code, 1);
    let objects: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), 2);
    assert_eq!(objects[0]["status"], "pass");
    assert_eq!(objects[1]["status"], "fail");
    assert_eq!(objects[1]["mismatches"][0]["field"], "rows");
    assert_eq!(
        objects[1]["mismatches"][0]["actual"][1],
        serde_json::json!([20, 25])
    );

    std::fs::write(dir.join("c.yaml"), PASSING.replace("pins:", "pinz:")).unwrap();
    let (code, out) = take5(&["check", d]);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains(&format!("take5: {d}/c.yaml:2:1: unknown field `pinz`")),
        "{out}"
    );
    let (code, out, _) = take5_apart(&["check", "--format", "json", &format!("{d}/c.yaml")]);
    assert_eq!(code, 2);
    let error: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(error["status"], "error");
    assert_eq!(
        (error["line"].as_u64(), error["column"].as_u64()),
        (Some(2), Some(1))
    );

    let (code, out) = take5(&["check", &format!("{d}/missing.yaml")]);
    assert_eq!(code, 2);
    assert!(out.contains("no such file or folder"), "{out}");

    let (code, out) = take5(&["check", "--transcript", &format!("{d}/a.yaml")]);
    assert_eq!(code, 0);
    assert!(out.contains("  |   seat 1 places 50 on row 3"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn verify_exit_status() {
    let dir = scratch("verify");
    let page =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/records.md"))
            .unwrap();
    let start = page.find("```jsonl\n").unwrap() + "```jsonl\n".len();
    let record = &page[start..start + page[start..].find("```").unwrap()];
    std::fs::write(dir.join("good.jsonl"), record).unwrap();
    let doubled = format!("{record}{record}");
    std::fs::write(
        dir.join("two.jsonl"),
        doubled.replace("\"game\":0", "\"game\":1"),
    )
    .unwrap();
    let bad: Vec<String> = record
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == 13 {
                l.replace("\"row\":0", "\"row\":1")
            } else {
                l.into()
            }
        })
        .collect();
    std::fs::write(dir.join("bad.jsonl"), bad.join("\n")).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();

    let (code, out) = take5(&["verify", &path("good.jsonl"), &path("two.jsonl")]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        out,
        format!(
            "OK {}  1 game, 35 lines\nOK {}  2 games, 70 lines\n",
            path("good.jsonl"),
            path("two.jsonl")
        )
    );
    let (code, out) = take5(&["verify", &path("good.jsonl"), &path("bad.jsonl")]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(&format!(
            "{}:14: card 29 was placed on row 1, the rules put it on row 0",
            path("bad.jsonl")
        )),
        "{out}"
    );
    let (code, out) = take5(&["verify", &path("bad.jsonl"), &path("none.jsonl")]);
    assert_eq!(code, 2, "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The take5 binary's exit status, stdout and stderr, apart.
fn take5_apart(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_take5"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).unwrap();
    (
        out.status.code().unwrap(),
        text(out.stdout),
        text(out.stderr),
    )
}

/// `take5 verify` and `take5 check` print their verdicts on stdout, one per record or fixture,
/// in the report format of docs/records.md and docs/fixtures.md; a record or fixture that
/// cannot be read is an error on stderr, prefixed `take5:` as every error, and the others are
/// still checked (docs/play.md). The JSON report of `check` keeps an object for every fixture.
#[test]
fn verdicts_go_to_stdout_and_errors_to_stderr_prefixed_take5() {
    let dir = scratch("apart");
    let page =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/records.md"))
            .unwrap();
    let start = page.find("```jsonl\n").unwrap() + "```jsonl\n".len();
    let record = &page[start..start + page[start..].find("```").unwrap()];
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    std::fs::write(path("good.jsonl"), record).unwrap();
    std::fs::write(
        path("bad.jsonl"),
        record.replacen("\"row\":0}", "\"row\":1}", 1),
    )
    .unwrap();
    let (code, out, err) = take5_apart(&[
        "verify",
        &path("good.jsonl"),
        &path("missing.jsonl"),
        &path("bad.jsonl"),
    ]);
    assert_eq!(code, 2, "{out}{err}");
    let verdicts: Vec<&str> = out.lines().collect();
    assert_eq!(verdicts.len(), 2, "{out}");
    assert_eq!(
        verdicts[0],
        format!("OK {}  1 game, 35 lines", path("good.jsonl"))
    );
    assert!(
        verdicts[1].starts_with(&format!("{}:", path("bad.jsonl"))),
        "{out}"
    );
    assert!(
        err.starts_with(&format!("take5: {}: cannot read: ", path("missing.jsonl"))),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");

    std::fs::write(path("a.yaml"), PASSING).unwrap();
    std::fs::write(path("b.yaml"), PASSING.replace("[20, 25]", "[20, 26]")).unwrap();
    std::fs::write(path("c.yaml"), PASSING.replace("pins:", "pinz:")).unwrap();
    let fixtures = [
        path("a.yaml"),
        path("c.yaml"),
        path("b.yaml"),
        path("missing.yaml"),
    ];
    let args = |more: &[&str]| -> Vec<String> {
        let mut args = vec!["check".to_string()];
        args.extend(more.iter().map(|s| s.to_string()));
        args.extend(fixtures.iter().cloned());
        args
    };
    let run = |args: Vec<String>| take5_apart(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let (code, out, err) = run(args(&[]));
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        out.starts_with(&format!(
            "PASS {}  passes\nFAIL {}  passes\n",
            path("a.yaml"),
            path("b.yaml")
        )),
        "{out}"
    );
    assert!(
        !out.contains("c.yaml") && !out.contains("missing.yaml"),
        "{out}"
    );
    let errors: Vec<&str> = err.lines().filter(|l| !l.starts_with(' ')).collect();
    assert_eq!(errors.len(), 2, "{err}");
    let unknown = format!("take5: {}:2:1: unknown field `pinz`", path("c.yaml"));
    assert!(errors[0].starts_with(&unknown), "{err}");
    assert_eq!(
        errors[1],
        format!("take5: {}: no such file or folder", path("missing.yaml"))
    );
    // The line the error is about follows it, indented.
    assert!(
        err.lines().any(
            |l| l.starts_with(' ') && l.ends_with("| pinz: a card after the closest lower end")
        ),
        "{err}"
    );
    assert!(!format!("{out}{err}").contains("ERROR"), "{out}{err}");

    let (code, out, err) = run(args(&["--format", "json"]));
    assert_eq!(code, 2, "{out}{err}");
    let statuses: Vec<String> = out
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["status"].to_string())
        .collect();
    assert_eq!(statuses, ["\"pass\"", "\"error\"", "\"fail\"", "\"error\""]);
    assert_eq!(
        err.lines().filter(|l| l.starts_with("take5: ")).count(),
        2,
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `take5 --help` and `take5 play --help` name every kind of player: each built-in bot (the
/// search bot too), the human seat and a bot's command line.
#[test]
fn the_help_names_every_kind_of_player() {
    for args in [&["--help"][..], &["play", "--help"]] {
        let (status, out) = take5(args);
        assert_eq!(status, 0, "{args:?}");
        let out = out.replace('\n', " ");
        for kind in [
            "random",
            "lowest",
            "highest",
            "dodger",
            "builtin:mcs",
            "human",
            "command line",
        ] {
            assert!(out.contains(kind), "{args:?} does not name {kind}: {out}");
        }
    }
}

/// A usage error (clap's) starts with `take5:` as every other error does, with exit status 2.
#[test]
fn a_usage_error_starts_with_take5() {
    let (code, text) = take5(&["play", "--bogus"]);
    assert_eq!(code, 2, "{text}");
    assert!(
        text.starts_with("take5: unexpected argument '--bogus' found"),
        "{text}"
    );
}
