//! The pointer moves of a drag along a path ([`super::Action::DragPath`])
//! (pure): every point of the path in turn, each straight piece cut into
//! equal moves no longer than the step allowed, so that a game following
//! the pointer cell by cell never sees it jump a cell.

/// Where the pointer goes after the press on `points[0]`, ending on the
/// last point: each segment cut into equal moves of at most `max_step`
/// pixels (1 at least; a slanted segment's moves may be a rounding pixel
/// longer). Repeated points add nothing.
pub fn moves(points: &[[i32; 2]], max_step: u32) -> Vec<[i32; 2]> {
    let step = f64::from(max_step.max(1));
    let mut out = Vec::new();
    for w in points.windows(2) {
        let (a, b) = (w[0], w[1]);
        let (dx, dy) = (f64::from(b[0] - a[0]), f64::from(b[1] - a[1]));
        let len = dx.hypot(dy);
        if len == 0.0 {
            continue;
        }
        let n = (len / step).ceil() as u32;
        for i in 1..=n {
            let t = f64::from(i) / f64::from(n);
            let at = |a: i32, d: f64| a + (d * t).round() as i32;
            out.push([at(a[0], dx), at(a[1], dy)]);
        }
    }
    out
}

/// The `steps` even moves of a straight drag from `from` to `to` (1 at
/// least), ending on `to`.
pub fn straight(from: [i32; 2], to: [i32; 2], steps: u32) -> Vec<[i32; 2]> {
    let steps = steps.max(1);
    (1..=steps)
        .map(|i| {
            let t = f64::from(i) / f64::from(steps);
            let at = |a: i32, b: i32| (f64::from(a) + f64::from(b - a) * t).round() as i32;
            [at(from[0], to[0]), at(from[1], to[1])]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn longest(start: [i32; 2], moves: &[[i32; 2]]) -> i32 {
        let mut prev = start;
        let mut most = 0;
        for &m in moves {
            most = most.max((m[0] - prev[0]).abs() + (m[1] - prev[1]).abs());
            prev = m;
        }
        most
    }

    #[test]
    fn a_path_turning_corners_moves_in_short_straight_steps_through_every_corner() {
        let pts = [[10, 10], [58, 10], [58, 106], [34, 106]];
        let m = moves(&pts, 12);
        assert_eq!(m.len(), 4 + 8 + 2);
        assert_eq!(longest(pts[0], &m), 12);
        // Every corner is visited, so no move is ever slanted.
        for corner in &pts[1..] {
            assert!(m.contains(corner), "{corner:?} skipped: {m:?}");
        }
        assert!(
            m.windows(2)
                .all(|w| w[0][0] == w[1][0] || w[0][1] == w[1][1]),
            "a slanted move: {m:?}"
        );
        assert_eq!(m.last(), Some(&[34, 106]));
    }

    #[test]
    fn uneven_lengths_are_cut_into_equal_moves_under_the_step() {
        let m = moves(&[[0, 0], [0, 50]], 12);
        assert_eq!(m, vec![[0, 10], [0, 20], [0, 30], [0, 40], [0, 50]]);
        // A zero step counts as one pixel; repeated points add nothing.
        assert_eq!(moves(&[[0, 0], [3, 0], [3, 0]], 0).len(), 3);
        assert!(moves(&[[5, 5]], 4).is_empty());
        assert!(moves(&[], 4).is_empty());
    }

    #[test]
    fn a_straight_drag_ends_on_its_target() {
        assert_eq!(straight([0, 0], [10, 20], 2), vec![[5, 10], [10, 20]]);
        assert_eq!(straight([0, 0], [7, 0], 0), vec![[7, 0]]);
    }
}
