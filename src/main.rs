//! The `knights-tour` command: a thin shell over the library.

fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(knights_tour::cli::main())
}
