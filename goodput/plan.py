"""One plan for one fleet: the interval, the losses, the levers and the headline numbers.

The book's pages and the ``goodput plan`` command all go through :func:`make_plan`
(or :func:`plan_for`), so they always show the same numbers. Which model a
recommendation comes from is decided once, here: :data:`RECOMMENDED_MODEL`.
The words that present a plan are in :mod:`goodput.report`.
"""

from __future__ import annotations

from dataclasses import dataclass

from goodput import model
from goodput.exact import MODELS, exact_losses, exact_optimal_interval, model_functions
from goodput.model import Losses, RangeCheck
from goodput.params import Params
from goodput.validate import choice

#: The model every recommendation comes from: the exact model of exponential failures,
#: which also counts interruptions during checkpoints and restarts and holds at any
#: fleet size. First-order numbers (Young's T* = sqrt(2CM)) are shown beside it, labelled,
#: where the book derives them and where it reproduces the brief.
RECOMMENDED_MODEL = "exact"


@dataclass(frozen=True)
class Plan:
    """A checkpoint plan and the goodput it leaves under one model.

    Parameters
    ----------
    checkpoint_cost : float
        C in minutes.
    mtbi : float
        M in minutes.
    restart : float
        R in minutes.
    losses : model.Losses
        The interval used and the three losses.
    optimal_interval : float
        T* in minutes by the plan's model, whether or not it is the interval used.
    model : {"first-order", "exact"}
        Which model computed the losses and the optimum.
    check : model.RangeCheck
        How far the first-order formulas hold for these inputs and this interval.
    """

    checkpoint_cost: float
    mtbi: float
    restart: float
    losses: Losses
    optimal_interval: float
    model: str
    check: RangeCheck

    @property
    def interval(self) -> float:
        """The interval T the losses were computed for, in minutes."""
        return self.losses.interval

    @property
    def goodput(self) -> float:
        """Goodput as a fraction of 1."""
        return self.losses.goodput

    @property
    def at_optimum(self) -> bool:
        """Whether the interval used is the model's optimum."""
        return abs(self.interval - self.optimal_interval) <= 1e-9 * self.optimal_interval

    @property
    def refused(self) -> bool:
        """Whether this is a first-order plan whose numbers should not be quoted (see :class:`model.RangeCheck`)."""
        return self.model == "first-order" and not self.check.quotable


def make_plan(
    checkpoint_cost: float, mtbi: float, restart: float, interval: float | None = None, *,
    which: str = RECOMMENDED_MODEL,
) -> Plan:
    """Plan a checkpoint interval and compute the goodput it leaves.

    Parameters
    ----------
    checkpoint_cost : float
        C, minutes per checkpoint.
    mtbi : float
        M, mean minutes between interruptions of the job.
    restart : float
        R, minutes per restart.
    interval : float, optional
        T, minutes of work between checkpoints; the model's optimum when omitted.
    which : {"exact", "first-order"}
        The exact model of exponential failures (:mod:`goodput.exact`, Lambert-W
        optimum; the default) or the first-order model (:mod:`goodput.model`,
        T* = sqrt(2CM)).

    Returns
    -------
    Plan
        The plan; :attr:`Plan.check` says how far the first-order formulas hold here.

    Raises
    ------
    InputError
        If an input is zero, negative, NaN or infinite, or the model is unknown.

    Examples
    --------
    >>> p = make_plan(1.0, 185.6, 5.0)
    >>> round(p.interval, 1), round(100 * p.goodput, 1)
    (18.6, 87.6)
    """
    model.check_inputs(checkpoint_cost, mtbi, restart, interval)
    which = choice(which, "model", MODELS)
    if which == "exact":
        losses = exact_losses(checkpoint_cost, mtbi, restart, interval)
        best = float(exact_optimal_interval(checkpoint_cost, mtbi))
    else:
        losses = model.losses(checkpoint_cost, mtbi, restart, interval)
        best = float(model.optimal_interval(checkpoint_cost, mtbi))
    return Plan(
        checkpoint_cost=float(checkpoint_cost),
        mtbi=float(mtbi),
        restart=float(restart),
        losses=losses,
        optimal_interval=best,
        model=which,
        check=model.range_check(checkpoint_cost, mtbi, restart, interval),
    )


