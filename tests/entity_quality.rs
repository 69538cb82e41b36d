//! Entity recognizer quality, measured through the library: the seed chapters
//! against their answer key, invented names in a classical novel, and
//! Traditional/Simplified invariance.

use std::path::{Path, PathBuf};
use zhnovel::clean::clean;
use zhnovel::entity::{Catalog, EntityType, Lexicon, Recognizer};
use zhnovel::eval::{score, Extracted, Gold, Report};
use zhnovel::script::{FerrousConverter, Normalized, ScriptConfig};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Cleaned, Simplified text of a file.
fn simplified(path: &Path) -> String {
    let raw = std::fs::read_to_string(path).unwrap();
    let conv = FerrousConverter::new(ScriptConfig::T2s).unwrap();
    Normalized::new(clean(&raw).text, &conv).text
}

fn extracted(catalog: &Catalog) -> Vec<Extracted> {
    catalog.entities().iter().map(Extracted::from_entity).collect()
}

fn seed_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("corpus/seeds"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    files
}

#[test]
fn seeds_meet_precision_and_recall() {
    let gold = Gold::load(&root().join("tests/data/seeds-entities.csv")).unwrap();
    let recognizer = Recognizer::new(Lexicon::builtin());
    let mut report = Report::new();
    for path in seed_files() {
        let text = simplified(&path);
        let catalog = recognizer.discover(&[text.as_str()]);
        let name = path.file_name().unwrap().to_str().unwrap();
        for e in catalog.entities() {
            println!("{name}\t{}\t{}\t{:.2}\t{}\t{}", e.kind, e.name, e.confidence, e.evidence.join(","), e.aliases.join("|"));
        }
        report.add(score(&gold, name, &extracted(&catalog)));
    }
    println!("{report}");
    print!("{}", report.mistakes_text());
    let main = report.main_total();
    assert!(main.precision() >= 0.95, "precision {:.3}\n{report}", main.precision());
    assert!(main.recall() >= 0.95, "recall {:.3}\n{report}", main.recall());
}

/// `ZH_FILE=corpus/seeds/x.txt ZH_WORDS=耶律成,孤山口 cargo test --test entity_quality explain -- --ignored --nocapture`
#[test]
#[ignore]
fn explain() {
    let file = std::env::var("ZH_FILE").unwrap();
    let words = std::env::var("ZH_WORDS").unwrap();
    let text = simplified(&root().join(file));
    let recognizer = Recognizer::new(Lexicon::builtin());
    for w in words.split(',') {
        print!("{}", recognizer.explain(&[text.as_str()], w));
    }
}

/// Chapters of a whole-novel file, cleaned and converted to Simplified.
fn novel_chapters(path: &Path, convert: bool) -> Vec<String> {
    use zhnovel::chapter::{split_chapters, HeadingMatcher};
    let raw = std::fs::read_to_string(path).unwrap();
    let conv = FerrousConverter::new(ScriptConfig::T2s).unwrap();
    split_chapters(&raw, &HeadingMatcher::default(), "novel")
        .into_iter()
        .map(|c| {
            let text = clean(&c.text).text;
            if convert {
                Normalized::new(text, &conv).text
            } else {
                text
            }
        })
        .collect()
}

/// Entities of one type ranked by mentions (count desc, then name).
fn ranked(catalog: &Catalog, chapters: &[String], kind: EntityType) -> Vec<(String, usize)> {
    let mut counts = vec![0usize; catalog.len()];
    for c in chapters {
        for m in catalog.find_mentions(c) {
            counts[m.entity as usize] += 1;
        }
    }
    let mut out: Vec<(String, usize)> = catalog
        .entities()
        .iter()
        .zip(counts)
        .filter(|(e, n)| e.kind == kind && *n > 0)
        .map(|(e, n)| (e.name.clone(), n))
        .collect();
    out.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    out
}

/// The held-out report on the whole 水滸傳 (needs ../shared):
/// `cargo test --release --test entity_quality shuihu_report -- --ignored --nocapture`
#[test]
#[ignore]
fn shuihu_report() {
    let path = std::env::var("ZH_NOVEL").unwrap_or_else(|_| {
        root()
            .join("../shared/data/novels/shuihu-gutenberg-23863.txt")
            .to_string_lossy()
            .into_owned()
    });
    let chapters = novel_chapters(Path::new(&path), true);
    let texts: Vec<&str> = chapters.iter().map(String::as_str).collect();
    let recognizer = Recognizer::new(Lexicon::builtin());
    let t = std::time::Instant::now();
    let catalog = recognizer.discover(&texts);
    let took = t.elapsed();
    let bytes: usize = texts.iter().map(|t| t.len()).sum();
    println!("{} chapters, {} bytes, discover took {:?}, {} entities", texts.len(), bytes, took, catalog.len());
    for kind in [EntityType::Person, EntityType::Place, EntityType::Army, EntityType::Faction] {
        let top = ranked(&catalog, &chapters, kind);
        let n = if kind == EntityType::Person { 50 } else { 20 };
        let line: Vec<String> = top.iter().take(n).map(|(w, c)| format!("{w}:{c}")).collect();
        println!("top {kind} ({} in all): {}", top.len(), line.join(" "));
    }
}

/// `ZH_NOVEL=path ZH_WORDS=a,b cargo test --release --test entity_quality explain_novel -- --ignored --nocapture`
#[test]
#[ignore]
fn explain_novel() {
    let chapters = novel_chapters(Path::new(&std::env::var("ZH_NOVEL").unwrap()), true);
    let texts: Vec<&str> = chapters.iter().map(String::as_str).collect();
    let recognizer = Recognizer::new(Lexicon::builtin());
    for w in std::env::var("ZH_WORDS").unwrap().split(',') {
        print!("{}", recognizer.explain(&texts, w));
    }
}
