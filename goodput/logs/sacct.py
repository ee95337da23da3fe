"""Read Slurm's accounting output (``sacct --parsable2``) into the event log the package measures.

For one training job, or a chain of jobs that continue one another::

    export SLURM_TIME_FORMAT='%FT%T%z'
    sacct --duplicates --parsable2 --format=JobID,JobName,Start,End,Elapsed,State,ExitCode -j 1234,1301 > job.sacct

``--duplicates`` keeps every run of a requeued job; the time format adds the UTC offset, without which
an attempt across a daylight-saving change is off by an hour. ``--parsable`` (trailing ``|``) is read too.

A header names the fields (``JobID``, ``Start``, ``End``, ``State`` required; ``Elapsed`` or
``ElapsedRaw`` for a running job). Job steps (``1234.batch``) and heterogeneous components other than
the leader (``1234+1``) are skipped: the job's own record (``1234``, ``1234_7``, ``1234+0``) says how the
attempt ended; so are records without a Start (never ran). Every other record is an attempt from Start
to End ending as :data:`STATE_EVENTS` says; a RUNNING one (last only) ends at Start + Elapsed as a
planned ``stop``. Times are ISO-8601 (local, sacct's default), ISO-8601 with offsets, or Unix seconds
(``%s``), one kind per file; attempts must not overlap.

An interruption is a stop nobody chose, losing the work since the last checkpoint; a planned stop's
moment was chosen or known, so the job can checkpoint first, and planned downtime is not exposure.
Failures: NODE_FAIL (even when Slurm requeues), FAILED (crashed rank, NCCL timeout, GPU fault),
BOOT_FAIL, OUT_OF_MEMORY, PREEMPTED (the job did not choose the moment and, without a grace period it
uses to checkpoint, loses work like a crash; its rate is the scheduler's policy, not the GPU count).
Planned stops: COMPLETED, CANCELLED, TIMEOUT, DEADLINE, REQUEUED (a person, a script, the time limit,
or the job's own requeue after a checkpoint). A watchdog that cancels or requeues hung jobs records
CANCELLED or REQUEUED for what was a failure: pass those in ``failure_states``. Other states are
refused; a bad row names the file and line (the header is line 1).
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np

from goodput.errors import InputError
from goodput.logs.read import CLOCKS, FAILURE, START, STOP, EventLog, read_text

#: Fields the reader needs.
REQUIRED = ("JobID", "Start", "End", "State")

#: What each state an attempt can end in becomes: ``"failure"``, ``"stop"``, or ``"running"`` (cut when sacct ran).
STATE_EVENTS = (dict.fromkeys(("NODE_FAIL", "FAILED", "BOOT_FAIL", "OUT_OF_MEMORY", "PREEMPTED"), "failure")
                | dict.fromkeys(("COMPLETED", "CANCELLED", "TIMEOUT", "DEADLINE", "REQUEUED"), "stop")
                | {"RUNNING": "running"})

#: The states counted as failures by default.
FAILURE_STATES = tuple(state for state, event in STATE_EVENTS.items() if event == "failure")

#: Written for a time sacct does not have.
MISSING_TIMES = ("", "unknown", "none")

#: A job's own record (not a step): 1234, an array task 1234_7 or 1234_[1-3], a heterogeneous component 1234+0.
_JOB = re.compile(r"^(\d+)(?:_(?:\d+|\[[^\]]*\]))?(?:\+(\d+))?$", re.ASCII)
#: A job step: the job's id, a dot and the step's name or number.
_STEP = re.compile(r"^\d+(?:_(?:\d+|\[[^\]]*\]))?(?:\+\d+)?\.[A-Za-z0-9_-]+$", re.ASCII)
#: [DD-][HH:]MM:SS[.frac], sacct's Elapsed.
_ELAPSED = re.compile(r"^(?:(\d+)-)?(?:(\d+):)?(\d+):(\d+(?:\.\d*)?)$", re.ASCII)
#: Unix time 0.
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
#: A UTC offset (or Z) at the end of a time.
_OFFSET = re.compile(r"[T ]\d\d(?::?\d\d){0,2}(?:[.,]\d*)?\s*(?:Z|[+-]\d\d(?::?\d\d)?)$", re.IGNORECASE)


@dataclass(frozen=True)
class Attempt:
    """One run of the job, from a job record.

    ``state`` without a ``by UID`` or trailing ``+``; ``start``/``end`` minutes on the log's clock; ``event``
    :data:`~goodput.logs.read.FAILURE` or :data:`~goodput.logs.read.STOP`; ``line`` counts the header as 1.
    """

    job_id: str
    state: str
    start: float
    end: float
    event: int
    line: int


@dataclass(frozen=True)
class SacctLog:
    """Slurm accounting records read as the job's attempts (time order) and its event log.

    ``steps_skipped`` counts job steps and non-leader heterogeneous components; ``never_started`` records
    without a Start; ``running`` whether the last attempt was cut at Start + Elapsed.
    """

    source: str
    events: EventLog
    attempts: tuple[Attempt, ...]
    steps_skipped: int
    never_started: int
    running: bool
    failure_states: tuple[str, ...]

    def state_counts(self) -> dict[str, int]:
        """How many attempts ended in each state, in the order of :data:`STATE_EVENTS`."""
        states = [attempt.state for attempt in self.attempts]
        return {state: states.count(state) for state in STATE_EVENTS if state in states}


def is_sacct(path: str | os.PathLike[str]) -> bool:
    """Whether a file's first line has a ``|`` and a JobID field (False if unreadable)."""
    try:
        first = read_text(path)[:4096].split("\n", 1)[0]
    except InputError:
        return False
    return "|" in first and "jobid" in [f.strip().lower() for f in first.split("|")]


