"""Checkpoints that are not yet safe: asynchronous drains, and a fast tier beside a persistent one.

The scheme (:class:`Tiers`, minutes): every T of work a checkpoint; most are fast (block C,
restart R) and survive only a share s of interruptions; every n-th is persistent (block C_p,
restart R_p) and survives all, but only once durable, D after its snapshot. One tier with a
drain is n = 1, s = 0, C_p = C, R_p = R; without a drain it is the single-level model of
:mod:`goodput.model` and :mod:`goodput.exact`. The full statement is the book's chapter
"Checkpoints that are not yet safe"; :mod:`goodput.simulate_tiers` follows it independently.

First order (small C/T, T/M, R/M, D/M; :func:`goodput.symbolic.derive_tiers`)::

    loss = [(n - 1) C + C_p]/(nT) + s T/(2M) + (1 - s) nT/(2M)
           + [s R + (1 - s) R_p]/M + (1 - s) D/M,

checkpoint overhead, lost work, restart and drain; T* = max(sqrt(2M [(n - 1) C + C_p] /
(n [s + (1 - s) n])), D) and n* = sqrt(s (C_p - C) / ((1 - s) C)), the best whole n a
neighbour (the loss is convex in n).

Exact (exponential failures): a semi-Markov chain on the moments compute starts, position i
with the cycle's persistent checkpoint durable (``D_i``) or position 0 with it draining
(``P``); each attempt at T plus its snapshot succeeds with probability e^{-L/M}, and a hard
interruption during an R-restart makes it an R_p-restart. Goodput is sum(pi r) / sum(pi t)
over the stationary law pi (renewal-reward, though progress can go back). One tier, no drain:
the single-level exact goodput; with a drain, that times e^{-D/M}.

With a :class:`goodput.restart.Recovery` each model is the scheme's at M' = M / (1 - p) with
its pauses (planned stops cost :attr:`Tiers.stop_cost`). A checkpoint lost with the job
(share q) is a fast tier surviving 1 - q beside a persistent one with drain T + C
(:func:`lost_checkpoint_tiers`).
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from goodput import validate
from goodput.errors import InputError
from goodput.model import Losses
from goodput.units import format_duration

if TYPE_CHECKING:
    from goodput.restart import Recovery

#: Most fast checkpoints per persistent one that the optimum is searched over.
MAX_EVERY = 1_000


@dataclass(frozen=True)
class Tiers:
    """A checkpoint scheme: the fast tier, the persistent tier and the drain (minutes).

    ``persistent_cost`` None means one tier (C_p = C); ``persistent_restart`` None means R.
    Raises InputError for a duration not finite and positive (D may be 0), C_p < C, R_p < R,
    s outside [0, 1], n not a whole number from 1 to :data:`MAX_EVERY`, or s or n given
    without a persistent tier.

    >>> Tiers(1.0, 5.0, drain=5.0).one_tier
    True
    """

    checkpoint_cost: float
    restart: float
    drain: float = 0.0
    persistent_cost: float | None = None
    persistent_restart: float | None = None
    fast_survives: float = 0.0
    every: int = 1

    def __post_init__(self) -> None:
        c = validate.positive(self.checkpoint_cost, "checkpoint_cost", validate.POSITIVE_MINUTES)
        r = validate.positive(self.restart, "restart", validate.POSITIVE_MINUTES)
        d = validate.non_negative(self.drain, "drain", "a finite number of minutes, zero or more")
        n = validate.whole(self.every, "persistent_every")
        if n > MAX_EVERY:
            raise InputError("persistent_every", self.every, f"a whole number from 1 to {MAX_EVERY:,}")
        s = validate.share(self.fast_survives, "fast_survives")
        if self.persistent_cost is None:
            if self.persistent_restart is not None or s != 0.0 or n != 1:
                raise InputError("persistent_cost", None, "a value: a persistent restart, a share the fast tier "
                                 "survives or a cadence only apply with a persistent tier")
            cp, rp = c, r
        else:
            cp = validate.positive(self.persistent_cost, "persistent_cost", validate.POSITIVE_MINUTES)
            if cp < c:
                raise InputError("persistent_cost", self.persistent_cost,
                                 f"a persistent checkpoint no cheaper than the fast one ({format_duration(c)})")
            rp = r if self.persistent_restart is None else validate.positive(
                self.persistent_restart, "persistent_restart", validate.POSITIVE_MINUTES)
            if rp < r:
                raise InputError("persistent_restart", self.persistent_restart,
                                 f"a persistent restart no shorter than the fast restart ({format_duration(r)})")
        for name, value in (("checkpoint_cost", c), ("restart", r), ("drain", d), ("fast_survives", s), ("every", n)):
            object.__setattr__(self, name, value)
        object.__setattr__(self, "persistent_cost", None if self.persistent_cost is None else cp)
        object.__setattr__(self, "persistent_restart", None if self.persistent_cost is None else rp)

    @property
    def one_tier(self) -> bool:
        """Whether there is no persistent tier beside the fast one."""
        return self.persistent_cost is None

    @property
    def cp(self) -> float:
        """C_p (C for one tier)."""
        return self.checkpoint_cost if self.persistent_cost is None else self.persistent_cost

    @property
    def rp(self) -> float:
        """R_p (R for one tier)."""
        return self.restart if self.persistent_restart is None else self.persistent_restart

    @property
    def stop_cost(self) -> float:
        """S_q, minutes a planned stop costs: a durable checkpoint and the restart from it, with no lost work.

        One tier: C + R; a drain without a persistent tier: (C + D) + R; with a persistent tier: C_p + R_p
        (see :class:`goodput.restart.Recovery`).

        >>> Tiers(1.0, 5.0).stop_cost, Tiers(1.0, 5.0, drain=2.0).stop_cost
        (6.0, 8.0)
        >>> Tiers(1.0, 5.0, drain=2.0, persistent_cost=3.0, persistent_restart=20.0, fast_survives=0.5).stop_cost
        23.0
        """
        if self.one_tier:
            return (self.checkpoint_cost + self.drain) + self.restart
        return self.cp + self.rp

    @property
    def single_level(self) -> bool:
        """Whether this is the single-level model: one tier and no drain."""
        return self.one_tier and self.drain == 0.0

    def with_every(self, every: int) -> Tiers:
        """The same scheme with every `every`-th checkpoint persistent."""
        return dataclasses.replace(self, every=every)

    def check_interval(self, interval: float) -> float:
        """Return T (minutes) if finite, positive and D <= T + (C, or C_p when n = 1), else raise InputError.

        A checkpoint is safe once the next one is written at the latest. Plans ask T >= D (one drain in
        flight); the looser bound lets the model answer a checkpoint lost with the job (D = T + C).
        """
        t = validate.positive(interval, "interval", validate.POSITIVE_MINUTES)
        snapshot = self.checkpoint_cost if self.every > 1 else self.cp
        if t + snapshot < self.drain * (1.0 - 1e-12):
            raise InputError("interval", format_duration(t), f"at least the drain less the next snapshot, "
                             f"{format_duration(self.drain - snapshot)}, so that a drain ends before the next checkpoint does")
        return t


@dataclass(frozen=True)
class TierLosses(Losses):
    """Where the wall time goes under a checkpoint scheme, as fractions of wall time (they sum to one).

    T is minutes of work between two checkpoints of any tier; ``lost_work`` excludes what the
    drain loses; ``drain_loss`` is work and snapshots discarded because a persistent checkpoint
    was not yet durable; ``restart_loss`` includes restarts cut short.
    """

    every: int
    drain_loss: float

    @property
    def total(self) -> float:
        """Sum of the four losses."""
        return super().total + self.drain_loss


# --------------------------------------------------------------------------- first order


def first_order_losses(tiers: Tiers, mtbi: float, interval: float, recovery: Recovery | None = None) -> TierLosses:
    """The four losses to first order (see the module docstring); T no shorter than the drain.

    With `recovery`, the losses at M' = M / (1 - p) plus the pauses
    (:meth:`goodput.restart.Recovery.first_order`). One tier, no drain: C/T, T/(2M), R/M.

    >>> b = first_order_losses(Tiers(1.0, 5.0, drain=5.0), 185.6, 19.3)
    >>> round(100 * b.drain_loss, 1)
    2.7
    """
    m = validate.positive(mtbi, "mtbi", validate.POSITIVE_MINUTES)
    if recovery is not None and recovery.active:
        return recovery.first_order(first_order_losses(tiers, recovery.rollback_mtbi(m), interval), m,
                                    tiers.stop_cost)
    t = tiers.check_interval(interval)
    n, s, c, r = tiers.every, tiers.fast_survives, tiers.checkpoint_cost, tiers.restart
    return TierLosses(
        interval=t,
        every=n,
        checkpoint_overhead=((n - 1) * c + tiers.cp) / (n * t),
        lost_work=(s + (1.0 - s) * n) * t / (2.0 * m),
        restart_loss=(s * r + (1.0 - s) * tiers.rp) / m,
        drain_loss=(1.0 - s) * tiers.drain / m,
    )


def first_order_optimal_interval(tiers: Tiers, mtbi: float, recovery: Recovery | None = None) -> float:
    """T* = max(sqrt(2M [(n - 1) C + C_p] / (n [s + (1 - s) n])), D), the first-order optimum for the scheme's n.

    With `recovery`, at M' = M / (1 - p) (the pauses add a constant). sqrt(2CM) for one tier, no drain.
    """
    m = validate.positive(mtbi, "mtbi", validate.POSITIVE_MINUTES)
    if recovery is not None:
        m = recovery.rollback_mtbi(m)
    n, s = tiers.every, tiers.fast_survives
    free = math.sqrt(2.0 * m * ((n - 1) * tiers.checkpoint_cost + tiers.cp) / (n * (s + (1.0 - s) * n)))
    return max(free, tiers.drain)


def first_order_every(tiers: Tiers) -> float:
    """n* = sqrt(s (C_p - C) / ((1 - s) C)), the continuous first-order cadence (drain aside; the scheme's n is ignored).

    Infinite when s = 1 (the persistent tier is never needed), 0 when s = 0 or C_p = C.
    """
    s, c = tiers.fast_survives, tiers.checkpoint_cost
    if s >= 1.0:
        return math.inf
    return math.sqrt(s * (tiers.cp - c) / ((1.0 - s) * c))


# --------------------------------------------------------------------------- exact


@dataclass(frozen=True)
class _Steps:
    """The embedded chain's per-state quantities (state 0..n-1 = D_i, state n = P)."""

    weight: np.ndarray  # stationary weights (any scale)
    reward: np.ndarray  # expected progress per step, minutes of work
    time: np.ndarray  # expected wall time per step
    restart: np.ndarray  # expected restart time per step
    drain: np.ndarray  # expected time of work and snapshots lost to the drain per step


def _restart_phases(tiers: Tiers, m: float) -> tuple[float, float, float, float]:
    """After a soft interruption: the R-phase time, the chance it ends well and its complement, the R_p-phase time.

    The complement is computed as such, so that 1 - s * ok has no cancellation at s = 1.
    """
    s = tiers.fast_survives
    fail = -math.expm1(-tiers.restart / m)
    ends = math.exp(-tiers.restart / m) + (1.0 - s) * fail  # the R-phase ends: done, or a hard interruption
    return (m * fail / ends, math.exp(-tiers.restart / m) / ends, (1.0 - s) * fail / ends,
            m * math.expm1(tiers.rp / m))


def _steps(tiers: Tiers, m: float, t: float | np.ndarray) -> _Steps:
    # Every probability is computed as itself, never as one minus its complement: the chance to stay put on a
    # soft interruption tends to one when s = 1 and (T + C)/M is large, and 1 - stay would cancel to zero (a
    # division by zero and NaN). The stationary weights are built in logarithms and scaled to a largest of one.
    n, s = tiers.every, tiers.fast_survives
    rho, ok, not_ok, rho_p = _restart_phases(tiers, m)
    soft_restart = rho + not_ok * rho_p  # expected restart time after a soft interruption
    cycle_time = n * t + (n - 1) * tiers.checkpoint_cost + tiers.cp  # work and snapshots of one cycle
    states = n + 1
    # T may be a 1-d array of intervals (the coarse scan of exact_optimal_interval): every
    # per-state array then has a row per interval, each row computed by the same operations as a single T.
    column = np.asarray(t, dtype=np.float64)[..., None]
    length = np.repeat(column + tiers.checkpoint_cost, states, axis=-1)
    length[..., n - 1] = column[..., 0] + tiers.cp  # D_{n-1} attempts the persistent segment
    length[..., n] = length[..., 0]  # P attempts the cycle's first segment
    log_keep = -length / m  # the attempt succeeds, in logarithms (exact, and never underflows)
    keep = np.exp(log_keep)
    fail = -np.expm1(log_keep)
    stay = fail * s * ok  # a soft interruption, restarted from the same checkpoint
    back = fail * (s * not_ok + (1.0 - s))  # back to the durable persistent checkpoint, D_0
    leaves = keep + back  # 1 - stay, without the cancellation
    restart = fail * (s * soft_restart + (1.0 - s) * rho_p)
    time = m * fail + restart
    position = np.arange(states, dtype=np.float64)
    reward = keep * column - back * position * column
    drain = np.zeros(length.shape)
    pending = tiers.drain > 0.0
    if pending:  # P: an interruption before the drain ends, and a later one
        early = -math.expm1(-tiers.drain / m)
        late = math.exp(-tiers.drain / m) * -np.expm1(-np.maximum(length[..., n] - tiers.drain, 0.0) / m)
        stay[..., n] = early * s * ok
        lost = early * (s * not_ok + (1.0 - s))
        leaves[..., n] = keep[..., n] + lost + late
        reward[..., n] = keep[..., n] * column[..., 0] - lost * n * column[..., 0]
        drain[..., n] = lost * cycle_time
    with np.errstate(divide="ignore"):
        log_leaves = np.log(leaves)
    # Stationary weights with w(D_0) = 1: the chain runs D_0 -> D_1 -> ... -> D_{n-1} -> P (or D_0) -> D_1 ...,
    # staying put on a soft interruption and falling back to D_0 otherwise.
    # w_i = (keep_0 w_0 + keep_P w_P) G_i for i >= 1: G_1 = 1/(1 - stay_1), G_{i+1} = G_i keep_i/(1 - stay_{i+1}).
    log_gain = np.zeros((*length.shape[:-1], n))
    if n > 1:
        log_gain[..., 1:] = np.cumsum(np.concatenate((np.zeros((*length.shape[:-1], 1)), log_keep[..., 1 : n - 1]), axis=-1)
                                      - log_leaves[..., 1:n], axis=-1)
    log_w = np.full(length.shape, -np.inf)
    log_w[..., 0] = 0.0
    if pending:
        # w_P (1 - stay_P) = (keep_0 w_0 + keep_P w_P) loop, with loop = G_{n-1} keep_{n-1} <= 1 (or 1 when n = 1:
        # D_0 -> P and P -> P on success). When P never falls back to D_0 (every interruption before the drain
        # soft, and none after it), D_0 is left for good: the chain lives on P and the positions after it.
        log_loop = log_gain[..., n - 1] + log_keep[..., n - 1] if n > 1 else np.zeros(length.shape[:-1])
        leave = keep[..., n] * -np.expm1(np.minimum(log_loop, 0.0)) + (leaves[..., n] - keep[..., n])
        returns = leave > 1e-300
        log_w[..., n] = np.where(returns, log_keep[..., 0] + log_loop - np.log(np.where(returns, leave, 1.0)), 0.0)
        log_w[..., 0] = np.where(returns, 0.0, -np.inf)
    if n > 1:
        log_in = np.logaddexp(log_keep[..., 0] + log_w[..., 0], log_keep[..., n] + log_w[..., n] if pending else -np.inf)
        log_w[..., 1:n] = log_in[..., None] + log_gain[..., 1:n]
    w = np.exp(log_w - np.max(log_w, axis=-1, keepdims=True))
    return _Steps(weight=w, reward=reward, time=time, restart=restart, drain=drain)


def exact_losses(tiers: Tiers, mtbi: float, interval: float, recovery: Recovery | None = None) -> TierLosses:
    """The four losses for exponential failures, from the chain of the module docstring (T no shorter than the drain).

    With `recovery`, at M' = M / (1 - p) with the pauses (:meth:`goodput.restart.Recovery.exact`).
    One tier, no drain: :func:`goodput.exact.exact_losses`.

    >>> b = exact_losses(Tiers(1.0, 5.0), 185.6, 18.6)
    >>> round(100 * b.goodput, 1)
    87.6
    """
    m = validate.positive(mtbi, "mtbi", validate.POSITIVE_MINUTES)
    if recovery is not None and recovery.active:
        return recovery.exact(exact_losses(tiers, recovery.rollback_mtbi(m), interval), m, tiers.stop_cost)
    t = tiers.check_interval(interval)
    if not tiers.one_tier and tiers.fast_survives == 1.0:
        return _every_interruption_soft(tiers, m, t)
    return _chain_losses(tiers, t, _steps(tiers, m, t))


def _chain_losses(tiers: Tiers, t: float, steps: _Steps) -> TierLosses:
    """The losses at interval T from the chain's per-state quantities at T."""
    return _chain_rows(tiers, np.asarray(t), steps)[0]


def _chain_rows(tiers: Tiers, t: np.ndarray, steps: _Steps) -> list[TierLosses]:
    """The losses at each interval of `t`, from the chain's per-state quantities, a row per interval."""
    def per_step(x: np.ndarray) -> np.ndarray:
        return np.atleast_1d(np.einsum("...i,...i->...", steps.weight, x))

    wall = per_step(steps.time)
    progress = np.maximum(0.0, per_step(steps.reward) / wall)
    n = tiers.every
    overhead = progress * ((n - 1) * tiers.checkpoint_cost + tiers.cp) / (n * np.atleast_1d(t))
    restart, drain = per_step(steps.restart) / wall, per_step(steps.drain) / wall
    lost = np.maximum(0.0, 1.0 - progress - overhead - restart - drain)
    return [TierLosses(interval=float(x), every=n, checkpoint_overhead=float(o), lost_work=float(w),
                       restart_loss=float(r), drain_loss=float(d))
            for x, o, w, r, d in zip(np.atleast_1d(t), overhead, lost, restart, drain, strict=True)]


def _every_interruption_soft(tiers: Tiers, m: float, t: float) -> TierLosses:
    """The losses when the fast tier survives every interruption (s = 1), in closed form.

    Every interruption restarts from the latest checkpoint, so the persistent tier and the drain
    never matter and each segment of length L (its work and snapshot) costs the single-level
    M e^{R/M} (e^{L/M} - 1) of wall time. Goodput is nT over the cycle's wall time,
    restart 1 - e^{-R/M}, no drain loss. Worked in logarithms, so that no e^{L/M} overflows.
    """
    n = tiers.every
    a = (t + tiers.checkpoint_cost) / m  # a fast segment
    b = (t + tiers.cp) / m  # the persistent segment, b >= a
    inner = (n - 1) * (math.exp(a - b) - math.exp(-b)) - math.expm1(-b)  # cycle's (e^{L/M} - 1) summed, / e^b
    log_wall = tiers.restart / m + b + math.log(inner)  # wall time of one cycle / M, in logarithms
    goodput = math.exp(math.log(n * t / m) - log_wall)
    overhead = goodput * ((n - 1) * tiers.checkpoint_cost + tiers.cp) / (n * t)
    restart = -math.expm1(-tiers.restart / m)
    return TierLosses(interval=t, every=n, checkpoint_overhead=overhead,
                      lost_work=max(0.0, 1.0 - goodput - overhead - restart), restart_loss=restart, drain_loss=0.0)


def exact_goodput(tiers: Tiers, mtbi: float, interval: float, recovery: Recovery | None = None) -> float:
    """Goodput for exponential failures (see :func:`exact_losses`)."""
    return exact_losses(tiers, mtbi, interval, recovery).goodput


def exact_optimal_interval(tiers: Tiers, mtbi: float, recovery: Recovery | None = None) -> float:
    """The interval that maximizes exact goodput for the scheme's n, no shorter than the drain.

    A coarse scan in log T around the first-order optimum, refined by Brent's bounded method to
    about 1e-9 relative. One tier: the single-level Lambert-W optimum (the drain multiplies
    goodput by e^{-D/M} whatever T), raised to D if longer.
    """
    m = validate.positive(mtbi, "mtbi", validate.POSITIVE_MINUTES)
    return _exact_optimal_interval(tiers, m, recovery)


def _refine(goodput: Callable[[float], float], grid: np.ndarray, values: np.ndarray) -> tuple[int, float, float]:
    """The grid's best point, then Brent's bounded method in log T between its neighbours (about 1e-9 relative).

    Returns the best point's index, the interval found and its goodput.
    """
    from scipy.optimize import minimize_scalar  # kept off the import path

    best = int(np.argmax(values))
    a = math.log(grid[max(best - 1, 0)])
    b = math.log(grid[min(best + 1, grid.size - 1)])
    if b - a < 1e-12:
        return best, float(grid[best]), float(values[best])
    found = minimize_scalar(lambda u: -goodput(math.exp(u)), bounds=(a, b), method="bounded", options={"xatol": 1e-10})
    return best, float(math.exp(found.x)), -float(found.fun)


# A plan asks for the interval of the cadence best_every chose, which best_every found already, and the figures
# and tests ask again for the same fleet: the search (some fifty exact goodputs) is done once per inputs.
@functools.lru_cache(maxsize=4096)
def _exact_optimal_interval(tiers: Tiers, m: float, recovery: Recovery | None) -> float:
    guess = first_order_optimal_interval(tiers, m, recovery)
    low = max(tiers.drain, guess / 30.0)
    high = max(low * 1.0001, min(guess * 30.0, 30.0 * (m if recovery is None else recovery.rollback_mtbi(m))))
    grid = np.geomspace(low, high, 49)
    if tiers.one_tier or tiers.fast_survives < 1.0:  # the chain of exact_losses, every T of the scan at once
        active = recovery is not None and recovery.active
        scan = _steps(tiers, recovery.rollback_mtbi(m) if recovery is not None and active else m, grid)
        rows = _chain_rows(tiers, grid, scan)
        values = np.array([(recovery.exact(losses, m, tiers.stop_cost) if recovery is not None and active else losses)
                           .goodput for losses in rows])
    else:
        values = np.array([exact_goodput(tiers, m, float(t), recovery) for t in grid])
    best, t, value = _refine(lambda t: exact_goodput(tiers, m, t, recovery), grid, values)
    if best == 0 and tiers.drain > 0 and grid[0] == tiers.drain and \
            value <= exact_goodput(tiers, m, tiers.drain, recovery):
        return tiers.drain  # the optimum is the constraint T >= D (Brent's bounded method never lands on a bound)
    return t


def best_every(tiers: Tiers, mtbi: float, *, which: str = "exact", recovery: Recovery | None = None) -> Tiers:
    """The whole cadence n >= 1 that gives the most goodput, each n at its own best interval.

    The scheme's n is ignored (one tier has only n = 1); `which` is "exact" or "first-order".
    n = 1 means the fast checkpoints between persistent ones do not pay.
    """
    if tiers.one_tier:
        return tiers
    m = validate.positive(mtbi, "mtbi", validate.POSITIVE_MINUTES)
    which = validate.choice(which, "model", ("first-order", "exact"))

    def value(n: int) -> float:
        scheme = tiers.with_every(n)
        if which == "exact":
            return exact_goodput(scheme, m, exact_optimal_interval(scheme, m, recovery), recovery)
        return first_order_losses(scheme, m, first_order_optimal_interval(scheme, m, recovery), recovery).goodput

    if tiers.fast_survives == 1.0:  # no interruption needs the persistent tier: the fewer of them, the better
        return tiers.with_every(MAX_EVERY)
    guess = first_order_every(tiers)
    centre = max(1, min(MAX_EVERY, round(guess))) if math.isfinite(guess) else MAX_EVERY
    return tiers.with_every(peak(value, centre, MAX_EVERY))


def peak(value: Callable[[int], float], start: int, top: int) -> int:
    """The whole n in [1, top] with the most `value`, for a value single-peaked in n, searched from `start`.

    From `start`, goes the way the value rises in strides that double (1, 2, 4, ...) until it stops rising, then
    narrows that bracket by halving its wider side: at most about 3 log2 d values for a peak d away, where a walk of
    single steps needs d. The first-order cadence can sit hundreds of steps from the exact one (an interval pinned at the
    drain). A value that is not larger, NaN included, counts as no rise, so a tie keeps the n found first.

    >>> peak(lambda n: -(n - 399) ** 2, 7, 1000), peak(lambda n: -n, 7, 1000), peak(lambda n: n, 7, 1000)
    (399, 1, 1000)
    """
    seen: dict[int, float] = {}

    def at(n: int) -> float:  # nothing lies past the bounds
        if n not in seen:
            seen[n] = value(n) if 1 <= n <= top else -math.inf
        return seen[n]

    for step in (-1, 1):
        if not at(start + step) > at(start):
            continue
        low, best, stride = start, start + step, 2
        while True:  # stride out until the value stops rising, or past the bound
            far = min(max(start + step * stride, 1), top)
            if far == best:
                far = best + step
            if not at(far) > at(best):
                break
            low, best, stride = best, far, stride * 2
        low, high = sorted((low, far))  # the peak lies strictly between: at(best) rose from one end and not to the other
        while high - low > 2:
            probe = (best + high) // 2 if high - best > best - low else (low + best + 1) // 2
            if at(probe) > at(best):
                low, high = (best, high) if probe > best else (low, best)
                best = probe
            elif probe > best:
                high = probe
            else:
                low = probe
        return best
    return start


# --------------------------------------------------------------------------- a checkpoint lost with the job


def lost_checkpoint_tiers(checkpoint_cost: float, restart: float, lost_share: float, interval: float) -> Tiers:
    """A checkpoint that a share q of interruptions takes with the job, as two tiers at interval T.

    The latest checkpoint survives s = 1 - q; the one before survives all, being safe once the
    next is written: ``Tiers(C, R, drain=T + C, persistent_cost=C, fast_survives=1 - q)``. To
    first order it loses q (T + C)/M more than the single-level model; q = 0 is that model.
    Raises InputError for a non-positive duration or q outside [0, 1].
    """
    q = validate.share(lost_share, "lost_share")
    c = validate.positive(checkpoint_cost, "checkpoint_cost", validate.POSITIVE_MINUTES)
    t = validate.positive(interval, "interval", validate.POSITIVE_MINUTES)
    return Tiers(c, restart, drain=t + c, persistent_cost=c, fast_survives=1.0 - q)


def lost_checkpoint_optimal_interval(checkpoint_cost: float, mtbi: float, restart: float, lost_share: float) -> float:
    """The interval that maximizes exact goodput when a share q of interruptions also takes the latest checkpoint.

    The drain T + C moves with T, so this maximizes :func:`exact_goodput` of
    ``lost_checkpoint_tiers(C, R, q, T)`` over T (scan in log T, then Brent to about 1e-9).
    About sqrt(2CM/(1 + 2q)) for small C/M (first-order loss C/T + T/(2M) + q (T + C)/M + R/M).

    >>> round(lost_checkpoint_optimal_interval(1.0, 185.6, 5.0, 0.0), 2)
    18.61
    """
    m = validate.positive(mtbi, "mtbi", validate.POSITIVE_MINUTES)
    c = validate.positive(checkpoint_cost, "checkpoint_cost", validate.POSITIVE_MINUTES)
    q = validate.share(lost_share, "lost_share")

    def goodput(t: float) -> float:
        return exact_goodput(lost_checkpoint_tiers(c, restart, q, t), m, t)

    guess = math.sqrt(2.0 * c * m / (1.0 + 2.0 * q))
    grid = np.geomspace(guess / 30.0, max(guess / 30.0 * 1.0001, min(guess * 30.0, 30.0 * m)), 49)
    return _refine(goodput, grid, np.array([goodput(float(t)) for t in grid]))[1]


# --------------------------------------------------------------------------- when a fast tier pays


def fast_tier_pays_from(tiers: Tiers, mtbi: float, *, tolerance: float = 1e-4) -> float | None:
    """The least share of interruptions the fast tier must survive for fast checkpoints to pay (exact model).

    Below it :func:`best_every` gives n = 1; the best n does not fall as s grows, so bisection on
    s (the scheme's s and n ignored) returns the upper end of the final bracket, of width
    `tolerance`. None for one tier or C_p = C.

    >>> s = fast_tier_pays_from(Tiers(1.0, 5.0, persistent_cost=5.0), 185.6)
    >>> 0.3 < s < 0.5
    True
    """
    if tiers.one_tier or tiers.cp <= tiers.checkpoint_cost:
        return None
    m = validate.positive(mtbi, "mtbi", validate.POSITIVE_MINUTES)

    def pays(s: float) -> bool:
        return best_every(dataclasses.replace(tiers, fast_survives=s, every=1), m).every > 1

    # At s = 0 fast checkpoints survive nothing and n = 1 is best. First order puts the threshold where
    # n* = 1.5 (halfway to 2), at s / (1 - s) = 2.25 C / (C_p - C): bracket from there, moving up if need be.
    ratio = 2.25 * tiers.checkpoint_cost / (tiers.cp - tiers.checkpoint_cost)
    low, high = 0.0, ratio / (1.0 + ratio)
    while not pays(high):
        low, high = high, 1.0 - (1.0 - high) / 2.0
        if 1.0 - high < 1e-12:
            return None
    while high - low > tolerance:
        middle = 0.5 * (low + high)
        if pays(middle):
            high = middle
        else:
            low = middle
    return high
