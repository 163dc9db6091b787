#!/usr/bin/env python3
"""A bot that plays properly (lowest card, row 0) until its third request, then misbehaves.

Usage: misbehave.py MODE [PIDFILE | TEXT]
  garbage   answers every request (and every error) from then on with a line that is no message
  reply     ... with TEXT (and writes TEXT to its stderr when it starts)
  stderr    writes TEXT to its stderr when it starts and again at its third request, then exits
            with status 3
  longline  ... with a 10 MB line
  badutf8   ... with a line that is not UTF-8
  silent    stops answering (sleeps)
  exit      exits with status 3
  illegal   answers every request from then on with a card it does not hold
  orphan    starts a child that would linger (its pid goes to PIDFILE), then hangs
  badhello  answers the handshake with a wrong version, every time
"""
import os
import subprocess
import sys
import time

mode = sys.argv[1]
pidfile = text = sys.argv[2] if len(sys.argv) > 2 else None
out = sys.stdout.buffer
asks = 0


def send(data):
    out.write(data)
    out.flush()


def field(line, key):
    for word in line.split():
        if word.startswith(key + "="):
            return word[len(key) + 1:]
    return ""


def proper(line):
    if line.startswith("ask play"):
        return "play " + field(line, "hand").split(",")[0]
    return "row 0"


BAD = {
    "garbage": b"\x1b[31mwhat is this\n",
    "longline": b"x" * (10 * 1024 * 1024) + b"\n",
    "badutf8": b"play \xff\xfe\n",
    "illegal": b"play 999\n",
    "badhello": b"hello version=2 name=bad\n",
}
if mode == "reply":
    BAD["reply"] = text.encode() + b"\n"
if mode in ("reply", "stderr"):
    sys.stderr.write("stderr: " + text + "\n")
    sys.stderr.flush()

for raw in sys.stdin:
    line = raw.strip()
    if line.startswith("hello"):
        send(BAD["badhello"] if mode == "badhello" else b"hello version=1 name=misbehave\n")
    elif line == "bye":
        break
    elif line.startswith("ask "):
        asks += 1
        last = line
        if asks < 3:
            send((proper(line) + "\n").encode())
        elif mode in BAD:
            send(BAD[mode])
        elif mode == "silent":
            time.sleep(1000)
        elif mode == "exit":
            sys.exit(3)
        elif mode == "stderr":
            sys.stderr.write("dying: " + text + "\n")
            sys.stderr.flush()
            sys.exit(3)
        elif mode == "orphan":
            child = subprocess.Popen(["sleep", "1000"])
            with open(pidfile, "w") as f:
                f.write(str(child.pid))
            time.sleep(1000)
    elif line.startswith("error "):
        send(BAD.get(mode, b"row 0\n"))
