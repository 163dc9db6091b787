//! The layers of docs/architecture.md, kept: every module of src/ has a layer in the doc's
//! table (the one place the layers are written), imports only modules of lower layers or of its
//! own layer, and no modules import each other in a cycle.
//!
//! An import is any `crate::NAME` path (a `use crate::{a, b::c}` group names each of its
//! modules) and any `super::` path that leaves a top-level module, read from the code of each
//! file of src/, without its comments, strings and `#[cfg(test)]` items (a test may build its
//! situation from any room).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// One import of one module by another.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Import {
    file: String,
    line: usize,
    /// The importing top-level module.
    from: String,
    /// The imported top-level module.
    to: String,
    /// The path as written, up to the imported module (`crate::players`, `super::super::rules`).
    path: String,
}

/// The layer table of docs/architecture.md's "## The layers" section: `| LAYER | `module` | job |`
/// rows, the lowest layer first.
fn layers_in(doc: &str) -> BTreeMap<String, u32> {
    let section = doc
        .split("\n## ")
        .find(|s| s.starts_with("The layers"))
        .expect("docs/architecture.md has a section `## The layers`");
    let mut layers = BTreeMap::new();
    for row in section.lines().filter(|l| l.starts_with('|')) {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let (Some(layer), Some(module)) = (cells.get(1), cells.get(2)) else {
            continue;
        };
        let (Ok(layer), Some(module)) = (
            layer.parse::<u32>(),
            module.strip_prefix('`').and_then(|m| m.strip_suffix('`')),
        ) else {
            continue;
        };
        let before = layers.insert(module.to_string(), layer);
        assert!(
            before.is_none(),
            "`{module}` has two rows in the layer table"
        );
    }
    assert!(!layers.is_empty(), "the layer table has no rows");
    layers
}

/// The files of `root` (src/), as (path relative to it, text), in a stable order.
fn sources(root: &Path) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = fs::read_to_string(&path).unwrap();
                let rel = path.strip_prefix(root).unwrap();
                found.push((rel.display().to_string(), text));
            }
        }
    }
    found.sort();
    found
}

/// The module path of a file under `src/`: `src/a/b.rs` and `src/a/b/mod.rs` are `[a, b]`;
/// the crate root (`src/lib.rs`, `src/main.rs`) is `[]`.
fn module_of(file: &str) -> Vec<String> {
    let inside = file
        .split_once("src/")
        .map_or(file, |(_, rest)| rest)
        .trim_end_matches(".rs");
    let mut path: Vec<String> = inside.split('/').map(str::to_string).collect();
    if matches!(path.last().map(String::as_str), Some("mod")) {
        path.pop();
    }
    if path.len() == 1 && matches!(path[0].as_str(), "lib" | "main") {
        path.clear();
    }
    path
}

