//! Deadlines for blocking reads. A bot's reply is read with one plain blocking `read`, as in a
//! raw pipe ping-pong; a non-blocking read would cost a `poll` and often a `read` that finds
//! nothing besides (about 15% of a round trip's time on one core). What bounds the blocking read
//! is one watchdog thread for the whole process: every [`TICK`] it looks at the reads in
//! progress and interrupts, with a signal, each one whose deadline has passed or whose bot has
//! exited (a read stays blocked when a child the bot left behind holds its stdout open).
//!
//! Arming a read is two atomic stores, no system call. The signal's handler does nothing; it is
//! installed without `SA_RESTART`, so the interrupted `read` returns `EINTR` and its caller
//! looks at the clock and at [`Watch::bot_exited`]. A signal that comes just after the read it
//! was meant for has ended interrupts nothing, or makes some other system call of that thread
//! return `EINTR`, which the standard library and this crate retry.

use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// How often the watchdog looks: a read is interrupted at most this long after its deadline
/// (or its bot's exit).
pub const TICK: Duration = Duration::from_millis(5);

/// The signal that interrupts a read: ignored by default, so one that reaches a thread before
/// the handler is installed, or any thread of a program that never reads from a bot, does
/// nothing.
const WAKE_SIGNAL: libc::c_int = libc::SIGURG;

/// One bot process's entry with the watchdog. Dropping it takes the bot off the watch.
#[derive(Debug)]
pub struct Watch {
    slot: Arc<Slot>,
}

#[derive(Debug)]
struct Slot {
    pid: libc::pid_t,
    /// Readable once the bot has exited; `None` where pidfds are not available (before Linux
    /// 5.3): the watchdog then asks `waitid` while a read is armed.
    pidfd: Option<OwnedFd>,
    /// The kernel id of the thread blocked in (or about to enter) a read; 0 when none is.
    reader: AtomicI32,
    /// That read's deadline, in nanoseconds since [`epoch`].
    deadline: AtomicU64,
    /// Set by the watchdog once it has seen the bot exit.
    exited: AtomicBool,
}

/// A read in progress; dropping it disarms the watch.
pub struct Armed<'a> {
    slot: &'a Slot,
}

impl Drop for Armed<'_> {
    fn drop(&mut self) {
        self.slot.reader.store(0, Ordering::Release);
    }
}

impl Watch {
    /// Puts the bot `pid` under watch (its `pidfd`, if any, tells the watchdog it has exited).
    pub fn new(pid: libc::pid_t, pidfd: Option<OwnedFd>) -> Watch {
        let slot = Arc::new(Slot {
            pid,
            pidfd,
            reader: AtomicI32::new(0),
            deadline: AtomicU64::new(0),
            exited: AtomicBool::new(false),
        });
        let watchdog = watchdog();
        watchdog.lock().push(Arc::clone(&slot));
        watchdog.changed.notify_one();
        Watch { slot }
    }

    /// The bot's pidfd, if there is one.
    pub fn pidfd(&self) -> Option<RawFd> {
        self.slot.pidfd.as_ref().map(AsRawFd::as_raw_fd)
    }

    /// The calling thread is about to block reading from the bot: interrupt it once `deadline`
    /// has passed or the bot has exited, until the returned guard is dropped.
    pub fn arm(&self, deadline: Instant) -> Armed<'_> {
        self.slot.deadline.store(nanos(deadline), Ordering::Relaxed);
        // Release: the watchdog that sees the reader sees its deadline.
        self.slot
            .reader
            .store(THREAD_ID.with(|id| *id), Ordering::Release);
        Armed { slot: &self.slot }
    }

    /// Whether the watchdog has seen the bot exit (it looks only while a read is armed, or
    /// with a pidfd).
    pub fn bot_exited(&self) -> bool {
        self.slot.exited.load(Ordering::Acquire)
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        watchdog()
            .lock()
            .retain(|slot| !Arc::ptr_eq(slot, &self.slot));
    }
}

thread_local! {
    /// This thread's kernel id (asked once: `gettid` is a system call).
    static THREAD_ID: libc::pid_t = {
        // SAFETY: plain system call without arguments.
        unsafe { libc::gettid() }
    };
}

/// Where deadlines are counted from (any fixed instant of this process's life will do).
fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

