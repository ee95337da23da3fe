"""The chapter "What moves the number" (``book/levers.md``): each lever's worth for the fleet, then an aside.

Everything said of "this fleet" is its :class:`~goodput.fleet.FleetPlan`'s (the exact model of its whole scheme).
The aside is the brief's 15-versus-45 minute debate (:data:`DEBATE`) on the worked example's inputs, whatever the
book is built from; :func:`goodput.whatif.levers_whatif` computes it and the fleet's plan off its optimum.
"""

from __future__ import annotations

from dataclasses import dataclass

from goodput.fleet import FleetPlan
from goodput.model import capacity_per_month
from goodput.pages import Variant
from goodput.pages.answer import compared_name, loss_lever, loss_lever_values, loss_lever_variant
from goodput.pages.common import (
    Fleet,
    LossLever,
    OffOptimum,
    SchemeValues,
    cadence_text,
    fleet_values,
    off_optimum,
    scheme_kind,
    scheme_values,
)
from goodput.params import load_params
from goodput.plan import STORAGE_LEVERS, survives_more
from goodput.report import (
    count,
    duration_beside,
    gain_text,
    join_words,
    large_count,
    money,
    percent,
    points,
    share_text,
    storage_rederived,
)
from goodput.storage import format_bandwidth
from goodput.units import format_duration
from goodput.whatif import levers_whatif

#: The two intervals of the brief's debate, minutes.
DEBATE = (15.0, 45.0)
#: The optimum is called shallow where an interval :data:`OFF_BY` off it costs less than this share of the plan's
#: goodput, or less than :data:`SHALLOW_POINTS`; else "not flat" (the refused fleet: 4.7 points of 33.2%).
SHALLOW, SHALLOW_POINTS = 0.05, 0.01


def _bandwidth(x: float | None, factor: float = 1.0) -> str:
    return "" if x is None else format_bandwidth(factor * x)


@dataclass(frozen=True)
class Page(Fleet, SchemeValues, OffOptimum, LossLever):
    """The values ``book/levers.md`` quotes."""

    tier_levers: Variant
    tier_drain: Variant
    loss_lever: Variant
    storage_levers: Variant
    read_doubled: str
    rederived: str
    write_now: str
    write_doubled: str
    snapshot_now: str
    snapshot_doubled: str
    storage_gain: str
    storage_dollars: str
    top_goodput: str
    third: str
    third_points: str
    s_now: str
    s_more: str
    drained_after: str
    cost_verdict: Variant
    slow_compared: Variant
    interval_compared: str
    interval_pair: Variant
    cost_with: str
    slow_gain: str
    slow_short: Variant
    scheme_worth: Variant
    slow_points: str
    slow_gpu_hours: str
    slow_dollars: str
    long_goodput: str
    optimum_depth: Variant
    shorter: Variant
    short_goodput: str
    short_points: str
    size_r: Variant
    size_c: Variant
    size_drain: Variant
    drain_gpus: str
    doubling: Variant
    gpus2: str
    m2: str
    interval2: str
    cadence2: str
    ratio: str
    goodput2: str
    debate_short: str
    debate_long: str
    debate_slow: str
    debate_fast: str
    debate_short_goodput: str
    debate_long_goodput: str
    debate_gap: str
    debate_optimum: str
    debate_best: str
    debate_fix: str
    debate_ratio: str