def _state(text: str) -> str:
    words = text.strip().split()
    return words[0].rstrip("+").upper() if words else ""


def _elapsed_minutes(text: str) -> float | None:
    """Minutes from sacct's Elapsed ([DD-][HH:]MM:SS) or ElapsedRaw (seconds); None if it is neither."""
    text = text.strip()
    if text.isascii() and text.isdigit():
        return int(text) / 60.0
    match = _ELAPSED.match(text)
    if match is None:
        return None
    days, hours, minutes, seconds = match.groups()
    return ((int(days or 0) * 24 + int(hours or 0)) * 60 + int(minutes)) + float(seconds) / 60.0


class _Clock:
    """Parses the times of one file, all of one kind (decided by the first): ISO-8601 with or without offsets, or seconds."""

    def __init__(self) -> None:
        self.kind: str | None = None

    def micro(self, text: str, where: str, column: str) -> int:
        """Whole microseconds since 1970 (UTC with offsets; on the wall clock without), or Unix seconds x 1e6."""
        text = text.strip()
        kind = CLOCKS[0] if (text.isascii() and text.isdigit()) else CLOCKS[2] if _OFFSET.search(text) else CLOCKS[1]
        if self.kind is None:
            self.kind = kind
        like = {CLOCKS[0]: "Unix seconds", CLOCKS[1]: "an ISO-8601 time without a UTC offset",
                CLOCKS[2]: "an ISO-8601 time with a UTC offset"}
        if kind != self.kind:
            raise InputError(where, text, f"{like[self.kind]} in {column}, like the first record's (one kind of time "
                                          "in a file)")
        if kind == CLOCKS[0]:
            if len(text.lstrip("0")) > 12:  # beyond the year 33,000: not a time (and no float would hold it)
                raise InputError(where, text, f"Unix seconds in {column} below 1e12")
            return int(text) * 1_000_000
        try:
            when = datetime.fromisoformat(text)
        except ValueError:
            raise InputError(where, text, f"a time such as 2024-03-01T10:00:00 in {column} (sacct's default; "
                                          "set SLURM_TIME_FORMAT=standard or '%FT%T%z')") from None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        return (when - _EPOCH) // timedelta(microseconds=1)


