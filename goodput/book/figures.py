"""The book's figures: functions of explicit inputs that return a matplotlib Figure.

No pyplot state and no title (the caption is the title); every axis labelled with its unit; line styles, markers and
hatches as well as colour, so that they read in grey; 6.4 inches wide with 10-point text or larger (a footnote's size in
the text column); legends where no data is. Each draws under :func:`styled` (an ``rc_context``), so no global setting
changes. Durations are in minutes unless said otherwise.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, TypeVar, cast

import matplotlib
import numpy as np
import numpy.typing as npt
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.text import Annotation
from matplotlib.ticker import AutoLocator, FixedLocator, Formatter, FuncFormatter, MaxNLocator, NullLocator

from goodput import model, tiers
from goodput.exact import exact_goodput
from goodput.fleet import FleetPlan
from goodput.params import mtbi_from_rate
from goodput.plan import levers_at_optimum, recovery_of
from goodput.report import (
    AT_OPTIMUM,
    INPUT_NAMES,
    first_order_optimum,
    gain_text,
    percent,
    percent_sig2,
    range_text,
    slow_label,
)
from goodput.restart import Recovery, recovery_losses
from goodput.tiers import TierLosses
from goodput.units import format_duration

#: A colour-blind-safe palette (Okabe and Ito), one colour per role.
COLOURS = {
    "checkpoint": "#0072B2",
    "lost": "#D55E00",
    "restart": "#009E73",
    "goodput": "#BBBBBB",
    "total": "#000000",
    "accent": "#CC79A7",
    "drain": "#CC79A7",
    "second": "#E69F00",
}
#: Hatches paired with the colours above for grey print.
HATCHES = {"checkpoint": "//", "lost": "\\\\", "restart": "..", "drain": "xx", "goodput": ""}

#: Width of a one-panel figure, inches.
WIDTH = 6.4

#: The book's matplotlib settings, applied per figure with :func:`matplotlib.rc_context`.
STYLE: dict[str, Any] = {
    "font.size": 10.5,
    "axes.labelsize": 10.5,
    "xtick.labelsize": 10,
    "ytick.labelsize": 10,
    "legend.fontsize": 9.5,
    "legend.title_fontsize": 9.5,
    "lines.linewidth": 1.8,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "legend.frameon": False,
    "hatch.linewidth": 0.8,
    "figure.dpi": 110,
    "savefig.bbox": "tight",
    "savefig.pad_inches": 0.08,
}
#: A white box behind a label drawn over lines or hatches.
_LABEL_BOX = {"boxstyle": "round,pad=0.2", "facecolor": "white", "edgecolor": "none", "alpha": 0.9}


class BookFigure(Figure):
    """A Figure that displays itself as a PNG in a notebook, with no pyplot state or backend set-up."""

    def _repr_png_(self) -> bytes:
        import io

        buffer = io.BytesIO()
        with matplotlib.rc_context(cast(Any, STYLE)):
            self.savefig(buffer, format="png", dpi=150)
        return buffer.getvalue()


def _figure(height: float, width: float = WIDTH, panels: int = 1, **kwargs: Any) -> tuple[BookFigure, Any]:
    """A constrained-layout figure and its axes: one, or a row of `panels` (`kwargs` to ``subplots``)."""
    fig = BookFigure(figsize=(width, height), layout="constrained")
    return fig, fig.add_subplot() if panels == 1 else fig.subplots(1, panels, **kwargs)


F = TypeVar("F", bound=Callable[..., Any])


def styled(function: F) -> F:
    """Draw a figure under the book's style (:data:`STYLE`), leaving matplotlib's global settings alone."""

    @functools.wraps(function)
    def draw(*args: Any, **kwargs: Any) -> Any:
        with matplotlib.rc_context(cast(Any, STYLE)):
            return function(*args, **kwargs)

    return cast(F, draw)


class PercentTicks(Formatter):
    """Fractions of 1 as percentages, with the fewest decimals (none to four) that write every tick exactly.

    The decimals follow the ticks' spacing, so ticks 0.25 points apart read "98.25%" and ticks a hundredth of a point
    apart "0.01%", never two ticks alike; no "-0%".
    """

    def __init__(self) -> None:
        self.decimals = 0

    def set_locs(self, locs: Any) -> None:
        """Take the decimals from the ticks about to be labelled."""
        super().set_locs(locs)
        self.decimals = percent_decimals([float(x) for x in locs])

    def __call__(self, x: float, pos: int | None = None) -> str:
        """The tick at `x` as a percentage."""
        text = f"{100 * x:.{self.decimals}f}"
        return (text.lstrip("-") if float(text) == 0.0 else text) + "%"


def percent_decimals(ticks: Sequence[float]) -> int:
    """The fewest decimals (0 to 4) that write each tick (a fraction of 1) as a percentage exactly and tell them apart.

    >>> percent_decimals([0.0, 0.2, 0.4]), percent_decimals([0.98, 0.9825, 0.985]), percent_decimals([0.0001, 0.0002])
    (0, 2, 2)
    """
    values = sorted(100 * x for x in ticks if math.isfinite(x))
    gaps = [b - a for a, b in itertools.pairwise(values) if b - a > 0]
    tolerance = 0.01 * min(gaps) if gaps else 1e-9
    for digits in range(5):
        labels = [f"{v:.{digits}f}" for v in values]
        if len(set(labels)) == len(labels) and all(abs(float(t) - v) <= tolerance for t, v in zip(labels, values,
                                                                                                 strict=True)):
            return digits
    return 4


def _pct_axis(axis: Any, label: str | None = None) -> None:
    """Percent ticks (fractions of 1, :class:`PercentTicks`) on `axis`, and its label when given.

    A linear axis left to matplotlib's default locator gets ticks 1, 2 or 5 (not 2.5) times a power of ten apart.
    """
    if isinstance(axis.get_major_locator(), AutoLocator):
        axis.set_major_locator(MaxNLocator("auto", steps=[1, 2, 5, 10]))
    axis.set_major_formatter(PercentTicks())
    if label is not None:
        getattr(axis.axes, f"set_{axis.axis_name}label")(label)


#: Units a duration axis can be drawn in: the unit's plural, and minutes per unit.
_TIME_UNITS = (("milliseconds", 1 / 60_000), ("seconds", 1 / 60), ("minutes", 1.0), ("hours", 60.0), ("days", 1440.0))


def time_unit(minutes: float) -> tuple[str, float]:
    """The unit that writes a duration (in minutes) as :func:`goodput.units.format_duration` would: its plural and size.

    Milliseconds below a tenth of a second, seconds below a minute, minutes below five hours, hours below two days, then
    days.

    >>> time_unit(19.3), time_unit(28.9 / 60), time_unit(0.0355 / 60000)[0], time_unit(600.0)
    (('minutes', 1.0), ('seconds', 0.016666666666666666), 'milliseconds', ('hours', 60.0))
    """
    seconds = 60.0 * minutes
    index = 0 if seconds < 0.1 else 1 if seconds < 60.0 else 2 if minutes < 300.0 else 3 if minutes < 2880.0 else 4
    return _TIME_UNITS[index]


#: Tick candidates of a logarithmic duration axis, minutes: round clock marks about a decade apart, and finer ones for
#: an axis too short to hold three of those.
_DURATION_TICKS = (
    (1 / 60_000, 1 / 6_000, 1 / 600, 1 / 60, 1 / 6, 1.0, 10.0, 60.0, 600.0, 1440.0, 14_400.0),
    tuple(sorted({*(k / 60_000 for k in (1, 2, 5, 10, 20, 50, 100, 200, 500)), *(k / 60 for k in (1, 2, 5, 10, 20, 30)),
                  *(float(k) for k in (1, 2, 5, 10, 20, 30)), *(60.0 * k for k in (1, 2, 5, 10, 24)),
                  *(1440.0 * k for k in (2, 5, 10, 20, 50, 100))})),
)


def _log_duration_axis(axis: Any, low: float, high: float, label: str) -> None:
    """A logarithmic axis of durations in minutes from `low` to `high`, ticks at round durations written as durations."""
    getattr(axis.axes, f"set_{axis.axis_name}scale")("log")
    getattr(axis.axes, f"set_{axis.axis_name}lim")(low, high)
    coarse, fine = ([t for t in candidates if low <= t <= high] for candidates in _DURATION_TICKS)
    ticks = coarse if len(coarse) >= 3 else fine
    while len(ticks) > 7:  # thin to every other one
        ticks = ticks[::2]
    axis.set_major_locator(FixedLocator(ticks))
    axis.set_minor_locator(NullLocator())
    axis.set_major_formatter(FuncFormatter(lambda x, _: format_duration(x)))
    getattr(axis.axes, f"set_{axis.axis_name}label")(label)


def _fit_right(ax: Any, texts: Sequence[Any]) -> None:
    """Widen `ax`'s x axis (from 0 or below) until every one of `texts` ends inside it."""
    fig = ax.figure
    for _ in range(4):
        fig.draw_without_rendering()
        over = max((text.get_window_extent().x1 for text in texts), default=0.0) - ax.get_window_extent().x1
        if over <= 0:
            break
        x0, x1 = ax.get_xlim()
        ax.set_xlim(x0, x0 + (x1 - x0) * (1.0 + (over + 6.0) / ax.get_window_extent().width))


