"""The symbolic derivations: SymPy finds T* = sqrt(2CM), expands the exact model, and derives its Lambert-W optimum."""

from __future__ import annotations

import math

import numpy as np
import sympy as sp
from numpy.testing import assert_allclose

from goodput import model
from goodput.exact import exact_optimal_interval, second_order_term
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


def test_series_first_order_is_youngs_formula() -> None:
    """Expanding T/[M e^{R/M}(e^{(T+C)/M} - 1)] with T = eps t, C = eps^2 c, R = eps r gives
    1 - C/T - T/(2M) - R/M at first order, exactly (SymPy simplifies the difference to 0)."""
    import sympy

    series = goodput_series()
    c, m, r, t = series.symbols
    assert sympy.simplify(series.first_order - (1 - c / t - t / (2 * m) - r / m)) == 0
    assert sympy.simplify(series.exact - t / (m * sympy.exp(r / m) * (sympy.exp((t + c) / m) - 1))) == 0


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


def test_symbolic_optimum_evaluates_to_the_numerical_one() -> None:
    """The SymPy closed form evaluated at 30 digits equals exact_optimal_interval, C/M from 1e-6 to 1."""
    for ratio in (1e-6, 1e-4, 1e-2, 0.3, 1.0):
        assert_allclose(
            evaluate_symbolic_optimum(ratio * 185.6, 185.6), exact_optimal_interval(ratio * 185.6, 185.6), rtol=1e-13
        )


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
