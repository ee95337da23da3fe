"""The symbolic derivations: SymPy finds T* = sqrt(2CM), expands the exact model, and derives its Lambert-W optimum."""

from __future__ import annotations

import math

import numpy as np
import pytest
import sympy as sp
from numpy.testing import assert_allclose

from goodput import model
from goodput.exact import exact_optimal_interval
from goodput.model import second_order_term
from goodput.symbolic import derive_first_order, evaluate_symbolic_optimum, goodput_series, symbolic_optimum


def test_derivative_and_roots() -> None:
    """df/dT = -C/T^2 + 1/(2M), whose roots are T = +-sqrt(2CM)."""
    d = derive_first_order()
    t, c, m = d.symbols["T"], d.symbols["C"], d.symbols["M"]
    assert sp.simplify(d.derivative - (-c / t**2 + 1 / (2 * m))) == 0
    assert {sp.simplify(r**2 - 2 * c * m) for r in d.roots} == {0}
    assert len(d.roots) == 2


def test_positive_root_is_a_minimum_with_equal_terms() -> None:
    """T* = sqrt(2CM); f''(T*) = sqrt(2)/(2 sqrt(C) M^(3/2)) > 0; C/T* = T*/(2M); f(T*) = sqrt(2C/M)."""
    d = derive_first_order()
    c, m = d.symbols["C"], d.symbols["M"]
    assert sp.simplify(d.optimum - sp.sqrt(2 * c * m)) == 0
    assert d.second_derivative.is_positive
    assert d.terms_difference == 0
    assert sp.simplify(d.minimum - sp.sqrt(2 * c / m)) == 0


def test_symbolic_and_numeric_optimum_agree() -> None:
    """The symbolic T* evaluated at C = 1, M = 186 equals goodput.model.optimal_interval (sqrt(372))."""
    d = derive_first_order()
    value = float(d.optimum.subs({d.symbols["C"]: 1, d.symbols["M"]: 186}))
    assert_allclose(value, model.optimal_interval(1.0, 186.0))
    assert_allclose(value, math.sqrt(372))


@pytest.mark.slow
def test_series_first_order_is_youngs_formula() -> None:
    """Expanding T/[M e^{R/M}(e^{(T+C)/M} - 1)] with T = eps t, C = eps^2 c, R = eps r gives
    1 - C/T - T/(2M) - R/M at first order, exactly (SymPy simplifies the difference to 0)."""
    import sympy

    series = goodput_series()
    c, m, r, t = series.symbols
    assert sympy.simplify(series.first_order - (1 - c / t - t / (2 * m) - r / m)) == 0
    assert sympy.simplify(series.exact - t / (m * sympy.exp(r / m) * (sympy.exp((t + c) / m) - 1))) == 0


@pytest.mark.slow
def test_series_second_order_term_is_the_next_term() -> None:
    """Exact - (first + second order) shrinks as eps^3 when C/T, T/M and R/M all shrink as eps (numerically)."""
    series = goodput_series()
    c, m, r, t = series.symbols
    residuals = []
    for eps in (0.02, 0.01, 0.005):
        point = {c: 3.0 * eps**2, m: 1.0, r: 0.7 * eps, t: 1.3 * eps}
        exact = float(series.exact.subs(point).evalf(40))
        approx = float((series.first_order + series.second_order).subs(point).evalf(40))
        residuals.append(abs(exact - approx))
    assert_allclose(np.array(residuals[:-1]) / np.array(residuals[1:]), 8.0, rtol=0.1)


@pytest.mark.slow
def test_symbolic_optimum_is_a_root_of_the_derivative() -> None:
    """SymPy's solution is M (1 + W(-e^{-1 - C/M})) and makes the derivative vanish (using W e^W = z)."""
    import sympy

    opt = symbolic_optimum()
    c, m, _, t = opt.symbols
    z = -sympy.exp(-1 - c / m)
    assert sympy.simplify(opt.solution - m * (1 + sympy.LambertW(z))) == 0
    w = sympy.Symbol("w")
    at_root = sympy.expand_power_exp(sympy.expand(opt.derivative.subs(t, opt.solution).subs(sympy.LambertW(z), w)))
    assert sympy.simplify(at_root.subs(sympy.exp(w), z / w)) == 0
    assert sympy.simplify(opt.derivative - sympy.diff(opt.objective, t)) == 0


