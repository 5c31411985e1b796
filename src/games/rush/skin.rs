//! Rush Hour through a learned skin: a cell's class says what part of a
//! vehicle it shows, so that two cars end to end stay two cars however
//! alike a skin draws them (fogleman/rush draws every car one colour).
//!
//! | class | cell |
//! |---|---|
//! | `.` `x` | floor, wall |
//! | `A<` `A-` `A>` | the red car's left end, middle, right end |
//! | `h<` `h-` `h>` | another horizontal vehicle's left end, middle, right end |
//! | `v^` `v|` `vv` | a vertical vehicle's top, middle, bottom |

use super::board::{Puzzle, SIZE};

/// Each cell's class, from a board in Fogleman's format.
pub fn labels_of(text: &str) -> Result<Vec<Vec<String>>, String> {
    let (puzzle, state) = Puzzle::parse(text).map_err(|e| e.to_string())?;
    let mut cells: Vec<String> = (0..SIZE * SIZE)
        .map(|i| if puzzle.walls >> i & 1 == 1 { "x" } else { "." }.to_string())
        .collect();
    for (k, v) in puzzle.vehicles.iter().enumerate() {
        let off = puzzle.offset(state, k) as usize;
        for j in 0..v.len as usize {
            let part = match (j, j + 1 == v.len as usize) {
                (0, _) => 0,
                (_, true) => 2,
                _ => 1,
            };
            let (i, marks) = if v.horizontal {
                (v.line as usize * SIZE + off + j, ['<', '-', '>'])
            } else {
                ((off + j) * SIZE + v.line as usize, ['^', '|', 'v'])
            };
            let kind = match (k, v.horizontal) {
                (0, _) => 'A',
                (_, true) => 'h',
                _ => 'v',
            };
            cells[i] = format!("{kind}{}", marks[part]);
        }
    }
    Ok(cells.chunks(SIZE).map(<[String]>::to_vec).collect())
}

/// What to say when `text` looks like the colour classes older versions
/// of `calibrate` took (`bggx../b..tyy/…`), empty otherwise.
pub fn colour_rows_hint(text: &str) -> &'static str {
    let colours = text.contains('/')
        || text
            .chars()
            .any(|c| c.is_ascii_lowercase() && !matches!(c, 'o' | 'x'));
    if colours {
        " (write the board in Fogleman's format, as `solve --board` takes it: the colour classes of older versions are not read, since the built-in look became a skin)"
    } else {
        ""
    }
}

/// The board that cells of these classes show, in Fogleman's format:
/// vehicles lettered in reading order, then checked by the parser.
pub fn board_of(labels: &[Vec<String>]) -> Result<String, String> {
    if labels.len() != SIZE || labels.iter().any(|r| r.len() != SIZE) {
        return Err(format!("a Rush Hour board is {SIZE}×{SIZE} cells"));
    }
    let at = |r: usize, c: usize| labels[r][c].as_str();
    let mut out = vec!['o'; SIZE * SIZE];
    let mut next = b'B';
    for r in 0..SIZE {
        for c in 0..SIZE {
            let (kind, along) = match at(r, c) {
                "." => continue,
                "x" => {
                    out[r * SIZE + c] = 'x';
                    continue;
                }
                "A<" => ('A', true),
                "h<" => ('h', true),
                "v^" => ('v', false),
                _ => continue,
            };
            let letter = if kind == 'A' {
                'A'
            } else {
                let l = char::from(next);
                next += 1;
                l
            };
            let mid = if kind == 'v' {
                "v|"
            } else if kind == 'A' {
                "A-"
            } else {
                "h-"
            };
            let end = if kind == 'v' {
                "vv"
            } else if kind == 'A' {
                "A>"
            } else {
                "h>"
            };
            let mut k = 1;
            loop {
                let (rr, cc) = if along { (r, c + k) } else { (r + k, c) };
                if rr >= SIZE || cc >= SIZE {
                    return Err(format!("the vehicle at ({r},{c}) has no end"));
                }
                let here = at(rr, cc);
                out[rr * SIZE + cc] = letter;
                if here == end {
                    break;
                }
                if here != mid {
                    return Err(format!("the vehicle at ({r},{c}) is broken at ({rr},{cc})"));
                }
                k += 1;
            }
            out[r * SIZE + c] = letter;
        }
    }
    let text: String = out.into_iter().collect();
    // Every part of a vehicle must belong to one: a stray middle or end is
    // no legal board.
    let lettered = text.chars().filter(|&ch| ch != 'o' && ch != 'x').count();
    let parts = labels.iter().flatten().filter(|l| l.len() == 2).count();
    if lettered != parts {
        return Err("a part of a vehicle belongs to no vehicle".into());
    }
    Puzzle::parse(&text)
        .map_err(|e| format!("the board read is not a legal Rush Hour board: {e}"))?;
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_round_trip_to_the_board() {
        let text = "IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM";
        let labels = labels_of(text).unwrap();
        assert_eq!(labels[2][1], "A<");
        assert_eq!(labels[0][0], "v^");
        let back = board_of(&labels).unwrap();
        // Letters follow reading order, so compare the parsed puzzles' shapes.
        assert_eq!(labels_of(&back).unwrap(), labels);
    }

    #[test]
    fn a_stray_part_is_refused() {
        let mut labels = labels_of("IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM").unwrap();
        labels[0][4] = "h>".into();
        assert!(board_of(&labels).is_err());
    }
}
