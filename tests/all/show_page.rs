//! `take5 show --html` as a player reads it, measured in headless chromium: the page is opened
//! with a script of the test's added after its own, which reads the drawn document (element
//! boxes, texts, attributes) into JSON. The circle game laid out as a ring, the special cards by
//! their printed names, the 5th row marked, a row's bullheads, the 55's bullheads inside its
//! card, the scores at game over, the chart's legend inside the page, the seats by the names the
//! record holds.

use crate::common::{ok, round_robin, take5, temp};
use crate::show::{FOUR, browse_in, events, final_totals, record_of as record};
use serde_json::Value;
use std::path::{Path, PathBuf};

const THREE: [&str; 3] = ["builtin:random", "builtin:dodger", "builtin:lowest"];

/// The game page of `record`, written next to it.
fn page(record: &Path) -> PathBuf {
    let html = ok(&take5(&["show", "--html", record.to_str().unwrap()]));
    let page = record.with_extension("html");
    std::fs::write(&page, html).unwrap();
    page
}

/// The steps of `record` as `take5 show --plain` prints them, from 0 as the page counts them.
fn plain_steps(record: &Path) -> Vec<String> {
    let plain = ok(&take5(&["show", "--plain", record.to_str().unwrap()]));
    plain
        .split("\n== step ")
        .skip(1)
        .map(str::to_string)
        .collect()
}

/// The first step (from 0) whose plain text holds every one of `marks`.
fn step_with(steps: &[String], marks: &[&str]) -> Option<usize> {
    steps
        .iter()
        .position(|s| marks.iter().all(|m| s.contains(m)))
}

/// What `script` (a function body returning a JSON value; `box(e)` gives an element's
/// `[left, top, right, bottom]` in pixels) reads from `page` opened at `fragment` in a window of
/// `size`, after the page's own script ran.
fn measure(page: &Path, fragment: &str, size: (u32, u32), script: &str) -> Value {
    let html = std::fs::read_to_string(page).unwrap();
    let probe = format!(
        "<script>(() => {{ const box = (e) => {{ const r = e.getBoundingClientRect(); \
         return [r.left, r.top, r.right, r.bottom]; }}; const out = document.createElement(\"pre\"); \
         out.id = \"measured\"; out.textContent = JSON.stringify((() => {{ {script} }})()); \
         document.body.appendChild(out); }})();</script></body>"
    );
    let measured = page.with_extension(format!("measured-{}.html", size.0));
    std::fs::write(&measured, html.replacen("</body>", &probe, 1)).unwrap();
    let (dom, requests) = browse_in(&measured, fragment, size);
    assert!(requests.is_empty(), "the page loaded {requests:?}");
    let json = dom
        .split("<pre id=\"measured\">")
        .nth(1)
        .and_then(|rest| rest.split("</pre>").next())
        .unwrap_or_else(|| panic!("the probe found no page at {fragment}:\n{dom}"));
    let json = json
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    serde_json::from_str(&json).unwrap()
}

type Rect = [f64; 4];

fn rect(value: &Value) -> Rect {
    let v: Vec<f64> = value
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    [v[0], v[1], v[2], v[3]]
}

fn rects(value: &Value) -> Vec<Rect> {
    value.as_array().unwrap().iter().map(rect).collect()
}

fn centre(r: &Rect) -> (f64, f64) {
    ((r[0] + r[2]) / 2.0, (r[1] + r[3]) / 2.0)
}

/// Whether `inner` lies inside `outer` (half a pixel of rounding allowed).
fn inside(inner: &Rect, outer: &Rect) -> bool {
    inner[0] >= outer[0] - 0.5
        && inner[1] >= outer[1] - 0.5
        && inner[2] <= outer[2] + 0.5
        && inner[3] <= outer[3] + 0.5
}

