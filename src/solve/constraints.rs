//! The `--constraints FILE` format: one `k SQUARE` per line ("move k is on SQUARE"), `#`
//! starting a comment, blank lines ignored. For example `1 a1` and `64 h1`.

use crate::board::Board;
use crate::solve::Constraint;

/// A line of a constraints file that could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct ConstraintError {
    /// Line number from 1.
    pub line: usize,
    /// What is wrong, in words.
    pub message: String,
}

/// Parse constraints for `board` from the text of a constraints file.
///
/// ```
/// use knights_tour::board::Board;
/// use knights_tour::solve::constraints::parse;
/// let board = Board::new(8, 8).unwrap();
/// let cs = parse(board, "# ends\n1 a1\n64 h1  # the corner\n").unwrap();
/// assert_eq!(cs.len(), 2);
/// assert_eq!(parse(board, "65 a1").unwrap_err().line, 1);
/// ```
pub fn parse(board: Board, text: &str) -> Result<Vec<Constraint>, ConstraintError> {
    let mut out: Vec<Constraint> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let err = |message: String| ConstraintError { line, message };
        let mut parts = content.split_whitespace();
        let (k, sq) = match (parts.next(), parts.next(), parts.next()) {
            (Some(k), Some(sq), None) => (k, sq),
            _ => {
                return Err(err(format!(
                    "expected 'MOVE SQUARE' such as '1 a1', found '{content}'"
                )))
            }
        };
        let n = board.len();
        let move_number: u32 = k
            .parse()
            .ok()
            .filter(|&m: &u32| m >= 1 && (m as usize) <= n)
            .ok_or_else(|| err(format!("move '{k}' is not a number from 1 to {n}")))?;
        let square = board.parse_square(sq).map_err(|e| err(e.to_string()))?;
        for c in &out {
            if c.move_number == move_number && c.square != square {
                return Err(err(format!(
                    "move {move_number} is already placed on {}",
                    board.algebraic(c.square)
                )));
            }
            if c.square == square && c.move_number != move_number {
                return Err(err(format!(
                    "square {sq} already holds move {}",
                    c.move_number
                )));
            }
        }
        if !out.contains(&Constraint {
            move_number,
            square,
        }) {
            out.push(Constraint {
                move_number,
                square,
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;

    #[test]
    fn comments_blank_lines_and_both_notations() {
        let board = Board::new(8, 8).unwrap();
        let cs = parse(board, "\n# header\n1 a1\n  10   3,4 # mid\n\n").unwrap();
        assert_eq!(
            cs,
            vec![
                Constraint {
                    move_number: 1,
                    square: Square::new(7, 0)
                },
                Constraint {
                    move_number: 10,
                    square: Square::new(2, 3)
                },
            ]
        );
    }

    #[test]
    fn errors_name_the_line() {
        let board = Board::new(8, 8).unwrap();
        let e = parse(board, "1 a1\n2 z9\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("z9"), "{e}");
        assert_eq!(parse(board, "1 a1 extra").unwrap_err().line, 1);
        assert_eq!(parse(board, "0 a1").unwrap_err().line, 1);
        assert_eq!(parse(board, "x a1").unwrap_err().line, 1);
        assert_eq!(parse(board, "1 a1\n1 b1").unwrap_err().line, 2);
        assert_eq!(parse(board, "1 a1\n2 a1").unwrap_err().line, 2);
    }
}
