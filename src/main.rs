//! The `take5` command: hands over to the library's command line (`take5::cli`).

use std::process::ExitCode;

fn main() -> ExitCode {
    // A reader that stops early (`take5 play ... | head -1`) closes our stdout: the commands
    // write through `io::Write` and end quietly on the `BrokenPipe` error (see
    // `take5::cli::CliError`'s `From<io::Error>`), as other Unix tools do.
    take5::cli::main()
}
