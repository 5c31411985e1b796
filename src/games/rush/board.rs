//! The Rush Hour model, in Michael Fogleman's database format: 36
//! characters row by row, `o` or `.` empty, `x` a wall, `A` the red car
//! (it leaves through the right edge of its row), `B`–`Z` the other cars
//! and trucks, 2 or 3 long.
//!
//! Each vehicle keeps its row (horizontal) or column (vertical), so a
//! position is just each vehicle's offset along its line: 3 bits each,
//! packed into a `u64` ([`State`]). Occupancy is a 36-bit bitboard.

use std::fmt;

/// Board side.
pub const SIZE: usize = 6;
/// Vehicles a `u64` state can hold (3 bits each).
pub const MAX_VEHICLES: usize = 21;

/// Every vehicle's offset along its line, 3 bits each, vehicle 0 (the red
/// car) in the lowest bits.
pub type State = u64;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vehicle {
    pub letter: char,
    pub horizontal: bool,
    pub len: u8,
    /// The row of a horizontal vehicle, the column of a vertical one.
    pub line: u8,
}

impl Vehicle {
    /// The cell index (row * 6 + col) at `offset` along the line.
    fn cell(&self, offset: u8) -> usize {
        if self.horizontal {
            self.line as usize * SIZE + offset as usize
        } else {
            offset as usize * SIZE + self.line as usize
        }
    }

    pub fn max_offset(&self) -> u8 {
        SIZE as u8 - self.len
    }
}

/// A slide of one vehicle: `B+2` moves B two cells right (or down).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub vehicle: u8,
    pub letter: char,
    pub delta: i8,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{:+}", self.letter, self.delta)
    }
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ParseError {
    #[error("the board has {0} cells; a Rush Hour board has 36 (6 rows of 6)")]
    Length(usize),
    #[error("row {row} has {found} cells; every row must have 6")]
    Ragged { row: usize, found: usize },
    #[error(
        "row {row}, column {col}: {found:?} is not a cell (o or . empty, x wall, A red car, B-Z other vehicles)"
    )]
    BadChar { row: usize, col: usize, found: char },
    #[error(
        "vehicle {letter} (first at row {row}, column {col}) is not one straight run of cells: two vehicles share the letter, or they overlap"
    )]
    Shape {
        letter: char,
        row: usize,
        col: usize,
    },
    #[error(
        "vehicle {letter} at row {row}, column {col} is {len} cell(s) long; vehicles are 2 or 3 long"
    )]
    Len {
        letter: char,
        row: usize,
        col: usize,
        len: usize,
    },
    #[error("there is no red car (A)")]
    NoRedCar,
    #[error("the red car (A) must lie across its row, to leave by the right edge")]
    RedCarVertical,
    #[error("{0} vehicles; the solver handles up to 21")]
    TooMany(usize),
}

/// A puzzle: the vehicles and the walls; positions are [`State`]s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// Vehicle 0 is the red car; the others in letter order.
    pub vehicles: Vec<Vehicle>,
    pub walls: u64,
    /// masks[v][offset]: the cells vehicle v covers at that offset.
    masks: Vec<[u64; SIZE]>,
}

const BITS: u32 = 3;
const FIELD: u64 = (1 << BITS) - 1;

impl Puzzle {
    /// Parses a board, as 36 characters or as 6 lines of 6.
    pub fn parse(text: &str) -> Result<(Puzzle, State), ParseError> {
        let cells = cells_of(text)?;
        let (walls, letters) = scan(&cells)?;
        if letters.first().is_none_or(|(l, _)| *l != 'A') {
            return Err(ParseError::NoRedCar);
        }
        if letters.len() > MAX_VEHICLES {
            return Err(ParseError::TooMany(letters.len()));
        }
        let mut vehicles = Vec::new();
        let mut state: State = 0;
        for (k, (letter, idx)) in letters.iter().enumerate() {
            let (v, offset) = vehicle(*letter, idx)?;
            if k == 0 && !v.horizontal {
                return Err(ParseError::RedCarVertical);
            }
            vehicles.push(v);
            state |= (offset as u64) << (BITS * k as u32);
        }
        let masks = vehicles.iter().map(masks_of).collect();
        Ok((
            Puzzle {
                vehicles,
                walls,
                masks,
            },
            state,
        ))
    }

    pub fn offset(&self, s: State, v: usize) -> u8 {
        ((s >> (BITS * v as u32)) & FIELD) as u8
    }

    fn with_offset(s: State, v: usize, off: u8) -> State {
        let shift = BITS * v as u32;
        (s & !(FIELD << shift)) | (u64::from(off) << shift)
    }

    /// Cells taken by walls and vehicles.
    pub fn occupancy(&self, s: State) -> u64 {
        (0..self.vehicles.len()).fold(self.walls, |occ, v| {
            occ | self.masks[v][self.offset(s, v) as usize]
        })
    }

