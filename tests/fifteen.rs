//! Fifteen and the sliding-tile solver: Korf's 100 instances at their
//! published optimal lengths, 3×3 boards against a full breadth-first
//! table, other frame shapes against a plain search, every plan replayed
//! by the independent rules below, the Korf-to-sgt goal mapping, parity,
//! the text formats and the table cache.

mod common;

use std::collections::{HashMap, VecDeque};
use std::path::Path;

use boardbot::engines::tiles::{self, SearchError, Slide, Tiles, cache};
use boardbot::game::Game;
use boardbot::games::fifteen::level::{self, korf_to_sgt, parse_korf};
use boardbot::games::fifteen::{Board, FIFTEEN};
use boardbot::report::Verdict;
use boardbot::rng::Rng;
use boardbot::tools::options::Options;

/// The rules again, written apart from `games::tiles`: a slide letter
/// names the way the tile moves into the gap.
fn replay(width: usize, start: &[u8], moves: &str) -> Vec<u8> {
    let mut b = start.to_vec();
    for m in moves.chars() {
        let gap = b.iter().position(|&v| v == 0).expect("a gap");
        let (x, y) = ((gap % width) as i64, (gap / width) as i64);
        let (tx, ty) = match m {
            'U' => (x, y + 1),
            'D' => (x, y - 1),
            'L' => (x + 1, y),
            'R' => (x - 1, y),
            _ => panic!("not a slide: {m}"),
        };
        let height = (b.len() / width) as i64;
        assert!(
            (0..width as i64).contains(&tx) && (0..height).contains(&ty),
            "{m} from gap {gap} leaves the frame"
        );
        b.swap(gap, (ty * width as i64 + tx) as usize);
    }
    b
}

fn goal(n: usize) -> Vec<u8> {
    (1..n as u8).chain([0]).collect()
}

fn letters(slides: &[Slide]) -> String {
    slides.iter().map(|s| s.letter()).collect()
}

/// Korf's instances from ../shared, or `None` (skipped, said why).
fn korf_text() -> Option<String> {
    let dir = common::shared("fifteen")?;
    Some(std::fs::read_to_string(dir.join("korf100.txt")).expect("korf100.txt"))
}

#[test]
fn korf100_at_published_optimal_lengths() {
    let Some(text) = korf_text() else { return };
    let instances = parse_korf(&text).expect("Korf's file parses");
    assert_eq!(instances.len(), 100);
    let goal16 = Tiles::solved(4, 4).unwrap();
    for inst in &instances {
        let found = tiles::solve(&inst.start, &goal16, u64::MAX).expect("solvable");
        assert_eq!(
            found.slides.len() as u32,
            inst.optimal,
            "instance {}",
            inst.id
        );
        let moves = letters(&found.slides);
        assert_eq!(
            replay(4, &inst.start.slots(), &moves),
            goal(16),
            "instance {} plan {moves}",
            inst.id
        );
    }
}

#[test]
fn korf_goal_maps_to_sgt_goal_slide_for_slide() {
    // The mapping turns Korf's goal into sgt's, and each slide into the
    // reverse slide: so every path, and every optimal length, is kept.
    let korf_goal: Vec<u8> = (0..16).collect();
    let k = Tiles::new(4, 4, &korf_goal).unwrap();
    assert_eq!(korf_to_sgt(&k), Tiles::solved(4, 4).unwrap());
    let mut rng = Rng::new(3);
    let mut t = k;
    for _ in 0..500 {
        let s = Slide::ALL[rng.below(4)];
        let Some(next) = t.slide(s) else { continue };
        assert_eq!(korf_to_sgt(&t).slide(s.reverse()), Some(korf_to_sgt(&next)));
        t = next;
    }
}

