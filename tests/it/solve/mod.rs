//! The solvers (`knights_tour::solve`): the runner every command goes through, each method, the
//! existence rules, constraints and races, every tour re-checked by the verifier's logic.

mod all_boards;
mod backtrack;
mod construct;
mod existence;
mod joint;
mod race;
mod runner;
mod search;
mod segments;
mod steered;
mod warnsdorff;
