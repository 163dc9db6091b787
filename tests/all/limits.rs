//! Every input file has a size limit (docs/play.md, "Input limits"): a file past it is refused at once
//! with exit status 2 and a message that names the limit, and take5's memory stays bounded.
//! Input files other than records are read only if they are regular files: `/dev/zero` or a
//! FIFO is refused at once, and a FIFO named by a file (a record's house path) cannot make take5
//! wait for ever. A record may be any file (`-` is standard input): one that never ends stops at
//! its line limit.

use crate::common;

use common::take5;
use std::process::Output;

/// Asserts that take5 refused its input with exit status 2 and said `says` on stdout or stderr.
fn refused(output: &Output, says: &str) {
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(output.status.code(), Some(2), "{text}");
    assert!(text.contains(says), "{text}");
}

const PLAYERS: [&str; 4] = ["--player", "builtin:random", "--player", "builtin:lowest"];

fn play_with(flag: &str, path: &str) -> Output {
    let mut args = vec!["play"];
    args.extend(PLAYERS);
    args.extend([flag, path]);
    take5(&args)
}

#[test]
fn verify_stops_at_an_endless_line() {
    refused(
        &take5(&["verify", "/dev/zero"]),
        "/dev/zero:1: the line is longer than 8388608 bytes, the longest a record line may be",
    );
}

/// A regular file of `bytes` zero bytes (sparse: it takes no room).
fn big_file(name: &str, bytes: u64) -> String {
    let path = common::temp(name);
    std::fs::File::create(&path)
        .unwrap()
        .set_len(bytes)
        .unwrap();
    path.to_str().unwrap().to_string()
}

const MIB: u64 = 1 << 20;

#[test]
fn check_stops_at_the_fixture_limit() {
    let big = big_file("big.yaml", 5 * MIB);
    refused(
        &take5(&["check", &big]),
        &format!("{big}: cannot read: too large: a fixture may hold at most 4 MiB"),
    );
}

#[test]
fn tournament_stops_at_the_tournament_file_limit() {
    let big = big_file("big.yaml", 2 * MIB);
    refused(
        &take5(&["tournament", &big]),
        &format!("{big}: cannot read: too large: a tournament file may hold at most 1 MiB"),
    );
}

#[test]
fn deal_and_deck_files_stop_at_the_yaml_limit() {
    let big = big_file("big.yaml", 5 * MIB);
    for flag in ["--deal", "--deck"] {
        refused(
            &play_with(flag, &big),
            &format!("{big}: cannot read: too large: a YAML input file may hold at most 4 MiB"),
        );
    }
}

#[test]
fn a_house_script_stops_at_its_limit() {
    let big = big_file("big.lua", 2 * MIB);
    refused(
        &play_with("--house", &big),
        &format!("cannot read {big}: too large: a house rule script may hold at most 1 MiB"),
    );
}

/// `/dev/zero` as every input that is not a record: a fixture, a tournament file, a deal, a
/// deck, a house script (given, or named by a tournament file or a fixture).
#[test]
fn dev_zero_as_any_input_but_a_record_is_refused_as_not_a_regular_file() {
    let not_regular = "/dev/zero: cannot read: not a regular file (a character device)";
    refused(&take5(&["check", "/dev/zero"]), not_regular);
    refused(&take5(&["tournament", "/dev/zero"]), not_regular);
    for flag in ["--deal", "--deck"] {
        refused(&play_with(flag, "/dev/zero"), not_regular);
    }
    refused(
        &play_with("--house", "/dev/zero"),
        "cannot read /dev/zero: not a regular file (a character device)",
    );
    let tournament = common::temp("tournament.yaml");
    std::fs::write(
        &tournament,
        "bots: [{name: a, player: 'builtin:random'}, {name: b, player: 'builtin:lowest'}]\n\
         seats: 2\nseed: 1\nformat: round-robin\nhouse: /dev/zero\n",
    )
    .unwrap();
    refused(
        &take5(&["tournament", tournament.to_str().unwrap()]),
        "cannot read /dev/zero: not a regular file (a character device)",
    );
    let fixture = common::temp("fixture.yaml");
    std::fs::write(
        &fixture,
        "name: a house script that is a device\npins: nothing\nvariant: classic\n\
         house: /dev/zero\nplayers: 2\nsteps:\n  - deal: {hands: [[15], [50]], rows: [10, 20, \
         30, 40]}\n",
    )
    .unwrap();
    refused(
        &take5(&["check", fixture.to_str().unwrap()]),
        "fixture.yaml:4:1: the house script cannot be loaded: cannot read /dev/zero: not a \
         regular file (a character device)",
    );
}

#[test]
fn show_stops_at_an_endless_line() {
    for how in [&["show", "--plain"][..], &["show", "--html"]] {
        let mut args = how.to_vec();
        args.push("/dev/zero");
        refused(
            &take5(&args),
            "/dev/zero:1: the line is longer than 8388608 bytes",
        );
    }
}

