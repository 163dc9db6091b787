//! `take5 stats --ratings`: the rating list over the results of several tournaments, set beside
//! scripts/ratings_reference.py, a separate Python computation of the same model.

use crate::common;

use common::{ok, take5};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Plays a tournament from flags into `DIR/NAME.jsonl` (its path).
fn play(dir: &Path, name: &str, flags: &[&str]) -> PathBuf {
    let results = dir.join(format!("{name}.jsonl"));
    let _ = std::fs::remove_file(&results);
    let mut args = vec!["tournament"];
    args.extend_from_slice(flags);
    args.extend(["--results", results.to_str().unwrap(), "--jobs", "2"]);
    ok(&take5(&args));
    results
}

const ROUND_ROBIN: &[&str] = common::ROUND_ROBIN_OF_FOUR;

/// Three tournaments sharing bots, with other pools, seats, formats and seeds: a round robin at
/// three seats, a gauntlet of random at two (level games happen), four at one table.
fn three_tournaments(dir: &Path) -> [PathBuf; 3] {
    let gauntlet = [
        "--bot",
        "dodger=builtin:dodger",
        "--bot",
        "random=builtin:random",
        "--bot",
        "lowest=builtin:lowest",
        "--seats",
        "2",
        "--deals",
        "20",
        "--seed",
        "5",
        "--tables",
        "gauntlet:random",
    ];
    let four = [
        "--bot",
        "highest=builtin:highest",
        "--bot",
        "random=builtin:random",
        "--bot",
        "dodger=builtin:dodger",
        "--bot",
        "lowest=builtin:lowest",
        "--seats",
        "4",
        "--deals",
        "8",
        "--seed",
        "99",
        "--tables",
        "round-robin",
    ];
    [
        play(dir, "round-robin", ROUND_ROBIN),
        play(dir, "gauntlet", &gauntlet),
        play(dir, "four", &four),
    ]
}

fn folder(name: &str) -> PathBuf {
    common::fresh_folder(name)
}

fn ratings(files: &[&Path], more: &[&str]) -> Value {
    let mut args = vec!["stats", "--ratings", "--format", "json"];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    args.extend_from_slice(more);
    serde_json::from_str(&ok(&take5(&args))).unwrap()
}

fn bot<'a>(list: &'a Value, name: &str) -> &'a Value {
    list["bots"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == name)
        .unwrap_or_else(|| panic!("no {name} in {list}"))
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap()
}

