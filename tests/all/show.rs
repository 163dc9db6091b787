//! `take5 show`, `take5 check --show` and `--player human` (and the browser helpers of
//! tests/all/report.rs, for `take5 stats --html`), driven as a
//! person would: in a terminal (tmux: keys pressed, the screen read) and in a real headless
//! browser (Debian's chromium). Nothing waits for a time: each test polls the screen for the
//! text it expects, within a generous overall limit.

use crate::common;

use common::{ok, take5, temp};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Plays a game of `variant` between three built-in bots with `seed`, recorded in a new file.
fn record(variant: &str, seed: u64) -> PathBuf {
    record_of(
        variant,
        &["builtin:random", "builtin:dodger", "builtin:lowest"],
        seed,
    )
}

/// Four built-in bots, the first twice.
pub(crate) const FOUR: [&str; 4] = [
    "builtin:random",
    "builtin:dodger",
    "builtin:lowest",
    "builtin:random",
];

/// Plays a game of `variant` between `players` with `seed`, recorded in a new file.
pub(crate) fn record_of(variant: &str, players: &[&str], seed: u64) -> PathBuf {
    let path = temp(&format!("{variant}-{}-{seed}.jsonl", players.len()));
    let seed = seed.to_string();
    let mut args = vec!["play", "--variant", variant, "--seed", &seed];
    for player in players {
        args.extend(["--player", player]);
    }
    args.extend(["--record", path.to_str().unwrap(), "--quiet"]);
    ok(&take5(&args));
    path
}

