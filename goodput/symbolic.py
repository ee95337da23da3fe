"""Every symbolic derivation, with SymPy: the first-order optimum, the exact model's series and optimum.

The book shows each step, so the reader sees SymPy do the calculus rather than being
told the result. SymPy is imported when a function is called, not at import.
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

    ``roots`` holds every solution of df/dT = 0 with the symbols unconstrained (both signs);
    ``optimum`` is the positive one, sqrt(2CM); ``second_derivative`` is taken at the optimum;
    ``terms_difference`` is C/T - T/(2M) there (zero: the two terms are equal).
    """

    symbols: dict[str, Any]
    overhead: Any
    derivative: Any
    roots: list[Any]
    optimum: Any
    second_derivative: Any
    terms_difference: Any
    minimum: Any


@lru_cache(maxsize=1)
def derive_first_order() -> FirstOrderDerivation:
    """Differentiate f(T) = C/T + T/(2M), solve df/dT = 0 and check the result.

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
    # Solve with unconstrained symbols so that both roots appear, then keep the positive one. The roots are already
    # in simplest form, so solve neither simplifies nor checks them (either would cost more than the rest together);
    # substituting the positive symbols back writes sqrt(C M) as sqrt(C) sqrt(M). Each check takes the one targeted
    # SymPy call that gives what simplify() gives, at a fraction of its cost.
    tu, cu, mu = sp.symbols("T C M")
    roots = sp.solve(sp.Eq(dfdt.subs({t: tu, c: cu, m: mu}), 0), tu, simplify=False, check=False)
    positive = [sp.factor(r.subs({cu: c, mu: m})) for r in roots]
    optimum = next(r for r in positive if r.is_positive)
    second = sp.factor(sp.diff(f, t, 2).subs(t, optimum))
    difference = sp.cancel((c / t - t / (2 * m)).subs(t, optimum))
    minimum = sp.factor(f.subs(t, optimum))
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
    """Exact goodput T / (M e^{R/M} (e^{(T+C)/M} - 1)) expanded around small losses.

    The scaling T = eps t, C = eps^2 c, R = eps r with M fixed makes each of C/T, T/M and
    R/M of order eps; each order is written back in C, M, R, T. ``second_order`` is the
    second-order term alone.
    """

    exact: sympy.Expr
    first_order: sympy.Expr
    second_order: sympy.Expr
    symbols: tuple[sympy.Symbol, sympy.Symbol, sympy.Symbol, sympy.Symbol]


@dataclass(frozen=True)
class SymbolicOptimum:
    """The exact optimum: objective M e^{R/M} (e^{(T+C)/M} - 1) / T, its T-derivative, and the root M (1 + LambertW(-e^{-1 - C/M}))."""

    objective: sympy.Expr
    derivative: sympy.Expr
    solution: sympy.Expr
    symbols: tuple[sympy.Symbol, sympy.Symbol, sympy.Symbol, sympy.Symbol]


@lru_cache(maxsize=1)
def goodput_series() -> SeriesExpansion:
    """Expand the exact goodput to second order and show the first order is 1 - C/T - T/(2M) - R/M.

    The second-order term is C^2/T^2 + C R/(M T) + R^2/(2 M^2) + R T/(2 M^2) + T^2/(12 M^2).
    Takes a fifth of a second; cached.
    """
    import sympy

    c, m, r, t = sympy.symbols("C M R T", positive=True)
    eps, ts, cs, rs = sympy.symbols("epsilon t c r", positive=True)
    exact = t / (m * sympy.exp(r / m) * (sympy.exp((t + c) / m) - 1))
    # G = e^{-R/M} T/(T + C) B((T + C)/M) with B(x) = x/(e^x - 1). Scaled, each factor is a function of a quantity
    # of order eps, so the product of their series to second order is G's. B is expanded as the reciprocal of
    # (e^x - 1)/x, which SymPy does several times faster than x/(e^x - 1) itself.
    x = sympy.Symbol("x")

    def upto2(f: sympy.Expr) -> sympy.Expr:
        return sympy.series(f, x, 0, 3).removeO()

    b = upto2(1 / sympy.expand((sympy.series(sympy.exp(x), x, 0, 4).removeO() - 1) / x))
    scaled = upto2(sympy.exp(-x)).subs(x, eps * rs / m) * upto2(1 / (1 + x)).subs(x, eps * cs / ts) * b.subs(
        x, eps * (ts + eps * cs) / m)
    expansion = sympy.expand(scaled)
    back = {ts: t / eps, cs: c / eps**2, rs: r / eps}
    orders = [sympy.expand(expansion.coeff(eps, k) * eps**k).subs(back, simultaneous=True) for k in range(3)]
    first = sympy.expand(orders[0] + orders[1])
    second = sympy.expand(orders[2])
    return SeriesExpansion(exact=exact, first_order=first, second_order=second, symbols=(c, m, r, t))


@lru_cache(maxsize=1)
def symbolic_optimum() -> SymbolicOptimum:
    """Differentiate the wall time per work with SymPy and solve for the optimum interval.

    When :func:`sympy.solve` returns no Lambert-W root (it depends on the SymPy version), the
    closed form found by substituting u = T/M - 1 is used; the tests check either way that it
    is a root. Takes about a fifth of a second, plus a quarter of a second the first time SymPy simplifies in
    the process (the solve does, and that imports ``sympy.physics.units``); cached.
    """
    import sympy

    c, m, r, t = sympy.symbols("C M R T", positive=True)
    objective = m * sympy.exp(r / m) * (sympy.exp((t + c) / m) - 1) / t
    derivative = sympy.diff(objective, t)
    closed = m * (1 + sympy.LambertW(-sympy.exp(-1 - c / m)))
    try:
        # Unchecked: checking substitutes each root back (most of solve's time) only to drop T = 0, which the
        # Lambert-W filter below drops as well. Unsimplified: factor_terms alone writes the root M W + M as
        # M (W + 1), as simplify() would, in a fraction of its time.
        roots = sympy.solve(derivative, t, check=False, simplify=False)
    except NotImplementedError:
        roots = []
    lambert = [sympy.factor_terms(root) for root in roots if root.has(sympy.LambertW)]
    solution = lambert[0] if len(lambert) == 1 else closed
    return SymbolicOptimum(objective=objective, derivative=derivative, solution=solution, symbols=(c, m, r, t))


def evaluate_symbolic_optimum(checkpoint_cost: float, mtbi: float, digits: int = 30) -> float:
    """Evaluate the SymPy solution of :func:`symbolic_optimum` numerically, in minutes.

    ``digits`` of working precision keep the result accurate to double precision near W's
    branch point. Raises InputError on a zero, negative or non-finite input.
    """
    import sympy

    c_value = validate.positive(checkpoint_cost, "checkpoint_cost", validate.POSITIVE_MINUTES)
    m_value = validate.positive(mtbi, "mtbi", validate.POSITIVE_MINUTES)
    opt = symbolic_optimum()
    c, m, _, _ = opt.symbols
    value = opt.solution.subs({c: sympy.Float(c_value, digits), m: sympy.Float(m_value, digits)}).evalf(digits)
    return float(sympy.re(value))


# --------------------------------------------------------------------------- the calculator's formulas
# The in-page calculator (book/calculator.md) runs these expressions as JavaScript generated
# from them at build time (goodput.book.calculator), so the page and the package cannot drift.
# Written with expm1 where the numeric modules use it, to keep their precision; ``LambertW`` is
# printed as the page's own solver.


@dataclass(frozen=True)
class CalculatorFormula:
    """One named formula of the calculator: its argument names, in the generated function's order, and its SymPy expression."""

    arguments: tuple[str, ...]
    expression: Any


