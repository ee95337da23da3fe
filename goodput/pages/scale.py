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
from goodput.params import mtbi_from_rate
from goodput.report import (
    DERIVED_SLOW,
    count,
    gap_text,
    large_count,
    percent,
    percent_pm,
    points,
    scheme_words,
    se_digits,
)
from goodput.simulate_restart import AGREEMENT
from goodput.units import format_duration

#: How a verdict of :attr:`goodput.model.RangeCheck.status` reads after "first order is".
VERDICTS = {"ok": "close enough to quote", "caution": "to be quoted only with a caution",
            "out of range": "too far off to quote", "below zero": "not quoted"}


def gpus_text(n: float) -> str:
    """A fleet size as a count of GPUs, ``"22,862"`` (rounded to a whole GPU)."""
    return f"{n:,.0f}"


def threshold_text(n: float, digits: int = 3) -> str:
    """A fleet size a threshold puts at, to three significant `digits` (never below a whole GPU): ``"15,100"``.

    The thresholds come from a per-GPU rate known to a digit or two; the computation keeps them exact.

    >>> threshold_text(15146.2), threshold_text(4608.4), threshold_text(78051.0), threshold_text(45.3)
    ('15,100', '4,610', '78,100', '45')
    """
    drop = max(0, math.floor(math.log10(n)) + 1 - digits) if n > 0 else 0
    return f"{round(n, -drop):,.0f}"


def gap_values(name: str, check: model.RangeCheck) -> dict[str, Any]:
    """First order's error as fields: ``NAME_gap``, ``"off"`` by ``NAME_off`` on ``NAME_side`` of the exact goodput.

    ``NAME_off`` is ``"0.66 points"`` (:func:`goodput.report.gap_text`, as every page writes first order's gap),
    ``NAME_side`` ``"below"`` or ``"above"``. Where first order's goodput is zero or less, ``NAME_gap`` is ``"zero"``:
    its error is not a difference of two goodputs, and is not quoted.
    """
    return {f"{name}_gap": Variant("zero" if check.status == "below zero" else "off"),
            f"{name}_off": gap_text(check), f"{name}_side": "below" if check.error >= 0 else "above"}


def own_slow(own: str, slow: str, alone: bool = False) -> str:
    """The variant for the fleet's and the slow checkpoint's verdicts: ``"zero"``, ``"same"`` or ``"differs"``.

    ``"alone"`` or ``"alone_zero"`` where there is no slower checkpoint to judge beside the fleet's
    (:attr:`goodput.fleet.FleetPlan.slow_is_own`).
    """
    if alone:
        return "alone_zero" if own == "below zero" else "alone"
    return "differs" if own != slow else "zero" if own == "below zero" else "same"


@dataclass(frozen=True)
class Page(Fleet):
    """The glue keys of ``book/scale.md``, formatted; those of a paragraph the fleet's numbers leave out are ""."""

    scope: Variant
    sizes: str
    async_text: str
    sim_count: str
    failures_per_point: str
    agreement: Variant
    agree_sigmas: str
    near_zero: str
    max_sigma: str
    max_stderr: str
    slow_one_point: str
    slow_three_points: str
    fast_one_point: str
    fast_three_points: str
    async_one_point: str
    async_three_points: str
    own_scope: Variant
    own_slow: Variant
    cost_pair: Variant
    own_limits: Variant
    cost_count: str
    slow_named: Variant
    derived_name: str
    slow_with: Variant
    own_gap: Variant
    own_off: str
    own_side: str
    own_verdict: str
    slow_gap: Variant
    slow_off: str
    slow_side: str
    slow_verdict: str
    restart_scope: Variant
    size_restart: Variant
    at_size: Variant
    plan_pool: Variant
    plan_spares: str
    plan_nodes: str
    plan_gpus: str
    plan_mtbi: str
    plan_restart: str
    plan_follow: Variant
    plan_bound: Variant
    plan_gap: Variant
    zero_gpus: str
    big: str
    big_mtbi: str
    big_first_losses: str
    big_exact: str
    big_interval: str
    worst_gpus: str = ""
    worst_cost: str = ""
    worst_simulated: str = ""
    worst_exact: str = ""
    worst_sigma: str = ""
    worst_mtbi: str = ""
    worst_attempts: str = ""
    scope_gpus: str = ""
    scope_restart: str = ""
    plan_scheme: str = ""
    plan_first_interval: str = ""
    plan_first_goodput: str = ""
    plan_exact_interval: str = ""
    plan_exact_goodput: str = ""
    plan_off: str = ""
    plan_side: str = ""
    plan_verdict: str = ""
    plan_years: str = ""
    plan_simulated: str = ""
    plan_stderr: str = ""
    plan_sigma: str = ""
    plan_exact_at_first: str = ""
    plan_interval_cost: str = ""
    plan_drain: str = ""


