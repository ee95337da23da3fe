"""Measure C, M and R from a job's own logs, and compare measured goodput with the model.

Log formats
-----------
Two CSV files with a header line; other columns are allowed and ignored.

``steps.csv``, columns ``step,start,end,checkpoint``
    One row per completed training step. ``start`` and ``end`` are seconds on
    one clock (floats) or ISO-8601 timestamps (all rows one kind).
    ``checkpoint`` is 1 where a checkpoint was taken right after the step
    (training stalls from that step's ``end`` to the next step's ``start``),
    else 0. After a restart the job resumes from its last checkpoint, so step
    numbers repeat.

``events.csv``, columns ``time,event``
    On the same clock. ``event`` is ``start`` (an attempt of the job begins),
    ``failure`` (an unexpected termination) or ``stop`` (a planned stop).

Rows are in time order. Each ``start`` begins an attempt that ends at the next
``failure`` or ``stop``; the file begins with a ``start`` and ends with a
``failure`` or ``stop``. Every step lies inside an attempt, and within an
attempt step numbers increase. ISO-8601 timestamps either all carry a UTC
offset (which may change, e.g. across daylight saving) or none does; those
without are read as one continuous clock. Both files use the same kind of clock.

A row is named ``FILE:line N``, N counting the header as line 1, so the first
data row is line 2 (blank lines count). Anything else is refused with one
:class:`~goodput.errors.InputError` naming the file, the line and the problem.

What is measured (minutes)
--------------------------
W, wall time
    First event to last event.
C, checkpoint cost
    The median stall at checkpoint steps (next ``start`` minus ``end``, for
    checkpoint steps followed by a step of the same attempt) minus the median
    ordinary gap (the same at other steps), with the order-statistic
    confidence interval of the median and the interquartile range.
M, mean time between interruptions
    Exposure over the number of failures, with the exact Poisson (Garwood)
    interval. Exposure is wall time less planned downtime (each ``stop`` to
    the next ``start``): the time attempts ran plus the time spent recovering
    from failures. Restart time counts because the first-order model's M is
    the length of the whole failure cycle (work, lost work and restart); with
    this M its terms ``R/M`` and ``T/(2M)`` are exactly (failures x per-failure
    loss) / time, the fractions measured here, and M means what 54 days / 419
    means for the Llama 3 figure. Planned downtime does not count: the job is
    not running and cannot be interrupted.
R, restart time
    From each failure to the start of the first step of the next attempt
    (restarts cut short by another failure are left out of the samples but
    their time counts as restart loss). Mean (used in the prediction, since
    the model's R/M is linear in R), with Student's t interval, median and
    interquartile range.
T, interval
    Median work time between checkpoints: from the start of the step after
    one checkpoint to the end of the next checkpoint step, in the same attempt.
Survival and goodput
    A step's work survives unless a later row repeats its step number or an
    earlier one (the job went back to a checkpoint before it). Measured
    goodput is the time of surviving steps over W.
Lost work per failure
    From the start of the first step of the failed attempt whose work did not
    survive (or the end of its last step, if all survived) to the failure: the
    redone steps, the stalls between them and the step cut short.

The predicted goodput is the first-order model (:mod:`goodput.model`) at the
measured C, M, mean R and T. The gap between prediction and measurement is
broken into the three losses, each measured (summed over the logs, as a
fraction of W) and predicted (C/T, T/(2M), R/M), plus the unmodelled
remainder: ordinary gaps and pauses between steps, planned stops and their
restarts, work redone after planned stops, the first startup and the tail.
"""

from __future__ import annotations

import csv
import itertools
import math
import os
import re
import warnings
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from goodput import model
from goodput.errors import InputError
from goodput.uncertainty import mean_interval, median_interval, poisson_interval
from goodput.units import positive_number

#: Columns of the step log, in order.
STEP_COLUMNS = ("step", "start", "end", "checkpoint")
#: Columns of the event log, in order.
EVENT_COLUMNS = ("time", "event")
#: Event names; an event is stored as its index here.
EVENTS = ("start", "failure", "stop")
START, FAILURE, STOP = 0, 1, 2

#: The three kinds of clock a file can use.
CLOCKS = ("seconds", "iso8601", "iso8601 with UTC offsets")

#: A UTC offset (or Z) right after the time of day.
_OFFSET = re.compile(r"\d\d:\d\d(?::\d\d(?:\.\d*)?)?\s*(?:Z|[+-]\d\d(?::?\d\d)?)\s*$", re.IGNORECASE)

