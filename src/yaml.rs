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
        let error = YamlError {
            path: path.to_path_buf(),
            line,
            column,
            message,
            snippet: lines.collect::<Vec<_>>().join("\n"),
        };
        match unclosed_bracket(text, line as usize, column as usize) {
            // The parser named the bracket itself: its message stands, with the hint.
            Some(open) if (open.line, open.column) == (line as usize, column as usize) => {
                YamlError {
                    message: open.explain(line as usize, column as usize, &error.message),
                    ..error
                }
            }
            Some(open) => error.blamed_on(open, text),
            None => error,
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

/// A flow bracket (`[` or `{`) left open, at its line and column (from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unclosed {
    pub line: usize,
    pub column: usize,
    pub bracket: char,
    /// A ` #` comment after it on its line: a value with ` #` that was meant to be one (`{name:
    /// bot #2, ...}`), whose comment swallowed the bracket's end.
    pub comment: bool,
}

impl Unclosed {
    /// The message for a parser error (`message`, noticed at `line` and `column`) that this
    /// bracket caused.
    pub fn explain(&self, line: usize, column: usize, message: &str) -> String {
        let hint = if self.comment {
            "; ` #` on its line starts a comment, which hides the rest of the line: \
             a value with ` #` needs quotes (`name: \"bot #2\"`)"
        } else {
            ""
        };
        if (line, column) == (self.line, self.column) {
            return format!("{message}{hint}");
        }
        format!(
            "this `{}` is not closed (the YAML parser noticed at {line}:{column}: {message}){hint}",
            self.bracket
        )
    }
}

/// The bracket a parser error at `error_line` and `error_column` is about: one still open
/// where the error's line starts, opened on an earlier line indented as much or more (a bracket
/// left unclosed, which the YAML parser notices only at the next key, one line too late), or
/// the bracket at the error's place itself. Quoted text and comments are skipped.
pub fn unclosed_bracket(text: &str, error_line: usize, error_column: usize) -> Option<Unclosed> {
    let lines: Vec<&str> = text.lines().collect();
    let mut open: Vec<Unclosed> = Vec::new();
    for (i, line) in lines.iter().enumerate().take(error_line) {
        let mut quote: Option<char> = None;
        let mut prev = ' ';
        let mut chars = line.chars().enumerate();
        while let Some((column, c)) = chars.next() {
            // Past the error only a comment is looked for.
            let past = i + 1 == error_line && column + 1 > error_column;
            match quote {
                Some('"') if c == '\\' => {
                    chars.next();
                }
                Some(q) if c == q => quote = None,
                Some(_) => {}
                None => match c {
                    '#' if prev.is_whitespace() => {
                        if let Some(last) = open.last_mut().filter(|o| o.line == i + 1) {
                            last.comment = true;
                        }
                        break;
                    }
                    '"' | '\'' if " [{,:".contains(prev) => quote = Some(c),
                    '[' | '{' if !past => open.push(Unclosed {
                        line: i + 1,
                        column: column + 1,
                        bracket: c,
                        comment: false,
                    }),
                    ']' | '}' if !past => {
                        open.pop();
                    }
                    _ => {}
                },
            }
            prev = c;
        }
    }
    let unclosed = *open.last()?;
    if unclosed.line == error_line {
        return (unclosed.column == error_column).then_some(unclosed);
    }
    let indent = |line: &str| line.len() - line.trim_start().len();
    let at_error = lines.get(error_line - 1).map_or(0, |l| indent(l));
    (at_error <= indent(lines[unclosed.line - 1])).then_some(unclosed)
}

/// Where the plain (unquoted) value `value`, read at `line` and `column` (from 1) of `text`, is
/// followed on its line by a ` #` comment: a hint that the value was meant to go on (`name: bot
/// #2` is read as `bot`) and needs quotes; `None` when nothing follows it but spaces.
pub fn comment_after(text: &str, line: usize, column: usize, value: &str) -> Option<String> {
    let shown = text.lines().nth(line.checked_sub(1)?)?;
    let from: String = shown.chars().skip(column.checked_sub(1)?).collect();
    let rest = from.strip_prefix(value)?;
    let comment = rest.trim_start();
    (comment.starts_with('#') && rest.len() > comment.len()).then(|| {
        format!(
            "` {comment}` after it is a YAML comment, so it was read as `{value}`: a value with \
             ` #` needs quotes (`\"{value} {comment}\"`)"
        )
    })
}

impl YamlError {
    /// This error told as the unclosed bracket `open` of `text`, the parser's own message after.
    fn blamed_on(self, open: Unclosed, text: &str) -> YamlError {
        let (line, column) = (open.line, open.column);
        let shown = text.lines().nth(line - 1).unwrap_or_default();
        let pad = " ".repeat(line.to_string().len());
        YamlError {
            message: open.explain(self.line as usize, self.column as usize, &self.message),
            snippet: format!(
                "{pad} --> {}:{line}:{column}\n{pad} |\n{line} | {shown}\n{pad} | {}^ not closed",
                self.path.display(),
                " ".repeat(column - 1)
            ),
            line: line as u64,
            column: column as u64,
            path: self.path,
        }
    }
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
        let unclosed = error("cards: [1, 2\nname: x\n");
        assert_eq!((unclosed.line, unclosed.column), (1, 8), "{unclosed}");
        assert!(
            unclosed.message.starts_with("this `[` is not closed"),
            "{unclosed}"
        );
        let closed_later = error("cards: [1,\n  2]\nname: [x\n");
        assert!(
            !closed_later.message.contains("not closed"),
            "{closed_later}"
        );
        let commented = error("cards: [1, 2 #3]\nname: x\n");
        assert!(commented.message.contains("needs quotes"), "{commented}");
        let missing = error("cards: [1]\n");
        assert!(
            missing.message.contains("missing field `name`"),
            "{missing}"
        );
        assert_eq!(missing.line, 1);
    }
}
