//! Pictures of tours: each format decodes with an independent decoder (png, gif, quick-xml)
//! to the requested size, and the path lies on the square centres in move order.

use std::collections::HashMap;

use knights_tour::board::{Board, Square};
use knights_tour::draw::{self, raster::Ink, DrawOptions, Format, Geometry, Numbers};
use knights_tour::solve;
use knights_tour::tour::Tour;

use crate::support::CLOSED_8X8;

/// A 5x5 open tour, as the sheet would show it.
const GRID_5X5: [[u32; 5]; 5] = [
    [1, 14, 9, 20, 3],
    [24, 19, 2, 15, 10],
    [13, 8, 25, 4, 21],
    [18, 23, 6, 11, 16],
    [7, 12, 17, 22, 5],
];

fn tour_5x5() -> Tour {
    let mut by_move = vec![Square::new(0, 0); 25];
    for (r, row) in GRID_5X5.iter().enumerate() {
        for (c, &n) in row.iter().enumerate() {
            by_move[n as usize - 1] = Square::new(r as u32, c as u32);
        }
    }
    let tour = Tour::from_squares(Board::new(5, 5).unwrap(), by_move).unwrap();
    assert!(tour.is_complete() && !tour.is_closed());
    tour
}

fn tour_8x8_closed() -> Tour {
    let squares = CLOSED_8X8.iter().map(|&(r, c)| Square::new(r, c));
    let tour = Tour::from_squares(Board::new(8, 8).unwrap(), squares).unwrap();
    assert!(tour.is_closed());
    tour
}

/// A path from the top-left corner by the crate's Warnsdorff rule (centre ties, so the same
/// path every run): a fair drawing load on big boards.
fn warnsdorff(board: Board) -> Tour {
    let tour = solve::warnsdorff::attempt(
        board,
        Square::new(0, 0),
        solve::Tiebreak::Center,
        &mut solve::rng_from_seed(0),
    );
    tour.check().unwrap();
    tour
}

fn opts(size: u32) -> DrawOptions {
    DrawOptions {
        size_px: Some(size),
        ..DrawOptions::default()
    }
}

// ---------- SVG ----------

/// Elements of a well-formed XML document: (name, attributes), in document order.
fn parse_xml(text: &str) -> Vec<(String, HashMap<String, String>)> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(text);
    let mut elements = Vec::new();
    let mut depth = 0i32;
    let mut roots = 0;
    loop {
        let event = reader.read_event().expect("well-formed XML");
        let (e, opens) = match event {
            Event::Start(e) => (e, true),
            Event::Empty(e) => (e, false),
            Event::End(_) => {
                depth -= 1;
                continue;
            }
            Event::Eof => break,
            _ => continue,
        };
        if depth == 0 {
            roots += 1;
        }
        if opens {
            depth += 1;
        }
        let name = e.name().as_ref().to_string();
        let attrs = e
            .attributes()
            .map(|a| {
                let a = a.expect("well-formed attribute");
                (a.key.as_ref().to_string(), a.value.to_string())
            })
            .collect();
        elements.push((name, attrs));
    }
    assert_eq!(depth, 0, "every element is closed");
    assert_eq!(roots, 1, "one root element");
    elements
}

fn with_class<'a>(
    elements: &'a [(String, HashMap<String, String>)],
    class: &str,
) -> Vec<&'a (String, HashMap<String, String>)> {
    elements
        .iter()
        .filter(|(_, a)| a.get("class").map(String::as_str) == Some(class))
        .collect()
}