def _legend_below(ax: Any, ncols: int, **kwargs: Any) -> None:
    """The axes' legend under the figure, outside the axes (the constrained layout makes room for it)."""
    handles, labels = ax.get_legend_handles_labels()
    ax.figure.legend(handles, labels, loc="outside lower center", ncols=ncols, **kwargs)


@styled
def root_causes(components: Sequence[str], categories: Sequence[str], counts: Sequence[int]) -> Figure:
    """Horizontal bars of interruptions by root cause (Table 5 of the Llama 3 paper), shaded by category."""
    fig, ax = _figure(5.2)
    order = np.argsort(counts, kind="stable")
    total = float(sum(counts))
    # Six categories, six colours no two of which are alike (no orange beside the vermillion), each with a hatch.
    palette = [COLOURS[k] for k in ("checkpoint", "lost", "restart", "accent", "total", "goodput")]
    hatches = ["", "//", "\\\\", "..", "xx", "--"]
    names = list(dict.fromkeys(categories))
    style = {name: (palette[i % len(palette)], hatches[i % len(hatches)]) for i, name in enumerate(names)}
    for row, i in enumerate(order):
        colour, hatch = style[categories[i]]
        ax.barh(row, counts[i], color=colour, hatch=hatch, edgecolor="white", linewidth=0.5)
        ax.text(counts[i] + max(counts) * 0.01, row, percent(counts[i] / total), va="center", fontsize=9)
    ax.set_yticks(np.arange(len(counts)), [components[i] for i in order], fontsize=9.5)
    ax.set_ylim(-0.6, len(counts) - 0.4)
    ax.set_xlim(0, max(counts) * 1.12)
    ax.set_xlabel("unexpected interruptions in the 54-day snapshot (count)")
    ax.grid(axis="y", visible=False)
    handles = [Patch(facecolor=c, hatch=h, edgecolor="white", label=n) for n, (c, h) in style.items()]
    ax.legend(handles=handles, title="category", loc="lower right")
    return fig


@styled
def overhead_curve(checkpoint_cost: float, mtbi: float, whose: str = "") -> Figure:
    """The interval-dependent loss f(T) = C/T + T/(2M) and its two terms, T* marked; `whose` C and M, as its title.

    The curve's shape does not depend on C and M once T is in units of T*, so the axes are scaled to T* and f(T*), and
    the labels never sit on a curve.
    """
    best = float(model.optimal_interval(checkpoint_cost, mtbi))
    fbest = float(model.overhead(best, checkpoint_cost, mtbi))
    term = float(model.checkpoint_overhead(best, checkpoint_cost))
    unit, size = time_unit(best)  # the axis in the unit the optimum is written in
    # Any: the model's functions take all-float or all-array arguments, and here C, M are floats.
    t: Any = np.linspace(best / 4, best * 4, 400, dtype=np.float64)
    x = t / size
    fig, ax = _figure(3.6)
    ax.plot(x, model.checkpoint_overhead(t, checkpoint_cost), color=COLOURS["checkpoint"], ls="--",
            label="checkpoint overhead C/T")
    ax.plot(x, model.lost_work(t, mtbi), color=COLOURS["lost"], ls=":", lw=2.4, label="lost work T/(2M)")
    ax.plot(x, model.overhead(t, checkpoint_cost, mtbi), color=COLOURS["total"], label="f(T), their sum")
    ax.axvline(best / size, color=COLOURS["total"], lw=0.7, alpha=0.5)
    ax.plot([best / size], [fbest / 2], "o", mfc="white", mec=COLOURS["total"], ms=6)
    ax.plot([best / size], [fbest], "o", color=COLOURS["total"], ms=7)
    ax.annotate(
        f"T* = √(2CM) = {format_duration(best)}\nf(T*) = {percent_sig2(fbest)}\neach term {percent_sig2(term)}",
        (best / size, fbest), xytext=(1.45 * best / size, 1.55 * fbest), textcoords="data", va="bottom", ha="left",
        arrowprops={"arrowstyle": "-", "color": "0.3", "lw": 0.8, "shrinkB": 4},
    )
    ax.set_xlim(0, best * 4.1 / size)
    ax.set_ylim(0, 2.3 * fbest)
    ax.set_xlabel(f"checkpoint interval T ({unit} of work)")
    _pct_axis(ax.yaxis, "loss (share of wall time)")
    _legend_below(ax, ncols=3)
    if whose:
        _wrap_title(ax, ax.set_title(whose, loc="left", fontsize=10))
    return fig


