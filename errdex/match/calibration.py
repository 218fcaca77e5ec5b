"""Confidence that means what it says: the ranker's score mapped through a rising curve fitted on the
development part of the real pastes (benchmarks/pastes/), so that of the answers shown at 70%, about 70% are
right. `python benchmarks/calibrate.py --db ...` fits the curve; the held-out part checks it.

The score orders the answers; the curve only relabels it, so it never changes which answer comes first.
"""

from __future__ import annotations

from bisect import bisect_right

# (score, share of answers right) at each knot, rising; linear between knots, flat beyond the ends.
CURVE: tuple[tuple[float, float], ...] = ((0.0, 0.0), (1.0, 1.0))


def calibrated(score: float) -> float:
    """The share of answers with this score that the development part found right."""
    xs = [x for x, _ in CURVE]
    k = bisect_right(xs, score)
    if k == 0:
        return CURVE[0][1]
    if k == len(CURVE):
        return CURVE[-1][1]
    (x0, y0), (x1, y1) = CURVE[k - 1], CURVE[k]
    return y0 + (y1 - y0) * (score - x0) / (x1 - x0) if x1 > x0 else y1
