//! A table as lines of text, each piece with a tone: printed plain when piped, coloured by the
//! terminal viewer ([`super::tui`]) and the human seat. The one layout of a table in text.

use super::{Face, Shown, SpecialFace, Step, Table};
use crate::visible::visible;
use std::fmt::Write;

/// How a piece of text is meant to look.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    Plain,
    /// A heading.
    Title,
    /// A card with this many bullheads.
    Card(u32),
    /// A circle card whose bullheads are red.
    Red(u32),
    /// Less important.
    Dim,
    /// Something to act on (a seat that must decide, a failure).
    Alert,
}

/// A piece of a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    pub text: String,
    pub tone: Tone,
}

/// A line of pieces.
pub type Line = Vec<Piece>;

/// A piece of `text`, made [`visible`]: names, faults and paths come from records and fixtures.
fn piece(text: impl Into<String>, tone: Tone) -> Piece {
    let text = text.into();
    Piece {
        text: visible(&text).into_owned(),
        tone,
    }
}

/// A card as text: `55:7` (number:bullheads), `55:-7` for red bullheads.
pub fn card(face: &Face) -> Piece {
    if face.red {
        piece(
            format!("{}:-{}", face.n, face.bullheads),
            Tone::Red(face.bullheads),
        )
    } else {
        piece(
            format!("{}:{}", face.n, face.bullheads),
            Tone::Card(face.bullheads),
        )
    }
}

/// Special cards by their printed names: `5th Row, x 2`.
fn specials(faces: &[SpecialFace]) -> String {
    let names: Vec<&str> = faces.iter().map(|f| f.name).collect();
    names.join(", ")
}

fn cards(line: &mut Line, faces: &[Face]) {
    if faces.is_empty() {
        line.push(piece("-", Tone::Dim));
    }
    for (i, face) in faces.iter().enumerate() {
        if i > 0 {
            line.push(piece(" ", Tone::Plain));
        }
        line.push(card(face));
    }
}

