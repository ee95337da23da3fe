"""Every glue key a chapter quotes is a field of its page object, and every field is quoted.

Read from the sources with :mod:`re` and :mod:`ast`, nothing imported or executed, so the check
costs a fraction of a second: chapter ``book/NAME.md`` glues ``goodput.pages.NAME.Page``, whose
annotated fields are its own keys; the fields of a base it inherits (``Fleet`` in
``goodput/pages/common.py``, the fleet's values said alike on every page) are its keys too. A field
may also be quoted as a ``{name}`` placeholder in one of the chapter's paragraph variants
(``book/variants/NAME/*.md``). Each own field is quoted by its chapter; each base field by at least one.
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


def _classes(module: Path) -> dict[str, ast.ClassDef]:
    return {node.name: node for node in ast.parse(module.read_text(encoding="utf-8")).body
            if isinstance(node, ast.ClassDef)}


def _annotated(node: ast.ClassDef) -> list[str]:
    return [item.target.id for item in node.body
            if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)]


def page_classes(module: Path) -> tuple[list[str], list[str]] | None:
    """The own annotated fields of ``class Page`` in a page module and those of the bases it inherits, or None.

    A base is looked up by name in the module itself, then in ``common.py`` beside it.
    """
    if not module.is_file():
        return None
    classes = _classes(module)
    page = classes.get("Page")
    if page is None:
        return None
    common = module.parent / "common.py"
    shared = _classes(common) if common.is_file() and common != module else {}
    inherited: list[str] = []
    for base in page.bases:
        assert isinstance(base, ast.Name), f"{module.name}: Page's base must be a plain name"
        found = classes.get(base.id) or shared.get(base.id)
        assert found is not None, f"{module.name}: Page's base {base.id} is not in the module or common.py"
        inherited += _annotated(found)
    return _annotated(page), inherited


def page_fields(module: Path) -> list[str] | None:
    """All the fields of ``class Page`` in a page module, inherited first as a dataclass orders them, or None."""
    found = page_classes(module)
    return None if found is None else found[1] + found[0]


def base_fields() -> set[str]:
    """The fields of the shared bases, each of which some chapter must quote."""
    return {name for module in sorted(PAGES.glob("*.py")) if (found := page_classes(module)) for name in found[1]}


def variant_placeholders(name: str) -> set[str]:
    folder = BOOK / "variants" / name
    found: set[str] = set()
    for path in sorted(folder.glob("*.md")) if folder.is_dir() else []:
        found |= set(PLACEHOLDER.findall(path.read_text(encoding="utf-8")))
    return found


@pytest.mark.parametrize("chapter", chapters(), ids=lambda p: p.stem)
def test_chapter_glues_its_page(chapter: Path) -> None:
    keys = quoted_keys(chapter)
    found = page_classes(PAGES / f"{chapter.stem}.py")
    if found is None:
        assert not keys, f"{chapter.name} quotes glue keys {sorted(keys)} but goodput/pages/{chapter.stem}.py has no Page"
        return
    own, inherited = found
    fields = inherited + own
    assert len(fields) == len(set(fields)), f"goodput/pages/{chapter.stem}.py Page redeclares an inherited field"
    unknown = keys - set(fields)
    assert not unknown, f"{chapter.name} quotes keys that Page does not define: {sorted(unknown)}"
    used = keys | variant_placeholders(chapter.stem)
    unused = [f for f in own if f not in used]
    assert not unused, f"goodput/pages/{chapter.stem}.py Page fields no chapter text quotes: {unused}"
    text = chapter.read_text(encoding="utf-8")
    assert "glue_all(" not in text, f"{chapter.name} glues a mapping; glue its page object with glue_page"


def test_every_shared_field_is_quoted() -> None:
    used: set[str] = set()
    for chapter in chapters():
        used |= quoted_keys(chapter) | variant_placeholders(chapter.stem)
    unused = sorted(base_fields() - used)
    assert not unused, f"shared page fields no chapter quotes: {unused}"


def test_variant_placeholders_are_fields() -> None:
    for folder in sorted((BOOK / "variants").glob("*")) if (BOOK / "variants").is_dir() else []:
        fields = page_fields(PAGES / f"{folder.name}.py")
        assert fields is not None, f"book/variants/{folder.name}/ has no page module"
        unknown = variant_placeholders(folder.name) - set(fields)
        assert not unknown, f"book/variants/{folder.name}/ fills placeholders Page does not define: {sorted(unknown)}"


def test_the_check_can_fail(tmp_path: Path) -> None:
    (tmp_path / "common.py").write_text("from dataclasses import dataclass\n@dataclass(frozen=True)\nclass Fleet:\n"
                                        "    gpus: str\n", encoding="utf-8")
    module = tmp_path / "demo.py"
    module.write_text("from dataclasses import dataclass\nfrom common import Fleet\n@dataclass(frozen=True)\n"
                      "class Page(Fleet):\n    interval: str\n    goodput: str\n", encoding="utf-8")
    chapter = tmp_path / "demo.md"
    chapter.write_text("Every {glue:text}`interval` of {glue:text}`gpus` leaves {glue:text}`goodpt:.1f`.\n",
                       encoding="utf-8")
    assert page_classes(module) == (["interval", "goodput"], ["gpus"])
    assert page_fields(module) == ["gpus", "interval", "goodput"]
    fields = page_fields(module) or []
    assert quoted_keys(chapter) - set(fields) == {"goodpt"}
    own = (page_classes(module) or ([], []))[0]
    assert [f for f in own if f not in quoted_keys(chapter)] == ["goodput"]
