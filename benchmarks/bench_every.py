"""How long the best persistent cadence takes to find where it lies far from the first-order cadence.

`goodput.tiers.best_every` starts at the first-order cadence n* and searches for the exact model's best whole n.
Where the interval is pinned at the drain (a snapshot of milliseconds beside a write of seconds), n* can sit
hundreds of steps from the best n: for the scheme below n* is 1,000 (the limit) and the best n is 399. The search
(:func:`goodput.tiers.peak`) strides out and halves: 27 cadences, each at its own best interval, where a walk of single
steps (the search before it) needs some 600. Each goodput of a long cadence costs more (its chain has n + 1
states), so the two searches of the far peak are compared with each other, from cold caches, interleaved, the best
of several runs each; target: the search at least 10x faster than the walk. A fleet whose best n is next to n* is timed too, for reference.
"""

from __future__ import annotations

import math
import os
import time

from goodput import tiers
from goodput.tiers import Tiers, exact_goodput, exact_optimal_interval, first_order_every

RUNS = int(os.environ.get("BENCH_RUNS", "5"))
TARGET = 10.0
#: A stored fleet of 49,152 GPUs: C = 0.18 ms snapshot, an 8 s drain, C_p 2 min, R_p 25 min, s = 0.9, M = 81.4 min.
FAR = (Tiers(3.0381944444444447e-06, 9.048, 0.13333333333333333, 2.0, 25.0, 0.9), 81.38020833333333)
#: The worked example's scale with a persistent tier whose best n is next to n*.
NEAR = (Tiers(1.0, 5.0, 0.0, 6.0, 12.0, 0.7), 185.6)


def cold(scheme: Tiers, mtbi: float) -> tuple[float, int]:
    tiers._exact_optimal_interval.cache_clear()
    start = time.perf_counter()
    n = tiers.best_every(scheme, mtbi).every
    return time.perf_counter() - start, n


def walk(scheme: Tiers, mtbi: float) -> tuple[float, int]:
    """The former search: single steps from n* while goodput rises."""
    tiers._exact_optimal_interval.cache_clear()
    start = time.perf_counter()

    def value(n: int) -> float:
        s = scheme.with_every(n)
        return exact_goodput(s, mtbi, exact_optimal_interval(s, mtbi))

    guess = first_order_every(scheme)
    n = max(1, min(tiers.MAX_EVERY, round(guess))) if math.isfinite(guess) else tiers.MAX_EVERY
    best = value(n)
    for step in (-1, 1):
        while 1 <= n + step <= tiers.MAX_EVERY and (v := value(n + step)) > best:
            n, best = n + step, v
    return time.perf_counter() - start, n


def main() -> None:
    times: dict[str, list[float]] = {"near": [], "far": [], "walk": []}
    found = {}
    for _ in range(RUNS):
        for name, search, (scheme, mtbi) in (("near", cold, NEAR), ("far", cold, FAR), ("walk", walk, FAR)):
            t, found[name] = search(scheme, mtbi)
            times[name].append(t)
    best = {name: min(ts) for name, ts in times.items()}
    print(f"best of {RUNS} interleaved runs each, cold caches")
    print(f"  near peak, search      (n* {round(first_order_every(NEAR[0]))}, best n {found['near']}) "
          f"{1000 * best['near']:9.1f} ms")
    print(f"  far peak, search       (n* 1,000, best n {found['far']}) {1000 * best['far']:9.1f} ms")
    print(f"  far peak, single steps (n* 1,000, best n {found['walk']}) {1000 * best['walk']:9.1f} ms")
    ratio = best["walk"] / best["far"]
    print(f"single steps / search = {ratio:.0f} ({'within' if ratio >= TARGET else 'SHORT OF'} the {TARGET:g} x target)")


if __name__ == "__main__":
    main()
