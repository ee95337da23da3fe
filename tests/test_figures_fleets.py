"""Figures that read right for a fleet unlike the worked example: the small fleet's 3.55 ms snapshot (losses of
hundredths of a percent, an optimum of 28.9 s against the slow checkpoint's 266 min) as well as the worked example.

Ticks and labels are asserted as the reader sees them: percent ticks never repeat, shares are written by the
package's formatter (``"0.01%"``, not ``"0.0%"``), every plotted point lies inside its axes.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from matplotlib.ticker import MaxNLocator

from goodput import model
from goodput.book import exact_figures, figures, restart_figures, scale_figures, tier_figures
from goodput.book.figures import PercentTicks, _cost_label, percent_decimals
from goodput.fleet import FleetPlan, fleet_plan
from goodput.params import Params, load_params, params_from_mapping
from goodput.report import gain_text, lever_gain_text, percent, percent_sig2
from goodput.tiers import MAX_EVERY
from goodput.units import format_duration

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def small(small_params: Params) -> FleetPlan:
    """The small fleet's plan: C = 3.55 ms, drained in 15.2 s, M = 32.6 h, R = 19 min."""
    return fleet_plan(small_params)


@pytest.fixture(scope="module")
def worked_fleet(worked: Params) -> FleetPlan:
    return fleet_plan(worked)


def _labels(axis: Any) -> list[str]:
    """The tick labels of `axis` inside its view, as drawn."""
    axis.figure.draw_without_rendering()
    low, high = sorted(axis.get_view_interval())
    return [t.get_text() for t in axis.get_ticklabels() if low <= t.get_position()[axis.axis_name == "y"] <= high]


# --------------------------------------------------------------------------- percent ticks


@pytest.mark.parametrize(("ticks", "expected"), [
    ([0.0, 0.0001, 0.0002, 0.0003, 0.0004, 0.0005], ["0.00%", "0.01%", "0.02%", "0.03%", "0.04%", "0.05%"]),
    ([0.98, 0.9825, 0.985, 0.9875, 0.99], ["98.00%", "98.25%", "98.50%", "98.75%", "99.00%"]),
    ([0.0, 0.2, 0.4, 1.0], ["0%", "20%", "40%", "100%"]),
    ([-1e-18, 0.05], ["0%", "5%"]),
])
def test_percent_ticks_are_exact_and_distinct(ticks: list[float], expected: list[str]) -> None:
    """A span of 0.05 points reads in hundredths, quarter points in two decimals, whole percents in none; no "-0%"."""
    assert PercentTicks().format_ticks(ticks) == expected


@given(st.floats(0.0, 0.999), st.floats(1e-5, 1.0))
def test_percent_ticks_never_repeat(low: float, span: float) -> None:
    """Whatever the axis's span, the ticks matplotlib places on it get labels that differ and read back each tick
    to within a hundredth of their spacing."""
    ticks = MaxNLocator("auto", steps=[1, 2, 5, 10]).tick_values(low, low + span)
    labels = PercentTicks().format_ticks(list(ticks))
    assert len(set(labels)) == len(labels)
    step = 100 * float(np.min(np.diff(ticks)))
    for label, tick in zip(labels, ticks, strict=True):
        assert abs(float(label.rstrip("%")) - 100 * tick) <= 0.01 * step + 1e-9
    assert percent_decimals(list(ticks)) <= 4


# --------------------------------------------------------------------------- the derivation's loss curve


def test_loss_curve_of_a_fast_snapshot_reads_in_seconds_and_hundredths(small: FleetPlan) -> None:
    """At C = 3.55 ms the optimum is 28.9 s: the x axis is in seconds with the optimum inside it, the annotation
    writes T*, f(T*) and each term as the chapter does, and the loss ticks are distinct hundredths of a percent."""
    p = small.params
    best = float(model.optimal_interval(p.checkpoint_cost, p.mtbi))
    fbest = float(model.overhead(best, p.checkpoint_cost, p.mtbi))
    fig = figures.overhead_curve(p.checkpoint_cost, p.mtbi)
    ax = fig.axes[0]
    assert "seconds" in ax.get_xlabel()
    assert ax.get_xlim()[0] < best * 60 < ax.get_xlim()[1]
    note = ax.texts[0].get_text()
    assert format_duration(best) in note and best < 1.0
    assert f"f(T*) = {percent_sig2(fbest)}" in note and percent_sig2(fbest) == "0.025%"  # the chapter's two digits
    assert f"each term {percent_sig2(fbest / 2)}" in note
    ticks = _labels(ax.yaxis)
    assert len(ticks) >= 3 and len(set(ticks)) == len(ticks) and "0.01%" in ticks


