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
from goodput.book import figures, log_figures, scale_figures, shape_figures, tier_figures
from goodput.exact import exact_optimal_interval
from goodput.fleet import fleet_plan
from goodput.params import load_params
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
                  restart_range=(3.0, 8.0), interval=19.3, which="exact")
    swings = one_at_a_time(p)
    return log_figures.goodput_swings([s.name for s in swings], [s.goodput_range for s in swings], p.goodput,
                                      box=p.goodput_range)


#: Each figure's builder, by name.
FIGURES = {
    "root_causes": lambda: figures.root_causes([c for c, _, _ in TABLE], [g for _, g, _ in TABLE],
                                               [n for _, _, n in TABLE]),
    "overhead": lambda: figures.overhead_curve(1.0, M),
    "breakdown": lambda: figures.loss_breakdown({"a": model.losses(1.0, M, R), "b": model.losses(5.0, M, R)}),
    "breakdown_narrow_segments": lambda: figures.loss_breakdown({"a": model.losses(0.2, 400.0, 0.5),
                                                                 "b": model.losses(3.0, 60.0, 12.0)}),
    "cost": lambda: figures.goodput_vs_cost(M, R, [1.0, 5.0]),
    "cost_no_marks": lambda: figures.goodput_vs_cost(M, R, []),
    "cost_tiered_point": lambda: figures.goodput_vs_cost(M, R, [5.0], points=[(1.0, 0.8, "with a drain")]),
    "interval": lambda: figures.goodput_vs_interval(M, R, [1.0, 5.0]),
    "interval_no_marks": lambda: figures.goodput_vs_interval(60 / (1.6e-5 * 24576), 12.0, [2 / 3, 4.0]),
    "interval_curves": lambda: figures.goodput_vs_interval(
        M, R, [5.0], curves={"tiers": (np.linspace(6, 50, 20), np.linspace(0.7, 0.8, 20), None, (20.0, 0.8))}
    ),
    "levers": lambda: figures.lever_gains({"x": levers(1.0, M, R, 40.0), "y": levers(5.0, M, R, 15.0)}),
    "levers_first_order": lambda: figures.lever_gains({"x": levers(1.0, M, R, 40.0, which="first-order")}),
    "levers_uneven": lambda: figures.lever_gains({"x": {**levers(1.0, M, R, 40.0), "shorten the drain": 0.01},
                                                  "y": levers(5.0, M, R, 15.0)}),
    "fleet": lambda: figures.fleet_scaling(fleet_plan(load_params())),
    "fleet_tiered": lambda: figures.fleet_scaling(fleet_plan(load_params().replace(drain=5.0, persistent_cost=4.0,
                                                                                     persistent_restart=15.0))),
    "measured_vs_predicted": lambda: log_figures.measured_vs_predicted({
        "checkpoint overhead": (0.043, 0.05), "lost work": (0.051, 0.052), "restart": (0.025, 0.026),
        "unmodelled": (0.016, 0.0),
    }),
    "goodput_swings": _swings,
    "goodput_swings_one_exact": lambda: log_figures.goodput_swings(
        ["restart time, R", "checkpoint cost, C"], [(0.80, 0.86), (0.79, 0.85)], 0.84, box=(0.75, 0.87),
        exact=["mean time between interruptions, M"],
    ),
    "goodput_swings_no_range": lambda: log_figures.goodput_swings(
        [], [], 0.87, exact=["checkpoint cost, C", "mean time between interruptions, M", "restart time, R"],
    ),
    "optimum_estimates": lambda: scale_figures.optimum_estimates(M, R, np.logspace(-4, 0, 21), mark=1 / M),
    "goodput_vs_fleet": lambda: scale_figures.goodput_vs_fleet(
        2e-5, 5.0, [5.0, 1.0, 1 / 6], {1.0: ([1e3, 1e5], [0.97, 0.65], [0.001, 0.002])}, fleet=24576
    ),
    "published_rates": lambda: figures.published_rates(
        ["a, 1e-5", "b, 7e-5", "c, 2e-5", "d, 1.2e-5"], [1e-5, 7e-5, 2e-5, 1.2e-5], [(5e-6, 2e-5), None, None, None],
        ["job interruptions", "stated frequency", "cluster rate", "machine-wide events"], 16384, M, 1.97e-5,
        "this build, 1.97e-5", "16,384 GPUs,\nM = 186 min", "95% counting interval",
    ),
    "run_age_profile": lambda: scale_figures.run_age_profile(
        M, 0.5, RUN, {"two periods": run_age_schedule(1.0, M, 0.5, [7 * 1440.0], RUN)}, exact_optimal_interval(1.0, M)
    ),
    "goodput_against_survival": lambda: tier_figures.goodput_against_survival(
        152.6, 2 / 3, 12.0, [2.0, 6.0], persistent_restart=15.0, drain=6.0, marks={"fleet": (6.0, 0.7)},
        shares=[0.0, 0.4, 0.7, 0.9],
    ),
    "gap_survival": lambda: shape_figures.gap_survival(
        [0.4, 1.2, 3.4, 8.5], [0.8, 0.6, 0.4, 0.0], {"Weibull fit": (1.4, 4.6), "exponential": (1.0, 4.3)}
    ),
}


#: The figures drawn by `make test-fast` (the four quickest to draw); the others render about a second each and are
#: marked slow (run by `make test`).
FAST_FIGURES = ("goodput_swings", "goodput_swings_one_exact", "goodput_swings_no_range", "levers_first_order")