/// Whether `a` and `b` cover a common area (more than half a pixel each way).
fn overlap(a: &Rect, b: &Rect) -> bool {
    a[0].max(b[0]) + 0.5 < a[2].min(b[2]) && a[1].max(b[1]) + 0.5 < a[3].min(b[3])
}

/// The rules' bullheads of `card` in `record`'s header.
fn bullheads(header: &Value, card: u64) -> u64 {
    let deck = &header["rules"]["deck"];
    let lowest = deck["lowest"].as_u64().unwrap();
    deck["bullheads"][(card - lowest) as usize]
        .as_u64()
        .unwrap()
}

fn header(record: &Path) -> Value {
    let text = std::fs::read_to_string(record).unwrap();
    serde_json::from_str(text.lines().next().unwrap()).unwrap()
}

// ---------------------------------------------------------------------------------------------
// The circle

/// The rows of the circle lie on a ring: the first card of each row at the same distance from
/// the centre, row 0 at the top and the others clockwise at equal angles; no two pieces (cards,
/// empty places, special cards, labels) cover each other, and the ring fits a 1280 px page, and
/// a phone's (drawn smaller). With 3 players (9 rows) and 6 (15 rows), after the deal and in
/// mid-game.
#[test]
fn the_circle_game_is_drawn_as_a_ring_of_rows_clockwise() {
    let six = [THREE.as_slice(), THREE.as_slice()].concat();
    for players in [THREE.as_slice(), six.as_slice()] {
        let record = record("circle", players, 8);
        let steps = plain_steps(&record);
        let rows = header(&record)["rules"]["rows"].as_u64().unwrap() as usize;
        let page = page(&record);
        // Headless chromium lays a page out at least 500 px wide.
        for (step, size) in [
            (0, (1280, 1400)),
            (steps.len() / 2, (1280, 1400)),
            (0, (500, 900)),
        ] {
            let at = format!("step={step}");
            let m = measure(
                &page,
                &at,
                size,
                "const rows = [...document.querySelectorAll('#ring [data-row]')];
                 return {
                   firsts: rows.map((r) => box(r.querySelector('[data-slot=\"0\"]'))),
                   pieces: [...document.querySelectorAll('#ring .card, #ring .badge, #ring .ringlabel')].map(box),
                   ring: box(document.getElementById('ring')),
                   width: document.documentElement.clientWidth,
                 };",
            );
            let firsts = rects(&m["firsts"]);
            let n = firsts.len();
            if step == 0 {
                assert_eq!(n, rows, "{} players: a row per table card", players.len());
            }
            assert!(n >= 3, "step {step}: {n} rows");
            let centres: Vec<(f64, f64)> = firsts.iter().map(centre).collect();
            let ring = rect(&m["ring"]);
            let (ox, oy) = (
                centres.iter().map(|c| c.0).sum::<f64>() / n as f64,
                centres.iter().map(|c| c.1).sum::<f64>() / n as f64,
            );
            let radii: Vec<f64> = centres.iter().map(|c| (c.0 - ox).hypot(c.1 - oy)).collect();
            let radius = radii.iter().sum::<f64>() / n as f64;
            for (r, d) in radii.iter().enumerate() {
                assert!(
                    (d - radius).abs() < 1.5,
                    "step {step}: row {r}'s first card is {d:.1} px from the centre, the others {radius:.1}"
                );
            }
            for (r, c) in centres.iter().enumerate() {
                // Screen y grows downward: a growing angle turns clockwise.
                let angle = (c.1 - oy).atan2(c.0 - ox).to_degrees();
                let expected = -90.0 + 360.0 * r as f64 / n as f64;
                let off = (angle - expected).rem_euclid(360.0);
                assert!(
                    off.min(360.0 - off) < 1.0,
                    "step {step}: row {r} at {angle:.1} degrees, expected {expected:.1} (clockwise from the top)"
                );
            }
            let pieces = rects(&m["pieces"]);
            for (i, a) in pieces.iter().enumerate() {
                assert!(
                    inside(a, &ring),
                    "step {step}: piece {i} {a:?} outside the ring {ring:?}"
                );
                for (j, b) in pieces.iter().enumerate().skip(i + 1) {
                    assert!(
                        !overlap(a, b),
                        "step {step}: pieces {i} {a:?} and {j} {b:?} overlap"
                    );
                }
            }
            let width = m["width"].as_f64().unwrap();
            assert!(
                ring[2] <= width,
                "the ring {ring:?} is wider than the page ({width} px)"
            );
        }
    }
}