/// A record of a circle game with house rules, its header's house path made `house`.
fn record_naming_house(house: &str) -> String {
    let record = common::temp("named-house.jsonl");
    let mut args = vec!["play"];
    args.extend(PLAYERS);
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/house/circle_all_green.lua"
    );
    let path = record.to_str().unwrap();
    args.extend([
        "--variant",
        "circle",
        "--seed",
        "3",
        "--house",
        script,
        "--record",
        path,
    ]);
    common::ok(&take5(&args));
    let text = std::fs::read_to_string(&record).unwrap();
    let (header, rest) = text.split_once('\n').unwrap();
    let mut header: serde_json::Value = serde_json::from_str(header).unwrap();
    assert!(header["house"]["path"].is_string(), "{header}");
    // An absolute path stays as it is (others are relative to the record's folder).
    header["house"]["path"] = house.into();
    std::fs::write(&record, format!("{header}\n{rest}")).unwrap();
    path.to_string()
}

#[test]
fn a_record_naming_a_house_script_past_its_limit_is_refused() {
    let big = big_file("big.lua", 2 * MIB);
    refused(
        &take5(&["verify", &record_naming_house(&big)]),
        "too large: a house rule script may hold at most 1 MiB",
    );
}

/// Runs take5 with `args` under an address-space limit of 2 GiB (so a reader that grows without
/// bound fails fast instead of filling the machine); what it printed and its peak resident
/// memory in bytes.
fn take5_measured(args: &[&str]) -> (Output, u64) {
    let mut command = common::take5_limited(args, libc::RLIMIT_AS, 2 << 30);
    command
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    // Reaped with wait4 below, which gives its peak memory too.
    #[allow(clippy::zombie_processes)]
    let child = command.spawn().expect("take5 runs");
    let pid = child.id() as libc::pid_t;
    // Read its output before reaping it, so the pipes never fill.
    let (stdout, stderr) = (child.stdout, child.stderr);
    let read = |pipe: Option<std::process::ChildStdout>| {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut pipe.unwrap(), &mut bytes).unwrap();
        bytes
    };
    let err_reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut stderr.unwrap(), &mut bytes).unwrap();
        bytes
    });
    let out = read(stdout);
    let err = err_reader.join().unwrap();
    let mut status = 0;
    // SAFETY: a zeroed rusage is valid; wait4 fills it for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    assert_eq!(unsafe { libc::wait4(pid, &mut status, 0, &mut usage) }, pid);
    let output = Output {
        status: std::os::unix::process::ExitStatusExt::from_raw(status),
        stdout: out,
        stderr: err,
    };
    (output, usage.ru_maxrss as u64 * 1024)
}

/// Peak memory a refused endless input may take (the bound).
const MEMORY_BOUND: u64 = 100 << 20;

#[test]
fn stats_stops_at_an_endless_results_line_in_bounded_memory() {
    let (output, peak) = take5_measured(&["stats", "/dev/zero"]);
    refused(
        &output,
        "/dev/zero:1: the line is longer than 8388608 bytes, the longest a results line may be",
    );
    assert!(peak < MEMORY_BOUND, "peak resident memory {peak} bytes");
}

#[test]
fn resume_stops_at_an_endless_results_line_in_bounded_memory() {
    let args = "tournament --bot a=builtin:random --bot b=builtin:lowest --seats 2 --seed 1 \
                --tables round-robin --results /dev/zero --resume";
    let args: Vec<&str> = args.split_whitespace().collect();
    let (output, peak) = take5_measured(&args);
    refused(
        &output,
        "/dev/zero:1: the line is longer than 8388608 bytes, the longest a results line may be",
    );
    assert!(peak < MEMORY_BOUND, "peak resident memory {peak} bytes");
}

#[test]
fn a_record_naming_dev_zero_as_its_house_script_is_refused() {
    refused(
        &take5(&["verify", &record_naming_house("/dev/zero")]),
        "cannot read /dev/zero: not a regular file (a character device)",
    );
}

/// A FIFO nobody writes to, named as a record's house script: verify refuses it at once
/// rather than wait for a writer (were it to wait, the test kills it after a generous while).
#[test]
fn a_record_naming_a_fifo_as_its_house_script_is_refused_without_waiting() {
    let fifo = common::temp("house.lua");
    let name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
    let record = record_naming_house(fifo.to_str().unwrap());
    let mut verify = std::process::Command::new(env!("CARGO_BIN_EXE_take5"))
        .args(["verify", &record])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let ended = common::wait_until(|| verify.try_wait().unwrap().is_some());
    if !ended {
        verify.kill().unwrap();
    }
    let output = verify.wait_with_output().unwrap();
    assert!(ended, "take5 verify waited for the FIFO's writer");
    refused(
        &output,
        &format!(
            "cannot read {}: not a regular file (a FIFO)",
            fifo.display()
        ),
    );
}
