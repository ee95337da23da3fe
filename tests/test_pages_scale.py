"""The scale page's numbers and sentences (goodput.pages.scale): one measure of how far first order is off.

Checked with the worked example and with a fleet unlike it (24,576 GPUs, 1.6e-5 interruptions per GPU-hour,
C = 40 s, a 4-minute slow checkpoint, R = 12 min, $2.1 per GPU-hour).
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from numpy.testing import assert_allclose

from goodput import exact, model
from goodput.pages import scale
from goodput.params import Params, load_params, mtbi_from_rate


@pytest.fixture(params=["worked", "fleet"])
def inputs(request: pytest.FixtureRequest, worked: Params, fleet: Params) -> Params:
    return worked if request.param == "worked" else fleet


def test_three_costs_are_the_fleets_and_a_10_second_one(fleet: Params) -> None:
    """The chapter follows the inputs' slow and fast checkpoint and an asynchronous one of 10 s = 1/6 min."""
    assert scale.costs(fleet) == {"slow": 4.0, "fast": pytest.approx(2 / 3), "async": pytest.approx(1 / 6)}


def test_limits_are_where_the_first_order_error_crosses_one_and_three_points(inputs: Params) -> None:
    """At the one-point size, exact minus first-order goodput (each at its optimum) is 0.01; at the three-point
    size 0.03; at the zero size 1 - sqrt(2C/M) - R/M = 0; and the three sizes increase in that order."""
    c, r, rate = inputs.checkpoint_cost, inputs.restart, inputs.rate_per_gpu_hour
    limits = scale.first_order_limits(c, r, rate)
    assert_allclose(exact.first_order_error(c, limits.mtbi_at(limits.one_point), r), 0.01, rtol=1e-6)
    assert_allclose(exact.first_order_error(c, limits.mtbi_at(limits.three_points), r), 0.03, rtol=1e-6)
    assert_allclose(model.goodput(c, limits.mtbi_at(limits.zero), r), 0.0, atol=1e-9)
    assert limits.one_point < limits.three_points < limits.zero


def test_limit_follows_two_c_over_three_e_for_a_tiny_restart() -> None:
    """With R -> 0 the error is about 2C/(3M), so it reaches e = 0.01 at M = 2C/(3e) and N = 60 / (rate M)."""
    limits = scale.first_order_limits(1.0, 1e-9, 2e-5)
    expected = 60.0 / (2e-5 * (2.0 / (3.0 * 0.01)))
    assert_allclose(limits.one_point, expected, rtol=0.1)


@pytest.mark.parametrize(("error", "words"), [
    (0.005, "close enough to quote"),
    (0.01, "close enough to quote"),
    (0.02, "to be quoted only with a caution"),
    (0.03, "to be quoted only with a caution"),
    (0.05, "too far off to quote"),
])
def test_error_verdict_has_three_cases(error: float, words: str) -> None:
    """Up to 1 point first order is close; up to 3 points it needs a caution; beyond, the exact model is quoted."""
    assert scale.error_verdict(error) == words
    assert scale.close_enough(error) == (error <= 0.03)


def test_thresholds_are_the_package_thresholds(worked: Params) -> None:
    """Worked example: 7,491 GPUs (5 min) and 22,862 (1 min) for one point, from exact.first_order_error_threshold;
    the job itself, at C = 1 min, is 0.7 points off, within one point; at C = 5 min 2.4 points, with a caution."""
    t = scale.thresholds(worked)
    assert t["slow_one_point"] == "7,491" and t["fast_one_point"] == "22,862"
    assert t["fast_three_points"] == f"{exact.first_order_error_threshold(1.0, 5.0, worked.rate_per_gpu_hour, 0.03):,.0f}"
    assert t["own_fast"] == "with C = 1 min first order is 0.7 points below the exact goodput, close enough to quote"
    assert t["own_slow"] == ("with C = 5 min first order is 2.4 points below the exact goodput, to be quoted only with "
                             "a caution")


def test_fleet_verdicts_follow_its_own_errors(fleet: Params) -> None:
    """24k fleet: C = 40 s is 1.3 points off (between 1 and 3); C = 4 min is 3.6 points off (more than 3)."""
    t = scale.thresholds(fleet)
    assert t["own_fast"].endswith("1.3 points below the exact goodput, to be quoted only with a caution")
    assert t["own_slow"].endswith("3.6 points below the exact goodput, too far off to quote")
    assert t["fast_one_point"] == "20,808"


