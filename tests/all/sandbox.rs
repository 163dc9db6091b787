//! `--sandbox` against hostile bots (tests/bots/hostile.py, docs/sandbox.md). Each attack is
//! made once with `--sandbox` and once without it, in a real `take5 play` whose other seat is a
//! built-in bot:
//!
//! - sandboxed, every attack is refused (a harmless failure inside the bot, or a fault naming
//!   the limit it hit), the game is played on, the record verifies, and the machine is as it
//!   was: the secret unread, the files intact, no connection made, no process left, the bot's
//!   private folder removed;
//! - unsandboxed, the same attack (kept harmless: a secret that is a test file, signal 0
//!   rather than a kill, 100 processes rather than a fork bomb, 10 GiB reserved but never
//!   touched, a sparse file) succeeds: what `--sandbox` is for.
//!
//! take5 runs as root in CI: the sandboxed runs then start the bots as nobody. The unprivileged
//! path (take5 started by a user, the bot confined by Landlock and its user namespace alone) is
//! run too, as another user (`setpriv`) when the tests run as root.

use crate::common;
use std::net::{TcpListener, UdpSocket};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A user id no account has: take5 runs as it for the unprivileged path.
const OTHER_USER: u32 = 4242;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The bots these tests run, and take5 itself, copied into a folder everyone may read: a
/// sandboxed bot started by root runs as nobody, and the unprivileged path runs take5 as
/// another user, wherever the repository was checked out (a home folder is often closed to
/// others). The layout is the repository's, so the bots find their kits as there.
fn kit() -> &'static Path {
    static KIT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    KIT.get_or_init(|| {
        let kit = std::env::temp_dir().join(format!("take5-sandbox-kit-{}", std::process::id()));
        let files = [
            "tests/bots/hostile.py",
            "sdk/python/example_bot.py",
            "sdk/python/take5bot.py",
            "sdk/js/example_bot.mjs",
            "sdk/js/take5bot.mjs",
            "scripts/bots/python_bot.py",
            "scripts/bots/shell_bot.sh",
        ];
        for file in files {
            let to = kit.join(file);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(root().join(file), &to).unwrap();
        }
        crate::common::build_c_example_bot(&kit.join("sdk/c"));
        std::fs::copy(env!("CARGO_BIN_EXE_take5"), kit.join("take5")).unwrap();
        let opened = Command::new("chmod")
            .args(["-R", "a+rX", kit.to_str().unwrap()])
            .status()
            .unwrap();
        assert!(opened.success());
        kit
    })
}

/// The command line of a hostile bot making attack `mode` with `args`, then playing as the
/// Python kit's example bot.
fn hostile(mode: &str, args: &[&str]) -> String {
    let mut words = vec![
        "python3".to_string(),
        kit().join("tests/bots/hostile.py").display().to_string(),
        mode.to_string(),
    ];
    words.extend(args.iter().map(|a| a.to_string()));
    words.push(
        root()
            .join("sdk/python/example_bot.py")
            .display()
            .to_string(),
    );
    shlex::try_join(words.iter().map(String::as_str)).unwrap()
}

/// A fresh folder for one run (readable by everyone, as a user's files usually are, so that
/// only the sandbox can refuse a bot what it attempts there).
fn folder(name: &str) -> PathBuf {
    let dir = common::temp(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("tmp")).unwrap();
    for dir in [&dir, &dir.parent().unwrap().to_path_buf()] {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    dir
}

/// What a run of `take5 play` left: its output, its record, and the first bot's stderr.
struct Run {
    output: Output,
    record: PathBuf,
    stderr: String,
    dir: PathBuf,
}

impl Run {
    /// The lines of the bot's stderr about `step`: `hostile STEP: done|refused: ...`.
    fn step(&self, step: &str) -> Vec<&str> {
        let prefix = format!("hostile {step}: ");
        self.stderr
            .lines()
            .filter_map(|l| l.strip_prefix(prefix.as_str()))
            .collect()
    }

    fn refused(&self, step: &str) -> bool {
        let lines = self.step(step);
        !lines.is_empty() && lines.iter().all(|l| l.starts_with("refused: "))
    }

    fn done(&self, step: &str) -> bool {
        let lines = self.step(step);
        !lines.is_empty() && lines.iter().all(|l| l.starts_with("done: "))
    }

    fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.output.stdout).to_string()
    }

    /// The game was played to its end, and its record verifies.
    fn played_and_verifies(&self) {
        assert!(
            self.output.status.success(),
            "take5 play failed:\n{}{}\nbot's stderr:\n{}",
            self.stdout(),
            String::from_utf8_lossy(&self.output.stderr),
            self.stderr
        );
        let verify = common::take5(&["verify", self.record.to_str().unwrap()]);
        assert!(
            verify.status.success(),
            "the record does not verify: {}",
            String::from_utf8_lossy(&verify.stderr)
        );
    }

    /// No process of the run is left (each holds `token` in its command line) and the bots'
    /// private folders are gone.
    fn left_nothing(&self, token: &str) {
        assert_eq!(
            processes_holding(token),
            Vec::<i32>::new(),
            "processes left"
        );
        let scratch: Vec<_> = std::fs::read_dir(self.dir.join("tmp"))
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name())
            .collect();
        assert!(
            scratch.is_empty(),
            "left in the temporary folder: {scratch:?}"
        );
    }
}

