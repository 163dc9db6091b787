// take5bot: a small kit for take5 bots in JavaScript (Node, no dependencies).
//
// The protocol (docs/protocol.md) read into plain objects, the answers written back, and the
// events folded into a table a stateful bot can use. A bot is an object with a `choose`
// method:
//
//   import { run, play } from "./take5bot.mjs";
//   run({
//     name: "lowest",
//     choose(ask, bot) {                  // each request; bot.game, bot.table, bot.errors
//       if (ask.kind === "play") return ask.hand.map(play);   // best first
//       ...
//     },
//   });
//
// `choose` returns an answer line, or a list of them best first: after an `error` line the kit
// answers the same request with the next answer not tried yet. Optional: `events: false` to
// decline the event lines, `onGame(game, bot)`, `onEvent(event, bot)`. Logs go to standard
// error (`log`), never to standard output.

import { createInterface } from "node:readline";

export const VERSION = 1;

// The fields that are lists of numbers (or of names) wherever they appear.
const LIST_KEYS = new Set([
  "hand", "cards", "scores", "taken", "revealed", "pool", "hashpiles", "hands", "specials",
  "specialhands", "stops", "sevens", "discard", "penalties", "totals", "winners", "red",
]);
// The fields of a request that are lists of lists ("/" between them, "," inside).
const NESTED_KEYS = new Set(["rows", "hashrows", "rowspecials", "held"]);

/** Writes a line to standard error (take5 shows its last lines with a fault). */
export function log(...words) {
  process.stderr.write(words.join(" ") + "\n");
}

/** An integer if `text` is one (a sign allowed), else the text itself (a special's name). */
export function number(text) {
  return /^-?\d+$/.test(text) ? Number(text) : text;
}

/** "3,17,22" -> [3, 17, 22]; the empty string is the empty list. */
export function parseList(text) {
  return text.split(",").filter((part) => part !== "").map(number);
}

/**
 * A field's value: `line` is "game", "event" or "ask" (in a `game` line `rows` is a number and
 * `bullheads` a list; in an `event` line `rows` is a list and `bullheads` a number).
 */
export function parseValue(line, key, text) {
  if (line === "ask" && NESTED_KEYS.has(key)) return text.split("/").map(parseList);
  if (LIST_KEYS.has(key) || (line === "event" && key === "rows") || (line === "game" && key === "bullheads")) {
    return parseList(text);
  }
  return number(text);
}

/** The key=value words of a line as an object (every key, known or not). */
export function parseFields(line, words) {
  const fields = {};
  for (const word of words) {
    const at = word.indexOf("=");
    if (at > 0) fields[word.slice(0, at)] = parseValue(line, word.slice(0, at), word.slice(at + 1));
  }
  return fields;
}

/**
 * Reads one line from the referee: { type: "hello" | "game" | "event" | "ask" | "error" | "bye",
 * kind (events and asks), fields, line }. The `game` line's fields include any key a later
 * take5 adds (such as `seed` or `time_ms`).
 */
export function parseLine(line) {
  const words = line.trim().split(/\s+/).filter((w) => w !== "");
  const type = words[0] ?? "";
  if (type === "game") return { type, fields: parseFields("game", words.slice(1)), line };
  if (type === "event" || type === "ask") {
    return { type, kind: words[1] ?? "", fields: parseFields(type, words.slice(2)), line };
  }
  return { type, fields: {}, line };
}

/** Helpers over the `game` line's fields. */
export class Game {
  constructor(fields) {
    Object.assign(this, fields);
    this.fields = fields;
  }
  /** The bullheads of a number card. */
  heads(card) {
    return this.bullheads[card - this.lowest];
  }
  rowHeads(cards) {
    return cards.reduce((sum, card) => sum + this.heads(card), 0);
  }
  /** The circle game: a card's green bullheads, or minus its red ones. */
  points(card) {
    const heads = this.heads(card);
    return (this.red ?? []).includes(card) ? -heads : heads;
  }
}

