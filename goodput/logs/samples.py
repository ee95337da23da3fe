"""Sample logs with known truth: a seeded simulation of a training job that fails and restarts.

:func:`simulate_logs` returns a run's step and event logs (formats of :mod:`goodput.logs.read`) with
its truth; :func:`write_logs` writes them as CSV; :func:`write_sample_logs` regenerates ``book/data/``.

The job: steps of ``step_s`` seconds, ``gap_s`` apart; after each step numbered a multiple of
``interval_steps`` a checkpoint stalls it C minutes (``+/- checkpoint_jitter * C`` uniform), so
T = ``(interval_steps * step_s + (interval_steps - 1) * gap_s) / 60``. Failures are Poisson with mean M
on the in-service clock (compute, checkpoints and restarts; not planned downtime, the exposure
:func:`goodput.logs.measure.measure` counts); one during a checkpoint loses it (``checkpoint = 0``). After
a failure the job is down ``R - startup`` minutes (``+/- restart_jitter * R``), then ``start``, then its
first step ``startup`` later, resuming after its last checkpoint (step numbers repeat). A failure while
down fails the next attempt at its ``start``; one during the startup before its first step. Optional
noise the model does not describe: pauses after a step (``pause_probability``, exponential mean
``pause_mean_s``: a straggler, a slow loader) and maintenance every ``maintenance_every_min`` after the
next checkpoint (``stop``, ``maintenance_min`` down, ``start``). The run ends with a ``stop``
``duration_min`` after the first ``start`` (a running step is not logged; down after a failure, the log
ends with the failure). Random numbers come only from ``default_rng(seed).random`` (exponentials by
inversion): one seed, one set of files.
"""

from __future__ import annotations

import dataclasses
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt

from goodput.errors import InputError
from goodput.logs.read import OFFSET

if TYPE_CHECKING:
    import pandas as pd

    from goodput.logs.measure import Measurement

#: Decimal places accepted for written times, and the NumPy unit of each for ISO-8601.
_ISO_UNITS: dict[int, Literal["s", "ms", "us"]] = {0: "s", 3: "ms", 6: "us"}

#: Seed of the book's sample logs.
SAMPLE_SEED = 20250106


@dataclass(frozen=True)
class SampleSpec:
    """The known inputs of a simulated run.

    Seconds for ``step_s``, ``gap_s``, ``pause_mean_s``; minutes elsewhere. Jitters are relative
    half-widths of a uniform spread (only the downtime varies: ``restart_jitter * R <= R - startup``).
    ``clock`` ``"seconds"`` (since the first start) or ``"iso8601"`` (UTC from ``origin``); ``decimals``
    0, 3 or 6 of a second.
    """

    step_s: float = 10.0
    interval_steps: int = 120
    checkpoint_cost_min: float = 1.0
    checkpoint_jitter: float = 0.0
    restart_min: float = 5.0
    restart_jitter: float = 0.0
    startup_min: float = 2.0
    mtbi_min: float = 186.0
    duration_min: float = 30 * 24 * 60.0
    gap_s: float = 0.0
    pause_probability: float = 0.0
    pause_mean_s: float = 60.0
    maintenance_every_min: float | None = None
    maintenance_min: float = 15.0
    clock: str = "seconds"
    origin: str = "2025-01-06T00:00:00"
    decimals: int = 3
    seed: int = 0

    @property
    def interval_min(self) -> float:
        """T: minutes of work between checkpoints (steps and the ordinary gaps between them)."""
        return (self.interval_steps * self.step_s + (self.interval_steps - 1) * self.gap_s) / 60.0

    def check(self) -> None:
        """Raise InputError naming the first field out of range."""
        for name in ("step_s", "checkpoint_cost_min", "restart_min", "mtbi_min", "duration_min", "pause_mean_s",
                     "maintenance_min"):
            if not math.isfinite(value := getattr(self, name)) or value <= 0:
                raise InputError(name, value, "a finite number greater than zero")
        if isinstance(self.interval_steps, bool) or not isinstance(self.interval_steps, int) or self.interval_steps < 1:
            raise InputError("interval_steps", self.interval_steps, "a whole number of steps, at least 1")
        if not 0 <= self.startup_min <= self.restart_min:
            raise InputError("startup_min", self.startup_min, f"between 0 and restart_min ({self.restart_min:g})")
        if not 0 <= self.checkpoint_jitter < 1:
            raise InputError("checkpoint_jitter", self.checkpoint_jitter, "a fraction in [0, 1)")
        if not 0 <= self.restart_jitter * self.restart_min <= self.restart_min - self.startup_min:
            raise InputError("restart_jitter", self.restart_jitter, "a fraction >= 0 with restart_jitter * R <= R - startup")
        if not (math.isfinite(self.gap_s) and self.gap_s >= 0):
            raise InputError("gap_s", self.gap_s, "a finite number of seconds, zero or more")
        if not 0 <= self.pause_probability < 1:
            raise InputError("pause_probability", self.pause_probability, "a probability in [0, 1)")
        if self.maintenance_every_min is not None and not (
            math.isfinite(self.maintenance_every_min) and self.maintenance_every_min > 0
        ):
            raise InputError("maintenance_every_min", self.maintenance_every_min, "None or minutes greater than zero")
        if self.clock not in ("seconds", "iso8601"):
            raise InputError("clock", self.clock, "'seconds' or 'iso8601'")
        if self.decimals not in _ISO_UNITS:
            raise InputError("decimals", self.decimals, "0, 3 or 6")
        expected = "an ISO-8601 UTC time without an offset, such as '2025-01-06T00:00:00' ('Z' is added when written)"
        if OFFSET.search(self.origin):
            raise InputError("origin", self.origin, expected)
        try:
            np.datetime64(self.origin, "us")
        except ValueError:
            raise InputError("origin", self.origin, expected) from None


