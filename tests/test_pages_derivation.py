"""The derivation chapter: the one-tier first-order check at this build's C and M where the fleet's first order may be
quoted (labelled one-tier, with what it leaves out, for a fleet that is not plain), at the worked example's otherwise; the fleet's plan beside it."""

from __future__ import annotations

import math

import pytest

from goodput.book import exact_figures, variant_text
from goodput.fleet import fleet_plan
from goodput.pages import Variant, derivation
from goodput.params import Params, load_params, params_from_mapping
from goodput.units import format_duration

FLEET_65K = {"gpus": 65536, "rate_per_gpu_hour": 2.2e-5, "checkpoint_cost": "25 s", "slow_checkpoint_cost": "5 min",
             "restart": "15 min", "price_per_gpu_hour": 3.2, "month": "730 h", "drain": "4 min",
             "persistent": {"cost": "3 min", "restart": "25 min"}, "fast_survives": 0.75}


@pytest.mark.slow
def test_worked_check_at_this_builds_inputs(book: Params) -> None:
    """C = 1 min, M = 185.6 min: 2CM = 371 min², T* = 19.3 min (the symbolic solution agrees to a relative 1e-12), each term C/T* = 5.2%,
    f(T*) = √(2C/M) = 10.4%; halving or doubling T costs f(T*)/4 = 2.6 points either way."""
    page = derivation.build(fleet_plan(book))
    m = 54 * 1440 / 419
    assert (page.check, page.first_order, page.gap) == (Variant("fleet"), Variant("ok"), "0.66 points")
    assert page.balance == Variant("holds")
    assert (page.two_cm, page.t_star) == ("371", "19.3 min")
    # M written to the digits that give 2CM as written: 2 x 1 x 185.6 = 371 (186 min would read 372)
    assert page.m == "185.6 min" and round(2 * float(page.m.split()[0])) == int(page.two_cm)
    assert page.symbolic_agreement == "agrees with it to within a relative 1e-12"
    assert "2e-03" in derivation.symbolic_agreement(19.3, 19.2658)  # a relative difference, to one digit
    assert (page.term, page.f_star) == ("5.2%", f"{100 * math.sqrt(2 / m):.1f}%")
    assert page.half_cost == page.double_cost == f"{100 * math.sqrt(2 / m) / 4:.1f} points" == "2.6 points"
    assert "18.6 min" in page.recommendation


@pytest.mark.slow
def test_out_of_range_fleet_checks_the_worked_example_and_quotes_its_own_plan() -> None:
    """65,536 GPUs: first order of the scheme is 18.5 points off (out of range), so the check takes the worked
    example's C and M (labelled), and the recommendation is the fleet's plan, 5.91 min, 44.2%."""
    fleet = fleet_plan(params_from_mapping(FLEET_65K, source="fleet-65k.yml"))
    page = derivation.build(fleet)
    assert (page.check, page.first_order, page.gap) == (Variant("worked"), Variant("out_of_range"), "18.5 points")
    assert derivation.check_params(fleet) == load_params() and page.t_star == "19.3 min"
    # at its exact optimum the two losses are apart, so their balance is no test of its cadence
    assert page.balance == Variant("refused")
    assert fleet.losses["lost_work"] > 1.2 * fleet.losses["checkpoint_overhead"]
    assert "5.91 min" in page.recommendation and "44.2%" in page.recommendation


def test_a_quotable_tiered_fleet_is_checked_in_the_one_tier_model(fleet: Params) -> None:
    """A drain on the 24k fleet keeps first order in range: its C and M are checked, labelled as the one-tier model."""
    tiered = fleet_plan(fleet.replace(drain=1.0))
    page = derivation.build(tiered)
    assert tiered.first_order_status == "caution"  # 1.4 points off: quotable with a caution
    assert (page.check, page.first_order, page.c) == (Variant("fleet_partial"), Variant("caution"), "40 s")
    # what the check leaves out is what the fleet has: a drain, no persistent tier
    assert page.beyond_cmr == "drain" and "persistent" not in variant_text(page, "check")


def test_a_recovered_one_tier_fleet_is_not_the_one_tier_check(fleet: Params) -> None:
    """One tier, but 60% recovered just in time and planned stops: first order of the scheme is quotable, and the
    check at C and M (T* = sqrt(2CM), not the fleet's sqrt(2CM/(1 - p))) is labelled as leaving them out."""
    recovered = fleet_plan(fleet.replace(just_in_time=0.6, jit_recovery=0.75, planned_rate=0.03))
    assert recovered.first_order_quotable and not recovered.tiered and not recovered.plain
    page = derivation.build(recovered)
    assert page.check == Variant("fleet_partial")
    assert page.t_star == format_duration(math.sqrt(2 * fleet.checkpoint_cost * fleet.mtbi))
    assert page.beyond_cmr == "just-in-time recovery and planned stops"
    assert page.beyond_cmr in " ".join(variant_text(page, "check").split())


def test_the_symbolic_steps_are_latex() -> None:
    """Three minimization steps and four checks, each an equation."""
    assert len(exact_figures.minimization_lines()) == 3 and len(exact_figures.optimum_lines()) == 4
    assert all("=" in line for line in exact_figures.minimization_lines() + exact_figures.optimum_lines())


def test_small_terms_read_as_halves_of_their_sum(small_params: Params) -> None:
    """The small fleet's optimum loses 0.025% (C = 3.55 ms, M = 32.6 h): each term is half of it, written "0.012%" and
    "0.025%" (two significant digits below 1%), not "0.0%" twice; the worked example keeps one decimal (5.2%, 10.4%)."""
    page = derivation.build(fleet_plan(small_params))
    term, f_star = (float(x.rstrip("%")) for x in (page.term, page.f_star))
    assert (page.term, page.f_star) == ("0.012%", "0.025%") and math.isclose(2 * term, f_star, rel_tol=0.05)
    assert page.half_cost == page.double_cost == "0.0062 points"  # f rises by a quarter either way: 0.25 x 0.025
    worked = derivation.build(fleet_plan(load_params()))
    assert (worked.term, worked.f_star, worked.half_cost) == ("5.2%", "10.4%", "2.6 points")
