//! `cargo bench` (or `cargo bench -- engine` / `-- pipes`): prints figures, asserts nothing.
//!
//! - engine: 4-player classic games to 66 between built-in random bots, in-process, no record,
//!   through the real referee loop, on one core.
//! - pipes: decisions per second of a minimal compiled bot over pipes, asked by the real referee
//!   (a bot and a built-in, seats rotating), next to a raw ping-pong of one short line between
//!   two minimal processes over blocking pipes, and the same ping-pong through the supervised
//!   process layer alone.
//! - variants: the same measure for the Pro variant (drafted hands), Take a Number, the circle
//!   game and the anniversary variant (its special cards played at random by the random bots).
//! - house: the engine games with a house rule script (src/house): one with settings only (the
//!   classic values, so the games are the same), one with a `row_taken` hook called at every
//!   take (a rule that never fires in classic games, so again the games are the same), and one
//!   whose `row_taken` hook recomputes the row's bullheads card by card with `t.bullheads`.
//!   The games without a script and with each script are measured in turn, a slice each, over
//!   several rounds; each ratio is the median of the rounds' ratios of CPU time (the thread's),
//!   printed with their range and the same of wall time.
//! - house-variants: per variant other than classic, its games without a script, with a
//!   settings-only script (its own defaults restated) and with the `row_taken` hook above,
//!   measured in turn as the house lines are.
//! - mcs: rollouts per second of `builtin:mcs` (src/players/search.rs) per variant, from the
//!   start of a round to its end, next to the engine's classic rounds per second.
//! - tournament: games per second of a `take5 tournament` (4 built-in bots at one table, one
//!   result per game handed back to the calling thread) with 1 and 2 jobs, on every core.
//! - persistent: games per second of `take5 play` and of `take5 tournament` (whole commands,
//!   one job) with the same bots: the Python example bot and two built-ins, then the minimal bot
//!   behind a 100 ms `sleep` (bots live across a tournament's games, so no start-up per game).
//!
//! - records: `take5 play` of 40,000 4-player classic games between built-in bots, without a
//!   record, with a plain one, and with zstd and gzip ones, and with compact (format 2) plain
//!   and zstd ones; then `take5 verify` of each, with its peak memory (the child's VmHWM, from
//!   `wait4`), and of a zstd record and a compact one 10x larger; and how
//!   long the streaming reader takes to reach the last game. Whole runs of the binary, the
//!   best of three, on one core.
//! - stats: `take5 stats` over 10 million result lines (a round robin of 4 bots, 3 seats), as a
//!   child process on one core: lines per second and its peak RSS (from wait4), and whether the
//!   same games split into 10 files (as 10 shards would write them) give the same statistics.
//!
//! The bench binary is also its own peer: run with `--bench-role echo` it echoes lines, with
//! `--bench-role bot` it is the minimal bot (which declines the event lines, as a stateless bot
//! may), with `--bench-role bot-events` the same bot taking them.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::ops::ControlFlow;
use std::process::{Command, Stdio};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use take5::game::model::Model;
use take5::game::{Action, Discard, Event, Game, Outcome, Seat, View};
use take5::house::House;
use take5::players::builtin::{Builtin, Strategy};
use take5::players::pipe::{PipePlayer, StartupLimit};
use take5::players::process::{BotCommand, BotProcess};
use take5::players::sandbox::Sandbox;
use take5::players::search::{
    DEFAULT_OWN, DEFAULT_POLICY, McsOptions, Policies, default_own, rollout,
};
use take5::players::{Answer, Legality, Limit, Player};
use take5::referee::{MatchConfig, MatchHouse, play_match};
use take5::rng::{GameRng, Stream};
use take5::rules::Rules;
use take5::seat::GameStart;
use take5::variants::Variant;
use take5::variants::anniversary::Anniversary;
use take5::variants::circle::Circle;
use take5::variants::classic::Classic;
use take5::variants::pro::Pro;
use take5::variants::take_a_number::TakeANumber;

/// Runs `batch` repeatedly for about `budget` in five slices; returns the best slice's rate of
/// items per second (the least disturbed by whatever else the machine is doing).
fn rate(budget: Duration, mut batch: impl FnMut() -> u64) -> f64 {
    batch(); // warm up
    let mut best: f64 = 0.0;
    for _ in 0..5 {
        let start = Instant::now();
        let mut items = 0;
        while start.elapsed() < budget / 5 {
            items += batch();
        }
        best = best.max(items as f64 / start.elapsed().as_secs_f64());
    }
    best
}

/// The CPU time this thread has used, in seconds (the clock Linux keeps per thread: time the
/// thread waited for a core while other processes ran is not in it).
fn thread_cpu() -> f64 {
    take5::house::sandbox::thread_cpu_time().as_secs_f64()
}

/// One side of a paired measurement: its rates (items per second of wall time and of this
/// thread's CPU time) in each round.
#[derive(Default)]
struct Side {
    wall: Vec<f64>,
    cpu: Vec<f64>,
}

/// Measures `sides` (the first is the baseline) in alternation: `rounds` rounds, each running
/// every side for one slice of about `slice`, in turn (A B C, then C B A, and so on, so that
/// neither side always follows the other), after a warm-up batch of each. A ratio is taken
/// within a round, between slices a second or two apart, so the machine's load, which moves
/// over minutes, weighs on both sides of it alike.
fn interleaved(rounds: usize, slice: Duration, sides: &mut [&mut dyn FnMut() -> u64]) -> Vec<Side> {
    for batch in sides.iter_mut() {
        batch();
    }
    let mut measured: Vec<Side> = sides.iter().map(|_| Side::default()).collect();
    for round in 0..rounds {
        let order: Vec<usize> = if round % 2 == 0 {
            (0..sides.len()).collect()
        } else {
            (0..sides.len()).rev().collect()
        };
        for i in order {
            let (start, cpu) = (Instant::now(), thread_cpu());
            let mut items = 0;
            while start.elapsed() < slice {
                items += sides[i]();
            }
            let (wall, cpu) = (start.elapsed().as_secs_f64(), thread_cpu() - cpu);
            measured[i].wall.push(items as f64 / wall);
            measured[i].cpu.push(items as f64 / cpu);
        }
    }
    measured
}

/// The median of `values` and the least and greatest of them.
fn median_and_range(mut values: Vec<f64>) -> (f64, f64, f64) {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    let median = if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    };
    (median, values[0], values[n - 1])
}

