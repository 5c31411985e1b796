//! sgt-puzzles' games as the tests use them: where a program is, Inertia's
//! own solver's answer for a game ID (from `--save … --with-solutions`),
//! and a game's window on a test display.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The installed `sgt-inertia`, or `None` with the reason printed.
pub fn inertia() -> Option<PathBuf> {
    program("sgt-inertia")
}

/// The installed sgt-puzzles program `name` (Debian puts them in
/// /usr/games, often off PATH), or `None` with the reason printed; in CI
/// it must be there.
pub fn program(name: &str) -> Option<PathBuf> {
    let on_path = Command::new("sh")
        .args(["-c", &format!("command -v {name}")])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    let found = on_path.or_else(|| {
        let p = Path::new("/usr/games").join(name);
        p.exists().then_some(p)
    });
    assert!(
        found.is_some() || !super::in_ci(),
        "{name} is not installed, and CI=true: .ci/deps must install its package (sgt-puzzles, gnome-klotski)"
    );
    if found.is_none() {
        super::skip(&format!(
            "{name} is not installed (sudo .ci/deps installs it)"
        ));
    }
    found
}

/// sgt's own solver's moves for `id`, as its direction numbers (0 = up,
/// clockwise): the `SOLVE` line of the save file it writes.
pub fn solve(program: &Path, id: &str, dir: &Path) -> Vec<usize> {
    let prefix = dir.join("sgt-");
    let mut child = Command::new(program)
        .arg("--save")
        .arg(&prefix)
        .args(["--save-suffix", ".sav", "--with-solutions"])
        .stdin(Stdio::piped())
        .spawn()
        .expect("run sgt-inertia");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        writeln!(stdin, "{id}").expect("write the ID");
    }
    assert!(child.wait().expect("sgt-inertia").success());
    let save = std::fs::read_to_string(dir.join("sgt-0.sav")).expect("the save file");
    let line = save
        .lines()
        .find(|l| l.starts_with("SOLVE"))
        .expect("a SOLVE line");
    let moves = line.rsplit(':').next().expect("a value");
    moves
        .trim()
        .trim_start_matches('S')
        .bytes()
        .map(|b| usize::from(b - b'0'))
        .collect()
}

/// An sgt-puzzles game running on a test display, showing one game ID;
/// closed when dropped.
#[cfg(feature = "live")]
pub struct Window {
    child: std::process::Child,
    pub display: String,
    /// The window's place on the screen: x, y, width, height.
    pub rect: (i32, i32, u32, u32),
    /// The X window id, for xdotool.
    pub id: String,
}

