"""Labels as the reader sees them, measured on the drawn figure with the renderer's boxes: a label's box lies over no
curve (its white box would blank a stretch of it out) and inside its axes (not across a spine), tick labels do not
run into other text, and a panel's axis label stays beside its own panel.

The fleets are those of a visual review: a tiered 49,152-GPU fleet with spares and a small 384-GPU one with planned
stops, beside the worked example.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator
from typing import Any, cast

import numpy as np
import pytest
from matplotlib.figure import Figure
from matplotlib.text import Annotation, Text

from goodput.book import figures
from goodput.fleet import FleetPlan, fleet_plan
from goodput.params import Params, params_from_mapping

pytestmark = pytest.mark.slow

#: The review's tiered fleet: restart given as its parts with a pool of hot spares, two tiers and a drain.
TIERED_48K: dict[str, object] = {
    "gpus": 49152, "rate_per_gpu_hour": 1.8e-5, "checkpoint_cost": "20 s", "slow_checkpoint_cost": "7 min",
    "restart": {"detect": "1 min", "replace": "3 min", "startup": "2 min", "startup_per_node": "0.1 s",
                "warmup": "2 min"},
    "spares": {"nodes": 16, "repair": "12 h", "takes_node": 0.6}, "price_per_gpu_hour": 2.8, "month": "730 h",
    "drain": "3 min", "persistent": {"cost": "2 min", "restart": "22 min"}, "fast_survives": 0.85,
    "ranges": {"fast_survives": [0.75, 0.9], "checkpoint_cost": ["15 s", "30 s"]},
}
#: The review's small fleet: 384 GPUs, one tier, planned stops, ranges on C and M.
SMALL_384: dict[str, object] = {
    "gpus": 384, "mtbi": "40 h", "checkpoint_cost": "45 s", "slow_checkpoint_cost": "4 min", "restart": "12 min",
    "price_per_gpu_hour": 2.2, "month": "730 h", "planned": {"rate": "0.5 per day"},
    "ranges": {"checkpoint_cost": ["30 s", "90 s"], "mtbi": ["25 h", "60 h"]},
}


@pytest.fixture(scope="module")
def tiered() -> FleetPlan:
    return fleet_plan(params_from_mapping(TIERED_48K))


@pytest.fixture(scope="module")
def small384() -> FleetPlan:
    return fleet_plan(params_from_mapping(SMALL_384))


@pytest.fixture(scope="module")
def worked_plan(worked: Params) -> FleetPlan:
    return fleet_plan(worked)


def _drawn(fig: Figure) -> Any:
    """`fig` laid out and its renderer."""
    fig.draw_without_rendering()
    return cast(Any, fig)._get_renderer()


def _line_points(line: Any, step: float = 1.0) -> Iterator[np.ndarray]:
    """A drawn line's path in display pixels, sampled about every `step` pixels (each drawn segment's points)."""
    xy = line.get_transform().transform(np.asarray(line.get_xydata(), dtype=float))
    xy = xy[np.all(np.isfinite(xy), axis=1)]
    for a, b in itertools.pairwise(xy):
        n = max(2, math.ceil(float(np.hypot(*(b - a))) / step) + 1)
        yield np.linspace(a, b, n)


def _box(text: Text, renderer: Any) -> Any:
    """A text's box as drawn: its bbox patch where it has one (the white box), else the text."""
    patch = text.get_bbox_patch()
    return patch.get_window_extent(renderer) if patch is not None else text.get_window_extent(renderer)


def _curves_under(box: Any, ax: Any) -> list[str]:
    """The labels (or indices) of the lines of `ax` drawn through `box`: a stroked line's sampled points, or a
    marker's centre, strictly inside it."""
    hits = []
    for i, line in enumerate(ax.get_lines()):
        stroked = line.get_linestyle() not in ("None", "", " ")
        points = list(_line_points(line)) if stroked else [line.get_transform().transform(line.get_xydata())]
        inside = any(np.any((p[:, 0] > box.x0 + 0.5) & (p[:, 0] < box.x1 - 0.5) & (p[:, 1] > box.y0 + 0.5)
                            & (p[:, 1] < box.y1 - 0.5)) for p in points)
        if inside:
            hits.append(str(line.get_label()) if not str(line.get_label()).startswith("_") else f"line {i}")
    return hits


