//! The user's files, read and written safely.
//!
//! **Reads are bounded.** Every kind of input has a documented limit
//! ([`Limit`]); a file over it is refused before it is read, and a file
//! that grows while it is read (or lies about its size) is cut off at the
//! limit and refused. Directories, devices (`/dev/zero`), FIFOs and
//! sockets are refused with a clear message: an endless input never
//! exhausts memory or time.
//!
//! **Writes survive a crash.** [`write_atomic`] writes beside the target,
//! flushes it to the disk, and renames it into place: a reader (or a
//! killed process) sees the old file or the new one, never half of one.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

/// How much of each kind of input boardbot reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// A level, a board or a game ID: 1 MiB.
    Level,
    /// A calibration file: 1 MiB.
    Calibration,
    /// A template image of a calibration: 16 MiB.
    Template,
    /// A session or record JSON file: 64 MiB.
    Session,
    /// A screenshot file: 256 MiB (its pixels are limited by [`crate::vision::image_file`]).
    Image,
    /// A batch file: streamed line by line, so any length.
    Batch,
    /// One line of a batch file: 64 KiB.
    BatchLine,
    /// The remembered regions: 1 MiB.
    Regions,
}

impl Limit {
    /// The limit in bytes.
    pub const fn bytes(self) -> u64 {
        match self {
            Limit::Level | Limit::Calibration | Limit::Regions => 1 << 20,
            Limit::Template => 16 << 20,
            Limit::Session => 64 << 20,
            Limit::Image => 256 << 20,
            Limit::BatchLine => 64 << 10,
            Limit::Batch => u64::MAX,
        }
    }

