"""The failures chapter (goodput.hazards, goodput.pages.failures): its numbers against analytic results and the
simulations against closed forms within their standard errors, for the worked example, a one-tier fleet unlike
it, the planner's tiered 65,536-GPU fleet and inputs far out of scale.
"""

from __future__ import annotations

import dataclasses
import math
import re

import pytest
from numpy.testing import assert_allclose

from goodput import exact, hazards, tiers
from goodput.fleet import FleetPlan, fleet_plan
from goodput.hazards import elastic_params
from goodput.pages import Variant, failures
from goodput.params import Params, params_from_mapping
from goodput.plan import plan_for
from goodput.report import percent
from goodput.simulate import effective_mtbi
from goodput.units import format_duration

#: The planner's tiered fleet of issue 18 (restart is its largest loss).
FLEET_65K = {"gpus": 65536, "rate_per_gpu_hour": 2.2e-5, "checkpoint_cost": "25 s", "slow_checkpoint_cost": "5 min",
             "restart": "15 min", "price_per_gpu_hour": 3.2, "month": "730 h", "drain": "4 min",
             "persistent": {"cost": "3 min", "restart": "25 min"}, "fast_survives": 0.75}
#: A fleet where first order is refused (its goodput is below zero).
FLEET_REFUSED = {"gpus": 131072, "mtbi": "25 min", "checkpoint_cost": "6 min", "slow_checkpoint_cost": "15 min",
                 "restart": "8 min", "price_per_gpu_hour": 2.0, "month": "730 h"}
#: Inputs far out of scale: the chapter must still build, with no impossible number.
OUT_OF_SCALE = {
    "mtbi 2 min": {"gpus": 16384, "mtbi": "2 min", "checkpoint_cost": "1 min", "slow_checkpoint_cost": "5 min",
                   "restart": "5 min", "price_per_gpu_hour": 2.5, "month": "720 h"},
    "one a second": {"gpus": 16384, "interruptions": {"count": 1, "window": "1 s"}, "checkpoint_cost": "1 min",
                     "slow_checkpoint_cost": "1 min", "restart": "5 min", "price_per_gpu_hour": 2.5, "month": "720 h"},
}


@pytest.fixture(scope="module", params=["worked", "fleet"])
def inputs(request: pytest.FixtureRequest, worked: Params, fleet: Params) -> Params:
    """Each of two one-tier sets of inputs in turn."""
    return worked if request.param == "worked" else fleet


@pytest.fixture(scope="module")
def tiered() -> FleetPlan:
    return fleet_plan(params_from_mapping(FLEET_65K, source="fleet-65k.yml"))


@pytest.fixture(scope="module")
def refused() -> FleetPlan:
    """M = 25 min against C = 6 min: first order gives a goodput below zero, so it is not quoted."""
    return fleet_plan(params_from_mapping(FLEET_REFUSED, source="fleet-refused.yml"))


@pytest.fixture(scope="module")
def worked_page(worked: Params) -> failures.Page:
    return failures.build(fleet_plan(worked))


def _strings(page: failures.Page) -> dict[str, str]:
    return {f.name: getattr(page, f.name) for f in dataclasses.fields(page) if isinstance(getattr(page, f.name), str)}


# --------------------------------------------------------------------------- a checkpoint lost with the job


def test_the_lost_checkpoint_is_the_two_tier_model_at_the_exact_optimum(inputs: Params) -> None:
    """Goodput with q is Tiers(C, R, drain=T + C, persistent_cost=C, fast_survives=1 - q) at the single-level exact
    optimum; without q it is the single-level exact goodput T e^{-R/M}/(M (e^x - 1))."""
    c, m, r = inputs.checkpoint_cost, inputs.mtbi, inputs.restart
    n = hazards.lost_checkpoint(c, m, r)
    t = exact.exact_optimal_interval(c, m)
    assert n.interval == pytest.approx(t, rel=1e-12)
    assert n.safe == pytest.approx(t * math.exp(-r / m) / (m * math.expm1((t + c) / m)), rel=1e-12)
    scheme = tiers.Tiers(c, r, drain=t + c, persistent_cost=c, fast_survives=1 - hazards.LOST_SHARE)
    assert n.shared == pytest.approx(tiers.exact_goodput(scheme, m, t), rel=1e-12)


