//! A supervised bot process: a program started with piped stdin/stdout/stderr, spoken to in
//! text lines, each read bounded by a deadline. This layer knows nothing of the game or of the
//! message syntax; it only reports, precisely, what went wrong ([`ProcessError`]), and maps that
//! to a player [`Fault`] ([`BotProcess::fault`]).
//!
//! Design, for speed and against hostile bots:
//! - The bot runs in its own process group; [`BotProcess::kill`] (and `Drop`) send `SIGKILL` to
//!   the whole group, and to every process below the bot, even one that left the group with
//!   `setsid`; the bot dies with take5, even by SIGKILL (see `reaper`).
//! - The leader is never reaped before its group has been killed (its exit is only *peeked*
//!   with `waitid(WNOWAIT)`), so its pid, which is the group id, cannot be reused meanwhile.
//! - A reply is read from stdout with one blocking `read`, so a request and its reply cost one
//!   `write` and one `read`, as a raw blocking ping-pong does; a line already buffered costs
//!   nothing. The read's deadline is kept by the watchdog thread (see `watchdog`), which
//!   interrupts it when the deadline passes, or when the bot exits while a child it left
//!   behind still holds its stdout open (reported as [`ProcessError::Closed`] at once, not as
//!   a timeout; the exit is seen by a pidfd, or before Linux 5.3 by `waitid` every tick).
//! - stdin is non-blocking, driven with `poll` when the pipe is full, so a bot that does not
//!   read cannot block take5 past the deadline either.
//! - Lines are read into one fixed buffer: an over-long line is reported as soon as it passes the
//!   limit and the rest of it is skipped as it arrives, so a 10 MB line costs no memory.
//! - stderr is drained by a small thread into a bounded tail, shown in fault messages, so a bot
//!   can never block on a full stderr pipe. [`BotProcess::kill`] stops and joins the thread,
//!   even when something still holds the pipe open, so threads and file descriptors never pile
//!   up over many games.
//!
//! Writing to a bot that has gone away gives `EPIPE`, which assumes `SIGPIPE` is ignored, as
//! the Rust runtime arranges for every Rust program.

use crate::players::Fault;
use crate::players::reaper;
use crate::players::sandbox::{self, Limits, Sandbox, Scratch};
use crate::players::watchdog::Watch;
use crate::seat::FaultKind;
use std::fmt;
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The longest line (in bytes, without the line end) a bot may send by default: the protocol's
/// longest reply.
pub const DEFAULT_LINE_LIMIT: usize = crate::protocol::MAX_REPLY_BYTES;
/// How much of stderr is kept for fault messages.
pub const STDERR_TAIL_LINES: usize = 20;
pub const STDERR_TAIL_BYTES: usize = 4096;

/// The smallest read buffer: enough for several short lines per `read`.
const MIN_BUFFER: usize = 4096;
/// How long to wait for a bot's exit status once its stdout has closed.
const EXIT_GRACE: Duration = Duration::from_millis(100);
/// How long a crash report waits for the last words on stderr.
const STDERR_GRACE: Duration = Duration::from_millis(50);
/// How often to check whether the bot has exited when pidfds are not available.
const FALLBACK_SLICE_MS: i32 = 50;
/// The most that [`BotProcess::discard_unread`] reads in one call (against a bot that floods).
const DISCARD_LIMIT: usize = 1 << 20;

/// A command line for a bot: a program and its arguments, never run through a shell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotCommand {
    pub program: String,
    pub args: Vec<String>,
    /// The folder the bot starts in (`None`: take5's own).
    pub dir: Option<PathBuf>,
    /// A file that gets everything the bot writes on stderr (appended), besides the tail.
    pub stderr_file: Option<PathBuf>,
    /// With `--sandbox`: how each of its processes is confined (`None`: it runs as take5 does).
    pub sandbox: Option<Sandbox>,
}

impl BotCommand {
    pub fn new(
        program: impl Into<String>,
        args: impl IntoIterator<Item = impl Into<String>>,
    ) -> Self {
        BotCommand {
            program: program.into(),
            args: args.into_iter().map(Into::into).collect(),
            dir: None,
            stderr_file: None,
            sandbox: None,
        }
    }

    /// Splits `spec` into words as a POSIX shell would (quotes, backslash escapes); no
    /// expansion of any kind. Errors on an empty command and on unbalanced quotes.
    pub fn parse(spec: &str) -> Result<BotCommand, String> {
        let words = shlex::split(spec).ok_or_else(|| {
            format!("bad bot command {spec:?}: unbalanced quotes or a trailing backslash")
        })?;
        let mut words = words.into_iter();
        let program = words
            .next()
            .ok_or_else(|| format!("bad bot command {spec:?}: no program given"))?;
        if program.is_empty() {
            return Err(format!(
                "bad bot command {spec:?}: the program name is empty"
            ));
        }
        Ok(BotCommand {
            program,
            args: words.collect(),
            dir: None,
            stderr_file: None,
            sandbox: None,
        })
    }
}

impl fmt::Display for BotCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let words =
            std::iter::once(self.program.as_str()).chain(self.args.iter().map(String::as_str));
        match shlex::try_join(words) {
            Ok(joined) => f.write_str(&joined),
            Err(_) => write!(f, "{:?} {:?}", self.program, self.args),
        }
    }
}

/// What went wrong talking to a bot process.
#[derive(Debug)]
pub enum ProcessError {
    /// No complete line arrived before the deadline.
    Timeout,
    /// The bot did not read its stdin: the pipe stayed full until the deadline.
    WriteTimeout,
    /// The bot's stdout closed, its stdin was closed, or it exited; with its exit status when
    /// known.
    Closed { status: Option<ExitStatus> },
    /// A line longer than `limit` bytes. The rest of it is skipped, even the part that has not
    /// arrived yet: the next read continues with the line after it.
    TooLong { limit: usize },
    /// A line that is not UTF-8 (it was consumed). The raw bytes, at most the line limit.
    InvalidUtf8 { line_bytes: Vec<u8> },
    /// Any other system error.
    Io(io::Error),
}

impl ProcessError {
    /// The kind of fault this error makes.
    pub fn fault_kind(&self) -> FaultKind {
        match self {
            ProcessError::Timeout | ProcessError::WriteTimeout => FaultKind::Timeout,
            ProcessError::Closed { .. } | ProcessError::Io(_) => FaultKind::Crash,
            ProcessError::TooLong { .. } | ProcessError::InvalidUtf8 { .. } => FaultKind::Protocol,
        }
    }

