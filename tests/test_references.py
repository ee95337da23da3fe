"""The shared bibliography parses, and every key a chapter cites is in it.

A broken ``book/references.bib`` stops the whole book build; this finds it without building.
"""

from __future__ import annotations

import re
from pathlib import Path

from pybtex.database import parse_file

ROOT = Path(__file__).resolve().parent.parent
CITE = re.compile(r"\{cite(?::[a-z]+)?\}`([^`]+)`")


def test_bibliography_parses_with_one_entry_per_key() -> None:
    """Every ``@`` entry in the file is one parsed entry (a missing brace swallows the next one)."""
    text = (ROOT / "book" / "references.bib").read_text(encoding="utf-8")
    entries = parse_file(ROOT / "book" / "references.bib").entries
    assert len(entries) == len(re.findall(r"^@\w+\{", text, flags=re.MULTILINE))


def test_every_cited_key_is_in_the_bibliography() -> None:
    """The keys of every {cite} role in the chapters are keys of references.bib."""
    keys = set(parse_file(ROOT / "book" / "references.bib").entries)
    cited = {
        key.strip()
        for page in (ROOT / "book").glob("*.md")
        for group in CITE.findall(page.read_text(encoding="utf-8"))
        for key in group.split(",")
    }
    assert cited, "no chapter cites anything"
    assert cited <= keys, sorted(cited - keys)
