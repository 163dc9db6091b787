//! `take5 tune` end to end: a bot whose strength peaks at a known value is tuned to it from
//! far away, the same way whatever the jobs; a run killed with SIGKILL and resumed ends where an
//! unbroken one does; the worked example of docs/tuning.md; errors that say where.

use crate::common::{self, ok, take5, wait_until};
use crate::show::{as_dom_text, attributes, browse, drawn, self_contained};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A fresh folder for this test, holding the file `name` with `text`.
fn config(name: &str, text: &str) -> PathBuf {
    let path = common::temp(name);
    let _ = std::fs::remove_dir_all(path.with_extension("tune"));
    std::fs::write(&path, text).unwrap();
    path
}

/// The peaked test bot (tests/bots/peaked.py) tuned from x = 0.1: its strength peaks at 0.7.
/// Its slope is gentle (1 - |x - 0.7| of its decisions are good ones), so the perturbation is
/// a fifth of the range rather than a tenth: the two sides differ more, and fewer games tell.
fn peaked(iterations: u64, deals: u64) -> String {
    let bot = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/peaked.py");
    format!(
        "player: 'python3 {} {{x}}'
params:
  x: {{min: 0, max: 1, start: 0.1}}
seed: 3
iterations: {iterations}
deals: {deals}
spsa: {{c: 0.2}}
# Generous limits: the machine may be loaded, and no result may depend on time.
timeout_ms: 600000
startup_timeout_ms: 600000
",
        bot.display()
    )
}