def test_q_zero_loses_nothing_and_the_cost_grows_with_q(inputs: Params) -> None:
    """q = 0 is the single-level model; the cost and the re-tuned gain grow with q, the re-tuned interval shortens,
    and the cost is about q (T + C)/M to first order, the re-tuned interval about sqrt(2CM/(1 + 2q))."""
    c, m, r = inputs.checkpoint_cost, inputs.mtbi, inputs.restart
    none = hazards.lost_checkpoint(c, m, r, 0.0)
    assert none.shared == pytest.approx(none.safe, rel=1e-12)
    assert none.retuned_interval == pytest.approx(none.interval, rel=1e-6)
    found = [hazards.lost_checkpoint(c, m, r, q) for q in (0.05, 0.1, 0.2, 0.4)]
    assert all(n.retune_gain > 0 for n in found)
    assert [n.cost for n in found] == sorted(n.cost for n in found)
    assert [n.retuned_interval for n in found] == sorted((n.retuned_interval for n in found), reverse=True)
    n = found[1]
    order = (n.interval + c + r) / m
    assert n.cost == pytest.approx(0.1 * (n.interval + c) / m, rel=order)
    assert n.retuned_interval == pytest.approx(math.sqrt(2 * c * m / 1.2), rel=order)


# --------------------------------------------------------------------------- run age, renewal, bursts


def test_the_first_week_under_a_shape_one_half_run_age_hazard(inputs: Params) -> None:
    """With shape 1/2 the expected count up to age t is (P/M) sqrt(t/P): the first week of a 54-day run holds
    sqrt(7/54) = 36% of the interruptions, M over it is M sqrt(7/54) and over the rest M (1 + sqrt(7/54)); each
    period of the two-period schedule is at the exact optimum for its own M."""
    c, cs, m, r = inputs.checkpoint_cost, inputs.slow_checkpoint_cost, inputs.mtbi, inputs.restart
    age = hazards.run_age(c, cs, m, r)
    share = math.sqrt(7 / 54)
    assert age.length == hazards.RUN_LENGTH and age.first == 7 * 1440
    assert age.first_share == pytest.approx(share, rel=1e-9)
    assert_allclose([age.m_first, age.m_rest], [m * share, m * (1 + share)], rtol=1e-9)
    assert_allclose([t for _, t in age.two_schedule],
                    [exact.exact_optimal_interval(c, m * share), exact.exact_optimal_interval(c, m * (1 + share))],
                    rtol=1e-9)
    assert len(age.six_schedule) == 6


def test_run_length_bends_to_the_inputs(worked: Params) -> None:
    """32 GPUs (M = 938 h): 54 days hold too few cycles of the slow checkpoint, so the run is longer; M = 1 s:
    32 runs of 54 days would hold 149 million failures, so the run is shorter, each schedule scaled with it, and
    every comparison stays within MAX_FAILURES."""
    long_m = 60 / (2e-5 * 32)
    assert hazards.run_length(1.0, 5.0, long_m, 5.0) > hazards.RUN_LENGTH
    short = hazards.run_length(1.0, 1 / 60, 1 / 60, 5.0)
    assert short < hazards.RUN_LENGTH
    assert hazards.runs(1 / 60, short) * short / (1 / 60) <= hazards.MAX_FAILURES * 1.0001
    first, six = hazards.periods(short)
    assert first / short == pytest.approx(7 / 54) and six[-1] / short == pytest.approx(30 / 54)
    huge = worked.replace(mtbi=10.0)
    n = hazards.runs(huge.mtbi, hazards.run_length(1.0, 5.0, 10.0, 5.0))
    assert n < hazards.RUNS and n * hazards.RUN_LENGTH / 10.0 <= hazards.MAX_FAILURES


