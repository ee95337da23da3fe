"""The uncertainty page (goodput.pages.uncertainty): its ranges are the exact model's, its sentences say which
inputs have a range, and nothing of zero width is shown as a range.

Checked with the worked example (M a count, with its Poisson interval; stated ranges of C and R), the example
fleet (examples/fleet-32k.yml: M a rate with a stated range), a 24,576-GPU fleet with C and R ranges but none
for M, the same fleet with no range at all, and one with a range for R alone.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from goodput import model
from goodput.exact import exact_goodput, exact_optimal_interval
from goodput.pages import uncertainty as page
from goodput.params import Params, load_params
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


def all_text(params: Params) -> dict[str, str]:
    """Every sentence the page glues, by key."""
    out: dict[str, str] = {}
    for section in (page.intro, page.inputs_section, page.propagated, page.dominant, page.probabilistic):
        out.update(section(params))
    return out


# --------------------------------------------------------------------------- the numbers are the exact model's


@pytest.mark.parametrize("name", ["worked", "fleet-32k", "24k"])
def test_ranges_are_the_exact_models_corners(fleets: dict[str, Params], name: str) -> None:
    """T*'s range is (T*(C_low, M_low), T*(C_high, M_high)) by the exact (Lambert-W) optimum, and goodput's, at the
    recommended interval T, is (G(C_high, M_low, R_high; T), G(C_low, M_high, R_low; T)) with
    G = T e^{-R/M} / (M (e^{(T+C)/M} - 1)): the model the recommendation comes from."""
    params = fleets[name]
    r = page.ranges_for(params)
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
    r = page.ranges_for(params)
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


def test_worked_example_numbers(fleets: dict[str, Params]) -> None:
    """Worked example: M's 95% Garwood interval for 419 interruptions in 54 days is 168.6 to 204.7 min (shown
    169 to 205 min); by the exact model T* lies between 15.4 and 27.3 min (18.6 at the point values) and goodput at
    18.6 min between 81.0% and 90.3% (87.6%); first order, labelled, gives 19.3 min and 86.9%."""
    low, high = poisson_interval(419, 54 * 1440.0)
    assert (round(low, 1), round(high, 1)) == (168.6, 204.7)
    text = all_text(fleets["worked"])
    assert "169 min to 205 min, around 186 min" in text["m_text"]
    assert "T* lies between 15.4 min and 27.3 min (18.6 min at the point values)" in text["range_text"]
    assert "goodput lies between 81.0% and 90.3% (87.6% at the point values): a range 9.4 points wide" \
        in text["range_text"]
    assert text["first_order_text"].startswith("First order")
    assert "19.3 min" in text["first_order_text"] and "86.9%" in text["first_order_text"]
    assert "19.3 min" not in text["range_text"] and "86.9%" not in text["range_text"]
    assert text["exact_text"] == "Every input has a range."
    assert text["dominant_text"].startswith(
        "With the others at their point values and the interval fixed at 18.6 min, the checkpoint cost C alone moves "
        "goodput 5.7 points over its range, from 83.1% to 88.8% by the exact model; the restart time R 2.4 points and "
        "the mean time between interruptions M 1.4 points.")


def test_fleet_24k_numbers(fleets: dict[str, Params]) -> None:
    """24,576 GPUs at 1.6e-5 per GPU-hour: M = 60 / (1.6e-5 x 24,576) = 152.6 min, taken as exact (a rate, no range
    given); the exact optimum with C = 40 s is 13.8 min; the swings are R's and C's only."""
    params = fleets["24k"]
    assert params.mtbi == pytest.approx(60 / (1.6e-5 * 24576))
    text = all_text(params)
    assert "1.6e-5 interruptions per GPU-hour on 24,576 GPUs" in text["m_text"]
    assert "taken as exact at 153 min" in text["m_text"]
    assert text["cr_text"] == ("The checkpoint cost C has the range you gave, 30 s to 1 min 30 s, around 40 s. "
                               "The restart time R has the range you gave, 8 min to 20 min, around 12 min.")
    assert text["exact_text"].startswith("Taken as exact, for want of a range: the mean time between interruptions M.")
    assert "(13.8 min at the point values)" in text["range_text"]
    assert "both inputs at their worst" in text["range_text"]
    assert text["dominant_text"].endswith("Taken as exact, and so left out: the mean time between interruptions M.")
    figure = page.swings_figure(params)
    assert [label.split("\n")[0] for label in figure["labels"]] == ["restart time, R", "checkpoint cost, C"]
    assert figure["exact"] == ["mean time between interruptions, M"] and figure["box_label"] == "both together"
    table = page.swings_table(params)
    assert list(table["input"]) == ["restart time, R", "checkpoint cost, C", "both together"]


def test_fleet_32k_numbers(fleets: dict[str, Params]) -> None:
    """examples/fleet-32k.yml gives M as a rate with a stated range, 95 to 160 min: no counting interval, no
    Monte Carlo reading, and every input has a range."""
    text = all_text(fleets["fleet-32k"])
    assert "not as a count, so it has no counting interval; the range you gave for it is 95 min to 160 min" \
        in text["m_text"]
    assert text["exact_text"] == "Every input has a range."
    assert "no count to draw its rate from; the range above is the one this book gives" in text["mc_text"]


# --------------------------------------------------------------------------- no range, one range


def test_no_range_at_all(fleets: dict[str, Params]) -> None:
    """With no range on any input, the page says so, reports the exact point values only, draws no bar and lists
    one row of point values: nothing of zero width is presented as a range."""
    params = fleets["24k-no-ranges"]
    text = all_text(params)
    assert text["exact_text"].startswith("No input has a range")
    assert "between" not in text["range_text"] and "no range to report" in text["range_text"]
    assert text["range_text"].startswith("With no range on any input, the exact model gives one optimum, 13.8 min")
    assert "gives 14.3 min and 82.8% for the same inputs" in text["first_order_text"]
    assert text["dominant_text"].startswith("No input has a range")
    assert text["cr_text"] == "You gave no range for C or R, so they are taken as exact at 40 s and 12 min."
    assert "C and R have no range to draw from either" in text["mc_text"]
    figure = page.swings_figure(params)
    assert figure["labels"] == [] and figure["ranges"] == [] and figure["box"] is None and len(figure["exact"]) == 3
    table = page.swings_table(params)
    assert len(table) == 1 and table["width (points)"].iloc[0] == 0.0
    assert table["goodput"].iloc[0] == "84.1%" and table["T*"].iloc[0] == "13.8 min"


def test_restart_range_alone(fleets: dict[str, Params]) -> None:
    """R does not move the exact optimum, so with a range for R alone T* stays at 13.8 min, choosing the interval
    per corner gains nothing, the one swing is the whole width, and no 'together' bar repeats it."""
    params = fleets["24k-restart-only"]
    r = page.ranges_for(params)
    assert r.best.optimal_interval_range[0] == r.best.optimal_interval_range[1] == r.plan.optimal_interval
    assert r.best.goodput_range[0] - r.fixed.goodput_range[0] == pytest.approx(0.0, abs=1e-12)
    text = all_text(params)
    assert "T* stays at 13.8 min: neither C nor M has a range, and R does not move the optimum" in text["range_text"]
    assert "no more at the low end to a tenth of a point" in text["range_text"]
    assert "what the one uncertain input allows" in text["range_text"]
    (swing,) = r.swings
    assert text["dominant_text"].startswith("Only the restart time R has a range, so the whole width comes from it")
    assert swing.goodput_range == pytest.approx(r.fixed.goodput_range, rel=1e-12)
    figure = page.swings_figure(params)
    assert len(figure["labels"]) == 1 and figure["box"] is None
    assert len(page.swings_table(params)) == 1


def test_single_value_range_is_exact(fleet_variant: Callable[..., Params]) -> None:
    """A range given as one value ([12 min, 12 min]) is no range: the input is named as taken as exact."""
    params = fleet_variant("f.yml", ranges={"checkpoint_cost": ["30 s", "90 s"], "restart": ["12 min", "12 min"]})
    text = page.inputs_section(params)
    assert text["cr_text"].endswith("The range you gave for the restart time R is the single value 12 min, so it is "
                                    "taken as exact.")
    assert text["exact_text"].startswith("Taken as exact, for want of a range: the mean time between interruptions M "
                                         "and the restart time R.")
    assert [label.split("\n")[0] for label in page.swings_figure(params)["labels"]] == ["checkpoint cost, C"]


# --------------------------------------------------------------------------- the probabilistic reading


def test_monte_carlo_is_the_exact_models(fleets: dict[str, Params]) -> None:
    """With M a count, the seeded draws are goodput.uncertainty.monte_carlo's by the exact model at the recommended
    interval, and their middle 95% lies inside the exact box."""
    params = fleets["worked"]
    r = page.ranges_for(params)
    mc = monte_carlo(419, 54 * 1440.0, r.inputs["checkpoint_cost"].bounds, r.inputs["restart"].bounds,
                     interval=r.plan.optimal_interval, draws=page.DRAWS, seed=page.SEED, which="exact")
    text = page.probabilistic(params)["mc_text"]
    assert f"between {mc.goodput[0]:.1%} and {mc.goodput[2]:.1%} (median {mc.goodput[1]:.1%})" in text
    assert "100,000 draws by the exact model" in text and "lies inside the box above" in text
    assert r.fixed.goodput_range[0] <= mc.goodput[0] <= mc.goodput[2] <= r.fixed.goodput_range[1]


# --------------------------------------------------------------------------- words


@pytest.mark.parametrize("name", ["worked", "fleet-32k", "24k", "24k-no-ranges", "24k-restart-only"])
def test_prose_has_no_key_paths_names_or_empty_ranges(fleets: dict[str, Params], name: str) -> None:
    """No sentence names a key path (ranges.x), a function (goodput.x), a file other than the inputs file, or a
    range whose two ends read the same ("40 s to 40 s")."""
    text = all_text(fleets[name])
    inputs_file = text.pop("inputs_file")
    assert inputs_file == fleets[name].source
    labels = page.swings_figure(fleets[name])["labels"]
    for key, sentence in [*text.items(), *(("label", label) for label in labels)]:
        assert "ranges." not in sentence and "goodput." not in sentence and "_" not in sentence, (key, sentence)
        assert ".yml" not in sentence and ".py" not in sentence, (key, sentence)
        assert not re.search(r"(\d[\d.,]* ?(?:min|s|h|%|days)) (?:to|and) \1(?!\d)", sentence), (key, sentence)
        assert "none in" not in sentence, (key, sentence)


def test_rate_and_how_m_was_given(fleets: dict[str, Params], fleet_variant: Callable[..., Params]) -> None:
    """M is said to be given as a count, a rate (written as the inputs file takes it) or a duration."""
    assert page.how_mtbi_given(fleets["worked"]) == "as a count, 419 interruptions in 54 days"
    assert page.how_mtbi_given(fleets["fleet-32k"]).startswith("as a rate, 1.5e-5 interruptions per GPU-hour")
    given = fleet_variant("m.yml", rate_per_gpu_hour=None, mtbi="6 h")
    assert page.how_mtbi_given(given) == "as a duration, 6 h"


def test_join_words_and_span() -> None:
    """Lists read "a", "a and b", "a, b and c"; a span whose ends read the same is one value."""
    assert [page.join_words(w) for w in (["a"], ["a", "b"], ["a", "b", "c"])] == ["a", "a and b", "a, b and c"]
    assert page.span("5 min", "5 min") == "at 5 min" and page.span("4 min", "5 min") == "between 4 min and 5 min"
    assert page.span_cell("5 min", "5 min") == "5 min" and page.span_cell("4 min", "5 min") == "4 min to 5 min"



def test_a_tiered_fleets_ranges_are_its_schemes() -> None:
    """For the 24k example (drain, persistent tier, best cadence) the page's point goodput is the plan's, the model
    sentence says the scheme is in every range, and there is no one-tier Monte Carlo reading."""
    tiered = load_params(Path(__file__).resolve().parent.parent / "examples" / "fleet-24k.yml")
    ranges = page.ranges_for(tiered)
    assert ranges.fixed.goodput == pytest.approx(ranges.plan.goodput, rel=1e-12)
    assert ranges.fixed.scheme == ranges.plan.tiers
    assert "drain and persistent tier are part of every range" in page.intro(tiered)["model_text"]
    assert "outside it" in page.probabilistic(tiered)["mc_text"]
    first = page.first_order_paragraph(ranges, page.ranges_for(tiered, "first-order"))
    assert "first-order formulas of this fleet's scheme" in first and "the formula the brief uses" not in first
