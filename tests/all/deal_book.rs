//! Deal books: `take5 deals` writes one, the same on every run; tournaments of other pools and
//! seeds that read it (`deals_from`, `--deals-from`) play the same deals.

use crate::common;

use common::{ok, take5};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn folder(name: &str) -> PathBuf {
    common::fresh_folder(name)
}

fn page() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/tournaments.md"))
        .unwrap()
}

/// Per deal of a tournament's record, the round-1 `deal` line of each of its games (the cards of
/// every seat and the rows).
fn first_deals(record: &Path, results: &Path) -> BTreeMap<u64, Vec<String>> {
    let deal_of: BTreeMap<u64, u64> = common::game_lines(results)
        .iter()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            (v["game"].as_u64().unwrap(), v["deal"].as_u64().unwrap())
        })
        .collect();
    let mut out: BTreeMap<u64, Vec<String>> = BTreeMap::new();
    let mut game = None;
    for line in std::fs::read_to_string(record).unwrap().lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        match v["event"].as_str() {
            Some("game") => game = Some(v["tournament"]["game"].as_u64().unwrap()),
            Some("deal") if v["round"] == 1 => {
                let deal = deal_of[&game.unwrap()];
                out.entry(deal).or_default().push(line.to_string());
            }
            _ => {}
        }
    }
    out
}

/// The seed of each game's results line, by deal.
fn seeds(results: &Path) -> BTreeMap<u64, u64> {
    let mut out = BTreeMap::new();
    for line in common::game_lines(results) {
        let v: Value = serde_json::from_str(&line).unwrap();
        let seed = v["seed"].as_u64().unwrap();
        let before = out.insert(v["deal"].as_u64().unwrap(), seed);
        assert!(before.is_none_or(|b| b == seed), "one seed a deal");
    }
    out
}

#[test]
fn a_book_is_the_same_every_run_and_two_tournaments_of_it_play_the_same_deals() {
    let dir = folder("book");
    let write = || ok(&take5(&["deals", "--seed", "7", "--deals", "4"]));
    let book = write();
    assert_eq!(book, write(), "byte for byte the same");
    assert_eq!(book, common::doc_block(&page(), "yaml example-book"));
    let path = dir.join("book.yaml");
    std::fs::write(&path, &book).unwrap();
    let listed: Vec<u64> = book
        .lines()
        .filter_map(|l| l.strip_prefix("  - seed: "))
        .map(|s| s.parse().unwrap())
        .collect();
    assert_eq!(listed.len(), 4);

    // A: three bots from flags, seed 11, every deal of the book.
    let (a_results, a_record) = (dir.join("a.jsonl"), dir.join("a-games.jsonl"));
    ok(&take5(&[
        "tournament",
        "--bot",
        "random=builtin:random",
        "--bot",
        "lowest=builtin:lowest",
        "--bot",
        "highest=builtin:highest",
        "--seats",
        "3",
        "--seed",
        "11",
        "--tables",
        "round-robin",
        "--deals-from",
        path.to_str().unwrap(),
        "--results",
        a_results.to_str().unwrap(),
        "--record",
        a_record.to_str().unwrap(),
    ]));
    // B: another pool from a file, seed 99, the book's first three deals.
    let config = dir.join("b.yaml");
    std::fs::write(
        &config,
        "bots:
  - {name: dodger, player: 'builtin:dodger'}
  - {name: highest, player: 'builtin:highest'}
  - {name: random, player: 'builtin:random'}
  - {name: lowest, player: 'builtin:lowest'}
seats: 3
seed: 99
deals_from: book.yaml
deals: 3
format: {gauntlet: {bot: dodger}}
",
    )
    .unwrap();
    let (b_results, b_record) = (dir.join("b.jsonl"), dir.join("b-games.jsonl"));
    let printed = ok(&take5(&[
        "tournament",
        config.to_str().unwrap(),
        "--results",
        b_results.to_str().unwrap(),
        "--record",
        b_record.to_str().unwrap(),
    ]));
    let header: Value = serde_json::from_str(
        std::fs::read_to_string(&b_results)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    let sha = header["book_sha256"].as_str().unwrap();
    assert_eq!(sha.len(), 64);
    assert!(
        printed.contains(&format!("deals: from a deal book of SHA-256 {sha}")),
        "{printed}"
    );
    // The games' seeds are the book's.
    let (a, b) = (seeds(&a_results), seeds(&b_results));
    assert_eq!(a.values().copied().collect::<Vec<_>>(), listed);
    assert_eq!(b.values().copied().collect::<Vec<_>>(), listed[..3]);
    // Every game of a deal, in either tournament, got the same cards in round 1.
    let (a_deals, b_deals) = (
        first_deals(&a_record, &a_results),
        first_deals(&b_record, &b_results),
    );
    assert_eq!(a_deals.len(), 4);
    assert_eq!(b_deals.len(), 3);
    for (deal, lines) in &b_deals {
        let all: Vec<&String> = lines.iter().chain(&a_deals[deal]).collect();
        assert!(all.iter().all(|l| *l == all[0]), "deal {deal}: {all:?}");
    }
    // Without the book, seed 99 deals other cards.
    let (c_results, c_record) = (dir.join("c.jsonl"), dir.join("c-games.jsonl"));
    let unbooked = std::fs::read_to_string(&config)
        .unwrap()
        .replace("deals_from: book.yaml\n", "");
    std::fs::write(&config, unbooked).unwrap();
    ok(&take5(&[
        "tournament",
        config.to_str().unwrap(),
        "--results",
        c_results.to_str().unwrap(),
        "--record",
        c_record.to_str().unwrap(),
    ]));
    let c_deals = first_deals(&c_record, &c_results);
    assert_ne!(c_deals[&0][0], b_deals[&0][0]);
}

#[test]
fn a_book_too_short_or_broken_is_refused_where_it_is_named() {
    let dir = folder("book-errors");
    std::fs::write(
        dir.join("book.yaml"),
        ok(&take5(&["deals", "--seed", "1", "--deals", "2"])),
    )
    .unwrap();
    std::fs::write(dir.join("bad.yaml"), "deals:\n  - seed: soon\n").unwrap();
    let pool = "bots:
  - {name: a, player: 'builtin:random'}
  - {name: b, player: 'builtin:lowest'}
seats: 2
seed: 1
format: round-robin
";
    let refused = |extra: &str| {
        let config = dir.join("pool.yaml");
        std::fs::write(&config, format!("{pool}{extra}")).unwrap();
        let out = take5(&[
            "tournament",
            config.to_str().unwrap(),
            "--results",
            dir.join("r.jsonl").to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        String::from_utf8(out.stderr).unwrap()
    };
    let err = refused("deals_from: book.yaml\ndeals: 3\n");
    assert!(
        err.contains("pool.yaml:8:8: deals is 3 but the book ")
            && err.contains("book.yaml has 2 deals"),
        "{err}"
    );
    let err = refused("deals_from: bad.yaml\n");
    assert!(
        err.starts_with("take5: ")
            && err.contains("pool.yaml:7:13: ")
            && err.contains("bad.yaml:2:11"),
        "{err}"
    );
}
