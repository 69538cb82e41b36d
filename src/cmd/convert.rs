//! `zhnovel convert`: OpenCC conversion of a file or stdin, to stdout or `-o`.

use crate::cli::{converter_for, AnyConfig, ConvertArgs};
use anyhow::Result;
use std::io::Write;
use std::process::ExitCode;
use zhnovel::decode::{decode, encoding_for_name};
use zhnovel::input::source_arg;
use zhnovel::output::atomic_write;
use zhnovel::script::ScriptConfig;

pub fn run(args: &ConvertArgs) -> Result<ExitCode> {
    let config = match args.config {
        AnyConfig::T2s => ScriptConfig::T2s,
        AnyConfig::S2t => ScriptConfig::S2t,
        AnyConfig::Tw2s => ScriptConfig::Tw2s,
        AnyConfig::S2tw => ScriptConfig::S2tw,
        AnyConfig::Hk2s => ScriptConfig::Hk2s,
        AnyConfig::S2hk => ScriptConfig::S2hk,
    };
    let encoding = args
        .encoding
        .as_deref()
        .map(encoding_for_name)
        .transpose()?;
    let converter = converter_for(config, args.opencc_config.as_deref())?;
    let source = source_arg(args.file.as_deref())?;
    let bytes = source.read()?;
    let text = decode(&source.path(), &bytes, encoding, false)?.text;
    let converted = converter.convert(&text);
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