/** A request: `kind` (play, row, pick, keep, place, special, cancel, swap) and its fields. */
export class Ask {
  constructor(kind, fields) {
    Object.assign(this, fields);
    this.kind = kind;
    this.fields = fields;
  }
  /** Cards `row` holds before the next card takes it (Take a Number, a 7 nimmt! row). */
  capacity(game, row) {
    if (game.variant === "take-a-number") return game.row_capacity - (this.rows.length - 1 - row);
    return game.row_capacity + ((this.sevens ?? []).includes(row) ? 1 : 0);
  }
  /** The rows no Stop card blocks. */
  openRows() {
    const stops = this.stops ?? [];
    return this.rows.map((_, i) => i).filter((i) => !stops.includes(i));
  }
  /** The row `card` goes to (the highest end below it), or null when it is low. */
  rowFor(card) {
    let best = null;
    for (const i of this.openRows()) {
      const end = this.rows[i][this.rows[i].length - 1];
      if (end < card && (best === null || end > this.rows[best][this.rows[best].length - 1])) best = i;
    }
    return best;
  }
  /**
   * In a clocked game (`take5 play --clock`): `{ left, increment }` in milliseconds, from
   * `time_left_ms=` and `increment_ms=`; null without a clock.
   */
  clock() {
    if (this.time_left_ms === undefined) return null;
    return { left: this.time_left_ms, increment: this.increment_ms ?? 0 };
  }
  /**
   * The milliseconds this decision may spend: with a clock, the time left shared over the
   * hand's cards (the round's decisions still to come) plus the increment; without one, the
   * limit per decision (the `game` line's `time_ms`).
   */
  budget(game) {
    const clock = this.clock();
    if (clock === null) return game.time_ms ?? 2000;
    return Math.floor(clock.left / Math.max(1, (this.hand ?? []).length)) + clock.increment;
  }
}

/**
 * What happened in this round, folded from the events (empty for a bot that declines them):
 * `seen` the cards seen this round (the hand dealt, the rows, every card revealed, picked or
 * placed), `hand` the hand dealt, `round`, `totals` after the last round, `taken` the
 * bullheads each seat took this round, `events` the round's events in order.
 */
export class Table {
  constructor() {
    this.round = 0;
    this.seen = new Set();
    this.hand = [];
    this.totals = [];
    this.taken = new Map();
    this.events = [];
  }
  fold(event) {
    const f = event.fields;
    if (event.kind === "deal") {
      this.round = f.round ?? this.round + 1;
      this.hand = [...(f.hand ?? [])];
      this.seen = new Set([...this.hand, ...(f.rows ?? [])]);
      this.taken = new Map();
      this.events = [];
    }
    this.events.push(event);
    if (event.kind === "reveal") for (const c of f.cards ?? []) this.seen.add(c);
    else if ((event.kind === "pick" || event.kind === "place") && typeof f.card === "number") this.seen.add(f.card);
    else if (event.kind === "take") {
      for (const c of f.cards ?? []) this.seen.add(c);
      this.taken.set(f.seat, (this.taken.get(f.seat) ?? 0) + (f.bullheads ?? 0));
    } else if (event.kind === "round_end") this.totals = [...(f.totals ?? [])];
  }
}

export const play = (card) => `play ${card}`;
export const row = (index) => `row ${index}`;
export const pick = (card) => `pick ${card}`;
export const keep = (card) => `keep ${card}`;
/** `special x2 3` (the circle game), `special insert 0 2` (anniversary), ... */
export const special = (name, ...args) => ["special", name, ...args].join(" ");
export const end = () => "end";
export const pass = () => "pass";
export const cancel = (card) => `cancel ${card}`;
export const swap = (name) => `swap ${name}`;

/** The best answer not tried yet (the best one again if all were). */
export function nextAnswer(choices, tried) {
  const choice = choices.find((c) => !tried.includes(c)) ?? choices[0] ?? "pass";
  tried.push(choice);
  return choice;
}

/** Plays: reads the referee's lines until `bye` or the end of input. */
export function run(bot, input = process.stdin, output = process.stdout) {
  const name = bot.name ?? "take5bot";
  const hello = `hello version=${VERSION} name=${name}` + (bot.events === false ? " events=no" : "");
  const state = { game: null, table: new Table(), ask: null, errors: [] };
  let choices = [];
  let tried = [];
  const say = (line) => output.write(line + "\n");
  const lines = createInterface({ input, terminal: false });
  lines.on("line", (line) => {
    const message = parseLine(line);
    switch (message.type) {
      case "hello":
        say(hello);
        break;
      case "game":
        state.game = new Game(message.fields);
        state.table = new Table();
        bot.onGame?.(state.game, state);
        break;
      case "event": {
        const event = { kind: message.kind, fields: message.fields, line };
        state.table.fold(event);
        bot.onEvent?.(event, state);
        break;
      }
      case "ask": {
        state.ask = new Ask(message.kind, message.fields);
        state.errors = [];
        const answer = bot.choose(state.ask, state);
        choices = typeof answer === "string" ? [answer] : [...answer];
        tried = [];
        say(nextAnswer(choices, tried));
        break;
      }
      case "error":
        log(`${name}: referee said: ${line.trim()}`);
        if (state.ask === null) say(hello);
        else {
          state.errors.push(line.trim());
          say(nextAnswer(choices, tried));
        }
        break;
      case "bye":
        lines.close();
        break;
      default:
        break;
    }
  });
  lines.on("close", () => process.exit(0));
}