    /// The red car is at the right edge: it can leave.
    pub fn is_goal(&self, s: State) -> bool {
        self.offset(s, 0) == self.vehicles[0].max_offset()
    }

    /// Calls `f` with every slide of every vehicle, any distance, and its result.
    #[inline]
    fn slides(&self, s: State, mut f: impl FnMut(usize, u8, State)) {
        let occ = self.occupancy(s);
        for (v, veh) in self.vehicles.iter().enumerate() {
            let off = self.offset(s, v);
            let free = occ & !self.masks[v][off as usize];
            let mut to = off;
            while to > 0 && self.masks[v][to as usize - 1] & free == 0 {
                to -= 1;
                f(v, off, Self::with_offset(s, v, to));
            }
            let mut to = off;
            while to < veh.max_offset() && self.masks[v][to as usize + 1] & free == 0 {
                to += 1;
                f(v, off, Self::with_offset(s, v, to));
            }
        }
    }

    /// Every slide of every vehicle, any distance, with its result.
    pub fn successors(&self, s: State, out: &mut Vec<(Move, State)>) {
        self.slides(s, |v, from, n| {
            let to = self.offset(n, v);
            let letter = self.vehicles[v].letter;
            out.push((
                Move {
                    vehicle: v as u8,
                    letter,
                    delta: to as i8 - from as i8,
                },
                n,
            ));
        });
    }

    /// The states one slide away (no moves), for counting and mapping.
    pub fn neighbours(&self, s: State, out: &mut Vec<State>) {
        self.slides(s, |_, _, n| out.push(n));
    }

    /// Plays a move written `B+2`, or says why it is not legal here.
    pub fn apply(&self, s: State, text: &str) -> Result<(Move, State), String> {
        let t = text.trim();
        let mut chars = t.chars();
        let letter = chars.next().ok_or("an empty move")?;
        let delta: i8 = chars.as_str().parse().map_err(|_| {
            format!("{t:?} is not a move; write a vehicle and a signed distance, as B+2 or A-1")
        })?;
        let v = self
            .vehicles
            .iter()
            .position(|x| x.letter == letter)
            .ok_or_else(|| format!("{t}: there is no vehicle {letter}"))?;
        if delta == 0 {
            return Err(format!("{t}: a move must slide at least one cell"));
        }
        let mut moves = Vec::new();
        self.successors(s, &mut moves);
        moves
            .into_iter()
            .find(|(m, _)| m.vehicle as usize == v && m.delta == delta)
            .ok_or_else(|| {
                format!(
                    "{t}: {letter} cannot slide {delta:+} from here (blocked, or off the board)"
                )
            })
    }

    /// The board as 36 characters, `o` for empty cells.
    pub fn board_string(&self, s: State) -> String {
        let mut cells = ['o'; SIZE * SIZE];
        for (i, c) in cells.iter_mut().enumerate() {
            if self.walls >> i & 1 == 1 {
                *c = 'x';
            }
        }
        for (v, veh) in self.vehicles.iter().enumerate() {
            let off = self.offset(s, v);
            for k in 0..veh.len {
                cells[veh.cell(off + k)] = veh.letter;
            }
        }
        cells.iter().collect()
    }

    /// The board as six rows, for people.
    pub fn board_rows(&self, s: State) -> Vec<String> {
        let b: Vec<char> = self.board_string(s).chars().collect();
        b.chunks(SIZE).map(|r| r.iter().collect()).collect()
    }
}

/// The 36 cells of a board written on one line or as six rows.
fn cells_of(text: &str) -> Result<Vec<char>, ParseError> {
    let t = text.trim();
    let cells: Vec<char> = if t.contains(['\n', '/']) {
        let rows: Vec<&str> = t
            .split(['\n', '/'])
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .collect();
        for (i, r) in rows.iter().enumerate() {
            if r.chars().count() != SIZE {
                return Err(ParseError::Ragged {
                    row: i + 1,
                    found: r.chars().count(),
                });
            }
        }
        rows.concat().chars().collect()
    } else {
        t.chars().collect()
    };
    if cells.len() != SIZE * SIZE {
        return Err(ParseError::Length(cells.len()));
    }
    Ok(cells)
}

/// The walls' bitboard, and each vehicle letter's cells, by letter.
type Scanned = (u64, Vec<(char, Vec<usize>)>);

fn scan(cells: &[char]) -> Result<Scanned, ParseError> {
    let mut walls = 0u64;
    let mut letters: Vec<(char, Vec<usize>)> = Vec::new();
    for (i, &ch) in cells.iter().enumerate() {
        match ch {
            'o' | '.' => {}
            'x' => walls |= 1 << i,
            'A'..='Z' => match letters.iter_mut().find(|(l, _)| *l == ch) {
                Some((_, v)) => v.push(i),
                None => letters.push((ch, vec![i])),
            },
            _ => {
                return Err(ParseError::BadChar {
                    row: i / SIZE + 1,
                    col: i % SIZE + 1,
                    found: ch,
                });
            }
        }
    }
    letters.sort_by_key(|(l, _)| *l);
    Ok((walls, letters))
}

