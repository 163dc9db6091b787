//! The state file of a tuning (`DIR/state.jsonl`, docs/tuning.md): a header line that says
//! which tuning it is, then a line per finished iteration, appended and flushed as soon as the
//! iteration is over. It is the trajectory and the state at once: `--resume` reads it, and
//! replays the steps from their games' counts (whole numbers), so a resumed run computes the
//! same thetas, to the bit, as one that was never stopped.

use super::config::{Param, Tune};
use super::spsa::Gains;
use super::{Outcome, Sides};
use crate::tournament::config::Seatings;
use crate::tournament::results::{self, GameHeader, PoolBot};
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::Path;

/// The state file format this take5 writes (the header's `take5_tune`).
pub const FORMAT: u32 = 1;

/// The first line: the tuning, as configured. Two runs are of the same tuning when their
/// headers are equal but for `take5`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    pub take5_tune: u32,
    pub take5: String,
    pub player: String,
    pub params: Vec<Param>,
    pub opponents: Vec<PoolBot>,
    /// The game played (its fields are the line's own).
    #[serde(flatten)]
    pub game: GameHeader,
    pub seed: u64,
    pub iterations: u64,
    pub deals: u64,
    pub seatings: Seatings,
    pub timeout_ms: u64,
    pub dir: Option<String>,
    pub gains: Gains,
}

impl Header {
    pub fn of(tune: &Tune) -> Header {
        Header {
            take5_tune: FORMAT,
            take5: env!("CARGO_PKG_VERSION").to_string(),
            player: tune.template.clone(),
            params: tune.params.clone(),
            opponents: tune.opponents.iter().map(PoolBot::of).collect(),
            game: GameHeader::of(&tune.game),
            seed: tune.seed,
            iterations: tune.iterations,
            deals: tune.deals,
            seatings: tune.seatings,
            timeout_ms: tune.limits.decision.as_millis() as u64,
            dir: tune.dir.as_ref().map(|d| d.display().to_string()),
            gains: tune.gains,
        }
    }

    /// Where `self` and `other` first differ (but for `take5`): the field, and both values.
    pub fn differs(&self, other: &Header) -> Option<(String, String, String)> {
        let (a, b) = (
            serde_json::to_value(self).expect("a header serializes"),
            serde_json::to_value(other).expect("a header serializes"),
        );
        let serde_json::Value::Object(fields) = &a else {
            return None;
        };
        fields
            .keys()
            .filter(|key| key.as_str() != "take5")
            .find_map(|key| results::first_difference(key.clone(), &a[key], &b[key]))
    }
}

/// One finished iteration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// From 1.
    pub iteration: u64,
    /// What it played (its fields are the line's own).
    #[serde(flatten)]
    pub sides: Sides,
    /// How plus did against minus (its fields are the line's own).
    #[serde(flatten)]
    pub outcome: Outcome,
    /// The parameters after it.
    pub next: Vec<f64>,
}

/// What [`open`] found.
pub struct Opened {
    /// Open for appending, and locked while it is open.
    pub file: File,
    /// The iterations finished.
    pub steps: Vec<Step>,
}

/// Opens the state file: a new one started with `header`, or with `resume` an existing one,
/// cut back to its whole lines, whose header must be `header` (but for the take5 version).
/// Locked: a second take5 on it is refused.
pub fn open(path: &Path, resume: bool, header: &Header) -> Result<Opened, String> {
    let has_lines = std::fs::metadata(path).is_ok_and(|m| m.len() > 0);
    if has_lines && !resume {
        return Err(format!(
            "{} exists: continue the tuning with --resume, or give another --out folder",
            path.display()
        ));
    }
    let fail = |e: io::Error| format!("cannot write {}: {e}", path.display());
    let mut file = results::open_locked(path)?;
    let (steps, good) = if has_lines {
        read(&file, path, header)?
    } else {
        (Vec::new(), 0)
    };
    file.set_len(good).map_err(fail)?;
    file.seek(SeekFrom::End(0)).map_err(fail)?;
    if good == 0 {
        write_line(&mut file, header).map_err(fail)?;
    }
    Ok(Opened { file, steps })
}

/// The steps of a state file, and the length of its whole lines (a last line cut short by a
/// kill is dropped: its iteration is played again).
fn read(file: &File, path: &Path, header: &Header) -> Result<(Vec<Step>, u64), String> {
    let mut reader = BufReader::new(file);
    let mut line = String::new();
    let mut good = 0u64;
    let mut steps = Vec::new();
    for number in 1.. {
        line.clear();
        let n = reader
            .read_line(&mut line)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        if n == 0 || !line.ends_with('\n') {
            break;
        }
        if number == 1 {
            let theirs: Header = serde_json::from_str(&line).map_err(|e| {
                format!(
                    "{}:1: not the header of a tuning's state: {e}",
                    path.display()
                )
            })?;
            if let Some((field, theirs, ours)) = theirs.differs(header) {
                return Err(format!(
                    "{}: the state is of another tuning: its header's `{field}` is {theirs}, this tuning's is {ours}",
                    path.display()
                ));
            }
        } else {
            let step: Step = serde_json::from_str(&line).map_err(|e| {
                format!(
                    "{}:{number}: not an iteration of a tuning: {e}",
                    path.display()
                )
            })?;
            steps.push(step);
        }
        good += n as u64;
    }
    Ok((steps, good))
}

fn write_line(file: &mut File, value: &impl Serialize) -> io::Result<()> {
    let mut line = serde_json::to_vec(value).map_err(io::Error::other)?;
    line.push(b'\n');
    file.write_all(&line)?;
    file.flush()
}

/// Appends a finished iteration as one line, written in one call and flushed.
pub fn append(file: &mut File, step: &Step) -> io::Result<()> {
    write_line(file, step)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A step's line holds the sides' and the outcome's fields as its own, in their place, and
    /// reads back; a key it does not know is refused.
    #[test]
    fn a_step_line_holds_its_sides_and_outcome_in_place_and_refuses_unknown_keys() {
        let step = Step {
            iteration: 1,
            sides: Sides {
                theta: vec![0.5],
                delta: vec![1],
                c: vec![0.1],
                plus: vec![0.6],
                minus: vec![0.4],
            },
            outcome: Outcome {
                games: 4,
                ahead: 2,
                behind: 1,
                level: 1,
                difference: -1.5,
            },
            next: vec![0.55],
        };
        let line = serde_json::to_string(&step).unwrap();
        assert_eq!(
            line,
            r#"{"iteration":1,"theta":[0.5],"delta":[1],"c":[0.1],"plus":[0.6],"minus":[0.4],"games":4,"ahead":2,"behind":1,"level":1,"difference":-1.5,"next":[0.55]}"#
        );
        assert_eq!(serde_json::from_str::<Step>(&line).unwrap(), step);
        let extra = line.replace(r#""level":1"#, r#""level":1,"draws":0"#);
        let refused = serde_json::from_str::<Step>(&extra).unwrap_err();
        assert!(refused.to_string().contains("draws"), "{refused}");
    }
}
