//! Per-stage profile of `zhnovel analyze` on one file: runs the library's
//! stages one after the other (each stage's parallel part on the rayon pool)
//! and prints the wall time and throughput of each. The stages add up to
//! what `analyze_book` and the writers do; the rows marked `(part)` are
//! measured again on their own to split `count` into its pieces.
//!
//! ```sh
//! cargo bench --bench profile -- FILE --threads 2
//! ```

mod common;

use rayon::prelude::*;
use std::path::Path;
use std::time::Instant;
use zhnovel::analysis::{count_book, discover_entities};
use zhnovel::book::ChapterText;
use zhnovel::chapter::split_chapters;
use zhnovel::clean::clean;
use zhnovel::decode::decode;
use zhnovel::output::{write_table, TableFormat};
use zhnovel::script::Normalized;

fn main() {
    if let Some(n) = common::threads_arg() {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
            .expect("thread pool");
    }
    let mut rows: Vec<(&str, f64, (u64, u64))> = Vec::new();
    let mut parts: Vec<(&str, f64)> = Vec::new();
    let all = Instant::now();
    let mut t = Instant::now();
    let mut lap = |name: &'static str, rows: &mut Vec<(&str, f64, (u64, u64))>| {
        rows.push((name, t.elapsed().as_secs_f64(), memory()));
        t = Instant::now();
    };

    let built = common::Built::new();
    let engines = built.engines();
    lap("engines (jieba, OpenCC, lexicon)", &mut rows);

    let (label, bytes) = match common::file_arg() {
        Some(p) => (
            p.display().to_string(),
            std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())),
        ),
        None => common::input(),
    };
    let size = bytes.len();
    lap("read", &mut rows);
    let decoded = decode(Path::new(&label), &bytes, None, false).expect("decodes");
    drop(bytes);
    lap("decode", &mut rows);
    let raw = split_chapters(&decoded.text, &built.read.headings, "book");
    lap("split", &mut rows);
    let cleaned: Vec<_> = raw.par_iter().map(|c| clean(&c.text)).collect();
    lap("clean", &mut rows);
    let chapters: Vec<ChapterText> = raw
        .into_par_iter()
        .zip(cleaned)
        .map(|(c, cl)| ChapterText {
            title: c.title,
            file: label.clone(),
            encoding: decoded.encoding,
            junk_removed: cl.junk_removed,
            text: Normalized::new(cl.text, engines.converter),
        })
        .collect();
    lap("convert", &mut rows);
    let catalog = discover_entities(&chapters, &engines);
    lap("discover (entity catalog)", &mut rows);
    if std::env::var_os("ZHNOVEL_PROFILE").is_some() {
        // Discovery's phases, each the seconds since the start of its group.
        for (name, seconds) in &catalog.phases().0 {
            eprintln!("    {name:<28} {seconds:>8.3} s");
        }
    }
    let tables = count_book(&chapters, &catalog, &engines, &built.count, &|| {});
    lap("count (segment, mentions, tables)", &mut rows);
    let dir = tempfile::tempdir().expect("temp dir");
    let format = TableFormat::Csv { bom: true };
    write_table(dir.path(), "entities", format, &tables.entities).expect("write");
    write_table(dir.path(), "mentions", format, &tables.mentions).expect("write");
    write_table(dir.path(), "cooccurrence", format, &tables.cooccurrence).expect("write");
    write_table(dir.path(), "frequency", format, &tables.frequency).expect("write");
    write_table(dir.path(), "chapters", format, &tables.chapters).expect("write");
    lap("write (5 tables, one after another)", &mut rows);
    let total = all.elapsed().as_secs_f64();

    // The pieces of `count`, each on its own.
    let texts: Vec<&str> = chapters.iter().map(|c| c.text.text.as_str()).collect();
    let t = Instant::now();
    let tagged: usize = texts
        .par_iter()
        .map(|s| engines.segmenter.tag(s).len())
        .sum();
    parts.push(("segment: jieba tag", t.elapsed().as_secs_f64()));
    let t = Instant::now();
    let cut: usize = texts
        .par_iter()
        .map(|s| engines.segmenter.cut(s).len())
        .sum();
    parts.push(("segment: jieba cut", t.elapsed().as_secs_f64()));
    let t = Instant::now();
    let mentions: usize = texts
        .par_iter()
        .map(|s| catalog.find_mentions(s).len())
        .sum();
    parts.push(("mentions: find_mentions", t.elapsed().as_secs_f64()));

    // Counts: the profile is also a correctness check.
    let words: usize = tables.chapters.iter().map(|c| c.words).sum();
    assert!(words > 0 && tagged > 0 && cut > 0, "nothing segmented");
    assert!(!catalog.is_empty() && mentions > 0, "no entities found");
    assert!(mentions <= tables.mentions.len());

    println!(
        "profile threads={} input={} bytes={} chapters={} words={} entities={} mentions={}",
        rayon::current_num_threads(),
        label,
        size,
        chapters.len(),
        words,
        catalog.len(),
        tables.mentions.len()
    );
    let mb = size as f64 / 1e6;
    println!(
        "  {:<38} {:>9} {:>12} {:>6} {:>9} {:>9}",
        "stage", "wall", "throughput", "share", "RSS after", "peak RSS"
    );
    for (name, s, (rss, peak)) in &rows {
        println!(
            "  {name:<38} {s:>7.3} s {:>7.1} MB/s {:>5.1}% {:>6} MB {:>6} MB",
            mb / s,
            100.0 * s / total,
            rss / 1024,
            peak / 1024
        );
    }
    println!("  {:<38} {total:>7.3} s {:>7.1} MB/s", "total", mb / total);
    for (name, s) in &parts {
        println!("  (part) {name:<31} {s:>7.3} s {:>7.1} MB/s", mb / s);
    }
}

/// Resident and peak resident memory (kB) of this process, from /proc (Linux).
fn memory() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}
