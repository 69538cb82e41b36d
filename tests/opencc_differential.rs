//! Differential test of the two OpenCC engines (feature `system-opencc`):
//! ferrous-opencc (the default) against the C++ libopencc through
//! opencc-rust, for t2s, tw2s, hk2s and s2t, on every .txt file under
//! corpus/ and on OpenCC's own test cases (tests/data/opencc-testcases.json).
//!
//! Each engine normally brings its own dictionaries: ferrous-opencc 0.4 the
//! ones built into it, libopencc those installed with it (OpenCC 1.1.6 on
//! Debian 12). So there are two comparisons:
//! - own dictionaries: t2s, tw2s and hk2s (the directions zhnovel analyses in)
//!   must give identical output. s2t is reported, not failed: Debian's
//!   STPhrases is older than ferrous-opencc's, and the outputs differ where
//!   the phrase lists do (printed with `--nocapture`).
//! - same dictionaries: ferrous-opencc loads libopencc's installed
//!   dictionaries (turned into text by `opencc_dict`, from Debian's `opencc`
//!   package), and all four directions must give identical output. This is
//!   the engine-against-engine check.
//!
//! The test cases come from a newer OpenCC than either engine's dictionaries,
//! so some expected outputs match neither; those are counted and printed.
//! tests/opencc_cases.rs pins them for ferrous-opencc.
//!
//! `cargo test --features system-opencc --test opencc_differential -- --nocapture`
#![cfg(feature = "system-opencc")]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use zhnovel::script::{Converter, FerrousConverter, ScriptConfig, SystemConverter};

const CONFIGS: [ScriptConfig; 4] = [
    ScriptConfig::T2s,
    ScriptConfig::Tw2s,
    ScriptConfig::Hk2s,
    ScriptConfig::S2t,
];

/// Directions whose output must be identical even with each engine's own
/// dictionaries.
fn must_agree_with_own_dictionaries(config: ScriptConfig) -> bool {
    config != ScriptConfig::S2t
}

/// Where libopencc's data is installed (the folders SystemConverter looks in).
const OPENCC_DATA_DIRS: [&str; 2] = ["/usr/local/share/opencc", "/usr/share/opencc"];

struct Text {
    name: String,
    text: String,
}

/// Every .txt file under corpus/, recursively, decoded the way zhnovel does.
fn corpus() -> Vec<Text> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, out);
            } else if path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("txt"))
            {
                out.push(path);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut paths = Vec::new();
    walk(&root, &mut paths);
    assert!(!paths.is_empty(), "no .txt file under {}", root.display());
    paths
        .iter()
        .filter_map(|path| {
            let bytes = std::fs::read(path).unwrap();
            if bytes.is_empty() {
                return None;
            }
            let text = zhnovel::decode::decode(path, &bytes, None, true)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
                .text;
            let name = path.strip_prefix(&root).unwrap().display().to_string();
            Some(Text { name, text })
        })
        .collect()
}

#[derive(serde::Deserialize)]
struct Cases {
    cases: Vec<Case>,
}

#[derive(serde::Deserialize)]
struct Case {
    id: String,
    input: String,
    expected: BTreeMap<String, String>,
}

fn test_cases() -> Vec<Case> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/opencc-testcases.json"
    );
    let text = std::fs::read_to_string(path).expect("read opencc-testcases.json");
    serde_json::from_str::<Cases>(&text)
        .expect("parse opencc-testcases.json")
        .cases
}

/// The lines where the two outputs of one text differ.
fn differing_lines(name: &str, a: &str, b: &str) -> Vec<String> {
    let mut out: Vec<String> = a
        .lines()
        .zip(b.lines())
        .enumerate()
        .filter(|(_, (x, y))| x != y)
        .map(|(n, (x, y))| {
            format!(
                "{name}:{}\n    ferrous-opencc {x:?}\n    libopencc      {y:?}",
                n + 1
            )
        })
        .collect();
    if a.lines().count() != b.lines().count() {
        out.push(format!(
            "{name}: {} vs {} lines",
            a.lines().count(),
            b.lines().count()
        ));
    }
    out
}

