//! `--sandbox`: each bot process confined by the kernel, set up once per process start in the
//! child between fork and exec (docs/sandbox.md, "Running untrusted bots").
//!
//! - **Who**: a bot started by root runs as `nobody` (uid and gid 65534), so it owns none of
//!   the machine's files; each bot runs in a user namespace of its own (and its own network
//!   and IPC namespaces), so its processes are counted apart from every other process.
//! - **Files** (Landlock): read and run the system's folders, the bot's own folder and those
//!   given by `read=`; read and write a private temporary folder (its `TMPDIR` and `HOME`),
//!   removed when the process ends; nothing else. The mount table cannot be changed.
//! - **Network**: a fresh network namespace (nothing but a loopback that is down), Landlock's
//!   TCP rules, and a seccomp filter that refuses `socket` (of every family) and `io_uring`.
//! - **Others**: Landlock scoping (ABI 6) refuses signals and abstract unix sockets to any
//!   process outside the bot's own domain (take5, other bots), its ptrace rules and the seccomp
//!   filter refuse tracing and reading another process's memory; the kernel's keyrings are
//!   refused too. The process group and the cleanup are the unsandboxed bot's (`reaper`).
//! - **Resources** (rlimits): private memory (`RLIMIT_DATA`), processes and threads
//!   (`RLIMIT_NPROC`, counted within the bot's user namespace), open files, file size, CPU time
//!   of each process; no core dumps.
//!
//! The parent prepares everything that allocates (the Landlock ruleset, the seccomp program,
//! the id maps); the child ([`ChildSide::confine`]) only makes system calls. A kernel without
//! what is needed is refused before any bot starts ([`check`]), naming what is missing.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

/// The Landlock ABI the sandbox needs: files (1), TCP (4), signal and abstract socket scoping (6).
pub const LANDLOCK_ABI: i32 = 6;
/// Who a bot started by root runs as: `nobody`.
pub const NOBODY: libc::uid_t = 65534;

/// The limits of a sandboxed bot's processes, each a number the user may set (`KEY=VALUE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Private memory of each process (`RLIMIT_DATA`), in MiB.
    pub memory_mb: u64,
    /// Processes and threads of the bot together (`RLIMIT_NPROC`, in its user namespace).
    pub processes: u64,
    /// Open files of each process (`RLIMIT_NOFILE`).
    pub open_files: u64,
    /// The largest file a process may write (`RLIMIT_FSIZE`), in MiB.
    pub file_mb: u64,
    /// Processor time of each process over its life (`RLIMIT_CPU`), in seconds: a bot lives
    /// across the games of a match.
    pub cpu_seconds: u64,
}

impl Default for Limits {
    /// Limits suited to a contest: plenty for a bot that plays, little for one that attacks.
    fn default() -> Limits {
        Limits {
            memory_mb: 1024,
            processes: 64,
            open_files: 256,
            file_mb: 64,
            cpu_seconds: 3600,
        }
    }
}

impl Limits {
    /// The keys, in the order they are shown.
    pub const KEYS: [&'static str; 5] = [
        "memory_mb",
        "processes",
        "open_files",
        "file_mb",
        "cpu_seconds",
    ];

    fn slot(&mut self, key: &str) -> Option<&mut u64> {
        Some(match key {
            "memory_mb" => &mut self.memory_mb,
            "processes" => &mut self.processes,
            "open_files" => &mut self.open_files,
            "file_mb" => &mut self.file_mb,
            "cpu_seconds" => &mut self.cpu_seconds,
            _ => return None,
        })
    }

    /// Sets the limit `key` to `value` (at least 1).
    pub fn set(&mut self, key: &str, value: u64) -> Result<(), String> {
        let Some(slot) = self.slot(key) else {
            return Err(format!(
                "unknown sandbox setting `{key}` (known: {}, read)",
                Limits::KEYS.join(", ")
            ));
        };
        if value == 0 {
            return Err(format!("sandbox setting {key}: must be at least 1"));
        }
        *slot = value;
        Ok(())
    }

