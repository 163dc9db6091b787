//! The `take5` command: parses the command line and hands over to the library.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::main()
}
