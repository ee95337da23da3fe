"""A clean, strict build of the whole book, and the worked numbers as a reader sees them in the HTML.

Unmarked tests check the build's parallel execution (_ext/goodput_execute.py) without a build.

The build runs from nothing (a fresh output folder, every chapter executed), with warnings as
errors and execution errors fatal, so a stale cache or a broken cell cannot pass.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from goodput.params import load_params
from goodput.plan import headline

ROOT = Path(__file__).resolve().parent.parent
#: The tests that read the built book (``-m book``); the others test the build's extensions without one.
built = pytest.mark.book


# The clean, strict build itself is the session fixture `built_book` in conftest.py, shared with
# tests/test_browser.py and tests/test_citation.py so that one run builds the book once.


@built
def test_answer_page_shows_the_worked_numbers(built_book: Path, page_text) -> None:
    """The answer page shows M 186 min, T* 19.3 min, losses 5.2/5.2/2.7%, 86.9%, 74%, 12.8 points and $3.8M."""
    text = page_text(built_book, "answer")
    for shown in ("186 min", "19.3 min", "5.2%", "2.7%", "86.9%", "74.1%", "12.8 points", "$3.8M"):
        assert shown in text, shown


@built
def test_worked_numbers_are_the_package_numbers(built_book: Path, page_text) -> None:
    """The numbers the book shows are those the package computes from book/params.yml (no typed copy)."""
    h = headline(load_params(ROOT / "book" / "params.yml"))
    text = page_text(built_book, "answer")
    assert f"{h['interval']:.1f} min" in text
    assert f"{h['goodput']:.1%}" in text
    assert f"${h['capacity'] / 1e6:.1f}M" in text


@built
def test_levers_page_shows_the_shallow_optimum(built_book: Path, page_text) -> None:
    """By the exact model, an interval twice the optimum (37.2 min at C = 1 min) leaves 85.4%, 2.2 points less; the
    5-minute checkpoint costs 11.1 points, $3.3M a month: the page shows the package's numbers."""
    from goodput.fleet import fleet_plan
    from goodput.pages import levers

    page = levers.build(fleet_plan(load_params(ROOT / "book" / "params.yml")))
    assert (page.twice_interval, page.long_goodput, page.twice_points) == ("37.2 min", "85.4%", "2.2 points")
    assert (page.slow_points, page.slow_dollars) == ("11.1 points", "$3.3M")
    text = page_text(built_book, "levers")
    for shown in (page.twice_interval, page.long_goodput, page.twice_points, page.slow_points, page.slow_dollars):
        assert shown in text, shown


@built
def test_every_page_has_one_title_and_no_error_output(built_book: Path, page_text) -> None:
    """Each chapter has exactly one H1 and no traceback or error output reached the HTML."""
    for page in sorted((built_book / "book").glob("*.html")):
        raw = page.read_text(encoding="utf-8")
        article = re.search(r"<article\b.*?</article>", raw, flags=re.DOTALL)
        assert article is not None, page.name
        assert len(re.findall(r"<h1\b", article.group(0))) == 1, page.name
        assert "Traceback" not in raw and "output stderr" not in raw, page.name


@built
def test_figures_are_images_with_captions(built_book: Path, page_text) -> None:
    """Every figure cell rendered a PNG with a numbered caption, not a text repr of a Figure object."""
    raw = "".join(p.read_text(encoding="utf-8") for p in (built_book / "book").glob("*.html"))
    assert "&lt;Figure size" not in raw and "<Figure size" not in raw
    captions = re.findall(r'<figcaption>.*?<span class="caption-number">Fig\.\s(\d+)', raw, flags=re.DOTALL)
    assert len(captions) >= 6
    assert len(list((built_book / "_images").glob("*.png"))) >= len(captions)


def load_execute() -> ModuleType:
    """_ext/goodput_execute.py as a module (a Sphinx extension, not part of the package)."""
    spec = importlib.util.spec_from_file_location("goodput_execute", ROOT / "_ext" / "goodput_execute.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_the_parallel_execution_refuses_other_versions_of_the_private_apis_it_uses() -> None:
    """The pinned MyST-NB and jupyter-cache pass; another minor version, or none, stops with one line naming both."""
    execute = load_execute()
    pins = dict(re.findall(r"^([\w.-]+)==(\S+)", (ROOT / "constraints.txt").read_text(encoding="utf-8"), re.MULTILINE))
    assert {name: pins[name] for name in execute.WRITTEN_FOR} == {
        name: importlib.metadata.version(name) for name in execute.WRITTEN_FOR}
    execute.check_versions()
    execute.check_versions({"myst-nb": "1.4.9", "jupyter-cache": "1.0.0"}.__getitem__)

    def missing(name: str) -> str:
        if name == "jupyter-cache":
            raise importlib.metadata.PackageNotFoundError(name)
        return "1.5.0"

    with pytest.raises(SystemExit) as stopped:
        execute.check_versions(missing)
    message = str(stopped.value)
    assert len(message.splitlines()) == 1
    assert "myst-nb 1.4.x and jupyter-cache 1.0.x" in message
    assert "found myst-nb 1.5.0, jupyter-cache (not installed)" in message
