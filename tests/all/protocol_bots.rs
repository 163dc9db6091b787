//! The example bots in scripts/bots/ speak the protocol: each is run as a process and fed a
//! scripted exchange built with the printers from a real deal.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};
use take5::cards::{Card, Special};
use take5::game::{Action, Event, Game, Illegal, RuleError};
use take5::protocol::{Ask, ErrorKind, FromBot, Request, VERSION, parse, print};
use take5::rng::{GameRng, Stream};
use take5::rules::Rules;
use take5::seat::GameStart;
use take5::variants::circle::{Circle, CircleSetup};
use take5::variants::{AnyGame, Variant};

const PATIENCE: Duration = Duration::from_secs(10);

fn bot_path(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scripts/bots")
        .join(file)
}

/// A bot process with its stdout read line by line on a thread (so a silent bot fails the test
/// instead of hanging it).
struct Bot {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// `\r\n` instead of `\n` after each line sent.
    crlf: bool,
}

impl Bot {
    fn start(path: &Path, crlf: bool) -> Bot {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", path.display()));
        let stdout = child.stdout.take().unwrap();
        let (send, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Bot {
            stdin: child.stdin.take(),
            child,
            lines,
            crlf,
        }
    }

    fn send(&mut self, line: &str) {
        assert!(line.ends_with('\n'));
        let line = if self.crlf {
            line.replace('\n', "\r\n")
        } else {
            line.to_string()
        };
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    /// Sends `line` and reads the one reply it calls for.
    fn ask(&mut self, line: &str) -> FromBot {
        self.send(line);
        let reply = match self.lines.recv_timeout(PATIENCE) {
            Ok(reply) => reply,
            Err(e) => panic!("no reply to {line:?}: {e:?}"),
        };
        parse::from_bot(&reply).unwrap_or_else(|e| panic!("reply {reply:?} to {line:?}: {e}"))
    }

    /// Greets the bot, which must answer with a greeting.
    fn greet(&mut self) {
        assert!(self.ask(&printed(&|o| print::hello(o))).greeting().is_ok());
    }

    /// Tells the bot that its last reply broke `rule` (2 tries left); returns its next reply.
    fn refused(&mut self, rule: RuleError) -> FromBot {
        self.ask(&error_line(rule, 2))
    }

    /// Says bye; the bot must exit cleanly, having said nothing more.
    fn bye(mut self) {
        self.send(&printed(&|o| print::bye(o)));
        self.finish();
    }

    /// Closes stdin (if not yet), then waits for the exit, which must be a success; the bot
    /// must have said nothing more.
    fn finish(mut self) {
        drop(self.stdin.take());
        let deadline = Instant::now() + PATIENCE;
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("the bot did not exit");
            }
            thread::sleep(Duration::from_millis(10));
        };
        match self.lines.recv_timeout(PATIENCE) {
            Err(RecvTimeoutError::Disconnected) => {}
            other => panic!("unexpected output after the last reply: {other:?}"),
        }
        assert!(status.success(), "{status}");
    }
}

/// The lines of the script, from a real classic deal seen by seat 0.
struct Script {
    hello: String,
    game: String,
    deal: String,
    play: String,
    row: String,
    hand: Vec<Card>,
    rows: usize,
}

/// What a printer writes, as a string.
fn printed(print: &dyn Fn(&mut String)) -> String {
    let mut out = String::new();
    print(&mut out);
    out
}

/// The `game` line seat 0 gets for a game of `variant` under `rules` with `seats` seats.
fn game_line(variant: Variant, rules: &Rules, seats: usize) -> String {
    let start = GameStart {
        number: 0,
        variant,
        rules,
        seats,
        seat: 0,
        time_ms: 2000,
        seed: 1,
    };
    printed(&|o| print::game(o, &start))
}

/// A game of `variant` (its standard rules) for `seats` seats, dealt from `seed`: the rules,
/// the game and the events of the deal.
fn dealt(variant: Variant, seats: usize, seed: u64) -> (Arc<Rules>, AnyGame, Vec<Event>) {
    let rules = Arc::new(variant.rules());
    let mut game = variant.new_game(rules.clone(), seats).unwrap();
    let mut events: Vec<Event> = Vec::new();
    game.deal_random(&mut GameRng::new(seed, Stream::Deal(0)), &mut events)
        .unwrap();
    (rules, game, events)
}

