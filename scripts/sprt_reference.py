#!/usr/bin/env python3
"""Reference values for take5's SPRT (src/tournament/sprt.rs pins them in its unit tests).

Written from the published formula, independently of the Rust code: the generalized
log-likelihood ratio of a multinomial distribution (M. Van den Bergh, "Comparing the
approximations for the generalized log likelihood ratio of a multinomial distribution",
Proposition 1.1), as fastchess applies it to pentanomial counts with the logistic Elo model.

Observation i scores a_i (one deal's share of points between the two bots); empirical
frequencies p_i (counts over their sum N, a count of 0 counted as 0.001). The most likely
distribution with mean s is p_i / (1 + theta (a_i - s)), theta the root of
sum p_i (a_i - s) / (1 + theta (a_i - s)) = 0. LLR = N * sum p_i log(q1_i / q0_i), with q0, q1
the most likely distributions of mean s0 = score(elo0), s1 = score(elo1), and
score(elo) = 1 / (1 + 10^(-elo / 400)).

Run: python3 scripts/sprt_reference.py
"""
import math


def score(elo):
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def mle(scores, probs, s):
    f = lambda t: sum(p * (a - s) / (1.0 + t * (a - s)) for a, p in zip(scores, probs))
    lo = -1.0 / (max(scores) - s)
    hi = -1.0 / (min(scores) - s)
    # f decreases from +inf at lo to -inf at hi: plain bisection to the last bit.
    for _ in range(400):
        mid = (lo + hi) / 2.0
        if mid in (lo, hi):
            break
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    t = (lo + hi) / 2.0
    return [p / (1.0 + t * (a - s)) for a, p in zip(scores, probs)]


def llr(counts, elo0, elo1):
    """counts[h]: observations scoring h / (len(counts) - 1)."""
    k = len(counts) - 1
    scores = [h / k for h in range(k + 1)]
    reg = [c if c > 0 else 1e-3 for c in counts]
    n = sum(reg)
    probs = [c / n for c in reg]
    q0 = mle(scores, probs, score(elo0))
    q1 = mle(scores, probs, score(elo1))
    return n * sum(p * (math.log(b) - math.log(a)) for p, a, b in zip(probs, q0, q1))


CASES = [
    # (counts from the lowest score to the highest, elo0, elo1)
    ([5, 20, 50, 20, 5], 0.0, 5.0),  # pentanomial, symmetric: mean 0.5
    ([2, 10, 40, 30, 18], 0.0, 5.0),  # pentanomial, the first bot ahead
    ([0, 0, 0, 1, 30], 0.0, 10.0),  # nearly every deal won twice (zero counts regularized)
    ([3, 7, 12, 20, 12, 9, 4], -5.0, 5.0),  # three seats: seven scores per deal
]

if __name__ == "__main__":
    for counts, elo0, elo1 in CASES:
        print(counts, elo0, elo1, repr(llr(counts, elo0, elo1)))
    a, b = 0.05, 0.05
    print("bounds", repr(math.log(b / (1 - a))), repr(math.log((1 - b) / a)))
