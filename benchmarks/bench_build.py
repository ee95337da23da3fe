"""Time a clean, strict build of the whole book, and each chapter's execution within it.

Run with ``make bench`` or ``.venv/bin/python benchmarks/bench_build.py``. The build goes to a
temporary folder, so it never uses a cache. The budget is 60 s on a 2-core machine; the script
prints the build time, its ratio to that budget, and the share of it spent executing chapters
(the rest is Sphinx), all measured in the same run.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUDGET_S = 60.0


def build(out: Path) -> tuple[float, str]:
    exe = Path(sys.executable).parent / "jupyter-book"
    start = time.perf_counter()
    result = subprocess.run(
        [str(exe), "build", str(ROOT), "--path-output", str(out), "-W", "-n", "--keep-going"],
        capture_output=True, text=True, check=False,
        env={k: v for k, v in os.environ.items() if k != "GOODPUT_PARAMS"},
    )
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"build failed:\n{(result.stdout + result.stderr)[-3000:]}")
    return elapsed, result.stdout + result.stderr


def main() -> None:
    runs = int(os.environ.get("BENCH_RUNS", "2"))
    times, log = [], ""
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            elapsed, log = build(Path(tmp))
            times.append(elapsed)
    executed = [(Path(m.group(1)).name, float(m.group(2))) for m in re.finditer(r"(\S+\.md): Executed notebook in ([\d.]+)", log)]
    best = min(times)
    print(f"cores: {os.cpu_count()}  runs: {runs}  clean builds: {', '.join(f'{t:.1f} s' for t in times)}")
    print(f"best clean build: {best:.1f} s  =  {best / BUDGET_S:.2f} x the {BUDGET_S:.0f} s budget")
    if executed:
        total = sum(t for _, t in executed)
        print(f"chapter execution (last run): {total:.1f} s = {total / times[-1]:.0%} of that build")
        for name, t in sorted(executed, key=lambda x: -x[1]):
            print(f"  {name:<40} {t:6.1f} s")


if __name__ == "__main__":
    main()