def test_loss_curve_of_the_worked_example_stays_in_minutes(worked: Params) -> None:
    """The worked example's optimum, 19.3 min, keeps the axis in minutes and whole-percent ticks."""
    ax = figures.overhead_curve(worked.checkpoint_cost, worked.mtbi).axes[0]
    assert "minutes" in ax.get_xlabel()
    assert "19.3 min" in ax.texts[0].get_text()
    assert all(label.endswith("%") and "." not in label for label in _labels(ax.yaxis))


# --------------------------------------------------------------------------- the goodput chapter's breakdown


def test_breakdown_writes_small_losses_and_leaves_out_what_a_case_lacks(small: FleetPlan) -> None:
    """The fast bars' shares of hundredths of a percent read "0.012%" as in the table beside them; the one-tier slow
    bars name no drain; and no two labels overlap, each note staying within its bar's row."""
    cases = figures.breakdown_cases(small)
    fig = figures.loss_breakdown(cases)
    ax = fig.axes[0]
    fig.draw_without_rendering()
    notes = [t for t in ax.texts if t.get_bbox_patch() is None]
    assert len(notes) == len(cases)
    for note, b in zip(notes, cases.values(), strict=True):
        text = note.get_text()
        assert f"goodput {percent(b.goodput)}" in text
        assert ("not yet durable" in text) == (getattr(b, "drain_loss", 0.0) > 0)
    assert "checkpoint overhead 0.012%" in notes[0].get_text()  # as the table beside it writes a loss (percent_sig2)
    assert not any("0.0%" in t.get_text() for t in ax.texts)
    boxes = [t.get_window_extent() for t in ax.texts]
    for one, other in itertools.combinations(boxes, 2):
        assert not one.overlaps(other)
    pitch = ax.get_window_extent().height / len(cases)
    assert all(box.height < pitch for box in boxes)
    assert all(box.x1 <= ax.get_window_extent().x1 + 1 for box in boxes)


# --------------------------------------------------------------------------- the levers chapter


def test_lever_labels_are_the_tables_points(small: FleetPlan) -> None:
    """Each bar is labelled with the table's own words for its gain: 0.0071 points, not 0.0."""
    ax: Any = figures.fleet_levers(small).axes[0]
    labels = [t.get_text() for t in ax.texts]
    assert labels == [lever_gain_text(small.plan, name, gain) for name, gain in small.levers_ranked]
    assert "0.0071 points" in labels and "at the optimum" in labels  # the interval lever: the plan is at its optimum
    assert "at the optimum" not in [gain_text(gain) for _, gain in small.levers_ranked]
    ax.figure.draw_without_rendering()
    assert all(t.get_window_extent().x1 <= ax.get_window_extent().x1 + 1 for t in ax.texts)


def test_interval_axis_is_logarithmic_when_the_optima_are_far_apart(small: FleetPlan, worked_fleet: FleetPlan) -> None:
    """The small fleet's optima (28.9 s and 266 min) are 550 times apart: a log axis of durations, each optimum
    inside it and well clear of the left edge. The worked example's (18.6 and 39.8 min) keep a linear axis in minutes."""
    ax = figures.fleet_interval(small).axes[0]
    assert ax.get_xscale() == "log"
    low, high = ax.get_xlim()
    optima = [small.interval, small.slow.interval]
    for t in optima:
        assert low < t < high and np.log(t / low) / np.log(high / low) > 0.1
    ticks = _labels(ax.xaxis)
    assert len(ticks) >= 3 and all(t.endswith((" s", " min", " h")) for t in ticks)
    plain = figures.fleet_interval(worked_fleet).axes[0]
    assert plain.get_xscale() == "linear" and "minutes" in plain.get_xlabel()


