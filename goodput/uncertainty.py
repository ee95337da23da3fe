"""How uncertain the inputs are, and what that does to T* and goodput.

M estimated from 419 interruptions is a count over a window, so it carries
Poisson counting error; C and R are medians or means of measured samples, or
ranges stated by whoever knows the platform. This module turns each into an
interval and carries the intervals through the first-order or the exact model.

Intervals
---------
:func:`poisson_interval`
    The exact (Garwood 1936) two-sided interval for M = exposure / count. The
    rate interval is ``[chi2(a/2; 2k) / 2E, chi2(1 - a/2; 2k + 2) / 2E]`` for
    ``k`` failures over exposure ``E`` and ``a = 1 - confidence``; M is its
    reciprocal, so the ends swap. With no failure at all there is no point
    estimate (M is infinite) and only a lower bound,
    ``E / ln(2 / a)`` (the same two-sided formula, whose lower rate end is 0):
    about ``E / 3.69`` at 95%.
:func:`median_interval`
    The distribution-free interval for a median from order statistics
    (binomial with p = 1/2): the same as ``scipy.stats.quantile_test``.
:func:`mean_interval`
    Student's t interval for a mean.

Propagation
-----------
:func:`propagate` takes a point value and a range for each of C, M and R and
returns the point value and the range of T* = sqrt(2CM) and of first-order
goodput. Over a box of inputs the range is found at the corners, because every
quantity here is monotone in each input separately: T* increases with C and
with M; goodput at the optimum, ``1 - sqrt(2C/M) - R/M``, and goodput at a
fixed interval T, ``1 - C/T - T/(2M) - R/M``, both decrease with C and R and
increase with M. A function monotone in each coordinate takes its minimum and
maximum over a box at corners, so the eight corners suffice and no grid is
needed. The exact model of exponential failures is monotone in the same
directions (its goodput at a fixed T is T e^{-R/M} / (M (e^{(T+C)/M} - 1)),
and M (e^{a/M} - 1) falls as M grows), so ``which="exact"`` uses the same
corners. The range says what the inputs allow; it is not a probability.

A fleet with a drain or a persistent tier passes its scheme (``scheme=``, a
:class:`~goodput.tiers.Tiers` with its cadence n): each corner is then the
same scheme with that corner's C and R (drain, C_p, R_p, s and n held), by
the tier model of :mod:`goodput.tiers`, whose goodput moves in the same
directions with C, M and R.

:func:`monte_carlo` is the probabilistic alternative: M drawn from the
Jeffreys posterior of the Poisson rate, C and R (and, for a fleet, every
other input with a range) uniform over their ranges, with a seeded
generator; it returns percentiles.

From a parameters file
----------------------
:func:`input_ranges` says what range each input a fleet has
(:func:`fleet_points`: C, M, R, the slow checkpoint, and the drain D, C_p,
R_p, s and p where the fleet has them) has and where it came from: M's
Poisson interval when M is a count over a window, else a stated
``ranges: {mtbi: ...}``; every other input from ``ranges:``; an input with no
range is exact. :func:`propagate_params` carries the plan's inputs through
the fleet's own plan (:func:`goodput.plan.plan_for`), the whole scheme: at
each case's own optimum the interval is chosen again, and the persistent
cadence where the plan chooses it; at a fixed interval the plan's cadence is
kept. Goodput falls with C, R, D, C_p and R_p and rises with M, s and p, so
its range is found at two corners of the box, which are always computed; T*
need not move one way once the cadence is chosen again, so its range is over
the corners computed: all 2**k of them up to k = :data:`MAX_CORNER_INPUTS`
inputs with a range, beyond that a seeded, balanced sample of 64
(:func:`box_corners`), with each input's two ends alone. :func:`one_at_a_time`
moves one input at a time over its range, the others held at their point
values, to show which input's range dominates the range of goodput (a
tornado table).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
from scipy.special import gammaincinv, stdtrit

from goodput import model, tiers, validate
from goodput.errors import InputError, Refused
from goodput.exact import MODELS, model_functions
from goodput.tiers import Tiers

if TYPE_CHECKING:
    from goodput.params import Params

#: A stated range (low, high) in minutes.
Range = tuple[float, float]


def _check_confidence(confidence: float) -> float:
    return validate.share(confidence, "confidence", open_low=True, open_high=True)


def poisson_interval(count: int, exposure: float, confidence: float = 0.95) -> Range:
    """Exact (Garwood) confidence interval for the mean time between failures.

    Parameters
    ----------
    count : int
        Failures observed, zero or more.
    exposure : float
        Time over which they were observed (any unit; the interval comes back
        in the same unit).
    confidence : float, optional
        Two-sided confidence level (default 0.95).

    Returns
    -------
    tuple of float
        ``(low, high)`` for M = exposure / count:
        ``low = 2E / chi2.ppf(1 - a/2, 2k + 2)`` and
        ``high = 2E / chi2.ppf(a/2, 2k)`` with ``a = 1 - confidence``.
        For ``count == 0``, ``high`` is ``inf`` and ``low = E / ln(2/a)``.

    Raises
    ------
    InputError
        If the count is not a whole number >= 0, the exposure not finite and
        > 0, or the confidence not in (0, 1).

    Examples
    --------
    >>> low, high = poisson_interval(419, 54 * 24 * 60)
    >>> round(low, 1), round(high, 1)
    (168.6, 204.7)
    """
    k = validate.whole(count, "count", 0)
    exposure = validate.positive(exposure, "exposure", "a finite time greater than zero")
    alpha = 1.0 - _check_confidence(confidence)
    # chi2.ppf(p, 2k) = 2 gammaincinv(k, p): the Garwood ends, with scipy.special (scipy.stats is slow to import).
    low = exposure / float(gammaincinv(k + 1, 1.0 - alpha / 2.0))
    high = math.inf if k == 0 else exposure / float(gammaincinv(k, alpha / 2.0))
    return low, high


def quartiles(samples: npt.ArrayLike) -> Range:
    """The lower and upper quartile of a sample: the middle half of what a log measured.

    Parameters
    ----------
    samples : array_like
        Values (any number, none included).

    Returns
    -------
    tuple of float
        ``(25th percentile, 75th percentile)``, linearly interpolated; ``(nan, nan)`` for no samples.

    Examples
    --------
    >>> quartiles([1.0, 2.0, 3.0, 4.0, 5.0]), quartiles([])
    ((2.0, 4.0), (nan, nan))
    """
    x = np.asarray(samples, dtype=np.float64).ravel()
    if x.size == 0:
        return math.nan, math.nan
    low, high = np.percentile(x, [25.0, 75.0])
    return float(low), float(high)


def median_interval(samples: npt.ArrayLike, confidence: float = 0.95) -> Range:
    """Distribution-free confidence interval for a median, from order statistics.

    With ``n`` sorted samples ``x[0] <= ... <= x[n-1]`` and ``B ~ Binomial(n, 1/2)``,
    ``(x[j-1], x[n-j])`` covers the median with probability ``1 - 2 P(B <= j - 1)``;
    ``j`` is the largest rank for which that is at least `confidence`. This is
    :func:`scipy.stats.quantile_test`'s interval for the median.

    Parameters
    ----------
    samples : array_like
        Finite values, at least one.
    confidence : float, optional
        Two-sided confidence level (default 0.95).

    Returns
    -------
    tuple of float
        ``(low, high)``. Below six samples a 95% interval is out of reach and
        the result is ``(min, max)``, whose coverage is ``1 - 2**(1 - n)``.

    Raises
    ------
    InputError
        If there are no samples, a sample is not finite, or the confidence is
        not in (0, 1).

    Examples
    --------
    >>> median_interval(range(20))
    (5.0, 14.0)
    """
    x = np.asarray(samples, dtype=np.float64).ravel()
    if x.size == 0 or not np.all(np.isfinite(x)):
        raise InputError("samples", f"{x.size} values", "at least one finite value")
    from scipy import stats  # kept off the import path: about two seconds

    found = stats.quantile_test(x, q=float(np.median(x)), p=0.5).confidence_interval(_check_confidence(confidence))
    if np.isnan(found.low) or np.isnan(found.high):  # too few samples for the level: the whole range
        return float(x.min()), float(x.max())
    return float(found.low), float(found.high)


def mean_interval(samples: npt.ArrayLike, confidence: float = 0.95) -> Range:
    """Student's t confidence interval for a mean.

    Parameters
    ----------
    samples : array_like
        Finite values, at least two.
    confidence : float, optional
        Two-sided confidence level (default 0.95).

    Returns
    -------
    tuple of float
        ``mean -/+ t(1 - a/2; n - 1) s / sqrt(n)``.

    Raises
    ------
    InputError
        If there are fewer than two samples, or one is not finite.
    """
    x = np.asarray(samples, dtype=np.float64).ravel()
    if x.size < 2 or not np.all(np.isfinite(x)):
        raise InputError("samples", f"{x.size} values", "at least two finite values")
    alpha = 1.0 - _check_confidence(confidence)
    mean = float(x.mean())
    half = float(stdtrit(x.size - 1, 1.0 - alpha / 2.0)) * float(x.std(ddof=1)) / math.sqrt(x.size)
    return mean - half, mean + half


def _pair(name: str, given: object) -> Range:
    try:
        low, high = (float(v) for v in given)  # type: ignore[attr-defined]
    except (TypeError, ValueError):
        raise InputError(name, given, "a pair (low, high) of minutes") from None
    if not (math.isfinite(low) and math.isfinite(high) and 0 < low <= high):
        raise InputError(name, given, "finite minutes with 0 < low <= high")
    return low, high


def _range(name: str, point: float, given: Range | None) -> Range:
    if not math.isfinite(point) or point <= 0:
        raise InputError(name, point, "a finite number of minutes greater than zero")
    if given is None:
        return point, point
    low, high = _pair(f"{name}_range", given)
    if not low <= point <= high:
        raise InputError(f"{name}_range", given, f"a range containing the point value {point:g}")
    return low, high


#: Every input a range can be given for, in the order tables show them. All but the slow checkpoint are inputs of
#: the fleet's plan; the slow checkpoint enters only the comparison with it.
INPUTS = ("checkpoint_cost", "mtbi", "restart", "drain", "persistent_cost", "persistent_restart", "fast_survives",
          "just_in_time", "slow_checkpoint_cost")

#: The inputs of the plan itself, whose ranges are carried to T* and goodput.
PLAN_INPUTS = INPUTS[:-1]

#: The inputs that are shares of interruptions (from 0 to 1), not minutes.
SHARES = ("fast_survives", "just_in_time")

#: Which way goodput moves as each input of the plan grows: +1 up, -1 down.
DIRECTIONS = {"checkpoint_cost": -1, "mtbi": 1, "restart": -1, "drain": -1, "persistent_cost": -1,
              "persistent_restart": -1, "fast_survives": 1, "just_in_time": 1}

#: Most inputs with a range whose 2**k corners are all computed (64 corners). With more, a seeded, balanced
#: sample of 2**MAX_CORNER_INPUTS corners is computed, with the two corners where every input is at its worst,
#: or its best, always among them (see :func:`box_corners`).
MAX_CORNER_INPUTS = 6

Values = dict[str, float]


def _key(values: Mapping[str, float], interval: float | None) -> tuple[Any, ...]:
    return (*sorted(values.items()), interval)


def _clamp(goodput: float) -> float:
    """Goodput held in [0, 1]: first order below zero at a corner of the box is no goodput there, not less."""
    return min(1.0, max(0.0, float(goodput)))


class _SchemeCases:
    """Cases of C, M and R alone: the one-tier models, or a scheme with each case's C and R (the rest held)."""

    def __init__(self, which: str, scheme: Tiers | None) -> None:
        self.which, self.scheme = which, scheme

    def optimum(self, values: Mapping[str, float]) -> float:
        return _optimum(self.which, self.scheme, values["checkpoint_cost"], values["mtbi"], values["restart"])

    def goodput(self, values: Mapping[str, float], interval: float | None) -> float:
        return _goodput(self.which, self.scheme, values["checkpoint_cost"], values["mtbi"], values["restart"], interval)


