"""The uncertainty page (goodput.pages.uncertainty.build): its ranges are the fleet's, through its scheme by the
exact model; its variants say which inputs have a range; nothing of zero width is shown as a range; first order only
where it is quotable and its goodputs are possible; the Monte Carlo draws go through the fleet's scheme.

Checked with the worked example (M a count, with its Poisson interval; stated ranges of C and R), the example
fleets (examples/fleet-32k.yml: M a rate with a stated range; examples/fleet-24k.yml: tiered), a 24,576-GPU fleet
with C and R ranges but none for M, the same fleet with no range at all, and one with a range for R alone.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from goodput import model, whatif
from goodput.book import figures, tables, variant_text
from goodput.exact import exact_goodput, exact_optimal_interval
from goodput.fleet import FleetPlan, fleet_plan, ranges_for
from goodput.pages import Variant
from goodput.pages import uncertainty as page
from goodput.pages.common import how_mtbi_given
from goodput.params import Params, load_params, params_from_mapping
from goodput.report import INPUT_NAMES, join_words, scheme_words
from goodput.uncertainty import monte_carlo, one_at_a_time, poisson_interval, propagate

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def fleets(fleet_variant: Callable[..., Params]) -> dict[str, Params]:
    """The worked example, the 32k example fleet, and the 24k fleet with C and R ranges, none, and R's alone."""
    return {
        "worked": load_params(),
        "fleet-32k": load_params(ROOT / "examples" / "fleet-32k.yml"),
        "24k": fleet_variant("fleet-24k.yml", ranges={"checkpoint_cost": ["30 s", "90 s"], "restart": ["8 min", "20 min"]}),
        "24k-no-ranges": fleet_variant("fleet-24k-no-ranges.yml"),
        "24k-restart-only": fleet_variant("fleet-24k-r.yml", ranges={"restart": ["8 min", "20 min"]}),
    }


@pytest.fixture(scope="module")
def pages(fleets: dict[str, Params]) -> dict[str, page.Page]:
    return {name: page.build(fleet_plan(p)) for name, p in fleets.items()}


# --------------------------------------------------------------------------- the numbers are the exact model's


@pytest.mark.parametrize("name", ["worked", "fleet-32k", "24k"])
def test_ranges_are_the_exact_models_corners(fleets: dict[str, Params], name: str) -> None:
    """T*'s range is (T*(C_low, M_low), T*(C_high, M_high)) by the exact (Lambert-W) optimum, and goodput's, at the
    recommended interval T, is (G(C_high, M_low, R_high; T), G(C_low, M_high, R_low; T)) with
    G = T e^{-R/M} / (M (e^{(T+C)/M} - 1)): the model the recommendation comes from."""
    params = fleets[name]
    r = fleet_plan(params).ranges
    assert r.plan.model == r.fixed.model == r.best.model == "exact"
    (c_lo, c_hi), (m_lo, m_hi), (r_lo, r_hi) = (r.inputs[k].bounds for k in ("checkpoint_cost", "mtbi", "restart"))
    t = float(exact_optimal_interval(params.checkpoint_cost, params.mtbi))
    assert r.plan.optimal_interval == pytest.approx(t, rel=1e-12)
    assert r.best.optimal_interval_range == pytest.approx(
        (exact_optimal_interval(c_lo, m_lo), exact_optimal_interval(c_hi, m_hi)), rel=1e-12)

    def g(c: float, m: float, rr: float) -> float:
        return t * math.exp(-rr / m) / (m * math.expm1((t + c) / m))

    assert r.fixed.goodput_range == pytest.approx((g(c_hi, m_lo, r_hi), g(c_lo, m_hi, r_lo)), rel=1e-12)
    assert r.plan.goodput == pytest.approx(g(params.checkpoint_cost, params.mtbi, params.restart), rel=1e-12)


