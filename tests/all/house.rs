//! House rules in Lua at the engine level: what each example script in scripts/house changes,
//! what hooks see and may answer, and the examples of docs/house-rules.md.

use crate::common;

use common::{cards, play, takes};

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use take5::cards::Card;
use take5::game::house::{self, HouseHooks, TableView};
use take5::game::{Event, Game, TakeReason, ToMove};
use take5::house::House;
use take5::players::Player;
use take5::players::builtin::{Builtin, Strategy};
use take5::record::{Line, Writer};
use take5::referee::{MatchConfig, MatchHouse, play_match};
use take5::rng::{GameRng, Stream};
use take5::rules::{GameEnd, Rules};
use take5::variants::Variant;
use take5::variants::classic::{Classic, Table};

fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scripts/house")
        .join(name)
}

fn load(name: &str) -> House {
    House::load(script(name)).unwrap_or_else(|e| panic!("{e}"))
}

fn source(text: &str) -> House {
    House::from_source("test.lua", text.as_bytes(), Rules::classic())
        .unwrap_or_else(|e| panic!("{e}"))
}

fn load_error(text: &str) -> String {
    House::from_source("test.lua", text.as_bytes(), Rules::classic())
        .unwrap_err()
        .to_string()
}

/// A game of `house` at an explicit table in round 1, turn 1, with the house's hooks.
fn table(house: &House, rows: &[&[u16]], hands: &[&[u16]]) -> Classic {
    let table = Table {
        round: 1,
        turn: 1,
        hands: hands.iter().map(|h| cards(h)).collect(),
        rows: rows.iter().map(|r| cards(r)).collect(),
        scores: vec![0; hands.len()],
        piles: vec![Vec::new(); hands.len()],
    };
    let mut game =
        Classic::from_table(Arc::new(house.rules().clone()), &table).expect("a valid table");
    game.set_house(house.new_game().expect("the hooks"));
    game
}

/// Plays `games` games of `house` between four built-in bots; returns the record's lines.
fn match_record(house: House, games: u64) -> Vec<Line> {
    variant_match_record(Variant::Classic, house, games)
}