@pytest.mark.parametrize("tiered", [False, True])
def test_the_levers_figures_mark_the_plan_and_the_comparison_a_recovered_fleet_is_told(worked: Params,
                                                                                          tiered: bool) -> None:
    """With half the interruptions recovered just in time and planned stops, the cost and interval figures' marks are
    the plan's and the synchronous write's goodput and optimum, as the pages quote them. They were the plain one-tier
    model's: "C = 1 min: 87.6%" beside a plan of 91.3%, "C = 5 min: 76.5%" beside a comparison of 83.0%."""
    params = worked.replace(just_in_time=0.5, jit_recovery=0.5, planned_rate=0.02)
    if tiered:
        params = params.replace(drain=3.0, persistent_cost=2.0, persistent_restart=22.0, fast_survives=0.85)
    fleet = fleet_plan(params)
    cost = [t.get_text() for t in figures.fleet_cost(fleet).axes[0].texts]
    interval = [t.get_text() for t in figures.fleet_interval(fleet).axes[0].texts]
    slow = f"{_cost_label(params.slow_checkpoint_cost)}: {percent(fleet.slow.goodput)}"
    assert slow in cost and (percent(fleet.goodput) if tiered else f"C = 1 min: {percent(fleet.goodput)}") in cost
    for plan in (fleet.plan, fleet.slow):
        assert f"T* = {format_duration(plan.interval)}, {percent(plan.goodput)}" in interval
    if not tiered:
        assert (percent(fleet.goodput), percent(fleet.slow.goodput)) == ("91.3%", "83.0%")


def test_the_survival_figure_marks_a_recovered_fleet_at_its_plan(worked: Params) -> None:
    """A tiered fleet with just-in-time recovery and planned stops: the survival figure's mark is at the plan's goodput
    and cadence, recovery counted (it was at the same scheme without recovery: 83.2% against the plan's 79.3%)."""
    params = worked.replace(drain=3.0, persistent_cost=2.0, persistent_restart=22.0, fast_survives=0.85,
                            just_in_time=0.5, jit_recovery=0.5, planned_rate=0.3)
    fleet = fleet_plan(params)
    assert fleet.plan.tiers is not None and fleet.interval == fleet.plan.optimal_interval
    left = tier_figures.survival_figure(fleet).axes[0]
    (mark,) = [line for line in left.get_lines() if str(line.get_label()).startswith("this fleet")]
    assert mark.get_ydata()[0] == pytest.approx(fleet.goodput, abs=1e-9)
    assert str(mark.get_label()).endswith(f"best n = {fleet.plan.tiers.every}")
    plain = fleet_plan(params.replace(just_in_time=0.0, planned_rate=0.0))
    assert (percent(fleet.goodput), percent(plain.goodput)) == ("79.3%", "83.2%")


def test_cost_axis_is_logarithmic_for_a_snapshot_of_milliseconds(small: FleetPlan, worked_fleet: FleetPlan) -> None:
    """3.55 ms beside 20 min: a log axis with both costs inside it and off its left edge; 1 and 5 min stay linear."""
    ax = figures.fleet_cost(small).axes[0]
    assert ax.get_xscale() == "log"
    low, high = ax.get_xlim()
    for cost in (small.params.checkpoint_cost, small.params.slow_checkpoint_cost):
        assert low < cost < high and np.log(cost / low) / np.log(high / low) > 0.05
    assert figures.fleet_cost(worked_fleet).axes[0].get_xscale() == "linear"


# --------------------------------------------------------------------------- uncertainty, tiers, exact, restart


def test_swing_ticks_are_distinct(small_params: Params) -> None:
    """The small fleet's swing with R from 12 to 30 min, under a point of goodput wide, gets ticks that differ (not
    98%, 99%, 99%, 99%)."""
    fleet = fleet_plan(small_params.replace(ranges={"restart": (12.0, 30.0)}))
    ax: Any = figures.fleet_swings(fleet).axes[0]
    assert ax.patches and ax.patches[0].get_width() < 0.01
    ticks = _labels(ax.xaxis)
    assert len(ticks) >= 3 and len(set(ticks)) == len(ticks)


def test_survival_legend_writes_durations_and_the_search_limit(small: FleetPlan) -> None:
    """C_p of 20 min over a 3.55 ms snapshot is written as 20 min, not as a ratio of 337,582; a cadence at the
    search's limit is said to be one, not called the best n; the right axis is ticked up to the limit."""
    fig = tier_figures.survival_figure(small)
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "C_p = 20 min" in legend
    assert not any("337582" in t or "337,582" in t for t in legend)
    assert any(f"best n ≥ {MAX_EVERY:,} (the search limit)" in t for t in legend)
    assert not any(f"best n = {MAX_EVERY}" in t for t in legend)
    assert f"{MAX_EVERY:,}" in _labels(fig.axes[1].yaxis)


