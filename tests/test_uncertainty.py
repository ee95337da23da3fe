"""Tests of goodput.uncertainty: intervals for M, C and R, and their propagation to T* and goodput."""

from __future__ import annotations

import dataclasses
import itertools
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy import stats

from goodput import model, tiers
from goodput.errors import InputError
from goodput.params import Params, load_params
from goodput.plan import Plan, plan_for
from goodput.report import range_origin
from goodput.tiers import Tiers
from goodput.uncertainty import (
    input_ranges,
    mean_interval,
    median_interval,
    monte_carlo,
    one_at_a_time,
    poisson_interval,
    propagate,
    propagate_params,
    quartiles,
)

LLAMA_WINDOW = 54 * 24 * 60.0  # minutes
PROPERTY = settings(derandomize=True, database=None, deadline=None, max_examples=60)


def test_poisson_interval_is_garwood_for_419() -> None:
    """For k = 419 over E: M in [2E / chi2(0.975; 840), 2E / chi2(0.025; 838)], about 169 to 205 min."""
    low, high = poisson_interval(419, LLAMA_WINDOW)
    assert_allclose(
        [low, high],
        [2 * LLAMA_WINDOW / stats.chi2.ppf(0.975, 840), 2 * LLAMA_WINDOW / stats.chi2.ppf(0.025, 838)],
        rtol=1e-12,
    )
    assert low < LLAMA_WINDOW / 419 < high
    assert_allclose([low, high], [168.6, 204.7], atol=0.05)


def test_poisson_interval_other_confidence() -> None:
    """At 90%: M in [2E / chi2(0.95; 2k+2), 2E / chi2(0.05; 2k)]; narrower than at 95%."""
    low, high = poisson_interval(10, 1000.0, confidence=0.9)
    assert_allclose([low, high], [2000 / stats.chi2.ppf(0.95, 22), 2000 / stats.chi2.ppf(0.05, 20)], rtol=1e-12)
    wide = poisson_interval(10, 1000.0)
    assert wide[0] < low and high < wide[1]


def test_zero_failures_give_only_a_lower_bound() -> None:
    """k = 0: the rate's lower end is 0, so M has no upper end; the lower end is 2E / chi2(1 - a/2; 2) = E / ln(2/a)."""
    low, high = poisson_interval(0, 1000.0)
    assert math.isinf(high)
    assert_allclose(low, 1000.0 / math.log(2 / 0.05), rtol=1e-12)
    assert_allclose(low, 2000.0 / stats.chi2.ppf(0.975, 2), rtol=1e-12)


@pytest.mark.parametrize("expected_count", [0.5, 3.0, 20.0, 419.0])
def test_poisson_interval_covers(expected_count: float) -> None:
    """Garwood's interval is conservative: it covers the true M in at least 95% of Poisson draws (here 4,000, seeded)."""
    true_m, exposure = 186.0, 186.0 * expected_count
    counts = np.random.default_rng(12345).poisson(expected_count, size=4000)
    table = {int(k): poisson_interval(int(k), exposure) for k in np.unique(counts)}
    covered = np.mean([table[int(k)][0] <= true_m <= table[int(k)][1] for k in counts])
    assert covered >= 0.95 - 3 * math.sqrt(0.05 * 0.95 / counts.size)


@pytest.mark.parametrize(
    ("count", "exposure", "confidence"),
    [(-1, 10.0, 0.95), (1.5, 10.0, 0.95), (True, 10.0, 0.95), (3, 0.0, 0.95), (3, math.inf, 0.95), (3, 10.0, 1.0)],
)
def test_poisson_interval_refuses_bad_input(count: object, exposure: float, confidence: float) -> None:
    """A negative or fractional count, a non-positive or infinite exposure, or a confidence outside (0, 1) is refused."""
    with pytest.raises(InputError):
        poisson_interval(count, exposure, confidence)  # type: ignore[arg-type]


@pytest.mark.parametrize("n", [6, 20, 101, 1000])
def test_median_interval_matches_scipy(n: int) -> None:
    """The order-statistic interval of the median equals scipy.stats.quantile_test's (binomial, p = 1/2)."""
    x = np.random.default_rng(n).normal(size=n)
    expected = stats.quantile_test(x, q=0.0, p=0.5).confidence_interval(0.95)
    assert_allclose(median_interval(x), [expected.low, expected.high])


def test_median_interval_of_few_samples_is_the_range() -> None:
    """Below six samples no pair of order statistics reaches 95%, so the interval is (min, max)."""
    assert median_interval([3.0, 1.0, 2.0]) == (1.0, 3.0)


def test_mean_interval_is_student_t() -> None:
    """mean -/+ t(0.975; n-1) s / sqrt(n), as scipy.stats.t.interval gives."""
    x = np.random.default_rng(1).normal(5.0, 1.0, size=30)
    expected = stats.t.interval(0.95, x.size - 1, loc=x.mean(), scale=stats.sem(x))
    assert_allclose(mean_interval(x), expected, rtol=1e-12)