@pytest.mark.parametrize("name", ["worked", "fleet-32k", "24k"])
def test_corners_are_the_extremes_over_the_box(fleets: dict[str, Params], name: str) -> None:
    """Exact goodput at a fixed T, and the exact optimum, are monotone in each input, so no point of a 7x7x7 grid
    over the box lies outside the range found at the eight corners."""
    params = fleets[name]
    r = fleet_plan(params).ranges
    axes = [np.linspace(*r.inputs[k].bounds, 7) for k in ("checkpoint_cost", "mtbi", "restart")]
    c, m, rr = (a.ravel() for a in np.meshgrid(*axes, indexing="ij"))
    t = r.plan.optimal_interval
    good = exact_goodput(c, m, rr, np.full_like(c, t))
    low, high = r.fixed.goodput_range
    assert good.min() >= low - 1e-12 and good.max() <= high + 1e-12
    assert good.min() == pytest.approx(low, rel=1e-12) and good.max() == pytest.approx(high, rel=1e-12)
    t_star = exact_optimal_interval(c, m)
    assert t_star.min() == pytest.approx(r.best.optimal_interval_range[0], rel=1e-12)
    assert t_star.max() == pytest.approx(r.best.optimal_interval_range[1], rel=1e-12)


def test_restart_swing_first_order() -> None:
    """First-order goodput is linear in R with slope -1/M, so R's one-at-a-time swing is (R_high - R_low)/M, at a
    fixed interval and at each case's own optimum alike."""
    c, m, r, lo, hi = 40 / 60, 152.587890625, 12.0, 8.0, 20.0
    for interval in (float(model.optimal_interval(c, m)), None):
        p = propagate(c, m, r, restart_range=(lo, hi), interval=interval, which="first-order")
        (swing,) = [s for s in one_at_a_time(p) if s.name == "restart"]
        assert swing.goodput_swing == pytest.approx((hi - lo) / m, rel=1e-12)


def test_restart_swing_exact() -> None:
    """Exact goodput is e^{-R/M} times a factor free of R, T / (M (e^{(T+C)/M} - 1)), so R's swing is that factor
    times (e^{-R_low/M} - e^{-R_high/M}); at the exact optimum T does not depend on R, so the same holds there."""
    c, m, r, lo, hi = 40 / 60, 152.587890625, 12.0, 8.0, 20.0
    for interval in (25.0, None):
        p = propagate(c, m, r, restart_range=(lo, hi), interval=interval, which="exact")
        t = interval if interval is not None else float(exact_optimal_interval(c, m))
        factor = t / (m * math.expm1((t + c) / m))
        (swing,) = [s for s in one_at_a_time(p) if s.name == "restart"]
        assert swing.goodput_swing == pytest.approx(factor * (math.exp(-lo / m) - math.exp(-hi / m)), rel=1e-12)


def test_worked_example_numbers(pages: dict[str, page.Page]) -> None:
    """Worked example: M's 95% Garwood interval for 419 interruptions in 54 days is 168.6 to 204.7 min (shown
    169 to 205 min); by the exact model T* lies between 15.4 and 27.3 min (18.6 at the point values) and goodput at
    18.6 min between 81.0% and 90.3% (87.6%), 9.4 points wide; first order, labelled, 19.3 min and 86.9%; C's range
    moves goodput most (5.7 points, 83.1% to 88.8%), then R (2.4) and M (1.4)."""
    low, high = poisson_interval(419, 54 * 1440.0)
    assert (round(low, 1), round(high, 1)) == (168.6, 204.7)
    w = pages["worked"]
    assert (w.m_range, w.m_low, w.m_high, w.mtbi, w.confidence) == (Variant("count"), "169 min", "205 min",
                                                                      "186 min", "95%")
    assert (w.t_lies, w.t_where, w.interval) == (Variant("moves"), "between 15.4 min and 27.3 min", "18.6 min")
    assert w.regret == Variant("more")
    assert (w.range, w.interval, w.g_span, w.goodput, w.g_width) == (
        Variant("ranged"), "18.6 min", "between 81.0% and 90.3%", "87.6%", "9.4 points")
    assert (w.first_order, w.fo_interval, w.fo_goodput) == (Variant("ranged"), "19.3 min", "86.9%")
    assert w.exact_inputs == Variant("all")
    assert (w.dominant, w.top_input, w.top_swing, w.top_low, w.top_high) == (
        Variant("many"), "the checkpoint cost C", "5.7 points", "83.1%", "88.8%")
    assert w.swing_others == "the restart time R 2.4 points and the mean time between interruptions M 1.4 points"


