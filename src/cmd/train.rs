//! `zhnovel train`: labels the candidates of books with answer keys, whole
//! books and each chapter on its own, and fits the learned entity model.

use crate::cli::{Plan, TrainArgs};
use anyhow::{bail, Result};
use rayon::prelude::*;
use std::collections::HashSet;
use std::io::Write;
use std::process::ExitCode;
use zhnovel::entity::model::{Model, CLASSES};
use zhnovel::entity::tagger::Tagger;
use zhnovel::entity::FEATURES;
use zhnovel::key::{load_not_names, BookKey};
use zhnovel::output::atomic_write;
use zhnovel::train::{examples, tagger_sentences};

pub fn run(plan: &Plan, args: &TrainArgs) -> Result<ExitCode> {
    if args.books.len() != args.keys.len() {
        bail!(
            "give one --key per --book ({} books, {} keys)",
            args.books.len(),
            args.keys.len()
        );
    }
    let recognizer = plan.recognizer()?;
    let mut all = Vec::new();
    let mut sentences = Vec::new();
    let mut tagger_provenance = vec![
        format!("zhnovel {} name tagger", env!("CARGO_PKG_VERSION")),
        format!(
            "trained by `zhnovel train --tagger-output` ({} passes, averaged perceptron) on:",
            args.epochs
        ),
    ];
    let mut provenance = vec![
        format!("zhnovel {} entity model", env!("CARGO_PKG_VERSION")),
        format!(
            "trained by `zhnovel train` ({} steps, l2 {}, {} hidden units) on:",
            args.steps, args.l2, args.hidden
        ),
    ];
    for (book, key_path) in args.books.iter().zip(&args.keys) {
        let key = BookKey::load(key_path)?;
        let not_path = key_path
            .to_string_lossy()
            .strip_suffix("-key.tsv")
            .map(|stem| std::path::PathBuf::from(format!("{stem}-notnames.txt")));
        let not_names = match not_path.filter(|p| p.exists()) {
            Some(p) => load_not_names(&p)?,
            None => HashSet::new(),
        };
        let chapters = plan.read_book(std::slice::from_ref(book))?;
        let texts: Vec<&str> = chapters.iter().map(|c| c.text.text.as_str()).collect();
        let rows = recognizer.feature_rows(&texts);
        if args.tagger_output.is_some() {
            let candidates: Vec<(String, u32)> =
                rows.iter().map(|(w, n, _)| (w.clone(), *n)).collect();
            let s = tagger_sentences(&texts, &key, &not_names, &candidates);
            tagger_provenance.push(format!(
                "  {} with {}: {} runs, {} characters",
                file_name(book),
                file_name(key_path),
                s.len(),
                s.iter().map(|x| x.chars.len()).sum::<usize>()
            ));
            sentences.extend(s);
        }
        let mut ex = examples(rows, &key, &not_names, true);
        let book_n = ex.len();
        // Every chapter on its own as well: short texts, small counts.
        let per_chapter: Vec<_> = texts
            .par_iter()
            .map(|t| examples(recognizer.feature_rows(&[t]), &key, &not_names, false))
            .collect();
        for e in per_chapter {
            ex.extend(e);
        }
        let mut by_class = [0usize; 3];
        for e in &ex {
            by_class[e.class] += 1;
        }
        provenance.push(format!(
            "  {} with {}: {} book examples, {} chapter examples ({})",
            file_name(book),
            file_name(key_path),
            book_n,
            ex.len() - book_n,
            CLASSES
                .iter()
                .zip(by_class)
                .map(|(c, n)| format!("{c} {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        all.extend(ex);
    }
    if let Some(path) = &args.tagger_output {
        let tagger = Tagger::train(
            &sentences,
            recognizer.tagger_hints(),
            args.epochs,
            tagger_provenance,
        );
        atomic_write(path, |w| w.write_all(tagger.to_text().as_bytes()))?;
    }
    let model = Model::train(
        &FEATURES,
        &all,
        args.steps,
        args.l2,
        args.hidden,
        provenance,
    );
    atomic_write(&args.output, |w| w.write_all(model.to_text().as_bytes()))?;
    Ok(ExitCode::SUCCESS)
}

/// A path's file name, for the provenance lines (the whole path without one).
fn file_name(p: &std::path::Path) -> String {
    p.file_name()
        .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into())
}
