"""The book's figures: functions of explicit inputs that return a matplotlib Figure.

Figures are built on :class:`matplotlib.figure.Figure` directly (no pyplot
state), carry no title (the book's caption is the title), label every axis
with its unit, and use line styles and hatches as well as colour so they read
when printed in grey.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, PercentFormatter

from goodput import model

#: A colour-blind-safe palette (Okabe and Ito), one colour per role.
COLOURS = {
    "checkpoint": "#0072B2",
    "lost": "#D55E00",
    "restart": "#009E73",
    "goodput": "#999999",
    "total": "#000000",
    "accent": "#CC79A7",
    "second": "#E69F00",
}
#: Hatches paired with the colours above for grey print.
HATCHES = {"checkpoint": "//", "lost": "\\\\", "restart": "..", "goodput": ""}

_RC: dict[str, Any] = {
    "font.size": 10,
    "axes.labelsize": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "legend.frameon": False,
    "figure.dpi": 110,
    "savefig.bbox": "tight",
}


class BookFigure(Figure):
    """A Figure that displays itself as a PNG in a notebook, with no pyplot state or backend set-up."""

    def _repr_png_(self) -> bytes:
        import io

        buffer = io.BytesIO()
        self.savefig(buffer, format="png", dpi=150)
        return buffer.getvalue()


def _figure(width: float = 7.0, height: float = 3.6) -> BookFigure:
    import matplotlib

    matplotlib.rcParams.update(_RC)
    return BookFigure(figsize=(width, height), layout="constrained")


def _pct_axis(axis: Any, decimals: int = 0) -> None:
    axis.set_major_formatter(PercentFormatter(xmax=1.0, decimals=decimals))


def root_causes(components: Sequence[str], categories: Sequence[str], counts: Sequence[int]) -> Figure:
    """Horizontal bars of interruptions by root cause, shaded by category.

    Parameters
    ----------
    components, categories : sequence of str
        Component and category of each row (Table 5 of the Llama 3 paper).
    counts : sequence of int
        Interruptions of each component.

    Returns
    -------
    Figure
        Counts on the x axis, share of the total printed at each bar.
    """
    fig = _figure(7.0, 4.6)
    ax = fig.add_subplot()
    order = np.argsort(counts)
    total = float(sum(counts))
    palette = [COLOURS[k] for k in ("checkpoint", "lost", "restart", "accent", "second", "goodput")]
    hatches = ["", "//", "\\\\", "..", "xx", "--"]
    names = list(dict.fromkeys(categories))
    style = {name: (palette[i % len(palette)], hatches[i % len(hatches)]) for i, name in enumerate(names)}
    y = np.arange(len(counts))
    for row, i in enumerate(order):
        colour, hatch = style[categories[i]]
        ax.barh(row, counts[i], color=colour, hatch=hatch, edgecolor="white", linewidth=0.5)
        ax.text(counts[i] + total * 0.005, row, f"{counts[i] / total:.1%}", va="center", fontsize=8)
    ax.set_yticks(y, [components[i] for i in order], fontsize=8)
    ax.set_xlabel("unexpected interruptions in 54 days (count)")
    ax.grid(axis="y", visible=False)
    from matplotlib.patches import Patch

    handles = [Patch(facecolor=c, hatch=h, edgecolor="white", label=n) for n, (c, h) in style.items()]
    ax.legend(handles=handles, title="category", loc="lower right", fontsize=8)
    return fig


def overhead_curve(checkpoint_cost: float, mtbi: float, marks: Sequence[float] = ()) -> Figure:
    """The interval-dependent loss f(T) = C/T + T/(2M) and its two terms.

    Parameters
    ----------
    checkpoint_cost : float
        C in minutes.
    mtbi : float
        M in minutes.
    marks : sequence of float, optional
        Further intervals (minutes) to mark on the total curve.

    Returns
    -------
    Figure
        Loss (percent of wall time) against the interval T in minutes, with T* marked.
    """
    best = float(model.optimal_interval(checkpoint_cost, mtbi))
    t = np.linspace(best / 4, best * 4, 400)
    fig = _figure()
    ax = fig.add_subplot()
    ax.plot(t, model.checkpoint_overhead(t, checkpoint_cost), color=COLOURS["checkpoint"], ls="--",
            label="checkpoint overhead C/T")
    ax.plot(t, model.lost_work(t, mtbi), color=COLOURS["lost"], ls=":", lw=2, label="lost work T/(2M)")
    ax.plot(t, model.overhead(t, checkpoint_cost, mtbi), color=COLOURS["total"], label="f(T), their sum")
    fbest = float(model.overhead(best, checkpoint_cost, mtbi))
    ax.plot([best], [fbest], "o", color=COLOURS["total"])
    ax.annotate(f"T* = {best:.1f} min\nf(T*) = {fbest:.1%}", (best, fbest), xytext=(8, -30),
                textcoords="offset points", fontsize=9)
    for mark in marks:
        fm = float(model.overhead(mark, checkpoint_cost, mtbi))
        ax.plot([mark], [fm], "s", color=COLOURS["accent"])
        ax.annotate(f"T = {mark:g} min: {fm:.1%}", (mark, fm), xytext=(6, 6), textcoords="offset points",
                    fontsize=9)
    ax.axvline(best, color=COLOURS["total"], lw=0.6, alpha=0.5)
    ax.set_xlabel("checkpoint interval T (minutes of work)")
    ax.set_ylabel("loss (share of wall time)")
    ax.set_ylim(0, 0.3)
    _pct_axis(ax.yaxis)
    ax.legend(loc="upper center", ncols=3, fontsize=8)
    return fig


def loss_breakdown(cases: Mapping[str, model.Losses]) -> Figure:
    """Stacked horizontal bars: goodput and the three named losses for each case.

    Parameters
    ----------
    cases : mapping of str to Losses
        Label of each bar and its losses.

    Returns
    -------
    Figure
        Each bar spans 100% of wall time, split into goodput and the three losses.
    """
    fig = _figure(7.0, 1.0 + 0.7 * len(cases))
    ax = fig.add_subplot()
    parts = [("goodput", "goodput"), ("checkpoint", "checkpoint overhead"), ("lost", "lost work"),
             ("restart", "restart")]
    for row, (label, b) in enumerate(cases.items()):
        left = 0.0
        for key, name in parts:
            width = {"goodput": b.goodput, "checkpoint": b.checkpoint_overhead, "lost": b.lost_work,
                     "restart": b.restart_loss}[key]
            ax.barh(row, width, left=left, color=COLOURS[key], hatch=HATCHES[key], edgecolor="white",
                    label=name if row == 0 else None)
            if width > 0.02:
                ax.text(left + width / 2, row, f"{width:.1%}", ha="center", va="center", fontsize=8,
                        color="white" if key != "goodput" else "black")
            left += width
    ax.set_yticks(range(len(cases)), list(cases), fontsize=9)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of wall time")
    _pct_axis(ax.xaxis)
    ax.grid(axis="y", visible=False)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.35 if len(cases) < 3 else -0.2), ncols=4, fontsize=8)
    return fig


def goodput_vs_cost(mtbi: float, restart: float, marks: Sequence[float]) -> Figure:
    """Goodput at the optimum interval against the checkpoint cost.

    Parameters
    ----------
    mtbi : float
        M in minutes.
    restart : float
        R in minutes.
    marks : sequence of float
        Checkpoint costs (minutes) to mark and label.

    Returns
    -------
    Figure
        Goodput (percent) against C in minutes.
    """
    c = np.linspace(0.05, max(marks) * 1.6, 400)
    fig = _figure()
    ax = fig.add_subplot()
    ax.plot(c, model.goodput(c, mtbi, restart), color=COLOURS["total"], label="goodput at T* = sqrt(2CM)")
    for mark in marks:
        g = float(model.goodput(mark, mtbi, restart))
        ax.plot([mark], [g], "o", color=COLOURS["accent"])
        ax.annotate(f"C = {mark:g} min: {g:.1%}", (mark, g), xytext=(8, 4), textcoords="offset points", fontsize=9)
    ax.set_xlabel("checkpoint cost C (minutes)")
    ax.set_ylabel("goodput (share of wall time)")
    _pct_axis(ax.yaxis)
    ax.legend(loc="upper right", fontsize=8)
    return fig


def goodput_vs_interval(mtbi: float, restart: float, costs: Sequence[float], marks: Sequence[float]) -> Figure:
    """Goodput against the interval for several checkpoint costs: the shallow optimum.

    Parameters
    ----------
    mtbi : float
        M in minutes.
    restart : float
        R in minutes.
    costs : sequence of float
        Checkpoint costs (minutes), one curve each.
    marks : sequence of float
        Intervals (minutes) to mark on every curve.

    Returns
    -------
    Figure
        Goodput (percent) against T in minutes, optimum of each curve marked.
    """
    t = np.linspace(5, 90, 400)
    fig = _figure()
    ax = fig.add_subplot()
    styles = ["-", "--", ":", "-."]
    colours = [COLOURS["checkpoint"], COLOURS["lost"], COLOURS["restart"], COLOURS["accent"]]
    for i, cost in enumerate(costs):
        ax.plot(t, model.goodput(cost, mtbi, restart, t), ls=styles[i % 4], color=colours[i % 4],
                label=f"C = {cost:g} min")
        best = float(model.optimal_interval(cost, mtbi))
        ax.plot([best], [float(model.goodput(cost, mtbi, restart))], "o", color=colours[i % 4])
        for mark in marks:
            ax.plot([mark], [float(model.goodput(cost, mtbi, restart, mark))], "s", mfc="white", color=colours[i % 4])
    for mark in marks:
        ax.axvline(mark, color="black", lw=0.6, alpha=0.4)
    ax.set_xlabel("checkpoint interval T (minutes of work)")
    ax.set_ylabel("goodput (share of wall time)")
    ax.set_ylim(0.4, 1.0)
    _pct_axis(ax.yaxis)
    ax.legend(loc="lower right", fontsize=8, title="dot: optimum; square: marked interval", title_fontsize=8)
    return fig


def lever_gains(gains: Mapping[str, Mapping[str, float]]) -> Figure:
    """Grouped horizontal bars: goodput points gained by each lever, for each scenario.

    Parameters
    ----------
    gains : mapping of str to mapping of str to float
        Scenario label, then lever name to gain (fraction of 1).

    Returns
    -------
    Figure
        Points of goodput gained per lever.
    """
    scenarios = list(gains)
    names = list(next(iter(gains.values())))
    fig = _figure(7.0, 3.4)
    ax = fig.add_subplot()
    height = 0.8 / len(scenarios)
    colours = [COLOURS["checkpoint"], COLOURS["lost"], COLOURS["restart"]]
    hatches = ["", "//", ".."]
    for j, scenario in enumerate(scenarios):
        y = np.arange(len(names)) + j * height
        values = [100 * gains[scenario][n] for n in names]
        ax.barh(y, values, height=height, color=colours[j % 3], hatch=hatches[j % 3], edgecolor="white",
                label=scenario)
        for yi, v in zip(y, values, strict=True):
            ax.text(v + 0.2, yi, f"{v:.1f}", va="center", fontsize=8)
    ax.set_yticks(np.arange(len(names)) + height * (len(scenarios) - 1) / 2, names)
    ax.invert_yaxis()
    ax.set_xlabel("goodput gained (percentage points)")
    ax.grid(axis="y", visible=False)
    ax.legend(loc="lower right", fontsize=8)
    return fig


def fleet_scaling(gpus: np.ndarray, mtbi: np.ndarray, interval: np.ndarray, goodput: np.ndarray) -> Figure:
    """M, T* and goodput against fleet size, at a constant per-GPU failure rate.

    Parameters
    ----------
    gpus : ndarray
        Fleet sizes.
    mtbi, interval : ndarray
        M and T* in minutes for each fleet size.
    goodput : ndarray
        First-order goodput at T* for each fleet size.

    Returns
    -------
    Figure
        Two panels: minutes (log-log) and goodput against GPUs.
    """
    fig = _figure(7.5, 3.4)
    left, right = fig.subplots(1, 2)
    left.loglog(gpus, mtbi, color=COLOURS["total"], label="M, mean time between interruptions")
    left.loglog(gpus, interval, color=COLOURS["checkpoint"], ls="--", label="T* = sqrt(2CM)")
    left.set_xlabel("GPUs in the job")
    left.set_ylabel("minutes")
    left.legend(fontsize=8, loc="lower left")
    right.semilogx(gpus, goodput, color=COLOURS["lost"])
    right.set_xlabel("GPUs in the job")
    right.set_ylabel("first-order goodput at T*")
    _pct_axis(right.yaxis)
    for ax in (left, right):
        ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:,.0f}"))
    return fig