/// `text` with its comments, string and character literals turned into spaces (line breaks
/// kept, so lines still count).
fn code_of(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let blank = |out: &mut Vec<u8>, part: &[u8]| {
        out.extend(part.iter().map(|&c| if c == b'\n' { b'\n' } else { b' ' }));
    };
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        let ident_before = i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        if rest.starts_with(b"//") {
            let end = rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len());
            blank(&mut out, &rest[..end]);
            i += end;
        } else if rest.starts_with(b"/*") {
            // Block comments nest.
            let (mut depth, mut j) = (0, 0);
            while j < rest.len() {
                if rest[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if rest[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            blank(&mut out, &rest[..j]);
            i += j;
        } else if !ident_before
            && (rest.starts_with(b"r\"")
                || rest.starts_with(b"r#")
                || rest.starts_with(b"br\"")
                || rest.starts_with(b"br#"))
        {
            // A raw string: r#"..."# with as many #s at both ends.
            let start = rest.iter().position(|&c| c == b'r').unwrap() + 1;
            let hashes = rest[start..].iter().take_while(|&&c| c == b'#').count();
            if rest.get(start + hashes) != Some(&b'"') {
                out.push(b[i]);
                i += 1;
                continue;
            }
            let mut closing = vec![b'"'];
            closing.extend(std::iter::repeat_n(b'#', hashes));
            let body = start + hashes + 1;
            let end = rest[body..]
                .windows(closing.len())
                .position(|w| w == closing.as_slice())
                .map_or(rest.len(), |p| body + p + closing.len());
            blank(&mut out, &rest[..end]);
            i += end;
        } else if rest[0] == b'"' {
            let mut j = 1;
            while j < rest.len() && rest[j] != b'"' {
                j += if rest[j] == b'\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(rest.len());
            blank(&mut out, &rest[..end]);
            i += end;
        } else if rest[0] == b'\'' {
            // A character literal ('x', '\n', '\u{1F402}'), or else a lifetime or a label.
            let len = if rest.get(1) == Some(&b'\\') {
                rest[2..].iter().position(|&c| c == b'\'').map(|p| p + 3)
            } else {
                text[i + 1..]
                    .chars()
                    .next()
                    .map(char::len_utf8)
                    .filter(|&n| rest.get(1 + n) == Some(&b'\''))
                    .map(|n| n + 2)
            };
            match len {
                Some(len) => {
                    blank(&mut out, &rest[..len]);
                    i += len;
                }
                None => {
                    out.push(b'\'');
                    i += 1;
                }
            }
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).expect("only ASCII was blanked")
}

/// `code` with each `#[cfg(test)]` item blanked: up to its `;` or its braces' end.
fn without_tests(code: &str) -> String {
    let mut code = code.to_string();
    while let Some(at) = code.find("#[cfg(test)]") {
        let b = code.as_bytes();
        let mut j = at;
        let mut depth = 0;
        while j < b.len() {
            match b[j] {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        j += 1;
                        break;
                    }
                }
                b';' if depth == 0 => {
                    j += 1;
                    break;
                }
                _ => {}
            }
            j += 1;
        }
        let blanked: String = code[at..j]
            .chars()
            .map(|c| if c == '\n' { '\n' } else { ' ' })
            .collect();
        code.replace_range(at..j, &blanked);
    }
    code
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Ident(String),
    Punct(char),
    /// `::`
    Path,
}

/// The tokens of `code` that paths are made of, each with its line.
fn tokens(code: &str) -> Vec<(Token, usize)> {
    let mut found = Vec::new();
    let mut line = 1;
    let mut chars = code.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == '\n' {
            line += 1;
        } else if c.is_alphabetic() || c == '_' {
            let mut end = i + c.len_utf8();
            while let Some(&(j, d)) = chars.peek() {
                if !(d.is_alphanumeric() || d == '_') {
                    break;
                }
                end = j + d.len_utf8();
                chars.next();
            }
            found.push((Token::Ident(code[i..end].to_string()), line));
        } else if c == ':' && chars.peek().is_some_and(|&(_, d)| d == ':') {
            chars.next();
            found.push((Token::Path, line));
        } else if !c.is_whitespace() {
            found.push((Token::Punct(c), line));
        }
    }
    found
}

/// The first segments of the paths of a use group starting at `tokens[at]` (`{`): `a` and `b`
/// of `{a::x, b::{y, z}, self}`, each with its line; `self` and `*` name no module.
fn group_heads(tokens: &[(Token, usize)], at: usize) -> Vec<(String, usize)> {
    let mut heads = Vec::new();
    let mut depth = 0;
    let mut expect_head = false;
    for (token, line) in &tokens[at..] {
        match token {
            Token::Punct('{') => {
                depth += 1;
                expect_head = depth == 1;
            }
            Token::Punct('}') => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            Token::Punct(',') if depth == 1 => expect_head = true,
            Token::Ident(name) if expect_head => {
                if name != "self" {
                    heads.push((name.clone(), *line));
                }
                expect_head = false;
            }
            _ => expect_head = false,
        }
    }
    heads
}

