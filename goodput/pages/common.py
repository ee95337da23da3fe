"""What several pages say alike: the fleet's headline values (:class:`Fleet`), first order's verdict, the ranges."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from goodput import model
from goodput.fleet import CONFIDENCE, FleetPlan
from goodput.pages import Variant
from goodput.params import Params, load_params
from goodput.plan import Plan
from goodput.report import (
    INPUT_WORDS,
    count,
    gain_text,
    gap_text,
    input_span,
    join_words,
    loss_texts,
    money,
    mtbi_origin,
    ordinal,
    percent,
    percent_apart,
    planned_text,
    points,
    range_ends,
    range_origin,
    recommendation,
    scheme_words,
    slow_words,
)
from goodput.tiers import Tiers
from goodput.units import format_duration, format_rate
from goodput.whatif import OFF_BY, off_optimum_plans

#: What a page says in place of a number it does not quote (first order where the one measure refuses it).
NOT_QUOTED = "not quoted"
#: A what-if's gain below this share of wall time (a tenth of a point) is too small to advise on: a page says so.
MATERIAL = 0.001


def quoted(text: str, quotable: bool) -> str:
    """`text` where a first-order value may be quoted, else :data:`NOT_QUOTED`."""
    return text if quotable else NOT_QUOTED


def is_worked_example(params: Params) -> bool:
    """Whether a fleet's inputs are ``book/params.yml``'s as shipped (GPUs, M, both C, R, price, month, one tier)."""
    w = load_params()
    fields = ("gpus", "mtbi", "checkpoint_cost", "slow_checkpoint_cost", "restart", "price_per_gpu_hour", "month")
    return all(getattr(params, f) == getattr(w, f) for f in fields) and not params.tiered


def span(low: str, high: str) -> str:
    """``"between low and high"``, or ``"at low"`` when the two read the same."""
    return f"at {low}" if low == high else f"between {low} and {high}"


#: How each loss of :data:`goodput.fleet.LOSSES` is named in a sentence or a table.
LOSS_WORDS = {"checkpoint_overhead": "checkpoint overhead", "lost_work": "lost work", "restart_loss": "restart",
              "drain_loss": "checkpoints not yet durable (the drain)"}

#: The checkpoint's levers (:data:`goodput.whatif.LOSS_LEVERS`) as a sentence pulls them.
COST_LEVER_WORDS = {"halve C": "halving the checkpoint cost C",
                    "halve C_p": "halving the persistent checkpoint's cost C_p",
                    "shorten C_p to C": "shortening the persistent checkpoint's cost C_p to C",
                    # the persistent write drained too: its stall falls from C_p to C, a cheaper checkpoint as well
                    "drain the persistent write as well": "draining the persistent write as well, so that it stalls "
                                                          "for C alone,"}
#: The restart's levers (:data:`goodput.whatif.LOSS_LEVERS`) as a sentence pulls them.
RESTART_LEVER_WORDS = {"halve R": "halving R", "halve R_p": "halving R_p", "shorten R_p to R": "shortening R_p to R"}
#: Which checkpoint each of :data:`COST_LEVER_WORDS` makes cheaper, as the answer page names it where that lever pays.
COST_LEVER_WHAT = {"halve C": "checkpoint cost C"} | dict.fromkeys(
    ("halve C_p", "shorten C_p to C", "drain the persistent write as well"), "persistent checkpoint's stall, C_p,")


def losses_text(fleet: FleetPlan, *, largest_first: bool = True) -> str:
    """The plan's losses in a sentence: ``"lost work 5.1%, checkpoint overhead 4.7% and restart 2.7%"``."""
    losses = fleet.losses
    names = sorted(losses, key=lambda n: -losses[n]) if largest_first else list(losses)
    shown = loss_texts(losses)
    return join_words([f"{LOSS_WORDS[n]} {shown[n]}" for n in names])


