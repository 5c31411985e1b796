//! Fifteen positions as text: sgt-puzzles' game IDs (`4x4:1,2,…,0`, the
//! gap written `0`, slots row by row) and a plain grid of numbers (the gap
//! written `0`, `.` or `_`), any W×H from 2×2 to 4×4. A row written as one
//! word has one character per slot (`1`-`9`, `A`-`F` for 10-15, `.`),
//! as boards are reported. Also Korf's file of 100 random instances,
//! turned into sgt's goal.

use crate::engines::tiles::{Tiles, TilesError};

/// The smallest and largest side sgt-fifteen's frames have here.
pub const SIDES: std::ops::RangeInclusive<usize> = 2..=4;

/// Why a position's text is not a Fifteen frame; each message names the line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LevelError {
    #[error("line {line}: {message}")]
    At { line: usize, message: String },
    #[error("no position: the text is empty")]
    Empty,
}

fn at(line: usize, message: impl Into<String>) -> LevelError {
    LevelError::At {
        line,
        message: message.into(),
    }
}

/// The lines that are neither blank nor `#` comments, trimmed, with
/// their numbers.
fn content_lines(text: &str) -> Vec<(usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// Reads a game ID or a grid; `#` starts a comment line.
pub fn parse(text: &str) -> Result<Tiles, LevelError> {
    let lines = content_lines(text);
    let Some(&(first, head)) = lines.first() else {
        return Err(LevelError::Empty);
    };
    if head.contains(':') {
        if lines.len() > 1 {
            return Err(at(lines[1].0, "a game ID is one line; this is more"));
        }
        return parse_id(head, first);
    }
    parse_grid(&lines)
}

/// `WxH:a,b,…`: sgt-fifteen's game ID.
pub fn parse_id(id: &str, line: usize) -> Result<Tiles, LevelError> {
    let (size, values) = id.split_once(':').ok_or_else(|| {
        at(
            line,
            format!("{id:?} is not a game ID like 3x3:1,2,3,4,5,6,7,8,0"),
        )
    })?;
    let (w, h) = size
        .split_once(['x', 'X'])
        .and_then(|(w, h)| Some((w.trim().parse().ok()?, h.trim().parse().ok()?)))
        .ok_or_else(|| at(line, format!("{size:?} is not a size like 4x4")))?;
    check_sides(w, h, line)?;
    let slots = values
        .split(',')
        .map(|v| {
            v.trim()
                .parse::<u8>()
                .map_err(|_| at(line, format!("{:?} is not a tile number", v.trim())))
        })
        .collect::<Result<Vec<u8>, _>>()?;
    frame(w, h, &slots, line)
}

fn check_sides(w: usize, h: usize, line: usize) -> Result<(), LevelError> {
    if SIDES.contains(&w) && SIDES.contains(&h) {
        return Ok(());
    }
    Err(at(
        line,
        format!("a {w}x{h} frame: each side must be 2 to 4 tiles"),
    ))
}

fn frame(w: usize, h: usize, slots: &[u8], line: usize) -> Result<Tiles, LevelError> {
    Tiles::new(w, h, slots).map_err(|e: TilesError| at(line, e.to_string()))
}

/// A slot as one character: `1`-`9`, `A`-`F` for 10-15, `.` for the gap.
pub fn tile_char(v: u8) -> char {
    match v {
        0 => '.',
        _ => char::from_digit(u32::from(v), 16).map_or('?', |c| c.to_ascii_uppercase()),
    }
}

/// The cells of one grid row: numbers apart, or one word of characters.
fn row_cells(row: &str) -> Vec<String> {
    let words: Vec<&str> = row
        .split([' ', '\t', ','])
        .filter(|c| !c.is_empty())
        .collect();
    // A frame is at least two wide, so a lone word is a row of characters.
    if words.len() == 1 && words[0].chars().count() > 1 {
        return words[0].chars().map(|c| c.to_string()).collect();
    }
    words.into_iter().map(str::to_string).collect()
}

fn cell_value(c: &str, line: usize) -> Result<u8, LevelError> {
    match c {
        "." | "_" => Ok(0),
        _ => c
            .parse::<u8>()
            .ok()
            .or_else(|| u8::from_str_radix(c, 16).ok().filter(|_| c.len() == 1))
            .ok_or_else(|| {
                at(
                    line,
                    format!("{c:?} is not a tile number or the gap (0 . _)"),
                )
            }),
    }
}

/// Rows of numbers separated by spaces; the gap is `0`, `.` or `_`.
fn parse_grid(lines: &[(usize, &str)]) -> Result<Tiles, LevelError> {
    let mut slots = Vec::new();
    let mut width = None;
    for &(line, row) in lines {
        let cells = row_cells(row);
        match width {
            None => width = Some(cells.len()),
            Some(w) if w != cells.len() => {
                return Err(at(
                    line,
                    format!("{} tiles in this row, {w} in the first", cells.len()),
                ));
            }
            Some(_) => {}
        }
        for c in &cells {
            slots.push(cell_value(c, line)?);
        }
    }
    let w = width.unwrap_or(0);
    let last = lines.last().map_or(1, |l| l.0);
    check_sides(w, lines.len(), last)?;
    frame(w, lines.len(), &slots, last)
}

/// One of Korf's instances, in sgt's goal.
#[derive(Clone, Debug)]
pub struct KorfInstance {
    /// The line of the tiles, in the file.
    pub line: usize,
    pub id: u32,
    /// The published optimal length.
    pub optimal: u32,
    /// Nodes Korf's IDA* with Manhattan distance generated.
    pub manhattan_nodes: u64,
    /// The start, as in the file (goal `0,1,…,15`).
    pub korf: Tiles,
    /// The same position turned into sgt's goal (`1,…,15,0`).
    pub start: Tiles,
}

/// Korf's goal `0 1 … 15` to sgt's `1 … 15 0`: turn the frame by 180° and
/// rename tile `t` as `16 - t` (the gap stays `0`). Solution lengths are kept.
pub fn korf_to_sgt(korf: &Tiles) -> Tiles {
    let n = korf.len();
    let mut slots = vec![0u8; n];
    for p in 0..n {
        let v = korf.get(p);
        slots[n - 1 - p] = if v == 0 { 0 } else { n as u8 - v };
    }
    Tiles::new(korf.width(), korf.height(), &slots).expect("a relabelled frame stays valid")
}

/// Whether a file is in Korf's format: its first line is three numbers.
pub fn is_korf(text: &str) -> bool {
    content_lines(text).first().is_some_and(|&(_, l)| {
        let words: Vec<&str> = l.split_whitespace().collect();
        words.len() == 3 && words.iter().all(|w| w.parse::<u64>().is_ok())
    })
}

/// Reads `ID OPTIMAL NODES` lines, each followed by the 16 tiles' line.
pub fn parse_korf(text: &str) -> Result<Vec<KorfInstance>, LevelError> {
    let lines = content_lines(text);
    if lines.len() % 2 != 0 {
        let last = lines.last().map_or(1, |l| l.0);
        return Err(at(last, "a header line without its tiles' line"));
    }
    lines
        .chunks(2)
        .map(|pair| korf_instance(pair[0], pair[1]))
        .collect()
}

fn numbers(line: usize, text: &str) -> Result<Vec<u64>, LevelError> {
    text.split_whitespace()
        .map(|t| {
            t.parse()
                .map_err(|_| at(line, format!("{t:?} is not a number")))
        })
        .collect()
}

fn korf_instance(head: (usize, &str), tiles: (usize, &str)) -> Result<KorfInstance, LevelError> {
    let h = numbers(head.0, head.1)?;
    let [id, optimal, nodes] = h[..] else {
        return Err(at(head.0, "expected `ID OPTIMAL NODES`"));
    };
    let t = numbers(tiles.0, tiles.1)?;
    if t.len() != 16 || t.iter().any(|&v| v > 15) {
        return Err(at(tiles.0, "expected 16 tiles, 0 to 15"));
    }
    let slots: Vec<u8> = t.iter().map(|&v| v as u8).collect();
    let korf = frame(4, 4, &slots, tiles.0)?;
    Ok(KorfInstance {
        line: tiles.0,
        id: id as u32,
        optimal: optimal as u32,
        manhattan_nodes: nodes,
        korf,
        start: korf_to_sgt(&korf),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_game_ids_and_grids() {
        let id = parse("3x2:1,2,3,4,0,5").unwrap();
        assert_eq!((id.width(), id.height(), id.gap()), (3, 2, 4));
        let grid = parse("# a comment\n1 2 3\n4 . 5\n").unwrap();
        assert_eq!(grid, id);
        assert_eq!(parse(&id.to_string()).unwrap(), id);
        let big = parse("4x4:1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15").unwrap();
        assert_eq!(parse("1234\n5678\n9ABC\nDE.F").unwrap(), big);
        assert_eq!(
            parse("1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 _ 15").unwrap(),
            big
        );
    }

    #[test]
    fn errors_name_the_line() {
        let e = parse("1 2 3\n4 5\n").unwrap_err().to_string();
        assert!(e.starts_with("line 2:"), "{e}");
        let e = parse("5x4:0").unwrap_err().to_string();
        assert!(e.contains("2 to 4"), "{e}");
        let e = parse("2x2:1,2,2,0").unwrap_err().to_string();
        assert!(e.contains("repeated"), "{e}");
        let e = parse("\n\n1 2\n3 x\n").unwrap_err().to_string();
        assert!(e.starts_with("line 4:"), "{e}");
        assert_eq!(parse(" \n# only\n"), Err(LevelError::Empty));
    }

    #[test]
    fn korf_goal_maps_to_sgt_goal() {
        let korf_goal: Vec<u8> = (0..16).collect();
        let g = Tiles::new(4, 4, &korf_goal).unwrap();
        assert_eq!(korf_to_sgt(&g), Tiles::solved(4, 4).unwrap());
    }
}
