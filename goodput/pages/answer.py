"""The answer page (book/answer.md): the fleet's recommendation, its largest loss and levers, first order, how sure.

Every value comes from the fleet's one plan (:class:`goodput.fleet.FleetPlan`), formatted once.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, fields
from typing import Any

from goodput.fleet import FleetPlan
from goodput.pages import Raw, Variant
from goodput.pages.common import (
    COST_LEVER_WHAT,
    COST_LEVER_WORDS,
    LOSS_WORDS,
    NOT_QUOTED,
    Fleet,
    LossLever,
    PlanValues,
    RecoveryValues,
    SchemeValues,
    SlowRestartValues,
    first_order_variant,
    fleet_values,
    g_span,
    left_out_text,
    losses_text,
    m_given,
    ranges_text,
    recovery_values,
    scheme_values,
    slow_compared,
    slow_restart_values,
    t_span,
)
from goodput.params import Params
from goodput.plan import Plan
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
    percent_sig2,
    points,
    restart_part_texts,
    restart_text,
    share_text,
)
from goodput.units import format_duration
from goodput.whatif import CHEAPER_CHECKPOINT, DRAIN_SLOWDOWN, answer_whatif, loss_lever_whatif


def loss_lever(fleet: FleetPlan) -> LossLever | None:
    """The largest loss's own lever where another gains more (:func:`goodput.whatif.loss_lever_whatif`), or None."""
    x = loss_lever_whatif(fleet)
    if x is None:
        return None
    before, after = fleet.plan.losses, x.after.losses
    grow = [f"{LOSS_WORDS[n]} from {percent(getattr(before, n))} to {percent(getattr(after, n))}" for n in x.grown]
    return LossLever(own_lever=x.own, own_points=gain_text(fleet.levers[x.own]),
                     better_lever=x.better, better_points=gain_text(fleet.levers[x.better]),
                     loss_after=percent(getattr(after, fleet.largest_loss)), others_grow=join_words(grow))


def loss_lever_variant(x: LossLever | None) -> Variant:
    """The paragraph on the largest loss's own lever, from :func:`loss_lever`.

    "own" (outranked by no lever but the top one and halving the failure rate), "other" (outranked, and the other
    losses grow back) or "outranked" (outranked, and no other loss grows visibly: no reason is given).
    """
    return Variant("own" if x is None else "other" if x.others_grow else "outranked")


def restart_part_variant(fleet: FleetPlan) -> str:
    """Which restart-part paragraph applies; "none" without parts.

    The wait for repairs or a listed part the largest, and with two tiers the reason a part can gain more than
    "halve R" (it shortens R_p too).
    """
    if fleet.largest_restart_part is None:
        return "none"
    s = fleet.plan.tiers
    both = s is not None and not s.one_tier
    if fleet.repair_wait_largest:
        return "wait_both_tiers" if both else "wait"
    return "both_tiers" if both else "given"


def loss_lever_values(x: LossLever | None) -> dict[str, Any]:
    """The fields of :class:`LossLever` for a page (from :func:`loss_lever`), "none" each where it is None."""
    return {f.name: (getattr(x, f.name) if x else "none") for f in fields(LossLever)}


@dataclass(frozen=True)
class Page(Fleet, PlanValues, LossLever, SchemeValues, RecoveryValues, SlowRestartValues):
    """The answer page's values; each field is a glue key of book/answer.md ("none" where a paragraph has no use)."""

    mtbi_how: Variant
    scheme: Variant
    scheme_recovery: Variant
    losses_ranked: str
    month_hours: str
    drain_busy: Variant
    slow_line: Variant
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
    spares_rank: Variant
    spares_rank_gain: str
    cost_lever_words: str
    cost_lever_what: str
    scheme_stall: str
    slow_kind: Variant
    optimum: Variant
    slow_pair: Variant
    fo_model: str
    fo_losses: str
    fo_slow: Variant
    fo_slow_gap: str
    fo_points: str
    fo_side: Variant
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
    names = ["checkpoint_overhead", "lost_work", "restart_loss"] + (["drain_loss"] if plan.drained else [])
    values = [getattr(plan.losses, n) if n != "drain_loss" else plan.drain_loss for n in names]
    return join_words([f"{LOSS_WORDS[n]} {percent_sig2(v)}" for n, v in zip(names, values, strict=True)])