def at_size_values(fleet: FleetPlan) -> dict[str, Any]:
    """The fields of the section on a :data:`goodput.limits.PLAN_GPUS`-GPU job: the fleet's whole scheme at that size.

    Where the model makes no plan there (:func:`goodput.limits.plan_at_size` is None), the plan's values are left
    empty and ``at_size`` chooses the paragraph that says so.
    """
    d = format_duration
    at = fleet.at_size(limits.PLAN_GPUS)
    plan = limits.plan_at_size(fleet)
    values: dict[str, Any] = {
        "size_restart": Variant("grows" if fleet.restart_changes([limits.PLAN_GPUS]) else "same"),
        "plan_gpus": gpus_text(at.gpus), "plan_mtbi": d(at.mtbi), "plan_restart": d(at.restart),
    }
    # where the fleet's spare pool, held as the inputs give it, makes most of R at that size: a pool sized for it
    spares = fleet.params.spares
    values["plan_pool"] = Variant("pool" if spares is not None and at.stop_saving > 0.5 * at.restart else "none")
    values["plan_spares"] = count(spares.nodes, "spare node") if spares is not None else ""
    values["plan_nodes"] = f"{at.gpus // at.gpus_per_node:,}"
    if plan is None:
        return values | {"at_size": Variant("refused"), "plan_follow": Variant("none"), "plan_bound": Variant("none"),
                         "plan_gap": Variant("none")}
    g = plan.plan.goodput
    drain = plan.plan.tiers.drain if plan.plan.tiers else 0.0
    # Following first order's plan is a cost only where first order is quoted; where both intervals are the drain
    # bound (no checkpoint before the last is durable) and the cadence is the same, it is the plan itself.
    at_drain = plan.first.at_drain and plan.plan.at_drain and \
        math.isclose(plan.exact_at_first, g, rel_tol=1e-12, abs_tol=1e-12)
    follow = "none" if not plan.check.quotable else "drain" if at_drain else "cost"
    return values | {
        "plan_follow": Variant(follow), "plan_drain": d(drain) if drain > 0 else "",
        "plan_bound": Variant("drain" if plan.plan.at_drain else "none"),
        # a job keeping next to nothing (under limits.NEAR_ZERO) has no plan worth quoting, nor a simulation of it
        "at_size": Variant("near_zero" if g < limits.NEAR_ZERO else "planned" if plan.check.quotable else "unquoted"),
        "plan_scheme": scheme_words(plan.plan, plan.params),
        "plan_first_interval": d(plan.first.interval),
        # quoted only where first order is (plan.check.quotable), and so above zero
        "plan_first_goodput": percent(max(0.0, plan.check.goodput)), **gap_values("plan", plan.check),
        "plan_exact_interval": d(plan.plan.interval), "plan_exact_goodput": percent(g),
        "plan_verdict": VERDICTS[plan.check.status], "plan_years": d(plan.horizon),
        "plan_simulated": percent(plan.simulated.simulated), "plan_stderr": points(plan.simulated.stderr, 2),
        "plan_sigma": f"{plan.simulated.sigmas:.1f}", "plan_exact_at_first": percent(plan.exact_at_first),
        "plan_interval_cost": points(g - plan.exact_at_first, 2),
    }