fn polyline_points(elements: &[(String, HashMap<String, String>)]) -> Vec<(f64, f64)> {
    let lines = with_class(elements, "path");
    assert_eq!(lines.len(), 1, "the path is one element");
    assert_eq!(lines[0].0, "polyline");
    lines[0].1["points"]
        .split_whitespace()
        .map(|p| {
            let (x, y) = p.split_once(',').unwrap();
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect()
}

fn assert_points_on_centres(points: &[(f64, f64)], tour: &Tour, geom: &Geometry) {
    assert_eq!(points.len(), tour.len());
    for (i, (&(x, y), sq)) in points.iter().zip(tour.squares()).enumerate() {
        let (cx, cy) = geom.square_centre(sq);
        assert!(
            (x - cx).abs() <= 0.006 && (y - cy).abs() <= 0.006,
            "move {}: ({x},{y}) is not the centre ({cx},{cy}) of {sq:?}",
            i + 1
        );
    }
}

#[test]
fn svg_is_well_formed_with_the_requested_size_and_path_on_square_centres() {
    for (tour, size) in [(tour_5x5(), 333), (tour_8x8_closed(), 480)] {
        let doc = draw::svg(&tour, &opts(size));
        let elements = parse_xml(&doc);
        let root = &elements[0];
        assert_eq!(root.0, "svg");
        let geom = Geometry::new(tour.board(), Some(size));
        assert_eq!(root.1["width"], size.to_string());
        assert_eq!(root.1["height"], geom.height().to_string());
        assert_points_on_centres(&polyline_points(&elements), &tour, &geom);
        assert_eq!(with_class(&elements, "start").len(), 1);
        assert_eq!(with_class(&elements, "end").len(), 1);
        assert!(with_class(&elements, "stuck").is_empty());
        assert!(with_class(&elements, "unvisited").is_empty());
        let texts = elements.iter().filter(|(n, _)| n == "text").count();
        assert_eq!(texts, tour.len(), "numbers are legible at this size");
    }
}

#[test]
fn svg_of_a_closed_tour_draws_the_move_back_to_the_start() {
    let tour = tour_8x8_closed();
    let doc = draw::svg(&tour, &opts(400));
    let elements = parse_xml(&doc);
    let closing = with_class(&elements, "closing");
    assert_eq!(closing.len(), 1);
    let geom = Geometry::new(tour.board(), Some(400));
    let (x1, y1) = geom.square_centre(tour.end().unwrap());
    let (x2, y2) = geom.square_centre(tour.start().unwrap());
    let a = &closing[0].1;
    let got: Vec<f64> = ["x1", "y1", "x2", "y2"]
        .iter()
        .map(|k| a[*k].parse().unwrap())
        .collect();
    assert_eq!(got, vec![x1, y1, x2, y2]);
    assert!(with_class(&parse_xml(&draw::svg(&tour_5x5(), &opts(400))), "closing").is_empty());
}

#[test]
fn svg_of_a_partial_tour_marks_where_it_got_stuck_and_greys_the_rest() {
    let tour = tour_5x5().truncated(7);
    let doc = draw::svg(&tour, &opts(250));
    let elements = parse_xml(&doc);
    assert_eq!(with_class(&elements, "stuck").len(), 1);
    assert!(with_class(&elements, "end").is_empty());
    let grey = with_class(&elements, "unvisited");
    assert_eq!(grey.len(), 1);
    // One closed subpath per run of unvisited squares: 18 squares, at least 5 runs.
    let runs = grey[0].1["d"].matches('z').count();
    assert!((5..=18).contains(&runs), "{runs} runs");
    assert_points_on_centres(
        &polyline_points(&elements),
        &tour,
        &Geometry::new(tour.board(), Some(250)),
    );
}

#[test]
fn svg_without_path_or_numbers_leaves_them_out() {
    let tour = tour_5x5();
    let o = DrawOptions {
        path: false,
        numbers: Numbers::Off,
        ..opts(300)
    };
    let elements = parse_xml(&draw::svg(&tour, &o));
    assert!(with_class(&elements, "path").is_empty());
    assert!(!elements.iter().any(|(n, _)| n == "text"));
}

// ---------- PNG ----------

struct Rgb {
    width: u32,
    height: u32,
    data: Vec<u8>,
}

impl Rgb {
    fn at(&self, (x, y): (f64, f64)) -> [u8; 3] {
        let i = (y as usize * self.width as usize + x as usize) * 3;
        [self.data[i], self.data[i + 1], self.data[i + 2]]
    }
}

/// Issue 44, finding 16: the path and the start and end dots covered move numbers (1 and 25 on
/// 5x5). Every number's box holds only its digits and its square's colour.
#[test]
fn no_number_is_covered_by_the_path_or_a_mark() {
    let tour = tour_5x5();
    for size in [150, 300, 500] {
        let o = opts(size);
        let mut png = Vec::new();
        draw::png(&tour, &o, &mut png).unwrap();
        let img = decode_png(&png);
        let geom = Geometry::new(tour.board(), o.size_px);
        let layout = geom
            .number_layout(tour.len(), o.numbers, o.path)
            .expect("numbers drawn");
        let allowed = [Ink::Light.rgb(), Ink::Dark.rgb(), Ink::Text.rgb()];
        for (i, sq) in tour.squares().enumerate() {
            let (x0, y0, x1, y1) = layout.text_rect(geom.square_pixels(sq), i + 1);
            for y in y0..y1 {
                for x in x0..x1 {
                    let px = img.at((f64::from(x), f64::from(y)));
                    assert!(
                        allowed.contains(&px),
                        "{size}px: move {} at ({x}, {y}) is covered: {px:?}",
                        i + 1
                    );
                }
            }
        }
    }
}

fn decode_png(bytes: &[u8]) -> Rgb {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgb);
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    buf.truncate(info.buffer_size());
    Rgb {
        width: info.width,
        height: info.height,
        data: buf,
    }
}

/// Path colour at every centre but the first and last (which carry the markers).
fn assert_path_at_centres(img: &Rgb, tour: &Tour, geom: &Geometry) {
    let n = tour.len();
    for (i, sq) in tour.squares().enumerate() {
        let expected = match i {
            0 => Ink::Start,
            _ if i == n - 1 => Ink::End,
            _ => Ink::Path,
        };
        assert_eq!(
            img.at(geom.square_centre(sq)),
            expected.rgb(),
            "move {} at {sq:?}",
            i + 1
        );
    }
}

#[test]
fn png_decodes_at_the_requested_size_with_the_path_through_the_centres() {
    for (tour, size) in [
        (tour_5x5(), 300),
        (tour_8x8_closed(), 480),
        (tour_8x8_closed(), 97),
    ] {
        // Numbers::On may overflow small squares onto the centres, so it is checked where
        // numbers fit anyway.
        let forced = if size >= 300 { Some(Numbers::On) } else { None };
        for numbers in [Numbers::Auto, Numbers::Off].into_iter().chain(forced) {
            let o = DrawOptions {
                numbers,
                ..opts(size)
            };
            let mut bytes = Vec::new();
            draw::png(&tour, &o, &mut bytes).unwrap();
            let img = decode_png(&bytes);
            let geom = Geometry::new(tour.board(), Some(size));
            assert_eq!((img.width, img.height), (geom.width(), geom.height()));
            assert_eq!(img.width, size);
            assert_path_at_centres(&img, &tour, &geom);
        }
    }
}

#[test]
fn png_of_a_rectangular_board_keeps_squares_square() {
    let board = Board::new(3, 4).unwrap();
    let path = [
        (0, 0),
        (1, 2),
        (2, 0),
        (0, 1),
        (1, 3),
        (2, 1),
        (0, 2),
        (2, 3),
        (1, 1),
        (0, 3),
        (2, 2),
        (1, 0),
    ];
    let tour = Tour::from_squares(board, path.iter().map(|&(r, c)| Square::new(r, c))).unwrap();
    let mut bytes = Vec::new();
    draw::png(&tour, &opts(400), &mut bytes).unwrap();
    let img = decode_png(&bytes);
    assert_eq!((img.width, img.height), (400, 300));
    assert_path_at_centres(&img, &tour, &Geometry::new(board, Some(400)));
}

#[test]
fn png_of_a_partial_tour_greys_unreached_squares() {
    let tour = tour_5x5().truncated(2);
    let mut bytes = Vec::new();
    draw::png(&tour, &opts(250), &mut bytes).unwrap();
    let img = decode_png(&bytes);
    let geom = Geometry::new(tour.board(), Some(250));
    // Moves 1 and 2 are at (0,0) and (1,2); (4,4) and (4,3) are far from both. On 5x5 the
    // corners have a1's colour: dark.
    assert_eq!(
        img.at(geom.square_centre(Square::new(4, 4))),
        Ink::DarkUnvisited.rgb()
    );
    assert_eq!(
        img.at(geom.square_centre(Square::new(4, 3))),
        Ink::LightUnvisited.rgb()
    );
    // The stuck marker is a ring with a cross: red on its rim, white between cross and rim.
    let (cx, cy) = geom.square_centre(Square::new(1, 2));
    let r = geom.marker_radius();
    assert_eq!(img.at((cx, cy)), Ink::End.rgb());
    assert_eq!(img.at((cx + r - 1.5, cy)), Ink::End.rgb());
    assert_eq!(img.at((cx + r * 0.45, cy)), Ink::White.rgb());
}

/// One 1000x1000 path for both big-board checks (building it is the slow part in debug).
#[test]
fn a_1000x1000_board_as_svg_and_png() {
    let board = Board::new(1000, 1000).unwrap();
    let tour = warnsdorff(board);
    assert!(tour.len() > 100_000, "{} squares", tour.len());
    // SVG: no numbers (illegible), the path one polyline on the centres, few elements.
    let doc = draw::svg(&tour, &DrawOptions::default());
    let elements = parse_xml(&doc);
    assert!(
        !elements.iter().any(|(n, _)| n == "text"),
        "numbers are illegible here"
    );
    assert_eq!(elements[0].1["width"], "2000");
    let geom = Geometry::new(board, None);
    assert_points_on_centres(&polyline_points(&elements), &tour, &geom);
    assert!(elements.len() < 20, "{} elements", elements.len());
    // PNG at 2 px a square.
    let mut bytes = Vec::new();
    draw::png(&tour, &opts(2000), &mut bytes).unwrap();
    let img = decode_png(&bytes);
    assert_eq!((img.width, img.height), (2000, 2000));
}

#[test]
fn oversized_rasters_are_refused_not_attempted() {
    let err = draw::png(&tour_5x5(), &opts(100_000), Vec::new()).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
    assert!(err.to_string().contains("too large"), "{err}");
    let err = draw::gif(&tour_5x5(), &opts(100_000), Vec::new()).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
}

// ---------- GIF ----------

struct Animation {
    width: u32,
    height: u32,
    frames: usize,
    delays: Vec<u16>,
    /// Frame rectangles (left, top, width, height).
    rects: Vec<(u32, u32, u32, u32)>,
    /// The picture after the last frame, RGBA.
    composite: Vec<u8>,
}

impl Animation {
    fn at(&self, (x, y): (f64, f64)) -> [u8; 3] {
        let i = (y as usize * self.width as usize + x as usize) * 4;
        [
            self.composite[i],
            self.composite[i + 1],
            self.composite[i + 2],
        ]
    }
}

/// Decode every frame and composite them (keep disposal, transparent pixels skipped).
fn decode_gif(bytes: &[u8]) -> Animation {
    decode_gif_compositing(bytes, true)
}

/// Decode every frame; composite all of them, or (`all` false: big animations in a debug
/// build) only the first and the last.
fn decode_gif_compositing(bytes: &[u8], all: bool) -> Animation {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(std::io::Cursor::new(bytes)).unwrap();
    let (width, height) = (u32::from(decoder.width()), u32::from(decoder.height()));
    let mut composite = vec![0u8; width as usize * height as usize * 4];
    let (mut delays, mut rects) = (Vec::new(), Vec::new());
    let mut skipped: Option<gif::Frame<'static>> = None;
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        assert_eq!(frame.dispose, gif::DisposalMethod::Keep);
        let rect = (
            u32::from(frame.left),
            u32::from(frame.top),
            u32::from(frame.width),
            u32::from(frame.height),
        );
        assert!(
            rect.0 + rect.2 <= width && rect.1 + rect.3 <= height,
            "frame inside the canvas"
        );
        if all || delays.is_empty() {
            composite_frame(&mut composite, width, rect, &frame.buffer);
        } else {
            skipped = Some(frame.clone());
        }
        delays.push(frame.delay);
        rects.push(rect);
    }
    if let Some(last) = skipped {
        let rect = *rects.last().unwrap();
        composite_frame(&mut composite, width, rect, &last.buffer);
    }
    Animation {
        width,
        height,
        frames: delays.len(),
        delays,
        rects,
        composite,
    }
}

