//! `take5 selftest "BOT COMMAND"`: a bot's compliance test (src/selftest/): a checklist of
//! PASS / FAIL items per variant, with the bot's decision and start-up times.

use super::check::Format;
use super::{CliError, Status};
use crate::players::pipe::{DECISION_TIMEOUT_MS, STARTUP_TIMEOUT_MS};
use crate::seat::TimeLimits;
use crate::selftest::{self, Config, Report, Said, Times, Verdict};
use crate::variants::Variant;
use crate::visible::visible_lines;
use clap::Args;
use std::io::{self, Write};
use std::time::Duration;

#[derive(Args, Debug)]
pub struct SelftestArgs {
    /// The bot's command line (split like a shell would, without running one).
    #[arg(value_name = "BOT COMMAND")]
    bot: String,
    /// The variant to test, or `all` (the default).
    #[arg(long, value_name = "VARIANT", default_value = "all", value_parser = parse_variant)]
    variant: Choice,
    /// `text`: the checklist for people; `json`: one JSON object, for CI pipelines.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Time limit per decision, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = DECISION_TIMEOUT_MS,
          value_parser = clap::value_parser!(u64).range(1..))]
    timeout: u64,
    #[command(flatten)]
    clock: super::play::ClockArgs,
    /// Time limit for a start of the bot (from starting the program to its hello), in
    /// milliseconds.
    #[arg(long, value_name = "MS", default_value_t = STARTUP_TIMEOUT_MS,
          value_parser = clap::value_parser!(u64).range(1..))]
    startup_timeout: u64,
    /// Seed for the deals that are not scripted.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long, value_name = "SETTINGS", num_args = 0..=1, require_equals = true,
          default_missing_value = "", value_parser = super::sandbox::parse,
          help = super::sandbox::help())]
    sandbox: Option<crate::players::sandbox::Sandbox>,
}

/// The variants to test: one, or all (`None`).
#[derive(Clone, Copy, Debug)]
struct Choice(Option<Variant>);

fn parse_variant(name: &str) -> Result<Choice, String> {
    if name == "all" {
        return Ok(Choice(None));
    }
    <Variant as clap::ValueEnum>::from_str(name, false)
        .map(|v| Choice(Some(v)))
        .map_err(|_| {
            let names: Vec<_> = Variant::ALL.iter().map(|v| v.name()).collect();
            format!(
                "unknown variant `{name}` (known: {}, or all)",
                names.join(", ")
            )
        })
}

pub fn run(args: &SelftestArgs) -> Result<Status, CliError> {
    crate::players::process::live_groups::kill_bots_on_signal();
    if args.sandbox.is_some() {
        crate::players::sandbox::check().map_err(CliError::input)?;
    }
    let config = Config {
        command: args.bot.clone(),
        variants: args.variant.0.map_or(Variant::ALL.to_vec(), |v| vec![v]),
        limits: TimeLimits {
            decision: Duration::from_millis(args.timeout),
            startup: Duration::from_millis(args.startup_timeout),
            clock: args.clock.clock(),
        },
        seed: args.seed,
        scratch: std::env::temp_dir().join(format!("take5-selftest-{}", std::process::id())),
        sandbox: args.sandbox.clone(),
    };
    let report = selftest::run(&config).map_err(CliError::input)?;
    let mut out = io::stdout().lock();
    match args.format {
        Format::Json => writeln!(
            out,
            "{}",
            serde_json::to_string(&report).expect("a report serializes")
        )?,
        Format::Text => text(&mut out, &report)?,
    }
    Ok(if report.passed {
        Status::Passed
    } else {
        Status::Failed
    })
}

/// The checklist as text, with what it quotes of the bot (its command, its lines, the details
/// of its faults) made [`visible_lines`].
fn text(out: &mut dyn Write, report: &Report) -> io::Result<()> {
    let mut text = Vec::new();
    checklist(&mut text, report)?;
    out.write_all(visible_lines(&String::from_utf8_lossy(&text)).as_bytes())
}

fn checklist(out: &mut dyn Write, report: &Report) -> io::Result<()> {
    writeln!(out, "take5 selftest: {}", report.bot)?;
    let decision = match &report.clock {
        Some(clock) => format!("a clock of {clock} ms (--clock)"),
        None => format!("{} ms a decision (--timeout)", report.timeout_ms),
    };
    writeln!(
        out,
        "time limits: {decision}, {} ms a start (--startup-timeout)",
        report.startup_timeout_ms
    )?;
    let width = report
        .checks
        .iter()
        .map(|c| c.item.len())
        .max()
        .unwrap_or(0);
    let mut variant = "";
    for check in &report.checks {
        if check.variant != variant {
            variant = check.variant;
            writeln!(out, "{variant}")?;
        }
        let line = format!(
            "  {}  {:<width$}  {:>5}  {}",
            check.status.name(),
            check.item,
            check.seen,
            check.detail.lines().next().unwrap_or_default()
        );
        writeln!(out, "{}", line.trim_end())?;
        if check.status != Verdict::Fail {
            continue;
        }
        for line in check.detail.lines().skip(1) {
            writeln!(out, "          {line}")?;
        }
        for said in &check.lines {
            match said {
                Said::Sent(line) => writeln!(out, "        sent:     {line}")?,
                Said::Got(line) => writeln!(out, "        got:      {line}")?,
            }
        }
        if !check.lines.is_empty() && !check.lines.iter().any(|s| matches!(s, Said::Got(_))) {
            writeln!(out, "        got:      (nothing)")?;
        }
        if !check.expected.is_empty() {
            writeln!(out, "        expected: {}", check.expected)?;
        }
    }
    times(out, "decision times", "decision", &report.decisions)?;
    times(out, "start-up time", "start", &report.startup)?;
    let failed: Vec<String> = report
        .checks
        .iter()
        .filter(|c| c.status == Verdict::Fail)
        .map(|c| format!("{}: {}", c.variant, c.item))
        .collect();
    if failed.is_empty() {
        writeln!(out, "result: PASS, all {} items", report.checks.len())
    } else {
        writeln!(
            out,
            "result: FAIL, {} of {} items failed: {}",
            failed.len(),
            report.checks.len(),
            failed.join("; ")
        )
    }
}

fn times(out: &mut dyn Write, what: &str, unit: &str, times: &Times) -> io::Result<()> {
    writeln!(
        out,
        "{what}: {}, median {:.2} ms, 95th percentile {:.2} ms, max {:.2} ms",
        crate::words::count(times.count, unit),
        times.median_ms,
        times.p95_ms,
        times.max_ms
    )
}
