"""The chapter "From uncertain inputs to a range of answers" (``book/uncertainty.md``).

Every range is the fleet's (:attr:`goodput.fleet.FleetPlan.ranges`, through its whole scheme). First order appears
once, labelled, only where it is quotable and its range holds possible goodputs
(:func:`goodput.whatif.first_order_possible`).
"""

from __future__ import annotations

from dataclasses import dataclass

from goodput.fleet import FleetPlan
from goodput.pages import Variant
from goodput.pages.common import Fleet, fleet_values, g_span, span, t_span
from goodput.params import Params
from goodput.report import (
    INPUT_SYMBOLS,
    INPUT_WORDS,
    count,
    input_ends,
    input_span,
    input_value,
    join_words,
    percent,
    percent_ends,
    planned_text,
    points,
    range_ends,
)
from goodput.uncertainty import MAX_CORNER_INPUTS, PLAN_INPUTS, InputRange
from goodput.units import format_duration, format_wait
from goodput.whatif import first_order_possible, fleet_monte_carlo

#: The inputs of the plan beyond C, M and R, in the order the page lists them.
OTHER_INPUTS = PLAN_INPUTS[3:]
#: Written-out numbers for the count of inputs whose corners are all computed.
_NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine"}


def range_kind(r: InputRange) -> str:
    """Which variant of an input's sentence applies: ``count``, ``stated``, ``single`` (stated as one value), ``none``."""
    return "single" if r.origin == "stated" and r.exact else r.origin


def other_text(r: InputRange) -> str:
    """An input of the scheme with its range, for a list: ``"the drain D from 3 min to 6 min (4 min in the plan)"``."""
    words, point = INPUT_WORDS[r.name], input_value(r.name, r.point)
    if r.exact:
        return f"{words} taken as exact at {point}" + ("" if r.origin == "none" else " (a range of one value)")
    return f"{words} from {input_span(r.name, r.low, r.high)} ({point} in the plan)"


def given_exact(params: Params) -> str:
    """The inputs of the plan no range can be given for, said as taken as exact (a sentence), or ``""``.

    A spare pool sets the wait for repairs in R (and R_p); planned stops pause the job. Both move the plan, and
    neither takes a range, so R's range (or its point) carries them as given.
    """
    parts = []
    if (spares := params.spares) is not None:
        parts.append(f"its spare pool ({count(spares.nodes, 'node')}, repairs of {format_duration(spares.repair)}, "
                     f"{spares.takes_node:.0%} of interruptions taking a node), which sets "
                     f"{format_wait(params.stop_saving)} of R")
    if params.just_in_time > 0:
        parts.append(f"the time each recovery just in time takes ({format_duration(params.jit_recovery)})")
    if params.planned_rate > 0:
        parts.append(f"its planned stops, {planned_text(params)}")
    if not parts:
        return ""
    return f" The plan also rests on what takes no range here, taken as exact: {'; '.join(parts)}."


def corners_how(ranged: int, corners: int, sampled: bool) -> str:
    """Which corners of the box T*'s range is taken over, in words."""
    if not sampled:
        return f"all {corners:,} corners of the box" if ranged > 1 else "both ends of the one range"
    return (f"a seeded, balanced sample of {corners:,} of the box's {2**ranged:,} corners (every corner is computed "
            f"up to {_NUMBER_WORDS.get(MAX_CORNER_INPUTS, str(MAX_CORNER_INPUTS))} inputs with a range; here "
            f"{_NUMBER_WORDS.get(ranged, str(ranged))} have one)")


def duration_span(low: float, high: float) -> str:
    """``span`` of two durations, the whole-minute end written with the other's decimal (``"12.8 min and 24.0 min"``).

    >>> duration_span(12.8, 23.99), duration_span(169.0, 205.0), duration_span(12.8, 12.8)
    ('between 12.8 min and 24.0 min', 'between 169 min and 205 min', 'at 12.8 min')
    """
    ends = list(range_ends(low, high))
    decimal = [e.endswith(" min") and "." in e for e in ends]
    if any(decimal) and not all(decimal):
        ends = [e if has or not e.endswith(" min") or not 10.0 <= t < 100.0 else f"{t:#.3g} min"
                for e, has, t in zip(ends, decimal, (low, high), strict=True)]
    return span(*ends)


