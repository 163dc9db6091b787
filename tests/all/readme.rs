//! The README's examples stay true: its commands run, its deal file deals, its house script
//! loads and plays. (Its bot transcript is checked in tests/protocol_doc.rs.)

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const README: &str = include_str!("../../README.md");

/// The README's fenced blocks of `language`.
fn blocks(language: &str) -> Vec<String> {
    crate::common::blocks_of(README, language)
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

/// The commands of the README's "On a fresh machine" section, in order.
fn fresh_machine_commands() -> Vec<String> {
    let start = README.find("## On a fresh machine").expect("the section");
    let section = &README[start..];
    let end = section[3..]
        .find("\n## ")
        .map_or(section.len(), |at| at + 3);
    let section = &section[..end];
    let mut commands = Vec::new();
    let mut in_block = false;
    for line in section.lines() {
        match line.trim() {
            "```sh" => in_block = true,
            "```" => in_block = false,
            command if in_block && !command.is_empty() => {
                commands.push(command.split(" #").next().unwrap().trim().to_string())
            }
            _ => {}
        }
    }
    commands
}

/// A new user's first minutes, from a clean clone of the repository (its committed files) with
/// only the README's commands: `cargo install` puts take5 on the PATH (here into a folder of
/// its own with `--root`), a match runs, `take5 selftest` passes the Python kit's example bot.
/// The README's test command is `cargo test`, the command running this test: it is checked to
/// be that, not run again from inside itself. The install is a release build (slow): run it
/// with `cargo test --test all -- --ignored`; CI runs it (.ci/run).
#[test]
#[ignore = "a release build of a clean clone; CI runs it with --ignored"]
fn a_new_user_gets_take5_on_the_path_and_plays_and_tests_a_bot_with_the_readmes_commands() {
    let commands = fresh_machine_commands();
    let first_block: Vec<&String> = commands.iter().take(4).collect();
    assert!(first_block[0].starts_with("cargo install "), "{commands:?}");
    assert!(first_block[1].starts_with("take5 play "), "{commands:?}");
    assert_eq!(first_block[2], "cargo test", "{commands:?}");
    assert!(
        first_block[3].starts_with("take5 selftest "),
        "{commands:?}"
    );
    assert!(
        first_block[3].contains("sdk/python/example_bot.py"),
        "{commands:?}"
    );

    let work = std::env::temp_dir().join(format!("take5-new-user-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let clone = work.join("take5");
    let cloned = Command::new("git")
        .args(["clone", "--quiet"])
        .arg(root())
        .arg(&clone)
        .output()
        .unwrap();
    assert!(
        cloned.status.success(),
        "{}",
        String::from_utf8_lossy(&cloned.stderr)
    );
    let bin = work.join("root").join("bin");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for command in &commands {
        let mut words = shlex::split(command).expect("a command a shell could split");
        if command == "cargo test" {
            continue;
        }
        // Only the commands of the install, a match and the self-test: the completions and the
        // man page write into the user's home.
        if words.iter().any(|w| w.starts_with('>')) || command.contains('>') {
            continue;
        }
        if words[0] == "cargo" && words[1] == "install" {
            words.extend([
                "--root".to_string(),
                work.join("root").display().to_string(),
            ]);
        }
        let mut run = Command::new(&words[0]);
        run.args(&words[1..])
            .current_dir(&clone)
            .env("PATH", &path)
            // A target folder of the clone's own, not the one this test runs from.
            .env_remove("CARGO_TARGET_DIR");
        let output = run.output().unwrap();
        let out = succeeds(&output, command);
        if words[0] == "take5" && words[1] == "play" {
            assert!(out.contains("mean penalty"), "{command}: {out}");
        }
        if words[0] == "take5" && words[1] == "selftest" {
            assert!(out.contains("result: PASS"), "{command}: {out}");
        }
        if words[0] == "cargo" {
            assert!(
                bin.join("take5").exists(),
                "{command} put take5 into {}",
                bin.display()
            );
        }
    }
    let _ = std::fs::remove_dir_all(&work);
}
