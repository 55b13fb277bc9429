//! `completions` and `man` are made from the clap definitions: every subcommand and every flag
//! that `--help` knows is in every shell's script and on the pages, whoever adds them.

use clap::CommandFactory;
use predicates::prelude::*;

use crate::support::cmd;

/// Every visible subcommand with its long flags, from the same definitions `--help` prints.
fn subcommands_and_flags() -> Vec<(String, Vec<String>)> {
    let mut cli = knights_tour::cli::Cli::command();
    cli.build();
    cli.get_subcommands()
        .filter(|s| !s.is_hide_set() && s.get_name() != "help")
        .map(|s| {
            let flags = s
                .get_arguments()
                .filter(|a| !a.is_hide_set())
                .filter_map(|a| a.get_long().map(str::to_string))
                .filter(|l| l != "help")
                .collect();
            (s.get_name().to_string(), flags)
        })
        .collect()
}

fn stdout_of(args: &[&str]) -> String {
    let out = cmd()
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

#[test]
fn every_shell_completes_every_subcommand_and_flag() {
    let all = subcommands_and_flags();
    assert!(all.len() >= 6, "{all:?}");
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let script = stdout_of(&["completions", shell]);
        for (sub, flags) in &all {
            assert!(script.contains(sub.as_str()), "{shell}: {sub}");
            for flag in flags {
                // fish spells a long flag `-l start`, the others `--start`.
                let spelled = match shell {
                    "fish" => format!("-l {flag}"),
                    _ => format!("--{flag}"),
                };
                assert!(script.contains(&spelled), "{shell}: {sub} --{flag}");
            }
        }
    }
    cmd()
        .args(["completions", "tcsh"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("bash"));
}

/// `completions bash` saved in a temp folder (kept while the first value lives).
fn bash_script() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("knights-tour.bash");
    std::fs::write(&path, stdout_of(&["completions", "bash"])).unwrap();
    (dir, path)
}

/// The bash script is valid bash.
#[test]
fn the_bash_script_parses() {
    let (_dir, path) = bash_script();
    let out = std::process::Command::new("bash")
        .arg("-n")
        .arg(&path)
        .output()
        .expect("bash runs (install bash)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// What bash offers after typing `words` and pressing TAB (the last word is the one being
/// completed), with the script sourced as bash-completion would.
fn bash_completes(script: &std::path::Path, words: &[&str]) -> Vec<String> {
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let cword = words.len() - 1;
    let program = format!(
        "source '{}'\nCOMP_WORDS=({})\nCOMP_CWORD={cword}\n_knights__tour knights-tour '{}' '{}'\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
        script.display(),
        quoted.join(" "),
        words[cword],
        words[cword - 1],
    );
    let out = std::process::Command::new("bash")
        .arg("-c")
        .arg(program)
        .output()
        .expect("bash runs (install bash)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// bash completes every subcommand's own flags, not only the subcommand names (clap_complete
/// wrote the two halves of its state machine under different names; `completions::script`
/// mends that).
#[test]
fn bash_completes_the_flags_of_every_subcommand() {
    let (_dir, path) = bash_script();
    let names = bash_completes(&path, &["knights-tour", "gen"]);
    assert_eq!(names, ["generate"]);
    for (sub, flags) in subcommands_and_flags() {
        for flag in flags {
            let typed = format!("--{flag}");
            let offered = bash_completes(&path, &["knights-tour", &sub, &typed]);
            assert!(offered.contains(&typed), "{sub} {typed}: {offered:?}");
        }
    }
    let mut offered = bash_completes(&path, &["knights-tour", "generate", "--ti"]);
    offered.sort();
    assert_eq!(offered, ["--tiebreak", "--timeout"]);
}

#[test]
fn the_man_pages_cover_every_subcommand_and_flag() {
    let main = stdout_of(&["man"]);
    assert!(
        main.starts_with(".ie") || main.contains(".TH knights-tour 1"),
        "{main}"
    );
    for (sub, flags) in subcommands_and_flags() {
        // roff escapes the hyphens.
        assert!(
            main.contains(&format!("knights\\-tour\\-{sub}(1)")),
            "the main page lists {sub}"
        );
        let page = stdout_of(&["man", &sub]);
        assert!(
            page.contains(&format!(".TH knights-tour-{sub} 1")),
            "{sub}: {}",
            &page[..page.len().min(300)]
        );
        for flag in flags {
            let escaped = format!("\\-\\-{}", flag.replace('-', "\\-"));
            assert!(page.contains(&escaped), "man {sub}: --{flag}");
        }
    }
    cmd()
        .args(["man", "nonsense"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("generate").and(predicate::str::contains("nonsense")));
}
