//! `map --picture OUT.svg|OUT.png`: a state map drawn for people.
//!
//! Data flow: the map is reduced to a [`Net`] (each state's distance to a
//! goal and the moves between states), laid out ([`layout`]), turned into a
//! [`scene`] of shapes, and written by one of two backends: [`svg`] (text,
//! with classes and `data-` attributes that scripts and tests can read) or
//! [`png`] (rasterised with tiny-skia, labels in boardbot's own bitmap font,
//! so no font file is needed).
//!
//! Up to [`FULL_LIMIT`] states every state and move is drawn, in columns by
//! distance to the goal (a layered layout, ordered by barycenters). Larger
//! maps are drawn as the graph of their distance layers, and the picture
//! says so in its title.

use std::hash::Hash;
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::docs::{PictureMode, PictureReport};
use crate::solve::StateMap;

pub mod layout;
mod png;
pub mod scene;
mod svg;

/// The most states drawn one by one; larger maps are drawn by layers.
pub const FULL_LIMIT: usize = 5_000;

#[derive(Debug, thiserror::Error)]
pub enum PictureError {
    #[error("{0}: draw the picture to .svg or .png (the format comes from the extension)")]
    Format(PathBuf),
    #[error(transparent)]
    File(#[from] crate::files::FileError),
    #[error("cannot draw {path}: {message}")]
    Draw { path: PathBuf, message: String },
}

/// The picture's format, from the file's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Svg,
    Png,
}

impl Format {
    pub fn of(path: &Path) -> Result<Format, PictureError> {
        let ext = path.extension().and_then(|e| e.to_str());
        match ext.map(str::to_ascii_lowercase).as_deref() {
            Some("svg") => Ok(Format::Svg),
            Some("png") => Ok(Format::Png),
            _ => Err(PictureError::Format(path.to_path_buf())),
        }
    }
}

/// What to draw besides the map.
pub struct Request<'a> {
    pub file: &'a Path,
    /// The game's id, for the title.
    pub game: &'a str,
    /// Every move can be undone: each pair of states is one line.
    pub undirected: bool,
    /// A player's path, as map indices from the start (index 0).
    pub path: Option<&'a [u32]>,
    /// The session file the path came from, for the title.
    pub record: Option<String>,
}

/// A map reduced to what the picture shows. State 0 is the start.
pub struct Net {
    /// Each state's distance to the nearest goal; `None`: no goal reachable.
    pub dist: Vec<Option<u32>>,
    /// The moves between states, each pair of states once, no self-loops.
    pub edges: Vec<(u32, u32)>,
}

impl Net {
    /// The map's states and moves (a pair of states joined both ways is
    /// one line; the picture shows no direction).
    pub fn of<S: Hash + Eq, M>(map: &StateMap<S, M>) -> Net {
        let n = map.len() as u32;
        let mut edges: Vec<(u32, u32)> = (0..n)
            .flat_map(|i| map.edges_of(i).map(move |(_, j)| (i.min(j), i.max(j))))
            .filter(|(a, b)| a != b)
            .collect();
        edges.sort_unstable();
        edges.dedup();
        Net {
            dist: (0..n).map(|i| map.distance(i)).collect(),
            edges,
        }
    }
}

/// Draws `map` to the request's file and says what was drawn.
pub fn draw<S: Hash + Eq, M>(
    map: &StateMap<S, M>,
    req: &Request,
) -> Result<PictureReport, PictureError> {
    let t = Instant::now();
    let format = Format::of(req.file)?;
    let (scene, mode) = if map.len() <= FULL_LIMIT {
        let net = Net::of(map);
        (scene::states(&net, req), PictureMode::States)
    } else {
        let layers = layout::LayerGraph::of(map, req.undirected, req.path);
        (scene::layers(&layers, map.len(), req), PictureMode::Layers)
    };
    match format {
        Format::Svg => write(req.file, svg::render(&scene).as_bytes())?,
        Format::Png => {
            let bytes = png::render(&scene).map_err(|message| PictureError::Draw {
                path: req.file.to_path_buf(),
                message,
            })?;
            write(req.file, &bytes)?;
        }
    }
    Ok(PictureReport {
        file: req.file.display().to_string(),
        mode,
        nodes: scene.nodes,
        edges: scene.links,
        path_moves: req.path.map(|p| p.len().saturating_sub(1)),
        ms: super::ms_since(t),
    })
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), PictureError> {
    Ok(crate::files::write_atomic(path, bytes)?)
}