def slow_word(params: Params) -> str:
    """The slow checkpoint against the fleet's, before "checkpoint": "slower", "equally long" or "shorter".

    Only a measured stall beside a snapshot (:attr:`goodput.params.Params.checkpoint_is_stall`) may be longer than the
    synchronous write it is compared with (tests/data/fleet-stored-stall.yml: 6.3 s against 5.67 s).
    """
    return {"longer": "slower", "same": "equally long", "shorter": "shorter"}[params.slow_against_c]


def compared_name(params: Params) -> str:
    """The slow checkpoint's name in a caption: "slow checkpoint", or "shorter ..." where it stalls less.

    Where it stalls less than the fleet's (:func:`slow_word`): "shorter synchronous write" where the book derives it,
    "shorter checkpoint" where the inputs file states it.
    """
    if params.slow_against_c != "shorter":
        return "slow checkpoint"
    return "shorter synchronous write" if params.slow_derived else "shorter checkpoint"


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
    # the checkpoint's lever that gains most: C's, or C_p's where the stall that counts is the persistent one
    cost = max((n for n in CHEAPER_CHECKPOINT if n in fleet.levers), key=lambda n: fleet.levers[n])
    halve_c = fleet.levers[cost]
    fast_ok = fleet.first_order_quotable
    slow_fo = fleet.slow_first_order
    slow_ok = fast_ok and slow_fo.check.quotable
    w = answer_whatif(fleet)
    scheme = "single" if s is None else "drain" if s.one_tier else "tiered" if s.drain > 0 else "persistent"
    top = fleet.ranges.swings[0] if fleet.ranges.swings else None
    # With spares, the best count against none, and what the pool held gives, net of the spares' own GPUs.
    choice, part = fleet.best_spares, fleet.largest_restart_part
    spares, best, held = "none", ["none"] * 3, ["none"] * 2
    rank, rank_gain = "none", ""
    if choice is not None and p.spares is not None and w.spares_short is not None:
        b, n = choice.best, p.spares.nodes
        # none may be best: each spare's GPUs cost more than the kept work it wins back (a small job, long repairs)
        spares = ("none_held" if n == 0 else "none_pays") if b == 0 else "held" if n == b else \
            "given_none" if n == 0 else "given"
        best = [count(b, "spare node"), percent(choice.goodput[b]), money(max(0.0, choice.dollars[b]))]
        held = [count(n, "spare node"), money(w.spares_short)]
        pool_gain = choice.goodput[b] - fleet.goodput  # from the pool held to the best: a lever the table does not list
        if spares in ("given", "given_none") and pool_gain > fleet.levers_ranked[0][1]:
            rank, rank_gain = "beats", gain_text(pool_gain)
    outranked = loss_lever(fleet)
    chosen: dict[str, Any] = {}  # the fields a paragraph of this fleet quotes; the others keep "none"
    if w.own_write is not None:  # the storage's own write, where the slow checkpoint typed is not it
        chosen = {"own_write": format_duration(w.own_write),
                  "own_write_goodput": percent(w.own_write_plan.goodput) if w.own_write_plan else "no work kept"}
    if s is not None and not s.one_tier:
        chosen |= {"persistent_which": f"every {ordinal(s.every)} checkpoint" if s.every > 1 else "every checkpoint",
                   "fast_lost": share_text(1.0 - s.fast_survives)}
    # A drain that keeps the storage busy: the tiers page's contention what-if, said with the recommendation.
    busy = w.busy
    if busy is not None and s is not None:
        chosen |= {"drain_share": percent(fleet.plan.drain_share, 0),
                   "drained_every": format_duration(s.every * fleet.interval),
                   "busy_slowdown": percent(DRAIN_SLOWDOWN, 0), "busy_goodput": percent(busy.goodput),
                   "busy_points": points(w.busy_loss)}
    return Page(
        **fleet_values(fleet), **scheme_values(fleet), **chosen, first_order=first_order_variant(fleet),
        calculator=Variant("link"), calculator_url=Raw(html.escape(calculator_url)), mtbi_how=Variant(m_given(p)),
        restart_text=restart_text(p), scheme=Variant(scheme), losses_ranked=losses_text(fleet),
        # not every interruption rolls back: the plan counts the rest too, said beside the scheme it has
        scheme_recovery=Variant("given" if fleet.recovered else "none"), **recovery_values(p), **slow_restart_values(p),
        lost_gpu_hours=large_count(fleet.lost_gpu_hours), month_hours=f"{p.month / 60:,.0f}",
        drain_busy=Variant("busy" if busy else "none"),
        # "same": to the tenth of a point, the checkpoints alike ("same") or not ("level": a fleet keeping next to nothing)
        # no dearer checkpoint beside the fleet's (FleetPlan.slow_is_own): the bullet compares nothing
        slow_line=slow_compared(fleet),
        # "level": to the tenth of a point the checkpoints alike, a fleet keeping next to nothing
        slow_word=slow_word(p), slow_verdict=Variant("more" if fleet.slow_keeps_more else "less" if points(
            fleet.slow_points) != points(0.0) else "level"),
        slow_points=points(fleet.slow_points), slow_dollars=money(fleet.dollars(fleet.slow_points)),
        # where the scheme's own checkpoint already stalls less than the write, it loses in its other parts
        not_paying=Variant(("loses_elsewhere" if fleet.scheme_stall < p.slow_checkpoint_cost else "loses")
                           if fleet.slow_keeps_more else "pays"),
        scheme_stall=format_duration(fleet.scheme_stall),  # C, or C_p where every checkpoint is persistent
        slow_gain=gain_text(fleet.slow_gain), slow_gain_dollars=money(fleet.dollars(fleet.slow_gain)),
        lever_2_dollars=money(fleet.dollars(g2)),
        cost_lever=Variant("minor" if cost not in (l1, l2) else "second" if fleet.losses["checkpoint_overhead"]
                           == min(fleet.losses.values()) else "top"),
        loss_lever=loss_lever_variant(outranked), **loss_lever_values(outranked), halve_c_points=gain_text(halve_c),
        halve_c_dollars=money(fleet.dollars(halve_c)), cost_lever_words=COST_LEVER_WORDS[cost],
        cost_lever_what=COST_LEVER_WHAT[cost],
        # a derived write that, as measured, keeps more than the scheme (FleetPlan.slow_keeps_more) is not "not taken"
        optimum=Variant("drain" if fleet.plan.drain_bound else "exact"),
        slow_kind=Variant(("derived_more" if fleet.slow_keeps_more else "derived") if p.slow_derived
                          else "compared" if p.checkpoint_is_write
                          else "write" if p.slow_is_write else "stated"),
        # "fast" and "slow" only where C is not itself a synchronous write (Params.checkpoint_is_write)
        slow_pair=Variant("derived" if p.slow_derived else "write" if p.checkpoint_is_write else "fast_slow"),
        fo_model=first_order_name(fleet),
        fo_losses=plan_losses(fleet.first_order) if fast_ok else NOT_QUOTED,
        fo_slow=Variant("alone" if fleet.slow_is_own else "none" if not fast_ok else "quoted" if slow_ok else "refused"),
        fo_slow_gap=points(abs(slow_fo.check.error)) if fast_ok else NOT_QUOTED,
        fo_points=points(abs(w.slow_fo_gain)) if slow_ok else NOT_QUOTED,
        # first order, too, can find the write keeping more than the scheme
        fo_side=Variant("more" if slow_ok and w.slow_fo_gain < 0 else "less"),
        fo_dollars=money(fleet.dollars(abs(w.slow_fo_gain))) if slow_ok else NOT_QUOTED,
        ranges=Variant("given" if fleet.ranges.ranged else "none"), ranges_text=ranges_text(fleet),
        t_span=t_span(fleet), g_span=g_span(fleet), top_input=INPUT_WORDS.get(top.name, top.name) if top else "none",
        top_swing=points(top.goodput_swing) if top else "none",
        spares=Variant(spares), best_spares=best[0], best_spares_goodput=best[1], best_spares_dollars=best[2],
        spares_held=held[0], spares_held_dollars=held[1], spares_rank=Variant(rank), spares_rank_gain=rank_gain,
        restart_part=Variant(restart_part_variant(fleet)),
        repair_wait=format_duration(fleet.repair_wait()),
        largest_part=RESTART_PART_NAMES[part.name] if part else "none",
        largest_part_minutes=restart_part_texts(p).get(part.name, format_duration(part.minutes)) if part else "none",
        largest_part_points=points(part.gain) if part else "none",
        largest_part_dollars=money(fleet.dollars(part.gain)) if part else "none",
    )
