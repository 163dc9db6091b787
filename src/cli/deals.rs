//! `take5 deals`: writes a deal book (docs/tournaments.md, "A deal book"), balanced by play if
//! asked ("A balanced book").

use super::{CliError, Status};
use crate::tournament::book::{self, Balance, Keep};
use crate::variants::Variant;
use clap::Args;
use std::io::Write;

#[derive(Args, Debug)]
pub struct DealsArgs {
    /// The seed: the book holds the deals a tournament of this seed plays (with --balanced,
    /// those of them it keeps).
    #[arg(long, value_name = "N")]
    seed: u64,
    /// How many deals.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    deals: u64,
    /// Keep only deals that favour no seat: each candidate is played by the judge at every
    /// seat, and those whose totals end closest together kept (--keep, --bound).
    #[arg(long, requires = "seats")]
    balanced: bool,
    /// With --balanced: the table the deals are balanced for (a deal gives other hands at
    /// another number of seats).
    #[arg(long, value_name = "N", requires = "balanced",
          value_parser = clap::value_parser!(u64).range(1..=255))]
    seats: Option<u64>,
    /// With --balanced: the variant the deals are balanced for.
    #[arg(long, value_enum, default_value = "classic", requires = "balanced")]
    variant: Variant,
    /// With --balanced: the built-in bot that plays every seat.
    #[arg(long, value_name = "SPEC", requires = "balanced")]
    judge: Option<String>,
    /// With --balanced: keep this percent of the candidates, those of least spread (the
    /// default, 25).
    #[arg(
        long,
        value_name = "PERCENT",
        requires = "balanced",
        conflicts_with = "bound"
    )]
    keep: Option<u32>,
    /// With --balanced: keep the first candidates whose spread is at most this many points,
    /// rather than a share of them.
    #[arg(long, value_name = "POINTS", requires = "balanced")]
    bound: Option<u64>,
    /// With --bound: how many of the seed's deals may be tried before giving up (default 100
    /// per deal asked).
    #[arg(long, value_name = "N", requires = "bound",
          value_parser = clap::value_parser!(u64).range(1..))]
    candidates: Option<u64>,
}

/// The judge of a balanced book unless --judge says otherwise.
pub const JUDGE: &str = "builtin:dodger";
/// The share of the candidates a balanced book keeps unless --keep or --bound says otherwise.
pub const KEEP_PERCENT: u32 = 25;
/// Candidates tried per deal asked with --bound unless --candidates says otherwise.
pub const CANDIDATES_PER_DEAL: u64 = 100;

/// Prints the book on stdout.
pub fn run(args: &DealsArgs) -> Result<Status, CliError> {
    let book = match args.seats {
        None => book::write(args.seed, args.deals),
        Some(seats) => {
            let variant = args.variant;
            let judge = args.judge.as_deref().unwrap_or(JUDGE);
            let (keep, rule) = match args.bound {
                Some(points) => (Keep::Within { points }, format!("--bound {points}")),
                None => {
                    let percent = args.keep.unwrap_or(KEEP_PERCENT);
                    (Keep::MostBalanced { percent }, format!("--keep {percent}"))
                }
            };
            let candidates = args
                .candidates
                .unwrap_or(args.deals.saturating_mul(CANDIDATES_PER_DEAL));
            let balance = Balance::new(variant, seats as usize, judge, keep, candidates)
                .map_err(CliError::input)?;
            let command = format!(
                "take5 deals --seed {} --deals {} --balanced --seats {seats} --variant {} \
                 --judge {judge} {rule}",
                args.seed,
                args.deals,
                variant.name()
            );
            book::write_balanced(args.seed, args.deals, &balance, &command)
                .map_err(CliError::input)?
        }
    };
    std::io::stdout().lock().write_all(book.as_bytes())?;
    Ok(Status::Passed)
}
