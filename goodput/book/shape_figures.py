"""Figures of the shape of a failure process: gaps between failures against fitted distributions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from matplotlib.figure import Figure

from goodput.book.figures import COLOURS, _figure, _legend_below, _pct_axis, styled

#: Colour and line style of the fitted curves, in the order they are given.
_CURVE_STYLES = ((COLOURS["checkpoint"], "-"), (COLOURS["total"], "--"), (COLOURS["lost"], ":"),
                 (COLOURS["restart"], "-."))


@styled
def gap_survival(times: Sequence[float], survival: Sequence[float], curves: Mapping[str, tuple[float, float]],
                 unit: str = "days", data_label: str = "gaps in the log (Kaplan-Meier)") -> Figure:
    """The share of gaps between failures longer than t: the log's steps against Weibull curves.

    `times` are the distinct complete gaps, sorted, in `unit`; `survival` is Kaplan-Meier
    (:func:`goodput.logs.fit.survival_curve`); each curve is (shape, scale in `unit`) of ``exp(-(t/scale)^shape)``.
    """
    t = np.asarray(times, dtype=np.float64)
    s = np.asarray(survival, dtype=np.float64)
    fig, ax = _figure(3.6)
    top = float(t.max()) * 1.15 if t.size else 1.0
    grid = np.linspace(0.0, top, 400)
    for (label, (shape, scale)), (colour, style) in zip(curves.items(), _CURVE_STYLES, strict=False):
        ax.plot(grid, np.exp(-np.power(grid / scale, shape)), color=colour, linestyle=style, label=label)
    ax.step(np.concatenate([[0.0], t]), np.concatenate([[1.0], s]), where="post", color=COLOURS["total"],
            linewidth=1.2, label=data_label)
    ax.plot(t, s, linestyle="none", marker="o", markersize=4, color=COLOURS["total"])
    ax.set_xlim(0.0, top)
    ax.set_ylim(0.0, 1.02)
    ax.set_xlabel(f"gap between failures ({unit}, exposure clock)")
    _pct_axis(ax.yaxis, "share of gaps longer")
    _legend_below(ax, ncols=2)
    return fig