def test_fleet_24k_numbers(fleets: dict[str, Params], pages: dict[str, page.Page]) -> None:
    """24,576 GPUs at 1.6e-5 per GPU-hour: M = 60 / (1.6e-5 x 24,576) = 152.6 min, taken as exact (a rate, no range
    given); the exact optimum with C = 40 s is 13.8 min; the swings are R's and C's only, M is left out."""
    params = fleets["24k"]
    assert params.mtbi == pytest.approx(60 / (1.6e-5 * 24576))
    p = pages["24k"]
    assert (p.m_range, p.mtbi, p.m_how) == (Variant("none"), "153 min",
                                               "as a rate, 1.6e-5 interruptions per GPU-hour on 24,576 GPUs")
    assert (p.c_range, p.c_low, p.c_high, p.cost) == (Variant("stated"), "30 s", "1 min 30 s", "40 s")
    assert (p.r_range, p.r_low, p.r_high, p.restart) == (Variant("stated"), "8 min", "20 min", "12 min")
    assert p.exact_inputs == Variant("some") and fleet_plan(fleets["24k"]).ranges.exact == ["mtbi"]
    assert p.interval == "13.8 min" and p.top_input == "the restart time R"
    assert (p.left_out, p.exact_words) == (Variant("listed"), "the mean time between interruptions M")
    frame = tables.swings_table(fleet_plan(params)).data
    assert list(frame["input"]) == ["restart time, R", "checkpoint cost, C", "all together"]


def test_fleet_32k_has_no_count_to_draw(pages: dict[str, page.Page]) -> None:
    """examples/fleet-32k.yml gives M as a rate with a stated range, 95 to 160 min: no counting interval, no
    Monte Carlo reading, and every input has a range."""
    p = pages["fleet-32k"]
    assert (p.m_range, p.m_low, p.m_high) == (Variant("stated"), "95 min", "160 min")
    assert p.exact_inputs == Variant("all") and p.mc == Variant("no_count")


def test_no_range_at_all(fleets: dict[str, Params], pages: dict[str, page.Page]) -> None:
    """With no range on any input, the page says so and reports the exact point values only (84.1% at 13.8 min);
    first order, quotable here, gives 14.3 min and 82.8%; one row of point values in the table."""
    p = pages["24k-no-ranges"]
    assert (p.exact_inputs, p.range, p.dominant, p.mc) == (Variant("none"), Variant("none"), Variant("none"),
                                                          Variant("no_count_no_range"))
    assert (p.first_order, p.fo_t, p.fo_g) == (Variant("point"), "14.3 min", "82.8%")
    frame = tables.swings_table(fleet_plan(fleets["24k-no-ranges"])).data
    assert len(frame) == 1
    assert frame["goodput"].iloc[0] == "84.1%" and frame["T*"].iloc[0] == "13.8 min"


def test_restart_range_alone(fleets: dict[str, Params], pages: dict[str, page.Page]) -> None:
    """R does not move the exact optimum, so with a range for R alone T* stays at 13.8 min, choosing the interval
    per corner gains nothing, and the one swing is the whole width."""
    r = fleet_plan(fleets["24k-restart-only"]).ranges
    assert r.best.optimal_interval_range[0] == r.best.optimal_interval_range[1] == r.plan.optimal_interval
    assert r.best.goodput_range[0] - r.fixed.goodput_range[0] == pytest.approx(0.0, abs=1e-12)
    p = pages["24k-restart-only"]
    assert (p.t_lies, p.interval, p.dominant) == (Variant("stays"), "13.8 min", Variant("one"))
    assert p.regret == Variant("none")
    (swing,) = r.swings
    assert swing.goodput_range == pytest.approx(r.fixed.goodput_range, rel=1e-12)


def test_single_value_range_is_exact(fleet_variant: Callable[..., Params]) -> None:
    """A range given as one value ([12 min, 12 min]) is no range: the input is named as taken as exact."""
    fleet = fleet_plan(fleet_variant("f.yml", ranges={"checkpoint_cost": ["30 s", "90 s"],
                                                      "restart": ["12 min", "12 min"]}))
    p = page.build(fleet)
    assert p.r_range == Variant("single")
    assert p.exact_inputs == Variant("some") and fleet.ranges.exact == ["mtbi", "restart"]


