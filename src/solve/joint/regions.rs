//! The regions rule of the joint search: a piece's remaining squares all lie in one region of
//! free squares next to both of its ends, so every region must be filled exactly, colour by
//! colour, by the pieces that can enter it. The regions (connected through free squares by
//! knight's moves) are kept up to date as the search takes squares and gives them back, so
//! that the rule can look at every region at every node without a pass over the free squares.
//!
//! Taking a square changes the regions only when it cuts its own region apart, so a take
//! searches from the square's free neighbours at once until at most one search goes on
//! ([`Regions::split`]): the parts cut off get new regions, the labels changed are kept on a
//! trail, and giving the square back (squares come back in the reverse order they were taken)
//! undoes them: the same course as a pass over the free squares at every node, in less time.

use super::{Conflict, Joint, NONE};

/// The knight's graph of a board and which squares are free: the joint search's own arrays.
pub(super) struct Graph<'a> {
    /// Up to eight neighbours of square `s` at `nbr[8 * s..]`, `nbr_len[s]` of them.
    pub nbr: &'a [u32],
    pub nbr_len: &'a [u8],
    /// Move number of each square, 0 if free.
    pub time: &'a [u32],
    /// Colour class of each square (0 or 1).
    pub class_of: &'a [u8],
}

impl Graph<'_> {
    fn neighbours(&self, s: u32) -> &[u32] {
        let b = 8 * s as usize;
        &self.nbr[b..b + self.nbr_len[s as usize] as usize]
    }

    fn is_free(&self, s: u32) -> bool {
        self.time[s as usize] == 0
    }
}

/// The regions of the free squares, by colour class.
pub(super) struct Regions {
    /// Region of each free square (left as it was on a square taken).
    id: Vec<u32>,
    /// Squares of each colour class in each region (a region emptied stays, with none).
    sizes: Vec<[u32; 2]>,
    /// Labels changed by takes: (square, its label before).
    trail: Vec<(u32, u32)>,
    /// For each take not given back: the trail's length and the regions' count before it.
    takes: Vec<(u32, u32)>,
    seen: Vec<u32>,
    stamp: u32,
    queue: Vec<u32>,
    /// The squares each search of [`Regions::split`] visited.
    searches: [Vec<u32>; 8],
}

impl Regions {
    /// The regions of the free squares of `graph`, labelled afresh.
    pub(super) fn new(graph: &Graph) -> Regions {
        let n = graph.time.len();
        let mut regions = Regions {
            id: vec![NONE; n],
            sizes: Vec::new(),
            trail: Vec::new(),
            takes: Vec::new(),
            seen: vec![0; n],
            stamp: 0,
            queue: Vec::with_capacity(n),
            searches: Default::default(),
        };
        for s in 0..n as u32 {
            if graph.is_free(s) && regions.id[s as usize] == NONE {
                let id = regions.sizes.len() as u32;
                regions.sizes.push([0, 0]);
                regions.flood(graph, s);
                for i in 0..regions.queue.len() {
                    let v = regions.queue[i];
                    regions.id[v as usize] = id;
                    regions.sizes[id as usize][usize::from(graph.class_of[v as usize])] += 1;
                }
            }
        }
        regions
    }

    /// Region of the free square `s`.
    #[inline]
    pub(super) fn of(&self, s: u32) -> u32 {
        self.id[s as usize]
    }

    /// Squares of each colour class in each region, by region (some may be empty).
    pub(super) fn sizes(&self) -> &[[u32; 2]] {
        &self.sizes
    }

    /// The free squares of the region of the free square `s`.
    pub(super) fn squares(&mut self, graph: &Graph, s: u32) -> &[u32] {
        self.flood(graph, s);
        &self.queue
    }

    /// Square `s` was just taken (`graph` shows it taken).
    pub(super) fn take(&mut self, graph: &Graph, s: u32) {
        let r = self.id[s as usize];
        self.sizes[r as usize][usize::from(graph.class_of[s as usize])] -= 1;
        self.takes
            .push((self.trail.len() as u32, self.sizes.len() as u32));
        let mut ends = [NONE; 8];
        let mut k = 0;
        for &w in graph.neighbours(s) {
            if graph.is_free(w) {
                ends[k] = w;
                k += 1;
            }
        }
        if k > 1 {
            self.split(graph, r, &ends[..k]);
        }
    }

