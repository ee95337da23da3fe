"""The book rebuilt from another fleet's inputs file shows that fleet's numbers, not the worked example's.

Builds the whole book from clean, strictly (``-W -n --keep-going``, every chapter executed), with
``GOODPUT_PARAMS=examples/fleet-32k.yml``: 32,768 GPUs, M given as a per-GPU rate (not a count), a
90-second checkpoint, an 8-minute restart, stated ranges of C, M and R, and the sample logs.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from goodput.params import load_params
from goodput.plan import headline
from goodput.uncertainty import propagate_params

ROOT = Path(__file__).resolve().parent.parent
FLEET = ROOT / "examples" / "fleet-32k.yml"
pytestmark = pytest.mark.book


def shown(h: dict[str, float]) -> dict[str, str]:
    """The answer page's numbers as it formats them (see book/answer.md)."""
    return {
        "M": f"M = {h['mtbi']:.0f} min",
        "T*": f"{h['interval']:.1f} min of work",
        "checkpoint overhead": f"checkpoint overhead {h['checkpoint_overhead']:.1%}",
        "lost work": f"lost work {h['lost_work']:.1%}",
        "restart": f"restart {h['restart_loss']:.1%}",
        "goodput": f"Goodput {h['goodput']:.1%}",
        "slow goodput": f"leaves {h['slow_goodput']:.1%}",
        "slow interval": f"interval of {h['slow_interval']:.0f} min",
        "points": f"{100 * h['points']:.1f} points less",
        "capacity": f"${h['capacity'] / 1e6:.1f}M",
    }


@pytest.fixture(scope="module")
def fleet_book(tmp_path_factory: pytest.TempPathFactory, book_builder) -> Path:
    """The book built from clean with GOODPUT_PARAMS=examples/fleet-32k.yml: its HTML folder."""
    return book_builder(tmp_path_factory.mktemp("fleet-32k"), FLEET)


def test_the_fleet_file_differs_from_the_worked_example() -> None:
    """The example fleet is a different fleet: another GPU count, M from a rate, and every shown number changed."""
    fleet, worked = load_params(FLEET), load_params(ROOT / "book" / "params.yml")
    assert fleet.gpus != worked.gpus and fleet.mtbi_source == "rate_per_gpu_hour" != worked.mtbi_source
    assert fleet.steps_log is not None and fleet.steps_log.resolve() == (ROOT / "book/data/sample-steps.csv")
    new, old = shown(headline(fleet, which="first-order")), shown(headline(worked, which="first-order"))
    assert all(new[key] != old[key] for key in new), {k: (new[k], old[k]) for k in new if new[k] == old[k]}


def test_answer_page_shows_the_fleet_numbers(fleet_book: Path, page_text) -> None:
    """Every headline number on the answer page is goodput's for examples/fleet-32k.yml, formatted as the page does."""
    text = page_text(fleet_book, "answer")
    for key, value in shown(headline(load_params(FLEET), which="first-order")).items():
        assert value in text, (key, value)
    assert "32,768" in text


def test_answer_page_names_the_file_it_was_built_from(fleet_book: Path, page_text) -> None:
    """The answer page (its opening and its 'Built from' table) names examples/fleet-32k.yml."""
    text = page_text(fleet_book, "answer")
    assert "This build was made from fleet-32k.yml" in text
    assert "inputs file fleet-32k.yml" in text


def test_no_worked_number_is_left_where_it_was(fleet_book: Path, page_text) -> None:
    """None of the worked example's headline strings (T* 19.3 min, 86.9%, 186 min, ...) appears in its place."""
    text = page_text(fleet_book, "answer")
    for key, value in shown(headline(load_params(ROOT / "book" / "params.yml"), which="first-order")).items():
        assert value not in text, (key, value)
    assert "For a job on 16,384 GPUs" not in text


def test_answer_and_planning_pages_show_the_fleet_ranges(fleet_book: Path, page_text) -> None:
    """The uncertainty range of T* and goodput is the one propagated from the fleet file's stated ranges: by first
    order on the answer page (beside the brief's arithmetic), by the recommended exact model on the planning page."""
    params = load_params(FLEET)
    for page, which in (("answer", "first-order"), ("planning", "exact")):
        h = headline(params, which=which)
        fixed = propagate_params(params, interval=h["interval"], which=which)
        best = propagate_params(params, which=which)
        t_lo, t_hi = best.optimal_interval_range
        g_lo, g_hi = fixed.goodput_range
        text = page_text(fleet_book, page)
        assert f"between {t_lo:.1f} and {t_hi:.1f} min" in text, page
        assert f"between {g_lo:.1%} and {g_hi:.1%}" in text, page
    assert "the range stated in the inputs file" in page_text(fleet_book, "answer")  # M from a rate: not a count


def test_logs_chapter_names_the_logs_of_the_fleet_file(fleet_book: Path, page_text) -> None:
    """The logs chapter says it measured the files named by the fleet file's logs: key."""
    text = page_text(fleet_book, "logs")
    assert "This build measured book/data/sample-steps.csv and book/data/sample-events.csv" in text
    assert "fleet-32k.yml" in text
