//! One file per subcommand, each with `run(args) -> Result<ExitCode>`.

pub mod analyze;
pub mod convert;
pub mod discover;
pub mod entities;
pub mod eval;
pub mod kwic;
pub mod merge;
pub mod segment;
pub mod split;
pub mod train;
pub mod views;

use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::PathBuf;
use zhnovel::book::{load_book, ChapterText};
use zhnovel::input::collect_sources;

use crate::cli::Plan;

/// A progress bar on stderr when it is a terminal, the job is long and not `-q`.
pub fn progress_bar(len: usize, quiet: bool, what: &str) -> ProgressBar {
    if quiet || len < 20 || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len as u64);
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} {elapsed}")
            .expect("progress template is valid")
            .progress_chars("=> "),
    );
    bar.set_message(what.to_string());
    bar
}

/// Reads one book from paths; the first failing source is an error (the
/// `analyze --keep-going` path handles failures itself).
pub fn read_book(plan: &Plan, paths: &[PathBuf]) -> Result<Vec<ChapterText>> {
    let sources = collect_sources(paths)?;
    let (chapters, mut errors) = load_book(&sources, &plan.read, plan.converter.as_ref());
    if !errors.is_empty() {
        return Err(errors.remove(0).into());
    }
    Ok(chapters)
}
