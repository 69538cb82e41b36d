//! One test per bug that was fixed (issue 11's table), each named after the
//! bug with a line saying what broke. Each failed before its fix.

use crate::util::*;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The smallest seed chapter: quick to analyze.
const SMALL: &str = "corpus/seeds/003_52543226f0914772.txt";
/// Another seed, for a run whose tables differ from SMALL's.
const OTHER: &str = "corpus/seeds/000_d5ffedeeae825584.txt";

fn utf16(text: &str, big_endian: bool) -> Vec<u8> {
    text.encode_utf16()
        .flat_map(|u| {
            if big_endian {
                u.to_be_bytes()
            } else {
                u.to_le_bytes()
            }
        })
        .collect()
}

/// Files in `dir` that a person sees (names not starting with a dot), with contents.
fn visible(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| !p.file_name().unwrap().to_string_lossy().starts_with('.'))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

/// `visible` without run.json (its time differs between runs).
fn tables(dir: &Path) -> Vec<(String, Vec<u8>)> {
    visible(dir)
        .into_iter()
        .filter(|(name, _)| name != "run.json")
        .collect()
}

// UTF-16 without a BOM was rejected as binary: detection wanted > 10 % NUL
// bytes, and Chinese prose has about 3 %, on even and odd positions alike.
#[test]
fn bomless_utf16_prose_is_detected() {
    let d = Dir::new();
    let text = seed(SEEDS[0]);
    let le = d.write("le.txt", utf16(&text, false));
    let be = d.write("be.txt", utf16(&text, true));
    let want = zhnovel(&["entities", OTHER]).success().stdout();
    assert!(want.lines().count() > 10, "{want}");
    for (file, encoding) in [(&le, "utf-16le"), (&be, "utf-16be")] {
        let got = zhnovel(&["entities", p(file)]).success().stdout();
        assert_eq!(got, want, "{encoding}");
        let out = d.path(encoding);
        zhnovel(&["analyze", p(file), "-o", p(&out), "-q"]).success();
        assert_eq!(&records(&out.join("chapters.csv"))[0][3], encoding);
    }
}

// One long line without punctuation is one sentence, and every mention
// repeated it whole: 100 KB of text gave 110 MB of mentions.csv.
#[test]
fn long_line_caps_each_mentions_sentence() {
    let d = Dir::new();
    let unit = "耶律挞烈率军至锦州北平军守永乐城";
    let line = unit.repeat(100_000 / unit.len());
    let f = d.write("line.txt", &line);
    let out = d.path("out");
    zhnovel(&["analyze", p(&f), "-o", p(&out), "-q"]).success();
    let mentions = records(&out.join("mentions.csv"));
    assert!(mentions.len() > 1000, "{} mentions", mentions.len());
    for m in &mentions {
        assert!(m[6].contains(&m[3]), "{m:?}");
        assert!(m[6].chars().count() <= 200 + m[3].chars().count(), "{m:?}");
    }
    let size = std::fs::metadata(out.join("mentions.csv")).unwrap().len();
    assert!(size < 1000 * mentions.len() as u64, "{size} bytes");
}

// The same long line, 5 MB of it, took 110 s (release build): the
// recognizer compared every pair of name matches in a line to find the
// ones straddled by a stronger name. Linear now: about 10 s in a debug build.
#[test]
fn five_megabyte_line_is_analyzed_in_linear_time() {
    let d = Dir::new();
    let unit = "柯北辰率军至苏州霜月军守青石城韩铁衣领兵石敢当道苏青禾攻打走了很久的路";
    let f = d.write("line.txt", unit.repeat(5_000_000 / unit.len()));
    let start = Instant::now();
    zhnovel(&["analyze", p(&f), "-o", p(&d.path("out")), "-q"]).success();
    let took = start.elapsed();
    assert!(took < Duration::from_secs(60), "took {took:?}");
    assert!(!records(&d.path("out/entities.csv")).is_empty());
}

// `--threads 100000` hung and `--threads 1000` took 2 GB; `--threads 0` was
// refused instead of meaning all cores.
#[test]
fn threads_are_capped_with_a_warning_and_zero_means_all_cores() {
    let start = Instant::now();
    let run = zhnovel(&["--threads", "100000", "entities", SMALL]).success();
    assert!(
        run.stderr().contains("warning: --threads 100000"),
        "{}",
        run.stderr()
    );
    assert!(start.elapsed() < Duration::from_secs(60));
    let zero = zhnovel(&["--threads", "0", "entities", SMALL]).success();
    assert_eq!(zero.stdout(), run.stdout());
    assert_eq!(zero.stderr(), "");
}

