//! Older layers of the optimal search, kept in a file instead of memory.
//!
//! Duplicates are caught against the last two layers alone
//! ([`super::layers`]), so every older layer is read again only when the
//! plan is read back from the goal: one lookup per predecessor of each
//! state on the plan. Such a layer can live on disk, and a proof then needs
//! memory for the widest layers only. A spilled layer is one unnamed file
//! (deleted by the system when the search ends, or if it crashes) of
//! fixed-size records in key order, with every [`EVERY`]th key kept in
//! memory to find the block a key would be in.

use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Records per block: one key in memory for this many on disk.
const EVERY: usize = 1024;

/// Where the optimal search puts its older layers, when the command line
/// asked for it (`solve --spill-dir DIR`). Process-wide: set once, before
/// any search.
static DIR: OnceLock<PathBuf> = OnceLock::new();

/// Lets the optimal search keep its older layers in files under `dir`.
/// Only the first call counts.
pub fn spill_to(dir: PathBuf) {
    let _ = DIR.set(dir);
}

/// The directory older layers go to, if any.
pub(super) fn dir() -> Option<&'static Path> {
    DIR.get().map(PathBuf::as_path)
}

/// A layer's keys and cells moved, in a file.
pub(super) struct Spilled<const K: usize> {
    file: File,
    len: usize,
    /// The first key of each block of [`EVERY`] records.
    heads: Vec<[u64; K]>,
}

impl<const K: usize> Spilled<K> {
    const REC: usize = 8 * K + 2;

    /// Writes sorted `keys` with their `steps` to a new unnamed file in
    /// `dir`.
    pub(super) fn write(dir: &Path, keys: &[[u64; K]], steps: &[u16]) -> std::io::Result<Self> {
        let file = tempfile::tempfile_in(dir)?;
        let mut w = BufWriter::with_capacity(1 << 20, &file);
        let mut rec = Vec::with_capacity(Self::REC);
        for (k, s) in keys.iter().zip(steps) {
            rec.clear();
            put_key(k, &mut rec);
            rec.extend_from_slice(&s.to_le_bytes());
            w.write_all(&rec)?;
        }
        w.flush()?;
        drop(w);
        Ok(Spilled {
            file,
            len: keys.len(),
            heads: keys.iter().step_by(EVERY).copied().collect(),
        })
    }

    /// Bytes held in memory.
    pub(super) fn bytes(&self) -> u64 {
        (self.heads.capacity() * 8 * K) as u64
    }

    /// The cells moved to reach `key`, if the layer holds it.
    pub(super) fn steps_of(&self, key: &[u64; K]) -> std::io::Result<Option<u16>> {
        let block = self.heads.partition_point(|h| h <= key);
        let Some(block) = block.checked_sub(1) else {
            return Ok(None);
        };
        let first = block * EVERY;
        let n = EVERY.min(self.len - first);
        let mut buf = vec![0u8; n * Self::REC];
        let mut f = &self.file;
        f.seek(SeekFrom::Start((first * Self::REC) as u64))?;
        f.read_exact(&mut buf)?;
        let recs: Vec<&[u8]> = buf.chunks_exact(Self::REC).collect();
        let found = recs.binary_search_by(|r| get_key::<K>(r).cmp(key)).ok();
        Ok(found.map(|i| u16::from_le_bytes([recs[i][8 * K], recs[i][8 * K + 1]])))
    }
}

/// A record of fixed size, in order of its value, as a run of successors
/// holds it.
pub(super) trait Record: Ord + Sized {
    const SIZE: usize;
    fn put(&self, out: &mut Vec<u8>);
    fn get(bytes: &[u8]) -> Self;
}

/// A layer's sorted runs of successors, written to one unnamed file as
/// they are made, then merged in order: the layer being built then holds
/// only its memory once, not twice (runs and layer) at the merge.
pub(super) struct Runs {
    file: File,
    /// Each run's first byte and length in bytes.
    runs: Vec<(u64, u64)>,
    end: u64,
}

/// Bytes read from a run at a time.
const READ: usize = 1 << 16;

impl Runs {
    pub(super) fn new(dir: &Path) -> std::io::Result<Runs> {
        Ok(Runs {
            file: tempfile::tempfile_in(dir)?,
            runs: Vec::new(),
            end: 0,
        })
    }

    /// Appends one sorted run.
    pub(super) fn push<T: Record>(&mut self, run: &[T]) -> std::io::Result<()> {
        let mut w = BufWriter::with_capacity(1 << 20, &self.file);
        let mut buf = Vec::with_capacity(T::SIZE);
        for r in run {
            buf.clear();
            r.put(&mut buf);
            w.write_all(&buf)?;
        }
        w.flush()?;
        let len = (run.len() * T::SIZE) as u64;
        self.runs.push((self.end, len));
        self.end += len;
        Ok(())
    }