    /// Whether the bot can still be talked to after this error (its next line is in sync).
    pub fn recoverable(&self) -> bool {
        matches!(
            self,
            ProcessError::TooLong { .. } | ProcessError::InvalidUtf8 { .. }
        )
    }
}

impl fmt::Display for ProcessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProcessError::Timeout => f.write_str("no answer within the time limit"),
            ProcessError::WriteTimeout => {
                f.write_str("does not read its input (stdin stayed full past the time limit)")
            }
            ProcessError::Closed { status: None } => {
                f.write_str("closed its input or output (exit status unknown)")
            }
            ProcessError::Closed {
                status: Some(status),
            } => f.write_str(&describe_status(*status)),
            ProcessError::TooLong { limit } => write!(f, "line longer than {limit} bytes"),
            ProcessError::InvalidUtf8 { line_bytes } => {
                let valid = match std::str::from_utf8(line_bytes) {
                    Ok(_) => line_bytes.len(),
                    Err(e) => e.valid_up_to(),
                };
                write!(
                    f,
                    "line is not UTF-8 (bad byte at {valid} of {}): {}",
                    line_bytes.len(),
                    escape_bytes(line_bytes, 80)
                )
            }
            ProcessError::Io(e) => write!(f, "i/o error: {e}"),
        }
    }
}

impl std::error::Error for ProcessError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ProcessError::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<io::Error> for ProcessError {
    fn from(e: io::Error) -> Self {
        ProcessError::Io(e)
    }
}

/// "exited with code 3", "killed by signal 9 (SIGKILL)".
pub fn describe_status(status: ExitStatus) -> String {
    if let Some(code) = status.code() {
        format!("exited with code {code}")
    } else if let Some(signal) = status.signal() {
        let name = signal_name(signal)
            .map(|n| format!(" ({n})"))
            .unwrap_or_default();
        let core = if status.core_dumped() {
            ", core dumped"
        } else {
            ""
        };
        format!("killed by signal {signal}{name}{core}")
    } else {
        format!("ended: {status}")
    }
}

fn signal_name(signal: i32) -> Option<&'static str> {
    Some(match signal {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGALRM => "SIGALRM",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        _ => return None,
    })
}

/// Printable text for raw bytes, at most `max` of them: ASCII as is, the rest as `\xNN`.
fn escape_bytes(bytes: &[u8], max: usize) -> String {
    let mut s: String = bytes[..bytes.len().min(max)]
        .iter()
        .flat_map(|b| std::ascii::escape_default(*b))
        .map(char::from)
        .collect();
    if bytes.len() > max {
        s.push('…');
    }
    s
}

/// A running bot: see the module documentation.
pub struct BotProcess {
    child: Child,
    /// The bot's pid, which is also its process group id.
    pid: libc::pid_t,
    /// `None` once closed by [`BotProcess::shutdown`] or [`BotProcess::kill`].
    stdin: Option<ChildStdin>,
    stdout: ChildStdout,
    /// The bot's entry with the watchdog, which bounds blocking reads (and holds its pidfd).
    watch: Watch,
    /// Unread bytes are `buf[start..end]`; they never hold a line end beyond the first
    /// unreturned line, and never more than `limit + 1` bytes without a line end.
    buf: Box<[u8]>,
    start: usize,
    end: usize,
    limit: usize,
    /// Skipping the rest of an over-long line, up to its line end.
    skipping: bool,
    /// stdout closed (or the bot exited): nothing more will be read.
    eof: bool,
    /// A reusable buffer for writing a line and its line end in one `write`.
    out: Vec<u8>,
    stderr: Arc<StderrTail>,
    /// The exit status, once known (peeked, or after reaping).
    status: Option<ExitStatus>,
    /// The bot is known to be gone (even when its status cannot be known).
    exited: bool,
    /// The leader has been reaped, after its group was killed: never signal the group again.
    reaped: bool,
    /// The brief wait for an exit status after EOF was done already.
    exit_waited: bool,
    /// The thread draining stderr, and the eventfd that tells it to stop; joined by `kill`.
    stderr_thread: Option<(JoinHandle<()>, Arc<OwnedFd>)>,
    /// With `--sandbox`: its limits (to name the one a crash hit) and its private folder,
    /// removed when this is dropped, after `kill` (the last field: dropped last).
    sandbox: Option<(Limits, Scratch)>,
}

impl BotProcess {
    /// Starts `cmd` with the default line limit.
    pub fn spawn(cmd: &BotCommand) -> io::Result<BotProcess> {
        Self::spawn_with_limit(cmd, DEFAULT_LINE_LIMIT)
    }

    /// Starts `cmd`; lines over `line_limit` bytes are [`ProcessError::TooLong`].
    pub fn spawn_with_limit(cmd: &BotCommand, line_limit: usize) -> io::Result<BotProcess> {
        let line_limit = line_limit.max(1);
        let stderr_file = match &cmd.stderr_file {
            Some(path) => Some((logs::open_append(path)?, path.clone())),
            None => None,
        };
        let mut command = Command::new(&cmd.program);
        if let Some(dir) = &cmd.dir {
            command.current_dir(dir);
        }
        command
            .args(&cmd.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        // The confinement is set up before the reaper's own steps in the child: the death
        // signal must be set after the change of user, which clears it.
        let mut confined = match &cmd.sandbox {
            Some(sandbox) => Some(sandbox::Prepared::new(
                sandbox,
                &cmd.program,
                &cmd.args,
                cmd.dir.as_deref(),
            )?),
            None => None,
        };
        if let Some(confined) = &mut confined {
            confined.apply(&mut command);
        }
        let mut child = reaper::spawn(command).map_err(|e| match &confined {
            Some(_) if e.kind() == io::ErrorKind::PermissionDenied => io::Error::new(
                e.kind(),
                format!(
                    "{e}: under --sandbox a bot reads and runs only the system's folders, \
                     its own and those given by read=PATH"
                ),
            ),
            _ => e,
        })?;
        // std closes the child's ends of the pipes in the parent once it has started, and
        // opens every pipe close-on-exec, so bots started at the same time never hold each
        // other's pipes: a dead bot shows as EOF at once.
        let pid = child.id() as libc::pid_t;
        let (stdin, stdout, stderr) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take());
        let (Some(stdin), Some(stdout), Some(stderr)) = (stdin, stdout, stderr) else {
            unreachable!("all three pipes were asked for");
        };
        live_groups::add(pid);
        let tail = Arc::new(StderrTail::default());
        // From here on, dropping `bot` kills the group and reaps the bot.
        let mut bot = BotProcess {
            child,
            pid,
            stdin: Some(stdin),
            stdout,
            watch: Watch::new(pid, pidfd_open(pid)),
            buf: vec![0; (line_limit + 2).max(MIN_BUFFER)].into_boxed_slice(),
            start: 0,
            end: 0,
            limit: line_limit,
            skipping: false,
            eof: false,
            out: Vec::with_capacity(256),
            stderr: Arc::clone(&tail),
            status: None,
            exited: false,
            reaped: false,
            exit_waited: false,
            stderr_thread: None,
            sandbox: confined.map(|c| (c.limits, c.scratch)),
        };
        if let Some(stdin) = &bot.stdin {
            set_nonblocking(stdin.as_raw_fd())?;
        }
        let stop = Arc::new(eventfd()?);
        let told = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name(format!("bot-stderr-{pid}"))
            .stack_size(64 * 1024)
            .spawn(move || drain_stderr(stderr, &tail, stderr_file, &told))?;
        // The thread ends at EOF on stderr, or when `kill` tells it to stop.
        bot.stderr_thread = Some((thread, stop));
        Ok(bot)
    }

