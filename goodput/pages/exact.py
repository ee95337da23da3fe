"""The chapter "Beyond first order: the exact model" (``book/exact.md``): the exact goodput, its optimum, Young and Daly.

The fleet's table is its one plan's (the full scheme); the derivations and the comparisons with Young's and Daly's
intervals are of the one-tier model, at the fleet's C, M and R, and labelled so, with what it leaves out
(``beyond_cmr``), for a fleet whose scheme is more than that model (:attr:`goodput.fleet.FleetPlan.plain`).
A first-order number is quoted only where the fleet's plan and the one-tier model both allow it.
"""

from __future__ import annotations

from dataclasses import dataclass

from goodput import exact, limits, model, symbolic
from goodput.fleet import FleetPlan
from goodput.pages import Variant
from goodput.pages.common import Fleet, fleet_values, quoted
from goodput.report import interval_text, ordinal, percent, point_decimals, points, points_sig2
from goodput.units import format_duration

#: The restart times, as multiples of the fleet's, over which the optimum is checked not to move.
RESTART_FACTORS = (0.01, 1.0, 10.0)


@dataclass(frozen=True)
class Page(Fleet):
    """The chapter's values: the fleet's plan, and the one-tier model at its C, M and R."""

    scope: Variant
    subject: str
    every_nth: str
    fo_subject: str
    young: Variant
    t_young: str
    g_first_at_young: str
    g_exact_at_young: str
    young_gap: str
    g2: str
    rest: str
    rest_share: str
    breakdown: Variant
    exact_vs_first: str
    t_lambert: str
    t_symbolic: str
    t_numerical: str
    agreement: str
    r_in_derivative: str
    r_span: str
    r_spread: str
    r_moves: str
    here: Variant
    ratio: str
    young_longer: str
    daly: str
    daly_diff: str
    young_short: str
    here_young: str
    here_opt: str
    here_daly: str
    daly_short: str
    young_excess_at_1: str
    young_short_at_1: str
    young_short_at_01: str
    daly_rel_at_1: str
    daly_short_at_1: str


#: Below this relative difference, two intervals computed in floating point are the same (what is left is rounding).
ROUNDING = 1e-9


def _points_or_less(x: float, digits: int) -> str:
    """`x` in points to `digits` decimals, or ``"less than 0.01 points"`` (at two) where those would show zero.

    Zero itself too: two optima a hair apart differ by rounding, not by "0.000 points".
    """
    if 100 * x < 0.5 * 10.0**-digits:
        return f"less than {10.0**-digits:.{digits}f} points"
    return points(x, digits)


def _relative(a: float, b: float) -> float:
    return abs(a - b) / b if b > 0 else abs(a - b)


