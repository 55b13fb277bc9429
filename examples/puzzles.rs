//! Knight's-tour puzzles (issue 18): for 6x6, 8x8 and 10x10 boards at each difficulty, make
//! puzzles (seeds 1..=N) and time the proof that each answer is unique (the joint search's
//! exhaustive count, stopped at 2), and with `PUZZLES_PLAIN=1` the plain backtracking count of
//! the same clues for comparison (capped at 10^8 nodes).
//!
//! ```text
//! cargo run --release --example puzzles -- [PUZZLES_PER_CELL] [SIZES, default 6,8,10]
//! ```

use std::time::{Duration, Instant};

use knights_tour::board::Board;
use knights_tour::puzzle::{clues_for, make, Difficulty};
use knights_tour::solve::{backtrack, joint, rng_from_seed, Budget};

fn main() {
    let per: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(5);
    let sizes: Vec<u32> = std::env::args()
        .nth(2)
        .map(|a| a.split(',').filter_map(|s| s.parse().ok()).collect())
        .unwrap_or_else(|| vec![6, 8, 10]);
    let plain_too = std::env::var_os("PUZZLES_PLAIN").is_some();
    for size in sizes {
        let board = Board::new(size, size).unwrap();
        for difficulty in [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard] {
            let clues = clues_for(board, difficulty);
            let (mut made, mut slowest, mut total, mut made_time) =
                (0, Duration::ZERO, Duration::ZERO, Duration::ZERO);
            let mut plain_total = Duration::ZERO;
            for seed in 1..=per {
                let started = Instant::now();
                let Ok(puzzle) = make(
                    board,
                    clues,
                    &mut rng_from_seed(seed),
                    &Budget::time(Duration::from_secs(60)),
                ) else {
                    println!("  {board} {difficulty:?} seed {seed}: none within 60 s");
                    continue;
                };
                made_time += started.elapsed();
                made += 1;
                let req = puzzle.request();
                let proof = Instant::now();
                let c = joint::count(&req, Some(2), &Budget::unlimited(), |_| {});
                let took = proof.elapsed();
                assert!(c.exhaustive && c.tours == 1);
                total += took;
                slowest = slowest.max(took);
                if plain_too {
                    let plain = Instant::now();
                    let p =
                        backtrack::enumerate(&req, Some(2), &Budget::nodes(100_000_000), |_| true);
                    plain_total += plain.elapsed();
                    assert!(!p.exhaustive || p.count == 1);
                }
            }
            println!(
                "{board} {difficulty:?} ({clues} clues): {made}/{per} made, mean {:.3} s to make; \
                 uniqueness proof mean {:.4} s, slowest {:.4} s; plain count mean {:.4} s",
                made_time.as_secs_f64() / made.max(1) as f64,
                total.as_secs_f64() / made.max(1) as f64,
                slowest.as_secs_f64(),
                plain_total.as_secs_f64() / made.max(1) as f64,
            );
        }
    }
}
