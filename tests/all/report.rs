//! `take5 stats --html`: the report a bot author decides from, opened in headless chromium (the
//! browser helpers of tests/all/show.rs), and set beside the text report and the JSON of the
//! same results.

use crate::common;
use crate::show::{HOSTILE, as_dom_text, attributes, browse, drawn, self_contained};

use common::{ok, take5, temp};
use serde_json::Value;
use std::path::Path;

const PYTHON_BOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/bots/python_bot.py");

/// The text of the first element of `dom` with `id`, tags taken out (the element's own text and
/// its children's, up to its closing tag of the same name).
fn element<'a>(dom: &'a str, id: &str) -> &'a str {
    let start = dom
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no element #{id}"));
    let open = dom[..start].rfind('<').unwrap();
    let tag: String = dom[open + 1..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    let end = dom[start..].find(&format!("</{tag}>")).unwrap() + start;
    &dom[open..end]
}

/// The text of `html` with its tags taken out (entities kept).
fn text(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

/// The cells' texts of the rows of table `id` of `dom` that carry `attribute`.
fn rows(dom: &str, id: &str, attribute: &str) -> Vec<Vec<String>> {
    element(dom, id)
        .split("<tr")
        .filter(|row| row.starts_with(&format!(" {attribute}=")))
        .map(|row| {
            row.split("<td")
                .skip(1)
                .map(|cell| text(&format!("<td{cell}")))
                .collect()
        })
        .collect()
}

/// A gauntlet of dodger against the Python bot (which plays as dodger does) and the random bot,
/// two seats, with a sequential test of dodger against random, into `results`; a report of it:
/// its page (written beside), the DOM chromium made of it, the text report and the JSON.
fn gauntlet_with_a_test(results: &Path) -> (String, String, String, Value) {
    let python = format!("py=python3 {PYTHON_BOT}");
    ok(&take5(&[
        "tournament",
        "--bot",
        "dodger=builtin:dodger",
        "--bot",
        &python,
        "--bot",
        "random=builtin:random",
        "--seats",
        "2",
        "--deals",
        "60",
        "--seed",
        "7",
        "--tables",
        "gauntlet:dodger",
        "--sprt",
        "elo0=0,elo1=50",
        "--sprt-pair",
        "dodger,random",
        "--jobs",
        "2",
        "--results",
        results.to_str().unwrap(),
    ]));
    let path = results.to_str().unwrap();
    let test = ["--sprt", "elo0=0,elo1=50", "--sprt-pair", "dodger,random"];
    let html = ok(&take5(&[&["stats", path, "--html"][..], &test].concat()));
    let table = ok(&take5(&[&["stats", path, "--times"][..], &test].concat()));
    let json: Value = serde_json::from_str(&ok(&take5(
        &[&["stats", path, "--format", "json"][..], &test].concat(),
    )))
    .unwrap();
    let page = results.with_extension("html");
    std::fs::write(&page, &html).unwrap();
    let (dom, requests) = browse(&page, "");
    assert!(requests.is_empty(), "the page loaded {requests:?}");
    (html, dom, table, json)
}

/// Every part of the report is on the page, in the text report's order, with the figures the
/// text report and the JSON give: what the tournament was, the paired table, the test's LLR over
/// the games against its bounds and its decision, the decision times, the bots, their ratings
/// with bands on labelled axes, their totals on one scale, a legend in the table's order, and
/// head to head.
#[test]
fn the_report_of_a_tournament_with_a_test_shows_every_part_as_the_text_does() {
    let results = temp("gauntlet.jsonl");
    let (html, dom, table, json) = gauntlet_with_a_test(&results);
    self_contained(&html);
    let shown = drawn(&dom);
    // The text report's sections and the page's, in one order.
    let order = |text: &str, marks: &[&str]| {
        let at: Vec<usize> = marks
            .iter()
            .map(|m| text.find(m).unwrap_or_else(|| panic!("no {m}")))
            .collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{marks:?} at {at:?}");
    };
    order(
        &table,
        &[
            "tournament: classic",
            "paired by deal",
            "SPRT dodger against random",
            "decision times",
            "bots, by rating",
            "head to head",
        ],
    );
    order(
        shown,
        &[
            "id=\"identity\"",
            "id=\"pairs\"",
            "id=\"llr\"",
            "id=\"times-table\"",
            "id=\"bots\"",
            "id=\"ratings-chart\"",
            "id=\"totals\"",
            "id=\"rating-list\"",
            "id=\"h2h\"",
        ],
    );

    // What the tournament was.
    let identity = text(element(shown, "identity"));
    for said in [
        "classic",
        "gauntlet:dodger",
        "60, each played in every rotation of the seats",
        "builtin:dodger",
        &format!("python3 {PYTHON_BOT}"),
    ] {
        assert!(identity.contains(said), "`{said}` not in {identity}");
    }
    let dl = text(element(shown, "identity").split("<dl").nth(1).unwrap());
    assert!(
        dl.contains("seats at a table2") && dl.contains("seed7"),
        "{dl}"
    );
    assert_eq!(
        attributes(shown, "data-pool-bot"),
        ["dodger", "py", "random"]
    );
    assert_eq!(json["tournament"]["seed"], 7);

    // The paired table: its Elo is the text's, and the test's (the same games).
    let pairs = rows(shown, "pairs", "data-pair");
    assert_eq!(pairs.len(), 2, "dodger against each");
    let at = attributes(shown, "data-pair")
        .iter()
        .position(|p| *p == "dodger,random")
        .expect("the pair of the test");
    let pair = &json["pairs"][at];
    assert_eq!(
        (&pair["bot"], &pair["other"]),
        (&"dodger".into(), &"random".into())
    );
    let elo = &pairs[at][6];
    assert!(elo.contains(" [") && elo.ends_with(']'), "{elo}");
    let text_row = table
        .lines()
        .find(|l| l.starts_with(pair["bot"].as_str().unwrap()) && l.contains(elo.as_str()))
        .unwrap_or_else(|| panic!("the text's paired table has no Elo {elo}:\n{table}"));
    assert!(text_row.contains(pair["other"].as_str().unwrap()));
    let sprt = &json["sprt"];
    assert_eq!(sprt["pair"]["elo"], pair["elo"], "one Elo for the pair");
    // Two seats: the pentanomial counts, five of them, adding up to the deals.
    let counts: Vec<u64> = pairs[at][8]
        .split_whitespace()
        .map(|c| c.parse().unwrap())
        .collect();
    assert_eq!(counts.len(), 5, "{counts:?}");
    assert_eq!(counts.iter().sum::<u64>(), pair["deals"].as_u64().unwrap());

    // The test: its line as the text prints it, its LLR from 0 to its last value over the
    // games, both bounds, its decision.
    let sprt_line = table.lines().find(|l| l.starts_with("SPRT ")).unwrap();
    assert!(
        shown.contains(&as_dom_text(sprt_line)),
        "the page has not the test's line {sprt_line}"
    );
    let llr = element(shown, "llr");
    let points = attributes(llr, "points")[..].to_vec();
    let course = points
        .iter()
        .find(|p| p.split(' ').count() > 2)
        .expect("the LLR's line");
    let drawn_points: Vec<&str> = course.split(' ').collect();
    let [count] = attributes(llr, "data-llr")[..] else {
        panic!("one LLR line")
    };
    assert_eq!(drawn_points.len().to_string(), count);
    assert!(drawn_points.len() as u64 > sprt["pair"]["deals"].as_u64().unwrap().min(2));
    assert_eq!(llr.matches("class=\"bound\"").count(), 2);
    for bound in ["lower", "upper"] {
        let label = format!("({:.2})", sprt[bound].as_f64().unwrap());
        assert!(llr.contains(&label), "no bound {label}");
    }
    let decision = match sprt["decision"].as_str().unwrap() {
        "continue" => "no decision",
        d => d,
    };
    assert!(
        llr.contains(&format!("class=\"decision\">{decision}<")),
        "{decision}"
    );
    assert!(text(llr).contains("games of dodger and random") && text(llr).contains("LLR"));

    // Decision times: the Python bot's, none for the built-in.
    assert_eq!(attributes(shown, "data-timed"), ["py"]);

    // The bots in the table's order; the legend, the rating lines and bands, and the totals
    // in the same; the totals on one scale.
    let names = common::bot_names(&json);
    let table_rows = rows(shown, "bots", "data-bot");
    let in_table: Vec<&str> = table_rows.iter().map(|r| r[1].as_str()).collect();
    assert_eq!(in_table, names);
    assert_eq!(attributes(shown, "data-legend"), names);
    assert_eq!(attributes(shown, "data-band"), names);
    assert_eq!(
        attributes(shown, "data-bot"),
        [&names[..], &names, &names].concat()
    );
    let scales = attributes(shown, "data-scale");
    assert_eq!(scales.len(), names.len());
    assert!(scales.iter().all(|s| *s == scales[0]), "{scales:?}");
    // The ratings chart has its axes labelled, with values along both.
    let ratings = element(shown, "ratings-chart");
    assert!(ratings.matches("class=\"tick-x\"").count() >= 3);
    assert!(ratings.matches("class=\"tick-y\"").count() >= 3);
    assert!(text(ratings).contains("games counted") && text(ratings).contains("rating (mu"));
    assert!(text(element(shown, "summary")).contains("total: penalty, lower is better"));

    // Head to head: the share with a level game counting half, as the text's grid has it.
    let h2h = &json["head_to_head"][0];
    let games = h2h["games"].as_f64().unwrap();
    let share = (h2h["ahead"].as_f64().unwrap() + h2h["level"].as_f64().unwrap() / 2.0) / games;
    assert!(attributes(shown, "data-share").contains(&format!("{share:.3}").as_str()));
    let percent = format!("{:.0}%", 100.0 * share);
    let grid = table.split("head to head").nth(1).unwrap();
    let row = grid
        .lines()
        .find(|l| l.starts_with(h2h["bot"].as_str().unwrap()))
        .unwrap();
    assert!(
        row.split_whitespace().any(|c| c == percent),
        "{percent}: {row}"
    );
}

/// A circle-game report says its totals are points, higher the better, in the text, the JSON
/// (`better_total`, and `mean_total`: no `mean_penalty`) and the page; results without a header
/// say that the tournament is not known, and a test on them needs its pair named.
#[test]
fn the_circle_game_s_totals_are_higher_the_better_and_a_file_without_header_is_said_unknown() {
    let results = temp("circle.jsonl");
    ok(&common::round_robin(
        &["a=builtin:dodger", "b=builtin:random"],
        4,
        &results,
        &["--variant", "circle"],
    ));
    let path = results.to_str().unwrap();
    let table = ok(&take5(&["stats", path]));
    assert!(table.contains("total: points, higher is better"), "{table}");
    let json: Value =
        serde_json::from_str(&ok(&take5(&["stats", path, "--format", "json"]))).unwrap();
    assert_eq!(json["better_total"], "higher");
    assert_eq!(json["tournament"]["variant"], "circle");
    for bot in json["bots"].as_array().unwrap() {
        assert!(
            bot["mean_total"].is_number() && bot.get("mean_penalty").is_none(),
            "{bot}"
        );
    }
    let page = temp("circle.html");
    std::fs::write(&page, ok(&take5(&["stats", path, "--html"]))).unwrap();
    let (dom, _) = browse(&page, "");
    let summary = text(element(&dom, "summary"));
    assert!(
        summary.contains("total: points, higher is better"),
        "{summary}"
    );
    // No sequential test asked: the page says how to run one.
    assert!(text(element(&dom, "sprt")).contains("--sprt"));

    // The same games without their header.
    let old = temp("circle-old.jsonl");
    let games: String = common::game_lines(&results)
        .iter()
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&old, games).unwrap();
    let old = old.to_str().unwrap();
    let page = temp("circle-old.html");
    std::fs::write(&page, ok(&take5(&["stats", old, "--html"]))).unwrap();
    let (dom, _) = browse(&page, "");
    let identity = text(element(drawn(&dom), "identity"));
    assert!(
        identity.contains("not known (the results have no header"),
        "{identity}"
    );
    let out = take5(&["stats", old, "--sprt", "elo0=0,elo1=50"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("name the two to test with --sprt-pair"),
        "{err}"
    );
    assert!(
        take5(&[
            "stats",
            old,
            "--sprt",
            "elo0=0,elo1=50",
            "--sprt-pair",
            "a,b"
        ])
        .status
        .success()
    );
}

/// A report page whose bot names (from the tournament's flags and from a results file) are the
/// hostile strings still draws its tables, and shows the names as text.
#[test]
fn the_report_page_shows_hostile_bot_names_as_text() {
    let results = temp("hostile-results.jsonl");
    let name = format!("{}=builtin:random", HOSTILE[0]);
    ok(&common::round_robin(
        &[&name, "slash=builtin:lowest"],
        2,
        &results,
        &[],
    ));
    // A bot name may not hold `/`; a results file can, whoever wrote it.
    let text = std::fs::read_to_string(&results).unwrap();
    std::fs::write(
        &results,
        text.replace("\"slash\"", &serde_json::to_string(HOSTILE[1]).unwrap()),
    )
    .unwrap();
    let html = ok(&take5(&["stats", "--html", results.to_str().unwrap()]));
    let page = temp("hostile-report.html");
    std::fs::write(&page, &html).unwrap();
    let (dom, requests) = browse(&page, "");
    assert!(requests.is_empty(), "the page loaded {requests:?}");
    let shown = drawn(&dom);
    // A table row, a rating line and a histogram per bot, and the heat map's two shares.
    assert_eq!(attributes(shown, "data-bot").len(), 6, "{shown}");
    assert_eq!(attributes(shown, "data-share").len(), 2, "{shown}");
    for hostile in HOSTILE {
        assert!(
            shown.contains(&format!(">{}</td>", as_dom_text(hostile))),
            "`{hostile}` is not shown as text:\n{shown}"
        );
    }
}

/// The screenshots docs/tournaments.md shows are there, as PNG images.
#[test]
fn the_report_screenshots_of_the_docs_are_png_images() {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    let page = std::fs::read_to_string(docs.join("tournaments.md")).unwrap();
    for name in [
        "report-classic.png",
        "report-circle.png",
        "report-phone.png",
    ] {
        assert!(
            page.contains(&format!("({name})")),
            "docs/tournaments.md shows {name}"
        );
        let image = std::fs::read(docs.join(name)).unwrap();
        assert!(image.starts_with(b"\x89PNG\r\n\x1a\n"), "{name} is a PNG");
    }
}

/// Past a screenful of bots (30) the page, like the text, draws no head-to-head grid (it grows
/// as the square of the pool) and says so; its paired table lists every pair that met.
#[test]
fn past_a_screenful_of_bots_the_page_lists_every_pair_and_draws_no_grid() {
    const BOTS: usize = 40;
    let results = temp("ring.jsonl");
    let text = common::ring_of_bots(BOTS, 2);
    std::fs::write(&results, text).unwrap();
    let page = temp("ring.html");
    std::fs::write(
        &page,
        ok(&take5(&["stats", results.to_str().unwrap(), "--html"])),
    )
    .unwrap();
    let (dom, _) = browse(&page, "");
    let shown = drawn(&dom);
    assert_eq!(attributes(shown, "data-pair").len(), BOTS);
    assert!(attributes(shown, "data-share").is_empty());
    assert!(
        shown.contains("Not drawn for more than 30 bots (these are 40)"),
        "{shown}"
    );
}

/// The rating list on the page is `take5 stats --ratings`'s, figure for figure, with the same
/// anchor, and says how it was made.
#[test]
fn the_report_has_the_rating_list_of_the_text() {
    let results = temp("round-robin.jsonl");
    ok(&take5(
        &[
            &["tournament"][..],
            common::ROUND_ROBIN_OF_FOUR,
            &["--results", results.to_str().unwrap()],
        ]
        .concat(),
    ));
    let path = results.to_str().unwrap();
    let anchor = ["--anchor", "builtin:random=0"];
    let html = ok(&take5(&[&["stats", path, "--html"][..], &anchor].concat()));
    let list: Value = serde_json::from_str(&ok(&take5(
        &[
            &["stats", path, "--ratings", "--format", "json"][..],
            &anchor,
        ]
        .concat(),
    )))
    .unwrap();
    let page = results.with_extension("html");
    std::fs::write(&page, &html).unwrap();
    let (dom, _) = browse(&page, "");
    let shown = drawn(&dom);
    let drawn_rows = rows(shown, "rating-list", "data-rated");
    let bots = list["bots"].as_array().unwrap();
    assert_eq!(drawn_rows.len(), bots.len());
    for (row, bot) in drawn_rows.iter().zip(bots) {
        let interval = if bot["name"] == "random" {
            "(anchor)".to_string()
        } else {
            format!(
                "[{:+.1}, {:+.1}]",
                bot["elo_low"].as_f64().unwrap(),
                bot["elo_high"].as_f64().unwrap()
            )
        };
        assert_eq!(
            row,
            &[
                bot["name"].as_str().unwrap().to_string(),
                bot["games"].to_string(),
                format!("{:+.1}", bot["elo"].as_f64().unwrap()),
                interval,
            ]
        );
    }
    let method = text(element(shown, "rating-method"));
    assert!(
        method.contains(list["method"].as_str().unwrap()) && method.contains("anchor random = 0"),
        "{method}"
    );
}
