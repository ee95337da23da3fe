"""Simulations that check :mod:`goodput.restart`: failures and repairs drawn one by one.

:func:`simulate_spare_waits` draws node-taking interruptions and repairs as the spares model states them and measures
the wait for a repair per interruption; :func:`simulate_recovery` draws rollback interruptions, just-in-time recoveries
and planned stops segment by segment and measures goodput. Both return the mean and its standard error (over independent
batches), so a test can hold the closed forms to a few standard errors. Every generator is seeded.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass

import numpy as np

from goodput import validate


@dataclass(frozen=True)
class Estimate:
    """A simulated mean and its standard error."""

    mean: float
    stderr: float


def _batched(values: list[float], batches: int = 20) -> Estimate:
    """Mean and standard error from batch means (robust to correlation between successive draws)."""
    arr = np.asarray(values, dtype=np.float64)
    means = np.array([chunk.mean() for chunk in np.array_split(arr, batches)])
    return Estimate(mean=float(arr.mean()), stderr=float(means.std(ddof=1) / math.sqrt(batches)))


def simulate_spare_waits(spares: int, mtbi: float, repair: float, takes_node: float, *, interruptions: int = 40_000,
                         seed: int = 20261201) -> Estimate:
    """The mean wait for a repair per interruption, simulated.

    Minutes per interruption. Interruptions strike the running job at rate 1/M (a burn-in of a tenth as many first); a
    share `takes_node` sends a node to repair for an exponential time of mean `repair`; the job waits when more nodes
    are in repair than there are spares, until the first repair ends.
    """
    c = validate.whole(spares, "spares", least=0)
    rng = np.random.default_rng(seed)
    burn = interruptions // 10
    total = interruptions + burn
    gaps = rng.exponential(mtbi, total)
    takes = rng.random(total) < takes_node
    repairs = rng.exponential(repair, total)
    in_repair: list[float] = []
    t = 0.0
    waits: list[float] = []
    for i in range(total):
        t += gaps[i]
        while in_repair and in_repair[0] <= t:
            heapq.heappop(in_repair)
        wait = 0.0
        if takes[i]:
            heapq.heappush(in_repair, t + repairs[i])
            if len(in_repair) > c:
                wait = heapq.heappop(in_repair) - t
                t += wait
        if i >= burn:
            waits.append(wait)
    return _batched(waits)


def simulate_recovery(checkpoint_cost: float, mtbi: float, restart: float, interval: float, *,
                      just_in_time: float = 0.0, jit_recovery: float = 0.0, planned_rate: float = 0.0,
                      segments: int = 40_000, seed: int = 20261201) -> Estimate:
    """Goodput (kept work over wall time, per batch) with just-in-time recovery and planned stops (q per hour)."""
    rng = np.random.default_rng(seed)
    c, m, r, t = checkpoint_cost, mtbi, restart, interval
    rate_roll = (1.0 - just_in_time) / m
    rate_pause = just_in_time / m + planned_rate / 60.0
    pause_jit = just_in_time / m / rate_pause if rate_pause > 0 else 0.0
    walls: list[float] = []
    for _ in range(segments):
        wall = 0.0
        while True:
            attempt = t + c
            roll_at = rng.exponential(1.0 / rate_roll) if rate_roll > 0 else math.inf
            done = min(attempt, roll_at)
            wall += done
            # Pauses strike the time spent computing or checkpointing in this attempt.
            if rate_pause > 0:
                pauses = rng.poisson(rate_pause * done)
                jit = rng.binomial(pauses, pause_jit)
                wall += jit * jit_recovery + (pauses - jit) * (c + r)
            if roll_at >= attempt:
                break
            # A restart, started over by any rollback interruption during it.
            while True:
                hit = rng.exponential(1.0 / rate_roll)
                if hit >= r:
                    wall += r
                    break
                wall += hit
        walls.append(wall)
    arr = np.asarray(walls)
    batches = [t * len(chunk) / chunk.sum() for chunk in np.array_split(arr, 20)]
    return Estimate(mean=float(t * len(arr) / arr.sum()), stderr=float(np.std(batches, ddof=1) / math.sqrt(20)))