impl Side {
    /// The median rate of wall time over the rounds.
    fn rate(&self) -> f64 {
        median_and_range(self.wall.clone()).0
    }

    /// This side's speed over `baseline`'s (named `name`), round by round: the median ratio of
    /// CPU time and its range, then of wall time, e.g. `0.52x the engine in CPU time
    /// (0.49x-0.55x), 0.51x in wall time (0.41x-0.60x)`.
    fn over(&self, baseline: &Side, name: &str) -> String {
        let ratios = |of: &[f64], by: &[f64]| {
            median_and_range(of.iter().zip(by).map(|(a, b)| a / b).collect())
        };
        let (cpu, cpu_low, cpu_high) = ratios(&self.cpu, &baseline.cpu);
        let (wall, wall_low, wall_high) = ratios(&self.wall, &baseline.wall);
        format!(
            "{cpu:.2}x {name} in CPU time ({cpu_low:.2}x-{cpu_high:.2}x), {wall:.2}x in wall time ({wall_low:.2}x-{wall_high:.2}x)"
        )
    }
}

/// Rounds of the `house` and `house-variants` measurements, and the length of each slice.
const HOUSE_ROUNDS: usize = 9;
const HOUSE_SLICE: Duration = Duration::from_millis(400);

fn config(games: u64) -> MatchConfig {
    MatchConfig {
        variant: Variant::Classic,
        rules: Arc::new(Rules::classic()),
        seed: 1,
        games,
        deals: Vec::new(),
        timeout: Duration::from_secs(5),
        clocks: Vec::new(),
        house: None,
        tournament: None,
    }
}

/// Classic games per second between four built-in random bots, with house rules if given.
fn engine_games_per_second(house: Option<House>) -> f64 {
    variant_games_per_second(Variant::Classic, house)
}

/// Games per second of `variant` between four built-in random bots.
fn variant_games_per_second(variant: Variant, house: Option<House>) -> f64 {
    rate(Duration::from_secs(3), variant_match(variant, house))
}

/// A batch of 200 games of `variant` between four built-in random bots (with house rules if
/// given), to be played again and again: it returns the games played.
fn variant_match(variant: Variant, house: Option<House>) -> impl FnMut() -> u64 {
    let mut config = config(200);
    config.variant = variant;
    config.rules = Arc::new(variant.rules());
    if let Some(house) = house {
        config.rules = Arc::new(house.rules().clone());
        config.house = Some(MatchHouse {
            script: house.for_record(house.script().to_string()),
            hooks: Rc::new(house),
        });
    }
    let mut players: Vec<Box<dyn Player>> = (0..4)
        .map(|_| Box::new(Builtin::new(Strategy::Random, 1)) as Box<dyn Player>)
        .collect();
    move || play_match(&config, &mut players, None, |_| ControlFlow::Continue(())).expect("a match")
}

/// Classic rounds per game in the engine benchmark's games (counted from their events, once).
fn engine_rounds_per_game() -> f64 {
    struct Counting(Builtin, Rc<std::cell::Cell<u64>>);
    impl Player for Counting {
        fn name(&self) -> &str {
            "counting"
        }
        fn start_game(&mut self, start: &GameStart) -> Answer<()> {
            self.0.start_game(start)
        }
        fn wants_events(&self) -> bool {
            true
        }
        fn observe(&mut self, _: Seat, event: &Event) -> Answer<()> {
            if matches!(event, Event::RoundEnd { .. }) {
                self.1.set(self.1.get() + 1);
            }
            Ok(())
        }
        fn decide(&mut self, view: &View, _: Legality, _: Limit) -> Answer<Action> {
            Ok(self.0.choose(view))
        }
    }
    let rounds = Rc::new(std::cell::Cell::new(0));
    let mut players: Vec<Box<dyn Player>> = (0..4)
        .map(|_| Box::new(Builtin::new(Strategy::Random, 1)) as Box<dyn Player>)
        .collect();
    players[0] = Box::new(Counting(Builtin::new(Strategy::Random, 1), rounds.clone()));
    let games = play_match(&config(200), &mut players, None, |_| {
        ControlFlow::Continue(())
    })
    .expect("a match");
    rounds.get() as f64 / games as f64
}

/// Rollouts per second of `start` (a game at the start of a round, or of the circle game)
/// played to the round's end, `own` at seat 0 and `others` at the other seats.
fn rollouts_per_second<G: Model>(start: &G, own: Strategy, others: Strategy) -> f64 {
    let round = start.view(0).round;
    let mut game = start.clone();
    let mut options = McsOptions::default();
    options.players.own = Some(own);
    options.players.policy = others;
    let mut policies = Policies::new(&options, 1);
    rate(Duration::from_secs(3), || {
        for _ in 0..100 {
            game.clone_from(start);
            rollout(&mut game, &mut policies, 0, round);
        }
        100
    })
}

/// `mcs`: rollouts per second on one core, per variant, 4 players, from the start of round 1
/// (what `builtin:mcs` plays thousands of per decision), next to the engine's rounds per second.
fn mcs_rollouts() {
    let engine = engine_games_per_second(None) * engine_rounds_per_game();
    println!(
        "mcs: {engine:>10.0} rounds/s  (the engine benchmark's classic games, counted in rounds)"
    );
    let mut rng = GameRng::new(1, Stream::Deal(0));
    let mut start = Classic::new(Arc::new(Rules::classic()), 4).expect("a game");
    start.deal_random(&mut rng, &mut Discard).expect("a deal");
    let random = rollouts_per_second(&start, Strategy::Random, Strategy::Random);
    println!(
        "mcs: {random:>10.0} rollouts/s  (classic, a round from its start, random bots at every seat: {:.2}x the engine's rounds/s; target >= 0.5x)",
        random / engine
    );
    let mixed = rollouts_per_second(&start, DEFAULT_OWN, DEFAULT_POLICY);
    println!(
        "mcs: {mixed:>10.0} rollouts/s  (classic, the same with mcs's default policies: the dodger at the searching seat, the dodger or random, half and half, at the others)"
    );
    let rules = |variant: Variant| Arc::new(variant.rules());
    let pro = Pro::new(rules(Variant::Pro), 4).expect("a game");
    let mut tan = TakeANumber::new(rules(Variant::TakeANumber), 4).expect("a game");
    tan.deal_random(&mut rng, &mut Discard).expect("a deal");
    let mut circle = Circle::new(rules(Variant::Circle), 4).expect("a game");
    circle.deal_random(&mut rng, &mut Discard).expect("a deal");
    let mut anniversary = Anniversary::new(rules(Variant::Anniversary), 4).expect("a game");
    anniversary
        .deal_random(&mut rng, &mut Discard)
        .expect("a deal");
    let figures = [
        (
            "pro",
            rollouts_per_second(&pro, default_own(Variant::Pro, 4), DEFAULT_POLICY),
            "the draft and the round",
        ),
        (
            "take-a-number",
            rollouts_per_second(&tan, DEFAULT_OWN, DEFAULT_POLICY),
            "a round",
        ),
        (
            "circle",
            rollouts_per_second(&circle, DEFAULT_OWN, DEFAULT_POLICY),
            "the whole game",
        ),
        (
            "anniversary",
            rollouts_per_second(&anniversary, DEFAULT_OWN, DEFAULT_POLICY),
            "a round",
        ),
    ];
    for (name, figure, what) in figures {
        println!(
            "mcs: {figure:>10.0} rollouts/s  ({name}: {what} from its start, mcs's default policies)"
        );
    }
}

