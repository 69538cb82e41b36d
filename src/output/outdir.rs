//! The output folder of a run (`-o`): locked against a second run, written
//! through a staging folder, and swapped in whole at the end.
//!
//! A run writes every file into `.zhnovel-staging/` inside the folder (the
//! writers of `output` take that path like any other). `commit` then lists
//! what the staging folder holds in `run.json` (its `files`), writes that
//! last, and moves the files into place: first the files of the previous
//! run that this run does not write are removed (only those the previous
//! `run.json` lists, never anything else), then the new files are renamed
//! over the old ones, `run.json` last, and the staging folder goes.
//!
//! A run killed before its `run.json` is in the staging folder leaves the
//! previous tables untouched; the next run deletes the stale staging folder.
//! A run killed during the swap (renames only) leaves a staging folder with
//! its `run.json`, and the next run finishes that swap before it starts. So
//! the folder always holds one complete run, or comes back to one. Any new
//! output file is covered simply by being written into the staging folder.

use crate::error::{Error, Result};
use serde::Serialize;
use std::fs::File;
use std::path::{Path, PathBuf};

/// The manifest by which zhnovel knows a folder it wrote.
pub const MANIFEST: &str = "run.json";
/// Where a run writes before its files are swapped in.
pub const STAGING: &str = ".zhnovel-staging";
/// Held (an OS file lock) by the run writing into the folder.
pub const LOCK: &str = ".zhnovel.lock";

/// run.json: what produced the files in a folder, and which files they are.
#[derive(Debug, Clone, Serialize)]
pub struct Manifest {
    pub tool: &'static str,
    pub version: &'static str,
    pub inputs: Vec<String>,
    pub options: serde_json::Value,
    /// When the run finished, RFC 3339 in UTC (`2026-12-03T07:15:21Z`).
    pub time: String,
    /// Every file the run wrote, relative to the folder, `/`-separated and
    /// sorted (filled in by `OutputDir::commit`).
    pub files: Vec<String>,
}

impl Manifest {
    /// The manifest of a run finishing now (`files` are filled in by
    /// `OutputDir::commit`).
    pub fn now(inputs: Vec<String>, options: serde_json::Value) -> Manifest {
        let now = jiff::Timestamp::now();
        Manifest {
            tool: "zhnovel",
            version: env!("CARGO_PKG_VERSION"),
            inputs,
            options,
            time: now
                .round(jiff::Unit::Second)
                .map_or_else(|_| now.to_string(), |t| t.to_string()),
            files: Vec::new(),
        }
    }
}

/// Copies the files of a run's folder (not its run.json, lock or staging
/// folder) into `to`, which is created: how `zhnovel merge` takes a book's
/// tables into a shelf.
pub fn copy_run(from: &Path, to: &Path) -> Result<()> {
    let write_err = |path: &Path| {
        let path = path.to_path_buf();
        move |source| Error::Write { path, source }
    };
    let read_err = |source| Error::Read {
        path: from.to_path_buf(),
        source,
    };
    std::fs::create_dir_all(to).map_err(write_err(to))?;
    for entry in std::fs::read_dir(from).map_err(read_err)? {
        let entry = entry.map_err(read_err)?;
        let name = entry.file_name();
        if [MANIFEST, LOCK, STAGING].iter().any(|n| name == *n) {
            continue;
        }
        let target = to.join(&name);
        if entry.path().is_dir() {
            copy_run(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target).map_err(write_err(&target))?;
        }
    }
    Ok(())
}

/// An output folder opened for one run: locked, with a fresh staging folder.
#[derive(Debug)]
pub struct OutputDir {
    root: PathBuf,
    staging: PathBuf,
    /// Set once the swap begins: from then on the staging folder is the
    /// only record of what is left to move, so it is kept if the swap fails.
    swapping: bool,
    /// Holds the lock until the run ends (dropped, or the process dies).
    _lock: File,
}

impl Drop for OutputDir {
    /// A run that ends without `commit` (an error) leaves no staging folder.
    fn drop(&mut self) {
        if !self.swapping {
            let _ = std::fs::remove_dir_all(&self.staging);
        }
    }
}