/// Plays one game between `players` (command lines) and a built-in bot, with `--sandbox`
/// settings `sandbox` (`Some("")`: the defaults), as `user` if given; the first player's
/// stderr is kept.
fn play(name: &str, players: &[String], sandbox: Option<&str>, user: Option<u32>) -> Run {
    play_told(name, players, sandbox, user, None)
}

/// As [`play`], the bots told where a secret is (`TAKE5_SECRET`, as a bot may know where
/// `~/.ssh` is: not on its command line, where it would be a file the bot is given).
fn play_told(
    name: &str,
    players: &[String],
    sandbox: Option<&str>,
    user: Option<u32>,
    secret: Option<&Path>,
) -> Run {
    let dir = folder(name);
    let record = dir.join("record.jsonl");
    let logs = dir.join("logs");
    let mut args: Vec<String> = vec!["play".into()];
    for player in players {
        args.extend(["--player".into(), player.clone()]);
    }
    args.extend(
        [
            "--player",
            "builtin:lowest",
            "--games",
            "1",
            "--seed",
            "5",
            "--timeout",
            "20000",
            "--startup-timeout",
            "60000",
            "--handshake-fallback",
        ]
        .map(String::from),
    );
    args.extend(["--record".into(), record.display().to_string()]);
    args.extend(["--log-io".into(), logs.display().to_string()]);
    if let Some(settings) = sandbox {
        args.push(match settings {
            "" => "--sandbox".to_string(),
            s => format!("--sandbox={s}"),
        });
    }
    let take5 = kit().join("take5");
    let mut command = match user {
        Some(uid) => {
            chown_all(&dir, uid);
            let mut c = Command::new("setpriv");
            c.args([
                format!("--reuid={uid}"),
                format!("--regid={uid}"),
                "--clear-groups".into(),
                "--".into(),
                take5.display().to_string(),
            ]);
            c
        }
        None => Command::new(take5),
    };
    if let Some(secret) = secret {
        command.env("TAKE5_SECRET", secret);
    }
    let output = command
        .args(&args)
        .env("TMPDIR", dir.join("tmp"))
        .output()
        .expect("take5 runs");
    let stderr = std::fs::read_to_string(logs.join("player-0.stderr")).unwrap_or_default();
    Run {
        output,
        record,
        stderr,
        dir,
    }
}

fn chown_all(dir: &Path, uid: u32) {
    let status = Command::new("chown")
        .args(["-R", &format!("{uid}:{uid}"), dir.to_str().unwrap()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// The live processes whose command line holds `token`.
fn processes_holding(token: &str) -> Vec<i32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|c| c.windows(token.len()).any(|w| w == token.as_bytes()))
                && !common::is_gone(*pid)
        })
        .collect()
}

/// A word no other process of the machine has in its command line.
fn token(what: &str) -> String {
    format!("take5-hostile-{what}-{}", std::process::id())
}

#[test]
fn this_machine_supports_the_sandbox() {
    let output = common::take5(&["sandbox-check"]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{text}");
    assert!(text.contains("result: --sandbox works here"), "{text}");
    assert!(text.contains("Landlock: ABI"), "{text}");
}

#[test]
fn reading_a_secret_outside_its_folder() {
    let setup = |run: &str| {
        let dir = folder(run);
        let home = dir.join("secret-home");
        std::fs::create_dir_all(&home).unwrap();
        let secret = home.join("secret.txt");
        std::fs::write(&secret, "the secret is 97531\n").unwrap();
        std::fs::set_permissions(&home, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o644)).unwrap();
        secret
    };
    let secret = setup("read-secret-sandboxed");
    let bot = hostile("read", &[]);
    let run = play_told(
        "read-sandboxed",
        std::slice::from_ref(&bot),
        Some(""),
        None,
        Some(&secret),
    );
    run.played_and_verifies();
    assert!(run.refused("read"), "{}", run.stderr);
    assert!(!run.stderr.contains("97531"), "{}", run.stderr);

    let run = play_told("read-unsandboxed", &[bot], None, None, Some(&secret));
    run.played_and_verifies();
    assert!(run.done("read"), "{}", run.stderr);
    assert!(run.stderr.contains("the secret is 97531"), "{}", run.stderr);
}

