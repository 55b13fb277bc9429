//! A count of search nodes that a search adds to as it goes, read by another thread (a progress
//! line), so a long search shows it is alive and how far it got without calling back into the
//! caller from its inner loop.

use std::sync::atomic::{AtomicU64, Ordering};

/// The search adds to a meter once every this many nodes (when it also looks at the clock), so
/// metering costs nothing measurable.
pub const METER_STEP: u64 = 4096;

/// Where a search adds its nodes: a `static` counter the caller owns and reads.
///
/// ```
/// use std::sync::atomic::AtomicU64;
/// use knights_tour::board::Board;
/// use knights_tour::solve::backtrack::Backtrack;
/// use knights_tour::solve::search::Search;
/// use knights_tour::solve::{rng_from_seed, Budget, Meter, Request};
/// static NODES: AtomicU64 = AtomicU64::new(0);
/// let budget = Budget { meter: Some(Meter::new(&NODES)), ..Budget::nodes(50_000) };
/// // 6x6 open tours from a corner take a while to find without Warnsdorff's luck.
/// let req = Request::open(Board::new(6, 6).unwrap());
/// let _ = Backtrack::new(&req).step(&budget, &mut rng_from_seed(1));
/// assert!(Meter::new(&NODES).read() <= 50_000);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Meter(&'static AtomicU64);

impl Meter {
    /// A meter adding to `counter`.
    pub fn new(counter: &'static AtomicU64) -> Meter {
        Meter(counter)
    }

    /// Add `nodes`.
    pub fn add(self, nodes: u64) {
        self.0.fetch_add(nodes, Ordering::Relaxed);
    }

    /// The nodes added so far.
    pub fn read(self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// Two meters are the same when they add to the same counter.
impl PartialEq for Meter {
    fn eq(&self, other: &Meter) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for Meter {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds_and_compares_by_counter() {
        static A: AtomicU64 = AtomicU64::new(0);
        static B: AtomicU64 = AtomicU64::new(0);
        let a = Meter::new(&A);
        a.add(3);
        a.add(4);
        assert_eq!(a.read(), 7);
        assert_eq!(a, Meter::new(&A));
        assert_ne!(a, Meter::new(&B));
    }
}
