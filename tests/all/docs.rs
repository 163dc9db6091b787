//! The examples in docs/fixtures.md and docs/records.md are run, so the pages stay true.

use crate::common::{self, Block};
use std::path::Path;
use take5::fixture::{self, report};
use take5::verify::verify_record;

fn blocks(page: &str) -> Vec<Block> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(page)).unwrap();
    common::fenced_blocks(&text)
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

/// The `game` row of the table in docs/records.md names every field of a header, and the page
/// says what `take5 verify` prints for a house rule script whose text changed.
#[test]
fn records_page_names_every_header_field_and_the_house_check() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let page = std::fs::read_to_string(root.join("docs/records.md")).unwrap();
    let record = &blocks("docs/records.md")
        .into_iter()
        .find(|b| b.info == "jsonl")
        .unwrap()
        .text;
    let row = page
        .lines()
        .find(|l| l.starts_with("| `game` |"))
        .expect("the game row");
    // The example's header with a house script: every key must be in the row.
    let script = "return { hand_size = 3, rounds = 2 }\n";
    let sha256 = take5::house::House::from_source(
        "rules.lua",
        script.as_bytes(),
        take5::rules::Rules::classic(),
    )
    .map(|h| h.sha256().to_string());
    let first = record.lines().next().unwrap();
    let mut header: serde_json::Value = serde_json::from_str(first).unwrap();
    header["seed"] = 7.into();
    header["house"] = serde_json::json!({"path": "rules.lua", "sha256": "0"});
    for key in header.as_object().unwrap().keys().filter(|k| *k != "event") {
        assert!(
            row.contains(&format!("`{key}`")),
            "the game row lacks `{key}`"
        );
    }
    let flat = page.split_whitespace().collect::<Vec<_>>().join(" ");
    for key in ["`path`", "`sha256`"] {
        assert!(flat.contains(key), "{key}");
    }

    // The example verifies next to its script, and not once the script is edited.
    let dir = std::env::temp_dir().join(format!("take5-docs-house-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("rules.lua"), script).unwrap();
    header["house"]["sha256"] = sha256.unwrap_or_else(|e| panic!("{e}")).into();
    header.as_object_mut().unwrap().remove("seed");
    let with_house = std::iter::once(header.to_string())
        .chain(record.lines().skip(1).map(str::to_string))
        .collect::<Vec<_>>()
        .join("\n");
    let file = dir.join("record.jsonl");
    std::fs::write(&file, &with_house).unwrap();
    let run = || {
        let args = take5::cli::verify::VerifyArgs {
            records: vec![file.clone()],
        };
        let mut out = Vec::new();
        let status = take5::cli::verify::run_to(&args, &mut out).unwrap();
        let printed = String::from_utf8(out)
            .unwrap()
            .replace(&format!("{}/", dir.display()), "");
        (status, printed)
    };
    let (status, printed) = run();
    assert_eq!(status, take5::cli::Status::Passed, "{printed}");
    std::fs::write(dir.join("rules.lua"), format!("{script}-- edited\n")).unwrap();
    let (status, printed) = run();
    assert_eq!(status, take5::cli::Status::Unreadable, "{printed}");
    let said = "record.jsonl:1: the house rule script of the header (rules.lua) cannot be used: ";
    assert!(printed.starts_with(said), "{printed}");
    assert!(flat.contains(said), "docs/records.md should say `{said}`");
    let differs = "its sha256 differs from the record's";
    assert!(printed.contains(differs), "{printed}");
    assert!(
        flat.contains(differs),
        "docs/records.md should say `{differs}`"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// docs/protocol.md shows every declared event's line and no other, and the Python kit's
/// `Event` names every event (docs/records.md's table is made from the declarations:
/// [`the_records_pages_table_of_lines_is_made_from_their_declarations`]).
#[test]
fn the_protocol_page_and_the_python_kit_name_every_declared_event() {
    use take5::game::Event;
    // The protocol's page shows every event's line, and no event that is not declared.
    let protocol =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/protocol.md"))
            .unwrap();
    let mentioned: std::collections::BTreeSet<&str> = protocol
        .split("event ")
        .skip(1)
        .filter_map(|rest| {
            let word = rest.split([' ', '`', '\n']).next()?;
            let is_name =
                |w: &str| !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase() || c == '_');
            // `event <name> <key>=...`: a line's start.
            let key = rest[word.len()..]
                .strip_prefix(' ')?
                .split([' ', '`', '\n'])
                .next()?
                .split_once('=')?
                .0;
            (is_name(word) && is_name(key)).then_some(word)
        })
        .collect();
    for name in Event::NAMES {
        assert!(
            protocol.contains(&format!("event {name} ")),
            "docs/protocol.md shows no `event {name}` line"
        );
    }
    // The Python kit's `Event` names every event too.
    let kit = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("sdk/python/take5bot.py"),
    )
    .unwrap();
    let kit_event = kit
        .split("class Event(Message):")
        .nth(1)
        .and_then(|rest| rest.split("\"\"\"").nth(1))
        .expect("sdk/python/take5bot.py has a class Event with a docstring");
    let kit_names: Vec<&str> = kit_event
        .split(|c: char| !(c.is_ascii_lowercase() || c == '_'))
        .collect();
    for name in Event::NAMES {
        assert!(
            kit_names.contains(name),
            "sdk/python/take5bot.py's Event does not name `{name}`"
        );
    }
    let undeclared: Vec<&&str> = mentioned
        .iter()
        .filter(|word| !Event::NAMES.contains(word))
        .collect();
    assert!(
        undeclared.is_empty(),
        "docs/protocol.md names events that are not declared: {undeclared:?}"
    );
}

/// docs/play.md's deal file deals its cards: the first round's hands and rows are those the
/// file gives.
#[test]
fn the_play_pages_deal_example_deals_its_cards() {
    let page = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/play.md"))
        .unwrap();
    let deal = common::doc_block(&page, "yaml");
    let path = common::temp("deal.yaml");
    std::fs::write(&path, deal).unwrap();
    let record = common::temp("deal.jsonl");
    common::ok(&common::take5(&[
        "play",
        "--player",
        "builtin:lowest",
        "--player",
        "builtin:dodger",
        "--seed",
        "1",
        "--deal",
        path.to_str().unwrap(),
        "--record",
        record.to_str().unwrap(),
    ]));
    let text = std::fs::read_to_string(&record).unwrap();
    let first_deal: serde_json::Value = serde_json::from_str(text.lines().nth(1).unwrap()).unwrap();
    assert_eq!(first_deal["hands"][0][0], 1);
    assert_eq!(first_deal["rows"], serde_json::json!([101, 102, 103, 104]));
}

/// docs/protocol.md's "Every message, in short" is the list that the messages' declarations
/// make ([`take5::protocol::summary::in_short`]): a message, event or field added or renamed in
/// the code shows in the page. `TAKE5_WRITE_DOCS=1` writes the list into the page.
#[test]
fn the_protocol_pages_list_of_messages_is_made_from_their_declarations() {
    made_section(
        "docs/protocol.md",
        "take5::protocol::summary::in_short",
        &take5::protocol::summary::in_short(),
    );
}

/// docs/records.md's table of the lines is the one the declarations of the header's keys, the
/// events and the referee's lines make ([`take5::record::lines_table`]), each field with what
/// it holds and each line with when it is written. `TAKE5_WRITE_DOCS=1` writes it into the page.
#[test]
fn the_records_pages_table_of_lines_is_made_from_their_declarations() {
    made_section(
        "docs/records.md",
        "take5::record::lines_table",
        &take5::record::lines_table(),
    );
}

/// The part of the page `path` between `<!-- made by MAKER -->` and `<!-- end -->` is `made`;
/// with `TAKE5_WRITE_DOCS` set, it is written there instead.
fn made_section(path: &str, maker: &str, made: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    let page = std::fs::read_to_string(&path).unwrap();
    let start = format!("<!-- made by {maker} -->\n");
    let (before, rest) = page
        .split_once(&start)
        .unwrap_or_else(|| panic!("{} has no `{}`", path.display(), start.trim_end()));
    let (listed, after) = rest
        .split_once("<!-- end -->")
        .unwrap_or_else(|| panic!("{}: the part made by {maker} ends", path.display()));
    if listed == made {
        return;
    }
    if std::env::var_os("TAKE5_WRITE_DOCS").is_some() {
        std::fs::write(&path, format!("{before}{start}{made}<!-- end -->{after}")).unwrap();
        return;
    }
    panic!(
        "{}: the part made by {maker} is not the declarations' (write it with \
         TAKE5_WRITE_DOCS=1):\n{made}",
        path.display()
    );
}
