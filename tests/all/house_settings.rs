//! The variants' own house rule settings (docs/house-rules.md, "Settings per variant"): the
//! docs' defaults and examples, the errors, the refusal of another variant's setting, and
//! records that carry the settings through `take5 verify`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use take5::house::House;
use take5::record::Line;
use take5::variants::Variant;

fn variants() -> &'static [Variant] {
    <Variant as clap::ValueEnum>::value_variants()
}

/// Three built-in players, as `take5 play` flags.
const THREE: &str = "-p builtin:random -p builtin:dodger -p builtin:lowest";

/// Each variant's own settings, with a value that works for it.
const OWN: [(Variant, &str, &str); 13] = [
    (Variant::TakeANumber, "takes_at", "{3, 4, 5, 6}"),
    (Variant::TakeANumber, "hash_pile_multiplier", "3"),
    (Variant::Anniversary, "specials", "{shift = 0}"),
    (Variant::Anniversary, "specials_dealt", "2"),
    (Variant::Anniversary, "swapping", "false"),
    (
        Variant::Circle,
        "deal",
        "{[2] = {hand_size = 10, rows = 5}}",
    ),
    (Variant::Circle, "cards_per_turn", "2"),
    (Variant::Circle, "plus5_points", "10"),
    (Variant::Circle, "x2_multiplier", "3"),
    (Variant::Circle, "held_penalty", "20"),
    (Variant::Circle, "green_multiplier", "2"),
    (Variant::Circle, "red_multiplier", "2"),
    (Variant::Pro, "pro_deck", "{per_player = 12}"),
];

fn take5(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_take5"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("take5 runs")
}

fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("take5-settings-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn load(variant: Variant, text: &str) -> Result<House, String> {
    House::from_source("test.lua", text.as_bytes(), variant.rules()).map_err(|e| e.message)
}

fn doc() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/house-rules.md");
    std::fs::read_to_string(path).unwrap()
}

/// The text of the docs' "Settings per variant" section.
fn section() -> String {
    let doc = doc();
    let start = doc
        .find("## Settings per variant\n")
        .expect("the section exists");
    let rest = &doc[start + 3..];
    let end = rest.find("\n## ").map_or(rest.len(), |e| e + 1);
    rest[..end].to_string()
}

/// The code blocks of `kind` (`lua`, `text`) in `text`.
fn blocks(text: &str, kind: &str) -> Vec<String> {
    crate::common::blocks_of(text, kind)
}

fn variant_named(name: &str) -> Variant {
    *variants()
        .iter()
        .find(|v| v.name() == name)
        .unwrap_or_else(|| panic!("no variant {name}"))
}

/// Every row of the section's table gives, as its default, the value the variant plays with:
/// a script giving that value leaves the variant's rules as they are.
#[test]
fn the_documented_defaults_are_the_variants() {
    let section = section();
    let rows: Vec<Vec<&str>> = section
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| variant") && !l.starts_with("| ---"))
        .map(|l| l.trim_matches('|').split(" | ").map(str::trim).collect())
        .collect();
    let documented: Vec<(Variant, &str)> = rows
        .iter()
        .map(|r| (variant_named(r[0]), r[1].trim_matches('`')))
        .collect();
    let own: Vec<(Variant, &str)> = OWN.iter().map(|&(v, s, _)| (v, s)).collect();
    assert_eq!(documented, own, "the table lists every own setting once");
    for row in &rows {
        let variant = variant_named(row[0]);
        let setting = row[1].trim_matches('`');
        let default = row[3].split('`').nth(1).expect("a value in backticks");
        let script = format!("return {{ {setting} = {default} }}");
        let house = load(variant, &script).unwrap_or_else(|e| panic!("{script}: {e}"));
        assert_eq!(
            house.rules(),
            &variant.rules(),
            "{}: {script} changes the rules",
            variant.name()
        );
    }
}

