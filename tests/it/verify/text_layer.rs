//! Tours as people print them, read end to end from text files and standard input (issue 40):
//! every layout of a grid (plain, `|` and `||`, `[01]` cells, `+---+` boxes, zero padding,
//! indentation, double spacing, CRLF, captions, labels on any side, 0-based index rows and
//! columns, letters on both axes), JSON, Python, C and numpy arrays, and lists in other words
//! (moves in sentences, the knight's letter, a pair beside the square, arrows, steps, a C#
//! console line whole or wrapped, coordinate lines); several boards in one text in reading
//! order; text that holds no tour.

use serde_json::Value;

use crate::support;
use crate::support::workdir::WorkDir;

/// The closed 8x8 tour of `common` as rows of move numbers.
fn grid() -> Vec<Vec<u32>> {
    let mut g = vec![vec![0u32; 8]; 8];
    for (i, &(r, c)) in support::CLOSED_8X8.iter().enumerate() {
        g[r as usize][c as usize] = i as u32 + 1;
    }
    g
}

/// The tour's squares in move order (a1 bottom-left).
fn squares() -> Vec<String> {
    support::CLOSED_8X8
        .iter()
        .map(|&(r, c)| format!("{}{}", (b'a' + c as u8) as char, 8 - r))
        .collect()
}

/// The tour as `(x,y)` pairs, rows from the top.
fn pairs() -> Vec<String> {
    support::CLOSED_8X8
        .iter()
        .map(|&(r, c)| format!("({c},{r})"))
        .collect()
}

/// The rows, each written with `cell` and joined as `pre` + cells joined by `sep` + `post`.
fn lines(cell: impl Fn(u32) -> String, sep: &str, pre: &str, post: &str) -> Vec<String> {
    grid()
        .iter()
        .map(|row| {
            let cells: Vec<String> = row.iter().map(|&v| cell(v)).collect();
            format!("{pre}{}{post}", cells.join(sep))
        })
        .collect()
}

fn text(lines: &[String]) -> String {
    lines.join("\n") + "\n"
}