fn script() -> Script {
    let (rules, game, events) = dealt(Variant::Classic, 4, 11);
    let view = game.view(0);
    let play = Request::from_view(&view).unwrap();
    // A row choice for the lowest card, as if it had been played and were below every row.
    let mut row = play.clone();
    row.ask = Ask::Row {
        card: play.hand[0],
        revealed: vec![play.hand[0], Card(50), Card(60), Card(70)],
    };
    row.hand.remove(0);
    Script {
        hello: printed(&|o| print::hello(o)),
        game: game_line(Variant::Classic, &rules, 4),
        deal: printed(&|o| print::event(o, 0, &events[0])),
        play: printed(&|o| print::ask(o, &view)),
        row: printed(&|o| print::request(o, &row)),
        hand: play.hand.clone(),
        rows: play.rows.len(),
    }
}

fn error_line(rule: RuleError, tries_left: usize) -> String {
    let mut out = String::new();
    print::illegal(&mut out, &rule, tries_left);
    assert!(matches!(
        parse::to_bot(&out),
        Ok(take5::protocol::ToBot::Error {
            kind: ErrorKind::Illegal,
            ..
        })
    ));
    out
}

/// hello, game, event deal, ask play, ask row, error, ask play, error, bye.
fn converse(path: &Path, crlf: bool) {
    let s = script();
    let mut bot = Bot::start(path, crlf);
    let hello = bot.ask(&s.hello);
    let (name, _) = hello
        .greeting()
        .unwrap_or_else(|e| panic!("{hello:?}: {e}"));
    assert!(!name.is_empty());
    assert!(matches!(
        hello,
        FromBot::Hello {
            version: VERSION,
            ..
        }
    ));
    bot.send(&s.game);
    bot.send(&s.deal);

    let FromBot::Play(card) = bot.ask(&s.play) else {
        panic!("expected play")
    };
    assert!(s.hand.contains(&card), "{card} is not in the hand");

    let FromBot::Row(row) = bot.ask(&s.row) else {
        panic!("expected row")
    };
    assert!(row < s.rows, "row {row}");
    // Told the row is wrong, it answers the same request with another row.
    let FromBot::Row(again) = bot.refused(RuleError::Illegal(Illegal::NoSuchRow { row, rows: 3 }))
    else {
        panic!("expected row after the error")
    };
    assert!(
        again < s.rows && again != row,
        "row {again} after row {row}"
    );

    let FromBot::Play(card) = bot.ask(&s.play) else {
        panic!("expected play")
    };
    assert!(s.hand.contains(&card), "{card} is not in the hand");
    let FromBot::Play(other) =
        bot.refused(RuleError::Illegal(Illegal::NotInHand { seat: 0, card }))
    else {
        panic!("expected play after the error")
    };
    assert!(
        s.hand.contains(&other) && other != card,
        "{other} after {card}"
    );
    bot.bye();
}

/// Take a Number: hello, game, event deal, ask play (with the #-row fields), ask keep, error
/// `not_taken`, bye. The bot must keep one of the cards taken, and another after the error.
fn converse_take_a_number(path: &Path) {
    let (rules, game, events) = dealt(Variant::TakeANumber, 3, 5);
    let view = game.view(0);
    let play = Request::from_view(&view).unwrap();
    // As if seat 0 had taken the first cards of the three rows with its lowest card.
    let taken: Vec<Card> = play.rows.iter().map(|r| r[0]).collect();
    let mut keep = play.clone();
    keep.ask = Ask::Keep {
        revealed: vec![play.hand[0], Card(99), Card(98)],
    };
    keep.hand.remove(0);
    keep.number.as_mut().unwrap().keep_from = taken.clone();
    let play_line = printed(&|o| print::ask(o, &view));
    assert!(play_line.contains(" hashrows="), "{play_line}");

    let mut bot = Bot::start(path, false);
    bot.greet();
    bot.send(&game_line(Variant::TakeANumber, &rules, 3));
    bot.send(&printed(&|o| print::event(o, 0, &events[0])));
    let FromBot::Play(card) = bot.ask(&play_line) else {
        panic!("expected play")
    };
    assert!(play.hand.contains(&card), "{card} is not in the hand");
    let FromBot::Keep(kept) = bot.ask(&printed(&|o| print::request(o, &keep))) else {
        panic!("expected keep")
    };
    assert!(taken.contains(&kept), "{kept} was not taken");
    let FromBot::Keep(again) = bot.refused(RuleError::Illegal(Illegal::NotTaken {
        seat: 0,
        card: kept,
    })) else {
        panic!("expected keep after the error")
    };
    assert!(
        taken.contains(&again) && again != kept,
        "{again} after {kept}"
    );
    bot.bye();
}

