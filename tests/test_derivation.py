"""The symbolic derivation: SymPy finds T* = sqrt(2CM), a minimum, with equal terms there."""

from __future__ import annotations

import math

import sympy as sp
from numpy.testing import assert_allclose

from goodput import model
from goodput.derivation import derive_first_order


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