Array = npt.NDArray[np.float64]


@dataclass(frozen=True)
class StepLog:
    """A checked step log, one array element per row, times in minutes.

    Parameters
    ----------
    source : str
        The file it was read from, as given.
    step : ndarray of int64
        Step numbers.
    start, end : ndarray of float64
        Minutes after `origin_us` on the log's clock (seconds / 60 for a
        seconds clock).
    checkpoint : ndarray of bool
        Whether a checkpoint was taken right after the step.
    clock : str
        One of :data:`CLOCKS`.
    origin_us : int
        For ISO-8601, the first row's start in microseconds since 1970-01-01
        (UTC when offsets are given); 0 for a seconds clock.
    """

    source: str
    step: npt.NDArray[np.int64]
    start: Array
    end: Array
    checkpoint: npt.NDArray[np.bool_]
    clock: str
    origin_us: int = 0

    def __len__(self) -> int:
        return int(self.step.size)


@dataclass(frozen=True)
class EventLog:
    """A checked event log, times in minutes.

    Parameters
    ----------
    source : str
        The file it was read from, as given.
    time : ndarray of float64
        Minutes after `origin_us` on the log's clock.
    event : ndarray of int8
        Index into :data:`EVENTS`.
    clock : str
        One of :data:`CLOCKS`.
    origin_us : int
        For ISO-8601, the first event's time in microseconds since 1970-01-01;
        0 for a seconds clock.
    """

    source: str
    time: Array
    event: npt.NDArray[np.int8]
    clock: str
    origin_us: int = 0

    def __len__(self) -> int:
        return int(self.time.size)


# ---------------------------------------------------------------- reading


def _where(source: str, index: int) -> str:
    """Name of the row with 0-based data index `index`."""
    return f"{source}:line {index + 2}"


def _raw_line(source: str, index: int) -> str:
    """The row with data index `index` as written, for error messages."""
    try:
        with open(source, encoding="utf-8", newline="") as file:
            for line in itertools.islice(file, index + 1, index + 2):
                return line.rstrip("\r\n")
    except (OSError, UnicodeDecodeError):
        pass
    return f"row {index + 1}"


