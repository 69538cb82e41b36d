//! `zhnovel segment`: words of a file or stdin, space-separated (or
//! `word/tag` with `--pos`), one output line per input line, like jieba's
//! own command line. Words are cut on the Simplified form and printed as
//! originally written.

use crate::cli::{Plan, SegmentArgs};
use anyhow::Result;
use std::io::{BufWriter, Write};
use std::process::ExitCode;
use zhnovel::chapter::normalize_newlines;
use zhnovel::decode::decode;
use zhnovel::input::source_arg;
use zhnovel::script::Normalized;

pub fn run(plan: &Plan, args: &SegmentArgs) -> Result<ExitCode> {
    let source = source_arg(args.file.as_deref())?;
    let bytes = source.read()?;
    let text = normalize_newlines(
        &decode(&source.path(), &bytes, plan.read.encoding, plan.read.lossy)?.text,
    );
    let normalized = Normalized::new(text, plan.converter.as_ref());
    let segmenter = plan.segmenter()?;
    let stdout = std::io::stdout().lock();
    let mut out = BufWriter::new(stdout);
    let write_err = |source| zhnovel::Error::Write {
        path: "-".into(),
        source,
    };
    let mut offset = 0;
    let lines: Vec<&str> = normalized.text.split('\n').collect();
    for (i, line) in lines.iter().enumerate() {
        if i + 1 == lines.len() && line.is_empty() {
            break;
        }
        let words = segmenter.tag(line);
        let mut first = true;
        for w in words {
            if !first {
                out.write_all(args.delimiter.as_bytes())
                    .map_err(write_err)?;
            }
            first = false;
            let original = normalized.original(offset + w.start, offset + w.end);
            if args.pos {
                write!(out, "{original}/{}", w.pos).map_err(write_err)?;
            } else {
                out.write_all(original.as_bytes()).map_err(write_err)?;
            }
        }
        out.write_all(b"\n").map_err(write_err)?;
        offset += line.len() + 1;
    }
    out.flush().map_err(write_err)?;
    Ok(ExitCode::SUCCESS)
}