@pytest.mark.slow
def test_restart_free_derivative_is_the_derivative_over_e_to_the_r_over_m() -> None:
    """The derivative divided by e^{R/M} is one fraction over T^2 without R: (T e^{(C+T)/M} - M e^{(C+T)/M} + M)/T^2."""
    from goodput.symbolic import restart_free_derivative

    opt = symbolic_optimum()
    c, m, r, t = opt.symbols
    free, r_symbol = restart_free_derivative()
    assert r_symbol == r
    assert not free.has(r)
    grow = sp.exp((c + t) / m)
    assert free == (t * grow - m * grow + m) / t**2
    assert sp.simplify(free - opt.derivative * sp.exp(-r / m)) == 0


@pytest.mark.slow
def test_symbolic_optimum_evaluates_to_the_numerical_one() -> None:
    """The SymPy closed form evaluated at 30 digits equals exact_optimal_interval, C/M from 1e-6 to 1."""
    for ratio in (1e-6, 1e-4, 1e-2, 0.3, 1.0):
        assert_allclose(
            evaluate_symbolic_optimum(ratio * 185.6, 185.6), exact_optimal_interval(ratio * 185.6, 185.6), rtol=1e-13
        )


@pytest.mark.slow
def test_second_order_term_is_the_symbolic_one() -> None:
    """second_order_term is the SymPy second-order term of goodput_series, evaluated."""
    import sympy

    series = goodput_series()
    c, m, r, t = series.symbols
    for values in [(1.0, 185.6, 5.0, 19.3), (0.2, 50.0, 3.0, 4.0), (5.0, 30.0, 1.0, 12.0)]:
        symbolic = float(series.second_order.subs(dict(zip((c, m, r, t), values, strict=True))))
        assert_allclose(second_order_term(*values), symbolic, rtol=1e-13)
    assert isinstance(second_order_term(1.0, np.array([100.0, 200.0]), 5.0, 20.0), np.ndarray)
    assert sympy.simplify(series.first_order - (1 - c / t - t / (2 * m) - r / m)) == 0


# --------------------------------------------------------------------------- drains and two tiers


@pytest.mark.slow
def test_tiers_interval_is_the_root_of_the_derivative() -> None:
    """dL/dT = 0 at T*(n) = sqrt(2M [(n-1)C + C_p] / (n [s + (1-s)n])), and d2L/dT2 > 0 there."""
    from goodput.symbolic import derive_tiers

    d = derive_tiers()
    sym = d.symbols
    t, n, c, cp, s, h, m = (sym[k] for k in ("T", "n", "C", "C_p", "s", "h", "M"))
    want = sp.sqrt(2 * m * ((n - 1) * c + cp) / (n * (s + h * n)))
    assert sp.simplify(d.interval - want) == 0
    assert sp.simplify(d.loss_derivative.subs(t, d.interval)) == 0
    assert d.interval_curvature.is_positive


@pytest.mark.slow
def test_tiers_cadence_is_sqrt_s_extra_cost_over_hard_share_c() -> None:
    """L(T*(n), n) = sqrt(2P/M) + rest with P(n) = [(n-1)C + C_p][s + (1-s)n]/n; dP/dn = (1-s)C - s(C_p - C)/n^2,
    whose positive root is n* = sqrt(s (C_p - C) / ((1-s) C)), a minimum (d2P/dn2 > 0)."""
    from goodput.symbolic import derive_tiers

    d = derive_tiers()
    sym = d.symbols
    n, c, delta, s, h = (sym[k] for k in ("n", "C", "Delta_C", "s", "h"))
    a, b, _ = d.interval_terms
    assert sp.simplify(2 * sym["M"] * a * b - ((n - 1) * c + c + delta) * (s + h * n) / n) == 0
    assert d.loss_at_interval_check == 0
    assert sp.simplify(d.cadence_derivative - (h * c - s * delta / n**2)) == 0
    assert sp.simplify(d.every - sp.sqrt(s * delta / (h * c))) == 0
    assert d.cadence_curvature.is_positive
    assert str(d.plain(d.every)) == "sqrt(s)*sqrt(-C + C_p)/(sqrt(C)*sqrt(1 - s))"


