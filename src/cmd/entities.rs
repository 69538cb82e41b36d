//! `zhnovel entities`: the entity table of a book on stdout.

use crate::cli::{EntitiesArgs, FormatArg, Plan};
use crate::cmd::{progress_bar, read_book};
use anyhow::Result;
use std::process::ExitCode;
use zhnovel::analysis::analyze_book;
use zhnovel::output::{write_rows, TableFormat};

pub fn run(args: &EntitiesArgs, quiet: bool) -> Result<ExitCode> {
    if args.table.format == FormatArg::Sqlite {
        return Err(zhnovel::Error::Usage(
            "--format sqlite writes a file: use `zhnovel analyze -o DIR --format sqlite`".into(),
        )
        .into());
    }
    let plan = Plan::new(&args.input, &args.lexicon, Some(&args.table))?;
    let chapters = read_book(&plan, &args.paths)?;
    let bar = progress_bar(chapters.len(), quiet, "entities");
    let tables = analyze_book(&chapters, &plan.engines(), &plan.count, &|| bar.inc(1));
    bar.finish_and_clear();
    // No BOM on a terminal or pipe: it is for spreadsheet files.
    let format = match plan.format {
        TableFormat::Csv { .. } => TableFormat::Csv { bom: false },
        f => f,
    };
    write_rows(std::io::stdout().lock(), format, &tables.entities).map_err(|source| {
        zhnovel::Error::Write {
            path: "-".into(),
            source,
        }
    })?;
    Ok(ExitCode::SUCCESS)
}