def test_propagation_corners_of_the_worked_example() -> None:
    """T* ends are sqrt(2 C M) at (C_low, M_low) and (C_high, M_high); goodput ends 1 - sqrt(2C/M) - R/M at the worst and best corners."""
    m_low, m_high = poisson_interval(419, LLAMA_WINDOW)
    p = propagate(1.0, LLAMA_WINDOW / 419, 5.0, checkpoint_cost_range=(0.75, 1.5), mtbi_range=(m_low, m_high),
                  restart_range=(3.0, 8.0))
    assert_allclose(p.optimal_interval_range, [math.sqrt(2 * 0.75 * m_low), math.sqrt(2 * 1.5 * m_high)])
    assert_allclose(p.optimal_interval, math.sqrt(2 * LLAMA_WINDOW / 419))
    assert_allclose(
        p.goodput_range,
        [1 - math.sqrt(2 * 1.5 / m_low) - 8.0 / m_low, 1 - math.sqrt(2 * 0.75 / m_high) - 3.0 / m_high],
    )
    assert_allclose(p.goodput, float(model.goodput(1.0, LLAMA_WINDOW / 419, 5.0)))


def test_propagation_at_a_fixed_interval() -> None:
    """At a fixed T the goodput ends are 1 - C/T - T/(2M) - R/M at (C_high, M_low, R_high) and (C_low, M_high, R_low)."""
    p = propagate(1.0, 186.0, 5.0, checkpoint_cost_range=(0.5, 2.0), mtbi_range=(150.0, 220.0),
                  restart_range=(4.0, 6.0), interval=19.3)
    t = 19.3
    assert_allclose(p.goodput_range, [1 - 2.0 / t - t / 300.0 - 6.0 / 150.0, 1 - 0.5 / t - t / 440.0 - 4.0 / 220.0])
    assert p.interval == t


def test_propagation_corners_are_the_extremes_on_a_grid() -> None:
    """Goodput and T* are monotone in each input, so no point of a fine grid in the box beats the corners."""
    box = {"c": (0.5, 2.0), "m": (120.0, 260.0), "r": (2.0, 9.0)}
    p = propagate(1.0, 186.0, 5.0, checkpoint_cost_range=box["c"], mtbi_range=box["m"], restart_range=box["r"])
    c, m, r = np.meshgrid(*(np.linspace(*box[k], 15) for k in "cmr"), indexing="ij")
    good = model.goodput(c, m, r)
    t_star = model.optimal_interval(c, m)
    assert p.goodput_range[0] <= good.min() + 1e-12 and good.max() <= p.goodput_range[1] + 1e-12
    assert_allclose([t_star.min(), t_star.max()], p.optimal_interval_range)


positive = st.floats(min_value=0.01, max_value=1.0)


@PROPERTY
@given(
    c=st.floats(0.2, 5.0), m=st.floats(60.0, 1000.0), r=st.floats(1.0, 15.0),
    spread=st.tuples(positive, positive, positive, positive, positive, positive), grow=st.floats(1.0, 3.0),
)
def test_range_contains_point_and_widens(
    c: float, m: float, r: float, spread: tuple[float, ...], grow: float
) -> None:
    """The range contains the point value, and widening every input range (by a factor >= 1) widens both output ranges."""
    def ranges(k: float) -> dict[str, tuple[float, float]]:
        return {
            "checkpoint_cost_range": (c / (1 + k * spread[0]), c * (1 + k * spread[1])),
            "mtbi_range": (m / (1 + k * spread[2]), m * (1 + k * spread[3])),
            "restart_range": (r / (1 + k * spread[4]), r * (1 + k * spread[5])),
        }

    narrow = propagate(c, m, r, **ranges(1.0))
    wide = propagate(c, m, r, **ranges(grow))
    for p in (narrow, wide):
        assert p.goodput_range[0] <= p.goodput <= p.goodput_range[1]
        assert p.optimal_interval_range[0] <= p.optimal_interval <= p.optimal_interval_range[1]
    assert wide.goodput_range[0] <= narrow.goodput_range[0] and narrow.goodput_range[1] <= wide.goodput_range[1]
    assert wide.optimal_interval_range[0] <= narrow.optimal_interval_range[0]
    assert narrow.optimal_interval_range[1] <= wide.optimal_interval_range[1]


def test_exact_inputs_give_a_point() -> None:
    """With no ranges the range is the point: (g, g) and (T*, T*)."""
    p = propagate(1.0, 186.0, 5.0)
    assert p.goodput_range == (p.goodput, p.goodput)
    assert p.optimal_interval_range == (p.optimal_interval, p.optimal_interval)