    /// Label the parts region `r` fell into when a square with the free neighbours `ends` was
    /// taken. A search runs from each neighbour, one square each in turn, searches that meet
    /// joining; a group of searches with nothing left to visit has found a whole part, and
    /// once at most one group is still searching, that group's part is the rest of `r` and
    /// keeps its label. So the work is a few times the size of the parts cut off, not of the
    /// region.
    fn split(&mut self, graph: &Graph, r: u32, ends: &[u32]) {
        let k = ends.len();
        let base = self.reserve(k as u32);
        let mut group: [usize; 8] = std::array::from_fn(|i| i);
        let mut heads = [0usize; 8];
        for (i, &e) in ends.iter().enumerate() {
            self.searches[i].clear();
            self.searches[i].push(e);
            self.seen[e as usize] = base + i as u32;
        }
        fn root(group: &mut [usize; 8], mut i: usize) -> usize {
            while group[i] != i {
                group[i] = group[group[i]];
                i = group[i];
            }
            i
        }
        loop {
            // The groups still searching, and the finished ones (each a whole part).
            let mut searching = [false; 8];
            for i in 0..k {
                if heads[i] < self.searches[i].len() {
                    searching[root(&mut group, i)] = true;
                }
            }
            if (0..k).filter(|&i| searching[i]).count() <= 1 {
                break;
            }
            for (i, head) in heads.iter_mut().enumerate().take(k) {
                let Some(&v) = self.searches[i].get(*head) else {
                    continue;
                };
                *head += 1;
                for &w in graph.neighbours(v) {
                    if !graph.is_free(w) {
                        continue;
                    }
                    let mark = self.seen[w as usize];
                    if mark >= base && mark < base + k as u32 {
                        let (a, b) = (
                            root(&mut group, i),
                            root(&mut group, (mark - base) as usize),
                        );
                        group[a.max(b)] = a.min(b);
                    } else {
                        self.seen[w as usize] = base + i as u32;
                        self.searches[i].push(w);
                    }
                }
            }
        }
        // Every group but one still searching is a whole part; when none is still searching,
        // the largest keeps the label.
        let mut size_of = [0usize; 8];
        let mut searching = [false; 8];
        for (i, &head) in heads.iter().enumerate().take(k) {
            let g = root(&mut group, i);
            size_of[g] += self.searches[i].len();
            searching[g] |= head < self.searches[i].len();
        }
        let keep = (0..k)
            .filter(|&g| group[g] == g)
            .max_by_key(|&g| (searching[g], size_of[g]))
            .unwrap_or(0);
        let roots: Vec<usize> = (0..k).filter(|&g| group[g] == g && g != keep).collect();
        for g in roots {
            let id = self.sizes.len() as u32;
            let mut size = [0, 0];
            for i in (0..k).filter(|&i| root(&mut group, i) == g) {
                for &v in &self.searches[i] {
                    self.trail.push((v, self.id[v as usize]));
                    self.id[v as usize] = id;
                    size[usize::from(graph.class_of[v as usize])] += 1;
                }
            }
            self.sizes[r as usize][0] -= size[0];
            self.sizes[r as usize][1] -= size[1];
            self.sizes.push(size);
        }
    }

    /// Square `s`, the last taken, was just given back.
    pub(super) fn give_back(&mut self, graph: &Graph, s: u32) {
        let Some((trail, count)) = self.takes.pop() else {
            return;
        };
        while self.trail.len() > trail as usize {
            let Some((v, old)) = self.trail.pop() else {
                break;
            };
            let now = self.id[v as usize] as usize;
            let c = usize::from(graph.class_of[v as usize]);
            self.sizes[now][c] -= 1;
            self.sizes[old as usize][c] += 1;
            self.id[v as usize] = old;
        }
        self.sizes.truncate(count as usize);
        let r = self.id[s as usize];
        self.sizes[r as usize][usize::from(graph.class_of[s as usize])] += 1;
    }

