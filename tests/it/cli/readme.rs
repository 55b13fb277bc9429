//! The README's examples run as written (issue 20, finding 9): every ```` ```sh ```` block, in
//! order, in one empty folder, against the built binary, so the README cannot rot. Its Rust
//! example is a doc-test (`src/lib.rs` includes the README under `cfg(doctest)`).
//!
//! The rules an example follows (also in the README, in a comment after its first block):
//! - one command a line, run by `sh -c` with the built `knights-tour` first on `PATH`, so pipes,
//!   `&&`, `>` and globs work; standard input is empty;
//! - it writes its own file names and reads only files written above it (or by a `printf` line
//!   of its own), so the examples run in order in an empty folder;
//! - the exit code is 0 unless the line's comment (after ` # `) says `exit 1` or `exit 2`, and
//!   it never depends on a random seed: a workbook verified for its exit code is made with
//!   `--seed` (an unseeded `generate` may write a failed attempt first, which verifies as
//!   `partial`, exit 1);
//! - a file named after `-o`, `--output` or `--complete` (not `-`) exists afterwards, unless the
//!   line ends with exit code 2;
//! - lines starting with `cargo` are not run: the README's opening `cargo run --release --
//!   generate` is `knights-tour generate`, which the generate block runs, and `cargo test` is
//!   this suite;
//! - a board side over [`MAX_SIDE`] (`--size`, `--rows`, `--cols`) runs at [`MAX_SIDE`]: the
//!   examples show what big boards look like, and a 1000x1000 workbook takes 8 s in a debug
//!   build. Nothing else is changed.
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Board sides above this run at this size (see the module documentation).
const MAX_SIDE: u32 = 100;

/// A command that has not finished after this long is killed and reported.
const COMMAND_TIME_LIMIT: Duration = Duration::from_secs(60);

/// One command line of a ```` ```sh ```` block.
#[derive(Debug)]
struct Example {
    /// Line number in the README (from 1).
    line: usize,
    /// The command as written, without its comment.
    command: String,
    /// The comment after ` # `, if any.
    comment: String,
}

impl Example {
    /// The exit code the comment announces (`exit 1`), else 0.
    fn expected_code(&self) -> i32 {
        let words: Vec<&str> = self
            .comment
            .split(|c: char| !c.is_ascii_alphanumeric())
            .collect();
        words
            .windows(2)
            .find(|w| w[0] == "exit")
            .and_then(|w| w[1].parse().ok())
            .unwrap_or(0)
    }

    /// The command as the test runs it: big board sides brought down to [`MAX_SIDE`].
    fn as_run(&self) -> String {
        let tokens = tokens(&self.command);
        let mut out = self.command.clone();
        // Right to left, so earlier byte offsets stay valid.
        for pair in tokens.windows(2).rev() {
            let ((_, flag), (at, value)) = (&pair[0], &pair[1]);
            let side_flag = matches!(*flag, "--size" | "--rows" | "--cols");
            if side_flag && value.parse::<u32>().is_ok_and(|n| n > MAX_SIDE) {
                out.replace_range(*at..*at + value.len(), &MAX_SIDE.to_string());
            }
        }
        out
    }

    /// The files the command writes (after `-o`, `--output`, `--complete`), not `-`.
    fn outputs(&self) -> Vec<String> {
        let tokens = tokens(&self.command);
        tokens
            .windows(2)
            .filter(|w| matches!(w[0].1, "-o" | "--output" | "--complete") && w[1].1 != "-")
            .map(|w| w[1].1.to_string())
            .collect()
    }
}