    /// The bot's process id (also its process group id).
    pub fn pid(&self) -> u32 {
        self.pid as u32
    }

    /// The longest line accepted, in bytes.
    pub fn line_limit(&self) -> usize {
        self.limit
    }

    /// The size of the read buffer, which never grows.
    pub fn buffer_capacity(&self) -> usize {
        self.buf.len()
    }

    /// Writes `line` and a line end, all of it, waiting while the pipe is full only until
    /// `deadline`. `line` must not contain a line end.
    pub fn send_line(&mut self, line: &str, deadline: Instant) -> Result<(), ProcessError> {
        if line.as_bytes().contains(&b'\n') {
            return Err(ProcessError::Io(io::Error::new(
                io::ErrorKind::InvalidInput,
                "a line to send contains a line end",
            )));
        }
        let mut out = std::mem::take(&mut self.out);
        out.clear();
        out.extend_from_slice(line.as_bytes());
        out.push(b'\n');
        let sent = self.write_all(&out, deadline);
        self.out = out;
        sent
    }

    /// Writes several whole lines at once (one `write` when the pipe has room): `text` must end
    /// with a line end.
    pub fn send_lines(&mut self, text: &str, deadline: Instant) -> Result<(), ProcessError> {
        if !text.ends_with('\n') {
            return Err(ProcessError::Io(io::Error::new(
                io::ErrorKind::InvalidInput,
                "the lines to send do not end with a line end",
            )));
        }
        self.write_all(text.as_bytes(), deadline)
    }

    fn write_all(&mut self, bytes: &[u8], deadline: Instant) -> Result<(), ProcessError> {
        let Some(fd) = self.stdin.as_ref().map(AsRawFd::as_raw_fd) else {
            return Err(ProcessError::Closed {
                status: self.status,
            });
        };
        let mut written = 0;
        while written < bytes.len() {
            let rest = &bytes[written..];
            // SAFETY: `rest` is a valid buffer of `rest.len()` bytes; `fd` is our open stdin.
            let n = unsafe { libc::write(fd, rest.as_ptr().cast(), rest.len()) };
            if n >= 0 {
                written += n as usize;
                continue;
            }
            let e = io::Error::last_os_error();
            match e.raw_os_error() {
                Some(libc::EINTR) => {}
                Some(libc::EAGAIN) => match self.wait_fd(fd, libc::POLLOUT, deadline)? {
                    Ready::Fd => {}
                    Ready::TimedOut => return Err(ProcessError::WriteTimeout),
                    Ready::Exited => return Err(self.closed()),
                },
                Some(libc::EPIPE) => return Err(self.closed()),
                _ => return Err(ProcessError::Io(e)),
            }
        }
        Ok(())
    }

    /// The next line (without its `\n` nor a `\r` before it), waiting for it until `deadline`.
    /// Lines already received (even still in the pipe) are returned past the deadline too.
    pub fn read_line(&mut self, deadline: Instant) -> Result<&str, ProcessError> {
        let (from, to) = self.next_line(deadline)?;
        let bytes = &self.buf[from..to];
        match std::str::from_utf8(bytes) {
            Ok(line) => Ok(line),
            Err(_) => Err(ProcessError::InvalidUtf8 {
                line_bytes: bytes.to_vec(),
            }),
        }
    }

    /// Whether a complete line has been received and not yet read (no system call: lines still
    /// in the pipe are not seen; [`BotProcess::discard_unread`] sees them).
    pub fn pending_lines(&self) -> bool {
        !self.skipping && self.buf[self.start..self.end].contains(&b'\n')
    }

    /// Drops everything the bot has sent and that has not been read: what is buffered and what
    /// is waiting in the pipe now (up to 1 MiB). Returns how many line ends were dropped.
    /// Call it before a request to forget what the bot sent unasked.
    pub fn discard_unread(&mut self) -> usize {
        let mut lines = 0;
        if !self.skipping {
            lines += count_newlines(&self.buf[self.start..self.end]);
        }
        self.start = 0;
        self.end = 0;
        let mut total = 0;
        while !self.eof && total < DISCARD_LIMIT {
            match self.read_if_ready() {
                Ok(None) => break,
                Ok(Some(0)) => self.eof = true,
                Ok(Some(n)) => {
                    let chunk = &self.buf[..n];
                    match (self.skipping, chunk.iter().position(|&b| b == b'\n')) {
                        (true, Some(i)) => {
                            self.skipping = false;
                            lines += count_newlines(&chunk[i + 1..]);
                        }
                        (true, None) => {}
                        (false, _) => lines += count_newlines(chunk),
                    }
                    total += n;
                }
                Err(_) => break,
            }
        }
        self.start = 0;
        self.end = 0;
        lines
    }

