//! Reading YAML inputs (fixtures, deal files) with errors that say file:line:column.
//!
//! serde-saphyr reports a location and a source snippet for every error, including missing
//! fields and duplicate keys (which it rejects), so a typo in a fixture points at itself.

use serde::de::DeserializeOwned;
use std::fmt;
use std::path::{Path, PathBuf};

/// A YAML file that could not be read into the expected shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlError {
    pub path: PathBuf,
    /// From 1; 0 when the error has no position (e.g. the file cannot be read).
    pub line: u64,
    pub column: u64,
    pub message: String,
    /// The offending lines with a caret, when there is a position.
    pub snippet: String,
}

impl fmt::Display for YamlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.path.display(), self.message)
        } else {
            write!(
                f,
                "{}:{}:{}: {}",
                self.path.display(),
                self.line,
                self.column,
                self.message
            )?;
            if !self.snippet.is_empty() {
                write!(f, "\n{}", self.snippet)?;
            }
            Ok(())
        }
    }
}

impl std::error::Error for YamlError {}

/// Parses `text`, the content of `path`, into a `T`.
pub fn parse<T: DeserializeOwned>(text: &str, path: &Path) -> Result<T, YamlError> {
    serde_saphyr::from_str(text).map_err(|e| {
        let (line, column) = e.location().map_or((0, 0), |l| (l.line(), l.column()));
        let shown = e
            .to_string()
            .replace("<input>", &path.display().to_string());
        let mut lines = shown.lines();
        let first = lines.next().unwrap_or_default();
        // The first line reads "error: line L column C: message"; keep only the message.
        let message = first
            .strip_prefix("error: ")
            .unwrap_or(first)
            .split_once(": ")
            .filter(|(at, _)| at.starts_with("line "))
            .map_or(first, |(_, message)| message)
            .to_string();
        YamlError {
            path: path.to_path_buf(),
            line,
            column,
            message,
            snippet: lines.collect::<Vec<_>>().join("\n"),
        }
    })
}

/// Reads and parses the file at `path`.
pub fn load<T: DeserializeOwned>(path: &Path) -> Result<T, YamlError> {
    let text = crate::input::read_to_string(path, crate::input::YAML).map_err(|e| YamlError {
        path: path.to_path_buf(),
        line: 0,
        column: 0,
        message: format!("cannot read: {e}"),
        snippet: String::new(),
    })?;
    parse(&text, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Row {
        cards: Vec<u16>,
        name: String,
    }

    fn error(text: &str) -> YamlError {
        parse::<Row>(text, Path::new("t.yaml")).unwrap_err()
    }

    #[test]
    fn errors_name_file_line_and_column() {
        let typo = error("cards: [1]\nnmae: x\n");
        assert_eq!((typo.line, typo.column), (2, 1));
        assert!(
            typo.to_string()
                .starts_with("t.yaml:2:1: unknown field `nmae`"),
            "{typo}"
        );
        assert!(typo.snippet.contains("t.yaml:2:1"), "{}", typo.snippet);
        let duplicate = error("cards: [1]\nname: x\nname: y\n");
        assert_eq!((duplicate.line, duplicate.column), (3, 1));
        assert!(duplicate.message.contains("duplicate"), "{duplicate}");
        let wrong_type = error("cards: [1, two]\nname: x\n");
        assert_eq!((wrong_type.line, wrong_type.column), (1, 12));
        let missing = error("cards: [1]\n");
        assert!(
            missing.message.contains("missing field `name`"),
            "{missing}"
        );
        assert_eq!(missing.line, 1);
    }
}
