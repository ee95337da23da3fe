"""How uncertain the inputs are, and what that does to T* and goodput.

M from a count over a window carries Poisson counting error; C and R are medians or means of
measured samples, or stated ranges. Intervals: :func:`poisson_interval` (exact, Garwood 1936),
:func:`median_interval` (order statistics, as ``scipy.stats.quantile_test``),
:func:`mean_interval` (Student's t).

:func:`propagate` carries ranges of C, M and R through the first-order or exact model to T*
and goodput. Every quantity is monotone in each input (T* rises with C and M; goodput falls
with C and R and rises with M, at the optimum or at a fixed T, in both models, since
M (e^{a/M} - 1) falls as M grows), so the range over a box is at its eight corners. It says
what the inputs allow, not a probability; :func:`monte_carlo` is the probabilistic alternative (M from the Jeffreys
posterior, the others uniform, seeded).

For a fleet, :func:`input_ranges` says each input's range and origin (M's Poisson interval
for a count, else ``ranges:``; none means exact) and :func:`propagate_params` carries them
through the fleet's own plan (:func:`goodput.plan.plan_for`). Goodput falls with C, R, D,
C_p, R_p and rises with M, s, p, so its range is at two corners, always computed; T* need
not be monotone once the cadence is chosen again, so its range is over the corners computed:
all 2**k up to :data:`MAX_CORNER_INPUTS`, else a seeded balanced sample (:func:`box_corners`),
plus each input's two ends. :func:`one_at_a_time` gives the tornado table.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
from scipy.special import gammaincinv, stdtrit

from goodput import model, tiers, validate
from goodput.errors import InputError, Refused
from goodput.exact import MODELS, model_functions
from goodput.tiers import Tiers
from goodput.units import format_duration, format_wait

if TYPE_CHECKING:
    from goodput.params import Params

#: A stated range (low, high) in minutes.
Range = tuple[float, float]


def _check_confidence(confidence: float) -> float:
    return validate.share(confidence, "confidence", open_low=True, open_high=True)


def poisson_interval(count: int, exposure: float, confidence: float = 0.95) -> Range:
    """Exact (Garwood) confidence interval for the mean time between failures, in the exposure's unit.

    For M = E / k and a = 1 - confidence: ``low = 2E / chi2.ppf(1 - a/2, 2k + 2)``,
    ``high = 2E / chi2.ppf(a/2, 2k)``. For k = 0, ``high`` is ``inf`` and ``low = E / ln(2/a)``
    (about E / 3.69 at 95%). Raises InputError for a count not whole and >= 0, a non-positive
    or non-finite exposure, or a confidence outside (0, 1).

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
    """The lower and upper quartile of a sample (linearly interpolated): the middle half of what a log measured.

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

    With sorted x and B ~ Binomial(n, 1/2), ``(x[j-1], x[n-j])`` covers the median with
    probability ``1 - 2 P(B <= j - 1)``; j is the largest rank reaching `confidence`
    (:func:`scipy.stats.quantile_test`'s interval). Below six samples a 95% interval is out of
    reach and the result is (min, max), coverage ``1 - 2**(1 - n)``. Raises InputError for no
    samples, a non-finite one, or a confidence outside (0, 1).

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
    """Student's t confidence interval for a mean: ``mean -/+ t(1 - a/2; n - 1) s / sqrt(n)``.

    Raises InputError for fewer than two samples or a non-finite one.
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


def _span(values: Iterable[float]) -> Range:
    """The least and the greatest of the values that are not NaN (NaN, NaN when none is)."""
    kept = [v for v in values if not math.isnan(v)] or [math.nan]
    return min(kept), max(kept)


def _clamp(goodput: float) -> float:
    """Goodput held in [0, 1]: first order below zero at a corner of the box is no goodput there, not less."""
    return min(1.0, max(0.0, float(goodput)))


class _ModelCases:
    """Cases of C, M and R alone, by the one-tier model `which`."""

    def __init__(self, which: str) -> None:
        self.which = which

    def optimum(self, values: Mapping[str, float]) -> float:
        return float(model_functions(self.which)[1](values["checkpoint_cost"], values["mtbi"]))

    def goodput(self, values: Mapping[str, float], interval: float | None) -> float:
        return _clamp(model_functions(self.which)[0](values["checkpoint_cost"], values["mtbi"], values["restart"],
                                                     interval))


