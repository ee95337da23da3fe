"""The planning page (book/planning.md): the fleet's plan in the shape a planning document needs.

One :class:`Page` of values from the fleet's one plan (:class:`goodput.fleet.FleetPlan`); its three tables are
:func:`goodput.book.tables.plan_inputs_table`, :func:`~goodput.book.tables.plan_losses_table` and
:func:`~goodput.book.tables.plan_levers_table`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from goodput.fleet import FleetPlan
from goodput.pages import Variant, answer
from goodput.pages.common import Fleet, losses_text


@dataclass(frozen=True)
class Page(Fleet):
    """The planning page's values; each field is a glue key of book/planning.md."""

    first_order: Variant

    calculator: Variant
    calculator_url: str
    fo_model: str
    restart_text: str
    losses_text: str
    lost_dollars: str
    lost_gpu_hours: str
    lever_1_points: str
    lever_1_dollars: str
    lever_2: str
    lever_2_points: str
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
    shared = answer.build(fleet, calculator_url)  # the one plan's values, said alike on both pages
    own = ("fo_model", "losses_text")
    return Page(**{f.name: getattr(shared, f.name) for f in dataclasses.fields(Page) if f.name not in own},
                fo_model="Young's formula" if fleet.plan.tiers is None else "first order of this checkpoint scheme",
                losses_text=losses_text(fleet, largest_first=False))
