"""The shape of the failure process: a Weibull fit to the gaps between failures, and a test of exponential.

Gaps are on the exposure clock of :mod:`goodput.logs.measure` (wall time less planned downtime; restarts
count, as in M). The first runs from the log's first ``start``; the last, from the last failure to the
end of the log, is right-censored; a planned stop does not renew the process.

Weibull gaps (shape k, scale lam) survive ``exp(-(t/lam)^k)`` with mean ``lam Gamma(1 + 1/k)``; k < 1 a
falling hazard (failures bunch), k = 1 exponential, k > 1 more regular than at random. With r complete
gaps t_i and S(k) = sum t^k over all gaps, lam^k = S(k)/r maximizes the likelihood for a given k, leaving
the profile ``l(k) = r log k - r log(S(k)/r) + (k - 1) sum log t_i - r``. Its score
``r [1/k - A(k)] + sum log t_i`` (A the t^k-weighted mean of log t) falls strictly with k, so the shape is
its one root (:func:`scipy.optimize.brentq`), the estimate :func:`scipy.stats.weibull_min.fit` (location
0) converges to; the tests check they agree. The interval of k is the profile-likelihood one (within
``chi2(confidence; 1) / 2`` of the maximum, Wilks); the test of exponential compares ``2 [l(k_hat) - l(1)]``
with chi-square(1). Both are rough for a dozen gaps: :func:`coverage` and :func:`power` measure them by
seeded simulation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy.optimize import brentq
from scipy.special import chdtrc, chdtri, gammaln

from goodput import validate
from goodput.errors import InputError
from goodput.logs import json_ready

Array = npt.NDArray[np.float64]

#: Fewest complete gaps a fit is made from.
MIN_GAPS = 3

#: Shapes searched for the estimate and the ends of its interval; an end beyond them is reported as 0 or inf.
SHAPE_SEARCH = (1e-3, 1e3)

#: Why a fit could not be made (a code; the words are in :mod:`goodput.report`).
FIT_PROBLEMS = ("too few gaps", "zero gap", "equal gaps")
#: Relative difference under which gaps count as equal: times read in seconds and kept in minutes are not
#: exact, and gaps of 100 s each may differ in their last bits (the likelihood then peaks at the search's bound).
EQUAL_GAPS = 1e-9


@dataclass(frozen=True)
class WeibullFit:
    """A Weibull distribution fitted to the gaps between failures by maximum likelihood.

    ``scale`` and ``mean`` in minutes; log-likelihoods with gaps in minutes. An end of ``shape_interval``
    beyond :data:`SHAPE_SEARCH` is 0 or ``inf``. ``p_value`` is the likelihood-ratio test of k = 1
    (``lr_statistic``, chi-square with one degree of freedom); ``censored`` counts open gaps.
    """

    shape: float
    scale: float
    mean: float
    shape_interval: tuple[float, float]
    confidence: float
    gaps: int
    censored: int
    log_likelihood: float
    log_likelihood_exponential: float
    lr_statistic: float
    p_value: float
    method: str = "profile likelihood"

    @property
    def exponential_inside(self) -> bool:
        """Whether k = 1 lies inside the interval of the shape."""
        low, high = self.shape_interval
        return low <= 1.0 <= high

    def to_dict(self) -> dict[str, Any]:
        """The fit as JSON-ready values (an infinite end of the interval becomes ``None``)."""
        return {f.name: json_ready(getattr(self, f.name)) for f in fields(self)}


def _gaps(gaps: npt.ArrayLike, censored: npt.ArrayLike) -> tuple[Array, Array]:
    t = np.asarray(gaps, dtype=np.float64).ravel()
    c = np.asarray(censored, dtype=np.float64).ravel()
    for name, values in (("gaps", t), ("censored", c)):
        if not np.all(np.isfinite(values)) or np.any(values < 0.0):
            raise InputError(name, f"{values.size} values", "finite gaps, zero or more")
    return t, c


def fit_problem(gaps: npt.ArrayLike, censored: npt.ArrayLike = ()) -> str | None:
    """Which of :data:`FIT_PROBLEMS` prevents a Weibull fit to these gaps, or ``None``.

    Fewer than :data:`MIN_GAPS` complete gaps; a zero gap (the likelihood grows without bound as k falls
    to 0); or complete gaps all equal with no longer open gap (it grows without bound as k rises).

    >>> fit_problem([1.0, 2.0]), fit_problem([1.0, 0.0, 2.0]), fit_problem([2.0, 2.0, 2.0]), fit_problem([1, 2, 4])
    ('too few gaps', 'zero gap', 'equal gaps', None)
    """
    t, c = _gaps(gaps, censored)
    if t.size < MIN_GAPS:
        return FIT_PROBLEMS[0]
    if np.any(t == 0.0):
        return FIT_PROBLEMS[1]
    top = float(t.max())
    if float(t.min()) >= top * (1.0 - EQUAL_GAPS) and not np.any(c > top * (1.0 + EQUAL_GAPS)):
        return FIT_PROBLEMS[2]
    return None


class _Profile:
    """The profile log-likelihood of the shape, for gaps rescaled to a geometric mean of 1 (k is scale-free)."""

    def __init__(self, gaps: Array, censored: Array) -> None:
        log_unit = float(np.log(gaps).mean())
        self.unit = math.exp(log_unit)
        self.log_t = np.log(gaps) - log_unit  # logarithms first: a tiny gap over the unit would underflow to 0
        positive = censored[censored > 0.0]  # an open gap of zero says nothing
        self.log_all = np.concatenate([self.log_t, np.log(positive) - log_unit])
        self.r = gaps.size
        self.sum_log = float(self.log_t.sum())  # 0 by the rescaling, up to rounding

    def log_s(self, k: float) -> float:
        """The logarithm of S(k), by log-sum-exp."""
        z = k * self.log_all
        top = float(z.max())
        return top + math.log(float(np.exp(z - top).sum()))

    def __call__(self, k: float) -> float:
        """l(k), up to the constant the rescaling adds (the same at every k)."""
        return self.r * math.log(k) - self.r * (self.log_s(k) - math.log(self.r)) + (k - 1.0) * self.sum_log - self.r

    def score(self, k: float) -> float:
        """dl/dk / r: 1/k - A(k) + mean log t."""
        z = k * self.log_all
        w = np.exp(z - z.max())
        return 1.0 / k - float((w * self.log_all).sum() / w.sum()) + self.sum_log / self.r

    @property
    def shift(self) -> float:
        """The log-likelihood in the gaps' own unit less the rescaled one, ``-r log(unit)`` at every k.

        Each complete gap's density picks up 1/unit from the change of variable; survival terms do not.
        """
        return -self.r * math.log(self.unit)


def _weibull_mean(scale: float, k: float) -> float:
    """The Weibull mean, scale x Gamma(1 + 1/k): infinite where it does not fit a float (a very small shape)."""
    log_mean = math.log(scale) + float(gammaln(1.0 + 1.0 / k))
    return math.exp(log_mean) if log_mean < 709.0 else math.inf


def _root(f: Any, low: float, high: float) -> float:
    return float(brentq(f, low, high, xtol=1e-12, rtol=1e-10, maxiter=500))


def _best_shape(prof: _Profile) -> tuple[float, float]:
    """The shape that maximizes the profile log-likelihood, and that maximum."""
    low, high = SHAPE_SEARCH
    k = _root(prof.score, low, high) if prof.score(high) < 0.0 else high
    return k, prof(k)


def _drop(level: float) -> float:
    """How far below its maximum the profile log-likelihood falls at the ends of the `level` interval."""
    return float(chdtri(1, 1.0 - level)) / 2.0  # chi2 quantile: chdtri(df, upper tail)


def fit_weibull(gaps: npt.ArrayLike, censored: npt.ArrayLike = (), confidence: float = 0.95) -> WeibullFit:
    """Fit a Weibull distribution (location 0) to gaps between failures, minutes, by maximum likelihood.

    ``censored`` are open gaps (time since the last failure when the log ends). Raises InputError for
    negative or non-finite gaps or when :func:`fit_problem` names a problem.

    >>> f = fit_weibull([10.0, 20.0, 40.0, 80.0])
    >>> round(f.shape, 3), f.gaps, f.censored
    (1.449, 4, 0)
    """
    t, c = _gaps(gaps, censored)
    if (problem := fit_problem(t, c)) is not None:
        raise InputError("gaps", f"{t.size} complete gaps", f"a sample a Weibull fit can be made from ({problem})")
    level = validate.share(confidence, "confidence", open_low=True, open_high=True)
    prof = _Profile(t, c)
    low, high = SHAPE_SEARCH
    k, top = _best_shape(prof)
    drop = _drop(level)

    def below(x: float) -> float:
        return prof(x) - (top - drop)

    k_low = _root(below, low, k) if below(low) < 0.0 else 0.0
    k_high = _root(below, k, high) if below(high) < 0.0 else math.inf
    scale = prof.unit * math.exp((prof.log_s(k) - math.log(prof.r)) / k)
    exp1 = prof(1.0)
    shift = prof.shift
    stat = max(0.0, 2.0 * (top - exp1))
    return WeibullFit(
        shape=k,
        scale=scale,
        mean=_weibull_mean(scale, k),
        shape_interval=(k_low, k_high),
        confidence=level,
        gaps=int(t.size),
        censored=int(np.count_nonzero(c > 0.0)),
        log_likelihood=top + shift,
        log_likelihood_exponential=exp1 + shift,
        lr_statistic=stat,
        p_value=float(chdtrc(1, stat)),
    )


def shape_test(gaps: npt.ArrayLike, shape: float, censored: npt.ArrayLike = ()) -> tuple[float, float]:
    """Likelihood-ratio test of one Weibull shape against the best: its statistic and p-value.

    The statistic is ``2 [l(k_hat) - l(shape)]``, against chi-square(1); at shape 1, :attr:`WeibullFit.p_value`.

    >>> stat, p = shape_test([10.0, 20.0, 40.0, 80.0], 1.0)
    >>> round(p, 6) == round(fit_weibull([10.0, 20.0, 40.0, 80.0]).p_value, 6)
    True
    """
    k = validate.positive(shape, "shape")
    fit = fit_weibull(gaps, censored)
    prof = _Profile(*_gaps(gaps, censored))
    stat = max(0.0, 2.0 * (fit.log_likelihood - prof.shift - prof(k)))
    return stat, float(chdtrc(1, stat))


def survival_curve(gaps: npt.ArrayLike, censored: npt.ArrayLike = ()) -> tuple[Array, Array]:
    """The Kaplan-Meier share of gaps longer than t: the distinct complete gaps, sorted, and the survival after each.

    At each complete gap t the estimate is multiplied by ``1 - d/n`` (d gaps ending at t, n of length t or
    more); an open gap only leaves the count.

    >>> t, s = survival_curve([1.0, 2.0, 3.0], [2.5])
    >>> t.tolist(), s.round(4).tolist()
    ([1.0, 2.0, 3.0], [0.75, 0.5, 0.0])
    """
    t, c = _gaps(gaps, censored)
    times = np.unique(t)
    every = np.concatenate([t, c])
    at_risk = np.array([np.count_nonzero(every >= x) for x in times], dtype=np.float64)
    ending = np.array([np.count_nonzero(t == x) for x in times], dtype=np.float64)
    return times, np.cumprod(1.0 - ending / at_risk).astype(np.float64)


# ---------------------------------------------------------------- how far to trust it, by simulation


def _simulated(shape: float, gaps: int, trials: int, seed: int) -> npt.NDArray[np.float64]:
    """`trials` samples of `gaps` Weibull(shape, scale 1) draws, by inversion from one seeded generator."""
    rng = np.random.default_rng(seed)
    u = rng.random((trials, gaps))
    return np.power(-np.log1p(-u), 1.0 / shape)


def _best_shapes(samples: Array) -> tuple[Array, Array, Array]:
    """:func:`_best_shape` for each row of `samples` (uncensored gaps) at once: rescaled log-gaps, shapes, maxima.

    The score falls strictly with k, so its root is found by bisection of :data:`SHAPE_SEARCH`, all rows together,
    until the bracket is narrower than brentq's tolerance in :func:`_root` (the maxima agree to rounding: l is flat
    at its top); a row whose score is still positive at the upper end keeps that end, as in :func:`_best_shape`.
    """
    log_gaps = np.log(samples)
    log_t = log_gaps - log_gaps.mean(axis=1, keepdims=True)
    low, high = SHAPE_SEARCH
    lo = np.full(log_t.shape[0], low)
    hi = np.full(log_t.shape[0], high)
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        falling = _scores(log_t, mid) < 0.0
        hi = np.where(falling, mid, hi)
        lo = np.where(falling, lo, mid)
        if float(np.max(hi - lo)) <= 1e-12:
            break
    k = np.where(_scores(log_t, np.full_like(lo, high)) < 0.0, 0.5 * (lo + hi), high)
    return log_t, k, _profiles(log_t, k)


def _scores(log_t: Array, k: Array) -> Array:
    """:meth:`_Profile.score` of each row of rescaled, uncensored log-gaps at its own k."""
    z = k[:, None] * log_t
    w = np.exp(z - z.max(axis=1, keepdims=True))
    score: Array = 1.0 / k - (w * log_t).sum(axis=1) / w.sum(axis=1) + log_t.sum(axis=1) / log_t.shape[1]
    return score


def _profiles(log_t: Array, k: Array) -> Array:
    """:meth:`_Profile.__call__` of each row of rescaled, uncensored log-gaps at its own k."""
    r = log_t.shape[1]
    z = k[:, None] * log_t
    top = z.max(axis=1)
    log_s = top + np.log(np.exp(z - top[:, None]).sum(axis=1))
    profile: Array = r * np.log(k) - r * (log_s - math.log(r)) + (k - 1.0) * log_t.sum(axis=1) - r
    return profile


def coverage(shape: float, gaps: int, *, confidence: float = 0.95, trials: int = 2000, seed: int = 0) -> float:
    """How often the profile-likelihood interval covers the true shape, over seeded uncensored samples of ``gaps``."""
    drop = _drop(validate.share(confidence, "confidence", open_low=True, open_high=True))
    # The interval is where the profile log-likelihood, concave in k, is within `drop` of its maximum: it holds
    # `shape` exactly when l(shape) does, which needs neither of its ends (two root searches a sample).
    log_t, _, top = _best_shapes(_simulated(shape, gaps, trials, seed))
    hits = int(np.count_nonzero(_profiles(log_t, np.full(trials, float(shape))) >= top - drop))
    return hits / trials


def power(shape: float, gaps: int, *, level: float = 0.05, trials: int = 2000, seed: int = 0) -> float:
    """How often the likelihood-ratio test rejects exponential gaps (p < ``level``) when the truth is Weibull(shape).

    Seeded uncensored samples of ``gaps``; at shape 1, the test's actual size.
    """
    # The test of fit_weibull, without its interval's two root searches.
    log_t, _, top = _best_shapes(_simulated(shape, gaps, trials, seed))
    stat = np.maximum(0.0, 2.0 * (top - _profiles(log_t, np.ones(trials))))
    return int(np.count_nonzero(chdtrc(1, stat) < level)) / trials


# ---------------------------------------------------------------- what a shape does to goodput


@dataclass(frozen=True)
class ShapeEffect:
    """Simulated goodput with Weibull renewal failures of several shapes (mean gap M), against exponential failures.

    ``difference_stderr`` adds the independent simulations' errors in quadrature. ``interval`` and
    ``horizon`` in minutes; shape i was simulated with seed ``seed + 1 + i``.
    """

    shapes: tuple[float, ...]
    goodput: tuple[float, ...]
    stderr: tuple[float, ...]
    exponential: float
    exponential_stderr: float
    difference: tuple[float, ...]
    difference_stderr: tuple[float, ...]
    interval: float
    horizon: float
    seed: int


def shape_effect(
    checkpoint_cost: float,
    mtbi: float,
    restart: float,
    interval: float,
    shapes: Sequence[float],
    *,
    failures: float = 200_000,
    seed: int = 0,
) -> ShapeEffect:
    """Simulate goodput at one interval with Weibull renewal failures of each shape, and with exponential ones.

    Minutes; each simulation is ``failures`` mean gaps long; seeds as :class:`ShapeEffect` says.
    """
    from goodput.simulate import FailureProcess, simulate

    horizon = float(failures) * mtbi
    base = simulate(checkpoint_cost, mtbi, restart, interval, horizon, seed=seed)
    results = [
        simulate(checkpoint_cost, mtbi, restart, interval, horizon,
                 process=FailureProcess("weibull", shape=k, hazard="renewal"), seed=seed + 1 + i)
        for i, k in enumerate(shapes)
    ]
    return ShapeEffect(
        shapes=tuple(float(k) for k in shapes),
        goodput=tuple(r.goodput for r in results),
        stderr=tuple(r.stderr for r in results),
        exponential=base.goodput,
        exponential_stderr=base.stderr,
        difference=tuple(r.goodput - base.goodput for r in results),
        difference_stderr=tuple(math.hypot(r.stderr, base.stderr) for r in results),
        interval=float(interval),
        horizon=horizon,
        seed=int(seed),
    )
