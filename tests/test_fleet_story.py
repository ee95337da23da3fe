"""A tiered fleet's book tells that fleet's story with one set of numbers, and its name stays text.

Builds the whole book from clean, strictly, from ``tests/data/tiered-48k <img src=x onerror=alert(1)> & co.yml``: a fleet unlike
both shipped examples (49,152 GPUs, M from a rate, a 20 s snapshot drained in 3 min, a persistent tier
chosen every 5th checkpoint, a restart given as its parts with a pool of hot spares that is its largest
loss, ranges on s and C, first order out of range), in a file whose name holds markup, which every page
must show as text.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from goodput.fleet import FleetPlan, fleet_plan
from goodput.params import load_params
from goodput.report import money, percent, restart_sum
from goodput.units import format_duration

ROOT = Path(__file__).resolve().parent.parent
FLEET = ROOT / "tests" / "data" / "tiered-48k <img src=x onerror=alert(1)> & co.yml"
pytestmark = pytest.mark.book

#: The pages that speak of "this fleet" and must quote its plan.
PLAN_PAGES = ("answer", "planning", "tiers", "levers")


@pytest.fixture(scope="module")
def fleet() -> FleetPlan:
    return fleet_plan(load_params(FLEET))


@pytest.fixture(scope="module")
def fleet_book(tmp_path_factory: pytest.TempPathFactory, book_builder) -> Path:
    return book_builder(tmp_path_factory.mktemp("tiered"), FLEET)


def test_the_fleet_is_unlike_the_examples(fleet: FleetPlan) -> None:
    """Restart is the largest loss, the cadence is above 3, first order is out of range."""
    assert fleet.largest_loss == "restart_loss"
    assert fleet.plan.tiers is not None and fleet.plan.tiers.every > 3
    assert not fleet.first_order_quotable
    assert fleet.params.gpus not in (16384, 24576, 32768)


def test_pages_quote_the_plan(fleet_book: Path, page_text, fleet: FleetPlan) -> None:
    """Every page about this fleet quotes the plan's interval and goodput; none quotes the one-tier model's."""
    single = fleet_plan(fleet.params.without_tiers())
    # The check means something only if no number the fleet's own plan prints (a lever's result, a size's plan)
    # happens to equal the one-tier goodput.
    own = {percent(fleet.goodput + gain) for gain in fleet.levers.values()} | {
        percent(plan.goodput) for plan in fleet.by_size.values()}
    assert percent(single.goodput) not in own
    for page in PLAN_PAGES:
        text = page_text(fleet_book, page)
        assert format_duration(fleet.interval) in text, page
        assert percent(fleet.goodput) in text, page
        own_story = text.split("Aside: the worked example")[0]  # the labelled asides quote the worked example
        assert percent(single.goodput) not in own_story, page


def test_the_plan_pages_quote_the_best_spares_and_the_restart_parts(fleet_book: Path, page_text,
                                                                    fleet: FleetPlan) -> None:
    """The answer and planning pages quote the best spare count, its goodput and dollars, and R as its parts."""
    choice = fleet.best_spares
    assert choice is not None and choice.dollars
    parts = restart_sum(fleet.params)
    assert parts is not None
    for page in ("answer", "planning"):
        text = page_text(fleet_book, page)
        assert f"{choice.best} spare nodes" in text, page
        assert percent(choice.goodput[choice.best]) in text, page
        assert money(choice.dollars[choice.best]) in text, page
        assert parts in text, page


def test_no_first_order_number_where_first_order_is_out_of_range(fleet_book: Path, page_text,
                                                                 fleet: FleetPlan) -> None:
    """First order is out of range for this fleet: its goodput and interval appear on no page."""
    for page in sorted((fleet_book / "book").glob("*.html")):
        text = page_text(fleet_book, page.stem)
        assert percent(fleet.first_order.goodput) not in text, page.stem
        assert f"by first order {percent(fleet.first_order.goodput)}" not in text, page.stem


#: An impossible value: a negative share or dollar figure, a negative gain or loss in points where the sentence
#: says what it is ("-76.5 points less", "costs -13.8 points", "+-0.0 points"), NaN or infinity as a value, and a
#: share above 100%. A signed term of a decomposition ("adds −0.74 points to the gap") is not one.
IMPOSSIBLE = re.compile(r"(?<![\w.])[-−]\s?\d[\d,.]*\s?%|\$\s?[-−]\d|[-−]\$\d|\$nan|\$inf|\+\s?[-−]\d|"
                        r"[-−]\s?\d[\d,.]*\s?points? (less|more|worse|better|lower|higher|a month)|"
                        r"\b(costs?|gains?|saves?|loses?|worth) [-−]\s?\$?\d|"
                        r"\b(nan|inf|infinity)\s*(%|points?\b|min\b|h\b|s\b|GPU)|"
                        r"(?<![\d.])(1\d\d|[2-9]\d\d)\.\d%", re.IGNORECASE)


def test_no_impossible_number_on_any_page(fleet_book: Path, page_text) -> None:
    """No negative points, percentages or dollars, no NaN or infinity, no goodput above 100%, on any page."""
    for page in sorted((fleet_book / "book").glob("*.html")):
        text = page_text(fleet_book, page.stem)
        found = IMPOSSIBLE.findall(text)
        assert not found, (page.stem, IMPOSSIBLE.search(text))


def test_the_answer_names_the_fleets_largest_lever(fleet_book: Path, page_text, fleet: FleetPlan) -> None:
    """The answer page's finding names the lever that gains the most for this fleet, not the worked example's."""
    text = page_text(fleet_book, "answer")
    assert fleet.levers_ranked[0][0] in text


def test_the_file_name_is_text_on_every_page(fleet_book: Path, page_text) -> None:
    """The inputs file's name, markup and all, is shown as text: escaped once in the HTML (not garbled, not
    parsed as a tag) wherever the book names its inputs."""
    pages = sorted(fleet_book.rglob("*.html"))
    shown = html.escape(FLEET.name, quote=False)
    for page in pages:
        raw = page.read_text(encoding="utf-8")
        assert "<img src=x" not in raw and "&amp;lt;" not in raw and "&amp;amp;" not in raw, page.name
    assert sum(shown in page.read_text(encoding="utf-8") for page in pages) >= 3
    assert FLEET.name in page_text(fleet_book, "answer")


#: What the worked example's pages show, none of which may appear in the fleet's answer and planning pages.
WORKED = ("186 min", "18.6 min", "87.6%", "19.3 min", "86.9%", "74.1%", "12.8 points", "$3.8M", "$3.3M", "16,384")


def test_no_worked_number_on_the_fleets_plan_pages(fleet_book: Path, page_text) -> None:
    """None of the worked example's headline strings appears on the fleet's answer or planning page."""
    for page in ("answer", "planning"):
        text = page_text(fleet_book, page)
        for value in WORKED:
            assert value not in text, (page, value)


def prose(html_dir: Path, page: str) -> str:
    """The visible text of a page without its code cells (whose source a reader may unfold)."""
    raw = (html_dir / "book" / f"{page}.html").read_text(encoding="utf-8")
    raw = re.sub(r"<(script|style|pre)\b.*?</\1>", " ", raw, flags=re.DOTALL)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", raw)))


def test_durations_read_as_people_write_them(fleet_book: Path) -> None:
    """The 20-second snapshot reads "20 s", never "0.333 min"; no duration carries four or more decimals;
    no key path or package function name appears in the prose."""
    for page in PLAN_PAGES:
        text = prose(fleet_book, page)
        assert "20 s" in text and "0.333" not in text, page
        assert not re.search(r"\d\.\d{4,} (min|s|h)\b", text), page
        assert not re.search(r"ranges\.[a-z]|goodput\.[a-z]", text.replace("goodput.__version__", "")), page