def plan_for(params: Params, *, slow: bool = False, interval: float | None = None, which: str = RECOMMENDED_MODEL) -> Plan:
    """Plan for a fleet described by a parameters file.

    Parameters
    ----------
    params : Params
        The fleet's inputs.
    slow : bool, optional
        Use ``slow_checkpoint_cost`` instead of ``checkpoint_cost``.
    interval : float, optional
        The interval in use, in minutes; the optimum when omitted.
    which : {"exact", "first-order"}
        The model (see :func:`make_plan`).

    Returns
    -------
    Plan
        See :func:`make_plan`.
    """
    cost = params.slow_checkpoint_cost if slow else params.checkpoint_cost
    return make_plan(cost, params.mtbi, params.restart, interval, which=which)


#: The levers, in the order the book shows them.
LEVERS = ("halve C", "halve R", "halve the failure rate", "set the interval right")


def levers(
    checkpoint_cost: float, mtbi: float, restart: float, interval: float, *, which: str = RECOMMENDED_MODEL
) -> dict[str, float]:
    """Goodput gained by each lever, in fractions of 1.

    The three input levers are measured optimum to optimum: goodput at the best
    interval for the changed input minus goodput at the best interval for the
    current inputs, so they do not also count the interval fix. The interval
    lever is goodput at T* minus goodput at the interval in use. The gains of
    an input lever and of the interval lever therefore add up to the gain of
    doing both.

    Parameters
    ----------
    checkpoint_cost : float
        C, minutes per checkpoint.
    mtbi : float
        M, mean minutes between interruptions.
    restart : float
        R, minutes per restart.
    interval : float
        The interval in use, in minutes.
    which : {"exact", "first-order"}
        The model that computes goodput (see :func:`make_plan`).

    Returns
    -------
    dict of str to float
        Keyed by the names in :data:`LEVERS`.
    """
    g, _ = model_functions(which)
    best = float(g(checkpoint_cost, mtbi, restart))
    return {
        "halve C": float(g(checkpoint_cost / 2, mtbi, restart)) - best,
        "halve R": float(g(checkpoint_cost, mtbi, restart / 2)) - best,
        "halve the failure rate": float(g(checkpoint_cost, 2 * mtbi, restart)) - best,
        "set the interval right": best - float(g(checkpoint_cost, mtbi, restart, interval)),
    }


def plan_levers(plan: Plan) -> dict[str, float]:
    """The levers of a plan, by its own model (see :func:`levers`).

    Parameters
    ----------
    plan : Plan
        The plan.

    Returns
    -------
    dict of str to float
        Goodput gained by each lever, fractions of 1.
    """
    return levers(plan.checkpoint_cost, plan.mtbi, plan.restart, plan.interval, which=plan.model)


def headline(params: Params, which: str = RECOMMENDED_MODEL) -> dict[str, float]:
    """The answer page's numbers for one fleet, as plain floats.

    Parameters
    ----------
    params : Params
        The fleet's inputs.
    which : {"exact", "first-order"}
        The model (default: the recommended one).

    Returns
    -------
    dict of str to float
        ``mtbi`` and ``interval`` (minutes), the three losses and ``goodput``
        (fractions of 1) at the optimum with the fast checkpoint; ``slow_interval``
        and ``slow_goodput`` with the slow one; ``points`` (the goodput
        difference, a fraction of 1) and ``capacity`` (US dollars a month that
        difference is worth at list price).
    """
    fast = plan_for(params, which=which)
    slow = plan_for(params, slow=True, which=which)
    points = fast.goodput - slow.goodput
    return {
        "mtbi": fast.mtbi,
        "interval": fast.interval,
        "checkpoint_overhead": fast.losses.checkpoint_overhead,
        "lost_work": fast.losses.lost_work,
        "restart_loss": fast.losses.restart_loss,
        "goodput": fast.goodput,
        "slow_interval": slow.interval,
        "slow_goodput": slow.goodput,
        "points": points,
        "capacity": model.capacity_per_month(points, params.gpus, params.price_per_gpu_hour, params.month),
    }