/// Paint one frame's RGBA `buffer` over the picture at `rect`, transparent pixels skipped.
fn composite_frame(composite: &mut [u8], width: u32, rect: (u32, u32, u32, u32), buffer: &[u8]) {
    let (l, t, w, h) = rect;
    for y in 0..h {
        for x in 0..w {
            let src = ((y * w + x) * 4) as usize;
            if buffer[src + 3] == 0 {
                continue;
            }
            let dst = (((t + y) * width + l + x) * 4) as usize;
            composite[dst..dst + 4].copy_from_slice(&buffer[src..src + 4]);
        }
    }
}

#[test]
fn gif_has_one_frame_per_square_and_ends_on_the_whole_tour() {
    for tour in [tour_5x5(), tour_8x8_closed()] {
        let o = DrawOptions {
            frame_delay_cs: Some(7),
            hold_last_cs: 250,
            ..opts(400)
        };
        let mut bytes = Vec::new();
        draw::gif(&tour, &o, &mut bytes).unwrap();
        let anim = decode_gif(&bytes);
        assert_eq!((anim.width, anim.height), (400, 400));
        assert_eq!(anim.frames, tour.len());
        assert_eq!(anim.delays.last(), Some(&250), "last frame held");
        assert!(anim.delays[..anim.frames - 1].iter().all(|&d| d == 7));
        assert_eq!(
            anim.rects[0],
            (0, 0, 400, 400),
            "first frame is the whole board"
        );
        let geom = Geometry::new(tour.board(), Some(400));
        let small = anim.rects[1..]
            .iter()
            .filter(|r| r.2 * r.3 < 400 * 400 / 4)
            .count();
        assert!(
            small >= tour.len() - 2,
            "later frames are only what changed"
        );
        for (i, sq) in tour.squares().enumerate() {
            let expected = match i {
                0 => Ink::Start,
                _ if i == tour.len() - 1 => Ink::End,
                _ => Ink::Path,
            };
            assert_eq!(
                anim.at(geom.square_centre(sq)),
                expected.rgb(),
                "move {}",
                i + 1
            );
        }
    }
}