/// The table as lines: the rows, then each seat, then who must act.
pub fn table(table: &Table) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut head = vec![piece(
        format!(
            "{} - round {}, turn {}",
            table.variant.name(),
            table.round,
            table.turn
        ),
        Tone::Title,
    )];
    if let Some(deck) = table.special_deck {
        head.push(piece(
            format!(
                "   special deck {deck}, discard {}",
                if table.discard.is_empty() {
                    "-".to_string()
                } else {
                    specials(&table.discard)
                }
            ),
            Tone::Dim,
        ));
    }
    lines.push(head);
    if let Some(heading) = table.variant.describe().rows_heading {
        lines.push(vec![piece(heading, Tone::Dim)]);
    }
    if !table.revealed.is_empty() {
        let mut line = vec![piece("revealed: ", Tone::Plain)];
        cards(&mut line, &table.revealed);
        lines.push(line);
    }
    if !table.pool.is_empty() {
        let mut line = vec![piece("draft pool: ", Tone::Plain)];
        cards(&mut line, &table.pool);
        lines.push(line);
    }
    for (r, row) in table.rows.iter().enumerate() {
        let mut line = vec![piece(format!("row {r}: "), Tone::Plain)];
        if row.extra {
            line.push(piece("[5th Row] ", Tone::Alert));
        }
        cards(&mut line, &row.cards);
        if row.seven {
            line.push(piece(" [7 nimmt!]", Tone::Alert));
        }
        let worth: i64 = row
            .cards
            .iter()
            .map(|c| i64::from(c.bullheads) * if c.red { -1 } else { 1 })
            .sum();
        let units = table.variant.describe().row_worth;
        let unit = if worth.abs() == 1 {
            units.strip_suffix('s').unwrap_or(units)
        } else {
            units
        };
        // A row holds more than it takes once its 7 nimmt! card went to the discard pile at the
        // round's end: then its cards are counted alone.
        let fill = if row.cards.len() > row.capacity {
            format!("{} cards", row.cards.len())
        } else {
            format!("{}/{}", row.cards.len(), row.capacity)
        };
        let mut notes = format!("   ({fill}, {worth} {unit}");
        if !row.specials.is_empty() {
            let _ = write!(notes, ", specials {}", specials(&row.specials));
        }
        if row.stopped {
            notes.push_str(", stopped");
        }
        notes.push(')');
        line.push(piece(notes, Tone::Dim));
        lines.push(line);
    }
    for (s, seat) in table.seats.iter().enumerate() {
        let tone = if seat.waiting {
            Tone::Alert
        } else {
            Tone::Title
        };
        let name = if seat.name == format!("seat {s}") {
            String::new()
        } else {
            format!(" {}", seat.name)
        };
        let mut line = vec![
            piece(
                format!("{}seat {s}{name}", if seat.waiting { "> " } else { "  " }),
                tone,
            ),
            piece(
                if table.one_round {
                    format!(": {} {}", table.variant.describe().total, seat.score)
                } else {
                    format!(": score {}, this round {}", seat.score, seat.taken)
                },
                Tone::Plain,
            ),
        ];
        if let Some(pile) = seat.pile {
            line.push(piece(format!(", pile {pile}"), Tone::Plain));
        }
        lines.push(line);
        let mut hand = vec![piece("    hand: ", Tone::Plain)];
        match &seat.hand {
            Some(faces) => cards(&mut hand, faces),
            None => hand.push(piece(format!("{} cards", seat.hand_count), Tone::Dim)),
        }
        match &seat.specials {
            Some(held) if !held.is_empty() => {
                hand.push(piece(
                    format!("   specials: {}", specials(held)),
                    Tone::Plain,
                ));
            }
            None if seat.special_count > 0 => {
                hand.push(piece(
                    format!("   specials: {} cards", seat.special_count),
                    Tone::Dim,
                ));
            }
            _ => {}
        }
        lines.push(hand);
        if !seat.hash_row.is_empty() {
            let mut row = vec![piece("    #-row: ", Tone::Plain)];
            cards(&mut row, &seat.hash_row);
            lines.push(row);
        }
    }
    if let Some(totals) = &table.final_totals {
        let shown: Vec<String> = totals.iter().map(i32::to_string).collect();
        lines.push(vec![piece(
            format!("final totals: {}", shown.join(", ")),
            Tone::Title,
        )]);
    } else if !table.to_move.is_empty() {
        lines.push(vec![piece(
            format!("to move: {}", table.to_move),
            Tone::Dim,
        )]);
    }
    lines
}

/// Step `index` (from 0) of `count` as lines: its heading, what happened, then the table.
pub fn step(step: &Step, index: usize, count: usize) -> Vec<Line> {
    let mut lines = vec![vec![piece(
        format!(
            "== step {}/{count}: {} ({})",
            index + 1,
            step.title,
            step.source
        ),
        Tone::Title,
    )]];
    for said in &step.said {
        let tone = if said.starts_with("FAILED") || said.starts_with("refused") {
            Tone::Alert
        } else {
            Tone::Plain
        };
        // A fault's detail may hold lines of a bot's stderr: each is a line of its own.
        for (i, line) in said.split('\n').enumerate() {
            let indent = if i == 0 { "  " } else { "" };
            lines.push(vec![piece(format!("{indent}{line}"), tone)]);
        }
    }
    lines.extend(table(&step.table));
    lines
}

/// Lines as plain text.
pub fn plain(lines: &[Line]) -> String {
    let mut out = String::new();
    for line in lines {
        for p in line {
            out.push_str(&p.text);
        }
        out.push('\n');
    }
    out
}

/// Every step of a game as plain text (what `take5 show` prints when piped).
pub fn game(shown: &Shown) -> String {
    let mut out = format!("{}\n", visible(&shown.title));
    for index in 0..shown.steps.len() {
        out.push('\n');
        out.push_str(&plain(&step(&shown.steps[index], index, shown.steps.len())));
    }
    out
}
