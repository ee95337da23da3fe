"""Tests of the exact exponential model, its Lambert-W optimum and Daly's estimate (the SymPy derivations: test_symbolic.py)."""

from __future__ import annotations

import math
import subprocess
import sys
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy.optimize import minimize_scalar

from goodput import model
from goodput.errors import InputError
from goodput.exact import (
    daly_interval,
    exact_goodput,
    exact_losses,
    exact_optimal_interval,
    first_order_error,
    first_order_error_threshold,
    first_order_zero_fleet,
    numerical_optimal_interval,
)

#: C/M from 1e-4 to 1, the range the optimum is checked over.
RATIOS = np.logspace(-4.0, 0.0, 21)


def wall_time_per_work(interval: float, checkpoint_cost: float, mtbi: float, restart: float) -> float:
    """The brief's expected wall time per minute of work, M e^{R/M} (e^{(T+C)/M} - 1) / T, written out independently."""
    return mtbi * math.exp(restart / mtbi) * (math.exp((interval + checkpoint_cost) / mtbi) - 1.0) / interval


@pytest.mark.parametrize("mtbi", [1.0, 185.6])
def test_optimum_matches_numerical_minimization(mtbi: float) -> None:
    """T* = M (1 + W0(-e^{-(1 + C/M)})) is where a numerical minimizer finds the least wall time per work."""
    restart = 0.05 * mtbi
    for ratio in RATIOS:
        cost = ratio * mtbi
        young = math.sqrt(2.0 * cost * mtbi)
        found = minimize_scalar(
            wall_time_per_work,
            bounds=(0.05 * young, min(2.0 * young, mtbi)),
            args=(cost, mtbi, restart),
            method="bounded",
            options={"xatol": 1e-10 * young},
        )
        assert found.success
        assert_allclose(exact_optimal_interval(cost, mtbi), found.x, rtol=1e-6, err_msg=f"C/M = {ratio}")


def test_optimum_satisfies_its_equation() -> None:
    """At the optimum the derivative vanishes: e^{(T+C)/M} (1 - T/M) = 1, for C/M from 1e-4 to 1 (as an array)."""
    optimum = exact_optimal_interval(RATIOS, np.ones_like(RATIOS))
    assert isinstance(optimum, np.ndarray) and optimum.shape == RATIOS.shape
    assert_allclose(np.exp(optimum + RATIOS) * (1.0 - optimum), 1.0, rtol=1e-13)


def test_optimum_is_accurate_near_the_branch_point() -> None:
    """For tiny C/M (W0 near its branch point -1/e) T*/M agrees with 50-digit mpmath to 1e-13."""
    import mpmath

    mpmath.mp.dps = 50
    ratios = [1e-14, 1e-10, 1e-7, 1e-5, 9e-5, 1.1e-4, 1e-3, 0.2, 3.0]
    for ratio in ratios:
        reference = 1 + mpmath.lambertw(-mpmath.exp(-(1 + mpmath.mpf(ratio))))
        assert_allclose(exact_optimal_interval(ratio, 1.0), float(reference), rtol=1e-13, err_msg=f"C/M = {ratio}")


def test_optimum_tends_to_young() -> None:
    """As C/M -> 0, T* -> sqrt(2CM) with relative difference sqrt(2C/M)/3 + O(C/M): O(sqrt(C/M))."""
    ratios = np.logspace(-8.0, -3.0, 11)
    young = np.sqrt(2.0 * ratios)
    relative = (young - exact_optimal_interval(ratios, 1.0)) / exact_optimal_interval(ratios, 1.0)
    assert np.all(relative > 0.0)
    assert_allclose(relative / young, 1.0 / 3.0, rtol=0.02)


def test_daly_lies_between_and_is_higher_order() -> None:
    """Daly's estimate is just below T* and Young's above, for 0 < C/M <= 1; Daly's relative error is
    about -0.0105 (C/M)^{3/2} (so at most 0.02 (C/M)^{3/2}), Young's about sqrt(2C/M)/3."""
    ratios = np.logspace(-6.0, 0.0, 25)
    exact = exact_optimal_interval(ratios, 1.0)
    daly = daly_interval(ratios, 1.0)
    assert np.all(daly < exact)
    assert np.all(exact < np.sqrt(2.0 * ratios))
    error = np.abs(daly - exact) / exact
    assert np.all(error <= 0.02 * ratios**1.5)
    assert_allclose(error[ratios < 1e-4] / ratios[ratios < 1e-4] ** 1.5, 0.0105, rtol=0.02)


def test_daly_beyond_its_range() -> None:
    """Daly's estimate is T = M when C >= 2M."""
    assert daly_interval(300.0, 100.0) == 100.0
    assert_allclose(daly_interval(np.array([200.0, 1.0]), 100.0)[0], 100.0)


def test_worked_example() -> None:
    """At C = 1, M = 185.6, R = 5 the exact optimum is 18.61 min (Young: 19.27) and exact goodput 87.6%,
    within half a point of first order's 86.9% (the first-order formula is good here)."""
    assert_allclose(exact_optimal_interval(1.0, 185.6), 18.6057, atol=1e-4)
    first_order = 1.0 - 1.0 / math.sqrt(371.2) - math.sqrt(371.2) / 371.2 - 5.0 / 185.6
    assert abs(exact_goodput(1.0, 185.6, 5.0) - first_order) < 0.01


