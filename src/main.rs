//! The `take5` command: hands over to the library's command line (`take5::cli`).

use std::any::Any;
use std::process::ExitCode;

fn main() -> ExitCode {
    // A reader that stops early (`take5 play ... | head -1`) closes our stdout: `println!` then
    // panics with a broken pipe. Like other Unix tools, take5 then ends quietly: no message,
    // and the unwinding stops the bots (their processes are killed when dropped).
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !broken_pipe(info.payload()) {
            default_hook(info);
        }
    }));
    match std::panic::catch_unwind(take5::cli::main) {
        Ok(code) => code,
        Err(payload) if broken_pipe(payload.as_ref()) => ExitCode::SUCCESS,
        Err(payload) => std::panic::resume_unwind(payload),
    }
}

/// Whether a panic is `println!`'s on a closed stdout.
fn broken_pipe(payload: &(dyn Any + Send)) -> bool {
    let message = payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or_default();
    message.starts_with("failed printing to stdout") && message.contains("Broken pipe")
}