    /// Whether the bot is still running (it may have closed its pipes and still run).
    pub fn is_running(&mut self) -> bool {
        !self.peek_exit()
    }

    /// The bot's exit status, if it has exited and the status is known.
    pub fn exit_status(&mut self) -> Option<ExitStatus> {
        self.peek_exit();
        self.status
    }

    /// The last lines the bot wrote on stderr (at most 20 lines, 4 KiB).
    pub fn stderr_tail(&self) -> String {
        self.stderr.render()
    }

    /// Kills the bot's whole process group and every process below it with `SIGKILL`, reaps
    /// the bot, and stops the thread that drains its stderr. Idempotent.
    pub fn kill(&mut self) {
        if self.reaped {
            self.stdin = None;
            return;
        }
        // Before its stdin closes: a bot that exits at the end of its input would hand what it
        // started to init (or to take5, see `reaper`) before it could be found below the bot.
        if let Some(status) = reaper::end(self.pid, &mut self.child) {
            self.status = Some(status);
        }
        self.stdin = None;
        live_groups::remove(self.pid);
        self.exited = true;
        self.reaped = true;
        self.eof = true;
        if let Some((thread, stop)) = self.stderr_thread.take() {
            let one: u64 = 1;
            // SAFETY: writes 8 bytes from a valid u64 to the eventfd we own.
            unsafe { libc::write(stop.as_raw_fd(), (&raw const one).cast(), 8) };
            let _ = thread.join();
        }
    }

    /// Closes the bot's stdin, lets it exit by itself for up to `grace`, then kills its
    /// group (whatever it left behind included) and reaps it. Returns its exit status.
    pub fn shutdown(&mut self, grace: Duration) -> Option<ExitStatus> {
        self.stdin = None;
        self.wait_exit(Instant::now() + grace);
        self.kill();
        self.status
    }

    /// The [`Fault`] for `err`, with the stderr tail in the detail of crashes and timeouts.
    pub fn fault(&self, err: &ProcessError) -> Fault {
        let kind = err.fault_kind();
        let mut detail = err.to_string();
        let tail = match kind {
            FaultKind::Crash => self.stderr.render_settled(STDERR_GRACE),
            FaultKind::Timeout => self.stderr.render(),
            _ => String::new(),
        };
        if let (Some((limits, _)), ProcessError::Closed { status }) = (&self.sandbox, err) {
            let signal = status.and_then(|s| s.signal());
            if let Some(hit) = sandbox::limit_hit(limits, signal, &tail) {
                detail.push_str(": ");
                detail.push_str(&hit);
            }
        }
        if !tail.is_empty() {
            detail.push_str("\n--- last lines of its stderr ---\n");
            detail.push_str(&tail);
        }
        Fault {
            kind,
            detail,
            disconnected: !err.recoverable(),
        }
    }

    /// Finds the next line, reading as needed; returns its bounds in `buf` (line end removed).
    fn next_line(&mut self, deadline: Instant) -> Result<(usize, usize), ProcessError> {
        // Bytes in buf[start..scanned] are known to hold no line end.
        let mut scanned = self.start;
        loop {
            if self.skipping {
                match memchr_nl(&self.buf[self.start..self.end]) {
                    Some(i) => {
                        self.start += i + 1;
                        self.skipping = false;
                        scanned = self.start;
                    }
                    None => {
                        self.start = 0;
                        self.end = 0;
                        scanned = 0;
                    }
                }
            }
            if !self.skipping {
                if let Some(i) = memchr_nl(&self.buf[scanned..self.end]) {
                    let from = self.start;
                    let newline = scanned + i;
                    self.start = newline + 1;
                    if self.start == self.end {
                        // Empty now: reuse the buffer from its start (no compaction needed).
                        self.start = 0;
                        self.end = 0;
                    }
                    let mut to = newline;
                    if to > from && self.buf[to - 1] == b'\r' {
                        to -= 1;
                    }
                    if to - from > self.limit {
                        return Err(ProcessError::TooLong { limit: self.limit });
                    }
                    return Ok((from, to));
                }
                // No line end: more than limit + 1 bytes (room for a `\r`) is too long already.
                if self.end - self.start > self.limit + 1 {
                    self.start = 0;
                    self.end = 0;
                    self.skipping = true;
                    return Err(ProcessError::TooLong { limit: self.limit });
                }
                scanned = self.end;
            }
            if self.eof {
                return Err(self.closed());
            }
            if self.start > 0 {
                self.buf.copy_within(self.start..self.end, 0);
                self.end -= self.start;
                scanned -= self.start;
                self.start = 0;
            }
            self.fill(deadline)?;
        }
    }

    /// Reads once into the free end of the buffer, waiting until `deadline` for something to
    /// read (past it, only what is there already is taken); sets `eof` at the end of stdout or
    /// when the bot has exited with nothing left.
    fn fill(&mut self, deadline: Instant) -> Result<(), ProcessError> {
        if Instant::now() >= deadline {
            let n = self.read_if_ready()?.ok_or(ProcessError::Timeout)?;
            self.took(n);
            return Ok(());
        }
        let fd = self.stdout.as_raw_fd();
        let armed = self.watch.arm(deadline);
        loop {
            match read_once(fd, &mut self.buf[self.end..]) {
                Ok(n) => {
                    drop(armed);
                    self.took(n);
                    return Ok(());
                }
                Err(e) if e.raw_os_error() == Some(libc::EINTR) => {}
                Err(e) => return Err(ProcessError::Io(e)),
            }
            // Interrupted: by the watchdog, or by some other signal (then read on).
            if self.watch.bot_exited() {
                drop(armed);
                // The bot is gone but something it left holds stdout open: take what is
                // there, then treat it as closed.
                self.peek_exit();
                match self.read_if_ready()? {
                    Some(n) if n > 0 => self.end += n,
                    _ => self.eof = true,
                }
                return Ok(());
            }
            if Instant::now() >= deadline {
                return Err(ProcessError::Timeout);
            }
        }
    }

    /// Counts `n` bytes just read into the buffer; none is the end of stdout.
    fn took(&mut self, n: usize) {
        match n {
            0 => self.eof = true,
            n => self.end += n,
        }
    }