def test_survival_legend_of_the_worked_example_is_unchanged(worked_fleet: FleetPlan) -> None:
    legend = [t.get_text() for t in tier_figures.survival_figure(worked_fleet).legends[0].get_texts()]
    assert "C_p = 5 C (5 min)" in legend and "C_p = 2 C (2 min)" in legend


def test_run_age_intervals_of_seconds_read_in_seconds(small: FleetPlan, worked_fleet: FleetPlan) -> None:
    """The small fleet's schedules (intervals of 10.6 to 38.1 s) are drawn on an axis of seconds, each step at its
    value in seconds, not as fractions of a minute; the worked example's stay in minutes."""
    ax = scale_figures.run_age_figure(small).axes[1]
    assert "seconds" in ax.get_ylabel()
    fixed = float(np.asarray(ax.get_lines()[-1].get_ydata())[0])
    assert fixed == pytest.approx(small.interval * 60, rel=0.05)
    assert 10 < fixed < ax.get_ylim()[1] < 120
    assert "minutes" in scale_figures.run_age_figure(worked_fleet).axes[1].get_ylabel()


def test_scaling_axis_writes_an_optimum_of_seconds_as_a_duration(small: FleetPlan, worked_fleet: FleetPlan) -> None:
    """T* of 15 to 29 s across sizes: the left panel's axis is ticked in durations with one below T*, so that no
    interval lies below the last tick; the worked example's (T* above a minute throughout) keeps plain minutes."""
    ax = figures.fleet_scaling(small).axes[0]
    t = np.asarray(ax.get_lines()[1].get_ydata(), dtype=np.float64)
    ticks = [tick for tick in ax.get_yticks() if ax.get_ylim()[0] <= tick <= ax.get_ylim()[1]]
    assert min(ticks) <= float(np.min(t)) < 1.0
    assert any(label.endswith(" s") for label in _labels(ax.yaxis))
    assert "minutes" in figures.fleet_scaling(worked_fleet).axes[0].get_ylabel()


def test_estimates_curves_reach_the_fleets_c_over_m(small: FleetPlan, worked_fleet: FleetPlan) -> None:
    """The small fleet's C/M of 3e-8 lies inside the curves' range (drawn from 1e-8), not 3.5 decades left of them;
    the worked example's, above 1e-4, keeps the range from 1e-4 to 1."""
    ratio = small.params.checkpoint_cost / small.params.mtbi
    assert ratio < 1e-4
    for ax in exact_figures.estimates_figure(small).axes:
        x = np.asarray(ax.get_lines()[0].get_xdata(), dtype=np.float64)
        assert float(np.min(x)) <= ratio < float(np.max(x)) and ax.get_xlim()[0] <= float(np.min(x))
        assert np.all(np.isfinite(np.asarray(ax.get_lines()[0].get_ydata(), dtype=np.float64)))
    x = np.asarray(exact_figures.estimates_figure(worked_fleet).axes[0].get_lines()[0].get_xdata(), dtype=np.float64)
    assert float(np.min(x)) == pytest.approx(1e-4)


def test_restart_figure_marks_the_start_up_part_and_covers_no_point(small: FleetPlan,
                                                                    worked_fleet: FleetPlan) -> None:
    """R = 19 min given as parts: its start-up part (4 min) is drawn at the fleet's nodes beside the whole R, which
    alone is not a start-up measurement; no label is drawn inside the axes, over Aurora's points or the fit. The worked
    example, whose R has no parts, gets the whole R alone."""
    def diamonds(fleet: FleetPlan) -> list[float]:
        ax = restart_figures.restart_against_size(fleet).axes[0]
        assert not ax.texts
        return sorted(float(np.asarray(line.get_ydata(), dtype=np.float64)[0]) for line in ax.get_lines()
                      if line.get_marker() == "D")

    parts = small.params.restart_parts
    assert parts is not None
    assert diamonds(small) == pytest.approx(sorted([parts.parts["startup"], small.params.restart]))
    assert diamonds(worked_fleet) == pytest.approx([worked_fleet.params.restart])
    # the start-up in the legend as the pages write R's parts (12.24 min, not 12.2 min beside them)
    from goodput.report import restart_part_texts

    timed = fleet_plan(load_params(Path(__file__).parent / "data" / "tiered-48k <img src=x onerror=alert(1)> & co.yml"))
    parts = timed.params.restart_parts
    assert parts is not None
    assert restart_part_texts(timed.params)["startup"] == "12.24 min" != format_duration(parts.parts["startup"])
    fig = restart_figures.restart_against_size(timed)
    legend = [t.get_text() for box in [*fig.legends, *(a.get_legend() for a in fig.axes)] if box is not None
              for t in box.get_texts()]
    assert "this fleet's start-up part of R (12.24 min)" in legend


