//! The `take5` command: hands over to the library's command line (`take5::cli`).

use std::process::ExitCode;

fn main() -> ExitCode {
    take5::cli::main()
}