@pytest.mark.parametrize(
    "kwargs",
    [{"checkpoint_cost_range": (1.5, 2.0)}, {"mtbi_range": (0.0, 200.0)}, {"restart_range": (6.0, 4.0)},
     {"restart_range": "3 to 8"}],
)
def test_propagation_refuses_a_range_without_its_point(kwargs: dict[str, object]) -> None:
    """A range must be two finite positive numbers, low <= point <= high."""
    with pytest.raises(InputError, match="_range"):
        propagate(1.0, 186.0, 5.0, **kwargs)  # type: ignore[arg-type]


def test_monte_carlo_is_seeded_and_centred() -> None:
    """Same seed, same answer; the median T* is near sqrt(2 C M) at the middle of the ranges and M = E/k."""
    args = (419, LLAMA_WINDOW, (0.75, 1.25), (4.0, 6.0))
    a, b = monte_carlo(*args, seed=3), monte_carlo(*args, seed=3)
    assert a == b
    assert_allclose(a.optimal_interval[1], math.sqrt(2 * 1.0 * LLAMA_WINDOW / 419), rtol=0.02)
    assert a.goodput[0] < float(model.goodput(1.0, LLAMA_WINDOW / 419, 5.0)) < a.goodput[2]
    corners = [model.goodput(c, m, r) for c, m, r in itertools.product((0.75, 1.25), poisson_interval(419, LLAMA_WINDOW),
                                                                          (4.0, 6.0))]
    assert min(corners) <= a.goodput[0] and a.goodput[2] <= max(corners)


# ---------------------------------------------------------------- from a parameters file, one at a time


def test_input_ranges_from_a_count_use_the_poisson_interval(worked) -> None:
    """M given as 419 in 54 days gets poisson_interval(419, 54 days); C and R get the file's stated ranges."""
    from goodput.uncertainty import input_ranges

    r = input_ranges(worked)
    assert list(r) == ["checkpoint_cost", "mtbi", "restart", "slow_checkpoint_cost"]
    assert r["mtbi"].bounds == poisson_interval(419, LLAMA_WINDOW)
    assert r["mtbi"].origin == "count" and "Poisson" in range_origin(r["mtbi"])
    assert r["checkpoint_cost"].bounds == worked.ranges["checkpoint_cost"] == (0.75, 2.0)
    assert r["restart"].bounds == worked.ranges["restart"] == (3.0, 8.0)


def test_input_ranges_from_a_rate_use_a_stated_range_or_are_exact(worked) -> None:
    """M from a rate: ranges.mtbi when stated; with no range at all every input is exact (low == high == point)."""
    from goodput.uncertainty import input_ranges

    rate = worked.replace(mtbi_source="rate_per_gpu_hour", interruption_count=None, window=None)
    stated = input_ranges(rate.replace(ranges={"mtbi": (150.0, 250.0)}))
    assert stated["mtbi"].bounds == (150.0, 250.0) and stated["mtbi"].origin == "stated"
    bare = input_ranges(rate.replace(ranges={}))
    for item in bare.values():
        assert item.exact and item.low == item.point == item.high and "exact" in range_origin(item)


def test_input_ranges_refuse_a_range_without_its_point(worked) -> None:
    """A stated range that does not contain the point value is an error naming ranges.<key>."""
    from goodput.uncertainty import input_ranges

    with pytest.raises(InputError, match=r"ranges\.restart"):
        input_ranges(worked.replace(ranges={"restart": (6.0, 8.0)}))


def test_propagate_params_is_propagate_of_the_input_ranges(worked) -> None:
    """propagate_params(p) = propagate(C, M, R, ranges from input_ranges(p)); T* range = sqrt(2 C M) at the ends."""
    from goodput.uncertainty import input_ranges, propagate_params

    r = input_ranges(worked)
    p = propagate_params(worked)
    q = propagate(worked.checkpoint_cost, worked.mtbi, worked.restart,
                  checkpoint_cost_range=r["checkpoint_cost"].bounds, mtbi_range=r["mtbi"].bounds,
                  restart_range=r["restart"].bounds)
    assert (p.points, p.bounds, p.corners, p.sampled) == (q.points, q.bounds, 8, False)
    assert_allclose([*p.goodput_range, p.goodput, *p.optimal_interval_range],
                    [*q.goodput_range, q.goodput, *q.optimal_interval_range], rtol=1e-12)
    (cl, ch), (ml, mh) = r["checkpoint_cost"].bounds, r["mtbi"].bounds
    assert_allclose(p.optimal_interval_range, [math.sqrt(2 * cl * ml), math.sqrt(2 * ch * mh)], rtol=1e-12)


