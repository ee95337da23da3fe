"""The chapter "Measuring the inputs, and where the model is wrong" (``book/measuring.md``).

Every number is the fleet's plan's (the exact model of its whole scheme); each illustration changes one input of
that scheme and plans again (:func:`goodput.whatif.measuring_whatif`), and says so where the model keeps no work.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from goodput.fleet import FleetPlan
from goodput.pages import Variant
from goodput.pages.answer import loss_lever, loss_lever_values
from goodput.pages.common import (
    MATERIAL,
    RESTART_LEVER_WORDS,
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
    slow_compared,
)
from goodput.plan import Plan
from goodput.report import (
    gain_text,
    interval_text,
    ordinal,
    percent,
    percent_sig2,
    planned_text,
    points,
    range_ends,
    share_text,
    slow_words,
    small_points,
)
from goodput.units import format_duration
from goodput.whatif import (
    ASYNC_SECONDS,
    EARLY_FACTOR,
    LOSS_LEVERS,
    SMALL_COUNT,
    SYNC_SECONDS,
    goodput_of,
    measuring_whatif,
)

#: Below this share of wall time, goodput is written as "less than 0.1%".
TINY = 0.001


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
    restart_lever: str
    halve_r: str
    balance: Variant
    apart_by: Variant
    fo_quotable: Variant
    slow_its: Variant
    slow_against: Variant
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


def _interval_ends(low: Plan | None, high: Plan | None, interval: float) -> dict[str, str]:
    """``dozen_t_low`` and ``dozen_t_high``: the plan's interval at the ends of M's range, in the interval's unit."""
    if low is None or high is None:
        return {"dozen_t_low": "", "dozen_t_high": format_duration(high.interval) if high else ""}
    ends = range_ends(low.interval, high.interval, like=interval)
    return {"dozen_t_low": ends[0], "dozen_t_high": ends[1]}


def build(fleet: FleetPlan) -> Page:
    """The measuring page of a fleet.

    >>> from goodput.fleet import fleet_plan
    >>> from goodput.params import load_params
    >>> page = build(fleet_plan(load_params()))
    >>> page.interval, page.goodput, page.twice_points, page.top_lever
    ('18.6 min', '87.6%', '2.2 points', 'halve the failure rate')
    """
    p, plan, scheme, w = fleet.params, fleet.plan, fleet.plan.tiers, measuring_whatif(fleet)
    d = format_duration
    restart_best = max((n for n in LOSS_LEVERS["restart_loss"] if n in fleet.levers), key=lambda n: fleet.levers[n])
    m, c, drain = p.mtbi, p.checkpoint_cost, scheme.drain if scheme else 0.0
    # C against PyTorch's stall as the page writes both: equal as written reads "the same as", not "shorter than"
    async_time = d(ASYNC_SECONDS / 60.0, 4)
    async_snapshot = ("write" if drain == 0 else "same" if d(c) == async_time else "shorter" if c < ASYNC_SECONDS / 60.0
                      else "gain" if w.async_gain >= MATERIAL else "done")
    off, _, half = off_optimum(fleet)  # half the interval, where the drain allows it
    elastic_t = d(w.elastic.interval)
    # Overhead and lost work are equal at first order's optimum; the exact model, a drain and a persistent tier part them.
    drained, two_tiers = scheme is not None and scheme.drain > 0, scheme is not None and not scheme.one_tier
    outranked = loss_lever(fleet)
    return Page(
        **fleet_values(fleet), **scheme_values(fleet), **off, **loss_lever_values(outranked),
        loss_mistake=Variant("other" if outranked else "own"),
        dozen_time=d(SMALL_COUNT * m), dozen_below=f"{1 - w.low / m:.0%}", dozen_above=f"{w.high / m - 1:.0%}",
        dozen_range=interval_text(w.low, w.high),
        dozen_t_range=Variant("planned" if w.t_low else "none"), **_interval_ends(w.t_low, w.t_high, plan.interval),
        dozen_rel=f"{1 / math.sqrt(SMALL_COUNT):.0%}", own_count=Variant("count" if p.counted else "other"),
        own_range=interval_text(w.own_low, w.own_high),
        own_rel=f"{1 / math.sqrt(p.counted[0]):.0%}" if p.counted else "",
        early=Variant("refused" if not (w.early and w.keep) else "planned" if w.early_gain >= MATERIAL else "same"),
        early_factor=f"{EARLY_FACTOR:g}",
        early_m=d(m / EARLY_FACTOR), early_t=(d(w.early.interval) + cadence_text(w.early)) if w.early else "",
        early_keep=share(goodput_of(w.keep)), early_follow=share(goodput_of(w.early)),
        early_points=points(w.early_gain), matters=points(MATERIAL), sync_time=f"{SYNC_SECONDS:g} s",
        async_time=async_time, sync_goodput=share(w.sync),
        async_goodput=share(w.async_), async_points=points(w.async_over_sync),
        async_case=Variant("lever" if drain == 0 else "drained" if not w.stalled else
                           "stalled_all" if scheme is not None and scheme.every == 1 else "stalled"),
        async_snapshot=Variant(async_snapshot), stall_verdict=Variant("loses" if fleet.slow_keeps_more else "none"),
        async_gain=points(max(0.0, w.async_gain)),
        c_name="measured stall" if p.checkpoint_is_stall else "snapshot",
        persistent_every=ordinal(scheme.every) if w.stalled and scheme else "",
        drain_persistent=gain_text(fleet.levers["drain the persistent write as well"]) if w.stalled else "",
        **elastic_values(w.elastic_inputs, w.elastic, plan.goodput),
        elastic_points=small_points(w.elastic_gain), elastic_t=elastic_t,  # as the failures page writes the gain
        elastic_moves=Variant("stays" if elastic_t == d(plan.interval) else "moves"),
        half=Variant("planned" if half else "drain"),
        half_points=points(max(0.0, plan.goodput - half.goodput)) if half else "",
        per_gpu=Variant("one_gpu" if p.gpus == 1 else "many"),
        m_gpu=d(w.m_gpu), wrong_t=d(w.wrong_t), wrong_kept=share(w.kept),
        reach=Variant("tiny" if w.survive < TINY else "share"), reach_share=percent_sig2(w.survive),  # "1.5%", not "1%"; "0.30%", not "0%"
        # the restart's lever that gains most: where every restart is from the persistent tier, R plays no part
        restart_lever=RESTART_LEVER_WORDS[restart_best], halve_r=gain_text(fleet.levers[restart_best]),
        balance=Variant("equal" if w.about_equal else "apart" if fleet.first_order_quotable else "unquoted"),
        apart_by=Variant("drain_tier" if drained and two_tiers else "drain" if drained else "tier" if two_tiers
                         else "exact"),
        fo_quotable=Variant("quotable" if fleet.first_order_quotable else "refused"),
        # a derived slow checkpoint is the book's comparison, not the fleet's (Params.slow_derived)
        slow_against=slow_compared(fleet),
        slow_its=Variant("derived" if p.slow_derived else "write" if p.slow_is_write else "other"),
        slow_said=_upper_first(slow_words(p, fleet.slow_keeps_more)) if p.slow_derived else "",
        recovery=Variant("given" if fleet.recovered else "none"),
        recovery_inputs=Variant(recovery_kind(p)),
        jit_p=share_text(p.just_in_time), jit_r=d(p.jit_recovery), planned_q=planned_text(p) if p.planned_rate > 0 else "",
    )