def test_restart_does_not_move_the_optimum() -> None:
    """R multiplies the wall time per work by e^{R/M} for every T, so the minimizer is the same for any R."""
    for restart in (0.1, 5.0, 100.0):
        found = minimize_scalar(wall_time_per_work, bounds=(1.0, 60.0), args=(1.0, 185.6, restart), method="bounded")
        assert_allclose(found.x, exact_optimal_interval(1.0, 185.6), rtol=1e-5)


def test_goodput_is_reciprocal_of_wall_time() -> None:
    """Exact goodput is 1 / (wall time per work) and, at the optimum, the best over a grid of intervals."""
    intervals = np.linspace(5.0, 60.0, 200)
    goodputs = exact_goodput(1.0, 185.6, 5.0, intervals)
    assert_allclose(goodputs, [1.0 / wall_time_per_work(t, 1.0, 185.6, 5.0) for t in intervals], rtol=1e-12)
    assert goodputs.max() <= exact_goodput(1.0, 185.6, 5.0)


def test_exact_losses_worked_example() -> None:
    """The breakdown at the worked example: restart 1 - e^{-R/M}; lost work e^{-R/M}(1 - x/(e^x - 1)), x = (T+C)/M,
    which tends to first order's T/(2M) when (T+C)/M is small."""
    b = exact_losses(1.0, 185.6, 5.0)
    assert_allclose(b.restart_loss, 1.0 - math.exp(-5.0 / 185.6), rtol=1e-14)
    x = (b.interval + 1.0) / 185.6
    assert_allclose(b.lost_work, math.exp(-5.0 / 185.6) * (1.0 - x / math.expm1(x)), rtol=1e-12)
    assert_allclose(b.goodput, exact_goodput(1.0, 185.6, 5.0), rtol=1e-14)
    tiny = exact_losses(1e-9, 1.0, 1e-9, 1e-6)
    assert_allclose(tiny.lost_work, (1e-6 + 1e-9) / 2.0, rtol=1e-6)
    assert_allclose(tiny.checkpoint_overhead, 1e-9 / (1e-6 + 1e-9), rtol=1e-6)


durations = st.floats(min_value=1e-3, max_value=1e4, allow_nan=False, allow_infinity=False)
fractions = st.floats(min_value=1e-6, max_value=3.0)


@given(mtbi=durations, cost=fractions, restart=fractions, interval=st.one_of(st.none(), fractions))
def test_losses_and_goodput_sum_to_one(mtbi: float, cost: float, restart: float, interval: float | None) -> None:
    """Checkpoint overhead + lost work + restart + goodput = 1, and goodput matches exact_goodput.

    (C, R and T are drawn as multiples of M.)"""
    t = None if interval is None else interval * mtbi
    b = exact_losses(cost * mtbi, mtbi, restart * mtbi, t)
    assert min(b.checkpoint_overhead, b.lost_work, b.restart_loss) >= 0.0
    assert_allclose(b.goodput + b.total, 1.0, rtol=1e-14)
    assert_allclose(b.goodput, exact_goodput(cost * mtbi, mtbi, restart * mtbi, t), rtol=1e-9, atol=1e-15)


@given(mtbi=durations, cost=fractions, restart=fractions, interval=fractions, optimal=st.booleans())
def test_goodput_is_below_one_and_falls_with_each_loss(
    mtbi: float, cost: float, restart: float, interval: float, optimal: bool
) -> None:
    """Exact goodput is in (0, 1) and decreases when C or R grows or M shrinks (for a fixed T, and at the optimum)."""
    c, r = cost * mtbi, restart * mtbi
    t = None if optimal else interval * mtbi
    g = exact_goodput(c, mtbi, r, t)
    assert 0.0 < g < 1.0
    assert exact_goodput(1.01 * c, mtbi, r, t) < g
    assert exact_goodput(c, mtbi, 1.01 * r, t) < g
    assert exact_goodput(c, mtbi / 1.01, r, t) < g


def test_goodput_is_elementwise() -> None:
    """Arrays in, arrays out, equal to the scalar results."""
    costs = np.array([0.5, 1.0, 5.0])
    values = exact_goodput(costs, 185.6, 5.0)
    assert isinstance(values, np.ndarray)
    assert_allclose(values, [exact_goodput(float(c), 185.6, 5.0) for c in costs], rtol=1e-15)
    assert isinstance(exact_goodput(1.0, 185.6, 5.0), float)


def test_huge_losses_do_not_warn() -> None:
    """Far outside any sensible range the formulas saturate (goodput 0) instead of overflowing."""
    assert exact_goodput(1e3, 1.0, 1e3, 1e3) == 0.0
    b = exact_losses(1e3, 1.0, 1e3, 1e3)
    assert_allclose(b.restart_loss, 1.0)