/// At the end of a circle game each seat has one score column, its points, which is the final
/// total (no "score" of 0 beside "this round"); the chart of the points over the turns ends at
/// the final totals, and the legend says them.
#[test]
fn the_circle_game_shows_its_points_and_their_chart_at_game_over() {
    let record = record("circle", &THREE, 21);
    let totals = final_totals(&events(&record));
    let page = page(&record);
    let m = measure(
        &page,
        "keys=End",
        (1280, 1000),
        "return {
           heads: [...document.querySelectorAll('#seats th')].map((h) => h.textContent),
           scores: [...document.querySelectorAll('#seats [data-score]')].map((s) => Number(s.dataset.score)),
           shown: [...document.querySelectorAll('#seats td.score')].map((s) => s.textContent),
           chart: document.getElementById('charttitle').textContent,
           lines: document.querySelectorAll('#chart polyline').length,
           legend: [...document.querySelectorAll('#legend li')].map((l) => l.textContent),
         };",
    );
    assert_eq!(
        m["heads"],
        serde_json::json!(["seat", "player", "points", "pile", "hand", "special cards"])
    );
    let scores: Vec<i64> = m["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_i64().unwrap())
        .collect();
    assert_eq!(scores, totals);
    let shown: Vec<String> = totals.iter().map(i64::to_string).collect();
    assert_eq!(m["shown"], serde_json::json!(shown));
    assert_eq!(m["chart"], "Scores over the turns");
    assert_eq!(m["lines"], 3);
    for (s, line) in m["legend"].as_array().unwrap().iter().enumerate() {
        let line = line.as_str().unwrap();
        assert_eq!(line, format!("{s}: {} {}", THREE[s], totals[s]));
    }
}

// ---------------------------------------------------------------------------------------------
// Special cards

/// The names printed on the special cards (rulebooks 000 and 003), by their names in records.
const PRINTED: [(&str, &str); 9] = [
    ("fifth_row", "5th Row"),
    ("seven_nimmt", "7 nimmt!"),
    ("insert", "Insert"),
    ("replace", "Replace"),
    ("shift", "Shift"),
    ("stop", "Stop"),
    ("negative_positive", "Negative = Positive"),
    ("x2", "x 2"),
    ("plus5", "+ 5"),
];

/// Every special card the page draws (held, on a row, in the discard pile) shows the name
/// printed on the card and an icon; in an anniversary game and a circle game.
#[test]
fn the_special_cards_are_drawn_by_their_printed_names_and_icons() {
    let anniversary = record("anniversary", &FOUR, 7);
    let circle = record("circle", &THREE, 21);
    let mut kinds = std::collections::BTreeSet::new();
    for (record, fragment) in [
        (&anniversary, "step=0"),
        (&anniversary, "keys=End"),
        (&circle, "step=10"),
    ] {
        let page = page(record);
        let m = measure(
            &page,
            fragment,
            (1280, 1000),
            "return [...document.querySelectorAll('[data-special]')].map((s) => ({
               kind: s.dataset.special,
               title: s.title,
               text: s.textContent,
               icon: (s.querySelector('.icon') || s).textContent,
               box: box(s),
             }));",
        );
        let drawn = m.as_array().unwrap();
        assert!(drawn.len() >= 3, "{fragment}: {drawn:?}");
        for special in drawn {
            let kind = special["kind"].as_str().unwrap();
            let (_, printed) = PRINTED
                .iter()
                .find(|(k, _)| *k == kind)
                .unwrap_or_else(|| panic!("an unknown special card {kind}"));
            assert_eq!(special["title"], *printed, "{kind}");
            assert!(
                special["text"].as_str().unwrap().contains(printed),
                "{kind} does not show `{printed}`: {special}"
            );
            assert!(!special["icon"].as_str().unwrap().is_empty(), "{kind}");
            let b = rect(&special["box"]);
            assert!(b[2] > b[0] && b[3] > b[1], "{kind} is not drawn: {b:?}");
            kinds.insert(kind.to_string());
        }
    }
    assert!(kinds.contains("x2") && kinds.contains("plus5"), "{kinds:?}");
    assert!(kinds.len() >= 6, "few kinds seen: {kinds:?}");
}

