//! A table as lines of text, each piece with a tone: printed plain when piped, coloured by the
//! terminal viewer ([`super::tui`]) and the human seat. The one layout of a table in text.

use super::{Face, Row, Shown, SpecialFace, Step, Table};
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

/// A row as a line: `row 4: [5th Row] 80:3   (1/5, 3 bullheads)`.
fn row_line(table: &Table, r: usize, row: &Row) -> Line {
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
    let unit = table.variant.describe().row_worth;
    // The unit is named in the plural (`bullheads`, `points`): one is said in the singular.
    let worth = crate::words::count(worth, unit.strip_suffix('s').unwrap_or(unit));
    // A row holds more than it takes once its 7 nimmt! card went to the discard pile at the
    // round's end: then its cards are counted alone.
    let fill = if row.cards.len() > row.capacity {
        format!("{} cards", row.cards.len())
    } else {
        format!("{}/{}", row.cards.len(), row.capacity)
    };
    let mut notes = format!("   ({fill}, {worth}");
    if !row.specials.is_empty() {
        let _ = write!(notes, ", specials {}", specials(&row.specials));
    }
    if row.stopped {
        notes.push_str(", stopped");
    }
    notes.push(')');
    line.push(piece(notes, Tone::Dim));
    line
}

fn width_of(line: &Line) -> usize {
    line.iter().map(|p| p.text.chars().count()).sum()
}

/// The rows of a circle (`rows`, each a line) laid on a ring of text at most `width` columns
/// wide: row 0 at the top and the next ones clockwise, each row's text reaching outward from
/// its place on an ellipse (twice as wide as high, as a terminal's cells are twice as high as
/// wide); `None` when it does not fit.
fn ring(rows: &[Line], width: usize) -> Option<Vec<Line>> {
    let n = rows.len();
    if n == 0 {
        return None;
    }
    let widths: Vec<i64> = rows.iter().map(|l| width_of(l) as i64).collect();
    let high = (n as f64 / 2.0).max(3.0);
    let wide = 2.0 * high;
    // (line, column, width) of each placed text, in row order.
    let mut placed: Vec<(i64, i64, i64)> = Vec::with_capacity(n + 1);
    let free = |placed: &[(i64, i64, i64)], y: i64, x: i64, w: i64| {
        !placed
            .iter()
            .any(|&(py, px, pw)| py == y && px < x + w + 2 && x < px + pw + 2)
    };
    for (r, &w) in widths.iter().enumerate() {
        let angle = -std::f64::consts::FRAC_PI_2 + std::f64::consts::TAU * r as f64 / n as f64;
        let (cos, sin) = (angle.cos(), angle.sin());
        let at = (wide * cos).round() as i64;
        let x = if cos.abs() < 0.3 {
            at - w / 2
        } else if cos > 0.0 {
            at
        } else {
            at - w
        };
        // A place taken on the line moves the text away from the middle line.
        let outward = if sin < 0.0 { -1 } else { 1 };
        let mut y = (high * sin).round() as i64;
        while !free(&placed, y, x, w) {
            y += outward;
        }
        placed.push((y, x, w));
    }
    let centre = piece("(clockwise)", Tone::Dim);
    let centre_width = width_of(&vec![centre.clone()]) as i64;
    let with_centre = free(&placed, 0, -centre_width / 2, centre_width);
    let left = placed.iter().map(|p| p.1).min()?;
    let right = placed.iter().map(|p| p.1 + p.2).max()?;
    if (right - left) as usize > width {
        return None;
    }
    let (top, bottom) = (
        placed.iter().map(|p| p.0).min()?,
        placed.iter().map(|p| p.0).max()?,
    );
    let mut lines = Vec::new();
    for y in top..=bottom {
        let mut on_line: Vec<(i64, Line)> = (placed.iter().zip(rows))
            .filter(|((py, _, _), _)| *py == y)
            .map(|(&(_, x, _), row)| (x, row.clone()))
            .collect();
        if y == 0 && with_centre {
            on_line.push((-centre_width / 2, vec![centre.clone()]));
        }
        on_line.sort_by_key(|(x, _)| *x);
        let mut line: Line = Vec::new();
        let mut column = left;
        for (x, text) in on_line {
            if x > column {
                line.push(piece(" ".repeat((x - column) as usize), Tone::Plain));
            }
            column = x + width_of(&text) as i64;
            line.extend(text);
        }
        lines.push(line);
    }
    Some(lines)
}

