//! The level generator, in the makers' style: place pieces at random under
//! the ring rules, verify, keep or discard, until enough levels are kept.
//!
//! Candidate `i` of a run is drawn from its own stream of the seed
//! ([`Rng::for_item`]), and the levels kept are the first `count` by that
//! index, so a seed gives the same levels whatever the number of threads
//! and however they race. Workers take candidates from a shared counter.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use serde::Serialize;

use super::level::Level;
use super::rules::{MAX_PIECES, Rules};
use super::verify::{Verdict, describe, verify};
use crate::game::GameError;
use crate::report::{Custom, Output};
use crate::rng::Rng;
use crate::solve::progress::Progress;
use crate::solve::search::Budget;
use crate::tools::options::GenerateOptions;

/// Checks the request can be met at all.
fn check(o: &GenerateOptions) -> Result<(), GameError> {
    let (w, h) = o.size;
    let usage = |m: String| Err(GameError::Usage(m));
    if !(3..=16).contains(&w) || !(3..=16).contains(&h) {
        return usage(format!(
            "--size {w}x{h}: Skiddy boards are 3×3 to 16×16, the ring included"
        ));
    }
    if !(1..=4).contains(&o.colours) {
        return usage(format!("--colours {}: give 1 to 4", o.colours));
    }
    if o.skiddies < o.colours {
        return usage(format!(
            "--skiddies {} is fewer than --colours {}: every colour needs a skiddy",
            o.skiddies, o.colours
        ));
    }
    if o.static_pct > 100 {
        return usage(format!(
            "--static {}: give a percentage, 0 to 100",
            o.static_pct
        ));
    }
    if o.count == 0 {
        return usage("--count 0: ask for at least one level".into());
    }
    let inner = (w - 2) * (h - 2);
    let blocks = inner * o.static_pct as usize / 100;
    let used = [o.skiddies, o.crates, o.ice, o.pits, blocks]
        .into_iter()
        .fold(0usize, usize::saturating_add);
    if used > inner {
        return usage(format!(
            "{used} pieces, pits and blocks do not fit in the {inner} inner cells of a {w}x{h} board"
        ));
    }
    if o.skiddies.saturating_add(o.crates).saturating_add(o.ice) > MAX_PIECES {
        return usage(format!("a level holds at most {MAX_PIECES} moving pieces"));
    }
    let ring = 2 * (w - 2) + 2 * (h - 2);
    if o.colours.saturating_mul(o.goals_per_colour) > ring || o.goals_per_colour == 0 {
        return usage(format!(
            "{} goals per colour do not fit on the {ring} ring cells (corners excluded)",
            o.goals_per_colour
        ));
    }
    if o.stars > 3 {
        return usage(format!("--stars {}: give 0 to 3", o.stars));
    }
    if o.stars >= 2 && o.skiddies == o.colours {
        return usage(format!(
            "--stars {} needs a non-combo solution, which a level with one skiddy per colour never has: \
             give more --skiddies than --colours",
            o.stars
        ));
    }
    Ok(())
}

/// One random candidate, in the level format.
pub fn candidate(o: &GenerateOptions, rng: &mut Rng) -> String {
    let (w, h) = o.size;
    let mut grid = vec![vec!['#'; w]; h];
    let mut ring: Vec<(usize, usize)> = (1..w - 1)
        .flat_map(|c| [(0, c), (h - 1, c)])
        .chain((1..h - 1).flat_map(|r| [(r, 0), (r, w - 1)]))
        .collect();
    for colour in 0..o.colours {
        for _ in 0..o.goals_per_colour {
            let (r, c) = rng.take(&mut ring);
            grid[r][c] = ['R', 'B', 'G', 'Y'][colour];
        }
    }
    let mut inner: Vec<(usize, usize)> = (1..h - 1)
        .flat_map(|r| (1..w - 1).map(move |c| (r, c)))
        .collect();
    for (r, c) in &inner {
        grid[*r][*c] = '.';
    }
    let blocks = inner.len() * o.static_pct as usize / 100;
    let skiddies = (0..o.skiddies).map(|i| ['r', 'b', 'g', 'y'][i % o.colours]);
    let rest = [('#', blocks), ('c', o.crates), ('i', o.ice), ('o', o.pits)];
    let all = skiddies.chain(
        rest.into_iter()
            .flat_map(|(ch, n)| std::iter::repeat_n(ch, n)),
    );
    for ch in all {
        let (r, c) = rng.take(&mut inner);
        grid[r][c] = ch;
    }
    let rows: Vec<String> = grid.into_iter().map(|r| r.into_iter().collect()).collect();
    rows.join("\n") + "\n"
}

