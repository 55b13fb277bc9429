//! A scratch folder to run the command in, shared by the end-to-end test files (as in xsv's
//! tests): each test gets its own folder, removed when it ends.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

pub struct WorkDir {
    dir: tempfile::TempDir,
}

impl WorkDir {
    pub fn new() -> WorkDir {
        WorkDir {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    /// `knights-tour SUB ARGS...` run inside the folder.
    pub fn cmd(&self, sub: &str, args: &[&str]) -> Command {
        let mut cmd = Command::cargo_bin("knights-tour").unwrap();
        cmd.current_dir(self.dir.path()).arg(sub).args(args);
        cmd
    }

    pub fn generate(&self, args: &[&str]) -> Command {
        self.cmd("generate", args)
    }

    /// The folder itself.
    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// The folder's file names, sorted: what a run left behind.
    pub fn files(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    pub fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.path(name)).unwrap()
    }
}