/// While there are five rows, the 5th is marked: its row is set apart and the 5th Row card lies
/// to its left (as the rulebook advises); the other rows are not. A 7 nimmt! card lies in the
/// 7th place of its row.
#[test]
fn the_5th_row_is_marked_and_7_nimmt_lies_in_the_7th_place() {
    let record = record("anniversary", &FOUR, 5);
    let steps = plain_steps(&record);
    let step =
        step_with(&steps, &["[5th Row]", "[7 nimmt!]"]).expect("a 5th row and a 7 nimmt! row");
    let page = page(&record);
    let m = measure(
        &page,
        &format!("step={step}"),
        (1280, 1000),
        "return [...document.querySelectorAll('#rows [data-row]')].map((r) => ({
           extra: r.classList.contains('extra'),
           pieces: [...r.querySelectorAll('.card')].map((c) => c.dataset.special || (c.dataset.card ? 'card' : 'empty')),
           boxes: [...r.querySelectorAll('.card')].map(box),
           note: r.querySelector('.note').textContent,
         }));",
    );
    let rows = m.as_array().unwrap();
    assert_eq!(rows.len(), 5, "five rows at step {step}");
    for (r, row) in rows.iter().enumerate() {
        let pieces: Vec<&str> = row["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap())
            .collect();
        let boxes = rects(&row["boxes"]);
        let extra = row["extra"].as_bool().unwrap();
        assert_eq!(extra, r == 4, "row {r}: {row}");
        if extra {
            assert_eq!(pieces[0], "fifth_row", "the 5th Row card first: {pieces:?}");
            assert!(
                boxes[0][2] <= boxes[1][0],
                "the 5th Row card is left of the row's cards"
            );
            assert!(row["note"].as_str().unwrap().contains("the 5th row"));
        } else {
            assert!(!pieces.contains(&"fifth_row"), "row {r}: {pieces:?}");
        }
        if let Some(at) = pieces.iter().position(|p| *p == "seven_nimmt") {
            assert_eq!(at, 6, "row {r}: 7 nimmt! in the 7th place: {pieces:?}");
            assert!(pieces[..6].iter().all(|p| *p == "card" || *p == "empty"));
            assert!(row["note"].as_str().unwrap().contains("/6,"), "{row}");
        }
    }
    assert!(
        rows.iter()
            .any(|r| r["pieces"].to_string().contains("seven_nimmt")),
        "a 7 nimmt! card at step {step}"
    );
}

