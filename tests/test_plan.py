"""Plans and levers: the same numbers as the model, with one model for every recommendation."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from goodput import model
from goodput.errors import InputError
from goodput.exact import exact_goodput, exact_optimal_interval
from goodput.plan import LEVERS, RECOMMENDED_MODEL, headline, levers, make_plan, plan_for

positive = st.floats(min_value=0.05, max_value=50, allow_nan=False)


def test_headline_is_the_brief(worked) -> None:
    """Worked example at first order: M 186 min, T* 19.3 min, 5.2/5.2/2.7%, 86.9%, slow 74.1%, 12.8 points, $3.8M."""
    h = headline(worked, which="first-order")
    assert round(h["mtbi"]) == 186
    assert round(h["interval"], 1) == 19.3
    assert [round(100 * h[k], 1) for k in ("checkpoint_overhead", "lost_work", "restart_loss", "goodput")] == [
        5.2, 5.2, 2.7, 86.9,
    ]
    assert round(100 * h["slow_goodput"]) == 74
    assert round(100 * h["points"], 1) == 12.8
    assert round(h["capacity"] / 1e6, 1) == 3.8
    assert_allclose(h["capacity"], h["points"] * 16384 * 2.5 * 720)


def test_plan_uses_the_given_interval(worked) -> None:
    """With T given, the losses are those of T; the optimum is still reported."""
    p = plan_for(worked, interval=40.0, which="first-order")
    assert p.interval == 40.0
    assert_allclose(p.optimal_interval, model.optimal_interval(1.0, worked.mtbi))
    assert_allclose(p.goodput, model.goodput(1.0, worked.mtbi, 5.0, 40.0))


@given(c=positive, r=positive, t=st.floats(min_value=1, max_value=200))
def test_levers_add_up(c: float, r: float, t: float) -> None:
    """An input lever (optimum to optimum) plus the interval fix equals the whole gain from (T, inputs) to (T*', inputs')."""
    m = 186.0
    gains = levers(c, m, r, t, which="first-order")
    assert list(gains) == list(LEVERS)
    start = model.goodput(c, m, r, t)
    assert_allclose(start + gains["set the interval right"] + gains["halve C"], model.goodput(c / 2, m, r), atol=1e-12)
    assert_allclose(gains["halve R"], r / (2 * m), rtol=1e-9)
    assert gains["set the interval right"] >= -1e-15
    assert gains["halve the failure rate"] > 0


def test_make_plan_refuses_bad_inputs() -> None:
    """A negative checkpoint cost is an InputError, not a number."""
    with pytest.raises(InputError, match="checkpoint_cost"):
        make_plan(-1.0, 186.0, 5.0)


def test_every_recommendation_comes_from_the_exact_model(worked) -> None:
    """The recommended model is the exact one: T* = M (1 + W0(-e^-(1 + C/M))) = 18.6 min and goodput 87.6% for the
    worked example, where first order gives 19.3 min and 86.9%."""
    assert RECOMMENDED_MODEL == "exact"
    p = plan_for(worked)
    assert p.model == "exact"
    assert_allclose(p.interval, exact_optimal_interval(1.0, worked.mtbi))
    assert_allclose(p.goodput, exact_goodput(1.0, worked.mtbi, 5.0))
    assert (round(p.interval, 1), round(100 * p.goodput, 1)) == (18.6, 87.6)


def test_exact_levers_add_up_too(worked) -> None:
    """By the exact model as well, an input lever plus the interval fix is the whole gain."""
    gains = levers(1.0, worked.mtbi, 5.0, 40.0)
    start = exact_goodput(1.0, worked.mtbi, 5.0, 40.0)
    assert_allclose(start + gains["set the interval right"] + gains["halve C"], exact_goodput(0.5, worked.mtbi, 5.0))


def test_first_order_plans_say_when_they_are_out_of_range(worked) -> None:
    """The worked example is in range; at 16x the fleet (M = 11.6 min) first order drops 33 points with the fast
    checkpoint and goes below zero with the slow one: both refused, while the exact model still answers."""
    assert not plan_for(worked, which="first-order").refused
    big = worked.replace(gpus=16 * worked.gpus, mtbi=worked.mtbi / 16)
    fast, slow = plan_for(big, which="first-order"), plan_for(big, slow=True, which="first-order")
    assert fast.refused and fast.check.status == "out of range"
    assert slow.refused and slow.check.status == "below zero"
    assert not plan_for(big).refused and 0 < plan_for(big, slow=True).goodput < 1


def test_the_slow_checkpoint_keeps_the_fleets_recovery(worked) -> None:
    """The slow case changes the write path only: with 60% recovered just in time and planned stops, it keeps both,
    so it keeps more goodput than the same slow checkpoint without them; a fleet with either is not plain."""
    from goodput.fleet import fleet_plan

    recovered = worked.replace(just_in_time=0.6, jit_recovery=0.75, planned_rate=0.03)
    fleet = fleet_plan(recovered)
    assert fleet.slow.recovery == fleet.plan.recovery == (0.6, 0.75, 0.03, 0.0)
    without = make_plan(recovered.slow_checkpoint_cost, recovered.mtbi, recovered.restart)
    assert fleet.slow.goodput > without.goodput + 0.01
    assert fleet.recovered and not fleet.plain
    assert fleet_plan(worked).plain


def test_the_synchronous_write_restarts_as_the_persistent_copy_does() -> None:
    """Beside a persistent tier the synchronous write restarts in R_p, as the persistent copy does (both are read back
    from shared storage), not in the fast tier's R. 128 GPUs, R_p 95 min, 28 planned stops a month: restarting in R
    the write kept 98.7% and the page said the scheme (93.8%) does not pay; restarting in R_p it keeps 93.5%."""
    from goodput.fleet import fleet_plan
    from goodput.params import params_from_mapping

    small = params_from_mapping({
        "gpus": 128, "gpus_per_node": 8, "rate_per_gpu_hour": 1e-5, "checkpoint_cost": "8.8 s",
        "slow_checkpoint_cost": "43.9 s", "restart": "10.8 min", "drain": "3.47 min",
        "persistent": {"cost": "50.2 s", "restart": "94.95 min"}, "fast_survives": 0.97,
        "planned": {"count": 28, "window": "30 days"}, "price_per_gpu_hour": 1.5, "month": "730 h"})
    fleet = fleet_plan(small)
    slow = make_plan(small.slow_checkpoint_cost, small.mtbi, 94.95, planned_rate=small.planned_rate)
    assert_allclose(fleet.slow.goodput, slow.goodput, rtol=1e-12)
    assert (round(100 * fleet.plan.goodput, 1), round(100 * fleet.slow.goodput, 1)) == (93.8, 93.5)
    assert not fleet.slow_keeps_more
    plain = small.without_tiers()
    assert_allclose(fleet_plan(plain).slow.goodput, make_plan(plain.slow_checkpoint_cost, plain.mtbi, plain.restart,
                                                              planned_rate=plain.planned_rate).goodput, rtol=1e-12)


def test_an_optimum_held_at_the_drain_is_not_called_the_model_s_optimum(worked) -> None:
    """A 1 min checkpoint drained for 30 min on the worked example's M: the exact optimum (18.6 min) is shorter than
    the drain, so the interval is D itself. The command and pages called it "exact optimum for exponential
    failures" and "This is the optimum of the exact model"; they now say it is the drain itself."""
    from goodput.fleet import fleet_plan
    from goodput.pages import Variant, answer, planning
    from goodput.report import recommendation

    fleet = fleet_plan(worked.replace(drain=30.0))
    assert fleet.plan.drain_bound and fleet.interval == 30.0
    assert "(the drain itself: the exact optimum is shorter)" in recommendation(fleet.plan)
    assert answer.build(fleet).optimum == Variant("drain") and planning.build(fleet).optimum == Variant("bound")
    plain = fleet_plan(worked.replace(drain=5.0))
    assert not plain.plan.drain_bound and "exact optimum for exponential failures" in recommendation(plain.plan)
    assert answer.build(plain).optimum == Variant("exact")