/// What became of one candidate.
enum Judged {
    Kept(Box<Verdict>),
    Discarded,
    TooBig,
}

fn judge(o: &GenerateOptions, text: &str) -> Judged {
    let Ok(level) = Level::parse(text) else {
        return Judged::Discarded;
    };
    let budget = Budget {
        max_states: o.max_states,
        ..Budget::default()
    };
    let Ok(v) = verify(&Rules::new(&level), &budget, &mut Progress::quiet()) else {
        return Judged::TooBig;
    };
    let length_ok = match (&o.perfect, &v.shortest) {
        (None, _) => true,
        (Some((lo, hi)), Some(s)) => (*lo..=*hi).contains(&s.length),
        (Some(_), None) => false,
    };
    if v.stars >= o.stars && length_ok && v.shortest.is_some() {
        Judged::Kept(Box::new(v))
    } else {
        Judged::Discarded
    }
}

/// A kept level.
pub struct Kept {
    pub index: u64,
    pub text: String,
    pub verdict: Verdict,
}

/// The shared tally of a run.
#[derive(Default)]
struct Tally {
    kept: Vec<Kept>,
    /// Candidates judged, and how many at the start of the index range
    /// are all judged (the run may stop once `count` are kept below it).
    judged: Vec<bool>,
    prefix: usize,
    tried: u64,
    too_big: u64,
    /// When the last plain progress line went out (stderr not a terminal).
    last_line: Option<Instant>,
    /// Kept levels already handed to the sink, and what it made of them.
    emitted: usize,
    files: Vec<PathBuf>,
    failed: Option<GameError>,
}

impl Tally {
    fn record(&mut self, index: u64, kept: Option<Kept>, too_big: bool) {
        let i = index as usize;
        if self.judged.len() <= i {
            self.judged.resize(i + 1, false);
        }
        self.judged[i] = true;
        while self.prefix < self.judged.len() && self.judged[self.prefix] {
            self.prefix += 1;
        }
        self.tried += 1;
        self.too_big += u64::from(too_big);
        if let Some(k) = kept {
            let at = self.kept.partition_point(|o| o.index < k.index);
            self.kept.insert(at, k);
        }
    }

    /// Hands each newly settled level among the first `count` to `sink`
    /// (it writes the file), so an interrupted run keeps what it found.
    fn emit(&mut self, count: usize, sink: &Sink<'_>) {
        let upto = self.settled().min(count);
        while self.emitted < upto && self.failed.is_none() {
            match sink(&self.kept[self.emitted]) {
                Ok(file) => self.files.extend(file),
                Err(e) => self.failed = Some(e),
            }
            self.emitted += 1;
        }
    }

    /// Kept levels among the candidates whose whole prefix is judged.
    fn settled(&self) -> usize {
        self.kept
            .partition_point(|k| (k.index as usize) < self.prefix)
    }
}

/// The result of a run.
pub struct Run {
    pub kept: Vec<Kept>,
    /// The files the sink wrote, one per kept level, in order.
    pub files: Vec<PathBuf>,
    pub tried: u64,
    pub too_big: u64,
    pub seconds: f64,
    pub threads: usize,
}

/// What to do with each level as soon as it is known to be kept: write it,
/// and say where.
type Sink<'a> = dyn Fn(&Kept) -> Result<Option<PathBuf>, GameError> + Sync + 'a;

/// Generates until `count` levels are kept or `tries` candidates are used.
pub fn run(o: &GenerateOptions) -> Result<Run, GameError> {
    run_with(o, &|_| Ok(None))
}

