"""The answer page (book/answer.md): the fleet's recommendation, its largest loss and levers, first order, how sure.

Every value comes from the fleet's one plan (:class:`goodput.fleet.FleetPlan`), formatted once.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, fields

from goodput.errors import Refused
from goodput.fleet import FleetPlan
from goodput.pages import Raw, Variant
from goodput.pages.common import (
    LOSS_WORDS,
    NOT_QUOTED,
    Fleet,
    LossLever,
    PlanValues,
    SchemeValues,
    first_order_variant,
    fleet_values,
    g_span,
    left_out_text,
    losses_text,
    m_given,
    ranges_text,
    scheme_values,
    t_span,
)
from goodput.params import Params
from goodput.plan import Plan, plan_for
from goodput.report import (
    INPUT_WORDS,
    RESTART_PART_NAMES,
    count,
    gain_text,
    join_words,
    large_count,
    money,
    ordinal,
    percent,
    points,
    restart_part_texts,
    restart_text,
    share_text,
)
from goodput.units import format_duration
from goodput.whatif import DRAIN_SLOWDOWN, contention_whatif, with_cost

#: The input lever of a loss that has one of its own: halving that input cuts that loss first.
LOSS_LEVERS = {"restart_loss": ("halve R", "R"), "checkpoint_overhead": ("halve C", "C")}
#: The losses whose shares of wall time the loss-lever sentence follows, in the book's order.
_SHARES = ("checkpoint_overhead", "lost_work", "restart_loss")


def loss_lever(fleet: FleetPlan) -> LossLever | None:
    """The largest loss's own lever where a lever besides the top one and halving the failure rate gains more.

    Halving the failure rate cuts two losses at once, so it is left aside; None where the lever is not so outranked.
    """
    own = LOSS_LEVERS.get(fleet.largest_loss)
    if own is None or own[0] not in fleet.levers:
        return None
    ranked = fleet.levers_ranked
    names = [name for name, _ in ranked]
    above = names[1:names.index(own[0])]  # outranking it, the top lever left aside
    better = [name for name in above if name != "halve the failure rate"]
    if not better:
        return None
    p = fleet.params
    halved = p.replace(restart=p.restart / 2) if own[1] == "R" else with_cost(p, p.checkpoint_cost / 2)
    before, after = fleet.plan.losses, plan_for(halved).losses
    grow = [f"{LOSS_WORDS[n]} from {percent(getattr(before, n))} to {percent(getattr(after, n))}"
            for n in _SHARES if n != fleet.largest_loss and getattr(after, n) > getattr(before, n)]
    if not grow:  # pragma: no cover - the freed time always runs again; without that, no reason to give
        return None
    return LossLever(own_lever=own[0], own_input=own[1], own_points=points(fleet.levers[own[0]]),
                     better_lever=better[0], better_points=points(fleet.levers[better[0]]),
                     loss_after=percent(getattr(after, fleet.largest_loss)), others_grow=join_words(grow))


def loss_lever_values(x: LossLever | None) -> dict[str, str]:
    """The fields of :class:`LossLever` for a page (from :func:`loss_lever`), "none" each where it is None."""
    return {f.name: (getattr(x, f.name) if x else "none") for f in fields(LossLever)}


@dataclass(frozen=True)
class Page(Fleet, PlanValues, LossLever, SchemeValues):
    """The answer page's values; each field is a glue key of book/answer.md ("none" where a paragraph has no use)."""

    mtbi_how: Variant
    scheme: Variant
    losses_ranked: str
    month_hours: str
    drain_busy: Variant
    slow_word: str
    slow_verdict: Variant
    not_paying: Variant
    slow_points: str
    slow_dollars: str
    slow_gain: str
    slow_gain_dollars: str
    cost_lever: Variant
    loss_lever: Variant
    halve_c_points: str
    halve_c_dollars: str
    slow_kind: Variant
    slow_pair: Variant
    fo_model: str
    fo_losses: str
    fo_slow: Variant
    fo_slow_gap: str
    fo_points: str
    fo_dollars: str
    persistent_which: str = "none"
    fast_lost: str = "none"
    drain_share: str = "none"
    drained_every: str = "none"
    busy_slowdown: str = "none"
    busy_goodput: str = "none"
    busy_points: str = "none"
    own_write: str = "none"
    own_write_goodput: str = "none"


def plan_losses(plan: Plan) -> str:
    """A first-order plan's losses in the book's order: ``"checkpoint overhead 5.2%, lost work 5.2% and restart 2.7%"``."""
    names = ["checkpoint_overhead", "lost_work", "restart_loss"] + (["drain_loss"] if plan.tiers is not None else [])
    values = [getattr(plan.losses, n) if n != "drain_loss" else plan.drain_loss for n in names]
    return join_words([f"{LOSS_WORDS[n]} {percent(v)}" for n, v in zip(names, values, strict=True)])