@pytest.mark.slow
def test_tiers_minimum_is_a_sum_of_two_young_terms() -> None:
    """At n*: P(n*) = (sqrt(sC) + sqrt((1-s)(C_p - C)))^2, so the loss is sqrt(2sC/M) + sqrt(2(1-s)(C_p - C)/M) + rest;
    the fast interval is sqrt(2CM/s) and the persistent period n* T* = sqrt(2(C_p - C)M/(1-s))."""
    from goodput.symbolic import derive_tiers

    d = derive_tiers()
    assert d.cadence_minimum_check == 0
    assert d.interval_at_every_check == 1
    assert d.persistent_period_check == 1
    sym = d.symbols
    c, delta, s, h, m = (sym[k] for k in ("C", "Delta_C", "s", "h", "M"))
    point = {c: 1.0, delta: 4.0, s: 0.8, h: 0.2, m: 185.6, sym["R"]: 5.0, sym["R_p"]: 12.0, sym["D"]: 3.0}
    want = math.sqrt(2 * 0.8 * 1.0 / 185.6) + math.sqrt(2 * 0.2 * 4.0 / 185.6) + (0.8 * 5 + 0.2 * 12 + 0.2 * 3) / 185.6
    assert_allclose(float(d.minimum.subs(point)), want, rtol=1e-13)


@pytest.mark.slow
def test_tiers_reduce_to_one_tier_with_a_drain() -> None:
    """C_p = C, s = 0, n = 1, R_p = R: L = C/T + T/(2M) + (R + D)/M and T* = sqrt(2CM)."""
    from goodput.symbolic import derive_tiers

    d = derive_tiers()
    sym = d.symbols
    t, c, r, m, dd = (sym[k] for k in ("T", "C", "R", "M", "D"))
    assert sp.simplify(d.one_tier_loss - (c / t + t / (2 * m) + (r + dd) / m)) == 0
    assert sp.simplify(d.one_tier_interval - sp.sqrt(2 * c * m)) == 0


@pytest.mark.slow
def test_drain_costs_one_minus_e_to_the_minus_d_over_m_and_d_over_m_to_first_order() -> None:
    """The drain multiplies exact goodput by e^{-D/M}: it costs 1 - e^{-D/M} = D/M - D^2/(2M^2) + ..., and the log
    derivative in T is unchanged (the interval does not move)."""
    from goodput.symbolic import derive_tiers

    d = derive_tiers()
    dd, m = d.symbols["D"], d.symbols["M"]
    assert sp.simplify(d.drain_cost_series - (dd / m - dd**2 / (2 * m**2))) == 0
    assert d.drain_interval_shift == 0


@pytest.mark.slow
def test_tiers_first_order_functions_are_the_symbolic_expressions() -> None:
    """goodput.tiers' first-order losses, optimum interval and cadence equal the SymPy loss, T*(n) and n* evaluated at
    the same inputs."""
    from goodput.symbolic import derive_tiers
    from goodput.tiers import Tiers, first_order_every, first_order_losses, first_order_optimal_interval

    d = derive_tiers()
    sym = d.symbols
    for c, r, drain, cp, rp, s, n, m, t in [(1.0, 5.0, 5.0, 5.0, 5.0, 0.234, 1, 185.6, 19.3),
                                          (40 / 60, 12.0, 6.0, 4.0, 15.0, 0.7, 3, 152.6, 16.9),
                                          (0.5, 2.0, 0.0, 8.0, 10.0, 0.95, 7, 90.0, 9.0)]:
        tiers = Tiers(c, r, drain, cp, rp, s, n)
        point = {sym["C"]: c, sym["Delta_C"]: cp - c, sym["R"]: r, sym["R_p"]: rp, sym["s"]: s, sym["h"]: 1 - s,
                 sym["n"]: n, sym["M"]: m, sym["D"]: drain, sym["T"]: t}
        assert_allclose(1 - first_order_losses(tiers, m, t).goodput, float(d.loss.subs(point)), rtol=1e-13)
        assert_allclose(first_order_optimal_interval(tiers, m), max(float(d.interval.subs(point)), drain), rtol=1e-13)
        assert_allclose(first_order_every(tiers), float(d.every.subs(point)), rtol=1e-13)