#[test]
fn gif_frame_k_shows_exactly_the_first_k_squares_on_the_path() {
    let tour = tour_5x5();
    let geom = Geometry::new(tour.board(), Some(250));
    let mut bytes = Vec::new();
    draw::gif(&tour, &opts(250), &mut bytes).unwrap();
    let anim = decode_gif(&bytes);
    // Frame k (k >= 2) must cover the centres of squares k-1 and k and nothing beyond
    // the segment between them, its number and markers.
    let squares: Vec<Square> = tour.squares().collect();
    for k in 2..tour.len() {
        let (l, t, w, h) = anim.rects[k - 1];
        for sq in [squares[k - 2], squares[k - 1]] {
            let (x, y) = geom.square_centre(sq);
            assert!(
                (l..l + w).contains(&(x as u32)) && (t..t + h).contains(&(y as u32)),
                "frame {k} misses {sq:?}"
            );
        }
        assert!(w <= 3 * 50 && h <= 3 * 50, "frame {k} is {w}x{h}");
    }
}

#[test]
fn gif_of_a_partial_tour_ends_stuck() {
    let tour = tour_5x5().truncated(4);
    let mut bytes = Vec::new();
    draw::gif(&tour, &opts(250), &mut bytes).unwrap();
    let anim = decode_gif(&bytes);
    assert_eq!(anim.frames, 4);
    let geom = Geometry::new(tour.board(), Some(250));
    assert_eq!(
        anim.at(geom.square_centre(Square::new(4, 4))),
        Ink::DarkUnvisited.rgb(),
        "a corner of 5x5, dark like a1"
    );
    assert_eq!(
        anim.at(geom.square_centre(tour.end().unwrap())),
        Ink::End.rgb()
    );
}

