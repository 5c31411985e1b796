//! GNOME Klotski as the tests use it: one level started on a test display
//! under its own `dbus-run-session`, with private settings (the GSettings
//! keyfile backend and temporary XDG directories: the user's settings and
//! scores are never touched), through tests/common/gnome-klotski.sh, the
//! script the benches call too. The window's place, the board's frame on
//! the screen, the title ("Level completed." once solved), the
//! Congratulations dialog, and the game's own move counter as it records
//! it in its score file. Everything the game started is killed on drop.
//!
//! When gnome-klotski, dbus-run-session or xdotool is missing the tests say
//! so and skip, except in CI (.ci/deps installs them).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::sgt::{geometry, xdotool_out};

/// The main window's title once the level is solved.
pub const SOLVED_TITLE: &str = "Level completed.";
/// The score dialog's title; it opens over the board when a level is solved.
pub const DIALOG_TITLE: &str = "Congratulations!";

/// The launch script (tests/common/gnome-klotski.sh).
pub fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/common/gnome-klotski.sh")
}

/// True when gnome-klotski, dbus-run-session and xdotool are installed;
/// else says the test is skipped (in CI, fails instead).
pub fn available() -> bool {
    let game = super::sgt::program("gnome-klotski").is_some();
    let dbus = super::display::have("dbus-run-session");
    if game && !dbus {
        super::skip("dbus-run-session is not installed (.ci/deps installs dbus-x11)");
    }
    game && dbus && super::display::have_xdotool()
}

