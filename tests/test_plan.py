"""Plans, levers and the rendered table: the same numbers as the model, in every format."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from goodput import model
from goodput.errors import InputError
from goodput.plan import LEVERS, headline, levers, make_plan, plan_for, render

positive = st.floats(min_value=0.05, max_value=50, allow_nan=False)


def test_headline_is_the_brief(worked) -> None:
    """Worked example: M 186 min, T* 19.3 min, 5.2/5.2/2.7%, 86.9%, slow 74.1%, 12.8 points, $3.8M a month."""
    h = headline(worked)
    assert round(h["mtbi"]) == 186
    assert round(h["interval"], 1) == 19.3
    assert [round(100 * h[k], 1) for k in ("checkpoint_overhead", "lost_work", "restart_loss", "goodput")] == [
        5.2, 5.2, 2.7, 86.9,
    ]
    assert round(100 * h["slow_goodput"]) == 74
    assert round(100 * h["points"], 1) == 12.8
    assert round(h["capacity"] / 1e6, 1) == 3.8
    assert_allclose(h["capacity"], h["points"] * 16384 * 2.5 * 720)


def test_plan_uses_the_given_interval(worked) -> None:
    """With T given, the losses are those of T; the optimum is still reported."""
    p = plan_for(worked, interval=40.0)
    assert p.interval == 40.0
    assert_allclose(p.optimal_interval, model.optimal_interval(1.0, worked.mtbi))
    assert_allclose(p.goodput, model.goodput(1.0, worked.mtbi, 5.0, 40.0))


@given(c=positive, r=positive, t=st.floats(min_value=1, max_value=200))
def test_levers_add_up(c: float, r: float, t: float) -> None:
    """An input lever (optimum to optimum) plus the interval fix equals the whole gain from (T, inputs) to (T*', inputs')."""
    m = 186.0
    gains = levers(c, m, r, t)
    assert list(gains) == list(LEVERS)
    start = model.goodput(c, m, r, t)
    assert_allclose(start + gains["set the interval right"] + gains["halve C"], model.goodput(c / 2, m, r), atol=1e-12)
    assert_allclose(gains["halve R"], r / (2 * m), rtol=1e-9)
    assert gains["set the interval right"] >= -1e-15
    assert gains["halve the failure rate"] > 0


def test_render_formats(worked) -> None:
    """table and markdown show the rounded worked numbers; json has the documented keys as fractions of 1."""
    p = plan_for(worked)
    table = render(p, "table")
    for text in ("186 min", "19.3 min", "5.2%", "2.7%", "86.9%"):
        assert text in table
    md = render(p, "markdown", {"M": "count over window"})
    assert "| mean time between interruptions, M | 186 min | count over window |" in md.splitlines()
    assert md.splitlines().count("|---|---:|") == 2  # the losses and the levers tables
    data = json.loads(render(p, "json"))
    assert set(data["levers"]) == set(LEVERS)
    for key in ("mtbi_min", "interval_min", "checkpoint_overhead", "lost_work", "restart_loss", "goodput"):
        assert isinstance(data[key], float)
    assert_allclose(data["goodput"], p.goodput)
    assert_allclose(1 - data["checkpoint_overhead"] - data["lost_work"] - data["restart_loss"], data["goodput"])


def test_make_plan_refuses_bad_inputs() -> None:
    """A negative checkpoint cost is an InputError, not a number."""
    with pytest.raises(InputError, match="checkpoint_cost"):
        make_plan(-1.0, 186.0, 5.0)


def test_first_order_warning(worked) -> None:
    """No warning for the worked example; at 16x the fleet (M = 11.6 min) the first-order goodput is below zero."""
    from goodput.plan import first_order_warning

    assert first_order_warning(worked) is None
    big = worked.replace(gpus=16 * worked.gpus, mtbi=worked.mtbi / 16)
    text = first_order_warning(big)
    assert text is not None
    assert "below zero" in text
