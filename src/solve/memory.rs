//! Memory budgets (`--max-memory 2G`) and the bookkeeping of what a search
//! holds, so that it can change strategy before the machine runs out.

use std::fmt;
use std::str::FromStr;

/// A number of bytes, written `512M`, `2G`, `1.5G` or plain bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Bytes(pub u64);

impl FromStr for Bytes {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let (num, mult) = match t.char_indices().last() {
            Some((i, c)) if c.is_ascii_alphabetic() => {
                let m: u64 = match c.to_ascii_uppercase() {
                    'K' => 1 << 10,
                    'M' => 1 << 20,
                    'G' => 1 << 30,
                    'T' => 1 << 40,
                    'B' => 1,
                    _ => {
                        return Err(format!(
                            "{s:?}: unknown unit {c:?}; use K, M or G, as in 2G"
                        ));
                    }
                };
                (&t[..i], m)
            }
            _ => (t, 1),
        };
        let v: f64 = num
            .trim()
            .parse()
            .map_err(|_| format!("{s:?} is not a size; write it like 512M or 2G"))?;
        if v.is_nan() || v <= 0.0 || !v.is_finite() {
            return Err(format!("{s:?}: the size must be positive"));
        }
        Ok(Bytes((v * mult as f64) as u64))
    }
}

impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.0 as f64;
        if b >= (1u64 << 30) as f64 {
            write!(f, "{:.2} GiB", b / (1u64 << 30) as f64)
        } else if b >= (1u64 << 20) as f64 {
            write!(f, "{:.1} MiB", b / (1u64 << 20) as f64)
        } else {
            write!(f, "{} KiB", self.0 / 1024)
        }
    }
}

/// Bytes held by a hash table with room for `capacity` entries of `entry`
/// bytes, counting its spare buckets and its control bytes.
pub fn hash_map_bytes(capacity: usize, entry: usize) -> u64 {
    // hashbrown keeps one control byte per bucket, and buckets = capacity * 8 / 7.
    let buckets = capacity.saturating_mul(8) / 7 + 1;
    (buckets * (entry + 1)) as u64
}

/// The bytes of the new table while a hash table of `capacity` holding
/// `len` entries of `entry` bytes grows to take `extra` more in one
/// reservation (0 when no growth is due). The old table stays beside it
/// until its entries have moved, so a search that keeps to a budget must
/// have room for both. hashbrown's rule: room for all of them and at least
/// one more than before, in a power of two of buckets kept 7/8 full.
pub fn hash_growth_bytes(len: usize, capacity: usize, extra: usize, entry: usize) -> u64 {
    let want = len.saturating_add(extra);
    if want <= capacity {
        return 0;
    }
    let room = want.max(capacity + 1);
    let buckets = match room {
        0..4 => 4,
        4..8 => 8,
        _ => (room.saturating_mul(8) / 7).next_power_of_two(),
    };
    (buckets * (entry + 1)) as u64
}

/// The bytes of the new buffer while a vector makes room for `more`
/// (0 when it has room): at least twice the old one, as `Vec` grows, and
/// the old one stays beside it until its elements have moved.
pub fn vec_growth_bytes<T>(v: &Vec<T>, more: usize) -> u64 {
    let need = v.len().saturating_add(more);
    if need <= v.capacity() {
        return 0;
    }
    (need.max(2 * v.capacity()) * std::mem::size_of::<T>()) as u64
}

/// A field of `/proc/self/status`, in bytes (Linux only).
fn status_bytes(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// The process's peak resident memory, where the system reports it
/// (Linux). Not `getrusage`: a process started by vfork or posix_spawn
/// (as `std::process::Command` and Python start it) inherits its parent's
/// high-water mark there, so a small solve under a large test runner would
/// report the runner's peak.
pub fn peak_rss() -> Option<u64> {
    status_bytes("VmHWM:")
}

/// The process's resident memory now, where the system reports it (Linux):
/// the second field of `/proc/self/statm`, in pages. That file is one
/// short line; `/proc/self/status` costs more than a small search.
#[cfg(target_os = "linux")]
pub fn current_rss() -> Option<u64> {
    use std::io::Read;
    // One read into a buffer on the stack: `read_to_string` would also ask
    // for the file's size, which a file of /proc does not know.
    let mut buf = [0u8; 256];
    let n = std::fs::File::open("/proc/self/statm")
        .ok()?
        .read(&mut buf)
        .ok()?;
    let statm = std::str::from_utf8(&buf[..n]).ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    // SAFETY: sysconf has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    Some(pages * u64::try_from(page).ok().filter(|&p| p > 0)?)
}

/// The process's resident memory now: not known off Linux.
#[cfg(not(target_os = "linux"))]
pub fn current_rss() -> Option<u64> {
    None
}

/// Below this size glibc serves allocations from its heaps, and by default
/// it raises the bar (up to 32 MiB) as large blocks are freed.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MMAP_FROM: libc::c_int = 1 << 20;

/// Makes every allocation of a mebibyte or more a mapping of its own, given
/// back to the system when freed. By default glibc serves blocks up to
/// 32 MiB from its heaps once large blocks have been freed, and a search
/// that frees many such blocks (the klotski layers' runs) keeps their
/// pages as holes in the heap: Pelopones under `--max-memory 600M` peaked
/// at 810 MiB resident, against 483 MiB with this. Call it once, at start-up.
pub fn map_large_allocations() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a tunable of the allocator; it is called
    // at start-up, before other threads exist.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_FROM);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_vector_about_to_grow_counts_the_buffer_it_grows_into() {
        let mut v: Vec<u64> = Vec::with_capacity(100);
        v.extend(0..100);
        assert_eq!(vec_growth_bytes(&v, 0), 0);
        for more in [1, 150, 1000] {
            let counted = vec_growth_bytes(&v, more);
            let mut grown = v.clone();
            grown.reserve(more);
            assert_eq!(counted, grown.capacity() as u64 * 8, "{more} more");
        }
        v.truncate(10);
        assert_eq!(vec_growth_bytes(&v, 90), 0, "room enough");
    }

    #[test]
    fn a_table_grows_into_the_buckets_counted_for_it() {
        for (len, extra) in [(0, 1), (3, 2), (100, 1), (1000, 500), (1000, 100_000)] {
            let mut set: std::collections::HashSet<u64> = (0..len as u64).collect();
            set.shrink_to_fit();
            let (cap, entry) = (set.capacity(), 8);
            let grown = hash_growth_bytes(len, cap, extra, entry);
            set.reserve(extra);
            if len + extra <= cap {
                assert_eq!(grown, 0);
                continue;
            }
            // hashbrown keeps 7/8 of its buckets (all but one below 8).
            let buckets = grown as usize / (entry + 1);
            assert!(buckets.is_power_of_two(), "{buckets}");
            let room = if buckets < 8 {
                buckets - 1
            } else {
                buckets / 8 * 7
            };
            assert_eq!(room, set.capacity(), "{len} + {extra}");
        }
    }

    #[test]
    fn parses_sizes() {
        assert_eq!("2G".parse(), Ok(Bytes(2 << 30)));
        assert_eq!("512m".parse(), Ok(Bytes(512 << 20)));
        assert_eq!("1.5G".parse(), Ok(Bytes(3 << 29)));
        assert_eq!("1000".parse(), Ok(Bytes(1000)));
        assert!("2X".parse::<Bytes>().is_err());
        assert!("-1G".parse::<Bytes>().is_err());
        assert!("G".parse::<Bytes>().is_err());
        assert_eq!(Bytes(2 << 30).to_string(), "2.00 GiB");
    }
}
