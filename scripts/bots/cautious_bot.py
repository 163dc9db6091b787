#!/usr/bin/env python3
"""A risk-averse bot, one of the styles builtin:mcs's strength benchmark plays against
(docs/mcs.md, "The gauntlet"): of its hand it plays the card whose worst case costs least. A
card's worst case: the row it takes now (a low card: the cheapest row; the sixth card: its row),
else its row's bullheads if enough cards not seen yet lie between the row's end and it to fill
the row first, else nothing; on a tie the card with the fewest such cards, then the lowest.
Every other decision as the Python kit's example bot (sdk/python/example_bot.py).
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, "..", "..", "sdk", "python")]
import take5bot  # noqa: E402
from example_bot import ExampleBot  # noqa: E402
from take5bot import play  # noqa: E402


class CautiousBot(ExampleBot):
    name = "cautious_py"

    def worst_case(self, ask, card):
        now = self.take_cost(ask, card)
        if now:
            return now
        i = ask.row_for(card)
        room = ask.capacity(self.game, i) - len(ask.rows[i])
        if self.risk(ask, card) >= room:
            return self.game.row_heads(ask.rows[i])
        return 0

    def plays(self, ask):
        key = lambda c: (self.worst_case(ask, c), self.risk(ask, c), c)  # noqa: E731
        return [play(c) for c in sorted(ask.hand, key=key)]


if __name__ == "__main__":
    sys.exit(take5bot.run(CautiousBot()))
