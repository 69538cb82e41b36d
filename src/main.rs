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
    let quiet = cli.quiet;
    if let Some(n) = cli.threads.filter(|&n| n > 0) {
        let max = max_threads();
        if n > max && !quiet {
            eprintln!(
                "zhnovel: warning: --threads {n} is more than this machine can use; using {max}"
            );
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(n.min(max))
            .build_global()
            .expect("the global thread pool is built once, first");
    }
    let result = cli::Plan::new(&cli).and_then(|plan| match &cli.command {
        Command::Analyze(a) => cmd::analyze::run(&plan, a),
        Command::Split(a) => cmd::split::run(&plan, a),
        Command::Convert(a) => cmd::convert::run(&plan, a),
        Command::Segment(a) => cmd::segment::run(&plan, a),
        Command::Discover(a) => cmd::discover::run(&plan, a),
        Command::Entities(a) => cmd::entities::run(&plan, a),
        Command::Eval(a) => cmd::eval::run(&plan, a),
        Command::Kwic(a) => cmd::kwic::run(&plan, a),
        Command::Train(a) => cmd::train::run(&plan, a),
        Command::Merge(a) => cmd::merge::run(&plan, a),
    });
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
            eprintln!("zhnovel: {}", message(&err));
            match lib.map(|e| e.kind()) {
                Some(zhnovel::error::ErrorKind::Usage) => ExitCode::from(2),
                _ => ExitCode::from(1),
            }
        }
    }
}

/// The most worker threads worth starting: 4 per core (at least 8). More
/// only cost memory (each has its own partial tables) and start-up time.
fn max_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    (4 * cores).max(8)
}

/// The error and its causes on one line, each said once: the library's
/// errors already name their OS error (`x.txt: cannot read: …`), so the
/// chain stops there instead of repeating it.
fn message(err: &anyhow::Error) -> String {
    let mut parts = Vec::new();
    for cause in err.chain() {
        parts.push(cause.to_string());
        if cause.downcast_ref::<zhnovel::Error>().is_some() {
            break;
        }
    }
    parts.join(": ")
}
