//! The `pointsworth` binary: parse the command line, run, map errors to exit codes.

use std::process::ExitCode;

use clap::Parser;
use pointsworth::cli::Cli;
use pointsworth::commands::{AppError, run};

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Err(e) = pointsworth::cancel::install() {
        eprintln!("error: cannot watch for Ctrl-C: {e}");
        return ExitCode::from(2);
    }
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(AppError::Regression(message)) => {
            eprintln!("{message}");
            ExitCode::from(1)
        }
        Err(e) => {
            report_error(&e);
            ExitCode::from(2)
        }
    }
}

fn report_error(e: &AppError) {
    eprintln!("error: {e}");
    if let AppError::Other(inner) = e {
        for cause in inner.chain().skip(1) {
            eprintln!("  caused by: {cause}");
        }
    }
}