def test_burst_rule_closed_form() -> None:
    """The renewal-reward count of the burst rule is the exact model's goodput with p = 0, and with a window longer
    than R + T + C the uniform follow-ups keep work too: T sum_k (1 - (R + kL)/w)^+ over the mean gap."""
    c, m, r, t = 1.0, 185.6, 5.0, 18.6
    assert hazards.burst_goodput(c, m, r, t, 0.0) == pytest.approx(float(exact.exact_goodput(c, m, r, t)), rel=1e-12)
    w, p, cycle = 100.0, 0.5, t + c
    terms = sum(max(0.0, 1 - (r + k * cycle) / w) for k in range(1, 10))
    expected = t * ((1 - p) * math.exp(-r / m) / math.expm1(cycle / m) + p * terms) / ((1 - p) * m + p * w / 2)
    assert hazards.burst_goodput(c, m, r, t, p, w) == pytest.approx(expected, rel=1e-12)
    assert effective_mtbi(m, p, w) == pytest.approx((1 - p) * m + p * w / 2)


@pytest.mark.slow
def test_simulations_agree_with_closed_forms_and_are_seeded(inputs: Params) -> None:
    """Independent interruptions at the exact optimum give the exact goodput, and bursts the renewal-reward count,
    each within four standard errors (plus the start-of-run bias, about (T + C + R)/run length); the same inputs
    give the same numbers."""
    c, cs, m, r = inputs.checkpoint_cost, inputs.slow_checkpoint_cost, inputs.mtbi, inputs.restart
    sim = hazards.simulations(c, cs, m, r)
    t = float(exact.exact_optimal_interval(c, m))
    assert abs(sim.independent.goodput - float(exact.exact_goodput(c, m, r))) < 4 * sim.independent.stderr + 1e-5
    assert abs(sim.bursts.goodput[0] - hazards.burst_goodput(c, m, r, t)) < 4 * sim.bursts.stderr[0] + 1e-5
    assert hazards.simulations(c, cs, m, r) == sim


# --------------------------------------------------------------------------- the page


@pytest.mark.slow
def test_the_worked_example_page(worked_page: failures.Page) -> None:
    """Worked example: the plan (18.6 min, 87.6%) is the baseline; the two-period schedule gains a fraction of a
    point, bunched failures cost less than spread ones; bursts cost less than as many independent interruptions
    at the same interval (85.34%, 2.2 points) and re-tuning does not help; under the renewal hazard the run-age schedule loses; q = 0.1 costs
    1.0 point and re-tuning wins back a twentieth; elastic: 87.6% to 89.5%, 1.9 points."""
    page = worked_page
    assert (page.interval, page.goodput) == ("18.6 min", "87.6%")
    assert (page.plain_interval, page.plain_goodput) == ("18.6 min", "87.6%")
    assert page.scope == Variant("one_tier") and page.model_name == "this fleet's plan"
    assert page.early_bunched == "less than" and page.early_verdict == Variant("helps")
    assert page.early_gain_size == "a fraction of a point" and page.early_two_change.startswith("gains 0.2")
    assert page.renewal_two.startswith("loses")
    assert page.burst_cost == Variant("cheaper") and page.burst_same_count == "2.2 points"
    assert page.burst_as_many == "85.34%"
    assert page.burst_retune.startswith("loses") and page.take_bursts_retune == Variant("no_help")
    assert page.burst_renewal == "86.804%" and float(page.burst_sigma) < 4
    assert (page.plain_goodput, page.lost_shared, page.lost_cost) == ("87.6%", "86.6%", "1.0 point")
    assert (page.lost_retuned_interval, page.lost_ratio) == ("16.8 min", ", 20 times as much")
    assert (page.goodput, page.elastic_goodput, page.elastic_gain) == ("87.6%", "89.5%", "1.9 points")
    assert page.interval == "18.6 min" and page.t_elastic_moves == "stays at 18.6 min"
    assert page.run_length == "54 days" and page.run_length_why == Variant("published")
    assert page.take_early == Variant("helps") and page.early_gain_pm.startswith("0.2")


