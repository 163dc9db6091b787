//! Every example script of scripts/house through `take5 play --house`, and how records name a
//! script (path relative to the record, SHA-256) so `take5 verify` can load it again.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use take5::house::{self, House};
use take5::record::Line;

fn take5(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_take5"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("play")
        .args(args)
        .output()
        .expect("take5 runs")
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("take5-house-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

const FOUR: [&str; 8] = [
    "-p",
    "builtin:random",
    "-p",
    "builtin:dodger",
    "-p",
    "builtin:lowest",
    "-p",
    "builtin:highest",
];

/// The example scripts for `variant`: scripts/house/*.lua are classic's, the other variants'
/// are in scripts/house/VARIANT/.
fn scripts_of(variant: &str) -> Vec<PathBuf> {
    let mut dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/house");
    if variant != "classic" {
        dir.push(variant);
    }
    let mut scripts: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "lua"))
        .collect();
    scripts.sort();
    scripts
}

fn header(record: &Path) -> take5::record::Header {
    let text = std::fs::read_to_string(record).unwrap();
    match Line::parse(text.lines().next().unwrap(), 1).unwrap() {
        Line::Game(header) => *header,
        other => panic!("not a header: {other:?}"),
    }
}

/// Every example script of every variant plays a recorded match of its variant, and the record
/// verifies.
#[test]
fn every_example_script_plays_a_match_that_verifies() {
    let counts = [
        ("classic", 7),
        ("pro", 4),
        ("take-a-number", 4),
        ("circle", 5),
        ("anniversary", 5),
    ];
    for (variant, count) in counts {
        let scripts = scripts_of(variant);
        assert_eq!(scripts.len(), count, "{variant}: {scripts:?}");
        for script in scripts {
            let root = Path::new(env!("CARGO_MANIFEST_DIR"));
            let name = script
                .strip_prefix(root)
                .unwrap()
                .to_str()
                .unwrap()
                .to_string();
            let record = temp(&format!(
                "{variant}-{}.jsonl",
                script.file_stem().unwrap().to_str().unwrap()
            ));
            let mut args = FOUR.to_vec();
            args.extend([
                "--variant",
                variant,
                "--seed",
                "5",
                "--games",
                "4",
                "--quiet",
            ]);
            args.extend(["--house", &name, "--record", record.to_str().unwrap()]);
            let output = take5(&args);
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(output.status.success(), "{name}: {stderr}");
            assert!(stderr.is_empty(), "{name}: {stderr}");
            let stdout = String::from_utf8_lossy(&output.stdout);
            assert!(stdout.contains("seed 5: 4 games"), "{name}: {stdout}");
            let verified = verify(&record);
            assert!(verified.status.success(), "{name}: {verified:?}");
        }
    }
}

#[test]
fn the_same_seed_and_script_give_the_same_record() {
    let (a, b) = (temp("moon-a.jsonl"), temp("moon-b.jsonl"));
    for record in [&a, &b] {
        let mut args = FOUR.to_vec();
        let record = record.to_str().unwrap();
        args.extend([
            "--seed",
            "9",
            "--games",
            "4",
            "--house",
            "scripts/house/shoot_the_moon.lua",
        ]);
        args.extend(["--record", record]);
        assert!(take5(&args).status.success());
    }
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
}

#[test]
fn records_name_the_script_relative_to_themselves_with_its_hash() {
    let record = temp("named.jsonl");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/house/cheapest_row.lua");
    let mut args = FOUR.to_vec();
    args.extend(["--seed", "2", "--house", "scripts/house/cheapest_row.lua"]);
    args.extend(["--record", record.to_str().unwrap()]);
    assert!(take5(&args).status.success());
    let named = header(&record).house.expect("the header names the script");
    assert!(!named.path.starts_with('/'), "{}", named.path);
    assert!(
        named.path.ends_with("scripts/house/cheapest_row.lua"),
        "{}",
        named.path
    );
    assert_eq!(named.sha256, House::load(&script).unwrap().sha256());
    // `take5 verify` finds it from the record's folder and checks the hash.
    let folder = record.parent().unwrap();
    let house = house::load_for_record(&named, folder).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(house.hooks(), ["low_card"]);
    let mut changed = named.clone();
    changed.sha256 = "0".repeat(64);
    let error = house::load_for_record(&changed, folder)
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("the script is not the one the record was played with"),
        "{error}"
    );
}

#[test]
fn records_without_house_rules_have_no_house_field() {
    let record = temp("plain.jsonl");
    let mut args = FOUR.to_vec();
    args.extend(["--seed", "2", "--record", record.to_str().unwrap()]);
    assert!(take5(&args).status.success());
    let first = std::fs::read_to_string(&record).unwrap();
    assert!(!first.lines().next().unwrap().contains("house"));
    assert!(header(&record).house.is_none());
}

#[test]
fn a_script_that_does_not_fit_the_players_is_named() {
    let mut args = FOUR.to_vec();
    args.extend(["-p", "builtin:random"].repeat(6));
    args.extend(["--house", "scripts/house/five_rows.lua"]);
    let output = take5(&args);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "take5: rule setting `players`: 10 players asked for, the rules allow 2 to 9 (with the \
         house rules of scripts/house/five_rows.lua)\n"
    );
}

#[test]
fn a_bad_setting_is_named() {
    let script = temp("zero_rows.lua");
    std::fs::write(&script, "return {\n  rows = 0,\n}\n").unwrap();
    let mut args = FOUR.to_vec();
    args.extend(["--house", script.to_str().unwrap()]);
    let output = take5(&args);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.ends_with("zero_rows.lua:2: setting rows: must be at least 1, got 0\n"),
        "{stderr}"
    );
}