    /// Every free square reachable from `s` in `queue`.
    fn flood(&mut self, graph: &Graph, s: u32) {
        let stamp = self.next_stamp();
        self.queue.clear();
        self.queue.push(s);
        self.seen[s as usize] = stamp;
        let mut head = 0;
        while head < self.queue.len() {
            let v = self.queue[head];
            head += 1;
            for &w in graph.neighbours(v) {
                if graph.is_free(w) && self.seen[w as usize] != stamp {
                    self.seen[w as usize] = stamp;
                    self.queue.push(w);
                }
            }
        }
    }

    fn next_stamp(&mut self) -> u32 {
        self.reserve(1)
    }

    /// `count` fresh stamps from the one returned.
    fn reserve(&mut self, count: u32) -> u32 {
        if self.stamp >= u32::MAX - 16 {
            self.seen.fill(0);
            self.stamp = 0;
        }
        let base = self.stamp + 1;
        self.stamp += count;
        base
    }
}

/// Why the regions rule failed ([`Joint::regions_fill`]).
pub(super) enum Fill {
    /// A piece has no region next to both its ends.
    Everything,
    /// These regions cannot be filled, in the order of their ids.
    Regions(Vec<(u32, Shortfall)>),
}

/// How a region cannot be filled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Shortfall {
    /// Fewer squares of a colour can come into it than it holds.
    TooFew,
    /// The pieces that can go nowhere else bring more squares of a colour than it holds.
    TooMany,
}

impl Joint {
    /// The regions rule over the whole board: every region of free squares is filled exactly,
    /// colour by colour, by the pieces that can enter it.
    pub(super) fn check_regions(&mut self) -> Result<(), Conflict> {
        let Some(mut regions) = self.regions.take() else {
            return Ok(());
        };
        let result = self.check_all_regions(&mut regions);
        self.regions = Some(regions);
        result
    }

    pub(super) fn check_all_regions(&self, regions: &mut Regions) -> Result<(), Conflict> {
        let failing = match self.regions_fill(regions) {
            Ok(()) => return Ok(()),
            Err(Fill::Everything) => return Err(Conflict::everything(self.frames.len() as u32)),
            Err(Fill::Regions(failing)) => failing,
        };
        // The failing region met first in the free squares' order (the order in which a pass
        // over them found the regions before they were kept up to date), so that the search
        // takes the course it took then.
        let first = self.free.items.iter().find_map(|&s| {
            let r = regions.of(s);
            failing.iter().find(|f| f.0 == r).map(|f| (s, f.1))
        });
        let Some((s, kind)) = first else {
            return Err(Conflict::everything(self.frames.len() as u32));
        };
        match kind {
            Shortfall::TooFew => {
                // Too few squares can come into the region: that holds while the squares
                // around it stay as they are (and so the piece ends next to it).
                let mut raw = Vec::new();
                for &v in regions.squares(&graph!(self), s) {
                    self.ways_reason(v, &mut raw);
                }
                Err(Conflict::of(raw))
            }
            Shortfall::TooMany => Err(Conflict::everything(self.frames.len() as u32)),
        }
    }

