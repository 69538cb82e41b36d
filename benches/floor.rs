//! The segmentation floor: the least any jieba-based pipeline must spend on a
//! text. Reads a file (UTF-8), loads jieba-rs's default dictionary and cuts
//! every line with HMM on, lines in parallel (rayon), and prints the time
//! from start to finish (dictionary load included) and the number of words.
//!
//! ```sh
//! cargo bench --bench floor -- FILE --threads 2
//! ```
//!
//! Without FILE it reads the bench input of `common::input()`.

mod common;

use jieba_rs::Jieba;
use rayon::prelude::*;
use std::time::Instant;

fn main() {
    let start = Instant::now();
    if let Some(n) = common::threads_arg() {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
            .expect("thread pool");
    }
    let (jieba, bytes) = rayon::join(Jieba::new, || match common::file_arg() {
        Some(path) => std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
        None => common::input().1,
    });
    let loaded = start.elapsed();
    let text = std::str::from_utf8(&bytes).expect("the floor reads UTF-8");
    let lines: Vec<&str> = text.lines().collect();
    let words: usize = lines
        .par_iter()
        .with_min_len(64)
        .map(|line| jieba.cut(line, true).len())
        .sum();
    let total = start.elapsed();
    // The count is the correctness check: a floor that cut nothing is no floor.
    assert!(words > bytes.len() / 10, "only {words} words cut");
    println!(
        "floor threads={} bytes={} words={} load_s={:.3} total_s={:.3} mb_s={:.1}",
        rayon::current_num_threads(),
        bytes.len(),
        words,
        loaded.as_secs_f64(),
        total.as_secs_f64(),
        bytes.len() as f64 / 1e6 / total.as_secs_f64()
    );
}
