//! A tour and a board as JSON, as `generate --format json`, `puzzle` and `pairs` write them.
//! They are contracts for scripts: fields are added, never renamed.

use serde::Serialize;

use crate::board::Board;
use crate::tour::Tour;

/// A tour as JSON: the board, start, end, closed flag and the path as algebraic squares.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TourJson<'t> {
    /// Board size.
    pub board: BoardJson,
    /// Square of move 1.
    pub start: Option<String>,
    /// Square of the last move.
    pub end: Option<String>,
    /// Whether every square is visited.
    pub complete: bool,
    /// Whether the tour is complete and re-entrant.
    pub closed: bool,
    /// Moves made (squares visited).
    pub moves: usize,
    /// The seed of the run that made it, so it can be made again (`--seed`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The seed in decimal digits, as a string: exact in every JSON reader (JavaScript and jq
    /// round a number above 2^53, so a `--seed` that large would no longer repeat the run).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed_text: Option<String>,
    /// The squares in move order, algebraic (`a1` bottom-left).
    pub path: PathJson<'t>,
}

/// A tour's squares as a JSON list of algebraic names, written as they are serialized: a
/// 3000x3000 tour's nine million names are never held at once (they took 530 MB as strings).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathJson<'t>(pub &'t Tour);

impl Serialize for PathJson<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let board = self.0.board();
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for sq in self.0.squares() {
            seq.serialize_element(&board.algebraic(sq))?;
        }
        seq.end()
    }
}

/// Board size for JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct BoardJson {
    /// Rows.
    pub rows: u32,
    /// Columns.
    pub cols: u32,
}

impl From<Board> for BoardJson {
    fn from(board: Board) -> BoardJson {
        BoardJson {
            rows: board.rows(),
            cols: board.cols(),
        }
    }
}

impl<'t> TourJson<'t> {
    /// The JSON view of `tour`.
    ///
    /// ```
    /// use knights_tour::board::{Board, Square};
    /// use knights_tour::tour::Tour;
    /// let board = Board::new(3, 4).unwrap();
    /// let t = Tour::from_squares(board, [Square::new(2, 0), Square::new(0, 1)]).unwrap();
    /// let j = knights_tour::output::json::TourJson::new(&t);
    /// let v = serde_json::to_value(&j).unwrap();
    /// assert_eq!(v["path"], serde_json::json!(["a1", "b3"]));
    /// ```
    pub fn new(tour: &'t Tour) -> TourJson<'t> {
        let board = tour.board();
        TourJson {
            board: board.into(),
            start: tour.start().map(|s| board.algebraic(s)),
            end: tour.end().map(|s| board.algebraic(s)),
            complete: tour.is_complete(),
            closed: tour.is_closed(),
            moves: tour.len(),
            seed: None,
            seed_text: None,
            path: PathJson(tour),
        }
    }

    /// About how many bytes the document of `tour` takes (its path dominates: each square's
    /// name, two quotes and a comma), for the progress of a long write; known before the
    /// document is made.
    ///
    /// ```
    /// use knights_tour::board::{Board, Square};
    /// use knights_tour::output::json::TourJson;
    /// use knights_tour::tour::Tour;
    /// let t = Tour::from_squares(Board::new(3, 4).unwrap(), [Square::new(2, 0), Square::new(0, 1)]).unwrap();
    /// let written = serde_json::to_string(&TourJson::new(&t)).unwrap().len() as u64;
    /// let estimate = TourJson::estimated_len(&t);
    /// assert!(estimate >= written && estimate < written + 256, "{estimate} {written}");
    /// ```
    pub fn estimated_len(tour: &Tour) -> u64 {
        let board = tour.board();
        let last = crate::board::Square::new(0, board.cols() - 1);
        // The longest name: the last file's letters and the top rank's digits.
        let longest = board.algebraic(last).len() as u64;
        tour.len() as u64 * (longest + 3) + 200
    }

    /// The same document naming the run's seed.
    pub fn with_seed(self, seed: u64) -> TourJson<'t> {
        TourJson {
            seed: Some(seed),
            seed_text: Some(seed.to_string()),
            ..self
        }
    }
}
