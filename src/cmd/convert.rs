//! `zhnovel convert`: OpenCC conversion of a file or stdin, to stdout or `-o`.

use crate::cli::{ConvertArgs, Plan};
use anyhow::Result;
use std::io::Write;
use std::process::ExitCode;
use zhnovel::decode::decode;
use zhnovel::input::source_arg;
use zhnovel::output::atomic_write;

pub fn run(plan: &Plan, args: &ConvertArgs) -> Result<ExitCode> {
    let source = source_arg(args.file.as_deref())?;
    let bytes = source.read()?;
    let text = decode(&source.path(), &bytes, plan.read.encoding, false)?.text;
    let converted = plan.converter.convert(&text);
    match &args.output {
        Some(path) => atomic_write(path, |w| w.write_all(converted.as_bytes()))?,
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(converted.as_bytes())
                .and_then(|_| out.flush())
                .map_err(|source| zhnovel::Error::Write {
                    path: "-".into(),
                    source,
                })?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