def slow_word(params: Params) -> str:
    """The slow checkpoint against the fleet's, before "checkpoint": "slower", or "shorter" where it stalls less.

    Only a measured stall beside a snapshot (:attr:`goodput.params.Params.checkpoint_is_stall`) may be longer than the
    synchronous write it is compared with (tests/data/fleet-stored-stall.yml: 6.3 s against 5.67 s).
    """
    return "shorter" if params.slow_checkpoint_cost < params.checkpoint_cost else "slower"


def compared_name(params: Params) -> str:
    """The slow checkpoint's name in a caption: "slow checkpoint", or "shorter ..." where it stalls less.

    Where it stalls less than the fleet's (:func:`slow_word`): "shorter synchronous write" where the book derives it,
    "shorter checkpoint" where the inputs file states it.
    """
    if slow_word(params) == "slower":
        return "slow checkpoint"
    return "shorter synchronous write" if params.slow_derived else "shorter checkpoint"


def own_write_values(params: Params) -> dict[str, str]:
    """The fleet's own synchronous write of its checkpoint, where the slow checkpoint the inputs file states is not it.

    ``own_write`` is that write's time (size / achieved write bandwidth) and ``own_write_goodput`` the goodput it
    leaves as the only checkpoint, at its own best interval, where the slow checkpoint is not that write
    (:attr:`goodput.params.Params.slow_is_write`); none otherwise (the page's fields then keep their "none").
    """
    s = params.storage
    if s is None or params.slow_is_write or params.checkpoint_is_write:
        return {}
    try:
        kept = percent(plan_for(params.replace(slow_checkpoint_cost=s.write_minutes), slow=True).goodput)
    except Refused:  # a write so slow against M that no work is kept
        kept = "no work kept"
    return {"own_write": format_duration(s.write_minutes), "own_write_goodput": kept}


def first_order_name(fleet: FleetPlan) -> str:
    """What first order is for the fleet's scheme, after "by" or as a subject.

    Young's formula only where the model of C, M and R alone is the fleet's scheme; with just-in-time recovery
    √(2CM/(1−p)) (Eq. eq-restart-jit); with tiers the first order of the scheme, what it adds named.
    """
    p = fleet.params
    if fleet.plain:
        return "Young's formula"
    if fleet.tiered:
        return f"first order of this checkpoint scheme (its {left_out_text(fleet.plan)} included)"
    stops = "its planned stops counted as pauses" if p.planned_rate > 0 else ""
    if p.just_in_time > 0:
        jit = f"p = {share_text(p.just_in_time)} of interruptions recovered just in time"
        return f"first order of this fleet's scheme (T* = √(2CM/(1−p)), with {join_words([jit] + [stops] * bool(stops))})"
    return f"first order of this fleet's scheme ({stops})"


