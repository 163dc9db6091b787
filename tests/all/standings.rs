//! A long run's periodic standings (`--report-every N`) and its event (`--event`, `--site`,
//! `--date`) in the results' header and the reports.

use crate::common;

use common::{ok, take5, temp};
use serde_json::Value;

/// The bots' table of a report: from its heading to the blank line before head to head.
fn bots_section(report: &str) -> &str {
    let start = report.find("bots, by rating").expect("the bots' table");
    let end = report[start..]
        .find("\n\n")
        .map_or(report.len(), |e| start + e + 1);
    &report[start..end]
}

/// The standings printed after `games` games.
fn standings_after(stderr: &str, games: u64, total: u64) -> &str {
    let mark = format!("take5: standings after {games} games of {total}:\n");
    let start = stderr
        .find(&mark)
        .unwrap_or_else(|| panic!("no {mark} in {stderr}"))
        + mark.len();
    let end = stderr[start..]
        .find("take5: ")
        .map_or(stderr.len(), |e| start + e);
    &stderr[start..end]
}

#[test]
fn standings_come_every_n_games_in_order_and_the_event_is_told() {
    let results = temp("every.jsonl");
    let _ = std::fs::remove_file(&results);
    let run = |more: &[&str]| {
        let mut args = vec!["tournament"];
        args.extend_from_slice(common::ROUND_ROBIN_OF_FOUR);
        args.extend(["--jobs", "2", "--results", results.to_str().unwrap()]);
        args.extend_from_slice(more);
        take5(&args)
    };
    let out = run(&[
        "--report-every",
        "40",
        "--event",
        "Winter cup",
        "--site",
        "Lyon",
        "--date",
        "2026-12-02",
    ]);
    let stdout = ok(&out);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        stderr.matches("take5: standings after ").count(),
        3,
        "{stderr}"
    );
    // The last standings are the summary's bots.
    assert_eq!(
        standings_after(&stderr, 120, 120).trim(),
        bots_section(&stdout).trim()
    );
    // The first are those of the first 40 games by id, whatever order the jobs finished them.
    let lines = common::game_lines(&results);
    let mut games: Vec<(u64, &String)> = lines
        .iter()
        .map(|l| {
            (
                serde_json::from_str::<Value>(l).unwrap()["game"]
                    .as_u64()
                    .unwrap(),
                l,
            )
        })
        .collect();
    games.sort_by_key(|g| g.0);
    let first = temp("first-40.jsonl");
    let header = std::fs::read_to_string(&results).unwrap();
    let header = header.lines().next().unwrap();
    let text: String = std::iter::once(header)
        .chain(games[..40].iter().map(|(_, l)| l.as_str()))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&first, text).unwrap();
    let forty = ok(&take5(&["stats", first.to_str().unwrap()]));
    assert_eq!(
        standings_after(&stderr, 40, 120).trim(),
        bots_section(&forty).trim()
    );

    // The event: in the header, and told by the table, the JSON and the page.
    let header: Value = serde_json::from_str(
        std::fs::read_to_string(&results)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(
        header["event"],
        serde_json::json!({"name": "Winter cup", "site": "Lyon", "date": "2026-12-02"})
    );
    assert!(
        stdout.contains("\nevent: Winter cup, Lyon, 2026-12-02\n"),
        "{stdout}"
    );
    let path = results.to_str().unwrap();
    let json: Value =
        serde_json::from_str(&ok(&take5(&["stats", path, "--format", "json"]))).unwrap();
    assert_eq!(json["tournament"]["event"]["site"], "Lyon");
    let html = ok(&take5(&["stats", path, "--html"]));
    assert!(
        html.contains("\"event\":{\"name\":\"Winter cup\""),
        "the page's data"
    );
    // Told, not compared: a resume without it continues the file (which keeps it).
    let resumed = ok(&run(&["--resume"]));
    assert!(
        resumed.contains("event: Winter cup, Lyon, 2026-12-02"),
        "{resumed}"
    );
    // --site and --date go with --event.
    let out = run(&["--site", "Lyon"]);
    assert_eq!(out.status.code(), Some(2));
}
