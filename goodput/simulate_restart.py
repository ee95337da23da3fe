"""Simulations that check :mod:`goodput.restart`: failures and repairs drawn one by one.

:func:`simulate_spare_waits` draws node-taking interruptions and repairs as the spares model states them and measures
the wait for a repair per interruption; :func:`simulate_recovery` draws rollback interruptions, just-in-time recoveries
and planned stops segment by segment and measures goodput. Both return the mean and its standard error (over independent
batches), so a test can hold the closed forms to a few standard errors. Every generator is seeded.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from goodput import validate
from goodput.restart import spare_wait

if TYPE_CHECKING:
    from goodput.plan import Plan
    from goodput.simulate_tiers import TierResult

#: The largest R (1 - p) / M the just-in-time check simulates (e^10 restart attempts on average).
MOST_RESTART_EXPONENT = 10.0
#: The seed of the tier simulator's just-in-time check (the one-tier check's is simulate_recovery's default).
SIM_SEED = 20261201
#: Rollbacks each run of the tier simulator's just-in-time check holds at least: a small fleet's M of weeks beside an
#: interval of minutes put two in a run, and its estimate 5.9 standard errors off the closed form.
ROLLBACKS_PER_RUN = 2_000
#: Standard errors within which the closed forms must agree with their simulations.
AGREEMENT = 3.0
#: How many times as long the run is that confirms a check beyond :data:`AGREEMENT`, on fresh draws (:func:`confirmed`).
CONFIRM_LONGER = 4


@dataclass(frozen=True)
class Estimate:
    """A simulated mean and its standard error."""

    mean: float
    stderr: float

    def apart(self, closed: float) -> float:
        """How many standard errors a closed form's value lies from the simulated mean."""
        return abs(self.mean - closed) / max(self.stderr, 1e-12)


def _batched(values: list[float], of: Callable[[npt.NDArray[np.float64]], Any] = np.mean, batches: int = 20) -> Estimate:
    """A statistic `of` the values and its standard error over batches (robust to correlation between successive draws)."""
    arr = np.asarray(values, dtype=np.float64)
    means = [of(chunk) for chunk in np.array_split(arr, batches)]
    return Estimate(mean=float(of(arr)), stderr=float(np.std(means, ddof=1) / math.sqrt(batches)))


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
    # As Python lists: the loop below reads them one by one, which NumPy's scalars make several times slower.
    gaps = rng.exponential(mtbi, total).tolist()
    takes = (rng.random(total) < takes_node).tolist()
    repairs = rng.exponential(repair, total).tolist()
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
                      stop_saving: float = 0.0, segments: int = 40_000, seed: int = 20261201) -> Estimate:
    """Goodput (kept work over wall time, per batch) with just-in-time recovery and planned stops (q per hour).

    A planned stop costs C + R less `stop_saving` (:class:`goodput.restart.Recovery`).
    """
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
                wall += jit * jit_recovery + (pauses - jit) * (c + r - stop_saving)
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
    return _batched(walls, lambda chunk: t * len(chunk) / chunk.sum())


def confirmed(closed: float, run: Callable[[int, int], Estimate], seed: int = SIM_SEED) -> Estimate:
    """A seeded check of `closed`: ``run(1, seed)``, or where that is beyond :data:`AGREEMENT`, a run again.

    Where the first run lies more than :data:`AGREEMENT` standard errors off, ``run(CONFIRM_LONGER, seed + 1)``, as
    long again times :data:`CONFIRM_LONGER`, on fresh draws, is the check. A gap of three standard errors comes by chance once in 370 checks, and a book makes several; a true disagreement
    only grows with the run. ``run(longer, seed)`` simulates `longer` times its usual length.
    """
    first = run(1, seed)
    return first if first.apart(closed) <= AGREEMENT else run(CONFIRM_LONGER, seed + 1)


