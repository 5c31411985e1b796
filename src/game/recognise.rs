//! Which game a screenshot shows, when the user names none.
//!
//! Every screen game reads the selection, in parallel, with each of its
//! looks: the user's own calibration first, then the built-in ones. A game
//! whose read is trusted (every cell read for sure, a legal position of
//! the game) claims the board. Exactly one claim wins and is planned;
//! two claims, or none, are refused, naming what each game saw. A guess
//! is never played: a misread that leads to input is the worst defect
//! boardbot can have, and a board two games can read is one of them.
//!
//! [`Lineup`] loads the calibrations once, so that the live player pays
//! only for the reads at each press of the hotkey.

use std::time::Instant;

use image::RgbImage;

use super::screen::{Look, OnScreen};
use super::{Game, GameError};
use crate::calibration::Calibration;
use crate::report::{Candidate, Report, Verdict, ms_since};
use crate::tools::options::Options;
use crate::vision::{GridRead, Reading};

/// One screen game and the looks it reads with.
struct Entry {
    screen: &'static dyn OnScreen,
    calibrations: Vec<Calibration>,
    /// Why it has no look to read with, when it has none (sgt-fifteen
    /// before its numbers are calibrated, say): it is named as a
    /// candidate that could not look.
    unusable: Option<String>,
}

/// The games that look at a selection, with their calibrations loaded.
pub struct Lineup {
    entries: Vec<Entry>,
}

