"""The derivation chapter (book/derivation.md): Young's first-order optimum, derived by SymPy and evaluated.

The page derives the first-order interval T* = sqrt(2CM) and evaluates it at this build's inputs,
always labelled as first order; the interval the book recommends comes from the exact model
(:func:`goodput.plan.plan_for`), and the page says so with that model's number beside it. Where
these inputs put first order out of its range, :func:`warning` says so at the top of the page and
:func:`for_these_inputs` repeats it beside the numbers.
"""

from __future__ import annotations

from goodput import model
from goodput.pages.common import first_order_warning, inputs_name
from goodput.params import Params
from goodput.plan import plan_for
from goodput.report import first_order_caution, first_order_problem, percent, points
from goodput.symbolic import derive_first_order
from goodput.units import format_duration, significant


def warnings(params: Params) -> list[str]:
    """The first-order warning for these inputs in Markdown, as a list: empty when first order applies.

    A list, so that the chapter displays each warning there is and nothing otherwise.
    """
    warning = first_order_warning(params)
    return [warning] if warning else []


def minimization() -> list[str]:
    """The SymPy steps from f(T) to its two roots, as LaTeX (one displayed equation each).

    Returns
    -------
    list of str
        f(T), df/dT, and the roots of df/dT = 0.
    """
    import sympy as sp

    d = derive_first_order()
    roots = ", ".join(sp.latex(r) for r in d.roots)
    return [
        r"f(T) = " + sp.latex(d.overhead),
        r"\frac{df}{dT} = " + sp.latex(d.derivative),
        r"\frac{df}{dT} = 0 \;\Rightarrow\; T \in \left\{" + roots + r"\right\}",
    ]


def optimum() -> list[str]:
    """The positive root and its checks, as LaTeX: T*, the second derivative, the two terms' difference, f(T*)."""
    import sympy as sp

    d = derive_first_order()
    return [
        r"T^{*} = " + sp.latex(d.optimum),
        r"\left.\frac{d^2 f}{dT^2}\right|_{T^{*}} = " + sp.latex(d.second_derivative) + r" > 0",
        r"\left.\left(\frac{C}{T} - \frac{T}{2M}\right)\right|_{T^{*}} = " + sp.latex(d.terms_difference),
        r"f(T^{*}) = " + sp.latex(d.minimum),
    ]


def range_sentence(params: Params) -> str:
    """How far first order holds at this build's fast checkpoint: a caution, a refusal, or that it holds.

    Returns
    -------
    str
        A sentence naming the terms first order drops at its optimum.
    """
    check = plan_for(params, which="first-order").check
    if problem := first_order_problem(check):
        return (f"For these inputs {problem}; the first-order numbers above are shown to follow the derivation, "
                "not to be used.")
    if caution := first_order_caution(check):
        return f"For these inputs {caution}."
    return (f"For these inputs first order is {points(check.error)} below the exact model, so its numbers "
            "hold to within a point.")


def for_these_inputs(params: Params) -> dict[str, str]:
    """T* and the interval-dependent loss at this build's C and M (first order), and the exact model's interval.

    Parameters
    ----------
    params : Params
        This build's inputs.

    Returns
    -------
    dict of str to str
        ``d_values`` (the inputs, 2CM and T*, by first order and by the symbolic solution), ``d_term`` and
        ``d_f_star`` (each term and their sum at T*), ``d_half``/``d_double`` with ``d_half_cost``/
        ``d_double_cost`` (what halving and doubling the interval costs, first order), ``d_range``
        (how far first order holds here) and ``d_exact`` (the interval to use, by the exact model).
    """
    c, m = params.checkpoint_cost, params.mtbi
    d = derive_first_order()
    t_star = float(model.optimal_interval(c, m))
    symbolic = float(d.optimum.subs({d.symbols["C"]: c, d.symbols["M"]: m}))
    f_star = float(model.overhead(t_star, c, m))
    half, double = t_star / 2, 2 * t_star
    exact = plan_for(params)
    values = (f"This build's inputs, {inputs_name(params)}, have C = {format_duration(c)} and "
              f"M = {format_duration(m)}, so 2CM = {significant(2 * c * m)} min² and first order gives "
              f"T* = √(2CM) = {format_duration(t_star)}; the symbolic solution evaluated at the same inputs gives "
              f"{format_duration(symbolic, 6)}.")
    return {
        "d_values": values,
        "d_term": percent(float(model.checkpoint_overhead(t_star, c))),
        "d_f_star": percent(f_star),
        "d_half": format_duration(half),
        "d_double": format_duration(double),
        "d_half_cost": points(float(model.overhead(half, c, m)) - f_star),
        "d_double_cost": points(float(model.overhead(double, c, m)) - f_star),
        "d_range": range_sentence(params),
        "d_exact": (f"The exact model, which also counts interruptions during checkpoints and restarts, puts the "
                    f"best interval for these inputs at {format_duration(exact.interval)}, with goodput "
                    f"{percent(exact.goodput)}: that is the interval this book recommends."),
    }
