//! `take5 deals`: writes a deal book (docs/tournaments.md, "A deal book").

use super::{CliError, Status};
use clap::Args;
use std::io::Write;

#[derive(Args, Debug)]
pub struct DealsArgs {
    /// The seed: the book holds the deals a tournament of this seed plays.
    #[arg(long, value_name = "N")]
    seed: u64,
    /// How many deals.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    deals: u64,
}

/// Prints the book on stdout.
pub fn run(args: &DealsArgs) -> Result<Status, CliError> {
    let book = crate::tournament::book::write(args.seed, args.deals);
    std::io::stdout().lock().write_all(book.as_bytes())?;
    Ok(Status::Passed)
}