def test_monte_carlo_is_the_exact_models(fleets: dict[str, Params], pages: dict[str, page.Page]) -> None:
    """With M a count and one tier, the seeded draws are goodput.uncertainty.monte_carlo's by the exact model at the
    recommended interval, and their middle 95% lies inside the exact box."""
    r = fleet_plan(fleets["worked"]).ranges
    mc = monte_carlo(419, 54 * 1440.0, r.inputs["checkpoint_cost"].bounds, r.inputs["restart"].bounds,
                     interval=r.plan.optimal_interval, draws=whatif.DRAWS, seed=whatif.SEED, which="exact")
    p = pages["worked"]
    assert p.mc == Variant("drawn") and p.mc_draws == "100,000"
    assert (p.mc_low, p.mc_mid, p.mc_high) == tuple(f"{g:.1%}" for g in mc.goodput)
    assert r.fixed.goodput_range[0] <= mc.goodput[0] <= mc.goodput[2] <= r.fixed.goodput_range[1]
    assert p.mc_inside == Variant("inside")


@pytest.fixture(scope="module")
def tiered_count() -> FleetPlan:
    """The worked example (M a count, C and R ranges) with a drain and a persistent tier."""
    return fleet_plan(load_params().replace(drain=5.0, persistent_cost=4.0, persistent_restart=15.0,
                                            fast_survives=0.7))


@pytest.mark.slow
def test_a_tiered_fleets_monte_carlo_goes_through_its_scheme(tiered_count: FleetPlan) -> None:
    """Each draw is the fleet's scheme with the draw's C and R (C_p, R_p no smaller), at the plan's interval, by the
    tier model: with the inputs pinned every draw is the plan's goodput, the draws lie inside the box, and no
    one-tier number is quoted for the fleet."""
    p = page.build(tiered_count)
    assert p.mc == Variant("drawn_scheme") and p.mc_draws == "4,000"
    mc = monte_carlo(419, 54 * 1440.0, (0.75, 2.0), (3.0, 8.0), interval=tiered_count.interval, draws=whatif.SCHEME_DRAWS,
                     seed=whatif.SEED, which="exact", scheme=tiered_count.plan.tiers, params=tiered_count.params)
    assert mc.optimal_interval is None and mc.scheme == tiered_count.plan.tiers
    assert (p.mc_low, p.mc_mid, p.mc_high) == tuple(f"{g:.1%}" for g in mc.goodput)
    # with C and R exact and M pinned by a huge count, every draw is the plan's own scheme: its goodput
    m = tiered_count.params.mtbi
    pinned = monte_carlo(10**8, 10**8 * m, (1.0, 1.0), (5.0, 5.0), interval=tiered_count.interval, draws=200,
                         seed=whatif.SEED, which="exact", scheme=tiered_count.plan.tiers, params=tiered_count.params)
    assert pinned.goodput == pytest.approx((tiered_count.goodput,) * 3, abs=2e-4)
    low, high = tiered_count.ranges.fixed.goodput_range
    assert low <= mc.goodput[0] <= mc.goodput[2] <= high
    one_tier = monte_carlo(419, 54 * 1440.0, (0.75, 2.0), (3.0, 8.0), interval=tiered_count.interval,
                           draws=whatif.SCHEME_DRAWS, seed=whatif.SEED, which="exact")
    assert f"{one_tier.goodput[1]:.1%}" != p.mc_mid
    assert p.scheme == Variant("tiered") and p.scheme_words == scheme_words(tiered_count.plan)
    assert "persistent" in p.scheme_words and "drained in 5 min" in p.scheme_words


@pytest.mark.slow
def test_a_drain_without_a_persistent_tier_keeps_no_persistent_cadence() -> None:
    """A drain and one tier: the scheme variant is the drain's, its phrase the fleet's (scheme_words), and neither
    the scheme sentence nor the drawn reading speaks of a persistent cadence the fleet does not have."""
    fleet = fleet_plan(load_params().replace(drain=5.0))
    assert fleet.plan.tiers is not None and fleet.plan.tiers.one_tier
    p = page.build(fleet)
    assert p.scheme == Variant("drain") and p.scheme_words == scheme_words(fleet.plan)
    for field in ("scheme", "mc"):
        text = variant_text(p, field)
        assert "persistent" not in text and "{" not in text
    assert p.scheme_words in variant_text(p, "scheme")


