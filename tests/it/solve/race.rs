//! Races of search copies (`solve::race`): the answer kept is the one found in the fewest of
//! its copy's nodes, whichever thread is faster, so a seed gives one tour on any machine.
//! Scripted copies stand in for searches here, with one made slow on purpose.

use std::time::Duration;

use knights_tour::board::Board;
use knights_tour::solve::construct::open_tour;
use knights_tour::solve::race::{Race, COPIES};
use knights_tour::solve::search::{Answer, Search};
use knights_tour::solve::{rng_from_seed, Budget, Method, Rng};
use knights_tour::tour::Tour;

/// A copy that answers `tour` at its `answer_at`-th step, each step `nodes` nodes long and
/// `delay` long in time.
#[derive(Clone)]
struct Scripted {
    nodes: u64,
    answer_at: u32,
    delay: Duration,
    tour: Tour,
    steps: u32,
}

impl Search for Scripted {
    fn method(&self) -> Method {
        Method::Rotations
    }

    fn exhaustive(&self) -> bool {
        false
    }

    fn step(&mut self, budget: &Budget, _rng: &mut Rng) -> (Answer, u64) {
        std::thread::sleep(self.delay);
        self.steps += 1;
        let nodes = budget.max_nodes.map_or(self.nodes, |m| m.min(self.nodes));
        if self.steps == self.answer_at && nodes == self.nodes {
            (found_by(&self.tour), nodes)
        } else {
            (Answer::Unfinished, nodes)
        }
    }
}

fn found_by(tour: &Tour) -> Answer {
    Answer::Found {
        tour: tour.clone(),
        by: Method::Rotations,
    }
}

/// Two different tours to tell the copies' answers apart.
fn tours() -> (Tour, Tour) {
    let tour = open_tour(Board::new(5, 5).unwrap()).unwrap();
    (tour.clone(), tour.reversed())
}

fn copies(scripts: Vec<Scripted>) -> Race<'static, Scripted> {
    assert_eq!(scripts.len(), COPIES);
    Race::new(COPIES, move |i| scripts[i].clone())
}

fn script(nodes: u64, answer_at: u32, delay_ms: u64, tour: &Tour) -> Scripted {
    Scripted {
        nodes,
        answer_at,
        delay: Duration::from_millis(delay_ms),
        tour: tour.clone(),
        steps: 0,
    }
}

fn race(scripts: Vec<Scripted>, budget: Budget) -> (Answer, u64) {
    copies(scripts).step(&budget, &mut rng_from_seed(1))
}

#[test]
fn the_answer_in_fewer_nodes_wins_though_its_copy_is_slower() {
    let (a, b) = tours();
    // Copy 0 answers at 30 nodes, slowly; copy 1 at 50 nodes, at once.
    let (found, used) = race(
        vec![script(10, 3, 30, &a), script(10, 5, 0, &b)],
        Budget::nodes(1000),
    );
    assert_eq!(found, found_by(&a));
    assert_eq!(used, 30 + 50);
    // The other way round: copy 1 is slow and answers first in nodes.
    let (found, _) = race(
        vec![script(10, 5, 0, &a), script(10, 3, 30, &b)],
        Budget::nodes(1000),
    );
    assert_eq!(found, found_by(&b));
}

#[test]
fn a_tie_goes_to_the_lower_copy() {
    let (a, b) = tours();
    for delays in [(30, 0), (0, 30)] {
        let (found, _) = race(
            vec![script(10, 4, delays.0, &a), script(10, 4, delays.1, &b)],
            Budget::nodes(1000),
        );
        assert_eq!(found, found_by(&a), "{delays:?}");
    }
}

#[test]
fn a_copy_that_cannot_win_stops_and_the_budget_is_shared() {
    let (a, b) = tours();
    // Copy 1 answers at 20 nodes at once; copy 0 never would, and stops once it has used 20
    // rather than go on through its 50 steps of 20 ms (a loaded machine may start copy 1
    // late, so the bound is loose).
    let (found, used) = race(
        vec![script(10, 0, 20, &a), script(10, 2, 0, &b)],
        Budget::nodes(1000),
    );
    assert_eq!(found, found_by(&b));
    assert!((40..=200).contains(&used), "{used}");
    // Neither answers within its share (half of 60 nodes, steps of 10: 3 steps each).
    let (found, used) = race(
        vec![script(10, 4, 0, &a), script(10, 4, 0, &a)],
        Budget::nodes(60),
    );
    assert_eq!(found, Answer::Unfinished);
    assert_eq!(used, 60);
}

#[test]
fn the_copies_keep_their_state_between_races() {
    let (a, b) = tours();
    let mut copies = copies(vec![script(10, 6, 0, &a), script(10, 9, 0, &b)]);
    let mut race = |n| copies.step(&Budget::nodes(n), &mut rng_from_seed(1));
    // Four steps each, then two more: copy 0 answers at its sixth.
    assert!(matches!(race(80).0, Answer::Unfinished));
    assert_eq!(race(80).0, found_by(&a));
}

#[test]
fn after_an_answer_the_losing_copies_start_afresh() {
    let (a, b) = tours();
    // Copy 1 answers at its second step (20 nodes, 10 ms); copy 0, slower, would answer at its
    // fourth, and stops wherever it is when it sees copy 1's answer: a point the threads'
    // timing decides, so it is made afresh.
    let mut copies = copies(vec![script(10, 4, 15, &a), script(10, 2, 5, &b)]);
    let mut race = |n| copies.step(&Budget::nodes(n), &mut rng_from_seed(1));
    assert_eq!(race(1000).0, found_by(&b));
    // Afresh, copy 0 needs 40 nodes: not within a share of 30, whatever step it had reached.
    assert_eq!(race(60), (Answer::Unfinished, 60));
    assert_eq!(race(1000).0, found_by(&a));
}