@dataclass(frozen=True)
class Page(Fleet):
    """The values ``book/uncertainty.md`` quotes."""

    scheme: Variant
    drain_note: Variant
    m_range: Variant
    m_low: str
    m_high: str
    c_range: Variant
    c_low: str
    c_high: str
    r_range: Variant
    r_low: str
    r_high: str
    others: Variant
    others_list: str
    given_exact: str
    slow_range: Variant
    slow_low: str
    slow_high: str
    slow_g_span: str
    exact_inputs: Variant
    range: Variant
    g_span: str
    g_width: str
    b_span: str
    regret: Variant
    regret_pts: str
    t_lies: Variant
    t_where: str
    ranged_list: str
    corners_how: str
    first_order: Variant
    fo_label: Variant
    fo_t: str
    fo_g: str
    fo_t_span: str
    fo_g_span: str
    dominant: Variant
    top_input: str
    top_swing: str
    top_low: str
    top_high: str
    swing_others: str
    left_out: Variant
    exact_words: str
    mc: Variant
    mc_how: str
    mc_recovery: str
    mc_draws: str
    mc_count: str
    mc_assumption: Variant
    mc_inside: Variant
    mc_drawn: str
    mc_low: str = ""
    mc_mid: str = ""
    mc_high: str = ""
    mc_t_low: str = ""
    mc_t_high: str = ""