#[test]
fn writing_or_deleting_outside_its_temporary_folder() {
    for sandboxed in [true, false] {
        let target = folder(&format!("write-target-{sandboxed}"));
        let files = target.join("files");
        std::fs::create_dir_all(&files).unwrap();
        std::fs::set_permissions(&files, std::fs::Permissions::from_mode(0o777)).unwrap();
        std::fs::write(files.join("victim"), "intact\n").unwrap();
        let bot = hostile("write", &[files.to_str().unwrap()]);
        let run = play(
            &format!("write-{sandboxed}"),
            &[bot],
            sandboxed.then_some(""),
            None,
        );
        run.played_and_verifies();
        if sandboxed {
            assert!(run.refused("write-create"), "{}", run.stderr);
            assert!(run.refused("write-delete"), "{}", run.stderr);
            assert_eq!(
                std::fs::read_to_string(files.join("victim")).unwrap(),
                "intact\n"
            );
            assert!(!files.join("written").exists());
        } else {
            assert!(run.done("write-create"), "{}", run.stderr);
            assert!(run.done("write-delete"), "{}", run.stderr);
            assert!(!files.join("victim").exists());
        }
    }
}

#[test]
fn connecting_to_a_listening_socket_and_resolving_a_name() {
    for sandboxed in [true, false] {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let resolver = UdpSocket::bind("127.0.0.1:0").unwrap();
        resolver.set_nonblocking(true).unwrap();
        let tcp = listener.local_addr().unwrap().port().to_string();
        let udp = resolver.local_addr().unwrap().port().to_string();
        let run = play(
            &format!("net-{sandboxed}"),
            &[hostile("connect", &[&tcp])],
            sandboxed.then_some(""),
            None,
        );
        run.played_and_verifies();
        let connected = listener.accept().is_ok();
        let dns = play(
            &format!("dns-{sandboxed}"),
            &[hostile("resolve", &[&udp])],
            sandboxed.then_some(""),
            None,
        );
        dns.played_and_verifies();
        let queried = resolver.recv_from(&mut [0; 512]).is_ok();
        if sandboxed {
            assert!(run.refused("connect"), "{}", run.stderr);
            assert!(dns.refused("resolve"), "{}", dns.stderr);
            assert!(!connected && !queried);
        } else {
            assert!(run.done("connect"), "{}", run.stderr);
            assert!(dns.done("resolve"), "{}", dns.stderr);
            assert!(connected && queried);
        }
    }
}

#[test]
fn a_fork_bomb_stops_at_the_cap() {
    let mark = token("fork");
    let bomb = hostile("fork", &["100000", &mark]);
    let run = play("fork-sandboxed", &[bomb], Some("processes=32"), None);
    run.played_and_verifies();
    let said = run.step("fork").join("\n");
    assert!(run.refused("fork"), "{said}");
    let started: u64 = said
        .split_whitespace()
        .nth(2)
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{said}"));
    assert!(started < 32, "{said}");
    run.left_nothing(&mark);

    // Unsandboxed, nothing stops it: 100 processes (not a bomb) start, and the cleanup that
    // holds without the sandbox kills them at the game's end.
    let run = play(
        "fork-unsandboxed",
        &[hostile("fork", &["100", &mark])],
        None,
        None,
    );
    run.played_and_verifies();
    assert!(run.done("fork"), "{}", run.stderr);
    run.left_nothing(&mark);
}

#[test]
fn allocating_10_gib() {
    let run = play(
        "alloc-sandboxed",
        &[hostile("alloc", &["10", "touch"])],
        Some(""),
        None,
    );
    run.played_and_verifies();
    assert!(run.refused("alloc-reserve"), "{}", run.stderr);
    assert!(run.refused("alloc-fill"), "{}", run.stderr);

    // A bot that does not survive the failed allocation is a fault that names the limit.
    let run = play(
        "alloc-dies",
        &[hostile("alloc", &["10", "die"])],
        Some("memory_mb=256"),
        None,
    );
    run.played_and_verifies();
    let record = std::fs::read_to_string(&run.record).unwrap();
    assert!(record.contains("memory_mb=256"), "{record}");

    // Unsandboxed, only reserved (never touched): the kernel grants it.
    let run = play(
        "alloc-unsandboxed",
        &[hostile("alloc", &["10"])],
        None,
        None,
    );
    run.played_and_verifies();
    assert!(run.done("alloc-reserve"), "{}", run.stderr);
}

