//! Every `boardbot` command the docs show runs, as written, and prints
//! what the docs say it prints: the snapshot tests of the docs, in the
//! format of `trycmd` (which clap and cargo use for theirs).
//!
//! In `README.md` and `docs/**/*.md`, a block fenced as `console` holds
//! commands (`$ boardbot …`, continued on lines starting `> `), each
//! followed by an optional `? CODE` (its exit code, 0 when absent) and
//! the output it prints (stdout, then stderr). `...` on a line of its own
//! stands for any lines, `[..]` within a line for any text (timings).
//! - ```` ```console ```` blocks always run;
//! - ```` ```console,shared ```` blocks need `../shared` (the test data
//!   beside the project, see README): they run when it is there, and in CI;
//! - ```` ```console,ignore ```` blocks need a display (`play`,
//!   `practice`) and are not run.
//!
//! Commands run from a scratch directory that shows the project's files
//! (`tests/`, `calibration/`, `templates/`, `docs/`) and `../shared`, so
//! that what they write lands nowhere in the checkout, with a config
//! directory of their own. `DOCS=overwrite cargo test --test docs` writes
//! each command's real output into the docs in place of what they show
//! (timings as `[..]`).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// One command shown in the docs.
struct Shown {
    file: PathBuf,
    line: usize,
    args: Vec<String>,
    status: i32,
    /// The output as shown, and the lines of the file it spans.
    output: String,
    span: (usize, usize),
}

/// The kind of a fenced block: run always, run with `../shared`, or not.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Run,
    Shared,
    Ignore,
}

fn kind_of(info: &str) -> Option<Kind> {
    let mut parts = info.split(',').map(str::trim);
    if parts.next() != Some("console") {
        return None;
    }
    Some(match parts.next() {
        None => Kind::Run,
        Some("shared") => Kind::Shared,
        Some(_) => Kind::Ignore,
    })
}

/// The commands of one markdown file, with the kind of their block.
fn commands(file: &Path) -> Vec<(Kind, Shown)> {
    let text = std::fs::read_to_string(file).expect("a docs file");
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some(kind) = lines[i].strip_prefix("```").and_then(kind_of) else {
            i += 1;
            continue;
        };
        i += 1;
        while i < lines.len() && !lines[i].starts_with("```") {
            let (shown, next) = command(file, &lines, i);
            out.push((kind, shown));
            i = next;
        }
        i += 1;
    }
    out
}

/// The command starting at line `i` of a block: it, and the line after.
fn command(file: &Path, lines: &[&str], mut i: usize) -> (Shown, usize) {
    let start = i;
    let Some(first) = lines[i].strip_prefix("$ ") else {
        panic!(
            "{}:{}: a console block line is not a command (`$ …`): {}",
            file.display(),
            i + 1,
            lines[i]
        );
    };
    let mut cmdline = first.to_string();
    i += 1;
    while let Some(more) = lines.get(i).and_then(|l| l.strip_prefix("> ")) {
        cmdline.push(' ');
        cmdline.push_str(more);
        i += 1;
    }
    let mut status = 0;
    if let Some(code) = lines.get(i).and_then(|l| l.strip_prefix("? ")) {
        status = code.trim().parse().expect("`? CODE` is a number");
        i += 1;
    }
    let out_start = i;
    while i < lines.len() && !lines[i].starts_with("$ ") && !lines[i].starts_with("```") {
        i += 1;
    }
    let args = shlex::split(&cmdline)
        .unwrap_or_else(|| panic!("{}:{}: cannot split {cmdline:?}", file.display(), start + 1));
    let shown = Shown {
        file: file.to_path_buf(),
        line: start + 1,
        args,
        status,
        output: lines[out_start..i].join("\n"),
        span: (out_start, i),
    };
    (shown, i)
}

/// Every markdown file of the docs.
fn docs_files(root: &Path) -> Vec<PathBuf> {
    let mut files = vec![root.join("README.md")];
    let mut dirs = vec![root.join("docs")];
    while let Some(d) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "md") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

/// A scratch directory that shows the project's files, and `../shared`
/// beside it: the commands' working directory.
fn sandbox(root: &Path) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().expect("temp dir");
    let work = tmp.path().join("boardbot");
    std::fs::create_dir(&work).expect("work dir");
    for name in [
        "tests",
        "calibration",
        "templates",
        "docs",
        "src",
        "README.md",
    ] {
        std::os::unix::fs::symlink(root.join(name), work.join(name)).expect("link");
    }
    let shared = root.join("../shared");
    if shared.is_dir() {
        std::os::unix::fs::symlink(&shared, tmp.path().join("shared")).expect("link");
    }
    std::fs::create_dir(work.join("config")).expect("config dir");
    (tmp, work)
}

