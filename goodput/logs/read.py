"""Read a job's step and event logs (CSV) into checked arrays.

Two CSV files with a header line; other columns are ignored.

``steps.csv``, columns ``step,start,end,checkpoint``
    One row per completed training step; ``start``/``end`` seconds on one clock or ISO-8601 (one kind
    per file). ``checkpoint`` is 1 where a checkpoint was taken right after the step (training stalls
    from its ``end`` to the next ``start``). Step numbers repeat after a restart.

``events.csv``, columns ``time,event``
    ``start`` (an attempt begins), ``failure`` (an unexpected termination) or ``stop`` (planned).

Rows are in time order; the event log begins with a ``start``, and each attempt ends at the next
``failure`` or ``stop``. Every step lies inside an attempt, step numbers rising within it. ISO-8601
times all carry a UTC offset (which may change) or none do (one continuous clock); both files use the
same kind. A row is ``FILE:line N`` with the header as line 1; anything else is refused with one
:class:`~goodput.errors.InputError` naming the file, the line and the problem.
"""

from __future__ import annotations

import codecs
import csv
import io
import os
import re
import stat
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pandas as pd

from goodput.errors import InputError

#: Columns of the step log, in order.
STEP_COLUMNS = ("step", "start", "end", "checkpoint")
#: Columns of the event log, in order.
EVENT_COLUMNS = ("time", "event")
#: Event names; an event is stored as its index here.
EVENTS = ("start", "failure", "stop")
START, FAILURE, STOP = 0, 1, 2

#: The three kinds of clock a file can use.
CLOCKS = ("seconds", "iso8601", "iso8601 with UTC offsets")

#: A UTC offset (or Z) right after the time of day: an ISO-8601 time that carries one.
OFFSET = re.compile(r"\d\d:\d\d(?::\d\d(?:\.\d*)?)?\s*(?:Z|[+-]\d\d(?::?\d\d)?)\s*$", re.IGNORECASE)

Array = npt.NDArray[np.float64]