    /// One `read` into `buf[end..]` if it would not block (something to read, or the end of
    /// stdout: `Some(0)`); `None` if the pipe is empty.
    fn read_if_ready(&mut self) -> io::Result<Option<usize>> {
        let mut fds = [libc::pollfd {
            fd: self.stdout.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        }];
        loop {
            // SAFETY: `fds` is a valid array of one pollfd; timeout 0 never blocks.
            let r = unsafe { libc::poll(fds.as_mut_ptr(), 1, 0) };
            if r == 0 {
                return Ok(None);
            }
            let outcome = if r > 0 {
                read_once(fds[0].fd, &mut self.buf[self.end..]).map(Some)
            } else {
                Err(io::Error::last_os_error())
            };
            match outcome {
                Err(e) if e.raw_os_error() == Some(libc::EINTR) => continue,
                outcome => return outcome,
            }
        }
    }

    /// Waits until `fd` is ready for `events`, the bot exits, or `deadline` passes.
    fn wait_fd(
        &mut self,
        fd: RawFd,
        events: libc::c_short,
        deadline: Instant,
    ) -> Result<Ready, ProcessError> {
        loop {
            // Past the deadline, still look (timeout 0): what is there already is taken.
            let mut timeout = millis_until(Instant::now(), deadline);
            let mut fds = [
                libc::pollfd {
                    fd,
                    events,
                    revents: 0,
                },
                libc::pollfd {
                    fd: self.watch.pidfd().unwrap_or(-1),
                    events: libc::POLLIN,
                    revents: 0,
                },
            ];
            let nfds = if self.watch.pidfd().is_some() {
                2
            } else {
                timeout = timeout.min(FALLBACK_SLICE_MS);
                1
            };
            // SAFETY: `fds` is a valid array of at least `nfds` pollfd.
            let r = unsafe { libc::poll(fds.as_mut_ptr(), nfds, timeout) };
            if r < 0 {
                let e = io::Error::last_os_error();
                if e.raw_os_error() == Some(libc::EINTR) {
                    continue;
                }
                return Err(ProcessError::Io(e));
            }
            if fds[0].revents != 0 {
                // Ready, or POLLHUP/POLLERR: the next read or write tells which.
                return Ok(Ready::Fd);
            }
            if fds[1].revents != 0 || (self.watch.pidfd().is_none() && self.peek_exit()) {
                self.peek_exit();
                return Ok(Ready::Exited);
            }
            if r == 0 && Instant::now() >= deadline {
                return Ok(Ready::TimedOut);
            }
        }
    }

    /// The error for a bot whose pipes closed, with its exit status if it comes soon.
    fn closed(&mut self) -> ProcessError {
        if !self.exit_waited {
            self.exit_waited = true;
            self.wait_exit(Instant::now() + EXIT_GRACE);
        }
        ProcessError::Closed {
            status: self.status,
        }
    }

    /// Waits until the bot has exited or `deadline` passes; returns whether it has exited.
    fn wait_exit(&mut self, deadline: Instant) -> bool {
        loop {
            if self.peek_exit() {
                return true;
            }
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            match self.watch.pidfd() {
                Some(pidfd) => {
                    let mut fds = [libc::pollfd {
                        fd: pidfd,
                        events: libc::POLLIN,
                        revents: 0,
                    }];
                    // SAFETY: `fds` is a valid array of one pollfd.
                    unsafe { libc::poll(fds.as_mut_ptr(), 1, millis_until(now, deadline)) };
                }
                None => std::thread::sleep((deadline - now).min(Duration::from_millis(5))),
            }
        }
    }

    /// Whether the bot has exited, without reaping it; records its status.
    fn peek_exit(&mut self) -> bool {
        if self.exited {
            return true;
        }
        // SAFETY: an all-zero siginfo_t is valid; waitid only fills it in.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        let options = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
        // SAFETY: `info` is a valid siginfo_t to fill in.
        let r = unsafe { libc::waitid(libc::P_PID, self.pid as libc::id_t, &mut info, options) };
        if r < 0 {
            if io::Error::last_os_error().raw_os_error() == Some(libc::ECHILD) {
                // Reaped behind our back (SIGCHLD ignored): gone, status unknown.
                self.exited = true;
            }
            return self.exited;
        }
        // SAFETY: waitid filled `info` for a child event (si_pid is 0 if nothing happened).
        let (pid, status) = unsafe { (info.si_pid(), info.si_status()) };
        if pid == 0 {
            return false;
        }
        let raw = match info.si_code {
            libc::CLD_EXITED => (status & 0xff) << 8,
            libc::CLD_KILLED => status & 0x7f,
            libc::CLD_DUMPED => (status & 0x7f) | 0x80,
            _ => return false,
        };
        self.status = Some(ExitStatus::from_raw(raw));
        self.exited = true;
        true
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

impl fmt::Debug for BotProcess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BotProcess")
            .field("pid", &self.pid)
            .field("status", &self.status)
            .field("buffered", &(self.end - self.start))
            .finish_non_exhaustive()
    }
}

enum Ready {
    Fd,
    TimedOut,
    Exited,
}

/// One `read` from `fd` into `buf`; it blocks while the pipe is empty and open, until a signal
/// (the watchdog's, when a read is armed) interrupts it with `EINTR`.
fn read_once(fd: RawFd, buf: &mut [u8]) -> io::Result<usize> {
    // SAFETY: `buf` is a valid writable buffer of `buf.len()` bytes.
    let n = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
    if n >= 0 {
        Ok(n as usize)
    } else {
        Err(io::Error::last_os_error())
    }
}

fn memchr_nl(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|&b| b == b'\n')
}

fn count_newlines(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'\n').count()
}

/// Milliseconds from `now` to `deadline`, rounded up (so a poll never returns early).
fn millis_until(now: Instant, deadline: Instant) -> i32 {
    let d = deadline.saturating_duration_since(now);
    let ms = d.as_millis() + u128::from(!d.subsec_nanos().is_multiple_of(1_000_000));
    ms.min(i32::MAX as u128) as i32
}

