//! What every practice window shares: the options `boardbot practice`
//! passes to a game ([`PracticeOptions`]), and the session a window writes
//! ([`Session`]), which is both its `--result` file and its `--record` file.
//!
//! A session is what a researcher needs to replay and rate a player's game:
//! the start position, then every move with the time since the window
//! opened (`t_ms`) and since the previous move (`think_ms`).
//! `boardbot trace --record FILE` reads it back.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::game::GameError;
use crate::tools::options::Win;

/// What `boardbot practice` asks of a game's window. Each game reads the
/// fields that fit it and refuses the others with [`PracticeOptions::only`].
#[derive(Clone, Debug, Default)]
pub struct PracticeOptions {
    /// Troyis: the level number; B.i.t.Lock: a level file.
    pub level: Option<String>,
    /// A position as text (Rush Hour's 36 characters).
    pub board: Option<String>,
    /// Board side, for generated levels.
    pub size: Option<usize>,
    pub seed: Option<u64>,
    /// Cell size in screen pixels; `None` for the game's default.
    pub pitch: Option<f64>,
    /// Where the window's inside goes on screen.
    pub position: Option<(i32, i32)>,
    /// Drifting clouds (Troyis).
    pub clouds: Option<usize>,
    /// Write the session here after every move and on close.
    pub result: Option<PathBuf>,
    /// Write the session, with its start position, here too.
    pub record: Option<PathBuf>,
    /// After a completed level, go on to the next one.
    pub next: bool,
    /// B.i.t.Lock's win rule.
    pub win: Option<Win>,
    /// Ignore the N-th move input (from 1), as if the key or drag were
    /// lost: for testing that the player notices and re-plans.
    pub drop_input: Option<usize>,
    /// Continuity: milliseconds per step while a key is held.
    pub tick_ms: Option<u64>,
    /// Continuity: one step per key press instead of per tick.
    pub step_on_key: bool,
}

/// A flag of `boardbot practice`, for the check that refuses those a
/// game's window does not read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flag {
    Level,
    Board,
    Size,
    Seed,
    Pitch,
    Position,
    Clouds,
    Result,
    Record,
    Next,
    Win,
    DropInput,
    TickMs,
    StepOnKey,
}

impl Flag {
    /// What every window that keeps a session reads.
    pub const SESSION: [Flag; 5] = [
        Flag::Pitch,
        Flag::Position,
        Flag::Result,
        Flag::Record,
        Flag::DropInput,
    ];

    /// The flag as typed.
    pub fn name(self) -> &'static str {
        match self {
            Flag::Level => "--level",
            Flag::Board => "--board",
            Flag::Size => "--size",
            Flag::Seed => "--seed",
            Flag::Pitch => "--pitch",
            Flag::Position => "--position",
            Flag::Clouds => "--clouds",
            Flag::Result => "--result",
            Flag::Record => "--record",
            Flag::Next => "--next",
            Flag::Win => "--win",
            Flag::DropInput => "--drop-input",
            Flag::TickMs => "--tick-ms",
            Flag::StepOnKey => "--step-on-key",
        }
    }
}

impl PracticeOptions {
    /// The flags that were given.
    fn given(&self) -> Vec<Flag> {
        let flags = [
            (Flag::Level, self.level.is_some()),
            (Flag::Board, self.board.is_some()),
            (Flag::Size, self.size.is_some()),
            (Flag::Seed, self.seed.is_some()),
            (Flag::Pitch, self.pitch.is_some()),
            (Flag::Position, self.position.is_some()),
            (Flag::Clouds, self.clouds.is_some()),
            (Flag::Result, self.result.is_some()),
            (Flag::Record, self.record.is_some()),
            (Flag::Next, self.next),
            (Flag::Win, self.win.is_some()),
            (Flag::DropInput, self.drop_input.is_some()),
            (Flag::TickMs, self.tick_ms.is_some()),
            (Flag::StepOnKey, self.step_on_key),
        ];
        flags.iter().filter(|f| f.1).map(|f| f.0).collect()
    }

    /// Refuses any given flag that `game`'s window does not read.
    pub fn only(&self, game: &str, reads: &[Flag]) -> Result<(), GameError> {
        match self.given().into_iter().find(|f| !reads.contains(f)) {
            None => Ok(()),
            Some(flag) => {
                let names: Vec<&str> = reads.iter().map(|f| f.name()).collect();
                Err(GameError::Usage(format!(
                    "{} does not apply to the {game} practice window (it takes {})",
                    flag.name(),
                    names.join(", ")
                )))
            }
        }
    }

