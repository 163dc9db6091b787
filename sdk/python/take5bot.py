"""take5bot: a small kit for take5 bots in Python 3 (standard library only).

The protocol (docs/protocol.md) read into plain objects, the answers written back, and the
events folded into a table a stateful bot can use. A bot is a class with a `choose` method:

    import take5bot

    class Lowest(take5bot.Bot):
        name = "lowest"

        def choose(self, ask):
            if ask.kind == "play":
                return [take5bot.play(card) for card in ask.hand]  # best first
            ...

    take5bot.run(Lowest())

`choose` gets each request (`Ask`) and returns an answer line, or a list of them best first:
after an `error` line the kit answers the same request with the next answer not tried yet, so a
bot never handles errors itself (it may look at `self.errors`). `self.game` is the current
game (`Game`, from the `game` line), `self.table` what happened this round (`Table`, from the
events). Logs go to standard error (`take5bot.log`), never to standard output.
"""

import sys

VERSION = 1

# The fields that are lists of numbers (or of names) wherever they appear.
LIST_KEYS = {
    "hand", "cards", "scores", "taken", "revealed", "pool", "hashpiles", "hands", "specials",
    "specialhands", "stops", "sevens", "discard", "penalties", "totals", "winners", "red",
}
# The fields of a request that are lists of lists ("/" between them, "," inside).
NESTED_KEYS = {"rows", "hashrows", "rowspecials", "held"}


def log(*words):
    """Writes a line to standard error (take5 shows its last lines with a fault)."""
    print(*words, file=sys.stderr, flush=True)


def number(text):
    """An integer if `text` is one (a sign allowed), else the text itself (a special's name)."""
    try:
        return int(text)
    except ValueError:
        return text


def parse_list(text):
    """`3,17,22` -> [3, 17, 22]; the empty string is the empty list."""
    return [number(part) for part in text.split(",") if part]


def parse_value(line, key, text):
    """A field's value: `line` is "game", "event" or "ask" (in a `game` line `rows` is a number
    and `bullheads` a list; in an `event` line `rows` is a list and `bullheads` a number)."""
    if line == "ask" and key in NESTED_KEYS:
        return [parse_list(part) for part in text.split("/")]
    if key in LIST_KEYS or (line, key) in (("event", "rows"), ("game", "bullheads")):
        return parse_list(text)
    return number(text)


def parse_fields(line, words):
    """The `key=value` words of a line as a dict of values (every key, known or not)."""
    fields = {}
    for word in words:
        if "=" in word:
            key, value = word.split("=", 1)
            fields[key] = parse_value(line, key, value)
    return fields


class Message:
    """A line's fields as attributes (`msg.hand`); `msg.fields` holds them all, unknown keys
    included, and `msg.get(key, default)` reads one that may be absent."""

    def __init__(self, kind, fields, line):
        self.kind = kind
        self.fields = fields
        self.line = line

    def get(self, key, default=None):
        return self.fields.get(key, default)

    def __getattr__(self, key):
        try:
            return self.__dict__["fields"][key]
        except KeyError:
            raise AttributeError(key) from None

    def __repr__(self):
        return f"{type(self).__name__}({self.kind!r}, {self.fields!r})"


class Game(Message):
    """The `game` line: number, variant, seats, seat, rows, row_capacity, hand_size, end,
    lowest, bullheads (a list from `lowest` up) and, in the circle game, red. Keys a later take5
    adds (such as `seed` or `time_ms`) are in `fields` too."""

    def heads(self, card):
        """The bullheads of a number card."""
        return self.bullheads[card - self.lowest]

    def row_heads(self, cards):
        return sum(self.heads(card) for card in cards)

    def points(self, card):
        """The circle game: a card's green bullheads, or minus its red ones."""
        heads = self.heads(card)
        return -heads if card in self.get("red", []) else heads


class Ask(Message):
    """An `ask` line: `kind` is play, row, pick, keep, place, special, cancel or swap; the
    fields as docs/protocol.md lists them (`hand`, `rows` as lists of rows, `scores`, ...)."""

    def capacity(self, game, row):
        """Cards `row` holds before the next card takes it: Take a Number's rows hold
        row_capacity - (rows - 1 - row), an anniversary row with a 7 nimmt! one more."""
        if game.variant == "take-a-number":
            return game.row_capacity - (len(self.rows) - 1 - row)
        return game.row_capacity + (1 if row in self.get("sevens", []) else 0)

    def open_rows(self):
        """The rows no Stop card blocks (all but in the anniversary variant)."""
        stops = self.get("stops", [])
        return [i for i in range(len(self.rows)) if i not in stops]

    def row_for(self, card):
        """The row `card` goes to (the highest end below it), or None when it is low."""
        below = [(row[-1], i) for i, row in enumerate(self.rows) if i in self.open_rows() and row[-1] < card]
        return max(below)[1] if below else None

    def clock(self):
        """In a clocked game (`take5 play --clock`): (time left, increment) in milliseconds, from
        `time_left_ms=` and `increment_ms=`; None without a clock."""
        if "time_left_ms" not in self.fields:
            return None
        return self.time_left_ms, self.get("increment_ms", 0)

    def budget(self, game):
        """The milliseconds this decision may spend: with a clock, the time left shared over the
        hand's cards (the round's decisions still to come) plus the increment; without one, the
        limit per decision (the `game` line's `time_ms`)."""
        clock = self.clock()
        if clock is None:
            return game.get("time_ms", 2000)
        left, increment = clock
        return left // max(1, len(self.get("hand", []))) + increment


