//! Round trips of a short line to a child process and back: plain blocking pipes (the raw
//! baseline) against a supervised [`BotProcess`].
//!
//! ```text
//! cargo run --release --example pingpong -- raw 200000
//! cargo run --release --example pingpong -- supervised 200000   # runs both, prints the ratio
//! ```
//! The peer (this program run as `pingpong peer`) is the same in both modes: it echoes each line.

use std::io::{self, BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use take5::players::process::{BotCommand, BotProcess};

const LINE: &str = "play 42";
const ROUNDS: usize = 3;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = args.first().map(String::as_str).unwrap_or("supervised");
    let n: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(100_000);
    match mode {
        "peer" => peer(),
        "raw" => {
            let rate = best_of(|| raw(n));
            println!("raw:        {rate:>10.0} round trips/s");
        }
        "supervised" => {
            // Alternate, and keep the best of each, so both see the same machine.
            let (mut best_raw, mut best_sup) = (0f64, 0f64);
            for _ in 0..ROUNDS {
                best_raw = best_raw.max(raw(n));
                best_sup = best_sup.max(supervised(n));
            }
            println!("raw:        {best_raw:>10.0} round trips/s");
            println!("supervised: {best_sup:>10.0} round trips/s");
            println!("ratio:      {:>10.3}", best_sup / best_raw);
        }
        _ => {
            eprintln!("usage: pingpong raw|supervised [N]");
            std::process::exit(2);
        }
    }
}

fn best_of(mut run: impl FnMut() -> f64) -> f64 {
    (0..ROUNDS).map(|_| run()).fold(0.0, f64::max)
}

fn exe() -> String {
    std::env::current_exe()
        .expect("own path")
        .into_os_string()
        .into_string()
        .expect("UTF-8 path")
}

/// Echoes lines until EOF: one `read` and one `write` per line.
fn peer() {
    let mut input = io::stdin().lock();
    let mut output = io::stdout().lock();
    let mut line = String::new();
    loop {
        line.clear();
        match input.read_line(&mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                if output.write_all(line.as_bytes()).is_err() || output.flush().is_err() {
                    return;
                }
            }
        }
    }
}

/// Blocking pipes, no deadline: one `write`, one `read` per round trip.
fn raw(n: u64) -> f64 {
    let mut child = Command::new(exe())
        .arg("peer")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn peer");
    let mut to = child.stdin.take().unwrap();
    let mut from = BufReader::new(child.stdout.take().unwrap());
    let request = format!("{LINE}\n");
    let mut reply = String::new();
    let start = Instant::now();
    for _ in 0..n {
        to.write_all(request.as_bytes()).unwrap();
        reply.clear();
        from.read_line(&mut reply).unwrap();
        assert_eq!(reply.len(), request.len());
    }
    let rate = n as f64 / start.elapsed().as_secs_f64();
    drop(to);
    child.wait().unwrap();
    rate
}

/// Through a [`BotProcess`], with a deadline per request as a referee would.
fn supervised(n: u64) -> f64 {
    let mut bot = BotProcess::spawn(&BotCommand::new(exe(), ["peer"])).expect("spawn peer");
    let limit = Duration::from_secs(5);
    let start = Instant::now();
    for _ in 0..n {
        let deadline = Instant::now() + limit;
        bot.send_line(LINE, deadline).unwrap();
        let reply = bot.read_line(deadline).unwrap();
        assert_eq!(reply.len(), LINE.len());
    }
    let rate = n as f64 / start.elapsed().as_secs_f64();
    bot.shutdown(limit);
    rate
}
