//! Exact, instant answers to "can such a tour exist at all?", so that no solver is started on a
//! request that no tour can meet, and the user is told *why* (usually a theorem).
//!
//! The board-level rules are complete characterisations:
//!
//! - [`open_tour`]: Cull & De Curtins (1978) and Conrad et al. (1994);
//! - [`closed_tour`]: Schwenk (1991);
//! - [`open_tour_from`]: exactly the squares an open tour can start on. Boards with a closed tour
//!   admit every square; odd boards the squares of the corners' colour; `4 x n` boards the two
//!   outer ranks of the long side (a short parity argument, see [`open_tour_from`]); `3 x n`
//!   boards follow a small table that this crate's tests check by exhaustive search.
//!
//! [`open_tour_between`] and [`check_request`] add further *necessary* conditions (colours,
//! distances, the `4 x n` rank structure) that are cheap to check; passing them does not prove
//! a tour exists.

use crate::board::{Board, Square};
use crate::solve::{Constraint, Request};

/// Why no tour can meet a request; `reason` is a sentence for a person, naming the theorem or
/// the squares involved.
///
/// ```
/// use knights_tour::board::Board;
/// use knights_tour::solve::existence::open_tour;
/// let err = open_tour(Board::new(4, 4).unwrap()).unwrap_err();
/// assert!(err.to_string().contains("4x4"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct Infeasible {
    /// The explanation, in words a person understands.
    pub reason: String,
}

impl Infeasible {
    fn new(reason: impl Into<String>) -> Infeasible {
        Infeasible {
            reason: reason.into(),
        }
    }
}

/// Where a square lies on the board seen with its short side first: `(across, along)`, where
/// `across < short` counts across the short side and `along < long` along the long side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Oriented {
    short: u32,
    long: u32,
    across: u32,
    along: u32,
}

fn orient(board: Board, sq: Square) -> Oriented {
    if board.rows() <= board.cols() {
        Oriented {
            short: board.rows(),
            long: board.cols(),
            across: sq.row,
            along: sq.col,
        }
    } else {
        Oriented {
            short: board.cols(),
            long: board.rows(),
            across: sq.col,
            along: sq.row,
        }
    }
}

/// `(short side, long side)`.
fn sides(board: Board) -> (u32, u32) {
    let (r, c) = (board.rows(), board.cols());
    (r.min(c), r.max(c))
}

/// The name of a square for messages: algebraic on the board, else `row r, column c` from 1.
fn name(board: Board, sq: Square) -> String {
    if board.contains(sq) {
        board.algebraic(sq)
    } else {
        format!(
            "row {}, column {}",
            u64::from(sq.row) + 1,
            u64::from(sq.col) + 1
        )
    }
}

fn on_board(board: Board, sq: Square, what: &str) -> Result<(), Infeasible> {
    if board.contains(sq) {
        Ok(())
    } else {
        Err(Infeasible::new(format!(
            "the {what} square ({}) is off the {board} board",
            name(board, sq)
        )))
    }
}

/// Whether any open knight's tour (a path through every square once) exists on `board`.
///
/// With sides `m <= n`: yes iff `m = n = 1` (the one-square tour), or `m = 3` and `n = 4` or
/// `n >= 7`, or `m = 4` and `n >= 5`, or `m >= 5` (Cull & De Curtins 1978; Conrad, Hindrichs,
/// Morsy & Wegener 1994).
///
/// ```
/// use knights_tour::board::Board;
/// use knights_tour::solve::existence::open_tour;
/// assert!(open_tour(Board::new(3, 4).unwrap()).is_ok());
/// assert!(open_tour(Board::new(8, 8).unwrap()).is_ok());
/// assert!(open_tour(Board::new(6, 3).unwrap()).is_err());
/// ```
pub fn open_tour(board: Board) -> Result<(), Infeasible> {
    let (m, n) = sides(board);
    const THEOREM: &str = "Cull & De Curtins 1978; Conrad et al. 1994: with sides m <= n an open tour exists only when m = 3 and n = 4 or n >= 7, m = 4 and n >= 5, or m >= 5";
    let why = match (m, n) {
        (1, 1) => return Ok(()),
        (1, _) => format!(
            "no knight's tour exists on the {board} board: a knight cannot move at all on a board one square wide ({THEOREM})"
        ),
        (2, _) => format!(
            "no knight's tour exists on the {board} board: on a board two squares wide the knight's moves split the squares into four separate chains, so it can never reach them all ({THEOREM})"
        ),
        (3, 3) => format!(
            "no knight's tour exists on the {board} board: the knight can never reach or leave the centre square ({THEOREM})"
        ),
        (3, 5) | (3, 6) | (4, 4) => format!(
            "no open knight's tour exists on the {board} board ({THEOREM})"
        ),
        _ => return Ok(()),
    };
    Err(Infeasible::new(why))
}