def slow_compared(fleet: FleetPlan) -> Variant:
    """Whether a page sets the slow checkpoint beside the plan: ``"compare"``, or why not.

    ``"own_derived"`` where C is itself the synchronous write the book would derive, ``"own_typed"`` where the inputs
    give the same cost twice (:attr:`goodput.fleet.FleetPlan.slow_is_own`: no dearer checkpoint to compare).
    """
    if not fleet.slow_is_own:
        return Variant("compare")
    return Variant("own_derived" if fleet.params.slow_derived else "own_typed")


def first_order_variant(fleet: FleetPlan) -> Variant:
    """The paragraph first order's one verdict for the fleet chooses: ``ok``, ``caution``, ``out_of_range``, ``below_zero``.

    The verdict is :attr:`goodput.fleet.FleetPlan.first_order_status` (the scheme's first order against its
    exact model); only ``ok`` and ``caution`` may quote a first-order number.
    """
    return Variant(fleet.first_order_status.replace(" ", "_"))


def cadence_text(plan: Plan) -> str:
    """The persistent cadence as a clause after the interval: ", every 4th one to the persistent tier", or ""."""
    s = plan.tiers
    if s is None or s.one_tier:
        return ""
    return ", every checkpoint to the persistent tier" if s.every == 1 else \
        f", every {ordinal(s.every)} one to the persistent tier"


def scheme_parts_text(plan: Plan) -> str:
    """What the plan's scheme has beyond one checkpoint safe when taken, without an article, or "" for neither.

    ``"drain"``, ``"persistent tier"`` or ``"drain and persistent tier"``, to follow "its" or "the fleet's".
    """
    s = plan.tiers
    if s is None:
        return ""
    return join_words(["drain"] * (s.drain > 0) + ["persistent tier"] * (not s.one_tier))


def left_out_text(plan: Plan) -> str:
    """What the model of C, M and R alone leaves out of the plan's scheme, without an article, or "" for nothing.

    Its tier parts (:func:`scheme_parts_text`), then ``"just-in-time recovery"`` and ``"planned stops"``, to follow
    "its" or "the fleet's".
    """
    p, _, q, _ = plan.recovery or (0.0, 0.0, 0.0, 0.0)
    parts = [scheme_parts_text(plan)] * bool(plan.tiers) + ["just-in-time recovery"] * (p > 0) + ["planned stops"] * (q > 0)
    return join_words([part for part in parts if part])


def recovery_kind(params: Params) -> str:
    """What of a fleet's interruptions does not roll back, as a variant's name.

    ``"jit"`` (some recovered just in time), ``"planned"`` (planned stops with notice), ``"both"`` or ``"none"``.
    """
    jit, planned = params.just_in_time > 0, params.planned_rate > 0
    return "both" if jit and planned else "jit" if jit else "planned" if planned else "none"


def scheme_kind(fleet: FleetPlan) -> str:
    """Which model the fleet's plan is: ``"single"`` (no scheme), ``"drain"`` (one tier drained) or ``"tiered"``."""
    s = fleet.plan.tiers
    return "single" if s is None else "drain" if s.one_tier else "tiered"


def m_given(p: Params) -> str:
    """How M was given, as a paragraph variant's name: ``"count"``, ``"rate"`` or ``"given"`` (a duration)."""
    return {"interruptions": "count", "rate_per_gpu_hour": "rate"}.get(p.mtbi_source, "given")


def how_mtbi_given(fleet: FleetPlan) -> str:
    """How M was given, after "M is given": ``"as a rate, 1.5e-5 interruptions per GPU-hour on 32,768 GPUs"``."""
    p, how = fleet.params, m_given(fleet.params)
    return f"as a {how}, {mtbi_origin(p)}" if how != "given" else f"as a duration, {format_duration(p.mtbi)}"