/// Every ```lua example of the section names its variant on its first line; it plays a
/// recorded game of that variant between built-in bots, changes the variant's rules (the
/// record's header carries them), and the record verifies.
#[test]
fn the_documented_examples_play_and_verify() {
    let dir = folder("examples");
    let examples = blocks(&section(), "lua");
    assert!(examples.len() >= 4, "{} examples", examples.len());
    for (i, text) in examples.iter().enumerate() {
        let first = text.lines().next().unwrap();
        let name = first
            .strip_prefix("-- --variant ")
            .and_then(|rest| rest.split(':').next())
            .unwrap_or_else(|| panic!("the first line names no variant: {first}"));
        let variant = variant_named(name);
        let script = format!("example{i}.lua");
        std::fs::write(dir.join(&script), text).unwrap();
        let record = format!("example{i}.jsonl");
        let mut args = vec!["play", "--variant", name, "--house", &script, "--seed", "3"];
        args.extend(["--games", "3", "--quiet", "--record", &record]);
        args.extend(THREE.split(' '));
        let output = take5(&args, &dir);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{name}: {stderr}");
        let header = std::fs::read_to_string(dir.join(&record)).unwrap();
        let Line::Game(header) = Line::parse(header.lines().next().unwrap(), 1).unwrap() else {
            panic!("no header");
        };
        assert_ne!(
            header.rules,
            variant.rules().at_table(3),
            "{name}: the example changes nothing"
        );
        let verified = take5(&["verify", &record], &dir);
        let stdout = String::from_utf8_lossy(&verified.stdout);
        assert!(verified.status.success(), "{name}: {stdout}");
        assert!(stdout.starts_with("OK "), "{name}: {stdout}");
    }
}

/// The section's ```text blocks are what take5 says for the scripts they name.
#[test]
fn the_documented_errors_are_take5s() {
    let dir = folder("errors");
    let scripts = [
        ("even_rows.lua", "classic", "takes_at = {4, 4, 4}"),
        ("rows.lua", "take-a-number", "takes_at = {3, 1}"),
        ("deck.lua", "pro", "pro_deck = {per_player = 9}"),
        ("kinds.lua", "anniversary", "specials = {x2 = 1}"),
    ];
    let expected: Vec<String> = blocks(&section(), "text")
        .iter()
        .flat_map(|b| b.lines().map(str::to_string).collect::<Vec<_>>())
        .collect();
    let mut said = Vec::new();
    for (name, variant, settings) in scripts {
        std::fs::write(dir.join(name), format!("return {{ {settings} }}\n")).unwrap();
        let args = [
            "play",
            "--variant",
            variant,
            "--house",
            name,
            "-p",
            "builtin:random",
            "-p",
            "builtin:random",
        ];
        let output = take5(&args, &dir);
        assert_eq!(output.status.code(), Some(2), "{name}");
        said.push(
            String::from_utf8_lossy(&output.stderr)
                .trim_end()
                .to_string(),
        );
    }
    assert_eq!(said, expected);
}

/// A variant's own setting in a script for another variant is refused, naming the setting and
/// the variant.
#[test]
fn another_variants_setting_is_refused_with_its_name_and_the_variant() {
    for (owner, setting, value) in OWN {
        for &variant in variants() {
            let script = format!("return {{ {setting} = {value} }}");
            let checked = load(variant, &script).and_then(|h| h.check_variant(variant));
            if variant == owner {
                assert!(checked.is_ok(), "{}: {script}: {checked:?}", variant.name());
            } else {
                let why = checked.expect_err(&script);
                let named = format!(
                    "setting {setting} is not a setting of the {} variant: it is ",
                    variant.name()
                );
                assert!(why.contains(&named), "{why}");
            }
        }
    }
}

