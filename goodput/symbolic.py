"""Every symbolic derivation, with SymPy: the first-order optimum, the exact model's series and optimum.

The book shows each step of :func:`derive_first_order`, so the reader sees
SymPy do the calculus rather than being told the result; :func:`goodput_series`
shows that the first-order formula is the exact model's expansion, and
:func:`symbolic_optimum` derives the exact optimum's Lambert-W form. SymPy is
imported when a function is called, not when this module is imported.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from goodput import validate

if TYPE_CHECKING:
    import sympy


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


# --------------------------------------------------------------------------- the exact model


@dataclass(frozen=True)
class SeriesExpansion:
    """Exact goodput expanded around small losses (SymPy expressions in C, M, R, T).

    The scaling T = eps t, C = eps^2 c, R = eps r with M fixed makes each of
    C/T, T/M and R/M of order eps; goodput is expanded in eps and each order is
    written back in the original variables (where eps drops out).

    Parameters
    ----------
    exact : sympy.Expr
        T / (M e^{R/M} (e^{(T+C)/M} - 1)).
    first_order : sympy.Expr
        The expansion through first order: 1 - C/T - T/(2M) - R/M.
    second_order : sympy.Expr
        The next (second-order) term alone.
    symbols : tuple of sympy.Symbol
        (C, M, R, T), all positive.
    """

    exact: sympy.Expr
    first_order: sympy.Expr
    second_order: sympy.Expr
    symbols: tuple[sympy.Symbol, sympy.Symbol, sympy.Symbol, sympy.Symbol]


@dataclass(frozen=True)
class SymbolicOptimum:
    """The exact optimum derived with SymPy.

    Parameters
    ----------
    objective : sympy.Expr
        Wall time per minute of work, M e^{R/M} (e^{(T+C)/M} - 1) / T.
    derivative : sympy.Expr
        Its derivative with respect to T.
    solution : sympy.Expr
        The root of the derivative, M (1 + LambertW(-e^{-1 - C/M})).
    symbols : tuple of sympy.Symbol
        (C, M, R, T), all positive.
    """

    objective: sympy.Expr
    derivative: sympy.Expr
    solution: sympy.Expr
    symbols: tuple[sympy.Symbol, sympy.Symbol, sympy.Symbol, sympy.Symbol]


def _symbols() -> tuple[sympy.Symbol, sympy.Symbol, sympy.Symbol, sympy.Symbol]:
    import sympy

    c, m, r, t = sympy.symbols("C M R T", positive=True)
    return c, m, r, t


@lru_cache(maxsize=1)
def goodput_series() -> SeriesExpansion:
    """Expand the exact goodput to second order and show the first order is 1 - C/T - T/(2M) - R/M.

    Returns
    -------
    SeriesExpansion
        The exact expression, the first-order expression and the second-order
        term, C^2/T^2 + C R/(M T) + R^2/(2 M^2) + R T/(2 M^2) + T^2/(12 M^2).

    Notes
    -----
    Imports SymPy; takes about a second. The result is cached.
    """
    import sympy

    c, m, r, t = _symbols()
    eps, ts, cs, rs = sympy.symbols("epsilon t c r", positive=True)
    exact = t / (m * sympy.exp(r / m) * (sympy.exp((t + c) / m) - 1))
    scaled = exact.subs({t: eps * ts, c: eps**2 * cs, r: eps * rs}, simultaneous=True)
    expansion = sympy.expand(sympy.series(scaled, eps, 0, 3).removeO())
    back = {ts: t / eps, cs: c / eps**2, rs: r / eps}
    orders = [sympy.expand(expansion.coeff(eps, k) * eps**k).subs(back, simultaneous=True) for k in range(3)]
    first = sympy.expand(orders[0] + orders[1])
    second = sympy.expand(orders[2])
    return SeriesExpansion(exact=exact, first_order=first, second_order=second, symbols=(c, m, r, t))


@lru_cache(maxsize=1)
def symbolic_optimum() -> SymbolicOptimum:
    """Differentiate the wall time per work with SymPy and solve for the optimum interval.

    Returns
    -------
    SymbolicOptimum
        Objective, derivative and the Lambert-W solution M (1 + W(-e^{-1 - C/M})).

    Notes
    -----
    Imports SymPy; takes about a second. When :func:`sympy.solve` returns no
    Lambert-W root (it depends on the SymPy version), the closed form found by
    substituting u = T/M - 1 is used instead; the tests check either way that
    it is a root of the derivative. The result is cached.
    """
    import sympy

    c, m, r, t = _symbols()
    objective = m * sympy.exp(r / m) * (sympy.exp((t + c) / m) - 1) / t
    derivative = sympy.diff(objective, t)
    closed = m * (1 + sympy.LambertW(-sympy.exp(-1 - c / m)))
    try:
        roots = sympy.solve(derivative, t)
    except NotImplementedError:
        roots = []
    lambert = [root for root in roots if root.has(sympy.LambertW)]
    solution = lambert[0] if len(lambert) == 1 else closed
    return SymbolicOptimum(objective=objective, derivative=derivative, solution=solution, symbols=(c, m, r, t))


def evaluate_symbolic_optimum(checkpoint_cost: float, mtbi: float, digits: int = 30) -> float:
    """Evaluate the SymPy solution of :func:`symbolic_optimum` numerically.

    Parameters
    ----------
    checkpoint_cost : float
        C, minutes per checkpoint.
    mtbi : float
        M, mean minutes between interruptions.
    digits : int, optional
        Working precision in decimal digits (default 30), so the result is
        accurate to double precision even when W is near its branch point.

    Returns
    -------
    float
        The optimum interval in minutes (the real part; the root is real).

    Raises
    ------
    InputError
        If an input is zero, negative, NaN or infinite.
    """
    import sympy

    c_value = validate.positive(checkpoint_cost, "checkpoint_cost", validate.POSITIVE_MINUTES)
    m_value = validate.positive(mtbi, "mtbi", validate.POSITIVE_MINUTES)
    opt = symbolic_optimum()
    c, m, _, _ = opt.symbols
    value = opt.solution.subs({c: sympy.Float(c_value, digits), m: sympy.Float(m_value, digits)}).evalf(digits)
    return float(sympy.re(value))


# --------------------------------------------------------------------------- the calculator's formulas
# The in-page calculator (book/calculator.md) runs these expressions as JavaScript that
# goodput.book.calculator generates from them with sympy.jscode at build time, so the page
# and the package cannot drift. tests/test_calculator_formulas.py checks each one against
# the derivations above and against the numeric modules (goodput.model, goodput.exact,
# goodput.tiers). Written with expm1 where the numeric modules use it, so that the page
# keeps the package's precision; ``LambertW`` is printed as the page's own solver.


@dataclass(frozen=True)
class CalculatorFormula:
    """One named formula of the calculator: its arguments, in order, and its SymPy expression.

    Parameters
    ----------
    arguments : tuple of str
        The names of the expression's symbols, in the order the generated function takes them.
    expression : sympy.Expr
        The formula.
    """

    arguments: tuple[str, ...]
    expression: Any


@lru_cache(maxsize=1)
def calculator_formulas() -> dict[str, CalculatorFormula]:
    """Every formula the in-page calculator evaluates, by name, as SymPy expressions.

    Symbols (minutes, except where said): ``C`` checkpoint cost, ``M`` mean time between
    interruptions, ``R`` restart, ``T`` interval, ``D`` drain, ``Cp`` and ``Rp`` the
    persistent tier's cost and restart, ``s`` the share of interruptions the fast tier
    survives, ``n`` every n-th checkpoint persistent, ``rate`` interruptions per GPU-hour,
    ``gpus`` GPUs.

    Returns
    -------
    dict of str to CalculatorFormula
        ``mtbi_from_rate``; first order for one tier (``first_order_*``: Young's optimum
        and the three losses) and its ``second_order_term``; the exact model for one tier
        (``exact_*``: the Lambert-W optimum and the losses of :func:`goodput.exact.exact_losses`);
        one tier with a drain, exactly (``drain_exact_*``: goodput and checkpoint overhead times
        e^{-D/M}, the drain's loss, T* = max(T_W, D)); and the first order of the two-tier scheme
        of :mod:`goodput.tiers` (``tiers_*``), of which one tier with a drain is n = 1, s = 0.

    Notes
    -----
    Imports SymPy; takes a few tenths of a second. The result is cached.
    """
    import sympy
    from sympy.codegen.cfunctions import expm1

    c, m, r, t, d, cp, rp = sympy.symbols("C M R T D Cp Rp", positive=True)
    s = sympy.Symbol("s", nonnegative=True)
    n = sympy.Symbol("n", positive=True, integer=True)
    rate, gpus = sympy.symbols("rate gpus", positive=True)
    x = (t + c) / m  # a segment and its checkpoint, in units of M
    survive_restart = sympy.exp(-r / m)
    exact_goodput = survive_restart * (t / m) / expm1(x)
    exact_overhead = survive_restart * (c / m) / expm1(x)
    lambert_optimum = m * (1 + sympy.LambertW(-sympy.exp(-1 - c / m)))
    second = (c / t) ** 2 + c * r / (m * t) + (r / m) ** 2 / 2 + r * t / (2 * m**2) + (t / m) ** 2 / 12
    first_losses = c / t + t / (2 * m) + r / m
    tier_overhead = ((n - 1) * c + cp) / (n * t)
    tier_lost = (s + (1 - s) * n) * t / (2 * m)
    tier_restart = (s * r + (1 - s) * rp) / m
    tier_drain = (1 - s) * d / m

    def f(arguments: str, expression: Any) -> CalculatorFormula:
        return CalculatorFormula(tuple(arguments.split()), expression)

    return {
        "mtbi_from_rate": f("rate gpus", 60 / (rate * gpus)),
        # first order, one tier (goodput.model)
        "first_order_optimal_interval": f("C M", sympy.sqrt(2 * c * m)),
        "first_order_checkpoint_overhead": f("C T", c / t),
        "first_order_lost_work": f("M T", t / (2 * m)),
        "first_order_restart_loss": f("M R", r / m),
        "first_order_goodput": f("C M R T", 1 - first_losses),
        "second_order_term": f("C M R T", second),
        # exact, one tier (goodput.exact)
        "exact_optimal_interval": f("C M", lambert_optimum),
        "exact_checkpoint_overhead": f("C M R T", exact_overhead),
        "exact_lost_work": f("C M R T", survive_restart * (1 - x / expm1(x))),
        "exact_restart_loss": f("M R", -expm1(-r / m)),
        "exact_goodput": f("C M R T", exact_goodput),
        # exact, one tier with a drain (goodput.tiers with n = 1, s = 0); lost work and restart are unchanged
        "drain_exact_optimal_interval": f("C M D", sympy.Max(lambert_optimum, d)),
        "drain_exact_checkpoint_overhead": f("C M R T D", exact_overhead * sympy.exp(-d / m)),
        "drain_exact_drain_loss": f("C M R T D", survive_restart * -expm1(-d / m) * x / expm1(x)),
        "drain_exact_goodput": f("C M R T D", exact_goodput * sympy.exp(-d / m)),
        # first order, two tiers and a drain (goodput.tiers)
        "tiers_optimal_interval": f(
            "C Cp s n M D", sympy.Max(sympy.sqrt(2 * m * ((n - 1) * c + cp) / (n * (s + (1 - s) * n))), d)),
        "tiers_every": f("C Cp s", sympy.sqrt(s * (cp - c) / ((1 - s) * c))),
        "tiers_checkpoint_overhead": f("C Cp n T", tier_overhead),
        "tiers_lost_work": f("s n M T", tier_lost),
        "tiers_restart_loss": f("R Rp s M", tier_restart),
        "tiers_drain_loss": f("s M D", tier_drain),
        "tiers_goodput": f("C Cp R Rp s n M T D", 1 - tier_overhead - tier_lost - tier_restart - tier_drain),
    }
