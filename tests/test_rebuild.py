"""The book rebuilt from another fleet's inputs file tells that fleet's story, with one recommendation.

Builds the whole book from clean, strictly (``-W -n --keep-going``, every chapter executed), with
``GOODPUT_PARAMS=examples/fleet-24k.yml``: 24,576 GPUs, M from a per-GPU rate (not a count), a 40-second
checkpoint drained to shared storage in 6 minutes, a persistent tier, a 12-minute restart, another price,
and no logs and no ranges.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from goodput.params import load_params
from goodput.plan import plan_for
from goodput.report import percent, recommendation
from goodput.units import format_duration

ROOT = Path(__file__).resolve().parent.parent
FLEET = ROOT / "examples" / "fleet-24k.yml"
pytestmark = pytest.mark.book

#: What the worked example's pages show, none of which may appear in the fleet's answer and planning pages.
WORKED = ("186 min", "18.6 min", "87.6%", "19.3 min", "86.9%", "74.1%", "12.8 points", "$3.8M", "$3.3M", "16,384")


@pytest.fixture(scope="module")
def fleet_book(tmp_path_factory: pytest.TempPathFactory, book_builder) -> Path:
    """The book built from clean with GOODPUT_PARAMS=examples/fleet-24k.yml: its HTML folder."""
    return book_builder(tmp_path_factory.mktemp("fleet-24k"), FLEET)


def test_the_fleet_file_is_unlike_the_worked_example() -> None:
    """A sub-minute checkpoint, a restart over 10 minutes, another price and GPU count, M from a rate, tiers."""
    fleet, worked = load_params(FLEET), load_params()
    assert fleet.checkpoint_cost < 1 and fleet.restart > 10 and fleet.price_per_gpu_hour != worked.price_per_gpu_hour
    assert fleet.gpus != worked.gpus and fleet.mtbi_source == "rate_per_gpu_hour" and fleet.tiered


def test_answer_and_planning_pages_give_the_fleet_one_recommendation(fleet_book: Path, page_text) -> None:
    """Both pages state the same recommendation, the exact tier model's interval and goodput for this fleet."""
    plan = plan_for(load_params(FLEET))
    sentence = recommendation(plan)
    for page in ("answer", "planning"):
        text = page_text(fleet_book, page)
        assert sentence in text, page
        assert format_duration(plan.interval) in text and percent(plan.goodput) in text, page
        assert "24,576" in text


def test_no_worked_number_appears_in_the_fleet_pages(fleet_book: Path, page_text) -> None:
    """None of the worked example's headline strings appears on the fleet's answer or planning page."""
    for page in ("answer", "planning"):
        text = page_text(fleet_book, page)
        for value in WORKED:
            assert value not in text, (page, value)


def test_durations_read_as_people_write_them(fleet_book: Path, page_text) -> None:
    """The 40-second checkpoint reads "40 s", never "0.666667 min"; no duration carries four or more decimals;
    no key path or package function name appears in the prose."""
    for page in ("answer", "planning"):
        text = page_text(fleet_book, page)
        assert "40 s" in text and "0.666" not in text
        assert not re.search(r"\d\.\d{4,} (min|s|h)\b", text)
        assert not re.search(r"ranges\.[a-z]|goodput\.[a-z]", text.replace("goodput.__version__", ""))


def test_answer_page_names_the_file_it_was_built_from(fleet_book: Path, page_text) -> None:
    """The answer page's opening and its 'Built from' table name fleet-24k.yml, and say no input has a range."""
    text = page_text(fleet_book, "answer")
    assert "This build was made from fleet-24k.yml" in text
    assert "inputs file fleet-24k.yml" in text
    assert "no input a range" in text