@pytest.mark.parametrize("name", ["small", "worked_fleet"])
def test_survival_legend_shows_each_dash_pattern(name: str, request: pytest.FixtureRequest) -> None:
    """Every curve's legend handle is longer than one and a half periods of its dash pattern (as drawn, scaled by the
    line width): C_p = 20 min's dash-dot-dot no longer shows a single dash, which read as solid, the style of "exact
    model, best n and T"."""
    fig = tier_figures.survival_figure(request.getfixturevalue(name))
    legend = fig.legends[0]
    handle_points = legend.handlelength * legend.prop.get_size_in_points()
    curves = [line for line in fig.axes[0].get_lines() if str(line.get_label()).startswith("C_p")]
    assert len(curves) >= 4
    for line in curves:
        _, dashes = line._dash_pattern  # type: ignore[attr-defined]  # as drawn: the pattern times the width
        if dashes:  # a solid line has none
            assert handle_points > 1.5 * sum(dashes), line.get_label()


def test_estimates_table_has_no_negative_zero(small: FleetPlan, worked_fleet: FleetPlan) -> None:
    """Daly's shortfall of -1e-9 points (rounding in the optimum) is written 0.000; no cell reads -0.000."""
    assert exact_figures.points_below(-1e-9) == "0.000"
    assert exact_figures.points_below(0.0123) == "1.230"
    for fleet in (small, worked_fleet):
        frame: Any = exact_figures.estimates_table(fleet).data  # type: ignore[attr-defined]
        assert not frame.isin(["-0.000"]).to_numpy().any()


def test_spares_panel_holds_every_count(small: FleetPlan, worked_fleet: FleetPlan) -> None:
    """No spare count's dollars run off the panel: the small fleet's -$0.9M at no spares and the worked example's
    -$25M are inside the axes, the best count's 0 too."""
    for fleet in (small, worked_fleet):
        ax = restart_figures.spares(fleet).axes[1]
        y = ax.get_lines()[0].get_ydata()
        low, high = ax.get_ylim()
        assert low < float(np.min(y)) and float(np.max(y)) < high
        # in $K where no count is a million dollars a month from the best: a 512-GPU fleet read "-0.125 $M"
        unit = "$M" if float(np.min(y)) * (1e3 if ax.get_ylabel().startswith("$K") else 1e6) <= -1e6 else "$K"
        assert ax.get_ylabel().startswith(unit)
    small_fleet = fleet_plan(worked_fleet.params.replace(gpus=512, mtbi=worked_fleet.params.mtbi * 32))
    assert restart_figures.spares(small_fleet).axes[1].get_ylabel().startswith("$K")


def test_the_interval_figure_dashes_first_order_only_for_curves_it_may_be_quoted_for() -> None:
    """The stored fleet: first order of its scheme is 2.8 points off (quoted with caution), of the derived 5.67 s
    write 4.3 points (not quoted): Fig. 15 dashes the first and not the second, and names the write as derived."""
    stored = fleet_plan(load_params(Path(__file__).parent / "data" / "fleet-stored.yml"))
    assert stored.first_order_quotable and not stored.slow_first_order.check.quotable
    fig = figures.fleet_interval(stored)
    ax: Any = fig.axes[0]
    dashed = [line for line in ax.lines if line.get_linestyle() == "--" and len(line.get_xdata()) > 2]
    assert len(dashed) == 1
    legends = [*fig.legends, *([ax.get_legend()] if ax.get_legend() else [])]
    assert any("derived" in text.get_text() for legend in legends for text in legend.get_texts())