/// The state file's lines: its header, then an iteration a line.
fn state(out: &Path) -> Vec<String> {
    std::fs::read_to_string(out.join("state.jsonl"))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// The parameters after the last iteration of a state file.
fn last_theta(lines: &[String]) -> Vec<f64> {
    let last: serde_json::Value = serde_json::from_str(lines.last().unwrap()).unwrap();
    last["next"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect()
}

#[test]
fn a_peaked_bot_is_tuned_from_far_away_to_within_a_tenth_of_its_peak() {
    // Fewer, larger iterations: each starts the bots anew, and a Python start costs more than
    // a game.
    let iterations = 12;
    let path = config("peaked.yaml", &peaked(iterations, 8));
    let out = path.with_extension("tune");
    let printed = ok(&take5(&["tune", path.to_str().unwrap(), "--jobs", "2"]));
    let lines = state(&out);
    assert_eq!(lines.len() as u64, 1 + iterations);
    let theta = last_theta(&lines);
    // From 0.1 to within 0.1 of the peak in 12 iterations of 8 deals: 192 games.
    assert!((theta[0] - 0.7).abs() < 0.1, "x ended at {}", theta[0]);
    let games: usize = (1..=iterations)
        .map(|k| common::game_lines(&out.join(format!("iteration-{k:04}.jsonl"))).len())
        .sum();
    assert_eq!(games, 192);
    let tuned = printed
        .lines()
        .find(|l| l.starts_with("tuned: x "))
        .unwrap();
    assert_eq!(
        tuned,
        format!("tuned: x {}", (theta[0] * 1e6).round() / 1e6)
    );
    assert!(out.join("tune.html").exists() && out.join("trajectory.txt").exists());
}

/// Two runs of one tuning, one on two jobs, the other on one job killed (SIGKILL) a third of
/// the way and resumed: the same state, line for line, so the same theta to the bit.
#[test]
fn a_killed_run_resumes_to_the_same_theta_as_an_unbroken_one() {
    let iterations = 12;
    let whole = config("whole.yaml", &peaked(iterations, 2));
    ok(&take5(&["tune", whole.to_str().unwrap(), "--jobs", "2"]));
    let lines = state(&whole.with_extension("tune"));
    assert_eq!(lines.len() as u64, 1 + iterations);
    let killed = config("killed.yaml", &peaked(iterations, 2));
    let killed_out = killed.with_extension("tune");
    let mut child = Command::new(env!("CARGO_BIN_EXE_take5"))
        .args(["tune", killed.to_str().unwrap(), "--jobs", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let third = 1 + iterations as usize / 3;
    assert!(
        wait_until(|| common::line_count(&killed_out.join("state.jsonl")) >= third),
        "the run did not get a third of the way"
    );
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let before = state(&killed_out).len();
    assert!(
        before < lines.len(),
        "the run finished before it was killed"
    );
    let again = take5(&["tune", killed.to_str().unwrap(), "--jobs", "1"]);
    assert_eq!(
        again.status.code(),
        Some(2),
        "a run is not started over a state"
    );
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("continue the tuning with --resume"),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    ok(&take5(&[
        "tune",
        killed.to_str().unwrap(),
        "--jobs",
        "1",
        "--resume",
    ]));
    assert_eq!(state(&killed_out), lines);
    assert_eq!(last_theta(&state(&killed_out)), last_theta(&lines));
}

/// The example of docs/tuning.md prints what the page says.
#[test]
fn the_worked_example_of_the_docs_holds() {
    let page =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/tuning.md"))
            .unwrap();
    let block = |info: &str| common::doc_block(&page, info);
    let path = config("tune.yaml", &block("yaml example"));
    let command = block("sh example");
    let words: Vec<String> = shlex::split(command.trim())
        .unwrap()
        .into_iter()
        .skip(1)
        .map(|w| {
            if w == "tune.yaml" {
                path.to_str().unwrap().to_string()
            } else {
                w
            }
        })
        .collect();
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let printed = ok(&take5(&words));
    assert_eq!(printed, block("text example-output"));
    // A resumed run that is over plays nothing and prints the same.
    let mut resumed = words.clone();
    resumed.push("--resume");
    assert_eq!(ok(&take5(&resumed)), printed);
    // A sequential test over the verification's games, as `take5 tournament --sprt` runs one.
    resumed.extend(["--sprt", "elo0=-100,elo1=100"]);
    let tested = ok(&take5(&resumed));
    let sprt = tested.lines().find(|l| l.starts_with("SPRT ")).unwrap();
    assert!(
        sprt.starts_with("SPRT tuned against start (elo0 -100, elo1 100, alpha 0.05, beta 0.05): "),
        "{sprt}"
    );
    // The page: one file that loads nothing, drawn in a browser with a line per parameter
    // over every iteration, the paired difference of each, and the verification's verdict.
    let page = path.with_extension("tune").join("tune.html");
    let html = std::fs::read_to_string(&page).unwrap();
    self_contained(&html);
    assert!(html.contains("default-src 'none'"));
    let (dom, requests) = browse(&page, "");
    assert_eq!(requests, Vec::<String>::new());
    let drawn = drawn(&dom);
    let iterations = 8;
    assert_eq!(
        attributes(drawn, "data-param").len(),
        2 + 2,
        "a chart and a row per parameter"
    );
    assert_eq!(
        attributes(drawn, "data-points"),
        [format!("{}", iterations + 1), format!("{}", iterations + 1)]
    );
    assert_eq!(
        drawn.matches("class=\"iteration-difference\"").count(),
        iterations
    );
    assert_eq!(attributes(drawn, "data-iteration").len(), iterations);
    let verdict = printed.lines().last().unwrap();
    assert!(
        verdict.starts_with("tuned against start over 10 deals"),
        "{verdict}"
    );
    assert!(
        drawn.contains(&as_dom_text(verdict)),
        "the verdict on the page"
    );
}

/// Errors in a tuning file name the file, line and column.
#[test]
fn errors_in_the_file_say_where() {
    let refused = |name: &str, text: &str| {
        let path = config(name, text);
        let output = take5(&["tune", path.to_str().unwrap()]);
        assert_eq!(output.status.code(), Some(2), "{name}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        stderr.replace(&format!("{}", path.display()), name)
    };
    let base = "player: 'builtin:mcs:steps=100:mix={mix}'\nparams:\n  mix: {min: 0, max: 100, start: 50, integer: true}\nseed: 1\niterations: 5\n";
    let unknown = refused(
        "unknown.yaml",
        &base.replace("{mix}'", "{mix}:rival={rival}'"),
    );
    assert!(
        unknown.starts_with(
            "take5: unknown.yaml:1:9: player: `{rival}` names no parameter (params: mix)"
        ),
        "{unknown}"
    );
    let outside = refused("outside.yaml", &base.replace("start: 50", "start: 150"));
    assert!(
        outside.starts_with(
            "take5: outside.yaml:3:34: parameter mix: start (150) is outside min..max (0..100)"
        ),
        "{outside}"
    );
    let half = refused("half.yaml", &base.replace("start: 50", "start: 50.5"));
    assert!(
        half.contains(
            "half.yaml:3:34: parameter mix is an integer one: 50.5 is not a whole number"
        ),
        "{half}"
    );
    let typo = refused("typo.yaml", &format!("{base}iteration: 3\n"));
    assert!(
        typo.starts_with("take5: typo.yaml:6:1: unknown field `iteration`"),
        "{typo}"
    );
    let unused = refused(
        "unused.yaml",
        &base.replace(
            "integer: true}",
            "integer: true}\n  rival: {min: 0, max: 100, start: 0}",
        ),
    );
    assert!(
        unused.contains("parameter rival is not in player: write `{rival}` where its value goes"),
        "{unused}"
    );
    let reserved = refused(
        "reserved.yaml",
        &format!("{base}opponents:\n  - {{name: plus, player: 'builtin:random'}}\n"),
    );
    assert!(reserved.contains("opponent `plus`"), "{reserved}");
    let gains = refused("gains.yaml", &format!("{base}spsa: {{c: 0.9}}\n"));
    assert!(
        gains.contains(
            "gains.yaml:6:11: spsa: c (a share of each range) must be above 0 and at most 0.5"
        ),
        "{gains}"
    );
    let zero = refused(
        "zero.yaml",
        &base
            .replace("steps=100", "steps={mix}0")
            .replace(":mix={mix}", ""),
    );
    assert!(
        zero.contains("zero.yaml:1:9: player: with mix 0: "),
        "{zero}"
    );
}

#[test]
fn the_help_says_what_tune_does() {
    let help = ok(&take5(&["tune", "--help"]));
    for word in ["SPSA", "--resume", "--verify", "--sprt", "--jobs", "--out"] {
        assert!(help.contains(word), "{word}: {help}");
    }
}