/// [`match_record`] of a `variant`.
fn variant_match_record(variant: Variant, house: House, games: u64) -> Vec<Line> {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let path = std::env::temp_dir().join(format!(
        "take5-house-{}-{}.jsonl",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let config = MatchConfig {
        variant,
        rules: Arc::new(house.rules().clone()),
        seed: 11,
        games,
        deals: Vec::new(),
        timeout: Duration::from_secs(1),
        clocks: Vec::new(),
        house: Some(MatchHouse {
            script: house.for_record(house.script().to_string()),
            hooks: Rc::new(house),
        }),
        tournament: None,
    };
    let strategies = [
        Strategy::Random,
        Strategy::Dodger,
        Strategy::Lowest,
        Strategy::Highest,
    ];
    let mut players: Vec<Box<dyn Player>> = strategies
        .iter()
        .map(|&s| Box::new(Builtin::new(s, 11)) as Box<dyn Player>)
        .collect();
    let file = std::fs::File::create(&path).unwrap();
    let mut writer = Writer::new(Box::new(file) as Box<dyn std::io::Write>);
    play_match(&config, &mut players, Some(&mut writer), |_| {
        ControlFlow::Continue(())
    })
    .unwrap_or_else(|e| panic!("{e}"));
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    text.lines()
        .enumerate()
        .map(|(i, l)| Line::parse(l, i + 1).unwrap())
        .collect()
}

fn round_ends(lines: &[Line]) -> Vec<(u32, Vec<i32>)> {
    lines
        .iter()
        .filter_map(|l| match l {
            Line::Event(Event::RoundEnd { round, totals, .. }) => Some((*round, totals.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn five_rows_deals_five_rows() {
    let house = load("five_rows.lua");
    assert_eq!(house.rules().rows, 5);
    assert_eq!(house.rules().max_players, 9);
    assert!(house.hooks().is_empty(), "settings only");
    let mut game = Classic::new(Arc::new(house.rules().clone()), 9).unwrap();
    let mut rng = GameRng::new(1, Stream::Deal(0));
    game.deal_random(&mut rng, &mut Vec::new()).unwrap();
    assert_eq!(game.rows().len(), 5);
    assert!(game.rows().iter().all(|r| r.len() == 1));
}

#[test]
fn seven_nimmt_takes_a_row_at_the_seventh_card() {
    let house = load("seven_nimmt.lua");
    assert_eq!(house.rules().row_capacity, 6);
    let mut game = table(
        &house,
        &[&[1, 2, 3, 4, 5], &[20, 21, 22, 23, 24, 25], &[40], &[60]],
        &[&[6, 90], &[26, 91]],
    );
    // 6 is the sixth card of row 0: it fits. 26 is the seventh of row 1: it takes the six.
    let events = play(&mut game, &[6, 26]);
    assert_eq!(
        takes(&events),
        [(1, 1, 3 + 1 + 5 + 1 + 1 + 2, TakeReason::Full)]
    );
    assert_eq!(game.rows()[0].len(), 6);
    assert_eq!(game.rows()[1], cards(&[26]));
}

#[test]
fn flat_bullheads_makes_every_card_one() {
    let house = load("flat_bullheads.lua");
    let deck = &house.rules().deck;
    assert_eq!(deck.len(), 104);
    assert!(deck.cards().all(|c| deck.bullheads(c) == 1));
    let mut game = table(
        &house,
        &[&[51, 52, 53, 54, 55], &[20], &[30], &[40]],
        &[&[56], &[21]],
    );
    let events = play(&mut game, &[56, 21]);
    assert_eq!(takes(&events), [(0, 0, 5, TakeReason::Full)]);
}

#[test]
fn cheapest_row_takes_the_cheapest_row_without_asking() {
    let house = load("cheapest_row.lua");
    assert_eq!(house.hooks(), ["low_card"]);
    // Row costs: [10] 3, [55] 7, [30, 31] 4, [41, 42] 2: row 3 is the cheapest.
    let mut game = table(
        &house,
        &[&[10], &[55], &[30, 31], &[41, 42]],
        &[&[5, 90], &[50, 91]],
    );
    let events = play(&mut game, &[5, 50]);
    assert_eq!(takes(&events), [(0, 3, 2, TakeReason::Low)]);
    assert_eq!(
        game.to_move(),
        ToMove::Everyone(take5::game::Decision::PlayCard)
    );
    assert_eq!(game.rows()[3], cards(&[5]));
}

#[test]
fn target_100_plays_on_past_66() {
    let house = load("target_100.lua");
    assert_eq!(house.rules().end, GameEnd::TargetScore(100));
    let rounds = round_ends(&match_record(house, 1));
    let (_, last) = rounds.last().unwrap();
    assert!(last.iter().any(|&t| t >= 100), "{rounds:?}");
    let (_, before) = &rounds[rounds.len() - 2];
    assert!(before.iter().all(|&t| t < 100), "{rounds:?}");
}

#[test]
fn shoot_the_moon_gives_the_points_to_everyone_else() {
    let house = load("shoot_the_moon.lua");
    assert_eq!(house.hooks(), ["round_end"]);
    // Seat 0's 6 takes the full row 0 (6 bullheads): it takes every point of the round.
    let mut game = table(
        &house,
        &[&[1, 2, 3, 4, 5], &[20], &[30], &[40]],
        &[&[6], &[21], &[31]],
    );
    play(&mut game, &[6, 21, 31]);
    assert_eq!(game.to_move(), ToMove::Deal);
    assert_eq!(game.scores(), [0, 6, 6]);
    // A round shared between players stands as it is.
    let mut game = table(
        &house,
        &[&[1, 2, 3, 4, 5], &[20, 21, 22, 23, 24], &[30], &[40]],
        &[&[6], &[25], &[31]],
    );
    play(&mut game, &[6, 25, 31]);
    assert_eq!(game.scores(), [6, 11, 0]);
}

#[test]
fn three_rounds_ends_after_three_rounds() {
    let house = load("three_rounds.lua");
    assert_eq!(house.rules().end, GameEnd::Rounds(3));
    let lines = match_record(house, 2);
    let rounds: Vec<u32> = round_ends(&lines).iter().map(|(r, _)| *r).collect();
    assert_eq!(rounds, [1, 2, 3, 1, 2, 3]);
}

#[test]
fn the_record_header_names_the_script() {
    let house = load("shoot_the_moon.lua");
    let sha = house.sha256().to_string();
    let lines = match_record(house, 1);
    let Line::Game(header) = &lines[0] else {
        panic!("a header first")
    };
    let named = header.house.as_ref().expect("the house script");
    assert_eq!(named.sha256, sha);
    assert!(named.path.ends_with("shoot_the_moon.lua"));
}

/// A table for calling hooks directly.
struct Fixed {
    rules: Rules,
    hands: Vec<Vec<Card>>,
    rows: Vec<Vec<Card>>,
    piles: Vec<Vec<Card>>,
    taken: Vec<i32>,
    scores: Vec<i32>,
}

impl Fixed {
    fn new() -> Fixed {
        Fixed {
            rules: Rules::classic(),
            hands: vec![cards(&[7, 8]), cards(&[9, 10]), cards(&[11, 12])],
            rows: vec![cards(&[20, 21]), cards(&[30]), cards(&[40]), cards(&[55])],
            piles: vec![cards(&[1, 2]), vec![], cards(&[3])],
            taken: vec![2, 0, 1],
            scores: vec![10, 20, 30],
        }
    }

    /// The table as seat 1 sees it (its own hand, 9 and 10).
    fn view(&self) -> TableView<'_> {
        self.table().seen_by(Some(1))
    }

    fn table(&self) -> house::Table<'_> {
        house::Table {
            rules: &self.rules,
            round: 2,
            turn: 5,
            hands: &self.hands,
            rows: &self.rows,
            piles: &self.piles,
            taken: &self.taken,
            scores: &self.scores,
        }
    }
}

fn hooks_of(house: &House) -> Box<dyn HouseHooks> {
    house.new_game().unwrap().expect("the script has hooks")
}

#[test]
fn hooks_see_the_whole_table_numbered_as_documented() {
    let house = source(
        r#"
        return {
          row_taken = function(t, seat, row, cards, bullheads)
            assert(t.round == 2 and t.turn == 5 and t.seats == 3)
            assert(#t.rows == 4 and t.rows[1][2] == 21 and #t.rows[1] == 2)
            assert(t.rows[row + 1][1] == cards[1], "cards are row `row`, which is t.rows[row + 1]")
            assert(t.hand[1] == 9 and #t.hand == 2, "the seat's own hand")
            assert(#t.piles[2] == 0 and t.piles[3][1] == 3)
            assert(t.taken[1] == 2 and t.scores[3] == 30)
            assert(t.bullheads(55) == 7 and t:bullheads(10) == 3)
            local n = 0
            for _, row in ipairs(t.rows) do n = n + #row end
            for k, v in pairs(t.scores) do n = n + k end
            assert(n == 5 + 6)
            return bullheads * 10 + seat
          end,
        }"#,
    );
    let fixed = Fixed::new();
    let mut hooks = hooks_of(&house);
    let cost = hooks
        .row_taken(&fixed.view(), 1, 1, &cards(&[30]), 3)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(cost, 31);
}

#[test]
fn a_hook_sees_only_the_hand_of_the_seat_it_concerns() {
    let house = source(
        r#"
        return {
          low_card = function(t, seat, card)
            assert(t.seats == 3 and #t.hand == 2 and t.hand[1] == 9 and t.hand[2] == 10)
            local ok, why = pcall(function() return t.hands end)
            assert(not ok and why:find("its own hand, t.hand, and no other seat's", 1, true), why)
            return #t.piles[1] + #t.rows - 4
          end,
          game_over = function(t, totals)
            assert(t.hand == nil, "a hook about every seat sees no hand")
            return t.seats == 3 and #t.piles[3] == 1
          end,
        }"#,
    );
    let fixed = Fixed::new();
    let mut hooks = hooks_of(&house);
    assert_eq!(hooks.low_card(&fixed.view(), 1, Card(5)), Ok(Some(2)));
    let every_seat = fixed.table().seen_by(None);
    assert_eq!(hooks.game_over(&every_seat, &[1, 2, 3]), Ok(Some(true)));
    // The view as the engine makes it: one seat's hand, or none.
    let seen = fixed.table().seen_by(Some(2));
    assert_eq!((seen.seats, seen.hand), (3, Some(&cards(&[11, 12])[..])));
    assert_eq!(every_seat.hand, None);
}

#[test]
fn the_table_view_is_read_only() {
    for write in [
        "t.round = 1",
        "t.rows[1] = {}",
        "t.rows[1][1] = 99",
        "t.scores[1] = 0",
        "t.bullheads = nil",
        "rawset(t, 'round', 1)",
    ] {
        let house = source(&format!(
            "return {{ low_card = function(t, seat, card)\n  {write}\nend }}"
        ));
        let fixed = Fixed::new();
        let error = hooks_of(&house)
            .low_card(&fixed.view(), 0, Card(5))
            .unwrap_err();
        assert!(error.starts_with("test.lua:2: "), "{write}: {error}");
    }
    let house = source("return { low_card = function(t) setmetatable(t, nil) end }");
    let error = hooks_of(&house)
        .low_card(&Fixed::new().view(), 0, Card(5))
        .unwrap_err();
    assert_eq!(error, "test.lua:1: cannot change a protected metatable");
}

#[test]
fn libraries_are_shared_but_read_only() {
    for (attempt, expected) in [
        (
            "string.upper = nil",
            "test.lua:1: string is read-only in take5 house rules",
        ),
        (
            "local _, lib = pairs(string); lib.upper = nil",
            "test.lua:1: attempt to index a nil value (local 'lib')",
        ),
        (
            "local _, lib = pairs(math); lib.floor = nil",
            "test.lua:1: attempt to index a nil value (local 'lib')",
        ),
        (
            "getmetatable('').__index.upper = nil",
            "test.lua:1: attempt to index a boolean value",
        ),
    ] {
        assert_eq!(load_error(&format!("{attempt}\nreturn {{}}")), expected);
    }
    // Reading them works as usual.
    let house = source(
        "local n = 0\nfor name in pairs(string) do n = n + 1 end\n\
         assert(n > 10 and ('ab'):upper() == 'AB' and math.floor(2.5) == 2)\nreturn {}",
    );
    assert!(house.hooks().is_empty());
}

#[test]
fn the_table_view_names_its_fields() {
    let house = source("return { game_over = function(t) return t.row end }");
    let error = hooks_of(&house)
        .game_over(&Fixed::new().view(), &[1, 2, 3])
        .unwrap_err();
    assert_eq!(
        error,
        "test.lua:1: the table view has no field \"row\" (it has round, turn, seats, rows, hand, \
         piles, taken, scores, bullheads, red)"
    );
}

#[test]
fn hook_answers_are_checked() {
    let fixed = Fixed::new();
    let call = |script: &str| {
        let house = source(script);
        let mut hooks = hooks_of(&house);
        let view = fixed.view();
        let mut penalties = [1, 2, 3];
        (
            hooks.low_card(&view, 0, Card(5)).map_err(|e| e.to_string()),
            hooks.row_taken(&view, 0, 0, &cards(&[20, 21]), 8),
            hooks.round_end(&view, &mut penalties).map(|()| penalties),
            hooks.game_over(&view, &[1, 2, 3]),
        )
    };
    // nil keeps the default everywhere.
    let none = "return { low_card = function() end, row_taken = function() end, \
                round_end = function() end, game_over = function() end }";
    assert_eq!(call(none), (Ok(None), Ok(8), Ok([1, 2, 3]), Ok(None)));
    let some = "return { low_card = function() return 2 end, row_taken = function() return -4.0 end, \
                round_end = function(t, p) p[1] = 0 end, game_over = function() return true end }";
    assert_eq!(
        call(some),
        (Ok(Some(2)), Ok(-4), Ok([0, 2, 3]), Ok(Some(true)))
    );
    let bad = "return {\n low_card = function() return 1.5 end,\n row_taken = function() return 'x' end,\n \
               round_end = function() return {1, 2} end,\n game_over = function() return 1 end }";
    let (low, ..) = call("return {\n\n low_card = function(t) return #t.rows end }");
    assert_eq!(
        low.unwrap_err(),
        "test.lua:3: low_card returned row 4; rows are numbered from 0 to 3 (t.rows[1] is row 0)"
    );
    let (low, taken, round, over) = call(bad);
    assert_eq!(
        low.unwrap_err(),
        "test.lua:2: low_card returned 1.5: it must return a row number (from 0) or nil"
    );
    assert!(
        taken
            .unwrap_err()
            .starts_with("test.lua:3: row_taken returned \"x\"")
    );
    assert_eq!(
        round.unwrap_err(),
        "test.lua:4: round_end gave 2 penalties for 3 seats"
    );
    assert!(
        over.unwrap_err()
            .starts_with("test.lua:5: game_over returned 1")
    );
}

#[test]
fn row_taken_gets_its_cards_in_one_sequence_refilled_at_each_call() {
    // The hook changes each `cards` it gets and keeps it: the next call's is the same table,
    // refilled with that call's cards (and nothing past them), as docs/house-rules.md says; a
    // copy keeps a call's cards. Arguments come in the documented order.
    let house = source(
        r#"
        local kept, copy
        return {
          row_taken = function(t, seat, row, cards, bullheads)
            if kept then
              assert(kept == cards, "one table")
              assert(copy[1] == -1 and #copy > 0, "a copy stays as it was")
            end
            local sum = 0
            for i = 1, #cards do
              sum = sum + cards[i]
            end
            cards[1] = -1
            kept, copy = cards, { table.unpack(cards) }
            return seat * 1000000 + row * 100000 + bullheads * 10000 + #cards * 1000 + sum
          end,
        }"#,
    );
    let fixed = Fixed::new();
    let view = fixed.view();
    let mut hooks = hooks_of(&house);
    assert_eq!(
        hooks.row_taken(&view, 3, 2, &cards(&[20, 21]), 4),
        Ok(3_242_041)
    );
    // More cards than a classic row holds, then fewer than before: nothing of the last call's
    // is left past them.
    let long = cards(&[30, 31, 32, 33, 34, 35, 36, 37]);
    assert_eq!(hooks.row_taken(&view, 1, 0, &long, 9), Ok(1_098_268));
    assert_eq!(hooks.row_taken(&view, 0, 1, &cards(&[40]), 1), Ok(111_040));
    // More cards than take5 first makes room for (a house rule's long rows): the same table,
    // grown.
    let longer: Vec<u16> = (50..60).collect();
    assert_eq!(
        hooks.row_taken(&view, 2, 3, &cards(&longer), 5),
        Ok(2_360_545)
    );
    assert_eq!(
        hooks.row_taken(&view, 0, 1, &cards(&[40, 41]), 1),
        Ok(112_081)
    );
}

#[test]
fn a_cards_table_made_more_than_a_sequence_is_replaced() {
    // A metatable of the script's or a key added (past the cards, or not a card) makes take5
    // pass a fresh table next time; the kept one stays as the hook left it. Cards removed are
    // put back with the others (the table may then be the same).
    for (change, fresh) in [
        ("setmetatable(cards, {})", true),
        ("cards.seen = true", true),
        ("cards[#cards + 1] = 5", true),
        ("cards[#cards + 2] = 5", true),
        ("table.insert(cards, 9)", true),
        ("cards[2] = nil", false),
        ("cards[1] = nil", false),
        ("table.remove(cards)", false),
    ] {
        let house = source(&format!(
            r#"
            local kept
            return {{
              row_taken = function(t, seat, row, cards, bullheads)
                if kept then
                  assert(#cards == 1 and cards[1] == 40 and next(cards, 1) == nil)
                  if {fresh} then
                    assert(kept ~= cards, "a fresh table")
                    assert(kept[1] == 20, "the kept one as the hook left it")
                  end
                  return 0
                end
                {change}
                kept = cards
                return 1
              end,
            }}"#
        ));
        let fixed = Fixed::new();
        let view = fixed.view();
        let mut hooks = hooks_of(&house);
        assert_eq!(
            hooks.row_taken(&view, 0, 0, &cards(&[20, 21]), 4),
            Ok(1),
            "{change}"
        );
        assert_eq!(
            hooks.row_taken(&view, 0, 1, &cards(&[40]), 3),
            Ok(0),
            "{change}"
        );
    }
}

#[test]
fn each_game_starts_the_script_afresh() {
    let house = source(
        r#"
        local calls = 0
        return {
          row_taken = function(t, seat, row, cards, bullheads)
            calls = calls + 1
            seen = (seen or 0) + 1
            return calls * 100 + seen
          end,
        }"#,
    );
    let fixed = Fixed::new();
    let (view, row) = (fixed.view(), cards(&[20]));
    let mut first = hooks_of(&house);
    assert_eq!(first.row_taken(&view, 0, 0, &row, 3), Ok(101));
    assert_eq!(first.row_taken(&view, 0, 0, &row, 3), Ok(202));
    let mut second = hooks_of(&house);
    assert_eq!(second.row_taken(&view, 0, 0, &row, 3), Ok(101));
    // The first game's hooks keep their own state.
    assert_eq!(first.row_taken(&view, 0, 0, &row, 3), Ok(303));
}

/// A typo in a setting's name is named with its line, and the setting meant.
#[test]
fn a_setting_typo_gets_its_line_and_the_name_meant() {
    let err = load_error("-- a short game\nreturn {\n  rounds = 3,\n  hand_sise = 8,\n}\n");
    assert!(
        err.starts_with("test.lua:4: setting hand_sise: unknown; did you mean `hand_size`?"),
        "{err}"
    );
}

#[test]
fn settings_are_checked_and_named() {
    let cases = [
        (
            "return { rows = 0 }",
            "test.lua:1: setting rows: must be at least 1, got 0",
        ),
        (
            "return { rows = 'five' }",
            "test.lua:1: setting rows: must be a whole number, got \"five\"",
        ),
        (
            "return { hand_size = 2.5 }",
            "test.lua:1: setting hand_size: must be a whole number, got 2.5",
        ),
        (
            "return { row = 5 }",
            "test.lua:1: setting row: unknown; did you mean `rows`? (settings: deck, bullheads, rows, row_capacity, hand_size, min_players, max_players, target_score, rounds, ties, pro_deck, draft, takes_at, hash_pile_multiplier, deal, cards_per_turn, plus5_points, x2_multiplier, held_penalty, green_multiplier, red_multiplier, red, specials, specials_dealt, swapping; hooks: low_card, row_taken, round_end, game_over, hash_row, hash_pile, special_played, swap, row_collected, final_score, draft_pick)",
        ),
        (
            "return { ties = 'random' }",
            "test.lua:1: setting ties: must be \"shared\" or \"fewest_in_last_round\", got \"random\"",
        ),
        (
            "return { draft = 'circle' }",
            "test.lua:1: setting draft: must be \"seat_order\" or \"snake\", got \"circle\"",
        ),
        (
            "return { target_score = 50, rounds = 2 }",
            "test.lua: settings target_score and rounds: give one of them (the game ends by score or after a number of rounds)",
        ),
        (
            "return { min_players = 5, max_players = 4 }",
            "test.lua:1: setting min_players: must be between 1 and max_players (4), is 5",
        ),
        (
            "return { deck = { lowest = 1, highest = 50 } }",
            "test.lua: settings deck, hand_size, rows and max_players do not fit together: 10 players with 10 cards each and 4 rows need 104 cards, the deck has 50 (lower max_players, hand_size or rows, or give a larger deck)",
        ),
        (
            "return { deck = { highest = 104, size = 3 } }",
            "test.lua:1: setting deck: unknown field \"size\" (a deck has lowest and highest)",
        ),
        (
            "return { bullheads = { [105] = 3 } }",
            "test.lua:1: setting bullheads: card 105 is not in the deck (1 to 104)",
        ),
        (
            "return { bullheads = { [55] = 300 } }",
            "test.lua:1: setting bullheads: card 55 must be at most 255, got 300",
        ),
        (
            "return { low_card = 3 }",
            "test.lua: hook low_card must be a function, got 3",
        ),
        (
            "return { [1] = 3 }",
            "test.lua: the returned table has a key 1; settings and hooks are named, e.g. `rows = 5`",
        ),
        (
            "return 5",
            "test.lua: the script must return a table of settings and hooks, it returned 5",
        ),
        (
            "rows = 5",
            "test.lua: the script must return a table of settings and hooks, it returned nil",
        ),
        (
            "return {\n  rows = = 5 }",
            "test.lua:2: unexpected symbol near '='",
        ),
        (
            "return {\n  bullheads = function(c) return c.x end }",
            "test.lua: setting bullheads: test.lua:2: attempt to index a number value (local 'c') (card 1)",
        ),
    ];
    for (script, expected) in cases {
        assert_eq!(load_error(script), expected, "{script}");
    }
}

#[test]
fn settings_change_the_rules() {
    let house = source(
        r#"
        return {
          deck = { lowest = 1, highest = 120 },
          bullheads = function(card) if card > 104 then return 4 end end,
          rows = 3, row_capacity = 4, hand_size = 8, min_players = 3, max_players = 12,
          rounds = 2, ties = "fewest_in_last_round",
        }"#,
    );
    let rules = house.rules();
    assert_eq!((rules.deck.lowest, rules.deck.highest()), (1, 120));
    assert_eq!(rules.deck.bullheads(Card(110)), 4);
    assert_eq!(
        rules.deck.bullheads(Card(55)),
        7,
        "cards without an answer keep their printed bullheads"
    );
    assert_eq!(
        (
            rules.rows,
            rules.row_capacity,
            rules.hand_size,
            rules.min_players,
            rules.max_players
        ),
        (3, 4, 8, 3, 12)
    );
    assert_eq!(rules.end, GameEnd::Rounds(2));
    assert_eq!(rules.ties, take5::rules::Ties::FewestInLastRound);
    let table = source("return { bullheads = { [55] = 10, [1] = 0 } }");
    assert_eq!(table.rules().deck.bullheads(Card(55)), 10);
    assert_eq!(table.rules().deck.bullheads(Card(1)), 0);
    assert_eq!(table.rules().deck.bullheads(Card(2)), 1);
}

/// Every ```lua block of docs/house-rules.md is a whole script: it loads, and a game with it
/// plays to the end between built-in bots (a block whose first line is `-- --variant V`: a
/// game of V), or it is an example script's whole text (```lua scripts/house/...:
/// house_play.rs plays those).
#[test]
fn the_docs_examples_work() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/house-rules.md")).unwrap();
    let mut blocks = Vec::new();
    let mut current: Option<(usize, &str, String)> = None;
    for (i, line) in doc.lines().enumerate() {
        let line_start = line.trim_start();
        match (&mut current, line_start.strip_prefix("```lua")) {
            (None, Some(tag)) => current = Some((i + 2, tag.trim(), String::new())),
            (Some(_), _) if line_start == "```" => blocks.push(current.take().unwrap()),
            (Some((_, _, text)), _) => {
                text.push_str(line);
                text.push('\n');
            }
            (None, None) => {}
        }
    }
    assert!(blocks.len() >= 13, "found only {} lua blocks", blocks.len());
    for (line, tag, text) in blocks {
        let name = format!("docs/house-rules.md:{line}");
        if tag.starts_with("scripts/") {
            let script = std::fs::read_to_string(root.join(tag)).unwrap();
            assert_eq!(text, script, "{name}: the block is not {tag}");
            continue;
        }
        let first = text.lines().next().unwrap_or_default();
        // `-- --variant V` or `-- --variant V: what the example shows`.
        let named = first.strip_prefix("-- --variant ");
        let variant = match named.and_then(|rest| rest.split(':').next()) {
            None => Variant::Classic,
            Some(name) => <Variant as clap::ValueEnum>::from_str(name, false)
                .unwrap_or_else(|e| panic!("{name}: {e}")),
        };
        let house = House::from_source(&name, text.as_bytes(), variant.rules())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let lines = variant_match_record(variant, house, 1);
        assert!(
            matches!(lines.last(), Some(Line::Event(Event::GameEnd { .. }))),
            "{name}: the game did not end"
        );
    }
}

/// The circle game's `red` setting: a list of cards or a function; the deck's red cards.
#[test]
fn red_lists_the_circle_games_red_cards() {
    let circle = || take5::variants::Variant::Circle.rules();
    let load = |text: &str| House::from_source("test.lua", text.as_bytes(), circle());
    let red = |text: &str| {
        let house = load(text).unwrap_or_else(|e| panic!("{e}"));
        house
            .rules()
            .deck
            .red
            .iter()
            .map(|c| c.0)
            .collect::<Vec<u16>>()
    };
    assert_eq!(red("return { red = {70, 5, 70} }"), [5, 70]);
    assert_eq!(
        red("return { red = function(card) return card % 20 == 0 end }"),
        [20, 40, 60, 80]
    );
    assert_eq!(red("return { rows = 5 }").len(), 26, "the default deck");
    let error = |text: &str| load(text).unwrap_err().to_string();
    assert_eq!(
        error("return { red = {99} }"),
        "test.lua:1: setting red: card 99 is not in the deck (1 to 98)"
    );
    assert_eq!(
        error("return { red = function(card) return 1 end }"),
        "test.lua:1: setting red: the function's answer for card 1 must be true or false, got 1"
    );
    assert_eq!(
        error("return { red = 5 }"),
        "test.lua:1: setting red: must be a list {card, ...} or a function(card) answering true or \
         false, got 5"
    );
}

/// A library function misused names the script's line and the function, not take5's sandbox
/// (whose wrappers charge the functions' work to the budget).
#[test]
fn library_errors_name_the_script_line_and_the_function() {
    let error = |code: &str| {
        House::from_source(
            "test.lua",
            format!("local x = 1\n{code}\nreturn {{}}").as_bytes(),
            Rules::classic(),
        )
        .unwrap_err()
        .to_string()
    };
    assert_eq!(
        error("string.rep('a')"),
        "test.lua:2: bad argument #2 to 'rep' (number expected, got nil)"
    );
    assert_eq!(
        error("('x'):upper(nil, {})  string.format('%d', 'x')"),
        "test.lua:2: bad argument #2 to 'format' (number expected, got string)"
    );
    assert_eq!(
        error("table.insert(nil, 1)"),
        "test.lua:2: bad argument #1 to 'insert' (table expected, got nil)"
    );
    assert_eq!(
        error("table.sort({3, 1, 2}, function(a, b) return a.x < b end)"),
        "test.lua:2: attempt to index a number value (local 'a')"
    );
    assert_eq!(
        error("string.find('a', '[a')"),
        "test.lua:2: malformed pattern (missing ']')"
    );
}

/// In a game, `low_card` and `row_taken` see the hand of the seat they concern (one card fewer
/// than the hand size per turn begun: its card of this turn is on the table) and
/// `round_end`/`game_over` none.
#[test]
fn in_a_game_each_hook_sees_its_own_seats_hand() {
    let house = source(
        r#"
        local function check(t, seat)
          assert(#t.hand == 10 - t.turn, "seat " .. seat .. " holds " .. #t.hand .. " cards")
        end
        return {
          low_card = function(t, seat, card) check(t, seat) end,
          row_taken = function(t, seat, row, cards, bullheads) check(t, seat) end,
          round_end = function(t, penalties) assert(t.hand == nil) end,
          game_over = function(t, totals) assert(t.hand == nil) end,
        }"#,
    );
    let lines = match_record(house, 2);
    assert!(
        matches!(lines.last(), Some(Line::Event(Event::GameEnd { .. }))),
        "the games end: {:?}",
        lines.last()
    );
}