fn set_nonblocking(fd: RawFd) -> io::Result<()> {
    // SAFETY: fcntl on a file descriptor we own.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: as above.
    if unsafe { libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// A file descriptor that becomes readable when process `pid` exits (Linux 5.3+).
fn pidfd_open(pid: libc::pid_t) -> Option<OwnedFd> {
    // SAFETY: plain system call; on success it returns a new file descriptor that we own.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    if fd < 0 {
        return None;
    }
    // SAFETY: `fd` is a fresh descriptor owned by nobody else (and close-on-exec).
    Some(unsafe { OwnedFd::from_raw_fd(fd as RawFd) })
}

/// The last bytes a bot wrote on stderr, kept by the draining thread.
#[derive(Default)]
struct StderrTail {
    state: Mutex<TailState>,
    closed: Condvar,
}

#[derive(Default)]
struct TailState {
    /// The most recent bytes: at most `2 * STDERR_TAIL_BYTES` (trimmed in steps, not per write).
    bytes: Vec<u8>,
    /// Bytes dropped from the front.
    dropped: u64,
    /// stderr reached EOF.
    closed: bool,
}

impl StderrTail {
    fn lock(&self) -> MutexGuard<'_, TailState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn push(&self, chunk: &[u8]) {
        let mut state = self.lock();
        state.bytes.extend_from_slice(chunk);
        if state.bytes.len() > 2 * STDERR_TAIL_BYTES {
            let cut = state.bytes.len() - STDERR_TAIL_BYTES;
            state.bytes.drain(..cut);
            state.dropped += cut as u64;
        }
    }

    fn close(&self) {
        self.lock().closed = true;
        self.closed.notify_all();
    }

    fn render(&self) -> String {
        let state = self.lock();
        render_tail(&state.bytes, state.dropped > 0)
    }

    /// Like `render`, after waiting up to `wait` for stderr to close (a dying bot's last words).
    fn render_settled(&self, wait: Duration) -> String {
        let state = self.lock();
        let (state, _) = self
            .closed
            .wait_timeout_while(state, wait, |s| !s.closed)
            .unwrap_or_else(|e| e.into_inner());
        render_tail(&state.bytes, state.dropped > 0)
    }
}

/// The last `STDERR_TAIL_LINES` lines of the last `STDERR_TAIL_BYTES` bytes, as text; `…`
/// marks a first line that was cut.
fn render_tail(bytes: &[u8], dropped: bool) -> String {
    let mut from = bytes.len().saturating_sub(STDERR_TAIL_BYTES);
    let mut cut = dropped || from > 0;
    let mut to = bytes.len();
    while to > from && matches!(bytes[to - 1], b'\n' | b'\r') {
        to -= 1;
    }
    let mut newlines = 0;
    for i in (from..to).rev() {
        if bytes[i] == b'\n' {
            newlines += 1;
            if newlines == STDERR_TAIL_LINES {
                from = i + 1;
                cut = false;
                break;
            }
        }
    }
    if cut && from > 0 && bytes[from - 1] == b'\n' {
        cut = false;
    } else if cut && from < to && bytes[from] == b'\n' {
        from += 1;
        cut = false;
    }
    let text = String::from_utf8_lossy(&bytes[from..to]);
    if cut {
        format!("…{text}")
    } else {
        text.into_owned()
    }
}

