//! The README's examples stay true: its commands run, its deal file deals, its house script
//! loads and plays. (Its bot transcript is checked in tests/protocol_doc.rs.)

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const README: &str = include_str!("../README.md");

/// The README's fenced blocks of `language`, each with its lines (any indentation removed).
fn blocks(language: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for line in README.lines() {
        let trimmed = line.trim_start();
        match &mut current {
            None if trimmed == format!("```{language}") => {
                current = Some((line.len() - trimmed.len(), String::new()));
            }
            None => {}
            Some(_) if trimmed.starts_with("```") => found.push(current.take().unwrap().1),
            Some((indent, text)) => {
                text.push_str(line.get(*indent..).unwrap_or(line.trim_start()));
                text.push('\n');
            }
        }
    }
    found
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("take5-readme-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Runs take5 with `args` from the repository's root.
fn take5(args: &[String]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_take5"))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap()
}

fn succeeds(output: &Output, what: &str) -> String {
    assert!(
        output.status.success(),
        "{what}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).to_string()
}

/// Every `take5 play` / `cargo run --release -- play` command shown runs (the bot commands
/// quoted in it as a shell would split them).
#[test]
fn the_play_commands_run() {
    let mut ran = 0;
    for block in blocks("sh") {
        for line in block.lines() {
            let command = line.split(" #").next().unwrap().trim();
            let Some(args) = command
                .strip_prefix("cargo run --release -- ")
                .or_else(|| command.strip_prefix("take5 "))
            else {
                continue;
            };
            // The synopsis line is not a command to run.
            if !args.starts_with("play") || args.contains("SPEC") {
                continue;
            }
            let mut args = shlex::split(args).expect("a command a shell could split");
            if !args.iter().any(|a| a == "--seed") {
                args.extend(["--seed".to_string(), "1".to_string()]);
            }
            let out = succeeds(&take5(&args), command);
            assert!(out.contains("mean penalty"), "{command}: {out}");
            ran += 1;
        }
    }
    assert!(ran >= 3, "only {ran} play commands found");
}

#[test]
fn the_deal_file_example_deals_its_cards() {
    let deal = &blocks("yaml")[0];
    let path = temp("deal.yaml");
    std::fs::write(&path, deal).unwrap();
    let record = temp("deal.jsonl");
    let args: Vec<String> = [
        "play",
        "--player",
        "builtin:lowest",
        "--player",
        "builtin:dodger",
        "--seed",
        "1",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain(["--deal".into(), path.display().to_string()])
    .chain(["--record".into(), record.display().to_string()])
    .collect();
    succeeds(&take5(&args), "the deal file");
    let text = std::fs::read_to_string(&record).unwrap();
    let first_deal: serde_json::Value = serde_json::from_str(text.lines().nth(1).unwrap()).unwrap();
    assert_eq!(first_deal["hands"][0][0], 1);
    assert_eq!(first_deal["rows"], serde_json::json!([101, 102, 103, 104]));
}

#[test]
fn the_house_script_example_plays() {
    let script = &blocks("lua")[0];
    let path = temp("house.lua");
    std::fs::write(&path, script).unwrap();
    let args: Vec<String> = [
        "play",
        "--player",
        "builtin:random",
        "--player",
        "builtin:dodger",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain(["--house".into(), path.display().to_string()])
    .chain(["--seed".into(), "3".into()])
    .collect();
    succeeds(&take5(&args), "the house script");
}
