//! Reads a GNOME Klotski board from a screenshot of its window, and refuses
//! when unsure.
//!
//! 1. The pixels ([`super::look`]): the frame, the lattice, each cell's
//!    look (free, goal, door, blue, blue with the special marker or its
//!    green dot), and which neighbouring blue cells are one drawing.
//! 2. Refusals before any matching, each naming the cells:
//!    - a cell that shows none of the game's looks (black: the
//!      Congratulations dialog or another window over the board);
//!    - a held piece (the lighter blue of a piece pressed and not yet
//!      released: a drag under way), except the special piece standing on
//!      the goal, which GNOME leaves lit once the level is solved;
//!    - two blue neighbours that are neither clearly joined nor apart.
//! 3. The level ([`super::identify`]): walls and hidden floor from the one
//!    GNOME level the drawings fit; none or several: refused.

use image::RgbImage;

use super::identify::{self, Cells, Seen};
use super::levels::Level;
use super::look::{self, Join, Look, Palette};
use crate::calibration::{Calibration, Embedded};
use crate::engines::blocks::layout::Layout;
use crate::vision::cells::{CellSample, sample};
use crate::vision::{CellIssue, CellRead, GridRead, Lattice, Reading, Unreadable, trust_cells};
use crate::vision::{Trust, verdict_on};

/// A board read for sure: the position and the level it is on.
#[derive(Clone, Debug)]
pub struct Board {
    pub layout: Layout,
    pub level: &'static Level,
}

/// What the screenshot shows, when read for sure.
pub type Read = Reading<Board>;

const GAME: &str = "GNOME Klotski";

/// The built-in look: GNOME Klotski on Adwaita, as `boardbot calibrate`
/// learnt it from a capture of the installed game (see the file).
pub static LOOKS: [&Embedded; 1] = [&crate::builtin_look!("calibration/klotski.toml")];

/// Reads the board in `img`.
pub fn read(img: &RgbImage, cal: &Calibration) -> Read {
    let pal = match Palette::new(&cal.params.classes) {
        Ok(p) => p,
        Err(reason) => return no_board(None, format!("{}: {reason}", cal.origin)),
    };
    let Some(frame) = look::find_frame(img, &pal) else {
        return no_board(
            None,
            format!(
                "no {GAME} board: no rectangle drawn with a thin dark line (the board's frame) in the image: select the whole board, with a margin"
            ),
        );
    };
    let prof = look::profiles(img, &frame);
    // The lattice whose cells read best: fewest unreadable, then most cells.
    let Some((grid, looks)) = look::fit_lattice(&frame, &prof)
        .into_iter()
        .map(|l| read_cells(img, l, &pal))
        .min_by_key(|(_, looks)| {
            let n = looks.iter().flatten().count().max(1);
            ((n - grid_ref(looks)) * 1000 / n, usize::MAX - n)
        })
    else {
        return no_board(
            None,
            format!(
                "no {GAME} board: no lattice of square cells fills the frame found (a window or dialog over part of the board?)"
            ),
        );
    };
    let mut grid = grid;
    for (r, row) in grid.cells.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            cell.sample = sample(img, grid.lattice.cell(r, c), &cal.params.sample);
        }
    }
    let verdict = trust_cells_or_cut(grid_ref(&looks), &grid);
    let grid = match verdict_on(grid, verdict, GAME) {
        Ok(g) => g,
        Err(refused) => return refused,
    };
    let looks: Vec<Look> = looks.into_iter().flatten().flatten().collect();
    if let Some(refused) = held(&grid, &looks) {
        return refused;
    }
    let drawings = match drawings(img, &grid, &looks, &pal) {
        Ok(d) => d,
        Err((reason, issues)) => return Read::uncertain(grid, reason, issues),
    };
    let seen = Seen {
        width: grid.lattice.cols(),
        height: grid.lattice.rows(),
        looks: &looks,
        drawings: &drawings,
    };
    match identify::identify(&seen) {
        Ok(found) => Read::Board {
            grid,
            board: Board {
                layout: found.layout,
                level: found.level,
            },
        },
        Err(no) => {
            let issues = no
                .cells
                .iter()
                .map(|&(r, c)| issue(r, c, "does not fit the nearest level"))
                .collect();
            Read::uncertain(grid, no.reason, issues)
        }
    }
}

fn no_board(grid: Option<GridRead>, reason: String) -> Read {
    Read::NoBoard {
        grid,
        reason,
        issues: Vec::new(),
    }
}

fn issue(r: usize, c: usize, why: impl Into<String>) -> CellIssue {
    CellIssue {
        cell: [r, c],
        why: why.into(),
    }
}

/// Whether any cell was read (`Some`) or not, row by row.
fn grid_ref(looks: &[Vec<Option<Look>>]) -> usize {
    looks.iter().flatten().filter(|l| l.is_some()).count()
}

