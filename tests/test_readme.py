"""The README's headline numbers are the ones the package computes for book/params.yml, so they cannot drift.

The README states the recommendation (the exact model) and, beside it, the brief's
first-order arithmetic; both are recomputed here from the inputs file.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from goodput.params import load_params
from goodput.plan import headline, plan_for

ROOT = Path(__file__).resolve().parent.parent


def _readme() -> str:
    return (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_recommendation_is_the_exact_models() -> None:
    """M, the exact optimum, its three losses, goodput, the slow checkpoint's goodput, the points and the capacity."""
    params = load_params(ROOT / "book" / "params.yml")
    h = headline(params)
    readme = _readme()
    expected = [
        f"every **{h['mtbi']:.0f} min** (M)",
        f"checkpoint every **{h['interval']:.1f} min** of work",
        (
            f"goodput is **{h['goodput']:.1%}**: {h['checkpoint_overhead']:.1%} checkpoint overhead, "
            f"{h['lost_work']:.1%} lost work, {h['restart_loss']:.1%} restart"
        ),
        f"leaves **{h['slow_goodput']:.1%}** even at its best interval",
        f"**{100 * h['points']:.1f} points** less",
        f"**${h['capacity'] / 1e6:.1f}M a month**",
    ]
    for text in expected:
        assert text in readme, text


@pytest.mark.parametrize("interval", [40.0])
def test_readme_first_order_is_the_briefs_arithmetic(interval: float) -> None:
    """Young's T* = sqrt(2CM), its losses C/T, T/(2M), R/M, the slow checkpoint, and the cost of a bad interval."""
    params = load_params(ROOT / "book" / "params.yml")
    h = headline(params, which="first-order")
    bad = plan_for(params, interval=interval, which="first-order")
    readme = _readme()
    expected = [
        f"**T\\* = √(2CM) = {h['interval']:.1f} min**",
        (
            f"goodput **{h['goodput']:.1%}**: {h['checkpoint_overhead']:.1%} checkpoint overhead, "
            f"{h['lost_work']:.1%} lost work,\n  {h['restart_loss']:.1%} restart"
        ),
        f"leaves **{h['slow_goodput']:.1%}**: **{100 * h['points']:.1f} points** less",
        f"**${h['capacity'] / 1e6:.1f}M a month**",
        f"({interval:.0f} min instead of {h['interval']:.0f}) costs only {100 * (h['goodput'] - bad.goodput):.1f} points",
    ]
    for text in expected:
        assert text in readme, text