/// Bad values are named with the script and the setting, and say what is wanted.
#[test]
fn bad_values_are_named() {
    use Variant::*;
    let cases = [
        (
            TakeANumber,
            "takes_at = 3",
            "setting takes_at: must be a list like {3, 4, 5}",
        ),
        (
            TakeANumber,
            "takes_at = {}",
            "setting takes_at: must be a non-empty list",
        ),
        (
            TakeANumber,
            "rows = 4, takes_at = {3, 4, 5, 6}",
            "settings rows and takes_at: give takes_at alone",
        ),
        (
            TakeANumber,
            "hash_pile_multiplier = -1",
            "setting hash_pile_multiplier: must be at least 0, got -1",
        ),
        (
            Anniversary,
            "specials = {shift = 1.5}",
            "setting specials: shift must be a whole number, got 1.5",
        ),
        (
            Anniversary,
            "specials_dealt = 40",
            "setting specials_dealt: 40 special cards dealt to each seat, the special deck has 28",
        ),
        (
            Anniversary,
            "swapping = 1",
            "setting swapping: must be true or false, got 1",
        ),
        (
            Circle,
            "deal = {[7] = {hand_size = 9}}",
            "setting deal: [7] gives no hand_size or rows, and the circle game has no deal for 7 \
             players to keep them from",
        ),
        (
            Circle,
            "deal = {[2] = {cards = 9}}",
            "setting deal: [2]: unknown field \"cards\" (a deal has hand_size and rows)",
        ),
        (
            Circle,
            "cards_per_turn = 0",
            "setting cards_per_turn: must be at least 1, got 0",
        ),
        (
            Circle,
            "red_multiplier = 'double'",
            "setting red_multiplier: must be a whole number, got \"double\"",
        ),
        (
            Pro,
            "pro_deck = {per_player = 20}",
            "pro_deck: 6 players need a deck of 124 cards, the deck has 104",
        ),
        (
            Pro,
            "pro_deck = {size = 20}",
            "setting pro_deck: unknown field \"size\" (pro_deck has per_player and extra)",
        ),
    ];
    for (variant, settings, expected) in cases {
        let script = format!("return {{ {settings} }}");
        let error = load(variant, &script).expect_err(&script);
        // The line of the setting, unless the problem is between two settings.
        let located = error.starts_with("test.lua:1: setting ");
        assert!(
            located || error.starts_with("test.lua: settings "),
            "{error}"
        );
        assert!(error.contains(expected), "{script}: {error}");
    }
    // `swap` is the anniversary's hook: a yes or no there is pointed to the setting.
    let error = load(Variant::Anniversary, "return { swap = false }").unwrap_err();
    assert_eq!(
        error,
        "test.lua: hook swap must be a function, got false (to allow or forbid \
         swaps, give the setting `swapping`)"
    );
}

/// Settings change what the engine does: what the rules say is what the variants read.
#[test]
fn the_settings_reach_the_rules() {
    let number = load(Variant::TakeANumber, "return { takes_at = {2, 6} }").unwrap();
    let rules = number.rules();
    assert_eq!((rules.rows, rules.row_capacity), (2, 5));
    assert_eq!(rules.takes_at(), [2, 6]);
    assert_eq!(
        take5::variants::take_a_number::row_capacities(rules),
        [1, 5]
    );
    let circle = load(
        Variant::Circle,
        "return { deal = {[2] = {rows = 5}, [7] = {hand_size = 8, rows = 15}} }",
    )
    .unwrap();
    assert_eq!(circle.rules().deal_size(2), (14, 5));
    assert_eq!(circle.rules().deal_size(7), (8, 15));
    let anniversary = load(
        Variant::Anniversary,
        "return { specials = {shift = 0, stop = 6} }",
    )
    .unwrap();
    let own = anniversary.rules().anniversary_rules();
    assert_eq!(own.deck_size(), 26);
    assert_eq!(own.copies(take5::cards::Special::Stop), 6);
    let pro = load(Variant::Pro, "return { pro_deck = {extra = 6} }").unwrap();
    assert_eq!(pro.rules().pro_deck_size(3), 36);
}

/// A record played with a variant's own settings holds only for them: a header whose settings
/// were changed is refused by `take5 verify`, naming them.
#[test]
fn verify_refuses_a_header_whose_own_settings_differ() {
    let dir = folder("verify");
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/house/take-a-number/even_rows.lua");
    let script = script.to_str().unwrap();
    let args = [
        "play",
        "--variant",
        "take-a-number",
        "--house",
        script,
        "--seed",
        "4",
        "--quiet",
        "--record",
        "game.jsonl",
        "-p",
        "builtin:random",
        "-p",
        "builtin:dodger",
    ];
    assert!(take5(&args, &dir).status.success());
    assert!(take5(&["verify", "game.jsonl"], &dir).status.success());
    let record = std::fs::read_to_string(dir.join("game.jsonl")).unwrap();
    let edited = record.replacen(
        "\"hash_pile_multiplier\":3",
        "\"hash_pile_multiplier\":2",
        1,
    );
    assert_ne!(edited, record);
    std::fs::write(dir.join("edited.jsonl"), edited).unwrap();
    let output = take5(&["verify", "edited.jsonl"], &dir);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(!output.status.success(), "{stdout}");
    assert!(stdout.contains("take_a_number differs"), "{stdout}");
}