def check_recovery(plan: Plan) -> Estimate:
    """The simulated goodput of a plan with recovery without rollback (its p, R_j and q), at its interval (and cadence).

    One tier: :func:`simulate_recovery`; a drain or tiers: :func:`goodput.simulate_tiers.simulate_tiers` with the
    scheme's stop cost. A standard error of 0 means not simulated: a restart is started over by every rollback during
    it, e^{R (1 - p) / M} attempts on average (R_p with a persistent tier), too many to simulate where that is
    astronomic (the closed form's goodput is then essentially zero anyway).

    A run more than :data:`AGREEMENT` standard errors from the closed form is run again (:func:`confirmed`).
    """
    s = plan.tiers
    just_in_time, jit_recovery, planned_rate, saving = plan.recovery or (0.0, 0.0, 0.0, 0.0)
    r = plan.restart if s is None else s.rp
    if r * (1.0 - just_in_time) / plan.mtbi > MOST_RESTART_EXPONENT:
        return Estimate(plan.goodput, 0.0)

    def run(longer: int, seed: int) -> Estimate:
        if s is None:
            return simulate_recovery(plan.checkpoint_cost, plan.mtbi, plan.restart, plan.interval,
                                     just_in_time=just_in_time, jit_recovery=jit_recovery, planned_rate=planned_rate,
                                     stop_saving=saving, segments=20_000 * longer, seed=seed)
        from goodput.simulate import MIN_RUN_RHYTHMS

        replicas = 32
        rolls = plan.mtbi / (1.0 - just_in_time)  # mean time between the interruptions that roll back
        horizon = max(10 * MIN_RUN_RHYTHMS * replicas * plan_rhythm(plan), 20_000 * (plan.interval + s.checkpoint_cost),
                      ROLLBACKS_PER_RUN * replicas * rolls)
        result = simulate_plan(plan, longer * horizon, replicas=replicas, seed=seed)
        return Estimate(result.goodput, result.stderr)

    return confirmed(plan.goodput, run)


def plan_rhythm(plan: Plan) -> float:
    """A plan's persistent cycle and a persistent restart, minutes: a simulated run must hold several of them."""
    s = plan.tiers
    if s is None:
        return plan.interval + plan.checkpoint_cost + plan.restart
    return (s.every - 1) * (plan.interval + s.checkpoint_cost) + plan.interval + s.cp + s.rp


def planned_stop_cost(plan: Plan) -> float:
    """What a planned stop costs the plan, minutes: its scheme's stop cost, less what it saves (no repaired node)."""
    from goodput.tiers import Tiers

    s = plan.tiers if plan.tiers is not None else Tiers(plan.checkpoint_cost, plan.restart)
    return s.stop_cost - (plan.recovery[3] if plan.recovery is not None else 0.0)


def simulate_plan(plan: Plan, horizon: float, *, replicas: int | None = None, seed: int,
                  progress: Any = None) -> TierResult:
    """A plan's whole scheme simulated at its interval and cadence: drain, tiers, recovery without rollback.

    By :func:`goodput.simulate_tiers.simulate_tiers` (its default replicas where `replicas` is None, and its
    `progress`); a plan without tiers is one tier of its C and R, and planned stops cost :func:`planned_stop_cost`.
    """
    from goodput.simulate_tiers import DEFAULT_REPLICAS, simulate_tiers
    from goodput.tiers import Tiers

    s = plan.tiers if plan.tiers is not None else Tiers(plan.checkpoint_cost, plan.restart)
    just_in_time, jit_recovery, planned_rate, _ = plan.recovery or (0.0, 0.0, 0.0, 0.0)
    return simulate_tiers(s.checkpoint_cost, plan.mtbi, s.restart, plan.interval, horizon, drain=s.drain,
                          persistent_cost=s.persistent_cost, persistent_restart=s.persistent_restart,
                          fast_survives=s.fast_survives, persistent_every=s.every, just_in_time=just_in_time,
                          jit_recovery=jit_recovery, planned_rate=planned_rate,
                          planned_cost=planned_stop_cost(plan) if planned_rate else None,
                          replicas=DEFAULT_REPLICAS if replicas is None else replicas, seed=seed, progress=progress)


def spares_checks(best: int, mtbi: float, repair: float, takes_node: float) -> list[tuple[int, float, Estimate]]:
    """(spares, the closed form's wait for a repair per interruption, the simulated one) at a few pool sizes.

    The sizes: none, half the best count `best`, the mean number of nodes in repair (where below the best) and the
    best. Minutes; the simulation is seeded, and a size more than :data:`AGREEMENT` standard errors off is run again
    (:func:`confirmed`).
    """
    counts = sorted({0, best // 2, min(best, max(1, round(takes_node * repair / mtbi))), best})
    out = []
    for k in counts:

        def run(longer: int, seed: int, spares: int = k) -> Estimate:
            return simulate_spare_waits(spares, mtbi, repair, takes_node, interruptions=20_000 * longer, seed=seed)

        closed = spare_wait(k, mtbi, repair, takes_node)
        out.append((k, closed, confirmed(closed, run)))
    return out
