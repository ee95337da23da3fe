"""How fast `goodput plan` answers, against the time Python needs to import what the plan must use.

The recommended (exact) model's optimum is a Lambert W (``scipy.special.lambertw``) and M's
interval is Garwood's (``scipy.special.gammaincinv``), so the floor is
``python -c "import numpy, scipy.special"``. Target: `goodput plan` within 1.5x of it; anything
heavier on the start-up path (SciPy's stats or optimize, pandas, matplotlib, SymPy) shows as a
ratio over it. All are run as fresh processes, interleaved, several times in one run, and the best
time of each is compared (the machine is shared and noisy, so only ratios measured side by side
mean anything). ``import numpy`` alone is printed too, for reference.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

RUNS = int(os.environ.get("BENCH_RUNS", "15"))
TARGET = 1.5


def wall_time(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    exe = Path(sys.executable).parent / "goodput"
    commands = {
        "python -c 'import numpy, scipy.special'": [sys.executable, "-c", "import numpy, scipy.special"],
        "python -c 'import numpy'": [sys.executable, "-c", "import numpy"],
        "python -c 'pass'": [sys.executable, "-c", "pass"],
        "goodput plan": [str(exe), "plan"],
        "goodput plan --format json": [str(exe), "plan", "--format", "json"],
    }
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(RUNS):
        for name, cmd in commands.items():
            times[name].append(wall_time(cmd))
    best = {name: min(ts) for name, ts in times.items()}
    base = best["python -c 'import numpy, scipy.special'"]
    print(f"best of {RUNS} interleaved runs each")
    for name, t in best.items():
        print(f"  {name:<40} {1000 * t:7.1f} ms   {t / base:5.2f} x the floor")
    ratio = best["goodput plan"] / base
    verdict = "within" if ratio <= TARGET else "OVER"
    print(f"goodput plan / import numpy, scipy.special = {ratio:.2f} ({verdict} the {TARGET} x target)")


if __name__ == "__main__":
    main()
