//! `zhnovel eval`: each input file analyzed on its own and scored against an
//! answer key; prints precision, recall and F1 per type, then the errors.

use crate::cli::{EvalArgs, Plan};
use anyhow::Result;
use std::process::ExitCode;
use zhnovel::analysis::{analyze_book, load_book};
use zhnovel::entity::EntityType;
use zhnovel::eval::{score, Extracted, Gold, Report};
use zhnovel::input::collect_sources;
use zhnovel::script::{FerrousConverter, ScriptConfig};

pub fn run(args: &EvalArgs) -> Result<ExitCode> {
    let gold = Gold::load(&args.gold)?;
    let plan = Plan::new(&args.input, &args.lexicon, None)?;
    let to_simplified = FerrousConverter::new(ScriptConfig::T2s)?;
    use zhnovel::script::Converter;
    let mut report = Report::default();
    for source in collect_sources(&args.paths)? {
        let (chapters, mut errors) = load_book(
            std::slice::from_ref(&source),
            &plan.read,
            plan.converter.as_ref(),
        );
        if !errors.is_empty() {
            return Err(errors.remove(0).into());
        }
        let tables = analyze_book(&chapters, &plan.engines(), &plan.count, &|| {});
        let extracted: Vec<Extracted> = tables
            .entities
            .iter()
            .filter_map(|e| {
                let kind = EntityType::parse(e.kind)?;
                let mut names = vec![e.entity.clone(), to_simplified.convert(&e.original)];
                for list in [&e.variants, &e.aliases] {
                    names.extend(
                        list.split('|')
                            .filter(|s| !s.is_empty())
                            .map(|s| to_simplified.convert(s)),
                    );
                }
                Some(Extracted { kind, names })
            })
            .collect();
        let path = source.path();
        let file_name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        report.add(score(&gold, &file_name, &extracted));
    }
    println!("{report}");
    let mistakes = report.mistakes_text();
    if !mistakes.is_empty() {
        println!("{mistakes}");
    }
    Ok(ExitCode::SUCCESS)
}
