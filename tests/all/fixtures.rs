//! Every fixture under fixtures/ must pass, and its transcript (every event, the table after
//! each step, the end) is a snapshot under tests/all/snapshots/, so a change in behaviour shows up
//! as a snapshot diff in review. With CI=true a mismatch fails (insta's behaviour).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use take5::fixture::{self, report};

/// Every fixture file under fixtures/, in a fixed order.
fn fixture_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut folders = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "yaml") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The snapshot name of a fixture: its path under fixtures/, `/` becoming `__` (insta's rule
/// for suffixes).
fn suffix(path: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let relative = path.strip_prefix(&root).unwrap_or(path);
    relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// Checks one fixture and its transcript's snapshot; panics with the verdict and diff.
fn check(path: &Path) {
    // Loaded by its path from the package root (the tests' working folder), so that what the
    // transcript quotes of a house script's messages (its path) is the same everywhere.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let from_root = path.strip_prefix(root).unwrap_or(path);
    let fixture = fixture::load(from_root).unwrap_or_else(|e| panic!("{}", report::error(&e)));
    let run = fixture::run(&fixture).unwrap_or_else(|e| panic!("{}", report::error(&e)));
    if let Some(failure) = &run.failure {
        panic!(
            "{}\n{}",
            report::verdict(&fixture, &run),
            report::diff(failure)
        );
    }
    insta::with_settings!({
        snapshot_suffix => suffix(path),
        input_file => from_root,
        description => format!("take5 check {}", suffix(path)),
        omit_expression => true,
    }, {
        insta::assert_snapshot!("fixture", report::transcript(&fixture, &run));
    });
}

/// Every fixture, each checked even when an earlier one fails; the failures are listed at the
/// end (as insta's `glob!` does, without the glob and regex crates it compiles).
#[test]
fn fixture() {
    let failed: Vec<String> = fixture_files()
        .iter()
        .filter(|path| std::panic::catch_unwind(|| check(path)).is_err())
        .map(|path| suffix(path))
        .collect();
    assert!(failed.is_empty(), "fixtures that failed: {failed:?}");
}

/// A snapshot whose fixture was renamed or deleted would linger unnoticed (insta only finds
/// those with cargo-insta's --unreferenced): each snapshot of `fixture` must have its file.
#[test]
fn no_orphan_snapshots() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fixtures: BTreeSet<String> = fixture_files()
        .iter()
        .map(|path| suffix(path).replace('/', "__"))
        .collect();
    let mut orphans = Vec::new();
    let mut leftovers = Vec::new();
    let snapshots = std::fs::read_dir(root.join("tests/all/snapshots"));
    for entry in snapshots.into_iter().flatten() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".snap.new") || name.ends_with(".pending-snap") {
            leftovers.push(name);
        } else if let Some(rest) = name.strip_prefix("all__fixtures__fixture@") {
            let fixture = rest.strip_suffix(".snap").unwrap_or(rest);
            if !fixtures.contains(fixture) {
                orphans.push(name);
            }
        }
    }
    assert!(
        orphans.is_empty(),
        "snapshots without a fixture (delete them, or restore the fixture): {orphans:?}"
    );
    assert!(
        leftovers.is_empty() || std::env::var_os("CI").is_none(),
        "unreviewed snapshots must not be committed: {leftovers:?}"
    );
}
