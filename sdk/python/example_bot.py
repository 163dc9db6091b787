#!/usr/bin/env python3
"""An example bot on the take5bot kit: it plays all five variants, and is stateful where it
helps. `python3 sdk/python/example_bot.py` is the command take5 runs; test it with
`take5 selftest "python3 sdk/python/example_bot.py"`.

- Play (classic, Pro, Take a Number, anniversary): a card that takes no row, the one with the
  fewest cards not seen yet this round between its row's end and it (another player's card can
  only land in front of it from there: the kit's table knows which cards were seen); else the
  card that takes the fewest bullheads. On a clock (`take5 play --clock`) nearly out, it skips
  the count of unseen cards.
- Row: the cheapest row. Pick (Pro): the card with the fewest bullheads, the lowest on a tie.
- Keep (Take a Number): the lowest card above the #-row's end, else the one with most bullheads.
- Place (the circle game): a number card that takes a row worth points, else one that leaves
  no row at four cards for the next player; a special card once few number cards are left (a
  special card still held costs points at the end); end the turn when nothing is worth it.
- Special (anniversary): a 5th Row or an Insert when the card would take a row; cancel the
  costliest card taken; never swap.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import take5bot  # noqa: E402  (next to this file)
from take5bot import cancel, end, keep, pass_, pick, play, row, special  # noqa: E402


# Below this time for a decision (milliseconds) the bot skips its slower reckoning.
HURRIED_MS = 20


class ExampleBot(take5bot.Bot):
    name = "example_py"

    def take_cost(self, ask, card):
        """The bullheads playing `card` would take now (0 when it takes nothing)."""
        i = ask.row_for(card)
        if i is None:
            return min(self.game.row_heads(ask.rows[r]) for r in ask.open_rows())
        if len(ask.rows[i]) >= ask.capacity(self.game, i):
            return self.game.row_heads(ask.rows[i])
        return 0

    def risk(self, ask, card):
        """Cards not seen yet between the end of `card`'s row and `card`."""
        i = ask.row_for(card)
        if i is None:
            return 0
        seen = self.table.seen | set(ask.hand)
        return sum(1 for c in range(ask.rows[i][-1] + 1, card) if c not in seen)

    def plays(self, ask):
        # Counting the unseen cards costs a scan of the deck per card: with a clock nearly out
        # (`ask.budget`, from `time_left_ms=`), the bot plays on the bullheads alone.
        if ask.budget(self.game) < HURRIED_MS:
            return [play(c) for c in sorted(ask.hand, key=lambda c: (self.take_cost(ask, c), c))]
        return [play(c) for c in sorted(ask.hand, key=lambda c: (self.take_cost(ask, c), self.risk(ask, c), c))]

    def place(self, ask):
        game, rows = self.game, ask.rows
        specials = ask.rowspecials + [[] for _ in range(len(rows) - len(ask.rowspecials))]

        def worth(i, extra=None):
            cards = rows[i] + ([extra] if extra else [])
            total = sum(game.points(c) for c in cards) + 5 * specials[i].count("plus5")
            return total * 2 ** specials[i].count("x2")

        def row_of(card):
            below = [(r[-1], i) for i, r in enumerate(rows) if r[-1] < card]
            return max(below)[1] if below else max((r[-1], i) for i, r in enumerate(rows))[1]

        scored = []
        for card in ask.hand:
            i = row_of(card)
            if len(rows[i]) == game.row_capacity:  # the fifth number card: we take the row
                scored.append((worth(i, card), play(card)))
            elif len(rows[i]) + 1 == game.row_capacity:  # the next player's to take
                scored.append((-abs(worth(i, card)) - 1, play(card)))
            else:
                scored.append((-1, play(card)))
        mine = ask.held[ask.seat] if ask.seat < len(ask.held) else []
        for kind in sorted(set(mine)):
            for i in range(len(rows)):
                if kind not in specials[i]:
                    urgent = 50 if len(ask.hand) <= 2 else -20
                    scored.append((urgent - abs(worth(i)), special(kind, i)))
        if ask.placed > 0:
            scored.append((0, end()))
        scored.sort(key=lambda s: -s[0])
        return [answer for _, answer in scored]

    def special(self, ask):
        if self.take_cost(ask, ask.card) == 0:
            return [pass_()]
        answers = []
        if "fifth_row" in ask.specials and len(ask.rows) <= self.game.rows:
            answers.append(special("fifth_row"))
        if "insert" in ask.specials:
            for i in ask.open_rows():
                if len(ask.rows[i]) < ask.capacity(self.game, i):
                    answers.append(special("insert", i, sum(1 for c in ask.rows[i] if c < ask.card)))
        return answers + [pass_()]

    def choose(self, ask):
        game = self.game
        if ask.kind == "play":
            return self.plays(ask)
        if ask.kind == "row":
            return [row(r) for r in sorted(ask.open_rows(), key=lambda r: (game.row_heads(ask.rows[r]), r))]
        if ask.kind == "pick":
            return [pick(c) for c in sorted(ask.pool, key=lambda c: (game.heads(c), c))]
        if ask.kind == "keep":
            end_card = ask.hashrows[ask.seat][-1]
            above = sorted(c for c in ask.cards if c > end_card)
            rest = sorted((c for c in ask.cards if c <= end_card), key=lambda c: -game.heads(c))
            return [keep(c) for c in above + rest]
        if ask.kind == "place":
            return self.place(ask)
        if ask.kind == "special":
            return self.special(ask)
        if ask.kind == "cancel":
            return [cancel(c) for c in sorted(ask.cards, key=lambda c: -game.heads(c))] + [pass_()]
        return [pass_()]  # swap, or a question a later take5 may add


if __name__ == "__main__":
    sys.exit(take5bot.run(ExampleBot()))