/// Whitespace-separated words of a command with their byte offsets (quotes are not parsed:
/// the words looked at, flags and file names, are never quoted in the README).
fn tokens(command: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in command.char_indices() {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push((s, &command[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, &command[s..]));
    }
    out
}

/// Split a line at its comment: the first `#` after whitespace and outside quotes.
fn split_comment(line: &str) -> (&str, &str) {
    let (mut single, mut double, mut prev_space) = (false, false, true);
    for (i, c) in line.char_indices() {
        match c {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '#' if !single && !double && prev_space => {
                return (line[..i].trim_end(), line[i + 1..].trim());
            }
            _ => {}
        }
        prev_space = c.is_whitespace();
    }
    (line.trim_end(), "")
}

/// Every command line of every ```` ```sh ```` block, in order, and the lines of the first
/// block.
fn examples(readme: &str) -> (Vec<Example>, Vec<String>) {
    let (mut out, mut first, mut blocks) = (Vec::new(), Vec::new(), 0);
    let mut in_sh = false;
    for (i, line) in readme.lines().enumerate() {
        let trimmed = line.trim();
        if !in_sh {
            in_sh = trimmed == "```sh";
            blocks += usize::from(in_sh);
            continue;
        }
        if trimmed.starts_with("```") {
            in_sh = false;
            continue;
        }
        if blocks == 1 {
            first.push(trimmed.to_string());
        }
        let (command, comment) = split_comment(trimmed);
        if command.is_empty() {
            continue;
        }
        out.push(Example {
            line: i + 1,
            command: command.to_string(),
            comment: comment.to_string(),
        });
    }
    (out, first)
}

/// Run `command` with `sh -c` in `dir`, `bin` first on `PATH`; the exit code (`None`: killed at
/// [`COMMAND_TIME_LIMIT`]) and standard error.
fn run(command: &str, dir: &Path, bin: &Path) -> (Option<i32>, String) {
    let path = match std::env::var_os("PATH") {
        Some(p) => {
            let mut dirs = vec![bin.to_path_buf()];
            dirs.extend(std::env::split_paths(&p));
            std::env::join_paths(dirs).unwrap()
        }
        None => bin.as_os_str().to_owned(),
    };
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .env("PATH", path)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > COMMAND_TIME_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut stderr = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = std::io::Read::read_to_string(&mut e, &mut stderr);
    }
    (status.and_then(|s| s.code()), stderr)
}

