//! Small pieces of English for messages: "an 8x8 board", "1 move", "2 moves". Every message
//! that puts a number or a board size into a sentence goes through here, so none says
//! "a 8x8 board" or "1 columns".
//!
//! ```
//! use knights_tour::board::Board;
//! use knights_tour::english::{a_board, count};
//! assert_eq!(a_board(Board::new(8, 8).unwrap()), "an 8x8 board");
//! assert_eq!(a_board(Board::new(5, 6).unwrap()), "a 5x6 board");
//! assert_eq!(count(1u32, "move"), "1 move");
//! assert_eq!(count(64u32, "move"), "64 moves");
//! ```

/// The indefinite article for a word or a number as it is read aloud: `an` before a vowel
/// sound (`an 8x8`, `an 11x11`, `an 18x18`, `an 800x3`, `an 11000x2`, `an A1 cell`), `a`
/// otherwise (`a 1x1`, `a 110x4`, `a 5x6`).
///
/// Numbers are read the English way: the leading group of digits before the thousands
/// separators is what is heard first ("eleven thousand", "eight hundred", "eighteen").
///
/// ```
/// use knights_tour::english::article;
/// assert_eq!(article("8x8"), "an");
/// assert_eq!(article("11x11"), "an");
/// assert_eq!(article("18x3"), "an");
/// assert_eq!(article("100x100"), "a");
/// assert_eq!(article("118x2"), "a");
/// assert_eq!(article("18000x2"), "an");
/// assert_eq!(article("open tour"), "an");
/// assert_eq!(article("closed tour"), "a");
/// ```
pub fn article(word: &str) -> &'static str {
    let digits: String = word.chars().take_while(char::is_ascii_digit).collect();
    if digits.is_empty() {
        let vowel = word
            .chars()
            .next()
            .is_some_and(|c| "aeiouAEIOU".contains(c));
        return if vowel { "an" } else { "a" };
    }
    let digits = digits.trim_start_matches('0');
    if digits.is_empty() {
        return "a"; // "a zero"
    }
    // The group heard first: 1 to 3 digits before the thousands.
    let lead = &digits[..(digits.len() - 1) % 3 + 1];
    if lead.starts_with('8') || lead == "11" || lead == "18" {
        "an"
    } else {
        "a"
    }
}

/// `thing` with its indefinite article: `an 8x8`, `a 5x5`.
pub fn with_article(thing: &str) -> String {
    format!("{} {thing}", article(thing))
}

/// `an 8x8 board`, `a 5x6 board` (any board's `Display`, so that words need not know boards).
pub fn a_board(board: impl std::fmt::Display) -> String {
    with_article(&format!("{board} board"))
}

/// `n` and the noun, plural unless `n` is 1: `1 move`, `0 moves`, `8,999,999 moves` (with
/// [`thousands`] separators). The plural adds `s` (every noun our messages count does: move,
/// column, row, square, attempt, tour).
pub fn count(n: impl Into<u64>, noun: &str) -> String {
    let n = n.into();
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{} {noun}s", thousands(n))
    }
}

/// Every square of a board with `n` of them: `all 64 squares`, but `the 1 square` (never
/// "all 1 squares").
///
/// ```
/// use knights_tour::english::all_squares;
/// assert_eq!(all_squares(64), "all 64 squares");
/// assert_eq!(all_squares(1), "the 1 square");
/// ```
pub fn all_squares(n: usize) -> String {
    match n {
        1 => "the 1 square".to_string(),
        n => format!("all {n} squares"),
    }
}

/// [`count`] for `usize` amounts (lengths of things).
pub fn count_usize(n: usize, noun: &str) -> String {
    count(n as u64, noun)
}

/// `n` with thousands separators, as a count reads in a sentence: `2,048`, `20,592`.
///
/// ```
/// use knights_tour::english::thousands;
/// assert_eq!(thousands(999), "999");
/// assert_eq!(thousands(2048), "2,048");
/// assert_eq!(thousands(1_234_567), "1,234,567");
/// ```
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    #[test]
    fn articles_follow_the_sound_of_the_number() {
        for an in [
            "8x8",
            "11x11",
            "18x18",
            "8x3",
            "80x80",
            "89x2",
            "800x800",
            "8000x1",
            "11000x2",
            "18000x2",
            "11000000x1",
            "A1",
            "eight",
        ] {
            assert_eq!(article(an), "an", "{an}");
        }
        for a in [
            "1x1", "3x4", "5x5", "10x10", "12x12", "100x100", "110x4", "118x2", "181x3", "1100x2",
            "1800x2", "111000x2", "0x0", "board", "",
        ] {
            assert_eq!(article(a), "a", "{a}");
        }
    }

    #[test]
    fn boards_get_their_article() {
        let b = |r, c| a_board(Board::new(r, c).unwrap());
        assert_eq!(b(8, 8), "an 8x8 board");
        assert_eq!(b(11, 11), "an 11x11 board");
        assert_eq!(b(18, 18), "an 18x18 board");
        assert_eq!(b(3, 8), "a 3x8 board");
        assert_eq!(b(1, 1), "a 1x1 board");
    }

    #[test]
    fn counts_are_singular_only_for_one() {
        assert_eq!(count(0u32, "column"), "0 columns");
        assert_eq!(count(1u32, "column"), "1 column");
        assert_eq!(count(2u32, "column"), "2 columns");
        assert_eq!(count_usize(1, "move"), "1 move");
        assert_eq!(count_usize(63, "move"), "63 moves");
        assert_eq!(count_usize(8_999_999, "move"), "8,999,999 moves");
    }
}