class _FleetCases:
    """Cases of a fleet's inputs, each computed as the fleet's own plan would be (memoized).

    At its own optimum a case is :func:`goodput.plan.plan_for` of the fleet's inputs with the case's values: the
    interval and, where the plan chooses it, the persistent cadence chosen again. At a fixed interval T a case
    keeps the plan's cadence n and its interval, lengthened to the case's drain where that is longer (one drain in
    flight at a time, T >= D, as the plan asks).
    """

    def __init__(self, params: Params, which: str, every: int | None) -> None:
        self.params, self.which, self.every = params, which, every
        self._best: dict[tuple[Any, ...], Any] = {}
        self._fixed: dict[tuple[Any, ...], float] = {}

    def inputs(self, values: Mapping[str, float]) -> Params:
        """The fleet's inputs with the case's values; C_p and R_p kept no smaller than C and R."""
        x = self.params.replace(**{k: v for k, v in values.items() if k in PLAN_INPUTS})
        if x.persistent_cost is not None:
            x = x.replace(persistent_cost=max(x.persistent_cost, x.checkpoint_cost),
                          persistent_restart=max(x.persistent_restart or x.restart, x.restart))
        return x

    def best(self, values: Mapping[str, float]) -> Any:
        """The plan of the case at its own optimum, or None where the plan refuses it as out of scale."""
        from goodput.plan import plan_for

        key = _key(values, None)
        if key not in self._best:
            try:
                self._best[key] = plan_for(self.inputs(values), which=self.which)
            except Refused:  # interruptions so frequent that the job keeps essentially no work: no plan, no goodput
                self._best[key] = None
        return self._best[key]

    def optimum(self, values: Mapping[str, float]) -> float:
        best = self.best(values)
        return math.nan if best is None else float(best.optimal_interval)

    def goodput(self, values: Mapping[str, float], interval: float | None) -> float:
        if interval is None:
            best = self.best(values)
            return 0.0 if best is None else _clamp(best.goodput)
        key = _key(values, interval)
        if key not in self._fixed:
            try:
                self._fixed[key] = _clamp(self.at_interval(self.inputs(values), interval))
            except Refused:
                self._fixed[key] = 0.0
        return self._fixed[key]

    def at_interval(self, x: Params, interval: float) -> float:
        """Goodput of the inputs `x` at the interval (no shorter than their drain) with the plan's cadence."""
        from goodput.plan import _check_scale, make_plan
        from goodput.restart import recovery_losses

        t = max(float(interval), x.drain)
        _check_scale(x.mtbi, x.checkpoint_cost, x.restart, t, x.persistent_cost or 0.0, x.persistent_restart or 0.0)
        if x.tiered:
            if x.just_in_time or x.planned_rate:  # the plan refuses this combination: say so as it does
                make_plan(x.checkpoint_cost, x.mtbi, x.restart, t, drain=x.drain, persistent_cost=x.persistent_cost,
                          just_in_time=x.just_in_time, planned_rate=x.planned_rate)
            two = x.persistent_cost is not None
            scheme = Tiers(x.checkpoint_cost, x.restart, x.drain, x.persistent_cost,
                           x.persistent_restart if two else None, (x.fast_survives or 0.0) if two else 0.0,
                           (self.every or 1) if two else 1)
            losses = tiers.exact_losses if self.which == "exact" else tiers.first_order_losses
            return losses(scheme, x.mtbi, t).goodput
        if x.just_in_time or x.planned_rate:
            return recovery_losses(x.checkpoint_cost, x.mtbi, x.restart, t, just_in_time=x.just_in_time,
                                   jit_recovery=x.jit_recovery, planned_rate=x.planned_rate, which=self.which).goodput
        return float(model_functions(self.which)[0](x.checkpoint_cost, x.mtbi, x.restart, t))