/// [`run`], handing each kept level to `sink` as soon as it is settled.
pub fn run_with(o: &GenerateOptions, sink: &Sink<'_>) -> Result<Run, GameError> {
    check(o)?;
    let t = Instant::now();
    let next = AtomicU64::new(0);
    let tally = Mutex::new(Tally::default());
    let bar = progress_bar(o);
    let threads = o.threads.max(1);
    let working = std::sync::atomic::AtomicUsize::new(threads);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                worker(o, &next, &tally, &bar, sink);
                working.fetch_sub(1, Ordering::Relaxed);
            });
        }
        // A line every few seconds even while a big candidate is judged,
        // when there is no progress bar to watch.
        if o.progress && bar.is_hidden() {
            scope.spawn(|| ticker(o, &tally, &working, t));
        }
    });
    bar.finish_and_clear();
    let tally = tally
        .into_inner()
        .map_err(|_| GameError::Usage("a generator thread failed".into()))?;
    if let Some(e) = tally.failed {
        return Err(e);
    }
    let mut kept = tally.kept;
    kept.truncate(tally.emitted);
    Ok(Run {
        kept,
        files: tally.files,
        tried: tally.tried,
        too_big: tally.too_big,
        seconds: t.elapsed().as_secs_f64(),
        threads,
    })
}

fn worker(
    o: &GenerateOptions,
    next: &AtomicU64,
    tally: &Mutex<Tally>,
    bar: &indicatif::ProgressBar,
    sink: &Sink<'_>,
) {
    loop {
        let index = next.fetch_add(1, Ordering::Relaxed);
        if index >= o.tries {
            return;
        }
        let text = candidate(o, &mut Rng::for_item(o.seed, index));
        let (kept, too_big) = match judge(o, &text) {
            Judged::Kept(verdict) => (
                Some(Kept {
                    index,
                    text,
                    verdict: *verdict,
                }),
                false,
            ),
            Judged::Discarded => (None, false),
            Judged::TooBig => (None, true),
        };
        let Ok(mut t) = tally.lock() else { return };
        t.record(index, kept, too_big);
        t.emit(o.count, sink);
        let settled = t.settled();
        bar.set_position(settled.min(o.count) as u64);
        bar.set_message(format!("{} tried", t.tried));
        if settled >= o.count || t.failed.is_some() {
            // Stop the others too: no later candidate can be needed.
            next.store(o.tries, Ordering::Relaxed);
            return;
        }
    }
}

/// A progress line every [`TICK`] while the workers run.
fn ticker(
    o: &GenerateOptions,
    tally: &Mutex<Tally>,
    working: &std::sync::atomic::AtomicUsize,
    start: Instant,
) {
    let mut last = Instant::now();
    while working.load(Ordering::Relaxed) > 0 {
        std::thread::sleep(std::time::Duration::from_millis(100));
        if last.elapsed() < TICK {
            continue;
        }
        last = Instant::now();
        if let Ok(mut t) = tally.lock() {
            let settled = t.settled();
            t.last_line = Some(last);
            eprintln!(
                "generate: {settled}/{} kept, {} tried, {:.0} s",
                o.count,
                t.tried,
                start.elapsed().as_secs_f64()
            );
        }
    }
}

/// How often a plain progress line goes out.
const TICK: std::time::Duration = std::time::Duration::from_secs(5);

fn progress_bar(o: &GenerateOptions) -> indicatif::ProgressBar {
    if !o.progress || !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(o.count as u64);
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} kept, {msg} ({elapsed})")
    {
        bar.set_style(style);
    }
    bar
}

/// One kept level in the run's report.
#[derive(Serialize)]
struct LevelDoc<'a> {
    file: Option<String>,
    candidate: u64,
    stars: u8,
    shortest: Option<&'a str>,
    length: Option<usize>,
    states: usize,
}

/// `boardbot generate --game skiddy`.
pub fn command(o: &GenerateOptions) -> Result<Output, GameError> {
    let run = match &o.out {
        Some(dir) => {
            crate::files::ensure_dir(dir, "--out").map_err(|e| GameError::Output(e.to_string()))?;
            run_with(o, &|k| write(dir, o, k).map(Some))?
        }
        None => run(o)?,
    };
    let files = &run.files;
    let levels: Vec<LevelDoc> = run
        .kept
        .iter()
        .enumerate()
        .map(|(i, k)| LevelDoc {
            file: files.get(i).map(|f| f.display().to_string()),
            candidate: k.index,
            stars: k.verdict.stars,
            shortest: k.verdict.shortest.as_ref().map(|s| s.moves.as_str()),
            length: k.verdict.shortest.as_ref().map(|s| s.length),
            states: k.verdict.states,
        })
        .collect();
    let per_sec = run.tried as f64 / run.seconds.max(1e-9);
    let json = serde_json::json!({
        "game": "skiddy",
        "tried": run.tried,
        "kept": run.kept.len(),
        "asked": o.count,
        "too_big": run.too_big,
        "seed": o.seed,
        "threads": run.threads,
        "seconds": (run.seconds * 1000.0).round() / 1000.0,
        "candidates_per_sec": per_sec.round(),
        "candidates_per_sec_per_thread": (per_sec / run.threads as f64).round(),
        "levels": levels,
    });
    let text = summary(o, &run, files);
    let code = i32::from(run.kept.len() < o.count);
    Ok(Output::Custom(Custom { json, text, code }))
}

