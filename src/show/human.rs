//! A person at the terminal (`take5 play --player human`): sees what a bot would see, drawn as
//! `take5 show` draws a table, and types the answer a bot would send (`play 37`, `row 2`,
//! `special stop 1`, `pass`, ...; a bare number is enough where a card or a row is asked). A
//! wrong or illegal entry is explained and asked again: it is never a fault. The person's time
//! is not limited, unless asked for (`--player human:MS`).

use super::{Hands, Table, narrate, text};
use crate::game::{Action, Decision, Event, Outcome, Seat, View};
use crate::players::{Answer, Fault, Legality, Limit, Player};
use crate::protocol::parse;
use crate::seat::{FaultKind, GameStart};
use crate::variants::Variant;
use std::fs::OpenOptions;
use std::io::{self, BufRead, BufReader, Write};
use std::os::fd::{AsRawFd, RawFd};
use std::time::{Duration, Instant};

/// A person playing a seat through the controlling terminal (`/dev/tty`), so take5's own
/// output can still be piped.
pub struct Human {
    input: Box<dyn BufRead>,
    output: Box<dyn Write>,
    variant: Variant,
    seats: usize,
    seat: Seat,
    /// Events since the last question, told before the next one.
    heard: Vec<Event>,
    /// The time for each answer, if limited, and the terminal to wait on.
    limit: Option<(Duration, RawFd)>,
    /// At a terminal: the table is drawn for its width (the circle's rows as a ring).
    terminal: bool,
}

impl Human {
    /// A person at the controlling terminal, with `limit` for each answer if given.
    pub fn at_terminal(limit: Option<Duration>) -> Result<Human, String> {
        let tty = OpenOptions::new()
            .read(true)
            .write(true)
            .open("/dev/tty")
            .map_err(|e| format!("--player human needs a terminal (/dev/tty: {e})"))?;
        let output = tty
            .try_clone()
            .map_err(|e| format!("cannot use the terminal: {e}"))?;
        let fd = tty.as_raw_fd();
        let mut human = Human::with(BufReader::new(tty), output);
        human.limit = limit.map(|l| (l, fd));
        human.terminal = true;
        Ok(human)
    }

    /// A person reading from `input` and writing to `output` (tests).
    pub fn with(input: impl BufRead + 'static, output: impl Write + 'static) -> Human {
        Human {
            input: Box::new(input),
            output: Box::new(output),
            variant: Variant::default(),
            seats: 0,
            seat: 0,
            heard: Vec::new(),
            limit: None,
            terminal: false,
        }
    }

    /// Waits until a line can be read or the time from `start` is up; false when it is up.
    fn wait_for_line(&self, start: Instant) -> bool {
        let Some((limit, fd)) = self.limit else {
            return true;
        };
        loop {
            let left = limit.saturating_sub(start.elapsed());
            if left.is_zero() {
                return false;
            }
            let mut fds = [libc::pollfd {
                fd,
                events: libc::POLLIN,
                revents: 0,
            }];
            let ms = libc::c_int::try_from(left.as_millis().max(1)).unwrap_or(libc::c_int::MAX);
            // SAFETY: `fds` is a valid array of one pollfd.
            let ready = unsafe { libc::poll(fds.as_mut_ptr(), 1, ms) };
            if ready > 0 {
                // A terminal in line mode is readable once a whole line is typed.
                return true;
            }
            if ready < 0 && io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
                return true;
            }
        }
    }

    fn say(&mut self, text: &str) -> io::Result<()> {
        self.output.write_all(text.as_bytes())?;
        self.output.flush()
    }

    /// Tells what happened since the last question.
    fn tell_heard(&mut self) -> io::Result<()> {
        let players = seat_names(self.seats, self.seat);
        let said = narrate(&self.heard, &players, Hands::Seat(self.seat));
        self.heard.clear();
        let mut out = String::new();
        for line in said {
            out.push_str("  ");
            out.push_str(&line);
            out.push('\n');
        }
        self.say(&out)
    }

    fn lost(e: io::Error) -> Box<Fault> {
        Fault::new(FaultKind::Crash, format!("the terminal is gone: {e}"), true)
    }
}

/// The seats' names as the person at `seat` hears them: `you`, and `seat N` for the others.
fn seat_names(seats: usize, seat: Seat) -> Vec<String> {
    (0..seats)
        .map(|s| {
            if s == seat {
                "you".to_string()
            } else {
                format!("seat {s}")
            }
        })
        .collect()
}

