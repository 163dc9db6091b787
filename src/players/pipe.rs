//! A bot over pipes: a [`BotProcess`] spoken to in the text protocol. The bot lives for the
//! whole match; a bot that crashed, hung or failed its handshake is stopped and started again
//! for the next game.
//!
//! Events are queued and written together with the next request, so a decision costs one write
//! and one read, like a raw ping-pong.

use super::process::{BotCommand, BotProcess, ProcessError, logs};
use super::{Answer, Fault, Legality, Limit, Player};
use crate::game::{Action, Event, Outcome, Seat, View};
use crate::protocol::{ErrorKind, FromBot, parse, print};
use crate::seat::{FaultKind, GameStart};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Every line sent to a bot and received from it, each with the seconds since the log was
/// opened and a direction: `>` sent to the bot, `<` received from it, `!` a line that could not
/// be read (with why). Written as it happens, one `write` per batch, so a killed run keeps it.
pub struct IoLog {
    /// None once a write failed (the failure is noted in [`logs`]): the log ends there.
    file: Option<std::fs::File>,
    path: PathBuf,
    start: Instant,
    text: String,
}

impl IoLog {
    /// Creates the log at `path`, which must not exist (nor be a link); times count from
    /// `start`.
    pub fn create(path: &Path, start: Instant) -> std::io::Result<IoLog> {
        Ok(IoLog::at(logs::create_new(path)?, path, start))
    }

    /// Opens the log at `path` to append to it (a bot started again in the same folder keeps
    /// one log), without following a link there; times count from `start`.
    pub fn append(path: &Path, start: Instant) -> std::io::Result<IoLog> {
        Ok(IoLog::at(logs::open_append(path)?, path, start))
    }

    fn at(file: std::fs::File, path: &Path, start: Instant) -> IoLog {
        IoLog {
            file: Some(file),
            path: path.to_path_buf(),
            start,
            text: String::new(),
        }
    }

    fn write(&mut self, direction: char, lines: &str) {
        use std::fmt::Write as _;
        let Some(file) = &mut self.file else { return };
        let at = self.start.elapsed().as_secs_f64();
        self.text.clear();
        for line in lines.lines() {
            let _ = writeln!(self.text, "{at:11.6} {direction} {line}");
        }
        // A log that cannot be written must not stop the game: it is given up, and the
        // command says so at its end.
        if let Err(e) = file.write_all(self.text.as_bytes()) {
            logs::lost(&self.path, &e);
            self.file = None;
        }
    }
}

/// Replies a bot may give to one request (its first answer and two more after errors).
pub const REPLIES_PER_REQUEST: usize = 3;
/// The default limit per decision (`--timeout` of `play`, `tournament` and `selftest`, a
/// tournament's and a tuning's `timeout_ms`), in milliseconds.
pub const DECISION_TIMEOUT_MS: u64 = 2000;

/// The default start-up limit (`--startup-timeout` of `play`, `tournament` and `selftest`), in
/// milliseconds: generous, since a bot in an interpreted language can take seconds to start on
/// a loaded machine.
pub const STARTUP_TIMEOUT_MS: u64 = 10_000;

/// The time a bot has from its start to its `hello`, apart from the time per decision, and the
/// setting that gives it (named when a bot does not greet in time).
#[derive(Clone, Copy, Debug)]
pub struct StartupLimit {
    pub time: Duration,
    /// As the user sets it: `--startup-timeout`, say.
    pub setting: &'static str,
}

impl StartupLimit {
    /// A limit set by the `--startup-timeout` flag.
    pub fn flag(time: Duration) -> StartupLimit {
        StartupLimit {
            time,
            setting: "--startup-timeout",
        }
    }
}
/// How long a bot has to exit by itself after `bye`.
const BYE_GRACE: Duration = Duration::from_millis(500);
/// Queued event text is written without waiting for a request past this size.
const QUEUE_LIMIT: usize = 16 * 1024;

