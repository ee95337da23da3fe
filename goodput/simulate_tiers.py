"""Monte Carlo simulation of checkpoints that are not yet safe: asynchronous drains and a fast + persistent tier.

An independent check of the exact drain / two-tier model: it follows the semantics below event by event
and uses no formula of that model.

The job computes in cycles of n segments, each T minutes of compute then a blocking snapshot: fast (C)
for the first n - 1, persistent (C_p) for the n-th, durable D minutes after it ends unless an
interruption comes first (abandoning the drain). Interruptions are Poisson with mean gap M over wall
time, each soft (the fast tier survives) with probability s.

- Soft, computing or snapshotting: back to the latest completed checkpoint of either tier, restart R; a
  pending persistent one drains again from scratch when compute resumes.
- Hard: back to the latest durable persistent checkpoint, restart R_p; the fast checkpoints since are
  lost, and so is a pending persistent checkpoint with its whole cycle.
- During an R-restart, soft starts it over and hard makes it an R_p-restart; during R_p, any starts it over.
- Optional pauses: a share p of unplanned interruptions recovered just in time (R_j, no lost work) and
  planned stops at q per hour (S_q each). They strike only while the job runs (never during a restart),
  and the job, drain included, stands still; the rolling-back interruptions are then Poisson with mean
  gap M / (1 - p) over running and restarting time.

A run starts computing at time 0 with a durable checkpoint; at its end, completed segments not yet
durable count as kept, an unfinished segment as lost work, an unfinished restart as restart.
Fractions of wall time (summing to one): ``goodput`` kept compute, ``checkpoint_overhead`` their
snapshots, ``drain_loss`` whole cycles lost to a hard interruption before durability, ``restart_loss``
restarts (cut short included) and pauses, ``lost_work`` the rest.

All runs advance in lock-step, one gap per step; the compute in a gap splits by ``divmod`` by the cycle
(n - 1)(T + C) + T + C_p into whole cycles and completed segments. Pauses are drawn after a run ends, Poisson
with mean p/M and q/60 per minute of running time. Standard errors are over the ``replicas`` runs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any

import numpy as np
import numpy.typing as npt

from goodput import validate
from goodput.errors import InputError
from goodput.simulate import MAX_FAILURES, MIN_RUN_RHYTHMS, Progress, SimulatedLosses, losses_over_runs, progress_bar
from goodput.units import format_duration

#: Most random values drawn at once per kind (gaps, soft/hard draws): about 2 MB of float64 each.
BLOCK_SIZE = 2**18

#: Default number of independent runs the horizon is split into.
DEFAULT_REPLICAS = 256

Floats = npt.NDArray[np.float64]


@dataclass(frozen=True)
class TierResult(SimulatedLosses):
    """Outcome of :func:`simulate_tiers`: the fields of :class:`~goodput.simulate.SimulatedLosses`, and the drain's.

    Here ``lost_work`` includes segments rolled back by a hard interruption, ``restart_loss`` both R and
    R_p, ``failures`` every interruption (``hard_failures`` those the fast tier did not survive);
    ``drain_loss`` whole cycles discarded before their persistent checkpoint was durable. Counts are over all runs.
    """

    drain_loss: float
    drain_loss_stderr: float
    hard_failures: int
    recoveries: int = 0
    planned_stops: int = 0


# --------------------------------------------------------------------------- checks


def _positive(value: Any, name: str) -> float:
    return validate.positive(value, name, validate.POSITIVE_MINUTES)


def _at_least(value: Any, name: str, least: float, other: str) -> float:
    what = f"a finite number of minutes at least {other} ({least:g})"
    number = validate.finite(value, name, what)
    if number < least:
        raise InputError(name, value, what)
    return number


@dataclass(frozen=True)
class _Tiers:
    """The checked inputs of one simulation, in minutes."""

    interval: float  # T
    cost: float  # C
    persistent_cost: float  # C_p
    restart: float  # R
    persistent_restart: float  # R_p
    drain: float  # D
    every: int  # n
    survives: float  # s

    @property
    def segment(self) -> float:
        """A segment with a fast snapshot, T + C."""
        return self.interval + self.cost

    @property
    def cycle(self) -> float:
        """A whole cycle, (n - 1)(T + C) + T + C_p."""
        return (self.every - 1) * self.segment + self.interval + self.persistent_cost

    @classmethod
    def check(
        cls,
        checkpoint_cost: Any,
        restart: Any,
        interval: Any,
        drain: Any,
        persistent_cost: Any,
        persistent_restart: Any,
        fast_survives: Any,
        persistent_every: Any,
    ) -> _Tiers:
        c = _positive(checkpoint_cost, "checkpoint_cost")
        r = _positive(restart, "restart")
        t = _positive(interval, "interval")
        d_what = f"a number of minutes from 0 up to the interval ({t:g})"
        d = validate.non_negative(drain, "drain", d_what)
        if d > t:
            raise InputError("drain", drain, d_what)
        cp = c if persistent_cost is None else _at_least(persistent_cost, "persistent_cost", c, "checkpoint_cost")
        rp = r if persistent_restart is None else _at_least(persistent_restart, "persistent_restart", r, "restart")
        s = validate.share(fast_survives, "fast_survives")
        n = validate.whole(persistent_every, "persistent_every", 1)
        return cls(t, c, cp, r, rp, d, n, s)


# --------------------------------------------------------------------------- the per-gap state machine


@dataclass
class _State:
    """Where each run stands just after an interruption (or at its start), and what it has done so far."""

    clock: Floats  # wall time reached, minutes (capped at the run length)
    restart: Floats  # restart to do before computing: 0 (start of run), R or R_p
    index: Floats  # completed segments of the current cycle at the checkpoint resumed from, 0..n-1
    pending: npt.NDArray[np.bool_]  # the checkpoint at the start of the current cycle is not yet durable
    restarting: Floats  # total restart time
    segments: Floats  # completed segments currently kept (not rolled back)
    persistent: Floats  # of those, the persistent ones
    drained: Floats  # whole cycles lost to hard interruptions during a drain
    failures: npt.NDArray[np.int64]
    hard: npt.NDArray[np.int64]

    @classmethod
    def fresh(cls, size: int) -> _State:
        kinds = {"pending": bool, "failures": np.int64, "hard": np.int64}  # the others float64
        return cls(**{f.name: np.zeros(size, dtype=kinds.get(f.name, np.float64)) for f in fields(cls)})


def _advance(tiers: _Tiers, run_length: float, state: _State, gap: Floats, soft: npt.NDArray[np.bool_]) -> None:
    """Take every run (``state``, in place) to its next interruption ``gap`` minutes later, or to the run's end."""
    left = run_length - state.clock  # 0 for a run that has ended
    fails = gap < left
    x = np.minimum(gap, left)
    state.clock += x
    # Restart first: an interruption before it ends is an interruption during the restart.
    during = x < state.restart
    spent = np.minimum(x, state.restart)
    state.restarting += spent
    # Then compute from the resumed position: whole cycles and the remainder (0 when interrupted in the restart).
    x -= spent
    x += state.index * tiers.segment
    cycles, rest = np.divmod(x, tiers.cycle)
    done = np.floor(rest / tiers.segment)
    np.minimum(done, tiers.every - 1, out=done)  # the n-th snapshot ends only at the end of the cycle
    # Within the same cycle a run never goes back before the checkpoint it resumed from: with no compute (an
    # interruption during the restart) floor(j (T + C)/(T + C)) may round to j - 1.
    np.copyto(done, np.maximum(done, state.index), where=cycles == 0.0)
    state.segments += cycles * tiers.every + done - state.index
    state.persistent += cycles
    if tiers.drain > 0.0:
        # The checkpoint at the start of the cycle is still draining if it was completed in this gap
        # (or was pending when the gap began, its drain restarting at position 0) and r < D.
        pending = (cycles > 0.0) | state.pending
        pending &= rest < tiers.drain
    else:
        pending = np.zeros(x.shape, dtype=bool)
    # The interruption.
    hard = fails & ~soft
    lose_cycle = hard & pending
    # Hard: a pending cycle goes to the drain loss; otherwise the fast segments of the cycle are rolled back.
    state.segments -= np.where(hard, np.where(pending, float(tiers.every), done), 0.0)
    state.persistent -= lose_cycle
    state.drained += lose_cycle
    state.failures += fails
    state.hard += hard
    state.index = np.where(hard, 0.0, done)
    state.pending = pending & ~hard
    state.restart = np.where(hard, tiers.persistent_restart, np.where(during, state.restart, tiers.restart))