def ranges_text(fleet: FleetPlan) -> str:
    """The inputs' ranges with their values and where each came from, then those taken as exact, for a sentence."""
    r = fleet.ranges
    given = [f"{INPUT_WORDS.get(name, name)} from {input_span(name, r.inputs[name].low, r.inputs[name].high)} "
             f"({range_origin(r.inputs[name])})" for name in r.ranged]
    exact = [f"{INPUT_WORDS.get(name, name)} taken as exact (no range given)" for name in r.exact]
    return "; ".join(given + exact)


def t_span(fleet: FleetPlan) -> str:
    """Where the best interval lies over the inputs' ranges, through the fleet's scheme: ``"between 15.4 min and 27.3 min"``."""
    return span(*range_ends(*fleet.ranges.best.optimal_interval_range))


def g_span(fleet: FleetPlan) -> str:
    """Where goodput at the recommended interval lies over the inputs' ranges: ``"between 81.0% and 90.3%"``."""
    return span(*(percent(g) for g in fleet.ranges.fixed.goodput_range))


@dataclass(frozen=True)
class Fleet:
    """The fleet's headline values, formatted once; every chapter's ``Page`` inherits them as glue keys.

    Each means the same on every page: the inputs file, the fleet's inputs, its plan's interval, goodput, scheme
    (``scheme_parts``: :func:`scheme_parts_text`; ``beyond_cmr``: :func:`left_out_text`), losses and levers, the
    model of C, M and R alone (``plain_``), the slow checkpoint (``slow_what``: :func:`goodput.report.slow_words`)
    and first order's verdict, its numbers :data:`NOT_QUOTED` where refused. Variants are not shared.
    """

    params_file: str
    inputs_file: str
    inputs: str
    gpus: str
    gpu_count: str
    fleet_count: str
    cost: str
    mtbi: str
    m_how: str
    mtbi_origin: str
    restart: str
    slow_cost: str
    slow_what: str
    price: str
    rate: str
    interval: str
    goodput: str
    scheme_words: str
    scheme_parts: str
    beyond_cmr: str
    plain_interval: str
    plain_goodput: str
    cadence: str
    recommendation: str
    losses_text: str
    checkpoint_overhead: str
    restart_loss: str
    lost_work: str
    lost_dollars: str
    largest_loss: str
    largest_loss_share: str
    top_lever: str
    top_points: str
    top_dollars: str
    lever_2: str
    lever_2_points: str
    slow_interval: str
    slow_goodput: str
    gap: str
    gap_side: str
    tolerance: str
    caution_level: str
    confidence: str
    fo_interval: str
    fo_goodput: str
    goodput_fo: str
    fo_slow_interval: str
    fo_slow_goodput: str


