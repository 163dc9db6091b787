#!/usr/bin/env python3
"""A greedy one-turn lookahead bot, one of the styles builtin:mcs's strength benchmark plays
against (docs/mcs.md, "The gauntlet"): for each card of its hand it plays the turn out 24
times, the others' cards drawn from the cards it has not seen, and plays the card that takes
the fewest bullheads on average this turn (it looks no further: the turn after is not its
concern). A low card takes the cheapest row, for every seat. Its draws come from the game's
seed, so a game replays. Every other decision as the Python kit's example bot
(sdk/python/example_bot.py).
"""

import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, "..", "..", "sdk", "python")]
import take5bot  # noqa: E402
from example_bot import ExampleBot  # noqa: E402
from take5bot import play  # noqa: E402

SAMPLES = 24


class LookaheadBot(ExampleBot):
    name = "lookahead_py"

    def on_game(self, game):
        super().on_game(game)
        self.rng = random.Random(f"{game.get('seed', 0)}:{game.get('number', 0)}:{game.get('seat', 0)}")

    def taken(self, ask, mine, others):
        """The bullheads `mine` takes when the turn's cards are `mine` and `others`."""
        rows = [list(r) for r in ask.rows]
        cost = 0
        for card in sorted([mine] + others):
            below = [(r[-1], i) for i, r in enumerate(rows) if r[-1] < card]
            if not below:
                i = min(range(len(rows)), key=lambda r: (self.game.row_heads(rows[r]), r))
                heads, rows[i] = self.game.row_heads(rows[i]), [card]
            else:
                i = max(below)[1]
                if len(rows[i]) >= ask.capacity(self.game, i):
                    heads, rows[i] = self.game.row_heads(rows[i]), [card]
                else:
                    heads = 0
                    rows[i].append(card)
            if card == mine:
                cost = heads
        return cost

    def plays(self, ask):
        game = self.game
        if game.variant not in ("classic", "pro"):
            return super().plays(ask)
        seen = self.table.seen | set(ask.hand) | {c for r in ask.rows for c in r}
        unseen = [c for c in range(game.lowest, game.lowest + len(game.bullheads)) if c not in seen]
        others = game.seats - 1
        draws = [self.rng.sample(unseen, others) for _ in range(SAMPLES)] if len(unseen) >= others else [[]]
        mean = {c: sum(self.taken(ask, c, d) for d in draws) for c in ask.hand}
        return [play(c) for c in sorted(ask.hand, key=lambda c: (mean[c], self.risk(ask, c), c))]


if __name__ == "__main__":
    sys.exit(take5bot.run(LookaheadBot()))
