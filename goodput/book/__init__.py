"""The book's own layer: figures, tables styled for the page, where the book's inputs are, and glue.

Chapters import from here and from :mod:`goodput.pages`; nothing in the numbers or words layers imports from here.
"""

from __future__ import annotations

import dataclasses
import numbers
from collections.abc import Mapping
from pathlib import Path
from typing import Any


def glue_all(values: Mapping[str, object]) -> None:
    """Glue every value of a page function's mapping under its key, for ``{glue:text}``.

    NumPy scalars become floats (NumPy 2 scalars do not format in ``{glue:text}``); other non-numbers raise TypeError.
    Text keeps each number with its unit at a line break (:func:`goodput.report.keep_with_units`), unless marked
    :class:`goodput.pages.Raw` (markup, or text for a code block, where a no-break space would be pasted).
    """
    from myst_nb import glue

    from goodput.pages import Raw
    from goodput.report import keep_with_units

    for key, value in values.items():
        if isinstance(value, bool) or not isinstance(value, (str, numbers.Real)):
            raise TypeError(f"glue {key!r}: {type(value).__name__} is not text or a number")
        if isinstance(value, str) and not isinstance(value, Raw):
            value = keep_with_units(value)
        glue(key, value if isinstance(value, (str, int)) else float(value), display=False)


def variant_text(page: Any, key: str, book: Path | None = None, _within: tuple[str, ...] = ()) -> str:
    """The Markdown of the variant a page's field chooses, filled from the page's other fields.

    Reads ``book/variants/NAME/KEY.VARIANT.md`` and fills its ``{field}`` placeholders, each escaped with
    :func:`goodput.report.escape_markdown` unless marked :class:`goodput.pages.Raw`. A placeholder naming
    another :class:`goodput.pages.Variant` field is filled with that variant's Markdown, so a clause that
    branches inside a paragraph that branches is a file too; a variant that quotes itself, at any depth,
    raises ValueError.
    """
    from goodput.book.paths import book_root
    from goodput.pages import Raw, Variant
    from goodput.report import escape_markdown

    if key in _within:
        raise ValueError(f"variant {key!r} quotes itself through {' -> '.join(_within)}")
    folder = (book_root() / "book") if book is None else book
    chapter = type(page).__module__.rsplit(".", 1)[-1]
    variant = getattr(page, key).name
    path = folder / "variants" / chapter / f"{key}.{variant}.md"
    text = path.read_text(encoding="utf-8").strip()
    # Values are filled into Markdown: escaped as text (a file name as given may hold "<" or "&"; "$2.6M ... $85M"
    # would otherwise open and close dollar math), except what the package marked Raw (markup it wrote itself).
    values: dict[str, str] = {}
    for f in dataclasses.fields(page):
        value = getattr(page, f.name)
        if isinstance(value, Variant):
            if "{" + f.name + "}" in text:
                values[f.name] = variant_text(page, f.name, book, (*_within, key))
        elif isinstance(value, str):
            values[f.name] = value if isinstance(value, Raw) else escape_markdown(value)
    return text.format_map(values)


def keep_units_in_markdown(text: str) -> str:
    """:func:`goodput.report.keep_with_units` over Markdown's prose, leaving code (fenced blocks, inline spans) as it is.

    A snippet to paste keeps its plain spaces; a number in the prose keeps its unit at a line break.
    """
    import re

    from goodput.report import keep_with_units

    parts = re.split(r"(```.*?```|`[^`\n]*`)", text, flags=re.DOTALL)
    return "".join(part if i % 2 else keep_with_units(part) for i, part in enumerate(parts))


def glue_page(page: Any) -> None:
    """Glue every field of a chapter's page object under its name (``{glue:text}``).

    A :class:`goodput.pages.Variant` is glued as the Markdown of the variant it names (``{glue:md}``).
    """
    from IPython.display import Markdown
    from myst_nb import glue

    from goodput.pages import Variant

    values = {f.name: getattr(page, f.name) for f in dataclasses.fields(page)}
    for key in [key for key, value in values.items() if isinstance(value, Variant)]:
        glue(key, Markdown(keep_units_in_markdown(variant_text(page, key))), display=False)  # type: ignore[no-untyped-call]
        del values[key]
    glue_all(values)
