#!/usr/bin/env python3
"""A test bot whose strength peaks at a known value, for `take5 tune` (tests/all/tune.rs).

`peaked.py X [PEAK]`: at each decision it plays as scripts/bots/python_bot.py would with the
chance 1 - |X - PEAK| (PEAK 0.7 by default), and otherwise a choice at random; so it plays best
at X = PEAK, and worse the further X is from it. Its random numbers come from the game line's
`seed=`, so a game is the same whenever it is played again.
"""

import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path[:0] = [os.path.join(ROOT, "scripts", "bots"), os.path.join(ROOT, "sdk", "python")]
import take5bot  # noqa: E402  (found through the path above)
from python_bot import PythonBot  # noqa: E402


class Peaked(PythonBot):
    name = "peaked"
    # It decides from each `ask` alone: no event lines to read.
    events = False

    def __init__(self, x, peak):
        super().__init__()
        self.good = max(0.0, 1.0 - abs(x - peak))
        self.rng = random.Random(0)

    def on_game(self, game):
        self.rng.seed(int(game.seed))

    def choose(self, ask):
        choices = super().choose(ask)
        if self.rng.random() < self.good:
            return choices
        choices = list(choices)
        self.rng.shuffle(choices)
        return choices


if __name__ == "__main__":
    x = float(sys.argv[1])
    peak = float(sys.argv[2]) if len(sys.argv) > 2 else 0.7
    sys.exit(take5bot.run(Peaked(x, peak)))
