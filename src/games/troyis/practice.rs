//! The practice board: a playable Troyis-style game in a real window,
//! with the project's own art. It lets a newcomer watch boardbot play
//! without the original game, and it is the target of the end-to-end test.
//!
//! Click a cell a knight's move away to move there. The level is complete
//! when every light cell has been visited. With a result file, the window
//! records every click (in screen pixels), the move count and whether the
//! level was solved, after every click and when it closes.

use std::path::{Path, PathBuf};
use std::time::Duration;

use image::{Rgb, RgbImage};
use serde::Serialize;

use super::board::{Board, Square};
use super::levels;
use super::render::{self, PAGE, Style, palette};
use crate::art::font::draw_bar;
use crate::game::GameError;
use crate::geom::Cell;
use crate::practice::Flag;
use crate::ui::{self, App, Control, UiError, UiEvent, WindowSpec};
use crate::vision::Lattice;

/// How to open the practice board.
#[derive(Clone, Debug)]
pub struct Options {
    pub level: u32,
    /// Board side; `None` for the level's own size.
    pub size: Option<usize>,
    pub seed: u64,
    /// Cell pitch in screen pixels.
    pub pitch: f64,
    /// Where the window's inside goes on screen.
    pub position: Option<(i32, i32)>,
    pub clouds: usize,
    pub result: Option<PathBuf>,
    /// After a completed level, go on to the next one.
    pub next: bool,
}

/// `boardbot practice --game troyis`: checks the options, plays the window
/// until it closes, and says how the session went.
pub fn open(o: &crate::practice::PracticeOptions) -> Result<String, GameError> {
    o.only(
        super::ID,
        &[
            Flag::Level,
            Flag::Size,
            Flag::Seed,
            Flag::Result,
            Flag::Position,
            Flag::Pitch,
            Flag::Clouds,
            Flag::Next,
        ],
    )?;
    let usage = |m: &str| GameError::Usage(m.to_string());
    let level = match &o.level {
        None => 3,
        Some(l) => l
            .trim()
            .parse::<u32>()
            .ok()
            .filter(|&n| n >= 1)
            .ok_or_else(|| usage("--level must be a level number (1, 2, …) for troyis"))?,
    };
    if o.size.is_some_and(|n| !(3..=16).contains(&n)) {
        return Err(usage("--size must be between 3 and 16"));
    }
    let clouds = o.clouds.unwrap_or(3);
    if clouds > 30 {
        return Err(usage("--clouds must be at most 30"));
    }
    let out = run(Options {
        level,
        size: o.size,
        seed: o.seed.unwrap_or(u64::from(level)),
        pitch: o.pitch_or(44.0)?,
        position: o.position,
        clouds,
        result: o.result.clone(),
        next: o.next,
    })
    .map_err(|e| match e {
        PracticeError::Ui(u) => GameError::Window(u),
        PracticeError::Result { path, source } => {
            GameError::Output(format!("cannot write the result file {path}: {source}"))
        }
    })?;
    let done = if out.solved {
        "completed"
    } else {
        "not completed"
    };
    Ok(format!(
        "Level {}: {done} ({} moves, {} revisits).",
        out.level, out.moves, out.revisits
    ))
}

