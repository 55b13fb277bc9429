//! How the hand method (`generate --method hand`) fares on a board, over many seeds: the walks
//! that failed before each tour, the runs Step 3 inserted, and the time. This is how the boards
//! it takes were chosen (`solve::hand::check_board`).
//!
//! ```text
//! cargo run --release --example hand_boards -- 8 8 100       # rows cols seeds
//! cargo run --release --example hand_boards -- 8 8 20 each   # one line per seed
//! ```

use knights_tour::board::Board;
use knights_tour::solve::{hand, rng_from_seed, Budget};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: u32| {
        args.get(i)
            .map_or(Ok(default), |a| a.parse::<u32>())
            .unwrap_or_else(|e| panic!("argument {}: {e}", i + 1))
    };
    let (rows, cols, seeds) = (number(0, 8), number(1, 8), number(2, 100));
    let each = args.get(3).is_some();
    let board = Board::new(rows, cols).expect("a board size");
    let started = std::time::Instant::now();
    let (mut failed_seeds, mut failed_walks, mut most_walks, mut slowest) = (0, 0, 0, 0.0f64);
    let mut runs = 0;
    for seed in 0..u64::from(seeds) {
        let t = std::time::Instant::now();
        match hand::build(board, None, &mut rng_from_seed(seed), &Budget::unlimited()) {
            Ok(built) => {
                assert!(built.tour.is_closed() && built.tour.check().is_ok());
                failed_walks += built.failed.len();
                most_walks = most_walks.max(built.failed.len() + 1);
                runs += built.insertions.len();
                if each {
                    let lengths: Vec<usize> =
                        built.insertions.iter().map(|i| i.squares.len()).collect();
                    println!(
                        "seed {seed}: Step 1 {} squares, cycle {}, runs {lengths:?}, {} failed walks",
                        built.edges.len(),
                        built.cycle.len(),
                        built.failed.len()
                    );
                }
            }
            Err(e) => {
                failed_seeds += 1;
                eprintln!("seed {seed}: {e}");
            }
        }
        slowest = slowest.max(t.elapsed().as_secs_f64());
    }
    println!(
        "{board}: {seeds} seeds, {failed_seeds} without a tour; {failed_walks} failed walks \
         (at most {most_walks} walks for a tour); {:.2} runs inserted a tour; {:.3} s in all, \
         at most {slowest:.3} s a seed",
        runs as f64 / f64::from(seeds.max(1)),
        started.elapsed().as_secs_f64()
    );
}
