"""Monte Carlo simulation of checkpoints that are not yet safe: asynchronous drains and a fast + persistent tier.

An independent check of the exact drain / two-tier model: it follows the shared
semantics (``notes/tiers-semantics.md``) event by event and uses no formula of
that model.

The job
    Computes in cycles of n segments (``persistent_every``). Each segment is T
    minutes of compute followed by a blocking snapshot: fast (C minutes) for the
    first n - 1, persistent (C_p) for the n-th. Interruptions are a Poisson
    process of mean gap M over all wall time; each is independently soft (the
    fast tier survives it) with probability s (``fast_survives``), else hard.
    A persistent snapshot becomes durable D minutes (``drain``) after it ends,
    unless an interruption comes first, which abandons the drain.

    - Soft interruption while computing or snapshotting: back to the latest
      completed checkpoint of either tier, restart R. If that checkpoint is a
      pending persistent one, its drain starts again from scratch when compute
      resumes.
    - Hard interruption while computing or snapshotting: back to the latest
      durable persistent checkpoint, restart R_p; the fast checkpoints since it
      are lost, and so is a pending persistent checkpoint with its whole cycle.
    - During an R-restart a soft interruption starts it over and a hard one turns
      it into an R_p-restart as above; during an R_p-restart any interruption
      starts it over.

    Recovery without rollback and planned stops (optional): a share p
    (``just_in_time``) of unplanned interruptions is recovered just in time,
    costing R_j (``jit_recovery``) and no lost work; planned stops come at q per
    hour (``planned_rate``), each costing S_q (``planned_cost``) and no lost work.
    Both are pauses that strike only while the job runs (computes, snapshots or
    drains), never while it restarts: the job, its drain included, stands still
    during a pause, and no interruption strikes one. The interruptions that roll
    back are then the unplanned ones thinned to the share 1 - p: a Poisson
    process of mean gap M / (1 - p) over the time the job runs or restarts.

    A run starts computing at time 0 at the start of a cycle, with a durable
    checkpoint. At the end of a run, completed segments not yet covered by a
    durable checkpoint count as kept, an unfinished segment as lost work and an
    unfinished restart as restart.

Accounting (fractions of wall time; they sum to one)
    ``goodput`` is the compute of kept segments, ``checkpoint_overhead`` their
    snapshots, ``drain_loss`` the compute and snapshots of whole cycles lost
    because a hard interruption struck before their persistent checkpoint was
    durable, ``restart_loss`` the time spent restarting (including restarts cut
    short) and in pauses, and ``lost_work`` the rest: partial segments and snapshots, and fast
    checkpoints' segments rolled back by a hard interruption.

How it is computed
    All runs advance in lock-step, one interruption gap per step. Each run holds
    a small state: its wall clock, the restart it must do before computing
    (0, R or R_p minutes), the segment index j in the cycle it resumes at (0 to
    n - 1; the position j (T + C) in the cycle) and whether the checkpoint at
    the start of its cycle is still draining. For a gap of X minutes the first
    min(X, restart) minutes are restart; if the interruption comes during the
    restart the state changes by the restart rules. Otherwise the compute
    X - restart, added to the position, is split arithmetically into whole
    cycles k and a remainder r (``divmod`` by the cycle length
    (n - 1)(T + C) + T + C_p) and the completed fast segments within the cycle,
    min(floor(r/(T + C)), n - 1); the start-of-cycle checkpoint is still
    draining when r < D (and the last one completed or the one restored was a
    pending persistent one). The interruption is then applied to that state.
    Kept segments are counted when they complete and subtracted when rolled
    back, so no per-segment work is done between interruptions. Gaps and the
    soft/hard draws come in blocks of at most :data:`BLOCK_SIZE` values.
    Pauses leave the rest unchanged, so each run's length counts the time it
    runs or restarts; its pauses are drawn once it has ended, as Poisson counts
    of mean p/M and q/60 per minute of its running time (its length less its
    restarts), and added to its wall time and to the restart loss.

Standard errors
    The horizon is split into ``replicas`` independent runs of equal length;
    each fraction is the mean over the runs and its standard error the sample
    standard deviation over runs divided by sqrt(replicas).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from goodput import validate
from goodput.errors import InputError
from goodput.simulate import MAX_FAILURES, MIN_RUN_RHYTHMS, Progress, SimulatedLosses, progress_bar

#: Most random values drawn at once per kind (gaps, soft/hard draws): about 2 MB of float64 each.
BLOCK_SIZE = 2**18

#: Default number of independent runs the horizon is split into.
DEFAULT_REPLICAS = 256

Floats = npt.NDArray[np.float64]


@dataclass(frozen=True)
class TierResult(SimulatedLosses):
    """Outcome of :func:`simulate_tiers`: the fields of :class:`~goodput.simulate.SimulatedLosses`, and the drain's.

    There ``goodput`` is the compute of kept segments, ``checkpoint_overhead``
    the completed snapshots (C or C_p) of kept segments, ``lost_work`` also the
    completed segments rolled back by a hard interruption to a durable
    checkpoint, ``restart_loss`` both restarts (R and R_p), and ``failures``
    every interruption.

    Parameters
    ----------
    drain_loss : float
        Fraction spent on whole cycles (compute and snapshots) discarded because
        a hard interruption struck before their persistent checkpoint was durable.
    drain_loss_stderr : float
        Its standard error.
    hard_failures : int
        Of the interruptions, the hard ones (the fast tier did not survive them).
    recoveries : int, optional
        Interruptions recovered just in time, over all runs.
    planned_stops : int, optional
        Planned stops, over all runs.
    """

    drain_loss: float
    drain_loss_stderr: float
    hard_failures: int
    recoveries: int = 0
    planned_stops: int = 0

    @property
    def total_loss(self) -> float:
        """Sum of the four losses (one minus goodput)."""
        return self.checkpoint_overhead + self.lost_work + self.restart_loss + self.drain_loss


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
        def z() -> Floats:
            return np.zeros(size)

        return cls(
            z(), z(), z(), np.zeros(size, dtype=bool), z(), z(), z(), z(),
            np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int64),
        )  # fmt: skip


def _advance(tiers: _Tiers, run_length: float, state: _State, gap: Floats, soft: npt.NDArray[np.bool_]) -> None:
    """Take every run to its next interruption (gap minutes later) or to the end of the run, whichever is first.

    Parameters
    ----------
    tiers : _Tiers
        The inputs.
    run_length : float
        Wall time of each run, minutes.
    state : _State
        Updated in place.
    gap : ndarray
        Minutes from each run's clock to its next interruption.
    soft : ndarray of bool
        Whether that interruption is soft.
    """
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


def _replay(
    tiers: _Tiers, run_length: float, gaps: Floats, soft: npt.NDArray[np.bool_]
) -> tuple[Floats, npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Run the state machine on given interruption gaps (rows: steps, columns: runs); for tests.

    Returns
    -------
    fractions : ndarray
        Shape (5, runs): goodput, checkpoint, lost work, restart, drain per run.
    failures, hard : ndarray of int
        Interruptions and hard interruptions per run.
    """
    state = _State.fresh(gaps.shape[1])
    for gap, flag in zip(gaps, soft, strict=True):
        _advance(tiers, run_length, state, np.array(gap, dtype=np.float64), np.asarray(flag, dtype=bool))
    if np.any(state.clock < run_length):
        raise ValueError("the gaps end before the run does")
    return _fractions(tiers, run_length, state), state.failures, state.hard


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

    See the module docstring for the model. With the defaults (one tier, no
    drain) it is the single-level model of :mod:`goodput.simulate`.

    Parameters
    ----------
    checkpoint_cost : float
        C, minutes per fast snapshot (blocking).
    mtbi : float
        M, mean minutes between interruptions of the job.
    restart : float
        R, minutes to restart from the fast tier.
    interval : float
        T, minutes of compute between consecutive checkpoints of any tier.
    horizon : float
        Total simulated wall time in minutes, split into `replicas` runs.
    drain : float, optional
        D, minutes after a persistent snapshot ends until it is durable
        (0 <= D <= T; default 0, durable at once).
    persistent_cost : float, optional
        C_p >= C, minutes per persistent snapshot (default C).
    persistent_restart : float, optional
        R_p >= R, minutes to restart from the persistent tier (default R).
    fast_survives : float, optional
        s in [0, 1], the share of interruptions the fast tier survives (default 0).
    persistent_every : int, optional
        n >= 1: every n-th checkpoint is persistent (default 1: all are).
    just_in_time : float, optional
        p in [0, 1), the share of unplanned interruptions recovered just in time (default 0).
    jit_recovery : float, optional
        R_j, minutes a just-in-time recovery costs (default 0).
    planned_rate : float, optional
        q, planned stops per hour (default 0).
    planned_cost : float, optional
        S_q, minutes a planned stop costs; needed when q > 0.
    replicas : int, optional
        Independent runs (at least 2, default :data:`DEFAULT_REPLICAS`); the
        standard errors are over them.
    seed : int, optional
        Seed of :func:`numpy.random.default_rng` (default 0). Same inputs and seed, same result.
    progress : bool or callable, optional
        ``True`` shows a tqdm bar on stderr (only if the simulation takes longer
        than :data:`goodput.simulate.PROGRESS_DELAY_S` seconds); a callable is called after each
        block of steps with the simulated minutes it covered (over all runs).

    Returns
    -------
    TierResult
        Goodput, the four losses and their standard errors, and counts.

    Raises
    ------
    InputError
        For a zero, negative, NaN or infinite duration; a drain below 0 or above
        the interval; C_p < C or R_p < R; s outside [0, 1]; n not a whole number
        of at least 1; p outside [0, 1), a negative R_j, q or S_q (or no S_q with q > 0); fewer than 2 replicas; a negative seed; or a bad `progress`.

    Examples
    --------
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
            "horizon", f"{h:.6g} min",
            f"at least {MIN_RUN_RHYTHMS * n_runs * rhythm:.4g} min: each of the {n_runs} runs at least "
            f"{MIN_RUN_RHYTHMS:g} times a cycle and a persistent restart, or its estimate is biased by its ends",
        )
    if h / rolls > MAX_FAILURES:
        raise InputError("horizon", f"{h:.6g} min",
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
    means = fractions.mean(axis=1)
    errors = fractions.std(axis=1, ddof=1) / math.sqrt(n_runs)
    return TierResult(
        goodput=float(means[0]),
        stderr=float(errors[0]),
        checkpoint_overhead=float(means[1]),
        lost_work=float(means[2]),
        restart_loss=float(means[3]),
        drain_loss=float(means[4]),
        checkpoint_overhead_stderr=float(errors[1]),
        lost_work_stderr=float(errors[2]),
        restart_loss_stderr=float(errors[3]),
        drain_loss_stderr=float(errors[4]),
        failures=int(state.failures.sum()),
        hard_failures=int(state.hard.sum()),
        horizon=h,
        replicas=n_runs,
        run_length=run_length,
        seed=int(seed),
        recoveries=int(recoveries.sum()),
        planned_stops=int(planned.sum()),
    )