@dataclass(frozen=True)
class SampleTruth:
    """The inputs of a simulated run and what happened in it (minutes).

    ``planned_stops`` excludes the final stop; ``steps`` includes redone rows; ``exposure_min`` is wall
    time less maintenance downtime; ``useful_min`` compute of surviving steps.
    """

    spec: SampleSpec
    failures: int
    planned_stops: int
    attempts: int
    steps: int
    redone_steps: int
    checkpoints: int
    wall_min: float
    exposure_min: float
    useful_min: float

    @property
    def goodput(self) -> float:
        """The run's goodput: useful compute over wall time."""
        return self.useful_min / self.wall_min

    def to_dict(self) -> dict[str, Any]:
        """Inputs and outcome as plain values: ``{"inputs": {...}, "interval_min": T, "outcome": {...}}``."""
        outcome = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "spec"}
        outcome["goodput"] = self.goodput
        return {"inputs": dataclasses.asdict(self.spec), "interval_min": self.spec.interval_min, "outcome": outcome}


@dataclass(frozen=True)
class SampleLogs:
    """A simulated run: its two logs as arrays (seconds since the first start) and its truth."""

    step: npt.NDArray[np.int64]
    start_s: npt.NDArray[np.float64]
    end_s: npt.NDArray[np.float64]
    checkpoint: npt.NDArray[np.int8]
    event_time_s: npt.NDArray[np.float64]
    event: npt.NDArray[np.str_]
    truth: SampleTruth