def agreement_values(fleet: FleetPlan, sims: list[limits.SizePoint]) -> dict[str, Any]:
    """The fields of the paragraph on the study's simulations: their verdict and the point furthest off.

    The verdict is :func:`goodput.limits.agreement`'s; the worst point comes with its M and how many restarts it
    takes for one to succeed. Its fields are left empty when every point agrees.
    """
    p = fleet.params
    verdict = limits.agreement(sims)
    values: dict[str, Any] = {
        "agreement": Variant(verdict.status), "agree_sigmas": f"{AGREEMENT:g}",
        "near_zero": percent(limits.NEAR_ZERO, 0), "max_sigma": f"{verdict.largest:.1f}",
        "max_stderr": points(max(s.stderr for s in sims), 2),
    }
    worst = verdict.worst
    if worst is None:
        return values
    m = float(mtbi_from_rate(p.rate_per_gpu_hour, worst.gpus))
    digits = se_digits(worst.stderr)
    return values | {
        "worst_gpus": gpus_text(worst.gpus), "worst_cost": format_duration(worst.checkpoint_cost),
        "worst_simulated": percent_pm(worst.simulated, worst.stderr), "worst_exact": percent(worst.exact, digits),
        "worst_sigma": f"{worst.sigmas:.1f}", "worst_mtbi": format_duration(m),
        "worst_attempts": large_count(float(f"{limits.restart_attempts(p.restart, m):.2g}")),
    }


def build(fleet: FleetPlan) -> Page:
    """Everything the chapter quotes, computed once from the fleet's plan."""
    p = fleet.params
    lims, span, sims = fleet.scale_study.limits, fleet.scale_study.sizes, fleet.scale_study.simulations
    slow = lims["slow"]
    big = limits.beyond_zero(slow)
    big_m = slow.mtbi_at(big)
    d = format_duration
    # The fleet sizes where each study cost's first order is one and three points off (three significant digits):
    # slow_one_point, ...
    at: dict[str, Any] = {f"{key}_{name}": threshold_text(getattr(lim, name)) for key, lim in lims.items()
                          for name in ("one_point", "three_points")}
    # The study holds R fixed; where the fleet's own R reads differently at one of its sizes, at the largest it grows to
    grows: dict[str, Any] = {"scope_gpus": gpus_text(span[-1]), "scope_restart": d(fleet.restart_at(round(span[-1])))} \
        if fleet.restart_changes(span) else {}
    # A derived slow checkpoint is the book's comparison, not the inputs file's (Params.slow_derived); the slow one is
    # "written synchronously" where it is a write (slow_is_write), "slower" where the fast one is (checkpoint_is_write).
    slow_kind = "derived" if p.slow_derived else "write" if p.slow_is_write else "given"
    same = p.slow_against_c == "same"
    return Page(
        **fleet_values(fleet), **at, **at_size_values(fleet), **grows, async_text=d(lims["async"].checkpoint_cost),
        scope=Variant("plain" if fleet.plain else "beyond"), own_scope=Variant("plain" if fleet.plain else "beyond"),
        own_slow=Variant(own_slow(fleet.first_order_status, fleet.slow.check.status, fleet.slow_is_own)),
        # the slow checkpoint the fleet's own (a synchronous write, derived or typed twice): one cost, said once
        cost_pair=Variant("same" if same else "derived" if p.slow_derived else "slower" if p.checkpoint_is_write
                          else "slow_fast"), own_limits=Variant("same" if same else "two"), cost_count="two" if same else "three",
        slow_with=Variant("own" if fleet.slow_is_own else "derived" if p.slow_derived else "given"), slow_named=Variant(slow_kind),
        derived_name=DERIVED_SLOW,  # as Fig. fig-scale's legend names it (goodput.report.slow_label)
        restart_scope=Variant("grows" if grows else "same"),
        sizes=f"{gpus_text(span[0])} to {gpus_text(span[-1])}", sim_count=str(len(sims)),
        failures_per_point=f"{limits.FAILURES_PER_POINT:,}", **agreement_values(fleet, sims),
        **gap_values("own", fleet.plan.check), **gap_values("slow", fleet.slow.check),
        own_verdict=VERDICTS[fleet.first_order_status],
        slow_verdict=VERDICTS[fleet.slow.check.status], zero_gpus=threshold_text(slow.zero),
        big=gpus_text(big), big_mtbi=d(big_m),
        big_first_losses=f"{1.0 - float(model.goodput(slow.checkpoint_cost, big_m, p.restart)):.2f} times",
        big_exact=percent(float(exact.exact_goodput(slow.checkpoint_cost, big_m, p.restart))),
        big_interval=d(float(exact.exact_optimal_interval(slow.checkpoint_cost, big_m))),
    )
