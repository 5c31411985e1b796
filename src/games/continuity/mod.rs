//! Continuity: a frame of square scenes with one empty slot; the
//! character runs and jumps across the scenes, and a zoomed-out tile view
//! slides scenes into the empty slot. Collect every key, then reach a door.
//!
//! - [`level`]: the text format (frame layout, then one block per scene);
//! - [`rules`]: the rules and their fine points, one [`rules::State`];
//! - [`full`]: the plain full-state Dijkstra, the yardstick;
//! - [`plan`]: the planner (A* over the whole state with a relaxed
//!   lower bound) and its plan cut into segments;
//! - [`exits`]: the exits graph (`--exits`): openings, reach inside each
//!   scene, routes for every key order with no tile moved;
//! - [`levels`]: the bundled levels.
//!
//! `solve --game continuity --level FILE [--slide-cost N] [--json]`
//! prints the plan.

pub mod exits;
pub mod full;
pub mod level;
pub mod levels;
pub mod plan;
pub mod rules;

// On the screen (contB): art, the practice window, the reader, live play.
pub mod art;
#[cfg(feature = "live")]
pub mod practice;
pub mod read;
pub mod render;
pub mod screen;
pub mod skin;

use std::time::Instant;

use self::level::Level;
use self::plan::Plan;
use self::rules::{DEFAULT_SLIDE_COST, World};
use image::RgbImage;

use crate::art::render::Art;
use crate::calibration::Calibration;
use crate::game::{Game, GameError, OnScreen, ScreenGame};
use crate::report::{BoardReport, Report, Verdict, ms_since, value};
use crate::solve::{Found, Progress, Solution};
use crate::tools::budget;
use crate::tools::options::{Opt, Options};
use crate::vision::skin::Skin;
use crate::vision::{GridRead, NotLegal, Reading};

pub(crate) const ID: &str = "continuity";

/// The game, as registered.
pub struct Continuity;

pub static CONTINUITY: Continuity = Continuity;

/// Reads a level; the error names `origin` and the line.
pub fn parse(text: &str, origin: &str) -> Result<Level, GameError> {
    Level::parse(text).map_err(|e| GameError::Parse {
        origin: origin.to_string(),
        message: e.to_string(),
    })
}

/// The game's own art: `render` and the practice window.
static ART: Art = Art {
    render: render::render,
    #[cfg(feature = "live")]
    practice: crate::practice::open::<practice::Practice>,
};

impl Game for Continuity {
    fn id(&self) -> &'static str {
        ID
    }

    fn summary(&self) -> &'static str {
        "Continuity: run and jump across sliding scenes to every key, then the door; cheapest plans with tile moves"
    }

    fn options(&self) -> &'static [Opt] {
        &[Opt::SlideCost, Opt::Exits, Opt::MaxNodes, Opt::MaxMemory]
    }

    fn solve_text(&self, text: &str, origin: &str, opts: &Options) -> Result<Report, GameError> {
        let world = World::new(parse(text, origin)?);
        if opts.exits {
            return Ok(exits_report(&world));
        }
        Ok(solve_report(&world, opts))
    }

    fn art(&self) -> Option<&'static Art> {
        Some(&ART)
    }

    fn screen(&self) -> Option<&dyn OnScreen> {
        Some(self)
    }
}

impl ScreenGame for Continuity {
    type Board = screen::Frame;

