"""The derivation chapter (book/derivation.md): Young's first-order optimum, derived by SymPy and checked.

The worked check evaluates the one-tier first-order model, labelled so, at this build's C and M where the
fleet's first order may be quoted (:attr:`goodput.fleet.FleetPlan.first_order_quotable`), and at the
worked example's otherwise; the interval the book recommends is the fleet's plan, quoted beside it.
"""

from __future__ import annotations

from dataclasses import dataclass

from goodput import model
from goodput.fleet import FleetPlan
from goodput.pages import Variant
from goodput.pages.common import Fleet, first_order_variant, fleet_values
from goodput.params import Params, load_params
from goodput.report import percent_sig2, points_sig2
from goodput.symbolic import derive_first_order
from goodput.units import format_duration, significant


@dataclass(frozen=True)
class Page(Fleet):
    """The derivation chapter's values; each field is a glue key of book/derivation.md."""

    first_order: Variant
    balance: Variant
    check: Variant
    c: str
    m: str
    two_cm: str
    t_star: str
    symbolic_agreement: str
    term: str
    f_star: str
    half: str
    double: str
    half_cost: str
    double_cost: str


def check_params(fleet: FleetPlan) -> Params:
    """The inputs of the chapter's worked check: the fleet's where its first order may be quoted, else the worked example's."""
    return fleet.params if fleet.first_order_quotable else load_params()


def check_whose(fleet: FleetPlan) -> str:
    """Whose C and M the worked check's figure draws, as its title: the fleet's (one tier), or the worked example's."""
    p = check_params(fleet)
    inputs = f"C = {format_duration(p.checkpoint_cost)}, M = {format_duration(p.mtbi)}"
    if fleet.first_order_quotable:
        return f"This fleet's {inputs}, one tier" + ("" if fleet.plain else ": not its whole scheme")
    return f"The worked example's {inputs}: first order is out of its range for this fleet"


#: The relative difference below which the symbolic optimum is said to agree with the quoted one (floating point).
AGREEMENT = 1e-12


def symbolic_agreement(symbolic: float, t_star: float) -> str:
    """How the symbolic optimum evaluated at C and M compares with the interval quoted, after "evaluated at the same inputs"."""
    rel = abs(symbolic - t_star) / t_star
    return f"agrees with it to within a relative {AGREEMENT:.0e}" if rel < AGREEMENT else f"differs from it by a relative {rel:.0e}"


def build(fleet: FleetPlan) -> Page:
    """The derivation chapter of a fleet.

    >>> from goodput.fleet import fleet_plan
    >>> page = build(fleet_plan(load_params()))
    >>> page.t_star, page.term, page.f_star, page.half_cost, page.double_cost
    ('19.3 min', '5.2%', '10.4%', '2.6 points', '2.6 points')
    """
    p = check_params(fleet)
    c, m = p.checkpoint_cost, p.mtbi
    d = derive_first_order()
    t_star = float(model.optimal_interval(c, m))
    f_star = float(model.overhead(t_star, c, m))
    # The one-tier model at C and M is the fleet's own only for a plain fleet; else the check names what it leaves out.
    which = "worked" if not fleet.first_order_quotable else "fleet" if fleet.plain else "fleet_partial"
    return Page(
        **fleet_values(fleet), first_order=first_order_variant(fleet),
        balance=Variant("holds" if fleet.first_order_quotable else "refused"), check=Variant(which), c=format_duration(c),
        m=format_duration(m, 4),  # to the digits that give 2CM as written (186 min would give 372, not 371)
        two_cm=significant(2 * c * m), t_star=format_duration(t_star),
        symbolic_agreement=symbolic_agreement(float(d.optimum.subs({d.symbols["C"]: c, d.symbols["M"]: m})), t_star),
        term=percent_sig2(float(model.checkpoint_overhead(t_star, c))), f_star=percent_sig2(f_star),
        half=format_duration(t_star / 2), double=format_duration(2 * t_star),
        half_cost=points_sig2(float(model.overhead(t_star / 2, c, m)) - f_star),
        double_cost=points_sig2(float(model.overhead(2 * t_star, c, m)) - f_star),
    )