@lru_cache(maxsize=1)
def calculator_formulas() -> dict[str, CalculatorFormula]:
    """Every formula the in-page calculator evaluates, by name, as SymPy expressions.

    Symbols (minutes unless said): ``C``, ``M``, ``R``, ``T``, drain ``D``, persistent tier's
    ``Cp``/``Rp``, ``s`` the share the fast tier survives, ``n`` every n-th checkpoint
    persistent, ``rate`` per GPU-hour, ``gpus``, ``points`` a goodput difference (fraction),
    ``price`` USD per GPU-hour, ``month`` in minutes. Groups: ``first_order_*`` (Young),
    ``exact_*`` (Lambert-W, :func:`goodput.exact.exact_losses`), ``drain_exact_*`` (times
    e^{-D/M}, T* = max(T_W, D)), ``tiers_*`` (:mod:`goodput.tiers`, one tier with a drain is
    n = 1, s = 0) with its restart phases, and ``capacity_per_month``. Cached.
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
    restart_fails = -expm1(-r / m)
    restart_ends = survive_restart + (1 - s) * restart_fails  # an R-restart ends: done, or a hard interruption
    points, price, month = sympy.symbols("points price month", real=True)

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
        # exact, two tiers and a drain (goodput.tiers): the restart phases after a soft interruption, from which
        # the page's port of the semi-Markov chain builds each state's step (goodput.tiers._restart_phases)
        "tiers_restart_phase": f("R M s", m * restart_fails / restart_ends),
        "tiers_restart_ok": f("R M s", survive_restart / restart_ends),
        "tiers_persistent_restart_phase": f("Rp M", m * expm1(rp / m)),
        # dollars (goodput.model.capacity_per_month): a goodput difference as capacity at list price
        "capacity_per_month": f("points gpus price month", points * gpus * price * (month / 60)),
    }


# --------------------------------------------------------------------------- drains and two tiers (goodput.tiers)


@dataclass(frozen=True)
class TiersDerivation:
    """Each step of minimizing the two-tier first-order loss (see :mod:`goodput.tiers`), as SymPy expressions.

        L(T, n) = [(n-1)C + C_p]/(nT) + sT/(2M) + (1-s)nT/(2M) + [sR + (1-s)R_p]/M + (1-s)D/M.

    SymPy uses positive symbols ``h`` for 1 - s and ``Delta_C`` for C_p - C; nothing uses
    s + h = 1, so every result holds with h = 1 - s, and :meth:`plain` writes it back.
    L = a/T + bT + rest (``interval_terms``); ``interval`` is T*(n) = sqrt(2M [(n-1)C + C_p] /
    (n [s + (1-s)n])); with P(n) = 2Mab = [(n-1)C + C_p][s + (1-s)n]/n the T-terms
    at T*(n) are sqrt(2P/M); ``every`` is n* = sqrt(s (C_p - C) / ((1-s) C)), which minimizes
    P and so L. The ``*_check`` fields simplify to zero or one: T*(n*) = sqrt(2CM/s) and the
    persistent period sqrt(2(C_p - C)M/(1-s)) are Young's intervals. ``one_tier_*`` set
    C_p = C, s = 0, n = 1, R_p = R; ``drain_cost_series`` is 1 - e^{-D/M} to second order,
    D/M - D^2/(2M^2), and ``drain_interval_shift`` (zero) shows a drain does not move the exact optimum.
    """

    symbols: dict[str, Any]
    loss: Any
    interval_terms: tuple[Any, Any, Any]
    loss_derivative: Any
    interval: Any
    interval_curvature: Any
    loss_at_interval_check: Any
    cadence_derivative: Any
    every: Any
    cadence_curvature: Any
    cadence_minimum_check: Any
    minimum: Any
    interval_at_every_check: Any
    persistent_period_check: Any
    one_tier_loss: Any
    one_tier_interval: Any
    drain_cost_series: Any
    drain_interval_shift: Any

    def plain(self, expression: Any) -> Any:
        """`expression` written back in s and C_p (h -> 1 - s, Delta_C -> C_p - C), as the book prints it."""
        sym = self.symbols
        return expression.subs({sym["h"]: 1 - sym["s"], sym["Delta_C"]: sym["C_p_symbol"] - sym["C"]})


@lru_cache(maxsize=1)
def derive_tiers() -> TiersDerivation:
    """Minimize the two-tier first-order loss over T, then over a continuous n, and check the reductions.

    Takes about a fifth of a second; cached.

    >>> d = derive_tiers()
    >>> d.plain(d.every)
    sqrt(s)*sqrt(-C + C_p)/(sqrt(C)*sqrt(1 - s))
    """
    import sympy as sp

    t, n, c, delta, r, rp, s, h, m, d = sp.symbols("T n C Delta_C R R_p s h M D", positive=True)
    cp_symbol = sp.Symbol("C_p", positive=True)
    cp = c + delta
    a = ((n - 1) * c + cp) / n
    b = (s + h * n) / (2 * m)
    rest = (s * r + h * rp) / m + h * d / m
    loss = ((n - 1) * c + cp) / (n * t) + s * t / (2 * m) + h * n * t / (2 * m) + rest
    # Each step uses the one SymPy transformation that reaches its result (the same expression simplify() gives, at a
    # fraction of its cost): factor for the curvature, expand or cancel where a check collapses to 0 or 1. The roots are
    # taken unsimplified and unchecked (already in their simplest form; the positive one is kept here).
    dldt = sp.diff(loss, t)
    interval = next(root for root in sp.solve(sp.Eq(dldt, 0), t, simplify=False, check=False) if root.is_positive)
    product = sp.expand(2 * m * a * b)
    dpdn = sp.diff(product, n)
    every = next(root for root in sp.solve(sp.Eq(dpdn, 0), n, simplify=False, check=False) if root.is_positive)
    p_star = sp.expand(product.subs(n, every))
    t_star = interval.subs(n, every)
    one = {delta: 0, s: 0, h: 1, n: 1, rp: r}
    # The drain in the exact model: the single-level exact goodput G times e^{-D/M}.
    exact = t * sp.exp(-r / m) / (m * (sp.exp((t + c) / m) - 1))
    factor = sp.exp(-d / m)
    x = sp.Symbol("x", positive=True)
    series = sp.series((1 - factor).subs(d, x * m), x, 0, 3).removeO().subs(x, d / m)
    return TiersDerivation(
        symbols={"T": t, "n": n, "C": c, "C_p": cp, "C_p_symbol": cp_symbol, "Delta_C": delta, "R": r, "R_p": rp,
                 "s": s, "h": h, "M": m, "D": d},
        loss=loss,
        interval_terms=(a, b, rest),
        loss_derivative=dldt,
        interval=interval,
        interval_curvature=sp.factor(sp.diff(loss, t, 2).subs(t, interval)),
        loss_at_interval_check=sp.cancel(sp.expand((loss.subs(t, interval) - rest) ** 2 - 2 * product / m)),
        cadence_derivative=dpdn,
        every=every,
        cadence_curvature=sp.factor(sp.diff(product, n, 2).subs(n, every)),
        cadence_minimum_check=sp.expand(p_star - (sp.sqrt(s * c) + sp.sqrt(h * delta)) ** 2),
        minimum=sp.sqrt(2 * p_star / m) + rest,
        interval_at_every_check=sp.cancel(t_star**2 * s / (2 * c * m)),
        persistent_period_check=sp.cancel((every * t_star) ** 2 * h / (2 * delta * m)),
        one_tier_loss=sp.expand(loss.subs(one)),
        one_tier_interval=sp.factor(interval.subs(one)),
        drain_cost_series=sp.expand(series),
        drain_interval_shift=sp.cancel(sp.diff(sp.expand_log(sp.log(exact * factor), force=True), t)
                                       - sp.diff(sp.expand_log(sp.log(exact), force=True), t)),
    )


@lru_cache(maxsize=1)
def restart_free_derivative() -> Any:
    """The derivative of the wall time per kept work divided by e^{R/M} (a SymPy expression), and R's symbol."""
    import sympy as sp

    optimum = symbolic_optimum()
    _, m, r, _ = optimum.symbols
    # Multiplied out (e^{R/M} e^{-R/M} cancels), over one denominator, the exponents' common 1/M taken out: what
    # simplify() gives, in a fraction of its time.
    return sp.factor_terms(sp.together(sp.expand_mul(optimum.derivative * sp.exp(-r / m)))), r