_Cases = _SchemeCases | _FleetCases


@dataclass(frozen=True)
class Propagation:
    """T* and goodput at the point inputs, with their ranges over a box of inputs.

    Parameters
    ----------
    points : dict of str to float
        The point value of each input (minutes; shares for :data:`SHARES`), in :data:`INPUTS` order.
    bounds : dict of str to (float, float)
        The box: ``(low, high)`` for each input (``(x, x)`` when it was exact).
    interval : float or None
        The fixed interval T the goodput is computed at, or ``None`` for the
        optimum of each case.
    optimal_interval : float
        T* at the point values.
    optimal_interval_range : tuple of float
        Lowest and highest T* over the cases computed.
    goodput : float
        Goodput at the point values.
    goodput_range : tuple of float
        Lowest and highest goodput over the box: at the corners where every input is at its worst, and at its
        best (goodput moves one way in each input), which are always among the cases computed.
    model : {"first-order", "exact"}
        The model of goodput and of the optimum.
    scheme : Tiers or None
        The scheme (with its cadence) the cases go through, when there is one.
    corners : int
        The corners of the box computed (8 for C, M and R; 2**k for k inputs with a range, up to
        :data:`MAX_CORNER_INPUTS`).
    sampled : bool
        Whether the corners were a sample of the box's (more than :data:`MAX_CORNER_INPUTS` inputs with a range).
    """

    points: dict[str, float]
    bounds: dict[str, Range]
    interval: float | None
    optimal_interval: float
    optimal_interval_range: Range
    goodput: float
    goodput_range: Range
    model: str = "first-order"
    scheme: Tiers | None = None
    corners: int = 8
    sampled: bool = False
    cases: _Cases | None = dataclasses.field(default=None, compare=False, repr=False)

    @property
    def checkpoint_cost(self) -> float:
        """C at the point values."""
        return self.points["checkpoint_cost"]

    @property
    def mtbi(self) -> float:
        """M at the point values."""
        return self.points["mtbi"]

    @property
    def restart(self) -> float:
        """R at the point values."""
        return self.points["restart"]

    @property
    def checkpoint_cost_range(self) -> Range:
        """C's range."""
        return self.bounds["checkpoint_cost"]

    @property
    def mtbi_range(self) -> Range:
        """M's range."""
        return self.bounds["mtbi"]

    @property
    def restart_range(self) -> Range:
        """R's range."""
        return self.bounds["restart"]

    def to_dict(self) -> dict[str, Any]:
        """The fields as plain, JSON-serializable Python values (ranges as lists, the scheme as a mapping)."""
        return {
            "points": dict(self.points), "bounds": {k: list(v) for k, v in self.bounds.items()},
            "interval": self.interval, "optimal_interval": self.optimal_interval,
            "optimal_interval_range": list(self.optimal_interval_range), "goodput": self.goodput,
            "goodput_range": list(self.goodput_range), "model": self.model,
            "scheme": None if self.scheme is None else dataclasses.asdict(self.scheme), "corners": self.corners,
            "sampled": self.sampled,
        }

    def _values(self, given: Mapping[str, float | None]) -> Values:
        unknown = [k for k, v in given.items() if v is not None and k not in self.points]
        if unknown:
            raise InputError(unknown[0], given[unknown[0]], f"one of the inputs propagated: {', '.join(self.points)}")
        return dict(self.points, **{k: float(v) for k, v in given.items() if v is not None})

    def goodput_at(self, checkpoint_cost: float | None = None, mtbi: float | None = None,
                   restart: float | None = None, **others: float) -> float:
        """Goodput with other inputs (the rest at their point values), at the fixed interval or at their own optimum."""
        assert self.cases is not None
        values = self._values({"checkpoint_cost": checkpoint_cost, "mtbi": mtbi, "restart": restart, **others})
        return self.cases.goodput(values, self.interval)

    def optimal_interval_at(self, checkpoint_cost: float | None = None, mtbi: float | None = None,
                            restart: float | None = None, **others: float) -> float:
        """T* with other inputs (the rest at their point values), by the propagation's model (and scheme)."""
        assert self.cases is not None
        return self.cases.optimum(self._values({"checkpoint_cost": checkpoint_cost, "mtbi": mtbi, "restart": restart,
                                                **others}))