def build(fleet: FleetPlan) -> Page:
    """The uncertainty page of a fleet.

    >>> from goodput.fleet import fleet_plan
    >>> from goodput.params import load_params
    >>> page = build(fleet_plan(load_params()))
    >>> page.interval, page.goodput, page.mc
    ('18.6 min', '87.6%', Variant(name='drawn'))
    """
    p, r, plan, d = fleet.params, fleet.ranges, fleet.plan, format_duration
    m, c, rr, slow_in = (r.inputs[name] for name in ("mtbi", "checkpoint_cost", "restart", "slow_checkpoint_cost"))
    m_ends, c_ends, r_ends, slow_ends = (input_ends(x.name, x.low, x.high) for x in (m, c, rr, slow_in))
    s, exact = plan.tiers, r.exact
    g_low, g_high = r.fixed.goodput_range
    b_low, b_high = r.best.goodput_range
    where, fixed_span, best_span = t_span(fleet), g_span(fleet), span(percent(b_low), percent(b_high))
    other_ranges = [r.inputs[name] for name in OTHER_INPUTS if name in r.inputs]
    first = first_order_possible(fleet)
    fo_label = "young" if fleet.plain else "tiered" if fleet.tiered else "jit" if p.just_in_time > 0 else "named"
    swings = r.swings
    top = swings[0] if swings else None

    # The Monte Carlo reading (goodput.whatif.fleet_monte_carlo): M drawn from its count, every other input of the
    # plan with a range uniformly from it, each draw through the fleet's own plan where it has a scheme.
    carlo = fleet_monte_carlo(fleet)
    mc = carlo.result
    uniform = [name for name in PLAN_INPUTS if name != "mtbi" and name in r.inputs]
    drawn = [INPUT_SYMBOLS[name] for name in uniform if not r.inputs[name].exact]
    fixed = [INPUT_SYMBOLS[name] for name in uniform if r.inputs[name].exact]
    how = (f"{join_words(fixed)} taken as exact" if not drawn else
           f"{join_words(drawn)} uniformly from {'its range' if len(drawn) == 1 else 'their ranges'}"
           + (f", with {join_words(fixed)} taken as exact" if fixed else ""))
    mc_recovery = (f", {input_value('just_in_time', p.just_in_time)} of interruptions recovered just in time"
                   if p.just_in_time else "") + (", its planned stops" if p.planned_rate else "")
    if mc is None:
        mc_kind, mc_values = ("no_count" if r.ranged else "no_count_no_range"), {}
    else:
        mc_kind = "drawn_scheme" if carlo.through_plan else "drawn"
        t_low, _, t_high = mc.optimal_interval or (0.0, 0.0, 0.0)
        mc_values = {"mc_low": percent(mc.goodput[0]), "mc_mid": percent(mc.goodput[1]),
                     "mc_high": percent(mc.goodput[2]), "mc_t_low": d(t_low), "mc_t_high": d(t_high)}
    exact_words = join_words([INPUT_WORDS[name] for name in exact])
    return Page(
        **fleet_values(fleet),
        scheme=Variant("one" if s is None or s.single_level else "drain" if s.one_tier else "tiered"),
        drain_note=Variant("longer" if "drain" in r.inputs and r.inputs["drain"].high > plan.interval else "none"),
        m_range=Variant(range_kind(m)), m_low=m_ends[0], m_high=m_ends[1],
        c_range=Variant(range_kind(c)), c_low=c_ends[0], c_high=c_ends[1],
        r_range=Variant(range_kind(rr)), r_low=r_ends[0], r_high=r_ends[1],
        slow_low=slow_ends[0], slow_high=slow_ends[1],
        others=Variant("listed" if other_ranges else "only"), others_list="; ".join(map(other_text, other_ranges)),
        given_exact=given_exact(p),
        slow_range=Variant("own" if fleet.slow_is_own and r.slow is None else "given" if r.slow is not None
                           else "derived" if p.slow_derived else "none"),
        slow_g_span=span(*(percent(g) for g in r.slow.goodput_range)) if r.slow is not None else "",
        exact_inputs=Variant("all" if not exact else "none" if not r.ranged else "some"), range=Variant("ranged" if r.ranged else "none"),
        t_lies=Variant("stays" if where == f"at {d(plan.interval)}" else "moves"), t_where=where, g_span=fixed_span,
        g_width=points(g_high - g_low), b_span=best_span,
        regret=Variant("more" if best_span != fixed_span else "none"), regret_pts=points(max(0.0, b_low - g_low)),
        ranged_list=join_words([INPUT_WORDS[name] for name in r.ranged]),
        corners_how=corners_how(len(r.ranged), r.best.corners, r.best.sampled),
        first_order=Variant(
            ("impossible" if fleet.first_order_quotable else fleet.first_order_status.replace(" ", "_"))
            if first is None else "ranged" if r.ranged else "point"), fo_label=Variant(fo_label),
        fo_t=d(first.plan.optimal_interval) if first else "", fo_g=percent(first.plan.goodput) if first else "",
        fo_t_span=duration_span(*first.best.optimal_interval_range) if first else "",
        fo_g_span=span(*(percent(g) for g in first.fixed.goodput_range)) if first else "",
        dominant=Variant("none" if not swings else "one" if len(swings) == 1 else "many"),
        top_input=INPUT_WORDS[top.name] if top else "", top_swing=points(top.goodput_swing) if top else "",
        # the ends with the decimals at which they differ by the swing as written (59.46% to 63.04%: 3.6 points)
        **dict(zip(("top_low", "top_high"), percent_ends(*top.goodput_range) if top else ("", ""), strict=True)),
        swing_others=join_words([f"{INPUT_WORDS[x.name]} {points(x.goodput_swing)}" for x in swings[1:]]),
        left_out=Variant("listed" if exact and swings else "none"), exact_words=exact_words,
        mc=Variant(mc_kind), mc_how=how, mc_recovery=mc_recovery, mc_draws=f"{carlo.draws:,}",
        mc_count=f"{p.interruption_count or 0:,}", **mc_values,
        mc_assumption=Variant("none" if not drawn else "one" if len(drawn) == 1 else "many"),
        mc_drawn=join_words(drawn), mc_inside=Variant("none" if mc is None else "inside" if carlo.inside else "outside"),
    )