def build(fleet: FleetPlan, calculator_url: str = "calculator.html") -> Page:
    """The answer page of a fleet.

    >>> from goodput.fleet import fleet_plan
    >>> from goodput.params import load_params
    >>> page = build(fleet_plan(load_params()))
    >>> page.interval, page.goodput, page.fo_interval, page.fo_goodput, page.fo_points, page.fo_dollars
    ('18.6 min', '87.6%', '19.3 min', '86.9%', '12.8 points', '$3.8M')
    """
    p, s = fleet.params, fleet.plan.tiers
    (l1, _), (l2, g2) = fleet.levers_ranked[:2]
    halve_c = fleet.levers["halve C"]
    fast_ok = fleet.first_order_quotable
    slow_fo = fleet.slow_first_order
    slow_ok = fast_ok and slow_fo.check.quotable
    slow_fo_points = max(0.0, fleet.first_order.goodput - slow_fo.goodput)
    scheme = "single" if s is None else "drain" if s.one_tier else "tiered" if s.drain > 0 else "persistent"
    top = fleet.ranges.swings[0] if fleet.ranges.swings else None
    # With spares, the best count against none, and what the pool held gives, net of the spares' own GPUs.
    choice, part = fleet.best_spares, fleet.largest_restart_part
    spares, best, held = "none", ["none"] * 3, ["none"] * 2
    if choice is not None and p.spares is not None:
        b, n = choice.best, p.spares.nodes
        spares = "held" if n == b else "given"
        best = [count(b, "spare node"), percent(choice.goodput[b]), money(max(0.0, choice.dollars[b]))]
        worth_held = fleet.dollars(fleet.goodput - choice.goodput[0]) - fleet.dollars(n * p.gpus_per_node / p.gpus)
        held = [count(n, "spare node"), money(max(0.0, choice.dollars[b] - worth_held))]
    outranked = loss_lever(fleet)
    chosen = own_write_values(p)  # the fields a paragraph of this fleet quotes; the others keep "none"
    if s is not None and not s.one_tier:
        chosen |= {"persistent_which": f"every {ordinal(s.every)} checkpoint" if s.every > 1 else "every checkpoint",
                   "fast_lost": share_text(1.0 - s.fast_survives)}
    # A drain that keeps the storage busy: the tiers page's contention what-if, said with the recommendation.
    busy = contention_whatif(fleet) if fleet.plan.drain_busy else None
    if busy is not None and s is not None:
        chosen |= {"drain_share": percent(fleet.plan.drain_share, 0),
                   "drained_every": format_duration(s.every * fleet.interval),
                   "busy_slowdown": percent(DRAIN_SLOWDOWN, 0), "busy_goodput": percent(busy.goodput),
                   "busy_points": points(max(0.0, busy.counted - busy.goodput))}
    return Page(
        **fleet_values(fleet), **scheme_values(fleet), **chosen, first_order=first_order_variant(fleet),
        calculator=Variant("link"), calculator_url=Raw(html.escape(calculator_url)), mtbi_how=Variant(m_given(p)),
        restart_text=restart_text(p), scheme=Variant(scheme), losses_ranked=losses_text(fleet),
        lost_gpu_hours=large_count(fleet.lost_gpu_hours), month_hours=f"{p.month / 60:,.0f}",
        drain_busy=Variant("busy" if busy else "none"),
        slow_word=slow_word(p), slow_verdict=Variant("more" if fleet.slow_keeps_more else "less"),
        slow_points=points(fleet.slow_points), slow_dollars=money(fleet.dollars(fleet.slow_points)),
        not_paying=Variant("loses" if fleet.slow_keeps_more else "pays"),
        slow_gain=gain_text(fleet.slow_gain), slow_gain_dollars=money(fleet.dollars(fleet.slow_gain)),
        lever_2_dollars=money(fleet.dollars(g2)),
        cost_lever=Variant("minor" if "halve C" not in (l1, l2) else "second" if fleet.losses["checkpoint_overhead"]
                           == min(fleet.losses.values()) else "top"),
        loss_lever=Variant("other" if outranked else "own"), **loss_lever_values(outranked), halve_c_points=points(halve_c),
        halve_c_dollars=money(fleet.dollars(halve_c)),
        # a derived write that, as measured, keeps more than the scheme (FleetPlan.slow_keeps_more) is not "not taken"
        slow_kind=Variant(("derived_more" if fleet.slow_keeps_more else "derived") if p.slow_derived
                          else "compared" if p.checkpoint_is_write
                          else "write" if p.slow_is_write else "stated"),
        # "fast" and "slow" only where C is not itself a synchronous write (Params.checkpoint_is_write)
        slow_pair=Variant("derived" if p.slow_derived else "write" if p.checkpoint_is_write else "fast_slow"),
        fo_model=first_order_name(fleet),
        fo_losses=plan_losses(fleet.first_order) if fast_ok else NOT_QUOTED,
        fo_slow=Variant("none" if not fast_ok else "quoted" if slow_ok else "refused"),
        fo_slow_gap=points(abs(slow_fo.check.error)) if fast_ok else NOT_QUOTED,
        fo_points=points(slow_fo_points) if slow_ok else NOT_QUOTED,
        fo_dollars=money(fleet.dollars(slow_fo_points)) if slow_ok else NOT_QUOTED,
        ranges=Variant("given" if fleet.ranges.ranged else "none"), ranges_text=ranges_text(fleet),
        t_span=t_span(fleet), g_span=g_span(fleet), top_input=INPUT_WORDS.get(top.name, top.name) if top else "none",
        top_swing=points(top.goodput_swing) if top else "none",
        spares=Variant(spares), best_spares=best[0], best_spares_goodput=best[1], best_spares_dollars=best[2],
        spares_held=held[0], spares_held_dollars=held[1],
        restart_part=Variant("none" if part is None else "given" if s is None or s.one_tier else "both_tiers"),
        largest_part=RESTART_PART_NAMES[part.name] if part else "none",
        largest_part_minutes=restart_part_texts(p).get(part.name, format_duration(part.minutes)) if part else "none",
        largest_part_points=points(part.gain) if part else "none",
        largest_part_dollars=money(fleet.dollars(part.gain)) if part else "none",
    )