/// Compares two engines on the corpus; returns the differences per config.
fn compare_corpus(
    texts: &[Text],
    engines: &[(ScriptConfig, &dyn Converter, &dyn Converter)],
) -> Vec<(ScriptConfig, Vec<String>)> {
    let mut result = Vec::new();
    for &(config, ferrous, system) in engines {
        let mut diffs = Vec::new();
        for t in texts {
            let (f, s) = (ferrous.convert(&t.text), system.convert(&t.text));
            if f != s {
                diffs.extend(differing_lines(&t.name, &f, &s));
            }
        }
        println!(
            "corpus {}: {} files, {} differing lines",
            config.name(),
            texts.len(),
            diffs.len()
        );
        result.push((config, diffs));
    }
    result
}

#[derive(Default)]
struct CaseCounts {
    checked: usize,
    both_expected: usize,
    both_same_other: usize,
    ferrous_only_expected: usize,
    system_only_expected: usize,
    neither_and_differ: usize,
}

/// Compares two engines on the test cases of `config`; returns the counts,
/// the cases where the engines differ, and those where both give the same
/// output other than the expected one.
fn compare_cases(
    cases: &[Case],
    config: ScriptConfig,
    ferrous: &dyn Converter,
    system: &dyn Converter,
) -> (CaseCounts, Vec<String>, Vec<String>) {
    let mut counts = CaseCounts::default();
    let (mut differ, mut both_other) = (Vec::new(), Vec::new());
    for case in cases {
        let Some(expected) = case.expected.get(config.name()) else {
            continue;
        };
        counts.checked += 1;
        let (f, s) = (ferrous.convert(&case.input), system.convert(&case.input));
        let line = format!(
            "{} {}: input {:?}\n    expected       {expected:?}\n    ferrous-opencc {f:?}\n    libopencc      {s:?}",
            case.id,
            config.name(),
            case.input
        );
        match (&f == expected, &s == expected, f == s) {
            (true, true, _) => counts.both_expected += 1,
            (false, false, true) => {
                counts.both_same_other += 1;
                both_other.push(line);
            }
            (true, false, _) => {
                counts.ferrous_only_expected += 1;
                differ.push(line);
            }
            (false, true, _) => {
                counts.system_only_expected += 1;
                differ.push(line);
            }
            (false, false, false) => {
                counts.neither_and_differ += 1;
                differ.push(line);
            }
        }
    }
    assert!(
        counts.checked > 0,
        "no {} cases in the test data",
        config.name()
    );
    (counts, differ, both_other)
}

fn print_counts(what: &str, config: ScriptConfig, c: &CaseCounts) {
    println!(
        "{what} {}: {} cases: {} as expected by both engines, {} same other output from both, \
         {} only ferrous-opencc as expected, {} only libopencc as expected, {} neither and different",
        config.name(),
        c.checked,
        c.both_expected,
        c.both_same_other,
        c.ferrous_only_expected,
        c.system_only_expected,
        c.neither_and_differ
    );
}

fn print_list(title: &str, items: &[String]) {
    if !items.is_empty() {
        println!("{title} ({}):", items.len());
        for item in items {
            println!("  {item}");
        }
    }
}

fn own_engines() -> Vec<(ScriptConfig, FerrousConverter, SystemConverter)> {
    CONFIGS
        .iter()
        .map(|&c| {
            (
                c,
                FerrousConverter::new(c).unwrap(),
                SystemConverter::new(c).unwrap(),
            )
        })
        .collect()
}

#[test]
fn engines_with_their_own_dictionaries_agree_on_the_corpus() {
    let texts = corpus();
    let engines = own_engines();
    let pairs: Vec<(ScriptConfig, &dyn Converter, &dyn Converter)> = engines
        .iter()
        .map(|(c, f, s)| (*c, f as &dyn Converter, s as &dyn Converter))
        .collect();
    let mut failures = Vec::new();
    for (config, diffs) in compare_corpus(&texts, &pairs) {
        if must_agree_with_own_dictionaries(config) {
            failures.extend(diffs);
        } else {
            print_list(
                &format!(
                    "corpus {}: lines where the dictionaries differ (reported, not failed)",
                    config.name()
                ),
                &diffs,
            );
        }
    }
    assert!(
        failures.is_empty(),
        "the engines differ on the corpus:\n  {}",
        failures.join("\n  ")
    );
}