/// Whether a closed (re-entrant) knight's tour exists on `board`.
///
/// Schwenk (1991): with sides `m <= n`, yes unless `m` and `n` are both odd, or `m` is 1, 2 or
/// 4, or `m = 3` and `n` is 4, 6 or 8. A one-square board has no closed tour (there is no move
/// back to the start).
///
/// ```
/// use knights_tour::board::Board;
/// use knights_tour::solve::existence::closed_tour;
/// assert!(closed_tour(Board::new(8, 8).unwrap()).is_ok());
/// assert!(closed_tour(Board::new(3, 10).unwrap()).is_ok());
/// assert!(closed_tour(Board::new(5, 7).unwrap()).is_err());
/// assert!(closed_tour(Board::new(4, 12).unwrap()).is_err());
/// ```
pub fn closed_tour(board: Board) -> Result<(), Infeasible> {
    let (m, n) = sides(board);
    let why = if m == 1 && n == 1 {
        format!("no closed tour on the {board} board: there is no move back to the start")
    } else if !m.is_multiple_of(2) && !n.is_multiple_of(2) {
        format!(
            "no closed tour on the {board} board: both sides are odd, so the board has more squares of one colour, while a closed tour alternates colours and must have as many of each (Schwenk 1991)"
        )
    } else if m == 1 || m == 2 {
        format!(
            "no closed tour on the {board} board: no knight's tour of any kind exists on a board {m} square{} wide",
            if m == 1 { "" } else { "s" }
        )
    } else if m == 4 {
        format!(
            "no closed tour on the {board} board: the squares of the two outer ranks only lead to the two inner ranks, so a closed tour would alternate outer and inner squares, which together with the alternating colours it cannot do (Pósa; Schwenk 1991)"
        )
    } else if m == 3 && matches!(n, 4 | 6 | 8) {
        format!(
            "no closed tour on the {board} board (Schwenk 1991: a 3 x n board has one only for even n >= 10)"
        )
    } else {
        return Ok(());
    };
    Err(Infeasible::new(why))
}

/// Whether an open tour can start on `start`: exactly the squares from which one exists.
///
/// - boards with a closed tour, and the one-square board: every square (cut the cycle there);
/// - odd-by-odd boards: only the squares of the corners' colour, which has one square more, so
///   a path alternating colours starts and ends on it;
/// - `4 x n` (`n >= 5`): only the squares of the two outer ranks of the long side. The outer
///   squares only lead to inner ones, so the `2n` outer squares take every other move with one
///   step of two inner squares; as each colour has `n` outer squares, that step falls after move
///   `2n - 1` and move 1 is outer (this crate's tests confirm sufficiency by search);
/// - `3 x n`: for `n = 4` only the two short edges; `n = 7` the corners' colour but not the
///   centre; `n = 8` all but the third square from each end of the middle rank; odd `n >= 9`
///   the corners' colour; even `n >= 10` has a closed tour (the exceptions were found by
///   exhaustive search, which this crate's tests repeat for `n <= 10`; tours from every
///   admitted square are found for `n <= 42`).
///
/// ```
/// use knights_tour::board::{Board, Square};
/// use knights_tour::solve::existence::open_tour_from;
/// let b = Board::new(5, 5).unwrap();
/// assert!(open_tour_from(b, Square::new(0, 0)).is_ok());
/// assert!(open_tour_from(b, Square::new(0, 1)).is_err());
/// let b = Board::new(4, 6).unwrap();
/// assert!(open_tour_from(b, Square::new(3, 2)).is_ok());
/// assert!(open_tour_from(b, Square::new(1, 2)).is_err());
/// ```
pub fn open_tour_from(board: Board, start: Square) -> Result<(), Infeasible> {
    endpoint(board, start, "start")
}