    /// What the input is, for messages.
    pub const fn what(self) -> &'static str {
        match self {
            Limit::Level => "a level",
            Limit::Calibration => "a calibration",
            Limit::Template => "a template image",
            Limit::Session => "a session",
            Limit::Image => "a screenshot",
            Limit::BatchLine => "a line of a batch file",
            Limit::Batch => "a batch file",
            Limit::Regions => "the remembered regions",
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum FileError {
    #[error("{path} is {kind}, not a file: give the path of {what}")]
    NotAFile {
        path: String,
        kind: &'static str,
        what: &'static str,
    },
    #[error("{path} is larger than {what} can be ({limit}): is it the right file?")]
    TooBig {
        path: String,
        what: &'static str,
        limit: String,
    },
    #[error("{path}: {what} must be text (UTF-8)")]
    NotText { path: String, what: &'static str },
    #[error("cannot read {path}: {source}")]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot write {path}: {source}")]
    Write {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot write {path}: {reason}")]
    Target { path: String, reason: String },
}

impl FileError {
    /// True when the file is not there at all.
    pub fn is_missing(&self) -> bool {
        matches!(self, FileError::Read { source, .. } if source.kind() == std::io::ErrorKind::NotFound)
    }
}

/// A size in bytes for people: `1 MiB`, `64 KiB`.
fn human(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

/// Refuses anything that is not a regular file (a folder, a device, a
/// FIFO, a socket) before it is opened: reading one could block forever
/// or never end.
fn check_regular(path: &Path, limit: Limit) -> Result<u64, FileError> {
    let meta = std::fs::metadata(path).map_err(|source| FileError::Read {
        path: path.display().to_string(),
        source,
    })?;
    let kind = file_kind(&meta);
    if let Some(kind) = kind {
        return Err(FileError::NotAFile {
            path: path.display().to_string(),
            kind,
            what: limit.what(),
        });
    }
    Ok(meta.len())
}

/// What a path that is no regular file is, for messages.
fn file_kind(meta: &std::fs::Metadata) -> Option<&'static str> {
    let t = meta.file_type();
    if t.is_file() {
        return None;
    }
    if t.is_dir() {
        return Some("a folder");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_char_device() || t.is_block_device() {
            return Some("a device");
        }
        if t.is_fifo() {
            return Some("a pipe (FIFO)");
        }
        if t.is_socket() {
            return Some("a socket");
        }
    }
    Some("a special file")
}

/// Reads at most `limit` bytes of `path`; more is refused.
pub fn read_bytes(path: &Path, limit: Limit) -> Result<Vec<u8>, FileError> {
    let len = check_regular(path, limit)?;
    let too_big = || FileError::TooBig {
        path: path.display().to_string(),
        what: limit.what(),
        limit: human(limit.bytes()),
    };
    if len > limit.bytes() {
        return Err(too_big());
    }
    let file = File::open(path).map_err(|source| FileError::Read {
        path: path.display().to_string(),
        source,
    })?;
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    file.take(limit.bytes() + 1)
        .read_to_end(&mut bytes)
        .map_err(|source| FileError::Read {
            path: path.display().to_string(),
            source,
        })?;
    if bytes.len() as u64 > limit.bytes() {
        return Err(too_big());
    }
    Ok(bytes)
}

/// Reads a text file of at most `limit` bytes.
pub fn read_text(path: &Path, limit: Limit) -> Result<String, FileError> {
    String::from_utf8(read_bytes(path, limit)?).map_err(|_| FileError::NotText {
        path: path.display().to_string(),
        what: limit.what(),
    })
}

/// The lines of a text file of any length, one at a time, each at most
/// [`Limit::BatchLine`] long: a batch file is streamed, not held whole.
pub fn lines(path: &Path) -> Result<Lines, FileError> {
    check_regular(path, Limit::Batch)?;
    let file = File::open(path).map_err(|source| FileError::Read {
        path: path.display().to_string(),
        source,
    })?;
    Ok(Lines {
        path: path.to_path_buf(),
        reader: BufReader::new(file),
    })
}

/// The lines of a streamed file ([`lines`]).
pub struct Lines {
    path: PathBuf,
    reader: BufReader<File>,
}

impl Iterator for Lines {
    type Item = Result<String, FileError>;

    fn next(&mut self) -> Option<Self::Item> {
        let limit = Limit::BatchLine.bytes();
        let mut line = Vec::new();
        let read = (&mut self.reader)
            .take(limit + 1)
            .read_until(b'\n', &mut line);
        let path = || self.path.display().to_string();
        match read {
            Err(source) => Some(Err(FileError::Read {
                path: path(),
                source,
            })),
            Ok(0) => None,
            Ok(_) if line.len() as u64 > limit => Some(Err(FileError::TooBig {
                path: path(),
                what: Limit::BatchLine.what(),
                limit: human(limit),
            })),
            Ok(_) => {
                while line.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
                    line.pop();
                }
                Some(String::from_utf8(line).map_err(|_| FileError::NotText {
                    path: path(),
                    what: Limit::BatchLine.what(),
                }))
            }
        }
    }
}

/// Refuses an output path that cannot be a file: a folder, a device.
/// A missing file, or an existing regular file (replaced whole), is fine.
pub fn check_target(path: &Path) -> Result<(), FileError> {
    match std::fs::metadata(path) {
        Ok(meta) => match file_kind(&meta) {
            None => Ok(()),
            Some(kind) => Err(FileError::Target {
                path: path.display().to_string(),
                reason: format!("it is {kind}; give the path of a file to write"),
            }),
        },
        Err(_) => Ok(()),
    }
}

/// Writes `bytes` to `path` so that a crash leaves the old file or the new
/// one, whole: into a temporary file beside it, flushed to the disk, then
/// renamed over it.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// [`write_atomic`] for a writer that produces the contents as it goes
/// (an export written piece by piece).
pub fn write_atomic_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), FileError> {
    check_target(path)?;
    let fail = |source| FileError::Write {
        path: path.display().to_string(),
        source,
    };
    let tmp = temp_beside(path);
    let written = (|| {
        let mut file = File::create(&tmp)?;
        {
            let mut w = std::io::BufWriter::new(&mut file);
            fill(&mut w)?;
            w.flush()?;
        }
        // The data is on the disk before the new name points at it, so
        // even a power cut leaves the old file or the new one whole. The
        // directory itself is not synced: lost, the rename only means the
        // old file is still there.
        file.sync_data()?;
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(fail(e));
    }
    Ok(())
}

/// Writes `img` as a PNG file, atomically ([`write_atomic`]).
pub fn write_png(path: &Path, img: &image::RgbImage) -> Result<(), FileError> {
    use image::ImageEncoder;
    let mut bytes = Vec::new();
    image::codecs::png::PngEncoder::new(&mut bytes)
        .write_image(
            img.as_raw(),
            img.width(),
            img.height(),
            image::ExtendedColorType::Rgb8,
        )
        .map_err(|e| FileError::Target {
            path: path.display().to_string(),
            reason: e.to_string(),
        })?;
    write_atomic(path, &bytes)
}

/// Makes the directory `dir` (and its parents) to write into. A file of
/// that name is refused, saying so (`what` names the option, `--out`).
pub fn ensure_dir(dir: &Path, what: &str) -> Result<(), FileError> {
    if dir.exists() && !dir.is_dir() {
        return Err(FileError::Target {
            path: dir.display().to_string(),
            reason: format!("{what} names a directory to write into, and this is a file"),
        });
    }
    std::fs::create_dir_all(dir).map_err(|source| FileError::Write {
        path: dir.display().to_string(),
        source,
    })
}

/// A temporary name beside `path`, unique to this process and call.
fn temp_beside(path: &Path) -> PathBuf {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let name = path
        .file_name()
        .map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.{}.{n}.tmp", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_directories_and_fifos_are_refused_at_once() {
        let e = read_text(Path::new("/dev/zero"), Limit::Level).unwrap_err();
        assert!(e.to_string().contains("is a device"), "{e}");
        let e = read_text(Path::new("/"), Limit::Level).unwrap_err();
        assert!(e.to_string().contains("is a folder"), "{e}");
        let e = read_bytes(Path::new("/dev/urandom"), Limit::Image).unwrap_err();
        assert!(e.to_string().contains("device"), "{e}");
    }

    #[test]
    fn a_file_over_its_limit_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("big.txt");
        std::fs::write(&p, vec![b'x'; (Limit::BatchLine.bytes() + 10) as usize]).unwrap();
        assert!(matches!(
            lines(&p).unwrap().next(),
            Some(Err(FileError::TooBig { .. }))
        ));
        std::fs::write(&p, vec![b'x'; (Limit::Level.bytes() + 1) as usize]).unwrap();
        let e = read_text(&p, Limit::Level).unwrap_err();
        assert!(
            e.to_string().contains("larger than a level can be (1 MiB)"),
            "{e}"
        );
        std::fs::write(&p, [0xff, 0xfe]).unwrap();
        assert!(matches!(
            read_text(&p, Limit::Level),
            Err(FileError::NotText { .. })
        ));
    }

    #[test]
    fn lines_are_streamed_without_their_ends() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("b.txt");
        std::fs::write(&p, "a\r\nbb\n\nccc").unwrap();
        let got: Vec<String> = lines(&p).unwrap().map(Result::unwrap).collect();
        assert_eq!(got, ["a", "bb", "", "ccc"]);
    }

    #[test]
    fn an_atomic_write_replaces_the_file_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out.json");
        std::fs::write(&p, "old").unwrap();
        write_atomic(&p, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "new");
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "{left:?}");
        // A failed write keeps the old file whole.
        let e = write_atomic_with(&p, |w| {
            w.write_all(b"half")?;
            Err(std::io::Error::other("killed"))
        });
        assert!(e.is_err());
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "new");
        let e = write_atomic(dir.path(), b"x").unwrap_err();
        assert!(e.to_string().contains("is a folder"), "{e}");
        let e = write_atomic(Path::new("/dev/full"), b"x").unwrap_err();
        assert!(e.to_string().contains("device"), "{e}");
    }
}
