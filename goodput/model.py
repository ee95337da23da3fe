"""The first-order model: the optimum interval T* = sqrt(2CM) and goodput as three losses.

Checkpoint every T minutes of work at C minutes each, failures every M minutes on average, R minutes
per restart: to first order in C/M, T/M and R/M the lost fraction of wall time is C/T (checkpoints)
+ T/(2M) (work lost: a failure lands halfway through an interval on average) + R/M (restarts), and
goodput is one minus their sum (Young 1974). Everything takes minutes and works elementwise on NumPy
arrays as well as floats.
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
    """Young's optimum checkpoint interval T* = sqrt(2CM), minutes of work between checkpoints.

    >>> round(optimal_interval(1.0, 186.0), 1)
    19.3
    """
    return (2.0 * checkpoint_cost * mtbi) ** 0.5  # type: ignore[no-any-return, unused-ignore]


def checkpoint_overhead(interval: X, checkpoint_cost: X) -> X:
    """Fraction of time spent checkpointing, C/T."""
    return checkpoint_cost / interval


def lost_work(interval: X, mtbi: X) -> X:
    """Fraction of time spent redoing work lost to interruptions, T/(2M)."""
    return interval / (2.0 * mtbi)


def restart_loss(restart: X, mtbi: X) -> X:
    """Fraction of time spent restarting, R/M (R: interruption to first step of the next attempt)."""
    return restart / mtbi


def overhead(interval: X, checkpoint_cost: X, mtbi: X) -> X:
    """The interval-dependent loss f(T) = C/T + T/(2M); minimal at :func:`optimal_interval`, where it is sqrt(2C/M)."""
    return checkpoint_overhead(interval, checkpoint_cost) + lost_work(interval, mtbi)


def goodput(checkpoint_cost: X, mtbi: X, restart: X, interval: X | None = None) -> X:
    """First-order goodput, 1 - C/T - T/(2M) - R/M, at T* when ``interval`` is None.

    Meaningless outside the formula's range (see :class:`RangeCheck`).

    >>> round(goodput(1.0, 186.0, 5.0), 3)
    0.869
    """
    if interval is None:
        interval = optimal_interval(checkpoint_cost, mtbi)
    return 1.0 - overhead(interval, checkpoint_cost, mtbi) - restart_loss(restart, mtbi)


@dataclass(frozen=True)
class Losses:
    """The three named losses of one plan, fractions of wall time (``interval`` T in minutes)."""

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
        """One minus the total loss, floored at zero (unfloored: :attr:`RangeCheck.goodput`)."""
        return max(0.0, 1.0 - self.total)


def losses(checkpoint_cost: float, mtbi: float, restart: float, interval: float | None = None) -> Losses:
    """Break first-order goodput into its three named losses (plain floats; T* when ``interval`` is None).

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
    """The exact goodput's second-order correction, which first order drops (a fraction of wall time).

    With C/T, T/M and R/M of order eps, the exact goodput for exponential failures (:mod:`goodput.exact`)
    is first order plus C^2/T^2 + C R/(M T) + R^2/(2 M^2) + R T/(2 M^2) + T^2/(12 M^2) + O(eps^3);
    positive means first order underestimates goodput.

    >>> round(100 * second_order_term(1.0, 185.6, 5.0, 19.3), 2)
    0.67
    """
    c, m, r, t = checkpoint_cost, mtbi, restart, interval
    ct, rm, tm = c / t, r / m, t / m  # ratios first: no product of extreme inputs underflows or overflows on its own
    return ct * ct + ct * rm + rm * rm / 2.0 + rm * tm / 2.0 + tm * tm / 12.0


@dataclass(frozen=True)
class RangeCheck:
    """How far one plan's first-order numbers can be trusted: the one measure the book and the command use.

    ``error`` is how far the exact goodput lies above the first-order ``goodput`` (fraction of wall time;
    see :func:`goodput.exact.range_check`, about :func:`second_order_term`).
    """

    goodput: float
    error: float

    @property
    def status(self) -> str:
        """``"below zero"``, ``"out of range"`` (error > :data:`FIRST_ORDER_TOLERANCE`), ``"caution"`` or ``"ok"``.

        Caution is an error above :data:`FIRST_ORDER_CAUTION`.
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
    """Raise InputError naming the first input that is not a finite positive number of minutes."""
    named = {"checkpoint_cost": checkpoint_cost, "mtbi": mtbi, "restart": restart}
    if interval is not None:
        named["interval"] = interval
    for name, value in named.items():
        validate.positive(value, name, validate.POSITIVE_MINUTES)


def capacity_per_month(goodput_points: float, gpus: int, price_per_gpu_hour: float, month_minutes: float) -> float:
    """Value at list price of the GPU time a goodput difference frees in a month, US dollars.

    ``goodput_points`` is a fraction (0.128 for 12.8 points); price per GPU-hour. Capacity, not cash: a
    saving only if the hours would otherwise be rented, revenue only if they are sold.
    """
    return goodput_points * gpus * price_per_gpu_hour * (month_minutes / 60.0)

