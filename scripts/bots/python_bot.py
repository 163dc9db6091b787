#!/usr/bin/env python3
"""A take5 bot in plain Python 3 (standard library only). Protocol: docs/protocol.md.

It plays the card that takes no row and lands where there is most room left, and when it must
take a row it takes the cheapest. In a draft (the Pro variant's `ask pick`) it picks the card
with the fewest bullheads, farthest from the cards already in its hand. In Take a Number
(`variant=take-a-number`), when it took several cards it keeps for its #-row the lowest one above
the #-row's end (the card with the most bullheads when none is). In the circle game
(`variant=circle`, `ask place`) it takes rows worth points, puts a special card into a row it
can take this turn (or, when none, into the row where it does the least good), avoids filling a
green row to four cards for the next player, and ends its turn when nothing is worth placing.
In the anniversary variant (`variant=anniversary`) it plays a special card only to avoid taking
a row (a 5th Row, a 7 nimmt! on the full row, or an Insert into a row with room), plays
Negative = Positive on the costliest card it takes, and never swaps. After an `error` line it
answers the same request again with its next best choice.
"""

import sys

NAME = "python_bot"


def fields(words):
    """The key=value words of a line, as a dict (words without "=" are skipped)."""
    return dict(word.split("=", 1) for word in words if "=" in word)


def cards(value):
    """A comma-separated list of numbers; the empty string is the empty list."""
    return [int(card) for card in value.split(",") if card]