    /// The limits as `key=value` words.
    pub fn describe(&self) -> String {
        self.settings().join(" ")
    }

    /// Each limit as `key=value`, in the order of [`Limits::KEYS`].
    fn settings(&self) -> Vec<String> {
        let mut copy = *self;
        Limits::KEYS
            .iter()
            .map(|key| format!("{key}={}", copy.slot(key).map_or(0, |v| *v)))
            .collect()
    }
}

/// The sandbox of a bot, as the user sets it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sandbox {
    pub limits: Limits,
    /// Folders (or files) the bot may read besides the system's and its own (`read=`): a data
    /// folder, an interpreter installed in a home folder.
    pub read: Vec<PathBuf>,
}

impl Sandbox {
    /// Reads the settings of `--sandbox=KEY=VALUE,...` (empty: the defaults): the limits of
    /// [`Limits::KEYS`] and `read=PATH` (repeatable; or several paths joined with `:`).
    pub fn parse(text: &str) -> Result<Sandbox, String> {
        let mut sandbox = Sandbox::default();
        for setting in text.split(',').filter(|s| !s.is_empty()) {
            let Some((key, value)) = setting.split_once('=') else {
                return Err(format!(
                    "sandbox setting `{setting}` is not KEY=VALUE (e.g. memory_mb=512, read=data)"
                ));
            };
            if key == "read" {
                sandbox.read.extend(
                    value
                        .split(':')
                        .filter(|p| !p.is_empty())
                        .map(PathBuf::from),
                );
                continue;
            }
            let number = value
                .parse()
                .map_err(|_| format!("sandbox setting {key}: `{value}` is not a whole number"))?;
            sandbox.limits.set(key, number)?;
        }
        Ok(sandbox)
    }

    /// The settings as `--sandbox=SETTINGS` writes them, which [`Sandbox::parse`] reads back:
    /// every limit written out (a replay holds the bot to the same limits whatever a later
    /// take5's defaults), then `read=` with the paths joined by `:`. `Err` for a path that
    /// cannot be written so (a `,` or `:` in it, or not UTF-8).
    pub fn settings(&self) -> Result<String, String> {
        let mut words = self.limits.settings();
        if !self.read.is_empty() {
            let mut paths = Vec::new();
            for path in &self.read {
                match path.to_str() {
                    Some(text) if !text.contains([',', ':']) => paths.push(text),
                    _ => {
                        return Err(format!(
                            "the sandbox's read path {} cannot be written in --sandbox's \
                             settings (a `,` or `:` in it, or not UTF-8)",
                            path.display()
                        ));
                    }
                }
            }
            words.push(format!("read={}", paths.join(":")));
        }
        Ok(words.join(","))
    }

    /// The bot's folders and the system's, with the private folder `scratch`, as Landlock
    /// rules; the program's folder, and the folder of each argument that names a file, are the
    /// bot's own (relative to `dir`, where it starts).
    fn readable(&self, program: &str, args: &[String], dir: Option<&Path>) -> Vec<PathBuf> {
        let here = |p: &Path| match dir {
            Some(dir) => dir.join(p),
            None => p.to_path_buf(),
        };
        let mut paths: Vec<PathBuf> = SYSTEM_READ.iter().map(PathBuf::from).collect();
        paths.extend(dir.map(Path::to_path_buf));
        if program.contains('/') {
            paths.extend(here(Path::new(program)).parent().map(Path::to_path_buf));
        }
        for arg in args {
            let path = here(Path::new(arg));
            if path.is_file() {
                paths.extend(path.parent().map(Path::to_path_buf));
            }
        }
        paths.extend(self.read.iter().map(|p| here(p)));
        paths
    }
}

/// What every program may read and run: the system's programs, libraries and settings, and
/// the process's own view of itself.
const SYSTEM_READ: [&str; 12] = [
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/opt",
    "/etc",
    "/proc",
    "/sys/devices/system/cpu",
    "/dev/urandom",
];