def _wrap_title(ax: Any, title: Any) -> None:
    """Break `title` (a left title of `ax`) between words so that no line runs past the axes' right edge."""
    fig = ax.figure
    words = title.get_text().split()
    for _ in range(3):  # the layout moves the axes as the title gains lines: measure again
        fig.draw_without_rendering()
        renderer = cast(Any, fig)._get_renderer()
        if title.get_window_extent(renderer).x1 <= ax.get_window_extent(renderer).x1:
            return
        width = ax.get_window_extent(renderer).x1 - title.get_window_extent(renderer).x0
        lines: list[str] = []
        for word in words:  # greedy, each line measured as drawn
            title.set_text(f"{lines[-1]} {word}" if lines else word)
            if lines and title.get_window_extent(renderer).width > width:
                lines.append(word)
            elif lines:
                lines[-1] = f"{lines[-1]} {word}"
            else:
                lines.append(word)
        title.set_text("\n".join(lines))


#: The losses drawn: the colour and hatch's key, the attribute of the losses (none on one tier's), the legend's name.
_LOSS_PARTS = (("checkpoint", "checkpoint_overhead", "checkpoint overhead"), ("lost", "lost_work", "lost work"),
               ("restart", "restart_loss", "restart"), ("drain", "drain_loss", "not yet durable"))


@styled
def loss_breakdown(cases: Mapping[str, model.Losses | TierLosses]) -> Figure:
    """Stacked horizontal bars of the named losses for each case, with the goodput left over.

    Only the lost part is drawn, so that a loss of a few percent is wide enough to read; a share that does not fit in
    its segment is printed after the bar, beside the total lost and the goodput, and the figure is made tall enough
    for each bar's notes to stay beside it. A part a case does not have (no drain on one tier, or none at all) is
    neither drawn nor named for that case; the drain's legend entry only when some case has one.
    """
    fig, ax = _figure(1.5 + 0.8 * len(cases))
    shares = [[(key, name, float(getattr(b, attr, 0.0))) for key, attr, name in _LOSS_PARTS
               if float(getattr(b, attr, 0.0)) > 0] for b in cases.values()]
    present = {key for row in shares for key, _, _ in row}
    widest = max(sum(w for *_, w in row) for row in shares) or 0.01
    inside: list[tuple[Any, Any, int, str]] = []  # a share's label, its segment, its row and its words for a note
    totals: list[float] = []
    for row, parts in enumerate(shares):
        left = 0.0
        for key, name, width in parts:
            bar = ax.barh(row, width, left=left, height=0.6, color=COLOURS[key], hatch=HATCHES[key], edgecolor="white")
            # a loss as every page writes it (percent_sig2): 0.085%, not 0.1%
            text = ax.text(left + width / 2, row, percent_sig2(width), ha="center", va="center", fontsize=9.5,
                           bbox=_LABEL_BOX)
            inside.append((text, bar.patches[0], row, f"{name} {percent_sig2(width)}"))
            left += width
        totals.append(left)
    ax.set_yticks(range(len(cases)), list(cases))
    ax.set_ylim(len(cases) - 0.5, -0.5)
    ax.set_xlim(0, widest * 1.4)
    _pct_axis(ax.xaxis, "share of wall time lost")
    ax.grid(axis="y", visible=False)
    handles = [Patch(facecolor=COLOURS[key], hatch=HATCHES[key], edgecolor="white", label=name)
               for key, _, name in _LOSS_PARTS if key in present]
    fig.legend(handles=handles, loc="outside lower center", ncols=len(handles))
    # A share that does not fit inside its segment (with its white box) moves to the note after the bar; widening the
    # axis for the notes narrows the segments, so look again until nothing more moves.
    moved: set[int] = set()
    notes: list[Any] = []
    for _ in range(4):
        fig.draw_without_rendering()
        more = set()
        for i, (text, patch, _, _) in enumerate(inside):
            box = text.get_bbox_patch()
            needed = (box.get_window_extent() if box is not None else text.get_window_extent()).width
            if i not in moved and needed > patch.get_window_extent().width - 2.0:
                text.remove()
                more.add(i)
        if notes and not more:
            break
        moved |= more
        for note in notes:
            note.remove()
        notes = []
        for row, (left, b) in enumerate(zip(totals, cases.values(), strict=True)):
            lines = [words for i, (_, _, r, words) in enumerate(inside) if r == row and i in moved]
            lines += [f"lost {percent_sig2(left)}", f"goodput {percent(b.goodput)}"]
            notes.append(ax.text(left + 0.02 * widest, row, "\n".join(lines), va="center", ha="left", fontsize=10,
                                 linespacing=1.25))
        _fit_right(ax, notes)
    # The room made for the notes is not a share: no tick beyond all of the wall time (a 94% loss drew 150% to 250%).
    ax.xaxis.set_major_locator(FixedLocator([t for t in ax.get_xticks() if 0.0 <= t <= 1.0 + 1e-9]))
    if ax.get_xlim()[1] > 1.0:
        ax.spines["bottom"].set_bounds(0.0, 1.0)
    _fit_rows(ax, notes, len(cases))
    return fig


def _fit_rows(ax: Any, notes: Sequence[Any], rows: int) -> None:
    """Make `ax`'s figure taller until each of the `rows` rows is taller than the tallest of `notes`, with a gap."""
    fig = ax.figure
    for _ in range(4):
        fig.draw_without_rendering()
        pitch = ax.get_window_extent().height / rows
        needed = max(note.get_window_extent().height for note in notes) + 0.12 * fig.dpi
        if needed <= pitch:
            break
        fig.set_figheight(fig.get_figheight() + rows * (needed - pitch) / fig.dpi)