#[test]
fn korf_frames_solve_towards_their_own_goal_too() {
    let Some(text) = korf_text() else { return };
    let korf_goal: Vec<u8> = (0..16).collect();
    let kg = Tiles::new(4, 4, &korf_goal).unwrap();
    for inst in parse_korf(&text).unwrap().iter().take(5) {
        let found = tiles::solve(&inst.korf, &kg, u64::MAX).unwrap();
        assert_eq!(found.slides.len() as u32, inst.optimal);
        let moves = letters(&found.slides);
        assert_eq!(replay(4, &inst.korf.slots(), &moves), korf_goal);
    }
}

/// Every 3×3 frame's distance to sgt's goal, by breadth-first search.
fn eight_puzzle_table() -> HashMap<Vec<u8>, u32> {
    let start = goal(9);
    let mut dist = HashMap::from([(start.clone(), 0u32)]);
    let mut queue = VecDeque::from([start]);
    while let Some(b) = queue.pop_front() {
        let d = dist[&b];
        for m in ['U', 'D', 'L', 'R'] {
            let gap = b.iter().position(|&v| v == 0).unwrap();
            let ok = match m {
                'U' => gap < 6,
                'D' => gap >= 3,
                'L' => gap % 3 < 2,
                _ => gap % 3 > 0,
            };
            if ok {
                let next = replay(3, &b, &m.to_string());
                if !dist.contains_key(&next) {
                    dist.insert(next.clone(), d + 1);
                    queue.push_back(next);
                }
            }
        }
    }
    dist
}

#[test]
fn three_by_three_boards_match_a_full_table() {
    let table = eight_puzzle_table();
    assert_eq!(table.len(), 181_440);
    assert_eq!(table.values().max(), Some(&31));
    let g = Tiles::solved(3, 3).unwrap();
    let mut rng = Rng::new(11);
    let mut boards: Vec<Vec<u8>> = table.keys().cloned().collect();
    boards.sort();
    for _ in 0..300 {
        let b = &boards[rng.below(boards.len())];
        let t = Tiles::new(3, 3, b).unwrap();
        let found = tiles::solve(&t, &g, u64::MAX).unwrap();
        assert_eq!(found.slides.len() as u32, table[b], "{t}");
        assert_eq!(replay(3, b, &letters(&found.slides)), goal(9));
    }
    // The two hardest, 31 slides.
    for (b, d) in table.iter().filter(|(_, d)| **d == 31) {
        let t = Tiles::new(3, 3, b).unwrap();
        assert_eq!(
            tiles::solve(&t, &g, u64::MAX).unwrap().slides.len() as u32,
            *d
        );
    }
}

/// A frame scrambled by a random walk from the goal.
fn scrambled(w: usize, h: usize, steps: usize, rng: &mut Rng) -> Tiles {
    let mut t = Tiles::solved(w, h).unwrap();
    for _ in 0..steps {
        t = t.slide(Slide::ALL[rng.below(4)]).unwrap_or(t);
    }
    t
}

/// Breadth-first distance to the goal, for frames small enough.
fn bfs_length(start: &Tiles) -> u32 {
    let g = Tiles::solved(start.width(), start.height()).unwrap();
    let mut dist = HashMap::from([(*start, 0u32)]);
    let mut queue = VecDeque::from([*start]);
    while let Some(t) = queue.pop_front() {
        if t == g {
            return dist[&t];
        }
        for (_, n) in t.slides() {
            if !dist.contains_key(&n) {
                dist.insert(n, dist[&t] + 1);
                queue.push_back(n);
            }
        }
    }
    panic!("{start} cannot reach the goal")
}