/// The record's event lines, as JSON.
pub(crate) fn events(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The final totals the record's `game_end` line gives.
pub(crate) fn final_totals(events: &[Value]) -> Vec<i64> {
    let end = events.iter().find(|e| e["event"] == "game_end").unwrap();
    end["totals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect()
}

fn joined(numbers: &[i64]) -> String {
    numbers
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The first row `seat` took in the record: the row's number and its cards.
fn first_take(events: &[Value], seat: u64) -> (u64, Vec<i64>) {
    let take = events
        .iter()
        .find(|e| (e["event"] == "take" || e["event"] == "collect") && e["seat"] == seat)
        .unwrap_or_else(|| panic!("seat {seat} takes no row in this record"));
    let cards = take["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_i64().unwrap())
        .collect();
    (take["row"].as_u64().unwrap(), cards)
}

// ---------------------------------------------------------------------------------------------
// Piped: every step as plain text

#[test]
fn piped_show_prints_every_step_of_each_variant_and_ends_with_the_recorded_totals() {
    for variant in ["classic", "pro", "take-a-number", "circle", "anniversary"] {
        let path = record(variant, 21);
        let text = ok(&take5(&["show", path.to_str().unwrap()]));
        let steps = text.lines().filter(|l| l.starts_with("== step ")).count();
        assert!(steps > 10, "{variant}: {steps} steps:\n{text}");
        let last = text.rsplit("== step ").next().unwrap();
        let totals = joined(&final_totals(&events(&path)));
        assert!(
            last.contains(&format!("final totals: {totals}")),
            "{variant}: the last step is not the end of the game ({totals}):\n{last}"
        );
    }
}

/// Piped, the table and the sentences speak as the rulebooks do: special cards by their printed
/// names, the 5th row and a 7 nimmt! card where they lie, a row's fill after its 7 nimmt! card
/// went to the discard pile at a round's end; the circle game's seats by their points, at the
/// end their final totals.
#[test]
fn piped_show_names_the_special_cards_and_the_circles_points_as_players_do() {
    let path = record_of("anniversary", &FOUR, 8);
    let text = ok(&take5(&["show", path.to_str().unwrap()]));
    for printed in ["5th Row", "7 nimmt!", "Negative = Positive", "Stop"] {
        assert!(text.contains(printed), "no `{printed}`:\n{text}");
    }
    for keyword in ["fifth_row", "seven_nimmt", "negative_positive"] {
        let tables: String = text
            .lines()
            .filter(|l| l.starts_with("row ") || l.contains("specials:") || l.contains("discard"))
            .collect();
        assert!(!tables.contains(keyword), "`{keyword}` in the tables");
    }
    // The sentences too.
    assert!(text.contains(") plays 7 nimmt! on row "), "{text}");
    let seven = text.lines().find(|l| l.contains("[7 nimmt!]")).unwrap();
    assert!(seven.contains("/6, "), "{seven}");
    // Seed 8: the first round ends with six cards on a row whose 7 nimmt! card is discarded.
    let over = text.split("round 1 ends").nth(1).unwrap();
    let row = over.lines().find(|l| l.contains("(6 cards, ")).unwrap();
    assert!(row.starts_with("row "), "{row}");
    let circle = record("circle", 21);
    let text = ok(&take5(&["show", circle.to_str().unwrap()]));
    let last = text.rsplit("== step ").next().unwrap();
    let points: Vec<String> = last
        .lines()
        .filter_map(|l| l.split(": points ").nth(1))
        .map(|p| p.split(',').next().unwrap().to_string())
        .collect();
    let totals: Vec<String> = final_totals(&events(&circle))
        .iter()
        .map(i64::to_string)
        .collect();
    assert_eq!(points, totals, "{last}");
    assert!(!text.contains("this round"), "one round, no `this round`");
}

#[test]
fn show_with_a_seat_hides_the_other_hands() {
    let path = record("anniversary", 4);
    let text = ok(&take5(&["show", path.to_str().unwrap(), "--seat", "1"]));
    let deal = text.split("== step ").nth(1).unwrap();
    let hands: Vec<&str> = deal
        .lines()
        .filter(|l| l.trim_start().starts_with("hand: "))
        .collect();
    assert_eq!(hands.len(), 3, "{deal}");
    let dealt = events(&path)[1]["hands"][1].as_array().unwrap().len();
    for hidden in [hands[0], hands[2]] {
        assert!(
            hidden.contains(&format!("hand: {dealt} cards   specials: ")),
            "{hidden}"
        );
    }
    assert!(
        hands[1].contains(':') && !hands[1].contains("cards"),
        "seat 1's hand is shown: {}",
        hands[1]
    );
    // The deal's line tells no hand either.
    assert!(!deal.contains("hands "), "{deal}");
}

#[test]
fn show_game_picks_a_game_of_the_record_by_its_number() {
    let path = temp("two-games.jsonl");
    ok(&take5(&[
        "play",
        "--player",
        "builtin:random",
        "--player",
        "builtin:dodger",
        "--games",
        "2",
        "--seed",
        "6",
        "--record",
        path.to_str().unwrap(),
    ]));
    let ends: Vec<Vec<i64>> = events(&path)
        .iter()
        .filter(|e| e["event"] == "game_end")
        .map(|e| final_totals(std::slice::from_ref(e)))
        .collect();
    for (game, totals) in ends.iter().enumerate() {
        let text = ok(&take5(&[
            "show",
            path.to_str().unwrap(),
            "--game",
            &game.to_string(),
        ]));
        assert!(
            text.starts_with(&format!("game {game} of classic")),
            "{text}"
        );
        assert!(
            text.trim_end()
                .ends_with(&format!("final totals: {}", joined(totals)))
        );
    }
}

#[test]
fn a_record_cut_short_is_shown_up_to_where_it_stops() {
    let path = record("classic", 17);
    let text = std::fs::read_to_string(&path).unwrap();
    let cut = temp("cut.jsonl");
    let kept: Vec<&str> = text.lines().take(12).collect();
    std::fs::write(&cut, kept.join("\n") + "\n").unwrap();
    let shown = ok(&take5(&["show", cut.to_str().unwrap()]));
    let last = shown.rsplit("== step ").next().unwrap();
    assert!(
        last.contains("the record goes no further (line 12): a line is missing: the record ends"),
        "{last}"
    );
}

#[test]
fn show_names_what_is_wrong_with_its_input() {
    let path = record("classic", 2);
    let out = take5(&["show", path.to_str().unwrap(), "--game", "7"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("holds no game 7"),
        "{out:?}"
    );
    let out = take5(&["show", path.to_str().unwrap(), "--seat", "5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--seat 5: the game has seats 0 to 2"),
        "{out:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// In a terminal: tmux

/// A tmux server of its own with one session running a command in a 160x60 terminal.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn start(name: &str, command: &str) -> Tmux {
        let socket = format!("take5-test-{}-{name}", std::process::id());
        let conf = temp(&format!("{name}.tmux.conf"));
        std::fs::write(&conf, "set -g history-limit 100000\n").unwrap();
        let shell = format!("{command}; echo '[exited]'; sleep 3600");
        let status = Command::new("tmux")
            .args(["-L", &socket, "-f", conf.to_str().unwrap()])
            .args(["new-session", "-d", "-s", "t", "-x", "160", "-y", "60"])
            .arg(shell)
            .env("TERM", "xterm-256color")
            .status()
            .expect("tmux runs (apt-get install tmux)");
        assert!(status.success());
        Tmux { socket }
    }

    fn tmux(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .args(["-L", &self.socket])
            .args(args)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// What the terminal shows now.
    fn screen(&self) -> String {
        self.tmux(&["capture-pane", "-p", "-t", "t"])
    }

    /// Everything the terminal showed, scrolled off or not.
    fn history(&self) -> String {
        self.tmux(&["capture-pane", "-p", "-S", "-", "-t", "t"])
    }

    /// Presses keys (tmux names: Right, Home, q, ...).
    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "t"];
        args.extend_from_slice(keys);
        self.tmux(&args);
    }

    /// Types `text` and Enter.
    fn line(&self, text: &str) {
        self.tmux(&["send-keys", "-t", "t", "-l", text]);
        self.keys(&["Enter"]);
    }

    /// Polls the screen until `done` holds; returns the screen then.
    fn wait(&self, what: &str, done: impl Fn(&str) -> bool) -> String {
        let mut screen = String::new();
        let shown = common::wait_until(|| {
            screen = self.screen();
            done(&screen)
        });
        assert!(
            shown,
            "the terminal never showed {what}; it shows:\n{screen}"
        );
        screen
    }

    /// Waits for the viewer's first frame to be drawn whole (its last line is the keys').
    fn first_frame(&self) -> String {
        self.wait("the viewer's first frame", |s| {
            s.contains("[step 1/") && s.contains("q quit")
        })
    }

    fn wait_for(&self, text: &str) -> String {
        self.wait(&format!("`{text}`"), |s| s.contains(text))
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        self.tmux(&["kill-server"]);
    }
}

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_take5")
}

/// The number of steps the viewer's top line names (`[step 1/58, ...]`).
fn step_count(screen: &str) -> usize {
    let after = screen.split("[step ").nth(1).unwrap();
    let count = after.split('/').nth(1).unwrap();
    count.split(',').next().unwrap().parse().unwrap()
}

/// Steps through a recorded game of `variant` in the terminal viewer with the keys.
fn viewer_steps_through(variant: &str, seed: u64) {
    let path = record(variant, seed);
    let events = events(&path);
    let tmux = Tmux::start(
        &format!("show-{variant}"),
        &format!("{} show {}", bin(), path.display()),
    );
    let screen = tmux.first_frame();
    let n = step_count(&screen);
    tmux.keys(&["Right"]);
    tmux.wait_for(&format!("[step 2/{n},"));
    tmux.keys(&["Left"]);
    tmux.wait_for(&format!("[step 1/{n},"));
    tmux.keys(&["End"]);
    tmux.wait_for(&format!("[step {n}/{n},"));
    tmux.wait_for(&format!("final totals: {}", joined(&final_totals(&events))));
    tmux.keys(&["Home"]);
    tmux.wait_for(&format!("[step 1/{n},"));
    // Jump to round 1, turn 3.
    tmux.keys(&["t"]);
    tmux.wait_for("go to turn");
    tmux.line("1.3");
    tmux.wait_for(": round 1, turn 3 (line");
    // The next take of seat 2, from the start: the row the record says it took first.
    tmux.keys(&["Home", "2", "n"]);
    let (row, cards) = first_take(&events, 2);
    let listed = format!("[{}]", joined(&cards));
    let screen = tmux.wait(&format!("seat 2 taking row {row} {listed}"), |s| {
        s.contains(&format!("takes row {row} {listed}"))
            || s.contains(&format!(
                "completes row {row} and takes it out of the circle: {listed}"
            ))
    });
    assert!(screen.contains("seat 2 (builtin:lowest)"), "{screen}");
    // One seat's hand only.
    tmux.keys(&["a"]);
    tmux.wait_for("seat 2's hand only");
    tmux.keys(&["q"]);
    tmux.wait_for("[exited]");
}

#[test]
fn the_terminal_viewer_steps_through_a_classic_game() {
    viewer_steps_through("classic", 11);
}

#[test]
fn the_terminal_viewer_steps_through_a_circle_game() {
    viewer_steps_through("circle", 12);
}

/// In a terminal wide enough, the viewer draws the circle's rows on a ring: row 0 on top, rows
/// 1 to 4 to its right going down, rows 5 to 8 to its left going up (3 players, 9 rows).
#[test]
fn the_terminal_viewer_draws_the_circle_as_a_ring() {
    let path = record("circle", 12);
    let tmux = Tmux::start("show-ring", &format!("{} show {}", bin(), path.display()));
    let screen = tmux.first_frame();
    assert!(screen.contains("(clockwise)"), "{screen}");
    let lines: Vec<&str> = screen.lines().collect();
    let place = |r: usize| {
        let label = format!("row {r}: ");
        let y = (lines.iter().position(|l| l.contains(&label)))
            .unwrap_or_else(|| panic!("no {label}:\n{screen}"));
        (y, lines[y].find(&label).unwrap())
    };
    let top = place(0);
    for r in 1..9 {
        let (y, x) = place(r);
        assert!(y > top.0, "row {r} under row 0:\n{screen}");
        if r <= 4 {
            assert!(x > top.1, "row {r} right of row 0:\n{screen}");
            if r > 1 {
                assert!(y > place(r - 1).0, "row {r} under row {}:\n{screen}", r - 1);
            }
        } else {
            assert!(x < top.1, "row {r} left of row 0:\n{screen}");
            if r > 5 {
                assert!(y < place(r - 1).0, "row {r} above row {}:\n{screen}", r - 1);
            }
        }
    }
    tmux.keys(&["q"]);
    tmux.wait_for("[exited]");
}

#[test]
fn the_terminal_viewer_steps_through_an_anniversary_game() {
    viewer_steps_through("anniversary", 13);
}

#[test]
fn the_terminal_viewer_steps_through_a_pro_game() {
    viewer_steps_through("pro", 14);
}

#[test]
fn the_terminal_viewer_steps_through_a_take_a_number_game() {
    viewer_steps_through("take-a-number", 15);
}

#[test]
fn the_terminal_viewer_with_a_seat_shows_only_what_that_seat_saw() {
    let path = record("classic", 16);
    let tmux = Tmux::start(
        "show-seat",
        &format!("{} show {} --seat 1", bin(), path.display()),
    );
    let screen = tmux.first_frame();
    assert!(screen.contains("seat 1's hand only"), "{screen}");
    assert_eq!(screen.matches("hand: 10 cards").count(), 2, "{screen}");
    tmux.keys(&["a"]);
    tmux.wait_for("--seat 1: the other hands stay hidden");
    tmux.keys(&["q"]);
    tmux.wait_for("[exited]");
}

#[test]
fn check_show_steps_through_a_fixture_in_the_terminal() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/anniversary/shift.yaml");
    let tmux = Tmux::start(
        "check-show",
        &format!("{} check --show {}", bin(), fixture.display()),
    );
    let screen = tmux.first_frame();
    let n = step_count(&screen);
    tmux.keys(&["End"]);
    tmux.wait_for(&format!("[step {n}/{n},"));
    tmux.wait_for("plays shift");
    tmux.keys(&["q"]);
    tmux.wait_for("[exited]");
}

/// The viewer shows a fixture's name with its control characters as escapes (ratatui would drop
/// them unseen; printed raw they would retitle the terminal).
#[test]
fn the_terminal_viewer_shows_the_control_characters_of_a_name_visibly() {
    let fixture = include_str!("../../fixtures/classic/bullheads.yaml");
    let (_, rest) = fixture.split_once('\n').unwrap();
    let path = temp("hostile.yaml");
    std::fs::write(&path, format!("name: \"x\\e]0;owned\\a\"\n{rest}")).unwrap();
    let tmux = Tmux::start(
        "check-show-hostile",
        &format!("{} check --show {}", bin(), path.display()),
    );
    let screen = tmux.first_frame();
    assert!(
        screen.contains(r"] x\x1b]0;owned\x07: Cards ending in 5"),
        "{screen}"
    );
    tmux.keys(&["q"]);
    tmux.wait_for("[exited]");
}

/// The question lines the human seat has been asked so far (a prompt `>` and what was typed).
fn prompts(history: &str) -> usize {
    history
        .lines()
        .filter(|l| *l == ">" || (l.starts_with("> ") && !l.starts_with("> seat")))
        .count()
}

/// The first card of the human's hand (seat 0) in the last table on the screen.
fn first_card(screen: &str) -> String {
    let last = screen.rsplit("\n> seat 0").next().unwrap();
    let hand = last.lines().nth(1).unwrap().trim_start();
    let first = hand
        .strip_prefix("hand: ")
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    first.split(':').next().unwrap().to_string()
}

/// A person plays seat 0 of `variant` against a bot in the terminal, with a wrong and an
/// illegal entry first, to the end of the game; the game's record verifies.
fn a_person_plays(variant: &str, seed: u64) {
    let path = temp(&format!("human-{variant}.jsonl"));
    let tmux = Tmux::start(
        &format!("human-{variant}"),
        &format!(
            "{} play --variant {variant} --player human --player builtin:dodger --seed {seed} \
             --record {}",
            bin(),
            path.display()
        ),
    );
    // The screen and the count of questions are read from one capture of the history, so the
    // question seen is the one counted.
    let asked = |tmux: &Tmux, before: usize| {
        let mut history = String::new();
        let shown = common::wait_until(|| {
            history = tmux.history();
            let last = history.lines().rev().find(|l| !l.trim().is_empty());
            history.contains("=== game over") || (last == Some(">") && prompts(&history) > before)
        });
        assert!(
            shown,
            "no new question after {before}; the terminal shows:\n{}",
            tmux.screen()
        );
        let lines: Vec<&str> = history.lines().collect();
        lines[lines.len().saturating_sub(60)..].join("\n")
    };
    let screen = asked(&tmux, 0);
    assert!(screen.contains("you are seat 0"), "{screen}");
    // The terminal is wide enough for the circle's rows as a ring.
    assert_eq!(
        screen.contains("(clockwise)"),
        variant == "circle",
        "{screen}"
    );
    // Not an answer: explained, asked again.
    tmux.line("hello there");
    let screen = asked(&tmux, 1);
    assert!(
        screen.contains("`hello there` is not an answer to this question"),
        "{screen}"
    );
    // A card that is not in the hand: refused by the rules, asked again.
    tmux.line("999");
    let screen = asked(&tmux, 2);
    // Said to the person: `card 999 is not in your hand`, `you cannot pick card 999: ...`.
    let refused = screen
        .lines()
        .find(|l| l.starts_with("not allowed: "))
        .unwrap_or_else(|| panic!("{screen}"));
    assert!(
        refused.contains("999") && refused.contains("you") && !refused.contains("seat"),
        "{refused}"
    );
    let mut screen = screen;
    let mut answered = 3;
    while !screen.contains("=== game over") {
        let lines: Vec<&str> = screen.lines().filter(|l| !l.trim().is_empty()).collect();
        let question = lines[lines.len() - 2];
        let answer = if question.starts_with("Your card") {
            first_card(&screen)
        } else if question.contains("lower than every row's end") {
            "0".to_string()
        } else if question.starts_with("Place a card") && question.contains("`end`") {
            "end".to_string()
        } else if question.starts_with("Place a card") {
            first_card(&screen)
        } else if question.ends_with("or `pass`") {
            "pass".to_string()
        } else if question.starts_with("The card you pick from the pool") {
            let table = screen.rsplit("\ndraft pool: ").next().unwrap();
            table.split([':', ' ']).next().unwrap().to_string()
        } else if question.starts_with("The card for your #-row") {
            let took = question.split("took: ").nth(1).unwrap();
            took.split([',', ' ']).next().unwrap().to_string()
        } else {
            panic!("an unexpected question: {question}\n{screen}");
        };
        tmux.line(&answer);
        screen = asked(&tmux, answered);
        let after = screen.rsplit(&format!("> {answer}\n")).next().unwrap();
        assert!(
            !after.contains("try again"),
            "`{answer}` was refused:\n{screen}"
        );
        answered += 1;
    }
    tmux.wait_for("[exited]");
    let lines = events(&path);
    assert!(
        !lines.iter().any(|e| e["event"] == "fault"),
        "the person's seat faulted"
    );
    let verified = ok(&take5(&["verify", path.to_str().unwrap()]));
    assert!(verified.starts_with("OK "), "{verified}");
    let players = &lines[0]["players"];
    assert_eq!(players[0], "human");
}

#[test]
fn a_person_plays_classic_in_the_terminal() {
    a_person_plays("classic", 5);
}

#[test]
fn a_person_plays_the_circle_game_in_the_terminal() {
    a_person_plays("circle", 6);
}

#[test]
fn a_person_plays_the_anniversary_variant_in_the_terminal() {
    a_person_plays("anniversary", 7);
}

#[test]
fn a_person_plays_the_pro_variant_in_the_terminal() {
    a_person_plays("pro", 8);
}

#[test]
fn a_person_plays_take_a_number_in_the_terminal() {
    a_person_plays("take-a-number", 9);
}

// ---------------------------------------------------------------------------------------------
// In a browser: headless chromium

/// Opens `page` (with `fragment`) in headless chromium, kept off the network, and returns the
/// document once its scripts ran, and the requests that the page started (any URL; the
/// browser's own background requests are not the page's and are left out).
pub(crate) fn browse(page: &Path, fragment: &str) -> (String, Vec<String>) {
    browse_in(page, fragment, (1280, 1000))
}

/// [`browse`] in a window of `size` (width, height) pixels.
pub(crate) fn browse_in(page: &Path, fragment: &str, size: (u32, u32)) -> (String, Vec<String>) {
    let profile = temp(&format!(
        "chromium-{}-{}x{}",
        rand_name(page, fragment),
        size.0,
        size.1
    ));
    let netlog = profile.with_extension("netlog.json");
    let out = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            // No name resolves: nothing the browser itself wants reaches the network either.
            "--host-resolver-rules=MAP * ~NOTFOUND",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--log-net-log={}", netlog.display()))
        .arg(format!("--window-size={},{}", size.0, size.1))
        .arg("--dump-dom")
        .arg(format!("file://{}#{fragment}", page.display()))
        .output()
        .expect("chromium runs (apt-get install chromium)");
    assert!(out.status.success(), "chromium failed: {out:?}");
    let log: Value = serde_json::from_str(&std::fs::read_to_string(&netlog).unwrap()).unwrap();
    let start_job = log["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"].clone();
    let requests = log["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == start_job && e["params"]["url"].is_string())
        // Requests a page starts have its origin (a file's is "null") as initiator.
        .filter(|e| e["params"]["initiator"] != "not an origin")
        .map(|e| e["params"]["url"].as_str().unwrap().to_string())
        .collect();
    (String::from_utf8(out.stdout).unwrap(), requests)
}

fn rand_name(page: &Path, fragment: &str) -> String {
    format!(
        "{}-{}",
        page.file_stem().unwrap().to_string_lossy(),
        fragment.replace(['=', '&'], "-")
    )
}

/// The data a game page (`html`) draws from.
pub(crate) fn page_data(html: &str) -> Value {
    let json = html
        .split("id=\"game-data\"")
        .nth(1)
        .and_then(|rest| rest.split_once('>'))
        .and_then(|(_, rest)| rest.split_once("</script>"))
        .map(|(json, _)| json)
        .expect("the page holds its game's data");
    serde_json::from_str(json).unwrap()
}

/// The value of every `name="..."` attribute in `html`, in order.
pub(crate) fn attributes<'a>(html: &'a str, name: &str) -> Vec<&'a str> {
    let key = format!("{name}=\"");
    html.split(&key)
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap())
        .collect()
}