#[test]
fn gif_of_a_100x100_tour_is_small() {
    let board = Board::new(100, 100).unwrap();
    let tour = warnsdorff(board);
    let mut bytes = Vec::new();
    // 1000 px rather than the default 2000: decoding is slow in a debug build.
    draw::gif(&tour, &opts(1000), &mut bytes).unwrap();
    let anim = decode_gif_compositing(&bytes, false);
    assert_eq!((anim.width, anim.height), (1000, 1000));
    // Issue 20: 10,000 frames played for 203 s; now 20 moves a frame, about ten seconds.
    assert_eq!(anim.frames, 500);
    let seconds = anim.delays.iter().map(|&d| u32::from(d)).sum::<u32>() as f64 / 100.0;
    assert!((9.0..=14.0).contains(&seconds), "{seconds} s");
    assert!(bytes.len() < 8_000_000, "{} bytes", bytes.len());
    // The last frame is the whole tour: its end square is marked.
    let geom = Geometry::new(board, Some(1000));
    assert_eq!(
        anim.at(geom.square_centre(tour.end().unwrap())),
        Ink::End.rgb()
    );
}

#[test]
fn draw_picks_the_format_from_the_file_name() {
    let tour = tour_5x5();
    for (name, magic) in [
        ("t.svg", &b"<?xml"[..]),
        ("t.PNG", b"\x89PNG"),
        ("t.gif", b"GIF89a"),
    ] {
        let format = Format::from_path(std::path::Path::new(name)).unwrap();
        let mut out = Vec::new();
        let budget = knights_tour::output::write_budget::WriteBudget::unlimited();
        draw::draw(&tour, &opts(100), format, &mut out, &budget).unwrap();
        assert!(out.starts_with(magic), "{name}");
    }
}