def fleet_values(fleet: FleetPlan) -> dict[str, Any]:
    """The fields of :class:`Fleet` for a fleet, to pass to a ``Page``: ``Page(**fleet_values(fleet), ...)``.

    >>> from goodput.fleet import fleet_plan
    >>> values = fleet_values(fleet_plan(load_params()))
    >>> values["interval"], values["goodput"], values["fo_interval"], values["top_lever"]
    ('18.6 min', '87.6%', '19.3 min', 'halve the failure rate')
    """
    p, worked = fleet.params, is_worked_example(fleet.params)
    (top, top_gain), (second, second_gain) = fleet.levers_ranked[:2]
    quotable = fleet.first_order_quotable
    slow_quotable = quotable and fleet.slow_first_order.check.quotable
    shown = loss_texts(fleet.losses)  # under 1%, two significant digits, as the command writes them
    return vars(Fleet(
        params_file=f"{p.source} (the worked example)" if worked else p.source, inputs_file=p.source,
        inputs="the worked example" if worked else f"the inputs file {p.source}",
        gpus=f"{p.gpus:,}", gpu_count=count(p.gpus, "GPU"),
        fleet_count=count(p.interruption_count or 0, "interruption"),
        cost=format_duration(p.checkpoint_cost), mtbi=format_duration(p.mtbi), m_how=how_mtbi_given(fleet), mtbi_origin=mtbi_origin(p),
        restart=format_duration(p.restart), slow_cost=format_duration(p.slow_checkpoint_cost),
        slow_what=slow_words(p, fleet.slow_keeps_more),
        price=f"${p.price_per_gpu_hour:g}", rate=format_rate(p.rate_per_gpu_hour),
        interval=format_duration(fleet.interval), goodput=percent_apart(fleet.goodput, fleet.slow.goodput),
        scheme_words=scheme_words(fleet.plan, p), scheme_parts=scheme_parts_text(fleet.plan),
        beyond_cmr=left_out_text(fleet.plan), plain_interval=format_duration(fleet.alone.interval),
        plain_goodput=percent(fleet.alone.goodput), cadence=cadence_text(fleet.plan),
        recommendation=recommendation(fleet.plan),
        losses_text=losses_text(fleet, largest_first=False),
        # under 1%, two significant digits, as the command writes them: small losses add up as printed
        checkpoint_overhead=shown["checkpoint_overhead"], restart_loss=shown["restart_loss"], lost_work=shown["lost_work"],
        lost_dollars=money(fleet.lost_dollars),
        largest_loss=LOSS_WORDS[fleet.largest_loss], largest_loss_share=shown[fleet.largest_loss],
        top_lever=top, top_points=gain_text(top_gain), top_dollars=money(max(0.0, fleet.dollars(top_gain))),
        lever_2=second, lever_2_points=gain_text(second_gain),
        slow_interval=format_duration(fleet.slow.interval), slow_goodput=percent_apart(fleet.slow.goodput, fleet.goodput),
        gap=gap_text(fleet.plan.check) if fleet.first_order_status != "below zero" else NOT_QUOTED,
        gap_side="below" if fleet.first_order_gap >= 0 else "above", tolerance=points(model.FIRST_ORDER_TOLERANCE, 0),
        caution_level=points(model.FIRST_ORDER_CAUTION, 0), confidence=percent(CONFIDENCE, 0),
        fo_interval=quoted(format_duration(fleet.first_order.interval), quotable),
        # the two goodputs a first-order sentence sets side by side, each with the decimals that set them apart
        fo_goodput=quoted(percent_apart(fleet.first_order.goodput, fleet.goodput), quotable),
        goodput_fo=percent_apart(fleet.goodput, fleet.first_order.goodput) if quotable else NOT_QUOTED,
        fo_slow_interval=quoted(format_duration(fleet.slow_first_order.interval), slow_quotable),
        fo_slow_goodput=quoted(percent(fleet.slow_first_order.goodput), slow_quotable),
    ))


@dataclass(frozen=True)
class SchemeValues:
    """The plan's checkpoint scheme, said alike by the tiers, levers, measuring and failures pages.

    Its drain (``"0 s"`` without one) and the persistent tier's cost C_p and restart R_p (C and R for one tier).
    """

    drain: str
    persistent_cost: str
    persistent_restart: str


def scheme_values(fleet: FleetPlan) -> dict[str, Any]:
    """The fields of :class:`SchemeValues` for a fleet, to pass to a ``Page`` that inherits it."""
    p = fleet.params
    t = fleet.plan.tiers or Tiers(p.checkpoint_cost, p.restart)  # an untiered fleet: one tier, durable at once
    return vars(SchemeValues(drain=format_duration(t.drain), persistent_cost=format_duration(t.cp),
                             persistent_restart=format_duration(t.rp)))


@dataclass(frozen=True)
class OffOptimum:
    """A badly chosen interval, said alike by the levers and measuring pages.

    The interval :data:`OFF_BY` times the plan's and the points it costs against the plan (the fleet's whole scheme
    at that interval), and the interval 1/:data:`OFF_BY` of the plan's (which a page checks against the drain).
    """

    twice_interval: str
    twice_points: str
    half_interval: str