def test_one_at_a_time_has_the_analytic_swings() -> None:
    """At a fixed T, g = 1 - C/T - (T/2 + R)/M, so the swings are dC/T, dR/M and (T/2 + R)(1/M_low - 1/M_high).

    At the optimum g = 1 - sqrt(2C/M) - R/M: R's swing is dR/M and C's is
    sqrt(2 C_high / M) - sqrt(2 C_low / M); T* moves with C and M, not with R.
    """
    from goodput.uncertainty import one_at_a_time

    c, m, r, t = 1.0, 186.0, 5.0, 19.0
    box = {"checkpoint_cost_range": (0.75, 2.0), "mtbi_range": (170.0, 205.0), "restart_range": (3.0, 8.0)}
    fixed = {s.name: s for s in one_at_a_time(propagate(c, m, r, interval=t, **box))}
    assert_allclose(fixed["checkpoint_cost"].goodput_swing, 1.25 / t, rtol=1e-12)
    assert_allclose(fixed["restart"].goodput_swing, 5.0 / m, rtol=1e-12)
    assert_allclose(fixed["mtbi"].goodput_swing, (t / 2 + r) * (1 / 170.0 - 1 / 205.0), rtol=1e-12)
    best = {s.name: s for s in one_at_a_time(propagate(c, m, r, **box))}
    assert_allclose(best["restart"].goodput_swing, 5.0 / m, rtol=1e-12)
    assert_allclose(best["checkpoint_cost"].goodput_swing, math.sqrt(4.0 / m) - math.sqrt(1.5 / m), rtol=1e-12)
    assert best["restart"].optimal_interval_range == (math.sqrt(2 * c * m),) * 2
    assert_allclose(best["mtbi"].optimal_interval_range, [math.sqrt(2 * 170.0), math.sqrt(2 * 205.0)], rtol=1e-12)


def test_one_at_a_time_is_sorted_and_inside_the_box() -> None:
    """Largest swing first; each one-at-a-time range lies inside the box range of propagate."""
    from goodput.uncertainty import one_at_a_time

    p = propagate(1.0, 186.0, 5.0, checkpoint_cost_range=(0.75, 2.0), mtbi_range=(168.6, 204.7),
                  restart_range=(3.0, 8.0))
    swings = one_at_a_time(p)
    assert [s.goodput_swing for s in swings] == sorted((s.goodput_swing for s in swings), reverse=True)
    assert swings[0].name == "checkpoint_cost"
    for s in swings:
        assert p.goodput_range[0] - 1e-15 <= s.goodput_range[0] <= p.goodput <= s.goodput_range[1]
        assert s.goodput_range[1] <= p.goodput_range[1] + 1e-15


def test_quartiles_of_a_uniform_grid_and_of_nothing() -> None:
    """0, 1, ..., 100 has quartiles 25 and 75; an empty sample has none (nan, nan); order does not matter."""
    grid = np.arange(101.0)
    assert quartiles(grid) == (25.0, 75.0)
    assert quartiles(grid[::-1]) == (25.0, 75.0)
    low, high = quartiles(np.array([]))
    assert math.isnan(low) and math.isnan(high)


# --------------------------------------------------------------------------- a drain or a persistent tier

def test_tiered_inputs_go_through_their_own_plan() -> None:
    """A tiered fleet's ranges are never carried through the one-tier model: without a scheme given, the plan's own
    (its drain, tier and best cadence) is taken, so the point goodput is the plan's."""
    fleet = load_params(Path(__file__).resolve().parent.parent / "examples" / "fleet-24k.yml")
    plan = plan_for(fleet)
    p = propagate_params(fleet, interval=plan.interval, which="exact", scheme=plan.tiers)
    assert p.goodput == pytest.approx(plan.goodput, rel=1e-12)
    own = propagate_params(fleet, interval=plan.interval, which="exact")
    assert own.scheme == plan.tiers and own.goodput == p.goodput


@PROPERTY
@given(
    c=st.floats(0.1, 5.0), r=st.floats(1.0, 30.0), m=st.floats(60.0, 2000.0), d=st.floats(0.0, 10.0),
    s=st.floats(0.0, 1.0), n=st.integers(1, 6), grow=st.floats(1.01, 2.0),
)
def test_tier_goodput_is_monotone_in_c_m_and_r(c, r, m, d, s, n, grow) -> None:
    """The corners give the range only if tier goodput at a fixed T falls as C or R grows and rises as M grows."""
    scheme = Tiers(c, r, drain=d, persistent_cost=3 * c, persistent_restart=2 * r, fast_survives=s, every=n)
    t = max(d, 20.0)
    g = tiers.exact_goodput(scheme, m, t)
    bigger_c = Tiers(c * grow, r, drain=d, persistent_cost=max(3 * c, c * grow), persistent_restart=2 * r,
                     fast_survives=s, every=n)
    bigger_r = Tiers(c, r * grow, drain=d, persistent_cost=3 * c, persistent_restart=max(2 * r, r * grow),
                     fast_survives=s, every=n)
    assert tiers.exact_goodput(bigger_c, m, t) <= g + 1e-12
    assert tiers.exact_goodput(bigger_r, m, t) <= g + 1e-12
    assert tiers.exact_goodput(scheme, m * grow, t) >= g - 1e-12


# --------------------------------------------------------------------------- every input of the plan, through its scheme

