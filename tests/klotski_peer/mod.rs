//! A second implementation of GNOME Klotski's rules, written from the
//! game's own `puzzle.vala` (3.38.2) and the issue text, to replay the
//! planner's plans. It shares no code with `boardbot::engines::blocks`: like
//! GNOME, it keeps the board as a grid of characters, moves a piece by
//! rewriting every cell holding its character, and puts back the goal and
//! door marks a piece uncovers.
//!
//! Rules, as `check_valid_move`/`do_move_piece`/`game_over` state them:
//! - a piece moves one cell up, down, left or right when every target cell
//!   is free (` `), a goal (`.`), its own, or a door (`-`) for `*` only;
//! - the level is won when every `*` cell stands on a cell that was a goal.

/// A level as GNOME holds it: the characters now, and the floor under them.
#[derive(Clone, Debug)]
pub struct Klotski {
    pub width: usize,
    pub height: usize,
    /// The characters on the board now, row-major.
    pub map: Vec<char>,
    /// What each cell is without its piece: `#`, ` `, `.` or `-`.
    pub floor: Vec<char>,
}

/// Moves counted the two ways the issue names.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Cells moved, one per single-cell step.
    pub steps: usize,
    /// Runs of consecutive steps by one piece: GNOME's move counter.
    pub pieces: usize,
}

impl Klotski {
    /// Reads one level in boardbot's text format: `%` comment lines, rows of
    /// characters (`_` is a free cell), then optionally `% floor` and the
    /// floor's rows.
    pub fn parse(text: &str) -> Result<Klotski, String> {
        let mut rows: Vec<Vec<char>> = Vec::new();
        let mut floor_rows: Vec<Vec<char>> = Vec::new();
        let mut in_floor = false;
        for line in text.lines() {
            if line.trim_end() == "% floor" {
                in_floor = true;
                continue;
            }
            if line.starts_with('%') || line.trim().is_empty() {
                continue;
            }
            let cells: Vec<char> = line
                .chars()
                .map(|c| if c == '_' { ' ' } else { c })
                .collect();
            if in_floor {
                floor_rows.push(cells);
            } else {
                rows.push(cells);
            }
        }
        let width = rows
            .iter()
            .chain(&floor_rows)
            .map(Vec::len)
            .max()
            .unwrap_or(0);
        let height = rows.len();
        if width == 0 {
            return Err("no rows".into());
        }
        let pad = |r: &Vec<char>| {
            let mut r = r.clone();
            r.resize(width, ' ');
            r
        };
        let map: Vec<char> = rows.iter().flat_map(pad).collect();
        let floor: Vec<char> = if floor_rows.is_empty() {
            map.iter()
                .map(|&c| if "#.- ".contains(c) { c } else { ' ' })
                .collect()
        } else {
            if floor_rows.len() != height {
                return Err("the floor block has another number of rows".into());
            }
            floor_rows.iter().flat_map(pad).collect()
        };
        Ok(Klotski {
            width,
            height,
            map,
            floor,
        })
    }

    fn is_piece(c: char) -> bool {
        !"#.- ".contains(c)
    }

    /// Moves piece `id` one cell by `(dx, dy)`, as GNOME does, or says why not.
    pub fn step(&mut self, id: char, dx: i64, dy: i64) -> Result<(), String> {
        if !Self::is_piece(id) {
            return Err(format!("{id:?} is not a piece"));
        }
        let cells: Vec<usize> = (0..self.map.len()).filter(|&i| self.map[i] == id).collect();
        if cells.is_empty() {
            return Err(format!("no piece {id:?} on the board"));
        }
        let mut targets = Vec::new();
        for &i in &cells {
            let x = (i % self.width) as i64 + dx;
            let y = (i / self.width) as i64 + dy;
            if x < 0 || y < 0 || x >= self.width as i64 || y >= self.height as i64 {
                return Err(format!("{id} would leave the board"));
            }
            let t = y as usize * self.width + x as usize;
            let z = self.map[t];
            if !(z == ' ' || z == '.' || z == id || (id == '*' && z == '-')) {
                return Err(format!("{id} is blocked by {z:?} at row {y}, column {x}"));
            }
            targets.push(t);
        }
        for &i in &cells {
            self.map[i] = self.floor[i];
        }
        for t in targets {
            self.map[t] = id;
        }
        Ok(())
    }

    /// GNOME's `game_over`: every `*` cell stands on an original goal cell.
    pub fn won(&self) -> bool {
        self.map
            .iter()
            .zip(&self.floor)
            .all(|(&c, &f)| c != '*' || f == '.')
    }

    /// Plays moves written `a:DR` (a piece's character, a colon, its steps).
    pub fn play(&mut self, moves: &[String]) -> Result<Counts, String> {
        let mut counts = Counts::default();
        let mut last = None;
        for (n, m) in moves.iter().enumerate() {
            let mut chars = m.chars();
            let (Some(id), Some(':')) = (chars.next(), chars.next()) else {
                return Err(format!("move {} ({m:?}) is not `piece:steps`", n + 1));
            };
            let path: Vec<char> = chars.collect();
            if path.is_empty() {
                return Err(format!("move {} ({m:?}) has no steps", n + 1));
            }
            for d in path {
                let (dx, dy) = match d {
                    'U' => (0, -1),
                    'D' => (0, 1),
                    'L' => (-1, 0),
                    'R' => (1, 0),
                    _ => return Err(format!("move {} ({m:?}): unknown direction {d}", n + 1)),
                };
                self.step(id, dx, dy)
                    .map_err(|e| format!("move {} ({m}): {e}", n + 1))?;
                counts.steps += 1;
                if last != Some(id) {
                    counts.pieces += 1;
                }
                last = Some(id);
            }
        }
        Ok(counts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_pieces_and_restores_the_floor() {
        let mut k = Klotski::parse("#####\n#*a #\n##-##\n__.__\n").unwrap();
        assert!(k.step('a', 1, 0).is_ok());
        assert!(k.step('a', 0, 1).is_err(), "a wall below");
        assert!(k.step('*', 1, 0).is_ok());
        assert!(k.step('a', 0, -1).is_err(), "a wall above");
        assert!(
            k.step('*', 0, 1).is_ok(),
            "the special piece enters the door"
        );
        assert!(!k.won());
        assert!(k.step('*', 0, 1).is_ok());
        assert!(k.won());
        assert_eq!(k.map[2 * 5 + 2], '-', "the door is put back");
    }

    #[test]
    fn a_door_stops_other_pieces() {
        let mut k = Klotski::parse("#a#\n#-#\n#*#\n#.#\n").unwrap();
        assert!(k.step('a', 0, 1).is_err());
    }

    #[test]
    fn counts_runs_of_one_piece_as_one_move() {
        let mut k =
            Klotski::parse("####\n#* #\n#a #\n#. #\n####\n% floor\n####\n#  #\n#  #\n#. #\n####\n")
                .unwrap();
        let c = k.play(&["a:R".into(), "*:D".into(), "*:D".into()]).unwrap();
        assert_eq!(
            c,
            Counts {
                steps: 3,
                pieces: 2
            }
        );
        assert!(k.won());
    }
}