// A folder holding a link to itself was followed over and over: every count
// multiplied by 41.
#[cfg(unix)]
#[test]
fn symlink_loop_in_a_folder_is_read_once() {
    let d = Dir::new();
    d.write("book/第1章.txt", seed(SEEDS[3]));
    std::os::unix::fs::symlink(d.path("book"), d.path("book/loop")).unwrap();
    // A second link to the same file: read once too.
    std::os::unix::fs::symlink(d.path("book/第1章.txt"), d.path("book/again.txt")).unwrap();
    // A link to a folder elsewhere is followed.
    d.write("elsewhere/第2章.txt", seed(SEEDS[2]));
    std::os::unix::fs::symlink(d.path("elsewhere"), d.path("book/more")).unwrap();
    let out = d.path("out");
    zhnovel(&["analyze", p(&d.path("book")), "-o", p(&out), "-q"]).success();
    let chapters = records(&out.join("chapters.csv"));
    assert_eq!(chapters.len(), 2, "{chapters:?}");
    assert!(chapters[1][2].ends_with("第2章.txt"), "{chapters:?}");
}

/// A run of `analyze` that pauses at `point` (see `output::test_pause`),
/// returned once it got there.
fn paused_run(input: &str, out: &Path, point: &str, marker: &Path) -> Child {
    let _ = std::fs::remove_file(marker);
    let mut child = Command::new(env!("CARGO_BIN_EXE_zhnovel"))
        .args(["analyze", input, "-o", p(out), "-q"])
        .current_dir(repo())
        .env("ZHNOVEL_TEST_PAUSE_AFTER_TABLE", point)
        .env("ZHNOVEL_TEST_PAUSE_MARKER", marker)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !marker.exists() {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the run ended ({status}) before pausing at {point}");
        }
        assert!(
            start.elapsed() < Duration::from_secs(50),
            "no pause at {point}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child
}

fn interrupt(child: &mut Child, signal: &str) {
    let status = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let status = child.wait().unwrap();
    assert!(!status.success(), "killed by {signal}");
}

// Two runs into the same -o mixed their tables: nothing stopped the second.
#[test]
fn second_run_into_a_busy_folder_is_refused() {
    let d = Dir::new();
    let out = d.path("out");
    let mut first = paused_run(SMALL, &out, "before", &d.path("marker"));
    zhnovel(&["analyze", OTHER, "-o", p(&out), "-q"])
        .fails(1, "another zhnovel run is writing into this folder");
    interrupt(&mut first, "-KILL");
    // The lock dies with its process.
    zhnovel(&["analyze", OTHER, "-o", p(&out), "-q"]).success();
}

/// Kills a run into a folder holding a complete earlier run at `point`, and
/// checks that the folder still holds exactly that run, that a new run
/// succeeds without --force, and that it leaves no staging behind.
fn killed_run_leaves_the_previous_tables(signal: &str, point: &str) {
    let d = Dir::new();
    let out = d.path("out");
    zhnovel(&["analyze", SMALL, "-o", p(&out), "-q"]).success();
    let before = visible(&out);
    assert!(before.iter().any(|(n, _)| n == "entities.csv"));
    let mut run = paused_run(OTHER, &out, point, &d.path("marker"));
    interrupt(&mut run, signal);
    assert_eq!(visible(&out), before, "killed by {signal} at {point}");
    zhnovel(&["analyze", OTHER, "-o", p(&out), "-q"]).success();
    let fresh = d.path("fresh");
    zhnovel(&["analyze", OTHER, "-o", p(&fresh), "-q"]).success();
    assert_eq!(tables(&out), tables(&fresh));
    assert!(!out.join(".zhnovel-staging").exists());
}

// SIGKILL or SIGINT while the tables were written left stale .tmp files and
// a mix of old and new tables, and the next run refused the folder.
#[test]
fn sigkill_at_the_first_table_write_leaves_the_previous_tables() {
    killed_run_leaves_the_previous_tables("-KILL", "before");
}

#[test]
fn sigkill_after_the_first_table_lands_leaves_the_previous_tables() {
    killed_run_leaves_the_previous_tables("-KILL", "entities");
}

#[test]
fn sigint_at_the_first_table_write_leaves_the_previous_tables() {
    killed_run_leaves_the_previous_tables("-INT", "before");
}

#[test]
fn sigint_after_the_first_table_lands_leaves_the_previous_tables() {
    killed_run_leaves_the_previous_tables("-INT", "entities");
}

// A first run killed while writing: no tables, and the next run is not
// refused as a foreign folder.
#[test]
fn killed_first_run_leaves_no_tables_and_the_next_run_succeeds() {
    let d = Dir::new();
    let out = d.path("out");
    let mut run = paused_run(SMALL, &out, "entities", &d.path("marker"));
    interrupt(&mut run, "-KILL");
    assert_eq!(visible(&out), Vec::new());
    zhnovel(&["analyze", SMALL, "-o", p(&out), "-q"]).success();
    assert!(out.join("entities.csv").exists());
}

// A run killed in the middle of its swap is finished by the next run, which
// then writes its own tables.
#[test]
fn run_killed_after_staging_its_manifest_is_finished_by_the_next() {
    let d = Dir::new();
    let out = d.path("out");
    zhnovel(&["analyze", SMALL, "-o", p(&out), "-q", "--graphml"]).success();
    let mut run = paused_run(OTHER, &out, "commit", &d.path("marker"));
    interrupt(&mut run, "-KILL");
    assert!(out.join(".zhnovel-staging/run.json").exists());
    // The killed run's files are complete in the staging folder; the next
    // run moves them in as it opens the folder. Here that next run reads
    // nothing (its one input is missing), so the folder shows the finished
    // move: the killed run's tables, without the earlier run's graphml.
    zhnovel(&[
        "analyze",
        "no/such.txt",
        "-o",
        p(&out),
        "-q",
        "--keep-going",
    ])
    .fails(1, "no such file");
    let fresh = d.path("fresh");
    zhnovel(&["analyze", OTHER, "-o", p(&fresh), "-q"]).success();
    assert_eq!(tables(&out), tables(&fresh));
    assert!(!out.join(".zhnovel-staging").exists());
    zhnovel(&["analyze", SMALL, "-o", p(&out), "-q"]).success();
}

// Re-running with another --format, or without --graphml, left the earlier
// run's files beside the new ones, and run.json described only the new run.
#[test]
fn rerun_removes_the_files_of_the_previous_run_it_does_not_write() {
    let d = Dir::new();
    let out = d.path("out");
    zhnovel(&["analyze", SMALL, "-o", p(&out), "-q", "--graphml"]).success();
    assert!(out.join("cooccurrence.graphml").exists());
    d.write("out/notes.txt", "mine");
    zhnovel(&["analyze", SMALL, "-o", p(&out), "-q", "--format", "tsv"]).success();
    let names: Vec<String> = visible(&out).into_iter().map(|(n, _)| n).collect();
    assert!(names.contains(&"entities.tsv".to_string()), "{names:?}");
    assert!(
        !names
            .iter()
            .any(|n| n.ends_with(".csv") || n.ends_with(".graphml")),
        "{names:?}"
    );
    assert!(names.contains(&"notes.txt".to_string()), "{names:?}");
    let manifest: serde_json::Value = serde_json::from_str(&d.read("out/run.json")).unwrap();
    let files: Vec<&str> = manifest["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    let ours: Vec<&str> = names
        .iter()
        .map(String::as_str)
        .filter(|n| *n != "notes.txt" && *n != "run.json")
        .collect();
    assert_eq!(files, ours);
}

// Invalid UTF-8 (one bad byte in UTF-8 prose) was reported as invalid
// gb18030, and --lossy decoded the whole file as GB18030 mojibake.
#[test]
fn invalid_utf8_is_reported_as_utf8_and_lossy_keeps_utf8() {
    let d = Dir::new();
    let text = seed(SEEDS[3]);
    let cut = text.char_indices().nth(200).unwrap().0;
    let mut bytes = text.as_bytes()[..cut].to_vec();
    bytes.push(0xFF);
    bytes.extend(&text.as_bytes()[cut..]);
    let f = d.write("broken.txt", &bytes);
    let out = d.path("out");
    let run = zhnovel(&["analyze", p(&f), "-o", p(&out), "-q"]).fails(
        1,
        &format!("broken.txt: not valid utf-8 at byte offset {cut}"),
    );
    assert!(!run.stderr().contains("gb18030"), "{}", run.stderr());
    zhnovel(&["analyze", p(&f), "-o", p(&out), "-q", "--lossy"]).success();
    assert_eq!(&records(&out.join("chapters.csv"))[0][3], "utf-8");
    assert!(entity_row(&out, "秦军").is_some(), "read as UTF-8");
}

// `--encoding latin1` was accepted (exit 0, mojibake words, no entities);
// `--encoding bogus` was an error, but -o had been created first.
#[test]
fn non_chinese_or_unknown_encoding_is_refused_before_anything_is_created() {
    let d = Dir::new();
    for name in ["latin1", "bogus", "shift_jis"] {
        let out = d.path(name);
        zhnovel(&["analyze", SMALL, "-o", p(&out), "--encoding", name])
            .fails(2, &format!("unknown encoding '{name}'"));
        assert!(!out.exists(), "{name}: -o created");
    }
    // A bad dictionary too is reported before -o is created.
    let dict = d.write("my.dict", "雷千峰 lots nr\n");
    let out = d.path("dict-out");
    zhnovel(&["analyze", SMALL, "-o", p(&out), "--dict", p(&dict)]).fails(1, "my.dict:1");
    assert!(!out.exists());
}

// `--chapter-pattern ''` matched every line, so the error was "file is empty".
#[test]
fn empty_chapter_pattern_is_a_clear_error() {
    let d = Dir::new();
    let out = d.path("out");
    zhnovel(&["analyze", SMALL, "-o", p(&out), "--chapter-pattern", ""])
        .fails(2, "matches an empty line");
    assert!(!out.exists());
}

// An OS error was printed twice ("cannot write: Not a directory (os error
// 20): Not a directory (os error 20)").
#[test]
fn os_error_is_printed_once() {
    let d = Dir::new();
    let file = d.write("file", "x");
    let run =
        zhnovel(&["analyze", SMALL, "-o", p(&file.join("out")), "-q"]).fails(1, "cannot write");
    assert_eq!(
        run.stderr().matches("os error").count(),
        1,
        "{}",
        run.stderr()
    );
}

// `--keep-going` with one missing file among several exited 2 and wrote no
// tables.
#[test]
fn keep_going_with_a_missing_file_writes_the_others() {
    let d = Dir::new();
    let out = d.path("out");
    let run = zhnovel(&[
        "analyze",
        SMALL,
        "no/such.txt",
        OTHER,
        "-o",
        p(&out),
        "-q",
        "--keep-going",
    ]);
    assert_eq!(run.code(), 1, "{}", run.stderr());
    assert_eq!(
        run.stderr(),
        "zhnovel: no/such.txt: no such file or folder\n"
    );
    let chapters = records(&out.join("chapters.csv"));
    assert_eq!(chapters.len(), 2);
    assert!(chapters[0][2].ends_with("003_52543226f0914772.txt"));
}

// `split --help`, `entities --help` and `segment --help` offered flags that
// did nothing there.
#[test]
fn each_subcommand_offers_only_the_options_it_uses() {
    let absent: [(&str, &[&str]); 3] = [
        (
            "split",
            &["--convert", "--opencc-config", "--dict", "--aliases"],
        ),
        (
            "entities",
            &["--window", "--min-count", "--all-words", "--no-bom"],
        ),
        ("segment", &["--chapter-pattern", "--aliases"]),
    ];
    for (command, flags) in absent {
        let help = zhnovel(&[command, "--help"]).success().stdout();
        for flag in flags {
            assert!(!help.contains(flag), "{command} --help offers {flag}");
        }
    }
    let present: [(&str, &[&str]); 3] = [
        ("split", &["--encoding", "--lossy", "--chapter-pattern"]),
        ("entities", &["--format", "--script", "--dict", "--aliases"]),
        (
            "segment",
            &["--encoding", "--convert", "--dict", "--no-hmm"],
        ),
    ];
    for (command, flags) in present {
        let help = zhnovel(&[command, "--help"]).success().stdout();
        for flag in flags {
            assert!(help.contains(flag), "{command} --help lacks {flag}");
        }
    }
}