/// The cards of each row the page draws, by row.
fn page_rows(dom: &str) -> Vec<Vec<i64>> {
    let rows = dom.split("id=\"rows\"").nth(1).unwrap();
    let rows = rows.split("id=\"seats\"").next().unwrap();
    rows.split("data-row=\"")
        .skip(1)
        .map(|row| {
            attributes(row, "data-card")
                .iter()
                .map(|c| c.parse().unwrap())
                .collect()
        })
        .collect()
}

/// Asserts that a page refers to nothing outside itself.
pub(crate) fn self_contained(html: &str) {
    for outside in [" src=", "href=", "@import", "url(", "<link", "<iframe"] {
        assert!(!html.contains(outside), "the page has {outside}");
    }
}

#[test]
fn the_network_check_sees_a_page_that_loads_something() {
    let page = temp("loads.html");
    std::fs::write(&page, "<img src=\"http://127.0.0.1:9/x.png\"><p>x</p>").unwrap();
    let (_, requests) = browse(&page, "");
    assert_eq!(requests, ["http://127.0.0.1:9/x.png"]);
}

#[test]
fn the_game_page_steps_to_a_take_and_to_the_end_as_the_record_says() {
    let path = record("classic", 31);
    let events = events(&path);
    let page = temp("classic-31.html");
    let html = ok(&take5(&["show", "--html", path.to_str().unwrap()]));
    self_contained(&html);
    std::fs::write(&page, &html).unwrap();
    // The record's first row taken because it was full, with the card placed in its stead and
    // the turn's reveal.
    let at = events
        .iter()
        .position(|e| e["event"] == "take" && e["reason"] == "full")
        .unwrap();
    let take = &events[at];
    let placed = events[at..]
        .iter()
        .find(|e| e["event"] == "place" && e["seat"] == take["seat"])
        .unwrap();
    let reveal = events[..at]
        .iter()
        .rev()
        .find(|e| e["event"] == "reveal")
        .unwrap();
    // Forward, one press at a time, until the page tells that take.
    let shown = format!(
        "takes row {} [{}]",
        take["row"],
        joined(
            &take["cards"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_i64().unwrap())
                .collect::<Vec<_>>()
        )
    );
    // The step that tells it, from the data the page draws from (a browser start per press
    // took most of this test's time); then the page after that many presses, and one fewer.
    let data = page_data(&html);
    let presses = data["steps"]
        .as_array()
        .unwrap()
        .iter()
        .position(|step| step["said"].to_string().contains(&shown))
        .unwrap_or_else(|| panic!("no step tells `{shown}`"));
    // What the page draws after `n` presses, without the data it draws from.
    let drawn_after = |n: usize| {
        let (dom, requests) = browse(&page, &format!("forward={n}"));
        assert!(requests.is_empty(), "the page loaded {requests:?}");
        dom.split("id=\"game-data\"").next().unwrap().to_string()
    };
    let dom = drawn_after(presses);
    assert!(
        dom.contains(&shown),
        "{presses} presses do not show `{shown}`"
    );
    if presses > 0 {
        assert!(
            !drawn_after(presses - 1).contains(&shown),
            "the page shows `{shown}` a press early"
        );
    }
    assert!(
        dom.contains(&format!(
            "round {}, turn {} (line",
            reveal["round"], reveal["turn"]
        )),
        "the step is not the turn of the take"
    );
    let rows = page_rows(&dom);
    let row = take["row"].as_u64().unwrap() as usize;
    assert_eq!(
        rows[row][0],
        placed["card"].as_i64().unwrap(),
        "row {row} starts with the card that took it: {rows:?}"
    );
    // The last step: the final scores.
    let (dom, requests) = browse(&page, "forward=100000");
    assert!(requests.is_empty(), "the page loaded {requests:?}");
    let totals = final_totals(&events);
    let shown: Vec<i64> = attributes(&dom, "data-score")
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    assert_eq!(shown, totals);
    assert_eq!(
        attributes(&dom, "data-totals"),
        [totals
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(",")]
    );
    // The chart draws a line per seat.
    assert_eq!(dom.matches("<polyline").count(), 3);
    // The keys step too.
    let (dom, _) = browse(&page, "keys=End,ArrowLeft,ArrowLeft,ArrowRight");
    let at: usize = attributes(&dom, "data-step")[0].parse().unwrap();
    let (last, _) = browse(&page, "keys=End");
    let end: usize = attributes(&last, "data-step")[0].parse().unwrap();
    assert_eq!(
        at + 1,
        end,
        "End, Left, Left, Right is one step before the last"
    );
    assert_eq!(attributes(&last, "data-totals").len(), 1);
}

