use std::process::ExitCode;

/// How a checking subcommand ended; the exit code is the discriminant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    /// Everything checked passed: exit 0.
    Passed = 0,
    /// Something checked is wrong (a fixture failed, a record breaks the rules): exit 1.
    Failed = 1,
    /// Something could not be read or parsed: exit 2.
    Unreadable = 2,
}

impl Status {
    pub fn code(self) -> u8 {
        self as u8
    }
}

impl From<Status> for ExitCode {
    fn from(status: Status) -> ExitCode {
        ExitCode::from(status.code())
    }
}
