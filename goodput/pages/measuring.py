"""The chapter "Measuring the inputs, and where the model is wrong" (``book/measuring.md``).

Every number is the fleet's plan's (the exact model of its whole scheme); each illustration changes one input of
that scheme and plans again, and says so where the model then keeps no work.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from goodput import sources
from goodput.fleet import CONFIDENCE, FleetPlan
from goodput.hazards import elastic_params
from goodput.pages import Variant
from goodput.pages.answer import loss_lever, loss_lever_values
from goodput.pages.common import (
    MATERIAL,
    OFF_BY,
    ElasticValues,
    Fleet,
    LossLever,
    OffOptimum,
    SchemeValues,
    cadence_text,
    elastic_values,
    fleet_values,
    off_optimum,
    recovery_kind,
    scheme_values,
)
from goodput.params import mtbi_from_rate
from goodput.plan import plan_for
from goodput.report import (
    gain_text,
    interval_text,
    ordinal,
    percent,
    planned_text,
    points,
    share_text,
    slow_words,
)
from goodput.uncertainty import poisson_interval
from goodput.units import format_duration
from goodput.whatif import goodput_of, plan_or_none, with_cost

#: A small count of interruptions, to show how little a few events pin M down.
SMALL_COUNT = 12
#: How many times the settled failure rate the first days of a run are taken to have.
EARLY_FACTOR = 3.0
#: PyTorch Distributed Checkpoint, 7B model: blocking time of a synchronous and an asynchronous save, in seconds.
SYNC_SECONDS, ASYNC_SECONDS = sources.ASYNC_DCP_SYNC_SECONDS, sources.ASYNC_DCP_STALL_SECONDS
#: Below this share of wall time, goodput is written as "less than 0.1%".
TINY = 0.001
#: Checkpoint overhead and lost work are called about equal at the optimum when they differ by at most this share of
#: the larger and first order is quotable; otherwise the page says they are equal only at first order.
ABOUT_EQUAL = 0.15


def share(x: float) -> str:
    """A share of wall time as a percentage, ``"less than 0.1%"`` when it would round to nothing."""
    return "less than 0.1%" if x < TINY else percent(x)


@dataclass(frozen=True)
class Page(Fleet, SchemeValues, OffOptimum, ElasticValues, LossLever):
    """The values ``book/measuring.md`` quotes."""

    dozen_time: str
    dozen_below: str
    dozen_above: str
    dozen_range: str
    dozen_t_range: Variant
    dozen_t_low: str
    dozen_t_high: str
    dozen_rel: str
    own_count: Variant
    own_range: str
    own_rel: str
    early: Variant
    early_factor: str
    early_m: str
    early_t: str
    early_keep: str
    early_follow: str
    early_points: str
    matters: str
    sync_time: str
    async_time: str
    sync_goodput: str
    async_goodput: str
    async_points: str
    async_case: Variant
    async_snapshot: Variant
    stall_verdict: Variant
    async_gain: str
    c_name: str
    persistent_every: str
    drain_persistent: str
    elastic_points: str
    elastic_t: str
    elastic_moves: Variant
    half: Variant
    half_points: str
    per_gpu: Variant
    m_gpu: str
    wrong_t: str
    wrong_kept: str
    reach: Variant
    reach_share: str
    halve_r: str
    balance: Variant
    apart_by: Variant
    fo_quotable: Variant
    slow_its: Variant
    slow_said: str
    loss_mistake: Variant
    recovery: Variant
    recovery_inputs: Variant
    jit_p: str
    jit_r: str
    planned_q: str


def _upper_first(text: str) -> str:
    """A phrase that opens a sentence: its first letter upper-cased, the rest as written ("TB/s" stays)."""
    return text[:1].upper() + text[1:]


def build(fleet: FleetPlan) -> Page:
    """The measuring page of a fleet.

    >>> from goodput.fleet import fleet_plan
    >>> from goodput.params import load_params
    >>> page = build(fleet_plan(load_params()))
    >>> page.interval, page.goodput, page.twice_points, page.top_lever
    ('18.6 min', '87.6%', '2.2 points', 'halve the failure rate')
    """
    p, plan = fleet.params, fleet.plan
    d = format_duration
    m, c = p.mtbi, p.checkpoint_cost

    low, high = poisson_interval(SMALL_COUNT, SMALL_COUNT * m, CONFIDENCE)
    t_low, t_high = (plan_or_none(fleet.at_mtbi(x)) for x in (low, high))  # R's wait for a spare at that M
    own = p.counted
    own_low, own_high = poisson_interval(*own, CONFIDENCE) if own else (0.0, 0.0)

    # An early failure rate: the plan re-made for it, and the settled interval (and cadence) kept through it.
    early_params = fleet.at_mtbi(m / EARLY_FACTOR)
    early = plan_or_none(early_params)
    kept_params = early_params if plan.tiers is None or plan.tiers.one_tier else \
        early_params.replace(persistent_every=plan.tiers.every)
    keep = plan_or_none(kept_params, interval=plan.interval)
    early_gain = max(0.0, goodput_of(early) - goodput_of(keep))

    sync = plan_or_none(with_cost(p, SYNC_SECONDS / 60.0))
    async_ = plan_or_none(with_cost(p, ASYNC_SECONDS / 60.0))
    # A fleet with a drain already saves asynchronously: PyTorch's stall is then set against its own plan. Where a
    # persistent checkpoint stalls longer than the snapshot (C_p > C), only the fast one is asynchronous; draining the
    # persistent write as well is the lever that would make it so.
    async_gain = goodput_of(async_) - plan.goodput
    drain = plan.tiers.drain if plan.tiers else 0.0
    stalled = drain > 0 and plan.tiers is not None and plan.tiers.cp > plan.tiers.checkpoint_cost
    # C against PyTorch's stall as the page writes both: equal as written reads "the same as", not "shorter than"
    async_time = d(ASYNC_SECONDS / 60.0, 4)
    async_snapshot = ("write" if drain == 0 else "same" if d(c) == async_time else "shorter" if c < ASYNC_SECONDS / 60.0
                      else "gain" if async_gain >= MATERIAL else "done")
    elastic_inputs = elastic_params(p)  # the failures chapter's elastic job: R and a persistent restart shortened
    elastic = plan_or_none(elastic_inputs)

    half = plan_for(p, interval=plan.interval / OFF_BY) if plan.interval / OFF_BY >= drain else None

    m_gpu = float(mtbi_from_rate(p.rate_per_gpu_hour, 1))
    wrong = plan_or_none(p.replace(gpus=1, mtbi=m_gpu))
    wrong_t = wrong.interval if wrong else math.inf
    kept = goodput_of(plan_or_none(p, interval=wrong_t)) if wrong else 0.0
    survive = math.exp(-(wrong_t + c) / m) if math.isfinite(wrong_t) else 0.0

    elastic_t = d(elastic.interval) if elastic else d(plan.interval)
    # Overhead and lost work are equal at first order's optimum; the exact model, a drain and a persistent tier part them.
    overhead, lost = fleet.losses["checkpoint_overhead"], fleet.losses["lost_work"]
    scheme = plan.tiers
    drained, two_tiers = scheme is not None and scheme.drain > 0, scheme is not None and not scheme.one_tier
    equal = fleet.first_order_quotable and abs(overhead - lost) <= ABOUT_EQUAL * max(overhead, lost)
    outranked = loss_lever(fleet)
    return Page(
        **fleet_values(fleet), **scheme_values(fleet), **off_optimum(fleet)[0], **loss_lever_values(outranked),
        loss_mistake=Variant("other" if outranked else "own"),
        dozen_time=d(SMALL_COUNT * m), dozen_below=f"{1 - low / m:.0%}", dozen_above=f"{high / m - 1:.0%}",
        dozen_range=interval_text(low, high),
        dozen_t_range=Variant("planned" if t_low else "none"), dozen_t_low=d(t_low.interval) if t_low else "",
        dozen_t_high=d(t_high.interval) if t_high else "",
        dozen_rel=f"{1 / math.sqrt(SMALL_COUNT):.0%}", own_count=Variant("count" if own else "other"),
        own_range=interval_text(own_low, own_high), own_rel=f"{1 / math.sqrt(own[0]):.0%}" if own else "",
        early=Variant("refused" if not (early and keep) else "planned" if early_gain >= MATERIAL else "same"),
        early_factor=f"{EARLY_FACTOR:g}",
        early_m=d(m / EARLY_FACTOR), early_t=(d(early.interval) + cadence_text(early)) if early else "",
        early_keep=share(goodput_of(keep)), early_follow=share(goodput_of(early)),
        early_points=points(early_gain), matters=points(MATERIAL), sync_time=f"{SYNC_SECONDS:g} s",
        async_time=async_time, sync_goodput=share(goodput_of(sync)),
        async_goodput=share(goodput_of(async_)), async_points=points(max(0.0, goodput_of(async_) - goodput_of(sync))),
        async_case=Variant("lever" if drain == 0 else "stalled" if stalled else "drained"),
        async_snapshot=Variant(async_snapshot), stall_verdict=Variant("loses" if fleet.slow_keeps_more else "none"),
        async_gain=points(max(0.0, async_gain)),
        c_name="measured stall" if p.checkpoint_is_stall else "snapshot",
        persistent_every=ordinal(plan.tiers.every) if stalled and plan.tiers else "",
        drain_persistent=gain_text(fleet.levers["drain the persistent write as well"]) if stalled else "",
        **elastic_values(elastic_inputs, elastic),
        elastic_points=points(max(0.0, goodput_of(elastic) - plan.goodput)), elastic_t=elastic_t,
        elastic_moves=Variant("stays" if elastic_t == d(plan.interval) else "moves"),
        half=Variant("planned" if half else "drain"),
        half_points=points(max(0.0, plan.goodput - half.goodput)) if half else "",
        per_gpu=Variant("one_gpu" if p.gpus == 1 else "many"),
        m_gpu=d(m_gpu), wrong_t=d(wrong_t), wrong_kept=share(kept),
        reach=Variant("tiny" if survive < TINY else "share"), reach_share=f"{survive:.0%}",
        halve_r=gain_text(fleet.levers["halve R"]),
        balance=Variant("equal" if equal else "apart" if fleet.first_order_quotable else "unquoted"),
        apart_by=Variant("drain_tier" if drained and two_tiers else "drain" if drained else "tier" if two_tiers
                         else "exact"),
        fo_quotable=Variant("quotable" if fleet.first_order_quotable else "refused"),
        # a derived slow checkpoint is the book's comparison, not the fleet's (Params.slow_derived)
        slow_its=Variant("derived" if p.slow_derived else "write" if p.slow_is_write else "other"),
        slow_said=_upper_first(slow_words(p, fleet.slow_keeps_more)) if p.slow_derived else "",
        recovery=Variant("given" if fleet.recovered else "none"),
        recovery_inputs=Variant(recovery_kind(p)),
        jit_p=share_text(p.just_in_time), jit_r=d(p.jit_recovery), planned_q=planned_text(p) if p.planned_rate > 0 else "",
    )