/// Calls `f` every 50 ms until it gives something, for up to `secs`.
fn poll<T>(secs: u64, mut f: impl FnMut() -> Option<T>) -> Option<T> {
    let t = Instant::now();
    loop {
        if let Some(v) = f() {
            return Some(v);
        }
        if t.elapsed() >= Duration::from_secs(secs) {
            return None;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// GNOME Klotski running one level on a test display; killed (with its
/// D-Bus session) when dropped.
pub struct Klotski {
    child: Child,
    pub display: String,
    pub level: usize,
    /// The main window's X id, for xdotool.
    pub win: String,
    /// The main window's place: x, y, width, height.
    pub rect: (i32, i32, u32, u32),
    /// The board's frame on the screen (see [`Klotski::frame`]).
    pub frame: (i32, i32, u32, u32),
    /// The private config, data and cache directories.
    pub dir: tempfile::TempDir,
}

impl Drop for Klotski {
    fn drop(&mut self) {
        // The script ran in its own process group: end all of it (the game,
        // dbus-daemon, the portals), politely first.
        let group = -(self.child.id() as i32);
        unsafe { libc::kill(group, libc::SIGTERM) };
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(2) {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        unsafe { libc::kill(group, libc::SIGKILL) };
        let _ = self.child.wait();
        // The X server drops the windows a moment later: wait, so that the
        // next game on this display is not mistaken for this one.
        let t = Instant::now();
        while !self.win.is_empty()
            && !self.name_of(&self.win).is_empty()
            && t.elapsed() < Duration::from_secs(5)
        {
            std::thread::sleep(Duration::from_millis(30));
        }
    }
}

impl Klotski {
    /// Starts level `level` (GNOME's index, 0-27) on `display`, the window
    /// `size` pixels big (default 600×500), and waits for its window.
    pub fn open(display: &str, level: usize, size: Option<(u32, u32)>) -> Klotski {
        let dir = tempfile::tempdir().expect("temp dir");
        let (w, h) = size.unwrap_or((600, 500));
        let mut cmd = Command::new(script());
        cmd.arg(dir.path())
            .args([level.to_string(), w.to_string(), h.to_string()])
            .env("DISPLAY", display)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let child = cmd.spawn().expect("start tests/common/gnome-klotski.sh");
        let mut k = Klotski {
            child,
            display: display.to_string(),
            level,
            win: String::new(),
            rect: (0, 0, 0, 0),
            frame: (0, 0, 0, 0),
            dir,
        };
        k.win = k.wait_for_window();
        k.frame = k.wait_for_board();
        k
    }

    /// Waits until the board is drawn and stays put (the first frames may
    /// be at the default size): its frame, found twice alike.
    fn wait_for_board(&mut self) -> (i32, i32, u32, u32) {
        let t = Instant::now();
        let mut last = None;
        loop {
            std::thread::sleep(Duration::from_millis(250));
            self.rect = geometry(&self.display, &self.win);
            let now = find_frame(&self.grab())
                .map(|(x, y, w, h)| (self.rect.0 + x as i32, self.rect.1 + y as i32, w, h));
            if let Some(f) = now.filter(|_| now == last) {
                return f;
            }
            if t.elapsed() > Duration::from_secs(20) {
                let shot = std::env::temp_dir().join(format!(
                    "klotski-no-board-{}-{}.png",
                    std::process::id(),
                    self.level
                ));
                let _ = self.grab().save(&shot);
                panic!(
                    "gnome-klotski's board did not show in 20 s (window {:?}, title {:?}, frame found {now:?}); capture kept in {}",
                    self.rect,
                    self.title(),
                    shot.display()
                );
            }
            last = now;
        }
    }

    /// The main window: the largest visible one that is not the dialog
    /// (GTK also makes a small leader window).
    fn wait_for_window(&mut self) -> String {
        let t = Instant::now();
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!("gnome-klotski exited before its window showed ({status})");
            }
            let ids = xdotool_out(&self.display, &["search", "--onlyvisible", "--name", "."]);
            let best = ids
                .split_whitespace()
                .filter(|w| self.name_of(w) != DIALOG_TITLE)
                .map(|w| (w.to_string(), geometry(&self.display, w)))
                .filter(|(_, g)| g.2 > 100)
                .max_by_key(|(_, g)| g.2);
            if let Some((w, _)) = best {
                return w;
            }
            assert!(
                t.elapsed() < Duration::from_secs(30),
                "gnome-klotski's window did not appear"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn name_of(&self, win: &str) -> String {
        xdotool_out(&self.display, &["getwindowname", win])
            .trim_end()
            .to_string()
    }

    /// The main window's title: the level's name, or [`SOLVED_TITLE`].
    pub fn title(&self) -> String {
        self.name_of(&self.win)
    }

    /// True once the game says the level is completed.
    pub fn solved(&self) -> bool {
        self.title() == SOLVED_TITLE
    }

    /// Waits up to `secs` for the title to say the level is completed.
    pub fn wait_solved(&self, secs: u64) -> bool {
        poll(secs, || self.solved().then_some(())).is_some()
    }

    /// The Congratulations dialog's window, if it is open.
    pub fn dialog(&self) -> Option<String> {
        xdotool_out(
            &self.display,
            &["search", "--onlyvisible", "--name", DIALOG_TITLE],
        )
        .split_whitespace()
        .next()
        .map(str::to_string)
    }

    /// Moves the dialog (if open) off the screen, so that the board and
    /// the move counter show again. Waits up to 5 s for it to open.
    pub fn move_dialog_away(&self) -> bool {
        let Some(d) = self.wait_dialog() else {
            return false;
        };
        xdotool_out(&self.display, &["windowmove", "--sync", &d, "2000", "0"]);
        std::thread::sleep(Duration::from_millis(300));
        true
    }

    fn wait_dialog(&self) -> Option<String> {
        poll(5, || self.dialog())
    }

    /// Closes the dialog with its Done button, which makes the game write
    /// the score (the move count) to its score file, and returns that
    /// score. The dialog is brought back on the screen, clear of the main
    /// window when the screen is wide enough, to be clicked (no window
    /// manager: keys sent to it are lost).
    pub fn save_score(&self) -> Option<u32> {
        let d = self.wait_dialog()?;
        let x = (self.rect.0 + self.rect.2 as i32 + 10).min(1280 - 402);
        xdotool_out(
            &self.display,
            &["windowmove", "--sync", &d, &x.to_string(), "0"],
        );
        std::thread::sleep(Duration::from_millis(300));
        let (dx, dy, dw, _) = geometry(&self.display, &d);
        let (bx, by) = (dx + dw as i32 - 45, dy + 27);
        xdotool_out(
            &self.display,
            &["mousemove", &bx.to_string(), &by.to_string(), "click", "1"],
        );
        poll(5, || self.score())
    }

    /// The move count the game recorded for this level, from its score file
    /// (libgnome-games-support: `$XDG_DATA_HOME/gnome-klotski/scores/<level
    /// key>`, one `SCORE TIME PLAYER` line per score; the score is the move
    /// counter). `None` until a score is saved; a fresh data directory holds
    /// at most one.
    pub fn score(&self) -> Option<u32> {
        let dir = self.dir.path().join("data/gnome-klotski/scores");
        let mut scores = Vec::new();
        for entry in std::fs::read_dir(dir).ok()?.flatten() {
            let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
            scores.extend(
                text.lines()
                    .filter_map(|l| l.split_whitespace().next()?.parse::<u32>().ok()),
            );
        }
        assert!(
            scores.len() <= 1,
            "more than one score recorded: {scores:?}"
        );
        scores.first().copied()
    }

    /// True when the game marked this level solved in its `levels` file.
    pub fn marked_solved(&self) -> bool {
        std::fs::read_to_string(self.dir.path().join("data/gnome-klotski/levels"))
            .is_ok_and(|t| t.contains("solved=true"))
    }

    /// The main window's pixels now.
    /// The part on the screen (1280×1024, as the test displays are).
    pub fn grab(&self) -> image::RgbImage {
        let (x, y, w, h) = self.rect;
        let w = w.min((1280 - x.max(0)) as u32);
        let h = h.min((1024 - y.max(0)) as u32);
        super::sgt::grab(&self.display, (x, y, w, h))
    }

    /// The board's 1-px dark frame as it is now, in screen pixels: x, y,
    /// width, height (outer edges); `None` when it does not show whole
    /// (the dialog over it). [`Klotski::frame`] is the one seen at start.
    pub fn frame_now(&self) -> Option<(i32, i32, u32, u32)> {
        let (x, y, w, h) = find_frame(&self.grab())?;
        Some((self.rect.0 + x as i32, self.rect.1 + y as i32, w, h))
    }

    /// The board's cells for a level `cols`×`rows` cells big: the screen
    /// point of cell (0,0)'s top-left corner and the pitch. GNOME draws
    /// cell (r, c) at frame + 3 + pitch·(c, r), the frame being pitch·size
    /// + 3 pixels across (puzzle-view.vala).
    pub fn cells(&self, cols: usize, rows: usize) -> (f64, f64, f64) {
        let (x, y, w, h) = self.frame;
        let pitch = f64::from(w - 4) / cols as f64;
        let down = f64::from(h - 4) / rows as f64;
        assert!(
            (pitch - down).abs() < 0.01,
            "the frame {w}x{h} is not {cols}x{rows} square cells"
        );
        (f64::from(x) + 3.0, f64::from(y) + 3.0, pitch)
    }

    /// The screen centre of cell (row, col), from [`Klotski::cells`].
    pub fn centre(&self, cols: usize, rows: usize, r: usize, c: usize) -> (i32, i32) {
        let (x0, y0, p) = self.cells(cols, rows);
        (
            (x0 + p * (c as f64 + 0.5)).round() as i32,
            (y0 + p * (r as f64 + 0.5)).round() as i32,
        )
    }

    /// A selection around the board with `margin` pixels each side, as
    /// `--region` takes it.
    pub fn region(&self, margin: i32) -> String {
        super::sgt::region_of(self.frame, margin)
    }
}

/// The frame colour (Adwaita's dark foreground).
const FRAME: [u8; 3] = [46, 52, 54];

/// The board's frame in `img`: x, y, width, height of its outer edges, or
/// `None`. Its top and bottom lines are the first and last rows with a run
/// of frame-coloured pixels a tenth of the window wide or more.
pub fn find_frame(img: &image::RgbImage) -> Option<(u32, u32, u32, u32)> {
    let is_frame = |x: u32, y: u32| {
        let p = img.get_pixel(x, y).0;
        (0..3).all(|i| p[i].abs_diff(FRAME[i]) <= 8)
    };
    let longest = |y: u32| {
        let (mut best, mut run) = ((0, 0), 0);
        for x in 0..img.width() {
            run = if is_frame(x, y) { run + 1 } else { 0 };
            if run > best.1 {
                best = (x + 1 - run, run);
            }
        }
        best
    };
    let min = (img.width() / 10).max(20);
    let lines: Vec<(u32, (u32, u32))> = (0..img.height())
        .map(|y| (y, longest(y)))
        .filter(|(_, (_, len))| *len >= min)
        .collect();
    let (top, (x, w)) = *lines.first()?;
    let (bottom, _) = *lines.last()?;
    Some((x, top, w, bottom + 1 - top))
}
