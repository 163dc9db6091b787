//! The examples in docs/fixtures.md and docs/records.md are run, so the pages stay true.

use std::path::Path;
use take5::fixture::{self, report};
use take5::verify::verify_record;

/// A fenced block: its info string, its text, and the line its text starts on.
struct Block {
    info: String,
    text: String,
    line: usize,
}

fn blocks(page: &str) -> Vec<Block> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(page)).unwrap();
    let mut blocks = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        match (open.take(), line.strip_prefix("```")) {
            (None, Some(info)) => {
                open = Some(Block {
                    info: info.trim().to_string(),
                    text: String::new(),
                    line: i + 2,
                })
            }
            (Some(block), Some(_)) => blocks.push(block),
            (Some(mut block), None) => {
                block.text.push_str(line);
                block.text.push('\n');
                open = Some(block);
            }
            (None, None) => {}
        }
    }
    assert!(open.is_none(), "{page}: a fence is not closed");
    blocks
}

#[test]
fn fixture_examples_hold() {
    let blocks = blocks("docs/fixtures.md");
    // Each example is read as `example.yaml` at the repository's root: paths in it (`house`)
    // start there. Cargo runs integration tests from the package root.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert_eq!(
        std::env::current_dir().unwrap().canonicalize().unwrap(),
        root.canonicalize().unwrap(),
        "the examples' paths are relative to the repository's root"
    );
    let path = Path::new("example.yaml");
    let mut counts = [0; 3];
    for (i, block) in blocks.iter().enumerate() {
        let next = || {
            let next = blocks.get(i + 1).expect("an output block follows");
            assert_eq!(next.info, "text", "line {}", next.line);
            next.text.as_str()
        };
        let at = format!("docs/fixtures.md:{}", block.line);
        match block.info.as_str() {
            "yaml" => {
                counts[0] += 1;
                let f = fixture::parse(&block.text, path)
                    .unwrap_or_else(|e| panic!("{at}: {}", report::error(&e)));
                let run = fixture::run(&f).unwrap_or_else(|e| panic!("{at}: {e}"));
                if let Some(failure) = &run.failure {
                    panic!("{at}: {}", report::diff(failure));
                }
            }
            "yaml fails" => {
                counts[1] += 1;
                let f = fixture::parse(&block.text, path).unwrap();
                let run = fixture::run(&f).unwrap();
                let failure = run
                    .failure
                    .as_ref()
                    .unwrap_or_else(|| panic!("{at} passes"));
                let shown = format!("{}\n{}", report::verdict(&f, &run), report::diff(failure));
                assert_eq!(shown, next(), "{at}");
                let json = blocks.get(i + 2).expect("a json block");
                assert_eq!(json.info, "json");
                let documented: serde_json::Value = serde_json::from_str(&json.text).unwrap();
                assert_eq!(report::json(&Ok((f, run))), documented, "{at}");
            }
            "yaml error" => {
                counts[2] += 1;
                let e = fixture::parse(&block.text, path)
                    .err()
                    .unwrap_or_else(|| panic!("{at} parses"));
                assert_eq!(report::error(&e), next(), "{at}");
            }
            _ => {}
        }
    }
    assert!(counts.iter().all(|&n| n > 0), "{counts:?}");
}

#[test]
fn record_example_verifies() {
    let blocks = blocks("docs/records.md");
    let jsonl: Vec<&Block> = blocks.iter().filter(|b| b.info == "jsonl").collect();
    assert_eq!(jsonl.len(), 1);
    let record = &jsonl[0].text;
    let summary = verify_record(record.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(summary.games.len(), 1);
    assert_eq!(summary.games[0].outcome.totals, [1, 22, 0]);
    assert_eq!(summary.games[0].outcome.winners, [2]);
    assert_eq!(summary.games[0].faults, 1);

    // What the page says take5 verify prints, for the record and for three edits of it.
    let said: Vec<&str> = blocks
        .iter()
        .filter(|b| b.info == "text")
        .flat_map(|b| b.text.lines())
        .collect();
    let dir = std::env::temp_dir().join(format!("take5-docs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("record.jsonl");
    std::fs::write(&file, record).unwrap();
    let mut out = Vec::new();
    let args = take5::cli::verify::VerifyArgs {
        records: vec![file.clone()],
    };
    let status = take5::cli::verify::run_to(&args, &mut out).unwrap();
    assert_eq!(status, take5::cli::Status::Passed);
    let printed = String::from_utf8(out)
        .unwrap()
        .replace(&format!("{}/", dir.display()), "");
    assert_eq!(printed.trim_end(), said[0]);
    std::fs::remove_dir_all(&dir).unwrap();

    let lines: Vec<&str> = record.lines().collect();
    let edited = |edit: &dyn Fn(&mut Vec<String>)| {
        let mut lines: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        edit(&mut lines);
        let e = verify_record((lines.join("\n") + "\n").as_bytes()).unwrap_err();
        e.in_file("record.jsonl")
    };
    let wrong_row = edited(&|l| l[13] = l[13].replace("\"row\":0", "\"row\":1"));
    let wrong_score = edited(&|l| l[33] = l[33].replace("[1,22,0]", "[1,21,0]"));
    let dropped = edited(&|l| {
        l.remove(9);
    });
    assert_eq!(&said[1..], [&wrong_row, &wrong_score, &dropped]);
}

#[test]
fn rulings_name_fixtures_that_exist() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let page = std::fs::read_to_string(root.join("docs/rulings.md")).unwrap();
    let named: Vec<&str> = page
        .split('`')
        .filter(|s| s.starts_with("fixtures/") && s.ends_with(".yaml"))
        .collect();
    assert!(named.len() > 20, "{named:?}");
    for path in named {
        assert!(root.join(path).is_file(), "docs/rulings.md names {path}");
    }
}
