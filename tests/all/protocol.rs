//! The text protocol: every message prints and parses back to itself, from owned values and
//! from a real game's views and events.

use std::borrow::Cow;
use std::sync::Arc;
use take5::cards::{Card, Deck, Special};
use take5::game::{
    Action, CircleTable, Decision, Discard, Event, Game, NumberTable, SpecialPlay, SpecialTable,
    TakeReason, ToMove, View,
};
use take5::players::builtin::{Builtin, Strategy, circle_greedy};
use take5::protocol::parse::{self, MAX_NAME, is_name_char};
use take5::protocol::{
    Ask, ErrorKind, EventLine, FromBot, GameInfo, Mismatch, Request, ToBot, VERSION, print,
};
use take5::rng::{GameRng, Stream};
use take5::rules::{GameEnd, Rules};
use take5::seat::{ClockReading, GameStart};
use take5::variants::Variant;
use take5::variants::classic::Classic;

fn text_to_bot(message: &ToBot) -> String {
    let mut out = String::new();
    print::to_bot(&mut out, message);
    out
}

fn text_from_bot(message: &FromBot) -> String {
    let mut out = String::new();
    print::from_bot(&mut out, message);
    out
}

/// Prints `message`, parses it back, and prints that again: the value and the text must both
/// survive.
fn round_trip_to_bot(message: &ToBot) {
    let text = text_to_bot(message);
    assert!(
        text.ends_with('\n') && text.matches('\n').count() == 1,
        "{text:?}"
    );
    let parsed = parse::to_bot(&text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
    assert_eq!(&parsed, message, "{text:?}");
    assert_eq!(text_to_bot(&parsed), text);
    assert_eq!(format!("{message}\n"), text);
}

fn round_trip_from_bot(message: &FromBot) {
    let text = text_from_bot(message);
    assert!(
        text.ends_with('\n') && text.matches('\n').count() == 1,
        "{text:?}"
    );
    let parsed = parse::from_bot(&text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
    assert_eq!(&parsed, message, "{text:?}");
    assert_eq!(text_from_bot(&parsed), text);
    assert_eq!(format!("{message}\n"), text);
}

/// Parses `line` and prints it back identically.
fn reprint_to_bot(line: &str) {
    let parsed = parse::to_bot(line).unwrap_or_else(|e| panic!("{line:?}: {e}"));
    assert_eq!(text_to_bot(&parsed), format!("{line}\n"));
}

fn cards(numbers: &[u16]) -> Vec<Card> {
    numbers.iter().map(|&n| Card(n)).collect()
}

#[test]
fn every_message_of_the_description_reprints() {
    for line in [
        "hello version=1",
        "game number=0 variant=classic seats=4 seat=2 rows=4 row_capacity=5 hand_size=10 \
         end=score:66 lowest=1 bullheads=1,1,1,1,2",
        "game number=18446744073709551615 variant=classic seats=2 seat=0 rows=1 row_capacity=1 \
         hand_size=1 end=rounds:3 lowest=7 bullheads=",
        "game number=1 variant=classic seats=2 seat=1 rows=4 row_capacity=5 hand_size=10 \
         end=score:66 lowest=1 bullheads=1,1 time_ms=2000 seed=18446744073709551615",
        "event deal round=1 hand=3,17,22 rows=12,40,77,91",
        "event reveal round=1 turn=1 cards=17,5,40,88",
        "event take seat=1 row=2 cards=77,78 bullheads=2 reason=low",
        "event take seat=0 row=0 cards=1,2,3,4,5 bullheads=6 reason=full",
        "event place seat=1 card=5 row=2",
        "event round_end round=1 penalties=5,0,3,2 totals=5,0,3,2",
        "event game_end totals=5,0,3,2 winners=1",
        "event game_end totals=5,5 winners=0,1",
        "ask play seat=2 round=1 turn=3 hand=3,17,22 rows=12,13/40/77/91 scores=0,0,0,0 \
         taken=0,2,0,0",
        "ask row seat=2 round=1 turn=3 card=5 hand=3,17,22 rows=12,13/40/77/91 scores=0,0,0,0 \
         taken=0,2,0,0 revealed=17,5,40,88",
        "ask row seat=0 round=2 turn=10 card=1 hand= rows=12/40 scores=7,3 taken=0,0 \
         revealed=1,104",
        "error syntax expected a card number after \"play\" at column 6, found \"5x\" \
         (2 tries left)",
        "error unexpected \"row\" does not answer \"ask play\": expected \"play <card>\" \
         (1 try left)",
        "error illegal not_in_hand: card 99 is not in seat 2's hand (2 tries left)",
        "error too_long the reply is over 1024 bytes (2 tries left)",
        "error encoding the reply is not UTF-8 (2 tries left)",
        "error version version 2 is not spoken here: this referee speaks version 1 \
         (2 tries left)",
        "error syntax",
        "bye",
    ] {
        reprint_to_bot(line);
    }
    for line in [
        "hello version=1 name=python_bot",
        "play 5",
        "row 0",
        "row 3",
    ] {
        let parsed = parse::from_bot(line).unwrap_or_else(|e| panic!("{line:?}: {e}"));
        assert_eq!(text_from_bot(&parsed), format!("{line}\n"));
    }
}

#[test]
fn every_message_round_trips() {
    let request = Request {
        ask: Ask::Play,
        seat: 2,
        round: 1,
        turn: 3,
        hand: cards(&[3, 17, 22]),
        rows: vec![cards(&[12, 13]), cards(&[40]), cards(&[77]), cards(&[91])],
        scores: vec![0, 0, 0, 0],
        taken: vec![0, 2, 0, 0],
        number: None,
        circle: None,
        specials: None,
        special_hand: Vec::new(),
        clock: None,
    };
    let number = NumberTable {
        capacities: Vec::new(),
        hash_rows: vec![cards(&[5, 30]), cards(&[61]), cards(&[2]), cards(&[9])],
        hash_piles: vec![0, 3, 0, 1],
        hand_sizes: vec![3, 6, 8, 2],
        keep_from: Vec::new(),
    };
    let messages = [
        ToBot::Hello { version: 1 },
        ToBot::Game(GameInfo {
            number: 7,
            variant: "classic".into(),
            seats: 4,
            seat: 2,
            rows: 4,
            row_capacity: 5,
            hand_size: 10,
            end: GameEnd::TargetScore(66),
            deck: Cow::Owned(Deck::classic(104)),
            time_ms: Some(2000),
            seed: Some(12345),
        }),
        ToBot::Event(EventLine::Deal {
            round: 1,
            hand: cards(&[3, 17, 22]),
            rows: cards(&[12, 40, 77, 91]),
        }),
        ToBot::Event(EventLine::Public(Event::Reveal {
            round: 1,
            turn: 1,
            cards: cards(&[17, 5, 40, 88]),
        })),
        ToBot::Event(EventLine::Public(Event::Take {
            seat: 1,
            row: 2,
            cards: cards(&[77, 78]),
            bullheads: 2,
            reason: TakeReason::Low,
        })),
        ToBot::Event(EventLine::Public(Event::Place {
            seat: 1,
            card: Card(5),
            row: 2,
        })),
        ToBot::Event(EventLine::Public(Event::RoundEnd {
            round: 1,
            penalties: vec![5, 0, 3, 2],
            totals: vec![5, 0, 3, 2],
        })),
        ToBot::Event(EventLine::Public(Event::GameEnd {
            totals: vec![5, 0, 3, 2],
            winners: vec![1],
        })),
        ToBot::Ask(request.clone()),
        ToBot::Ask(Request {
            ask: Ask::Row {
                card: Card(5),
                revealed: cards(&[17, 5, 40, 88]),
            },
            ..request.clone()
        }),
        ToBot::Ask(Request {
            ask: Ask::Keep {
                revealed: cards(&[13, 5, 70, 88]),
            },
            rows: vec![cards(&[12, 13]), cards(&[40]), cards(&[77])],
            number: Some(NumberTable {
                keep_from: cards(&[12, 13]),
                ..number.clone()
            }),
            ..request.clone()
        }),
        ToBot::Ask(Request {
            number: Some(number),
            specials: None,
            ..request
        }),
        ToBot::Event(EventLine::Public(Event::Keep {
            seat: 1,
            card: Card(40),
        })),
        ToBot::Event(EventLine::Public(Event::Pile {
            seat: 1,
            cards: cards(&[12, 31]),
        })),
        ToBot::Error {
            kind: ErrorKind::Illegal,
            text: "not_in_hand: card 99 is not in seat 2's hand (2 tries left)".into(),
        },
        ToBot::Bye,
    ];
    for message in &messages {
        round_trip_to_bot(message);
    }
    for kind in ErrorKind::ALL {
        round_trip_to_bot(&ToBot::Error {
            kind,
            text: String::new(),
        });
    }
    for message in [
        FromBot::Hello {
            version: 1,
            name: "a".repeat(MAX_NAME),
            events: true,
        },
        FromBot::Hello {
            version: 1,
            name: "stateless".into(),
            events: false,
        },
        FromBot::Play(Card(0)),
        FromBot::Play(Card(u16::MAX)),
        FromBot::Row(0),
        FromBot::Row(usize::MAX),
        FromBot::Keep(Card(0)),
        FromBot::Keep(Card(u16::MAX)),
        FromBot::Pick(Card(0)),
        FromBot::Pick(Card(u16::MAX)),
    ] {
        round_trip_from_bot(&message);
    }
}

/// `print::error` tells a refusal with a borrowed text: its line is the declared `ToBot::Error`'s
/// (the kind, then the text), and reads back as it, the text made one tidy line.
#[test]
fn borrowed_error_lines_are_the_declared_ones() {
    for kind in ErrorKind::ALL {
        for text in ["", "expected x (2 tries left)", "  two\nlines\r\n "] {
            let mut line = String::new();
            print::error(&mut line, kind, text);
            let owned = ToBot::Error {
                kind,
                text: text.to_string(),
            };
            assert_eq!(line, text_to_bot(&owned));
            let one_line: String = text
                .chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect();
            let tidy = ToBot::Error {
                kind,
                text: one_line.trim().to_string(),
            };
            assert_eq!(parse::to_bot(&line), Ok(tidy.clone()), "{line:?}");
            round_trip_to_bot(&tidy);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Generated values.

struct Gen(GameRng);

impl Gen {
    fn below(&mut self, n: u32) -> u32 {
        self.0.below(n)
    }

    fn chance(&mut self, percent: u32) -> bool {
        self.below(100) < percent
    }

    /// Mostly small numbers, sometimes the extremes.
    fn u32(&mut self) -> u32 {
        match self.below(10) {
            0 => u32::MAX,
            1 => self.0.next_u32(),
            _ => self.below(200),
        }
    }

    fn u64(&mut self) -> u64 {
        match self.below(4) {
            0 => u64::MAX,
            1 => (u64::from(self.0.next_u32()) << 32) | u64::from(self.0.next_u32()),
            _ => u64::from(self.below(100)),
        }
    }

    /// A clocked seat's clock, or (half the time) none.
    fn clock(&mut self) -> Option<ClockReading> {
        self.chance(50).then(|| ClockReading {
            left_ms: self.u64(),
            increment_ms: self.u64(),
        })
    }

    fn usize(&mut self) -> usize {
        match self.below(10) {
            0 => usize::MAX,
            _ => self.below(12) as usize,
        }
    }

    /// A special card's row or place: small, or the largest there is.
    fn byte(&mut self) -> u8 {
        match self.below(10) {
            0 => u8::MAX,
            _ => self.below(12) as u8,
        }
    }

    fn card(&mut self) -> Card {
        Card(match self.below(10) {
            0 => u16::MAX,
            1 => 0,
            2 => self.0.next_u32() as u16,
            _ => 1 + self.below(104) as u16,
        })
    }

    fn list<T>(&mut self, longest: u32, mut item: impl FnMut(&mut Gen) -> T) -> Vec<T> {
        let n = self.below(longest + 1);
        (0..n).map(|_| item(self)).collect()
    }

    fn cards(&mut self) -> Vec<Card> {
        self.list(12, Gen::card)
    }

    /// Points may be negative (a house rule's bonus).
    fn points(&mut self) -> i32 {
        match self.below(10) {
            0 => i32::MIN,
            1 => i32::MAX,
            2 => -(self.below(100) as i32),
            _ => self.below(200) as i32,
        }
    }

    fn numbers(&mut self) -> Vec<i32> {
        self.list(10, Gen::points)
    }

    fn rows(&mut self) -> Vec<Vec<Card>> {
        let n = 1 + self.below(6);
        (0..n)
            .map(|_| {
                let len = 1 + self.below(6);
                (0..len).map(|_| self.card()).collect()
            })
            .collect()
    }

    fn name(&mut self) -> String {
        const CHARS: &[u8] = b"ABCXYZabcxyz0129_.:+-";
        let len = 1 + self.below(MAX_NAME as u32) as usize;
        (0..len)
            .map(|_| CHARS[self.below(CHARS.len() as u32) as usize] as char)
            .collect()
    }

    /// Free text as the referee writes it: words separated by single spaces, maybe none.
    fn text(&mut self) -> String {
        const WORDS: [&str; 12] = [
            "expected",
            "a",
            "card",
            "\"play\"",
            "column",
            "6,",
            "found",
            "(2",
            "tries",
            "left)",
            "naïve—ünïcode",
            "key=value",
        ];
        let words = self.list(12, |g| WORDS[g.below(WORDS.len() as u32) as usize]);
        words.join(" ")
    }

    fn circle_specials(&mut self) -> Vec<Special> {
        self.list(3, |g| Special::CIRCLE[g.below(2) as usize])
    }

    fn special(&mut self) -> Special {
        Special::ANNIVERSARY[self.below(7) as usize]
    }

    fn specials(&mut self) -> Vec<Special> {
        self.list(6, Gen::special)
    }

    /// A special card played before placing (never Negative = Positive).
    fn play(&mut self) -> SpecialPlay {
        match self.below(6) {
            0 => SpecialPlay::FifthRow,
            1 => SpecialPlay::SevenNimmt { row: self.byte() },
            2 => SpecialPlay::Insert {
                row: self.byte(),
                at: self.byte(),
            },
            3 => SpecialPlay::Replace { card: self.card() },
            4 => SpecialPlay::Shift {
                card: self.card(),
                row: self.byte(),
                at: self.byte(),
            },
            _ => SpecialPlay::Stop { row: self.byte() },
        }
    }

    /// The anniversary fields of a request with `rows` rows (the cards being taken only in
    /// `ask cancel`).
    fn special_table(&mut self, rows: usize, cancel: bool) -> SpecialTable {
        SpecialTable {
            hand_counts: self.list(8, Gen::usize),
            sevens: (0..rows).map(|_| self.chance(30)).collect(),
            stops: (0..rows).map(|_| self.chance(30)).collect(),
            deck: self.usize(),
            discard: self.specials(),
            taking: if cancel { self.cards() } else { Vec::new() },
        }
    }

    fn event(&mut self) -> EventLine {
        match self.below(17) {
            9 => EventLine::Public(Event::PlaceSpecial {
                seat: self.usize(),
                special: Special::CIRCLE[self.below(2) as usize],
                row: self.usize(),
            }),
            10 => EventLine::Public(Event::Collect {
                seat: self.usize(),
                row: self.usize(),
                cards: self.cards(),
                specials: self.circle_specials(),
                points: self.points(),
            }),
            11 => EventLine::Public(Event::EndTurn { seat: self.usize() }),
            12 => EventLine::Specials {
                round: self.u32(),
                hand: self.specials(),
                deck: self.usize(),
            },
            13 => EventLine::Public(Event::Special {
                seat: self.usize(),
                card: self.card(),
                play: self.play(),
            }),
            14 => EventLine::Public(Event::Cancel {
                seat: self.usize(),
                card: self.card(),
                bullheads: self.points(),
            }),
            15 => EventLine::Swap {
                seat: self.usize(),
                gave: self.special(),
                drew: self.chance(50).then(|| self.special()),
            },
            16 => EventLine::Reshuffle {
                cards: self.usize(),
            },
            8 => EventLine::Public(Event::Pick {
                seat: self.usize(),
                card: self.card(),
            }),
            6 => EventLine::Public(Event::Keep {
                seat: self.usize(),
                card: self.card(),
            }),
            7 => EventLine::Public(Event::Pile {
                seat: self.usize(),
                cards: self.cards(),
            }),
            0 => EventLine::Deal {
                round: self.u32(),
                hand: self.cards(),
                rows: self.cards(),
            },
            1 => EventLine::Public(Event::Reveal {
                round: self.u32(),
                turn: self.u32(),
                cards: self.cards(),
            }),
            2 => EventLine::Public(Event::Take {
                seat: self.usize(),
                row: self.usize(),
                cards: self.cards(),
                bullheads: self.points(),
                reason: if self.chance(50) {
                    TakeReason::Full
                } else {
                    TakeReason::Low
                },
            }),
            3 => EventLine::Public(Event::Place {
                seat: self.usize(),
                card: self.card(),
                row: self.usize(),
            }),
            4 => EventLine::Public(Event::RoundEnd {
                round: self.u32(),
                penalties: self.numbers(),
                totals: self.numbers(),
            }),
            _ => EventLine::Public(Event::GameEnd {
                totals: self.numbers(),
                winners: self.list(4, Gen::usize),
            }),
        }
    }

    fn request(&mut self) -> Request {
        let ask = match self.below(8) {
            0 => Ask::Play,
            4 => Ask::Place {
                placed: self.below(3) as u8,
                remaining: self.below(4) as u8,
            },
            1 => Ask::Row {
                card: self.card(),
                revealed: self.cards(),
            },
            2 => Ask::Pick { pool: self.cards() },
            5 => Ask::Special {
                card: self.card(),
                revealed: self.cards(),
            },
            6 => Ask::Cancel {
                revealed: self.cards(),
            },
            7 => Ask::Swap {
                revealed: self.cards(),
            },
            _ => Ask::Keep {
                revealed: self.cards(),
            },
        };
        if matches!(
            ask,
            Ask::Special { .. } | Ask::Cancel { .. } | Ask::Swap { .. }
        ) {
            // The anniversary's requests always carry its fields, and never Take a Number's.
            let seat = self.usize();
            let rows = self.rows();
            let cancel = matches!(ask, Ask::Cancel { .. });
            let specials = Some(Box::new(self.special_table(rows.len(), cancel)));
            return Request {
                ask,
                seat,
                round: self.u32(),
                turn: self.u32(),
                hand: self.cards(),
                rows,
                scores: self.numbers(),
                taken: self.numbers(),
                number: None,
                circle: None,
                specials,
                special_hand: self.specials(),
                clock: self.clock(),
            };
        }
        let keep = matches!(ask, Ask::Keep { .. });
        // The circle game's fields come with `ask place`, always.
        let place = matches!(ask, Ask::Place { .. });
        let seat = self.usize();
        // A pick (Pro variant) has no turn, no rows and no #-row fields.
        let pick = matches!(ask, Ask::Pick { .. });
        // Take a Number's fields come together (always in `ask keep`), or not at all.
        let number = keep || (!pick && !place && self.chance(50));
        Request {
            ask,
            seat,
            round: self.u32(),
            turn: if pick { 0 } else { self.u32() },
            hand: self.cards(),
            rows: if pick { Vec::new() } else { self.rows() },
            scores: self.numbers(),
            taken: self.numbers(),
            number: number.then(|| {
                // The #-row fields come together: always outside `ask keep`, maybe in it.
                let fields = !keep || self.chance(50);
                NumberTable {
                    capacities: Vec::new(),
                    hash_rows: if fields { self.rows() } else { Vec::new() },
                    hash_piles: if fields {
                        self.list(4, Gen::usize)
                    } else {
                        Vec::new()
                    },
                    hand_sizes: if fields {
                        self.list(4, Gen::usize)
                    } else {
                        Vec::new()
                    },
                    keep_from: if keep { self.cards() } else { Vec::new() },
                }
            }),
            circle: place.then(|| {
                let rows = 1 + self.below(5) as usize;
                let seats = 1 + self.below(6) as usize;
                Box::new(CircleTable {
                    row_specials: (0..rows).map(|_| self.circle_specials()).collect(),
                    held: (0..seats).map(|_| self.circle_specials()).collect(),
                    hand_sizes: self.list(6, Gen::usize),
                })
            }),
            specials: None,
            special_hand: Vec::new(),
            clock: self.clock(),
        }
    }

    fn game(&mut self) -> GameInfo<'static> {
        GameInfo {
            number: self.u64(),
            variant: Cow::Owned(self.name()),
            seats: self.usize(),
            seat: self.usize(),
            rows: self.usize(),
            row_capacity: self.usize(),
            hand_size: self.usize(),
            end: if self.chance(50) {
                GameEnd::TargetScore(self.u32())
            } else {
                GameEnd::Rounds(self.u32())
            },
            deck: Cow::Owned(Deck {
                lowest: self.card().0,
                bullheads: self.list(120, |g| g.below(256) as u8),
                red: self.cards(),
            }),
            time_ms: self.chance(50).then(|| self.u64()),
            seed: self.chance(50).then(|| self.u64()),
        }
    }

    fn referee_line(&mut self) -> ToBot {
        match self.below(6) {
            0 => ToBot::Hello {
                version: self.u32(),
            },
            1 => ToBot::Game(self.game()),
            2 => ToBot::Event(self.event()),
            3 => ToBot::Ask(self.request()),
            4 => ToBot::Error {
                kind: ErrorKind::ALL[self.below(6) as usize],
                text: self.text(),
            },
            _ => ToBot::Bye,
        }
    }

    fn bot_line(&mut self) -> FromBot {
        match self.below(11) {
            5 => FromBot::PlaceSpecial {
                special: Special::CIRCLE[self.below(2) as usize],
                row: self.usize(),
            },
            6 => FromBot::End,
            7 => FromBot::Special(self.play()),
            8 => FromBot::Pass,
            9 => FromBot::Cancel(self.card()),
            10 => FromBot::Swap(self.special()),
            0 => FromBot::Hello {
                version: self.u32(),
                name: self.name(),
                events: self.u32().is_multiple_of(2),
            },
            1 => FromBot::Play(self.card()),
            2 => FromBot::Keep(self.card()),
            3 => FromBot::Pick(self.card()),
            _ => FromBot::Row(self.usize()),
        }
    }

    /// A run of blanks.
    fn blanks(&mut self) -> String {
        let n = 1 + self.below(3);
        (0..n)
            .map(|_| if self.chance(70) { ' ' } else { '\t' })
            .collect()
    }

    /// `text` (one printed line) as a sloppy but valid writer might send it: blanks doubled,
    /// fields shuffled, unknown fields added, blanks around, `\r\n`.
    fn sloppy(&mut self, text: &str, keep_from: usize) -> String {
        let line = text.trim_end_matches('\n');
        let (head, kept) = line.split_at(keep_from.min(line.len()));
        let mut words: Vec<String> = head.split(' ').map(str::to_string).collect();
        let fields_from = words
            .iter()
            .position(|w| w.contains('='))
            .unwrap_or(words.len());
        if fields_from < words.len() {
            // Fields in any order, with extra ones the parser does not know.
            self.0.shuffle(&mut words[fields_from..]);
            if self.chance(50) {
                let at = fields_from + self.below((words.len() - fields_from + 1) as u32) as usize;
                words.insert(at, "future_field=1,2/3".into());
            }
        }
        let mut sloppy = String::new();
        if self.chance(30) {
            sloppy.push_str(&self.blanks());
        }
        for (i, word) in words.iter().enumerate() {
            if i > 0 {
                sloppy.push_str(&self.blanks());
            }
            sloppy.push_str(word);
        }
        sloppy.push_str(kept);
        if self.chance(30) {
            sloppy.push_str(&self.blanks());
        }
        sloppy.push_str(["", "\n", "\r\n", "\r"][self.below(4) as usize]);
        sloppy
    }
}

#[test]
fn generated_messages_round_trip() {
    let mut g = Gen(GameRng::new(2024, Stream::Deal(0)));
    for _ in 0..5000 {
        round_trip_to_bot(&g.referee_line());
        round_trip_from_bot(&g.bot_line());
    }
}

#[test]
fn sloppy_but_valid_lines_parse_the_same() {
    let mut g = Gen(GameRng::new(99, Stream::Deal(1)));
    for _ in 0..5000 {
        let message = g.referee_line();
        let text = text_to_bot(&message);
        // An error's free text is kept as written: only the blanks before it may vary.
        let keep_from = match &message {
            ToBot::Error { kind, text } if !text.is_empty() => "error ".len() + kind.name().len(),
            _ => usize::MAX,
        };
        let sloppy = g.sloppy(&text, keep_from);
        assert_eq!(parse::to_bot(&sloppy), Ok(message), "{sloppy:?}");

        let message = g.bot_line();
        let sloppy = g.sloppy(&text_from_bot(&message), usize::MAX);
        assert_eq!(parse::from_bot(&sloppy), Ok(message), "{sloppy:?}");
    }
}

#[test]
fn generated_names_follow_the_rule() {
    let mut g = Gen(GameRng::new(5, Stream::Deal(2)));
    for _ in 0..200 {
        let name = g.name();
        assert!((1..=MAX_NAME).contains(&name.len()) && name.chars().all(is_name_char));
    }
}

// ---------------------------------------------------------------------------------------------
// Printing from a real game.

/// The owned request must give back the view it came from.
fn assert_same_view(a: &View, b: &View) {
    assert_eq!(
        (a.seat, a.seats, a.round, a.turn, a.decision),
        (b.seat, b.seats, b.round, b.turn, b.decision)
    );
    assert_eq!(
        (a.hand, a.rows, a.scores, a.taken, a.revealed, a.pool),
        (b.hand, b.rows, b.scores, b.taken, b.revealed, b.pool)
    );
    assert_eq!(
        (a.hash_rows(), a.hash_piles(), a.hand_sizes(), a.keep_from()),
        (b.hash_rows(), b.hash_piles(), b.hand_sizes(), b.keep_from())
    );
    assert_eq!(a.circle, b.circle);
    // The anniversary's table, but the other seats' special cards (never sent).
    let table = |v: &View<'_>| {
        v.specials.map(|t| {
            (
                t.hand_counts.clone(),
                t.sevens.clone(),
                t.stops.clone(),
                t.deck,
                t.discard.clone(),
            )
        })
    };
    assert_eq!(table(a), table(b));
    assert_eq!((a.special_hand, a.taking()), (b.special_hand, b.taking()));
    // (Take a Number's capacities are not sent; the anniversary's follow from `sevens=`.)
    if b.specials.is_some() {
        let capacities =
            |v: &View<'_>| (0..v.rows.len()).map(|r| v.capacity(r)).collect::<Vec<_>>();
        assert_eq!(capacities(a), capacities(b));
    }
}

/// Checks every line a referee would send while `seats` players play a whole game of
/// `variant`; counts the `ask play` (with the circle game's `ask place`), the `ask row`, the
/// `ask pick`, the `ask keep`, the event lines and the anniversary's `ask special`,
/// `ask cancel` and `ask swap`.
fn play_and_check(
    seed: u64,
    seats: usize,
    variant: Variant,
) -> (usize, usize, usize, usize, usize, usize) {
    let mut game = variant.new_game(Arc::new(variant.rules()), seats).unwrap();
    let rules = game.rules().clone();
    let mut dealer = GameRng::new(seed, Stream::Deal(0));
    let mut bots: Vec<Builtin> = (0..seats)
        .map(|s| Builtin::new(Strategy::ALL[s % Strategy::ALL.len()], seed))
        .collect();
    let mut out = String::new();
    let mut infos = Vec::new();
    for seat in 0..seats {
        let start = GameStart {
            number: seed,
            variant,
            rules: &rules,
            seats,
            seat,
            time_ms: 2000,
            seed,
        };
        out.clear();
        print::game(&mut out, &start);
        let info = GameInfo::from_start(&start).into_owned();
        assert_eq!(parse::to_bot(&out), Ok(ToBot::Game(info.clone())));
        assert_eq!(info.rules().deck, rules.deck);
        infos.push(info);
    }
    let (mut plays, mut rows, mut picks, mut keeps, mut lines) = (0, 0, 0, 0, 0);
    let mut specials = 0;
    let mut events: Vec<Event> = Vec::new();
    loop {
        for event in events.drain(..) {
            for seat in 0..seats {
                out.clear();
                print::event(&mut out, seat, &event);
                let seen = EventLine::seen_by(seat, &event);
                assert_eq!(parse::to_bot(&out), Ok(ToBot::Event(seen.clone())), "{out}");
                assert_eq!(text_to_bot(&ToBot::Event(seen)), out);
                lines += 1;
            }
            if let Event::Deal { hands, .. } = &event {
                // A seat sees its own hand only.
                out.clear();
                print::event(&mut out, 0, &event);
                for hand in &hands[1..] {
                    let other = hand.iter().map(|c| c.to_string()).collect::<Vec<_>>();
                    assert!(!out.contains(&format!("hand={}", other.join(","))));
                }
            }
        }
        let seats_to_ask: Vec<usize> = match game.to_move() {
            ToMove::Deal => {
                game.deal_random(&mut dealer, &mut events).unwrap();
                continue;
            }
            ToMove::GameOver => break,
            ToMove::Everyone(_) => (0..seats).filter(|&s| game.owes(s).is_some()).collect(),
            ToMove::Seat(seat, _) => vec![seat],
        };
        for seat in seats_to_ask {
            let view = game.view(seat);
            out.clear();
            print::ask(&mut out, &view);
            let request = Request::from_view(&view).unwrap();
            assert_eq!(
                parse::to_bot(&out),
                Ok(ToBot::Ask(request.clone())),
                "{out}"
            );
            assert_eq!(text_to_bot(&ToBot::Ask(request.clone())), out);
            let rules = infos[seat].rules();
            assert_same_view(&request.view(&rules), &view);
            if let Some(Decision::Place { .. }) = view.decision {
                // A Rust bot reading the lines decides as a built-in seeing the game itself.
                assert_eq!(
                    circle_greedy(&request.view(&rules)),
                    circle_greedy(&view),
                    "{out}"
                );
            }
            match request.ask {
                Ask::Play | Ask::Place { .. } => plays += 1,
                Ask::Row { .. } => rows += 1,
                Ask::Keep { .. } => keeps += 1,
                Ask::Pick { .. } => picks += 1,
                Ask::Special { .. } | Ask::Cancel { .. } | Ask::Swap { .. } => specials += 1,
            }
            // The bot's answer goes over the wire too.
            let action = bots[seat].choose(&view);
            out.clear();
            print::action(&mut out, action);
            let reply = parse::from_bot(&out).unwrap();
            assert_eq!(reply.answer(view.decision.unwrap()), Ok(action));
            game.apply(seat, action, &mut events).unwrap();
        }
    }
    assert!(game.outcome().is_some());
    (plays, rows, picks, keeps, lines, specials)
}

#[test]
fn anniversary_lines_from_real_games_round_trip() {
    let mut specials_asked = 0;
    for seed in 0..8 {
        let seats = 2 + seed as usize % 7;
        let (plays, _, picks, keeps, lines, specials) =
            play_and_check(seed, seats, Variant::Anniversary);
        assert!(plays >= 24 * seats && lines > plays, "{plays} {lines}");
        assert_eq!((picks, keeps), (0, 0));
        specials_asked += specials;
    }
    assert!(specials_asked > 0);
}

#[test]
fn take_a_number_lines_from_real_games_round_trip() {
    let (mut rows_asked, mut keeps_asked) = (0, 0);
    for seed in 0..8 {
        let seats = 2 + (seed as usize % 3);
        let (plays, rows, picks, keeps, lines, _) =
            play_and_check(seed, seats, Variant::TakeANumber);
        assert!(plays >= 8 * seats && lines > plays, "{plays} {lines}");
        assert_eq!(picks, 0);
        rows_asked += rows;
        keeps_asked += keeps;
    }
    assert!(rows_asked > 0 && keeps_asked > 0);
}

#[test]
fn lines_from_real_games_round_trip() {
    let mut rows_asked = 0;
    for seed in 0..12 {
        let seats = 2 + (seed as usize % 9);
        let (plays, rows, picks, keeps, lines, _) = play_and_check(seed, seats, Variant::Classic);
        assert!(plays >= 10 * seats && lines > plays, "{plays} {lines}");
        assert_eq!((picks, keeps), (0, 0));
        rows_asked += rows;
    }
    assert!(rows_asked > 0);
}

#[test]
fn lines_from_real_circle_games_round_trip() {
    for seed in 0..10 {
        let seats = 2 + (seed as usize % 5);
        let (places, rows, picks, keeps, lines, specials) =
            play_and_check(seed, seats, Variant::Circle);
        // Every number card is placed, and the special cards that fit.
        let (hand_size, _) = Variant::Circle.rules().deal_size(seats);
        assert!(places >= hand_size * seats, "{places} for {seats} seats");
        assert_eq!((rows, picks, keeps, specials), (0, 0, 0, 0));
        assert!(lines > places, "{places} {lines}");
    }
}

#[test]
fn lines_from_real_pro_games_round_trip() {
    for seed in 0..5 {
        let seats = 2 + (seed as usize % 5);
        let (plays, _, picks, keeps, lines, _) = play_and_check(seed, seats, Variant::Pro);
        // Every round is drafted: as many picks as cards played.
        assert_eq!(picks, plays, "{seats} seats");
        assert_eq!(keeps, 0);
        assert!(picks >= 10 * seats && lines > picks, "{picks} {lines}");
    }
}

#[test]
fn first_view_of_a_deal_prints_the_seats_hand() {
    let rules = Arc::new(Rules::classic());
    let mut game = Classic::new(rules, 4).unwrap();
    let mut events = Vec::new();
    game.deal_random(&mut GameRng::new(7, Stream::Deal(0)), &mut events)
        .unwrap();
    let view = game.view(2);
    let mut out = String::new();
    print::ask(&mut out, &view);
    let hand: Vec<String> = view.hand.iter().map(|c| c.to_string()).collect();
    let rows: Vec<String> = view.rows.iter().map(|r| r[0].to_string()).collect();
    assert_eq!(
        out,
        format!(
            "ask play seat=2 round=1 turn=1 hand={} rows={} scores=0,0,0,0 taken=0,0,0,0\n",
            hand.join(","),
            rows.join("/")
        )
    );
    out.clear();
    print::event(&mut out, 2, &events[0]);
    assert_eq!(
        out,
        format!(
            "event deal round=1 hand={} rows={}\n",
            hand.join(","),
            rows.join(",")
        )
    );
    // Nothing left to ask once seat 2 has played.
    game.apply(2, Action::Play(view.hand[0]), &mut Discard)
        .unwrap();
    assert!(Request::from_view(&game.view(2)).is_none());
}

// ---------------------------------------------------------------------------------------------
// Checking replies.

#[test]
fn replies_are_checked_against_the_request() {
    let play = Decision::PlayCard;
    let row = Decision::ChooseRow { card: Card(3) };
    assert_eq!(
        FromBot::Play(Card(5)).answer(play),
        Ok(Action::Play(Card(5)))
    );
    assert_eq!(FromBot::Row(2).answer(row), Ok(Action::TakeRow(2)));
    let wrong = FromBot::Row(1).answer(play).unwrap_err();
    assert_eq!(wrong.kind(), ErrorKind::Unexpected);
    assert_eq!(
        wrong.to_string(),
        "\"row\" does not answer \"ask play\": expected \"play <card>\""
    );
    let mut out = String::new();
    print::refusal(&mut out, wrong.kind(), &wrong, 2);
    assert_eq!(
        out,
        "error unexpected \"row\" does not answer \"ask play\": expected \"play <card>\" \
         (2 tries left)\n"
    );
    assert!(FromBot::Play(Card(1)).answer(row).is_err());
    let hello = FromBot::Hello {
        version: VERSION,
        name: "bot".into(),
        events: false,
    };
    assert!(hello.answer(play).is_err());
    assert_eq!(hello.greeting(), Ok(("bot", false)));
    let newer = FromBot::Hello {
        version: 2,
        name: "bot".into(),
        events: true,
    };
    assert_eq!(newer.greeting(), Err(Mismatch::Version { got: 2 }));
    assert_eq!(newer.greeting().unwrap_err().kind(), ErrorKind::Version);
    assert_eq!(
        FromBot::Play(Card(1)).greeting().unwrap_err().to_string(),
        "\"play\" does not answer \"hello\": expected \"hello version=1 name=<name>\""
    );
}

#[test]
fn a_parse_error_makes_a_syntax_error_line() {
    let e = parse::from_bot("play 5x").unwrap_err();
    let mut out = String::new();
    print::refusal(&mut out, ErrorKind::Syntax, &e, 2);
    assert_eq!(
        out,
        "error syntax expected a card number after \"play\" at column 6, found \"5x\" \
         (2 tries left)\n"
    );
    assert_eq!(
        parse::to_bot(&out),
        Ok(ToBot::Error {
            kind: ErrorKind::Syntax,
            text: out["error syntax ".len()..out.len() - 1].to_string()
        })
    );
    // Whatever a bot sends, the error is one line.
    let e = parse::from_bot("play \"\u{1}\r\n").unwrap_err();
    out.clear();
    print::refusal(&mut out, ErrorKind::Syntax, &e, 1);
    assert_eq!(out.matches('\n').count(), 1, "{out:?}");
    assert!(parse::to_bot(&out).is_ok());
}