/// The imports of other top-level modules (those in `modules`) in one file of src/.
fn imports_of(file: &str, text: &str, modules: &BTreeSet<String>) -> Vec<Import> {
    let module = module_of(file);
    let Some(from) = module.first().cloned() else {
        return Vec::new(); // the crate root names every module
    };
    let tokens = tokens(&without_tests(&code_of(text)));
    let ident = |k: usize| match tokens.get(k) {
        Some((Token::Ident(name), _)) => Some(name.as_str()),
        _ => None,
    };
    let is = |k: usize, t: Token| tokens.get(k).is_some_and(|(x, _)| *x == t);
    let mut imports = Vec::new();
    // The inline modules (`mod name { ... }`) around the current token: their names and the
    // brace depth each opened at.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    let mut k = 0;
    while k < tokens.len() {
        match &tokens[k].0 {
            Token::Punct('{') => depth += 1,
            Token::Punct('}') => {
                depth -= 1;
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
            }
            Token::Ident(m)
                if m == "mod" && ident(k + 1).is_some() && is(k + 2, Token::Punct('{')) =>
            {
                inline.push((ident(k + 1).unwrap().to_string(), depth));
            }
            _ => {}
        }
        // A path that may leave the module: `crate::`, or `super::` as often as it climbs.
        let (climbed, start) = if ident(k) == Some("crate") && is(k + 1, Token::Path) {
            (None, k + 2)
        } else if ident(k) == Some("super")
            && is(k + 1, Token::Path)
            && !(k >= 2 && ident(k - 2) == Some("super") && is(k - 1, Token::Path))
        {
            let mut ups = 0;
            let mut j = k;
            while ident(j) == Some("super") && is(j + 1, Token::Path) {
                ups += 1;
                j += 2;
            }
            (Some(ups), j)
        } else {
            k += 1;
            continue;
        };
        let written: Vec<&str> = (k..start)
            .map(|j| match &tokens[j].0 {
                Token::Ident(name) => name.as_str(),
                _ => "::",
            })
            .collect();
        let leaves = match climbed {
            None => true,
            Some(ups) => ups >= module.len() + inline.len(),
        };
        if leaves {
            let heads = match &tokens.get(start) {
                Some((Token::Ident(name), line)) => vec![(name.clone(), *line)],
                Some((Token::Punct('{'), _)) => group_heads(&tokens, start),
                _ => Vec::new(),
            };
            for (to, line) in heads {
                if modules.contains(&to) && to != from {
                    imports.push(Import {
                        file: file.to_string(),
                        line,
                        from: from.clone(),
                        to: to.clone(),
                        path: format!("{}{to}", written.concat()),
                    });
                }
            }
        }
        k = start;
    }
    imports
}

/// The top-level modules of src/ (`src/a.rs`, `src/a/`), the crate root's files aside.
fn modules_of(files: &[(String, String)]) -> BTreeSet<String> {
    files
        .iter()
        .filter_map(|(file, _)| module_of(file).first().cloned())
        .collect()
}

/// What breaks the layers among `files`: each import of a module of a higher layer, then each
/// cycle of imports (one a message, naming a file and an import for each step).
fn problems(files: &[(String, String)], layers: &BTreeMap<String, u32>) -> Vec<String> {
    let modules = modules_of(files);
    let imports: Vec<Import> = files
        .iter()
        .flat_map(|(file, text)| imports_of(file, text, &modules))
        .collect();
    let mut problems = Vec::new();
    for import in &imports {
        if let (Some(&from), Some(&to)) = (layers.get(&import.from), layers.get(&import.to))
            && to > from
        {
            problems.push(format!(
                "{}:{}: `{}` (layer {from}) imports `{}` (layer {to}), a layer above it: {}",
                import.file, import.line, import.from, import.to, import.path
            ));
        }
    }
    // One import for each edge of the module graph, the first found.
    let mut edges: BTreeMap<(&str, &str), &Import> = BTreeMap::new();
    for import in &imports {
        edges
            .entry((import.from.as_str(), import.to.as_str()))
            .or_insert(import);
    }
    let mut reported: BTreeSet<Vec<&str>> = BTreeSet::new();
    for start in &modules {
        if let Some(cycle) = cycle_through(start, &edges) {
            let mut key = cycle.clone();
            key.sort_unstable();
            if !reported.insert(key) {
                continue;
            }
            let steps: Vec<String> = cycle
                .iter()
                .zip(cycle.iter().cycle().skip(1))
                .map(|(a, b)| {
                    let import = edges[&(*a, *b)];
                    format!(
                        "{a} -> {b} ({}:{}: {})",
                        import.file, import.line, import.path
                    )
                })
                .collect();
            problems.push(format!("an import cycle: {}", steps.join(", ")));
        }
    }
    problems
}

