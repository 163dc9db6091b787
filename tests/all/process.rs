//! The supervised bot process against real misbehaving bots (shell scripts in tests/bots/).
//! Every test checks that the error is the right one, that it comes about when it should, and
//! that no process is left behind.

use crate::common;

use common::is_gone;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use take5::players::FaultKind;
use take5::players::process::{BotCommand, BotProcess, DEFAULT_LINE_LIMIT, ProcessError};

/// Generous bound for anything that should be quick (CI machines can be slow).
const QUICK: Duration = Duration::from_secs(5);

fn script(name: &str) -> String {
    format!("{}/tests/bots/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn bot(name: &str, args: &[&str]) -> BotProcess {
    let cmd = BotCommand::new(
        "sh",
        std::iter::once(script(name)).chain(args.iter().map(|a| a.to_string())),
    );
    BotProcess::spawn(&cmd).expect("spawn sh")
}

fn after(ms: u64) -> Instant {
    Instant::now() + Duration::from_millis(ms)
}

/// A fresh path for a bot to write pids into.
fn pid_file(test: &str) -> PathBuf {
    let path =
        std::env::temp_dir().join(format!("take5-process-{}-{test}.pids", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

/// The two pids ("bot child") the script wrote into `path`.
fn read_pids(path: &PathBuf) -> (i32, i32) {
    let start = Instant::now();
    loop {
        if let Ok(text) = std::fs::read_to_string(path) {
            let pids: Vec<i32> = text
                .split_whitespace()
                .filter_map(|w| w.parse().ok())
                .collect();
            if text.ends_with('\n') && pids.len() == 2 {
                let _ = std::fs::remove_file(path);
                return (pids[0], pids[1]);
            }
        }
        assert!(
            start.elapsed() < QUICK,
            "the bot did not write {}",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Waits (a little: SIGKILL is asynchronous for processes we do not reap) until `pid` is gone.
fn assert_gone(pid: i32) {
    let start = Instant::now();
    while !is_gone(pid) {
        assert!(start.elapsed() < QUICK, "process {pid} is still alive");
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The bot itself was reaped: its pid does not exist at all.
fn assert_reaped(pid: i32) {
    // SAFETY: signal 0 only checks that the process exists.
    let r = unsafe { libc::kill(pid, 0) };
    let errno = std::io::Error::last_os_error().raw_os_error();
    assert!(
        r == -1 && errno == Some(libc::ESRCH),
        "bot {pid} was not reaped"
    );
}

fn expect_line(bot: &mut BotProcess, deadline: Instant) -> String {
    match bot.read_line(deadline) {
        Ok(line) => line.to_string(),
        Err(e) => panic!("expected a line, got {e:?}; stderr: {}", bot.stderr_tail()),
    }
}

#[test]
fn echo_round_trips() {
    let mut bot = bot("echo.sh", &[]);
    let pid = bot.pid() as i32;
    for i in 0..50 {
        let line = format!("play {i}  with  spaces\t");
        bot.send_line(&line, after(5000)).unwrap();
        assert_eq!(expect_line(&mut bot, after(5000)), line);
    }
    // Several lines at once: the ones already read come from the buffer.
    for word in ["one", "two", "", "three"] {
        bot.send_line(word, after(5000)).unwrap();
    }
    for word in ["one", "two", "", "three"] {
        assert_eq!(expect_line(&mut bot, after(5000)), word);
    }
    assert!(!bot.pending_lines());
    assert!(matches!(
        bot.send_line("a\nb", after(5000)),
        Err(ProcessError::Io(_))
    ));
    assert!(bot.is_running());
    // Its stdin closed, the echo bot ends by itself.
    let status = bot.shutdown(QUICK).expect("a status");
    assert_eq!(status.code(), Some(0));
    assert!(!bot.is_running());
    assert_reaped(pid);
}

#[test]
fn garbage_is_passed_on_and_unasked_lines_can_be_dropped() {
    let mut bot = bot("garbage.sh", &[]);
    let mut lines = Vec::new();
    loop {
        match bot.read_line(after(5000)) {
            Ok("END") => break,
            Ok(line) => lines.push(line.to_string()),
            Err(ProcessError::InvalidUtf8 { line_bytes }) => {
                assert_eq!(line_bytes, b"\xff\xfe not utf-8");
                lines.push("<invalid>".into());
            }
            Err(e) => panic!("{e:?}"),
        }
    }
    assert_eq!(
        lines,
        [
            "hello there",
            "",
            "\u{1}\u{2}\u{1b}[31m red \u{1b}[0m\t tab",
            "café €",
            "<invalid>"
        ]
    );
    bot.send_line("ping", after(5000)).unwrap();
    assert_eq!(expect_line(&mut bot, after(5000)), "ping");
    // Two "spam" follow each answer; drop them before the next request.
    let start = Instant::now();
    let mut dropped = 0;
    while dropped < 2 {
        dropped += bot.discard_unread();
        assert!(start.elapsed() < QUICK, "no spam came");
        std::thread::sleep(Duration::from_millis(1));
    }
    assert_eq!(dropped, 2);
    assert!(!bot.pending_lines());
    bot.send_line("pong", after(5000)).unwrap();
    assert_eq!(expect_line(&mut bot, after(5000)), "pong");
    // The spam after it, read in the same chunk or not, is a pending line sooner or later.
    assert_eq!(expect_line(&mut bot, after(5000)), "spam");
}

/// Reads the over-long line: `TooLong` at once, without the buffer growing.
fn expect_too_long(bot: &mut BotProcess) {
    let capacity = bot.buffer_capacity();
    assert!(capacity <= 64 * 1024);
    let start = Instant::now();
    match bot.read_line(after(5000)) {
        Err(ProcessError::TooLong { limit }) => assert_eq!(limit, DEFAULT_LINE_LIMIT),
        other => panic!("expected TooLong, got {other:?}"),
    }
    assert!(start.elapsed() < QUICK);
    assert_eq!(bot.buffer_capacity(), capacity);
    let fault = bot.fault(&ProcessError::TooLong { limit: 1024 });
    assert_eq!(fault.kind, FaultKind::Protocol);
    assert!(!fault.disconnected);
}

#[test]
fn long_line_with_newline_is_skipped() {
    let mut bot = bot("longline.sh", &["nl"]);
    let capacity = bot.buffer_capacity();
    expect_too_long(&mut bot);
    let start = Instant::now();
    assert_eq!(expect_line(&mut bot, after(10_000)), "good");
    assert!(start.elapsed() < QUICK);
    assert_eq!(bot.buffer_capacity(), capacity);
}

#[test]
fn long_line_arriving_later_is_skipped_too() {
    let mut bot = bot("longline.sh", &["nonl"]);
    expect_too_long(&mut bot);
    // "good" came glued to the long line, so it is part of it.
    assert_eq!(expect_line(&mut bot, after(10_000)), "next");
}

#[test]
fn long_line_then_silence_times_out() {
    let mut bot = bot("longline.sh", &["hang"]);
    let pid = bot.pid() as i32;
    expect_too_long(&mut bot);
    // Skipping the 10 MB goes on until the deadline, then the bot has said nothing more.
    let start = Instant::now();
    assert!(matches!(
        bot.read_line(after(300)),
        Err(ProcessError::Timeout)
    ));
    let took = start.elapsed();
    assert!(
        took >= Duration::from_millis(250) && took < QUICK,
        "{took:?}"
    );
    bot.kill();
    bot.kill();
    assert_reaped(pid);
}

#[test]
fn long_line_then_exit_is_closed() {
    let mut bot = bot("longline.sh", &["exit"]);
    expect_too_long(&mut bot);
    match bot.read_line(after(10_000)) {
        Err(ProcessError::Closed { status }) => assert_eq!(status.and_then(|s| s.code()), Some(0)),
        other => panic!("expected Closed, got {other:?}"),
    }
}

#[test]
fn a_small_limit_counts_bytes_without_the_line_end() {
    let cmd = BotCommand::new("sh", [script("echo.sh")]);
    let mut bot = BotProcess::spawn_with_limit(&cmd, 4).unwrap();
    for line in ["abcd", "abcd\r", "abcde", "ab", "abcdef", "x"] {
        bot.send_line(line, after(5000)).unwrap();
    }
    assert_eq!(expect_line(&mut bot, after(5000)), "abcd");
    assert_eq!(expect_line(&mut bot, after(5000)), "abcd");
    assert!(matches!(
        bot.read_line(after(5000)),
        Err(ProcessError::TooLong { limit: 4 })
    ));
    assert_eq!(expect_line(&mut bot, after(5000)), "ab");
    assert!(matches!(
        bot.read_line(after(5000)),
        Err(ProcessError::TooLong { limit: 4 })
    ));
    assert_eq!(expect_line(&mut bot, after(5000)), "x");
}

#[test]
fn invalid_utf8_is_one_bad_line() {
    let mut bot = bot("badutf8.sh", &[]);
    assert_eq!(expect_line(&mut bot, after(5000)), "ok");
    let err = bot.read_line(after(5000)).unwrap_err();
    match &err {
        ProcessError::InvalidUtf8 { line_bytes } => assert_eq!(line_bytes, b"\xff\xfebad\xff"),
        other => panic!("expected InvalidUtf8, got {other:?}"),
    }
    let fault = bot.fault(&err);
    assert_eq!(fault.kind, FaultKind::Protocol);
    assert!(
        fault.detail.contains("\\xff\\xfebad\\xff"),
        "{}",
        fault.detail
    );
    assert_eq!(expect_line(&mut bot, after(5000)), "after");
}

#[test]
fn silent_bot_times_out_and_is_killed_with_its_child() {
    let pids = pid_file("silent");
    let mut bot = bot("silent.sh", &[pids.to_str().unwrap()]);
    let (pid, child) = read_pids(&pids);
    assert_eq!(pid, bot.pid() as i32);
    bot.send_line("are you there?", after(1000)).unwrap();
    let start = Instant::now();
    let err = bot.read_line(after(200)).unwrap_err();
    let took = start.elapsed();
    assert!(matches!(err, ProcessError::Timeout), "{err:?}");
    assert!(
        took >= Duration::from_millis(190) && took < QUICK,
        "{took:?}"
    );
    let fault = bot.fault(&err);
    assert_eq!(fault.kind, FaultKind::Timeout);
    assert!(fault.disconnected);
    assert!(bot.is_running());
    assert!(!is_gone(child));
    bot.kill();
    assert!(!bot.is_running());
    let status = bot.exit_status().expect("a status");
    assert!(fault_text(status).contains("SIGKILL"));
    assert_reaped(pid);
    assert_gone(child);
}

fn fault_text(status: std::process::ExitStatus) -> String {
    take5::players::process::describe_status(status)
}

#[test]
fn dropping_a_bot_kills_it_and_its_child() {
    let pids = pid_file("drop");
    let bot = bot("silent.sh", &[pids.to_str().unwrap()]);
    let (pid, child) = read_pids(&pids);
    drop(bot);
    assert_reaped(pid);
    assert_gone(child);
}

#[test]
fn bot_dying_mid_answer_is_closed_with_its_code_and_last_words() {
    let mut bot = bot("exit3.sh", &[]);
    let pid = bot.pid() as i32;
    bot.send_line("first", after(5000)).unwrap();
    assert_eq!(expect_line(&mut bot, after(5000)), "first");
    bot.send_line("second", after(5000)).unwrap();
    let start = Instant::now();
    let err = bot.read_line(after(10_000)).unwrap_err();
    assert!(start.elapsed() < QUICK);
    match &err {
        ProcessError::Closed { status } => assert_eq!(status.and_then(|s| s.code()), Some(3)),
        other => panic!("expected Closed, got {other:?}"),
    }
    let fault = bot.fault(&err);
    assert_eq!(fault.kind, FaultKind::Crash);
    assert!(fault.disconnected);
    assert!(
        fault.detail.contains("exited with code 3"),
        "{}",
        fault.detail
    );
    assert!(
        fault.detail.contains("about to die: second"),
        "{}",
        fault.detail
    );
    // It stays closed; writing to it finds it gone.
    assert!(matches!(
        bot.read_line(after(100)),
        Err(ProcessError::Closed { .. })
    ));
    assert!(matches!(
        bot.send_line("third", after(1000)),
        Err(ProcessError::Closed { .. })
    ));
    assert!(!bot.is_running());
    bot.kill();
    assert_eq!(bot.exit_status().and_then(|s| s.code()), Some(3));
    assert_reaped(pid);
}

#[test]
fn bot_exiting_with_a_lingering_child_is_closed_at_once() {
    let pids = pid_file("linger-exit");
    let mut bot = bot("linger.sh", &[pids.to_str().unwrap(), "exit"]);
    assert_eq!(expect_line(&mut bot, after(5000)), "ready");
    let (pid, child) = read_pids(&pids);
    // The child still holds stdout open, so there is no EOF: the exit itself is noticed.
    let start = Instant::now();
    match bot.read_line(after(20_000)) {
        Err(ProcessError::Closed { status }) => assert_eq!(status.and_then(|s| s.code()), Some(0)),
        other => panic!("expected Closed, got {other:?}"),
    }
    assert!(start.elapsed() < QUICK);
    assert!(
        !is_gone(child),
        "the child lingers until the group is killed"
    );
    bot.kill();
    assert_reaped(pid);
    assert_gone(child);
}

#[test]
fn hanging_bot_with_a_child_times_out_and_both_die() {
    let pids = pid_file("linger-hang");
    let mut bot = bot("linger.sh", &[pids.to_str().unwrap(), "hang"]);
    assert_eq!(expect_line(&mut bot, after(5000)), "ready");
    let (pid, child) = read_pids(&pids);
    let start = Instant::now();
    assert!(matches!(
        bot.read_line(after(200)),
        Err(ProcessError::Timeout)
    ));
    assert!(start.elapsed() < QUICK);
    let status = bot.shutdown(Duration::from_millis(50)).expect("a status");
    assert!(fault_text(status).contains("SIGKILL"));
    assert_reaped(pid);
    assert_gone(child);
}

#[test]
fn bot_not_reading_its_input_blocks_writes_until_the_deadline() {
    let mut bot = bot("noread.sh", &[]);
    let pid = bot.pid() as i32;
    assert_eq!(expect_line(&mut bot, after(5000)), "ready");
    let line = "x".repeat(1000);
    let start = Instant::now();
    let deadline = after(300);
    let mut sent = 0;
    let err = loop {
        match bot.send_line(&line, deadline) {
            Ok(()) => sent += 1,
            Err(e) => break e,
        }
        assert!(sent < 100_000, "the pipe never filled");
    };
    let took = start.elapsed();
    assert!(matches!(err, ProcessError::WriteTimeout), "{err:?}");
    assert!(
        took >= Duration::from_millis(250) && took < QUICK,
        "{took:?}"
    );
    assert!(sent >= 4, "only {sent} lines fitted");
    assert_eq!(bot.fault(&err).kind, FaultKind::Timeout);
    drop(bot);
    assert_reaped(pid);
}

#[test]
fn stderr_flood_never_blocks_the_bot() {
    let mut bot = bot("stderrflood.sh", &[]);
    let start = Instant::now();
    for i in 1..=5 {
        let line = format!("turn {i}");
        bot.send_line(&line, after(10_000)).unwrap();
        assert_eq!(expect_line(&mut bot, after(10_000)), line);
    }
    assert!(start.elapsed() < Duration::from_secs(20));
    // The last words reach the tail soon (a thread drains stderr).
    let start = Instant::now();
    let tail = loop {
        let tail = bot.stderr_tail();
        if tail.ends_with("flood 5 done") {
            break tail;
        }
        assert!(start.elapsed() < QUICK, "tail: {tail}");
        std::thread::sleep(Duration::from_millis(5));
    };
    assert!(tail.len() <= 4096 + 3, "{} bytes", tail.len());
    assert!(tail.lines().count() <= 20);
    assert!(tail.lines().rev().nth(1).unwrap().starts_with("eeee"));
    assert_eq!(bot.shutdown(QUICK).and_then(|s| s.code()), Some(0));
}

#[test]
fn missing_program_fails_to_spawn() {
    let cmd = BotCommand::parse("/nonexistent/take5-bot --fast").unwrap();
    let err = BotProcess::spawn(&cmd).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::NotFound);
}

#[test]
fn parsed_commands_run_without_a_shell() {
    // A quoted argument with spaces arrives whole; `;` is an argument, not an operator.
    let cmd = BotCommand::parse(r#"sh -c 'printf "%s|%s\n" "$0" "$1"' "a b" ';'"#).unwrap();
    let mut bot = BotProcess::spawn(&cmd).unwrap();
    assert_eq!(expect_line(&mut bot, after(5000)), "a b|;");
}

/// The longest reply is `MAX_REPLY_BYTES` bytes of text, whatever its line end (`\n` or `\r\n`),
/// as docs/protocol.md says (protocol_doc.rs checks the page); a byte more is too long.
#[test]
fn a_reply_of_the_longest_length_is_read_and_a_byte_more_is_too_long() {
    use take5::protocol::MAX_REPLY_BYTES;
    let cmd = BotCommand::new("sh", [script("echo.sh")]);
    let mut bot = BotProcess::spawn(&cmd).unwrap();
    let longest = "x".repeat(MAX_REPLY_BYTES);
    for line in [
        longest.clone(),
        format!("{longest}\r"),
        format!("{longest}y"),
    ] {
        bot.send_line(&line, after(5000)).unwrap();
    }
    assert_eq!(expect_line(&mut bot, after(5000)), longest);
    assert_eq!(expect_line(&mut bot, after(5000)), longest);
    match bot.read_line(after(5000)) {
        Err(ProcessError::TooLong { limit }) => assert_eq!(limit, MAX_REPLY_BYTES),
        other => panic!("expected TooLong, got {other:?}"),
    }
}
