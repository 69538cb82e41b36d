//! `zhnovel discover`: candidate new words with their scores and guessed
//! type, as a table or as jieba user-dictionary lines to review and keep.

use crate::cli::{DiscoverArgs, DiscoverFormat, Plan};
use anyhow::Result;
use serde::Serialize;
use std::io::Write;
use std::process::ExitCode;
use zhnovel::entity::EntityType;
use zhnovel::output::{write_rows, TableFormat};
use zhnovel::rows::Columns;

#[derive(Serialize)]
struct CandidateRow {
    word: String,
    #[serde(rename = "type")]
    kind: &'static str,
    count: u64,
    cohesion: String,
    left_entropy: String,
    right_entropy: String,
    score: String,
}

impl Columns for CandidateRow {
    const COLUMNS: &'static [&'static str] = &[
        "word",
        "type",
        "count",
        "cohesion",
        "left_entropy",
        "right_entropy",
        "score",
    ];
}

pub fn run(plan: &Plan, args: &DiscoverArgs) -> Result<ExitCode> {
    let chapters = plan.read_book(&args.paths)?;
    let texts: Vec<&str> = chapters.iter().map(|c| c.text.text.as_str()).collect();
    if args.format == DiscoverFormat::Names {
        return write_names(plan, &texts, args.top);
    }
    let candidates = plan.recognizer()?.candidates(&texts);
    let top = candidates.into_iter().take(args.top);
    let out = std::io::stdout().lock();
    let write_err = |source| zhnovel::Error::Write {
        path: "-".into(),
        source,
    };
    match args.format {
        DiscoverFormat::Dict => {
            let mut out = std::io::BufWriter::new(out);
            for c in top {
                // Frequency: enough for jieba to keep the word whole.
                let freq = plan
                    .segmenter()?
                    .jieba()
                    .suggest_freq(&c.word)
                    .max(c.count as usize * 10);
                writeln!(
                    out,
                    "{} {} {}",
                    c.word,
                    freq,
                    c.kind.map_or("n", EntityType::jieba_tag)
                )
                .map_err(write_err)?;
            }
            out.flush().map_err(write_err)?;
        }
        DiscoverFormat::Names => unreachable!("written above"),
        f => {
            let rows: Vec<CandidateRow> = top
                .map(|c| CandidateRow {
                    word: c.word,
                    kind: c.kind.map_or("", EntityType::as_str),
                    count: c.count,
                    cohesion: format!("{:.3}", c.cohesion),
                    left_entropy: format!("{:.3}", c.left_entropy),
                    right_entropy: format!("{:.3}", c.right_entropy),
                    score: format!("{:.3}", c.score),
                })
                .collect();
            let format = if f == DiscoverFormat::Tsv {
                TableFormat::Tsv
            } else {
                TableFormat::Csv { bom: false }
            };
            write_rows(out, format, &rows).map_err(write_err)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The book's entities, most mentioned first, as `--names` lines:
/// `name<TAB>type[<TAB>alias|alias]`.
fn write_names(plan: &Plan, texts: &[&str], top: usize) -> Result<ExitCode> {
    let catalog = plan.recognizer()?.discover(texts);
    let mut counts = vec![0u64; catalog.len()];
    for t in texts {
        for m in catalog.find_mentions(t) {
            counts[m.entity as usize] += 1;
        }
    }
    let mut order: Vec<usize> = (0..catalog.len()).filter(|&i| counts[i] > 0).collect();
    order.sort_by(|&a, &b| {
        counts[b]
            .cmp(&counts[a])
            .then_with(|| catalog.entities()[a].name.cmp(&catalog.entities()[b].name))
    });
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let write_err = |source| zhnovel::Error::Write {
        path: "-".into(),
        source,
    };
    for &i in order.iter().take(top) {
        let e = &catalog.entities()[i];
        if e.aliases.is_empty() {
            writeln!(out, "{}\t{}", e.name, e.kind)
        } else {
            writeln!(out, "{}\t{}\t{}", e.name, e.kind, e.aliases.join("|"))
        }
        .map_err(write_err)?;
    }
    out.flush().map_err(write_err)?;
    Ok(ExitCode::SUCCESS)
}
