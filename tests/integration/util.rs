//! Test helper: temp dirs, fixture files (also raw bytes in legacy
//! encodings), and runs of the real binary with both outputs framed on failure.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub const SEEDS: [&str; 4] = [
    "000_d5ffedeeae825584.txt",
    "001_b099871ce0f113ab.txt",
    "002_603afdb5eb7acf6a.txt",
    "003_52543226f0914772.txt",
];

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn seed_path(name: &str) -> PathBuf {
    repo().join("corpus/seeds").join(name)
}

pub fn seed(name: &str) -> String {
    std::fs::read_to_string(seed_path(name)).unwrap()
}

pub struct Dir {
    pub dir: tempfile::TempDir,
}

impl Dir {
    pub fn new() -> Dir {
        Dir {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    pub fn write(&self, rel: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let p = self.path(rel);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(&p, bytes).unwrap();
        p
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.path(rel)).unwrap_or_else(|e| panic!("reading {rel}: {e}"))
    }
}

/// The result of one run of the binary.
pub struct Run {
    pub args: Vec<String>,
    pub out: Output,
}

impl Run {
    pub fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.out.stdout).into_owned()
    }

    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.out.stderr).into_owned()
    }

    pub fn code(&self) -> i32 {
        self.out.status.code().unwrap_or(-1)
    }

    fn frame(&self) -> String {
        format!(
            "\n=== zhnovel {}\n=== exit {}\n=== stdout\n{}\n=== stderr\n{}\n===",
            self.args.join(" "),
            self.code(),
            self.stdout(),
            self.stderr()
        )
    }

    pub fn success(self) -> Run {
        assert!(
            self.out.status.success(),
            "expected success{}",
            self.frame()
        );
        self
    }

    /// Fails with `code`, printing one line on stderr that contains `needle`.
    pub fn fails(self, code: i32, needle: &str) -> Run {
        assert_eq!(self.code(), code, "exit code{}", self.frame());
        let err = self.stderr();
        assert_eq!(
            err.trim_end().lines().count(),
            1,
            "one-line error{}",
            self.frame()
        );
        assert!(
            err.contains(needle),
            "stderr should mention {needle:?}{}",
            self.frame()
        );
        assert!(!err.contains("panicked"), "panic{}", self.frame());
        self
    }
}

pub fn zhnovel(args: &[&str]) -> Run {
    zhnovel_stdin(args, None)
}

pub fn zhnovel_stdin(args: &[&str], stdin: Option<&[u8]>) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_zhnovel"));
    cmd.args(args).current_dir(repo());
    cmd.stdin(if stdin.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    });
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    if let Some(bytes) = stdin {
        use std::io::Write;
        child.stdin.take().unwrap().write_all(bytes).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    Run {
        args: args.iter().map(|s| s.to_string()).collect(),
        out,
    }
}

pub fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Parses a CSV table written by zhnovel (BOM stripped) into records.
pub fn records(path: &Path) -> Vec<csv::StringRecord> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(&text);
    csv::Reader::from_reader(text.as_bytes())
        .records()
        .map(|r| r.unwrap())
        .collect()
}

/// Finds the entities.csv row of a name.
pub fn entity_row(dir: &Path, name: &str) -> Option<csv::StringRecord> {
    records(&dir.join("entities.csv"))
        .into_iter()
        .find(|r| &r[0] == name)
}
