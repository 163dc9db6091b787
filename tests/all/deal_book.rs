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

/// The judge's game of deal `seed` played again here, with `take5 play` (builtin:dodger at every
/// seat, as the book's judge): its final totals.
fn dodger_totals(variant: &str, seats: usize, seed: u64, dir: &Path) -> Vec<i64> {
    let record = dir.join("judged.jsonl");
    let seed = seed.to_string();
    let mut args = vec!["play", "--variant", variant, "--seed", &seed, "--quiet"];
    for _ in 0..seats {
        args.extend(["--player", "builtin:dodger"]);
    }
    args.extend(["--record", record.to_str().unwrap()]);
    ok(&take5(&args));
    let text = std::fs::read_to_string(&record).unwrap();
    let end = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|v| v["event"] == "game_end")
        .expect("the game ended");
    end["totals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_i64().unwrap())
        .collect()
}

/// The value of `key: ` in the book's `balanced:` header.
fn header_value(book: &str, key: &str) -> Option<u64> {
    let prefix = format!("  {key}: ");
    book.lines()
        .find_map(|l| l.strip_prefix(prefix.as_str()))
        .map(|v| v.parse().unwrap())
}

/// The seeds a book lists, in order.
fn listed_seeds(book: &str) -> Vec<u64> {
    book.lines()
        .filter_map(|l| l.strip_prefix("  - seed: "))
        .map(|s| s.split_whitespace().next().unwrap().parse().unwrap())
        .collect()
}

/// A balanced book is the same on every run, and keeps exactly the deals its criterion says,
/// recomputed here from games played again with `take5 play`: with `--keep P`, the `deals` of
/// least spread (highest total minus lowest, the earlier on a tie) among the first
/// `deals x 100 / P` of the seed's deals (rounded up); with `--bound B`, the first deals of
/// spread at most B. In every variant that deals its cards, at several table sizes.
#[test]
fn a_balanced_book_is_the_same_every_run_and_keeps_what_its_criterion_says() {
    let dir = folder("balanced");
    for (variant, seats, rule) in [
        ("classic", 3, None),
        ("classic", 2, Some(["--bound", "6"])),
        ("take-a-number", 4, Some(["--keep", "50"])),
        ("circle", 3, None),
        ("anniversary", 2, Some(["--bound", "10"])),
    ] {
        let seats_text = seats.to_string();
        let mut args = vec![
            "deals",
            "--seed",
            "5",
            "--deals",
            "3",
            "--balanced",
            "--seats",
            &seats_text,
            "--variant",
            variant,
        ];
        args.extend(rule.iter().flatten());
        let book = ok(&take5(&args));
        assert_eq!(book, ok(&take5(&args)), "byte for byte the same");
        let at = format!("{variant} at {seats}: {book}");
        let drawn = header_value(&book, "candidates").unwrap();
        let bound = header_value(&book, "bound").unwrap();
        assert!(
            book.contains(&format!(
                "  variant: {variant}\n  seats: {seats}\n  judge: builtin:dodger\n"
            )),
            "{at}"
        );
        // The candidates: the seed's deals in order, as the plain book lists them.
        let drawn_text = drawn.to_string();
        let candidates = listed_seeds(&ok(&take5(&[
            "deals",
            "--seed",
            "5",
            "--deals",
            &drawn_text,
        ])));
        let spreads: Vec<u64> = candidates
            .iter()
            .map(|&seed| {
                let totals = dodger_totals(variant, seats, seed, &dir);
                (totals.iter().max().unwrap() - totals.iter().min().unwrap()) as u64
            })
            .collect();
        let expected: Vec<u64> = match rule {
            Some(["--bound", points]) => {
                let points: u64 = points.parse().unwrap();
                assert_eq!(bound, points, "{at}");
                assert!(
                    spreads[drawn as usize - 1] <= points,
                    "the last candidate is kept: {at}"
                );
                (0..drawn as usize)
                    .filter(|&i| spreads[i] <= points)
                    .map(|i| candidates[i])
                    .collect()
            }
            _ => {
                let percent = match rule {
                    Some(["--keep", p]) => p.parse().unwrap(),
                    _ => 25,
                };
                assert_eq!(header_value(&book, "keep_percent"), Some(percent), "{at}");
                assert_eq!(drawn, (3 * 100u64).div_ceil(percent), "{at}");
                let mut order: Vec<usize> = (0..drawn as usize).collect();
                order.sort_by_key(|&i| (spreads[i], i));
                let mut chosen = order[..3].to_vec();
                assert_eq!(bound, spreads[chosen[2]], "{at}");
                chosen.sort();
                chosen.into_iter().map(|i| candidates[i]).collect()
            }
        };
        assert_eq!(listed_seeds(&book), expected, "{at}");
        // Each deal's totals, as the book shows them.
        for (line, seed) in book
            .lines()
            .filter(|l| l.starts_with("  - seed: "))
            .zip(&expected)
        {
            let totals = dodger_totals(variant, seats, *seed, &dir);
            let shown: Vec<String> = totals.iter().map(|t| t.to_string()).collect();
            assert!(
                line.ends_with(&format!("  # totals {}", shown.join(","))),
                "{line}"
            );
        }
    }
}