    fn looks(&self) -> &'static [&'static crate::calibration::Embedded] {
        &screen::LOOKS
    }

    /// The reader's frame, which must be a legal level (or a won one).
    fn read(&self, image: &RgbImage, cal: &Calibration) -> Reading<screen::Frame> {
        read::read(image, cal).check(|shown| screen::frame_of(&shown))
    }

    fn skin_labels(&self, text: &str) -> Option<Result<Vec<Vec<String>>, GameError>> {
        Some(skin::labels_of(text).map_err(|message| GameError::Parse {
            origin: "the level".into(),
            message,
        }))
    }

    fn skin_slot(&self, text: &str) -> Option<usize> {
        skin::slot_of(text)
    }

    fn skin_rules(&self, text: &str) -> Option<String> {
        skin::rules_of(text)
    }

    fn skin_board(&self, labels: &[Vec<String>], skin: &Skin) -> Result<screen::Frame, NotLegal> {
        let jump = skin::jump_of(skin.rules.as_deref())?;
        skin::shown_of_labels(labels, jump)
            .and_then(|shown| screen::frame_of(&shown))
            .map_err(NotLegal::from)
    }

    fn plan(
        &self,
        _grid: &GridRead,
        frame: screen::Frame,
        opts: &Options,
    ) -> Result<Report, GameError> {
        Ok(screen::plan_frame(frame, opts))
    }

    fn pacing(&self) -> crate::game::Pacing {
        screen::pacing()
    }

    fn safe_point(&self, report: &Report) -> Option<(f64, f64)> {
        screen::safe_point(report)
    }
}

/// The slide cost the options ask for.
pub fn slide_cost(opts: &Options) -> u32 {
    opts.slide_cost.unwrap_or(DEFAULT_SLIDE_COST)
}

/// `--exits`: the exits graph, as text and as `exits` in the JSON.
pub fn exits_report(world: &World) -> Report {
    let t = Instant::now();
    let graph = exits::Exits::new(world);
    let mut r = Report::new(ID, Verdict::Playable, "the exits graph");
    r.timing_ms.solve = ms_since(t);
    r.board = Some(BoardReport::from_rows(world.rows(&world.start())));
    r.headline = "Exits graph (scene: openings by row or column; from -> to (steps)):".into();
    r.details = graph.lines(&world.level);
    r.extra.insert("exits".into(), value(&graph));
    r
}

/// Plans from the level's start and reports the plan (or why there is none).
pub fn solve_report(world: &World, opts: &Options) -> Report {
    let t = Instant::now();
    let cost = slide_cost(opts);
    let start = world.start();
    let mut progress = Progress::new(opts.progress);
    let sol = plan::search(world, start, cost, &budget(opts), &mut progress);
    drop(progress);
    let mut r = Report::new(ID, Verdict::Playable, "");
    r.timing_ms.solve = ms_since(t);
    r.board = Some(BoardReport::from_rows(world.rows(&start)));
    fill(&mut r, world, &sol, cost);
    r
}

fn fill(r: &mut Report, world: &World, sol: &Solution<rules::Action>, slide_cost: u32) {
    r.stats = Some(serde_json::json!({
        "states": sol.stats.states,
        "ms": sol.stats.ms,
        "lower_bound": sol.lower_bound,
    }));
    r.details.push(format!(
        "Searched {} states in {:.1} ms.",
        sol.stats.states, sol.stats.ms
    ));
    match &sol.found {
        Found::Path(actions) => {
            let p = Plan::new(world, &world.start(), actions, slide_cost);
            r.reason = format!("cost {}: {}", p.cost, p.counts());
            r.headline = format!(
                "Solved at cost {} (optimal; slide cost {slide_cost}): {}:",
                p.cost,
                p.counts()
            );
            let lines = p.lines().into_iter().enumerate();
            r.details
                .splice(0..0, lines.map(|(i, l)| format!("  {}. {l}", i + 1)));
            r.plan = Some(value(&p));
        }
        Found::Exhausted => {
            r.state = Verdict::Unsolvable;
            r.reason = format!(
                "no plan reaches the door with every key: all {} reachable states tried",
                sol.stats.states
            );
        }
        Found::OverBudget { .. } => {
            r.state = Verdict::GaveUp;
            r.reason = format!(
                "gave up after {} states: no plan costs less than {}; raise --max-memory or --max-nodes",
                sol.stats.states, sol.lower_bound
            );
        }
    }
}