/// A new eventfd (close-on-exec), readable once something is written to it.
fn eventfd() -> io::Result<OwnedFd> {
    // SAFETY: plain system call; on success it returns a new file descriptor that we own.
    let fd = unsafe { libc::eventfd(0, libc::EFD_CLOEXEC) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `fd` is a fresh descriptor owned by nobody else.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// The most that is still read from stderr once told to stop (against a bot that floods it).
const STDERR_LAST_WORDS: usize = 64 * 1024;

/// Copies stderr into `tail` (and `file`) until EOF, or until `stop` is readable: then only what
/// is in the pipe already is taken (at most [`STDERR_LAST_WORDS`]).
fn drain_stderr(
    mut stderr: ChildStderr,
    tail: &StderrTail,
    mut file: Option<(std::fs::File, PathBuf)>,
    stop: &OwnedFd,
) {
    let mut chunk = [0u8; 8192];
    let mut stopping = false;
    let mut last_words = 0;
    loop {
        if !stopping {
            let mut fds = [
                libc::pollfd {
                    fd: stderr.as_raw_fd(),
                    events: libc::POLLIN,
                    revents: 0,
                },
                libc::pollfd {
                    fd: stop.as_raw_fd(),
                    events: libc::POLLIN,
                    revents: 0,
                },
            ];
            // SAFETY: `fds` is a valid array of two pollfd.
            if unsafe { libc::poll(fds.as_mut_ptr(), 2, -1) } < 0 {
                if io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
                    continue;
                }
                break;
            }
            if fds[1].revents != 0 {
                stopping = true;
                if set_nonblocking(stderr.as_raw_fd()).is_err() {
                    break;
                }
            }
        } else if last_words >= STDERR_LAST_WORDS {
            break;
        }
        match stderr.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => {
                if stopping {
                    last_words += n;
                }
                tail.push(&chunk[..n]);
                // A file that cannot be written is given up (and said so): the bot must never
                // block on it.
                if let Some((f, path)) = &mut file
                    && let Err(e) = f.write_all(&chunk[..n])
                {
                    logs::lost(path, &e);
                    file = None;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    tail.close();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_splits_like_a_shell() {
        let cmd = BotCommand::parse(r#"python3 -u "my bot.py" --name 'a b' c\ d"#).unwrap();
        assert_eq!(cmd.program, "python3");
        assert_eq!(cmd.args, ["-u", "my bot.py", "--name", "a b", "c d"]);
        let cmd = BotCommand::parse("  ./bot  ").unwrap();
        assert_eq!(cmd, BotCommand::new("./bot", Vec::<String>::new()));
        // No expansion, no operators: these are plain words.
        let cmd = BotCommand::parse("echo $HOME ; ls | cat").unwrap();
        assert_eq!(cmd.args, ["$HOME", ";", "ls", "|", "cat"]);
    }

    #[test]
    fn parse_rejects_empty_and_unbalanced() {
        assert!(BotCommand::parse("").is_err());
        assert!(BotCommand::parse("   ").is_err());
        assert!(BotCommand::parse("''").is_err());
        assert!(BotCommand::parse("bot 'unclosed").is_err());
        assert!(BotCommand::parse("bot \"unclosed").is_err());
        assert!(BotCommand::parse("bot trailing\\").is_err());
    }

    #[test]
    fn display_quotes_back() {
        let cmd = BotCommand::new("my bot", ["a b", "c"]);
        assert_eq!(BotCommand::parse(&cmd.to_string()).unwrap(), cmd);
    }

    #[test]
    fn tail_keeps_last_lines() {
        let text: String = (0..50).map(|i| format!("line {i}\n")).collect();
        let tail = render_tail(text.as_bytes(), false);
        assert_eq!(tail.lines().count(), STDERR_TAIL_LINES);
        assert!(tail.starts_with("line 30\n"));
        assert!(tail.ends_with("line 49"));
        assert_eq!(render_tail(b"", false), "");
        assert_eq!(render_tail(b"oops\r\n", false), "oops");
    }

    #[test]
    fn tail_marks_a_cut_line() {
        let long = vec![b'x'; 3 * STDERR_TAIL_BYTES];
        let tail = render_tail(&long, false);
        assert!(tail.starts_with('…'));
        assert!(tail.len() <= STDERR_TAIL_BYTES + '…'.len_utf8());
        let tail = render_tail(b"rest of a line\nwhole\n", true);
        assert_eq!(tail, "…rest of a line\nwhole");
        let tail = render_tail(b"\nwhole\n", true);
        assert_eq!(tail, "whole");
    }

    #[test]
    fn tail_stays_bounded() {
        let tail = StderrTail::default();
        for _ in 0..10_000 {
            tail.push(&[b'e'; 999]);
        }
        assert!(tail.lock().bytes.len() <= 2 * STDERR_TAIL_BYTES);
    }

    #[test]
    fn statuses_read_well() {
        assert_eq!(
            describe_status(ExitStatus::from_raw(3 << 8)),
            "exited with code 3"
        );
        assert_eq!(
            describe_status(ExitStatus::from_raw(9)),
            "killed by signal 9 (SIGKILL)"
        );
        assert_eq!(
            describe_status(ExitStatus::from_raw(11 | 0x80)),
            "killed by signal 11 (SIGSEGV), core dumped"
        );
    }

    #[test]
    fn millis_round_up() {
        let now = Instant::now();
        assert_eq!(millis_until(now, now), 0);
        assert_eq!(millis_until(now, now + Duration::from_micros(1)), 1);
        assert_eq!(millis_until(now, now + Duration::from_millis(7)), 7);
        assert_eq!(millis_until(now + Duration::from_secs(1), now), 0);
    }

    fn sh(script: &str) -> BotProcess {
        BotProcess::spawn(&BotCommand::new("sh", ["-c", script])).unwrap()
    }

    fn soon(ms: u64) -> Instant {
        Instant::now() + Duration::from_millis(ms)
    }

    #[test]
    fn bot_process_can_move_between_threads() {
        fn send<T: Send>() {}
        send::<BotProcess>();
    }

    /// Without pidfds (before Linux 5.3) an exit is still noticed, by waking up now and then.
    #[test]
    fn exit_is_noticed_without_a_pidfd() {
        let mut bot = sh("sleep 1000 & echo ready; exit 5");
        bot.watch = Watch::new(bot.pid, None);
        assert_eq!(bot.read_line(soon(5000)).unwrap(), "ready");
        let start = Instant::now();
        let err = bot.read_line(soon(20_000)).unwrap_err();
        assert!(start.elapsed() < Duration::from_secs(5));
        match err {
            ProcessError::Closed { status } => assert_eq!(status.and_then(|s| s.code()), Some(5)),
            other => panic!("expected Closed, got {other:?}"),
        }
        bot.kill();
    }

    #[test]
    fn timeout_without_a_pidfd() {
        let mut bot = sh("exec sleep 1000");
        bot.watch = Watch::new(bot.pid, None);
        let start = Instant::now();
        assert!(matches!(
            bot.read_line(soon(120)),
            Err(ProcessError::Timeout)
        ));
        let took = start.elapsed();
        assert!(took >= Duration::from_millis(110) && took < Duration::from_secs(5));
        assert_eq!(
            bot.shutdown(Duration::ZERO).and_then(|s| s.signal()),
            Some(libc::SIGKILL)
        );
    }

    #[test]
    fn closing_stdout_while_running_is_closed_without_status() {
        let mut bot = sh("exec >&-; exec sleep 1000");
        let err = bot.read_line(soon(5000)).unwrap_err();
        assert!(
            matches!(err, ProcessError::Closed { status: None }),
            "{err:?}"
        );
        assert!(bot.is_running());
        assert_eq!(bot.fault(&err).kind, FaultKind::Crash);
        bot.kill();
        assert!(!bot.is_running());
    }

    /// A signal that is not the watchdog's (or comes early) interrupts the blocking read, which
    /// then reads on until its line comes.
    #[test]
    fn a_stray_signal_does_not_end_a_read() {
        let mut bot = sh("read x; sleep 0.3; echo late; exec sleep 1000");
        let (tell, reader) = std::sync::mpsc::channel();
        let signals = std::thread::spawn(move || {
            let tid: libc::pid_t = reader.recv().unwrap();
            for _ in 0..20 {
                std::thread::sleep(Duration::from_millis(10));
                // SAFETY: plain system call to a thread of this process that is still reading.
                unsafe { libc::syscall(libc::SYS_tgkill, libc::getpid(), tid, libc::SIGURG) };
            }
        });
        // SAFETY: plain system call.
        tell.send(unsafe { libc::gettid() }).unwrap();
        bot.send_line("go", soon(5000)).unwrap();
        assert_eq!(bot.read_line(soon(5000)).unwrap(), "late");
        signals.join().unwrap();
    }

    /// Reads blocked at the same time in several threads each end at their own deadline.
    #[test]
    fn each_blocked_read_ends_at_its_own_deadline() {
        let readers: Vec<_> = [150u64, 400, 50]
            .into_iter()
            .map(|ms| {
                std::thread::spawn(move || {
                    let mut bot = sh("exec sleep 1000");
                    let start = Instant::now();
                    let timed_out = matches!(bot.read_line(soon(ms)), Err(ProcessError::Timeout));
                    (ms, timed_out, start.elapsed())
                })
            })
            .collect();
        for reader in readers {
            let (ms, timed_out, took) = reader.join().unwrap();
            assert!(timed_out, "the read with {ms} ms timed out");
            let limit = Duration::from_millis(ms);
            assert!(
                took >= limit && took < limit + Duration::from_secs(2),
                "{ms} ms: took {took:?}"
            );
        }
    }

    #[test]
    fn a_past_deadline_still_takes_what_is_there() {
        let mut bot = sh("echo one; read x; echo two; exec sleep 1000");
        assert_eq!(bot.read_line(soon(5000)).unwrap(), "one");
        bot.send_line("go", soon(5000)).unwrap();
        // "two" is in the pipe by now, not yet read.
        std::thread::sleep(Duration::from_millis(300));
        let past = Instant::now() - Duration::from_millis(1);
        assert_eq!(bot.read_line(past).unwrap(), "two");
        assert!(matches!(bot.read_line(past), Err(ProcessError::Timeout)));
    }

    #[test]
    fn errors_map_to_faults() {
        let kinds = [
            (ProcessError::Timeout, FaultKind::Timeout, false),
            (ProcessError::WriteTimeout, FaultKind::Timeout, false),
            (
                ProcessError::Closed { status: None },
                FaultKind::Crash,
                false,
            ),
            (
                ProcessError::TooLong { limit: 4 },
                FaultKind::Protocol,
                true,
            ),
            (
                ProcessError::InvalidUtf8 {
                    line_bytes: vec![b'a', 0xff],
                },
                FaultKind::Protocol,
                true,
            ),
        ];
        for (err, kind, recoverable) in kinds {
            assert_eq!(err.fault_kind(), kind, "{err}");
            assert_eq!(err.recoverable(), recoverable, "{err}");
        }
        let err = ProcessError::InvalidUtf8 {
            line_bytes: vec![b'a', 0xff],
        };
        assert_eq!(
            err.to_string(),
            "line is not UTF-8 (bad byte at 1 of 2): a\\xff"
        );
    }
}

/// The `--log-io` logs of bots (their lines, their stderr): opened without following a link,
/// and the first write failure of each remembered, process-wide (the logs are written from the
/// jobs' threads and the stderr threads; the command reports them once, at its end).
pub mod logs {
    use std::fs::{File, OpenOptions};
    use std::io;
    use std::os::unix::fs::OpenOptionsExt;
    use std::path::{Path, PathBuf};
    use std::sync::Mutex;

    /// Each log that lost lines, with why (the first failure).
    static LOST: Mutex<Vec<(PathBuf, String)>> = Mutex::new(Vec::new());

    /// Creates the log at `path`, which must not exist yet (`O_EXCL`: a link there is refused
    /// too, even one to nowhere).
    pub fn create_new(path: &Path) -> io::Result<File> {
        OpenOptions::new().write(true).create_new(true).open(path)
    }

    /// Opens the log at `path` to append to it, created if missing; a symbolic link there is
    /// refused (`O_NOFOLLOW`), not followed.
    pub fn open_append(path: &Path) -> io::Result<File> {
        OpenOptions::new()
            .create(true)
            .append(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(path)
            .map_err(|e| match e.raw_os_error() {
                Some(libc::ELOOP) => {
                    io::Error::other("a symbolic link: take5 does not follow links for its logs")
                }
                _ => e,
            })
    }

    /// Refuses a log at `path` that is a symbolic link, or, unless `existing` is allowed, any
    /// file there: logs are not overwritten.
    pub fn refuse(path: &Path, existing: bool) -> Result<(), String> {
        match std::fs::symlink_metadata(path) {
            Err(_) => Ok(()),
            Ok(meta) if meta.file_type().is_symlink() => Err(format!(
                "{} is a symbolic link: take5 does not follow links for its logs",
                path.display()
            )),
            Ok(_) if existing => Ok(()),
            Ok(_) => Err(format!(
                "{} exists: take5 does not overwrite logs: give another --log-io folder, or remove it",
                path.display()
            )),
        }
    }

    /// Notes that the log at `path` could not be written (`error`), with a warning the first
    /// time: its lines end there.
    pub fn lost(path: &Path, error: &io::Error) {
        let mut lost = LOST.lock().unwrap_or_else(|p| p.into_inner());
        if lost.iter().any(|(p, _)| p == path) {
            return;
        }
        // The path holds a bot's name, from a file: shown safely.
        eprintln!(
            "take5: warning: cannot write {}: {error}; the log is cut short here",
            crate::visible::visible(&path.display().to_string())
        );
        lost.push((path.to_path_buf(), error.to_string()));
    }

    /// The logs that lost lines so far, each with why.
    pub fn lost_so_far() -> Vec<(PathBuf, String)> {
        LOST.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }
}

/// The process groups of the bots alive now, so that take5 stopped by a signal (Ctrl-C, a
/// `kill`) takes its bots with it: they run in their own groups, which the terminal's signal
/// does not reach, and a bot that ignores the end of its input would otherwise live on.
pub mod live_groups {
    use std::sync::atomic::{AtomicI32, Ordering};

    /// More bots than this at once are still killed by `Drop`, just not by a signal.
    const SLOTS: usize = 256;
    static GROUPS: [AtomicI32; SLOTS] = [const { AtomicI32::new(0) }; SLOTS];

    pub(super) fn add(pgid: i32) {
        for slot in &GROUPS {
            if slot
                .compare_exchange(0, pgid, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
            {
                return;
            }
        }
    }

    pub(super) fn remove(pgid: i32) {
        for slot in &GROUPS {
            if slot
                .compare_exchange(pgid, 0, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
            {
                return;
            }
        }
    }

    /// Kills every live bot group, then dies of `signal` as if unhandled. Only
    /// async-signal-safe calls: atomic loads, kill, signal, raise.
    extern "C" fn on_signal(signal: libc::c_int) {
        for slot in &GROUPS {
            let pgid = slot.load(Ordering::Acquire);
            if pgid > 1 {
                // SAFETY: plain system calls, allowed in a signal handler.
                unsafe { libc::kill(-pgid, libc::SIGKILL) };
            }
        }
        // SAFETY: as above; the default action then ends the process with this signal.
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
            libc::raise(signal);
        }
    }

    /// Installs the handler for SIGINT, SIGTERM and SIGHUP, and makes take5 adopt (and kill)
    /// what bots leave behind ([`crate::players::reaper::adopt_orphans`]): for a program whose
    /// only child processes are bots, as the take5 command is.
    pub fn kill_bots_on_signal() {
        crate::players::reaper::adopt_orphans();
        for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            // SAFETY: installs a handler that only makes async-signal-safe calls.
            unsafe { libc::signal(signal, on_signal as *const () as libc::sighandler_t) };
        }
    }
}