/// Runs a shown command in `work`: its exit code and its output.
fn run(shown: &Shown, work: &Path) -> (i32, String) {
    assert_eq!(
        shown.args.first().map(String::as_str),
        Some("boardbot"),
        "{}:{}: the docs show only boardbot commands",
        shown.file.display(),
        shown.line
    );
    let out = Command::new(env!("CARGO_BIN_EXE_boardbot"))
        .args(&shown.args[1..])
        .current_dir(work)
        .env("BOARDBOT_CONFIG_DIR", work.join("config"))
        .env("BOARDBOT_SAVE_DIR", work.join("seen"))
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("run boardbot");
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    (out.status.code().unwrap_or(-1), text.trim_end().to_string())
}

/// Output as the docs would show it: timings elided. Every number
/// directly followed by ` ms` or ` s` becomes `[..]`, and so does the
/// value of a timing or memory field in JSON (`"ms":12.3`).
fn as_shown(output: &str) -> String {
    output
        .lines()
        .map(shown_line)
        .collect::<Vec<_>>()
        .join("\n")
}

/// JSON fields whose values change from run to run (timings, memory,
/// and how many candidates several threads tried).
const VARYING: [&str; 12] = [
    "tried",
    "seconds",
    "candidates_per_sec",
    "candidates_per_sec_per_thread",
    "ms",
    "vision",
    "solve",
    "vision_ms",
    "peak_bytes",
    "total_ms",
    "median_ms",
    "states_per_sec",
];

fn shown_line(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(end) = number_end(rest) {
        let (head, tail) = rest.split_at(end);
        let start = head
            .char_indices()
            .rev()
            .find(|&(_, c)| !(c.is_ascii_digit() || c == '.'))
            .map_or(0, |(i, c)| i + c.len_utf8());
        let before = &head[..start];
        let varying = if timed(tail) {
            true
        } else {
            VARYING
                .iter()
                .any(|k| before.ends_with(&format!("\"{k}\":")))
        };
        if varying && head[start..].parse::<f64>().is_ok() {
            out.push_str(before);
            out.push_str("[..]");
        } else {
            out.push_str(head);
        }
        rest = tail;
    }
    out.push_str(rest);
    out
}

/// The end of the first run of digits (and dots) in `s`.
fn number_end(s: &str) -> Option<usize> {
    let first = s.find(|c: char| c.is_ascii_digit())?;
    let len = s[first..]
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len() - first);
    Some(first + len)
}

/// Whether what follows a number makes it vary from run to run: a
/// duration (` ms`, ` s`), a rate (` <things>/s`), or a count of
/// candidates tried.
fn timed(tail: &str) -> bool {
    let Some(t) = tail.strip_prefix(' ') else {
        return false;
    };
    let word: String = t
        .chars()
        .take_while(|c| !c.is_whitespace() && *c != ',' && *c != ')')
        .collect();
    let word = word.trim_end_matches(['.', ';']);
    // Threads race: how many candidates they tried varies too.
    word == "ms" || word == "s" || word.ends_with("/s") || word == "candidates"
}

#[test]
fn every_command_in_the_docs_runs_as_written() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (_tmp, work) = sandbox(root);
    let overwrite = std::env::var("DOCS").is_ok_and(|v| v == "overwrite");
    let have_shared = root.join("../shared").is_dir();
    let (mut ran, mut skipped, mut failures) = (0, 0, Vec::new());
    for file in docs_files(root) {
        let mut rewrites = Vec::new();
        for (kind, shown) in commands(&file) {
            match kind {
                Kind::Ignore => continue,
                Kind::Shared if !have_shared => {
                    assert!(!common::in_ci(), "../shared is absent in CI");
                    skipped += 1;
                    continue;
                }
                _ => {}
            }
            let (code, output) = run(&shown, &work);
            ran += 1;
            let at = format!("{}:{}", shown.file.display(), shown.line);
            if overwrite {
                rewrites.push((shown.span, code, as_shown(&output)));
                continue;
            }
            if code != shown.status {
                failures.push(format!(
                    "{at}: exit code {code}, the docs say {}:\n{output}",
                    shown.status
                ));
                continue;
            }
            let check = snapbox::Assert::new().try_eq(
                Some(&at),
                snapbox::Data::text(output),
                snapbox::Data::text(shown.output.clone()),
            );
            if let Err(e) = check {
                failures.push(format!("{at}: the output differs:\n{e}"));
            }
        }
        if overwrite && !rewrites.is_empty() {
            rewrite(&file, &rewrites);
        }
    }
    println!("ran {ran} commands from the docs; {skipped} need ../shared and were skipped");
    assert!(ran > 0, "no command found in the docs");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Writes each command's output (and its exit code) into `file`.
fn rewrite(file: &Path, rewrites: &[((usize, usize), i32, String)]) {
    let text = std::fs::read_to_string(file).expect("a docs file");
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    for &((from, to), code, ref output) in rewrites.iter().rev() {
        let mut new: Vec<String> = Vec::new();
        if code != 0 {
            new.push(format!("? {code}"));
        }
        new.extend(output.lines().map(String::from));
        // The `? CODE` line, if any, sits just before the output.
        let from = if from > 0 && lines[from - 1].starts_with("? ") {
            from - 1
        } else {
            from
        };
        lines.splice(from..to, new);
    }
    let mut out = lines.join("\n");
    out.push('\n');
    std::fs::write(file, out).expect("rewrite the docs");
}
