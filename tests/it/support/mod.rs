//! What the integration tests share: scratch folders and commands, workbooks built and looked
//! into, the tours they use, and the outside programs and corpora some tests need.

pub mod grid_check;
pub mod hostile_kit;
pub mod pty;
pub mod sampled;
pub mod schema;
pub mod typing;
pub mod workdir;
pub mod xlsx_bytes;

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

/// The built `knights-tour`, ready for arguments.
pub fn cmd() -> Command {
    Command::cargo_bin("knights-tour").unwrap()
}

/// `fixtures/REL` in the repository.
pub fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel)
}

/// `knights-tour verify --json ARGS`: the report and the exit code.
pub fn json_of(args: &[&str]) -> (Value, i32) {
    let out = cmd()
        .arg("verify")
        .arg("--json")
        .args(args)
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).expect("stdout is one JSON document");
    (doc, out.status.code().unwrap())
}

/// Whether `program` is an executable file in a folder of `PATH`.
pub fn on_path(program: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|path| {
        std::env::split_paths(&path).any(|dir| {
            std::fs::metadata(dir.join(program)).is_ok_and(|m| {
                use std::os::unix::fs::PermissionsExt;
                m.is_file() && m.permissions().mode() & 0o111 != 0
            })
        })
    })
}

/// Fail the test, naming what to install, unless `program` is on `PATH`. For the tests behind
/// the `external` feature: once the feature asks for them, a missing program is a failure,
/// never a silent pass.
pub fn require_program(program: &str, install: &str) {
    assert!(
        on_path(program),
        "`{program}` is not on PATH: this test needs it; install it with `{install}` \
         (or run without --features external)"
    );
}

/// The folder `../shared/SUB` beside the repository, for the tests behind the `corpora`
/// feature; fails the test, naming the folder, when it is absent.
pub fn corpus(sub: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared")
        .join(sub);
    assert!(
        dir.is_dir(),
        "{} is absent: this test reads the shared corpora in ../shared beside the repository \
         (or run without --features corpora)",
        dir.display()
    );
    dir
}

/// A closed 8x8 tour as (row, col) in move order.
pub const CLOSED_8X8: [(u32, u32); 64] = [
    (0, 0),
    (2, 1),
    (4, 0),
    (6, 1),
    (7, 3),
    (6, 5),
    (7, 7),
    (5, 6),
    (7, 5),
    (6, 7),
    (4, 6),
    (2, 7),
    (0, 6),
    (1, 4),
    (0, 2),
    (1, 0),
    (3, 1),
    (5, 0),
    (7, 1),
    (5, 2),
    (6, 0),
    (7, 2),
    (6, 4),
    (7, 6),
    (5, 7),
    (3, 6),
    (1, 7),
    (0, 5),
    (2, 6),
    (0, 7),
    (1, 5),
    (0, 3),
    (1, 1),
    (3, 0),
    (4, 2),
    (2, 3),
    (0, 4),
    (1, 6),
    (3, 7),
    (2, 5),
    (4, 4),
    (6, 3),
    (5, 1),
    (7, 0),
    (6, 2),
    (5, 4),
    (3, 5),
    (4, 7),
    (6, 6),
    (7, 4),
    (5, 5),
    (4, 3),
    (2, 2),
    (0, 1),
    (1, 3),
    (3, 4),
    (5, 3),
    (3, 2),
    (2, 4),
    (4, 5),
    (3, 3),
    (4, 1),
    (2, 0),
    (1, 2),
];
