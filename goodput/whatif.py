"""What-ifs the book quotes: a fleet's scheme with one input changed and planned again, and a local-first drain.

Numbers only; the pages (:mod:`goodput.pages.measuring`, :mod:`goodput.pages.tiers`) word them.
"""

from __future__ import annotations

from goodput.errors import Refused
from goodput.params import Params
from goodput.plan import Plan, plan_for
from goodput.tiers import Tiers, exact_losses, exact_optimal_interval


def plan_or_none(params: Params, interval: float | None = None) -> Plan | None:
    """The fleet's scheme planned for changed inputs, or None where the model keeps no work (refused)."""
    try:
        return plan_for(params, interval=interval)
    except Refused:
        return None


def goodput_of(plan: Plan | None) -> float:
    """A plan's goodput; 0 where the model refused (it keeps less than e^-600 of the time)."""
    return 0.0 if plan is None else plan.goodput


def with_cost(params: Params, cost: float) -> Params:
    """The fleet with another fast checkpoint cost (a persistent checkpoint kept no cheaper than it)."""
    if params.persistent_cost is None:
        return params.replace(checkpoint_cost=cost)
    return params.replace(checkpoint_cost=cost, persistent_cost=max(params.persistent_cost, cost))


def local_first(checkpoint_cost: float, restart: float, drain: float, survives: float) -> Tiers:
    """A local-first checkpoint drained every time: n = 1, C_p = C, R_p = R, durable D after its snapshot.

    An interruption inside the drain that leaves the node (a share `survives` of them) restarts from the local copy; one
    that takes the node goes back to the previous drained checkpoint. With `survives` = 0 it is one tier with a drain.
    """
    if survives == 0.0:
        return Tiers(checkpoint_cost, restart, drain=drain)
    return Tiers(checkpoint_cost, restart, drain, checkpoint_cost, restart, survives, 1)


def at_best(scheme: Tiers, mtbi: float, interval: float | None = None) -> tuple[float, float, float]:
    """A scheme by the exact model at `interval` (its own optimum when omitted): (T, goodput, drain loss)."""
    t = exact_optimal_interval(scheme, mtbi) if interval is None else interval
    losses = exact_losses(scheme, mtbi, t)
    return t, losses.goodput, losses.drain_loss
