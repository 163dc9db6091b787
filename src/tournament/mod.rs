//! Tournaments (docs/tournaments.md): a pool of bots, a schedule of games, results that survive
//! a killed run, games played on several threads, and statistics over the results.
//!
//! A tournament is a list of *tables* (which bots sit together), each playing the same `deals`,
//! each deal once per rotation of the seats, or per permutation (duplicate deals, so the luck of
//! the deal cancels out). Game `id` is `(table * deals + deal) * arrangements + rotation`. Every game is played alone,
//! with players created for it, from a seed derived from the tournament's seed and the deal only,
//! so a game's result does not depend on which thread plays it, nor on what was played before.

pub mod config;
pub mod paired;
pub mod results;
pub mod sprt;
pub mod stats;
pub mod stream;

use crate::game::Outcome;
use crate::house::House;
use crate::players::{Answer, GameStart, Launch, Legality, Player};
use crate::referee::{MatchConfig, MatchHouse, RefereeError, play_match, player_at};
use crate::rng::{GameRng, Stream};
use config::{Seatings, Tournament};
use results::GameResult;
use std::path::Path;
use std::rc::Rc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// One game of the schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scheduled {
    pub id: u64,
    pub table: u64,
    pub deal: u64,
    pub rotation: u64,
    /// The pool index of the bot at each seat.
    pub seating: Vec<usize>,
}

impl Tournament {
    /// The number of games in the whole schedule.
    pub fn games(&self) -> u64 {
        self.tables.len() as u64 * self.deals * self.arrangements()
    }

    /// The seatings each deal is played in: `seats` rotations, or `seats!` permutations.
    pub fn arrangements(&self) -> u64 {
        match self.seatings {
            Seatings::Rotations => self.seats as u64,
            Seatings::Permutations => (1..=self.seats as u64).product(),
        }
    }

    /// Game `id` of the schedule: its table, deal, rotation and seating. The seating of rotation
    /// `r` is the referee's ([`player_at`]): seat `s` holds the table's bot `(s + r) % seats`.
    /// With permutations, `rotation` is the number of the permutation of the table's bots in
    /// lexicographic order (0 the table's own order).
    pub fn game(&self, id: u64) -> Scheduled {
        let arrangements = self.arrangements();
        let rotation = id % arrangements;
        let deal = (id / arrangements) % self.deals;
        let table = id / arrangements / self.deals;
        let bots = &self.tables[table as usize];
        let seating = match self.seatings {
            Seatings::Rotations => (0..self.seats)
                .map(|seat| bots[player_at(rotation, seat, self.seats)])
                .collect(),
            Seatings::Permutations => permutation(bots, rotation),
        };
        Scheduled {
            id,
            table,
            deal,
            rotation,
            seating,
        }
    }
}

/// Permutation number `n` (from 0, lexicographic order of positions) of `items`.
fn permutation(items: &[usize], mut n: u64) -> Vec<usize> {
    let mut left = items.to_vec();
    let mut out = Vec::with_capacity(items.len());
    while !left.is_empty() {
        let block: u64 = (1..left.len() as u64).product();
        out.push(left.remove((n / block) as usize));
        n %= block;
    }
    out
}

/// The seed of deal `deal`: the first 64 bits of stream `Deal(deal)` of the tournament's seed.
/// Every table plays the same deals; within a game, the referee deals from stream `Deal(0)` of
/// this seed and the built-in bots draw from its bot streams.
pub fn deal_seed(seed: u64, deal: u64) -> u64 {
    let mut rng = GameRng::new(seed, Stream::Deal(deal));
    (u64::from(rng.next_u32()) << 32) | u64::from(rng.next_u32())
}

/// A player with its own time limit per decision, whatever the match's is.
struct Limited {
    player: Box<dyn Player>,
    limit: Duration,
}

impl Player for Limited {
    fn name(&self) -> &str {
        self.player.name()
    }
    fn start_game(&mut self, start: &GameStart) -> Answer<()> {
        self.player.start_game(start)
    }
    fn wants_events(&self) -> bool {
        self.player.wants_events()
    }
    fn observe(&mut self, seat: usize, event: &crate::game::Event) -> Answer<()> {
        self.player.observe(seat, event)
    }
    fn decide(
        &mut self,
        view: &crate::game::View,
        legal: Legality,
        _limit: Duration,
    ) -> Answer<crate::game::Action> {
        self.player.decide(view, legal, self.limit)
    }
    fn as_builtin(&mut self) -> Option<&mut crate::players::builtin::Builtin> {
        // A built-in bot has no use for a time limit.
        self.player.as_builtin()
    }
    fn end_game(&mut self, outcome: &Outcome) {
        self.player.end_game(outcome)
    }
    fn finish(&mut self) {
        self.player.finish()
    }
}

