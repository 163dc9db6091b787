#!/usr/bin/env python3
"""A hostile bot (tests/all/sandbox.rs): it makes one attack, says on stderr how each step went
(`hostile STEP: refused: WHY` or `hostile STEP: done: WHAT`), then plays as the bot whose
script is its last argument (it runs python3 on it in its own place), so the game goes on.

    python3 tests/bots/hostile.py MODE ARG... BOT_SCRIPT

Modes:
  none TOKEN        no attack (a bot for another to aim at: TOKEN marks it)
  read              read the file TAKE5_SECRET names (a secret: a bot knows where secrets are
                    without being told on its command line) and print its first line
  write DIR         create DIR/written and delete DIR/victim
  connect PORT      open a TCP connection to 127.0.0.1:PORT
  resolve PORT      send a name query over UDP to 127.0.0.1:PORT, as a resolver is asked
  fork N            start processes that sleep until N are running or a fork is refused
  alloc GIB [touch] [die]
                    reserve GIB GiB of private memory without touching it; with `touch`, also
                    allocate it filled (only ever asked for under a sandbox); with `die`, the
                    failed allocation is not caught (Python exits, saying MemoryError)
  bigfile GIB [die] write a byte GIB GiB into a file of its temporary folder (a file that
                    large, sparse); with `die`, SIGXFSZ is not ignored (a limit kills it)
  spin              use processor time until something stops it
  files N           open /dev/null N times
  kill TOKEN [SIGKILL]
                    signal take5 (its parent) and each other process whose command line holds
                    TOKEN (another bot; take5's own is left out): signal 0 (only asks whether
                    it may), or SIGKILL
  trace [attach]    read take5's environment (/proc/PID/environ, which needs the right to
                    trace it); with `attach`, also ptrace-attach to take5
  daemon SECONDS    leave a daemon behind: it leaves the session (setsid) and is the orphan of
                    a double fork, and sleeps SECONDS
"""

import os
import signal
import socket
import sys
import time


def say(step, ok, what):
    print(f"hostile {step}: {'done' if ok else 'refused'}: {what}", file=sys.stderr, flush=True)


def attempt(step, action):
    try:
        say(step, True, action())
    except (OSError, MemoryError, ValueError) as e:
        say(step, False, f"{type(e).__name__}: {e}")


def read(path):
    with open(path) as f:
        return f.readline().strip()


def write(folder):
    def create():
        with open(os.path.join(folder, "written"), "w") as f:
            f.write("written by a bot\n")
        return "created"

    def delete():
        os.remove(os.path.join(folder, "victim"))
        return "deleted"

    attempt("write-create", create)
    attempt("write-delete", delete)


def connect(port):
    with socket.create_connection(("127.0.0.1", int(port)), timeout=10):
        return f"connected to 127.0.0.1:{port}"


def resolve(port):
    # A DNS query for example.org, type A, as a stub resolver sends it.
    query = b"\x12\x34\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00\x07example\x03org\x00\x00\x01\x00\x01"
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.sendto(query, ("127.0.0.1", int(port)))
    return f"sent a name query to 127.0.0.1:{port}"


def fork(count):
    started = 0
    try:
        for _ in range(int(count)):
            pid = os.fork()
            if pid == 0:
                time.sleep(3600)
                os._exit(0)
            started += 1
    except OSError as e:
        say("fork", False, f"after {started} processes: {e}")
        return
    say("fork", True, f"{started} processes started")


def alloc(gib, touch, die):
    import mmap

    size = int(gib) << 30

    def reserve():
        m = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
        m.close()
        return f"{gib} GiB reserved"

    attempt("alloc-reserve", reserve)
    if die:
        bytearray(size)
    if touch:
        attempt("alloc-fill", lambda: f"{len(bytearray(size)) >> 30} GiB filled")


def bigfile(gib, die):
    if die:
        signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
    folder = os.environ.get("TMPDIR", "/tmp")
    path = os.path.join(folder, "big")

    def write_far():
        try:
            with open(path, "wb") as f:
                f.seek(int(gib) << 30)
                f.write(b"x")
            return f"a {gib} GiB file written in {folder}"
        finally:
            if os.path.exists(path):
                os.remove(path)

    attempt("bigfile", write_far)


def spin():
    while True:
        pass


def files(count):
    opened = []
    try:
        for _ in range(int(count)):
            opened.append(os.open("/dev/null", os.O_RDONLY))
    except OSError as e:
        say("files", False, f"after {len(opened)} files: {e}")
    else:
        say("files", True, f"{len(opened)} files open")
    for fd in opened:
        os.close(fd)


def others(token):
    # Not itself, nor take5 (whose command line holds the bots' ones).
    me, take5 = os.getpid(), os.getppid()
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) in (me, take5):
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as f:
                if token.encode() in f.read():
                    found.append(int(name))
        except OSError:
            pass
    return found


def kill(token, sig):
    def send(pid):
        return lambda: (os.kill(pid, sig), f"signal {sig} sent to {pid}")[1]

    attempt("kill-take5", send(os.getppid()))
    # Looked for again until found: a process caught in its exec (the victim execs twice) shows
    # an empty command line for a moment, longer on a loaded machine.
    for _ in range(600):
        victims = others(token)
        if victims:
            break
        time.sleep(0.1)
    if not victims:
        say("kill-other", False, "no other process found")
    for pid in victims:
        attempt("kill-other", send(pid))


def trace(attach):
    take5 = os.getppid()
    attempt("trace-environ", lambda: f"{len(read(f'/proc/{take5}/environ'))} bytes of take5's environment")
    if attach:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)

        def ptrace_attach():
            if libc.ptrace(16, take5, None, None) != 0:  # PTRACE_ATTACH
                e = ctypes.get_errno()
                raise OSError(e, os.strerror(e))
            return "attached to take5"

        attempt("trace-attach", ptrace_attach)


def daemon(seconds):
    pid = os.fork()
    if pid == 0:
        os.setsid()
        if os.fork() == 0:
            time.sleep(int(seconds))
        os._exit(0)
    os.waitpid(pid, 0)
    say("daemon", True, "a daemon left behind")


def main():
    mode, args, bot = sys.argv[1], sys.argv[2:-1], sys.argv[-1]
    if mode == "read":
        attempt("read", lambda: read(os.environ["TAKE5_SECRET"]))
    elif mode == "write":
        write(args[0])
    elif mode == "connect":
        attempt("connect", lambda: connect(args[0]))
    elif mode == "resolve":
        attempt("resolve", lambda: resolve(args[0]))
    elif mode == "fork":
        fork(args[0])
    elif mode == "alloc":
        alloc(args[0], "touch" in args, "die" in args)
    elif mode == "bigfile":
        bigfile(args[0], "die" in args)
    elif mode == "spin":
        spin()
    elif mode == "files":
        files(args[0])
    elif mode == "kill":
        kill(args[0], signal.SIGKILL if "SIGKILL" in args else 0)
    elif mode == "trace":
        trace("attach" in args)
    elif mode == "daemon":
        daemon(args[0])
    sys.stdout.flush()
    # The attack's words go on after the bot's script (which ignores them), so the process is
    # still found by them (`kill TOKEN` finds the victim that way).
    os.execv(sys.executable, [sys.executable, bot, mode, *args])


main()
