//! Tests of the linear-time construction: every board it covers, re-checked move by move.

use knights_tour::board::{Board, Square};
use knights_tour::solve::{construct, existence, Constraint, Request};
use knights_tour::tour::Tour;
use proptest::prelude::*;

/// Schwenk's theorem, restated here so the test does not lean on the code it checks.
/// The construction's tour for `req`, from the start it fixes (no random draw).
fn solve(req: &Request) -> Option<Tour> {
    construct::build(req, None).map(|s| s.to_tour())
}

/// The same tour numbered in place (4 bytes a square).
fn numbering(req: &Request) -> Option<Vec<u32>> {
    construct::build(req, None).map(construct::Successors::into_numbering)
}

fn schwenk_closed(r: u32, c: u32) -> bool {
    let (m, n) = (r.min(c), r.max(c));
    !(m % 2 == 1 && n % 2 == 1 || m <= 2 || m == 4 || (m == 3 && matches!(n, 4 | 6 | 8)))
}

/// Whether an open tour exists (Cull & De Curtins; Conrad et al.): every board with both sides
/// at least 5, 3 x 4, 3 x n for n >= 7, 4 x n for n >= 5, and the trivial 1 x 1.
fn open_exists(r: u32, c: u32) -> bool {
    let (short, long) = (r.min(c), r.max(c));
    match short {
        1 => long == 1,
        3 => long == 4 || long >= 7,
        4 => long >= 5,
        s => s >= 5,
    }
}

/// Check what the construction gives on `r x c` against the existence theorems.
fn check_board(r: u32, c: u32) {
    let board = Board::new(r, c).unwrap();
    if schwenk_closed(r, c) {
        let tour = construct::closed_tour(board).unwrap_or_else(|| panic!("{board}"));
        assert_eq!(tour.check(), Ok(()), "{board}");
        assert!(tour.is_closed(), "{board}");
        return;
    }
    assert!(construct::closed_tour(board).is_none(), "{board}");
    assert!(construct::closed_successors(board).is_none(), "{board}");
    let tour = construct::open_tour(board);
    if !open_exists(r, c) {
        assert!(tour.is_none(), "{board}");
        return;
    }
    let tour = tour.unwrap_or_else(|| panic!("{board}"));
    assert_eq!(tour.check(), Ok(()), "{board}");
    assert!(tour.is_complete(), "{board}");
}

#[test]
fn every_board_up_to_40_gets_a_tour_where_one_exists() {
    for r in 1..=40 {
        for c in 1..=40 {
            check_board(r, c);
        }
    }
}

#[test]
fn long_boards_3_and_4_high() {
    for long in 41..=120 {
        for short in [3, 4] {
            check_board(short, long);
            check_board(long, short);
        }
    }
}

#[test]
fn successor_arrays_are_one_cycle() {
    for (r, c) in [(6, 6), (12, 17), (33, 8)] {
        let board = Board::new(r, c).unwrap();
        let succ = construct::closed_successors(board).unwrap();
        let tour = construct::closed_tour(board).unwrap();
        let idx = tour.indices();
        for (k, &sq) in idx.iter().enumerate() {
            assert_eq!(succ[sq as usize], idx[(k + 1) % idx.len()]);
        }
    }
}

#[test]
fn large_boards() {
    for (r, c) in [
        (200, 200),
        (199, 200),
        (200, 201),
        (201, 199),
        (5, 3001),
        (3, 20001),
        (20001, 3),
    ] {
        let board = Board::new(r, c).unwrap();
        let tour = construct::open_tour(board).unwrap();
        assert_eq!(tour.check(), Ok(()), "{board}");
        assert!(tour.is_complete());
        assert_eq!(tour.is_closed(), schwenk_closed(r, c), "{board}");
    }
}

#[test]
fn huge_boards() {
    for (r, c) in [
        (1000, 1000),
        (999, 1000),
        (1000, 1001),
        (1001, 1001),
        (999, 1003),
    ] {
        let board = Board::new(r, c).unwrap();
        let tour = construct::open_tour(board).unwrap();
        assert_eq!(tour.check(), Ok(()), "{board}");
        assert!(tour.is_complete());
        assert_eq!(tour.is_closed(), schwenk_closed(r, c), "{board}");
    }
}