/// A bot program at the table.
pub struct PipePlayer {
    spec: String,
    command: BotCommand,
    /// The time limit for each handshake, of the first process and of a restarted one.
    startup: StartupLimit,
    /// The time limit per decision of the game under way (from its `GameStart`), also for
    /// writing its events.
    decision_limit: Duration,
    process: Option<BotProcess>,
    /// Whether the running process has said hello.
    greeted: bool,
    /// The name the bot gave in its hello.
    bot_name: Option<String>,
    /// Whether the running process wants `event` lines (it may decline them in its hello).
    follows_events: bool,
    /// Lines to send with the next request.
    queue: String,
    /// How the last process ended after `bye` ([`Player::finish`]), if it was asked to.
    after_bye: Option<std::process::ExitStatus>,
    /// Where the lines go too, with `--log-io` (nothing is done without it).
    log: Option<IoLog>,
    /// Lines the bot wrote that no request asked for, seen so far ([`PipePlayer::unasked`]).
    unasked: u64,
}

impl PipePlayer {
    /// A player for the bot started by `spec` (a command line, split like a shell would). The
    /// bot is started now, so a program that cannot be run is an error before any game.
    pub fn new(spec: &str, startup: StartupLimit) -> Result<PipePlayer, String> {
        Self::with_command(spec, BotCommand::parse(spec)?, startup, None)
    }

    /// A player for `command` (made from `spec`, with its folder and stderr file set), whose
    /// lines are written to `log` if given.
    pub fn with_command(
        spec: &str,
        command: BotCommand,
        startup: StartupLimit,
        log: Option<IoLog>,
    ) -> Result<PipePlayer, String> {
        let process =
            BotProcess::spawn(&command).map_err(|e| format!("cannot start `{spec}`: {e}"))?;
        Ok(PipePlayer {
            spec: spec.to_string(),
            command,
            startup,
            decision_limit: startup.time,
            process: Some(process),
            greeted: false,
            bot_name: None,
            follows_events: true,
            queue: String::new(),
            after_bye: None,
            log,
            unasked: 0,
        })
    }

    /// Writes a note into the `--log-io` log, if there is one, as a `#` line (a tournament
    /// marks where each game starts).
    pub fn note(&mut self, text: &str) {
        if let Some(log) = &mut self.log {
            log.write('#', text);
        }
    }

    /// The name the bot gave itself, once it has said hello.
    pub fn bot_name(&self) -> Option<&str> {
        self.bot_name.as_deref()
    }

    /// How many lines the bot wrote that no request asked for, as far as take5 could tell
    /// without waiting: a line already received when the next request was to be sent, or a
    /// refused reply with another line already behind it (written before the bot could have
    /// read its `error`).
    pub fn unasked(&self) -> u64 {
        self.unasked
    }

    /// Whether the running process has said hello (a new one has not yet).
    pub fn greeted(&self) -> bool {
        self.greeted
    }

    /// How the last process ended once it was sent `bye`: its exit status, `SIGKILL` when it
    /// was still running after the grace time and was killed. `None` before any `bye`.
    pub fn exit_after_bye(&self) -> Option<std::process::ExitStatus> {
        self.after_bye
    }

    /// Starts the bot if it is not running (again, after a crash or a hang) and shakes hands if
    /// it has not yet.
    fn connect(&mut self) -> Answer<()> {
        if self.process.is_none() {
            let process = BotProcess::spawn(&self.command).map_err(|e| {
                Fault::new(
                    FaultKind::Crash,
                    format!("cannot start `{}`: {e}", self.spec),
                    true,
                )
            })?;
            self.process = Some(process);
        }
        if self.greeted {
            return Ok(());
        }
        self.queue.clear();
        print::hello(&mut self.queue);
        let deadline = Instant::now() + self.startup.time;
        let greeting = self.exchange(deadline, |reply| {
            reply
                .greeting()
                .map(|(name, events)| (name.to_string(), events))
                .map_err(|m| (m.kind(), m.to_string()))
        });
        match greeting {
            Ok((name, events)) => {
                self.bot_name = Some(name);
                self.follows_events = events;
                self.greeted = true;
                Ok(())
            }
            Err(mut fault) => {
                // A bot that cannot greet is no use for this game, whatever went wrong.
                fault.disconnected = true;
                if fault.kind == FaultKind::Timeout {
                    fault.detail = format!(
                        "no hello within the start-up limit of {} ms ({}): {}",
                        self.startup.time.as_millis(),
                        self.startup.setting,
                        fault.detail
                    );
                }
                fault.detail = format!("handshake failed: {}", fault.detail);
                self.stop();
                Err(fault)
            }
        }
    }