    /// [`PracticeOptions::only`] for a window that keeps a session: it
    /// also reads [`Flag::SESSION`].
    pub fn only_with_session(&self, game: &str, own: &[Flag]) -> Result<(), GameError> {
        let reads: Vec<Flag> = own.iter().chain(&Flag::SESSION).copied().collect();
        self.only(game, &reads)
    }

    /// The cell size, checked against the range a window can show.
    pub fn pitch_or(&self, default: f64) -> Result<f64, GameError> {
        let p = self.pitch.unwrap_or(default);
        if (16.0..=200.0).contains(&p) {
            Ok(p)
        } else {
            Err(GameError::Usage(
                "--pitch must be between 16 and 200 pixels".into(),
            ))
        }
    }
}

/// One move a player made in a practice window.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LoggedMove {
    /// The move in the game's own notation (`A+2` for Rush Hour, `L` for
    /// B.i.t.Lock), as `boardbot trace` reads it.
    #[serde(rename = "move")]
    pub mv: String,
    /// Milliseconds since the window opened.
    pub t_ms: u64,
    /// Milliseconds since the previous move (or since the window opened):
    /// the player's thinking time before this move.
    #[serde(default)]
    pub think_ms: u64,
}

/// A practice session: the `--result` and `--record` document.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Session {
    pub solved: bool,
    pub moves: usize,
    pub log: Vec<LoggedMove>,
    /// The game's id.
    #[serde(default)]
    pub game: String,
    /// The start position, in the game's text format.
    #[serde(default)]
    pub start: String,
    /// The fewest moves that solve `start`, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub optimal: Option<u64>,
    /// The position now, in the game's text format.
    #[serde(default)]
    pub board: String,
    /// Move inputs the window ignored on purpose (`--drop-input`).
    #[serde(default)]
    pub dropped: usize,
    /// Inputs that were not a legal move (a drag that went nowhere, say).
    #[serde(default)]
    pub illegal: usize,
    /// Where the board is on screen, once the window is placed: tests and
    /// the demo select the region from it.
    #[serde(default)]
    pub lattice: Option<ScreenLattice>,
    /// Skiddy: the level was won and every colour's skiddies all left in
    /// one move. Absent for other games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combo: Option<bool>,
    /// Continuity: platform steps, tile slides and view toggles played,
    /// their total cost, and the planner's cheapest cost from the start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steps: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slides: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub toggles: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub optimal_cost: Option<u64>,
}

/// A board's lattice in screen pixels: the top left corner of its first
/// cell, the cell pitch, and its size in cells.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScreenLattice {
    pub x: f64,
    pub y: f64,
    pub pitch: f64,
    pub rows: usize,
    pub cols: usize,
}

impl ScreenLattice {
    /// The lattice of a window whose inside is at `origin` on screen and
    /// whose first cell starts at `first` in the window, to the hundredth
    /// of a pixel.
    pub fn placed(
        origin: (i32, i32),
        first: (f64, f64),
        pitch: f64,
        rows: usize,
        cols: usize,
    ) -> Self {
        let hundredths = |v: f64| (v * 100.0).round() / 100.0;
        ScreenLattice {
            x: hundredths(f64::from(origin.0) + first.0),
            y: hundredths(f64::from(origin.1) + first.1),
            pitch,
            rows,
            cols,
        }
    }
}

impl ScreenLattice {
    /// The lattice of a window whose inside is at `origin` on screen and
    /// whose board is drawn on `lattice` (uniform, window pixels).
    pub fn of(origin: (i32, i32), lattice: &crate::vision::Lattice) -> Self {
        ScreenLattice::placed(
            origin,
            (lattice.xs[0], lattice.ys[0]),
            lattice.pitch().0,
            lattice.rows(),
            lattice.cols(),
        )
    }
}

impl Session {
    pub fn new(game: &str, start: String, optimal: Option<u64>) -> Session {
        Session {
            solved: false,
            moves: 0,
            log: Vec::new(),
            game: game.to_string(),
            board: start.clone(),
            start,
            optimal,
            dropped: 0,
            illegal: 0,
            lattice: None,
            combo: None,
            steps: None,
            slides: None,
            toggles: None,
            cost: None,
            optimal_cost: None,
        }
    }

    /// Logs a move made `t_ms` after the window opened.
    pub fn push(&mut self, mv: String, t_ms: u64) {
        let last = self.log.last().map_or(0, |m| m.t_ms);
        self.log.push(LoggedMove {
            mv,
            t_ms,
            think_ms: t_ms.saturating_sub(last),
        });
        self.moves = self.log.len();
    }