def _inside(box: Any, frame: Any) -> bool:
    return bool(box.x0 >= frame.x0 - 0.5 and box.x1 <= frame.x1 + 0.5 and box.y0 >= frame.y0 - 0.5 and box.y1 <= frame.y1 + 0.5)


POINT_FIGURES: dict[str, Callable[[FleetPlan], Figure]] = {"cost": figures.fleet_cost, "interval": figures.fleet_interval}


@pytest.mark.parametrize("which", list(POINT_FIGURES))
@pytest.mark.parametrize("fleet_name", ["tiered", "small384", "worked_plan"])
def test_point_labels_lie_over_no_curve_and_inside_the_axes(which: str, fleet_name: str,
                                                            request: pytest.FixtureRequest) -> None:
    """Figs 14 and 15 of the levers chapter: the tiered fleet's "61.8%" had its white box over the cost curve from
    C = 0.5 to 1.5 min, and "T* = 6.67 min, 61.8%" started left of the y axis, across the spine. Every point label's
    box now lies inside its axes and over no curve or marker, its own included."""
    fig = POINT_FIGURES[which](request.getfixturevalue(fleet_name))
    renderer = _drawn(fig)
    ax = fig.axes[0]
    labels = [t for t in ax.texts if isinstance(t, Annotation)]
    assert labels
    frame = ax.get_window_extent(renderer)
    for label in labels:
        box = _box(label, renderer)
        assert _inside(box, frame), f"{label.get_text()!r} leaves the axes: {box} not in {frame}"
        assert not _curves_under(box, ax), f"{label.get_text()!r} lies over {_curves_under(box, ax)}"


def test_lever_labels_keep_clear_of_the_y_spine(tiered: FleetPlan) -> None:
    """Fig 13: "at the optimum", written after a bar of no length, touched the y axis's spine; every bar's label now
    starts a few pixels after the bar's end (or the spine)."""
    fig = figures.fleet_levers(tiered)
    renderer = _drawn(fig)
    ax = fig.axes[0]
    spine = ax.spines["left"].get_window_extent(renderer).x1
    labels = [t for t in ax.texts if t.get_text()]
    assert any("optimum" in t.get_text() for t in labels)
    for text in labels:
        assert text.get_window_extent(renderer).x0 >= spine + 3, text.get_text()


def _text_box(text: Text, renderer: Any) -> Any:
    """A text's own box, without an annotation's leader line."""
    return Text.get_window_extent(text, renderer)


@pytest.mark.parametrize("fleet_name", ["tiered", "small384", "worked_plan"])
def test_published_rates_note_hides_no_line_and_ticks_clear_the_line_labels(fleet_name: str,
                                                                           request: pytest.FixtureRequest) -> None:
    """Fig 2 of the inputs chapter: the small fleet's x tick "100,000" ran into the line label "OPT-175B, 71.1" below
    the axes, and the white-boxed "this fleet: ..." note hid stretches of four or five rate lines. The note's box now
    covers no line (a leader line goes to the star), and no tick label touches another text."""
    from goodput.book import input_tables
    from goodput.book.data import published_fleets

    fleet = request.getfixturevalue(fleet_name)
    args: dict[str, Any] = input_tables.published_rates_args(fleet.params, published_fleets())
    fig = figures.published_rates(**args)
    renderer = _drawn(fig)
    ax = fig.axes[0]
    note = next(t for t in ax.texts if t.get_text().startswith("this fleet:"))
    assert not _curves_under(_box(note, renderer), ax)
    assert _inside(_box(note, renderer), ax.get_window_extent(renderer))
    (x0, x1), (y0, y1) = sorted(ax.get_xlim()), sorted(ax.get_ylim())
    ticks = [t for t in ax.get_xticklabels() if t.get_text() and x0 <= t.get_position()[0] <= x1]
    ticks += [t for t in ax.get_yticklabels() if t.get_text() and y0 <= t.get_position()[1] <= y1]
    for tick in ticks:
        box = tick.get_window_extent(renderer)
        touching = [t.get_text() for t in ax.texts if _text_box(t, renderer).overlaps(box)]
        assert not touching, f"tick {tick.get_text()!r} runs into {touching}"