class Event(Message):
    """An `event` line: `kind` is deal, pick, reveal, take, place, round_end, game_end, keep,
    pile, place_special, collect, end_turn, specials, special, cancel, swap, reshuffle, or one
    a later take5 adds."""


class Table:
    """What happened in this round, folded from the events (empty for a bot that declines
    them): `seen` the cards seen this round (the hand dealt, the rows, every card revealed,
    picked or placed), `hand` the hand dealt, `round`, `totals` after the last round, `taken`
    the bullheads each seat took this round, `events` the round's events in order."""

    def __init__(self):
        self.round = 0
        self.seen = set()
        self.hand = []
        self.totals = []
        self.taken = {}
        self.events = []

    def fold(self, event):
        f = event.fields
        if event.kind == "deal":
            self.round = f.get("round", self.round + 1)
            self.hand = list(f.get("hand", []))
            self.seen = set(self.hand) | set(f.get("rows", []))
            self.taken = {}
            self.events = []
        self.events.append(event)
        if event.kind == "reveal":
            self.seen.update(f.get("cards", []))
        elif event.kind in ("pick", "place") and isinstance(f.get("card"), int):
            self.seen.add(f["card"])
        elif event.kind == "take":
            self.seen.update(f.get("cards", []))
            seat = f.get("seat")
            self.taken[seat] = self.taken.get(seat, 0) + f.get("bullheads", 0)
        elif event.kind == "round_end":
            self.totals = list(f.get("totals", []))


def play(card):
    return f"play {card}"


def row(index):
    return f"row {index}"


def pick(card):
    return f"pick {card}"


def keep(card):
    return f"keep {card}"


def special(name, *args):
    """`special x2 3` (the circle game), `special insert 0 2` (anniversary), ..."""
    return " ".join(["special", name, *map(str, args)])


def end():
    return "end"


def pass_():
    return "pass"


def cancel(card):
    return f"cancel {card}"


def swap(name):
    return f"swap {name}"


class Bot:
    """Subclass it: set `name` (1 to 40 of A-Z a-z 0-9 _ . : + -), `events = False` to decline
    the event lines, and write `choose`; `on_game` and `on_event` are there to override."""

    name = "take5bot"
    events = True

    def __init__(self):
        self.game = None
        self.table = Table()
        self.ask = None
        self.errors = []  # the error lines of the current request

    def on_game(self, game):
        """A game starts."""

    def on_event(self, event):
        """An event happened (after it was folded into `self.table`)."""

    def choose(self, ask):
        """The answer to `ask`: a line, or a list of lines best first."""
        raise NotImplementedError


def say(out, line):
    out.write(line + "\n")
    out.flush()


def run(bot, stdin=None, stdout=None):
    """Plays: reads the referee's lines until `bye` or the end of input."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    hello = f"hello version={VERSION} name={bot.name}" + ("" if bot.events else " events=no")
    tried = []
    choices = []
    for line in stdin:
        words = line.split()
        if not words:
            continue
        keyword = words[0]
        if keyword == "hello":
            say(stdout, hello)
        elif keyword == "game":
            bot.game = Game("game", parse_fields("game", words[1:]), line)
            bot.table = Table()
            bot.on_game(bot.game)
        elif keyword == "event" and len(words) > 1:
            event = Event(words[1], parse_fields("event", words[2:]), line)
            bot.table.fold(event)
            bot.on_event(event)
        elif keyword == "ask" and len(words) > 1:
            bot.ask = Ask(words[1], parse_fields("ask", words[2:]), line)
            bot.errors = []
            answer = bot.choose(bot.ask)
            choices = [answer] if isinstance(answer, str) else list(answer)
            tried = []
            say(stdout, next_answer(choices, tried))
        elif keyword == "error":
            log(f"{bot.name}: referee said: {line.strip()}")
            if bot.ask is None:  # the error is about our hello
                say(stdout, hello)
            else:
                bot.errors.append(line.strip())
                say(stdout, next_answer(choices, tried))
        elif keyword == "bye":
            return 0
    return 0


def next_answer(choices, tried):
    """The best answer not tried yet (the best one again if all were)."""
    fresh = [choice for choice in choices if choice not in tried]
    choice = (fresh or choices or ["pass"])[0]
    tried.append(choice)
    return choice