def _cost_label(cost: float) -> str:
    """A checkpoint cost for a legend: ``"C = 40 s"``, ``"C = 1 min"``."""
    return f"C = {format_duration(cost)}"


#: The ratio of the largest optimum interval to the smallest beyond which the interval figure's axis is logarithmic.
LOG_SPREAD = 10.0
#: The same for the checkpoint costs of the cost figure, whose smallest cost sits at 1/spread of a linear axis.
COST_LOG_SPREAD = 100.0

#: A curve computed elsewhere (for a checkpoint scheme with a drain or a persistent tier): x values, the exact
#: model's goodput, first order's goodput (or None), and the exact optimum as (x, goodput), or None.
Curve = tuple[npt.ArrayLike, npt.ArrayLike, "npt.ArrayLike | None", "tuple[float, float] | None"]


def _one_tier(cost: float, mtbi: float, restart: float, interval: float | None, recovery: Recovery | None,
              which: str = "exact") -> Any:
    """One tier's losses by `which` model (at its optimum where `interval` is None), with the fleet's `recovery`.

    :func:`goodput.restart.recovery_losses`, which without recovery are the one-tier model's.
    """
    return recovery_losses(cost, mtbi, restart, interval, which=which, **vars(recovery or Recovery()))


@styled
def goodput_vs_cost(
    mtbi: float, restart: float, marks: Sequence[float], points: Sequence[tuple[float, float, str]] = (),
    first_order: bool = True, marks_label: str | None = None, recovery: Recovery | None = None,
) -> Figure:
    """Goodput at the optimum interval against the checkpoint cost, by the exact model and by first order.

    `points` are (cost, goodput, label) computed by another model (a drain or a persistent tier); leave `first_order`
    off where the fleet's first order is not quotable; `recovery` the fleet's recovery without rollback and planned
    stops, in every curve and mark. Costs more than :data:`COST_LOG_SPREAD` times apart (a snapshot
    of milliseconds beside a write of minutes) get a logarithmic axis of durations, so that neither sits on the y axis.
    """
    costs = [*marks, *(c for c, _, _ in points)]
    top = max(costs) * 1.6 if costs else 0.05 * mtbi
    wide = len(costs) > 1 and max(costs) > COST_LOG_SPREAD * min(costs)
    # Any: the model's functions take all-float or all-array arguments, and here C, M are floats.
    c: Any = (np.geomspace(min(costs) / 4, top, 400) if wide else np.linspace(top / 200, top, 400)).astype(np.float64)
    if recovery is None:
        exact_curve = np.asarray(exact_goodput(c, mtbi, restart))
    else:
        exact_curve = np.array([_one_tier(float(x), mtbi, restart, None, recovery).goodput for x in c])
    fig, ax = _figure(3.4)
    ax.plot(c, exact_curve, color=COLOURS["total"], label="exact model, at its optimum T*")
    if first_order:
        first_curve = model.goodput(c, mtbi, restart) if recovery is None else np.array(
            [_one_tier(float(x), mtbi, restart, None, recovery, "first-order").goodput for x in c])
        optimum = first_order_optimum(0.0 if recovery is None else recovery.just_in_time)
        ax.plot(c, first_curve, color=COLOURS["checkpoint"], ls="--", lw=1.4, label=f"first order, at T* = {optimum}")
    labels: list[Annotation] = []
    for i, mark in enumerate(marks):
        g = float(_one_tier(mark, mtbi, restart, None, recovery).goodput)
        ax.plot([mark], [g], "o", color=COLOURS["accent"], ms=7, zorder=3,
                label=(marks_label or ("this fleet's checkpoint costs" if len(marks) > 1 else
                                       "this fleet's checkpoint cost")) if i == 0 else None)
        labels.append(ax.annotate(f"{_cost_label(mark)}: {percent(g)}", (mark, g), xytext=(8, 6),
                                  textcoords="offset points", bbox=_LABEL_BOX))
    low = float(np.min(exact_curve))
    for cost, g, label in points:
        ax.plot([cost], [g], "D", color=COLOURS["second"], ms=7, zorder=3, label=label)
        labels.append(ax.annotate(percent(g), (cost, g), xytext=(8, -4), textcoords="offset points", va="top",
                                  bbox=_LABEL_BOX))
        low = min(low, g)
    ax.set_ylim(max(0.0, low - 0.08), 1.0)
    if wide:
        _log_duration_axis(ax.xaxis, c[0] / 1.05, c[-1] * 1.05, "checkpoint cost C (log scale)")
    else:
        ax.set_xlim(0, c[-1] * 1.02)
        ax.set_xlabel("checkpoint cost C (minutes)")
    _pct_axis(ax.yaxis, "goodput (share of wall time)")
    _legend_below(ax, ncols=2 if points else 3)
    _separate_labels(fig, labels)
    return fig