impl OutputDir {
    /// Opens `root` for a run: creates it if missing; refuses a non-empty
    /// folder that zhnovel did not write unless `force` (and then touches
    /// nothing in it); takes the lock, or fails at once if another run holds
    /// it; finishes or deletes what a killed run left; makes the staging
    /// folder.
    pub fn open(root: &Path, force: bool) -> Result<OutputDir> {
        let write_err = |path: &Path| {
            let path = path.to_path_buf();
            move |source| Error::Write { path, source }
        };
        if root.exists() {
            if !root.is_dir() {
                return Err(Error::Invalid {
                    path: root.to_path_buf(),
                    message: "output path exists and is not a folder".into(),
                });
            }
            if !force && is_foreign(root)? {
                return Err(Error::ForeignOutput {
                    path: root.to_path_buf(),
                });
            }
        } else {
            std::fs::create_dir_all(root).map_err(write_err(root))?;
        }
        let lock_path = root.join(LOCK);
        let lock = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(write_err(root))?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(Error::Locked {
                    path: root.to_path_buf(),
                    lock: LOCK,
                })
            }
            Err(std::fs::TryLockError::Error(source)) => {
                return Err(Error::Write {
                    path: lock_path,
                    source,
                })
            }
        }
        let staging = root.join(STAGING);
        if staging.join(MANIFEST).is_file() {
            swap_in(root, &staging)?;
        }
        if staging.exists() {
            std::fs::remove_dir_all(&staging).map_err(write_err(&staging))?;
        }
        std::fs::create_dir(&staging).map_err(write_err(&staging))?;
        Ok(OutputDir {
            root: root.to_path_buf(),
            staging,
            swapping: false,
            _lock: lock,
        })
    }

    /// The folder the run writes into (its files appear in `root` at `commit`).
    pub fn staging(&self) -> &Path {
        &self.staging
    }

    /// The output folder itself.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Lists the staging folder in `manifest.files`, writes `run.json` last,
    /// and swaps the run's files into the folder. Returns the list.
    pub fn commit(mut self, mut manifest: Manifest) -> Result<Vec<String>> {
        let mut files = Vec::new();
        list_files(&self.staging, "", &mut files)?;
        files.sort();
        manifest.files = files.clone();
        crate::output::atomic_write(&self.staging.join(MANIFEST), |w| {
            serde_json::to_writer_pretty(&mut *w, &manifest)?;
            std::io::Write::write_all(w, b"\n")
        })?;
        crate::output::test_pause("commit");
        self.swapping = true;
        swap_in(&self.root, &self.staging)?;
        Ok(files)
    }
}

/// Whether a non-empty folder holds files zhnovel did not write: it has no
/// `run.json`, and no staging folder with one, beside our lock and staging.
fn is_foreign(root: &Path) -> Result<bool> {
    if root.join(MANIFEST).is_file() || root.join(STAGING).join(MANIFEST).is_file() {
        return Ok(false);
    }
    Ok(entries(root)?
        .iter()
        .any(|e| e.file_name() != LOCK && e.file_name() != STAGING))
}

/// The entries of a folder; an error names the folder.
fn entries(dir: &Path) -> Result<Vec<std::fs::DirEntry>> {
    let read_err = |source| Error::Read {
        path: dir.to_path_buf(),
        source,
    };
    std::fs::read_dir(dir)
        .map_err(read_err)?
        .map(|e| e.map_err(read_err))
        .collect()
}

/// The files under `dir` (relative, `/`-separated), temp files left out.
fn list_files(dir: &Path, prefix: &str, out: &mut Vec<String>) -> Result<()> {
    for entry in entries(dir)? {
        let name = entry.file_name().to_string_lossy().into_owned();
        let rel = format!("{prefix}{name}");
        let path = entry.path();
        if path.is_dir() {
            list_files(&path, &format!("{rel}/"), out)?;
        } else if !(name.starts_with('.') && name.ends_with(".tmp")) && rel != MANIFEST {
            out.push(rel);
        }
    }
    Ok(())
}

