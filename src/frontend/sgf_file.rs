//! SGF files on disk for the front-ends: `loadsgf` and `hane analyze` read
//! a game, `printsgf FILE` and `hane analyze` write one. A client names
//! the path, so it may be anything: a directory, a device, a FIFO no one
//! writes or reads, a file of gigabytes. Each is refused at once, with a
//! reason, rather than read without end or waited on for ever.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::Path;

/// Files larger than this are not SGF games anyone plays: refused before
/// reading. No game record comes near it.
const MAX_SGF_BYTES: u64 = 16 * 1024 * 1024;

/// The bytes of the file at `path`, refusing what is not a plain file of a
/// sane size before reading it: a directory, a device or a FIFO (whose
/// opening would wait for a writer) is `not a file`.
pub fn read_sgf_file(path: &Path) -> Result<Vec<u8>, String> {
    read_regular_file(path, MAX_SGF_BYTES).map_err(|refusal| match refusal {
        Unreadable::NotAFile => "not a file".into(),
        Unreadable::TooLarge => format!("file larger than {MAX_SGF_BYTES} bytes"),
        Unreadable::Io(e) => e,
    })
}

/// Why a file a client named was not read.
pub enum Unreadable {
    /// A directory, a device or a FIFO.
    NotAFile,
    /// More bytes than the caller's bound.
    TooLarge,
    /// The system's own error, as text.
    Io(String),
}

/// The bytes of the regular file at `path`, at most `max_bytes` of them:
/// anything else is refused before it is opened (a FIFO's opening would
/// wait for a writer, a device may never end), and the read is bounded
/// whatever the metadata said (the file may grow after the check, or be a
/// /proc file that reports no length). The front-ends' one way to read a
/// file a client names.
pub fn read_regular_file(path: &Path, max_bytes: u64) -> Result<Vec<u8>, Unreadable> {
    let io = |e: io::Error| Unreadable::Io(e.to_string());
    let metadata = std::fs::metadata(path).map_err(io)?;
    if !metadata.is_file() {
        return Err(Unreadable::NotAFile);
    }
    if metadata.len() > max_bytes {
        return Err(Unreadable::TooLarge);
    }
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|file| file.take(max_bytes + 1).read_to_end(&mut bytes))
        .map_err(io)?;
    if bytes.len() as u64 > max_bytes {
        return Err(Unreadable::TooLarge);
    }
    Ok(bytes)
}

/// Opens `path` for writing without emptying it yet, so that a file that
/// cannot be written is reported before the work that fills it. Opening a
/// FIFO for writing waits until someone opens it to read, for ever if no
/// one does; it is opened without waiting, so a FIFO no one reads is
/// refused at once, and then made to wait again as an ordinary file's
/// writes do (a full pipe must make a write wait, not fail).
pub fn open_for_writing(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create(true).truncate(false);
    open_refusing_a_fifo_without_reader(&mut options, path)
}

/// Opens `path` to add to its end (a log file), refusing a FIFO no one
/// reads at once as `open_for_writing` does: `--log-file` naming one once
/// held the start-up for ever, before the engine answered anything.
pub fn open_for_appending(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.create(true).append(true);
    open_refusing_a_fifo_without_reader(&mut options, path)
}

/// `options` opened at `path` without waiting for a FIFO's reader, then
/// made to wait again as an ordinary file's writes do.
fn open_refusing_a_fifo_without_reader(options: &mut OpenOptions, path: &Path) -> io::Result<File> {
    open_without_waiting(options);
    let file = options.open(path).map_err(|e| {
        if is_fifo_without_reader(path, &e) {
            io::Error::new(e.kind(), "a FIFO that no one reads")
        } else {
            e
        }
    })?;
    blocking(&file)?;
    Ok(file)
}

/// Writes `text` over what `file` held. Only a regular file is emptied
/// first and synced after: a device (/dev/null) or a pipe (a FIFO,
/// /dev/stdout into a pipe) refuses both, and holds nothing to empty.
pub fn write_over(file: &mut File, text: &[u8]) -> io::Result<()> {
    let regular = file.metadata()?.is_file();
    if regular {
        file.set_len(0)?;
    }
    file.write_all(text)?;
    if regular {
        file.sync_all()
    } else {
        file.flush()
    }
}

#[cfg(unix)]
fn open_without_waiting(options: &mut OpenOptions) {
    use std::os::unix::fs::OpenOptionsExt;
    options.custom_flags(libc::O_NONBLOCK);
}

#[cfg(not(unix))]
fn open_without_waiting(_: &mut OpenOptions) {}

/// ENXIO on a FIFO: opened without waiting, with no reader.
#[cfg(unix)]
fn is_fifo_without_reader(path: &Path, error: &io::Error) -> bool {
    use std::os::unix::fs::FileTypeExt;
    error.raw_os_error() == Some(libc::ENXIO)
        && std::fs::metadata(path).is_ok_and(|m| m.file_type().is_fifo())
}

#[cfg(not(unix))]
fn is_fifo_without_reader(_: &Path, _: &io::Error) -> bool {
    false
}

/// The file's writes wait again, as an ordinary file's do.
#[cfg(unix)]
fn blocking(file: &File) -> io::Result<()> {
    use std::os::unix::io::AsRawFd;
    let fd = file.as_raw_fd();
    // SAFETY: fcntl on a descriptor this function's caller owns, reading
    // then setting its status flags; no memory is involved.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: as above.
    if unsafe { libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

#[cfg(not(unix))]
fn blocking(_: &File) -> io::Result<()> {
    Ok(())
}
