"""Figures for the chapters on measuring from logs and on uncertainty."""

from __future__ import annotations

import math
import textwrap
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np
from matplotlib.figure import Figure
from matplotlib.patches import Patch
from matplotlib.ticker import MaxNLocator

from goodput.book.figures import COLOURS, HATCHES, _figure, _pct_axis, styled
from goodput.book.shape_figures import gap_survival
from goodput.report import percent, points

if TYPE_CHECKING:
    from goodput.logs.events import EventMeasurement

#: Colour and hatch of each loss named by :func:`goodput.logs.loss_comparison`.
_LOSS_STYLE = {
    "checkpoint overhead": (COLOURS["checkpoint"], HATCHES["checkpoint"]),
    "lost work": (COLOURS["lost"], HATCHES["lost"]),
    "restart": (COLOURS["restart"], HATCHES["restart"]),
    "unmodelled": (COLOURS["accent"], "xx"),
}


@styled
def measured_vs_predicted(losses: Mapping[str, tuple[float, float]], model: str = "first order") -> Figure:
    """Paired horizontal bars: each loss as measured from logs (filled) and as `model` predicts it (outlined).

    Losses are (measured, predicted) fractions of wall time, drawn in the order given; a name outside the four of
    :func:`goodput.logs.loss_comparison` is drawn grey.
    """
    names = list(losses)
    fig, ax = _figure(1.2 + 0.75 * len(names))
    height = 0.38
    top = max(max(pair) for pair in losses.values())
    for row, name in enumerate(names):
        measured, predicted = losses[name]
        colour, hatch = _LOSS_STYLE.get(name, (COLOURS["goodput"], ""))
        ax.barh(row - height / 2, measured, height=height, color=colour, hatch=hatch, edgecolor="white")
        ax.barh(row + height / 2, predicted, height=height, facecolor="white", edgecolor=colour, hatch=hatch,
                linewidth=1.2)
        for y, value, what in ((row - height / 2, measured, "measured"), (row + height / 2, predicted, "predicted")):
            text = f"{what} {percent(value)}" if value > 0 or what == "measured" else "predicted: not in the model"
            ax.text(value + top * 0.01, y, text, va="center", fontsize=9)
    ax.set_yticks(np.arange(len(names)), names)
    ax.invert_yaxis()
    ax.set_xlim(0, top * 1.45)
    _pct_axis(ax.xaxis, "share of wall time")
    ax.grid(axis="y", visible=False)
    handles = [
        Patch(facecolor=COLOURS["goodput"], edgecolor="white", label="measured from the logs (filled)"),
        Patch(facecolor="white", edgecolor=COLOURS["total"], label=f"{model} (outlined)"),
    ]
    ax.legend(handles=handles, loc="lower right")
    return fig


@styled
def goodput_swings(labels: Sequence[str], ranges: Sequence[tuple[float, float]], goodput: float,
                   box: tuple[float, float] | None = None, *, exact: Sequence[str] = ()) -> Figure:
    """Tornado chart: the range of goodput when each input with a range moves alone over it.

    Goodput as fractions of 1, widest range first (:func:`goodput.uncertainty.one_at_a_time`); `box`, all inputs free at
    once, is a last hatched bar. An input taken as exact has no bar (zero width says nothing) and is named under the
    axes; with no input at all, the point value is shown alone, labelled as such.
    """
    rows = [(label, pair, COLOURS["checkpoint"], HATCHES["checkpoint"])
            for label, pair in zip(labels, ranges, strict=True)]
    if box is not None:
        rows.append(("all together", box, COLOURS["goodput"], "xx"))
    fig, ax = _figure(1.5 + 0.6 * max(len(rows), 1))
    if rows:
        for row, (_, (low, high), colour, hatch) in enumerate(rows):
            ax.barh(row, high - low, left=low, height=0.6, color=colour, hatch=hatch, edgecolor="white")
            ax.text(high, row, f"  {points(high - low)}", va="center", fontsize=9)
        ax.set_yticks(np.arange(len(rows)), [r[0] for r in rows], fontsize=9)
        low_all = min(r[1][0] for r in rows)
        high_all = max(r[1][1] for r in rows)
        pad = (high_all - low_all) * 0.25 or 0.01
        ax.set_xlim(low_all - pad / 3, high_all + pad)
    else:
        ax.plot([goodput], [0], marker="D", color=COLOURS["total"], ls="none")
        ax.text(goodput, 0, f"  {percent(goodput)}: no input has a range, so nothing moves", va="center", fontsize=9)
        ax.set_yticks([0], ["point values (no range given)"], fontsize=9)
        ax.set_xlim(goodput - 0.03, goodput + 0.05)
        ax.set_ylim(-0.8, 0.8)
    ax.axvline(goodput, color=COLOURS["total"], lw=1.0, ls="--", label=f"at the point values: {percent(goodput)}")
    ax.invert_yaxis()
    ax.xaxis.set_major_locator(MaxNLocator(nbins=7, steps=[1, 2, 5, 10]))  # whole percents
    _pct_axis(ax.xaxis, "goodput by the exact model (share of wall time)")
    ax.grid(axis="y", visible=False)
    ax.legend(loc="lower right", bbox_to_anchor=(1.0, 1.0))
    if exact:
        note = "Taken as exact (no range given), so not drawn: " + "; ".join(exact) + "."
        fig.supxlabel("\n".join(textwrap.wrap(note, 90)), fontsize=9, x=0.02, ha="left")
    return fig


def failure_gaps(e: EventMeasurement, infant_shape: float, name: str = "GLM-130B") -> Figure:
    """The share of an event log's gaps between failures longer than t (Kaplan-Meier), against fitted curves.

    In days: the Weibull fit, the exponential fitted to the same gaps (its censored maximum-likelihood mean) and the
    Weibull of `infant_shape` with that mean.
    """
    from goodput.logs.fit import survival_curve  # kept off the import path: it brings SciPy's optimizers

    if e.fit is None:
        raise ValueError(f"{e.events_source}: no Weibull fit ({e.fit_problem})")
    day = 1440.0
    times, survival = survival_curve(e.gaps / day, [e.open_gap_min / day])
    exp_mean = (e.gaps.sum() + e.open_gap_min) / e.gaps.size / day
    curves = {
        f"Weibull fit, shape {e.fit.shape:.3g}": (e.fit.shape, e.fit.scale / day),
        "exponential, fitted to the same gaps": (1.0, exp_mean),
        f"Weibull shape {infant_shape:g}, same mean (the failures chapter)": (
            infant_shape, exp_mean / math.gamma(1.0 + 1.0 / infant_shape)),
    }
    return gap_survival(times.tolist(), survival.tolist(), curves, unit="days", data_label=f"{name}'s gaps (Kaplan-Meier)")
