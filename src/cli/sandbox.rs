//! `--sandbox` (of `play`, `tournament` and `selftest`) as the command line gives it, and
//! `take5 sandbox-check`: what this machine offers it (src/players/sandbox.rs).

use super::{CliError, Status};
use crate::players::sandbox::{self, Limits, Sandbox};
use clap::Args;
use std::io::Write;

/// The help of every `--sandbox` flag, with the defaults.
pub fn help() -> String {
    format!(
        "Confine each bot process (docs/sandbox.md): its files, network, signals and \
         resources. Alone it takes the defaults ({}); settings as \
         --sandbox=memory_mb=512,read=DIR",
        Limits::default().describe()
    )
}

/// Reads the value of `--sandbox[=SETTINGS]`.
pub fn parse(text: &str) -> Result<Sandbox, String> {
    Sandbox::parse(text)
}

/// `take5 sandbox-check`: nothing to set.
#[derive(Args, Debug)]
pub struct SandboxCheckArgs {}

/// Tries the confinement in a child process and tells, step by step, what works here; exit 1
/// when `--sandbox` would be refused.
pub fn run(_args: &SandboxCheckArgs) -> Result<Status, CliError> {
    let support = sandbox::probe();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "take5 sandbox-check: what --sandbox needs, and what this machine has"
    )?;
    let abi = support.landlock_abi;
    let landlock = if abi == 0 {
        "none".to_string()
    } else {
        format!("ABI {abi}")
    };
    writeln!(
        out,
        "  Landlock: {landlock} (needed: ABI {})",
        sandbox::LANDLOCK_ABI
    )?;
    if support.root {
        writeln!(
            out,
            "  take5 runs as root: bots run as nobody ({})",
            sandbox::NOBODY
        )?;
    }
    for (step, result) in &support.steps {
        match result {
            Ok(()) => writeln!(out, "  ok    {}", step.needs())?,
            Err(why) => writeln!(out, "  FAIL  {}: {why}", step.needs())?,
        }
    }
    writeln!(out, "  default limits: {}", Limits::default().describe())?;
    if support.works() {
        writeln!(out, "result: --sandbox works here")?;
        Ok(Status::Passed)
    } else {
        writeln!(out, "result: --sandbox is refused here")?;
        Ok(Status::Failed)
    }
}
