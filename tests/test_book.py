"""A clean, strict build of the whole book, and the worked numbers as a reader sees them in the HTML.

The build runs from nothing (a fresh output folder, every chapter executed), with warnings as
errors and execution errors fatal, so a stale cache or a broken cell cannot pass.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from goodput.params import load_params
from goodput.plan import headline

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.book


# The clean, strict build itself is the session fixture `built_book` in conftest.py, shared with
# tests/test_browser.py and tests/test_citation.py so that one run builds the book once.


def test_answer_page_shows_the_worked_numbers(built_book: Path, page_text) -> None:
    """The answer page shows M 186 min, T* 19.3 min, losses 5.2/5.2/2.7%, 86.9%, 74%, 12.8 points and $3.8M."""
    text = page_text(built_book, "answer")
    for shown in ("186 min", "19.3 min", "5.2%", "2.7%", "86.9%", "74.1%", "12.8 points", "$3.8M"):
        assert shown in text, shown


def test_worked_numbers_are_the_package_numbers(built_book: Path, page_text) -> None:
    """The numbers the book shows are those the package computes from book/params.yml (no typed copy)."""
    h = headline(load_params(ROOT / "book" / "params.yml"))
    text = page_text(built_book, "answer")
    assert f"{h['interval']:.1f} min" in text
    assert f"{h['goodput']:.1%}" in text
    assert f"${h['capacity'] / 1e6:.1f}M" in text


def test_levers_page_shows_the_shallow_optimum(built_book: Path, page_text) -> None:
    """A 40-minute interval at C = 1 min gives 84.0%, 2.9 points worse; the 5-minute checkpoint costs 12.8 points."""
    text = page_text(built_book, "levers")
    for shown in ("84.0%", "2.9 points", "12.8 points", "$3.8M"):
        assert shown in text, shown


def test_every_page_has_one_title_and_no_error_output(built_book: Path, page_text) -> None:
    """Each chapter has exactly one H1 and no traceback or error output reached the HTML."""
    for page in sorted((built_book / "book").glob("*.html")):
        raw = page.read_text(encoding="utf-8")
        article = re.search(r"<article\b.*?</article>", raw, flags=re.DOTALL)
        assert article is not None, page.name
        assert len(re.findall(r"<h1\b", article.group(0))) == 1, page.name
        assert "Traceback" not in raw and "output stderr" not in raw, page.name


def test_figures_are_images_with_captions(built_book: Path, page_text) -> None:
    """Every figure cell rendered a PNG with a numbered caption, not a text repr of a Figure object."""
    raw = "".join(p.read_text(encoding="utf-8") for p in (built_book / "book").glob("*.html"))
    assert "&lt;Figure size" not in raw and "<Figure size" not in raw
    captions = re.findall(r'<figcaption>.*?<span class="caption-number">Fig\. (\d+)', raw, flags=re.DOTALL)
    assert len(captions) >= 6
    assert len(list((built_book / "_images").glob("*.png"))) >= len(captions)
