//! Plays a fixed number of games between a bot over pipes and a built-in bot, as the `pipes`
//! benchmark does (for profiling the referee's side with callgrind, or counting its system
//! calls with `perf stat --no-inherit -e raw_syscalls:sys_enter`):
//! `cargo run --release --example pipe_games -- 300 "<bot command>"`; the benchmark binary is
//! a minimal bot with `--bench-role bot`.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::Duration;
use take5::players::Player;
use take5::players::builtin::{Builtin, Strategy};
use take5::players::pipe::{PipePlayer, STARTUP_TIMEOUT_MS, StartupLimit};
use take5::referee::{MatchConfig, play_match};
use take5::rules::Rules;
use take5::variants::Variant;

fn main() {
    let mut args = std::env::args().skip(1);
    let games = args.next().and_then(|n| n.parse().ok()).unwrap_or(300);
    let bot = args.next().expect("a bot command");
    let config = MatchConfig {
        variant: Variant::Classic,
        rules: Arc::new(Rules::classic()),
        seed: 1,
        games,
        deals: Vec::new(),
        timeout: Duration::from_secs(5),
        clocks: Vec::new(),
        house: None,
        tournament: None,
    };
    let mut players: Vec<Box<dyn Player>> = vec![
        Box::new(
            PipePlayer::new(
                &bot,
                StartupLimit::flag(Duration::from_millis(STARTUP_TIMEOUT_MS)),
            )
            .expect("a bot command"),
        ),
        Box::new(Builtin::new(Strategy::Lowest, 1)),
    ];
    let mut faults = 0;
    let games = play_match(&config, &mut players, None, |r| {
        faults += r.faults.len();
        ControlFlow::Continue(())
    })
    .expect("a match");
    // The referee's own time (the bot's is not in it), per system call heavy decision.
    // SAFETY: getrusage fills the struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    println!(
        "{games} games, {faults} faults; the referee's time: {:.3} s user, {:.3} s system",
        seconds(usage.ru_utime),
        seconds(usage.ru_stime)
    );
}