def off_optimum(fleet: FleetPlan) -> tuple[dict[str, Any], Plan, Plan | None]:
    """The fields of :class:`OffOptimum` for a fleet, and its plans off the optimum (:func:`~goodput.whatif.off_optimum_plans`)."""
    plan = fleet.plan
    twice, half = off_optimum_plans(fleet)
    return vars(OffOptimum(twice_interval=format_duration(twice.interval),
                           twice_points=points(max(0.0, plan.goodput - twice.goodput)),
                           half_interval=format_duration(plan.interval / OFF_BY))), twice, half


@dataclass(frozen=True)
class RecoveryValues:
    """The interruptions that do not roll back, said alike by the answer and goodput pages' recovery clause.

    ``recovery``: :func:`recovery_kind`; the share recovered just in time and its pause; the planned stops
    (:data:`NOT_QUOTED` without any).
    """

    recovery: Variant
    jit_share: str
    jit_time: str
    planned_rate: str


def recovery_values(params: Params) -> dict[str, Any]:
    """The fields of :class:`RecoveryValues` for a fleet's inputs."""
    return vars(RecoveryValues(
        recovery=Variant(recovery_kind(params)), jit_share=percent(params.just_in_time, 0),
        jit_time=format_duration(params.jit_recovery),
        planned_rate=planned_text(params) if params.planned_rate > 0 else NOT_QUOTED))


@dataclass(frozen=True)
class SlowRestartValues:
    """The synchronous write's restart (:attr:`goodput.params.Params.slow_restart`), where it is not R.

    Said by the answer and goodput pages beside the write ("persistent"), else nothing ("none").
    """

    slow_restart: Variant
    slow_restart_time: str


def slow_restart_values(params: Params) -> dict[str, Any]:
    """The fields of :class:`SlowRestartValues` for a fleet's inputs."""
    return vars(SlowRestartValues(slow_restart=Variant("none" if params.slow_restart == params.restart else "persistent"),
                                  slow_restart_time=format_duration(params.slow_restart)))


@dataclass(frozen=True)
class ElasticValues:
    """Elastic training (:func:`goodput.hazards.elastic_params`), said alike by the failures and measuring pages.

    Its effective restart, and the goodput of the fleet's whole scheme without it and planned with it ("0.0%" where
    refused), each with the decimals that set them apart ("from 99.48% to 99.53%", not "from 99.5% to 99.5%").
    """

    elastic_r: str
    elastic_from: str
    elastic_goodput: str


def elastic_values(inputs: Params, plan: Plan, base: float) -> dict[str, Any]:
    """The fields of :class:`ElasticValues`: the elastic inputs, their plan, the goodput `base` of the plan without."""
    return vars(ElasticValues(elastic_r=format_duration(inputs.restart), elastic_from=percent_apart(base, plan.goodput),
                              elastic_goodput=percent_apart(plan.goodput, base)))


@dataclass(frozen=True)
class LossLever:
    """Where the largest loss's own lever pays less than another lever besides the top one, and why.

    Its best lever (:data:`goodput.whatif.LOSS_LEVERS`) cuts that loss, but the wall time it frees runs again and the
    other losses grow back as shares of it.

    Fields are glue keys of the answer, levers and measuring pages; "none" each where the largest loss's lever is not
    outranked so (see :func:`goodput.pages.answer.loss_lever`).
    """

    own_lever: str
    own_points: str
    better_lever: str
    better_points: str
    loss_after: str
    others_grow: str


@dataclass(frozen=True)
class PlanValues:
    """The plan's values the answer and planning pages both quote, said alike (built by ``answer.build``)."""

    first_order: Variant
    calculator: Variant
    calculator_url: str
    restart_text: str
    lost_gpu_hours: str
    lever_2_dollars: str
    ranges: Variant
    ranges_text: str
    t_span: str
    g_span: str
    top_input: str
    top_swing: str
    spares: Variant
    best_spares: str
    best_spares_goodput: str
    best_spares_dollars: str
    spares_held: str
    spares_held_dollars: str
    restart_part: Variant
    largest_part: str
    largest_part_minutes: str
    largest_part_points: str
    largest_part_dollars: str
    repair_wait: str
