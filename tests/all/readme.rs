//! The README's examples stay true: every shell example runs, in order, as a reader would run
//! them; its house script loads and plays; a new user's first commands work from a clean clone.
//! (Its bot transcript is checked in tests/all/protocol_doc.rs.)

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

fn succeeds(output: &Output, what: &str) -> String {
    assert!(
        output.status.success(),
        "{what}: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).to_string()
}

/// A folder where the examples run as in a clone of the repository (its folders linked in),
/// with `take5` on the PATH and a home of its own (the completions example writes there).
fn sandbox() -> PathBuf {
    let dir = crate::common::temp("readme-sandbox");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for folder in ["fixtures", "scripts", "sdk", "docs", "tests"] {
        std::os::unix::fs::symlink(root().join(folder), dir.join(folder)).unwrap();
    }
    dir
}

/// Every ```sh block of the README runs with `sh -e` in one sandbox, in the order of the page
/// (later examples use the files earlier ones wrote), except the fresh machine's install and
/// test commands, which `a_new_user_...` runs from a clean clone. A page written to an `.html`
/// file is an HTML page, and a match prints its summary.
#[test]
fn every_shell_example_runs_in_order() {
    let dir = sandbox();
    let bin = Path::new(env!("CARGO_BIN_EXE_take5")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = 0;
    for block in blocks("sh") {
        if block.lines().any(|line| line.starts_with("cargo ")) {
            continue;
        }
        let output = Command::new("sh")
            .args(["-e", "-c", &block])
            .current_dir(&dir)
            .env("PATH", &path)
            .env("HOME", &dir)
            .output()
            .unwrap();
        let printed = succeeds(&output, &block);
        if block.starts_with("take5 play ") {
            assert!(printed.contains("mean "), "{block}: {printed}");
        }
        for line in block.lines() {
            let written = line.split(" #").next().unwrap().split_once(" > ");
            if let Some((_, file)) = written.filter(|(_, file)| file.trim().ends_with(".html")) {
                let page = std::fs::read_to_string(dir.join(file.trim())).unwrap();
                assert!(page.starts_with("<!DOCTYPE html>"), "{line}");
            }
        }
        ran += block.lines().filter(|l| l.starts_with("take5 ")).count();
    }
    assert!(ran >= 15, "only {ran} commands found");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_house_script_example_plays() {
    let script = &blocks("lua")[0];
    let path = crate::common::temp("house.lua");
    std::fs::write(&path, script).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_take5"))
        .args([
            "play",
            "--player",
            "builtin:random",
            "--player",
            "builtin:dodger",
        ])
        .arg("--house")
        .arg(&path)
        .args(["--seed", "3"])
        .current_dir(root())
        .output()
        .unwrap();
    succeeds(&output, "the house script");
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
        // The tests are the command running this one; the folders made for the completions
        // are in the user's home.
        if command == "cargo test" || !matches!(words[0].as_str(), "cargo" | "take5") {
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
            assert!(out.contains("mean total"), "{command}: {out}");
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