#: The planner's 65,536-GPU fleet of issue 18 (M = 41.6 min from a rate; every 4th checkpoint persistent).
FLEET_65K = {"gpus": 65536, "rate_per_gpu_hour": 2.2e-5, "checkpoint_cost": "25 s", "slow_checkpoint_cost": "5 min",
             "restart": "15 min", "price_per_gpu_hour": 3.2, "month": "730 h", "drain": "4 min",
             "persistent": {"cost": "3 min", "restart": "25 min"}, "fast_survives": 0.75}


def _fleet_65k(**ranges: list[object]) -> Params:
    from goodput.params import params_from_mapping

    return params_from_mapping({**FLEET_65K, "ranges": ranges} if ranges else FLEET_65K, source="fleet-65k.yml")


@pytest.fixture(scope="module")
def tiered_s() -> tuple[Params, Plan]:
    """The 65k fleet with a range on s alone, and its plan."""
    params = _fleet_65k(fast_survives=[0.6, 0.85])
    return params, plan_for(params)


def test_a_swing_in_s_is_the_plans_difference_at_its_ends(tiered_s: tuple[Params, Plan]) -> None:
    """At the recommended interval (5.91 min, n = 4 kept), s's swing is exactly the plan's goodput with s = 60% and
    with s = 85% at that interval and cadence; at each case's own optimum it is the plan's at each end with the
    interval and the cadence chosen again. More of the interruptions survived is more goodput."""
    params, plan = tiered_s
    n, t = plan.tiers.every, plan.interval
    assert (n, round(t, 2)) == (4, 5.91)
    fixed = propagate_params(params, interval=t, which="exact")
    (swing,) = [x for x in one_at_a_time(fixed) if x.name == "fast_survives"]

    def at(s: float, **kw: object) -> Plan:
        return plan_for(params.replace(fast_survives=s, ranges={}), **kw)  # type: ignore[arg-type]

    low = plan_for(params.replace(fast_survives=0.6, persistent_every=n, ranges={}), interval=t).goodput
    high = plan_for(params.replace(fast_survives=0.85, persistent_every=n, ranges={}), interval=t).goodput
    assert (swing.goodput_at_low, swing.goodput_at_high) == pytest.approx((low, high), rel=1e-12)
    assert swing.goodput_swing == pytest.approx(high - low, rel=1e-12) and high > plan.goodput > low
    best = propagate_params(params, which="exact")
    (own,) = [x for x in one_at_a_time(best) if x.name == "fast_survives"]
    ends = at(0.6), at(0.85)
    assert (own.goodput_at_low, own.goodput_at_high) == pytest.approx(tuple(e.goodput for e in ends), rel=1e-12)
    assert (own.optimal_interval_at_low, own.optimal_interval_at_high) == pytest.approx(
        tuple(e.optimal_interval for e in ends), rel=1e-12)
    assert ends[1].tiers.every > n  # the cadence was chosen again: fewer persistent checkpoints when more survive


@pytest.mark.slow
def test_the_ranges_hold_the_plan_and_only_possible_goodputs() -> None:
    """With ranges on C, M, D, C_p, R_p and s (64 corners, all computed), T*'s range holds the plan's T* and the
    one-at-a-time ends; goodput's range holds the plan's and every swing, inside [0, 1]; the widest swing is first."""
    params = _fleet_65k(checkpoint_cost=["20 s", "40 s"], mtbi=["35 min", "50 min"], drain=["3 min", "6 min"],
                        persistent_cost=["2 min", "4 min"], persistent_restart=["20 min", "35 min"],
                        fast_survives=[0.6, 0.85])
    plan = plan_for(params)
    best = propagate_params(params, which="exact")
    fixed = propagate_params(params, interval=plan.interval, which="exact", cases=best.cases)
    assert (best.corners, best.sampled) == (64, False)
    t_low, t_high = best.optimal_interval_range
    assert t_low <= plan.optimal_interval <= t_high
    for p in (best, fixed):
        low, high = p.goodput_range
        assert 0.0 <= low <= p.goodput <= high <= 1.0
    assert fixed.goodput == pytest.approx(plan.goodput, rel=1e-12)
    swings = one_at_a_time(fixed)
    assert [x.goodput_swing for x in swings] == sorted((x.goodput_swing for x in swings), reverse=True)
    assert {x.name for x in swings if x.goodput_swing > 0} == {"checkpoint_cost", "mtbi", "drain", "persistent_cost",
                                                              "persistent_restart", "fast_survives"}
    # D's high end, 6 min, is longer than the interval: that case checkpoints every 6 min, one drain in flight
    (drain,) = [x for x in swings if x.name == "drain"]
    at_six = plan_for(params.replace(drain=6.0, persistent_every=plan.tiers.every, ranges={}), interval=6.0)
    assert drain.goodput_at_high == pytest.approx(at_six.goodput, rel=1e-12)
    for x in swings:
        assert fixed.goodput_range[0] <= min(x.goodput_range) and max(x.goodput_range) <= fixed.goodput_range[1]
        assert t_low <= min(x.optimal_interval_range) and max(x.optimal_interval_range) <= t_high