@pytest.mark.parametrize(
    "name", [name if name in FAST_FIGURES else pytest.param(name, marks=pytest.mark.slow) for name in FIGURES]
)
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
    """The fleet-size axis reads 1,000, 10,000, 100,000, 1,000,000 rather than powers of ten, as the levers chapter's
    fleet-size figure and the text write GPU counts (it read "1,000, 10k, 100k, 1M" beside that figure's "10,000")."""
    assert [scale_figures._gpus_label(x, None) for x in (1e3, 1e4, 1e5, 1e6)] == [
        "1,000", "10,000", "100,000", "1,000,000"]
    assert [figures._plain_number(x, None) for x in (1e3, 1e4, 1e5, 1e6)] == [
        scale_figures._gpus_label(x, None) for x in (1e3, 1e4, 1e5, 1e6)]


def test_schedule_drawn_to_the_end_of_the_run() -> None:
    """The last period of a schedule (until = inf) is drawn to the run length, not to infinity."""
    fig = scale_figures.run_age_profile(M, 0.5, RUN, {"s": [(1440.0, 10.0), (math.inf, 20.0)]}, 18.6)
    line = fig.axes[1].get_lines()[0]
    assert max(line.get_xdata()) == pytest.approx(RUN / 1440.0)


def test_swings_draw_no_bar_for_an_input_without_a_range() -> None:
    """Only inputs with a range get a bar; those taken as exact are named under the axes, not drawn with zero width;
    with none at all, the one row is labelled as the point values and the x axis names the model."""
    fig = FIGURES["goodput_swings_one_exact"]()
    ax = fig.axes[0]
    widths = [patch.get_width() for patch in ax.patches]
    assert len(widths) == 3 and min(widths) > 0
    assert [t.get_text() for t in ax.get_yticklabels()] == ["restart time, R", "checkpoint cost, C", "all together"]
    assert "mean time between interruptions, M" in fig.get_supxlabel()
    assert ax.get_xlabel().startswith("goodput by the exact model")
    empty = FIGURES["goodput_swings_no_range"]().axes[0]
    assert len(empty.patches) == 0
    assert [t.get_text() for t in empty.get_yticklabels()] == ["point values (no range given)"]


@pytest.mark.slow
def test_breakdown_labels_fit_their_segments_or_move_after_the_bar() -> None:
    """No share printed inside a segment is wider than the segment; a share that would not fit (the 0.1% restart
    of the first bar, 0.12% as every loss is written) is printed after the bar, beside the total lost and the goodput."""
    fig = figures.loss_breakdown({"a": model.losses(0.2, 400.0, 0.5), "b": model.losses(3.0, 60.0, 12.0)})
    fig.draw_without_rendering()
    ax = fig.axes[0]
    texts = [t for t in ax.texts if t.get_bbox_patch() is not None]
    bars = [p.get_window_extent() for p in ax.patches]
    for text in texts:
        box = text.get_bbox_patch().get_window_extent()
        segment = next(b for b in bars if b.x0 <= box.x0 + box.width / 2 <= b.x1 and b.y0 <= box.y0 + box.height / 2 <= b.y1)
        assert box.width <= segment.width
    notes = [t.get_text() for t in ax.texts if t.get_bbox_patch() is None]
    assert any("restart 0.12%" in note and "goodput" in note for note in notes)
    assert all(t.get_window_extent().x1 <= ax.get_window_extent().x1 + 1 for t in ax.texts)


def test_a_breakdown_axis_ticks_no_share_beyond_all_of_the_wall_time() -> None:
    """A restart that takes 94% of the wall time (M = 7.6 h, R = 21.8 h): the axis widens past 100% to fit the notes
    after the bars, but its ticks and its line stop at 100% (they went on to 250%, shares no wall time has)."""
    starved = load_params().replace(mtbi=457.8, restart=1305.7)  # R of 21.8 h waiting for repairs, M of 7.6 h
    fig = figures.loss_breakdown(figures.breakdown_cases(fleet_plan(starved)))
    fig.draw_without_rendering()
    ax = fig.axes[0]
    assert ax.get_xlim()[1] > 1.0
    shown = [t for t in ax.get_xticks() if ax.get_xlim()[0] <= t <= ax.get_xlim()[1]]
    assert max(shown) == pytest.approx(1.0) and [label.get_text() for label in ax.get_xticklabels()][-1] == "100%"


def test_spread_labels_keep_order_and_distance() -> None:
    """Labels closer than the gap are spread to exactly the gap, in their order, centred on where they would sit;
    labels already apart stay put."""
    out = figures._spread_labels([1.0, 1.0, 1.0, 5.0], 0.5)
    assert out == pytest.approx([0.5, 1.0, 1.5, 5.0])
    out = figures._spread_labels([3.0, 1.0, 1.1], 0.4)
    assert out[1] < out[2] and out[2] - out[1] == pytest.approx(0.4) and (out[1] + out[2]) / 2 == pytest.approx(1.05)
    assert out[0] == pytest.approx(3.0)


def test_root_cause_categories_have_distinct_colours() -> None:
    """Each of the six Table 5 categories gets its own colour, and no orange sits beside the vermillion."""
    fig = FIGURES["root_causes"]()
    handles = fig.axes[0].get_legend().legend_handles
    colours = [tuple(h.get_facecolor()) for h in handles]
    assert len(colours) == len(set(colours)) == 6
    assert matplotlib.colors.to_rgba(figures.COLOURS["second"]) not in colours
