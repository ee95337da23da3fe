"""Beyond first order: the exact model for exponential failures, its Lambert-W optimum, and Daly's estimate.

With failures arriving as a Poisson process of mean time between
interruptions M, able to strike during compute, during a checkpoint and during
a restart, a segment of T minutes of work followed by a checkpoint of C minutes
is kept only when T + C minutes pass without a failure. Each failure costs the
time since the segment started plus a restart of R minutes, and a failure
during the restart starts the restart over. The expected wall time per segment
is the standard result (Daly 2006)

    M e^{R/M} (e^{(T+C)/M} - 1),

so the exact goodput is

    T e^{-R/M} / (M (e^{(T+C)/M} - 1)).

It is maximized at T* = M (1 + W0(-e^{-(1 + C/M)})), with W0 the principal
branch of the Lambert W function. R does not move the optimum: it multiplies
the wall time by e^{R/M} whatever T is.

The wall time splits into four parts that sum to one (see :func:`exact_losses`):

    goodput              e^{-R/M} (T/M) / (e^{x} - 1)            with x = (T+C)/M
    checkpoint overhead  e^{-R/M} (C/M) / (e^{x} - 1)
    lost work            e^{-R/M} (1 - x / (e^{x} - 1))
    restart              1 - e^{-R/M}

Every function here takes minutes and works elementwise on NumPy arrays as
well as on floats. The symbolic derivations of these results are in
:mod:`goodput.symbolic`.
"""

from __future__ import annotations

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


