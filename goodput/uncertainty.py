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
Jeffreys posterior of the Poisson rate, C and R uniform over their ranges,
with a seeded generator; it returns percentiles.

From a parameters file
----------------------
:func:`input_ranges` says what range each input of a :class:`~goodput.params.Params`
has and where it came from: M's Poisson interval when M is a count over a
window, else a stated ``ranges: {mtbi: ...}``; C and R from ``ranges:``; an
input with no range is exact. :func:`propagate_params` carries them through
:func:`propagate`, and :func:`one_at_a_time` moves one input at a time over
its range, the others held at their point values, to show which input's range
dominates the range of goodput (a tornado table).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
from scipy.special import gammaincinv, stdtrit

from goodput import model, tiers, validate
from goodput.errors import InputError
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


@dataclass(frozen=True)
class Propagation:
    """T* and first-order goodput at the point inputs, with their ranges over a box.

    Parameters
    ----------
    checkpoint_cost, mtbi, restart : float
        The point values of C, M and R, in minutes.
    checkpoint_cost_range, mtbi_range, restart_range : tuple of float
        The box: ``(low, high)`` for each input (``(x, x)`` when it was exact).
    interval : float or None
        The fixed interval T the goodput is computed at, or ``None`` for the
        optimum of each corner.
    optimal_interval : float
        T* = sqrt(2CM) at the point values.
    optimal_interval_range : tuple of float
        ``(sqrt(2 C_low M_low), sqrt(2 C_high M_high))``.
    goodput : float
        First-order goodput at the point values.
    goodput_range : tuple of float
        Lowest and highest goodput over the box (at corners
        ``(C_high, M_low, R_high)`` and ``(C_low, M_high, R_low)``).
    model : {"first-order", "exact"}
        The model of goodput and of the optimum.
    """

    checkpoint_cost: float
    mtbi: float
    restart: float
    checkpoint_cost_range: Range
    mtbi_range: Range
    restart_range: Range
    interval: float | None
    optimal_interval: float
    optimal_interval_range: Range
    goodput: float
    goodput_range: Range
    model: str = "first-order"
    scheme: Tiers | None = None

    def to_dict(self) -> dict[str, Any]:
        """The fields as plain, JSON-serializable Python values (ranges as lists, the scheme as a mapping)."""
        return {
            key: list(value) if isinstance(value, tuple) else dataclasses.asdict(value) if isinstance(value, Tiers)
            else value
            for key, value in self.__dict__.items()
        }

    def goodput_at(self, checkpoint_cost: float, mtbi: float, restart: float) -> float:
        """Goodput with other inputs, at the propagation's fixed interval or at their own optimum."""
        return _goodput(self.model, self.scheme, checkpoint_cost, mtbi, restart, self.interval)

    def optimal_interval_at(self, checkpoint_cost: float, mtbi: float, restart: float) -> float:
        """T* with other inputs, by the propagation's model (and scheme)."""
        return _optimum(self.model, self.scheme, checkpoint_cost, mtbi, restart)


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
        return max(0.0, float(model_functions(which)[0](c, m, r, interval)))
    corner = _at_corner(scheme, c, r)
    t = _optimum(which, scheme, c, m, r) if interval is None else interval
    losses = tiers.exact_losses if which == "exact" else tiers.first_order_losses
    return losses(corner, m, t).goodput


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
    c_range = _range("checkpoint_cost", float(checkpoint_cost), checkpoint_cost_range)
    m_range = _range("mtbi", float(mtbi), mtbi_range)
    r_range = _range("restart", float(restart), restart_range)
    if interval is not None:
        model.check_inputs(checkpoint_cost, mtbi, restart, interval)
        interval = float(interval)
    which = validate.choice(which, "model", MODELS)
    if scheme is not None and interval is not None:
        scheme.check_interval(interval)
    corners = list(itertools.product(c_range, m_range, r_range))
    t_star = [_optimum(which, scheme, c, m, r) for c, m, r in corners]
    good = [_goodput(which, scheme, c, m, r, interval) for c, m, r in corners]
    c0, m0, r0 = float(checkpoint_cost), float(mtbi), float(restart)
    return Propagation(
        checkpoint_cost=c0,
        mtbi=m0,
        restart=r0,
        checkpoint_cost_range=c_range,
        mtbi_range=m_range,
        restart_range=r_range,
        interval=interval,
        optimal_interval=_optimum(which, scheme, c0, m0, r0),
        optimal_interval_range=(min(t_star), max(t_star)),
        goodput=_goodput(which, scheme, c0, m0, r0, interval),
        goodput_range=(min(good), max(good)),
        model=which,
        scheme=scheme,
    )


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
        ``(low, median, high)`` of T* in minutes; None through a scheme (where each draw's optimum
        would need a search of its own, and only goodput at the interval in use is drawn).
    goodput : tuple of float
        ``(low, median, high)`` of goodput by the model asked for.
    scheme : Tiers or None
        The drain and persistent tier the draws went through, if any.
    """

    draws: int
    seed: int
    optimal_interval: tuple[float, float, float] | None
    goodput: tuple[float, float, float]
    scheme: Tiers | None = None


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
) -> MonteCarlo:
    """Seeded Monte Carlo alternative to :func:`propagate`.

    The rate 1/M is drawn from its Jeffreys posterior, Gamma(count + 1/2,
    scale 1/exposure); C and R uniformly from their ranges, independently.
    With a scheme (a drain or a persistent tier), each draw is that scheme with
    the draw's C and R (as :func:`propagate` takes its corners), at the given
    interval, by the tier model; only goodput is drawn then.

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

    Returns
    -------
    MonteCarlo
        ``(low, median, high)`` percentiles of T* (one tier only) and of goodput.

    Raises
    ------
    InputError
        For a scheme without an interval.
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

    def pct(values: npt.NDArray[np.float64]) -> tuple[float, float, float]:
        low, mid, high = np.percentile(values, q)
        return float(low), float(mid), float(high)

    if scheme is not None:
        if interval is None:
            raise InputError("interval", None, "the interval in use, to draw goodput through a scheme")
        scheme.check_interval(interval)
        good = np.maximum(np.array([_goodput(which, scheme, float(ci), float(mi), float(ri), float(interval))
                                    for ci, mi, ri in zip(c, m, r, strict=True)]), 0.0)
        return MonteCarlo(draws=draws, seed=seed, optimal_interval=None, goodput=pct(good), scheme=scheme)
    t_star = optimum(c, m)
    good = np.maximum(goodput(c, m, r, None if interval is None else np.full(draws, float(interval))), 0.0)
    return MonteCarlo(draws=draws, seed=seed, optimal_interval=pct(t_star), goodput=pct(good))


