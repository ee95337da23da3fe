"""Every glue key a chapter quotes is a field of its page object, and every field is quoted.

Read from the sources with :mod:`re` and :mod:`ast`, nothing imported or executed, so the check
costs a fraction of a second: chapter ``book/NAME.md`` glues ``goodput.pages.NAME.Page``, whose
annotated fields are its keys; a field may also be quoted as a ``{name}`` placeholder in one of the
chapter's paragraph variants (``book/variants/NAME/*.md``).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "book"
PAGES = ROOT / "goodput" / "pages"

#: ``{glue:text}`key```, ``{glue:text}`key:.1f```, ``{glue}`key```, ``{glue:md}`key``` and the
#: directive forms (``{glue:md} key``, ``{glue:figure} key``).
ROLE = re.compile(r"\{glue(?::\w+)?\}`([A-Za-z_]\w*)(?::[^`]*)?`")
DIRECTIVE = re.compile(r"^[`:]{3,}\{glue(?::\w+)?\}\s+([A-Za-z_]\w*)", re.MULTILINE)
PLACEHOLDER = re.compile(r"(?<!\{)\{([A-Za-z_]\w*)\}(?!\})")


def chapters() -> list[Path]:
    return sorted(BOOK.glob("*.md"))


def quoted_keys(chapter: Path) -> set[str]:
    """The glue keys a chapter quotes, in roles and directives."""
    text = chapter.read_text(encoding="utf-8")
    return set(ROLE.findall(text)) | set(DIRECTIVE.findall(text))


def page_fields(module: Path) -> list[str] | None:
    """The annotated fields of ``class Page`` in a page module, or None if it has none."""
    if not module.is_file():
        return None
    for node in ast.parse(module.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ClassDef) and node.name == "Page":
            return [item.target.id for item in node.body
                    if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)]
    return None


def variant_placeholders(name: str) -> set[str]:
    folder = BOOK / "variants" / name
    found: set[str] = set()
    for path in sorted(folder.glob("*.md")) if folder.is_dir() else []:
        found |= set(PLACEHOLDER.findall(path.read_text(encoding="utf-8")))
    return found


@pytest.mark.parametrize("chapter", chapters(), ids=lambda p: p.stem)
def test_chapter_glues_its_page(chapter: Path) -> None:
    keys = quoted_keys(chapter)
    fields = page_fields(PAGES / f"{chapter.stem}.py")
    if fields is None:
        assert not keys, f"{chapter.name} quotes glue keys {sorted(keys)} but goodput/pages/{chapter.stem}.py has no Page"
        return
    assert len(fields) == len(set(fields))
    unknown = keys - set(fields)
    assert not unknown, f"{chapter.name} quotes keys that Page does not define: {sorted(unknown)}"
    used = keys | variant_placeholders(chapter.stem)
    unused = [f for f in fields if f not in used]
    assert not unused, f"goodput/pages/{chapter.stem}.py Page fields no chapter text quotes: {unused}"
    text = chapter.read_text(encoding="utf-8")
    assert "glue_all(" not in text, f"{chapter.name} glues a mapping; glue its page object with glue_page"


def test_variant_placeholders_are_fields() -> None:
    for folder in sorted((BOOK / "variants").glob("*")) if (BOOK / "variants").is_dir() else []:
        fields = page_fields(PAGES / f"{folder.name}.py")
        assert fields is not None, f"book/variants/{folder.name}/ has no page module"
        unknown = variant_placeholders(folder.name) - set(fields)
        assert not unknown, f"book/variants/{folder.name}/ fills placeholders Page does not define: {sorted(unknown)}"


def test_the_check_can_fail(tmp_path: Path) -> None:
    module = tmp_path / "demo.py"
    module.write_text("from dataclasses import dataclass\n@dataclass(frozen=True)\nclass Page:\n"
                      "    interval: str\n    goodput: str\n", encoding="utf-8")
    chapter = tmp_path / "demo.md"
    chapter.write_text("Every {glue:text}`interval` leaves {glue:text}`goodpt:.1f`.\n", encoding="utf-8")
    assert page_fields(module) == ["interval", "goodput"]
    assert quoted_keys(chapter) - set(page_fields(module) or []) == {"goodpt"}