/// What one thread needs to play games: the house rules are loaded per thread, since their
/// hooks hold Lua state that must not cross threads.
struct Table<'a> {
    tournament: &'a Tournament,
    house: Option<MatchHouse>,
}

impl<'a> Table<'a> {
    fn new(tournament: &'a Tournament) -> Result<Table<'a>, String> {
        let house = match &tournament.house {
            Some(path) => {
                let house = House::load_with(path, tournament.variant.rules())
                    .map_err(|e| e.to_string())?;
                Some(MatchHouse {
                    script: house.for_record(house.script().to_string()),
                    hooks: Rc::new(house),
                })
            }
            None => None,
        };
        Ok(Table { tournament, house })
    }

    /// Plays game `id` with players started for it (bot processes are started per game). With
    /// `log_io`, each command bot's lines and stderr go to `LOG_IO/game-<id>/<name>.log` and
    /// `.stderr`.
    fn play(&self, id: u64, log_io: Option<&Path>) -> Result<GameResult, String> {
        let t = self.tournament;
        let game = t.game(id);
        let seed = deal_seed(t.seed, game.deal);
        let mut players: Vec<Box<dyn Player>> = Vec::with_capacity(t.seats);
        let game_dir = log_io.map(|dir| dir.join(format!("game-{id}")));
        if let Some(dir) = &game_dir {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        let start = Instant::now();
        for &bot in &game.seating {
            let bot = &t.pool[bot];
            let launch = Launch {
                dir: bot.dir.clone(),
                log: game_dir.as_ref().map(|dir| (dir.join(&bot.name), start)),
            };
            let player = bot
                .player
                .create_with(seed, bot.timeout, &launch)
                .map_err(|e| format!("bot {}: {e}", bot.name))?;
            players.push(Box::new(Limited {
                player,
                limit: bot.timeout,
            }));
        }
        let config = MatchConfig {
            variant: t.variant,
            rules: t.rules.clone(),
            seed,
            games: 1,
            deals: Vec::new(),
            timeout: Duration::from_secs(1),
            house: self.house.clone(),
        };
        let mut report = None;
        play_match(&config, &mut players, None, |r| report = Some(r))
            .map_err(|e: RefereeError| format!("game {id}: {e}"))?;
        let report = report.expect("one game was played");
        // play_match seats the players in the order given for its game 0.
        debug_assert_eq!(report.seating, (0..t.seats).collect::<Vec<_>>());
        Ok(GameResult::new(
            &game,
            t.pool.iter().map(|b| b.name.as_str()),
            &report.outcome,
            report.faults,
        ))
    }
}

/// Plays the games `ids` on `jobs` threads, handing each result to `done` as soon as it is
/// over, on the thread that played it (so results cross no channel and wake no other thread;
/// `done` serializes what must be). Stops at the first error, or when `stop` is set, after the
/// games under way. With `log_io`, bots' lines and stderr are written there (see `Table::play`).
pub fn play(
    tournament: &Tournament,
    ids: &[u64],
    jobs: usize,
    log_io: Option<&Path>,
    stop: &AtomicBool,
    done: impl Fn(GameResult) -> Result<(), String> + Sync,
) -> Result<(), String> {
    let next = AtomicUsize::new(0);
    let first_error: Mutex<Option<String>> = Mutex::new(None);
    let fail = |e: String| {
        first_error
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get_or_insert(e);
    };
    let failed = || {
        first_error
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .is_some()
    };
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1).min(ids.len().max(1)) {
            let (next, done, fail, failed) = (&next, &done, &fail, &failed);
            scope.spawn(move || {
                let table = match Table::new(tournament) {
                    Ok(table) => table,
                    Err(e) => return fail(e),
                };
                loop {
                    if stop.load(Ordering::Relaxed) || failed() {
                        return;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&id) = ids.get(i) else { return };
                    if let Err(e) = table.play(id, log_io).and_then(done) {
                        return fail(e);
                    }
                }
            });
        }
    });
    first_error
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .map_or(Ok(()), Err)
}