fn summary(o: &GenerateOptions, run: &Run, files: &[PathBuf]) -> String {
    let mut out = format!(
        "kept {} of {} candidates ({} too big to verify) in {:.2} s on {} threads, {:.0} candidates/s\n",
        run.kept.len(),
        run.tried,
        run.too_big,
        run.seconds,
        run.threads,
        run.tried as f64 / run.seconds.max(1e-9)
    );
    if run.kept.len() < o.count {
        out += &format!(
            "only {} of the {} levels asked for within --tries {}; loosen the request or raise --tries\n",
            run.kept.len(),
            o.count,
            o.tries
        );
    }
    for (i, k) in run.kept.iter().enumerate() {
        let name = files.get(i).map_or(format!("candidate {}", k.index), |f| {
            f.display().to_string()
        });
        out += &format!("\n{}{}", k.text, describe(&k.verdict, &name));
    }
    out
}

/// Writes a kept level and its verdict beside it; returns the level file.
fn write(dir: &Path, o: &GenerateOptions, k: &Kept) -> Result<PathBuf, GameError> {
    let stem = format!(
        "skiddy-{}x{}-s{}-{:06}",
        o.size.0, o.size.1, o.seed, k.index
    );
    let level = dir.join(format!("{stem}.txt"));
    let header = format!(
        "; boardbot generate --seed {}: candidate {}, {} star(s), shortest {}\n",
        o.seed,
        k.index,
        k.verdict.stars,
        k.verdict
            .shortest
            .as_ref()
            .map_or("none", |s| s.moves.as_str())
    );
    let text = header + &k.text;
    crate::files::write_atomic(&level, text.as_bytes())
        .map_err(|e| GameError::Output(e.to_string()))?;
    // The file's own name, so the same seed writes the same files.
    let verdict = super::verify::document(&k.verdict, &format!("{stem}.txt"), false)?;
    let json =
        serde_json::to_string_pretty(&verdict).map_err(|e| GameError::Output(e.to_string()))?;
    let doc = dir.join(format!("{stem}.json"));
    crate::files::write_atomic(&doc, (json + "\n").as_bytes())
        .map_err(|e| GameError::Output(e.to_string()))?;
    Ok(level)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(threads: usize) -> GenerateOptions {
        GenerateOptions {
            size: (6, 5),
            colours: 2,
            skiddies: 3,
            crates: 1,
            ice: 0,
            pits: 1,
            static_pct: 10,
            goals_per_colour: 1,
            perfect: Some((2, 8)),
            stars: 1,
            count: 8,
            seed: 42,
            out: None,
            tries: 100_000,
            max_states: 100_000,
            threads,
            progress: false,
        }
    }

    #[test]
    fn a_seed_gives_the_same_levels_on_any_number_of_threads() {
        let one = run(&ask(1)).unwrap();
        let three = run(&ask(3)).unwrap();
        let texts = |r: &Run| r.kept.iter().map(|k| k.text.clone()).collect::<Vec<_>>();
        assert_eq!(one.kept.len(), 8);
        assert_eq!(texts(&one), texts(&three));
        for k in &one.kept {
            let len = k.verdict.shortest.as_ref().unwrap().length;
            assert!(k.verdict.stars >= 1 && (2..=8).contains(&len), "{}", k.text);
        }
    }

    #[test]
    fn candidates_keep_the_ring_rules_and_the_counts() {
        let o = ask(1);
        for i in 0..200 {
            let text = candidate(&o, &mut Rng::for_item(7, i));
            let level = Level::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(level.pieces.len(), 4, "{text}");
            assert_eq!(text.matches('o').count(), 1);
        }
    }

    #[test]
    fn impossible_requests_are_refused_with_the_reason() {
        let mut o = ask(1);
        o.skiddies = 30;
        let e = run(&o).err().unwrap().to_string();
        assert!(e.contains("do not fit"), "{e}");
        o = ask(1);
        o.colours = 5;
        assert!(run(&o).is_err());
    }
}
