//! One lettering for every board boardbot writes from a screen: `A` the
//! red car, then `B`, `C`, … in the order of each vehicle's first cell,
//! row by row. A screenshot cannot show which letter a player's database
//! gave a vehicle, so the reader letters this way, and the live player's
//! predictions are re-lettered the same way before they are compared.

use super::board::SIZE;

/// `board` (36 cells, any letters) re-lettered canonically. Cells that are
/// not letters are kept; `o` and `.` both stay as written.
pub fn canonical(board: &str) -> String {
    let cells: Vec<char> = board
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '/')
        .collect();
    let mut map: Vec<(char, char)> = vec![('A', 'A')];
    let mut next = b'B';
    for &c in &cells {
        if c.is_ascii_uppercase() && !map.iter().any(|(from, _)| *from == c) {
            map.push((c, char::from(next)));
            next = next.saturating_add(1);
        }
    }
    cells
        .iter()
        .map(|&c| {
            map.iter()
                .find(|(from, _)| *from == c)
                .map_or(c, |(_, to)| *to)
        })
        .collect()
}

/// A 36-cell board as six rows.
pub fn rows(board: &str) -> Vec<String> {
    let cells: Vec<char> = board.chars().collect();
    cells.chunks(SIZE).map(|r| r.iter().collect()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_follow_the_first_cells_row_by_row() {
        assert_eq!(
            canonical("IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM"),
            "BCCxooBooDEEFAADooFoGHHIJJGooIKKLLLI"
        );
        let b = "BCCxooBooDEEFAADooFoGHHIJJGooIKKLLLI";
        assert_eq!(canonical(b), b);
        assert_eq!(rows(b)[1], "BooDEE");
    }
}