@pytest.mark.slow
def test_the_65k_fleet_gives_no_first_order_number() -> None:
    """The 65k fleet's first order is 18.5 points off (refused): no first-order value on the page, and no range
    (nothing in its file has one), so nothing of zero width is shown as a range."""
    data = {"gpus": 65536, "rate_per_gpu_hour": 2.2e-5, "checkpoint_cost": "25 s", "slow_checkpoint_cost": "5 min",
            "restart": "15 min", "price_per_gpu_hour": 3.2, "month": "730 h", "drain": "4 min",
            "persistent": {"cost": "3 min", "restart": "25 min"}, "fast_survives": 0.75}
    p = page.build(fleet_plan(params_from_mapping(data, source="fleet-65k.yml")))
    assert (p.interval, p.goodput, p.first_order) == ("5.91 min", "44.2%", Variant("out_of_range"))
    assert p.fo_t == p.fo_g == p.fo_t_span == p.fo_g_span == ""
    assert p.range == Variant("none") and p.scheme_words == scheme_words(fleet_plan(params_from_mapping(data)).plan)
    assert "every 4th copy persistent" in p.scheme_words


def test_an_impossible_first_order_range_is_refused(fleet_variant: Callable[..., Params]) -> None:
    """Issue 18: a first-order range below 0 (here C up to 40 min at M = 153 min) is never quoted, even where first
    order is quotable at the point values."""
    params = fleet_variant("wide.yml", checkpoint_cost="20 s", ranges={"checkpoint_cost": ["10 s", "40 min"],
                                                                         "restart": ["8 min", "140 min"]})
    fleet = fleet_plan(params)
    first = ranges_for(params, fleet.first_order)
    assert fleet.first_order_quotable and min(first.fixed.goodput_range) <= 0  # floored at 0: none is negative
    p = page.build(fleet)
    assert p.first_order == Variant("impossible") and p.fo_g_span == ""  # the reason that applies, not both
    g_low, g_high = fleet.ranges.fixed.goodput_range
    assert 0.0 <= g_low <= g_high <= 1.0


@pytest.mark.parametrize("name", ["worked", "fleet-32k", "24k", "24k-no-ranges", "24k-restart-only"])
def test_variants_fill_and_no_range_reads_the_same_at_both_ends(fleets: dict[str, Params],
                                                                 pages: dict[str, page.Page], name: str) -> None:
    """Every variant fills; a range is never "40 s to 40 s" (single values are spans "at ..."); the file as named."""
    p = pages[name]
    assert p.inputs_file == fleets[name].source
    for field in ("scheme", "m_range", "c_range", "r_range", "exact_inputs", "range", "first_order", "dominant", "mc"):
        text = variant_text(p, field)
        assert "{" not in text and "nan" not in text.lower()
    for kind, low, high in ((p.c_range, p.c_low, p.c_high), (p.r_range, p.r_low, p.r_high),
                            (p.m_range, p.m_low, p.m_high)):
        if kind in (Variant("stated"), Variant("count")):  # the variants that quote a range quote two ends
            assert low != high
    assert figures.fleet_swings(fleet_plan(fleets[name])).axes


def test_how_m_was_given(fleets: dict[str, Params], fleet_variant: Callable[..., Params]) -> None:
    """M is said to be given as a count, a rate (written as the inputs file takes it) or a duration."""
    assert how_mtbi_given(fleet_plan(fleets["worked"])) == "as a count, 419 interruptions in 54 days"
    assert how_mtbi_given(fleet_plan(fleets["fleet-32k"])).startswith("as a rate, 1.5e-5 interruptions per GPU-hour")
    given = fleet_variant("m.yml", rate_per_gpu_hour=None, mtbi="6 h")
    assert how_mtbi_given(fleet_plan(given)) == "as a duration, 6 h"


def test_join_words_and_span() -> None:
    """Lists read "a", "a and b", "a, b and c" (report.join_words, the package's one joiner); a span whose ends read
    the same is one value."""
    assert [join_words(w) for w in (["a"], ["a", "b"], ["a", "b", "c"])] == ["a", "a and b", "a, b and c"]
    assert page.span("5 min", "5 min") == "at 5 min" and page.span("4 min", "5 min") == "between 4 min and 5 min"


@pytest.mark.slow
def test_a_tiered_example_fleets_ranges_are_its_schemes() -> None:
    """examples/fleet-24k.yml (drain, persistent tier, best cadence): the page's ranges are carried through the plan's
    scheme, and its point goodput is the plan's."""
    fleet = fleet_plan(load_params(ROOT / "examples" / "fleet-24k.yml"))
    ranges = fleet.ranges
    assert ranges.fixed.goodput == pytest.approx(ranges.plan.goodput, rel=1e-12)
    assert ranges.fixed.scheme == ranges.plan.tiers
    p = page.build(fleet)
    assert p.scheme == Variant("tiered") and p.goodput == f"{fleet.goodput:.1%}"