/// The issue's test: the ratings over three tournaments sharing bots have intervals that hold
/// the values of the reference computation, which agrees with them to a hundredth of an Elo
/// (its interval from finite differences, to a few hundredths).
#[test]
fn the_ratings_of_three_tournaments_hold_the_reference_values() {
    let dir = folder("three");
    let files = three_tournaments(&dir);
    let paths: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    let list = ratings(&paths, &["--anchor", "builtin:random=0"]);
    assert_eq!(list["tournaments"], 3);
    assert_eq!(list["games"], 120 + 80 + 32);
    assert_eq!(list["anchor"]["bot"], "random");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/ratings_reference.py");
    let out = Command::new("python3")
        .arg(&script)
        .args(files.iter())
        .args(["--anchor", "random=0"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let reference: Value = serde_json::from_slice(&out.stdout).unwrap();
    let names = ["dodger", "highest", "lowest", "random"];
    assert_eq!(list["bots"].as_array().unwrap().len(), names.len());
    for name in names {
        let (ours, theirs) = (bot(&list, name), &reference[name]);
        let elo = f(&theirs["elo"]);
        assert!(
            f(&ours["elo_low"]) <= elo && elo <= f(&ours["elo_high"]),
            "{name}: {elo} outside {ours}"
        );
        assert!(
            (f(&ours["elo"]) - elo).abs() < 0.01,
            "{name}: {ours} {theirs}"
        );
        for end in ["elo_low", "elo_high"] {
            assert!(
                (f(&ours[end]) - f(&theirs[end])).abs() < 0.05,
                "{name} {end}: {ours} {theirs}"
            );
        }
    }
    // The anchor is where it was put, without an interval; the others are apart from it.
    let random = bot(&list, "random");
    assert_eq!((f(&random["elo"]), f(&random["elo_low"])), (0.0, 0.0));
    assert!(f(&bot(&list, "dodger")["elo_low"]) > 0.0, "{list}");
    // Without an anchor the ratings are about their mean, 0, their differences the same.
    let centred = ratings(&paths, &[]);
    let sum: f64 = names.iter().map(|n| f(&bot(&centred, n)["elo"])).sum();
    assert!(sum.abs() < 1e-6, "{centred}");
    let gap = |l: &Value| f(&bot(l, "dodger")["elo"]) - f(&bot(l, "lowest")["elo"]);
    assert!((gap(&centred) - gap(&list)).abs() < 1e-6);
    let reference_centred = Command::new("python3")
        .arg(&script)
        .args(files.iter())
        .output()
        .unwrap();
    let reference_centred: Value = serde_json::from_slice(&reference_centred.stdout).unwrap();
    for name in names {
        let (ours, theirs) = (bot(&centred, name), &reference_centred[name]);
        for key in ["elo", "elo_low", "elo_high"] {
            assert!(
                (f(&ours[key]) - f(&theirs[key])).abs() < 0.05,
                "{name} {key}: {ours} {theirs}"
            );
        }
    }
}

/// The shards of one tournament are merged (a game given twice counts once), other tournaments
/// add their games: the list is the same as from the whole files. The text and the CSV say the
/// same figures.
#[test]
fn shards_merge_and_the_table_and_csv_say_the_same() {
    let dir = folder("shards");
    let files = three_tournaments(&dir);
    let whole = ratings(
        &files.iter().map(PathBuf::as_path).collect::<Vec<_>>(),
        &["--anchor", "random=0"],
    );
    let shard = |k: &str| {
        let flags: Vec<&str> = ROUND_ROBIN.iter().copied().chain(["--shard", k]).collect();
        play(&dir, &format!("shard-{}", &k[..1]), &flags)
    };
    let (one, two) = (shard("1/2"), shard("2/2"));
    let sharded = ratings(
        &[&one, &files[1], &two, &files[2], &one],
        &["--anchor", "random=0"],
    );
    assert_eq!(sharded["bots"], whole["bots"]);
    assert_eq!(sharded["tournaments"], 3);
    let text = ok(&take5(&[
        "stats",
        "--ratings",
        "--anchor",
        "random=0",
        files[0].to_str().unwrap(),
        files[1].to_str().unwrap(),
        files[2].to_str().unwrap(),
    ]));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "3 tournaments of 3 results files", "{text}");
    assert!(
        lines[1].starts_with("rating list, 232 games: maximum-likelihood Elo (Plackett-Luce"),
        "{text}"
    );
    assert!(lines[1].contains("anchor random = 0"), "{text}");
    assert_eq!(
        lines[2].split_whitespace().collect::<Vec<_>>(),
        ["bot", "games", "elo", "95%", "interval"]
    );
    for (line, b) in lines[3..].iter().zip(whole["bots"].as_array().unwrap()) {
        let cells: Vec<&str> = line.split_whitespace().collect();
        let interval = if b["name"] == "random" {
            "(anchor)".to_string()
        } else {
            format!("[{:+.1}, {:+.1}]", f(&b["elo_low"]), f(&b["elo_high"]))
        };
        assert_eq!(
            cells.join(" "),
            format!(
                "{} {} {:+.1} {interval}",
                b["name"].as_str().unwrap(),
                b["games"],
                f(&b["elo"])
            )
        );
    }
    let csv = ok(&take5(&[
        "stats",
        "--ratings",
        "--format",
        "csv",
        files[0].to_str().unwrap(),
    ]));
    assert!(csv.starts_with("bot,games,elo,elo_low,elo_high\n"), "{csv}");
    assert_eq!(csv.lines().count(), 5, "{csv}");
}

#[test]
fn a_name_for_two_players_an_unknown_anchor_and_an_unbounded_list_are_refused() {
    let dir = folder("refused");
    let first = play(&dir, "first", ROUND_ROBIN);
    let renamed = play(
        &dir,
        "renamed",
        &[
            "--bot",
            "random=builtin:lowest",
            "--bot",
            "dodger=builtin:dodger",
            "--seats",
            "2",
            "--seed",
            "3",
            "--tables",
            "round-robin",
        ],
    );
    let refused = |args: &[&str]| {
        let out = take5(args);
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        String::from_utf8(out.stderr).unwrap()
    };
    let (a, b) = (first.to_str().unwrap(), renamed.to_str().unwrap());
    let err = refused(&["stats", "--ratings", a, b]);
    assert!(
        err.contains("a rating list knows a bot by its name, but `random` is `builtin:random` in")
            && err.contains("and `builtin:lowest` in"),
        "{err}"
    );
    let err = refused(&["stats", "--ratings", a, "--anchor", "builtin:mcs=0"]);
    assert!(
        err.contains("--anchor: no bot named `builtin:mcs`, nor playing it, in the results"),
        "{err}"
    );
    let err = refused(&["stats", a, "--anchor", "random=0"]);
    assert!(
        err.contains("--anchor fixes a bot of the rating list"),
        "{err}"
    );
    let err = refused(&["stats", "--ratings", a, "--anchor", "random=x"]);
    assert!(err.contains("`x` is not a finite number of Elo"), "{err}");
    // Two games (results lines without a header) that dodger won: nothing bounds its rating.
    let won = dir.join("won.jsonl");
    let line = |game: u32, seating: &str, ranks: &str| {
        format!(
            "{{\"game\":{game},\"table\":0,\"deal\":0,\"rotation\":{game},\"seating\":{seating},\"totals\":[0,0],\"ranks\":{ranks},\"winners\":[0],\"faults\":[]}}\n"
        )
    };
    let text =
        line(0, r#"["dodger","lowest"]"#, "[1,2]") + &line(1, r#"["lowest","dodger"]"#, "[2,1]");
    std::fs::write(&won, text).unwrap();
    let err = refused(&["stats", "--ratings", won.to_str().unwrap()]);
    assert!(
        err.contains(
            "no maximum-likelihood ratings: dodger never finished behind (or level with) lowest in the games given"
        ),
        "{err}"
    );
}

/// The worked example of docs/tournaments.md: the rating list of the example round robin.
#[test]
fn the_rating_list_example_of_the_docs_holds() {
    let page =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/tournaments.md"))
            .unwrap();
    let dir = folder("docs");
    std::fs::write(
        dir.join("tournament.yaml"),
        common::doc_block(&page, "yaml example"),
    )
    .unwrap();
    let results = dir.join("example.jsonl");
    ok(&take5(&[
        "tournament",
        dir.join("tournament.yaml").to_str().unwrap(),
        "--results",
        results.to_str().unwrap(),
    ]));
    let command = common::doc_block(&page, "sh example-ratings-command");
    let words: Vec<String> = shlex::split(command.trim())
        .unwrap()
        .into_iter()
        .map(|w| {
            if w == "example.jsonl" {
                results.to_str().unwrap().to_string()
            } else {
                w
            }
        })
        .collect();
    assert_eq!(words[0], "take5");
    let words: Vec<&str> = words[1..].iter().map(String::as_str).collect();
    assert_eq!(
        ok(&take5(&words)),
        common::doc_block(&page, "text example-ratings")
    );
}