def build(fleet: FleetPlan) -> Page:
    """The levers page of a fleet.

    >>> from goodput.fleet import fleet_plan
    >>> page = build(fleet_plan(load_params()))
    >>> page.interval, page.goodput, page.top_lever, page.debate_gap
    ('18.6 min', '87.6%', 'halve the failure rate', '7.2 points')
    """
    p, plan = fleet.params, fleet.plan
    ranked = fleet.levers_ranked
    (_, top_gain), _, (third, third_gain) = ranked[:3]
    s = plan.tiers
    off, long_, half = off_optimum(fleet)
    x = levers_whatif(fleet, DEBATE)
    short = half or plan
    doubled = fleet.by_size.get(2 * p.gpus, plan)
    at_drain = [n for n, at in fleet.by_size.items() if at.at_drain]  # sizes whose plan the drain bounds
    off_cost = max(plan.goodput - long_.goodput, plan.goodput - short.goodput)

    write, snapshot = (p.storage.write_bandwidth, p.storage.snapshot_bandwidth) if p.storage else (None, None)
    storage_levers = "none" if p.storage is None else "write" if snapshot is None else \
        "stall" if p.checkpoint_is_stall else "snapshot"
    write_gain = fleet.levers.get(STORAGE_LEVERS["double_write_bandwidth"], 0.0)

    w, (d_short, d_long), (at_short, at_long) = load_params(), DEBATE, x.debate  # the worked example, for the aside
    fast_best, better = x.fast_best, max(at_short, at_long)
    outranked = loss_lever(fleet)
    return Page(
        **fleet_values(fleet), **scheme_values(fleet), **off, **loss_lever_values(outranked), tier_levers=Variant(scheme_kind(fleet)),
        tier_drain=Variant("drained" if fleet.plan.drained else "none"),
        loss_lever=loss_lever_variant(outranked),
        storage_levers=Variant(storage_levers), **storage_rederived(p), write_now=_bandwidth(write), write_doubled=_bandwidth(write, 2.0),
        snapshot_now=_bandwidth(snapshot), snapshot_doubled=_bandwidth(snapshot, 2.0),
        storage_gain=gain_text(write_gain), storage_dollars=money(max(0.0, fleet.dollars(write_gain))),

        top_goodput=percent(plan.goodput + top_gain), third=third,
        third_points=gain_text(third_gain),
        s_now=share_text(s.fast_survives if s else 0.0), s_more=share_text(survives_more(s.fast_survives) if s else 0.0),
        drained_after=format_duration(max(s.drain, s.cp) if s else 0.0),
        # the slow checkpoint the fleet's own (a synchronous write, derived or typed twice): nothing to price
        cost_verdict=Variant("faster" if fleet.slow_keeps_more else "same" if fleet.slow_is_own else "slower"), interval_compared=compared_name(p),
        # what the cost figure's curve holds at the fleet's values: M and the write's restart, and what else it has
        cost_with=join_words(["M", "R" if p.persistent_cost is None else "R_p (a write to shared storage restarts "
                              "from it)"] + ["share recovered just in time"] * (p.just_in_time > 0)
                             + ["planned stops"] * (p.planned_rate > 0)),
        interval_pair=Variant("own" if fleet.slow_is_own and fleet.plan.tiers is None else "compared"),
        slow_gain=gain_text(fleet.slow_gain),
        # a derived slow checkpoint is the book's comparison, not one the inputs file compares with (slow_derived)
        slow_compared=Variant("derived" if p.slow_derived else "write" if p.slow_is_write else "given"),
        slow_short=Variant("derived" if p.slow_derived else "given"),
        scheme_worth=Variant("write" if p.checkpoint_is_write else "scheme"),
        slow_points=points(x.slow_gap),
        slow_gpu_hours=large_count(capacity_per_month(x.slow_gap, p.gpus, 1.0, p.month), "GPU-hours"),
        slow_dollars=money(fleet.dollars(x.slow_gap)),
        long_goodput=percent(long_.goodput),
        optimum_depth=Variant("shallow" if off_cost < max(SHALLOW * plan.goodput, SHALLOW_POINTS) else "steep"),
        shorter=Variant("possible" if half else "drain"),
        short_goodput=percent(short.goodput), short_points=points(max(0.0, plan.goodput - short.goodput)),
        # what makes R change with the fleet's size: "startup", "spares", both ("startup_spares") or "none"
        size_r=Variant("_".join(fleet.restart_by_size) or "none"),
        size_c=Variant("derived" if p.checkpoint_per_node else "none"),
        size_drain=Variant("bound" if at_drain else "none"), drain_gpus=count(min(at_drain), "GPU") if at_drain else "",
        doubling=Variant("refused" if 2 * p.gpus not in fleet.by_size else "drain" if doubled.at_drain else "planned"),
        gpus2=count(2 * p.gpus, "GPU"),
        m2=duration_beside(doubled.mtbi, p.mtbi), interval2=format_duration(doubled.interval),
        cadence2=cadence_text(doubled), ratio=f"{plan.interval / doubled.interval:.2f}",
        goodput2=percent(doubled.goodput), debate_short=format_duration(d_short), debate_long=format_duration(d_long),
        debate_slow=format_duration(w.slow_checkpoint_cost), debate_fast=format_duration(w.checkpoint_cost),
        debate_short_goodput=percent(at_short), debate_long_goodput=percent(at_long),
        debate_gap=points(abs(at_long - at_short)),
        debate_optimum=format_duration(x.debate_optimum), debate_best=percent(x.debate_best),
        debate_fix=points(fast_best - better),
        debate_ratio=f"{(fast_best - better) / abs(at_long - at_short):.1f}",
    )
