"""The first-order optimum derived symbolically with SymPy.

The book shows each step of :func:`derive_first_order`, so the reader sees
SymPy do the calculus rather than being told the result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class FirstOrderDerivation:
    """Each step of minimizing f(T) = C/T + T/(2M), as SymPy expressions.

    Parameters
    ----------
    symbols : dict of str to sympy.Symbol
        ``T``, ``C`` and ``M``, declared positive.
    overhead : sympy.Expr
        f(T) = C/T + T/(2M).
    derivative : sympy.Expr
        df/dT.
    roots : list of sympy.Expr
        Every solution of df/dT = 0 with T, C, M left unconstrained (both signs).
    optimum : sympy.Expr
        The positive root, sqrt(2CM).
    second_derivative : sympy.Expr
        d2f/dT2, evaluated at the optimum.
    terms_difference : sympy.Expr
        C/T - T/(2M) at the optimum, simplified (zero: the two terms are equal).
    minimum : sympy.Expr
        f at the optimum, simplified.
    """

    symbols: dict[str, Any]
    overhead: Any
    derivative: Any
    roots: list[Any]
    optimum: Any
    second_derivative: Any
    terms_difference: Any
    minimum: Any


def derive_first_order() -> FirstOrderDerivation:
    """Differentiate f(T) = C/T + T/(2M), solve df/dT = 0 and check the result.

    Returns
    -------
    FirstOrderDerivation
        The expressions at each step. ``optimum`` is sqrt(2) sqrt(C) sqrt(M),
        ``second_derivative`` is positive for positive C and M, and
        ``terms_difference`` simplifies to zero.

    Examples
    --------
    >>> d = derive_first_order()
    >>> d.optimum
    sqrt(2)*sqrt(C)*sqrt(M)
    >>> d.terms_difference
    0
    """
    import sympy as sp

    t, c, m = sp.symbols("T C M", positive=True)
    f = c / t + t / (2 * m)
    dfdt = sp.diff(f, t)
    # Solve with unconstrained symbols so that both roots appear, then keep the positive one.
    tu, cu, mu = sp.symbols("T C M")
    roots = sp.solve(sp.Eq(dfdt.subs({t: tu, c: cu, m: mu}), 0), tu)
    positive = [sp.simplify(r.subs({cu: c, mu: m})) for r in roots]
    optimum = next(r for r in positive if r.is_positive)
    second = sp.simplify(sp.diff(f, t, 2).subs(t, optimum))
    difference = sp.simplify((c / t - t / (2 * m)).subs(t, optimum))
    minimum = sp.simplify(f.subs(t, optimum))
    return FirstOrderDerivation(
        symbols={"T": t, "C": c, "M": m},
        overhead=f,
        derivative=dfdt,
        roots=[r.subs({cu: c, mu: m}) for r in roots],
        optimum=optimum,
        second_derivative=second,
        terms_difference=difference,
        minimum=minimum,
    )
