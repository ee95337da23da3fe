"""The measuring page (goodput.pages.measuring.build): every number is the fleet's plan or that scheme with one input
changed and planned again (exact model), so every difference is taken at the same scheme; the common mistake and the
takeaways are named by the fleet's own numbers; first order only where it is quotable.

Checked with the worked example, the conftest's 24,576-GPU fleet (one tier) and the planner's tiered 65,536-GPU fleet
of issue 18.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from goodput import whatif
from goodput.book import variant_text
from goodput.exact import exact_goodput, exact_losses, exact_optimal_interval
from goodput.fleet import FleetPlan, fleet_plan
from goodput.hazards import elastic_params, elastic_restart
from goodput.pages import Variant, failures
from goodput.pages import measuring as page
from goodput.params import Params, load_params, params_from_mapping
from goodput.plan import plan_for
from goodput.report import gain_text, percent, scheme_words
from goodput.uncertainty import poisson_interval

STORY = Path(__file__).resolve().parent / "data" / "tiered-48k <img src=x onerror=alert(1)> & co.yml"
FLEET_65K = {"gpus": 65536, "rate_per_gpu_hour": 2.2e-5, "checkpoint_cost": "25 s", "slow_checkpoint_cost": "5 min",
             "restart": "15 min", "price_per_gpu_hour": 3.2, "month": "730 h", "drain": "4 min",
             "persistent": {"cost": "3 min", "restart": "25 min"}, "fast_survives": 0.75}


@pytest.fixture(scope="module")
def tiered() -> FleetPlan:
    return fleet_plan(params_from_mapping(FLEET_65K, source="fleet-65k.yml"))


@pytest.fixture(scope="module")
def story() -> FleetPlan:
    return fleet_plan(load_params(STORY))


@pytest.fixture(scope="module")
def worked() -> FleetPlan:
    return fleet_plan(load_params())


def test_the_worked_example(worked: FleetPlan) -> None:
    """Exact model, one tier: 87.6% every 18.6 min; twice the optimum (37.2 min) costs 2.2 points; overhead 4.7% and
    lost work 5.1%; restart 2.7%, halving R 1.2 points; first order (quotable) 19.3 min and 86.9%."""
    p = page.build(worked)
    assert (p.interval, p.goodput, p.cadence, p.scheme_words) == ("18.6 min", "87.6%", "", scheme_words(worked.plan))
    c, m, r = 1.0, worked.params.mtbi, 5.0
    t = float(exact_optimal_interval(c, m))
    assert p.twice_interval == "37.2 min"
    assert p.twice_points == f"{100 * (exact_goodput(c, m, r) - exact_goodput(c, m, r, 2 * t)):.1f} points" == "2.2 points"
    assert (p.checkpoint_overhead, p.lost_work, p.restart_loss, p.halve_r) == ("4.7%", "5.1%", "2.7%", "1.2 points")
    assert (p.fo_quotable, p.fo_interval, p.fo_goodput) == (Variant("quotable"), "19.3 min", "86.9%")
    assert (p.own_count, p.own_range) == (Variant("count"), "169 min to 205 min")


@pytest.mark.slow
def test_twice_the_optimum_is_taken_at_the_same_scheme(tiered: FleetPlan) -> None:
    """Issue 18: the 65k fleet's interval twice the optimum costs 3.4 points at its own scheme (44.2% -> 40.8%), not
    the -13.8 points of a one-tier goodput subtracted from the tiered plan."""
    p = page.build(tiered)
    twice = plan_for(tiered.params, interval=2 * tiered.interval)
    assert twice.tiers == tiered.plan.tiers
    assert p.twice_points == f"{100 * (tiered.goodput - twice.goodput):.1f} points" == "3.4 points"
    assert (p.interval, p.cadence, p.goodput) == ("5.91 min", ", every 4th one to the persistent tier", "44.2%")
    assert (p.half, p.half_interval, p.drain) == (Variant("drain"), "2.96 min", "4 min")  # shorter than the drain


@pytest.mark.slow
def test_the_common_mistake_is_named_by_the_fleets_numbers(tiered: FleetPlan, worked: FleetPlan) -> None:
    """65k: restart is the largest loss (35.9%) and halving the failure rate the largest lever (19.1 points, $29M);
    the slow checkpoint, restarting in R_p as the persistent copy does, leaves 32.2% at its optimum against the plan's
    44.2% (40.9% when it restarted in the fast tier's R). The worked example: lost work (5.1%)."""
    p = page.build(tiered)
    assert (p.largest_loss, p.largest_loss_share) == ("restart", "35.9%")
    assert (p.top_lever, p.top_points, p.top_dollars) == ("halve the failure rate", "19.1 points", "$29M")
    assert (p.slow_cost, p.slow_goodput) == ("5 min", "32.2%")
    assert (p.restart_loss, p.halve_r) == ("35.9%", "6.6 points")
    assert page.build(worked).largest_loss == "lost work"


@pytest.mark.slow
def test_no_first_order_number_where_it_is_refused(tiered: FleetPlan) -> None:
    p = page.build(tiered)
    assert tiered.first_order_status == "out of range"
    assert (p.fo_quotable, p.fo_interval, p.fo_goodput) == (Variant("refused"), "not quoted", "not quoted")


@pytest.mark.slow
def test_illustrations_change_one_input_of_the_scheme(tiered: FleetPlan, worked: FleetPlan) -> None:
    """The early rate, PyTorch's asynchronous stall and the elastic restart are each the fleet's scheme planned again
    with one input changed; for one tier the elastic gain is exact: R only scales goodput by e^{-R/M}."""
    p = page.build(worked)
    m = worked.params.mtbi
    full, fast = exact_losses(1.0, m, 5.0), exact_losses(1.0, m, elastic_restart(5.0))
    assert p.elastic_points == f"{100 * (fast.goodput - full.goodput):.1f} points"
    assert fast.goodput / full.goodput == pytest.approx(math.exp((5.0 - elastic_restart(5.0)) / m), rel=1e-12)
    assert (p.elastic_moves, p.elastic_t, p.interval) == (Variant("stays"), "18.6 min", "18.6 min")
    early = plan_for(worked.params.replace(mtbi=m / 3))
    assert p.early_t == "10.5 min" and p.early_follow == f"{100 * early.goodput:.1f}%"
    t = page.build(tiered)
    elastic = plan_for(elastic_params(tiered.params))  # R and the persistent restart R_p shortened alike
    assert elastic.tiers is not None and elastic.tiers.rp == pytest.approx(1.0 + (25.0 - 15.0))
    assert t.elastic_goodput == f"{100 * elastic.goodput:.1f}%" and elastic.tiers is not None
    sync = plan_for(whatif.with_cost(tiered.params, 148.8 / 60))
    assert sync.tiers is not None and sync.tiers.persistent_cost == 3.0
    assert t.sync_goodput == f"{100 * sync.goodput:.1f}%"


def test_a_dozen_interruptions(worked: FleetPlan) -> None:
    """A dozen interruptions: Garwood's 95% interval of M from 43% below to 94% above the estimate, whatever M."""
    p = page.build(worked)
    low, high = poisson_interval(12, 12 * worked.params.mtbi)
    assert (p.dozen_below, p.dozen_above) == ("43%", "94%")
    assert 1 - low / worked.params.mtbi == pytest.approx(0.43, abs=0.005)
    assert high / worked.params.mtbi - 1 == pytest.approx(0.94, abs=0.005)
    assert (p.dozen_t_range, p.dozen_t_low, p.dozen_t_high) == (Variant("planned"), "13.9 min", "26.1 min")


def test_a_dozen_interruptions_may_leave_no_plan_at_the_low_end() -> None:
    """M = 1 min and R = 6 h: at the low end of a dozen's interval (43% below) the model keeps no work, and the page
    says so instead of quoting an interval."""
    p = params_from_mapping({"gpus": 1024, "checkpoint_cost": "1 s", "slow_checkpoint_cost": "5 min", "restart": "6 h",
                             "price_per_gpu_hour": 2.0, "month": "730 h", "mtbi": "1 min"}, source="x.yml")
    built = page.build(fleet_plan(p))
    assert (built.dozen_t_range, built.dozen_t_low) == (Variant("none"), "")
    assert variant_text(built, "dozen_t_range") == "no plan (no work kept) to " + built.dozen_t_high.replace(".", "\\.")


@pytest.mark.slow
def test_one_gpus_m_keeps_no_work_at_scale(tiered: FleetPlan, fleet: Params) -> None:
    """An interval planned from one GPU's M (5.19 years at 2.2e-5 per GPU-hour) keeps almost nothing on 65,536 GPUs."""
    p = page.build(tiered)
    assert (p.per_gpu, p.m_gpu, p.wrong_kept, p.reach) == (Variant("many"), "5.19 years", "less than 0.1%",
                                                            Variant("tiny"))
    one = page.build(fleet_plan(fleet.replace(gpus=1, mtbi=60 / 1.6e-5)))
    assert one.per_gpu == Variant("one_gpu")


@pytest.mark.parametrize("data", [
    {"mtbi": "2 min"}, {"slow_checkpoint_cost": "1 min"}, {"interruptions": {"count": 1, "window": "1 s"}},
])
def test_hostile_inputs_give_a_page_without_impossible_numbers(data: dict[str, object]) -> None:
    base = {"gpus": 1024, "checkpoint_cost": "1 min", "slow_checkpoint_cost": "5 min", "restart": "5 min",
            "price_per_gpu_hour": 2.0, "month": "730 h", "mtbi": "3 h"}
    p = params_from_mapping({k: v for k, v in (base | data).items() if not (k == "mtbi" and "interruptions" in data)},
                            source="hostile.yml")
    built = page.build(fleet_plan(p))
    for name, value in vars(built).items():
        if isinstance(value, str):
            assert "nan" not in value.lower() and not value.startswith("-") and "$-" not in value, (name, value)
    for key in ("own_count", "early", "async_case", "async_snapshot", "balance", "per_gpu", "fo_quotable",
                "dozen_t_range", "reach", "apart_by", "slow_its", "recovery"):
        assert "{" not in variant_text(built, key).replace("{ref}", "")


@pytest.mark.slow
def test_elastic_training_is_the_failures_chapters(story: FleetPlan) -> None:
    """The story fleet (a persistent tier, R_p 22 min): elastic continuation shortens R to 1 min and R_p by as much,
    as the failures chapter does, so both chapters quote one goodput (80.7%, not the 77.1% of R_p kept)."""
    measured, failed = page.build(story), failures.build(story)
    assert measured.elastic_goodput == failed.elastic_goodput == percent(plan_for(elastic_params(story.params)).goodput)
    assert measured.elastic_r == failed.elastic_r
    kept_rp = plan_for(story.params.replace(restart=elastic_restart(story.params.restart)))
    assert measured.elastic_goodput != percent(kept_rp.goodput)


@pytest.mark.slow
def test_a_higher_early_rate_waits_longer_for_a_spare(story: FleetPlan) -> None:
    """The story fleet (16 hot spares): at three times the rate, M = 22.6 min and R's wait for a spare grows from 0.9 s
    to about 6.8 min (FleetPlan.at_mtbi), in the early plan and in the settled interval kept through it alike."""
    p = page.build(story)
    early = story.at_mtbi(story.params.mtbi / 3)
    assert early.restart > story.params.restart + 5.0
    assert p.early_m == "22.6 min" and p.early_follow == percent(plan_for(early).goodput)
    assert p.early_follow != percent(plan_for(story.params.replace(mtbi=story.params.mtbi / 3)).goodput)
    tiers = story.plan.tiers
    assert tiers is not None
    kept = plan_for(early.replace(persistent_every=tiers.every), interval=story.interval)
    assert p.early_keep == percent(kept.goodput)


@pytest.mark.slow
def test_overhead_and_lost_work_called_equal_only_where_they_are(tiered: FleetPlan, worked: FleetPlan,
                                                                 story: FleetPlan) -> None:
    """The worked example: 4.7% and 5.1%, about equal. The 65k fleet: 7.9% and 10.3%, a quarter apart, and the story
    fleet (6.2% and 7.0%): equal only at first order, parted by the exact model and the scheme; where first order is
    refused (both), their balance is no test of the cadence."""
    w = page.build(worked)
    assert (w.balance, w.checkpoint_overhead, w.lost_work) == (Variant("equal"), "4.7%", "5.1%")
    t = page.build(tiered)
    assert not tiered.first_order_quotable  # so the balance is no test of its cadence, as the derivation page says
    assert (t.balance, t.checkpoint_overhead, t.lost_work) == (Variant("unquoted"), "7.9%", "10.3%")
    overhead, lost = tiered.losses["checkpoint_overhead"], tiered.losses["lost_work"]
    assert lost - overhead > whatif.ABOUT_EQUAL * lost
    assert t.apart_by == Variant("drain_tier") and w.apart_by == Variant("exact")
    s = page.build(story)
    assert not story.first_order_quotable and s.balance == Variant("unquoted")


@pytest.mark.slow
def test_advice_follows_the_size_of_the_gain(worked: FleetPlan, tiered: FleetPlan, small_params: Params) -> None:
    """Starting short after an early rate: the worked example loses 2.2 points keeping its settled interval (advise it);
    the small drained fleet less than 0.1 points (it does not matter). PyTorch's asynchronous stall: a lever for the
    worked example's synchronous C; the 65k fleet already drains (a 6.3 s snapshot would gain 2.3 points over its
    25 s); the small fleet's 3.55 ms snapshot gains nothing from it."""
    small = fleet_plan(small_params)
    w, t, s = page.build(worked), page.build(tiered), page.build(small)
    assert (w.early, w.early_points) == (Variant("planned"), "2.2 points")
    early = plan_for(small.params.replace(mtbi=small.params.mtbi / 3))
    kept = plan_for(small.params.replace(mtbi=small.params.mtbi / 3), interval=small.interval)
    assert 0 <= early.goodput - kept.goodput < page.MATERIAL and s.early == Variant("same")
    assert (w.async_case, w.async_snapshot) == (Variant("lever"), Variant("write"))
    # The 65k fleet's persistent checkpoint stalls C_p = 3 min before its drain: only the fast snapshot is
    # asynchronous, and draining the persistent write as well is its lever.
    assert (t.async_case, t.async_snapshot) == (Variant("stalled"), Variant("gain"))
    assert (t.persistent_cost, t.persistent_every) == ("3 min", "4th")
    assert t.drain_persistent == f"{100 * tiered.levers['drain the persistent write as well']:.1f} points"
    async_65k = plan_for(whatif.with_cost(tiered.params, 6.3 / 60))
    assert t.async_gain == f"{100 * (async_65k.goodput - tiered.goodput):.1f} points" == "2.3 points"
    # The small fleet drains its one tier, and its 3.55 ms snapshot is already shorter than PyTorch's 6.3 s, which
    # would lower its goodput: no gain to offer, and not for want of size.
    assert (s.async_case, s.async_snapshot) == (Variant("drained"), Variant("shorter"))
    assert small.params.checkpoint_cost < 6.3 / 60
    assert plan_for(whatif.with_cost(small.params, 6.3 / 60)).goodput < small.goodput


@pytest.mark.slow
def test_a_persistent_stall_is_not_called_asynchronous(story: FleetPlan) -> None:
    """The story fleet: its every 5th checkpoint stalls C_p = 2 min before its 3 min drain, so the page does not call
    the fleet's saves asynchronous; draining the persistent write as well is the lever (6.0 points), and a 6.3 s
    snapshot still moves it from 61.8% to 64.0%."""
    p = page.build(story)
    assert (p.async_case, p.async_snapshot) == (Variant("stalled"), Variant("gain"))
    assert (p.persistent_cost, p.persistent_every, p.drain) == ("2 min", "5th", "3 min")
    assert p.drain_persistent == "6.0 points"
    assert (p.goodput, p.async_goodput, p.async_gain) == ("61.8%", "64.0%", "2.2 points")


def test_just_in_time_recovery_and_planned_stops_are_named_as_inputs(book: Params) -> None:
    """A fleet with p = 60%, R_j = 45 s and q = 0.03 an hour rests on them too: the page names them; the worked
    example (neither) does not."""
    p = book.replace(just_in_time=0.6, jit_recovery=0.75, planned_rate=0.03)
    built = page.build(fleet_plan(p))
    assert built.recovery == Variant("given")
    assert (built.recovery_inputs, built.jit_p, built.jit_r) == (Variant("both"), "60%", "45 s")
    assert built.planned_q.startswith("0.72 a day") and "planned stops" in variant_text(built, "recovery")
    assert page.build(fleet_plan(book)).recovery == Variant("none")
    planned = page.build(fleet_plan(book.replace(planned_rate=0.03)))
    assert (planned.recovery, planned.recovery_inputs) == (Variant("given"), Variant("planned"))


def test_a_measured_stall_equal_to_pytorch_s_reads_as_the_same(small_params: Params) -> None:
    """The stall fleet's C is the measured 6.3 s, PyTorch's own 6.3 s as written: "the same as" (not "already shorter
    than"), and called its measured stall, not its snapshot; the small fleet's 3.55 ms snapshot is still shorter."""
    stall = page.build(fleet_plan(load_params(Path(__file__).resolve().parent / "data" / "fleet-stored-stall.yml")))
    assert (stall.cost, stall.async_time) == ("6.3 s", "6.3 s")
    assert (stall.async_snapshot, stall.c_name) == (Variant("same"), "measured stall")
    # the synchronous write, paying the same barrier and quiesce, keeps less: the stall pays
    assert (stall.stall_verdict, stall.goodput) == (Variant("none"), "72.9%")
    # beside a snapshot no faster than the storage, the write (6.2 s) keeps 73.1% against its 72.9%
    slow = page.build(fleet_plan(load_params(Path(__file__).resolve().parent / "data" / "fleet-stall-slow-snapshot.yml")))
    assert (slow.stall_verdict, slow.slow_goodput, slow.goodput) == (Variant("loses"), "73.1%", "72.9%")
    small = page.build(fleet_plan(small_params))
    assert (small.async_snapshot, small.c_name, small.stall_verdict) == (Variant("shorter"), "snapshot", Variant("none"))


def test_a_share_of_attempts_under_a_percent_is_not_written_zero() -> None:
    """4,096 GPUs at 3e-5 per GPU-hour, C = 2 min: a per-GPU MTBF read as the job's gives an interval of 47.1 h, so
    0.30% of attempts reach their checkpoint, written so (it had read "0% of its attempts", beside a goodput of 1.8%)."""
    fleet = fleet_plan(params_from_mapping({"gpus": 4096, "rate_per_gpu_hour": 3e-5, "checkpoint_cost": "2 min",
                                            "slow_checkpoint_cost": "2.5 min", "restart": "4 min",
                                            "price_per_gpu_hour": 2.5, "month": "730 h"}, source="x.yml"))
    built = page.build(fleet)
    assert built.reach == Variant("share") and built.reach_share == "0.30%"


def test_how_to_measure_what_the_fleet_gives_and_nothing_else() -> None:
    """Planned stops alone: the page says how to count them and not how to measure p and R_j, which the fleet does
    not give (it had explained both); with both, both."""
    worked = load_params()
    assert page.build(fleet_plan(worked.replace(planned_rate=0.03))).recovery_inputs == Variant("planned")
    both = page.build(fleet_plan(worked.replace(planned_rate=0.03, just_in_time=0.5, jit_recovery=0.5)))
    assert both.recovery_inputs == Variant("both") and "R_j" in variant_text(both, "recovery")
    assert "R_j" not in variant_text(page.build(fleet_plan(worked.replace(planned_rate=0.03))), "recovery")


def test_the_intervals_a_dozen_interruptions_allow_read_in_one_unit() -> None:
    """M of 10.2 days: the plan's interval over a dozen's range reads "222 min to 410 min" around its 294 min, in
    the interval's unit (it read "222 min to 6.84 h")."""
    fleet = fleet_plan(params_from_mapping({"gpus": 2048, "rate_per_gpu_hour": 2e-6, "checkpoint_cost": "3 min",
                                            "slow_checkpoint_cost": "12 min", "restart": "20 min",
                                            "price_per_gpu_hour": 2.5, "month": "730 h"}, source="x.yml"))
    built = page.build(fleet)
    assert {built.dozen_t_low.split()[1], built.dozen_t_high.split()[1], built.interval.split()[1]} == {"min"}


def test_the_restart_term_is_given_the_restart_lever_that_acts_on_it() -> None:
    """A fleet whose fast tier survives nothing, every checkpoint persistent: every restart is from R_p, so "halving R
    gains 0.0 points" beside elastic training's 4.4; the bullet names the lever that cuts the restart loss."""
    fleet = fleet_plan(params_from_mapping({
        "gpus": 16384, "mtbi": "150 min", "checkpoint_cost": "20 s", "slow_checkpoint_cost": "6 min",
        "restart": "10 min", "drain": "2 min", "persistent": {"cost": "4 min", "restart": "14 min"},
        "fast_survives": 0, "price_per_gpu_hour": 2.2, "month": "730 h"}))
    built = page.build(fleet)
    assert built.async_case == Variant("stalled_all")  # every checkpoint persistent: not "every 1st one"
    assert fleet.levers["halve R"] == 0.0 < fleet.levers["shorten R_p to R"]
    assert (built.restart_lever, built.halve_r) == ("shortening R_p to R", gain_text(fleet.levers["shorten R_p to R"]))
