//! Why a dead end of the joint search happened: the decisions it depends on, so that the
//! search backs up to the latest of them (Prosser's conflict-directed backjumping).

/// The decisions a dead end depends on, as decision levels (depths of the search stack, from
/// 1; the constrained squares are level 0 and never named): every level up to `floor`, and
/// `levels` above it. "Everything up to here" is a `floor`, so falling back to chronological
/// backtracking costs nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Conflict {
    pub(super) floor: u32,
    /// Sorted, each above `floor`.
    pub(super) levels: Vec<u32>,
}

impl Conflict {
    /// Every level up to `depth`: chronological backtracking.
    pub(super) fn everything(depth: u32) -> Conflict {
        Conflict {
            floor: depth,
            levels: Vec::new(),
        }
    }

    /// The levels in `raw` (any order, repeats and zeros allowed).
    pub(super) fn of(mut raw: Vec<u32>) -> Conflict {
        raw.retain(|&l| l > 0);
        raw.sort_unstable();
        raw.dedup();
        Conflict {
            floor: 0,
            levels: raw,
        }
    }

    pub(super) fn max(&self) -> u32 {
        self.levels.last().copied().unwrap_or(0).max(self.floor)
    }

    pub(super) fn contains(&self, level: u32) -> bool {
        level <= self.floor || self.levels.binary_search(&level).is_ok()
    }

    /// Add `other` without `level` (the level absorbing it: `other` names nothing deeper).
    pub(super) fn absorb(&mut self, other: &Conflict, level: u32) {
        debug_assert!(other.max() <= level);
        self.floor = self.floor.max(other.floor);
        let mut merged = Vec::with_capacity(self.levels.len() + other.levels.len());
        let (mut i, mut j) = (0, 0);
        let (a, b) = (&self.levels, &other.levels);
        while i < a.len() || j < b.len() {
            let next = match (a.get(i), b.get(j)) {
                (Some(&x), Some(&y)) if x <= y => {
                    i += 1;
                    j += usize::from(x == y);
                    x
                }
                (Some(&x), None) => {
                    i += 1;
                    x
                }
                (_, Some(&y)) => {
                    j += 1;
                    y
                }
                (None, None) => break,
            };
            merged.push(next);
        }
        if self.floor >= level {
            self.floor = level - 1;
        }
        let floor = self.floor;
        merged.retain(|&l| l > floor && l != level);
        self.levels = merged;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conflicts_merge_and_fall_back_to_chronological() {
        let mut a = Conflict::of(vec![3, 1, 0, 3]);
        assert_eq!(a.levels, [1, 3]);
        a.absorb(&Conflict::of(vec![2, 5]), 5);
        assert_eq!((a.floor, a.levels.clone()), (0, vec![1, 2, 3]));
        a.absorb(&Conflict::everything(4), 4);
        assert_eq!((a.floor, a.max()), (3, 3));
        assert!(a.contains(2) && !a.contains(4));
    }
}
