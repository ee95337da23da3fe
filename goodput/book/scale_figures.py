"""Figures for the chapters beyond first order: the exact optimum, fleet size, and failures that are not independent."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter

from goodput import exact, hazards, model
from goodput.book.figures import COLOURS, WIDTH, _figure, _legend_below, _pct_axis, styled, time_unit
from goodput.book.tables import book_table, loss_column
from goodput.limits import PLAN_GPUS, plan_at_size
from goodput.pages import scale
from goodput.params import mtbi_from_rate
from goodput.report import percent, percent_apart, points, scheme_words, slow_label
from goodput.simulate import run_age_mtbi
from goodput.units import format_duration, format_rate

if TYPE_CHECKING:
    from pandas.io.formats.style import Styler

    from goodput.fleet import FleetPlan

#: Colour, marker and line style of each interval estimate.
_ESTIMATES = {
    "young": (COLOURS["lost"], "s", "--", "Young, √(2CM)"),
    "daly": (COLOURS["checkpoint"], "^", ":", "Daly's estimate"),
    "exact": (COLOURS["total"], "o", "-", "exact optimum (Lambert W)"),
}

#: Colours and markers for up to four checkpoint costs.
_COST_STYLES = (
    (COLOURS["lost"], "s"),
    (COLOURS["checkpoint"], "o"),
    (COLOURS["restart"], "^"),
    (COLOURS["accent"], "D"),
)


def _gpus_label(x: float, _: Any) -> str:
    """Tick labels for a fleet-size axis, as the book writes GPU counts: 1,000, 10,000, 100,000, 1,000,000.

    The levers chapter's fleet-size figure ticks them so too (:func:`goodput.book.figures._plain_number`).
    """
    return f"{x:,.0f}"


@styled
def optimum_estimates(
    mtbi: float, restart: float, ratios: npt.ArrayLike, mark: float | None = None
) -> Figure:
    """Young's, Daly's and the exact optimum interval across C/M, and the exact goodput each leaves.

    C = ratio x M; R scales every goodput by the same e^{-R/M}. Left: each interval as a multiple of the exact optimum;
    right: the points of exact goodput Young's and Daly's intervals give up.
    """
    c_over_m = np.asarray(ratios, dtype=np.float64)
    cost = c_over_m * mtbi
    m = np.full_like(cost, mtbi)
    r = np.full_like(cost, restart)
    intervals = {
        "young": np.asarray(model.optimal_interval(cost, m)),
        "daly": np.asarray(exact.daly_interval(cost, m)),
        "exact": np.asarray(exact.exact_optimal_interval(cost, m)),
    }
    best = np.asarray(exact.exact_goodput(cost, m, r))
    fig, (left, right) = _figure(3.6, WIDTH + 0.6, 2)
    for key, (colour, marker, style, label) in _ESTIMATES.items():
        left.semilogx(c_over_m, intervals[key] / intervals["exact"], color=colour, ls=style, marker=marker, ms=4,
                      markevery=4, label=label)
        if key != "exact":
            shortfall = 100.0 * (best - np.asarray(exact.exact_goodput(cost, m, r, intervals[key])))
            right.semilogx(c_over_m, shortfall, color=colour, ls=style, marker=marker, ms=4, markevery=4)
    left.set_ylabel("interval / exact optimum T*")
    left.set_ylim(0.9, max(1.1, float(np.max(intervals["young"] / intervals["exact"])) * 1.05))
    right.set_ylabel("exact goodput given up (points)")
    right.set_ylim(bottom=min(0.0, right.get_ylim()[0]))
    for ax in (left, right):
        ax.set_xlabel("checkpoint cost C / M (log scale)")
        if mark is not None:
            ax.axvline(mark, color="0.4", lw=0.8, ls="-.")
    if mark is not None:
        left.annotate("this fleet's C/M", (mark, 1.0), xycoords=("data", "axes fraction"), xytext=(4, -4),
                      textcoords="offset points", ha="left", va="top", fontsize=9, color="0.3")
    _legend_below(left, ncols=3)
    return fig


@styled
def goodput_vs_fleet(
    rate_per_gpu_hour: float,
    restart: float,
    costs: Sequence[float],
    simulated: Mapping[float, tuple[npt.ArrayLike, npt.ArrayLike, npt.ArrayLike]],
    gpus: tuple[float, float] = (1e3, 1e6),
    fleet: float | None = None,
    names: Mapping[float, str] | None = None,
) -> Figure:
    """First-order, exact and simulated goodput at the optimum against fleet size, one colour per checkpoint cost.

    `names` gives a cost a legend label of its own (else ``"C = 5 min"``); the costs are drawn and listed cheapest first.

    M from the rate per GPU-hour (:func:`goodput.params.mtbi_from_rate`); at most four costs. `simulated` maps each cost
    to (sizes, goodput, standard error). First order at √(2CM) is dashed and leaves the axes below zero.
    """
    costs = sorted(costs)  # the legend in order of C, cheapest first
    n = np.logspace(np.log10(gpus[0]), np.log10(gpus[1]), 200)
    m = mtbi_from_rate(rate_per_gpu_hour, n)
    r = np.full_like(m, restart)
    fig, ax = _figure(4.0)
    for i, cost in enumerate(costs):
        colour, marker = _COST_STYLES[i % len(_COST_STYLES)]
        c = np.full_like(m, cost)
        ax.semilogx(n, model.goodput(c, m, r), color=colour, ls="--", lw=1.4)
        ax.semilogx(n, exact.exact_goodput(c, m, r), color=colour, ls="-")
        if cost in simulated:
            at, value, error = (np.asarray(a, dtype=np.float64) for a in simulated[cost])
            ax.errorbar(at, value, yerr=error, fmt=marker, color=colour, mfc="white", ms=6, capsize=3, zorder=3)
    ax.axhline(0.0, color="0.3", lw=0.8)
    if fleet is not None:
        ax.axvline(fleet, color="0.3", lw=1.0, ls="-.")
    ax.set_ylim(-0.1, 1.0)
    ax.set_xlim(gpus[0] / 1.2, gpus[1] * 1.2)
    ax.set_xlabel("GPUs in the job (log scale)")
    ax.xaxis.set_major_formatter(FuncFormatter(_gpus_label))
    _pct_axis(ax.yaxis, "goodput at the optimum (share of wall time)")
    handles = [
        Line2D([], [], color=_COST_STYLES[i % len(_COST_STYLES)][0], marker=_COST_STYLES[i % len(_COST_STYLES)][1],
               mfc="white", label=(names or {}).get(cost, f"C = {format_duration(cost)}"))
        for i, cost in enumerate(costs)
    ]
    handles += [
        Line2D([], [], color="0.2", ls="--", lw=1.4, label="first order at √(2CM)"),
        Line2D([], [], color="0.2", ls="-", label="exact at the exact optimum"),
        Line2D([], [], color="0.2", ls="", marker="o", mfc="white", label="simulated (± 1 standard error)"),
    ]
    if fleet is not None:
        handles.append(Line2D([], [], color="0.3", lw=1.0, ls="-.", label=f"this fleet, {fleet:,.0f} GPUs"))
    fig.legend(handles=handles, loc="outside lower center", ncols=3)
    return fig


@styled
def run_age_profile(
    mtbi: float,
    shape: float,
    run_length: float,
    schedules: Mapping[str, Sequence[tuple[float, float]]],
    fixed_interval: float,
) -> Figure:
    """Failures per day of run age under the run-age hazard, and the interval schedule that follows them.

    `mtbi` is the average over the run; `shape` the Weibull k of the run-age hazard, over `run_length`. Each schedule is
    ``(until, interval)`` pairs, the last until infinite (at most three).
    """
    day = 1440.0
    days = int(np.ceil(run_length / day))
    edges = np.minimum(np.arange(days + 1) * day, run_length)
    per_day = [day / run_age_mtbi(mtbi, shape, a, b, run_length) for a, b in pairwise(edges)]
    fig, (left, right) = _figure(3.4, WIDTH + 0.6, 2)
    left.bar(edges[:-1] / day, per_day, width=1.0, align="edge", color=COLOURS["lost"], hatch="\\\\",
             edgecolor="white", label=f"run-age hazard, shape {shape:g}")
    left.axhline(day / mtbi, color=COLOURS["total"], ls="--", label="constant rate, same M")
    left.set_ylabel("expected failures per day")
    left.legend(loc="upper right")
    top = max([fixed_interval, *(interval for schedule in schedules.values() for _, interval in schedule)])
    unit, size = time_unit(top)  # the axis in the unit the longest interval is written in
    styles = ((COLOURS["checkpoint"], "-"), (COLOURS["lost"], ":"), (COLOURS["restart"], "-."))
    for (label, schedule), (colour, style) in zip(schedules.items(), styles, strict=False):
        untils = [u if np.isfinite(u) else run_length for u, _ in schedule]
        xs = [x / day for a, b in zip([0.0, *untils[:-1]], untils, strict=True) for x in (a, b)]
        ys = [interval / size for _, interval in schedule for _ in (0, 1)]
        right.plot(xs, ys, color=colour, ls=style, lw=2.2, label=label)
    right.axhline(fixed_interval / size, color=COLOURS["total"], ls="--", label="fixed exact optimum")
    right.set_ylim(0, top / size * 1.45)
    right.set_ylabel(f"checkpoint interval ({unit} of work)")
    right.legend(loc="upper right")
    for ax in (left, right):
        ax.set_xlabel("run age (days)")
        ax.set_xlim(0, run_length / day)
    return fig


# --------------------------------------------------------------------------- the scale chapter's figure and tables


def fleet_sizes(fleet: FleetPlan) -> Figure:
    """:func:`goodput_vs_fleet` for a fleet: its rate, restart and three checkpoint costs, its own size marked."""
    p, study = fleet.params, fleet.scale_study
    points: dict[float, tuple[list[float], list[float], list[float]]] = {}
    for s in study.simulations:
        at, value, error = points.setdefault(s.checkpoint_cost, ([], [], []))
        at.append(s.gpus)
        value.append(s.simulated)
        error.append(s.stderr)
    span = study.sizes
    names = {p.slow_checkpoint_cost: f"C = {format_duration(p.slow_checkpoint_cost)}, {slow_label(p, '')}"}
    return goodput_vs_fleet(p.rate_per_gpu_hour, p.restart, list(points), points, (span[0], span[-1]),
                            fleet=float(p.gpus), names=names if p.slow_derived else None)


def thresholds_table(fleet: FleetPlan) -> Styler:
    """The fleet sizes (and M there) where first order is off by one point, by three, and reaches zero, by cost."""
    rows = [{
        "checkpoint cost": format_duration(lim.checkpoint_cost),
        "1 point: GPUs": scale.threshold_text(lim.one_point),
        "1 point: M": format_duration(lim.mtbi_at(lim.one_point)),
        "3 points: GPUs": scale.threshold_text(lim.three_points),
        "3 points: M": format_duration(lim.mtbi_at(lim.three_points)),
        "zero: GPUs": scale.threshold_text(lim.zero),
    } for lim in fleet.scale_study.limits.values()]
    frame = pd.DataFrame(rows)
    p = fleet.params
    caption = (f"The fleet sizes (and M there) beyond which the first-order goodput at √(2CM) is more than 1 point "
               f"and more than 3 points below the exact goodput at the exact optimum, and at which it reaches zero, "
               f"at {format_rate(p.rate_per_gpu_hour)} interruptions per GPU-hour and R = "
               f"{format_duration(p.restart)} held fixed; one checkpoint tier.")
    return book_table(frame, caption=caption, right=list(frame.columns))


def plan_table(fleet: FleetPlan) -> Styler:
    """The fleet's whole scheme at :data:`goodput.limits.PLAN_GPUS` GPUs by first order, the exact model and simulation.

    First order's column only where its numbers may be quoted there (``plan.check.quotable``, the decision by which
    the chapter's paragraph quotes or refuses them); else the caption says why it is left out. Where the model makes no
    plan at that size, a table that says so with that size's M and R.
    """
    at = fleet.at_size(PLAN_GPUS)
    plan = plan_at_size(fleet)
    where = (f"A {scale.gpus_text(at.gpus)}-GPU job at {format_rate(at.rate_per_gpu_hour)} interruptions per "
             f"GPU-hour: M = {format_duration(at.mtbi)}, R = {format_duration(at.restart)}")
    if plan is None:
        frame = pd.DataFrame({"": ["plan"], "exact model": ["none: essentially no work is kept"]})
        return book_table(frame, caption=f"{where}.", right=["exact model"])
    quoted = plan.check.quotable
    first = {"first order": [format_duration(plan.first.interval), percent(plan.check.goodput)]} if quoted else {}
    frame = pd.DataFrame({
        "": ["interval", "goodput"],
        **first,
        "exact model": [format_duration(plan.plan.interval), percent(plan.plan.goodput)],
        "simulated at the exact interval": ["", (f"{percent(plan.simulated.simulated)} ± "
                                                 f"{points(plan.simulated.stderr, 2)}")],
    })
    why = ("its goodput there is zero or less" if plan.check.status == "below zero"
           else f"it is {scale.VERDICTS[plan.check.status]} there")
    left_out = "" if quoted else f" First order is left out: {why}."
    caption = f"{where}; this fleet's whole scheme at that size, {scheme_words(plan.plan, plan.params)}.{left_out}"
    return book_table(frame, caption=caption, right=list(frame.columns[1:]))


# --------------------------------------------------------------------------- the failures chapter's figure and tables


def run_age_figure(fleet: FleetPlan) -> Figure:
    """:func:`run_age_profile` for a fleet's one-tier inputs (:func:`goodput.hazards.run_age`)."""
    p, age = fleet.params, fleet.failure_simulations.age
    schedules = {f"short for {format_duration(age.first)}, then relaxed": age.two_schedule,
                 "six periods": age.six_schedule}
    return run_age_profile(p.mtbi, hazards.SHAPE, age.length, schedules, age.fixed)


