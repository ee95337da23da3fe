"""Figures of the chapters beyond first order: labelled axes with units, no title, a PNG each."""

from __future__ import annotations

import math

import numpy as np
import pytest

from goodput import scalefigures
from goodput.exact import exact_optimal_interval
from goodput.simulate import run_age_schedule

RUN = 54 * 1440.0


def _all_figures():
    schedule = run_age_schedule(1.0, 185.6, 0.5, [7 * 1440.0], RUN)
    return {
        "optimum_estimates": scalefigures.optimum_estimates(185.6, 5.0, np.logspace(-4, 0, 21), mark=1 / 185.6),
        "goodput_vs_fleet": scalefigures.goodput_vs_fleet(
            2e-5, 5.0, [5.0, 1.0, 1 / 6], {1.0: ([1e3, 1e5], [0.97, 0.65], [0.001, 0.002])}
        ),
        "run_age_profile": scalefigures.run_age_profile(
            185.6, 0.5, RUN, {"two periods": schedule}, exact_optimal_interval(1.0, 185.6)
        ),
    }


@pytest.mark.parametrize(("name", "fig"), list(_all_figures().items()))
def test_figures_are_labelled_and_render(name: str, fig) -> None:
    """Each axes has x and y labels (with a unit or a ratio), no title, and the figure renders as a PNG."""
    for ax in fig.axes:
        assert ax.get_xlabel() and ax.get_ylabel(), name
        assert not ax.get_title(), name
    assert fig._repr_png_().startswith(b"\x89PNG")


def test_fleet_ticks_read_as_gpu_counts() -> None:
    """The fleet-size axis reads 1,000, 10k, 100k, 1M rather than powers of ten."""
    assert [scalefigures._gpus_label(x, None) for x in (1e3, 1e4, 1e5, 1e6)] == ["1,000", "10k", "100k", "1M"]


def test_schedule_drawn_to_the_end_of_the_run() -> None:
    """The last period of a schedule (until = inf) is drawn to the run length, not to infinity."""
    fig = scalefigures.run_age_profile(185.6, 0.5, RUN, {"s": [(1440.0, 10.0), (math.inf, 20.0)]}, 18.6)
    line = fig.axes[1].get_lines()[0]
    assert max(line.get_xdata()) == pytest.approx(RUN / 1440.0)
