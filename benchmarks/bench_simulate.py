"""Benchmark: how close the simulator runs to the cost of just drawing its random numbers.

Measures, in one run and interleaved:

(a) the time NumPy needs to draw N exponential variates, where N is the number of
    failures in 10,000 years of a 16,384-GPU job at the worked example's rate
    (M = 1,296 h / 419 = 185.6 min, so N is about 28 million), drawn in chunks
    of :data:`goodput.simulate.CHUNK_SIZE` into a preallocated buffer;
(b) :func:`goodput.simulate.simulate` over the same horizon with C = 1 min,
    R = 5 min, the exact optimum interval and exponential failures.

Each is repeated a few times and the best (minimum) of each is kept; the ratio
simulate/draws is the figure of merit (target: at most 2). Then the peak
memory of a simulation of horizon H and of 4H is measured with tracemalloc, to
show that memory does not grow with the horizon. The machine the numbers are
quoted from is a shared 2-core virtual machine: compare ratios within one run.

Run it with ``python benchmarks/bench_simulate.py [--repeats 5]``.
"""

from __future__ import annotations

import argparse
import gc
import resource
import time
import tracemalloc

import numpy as np

from goodput.exact import exact_optimal_interval
from goodput.params import mtbi_from_count
from goodput.simulate import CHUNK_SIZE, expected_failures, simulate

MINUTES_PER_YEAR = 365.0 * 24.0 * 60.0
MTBI = mtbi_from_count(419, 54 * 24 * 60.0)  # the worked example: 185.6 min
CHECKPOINT = 1.0
RESTART = 5.0
HORIZON = 10_000 * MINUTES_PER_YEAR


def draw_only(count: int, seed: int = 0) -> float:
    """Seconds to draw `count` standard exponential variates in chunks of CHUNK_SIZE.

    Parameters
    ----------
    count : int
        Number of variates.
    seed : int, optional
        Seed of the generator.

    Returns
    -------
    float
        Wall-clock seconds.
    """
    rng = np.random.default_rng(seed)
    buffer = np.empty(CHUNK_SIZE)
    start = time.perf_counter()
    left = count
    while left > 0:
        size = min(left, CHUNK_SIZE)
        rng.standard_exponential(out=buffer[:size])
        left -= size
    return time.perf_counter() - start


def simulate_once(horizon: float, seed: int = 0) -> tuple[float, float, int]:
    """Seconds for one simulation of `horizon` minutes at the worked example's inputs.

    Parameters
    ----------
    horizon : float
        Simulated wall time in minutes.
    seed : int, optional
        Seed of the simulator.

    Returns
    -------
    tuple of (float, float, int)
        Wall-clock seconds, the simulated goodput and the number of failures.
    """
    interval = exact_optimal_interval(CHECKPOINT, MTBI)
    start = time.perf_counter()
    result = simulate(CHECKPOINT, MTBI, RESTART, interval, horizon, seed=seed)
    return time.perf_counter() - start, result.goodput, result.failures


def peak_memory(horizon: float) -> float:
    """Peak memory traced by tracemalloc during one simulation, in MB.

    Parameters
    ----------
    horizon : float
        Simulated wall time in minutes.

    Returns
    -------
    float
        Peak traced allocation in megabytes.
    """
    gc.collect()
    tracemalloc.start()
    simulate_once(horizon)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 1e6


def main() -> None:
    """Run the benchmark and print the times, the ratio and the peak memory."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="repetitions of each measurement (default 5)")
    args = parser.parse_args()

    count = round(expected_failures(MTBI, HORIZON))
    print(f"M = {MTBI:.1f} min, horizon = 10,000 years = {HORIZON:.3g} min, N = {count:,} failures expected")
    print(f"chunk size {CHUNK_SIZE:,}; interval {exact_optimal_interval(CHECKPOINT, MTBI):.2f} min")
    simulate_once(HORIZON / 100)  # warm up imports and caches
    draws, sims = [], []
    for repeat in range(args.repeats):
        draws.append(draw_only(count, seed=repeat))
        seconds, goodput, failures = simulate_once(HORIZON, seed=repeat)
        sims.append(seconds)
        print(
            f"  repeat {repeat + 1}: draws {draws[-1]:.3f} s, simulate {seconds:.3f} s"
            f" (goodput {goodput:.5f}, {failures:,} failures)"
        )
    best_draw, best_sim = min(draws), min(sims)
    print(f"best draws   {best_draw:.3f} s  ({1e9 * best_draw / count:.1f} ns per variate)")
    print(f"best simulate {best_sim:.3f} s  ({1e9 * best_sim / count:.1f} ns per failure)")
    print(f"ratio simulate/draws = {best_sim / best_draw:.2f}  (target <= 2)")
    single, quadruple = peak_memory(HORIZON), peak_memory(4 * HORIZON)
    print(f"peak traced memory: horizon H {single:.1f} MB, 4H {quadruple:.1f} MB (bounded by the chunk size)")
    print(f"max resident set size of this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