#: The three inputs a range can be given for, in the order tables show them.
INPUTS = ("checkpoint_cost", "mtbi", "restart")

#: Where a range can come from: M's Poisson interval from a count, a range stated in the
#: inputs file, or none (the input is taken as exact).
ORIGINS = ("count", "stated", "none")


@dataclass(frozen=True)
class InputRange:
    """One input's point value and range, in minutes, and where the range came from.

    Parameters
    ----------
    name : str
        One of :data:`INPUTS`.
    point : float
        The value the plan uses.
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


def input_ranges(params: Params, confidence: float = 0.95) -> dict[str, InputRange]:
    """The range of each of C, M and R for a fleet, and where it came from.

    M given as a count over a window gets its exact Poisson interval
    (:func:`poisson_interval` of the count over the window); M given as a rate
    or as ``mtbi`` gets ``ranges.mtbi`` when the file states one. C and R get
    ``ranges.checkpoint_cost`` and ``ranges.restart``. An input with no range is
    exact (``low == high``, origin ``"none"``).

    Parameters
    ----------
    params : Params
        The fleet's inputs (see :mod:`goodput.params`).
    confidence : float, optional
        Confidence level of M's Poisson interval (default 0.95).

    Returns
    -------
    dict of str to InputRange
        Keyed by :data:`INPUTS`, in that order.

    Raises
    ------
    InputError
        If a stated range does not contain its point value, or the confidence
        is not in (0, 1).
    """
    confidence = _check_confidence(confidence)
    out: dict[str, InputRange] = {}
    points = {"checkpoint_cost": params.checkpoint_cost, "mtbi": params.mtbi, "restart": params.restart}
    for name in INPUTS:
        point = float(points[name])
        count, window = params.interruption_count, params.window
        if name == "mtbi" and params.mtbi_source == "interruptions" and count and window:
            low, high = poisson_interval(count, window, confidence)
            origin = "count"
        elif name in params.ranges:
            low, high = (float(v) for v in params.ranges[name])
            if not low <= point <= high:
                raise InputError(f"ranges.{name}", f"[{low:g} min, {high:g} min]",
                                 f"a range containing {name} itself, {point:g} min")
            origin = "stated"
        else:
            low = high = point
            origin = "none"
        out[name] = InputRange(name=name, point=point, low=low, high=high, origin=origin, confidence=confidence)
    return out


def propagate_params(
    params: Params, *, interval: float | None = None, confidence: float = 0.95, which: str = "first-order",
    scheme: Tiers | None = None,
) -> Propagation:
    """Carry a fleet's input ranges (:func:`input_ranges`) through to T* and goodput.

    Parameters
    ----------
    params : Params
        The fleet's inputs, with the fast checkpoint cost.
    interval : float, optional
        A fixed T in minutes (say the recommended T* from the point values);
        each corner at its own optimum when omitted.
    confidence : float, optional
        Confidence level of M's Poisson interval (default 0.95).
    which : {"first-order", "exact"}, optional
        The model (see :func:`propagate`).
    scheme : Tiers, optional
        The fleet's scheme with its cadence, as its plan has it (``plan.tiers``); needed
        when the inputs have a drain or a persistent tier.

    Returns
    -------
    Propagation
        See :func:`propagate`.

    Raises
    ------
    InputError
        For inputs with a drain or a persistent tier and no scheme (their ranges would
        otherwise be carried through a model without them).
    """
    if params.tiered and scheme is None:
        raise InputError("scheme", None, "the plan's scheme (plan.tiers) for inputs with a drain or a persistent tier")
    ranges = input_ranges(params, confidence)
    return propagate(
        params.checkpoint_cost,
        params.mtbi,
        params.restart,
        checkpoint_cost_range=ranges["checkpoint_cost"].bounds,
        mtbi_range=ranges["mtbi"].bounds,
        restart_range=ranges["restart"].bounds,
        interval=interval,
        which=which,
        scheme=scheme,
    )


@dataclass(frozen=True)
class Swing:
    """T* and goodput when one input moves over its range and the other two stay at their point values.

    Parameters
    ----------
    name : str
        The input moved, one of :data:`INPUTS`.
    low, high : float
        Its range, in minutes.
    goodput_at_low, goodput_at_high : float
        First-order goodput with the input at each end.
    optimal_interval_at_low, optimal_interval_at_high : float
        T* = sqrt(2CM) with the input at each end, in minutes.
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
        """Lowest and highest T* over the input's range, in minutes."""
        a, b = self.optimal_interval_at_low, self.optimal_interval_at_high
        return min(a, b), max(a, b)


def one_at_a_time(propagation: Propagation) -> list[Swing]:
    """Move each input over its range alone: which input's range dominates the goodput range.

    Each of C, M and R in turn goes to the two ends of its range while the
    other two stay at their point values; goodput is taken at the propagation's
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
    point = {"checkpoint_cost": p.checkpoint_cost, "mtbi": p.mtbi, "restart": p.restart}
    bounds = {"checkpoint_cost": p.checkpoint_cost_range, "mtbi": p.mtbi_range, "restart": p.restart_range}
    swings = []
    for name in INPUTS:
        ends = []
        for value in bounds[name]:
            x = dict(point, **{name: value})
            c, m, r = x["checkpoint_cost"], x["mtbi"], x["restart"]
            ends.append((p.goodput_at(c, m, r), p.optimal_interval_at(c, m, r)))
        (g_low, t_low), (g_high, t_high) = ends
        swings.append(Swing(name, *bounds[name], g_low, g_high, t_low, t_high))
    order = {name: i for i, name in enumerate(INPUTS)}
    return sorted(swings, key=lambda s: (-s.goodput_swing, order[s.name]))
