//! `take5 tournament ... --replay ID`: the one `take5 play` command that plays game ID of a
//! tournament again, its record byte for byte the game's record in the tournament's `--record`
//! (docs/tournaments.md, "Every game can be seen again").

use super::config::{Bot, Tournament};
use crate::players::PlayerSpec;
use crate::seat::Clock;
use std::path::Path;
use std::time::Duration;

/// A game's replay command, and what it cannot do as the tournament did.
#[derive(Debug)]
pub struct Replay {
    /// The command's words, `take5` first.
    pub words: Vec<String>,
    /// What the command cannot give as the tournament did (the bots' different time limits:
    /// `take5 play` has one), for the user.
    pub notes: Vec<String>,
}

impl Replay {
    /// The command as one line a shell splits back into its words.
    pub fn line(&self) -> String {
        shlex::try_join(self.words.iter().map(String::as_str))
            .expect("a tournament's paths and commands hold no NUL")
    }
}

/// The command that replays game `id` of `tournament` into the record file `record`, in record
/// format `format`: the game's bots in its seats (in their folders), its seed, variant, house
/// rules, time limits, the bots' sandboxes, and its id and the bots' pool names for the
/// record's header.
pub fn command(
    tournament: &Tournament,
    id: u64,
    format: u32,
    record: &Path,
) -> Result<Replay, String> {
    let total = tournament.games();
    if id >= total {
        return Err(format!(
            "--replay {id}: this tournament has {total} games, ids 0 to {}",
            total - 1
        ));
    }
    let game = tournament.game(id);
    let bots: Vec<&Bot> = game.seating.iter().map(|&b| &tournament.pool[b]).collect();
    let mut words: Vec<String> = ["take5", "play", "--variant", tournament.game.variant.name()]
        .map(String::from)
        .to_vec();
    words.push("--seed".into());
    words.push(tournament.game_seed(game.deal).to_string());
    for (seat, bot) in bots.iter().enumerate() {
        words.extend(["--player".into(), bot.player_text()]);
        words.extend(["--pool-name".into(), bot.name.clone()]);
        if let (PlayerSpec::Command(_), Some(dir)) = (&bot.player, &bot.dir) {
            words.extend(["--player-dir".into(), format!("{seat}={}", dir.display())]);
        }
    }
    let mut notes = Vec::new();
    let command = |b: &&&Bot| matches!(b.player, PlayerSpec::Command(_));
    // `take5 play` has one clock for every bot, as it has one time limit: the largest.
    let clocks: Vec<Option<Clock>> = bots
        .iter()
        .filter(command)
        .map(|b| b.limits.clock)
        .collect();
    let clock = clocks
        .iter()
        .flatten()
        .max_by_key(|c| (c.base_ms, c.increment_ms, c.margin_ms));
    let mut limits: Vec<(&str, Vec<Duration>)> = vec![(
        "--startup-timeout",
        bots.iter().map(|b| b.limits.startup).collect(),
    )];
    match clock {
        Some(clock) => {
            words.extend(["--clock".into(), clock.spec()]);
            if clock.margin_ms > 0 {
                words.extend(["--clock-margin".into(), clock.margin_ms.to_string()]);
            }
            if clocks.iter().any(|c| c.as_ref() != Some(clock)) {
                notes.push(format!(
                    "the bots of game {id} have different clocks (or none), `take5 play` one: \
                     --clock is the largest ({})",
                    clock.spec()
                ));
            }
            notes.push(format!(
                "game {id} was played on a clock: its replay is the same game as long as no bot \
                 ran out of its time, but its record's `clock` lines hold the times measured then"
            ));
        }
        None => limits.insert(
            0,
            (
                "--timeout",
                bots.iter().map(|b| b.limits.decision).collect(),
            ),
        ),
    }
    // `take5 play` has one time limit for every bot: the largest of the table's.
    for (flag, limits) in limits {
        let largest = *limits.iter().max().expect("a table has seats");
        let differ = bots
            .iter()
            .zip(&limits)
            .any(|(b, &l)| matches!(b.player, PlayerSpec::Command(_)) && l != largest);
        if differ {
            notes.push(format!(
                "the bots of game {id} have different limits, `take5 play` one: {flag} is the largest ({} ms); the replay is the same game as long as no bot ran out of its time",
                largest.as_millis()
            ));
        }
        words.extend([flag.to_string(), largest.as_millis().to_string()]);
    }
    words.extend(sandbox_words(&bots)?);
    if let Some(house) = &tournament.game.house {
        words.extend(["--house".into(), house.display().to_string()]);
    }
    if format != crate::record::FORMAT {
        words.extend(["--record-format".into(), format.to_string()]);
    }
    words.extend(["--tournament-game".into(), id.to_string()]);
    words.extend(["--record".into(), record.display().to_string()]);
    Ok(Replay { words, notes })
}

/// The bots' confinement: `--sandbox=SETTINGS` when every bot's command of the table has the
/// same sandbox, else `--player-sandbox SEAT=SETTINGS` for each one confined; nothing when
/// none is.
fn sandbox_words(bots: &[&Bot]) -> Result<Vec<String>, String> {
    let commands: Vec<(usize, &Bot)> = bots
        .iter()
        .enumerate()
        .filter(|(_, b)| matches!(b.player, PlayerSpec::Command(_)))
        .map(|(seat, b)| (seat, *b))
        .collect();
    let settings = |bot: &Bot, sandbox: &crate::players::sandbox::Sandbox| {
        sandbox
            .settings()
            .map_err(|e| format!("--replay: bot {}: {e}", bot.name))
    };
    let mut words = Vec::new();
    match commands.first() {
        Some((_, first)) if commands.iter().all(|(_, b)| b.sandbox == first.sandbox) => {
            if let Some(sandbox) = &first.sandbox {
                words.push(format!("--sandbox={}", settings(first, sandbox)?));
            }
        }
        _ => {
            for (seat, bot) in commands {
                if let Some(sandbox) = &bot.sandbox {
                    words.push("--player-sandbox".into());
                    words.push(format!("{seat}={}", settings(bot, sandbox)?));
                }
            }
        }
    }
    Ok(words)
}
