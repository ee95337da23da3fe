"""Benchmark: reading and measuring a month of one-second steps, against pandas just reading the same files.

Generates, into a temporary directory, a 30-day run with one-second steps
(about 2.6 million step rows; C = 1 min, R = 5 min, M = 186 min, a checkpoint
every 1,200 steps = 20 min) with :func:`goodput.logs.samples.write_logs`, once
with a seconds clock and once with ISO-8601 timestamps. Then, interleaved and
repeated, keeping the best (minimum) of each:

(a) ``pandas.read_csv`` of steps.csv and events.csv with no options (the cost
    of reading the bytes; for ISO-8601 the times stay strings);
(a') for ISO-8601 only, (a) plus ``pandas.to_datetime(format="ISO8601")`` of
    the three time columns: the least any reader of timestamps must do;
(b) :func:`goodput.logs.read.read_steps` + :func:`goodput.logs.read.read_events` +
    :func:`goodput.logs.measure.measure`, with every check of the files.

It prints the times, rows per second and the ratio (b)/(a). Target: seconds,
not minutes. Run it with ``python benchmarks/bench_logs.py [--repeats 3] [--days 30]``.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import pandas as pd

from goodput.logs.measure import measure
from goodput.logs.read import read_events, read_steps
from goodput.logs.samples import SampleSpec, write_logs


def pandas_read(directory: Path, parse_iso: bool = False) -> float:
    """Seconds for pandas to read both files (and, optionally, parse the ISO-8601 time columns).

    Parameters
    ----------
    directory : Path
        Holds steps.csv and events.csv.
    parse_iso : bool, optional
        Also convert the time columns with ``pd.to_datetime(format="ISO8601")``.

    Returns
    -------
    float
        Wall-clock seconds.
    """
    start = time.perf_counter()
    steps = pd.read_csv(directory / "steps.csv")
    events = pd.read_csv(directory / "events.csv")
    if parse_iso:
        for column in (steps["start"], steps["end"], events["time"]):
            pd.to_datetime(column, format="ISO8601")
    return time.perf_counter() - start


def goodput_measure(directory: Path) -> tuple[float, float]:
    """Seconds for read_steps + read_events + measure, and the measured goodput.

    Parameters
    ----------
    directory : Path
        Holds steps.csv and events.csv.

    Returns
    -------
    tuple of float
        Wall-clock seconds and the measured goodput.
    """
    start = time.perf_counter()
    result = measure(read_steps(directory / "steps.csv"), read_events(directory / "events.csv"))
    return time.perf_counter() - start, result.measured_goodput


def main() -> None:
    """Generate the logs, run the timings and print them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="repetitions of each measurement (default 3)")
    parser.add_argument("--days", type=float, default=30.0, help="length of the run in days (default 30)")
    args = parser.parse_args()

    spec = SampleSpec(step_s=1.0, interval_steps=1200, duration_min=args.days * 24 * 60.0, seed=0)
    with tempfile.TemporaryDirectory() as tmp:
        for clock in ("seconds", "iso8601"):
            directory = Path(tmp) / clock
            directory.mkdir()
            started = time.perf_counter()
            truth = write_logs(directory, replace(spec, clock=clock))
            made = time.perf_counter() - started
            size = (directory / "steps.csv").stat().st_size / 1e6
            rows = truth.steps
            print(
                f"{clock}: {rows:,} step rows ({size:.0f} MB), {truth.failures} failures; generated in {made:.1f} s"
            )
            goodput_measure(directory)  # warm up
            plain, parsed, ours = [], [], []
            for _ in range(args.repeats):
                plain.append(pandas_read(directory))
                if clock == "iso8601":
                    parsed.append(pandas_read(directory, parse_iso=True))
                seconds, goodput = goodput_measure(directory)
                ours.append(seconds)
            best_plain, best_ours = min(plain), min(ours)
            print(f"  pandas.read_csv only          {best_plain:6.2f} s  ({rows / best_plain / 1e6:.2f} M rows/s)")
            if parsed:
                best_parsed = min(parsed)
                print(f"  read_csv + to_datetime        {best_parsed:6.2f} s  ({rows / best_parsed / 1e6:.2f} M rows/s)")
            print(f"  read_steps/events + measure   {best_ours:6.2f} s  ({rows / best_ours / 1e6:.2f} M rows/s)")
            print(f"  ratio measure / read_csv      {best_ours / best_plain:6.2f}")
            if parsed:
                print(f"  ratio measure / (read_csv + to_datetime) {best_ours / min(parsed):.2f}")
            print(f"  measured goodput {goodput:.4f} (simulation's own {truth.goodput:.4f})")


if __name__ == "__main__":
    main()