class _FleetCases:
    """Cases of a fleet's inputs, each computed as the fleet's own plan would be (memoized).

    At its own optimum a case is :func:`goodput.plan.plan_for` of the case's inputs (interval and,
    where the plan chooses it, cadence chosen again). At a fixed T a case keeps the plan's n and
    T, lengthened to the case's drain where longer (T >= D, as the plan asks).
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
        from goodput.plan import _check_scale, recovery_of
        from goodput.restart import recovery_losses

        t = max(float(interval), x.drain)
        _check_scale(x.mtbi, x.checkpoint_cost, x.restart, t, x.persistent_cost or 0.0, x.persistent_restart or 0.0)
        recovery = recovery_of(x)  # the inputs' just-in-time recovery and planned stops, as the plan has them
        if x.tiered:
            two = x.persistent_cost is not None
            scheme = Tiers(x.checkpoint_cost, x.restart, x.drain, x.persistent_cost,
                           x.persistent_restart if two else None, (x.fast_survives or 0.0) if two else 0.0,
                           (self.every or 1) if two else 1)
            losses = tiers.exact_losses if self.which == "exact" else tiers.first_order_losses
            return losses(scheme, x.mtbi, t, recovery).goodput
        if recovery is not None:
            return recovery_losses(x.checkpoint_cost, x.mtbi, x.restart, t, which=self.which, **vars(recovery)).goodput
        return float(model_functions(self.which)[0](x.checkpoint_cost, x.mtbi, x.restart, t))


_Cases = _ModelCases | _FleetCases


@dataclass(frozen=True)
class Propagation:
    """T* and goodput at the point inputs, with their ranges over a box of inputs.

    Points in minutes (shares for :data:`SHARES`); a bound ``(x, x)`` is exact. ``interval`` None
    means each case at its own optimum. ``goodput_range`` includes the all-worst and all-best
    corners, always computed; ``optimal_interval_range`` is over the cases computed. ``corners``
    is how many were computed (8 for C, M, R; 2**k up to :data:`MAX_CORNER_INPUTS`) and
    ``sampled`` whether they were a sample.
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


def box_corners(bounds: Mapping[str, Range], *, limit: int = MAX_CORNER_INPUTS,
                seed: int = 0) -> tuple[list[Values], bool]:
    """The corners of a box of inputs to compute: all of them, or a seeded balanced sample when there are many.

    With k inputs that have a range (low < high), all 2**k corners up to k = `limit`. Beyond,
    2**limit corners as a two-level Latin hypercube (each input at each end in half of them),
    plus the all-worst and all-best corners by :data:`DIRECTIONS` (+1 where goodput rises with
    the input, the default for unnamed ones), so a monotone quantity keeps its exact range. Returns
    the corners without repeats and whether they are a sample.

    >>> corners, sampled = box_corners({"checkpoint_cost": (1.0, 2.0), "mtbi": (100.0, 100.0)})
    >>> corners, sampled
    ([{'checkpoint_cost': 1.0, 'mtbi': 100.0}, {'checkpoint_cost': 2.0, 'mtbi': 100.0}], False)
    >>> many = {f"x{i}": (0.0, 1.0) for i in range(9)}
    >>> corners, sampled = box_corners(many, limit=4)
    >>> len(corners) <= 2**4 + 2, sampled
    (True, True)
    """
    limit = validate.whole(limit, "limit", 0)
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
    worst = tuple(0 if DIRECTIONS.get(name, 1) > 0 else 1 for name in ranged)
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
    return Propagation(  # a case out of scale has no optimum (NaN)
        points=dict(points), bounds=dict(bounds), interval=interval, optimal_interval=t_star[0],
        optimal_interval_range=_span(t_star), goodput=good[0], goodput_range=_span(good),
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
) -> Propagation:
    """Carry ranges of C, M and R through to T* and first-order goodput.

    Minutes; an omitted range is exact (for M use :func:`poisson_interval`). With `interval` all
    cases are taken at that T, else each at its own optimum. `which` is "first-order" or
    "exact" (a fleet's drain or tiers: :func:`propagate_params`). Ranges are min/max over the
    eight corners, exact by monotonicity (module docstring). Raises InputError for a
    non-positive or non-finite point, or a range not containing its point.

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
    points = {"checkpoint_cost": float(checkpoint_cost), "mtbi": float(mtbi), "restart": float(restart)}
    return _propagate(points, bounds, _ModelCases(which), interval=interval, which=which, scheme=None, limit=3,
                      seed=0)


@dataclass(frozen=True)
class MonteCarlo:
    """Percentiles ``(low, median, high)`` of T* (minutes) and goodput from :func:`monte_carlo`.

    ``optimal_interval`` is None through a fleet's plan (only goodput at the interval
    in use is drawn); ``drawn`` names ``"mtbi"`` and the inputs given a range of some width.
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

    The rate 1/M is drawn from its Jeffreys posterior, Gamma(count + 1/2, scale 1/exposure); C
    and R uniformly from their ranges (minutes), independently. With `params`, each draw is the
    fleet's plan with the cadence of `scheme` (the plan's), and the inputs in `ranges` (D, C_p,
    R_p, s, p) drawn uniformly too; only goodput at `interval` is drawn. Raises InputError for a
    fleet without an interval, a scheme without a fleet, or a range of an input the fleet does
    not have.
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
        raise InputError("params", None, "the fleet's inputs, to draw goodput through its scheme")
    t_star = optimum(c, m)
    good = np.clip(goodput(c, m, r, None if interval is None else np.full(draws, float(interval))), 0.0, 1.0)
    return MonteCarlo(draws=draws, seed=seed, optimal_interval=pct(t_star), goodput=pct(good), drawn=drawn)