class Bot:
    def __init__(self):
        self.lowest, self.bullheads, self.capacity, self.rows = 1, [], 5, 4
        self.variant = "classic"
        self.red = set()  # the circle game: the cards whose bullheads are red
        self.request = None  # (kind, fields) of the last `ask`, to answer again after an error
        self.tried = []  # the answers already refused for it
        self.stops, self.sevens = [], []  # anniversary: the rows with a Stop, with a 7 nimmt!

    def game(self, f):
        self.lowest = int(f["lowest"])
        self.bullheads = cards(f["bullheads"])
        self.capacity = int(f["row_capacity"])
        self.rows = int(f["rows"])
        self.variant = f["variant"]
        self.red = set(cards(f.get("red", "")))

    def room(self, i, rows):
        """Cards row `i` holds before the next card takes it. In Take a Number the rows hold
        row_capacity - (rows - 1 - i): 2, 3 and 4 cards; in the anniversary variant a row with a
        7 nimmt! card holds one more."""
        if self.variant == "take-a-number":
            return self.capacity - (len(rows) - 1 - i)
        return self.capacity + (1 if i in self.sevens else 0)

    def heads(self, row):
        return sum(self.bullheads[card - self.lowest] for card in row)

    def open_rows(self, rows):
        """The rows no Stop card blocks (anniversary)."""
        return [i for i in range(len(rows)) if i not in self.stops]

    def cost(self, card, rows):
        """How bad playing `card` looks: (bullheads it would take, -room left, distance)."""
        below = [(rows[i][-1], i) for i in self.open_rows(rows) if rows[i][-1] < card]
        if not below:  # lower than every row: we would take the cheapest row
            return (min(self.heads(rows[i]) for i in self.open_rows(rows)), 0, 0)
        end, i = max(below)  # the card goes after the highest end below it
        if len(rows[i]) >= self.room(i, rows):  # the row is full: we would take it
            return (self.heads(rows[i]), 0, 0)
        return (0, -(self.room(i, rows) - len(rows[i])), card - end)

    def points(self, card):
        """The circle game: a card's green bullheads, or minus its red ones."""
        heads = self.bullheads[card - self.lowest]
        return -heads if card in self.red else heads

    def worth(self, row, specials):
        """The circle game: what taking `row` with `specials` in it would score."""
        total = sum(self.points(card) for card in row) + 5 * specials.count("plus5")
        return total * 2 ** specials.count("x2")

    def place_choices(self, f):
        """The circle game's answers to `ask place`, best first (see the module's comment)."""
        rows = [cards(row) for row in f["rows"].split("/")]
        row_specials = [[s for s in part.split(",") if s] for part in f["rowspecials"].split("/")]
        row_specials += [[] for _ in range(len(rows) - len(row_specials))]
        held = f["held"].split("/")
        mine = [s for s in held[int(f["seat"])].split(",") if s] if int(f["seat"]) < len(held) else []
        hand = cards(f["hand"])
        remaining = int(f["remaining"])
        ends = [row[-1] for row in rows]

        def row_for(card):
            below = [(end, i) for i, end in enumerate(ends) if end < card]
            return max(below)[1] if below else max((end, i) for i, end in enumerate(ends))[1]

        scored = []
        for card in hand:
            i = row_for(card)
            after = self.worth(rows[i] + [card], row_specials[i])
            if len(rows[i]) + 1 > self.capacity:
                value = 10 * after
            elif len(rows[i]) + 1 == self.capacity:
                value = -5 * after
            else:
                value = -1
            scored.append((value, f"play {card}"))
        for special in sorted(set(mine)):
            for i, specials in enumerate(row_specials):
                if special in specials:
                    continue
                gain = self.worth(rows[i], specials + [special]) - self.worth(rows[i], specials)
                takeable = remaining >= 2 and len(rows[i]) == self.capacity and any(
                    row_for(card) == i for card in hand
                )
                stuck = 100 if len(hand) <= 2 else 0
                scored.append((stuck + (10 * gain if takeable else -5 * gain), f"special {special} {i}"))
        if int(f["placed"]) > 0:
            scored.append((0, "end"))
        # Best first; on a tie, the order above (number cards, special cards, the end).
        order = sorted(range(len(scored)), key=lambda n: (-scored[n][0], n))
        return [scored[n][1] for n in order]

    def choices(self):
        """Every possible answer to the current request, best first."""
        kind, f = self.request
        if kind == "place":
            return self.place_choices(f)
        if kind == "pick":
            hand = cards(f["hand"])

            def worth(card):
                spread = min((abs(card - c) for c in hand), default=0)
                return (self.bullheads[card - self.lowest], -spread, card)

            return [f"pick {card}" for card in sorted(cards(f["pool"]), key=worth)]
        rows = [cards(row) for row in f["rows"].split("/")]
        self.stops, self.sevens = cards(f.get("stops", "")), cards(f.get("sevens", ""))
        if kind == "special":
            return self.specials(int(f["card"]), rows, f["specials"].split(",")) + ["pass"]
        if kind == "cancel":
            taken = sorted(cards(f["cards"]), key=lambda c: (-self.heads([c]), c))
            return [f"cancel {card}" for card in taken] + ["pass"]
        if kind == "swap":
            return ["pass"]
        if kind == "keep":
            taken = cards(f["cards"])
            hash_rows = f["hashrows"].split("/")
            end = cards(hash_rows[int(f["seat"])])[-1]
            above = sorted(c for c in taken if c > end)
            rest = sorted((c for c in taken if c <= end), key=lambda c: (-self.heads([c]), c))
            return [f"keep {card}" for card in above + rest]
        if kind == "row":
            order = sorted(self.open_rows(rows), key=lambda r: (self.heads(rows[r]), r))
            return [f"row {r}" for r in order]
        hand = cards(f["hand"])
        return [f"play {card}" for card in sorted(hand, key=lambda c: self.cost(c, rows))]

    def specials(self, card, rows, held):
        """Special cards that save `card` from taking a row, best first (anniversary)."""
        if self.cost(card, rows)[0] == 0:
            return []
        plays = []
        if "fifth_row" in held and len(rows) <= self.rows:
            plays.append("special fifth_row")
        below = [(rows[i][-1], i) for i in self.open_rows(rows) if rows[i][-1] < card]
        if "seven_nimmt" in held and below:
            target = max(below)[1]
            if target not in self.sevens:
                plays.append(f"special seven_nimmt {target}")
        if "insert" in held:
            for i in self.open_rows(rows):
                if len(rows[i]) < self.room(i, rows):
                    at = sum(1 for c in rows[i] if c < card)
                    plays.append(f"special insert {i} {at}")
        return plays

    def answer(self):
        """The best answer not refused yet (the best one again if all were)."""
        choices = self.choices()
        fresh = [choice for choice in choices if choice not in self.tried]
        choice = (fresh or choices)[0]
        self.tried.append(choice)
        return choice


def say(line):
    print(line, flush=True)


def main():
    bot = Bot()
    while True:
        line = sys.stdin.readline()
        if not line:  # end of input: the referee is gone
            return 0
        words = line.split()  # also drops a trailing "\r"
        if not words:
            continue
        keyword = words[0]
        if keyword == "hello":
            say(f"hello version=1 name={NAME}")
        elif keyword == "game":
            bot.game(fields(words[1:]))
        elif keyword == "ask":
            bot.request, bot.tried = (words[1], fields(words[2:])), []
            say(bot.answer())
        elif keyword == "error":
            # stderr is ours: take5 keeps its last lines to show with a fault.
            print(f"{NAME}: referee said: {line.strip()}", file=sys.stderr, flush=True)
            if bot.request is None:  # the error is about our hello
                say(f"hello version=1 name={NAME}")
            else:
                say(bot.answer())
        elif keyword == "bye":
            return 0
        # `event` lines need no answer: this bot decides from each `ask` alone.


if __name__ == "__main__":
    sys.exit(main())
