//! Reading input files with a size limit, so no file (a mistake, `/dev/zero`, a FIFO that never
//! ends) can make take5 read without end or fill its memory: every file take5 reads goes
//! through [`read_to_string`], [`read`] or [`open`] with one of the [`Limit`]s below, and a file
//! past its limit is refused with an error that names the limit (the commands exit with 2).
//! The limits are documented in README.md ("Input limits").

use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// The size limit of one kind of input file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    /// What kind of file it is, for messages: "a fixture".
    pub what: &'static str,
    /// The most bytes it may hold.
    pub bytes: u64,
    /// The longest line (in bytes, without the line end), if lines are limited on their own.
    pub line: Option<u64>,
}

const MIB: u64 = 1 << 20;

/// A fixture (`take5 check`).
pub const FIXTURE: Limit = Limit {
    what: "a fixture",
    bytes: 4 * MIB,
    line: None,
};
/// A tournament file (`take5 tournament`).
pub const TOURNAMENT: Limit = Limit {
    what: "a tournament file",
    bytes: MIB,
    line: None,
};
/// Any other YAML input: a `--deal` or `--deck` file.
pub const YAML: Limit = Limit {
    what: "a YAML input file",
    bytes: 4 * MIB,
    line: None,
};
/// A house rule script, given on the command line or named by a record or fixture.
pub const HOUSE_SCRIPT: Limit = Limit {
    what: "a house rule script",
    bytes: MIB,
    line: None,
};

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} may hold at most {}", self.what, size(self.bytes))?;
        if let Some(line) = self.line {
            write!(f, ", in lines of at most {}", size(line))?;
        }
        Ok(())
    }
}

/// "4 MiB", "1024 bytes".
fn size(bytes: u64) -> String {
    if bytes >= MIB && bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else {
        format!("{bytes} bytes")
    }
}

/// The error for a file past `limit`: `InvalidData`, with a message that names the limit.
fn too_big(limit: Limit, line: bool) -> io::Error {
    let what = if line {
        "a line is too long"
    } else {
        "too large"
    };
    io::Error::new(io::ErrorKind::InvalidData, format!("{what}: {limit}"))
}

/// Reads the file at `path` as UTF-8 text, refusing it past `limit`.
pub fn read_to_string(path: &Path, limit: Limit) -> io::Result<String> {
    let mut text = String::new();
    open(path, limit)?.read_to_string(&mut text)?;
    Ok(text)
}

/// Reads the file at `path`, refusing it past `limit`.
pub fn read(path: &Path, limit: Limit) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    open(path, limit)?.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Opens the file at `path` for reading; reads fail with `InvalidData` once it passes `limit`.
pub fn open(path: &Path, limit: Limit) -> io::Result<Bounded<File>> {
    Ok(Bounded::new(File::open(path)?, limit))
}

/// A reader that fails once more than its limit has come, or a line longer than the limit's
/// line length (so memory stays bounded even for one endless line).
pub struct Bounded<R> {
    inner: R,
    limit: Limit,
    /// Bytes read so far.
    total: u64,
    /// Bytes read since the last line end.
    line: u64,
}

impl<R: Read> Bounded<R> {
    pub fn new(inner: R, limit: Limit) -> Self {
        Bounded {
            inner,
            limit,
            total: 0,
            line: 0,
        }
    }
}

impl<R: Read> Read for Bounded<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        // One byte past the limit may be read, so that a file of exactly the limit passes.
        let room = (self.limit.bytes + 1).saturating_sub(self.total);
        let want = buf.len().min(usize::try_from(room).unwrap_or(usize::MAX));
        if want == 0 && !buf.is_empty() {
            return Err(too_big(self.limit, false));
        }
        let n = self.inner.read(&mut buf[..want])?;
        self.total += n as u64;
        if self.total > self.limit.bytes {
            return Err(too_big(self.limit, false));
        }
        if let Some(max) = self.limit.line {
            let chunk = &buf[..n];
            match chunk.iter().rposition(|&b| b == b'\n') {
                Some(last) => {
                    let longest = chunk[..last]
                        .split(|&b| b == b'\n')
                        .enumerate()
                        .map(|(i, part)| part.len() as u64 + if i == 0 { self.line } else { 0 })
                        .max()
                        .unwrap_or(0);
                    if longest > max + 1 {
                        return Err(too_big(self.limit, true));
                    }
                    self.line = (n - last - 1) as u64;
                }
                None => self.line += n as u64,
            }
            // `max + 1`: room for a `\r` before the line end.
            if self.line > max + 1 {
                return Err(too_big(self.limit, true));
            }
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: Limit = Limit {
        what: "a test file",
        bytes: 10,
        line: Some(4),
    };

    fn read_all(bytes: &[u8], limit: Limit) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        Bounded::new(bytes, limit).read_to_end(&mut out)?;
        Ok(out)
    }

    #[test]
    fn a_file_of_exactly_the_limit_is_read() {
        let limit = Limit {
            line: None,
            ..SMALL
        };
        assert_eq!(read_all(b"0123456789", limit).unwrap().len(), 10);
        let err = read_all(b"0123456789x", limit).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        assert_eq!(
            err.to_string(),
            "too large: a test file may hold at most 10 bytes"
        );
    }

    #[test]
    fn a_long_line_is_refused_wherever_it_is() {
        assert!(read_all(b"abcd\nab\r\n", SMALL).is_ok());
        for text in [&b"abcdef"[..], b"ab\nabcdef\n", b"abcdef\nab", b"a\nabcdef"] {
            let err = read_all(text, SMALL).unwrap_err();
            assert!(err.to_string().starts_with("a line is too long"), "{err}");
        }
    }

    #[test]
    fn an_endless_file_stops_at_its_limit() {
        let err = read_to_string(Path::new("/dev/zero"), YAML).unwrap_err();
        assert_eq!(
            err.to_string(),
            "too large: a YAML input file may hold at most 4 MiB"
        );
    }
}