/// Every grid layout, named as its file.
fn grids() -> Vec<(&'static str, String)> {
    let plain = lines(|v| v.to_string(), " ", "", " ");
    let rule = format!("  +{}", "---+".repeat(8));
    let mut boxed = vec![rule.clone()];
    for l in lines(|v| format!("{v:3}"), "|", "  |", "|") {
        boxed.push(l);
        boxed.push(rule.clone());
    }
    let g = grid();
    let json: Vec<String> = g
        .iter()
        .map(|r| {
            format!(
                "[{}]",
                r.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
            )
        })
        .collect();
    let numpy: Vec<String> = lines(|v| format!("{v:2}"), " ", " [", "]")
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let l = if i == 0 {
                format!("[{}", &l[1..])
            } else {
                l.clone()
            };
            if i == 7 {
                format!("{l}]")
            } else {
                l
            }
        })
        .collect();
    let ranks: Vec<String> = lines(|v| format!("{v:2}"), " ", "", "")
        .iter()
        .enumerate()
        .map(|(i, l)| format!("{} | {l}", 8 - i))
        .collect();
    let letters: Vec<String> = lines(|v| v.to_string(), " ", "", "")
        .iter()
        .enumerate()
        .map(|(i, l)| format!("{} {l}", (b'A' + i as u8) as char))
        .collect();
    let index: Vec<String> = lines(|v| format!("{:3}", v - 1), " ", "", "")
        .iter()
        .enumerate()
        .map(|(i, l)| format!("{i} {l}"))
        .collect();
    vec![
        ("plain.txt", text(&plain)),
        (
            "pipes.txt",
            text(&lines(|v| format!("{v:2}"), "|", "|", "|")),
        ),
        (
            "double_pipes.txt",
            text(&lines(|v| format!("{v:2}"), " || ", "|| ", " ||")),
        ),
        (
            "brackets.txt",
            format!(
                "Trial 1: The knight was able to touch 64 squares.\n{}",
                text(&lines(|v| format!("[{v:02}]"), "", "", ""))
            ),
        ),
        ("box.txt", text(&boxed)),
        (
            "zero_padded.txt",
            text(&lines(|v| format!("{v:02}"), " ", "", "")),
        ),
        (
            "indented.txt",
            text(&lines(|v| format!("{v:3}"), "", "      ", "")),
        ),
        ("double_spaced_crlf.txt", plain.join("\r\n\r\n") + "\r\n"),
        (
            "caption.txt",
            format!(
                "Solution 304\n{}",
                text(&lines(|v| format!("{v:4}"), "", "", ""))
            ),
        ),
        (
            "ranks_files.txt",
            format!("{}     a  b  c  d  e  f  g  h\n", text(&ranks)),
        ),
        (
            "ranks_right.txt",
            text(
                &lines(|v| format!("{v:2}"), " ", "", "")
                    .iter()
                    .enumerate()
                    .map(|(i, l)| format!("{l}   {}", 8 - i))
                    .collect::<Vec<_>>(),
            ),
        ),
        (
            "files_top.txt",
            format!("a b c d e f g h\n{}", text(&plain)),
        ),
        (
            "letters_both_axes.txt",
            format!("A B C D E F G H\n{}", text(&letters)),
        ),
        (
            "index_0_based.txt",
            format!(
                "  {}\n{}",
                (0..8).map(|i| format!("{i:3}")).collect::<String>(),
                text(&index)
            ),
        ),
        ("json_one_line.txt", format!("[{}]\n", json.join(","))),
        (
            "json_a_row_a_line.json",
            format!("[\n  {}\n]\n", json.join(",\n  ")),
        ),
        (
            "json_pretty.txt",
            serde_json::to_string_pretty(&grid()).unwrap() + "\n",
        ),
        (
            "python_rows.csv",
            text(&lines(|v| v.to_string(), ", ", "   [", "]")),
        ),
        ("json_in_a.csv", format!("[{}]\n", json.join(","))),
        ("numpy.txt", text(&numpy)),
        (
            "c_array.txt",
            text(&lines(|v| v.to_string(), ", ", "{", "},")),
        ),
    ]
}

/// Every list layout, named as its file.
fn lists() -> Vec<(&'static str, String)> {
    let sq = squares();
    let numbered = |f: &dyn Fn(usize, &str) -> String| -> String {
        text(
            &sq.iter()
                .enumerate()
                .map(|(i, s)| f(i, s))
                .collect::<Vec<_>>(),
        )
    };
    let p = pairs();
    let xy: Vec<String> = support::CLOSED_8X8
        .iter()
        .map(|&(r, c)| format!("{} {}", c + 1, r + 1))
        .collect();
    vec![
        (
            "moves_in_words.txt",
            numbered(&|i, s| format!("Move {}: Knight to {}", i + 1, s.to_uppercase())),
        ),
        (
            "knights_letter.txt",
            numbered(&|i, s| format!("{}. N{s}", i + 1)),
        ),
        (
            "pair_beside.txt",
            numbered(&|i, s| format!("{} {s} {}", i + 1, p[i])),
        ),
        ("arrows.txt", sq.join(" -> ") + "\n"),
        (
            "steps.txt",
            text(
                &(0..63)
                    .map(|i| format!("{}: {} -> {}", i + 1, sq[i], sq[i + 1]))
                    .collect::<Vec<_>>(),
            ),
        ),
        ("csharp_line.txt", p.join(" ") + "\n"),
        (
            "csharp_wrapped.txt",
            text(&p.chunks(8).map(|c| c.join(" ")).collect::<Vec<_>>()),
        ),
        ("coordinates_from_1.txt", text(&xy)),
        ("pairs_a_line.txt", text(&p)),
        ("python_pairs.txt", format!("[{}]\n", p.join(", "))),
        (
            "squares_wrapped.txt",
            text(&sq.chunks(8).map(|c| c.join(" ")).collect::<Vec<_>>()),
        ),
    ]
}