/// The `files` of a folder's run.json (none if it has none, or an older
/// run.json without the list).
fn manifest_files(path: &Path) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    let Ok(value) = serde_json::from_str::<serde_json::Value>(&text) else {
        return Vec::new();
    };
    value["files"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|f| f.as_str())
                .filter(|f| is_plain_relative(f))
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}

/// A listed file name that stays inside the folder (no `..`, not absolute),
/// so a tampered run.json cannot make a run delete files elsewhere.
fn is_plain_relative(file: &str) -> bool {
    !file.is_empty()
        && Path::new(file)
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)))
}

/// Moves a complete staging folder (one with its run.json) into `root`:
/// removes the previous run's files that the new run does not have, renames
/// the new ones into place, run.json last, and removes the staging folder.
/// Idempotent, so a swap cut short is finished by the next run.
fn swap_in(root: &Path, staging: &Path) -> Result<()> {
    let write_err = |path: &Path| {
        let path = path.to_path_buf();
        move |source| Error::Write { path, source }
    };
    let new = manifest_files(&staging.join(MANIFEST));
    for old in manifest_files(&root.join(MANIFEST)) {
        if new.contains(&old) {
            continue;
        }
        let path = root.join(&old);
        match std::fs::remove_file(&path) {
            Ok(()) => remove_empty_parents(root, &path),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(write_err(&path)(e)),
        }
    }
    for file in new.iter().map(String::as_str).chain([MANIFEST]) {
        let from = staging.join(file);
        if !from.exists() {
            continue; // moved before the swap was cut short
        }
        let to = root.join(file);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(write_err(parent))?;
        }
        std::fs::rename(&from, &to).map_err(write_err(&to))?;
    }
    std::fs::remove_dir_all(staging).map_err(write_err(staging))
}

/// Removes the folders between `file` and `root` that are left empty.
fn remove_empty_parents(root: &Path, file: &Path) {
    let mut dir = file.parent();
    while let Some(d) = dir {
        if d == root || std::fs::remove_dir(d).is_err() {
            break;
        }
        dir = d.parent();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest() -> Manifest {
        Manifest {
            tool: "zhnovel",
            version: "test",
            inputs: vec![],
            options: serde_json::Value::Null,
            time: String::new(),
            files: vec![],
        }
    }

    #[test]
    fn a_run_replaces_the_previous_runs_files_and_only_those() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let out = OutputDir::open(root, false).unwrap();
        std::fs::write(out.staging().join("a.csv"), "1").unwrap();
        std::fs::create_dir(out.staging().join("book")).unwrap();
        std::fs::write(out.staging().join("book/b.csv"), "1").unwrap();
        let files = out.commit(manifest()).unwrap();
        assert_eq!(files, ["a.csv", "book/b.csv"]);
        std::fs::write(root.join("notes.txt"), "mine").unwrap();

        let out = OutputDir::open(root, false).unwrap();
        std::fs::write(out.staging().join("c.csv"), "2").unwrap();
        out.commit(manifest()).unwrap();
        assert!(!root.join("a.csv").exists());
        assert!(!root.join("book").exists());
        assert_eq!(std::fs::read_to_string(root.join("c.csv")).unwrap(), "2");
        assert_eq!(
            std::fs::read_to_string(root.join("notes.txt")).unwrap(),
            "mine"
        );
        assert!(!root.join(STAGING).exists());
    }

    #[test]
    fn a_second_run_is_refused_while_the_first_holds_the_lock() {
        let dir = tempfile::tempdir().unwrap();
        let first = OutputDir::open(dir.path(), false).unwrap();
        let err = OutputDir::open(dir.path(), false).unwrap_err();
        assert!(matches!(err, Error::Locked { .. }), "{err}");
        drop(first);
        OutputDir::open(dir.path(), false).unwrap();
    }

    #[test]
    fn a_listed_file_outside_the_folder_is_never_removed() {
        assert!(is_plain_relative("book/entities.csv"));
        assert!(!is_plain_relative("../x.csv"));
        assert!(!is_plain_relative("/etc/passwd"));
    }
}