/// A vehicle from its letter and cells, with its offset along its line.
fn vehicle(letter: char, idx: &[usize]) -> Result<(Vehicle, usize), ParseError> {
    let (r0, c0) = (idx[0] / SIZE, idx[0] % SIZE);
    let len = idx.len();
    if !(2..=3).contains(&len) {
        return Err(ParseError::Len {
            letter,
            row: r0 + 1,
            col: c0 + 1,
            len,
        });
    }
    let horizontal =
        idx.iter().all(|&i| i / SIZE == r0) && idx.windows(2).all(|w| w[1] == w[0] + 1);
    let vertical =
        idx.iter().all(|&i| i % SIZE == c0) && idx.windows(2).all(|w| w[1] == w[0] + SIZE);
    if !horizontal && !vertical {
        return Err(ParseError::Shape {
            letter,
            row: r0 + 1,
            col: c0 + 1,
        });
    }
    let (line, offset) = if horizontal { (r0, c0) } else { (c0, r0) };
    let v = Vehicle {
        letter,
        horizontal,
        len: len as u8,
        line: line as u8,
    };
    Ok((v, offset))
}

/// The cells a vehicle covers at each offset.
fn masks_of(v: &Vehicle) -> [u64; SIZE] {
    let mut m = [0u64; SIZE];
    for off in 0..=v.max_offset() {
        for k in 0..v.len {
            m[off as usize] |= 1 << v.cell(off + k);
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    const HARDEST: &str = "IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM";

    #[test]
    fn parses_and_prints_back() {
        let (p, s) = Puzzle::parse(HARDEST).unwrap();
        assert_eq!(p.board_string(s), HARDEST);
        assert_eq!(p.vehicles[0].letter, 'A');
        assert_eq!(p.walls.count_ones(), 1);
        let rows = HARDEST
            .as_bytes()
            .chunks(6)
            .map(|r| std::str::from_utf8(r).unwrap())
            .collect::<Vec<_>>()
            .join("\n");
        assert_eq!(Puzzle::parse(&rows).unwrap().1, s);
        assert_eq!(Puzzle::parse(&HARDEST.replace('o', ".")).unwrap().1, s);
    }

    #[test]
    fn bad_boards_say_where() {
        assert_eq!(Puzzle::parse("oooo").unwrap_err(), ParseError::Length(4));
        assert_eq!(
            Puzzle::parse(&HARDEST.replacen('o', "#", 1)).unwrap_err(),
            ParseError::BadChar {
                row: 1,
                col: 5,
                found: '#'
            }
        );
        assert_eq!(
            Puzzle::parse(&HARDEST.replace('A', "o")).unwrap_err(),
            ParseError::NoRedCar
        );
        let b = "BoooooBoooooAAoooooooooooooooooooooC";
        assert!(matches!(
            Puzzle::parse(b).unwrap_err(),
            ParseError::Len {
                letter: 'C',
                row: 6,
                col: 6,
                len: 1
            }
        ));
        let b = "BooBooBoooooAAoooooooooooooooooooooo";
        assert!(matches!(
            Puzzle::parse(b).unwrap_err(),
            ParseError::Shape { letter: 'B', .. }
        ));
        let b = "AoooooAooooooooooooooooooooooooooooo";
        assert_eq!(Puzzle::parse(b).unwrap_err(), ParseError::RedCarVertical);
        assert!(matches!(
            Puzzle::parse("ooooooo\noooooo\nAAoooo\noooooo\noooooo\noooooo").unwrap_err(),
            ParseError::Ragged { row: 1, found: 7 }
        ));
    }

    #[test]
    fn slides_any_distance_and_stops_at_blockers() {
        let (p, s) =
            Puzzle::parse(&["oooooo", "oooooo", "AAoooo", "ooooBo", "ooooBo", "oooooo"].concat())
                .unwrap();
        let mut out = Vec::new();
        p.successors(s, &mut out);
        let mut names: Vec<String> = out.iter().map(|(m, _)| m.to_string()).collect();
        names.sort();
        assert_eq!(
            names,
            ["A+1", "A+2", "A+3", "A+4", "B+1", "B-1", "B-2", "B-3"]
        );
        let (_, done) = p.apply(s, "A+4").unwrap();
        assert!(p.is_goal(done));
        assert!(p.apply(s, "A+5").is_err());
        assert!(p.apply(s, "Q+1").is_err());
        assert!(p.apply(s, "B").is_err());
    }
}