def _at_corner(scheme: Tiers, checkpoint_cost: float, restart: float) -> Tiers:
    """The scheme with another C and R; C_p and R_p are kept no smaller than them."""
    if scheme.one_tier:
        return dataclasses.replace(scheme, checkpoint_cost=checkpoint_cost, restart=restart)
    return dataclasses.replace(scheme, checkpoint_cost=checkpoint_cost, restart=restart,
                               persistent_cost=max(scheme.cp, checkpoint_cost),
                               persistent_restart=max(scheme.rp, restart))


def _optimum(which: str, scheme: Tiers | None, c: float, m: float, r: float) -> float:
    if scheme is None:
        return float(model_functions(which)[1](c, m))
    corner = _at_corner(scheme, c, r)
    return tiers.exact_optimal_interval(corner, m) if which == "exact" else tiers.first_order_optimal_interval(corner, m)


def _goodput(which: str, scheme: Tiers | None, c: float, m: float, r: float, interval: float | None) -> float:
    if scheme is None:  # first order below zero at a corner of the box is no goodput there, not less
        return _clamp(float(model_functions(which)[0](c, m, r, interval)))
    corner = _at_corner(scheme, c, r)
    t = _optimum(which, scheme, c, m, r) if interval is None else interval
    losses = tiers.exact_losses if which == "exact" else tiers.first_order_losses
    return _clamp(losses(corner, m, t).goodput)


