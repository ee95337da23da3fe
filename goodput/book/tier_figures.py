"""Figures of the chapter on checkpoints that are not yet safe: when a fast tier beside a persistent one pays.

Drawn like :mod:`goodput.book.figures` (no pyplot state, no title, axes labelled with
units, line styles as well as colours); every number is the exact model's
(:mod:`goodput.tiers`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import FixedLocator, NullLocator

from goodput.book.figures import COLOURS, WIDTH, _figure, _pct_axis, styled
from goodput.tiers import Tiers, best_every, exact_goodput, exact_optimal_interval
from goodput.units import format_duration

#: One colour and line style per persistent-to-fast cost ratio, in order.
_STYLES = (
    (COLOURS["checkpoint"], "-"),
    (COLOURS["lost"], (0, (6, 2))),
    (COLOURS["restart"], (0, (2, 1.5))),
    (COLOURS["accent"], (0, (6, 2, 1.5, 2))),
    (COLOURS["second"], (0, (10, 2, 2, 2, 2, 2))),
)
#: Marker shapes for the marked points, in order.
_MARKERS = ("o", "s", "D", "^")


def _best(scheme: Tiers, mtbi: float) -> tuple[float, int]:
    """Exact goodput at the best whole n and its best interval, and that n."""
    best = best_every(scheme, mtbi)
    return exact_goodput(best, mtbi, exact_optimal_interval(best, mtbi)), best.every


@styled
def goodput_against_survival(
    mtbi: float,
    checkpoint_cost: float,
    restart: float,
    ratios: Sequence[float],
    *,
    persistent_restart: float | None = None,
    drain: float = 0.0,
    marks: Mapping[str, tuple[float, float]] | None = None,
    shares: Sequence[float] | None = None,
) -> Figure:
    """Exact goodput at the best cadence and interval against the share s the fast tier survives, per C_p/C.

    Parameters
    ----------
    mtbi, checkpoint_cost, restart : float
        M, C and R in minutes.
    ratios : sequence of float
        Persistent-to-fast cost ratios C_p/C (each above 1), one curve each.
    persistent_restart : float, optional
        R_p in minutes (default R).
    drain : float, optional
        D, minutes from a persistent snapshot until it is durable (default 0).
    marks : mapping of str to (float, float), optional
        Points to mark, by label: (C_p/C, s); each is drawn on its ratio's curve.
    shares : sequence of float, optional
        The values of s drawn (default 0 to 0.98).

    Returns
    -------
    Figure
        Left: exact goodput (share of wall time) at the best whole n and interval against s, solid, and
        with every checkpoint persistent (n = 1), thin dotted, one colour per C_p/C. Right: the best n
        (log scale) against s.
    """
    grid = np.asarray(shares if shares is not None else np.linspace(0.0, 0.98, 43), dtype=float)
    rp = restart if persistent_restart is None else persistent_restart
    fig = _figure(WIDTH + 0.6, 3.9)
    left, right = fig.subplots(1, 2, width_ratios=(1.6, 1.0))
    best_n_max = 1
    for i, ratio in enumerate(ratios):
        colour, style = _STYLES[i % len(_STYLES)]
        values, cadences, single = [], [], []
        for s in grid:
            scheme = Tiers(checkpoint_cost, restart, drain, checkpoint_cost * ratio, rp, float(s), 1)
            g, n = _best(scheme, mtbi)
            values.append(g)
            cadences.append(n)
            single.append(exact_goodput(scheme, mtbi, exact_optimal_interval(scheme, mtbi)))
        best_n_max = max(best_n_max, max(cadences))
        left.plot(grid, values, color=colour, ls=style, lw=2.0, label=f"C_p = {ratio:g} C ({format_duration(checkpoint_cost * ratio)})")
        left.plot(grid, single, color=colour, ls=":", lw=1.0, alpha=0.8)
        right.step(grid, cadences, where="post", color=colour, ls=style, lw=1.8)
    for j, (label, (ratio, s)) in enumerate((marks or {}).items()):
        scheme = Tiers(checkpoint_cost, restart, drain, checkpoint_cost * ratio, rp, s, 1)
        g, n = _best(scheme, mtbi)
        marker = _MARKERS[j % len(_MARKERS)]
        left.plot([s], [g], marker=marker, ls="", ms=8, mfc="white", mec="black", mew=1.5, zorder=4,
                  label=f"{label}: best n = {n}")
        right.plot([s], [n], marker=marker, ls="", ms=8, mfc="white", mec="black", mew=1.5, zorder=4)
    handles, _ = left.get_legend_handles_labels()
    handles += [Line2D([], [], color="0.2", lw=2.0, label="exact model, best n and T"),
                Line2D([], [], color="0.2", lw=1.0, ls=":", label="every checkpoint persistent (n = 1)")]
    fig.legend(handles=handles, loc="outside lower center", ncols=2)
    left.set_xlabel("share of interruptions the fast tier survives, s")
    left.set_ylabel("goodput (share of wall time)")
    _pct_axis(left.yaxis)
    _pct_axis(left.xaxis)
    right.set_xlabel("share the fast tier survives, s")
    right.set_ylabel("best n (every n-th checkpoint persistent)")
    right.set_yscale("log")
    right.set_ylim(0.8, max(2.0, best_n_max * 1.5))
    right.yaxis.set_major_locator(FixedLocator([1, 2, 3, 5, 10, 20, 50, 100, 200]))
    right.yaxis.set_minor_locator(NullLocator())
    right.yaxis.set_major_formatter(lambda y, _: f"{y:g}")
    _pct_axis(right.xaxis)
    for ax in (left, right):
        ax.set_xlim(grid[0], grid[-1] + 0.01)
    return fig