def elastic_table(fleet: FleetPlan) -> Styler:
    """The fleet's plan with a full restart and with elastic continuation (:func:`goodput.hazards.elastic_params`)."""
    full, elastic = fleet.plan, fleet.elastic
    persistent = fleet.plan.tiers is not None and not fleet.plan.tiers.one_tier  # R_p only where there is such a tier
    rows = ["restart time, R", "interval, T*", "checkpoint overhead", "lost work", "restart", "goodput"]
    if persistent:
        rows[1:1] = ["persistent restart, R_p"]
    if fleet.plan.drained:
        rows[-1:-1] = ["not yet durable (drain)"]
    columns = {name: [format_duration(plan.restart),
                      *([format_duration(plan.tiers.rp)] if persistent and plan.tiers is not None else []),
                      *loss_column(plan, fleet.plan.drained)]
               for name, plan in (("full restart", full), ("elastic", elastic))}
    # the two goodputs with the decimals that set them apart (98.48% and 98.55%, not 98.5% twice)
    columns["full restart"][-1] = percent_apart(full.goodput, elastic.goodput)
    columns["elastic"][-1] = percent_apart(elastic.goodput, full.goodput)
    caption = ("This fleet's plan (exact model, whole scheme) with a full restart and with elastic continuation, each "
               "at its own optimum.")
    return book_table(pd.DataFrame({"": rows, **columns}), caption=caption, right=["full restart", "elastic"])