# --------------------------------------------------------------------------- every input of a tiered fleet's plan

RANGED_65K = {"gpus": 65536, "rate_per_gpu_hour": 2.2e-5, "checkpoint_cost": "25 s", "slow_checkpoint_cost": "5 min",
              "restart": "15 min", "price_per_gpu_hour": 3.2, "month": "730 h", "drain": "4 min",
              "persistent": {"cost": "3 min", "restart": "25 min"}, "fast_survives": 0.75,
              "ranges": {"checkpoint_cost": ["20 s", "40 s"], "mtbi": ["35 min", "50 min"], "drain": ["3 min", "6 min"],
                         "persistent_cost": ["2 min", "4 min"], "persistent_restart": ["20 min", "35 min"],
                         "fast_survives": [0.6, 0.85], "slow_checkpoint_cost": ["4 min", "8 min"]}}


@pytest.fixture(scope="module")
def ranged_65k() -> FleetPlan:
    """The 65k fleet of issue 18 with ranges on C, M, D, C_p, R_p, s and the slow checkpoint."""
    return fleet_plan(params_from_mapping(RANGED_65K, source="fleet-65k-ranges.yml"))


@pytest.mark.slow
def test_every_ranged_input_of_a_tiered_fleet_is_on_the_page(ranged_65k: FleetPlan) -> None:
    """The page lists the scheme's inputs with their ranges, takes R alone as exact, quotes T*'s range over all 64
    corners, holds the plan's 5.91 min and 44.2% inside its ranges, and names the widest swing (M's) first; the
    tables list every input (s as percentages) and one row per ranged input, widest first."""
    fleet, r = ranged_65k, ranged_65k.ranges
    p = page.build(fleet)
    assert (p.interval, p.goodput) == ("5.91 min", "44.2%")
    assert p.others == Variant("listed")
    for words in ("the drain D from 3 min to 6 min (4 min in the plan)",
                  "the persistent checkpoint cost C_p from 2 min to 4 min",
                  "the share s of interruptions the fast tier survives from 60% to 85% (75% in the plan)"):
        assert words in p.others_list
    assert r.exact == ["restart"] and p.corners_how == "all 64 corners of the box"
    t_low, t_high = r.best.optimal_interval_range
    assert t_low <= fleet.plan.optimal_interval <= t_high
    g_low, g_high = r.fixed.goodput_range
    assert 0.0 <= g_low < fleet.goodput < g_high <= 1.0
    assert r.swings[0].name == "mtbi" and p.top_input == "the mean time between interruptions M"
    assert len(r.swings) == 6 and "restart" not in [s.name for s in r.swings]
    swings = tables.swings_table(fleet).data
    assert list(swings["input"])[:6] == [INPUT_NAMES[s.name] for s in r.swings]
    inputs = tables.inputs_range_table(fleet).data.set_index("input")
    assert inputs.loc["interruptions the fast tier survives, s", "range"] == "60% to 85%"
    assert inputs.loc["interruptions the fast tier survives, s", "value"] == "75%"
    # the slow checkpoint moves only the comparison: its own goodput range, by the one-tier model it is planned with
    assert p.slow_range == Variant("given") and r.slow is not None
    assert r.slow.goodput_range[0] < fleet.slow.goodput < r.slow.goodput_range[1]
    assert p.range == Variant("ranged") and p.mc == Variant("no_count")
    assert p.drain_note == Variant("longer")  # D up to 6 min is longer than the 5.91 min interval: the page says what the case does
    for field in ("others", "slow_range", "range", "dominant", "scheme"):
        assert "{" not in variant_text(p, field)


def test_a_range_beyond_the_bound_is_said_to_be_a_sample() -> None:
    """Seven inputs with a range are more than the six whose corners are all computed: the page says the T* range
    is over a seeded sample and how many of the 128 corners it took."""
    words = page.corners_how(7, 66, True)
    assert "sample of 66 of the box's 128 corners" in words and "six" in words and "seven" in words