def _panel_labels_clear(fig: Figure) -> None:
    """The right panel's y label no taller than its axes and clear of everything of the left panel's."""
    renderer = _drawn(fig)
    left, right = fig.axes[:2]
    label = right.yaxis.label.get_window_extent(renderer)
    frame = right.get_window_extent(renderer)
    assert label.y0 >= frame.y0 - 1 and label.y1 <= frame.y1 + 1, f"{right.get_ylabel()!r} is taller than its axes"
    neighbours = [left.xaxis.label, *left.get_xticklabels(), *left.get_yticklabels()]
    near = [t.get_text() for t in neighbours if t.get_text() and label.padded(4).overlaps(t.get_window_extent(renderer))]
    assert not near and label.x0 >= left.get_window_extent(renderer).x1 + 4, f"{right.get_ylabel()!r} crowds {near}"


def test_spares_panels_apart_and_one_line_where_best_is_held(tiered: FleetPlan, worked_plan: FleetPlan) -> None:
    """Fig 9 of the restart chapter: "$M a month against the best (symmetric log scale)" ran above and below its axes
    and nearly touched the left panel's tick "20"; and the tiered fleet holds the best pool, 16, whose dotted line lay
    under the held one while the legend named both. One line now says "best = held = 16"."""
    from goodput.book import restart_figures

    fig = restart_figures.spares(tiered)
    _panel_labels_clear(fig)
    names = [t.get_text() for legend in fig.legends for t in legend.get_texts()]
    assert "best = held = 16" in names and not any(n.startswith(("best:", "held:")) for n in names), names
    assert len(fig.axes[1].get_lines()) == 2  # the curve and one vertical line
    _panel_labels_clear(restart_figures.spares(worked_plan))


@pytest.mark.parametrize("fleet_name", ["tiered", "worked_plan"])
def test_survival_panels_apart(fleet_name: str, request: pytest.FixtureRequest) -> None:
    """Fig 6 of the tiers chapter: "best n (every n-th checkpoint persistent)" stuck out above the right panel's
    axes and sat against the left panel."""
    from goodput.book import tier_figures

    _panel_labels_clear(tier_figures.survival_figure(request.getfixturevalue(fleet_name)))


def test_overhead_title_wraps_to_the_axes(tiered: FleetPlan) -> None:
    """Fig 3 of the derivation chapter: the tiered build's title "The worked example's C = 1 min, M = 186 min: first
    order is out of its range for this fleet" ran to the figure's right edge, past its axes; it now breaks between
    words, every line within the axes."""
    from goodput.pages import derivation

    check = derivation.check_params(tiered)
    fig = figures.overhead_curve(check.checkpoint_cost, check.mtbi, derivation.check_whose(tiered))
    renderer = _drawn(fig)
    ax = fig.axes[0]
    title = cast(Any, ax)._left_title  # where overhead_curve puts it (ax.set_title(..., loc="left"))
    assert "first order is out of its range" in " ".join(title.get_text().split())
    assert "\n" in title.get_text()
    assert title.get_window_extent(renderer).x1 <= ax.get_window_extent(renderer).x1 + 0.5


def test_fleet_size_legend_lists_the_costs_in_order() -> None:
    """Fig 11 of the scale chapter listed "C = 7 min, C = 20 s, C = 10 s" (the order of the simulations); the costs
    are now drawn and listed cheapest first."""
    from goodput.book import scale_figures

    fig = scale_figures.goodput_vs_fleet(1.8e-5, 18.0, [7.0, 1 / 3, 1 / 6], {}, fleet=49152.0)
    names = [t.get_text() for legend in fig.legends for t in legend.get_texts()]
    assert names[:3] == ["C = 10 s", "C = 20 s", "C = 7 min"], names