/// The shortest cycle of `edges` from `start` back to it, if any (a breadth-first search).
fn cycle_through<'a>(
    start: &'a str,
    edges: &BTreeMap<(&'a str, &'a str), &Import>,
) -> Option<Vec<&'a str>> {
    let mut came_from: BTreeMap<&str, &str> = BTreeMap::new();
    let mut frontier = vec![start];
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for &at in &frontier {
            for &(a, b) in edges.keys().filter(|(a, _)| *a == at) {
                if b == start {
                    let mut cycle = vec![a];
                    while let Some(&before) = cycle.last().and_then(|m| came_from.get(m)) {
                        cycle.push(before);
                    }
                    cycle.reverse();
                    return Some(cycle);
                }
                if !came_from.contains_key(b) {
                    came_from.insert(b, a);
                    next.push(b);
                }
            }
        }
        frontier = next;
    }
    None
}

fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn the_layers() -> BTreeMap<String, u32> {
    layers_in(&fs::read_to_string(crate_dir().join("docs/architecture.md")).unwrap())
}

fn the_sources() -> Vec<(String, String)> {
    sources(&crate_dir().join("src"))
        .into_iter()
        .map(|(file, text)| (format!("src/{file}"), text))
        .collect()
}

#[test]
fn every_module_of_src_has_a_layer_in_docs_architecture() {
    let layers = the_layers();
    let modules = modules_of(&the_sources());
    let unplaced: Vec<&String> = modules
        .iter()
        .filter(|m| !layers.contains_key(*m))
        .collect();
    assert!(
        unplaced.is_empty(),
        "modules without a row in docs/architecture.md's layer table: {unplaced:?}"
    );
    let gone: Vec<&String> = layers.keys().filter(|m| !modules.contains(*m)).collect();
    assert!(
        gone.is_empty(),
        "docs/architecture.md's layer table names modules src/ does not have: {gone:?}"
    );
}

#[test]
fn no_module_imports_one_above_it_and_none_import_each_other_in_a_cycle() {
    let problems = problems(&the_sources(), &the_layers());
    assert!(
        problems.is_empty(),
        "the imports break docs/architecture.md's layers:\n{}",
        problems.join("\n")
    );
}

/// A small crate for the check itself: `low` (layer 1) and `high` (layer 2).
fn made_up(files: &[(&str, &str)]) -> Vec<String> {
    let layers = BTreeMap::from([
        ("low".to_string(), 1),
        ("other".to_string(), 1),
        ("high".to_string(), 2),
    ]);
    let files: Vec<(String, String)> = files
        .iter()
        .map(|(f, t)| (f.to_string(), t.to_string()))
        .collect();
    problems(&files, &layers)
}

#[test]
fn the_check_names_the_file_and_the_import_of_a_module_above() {
    let found = made_up(&[
        ("src/high.rs", "pub struct Y;\n"),
        (
            "src/low/mod.rs",
            "//! See crate::high, a comment.\nuse crate::{\n    other::X,\n    high::{Y, Z},\n};\n",
        ),
        (
            "src/low/deep.rs",
            "fn f() -> super::super::high::Y { todo!() }\n",
        ),
        // `low::deeper::inner`'s `super::super` is `low`: `low::high` is no top-level module.
        (
            "src/low/deeper.rs",
            "mod inner {\n    use super::super::high::Y;\n}\n",
        ),
        ("src/other.rs", "const S: &str = \"crate::high\";\n"),
    ]);
    assert_eq!(
        found,
        [
            "src/low/mod.rs:4: `low` (layer 1) imports `high` (layer 2), a layer above it: crate::high",
            "src/low/deep.rs:1: `low` (layer 1) imports `high` (layer 2), a layer above it: super::super::high",
        ]
    );
}

#[test]
fn the_check_leaves_out_test_code() {
    let found = made_up(&[
        ("src/high.rs", "pub struct Y;\n"),
        (
            "src/low.rs",
            "fn f() {}\n#[cfg(test)]\nmod tests {\n    use crate::high::Y;\n    fn g() { let _ = '{'; }\n}\n",
        ),
    ]);
    assert_eq!(found, Vec::<String>::new());
}

#[test]
fn the_check_finds_an_import_cycle_within_a_layer() {
    let found = made_up(&[
        ("src/low.rs", "use crate::other::A;\n"),
        ("src/other/mod.rs", "mod b;\n"),
        ("src/other/b.rs", "\n\nfn f(x: crate::low::B) {}\n"),
        ("src/high.rs", "use crate::{low, other};\n"),
    ]);
    assert_eq!(
        found,
        [
            "an import cycle: low -> other (src/low.rs:1: crate::other), other -> low (src/other/b.rs:3: crate::low)"
        ]
    );
}
