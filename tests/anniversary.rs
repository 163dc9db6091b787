//! The anniversary variant end to end: `take5 play` between built-ins, its records verified,
//! and an edited record refused.

mod common;

use common::{ok, take5, temp};

/// Plays `games` games of `seats` built-ins with `--record`; returns the record.
fn record(seats: usize, games: &str, name: &str) -> String {
    let strategies = ["dodger", "random", "lowest", "highest"];
    let mut args = vec![
        "play".to_string(),
        "--variant".into(),
        "anniversary".into(),
        "--seed".into(),
        "11".into(),
        "--games".into(),
        games.into(),
        "--record".into(),
    ];
    let path = temp(name);
    args.push(path.display().to_string());
    for seat in 0..seats {
        args.push("-p".into());
        args.push(format!("builtin:{}", strategies[seat % strategies.len()]));
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    ok(&take5(&args));
    std::fs::read_to_string(&path).unwrap()
}

#[test]
fn games_of_2_to_8_built_ins_play_and_verify() {
    for seats in 2..=8 {
        let name = format!("anniversary-{seats}.jsonl");
        let text = record(seats, "2", &name);
        let events = |name: &str| text.matches(&format!("\"event\":\"{name}\"")).count();
        assert_eq!(events("game_end"), 2, "{seats} seats");
        assert_eq!(events("specials"), 4, "{seats} seats: one per round");
        assert!(
            events("special") > 0,
            "{seats} seats: no special card played"
        );
        let printed = ok(&take5(&["verify", &temp(&name).display().to_string()]));
        assert!(printed.starts_with("OK "), "{printed}");
    }
}

#[test]
fn the_same_seed_gives_the_same_record() {
    assert_eq!(
        record(5, "1", "same-a.jsonl"),
        record(5, "1", "same-b.jsonl")
    );
}

#[test]
fn an_edited_special_card_line_is_refused() {
    let text = record(3, "1", "edited.jsonl");
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("\"event\":\"special\""))
        .expect("a special card line");
    // Say a different seat played it: that seat was not asked.
    let line = lines[at];
    let seat = line.split("\"seat\":").nth(1).unwrap().as_bytes()[0] - b'0';
    let other = (seat + 1) % 3;
    let edited = line.replace(&format!("\"seat\":{seat}"), &format!("\"seat\":{other}"));
    let mut changed: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    changed[at] = edited;
    let path = temp("edited-bad.jsonl");
    std::fs::write(&path, changed.join("\n") + "\n").unwrap();
    let output = take5(&["verify", &path.display().to_string()]);
    assert!(!output.status.success());
    let said = String::from_utf8_lossy(&output.stdout).to_string()
        + &String::from_utf8_lossy(&output.stderr);
    assert!(said.contains(&format!(":{}:", at + 1)), "{said}");
}

/// The example bots play whole games of 2 and 8 players without a refused reply, and the
/// records verify.
#[test]
fn the_example_bots_play_without_faults() {
    let bots = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/bots");
    let python = bots.join("python_bot.py").display().to_string();
    let shell = bots.join("shell_bot.sh").display().to_string();
    for seats in [2, 8] {
        let path = temp(&format!("bots-{seats}.jsonl")).display().to_string();
        let logs = temp(&format!("bots-{seats}-io"));
        let logs_arg = logs.display().to_string();
        let mut args = vec![
            "play",
            "--variant",
            "anniversary",
            "--seed",
            "5",
            "--games",
            "2",
            "--timeout",
            "10000",
            "--record",
            &path,
            "--log-io",
            &logs_arg,
        ];
        for seat in 0..seats {
            args.push("-p");
            args.push(if seat % 2 == 0 { &python } else { &shell });
        }
        ok(&take5(&args));
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            !text.contains("\"event\":\"fault\""),
            "{seats} seats: a fault"
        );
        assert!(
            text.contains("\"event\":\"special\""),
            "{seats} seats: no special card"
        );
        assert_eq!(text.matches("\"event\":\"game_end\"").count(), 2);
        assert!(ok(&take5(&["verify", &path])).starts_with("OK "));
        let mut lines_read = 0;
        let mut folders = vec![logs];
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(&folder).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    folders.push(path);
                } else if path.extension().is_some_and(|e| e == "log") {
                    let log = std::fs::read_to_string(&path).unwrap();
                    lines_read += log.lines().count();
                    assert!(
                        !log.contains("> error"),
                        "{}: a refused reply",
                        path.display()
                    );
                }
            }
        }
        assert!(lines_read > 100, "{seats} seats: {lines_read} logged lines");
    }
}

/// The special deck's order is checked: a record whose round 1 deck is edited fails at the
/// round 2 deal (its `specials` line, next, says the cards come from another deck).
#[test]
fn an_edited_special_deck_is_refused_at_the_next_deal() {
    let text = record(2, "1", "deck.jsonl");
    let lines: Vec<&str> = text.lines().collect();
    let first = lines
        .iter()
        .position(|l| l.contains("\"event\":\"specials\""))
        .expect("a specials line");
    let line = lines[first];
    // Move the deck's top card to the bottom.
    let start = line.find("\"deck\":[").unwrap() + "\"deck\":[".len();
    let end = start + line[start..].find(']').unwrap();
    let mut deck: Vec<&str> = line[start..end].split(',').collect();
    deck.rotate_left(1);
    let edited = format!("{}{}{}", &line[..start], deck.join(","), &line[end..]);
    assert_ne!(edited, line);
    let mut changed: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    changed[first] = edited;
    let second = lines
        .iter()
        .rposition(|l| l.contains("\"event\":\"specials\""))
        .unwrap();
    assert_ne!(first, second);
    let path = temp("deck-bad.jsonl");
    std::fs::write(&path, changed.join("\n") + "\n").unwrap();
    let output = take5(&["verify", &path.display().to_string()]);
    assert!(!output.status.success());
    let said = String::from_utf8_lossy(&output.stdout).to_string();
    // The deal line, just before the round 2 `specials` line.
    assert!(said.contains(&format!(":{}:", second)), "{said}");
    assert!(said.contains("must be the deck as it stands"), "{said}");
}