#[derive(Debug, thiserror::Error)]
pub enum PracticeError {
    #[error(transparent)]
    Ui(#[from] UiError),
    #[error("cannot write the result file {path}: {source}")]
    Result {
        path: String,
        #[source]
        source: std::io::Error,
    },
}

#[derive(Clone, Debug, Serialize)]
struct Click {
    x: i32,
    y: i32,
    cell: Option<[usize; 2]>,
}

#[derive(Clone, Debug, Serialize)]
struct ScreenLattice {
    x: f64,
    y: f64,
    pitch: f64,
    rows: usize,
    cols: usize,
}

/// What the result file holds.
#[derive(Clone, Debug, Serialize)]
pub struct Outcome {
    pub solved: bool,
    pub moves: usize,
    pub revisits: usize,
    clicks: Vec<Click>,
    /// Clicks that were not a legal move.
    pub illegal: usize,
    pub targets: usize,
    pub level: u32,
    pub seed: u64,
    /// The level as it started, and as it is now.
    start: String,
    board: String,
    /// The board's lattice in screen pixels (known once the window is placed).
    lattice: Option<ScreenLattice>,
    pub levels_completed: u32,
}

struct Practice {
    opts: Options,
    start: Board,
    board: Board,
    style: Style,
    lattice: Lattice,
    size: (u32, u32),
    bar: u32,
    origin: Option<(i32, i32)>,
    out: Outcome,
    /// Ticks until the next level starts, after a completed one.
    advance_in: Option<u32>,
    error: Option<PracticeError>,
}

fn level_board(level: u32, size: Option<usize>, seed: u64) -> Board {
    let (side, targets) = levels::level_shape(level);
    let side = size.unwrap_or(side);
    let targets = if size.is_some() {
        side * side * 11 / 20
    } else {
        targets
    };
    levels::generate(side, targets, seed)
}

impl Practice {
    fn new(opts: Options) -> Practice {
        let board = level_board(opts.level, opts.size, opts.seed);
        let mut p = Practice {
            start: board.clone(),
            board: board.clone(),
            style: Style::new(opts.pitch),
            lattice: Lattice::uniform(0.0, 0.0, 1.0, 1.0, 1, 1),
            size: (1, 1),
            bar: 1,
            origin: None,
            out: Outcome {
                solved: false,
                moves: 0,
                revisits: 0,
                clicks: Vec::new(),
                illegal: 0,
                targets: board.targets().count(),
                level: opts.level,
                seed: opts.seed,
                start: board.to_string(),
                board: board.to_string(),
                lattice: None,
                levels_completed: 0,
            },
            advance_in: None,
            error: None,
            opts,
        };
        p.lay_out();
        p
    }

    /// Colours, margins and window size for the current level.
    fn lay_out(&mut self) {
        let level = self.out.level as usize;
        let knight = [
            palette::KNIGHT_BLUE,
            palette::KNIGHT_YELLOW,
            palette::KNIGHT_PURPLE,
            palette::KNIGHT_RED,
        ];
        let visited = [
            palette::VISITED_RED,
            palette::VISITED_MAGENTA,
            palette::VISITED_GREEN,
        ];
        let pitch = self.opts.pitch;
        let margin = (pitch * 0.4).round();
        self.style = Style {
            margins: [margin; 4],
            knight_bg: knight[level % knight.len()],
            visited: visited[level % visited.len()],
            clouds: self.opts.clouds,
            seed: self.opts.seed,
            ..Style::new(pitch)
        };
        let (w, h, lattice) = render::layout(self.board.rows(), self.board.cols(), &self.style);
        self.bar = (pitch * 0.6).round().max(22.0) as u32;
        self.size = (w.max(160), h + self.bar);
        self.lattice = lattice;
        self.update_screen_lattice();
    }

    fn update_screen_lattice(&mut self) {
        self.out.lattice = self.origin.map(|(ox, oy)| ScreenLattice {
            x: f64::from(ox) + self.lattice.xs[0],
            y: f64::from(oy) + self.lattice.ys[0],
            pitch: self.style.pitch,
            rows: self.board.rows(),
            cols: self.board.cols(),
        });
    }

    fn save(&mut self) {
        let Some(path) = self.opts.result.clone() else {
            return;
        };
        if let Err(e) = write_atomically(&path, &self.out) {
            self.error.get_or_insert(PracticeError::Result {
                path: path.display().to_string(),
                source: e,
            });
        }
    }

    fn click(&mut self, x: f64, y: f64, screen: (i32, i32)) {
        let cell: Option<Cell> = self.lattice.cell_at(x, y);
        self.out.clicks.push(Click {
            x: screen.0,
            y: screen.1,
            cell: cell.map(|(r, c)| [r, c]),
        });
        if self.out.solved {
            self.out.illegal += 1;
            return;
        }
        match cell {
            Some(to)
                if self
                    .board
                    .knight_moves(self.board.knight())
                    .any(|c| c == to) =>
            {
                if self.board.get(to) == Square::Visited {
                    self.out.revisits += 1;
                }
                self.board.step(to).expect("a legal move");
                self.out.moves += 1;
                self.out.board = self.board.to_string();
                if self.board.is_solved() {
                    self.out.solved = true;
                    self.out.levels_completed += 1;
                    if self.opts.next {
                        self.advance_in = Some(20);
                    }
                }
            }
            _ => self.out.illegal += 1,
        }
    }