@pytest.mark.slow
def test_elastic_gain_is_the_exact_model_with_a_shorter_restart(inputs: Params) -> None:
    """One tier: R does not move the exact optimum, and the gain is goodput times e^{(R - R')/M} - 1 with
    R' = min(1 min, R/2)."""
    c, m, r = inputs.checkpoint_cost, inputs.mtbi, inputs.restart
    page = failures.build(fleet_plan(inputs))
    fast = min(1.0, r / 2)
    assert hazards.elastic_restart(r) == fast
    g = float(exact.exact_goodput(c, m, r))
    assert page.elastic_gain == f"{100 * g * math.expm1((r - fast) / m):.1f} points"
    assert page.restart_loss == f"{-math.expm1(-r / m):.1%}"
    assert page.t_elastic_moves == f"stays at {format_duration(exact.exact_optimal_interval(c, m))}"


@pytest.mark.slow
def test_the_tiered_fleet_is_its_plan_and_one_tier_numbers_say_so(tiered: FleetPlan) -> None:
    """The 65,536-GPU fleet: "this fleet" is the plan (5.91 min, 44.2%); the one-tier baseline (60.3% at 5.61 min)
    is named as the one-tier model; elastic training goes through the whole scheme (R_p 25 min to 11 min), its gain
    the difference of two plans and its dollars FleetPlan's."""
    page = failures.build(tiered)
    assert (page.interval, page.goodput) == ("5.91 min", "44.2%")
    assert page.scope == Variant("beyond") and page.model_name != "this fleet's plan"
    assert (page.plain_goodput, page.plain_interval) == ("60.3%", "5.61 min")
    assert "every 4th copy persistent" in page.scheme_words
    elastic = plan_for(hazards.elastic_params(tiered.params))
    assert page.goodput == percent(tiered.goodput) == "44.2%"
    assert page.elastic_goodput == percent(elastic.goodput)
    assert (page.persistent_restart, page.elastic_rp) == ("25 min", "11 min")
    assert page.elastic_scheme == Variant("persistent") and page.lost_scheme == Variant("persistent")
    assert page.fast_survives == "75%"
    assert page.top_lever == tiered.levers_ranked[0][0]


@pytest.mark.slow
def test_a_recovered_fleet_is_not_the_model_of_c_m_and_r(worked: Params) -> None:
    """60% of interruptions recovered just in time and planned stops with notice: the sections that know only C, M
    and R work on that model (the worked example's 87.6% at 18.6 min), which is not this fleet's plan (higher, at a
    longer interval), and the page says so: not the one-tier scope, not "this fleet's plan", not its stakes; nor is
    R its only restart for elastic training."""
    fleet = fleet_plan(worked.replace(just_in_time=0.6, jit_recovery=0.75, planned_rate=0.03))
    assert fleet.recovered and not fleet.tiered and not fleet.plain
    page = failures.build(fleet)
    assert (page.plain_goodput, page.plain_interval) == ("87.6%", "18.6 min")
    assert fleet.goodput > 0.876 + 0.01 and page.goodput != page.plain_goodput
    assert page.scope == Variant("beyond") and page.model_name != "this fleet's plan"
    assert page.lost_scheme == Variant("beyond") and page.beyond_cmr
    # R is not its only restart: just-in-time recovery keeps its 45 s, and only R shortens
    assert page.elastic_scheme == Variant("jit") and page.jit_time == "45 s"
    assert hazards.elastic_params(fleet.params).jit_recovery == fleet.params.jit_recovery