#[test]
fn numbering_matches_solve() {
    let board = Board::new(15, 22).unwrap();
    let mut req = Request::open(board);
    req.start = Some(Square::new(9, 13));
    let tour = solve(&req).unwrap();
    assert!(req.is_satisfied_by(&tour));
    assert_eq!(numbering(&req).unwrap(), tour.numbering());
}

#[test]
fn odd_boards_honour_an_end_of_the_path_only() {
    let board = Board::new(11, 13).unwrap();
    let tour = construct::open_tour(board).unwrap();
    let (a, b) = (tour.start().unwrap(), tour.end().unwrap());
    for (start, end) in [(a, b), (b, a)] {
        let mut req = Request::open(board);
        req.start = Some(start);
        req.end = Some(end);
        assert!(req.is_satisfied_by(&solve(&req).unwrap()));
    }
    let mut closed = Request::open(board);
    closed.closed = true;
    assert!(solve(&closed).is_none());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn closed_tours_start_anywhere(r in 5u32..30, c in 5u32..30, sr in 0u32..30, sc in 0u32..30, closed: bool, back: bool) {
        prop_assume!(r.is_multiple_of(2) || c.is_multiple_of(2));
        let board = Board::new(r, c).unwrap();
        let mut req = Request::open(board);
        req.closed = closed;
        let start = Square::new(sr % r, sc % c);
        req.start = Some(start);
        if back {
            // Ask for the cycle walked so that it ends on the start's constructed successor.
            let succ = construct::closed_successors(board).unwrap();
            req.end = Some(board.square_at(succ[board.index(start) as usize]));
        }
        let tour = solve(&req).unwrap();
        prop_assert!(req.is_satisfied_by(&tour));
        prop_assert!(tour.is_closed());
        prop_assert_eq!(numbering(&req).unwrap(), tour.numbering());
    }

    #[test]
    fn odd_boards_start_or_end_on_any_corner_coloured_square(
        hr in 2u32..20, hc in 2u32..20, sr in 0u32..41, sc in 0u32..41, at_end: bool,
    ) {
        let (r, c) = (2 * hr + 1, 2 * hc + 1);
        let board = Board::new(r, c).unwrap();
        let (sr, sc) = (sr % r, sc % c);
        // Nudge onto the corners' colour, where every open tour of an odd board starts and ends.
        let sc = match (sr + sc) % 2 {
            0 => sc,
            _ if sc > 0 => sc - 1,
            _ => 1,
        };
        let sq = Square::new(sr, sc);
        let mut req = Request::open(board);
        if at_end {
            req.end = Some(sq);
        } else {
            req.start = Some(sq);
        }
        let tour = solve(&req).unwrap();
        prop_assert!(req.is_satisfied_by(&tour));
        prop_assert_eq!(numbering(&req).unwrap(), tour.numbering());
    }

    #[test]
    fn other_constraints_are_checked_never_assumed(r in 1u32..25, c in 1u32..25, k in 2u32..600) {
        let board = Board::new(r, c).unwrap();
        if let Some(tour) = construct::open_tour(board) {
            // Demand that move k lands where the constructed tour does not put it.
            let k = 2 + k % (board.len() as u32).max(2);
            prop_assume!((k as usize) <= board.len() && board.len() >= 3);
            let mut req = Request::open(board);
            req.start = tour.start();
            let wrong = tour.indices()[(k as usize) % board.len()];
            req.constraints.push(Constraint { move_number: k, square: board.square_at(wrong) });
            match solve(&req) {
                Some(t) => prop_assert!(req.is_satisfied_by(&t)),
                None => prop_assert!(numbering(&req).is_none()),
            }
        }
    }
}

#[test]
fn odd_boards_start_on_every_corner_coloured_square() {
    for (r, c) in [
        (5, 5),
        (5, 7),
        (7, 7),
        (9, 9),
        (11, 13),
        (13, 13),
        (15, 17),
        (25, 19),
    ] {
        let board = Board::new(r, c).unwrap();
        for sq in board.squares() {
            let s = construct::successors_starting_at(board, sq);
            if !sq.is_corner_colour() {
                assert!(s.is_none(), "{board} {sq:?}");
                continue;
            }
            let tour = s.unwrap_or_else(|| panic!("{board} from {sq:?}")).to_tour();
            assert_eq!(tour.check(), Ok(()), "{board} {sq:?}");
            assert!(tour.is_complete());
            assert_eq!(tour.start(), Some(sq));
        }
    }
}

