"""Figures of the chapters on logs and uncertainty: labelled axes with units, no title, a PNG each."""

from __future__ import annotations

import pytest

from goodput import logfigures
from goodput.uncertainty import one_at_a_time, propagate


def _all_figures():
    p = propagate(1.0, 186.0, 5.0, checkpoint_cost_range=(0.75, 2.0), mtbi_range=(168.6, 204.7),
                  restart_range=(3.0, 8.0), interval=19.3)
    swings = one_at_a_time(p)
    return {
        "measured_vs_predicted": logfigures.measured_vs_predicted({
            "checkpoint overhead": (0.043, 0.05), "lost work": (0.051, 0.052), "restart": (0.025, 0.026),
            "unmodelled": (0.016, 0.0),
        }),
        "goodput_swings": logfigures.goodput_swings([s.name for s in swings], [s.goodput_range for s in swings],
                                                    p.goodput, box=p.goodput_range),
        "goodput_swings_exact_inputs": logfigures.goodput_swings(["C", "M", "R"], [(0.87, 0.87)] * 3, 0.87),
    }


@pytest.mark.parametrize(("name", "fig"), list(_all_figures().items()))
def test_figures_are_labelled_and_render(name: str, fig) -> None:
    """Each axes has an x label with a unit, y tick labels, no title, and the figure renders as a PNG."""
    for ax in fig.axes:
        assert "share of wall time" in ax.get_xlabel(), name
        assert [t.get_text() for t in ax.get_yticklabels()], name
        assert not ax.get_title()
    assert fig._repr_png_().startswith(b"\x89PNG")
