"""The package's layout is its architecture: numbers below words below the book, and imports run one way.

Every ``import`` in the package (module level or inside a function) is read from the source with
:mod:`ast`, so a test failure names the file and the import that breaks the rule.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "goodput"

#: The layers, lowest first; a module may import from its own layer and the ones below.
LAYERS = ("numbers", "words", "book")


def layer(module: str) -> str:
    """The layer of a goodput module: book (goodput.book.*, the command), words (report, pages), else numbers."""
    if module.startswith("goodput.book") or module == "goodput.cli":
        return "book"
    if module == "goodput.report" or module.startswith("goodput.pages"):
        return "words"
    return "numbers"


def modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def imports(path: Path) -> list[tuple[int, str]]:
    """Every goodput module a file imports, with its line, relative imports resolved."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            base = node.module
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return [(line, name) for line, name in found if name.split(".")[0] == "goodput"]


def test_imports_run_from_the_book_down_to_the_numbers() -> None:
    """No numbers module imports from words or the book, and no words module imports from the book."""
    known = modules()
    broken = []
    for name, path in known.items():
        for line, target in imports(path):
            target = target if target in known else target.rsplit(".", 1)[0]
            if target in known and LAYERS.index(layer(target)) > LAYERS.index(layer(name)):
                broken.append(f"{path.relative_to(PACKAGE.parent)}:{line} ({layer(name)}) imports {target} "
                              f"({layer(target)})")
    assert broken == []


def test_every_module_has_a_layer_the_tree_shows() -> None:
    """Words live in report.py and pages/, the book in book/ and cli.py; everything else is numbers."""
    names = modules()
    assert {layer(n) for n in names} == set(LAYERS)
    assert all(layer(n) == "book" for n in names if n.startswith("goodput.book"))


@pytest.mark.parametrize(
    ("module", "heavy"),
    [
        ("goodput.plan", ("sympy", "matplotlib", "pandas", "scipy.stats")),
        ("goodput.exact", ("sympy", "matplotlib", "pandas")),
        ("goodput.params", ("numpy", "yaml", "sympy", "matplotlib", "pandas")),
        ("goodput.report", ("sympy", "matplotlib", "pandas", "scipy.stats")),
        ("goodput", ("numpy", "yaml", "sympy", "matplotlib", "pandas")),
    ],
)
def test_modules_import_nothing_heavy_they_do_not_use(module: str, heavy: tuple[str, ...]) -> None:
    """Importing a numbers or words module loads none of the heavy libraries it does not need."""
    code = f"import sys, {module}; print([m for m in {heavy!r} if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_public_api_is_exported() -> None:
    """goodput's __all__ names resolve on first use, to the objects of their modules."""
    import goodput
    from goodput.plan import make_plan

    assert "make_plan" in goodput.__all__ and goodput.make_plan is make_plan
    for name in goodput.__all__:
        assert getattr(goodput, name) is not None, name