#: Where a range can come from: M's Poisson interval from a count, a range stated in the
#: inputs file, or none (the input is taken as exact).
ORIGINS = ("count", "stated", "none")


@dataclass(frozen=True)
class InputRange:
    """One input's point value and range (minutes; a share for :data:`SHARES`), and where the range came from.

    ``low == high == point`` when exact; ``origin`` is one of :data:`ORIGINS`; ``confidence`` is
    the Poisson interval's (origin ``"count"``).
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


def fleet_points(params: Params) -> Values:
    """The point value of each input a fleet has, in :data:`INPUTS` order.

    C, M, R and the slow C always; D with a drain; C_p, R_p and s with a persistent tier; p when given.

    >>> from goodput.params import load_params
    >>> list(fleet_points(load_params()))
    ['checkpoint_cost', 'mtbi', 'restart', 'slow_checkpoint_cost']
    """
    tier = params.persistent_cost is not None
    points = {"checkpoint_cost": params.checkpoint_cost, "mtbi": params.mtbi, "restart": params.restart,
              "drain": params.drain if params.drain > 0 else None, "persistent_cost": params.persistent_cost,
              "persistent_restart": (params.persistent_restart or params.restart) if tier else None,
              "fast_survives": (params.fast_survives or 0.0) if tier else None,
              "just_in_time": params.just_in_time if params.just_in_time > 0 else None,
              "slow_checkpoint_cost": params.slow_checkpoint_cost}
    return {name: float(value) for name, value in points.items() if value is not None}


def _outside(point: float, low: float, high: float) -> str:
    """A duration outside a range, to the fewest digits (three or more) that do not write it as one of the ends.

    >>> _outside(186.263, 9.0, 12.0), _outside(8.0004, 3.0, 8.0)
    ('186 min', '8.0004 min')
    """
    for digits in range(3, 10):
        text = format_duration(point, digits)
        if text not in (format_duration(low, digits), format_duration(high, digits)):
            return text
    return f"{point!r} min"


def _waits_within(params: Params, name: str) -> str:
    """Why R or R_p is longer than typed, where it waits for repairs: a range is of the value the plan uses, wait and all.

    ``""`` for another input, or without spares.
    """
    if name not in ("restart", "persistent_restart") or params.spares is None:
        return ""
    wait = params.spares.wait(params.mtbi)
    typed = params.persistent_restart_typed if name == "persistent_restart" else params.restart - wait
    return (f" ({format_duration(typed or 0.0)} before its wait for repairs of {format_wait(wait)}, which a range "
            "includes)")


def input_ranges(params: Params, confidence: float = 0.95) -> dict[str, InputRange]:
    """The range of each input a fleet has (:func:`fleet_points`), and where it came from, in :data:`INPUTS` order.

    M as a count over a window gets :func:`poisson_interval`; M as a rate or ``mtbi`` gets
    ``ranges.mtbi`` if stated; every other input its stated range; no range means exact (origin
    ``"none"``). Raises InputError for a range not containing its point, of an input the fleet
    does not have, or a confidence outside (0, 1).
    """
    confidence = _check_confidence(confidence)
    points = fleet_points(params)
    for name in params.ranges:
        if name not in points:
            raise InputError(f"ranges.{name}", list(params.ranges[name]),
                             f"a range of an input this fleet has ({', '.join(points)})")
    out: dict[str, InputRange] = {}
    for name, point in points.items():
        if name == "mtbi" and params.counted:
            low, high = poisson_interval(*params.counted, confidence)
            origin = "count"
        elif name in params.ranges:
            low, high = (float(v) for v in params.ranges[name])
            if not low <= point <= high:
                shown = (f"[{low:g}, {high:g}]", f"{point:g}") if name in SHARES else (
                    f"[{format_duration(low, 6)}, {format_duration(high, 6)}]", _outside(point, low, high))
                raise InputError(f"ranges.{name}", shown[0], f"a range containing {name} itself, {shown[1]}"
                                 + _waits_within(params, name))
            origin = "stated"
        else:
            low = high = point
            origin = "none"
        out[name] = InputRange(name=name, point=point, low=low, high=high, origin=origin, confidence=confidence)
    _check_tier_ranges(params, out)
    return out


def _check_tier_ranges(params: Params, ranges: Mapping[str, InputRange]) -> None:
    """Refuse a stated range that crosses the fast tier's point value: C_p below C, C above C_p (R and R_p alike).

    Each end of such a range is a persistent tier the point checks refuse (cheaper or faster than the fast one).
    With spares R carries a wait for repairs that R_p shares, so R and R_p are compared only without them; a tier
    whose value is the fast one's (R_p not given, or a local-first C_p = C) follows it, each corner kept no smaller.
    """
    pairs = [("checkpoint_cost", "persistent_cost", "checkpoint")]
    if params.spares is None:
        pairs.append(("restart", "persistent_restart", "restart"))
    for fast, tier, what in pairs:
        if fast not in ranges or tier not in ranges:
            continue
        f, t = ranges[fast], ranges[tier]
        if t.point == f.point:  # the tier follows the fast one (R_p not given, or C_p = C): its corners are clamped
            continue
        if t.origin == "stated" and t.low < f.point:
            raise InputError(f"ranges.{tier}", f"[{format_duration(t.low)}, {format_duration(t.high)}]",
                             f"a range no lower than the fast {what}'s {format_duration(f.point)}: a persistent "
                             f"{what} {'cheaper' if what == 'checkpoint' else 'faster'} than the fast one is refused")
        if f.origin == "stated" and f.high > t.point:
            raise InputError(f"ranges.{fast}", f"[{format_duration(f.low)}, {format_duration(f.high)}]",
                             f"a range no higher than the persistent {what}'s {format_duration(t.point)}: a fast "
                             f"{what} {'dearer' if what == 'checkpoint' else 'slower'} than the persistent one is "
                             "refused")


def propagate_params(
    params: Params, *, interval: float | None = None, confidence: float = 0.95, which: str = "first-order",
    scheme: Tiers | None = None, corners: bool = True, limit: int = MAX_CORNER_INPUTS, seed: int = 0,
    cases: _Cases | None = None,
) -> Propagation:
    """Carry a fleet's input ranges (:func:`input_ranges`) through its plan to T* and goodput.

    Each case is the fleet's plan with the case's values (C_p, R_p no smaller than C, R); see
    the module docstring for the cases and why goodput's range is exact. `scheme` defaults to the
    plan's own; ``corners=False`` computes only the point, the two extreme corners and the
    one-at-a-time ends (enough for goodput, not T*); `limit` and `seed` as for
    :func:`box_corners`; `cases` reuses another propagation's of the same fleet and model.
    Raises InputError for a range not containing its point or of an input the fleet lacks.
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
    found = _propagate(points, bounds, cases, interval=interval, which=which, scheme=scheme,
                       limit=limit if corners else 0, seed=seed)
    return found if corners else dataclasses.replace(found, sampled=True)


