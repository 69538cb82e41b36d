//! What `analyze` writes beside a book's tables: the network files
//! (`--graphml`, `--gexf`, `--graph-all`), report.html (unless
//! `--no-report`), and the one-line summary on success.

use crate::cli::AnalyzeArgs;
use anyhow::Result;
use std::path::Path;
use zhnovel::analysis::BookTables;
use zhnovel::output::{write_gexf, write_graphml, write_report, ReportInfo};
use zhnovel::views::{assign_sides, figures, network, report, top_dialogue, Selection};

/// Writes the network files and the report of one book into `dir`.
pub fn write_views(dir: &Path, args: &AnalyzeArgs, book: &str, t: &BookTables) -> Result<()> {
    if args.graphml || args.views.gexf {
        let selection = if args.views.graph_all {
            Selection::ALL
        } else {
            Selection::READABLE
        };
        let mut net = network(
            &t.entities,
            &t.cooccurrence,
            &t.timeline,
            &t.chapter_pairs,
            selection,
        );
        assign_sides(&mut net, &t.relate.relations);
        if args.graphml {
            write_graphml(dir, &net)?;
        }
        if args.views.gexf {
            write_gexf(dir, &net)?;
        }
    }
    if !args.views.no_report {
        let title = if book.is_empty() {
            book_title(args)
        } else {
            book.to_string()
        };
        let mut r = report(
            &title,
            &t.chapters,
            &t.entities,
            &t.cooccurrence,
            &t.timeline,
            &t.chapter_pairs,
        );
        assign_sides(&mut r.network, &t.relate.relations);
        r.dialogue = top_dialogue(&t.relate.dialogue, 30);
        let info = ReportInfo {
            command: format!("zhnovel analyze {}", inputs(args)),
        };
        write_report(dir, &r, &info)?;
    }
    Ok(())
}

/// A book's name for its report: the file stem or folder name of its one
/// input, or the inputs' names joined.
fn book_title(args: &AnalyzeArgs) -> String {
    let names: Vec<String> = args
        .paths
        .iter()
        .map(|p| {
            let p = if p.as_os_str() == "." {
                std::env::current_dir().unwrap_or_else(|_| p.clone())
            } else {
                p.clone()
            };
            p.file_stem()
                .map(|s| s.to_string_lossy().to_string())
                .unwrap_or_else(|| p.display().to_string())
        })
        .collect();
    names.join(" + ")
}

fn inputs(args: &AnalyzeArgs) -> String {
    let names: Vec<String> = args.paths.iter().map(|p| p.display().to_string()).collect();
    names.join(" ")
}

/// The summary of a book: chapters, characters, entities per type.
pub fn summary(t: &BookTables) -> String {
    let f = figures(&t.chapters, &t.entities);
    let types: Vec<String> = f
        .entities
        .iter()
        .map(|(kind, n)| format!("{n} {kind}"))
        .collect();
    format!(
        "{} chapters, {} characters, {} entities ({})",
        f.chapters,
        f.characters,
        f.entities.iter().map(|e| e.1).sum::<usize>(),
        types.join(", ")
    )
}