impl Lineup {
    /// Every game of `games` that reads screenshots, with the user's own
    /// calibrations and the built-in ones.
    pub fn new(games: &[&'static dyn Game]) -> Lineup {
        Lineup::with(games, OnScreen::all_calibrations)
    }

    /// The same with the built-in looks only: what boardbot reads on any
    /// machine, whatever its user has calibrated.
    pub fn builtin(games: &[&'static dyn Game]) -> Lineup {
        Lineup::with(games, |s| {
            s.looks()
                .iter()
                .filter_map(|e| Calibration::embedded(e, s.id()).ok())
                .filter(|c| s.check_calibration(c).is_ok())
                .collect()
        })
    }

    fn with(
        games: &[&'static dyn Game],
        calibrations: impl Fn(&'static dyn OnScreen) -> Vec<Calibration>,
    ) -> Lineup {
        let entries = games
            .iter()
            .filter_map(|g| g.screen())
            .map(|screen| {
                let calibrations = calibrations(screen);
                let unusable = calibrations.is_empty().then(|| why_unusable(screen));
                Entry {
                    calibrations,
                    screen,
                    unusable,
                }
            })
            .collect();
        Lineup { entries }
    }

    /// The ids of the games that look, in order.
    pub fn ids(&self) -> Vec<&'static str> {
        self.entries.iter().map(|e| e.screen.id()).collect()
    }

    /// The screen game with this id, if it is in the line-up.
    pub fn screen(&self, id: &str) -> Option<&'static dyn OnScreen> {
        self.entries
            .iter()
            .find(|e| e.screen.id() == id)
            .map(|e| e.screen)
    }

    /// Every game's look at `img` (or only the game `only`'s), in line-up
    /// order, with the entries that looked.
    fn looks(&self, img: &RgbImage, only: Option<&str>) -> (Vec<&Entry>, Vec<Look>) {
        let entries: Vec<&Entry> = self
            .entries
            .iter()
            .filter(|e| only.is_none_or(|id| e.screen.id() == id))
            .collect();
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let looks = crate::tools::run_parallel(&entries, threads, |e| best_look(e, img));
        (entries, looks)
    }

    /// Reads `img` with every game (or only with `only`, once a play has
    /// recognised its game) and plans for the one game that read it for
    /// sure; otherwise a refusal naming what each game saw.
    pub fn solve(
        &self,
        img: &RgbImage,
        opts: &Options,
        only: Option<&str>,
    ) -> Result<Recognised, GameError> {
        let t = Instant::now();
        let (entries, looks) = self.looks(img, only);
        let vision_ms = ms_since(t);
        let claims: Vec<usize> = (0..looks.len()).filter(|&i| looks[i].trusted()).collect();
        let mut candidates: Vec<Candidate> = looks.iter().map(candidate).collect();
        let (mut report, screen) = match claims.as_slice() {
            [one] => {
                let i = *one;
                let screen = entries[i].screen;
                let look = looks.into_iter().nth(i).expect("a claim is a look");
                let report = screen.plan_look(look, opts)?;
                candidates[i].state = report.state;
                candidates[i].reason.clone_from(&report.reason);
                (report, Some(screen))
            }
            [] => (unclaimed(looks), None),
            _ => (contested(looks, &claims, &mut candidates), None),
        };
        report.timing_ms.vision = Some(vision_ms);
        report.candidates = candidates;
        Ok(Recognised { report, screen })
    }
}

/// The report on a recognition, and the game that won, if one did.
pub struct Recognised {
    pub report: Report,
    pub screen: Option<&'static dyn OnScreen>,
}

/// Why a game has no look it can read with.
fn why_unusable(screen: &dyn OnScreen) -> String {
    let first = screen
        .looks()
        .first()
        .map(|e| Calibration::embedded(e, screen.id()));
    match first {
        Some(Ok(cal)) => match screen.check_calibration(&cal) {
            Err(e) => e.to_string(),
            Ok(()) => "its look did not load".to_string(),
        },
        Some(Err(e)) => e.to_string(),
        None => "it ships no look".to_string(),
    }
}

/// A game's looks at `img`: the first trusted one, else the one that got
/// furthest (a board not to act on before no board at all).
fn best_look(e: &Entry, img: &RgbImage) -> Look {
    if let Some(why) = &e.unusable {
        return Look {
            game: e.screen.id(),
            reading: Reading::NoBoard {
                grid: None,
                reason: format!("could not look: {why}"),
                issues: Vec::new(),
            },
            vision_ms: 0.0,
            calibration: String::new(),
        };
    }
    let mut best: Option<Look> = None;
    for cal in &e.calibrations {
        let look = e.screen.look(img, cal);
        if look.trusted() {
            return look;
        }
        if best.as_ref().is_none_or(|b| rank(&look) > rank(b)) {
            best = Some(look);
        }
    }
    best.expect("every entry has a calibration")
}

/// How far a read got: no lattice, a lattice that is not this game's,
/// a board of this game not to act on, a board read for sure.
fn rank(look: &Look) -> u8 {
    match &look.reading {
        Reading::NoBoard { grid: None, .. } => 0,
        Reading::NoBoard { grid: Some(_), .. } => 1,
        Reading::Uncertain { .. } => 2,
        Reading::Board { .. } => 3,
    }
}

/// A look as `candidates` shows it.
fn candidate(look: &Look) -> Candidate {
    let (state, reason) = match &look.reading {
        Reading::NoBoard { reason, .. } => (Verdict::NoBoard, reason.clone()),
        Reading::Uncertain { reason, .. } => (Verdict::Uncertain, reason.clone()),
        Reading::Board { .. } => (Verdict::Playable, "read for sure".to_string()),
    };
    Candidate {
        game: look.game,
        state,
        reason,
        vision_ms: look.vision_ms,
    }
}

fn grid_of(look: Look) -> Option<GridRead> {
    match look.reading {
        Reading::NoBoard { grid, .. } => grid,
        Reading::Uncertain { grid, .. } | Reading::Board { grid, .. } => Some(grid),
    }
}

/// No game read the board for sure. The debug image shows what the game
/// that got furthest saw.
fn unclaimed(looks: Vec<Look>) -> Report {
    let furthest = looks
        .iter()
        .enumerate()
        .max_by_key(|(i, l)| (rank(l), std::cmp::Reverse(*i)))
        .map(|(i, _)| i);
    let near: Vec<String> = looks
        .iter()
        .filter(|l| rank(l) >= 2)
        .map(|l| format!("{} ({})", l.game, candidate(l).reason))
        .collect();
    let reason = if near.is_empty() {
        "no game recognised a board in the picture: select the whole board, with a margin, or name the game with --game".to_string()
    } else {
        format!(
            "no game read this board for sure: {}; nothing is played on a guess",
            near.join("; ")
        )
    };
    let grid = furthest
        .and_then(|i| looks.into_iter().nth(i))
        .and_then(grid_of);
    let mut r = Report::refused_by_none(Verdict::NoBoard, reason);
    r.seen.grid = grid;
    r
}

/// Two or more games read the board for sure: which one it is cannot be
/// told, so nothing is played.
fn contested(looks: Vec<Look>, claims: &[usize], candidates: &mut [Candidate]) -> Report {
    let names: Vec<&str> = claims.iter().map(|&i| looks[i].game).collect();
    for &i in claims {
        let others: Vec<&str> = names
            .iter()
            .copied()
            .filter(|&n| n != looks[i].game)
            .collect();
        candidates[i].state = Verdict::Uncertain;
        candidates[i].reason = format!("read for sure, but {} read it too", others.join(" and "));
    }
    let reason = format!(
        "the board reads as a board of {}: which game it is cannot be told, so nothing is played; name it with --game",
        names.join(" and ")
    );
    let grid = looks.into_iter().nth(claims[0]).and_then(grid_of);
    let mut r = Report::refused_by_none(Verdict::Uncertain, reason);
    r.seen.grid = grid;
    r
}
