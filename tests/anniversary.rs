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
