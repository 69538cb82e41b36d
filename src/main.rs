//! The `zhnovel` binary: parses arguments, builds a plan, runs one
//! subcommand and maps the outcome to an exit code (0 ok, 1 data error,
//! 2 usage error).

mod cli;
mod cmd;

use clap::Parser;
use cli::{Cli, Command};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(n) = cli.threads {
        if n == 0 {
            eprintln!("zhnovel: --threads must be at least 1");
            return ExitCode::from(2);
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
            .expect("the global thread pool is built once, first");
    }
    let quiet = cli.quiet;
    let result = match &cli.command {
        Command::Analyze(a) => cmd::analyze::run(a, quiet),
        Command::Split(a) => cmd::split::run(a, quiet),
        Command::Convert(a) => cmd::convert::run(a),
        Command::Segment(a) => cmd::segment::run(a),
        Command::Discover(a) => cmd::discover::run(a),
        Command::Entities(a) => cmd::entities::run(a, quiet),
        Command::Eval(a) => cmd::eval::run(a),
        Command::Kwic(a) => cmd::kwic::run(a, quiet),
        Command::Train(a) => cmd::train::run(a),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            let lib = err.chain().find_map(|e| e.downcast_ref::<zhnovel::Error>());
            if lib.is_some_and(|e| e.is_broken_pipe())
                || err
                    .chain()
                    .find_map(|e| e.downcast_ref::<std::io::Error>())
                    .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
            {
                return ExitCode::SUCCESS;
            }
            eprintln!("zhnovel: {err:#}");
            match lib.map(|e| e.kind()) {
                Some(zhnovel::error::ErrorKind::Usage) => ExitCode::from(2),
                _ => ExitCode::from(1),
            }
        }
    }
}
