#!/usr/bin/env node
// An example bot on the take5bot kit: it plays all five variants, and is stateful where it
// helps. `node sdk/js/example_bot.mjs` is the command take5 runs; test it with
// `take5 selftest "node sdk/js/example_bot.mjs"`. The same strategy as the Python kit's
// example bot (sdk/python/example_bot.py):
//
// - Play: a card that takes no row, the one with the fewest cards not seen yet this round
//   between its row's end and it (the kit's table knows which cards were seen); else the card
//   that takes the fewest bullheads. On a clock (`take5 play --clock`) nearly out, it skips
//   the count of unseen cards.
// - Row: the cheapest row. Pick (Pro): the fewest bullheads, the lowest on a tie.
// - Keep (Take a Number): the lowest card above the #-row's end, else the most bullheads.
// - Place (the circle game): a number card that takes a row worth points, else one that leaves
//   no row at four cards for the next player; a special card once few number cards are left;
//   end the turn when nothing is worth it.
// - Special (anniversary): a 5th Row or an Insert when the card would take a row; cancel the
//   costliest card taken; never swap.

import { run, play, row, pick, keep, special, end, pass, cancel } from "./take5bot.mjs";

const last = (cards) => cards[cards.length - 1];
const byKey = (key) => (a, b) => {
  const ka = key(a);
  const kb = key(b);
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i] < kb[i] ? -1 : 1;
  return 0;
};

// Below this time for a decision (milliseconds) the bot skips its slower reckoning.
const HURRIED_MS = 20;

function takeCost(game, ask, card) {
  const i = ask.rowFor(card);
  if (i === null) return Math.min(...ask.openRows().map((r) => game.rowHeads(ask.rows[r])));
  return ask.rows[i].length >= ask.capacity(game, i) ? game.rowHeads(ask.rows[i]) : 0;
}

function risk(ask, table, card) {
  const i = ask.rowFor(card);
  if (i === null) return 0;
  const seen = new Set([...table.seen, ...ask.hand]);
  let unseen = 0;
  for (let c = last(ask.rows[i]) + 1; c < card; c++) if (!seen.has(c)) unseen++;
  return unseen;
}

function place(game, ask) {
  const rows = ask.rows;
  const specials = rows.map((_, i) => ask.rowspecials[i] ?? []);
  const worth = (i, extra) => {
    const cards = extra === undefined ? rows[i] : [...rows[i], extra];
    const total = cards.reduce((s, c) => s + game.points(c), 0) + 5 * specials[i].filter((s) => s === "plus5").length;
    return total * 2 ** specials[i].filter((s) => s === "x2").length;
  };
  const rowOf = (card) => {
    let below = -1;
    let highest = 0;
    rows.forEach((r, i) => {
      if (last(r) < card && (below < 0 || last(r) > last(rows[below]))) below = i;
      if (last(r) > last(rows[highest])) highest = i;
    });
    return below >= 0 ? below : highest;
  };
  const scored = [];
  for (const card of ask.hand) {
    const i = rowOf(card);
    if (rows[i].length === game.row_capacity) scored.push([worth(i, card), play(card)]);
    else if (rows[i].length + 1 === game.row_capacity) scored.push([-Math.abs(worth(i, card)) - 1, play(card)]);
    else scored.push([-1, play(card)]);
  }
  const mine = ask.held[ask.seat] ?? [];
  for (const kind of [...new Set(mine)].sort()) {
    rows.forEach((_, i) => {
      if (!specials[i].includes(kind)) {
        const urgent = ask.hand.length <= 2 ? 50 : -20;
        scored.push([urgent - Math.abs(worth(i)), special(kind, i)]);
      }
    });
  }
  if (ask.placed > 0) scored.push([0, end()]);
  // A stable sort, best first: on a tie, the order above.
  return scored.sort((a, b) => b[0] - a[0]).map(([, answer]) => answer);
}

function specialPlay(game, ask) {
  if (takeCost(game, ask, ask.card) === 0) return [pass()];
  const answers = [];
  if (ask.specials.includes("fifth_row") && ask.rows.length <= game.rows) answers.push(special("fifth_row"));
  if (ask.specials.includes("insert")) {
    for (const i of ask.openRows()) {
      if (ask.rows[i].length < ask.capacity(game, i)) {
        answers.push(special("insert", i, ask.rows[i].filter((c) => c < ask.card).length));
      }
    }
  }
  return [...answers, pass()];
}

run({
  name: "example_js",
  choose(ask, { game, table }) {
    switch (ask.kind) {
      case "play":
        // Counting the unseen cards costs a scan of the deck per card: with a clock nearly out
        // (`ask.budget`, from `time_left_ms=`), the bot plays on the bullheads alone.
        if (ask.budget(game) < HURRIED_MS) {
          return [...ask.hand].sort(byKey((c) => [takeCost(game, ask, c), c])).map(play);
        }
        return [...ask.hand]
          .sort(byKey((c) => [takeCost(game, ask, c), risk(ask, table, c), c]))
          .map(play);
      case "row":
        return ask.openRows().sort(byKey((r) => [game.rowHeads(ask.rows[r]), r])).map(row);
      case "pick":
        return [...ask.pool].sort(byKey((c) => [game.heads(c), c])).map(pick);
      case "keep": {
        const endCard = last(ask.hashrows[ask.seat]);
        const above = ask.cards.filter((c) => c > endCard).sort((a, b) => a - b);
        const rest = ask.cards.filter((c) => c <= endCard).sort((a, b) => game.heads(b) - game.heads(a));
        return [...above, ...rest].map(keep);
      }
      case "place":
        return place(game, ask);
      case "special":
        return specialPlay(game, ask);
      case "cancel":
        return [...[...ask.cards].sort((a, b) => game.heads(b) - game.heads(a)).map(cancel), pass()];
      default:
        return [pass()]; // swap, or a question a later take5 may add
    }
  },
});