#[test]
#[ignore = "minutes in debug; run with --release -- --ignored"]
fn odd_boards_up_to_41_start_on_every_corner_coloured_square() {
    for r in (5..=41).step_by(2) {
        for c in (5..=41).step_by(2) {
            let board = Board::new(r, c).unwrap();
            for sq in board.squares().filter(|s| s.is_corner_colour()) {
                let s = construct::successors_starting_at(board, sq)
                    .unwrap_or_else(|| panic!("{board} from {sq:?}"));
                let tour = s.to_tour();
                assert_eq!(tour.check(), Ok(()), "{board} {sq:?}");
                assert!(tour.is_complete());
                assert_eq!(tour.start(), Some(sq));
            }
        }
    }
}

#[test]
fn thin_boards_honour_either_end_of_their_tour() {
    for (r, c) in [(4, 9), (3, 11), (17, 4), (3, 4)] {
        let board = Board::new(r, c).unwrap();
        let tour = construct::open_tour(board).unwrap();
        for (start, end) in [
            (tour.start(), None),
            (tour.end(), None),
            (None, tour.start()),
        ] {
            let mut req = Request::open(board);
            req.start = start;
            req.end = end;
            let got = solve(&req).unwrap_or_else(|| panic!("{board} {req:?}"));
            assert!(req.is_satisfied_by(&got), "{board}");
        }
    }
}

/// `solve` with only the start fixed.
fn from(board: Board, start: Square) -> (Request, Option<knights_tour::tour::Tour>) {
    let req = Request {
        start: Some(start),
        ..Request::open(board)
    };
    let tour = solve(&req);
    (req, tour)
}

#[test]
fn every_admissible_start_of_3_and_4_high_boards() {
    for (short, longs) in [(3u32, 4u32..=40), (4, 5..=40)] {
        for long in longs {
            for (r, c) in [(short, long), (long, short)] {
                let board = Board::new(r, c).unwrap();
                for sq in board.squares() {
                    let admissible = existence::open_tour_from(board, sq).is_ok();
                    let (req, tour) = from(board, sq);
                    let name = board.algebraic(sq);
                    assert_eq!(tour.is_some(), admissible, "{board} {name}");
                    if let Some(tour) = tour {
                        assert!(req.is_satisfied_by(&tour), "{board} {name}");
                    }
                }
            }
        }
    }
}

#[test]
fn long_3_and_4_high_boards_from_middle_squares() {
    for (r, c, starts) in [
        (4, 20001, [(0, 10000), (3, 9999), (0, 20000)]),
        (3, 20001, [(1, 10001), (0, 7776), (2, 20000)]),
        (3, 20003, [(1, 10001), (2, 14), (0, 0)]),
    ] {
        for turned in [false, true] {
            let board = if turned {
                Board::new(c, r).unwrap()
            } else {
                Board::new(r, c).unwrap()
            };
            for (row, col) in starts {
                let sq = if turned {
                    Square::new(col, row)
                } else {
                    Square::new(row, col)
                };
                let (req, tour) = from(board, sq);
                let tour = tour.unwrap_or_else(|| panic!("{board} {}", board.algebraic(sq)));
                assert!(req.is_satisfied_by(&tour), "{board}");
                // The same square as the end: the tour walked backwards.
                let end = Request {
                    end: Some(sq),
                    ..Request::open(board)
                };
                assert!(end.is_satisfied_by(&solve(&end).unwrap()));
            }
        }
    }
}

#[test]
fn inner_squares_of_4_high_boards_start_nothing() {
    let board = Board::new(4, 20001).unwrap();
    for sq in [
        Square::new(1, 10000),
        Square::new(2, 0),
        Square::new(2, 20000),
    ] {
        assert!(from(board, sq).1.is_none(), "{}", board.algebraic(sq));
    }
    let odd = Board::new(3, 20001).unwrap();
    assert!(from(odd, Square::new(1, 10000)).1.is_none());
}