def _fractions(tiers: _Tiers, run_length: float, state: _State) -> Floats:
    """Per-run fractions: goodput, checkpoint, lost work, restart, drain (rows), from the counts in `state`."""
    kept = state.segments * tiers.interval
    fast = state.segments - state.persistent
    checkpointing = fast * tiers.cost + state.persistent * tiers.persistent_cost
    drained = state.drained * tiers.cycle
    lost = run_length - kept - checkpointing - state.restarting - drained
    return np.stack([kept, checkpointing, lost, state.restarting, drained]) / run_length


# --------------------------------------------------------------------------- the simulator


def simulate_tiers(
    checkpoint_cost: float,
    mtbi: float,
    restart: float,
    interval: float,
    horizon: float,
    *,
    drain: float = 0.0,
    persistent_cost: float | None = None,
    persistent_restart: float | None = None,
    fast_survives: float = 0.0,
    persistent_every: int = 1,
    just_in_time: float = 0.0,
    jit_recovery: float = 0.0,
    planned_rate: float = 0.0,
    planned_cost: float | None = None,
    replicas: int = DEFAULT_REPLICAS,
    seed: int = 0,
    progress: Progress = None,
) -> TierResult:
    """Simulate a job with draining and/or two-tier checkpoints and measure its goodput and losses.

    The model is the module docstring's; with the defaults (one tier, no drain) it is :mod:`goodput.simulate`'s.
    Minutes throughout (``planned_rate`` q per hour); 0 <= D <= T, C_p >= C and R_p >= R (default C, R),
    every n-th checkpoint persistent, p in [0, 1), S_q needed with q > 0; ``horizon`` is split into
    ``replicas`` (>= 2) runs. Same inputs and ``seed``, same result. ``progress``: True shows a tqdm bar
    (after :data:`goodput.simulate.PROGRESS_DELAY_S` s); a callable gets the minutes each block covered.
    Raises InputError for any input out of those bounds.

    >>> r = simulate_tiers(1.0, 185.6, 5.0, 18.6, 100 * 525_600, seed=1)
    >>> abs(r.goodput - 0.876) < 4 * r.stderr + 0.001
    True
    >>> r.drain_loss
    0.0
    """
    tiers = _Tiers.check(
        checkpoint_cost, restart, interval, drain, persistent_cost, persistent_restart, fast_survives, persistent_every
    )
    m = _positive(mtbi, "mtbi")
    p = validate.share(just_in_time, "just_in_time", open_high=True)
    rj = validate.non_negative(jit_recovery, "jit_recovery")
    q = validate.non_negative(planned_rate, "planned_rate") / 60.0
    if q > 0.0 and planned_cost is None:
        raise InputError("planned_cost", None, "the minutes a planned stop costs, with planned stops")
    sq = 0.0 if planned_cost is None else validate.non_negative(planned_cost, "planned_cost")
    rolls = m / (1.0 - p)  # mean gap between the interruptions that roll back
    h = _positive(horizon, "horizon")
    n_runs = validate.whole(replicas, "replicas", 2)
    seed = validate.whole(seed, "seed", 0)
    run_length = h / n_runs
    rhythm = tiers.cycle + tiers.persistent_restart
    if run_length < MIN_RUN_RHYTHMS * rhythm:
        raise InputError(
            "horizon", format_duration(h),
            f"at least {format_duration(MIN_RUN_RHYTHMS * n_runs * rhythm)}: each of the {n_runs} runs at least "
            f"{MIN_RUN_RHYTHMS:g} times a cycle and a persistent restart, or its estimate is biased by its ends",
        )
    if h / rolls > MAX_FAILURES:
        raise InputError("horizon", format_duration(h),
                         f"a horizon with at most {MAX_FAILURES:.0e} failures (these inputs imply {h / rolls:.2g})")
    update, close = progress_bar(progress, h, "simulating tiers")

    # Steps per block: all of a run's gaps if they are few (6 standard deviations of the Poisson count), else as
    # many as fit in a block. Fixed for given inputs, so the draws depend only on the seed and the inputs.
    expected = run_length / rolls
    steps = max(1, min(BLOCK_SIZE // n_runs, math.ceil(expected + 6.0 * math.sqrt(expected) + 16.0)))
    rng = np.random.default_rng(seed)
    state = _State.fresh(n_runs)
    try:
        while True:
            gaps = rng.standard_exponential((steps, n_runs))
            gaps *= rolls
            soft = rng.random((steps, n_runs)) < tiers.survives
            before = float(state.clock.sum())
            for row in range(steps):
                _advance(tiers, run_length, state, gaps[row], soft[row])
                if row % 32 == 31 and state.clock.min() >= run_length:
                    break
            if update is not None:
                update(float(state.clock.sum()) - before)
            if state.clock.min() >= run_length:
                break
    finally:
        close()

    fractions = _fractions(tiers, run_length, state)
    recoveries = planned = np.zeros(n_runs, dtype=np.int64)
    if p > 0.0 or q > 0.0:  # the pauses, drawn after the runs so that the rest of the draws stay as without them
        running = run_length - state.restarting
        recoveries = rng.poisson(p / m * running)
        planned = rng.poisson(q * running)
        paused = recoveries * rj + planned * sq
        fractions *= run_length / (run_length + paused)
        fractions[3] += paused / (run_length + paused)
    return TierResult(failures=int(state.failures.sum()), hard_failures=int(state.hard.sum()),
                      recoveries=int(recoveries.sum()), planned_stops=int(planned.sum()),
                      **losses_over_runs(fractions, h, seed))
