"""A clean, strict build of the whole book against a one-page executed book, measured side by side.

Run with ``make bench`` or ``.venv/bin/python benchmarks/bench_build.py [--serial]``.

Target: a clean, strict build of the whole book (``-W -n --keep-going``, every chapter executed)
within 10x the time of a one-page book built with the same stack: one MyST text notebook whose one
cell imports NumPy and nothing of the package and glues one number, executed by MyST-NB
(``execute_notebooks: force``). That is the floor of the stack (Jupyter Book, Sphinx, one kernel,
NumPy): whatever the package costs to import and compute counts against the book. The one-page
book is generated in a temporary folder. Both are built from clean, into fresh
temporary folders (so no cache survives from one build to the next), alternately, ``BENCH_RUNS``
times each (default 2); the machine is shared and noisy, so only times measured side by side
mean anything, and the best of each is compared.

It prints each build's time, the ratio full/one-page, and how the last full build spent its
time: each chapter's execution (from the ``[goodput] ...: executed in`` lines of
_ext/goodput_execute.py, or MyST-NB's ``Executed notebook in`` lines when chapters run one at a
time), as a share of that build. With ``--serial`` it also builds the book with one kernel at a
time (``GOODPUT_BUILD_JOBS=1``), for comparison.
"""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = int(os.environ.get("BENCH_RUNS", "2"))
TARGET = 10.0

ONE_PAGE_CONFIG = """\
title: One page
execute:
  execute_notebooks: force
  timeout: 120
  allow_errors: false
sphinx:
  config:
    nb_execution_raise_on_error: true
"""

ONE_PAGE_TOC = """\
format: jb-book
root: page
"""

ONE_PAGE = """\
---
jupytext:
  text_representation:
    extension: .md
    format_name: myst
kernelspec:
  display_name: Python 3
  language: python
  name: python3
---

# One page

```{code-cell} ipython3
:tags: [remove-cell]

import numpy as np
from myst_nb import glue

glue("root", float(np.sqrt(2.0)), display=False)
```

The square root of two is {glue:text}`root:.3f`.
"""


def one_page_book(folder: Path) -> Path:
    """Write the one-page book into ``folder`` and return it."""
    (folder / "_config.yml").write_text(ONE_PAGE_CONFIG, encoding="utf-8")
    (folder / "_toc.yml").write_text(ONE_PAGE_TOC, encoding="utf-8")
    (folder / "page.md").write_text(ONE_PAGE, encoding="utf-8")
    return folder


def children_cpu() -> float:
    """CPU seconds (user and system) used so far by this process's finished children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def build(source: Path, jobs: int | None = None) -> tuple[float, float, str]:
    """Build ``source`` from clean into a fresh temporary folder; return the wall time, the CPU seconds (the
    builder and every kernel it started; on a shared machine they vary less than wall time) and the log."""
    exe = Path(sys.executable).parent / "jupyter-book"
    env = {k: v for k, v in os.environ.items() if k not in ("GOODPUT_PARAMS", "GOODPUT_BUILD_JOBS")}
    if jobs is not None:
        env["GOODPUT_BUILD_JOBS"] = str(jobs)
    with tempfile.TemporaryDirectory() as out:
        start, cpu = time.perf_counter(), children_cpu()
        result = subprocess.run(
            [str(exe), "build", str(source), "--path-output", out, "-W", "-n", "--keep-going"],
            capture_output=True, text=True, check=False, env=env,
        )
        elapsed = time.perf_counter() - start
        cpu = children_cpu() - cpu
    log = result.stdout + result.stderr
    if result.returncode != 0 or "build succeeded" not in log:
        sys.exit(f"build of {source} failed:\n{log[-3000:]}")
    return elapsed, cpu, log


def executions(log: str) -> list[tuple[str, float]]:
    """Each chapter's execution time in a build log, longest first."""
    found = re.findall(r"\[goodput\] (\S+\.md): executed in ([\d.]+) seconds", log)
    found = found or re.findall(r"(\S+\.md): Executed notebook in ([\d.]+) seconds", log)
    return sorted(((Path(p).name, float(t)) for p, t in found), key=lambda x: -x[1])


def main() -> None:
    serial = "--serial" in sys.argv[1:]
    times: dict[str, list[float]] = {"one page": [], "full book": []}
    if serial:
        times["full book, 1 kernel at a time"] = []
    cpus: dict[str, list[float]] = {name: [] for name in times}
    logs: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        page = one_page_book(Path(tmp))
        for _ in range(RUNS):
            for name, runs in times.items():
                source = page if name == "one page" else ROOT
                elapsed, cpu, logs[name] = build(source, jobs=1 if "1 kernel" in name else None)
                runs.append(elapsed)
                cpus[name].append(cpu)
    best = {name: min(ts) for name, ts in times.items()}
    base = best["one page"]
    print(f"cores: {os.cpu_count()}  best of {RUNS} alternating clean, strict builds each")
    for name, ts in times.items():
        runs = ", ".join(f"{t:.1f}" for t in ts)
        print(f"  {name:<32} {best[name]:6.1f} s  {best[name] / base:5.1f} x one page   (runs: {runs} s; "
              f"CPU {min(cpus[name]):.1f} s)")
    ratio = best["full book"] / base
    verdict = "within" if ratio <= TARGET else "OVER"
    print(f"full book / one page = {ratio:.1f} ({verdict} the {TARGET:.0f} x target); in CPU seconds "
          f"{min(cpus['full book']) / min(cpus['one page']):.1f}")

    log, wall = logs["full book"], times["full book"][-1]
    chapters = executions(log)
    if chapters:
        total = sum(t for _, t in chapters)
        phase = re.search(r"executed \d+ notebooks and read the book in ([\d.]+) s", log)
        print(f"last full build: {wall:.1f} s; chapters executed: {len(chapters)}, "
              f"{total:.1f} s of execution in all ({total / wall:.0%} of the build's wall time"
              + (f"; in parallel, executing and reading took {float(phase.group(1)):.1f} s)" if phase else ")"))
        print(textwrap.indent("\n".join(f"{name:<24} {t:5.2f} s  {t / wall:4.0%} of the build"
                                        for name, t in chapters), "  "))


if __name__ == "__main__":
    main()
