"""The chapter "From uncertain inputs to a range of answers" (``book/uncertainty.md``).

Every range is the fleet's (:attr:`goodput.fleet.FleetPlan.ranges`): the exact model of its whole scheme, T*
over the box of inputs with each corner at its own optimum and goodput at the recommended interval. First
order appears once, labelled, only where it is quotable for the fleet and its range holds possible goodputs
(between 0 and 1). The Monte Carlo reading draws through the fleet's scheme.
"""

from __future__ import annotations

from dataclasses import dataclass

from goodput.fleet import CONFIDENCE, FleetPlan, Ranges, ranges_for
from goodput.pages import Variant
from goodput.pages.common import span
from goodput.report import INPUT_WORDS, join_words, mtbi_origin, ordinal, percent, points
from goodput.uncertainty import InputRange, monte_carlo
from goodput.units import format_duration

#: Draws and seed of the Monte Carlo reading (fewer through a scheme, where each draw is a tier model).
DRAWS, SCHEME_DRAWS, SEED = 100_000, 4_000, 0
#: Each input's symbol.
SYMBOLS = {"checkpoint_cost": "C", "mtbi": "M", "restart": "R"}


def how_mtbi_given(fleet: FleetPlan) -> str:
    """How M was given, after "M is given": ``"as a rate, 1.5e-5 interruptions per GPU-hour on 32,768 GPUs"``."""
    p = fleet.params
    how = {"interruptions": "a count", "rate_per_gpu_hour": "a rate"}.get(p.mtbi_source)
    return f"as {how}, {mtbi_origin(p)}" if how else f"as a duration, {format_duration(p.mtbi)}"


def range_kind(r: InputRange) -> str:
    """Which variant of an input's sentence applies: ``count``, ``stated``, ``single`` (stated as one value), ``none``."""
    if r.origin == "stated" and r.exact:
        return "single"
    return r.origin


def first_order_possible(fleet: FleetPlan) -> Ranges | None:
    """First order's ranges, where first order is quotable for the fleet and its goodputs are possible; else None."""
    if not fleet.first_order_quotable:
        return None
    first = ranges_for(fleet.params, "first-order")
    lows_highs = (*first.fixed.goodput_range, *first.best.goodput_range, first.plan.goodput)
    if first.plan.refused or not all(0.0 < g <= 1.0 for g in lows_highs):
        return None
    return first


@dataclass(frozen=True)
class Page:
    """The values ``book/uncertainty.md`` quotes."""

    inputs_file: str
    scheme: Variant
    cadence: str
    m_range: Variant
    m_how: str
    m_low: str
    m_high: str
    m_point: str
    confidence: str
    c_range: Variant
    c_low: str
    c_high: str
    c_point: str
    r_range: Variant
    r_low: str
    r_high: str
    r_point: str
    exact_inputs: Variant
    exact_list: str
    exact_their: str
    range: Variant
    interval: str
    goodput: str
    t_span: str
    g_span: str
    g_width: str
    b_span: str
    regret: str
    ranged_list: str
    first_order: Variant
    fo_label: str
    fo_interval: str
    fo_goodput: str
    fo_t_span: str
    fo_g_span: str
    dominant: Variant
    top_input: str
    top_swing: str
    top_low: str
    top_high: str
    others: str
    left_out: str
    mc: Variant
    mc_how: str
    mc_draws: str
    mc_count: str
    mc_low: str
    mc_mid: str
    mc_high: str
    mc_t_low: str
    mc_t_high: str
    mc_inside: str
    mc_assumption: str


