//! Reading input files with a size limit, so no file (a mistake, `/dev/zero`, a FIFO that never
//! ends) can make take5 read without end, wait without end or fill its memory: every file take5
//! reads goes through [`read_to_string`], [`read`] or [`open`] with one of the [`Limit`]s below;
//! only a regular file is read, and a file past its limit is refused with an error that names
//! the limit (the commands exit with 2). The limits are documented in docs/play.md ("Input
//! limits"). Records (`take5 verify`, `take5 show`, which also read standard input) and results
//! files are read line by line with a limit on each line instead.

use std::fmt;
use std::fs::{File, FileType, OpenOptions};
use std::io::{self, Read};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

/// The size limit of one kind of input file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    /// What kind of file it is, for messages: "a fixture".
    pub what: &'static str,
    /// The most bytes it may hold.
    pub bytes: u64,
}

const MIB: u64 = 1 << 20;

impl Limit {
    const fn new(what: &'static str, bytes: u64) -> Limit {
        Limit { what, bytes }
    }
}

/// A fixture (`take5 check`).
pub const FIXTURE: Limit = Limit::new("a fixture", 4 * MIB);
/// A tournament file (`take5 tournament`).
pub const TOURNAMENT: Limit = Limit::new("a tournament file", MIB);
/// Any other YAML input: a `--deal` or `--deck` file.
pub const YAML: Limit = Limit::new("a YAML input file", 4 * MIB);
/// A house rule script, given on the command line or named by a record or fixture.
pub const HOUSE_SCRIPT: Limit = Limit::new("a house rule script", MIB);

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} may hold at most {}", self.what, size(self.bytes))
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
fn too_big(limit: Limit) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("too large: {limit}"))
}

/// Reads the file at `path` as UTF-8 text, refusing it past `limit`.
pub fn read_to_string(path: &Path, limit: Limit) -> io::Result<String> {
    let mut text = String::new();
    open(path, limit)?.read_to_string(&mut text)?;
    Ok(text)
}

/// A settings file (a tournament's, a tuning's), whose errors are text: the file at `path` read
/// as UTF-8 (refused past `limit`) and given to `parse` with its path, or why it cannot be read
/// (`PATH: cannot read: ...`).
pub fn parse_file<T>(
    path: &Path,
    limit: Limit,
    parse: fn(&str, &Path) -> Result<T, String>,
) -> Result<T, String> {
    let text =
        read_to_string(path, limit).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    parse(&text, path)
}

/// Reads the file at `path`, refusing it past `limit`.
pub fn read(path: &Path, limit: Limit) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    open(path, limit)?.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Opens the file at `path` for reading; reads fail with `InvalidData` once it passes `limit`.
/// Only a regular file is read: a FIFO, a device, a socket or a folder is refused with
/// `InvalidInput`, at once. (A FIFO's open or read waits for a writer that may never come, a
/// device like `/dev/tty` for a person, and a file that names one, like a record's house path,
/// may come from anyone.)
pub fn open(path: &Path, limit: Limit) -> io::Result<Bounded<File>> {
    // Opened without waiting (a FIFO's open would wait for a writer), then looked at; the flag
    // changes nothing for the regular file that is then read.
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    let kind = file.metadata()?.file_type();
    if !kind.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("not a regular file ({})", kind_name(kind)),
        ));
    }
    Ok(Bounded::new(file, limit))
}

/// "a FIFO", "a character device", ...: what a file that is not a regular file is.
fn kind_name(kind: FileType) -> &'static str {
    if kind.is_dir() {
        "a folder"
    } else if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "an unknown kind of file"
    }
}

/// A reader that fails once more than its limit has come. (Records, read line by line without
/// a total limit, bound each line in [`crate::record::LineReader`] instead.)
pub struct Bounded<R> {
    inner: R,
    limit: Limit,
    /// Bytes read so far.
    total: u64,
}

impl<R: Read> Bounded<R> {
    pub fn new(inner: R, limit: Limit) -> Self {
        Bounded {
            inner,
            limit,
            total: 0,
        }
    }
}

impl<R: Read> Read for Bounded<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        // One byte past the limit may be read, so that a file of exactly the limit passes.
        let room = (self.limit.bytes + 1).saturating_sub(self.total);
        let want = buf.len().min(usize::try_from(room).unwrap_or(usize::MAX));
        if want == 0 && !buf.is_empty() {
            return Err(too_big(self.limit));
        }
        let n = self.inner.read(&mut buf[..want])?;
        self.total += n as u64;
        if self.total > self.limit.bytes {
            return Err(too_big(self.limit));
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: Limit = Limit::new("a test file", 10);

    fn read_all(bytes: &[u8], limit: Limit) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        Bounded::new(bytes, limit).read_to_end(&mut out)?;
        Ok(out)
    }

    #[test]
    fn a_file_of_exactly_the_limit_is_read() {
        assert_eq!(read_all(b"0123456789", SMALL).unwrap().len(), 10);
        let err = read_all(b"0123456789x", SMALL).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        assert_eq!(
            err.to_string(),
            "too large: a test file may hold at most 10 bytes"
        );
    }

    #[test]
    fn a_file_past_its_limit_is_refused_without_being_read_whole() {
        let dir = std::env::temp_dir().join(format!("take5-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("big.yaml");
        // A sparse file of 1 GiB: reading it whole would take that much memory.
        File::create(&path).unwrap().set_len(1 << 30).unwrap();
        let err = read_to_string(&path, YAML).unwrap_err();
        assert_eq!(
            err.to_string(),
            "too large: a YAML input file may hold at most 4 MiB"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn only_a_regular_file_is_read() {
        for (path, kind) in [("/dev/zero", "a character device"), ("/", "a folder")] {
            let err = read(Path::new(path), YAML).unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
            assert_eq!(err.to_string(), format!("not a regular file ({kind})"));
        }
    }

    /// A FIFO nobody writes to is refused at once: its open does not wait for a writer. (Were
    /// it to wait, the test opens the FIFO for writing after a generous while, and fails.)
    #[test]
    fn a_fifo_is_refused_without_waiting_for_a_writer() {
        let dir = std::env::temp_dir().join(format!("take5-input-fifo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("house.lua");
        let name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
        let (sender, receiver) = std::sync::mpsc::channel();
        let reader = fifo.clone();
        std::thread::spawn(move || {
            sender.send(read(&reader, HOUSE_SCRIPT).map_err(|e| e.to_string()))
        });
        let result = match receiver.recv_timeout(std::time::Duration::from_secs(180)) {
            Ok(result) => result,
            Err(_) => {
                let _writer = File::options().write(true).open(&fifo);
                panic!("reading a FIFO waited for a writer");
            }
        };
        assert_eq!(result.unwrap_err(), "not a regular file (a FIFO)");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
