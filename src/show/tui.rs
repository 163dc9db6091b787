//! The terminal viewer of `take5 show` (ratatui over crossterm): one step at a time, drawn from
//! [`super::text`]'s lines in colour. The keys are in docs/viewer.md.

use super::text::{self, Tone};
use super::{Hands, Shown};
use crate::visible::visible;
use ratatui::Frame;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Paragraph, Wrap};
use std::io;

/// The style of a tone.
pub fn style(tone: Tone) -> Style {
    match tone {
        Tone::Plain => Style::new(),
        Tone::Title => Style::new().add_modifier(Modifier::BOLD),
        Tone::Card(1) => Style::new().fg(Color::White),
        Tone::Card(2) => Style::new().fg(Color::Cyan),
        Tone::Card(3) => Style::new().fg(Color::Yellow),
        Tone::Card(5) => Style::new().fg(Color::Red),
        Tone::Card(n) if n >= 6 => Style::new().fg(Color::Magenta).add_modifier(Modifier::BOLD),
        Tone::Card(_) => Style::new().fg(Color::Green),
        Tone::Red(_) => Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
        Tone::Dim => Style::new().add_modifier(Modifier::DIM),
        Tone::Alert => Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
    }
}

/// Lines of pieces as ratatui text.
pub fn lines(pieces: &[text::Line]) -> Text<'static> {
    Text::from(
        pieces
            .iter()
            .map(|line| {
                Line::from(
                    line.iter()
                        .map(|p| Span::styled(p.text.clone(), style(p.tone)))
                        .collect::<Vec<_>>(),
                )
            })
            .collect::<Vec<_>>(),
    )
}

/// The viewer's state.
struct Viewer<'a> {
    shown: &'a Shown,
    step: usize,
    /// The seat `n` looks for takes of, and whose hand alone is shown when `all` is off.
    seat: usize,
    all: bool,
    /// `--seat`: the other hands are not in the steps at all.
    locked: bool,
    /// The turn being typed after `t`.
    typing: Option<String>,
    message: String,
    scroll: u16,
}