@pytest.mark.slow
def test_importing_exact_does_not_import_sympy_or_matplotlib() -> None:
    """`import goodput.exact` keeps SymPy and matplotlib off the import path."""
    code = "import sys, goodput.exact; print('sympy' in sys.modules, 'matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


BAD_VALUES = [0.0, -1.0, math.nan, math.inf, "x", True]
CALLS = [
    (exact_goodput, 4, 0, "checkpoint_cost"),
    (exact_goodput, 4, 1, "mtbi"),
    (exact_goodput, 4, 2, "restart"),
    (exact_goodput, 4, 3, "interval"),
    (exact_optimal_interval, 2, 0, "checkpoint_cost"),
    (daly_interval, 2, 1, "mtbi"),
    (exact_losses, 4, 2, "restart"),
]


@pytest.mark.parametrize("bad", BAD_VALUES)
@pytest.mark.parametrize(("call", "arity", "position", "name"), CALLS)
def test_bad_inputs_raise(call: Callable[..., object], arity: int, position: int, name: str, bad: object) -> None:
    """A zero, negative, NaN, infinite or non-numeric duration raises InputError naming the argument."""
    args: list[object] = [1.0, 185.6, 5.0, 19.0][:arity]
    args[position] = bad
    with pytest.raises(InputError) as caught:
        call(*args)
    assert caught.value.name == name


def test_bad_element_in_an_array_raises() -> None:
    """One bad element in an array is enough to refuse it."""
    with pytest.raises(InputError, match="checkpoint_cost"):
        exact_goodput(np.array([1.0, -1.0]), 185.6, 5.0)


# --------------------------------------------------------------------------- comparisons with first order


def test_second_order_leaves_a_third_order_remainder() -> None:
    """exact - first order - second order is O(eps^3): halving eps (T, R by 1/2, C by 1/4) divides it by about 8."""
    def remainder(eps: float) -> float:
        c, m, r, t = 1.0 * eps**2, 1.0, 0.5 * eps, 0.8 * eps
        first = 1.0 - c / t - t / (2 * m) - r / m
        return float(exact_goodput(c, m, r, t)) - first - float(model.second_order_term(c, m, r, t))

    ratios = [remainder(eps) / remainder(eps / 2) for eps in (0.04, 0.02, 0.01)]
    assert_allclose(ratios, 8.0, rtol=0.05)


def test_numerical_optimum_is_the_lambert_w_optimum_for_any_restart() -> None:
    """With q = 0 the minimizer finds M (1 + W0(-e^{-(1 + C/M)})) for C/M from 1e-4 to 1, whatever R is."""
    for ratio in RATIOS[::4]:
        expected = exact_optimal_interval(ratio * 185.6, 185.6)
        for restart in (0.01, 5.0, 500.0):
            assert_allclose(numerical_optimal_interval(ratio * 185.6, 185.6, restart), expected, rtol=1e-6)


def test_first_order_error_is_exact_minus_first_order() -> None:
    """The error is exact goodput at T* minus 1 - sqrt(2C/M) - R/M, about 2C/(3M) when R is negligible."""
    assert first_order_error(1.0, 185.6, 5.0) == pytest.approx(
        exact_goodput(1.0, 185.6, 5.0) - float(model.goodput(1.0, 185.6, 5.0)), abs=1e-15
    )
    assert first_order_error(1e-4, 1.0, 1e-12) == pytest.approx(2e-4 / 3, rel=0.02)
    errors = first_order_error(1.0, np.logspace(4, 0, 9), 5.0)
    assert np.all(np.diff(errors) > 0.0)  # grows as M shrinks


def test_first_order_error_threshold() -> None:
    """At the threshold fleet the error is the tolerance; with R -> 0 and a small tolerance e, M is about 2C/(3e)."""
    rate = 2e-5
    gpus = first_order_error_threshold(1.0, 5.0, rate)
    assert first_order_error(1.0, 60.0 / (rate * gpus), 5.0) == pytest.approx(0.01, rel=1e-9)
    assert first_order_error(1.0, 60.0 / (rate * gpus * 0.99), 5.0) < 0.01
    tiny = first_order_error_threshold(1.0, 1e-9, rate, tolerance=1e-5)
    assert 60.0 / (rate * tiny) == pytest.approx(2.0 / 3e-5, rel=0.01)
    assert first_order_error_threshold(5.0, 5.0, rate) < gpus < first_order_error_threshold(1 / 6, 5.0, rate)
    with pytest.raises(InputError, match="tolerance"):
        first_order_error_threshold(1.0, 5.0, rate, tolerance=1.0)


def test_first_order_zero_fleet() -> None:
    """For C = R = 1 min, 1 - sqrt(2/M) - 1/M = 0 at M = 2 + sqrt(3) min; the goodput there is zero."""
    rate = 2e-5
    gpus = first_order_zero_fleet(1.0, 1.0, rate)
    assert 60.0 / (rate * gpus) == pytest.approx(2.0 + math.sqrt(3.0), rel=1e-12)
    m = 60.0 / (rate * first_order_zero_fleet(5.0, 5.0, rate))
    assert float(model.goodput(5.0, m, 5.0)) == pytest.approx(0.0, abs=1e-12)

