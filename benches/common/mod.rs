//! Shared by the benches: which novel they read, and the engines built the
//! way `zhnovel analyze` builds them (see `src/cli/mod.rs`, `Plan::new`).

#![allow(dead_code)] // each bench uses a different part of this module

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use zhnovel::analysis::{CountOptions, Engines};
use zhnovel::book::ReadOptions;
use zhnovel::chapter::HeadingMatcher;
use zhnovel::entity::{Lexicon, Recognizer};
use zhnovel::script::{FerrousConverter, ScriptConfig};
use zhnovel::segment::{Segmenter, Vocabulary};
use zhnovel::stats::Window;

/// 水滸傳 from Project Gutenberg (Traditional, 1.6 MB), in the shared data
/// folder beside the repository.
pub const SHARED_NOVEL: &str = "../shared/data/novels/shuihu-gutenberg-23863.txt";

/// The bench input: `$ZHNOVEL_BENCH_INPUT` if set, else the shared novel,
/// else the chapters of 水滸傳 kept in `corpus/shuihu/` (so a plain clone
/// without the shared folder still benches). Returns a label and the bytes.
pub fn input() -> (String, Vec<u8>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    if let Some(path) = std::env::var_os("ZHNOVEL_BENCH_INPUT") {
        let path = PathBuf::from(path);
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        return (path.display().to_string(), bytes);
    }
    let shared = root.join(SHARED_NOVEL);
    if let Ok(bytes) = std::fs::read(&shared) {
        return ("shuihu-gutenberg-23863.txt".to_string(), bytes);
    }
    let dir = root.join("corpus/shuihu");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let mut bytes = Vec::new();
    for f in &files {
        bytes.extend(std::fs::read(f).unwrap_or_else(|e| panic!("{}: {e}", f.display())));
        bytes.push(b'\n');
    }
    assert!(!bytes.is_empty(), "no bench input in {}", dir.display());
    ("corpus/shuihu/*.txt".to_string(), bytes)
}

/// The engines of a default `zhnovel analyze` run.
pub struct Built {
    pub converter: FerrousConverter,
    pub segmenter: Segmenter,
    pub recognizer: Recognizer,
    pub stopwords: HashSet<String>,
    pub read: ReadOptions,
    pub count: CountOptions,
}

impl Built {
    pub fn new() -> Built {
        let lexicon = Lexicon::builtin();
        let stopwords = lexicon.stopwords().clone();
        let vocabulary = Vocabulary::load();
        Built {
            converter: FerrousConverter::new(ScriptConfig::T2s).expect("t2s loads"),
            segmenter: Segmenter::with_vocabulary(&vocabulary, true),
            recognizer: Recognizer::with_vocabulary(lexicon, vocabulary),
            stopwords,
            read: ReadOptions {
                encoding: None,
                lossy: false,
                headings: HeadingMatcher::default(),
            },
            count: CountOptions {
                window: Window::Paragraph,
                min_count: 1,
                all_words: false,
            },
        }
    }

    pub fn engines(&self) -> Engines<'_> {
        Engines {
            converter: &self.converter,
            segmenter: &self.segmenter,
            recognizer: &self.recognizer,
            stopwords: &self.stopwords,
            display: None,
        }
    }
}

/// `--threads N` among the arguments (cargo bench also passes `--bench`).
pub fn threads_arg() -> Option<usize> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == "--threads")
        .and_then(|i| args.get(i + 1))
        .map(|n| n.parse().expect("--threads takes a number"))
}

/// The first argument that is not a flag (or a flag's value): an input file.
pub fn file_arg() -> Option<PathBuf> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut skip = false;
    for a in args {
        if skip {
            skip = false;
        } else if a == "--threads" {
            skip = true;
        } else if !a.starts_with("--") {
            return Some(PathBuf::from(a));
        }
    }
    None
}