#[cfg(feature = "live")]
impl Drop for Window {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The output of `xdotool ARGS` on `display` (empty when it failed).
#[cfg(feature = "live")]
pub fn xdotool_out(display: &str, args: &[&str]) -> String {
    let out = Command::new("xdotool")
        .args(args)
        .env("DISPLAY", display)
        .output()
        .expect("xdotool");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[cfg(feature = "live")]
impl Window {
    /// Starts `program ID` on `display` and moves its window to `at`. The
    /// window is found by its title, the game's name (`sgt-fifteen`:
    /// "Fifteen").
    pub fn open(program: &Path, display: &str, id: &str, at: (i32, i32)) -> Window {
        Window::open_with(program, display, id, at, &[])
    }

    /// As [`Window::open`], with more environment variables for the game
    /// (a fontconfig file, for the font its numbers are drawn in).
    pub fn open_with(
        program: &Path,
        display: &str,
        id: &str,
        at: (i32, i32),
        env: &[(&str, &Path)],
    ) -> Window {
        let title = title_of(program);
        let start = || {
            Command::new(program)
                .arg(id)
                .env("DISPLAY", display)
                .envs(env.iter().copied())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .expect("start the sgt game")
        };
        let mut child = start();
        let mut restarts = 0;
        let t = std::time::Instant::now();
        let win = loop {
            // A program started as the display comes up may fail to
            // connect: start it again, twice at most.
            if let Ok(Some(status)) = child.try_wait() {
                let mut err = String::new();
                if let Some(mut e) = child.stderr.take() {
                    let _ = std::io::Read::read_to_string(&mut e, &mut err);
                }
                assert!(restarts < 2, "{title} exited ({status}): {err}");
                restarts += 1;
                child = start();
            }
            // GTK makes a 10×10 leader window too: take the largest.
            let ids = xdotool_out(display, &["search", "--onlyvisible", "--name", &title]);
            let best = ids
                .split_whitespace()
                .map(|w| (w.to_string(), geometry(display, w)))
                .filter(|(_, g)| g.2 > 100)
                .max_by_key(|(_, g)| g.2);
            if let Some((w, _)) = best {
                break w;
            }
            assert!(
                t.elapsed().as_secs() < 20,
                "{title}'s window did not appear"
            );
            std::thread::sleep(std::time::Duration::from_millis(100));
        };
        let (x, y) = (at.0.to_string(), at.1.to_string());
        xdotool_out(display, &["windowmove", "--sync", &win, &x, &y]);
        std::thread::sleep(std::time::Duration::from_millis(400));
        let rect = geometry(display, &win);
        Window {
            child,
            display: display.to_string(),
            rect,
            id: win,
        }
    }

    /// A left click at `(x, y)`, in the window's pixels.
    pub fn click(&self, x: i32, y: i32) {
        let (sx, sy) = ((self.rect.0 + x).to_string(), (self.rect.1 + y).to_string());
        xdotool_out(&self.display, &["mousemove", &sx, &sy, "click", "1"]);
    }

    /// Resizes the window (sgt draws its tiles to fit) and waits for it.
    pub fn resize(&mut self, width: u32, height: u32) {
        let (w, h) = (width.to_string(), height.to_string());
        xdotool_out(&self.display, &["windowsize", "--sync", &self.id, &w, &h]);
        std::thread::sleep(std::time::Duration::from_millis(600));
        self.rect = geometry(&self.display, &self.id);
    }

    /// The window's pixels now.
    pub fn grab(&self) -> image::RgbImage {
        grab(&self.display, self.rect)
    }

    /// The window's rectangle as `--region` takes it, grown by `margin`.
    pub fn region(&self, margin: i32) -> String {
        region_of(self.rect, margin)
    }
}

/// A rectangle (x, y, width, height) as `--region` takes it, grown by
/// `margin` on each side.
pub fn region_of(rect: (i32, i32, u32, u32), margin: i32) -> String {
    let (x, y, w, h) = rect;
    format!(
        "{},{},{},{}",
        x - margin,
        y - margin,
        w as i32 + 2 * margin,
        h as i32 + 2 * margin
    )
}

/// The window title of an sgt program: its name without `sgt-`,
/// capitalised.
#[cfg(feature = "live")]
fn title_of(program: &Path) -> String {
    let name = program
        .file_name()
        .map_or(String::new(), |n| n.to_string_lossy().into_owned());
    let game = name.trim_start_matches("sgt-");
    let mut c = game.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// A window's place: x, y, width, height.
#[cfg(feature = "live")]
pub fn geometry(display: &str, win: &str) -> (i32, i32, u32, u32) {
    let text = xdotool_out(display, &["getwindowgeometry", "--shell", win]);
    let field = |k: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(k))
            .and_then(|v| v.trim().parse::<i64>().ok())
            .unwrap_or(0)
    };
    (
        field("X=") as i32,
        field("Y=") as i32,
        field("WIDTH=") as u32,
        field("HEIGHT=") as u32,
    )
}

/// The pixels of `rect` on `display`'s root window (24-bit true colour,
/// as Xvfb -screen 0 WxHx24 gives).
#[cfg(feature = "live")]
pub fn grab(display: &str, rect: (i32, i32, u32, u32)) -> image::RgbImage {
    use x11rb::connection::Connection;
    use x11rb::protocol::xproto::{ConnectionExt, ImageFormat};
    let (conn, n) = x11rb::connect(Some(display)).expect("connect to the X display");
    let root = conn.setup().roots[n].root;
    let (x, y, w, h) = rect;
    let reply = conn
        .get_image(
            ImageFormat::Z_PIXMAP,
            root,
            x as i16,
            y as i16,
            w as u16,
            h as u16,
            u32::MAX,
        )
        .expect("GetImage")
        .reply()
        .expect("GetImage reply");
    let rgb: Vec<u8> = reply
        .data
        .chunks_exact(4)
        .take(w as usize * h as usize)
        .flat_map(|p| [p[2], p[1], p[0]])
        .collect();
    image::RgbImage::from_raw(w, h, rgb).expect("image size")
}

/// The game IDs of tests/fixtures/inertia/ids.txt.
pub fn inertia_ids() -> Vec<String> {
    let text = std::fs::read_to_string(super::fixtures("inertia/ids.txt")).expect("ids.txt");
    text.lines().map(str::to_string).collect()
}

/// A test display with sgt-inertia and xdotool, or `None` (skipped, said
/// why; in CI a missing program fails instead).
#[cfg(feature = "live")]
pub fn setup_inertia(tag: u32) -> Option<(super::display::Display, PathBuf)> {
    let program = inertia()?;
    if !super::display::have_xdotool() {
        return None;
    }
    Some((super::display::xvfb(tag)?, program))
}

/// The game IDs of tests/fixtures/fifteen/ids.txt; the first shows every
/// number, and the tests calibrate on it.
pub fn fifteen_ids() -> Vec<String> {
    let text = std::fs::read_to_string(super::fixtures("fifteen/ids.txt")).expect("ids.txt");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// `boardbot calibrate --game fifteen` on a screenshot of the first
/// fixture ID, taken now on `display`: the learnt file (in `dir`).
#[cfg(feature = "live")]
pub fn calibrate_fifteen(program: &Path, display: &str, dir: &Path) -> PathBuf {
    let id = &fifteen_ids()[0];
    let win = Window::open(program, display, id, (20, 20));
    let shot = win.grab();
    drop(win);
    calibrate_fifteen_on(&shot, id, dir)
}

/// `boardbot calibrate --game fifteen` on `shot`, which shows game `id`:
/// the learnt file (in `dir`).
pub fn calibrate_fifteen_on(shot: &image::RgbImage, id: &str, dir: &Path) -> PathBuf {
    let file = dir.join("calibration-shot.png");
    shot.save(&file).expect("save the screenshot");
    let out = super::boardbot(&[
        "calibrate",
        "--game",
        "fifteen",
        "--image",
        file.to_str().expect("utf-8"),
        "--board",
        id,
        "--out",
        dir.to_str().expect("utf-8"),
    ]);
    assert!(
        out.status.success(),
        "calibrate failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    dir.join("fifteen.toml")
}

/// A test display with sgt-fifteen and a calibration learnt on it.
#[cfg(feature = "live")]
pub struct Fifteen {
    pub display: super::display::Display,
    pub program: PathBuf,
    /// The learnt calibration file, for `--calibration`.
    pub cal_file: PathBuf,
    pub cal: boardbot::calibration::Calibration,
    _dir: tempfile::TempDir,
}

#[cfg(feature = "live")]
impl Fifteen {
    /// Display `tag`, sgt-fifteen and xdotool, calibrated; or `None`
    /// (skipped, said why).
    pub fn setup(tag: u32) -> Option<Fifteen> {
        use boardbot::game::OnScreen;
        let program = program("sgt-fifteen")?;
        if !super::display::have_xdotool() {
            return None;
        }
        let display = super::display::xvfb(tag)?;
        let dir = tempfile::tempdir().expect("temp dir");
        let cal_file = calibrate_fifteen(&program, &display.name, dir.path());
        let cal = boardbot::games::fifteen::FIFTEEN
            .load_calibration(Some(&cal_file))
            .expect("the learnt calibration");
        Some(Fifteen {
            display,
            program,
            cal_file,
            cal,
            _dir: dir,
        })
    }

    /// sgt-fifteen showing `id`, its window at `at`.
    pub fn open(&self, id: &str, at: (i32, i32)) -> Window {
        Window::open(&self.program, &self.display.name, id, at)
    }

    /// `solve_image` on `img` with the learnt calibration.
    pub fn solve(&self, img: &image::RgbImage) -> boardbot::report::Report {
        use boardbot::game::OnScreen;
        boardbot::games::fifteen::FIFTEEN
            .solve_image(img, &self.cal, &Default::default())
            .expect("a report")
    }

    /// What boardbot reads in `win` now.
    pub fn read(&self, win: &Window) -> boardbot::report::Report {
        self.solve(&win.grab())
    }
}

/// A fontconfig file in `dir` under which bold "Sans", the font sgt draws
/// its numbers in, is `family`: the desktop's fonts changed for one
/// program, as a user's font settings change them for all.
pub fn sans_is(dir: &Path, family: &str) -> PathBuf {
    let file = dir.join(format!("fonts-{}.conf", family.replace(' ', "-")));
    let conf = format!(
        r#"<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <match target="pattern">
    <test name="family"><string>sans-serif</string></test>
    <edit name="family" mode="prepend" binding="strong"><string>{family}</string></edit>
  </match>
</fontconfig>
"#
    );
    std::fs::write(&file, conf).expect("write the fontconfig file");
    file
}
