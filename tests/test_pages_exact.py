"""The exact-model page's numbers and sentences (goodput.pages.exact_model).

Checked with the worked example and with a fleet unlike it (24,576 GPUs, 1.6e-5 interruptions per GPU-hour,
C = 40 s, R = 12 min); the page calls its inputs the brief's worked example only when they are.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from numpy.testing import assert_allclose
from scipy.special import lambertw

from goodput import exact, model
from goodput.pages import exact_model as pages
from goodput.params import Params, load_params
from goodput.units import format_duration


@pytest.fixture(params=["worked", "fleet"])
def inputs(request: pytest.FixtureRequest, worked: Params, fleet: Params) -> Params:
    return worked if request.param == "worked" else fleet


def test_inputs_are_named_for_what_they_are(worked: Params, fleet: Params) -> None:
    """The worked example is called so; another fleet's numbers are called this build's inputs, with its file."""
    assert pages.opening(worked)["inputs"] == "the brief's worked example"
    assert pages.opening(fleet)["inputs"] == "the inputs of fleet-24k.yml"
    assert pages.opening(fleet)["cost"] == "40 s" and pages.opening(fleet)["restart"] == "12 min"
    assert "fleet-24k.yml" in pages.breakdown_table(fleet)["caption"]
    assert pages.opening(fleet)["tier_note"] == ""
    tiered = load_params(Path(__file__).resolve().parent.parent / "examples" / "fleet-24k.yml")
    assert "drain and persistent tier are left out" in pages.opening(tiered)["tier_note"]


def test_series_first_order_part_is_the_packages() -> None:
    """SymPy's first-order part minus 1 - C/T - T/(2M) - R/M simplifies to zero; G2 has the five positive terms."""
    equations = pages.series_equations()
    assert equations[-1].endswith("= 0")
    assert equations[2].count("+") == 4 and "-" not in equations[2]


def test_young_comparison_gap_is_mostly_second_order(inputs: Params) -> None:
    """At sqrt(2CM), exact minus first order is the second-order term plus terms of third order, a small share."""
    words = pages.young_comparison(inputs)
    c, m, r = inputs.checkpoint_cost, inputs.mtbi, inputs.restart
    t = math.sqrt(2 * c * m)
    gap = exact.exact_goodput(c, m, r, t) - model.goodput(c, m, r, t)
    assert words["gap"] == f"{100 * gap:.2f} points"
    assert words["t_young"] == format_duration(t)
    assert int(words["rest_share"].rstrip("%")) < 10


def test_breakdown_exact_keeps_more(inputs: Params) -> None:
    """At its own optimum the exact model keeps more than first order says (every G2 term is positive)."""
    words = pages.breakdown(inputs)
    assert words["exact_vs_first"].endswith("more")
    frame = pages.breakdown_table(inputs)["frame"]
    assert list(frame[""]) == ["interval T*", "checkpoint overhead", "lost work", "restart", "goodput"]


def test_optimum_three_ways_and_restart_does_not_move_it(inputs: Params) -> None:
    """T* = M (1 + W0(-e^{-(1 + C/M)})) by Lambert W, SymPy and a minimizer agree to six digits; Young's is longer;
    R does not appear in the derivative divided by e^{R/M}, and the minimizer's optimum does not move with R."""
    words = pages.optimum(inputs)
    c, m = inputs.checkpoint_cost, inputs.mtbi
    closed = m * (1 + lambertw(-math.exp(-(1 + c / m))).real)
    assert words["t_lambert"] == words["t_symbolic"] == words["t_numerical"] == format_duration(closed, 6)
    assert words["young_longer"].endswith("longer")
    assert words["r_in_derivative"] == "does not contain"
    assert words["r_moves"] == "does not move"
    assert words["r_high"] == format_duration(10 * inputs.restart)


def test_estimates_at_c_equal_m() -> None:
    """At C = M: exact T*/M = 1 + W0(-e^{-2}) = 0.8414, Young's sqrt(2) is 68% longer, Daly's
    sqrt(2)(1 + 1/(3 sqrt 2) + 1/18) - 1 = 0.8261 is 1.8% short."""
    words = pages.estimates(load_params())
    exact_t = 1 + lambertw(-math.exp(-2)).real
    daly = math.sqrt(2) * (1 + 1 / (3 * math.sqrt(2)) + 1 / 18) - 1
    assert words["young_excess_at_1"] == f"{math.sqrt(2) / exact_t - 1:.0%}" == "68%"
    assert words["daly_rel_at_1"] == f"{1 - daly / exact_t:.1%}" == "1.8%"


def test_estimates_at_the_fleets_ratio(fleet: Params) -> None:
    """The fleet's C/M is (2/3)/M; Daly's interval is exact.daly_interval, and the figure marks that C/M."""
    words = pages.estimates(fleet)
    assert words["ratio"] == f"{(2 / 3) / fleet.mtbi:.4f}"
    daly = float(exact.daly_interval(2 / 3, fleet.mtbi))
    assert words["daly"] == format_duration(daly, 6)
    # Daly's estimate lies just below the exact optimum for 0 < C <= M (goodput.exact.daly_interval).
    shortfall = float(exact.exact_optimal_interval(2 / 3, fleet.mtbi)) - daly
    assert words["daly_diff"] == f"{format_duration(shortfall, 2)} shorter"
    assert_allclose(pages.estimates_figure(fleet)["mark"], (2 / 3) / fleet.mtbi)
    frame = pages.estimates_table(fleet)["frame"]
    assert list(frame["C/M"]) == ["0.0001", "0.001", "0.01", "0.1", "0.3", "1"]
