"""The first-order model: the optimum interval T* = sqrt(2CM) and goodput as three losses.

With a checkpoint every T minutes of work, each costing C minutes, failures
arriving on average every M minutes and each costing a restart of R minutes,
the fraction of wall time lost is, to first order in C/M, T/M and R/M,

    C/T        (checkpoint overhead)
    T/(2M)     (work lost: a failure lands on average halfway through an interval)
    R/M        (restart)

and goodput is one minus their sum (Young 1974). Every function here takes
minutes and works elementwise on NumPy arrays as well as on floats.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from goodput import validate

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

#: Array-or-scalar type accepted and returned elementwise. NumPy is not imported
#: at run time: the formulas are plain arithmetic, so ``goodput plan`` starts fast.
X = TypeVar("X", float, "npt.NDArray[np.float64]")

#: Largest error of first order against the exact model (a fraction of wall time, three points) for
#: which first-order numbers are quoted at all (see :class:`RangeCheck`).
FIRST_ORDER_TOLERANCE = 0.03
#: Error above which a quoted first-order number carries a caution (one point).
FIRST_ORDER_CAUTION = 0.01


def optimal_interval(checkpoint_cost: X, mtbi: X) -> X:
    """Young's optimum checkpoint interval.

    Parameters
    ----------
    checkpoint_cost : float or ndarray
        C, minutes per checkpoint.
    mtbi : float or ndarray
        M, mean minutes between interruptions.

    Returns
    -------
    float or ndarray
        T* = sqrt(2 C M), minutes of work between checkpoints.

    Examples
    --------
    >>> round(optimal_interval(1.0, 186.0), 1)
    19.3
    """
    return (2.0 * checkpoint_cost * mtbi) ** 0.5  # type: ignore[no-any-return, unused-ignore]


def checkpoint_overhead(interval: X, checkpoint_cost: X) -> X:
    """Fraction of time spent checkpointing, C/T.

    Parameters
    ----------
    interval : float or ndarray
        T, minutes of work between checkpoints.
    checkpoint_cost : float or ndarray
        C, minutes per checkpoint.

    Returns
    -------
    float or ndarray
        C / T.
    """
    return checkpoint_cost / interval


def lost_work(interval: X, mtbi: X) -> X:
    """Fraction of time spent redoing work lost to interruptions, T/(2M).

    Parameters
    ----------
    interval : float or ndarray
        T, minutes of work between checkpoints.
    mtbi : float or ndarray
        M, mean minutes between interruptions.

    Returns
    -------
    float or ndarray
        T / (2 M).
    """
    return interval / (2.0 * mtbi)


def restart_loss(restart: X, mtbi: X) -> X:
    """Fraction of time spent restarting, R/M.

    Parameters
    ----------
    restart : float or ndarray
        R, minutes from an interruption to the first step of the next attempt.
    mtbi : float or ndarray
        M, mean minutes between interruptions.

    Returns
    -------
    float or ndarray
        R / M.
    """
    return restart / mtbi


def overhead(interval: X, checkpoint_cost: X, mtbi: X) -> X:
    """The part of the loss that depends on the interval, f(T) = C/T + T/(2M).

    Parameters
    ----------
    interval : float or ndarray
        T, minutes of work between checkpoints.
    checkpoint_cost : float or ndarray
        C, minutes per checkpoint.
    mtbi : float or ndarray
        M, mean minutes between interruptions.

    Returns
    -------
    float or ndarray
        f(T), minimized at :func:`optimal_interval`, where it equals sqrt(2C/M).
    """
    return checkpoint_overhead(interval, checkpoint_cost) + lost_work(interval, mtbi)


def goodput(checkpoint_cost: X, mtbi: X, restart: X, interval: X | None = None) -> X:
    """First-order goodput, 1 - C/T - T/(2M) - R/M.

    Parameters
    ----------
    checkpoint_cost : float or ndarray
        C, minutes per checkpoint.
    mtbi : float or ndarray
        M, mean minutes between interruptions.
    restart : float or ndarray
        R, minutes per restart.
    interval : float or ndarray, optional
        T, minutes of work between checkpoints; the optimum when omitted.

    Returns
    -------
    float or ndarray
        Fraction of wall time spent on work that is kept. Outside the
        formula's range (see :func:`range_problem`) the value means nothing.

    Examples
    --------
    >>> round(goodput(1.0, 186.0, 5.0), 3)
    0.869
    """
    if interval is None:
        interval = optimal_interval(checkpoint_cost, mtbi)
    return 1.0 - overhead(interval, checkpoint_cost, mtbi) - restart_loss(restart, mtbi)


@dataclass(frozen=True)
class Losses:
    """The three named losses of one plan, as fractions of wall time.

    Parameters
    ----------
    interval : float
        T, minutes of work between checkpoints.
    checkpoint_overhead : float
        C/T.
    lost_work : float
        T/(2M).
    restart_loss : float
        R/M.
    """

    interval: float
    checkpoint_overhead: float
    lost_work: float
    restart_loss: float

    @property
    def total(self) -> float:
        """Sum of the three losses."""
        return self.checkpoint_overhead + self.lost_work + self.restart_loss

    @property
    def goodput(self) -> float:
        """One minus the total loss, floored at zero (a first-order total above one means no goodput).

        The first-order value below zero, which says how far the formula is out of its range, is
        :attr:`RangeCheck.goodput`.
        """
        return max(0.0, 1.0 - self.total)


def losses(checkpoint_cost: float, mtbi: float, restart: float, interval: float | None = None) -> Losses:
    """Break first-order goodput into its three named losses.

    Parameters
    ----------
    checkpoint_cost : float
        C, minutes per checkpoint.
    mtbi : float
        M, mean minutes between interruptions.
    restart : float
        R, minutes per restart.
    interval : float, optional
        T, minutes of work between checkpoints; the optimum when omitted.

    Returns
    -------
    Losses
        The interval used and the three losses, as plain Python floats.

    Examples
    --------
    >>> b = losses(1.0, 186.0, 5.0)
    >>> [round(100 * x, 1) for x in (b.checkpoint_overhead, b.lost_work, b.restart_loss)]
    [5.2, 5.2, 2.7]
    """
    t = float(optimal_interval(checkpoint_cost, mtbi) if interval is None else interval)
    return Losses(
        interval=t,
        checkpoint_overhead=float(checkpoint_overhead(t, checkpoint_cost)),
        lost_work=float(lost_work(t, mtbi)),
        restart_loss=float(restart_loss(restart, mtbi)),
    )


def second_order_term(checkpoint_cost: X, mtbi: X, restart: X, interval: X) -> X:
    """The leading term the first-order goodput drops: the exact goodput's second-order correction.

    With C/T, T/M and R/M all small (of order eps), the exact goodput for
    exponential failures (:mod:`goodput.exact`) is the first-order goodput plus

        C^2/T^2 + C R/(M T) + R^2/(2 M^2) + R T/(2 M^2) + T^2/(12 M^2) + O(eps^3).

    Parameters
    ----------
    checkpoint_cost, mtbi, restart, interval : float or ndarray
        C, M, R and T in minutes.

    Returns
    -------
    float or ndarray
        The term, as a fraction of wall time (positive: first order underestimates goodput).

    Examples
    --------
    >>> round(100 * second_order_term(1.0, 185.6, 5.0, 19.3), 2)
    0.67
    """
    c, m, r, t = checkpoint_cost, mtbi, restart, interval
    ct, rm, tm = c / t, r / m, t / m  # ratios first: no product of extreme inputs underflows or overflows on its own
    return ct * ct + ct * rm + rm * rm / 2.0 + rm * tm / 2.0 + tm * tm / 12.0


@dataclass(frozen=True)
class RangeCheck:
    """How far the first-order numbers of one plan can be trusted: the one measure the book and the command use.

    Parameters
    ----------
    goodput : float
        The first-order goodput, 1 - C/T - T/(2M) - R/M.
    error : float
        How far the exact model's goodput lies above it, a fraction of wall time (see
        :func:`goodput.exact.range_check`; about :func:`second_order_term`, the leading term first
        order drops).
    """

    goodput: float
    error: float

    @property
    def status(self) -> str:
        """The verdict: ``"below zero"``, ``"out of range"``, ``"caution"`` or ``"ok"``.

        Out of range is an error above :data:`FIRST_ORDER_TOLERANCE`, caution one
        above :data:`FIRST_ORDER_CAUTION`.
        """
        if self.goodput <= 0.0:
            return "below zero"
        if self.error > FIRST_ORDER_TOLERANCE:
            return "out of range"
        if self.error > FIRST_ORDER_CAUTION:
            return "caution"
        return "ok"

    @property
    def quotable(self) -> bool:
        """Whether a first-order number may be quoted at all (status ``"ok"`` or ``"caution"``)."""
        return self.status in ("ok", "caution")


def check_inputs(checkpoint_cost: float, mtbi: float, restart: float, interval: float | None = None) -> None:
    """Raise if any input is not a finite positive number of minutes.

    Parameters
    ----------
    checkpoint_cost, mtbi, restart : float
        C, M and R in minutes.
    interval : float, optional
        T in minutes.

    Raises
    ------
    InputError
        Naming the first input that is zero, negative, NaN or infinite.
    """
    named = {"checkpoint_cost": checkpoint_cost, "mtbi": mtbi, "restart": restart}
    if interval is not None:
        named["interval"] = interval
    for name, value in named.items():
        validate.positive(value, name, validate.POSITIVE_MINUTES)


def capacity_per_month(goodput_points: float, gpus: int, price_per_gpu_hour: float, month_minutes: float) -> float:
    """Value, at list price, of the GPU time a goodput difference frees in a month.

    This is capacity, not cash: it is a saving only if the hours would
    otherwise be rented, and revenue only if the freed hours are sold.

    Parameters
    ----------
    goodput_points : float
        Goodput difference as a fraction of 1 (0.128 for 12.8 points).
    gpus : int
        GPUs in the fleet.
    price_per_gpu_hour : float
        US dollars per GPU-hour.
    month_minutes : float
        Length of the month in minutes.

    Returns
    -------
    float
        US dollars per month: points x GPUs x price x hours.
    """
    return goodput_points * gpus * price_per_gpu_hour * (month_minutes / 60.0)


def checkpoint_cost_for_goodput(target: float, mtbi: float, restart: float) -> float:
    """The largest checkpoint cost that still reaches a goodput at the optimum interval.

    Inverts ``goodput(C, M, R)`` at T*: 1 - sqrt(2C/M) - R/M = g gives
    C = (M/2) (1 - g - R/M)^2.

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
    float
        C in minutes; 0.0 when the restart loss alone already exceeds ``1 - target``.

    Examples
    --------
    >>> c = checkpoint_cost_for_goodput(0.9, 186.0, 5.0)
    >>> round(float(goodput(c, 186.0, 5.0)), 6)
    0.9
    """
    room = 1.0 - target - restart / mtbi
    if room <= 0.0:
        return 0.0
    return mtbi / 2.0 * room**2
