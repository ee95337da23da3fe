"""The planning page (book/planning.md): the fleet's plan in the shape a planning document needs.

One :class:`Page` of values from the fleet's one plan (:class:`goodput.fleet.FleetPlan`); its three tables are
:func:`goodput.book.tables.plan_inputs_table`, :func:`~goodput.book.tables.plan_losses_table` and
:func:`~goodput.book.tables.plan_levers_table`.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from goodput import model
from goodput.fleet import FleetPlan
from goodput.pages import Raw, Variant
from goodput.pages.answer import restart_values
from goodput.pages.common import (
    first_order_variant,
    g_span,
    gap,
    inputs_name,
    losses_text,
    ranges_text,
    t_span,
)
from goodput.report import INPUT_WORDS, large_count, money, percent, points, recommendation
from goodput.units import format_duration


@dataclass(frozen=True)
class Page:
    """The planning page's values; each field is a glue key of book/planning.md."""

    params_file: str
    gpus: str
    calculator: Variant
    calculator_url: str
    recommendation: str
    first_order: Variant
    fo_model: str
    fo_interval: str
    fo_goodput: str
    gap: str
    gap_side: str
    tolerance: str
    caution_level: str
    interval: str
    goodput: str
    mtbi: str
    cost: str
    restart: str
    losses_text: str
    lost_dollars: str
    lost_gpu_hours: str
    top_lever: str
    top_gain: str
    top_dollars: str
    second_lever: str
    second_gain: str
    second_dollars: str
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
    spares_pool: str
    restart_part: Variant
    largest_part: str
    largest_part_minutes: str
    largest_part_points: str
    largest_part_dollars: str


def build(fleet: FleetPlan, calculator_url: str = "calculator.html") -> Page:
    """The planning page of a fleet.

    Examples
    --------
    >>> from goodput.fleet import fleet_plan
    >>> from goodput.params import load_params
    >>> page = build(fleet_plan(load_params()))
    >>> page.interval, page.goodput, page.first_order.name, page.gap, page.fo_interval
    ('18.6 min', '87.6%', 'ok', '0.7 points', '19.3 min')
    """
    p, plan = fleet.params, fleet.plan
    (l1, g1), (l2, g2) = fleet.levers_ranked[:2]
    quotable = fleet.first_order_quotable
    r = fleet.ranges
    top = r.swings[0] if r.swings else None
    return Page(
        params_file=inputs_name(p), gpus=f"{p.gpus:,}", calculator=Variant("link"),
        calculator_url=Raw(html.escape(calculator_url)), recommendation=recommendation(plan),
        first_order=first_order_variant(fleet),
        fo_model="Young's formula" if plan.tiers is None else "first order of this checkpoint scheme",
        fo_interval=format_duration(fleet.first_order.interval) if quotable else "not quoted",
        fo_goodput=percent(fleet.first_order.goodput) if quotable else "not quoted",
        gap=gap(fleet) if fleet.first_order_status != "below zero" else "not quoted",
        gap_side="below" if fleet.first_order_gap >= 0 else "above", tolerance=points(model.FIRST_ORDER_TOLERANCE, 0),
        caution_level=points(model.FIRST_ORDER_CAUTION, 0), interval=format_duration(fleet.interval),
        goodput=percent(fleet.goodput), mtbi=format_duration(p.mtbi), cost=format_duration(p.checkpoint_cost),
        losses_text=losses_text(fleet, largest_first=False),
        lost_dollars=money(fleet.lost_dollars), lost_gpu_hours=large_count(fleet.lost_gpu_hours), top_lever=l1,
        top_gain=points(g1), top_dollars=money(fleet.dollars(g1)), second_lever=l2, second_gain=points(g2),
        second_dollars=money(fleet.dollars(g2)), ranges=Variant("given" if r.ranged else "none"),
        ranges_text=ranges_text(fleet), t_span=t_span(fleet), g_span=g_span(fleet),
        top_input=INPUT_WORDS.get(top.name, top.name) if top else "none",
        top_swing=points(top.goodput_swing) if top else "none", **restart_values(fleet),
    )