def test_first_order_corners_below_zero_read_as_no_goodput() -> None:
    """Ranges wide enough that first order's loss passes 100% at a corner (C up to 30 min at M = 41.6 min): every
    goodput over the box, one at a time and drawn is inside [0, 1], the low end exactly 0."""
    params = _fleet_65k(checkpoint_cost=["10 s", "3 min"], persistent_cost=["3 min", "30 min"],
                        persistent_restart=["25 min", "6 h"])
    plan = plan_for(params, which="first-order")
    for p in (propagate_params(params, which="first-order"),
              propagate_params(params, interval=plan.interval, which="first-order")):
        low, high = p.goodput_range
        assert low == 0.0 and 0.0 <= p.goodput <= high <= 1.0
        assert all(0.0 <= g <= 1.0 for x in one_at_a_time(p) for g in x.goodput_range)


@pytest.mark.slow
def test_many_ranged_inputs_are_bounded_by_a_seeded_sample_of_corners() -> None:
    """Seven inputs with a range have 128 corners; with the bound at 4 a seeded, balanced sample of 16 (each input at
    each end in 8) plus the extreme corners is computed instead. Goodput's range is still the full box's, exactly
    (the extremes are always computed); T*'s lies inside the full box's and holds the plan's; the same seed gives the
    same sample."""
    from goodput.uncertainty import box_corners

    params = _fleet_65k(checkpoint_cost=["20 s", "40 s"], mtbi=["35 min", "50 min"], restart=["12 min", "18 min"],
                        drain=["3 min", "6 min"], persistent_cost=["2 min", "4 min"],
                        persistent_restart=["20 min", "35 min"], fast_survives=[0.6, 0.85])
    full = propagate_params(params, which="first-order", limit=7)
    assert (full.corners, full.sampled) == (128, False)
    part = propagate_params(params, which="first-order", limit=4, cases=full.cases)
    assert part.sampled and part.corners <= 16 + 4
    assert part.goodput_range == full.goodput_range
    assert full.optimal_interval_range[0] <= part.optimal_interval_range[0] <= part.optimal_interval
    assert part.optimal_interval <= part.optimal_interval_range[1] <= full.optimal_interval_range[1]
    corners, sampled = box_corners(full.bounds, limit=4, seed=3)
    again, _ = box_corners(full.bounds, limit=4, seed=3)
    assert sampled and corners == again
    assert box_corners(full.bounds, limit=7)[0] == box_corners(full.bounds, limit=9)[0]
    for name in ("checkpoint_cost", "fast_survives"):  # balanced: 8 of 16 drawn at each end, the extremes 1 each
        lows = sum(corner[name] == full.bounds[name][0] for corner in corners)
        assert abs(lows - len(corners) / 2) <= 1


@pytest.mark.slow
def test_a_fleets_monte_carlo_draws_every_ranged_input_through_its_plan() -> None:
    """With the scheme's other inputs pinned, drawing through the fleet's plan is drawing through its scheme with each
    draw's C, M and R (same seed, same numbers); with s drawn too the draws differ and stay inside the box at the
    plan's interval."""
    base = load_params().replace(drain=5.0, persistent_cost=4.0, persistent_restart=15.0, fast_survives=0.7)
    plan = plan_for(base)
    kw = {"interval": plan.interval, "draws": 300, "seed": 1, "which": "exact", "scheme": plan.tiers}
    pinned = monte_carlo(419, LLAMA_WINDOW, (0.75, 2.0), (3.0, 8.0), params=base,
                         ranges={"fast_survives": (0.7, 0.7), "drain": (5.0, 5.0)}, **kw)  # type: ignore[arg-type]
    rng = np.random.default_rng(1)
    m, c, r = 1.0 / rng.gamma(419.5, 1.0 / LLAMA_WINDOW, 300), rng.uniform(0.75, 2.0, 300), rng.uniform(3.0, 8.0, 300)
    s = plan.tiers
    by_scheme = [tiers.exact_goodput(dataclasses.replace(s, checkpoint_cost=ci, restart=ri, persistent_cost=max(s.cp, ci),
                                                         persistent_restart=max(s.rp, ri)), mi, plan.interval)
                 for ci, mi, ri in zip(c, m, r, strict=True)]
    assert pinned.goodput == pytest.approx(tuple(np.percentile(by_scheme, [2.5, 50.0, 97.5])), rel=1e-12)
    with pytest.raises(InputError, match="params"):  # a scheme alone is not a fleet to draw through
        monte_carlo(419, LLAMA_WINDOW, (0.75, 2.0), (3.0, 8.0), **kw)  # type: ignore[arg-type]
    ranged = base.replace(ranges={**base.ranges, "fast_survives": (0.5, 0.9)})
    drawn = monte_carlo(419, LLAMA_WINDOW, (0.75, 2.0), (3.0, 8.0), params=ranged,
                        ranges={"fast_survives": (0.5, 0.9)}, **kw)  # type: ignore[arg-type]
    assert drawn.goodput != pinned.goodput and "fast_survives" in drawn.drawn
    low, high = propagate_params(ranged, interval=plan.interval, which="exact", corners=False).goodput_range
    assert low <= drawn.goodput[0] <= drawn.goodput[2] <= high
    with pytest.raises(InputError, match=r"ranges\.gpus"):
        monte_carlo(419, LLAMA_WINDOW, (0.75, 2.0), (3.0, 8.0), params=base, ranges={"gpus": (1.0, 2.0)},
                    **kw)  # type: ignore[arg-type]


