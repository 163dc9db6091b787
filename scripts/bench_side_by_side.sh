#!/usr/bin/env bash
# Runs `cargo bench` for two trees alternately, and prints each figure of the two side by side
# (the median of the rounds, and after / before), so that a change is measured against its
# baseline in one run on one machine (docs/performance.md: never against a figure written
# down earlier). Run it on a quiet machine: the figures are wall-clock rates.
#
#   scripts/bench_side_by_side.sh BEFORE_TREE [AFTER_TREE] [ROUNDS] [-- BENCH ARGS...]
#
#   BEFORE_TREE  a checkout of the baseline (e.g. a worktree at 2119abc)
#   AFTER_TREE   the tree measured against it (default: this checkout)
#   ROUNDS       runs of each (default 3), alternating: before, after, before, after, ...
#   BENCH ARGS   the benchmarks' group names, as `cargo bench -- engine records` takes them
#                (default: all)
#
# Each tree's bench binary is built first (`cargo bench --no-run`, one tree after the other),
# then run in its own tree. A figure is matched with its baseline by its line's words (the
# numbers masked, the first one being the figure); a line only one side prints is shown with a
# dash on the other.
set -euo pipefail

usage() {
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
}

[ $# -ge 1 ] || usage
before=$(cd "$1" && pwd)
shift
after=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -ge 1 ] && [ "$1" != "--" ]; then
    after=$(cd "$1" && pwd)
    shift
fi
rounds=3
if [ $# -ge 1 ] && [ "$1" != "--" ]; then
    rounds=$1
    shift
fi
[ "${1:-}" = "--" ] && shift
bench_args=("$@")

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# The bench executable cargo builds for a tree (its path, from cargo's JSON messages).
build() {
    (cd "$1" && cargo bench --no-run --message-format=json 2>/dev/null) |
        python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") \
            and "bench" in m.get("target", {}).get("kind", []):
        print(m["executable"])
'
}

echo "building the benchmarks: $before" >&2
before_bin=$(build "$before")
echo "building the benchmarks: $after" >&2
after_bin=$(build "$after")
[ -n "$before_bin" ] && [ -n "$after_bin" ] || { echo "bench_side_by_side: a build failed" >&2; exit 1; }

for ((r = 1; r <= rounds; r++)); do
    for side in before after; do
        if [ $side = before ]; then tree=$before bin=$before_bin; else tree=$after bin=$after_bin; fi
        echo "round $r/$rounds: $side (load: $(cut -d' ' -f1-3 /proc/loadavg))" >&2
        (cd "$tree" && "$bin" --bench "${bench_args[@]}") >"$out/$side.$r" 2>/dev/null
    done
done

python3 - "$out" "$rounds" <<'EOF'
import re, statistics, sys
from pathlib import Path

out, rounds = Path(sys.argv[1]), int(sys.argv[2])
number = re.compile(r"-?\d[\d,]*(?:\.\d+)?")

shown = {}

def figures(side):
    """Each line's words (every number masked: many lines carry ratios that vary from run to
    run) -> its first number, one per round; the line itself as last printed is kept to show."""
    found = {}
    for r in range(1, rounds + 1):
        for line in (out / f"{side}.{r}").read_text().splitlines():
            m = number.search(line)
            if not m:
                continue
            key = " ".join(number.sub("#", line).split())
            found.setdefault(key, []).append(float(m.group().replace(",", "")))
            shown[key] = " ".join((line[: m.start()] + "#" + line[m.end():]).split())
    return found

before, after = figures("before"), figures("after")
print(f"{'before':>14} {'after':>14} {'after/before':>12}  (medians of {rounds} alternating rounds)")
for key in list(before) + [k for k in after if k not in before]:
    b = statistics.median(before[key]) if key in before else None
    a = statistics.median(after[key]) if key in after else None
    ratio = f"{a / b:.3f}" if a is not None and b else "-"
    show = lambda x: "-" if x is None else f"{x:,.2f}"
    print(f"{show(b):>14} {show(a):>14} {ratio:>12}  {shown[key]}")
EOF