/// Devices a program may read and write as files.
const DEVICES: [&str; 4] = ["/dev/null", "/dev/zero", "/dev/full", "/dev/random"];

/// A bot's private temporary folder: created for one process, removed (with whatever the bot
/// left in it) when dropped, after the process and all it started are gone.
#[derive(Debug)]
pub struct Scratch {
    path: PathBuf,
}

impl Scratch {
    fn create(owner: Option<libc::uid_t>) -> io::Result<Scratch> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let name = format!(
            "take5-sandbox-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let path = std::env::temp_dir().join(name);
        use std::os::unix::fs::DirBuilderExt;
        std::fs::DirBuilder::new().mode(0o700).create(&path)?;
        let scratch = Scratch { path };
        if let Some(uid) = owner {
            std::os::unix::fs::chown(&scratch.path, Some(uid), Some(uid))?;
        }
        Ok(scratch)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        // std's remove_dir_all does not follow links the bot may have left.
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// The steps of the confinement, each the kernel feature it needs (named when it fails).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Nobody = 1,
    Namespaces,
    IdMaps,
    Limits,
    Landlock,
    Seccomp,
}

impl Step {
    const ALL: [Step; 6] = [
        Step::Nobody,
        Step::Namespaces,
        Step::IdMaps,
        Step::Limits,
        Step::Landlock,
        Step::Seccomp,
    ];

    /// What the step needs of the kernel, for a person.
    pub fn needs(self) -> &'static str {
        match self {
            Step::Nobody => "switching a bot started by root to the user nobody (65534)",
            Step::Namespaces => {
                "user, network and IPC namespaces for an unprivileged process \
                 (kernel.unprivileged_userns_clone, user.max_user_namespaces, or an AppArmor \
                 policy may forbid them)"
            }
            Step::IdMaps => "mapping the bot's own user and group ids in its user namespace",
            Step::Limits => "resource limits (setrlimit)",
            Step::Landlock => "Landlock ABI 6 or later (Linux 6.12, Landlock enabled at boot)",
            Step::Seccomp => "seccomp filters (CONFIG_SECCOMP_FILTER)",
        }
    }
}

/// Everything the child needs, prepared by the parent: plain numbers and buffers, nothing the
/// child must allocate.
struct ChildSide {
    /// Root starts bots as nobody.
    drop_to: Option<libc::uid_t>,
    uid_map: Line,
    gid_map: Line,
    limits: [(libc::__rlimit_resource_t, u64, u64); 6],
    /// Taken (and so closed) by the confinement.
    ruleset: Option<landlock::RulesetCreated>,
    filter: seccompiler::BpfProgram,
}

/// A short line of text in a fixed buffer.
struct Line {
    bytes: [u8; 48],
    len: usize,
}

impl Line {
    fn new(text: &str) -> Line {
        let mut bytes = [0; 48];
        bytes[..text.len()].copy_from_slice(text.as_bytes());
        Line {
            bytes,
            len: text.len(),
        }
    }
}

impl ChildSide {
    /// The child's side of `sandbox`, with its Landlock `ruleset` (`None`: the confinement
    /// fails at the Landlock step, as the probe of a kernel without it wants).
    fn prepare(
        sandbox: &Sandbox,
        ruleset: Option<landlock::RulesetCreated>,
    ) -> Result<ChildSide, String> {
        // SAFETY: plain system calls without arguments.
        let (euid, egid) = unsafe { (libc::geteuid(), libc::getegid()) };
        let drop_to = (euid == 0).then_some(NOBODY);
        let (uid, gid) = drop_to.map_or((euid, egid), |n| (n, n));
        let l = sandbox.limits;
        let mib = |n: u64| n.saturating_mul(1 << 20);
        Ok(ChildSide {
            drop_to,
            uid_map: Line::new(&format!("{uid} {uid} 1\n")),
            gid_map: Line::new(&format!("{gid} {gid} 1\n")),
            limits: [
                (libc::RLIMIT_DATA, mib(l.memory_mb), mib(l.memory_mb)),
                (libc::RLIMIT_NPROC, l.processes, l.processes),
                (libc::RLIMIT_NOFILE, l.open_files, l.open_files),
                (libc::RLIMIT_FSIZE, mib(l.file_mb), mib(l.file_mb)),
                // SIGXCPU at the limit, SIGKILL a second later for a bot that ignores it.
                (
                    libc::RLIMIT_CPU,
                    l.cpu_seconds,
                    l.cpu_seconds.saturating_add(1),
                ),
                (libc::RLIMIT_CORE, 0, 0),
            ],
            ruleset,
            filter: filter()?,
        })
    }