    /// One line for the user when the window closes: `GAME: solved in N
    /// moves, optimal M.`
    pub fn summary(&self, game: &str) -> String {
        let optimal = self
            .optimal
            .map_or(String::new(), |n| format!(", optimal {n}"));
        let done = if self.solved { "solved" } else { "not solved" };
        format!("{game}: {done} in {} moves{optimal}.", self.moves)
    }

    /// Writes the session to the result and record files that were asked for.
    pub fn save(&self, opts: &PracticeOptions) -> Result<(), GameError> {
        for path in [&opts.result, &opts.record].into_iter().flatten() {
            write_json_atomically(path, self)?;
        }
        Ok(())
    }

    /// Reads a recorded session, with the file named in any error.
    pub fn load(path: &Path) -> Result<Session, GameError> {
        let text = crate::files::read_text(path, crate::files::Limit::Session)
            .map_err(|e| GameError::Output(e.to_string()))?;
        serde_json::from_str(&text).map_err(|e| GameError::Parse {
            origin: path.display().to_string(),
            message: format!("line {}, column {}: {e}", e.line(), e.column()),
        })
    }
}

/// What every practice window keeps beside its game: the options it was
/// opened with, the session it writes, its size, when it opened, and the
/// first error met while playing (kept until the window closes).
#[cfg(feature = "live")]
pub struct PracticeState {
    /// The game's name for people, as in the title and the summary.
    pub name: &'static str,
    pub opts: PracticeOptions,
    pub session: Session,
    /// The window's inside size in pixels.
    pub size: (u32, u32),
    pub opened: std::time::Instant,
    pub error: Option<GameError>,
    /// Move inputs so far, for `--drop-input`.
    inputs: usize,
}

#[cfg(feature = "live")]
impl PracticeState {
    pub fn new(
        name: &'static str,
        opts: &PracticeOptions,
        session: Session,
        size: (u32, u32),
    ) -> PracticeState {
        PracticeState {
            name,
            opts: opts.clone(),
            session,
            size,
            opened: std::time::Instant::now(),
            error: None,
            inputs: 0,
        }
    }

    /// Counts one move input; true when it is the one `--drop-input` says
    /// to ignore, as if it were lost (counted as dropped, and saved).
    pub fn drops_input(&mut self) -> bool {
        self.inputs += 1;
        if self.opts.drop_input != Some(self.inputs) {
            return false;
        }
        self.session.dropped += 1;
        self.save();
        true
    }

    /// Writes the session to the files asked for; a failure is kept (the
    /// window closes on it) rather than lost.
    pub fn save(&mut self) {
        if let Err(e) = self.session.save(&self.opts) {
            self.error.get_or_insert(e);
        }
    }