    /// The regions rule: every region can be filled exactly, colour by colour, by the pieces
    /// that can enter it (those with both ends next to it). Otherwise either a piece next to
    /// no region, or the regions that fail, in the order of their ids.
    pub(super) fn regions_fill(&self, regions: &Regions) -> Result<(), Fill> {
        let sizes = regions.sizes();
        let count_of_regions = sizes.len();
        let mut possible = vec![[0u32; 2]; count_of_regions];
        let mut forced = vec![[0u32; 2]; count_of_regions];
        for gap in &self.gaps {
            if gap.open() == 0 {
                continue;
            }
            // The regions next to one end of the piece (none for a free start or end).
            let side = |t: u32| -> Option<[u32; 8]> {
                if t == 0 || t > self.n {
                    return None;
                }
                let mut ids = [NONE; 8];
                for (k, &w) in self.neighbours(self.sq[t as usize]).iter().enumerate() {
                    if self.time[w as usize] == 0 {
                        ids[k] = regions.of(w);
                    }
                }
                Some(ids)
            };
            let mut options = [NONE; 8];
            let mut count = 0;
            let mut add = |id: u32| {
                if id != NONE && !options[..count].contains(&id) {
                    options[count] = id;
                    count += 1;
                }
            };
            match (side(gap.f), side(gap.g)) {
                (Some(a), Some(b)) => a.iter().filter(|id| b.contains(id)).for_each(|&id| add(id)),
                (Some(a), None) | (None, Some(a)) => a.iter().for_each(|&id| add(id)),
                (None, None) => continue, // free at both ends: anywhere
            }
            if count == 0 {
                // No region next to both ends: the piece cannot be finished.
                return Err(Fill::Everything);
            }
            let (odd, even) = self.colour_counts(gap.f, gap.g);
            for &id in &options[..count] {
                possible[id as usize][0] += odd;
                possible[id as usize][1] += even;
            }
            if count == 1 {
                let id = options[0] as usize;
                forced[id][0] += odd;
                forced[id][1] += even;
            }
        }
        let mut failing = Vec::new();
        for r in 0..count_of_regions {
            let size = sizes[r];
            if possible[r][0] < size[0] || possible[r][1] < size[1] {
                failing.push((r as u32, Shortfall::TooFew));
            } else if forced[r][0] > size[0] || forced[r][1] > size[1] {
                failing.push((r as u32, Shortfall::TooMany));
            }
        }
        if failing.is_empty() {
            Ok(())
        } else {
            Err(Fill::Regions(failing))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::solve::backtrack::neighbour_arrays;
    use proptest::prelude::*;

    /// Whether `kept` (updated take by take) and a fresh labelling of the same free squares
    /// agree: the same partition, the same sizes.
    fn agrees(kept: &Regions, graph: &Graph) -> bool {
        let fresh = Regions::new(graph);
        let n = graph.time.len();
        let mut map = std::collections::HashMap::new();
        for s in (0..n as u32).filter(|&s| graph.is_free(s)) {
            let (a, b) = (kept.of(s), fresh.of(s));
            if *map.entry(a).or_insert(b) != b {
                return false;
            }
        }
        let mut pairs: Vec<_> = map.into_iter().collect();
        pairs.sort_unstable();
        pairs.dedup_by_key(|p| p.1);
        let sizes_agree = pairs
            .iter()
            .all(|&(a, b)| kept.sizes()[a as usize] == fresh.sizes()[b as usize]);
        // Every region of the fresh labelling is one of the kept ones, and the kept ones not
        // mapped are empty.
        let mapped: std::collections::HashSet<u32> = pairs.iter().map(|p| p.0).collect();
        let rest_empty = (0..kept.sizes().len() as u32)
            .filter(|r| !mapped.contains(r))
            .all(|r| kept.sizes()[r as usize] == [0, 0]);
        sizes_agree && pairs.len() == fresh.sizes().len() && rest_empty
    }

    proptest! {
        /// Squares taken in any order and given back in reverse keep the regions a fresh
        /// labelling finds, at every step.
        #[test]
        fn takes_and_give_backs_match_a_fresh_labelling(
            rows in 3u32..9,
            cols in 3u32..12,
            order in proptest::collection::vec(any::<u32>(), 1..120),
            backs in proptest::collection::vec(any::<bool>(), 1..120),
        ) {
            let board = Board::new(rows, cols).unwrap();
            let n = board.len();
            let (nbr, nbr_len) = neighbour_arrays(board);
            let class_of: Vec<u8> =
                board.squares().map(|s| u8::from(s.is_corner_colour())).collect();
            let mut time = vec![0u32; n];
            time[0] = 1; // one square taken from the start, as a constrained move is
            macro_rules! graph {
                ($time:expr) => {
                    Graph { nbr: &nbr, nbr_len: &nbr_len, time: $time, class_of: &class_of }
                };
            }
            let mut regions = Regions::new(&graph!(&time));
            let mut taken: Vec<u32> = Vec::new();
            for (i, pick) in order.iter().enumerate() {
                let give_back = backs[i % backs.len()] && !taken.is_empty();
                if give_back {
                    let s = taken.pop().unwrap();
                    time[s as usize] = 0;
                    regions.give_back(&graph!(&time), s);
                } else {
                    let free: Vec<u32> = (0..n as u32).filter(|&s| time[s as usize] == 0).collect();
                    if free.is_empty() {
                        continue;
                    }
                    let s = free[*pick as usize % free.len()];
                    time[s as usize] = 2;
                    regions.take(&graph!(&time), s);
                    taken.push(s);
                }
                prop_assert!(agrees(&regions, &graph!(&time)), "after step {i}");
            }
        }
    }
}
