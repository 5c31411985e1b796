//! The region chosen for each game, remembered in the user's config
//! directory (`regions.toml`) and reused next time.
//!
//! `BOARDBOT_CONFIG_DIR` overrides the directory (tests use it).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::geom::Rect;

#[derive(Debug, thiserror::Error)]
pub enum RegionsError {
    #[error("{path}: {message}")]
    Broken { path: String, message: String },
    #[error("cannot write {path}: {source}")]
    Write {
        path: String,
        #[source]
        source: std::io::Error,
    },
}

#[derive(Default, Serialize, Deserialize)]
struct File {
    #[serde(flatten)]
    games: BTreeMap<String, Entry>,
}

#[derive(Serialize, Deserialize)]
struct Entry {
    /// `X,Y,W,H` in input coordinates.
    region: String,
}

/// The file of remembered regions.
pub struct Regions {
    path: PathBuf,
}

impl Regions {
    /// The user's file, or `None` when there is no config directory.
    pub fn open() -> Option<Regions> {
        let dir = match std::env::var_os("BOARDBOT_CONFIG_DIR") {
            Some(d) => PathBuf::from(d),
            None => directories::ProjectDirs::from("", "", "boardbot")?
                .config_dir()
                .to_path_buf(),
        };
        Some(Regions {
            path: dir.join("regions.toml"),
        })
    }

    pub fn at(path: &Path) -> Regions {
        Regions {
            path: path.to_path_buf(),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn load(&self) -> Result<File, RegionsError> {
        let text = match crate::files::read_text(&self.path, crate::files::Limit::Regions) {
            Ok(t) => t,
            Err(e) if e.is_missing() => return Ok(File::default()),
            Err(e) => {
                return Err(RegionsError::Broken {
                    path: self.path.display().to_string(),
                    message: e.to_string(),
                });
            }
        };
        toml::from_str(&text).map_err(|e| RegionsError::Broken {
            path: self.path.display().to_string(),
            message: e.to_string().trim_end().to_string(),
        })
    }

    /// The remembered region for `game`.
    pub fn get(&self, game: &str) -> Result<Option<Rect>, RegionsError> {
        let file = self.load()?;
        let Some(entry) = file.games.get(game) else {
            return Ok(None);
        };
        entry
            .region
            .parse()
            .map(Some)
            .map_err(|message| RegionsError::Broken {
                path: self.path.display().to_string(),
                message: format!("[{game}] region: {message}"),
            })
    }

    /// Remembers `region` for `game`. A file that cannot be read is kept
    /// aside as `regions.toml.broken` rather than lost.
    pub fn set(&self, game: &str, region: Rect) -> Result<(), RegionsError> {
        let mut file = match self.load() {
            Ok(f) => f,
            Err(_) => {
                let _ = std::fs::rename(&self.path, self.path.with_extension("toml.broken"));
                File::default()
            }
        };
        file.games.insert(
            game.to_string(),
            Entry {
                region: region.to_string(),
            },
        );
        let write = |e: std::io::Error| RegionsError::Write {
            path: self.path.display().to_string(),
            source: e,
        };
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir).map_err(write)?;
        }
        let text = toml::to_string(&file).map_err(|e| write(std::io::Error::other(e)))?;
        crate::files::write_atomic(&self.path, text.as_bytes())
            .map_err(|e| write(std::io::Error::other(e.to_string())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_per_game_and_survives_a_broken_file() {
        let dir = tempfile::tempdir().unwrap();
        let r = Regions::at(&dir.path().join("sub/regions.toml"));
        assert_eq!(r.get("troyis").unwrap(), None);
        r.set("troyis", Rect::new(10, 20, 300, 400)).unwrap();
        r.set("rush", Rect::new(1, 2, 3, 4)).unwrap();
        assert_eq!(r.get("troyis").unwrap(), Some(Rect::new(10, 20, 300, 400)));
        std::fs::write(r.path(), "[troyis\n").unwrap();
        let e = r.get("troyis").unwrap_err().to_string();
        assert!(e.contains("regions.toml") && e.contains("line 1"), "{e}");
        r.set("troyis", Rect::new(5, 5, 50, 50)).unwrap();
        assert_eq!(r.get("troyis").unwrap(), Some(Rect::new(5, 5, 50, 50)));
        assert!(r.path().with_extension("toml.broken").exists());
    }
}