    /// Calls `f` with every record of every run, in ascending order.
    pub(super) fn merge<T: Record>(self, mut f: impl FnMut(T)) -> std::io::Result<()> {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        let mut cursors: Vec<Cursor> = self
            .runs
            .iter()
            .map(|&(at, len)| Cursor {
                at,
                left: len,
                buf: Vec::new(),
                pos: 0,
            })
            .collect();
        let mut heap = BinaryHeap::with_capacity(cursors.len());
        for (i, c) in cursors.iter_mut().enumerate() {
            if let Some(r) = c.next::<T>(&self.file)? {
                heap.push(Reverse((r, i)));
            }
        }
        while let Some(Reverse((r, i))) = heap.pop() {
            if let Some(n) = cursors[i].next::<T>(&self.file)? {
                heap.push(Reverse((n, i)));
            }
            f(r);
        }
        Ok(())
    }
}

/// Where the merge stands in one run.
struct Cursor {
    at: u64,
    left: u64,
    buf: Vec<u8>,
    pos: usize,
}

impl Cursor {
    fn next<T: Record>(&mut self, file: &File) -> std::io::Result<Option<T>> {
        if self.pos == self.buf.len() {
            if self.left == 0 {
                return Ok(None);
            }
            let n = (READ / T::SIZE * T::SIZE).min(self.left as usize);
            self.buf.resize(n, 0);
            let mut f = file;
            f.seek(SeekFrom::Start(self.at))?;
            f.read_exact(&mut self.buf)?;
            (self.at, self.left, self.pos) = (self.at + n as u64, self.left - n as u64, 0);
        }
        let r = T::get(&self.buf[self.pos..self.pos + T::SIZE]);
        self.pos += T::SIZE;
        Ok(Some(r))
    }
}

/// A key's words, little-endian, onto `out`.
pub(super) fn put_key<const K: usize>(key: &[u64; K], out: &mut Vec<u8>) {
    for w in key {
        out.extend_from_slice(&w.to_le_bytes());
    }
}

/// The key at the start of a record.
pub(super) fn get_key<const K: usize>(rec: &[u8]) -> [u64; K] {
    let mut key = [0u64; K];
    for (w, b) in key.iter_mut().zip(rec.chunks_exact(8)) {
        *w = u64::from_le_bytes(b.try_into().unwrap_or_default());
    }
    key
}

#[cfg(test)]
mod tests {
    use super::{Record, Runs, Spilled};

    impl Record for (u64, u16) {
        const SIZE: usize = 10;
        fn put(&self, out: &mut Vec<u8>) {
            out.extend_from_slice(&self.0.to_le_bytes());
            out.extend_from_slice(&self.1.to_le_bytes());
        }
        fn get(b: &[u8]) -> Self {
            let k = u64::from_le_bytes(b[..8].try_into().expect("8 bytes"));
            (k, u16::from_le_bytes([b[8], b[9]]))
        }
    }

    #[test]
    fn runs_on_disk_merge_in_order() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let mut runs = Runs::new(dir.path()).expect("a run file");
        let mut all = Vec::new();
        for r in 0..7u64 {
            // Runs of different lengths, some longer than one read.
            let run: Vec<(u64, u16)> = (0..(r * 3000 + 1))
                .map(|i| (i * 7 % 10_007 + r, r as u16))
                .collect();
            let mut run = run;
            run.sort_unstable();
            runs.push(&run).expect("written");
            all.extend(run);
        }
        runs.push::<(u64, u16)>(&[]).expect("an empty run");
        all.sort_unstable();
        let mut merged = Vec::new();
        runs.merge(|r: (u64, u16)| merged.push(r))
            .expect("read back");
        assert_eq!(merged, all);
    }

    #[test]
    fn a_spilled_layer_finds_every_key_it_holds_and_no_other() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let keys: Vec<[u64; 2]> = (0..5000u64).map(|i| [i / 7, i * 3 + 1]).collect();
        let steps: Vec<u16> = (0..5000u16).map(|i| i % 97).collect();
        let s = Spilled::write(dir.path(), &keys, &steps).expect("written");
        for (k, &st) in keys.iter().zip(&steps) {
            assert_eq!(s.steps_of(k).expect("read"), Some(st), "{k:?}");
            let absent = [k[0], k[1] + 1];
            assert_eq!(s.steps_of(&absent).expect("read"), None, "{absent:?}");
        }
        assert_eq!(s.steps_of(&[0, 0]).expect("read"), None);
        assert_eq!(s.steps_of(&[u64::MAX, 0]).expect("read"), None);
    }
}