@styled
def goodput_vs_interval(
    mtbi: float, restart: float, costs: Sequence[float], curves: Mapping[str, Curve] | None = None,
    first_order: bool | Sequence[bool] = True, names: Sequence[str] | None = None, recovery: Recovery | None = None,
) -> Figure:
    """Goodput against the interval for several checkpoint costs, by the exact and the first-order model.

    `first_order` for every cost or one flag a cost (first order drawn only where it may be quoted); `names` the
    legend's words for each cost, before ``"C = ..."``; `recovery` the fleet's recovery without rollback and planned
    stops, in every curve of a cost.

    `curves` are computed elsewhere (a drain or a persistent tier) and drawn in the next colours; T runs from a quarter
    of the smallest optimum to two and a half times the largest, on a logarithmic axis where the optima are more than
    :data:`LOG_SPREAD` times apart (so that every curve shows), else in the unit of the largest.
    """
    curves = dict(curves or {})
    optima = [float(_one_tier(cost, mtbi, restart, None, recovery).interval) for cost in costs]
    optima += [best[0] for *_, best in curves.values() if best is not None]
    low, high = min(optima) / 4, 2.5 * max(optima)
    wide = max(optima) > LOG_SPREAD * min(optima)
    # Any: the model's functions take all-float or all-array arguments, and here C, M are floats.
    t: Any = (np.geomspace(low, high, 400) if wide else np.linspace(low, high, 400)).astype(np.float64)
    unit, size = ("minutes", 1.0) if wide else time_unit(max(optima))
    fig, ax = _figure(3.8)
    colours = [COLOURS["checkpoint"], COLOURS["lost"], COLOURS["restart"], COLOURS["accent"]]
    first = [first_order] * len(costs) if isinstance(first_order, bool) else list(first_order)

    def curve(cost: float, which: str) -> Any:
        if recovery is None:
            return (exact_goodput if which == "exact" else model.goodput)(cost, mtbi, restart, t)
        return np.array([_one_tier(cost, mtbi, restart, float(x), recovery, which).goodput for x in t])

    drawn: dict[str, Curve] = {
        (f"{names[i]} ({_cost_label(cost)})" if names else _cost_label(cost)): (
            t, curve(cost, "exact"), curve(cost, "first-order") if first[i] else None,
            (optima[i], float(_one_tier(cost, mtbi, restart, optima[i], recovery).goodput)))
        for i, cost in enumerate(costs)
    } | curves
    lowest = 1.0
    marks: list[Annotation] = []
    for i, (label, (x, exact_g, first_g, best)) in enumerate(drawn.items()):
        colour = colours[i % 4]
        xs, ex = np.asarray(x, dtype=np.float64), np.asarray(exact_g, dtype=np.float64)
        lowest = min(lowest, float(np.min(ex)))
        ax.plot(xs / size, ex, ls="-", lw=2.0, color=colour, label=label)
        if first_g is not None:
            ax.plot(xs / size, np.asarray(first_g, dtype=np.float64), ls="--", lw=1.2, color=colour, alpha=0.8)
        if best is not None:
            ax.plot([best[0] / size], [best[1]], "o", color=colour, ms=7, zorder=3)
            marks.append(ax.annotate(f"T* = {format_duration(best[0])}, {percent(best[1])}", (best[0] / size, best[1]),
                                     xytext=(0, 9), textcoords="offset points", ha="center", va="bottom",
                                     fontsize=9.5, color=colour, bbox=_LABEL_BOX, zorder=5))
    handles, _ = ax.get_legend_handles_labels()
    handles += [
        Line2D([], [], ls="-", lw=2.0, color="0.2", label="exact model"),
        *([Line2D([], [], ls="--", lw=1.2, color="0.2", label="first order")]
          if any(first_g is not None for _, _, first_g, _ in drawn.values()) else []),
        Line2D([], [], ls="", marker="o", color="0.2", ms=7, label="exact optimum T*"),
    ]
    ax.set_ylim(max(0.0, lowest - 0.05), 1.0)
    if wide:
        _log_duration_axis(ax.xaxis, low / 1.05, high * 1.05, "checkpoint interval T (of work, log scale)")
    else:
        ax.set_xlim(0, t[-1] * 1.02 / size)
        ax.set_xlabel(f"checkpoint interval T ({unit} of work)")
    _pct_axis(ax.yaxis, "goodput (share of wall time)")
    fig.legend(handles=handles, loc="outside lower center", ncols=2 if curves else 4)
    _separate_labels(fig, marks)
    return fig


def _label_box(label: Annotation, renderer: Any = None) -> Any:
    """A label's box as drawn (its white patch, which holds the text), in display units, where it is now placed."""
    patch = label.get_bbox_patch()
    if renderer is None:
        return patch.get_window_extent() if patch is not None else label.get_window_extent()
    text = label.get_window_extent(renderer)  # places the label at its offset (update_positions)
    if patch is None:
        return text
    label.update_bbox_position_size(renderer)
    return patch.get_window_extent()


def _drawn_paths(ax: Any) -> list[tuple[Any, Any, float]]:
    """The lines of `ax` in display units, each as a triple.

    The line's path where it is drawn as a line (or None), its markers' points where it has markers (or None), and
    the markers' radius in pixels.
    """
    drawn = []
    for line in ax.get_lines():
        if not line.get_visible():
            continue
        path = line.get_transform().transform_path(line.get_path())
        stroked = line.get_linestyle() not in ("None", "", " ") and np.shape(path.vertices)[0] >= 2
        marked = line.get_marker() not in ("None", "", " ", None)
        drawn.append((path if stroked else None, np.asarray(path.vertices) if marked else None,
                      0.5 * line.get_markersize() * ax.figure.dpi / 72))
    return drawn


def _covers_a_curve(box: Any, drawn: Sequence[tuple[Any, Any, float]]) -> bool:
    """Whether a label's `box` (display units) lies over any of the `drawn` lines (:func:`_drawn_paths`) or markers."""
    for path, points, radius in drawn:
        if path is not None and path.intersects_bbox(box, filled=False):
            return True
        if points is not None and np.any((points[:, 0] > box.x0 - radius) & (points[:, 0] < box.x1 + radius)
                                         & (points[:, 1] > box.y0 - radius) & (points[:, 1] < box.y1 + radius)):
            return True
    return False


#: Where a point label may go, tried in turn after where its caller put it: the offset from its point (points) and the
#: text's alignment. Beside the point first (above, below, then to the four corners and the sides), then farther out.
_LABEL_PLACES = tuple(
    ((scale * dx, scale * dy), ha, va) for scale in (1.0, 2.0, 3.2, 4.6) for (dx, dy), ha, va in (
        ((0, 9), "center", "bottom"), ((0, -9), "center", "top"), ((8, 6), "left", "bottom"),
        ((8, -6), "left", "top"), ((-8, 6), "right", "bottom"), ((-8, -6), "right", "top"),
        ((10, 0), "left", "center"), ((-10, 0), "right", "center")))

#: Pixels a label's box keeps from its axes' edges (the spines) and from another label.
_LABEL_MARGIN = 3.0