// ---------------------------------------------------------------------------------------------
// docs/viewer.md

/// The circle drawn as a ring in docs/viewer.md is what the terminal viewer shows of that game,
/// at that step, in a terminal of 160 columns.
#[test]
fn the_ring_the_viewer_doc_shows_is_the_viewers() {
    let doc = include_str!("../../docs/viewer.md");
    let ring = doc
        .split("in a terminal of 160\ncolumns:\n\n```text\n")
        .nth(1)
        .expect("the ring's example")
        .split("\n```")
        .next()
        .unwrap();
    let path = record_of("circle", &FOUR, 8);
    let tmux = Tmux::start(
        "show-doc-ring",
        &format!("{} show {}", bin(), path.display()),
    );
    tmux.first_frame();
    tmux.keys(&["t"]);
    tmux.wait_for("go to turn");
    // Step 31 is the first of turn 13.
    tmux.line("1.13");
    let expected: Vec<&str> = ring.lines().collect();
    // The status line can be on the screen before the rest of the frame: wait (generously)
    // for step 31 with the doc's ring in it; a wrong ring fails the wait, which shows the screen.
    let holds_ring = |s: &str| {
        let drawn: Vec<&str> = s.lines().map(str::trim_end).collect();
        drawn
            .windows(expected.len())
            .any(|w| w == expected.as_slice())
    };
    let screen = tmux.wait("step 31 with the doc's ring", |s| {
        s.contains("[step 31/") && s.contains("q quit") && holds_ring(s)
    });
    let drawn: Vec<&str> = screen.lines().map(str::trim_end).collect();
    let at = drawn
        .iter()
        .position(|l| *l == expected[0])
        .unwrap_or_else(|| panic!("the doc's ring is not on the screen:\n{screen}"));
    assert_eq!(
        &drawn[at..at + expected.len()],
        expected.as_slice(),
        "{screen}"
    );
    tmux.keys(&["q"]);
    tmux.wait_for("[exited]");
}