def box_corners(bounds: Mapping[str, Range], *, limit: int = MAX_CORNER_INPUTS, seed: int = 0,
                directions: Mapping[str, int] | None = None) -> tuple[list[Values], bool]:
    """The corners of a box of inputs to compute: all of them, or a seeded balanced sample when there are many.

    With k inputs that have a range (``low < high``) the box has 2**k corners. Up to ``k = limit`` all are
    returned. Beyond, 2**limit corners are drawn as a two-level Latin hypercube: for each input a seeded
    permutation of as many lows as highs, so each input is at each end in half the corners; the two corners
    where every input is at its worst, and at its best (by `directions`), are added, so that a quantity that
    moves one way in each input still has its exact range among them.

    Parameters
    ----------
    bounds : mapping of str to (float, float)
        Each input's ``(low, high)``; an input with ``low == high`` is held at that value.
    limit : int, optional
        Most inputs with a range whose corners are all returned (default :data:`MAX_CORNER_INPUTS`).
    seed : int, optional
        Seed of the sample (default 0).
    directions : mapping of str to int, optional
        +1 where goodput rises with the input, -1 where it falls (default :data:`DIRECTIONS`; an input not
        named counts as +1).

    Returns
    -------
    tuple of (list of dict, bool)
        The corners, each a mapping of every input to a value, without repeats; and whether they are a sample.

    Examples
    --------
    >>> corners, sampled = box_corners({"checkpoint_cost": (1.0, 2.0), "mtbi": (100.0, 100.0)})
    >>> corners, sampled
    ([{'checkpoint_cost': 1.0, 'mtbi': 100.0}, {'checkpoint_cost': 2.0, 'mtbi': 100.0}], False)
    >>> many = {f"x{i}": (0.0, 1.0) for i in range(9)}
    >>> corners, sampled = box_corners(many, limit=4)
    >>> len(corners) <= 2**4 + 2, sampled
    (True, True)
    """
    limit = validate.whole(limit, "limit", 0)
    directions = DIRECTIONS if directions is None else directions
    ranged = [name for name, (low, high) in bounds.items() if low < high]
    held = {name: low for name, (low, high) in bounds.items() if not low < high}
    def corner(ends: Mapping[str, float]) -> Values:  # every input, in the order of `bounds`
        return {name: ends[name] if name in ends else held[name] for name in bounds}

    if len(ranged) <= limit:
        return [corner(dict(zip(ranged, ends, strict=True)))
                for ends in itertools.product(*(bounds[name] for name in ranged))], False
    size = 2**limit if limit else 0  # limit 0: the two extreme corners alone
    rng = np.random.default_rng(validate.whole(seed, "seed", 0))
    columns = [rng.permutation(np.arange(size) % 2) for _ in ranged]
    picks = {tuple(int(column[i]) for column in columns) for i in range(size)}
    worst = tuple(0 if directions.get(name, 1) > 0 else 1 for name in ranged)
    picks |= {worst, tuple(1 - b for b in worst)}
    corners = [corner({name: bounds[name][b] for name, b in zip(ranged, pick, strict=True)}) for pick in sorted(picks)]
    return corners, True


def _propagate(points: Values, bounds: dict[str, Range], cases: _Cases, *, interval: float | None, which: str,
               scheme: Tiers | None, limit: int, seed: int) -> Propagation:
    """Compute the point, the box's corners (or a sample of them) and the one-at-a-time ends; min and max over them."""
    corners, sampled = box_corners(bounds, limit=limit, seed=seed)
    ranged = [name for name, (low, high) in bounds.items() if low < high]
    ends = [dict(points, **{name: value}) for name in ranged for value in bounds[name]]
    if sampled:  # T* may not move one way in each input: add the corners its one-at-a-time ends point to
        lower = {name: cases.optimum(ends[2 * i]) <= cases.optimum(ends[2 * i + 1]) for i, name in enumerate(ranged)}
        for pick in (0, 1):
            corners.append(dict(points, **{name: bounds[name][pick if up else 1 - pick] for name, up in lower.items()}))
    every_case = [points, *corners, *ends]
    t_star = [cases.optimum(x) for x in every_case]
    good = [cases.goodput(x, interval) for x in every_case]
    planned = [t for t in t_star if not math.isnan(t)] or [math.nan]  # a case out of scale has no optimum
    return Propagation(
        points=dict(points), bounds=dict(bounds), interval=interval, optimal_interval=t_star[0],
        optimal_interval_range=(min(planned), max(planned)), goodput=good[0], goodput_range=(min(good), max(good)),
        model=which, scheme=scheme, corners=len(corners), sampled=sampled, cases=cases,
    )


def propagate(
    checkpoint_cost: float,
    mtbi: float,
    restart: float,
    *,
    checkpoint_cost_range: Range | None = None,
    mtbi_range: Range | None = None,
    restart_range: Range | None = None,
    interval: float | None = None,
    which: str = "first-order",
    scheme: Tiers | None = None,
) -> Propagation:
    """Carry ranges of C, M and R through to T* and first-order goodput.

    Parameters
    ----------
    checkpoint_cost, mtbi, restart : float
        Point values of C, M and R, in minutes.
    checkpoint_cost_range, mtbi_range, restart_range : tuple of float, optional
        ``(low, high)`` containing the point value; omitted means exact. For M
        use :func:`poisson_interval`; for C and R a measured interval or a
        stated range such as ``(0.75, 1.5)``.
    interval : float, optional
        A fixed T in minutes, say the one chosen from the point values. When
        omitted, each combination of inputs is taken at its own optimum, so the
        range is what the best cadence could reach.
    which : {"first-order", "exact"}, optional
        The model of goodput and of the optimum (default first order).
    scheme : Tiers, optional
        A drain or a persistent tier (with its cadence): each corner is this scheme
        with the corner's C and R. ``None`` (the default): one checkpoint, safe at once.

    Returns
    -------
    Propagation
        Point values and ranges. The ranges are min/max over the eight corners
        of the box, which is exact because T* and goodput are monotone in each
        input (see the module docstring).

    Raises
    ------
    InputError
        If a point value is not a finite positive number of minutes, or a range
        does not contain its point value.

    Examples
    --------
    >>> p = propagate(1.0, 186.0, 5.0, checkpoint_cost_range=(0.75, 1.5), mtbi_range=(168.6, 204.7),
    ...               restart_range=(3.0, 8.0))
    >>> [round(x, 1) for x in p.optimal_interval_range], [round(100 * g, 1) for g in p.goodput_range]
    ([15.9, 24.8], [81.9, 90.0])
    """
    bounds = {"checkpoint_cost": _range("checkpoint_cost", float(checkpoint_cost), checkpoint_cost_range),
              "mtbi": _range("mtbi", float(mtbi), mtbi_range),
              "restart": _range("restart", float(restart), restart_range)}
    if interval is not None:
        model.check_inputs(checkpoint_cost, mtbi, restart, interval)
        interval = float(interval)
    which = validate.choice(which, "model", MODELS)
    if scheme is not None and interval is not None:
        scheme.check_interval(interval)
    points = {"checkpoint_cost": float(checkpoint_cost), "mtbi": float(mtbi), "restart": float(restart)}
    return _propagate(points, bounds, _SchemeCases(which, scheme), interval=interval, which=which, scheme=scheme,
                      limit=3, seed=0)