def _one_minus_x_over_expm1(x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """1 - x/(e^x - 1), accurate for tiny x (series) and safe for huge x (tends to 1)."""
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        x2 = x * x
        series = x / 2.0 - x2 / 12.0 + x2 * x2 / 720.0 - x2 * x2 * x2 / 30240.0 + x2 * x2 * x2 * x2 / 1209600.0
        direct = 1.0 - x / np.expm1(x)
    return np.where(x < _SMALL_X, series, direct)


def exact_wall_time_per_work(checkpoint_cost: X, mtbi: X, restart: X, interval: X) -> X:
    """Expected wall time per minute of kept work, e^{R/M} M (e^{(T+C)/M} - 1) / T.

    Parameters
    ----------
    checkpoint_cost : float or ndarray
        C, minutes per checkpoint.
    mtbi : float or ndarray
        M, mean minutes between interruptions (exponential failures).
    restart : float or ndarray
        R, minutes per restart.
    interval : float or ndarray
        T, minutes of work between checkpoints.

    Returns
    -------
    float or ndarray
        The reciprocal of :func:`exact_goodput`; at least 1, infinite when it overflows.

    Raises
    ------
    InputError
        If an input is zero, negative, NaN or infinite.
    """
    c = validate.positive_array(checkpoint_cost, "checkpoint_cost")
    m = validate.positive_array(mtbi, "mtbi")
    r = validate.positive_array(restart, "restart")
    t = validate.positive_array(interval, "interval")
    with np.errstate(over="ignore"):
        wall = np.exp(r / m) * m * np.expm1((t + c) / m) / t
    return _out(wall)  # type: ignore[no-any-return]


def exact_optimal_interval(checkpoint_cost: X, mtbi: X) -> X:
    """The interval that maximizes exact goodput, T* = M (1 + W0(-e^{-(1 + C/M)})).

    Setting the derivative of the wall time per work to zero gives
    e^{(T+C)/M} (1 - T/M) = 1; with u = T/M - 1 this is u e^u = -e^{-(1 + C/M)},
    whose root in (-1, 0) is the principal branch W0. The restart time R does
    not appear: it multiplies the wall time per work by e^{R/M} for every T,
    so it cannot move the optimum.

    Parameters
    ----------
    checkpoint_cost : float or ndarray
        C, minutes per checkpoint.
    mtbi : float or ndarray
        M, mean minutes between interruptions.

    Returns
    -------
    float or ndarray
        T*, minutes of work between checkpoints; below M, and sqrt(2CM) (1 - sqrt(2C/M)/3 + ...)
        for small C/M. Accurate to about 1e-15 relative for any C/M: W0 is polished by
        Newton's method, and below C/M = 1e-4, where W0 is ill-conditioned, replaced by a series.

    Raises
    ------
    InputError
        If an input is zero, negative, NaN or infinite.

    Examples
    --------
    >>> round(exact_optimal_interval(1.0, 185.6), 2)
    18.61
    """
    from scipy.special import lambertw  # kept off the import path

    c = validate.positive_array(checkpoint_cost, "checkpoint_cost")
    m = validate.positive_array(mtbi, "mtbi")
    ratio = np.broadcast_to(c / m, np.broadcast(c, m).shape).astype(np.float64)
    closed = np.array(1.0 + lambertw(-np.exp(-(1.0 + ratio)), 0).real, dtype=np.float64)
    # Polish with Newton's method on phi(t) = -t - log(1 - t) = C/M (t = T/M), with
    # phi summed as a series for small t so nothing cancels. Below C/M = 1e-4, where
    # W0 is ill-conditioned next to its branch point, start from the branch-point
    # series (Daly's terms) instead of W0. Above C/M = 0.5, W0 is already accurate.
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
    return _out(m * closed)  # type: ignore[no-any-return]


def exact_goodput(checkpoint_cost: X, mtbi: X, restart: X, interval: X | None = None) -> X:
    """Exact goodput for exponential failures, T e^{-R/M} / (M (e^{(T+C)/M} - 1)).

    Failures may strike during compute, checkpoint and restart; a failure
    during a restart starts it over.

    Parameters
    ----------
    checkpoint_cost : float or ndarray
        C, minutes per checkpoint.
    mtbi : float or ndarray
        M, mean minutes between interruptions.
    restart : float or ndarray
        R, minutes per restart.
    interval : float or ndarray, optional
        T, minutes of work between checkpoints; the exact optimum
        (:func:`exact_optimal_interval`) when omitted.

    Returns
    -------
    float or ndarray
        Fraction of wall time spent on work that is kept, in (0, 1)
        (0 where the exponential underflows).

    Raises
    ------
    InputError
        If an input is zero, negative, NaN or infinite.

    Examples
    --------
    >>> round(exact_goodput(1.0, 185.6, 5.0), 3)
    0.876
    """
    c = validate.positive_array(checkpoint_cost, "checkpoint_cost")
    m = validate.positive_array(mtbi, "mtbi")
    r = validate.positive_array(restart, "restart")
    t = validate.positive_array(exact_optimal_interval(c, m) if interval is None else interval, "interval")
    with np.errstate(over="ignore"):
        value = t * np.exp(-r / m) / (m * np.expm1((t + c) / m))
    return _out(value)  # type: ignore[no-any-return]


def daly_interval(checkpoint_cost: X, mtbi: X) -> X:
    """Daly's higher-order estimate of the optimum interval (Daly 2006, eq. 37).

    T = sqrt(2CM) [1 + (1/3) sqrt(C/(2M)) + (1/9) (C/(2M))] - C for C < 2M, and T = M otherwise.

    Expanded in C/M it is M [sqrt(2C/M) - 2C/(3M) + (C/M) sqrt(2C/M)/18], which
    agrees with the series of :func:`exact_optimal_interval` through the
    (C/M)^{3/2} term: its relative error is about -0.0105 (C/M)^{3/2} (under
    2% up to C = M), against about +sqrt(2C/M)/3 for Young's sqrt(2CM). For
    0 < C <= M Daly's estimate lies just below the exact optimum and Young's above it.

    Parameters
    ----------
    checkpoint_cost : float or ndarray
        C, minutes per checkpoint (Daly's dump time).
    mtbi : float or ndarray
        M, mean minutes between interruptions.

    Returns
    -------
    float or ndarray
        Daly's interval T in minutes of work between checkpoints.

    Raises
    ------
    InputError
        If an input is zero, negative, NaN or infinite.

    Examples
    --------
    >>> round(daly_interval(1.0, 185.6), 2)
    18.61
    """
    c = validate.positive_array(checkpoint_cost, "checkpoint_cost")
    m = validate.positive_array(mtbi, "mtbi")
    half = c / (2.0 * m)
    estimate = np.sqrt(2.0 * c * m) * (1.0 + np.sqrt(half) / 3.0 + half / 9.0) - c
    return _out(np.where(c < 2.0 * m, estimate, m * np.ones_like(estimate)))  # type: ignore[no-any-return]


def exact_losses(
    checkpoint_cost: float, mtbi: float, restart: float, interval: float | None = None
) -> model.Losses:
    """Break the exact goodput into checkpoint overhead, lost work and restart.

    Per segment (T minutes of work and its C-minute checkpoint) let x = (T+C)/M.
    Attempts at the segment fail with probability 1 - e^{-x}, so the expected
    number of failures per kept segment is e^x - 1. A failed attempt loses the
    time it ran, on average M - (T+C)/(e^x - 1), so the expected lost work
    (partial segments and partial checkpoints) per kept segment is
    M (e^x - 1) - (T+C). Each failure is followed by a restart that needs R
    failure-free minutes, which takes M (e^{R/M} - 1) on average counting
    interrupted restarts. With the kept T and C, the four parts add up to the
    wall time per segment M e^{R/M} (e^x - 1); dividing by it gives the
    fractions: checkpoint overhead e^{-R/M} (C/M) / (e^x - 1); lost work (work
    and partial checkpoints discarded by failures) e^{-R/M} (1 - x/(e^x - 1));
    restart (including restarts cut short) 1 - e^{-R/M}; and goodput
    e^{-R/M} (T/M) / (e^x - 1). They sum to one.

    Parameters
    ----------
    checkpoint_cost : float
        C, minutes per checkpoint.
    mtbi : float
        M, mean minutes between interruptions.
    restart : float
        R, minutes per restart.
    interval : float, optional
        T, minutes of work between checkpoints; the exact optimum when omitted.

    Returns
    -------
    goodput.model.Losses
        The interval used and the three losses, as plain Python floats (the same
        type as the first-order breakdown, so the two can be set side by side).

    Raises
    ------
    InputError
        If an input is zero, negative, NaN or infinite.

    Examples
    --------
    >>> b = exact_losses(1.0, 185.6, 5.0)
    >>> [round(100 * v, 1) for v in (b.checkpoint_overhead, b.lost_work, b.restart_loss, b.goodput)]
    [4.7, 5.1, 2.7, 87.6]
    """
    c = float(validate.positive_array(checkpoint_cost, "checkpoint_cost"))
    m = float(validate.positive_array(mtbi, "mtbi"))
    r = float(validate.positive_array(restart, "restart"))
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

    The exact goodput at the optimum falls as C grows and tends to e^{-R/M} as C tends to
    zero, so a cost exists only for a target below e^{-R/M}; it is found by Brent's method
    to about 1e-12 minutes. The first-order counterpart is
    :func:`goodput.model.checkpoint_cost_for_goodput`.

    Parameters
    ----------
    target : float
        Goodput to reach, as a fraction of 1.
    mtbi : float
        M, mean minutes between interruptions.
    restart : float
        R, minutes per restart.

    Returns
    -------
    float or None
        C in minutes (at most M); ``None`` when no checkpoint cost reaches ``target``.

    Examples
    --------
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


def second_order_term(checkpoint_cost: X, mtbi: X, restart: X, interval: X) -> X:
    """The second-order term of the exact goodput's expansion, the first correction to 1 - C/T - T/(2M) - R/M.

    With C/T, T/M and R/M all of order eps (see :func:`goodput_series`), the
    exact goodput is the first-order goodput plus

        C^2/T^2 + C R/(M T) + R^2/(2 M^2) + R T/(2 M^2) + T^2/(12 M^2) + O(eps^3).

    Parameters
    ----------
    checkpoint_cost : float or ndarray
        C, minutes per checkpoint.
    mtbi : float or ndarray
        M, mean minutes between interruptions.
    restart : float or ndarray
        R, minutes per restart.
    interval : float or ndarray
        T, minutes of work between checkpoints.

    Returns
    -------
    float or ndarray
        The term, as a fraction of wall time (positive: the first order underestimates goodput).

    Raises
    ------
    InputError
        If an input is zero, negative, NaN or infinite.

    Examples
    --------
    >>> round(100 * second_order_term(1.0, 185.6, 5.0, 19.3), 2)
    0.67
    """
    c = validate.positive_array(checkpoint_cost, "checkpoint_cost")
    m = validate.positive_array(mtbi, "mtbi")
    r = validate.positive_array(restart, "restart")
    t = validate.positive_array(interval, "interval")
    return _out(model.second_order_term(c, m, r, t))  # type: ignore[no-any-return]


def numerical_optimal_interval(checkpoint_cost: float, mtbi: float, restart: float) -> float:
    """The interval that maximizes exact goodput, found by a numerical minimizer rather than Lambert W.

    Maximizes :func:`exact_goodput` over T in (0, M] with SciPy's bounded Brent
    method, to about 1e-9 relative: a check of :func:`exact_optimal_interval`.
    (A checkpoint that some interruptions take with the job is the two-tier model
    of :mod:`goodput.tiers`: :func:`goodput.tiers.lost_checkpoint_optimal_interval`.)

    Parameters
    ----------
    checkpoint_cost : float
        C, minutes per checkpoint.
    mtbi : float
        M, mean minutes between interruptions.
    restart : float
        R, minutes per restart. It scales goodput by e^{-R/M} for every T, so it
        does not move the optimum; it is an argument so that this can be checked.

    Returns
    -------
    float
        T*, minutes of work between checkpoints.

    Raises
    ------
    InputError
        If a duration is not a finite positive number.

    Examples
    --------
    >>> round(numerical_optimal_interval(1.0, 185.6, 5.0), 2)
    18.61
    """
    from scipy.optimize import minimize_scalar  # kept off the import path

    c = float(validate.positive_array(checkpoint_cost, "checkpoint_cost"))
    m = float(validate.positive_array(mtbi, "mtbi"))
    r = float(validate.positive_array(restart, "restart"))
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

    This is the error a plan makes by quoting 1 - sqrt(2C/M) - R/M
    (:func:`goodput.model.goodput`) for a job that checkpoints at the best
    interval: :func:`exact_goodput` at :func:`exact_optimal_interval` minus
    it. For small C/M and R/M it is about the second-order term
    (:func:`second_order_term`) at T*, 2C/(3M) + R sqrt(2C/M)/M + R^2/(2M^2) + ...

    Parameters
    ----------
    checkpoint_cost : float or ndarray
        C, minutes per checkpoint.
    mtbi : float or ndarray
        M, mean minutes between interruptions.
    restart : float or ndarray
        R, minutes per restart.

    Returns
    -------
    float or ndarray
        Exact minus first-order goodput, as a fraction of 1 (0.007 for 0.7 points); positive,
        and growing without bound as M shrinks, since the first order then goes below zero.

    Raises
    ------
    InputError
        If an input is zero, negative, NaN or infinite.

    Examples
    --------
    >>> round(100 * first_order_error(1.0, 185.6, 5.0), 1)
    0.7
    """
    c = validate.positive_array(checkpoint_cost, "checkpoint_cost")
    m = validate.positive_array(mtbi, "mtbi")
    r = validate.positive_array(restart, "restart")
    first = 1.0 - np.sqrt(2.0 * c / m) - r / m  # goodput.model.goodput at T*, on arrays of any shape
    return _out(np.asarray(exact_goodput(c, m, r), dtype=np.float64) - first)  # type: ignore[no-any-return]


def range_check(
    checkpoint_cost: float, mtbi: float, restart: float, interval: float | None = None
) -> model.RangeCheck:
    """Judge the first-order numbers of a plan by how far they are from the exact model's.

    With no interval, the plan is at the optimum and the error is :func:`first_order_error`:
    the exact goodput at the exact optimum less the first-order goodput at sqrt(2CM), what a
    plan quoting first order misstates. With an interval, both models are taken at it. Where
    the error exceeds :data:`goodput.model.FIRST_ORDER_TOLERANCE` (three points), or first
    order gives a goodput of zero or less, its number is not quoted; above
    :data:`goodput.model.FIRST_ORDER_CAUTION` (one point) it is quoted with a caution. The
    error is close to :func:`goodput.model.second_order_term`, the leading term first order drops.

    Parameters
    ----------
    checkpoint_cost, mtbi, restart : float
        C, M and R in minutes.
    interval : float, optional
        T in minutes; each model's optimum when omitted.

    Returns
    -------
    goodput.model.RangeCheck
        The first-order goodput and its error; :attr:`~goodput.model.RangeCheck.status` is the verdict.

    Examples
    --------
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
    """The fleet size beyond which the first-order goodput is off by more than `tolerance`.

    At a constant per-GPU interruption rate, M = 60/(rate x GPUs) minutes.
    :func:`first_order_error` grows as M shrinks; this finds the M where it equals
    `tolerance` (Brent's method on log M) and returns the fleet size with that M.

    Parameters
    ----------
    checkpoint_cost : float
        C, minutes per checkpoint.
    restart : float
        R, minutes per restart.
    rate_per_gpu_hour : float
        Interruptions per GPU-hour.
    tolerance : float, optional
        The error in goodput, as a fraction of 1 (default 0.01: one point).

    Returns
    -------
    float
        GPUs (not rounded). For R -> 0 and a small tolerance e, M is about 2C/(3e).

    Raises
    ------
    InputError
        If an input is zero, negative, NaN or infinite, or the tolerance is not below 1.

    Examples
    --------
    >>> round(first_order_error_threshold(1.0, 5.0, 2e-5) / 1000)
    23
    """
    from scipy.optimize import brentq  # kept off the import path

    c = float(validate.positive_array(checkpoint_cost, "checkpoint_cost"))
    r = float(validate.positive_array(restart, "restart"))
    rate = float(validate.positive_array(rate_per_gpu_hour, "rate_per_gpu_hour"))
    tol = float(validate.positive_array(tolerance, "tolerance"))
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
    """The fleet size at which the first-order goodput at T* = sqrt(2CM) reaches zero.

    1 - sqrt(2C/M) - R/M = 0 is a quadratic in s = 1/sqrt(M), R s^2 + sqrt(2C) s - 1 = 0,
    whose positive root gives M = 1/s^2; at a constant per-GPU rate that is
    60/(rate x M) GPUs. Beyond it the first-order formula says the job keeps no
    work at all, while the exact model still gives it a positive goodput.

    Parameters
    ----------
    checkpoint_cost : float
        C, minutes per checkpoint.
    restart : float
        R, minutes per restart.
    rate_per_gpu_hour : float
        Interruptions per GPU-hour.

    Returns
    -------
    float
        GPUs (not rounded).

    Raises
    ------
    InputError
        If an input is zero, negative, NaN or infinite.

    Examples
    --------
    >>> round(first_order_zero_fleet(5.0, 5.0, 2e-5))
    160770
    """
    c = float(validate.positive_array(checkpoint_cost, "checkpoint_cost"))
    r = float(validate.positive_array(restart, "restart"))
    rate = float(validate.positive_array(rate_per_gpu_hour, "rate_per_gpu_hour"))
    root = 2.0 / (math.sqrt(2.0 * c) + math.sqrt(2.0 * c + 4.0 * r))  # (-b + sqrt(b^2 + 4R)) / (2R), rationalized
    return float(rate_from_mtbi(1.0 / root**2, rate))


# --------------------------------------------------------------------------- choosing a model

#: The two models of a single checkpoint tier: first order (:mod:`goodput.model`) and exact (this module).
MODELS = ("first-order", "exact")


def model_functions(which: str) -> tuple[Any, Any]:
    """The goodput and optimum-interval functions of the named model.

    Parameters
    ----------
    which : {"first-order", "exact"}
        The model.

    Returns
    -------
    tuple of callables
        ``goodput(C, M, R, interval=None)`` and ``optimal_interval(C, M)``, both elementwise.

    Raises
    ------
    InputError
        For an unknown model.

    Examples
    --------
    >>> goodput, optimum = model_functions("exact")
    >>> round(optimum(1.0, 185.6), 2)
    18.61
    """
    if validate.choice(which, "model", MODELS) == "exact":
        return exact_goodput, exact_optimal_interval
    return model.goodput, model.optimal_interval