/// The balanced book of docs/tournaments.md is what take5 writes, and plays in a tournament
/// through `deals_from`, its games on the book's deals;
/// a tournament at another table size plays it too, with a note that it is not balanced there.
#[test]
fn a_balanced_book_plays_in_a_tournament() {
    let dir = folder("balanced-tournament");
    let book = ok(&take5(&[
        "deals",
        "--seed",
        "7",
        "--deals",
        "4",
        "--balanced",
        "--seats",
        "3",
    ]));
    assert_eq!(
        book,
        common::doc_block(&page(), "yaml example-balanced-book")
    );
    std::fs::write(dir.join("book.yaml"), &book).unwrap();
    for (seats, note) in [(3, false), (2, true)] {
        let config = dir.join(format!("pool-{seats}.yaml"));
        std::fs::write(
            &config,
            format!(
                "bots:
  - {{name: dodger, player: 'builtin:dodger'}}
  - {{name: random, player: 'builtin:random'}}
  - {{name: lowest, player: 'builtin:lowest'}}
seats: {seats}
seed: 1
deals_from: book.yaml
format: round-robin
"
            ),
        )
        .unwrap();
        let results = dir.join(format!("results-{seats}.jsonl"));
        let output = take5(&[
            "tournament",
            config.to_str().unwrap(),
            "--results",
            results.to_str().unwrap(),
        ]);
        ok(&output);
        assert_eq!(
            seeds(&results).values().copied().collect::<Vec<_>>(),
            listed_seeds(&book)
        );
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(
            stderr.contains(
                "take5: note: the deal book was balanced for classic at 3 seats with the \
                 variant's own rules, and this tournament plays classic at 2: its deals are \
                 played, but they are not balanced here"
            ),
            note,
            "{stderr}"
        );
    }
}

/// What a balanced book cannot be is refused, saying why.
#[test]
fn a_balanced_book_that_cannot_be_is_refused_saying_why() {
    for (args, says) in [
        (
            &["--seats", "3", "--variant", "pro"][..],
            "take5: --balanced: pro's hands are drafted from every card, not dealt: every deal \
             gives the seats the same cards, so there is nothing to balance",
        ),
        (
            &["--seats", "3", "--judge", "python3 bot.py"],
            "take5: --judge python3 bot.py: the judge is a built-in bot (builtin:NAME)",
        ),
        (
            &["--seats", "3", "--judge", "builtin:mcs:ms=5"],
            "take5: --judge builtin:mcs:ms=5: a search with a budget in time",
        ),
        (
            &["--seats", "7", "--variant", "circle"],
            "take5: --seats 7: rule setting `players`: 7 players asked for, the rules allow 2 to 6",
        ),
        (
            &["--seats", "3", "--keep", "0"],
            "take5: --keep 0: a percent from 1 to 100",
        ),
        (
            &["--seats", "3", "--bound", "0", "--candidates", "5"],
            "take5: only 0 of 2 deals kept among 5 candidates: a spread of at most 0 points \
             keeps too few deals here",
        ),
    ] {
        let mut all = vec!["deals", "--seed", "1", "--deals", "2", "--balanced"];
        all.extend(args);
        let output = take5(&all);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.starts_with(says), "{args:?}: {stderr}");
    }
    // The balancing flags go with --balanced.
    let output = take5(&[
        "deals",
        "--seed",
        "1",
        "--deals",
        "2",
        "--judge",
        "builtin:dodger",
    ]);
    assert_eq!(output.status.code(), Some(2));
}
