"""The derivation chapter's numbers and sentences (goodput.pages.derivation), for the worked example and a fleet
unlike it (24,576 GPUs, 1.6e-5 per GPU-hour, C = 40 s, R = 12 min): first order labelled, the exact interval beside it.
"""

from __future__ import annotations

import math

from goodput.pages import derivation as pages
from goodput.params import Params
from goodput.plan import plan_for
from goodput.units import format_duration


def test_sympy_steps_are_latex_of_the_derivation() -> None:
    """Three minimization steps (f, df/dT, two roots ±sqrt(2CM)) and four checks (T*, f'' > 0, difference 0, f(T*))."""
    steps, checks = pages.minimization(), pages.optimum()
    assert len(steps) == 3 and len(checks) == 4
    assert steps[0] == r"f(T) = \frac{C}{T} + \frac{T}{2 M}"
    assert r"- \sqrt{2} \sqrt{C} \sqrt{M}, \sqrt{2} \sqrt{C} \sqrt{M}" in steps[2]
    assert checks[0] == r"T^{*} = \sqrt{2} \sqrt{C} \sqrt{M}" and checks[1].endswith("> 0")
    assert checks[2].endswith("= 0")


def test_worked_example_values_are_first_order_and_labelled(book: Params) -> None:
    """C = 1 min, M = 185.6 min: 2CM = 371 min², T* = 19.3 min (symbolic 19.2658), each term C/T* = 5.2%,
    f(T*) = sqrt(2C/M) = 10.4%; halving or doubling T costs f(T*)/4 = 2.6 points."""
    d = pages.for_these_inputs(book)
    assert "params.yml (the brief's worked example)" in d["d_values"]
    assert "2CM = 371 min²" in d["d_values"] and "first order gives T* = √(2CM) = 19.3 min" in d["d_values"]
    assert f"{math.sqrt(2 * 54 * 1440 / 419):.4f} min" == "19.2658 min" and "19.2658 min" in d["d_values"]
    f_star = math.sqrt(2 * 1.0 / (54 * 1440 / 419))
    assert d["d_term"] == f"{50 * f_star:.1f}%" == "5.2%" and d["d_f_star"] == f"{100 * f_star:.1f}%"
    assert d["d_half_cost"] == d["d_double_cost"] == f"{100 * f_star / 4:.1f} points" == "2.6 points"
    assert d["d_half"] == "9.63 min" and d["d_double"] == "38.5 min"
    assert "0.7 points below the exact model" in d["d_range"]


def test_the_recommended_interval_is_the_exact_models(book: Params, fleet: Params) -> None:
    """The sentence naming the interval to use gives plan_for's exact optimum and goodput (18.6 min, 87.6%)."""
    for params in (book, fleet):
        plan = plan_for(params)
        d = pages.for_these_inputs(params)
        assert f"at {format_duration(plan.interval)}, with goodput {100 * plan.goodput:.1f}%" in d["d_exact"]
        assert d["d_exact"].startswith("The exact model")
    assert "18.6 min, with goodput 87.6%" in pages.for_these_inputs(book)["d_exact"]


def test_a_fleet_unlike_the_worked_example(fleet: Params) -> None:
    """C = 2/3 min, M = 152.6 min: 2CM = 203 min², T* = 14.3 min by first order; first order drops 1.3 points
    (a caution), and the slow 4-minute checkpoint is out of range, so the page carries the warning."""
    d = pages.for_these_inputs(fleet)
    m = 60 / (1.6e-5 * 24576)
    assert "fleet-24k.yml" in d["d_values"] and "brief" not in d["d_values"]
    assert f"2CM = {2 * (40 / 60) * m:.0f} min²" in d["d_values"]
    assert f"T* = √(2CM) = {format_duration(math.sqrt(2 * 40 / 60 * m))}" in d["d_values"]
    assert "underestimates goodput" in d["d_range"]
    (warning,) = pages.warnings(fleet)
    assert warning.startswith("**Warning: for the slow checkpoint")


def test_no_warning_for_the_worked_example(book: Params) -> None:
    """The worked example is within first order's range for both checkpoints: no warning."""
    assert pages.warnings(book) == []


def test_out_of_range_says_so_beside_the_numbers(book: Params) -> None:
    """M = 20 min with C = 5 min: first order is out of range, and the sentence says the numbers are not to be used."""
    params = book.replace(mtbi=20.0, checkpoint_cost=5.0)
    assert "not to be used" in pages.range_sentence(params)