@dataclass(frozen=True)
class MonteCarlo:
    """Percentiles of T* and goodput from :func:`monte_carlo`.

    Parameters
    ----------
    draws : int
        Number of draws.
    seed : int
        Seed of the generator.
    optimal_interval : tuple of float, or None
        ``(low, median, high)`` of T* in minutes; None through a scheme or a fleet's plan (where each draw's optimum
        would need a search of its own, and only goodput at the interval in use is drawn).
    goodput : tuple of float
        ``(low, median, high)`` of goodput by the model asked for.
    scheme : Tiers or None
        The drain and persistent tier the draws went through, if any.
    drawn : tuple of str
        The inputs drawn: ``"mtbi"`` and those of :data:`INPUTS` given a range of some width.
    """

    draws: int
    seed: int
    optimal_interval: tuple[float, float, float] | None
    goodput: tuple[float, float, float]
    scheme: Tiers | None = None
    drawn: tuple[str, ...] = ()


def monte_carlo(
    count: int,
    exposure: float,
    checkpoint_cost_range: Range,
    restart_range: Range,
    *,
    interval: float | None = None,
    confidence: float = 0.95,
    draws: int = 100_000,
    seed: int = 0,
    which: str = "first-order",
    scheme: Tiers | None = None,
    params: Params | None = None,
    ranges: Mapping[str, Range] | None = None,
) -> MonteCarlo:
    """Seeded Monte Carlo alternative to :func:`propagate`.

    The rate 1/M is drawn from its Jeffreys posterior, Gamma(count + 1/2,
    scale 1/exposure); C and R uniformly from their ranges, independently.
    With a scheme (a drain or a persistent tier), each draw is that scheme with
    the draw's C and R (as :func:`propagate` takes its corners), at the given
    interval, by the tier model; only goodput is drawn then. With a fleet's inputs
    (`params`), each draw is the fleet's plan at the given interval with the scheme's cadence
    (as :func:`propagate_params` takes its cases), and every input of `ranges` is drawn
    uniformly too (the drain, C_p, R_p, s, p).

    Parameters
    ----------
    count : int
        Failures observed.
    exposure : float
        Minutes over which they were observed.
    checkpoint_cost_range, restart_range : tuple of float
        ``(low, high)`` in minutes.
    interval : float, optional
        A fixed T in minutes; each draw at its own optimum when omitted.
    confidence : float, optional
        Central probability between the low and high percentiles (default 0.95).
    draws : int, optional
        Number of draws (default 100,000).
    seed : int, optional
        Seed of :func:`numpy.random.default_rng` (default 0).
    which : {"first-order", "exact"}, optional
        The model of goodput and of the optimum (default first order).
    scheme : Tiers, optional
        The fleet's drain and persistent tier with its cadence (``plan.tiers``); needs `interval`.
    params : Params, optional
        The fleet's inputs: each draw is its plan (scheme, recovery) with the draw's values; needs `interval`.
    ranges : mapping of str to (float, float), optional
        With `params`: the other inputs' ranges to draw from (keys of :data:`PLAN_INPUTS` but C, M and R).

    Returns
    -------
    MonteCarlo
        ``(low, median, high)`` percentiles of T* (one tier only) and of goodput.

    Raises
    ------
    InputError
        For a scheme or a fleet without an interval, or a range of an input the fleet does not have.
    """
    poisson_interval(count, exposure, confidence)  # checks count, exposure and confidence
    alpha = 1.0 - confidence
    c_low, c_high = _pair("checkpoint_cost_range", checkpoint_cost_range)
    r_low, r_high = _pair("restart_range", restart_range)
    draws = validate.whole(draws, "draws", 1)
    goodput, optimum = model_functions(which)
    rng = np.random.default_rng(validate.whole(seed, "seed", 0))
    m = 1.0 / rng.gamma(count + 0.5, 1.0 / exposure, size=draws)
    c = rng.uniform(c_low, c_high, size=draws)
    r = rng.uniform(r_low, r_high, size=draws)
    q = [100 * alpha / 2, 50.0, 100 * (1 - alpha / 2)]
    drawn = ("mtbi", *(name for name, (low, high) in (("checkpoint_cost", (c_low, c_high)),
                                                       ("restart", (r_low, r_high))) if low < high))

    def pct(values: npt.NDArray[np.float64]) -> tuple[float, float, float]:
        low, mid, high = np.percentile(values, q)
        return float(low), float(mid), float(high)

    if params is not None:
        if interval is None:
            raise InputError("interval", None, "the interval in use, to draw goodput through the fleet's plan")
        others = {name: (float(low), float(high)) for name, (low, high) in (ranges or {}).items()}
        for name, pair in others.items():
            if name not in PLAN_INPUTS[3:]:
                raise InputError(f"ranges.{name}", pair, f"one of {', '.join(PLAN_INPUTS[3:])}")
        extra = {name: rng.uniform(low, high, size=draws) for name, (low, high) in others.items()}
        cases = _FleetCases(params, which, None if scheme is None or scheme.one_tier else scheme.every)
        good = np.array([cases.at_interval(cases.inputs({"checkpoint_cost": float(c[i]), "mtbi": float(m[i]),
                                                 "restart": float(r[i]),
                                                 **{name: float(v[i]) for name, v in extra.items()}}),
                                   float(interval)) for i in range(draws)])
        drawn += tuple(name for name, (low, high) in others.items() if low < high)
        return MonteCarlo(draws=draws, seed=seed, optimal_interval=None, goodput=pct(np.clip(good, 0.0, 1.0)),
                          scheme=scheme, drawn=drawn)
    if scheme is not None:
        if interval is None:
            raise InputError("interval", None, "the interval in use, to draw goodput through a scheme")
        scheme.check_interval(interval)
        good = np.maximum(np.array([_goodput(which, scheme, float(ci), float(mi), float(ri), float(interval))
                                    for ci, mi, ri in zip(c, m, r, strict=True)]), 0.0)
        return MonteCarlo(draws=draws, seed=seed, optimal_interval=None, goodput=pct(good), scheme=scheme, drawn=drawn)
    t_star = optimum(c, m)
    good = np.clip(goodput(c, m, r, None if interval is None else np.full(draws, float(interval))), 0.0, 1.0)
    return MonteCarlo(draws=draws, seed=seed, optimal_interval=pct(t_star), goodput=pct(good), drawn=drawn)