fn verify(record: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_take5"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("verify")
        .arg(record)
        .output()
        .expect("take5 runs")
}

/// A fresh folder under the temp folder.
fn folder(name: &str) -> PathBuf {
    let dir = temp(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn records_of_every_example_script_verify() {
    let dir = folder("verify-examples");
    for script in scripts_of("classic") {
        let name = script.file_name().unwrap().to_str().unwrap();
        let record = dir.join(format!("{name}.jsonl"));
        let house = format!("scripts/house/{name}");
        let mut args = FOUR.to_vec();
        args.extend(["--seed", "11", "--games", "3", "--quiet", "--house", &house]);
        args.extend(["--record", record.to_str().unwrap()]);
        let output = take5(&args);
        assert!(output.status.success(), "{name}: {output:?}");
        // The record names the script from its own folder, across folders.
        assert!(
            header(&record).house.unwrap().path.starts_with("../"),
            "{name}"
        );
        let output = verify(&record);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{name}: {stdout}");
        assert!(
            stdout.starts_with("OK ") && stdout.contains("  3 games, "),
            "{stdout}"
        );
    }
}

#[test]
fn a_record_moves_with_its_script_and_holds_only_for_that_text() {
    let dir = folder("verify-moved");
    let played = dir.join("played");
    std::fs::create_dir_all(&played).unwrap();
    let script = played.join("moon.lua");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/house/shoot_the_moon.lua"),
        &script,
    )
    .unwrap();
    let record = played.join("games.jsonl");
    let mut args = FOUR.to_vec();
    args.extend(["--seed", "4", "--games", "2", "--quiet"]);
    args.extend(["--house", script.to_str().unwrap()]);
    args.extend(["--record", record.to_str().unwrap()]);
    assert!(take5(&args).status.success());
    assert_eq!(header(&record).house.unwrap().path, "moon.lua");

    // The folder moves: the record still finds its script.
    let moved = dir.join("moved");
    std::fs::rename(&played, &moved).unwrap();
    let record = moved.join("games.jsonl");
    let output = verify(&record);
    assert!(output.status.success(), "{output:?}");

    // The script is edited afterwards (a comment is enough): the record no longer holds.
    let script = moved.join("moon.lua");
    let mut text = std::fs::read_to_string(&script).unwrap();
    text.push_str("-- edited\n");
    std::fs::write(&script, text).unwrap();
    let output = verify(&record);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    // An error about take5's input, on stderr.
    let stderr = String::from_utf8_lossy(&output.stderr);
    let expected = format!(
        "take5: {}:1: the house rule script of the header (moon.lua) cannot be used: {}: the \
         script is not the one the record was played with: its sha256 differs from the record's",
        record.display(),
        moved.join("moon.lua").display()
    );
    assert!(stderr.starts_with(&expected), "{stderr}");

    // Without the script, the record cannot be checked either.
    std::fs::remove_file(&script).unwrap();
    let output = verify(&record);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(
            ":1: the house rule script of the header (moon.lua) cannot be used: cannot read "
        ),
        "{stderr}"
    );
}

#[test]
fn a_header_whose_rules_are_not_the_scripts_is_wrong() {
    let dir = folder("verify-rules");
    let record = dir.join("seven.jsonl");
    let mut args = FOUR.to_vec();
    args.extend(["--seed", "4", "--quiet"]);
    args.extend(["--house", "scripts/house/seven_nimmt.lua"]);
    args.extend(["--record", record.to_str().unwrap()]);
    assert!(take5(&args).status.success());
    let text = std::fs::read_to_string(&record).unwrap();
    assert!(text.contains("\"row_capacity\":6"));
    std::fs::write(
        &record,
        text.replacen("\"row_capacity\":6", "\"row_capacity\":5", 1),
    )
    .unwrap();
    let output = verify(&record);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.starts_with(&format!("{}:1: ", record.display())),
        "{stdout}"
    );
    assert!(
        stdout.ends_with("scripts/house/seven_nimmt.lua): row_capacity differs\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains(": the header's rules are not those of its house rule script ("),
        "{stdout}"
    );
}

/// `take5 tournament --house` plays every variant with its example scripts.
#[test]
fn a_tournament_plays_every_variant_with_house_rules() {
    for (variant, script) in [
        ("pro", "scripts/house/pro/short_game.lua"),
        (
            "take-a-number",
            "scripts/house/take-a-number/single_cards_free.lua",
        ),
        ("circle", "scripts/house/circle/red_costs_double.lua"),
        ("anniversary", "scripts/house/anniversary/capped_rounds.lua"),
    ] {
        let results = temp(&format!("tournament-{variant}.jsonl"));
        let _ = std::fs::remove_file(&results);
        let output = Command::new(env!("CARGO_BIN_EXE_take5"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args([
                "tournament",
                "--bot",
                "a=builtin:random",
                "--bot",
                "b=builtin:dodger",
            ])
            .args(["--bot", "c=builtin:lowest", "--seats", "3", "--seed", "8"])
            .args([
                "--tables",
                "round-robin",
                "--variant",
                variant,
                "--house",
                script,
            ])
            .args(["--results", results.to_str().unwrap()])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{variant}: {stderr}");
        let text = std::fs::read_to_string(&results).unwrap();
        assert!(text.lines().count() >= 3, "{variant}: {text}");
    }
}
