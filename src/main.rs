use std::process::ExitCode;

fn main() -> ExitCode {
    take5::cli::main()
}
