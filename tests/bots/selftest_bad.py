#!/usr/bin/env python3
"""The Python kit's example bot with one fault, for `take5 selftest`'s own tests.

Usage: selftest_bad.py MODE
  row-card      answers every `ask row` with a card (`play <card>`)
  sleep-pick    never answers an `ask pick` (sleeps)
  ignore-error  never answers an `error` line (the line is dropped before the kit sees it)
  one-game      exits when a second game starts
  garbage       prints a line of chatter to stdout before every answer
"""

import os
import sys
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "sdk", "python"))
import take5bot  # noqa: E402
from example_bot import ExampleBot  # noqa: E402

MODE = sys.argv[1]


class Bad(ExampleBot):
    name = "bad_" + MODE.replace("-", "_")

    def choose(self, ask):
        if MODE == "row-card" and ask.kind == "row":
            return [take5bot.play(ask.card)]
        if MODE == "sleep-pick" and ask.kind == "pick":
            time.sleep(1_000_000)
        return super().choose(ask)


def lines():
    """The referee's lines, as the mode lets the kit see them."""
    games = 0
    for line in sys.stdin:
        if MODE == "ignore-error" and line.startswith("error"):
            continue
        if line.startswith("game"):
            games += 1
            if MODE == "one-game" and games == 2:
                return
        yield line


class Chatty:
    """Standard output with a line of chatter before every answer but the hello."""

    def write(self, text):
        if MODE == "garbage" and not text.startswith("hello"):
            # In one write with the answer, so take5 always receives the two together (it
            # can tell the chatter was not asked for only when the answer is already there).
            text = "thinking about it...\n" + text
        sys.stdout.write(text)

    def flush(self):
        sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(take5bot.run(Bad(), lines(), Chatty()))