@pytest.mark.slow
def test_the_commands_ranges_come_widest_first_with_the_plans_values() -> None:
    """goodput plan on the 65k fleet with ranges on s, R_p and D: one range row per input, widest swing first; the
    JSON's goodput range is the box's at the plan's interval (inside [0, 1], holding the plan's 44.2%) and each
    swing is the plan's at its ends; a range of the slow checkpoint is listed and moves no number of the plan."""
    from goodput.report import plan_dict, plan_report, range_rows

    params = _fleet_65k(fast_survives=[0.6, 0.85], persistent_restart=["20 min", "35 min"], drain=["3 min", "5 min"],
                        slow_checkpoint_cost=["4 min", "8 min"])
    plan = plan_for(params)
    report = plan_report(plan, params)
    fixed = propagate_params(params, interval=plan.interval, which="exact")
    swings = [x for x in one_at_a_time(fixed) if x.goodput_swing > 0]
    assert [x.name for x in swings] == ["fast_survives", "persistent_restart", "drain"]
    assert [row[0] for row in range_rows(report)] == ["range of s", "range of R_p", "range of D", "range of the slow C",
                                                      "goodput over all the ranges"]
    data = plan_dict(report)
    assert list(data["ranges"])[:3] == ["fast_survives", "persistent_restart", "drain"]
    assert data["ranges"]["fast_survives"] == [0.6, 0.85] and data["ranges"]["restart"] is None
    assert data["goodput_range"] == pytest.approx(list(fixed.goodput_range), rel=1e-12)
    assert 0.0 <= data["goodput_range"][0] < plan.goodput < data["goodput_range"][1] <= 1.0
    for x in swings:
        assert data["range_swings"][x.name] == pytest.approx(list(x.goodput_range), rel=1e-12)
    assert "slow_checkpoint_cost" not in data["range_swings"]


def test_a_range_of_the_share_recovered_just_in_time_is_its_plans() -> None:
    """A one-tier fleet recovering 70% of interruptions just in time, p stated as 50% to 90%: at the recommended
    interval p's swing is the plan's goodput at p = 50% and p = 90% at that interval, more recovered is more goodput,
    and the box holds the plan."""
    from goodput.params import params_from_mapping

    data = {"gpus": 16384, "mtbi": "3 h", "checkpoint_cost": "1 min", "slow_checkpoint_cost": "5 min",
            "restart": "10 min", "price_per_gpu_hour": 2.5, "month": "720 h", "just_in_time": 0.7,
            "ranges": {"just_in_time": [0.5, 0.9], "restart": ["8 min", "14 min"]}}
    params = params_from_mapping(data, source="jit.yml")
    plan = plan_for(params)
    fixed = propagate_params(params, interval=plan.interval, which="exact")
    (swing,) = [x for x in one_at_a_time(fixed) if x.name == "just_in_time"]
    ends = [plan_for(params.replace(just_in_time=p, ranges={}), interval=plan.interval).goodput for p in (0.5, 0.9)]
    assert (swing.goodput_at_low, swing.goodput_at_high) == pytest.approx(tuple(ends), rel=1e-12)
    assert ends[0] < plan.goodput < ends[1]
    assert fixed.goodput_range[0] <= ends[0] and ends[1] <= fixed.goodput_range[1] <= 1.0