@dataclass(frozen=True)
class StepLog:
    """A checked step log, one array element per row.

    Times are minutes after ``origin_us`` on the log's clock: for ISO-8601 the first row's start in
    microseconds since 1970 (UTC with offsets), 0 for a seconds clock.
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
    """A checked event log; ``event`` indexes :data:`EVENTS`.

    Times are minutes after ``origin_us`` (the first event, microseconds since 1970 for ISO-8601; 0 for seconds).
    """

    source: str
    time: Array
    event: npt.NDArray[np.int8]
    clock: str
    origin_us: int = 0

    def __len__(self) -> int:
        return int(self.time.size)


# ---------------------------------------------------------------- reading


#: Most bytes read from a file that is not a regular file (a pipe, such as ``<(cat log.csv)``).
MAX_STREAM_BYTES = 1 << 30
_CHUNK = 1 << 20
#: The text of the files read lately, by path as given: each file is opened once (a pipe cannot be read twice),
#: and lines quoted in messages come from the same text. Keyed on the file's identity and modification time.
_TEXTS: dict[str, tuple[tuple[int, ...], str]] = {}


def read_text(path: str | os.PathLike[str], source: str | None = None) -> str:
    """A log file's text, read once: a regular file whole, a pipe up to :data:`MAX_STREAM_BYTES`.

    UTF-8 with a byte-order mark dropped, line ends as written; ``source`` names it in messages. Raises
    InputError for an unreadable file, a device, non-UTF-8 text or NUL bytes, or a pipe too long.
    """
    name = str(path)
    source = source or name
    try:
        info = os.stat(path)
    except OSError as exc:
        raise InputError(source, name, f"a readable file ({exc.strerror or exc})") from None
    if stat.S_ISDIR(info.st_mode):
        raise InputError(source, "a directory", "a log file")
    regular = stat.S_ISREG(info.st_mode)
    if not regular and not (stat.S_ISFIFO(info.st_mode) or stat.S_ISSOCK(info.st_mode)):
        raise InputError(source, "a device", "a log file or a pipe (a device such as /dev/zero never ends)")
    # a pipe is the same pipe whatever is left in it (and can be read only once); a file, until it changes
    key = (info.st_dev, info.st_ino) + ((info.st_size, info.st_mtime_ns) if regular else ())
    cached = _TEXTS.get(name)
    if cached is not None and cached[0] == key:
        return cached[1]
    decoder = codecs.getincrementaldecoder("utf-8-sig")()
    parts: list[str] = []
    total = 0
    try:
        with open(path, "rb") as handle:
            while chunk := handle.read(_CHUNK):
                total += len(chunk)
                if not regular and total > MAX_STREAM_BYTES:
                    raise InputError(source, f"more than {MAX_STREAM_BYTES:,} bytes from a pipe",
                                     "a log of at most that size (save it to a file)")
                if (nul := chunk.find(b"\0")) >= 0:  # /dev/zero through a pipe stops here, not after a gigabyte
                    line = sum(part.count("\n") for part in parts) + chunk[:nul].count(b"\n") + 1
                    raise InputError(f"{source}:line {line}", "a NUL byte", "text (a UTF-8 text file)")
                parts.append(decoder.decode(chunk))
            parts.append(decoder.decode(b"", final=True))
    except OSError as exc:
        raise InputError(source, name, f"a readable file ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise InputError(source, name, "a UTF-8 text file") from None
    text = "".join(parts)
    while len(_TEXTS) >= 4:
        del _TEXTS[next(iter(_TEXTS))]
    _TEXTS[name] = (key, text)
    return text


def _where(source: str, index: int) -> str:
    """Name of the row with 0-based data index `index`."""
    return f"{source}:line {index + 2}"


def _raw_line(source: str, index: int) -> str:
    """The row with data index `index` (-1: the header) as written, for error messages."""
    try:  # split at line ends only, as a CSV reader counts them
        lines = io.StringIO(read_text(source), newline="").readlines()
    except InputError:
        lines = []
    if 0 <= index + 1 < len(lines):
        return lines[index + 1].rstrip("\r\n")
    return f"row {index + 1}"


def _peek(path: Path, source: str, columns: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """Check the header and return it with the first data row."""
    try:
        reader = csv.reader(io.StringIO(read_text(path, source), newline=""))
        header = next(reader, None)
        first = next(reader, None)
    except csv.Error as exc:
        raise InputError(source, str(path), f"a CSV file ({exc})") from None
    wanted = ",".join(columns)
    if not header or not any(cell.strip() for cell in header):
        raise InputError(source, "an empty file", f"a header line '{wanted}' and at least one row")
    for column in columns:
        if header.count(column) > 1:
            raise InputError(f"{source}: column {column}", ",".join(header), "each column once in the header")
        if column not in header:
            raise InputError(f"{source}: column {column}", ",".join(header), f"a header with the columns {wanted}")
    if first is None:
        raise InputError(source, "a header and no rows", "at least one row after the header")
    return header, first


def _read_csv(path: Path, source: str, dtypes: dict[str, str]) -> pd.DataFrame:
    with warnings.catch_warnings():
        warnings.simplefilter("error", pd.errors.ParserWarning)
        warnings.simplefilter("error", RuntimeWarning)  # e.g. 'inf' cast to a step number: read as text instead
        try:
            return pd.read_csv(
                io.StringIO(read_text(path, source), newline=""),
                dtype=dtypes,
                index_col=False,
                skip_blank_lines=False,
                keep_default_na=False,
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
    "step": "a whole step number (below 2^63)",
    "flag": "a checkpoint flag, 0 or 1",
    "seconds": "a time in seconds (a finite number below 1e12, like the first row's)",
}

#: Largest time in seconds a log may give (about 31,700 years after its zero): beyond it a time is not one.
MAX_SECONDS = 1e12
#: How an ISO-8601 time begins (a year of four digits); a word such as ``now`` or ``today`` is not a time.
_ISO_START = re.compile(r"\s*\d{4}-?\d")


def _bad_rows(kind: str, values: Array) -> npt.NDArray[np.bool_]:
    """Mask of values a column of this kind refuses (values already numeric; NaN = unparsable)."""
    bad: npt.NDArray[np.bool_]
    with np.errstate(invalid="ignore"):
        if kind == "step":  # a whole number that fits a 64-bit integer
            bad = ~np.isfinite(values) | (values != np.round(values)) | (np.abs(values) >= 2.0**63)
        elif kind == "flag":
            bad = ~((values == 0) | (values == 1))
        else:
            bad = ~np.isfinite(values) | (np.abs(values) >= MAX_SECONDS)
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
        header = next(csv.reader([_raw_line(source, -1)]))
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
    except (ValueError, TypeError, OverflowError, RuntimeWarning) as exc:
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
        has_offset = values.str.contains(OFFSET).to_numpy(bool)
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
    words = ~values.astype(str).str.match(_ISO_START).to_numpy(bool)  # pandas reads "now" and "today" as times
    missing = np.flatnonzero(parsed.isna().to_numpy() | words)
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
    path: Path, source: str, columns: tuple[str, ...], time_columns: tuple[str, ...], other: dict[str, str], text: tuple[str, ...]
) -> tuple[pd.DataFrame, dict[str, Array], str, int]:
    """Read a file with these `columns`, whose `time_columns` are seconds or ISO-8601, deciding from the first row.

    Returns the frame, the numeric columns (times in minutes after the origin),
    the clock and the origin (microseconds since 1970 of the first row's time,
    0 for a seconds clock). Keeping times small keeps them exact to well under
    a microsecond.
    """
    header, first = _peek(path, source, columns)
    position = header.index(time_columns[0])
    try:  # a number in the first row: a seconds clock
        float(first[position] if position < len(first) else "")
    except ValueError:
        pass
    else:
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
    """Read and check a step log (format in the module docstring), times in minutes.

    Raises InputError naming the file and line, steps going backwards in time included.
    """
    source = str(path)
    frame, values, clock, origin = _times(
        Path(path), source, STEP_COLUMNS, ("start", "end"), {"step": "step", "checkpoint": "flag"}, ()
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
    """Read and check an event log (format in the module docstring), times in minutes.

    Raises InputError naming the file and line: an unknown event, events out of order, a ``failure`` or
    ``stop`` with no attempt running, a ``start`` inside one, a log ending inside an attempt.
    """
    source = str(path)
    frame, values, clock, origin = _times(Path(path), source, EVENT_COLUMNS, ("time",), {}, ("event",))
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
        hint = ""
        if clock == CLOCKS[1] and time[i - 1] - time[i] <= 60.0:
            hint = ("; a clock without a UTC offset goes back an hour when daylight saving time ends: give times "
                    "with their offset, such as 2024-11-03T01:10:00-05:00")
        raise InputError(
            _where(source, i),
            _raw_line(source, i),
            f"a time no earlier than the event before (line {i + 1}): events out of order{hint}",
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


