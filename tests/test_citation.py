"""Citing the book: one version everywhere, stable anchors, and every citation key defined.

The version is written once, in goodput/_version.py (the facade re-exports it); CITATION.cff and
pyproject.toml must not disagree with it. The built pages say which version and which inputs file they were built from.
"""

from __future__ import annotations

import hashlib
import html
import re
import tomllib
from pathlib import Path

import pytest
import yaml

import goodput

ROOT = Path(__file__).resolve().parent.parent


def test_citation_cff_carries_the_package_version() -> None:
    """CITATION.cff's version (and its preferred citation's) equals goodput.__version__."""
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert cff["cff-version"] == "1.2.0"
    assert str(cff["version"]) == goodput.__version__
    assert str(cff["preferred-citation"]["version"]) == goodput.__version__
    for key in ("message", "title", "authors"):
        assert cff[key], key


def test_citation_cff_title_is_the_book_title() -> None:
    """The title a citation gives is the title the book shows."""
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    assert cff["title"] == cff["preferred-citation"]["title"] == config["title"]


def test_pyproject_takes_the_version_from_the_package() -> None:
    """pyproject.toml has no version of its own: setuptools reads goodput.__version__."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in pyproject["project"]
    assert "version" in pyproject["project"]["dynamic"]
    assert pyproject["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "goodput.__version__"}


def _bib_keys() -> set[str]:
    return set(re.findall(r"^@\w+\{([^,\s]+),", (ROOT / "book" / "references.bib").read_text(), flags=re.MULTILINE))


def test_every_cited_key_is_in_the_bibliography() -> None:
    """Each {cite:p}/{cite:t} key used in a chapter is an entry of book/references.bib."""
    keys = _bib_keys()
    assert {"young1974", "daly2006", "llama3"} <= keys
    for chapter in sorted((ROOT / "book").glob("*.md")):
        for group in re.findall(r"\{cite(?::\w+)?\}`([^`]+)`", chapter.read_text(encoding="utf-8")):
            for key in (k.strip() for k in group.split(",")):
                assert key in keys, f"{chapter.name}: {key} is not in references.bib"


@pytest.mark.book
def test_every_page_says_what_it_was_built_from(built_book: Path) -> None:
    """Each page's footer names the version, the inputs file with its hash, and links to the cite page."""
    digest = hashlib.sha256((ROOT / "book" / "params.yml").read_bytes()).hexdigest()
    pages = sorted((built_book / "book").glob("*.html"))
    assert pages
    for page in pages:
        raw = page.read_text(encoding="utf-8")
        footer = re.search(r'<p class="goodput-provenance">(.*?)</p>', raw, flags=re.DOTALL)
        assert footer, page.name
        assert f"goodput {goodput.__version__}" in footer.group(1), page.name
        assert f"inputs params.yml (sha256 {digest[:12]})" in footer.group(1), page.name
        if page.name != "cite.html":
            assert 'href="cite.html"' in footer.group(1), page.name
    cite = (built_book / "book" / "cite.html").read_text(encoding="utf-8")
    assert digest in cite
    text = html.unescape(re.sub(r"<[^>]+>", "", cite))
    assert f"version = {{{goodput.__version__}}}" in text


@pytest.mark.book
def test_equations_and_sources_have_stable_anchors(built_book: Path) -> None:
    """The model, the optimum and the goodput are numbered equations; each source is anchored by its key."""
    derivation = (built_book / "book" / "derivation.html").read_text(encoding="utf-8")
    losses = (built_book / "book" / "goodput.html").read_text(encoding="utf-8")
    for label in ("eq-checkpoint-overhead", "eq-lost-work", "eq-overhead", "eq-optimum"):
        assert f'id="equation-{label}"' in derivation, label
    for label in ("eq-goodput", "eq-goodput-optimum"):
        assert f'id="equation-{label}"' in losses, label
    exact = built_book / "book" / "exact.html"
    if exact.exists():  # the exact forms, once their chapter is in the book
        for label in ("eq-exact-goodput", "eq-exact-optimum", "eq-daly"):
            assert f'id="equation-{label}"' in exact.read_text(encoding="utf-8"), label
    numbers = [int(n) for n in re.findall(r'<span class="eqno">\((\d+)\)', derivation + losses)]
    assert len(numbers) >= 6
    assert numbers == sorted(set(numbers)), "equation numbers run through the book without repeats"
    references = (built_book / "book" / "references.html").read_text(encoding="utf-8")
    for key in _bib_keys():
        assert f'id="cite-{key}"' in references, key
    assert 'href="references.html#cite-young1974"' in derivation
