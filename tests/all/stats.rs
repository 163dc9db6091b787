//! Paired statistics, the sequential test, `take5 stats` reading files in bounded memory, and the
//! sharded runs of docs/scaling.md, end to end.

use crate::common;

use common::{ok, take5};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn page(name: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("docs")
            .join(name),
    )
    .unwrap()
}

/// A fresh folder for `name`.
fn folder(name: &str) -> PathBuf {
    let dir = common::temp(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

/// A results file's game lines (not its header), by game.
fn sorted_lines(path: &Path) -> Vec<Value> {
    common::game_lines(path).iter().map(|l| json(l)).collect()
}

/// The pair `bot` against `other` of printed JSON statistics.
fn pair<'a>(stats: &'a Value, bot: &str, other: &str) -> &'a Value {
    stats["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["bot"] == bot && p["other"] == other)
        .unwrap_or_else(|| panic!("a pair {bot}, {other}"))
}

#[test]
fn the_paired_example_of_the_docs_holds() {
    let page = page("tournaments.md");
    let dir = folder("paired-example");
    let (_, stats) = play_block(&dir, &page, "yaml example");
    let stats = json(&stats);
    let shown = json(&common::doc_block(&page, "json example-pair"));
    assert_eq!(pair(&stats, "highest", "lowest"), &shown);
    // The worked figures, from the formulas of the page (z the normal 97.5% quantile).
    let z = 1.959963984540054;
    let scores: Vec<(f64, f64)> = shown["deal_scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let x = d["points"].as_f64().unwrap() / d["games"].as_f64().unwrap();
            (x, d["deals"].as_f64().unwrap())
        })
        .collect();
    let n: f64 = scores.iter().map(|s| s.1).sum();
    let score = scores.iter().map(|(x, c)| x * c).sum::<f64>() / n;
    let v = scores
        .iter()
        .map(|(x, c)| c * (x - score) * (x - score))
        .sum::<f64>()
        / n;
    let se = (v / n).sqrt();
    let elo = |s: f64| -400.0 * (1.0 / s - 1.0).log10();
    let (low, high) = (score - z * se, score + z * se);
    // Phi by the erf series, to stay apart from the crate take5 uses.
    let phi = |x: f64| {
        let t = x / 2f64.sqrt();
        let mut term = t;
        let mut sum = t;
        for k in 1..200 {
            term *= -t * t / k as f64;
            sum += term / (2 * k + 1) as f64;
        }
        0.5 * (1.0 + 2.0 / std::f64::consts::PI.sqrt() * sum)
    };
    let math = format!(
        "20 deals: 2 scored 0, 4 scored 1/3, 1 scored 1/2, 5 scored 2/3, 8 scored 1
score = (2*0 + 4/3 + 1/2 + 10/3 + 8) / 20 = {score:.4}
v = {v:.4}, se = sqrt({v:.4} / 20) = {se:.4}
interval {score:.4} ± 1.95996 * {se:.4} = {low:.4} to {high:.4}
elo = -400 log10(1 / {score:.4} - 1) = {:.2}, at the interval's ends {:.2} and {:.2}: [{:+.2}, {:+.2}]
los = Phi(({score:.4} - 0.5) / {se:.4}) = Phi({:.4}) = {:.4}
",
        elo(score),
        elo(low),
        elo(high),
        elo(low),
        elo(high),
        (score - 0.5) / se,
        phi((score - 0.5) / se),
    );
    assert_eq!(math, common::doc_block(&page, "text example-pair-math"));
    let close = |key: &str, x: f64| {
        let got = shown[key].as_f64().unwrap();
        assert!((got - x).abs() < 1e-9, "{key}: {got} != {x}");
    };
    close("score", score);
    close("elo", elo(score));
    close("elo_low", elo(low));
    close("elo_high", elo(high));
    close("los", phi((score - 0.5) / se));
}