def build(fleet: FleetPlan) -> Page:
    """The chapter's values, from the fleet's plan and the one-tier model at its C, M and R."""
    p = fleet.params
    c, m, r = p.checkpoint_cost, p.mtbi, p.restart
    one_tier = exact.range_check(c, m, r)
    quotable = fleet.first_order_quotable and one_tier.quotable

    # Both models at Young's interval, and the second-order term.
    t_young = float(model.optimal_interval(c, m))
    first = float(model.goodput(c, m, r, t_young))
    ex = float(exact.exact_goodput(c, m, r, t_young))
    g2 = float(model.second_order_term(c, m, r, t_young))
    gap = ex - first

    # The exact optimum three ways, and R's (absent) effect on it.
    t_lambert = float(exact.exact_optimal_interval(c, m))
    t_symbolic = symbolic.evaluate_symbolic_optimum(c, m)
    t_numerical = exact.numerical_optimal_interval(c, m, r)
    rel = max(_relative(t_symbolic, t_lambert), _relative(t_numerical, t_lambert))
    # Restarts so long that e^{-R/M} underflows are left out: the goodput is then zero at every interval.
    restarts = [f * r for f in RESTART_FACTORS if f * r / m < 600.0] or [r]
    found = [t_numerical if x == r else exact.numerical_optimal_interval(c, m, x) for x in restarts]
    spread = max(found) - min(found)
    derivative, r_symbol = symbolic.restart_free_derivative()

    # Young's and Daly's intervals at the fleet's C/M, and across C/M.
    daly = float(exact.daly_interval(c, m))
    daly_diff = daly - t_lambert
    g_opt = float(exact.exact_goodput(c, m, r))
    young_short = g_opt - ex
    g_daly = float(exact.exact_goodput(c, m, r, daly))
    # The exact goodputs at Young's, the optimum and Daly's, to the decimals that show Young's shortfall (four at most).
    here_digits = min(4, point_decimals(young_short, 1))
    sweep = limits.estimates_sweep(m, r)
    at_1, at_01 = limits.RATIOS.index(1.0), limits.RATIOS.index(0.1)

    scheme = fleet.plan.tiers
    every = scheme.every if scheme is not None and not scheme.one_tier else 1
    diff = fleet.goodput - fleet.first_order.goodput
    d = point_decimals(gap)
    # The one-tier model at C, M and R is this fleet's scheme only for a plain fleet; else it is labelled as that model,
    # in full once where the scope paragraph introduces it (what it leaves out), and by this short name after it.
    subject = "this fleet" if fleet.plain else "the one-tier model"
    # Where first order is not quotable, no first-order number is kept on the page, shown or not; where it is refused,
    # the young paragraph says why by the fleet's verdict, else by the one-tier model's, labelled as its.
    refused = fleet.first_order_status if not fleet.first_order_quotable else one_tier.status
    return Page(
        **fleet_values(fleet),
        scope=Variant("one" if fleet.plain else "tiered" if fleet.tiered else "recovered"),
        subject=subject, every_nth="" if every == 1 else f", every {ordinal(every)} checkpoint persistent",
        fo_subject=subject if fleet.first_order_quotable else "this fleet",
        young=Variant("quotable" if quotable else refused.replace(" ", "_")), t_young=format_duration(t_young),
        g_first_at_young=quoted(percent(first, 2), quotable), g_exact_at_young=percent(ex, 2),
        young_gap=quoted(points(abs(gap), d), quotable), g2=quoted(points(abs(g2), d), quotable),
        rest=quoted(_points_or_less(abs(gap - g2), d), quotable),
        rest_share=quoted(percent(abs(gap - g2) / gap, 0) if gap > 0 else "none", quotable),
        breakdown=Variant("quotable" if fleet.first_order_quotable else "refused"),
        exact_vs_first=quoted(f"{points_sig2(abs(diff))} {'more' if diff >= 0 else 'less'}", fleet.first_order_quotable),
        t_lambert=format_duration(t_lambert), t_symbolic=format_duration(t_symbolic),
        t_numerical=format_duration(t_numerical),
        agreement="they agree exactly" if rel == 0.0 else f"they agree to a relative {rel:.0e}",
        r_in_derivative="contains" if derivative.has(r_symbol) else "does not contain",
        r_span=interval_text(restarts[0], restarts[-1]), r_spread=f"a relative {spread / t_lambert:.0e}" if spread > 0 else "nothing",
        r_moves="moves" if spread > 1e-6 * t_lambert else "does not move",
        here=Variant("quotable" if quotable else "refused"), ratio=f"{c / m:.2g}",
        young_longer=(f"{format_duration(abs(t_young - t_lambert))} "
                      f"{'longer' if t_young >= t_lambert else 'shorter'}"),
        daly=format_duration(daly),
        daly_diff=("the same to within rounding" if abs(daly_diff) < ROUNDING * t_lambert else
                   f"{format_duration(abs(daly_diff), 2)} {'longer' if daly_diff > 0 else 'shorter'}" +
                   # a difference the inputs' three digits cannot show is said to be one
                   (", the same to three significant digits" if abs(daly_diff) < 5e-4 * t_lambert else "")),
        young_short=_points_or_less(max(0.0, young_short), 3),
        here_young=percent(ex, here_digits), here_opt=percent(g_opt, here_digits), here_daly=percent(g_daly, here_digits),
        daly_short=_points_or_less(max(0.0, g_opt - g_daly), 3),
        young_excess_at_1=percent(float(sweep["t_y"][at_1] / sweep["t_e"][at_1] - 1), 0),
        young_short_at_1=points(float(sweep["short_y"][at_1]), 1),
        young_short_at_01=points(float(sweep["short_y"][at_01]), 2),
        daly_rel_at_1=percent(abs(float(sweep["t_d"][at_1] / sweep["t_e"][at_1] - 1))),
        daly_short_at_1=points(float(sweep["short_d"][at_1]), 3),
    )