    /// Confines the calling process: only system calls, nothing allocated (it runs in the
    /// child of a fork of a program with threads). The step that failed, with its errno.
    fn confine(&mut self) -> Result<(), (Step, i32)> {
        let errno = || {
            io::Error::last_os_error()
                .raw_os_error()
                .unwrap_or(libc::EPERM)
        };
        // SAFETY (all blocks below): plain system calls on valid arguments: C string literals,
        // buffers that live in `self`, null pointers where the call allows them.
        if let Some(id) = self.drop_to {
            let failed = unsafe {
                libc::setgroups(0, std::ptr::null()) != 0
                    || libc::setresgid(id, id, id) != 0
                    || libc::setresuid(id, id, id) != 0
                    // Changing the user made the process undumpable, which would leave its
                    // /proc files (the id maps below) to root.
                    || libc::prctl(libc::PR_SET_DUMPABLE, 1, 0, 0, 0) != 0
            };
            if failed {
                return Err((Step::Nobody, errno()));
            }
        }
        let flags = libc::CLONE_NEWUSER | libc::CLONE_NEWNET | libc::CLONE_NEWIPC;
        if unsafe { libc::unshare(flags) } != 0 {
            return Err((Step::Namespaces, errno()));
        }
        let maps: [(&std::ffi::CStr, &[u8]); 3] = [
            (c"/proc/self/setgroups", b"deny"),
            (
                c"/proc/self/uid_map",
                &self.uid_map.bytes[..self.uid_map.len],
            ),
            (
                c"/proc/self/gid_map",
                &self.gid_map.bytes[..self.gid_map.len],
            ),
        ];
        for (path, text) in maps {
            let fd = unsafe { libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC) };
            if fd < 0 {
                return Err((Step::IdMaps, errno()));
            }
            let written = unsafe { libc::write(fd, text.as_ptr().cast(), text.len()) };
            let e = errno();
            unsafe { libc::close(fd) };
            if written != text.len() as isize {
                return Err((Step::IdMaps, e));
            }
        }
        for (resource, soft, hard) in self.limits {
            let limit = libc::rlimit {
                rlim_cur: soft,
                rlim_max: hard,
            };
            if unsafe { libc::setrlimit(resource, &limit) } != 0 {
                return Err((Step::Limits, errno()));
            }
        }
        let Some(ruleset) = self.ruleset.take() else {
            return Err((Step::Landlock, libc::EBADF));
        };
        // Sets no_new_privs too: no set-user-id program can lift the bot out of its sandbox.
        match ruleset.restrict_self() {
            Ok(status) if status.ruleset == landlock::RulesetStatus::FullyEnforced => {}
            _ => return Err((Step::Landlock, libc::EPERM)),
        }
        let program = libc::sock_fprog {
            len: self.filter.len() as libc::c_ushort,
            filter: self.filter.as_ptr() as *mut libc::sock_filter,
        };
        // SPEC_ALLOW: the filter does not switch on the kernel's mitigation of speculative
        // store bypass for the bot, which would slow every process it runs (side channels are
        // not what the sandbox guards against, docs/sandbox.md).
        const SET_MODE_FILTER: libc::c_ulong = 1;
        const FLAG_SPEC_ALLOW: libc::c_ulong = 4;
        let applied = unsafe {
            libc::syscall(
                libc::SYS_seccomp,
                SET_MODE_FILTER,
                FLAG_SPEC_ALLOW,
                &raw const program,
            )
        };
        if applied != 0 {
            return Err((Step::Seccomp, errno()));
        }
        Ok(())
    }
}

