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
answers the same request again with its next best choice (the kit does that: it answers with
the next of the choices this bot lists best first).

It is written with the Python kit, sdk/python/take5bot.py (found next to this file, or from
this file's place in the repository).
"""

import os
import sys

# The kit: next to this file (a copy of the bot with its kit), or in the repository's sdk/python.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "..", "sdk", "python")]
import take5bot  # noqa: E402  (found through the path above)


class PythonBot(take5bot.Bot):
    name = "python_bot"
    # `event` lines are taken (the kit folds them into self.table) but not needed: this bot
    # decides from each `ask` alone.

    def room(self, ask, i):
        return ask.capacity(self.game, i)

    def heads(self, row):
        return self.game.row_heads(row)

    def cost(self, ask, card):
        """How bad playing `card` looks: (bullheads it would take, -room left, distance)."""
        rows = ask.rows
        i = ask.row_for(card)
        if i is None:  # lower than every row: we would take the cheapest row
            return (min(self.heads(rows[r]) for r in ask.open_rows()), 0, 0)
        end = rows[i][-1]
        if len(rows[i]) >= self.room(ask, i):  # the row is full: we would take it
            return (self.heads(rows[i]), 0, 0)
        return (0, -(self.room(ask, i) - len(rows[i])), card - end)

    def worth(self, row, specials):
        """The circle game: what taking `row` with `specials` in it would score."""
        total = sum(self.game.points(card) for card in row) + 5 * specials.count("plus5")
        return total * 2 ** specials.count("x2")

    def place_choices(self, ask):
        """The circle game's answers to `ask place`, best first (see the module's comment)."""
        rows = ask.rows
        row_specials = [list(s) for s in ask.rowspecials]
        row_specials += [[] for _ in range(len(rows) - len(row_specials))]
        held = ask.held
        mine = list(held[ask.seat]) if ask.seat < len(held) else []
        hand = ask.hand
        remaining = ask.remaining
        capacity = self.game.row_capacity
        ends = [row[-1] for row in rows]

        def row_for(card):
            below = [(end, i) for i, end in enumerate(ends) if end < card]
            return max(below)[1] if below else max((end, i) for i, end in enumerate(ends))[1]

        scored = []
        for card in hand:
            i = row_for(card)
            after = self.worth(rows[i] + [card], row_specials[i])
            if len(rows[i]) + 1 > capacity:
                value = 10 * after
            elif len(rows[i]) + 1 == capacity:
                value = -5 * after
            else:
                value = -1
            scored.append((value, take5bot.play(card)))
        for special in sorted(set(mine)):
            for i, specials in enumerate(row_specials):
                if special in specials:
                    continue
                gain = self.worth(rows[i], specials + [special]) - self.worth(rows[i], specials)
                takeable = remaining >= 2 and len(rows[i]) == capacity and any(
                    row_for(card) == i for card in hand
                )
                stuck = 100 if len(hand) <= 2 else 0
                scored.append((stuck + (10 * gain if takeable else -5 * gain), take5bot.special(special, i)))
        if ask.placed > 0:
            scored.append((0, take5bot.end()))
        # Best first; on a tie, the order above (number cards, special cards, the end).
        order = sorted(range(len(scored)), key=lambda n: (-scored[n][0], n))
        return [scored[n][1] for n in order]

    def choose(self, ask):
        """Every possible answer to the request, best first."""
        kind = ask.kind
        if kind == "place":
            return self.place_choices(ask)
        if kind == "pick":
            hand = ask.hand

            def worth(card):
                spread = min((abs(card - c) for c in hand), default=0)
                return (self.game.heads(card), -spread, card)

            return [take5bot.pick(card) for card in sorted(ask.pool, key=worth)]
        rows = ask.rows
        if kind == "special":
            return self.specials(ask, ask.card) + [take5bot.pass_()]
        if kind == "cancel":
            taken = sorted(ask.cards, key=lambda c: (-self.game.heads(c), c))
            return [take5bot.cancel(card) for card in taken] + [take5bot.pass_()]
        if kind == "swap":
            return [take5bot.pass_()]
        if kind == "keep":
            end = ask.hashrows[ask.seat][-1]
            above = sorted(c for c in ask.cards if c > end)
            rest = sorted((c for c in ask.cards if c <= end), key=lambda c: (-self.game.heads(c), c))
            return [take5bot.keep(card) for card in above + rest]
        if kind == "row":
            order = sorted(ask.open_rows(), key=lambda r: (self.heads(rows[r]), r))
            return [take5bot.row(r) for r in order]
        return [take5bot.play(card) for card in sorted(ask.hand, key=lambda c: self.cost(ask, c))]

    def specials(self, ask, card):
        """Special cards that save `card` from taking a row, best first (anniversary)."""
        if self.cost(ask, card)[0] == 0:
            return []
        rows, held, sevens = ask.rows, ask.specials, ask.get("sevens", [])
        plays = []
        if "fifth_row" in held and len(rows) <= self.game.rows:
            plays.append(take5bot.special("fifth_row"))
        target = ask.row_for(card)
        if "seven_nimmt" in held and target is not None and target not in sevens:
            plays.append(take5bot.special("seven_nimmt", target))
        if "insert" in held:
            for i in ask.open_rows():
                if len(rows[i]) < self.room(ask, i):
                    at = sum(1 for c in rows[i] if c < card)
                    plays.append(take5bot.special("insert", i, at))
        return plays


if __name__ == "__main__":
    sys.exit(take5bot.run(PythonBot()))
