#!/usr/bin/env python3
"""A bot that plays its high cards early, one of the styles builtin:mcs's strength benchmark
plays against (docs/mcs.md, "The gauntlet"): while it holds more than half of the hand it was
dealt, it plays its highest card that takes no row now (its highest card if all do); then as
the Python kit's example bot (sdk/python/example_bot.py), as it does every other decision.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, "..", "..", "sdk", "python")]
import take5bot  # noqa: E402
from example_bot import ExampleBot  # noqa: E402
from take5bot import play  # noqa: E402


class HighEarlyBot(ExampleBot):
    name = "high_early_py"

    def plays(self, ask):
        if 2 * len(ask.hand) <= self.game.hand_size:
            return super().plays(ask)
        key = lambda c: (self.take_cost(ask, c) > 0, -c)  # noqa: E731
        return [play(c) for c in sorted(ask.hand, key=key)]


if __name__ == "__main__":
    sys.exit(take5bot.run(HighEarlyBot()))
