//! Thin entry point: parse arguments, run, map the outcome to an exit code.

fn main() -> std::process::ExitCode {
    diskdoc::commands::main_with_args(std::env::args_os().collect()).into()
}