/// [`open_tour_from`] for either end of the path: an open tour ending on a square is one starting
/// there walked backwards, so the same squares qualify. `role` is "start" or "end".
fn endpoint(board: Board, sq: Square, role: &str) -> Result<(), Infeasible> {
    on_board(board, sq, role)?;
    open_tour(board)?;
    if board.len() == 1 || closed_tour(board).is_ok() {
        return Ok(());
    }
    let o = orient(board, sq);
    let sq_name = name(board, sq);
    let verb = if role == "end" { "ends" } else { "starts" };
    if !board.len().is_multiple_of(2) && !sq.is_corner_colour() {
        return Err(Infeasible::new(format!(
            "no open tour of the {board} board {verb} on {sq_name}: the board has one more square of the corners' colour, so a tour, which alternates colours, starts and ends on that colour and {sq_name} is not"
        )));
    }
    let exhaustive = |what: &str| {
        Err(Infeasible::new(format!(
            "no open tour of the {board} board {verb} on {sq_name}{what} (found by exhaustive search: besides the colour rule on odd boards, the only squares of 3 x n boards that start no tour are those off the two short edges of 3x4, the centre of 3x7 and the third square from each end of the middle rank of 3x8)"
        )))
    };
    match (o.short, o.long) {
        (4, _) if o.across == 1 || o.across == 2 => Err(Infeasible::new(format!(
            "no open tour of the {board} board {verb} on {sq_name}: on a 4 x n board the outer squares only lead to inner ones, so an open tour starts and ends on one of the two outer ranks of the long side (each colour has as many outer squares as there are columns, which forces the pattern)"
        ))),
        (3, 4) if o.along != 0 && o.along != 3 => exhaustive(""),
        (3, 7) if o.across == 1 && o.along == 3 => exhaustive(", the centre square"),
        (3, 8) if o.across == 1 && (o.along == 2 || o.along == 5) => exhaustive(""),
        _ => Ok(()),
    }
}

/// Necessary (not sufficient) conditions for an open tour from `start` to `end`: both squares
/// admissible ends ([`open_tour_from`]); different squares unless the board has one square; on a
/// board with an even number of squares the two ends have opposite colours (a path alternates
/// colours); on an odd board both are of the corners' colour; on a `4 x n` board both lie on the
/// outer ranks.
///
/// ```
/// use knights_tour::board::{Board, Square};
/// use knights_tour::solve::existence::open_tour_between;
/// let b = Board::new(8, 8).unwrap();
/// assert!(open_tour_between(b, Square::new(0, 0), Square::new(0, 1)).is_ok());
/// assert!(open_tour_between(b, Square::new(0, 0), Square::new(1, 1)).is_err());
/// ```
pub fn open_tour_between(board: Board, start: Square, end: Square) -> Result<(), Infeasible> {
    endpoint(board, start, "start")?;
    endpoint(board, end, "end")?;
    let (s, e) = (name(board, start), name(board, end));
    if board.len() == 1 {
        return Ok(());
    }
    if start == end {
        return Err(Infeasible::new(format!(
            "an open tour of the {board} board cannot start and end on the same square {s}"
        )));
    }
    if board.len().is_multiple_of(2) && start.is_corner_colour() == end.is_corner_colour() {
        return Err(Infeasible::new(format!(
            "no open tour of the {board} board runs from {s} to {e}: the board has an even number of squares, so a tour, which alternates colours, starts and ends on opposite colours, and {s} and {e} have the same colour"
        )));
    }
    Ok(())
}

/// The smallest number of knight moves between two squares on an unbounded board; a lower bound
/// for any finite board.
fn knight_distance(a: Square, b: Square) -> u64 {
    u64::from(crate::solve::backtrack::knight_distance(
        a.row.abs_diff(b.row),
        a.col.abs_diff(b.col),
    ))
}