// ---------- any path, any board ----------

/// A random knight's path: from a random square, random unvisited moves until stuck or `max`
/// squares (possibly empty).
fn random_path(rows: u32, cols: u32, seed: u64, max: usize) -> Tour {
    let board = Board::new(rows, cols).unwrap();
    let mut state = seed | 1;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut seen = vec![false; board.len()];
    let mut path = Vec::new();
    let mut at = board.square_at(next(board.len()) as u32);
    while path.len() < max {
        seen[board.index(at) as usize] = true;
        path.push(at);
        let options: Vec<Square> = board
            .knight_moves(at)
            .filter(|s| !seen[board.index(*s) as usize])
            .collect();
        if options.is_empty() {
            break;
        }
        at = options[next(options.len())];
    }
    let tour = Tour::from_squares(board, path).unwrap();
    tour.check().unwrap();
    tour
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]

    /// Whatever the board, size and path: SVG well-formed with the path on the centres, PNG
    /// and GIF decode at the geometry's size, the GIF with one frame per square.
    #[test]
    fn every_format_draws_any_path(
        rows in 1u32..9, cols in 1u32..9, seed in proptest::prelude::any::<u64>(),
        max in 0usize..80, size in proptest::option::of(8u32..300),
    ) {
        let tour = random_path(rows, cols, seed, max);
        let o = DrawOptions { size_px: size, ..DrawOptions::default() };
        let geom = Geometry::new(tour.board(), size);
        let longest = rows.max(cols);
        proptest::prop_assert_eq!(geom.width().max(geom.height()), size.unwrap_or(longest * 60).max(longest));

        let elements = parse_xml(&draw::svg(&tour, &o));
        proptest::prop_assert_eq!(&elements[0].1["width"], &geom.width().to_string());
        assert_points_on_centres(&polyline_points(&elements), &tour, &geom);

        let mut bytes = Vec::new();
        draw::png(&tour, &o, &mut bytes).unwrap();
        let img = decode_png(&bytes);
        proptest::prop_assert_eq!((img.width, img.height), (geom.width(), geom.height()));

        let mut bytes = Vec::new();
        draw::gif(&tour, &o, &mut bytes).unwrap();
        let anim = decode_gif(&bytes);
        proptest::prop_assert_eq!((anim.width, anim.height), (geom.width(), geom.height()));
        proptest::prop_assert_eq!(anim.frames, tour.len().max(1));
        // Nothing left undrawn: every pixel of the final picture is opaque.
        proptest::prop_assert!(anim.composite.chunks(4).all(|p| p[3] == 255));
    }
}