    fn next_level(&mut self) {
        let level = self.out.level.saturating_add(1);
        let seed = self.opts.seed.wrapping_add(1);
        self.opts.seed = seed;
        self.board = level_board(level, self.opts.size, seed);
        self.start = self.board.clone();
        let completed = self.out.levels_completed;
        self.out = Outcome {
            solved: false,
            moves: 0,
            revisits: 0,
            clicks: Vec::new(),
            illegal: 0,
            targets: self.board.targets().count(),
            level,
            seed,
            start: self.board.to_string(),
            board: self.board.to_string(),
            lattice: None,
            levels_completed: completed,
        };
        self.lay_out();
    }

    fn status(&self) -> String {
        let left = self.board.targets().count();
        if self.out.solved {
            format!(
                "LEVEL {} COMPLETED - {} MOVES",
                self.out.level, self.out.moves
            )
        } else {
            format!(
                "LEVEL {}  MOVES {}  LEFT {}",
                self.out.level, self.out.moves, left
            )
        }
    }
}

/// Writes JSON atomically, so a reader never sees half a file.
fn write_atomically(path: &Path, value: &impl Serialize) -> std::io::Result<()> {
    let text = serde_json::to_string_pretty(value).map_err(std::io::Error::other)? + "\n";
    crate::files::write_atomic(path, text.as_bytes()).map_err(std::io::Error::other)
}

impl App for Practice {
    fn draw(&mut self, frame: &mut RgbImage) {
        for p in frame.pixels_mut() {
            *p = Rgb(PAGE);
        }
        render::render_into(frame, &self.board, &self.style, &self.lattice);
        // The status bar sits below the board, so the board itself always
        // reads as it is (a finished level reads as solved).
        let colour = if self.out.solved {
            Rgb([255, 230, 90])
        } else {
            Rgb([235, 235, 255])
        };
        draw_bar(frame, self.bar, Rgb([40, 46, 120]), &self.status(), colour);
    }

    fn event(&mut self, event: UiEvent) -> Control {
        match event {
            UiEvent::Placed { x, y } => {
                self.origin = Some((x, y));
                self.update_screen_lattice();
                self.save();
                Control::Continue
            }
            UiEvent::MouseDown { x, y, screen } => {
                self.click(x, y, screen);
                self.save();
                Control::Redraw
            }
            UiEvent::Tick => {
                self.style.drift += 0.02;
                if let Some(n) = self.advance_in {
                    if n == 0 {
                        self.advance_in = None;
                        self.next_level();
                        self.save();
                    } else {
                        self.advance_in = Some(n - 1);
                    }
                }
                if self.error.is_some() {
                    Control::Exit
                } else {
                    Control::Redraw
                }
            }
            e if crate::practice::closes(&e) => {
                self.save();
                Control::Exit
            }
            _ => Control::Continue,
        }
    }

    fn next_tick(&self) -> Option<Duration> {
        (self.opts.clouds > 0 || self.advance_in.is_some()).then_some(Duration::from_millis(100))
    }
}

/// Opens the practice board and runs it until the window closes. Returns
/// the last level's outcome.
pub fn run(opts: Options) -> Result<Outcome, PracticeError> {
    let mut app = Practice::new(opts);
    app.save();
    let spec = WindowSpec {
        title: format!("boardbot practice: Troyis level {}", app.out.level),
        position: app.opts.position,
        size: app.size,
        decorations: true,
        on_top: false,
    };
    ui::run(spec, &mut app)?;
    app.save();
    match app.error.take() {
        Some(e) => Err(e),
        None => Ok(app.out),
    }
}
