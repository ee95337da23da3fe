"""The chapter "How far does the simple answer go" (``book/scale.md``): first order, exact and simulated by fleet size.

The study follows one checkpoint tier of each of three costs (:func:`goodput.limits.study_costs`) across fleet
sizes at the fleet's per-GPU rate and its restart held fixed; the fleet's own verdict on first order is its plan's,
and the job at :data:`goodput.limits.PLAN_GPUS` GPUs is planned with the fleet's whole scheme at that size.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from goodput import exact, limits, model
from goodput.fleet import FleetPlan
from goodput.pages import Variant
from goodput.pages.common import Fleet, fleet_values
from goodput.report import percent, points, scheme_words
from goodput.units import format_duration

#: How a verdict of :attr:`goodput.model.RangeCheck.status` reads after "first order is".
VERDICTS = {"ok": "close enough to quote", "caution": "to be quoted only with a caution",
            "out of range": "too far off to quote", "below zero": "below zero, so not quoted"}


#: Significant digits of a fleet-size threshold as quoted (:func:`threshold_text`).
THRESHOLD_DIGITS = 3


def gpus_text(n: float) -> str:
    """A fleet size as a count of GPUs, ``"22,862"`` (rounded to a whole GPU)."""
    return f"{n:,.0f}"


def threshold_text(n: float) -> str:
    """A fleet size a threshold puts at, to three significant digits (never below a whole GPU): ``"15,100"``.

    The thresholds come from a per-GPU rate known to a digit or two; the computation keeps them exact.

    >>> threshold_text(15146.2), threshold_text(4608.4), threshold_text(78051.0), threshold_text(45.3)
    ('15,100', '4,610', '78,100', '45')
    """
    drop = max(0, math.floor(math.log10(n)) + 1 - THRESHOLD_DIGITS) if n > 0 else 0
    return f"{round(n, -drop):,.0f}"


def gap_text(check: model.RangeCheck) -> str:
    """First order's error as a clause: ``"first order 0.7 points below the exact goodput"``.

    Where first order's goodput is zero or less its error is not a difference of two goodputs, and is not quoted.
    """
    if check.status == "below zero":
        return "first order's goodput at or below zero"
    return f"first order {points(abs(check.error))} {'below' if check.error >= 0 else 'above'} the exact goodput"


@dataclass(frozen=True)
class Page(Fleet):
    """The glue keys of ``book/scale.md``, formatted."""

    scope: Variant
    sizes: str
    async_text: str
    sim_count: str
    failures_per_point: str
    max_sigma: str
    max_stderr: str
    slow_one_point: str
    slow_three_points: str
    fast_one_point: str
    fast_three_points: str
    async_one_point: str
    async_three_points: str
    own_gap: str
    own_verdict: str
    slow_gap: str
    slow_verdict: str
    restart_scope: Variant
    size_restart: Variant
    at_size: Variant
    plan_gpus: str
    plan_mtbi: str
    plan_restart: str
    plan_scheme: str
    plan_first_interval: str
    plan_first_goodput: str
    plan_exact_interval: str
    plan_exact_goodput: str
    plan_gap: str
    plan_verdict: str
    plan_years: str
    plan_simulated: str
    plan_stderr: str
    plan_sigma: str
    plan_exact_at_first: str
    plan_interval_cost: str
    zero_gpus: str
    big: str
    big_mtbi: str
    big_first_losses: str
    big_exact: str
    big_interval: str


def at_size_values(fleet: FleetPlan) -> dict[str, Any]:
    """The fields of the section on a :data:`goodput.limits.PLAN_GPUS`-GPU job: the fleet's whole scheme at that size.

    Where the model makes no plan there (:func:`goodput.limits.plan_at_size` is None), the plan's values are empty and
    ``at_size`` chooses the paragraph that says so.
    """
    d = format_duration
    at = fleet.at_size(limits.PLAN_GPUS)
    plan = limits.plan_at_size(fleet)
    values: dict[str, Any] = {
        "restart_scope": Variant("grows" if limits.restart_grows(fleet) else "same"),
        "size_restart": Variant("grows" if limits.restart_grows(fleet) else "same"),
        "plan_gpus": gpus_text(at.gpus), "plan_mtbi": d(at.mtbi), "plan_restart": d(at.restart),
    }
    names = ("plan_scheme", "plan_first_interval", "plan_first_goodput", "plan_exact_interval", "plan_exact_goodput",
             "plan_gap", "plan_verdict", "plan_years", "plan_simulated", "plan_stderr", "plan_sigma",
             "plan_exact_at_first", "plan_interval_cost")
    if plan is None:
        return values | {"at_size": Variant("refused")} | dict.fromkeys(names, "")
    g = plan.plan.goodput
    return values | {
        "at_size": Variant("planned"), "plan_scheme": scheme_words(plan.plan),
        "plan_first_interval": d(plan.first.interval),
        "plan_first_goodput": percent(plan.check.goodput) if plan.check.goodput > 0 else "nothing at all",
        "plan_exact_interval": d(plan.plan.interval), "plan_exact_goodput": percent(g), "plan_gap": gap_text(plan.check),
        "plan_verdict": VERDICTS[plan.check.status], "plan_years": d(plan.horizon),
        "plan_simulated": percent(plan.simulated.simulated), "plan_stderr": points(plan.simulated.stderr, 2),
        "plan_sigma": f"{plan.simulated.sigmas:.1f}", "plan_exact_at_first": percent(plan.exact_at_first),
        "plan_interval_cost": points(g - plan.exact_at_first, 2),
    }


def build(fleet: FleetPlan) -> Page:
    """Everything the chapter quotes, computed once from the fleet's plan."""
    p = fleet.params
    lims = limits.fleet_limits(p)
    span = limits.study_sizes(p.gpus, list(lims.values()))
    sims = limits.fleet_simulations(p)
    slow = lims["slow"]
    big = limits.beyond_zero(slow)
    big_m = slow.mtbi_at(big)
    d = format_duration
    # The fleet sizes where each study cost's first order is one and three points off (three significant digits):
    # slow_one_point, ...
    at: dict[str, Any] = {f"{key}_{name}": threshold_text(getattr(lim, name)) for key, lim in lims.items()
                          for name in ("one_point", "three_points")}
    return Page(
        **fleet_values(fleet), **at, **at_size_values(fleet), async_text=d(lims["async"].checkpoint_cost),
        scope=Variant("tiered" if fleet.tiered else "one_tier"),
        sizes=f"{gpus_text(span[0])} to {gpus_text(span[-1])}", sim_count=str(len(sims)),
        failures_per_point=f"{limits.FAILURES_PER_POINT:,}", max_sigma=f"{max(s.sigmas for s in sims):.1f}",
        max_stderr=points(max(s.stderr for s in sims), 2), own_gap=gap_text(fleet.plan.check),
        own_verdict=VERDICTS[fleet.first_order_status], slow_gap=gap_text(fleet.slow.check),
        slow_verdict=VERDICTS[fleet.slow.check.status], zero_gpus=threshold_text(slow.zero),
        big=gpus_text(big), big_mtbi=d(big_m),
        big_first_losses=f"{1.0 - float(model.goodput(slow.checkpoint_cost, big_m, p.restart)):.2f} times",
        big_exact=percent(float(exact.exact_goodput(slow.checkpoint_cost, big_m, p.restart))),
        big_interval=d(float(exact.exact_optimal_interval(slow.checkpoint_cost, big_m))),
    )