def _separate_labels(fig: Figure, labels: Sequence[Annotation]) -> None:
    """Place point labels so that each reads: inside its axes, over no curve or marker, clear of the others.

    Highest point first. Each label tries where its caller put it, then the places of :data:`_LABEL_PLACES`; a box
    that would stick out of the axes is slid back inside (so a label by a point near the y axis does not cross the
    spine). The first place where the box covers no curve (its own included: its white box would blank it out) and
    touches no label placed before it wins; if none does, the one with the fewest faults. The labels are left out of
    the constrained layout, which they no longer need.
    """
    if not labels:
        return
    for label in labels:
        label.set_in_layout(False)
    fig.draw_without_rendering()  # constrained layout done: the axes are where they will be drawn
    renderer = cast(Any, fig)._get_renderer()
    drawn = {id(ax): _drawn_paths(ax) for ax in {id(a.axes): a.axes for a in labels if a.axes is not None}.values()}
    placed: list[Any] = []
    for label in sorted(labels, key=lambda a: -a.xy[1]):
        ax: Any = label.axes
        frame = ax.get_window_extent().padded(-_LABEL_MARGIN)
        best: tuple[int, Any] | None = None
        for offset, ha, va in ((label.xyann, label.get_horizontalalignment(), label.get_verticalalignment()),
                               *_LABEL_PLACES):
            label.xyann = offset
            label.set(horizontalalignment=ha, verticalalignment=va)
            box = _label_box(label, renderer)
            # slid inside the axes: pixels to points for the offset
            dx = max(frame.x0 - box.x0, 0.0) + min(frame.x1 - box.x1, 0.0)
            dy = max(frame.y0 - box.y0, 0.0) + min(frame.y1 - box.y1, 0.0)
            if dx or dy:
                label.xyann = (offset[0] + dx * 72 / fig.dpi, offset[1] + dy * 72 / fig.dpi)
                box = _label_box(label, renderer)
            outside = min(box.x0 - frame.x0, frame.x1 - box.x1, box.y0 - frame.y0, frame.y1 - box.y1) < -0.5
            faults = (2 * _covers_a_curve(box, drawn[id(ax)]) + 2 * outside
                      + sum(box.padded(_LABEL_MARGIN).overlaps(other) for other in placed))
            if best is None or faults < best[0]:
                best = (faults, (label.xyann, ha, va))
            if faults == 0:
                break
        assert best is not None
        label.xyann, ha, va = best[1]
        label.set(horizontalalignment=ha, verticalalignment=va)
        placed.append(_label_box(label, renderer))


def _place_clear(fig: Figure, label: Annotation, steps: int = 24) -> None:
    """Move `label` (its text in axes fraction, a leader line to its point) to the clear place nearest its point.

    Clear: its box inside the axes, over no line or marker of them (:func:`_covers_a_curve`) and at least a few points
    from its point. Places are tried on a grid of `steps` by `steps` over the axes; where none is clear the label stays
    where its caller put it. It is left out of the constrained layout, as it stays inside the axes.
    """
    label.set_in_layout(False)
    fig.draw_without_rendering()
    renderer = cast(Any, fig)._get_renderer()
    ax: Any = label.axes
    frame, drawn = ax.get_window_extent().padded(-_LABEL_MARGIN), _drawn_paths(ax)
    point = ax.transData.transform(label.xy)
    best: tuple[float, tuple[float, float]] | None = None
    label.set(horizontalalignment="left", verticalalignment="bottom")
    for fx, fy in itertools.product(np.linspace(0.0, 1.0, steps + 1), repeat=2):
        label.xyann = (float(fx), float(fy))
        box = _label_box(label, renderer)
        if min(box.x0 - frame.x0, frame.x1 - box.x1, box.y0 - frame.y0, frame.y1 - box.y1) < 0:
            continue
        gap = math.hypot(max(box.x0 - point[0], 0.0, point[0] - box.x1), max(box.y0 - point[1], 0.0, point[1] - box.y1))
        if gap < 8 * fig.dpi / 72 or _covers_a_curve(box, drawn):
            continue
        if best is None or gap < best[0]:
            best = (gap, (float(fx), float(fy)))
    if best is not None:
        label.xyann = best[1]


@styled
def lever_gains(gains: Mapping[str, Mapping[str, float]], settled: Collection[str] = ()) -> Figure:
    """Grouped bars of points gained per lever and scenario; a lever that does not apply to a scenario gets no bar.

    A lever in `settled` (:func:`goodput.plan.levers_at_optimum`: nothing to move) is labelled as the tables write it.
    """
    scenarios = list(gains)
    names = list(dict.fromkeys(name for g in gains.values() for name in g))
    fig, ax = _figure(1.4 + len(names) * (0.25 + 0.2 * len(scenarios)))
    height = 0.8 / len(scenarios)
    colours = [COLOURS["checkpoint"], COLOURS["lost"], COLOURS["restart"]]
    hatches = ["", "//", ".."]
    top = max(0.1, *(100 * v for g in gains.values() for v in g.values()))
    bottom = min(0.0, *(100 * v for g in gains.values() for v in g.values()))
    labels: list[Any] = []
    for j, scenario in enumerate(scenarios):
        rows = [i for i, n in enumerate(names) if n in gains[scenario]]
        y = np.array(rows, dtype=float) + j * height
        values = [100 * gains[scenario][names[i]] for i in rows]
        ax.barh(y, values, height=height * 0.92, color=colours[j % 3], hatch=hatches[j % 3], edgecolor="white",
                label=scenario)
        for yi, v, name in zip(y, values, (names[i] for i in rows), strict=True):
            text = AT_OPTIMUM if name in settled else gain_text(gains[scenario][name])
            # a fixed gap after the bar's end (or the axis, for no bar): "at the optimum" clear of the spine
            labels.append(ax.annotate(text, (max(v, 0.0), yi), xytext=(4, 0), textcoords="offset points",
                                      va="center", fontsize=9.5))
    ax.set_yticks(np.arange(len(names)) + height * (len(scenarios) - 1) / 2, names)
    ax.set_ylim(len(names) - 0.5 + height * (len(scenarios) - 1) / 2, -0.5 + height * (len(scenarios) - 1) / 2)
    ax.set_xlim(bottom * 1.12, top * 1.12)
    ax.set_xlabel("goodput gained, by the exact model (percentage points)")
    ax.grid(axis="y", visible=False)
    _legend_below(ax, ncols=1)
    _fit_right(ax, labels)
    return fig


def _plain_number(x: float, _: Any) -> str:
    return f"{x:,.0f}" if x >= 1 else f"{x:g}"


@styled
def fleet_scaling(fleet: FleetPlan) -> Figure:
    """M, T* and goodput against fleet size (log) at the fleet's per-GPU rate, by the exact model of its scheme."""
    plans = fleet.by_size
    n = np.array(list(plans), dtype=np.float64)
    m, t, g = (np.array([getattr(plan, key) for plan in plans.values()]) for key in ("mtbi", "interval", "goodput"))
    fig, (left, right) = _figure(3.9, WIDTH, 2)
    left.loglog(n, m, color=COLOURS["total"], ls=":", marker="o", ms=4, label="M, mean time between interruptions")
    left.loglog(n, t, color=COLOURS["checkpoint"], marker="s", ms=4, label="T*, the plan's interval")
    if float(np.min(t)) < 1.0:  # a plain-minutes axis has no tick below a minute: durations, down to a round one
        below = [tick for tick in _DURATION_TICKS[0] if tick <= float(np.min(t))]
        low = min(float(np.min(t)), below[-1] if below else float(np.min(t)))
        _log_duration_axis(left.yaxis, low / 1.3, float(np.max(m)) * 1.3, "duration (log scale)")
    else:
        left.set_ylabel("minutes (log scale)")
        left.yaxis.set_major_formatter(FuncFormatter(_plain_number))
    right.semilogx(n, g, color=COLOURS["lost"], marker="o", ms=5, label="goodput at T*")
    right.set_ylim(max(0.0, float(np.min(g)) - 0.05), 1.0)
    _pct_axis(right.yaxis, "goodput at the optimum")
    for ax in (left, right):
        ax.set_xlabel("GPUs (log scale)")
        ax.xaxis.set_major_formatter(FuncFormatter(_plain_number))
        ax.axvline(fleet.params.gpus, color="0.3", lw=1.0, ls="-.")
        ax.tick_params(axis="x", labelrotation=30)
    left.plot([], [], color="0.3", lw=1.0, ls="-.", label=f"this fleet, {fleet.params.gpus:,} GPUs")
    handles = [h for ax in (left, right) for h in ax.get_legend_handles_labels()[0]]
    fig.legend(handles=handles, loc="outside lower center", ncols=2)
    return fig