/// After a 7 nimmt! card goes to the discard pile (its row taken by the 7th card, or the round
/// over with the row still holding six cards), every row's bullheads, as the page writes and
/// counts them, are the rules' count of its cards, and its fill is not written as more than its
/// capacity (`6/5`).
#[test]
fn a_rows_bullheads_after_a_7_nimmt_discard_are_the_rules_count() {
    let mut checked = Vec::new();
    for (seed, mark) in [(7, "the 7th card: takes row"), (8, "round 1 ends")] {
        let record = record("anniversary", &FOUR, seed);
        let header = header(&record);
        let steps = plain_steps(&record);
        // The step that discards the 7 nimmt! card: the one before it has one on a row.
        let step = (1..steps.len())
            .find(|&i| steps[i].contains(mark) && steps[i - 1].contains("[7 nimmt!]"))
            .unwrap_or_else(|| panic!("seed {seed}: no step with `{mark}` after a 7 nimmt! row"));
        let page = page(&record);
        let m = measure(
            &page,
            &format!("step={step}"),
            (1280, 1000),
            "return [...document.querySelectorAll('#rows [data-row]')].map((r) => ({
               cards: [...r.querySelectorAll('[data-card]')].map((c) => Number(c.dataset.card)),
               heads: [...r.querySelectorAll('[data-card]')].map((c) => c.querySelectorAll('.head').length),
               bullheads: Number(r.dataset.bullheads),
               note: r.querySelector('.note').textContent,
               seven: !!r.querySelector('[data-special=\"seven_nimmt\"]'),
             }));",
        );
        for (r, row) in m.as_array().unwrap().iter().enumerate() {
            let cards: Vec<u64> = row["cards"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_u64().unwrap())
                .collect();
            let rules: u64 = cards.iter().map(|&c| bullheads(&header, c)).sum();
            let heads: u64 = row["heads"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| h.as_u64().unwrap())
                .sum();
            let note = row["note"].as_str().unwrap();
            assert_eq!(row["bullheads"], rules, "seed {seed} row {r}: {row}");
            assert_eq!(heads, rules, "seed {seed} row {r}: the heads drawn: {row}");
            let unit = if rules == 1 { "bullhead" } else { "bullheads" };
            assert!(
                note.contains(&format!(", {rules} {unit}")),
                "seed {seed} row {r}: `{note}` for {rules} bullheads"
            );
            let fill = note.split(',').next().unwrap();
            if let Some((held, capacity)) = fill.split_once('/') {
                let (held, capacity): (usize, usize) =
                    (held.parse().unwrap(), capacity.parse().unwrap());
                assert!(held <= capacity, "seed {seed} row {r}: `{note}`");
            } else {
                assert_eq!(fill, format!("{} cards", cards.len()));
            }
            checked.push((seed, r, cards.len()));
        }
    }
    // The round's end left a row of six cards behind its discarded 7 nimmt! card.
    assert!(
        checked.iter().any(|&(seed, _, n)| seed == 8 && n == 6),
        "{checked:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// Cards, scores, the legend, names

/// Every bullhead the page draws lies inside its card, the 55's seven too (in a classic game
/// whose deal holds the 55).
#[test]
fn the_bullheads_of_every_card_fit_inside_it_the_55_too() {
    let (record, _) = (1..40)
        .map(|seed| {
            let record = record("classic", &THREE, seed);
            let text = std::fs::read_to_string(&record).unwrap();
            (record, text)
        })
        .find(|(_, text)| {
            let deal: Value = serde_json::from_str(text.lines().nth(1).unwrap()).unwrap();
            deal.to_string().contains("[55,") || deal.to_string().contains(",55,")
        })
        .expect("a deal with the 55");
    let page = page(&record);
    let m = measure(
        &page,
        "step=0",
        (1280, 1000),
        "return [...document.querySelectorAll('[data-card]')].map((c) => ({
           card: Number(c.dataset.card),
           bullheads: Number(c.dataset.bullheads),
           box: box(c),
           heads: [...c.querySelectorAll('.head')].map(box),
           number: box(c.querySelector('.n')),
         }));",
    );
    let cards = m.as_array().unwrap();
    let mut seen_55 = false;
    for card in cards {
        let outer = rect(&card["box"]);
        let heads = rects(&card["heads"]);
        assert_eq!(
            heads.len() as u64,
            card["bullheads"].as_u64().unwrap(),
            "{card}"
        );
        for head in heads.iter().chain([rect(&card["number"])].iter()) {
            assert!(
                inside(head, &outer),
                "card {}: {head:?} outside its card {outer:?}",
                card["card"]
            );
        }
        if card["card"] == 55 {
            seen_55 = true;
            assert_eq!(heads.len(), 7);
        }
    }
    assert!(seen_55, "the 55 is drawn");
}

