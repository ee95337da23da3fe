"""The README's headline numbers are the ones the package computes for book/params.yml, so they cannot drift."""

from __future__ import annotations

from pathlib import Path

from goodput.params import load_params
from goodput.plan import headline, plan_for

ROOT = Path(__file__).resolve().parent.parent


def test_readme_headline_matches_the_package() -> None:
    """M, T*, the three losses, goodput, the slow-checkpoint goodput, the points and the capacity, as rounded."""
    params = load_params(ROOT / "book" / "params.yml")
    h = headline(params, which="first-order")
    bad = plan_for(params, interval=40.0, which="first-order")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    expected = [
        f"**{h['mtbi']:.0f} min**",
        f"= {h['interval']:.1f} min**",
        (
            f"**{h['goodput']:.1%}**: {h['checkpoint_overhead']:.1%} checkpoint overhead, "
            f"{h['lost_work']:.1%} lost work, {h['restart_loss']:.1%} restart"
        ),
        f"**{h['slow_goodput']:.1%}**",
        f"**{100 * h['points']:.1f} points**",
        f"**${h['capacity'] / 1e6:.1f}M a month**",
        f"costs only {100 * (h['goodput'] - bad.goodput):.1f} points",
    ]
    for text in expected:
        assert text in readme, text