# --------------------------------------------------------------------------- the levers chapter's fleet figures


def fleet_cost(fleet: FleetPlan) -> Figure:
    """:func:`goodput_vs_cost` for a fleet, its costs marked (its scheme as a diamond); first order where quotable.

    Beside a tiered scheme the curve is the synchronous write's, restarting in :attr:`goodput.params.Params.slow_restart`.
    """
    p, plan, recovery = fleet.params, fleet.plan, recovery_of(fleet.params)
    if plan.tiers is None:  # one mark where the slow checkpoint is the fleet's own (FleetPlan.slow_is_own)
        costs = [p.checkpoint_cost] + ([] if fleet.slow_is_own else [p.slow_checkpoint_cost])
        return goodput_vs_cost(p.mtbi, p.restart, costs, first_order=fleet.first_order_quotable, recovery=recovery)
    label = f"this fleet's plan: {_cost_label(p.checkpoint_cost)} with its scheme"
    return goodput_vs_cost(p.mtbi, p.slow_restart, [p.slow_checkpoint_cost], [(p.checkpoint_cost, plan.goodput, label)],
                           first_order=fleet.first_order_quotable, marks_label=slow_label(p, "this fleet's synchronous checkpoint"
                                                  if p.slow_is_write else "the inputs file's slower checkpoint"),
                           recovery=recovery)


def fleet_interval(fleet: FleetPlan) -> Figure:
    """:func:`goodput_vs_interval` for a fleet: its scheme and its slow checkpoint; first order where quotable."""
    p, plan, recovery = fleet.params, fleet.plan, recovery_of(fleet.params)
    quotable = fleet.first_order_quotable
    slow_quotable = quotable and fleet.slow_first_order.check.quotable  # each curve's first order where quotable
    slow_name = slow_label(p, "the slow checkpoint")
    if plan.tiers is None:  # one curve where the slow checkpoint is the fleet's own (FleetPlan.slow_is_own)
        own = fleet.slow_is_own
        return goodput_vs_interval(p.mtbi, p.restart, [p.checkpoint_cost] + ([] if own else [p.slow_checkpoint_cost]),
                                   recovery=recovery, first_order=[quotable] + ([] if own else [slow_quotable]),
                                   names=["this fleet's checkpoint"] + ([] if own else [slow_name]))
    scheme = plan.tiers
    t = np.geomspace(max(scheme.drain, plan.interval / 4), 2.5 * plan.interval, 120)
    exact_g = [tiers.exact_goodput(scheme, p.mtbi, float(x), recovery) for x in t]
    first_g = [tiers.first_order_losses(scheme, p.mtbi, float(x), recovery).goodput for x in t] if quotable else None
    label = f"this fleet's scheme ({_cost_label(p.checkpoint_cost)})"
    return goodput_vs_interval(p.mtbi, p.slow_restart, [p.slow_checkpoint_cost], first_order=[slow_quotable],
                               recovery=recovery,
                               names=[slow_name], curves={label: (t, exact_g, first_g, (plan.interval, plan.goodput))})


def fleet_levers(fleet: FleetPlan) -> Figure:
    """:func:`lever_gains` for a fleet's plan, largest lever first."""
    label = f"this fleet's plan, every {format_duration(fleet.interval)}, {percent(fleet.goodput)}"
    return lever_gains({label: dict(fleet.levers_ranked)}, levers_at_optimum(fleet.plan))


# --------------------------------------------------------------------------- the uncertainty chapter's figure


def fleet_swings(fleet: FleetPlan) -> Figure:
    """:func:`goodput.book.log_figures.goodput_swings` for a fleet's ranges, through its scheme (exact model)."""
    from goodput.book.log_figures import goodput_swings
    r = fleet.ranges
    return goodput_swings(
        [f"{INPUT_NAMES[s.name]}\n{range_text(r.inputs[s.name])}" for s in r.swings],
        [s.goodput_range for s in r.swings], fleet.goodput,
        r.fixed.goodput_range if len(r.swings) > 1 else None, exact=[INPUT_NAMES[name] for name in r.exact],
    )


#: Line style and legend words of each kind of published record (the kinds of :data:`goodput.fleets.KINDS`).
_KINDS = {
    "job interruptions": ("-", "interruptions of one job, counted"),
    "stated frequency": ("--", "a frequency stated in words"),
    "cluster rate": (":", "a cluster's rate, as reported"),
    "machine-wide events": ("-.", "GPU events on a whole machine"),
}


def _spread_labels(positions: Sequence[float], gap: float) -> list[float]:
    """Move label positions so that neighbours are at least `gap` apart; order kept, returned in the order given."""
    order = sorted(range(len(positions)), key=lambda i: positions[i])
    # Each cluster: the indices (into `order`) it holds; merged with its neighbour while they overlap.
    clusters: list[list[int]] = [[k] for k in range(len(order))]

    def first(cluster: list[int]) -> float:
        centre = sum(float(positions[order[k]]) for k in cluster) / len(cluster)
        return centre - gap * (len(cluster) - 1) / 2

    merged = True
    while merged:
        merged = False
        for j in range(len(clusters) - 1):
            a, b = clusters[j], clusters[j + 1]
            if first(a) + gap * (len(a) - 1) > first(b) - gap + 1e-12:
                clusters[j : j + 2] = [a + b]
                merged = True
                break
    out = [0.0] * len(order)
    for cluster in clusters:
        start = first(cluster)
        for offset, k in enumerate(cluster):
            out[order[k]] = start + gap * offset
    return out


