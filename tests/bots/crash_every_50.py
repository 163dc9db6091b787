#!/usr/bin/env python3
"""A bot that crashes in every 50th game it plays: it writes its pid to the file given as its
argument when it starts (so a test can count its starts and check that none outlives take5),
plays the first card of its hand and takes row 0, and exits with status 1 when the `game` line
of its 50th game comes."""
import os
import sys

with open(sys.argv[1], "a") as starts:
    starts.write(f"{os.getpid()}\n")
games = 0
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "hello":
        print("hello version=1 name=crasher events=no", flush=True)
    elif words[0] == "game":
        games += 1
        if games == 50:
            sys.exit(1)
    elif words[0] == "ask":
        fields = dict(w.split("=", 1) for w in words[2:] if "=" in w)
        if words[1] == "play":
            print("play " + fields["hand"].split(",")[0], flush=True)
        else:
            print("row 0", flush=True)
    elif words[0] == "bye":
        break
