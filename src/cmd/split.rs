//! `zhnovel split`: a whole-novel file → one UTF-8 file per chapter, named
//! with a zero-padded index and the title.

use crate::cli::{Plan, SplitArgs};
use anyhow::Result;
use std::process::ExitCode;
use zhnovel::chapter::split_chapters;
use zhnovel::decode::decode;
use zhnovel::input::SourcePath;
use zhnovel::output::{atomic_write, prepare_output_dir};

pub fn run(plan: &Plan, args: &SplitArgs) -> Result<ExitCode> {
    let read = &plan.read;
    let source = if args.novel.as_os_str() == "-" {
        SourcePath::Stdin
    } else if args.novel.is_file() {
        SourcePath::File(args.novel.clone())
    } else {
        return Err(zhnovel::Error::Missing {
            path: args.novel.clone(),
        }
        .into());
    };
    let bytes = source.read()?;
    let decoded = decode(&source.path(), &bytes, read.encoding, read.lossy)?;
    let stem = args
        .novel
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    let chapters = split_chapters(&decoded.text, &read.headings, &stem);
    prepare_output_dir(&args.output, args.force)?;
    let width = chapters.len().to_string().len().max(3);
    for (i, c) in chapters.iter().enumerate() {
        let name = format!("{:0width$}_{}.txt", i + 1, safe_file_name(&c.title));
        atomic_write(&args.output.join(name), |w| {
            use std::io::Write;
            w.write_all(c.title.as_bytes())?;
            w.write_all(b"\n")?;
            w.write_all(c.text.as_bytes())?;
            w.write_all(b"\n")
        })?;
    }
    if !plan.quiet {
        eprintln!(
            "zhnovel: {} chapters written to {}",
            chapters.len(),
            args.output.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// A title as a file name: path separators and control characters become `_`,
/// spaces `_`, and it is cut to 40 characters.
fn safe_file_name(title: &str) -> String {
    title
        .chars()
        .map(|c| {
            if c.is_control() || "/\\:*?\"<>| 　".contains(c) {
                '_'
            } else {
                c
            }
        })
        .take(40)
        .collect()
}