/// The table as lines: the rows, then each seat, then who must act.
pub fn table(table: &Table) -> Vec<Line> {
    table_in(table, None)
}

/// [`table`] for a screen `width` columns wide, if known: there the rows of a circle are drawn
/// as a ring when it fits (elsewhere, and piped, they are listed, a line each).
pub fn table_in(table: &Table, width: Option<usize>) -> Vec<Line> {
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
    let rows: Vec<Line> = (table.rows.iter().enumerate())
        .map(|(r, row)| row_line(table, r, row))
        .collect();
    match width.filter(|_| table.ring).and_then(|w| ring(&rows, w)) {
        Some(ring) => lines.extend(ring),
        None => lines.extend(rows),
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
    step_in(step, index, count, None)
}

/// [`step`] for a screen `width` columns wide, if known (see [`table_in`]).
pub fn step_in(step: &Step, index: usize, count: usize, width: Option<usize>) -> Vec<Line> {
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
    lines.extend(table_in(&step.table, width));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::Variant;

    /// A circle table of `n` rows, row `r` holding the one card `10 * r + 1`.
    fn circle(n: usize) -> Table {
        let row = |r: usize| Row {
            cards: vec![Face {
                n: 10 * r as u16 + 1,
                bullheads: 1,
                red: false,
                green: true,
            }],
            capacity: 4,
            specials: Vec::new(),
            stopped: false,
            seven: false,
            extra: false,
        };
        let mut table = Table::empty(Variant::from_name("circle").unwrap(), 1, 1);
        table.rows = (0..n).map(row).collect();
        table
    }

    /// Where `row N:` is on the lines: (line, first column, last column).
    fn place(lines: &[String], r: usize) -> (usize, usize, usize) {
        let label = format!("row {r}: ");
        let (y, line) = (lines.iter().enumerate())
            .find(|(_, l)| l.contains(&label))
            .unwrap_or_else(|| panic!("no {label} in\n{}", lines.join("\n")));
        let x = line.find(&label).unwrap();
        let end = x + line[x..].find(')').unwrap();
        (y, x, end)
    }

    #[test]
    fn a_circles_rows_lie_on_a_ring_clockwise_where_it_fits_and_are_listed_otherwise() {
        for n in [7, 9, 12, 15] {
            let table = circle(n);
            let lines: Vec<String> = (table_in(&table, Some(200)).iter())
                .map(|l| plain(std::slice::from_ref(l)).trim_end().to_string())
                .collect();
            let text = lines.join("\n");
            let top = place(&lines, 0);
            let middle = (top.1 + top.2) / 2;
            let places: Vec<_> = (0..n).map(|r| place(&lines, r)).collect();
            assert!(places.iter().all(|p| p.0 >= top.0), "row 0 on top:\n{text}");
            // Clockwise: down the right side, then up the left side.
            let right: Vec<usize> = (1..n.div_ceil(2)).collect();
            let left: Vec<usize> = (n / 2 + 1..n).collect();
            for pair in right.windows(2) {
                let (a, b) = (places[pair[0]], places[pair[1]]);
                assert!(a.0 < b.0, "row {} above row {}:\n{text}", pair[0], pair[1]);
            }
            for pair in left.windows(2) {
                let (a, b) = (places[pair[0]], places[pair[1]]);
                assert!(a.0 > b.0, "row {} below row {}:\n{text}", pair[0], pair[1]);
            }
            let centre = |r: usize| (places[r].1 + places[r].2) / 2;
            for &r in &right {
                assert!(centre(r) > middle, "row {r} right of the middle:\n{text}");
            }
            for &r in &left {
                assert!(centre(r) < middle, "row {r} left of the middle:\n{text}");
            }
            // Too narrow a screen, or piped: a row a line, in order.
            for width in [Some(40), None] {
                let listed: Vec<String> = (table_in(&table, width).iter())
                    .map(|l| plain(std::slice::from_ref(l)))
                    .filter(|l| l.starts_with("row "))
                    .collect();
                assert_eq!(listed.len(), n);
                for (r, line) in listed.iter().enumerate() {
                    assert!(line.starts_with(&format!("row {r}: ")), "{line}");
                }
            }
        }
    }
}