/// The Landlock ruleset: `readable` paths to read and run, `scratch` to read and write; no
/// TCP; signals and abstract unix sockets scoped to the bot's own domain.
fn ruleset(
    readable: &[PathBuf],
    scratch: Option<&Path>,
) -> Result<landlock::RulesetCreated, String> {
    use landlock::{
        ABI, Access, AccessFs, AccessNet, CompatLevel, Compatible, PathBeneath, PathFd, Ruleset,
        RulesetAttr, RulesetCreatedAttr, Scope,
    };
    let abi = ABI::V6;
    // The crate's error lists access rights; what a person needs is the kernel's ABI.
    let landlock = |e: &dyn std::fmt::Display| match landlock_abi() {
        0 => "this kernel has no Landlock".to_string(),
        old if old < LANDLOCK_ABI => format!("this kernel's Landlock is ABI {old}"),
        _ => format!("Landlock: {e}"),
    };
    let mut ruleset = Ruleset::default()
        .set_compatibility(CompatLevel::HardRequirement)
        .handle_access(AccessFs::from_all(abi))
        .and_then(|r| r.handle_access(AccessNet::from_all(abi)))
        .and_then(|r| r.scope(Scope::from_all(abi)))
        .and_then(|r| r.create())
        .map_err(|e| landlock(&e))?;
    let read = AccessFs::from_read(abi);
    let device = AccessFs::ReadFile | AccessFs::WriteFile | AccessFs::Truncate | AccessFs::IoctlDev;
    let mut rules: Vec<(&Path, _)> = Vec::new();
    for path in readable {
        rules.push((path.as_path(), read));
    }
    for device_path in DEVICES {
        rules.push((Path::new(device_path), device));
    }
    if let Some(scratch) = scratch {
        rules.push((scratch, AccessFs::from_all(abi)));
    }
    for (path, access) in rules {
        // The system's folders a machine does not have are skipped; a folder given by the
        // user was checked when the bot was set up.
        let Ok(fd) = PathFd::new(path) else { continue };
        let access = if path.is_dir() {
            access
        } else {
            access & AccessFs::from_file(abi)
        };
        ruleset = ruleset
            .add_rule(PathBeneath::new(fd, access))
            .map_err(|e| landlock(&e))?;
    }
    Ok(ruleset)
}

/// The seccomp program: `socket` of any family, `io_uring` (which opens sockets without
/// `socket`), tracing, another process's memory and the kernel's keyrings refused with EPERM.
fn filter() -> Result<seccompiler::BpfProgram, String> {
    use seccompiler::{SeccompAction, SeccompFilter, TargetArch};
    let refused = [
        libc::SYS_socket,
        libc::SYS_io_uring_setup,
        libc::SYS_ptrace,
        libc::SYS_process_vm_readv,
        libc::SYS_process_vm_writev,
        libc::SYS_keyctl,
        libc::SYS_add_key,
        libc::SYS_request_key,
    ];
    let arch: TargetArch = std::env::consts::ARCH
        .try_into()
        .map_err(|e| format!("--sandbox: {e}"))?;
    let filter = SeccompFilter::new(
        refused.into_iter().map(|n| (n, Vec::new())).collect(),
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        arch,
    )
    .map_err(|e| format!("--sandbox: the seccomp filter: {e}"))?;
    filter
        .try_into()
        .map_err(|e: seccompiler::BackendError| format!("--sandbox: the seccomp filter: {e}"))
}

