//! Self-contained HTML pages: a game to step through (`take5 show --html`) and a tournament's
//! report (`take5 stats --html`, [`super::tournament_report`]). Everything is in the one page: the data as
//! JSON, the style and the script; nothing is loaded from anywhere.

use super::{Shown, SpecialFace};
use crate::cards::Special;
use serde::Serialize;

/// JSON for inside a `<script>` element: `<`, `>` and `&` (which JSON holds only inside
/// strings) written as `\u003c`, `\u003e`, `\u0026`, so that no string from a bot, a file or
/// a flag can end the element (`</script>`) or open a comment in it (`<!--`), which would leave
/// the page drawing nothing. `JSON.parse` reads them back as the characters.
fn script_json(value: &impl Serialize) -> String {
    let json = serde_json::to_string(value).expect("page data serialize");
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            _ => out.push(c),
        }
    }
    out
}

/// Fills the page's `<!--HEAD-->` with the head every page shares (its content security policy
/// among it), its `/*DATA*/` with `data`; a report page's `/*STYLE*/` with the style the
/// report pages share, and its `/*CHARTS*/` with the chart helpers. The data goes in last, so
/// that nothing in it is taken for a placeholder.
pub(super) fn page(template: &str, data: &impl Serialize) -> String {
    template
        .replacen("<!--HEAD-->\n", include_str!("head.html"), 1)
        .replacen("/*STYLE*/", include_str!("report.css"), 1)
        .replacen("/*CHARTS*/", include_str!("charts.js"), 1)
        .replacen("/*DATA*/", &script_json(data), 1)
}

/// A report page: the frame the report pages share (report.html: the head, the style, the data
/// element and the script every report reads it with) around the page's `title`, its `main`
/// element and its own `script`, filled as [`page`] fills a page.
pub(super) fn report(title: &str, main: &str, script: &str, data: &impl Serialize) -> String {
    let template = include_str!("report.html")
        .replacen("<!--TITLE-->", title, 1)
        .replacen("<!--MAIN-->\n", main, 1)
        .replacen("/*SCRIPT*/\n", script, 1);
    page(&template, data)
}

/// What the game page draws: the game, and every special card's face (the page draws the
/// ones lying on a row by their kind: 7 nimmt!, Stop, 5th Row).
#[derive(Serialize)]
struct GamePage<'a> {
    #[serde(flatten)]
    shown: &'a Shown,
    special_faces: Vec<SpecialFace>,
}

/// The page of one game: every step's table drawn with cards, buttons and keys to step, and
/// the totals over the rounds (or the turns of a game of one round) as a chart.
pub fn game(shown: &Shown) -> String {
    let kinds = Special::ANNIVERSARY.into_iter().chain(Special::CIRCLE);
    let data = GamePage {
        shown,
        special_faces: kinds.map(SpecialFace::of).collect(),
    };
    page(include_str!("game.html"), &data)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_json_holds_no_character_that_could_end_the_script_or_open_a_comment() {
        let hostile = ["<!--<script>", "</script><b>x", "a & b > c", "]]>"];
        let json = script_json(&hostile);
        for c in ['<', '>', '&'] {
            assert!(!json.contains(c), "{c} in {json}");
        }
        assert_eq!(
            json,
            r#"["\u003c!--\u003cscript\u003e","\u003c/script\u003e\u003cb\u003ex","a \u0026 b \u003e c","]]\u003e"]"#
        );
        let back: Vec<String> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, hostile);
    }
}