def test_thresholds_table_has_one_row_per_cost(inputs: Params) -> None:
    """Three rows (slow, fast, 10 s), thresholds as GPU counts matching the sentences, M there as durations."""
    table = scale.thresholds_table(inputs)
    frame, words = table["frame"], scale.thresholds(inputs)
    assert list(frame["1 point: GPUs"]) == [words[f"{k}_one_point"] for k in ("slow", "fast", "async")]
    assert list(frame["3 points: GPUs"]) == [words[f"{k}_three_points"] for k in ("slow", "fast", "async")]
    assert all(text.endswith(("s", "min", "h", "days")) for text in frame["1 point: M"])
    assert "R = " in table["caption"]


def test_plan_at_scale_exact_below_young_and_above_first_order(inputs: Params) -> None:
    """At 100,000 GPUs: the exact optimum is below sqrt(2CM) (T* = sqrt(2CM)(1 - sqrt(2C/M)/3 + ...)), the exact
    goodput above first order's, and the simulation within four standard errors of the exact goodput."""
    p = scale.scale_plan(inputs)
    assert_allclose(p.mtbi, 60 / (inputs.rate_per_gpu_hour * 100_000))
    assert p.exact_interval < p.first_interval
    assert p.exact_goodput > p.first_goodput
    assert abs(p.simulated - p.exact_goodput) < 4 * p.stderr
    assert p.exact_at_first <= p.exact_goodput
    words = scale.plan_at_scale(inputs)
    assert words["plan_verdict"] == "first order is too far off to quote there"
    assert words["plan_gap"] == f"{100 * (p.exact_goodput - p.first_goodput):.1f} points"


def test_beyond_zero_is_a_power_of_two_past_the_zero(inputs: Params) -> None:
    """The size shown is the first power of two at least 1.25 times the zero size; first order is below zero there
    and the exact goodput is positive."""
    big = scale.beyond_zero_size(inputs)
    zero = exact.first_order_zero_fleet(inputs.slow_checkpoint_cost, inputs.restart, inputs.rate_per_gpu_hour)
    assert big >= 1.25 * zero and big / 2 < 1.25 * zero and math.log2(big).is_integer()
    m = mtbi_from_rate(inputs.rate_per_gpu_hour, big)
    assert model.goodput(inputs.slow_checkpoint_cost, m, inputs.restart) < 0
    words = scale.below_zero(inputs)
    assert words["big_first"].startswith("-") and not words["big_exact"].startswith("-")


def test_figure_marks_the_fleet_and_the_simulations_agree(fleet: Params) -> None:
    """The figure marks the fleet's own size; 12 simulated points (3 costs x 4 sizes), none more than 4 standard
    errors from the exact goodput."""
    args = scale.models_figure(fleet)
    assert args["fleet"] == 24576.0
    assert sorted(args["simulated"]) == sorted(scale.costs(fleet).values())
    words = scale.models(fleet)
    assert words["sim_count"] == "12"
    assert float(words["max_sigma"]) < 4


def test_opening_names_the_fleets_inputs(fleet: Params) -> None:
    """The opening shows the fleet's rate, restart and costs as people write them."""
    words = scale.opening(fleet)
    assert words == {"rate": "1.6e-5", "restart": "12 min", "smallest": "1,000", "largest": "1,000,000",
                     "gpus": "24,576", "slow_text": "4 min", "fast_text": "40 s", "async_text": "10 s",
                     "tier_note": ""}


def test_opening_says_when_it_leaves_tiers_out() -> None:
    """examples/fleet-24k.yml has a drain and a persistent tier: the chapter says it follows one tier only."""
    tiered = load_params(Path(__file__).resolve().parent.parent / "examples" / "fleet-24k.yml")
    assert "drain and persistent tier are left out" in scale.opening(tiered)["tier_note"]


def test_fleet_file_is_not_the_worked_example(fleet: Params, worked: Params) -> None:
    """The fleet used here differs from the worked example in every input the chapter uses."""
    assert Path(fleet.source).name == "fleet-24k.yml"
    for key in ("gpus", "checkpoint_cost", "slow_checkpoint_cost", "restart", "mtbi"):
        assert getattr(fleet, key) != getattr(worked, key)
