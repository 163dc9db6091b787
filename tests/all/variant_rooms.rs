//! A variant owns its room: no source file outside src/variants/ names a variant's enum value
//! (`Variant::Circle`, `AnyGame::Pro(..)`, a `use` of them or an alias of the enums that could
//! name them). Shared code reaches a variant through the registry (`Variant::describe`,
//! `Variant::visit`, `Variant::default`, `Variant::from_name`); src/variants/README.md says how.

use std::path::{Path, PathBuf};
use take5::variants::Variant;

/// The enums whose values are a variant's.
const ENUMS: [&str; 2] = ["Variant", "AnyGame"];

/// Each `(line, text)` of `source` that names a value of one of [`ENUMS`] as one of
/// `variants` (the enum values' names), imports them or renames an enum.
fn namings(source: &str, variants: &[String]) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (n, line) in source.lines().enumerate() {
        if ENUMS.iter().any(|e| names_a_value(line, e, variants)) {
            found.push((n + 1, line.trim().to_string()));
        }
    }
    found
}

/// Whether `line` has `enum::` (the enum's own name, not the end of a longer one) followed by
/// one of `variants`, a `{` or `*` (a `use` of its values), or `enum as` (an alias, which could
/// name them).
fn names_a_value(line: &str, name: &str, variants: &[String]) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    line.match_indices(name).any(|(at, _)| {
        if line[..at].chars().next_back().is_some_and(ident) {
            return false;
        }
        let after = &line[at + name.len()..];
        // `<Variant as Trait>` is a path to the trait's item, not an alias.
        if after.starts_with(" as ") {
            return !line[..at].ends_with('<');
        }
        let Some(path) = after.strip_prefix("::") else {
            return false;
        };
        let path = path.trim_start();
        path.starts_with('{')
            || path.starts_with('*')
            || variants.iter().any(|v| {
                path.strip_prefix(v.as_str())
                    .is_some_and(|rest| !rest.starts_with(ident))
            })
    })
}

/// The enum values' names: `TakeANumber` for `take-a-number`.
fn value_names() -> Vec<String> {
    Variant::ALL.iter().map(|v| format!("{v:?}")).collect()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_source_file_outside_src_variants_names_a_variant() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    files.sort();
    let inside = root.join("src").join("variants");
    let variants = value_names();
    let mut offences = Vec::new();
    for file in files.iter().filter(|f| !f.starts_with(&inside)) {
        let source = std::fs::read_to_string(file).unwrap();
        for (line, text) in namings(&source, &variants) {
            let file = file.strip_prefix(root).unwrap().display();
            offences.push(format!("{file}:{line}: {text}"));
        }
    }
    assert!(
        offences.is_empty(),
        "these lines name a variant outside src/variants/ (reach it through the registry: \
         src/variants/README.md):\n{}",
        offences.join("\n")
    );
}

#[test]
fn the_lint_finds_a_variant_named_imported_or_aliased() {
    let variants = value_names();
    let source = "\
let a = Variant::TakeANumber;
match game { AnyGame::Circle(g) => g, _ => todo!() }
use crate::variants::Variant::*;
use crate::variants::AnyGame::{Classic, Pro};
use crate::variants::Variant as Kind;
if v == crate::variants::Variant::Pro {}
let fine = Variant::default();
let fine = Variant::ALL;
let fine = MyVariant::Classic;
let fine = Variant::Professional;
let fine = <Variant as clap::ValueEnum>::value_variants();
";
    let lines: Vec<usize> = namings(source, &variants).iter().map(|(n, _)| *n).collect();
    assert_eq!(lines, [1, 2, 3, 4, 5, 6]);
}