/// Cards as a list for a question: `12, 17, 33`.
fn listed(cards: &[crate::cards::Card]) -> String {
    cards
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// What `view`'s decision asks, and how to answer it.
fn question(decision: Decision, view: &View) -> String {
    match decision {
        Decision::KeepCard => format!(
            "The card for your #-row, one of those you took: {} (e.g. `{}`)",
            listed(view.keep_from()),
            view.keep_from().first().map_or(0, |c| c.0)
        ),
        Decision::Cancel => format!(
            "You are about to take {}: `cancel CARD` (Negative = Positive on one of them) or \
             `pass`",
            listed(view.taking())
        ),
        Decision::PlayCard => "Your card for this turn (e.g. `37`)".into(),
        Decision::ChooseRow { card } => {
            format!("Your {card} is lower than every row's end: the row you take (e.g. `0`)")
        }
        Decision::Pick => "The card you pick from the pool (e.g. `12`)".into(),
        Decision::Place { placed, remaining } => format!(
            "Place a card (`37`), a special card into a row (`special x2 3`){}; {remaining} more \
             may be placed this turn",
            if placed > 0 {
                ", or `end` the turn"
            } else {
                ""
            }
        ),
        Decision::Special { card } => format!(
            "Your {card} is about to be placed: play a special card (`special fifth_row`, \
             `special seven_nimmt ROW`, `special insert ROW AT`, `special replace CARD`, \
             `special shift CARD ROW AT`, `special stop ROW`) or `pass`"
        ),
        Decision::Swap => {
            "You took a row: `swap NAME` (give that special card for the deck's top) or `pass`"
                .into()
        }
    }
}

/// The entry as a bot's answer: a bare number becomes the keyword the decision asks for.
fn as_answer(entry: &str, decision: Decision) -> String {
    let bare = !entry.is_empty() && entry.bytes().all(|b| b.is_ascii_digit());
    if !bare {
        return entry.to_string();
    }
    let keyword = match decision {
        Decision::PlayCard | Decision::Place { .. } | Decision::Special { .. } => "play",
        Decision::ChooseRow { .. } => "row",
        Decision::KeepCard => "keep",
        Decision::Pick => "pick",
        Decision::Cancel => "cancel",
        Decision::Swap => "swap",
    };
    format!("{keyword} {entry}")
}

/// The action an entry gives in answer to `decision`, or why it gives none.
pub fn entry_action(entry: &str, decision: Decision) -> Result<Action, String> {
    let line = as_answer(entry.trim(), decision);
    let reply = parse::from_bot(&line).map_err(|e| format!("`{line}`: {e}"))?;
    reply.answer(decision).map_err(|e| e.to_string())
}

/// A rule's message about seat `seat` said to the person in that seat: `card 99 is not in
/// your hand`, `you must pick a card from the pool`.
fn to_you(message: &str, seat: Seat) -> String {
    let me = format!("seat {seat}");
    message
        .replace(&format!("{me}'s"), "your")
        .replace(&format!("{me} has"), "you have")
        .replace(&me, "you")
        .replace(" its ", " your ")
}

impl Player for Human {
    fn name(&self) -> &str {
        "human"
    }

    fn start_game(&mut self, start: &GameStart) -> Answer<()> {
        self.variant = start.variant;
        self.seats = start.seats;
        self.seat = start.seat;
        self.heard.clear();
        self.say(&format!(
            "\n=== game {}: {}, {} players; you are seat {} ===\n",
            start.number,
            start.variant.name(),
            start.seats,
            start.seat
        ))
        .map_err(Human::lost)
    }

    fn wants_events(&self) -> bool {
        true
    }

    fn observe(&mut self, _seat: Seat, event: &Event) -> Answer<()> {
        self.heard.push(event.clone());
        Ok(())
    }

    fn decide(&mut self, view: &View, legal: Legality, _limit: Limit) -> Answer<Action> {
        let decision = view.decision.expect("asked only when a decision is owed");
        self.tell_heard().map_err(Human::lost)?;
        let players = seat_names(view.seats, view.seat);
        let table = Table::from_view(view, self.variant, &players);
        // Measured at each question: the person may have resized the terminal.
        let width = (self.terminal)
            .then(ratatui::crossterm::terminal::size)
            .and_then(Result::ok)
            .map(|(columns, _)| usize::from(columns));
        let drawn = text::plain(&text::table_in(&table, width));
        self.say(&format!("\n{drawn}")).map_err(Human::lost)?;
        let start = Instant::now();
        loop {
            self.say(&format!("{}\n> ", question(decision, view)))
                .map_err(Human::lost)?;
            if !self.wait_for_line(start) {
                let ms = self.limit.map_or(0, |(l, _)| l.as_millis());
                self.say("\ntime is up: the referee plays for you this time.\n")
                    .map_err(Human::lost)?;
                return Err(Fault::new(
                    FaultKind::Timeout,
                    format!("no answer within {ms} ms"),
                    false,
                ));
            }
            let mut entry = String::new();
            let read = self.input.read_line(&mut entry).map_err(Human::lost)?;
            if read == 0 {
                return Err(Fault::new(
                    FaultKind::Crash,
                    "the person at the terminal left (end of input)",
                    true,
                ));
            }
            if entry.trim().is_empty() {
                continue;
            }
            // Told to a person: no protocol keywords, and the rules speak of "you".
            let why = match entry_action(&entry, decision) {
                Ok(action) => match legal(action) {
                    Ok(()) => return Ok(action),
                    Err(e) => format!("not allowed: {}", to_you(&e.to_string(), view.seat)),
                },
                Err(_) => format!(
                    "`{}` is not an answer to this question (it says what to type)",
                    entry.trim()
                ),
            };
            self.say(&format!("{why}; try again.\n"))
                .map_err(Human::lost)?;
        }
    }

    fn end_game(&mut self, outcome: &Outcome) {
        let _ = self.tell_heard();
        let totals: Vec<String> = outcome.totals.iter().map(i32::to_string).collect();
        let verdict = if outcome.winners.contains(&self.seat) {
            "you win"
        } else {
            "you do not win"
        };
        let _ = self.say(&format!(
            "=== game over: totals {}; {verdict} ===\n",
            totals.join(", ")
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{Card, Special};
    use crate::game::SpecialPlay;

    #[test]
    fn the_rules_speak_to_the_person_in_the_seat() {
        assert_eq!(
            to_you("seat 2 must place a card before ending its turn", 2),
            "you must place a card before ending your turn"
        );
        assert_eq!(
            to_you("seat 1 has already chosen a card this turn", 1),
            "you have already chosen a card this turn"
        );
        assert_eq!(
            to_you("seat 0 may not act now: waiting for seat 1", 0),
            "you may not act now: waiting for seat 1"
        );
    }

    #[test]
    fn a_bare_number_answers_what_is_asked() {
        assert_eq!(
            entry_action("37", Decision::PlayCard),
            Ok(Action::Play(Card(37)))
        );
        assert_eq!(
            entry_action(" 2 \n", Decision::ChooseRow { card: Card(1) }),
            Ok(Action::TakeRow(2))
        );
        assert_eq!(
            entry_action("12", Decision::Pick),
            Ok(Action::Pick(Card(12)))
        );
        assert_eq!(
            entry_action("55", Decision::Cancel),
            Ok(Action::Cancel(Card(55)))
        );
    }

    #[test]
    fn a_bots_answer_is_understood_and_a_wrong_one_explained() {
        assert_eq!(
            entry_action("special stop 1", Decision::Special { card: Card(9) }),
            Ok(Action::Special(SpecialPlay::Stop { row: 1 }))
        );
        assert_eq!(
            entry_action(
                "special x2 3",
                Decision::Place {
                    placed: 0,
                    remaining: 3
                }
            ),
            Ok(Action::PlaceSpecial {
                special: Special::Double,
                row: 3
            })
        );
        assert_eq!(
            entry_action(
                "end",
                Decision::Place {
                    placed: 1,
                    remaining: 2
                }
            ),
            Ok(Action::EndTurn)
        );
        let wrong = entry_action("row 2", Decision::PlayCard).unwrap_err();
        assert!(wrong.contains("play <card>"), "{wrong}");
        let garbage = entry_action("twelve", Decision::PlayCard).unwrap_err();
        assert!(garbage.starts_with("`twelve`: expected"), "{garbage}");
    }

    /// The person's side of a question: the table, a refused entry explained, asked again.
    #[test]
    fn a_refused_entry_is_explained_and_asked_again() {
        use crate::variants::Variant;
        use std::sync::{Arc, Mutex};
        #[derive(Clone, Default)]
        struct Screen(Arc<Mutex<Vec<u8>>>);
        impl Write for Screen {
            fn write(&mut self, b: &[u8]) -> io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let screen = Screen::default();
        let mut human = Human::with(io::Cursor::new("hello\n99\n\n17\n"), screen.clone());
        let classic = Variant::from_name("classic").unwrap();
        let rules = classic.rules();
        let mut game = classic.new_game(Arc::new(rules.clone()), 2).unwrap();
        let deal = crate::game::Deal {
            hands: vec![(11..=20).map(Card).collect(), (21..=30).map(Card).collect()],
            rows: vec![Card(1), Card(2), Card(3), Card(4)],
            specials: None,
        };
        use crate::game::Game;
        game.deal(&deal, &mut crate::game::Discard).unwrap();
        let start = GameStart {
            number: 0,
            variant: classic,
            rules: &rules,
            seats: 2,
            seat: 0,
            time_ms: 0,
            seed: 0,
        };
        human.start_game(&start).unwrap();
        let view = game.view(0);
        let action = human
            .decide(
                &view,
                &|a| game.check(0, a),
                Limit::per_decision(Duration::from_millis(1)),
            )
            .unwrap();
        assert_eq!(action, Action::Play(Card(17)));
        let shown = String::from_utf8(screen.0.lock().unwrap().clone()).unwrap();
        assert!(shown.contains("hand: 11:5 12:1"), "{shown}");
        assert!(
            shown.contains("`hello` is not an answer to this question (it says what to type)"),
            "{shown}"
        );
        assert!(
            shown.contains("not allowed: card 99 is not in your hand; try again."),
            "{shown}"
        );
        // Nothing of the protocol's words: its keywords list, its `ask` lines.
        assert!(!shown.contains("expected a message"), "{shown}");
        assert!(!shown.contains("seat 0's"), "{shown}");
        // Asked first, then again after each of the three entries that gave no card.
        assert_eq!(
            shown.matches("Your card for this turn").count(),
            4,
            "{shown}"
        );
    }
}