#[test]
fn writing_a_10_gib_file() {
    let run = play(
        "bigfile-sandboxed",
        &[hostile("bigfile", &["10"])],
        Some(""),
        None,
    );
    run.played_and_verifies();
    assert!(run.refused("bigfile"), "{}", run.stderr);
    run.left_nothing(&token("bigfile"));

    // A bot that does not ignore SIGXFSZ is killed by the limit: the fault names it.
    let run = play(
        "bigfile-dies",
        &[hostile("bigfile", &["10", "die"])],
        Some("file_mb=8"),
        None,
    );
    run.played_and_verifies();
    let record = std::fs::read_to_string(&run.record).unwrap();
    assert!(record.contains("file_mb=8"), "{record}");

    let run = play(
        "bigfile-unsandboxed",
        &[hostile("bigfile", &["10"])],
        None,
        None,
    );
    run.played_and_verifies();
    assert!(run.done("bigfile"), "{}", run.stderr);
}

#[test]
fn using_up_the_processor_time_is_a_fault_naming_the_limit() {
    let run = play("spin", &[hostile("spin", &[])], Some("cpu_seconds=1"), None);
    run.played_and_verifies();
    let record = std::fs::read_to_string(&run.record).unwrap();
    assert!(record.contains("cpu_seconds=1"), "{record}");
}

#[test]
fn opening_100000_files() {
    let run = play(
        "files-sandboxed",
        &[hostile("files", &["100000"])],
        Some(""),
        None,
    );
    run.played_and_verifies();
    let said = run.step("files").join("\n");
    assert!(run.refused("files"), "{said}");
    assert!(said.contains("after 25"), "{said}"); // 256 open files, less stdio and Python's own

    let run = play(
        "files-unsandboxed",
        &[hostile("files", &["100000"])],
        None,
        None,
    );
    run.played_and_verifies();
    let said = run.step("files").join("\n");
    // Only take5's own limit stops it (or nothing).
    let opened: u64 = said
        .split_whitespace()
        .find_map(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("{said}"));
    assert!(opened > 1000, "{said}");
}

/// Kills and traces of take5 and of another bot: the victim is a second bot (player 0, started
/// first), the attacker player 1; the stderr read is the victim's, so the attacker's is read
/// from its own log.
fn attack_others(name: &str, sandbox: Option<&str>, user: Option<u32>, kill: &[&str]) -> Run {
    let mark = token(name);
    let victim = hostile("none", &[&mark]);
    let mut args = vec![mark.as_str()];
    args.extend(kill);
    let attacker = hostile("kill", &args);
    let mut run = play(name, &[victim, attacker], sandbox, user);
    run.stderr = std::fs::read_to_string(run.dir.join("logs/player-1.stderr")).unwrap_or_default();
    run.left_nothing(&mark);
    run
}

#[test]
fn killing_take5_or_another_bot() {
    let run = attack_others("kill-sandboxed", Some(""), None, &["SIGKILL"]);
    run.played_and_verifies();
    assert!(run.refused("kill-take5"), "{}", run.stderr);
    assert!(run.refused("kill-other"), "{}", run.stderr);
    let record = std::fs::read_to_string(&run.record).unwrap();
    assert!(!record.contains("\"fault\""), "{record}");

    // Unsandboxed, signal 0 (a harmless question) shows that a kill would be let through.
    let run = attack_others("kill-unsandboxed", None, None, &[]);
    run.played_and_verifies();
    assert!(run.done("kill-take5"), "{}", run.stderr);
    assert!(run.done("kill-other"), "{}", run.stderr);
}

#[test]
fn tracing_take5() {
    let run = play(
        "trace-sandboxed",
        &[hostile("trace", &["attach"])],
        Some(""),
        None,
    );
    run.played_and_verifies();
    assert!(run.refused("trace-environ"), "{}", run.stderr);
    assert!(run.refused("trace-attach"), "{}", run.stderr);

    let run = play("trace-unsandboxed", &[hostile("trace", &[])], None, None);
    run.played_and_verifies();
    assert!(run.done("trace-environ"), "{}", run.stderr);
}

#[test]
fn a_daemon_that_double_forks_is_gone_with_the_game() {
    for sandbox in [Some(""), None] {
        let mark = token(&format!("daemon-{}", sandbox.is_some()));
        let run = play(
            &format!("daemon-{}", sandbox.is_some()),
            &[hostile("daemon", &["3600", &mark])],
            sandbox,
            None,
        );
        run.played_and_verifies();
        assert!(run.done("daemon"), "{}", run.stderr);
        run.left_nothing(&mark);
    }
}

