//! Criterion benches, one group per pipeline stage, on real novel text
//! (水滸傳, see `common::input`), each reading as MB/s (`Throughput::Bytes`).
//! Every bench checks a count before it is timed, so a bench that runs is
//! also a correctness check.
//!
//! ```sh
//! cargo bench --bench stages            # all stages
//! cargo bench --bench stages -- segment # one group
//! ```

mod common;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;
use zhnovel::analysis::{count_cut_book, cut_chapters, discover_entities};
use zhnovel::book::ChapterText;
use zhnovel::chapter::split_chapters;
use zhnovel::clean::clean;
use zhnovel::decode::decode;
use zhnovel::output::{write_rows, TableFormat};
use zhnovel::script::Normalized;

/// Discovery is slow; it is benched on the chapters within this many bytes.
const ENTITY_SLICE: usize = 256 * 1024;

fn stages(c: &mut Criterion) {
    let (label, bytes) = common::input();
    eprintln!("bench input: {label}, {} bytes", bytes.len());
    let built = common::Built::new();
    let engines = built.engines();
    let path = Path::new(&label);

    // decode: bytes → text (encoding detection included).
    let decoded = decode(path, &bytes, None, false).expect("input decodes");
    let chars = decoded.text.chars().count();
    assert!(chars > bytes.len() / 4, "decoded {chars} characters");
    let mut g = c.benchmark_group("decode");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("detect+decode", |b| {
        b.iter(|| decode(path, black_box(&bytes), None, false).unwrap())
    });
    g.finish();

    // split + clean (one pass each over the text).
    let raw = split_chapters(&decoded.text, &built.read.headings, "book");
    assert!(raw.len() > 2, "split into {} chapters", raw.len());
    let cleaned: Vec<String> = raw.iter().map(|r| clean(&r.text).text).collect();
    let text_bytes: usize = cleaned.iter().map(String::len).sum();
    let mut g = c.benchmark_group("chapter");
    g.throughput(Throughput::Bytes(decoded.text.len() as u64));
    g.bench_function("split+clean", |b| {
        b.iter(|| {
            split_chapters(black_box(&decoded.text), &built.read.headings, "book")
                .iter()
                .map(|r| clean(&r.text).text.len())
                .sum::<usize>()
        })
    });
    g.finish();

    // convert: Traditional → Simplified with the map back to the original.
    let chapters: Vec<ChapterText> = raw
        .iter()
        .zip(&cleaned)
        .map(|(r, text)| ChapterText {
            title: r.title.clone(),
            file: label.clone(),
            encoding: decoded.encoding,
            junk_removed: 0,
            text: Normalized::new(text.clone(), engines.converter),
        })
        .collect();
    for (c, text) in chapters.iter().zip(&cleaned) {
        assert_eq!(c.text.text.chars().count(), text.chars().count());
        assert_eq!(c.text.original_text(), text.as_str());
    }
    let simplified: Vec<&str> = chapters.iter().map(|c| c.text.text.as_str()).collect();
    let mut g = c.benchmark_group("convert");
    g.throughput(Throughput::Bytes(text_bytes as u64));
    g.bench_function("t2s", |b| {
        b.iter(|| {
            cleaned
                .iter()
                .map(|t| Normalized::new(t.clone(), engines.converter).text.len())
                .sum::<usize>()
        })
    });
    // Simplified text: what converting it would cost, and what the check
    // that skips it costs (only clauses with a character t2s can change
    // are converted).
    for t in &simplified {
        let lazy = engines.converter.convert_lazily(t);
        assert_eq!(lazy.as_deref().unwrap_or(t), engines.converter.convert(t));
    }
    g.bench_function("simplified-converted", |b| {
        b.iter(|| {
            simplified
                .iter()
                .map(|t| engines.converter.convert(t).len())
                .sum::<usize>()
        })
    });
    g.bench_function("simplified-skipped", |b| {
        b.iter(|| {
            simplified
                .iter()
                .map(|t| Normalized::new(t.to_string(), engines.converter).text.len())
                .sum::<usize>()
        })
    });
    g.finish();

    // segment: jieba cut (what the pipeline runs per token) and tag.
    let seg = &built.segmenter;
    let mut words = 0;
    for t in &simplified {
        seg.for_each_word(t, |_, _, _| words += 1);
    }
    let tagged: usize = simplified.iter().map(|t| seg.tag(t).len()).sum();
    assert_eq!(words, tagged, "cut and tag give the same words");
    assert!(words > text_bytes / 12, "{words} words");
    let mut g = c.benchmark_group("segment");
    g.throughput(Throughput::Bytes(text_bytes as u64));
    g.sample_size(10);
    g.bench_function("cut", |b| {
        b.iter(|| {
            let mut n = 0;
            for t in &simplified {
                seg.for_each_word(t, |_, _, _| n += 1);
            }
            n
        })
    });
    g.bench_function("tag", |b| {
        b.iter(|| simplified.iter().map(|t| seg.tag(t).len()).sum::<usize>())
    });
    g.finish();

    // entities: discovery over a slice of the book, and the catalog's
    // matcher over the whole book.
    let mut upto = 0;
    let mut slice_bytes = 0;
    while upto < chapters.len() && slice_bytes < ENTITY_SLICE {
        slice_bytes += chapters[upto].text.text.len();
        upto += 1;
    }
    let slice = &chapters[..upto];
    let catalog = discover_entities(&chapters, &engines);
    let mentions: usize = simplified
        .iter()
        .map(|t| catalog.find_mentions(t).len())
        .sum();
    assert!(catalog.len() > 10, "{} entities", catalog.len());
    assert!(mentions > catalog.len(), "{mentions} mentions");
    let mut g = c.benchmark_group("entities");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(10));
    g.throughput(Throughput::Bytes(slice_bytes as u64));
    g.bench_function(format!("discover-first-{upto}-chapters"), |b| {
        b.iter(|| discover_entities(black_box(slice), &engines).len())
    });
    g.throughput(Throughput::Bytes(text_bytes as u64));
    g.bench_function("find_mentions", |b| {
        b.iter(|| {
            simplified
                .iter()
                .map(|t| catalog.find_mentions(t).len())
                .sum::<usize>()
        })
    });
    g.finish();

    // aggregate: mentions, word and co-occurrence counts, merge, sorted rows
    // (the words already cut).
    let cuts = cut_chapters(&chapters, seg);
    let mut mention_rows = Vec::new();
    let mut tables = count_cut_book(
        &chapters,
        cuts.clone(),
        &catalog,
        &engines,
        &built.count,
        &|| {},
        &mut mention_rows,
    );
    tables.mentions = mention_rows;
    let counted: usize = tables.chapters.iter().map(|c| c.words).sum();
    assert!(counted > 0 && counted <= words, "{counted} words counted");
    assert!(
        tables.mentions.len() >= mentions,
        "{} mention rows",
        tables.mentions.len()
    );
    let mut g = c.benchmark_group("aggregate");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(text_bytes as u64));
    g.bench_function("count+merge+rows", |b| {
        // The cuts are the count's to free: each run counts a copy.
        b.iter_batched(
            || cuts.clone(),
            |cuts| {
                let mut rows = Vec::new();
                count_cut_book(
                    &chapters,
                    cuts,
                    &catalog,
                    &engines,
                    &built.count,
                    &|| {},
                    &mut rows,
                );
                rows.len()
            },
            BatchSize::LargeInput,
        )
    });
    g.finish();

    // write: the five tables as CSV (into memory: the disk is not the point).
    let format = TableFormat::Csv { bom: true };
    let write_all = |out: &mut Vec<u8>| {
        write_rows(&mut *out, format, &tables.entities).unwrap();
        write_rows(&mut *out, format, &tables.mentions).unwrap();
        write_rows(&mut *out, format, &tables.cooccurrence).unwrap();
        write_rows(&mut *out, format, &tables.frequency).unwrap();
        write_rows(&mut *out, format, &tables.chapters).unwrap();
    };
    let mut out = Vec::new();
    write_all(&mut out);
    let lines = out.iter().filter(|&&b| b == b'\n').count();
    let rows = tables.entities.len()
        + tables.mentions.len()
        + tables.cooccurrence.len()
        + tables.frequency.len()
        + tables.chapters.len();
    assert_eq!(lines, rows + 5, "one line per row plus the headers");
    let mut g = c.benchmark_group("write");
    g.throughput(Throughput::Bytes(out.len() as u64));
    g.bench_function("csv", |b| {
        b.iter(|| {
            let mut out = Vec::with_capacity(out.len());
            write_all(&mut out);
            out.len()
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = stages
}
criterion_main!(benches);