def _peek(path: Path, source: str, columns: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """Check the header and return it with the first data row."""
    try:
        with open(path, encoding="utf-8-sig", newline="") as file:
            reader = csv.reader(file)
            header = next(reader, None)
            first = next(reader, None)
    except OSError as exc:
        raise InputError(source, str(path), f"a readable file ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise InputError(source, str(path), "a UTF-8 text file") from None
    except csv.Error as exc:
        raise InputError(source, str(path), f"a CSV file ({exc})") from None
    wanted = ",".join(columns)
    if not header or not any(cell.strip() for cell in header):
        raise InputError(source, "an empty file", f"a header line '{wanted}' and at least one row")
    for column in columns:
        if column not in header:
            raise InputError(f"{source}: column {column}", ",".join(header), f"a header with the columns {wanted}")
    if first is None:
        raise InputError(source, "a header and no rows", "at least one row after the header")
    return header, first


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _read_csv(path: Path, source: str, dtypes: dict[str, str]) -> pd.DataFrame:
    with warnings.catch_warnings():
        warnings.simplefilter("error", pd.errors.ParserWarning)
        try:
            return pd.read_csv(
                path,
                dtype=dtypes,
                index_col=False,
                skip_blank_lines=False,
                keep_default_na=False,
                encoding="utf-8",
            )
        except pd.errors.ParserWarning:
            raise InputError(f"{source}:line 2", _raw_line(source, 0), "as many fields as the header has") from None
        except pd.errors.ParserError as exc:
            match = re.search(r"line (\d+), saw (\d+)", str(exc))
            if match is None:
                raise InputError(source, str(exc).strip(), "a well-formed CSV file") from None
            line = int(match[1])
            raise InputError(f"{source}:line {line}", _raw_line(source, line - 2), "as many fields as the header has") from None


#: What each kind of column accepts, for messages.
_EXPECTED = {
    "step": "a whole step number",
    "flag": "a checkpoint flag, 0 or 1",
    "seconds": "a time in seconds (a finite number, like the first row's)",
}


def _bad_rows(kind: str, values: Array) -> npt.NDArray[np.bool_]:
    """Mask of values a column of this kind refuses (values already numeric; NaN = unparsable)."""
    bad: npt.NDArray[np.bool_]
    with np.errstate(invalid="ignore"):
        if kind == "step":
            bad = ~np.isfinite(values) | (values != np.round(values))
        elif kind == "flag":
            bad = ~((values == 0) | (values == 1))
        else:
            bad = ~np.isfinite(values)
    return bad


def _first_bad(source: str, columns: dict[str, str], numeric: dict[str, Array], raw: pd.DataFrame | None) -> None:
    """Raise for the earliest row (then leftmost column) that a column refuses."""
    found: tuple[int, int, str] | None = None
    for order, (column, kind) in enumerate(columns.items()):
        bad = np.flatnonzero(_bad_rows(kind, numeric[column]))
        if bad.size and (found is None or (int(bad[0]), order) < found[:2]):
            found = (int(bad[0]), order, column)
    if found is None:
        return
    index, _, column = found
    if not _raw_line(source, index).strip():
        raise InputError(_where(source, index), "", "a row of values, not a blank line")
    value = str(raw[column].iloc[index]) if raw is not None else _cell(source, index, column)
    raise InputError(_where(source, index), value, f"{_EXPECTED[columns[column]]} in column {column}")


def _cell(source: str, index: int, column: str) -> str:
    line = _raw_line(source, index)
    try:
        with open(source, encoding="utf-8-sig", newline="") as file:
            header = next(csv.reader(file))
        cells = next(csv.reader([line]))
        return cells[header.index(column)]
    except (OSError, StopIteration, ValueError, IndexError):
        return line


def _read_table(path: Path, source: str, numeric: dict[str, str], text: tuple[str, ...]) -> tuple[pd.DataFrame, dict[str, Array]]:
    """Read the columns: `numeric` maps a column to its kind (step, flag, seconds); `text` columns stay strings.

    Fast path: pandas with explicit dtypes. If that fails, read everything as
    strings and name the first cell that is not what its column needs.
    """
    dtypes = {c: ("int64" if k == "step" else "float64") for c, k in numeric.items()} | {c: "str" for c in text}
    try:
        frame = _read_csv(path, source, dtypes)
    except (ValueError, TypeError, OverflowError) as exc:
        if isinstance(exc, InputError):
            raise
        raw = _read_csv(path, source, dict.fromkeys(list(numeric) + list(text), "str"))
        values = {c: pd.to_numeric(raw[c], errors="coerce").to_numpy(np.float64) for c in numeric}
        _first_bad(source, numeric, values, raw)
        raise InputError(source, str(exc), "a CSV file whose columns parse") from None
    if len(frame) == 0:
        raise InputError(source, "a header and no rows", "at least one row after the header")
    values = {c: frame[c].to_numpy(np.float64) for c in numeric}
    _first_bad(source, numeric, values, None)
    return frame, values


def _iso_micro(values: pd.Series, source: str, column: str) -> tuple[npt.NDArray[np.int64], str]:
    """Parse ISO-8601 strings to whole microseconds since 1970-01-01 (UTC when offsets are given)."""
    try:
        parsed = pd.to_datetime(values, format="ISO8601", errors="coerce")
    except ValueError:  # offsets that differ between rows, or on some rows and not others
        has_offset = values.str.contains(_OFFSET).to_numpy(bool)
        differ = np.flatnonzero(has_offset != has_offset[0])
        if differ.size:
            i = int(differ[0])
            which = "with" if has_offset[0] else "without"
            raise InputError(
                _where(source, i),
                values.iloc[i],
                f"an ISO-8601 time {which} a UTC offset in column {column}, like the first row's ({values.iloc[0]})",
            ) from None
        parsed = pd.to_datetime(values, format="ISO8601", errors="coerce", utc=True)
    missing = np.flatnonzero(parsed.isna().to_numpy())
    if missing.size:
        i = int(missing[0])
        raise InputError(
            _where(source, i),
            values.iloc[i],
            f"an ISO-8601 time such as 2025-01-06T00:00:00Z in column {column}, like the first row's",
        )
    clock = CLOCKS[1]
    if parsed.dt.tz is not None:
        parsed = parsed.dt.tz_convert("UTC").dt.tz_localize(None)
        clock = CLOCKS[2]
    return parsed.to_numpy(dtype="datetime64[us]").astype(np.int64), clock


def _times(
    path: Path, source: str, header: list[str], first: list[str], time_columns: tuple[str, ...], other: dict[str, str], text: tuple[str, ...]
) -> tuple[pd.DataFrame, dict[str, Array], str, int]:
    """Read a file whose `time_columns` are seconds or ISO-8601, deciding from the first row.

    Returns the frame, the numeric columns (times in minutes after the origin),
    the clock and the origin (microseconds since 1970 of the first row's time,
    0 for a seconds clock). Keeping times small keeps them exact to well under
    a microsecond.
    """
    position = header.index(time_columns[0])
    sample = first[position] if position < len(first) else ""
    if _is_number(sample):
        frame, values = _read_table(path, source, other | dict.fromkeys(time_columns, "seconds"), text)
        for column in time_columns:
            values[column] = values[column] / 60.0
        return frame, values, CLOCKS[0], 0
    frame, values = _read_table(path, source, other, text + time_columns)
    clocks, micro = set(), {}
    for column in time_columns:
        micro[column], clock = _iso_micro(frame[column], source, column)
        clocks.add(clock)
    if len(clocks) > 1:
        raise InputError(source, " and ".join(sorted(clocks)), "ISO-8601 times with a UTC offset in every column or in none")
    origin = int(micro[time_columns[0]][0])
    for column in time_columns:
        values[column] = (micro[column] - origin) / 6.0e7
    return frame, values, clocks.pop(), origin


def read_steps(path: str | os.PathLike[str]) -> StepLog:
    """Read and check a step log (format in the module docstring).

    Parameters
    ----------
    path : str or path-like
        The CSV file.

    Returns
    -------
    StepLog
        The rows as arrays, times in minutes.

    Raises
    ------
    InputError
        Naming the file and line for an unreadable or empty file, a missing
        column, an unparsable step number or time, a checkpoint flag other than
        0 or 1, a step that ends before it starts, or a step that starts before
        the previous one ends (steps going backwards in time).
    """
    file = Path(path)
    source = str(path)
    header, first = _peek(file, source, STEP_COLUMNS)
    frame, values, clock, origin = _times(
        file, source, header, first, ("start", "end"), {"step": "step", "checkpoint": "flag"}, ()
    )
    step = frame["step"].to_numpy(np.int64)
    start, end = values["start"], values["end"]
    backwards = np.flatnonzero(end < start)
    if backwards.size:
        i = int(backwards[0])
        raise InputError(_where(source, i), _raw_line(source, i), "an end no earlier than the start (this step ends before it starts)")
    overlap = np.flatnonzero(start[1:] < end[:-1])
    if overlap.size:
        i = int(overlap[0]) + 1
        raise InputError(
            _where(source, i),
            _raw_line(source, i),
            f"a start no earlier than the end of the step before (line {i + 1}): steps go backwards in time here",
        )
    checkpoint = values["checkpoint"] == 1
    return StepLog(source=source, step=step, start=start, end=end, checkpoint=checkpoint, clock=clock, origin_us=origin)


def read_events(path: str | os.PathLike[str]) -> EventLog:
    """Read and check an event log (format in the module docstring).

    Parameters
    ----------
    path : str or path-like
        The CSV file.

    Returns
    -------
    EventLog
        The events as arrays, times in minutes.

    Raises
    ------
    InputError
        Naming the file and line for an unreadable or empty file, a missing
        column, an unparsable time, an unknown event name, an event earlier than
        the one before, a ``failure`` or ``stop`` with no attempt running, a
        ``start`` while an attempt runs, or a log that ends inside an attempt.
    """
    file = Path(path)
    source = str(path)
    header, first = _peek(file, source, EVENT_COLUMNS)
    frame, values, clock, origin = _times(file, source, header, first, ("time",), {}, ("event",))
    names = frame["event"].astype(str)
    unknown = np.flatnonzero(~names.isin(EVENTS).to_numpy(bool))
    if unknown.size:
        i = int(unknown[0])
        raise InputError(_where(source, i), names.iloc[i], "an event named start, failure or stop in column event")
    text = names.to_numpy(dtype=object)
    code = np.select([text == "start", text == "failure"], [START, FAILURE], STOP).astype(np.int8)
    time = values["time"]
    early = np.flatnonzero(time[1:] < time[:-1])
    if early.size:
        i = int(early[0]) + 1
        raise InputError(
            _where(source, i),
            _raw_line(source, i),
            f"a time no earlier than the event before (line {i + 1}): events out of order",
        )
    should_start = np.arange(code.size) % 2 == 0
    wrong = np.flatnonzero((code == START) != should_start)
    if wrong.size:
        i = int(wrong[0])
        if i == 0:
            expected = "a 'start' first: the log must begin with an attempt starting"
        elif should_start[i]:
            expected = f"a 'start': the attempt ended at line {i + 1}, so a {EVENTS[code[i]]!r} has no attempt to end"
        else:
            expected = f"a 'failure' or 'stop': the attempt that started at line {i + 1} has not ended"
        raise InputError(_where(source, i), _raw_line(source, i), expected)
    if code.size % 2:
        i = code.size - 1
        raise InputError(
            _where(source, i),
            _raw_line(source, i),
            "a final 'failure' or 'stop': the log ends inside an attempt (add a 'stop' at the time the log was cut)",
        )
    return EventLog(source=source, time=time, event=code, clock=clock, origin_us=origin)


# ---------------------------------------------------------------- measuring


Interval = tuple[float, float]


@dataclass(frozen=True)
class Measurement:
    """C, M, R and goodput measured from logs, with the model's prediction (minutes, fractions).

    Parameters
    ----------
    steps_source, events_source : str
        The files measured.
    confidence : float
        Confidence level of the intervals.
    wall_min : float
        W, first event to last event.
    exposure_min : float
        W less planned downtime: the time M is measured over.
    planned_downtime_min : float
        Sum of ``stop`` to next ``start``.
    attempts, failures, planned_stops, steps, redone_steps : int
        Counts (planned stops exclude a final ``stop``).
    checkpoint_cost_min : float
        C: median checkpoint stall less the median ordinary gap.
    checkpoint_cost_interval_min, checkpoint_cost_iqr_min : tuple of float
        Confidence interval of that median, and the interquartile range of the
        stalls, both less the ordinary gap.
    checkpoint_samples : int
        Checkpoint stalls measured.
    ordinary_gap_min : float
        Median gap after non-checkpoint steps (0 if there are none).
    mtbi_min : float
        M: exposure / failures (``inf`` with no failure).
    mtbi_interval_min : tuple of float
        Garwood interval of M (upper end ``inf`` with no failure).
    restart_min : float
        R: mean of the completed restarts (``nan`` if none).
    restart_interval_min : tuple of float
        Student's t interval of the mean (``nan`` below two samples).
    restart_median_min : float
        Median restart.
    restart_iqr_min : tuple of float
        Interquartile range of the restarts.
    restart_samples : int
        Completed restarts.
    lost_work_per_failure_min : float
        Mean wall time lost per failure (see the module docstring).
    lost_work_iqr_min : tuple of float
        Interquartile range of the lost work per failure.
    redone_step_min : float
        Total compute time of steps redone after failures.
    interval_min : float
        T used in the prediction.
    interval_measured_min : float
        Median work time between checkpoints (``nan`` if not measurable).
    interval_iqr_min : tuple of float
        Interquartile range of the work time between checkpoints.
    interval_source : str
        ``"measured"`` or ``"given"``.
    optimal_interval_min : float
        sqrt(2 C M) from the measured C and M.
    measured_goodput : float
        Surviving step time over W.
    predicted_goodput : float
        First-order goodput at the measured C, M, R and T.
    checkpoint_loss_measured, lost_work_loss_measured, restart_loss_measured : float
        The three losses as measured, fractions of W.
    checkpoint_loss_predicted, lost_work_loss_predicted, restart_loss_predicted : float
        C/T, T/(2M) and R/M.
    unmodelled_loss : float
        1 - measured goodput - the three measured losses.
    model_note : str or None
        Why the first-order formula should not be trusted here, if it should not.
    """

    steps_source: str
    events_source: str
    confidence: float
    wall_min: float
    exposure_min: float
    planned_downtime_min: float
    attempts: int
    failures: int
    planned_stops: int
    steps: int
    redone_steps: int
    checkpoint_cost_min: float
    checkpoint_cost_interval_min: Interval
    checkpoint_cost_iqr_min: Interval
    checkpoint_samples: int
    ordinary_gap_min: float
    mtbi_min: float
    mtbi_interval_min: Interval
    restart_min: float
    restart_interval_min: Interval
    restart_median_min: float
    restart_iqr_min: Interval
    restart_samples: int
    lost_work_per_failure_min: float
    lost_work_iqr_min: Interval
    redone_step_min: float
    interval_min: float
    interval_measured_min: float
    interval_iqr_min: Interval
    interval_source: str
    optimal_interval_min: float
    measured_goodput: float
    predicted_goodput: float
    checkpoint_loss_measured: float
    lost_work_loss_measured: float
    restart_loss_measured: float
    checkpoint_loss_predicted: float
    lost_work_loss_predicted: float
    restart_loss_predicted: float
    unmodelled_loss: float
    model_note: str | None

    @property
    def gap(self) -> float:
        """Predicted minus measured goodput: the sum of the three loss differences and the unmodelled loss."""
        return self.predicted_goodput - self.measured_goodput

    def to_dict(self) -> dict[str, Any]:
        """All fields and :attr:`gap` as plain, JSON-serializable Python values.

        Returns
        -------
        dict
            Floats, ints, strings, ``None`` and lists of two; an infinite or
            undefined value (no failure, no restart) becomes ``None``.
        """

        def plain(value: Any) -> Any:
            if isinstance(value, tuple):
                return [plain(v) for v in value]
            if isinstance(value, (bool, np.bool_)):
                return bool(value)
            if isinstance(value, (int, np.integer)):
                return int(value)
            if isinstance(value, (float, np.floating)):
                return float(value) if math.isfinite(value) else None
            return value

        out = {f.name: plain(getattr(self, f.name)) for f in fields(self)}
        out["gap"] = plain(self.gap)
        return out


def _iqr(values: Array) -> Interval:
    if values.size == 0:
        return math.nan, math.nan
    low, high = np.percentile(values, [25.0, 75.0])
    return float(low), float(high)


def _median(values: Array) -> float:
    return float(np.median(values)) if values.size else math.nan


def measure(
    steps: StepLog | str | os.PathLike[str],
    events: EventLog | str | os.PathLike[str],
    interval: float | None = None,
    *,
    confidence: float = 0.95,
) -> Measurement:
    """Measure C, M, R, lost work and goodput from a step log and an event log.

    Parameters
    ----------
    steps : StepLog or path
        The step log, or its file.
    events : EventLog or path
        The event log, or its file.
    interval : float, optional
        T in minutes for the prediction; measured from the logs when omitted.
    confidence : float, optional
        Confidence level of the intervals (default 0.95).

    Returns
    -------
    Measurement
        Estimates with intervals, measured and predicted goodput, and the
        losses (definitions in the module docstring).

    Raises
    ------
    InputError
        If a file is bad (see :func:`read_steps`, :func:`read_events`), the two
        use different clocks, a step lies outside every attempt, step numbers
        do not increase within an attempt, no checkpoint stall can be measured,
        or T is neither given nor measurable.
    """
    if not isinstance(steps, StepLog):
        steps = read_steps(steps)
    if not isinstance(events, EventLog):
        events = read_events(events)
    given = interval is not None
    if interval is not None:
        interval = positive_number(interval, "interval")
    if steps.clock != events.clock:
        raise InputError(
            f"{steps.source} and {events.source}",
            f"{steps.clock} and {events.clock}",
            "the same clock in both files: seconds in both, or ISO-8601 in both (with UTC offsets in both or neither)",
        )
    shift = (steps.origin_us - events.origin_us) / 6.0e7  # steps onto the events' origin
    step, ckpt = steps.step, steps.checkpoint
    start, end = (steps.start, steps.end) if shift == 0 else (steps.start + shift, steps.end + shift)
    a_start, a_end, a_kind = events.time[0::2], events.time[1::2], events.event[1::2]
    n_att = a_start.size

    # each step to its attempt
    att = np.searchsorted(a_start, start, side="right") - 1
    outside = (att < 0) | (end > a_end[np.maximum(att, 0)])
    if outside.any():
        i = int(np.flatnonzero(outside)[0])
        k = int(att[i])
        if k < 0:
            where = f"it starts before the first 'start' ({events.source}:line 2)"
        elif start[i] >= a_end[k]:
            where = f"it falls after the attempt ended ({events.source}:line {2 * k + 3}) and before the next 'start'"
        else:
            where = f"it runs past the end of its attempt ({events.source}:line {2 * k + 3})"
        raise InputError(
            _where(steps.source, i),
            _raw_line(steps.source, i),
            f"a step inside an attempt, between a 'start' and the next 'failure' or 'stop'; {where}",
        )
    same = att[1:] == att[:-1]
    repeat = np.flatnonzero(same & (step[1:] <= step[:-1]))
    if repeat.size:
        i = int(repeat[0]) + 1
        raise InputError(
            _where(steps.source, i),
            _raw_line(steps.source, i),
            f"a step number above {int(step[i - 1])} (line {i + 1}): within an attempt step numbers increase; "
            "they repeat only after a 'start'",
        )
    counts = np.bincount(att, minlength=n_att)
    first = np.searchsorted(att, np.arange(n_att), side="left")
    last = first + counts - 1
    has_steps = counts > 0

    # survival: a step survives unless a later row goes back to its number or before it
    later_min = np.append(np.minimum.accumulate(step[::-1])[::-1][1:], np.iinfo(np.int64).max)
    survived = step < later_min
    duration = end - start
    useful = float(duration[survived].sum())
    wall = float(events.time[-1] - events.time[0])

    # gaps between consecutive steps of one attempt
    gap = start[1:] - end[:-1]
    is_ck = ckpt[:-1] & same
    ordinary = gap[~ckpt[:-1] & same]
    g0 = _median(ordinary) if ordinary.size else 0.0
    stalls = gap[is_ck]
    if stalls.size == 0:
        raise InputError(
            f"{steps.source}: column checkpoint",
            "no checkpoint step followed by a step of its attempt",
            "at least one, to measure the checkpoint stall",
        )
    c_hat = _median(stalls) - g0
    c_ci = median_interval(stalls, confidence)
    c_iqr = _iqr(stalls)
    ckpt_loss = float((stalls[survived[:-1][is_ck]] - g0).sum()) / wall

    # interval: from the step after one checkpoint to the end of the next checkpoint step, same attempt
    cpos = np.flatnonzero(ckpt)
    pair = att[cpos[1:]] == att[cpos[:-1]]
    work = end[cpos[1:][pair]] - start[cpos[:-1][pair] + 1]
    t_measured = _median(work)
    if interval is None:
        if work.size == 0:
            raise InputError(
                f"{steps.source}: column checkpoint",
                "fewer than two checkpoints in every attempt",
                "two checkpoints in one attempt to measure the interval, or an interval given",
            )
        interval = t_measured

    # attempts: planned downtime, failures, restarts, lost work
    ends_stop = a_kind == STOP
    planned_down = float((a_start[1:] - a_end[:-1])[ends_stop[:-1]].sum())
    exposure = wall - planned_down
    failed = np.flatnonzero(a_kind == FAILURE)
    n_fail = int(failed.size)
    followed = failed[failed + 1 < n_att]
    nxt = followed + 1
    resume = np.where(has_steps[nxt], start[np.minimum(first[nxt], max(len(steps) - 1, 0))], a_end[nxt])
    restart_each = resume - a_end[followed]
    restarts = restart_each[has_steps[nxt]]
    restart_loss = float(restart_each.sum()) / wall

    redone = np.flatnonzero(~survived)
    lost = np.zeros(n_fail)
    with_steps = has_steps[failed]
    fk = failed[with_steps]
    if fk.size:
        # the first redone row of each failed attempt, if any: lost work runs from its start to the failure
        j = np.searchsorted(redone, first[fk])
        row = redone[np.minimum(j, redone.size - 1)] if redone.size else np.full(fk.size, -1)
        hit = (j < redone.size) & (row <= last[fk])
        lost[with_steps] = a_end[fk] - np.where(hit, start[row], end[last[fk]])
    redone_min = float(duration[np.isin(att, failed) & ~survived].sum())
    lost_loss = float(lost.sum()) / wall

    # estimates with intervals
    mtbi = exposure / n_fail if n_fail else math.inf
    m_ci = poisson_interval(n_fail, exposure, confidence)
    r_mean = float(restarts.mean()) if restarts.size else math.nan
    r_ci = mean_interval(restarts, confidence) if restarts.size >= 2 else (math.nan, math.nan)

    if n_fail:
        predicted = model.losses(c_hat, mtbi, r_mean, interval)
        lost_p, restart_p = predicted.lost_work, predicted.restart_loss
    else:
        lost_p, restart_p = 0.0, 0.0
    ckpt_p = float(model.checkpoint_overhead(interval, c_hat))
    measured_goodput = useful / wall
    note = None
    if n_fail and math.isfinite(r_mean) and c_hat > 0:
        note = model.range_problem(c_hat, mtbi, r_mean, interval)

    return Measurement(
        steps_source=steps.source,
        events_source=events.source,
        confidence=float(confidence),
        wall_min=wall,
        exposure_min=exposure,
        planned_downtime_min=planned_down,
        attempts=int(n_att),
        failures=n_fail,
        planned_stops=int(ends_stop[:-1].sum()),
        steps=len(steps),
        redone_steps=int(redone.size),
        checkpoint_cost_min=c_hat,
        checkpoint_cost_interval_min=(c_ci[0] - g0, c_ci[1] - g0),
        checkpoint_cost_iqr_min=(c_iqr[0] - g0, c_iqr[1] - g0),
        checkpoint_samples=int(stalls.size),
        ordinary_gap_min=g0,
        mtbi_min=mtbi,
        mtbi_interval_min=m_ci,
        restart_min=r_mean,
        restart_interval_min=r_ci,
        restart_median_min=_median(restarts),
        restart_iqr_min=_iqr(restarts),
        restart_samples=int(restarts.size),
        lost_work_per_failure_min=float(lost.mean()) if n_fail else math.nan,
        lost_work_iqr_min=_iqr(lost),
        redone_step_min=redone_min,
        interval_min=float(interval),
        interval_measured_min=t_measured,
        interval_iqr_min=_iqr(work),
        interval_source="given" if given else "measured",
        optimal_interval_min=float(model.optimal_interval(max(c_hat, 0.0), mtbi)),
        measured_goodput=measured_goodput,
        predicted_goodput=1.0 - ckpt_p - lost_p - restart_p,
        checkpoint_loss_measured=ckpt_loss,
        lost_work_loss_measured=lost_loss,
        restart_loss_measured=restart_loss,
        checkpoint_loss_predicted=ckpt_p,
        lost_work_loss_predicted=float(lost_p),
        restart_loss_predicted=float(restart_p),
        unmodelled_loss=1.0 - measured_goodput - ckpt_loss - lost_loss - restart_loss,
        model_note=note,
    )


#: Rows of :func:`loss_comparison`, in order.
LOSS_ROWS = ("checkpoint overhead", "lost work", "restart", "unmodelled", "goodput")


def loss_comparison(measurement: Measurement) -> pd.DataFrame:
    """Measured against predicted losses, and how much each adds to the gap between predicted and measured goodput.

    Predicted goodput is ``1 - (C/T + T/(2M) + R/M)`` and measured goodput is
    ``1 - (the three measured losses + the unmodelled loss)``, so the gap,
    predicted minus measured goodput, is exactly the sum over the three losses
    of (measured - predicted) plus the unmodelled loss (predicted zero).

    Parameters
    ----------
    measurement : Measurement
        From :func:`measure`.

    Returns
    -------
    pandas.DataFrame
        Indexed by :data:`LOSS_ROWS`; columns ``measured`` and ``predicted``
        (fractions of wall time) and ``adds to the gap`` (measured minus
        predicted for each loss; for the ``goodput`` row, predicted minus
        measured goodput, which is the sum of the four rows above it).
    """
    m = measurement
    measured = [m.checkpoint_loss_measured, m.lost_work_loss_measured, m.restart_loss_measured, m.unmodelled_loss]
    predicted = [m.checkpoint_loss_predicted, m.lost_work_loss_predicted, m.restart_loss_predicted, 0.0]
    gap = [a - b for a, b in zip(measured, predicted, strict=True)]
    return pd.DataFrame(
        {
            "measured": [*measured, m.measured_goodput],
            "predicted": [*predicted, m.predicted_goodput],
            "adds to the gap": [*gap, m.gap],
        },
        index=pd.Index(LOSS_ROWS, name="share of wall time"),
    )


def surviving_checkpoint_loss(checkpoint_cost: float, interval: float, goodput: float) -> float:
    """The checkpoint loss a log shows: C/T times the goodput, not C/T.

    The model charges C for every T of work, ``C/T``; that is the first-order
    share of wall time. A log counts the checkpoints that protect work which
    survived, and each follows T of surviving work, so over wall time W there
    are ``goodput * W / T`` of them and they take ``(C/T) * goodput`` of W.
    The difference, ``(C/T) * (1 - goodput)``, is a product of two small
    losses: second order, dropped by the first-order model, not a loss the
    model misses.

    Parameters
    ----------
    checkpoint_cost : float
        C in minutes.
    interval : float
        T in minutes of work between checkpoints.
    goodput : float
        Measured goodput, a fraction of 1.

    Returns
    -------
    float
        ``(C / T) * goodput``, a fraction of wall time.

    Examples
    --------
    >>> round(surviving_checkpoint_loss(1.0, 20.0, 0.8), 12)
    0.04
    """
    return float(model.checkpoint_overhead(interval, checkpoint_cost)) * float(goodput)