/// `at` in nanoseconds since [`epoch`] (an instant before it counts as the epoch: past).
fn nanos(at: Instant) -> u64 {
    let since = at.saturating_duration_since(epoch()).as_nanos();
    u64::try_from(since).unwrap_or(u64::MAX)
}

/// The bots under watch, and the thread that watches them (started with the first).
struct Watchdog {
    slots: Mutex<Vec<Arc<Slot>>>,
    changed: Condvar,
}

impl Watchdog {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Arc<Slot>>> {
        // The list stays valid whatever panicked while holding it.
        self.slots.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn watchdog() -> &'static Watchdog {
    static WATCHDOG: OnceLock<Watchdog> = OnceLock::new();
    WATCHDOG.get_or_init(|| {
        epoch();
        install_wake_handler();
        std::thread::Builder::new()
            .name("bot-watchdog".into())
            .stack_size(64 * 1024)
            .spawn(|| watch_forever(watchdog()))
            .expect("the watchdog thread starts");
        Watchdog {
            slots: Mutex::new(Vec::new()),
            changed: Condvar::new(),
        }
    })
}

extern "C" fn on_wake(_: libc::c_int) {}

/// Installs the do-nothing handler, without `SA_RESTART`, so a blocked read returns `EINTR`.
fn install_wake_handler() {
    // SAFETY: a zeroed sigaction is valid (empty mask, no flags); the handler is async-signal
    // safe (it does nothing).
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_wake as *const () as libc::sighandler_t;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(WAKE_SIGNAL, &action, std::ptr::null_mut());
    }
}

/// The watchdog thread: sleeps a tick (waking at once when a bot with a pidfd exits), then
/// interrupts every armed read that is past its deadline or whose bot is gone.
fn watch_forever(watchdog: &Watchdog) -> ! {
    let mut watched: Vec<Arc<Slot>> = Vec::new();
    let mut fds: Vec<libc::pollfd> = Vec::new();
    let mut polled: Vec<usize> = Vec::new();
    loop {
        {
            let mut slots = watchdog.lock();
            while slots.is_empty() {
                watched.clear(); // let the last bot's pidfd close
                slots = watchdog
                    .changed
                    .wait(slots)
                    .unwrap_or_else(|e| e.into_inner());
            }
            watched.clone_from(&slots);
        }
        fds.clear();
        polled.clear();
        for (i, slot) in watched.iter().enumerate() {
            if let Some(pidfd) = &slot.pidfd
                && !slot.exited.load(Ordering::Relaxed)
            {
                fds.push(libc::pollfd {
                    fd: pidfd.as_raw_fd(),
                    events: libc::POLLIN,
                    revents: 0,
                });
                polled.push(i);
            }
        }
        let tick = TICK.as_millis() as libc::c_int;
        // SAFETY: `fds` is a valid array of `fds.len()` pollfd (poll with none just sleeps).
        let ready = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, tick) };
        if ready > 0 {
            for (fd, &i) in fds.iter().zip(&polled) {
                if fd.revents != 0 {
                    watched[i].exited.store(true, Ordering::Release);
                }
            }
        }
        let now = nanos(Instant::now());
        for slot in &watched {
            let reader = slot.reader.load(Ordering::Acquire);
            if reader == 0 {
                continue;
            }
            if slot.pidfd.is_none() && has_exited(slot.pid) {
                slot.exited.store(true, Ordering::Release);
            }
            if slot.exited.load(Ordering::Acquire) || now >= slot.deadline.load(Ordering::Relaxed) {
                // SAFETY: plain system call; `reader` is a thread of this process (if it has
                // ended since, the id names no thread of ours, or a new one that retries).
                unsafe {
                    libc::syscall(libc::SYS_tgkill, libc::getpid(), reader, WAKE_SIGNAL);
                }
            }
        }
    }
}

/// Whether child `pid` has exited, without reaping it.
fn has_exited(pid: libc::pid_t) -> bool {
    // SAFETY: an all-zero siginfo_t is valid; waitid only fills it in.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    let options = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
    // SAFETY: `info` is a valid siginfo_t to fill in.
    let r = unsafe { libc::waitid(libc::P_PID, pid as libc::id_t, &mut info, options) };
    // SAFETY: waitid filled `info` in (si_pid stays 0 when the child still runs).
    r < 0 || unsafe { info.si_pid() } != 0
}