def test_a_cadence_the_inputs_fix_is_said_to_be_theirs(worked) -> None:
    """The recommendation of a fleet whose file fixes n says so ("as the inputs fix it"): it read as if every 7th
    were the model's best; a cadence the plan chose does not."""
    from goodput.report import recommendation

    tiers = {"drain": 3.0, "persistent_cost": 2.0, "persistent_restart": 22.0, "fast_survives": 0.85}
    fixed = plan_for(worked.replace(**tiers, persistent_every=7))
    chosen = plan_for(worked.replace(**tiers))
    assert not fixed.every_chosen and "every 7th one to the persistent tier as the inputs fix it (" in \
        recommendation(fixed)
    assert chosen.every_chosen and "as the inputs fix it" not in recommendation(chosen)


def test_a_fixed_cadence_s_fast_tier_is_worth_what_it_gains_this_plan(worked) -> None:
    """The tiers page's worth of the fast checkpoints is the plan's goodput (at the cadence the inputs fix) against
    every checkpoint persistent. With n fixed it was measured from the best cadence instead (a planner's fleet read
    "worth 2.4 points" beside a plan keeping 70.6% against 69.3%): here 3.1 points, not 4.5."""
    from goodput.fleet import fleet_plan
    from goodput.whatif import fast_tier_whatif

    tiers = {"drain": 3.0, "persistent_cost": 5.0, "persistent_restart": 22.0, "fast_survives": 0.85}
    fleet = fleet_plan(worked.replace(**tiers, persistent_every=2))  # the best n is 5
    fast = fast_tier_whatif(fleet)
    assert fast is not None and fleet.best_cadence.goodput > fleet.goodput > fast.goodput
    assert fast.gain == pytest.approx(fleet.goodput - fast.goodput, abs=1e-12)
    assert (round(100 * fleet.goodput, 1), round(100 * fast.goodput, 1), round(100 * fast.gain, 1)) == (78.3, 75.2, 3.1)