/// Everything decidable instantly about `req`: the board has the kind of tour asked for; every
/// fixed square is on the board; move numbers lie in `1..=N`; no move is fixed to two squares and
/// no square to two moves; colours alternate with the moves; squares fixed `d` moves apart are
/// at most `d` knight moves apart (for a closed tour also around the end); the ends of an open
/// tour are admissible ([`open_tour_between`]); on a `4 x n` board each fixed move falls on the
/// outer or inner ranks as the board's structure forces. These are necessary conditions: a
/// request that passes may still have no tour (a solver then finds out).
///
/// ```
/// use knights_tour::board::{Board, Square};
/// use knights_tour::solve::{existence::check_request, Constraint, Request};
/// let mut req = Request::open(Board::new(8, 8).unwrap());
/// assert!(check_request(&req).is_ok());
/// req.constraints.push(Constraint { move_number: 2, square: Square::new(0, 0) });
/// req.constraints.push(Constraint { move_number: 3, square: Square::new(7, 7) });
/// let err = check_request(&req).unwrap_err();
/// assert!(err.reason.contains("a8") && err.reason.contains("h1"));
/// ```
pub fn check_request(req: &Request) -> Result<(), Infeasible> {
    let board = req.board;
    if req.closed {
        closed_tour(board)?;
    } else {
        open_tour(board)?;
    }
    let mut fixed = req.all_constraints();
    check_constraints_on_board(board, &fixed)?;
    fixed.sort_by_key(|c| (c.move_number, board.index(c.square)));
    fixed.dedup();
    check_unique(board, &fixed)?;
    check_colours(board, &fixed)?;
    check_distances(board, req.closed, &fixed)?;
    if !req.closed {
        check_open_ends(board, &fixed)?;
        check_four_by_n(board, &fixed)?;
    }
    Ok(())
}

fn check_constraints_on_board(board: Board, fixed: &[Constraint]) -> Result<(), Infeasible> {
    let n = board.len() as u64;
    for c in fixed {
        if !board.contains(c.square) {
            return Err(Infeasible::new(format!(
                "move {} is fixed to {}, which is off the {board} board",
                c.move_number,
                name(board, c.square)
            )));
        }
        if c.move_number == 0 || u64::from(c.move_number) > n {
            return Err(Infeasible::new(format!(
                "move {} (on {}) does not exist: a tour of the {board} board has moves 1 to {n}",
                c.move_number,
                name(board, c.square)
            )));
        }
    }
    Ok(())
}

/// `fixed` sorted by move and without exact duplicates.
fn check_unique(board: Board, fixed: &[Constraint]) -> Result<(), Infeasible> {
    for w in fixed.windows(2) {
        if w[0].move_number == w[1].move_number {
            return Err(Infeasible::new(format!(
                "move {} cannot be on both {} and {}",
                w[0].move_number,
                name(board, w[0].square),
                name(board, w[1].square)
            )));
        }
    }
    let mut by_square: Vec<&Constraint> = fixed.iter().collect();
    by_square.sort_by_key(|c| (board.index(c.square), c.move_number));
    for w in by_square.windows(2) {
        if w[0].square == w[1].square {
            return Err(Infeasible::new(format!(
                "square {} cannot hold both move {} and move {}: a tour visits each square once",
                name(board, w[0].square),
                w[0].move_number,
                w[1].move_number
            )));
        }
    }
    Ok(())
}

fn check_colours(board: Board, fixed: &[Constraint]) -> Result<(), Infeasible> {
    if !board.len().is_multiple_of(2) && board.len() > 1 {
        for c in fixed {
            let odd = !c.move_number.is_multiple_of(2);
            if c.square.is_corner_colour() != odd {
                return Err(Infeasible::new(format!(
                    "move {} cannot be on {}: the {board} board has one more square of the corners' colour, so every tour starts and ends on it and all odd-numbered moves are on that colour, all even-numbered ones on the other",
                    c.move_number,
                    name(board, c.square)
                )));
            }
        }
        return Ok(());
    }
    let Some(first) = fixed.first() else {
        return Ok(());
    };
    for c in &fixed[1..] {
        let same_colour = c.square.is_corner_colour() == first.square.is_corner_colour();
        let same_parity = (c.move_number - first.move_number).is_multiple_of(2);
        if same_colour != same_parity {
            return Err(Infeasible::new(format!(
                "move {} on {} and move {} on {} clash: a knight changes colour with every move, so moves {} apart are on {} colours, but {} and {} are on {}",
                first.move_number,
                name(board, first.square),
                c.move_number,
                name(board, c.square),
                c.move_number - first.move_number,
                if same_parity { "the same" } else { "opposite" },
                name(board, first.square),
                name(board, c.square),
                if same_colour { "the same colour" } else { "opposite colours" },
            )));
        }
    }
    Ok(())
}

