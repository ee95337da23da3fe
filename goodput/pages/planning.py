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
from goodput.pages.common import Fleet, PlanValues, left_out_text, scheme_kind


@dataclass(frozen=True)
class Page(Fleet, PlanValues):
    """The planning page's values; each field is a glue key of book/planning.md."""

    fo_model: str
    optimum: Variant
    formulas: Variant
    not_paying: Variant
    slow_gain: str
    slow_gain_dollars: str
    inputs_more: str


def build(fleet: FleetPlan, calculator_url: str = "calculator.html") -> Page:
    """The planning page of a fleet.

    >>> from goodput.fleet import fleet_plan
    >>> from goodput.params import load_params
    >>> page = build(fleet_plan(load_params()))
    >>> page.interval, page.goodput, page.first_order.name, page.gap, page.fo_interval
    ('18.6 min', '87.6%', 'ok', '0.66 points', '19.3 min')
    """
    shared = answer.build(fleet, calculator_url)  # the one plan's values, said alike on both pages
    kind = scheme_kind(fleet)
    # one tier: first order's formulas where they may be quoted (with the just-in-time share where the fleet has one),
    # the exact model's where first order is refused
    # recovered: interruptions recovered just in time (M/(1 − p) for the rest), or planned stops alone (no p: T* stays)
    recovered = ("recovered" if fleet.params.just_in_time > 0 else "planned") if kind == "single" and fleet.recovered \
        else None
    formulas = kind if kind != "single" else "exact" if not fleet.first_order_quotable else recovered or "first_order"
    return Page(**{f.name: getattr(shared, f.name) for base in (Fleet, PlanValues) for f in dataclasses.fields(base)},
                fo_model=answer.first_order_name(fleet), optimum=Variant("bound" if fleet.plan.drain_bound else recovered or kind),
                formulas=Variant(formulas), not_paying=shared.not_paying, slow_gain=shared.slow_gain,
                slow_gain_dollars=shared.slow_gain_dollars,
                # what else the interval rests on, beyond C, M and R: "", or ", and its drain and persistent tier ..."
                inputs_more=f", and its {left}, as the inputs give them" if (left := left_out_text(fleet.plan)) else "")