/// A gauntlet of dodger against `other` (NAME=PLAYER), two seats, into `DIR/sprt.jsonl`: what
/// it printed.
fn gauntlet(dir: &Path, other: &str, deals: &str, extra: &[&str]) -> String {
    let results = dir.join("sprt.jsonl");
    let mut args = vec![
        "tournament",
        "--bot",
        "dodger=builtin:dodger",
        "--bot",
        other,
        "--seats",
        "2",
        "--deals",
        deals,
        "--seed",
        "7",
        "--tables",
        "gauntlet:dodger",
        "--results",
        results.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    ok(&take5(&args))
}

#[test]
fn the_sprt_accepts_h1_for_dodger_against_random_the_same_whatever_the_jobs_and_on_resume() {
    let mut seen = Vec::new();
    for jobs in ["1", "2"] {
        let dir = folder(&format!("sprt-h1-{jobs}"));
        let stats = json(&gauntlet(
            &dir,
            "random=builtin:random",
            "1000",
            &[
                "--sprt",
                "elo0=0,elo1=50",
                "--jobs",
                jobs,
                "--format",
                "json",
            ],
        ));
        let sprt = stats["sprt"].clone();
        assert_eq!(sprt["decision"], "H1", "{sprt}");
        assert!(sprt["llr"].as_f64().unwrap() >= sprt["upper"].as_f64().unwrap());
        let deals = sprt["pair"]["deals"].as_u64().unwrap();
        assert!(deals < 100, "{deals} deals");
        // The run stopped: with one job, right after the deal that decided (with more, the
        // games under way on the other jobs are finished too).
        let lines = sorted_lines(&dir.join("sprt.jsonl"));
        if jobs == "1" {
            assert_eq!(lines.len() as u64, 2 * deals);
        }
        // Resumed, the test has decided already: nothing more is played.
        let again = json(&gauntlet(
            &dir,
            "random=builtin:random",
            "1000",
            &["--sprt", "elo0=0,elo1=50", "--resume", "--format", "json"],
        ));
        assert_eq!(again["sprt"], sprt);
        assert_eq!(sorted_lines(&dir.join("sprt.jsonl")), lines);
        // take5 stats runs the same test over the file.
        let file = dir.join("sprt.jsonl");
        let stats = json(&ok(&take5(&[
            "stats",
            file.to_str().unwrap(),
            "--format",
            "json",
            "--sprt",
            "elo0=0,elo1=50",
            "--sprt-pair",
            "dodger,random",
        ])));
        assert_eq!(stats["sprt"], sprt);
        // The table has the decision, as docs/tournaments.md shows it, without --sprt-pair (the
        // pool's two bots, as the header names them).
        let table = ok(&take5(&[
            "stats",
            file.to_str().unwrap(),
            "--sprt",
            "elo0=0,elo1=50",
        ]));
        let line = table
            .lines()
            .find(|l| l.starts_with("SPRT "))
            .unwrap_or_else(|| panic!("no SPRT line: {table}"));
        assert_eq!(
            format!("{line}\n"),
            common::doc_block(&page("tournaments.md"), "text example-sprt")
        );
        seen.push(sprt);
    }
    assert_eq!(seen[0], seen[1]);
}

#[test]
fn the_sprt_of_a_bot_against_itself_does_not_accept_h1_and_prints_its_figures() {
    let dir = folder("sprt-self");
    let printed = gauntlet(
        &dir,
        "twin=builtin:dodger",
        "300",
        &["--sprt", "elo0=0,elo1=10"],
    );
    let last = printed
        .lines()
        .find(|l| l.starts_with("SPRT "))
        .unwrap_or_else(|| panic!("no SPRT line: {printed}"));
    assert!(
        last.starts_with("SPRT dodger against twin (elo0 0, elo1 10, alpha 0.05, beta 0.05): "),
        "{last}"
    );
    assert!(
        last.contains("H0 accepted after") || last.contains("no decision after 300 deals"),
        "{last}"
    );
    for part in ["LLR ", "(-2.94, 2.94)", "Elo ", "LOS "] {
        assert!(last.contains(part), "{part}: {last}");
    }
}

#[test]
fn sprt_settings_and_pairs_are_checked() {
    let dir = folder("sprt-bad");
    let results = dir.join("r.jsonl");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "tournament",
            "--bot",
            "a=builtin:dodger",
            "--bot",
            "b=builtin:random",
            "--bot",
            "c=builtin:lowest",
            "--seats",
            "2",
            "--seed",
            "1",
            "--tables",
            "round-robin",
            "--results",
            results.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let out = take5(&args);
        assert_eq!(out.status.code(), Some(2));
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    assert!(run(&["--sprt", "elo0=5,elo1=0"]).contains("elo0 (5) must be below elo1 (0)"));
    assert!(run(&["--sprt", "elo0=0,elo1=1e308"]).contains(
        "elo1 (1e308) must be between -1000 and 1000 (an Elo difference; 1000 is an expected \
         score of 99.7%)"
    ));
    assert!(run(&["--sprt", "elo0=0,elo1=inf"]).contains("elo1: `inf` is not a finite number"));
    assert!(run(&["--sprt", "elo0=0,elo1=5,elo0=1"]).contains("elo0 is given twice"));
    assert!(run(&["--sprt", "elo0=0,elo1=5"]).contains("name the two to test with --sprt-pair"));
    assert!(run(&["--sprt", "elo0=0,elo1=5", "--sprt-pair", "a,z"]).contains("no bot named `z`"));
    assert!(
        run(&[
            "--sprt",
            "elo0=0,elo1=5",
            "--sprt-pair",
            "a,b",
            "--shard",
            "1/2"
        ])
        .contains("does not go with --shard")
    );
}

/// Plays the tournament of block `info` of `page`, written to `DIR/pool.yaml`, into
/// `DIR/whole.jsonl`: its path, and the statistics printed as JSON.
fn play_block(dir: &Path, page: &str, info: &str) -> (PathBuf, String) {
    std::fs::write(dir.join("pool.yaml"), common::doc_block(page, info)).unwrap();
    let whole = dir.join("whole.jsonl");
    let expected = ok(&take5(&[
        "tournament",
        dir.join("pool.yaml").to_str().unwrap(),
        "--results",
        whole.to_str().unwrap(),
        "--format",
        "json",
    ]));
    (whole, expected)
}

/// The small round robin of docs/scaling.md, played once, for the merge tests.
fn example_results(dir: &Path) -> (PathBuf, String) {
    play_block(dir, &page("scaling.md"), "yaml scaling-pool")
}

#[test]
fn stats_merges_files_in_any_order_and_refuses_one_beyond_its_window() {
    let dir = folder("window");
    let (whole, expected) = example_results(&dir);
    let text: Vec<String> = sorted_lines(&whole).iter().map(Value::to_string).collect();
    let lines: Vec<&str> = text.iter().map(String::as_str).collect();
    // The same games backwards in one file, and dealt out to seven small files, one of them
    // with a game of another file repeated, and a last line cut short (dropped).
    let backwards = dir.join("backwards.jsonl");
    let reversed: Vec<&str> = lines.iter().rev().copied().collect();
    std::fs::write(&backwards, reversed.join("\n") + "\n").unwrap();
    let mut small = Vec::new();
    for k in 0..7 {
        let path = dir.join(format!("small-{k}.jsonl"));
        let mut part: Vec<&str> = lines.iter().skip(k).step_by(7).copied().collect();
        if k == 3 {
            part.push(lines[0]);
        }
        let mut text = part.join("\n") + "\n";
        if k == 5 {
            text.push_str(&lines[1][..20]);
        }
        std::fs::write(&path, text).unwrap();
        small.push(path.to_str().unwrap().to_string());
    }
    // The files have no header: the same figures, the tournament not known.
    let mut args = vec!["stats", "--format", "json"];
    args.extend(small.iter().map(String::as_str));
    let merged = ok(&take5(&args));
    assert_eq!(json(&merged)["tournament"], Value::Null);
    assert_eq!(
        common::games_figures(&merged),
        common::games_figures(&expected)
    );
    let window = lines.len().to_string();
    let stats = ok(&take5(&[
        "stats",
        backwards.to_str().unwrap(),
        "--format",
        "json",
        "--window",
        &window,
    ]));
    assert_eq!(
        common::games_figures(&stats),
        common::games_figures(&expected)
    );
    let out = take5(&["stats", backwards.to_str().unwrap(), "--window", "10"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!(
            "backwards.jsonl:11: game {} comes more than 10 lines after its place",
            lines.len() - 11
        )) && err.contains("give a larger --window"),
        "{err}"
    );
}

#[test]
fn four_shards_run_as_processes_merge_to_the_unsharded_run_field_for_field() {
    let dir = folder("scaling");
    let (whole, expected) = example_results(&dir);
    let page = page("scaling.md");
    let has_parallel = Command::new("sh")
        .args(["-c", "parallel --version | grep -q 'GNU parallel'"])
        .status()
        .is_ok_and(|s| s.success());
    let script = common::doc_block(
        &page,
        if has_parallel {
            "sh scaling-parallel"
        } else {
            "sh scaling-xargs"
        },
    );
    let bin = Path::new(env!("CARGO_BIN_EXE_take5")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("sh")
        .args(["-e", "-c", &script])
        .current_dir(&dir)
        .env("PATH", path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The script's last command is the merge: its statistics are the unsharded run's.
    let merged = std::fs::read_to_string(dir.join("merged.json")).unwrap();
    assert_eq!(
        common::unsharded(&merged, &["1/4", "2/4", "3/4", "4/4"]),
        json(&expected)
    );
    // And the shards' games, together, are the unsharded run's games.
    let mut games: Vec<Value> = (1..=4)
        .flat_map(|k| sorted_lines(&dir.join(format!("shard-{k}.jsonl"))))
        .collect();
    games.sort_by_key(|l| l["game"].as_u64().unwrap());
    assert_eq!(games, sorted_lines(&whole));
}

#[test]
fn take5_play_reports_like_a_tournament_in_json_and_as_a_table() {
    let args = [
        "play",
        "-p",
        "builtin:dodger",
        "-p",
        "builtin:random",
        "-p",
        "builtin:random",
        "--games",
        "6",
        "--seed",
        "3",
    ];
    let mut with_json = args.to_vec();
    with_json.extend(["--format", "json"]);
    let summary = json(&ok(&take5(&with_json)));
    assert_eq!(summary["seed"], 3);
    assert_eq!(summary["games"], 6);
    // Two players of one name are told apart by their place.
    let names: Vec<&str> = summary["bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    for name in ["builtin:dodger", "builtin:random#1", "builtin:random#2"] {
        assert!(names.contains(&name), "{names:?}");
    }
    for bot in summary["bots"].as_array().unwrap() {
        assert_eq!(bot["games"], 6);
        assert!(bot["ci95"].as_f64().unwrap() > 0.0, "{bot}");
    }
    // Six games of three seats: two deals, each played from every seat, for each pair.
    let pairs = summary["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 3);
    for p in pairs {
        assert_eq!(
            (p["deals"].as_u64(), p["games"].as_u64()),
            (Some(2), Some(6))
        );
    }
    // The table says the same, with the mean total's interval, and which total is better.
    let mut quiet = args.to_vec();
    quiet.push("--quiet");
    let table = ok(&take5(&quiet));
    assert!(
        table.starts_with("seed 3: 6 games (replay with --seed 3)\n"),
        "{table}"
    );
    let dodger = summary["bots"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == "builtin:dodger")
        .unwrap();
    let cell = format!(
        "{:.2} ±{:.2}",
        dodger["mean_total"].as_f64().unwrap(),
        dodger["ci95"].as_f64().unwrap()
    );
    assert!(
        table.contains("mean total")
            && table.contains("total: penalty, lower is better")
            && table.contains(&cell),
        "{cell}: {table}"
    );
    assert!(table.contains("paired by deal"), "{table}");
}

/// A pool of 2,000 bots (each against its neighbour, one deal of two games): the table lists the
/// bots and says how to get the pairs, which `--format json` has, every one.
#[test]
fn stats_of_two_thousand_bots_lists_the_bots_and_says_where_the_pairs_are() {
    const BOTS: usize = 2000;
    let dir = folder("two-thousand-bots");
    let path = dir.join("results.jsonl");
    let text = common::ring_of_bots(BOTS, 4);
    std::fs::write(&path, text).unwrap();
    let path = path.to_str().unwrap();
    let table = ok(&take5(&["stats", path]));
    let lines: Vec<&str> = table.lines().collect();
    // No header: the identity is said to be unknown; the games, a blank line and the hint
    // where the pairs would be; a blank line, the bots' heading and column names, a line a bot.
    assert_eq!(lines.len(), 7 + BOTS, "{}", &table[..1000]);
    assert!(
        lines[0].starts_with("tournament: not known"),
        "{}",
        lines[0]
    );
    assert_eq!(lines[1], format!("{} games", 2 * BOTS));
    assert!(lines[7..].iter().all(|l| l.starts_with('b')));
    let hint = lines[3];
    assert!(
        hint.starts_with("head to head and paired by deal: not printed for more than 30 bots")
            && hint.contains("--format json"),
        "{hint}"
    );
    let stats = json(&ok(&take5(&["stats", path, "--format", "json"])));
    assert_eq!(stats["pairs"].as_array().unwrap().len(), BOTS);
}

/// `--window 0` is refused as such; a window of one line is said in the singular.
#[test]
fn a_window_of_no_lines_is_refused_and_of_one_line_named_right() {
    let dir = folder("window-one");
    let path = dir.join("backwards.jsonl");
    let game = |id: u64, rotation: u64| {
        serde_json::json!({
            "game": id, "table": 0, "deal": 0, "rotation": rotation,
            "seating": ["a", "b"], "totals": [3, 5], "ranks": [1, 2], "winners": [0],
            "faults": [],
        })
    };
    std::fs::write(&path, format!("{}\n{}\n", game(1, 1), game(0, 0))).unwrap();
    let path = path.to_str().unwrap();
    let out = take5(&["stats", path, "--window", "0"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("the window holds at least 1 line of each file (4096 by default)"),
        "{err}"
    );
    let out = take5(&["stats", path, "--window", "1"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("backwards.jsonl:2: game 0 comes more than 1 line after its place"),
        "{err}"
    );
}
