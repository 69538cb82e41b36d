//! `zhnovel kwic`: every mention of one entity in its context.

use crate::cli::{KwicArgs, KwicFormat, Plan};
use anyhow::{bail, Result};
use std::process::ExitCode;
use zhnovel::analysis::analyze_book;
use zhnovel::kwic::{find_entity, kwic};
use zhnovel::output::{write_kwic_plain, write_rows, TableFormat};

pub fn run(plan: &Plan, args: &KwicArgs) -> Result<ExitCode> {
    let chapters = plan.read_book(&args.paths)?;
    let bar = plan.progress(chapters.len(), "kwic");
    let tables = analyze_book(&chapters, &plan.engines()?, &plan.count, &|| bar.inc(1));
    bar.finish_and_clear();
    let Some(entity) = find_entity(&tables, &args.name, plan.converter.as_ref()) else {
        bail!("{}: not an entity of this book", args.name);
    };
    let rows = kwic(&chapters, &tables, entity, args.width);
    let mut out = std::io::stdout().lock();
    let written = match args.format {
        KwicFormat::Plain => write_kwic_plain(&mut out, &rows),
        KwicFormat::Csv => write_rows(&mut out, TableFormat::Csv { bom: false }, &rows),
    };
    written.map_err(|source| zhnovel::Error::Write {
        path: "-".into(),
        source,
    })?;
    Ok(ExitCode::SUCCESS)
}