/// A Pro draft: hello, game, ask pick (seat 0's first pick), event pick (seat 0's), ask pick
/// (seat 0's second), error, ask pick again, bye.
fn converse_pro(path: &Path, crlf: bool) {
    let mut game = Variant::Pro
        .new_game(Arc::new(Variant::Pro.rules()), 2)
        .unwrap();
    let mut bot = Bot::start(path, crlf);
    bot.greet();
    bot.send(&game_line(Variant::Pro, game.rules(), 2));

    let first = printed(&|o| print::ask(o, &game.view(0)));
    assert!(
        first.starts_with("ask pick seat=0 round=1 pool=1,2,3,"),
        "{first}"
    );
    let FromBot::Pick(card) = bot.ask(&first) else {
        panic!("expected pick")
    };
    assert!((1..=24).contains(&card.0), "{card} is not in the pool");
    let mut events: Vec<Event> = Vec::new();
    game.apply(0, take5::game::Action::Pick(card), &mut events)
        .unwrap();
    let reply = if card == Card(24) { Card(23) } else { Card(24) };
    game.apply(1, take5::game::Action::Pick(reply), &mut events)
        .unwrap();
    for event in &events {
        bot.send(&printed(&|o| print::event(o, 0, event)));
    }
    let view = game.view(0);
    let pool = view.pool.to_vec();
    let FromBot::Pick(second) = bot.ask(&printed(&|o| print::ask(o, &view))) else {
        panic!("expected pick")
    };
    assert!(pool.contains(&second), "{second} is not in the pool");
    let FromBot::Pick(other) = bot.refused(RuleError::Illegal(Illegal::NotInPool {
        seat: 0,
        card: second,
    })) else {
        panic!("expected pick after the error")
    };
    assert!(
        pool.contains(&other) && other != second,
        "{other} after {second}"
    );
    bot.bye();
}

/// The circle game: hello, game, event deal, ask place from a real deal (the reply must be
/// legal), then a table where seat 0 holds only special cards: ask place, error, ask place again
/// (both replies legal special cards, the second another one), bye.
fn converse_circle(path: &Path) {
    let (rules, mut game, mut events) = dealt(Variant::Circle, 2, 4);
    let mut bot = Bot::start(path, false);
    bot.greet();
    let game_line = game_line(Variant::Circle, &rules, 2);
    assert!(game_line.contains(" red=5,10,11,"), "{game_line}");
    bot.send(&game_line);
    bot.send(&printed(&|o| print::event(o, 0, &events[0])));
    // Three placements in a row, each legal (the last may end the turn).
    for _ in 0..3 {
        let view = game.view(0);
        let Some(decision) = view.decision else { break };
        let reply = bot.ask(&printed(&|o| print::ask(o, &view)));
        let action = reply.answer(decision).unwrap();
        game.check(0, action)
            .unwrap_or_else(|e| panic!("{reply} is illegal: {e}"));
        game.apply(0, action, &mut events).unwrap();
    }

    let setup = CircleSetup {
        rows: vec![vec![Card(10)], vec![Card(30)]],
        row_specials: vec![vec![Special::Double], Vec::new()],
        hands: vec![Vec::new(), vec![Card(20)]],
        held: vec![Special::CIRCLE.to_vec(), Vec::new()],
        first: 0,
    };
    let game = Circle::from_setup(rules.clone(), &setup).unwrap();
    let view = game.view(0);
    let decision = view.decision.unwrap();
    let reply = bot.ask(&printed(&|o| print::ask(o, &view)));
    let first = reply.answer(decision).unwrap();
    assert!(matches!(first, Action::PlaceSpecial { .. }), "{reply}");
    game.check(0, first)
        .unwrap_or_else(|e| panic!("{reply} is illegal: {e}"));
    let again = bot.refused(RuleError::Illegal(Illegal::SpecialInRow {
        row: 0,
        special: Special::Double,
    }));
    let second = again.answer(decision).unwrap();
    assert!(second != first, "{again} after {reply}");
    game.check(0, second)
        .unwrap_or_else(|e| panic!("{again} is illegal: {e}"));
    bot.bye();
}

