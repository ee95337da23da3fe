"""Figures: every axis is labelled with its unit, no figure carries a title, and each renders to PNG."""

from __future__ import annotations

import numpy as np
import pytest

from goodput import figures, model, sources
from goodput.plan import levers


def _all_figures():
    table = sources.llama3_root_causes()
    m, r = 185.6, 5.0
    sizes = np.array([1024.0, 16384.0, 65536.0])
    ms = 60 / (1.97e-5 * sizes)
    return {
        "root_causes": figures.root_causes(table["component"].tolist(), table["category"].tolist(),
                                           table["count"].tolist()),
        "overhead": figures.overhead_curve(1.0, m, marks=[40.0]),
        "breakdown": figures.loss_breakdown({"a": model.losses(1.0, m, r), "b": model.losses(5.0, m, r)}),
        "cost": figures.goodput_vs_cost(m, r, [1.0, 5.0]),
        "interval": figures.goodput_vs_interval(m, r, [1.0, 5.0], [15.0, 45.0]),
        "levers": figures.lever_gains({"x": levers(1.0, m, r, 40.0), "y": levers(5.0, m, r, 15.0)}),
        "fleet": figures.fleet_scaling(sizes, ms, model.optimal_interval(1.0, ms), model.goodput(1.0, ms, r)),
    }


@pytest.mark.parametrize(("name", "fig"), list(_all_figures().items()))
def test_figures_are_labelled_and_render(name: str, fig) -> None:
    """Each axes has x and y labels (y may be categorical tick labels), no title, and the figure is a PNG."""
    for ax in fig.axes:
        assert ax.get_xlabel(), f"{name}: x axis unlabelled"
        assert ax.get_ylabel() or ax.get_yticklabels(), f"{name}: y axis unlabelled"
        assert not ax.get_title()
    png = fig._repr_png_()
    assert png.startswith(b"\x89PNG")
