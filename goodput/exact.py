"""Beyond first order: the exact model for exponential failures, its Lambert-W optimum, and Daly's estimate.

Failures are a Poisson process of mean M striking during compute, checkpoint and restart
(a failure during a restart starts it over); a segment of T minutes of work and its C-minute
checkpoint is kept only when T + C minutes pass without one. The expected wall time per
segment is the standard result (Daly 2006)

    M e^{R/M} (e^{(T+C)/M} - 1),

so the exact goodput is T e^{-R/M} / (M (e^{(T+C)/M} - 1)), maximized at
T* = M (1 + W0(-e^{-(1 + C/M)})); R does not move the optimum. The wall time splits into
four parts that sum to one (:func:`exact_losses`), with x = (T+C)/M:

    goodput              e^{-R/M} (T/M) / (e^{x} - 1)
    checkpoint overhead  e^{-R/M} (C/M) / (e^{x} - 1)
    lost work            e^{-R/M} (1 - x / (e^{x} - 1))
    restart              1 - e^{-R/M}

Durations in minutes; functions work elementwise on NumPy arrays as well as floats and raise
InputError on a zero, negative or non-finite input. Derivations: :mod:`goodput.symbolic`.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np
import numpy.typing as npt

from goodput import model, validate
from goodput.errors import InputError
from goodput.model import X
from goodput.params import rate_from_mtbi

#: Below this C/M the optimum starts from its series rather than from W0, which is
#: ill-conditioned next to its branch point -1/e.
_SMALL_C_OVER_M = 1e-4

#: Below this C/M the optimum is polished by Newton's method.
_POLISH_BELOW = 0.5

#: Below this x = (T+C)/M, 1 - x/(e^x - 1) is computed from its Taylor series.
_SMALL_X = 1e-2


def _out(array: npt.NDArray[np.float64]) -> Any:
    """A 0-d result as a Python float, anything else as a float array."""
    return float(array) if np.ndim(array) == 0 else np.asarray(array, dtype=np.float64)


def _arrays(**named: Any) -> list[npt.NDArray[np.float64]]:
    """Each input as a float array (0-d for a number), raising InputError for the first not finite and positive."""
    return [validate.positive_array(value, name) for name, value in named.items()]


def _plain(*arrays: npt.NDArray[np.float64]) -> list[Any]:
    """Validated inputs to pass on: a 0-d array as its float (read quickly again), any other array as it is."""
    return [float(a) if a.ndim == 0 else a for a in arrays]


def _one_minus_x_over_expm1(x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """1 - x/(e^x - 1), accurate for tiny x (series) and safe for huge x (tends to 1)."""
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        x2 = x * x
        series = x / 2.0 - x2 / 12.0 + x2 * x2 / 720.0 - x2 * x2 * x2 / 30240.0 + x2 * x2 * x2 * x2 / 1209600.0
        direct = 1.0 - x / np.expm1(x)
    return np.where(x < _SMALL_X, series, direct)


def exact_optimal_interval(checkpoint_cost: X, mtbi: X) -> X:
    """The interval that maximizes exact goodput, T* = M (1 + W0(-e^{-(1 + C/M)})).

    Setting the derivative to zero gives e^{(T+C)/M} (1 - T/M) = 1; with u = T/M - 1 this is
    u e^u = -e^{-(1 + C/M)}, whose root in (-1, 0) is W0. T* < M, and sqrt(2CM)
    (1 - sqrt(2C/M)/3 + ...) for small C/M. Accurate to about 1e-15 relative: W0 is polished
    by Newton's method, and below C/M = 1e-4 (ill-conditioned) replaced by a series.

    >>> round(exact_optimal_interval(1.0, 185.6), 2)
    18.61
    """
    c, m = _arrays(checkpoint_cost=checkpoint_cost, mtbi=mtbi)
    if c.ndim == 0 and m.ndim == 0:
        return _optimal_interval_of(float(c), float(m))  # type: ignore[return-value]
    return _out(_optimal_interval(c, m))  # type: ignore[no-any-return]


# The plans, pages and figures ask again and again for the optimum of the same fleet's C and M (most of the calls
# the book and its tests make): one C and M is solved once.
@functools.lru_cache(maxsize=4096)
def _optimal_interval_of(c: float, m: float) -> float:
    return float(_optimal_interval(np.asarray(c), np.asarray(m)))


def _optimal_interval(c: npt.NDArray[np.float64], m: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """:func:`exact_optimal_interval` of validated arrays, elementwise."""
    from scipy.special import lambertw  # kept off the import path

    ratio = np.broadcast_to(c / m, np.broadcast(c, m).shape).astype(np.float64)
    closed = np.array(1.0 + lambertw(-np.exp(-(1.0 + ratio)), 0).real, dtype=np.float64)
    # Newton's method on phi(t) = -t - log(1 - t) = C/M (t = T/M), phi summed as a series for small t so
    # nothing cancels, from W0 or (below _SMALL_C_OVER_M) the branch-point series (Daly's terms).
    polish = ratio < _POLISH_BELOW
    if np.any(polish):
        q = ratio[polish]
        root = np.sqrt(2.0 * q)
        t = np.where(q < _SMALL_C_OVER_M, root - 2.0 * q / 3.0 + q * root / 18.0, closed[polish])
        for _ in range(3):
            series = np.zeros_like(t)
            for n in range(14, 1, -1):
                series = (series + 1.0 / n) * t
            series *= t  # t^2/2 + t^3/3 + ... + t^14/14, in Horner form
            phi = np.where(t < 0.05, series, -t - np.log1p(-t))
            t = t - (phi - q) * (1.0 - t) / t  # phi'(t) = t / (1 - t)
        closed[polish] = t
    return m * closed


def exact_goodput(checkpoint_cost: X, mtbi: X, restart: X, interval: X | None = None) -> X:
    """Exact goodput for exponential failures, T e^{-R/M} / (M (e^{(T+C)/M} - 1)).

    T defaults to :func:`exact_optimal_interval`; 0 where the exponential underflows.

    >>> round(exact_goodput(1.0, 185.6, 5.0), 3)
    0.876
    """
    c, m, r = _arrays(checkpoint_cost=checkpoint_cost, mtbi=mtbi, restart=restart)
    t = validate.positive_array(exact_optimal_interval(*_plain(c, m)) if interval is None else interval, "interval")
    with np.errstate(over="ignore"):
        value = t * np.exp(-r / m) / (m * np.expm1((t + c) / m))
    return _out(value)  # type: ignore[no-any-return]


def daly_interval(checkpoint_cost: X, mtbi: X) -> X:
    """Daly's higher-order estimate of the optimum interval (Daly 2006, eq. 37).

    T = sqrt(2CM) [1 + (1/3) sqrt(C/(2M)) + (1/9) (C/(2M))] - C for C < 2M, and T = M otherwise.
    It agrees with :func:`exact_optimal_interval`'s series through (C/M)^{3/2}: relative error
    about -0.0105 (C/M)^{3/2} (under 2% up to C = M), against +sqrt(2C/M)/3 for Young's
    sqrt(2CM). For 0 < C <= M Daly lies just below the exact optimum and Young above it.

    >>> round(daly_interval(1.0, 185.6), 2)
    18.61
    """
    c, m = _arrays(checkpoint_cost=checkpoint_cost, mtbi=mtbi)
    half = c / (2.0 * m)
    estimate = np.sqrt(2.0 * c * m) * (1.0 + np.sqrt(half) / 3.0 + half / 9.0) - c
    return _out(np.where(c < 2.0 * m, estimate, m * np.ones_like(estimate)))  # type: ignore[no-any-return]


def exact_losses(
    checkpoint_cost: float, mtbi: float, restart: float, interval: float | None = None
) -> model.Losses:
    """Break the exact goodput into checkpoint overhead, lost work and restart (see the module docstring).

    Per kept segment, with x = (T+C)/M: e^x - 1 failures are expected, losing M (e^x - 1) - (T+C)
    of work and partial checkpoints; restarts take M (e^{R/M} - 1) counting interrupted ones.
    Dividing by the wall time M e^{R/M} (e^x - 1) gives the shares, which sum to one. T
    defaults to the exact optimum. Returns plain floats in the first-order breakdown's type.

    >>> b = exact_losses(1.0, 185.6, 5.0)
    >>> [round(100 * v, 1) for v in (b.checkpoint_overhead, b.lost_work, b.restart_loss, b.goodput)]
    [4.7, 5.1, 2.7, 87.6]
    """
    c, m, r = (float(x) for x in _arrays(checkpoint_cost=checkpoint_cost, mtbi=mtbi, restart=restart))
    t = float(validate.positive_array(exact_optimal_interval(c, m) if interval is None else interval, "interval"))
    x = np.float64((t + c) / m)
    survive_restart = np.exp(-r / m)
    with np.errstate(over="ignore"):
        per_failure_free = survive_restart / (m * np.expm1(x))
    return model.Losses(
        interval=t,
        checkpoint_overhead=float(c * per_failure_free),
        lost_work=float(survive_restart * _one_minus_x_over_expm1(np.asarray(x))),
        restart_loss=float(-np.expm1(-r / m)),
    )


# --------------------------------------------------------------------------- comparisons with first order


def checkpoint_cost_for_goodput(target: float, mtbi: float, restart: float) -> float | None:
    """The largest checkpoint cost whose exact goodput, at its own optimum, still reaches a target.

    Goodput at the optimum tends to e^{-R/M} as C -> 0, so a cost (at most M) exists only for a
    target below it, else None. Brent's method, to about 1e-12 minutes.

    >>> c = checkpoint_cost_for_goodput(0.9, 185.6, 5.0)
    >>> round(c * 60, 1), round(float(exact_goodput(c, 185.6, 5.0)), 9)
    (33.4, 0.9)
    """
    from scipy.optimize import brentq

    m = validate.positive(mtbi, "mtbi", validate.POSITIVE_MINUTES)
    r = validate.positive(restart, "restart", validate.POSITIVE_MINUTES)
    goal = validate.share(target, "target")
    if goal >= math.exp(-r / m):
        return None
    if float(exact_goodput(m, m, r)) >= goal:
        return m
    return float(brentq(lambda c: float(exact_goodput(c, m, r)) - goal, 1e-9 * m, m, xtol=1e-12))


def numerical_optimal_interval(checkpoint_cost: float, mtbi: float, restart: float) -> float:
    """The interval that maximizes exact goodput, found by a numerical minimizer rather than Lambert W.

    SciPy's bounded Brent on (0, M], to about 1e-9 relative: a check of
    :func:`exact_optimal_interval`. R cannot move the optimum; it is an argument so that this
    can be checked.

    >>> round(numerical_optimal_interval(1.0, 185.6, 5.0), 2)
    18.61
    """
    from scipy.optimize import minimize_scalar  # kept off the import path

    c, m, r = (float(x) for x in _arrays(checkpoint_cost=checkpoint_cost, mtbi=mtbi, restart=restart))
    scale = min(math.sqrt(2.0 * c * m), m)  # Young's interval, capped at M: the optimum is below M

    survive = math.exp(-r / m)  # goodput is this times (T/M)/(e^{(T+C)/M} - 1), whatever T is

    def negative_goodput(u: float) -> float:
        t = u * scale
        if survive > 1e-290:
            return -float(exact_goodput(c, m, r, t)) / survive
        with np.errstate(over="ignore"):  # R/M so large that goodput underflows: the factor that depends on T
            return -float(t / m / np.expm1((t + c) / m))

    upper = m / scale
    found = minimize_scalar(negative_goodput, bounds=(1e-6, upper), method="bounded",
                            options={"xatol": 1e-10, "maxiter": 500})
    if not found.success:  # pragma: no cover - Brent's bounded method converges on a unimodal function
        raise RuntimeError(f"the minimizer did not converge: {found.message}")
    return float(found.x) * scale


def first_order_error(checkpoint_cost: X, mtbi: X, restart: X) -> X:
    """How far the first-order goodput at sqrt(2CM) falls short of the exact goodput at the exact optimum.

    The error of quoting 1 - sqrt(2C/M) - R/M (:func:`goodput.model.goodput`), as a fraction of 1:
    about the second-order term at T*, 2C/(3M) + R sqrt(2C/M)/M + R^2/(2M^2) + ...; positive,
    and unbounded as M shrinks (first order goes below zero).

    >>> round(100 * first_order_error(1.0, 185.6, 5.0), 1)
    0.7
    """
    c, m, r = _arrays(checkpoint_cost=checkpoint_cost, mtbi=mtbi, restart=restart)
    first = 1.0 - np.sqrt(2.0 * c / m) - r / m  # goodput.model.goodput at T*, on arrays of any shape
    return _out(np.asarray(exact_goodput(*_plain(c, m, r)), dtype=np.float64) - first)  # type: ignore[no-any-return]


def range_check(
    checkpoint_cost: float, mtbi: float, restart: float, interval: float | None = None
) -> model.RangeCheck:
    """Judge the first-order numbers of a plan by how far they are from the exact model's.

    With no interval the error is :func:`first_order_error`; with one, both models are taken at
    it. The verdict is :attr:`goodput.model.RangeCheck.status`.

    >>> range_check(1.0, 185.6, 5.0).status, range_check(5.0, 185.6, 5.0).status
    ('ok', 'caution')
    >>> round(100 * range_check(5.0, 185.6, 5.0).error, 1)
    2.4
    """
    first = model.losses(checkpoint_cost, mtbi, restart, interval)
    if interval is None:
        error = float(first_order_error(checkpoint_cost, mtbi, restart))
    else:
        error = float(exact_goodput(checkpoint_cost, mtbi, restart, interval)) - first.goodput
    return model.RangeCheck(goodput=1.0 - first.total, error=error)


def first_order_error_threshold(
    checkpoint_cost: float, restart: float, rate_per_gpu_hour: float, tolerance: float = 0.01
) -> float:
    """The fleet size (GPUs, not rounded) beyond which the first-order goodput is off by more than `tolerance`.

    M = 60/(rate x GPUs) minutes, rate per GPU-hour; Brent's method on log M finds where
    :func:`first_order_error` equals `tolerance` (a fraction of 1, below 1). For R -> 0 and a
    small tolerance e, M is about 2C/(3e).

    >>> round(first_order_error_threshold(1.0, 5.0, 2e-5) / 1000)
    23
    """
    from scipy.optimize import brentq  # kept off the import path

    c, r, rate, tol = (float(x) for x in _arrays(checkpoint_cost=checkpoint_cost, restart=restart,
                                                   rate_per_gpu_hour=rate_per_gpu_hour, tolerance=tolerance))
    if tol >= 1.0:
        raise InputError("tolerance", tolerance, "a fraction of 1 above 0 and below 1")

    def excess(log_m: float) -> float:
        return float(first_order_error(c, math.exp(log_m), r)) - tol

    scale = c + r
    low, high = math.log(scale) - 5.0, math.log(scale) + 5.0
    while excess(low) <= 0.0:
        low -= 5.0
    while excess(high) >= 0.0:
        high += 5.0
    log_m = brentq(excess, low, high, xtol=1e-12, rtol=1e-12)
    return float(rate_from_mtbi(math.exp(log_m), rate))


def first_order_zero_fleet(checkpoint_cost: float, restart: float, rate_per_gpu_hour: float) -> float:
    """The fleet size (GPUs, not rounded) at which the first-order goodput at T* = sqrt(2CM) reaches zero.

    1 - sqrt(2C/M) - R/M = 0 is R s^2 + sqrt(2C) s - 1 = 0 in s = 1/sqrt(M); M = 1/s^2 gives
    60/(rate x M) GPUs. Beyond it first order says no work is kept; the exact model disagrees.

    >>> round(first_order_zero_fleet(5.0, 5.0, 2e-5))
    160770
    """
    c, r, rate = (float(x) for x in _arrays(checkpoint_cost=checkpoint_cost, restart=restart,
                                            rate_per_gpu_hour=rate_per_gpu_hour))
    root = 2.0 / (math.sqrt(2.0 * c) + math.sqrt(2.0 * c + 4.0 * r))  # (-b + sqrt(b^2 + 4R)) / (2R), rationalized
    return float(rate_from_mtbi(1.0 / root**2, rate))


# --------------------------------------------------------------------------- choosing a model

#: The two models of a single checkpoint tier: first order (:mod:`goodput.model`) and exact (this module).
MODELS = ("first-order", "exact")


def model_functions(which: str) -> tuple[Any, Any]:
    """The elementwise ``goodput(C, M, R, interval=None)`` and ``optimal_interval(C, M)`` of the named model.

    `which` is "first-order" or "exact"; anything else raises InputError.

    >>> goodput, optimum = model_functions("exact")
    >>> round(optimum(1.0, 185.6), 2)
    18.61
    """
    if validate.choice(which, "model", MODELS) == "exact":
        return exact_goodput, exact_optimal_interval
    return model.goodput, model.optimal_interval