mod cli {
    //! `knights-tour draw` end to end.

    use assert_cmd::Command;
    use predicates::prelude::*;

    fn draw(dir: &std::path::Path) -> Command {
        let mut cmd = Command::cargo_bin("knights-tour").unwrap();
        cmd.current_dir(dir).arg("draw");
        cmd
    }

    #[test]
    fn draws_a_fresh_tour_in_the_format_of_the_extension() {
        let dir = tempfile::tempdir().unwrap();
        draw(dir.path())
            .args([
                "--size",
                "6",
                "--seed",
                "1",
                "--size-px",
                "300",
                "-o",
                "t.png",
            ])
            .assert()
            .success()
            .stdout(predicate::str::contains("Drew the 6x6"));
        let bytes = std::fs::read(dir.path().join("t.png")).unwrap();
        let img = super::decode_png(&bytes);
        assert_eq!((img.width, img.height), (300, 300));
        draw(dir.path())
            .args(["--size", "5", "--start", "a1", "--format", "svg", "-o", "-"])
            .assert()
            .success()
            .stdout(predicate::str::starts_with("<svg").or(predicate::str::starts_with("<?xml")));
    }

    /// Issue 44, finding 3: a generated tour's seed is reported on standard error, as
    /// `generate` reports it, and repeats the picture.
    #[test]
    fn a_generated_tours_seed_is_reported_and_repeats_the_picture() {
        let dir = tempfile::tempdir().unwrap();
        let out = draw(dir.path())
            .args(["--size", "6", "-o", "a.svg"])
            .assert()
            .success()
            .get_output()
            .clone();
        let stderr = String::from_utf8(out.stderr).unwrap();
        let seed = stderr
            .split("repeat with --seed ")
            .nth(1)
            .map(|s| s.trim().to_string())
            .unwrap_or_else(|| panic!("no seed reported: {stderr:?}"));
        draw(dir.path())
            .args(["--size", "6", "--seed", &seed, "-o", "b.svg"])
            .assert()
            .success()
            .stderr(predicate::str::contains(format!(
                "seed {seed}: repeat with --seed {seed}"
            )));
        let read = |name: &str| std::fs::read(dir.path().join(name)).unwrap();
        assert_eq!(read("a.svg"), read("b.svg"));
        // A tour read from a workbook has no seed to report.
        let mut generate = Command::cargo_bin("knights-tour").unwrap();
        generate.current_dir(dir.path());
        generate.args(["generate", "--size", "5", "--seed", "1", "-o", "t.xlsx"]);
        generate.assert().success();
        draw(dir.path())
            .args(["t.xlsx", "-o", "t.svg"])
            .assert()
            .success()
            .stderr(predicate::str::contains("repeat with").not());
    }

    /// Issue 44, finding 2: `--format` without `-o` follows every command's rule (svg, a text
    /// format, to standard output; png or gif to knights-tour.png or .gif), and no `-o` at all
    /// writes knights-tour.svg.
    #[test]
    fn format_without_o_follows_every_commands_rule() {
        let dir = tempfile::tempdir().unwrap();
        let files = |d: &std::path::Path| {
            let mut names: Vec<String> = std::fs::read_dir(d)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            names
        };
        draw(dir.path())
            .args(["--size", "5", "--seed", "1", "--format", "svg"])
            .assert()
            .success()
            .stdout(predicate::str::contains("<svg"));
        assert!(files(dir.path()).is_empty());
        draw(dir.path())
            .args(["--size", "5", "--seed", "1", "--format", "png"])
            .assert()
            .success();
        draw(dir.path())
            .args(["--size", "5", "--seed", "1"])
            .assert()
            .success();
        assert_eq!(files(dir.path()), ["knights-tour.png", "knights-tour.svg"]);
    }