/// `verify --json` on the files: each file's boards as `verdict RxC start SQUARE`.
fn verify(w: &WorkDir, files: &[&str]) -> Vec<Vec<String>> {
    let out = w.cmd("verify", &["--json"]).args(files).output().unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    doc["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            f["sheets"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|s| s["boards"].as_array().unwrap().iter())
                .map(|b| {
                    format!(
                        "{} {}x{} start {}",
                        b["verdict"].as_str().unwrap(),
                        b["board"]["rows"],
                        b["board"]["cols"],
                        b["start_square"].as_str().unwrap_or("-")
                    )
                })
                .collect()
        })
        .collect()
}

#[test]
fn every_printed_grid_and_written_list_is_the_tour() {
    let w = WorkDir::new();
    let all: Vec<(&str, String)> = grids().into_iter().chain(lists()).collect();
    for (name, body) in &all {
        std::fs::write(w.path(name), body).unwrap();
    }
    let names: Vec<&str> = all.iter().map(|(n, _)| *n).collect();
    let got = verify(&w, &names);
    let misses: Vec<String> = names
        .iter()
        .zip(&got)
        .filter(|(_, b)| b.as_slice() != ["closed 8x8 start a8"])
        .map(|(n, b)| format!("{n}: {b:?}"))
        .collect();
    assert!(misses.is_empty(), "{}", misses.join("\n"));
}

#[test]
fn a_grid_on_standard_input_is_read_as_lines() {
    let w = WorkDir::new();
    let (_, body) = &grids()[0];
    let out = w
        .cmd("verify", &["--json", "-"])
        .write_stdin(body.as_str())
        .assert()
        .code(0)
        .get_output()
        .clone();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["files"][0]["format"], "txt");
    assert_eq!(
        doc["files"][0]["sheets"][0]["boards"][0]["verdict"],
        "closed"
    );
}

#[test]
fn boards_in_one_text_are_reported_top_to_bottom_left_to_right() {
    let w = WorkDir::new();
    let five = [
        "1 6 15 10 21",
        "14 9 20 5 16",
        "19 2 7 22 11",
        "8 13 24 17 4",
        "25 18 3 12 23",
    ];
    let mirror: Vec<String> = five
        .iter()
        .map(|l| {
            l.split(' ')
                .rev()
                .map(|v| format!("{v:>2}"))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let side: Vec<String> = five
        .iter()
        .zip(&mirror)
        .map(|(a, b)| {
            let a: Vec<String> = a.split(' ').map(|v| format!("{v:>2}")).collect();
            format!("{}        {b}", a.join(" "))
        })
        .collect();
    let text = format!(
        "Solution 1\n{}\nSolution 2\n{}\n\n{}\n",
        mirror.join("\n"),
        five.join("\n"),
        side.join("\n")
    );
    std::fs::write(w.path("many.txt"), text).unwrap();
    let got = verify(&w, &["many.txt"]);
    assert_eq!(
        got[0],
        [
            "open 5x5 start e5",
            "open 5x5 start a5",
            "open 5x5 start a5",
            "open 5x5 start e5"
        ]
    );
}

#[test]
fn text_without_a_tour_is_no_board() {
    let w = WorkDir::new();
    std::fs::write(
        w.path("notes.txt"),
        "Knight's tour notes, week 3\n\nI tried 4 times from a1; the knight got stuck on b3 \
         after 12 moves and on c5 after 30.\nNext: try e4, then f6 and g8.\n",
    )
    .unwrap();
    // A table of small numbers, printed: chart data and a multiplication table.
    let table: String = (1..=6)
        .map(|i| {
            format!(
                "{}\n",
                (1..=6)
                    .map(|j| (i * j).to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            )
        })
        .collect();
    std::fs::write(w.path("table.txt"), format!("x 1 2 3 4 5 6\n{table}")).unwrap();
    std::fs::write(w.path("chart.txt"), "1 2\n2 4\n3 6\n4 8\n5 10\n6 12\n").unwrap();
    let got = verify(&w, &["notes.txt", "table.txt", "chart.txt"]);
    assert!(got.iter().all(Vec::is_empty), "{got:?}");
}
