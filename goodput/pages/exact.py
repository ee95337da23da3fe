"""The chapter "Beyond first order: the exact model" (``book/exact.md``): the exact goodput, its optimum, Young and Daly.

The derivations are SymPy's (:mod:`goodput.symbolic`), shown as LaTeX; the numbers are the
fleet's, from the book's inputs file, and are called the brief's worked example only when
the file is that example (:func:`goodput.pages.common.is_worked_example`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from goodput import exact, model, symbolic
from goodput.pages.common import inputs_phrase
from goodput.params import Params
from goodput.report import percent, points
from goodput.units import format_duration

if TYPE_CHECKING:
    import pandas as pd

#: The values of C/M in the table of Young's, Daly's and the exact optimum.
RATIOS = (1e-4, 1e-3, 1e-2, 0.1, 0.3, 1.0)
#: The restart times, as multiples of the fleet's, over which the optimum is checked not to move.
RESTART_FACTORS = (0.01, 1.0, 10.0)


def opening(params: Params) -> dict[str, str]:
    """The inputs the page's numbers come from, named and written out.

    Parameters
    ----------
    params : Params
        The fleet's inputs.

    Returns
    -------
    dict of str to str
        ``inputs`` (their name), ``cost``, ``mtbi``, ``restart``, and ``tier_note`` (a sentence when the inputs
        describe a drain or a persistent tier, which this chapter's model leaves out; empty otherwise).
    """
    note = (" Their drain and persistent tier are left out: the model here is one checkpoint that is safe as soon "
            "as it is taken.") if params.tiered else ""
    return {"inputs": inputs_phrase(params), "tier_note": note, "cost": format_duration(params.checkpoint_cost),
            "mtbi": format_duration(params.mtbi), "restart": format_duration(params.restart)}


# --------------------------------------------------------------------------- the exact goodput


def series_equations() -> list[str]:
    """The exact goodput's expansion as LaTeX display equations.

    Returns
    -------
    list of str
        G, its first-order part, its second-order term, and the first-order part minus the package's
        first-order goodput (zero).
    """
    import sympy as sp

    series = symbolic.goodput_series()
    c, m, r, t = series.symbols
    check = sp.simplify(series.first_order - model.goodput(c, m, r, t))
    return [
        r"G = " + sp.latex(series.exact),
        r"G_{\le 1} = " + sp.latex(series.first_order),
        r"G_{2} = " + sp.latex(series.second_order),
        r"G_{\le 1} - \left(1 - \frac{C}{T} - \frac{T}{2M} - \frac{R}{M}\right) = " + sp.latex(check),
    ]


def young_comparison(params: Params) -> dict[str, str]:
    """Both models at Young's interval √(2CM), and how much of their gap the second-order term explains.

    Parameters
    ----------
    params : Params
        The fleet's inputs.

    Returns
    -------
    dict of str to str
        ``t_young``, ``g_first_at_young`` and ``g_exact_at_young`` (two decimals), ``gap``, ``g2`` and
        ``rest`` (points, two decimals) and ``rest_share``.
    """
    c, m, r = params.checkpoint_cost, params.mtbi, params.restart
    t = float(model.optimal_interval(c, m))
    first = float(model.goodput(c, m, r, t))
    ex = float(exact.exact_goodput(c, m, r, t))
    g2 = float(exact.second_order_term(c, m, r, t))
    gap = ex - first
    return {"t_young": format_duration(t), "g_first_at_young": percent(first, 2), "g_exact_at_young": percent(ex, 2),
            "gap": points(gap, 2), "g2": points(g2, 2), "rest": points(gap - g2, 2),
            "rest_share": f"{abs(gap - g2) / gap:.0%}"}


def breakdown(params: Params) -> dict[str, str]:
    """Each model's goodput at its own optimum, and the difference.

    Parameters
    ----------
    params : Params
        The fleet's inputs.

    Returns
    -------
    dict of str to str
        ``first_goodput``, ``exact_goodput`` and ``exact_vs_first`` (points, with "more" or "less").
    """
    first = model.losses(params.checkpoint_cost, params.mtbi, params.restart)
    ex = exact.exact_losses(params.checkpoint_cost, params.mtbi, params.restart)
    diff = ex.goodput - first.goodput
    return {"first_goodput": percent(first.goodput), "exact_goodput": percent(ex.goodput),
            "exact_vs_first": f"{points(abs(diff))} {'more' if diff >= 0 else 'less'}"}


def breakdown_table(params: Params) -> dict[str, Any]:
    """Where the wall time goes at each model's own optimum, as arguments of :func:`goodput.book.tables.book_table`."""
    import pandas as pd

    first = model.losses(params.checkpoint_cost, params.mtbi, params.restart)
    ex = exact.exact_losses(params.checkpoint_cost, params.mtbi, params.restart)

    def column(b: model.Losses) -> list[str]:
        return [format_duration(b.interval), percent(b.checkpoint_overhead, 2), percent(b.lost_work, 2),
                percent(b.restart_loss, 2), percent(b.goodput, 2)]

    frame: pd.DataFrame = pd.DataFrame({
        "": ["interval T*", "checkpoint overhead", "lost work", "restart", "goodput"],
        "first order": column(first), "exact": column(ex),
    })
    caption = (f"Where the wall time goes at each model's own optimum ({inputs_phrase(params)}: "
               f"C = {format_duration(params.checkpoint_cost)}, M = {format_duration(params.mtbi)}, "
               f"R = {format_duration(params.restart)}).")
    return {"frame": frame, "caption": caption, "right": ["first order", "exact"]}


# --------------------------------------------------------------------------- the exact optimum


def optimum_equations() -> list[str]:
    """The derivative of the wall time per kept work and its Lambert-W root, as LaTeX display equations."""
    import sympy as sp

    optimum = symbolic.symbolic_optimum()
    return [
        r"\frac{d}{dT}\left[" + sp.latex(optimum.objective) + r"\right] = " + sp.latex(sp.factor(optimum.derivative)),
        r"T^{*} = " + sp.latex(optimum.solution),
    ]


def _without_restart() -> Any:
    """The derivative of the wall time per work divided by e^{R/M} (SymPy expression)."""
    import sympy as sp

    optimum = symbolic.symbolic_optimum()
    _, m, r, _ = optimum.symbols
    return sp.simplify(optimum.derivative * sp.exp(-r / m))


def restart_equation() -> str:
    """The derivative divided by e^{R/M}, as a LaTeX display equation: it does not contain R."""
    import sympy as sp

    return r"e^{-R/M}\,\frac{d}{dT}\left[\ldots\right] = " + str(sp.latex(_without_restart()))


def optimum(params: Params) -> dict[str, str]:
    """The exact optimum three ways (Lambert W, SymPy at 30 digits, a numerical minimizer) and whether R moves it.

    Parameters
    ----------
    params : Params
        The fleet's inputs.

    Returns
    -------
    dict of str to str
        ``t_lambert``, ``t_symbolic``, ``t_numerical`` (six significant digits), ``agreement`` (a clause),
        ``young_longer`` (how much longer Young's interval is), ``r_in_derivative``, ``r_low``, ``r_high``,
        ``r_spread`` and ``r_moves``.
    """
    c, m, r = params.checkpoint_cost, params.mtbi, params.restart
    t_lambert = float(exact.exact_optimal_interval(c, m))
    t_symbolic = symbolic.evaluate_symbolic_optimum(c, m)
    t_numerical = exact.numerical_optimal_interval(c, m, r)
    rel = max(abs(t_symbolic - t_lambert), abs(t_numerical - t_lambert)) / t_lambert
    agreement = "they agree exactly" if rel == 0.0 else f"they agree to a relative {rel:.0e}"
    _, _, rs, _ = symbolic.symbolic_optimum().symbols
    restarts = [factor * r for factor in RESTART_FACTORS]
    found = [exact.numerical_optimal_interval(c, m, ri) for ri in restarts]
    spread = max(found) - min(found)
    young = float(model.optimal_interval(c, m)) - t_lambert
    return {
        "t_lambert": format_duration(t_lambert, 6),
        "t_symbolic": format_duration(t_symbolic, 6),
        "t_numerical": format_duration(t_numerical, 6),
        "agreement": agreement,
        "young_longer": f"{format_duration(abs(young))} {'longer' if young >= 0 else 'shorter'}",
        "r_in_derivative": "contains" if _without_restart().has(rs) else "does not contain",
        "r_low": format_duration(restarts[0]),
        "r_high": format_duration(restarts[-1]),
        "r_spread": f"{60.0 * spread:.1e} s",
        "r_moves": "moves" if spread > 1e-6 * t_lambert else "does not move",
    }


# --------------------------------------------------------------------------- Young, Daly and the exact optimum


def _estimates(params: Params) -> dict[str, Any]:
    import numpy as np

    m, r = params.mtbi, params.restart
    ratios = np.array(RATIOS)
    costs = ratios * m
    mtbis, restarts = np.full_like(costs, m), np.full_like(costs, r)
    t_y = np.asarray(model.optimal_interval(costs, mtbis))
    t_d = np.asarray(exact.daly_interval(costs, mtbis))
    t_e = np.asarray(exact.exact_optimal_interval(costs, mtbis))
    g_e = np.asarray(exact.exact_goodput(costs, mtbis, restarts))
    short_y = g_e - np.asarray(exact.exact_goodput(costs, mtbis, restarts, t_y))
    short_d = g_e - np.asarray(exact.exact_goodput(costs, mtbis, restarts, t_d))
    return {"ratios": ratios, "t_y": t_y, "t_d": t_d, "t_e": t_e, "g_e": g_e, "short_y": short_y, "short_d": short_d}


def estimates(params: Params) -> dict[str, str]:
    """Young's and Daly's intervals against the exact optimum, at the fleet's C/M and across C/M from 1e-4 to 1.

    Parameters
    ----------
    params : Params
        The fleet's inputs.

    Returns
    -------
    dict of str to str
        ``ratio`` (the fleet's C/M), ``daly`` (Daly's interval), ``daly_diff`` (how far it is from the exact
        optimum, "shorter" or "longer"), ``young_short`` (points Young's interval gives up here), and at C = M
        and C/M = 0.1: ``young_excess_at_1``, ``young_short_at_1``,
        ``young_short_at_01``, ``daly_rel_at_1``, ``daly_short_at_1``.
    """
    c, m, r = params.checkpoint_cost, params.mtbi, params.restart
    e = _estimates(params)
    at_1, at_01 = RATIOS.index(1.0), RATIOS.index(0.1)
    young_here = float(exact.exact_goodput(c, m, r) - exact.exact_goodput(c, m, r, model.optimal_interval(c, m)))
    daly = float(exact.daly_interval(c, m))
    diff = daly - float(exact.exact_optimal_interval(c, m))
    return {
        "ratio": f"{c / m:.4f}",
        "daly": format_duration(daly, 6),
        "daly_diff": f"{format_duration(abs(diff), 2)} {'longer' if diff > 0 else 'shorter'}",
        "young_short": points(young_here, 4),
        "young_excess_at_1": f"{float(e['t_y'][at_1] / e['t_e'][at_1] - 1):.0%}",
        "young_short_at_1": points(float(e["short_y"][at_1]), 2),
        "young_short_at_01": points(float(e["short_y"][at_01]), 3),
        "daly_rel_at_1": f"{abs(float(e['t_d'][at_1] / e['t_e'][at_1] - 1)):.1%}",
        "daly_short_at_1": points(float(e["short_d"][at_1]), 4),
    }


def estimates_table(params: Params) -> dict[str, Any]:
    """Young's, Daly's and the exact optimum across C/M, as arguments of :func:`goodput.book.tables.book_table`."""
    import pandas as pd

    e = _estimates(params)
    frame: pd.DataFrame = pd.DataFrame({
        "C/M": [f"{x:g}" for x in RATIOS],
        "Young T/M": [f"{x:.4f}" for x in e["t_y"] / params.mtbi],
        "Daly T/M": [f"{x:.4f}" for x in e["t_d"] / params.mtbi],
        "exact T*/M": [f"{x:.4f}" for x in e["t_e"] / params.mtbi],
        "goodput at T*": [percent(float(x), 2) for x in e["g_e"]],
        "Young: points below": [f"{100 * x:.3f}" for x in e["short_y"]],
        "Daly: points below": [f"{100 * x:.4f}" for x in e["short_d"]],
    })
    caption = (f"Young's, Daly's and the exact optimum interval as multiples of M, the exact goodput at the optimum, "
               f"and the points of exact goodput each estimate gives up (M = {format_duration(params.mtbi)} and "
               f"R = {format_duration(params.restart)}, {inputs_phrase(params)}).")
    return {"frame": frame, "caption": caption, "right": list(frame.columns)}


def estimates_figure(params: Params) -> dict[str, Any]:
    """The arguments of :func:`goodput.book.scale_figures.optimum_estimates`: C/M from 1e-4 to 1, the fleet's marked."""
    import numpy as np

    return {"mtbi": params.mtbi, "restart": params.restart, "ratios": np.logspace(-4, 0, 41),
            "mark": params.checkpoint_cost / params.mtbi}