#[test]
fn every_frame_shape_up_to_four_by_four_is_solved_optimally() {
    let mut rng = Rng::new(5);
    for (w, h, steps) in [
        (2, 2, 20),
        (2, 3, 40),
        (3, 2, 40),
        (2, 4, 60),
        (4, 2, 60),
        (3, 3, 80),
    ] {
        for _ in 0..10 {
            let t = scrambled(w, h, steps, &mut rng);
            let g = Tiles::solved(w, h).unwrap();
            let found = tiles::solve(&t, &g, u64::MAX).unwrap();
            assert_eq!(found.slides.len() as u32, bfs_length(&t), "{t}");
            assert_eq!(replay(w, &t.slots(), &letters(&found.slides)), goal(w * h));
        }
    }
    // 3×4 and 4×3: too many frames for a table; a walk of 18 random
    // slides bounds the answer, which must also replay to the goal.
    for (w, h) in [(3, 4), (4, 3)] {
        for _ in 0..5 {
            let t = scrambled(w, h, 18, &mut rng);
            let g = Tiles::solved(w, h).unwrap();
            let found = tiles::solve(&t, &g, u64::MAX).unwrap();
            assert!(found.slides.len() <= 18);
            assert_eq!(found.slides.len() as u32, bfs_length(&t), "{t}");
            assert_eq!(replay(w, &t.slots(), &letters(&found.slides)), goal(w * h));
        }
    }
}

#[test]
fn unsolvable_parity_is_refused_with_a_clear_message() {
    let swapped = Tiles::new(3, 3, &[2, 1, 3, 4, 5, 6, 7, 8, 0]).unwrap();
    let g = Tiles::solved(3, 3).unwrap();
    assert_eq!(
        tiles::solve(&swapped, &g, u64::MAX),
        Err(SearchError::Parity)
    );
    let r = FIFTEEN
        .solve_text("3x3:2,1,3,4,5,6,7,8,0", "--board", &Options::default())
        .unwrap();
    assert_eq!(r.state, Verdict::Unsolvable);
    assert!(r.reason.contains("parity"), "{}", r.reason);
    assert!(r.plan.is_none());
}

#[test]
fn solve_text_gives_slides_and_the_tiles_they_move() {
    let r = FIFTEEN
        .solve_text("1 2 3\n4 5 6\n7 . 8\n", "level", &Options::default())
        .unwrap();
    let plan = r.plan.expect("a plan");
    assert_eq!(plan["moves"], "L");
    assert_eq!(plan["length"], 1);
    assert_eq!(plan["optimal"], true);
    assert_eq!(plan["tiles"], serde_json::json!([8]));
    let (_, start) = Board::parse_text("4x4:1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15").unwrap();
    assert_eq!(start.gap(), 14);
}

#[test]
fn bad_positions_are_errors_naming_the_line() {
    let e = FIFTEEN
        .solve_text("1 2 3\n4 5 6\n7 8 8\n", "lvl.txt", &Options::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("lvl.txt: line 3:") && e.contains("repeated"),
        "{e}"
    );
    let e = level::parse("3x3:1,2,3").unwrap_err().to_string();
    assert!(e.contains("9 slots"), "{e}");
}

#[test]
fn the_cache_rebuilds_bad_files_and_survives_an_unwritable_directory() {
    let dir = tempfile::tempdir().unwrap();
    let (_, first) = cache::load_or_build(Some(dir.path()));
    assert_eq!((first.built, first.loaded), (2, 0));
    let (_, again) = cache::load_or_build(Some(dir.path()));
    assert_eq!((again.built, again.loaded), (0, 2));
    // Damage the small table's file: it is rebuilt, with a warning.
    let small = dir.path().join(cache::file_name(&[13, 14, 15]));
    let mut bytes = std::fs::read(&small).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&small, bytes).unwrap();
    let (tables, fixed) = cache::load_or_build(Some(dir.path()));
    assert_eq!((fixed.built, fixed.loaded), (1, 1));
    assert!(
        fixed.warnings[0].contains("checksum"),
        "{:?}",
        fixed.warnings
    );
    assert_eq!(tables.tables[1][0xEDC], 0, "the group's home placement");
    // A cache directory that cannot be made is a warning, not an error.
    let blocked = dir.path().join("a-file");
    std::fs::write(&blocked, b"").unwrap();
    let (_, warned) = cache::load_or_build(Some(Path::new(&blocked.join("cache"))));
    assert_eq!(warned.built, 2);
    assert!(warned.warnings.iter().any(|w| w.contains("cannot cache")));
}
