//! The 4×4 pattern databases, built once and kept in the user's cache
//! directory (`~/.cache/boardbot/` on Linux), one file per table.
//!
//! A file is `BBPDB` + format version, the table's length and an FNV-1a
//! checksum, then the table. Its name carries the format version and the
//! tile group, so a change to either makes a new file. A file that is
//! short, foreign or fails its checksum is rebuilt and rewritten; a cache
//! that cannot be written is a warning on stderr, never an error.
//! `BOARDBOT_CACHE=off` skips the cache (always build);
//! `BOARDBOT_CACHE_DIR` puts it elsewhere.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Instant;

use super::pdb::{self, Tables};

/// Bumped whenever the tables' meaning or layout changes.
const VERSION: u32 = 2;
const MAGIC: &[u8; 5] = b"BBPDB";
const HEADER: usize = 5 + 4 + 8 + 8;

/// How the tables came to be in memory.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Provenance {
    /// Tables read from the cache.
    pub loaded: usize,
    /// Tables built (not cached, or the cached file was bad).
    pub built: usize,
    /// Time spent building or loading them.
    pub ms: f64,
    /// Why a cached file was not used or could not be written.
    pub warnings: Vec<String>,
}

static TABLES: OnceLock<(Tables, Provenance)> = OnceLock::new();

/// The tables, built or loaded on first use in this process.
pub fn tables() -> &'static (Tables, Provenance) {
    TABLES.get_or_init(|| load_or_build(cache_dir().as_deref()))
}

/// Where the tables are kept, unless caching is off.
pub fn cache_dir() -> Option<PathBuf> {
    if std::env::var("BOARDBOT_CACHE").is_ok_and(|v| v.eq_ignore_ascii_case("off")) {
        return None;
    }
    if let Some(dir) = std::env::var_os("BOARDBOT_CACHE_DIR") {
        return Some(PathBuf::from(dir));
    }
    directories::ProjectDirs::from("", "", "boardbot").map(|d| d.cache_dir().to_path_buf())
}

/// The file of one group's table.
pub fn file_name(group: &[u8]) -> String {
    let tiles: Vec<String> = group.iter().map(u8::to_string).collect();
    format!("fifteen-pdb-v{VERSION}-{}.bin", tiles.join("-"))
}

/// Every table, from `dir` when a good copy is there, else built (and
/// written to `dir`). Warnings go to stderr as well as into the result.
pub fn load_or_build(dir: Option<&Path>) -> (Tables, Provenance) {
    let t = Instant::now();
    let mut prov = Provenance::default();
    let tables = pdb::built_groups().map(|group| {
        let note = |whence: &str| {
            // The 6-tile table takes seconds: say why the first solve waits.
            if group.len() > 4 {
                eprintln!("building the 15-puzzle pattern database for tiles {group:?} (a few seconds; {whence})");
            }
        };
        let Some(dir) = dir else {
            note("not cached: BOARDBOT_CACHE=off");
            prov.built += 1;
            return pdb::build(group);
        };
        let path = dir.join(file_name(group));
        match read(&path, group) {
            Ok(table) => {
                prov.loaded += 1;
                table
            }
            Err(why) => {
                if path.exists() {
                    prov.warnings
                        .push(format!("{}: {why}; rebuilt", path.display()));
                }
                prov.built += 1;
                note(&format!("once; cached in {}", dir.display()));
                let table = pdb::build(group);
                if let Err(e) = write(&path, &table) {
                    prov.warnings.push(format!(
                        "cannot cache the pattern database in {}: {e}",
                        path.display()
                    ));
                }
                table
            }
        }
    });
    for w in &prov.warnings {
        eprintln!("warning: {w}");
    }
    prov.ms = t.elapsed().as_secs_f64() * 1e3;
    (Tables { tables }, prov)
}

/// FNV-1a over the bytes, eight at a time.
pub fn checksum(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let word = u64::from_le_bytes(c.try_into().unwrap_or([0; 8]));
        h = (h ^ word).wrapping_mul(0x0000_0100_0000_01b3);
    }
    for &b in chunks.remainder() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn read(path: &Path, group: &[u8]) -> Result<Vec<u8>, String> {
    let mut bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let expected_len = 1usize << (4 * group.len());
    if bytes.len() != HEADER + expected_len || &bytes[..5] != MAGIC {
        return Err("not a pattern database of this size".into());
    }
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap_or([0; 8]));
    let version = u32::from_le_bytes(bytes[5..9].try_into().unwrap_or([0; 4]));
    let (len, sum) = (word(9), word(17));
    if version != VERSION || len != expected_len as u64 {
        return Err(format!("format version {version}, not {VERSION}"));
    }
    if checksum(&bytes[HEADER..]) != sum {
        return Err("checksum mismatch".into());
    }
    bytes.drain(..HEADER);
    Ok(bytes)
}

fn write(path: &Path, table: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut bytes = Vec::with_capacity(HEADER + table.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    bytes.extend_from_slice(&(table.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&checksum(table).to_le_bytes());
    bytes.extend_from_slice(table);
    // Write aside, then rename: a reader never sees half a file.
    crate::files::write_atomic(path, &bytes).map_err(std::io::Error::other)
}
