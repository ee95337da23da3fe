"""The benchmarks run what they say: the one-page book's cell executes against today's package.

bench_build.py compares the whole book with a one-page book whose single cell imports goodput; a cell
that no longer imports (a module moved) would make the benchmark fail only when someone runs it.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_one_page_books_cell_runs_and_glues_the_worked_goodput() -> None:
    """The cell's code runs in this interpreter and glues the worked example's exact goodput, 87.6%."""
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
    assert f"{glued['goodput']:.1%}" == "87.6%"