/// The chart's legend lies inside the page, each entry whole, with long player names, on a
/// 1280 px screen and on a phone's 400 px.
#[test]
fn the_charts_legend_is_not_cut() {
    let record = record("classic", &THREE, 31);
    let text = std::fs::read_to_string(&record).unwrap();
    let long = "a bot with a rather long name that goes on and on (version 2.14.7-rc3)";
    let renamed = text.replacen("\"builtin:dodger\"", &format!("\"{long}\""), 1);
    std::fs::write(&record, renamed).unwrap();
    let page = page(&record);
    for width in [1280, 400] {
        let m = measure(
            &page,
            "keys=End",
            (width, 900),
            "return {
               width: document.documentElement.clientWidth,
               legend: box(document.getElementById('legend')),
               entries: [...document.querySelectorAll('#legend li')].map((l) => ({
                 box: box(l), text: l.textContent, whole: l.scrollWidth <= l.clientWidth })),
               chart: box(document.querySelector('#chart svg')),
             };",
        );
        let page_width = m["width"].as_f64().unwrap();
        let legend = rect(&m["legend"]);
        assert!(
            legend[0] >= 0.0 && legend[2] <= page_width,
            "{width} px: the legend {legend:?} is out of the page"
        );
        let chart = rect(&m["chart"]);
        assert!(chart[2] <= page_width, "{width} px: the chart {chart:?}");
        let entries = m["entries"].as_array().unwrap();
        assert_eq!(entries.len(), 3);
        for entry in entries {
            let b = rect(&entry["box"]);
            assert!(b[2] <= page_width, "{width} px: {entry}");
            assert_eq!(entry["whole"], true, "{width} px: {entry}");
        }
        assert!(entries[1]["text"].as_str().unwrap().contains(long));
    }
}

/// The page names each seat as the record does: a tournament's record by the bots' pool names
/// (not their commands), in the seats' table, the seat list, the chart's legend and the title.
#[test]
fn the_page_names_each_seat_by_the_records_name() {
    let results = temp("results.jsonl");
    let record = temp("tournament.jsonl");
    let bots = ["Ada=builtin:random", "Grace Hopper=builtin:lowest"];
    let more = ["--variant", "circle", "--record", record.to_str().unwrap()];
    ok(&round_robin(&bots, 1, &results, &more));
    // Game 1 seats the bots the other way round.
    let html = ok(&take5(&[
        "show",
        "--html",
        record.to_str().unwrap(),
        "--game",
        "1",
    ]));
    let page = temp("tournament-1.html");
    std::fs::write(&page, html).unwrap();
    let m = measure(
        &page,
        "keys=End",
        (1280, 1000),
        "return {
           seats: [...document.querySelectorAll('#seats td.player')].map((t) => t.textContent),
           options: [...document.querySelectorAll('#seat option')].map((o) => o.textContent),
           legend: [...document.querySelectorAll('#legend li')].map((l) => l.textContent),
           title: document.getElementById('title').textContent,
         };",
    );
    let names = ["Grace Hopper", "Ada"];
    assert_eq!(m["seats"], serde_json::json!(names));
    for (s, name) in names.iter().enumerate() {
        assert_eq!(m["options"][s], format!("{s}: {name}"));
        assert!(
            m["legend"][s]
                .as_str()
                .unwrap()
                .starts_with(&format!("{s}: {name} ")),
            "{}",
            m["legend"]
        );
        assert!(m["title"].as_str().unwrap().contains(name));
    }
    assert!(!m.to_string().contains("builtin:"), "a command shown: {m}");
}