/// [`trust_cells`], but a board whose every cell is unreadable is still
/// a board (a dialog over all of it) when a frame and lattice were found.
fn trust_cells_or_cut(read: usize, grid: &GridRead) -> Trust {
    match trust_cells(grid) {
        Trust::NotThisGame { issues, .. } if read > 0 || !issues.is_empty() => Trust::Unreadable {
            total: grid.lattice.rows() * grid.lattice.cols(),
            issues,
        },
        t => t,
    }
}

/// Reads every cell's look.
fn read_cells(
    img: &RgbImage,
    lattice: Lattice,
    pal: &Palette,
) -> (GridRead, Vec<Vec<Option<Look>>>) {
    let mut looks = Vec::with_capacity(lattice.rows());
    let cells = (0..lattice.rows())
        .map(|r| {
            let mut row_looks = Vec::with_capacity(lattice.cols());
            let row = (0..lattice.cols())
                .map(|c| {
                    let rect = lattice.cell(r, c);
                    // Measured for the lattice kept only (see `read`).
                    let s = CellSample::default();
                    match look::look_cell(img, rect, pal) {
                        Ok((l, confidence)) => {
                            row_looks.push(Some(l));
                            CellRead {
                                letter: Some(l.letter()),
                                confidence,
                                guess: l.letter(),
                                sample: s,
                                why: None,
                            }
                        }
                        Err(why) => {
                            row_looks.push(None);
                            CellRead {
                                letter: None,
                                confidence: 0.0,
                                guess: '?',
                                sample: s,
                                why: Some(Unreadable::Other(why)),
                            }
                        }
                    }
                })
                .collect();
            looks.push(row_looks);
            row
        })
        .collect();
    (GridRead { lattice, cells }, looks)
}

/// The refusal of a board with a held piece (a drag under way), naming
/// its cells; the special piece lit on the goal is the solved board.
fn held(grid: &GridRead, looks: &[Look]) -> Option<Read> {
    let w = grid.lattice.cols();
    let cells: Vec<(usize, usize)> = looks
        .iter()
        .enumerate()
        .filter(|(_, l)| {
            matches!(l, Look::Blue { held: true, .. })
                && !matches!(
                    l,
                    Look::Blue {
                        special: true,
                        on_goal: true,
                        ..
                    }
                )
        })
        .map(|(i, _)| (i / w, i % w))
        .collect();
    if cells.is_empty() {
        return None;
    }
    let list: Vec<String> = cells.iter().map(|(r, c)| format!("({r},{c})")).collect();
    let reason = format!(
        "a piece is held (drawn lighter: pressed and not released, a drag under way) at {}: release it and look again",
        list.join(", ")
    );
    let issues = cells
        .iter()
        .map(|&(r, c)| issue(r, c, "part of the held piece"))
        .collect();
    Some(Read::uncertain(grid.clone(), reason, issues))
}

/// The blue drawings: blue cells joined across their sides, each sorted;
/// `Err` names two neighbours neither clearly joined nor apart.
fn drawings(
    img: &RgbImage,
    grid: &GridRead,
    looks: &[Look],
    pal: &Palette,
) -> Result<Vec<Cells>, (String, Vec<CellIssue>)> {
    let (h, w) = (grid.lattice.rows(), grid.lattice.cols());
    let mut parent: Vec<usize> = (0..w * h).collect();
    fn root(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    let held = |l: Look| matches!(l, Look::Blue { held: true, .. });
    for r in 0..h {
        for c in 0..w {
            let a = looks[r * w + c];
            if !a.is_blue() {
                continue;
            }
            for (dr, dc, right) in [(0, 1, true), (1, 0, false)] {
                let (r2, c2) = (r + dr, c + dc);
                if r2 >= h || c2 >= w {
                    continue;
                }
                let b = looks[r2 * w + c2];
                if !b.is_blue() || held(a) != held(b) {
                    continue;
                }
                match look::joined(img, grid.lattice.cell(r, c), right, held(a), pal) {
                    Join::Joined => {
                        let (x, y) = (root(&mut parent, r * w + c), root(&mut parent, r2 * w + c2));
                        parent[x] = y;
                    }
                    Join::Apart => {}
                    Join::Unsure(share) => {
                        return Err((
                            format!(
                                "cannot tell whether ({r},{c}) and ({r2},{c2}) are one piece: {share}% of the face goes on across their side"
                            ),
                            vec![
                                issue(r, c, "joined or apart?"),
                                issue(r2, c2, "joined or apart?"),
                            ],
                        ));
                    }
                }
            }
        }
    }
    let mut groups: std::collections::BTreeMap<usize, Cells> = Default::default();
    for (i, l) in looks.iter().enumerate() {
        if l.is_blue() {
            let k = root(&mut parent, i);
            groups.entry(k).or_default().push((i / w, i % w));
        }
    }
    let mut out: Vec<Cells> = groups.into_values().collect();
    out.iter_mut().for_each(|d| d.sort_unstable());
    out.sort();
    Ok(out)
}

/// The board's rows as the level format writes them.
pub fn rows(board: &Board) -> Vec<String> {
    board.layout.rows()
}