    /// Sends the queued lines (the request last), then reads replies until `accept` takes one,
    /// answering each bad reply with an `error` line, at most [`REPLIES_PER_REQUEST`] replies.
    fn exchange<T>(
        &mut self,
        deadline: Instant,
        mut accept: impl FnMut(&FromBot) -> Result<T, (ErrorKind, String)>,
    ) -> Answer<T> {
        let mut refused: Option<(ErrorKind, String, Option<String>)> = None;
        for reply in 1..=REPLIES_PER_REQUEST {
            self.flush(deadline)?;
            let process = self.process.as_mut().expect("connected");
            let read = process.read_line(deadline);
            if let Some(log) = &mut self.log {
                match &read {
                    Ok(line) => log.write('<', line),
                    Err(error) => log.write('!', &error.to_string()),
                }
            }
            let (kind, why, line) = match read {
                Ok(line) => match parse::from_bot(line) {
                    Ok(message) => match accept(&message) {
                        Ok(answer) => return Ok(answer),
                        Err((kind, why)) => (kind, why, Some(line.to_string())),
                    },
                    Err(error) => (ErrorKind::Syntax, error.to_string(), Some(line.to_string())),
                },
                Err(error @ ProcessError::TooLong { .. }) => {
                    (ErrorKind::TooLong, error.to_string(), None)
                }
                Err(error @ ProcessError::InvalidUtf8 { .. }) => {
                    (ErrorKind::Encoding, error.to_string(), None)
                }
                Err(error) => {
                    let mut fault = self.lost(&error);
                    if let Some((_, why, line)) = &refused {
                        // What the bot said before it fell silent (or died) is the clue.
                        fault.detail = after_refusal(&fault.detail, line.as_deref(), why);
                    }
                    return Err(fault);
                }
            };
            if self.process.as_ref().is_some_and(BotProcess::pending_lines) {
                // Its next line came with this one, before any `error` could be read: this
                // one answered nothing.
                self.unasked += 1;
            }
            let tries_left = REPLIES_PER_REQUEST - reply;
            if tries_left > 0 {
                print::refusal(&mut self.queue, kind, &why, tries_left);
            }
            refused = Some((kind, why, line));
        }
        let (kind, why, _) = refused.expect("at least one reply was refused");
        let fault_kind = if kind == ErrorKind::Illegal {
            FaultKind::Illegal
        } else {
            FaultKind::Protocol
        };
        Err(Fault::new(
            fault_kind,
            format!("{REPLIES_PER_REQUEST} replies refused, the last: {why}"),
            false,
        ))
    }

    /// Writes the queued lines in one go.
    fn flush(&mut self, deadline: Instant) -> Answer<()> {
        if self.queue.is_empty() {
            return Ok(());
        }
        if let Some(log) = &mut self.log {
            log.write('>', &self.queue);
        }
        let process = self.process.as_mut().expect("connected");
        let sent = process.send_lines(&self.queue, deadline);
        self.queue.clear();
        sent.map_err(|error| self.lost(&error))
    }

    /// The fault for a bot that can no longer be talked to; stops it.
    fn lost(&mut self, error: &ProcessError) -> Box<Fault> {
        let process = self.process.as_mut().expect("connected");
        let mut fault = process.fault(error);
        fault.disconnected = true;
        self.stop();
        Box::new(fault)
    }

    fn stop(&mut self) {
        if let Some(mut process) = self.process.take() {
            process.kill();
        }
        self.greeted = false;
        self.queue.clear();
    }
}