def simulate_logs(spec: SampleSpec | None = None) -> SampleLogs:
    """Simulate a run (module docstring; ``SampleSpec()`` by default); InputError for an impossible spec."""
    spec = SampleSpec() if spec is None else spec
    spec.check()
    rng = np.random.default_rng(spec.seed)

    def exponential(mean: float) -> float:  # by inversion
        return -mean * math.log1p(-float(rng.random()))

    step_s, gap_s, k = spec.step_s, spec.gap_s, spec.interval_steps
    c_s, mtbi_s = 60.0 * spec.checkpoint_cost_min, 60.0 * spec.mtbi_min
    startup_s, down_s = 60.0 * spec.startup_min, 60.0 * (spec.restart_min - spec.startup_min)
    jitter_s = 60.0 * spec.restart_jitter * spec.restart_min
    end_of_run = 60.0 * spec.duration_min
    every_s = math.inf if spec.maintenance_every_min is None else 60.0 * spec.maintenance_every_min
    next_maintenance = every_s

    blocks: list[tuple[npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.int8], int]] = []
    log: list[tuple[float, str]] = [(0.0, "start")]
    failures = planned = checkpoints = 0
    planned_down = 0.0
    useful = 0.0
    last_ckpt = 0  # step number restored on restart
    s = 0.0  # start of the current attempt
    arrival = exponential(mtbi_s)

    while True:
        a = s + startup_s
        if min(arrival, end_of_run) < a:  # the attempt ends before its first step
            if end_of_run <= arrival:
                log.append((end_of_run, "stop"))
                break
            f = arrival
        else:
            horizon = min(arrival, end_of_run)
            n = math.ceil((horizon - a) / step_s) + 1
            numbers = np.arange(last_ckpt + 1, last_ckpt + 1 + n, dtype=np.int64)
            is_ckpt = numbers % k == 0
            stall = np.where(is_ckpt, c_s, 0.0)
            if spec.checkpoint_jitter > 0:
                stall[is_ckpt] *= 1.0 + spec.checkpoint_jitter * (2.0 * rng.random(int(is_ckpt.sum())) - 1.0)
            after = gap_s + stall
            if spec.pause_probability > 0:
                u_hit, u_len = rng.random(n), rng.random(n)
                after += np.where(u_hit < spec.pause_probability, -spec.pause_mean_s * np.log1p(-u_len), 0.0)
            starts = a + np.concatenate(([0.0], np.cumsum(step_s + after[:-1])))
            ends = starts + step_s
            ckpt_done = ends + stall  # when each checkpoint step's checkpoint completes
            stop_at, kind = horizon, "failure" if arrival <= end_of_run else "stop"
            if every_s < math.inf:
                due = np.flatnonzero(is_ckpt & (ckpt_done >= next_maintenance) & (ckpt_done < horizon))
                if due.size:
                    stop_at, kind = float(ckpt_done[due[0]]), "planned"
            kept = ends <= stop_at
            flags = (is_ckpt & (ckpt_done <= stop_at) & kept).astype(np.int8)
            numbers, starts, ends, flags = numbers[kept], starts[kept], ends[kept], flags[kept]
            checkpoints += int(flags.sum())
            new_ckpt = int(numbers[flags == 1][-1]) if flags.any() else last_ckpt
            survived = numbers <= new_ckpt if kind == "failure" else np.ones(numbers.size, dtype=bool)
            useful += step_s * int(survived.sum())
            blocks.append((numbers, np.stack([starts, ends]), flags, int((~survived).sum())))
            last_ckpt = new_ckpt
            if kind == "stop":
                log.append((end_of_run, "stop"))
                break
            if kind == "planned":
                planned += 1
                log.append((stop_at, "stop"))
                while next_maintenance <= stop_at:
                    next_maintenance += every_s
                s = stop_at + 60.0 * spec.maintenance_min
                if s >= end_of_run:
                    break
                planned_down += s - stop_at
                log.append((s, "start"))
                arrival = s + exponential(mtbi_s)
                continue
            f = arrival
        # a failure at f, then the restart: down, `start`, startup
        failures += 1
        log.append((f, "failure"))
        while True:
            s = f + down_s + jitter_s * (2.0 * float(rng.random(1)[0]) - 1.0)
            if s >= end_of_run:
                break
            arrival = f + exponential(mtbi_s)
            log.append((s, "start"))
            if arrival >= s:
                break
            failures += 1  # arrived while the job was down: the attempt fails as it starts
            log.append((s, "failure"))
            f = s
        if s >= end_of_run:
            break

    step = np.concatenate([b[0] for b in blocks]) if blocks else np.zeros(0, dtype=np.int64)
    times = np.concatenate([b[1] for b in blocks], axis=1) if blocks else np.zeros((2, 0))
    flags_all = np.concatenate([b[2] for b in blocks]) if blocks else np.zeros(0, dtype=np.int8)
    ev_time, ev_name = zip(*log, strict=True)
    wall = ev_time[-1] - ev_time[0]
    truth = SampleTruth(
        spec=spec,
        failures=failures,
        planned_stops=planned,
        attempts=ev_name.count("start"),
        steps=int(step.size),
        redone_steps=sum(b[3] for b in blocks),
        checkpoints=checkpoints,
        wall_min=wall / 60.0,
        exposure_min=(wall - planned_down) / 60.0,
        useful_min=useful / 60.0,
    )
    return SampleLogs(
        step=step,
        start_s=times[0],
        end_s=times[1],
        checkpoint=flags_all,
        event_time_s=np.asarray(ev_time, dtype=np.float64),
        event=np.asarray(ev_name),
        truth=truth,
    )


def _format_times(seconds: npt.NDArray[np.float64], spec: SampleSpec) -> npt.NDArray[Any]:
    """Times as strings, rounded to `spec.decimals` places of a second."""
    scale = 10**spec.decimals
    ticks = np.rint(seconds * scale).astype(np.int64)
    if spec.clock == "iso8601":
        unit = _ISO_UNITS[spec.decimals]
        stamps = np.datetime64(spec.origin, unit) + ticks.astype(f"timedelta64[{unit}]")
        return np.char.add(np.datetime_as_string(stamps, unit=unit), "Z")
    whole, frac = np.divmod(ticks, scale)
    if spec.decimals == 0:
        return np.asarray(whole.astype(str))
    return np.char.add(np.char.add(whole.astype(str), "."), np.char.zfill(frac.astype(str), spec.decimals))


def _write_csv(path: Path, columns: dict[str, npt.NDArray[Any]]) -> None:
    import pandas as pd

    pd.DataFrame(columns).to_csv(path, index=False, lineterminator="\n", encoding="utf-8")