@styled
def published_rates(
    labels: Sequence[str],
    rates: Sequence[float],
    intervals: Sequence[tuple[float, float] | None],
    kinds: Sequence[str],
    gpus: float,
    mtbi: float,
    rate: float,
    label: str,
    mark: str,
    band: str,
) -> Figure:
    """M against the number of GPUs for each published per-GPU rate, with this fleet marked.

    M = 60 / (rate x GPUs) minutes, rates per GPU-hour, both axes logarithmic. Each record's counting interval is a
    band (None: no count), labelled `band` in the legend; `kinds` (:data:`goodput.fleets.KINDS`) set the line style.
    """
    n_low = min(256.0, gpus / 4.0)
    n_high = max(131072.0, gpus * 4.0)
    sizes: Any = np.geomspace(n_low, n_high, 200)
    fig, ax = _figure(5.0)
    cycle = [COLOURS[k] for k in ("lost", "checkpoint", "restart", "accent", "second")]
    order = sorted(range(len(rates)), key=lambda i: -rates[i])
    colours: dict[int, str] = {}
    for j, i in enumerate(order):
        colour = colours[i] = cycle[j % len(cycle)]
        ax.plot(sizes, mtbi_from_rate(rates[i], sizes), color=colour, ls=_KINDS.get(kinds[i], ("-",))[0], lw=1.5)
        interval = intervals[i]
        if interval is not None:
            low, high = interval
            top = mtbi_from_rate(low, sizes) if low > 0 else np.full_like(sizes, np.inf)
            ax.fill_between(sizes, mtbi_from_rate(high, sizes), top, color=colour, alpha=0.08, lw=0)
    ax.plot(sizes, mtbi_from_rate(rate, sizes), color=COLOURS["total"], lw=2.8, alpha=0.75, zorder=4)
    ax.axvline(gpus, color=COLOURS["total"], lw=0.7, ls=":", alpha=0.6)
    ax.plot([gpus], [mtbi], marker="*", ms=15, color=COLOURS["total"], mec="white", mew=0.8, zorder=6, ls="")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(n_low, n_high)
    m_all = [float(mtbi_from_rate(r, s)) for r in (*rates, rate) for s in (n_low, n_high)]
    y_low, y_high = min(m_all) / 1.6, max(m_all) * 1.6
    ax.set_ylim(y_low, y_high)
    # Labels at the right end of each line, in a column outside the axes, moved apart where lines are close.
    decades = math.log10(y_high / y_low)
    gap = decades * (10.5 / 72) / (0.72 * 5.0)  # one label's height (about 10.5 pt) in decades of this axis
    names = [*labels, label]
    at_end = [math.log10(float(mtbi_from_rate(r, n_high))) for r in (*rates, rate)]
    placed = _spread_labels(at_end, gap)
    # None below the axes' bottom, where it would run into the x axis's last tick label ("100,000OPT-175B, 71.1"):
    # the lowest pushed up to half a label above it, each above it at least a label's height over the one below.
    floor = math.log10(y_low) + gap / 2
    for i in sorted(range(len(placed)), key=lambda i: placed[i]):
        placed[i] = max(placed[i], floor)
        floor = placed[i] + gap
    for i, (name, y_line, y_text) in enumerate(zip(names, at_end, placed, strict=True)):
        own = i == len(labels)
        ax.annotate(name, xy=(n_high, 10**y_line), xycoords="data", xytext=(1.05, 10**y_text),
                    textcoords=("axes fraction", "data"), va="center", ha="left", fontsize=9,
                    fontweight="bold" if own else "normal", color=COLOURS["total"] if own else colours[i],
                    annotation_clip=False,
                    arrowprops={"arrowstyle": "-", "color": "0.55", "lw": 0.6, "shrinkA": 2, "shrinkB": 0,
                                "relpos": (0.0, 0.5)})
    # The fleet's note where it hides no line (its white box no stretch of one), a leader line to the star.
    note = ax.annotate(mark, (gpus, mtbi), xytext=(0.02, 0.02), textcoords="axes fraction", ha="left", va="bottom",
                       fontsize=9, bbox=_LABEL_BOX, zorder=7,
                       arrowprops={"arrowstyle": "-", "color": "0.3", "lw": 0.7, "shrinkA": 0, "shrinkB": 7})
    ax.xaxis.set_major_formatter(FuncFormatter(_plain_number))
    ax.yaxis.set_major_formatter(FuncFormatter(_plain_number))
    ax.set_xlabel("GPUs in the job (log scale)")
    ax.set_ylabel("M, mean time between interruptions\n(minutes, log scale)")
    ax.grid(which="minor", visible=False)
    handles: list[Any] = [Line2D([], [], color="0.3", ls=_KINDS[k][0], lw=1.5, label=_KINDS[k][1])
                          for k in dict.fromkeys(kinds) if k in _KINDS]
    if any(i is not None for i in intervals):
        handles.append(Patch(facecolor="0.3", alpha=0.15, label=band))
    handles.append(Line2D([], [], color=COLOURS["total"], lw=2.8, alpha=0.75, marker="*", ms=12, mec="white",
                          label="this fleet's rate and size"))
    fig.legend(handles=handles, loc="outside lower center", ncols=2)
    _place_clear(fig, note)
    return fig


def breakdown_cases(fleet: FleetPlan) -> dict[str, model.Losses | TierLosses]:
    """The loss figure's bars: the plan and the slow checkpoint, exact and (where quotable) first order.

    The plan's alone where the slow checkpoint is the fleet's own (:attr:`goodput.fleet.FleetPlan.slow_is_own`).
    """
    p = fleet.params
    fast, slow = format_duration(p.checkpoint_cost), format_duration(p.slow_checkpoint_cost)
    slow = f"derived write, C = {slow}" if p.slow_derived else f"C = {slow}"  # not a checkpoint the inputs state
    cases: dict[str, model.Losses | TierLosses] = {}
    if fleet.first_order_quotable:
        cases[f"C = {fast}, first order\nT* = {format_duration(fleet.first_order.interval)}"] = fleet.first_order.losses
    cases[f"C = {fast}, exact model\nT = {format_duration(fleet.interval)}"] = fleet.plan.losses
    if fleet.slow_is_own:
        return cases
    if fleet.first_order_quotable and fleet.slow_first_order.check.quotable:
        sf = fleet.slow_first_order
        cases[f"{slow}, first order\nT* = {format_duration(sf.interval)}"] = sf.losses
    cases[f"{slow}, exact model\nT = {format_duration(fleet.slow.interval)}"] = fleet.slow.losses
    return cases