def build(fleet: FleetPlan) -> Page:
    """The uncertainty page of a fleet.

    Examples
    --------
    >>> from goodput.fleet import fleet_plan
    >>> from goodput.params import load_params
    >>> page = build(fleet_plan(load_params()))
    >>> page.interval, page.goodput, page.mc
    ('18.6 min', '87.6%', Variant(name='drawn'))
    """
    p, r = fleet.params, fleet.ranges
    d = format_duration
    m, c, rr = r.inputs["mtbi"], r.inputs["checkpoint_cost"], r.inputs["restart"]
    plan = fleet.plan
    s = plan.tiers
    interval = plan.optimal_interval

    parts = []
    if s is not None and s.drain > 0:
        parts.append(f"a drain of {d(s.drain)}")
    if s is not None and not s.one_tier:
        parts.append("every checkpoint persistent" if s.every == 1 else f"every {ordinal(s.every)} checkpoint persistent")
    cadence = ", ".join(parts)

    exact = r.exact
    exact_kind = "all" if not exact else "none" if len(exact) == len(r.inputs) else "some"

    first = first_order_possible(fleet)
    if first is None:
        fo_kind = "refused"
    else:
        fo_kind = "ranged" if r.ranged else "point"
    fo_label = ("Young's T\\* = √(2CM)" if s is None else
                "the first-order formulas of this fleet's scheme, which reduce to Young's √(2CM) for one checkpoint "
                "that is safe at once")

    swings = r.swings
    top = swings[0] if swings else None
    dominant = "none" if not swings else "one" if len(swings) == 1 else "many"

    # The Monte Carlo reading: M drawn from its count, through the fleet's scheme.
    count, window = p.interruption_count, p.window
    has_count = p.mtbi_source == "interruptions" and bool(count) and bool(window)
    mc_kind, mc_values = ("no_count" if r.ranged else "no_count_no_range"), ("",) * 5
    drawn = [SYMBOLS[x.name] for x in (c, rr) if not x.exact]
    fixed = [SYMBOLS[x.name] for x in (c, rr) if x.exact]
    how = ("C and R taken as exact" if not drawn else
           f"{join_words(drawn)} uniformly from {'its range' if len(drawn) == 1 else 'their ranges'}"
           + (f", with {join_words(fixed)} taken as exact" if fixed else ""))
    mc_inside, draws = "", DRAWS if s is None else SCHEME_DRAWS
    if has_count:
        mc = monte_carlo(count or 0, window or 0.0, c.bounds, rr.bounds, interval=interval, confidence=CONFIDENCE,
                         draws=draws, seed=SEED, which=plan.model, scheme=s)
        mc_kind = "drawn" if s is None else "drawn_scheme"
        t_low, _, t_high = mc.optimal_interval or (0.0, 0.0, 0.0)
        mc_values = (percent(mc.goodput[0]), percent(mc.goodput[1]), percent(mc.goodput[2]), d(t_low), d(t_high))
        box_low, box_high = r.fixed.goodput_range
        inside = box_low - 1e-12 <= mc.goodput[0] and mc.goodput[2] <= box_high + 1e-12
        mc_inside = ("lies inside the box above, whose ends need every input at its worst, or best, at once"
                     if inside else "is not inside the box above")
    g_low, g_high = r.fixed.goodput_range
    b_low, b_high = r.best.goodput_range
    return Page(
        inputs_file=p.source, scheme=Variant("one" if s is None else "tiered"), cadence=cadence,
        m_range=Variant(range_kind(m)), m_how=how_mtbi_given(fleet),
        m_low=d(m.low), m_high=d(m.high), m_point=d(m.point), confidence=f"{m.confidence:.0%}",
        c_range=Variant(range_kind(c)), c_low=d(c.low), c_high=d(c.high), c_point=d(c.point),
        r_range=Variant(range_kind(rr)), r_low=d(rr.low), r_high=d(rr.high), r_point=d(rr.point),
        exact_inputs=Variant(exact_kind), exact_list=join_words([INPUT_WORDS[name] for name in exact]),
        exact_their="its range" if len(exact) == 1 else "their ranges", range=Variant("ranged" if r.ranged else "none"),
        interval=d(interval), goodput=percent(plan.goodput),
        t_span=span(*(d(t) for t in r.best.optimal_interval_range)), g_span=span(percent(g_low), percent(g_high)),
        g_width=points(g_high - g_low), b_span=span(percent(b_low), percent(b_high)),
        regret=points(max(0.0, b_low - g_low)), ranged_list=join_words([INPUT_WORDS[name] for name in r.ranged]),
        first_order=Variant(fo_kind), fo_label=fo_label, fo_interval=d(first.plan.optimal_interval) if first else "",
        fo_goodput=percent(first.plan.goodput) if first else "",
        fo_t_span=span(*(d(t) for t in first.best.optimal_interval_range)) if first else "",
        fo_g_span=span(*(percent(g) for g in first.fixed.goodput_range)) if first else "", dominant=Variant(dominant),
        top_input=INPUT_WORDS[top.name] if top else "", top_swing=points(top.goodput_swing) if top else "",
        top_low=percent(top.goodput_range[0]) if top else "", top_high=percent(top.goodput_range[1]) if top else "",
        others=join_words([f"{INPUT_WORDS[x.name]} {points(x.goodput_swing)}" for x in swings[1:]]),
        left_out=(f" Taken as exact, and so left out: {join_words([INPUT_WORDS[name] for name in exact])}."
                  if exact and swings else ""),
        mc=Variant(mc_kind), mc_how=how, mc_draws=f"{draws:,}", mc_count=f"{count or 0:,}",
        mc_low=mc_values[0], mc_mid=mc_values[1], mc_high=mc_values[2], mc_t_low=mc_values[3], mc_t_high=mc_values[4],
        mc_inside=mc_inside,
        mc_assumption=(f" The uniform draws for {join_words(drawn)} are an assumption about "
                       f"{'a range that was' if len(drawn) == 1 else 'ranges that were'} stated, not measured."
                       if drawn else ""),
    )