/// A bot whose referee goes away exits cleanly too.
fn exits_at_end_of_input(path: &Path) {
    let s = script();
    let mut bot = Bot::start(path, false);
    bot.greet();
    bot.send(&s.game);
    bot.finish();
}

fn has_python() -> bool {
    let found = Command::new("python3")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !found {
        eprintln!("SKIPPED: python3 is not installed, the Python bot is not tested");
    }
    found
}

#[test]
fn python_bot_speaks_the_protocol() {
    if !has_python() {
        return;
    }
    let path = bot_path("python_bot.py");
    converse(&path, false);
    converse(&path, true);
    converse_take_a_number(&path);
    converse_pro(&path, false);
    converse_pro(&path, true);
    converse_circle(&path);
    exits_at_end_of_input(&path);
}

#[test]
fn shell_bot_speaks_the_protocol() {
    let path = bot_path("shell_bot.sh");
    converse(&path, false);
    converse(&path, true);
    converse_take_a_number(&path);
    converse_pro(&path, false);
    converse_pro(&path, true);
    converse_circle(&path);
    exits_at_end_of_input(&path);
}

#[test]
fn shell_bot_runs_under_a_strict_posix_shell() {
    // Where /bin/sh is bash, the shebang hides bash-isms: run the bot with dash, a shell close to
    // plain POSIX, when it is installed.
    let Ok(dash) = which("dash") else {
        eprintln!("SKIPPED: dash is not installed");
        return;
    };
    let s = script();
    let mut child = Command::new(dash)
        .arg(bot_path("shell_bot.sh"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pick = "ask pick seat=0 round=2 pool=3,4 hand=1 scores=0,0,0,0 taken=0,0,0,0\n";
    // The circle game: only special cards in hand, row 0 already holds an x2; then a turn
    // with a card placed.
    let specials = "ask place seat=0 round=1 turn=1 placed=0 remaining=3 hand= rows=10/30 \
                    scores=0,0 taken=-20,0 rowspecials=x2/ held=x2,plus5/ hands=0,1\n";
    let placed = "ask place seat=0 round=1 turn=1 placed=1 remaining=2 hand=5 rows=10/30 \
                  scores=0,0 taken=-20,0 rowspecials=/ held=x2,plus5/ hands=1,1\n";
    let input = [
        s.hello.as_str(),
        &s.game,
        &s.deal,
        &s.play,
        &s.row,
        pick,
        specials,
        placed,
        "bye\n",
    ]
    .concat();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    assert!(output.stderr.is_empty(), "{:?}", output.stderr);
    let replies: Vec<FromBot> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| parse::from_bot(l).unwrap())
        .collect();
    assert_eq!(replies.len(), 6, "{replies:?}");
    assert!(matches!(
        replies[..],
        [
            FromBot::Hello { .. },
            FromBot::Play(_),
            FromBot::Row(_),
            FromBot::Pick(Card(3)),
            FromBot::PlaceSpecial {
                special: Special::Double,
                row: 1
            },
            FromBot::End
        ]
    ));
}

fn which(program: &str) -> Result<PathBuf, ()> {
    let path = std::env::var_os("PATH").ok_or(())?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
        .ok_or(())
}
