//! Property tests of every text parser: whatever the input, a parser
//! returns a value or an error, never a panic; and what it accepts, it
//! prints back the same.

use boardbot::games::bitlock::level::Level;
use boardbot::games::bitlock::rules::{Dir, Key, Rules};
use boardbot::games::rush::board::Puzzle;
use boardbot::games::troyis::board::Board;
use proptest::prelude::*;

/// Strings over the Rush Hour alphabet plus a little noise, of lengths
/// around 36, and with row breaks sometimes.
fn rush_text() -> impl Strategy<Value = String> {
    let cell = prop_oneof![
        6 => Just('o'),
        1 => Just('.'),
        1 => Just('x'),
        2 => Just('A'),
        2 => prop::char::range('B', 'F'),
        1 => prop::char::range('G', 'Z'),
        1 => prop::sample::select(vec!['#', ' ', 'a', '\n', '/', '1', 'é']),
    ];
    prop::collection::vec(cell, 0..48).prop_map(|v| v.into_iter().collect())
}

/// A valid board with a random legal layout: the red car plus a few
/// vehicles dropped where they fit.
fn rush_board() -> impl Strategy<Value = String> {
    (
        0u8..5,
        prop::collection::vec(
            (any::<bool>(), 2u8..4, 0u8..6, 0u8..5, any::<bool>()),
            0..12,
        ),
    )
        .prop_map(|(a, cars)| {
            let mut cells = ['o'; 36];
            cells[12 + a as usize] = 'A';
            cells[13 + a as usize] = 'A';
            let mut letter = b'B';
            for (horizontal, len, line, off, wall) in cars {
                if wall {
                    let i = (line as usize * 6 + off as usize) % 36;
                    if cells[i] == 'o' {
                        cells[i] = 'x';
                    }
                    continue;
                }
                let off = off.min(6 - len);
                let idx: Vec<usize> = (0..len)
                    .map(|k| {
                        if horizontal {
                            line as usize * 6 + (off + k) as usize
                        } else {
                            (off + k) as usize * 6 + line as usize
                        }
                    })
                    .collect();
                if idx.iter().all(|&i| cells[i] == 'o') && letter <= b'Z' {
                    idx.iter().for_each(|&i| cells[i] = char::from(letter));
                    letter += 1;
                }
            }
            cells.iter().collect()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn rush_parser_never_panics(text in rush_text()) {
        if let Ok((p, s)) = Puzzle::parse(&text) {
            // Whatever it accepted, it can print and move.
            let b = p.board_string(s);
            prop_assert_eq!(b.len(), 36);
            let mut out = Vec::new();
            p.successors(s, &mut out);
        }
    }

    #[test]
    fn rush_boards_round_trip_and_moves_keep_them_valid(board in rush_board()) {
        let (p, s) = Puzzle::parse(&board).expect("a valid board");
        prop_assert_eq!(p.board_string(s), board.clone());
        let mut out = Vec::new();
        p.successors(s, &mut out);
        for (m, n) in out {
            // Every successor is a board the parser accepts, with the same cars.
            let text = p.board_string(n);
            let (q, t) = Puzzle::parse(&text).expect("a move keeps the board valid");
            prop_assert_eq!(q.board_string(t), text);
            prop_assert_eq!(p.apply(s, &m.to_string()).map(|x| x.1), Ok(n));
        }
    }

    #[test]
    fn bitlock_parser_and_rules_never_panic(text in "[#+* a-dn-zA-DNZ=/\n.]{0,80}") {
        if let Ok(level) = Level::parse(&text) {
            if let Ok(rules) = Rules::new(level) {
                if let Ok(k) = rules.start::<32>() {
                    let k: Key<32> = k;
                    for d in Dir::ALL {
                        let n = rules.play(&k, d);
                        let _ = rules.render(&n);
                    }
                }
            }
        }
    }

    #[test]
    fn troyis_parser_never_panics(text in "[KWV.kx/\n ]{0,300}") {
        if let Ok(b) = Board::parse(&text) {
            prop_assert_eq!(Board::parse(&b.to_string()), Ok(b));
        }
    }
}