@pytest.mark.slow
def test_a_drawn_reading_goes_through_the_plan_with_every_ranged_input(tiered_count: FleetPlan) -> None:
    """With M a count and s ranged as well, the page's draws are monte_carlo's through the fleet's plan with s drawn
    too, and they differ from the draws with s held."""
    params = tiered_count.params.replace(ranges={**tiered_count.params.ranges, "fast_survives": (0.5, 0.9)})
    fleet = fleet_plan(params)
    p = page.build(fleet)
    mc = monte_carlo(419, 54 * 1440.0, (0.75, 2.0), (3.0, 8.0), interval=fleet.interval, draws=whatif.SCHEME_DRAWS,
                     seed=whatif.SEED, which="exact", scheme=fleet.plan.tiers, params=params,
                     ranges={name: fleet.ranges.inputs[name].bounds for name in page.OTHER_INPUTS
                             if name in fleet.ranges.inputs})
    assert p.mc == Variant("drawn_scheme") and (p.mc_low, p.mc_mid, p.mc_high) == tuple(f"{g:.1%}" for g in mc.goodput)
    assert "s" in p.mc_how.split(" uniformly")[0] and p.mc_recovery == ""
    assert p.scheme_words in " ".join(variant_text(p, "mc").split())
    held = page.build(tiered_count)
    assert (held.mc_low, held.mc_high) != (p.mc_low, p.mc_high)


def test_young_label_is_not_escaped_twice(pages: dict[str, page.Page]) -> None:
    """The first-order label, a variant quoted in a variant, escapes 'T*' once: it shows as T*, not as 'T\\*'."""
    from goodput.book import variant_text

    young = [p for p in pages.values() if p.fo_label == Variant("young")]
    texts = [variant_text(p, "first_order") for p in young]
    assert texts and all("Young's T\\* = √(2CM)" in t for q, t in zip(young, texts, strict=True)
                         if q.first_order.name in ("point", "ranged"))
    assert all("T\\*" in t and "T\\\\" not in t for t in texts if "Young's T" in t)


def test_a_first_order_below_zero_says_so(book: Params) -> None:
    """M = 25 min, C = 6 min, R = 8 min: first order's goodput is 1 − 6/17.3 − 17.3/50 − 8/25 < 0; the page gives
    that reason, not "outside its range"."""
    fleet = fleet_plan(book.replace(mtbi=25.0, checkpoint_cost=6.0, slow_checkpoint_cost=12.0, restart=8.0, ranges={}))
    assert fleet.first_order_status == "below zero"
    assert page.build(fleet).first_order == Variant("below_zero")


def test_a_stated_range_s_ends_are_written_alike() -> None:
    """C's stated range of 3.05 min to 6.54 min: both ends in decimal minutes on the page, in its sentence and in its
    list, where the low end read '3 min 3 s' beside '6.54 min'; the worked example's 45 s to 2 min stays."""
    built = page.build(fleet_plan(load_params().replace(checkpoint_cost=4.36, ranges={"checkpoint_cost": (3.05, 6.54)})))
    assert (built.c_low, built.c_high) == ("3.05 min", "6.54 min")
    worked = page.build(fleet_plan(load_params()))
    assert (worked.c_low, worked.c_high) == ("45 s", "2 min")


def test_a_spare_pool_and_planned_stops_are_named_as_taken_as_exact() -> None:
    """256 GPUs with two spare nodes: 58.9 of R's 68.9 min is the wait for repairs the pool sets. The page said "This
    fleet's plan has no other input"; the pool (and planned stops, where given) are now named as taken as exact."""
    from goodput.params import params_from_mapping

    base = {"gpus": 256, "mtbi": "5 days", "checkpoint_cost": "3 min", "slow_checkpoint_cost": "12 min",
            "restart": "10 min", "price_per_gpu_hour": 14, "month": "730 h"}
    pool = {"spares": {"nodes": 2, "repair": "3 days", "takes_node": 0.7}, "planned": {"rate": "0.5 per day"}}
    text = page.given_exact(params_from_mapping(base | pool))
    assert "2 nodes" in text and "58.9 min of R" in text and "0.5 a day (one every 2 days)" in text
    assert page.given_exact(params_from_mapping(base)) == ""


def test_the_widest_swing_s_ends_differ_by_the_swing_as_written() -> None:
    """The tiered 48k fleet's share s moves goodput 3.56 points, from 59.48% to 63.04%: the page said "3.6 points ...
    from 59.5% to 63.0%", ends that differ by 3.5."""
    from pathlib import Path

    from goodput.params import load_params

    path = next((Path(__file__).parent / "data").glob("tiered-48k*"))
    built = page.build(fleet_plan(load_params(path)))
    assert (built.top_swing, built.top_low, built.top_high) == ("3.6 points", "59.48%", "63.04%")