def read_sacct(path: str | os.PathLike[str], failure_states: Collection[str] = FAILURE_STATES) -> SacctLog:
    """Read ``sacct --parsable2`` output into the job's attempts and an event log (rules in the module docstring).

    States not in ``failure_states`` (nor RUNNING) are planned stops. Raises InputError naming the file and
    line for any departure from the module docstring's format.
    """
    file = Path(path)
    source = str(path)
    failing = {_state(s) for s in failure_states}
    if failing - set(STATE_EVENTS) or "RUNNING" in failing:
        raise InputError("failure_states", ", ".join(sorted(failing)),
                         f"states from {', '.join(s for s in STATE_EVENTS if s != 'RUNNING')}")
    # split at line ends only: a form feed or U+2028 inside a job name does not end a line
    lines = [line.rstrip("\r") for line in read_text(file, source).split("\n")]
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    wanted = "|".join(REQUIRED)
    if first is None:
        raise InputError(source, "an empty file", f"a header line such as {wanted} and at least one record")
    header_line = lines[first]
    trailing = header_line.rstrip().endswith("|")  # --parsable: every line ends with a '|'
    header = [h.strip() for h in (header_line.rstrip()[:-1] if trailing else header_line).split("|")]
    column = {name.lower(): i for i, name in enumerate(header)}
    for name in REQUIRED:
        if name.lower() not in column:
            raise InputError(f"{source}:line {first + 1}", header_line,
                             f"a header line naming the fields {wanted} (sacct --parsable2 --format=...)")
    elapsed_at = column.get("elapsedraw", column.get("elapsed"))
    clock = _Clock()
    rows: list[tuple[int, int | None, str, str, int, float | None]] = []
    steps = never = 0
    for index in range(first + 1, len(lines)):
        text = lines[index]
        where = f"{source}:line {index + 1}"
        if not text.strip() or text.strip() == header_line.strip():  # a blank line, or the header again (files put together)
            continue
        if trailing:
            if not text.endswith("|"):
                raise InputError(where, text, "a line ending in '|', like the header (sacct --parsable)")
            text = text[:-1]
        cells = text.split("|")
        if len(cells) != len(header):
            raise InputError(where, text, f"{len(header)} fields separated by '|', as the header has "
                                          f"(a '|' inside a job name would split it)")
        job = cells[column["jobid"]].strip()
        if _STEP.match(job):
            steps += 1
            continue
        match = _JOB.match(job)
        if match is None:
            raise InputError(where, job, "a JobID such as 1234, 1234_7, 1234+0 or a step such as 1234.batch")
        if match[2] is not None and match[2] != "0":  # a heterogeneous job's other components
            steps += 1
            continue
        state = _state(cells[column["state"]])
        if state not in STATE_EVENTS and state != "PENDING":
            raise InputError(where, cells[column["state"]].strip(),
                             f"a job state this reader maps: {', '.join(STATE_EVENTS)} (or PENDING, skipped)")
        start_text = cells[column["start"]].strip()
        if start_text.lower() in MISSING_TIMES:
            never += 1
            continue
        if state == "PENDING":
            raise InputError(where, start_text, "no Start for a PENDING job (it has not started)")
        start = clock.micro(start_text, where, "Start")
        end_text = cells[column["end"]].strip()
        elapsed = None
        if end_text.lower() in MISSING_TIMES:
            if state != "RUNNING":
                raise InputError(where, end_text or "an empty End",
                                 f"an End time for a job that ended {state} (only a RUNNING job has none)")
            raw = cells[elapsed_at] if elapsed_at is not None else ""
            elapsed = _elapsed_minutes(raw)
            if elapsed is None:
                raise InputError(where, raw or "no Elapsed field",
                                 "the Elapsed time of a RUNNING job ([DD-][HH:]MM:SS, or ElapsedRaw seconds): "
                                 "add Elapsed to --format, so the attempt can end when sacct ran")
            end: int | None = None
        else:
            end = clock.micro(end_text, where, "End")
            if end < start:
                raise InputError(where, text, "an End no earlier than the Start (with local times, no UTC offset, a "
                                              "daylight-saving change can do this: SLURM_TIME_FORMAT='%FT%T%z')")
        rows.append((start, end, job, state, index + 1, elapsed))
    if not rows:
        raise InputError(source, f"{steps} step records and {never} records that never started",
                         "at least one job record with a Start time")
    rows.sort(key=lambda row: (row[0], row[4]))
    kind = clock.kind or CLOCKS[1]
    origin = 0 if kind == CLOCKS[0] else rows[0][0]  # a seconds clock keeps its own zero, as in read_events
    attempts: list[Attempt] = []
    for position, (start_us, end_us, job_id, final, at, took) in enumerate(rows):
        begin = (start_us - origin) / 6.0e7
        if final == "RUNNING" and position != len(rows) - 1:
            raise InputError(f"{source}:line {at}", f"{job_id} RUNNING",
                             f"the last attempt to be the running one (line {rows[-1][4]} starts later)")
        finish = begin + (took or 0.0) if end_us is None else (end_us - origin) / 6.0e7
        if attempts and begin < attempts[-1].end:
            before = attempts[-1]
            raise InputError(f"{source}:line {at}", f"{job_id} starting before {before.job_id} (line {before.line}) ended",
                             "attempts one after another: records of one training job, which never overlap")
        event = FAILURE if final in failing else STOP
        attempts.append(Attempt(job_id=job_id, state=final, start=begin, end=finish, event=event, line=at))
    time = np.array([(a.start, a.end) for a in attempts], dtype=np.float64).ravel()
    code = np.array([(START, a.event) for a in attempts], dtype=np.int8).ravel()
    events = EventLog(source=source, time=time, event=code, clock=kind, origin_us=int(origin))
    return SacctLog(source=source, events=events, attempts=tuple(attempts), steps_skipped=steps, never_started=never,
                    running=rows[-1][3] == "RUNNING", failure_states=tuple(s for s in STATE_EVENTS if s in failing))
