#!/usr/bin/env python3
"""Reference rating list for `take5 stats --ratings` (tests/all/ratings.rs runs it beside take5).

Written from the model's definition, independently of the Rust code (src/tournament/ratings.rs,
which uses Newton's method on a closed form of the tied terms):

- Plackett-Luce: a game's finishing order, best first, has the probability
  prod_t w[o_t] / sum(w[o_s] for s >= t), with w = 10^(elo / 400); with two seats this is the
  logistic Elo model of the chess tools.
- Ties: bots that share a rank take every order among themselves with equal weight (1 / k! for
  k tied bots; groups multiply), as a drawn game counts half a win and half a loss. Here the
  orders are listed one by one (itertools.permutations).
- The maximum of the likelihood by Hunter's MM algorithm (D. Hunter, "MM algorithms for
  generalized Bradley-Terry models", 2004, section 5), run to the last bits.
- The 95% intervals: 1.959964 standard errors, from the observed information (the Hessian of
  the log-likelihood at the maximum, here by central finite differences), the anchor's rating
  held fixed; without an anchor, of each rating minus the mean of them all.

Every game line of every file counts once (the files' headers are skipped): give each game once.

Run: python3 scripts/ratings_reference.py RESULTS... [--anchor NAME=ELO]
Prints JSON: {"NAME": {"elo": E, "elo_low": L, "elo_high": H}, ...}.
"""
import collections
import itertools
import json
import math
import sys

Z95 = 1.959963984540054
K = 400.0 / math.log(10.0)


def orders(files):
    """The weighted finishing orders (tuples of names, best first) of every game."""
    weights = collections.Counter()
    for path in files:
        with open(path) as f:
            for line in f:
                if not line.endswith("\n") or line.startswith('{"take5_results":'):
                    continue
                game = json.loads(line)
                by_rank = collections.defaultdict(list)
                for name, rank in zip(game["seating"], game["ranks"]):
                    by_rank[rank].append(name)
                groups = [by_rank[r] for r in sorted(by_rank)]
                ways = [list(itertools.permutations(g)) for g in groups]
                weight = 1.0 / math.prod(len(w) for w in ways)
                for choice in itertools.product(*ways):
                    weights[tuple(itertools.chain(*choice))] += weight
    return weights


def log_likelihood(weights, theta):
    total = 0.0
    for order, weight in weights.items():
        for t in range(len(order) - 1):
            rest = order[t:]
            total += weight * (theta[order[t]] - math.log(sum(math.exp(theta[b]) for b in rest)))
    return total


def mm(weights, names):
    gamma = {b: 1.0 for b in names}
    wins = collections.Counter()
    for order, weight in weights.items():
        for b in order[:-1]:
            wins[b] += weight
    for _ in range(100000):
        denominators = collections.Counter()
        for order, weight in weights.items():
            for t in range(len(order) - 1):
                share = weight / sum(gamma[b] for b in order[t:])
                for b in order[t:]:
                    denominators[b] += share
        new = {b: wins[b] / denominators[b] for b in names}
        scale = math.exp(sum(math.log(v) for v in new.values()) / len(new))
        new = {b: v / scale for b, v in new.items()}
        change = max(abs(math.log(new[b] / gamma[b])) for b in names)
        gamma = new
        if change < 1e-14:
            break
    return {b: math.log(g) for b, g in gamma.items()}


def inverse(matrix):
    """Gauss-Jordan with partial pivoting."""
    n = len(matrix)
    a = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(matrix)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(a[r][c]))
        a[c], a[p] = a[p], a[c]
        pivot = a[c][c]
        a[c] = [x / pivot for x in a[c]]
        for r in range(n):
            if r != c:
                f = a[r][c]
                a[r] = [x - f * y for x, y in zip(a[r], a[c])]
    return [row[n:] for row in a]


def main(argv):
    anchor = None
    files = []
    args = iter(argv)
    for arg in args:
        if arg == "--anchor":
            name, elo = next(args).rsplit("=", 1)
            anchor = (name, float(elo))
        else:
            files.append(arg)
    weights = orders(files)
    names = sorted({b for order in weights for b in order})
    theta = mm(weights, names)
    # The information of the free parameters: all but the anchor's (or the first bot's, the
    # ratings then taken about their mean).
    fixed = anchor[0] if anchor else names[0]
    free = [b for b in names if b != fixed]
    h = 1e-4

    def at(moves):
        t = dict(theta)
        for b, d in moves:
            t[b] += d
        return log_likelihood(weights, t)

    info = [[0.0] * len(free) for _ in free]
    for i, a in enumerate(free):
        for j, b in enumerate(free):
            if j < i:
                info[i][j] = info[j][i]
                continue
            second = (at([(a, h), (b, h)]) - at([(a, h), (b, -h)]) - at([(a, -h), (b, h)])
                      + at([(a, -h), (b, -h)])) / (4 * h * h)
            info[i][j] = -second
    cov_free = inverse(info)
    cov = {(a, b): 0.0 for a in names for b in names}
    for i, a in enumerate(free):
        for j, b in enumerate(free):
            cov[(a, b)] = cov_free[i][j]
    out = {}
    n = len(names)
    mean = sum(theta.values()) / n
    for b in names:
        if anchor:
            elo = anchor[1] + K * (theta[b] - theta[fixed])
            var = cov[(b, b)]
        else:
            elo = K * (theta[b] - mean)
            # Var(theta_b - mean): (e_b - 1/n)' cov (e_b - 1/n).
            v = {c: (1.0 if c == b else 0.0) - 1.0 / n for c in names}
            var = sum(v[c] * v[d] * cov[(c, d)] for c in names for d in names)
        half = Z95 * K * math.sqrt(max(var, 0.0))
        out[b] = {"elo": elo, "elo_low": elo - half, "elo_high": elo + half}
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main(sys.argv[1:])