#: Where a range can come from: M's Poisson interval from a count, a range stated in the
#: inputs file, or none (the input is taken as exact).
ORIGINS = ("count", "stated", "none")


@dataclass(frozen=True)
class InputRange:
    """One input's point value and range, and where the range came from.

    Parameters
    ----------
    name : str
        One of :data:`INPUTS`.
    point : float
        The value the plan uses (minutes; a share for :data:`SHARES`).
    low, high : float
        The range; both equal to `point` when the input is taken as exact.
    origin : str
        One of :data:`ORIGINS`.
    confidence : float
        The confidence level of a Poisson interval (origin ``"count"``).
    """

    name: str
    point: float
    low: float
    high: float
    origin: str
    confidence: float = 0.95

    @property
    def exact(self) -> bool:
        """Whether the input has no range (``low == high``)."""
        return self.low == self.high

    @property
    def bounds(self) -> Range:
        """``(low, high)``."""
        return self.low, self.high

    @property
    def share(self) -> bool:
        """Whether the input is a share of interruptions (:data:`SHARES`), not minutes."""
        return self.name in SHARES


def fleet_points(params: Params) -> Values:
    """The point value of each input a fleet has, in :data:`INPUTS` order.

    C, M, R and the slow checkpoint always; the drain D where there is one; C_p, R_p and s with a persistent tier;
    the share recovered just in time, p, where it is given.

    Examples
    --------
    >>> from goodput.params import load_params
    >>> list(fleet_points(load_params()))
    ['checkpoint_cost', 'mtbi', 'restart', 'slow_checkpoint_cost']
    """
    points = {"checkpoint_cost": params.checkpoint_cost, "mtbi": params.mtbi, "restart": params.restart}
    if params.drain > 0:
        points["drain"] = params.drain
    if params.persistent_cost is not None:
        points["persistent_cost"] = params.persistent_cost
        points["persistent_restart"] = params.persistent_restart or params.restart
        points["fast_survives"] = params.fast_survives or 0.0
    if params.just_in_time > 0:
        points["just_in_time"] = params.just_in_time
    points["slow_checkpoint_cost"] = params.slow_checkpoint_cost
    return {name: float(value) for name, value in points.items()}


def input_ranges(params: Params, confidence: float = 0.95) -> dict[str, InputRange]:
    """The range of each input a fleet has (:func:`fleet_points`), and where it came from.

    M given as a count over a window gets its exact Poisson interval
    (:func:`poisson_interval` of the count over the window); M given as a rate
    or as ``mtbi`` gets ``ranges.mtbi`` when the file states one. Every other
    input gets its stated range (``ranges.checkpoint_cost``, ``ranges.drain``,
    ``ranges.fast_survives``, ...). An input with no range is exact
    (``low == high``, origin ``"none"``).

    Parameters
    ----------
    params : Params
        The fleet's inputs (see :mod:`goodput.params`).
    confidence : float, optional
        Confidence level of M's Poisson interval (default 0.95).

    Returns
    -------
    dict of str to InputRange
        Keyed by the inputs the fleet has, in :data:`INPUTS` order.

    Raises
    ------
    InputError
        If a stated range does not contain its point value, or is of an input the fleet does not have,
        or the confidence is not in (0, 1).
    """
    confidence = _check_confidence(confidence)
    points = fleet_points(params)
    for name in params.ranges:
        if name not in points:
            raise InputError(f"ranges.{name}", list(params.ranges[name]),
                             f"a range of an input this fleet has ({', '.join(points)})")
    out: dict[str, InputRange] = {}
    for name, point in points.items():
        count, window = params.interruption_count, params.window
        if name == "mtbi" and params.mtbi_source == "interruptions" and count and window:
            low, high = poisson_interval(count, window, confidence)
            origin = "count"
        elif name in params.ranges:
            low, high = (float(v) for v in params.ranges[name])
            if not low <= point <= high:
                shown = (f"[{low:g}, {high:g}]", f"{point:g}") if name in SHARES else (
                    f"[{low:g} min, {high:g} min]", f"{point:g} min")
                raise InputError(f"ranges.{name}", shown[0], f"a range containing {name} itself, {shown[1]}")
            origin = "stated"
        else:
            low = high = point
            origin = "none"
        out[name] = InputRange(name=name, point=point, low=low, high=high, origin=origin, confidence=confidence)
    return out


