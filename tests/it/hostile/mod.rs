//! Untrusted files: the two hostile sets (built here in Rust) and the watched reader process that
//! keeps every read bounded.

mod set1;
mod set2;
mod watched;
