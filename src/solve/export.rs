//! A state map written out for graph tools (igraph, networkx, Gephi):
//! GraphML or DOT by the file's extension, plus `<stem>.nodes.csv` and
//! `<stem>.edges.csv`. Everything is streamed, so exporting costs no memory
//! beyond the map itself.

use std::hash::Hash;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::map::StateMap;

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("{0}: export to .graphml or .dot (GraphML or Graphviz DOT)")]
    Format(PathBuf),
    #[error(transparent)]
    File(#[from] crate::files::FileError),
}

/// The graph's format, from a file's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    GraphMl,
    Dot,
}

impl Format {
    pub fn of(path: &Path) -> Result<Format, ExportError> {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_ascii_lowercase();
        match ext.as_str() {
            "graphml" | "xml" => Ok(Format::GraphMl),
            "dot" | "gv" => Ok(Format::Dot),
            _ => Err(ExportError::Format(path.to_path_buf())),
        }
    }
}

/// What to write about each node and edge.
pub struct Graph<'a, S, M> {
    pub map: &'a StateMap<S, M>,
    /// The graph's name (the game's id).
    pub name: &'a str,
    /// A state's one-line form.
    pub key: &'a dyn Fn(&S) -> String,
    /// When every move can be undone, each pair of states is written once
    /// as an undirected edge.
    pub undirected: bool,
}

impl<S: Hash + Eq, M: std::fmt::Display> Graph<'_, S, M> {
    fn distance(&self, i: u32) -> i64 {
        self.map.distance(i).map_or(-1, i64::from)
    }

    /// Every edge to write, as `(from, to, move)`.
    fn each_edge(
        &self,
        mut f: impl FnMut(u32, u32, &M) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        for i in 0..self.map.len() as u32 {
            for (m, j) in self.map.edges_of(i) {
                if !self.undirected || j > i {
                    f(i, j, m)?;
                }
            }
        }
        Ok(())
    }

    /// The number of edges written.
    pub fn edge_count(&self) -> usize {
        let mut n = 0;
        let _ = self.each_edge(|_, _, _| {
            n += 1;
            Ok(())
        });
        n
    }

    fn graphml(&self, w: &mut dyn Write) -> std::io::Result<()> {
        writeln!(w, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>")?;
        writeln!(
            w,
            "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">"
        )?;
        for (id, on, ty) in [
            ("board", "node", "string"),
            ("distance", "node", "int"),
            ("goal", "node", "boolean"),
            ("move", "edge", "string"),
        ] {
            writeln!(
                w,
                "  <key id=\"{id}\" for=\"{on}\" attr.name=\"{id}\" attr.type=\"{ty}\"/>"
            )?;
        }
        let kind = if self.undirected {
            "undirected"
        } else {
            "directed"
        };
        writeln!(w, "  <graph id=\"{}\" edgedefault=\"{kind}\">", self.name)?;
        for i in 0..self.map.len() as u32 {
            writeln!(
                w,
                "    <node id=\"n{i}\"><data key=\"board\">{}</data><data key=\"distance\">{}</data><data key=\"goal\">{}</data></node>",
                xml_escape(&(self.key)(self.map.state(i))),
                self.distance(i),
                self.distance(i) == 0
            )?;
        }
        let mut k = 0usize;
        self.each_edge(|a, b, m| {
            k += 1;
            writeln!(
                w,
                "    <edge id=\"e{}\" source=\"n{a}\" target=\"n{b}\"><data key=\"move\">{}</data></edge>",
                k - 1,
                xml_escape(&m.to_string())
            )
        })?;
        writeln!(w, "  </graph>\n</graphml>")
    }

    fn dot(&self, w: &mut dyn Write) -> std::io::Result<()> {
        let (kind, arrow) = if self.undirected {
            ("graph", "--")
        } else {
            ("digraph", "->")
        };
        writeln!(w, "{kind} {} {{", self.name)?;
        writeln!(w, "  node [shape=box, fontname=monospace];")?;
        for i in 0..self.map.len() as u32 {
            let key = (self.key)(self.map.state(i)).replace('"', "\\\"");
            let d = self.distance(i);
            writeln!(w, "  n{i} [board=\"{key}\", distance={d}, label=\"{d}\"];")?;
        }
        self.each_edge(|a, b, m| writeln!(w, "  n{a} {arrow} n{b} [move=\"{m}\"];"))?;
        writeln!(w, "}}")
    }

    fn nodes_csv(&self, w: &mut dyn Write) -> std::io::Result<()> {
        writeln!(w, "id,board,distance,goal")?;
        for i in 0..self.map.len() as u32 {
            let d = self.distance(i);
            let key = csv_field(&(self.key)(self.map.state(i)));
            writeln!(w, "n{i},{key},{d},{}", d == 0)?;
        }
        Ok(())
    }

    fn edges_csv(&self, w: &mut dyn Write) -> std::io::Result<()> {
        writeln!(w, "source,target,move")?;
        self.each_edge(|a, b, m| writeln!(w, "n{a},n{b},{}", csv_field(&m.to_string())))
    }

    /// Writes the graph to `path` and the two CSV files beside it; returns
    /// the paths written.
    pub fn write(&self, path: &Path) -> Result<Vec<PathBuf>, ExportError> {
        let format = Format::of(path)?;
        let stem = path.with_extension("");
        let nodes = PathBuf::from(format!("{}.nodes.csv", stem.display()));
        let edges = PathBuf::from(format!("{}.edges.csv", stem.display()));
        write_file(path, |w| match format {
            Format::GraphMl => self.graphml(w),
            Format::Dot => self.dot(w),
        })?;
        write_file(&nodes, |w| self.nodes_csv(w))?;
        write_file(&edges, |w| self.edges_csv(w))?;
        Ok(vec![path.to_path_buf(), nodes, edges])
    }
}

/// Writes one file of an export, atomically: a reader never sees half of
/// one, and a killed export leaves the old file whole.
fn write_file(
    path: &Path,
    body: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), ExportError> {
    Ok(crate::files::write_atomic_with(path, body)?)
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Quotes a CSV field when it holds a comma, a quote or a line break.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}