/// Every entry docs/viewer.md shows for a human seat is an answer to the question of its row.
#[test]
fn the_entries_the_viewer_doc_shows_answer_their_questions() {
    use take5::cards::Card;
    use take5::game::Decision;
    use take5::show::human::entry_action;
    let doc = include_str!("../../docs/viewer.md");
    let table = doc
        .split("| asked | you type |")
        .nth(1)
        .unwrap()
        .split("\n\n")
        .next()
        .unwrap();
    let decisions = [
        Decision::PlayCard,
        Decision::ChooseRow { card: Card(3) },
        Decision::KeepCard,
        Decision::Pick,
        Decision::Place {
            placed: 1,
            remaining: 2,
        },
        Decision::Special { card: Card(20) },
        Decision::Cancel,
        Decision::Swap,
    ];
    let rows: Vec<&str> = table.lines().skip(2).collect();
    assert_eq!(rows.len(), decisions.len(), "{table}");
    for (row, decision) in rows.iter().zip(decisions) {
        let typed = row.rsplit(" | ").next().unwrap();
        let entries: Vec<&str> = typed.split('`').skip(1).step_by(2).collect();
        assert!(!entries.is_empty(), "{row}");
        for entry in entries {
            assert!(
                entry_action(entry, decision).is_ok(),
                "`{entry}` does not answer {decision:?}: {:?}",
                entry_action(entry, decision)
            );
        }
    }
}