/// A bot's confinement, ready for its fork: what the parent keeps (its private folder, its
/// limits, for naming the one a fault hit) and what the child applies.
pub struct Prepared {
    pub scratch: Scratch,
    pub limits: Limits,
    /// Moved into the command by [`Prepared::apply`].
    child: Option<ChildSide>,
}

impl Prepared {
    /// Prepares the sandbox of the bot `program args`, started in `dir`.
    pub fn new(
        sandbox: &Sandbox,
        program: &str,
        args: &[String],
        dir: Option<&Path>,
    ) -> io::Result<Prepared> {
        check().map_err(io::Error::other)?;
        for path in &sandbox.read {
            let path = match dir {
                Some(dir) => dir.join(path),
                None => path.clone(),
            };
            if !path.exists() {
                return Err(io::Error::other(format!(
                    "the sandbox's read path {} does not exist",
                    path.display()
                )));
            }
        }
        // SAFETY: plain system call.
        let owner = (unsafe { libc::geteuid() } == 0).then_some(NOBODY);
        let scratch = Scratch::create(owner)?;
        let readable = sandbox.readable(program, args, dir);
        let ruleset = ruleset(&readable, Some(scratch.path()))
            .map_err(|e| io::Error::other(format!("--sandbox: {e}")))?;
        let child = ChildSide::prepare(sandbox, Some(ruleset)).map_err(io::Error::other)?;
        Ok(Prepared {
            scratch,
            limits: sandbox.limits,
            child: Some(child),
        })
    }

    /// Sets `command` up to confine its process in the child: the private folder as its
    /// `TMPDIR` and `HOME`, and the confinement as the first step after the fork.
    pub fn apply(&mut self, command: &mut std::process::Command) {
        command
            .env("TMPDIR", self.scratch.path())
            .env("HOME", self.scratch.path());
        let Some(mut child) = self.child.take() else {
            return;
        };
        use std::os::unix::process::CommandExt;
        // SAFETY: the closure only makes system calls (ChildSide::confine) and builds an
        // io::Error from a number, allocating nothing.
        unsafe {
            command.pre_exec(move || {
                child
                    .confine()
                    .map_err(|(_, errno)| io::Error::from_raw_os_error(errno))
            });
        }
    }
}

/// What this machine offers the sandbox, as `take5 sandbox-check` tells it.
#[derive(Clone, Debug)]
pub struct Support {
    /// The Landlock ABI of the kernel (0: none).
    pub landlock_abi: i32,
    /// Whether take5 runs as root (bots then run as nobody).
    pub root: bool,
    /// Each step of the confinement, tried in a child process: `Err(why)` for the first that
    /// failed (the steps after it were not tried).
    pub steps: Vec<(Step, Result<(), String>)>,
}

impl Support {
    /// Whether `--sandbox` works here.
    pub fn works(&self) -> bool {
        self.steps.iter().all(|(_, r)| r.is_ok())
    }
}

/// The kernel's Landlock ABI version, 0 without Landlock.
pub fn landlock_abi() -> i32 {
    const VERSION: u32 = 1; // LANDLOCK_CREATE_RULESET_VERSION
    // SAFETY: plain system call; with this flag it reads no attribute.
    let abi = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            VERSION,
        )
    };
    abi.max(0) as i32
}

