//! Rush Hour in the blocks model, to compare the engines: Fogleman's
//! 36-character board becomes a 6×6 layout with two extra columns, walls
//! except the exit row, whose two cells beyond the edge are the goal; the
//! red car `A` is the special piece; every car keeps to its axis. A slide
//! of any length is one flood of one piece, so [`Metric::Pieces`] counts
//! Rush Hour's moves (the red car's last slide runs on out of the board in
//! the same move). `src/games/rush` keeps its own engine.

use super::board::Board;
use super::layout::Layout;
use super::moves::{Axis, Metric};
use super::plan::search_board;
use crate::solve::{Budget, Progress};

/// The board (36 characters, `o`/`.` empty, `x` wall, `A` the red car on
/// row 2) as a layout and each piece's axis.
pub fn layout(board: &str) -> Result<(Layout, Vec<Axis>), String> {
    let cells: Vec<char> = board.chars().collect();
    if cells.len() != 36 {
        return Err(format!("{board:?}: a Rush Hour board has 36 characters"));
    }
    let rows: Vec<String> = cells
        .chunks(6)
        .enumerate()
        .map(|(r, row)| {
            let mut s: String = row
                .iter()
                .map(|&c| match c {
                    'o' | '.' => ' ',
                    'x' => '#',
                    'A' => '*',
                    c => c,
                })
                .collect();
            s.push_str(if r == 2 { ".." } else { "##" });
            s
        })
        .collect();
    let l = Layout::parse(&rows.join("\n"), board).map_err(|e| e.to_string())?;
    let axes = l
        .pieces
        .iter()
        .map(|p| {
            if p.cells.iter().all(|c| c.0 == p.cells[0].0) {
                Axis::Horizontal
            } else {
                Axis::Vertical
            }
        })
        .collect();
    Ok((l, axes))
}

/// The optimal number of slides, by the blocks engine.
pub fn solution_length(board: &str) -> Result<Option<usize>, String> {
    let (l, axes) = layout(board)?;
    let o = search_board(
        Board::with_axes(&l, &axes),
        Metric::Pieces,
        &Budget::default(),
        &mut Progress::quiet(),
        None,
        &super::layers::Aim::Goal,
    )
    .map_err(|e| e.to_string())?;
    Ok(o.path.map(|p| p.len() - 1))
}

#[cfg(test)]
mod tests {
    use crate::games::rush::board::Puzzle;

    #[test]
    fn rush_boards_have_rush_lengths() {
        for board in [
            "ooooooooooooAAoooooooooooooooooooooo",
            "ooBoooooBoooAABooooooooooooooooooooo",
            "IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM",
            "BBoKMxDDDKMoIAALooIoJLEEooJFFNoGGoxN",
        ] {
            let (p, start) = Puzzle::parse(board).unwrap();
            let want = crate::games::rush::solver::solution_length(&p, start).map(|n| n as usize);
            assert_eq!(super::solution_length(board).unwrap(), want, "{board}");
        }
    }
}