/// take5 started by a user, not root: the bot is confined by Landlock and its own user
/// namespace alone (it has the user's uid, so only the sandbox can refuse it a kill of take5).
#[test]
fn the_unprivileged_path_confines_too() {
    // SAFETY: plain system call.
    let user = (unsafe { libc::geteuid() } == 0).then_some(OTHER_USER);
    let dir = folder("unprivileged-secret");
    let secret = dir.join("secret.txt");
    std::fs::write(&secret, "the secret is 86420\n").unwrap();
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o644)).unwrap();
    let run = play_told(
        "unprivileged-read",
        &[hostile("read", &[])],
        Some(""),
        user,
        Some(&secret),
    );
    run.played_and_verifies();
    assert!(run.refused("read"), "{}", run.stderr);
    assert!(!run.stderr.contains("86420"));

    let run = attack_others("unprivileged-kill", Some(""), user, &["SIGKILL"]);
    run.played_and_verifies();
    assert!(run.refused("kill-take5"), "{}", run.stderr);
    assert!(run.refused("kill-other"), "{}", run.stderr);

    let mark = token("unprivileged-fork");
    let run = play(
        "unprivileged-fork",
        &[hostile("fork", &["100000", &mark])],
        Some("processes=32"),
        user,
    );
    run.played_and_verifies();
    assert!(run.refused("fork"), "{}", run.stderr);
    run.left_nothing(&mark);
}