#[test]
fn every_readme_example_runs_as_written_in_order() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let (examples, first) = examples(&readme);
    // The README opens with exactly the two commands the brief promises.
    assert_eq!(first, ["cargo run --release -- generate", "cargo test"]);
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_knights-tour"));
    let bin_dir = bin.parent().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    let mut ran = 0;
    for ex in &examples {
        if ex.command.starts_with("cargo ") {
            continue;
        }
        ran += 1;
        let command = ex.as_run();
        let (code, stderr) = run(&command, dir.path(), bin_dir);
        let expected = ex.expected_code();
        let missing: Vec<String> = ex
            .outputs()
            .into_iter()
            .filter(|f| expected != 2 && !dir.path().join(f).exists())
            .collect();
        if code != Some(expected) || !missing.is_empty() || stderr.contains("panicked") {
            failures.push(format!(
                "README.md:{}: `{command}`: exit {code:?}, expected {expected}{}\n{stderr}",
                ex.line,
                if missing.is_empty() {
                    String::new()
                } else {
                    format!("; not written: {missing:?}")
                }
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        ran >= 25,
        "only {ran} examples found: is the README parsed?"
    );
}

#[test]
fn the_rules_are_read_as_documented() {
    let ex = |line: &str| {
        let (examples, _) = examples(&format!("```sh\n{line}\n```\n"));
        examples.into_iter().next().unwrap()
    };
    let e = ex(r#"knights-tour verify --sheet "Attempt 1 (stuck)" x.xlsx   # exit 1: partial"#);
    assert_eq!(
        e.command,
        r#"knights-tour verify --sheet "Attempt 1 (stuck)" x.xlsx"#
    );
    assert_eq!(e.expected_code(), 1);
    let e = ex("knights-tour generate --size 1000 --rows 7 -o big.xlsx   # 1000 squares a side");
    assert_eq!(e.expected_code(), 0);
    assert_eq!(
        e.as_run(),
        "knights-tour generate --size 100 --rows 7 -o big.xlsx"
    );
    assert_eq!(e.outputs(), ["big.xlsx"]);
    let e = ex(r"printf '1 a1\n# not a comment\n' > m.txt");
    assert_eq!(e.comment, "");
    let e = ex("knights-tour verify a.csv --complete out.xlsx -o - # exit 2");
    assert_eq!(
        (e.outputs(), e.expected_code()),
        (vec!["out.xlsx".into()], 2)
    );
}

/// Issue 44, finding 9: every example calls `knights-tour`, so the README says, where it
/// renders (not in an HTML comment), how to install it, before the first example.
#[test]
fn the_readme_says_how_to_install_the_command_its_examples_call() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    // What renders: the text without its HTML comments.
    let mut shown = String::new();
    let mut rest = readme.as_str();
    while let Some(at) = rest.find("<!--") {
        shown.push_str(&rest[..at]);
        rest = rest[at..].split_once("-->").map_or("", |(_, after)| after);
    }
    shown.push_str(rest);
    let install = shown
        .find("cargo install --path .")
        .expect("an install line");
    let first_example = shown.find("\nknights-tour ").expect("an example");
    assert!(
        install < first_example,
        "the install line comes after the first example"
    );
}

/// The README's text that renders, split into its sections: (heading, text).
fn rendered_sections(readme: &str) -> Vec<(String, String)> {
    let mut shown = String::new();
    let mut rest = readme;
    while let Some(at) = rest.find("<!--") {
        shown.push_str(&rest[..at]);
        rest = rest[at..].split_once("-->").map_or("", |(_, after)| after);
    }
    shown.push_str(rest);
    let mut out: Vec<(String, String)> = vec![(String::new(), String::new())];
    for line in shown.lines() {
        if let Some(heading) = line.strip_prefix("## ").or(line.strip_prefix("### ")) {
            out.push((heading.to_string(), String::new()));
        } else if let Some(last) = out.last_mut() {
            last.1.push_str(line);
            last.1.push('\n');
        }
    }
    out
}

/// Issue 44, finding 11: the README and `--help` agree. Every subcommand `knights-tour --help`
/// lists has a README section naming it, and every flag its `--help` lists is in that section.
#[test]
fn every_subcommand_and_flag_in_help_is_in_the_readme() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let sections = rendered_sections(&readme);
    let bin = assert_cmd::cargo::cargo_bin("knights-tour");
    let help = |args: &[&str]| {
        let out = Command::new(&bin).args(args).output().unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let top = help(&["--help"]);
    let commands: Vec<String> = top
        .split("Commands:")
        .nth(1)
        .unwrap()
        .split("Options:")
        .next()
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("  ").filter(|l| !l.starts_with(' ')))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(String::from)
        .collect();
    assert!(commands.len() >= 8, "{commands:?}");
    // verify's one line names what it reads, not only workbooks.
    let verify_line = top
        .lines()
        .find(|l| l.trim_start().starts_with("verify"))
        .unwrap();
    assert!(verify_line.contains("CSV"), "{verify_line}");
    let mut missing = Vec::new();
    for command in &commands {
        let text: String = sections
            .iter()
            .filter(|(h, _)| {
                h.split(|c: char| !c.is_alphanumeric())
                    .any(|w| w == command)
            })
            .map(|(_, t)| t.as_str())
            .collect();
        if text.is_empty() {
            missing.push(format!("no section for {command}"));
            continue;
        }
        let page = help(&[command, "--help"]);
        let flags: std::collections::BTreeSet<&str> = page
            .split(|c: char| !(c.is_alphanumeric() || c == '-'))
            .filter(|w| w.starts_with("--") && w.len() > 2 && *w != "--help" && *w != "--version")
            .collect();
        for flag in flags {
            if !text.contains(flag) {
                missing.push(format!("{command} {flag}"));
            }
        }
    }
    assert!(missing.is_empty(), "not in the README: {missing:?}");
}