    /// Milliseconds since the window opened.
    pub fn now_ms(&self) -> u64 {
        u64::try_from(self.opened.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Logs a move made now.
    pub fn log(&mut self, mv: String) {
        let t = self.now_ms();
        self.session.push(mv, t);
    }

    /// The board is on screen here: the session says so, for tests and
    /// the demo to select it.
    pub fn place(&mut self, lattice: ScreenLattice) {
        self.session.lattice = Some(lattice);
        self.save();
    }
}

/// A practice window: its app, and the state every window keeps.
#[cfg(feature = "live")]
pub trait PracticeWindow: crate::ui::App + Sized {
    /// The window's model before it opens, from the options (refusing
    /// those it does not read).
    fn new(o: &PracticeOptions) -> Result<Self, GameError>;
    fn state(&mut self) -> &mut PracticeState;
}

/// `boardbot practice` for the window `W`: plays it until it closes.
#[cfg(feature = "live")]
pub fn open<W: PracticeWindow>(o: &PracticeOptions) -> Result<String, GameError> {
    run_window(&mut W::new(o)?)
}

/// Opens `app`'s window, plays it until it closes, saves the session
/// before and after, and says how it went.
#[cfg(feature = "live")]
pub fn run_window<W: PracticeWindow>(app: &mut W) -> Result<String, GameError> {
    app.state().save();
    let st = app.state();
    let spec = crate::ui::WindowSpec {
        title: format!("boardbot practice: {}", st.name),
        position: st.opts.position,
        size: st.size,
        decorations: true,
        on_top: false,
    };
    crate::ui::run(spec, app)?;
    let st = app.state();
    st.save();
    if let Some(e) = st.error.take() {
        return Err(e);
    }
    Ok(st.session.summary(st.name))
}

/// A practice window played with the arrow keys, each move animated for a
/// moment (B.i.t.Lock, Skiddy): what [`arrow_event`] needs of it.
#[cfg(feature = "live")]
pub trait ArrowWindow: PracticeWindow {
    type Dir;
    /// The move the letter of an arrow key (`L`, `R`, `U`, `D`) stands for.
    fn dir(letter: char) -> Option<Self::Dir>;
    /// The window is on screen with its inside at `(x, y)`.
    fn placed(&mut self, x: i32, y: i32);
    /// An arrow key: play it, or queue it behind the running animation.
    fn arrow(&mut self, d: Self::Dir);
    /// One animation tick.
    fn animate(&mut self);
}

/// The events of an arrow-key practice window, handled the same way for
/// every game.
#[cfg(feature = "live")]
pub fn arrow_event<W: ArrowWindow>(w: &mut W, event: crate::ui::UiEvent) -> crate::ui::Control {
    use crate::ui::{Control, UiEvent};
    match event {
        UiEvent::Placed { x, y } => {
            w.placed(x, y);
            Control::Continue
        }
        e if closes(&e) => Control::Exit,
        UiEvent::Key(k) => match arrow_letter(&k).and_then(W::dir) {
            Some(d) => {
                w.arrow(d);
                Control::Redraw
            }
            None => Control::Continue,
        },
        UiEvent::Tick => {
            w.animate();
            if w.state().error.is_some() {
                Control::Exit
            } else {
                Control::Redraw
            }
        }
        _ => Control::Continue,
    }
}

/// The letter of an arrow key's name: `ArrowLeft` is `L`, and so on.
#[cfg(feature = "live")]
fn arrow_letter(key: &str) -> Option<char> {
    match key {
        "ArrowLeft" => Some('L'),
        "ArrowRight" => Some('R'),
        "ArrowUp" => Some('U'),
        "ArrowDown" => Some('D'),
        _ => None,
    }
}

/// Whether an event closes a practice window: its close button or `q`.
/// Escape does not: it is boardbot's abort key, and stopping a replay must
/// not end the game it was playing.
#[cfg(feature = "live")]
pub fn closes(event: &crate::ui::UiEvent) -> bool {
    match event {
        crate::ui::UiEvent::Close => true,
        crate::ui::UiEvent::Key(k) => k == "q",
        _ => false,
    }
}

/// Writes `value` as JSON atomically: a reader never sees half a file.
pub fn write_json_atomically(path: &Path, value: &impl Serialize) -> Result<(), GameError> {
    let fail = |e: &dyn std::fmt::Display| {
        GameError::Output(format!(
            "cannot write the result file {}: {e}",
            path.display()
        ))
    };
    let text = serde_json::to_string_pretty(value).map_err(|e| fail(&e))? + "\n";
    crate::files::write_atomic(path, text.as_bytes()).map_err(|e| GameError::Output(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thinking_time_is_the_gap_since_the_previous_move() {
        let mut s = Session::new("rush", "x".into(), Some(2));
        s.push("A+1".into(), 900);
        s.push("B-2".into(), 1500);
        assert_eq!(s.moves, 2);
        assert_eq!((s.log[0].think_ms, s.log[1].think_ms), (900, 600));
        let text = serde_json::to_string(&s).unwrap();
        assert!(text.contains(r#""move":"A+1""#), "{text}");
        let back: Session = serde_json::from_str(&text).unwrap();
        assert_eq!(back, s);
    }

    #[test]
    fn a_minimal_result_file_reads_back() {
        let s: Session =
            serde_json::from_str(r#"{"solved":true,"moves":1,"log":[{"move":"L","t_ms":5}]}"#)
                .unwrap();
        assert_eq!(s.log[0].think_ms, 0);
    }

    #[cfg(feature = "live")]
    #[test]
    fn arrow_keys_are_letters() {
        assert_eq!(arrow_letter("ArrowLeft"), Some('L'));
        assert_eq!(arrow_letter("ArrowDown"), Some('D'));
        assert_eq!(arrow_letter("ArrowUpper"), None);
        assert_eq!(arrow_letter("u"), None);
    }

    #[test]
    fn refuses_flags_the_window_does_not_read() {
        let o = PracticeOptions {
            board: Some("x".into()),
            ..PracticeOptions::default()
        };
        assert!(o.only("rush", &[Flag::Board]).is_ok());
        let e = o.only("bitlock", &[Flag::Level, Flag::Seed]).unwrap_err();
        assert!(e.to_string().contains("--board does not apply"), "{e}");
    }
}