/// The kits' example bots (Python, Node, and C compiled as its README says) and the script
/// bots pass the self-test in the sandbox unchanged (the Python script bot is given its kit's
/// folder to read).
#[test]
fn the_example_bots_pass_the_selftest_sandboxed() {
    for (bot, sandbox) in [
        ("python3 sdk/python/example_bot.py", "--sandbox"),
        ("node sdk/js/example_bot.mjs", "--sandbox"),
        ("sh scripts/bots/shell_bot.sh", "--sandbox"),
        ("./sdk/c/example_bot", "--sandbox"),
        (
            "python3 scripts/bots/python_bot.py",
            "--sandbox=read=sdk/python",
        ),
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_take5"))
            .args(["selftest", bot, sandbox, "--variant", "all"])
            .args(["--timeout", "20000", "--startup-timeout", "60000"])
            .current_dir(kit())
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success() && text.contains("result: PASS"),
            "{bot} {sandbox}:\n{text}{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

/// The tournament file of docs/sandbox.md gives each bot the sandbox the page says.
#[test]
fn the_pool_example_of_the_docs_sets_each_bots_sandbox() {
    let page = std::fs::read_to_string(root().join("docs/sandbox.md")).unwrap();
    let blocks = common::fenced_blocks(&page);
    let yaml = blocks
        .iter()
        .find(|b| b.info == "yaml")
        .expect("a yaml example");
    let dir = folder("docs-example");
    for bot in ["alice", "carol"] {
        std::fs::create_dir_all(dir.join(bot)).unwrap();
    }
    let file = dir.join("contest.yaml");
    std::fs::write(&file, &yaml.text).unwrap();
    let tournament = take5::tournament::config::load(&file).unwrap();
    let sandbox = |name: &str| {
        tournament
            .pool
            .iter()
            .find(|b| b.name == name)
            .unwrap()
            .sandbox
            .clone()
    };
    let alice = sandbox("alice").expect("alice is sandboxed");
    assert_eq!(alice.limits.memory_mb, 512);
    assert_eq!(alice.limits.processes, 64);
    assert!(alice.read.is_empty());
    let bob = sandbox("bob").expect("bob is sandboxed");
    assert_eq!((bob.limits.memory_mb, bob.limits.processes), (512, 16));
    assert_eq!(bob.read, [dir.join("bob-data")]);
    assert_eq!(sandbox("carol"), None);
}

/// The flags of a tournament of `bot` (named reader) against builtin:lowest, all confined
/// with `--sandbox`, its results in `results`.
fn sandboxed_round_robin(bot: &str, results: &Path) -> Vec<String> {
    let reader = format!("reader={bot}");
    [
        "--bot",
        &reader,
        "--bot",
        "lowest=builtin:lowest",
        "--seats",
        "2",
        "--seed",
        "3",
        "--tables",
        "round-robin",
        "--startup-timeout",
        "60000",
        "--results",
        results.to_str().unwrap(),
        "--sandbox",
    ]
    .map(String::from)
    .to_vec()
}

/// A tournament confines its bots with `--sandbox`, and a pool's `sandbox:` does too (and a
/// bot's `sandbox: false` leaves that one alone).
#[test]
fn a_tournament_confines_its_bots() {
    let dir = folder("tournament");
    let secret = dir.join("secret.txt");
    std::fs::write(&secret, "the secret is 24680\n").unwrap();
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o644)).unwrap();
    let bot = hostile("read", &[]);
    let run = |name: &str, args: &[&str]| {
        let logs = dir.join(name);
        let output = Command::new(env!("CARGO_BIN_EXE_take5"))
            .arg("tournament")
            .args(args)
            .args(["--log-io", logs.to_str().unwrap(), "--jobs", "1"])
            .env("TAKE5_SECRET", &secret)
            .env("TMPDIR", dir.join("tmp"))
            .output()
            .unwrap();
        common::ok(&output);
        std::fs::read_to_string(logs.join("job-1/reader.stderr")).unwrap()
    };
    let flags = sandboxed_round_robin(&bot, &dir.join("flags.jsonl"));
    let said = run(
        "flags",
        &flags.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    assert!(said.contains("hostile read: refused"), "{said}");
    assert!(!said.contains("24680"), "{said}");

    let config = |sandbox: &str| {
        let file = dir.join(format!("pool-{sandbox}.yaml"));
        std::fs::write(
            &file,
            format!(
                "sandbox: true
bots:
  - {{name: reader, player: {bot:?}, startup_timeout_ms: 60000, sandbox: {sandbox}}}
  - {{name: lowest, player: 'builtin:lowest'}}
seats: 2
seed: 3
format: round-robin
"
            ),
        )
        .unwrap();
        file
    };
    let confined = config("{processes: 32}");
    let said = run("pool", &[confined.to_str().unwrap()]);
    assert!(said.contains("hostile read: refused"), "{said}");
    let trusted = config("false");
    let said = run("trusted", &[trusted.to_str().unwrap()]);
    assert!(
        said.contains("hostile read: done: the secret is 24680"),
        "{said}"
    );
}

/// A setting the sandbox does not know, or a limit of 0, is a usage error naming the known ones;
/// so is a `--player-sandbox` for no bot's command.
#[test]
fn bad_sandbox_settings_are_usage_errors() {
    for (setting, says) in [
        (
            "--sandbox=memory=512",
            "unknown sandbox setting `memory` (known: memory_mb, processes, open_files, file_mb, cpu_seconds, read)",
        ),
        (
            "--sandbox=processes=0",
            "sandbox setting processes: must be at least 1",
        ),
        (
            "--sandbox=file_mb=big",
            "sandbox setting file_mb: `big` is not a whole number",
        ),
        (
            "--player-sandbox=1=memory=5",
            "unknown sandbox setting `memory`",
        ),
        (
            "--player-sandbox=one=",
            "`one` is not a player's place among the --player (from 0)",
        ),
        (
            "--player-sandbox=2=",
            "--player-sandbox 2=memory_mb=1024,processes=64,open_files=256,file_mb=64,cpu_seconds=3600: the players are 0 to 1, in the order of the --player",
        ),
        (
            "--player-sandbox=0=processes=8",
            "--player-sandbox 0=memory_mb=1024,processes=8,open_files=256,file_mb=64,cpu_seconds=3600: --player 0 is no bot's command, it runs no process",
        ),
    ] {
        let output = common::take5(&[
            "play",
            "--player",
            "builtin:lowest",
            "--player",
            "builtin:random",
            setting,
        ]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.starts_with("take5: ") && stderr.contains(says),
            "{stderr}"
        );
    }
}

/// A kernel feature the sandbox needs, taken away from take5 by a seccomp filter installed in
/// its process before it starts: the system call fails as on a kernel without it.
struct Missing {
    /// The system call, and the error it gets.
    syscall: i64,
    errno: i32,
    /// What take5 must name (Step::needs).
    named: &'static str,
}

/// Runs take5 with `args` (from the repository's root), `missing` taken away.
fn take5_without(missing: &Missing, args: &[&str]) -> Output {
    use seccompiler::{BpfProgram, SeccompAction, SeccompFilter};
    use std::os::unix::process::CommandExt;
    let filter = SeccompFilter::new(
        [(missing.syscall, Vec::new())].into_iter().collect(),
        SeccompAction::Allow,
        SeccompAction::Errno(missing.errno as u32),
        std::env::consts::ARCH.try_into().unwrap(),
    )
    .unwrap();
    let program: BpfProgram = filter.try_into().unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_take5"));
    command.args(args).current_dir(root());
    // SAFETY: between fork and exec the closure only makes system calls (prctl, seccomp) on
    // the program prepared above, and builds an io::Error from a number.
    unsafe {
        command.pre_exec(move || {
            seccompiler::apply_filter(&program)
                .map_err(|_| std::io::Error::from_raw_os_error(libc::EPERM))
        });
    }
    command.output().unwrap()
}

/// Without Landlock (its system call ENOSYS, as on a kernel built without it) or without user
/// namespaces (`unshare` refused, as where unprivileged namespaces are switched off),
/// `sandbox-check` says what is missing, and `play`, `selftest` and `tournament` with
/// `--sandbox` refuse to start, naming it (as docs/sandbox.md shows): no bot started, no record
/// or results written. Without `--sandbox` the same command plays (the filter took away
/// nothing else).
#[test]
fn without_a_kernel_feature_the_sandbox_refuses_to_start_naming_it() {
    let missing = [
        Missing {
            syscall: libc::SYS_landlock_create_ruleset,
            errno: libc::ENOSYS,
            named: "Landlock ABI 6 or later",
        },
        Missing {
            syscall: libc::SYS_unshare,
            errno: libc::EPERM,
            named: "user, network and IPC namespaces",
        },
    ];
    for missing in &missing {
        let dir = folder(&format!("missing-{}", missing.syscall));
        let marker = dir.join("started");
        // A bot that leaves a mark when it starts, then plays as the shell example bot.
        let bot = shlex::try_join([
            "sh",
            "-c",
            &format!(
                "echo started > {}; exec sh scripts/bots/shell_bot.sh",
                shlex::try_quote(marker.to_str().unwrap()).unwrap()
            ),
        ])
        .unwrap();
        let check = take5_without(missing, &["sandbox-check"]);
        let said = String::from_utf8_lossy(&check.stdout);
        assert_eq!(check.status.code(), Some(1), "{said}");
        assert!(
            said.contains(&format!("FAIL  {}", missing.named))
                && said.contains("result: --sandbox is refused here"),
            "{said}"
        );
        if missing.syscall == libc::SYS_landlock_create_ruleset {
            // The steps before Landlock's were still tried.
            assert!(said.contains("Landlock: none (needed: ABI 6)"), "{said}");
            assert!(
                said.contains("ok    user, network and IPC namespaces"),
                "{said}"
            );
            assert!(said.contains("this kernel has no Landlock"), "{said}");
        }

        let record = dir.join("record.jsonl");
        let results = dir.join("results.jsonl");
        let play = [
            "play",
            "--player",
            &bot,
            "--player",
            "builtin:lowest",
            "--record",
            record.to_str().unwrap(),
        ];
        let tournament = [
            "tournament",
            "--bot",
            &format!("marked={bot}"),
            "--bot",
            "lowest=builtin:lowest",
            "--seats",
            "2",
            "--seed",
            "1",
            "--tables",
            "round-robin",
            "--results",
            results.to_str().unwrap(),
            "--sandbox",
        ];
        let runs: [Vec<&str>; 3] = [
            [&play[..], &["--sandbox"]].concat(),
            vec!["selftest", &bot, "--sandbox"],
            tournament.to_vec(),
        ];
        for args in &runs {
            let output = take5_without(missing, args);
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
            assert!(
                stderr.starts_with("take5: --sandbox cannot confine bots on this machine")
                    && stderr.contains(missing.named)
                    && stderr.contains("take5 sandbox-check"),
                "{args:?}: {stderr}"
            );
            if missing.syscall == libc::SYS_landlock_create_ruleset {
                let page = std::fs::read_to_string(root().join("docs/sandbox.md")).unwrap();
                assert_eq!(stderr, common::doc_block(&page, "text"), "docs/sandbox.md");
            }
            assert!(!marker.exists(), "{args:?} started a bot");
            assert!(!record.exists() && !results.exists(), "{args:?} wrote");
        }

        common::ok(&take5_without(missing, &play));
        assert!(marker.exists() && record.exists());
    }
}

/// `take5 tournament --replay` gives the game's bots their sandboxes: `--sandbox=SETTINGS` when
/// they share one, `--player-sandbox SEAT=SETTINGS` for each confined one when they differ (a
/// bot with `sandbox: false` left alone); the replay confines them so and records the game
/// byte for byte as the tournament did.
#[test]
fn a_tournaments_replay_confines_its_bots_as_the_tournament_did() {
    let dir = folder("replay");
    let secret = dir.join("secret.txt");
    std::fs::write(&secret, "the secret is 13579\n").unwrap();
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o644)).unwrap();
    std::fs::create_dir_all(dir.join("data")).unwrap();
    let reader = hostile("read", &[]);
    let shell = format!("sh {}", kit().join("scripts/bots/shell_bot.sh").display());
    let take5 = |args: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_take5"))
            .args(args)
            .env("TAKE5_SECRET", &secret)
            .env("TMPDIR", dir.join("tmp"))
            .output()
            .unwrap();
        common::ok(&output)
    };
    // Replays game 0 as printed, its bots' stderr kept in `logs`: the printed words, and
    // whether the replay's record is the tournament's game 0.
    let replay = |tournament: &[&str], logs: &Path| {
        let record = dir.join("games.jsonl");
        let _ = std::fs::remove_file(&record);
        take5(&[tournament, &["--record", record.to_str().unwrap()]].concat());
        let printed = take5(
            &[
                tournament,
                &["--record", record.to_str().unwrap(), "--replay", "0"],
            ]
            .concat(),
        );
        let words = shlex::split(printed.trim()).unwrap();
        let mut args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
        args.extend(["--quiet", "--log-io", logs.to_str().unwrap()]);
        take5(&args);
        let replayed = std::fs::read_to_string(dir.join("replay-0.jsonl")).unwrap();
        // Game 0's lines in the tournament's record: from its header to the next header.
        let mut game_0 = String::new();
        let mut in_game_0 = false;
        for line in std::fs::read_to_string(&record).unwrap().lines() {
            if line.starts_with("{\"event\":\"game\"") {
                let header: serde_json::Value = serde_json::from_str(line).unwrap();
                in_game_0 = header["tournament"]["game"] == 0;
            }
            if in_game_0 {
                game_0.push_str(line);
                game_0.push('\n');
            }
        }
        assert!(replayed == game_0, "the replay's record differs: {printed}");
        std::fs::remove_file(dir.join("replay-0.jsonl")).unwrap();
        words
    };
    // The seat of the `--player` or `--pool-name` `word` in a replay's words.
    let seat_of = |words: &[String], word: &str| {
        let at = words.iter().position(|w| w == word).unwrap();
        words[..at].iter().filter(|w| *w == "--player").count() - 1
    };
    let defaults = "memory_mb=1024,processes=64,open_files=256,file_mb=64,cpu_seconds=3600";

    // One sandbox for all, from the command line.
    let flags = sandboxed_round_robin(&reader, &dir.join("flags.jsonl"));
    let flags: Vec<&str> = ["tournament"]
        .into_iter()
        .chain(flags.iter().map(String::as_str))
        .collect();
    let logs = dir.join("flags-logs");
    let words = replay(&flags, &logs);
    assert!(
        words.contains(&format!("--sandbox={defaults}")),
        "{words:?}"
    );
    assert!(!words.iter().any(|w| w == "--player-sandbox"), "{words:?}");
    let said =
        std::fs::read_to_string(logs.join(format!("player-{}.stderr", seat_of(&words, &reader))))
            .unwrap();
    assert!(said.contains("hostile read: refused"), "{said}");

    // Sandboxes of their own: the pool's for the shell bot, the reader's own, none for the
    // trusted reader.
    let config = dir.join("pool.yaml");
    std::fs::write(
        &config,
        format!(
            "sandbox: {{memory_mb: 512}}
bots:
  - {{name: shell, player: {shell:?}}}
  - {{name: confined, player: {reader:?}, startup_timeout_ms: 60000, sandbox: {{processes: 16, read: [data]}}}}
  - {{name: trusted, player: {reader:?}, startup_timeout_ms: 60000, sandbox: false}}
seats: 3
seed: 4
format: round-robin
"
        ),
    )
    .unwrap();
    let results = dir.join("pool.jsonl");
    let pool = [
        "tournament",
        config.to_str().unwrap(),
        "--results",
        results.to_str().unwrap(),
    ];
    let logs = dir.join("pool-logs");
    let words = replay(&pool, &logs);
    assert!(
        !words.iter().any(|w| w.starts_with("--sandbox")),
        "{words:?}"
    );
    let per_player: Vec<&String> = words
        .iter()
        .zip(&words[1..])
        .filter(|(flag, _)| *flag == "--player-sandbox")
        .map(|(_, value)| value)
        .collect();
    let data = dir.join("data");
    assert_eq!(
        per_player
            .iter()
            .map(|v| v.as_str())
            .collect::<std::collections::BTreeSet<_>>(),
        [
            format!(
                "{}=memory_mb=512,processes=64,open_files=256,file_mb=64,cpu_seconds=3600",
                seat_of(&words, "shell")
            ),
            format!(
                "{}=memory_mb=512,processes=16,open_files=256,file_mb=64,cpu_seconds=3600,read={}",
                seat_of(&words, "confined"),
                data.display()
            ),
        ]
        .iter()
        .map(String::as_str)
        .collect(),
        "{words:?}"
    );
    let stderr = |name: &str| {
        std::fs::read_to_string(logs.join(format!("player-{}.stderr", seat_of(&words, name))))
            .unwrap()
    };
    assert!(stderr("confined").contains("hostile read: refused"));
    assert!(stderr("trusted").contains("hostile read: done: the secret is 13579"));
}
