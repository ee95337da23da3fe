"""The benchmarks run what they say: the one-page book's cell executes, and is the floor of the stack.

bench_build.py compares the whole book with a one-page book whose single cell imports NumPy and nothing
of the package; a cell that no longer runs would make the benchmark fail only when someone runs it, and
one that imported the package would flatter the ratio.
"""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_one_page_books_cell_runs_and_imports_nothing_of_the_package() -> None:
    """The cell's code runs in this interpreter, glues the square root of two, and imports NumPy and myst_nb only."""
    spec = importlib.util.spec_from_file_location("bench_build", ROOT / "benchmarks" / "bench_build.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    cells = re.findall(r"```\{code-cell\} ipython3\n(?::[^\n]*\n)*(.*?)```", bench.ONE_PAGE, flags=re.DOTALL)
    assert len(cells) == 1
    glued: dict[str, object] = {}
    namespace: dict[str, object] = {}
    exec(compile(cells[0].replace("from myst_nb import glue\n", ""), "page.md", "exec"),  # noqa: S102
         {"glue": lambda key, value, display: glued.__setitem__(key, value)}, namespace)
    assert f"{glued['root']:.3f}" == "1.414"
    tree = ast.parse(cells[0])
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported == {"numpy", "myst_nb"}