/// `fixed` sorted by move, unique.
fn check_distances(board: Board, closed: bool, fixed: &[Constraint]) -> Result<(), Infeasible> {
    let n = board.len() as u64;
    let mut pairs: Vec<(Constraint, Constraint, u64)> = fixed
        .windows(2)
        .map(|w| (w[0], w[1], u64::from(w[1].move_number - w[0].move_number)))
        .collect();
    if closed && fixed.len() >= 2 {
        let (first, last) = (fixed[0], fixed[fixed.len() - 1]);
        let around = n - u64::from(last.move_number) + u64::from(first.move_number);
        pairs.push((last, first, around));
    }
    for (a, b, moves) in pairs {
        let ok = if moves == 1 {
            a.square.is_knight_move(b.square)
        } else {
            knight_distance(a.square, b.square) <= moves
        };
        if !ok {
            let wrap = if b.move_number < a.move_number {
                " (the tour is closed, so it goes on from the last move back to move 1)"
            } else {
                ""
            };
            return Err(Infeasible::new(format!(
                "move {} on {} and move {} on {} are too far apart: a knight cannot get from {} to {} in {moves} move{}{wrap}",
                a.move_number,
                name(board, a.square),
                b.move_number,
                name(board, b.square),
                name(board, a.square),
                name(board, b.square),
                if moves == 1 { "" } else { "s" },
            )));
        }
    }
    Ok(())
}

/// Open tours: the squares of move 1 and move N must be admissible ends.
fn check_open_ends(board: Board, fixed: &[Constraint]) -> Result<(), Infeasible> {
    let n = board.len() as u32;
    let start = fixed.iter().find(|c| c.move_number == 1).map(|c| c.square);
    let end = fixed.iter().find(|c| c.move_number == n).map(|c| c.square);
    match (start, end) {
        (Some(s), Some(e)) => open_tour_between(board, s, e),
        (Some(s), None) => endpoint(board, s, "start"),
        (None, Some(e)) => endpoint(board, e, "end"),
        (None, None) => Ok(()),
    }
}

/// On a `4 x n` board an open tour's outer squares are exactly moves `1, 3, ..., 2n-1` and
/// `2n+2, 2n+4, ..., 4n` (see [`open_tour_from`]).
fn check_four_by_n(board: Board, fixed: &[Constraint]) -> Result<(), Infeasible> {
    let (m, long) = sides(board);
    if m != 4 {
        return Ok(());
    }
    for c in fixed {
        let k = c.move_number;
        let outer_move =
            (!k.is_multiple_of(2) && k < 2 * long) || (k.is_multiple_of(2) && k > 2 * long + 1);
        let o = orient(board, c.square);
        let outer_square = o.across == 0 || o.across == 3;
        if outer_move != outer_square {
            return Err(Infeasible::new(format!(
                "move {k} cannot be on {}: on the {board} board the outer squares only lead to inner ones, which forces every open tour onto the two outer ranks of the long side exactly at moves 1, 3, ..., {} and {}, {}, ..., {}, and onto the inner ranks at the other moves",
                name(board, c.square),
                2 * long - 1,
                2 * long + 2,
                2 * long + 4,
                4 * long
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(r: u32, c: u32) -> Board {
        Board::new(r, c).unwrap()
    }

    #[test]
    fn knight_distance_matches_breadth_first_search() {
        let b = board(40, 40);
        let centre = Square::new(20, 20);
        let table = b.neighbour_table();
        let mut dist = vec![u64::MAX; b.len()];
        let mut queue = std::collections::VecDeque::from([b.index(centre)]);
        dist[b.index(centre) as usize] = 0;
        while let Some(i) = queue.pop_front() {
            for &j in &table[i as usize] {
                if dist[j as usize] == u64::MAX {
                    dist[j as usize] = dist[i as usize] + 1;
                    queue.push_back(j);
                }
            }
        }
        for sq in b.squares() {
            if sq.row.abs_diff(20) <= 12 && sq.col.abs_diff(20) <= 12 {
                let d = dist[b.index(sq) as usize];
                assert_eq!(knight_distance(centre, sq), d, "{sq:?}");
            }
        }
    }
}