/// Tries the whole confinement in a child process that then exits: what works here.
pub fn probe() -> Support {
    let abi = landlock_abi();
    // SAFETY: plain system call.
    let root = unsafe { libc::geteuid() } == 0;
    let mut steps = Vec::new();
    let readable: Vec<PathBuf> = SYSTEM_READ.iter().map(PathBuf::from).collect();
    // Without a ruleset the steps before Landlock's are still tried, and its failure told.
    let (ruleset, no_ruleset) = match ruleset(&readable, None) {
        Ok(ruleset) => (Some(ruleset), None),
        Err(why) => (None, Some(why)),
    };
    let mut child = match ChildSide::prepare(&Sandbox::default(), ruleset) {
        Ok(child) => child,
        Err(why) => {
            steps.push((Step::Seccomp, Err(why)));
            return Support {
                landlock_abi: abi,
                root,
                steps,
            };
        }
    };
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        steps.push((Step::Nobody, Err("no pipe for the probe".to_string())));
        return Support {
            landlock_abi: abi,
            root,
            steps,
        };
    }
    // SAFETY: the child only makes system calls (ChildSide::confine, write) and exits at once.
    let pid = unsafe { libc::fork() };
    if pid == 0 {
        let report: [i32; 2] = match child.confine() {
            Ok(()) => [0, 0],
            Err((step, errno)) => [step as i32, errno],
        };
        // SAFETY: writes the 8 bytes of `report` to the pipe, then ends the child without
        // running anything of the parent's.
        unsafe {
            libc::write(fds[1], report.as_ptr().cast(), 8);
            libc::_exit(0);
        }
    }
    // SAFETY: closes the writing end we own; reads 8 bytes into `report`; waits for the child
    // just forked.
    let mut report = [0i32; 2];
    let read = unsafe {
        libc::close(fds[1]);
        let n = libc::read(fds[0], report.as_mut_ptr().cast(), 8);
        libc::close(fds[0]);
        if pid > 0 {
            libc::waitpid(pid, std::ptr::null_mut(), 0);
        }
        n
    };
    let failed = if read != 8 {
        Some((Step::Nobody, "the probe did not report".to_string()))
    } else if report[0] == 0 {
        None
    } else {
        let step = Step::ALL
            .into_iter()
            .find(|s| *s as i32 == report[0])
            .unwrap_or(Step::Nobody);
        let why = match (step, &no_ruleset) {
            (Step::Landlock, Some(why)) => why.clone(),
            _ => io::Error::from_raw_os_error(report[1]).to_string(),
        };
        Some((step, why))
    };
    for step in Step::ALL {
        if step == Step::Nobody && !root {
            continue;
        }
        match &failed {
            Some((bad, why)) if *bad == step => {
                steps.push((step, Err(why.clone())));
                break;
            }
            _ => steps.push((step, Ok(()))),
        }
    }
    Support {
        landlock_abi: abi,
        root,
        steps,
    }
}

/// Checks once that the sandbox works here: the message names what the kernel lacks.
pub fn check() -> Result<(), String> {
    static CHECKED: OnceLock<Result<(), String>> = OnceLock::new();
    CHECKED
        .get_or_init(|| {
            let support = probe();
            match support.steps.iter().find(|(_, r)| r.is_err()) {
                None => Ok(()),
                Some((step, Err(why))) => Err(format!(
                    "--sandbox cannot confine bots on this machine: it needs {}; here: {why}. \
                     `take5 sandbox-check` tells what this machine supports",
                    step.needs()
                )),
                Some(_) => unreachable!("found an error"),
            }
        })
        .clone()
}

/// The limit a sandboxed process that ended so (killed by `signal`, with `stderr`'s last
/// lines) most likely hit, as a phrase for its fault; `None` if nothing points to one.
pub fn limit_hit(limits: &Limits, signal: Option<i32>, stderr: &str) -> Option<String> {
    match signal {
        Some(libc::SIGXCPU) => {
            return Some(format!(
                "it used up the sandbox's processor time (cpu_seconds={})",
                limits.cpu_seconds
            ));
        }
        Some(libc::SIGXFSZ) => {
            return Some(format!(
                "it wrote past the sandbox's largest file (file_mb={})",
                limits.file_mb
            ));
        }
        _ => {}
    }
    const OUT_OF_MEMORY: [&str; 5] = [
        "MemoryError",
        "out of memory",
        "Cannot allocate memory",
        "bad_alloc",
        "memory allocation of",
    ];
    OUT_OF_MEMORY
        .iter()
        .any(|words| stderr.contains(words))
        .then(|| {
            format!(
                "its stderr says it ran out of memory: the sandbox's memory limit (memory_mb={})",
                limits.memory_mb
            )
        })
}
