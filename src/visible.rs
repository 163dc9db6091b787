//! Text from a bot or a file, made safe to print on a terminal: a control character in it (ESC,
//! BEL, any other C0 or C1 control, DEL) is shown as an escape (`\x1b`) instead of being sent,
//! so a bot's reply, its stderr, a name or a path cannot retitle the terminal, write the
//! clipboard (OSC 52) or clear the screen. Every printer of such text (tables, faults, error
//! messages, the viewer) goes through [`visible`] or [`visible_lines`]; JSON output needs
//! neither (serde escapes control characters itself).

use std::borrow::Cow;
use std::fmt::Write;

/// `text` with every control character shown as an escape: `\t`, `\n`, `\r`, `\x1b` (C0 and
/// DEL), `\u{9b}` (C1); other characters, printable Unicode included, as they are.
pub fn visible(text: &str) -> Cow<'_, str> {
    escaped(text, false)
}

/// The same for text of several lines: its line ends (`\n`) stay line ends.
pub fn visible_lines(text: &str) -> Cow<'_, str> {
    escaped(text, true)
}

fn escaped(text: &str, keep_line_ends: bool) -> Cow<'_, str> {
    let shown = |c: char| !c.is_control() || (keep_line_ends && c == '\n');
    if text.chars().all(shown) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            _ if shown(c) => out.push(c),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\0'..='\x7f' => {
                let _ = write!(out, "\\x{:02x}", u32::from(c));
            }
            _ => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminal_escapes_are_shown_not_sent() {
        // A title change, a clipboard write (OSC 52), a screen clear, a bell, DEL, a C1 CSI.
        let hostile = "\x1b]0;owned\x07\x1b]52;c;ZWNobw==\x07\x1b[2J\x7f\u{9b}31m";
        assert_eq!(
            visible(hostile),
            "\\x1b]0;owned\\x07\\x1b]52;c;ZWNobw==\\x07\\x1b[2J\\x7f\\u{9b}31m"
        );
        assert!(!visible(hostile).contains(char::is_control));
    }

    #[test]
    fn printable_text_is_kept_as_it_is() {
        let text = "café ünïcode 6 nimmt! 牛 🐂 \\x1b <!--";
        assert!(matches!(visible(text), Cow::Borrowed(t) if t == text));
        assert!(matches!(visible_lines(text), Cow::Borrowed(t) if t == text));
    }

    #[test]
    fn line_ends_are_kept_only_by_visible_lines() {
        assert_eq!(visible("a\tb\r\nc"), "a\\tb\\r\\nc");
        assert_eq!(visible_lines("a\tb\r\nc\x1b"), "a\\tb\\r\nc\\x1b");
    }
}