def propagate_params(
    params: Params, *, interval: float | None = None, confidence: float = 0.95, which: str = "first-order",
    scheme: Tiers | None = None, corners: bool = True, limit: int = MAX_CORNER_INPUTS, seed: int = 0,
    cases: _Cases | None = None,
) -> Propagation:
    """Carry a fleet's input ranges (:func:`input_ranges`) through its plan to T* and goodput.

    Every input of the plan with a range is carried (C, M, R, the drain D, C_p, R_p, s, p): each case is the
    fleet's plan with the case's values (C_p and R_p no smaller than C and R). At its own optimum (no `interval`)
    a case's interval is chosen again, and its persistent cadence too where the plan chooses it; at a fixed
    interval T a case keeps the plan's cadence and checkpoints every T, or every D where its drain D is longer.
    Goodput moves one way in each input (down with C, R, D, C_p and R_p; up with M, s and p), so its range over
    the box is at the two corners where every input is at its worst, and at its best, which are always computed.
    T* need not move one way once the cadence is chosen again, so its range is over the cases computed: the
    point, every corner of the box (up to :data:`MAX_CORNER_INPUTS` inputs with a range, 2**k corners; beyond,
    a seeded balanced sample of 2**MAX_CORNER_INPUTS corners, see :func:`box_corners`) and each input's two
    ends alone.

    Parameters
    ----------
    params : Params
        The fleet's inputs, with the fast checkpoint cost.
    interval : float, optional
        A fixed T in minutes (say the recommended T* from the point values);
        each case at its own optimum when omitted.
    confidence : float, optional
        Confidence level of M's Poisson interval (default 0.95).
    which : {"first-order", "exact"}, optional
        The model (see :func:`propagate`).
    scheme : Tiers, optional
        The fleet's scheme with its cadence, as its plan has it (``plan.tiers``); the plan's own when omitted.
    corners : bool, optional
        Whether to compute the box's corners (default) or only the point, the two extreme corners and the
        one-at-a-time ends (enough for goodput's range and the swings, not for T*'s).
    limit : int, optional
        Most inputs with a range whose corners are all computed (default :data:`MAX_CORNER_INPUTS`).
    seed : int, optional
        Seed of the sample of corners beyond `limit` (default 0).
    cases : optional
        The cases of another propagation of the same fleet and model, to reuse what they computed.

    Returns
    -------
    Propagation
        See :func:`propagate`; its points and bounds are the plan's inputs the fleet has.

    Raises
    ------
    InputError
        For a range that does not hold its point value or of an input the fleet does not have.
    """
    from goodput.plan import plan_for

    which = validate.choice(which, "model", MODELS)
    ranges = {name: r for name, r in input_ranges(params, confidence).items() if name in PLAN_INPUTS}
    if scheme is None and params.tiered:
        scheme = plan_for(params, which=which).tiers
    if interval is not None:
        interval = validate.positive(interval, "interval", validate.POSITIVE_MINUTES)
        if scheme is not None:
            scheme.check_interval(interval)
    every = None if scheme is None or scheme.one_tier else scheme.every
    if not isinstance(cases, _FleetCases) or (cases.params, cases.which, cases.every) != (params, which, every):
        cases = _FleetCases(params, which, every)
    points = {name: r.point for name, r in ranges.items()}
    bounds = {name: r.bounds for name, r in ranges.items()}
    if corners:
        return _propagate(points, bounds, cases, interval=interval, which=which, scheme=scheme, limit=limit, seed=seed)
    extremes = _propagate(points, bounds, cases, interval=interval, which=which, scheme=scheme, limit=0, seed=seed)
    return dataclasses.replace(extremes, sampled=True)


@dataclass(frozen=True)
class Swing:
    """T* and goodput when one input moves over its range and the others stay at their point values.

    Parameters
    ----------
    name : str
        The input moved, one of :data:`INPUTS`.
    low, high : float
        Its range (minutes; a share for :data:`SHARES`).
    goodput_at_low, goodput_at_high : float
        Goodput with the input at each end.
    optimal_interval_at_low, optimal_interval_at_high : float
        T* with the input at each end, in minutes.
    """

    name: str
    low: float
    high: float
    goodput_at_low: float
    goodput_at_high: float
    optimal_interval_at_low: float
    optimal_interval_at_high: float

    @property
    def goodput_range(self) -> Range:
        """Lowest and highest goodput over the input's range."""
        return min(self.goodput_at_low, self.goodput_at_high), max(self.goodput_at_low, self.goodput_at_high)

    @property
    def goodput_swing(self) -> float:
        """Width of :attr:`goodput_range`, a fraction of 1."""
        low, high = self.goodput_range
        return high - low

    @property
    def optimal_interval_range(self) -> Range:
        """Lowest and highest T* over the input's range, in minutes (an end out of scale, with no optimum, left out)."""
        ends = [t for t in (self.optimal_interval_at_low, self.optimal_interval_at_high) if not math.isnan(t)]
        return (min(ends), max(ends)) if ends else (math.nan, math.nan)


def one_at_a_time(propagation: Propagation) -> list[Swing]:
    """Move each input over its range alone: which input's range dominates the goodput range.

    Each input of the propagation in turn goes to the two ends of its range while the
    others stay at their point values; goodput is taken at the propagation's
    fixed interval, or at each case's own optimum when it has none. Since
    goodput is monotone in each input (see the module docstring), the two ends
    give the input's whole one-at-a-time range.

    Parameters
    ----------
    propagation : Propagation
        The point values, ranges and interval, from :func:`propagate` or
        :func:`propagate_params`.

    Returns
    -------
    list of Swing
        One per input, largest goodput swing first (ties in :data:`INPUTS` order).

    Examples
    --------
    At its own optimum, goodput is ``1 - sqrt(2C/M) - R/M``, linear in R, so
    R's swing is ``(R_high - R_low) / M``:

    >>> p = propagate(1.0, 200.0, 5.0, restart_range=(3.0, 8.0))
    >>> [(s.name, round(s.goodput_swing, 6)) for s in one_at_a_time(p)]
    [('restart', 0.025), ('checkpoint_cost', 0.0), ('mtbi', 0.0)]
    """
    p = propagation
    swings = []
    for name, (low, high) in p.bounds.items():
        (g_low, t_low), (g_high, t_high) = ((p.goodput_at(**{name: v}), p.optimal_interval_at(**{name: v}))
                                            for v in (low, high))
        swings.append(Swing(name, low, high, g_low, g_high, t_low, t_high))
    order = {name: i for i, name in enumerate(INPUTS)}
    return sorted(swings, key=lambda s: (-s.goodput_swing, order.get(s.name, len(order))))