#[test]
fn engines_with_their_own_dictionaries_agree_on_openccs_test_cases() {
    let cases = test_cases();
    let mut failures = Vec::new();
    for (config, ferrous, system) in own_engines() {
        let (counts, differ, both_other) = compare_cases(&cases, config, &ferrous, &system);
        print_counts("test cases, own dictionaries,", config, &counts);
        print_list(
            &format!(
                "{}: both engines give the same output, not the expected one (test data newer than both)",
                config.name()
            ),
            &both_other,
        );
        if must_agree_with_own_dictionaries(config) {
            failures.extend(differ);
        } else {
            print_list(
                &format!(
                    "{}: the engines differ because their dictionaries do (reported, not failed)",
                    config.name()
                ),
                &differ,
            );
        }
    }
    assert!(
        failures.is_empty(),
        "{} test cases where the engines differ:\n  {}",
        failures.len(),
        failures.join("\n  ")
    );
}

/// Writes libopencc's installed configuration `config` into `dir` with its
/// dictionaries turned into text by `opencc_dict`, for ferrous-opencc.
fn system_dictionaries_as_text(config: ScriptConfig, dir: &Path) -> PathBuf {
    let file = format!("{}.json", config.name());
    let data = OPENCC_DATA_DIRS
        .iter()
        .map(Path::new)
        .find(|d| d.join(&file).is_file())
        .unwrap_or_else(|| panic!("no {file} in {OPENCC_DATA_DIRS:?}; install libopencc-dev"));
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(data.join(&file)).unwrap()).unwrap();
    fn rewrite(value: &mut serde_json::Value, data: &Path, dir: &Path) {
        match value {
            serde_json::Value::Object(map) => {
                if map.get("type").and_then(|t| t.as_str()) == Some("ocd2") {
                    let ocd2 = map["file"].as_str().unwrap().to_string();
                    let txt = ocd2.replace(".ocd2", ".txt");
                    if !dir.join(&txt).exists() {
                        let status = Command::new("opencc_dict")
                            .arg("-i")
                            .arg(data.join(&ocd2))
                            .arg("-o")
                            .arg(dir.join(&txt))
                            .args(["-f", "ocd2", "-t", "text"])
                            .status()
                            .unwrap_or_else(|e| {
                                panic!(
                                    "cannot run opencc_dict ({e}); install Debian's opencc package"
                                )
                            });
                        assert!(status.success(), "opencc_dict failed on {ocd2}");
                    }
                    map.insert("type".into(), "text".into());
                    map.insert("file".into(), txt.into());
                }
                for v in map.values_mut() {
                    rewrite(v, data, dir);
                }
            }
            serde_json::Value::Array(items) => {
                for v in items {
                    rewrite(v, data, dir);
                }
            }
            _ => {}
        }
    }
    rewrite(&mut json, data, dir);
    let path = dir.join(&file);
    std::fs::write(&path, serde_json::to_string_pretty(&json).unwrap()).unwrap();
    path
}

#[test]
fn engines_with_the_same_dictionaries_agree_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let engines: Vec<(ScriptConfig, FerrousConverter, SystemConverter)> = CONFIGS
        .iter()
        .map(|&c| {
            let json = system_dictionaries_as_text(c, dir.path());
            (
                c,
                FerrousConverter::from_file(&json).unwrap(),
                SystemConverter::new(c).unwrap(),
            )
        })
        .collect();
    let pairs: Vec<(ScriptConfig, &dyn Converter, &dyn Converter)> = engines
        .iter()
        .map(|(c, f, s)| (*c, f as &dyn Converter, s as &dyn Converter))
        .collect();

    let mut failures = Vec::new();
    for (_, diffs) in compare_corpus(&corpus(), &pairs) {
        failures.extend(diffs);
    }
    let cases = test_cases();
    for &(config, ferrous, system) in &pairs {
        let (counts, differ, _) = compare_cases(&cases, config, ferrous, system);
        print_counts(
            "test cases, libopencc's dictionaries in both,",
            config,
            &counts,
        );
        failures.extend(differ);
    }
    assert!(
        failures.is_empty(),
        "with the same dictionaries the engines differ:\n  {}",
        failures.join("\n  ")
    );
}