@pytest.mark.slow
def test_first_order_is_not_quoted_where_it_is_refused(refused: FleetPlan, worked_page: failures.Page) -> None:
    """Where first order is refused, the lost checkpoint's cost is the exact model's alone (4.5 points, first order
    7.8); where it is quotable (the worked example) its q (T + C)/M is quoted beside the exact cost."""
    assert not refused.first_order_quotable
    page = failures.build(refused)
    assert page.lost_cost == "4.5 points"
    assert page.lost_how == Variant("exact") and not re.search(r"\d", page.lost_first_order)
    assert worked_page.lost_how == Variant("first_order") and worked_page.lost_first_order == "1.1 points"


@pytest.mark.slow
def test_as_many_independent_interruptions_at_the_same_fixed_interval(refused: FleetPlan) -> None:
    """The bursts are simulated at the fixed exact optimum (13.6 min), so as many independent interruptions are
    counted there too: 27.39% by the exact model at 13.6 min (not 27.56% at their own optimum), 5.8 points below
    the 33.2% baseline."""
    page = failures.build(refused)
    p = refused.params
    m_all = effective_mtbi(p.mtbi, hazards.BURST_PROBABILITY, hazards.BURST_WINDOW)
    t = float(exact.exact_optimal_interval(p.checkpoint_cost, p.mtbi))
    assert page.plain_interval == format_duration(t) == "13.6 min"
    at_t = float(exact.exact_goodput(p.checkpoint_cost, m_all, p.restart, t))
    assert page.burst_as_many == percent(at_t, 2) == "27.39%"
    assert page.burst_same_count == "5.8 points"


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(OUT_OF_SCALE))
def test_inputs_out_of_scale_build_with_no_impossible_number(name: str) -> None:
    """M = 2 min and one interruption a second: the page builds; no NaN, infinity, exponent, negative number or
    share above 100% in any value; where the burst window outlasts M, bursts are said to thin interruptions out."""
    fleet = fleet_plan(params_from_mapping(OUT_OF_SCALE[name], source=f"{name}.yml"))
    page = failures.build(fleet)
    for key, value in _strings(page).items():
        assert not re.search(r"nan|inf\b|\de[-+]\d|(^|\s)[-\u2212]\d", value), (key, value)
        for share in re.findall(r"(\d+(?:\.\d+)?)%", value):
            assert float(share) <= 100, (key, value)
    m_all = effective_mtbi(fleet.params.mtbi, hazards.BURST_PROBABILITY, hazards.BURST_WINDOW)
    assert (page.burst_cost == Variant("slower")) == (m_all >= fleet.params.mtbi)




@pytest.mark.slow
def test_small_losses_keep_their_digits_and_small_gains_are_not_advice(small_params: Params) -> None:
    """A 1,024-GPU fleet with a 3.55 ms snapshot: a checkpoint lost with the job costs 0.0025 points, so goodput is
    written to four decimals (99.0075% to 99.0051%), not '99.0% to 99.0%'; elastic training leaves the interval where
    it is ('stays at'); starting short gains under a tenth of a point, so the takeaway is 'slight', not advice."""
    f = fleet_plan(small_params)
    page = failures.build(f)
    p = f.params
    lost = hazards.lost_checkpoint(p.checkpoint_cost, p.mtbi, p.restart)
    assert 1e-5 < lost.cost < 1e-4
    assert page.lost_base != page.lost_shared and page.lost_cost == f"{100 * lost.cost:.4f} points"
    assert float(page.lost_retune_gain.split()[0]) > 0
    assert page.t_elastic_moves.startswith("stays at ") and page.lost_elastic_moves.startswith("stays at ")
    early = hazards.simulations(p.checkpoint_cost, p.slow_checkpoint_cost, p.mtbi, p.restart).early
    gain = early.difference[1]
    assert 0 < gain < failures.MATERIAL and page.take_early == Variant("slight")
    # Elastic training: the restart loss falls from 0.97% to about 0.05%, written to two significant digits, not as
    # the '0.1%' one decimal would round it to.
    elastic = plan_for(elastic_params(p))
    assert 0.0001 < elastic.losses.restart_loss < 0.00095
    assert page.restart_elastic == f"{100 * elastic.losses.restart_loss:.3f}%" == "0.051%"
    assert page.restart_full == page.restart_loss == "0.97%"  # as the losses quote it
    assert page.elastic_from != page.elastic_goodput  # "rises from 99.0% to 99.0%" read as no rise


