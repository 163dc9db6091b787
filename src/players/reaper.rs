//! Bot processes and everything they start, tied to take5's life, without cgroups:
//!
//! - Every bot is started by one long-lived thread ([`spawn`]), with `PR_SET_PDEATHSIG` set to
//!   `SIGKILL` in the child: the kernel kills the bot when the *thread* that forked it ends, so
//!   that thread must live as long as take5 does. After SIGKILL of take5 its bots die at once.
//! - Every bot is a child subreaper (`PR_SET_CHILD_SUBREAPER`, kept across `execve`): what it
//!   starts stays below it in the process tree while it runs, even a daemon that calls `setsid`
//!   and forks twice, which leaves the bot's process group.
//! - [`end`] kills the bot's group and every process below the bot (found in `/proc`), then
//!   reaps the bot and whatever of it was handed to take5.
//! - With [`adopt_orphans`] (the take5 program; a library user whose only children are bots may
//!   call it too), take5 is a subreaper as well: what a bot left behind when it exited by itself
//!   is handed to take5 instead of to init, and each [`end`] kills and reaps such orphans too.
//!   So no process outlives the game that started it, and none piles up over many games.
//!
//! What cannot be done without cgroups or a PID namespace: after SIGKILL of take5, the processes
//! a bot started are not killed with it (only the bot itself is), and a process started in the
//! instant between the scan of `/proc` and the kill can escape when take5 does not adopt orphans.

use std::collections::HashSet;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, ExitStatus};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock, mpsc};
use std::time::{Duration, Instant};

/// How long [`end`] waits for the killed processes to be gone (SIGKILL is not instant for a
/// process blocked in the kernel); after it, they are left to the kernel.
const END_WAIT: Duration = Duration::from_secs(2);
/// How many times [`end`] looks again for processes started while it was killing.
const KILL_ROUNDS: usize = 8;

/// The bots alive now (their pids), so that [`end`] never takes another bot for an orphan.
/// Held while a bot is started and registered, and while [`end`] looks and kills.
fn leaders() -> MutexGuard<'static, HashSet<libc::pid_t>> {
    static LEADERS: OnceLock<Mutex<HashSet<libc::pid_t>>> = OnceLock::new();
    LEADERS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner())
}

/// Whether take5 adopts what bots leave behind ([`adopt_orphans`]).
static ADOPTING: AtomicBool = AtomicBool::new(false);

/// Makes take5 a child subreaper, so that processes bots leave behind are handed to take5 and
/// killed by the next [`end`]. Only for a program whose only child processes are bots: every
/// child of take5 that is not a bot, and not in take5's own process group, counts as left
/// behind by one.
pub fn adopt_orphans() {
    // SAFETY: plain system call on this process.
    if unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) } == 0 {
        ADOPTING.store(true, Ordering::Release);
    }
}

type Request = (Command, mpsc::SyncSender<io::Result<Child>>);

/// Starts `command` (already set up with its pipes and process group) from the spawning
/// thread, as a subreaper that dies with take5, and registers it as a bot.
pub(super) fn spawn(mut command: Command) -> io::Result<Child> {
    // SAFETY: plain system call.
    let parent = unsafe { libc::getpid() };
    // SAFETY: the closure runs in the forked child before exec and makes only
    // async-signal-safe system calls (prctl, getppid), allocating nothing.
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) != 0
                || libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0
            {
                return Err(io::Error::last_os_error());
            }
            // take5 died before the death signal was set: it will never come.
            if libc::getppid() != parent {
                return Err(io::Error::other("take5 ended while the bot started"));
            }
            Ok(())
        })
    };
    let (reply, answer) = mpsc::sync_channel(1);
    spawner()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .send((command, reply))
        .map_err(|_| io::Error::other("the bot-spawning thread is gone"))?;
    answer
        .recv()
        .map_err(|_| io::Error::other("the bot-spawning thread is gone"))?
}

/// The thread that starts every bot: it lives as long as take5 (the bots' death signal comes
/// when it ends).
fn spawner() -> &'static Mutex<mpsc::Sender<Request>> {
    static SPAWNER: OnceLock<Mutex<mpsc::Sender<Request>>> = OnceLock::new();
    SPAWNER.get_or_init(|| {
        let (send, requests) = mpsc::channel::<Request>();
        std::thread::Builder::new()
            .name("bot-spawner".into())
            .stack_size(256 * 1024)
            .spawn(move || {
                for (mut command, reply) in requests {
                    let mut leaders = leaders();
                    let child = command.spawn();
                    if let Ok(child) = &child {
                        leaders.insert(child.id() as libc::pid_t);
                    }
                    drop(leaders);
                    let _ = reply.send(child);
                }
            })
            .expect("the bot-spawning thread starts");
        Mutex::new(send)
    })
}

/// Kills bot `child` (pid `pid`, also its process group), its group and every process below
/// it, and what bots left behind (when adopting); reaps them; returns the bot's exit status.
pub(super) fn end(pid: libc::pid_t, child: &mut Child) -> Option<ExitStatus> {
    let mut leaders = leaders();
    let killed = kill_below(pid, &leaders);
    let status = child.wait().ok();
    leaders.remove(&pid);
    drop(leaders);
    reap(killed);
    status
}

/// A process killed by [`end`], and its pidfd (if pidfds are available).
struct Killed {
    pid: libc::pid_t,
    pidfd: Option<OwnedFd>,
}