@dataclass(frozen=True)
class Swing:
    """T* (minutes) and goodput when one input moves over its range and the others stay at their point values."""

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
        return _span((self.goodput_at_low, self.goodput_at_high))

    @property
    def goodput_swing(self) -> float:
        """Width of :attr:`goodput_range`, a fraction of 1."""
        low, high = self.goodput_range
        return high - low

    @property
    def optimal_interval_range(self) -> Range:
        """Lowest and highest T* over the input's range, in minutes (an end out of scale, with no optimum, left out)."""
        return _span((self.optimal_interval_at_low, self.optimal_interval_at_high))


def one_at_a_time(propagation: Propagation) -> list[Swing]:
    """Move each input over its range alone: which input's range dominates the goodput range.

    At the propagation's fixed interval, or each case's own optimum; by monotonicity the two
    ends give the whole range. Largest goodput swing first (ties in :data:`INPUTS` order).
    At its own optimum, goodput is ``1 - sqrt(2C/M) - R/M``, so R's swing is ``(R_high - R_low) / M``:

    >>> p = propagate(1.0, 200.0, 5.0, restart_range=(3.0, 8.0))
    >>> [(s.name, round(s.goodput_swing, 6)) for s in one_at_a_time(p)]
    [('restart', 0.025), ('checkpoint_cost', 0.0), ('mtbi', 0.0)]
    """
    p, swings = propagation, []
    assert p.cases is not None
    for name, (low, high) in p.bounds.items():
        ends = [dict(p.points, **{name: v}) for v in (low, high)]
        (g_low, g_high), (t_low, t_high) = ([p.cases.goodput(x, p.interval) for x in ends],
                                            [p.cases.optimum(x) for x in ends])
        swings.append(Swing(name, low, high, g_low, g_high, t_low, t_high))
    order = {name: i for i, name in enumerate(INPUTS)}
    return sorted(swings, key=lambda s: (-s.goodput_swing, order.get(s.name, len(order))))