#[test]
fn a_person_given_a_time_limit_who_does_not_answer_is_played_for() {
    let path = temp("human-timed.jsonl");
    let tmux = Tmux::start(
        "human-timed",
        &format!(
            "{} play --player human:100 --player builtin:dodger --seed 3 --record {}",
            bin(),
            path.display()
        ),
    );
    // Nothing is typed: every question runs out of time, whatever the machine's speed.
    tmux.wait_for("[exited]");
    assert!(
        tmux.history()
            .contains("time is up: the referee plays for you")
    );
    let lines = events(&path);
    let faults: Vec<&Value> = lines.iter().filter(|e| e["event"] == "fault").collect();
    assert!(!faults.is_empty());
    assert!(
        faults
            .iter()
            .all(|f| f["seat"] == 0 && f["kind"] == "timeout"),
        "{faults:?}"
    );
    assert!(ok(&take5(&["verify", path.to_str().unwrap()])).starts_with("OK "));
}

// ---------------------------------------------------------------------------------------------
// Hostile strings in the pages

/// Strings that, left raw in a page's data, would open an HTML comment or end its script.
pub(crate) const HOSTILE: [&str; 2] = ["<!--<script>", "</script><b>x"];

/// `text` as the browser's serialized DOM holds a text node of it.
pub(crate) fn as_dom_text(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// What a page draws, without the data it draws from (the first script element).
pub(crate) fn drawn(dom: &str) -> &str {
    dom.split("<script").next().unwrap()
}

/// A game page whose players (bot commands), refused reply, bot stderr in a fault and house
/// script path hold the hostile strings still draws its steps, and shows those strings as text.
#[test]
fn the_game_page_shows_hostile_strings_from_bots_and_files_as_text() {
    let dir = temp("hostile-game");
    // The house script's path holds both strings (a folder `<!--<script><`, then the rest).
    let house = dir.join(format!("{}{}.lua", HOSTILE[0], HOSTILE[1]));
    std::fs::create_dir_all(house.parent().unwrap()).unwrap();
    std::fs::write(&house, "return { target_score = 30 }\n").unwrap();
    let record = dir.join("hostile.jsonl");
    let house_flag = ["--house", house.to_str().unwrap()];
    common::hostile_game(HOSTILE[1], HOSTILE[0], &record, &house_flag);
    // Both bots greet as `misbehave`: without their hellos' names the seats are named by their
    // command lines, which hold the hostile strings.
    common::without_hello_names(&record);
    let header = &events(&record)[0];
    assert_eq!(
        header["house"]["path"],
        format!("{}{}.lua", HOSTILE[0], HOSTILE[1])
    );
    let html = ok(&take5(&["show", "--html", record.to_str().unwrap()]));
    let page = dir.join("hostile.html");
    std::fs::write(&page, &html).unwrap();
    // Where each string is told: the steps as `show --plain` numbers them.
    let plain = ok(&take5(&["show", "--plain", record.to_str().unwrap()]));
    let steps: Vec<&str> = plain.split("\n== step ").skip(1).collect();
    let step_telling = |what: &str| {
        steps
            .iter()
            .position(|s| s.contains(what))
            .unwrap_or_else(|| panic!("no step tells `{what}`:\n{plain}"))
    };
    let told = [
        // The refused reply, quoted in the fault.
        format!("found \"{}\"", HOSTILE[1]),
        // The bot's stderr, in its crash fault.
        format!("dying: {}", HOSTILE[0]),
    ];
    for what in &told {
        let step = step_telling(what);
        let (dom, requests) = browse(&page, &format!("step={step}"));
        assert!(requests.is_empty(), "the page loaded {requests:?}");
        let shown = drawn(&dom);
        assert_eq!(attributes(shown, "data-step"), [step.to_string()], "{what}");
        assert_eq!(
            page_rows(shown).len(),
            4,
            "the rows are drawn at step {step}"
        );
        assert!(
            shown.contains(&as_dom_text(what)),
            "step {step} does not show `{what}` as text:\n{shown}"
        );
        // The players' names (their command lines) head the page.
        for name in [
            format!("reply '{}'", HOSTILE[1]),
            format!("stderr '{}'", HOSTILE[0]),
        ] {
            assert!(
                shown.contains(&as_dom_text(&name)),
                "the name `{name}` is not shown as text"
            );
        }
        assert!(!shown.contains("<b>x"), "a hostile string became markup");
    }
}

// ---------------------------------------------------------------------------------------------
// Names

/// A `take5 play` record names a pipe bot by the name it gave in its `hello` (the header's
/// `hello_names`, docs/records.md), and `take5 show` shows it so; a record without the key (an
/// older take5's) still verifies and names the bot by its command. A tournament's records hold
/// the hellos too, the first game of each job included (its bot greets before the header).
#[test]
fn a_play_record_names_a_pipe_bot_by_the_name_of_its_hello() {
    let python = "python3 sdk/python/example_bot.py";
    let record = temp("hello.jsonl");
    let path = record.to_str().unwrap();
    ok(&take5(&[
        "play",
        "--player",
        python,
        "--player",
        "builtin:dodger",
        "--seed",
        "4",
        "--record",
        path,
        "--quiet",
    ]));
    let text = std::fs::read_to_string(&record).unwrap();
    let header: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(
        header["players"],
        serde_json::json!([python, "builtin:dodger"])
    );
    assert_eq!(
        header["hello_names"],
        serde_json::json!(["example_py", null])
    );
    // docs/records.md shows this header's names, as the record writes them.
    let said = format!(
        "\"players\":{},\"hello_names\":{}",
        header["players"], header["hello_names"]
    );
    assert!(text.lines().next().unwrap().contains(&said), "{text}");
    assert!(
        include_str!("../../docs/records.md").contains(&said),
        "docs/records.md does not show {said}"
    );
    assert!(ok(&take5(&["verify", path])).starts_with("OK "));
    let plain = ok(&take5(&["show", "--plain", path]));
    assert!(
        plain.contains("(2 players): example_py, builtin:dodger"),
        "{plain}"
    );
    assert!(plain.contains("seat 0 example_py"), "{plain}");
    assert!(
        !plain.contains("python3"),
        "a seat named by its command:\n{plain}"
    );
    let html = ok(&take5(&["show", "--html", path]));
    assert!(html.contains("\"players\":[\"example_py\",\"builtin:dodger\"]"));

    // Without the key, as an older take5 wrote it: by its command.
    common::without_hello_names(&record);
    assert!(
        !std::fs::read_to_string(&record)
            .unwrap()
            .contains("hello_names")
    );
    assert!(ok(&take5(&["verify", path])).starts_with("OK "));
    let plain = ok(&take5(&["show", "--plain", path]));
    assert!(
        plain.contains(&format!("(2 players): {python}, builtin:dodger")),
        "{plain}"
    );

    // A tournament on two jobs: every game's header, each job's first too, has the hello.
    let results = temp("hello-results.jsonl");
    let games = temp("hello-tournament.jsonl");
    ok(&common::round_robin(
        &[&format!("py={python}"), "dodger=builtin:dodger"],
        2,
        &results,
        &["--jobs", "2", "--record", games.to_str().unwrap()],
    ));
    let headers: Vec<Value> = events(&games)
        .into_iter()
        .filter(|e| e["event"] == "game")
        .collect();
    assert_eq!(headers.len(), 4);
    for header in &headers {
        let bots = &header["tournament"]["bots"];
        let expected: Vec<Value> = (0..2)
            .map(|s| match bots[s].as_str() {
                Some("py") => Value::from("example_py"),
                _ => Value::Null,
            })
            .collect();
        assert_eq!(header["hello_names"], Value::from(expected), "{header}");
    }
    assert!(ok(&take5(&["verify", games.to_str().unwrap()])).starts_with("OK "));
}