@pytest.mark.slow
def test_a_flag_that_changes_an_input_drops_its_range(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """goodput plan --drain 5min on a file whose drain has the range 3 to 6 min: the range was of the file's 4 min,
    so the command drops it (and keeps s's); without the flag both are listed."""
    import json

    import yaml

    from goodput.cli import main

    path = tmp_path / "fleet.yml"
    path.write_text(yaml.safe_dump({**FLEET_65K, "ranges": {"drain": ["3 min", "6 min"], "fast_survives": [0.6, 0.85]}}))
    assert main(["plan", "--params", str(path), "--format", "json"]) == 0
    both = json.loads(capsys.readouterr().out)["ranges"]
    assert main(["plan", "--params", str(path), "--drain", "5min", "--format", "json"]) == 0
    flagged = json.loads(capsys.readouterr().out)["ranges"]
    assert (both["drain"], both["fast_survives"]) == ([3.0, 6.0], [0.6, 0.85])
    assert flagged["drain"] is None and flagged["fast_survives"] == [0.6, 0.85]


@pytest.mark.parametrize("scheme", [{"drain": "4 min"}, {"drain": "4 min", "persistent": {"cost": "3 min",
                                                                                          "restart": "25 min"},
                                                          "fast_survives": 0.75},
                                    # one tier beside spares: a planned stop skips R's wait for repairs here too
                                    {"gpus_per_node": 8, "spares": {"nodes": 0, "repair": "24 h", "takes_node": 0.5}}])
def test_ranges_at_the_plan_s_interval_keep_the_fleet_s_recovery_and_planned_stops(scheme: dict[str, object]) -> None:
    """A fleet with a drain, two tiers or spares, just-in-time recovery and planned stops, ranged on C and p: at the plan's
    interval, the case of the point values is the plan (its goodput to 1e-12), goodput's range holds the plan's, and p
    moves goodput. The ranges had left out p and the planned stops beside a drain: 99.1% to 99.3% around a plan of
    99.5%, with p's swing 0.0 points."""
    from goodput.params import params_from_mapping

    mapping = {**{k: v for k, v in FLEET_65K.items() if k not in ("drain", "persistent", "fast_survives")}, **scheme,
               "just_in_time": 0.7, "planned": {"count": 4, "window": "30 days"},
               "ranges": {"checkpoint_cost": ["20 s", "30 s"], "just_in_time": [0.5, 0.9]}}
    params = params_from_mapping(mapping, source="fleet.yml")
    plan = plan_for(params)
    fixed = propagate_params(params, interval=plan.interval, which="exact")
    assert abs(fixed.goodput - plan.goodput) <= 1e-12
    low, high = fixed.goodput_range
    assert low <= plan.goodput <= high
    swing = one_at_a_time(fixed)
    p_swing = next(s for s in swing if s.name == "just_in_time")
    assert abs(p_swing.goodput_at_high - p_swing.goodput_at_low) > 1e-3


@pytest.mark.parametrize(("changes", "point", "span"), [
    # one tier, half the interruptions recovered just in time: the range left p out, 73.4% to 79.5% around a plan of
    # 83.2%, which it did not contain
    ({"just_in_time": 0.5, "jit_recovery": 0.5}, 0.8323, (0.8098, 0.8551)),
    # a persistent tier: the range restarted in R (46.7% at its point), the comparison in R_p (44.2%)
    ({"drain": 3.0, "persistent_cost": 2.0, "persistent_restart": 22.0, "fast_survives": 0.85}, None, None),
])
def test_the_slow_checkpoint_s_range_is_of_the_comparison_the_page_quotes(
        worked: Params, changes: dict[str, float], point: float | None, span: tuple[float, float] | None) -> None:
    """A ranged slow C is carried through the comparison's own plan (Params.synchronous): recovery, planned stops and
    the restart it restarts in included, so its point case is the slow plan, to 1e-12, inside its range."""
    from goodput.fleet import fleet_plan

    params = worked.replace(ranges={"slow_checkpoint_cost": (4.0, 6.0)}, **changes)
    fleet = fleet_plan(params)
    slow = fleet.ranges.slow
    assert slow is not None
    assert slow.goodput == pytest.approx(fleet.slow.goodput, abs=1e-12)
    assert slow.goodput_range[0] <= fleet.slow.goodput <= slow.goodput_range[1]
    if point is not None and span is not None:
        assert round(fleet.slow.goodput, 4) == point and tuple(round(g, 4) for g in slow.goodput_range) == span


@pytest.mark.parametrize(("ranges", "key"), [
    ({"persistent_cost": (0.5, 6.0)}, "ranges.persistent_cost"),  # C_p down to 30 s, below C = 1 min
    ({"checkpoint_cost": (0.75, 3.0)}, "ranges.checkpoint_cost"),  # C up to 3 min, above C_p = 2 min
    ({"restart": (3.0, 10.0)}, "ranges.restart"),  # R up to 10 min, above R_p = 6 min
])
def test_a_range_crossing_the_other_tier_is_refused(worked: Params, ranges: dict[str, tuple[float, float]],
                                                    key: str) -> None:
    """A range whose end is a persistent tier the point checks refuse (cheaper or faster than the fast one) is bad
    input, named; it had been planned, each such corner clamped to the fast tier's value."""
    tiered = worked.replace(persistent_cost=2.0, persistent_restart=6.0, fast_survives=0.5)
    with pytest.raises(InputError, match=key.replace(".", r"\.")):
        input_ranges(tiered.replace(ranges=ranges))
    assert input_ranges(tiered.replace(ranges={"persistent_cost": (1.0, 6.0), "checkpoint_cost": (0.75, 2.0)}))
    # R_p not given follows R (and a local-first C_p = C follows C): the worked example's ranges of R and C stand
    follows = worked.replace(persistent_cost=worked.checkpoint_cost, fast_survives=0.5)
    assert follows.persistent_restart is None and input_ranges(follows)["restart"].high == 8.0