def test_every_fleet_figure_is_drawn_in_the_book_s_style(worked_fleet: FleetPlan) -> None:
    """Each levers-page figure is drawn under figures.STYLE (no top spine). A helper inserted between
    @styled and goodput_vs_cost took the decorator from it, so Fig. cost was drawn in matplotlib's defaults."""
    for draw in (figures.fleet_cost, figures.fleet_interval, figures.fleet_levers, figures.fleet_scaling):
        ax = draw(worked_fleet).axes[0]
        assert not ax.spines["top"].get_visible(), draw.__name__


def test_the_survival_figure_marks_a_fixed_cadence_at_the_plan_too(worked: Params) -> None:
    """n = 10 fixed where the best n is 2: the figure marks the plan itself at n = 10 and its goodput, beside the best
    n's point, each labelled (it marked the best n alone, "best n = 2", while the plan used n = 10)."""
    tiers = {"drain": 3.0, "persistent_cost": 5.0, "persistent_restart": 22.0, "fast_survives": 0.6}
    fleet = fleet_plan(worked.replace(**tiers, persistent_every=10))
    fig = tier_figures.survival_figure(fleet)
    left, right = fig.axes[:2]
    marks = {str(line.get_label()): line for line in left.get_lines() if str(line.get_label()).startswith("this fleet")}
    best, plan = sorted(marks, key=lambda label: "as the inputs fix" in label)
    assert best.endswith("best n = 2") and plan.endswith("n = 10, as the inputs fix it")
    assert marks[plan].get_ydata()[0] == pytest.approx(fleet.goodput)
    assert marks[best].get_ydata()[0] == pytest.approx(fleet.best_cadence.goodput)
    assert fleet.best_cadence.goodput > fleet.goodput + 0.01
    assert [line.get_ydata()[0] for line in right.get_lines() if line.get_marker() == "s"] == [10]
    chosen = tier_figures.survival_figure(fleet_plan(worked.replace(**tiers))).axes[0]
    assert len([line for line in chosen.get_lines() if str(line.get_label()).startswith("this fleet")]) == 1


def test_the_worked_check_s_figure_says_whose_c_and_m_it_draws(worked: Params, worked_fleet: FleetPlan) -> None:
    """A fleet whose first order is out of range (M = 20 min): the derivation page's only figure drew the worked
    example's T* = 19.3 min under the fleet's own recommendation, its caption saying only "of the worked check"."""
    from goodput.pages import derivation

    refused = fleet_plan(worked.replace(mtbi=20.0))
    assert not refused.first_order_quotable and worked_fleet.first_order_quotable
    for fleet, whose in ((refused, "The worked example's"), (worked_fleet, "This fleet's")):
        check = derivation.check_params(fleet)
        ax = figures.overhead_curve(check.checkpoint_cost, check.mtbi, derivation.check_whose(fleet)).axes[0]
        title = ax.get_title(loc="left")
        assert title.startswith(whose) and f"M = {format_duration(check.mtbi)}" in title, title


def test_a_point_label_does_not_blank_out_another_curve() -> None:
    """512 GPUs at 2e-5 an hour: the slow checkpoint's label "T* = 239 min, 95.8%" sat above its point, its white box
    across this fleet's own curve; it now goes below its point, and no label's box lies across a curve of another
    colour."""
    from matplotlib.text import Annotation

    from goodput.book.figures import _covers_a_curve, _drawn_paths, _label_box

    fleet = fleet_plan(params_from_mapping({"gpus": 512, "rate_per_gpu_hour": 2e-5, "checkpoint_cost": "1 min",
                                            "slow_checkpoint_cost": "5 min", "restart": "5 min",
                                            "price_per_gpu_hour": 2.5, "month": "720 h"}))
    fig = figures.fleet_interval(fleet)
    fig.draw_without_rendering()
    labels = [t for t in fig.axes[0].texts if isinstance(t, Annotation)]
    drawn = _drawn_paths(fig.axes[0])  # every curve and marker of the axes, the label's own included
    assert len(labels) == 2 and not any(_covers_a_curve(_label_box(label), drawn) for label in labels)
    assert any(label.get_verticalalignment() == "top" for label in labels)  # one moved below its point