    /// Issue 44, finding 12: a move is a jump, counted with separators; a failed path says its
    /// squares visited; a closed tour counts its closing move.
    #[test]
    fn moves_are_jumps_and_counts_have_separators() {
        let dir = tempfile::tempdir().unwrap();
        draw(dir.path())
            .args([
                "--size",
                "40",
                "--seed",
                "1",
                "--numbers",
                "off",
                "-o",
                "big.svg",
            ])
            .assert()
            .success()
            .stdout(predicate::str::contains("(1,599 moves)"));
        draw(dir.path())
            .args(["--size", "6", "--closed", "--seed", "1", "-o", "c.svg"])
            .assert()
            .success()
            .stdout(predicate::str::contains("(36 moves)"));
    }

    /// Issue 20, finding 12: `draw --help` said the solving flags "then do not apply" when no
    /// FILE is given, backwards; a FILE is what they do not apply to (and naming both is a usage
    /// error).
    #[test]
    fn help_says_the_solving_flags_do_not_apply_to_a_file() {
        let dir = tempfile::tempdir().unwrap();
        draw(dir.path())
            .arg("--help")
            .assert()
            .success()
            .stdout(predicate::str::contains("which do not apply to a FILE"))
            .stdout(predicate::str::contains("then do not apply").not());
        draw(dir.path())
            .args(["w.xlsx", "--size", "6", "-o", "t.svg"])
            .assert()
            .code(2);
    }

    #[test]
    fn draws_a_sheet_of_a_generated_workbook() {
        let dir = tempfile::tempdir().unwrap();
        Command::cargo_bin("knights-tour")
            .unwrap()
            .current_dir(dir.path())
            .args(["generate", "--size", "6", "--seed", "2", "-o", "w.xlsx"])
            .assert()
            .success();
        draw(dir.path())
            .args(["w.xlsx", "-o", "t.gif"])
            .assert()
            .success();
        let anim = super::decode_gif(&std::fs::read(dir.path().join("t.gif")).unwrap());
        assert_eq!(anim.frames, 36);
        draw(dir.path())
            .args(["w.xlsx", "--sheet", "Summary", "-o", "s.svg"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("Summary"));
    }

    #[test]
    fn bad_requests_are_usage_errors() {
        let dir = tempfile::tempdir().unwrap();
        draw(dir.path()).args(["-o", "t.jpg"]).assert().code(2);
        draw(dir.path()).args(["-o", "-"]).assert().code(2);
        draw(dir.path())
            .args(["--size", "3", "-o", "t.svg"])
            .assert()
            .code(2);
        draw(dir.path())
            .args(["missing.xlsx", "-o", "t.svg"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("missing.xlsx"));
        std::fs::write(dir.path().join("t.svg"), "keep").unwrap();
        draw(dir.path()).args(["-o", "t.svg"]).assert().code(2);
        assert_eq!(
            std::fs::read_to_string(dir.path().join("t.svg")).unwrap(),
            "keep"
        );
    }
}

/// Issue 20, finding 4: `draw WORKBOOK` draws the workbook's tour, not the failed attempt on
/// its first sheet.
#[test]
fn draw_of_a_workbook_draws_its_tour_not_its_first_failed_attempt() {
    use assert_cmd::Command;
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        let mut cmd = Command::cargo_bin("knights-tour").unwrap();
        cmd.current_dir(dir.path()).args(args);
        cmd
    };
    // Seed 1 on 5x5: a failed attempt first, then the tour (checked, not assumed).
    let out = run(&[
        "generate", "--size", "5", "--seed", "1", "--json", "-o", "w.xlsx",
    ])
    .assert()
    .success()
    .get_output()
    .stdout
    .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let sheets = v["sheets"].as_array().unwrap();
    assert_eq!(
        sheets[0]["solved"], false,
        "the first sheet is a failed attempt"
    );
    let tour = sheets.iter().find(|s| s["solved"] == true).unwrap();
    let (start, end) = (
        tour["start"].as_str().unwrap(),
        tour["end"].as_str().unwrap(),
    );
    run(&["draw", "w.xlsx", "-o", "w.svg"])
        .assert()
        .success()
        .stdout(predicates::str::contains(format!(
            "Drew the 5x5 tour from {start} to {end} (24 moves)"
        )));
}