def test_the_elastic_table_lists_r_p_only_for_a_persistent_tier(stored: FleetPlan, tiered: FleetPlan) -> None:
    """The stored fleet drains its snapshot to shared storage and has no persistent tier: its elastic table has a
    drain row but no 'persistent restart, R_p' (R is its only restart). The 65,536-GPU fleet with a persistent copy
    (R_p 25 min) keeps the row."""
    from goodput.book.scale_figures import elastic_table

    assert stored.plan.tiers is not None and stored.plan.tiers.one_tier and stored.tiered
    rows = list(elastic_table(stored).data[""])
    assert "persistent restart, R_p" not in rows and "not yet durable (drain)" in rows
    assert tiered.plan.tiers is not None and not tiered.plan.tiers.one_tier
    data = elastic_table(tiered).data
    rows = list(data[""])
    assert "persistent restart, R_p" in rows
    assert data["full restart"][rows.index("persistent restart, R_p")] == format_duration(tiered.plan.tiers.rp)


def test_a_small_fleets_baselines_and_losses_read_as_they_compare() -> None:
    """256 GPUs at 5e-5 per GPU-hour: the exponential baseline beside a simulated 98.308% ± 0.008 points is written to
    the same decimals, 98.337% (it read 98.3%, so that "costs more" read backwards), and the checkpoint lost with
    the job costs 0.15 points, 22 times the re-tuning's 0.0067 (it read 0.1 points, "22 times" of 0.0067)."""
    fleet = fleet_plan(params_from_mapping({"gpus": 256, "rate_per_gpu_hour": 5e-5, "checkpoint_cost": "30 s",
                                            "slow_checkpoint_cost": "2 min", "restart": "10 min",
                                            "price_per_gpu_hour": 3.0, "month": "730 h",
                                            "planned": {"count": 6, "window": "30 days"}}, source="x.yml"))
    page = failures.build(fleet)
    fixed = float(re.findall(r"[\d.]+", page.early_fixed)[0])
    base = float(page.early_base.rstrip("%"))
    assert len(page.early_base.rstrip("%").split(".")[1]) == len(page.early_fixed.split("%")[0].split(".")[1])
    assert (base > fixed) == (page.early_bunched == "more than")
    cost, gain = float(page.lost_cost.split()[0]), float(page.lost_retune_gain.split()[0])
    assert page.lost_cost == "0.15 points" and abs(cost / gain - float(page.lost_ratio.split()[1])) < 1.0


def test_the_restart_loss_the_elastic_lever_cuts_is_the_one_the_losses_quote() -> None:
    """A 2k fleet with M of 10 days: its restart loss of 0.14% read "0.1%" here beside "0.14%" in the fleet's losses,
    and "from 0.1% to 0.0068%" mixed one decimal with two significant digits."""
    fleet = fleet_plan(params_from_mapping({"gpus": 2048, "rate_per_gpu_hour": 2e-6, "checkpoint_cost": "3 min",
                                            "slow_checkpoint_cost": "12 min", "restart": "20 min",
                                            "price_per_gpu_hour": 1.9, "month": "730 h"}))
    page = failures.build(fleet)
    assert page.restart_full == page.restart_loss == "0.14%"
    assert page.restart_elastic == "0.0068%"