def write_logs(
    directory: str | os.PathLike[str],
    spec: SampleSpec | None = None,
    *,
    steps_name: str = "steps.csv",
    events_name: str = "events.csv",
) -> SampleTruth:
    """Simulate a run and write its two logs as CSV into an existing directory."""
    logs = simulate_logs(spec)
    spec = logs.truth.spec
    out = Path(directory)
    _write_csv(out / steps_name, {"step": logs.step, "start": _format_times(logs.start_s, spec),
                                  "end": _format_times(logs.end_s, spec), "checkpoint": logs.checkpoint})
    _write_csv(out / events_name, {"time": _format_times(logs.event_time_s, spec), "event": logs.event})
    return logs.truth


#: The book's sample run: the defaults, close to the worked example (C = 1 min, R = 5 min, M = 186 min), with
#: 30-second steps (T = 20 min) so the files stay small, and noise.
BOOK_SAMPLE = SampleSpec(
    step_s=30.0,
    interval_steps=40,
    checkpoint_jitter=0.25,
    restart_jitter=0.4,
    pause_probability=0.002,
    maintenance_every_min=24 * 60.0,
    clock="iso8601",
    decimals=0,
    seed=SAMPLE_SEED,
)


def write_sample_logs(directory: str | os.PathLike[str], seed: int = SAMPLE_SEED) -> SampleTruth:
    """Write the book's sample logs: ``sample-steps.csv``, ``sample-events.csv`` and ``truth.yml``.

    :data:`BOOK_SAMPLE`: 30 days, C = 1 min (45-75 s), R = 5 min (1-5 min down, 2 min startup), M = 186
    min, 30 s steps, a checkpoint every 40 (T = 20 min), ISO-8601 UTC whole seconds from 2025-01-06; a
    pause after 0.2% of steps (mean 60 s) and a daily 15-minute maintenance stop.
    """
    import yaml

    truth = write_logs(
        directory,
        dataclasses.replace(BOOK_SAMPLE, seed=seed),
        steps_name="sample-steps.csv",
        events_name="sample-events.csv",
    )
    text = yaml.safe_dump(truth.to_dict(), sort_keys=False, default_flow_style=False)
    header = "# Truth of sample-steps.csv and sample-events.csv, written by goodput.logs.samples.write_sample_logs.\n"
    (Path(directory) / "truth.yml").write_text(header + text, encoding="utf-8", newline="\n")
    return truth


def read_truth(path: str | os.PathLike[str]) -> SampleTruth:
    """Read a ``truth.yml`` written by :func:`write_sample_logs`; InputError if unreadable or not one."""
    import yaml

    file = Path(path)
    try:
        data = yaml.safe_load(file.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError("truth file", str(file), f"a readable file ({exc.strerror or exc})") from None
    except yaml.YAMLError:
        raise InputError("truth file", str(file), "valid YAML") from None
    try:
        spec = SampleSpec(**data["inputs"])
        outcome = {k: v for k, v in data["outcome"].items() if k != "goodput"}
        return SampleTruth(spec=spec, **outcome)
    except (TypeError, KeyError):
        raise InputError("truth file", str(file), "the inputs and outcome written by write_sample_logs") from None


def recovery(measurement: Measurement, truth: SampleTruth) -> pd.DataFrame:
    """What :func:`goodput.logs.measure.measure` recovers of a simulated run's known truth.

    One row each for C, M, R, T, failures, planned stops, exposure and goodput; ``low``/``high`` the
    confidence interval for C, M and R (NaN for the counted or summed rest). ``agrees``: truth inside the
    interval (ends included), or equal to a relative 1e-6.
    """
    import pandas as pd

    m, spec = measurement, truth.spec
    nan = (math.nan, math.nan)
    rows = [
        ("C", "checkpoint cost", "min", spec.checkpoint_cost_min, m.checkpoint_cost_min,
         m.checkpoint_cost_interval_min),
        ("M", "mean time between interruptions", "min", spec.mtbi_min, m.mtbi_min, m.mtbi_interval_min),
        ("R", "restart time", "min", spec.restart_min, m.restart_min, m.restart_interval_min),
        ("T", "work between checkpoints", "min", spec.interval_min, m.interval_measured_min, nan),
        ("failures", "unexpected interruptions", "count", float(truth.failures), float(m.failures), nan),
        ("planned stops", "planned stops", "count", float(truth.planned_stops), float(m.planned_stops), nan),
        ("exposure", "time exposed to interruption", "min", truth.exposure_min, m.exposure_min, nan),
        ("goodput", "goodput", "fraction", truth.goodput, m.measured_goodput, nan),
    ]
    records = []
    for key, name, unit, true, measured, (low, high) in rows:
        agrees = math.isclose(true, measured, rel_tol=1e-6) if math.isnan(low) else low <= true <= high
        records.append({"key": key, "quantity": name, "unit": unit, "truth": float(true),
                        "measured": float(measured), "low": float(low), "high": float(high), "agrees": agrees})
    return pd.DataFrame.from_records(records, index="key")