/// Kills bot `pid`, its group and the processes below it, and (when adopting) the orphans.
fn kill_below(pid: libc::pid_t, leaders: &HashSet<libc::pid_t>) -> Vec<Killed> {
    let adopting = ADOPTING.load(Ordering::Acquire);
    // SAFETY: plain system calls.
    let (me, my_group) = unsafe { (libc::getpid(), libc::getpgrp()) };
    let mut seen: HashSet<libc::pid_t> = HashSet::from([pid]);
    let mut killed = Vec::new();
    for round in 0..KILL_ROUNDS {
        let table = processes();
        let mut roots = vec![pid];
        if adopting {
            roots.extend(table.iter().filter_map(|p| {
                (p.ppid == me && p.pgid != my_group && !leaders.contains(&p.pid)).then_some(p.pid)
            }));
        }
        let new: Vec<libc::pid_t> = below(&table, &roots)
            .into_iter()
            .filter(|p| seen.insert(*p))
            .collect();
        if round == 0 && pid > 1 {
            // The leader is not reaped yet, so its pid still names its group.
            // SAFETY: plain system call; a negative pid names the bot's process group.
            unsafe { libc::kill(-pid, libc::SIGKILL) };
        }
        if new.is_empty() && round > 0 {
            break;
        }
        for pid in new {
            let pidfd = pidfd_open(pid);
            send_kill(pid, pidfd.as_ref());
            killed.push(Killed { pid, pidfd });
        }
    }
    killed
}

/// Waits (a little) for the killed processes to end, and reaps those that are take5's now.
fn reap(killed: Vec<Killed>) {
    let until = Instant::now() + END_WAIT;
    for process in killed {
        let Some(pidfd) = process.pidfd else {
            // No pidfds: reap it only if it is ours already; the pid could be reused otherwise.
            let mut status = 0;
            // SAFETY: plain system call.
            unsafe { libc::waitpid(process.pid, &mut status, libc::WNOHANG) };
            continue;
        };
        let mut fds = [libc::pollfd {
            fd: pidfd.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        }];
        let left = until.saturating_duration_since(Instant::now());
        // SAFETY: `fds` is a valid array of one pollfd.
        unsafe { libc::poll(fds.as_mut_ptr(), 1, left.as_millis() as libc::c_int) };
        // SAFETY: an all-zero siginfo_t is valid; waitid only fills it in. Reaps the process
        // the pidfd names if it has been handed to take5 (ECHILD otherwise).
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            libc::waitid(
                libc::P_PIDFD,
                pidfd.as_raw_fd() as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOHANG,
            );
        }
    }
}

fn send_kill(pid: libc::pid_t, pidfd: Option<&OwnedFd>) {
    if let Some(pidfd) = pidfd {
        // SAFETY: plain system call on a pidfd we own.
        let r = unsafe {
            libc::syscall(
                libc::SYS_pidfd_send_signal,
                pidfd.as_raw_fd(),
                libc::SIGKILL,
                std::ptr::null::<libc::siginfo_t>(),
                0,
            )
        };
        if r == 0 {
            return;
        }
    }
    // SAFETY: plain system call.
    unsafe { libc::kill(pid, libc::SIGKILL) };
}

fn pidfd_open(pid: libc::pid_t) -> Option<OwnedFd> {
    // SAFETY: plain system call; on success it returns a new file descriptor that we own.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    // SAFETY: `fd` is a fresh descriptor owned by nobody else (and close-on-exec).
    (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd as RawFd) })
}

/// One line of the process table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Process {
    pid: libc::pid_t,
    ppid: libc::pid_t,
    pgid: libc::pid_t,
}

/// The processes of the system, from `/proc` (those that end meanwhile are left out).
fn processes() -> Vec<Process> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|entry| {
            let pid = entry.ok()?.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read(format!("/proc/{pid}/stat")).ok()?;
            parse_stat(pid, &stat)
        })
        .collect()
}

/// Parses `/proc/PID/stat`: "pid (comm) state ppid pgrp ..."; the name may hold spaces and
/// parentheses, so the fields are counted from its last `)`.
fn parse_stat(pid: libc::pid_t, stat: &[u8]) -> Option<Process> {
    let close = stat.iter().rposition(|&b| b == b')')?;
    let rest = std::str::from_utf8(&stat[close + 1..]).ok()?;
    let mut fields = rest.split_ascii_whitespace().skip(1);
    let ppid = fields.next()?.parse().ok()?;
    let pgid = fields.next()?.parse().ok()?;
    Some(Process { pid, ppid, pgid })
}

/// Every process below `roots` in `table` (the roots themselves too, and their groups' members
/// that are below take5's bots anyway are found through their parents).
fn below(table: &[Process], roots: &[libc::pid_t]) -> Vec<libc::pid_t> {
    let mut found: Vec<libc::pid_t> = roots.to_vec();
    let mut i = 0;
    while i < found.len() {
        let parent = found[i];
        for p in table {
            if p.ppid == parent && !found.contains(&p.pid) {
                found.push(p.pid);
            }
        }
        i += 1;
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_lines_parse_whatever_the_name() {
        let stat = b"4242 (a) b) c) S 17 4242 4242 0 -1 4194560 98 0 0 0";
        assert_eq!(
            parse_stat(4242, stat),
            Some(Process {
                pid: 4242,
                ppid: 17,
                pgid: 4242
            })
        );
        assert_eq!(parse_stat(1, b"garbage"), None);
    }

    #[test]
    fn below_finds_the_whole_subtree() {
        let p = |pid, ppid| Process {
            pid,
            ppid,
            pgid: pid,
        };
        let table = [
            p(10, 1),
            p(11, 10),
            p(12, 11),
            p(13, 1),
            p(14, 12),
            p(15, 13),
        ];
        let mut found = below(&table, &[10]);
        found.sort();
        assert_eq!(found, [10, 11, 12, 14]);
    }
}