/// A fault's `detail` told after the bot's last reply was refused: its first line names that
/// reply (`line`, when it could be read as text) and why it was refused; the rest (a stderr
/// tail) follows as it was.
fn after_refusal(detail: &str, line: Option<&str>, why: &str) -> String {
    let (first, rest) = detail
        .split_once('\n')
        .map_or((detail, ""), |(f, r)| (f, r));
    let reply = match line {
        Some(line) => format!("its reply `{line}` was refused ({why})"),
        None => format!("its reply was refused ({why})"),
    };
    let rest = if rest.is_empty() {
        String::new()
    } else {
        format!("\n{rest}")
    };
    format!("{first}, after {reply}{rest}")
}

impl Player for PipePlayer {
    fn name(&self) -> &str {
        &self.spec
    }

    fn own_name(&self) -> Option<&str> {
        self.bot_name()
    }

    fn ready(&mut self) -> Answer<()> {
        self.connect()
    }

    fn start_game(&mut self, start: &GameStart) -> Answer<()> {
        self.connect()?;
        self.decision_limit = Duration::from_millis(start.time_ms);
        print::game(&mut self.queue, start);
        Ok(())
    }

    fn wants_events(&self) -> bool {
        self.follows_events
    }

    fn observe(&mut self, seat: Seat, event: &Event) -> Answer<()> {
        if self.process.is_none() {
            return Ok(());
        }
        print::event(&mut self.queue, seat, event);
        if self.queue.len() > QUEUE_LIMIT {
            self.flush(Instant::now() + self.decision_limit)?;
        }
        Ok(())
    }

    fn decide(&mut self, view: &View, legal: Legality, limit: Limit) -> Answer<Action> {
        let deadline = Instant::now() + limit.time;
        let decision = view.decision.expect("asked only for a decision");
        if let Some(process) = self.process.as_mut()
            && process.pending_lines()
        {
            // Lines that came after the last reply answer nothing: drop them rather than
            // misread them, logged as received. (Only what has been read already: looking
            // into the pipe would cost a system call per decision.)
            while process.pending_lines() {
                let line = process.read_line(Instant::now()).map(str::to_string);
                if let (Some(log), Ok(line)) = (&mut self.log, &line) {
                    log.write('<', line);
                }
                self.unasked += 1;
            }
            self.unasked += process.discard_unread() as u64;
        }
        print::ask_clocked(&mut self.queue, view, limit.clock);
        self.exchange(deadline, |reply| {
            let action = reply
                .answer(decision)
                .map_err(|m| (m.kind(), m.to_string()))?;
            legal(action)
                .map_err(|rule| (ErrorKind::Illegal, format!("{}: {rule}", rule.kind())))?;
            Ok(action)
        })
        .map_err(|mut fault| {
            if fault.kind == FaultKind::Timeout {
                fault.detail = format!(
                    "no reply within {} ms: {}",
                    limit.time.as_millis(),
                    fault.detail
                );
            }
            fault
        })
    }

    fn end_game(&mut self, _outcome: &Outcome) {
        if self.process.is_some() {
            // The game's last events go now, so a bot that logs results sees them at once.
            let _ = self.flush(Instant::now() + self.decision_limit);
        }
    }

    fn finish(&mut self) {
        if let Some(mut process) = self.process.take() {
            print::bye(&mut self.queue);
            if let Some(log) = &mut self.log {
                log.write('>', &self.queue);
            }
            let _ = process.send_lines(&self.queue, Instant::now() + BYE_GRACE);
            self.queue.clear();
            self.after_bye = process.shutdown(BYE_GRACE);
        }
        // A player used for another match starts a new process, which must be greeted.
        self.greeted = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_player_used_again_after_finish_greets_its_new_process() {
        // The bot names itself after its pid, so each process gives another name.
        let spec = r#"sh -c 'read l; echo "hello version=1 name=bot$$"; cat >/dev/null'"#;
        let startup = StartupLimit::flag(Duration::from_secs(10));
        let mut player = PipePlayer::new(spec, startup).expect("sh starts");
        player.connect().expect("a greeting");
        let first = player.bot_name().expect("a name").to_string();
        player.finish();
        player.connect().expect("a greeting from the new process");
        assert_ne!(player.bot_name(), Some(first.as_str()));
        player.finish();
    }
}
