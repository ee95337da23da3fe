"""Figures and table of the chapter on what a restart is made of (``book/restart.md``), drawn like the others."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from goodput import sources
from goodput.book.figures import _LABEL_BOX, COLOURS, WIDTH, _figure, _legend_below, _pct_axis, styled
from goodput.book.tables import book_table
from goodput.report import durations_together, percent, points, restart_part_texts, share_text
from goodput.simulate_restart import spares_checks
from goodput.units import format_duration, significant
from goodput.whatif import recovery_plan, restart_inputs

if TYPE_CHECKING:
    from pandas.io.formats.style import Styler

    from goodput.fleet import FleetPlan


@styled
def restart_against_size(fleet: FleetPlan) -> Figure:
    """Start-up and restart time against the number of nodes, with the published start-up figures marked.

    Minutes against nodes, both logarithmic: Aurora's ``deepspeed.initialize`` times and their fit, MegaScale's NCCL
    initialization, and R at other sizes (:meth:`goodput.fleet.FleetPlan.restart_at`).
    """
    x = restart_inputs(fleet)
    fixed, per_node = sources.aurora_fit()
    nodes = np.geomspace(1, max(4.0 * x.nodes, 1024.0), 200)
    fig, ax = _figure(3.8)
    aurora_nodes = [w / sources.AURORA_RANKS_PER_NODE for w, _ in sources.AURORA]
    ax.plot(aurora_nodes, [s / 60.0 for _, s in sources.AURORA], "o", color=COLOURS["checkpoint"], ms=5,
            label="Aurora, DeepSpeed initialization (measured)")
    ax.plot(nodes, (fixed + per_node * nodes) / 60.0, color=COLOURS["checkpoint"], ls="--", lw=1.2,
            label=f"Aurora's fit, {significant(per_node, 3)} s a node")
    mega = sources.MEGASCALE_GPUS / sources.MEGASCALE_GPUS_PER_NODE
    ax.plot([mega], [sources.MEGASCALE_BEFORE / 60.0], "s", color=COLOURS["lost"], ms=7,
            label="MegaScale, NCCL initialization before")
    ax.plot([mega], [sources.MEGASCALE_AFTER / 60.0], "v", color=COLOURS["restart"], ms=7,
            label="MegaScale, after (under 5 s)")
    r = fleet.params.restart
    if (x.parts is not None and x.parts.startup_per_node > 0) or x.spares_given:
        g = x.gpus_per_node
        ax.plot(nodes, [fleet.restart_at(round(n * g)) for n in nodes], color=COLOURS["total"],
                label="this fleet's R at other sizes")
    # The values in the legend, not beside the diamonds, where a label would cover the measurements or the fit.
    ax.plot([x.nodes], [r], "D", color=COLOURS["accent"], ms=8, zorder=3,
            label=f"this fleet's whole restart, R ({format_duration(r)})")
    if x.parts is not None and x.parts.parts["startup"] > 0:  # R given as parts: its start-up beside the measurements
        startup = x.parts.parts["startup"]
        ax.plot([x.nodes], [startup], "D", color=COLOURS["accent"], mfc="white", ms=8, zorder=3,
                # written as R's parts are everywhere, adding up to R (report.restart_part_texts: 12.24 min)
                label=f"this fleet's start-up part of R ({restart_part_texts(fleet.params)['startup']})")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("nodes in the job")
    ax.set_ylabel("minutes")
    _legend_below(ax, ncols=2)
    return fig


@styled
def spares(fleet: FleetPlan) -> Figure:
    """Goodput and dollars against the number of spare nodes, the best count marked (the fleet's plan).

    R(c) = R_parts + wait (:meth:`goodput.fleet.FleetPlan.spares_choice`); right: kept work's worth a month net of the
    spares' own cost, against that at the best count, every count inside the axes (:func:`_against_axis`).
    """
    x = restart_inputs(fleet)
    # The pool held, where the inputs give one past the choice's counts, is on the plot: the curves go on to it.
    choice = fleet.spares_through(x.repair, x.takes_node, x.spares) if x.spares_given else x.choice
    counts = np.array(choice.counts)
    g = np.array(choice.goodput)
    worth = np.array(choice.dollars)
    fig, (left, right) = _figure(3.2, WIDTH, 2)
    # The spares' share of the GPUs bought can be too small to part the two curves: the goodput line is drawn wide
    # and pale under the dashed one, and the legend says they lie on top of each other.
    apart = float(np.max(g - np.array(choice.useful)))
    together = apart < OVERLAP
    left.plot(counts, g, color=COLOURS["total"], lw=4.0 if together else 1.5, alpha=0.45 if together else 1.0,
              label="goodput of the job (the fleet's plan" + ("; wide, pale)" if together else ")"))
    left.plot(counts, choice.useful, color=COLOURS["checkpoint"], ls="--", lw=1.2,
              label="share of all GPUs bought doing kept work"
              + (f" (dashed: on the goodput line, at most {points(apart, 2)} below it)" if together else ""))
    # The pool held and the best in one line and one label where they are the same count: drawn apart, the held
    # line hid the best one under it while the legend named both.
    same = x.spares_given and x.spares == choice.best
    if not same:
        left.axvline(choice.best, color=COLOURS["accent"], ls=":", lw=1.2, label=f"best: {choice.best}")
    if x.spares_given:
        left.axvline(x.spares, color=COLOURS["second"], ls="-.", lw=1.2,
                     label=f"best = held = {x.spares}" if same else f"held: {x.spares}")
    left.set_xlabel("spare nodes")
    left.set_ylim(0.0, 1.0)
    _pct_axis(left.yaxis, "goodput")
    # in $M, or in $K where no count is a million dollars a month from the best (a small fleet's axis of -0.125 $M)
    size, unit = (1e6, "$M") if float(np.max(np.abs(worth - worth[choice.best]))) >= 1e6 else (1e3, "$K")
    against = (worth - worth[choice.best]) / size
    right.plot(counts, against, color=COLOURS["lost"])
    if not same:
        right.axvline(choice.best, color=COLOURS["accent"], ls=":", lw=1.2)
    if x.spares_given:
        right.axvline(x.spares, color=COLOURS["second"], ls="-.", lw=1.2)
    right.set_xlabel("spare nodes")
    _against_axis(right, float(np.min(against)), abs(float(against[-1])), unit, 1e3 / size)
    for ax in (left, right):  # the held pool's line clear of the frame where it is the last count
        ax.set_xlim(-0.03 * counts[-1], 1.03 * counts[-1])
    _legend_below(left, ncols=1 if together else 2)
    # room between the panels for the right one's y label and the left one's last x tick
    fig.get_layout_engine().set(wspace=0.08)  # type: ignore[union-attr, call-arg]
    return fig


#: Two goodput curves closer than this everywhere (a share) are drawn so that both show, and the legend says so.
OVERLAP = 0.01


#: How many times the largest shortfall may exceed the largest count's before the dollar axis turns symmetric-log.
SYMLOG_SPREAD = 20.0


def _against_axis(ax: Any, low: float, tail: float, unit: str = "$M", floor: float = 1e-3) -> None:
    """The dollars-against-the-best axis, in `unit`, from `low` (the largest shortfall, negative) to just above 0.

    Every point inside. Linear unless `low` is more than :data:`SYMLOG_SPREAD` times `tail` (the shortfall at the
    largest count); then symmetric-log, linear within a power of ten of `tail`, so that the shallow side of the best
    still shows. `floor` is $1,000 in `unit`: no axis is drawn finer.
    """
    depth = max(abs(low), floor)
    if depth <= SYMLOG_SPREAD * max(tail, floor):
        ax.set_ylim(-1.06 * depth, 0.1 * depth)
        ax.set_ylabel(f"{unit} a month vs the best")
        return
    linear = 10.0 ** math.floor(math.log10(max(tail, floor)))
    ax.set_yscale("symlog", linthresh=linear, linscale=0.6)
    ax.set_ylim(-1.3 * depth, 0.5 * linear)
    ax.yaxis.set_major_formatter(lambda y, _: f"{y:g}")
    ax.set_ylabel(f"{unit} a month vs the best\n(symmetric log)")


def spares_check_table(fleet: FleetPlan) -> Styler:
    """The expected wait for a repair per interruption: the Erlang closed form against the simulation.

    Each row in one unit (:func:`goodput.report.durations_together`): its closed form, simulated mean and standard error.
    """
    x = restart_inputs(fleet)
    rows = []
    for k, closed, sim in spares_checks(x.choice.best, fleet.params.mtbi, x.repair, x.takes_node):
        closed_text, mean, stderr = durations_together(closed, sim.mean, sim.stderr)
        rows.append({"spare nodes": k, "closed form": closed_text, "simulated": f"{mean} ± {stderr}",
                     "apart (standard errors)": f"{sim.apart(closed):.1f}"})
    caption = ("Expected wait for a repair per interruption, the part of the restart spent waiting, each row in one "
               "unit: the closed form a B(c, ρ) r / (c + 1) against 20,000 simulated interruptions and repairs "
               "(seeded).")
    return book_table(pd.DataFrame(rows), caption=caption, right=["closed form", "simulated",
                                                                  "apart (standard errors)"])


@styled
def just_in_time(fleet: FleetPlan) -> Figure:
    """Goodput against the share p recovered just in time: the fleet's plan with M / (1 - p) for the rollbacks."""
    x = restart_inputs(fleet)
    shares = np.linspace(0.0, 0.95, 40)
    curve = [recovery_plan(fleet, float(s)).goodput for s in shares]
    at = recovery_plan(fleet, x.p).goodput
    fig, ax = _figure(3.2)
    ax.plot(shares, curve, color=COLOURS["total"], label="this fleet's plan by the exact model, at its optimum T*")
    ax.plot([x.p], [at], "o", color=COLOURS["accent"], ms=7, zorder=3,
            label="this fleet's share" if x.jit_given else "the illustrative share")
    ax.annotate(f"p = {share_text(x.p)}: {percent(at)}", (x.p, at), xytext=(-8, 8), textcoords="offset points", ha="right",
                bbox=_LABEL_BOX)
    ax.set_ylim(max(0.0, min(curve) - 0.05), 1.0)
    _pct_axis(ax.xaxis, "share of interruptions recovered just in time, p")
    _pct_axis(ax.yaxis, "goodput")
    _legend_below(ax, ncols=2)
    return fig
