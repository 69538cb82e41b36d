//! `zhnovel entities`: the entity table of a book on stdout.

use crate::cli::{EntitiesArgs, FormatArg, Plan};
use anyhow::Result;
use std::process::ExitCode;
use zhnovel::analysis::analyze_book;
use zhnovel::output::{write_rows, TableFormat};

pub fn run(plan: &Plan, args: &EntitiesArgs) -> Result<ExitCode> {
    if args.form.format == FormatArg::Sqlite {
        return Err(zhnovel::Error::Usage(
            "--format sqlite writes a file: use `zhnovel analyze -o DIR --format sqlite`".into(),
        )
        .into());
    }
    let chapters = plan.read_book(&args.paths)?;
    let bar = plan.progress(chapters.len(), "entities");
    let tables = analyze_book(&chapters, &plan.engines()?, &plan.count, &|| bar.inc(1));
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
