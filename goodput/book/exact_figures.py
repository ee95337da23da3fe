"""Equations, tables and the figure of the chapter on the exact model (``book/exact.md``).

The equations are SymPy's (:mod:`goodput.symbolic`), shown as LaTeX. Captions that name the inputs file leave it as
text: :func:`goodput.book.tables.book_table` escapes every caption once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
import sympy as sp
from IPython.display import Math

from goodput import model, symbolic
from goodput.book.scale_figures import optimum_estimates
from goodput.book.tables import book_table, loss_column
from goodput.limits import RATIOS, estimates_sweep
from goodput.pages.common import LOSS_WORDS, is_worked_example, left_out_text
from goodput.report import percent
from goodput.symbolic import derive_first_order, restart_free_derivative
from goodput.units import format_duration

if TYPE_CHECKING:
    from matplotlib.figure import Figure
    from pandas.io.formats.style import Styler

    from goodput.fleet import FleetPlan


def _inputs(fleet: FleetPlan) -> str:
    p = fleet.params
    return "the worked example" if is_worked_example(p) else f"the inputs file {p.source}"


def _math(latex: str) -> Math:
    return Math(latex)  # type: ignore[no-untyped-call]


def series_equations() -> list[Math]:
    """G, its first-order part, its second-order term, and the first-order part minus the package's (zero)."""
    series = symbolic.goodput_series()
    c, m, r, t = series.symbols
    check = sp.simplify(series.first_order - model.goodput(c, m, r, t))
    return [_math(text) for text in (
        r"G = " + sp.latex(series.exact),
        r"G_{\le 1} = " + sp.latex(series.first_order),
        r"G_{2} = " + sp.latex(series.second_order),
        r"G_{\le 1} - \left(1 - \frac{C}{T} - \frac{T}{2M} - \frac{R}{M}\right) = " + sp.latex(check),
    )]


def optimum_equations() -> list[Math]:
    """The derivative of the wall time per kept work and its Lambert-W root."""
    optimum = symbolic.symbolic_optimum()
    return [
        _math(r"\frac{d}{dT}\left[" + sp.latex(optimum.objective) + r"\right] = "
             + sp.latex(sp.factor(optimum.derivative))),
        _math(r"T^{*} = " + sp.latex(optimum.solution)),
    ]


def restart_equation() -> Math:
    """The derivative divided by e^{R/M}: it does not contain R."""
    return _math(r"e^{-R/M}\,\frac{d}{dT}\left[\ldots\right] = " + str(sp.latex(restart_free_derivative()[0])))


def breakdown_table(fleet: FleetPlan) -> Styler:
    """Where the fleet's wall time goes at its plan (full scheme), exact and, where quotable, first order."""
    columns = {"": ["interval T*", *(LOSS_WORDS[n] for n in fleet.losses), "goodput"],
               "exact": loss_column(fleet.plan, fleet.plan.drained)}
    if fleet.first_order_quotable:
        columns["first order"] = loss_column(fleet.first_order, fleet.plan.drained)
    scheme = "one checkpoint tier" if fleet.plain else f"its {left_out_text(fleet.plan)} included"
    caption = (f"Where the fleet's wall time goes at each model's own optimum ({_inputs(fleet)}, {scheme})."
               if fleet.first_order_quotable else
               f"Where the fleet's wall time goes at its plan, by the exact model ({_inputs(fleet)}, {scheme}); "
               f"first order is {fleet.first_order_status} for this fleet and is not shown.")
    frame = pd.DataFrame(columns)
    return book_table(frame, caption=caption, right=list(frame.columns[1:]))


def points_below(x: float) -> str:
    """A shortfall (a fraction of 1) in points to three decimals; one that rounds to zero is "0.000", never "-0.000".

    >>> points_below(0.00123), points_below(-1e-9), points_below(0.0)
    ('0.123', '0.000', '0.000')
    """
    text = f"{100 * x:.3f}"
    return "0.000" if float(text) == 0.0 else text


def estimates_table(fleet: FleetPlan) -> Styler:
    """Young's, Daly's and the exact optimum across C/M at the fleet's M and R (the one-tier model)."""
    m, r = fleet.params.mtbi, fleet.params.restart
    e = estimates_sweep(m, r)
    frame = pd.DataFrame({
        "C/M": [f"{x:g}" for x in RATIOS],
        "Young T/M": [f"{x:.3f}" for x in e["t_y"] / m],
        "Daly T/M": [f"{x:.3f}" for x in e["t_d"] / m],
        "exact T*/M": [f"{x:.3f}" for x in e["t_e"] / m],
        "goodput at T*": [percent(float(x)) for x in e["g_e"]],
        "Young: points below": [points_below(float(x)) for x in e["short_y"]],
        "Daly: points below": [points_below(float(x)) for x in e["short_d"]],
    })
    caption = (f"The one-tier model: Young's, Daly's and the exact optimum interval as multiples of M, the exact "
               f"goodput at the optimum, and the points of exact goodput each estimate gives up "
               f"(M = {format_duration(m)} and R = {format_duration(r)}, {_inputs(fleet)}).")
    return book_table(frame, caption=caption, right=list(frame.columns))


def estimates_figure(fleet: FleetPlan) -> Figure:
    """:func:`goodput.book.scale_figures.optimum_estimates` for C/M from 1e-4 to 1 at the fleet's M and R, its C/M marked.

    A fleet whose C/M is below 1e-4 gets curves from the power of ten at or below it, so that its mark meets them (ten
    points a decade; the Lambert W optimum and the goodputs stay exact there: at C/M = 1e-9 Young's interval is within
    2e-5 of it).
    """
    p = fleet.params
    ratio = p.checkpoint_cost / p.mtbi
    low = min(-4, int(np.floor(np.log10(ratio)))) if ratio > 0.0 else -4
    return optimum_estimates(p.mtbi, p.restart, np.logspace(low, 0, 10 * -low + 1),
                             mark=ratio if ratio <= 1.0 else None)


def minimization_lines() -> list[str]:
    """The SymPy steps from f(T) to its two roots, as LaTeX (one displayed equation each): f(T), df/dT, the roots."""
    d = derive_first_order()
    roots = ", ".join(sp.latex(r) for r in d.roots)
    return [
        r"f(T) = " + sp.latex(d.overhead),
        r"\frac{df}{dT} = " + sp.latex(d.derivative),
        r"\frac{df}{dT} = 0 \;\Rightarrow\; T \in \left\{" + roots + r"\right\}",
    ]


def optimum_lines() -> list[str]:
    """The positive root and its checks, as LaTeX: T*, the second derivative, the two terms' difference, f(T*)."""
    d = derive_first_order()
    return [
        r"T^{*} = " + sp.latex(d.optimum),
        r"\left.\frac{d^2 f}{dT^2}\right|_{T^{*}} = " + sp.latex(d.second_derivative) + r" > 0",
        r"\left.\left(\frac{C}{T} - \frac{T}{2M}\right)\right|_{T^{*}} = " + sp.latex(d.terms_difference),
        r"f(T^{*}) = " + sp.latex(d.minimum),
    ]