impl Viewer<'_> {
    fn draw(&self, frame: &mut Frame) {
        let [top, body, bottom] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(1),
            Constraint::Length(2),
        ])
        .areas(frame.area());
        let hands = if self.all {
            "all hands".to_string()
        } else {
            format!("seat {}'s hand only", self.seat)
        };
        frame.render_widget(
            Paragraph::new(Line::from(vec![
                Span::raw(format!(
                    "[step {}/{}, seat {}, {hands}] ",
                    self.step + 1,
                    self.shown.steps.len(),
                    self.seat
                )),
                // ratatui would drop its control characters unseen: they are shown, as in
                // every piece of text::step.
                Span::styled(visible(&self.shown.title).into_owned(), style(Tone::Title)),
            ])),
            top,
        );
        let mut step = self.shown.steps[self.step].clone();
        if !self.all {
            step.table = step.table.seen_by(Hands::Seat(self.seat));
        }
        let body_lines = text::step_in(
            &step,
            self.step,
            self.shown.steps.len(),
            Some(usize::from(body.width)),
        );
        frame.render_widget(
            Paragraph::new(lines(&body_lines))
                .wrap(Wrap { trim: false })
                .scroll((self.scroll, 0)),
            body,
        );
        let prompt = match &self.typing {
            Some(typed) => format!("go to turn (ROUND.TURN or TURN), Enter: {typed}_"),
            None => self.message.clone(),
        };
        frame.render_widget(
            Paragraph::new(vec![
                Line::styled(prompt, style(Tone::Alert)),
                Line::styled(
                    "keys: <- -> step  Home End  t turn  0-9 seat  n next take  a hands  \
                     up/down scroll  q quit",
                    style(Tone::Dim),
                ),
            ]),
            bottom,
        );
    }

    fn go(&mut self, step: usize) {
        self.step = step.min(self.shown.steps.len() - 1);
        self.scroll = 0;
    }

    /// Handles a key; false to quit.
    fn key(&mut self, code: KeyCode, modifiers: KeyModifiers) -> bool {
        if let Some(typed) = &mut self.typing {
            match code {
                KeyCode::Char(c) if c.is_ascii_digit() || c == '.' => typed.push(c),
                KeyCode::Backspace => {
                    typed.pop();
                }
                KeyCode::Enter => {
                    let typed = self.typing.take().unwrap_or_default();
                    self.jump_to_turn(&typed);
                }
                KeyCode::Esc => self.typing = None,
                _ => {}
            }
            return true;
        }
        self.message.clear();
        match code {
            KeyCode::Char('q') | KeyCode::Esc => return false,
            KeyCode::Char('c') if modifiers.contains(KeyModifiers::CONTROL) => return false,
            KeyCode::Right | KeyCode::Char('l' | ' ') | KeyCode::Enter => {
                if self.step + 1 < self.shown.steps.len() {
                    self.go(self.step + 1);
                } else {
                    self.message = "this is the last step".into();
                }
            }
            KeyCode::Left | KeyCode::Char('h') | KeyCode::Backspace => {
                self.go(self.step.saturating_sub(1));
            }
            KeyCode::Home | KeyCode::Char('g') => self.go(0),
            KeyCode::End | KeyCode::Char('G') => self.go(self.shown.steps.len() - 1),
            KeyCode::Down | KeyCode::Char('j') => self.scroll = self.scroll.saturating_add(1),
            KeyCode::Up | KeyCode::Char('k') => self.scroll = self.scroll.saturating_sub(1),
            KeyCode::Char('t') => self.typing = Some(String::new()),
            KeyCode::Char('a') if self.locked => {
                self.message = format!("--seat {}: the other hands stay hidden", self.seat);
            }
            KeyCode::Char('a') => self.all = !self.all,
            KeyCode::Char(c @ '0'..='9') => {
                let seat = usize::from(c as u8 - b'0');
                if self.locked {
                    self.message = format!("--seat {}: only this seat is shown", self.seat);
                } else if seat < self.shown.players.len() {
                    self.seat = seat;
                } else {
                    self.message = format!(
                        "no seat {seat}: the seats are 0 to {}",
                        self.shown.players.len() - 1
                    );
                }
            }
            KeyCode::Char('n') => match self.shown.next_take(self.step, self.seat) {
                Some(step) => self.go(step),
                None => self.message = format!("seat {} takes no row after this step", self.seat),
            },
            _ => {}
        }
        true
    }

    fn jump_to_turn(&mut self, typed: &str) {
        let current = self.shown.steps[self.step].table.round;
        let parsed = match typed.split_once('.') {
            Some((r, t)) => r.parse().ok().zip(t.parse().ok()),
            None => typed.parse().ok().map(|t| (current.max(1), t)),
        };
        match parsed.and_then(|(r, t)| self.shown.turn_step(r, t).map(|s| (r, t, s))) {
            Some((_, _, step)) => self.go(step),
            None => self.message = format!("no turn {typed} in this game"),
        }
    }
}

/// Runs the viewer on the terminal until `q`; `seat` is the seat looked at first (`--seat`:
/// only its hand is shown).
pub fn run(shown: &Shown, seat: Option<usize>) -> io::Result<()> {
    if shown.steps.is_empty() {
        return Ok(());
    }
    let mut viewer = Viewer {
        shown,
        step: 0,
        seat: seat.unwrap_or(0),
        all: seat.is_none(),
        locked: seat.is_some(),
        typing: None,
        message: String::new(),
        scroll: 0,
    };
    let mut terminal = ratatui::init();
    let result = (|| -> io::Result<()> {
        loop {
            terminal.draw(|frame| viewer.draw(frame))?;
            if let Event::Key(key) = event::read()?
                && key.kind == KeyEventKind::Press
                && !viewer.key(key.code, key.modifiers)
            {
                return Ok(());
            }
        }
    })();
    ratatui::restore();
    result
}
