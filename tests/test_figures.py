"""Figures: every axis is labelled with its unit, no figure carries a title, each renders to PNG,
and drawing one changes no global matplotlib setting.

Figures are drawn when their test runs, not when the tests are collected.
"""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pytest

from goodput import model, sources
from goodput.book import figures, log_figures, scale_figures, shape_figures
from goodput.exact import exact_optimal_interval
from goodput.plan import levers
from goodput.simulate import run_age_schedule
from goodput.uncertainty import one_at_a_time, propagate

M, R = 185.6, 5.0
RUN = 54 * 1440.0
SIZES = np.array([1024.0, 16384.0, 65536.0])
MS = 60 / (1.97e-5 * SIZES)
TABLE = sources.LLAMA3_ROOT_CAUSES


def _swings():
    p = propagate(1.0, 186.0, 5.0, checkpoint_cost_range=(0.75, 2.0), mtbi_range=(168.6, 204.7),
                  restart_range=(3.0, 8.0), interval=19.3)
    swings = one_at_a_time(p)
    return log_figures.goodput_swings([s.name for s in swings], [s.goodput_range for s in swings], p.goodput,
                                      box=p.goodput_range)


#: Each figure's builder, by name.
FIGURES = {
    "root_causes": lambda: figures.root_causes([c for c, _, _ in TABLE], [g for _, g, _ in TABLE],
                                               [n for _, _, n in TABLE]),
    "overhead": lambda: figures.overhead_curve(1.0, M, marks=[40.0]),
    "breakdown": lambda: figures.loss_breakdown({"a": model.losses(1.0, M, R), "b": model.losses(5.0, M, R)}),
    "cost": lambda: figures.goodput_vs_cost(M, R, [1.0, 5.0]),
    "interval": lambda: figures.goodput_vs_interval(M, R, [1.0, 5.0], [15.0, 45.0]),
    "levers": lambda: figures.lever_gains({"x": levers(1.0, M, R, 40.0), "y": levers(5.0, M, R, 15.0)}),
    "fleet": lambda: figures.fleet_scaling(SIZES, MS, model.optimal_interval(1.0, MS), model.goodput(1.0, MS, R)),
    "measured_vs_predicted": lambda: log_figures.measured_vs_predicted({
        "checkpoint overhead": (0.043, 0.05), "lost work": (0.051, 0.052), "restart": (0.025, 0.026),
        "unmodelled": (0.016, 0.0),
    }),
    "goodput_swings": _swings,
    "goodput_swings_exact_inputs": lambda: log_figures.goodput_swings(["C", "M", "R"], [(0.87, 0.87)] * 3, 0.87),
    "optimum_estimates": lambda: scale_figures.optimum_estimates(M, R, np.logspace(-4, 0, 21), mark=1 / M),
    "goodput_vs_fleet": lambda: scale_figures.goodput_vs_fleet(
        2e-5, 5.0, [5.0, 1.0, 1 / 6], {1.0: ([1e3, 1e5], [0.97, 0.65], [0.001, 0.002])}
    ),
    "run_age_profile": lambda: scale_figures.run_age_profile(
        M, 0.5, RUN, {"two periods": run_age_schedule(1.0, M, 0.5, [7 * 1440.0], RUN)}, exact_optimal_interval(1.0, M)
    ),
    "gap_survival": lambda: shape_figures.gap_survival(
        [0.4, 1.2, 3.4, 8.5], [0.8, 0.6, 0.4, 0.0], {"Weibull fit": (1.4, 4.6), "exponential": (1.0, 4.3)}
    ),
}


@pytest.mark.parametrize("name", list(FIGURES))
def test_figures_are_labelled_and_render(name: str) -> None:
    """Each axes has an x label and a y label (or categorical y tick labels), no title; the figure is a PNG;
    and matplotlib's global settings are the same after drawing it as before."""
    before = dict(matplotlib.rcParams)
    fig = FIGURES[name]()
    for ax in fig.axes:
        assert ax.get_xlabel(), f"{name}: x axis unlabelled"
        assert ax.get_ylabel() or [t.get_text() for t in ax.get_yticklabels()], f"{name}: y axis unlabelled"
        assert not ax.get_title()
    assert fig._repr_png_().startswith(b"\x89PNG")
    assert dict(matplotlib.rcParams) == before


def test_fleet_ticks_read_as_gpu_counts() -> None:
    """The fleet-size axis reads 1,000, 10k, 100k, 1M rather than powers of ten."""
    assert [scale_figures._gpus_label(x, None) for x in (1e3, 1e4, 1e5, 1e6)] == ["1,000", "10k", "100k", "1M"]


def test_schedule_drawn_to_the_end_of_the_run() -> None:
    """The last period of a schedule (until = inf) is drawn to the run length, not to infinity."""
    fig = scale_figures.run_age_profile(M, 0.5, RUN, {"s": [(1440.0, 10.0), (math.inf, 20.0)]}, 18.6)
    line = fig.axes[1].get_lines()[0]
    assert max(line.get_xdata()) == pytest.approx(RUN / 1440.0)
