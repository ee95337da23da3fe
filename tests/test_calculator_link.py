"""The calculator link's inputs (goodput.book.calculator.link_query): a rate written as a person would, reading back M."""

from __future__ import annotations

from pathlib import Path

from goodput.book.calculator import interruption_rate_text, link_query
from goodput.params import load_params, mtbi_from_rate

STORY = Path(__file__).resolve().parent / "data" / "tiered-48k <img src=x onerror=alert(1)> & co.yml"


def test_the_rate_in_a_link_is_the_shortest_that_gives_back_m() -> None:
    """The story fleet types 1.8e-5 per GPU-hour; the rate derived back from M is 1.7999999999999997e-05, and the link
    writes 1.8e-05, which gives back the same M to the last bit."""
    p = load_params(STORY)
    assert p.mtbi_source == "rate_per_gpu_hour" and repr(p.rate_per_gpu_hour) != "1.8e-05"
    rate = link_query(p)["rate_per_gpu_hour"]
    assert rate == "1.8e-05" and float(mtbi_from_rate(float(rate), p.gpus)) == p.mtbi


def test_a_rate_that_cannot_give_back_m_is_refused() -> None:
    """Where no writing of the rate gives back M exactly, there is none (the link then gives M itself)."""
    m = float(mtbi_from_rate(2e-5, 1000)) * (1 + 1e-15)
    text = interruption_rate_text(2e-5, 1000, m)
    assert text is None or float(mtbi_from_rate(float(text), 1000)) == m


def test_a_link_carries_the_persistent_restart_as_typed_not_with_its_wait() -> None:
    """The 48k fleet's R_p is the 22 min typed plus R's 0.917 s wait for repairs (goodput.params); the page adds that
    wait itself, so the link carries "22 min", not 22.01528990748406 min (which the page would wait on twice)."""
    p = load_params(Path(__file__).parent / "data" / "tiered-48k <img src=x onerror=alert(1)> & co.yml")
    assert p.spares is not None and p.persistent_restart == 22.0 + p.spares.wait(p.mtbi)
    assert link_query(p)["persistent_restart"] == "22 min"