fn exe() -> String {
    std::env::current_exe()
        .expect("own path")
        .into_os_string()
        .into_string()
        .expect("a UTF-8 path")
}

/// One short line there and back over blocking pipes: one write and one read on each side.
fn raw_round_trips_per_second() -> f64 {
    let mut child = Command::new(exe())
        .args(["--bench-role", "echo"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the echo peer starts");
    let mut to = child.stdin.take().unwrap();
    let mut from = BufReader::new(child.stdout.take().unwrap());
    let mut reply = String::new();
    let per_second = rate(Duration::from_secs(3), || {
        for _ in 0..2_000 {
            to.write_all(b"play 42\n").unwrap();
            reply.clear();
            from.read_line(&mut reply).unwrap();
        }
        2_000
    });
    drop(to);
    child.wait().unwrap();
    per_second
}

/// The same ping-pong through a supervised [`BotProcess`] (deadlines, non-blocking pipes), to
/// tell the process layer's cost from the protocol's.
fn supervised_round_trips_per_second() -> f64 {
    let mut bot = BotProcess::spawn(&BotCommand::new(exe(), ["--bench-role", "echo"]))
        .expect("the echo peer starts");
    let limit = Duration::from_secs(5);
    let per_second = rate(Duration::from_secs(3), || {
        for _ in 0..2_000 {
            let deadline = Instant::now() + limit;
            bot.send_line("play 42", deadline).unwrap();
            bot.read_line(deadline).unwrap();
        }
        2_000
    });
    bot.shutdown(limit);
    per_second
}

/// Counts the decisions a player is asked for.
struct Counted<P> {
    player: P,
    decisions: Arc<AtomicU64>,
}

impl<P: Player> Player for Counted<P> {
    fn name(&self) -> &str {
        self.player.name()
    }
    fn start_game(&mut self, start: &GameStart) -> Answer<()> {
        self.player.start_game(start)
    }
    fn wants_events(&self) -> bool {
        self.player.wants_events()
    }
    fn observe(&mut self, seat: Seat, event: &Event) -> Answer<()> {
        self.player.observe(seat, event)
    }
    fn decide(&mut self, view: &View, legal: Legality, limit: Limit) -> Answer<Action> {
        self.decisions.fetch_add(1, Ordering::Relaxed);
        self.player.decide(view, legal, limit)
    }
    fn end_game(&mut self, outcome: &Outcome) {
        self.player.end_game(outcome)
    }
    fn finish(&mut self) {
        self.player.finish()
    }
}

/// Decisions per second of the minimal bot (`role`: `bot` declines the event lines, `bot-events`
/// takes them), asked through the referee and the protocol, measured like the ping-pongs (a
/// warm-up, then the best of five slices): matches of 300 games, each with its own bot process
/// (its start and its `bye` are in the time).
fn referee_decisions_per_second(role: &str) -> f64 {
    let config = config(300);
    let decisions = Arc::new(AtomicU64::new(0));
    let startup = StartupLimit::flag(config.timeout);
    let bot = PipePlayer::new(&format!("'{}' --bench-role {role}", exe()), startup)
        .expect("a bot command");
    let mut players: Vec<Box<dyn Player>> = vec![
        Box::new(Counted {
            player: bot,
            decisions: decisions.clone(),
        }),
        Box::new(Builtin::new(Strategy::Lowest, 1)),
    ];
    rate(Duration::from_secs(3), || {
        let before = decisions.load(Ordering::Relaxed);
        play_match(&config, &mut players, None, |_| ControlFlow::Continue(())).expect("a match");
        decisions.load(Ordering::Relaxed) - before
    })
}

/// A match of 300 games (its bot started, greeted and sent `bye` in the time) between the
/// minimal bot, sandboxed or not, and a built-in bot; returns the bot's decisions.
fn minimal_bot_matches(sandbox: Option<Sandbox>) -> impl FnMut() -> u64 {
    let config = config(300);
    let decisions = Arc::new(AtomicU64::new(0));
    let mut command = BotCommand::new(exe(), ["--bench-role", "bot"]);
    command.sandbox = sandbox;
    let startup = StartupLimit::flag(config.timeout);
    let bot = PipePlayer::with_command("minimal bot", command, startup, None).expect("the bot");
    let mut players: Vec<Box<dyn Player>> = vec![
        Box::new(Counted {
            player: bot,
            decisions: decisions.clone(),
        }),
        Box::new(Builtin::new(Strategy::Lowest, 1)),
    ];
    move || {
        let before = decisions.load(Ordering::Relaxed);
        play_match(&config, &mut players, None, |_| ControlFlow::Continue(())).expect("a match");
        decisions.load(Ordering::Relaxed) - before
    }
}

/// Starts of the minimal bot, each to its `hello` and `bye`, sandboxed or not: one per call.
fn minimal_bot_starts(sandbox: Option<Sandbox>) -> impl FnMut() -> u64 {
    let mut command = BotCommand::new(exe(), ["--bench-role", "bot"]);
    command.sandbox = sandbox;
    move || {
        let startup = StartupLimit::flag(Duration::from_secs(10));
        let mut bot = PipePlayer::with_command("minimal bot", command.clone(), startup, None)
            .expect("the bot");
        bot.ready().expect("a hello");
        bot.finish();
        1
    }
}

/// The sandbox group (docs/sandbox.md): the minimal bot's decisions per second over pipes with
/// `--sandbox` and without, and the cost of starting one bot process each way, measured in
/// turn over several rounds.
fn sandbox_bench() {
    let measured = interleaved(
        7,
        Duration::from_millis(1500),
        &mut [
            &mut minimal_bot_matches(None),
            &mut minimal_bot_matches(Some(Sandbox::default())),
        ],
    );
    let [plain, sandboxed] = &measured[..] else {
        unreachable!("two sides")
    };
    println!(
        "sandbox: {:>10.0} decisions/s unsandboxed, {:>10.0} sandboxed ({}; matches of 300 games, the bot started for each; target >= 0.95x)",
        plain.rate(),
        sandboxed.rate(),
        sandboxed.over(plain, "unsandboxed")
    );
    let measured = interleaved(
        7,
        Duration::from_millis(1500),
        &mut [
            &mut minimal_bot_starts(None),
            &mut minimal_bot_starts(Some(Sandbox::default())),
        ],
    );
    let [plain, sandboxed] = &measured[..] else {
        unreachable!("two sides")
    };
    println!(
        "sandbox: a bot process's start to its hello and bye: {:.2} ms unsandboxed, {:.2} ms sandboxed ({:.2} ms more; median of 7 rounds)",
        1000.0 / plain.rate(),
        1000.0 / sandboxed.rate(),
        1000.0 / sandboxed.rate() - 1000.0 / plain.rate()
    );
}

/// The yardstick for the engine line: the same games (4 players, classic deck and rules, to
/// 66, random cards, a random row for a low card) in a minimal hand-written loop over fixed
/// arrays, with no interfaces, no validation and no events. Returns the games played.
fn minimal_loop_games(games: u64) -> u64 {
    use take5::cards::classic_bullheads;
    use take5::rng::{GameRng, Stream};
    let heads: Vec<u8> = (0..=104).map(classic_bullheads).collect();
    let mut rng = GameRng::new(1, Stream::Deal(0));
    let mut checksum = 0u64;
    for _ in 0..games {
        let mut scores = [0u32; 4];
        while scores.iter().all(|&s| s < 66) {
            let mut deck: [u8; 104] = std::array::from_fn(|i| i as u8 + 1);
            for i in (60..104).rev() {
                let j = rng.below(i as u32 + 1) as usize;
                deck.swap(i, j);
            }
            let mut hands = [[0u8; 10]; 4];
            let mut sizes = [10usize; 4];
            for (p, hand) in hands.iter_mut().enumerate() {
                hand.copy_from_slice(&deck[60 + p * 10..70 + p * 10]);
            }
            let mut rows = [[0u8; 6]; 4];
            let mut lens = [1usize; 4];
            for r in 0..4 {
                rows[r][0] = deck[100 + r];
            }
            for _ in 0..10 {
                let mut played = [(0u8, 0usize); 4];
                for p in 0..4 {
                    let i = rng.below(sizes[p] as u32) as usize;
                    played[p] = (hands[p][i], p);
                    sizes[p] -= 1;
                    hands[p][i] = hands[p][sizes[p]];
                }
                played.sort_unstable();
                for (card, p) in played {
                    let mut best = 4;
                    for r in 0..4 {
                        let end = rows[r][lens[r] - 1];
                        if end < card && (best == 4 || end > rows[best][lens[best] - 1]) {
                            best = r;
                        }
                    }
                    if best == 4 || lens[best] == 5 {
                        if best == 4 {
                            best = rng.below(4) as usize;
                        }
                        scores[p] += rows[best][..lens[best]]
                            .iter()
                            .map(|&c| u32::from(heads[c as usize]))
                            .sum::<u32>();
                        lens[best] = 0;
                    }
                    rows[best][lens[best]] = card;
                    lens[best] += 1;
                }
            }
        }
        checksum += u64::from(scores[0]);
    }
    std::hint::black_box(checksum);
    games
}

/// Runs this process, and the peers and bots it starts (they inherit it), on the core it is on
/// now: the figures are per core, and a ping-pong between two cores measures the machine's
/// cross-core wake-ups (which vary a lot with whatever else runs) more than the code.
fn pin_to_one_core() {
    // SAFETY: plain system calls on a zeroed, then filled, cpu_set_t of our own.
    unsafe {
        let cpu = libc::sched_getcpu();
        if cpu >= 0 {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_SET(cpu as usize, &mut set);
            libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set);
        }
    }
}

/// The echo peer of the raw ping-pong.
fn echo() {
    let mut input = io::stdin().lock();
    let mut output = io::stdout().lock();
    let mut line = String::new();
    while matches!(input.read_line(&mut line), Ok(n) if n > 0) {
        if output
            .write_all(line.as_bytes())
            .and_then(|()| output.flush())
            .is_err()
        {
            return;
        }
        line.clear();
    }
}

/// The minimal bot: hello, the first card of its hand, row 0. It is ours, so it is minimal: raw
/// bytes read into one buffer (no `String`, no UTF-8 check), the replies to all the lines of a
/// read written at once from a reused buffer. With `events`, it takes the event lines (and skips
/// them); without, it declines them in its hello.
fn minimal_bot(events: bool) {
    use std::os::fd::FromRawFd;
    // SAFETY: fds 0 and 1 are open for the whole run and are never closed through these.
    let (mut input, mut output) = unsafe {
        (
            std::mem::ManuallyDrop::new(std::fs::File::from_raw_fd(0)),
            std::mem::ManuallyDrop::new(std::fs::File::from_raw_fd(1)),
        )
    };
    let mut buf = vec![0u8; 1 << 16];
    let mut replies = Vec::with_capacity(256);
    let mut end = 0;
    loop {
        if end == buf.len() {
            end = 0; // a line this long is nothing the referee sends: drop it
        }
        let n = match input.read(&mut buf[end..]) {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        let filled = end + n;
        let (mut start, mut scan) = (0, end);
        while let Some(i) = buf[scan..filled].iter().position(|&b| b == b'\n') {
            let line = &buf[start..scan + i];
            if line.starts_with(b"ask play") {
                let hand = line
                    .windows(6)
                    .position(|w| w == b" hand=")
                    .map_or(&[][..], |at| &line[at + 6..]);
                let digits = hand.iter().take_while(|b| b.is_ascii_digit()).count();
                replies.extend_from_slice(b"play ");
                replies.extend_from_slice(&hand[..digits]);
                replies.push(b'\n');
            } else if line.starts_with(b"ask row") {
                replies.extend_from_slice(b"row 0\n");
            } else if line.starts_with(b"hello") {
                replies.extend_from_slice(if events {
                    b"hello version=1 name=minimal\n"
                } else {
                    b"hello version=1 name=minimal events=no\n"
                });
            } else if line.starts_with(b"bye") {
                let _ = output.write_all(&replies);
                return;
            }
            start = scan + i + 1;
            scan = start;
        }
        buf.copy_within(start..filled, 0);
        end = filled - start;
        if !replies.is_empty() {
            if output.write_all(&replies).is_err() {
                return;
            }
            replies.clear();
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(i) = args.iter().position(|a| a == "--bench-role") {
        match args.get(i + 1).map(String::as_str) {
            Some("echo") => echo(),
            Some("bot") => minimal_bot(false),
            Some("bot-events") => minimal_bot(true),
            other => panic!("unknown bench role {other:?}"),
        }
        return;
    }
    pin_to_one_core();
    // `cargo bench` passes --bench; other arguments select benchmarks by name.
    let filter: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    let wanted = |name: &str| filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str()));
    if wanted("engine") {
        let games = engine_games_per_second(None);
        println!(
            "engine: {games:>10.0} games/s  (4 players, classic to 66, built-in random bots, one core, no record; target >= 150000)"
        );
        let minimal = rate(Duration::from_secs(3), || minimal_loop_games(200));
        println!(
            "engine: {minimal:>10.0} games/s  (the same games in a minimal hand-written loop, the yardstick; take5 is {:.2}x of it)",
            games / minimal
        );
    }
    if wanted("variants") {
        for variant in OTHER_VARIANTS {
            let games = variant_games_per_second(variant, None);
            println!(
                "variants: {games:>10.0} games/s  ({}: 4 players, built-in random bots, one core, no record)",
                variant.name()
            );
        }
    }
    if wanted("mcs") {
        mcs_rollouts();
    }
    if wanted("house") {
        let script = |name: &str, text: &str| {
            House::from_source(name, text.as_bytes(), Rules::classic()).expect("the script loads")
        };
        let measured = interleaved(
            HOUSE_ROUNDS,
            HOUSE_SLICE,
            &mut [
                &mut variant_match(Variant::Classic, None),
                &mut variant_match(
                    Variant::Classic,
                    Some(script("settings.lua", SETTINGS_ONLY)),
                ),
                &mut variant_match(
                    Variant::Classic,
                    Some(script("row_taken.lua", ROW_TAKEN_HOOK)),
                ),
                &mut variant_match(
                    Variant::Classic,
                    Some(script("per_card.lua", PER_CARD_HOOK)),
                ),
            ],
        );
        let [plain, settings, row_taken, per_card] = &measured[..] else {
            unreachable!("four sides")
        };
        println!(
            "house engine: {:>10.0} games/s  (no script, the baseline; median of {HOUSE_ROUNDS} rounds, each side in turn; ratios in CPU time, median and range over the rounds)",
            plain.rate()
        );
        println!(
            "house settings: {:>10.0} games/s  ({}; a script with settings only; target >= 0.9x)",
            settings.rate(),
            settings.over(plain, "the engine")
        );
        println!(
            "house row_taken: {:>10.0} games/s  ({}; a Lua row_taken hook at every take; target >= 0.5x)",
            row_taken.rate(),
            row_taken.over(plain, "the engine")
        );
        println!(
            "house row_taken per card: {:>10.0} games/s  ({}; the hook calls t.bullheads for each card taken)",
            per_card.rate(),
            per_card.over(plain, "the engine")
        );
    }
    if wanted("house-variants") {
        for variant in OTHER_VARIANTS {
            let rules = variant.rules();
            let script = |name: &str, text: &str| {
                House::from_source(name, text.as_bytes(), rules.clone()).expect("the script loads")
            };
            // The variant's own defaults, restated, its own settings too.
            let settings = format!(
                "return {{ min_players = {}, max_players = {}, {} }}",
                rules.min_players,
                rules.max_players,
                own_defaults(variant, &rules)
            );
            let measured = interleaved(
                HOUSE_ROUNDS,
                HOUSE_SLICE,
                &mut [
                    &mut variant_match(variant, None),
                    &mut variant_match(variant, Some(script("settings.lua", &settings))),
                    &mut variant_match(variant, Some(script("row_taken.lua", ROW_TAKEN_HOOK))),
                ],
            );
            let [plain, with, hooked] = &measured[..] else {
                unreachable!("three sides")
            };
            println!(
                "house-variants: {}: {:.0} games/s; settings only {:.0} ({}; target >= 0.9x); row_taken at every take {:.0} ({}; target >= 0.5x)",
                variant.name(),
                plain.rate(),
                with.rate(),
                with.over(plain, "without"),
                hooked.rate(),
                hooked.over(plain, "without")
            );
        }
    }
    if wanted("tournament") {
        tournament_bench();
    }
    if wanted("records") {
        records_bench();
    }
    if wanted("persistent") {
        persistent_bench();
    }
    if wanted("stats") {
        stats_bench();
    }
    if wanted("sandbox") {
        sandbox_bench();
    }
    if wanted("pipes") {
        let raw = raw_round_trips_per_second();
        let supervised = supervised_round_trips_per_second();
        let stateless = referee_decisions_per_second("bot");
        let following = referee_decisions_per_second("bot-events");
        println!(
            "pipes:  {raw:>10.0} round trips/s  (raw ping-pong of one line between two processes)"
        );
        println!(
            "pipes:  {supervised:>10.0} round trips/s  (the same through take5's supervised process)"
        );
        println!(
            "pipes:  {stateless:>10.0} decisions/s   (a minimal bot asked by the referee over the protocol, events declined: {:.2}x raw; target >= 0.8)",
            stateless / raw
        );
        println!(
            "pipes:  {following:>10.0} decisions/s   (the same bot taking the event lines: {:.2}x raw)",
            following / raw
        );
    }
}

/// Games per second of a tournament of built-ins with `jobs` threads (whole tournaments of
/// `deals` deals x 4 rotations, the best of five slices).
fn tournament_games_per_second(jobs: usize) -> f64 {
    let yaml = "bots:
  - {name: random, player: 'builtin:random'}
  - {name: lowest, player: 'builtin:lowest'}
  - {name: highest, player: 'builtin:highest'}
  - {name: dodger, player: 'builtin:dodger'}
seats: 4
deals: 5000
seed: 1
format: round-robin
";
    let tournament =
        take5::tournament::config::parse(yaml, std::path::Path::new("bench.yaml")).unwrap();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let run = take5::tournament::Run {
        jobs,
        log_io: None,
        record: None,
        record_format: take5::record::FORMAT,
        stop: &stop,
    };
    rate(Duration::from_secs(5), || {
        let games = AtomicU64::new(0);
        let todo = take5::tournament::Todo::new(tournament.games(), None, Vec::new());
        let notice = |_: &str| {};
        take5::tournament::play(&tournament, &todo, &run, notice, |finished| {
            std::hint::black_box(finished);
            games.fetch_add(1, Ordering::Relaxed);
            Ok(())
        })
        .expect("the tournament plays");
        games.into_inner()
    })
}

/// The CPU seconds (user and system) of this process's waited-for children so far, their
/// children included.
fn children_cpu() -> f64 {
    // SAFETY: getrusage fills the zeroed struct of our own.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage
    };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}

/// Seconds `take5 ARGS` takes, and the CPU seconds it and its bots used (it must succeed).
fn timed_take5(args: &[&str]) -> (f64, f64) {
    let cpu = children_cpu();
    let start = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_take5"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .expect("take5 runs");
    assert!(
        output.status.success(),
        "take5 {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    (start.elapsed().as_secs_f64(), children_cpu() - cpu)
}

/// How `take5 play` or `take5 tournament` did: games per second (wall clock) and CPU
/// milliseconds per game (take5 and its bots together).
struct Speed {
    games_per_second: f64,
    cpu_ms_per_game: f64,
}

/// The speed of `take5 play` and of `take5 tournament` (one job) with the same bots, the
/// command bot `bot` and two built-ins at one table, over `deals` deals x 3 rotations: the
/// whole commands, start-up and all, the best of seven runs each, the two taking turns (so a
/// busy moment of the machine does not fall on one of them only).
fn play_and_tournament(bot: &str, deals: u64) -> (Speed, Speed) {
    let games = deals * 3;
    let dir = std::env::temp_dir().join(format!("take5-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let games_text = games.to_string();
    let play_once = || {
        timed_take5(&[
            "play",
            "--player",
            bot,
            "--player",
            "builtin:random",
            "--player",
            "builtin:dodger",
            "--games",
            &games_text,
            "--seed",
            "1",
            "--quiet",
        ])
    };
    let results = dir.join("results.jsonl");
    let bot_flag = format!("bot={bot}");
    let deals_text = deals.to_string();
    let tournament_once = || {
        let _ = std::fs::remove_file(&results);
        timed_take5(&[
            "tournament",
            "--bot",
            &bot_flag,
            "--bot",
            "random=builtin:random",
            "--bot",
            "dodger=builtin:dodger",
            "--seats",
            "3",
            "--deals",
            &deals_text,
            "--seed",
            "1",
            "--tables",
            "round-robin",
            "--jobs",
            "1",
            "--results",
            results.to_str().expect("a UTF-8 path"),
        ])
    };
    let best = |a: (f64, f64), b: (f64, f64)| (a.0.min(b.0), a.1.min(b.1));
    let (mut play, mut tournament) = (
        (f64::INFINITY, f64::INFINITY),
        (f64::INFINITY, f64::INFINITY),
    );
    for _ in 0..7 {
        play = best(play, play_once());
        tournament = best(tournament, tournament_once());
    }
    let _ = std::fs::remove_dir_all(&dir);
    let speed = |(wall, cpu): (f64, f64)| Speed {
        games_per_second: games as f64 / wall,
        cpu_ms_per_game: cpu * 1000.0 / games as f64,
    };
    (speed(play), speed(tournament))
}

/// The persistent group: the same number of games between the same bots through `take5 play`
/// and through `take5 tournament` (bots kept alive across games), with the Python example bot,
/// and with the minimal bot behind a 100 ms `sleep` (a start-up cost per game would show).
fn persistent_bench() {
    let python = format!(
        "python3 {}/scripts/bots/python_bot.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let (play, tournament) = play_and_tournament(&python, 100);
    println!(
        "persistent: {:>8.1} games/s with take5 play, {:>8.1} with take5 tournament ({:.2}x; the Python example bot and two built-ins, 300 games; target >= 0.9x); CPU {:.3} and {:.3} ms a game",
        play.games_per_second,
        tournament.games_per_second,
        tournament.games_per_second / play.games_per_second,
        play.cpu_ms_per_game,
        tournament.cpu_ms_per_game,
    );
    let slow = format!("sh -c 'sleep 0.1; exec {} --bench-role bot'", exe());
    let (play, tournament) = play_and_tournament(&slow, 100);
    let per_game_ms = (1.0 / tournament.games_per_second - 1.0 / play.games_per_second) * 1000.0;
    println!(
        "persistent: {:>8.1} games/s with take5 play, {:>8.1} with take5 tournament ({:.2}x; a bot that sleeps 100 ms before it starts, 300 games: {per_game_ms:.2} ms more a game, against 100 ms if it were started per game); CPU {:.3} and {:.3} ms a game",
        play.games_per_second,
        tournament.games_per_second,
        tournament.games_per_second / play.games_per_second,
        play.cpu_ms_per_game,
        tournament.cpu_ms_per_game,
    );
}

/// The tournament group: unlike the others it needs every core, so it lifts the pinning for
/// its own measure and puts it back after.
fn tournament_bench() {
    // SAFETY: plain system calls on cpu_set_t values of our own.
    let pinned = unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set);
        let mut all: libc::cpu_set_t = std::mem::zeroed();
        for cpu in 0..libc::CPU_SETSIZE as usize {
            libc::CPU_SET(cpu, &mut all);
        }
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &all);
        set
    };
    let one = tournament_games_per_second(1);
    let two = tournament_games_per_second(2);
    println!(
        "tournament: {one:>10.0} games/s  (1 job: 4 built-in bots, classic, each result handed to a callback)"
    );
    println!(
        "tournament: {two:>10.0} games/s  (2 jobs; {:.2}x one job; target >= 1.8x)",
        two / one
    );
    // SAFETY: as above.
    unsafe {
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &pinned);
    }
}

/// Settings only: the classic values, so the games are the engine's own.
const SETTINGS_ONLY: &str = r#"
return {
  rows = 4, row_capacity = 5, hand_size = 10, target_score = 66, ties = "shared",
}
"#;

/// A variant's row capacity and own settings at their defaults (docs/house-rules.md,
/// "Settings per variant"; Take a Number's `takes_at` gives its row capacity).
fn own_defaults(variant: Variant, rules: &take5::rules::Rules) -> String {
    let own = match variant {
        Variant::Pro => "pro_deck = { per_player = 10, extra = 4 }",
        Variant::TakeANumber => return "takes_at = { 3, 4, 5 }, hash_pile_multiplier = 2".into(),
        Variant::Circle => {
            "cards_per_turn = 3, plus5_points = 5, x2_multiplier = 2, held_penalty = 10, \
             green_multiplier = 1, red_multiplier = 1"
        }
        Variant::Anniversary => "specials = { shift = 4 }, specials_dealt = 3, swapping = true",
        Variant::Classic => "",
    };
    format!("row_capacity = {}, {own}", rules.row_capacity)
}

/// The variants besides classic, which the `engine` and `house` lines measure.
const OTHER_VARIANTS: [Variant; 4] = [
    Variant::Pro,
    Variant::TakeANumber,
    Variant::Circle,
    Variant::Anniversary,
];

/// A hook at every take that never changes a game (no row holds 100 cards).
const ROW_TAKEN_HOOK: &str = r#"
return {
  row_taken = function(t, seat, row, cards, bullheads)
    if #cards > 100 then
      return 0
    end
    return bullheads
  end,
}
"#;

/// A hook at every take that recomputes what the engine would answer, card by card.
const PER_CARD_HOOK: &str = r#"
return {
  row_taken = function(t, seat, row, cards, bullheads)
    local n = 0
    for i = 1, #cards do
      n = n + t.bullheads(cards[i])
    end
    return n
  end,
}
"#;

/// A run of the take5 binary: its wall time and CPU time (user and system) in seconds, and its
/// peak resident memory in KiB.
fn run_take5(args: &[&str]) -> (f64, f64, u64) {
    let (_, seconds, cpu, rss) = run_take5_reading(args, false);
    (seconds, cpu, rss)
}

/// [`run_take5`], with what it printed on stdout if `read_stdout` (else it goes nowhere).
#[allow(clippy::zombie_processes)] // reaped by wait4, which also gives its rusage
fn run_take5_reading(args: &[&str], read_stdout: bool) -> (Vec<u8>, f64, f64, u64) {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_take5"))
        .args(args)
        .stdout(if read_stdout {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .spawn()
        .expect("take5 starts");
    let mut out = Vec::new();
    if let Some(mut stdout) = child.stdout.take() {
        stdout.read_to_end(&mut out).expect("take5's output");
    }
    let mut status = 0;
    // SAFETY: a zeroed rusage is valid; wait4 fills it for this child only.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    let seconds = start.elapsed().as_secs_f64();
    assert_eq!(pid, child.id() as i32, "wait4");
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "take5 {args:?} failed"
    );
    let time = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    let cpu = time(usage.ru_utime) + time(usage.ru_stime);
    (out, seconds, cpu, usage.ru_maxrss as u64)
}

/// The best (shortest) wall and CPU times of `n` runs, and the largest peak memory among them.
fn best_of(n: usize, args: &[&str]) -> (f64, f64, u64) {
    (0..n).fold((f64::MAX, f64::MAX, 0), |(t, c, m), _| {
        let (t2, c2, m2) = run_take5(args);
        (t.min(t2), c.min(c2), m.max(m2))
    })
}

/// Games per second of wall time and of CPU time.
#[derive(Clone, Copy)]
struct Rate {
    wall: f64,
    cpu: f64,
}

impl Rate {
    fn of(games: u64, (wall, cpu, _): (f64, f64, u64)) -> Rate {
        Rate {
            wall: games as f64 / wall,
            cpu: games as f64 / cpu,
        }
    }

    /// This rate over `other`'s, in wall time and in CPU time.
    fn over(self, other: Rate) -> String {
        format!(
            "{:.2}x (CPU time: {:.2}x)",
            self.wall / other.wall,
            self.cpu / other.cpu
        )
    }
}

fn records_bench() {
    const GAMES: u64 = 40_000;
    let dir = std::env::temp_dir().join("take5-bench-records");
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let path = |name: &str| {
        dir.join(name)
            .into_os_string()
            .into_string()
            .expect("UTF-8")
    };
    let play = |games: u64, record: Option<(&str, &str)>, runs: usize| {
        let games = games.to_string();
        let mut args = vec!["play", "-q", "--seed", "1", "--games", &games];
        for _ in 0..4 {
            args.extend(["-p", "builtin:random"]);
        }
        if let Some((record, format)) = record {
            args.extend(["--record", record, "--record-format", format]);
        }
        let args: Vec<String> = args.into_iter().map(String::from).collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        best_of(runs, &args)
    };
    let plain = Rate::of(GAMES, play(GAMES, None, 3));
    println!(
        "records: {:>10.0} games/s  ({:.0} per CPU second; take5 play, 40,000 4-player classic games, built-in random bots, no record)",
        plain.wall, plain.cpu
    );
    let mut written = Vec::new();
    for (name, what, format) in [
        ("big.jsonl", "a plain record", "1"),
        ("big.jsonl.zst", "a zstd record", "1"),
        ("big.jsonl.gz", "a gzip record", "1"),
        ("big2.jsonl", "a plain compact record (format 2)", "2"),
        ("big2.jsonl.zst", "a zstd compact record (format 2)", "2"),
    ] {
        let file = path(name);
        let games = Rate::of(GAMES, play(GAMES, Some((&file, format)), 3));
        let size = std::fs::metadata(&file).map_or(0, |m| m.len());
        println!(
            "records: {:>10.0} games/s  ({:.0} per CPU second; the same with {what}: {} without; {:.1} MB, {:.0} bytes a game; target >= 0.5x)",
            games.wall,
            games.cpu,
            games.over(plain),
            size as f64 / 1e6,
            size as f64 / GAMES as f64
        );
        written.push((file, what, games));
    }
    for (file, what, recording) in &written {
        let run = best_of(3, &["verify", file]);
        let games = Rate::of(GAMES, run);
        println!(
            "records: {:>10.0} games/s  ({:.0} per CPU second; take5 verify of {what}: {} its recording; peak RSS {:.1} MB; target >= 1x, < 64 MB)",
            games.wall,
            games.cpu,
            games.over(*recording),
            run.2 as f64 / 1024.0
        );
    }
    // The reader that `take5 show --game N` uses, to the last game of the zstd record.
    let zst = &written[1].0;
    let start = Instant::now();
    let input = take5::record::open(zst.as_ref()).expect("the record opens");
    let mut games = take5::record::Games::new(take5::record::LineReader::new(input));
    let last = games
        .skip_to(GAMES - 1)
        .expect("the record reads")
        .expect("the last game is there");
    println!(
        "records: {:>10.2} s        (the streaming reader skips to game {} of the zstd record, line {})",
        start.elapsed().as_secs_f64(),
        last.header.game,
        last.line
    );
    // Ten times larger: verify's memory must not grow with the file.
    let mut larger = Vec::new();
    for (name, what, format) in [
        ("large.jsonl.zst", "a zstd record", "1"),
        ("large2.jsonl", "a plain compact record", "2"),
    ] {
        let large = path(name);
        play(GAMES * 10, Some((&large, format)), 1);
        let run = run_take5(&["verify", &large]);
        let games = Rate::of(GAMES * 10, run);
        println!(
            "records: {:>10.0} games/s  ({:.0} per CPU second; take5 verify of {what} of 400,000 games, {:.1} MB; peak RSS {:.1} MB; target < 64 MB)",
            games.wall,
            games.cpu,
            std::fs::metadata(&large).map_or(0, |m| m.len()) as f64 / 1e6,
            run.2 as f64 / 1024.0
        );
        larger.push(large);
    }
    // Keep the zstd record for `take5 verify` / `take5 show` by hand; drop the rest.
    for (file, _, _) in &written[..] {
        if file != zst {
            let _ = std::fs::remove_file(file);
        }
    }
    for large in &larger {
        let _ = std::fs::remove_file(large);
    }
    println!("records: the 40,000-game zstd record is kept at {zst}");
}

/// Writes `games` synthetic result lines of a round robin of 4 bots at 3 seats (ids in order,
/// but each two neighbours swapped, as jobs finish them) to `big`, and the same lines to
/// `parts` (line `i` of them to part `id % parts.len()`, as shards would write them).
fn write_results(games: u64, big: &std::path::Path, parts: &[std::path::PathBuf]) {
    use std::io::BufWriter;
    let open =
        |p: &std::path::Path| BufWriter::with_capacity(1 << 20, std::fs::File::create(p).unwrap());
    let mut all = open(big);
    let mut shards: Vec<_> = parts.iter().map(|p| open(p)).collect();
    let tables: [[usize; 3]; 4] = [[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]];
    let names = ["random", "lowest", "highest", "dodger"];
    let deals = games.div_ceil(12);
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut line = String::new();
    for pair in 0..games.div_ceil(2) {
        for id in [2 * pair + 1, 2 * pair] {
            if id >= games {
                continue;
            }
            let rotation = id % 3;
            let deal = (id / 3) % deals;
            let table = id / 3 / deals;
            let bots = tables[table as usize];
            let mut totals = [0i32; 3];
            for t in &mut totals {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                *t = (x % 90) as i32;
            }
            let ranks: Vec<u32> = (0..3)
                .map(|s| 1 + (0..3).filter(|&o| totals[o] < totals[s]).count() as u32)
                .collect();
            let winners: Vec<String> = (0..3)
                .filter(|&s| ranks[s] == 1)
                .map(|s| s.to_string())
                .collect();
            line.clear();
            use std::fmt::Write as _;
            let seat = |s: u64| names[bots[((s + rotation) % 3) as usize]];
            let _ = writeln!(
                line,
                "{{\"game\":{id},\"table\":{table},\"deal\":{deal},\"rotation\":{rotation},\"seating\":[\"{}\",\"{}\",\"{}\"],\"totals\":[{},{},{}],\"ranks\":[{},{},{}],\"winners\":[{}],\"faults\":[]}}",
                seat(0),
                seat(1),
                seat(2),
                totals[0],
                totals[1],
                totals[2],
                ranks[0],
                ranks[1],
                ranks[2],
                winners.join(",")
            );
            all.write_all(line.as_bytes()).unwrap();
            let k = (id % parts.len() as u64) as usize;
            shards[k].write_all(line.as_bytes()).unwrap();
        }
    }
    all.flush().unwrap();
    for s in &mut shards {
        s.flush().unwrap();
    }
}

/// Runs `take5 stats --format json FILES`: its output, wall-clock seconds, the CPU seconds it
/// used (user and system), and its peak RSS in bytes.
fn run_stats(files: &[std::path::PathBuf]) -> (Vec<u8>, f64, f64, u64) {
    let mut args = vec!["stats".to_string(), "--format".into(), "json".into()];
    args.extend(files.iter().map(|f| f.display().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (out, seconds, cpu, rss_kib) = run_take5_reading(&args, true);
    // ru_maxrss is in kilobytes on Linux.
    (out, seconds, cpu, rss_kib * 1024)
}

fn stats_bench() {
    let dir = std::env::temp_dir().join(format!("take5-bench-stats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let games = 10_000_000;
    let big = dir.join("all.jsonl");
    let parts: Vec<std::path::PathBuf> = (1..=10)
        .map(|k| dir.join(format!("shard-{k}.jsonl")))
        .collect();
    write_results(games, &big, &parts);
    let (one, seconds, cpu, rss) = run_stats(std::slice::from_ref(&big));
    println!(
        "stats: {:>10.0} lines/s  (take5 stats over {games} result lines in one file, one core, per second of its CPU time; target >= 1000000)",
        games as f64 / cpu
    );
    println!(
        "stats: {:>10.0} lines/s  (the same by the wall clock, which counts whatever else the core runs)",
        games as f64 / seconds
    );
    println!(
        "stats: {:>10.1} MB peak RSS  (the same run; target < 100 MB)",
        rss as f64 / 1e6
    );
    let (ten, _, cpu, rss) = run_stats(&parts);
    println!(
        "stats: {:>10.0} lines/s  (the same lines in 10 files, per CPU second; {:.1} MB peak RSS; same statistics: {})",
        games as f64 / cpu,
        rss as f64 / 1e6,
        if one == ten { "yes" } else { "NO" }
    );
    let _ = std::fs::remove_dir_all(&dir);
}
