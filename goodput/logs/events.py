"""Measure what an event log alone can give: M, R, the failures and the gaps between them, and their shape.

Without a step log there is no C, T or measured goodput. The event log (:mod:`goodput.logs.read`, or
Slurm accounting via :mod:`goodput.logs.sacct`) gives, in minutes, exposure and M as in
:mod:`goodput.logs.measure`, and R from each failure to the next ``start``, its t interval cut at zero (a
few very long restarts can push its lower end below it). That R is a lower bound: the model's R runs on
to the first step of the new attempt (loading, warm-up), which only a step log shows. A failure and a
``start`` at the same instant mean the restart was not recorded: counted, left out. The gaps between
failures are on the exposure clock (the last one censored) and get a Weibull fit
(:func:`goodput.logs.fit.fit_weibull`), or the reason none can be made (:data:`goodput.logs.fit.FIT_PROBLEMS`).
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

import numpy as np

from goodput.errors import InputError
from goodput.logs import json_ready
from goodput.logs.fit import WeibullFit, fit_problem, fit_weibull
from goodput.logs.measure import AttemptMeasurement, Interval, Measurement, attempt_fields
from goodput.logs.read import FAILURE, START, STOP, Array, EventLog, read_events
from goodput.logs.sacct import is_sacct, read_sacct
from goodput.uncertainty import quartiles

#: The formats an event log can come in.
FORMATS = ("events", "sacct")

#: What an event log alone cannot measure: the keys of :class:`~goodput.logs.measure.Measurement` left ``null``.
NOT_MEASURED = ("checkpoint_cost_min", "interval_min", "measured_goodput", "predicted_goodput")


@dataclass(frozen=True)
class EventMeasurement(AttemptMeasurement):
    """What an event log alone measures, minutes (definitions in the module docstring).

    The fields of :class:`~goodput.logs.measure.AttemptMeasurement`, and: ``running_min`` inside attempts,
    ``recovery_min`` from failures to the next ``start``, ``restarts_unrecorded`` failures followed by a
    ``start`` at the same instant, ``open_gap_min`` the censored exposure after the last failure (all of it
    without one). ``end_states`` and ``failure_states`` only for Slurm accounting.
    """

    log_format: str
    running_min: float
    recovery_min: float
    restarts_unrecorded: int
    restarts_min: tuple[float, ...]
    failure_gaps_min: tuple[float, ...]
    open_gap_min: float
    fit: WeibullFit | None
    fit_problem: str | None
    end_states: tuple[tuple[str, int], ...] = ()
    failure_states: tuple[str, ...] = ()

    @property
    def gaps(self) -> Array:
        """The complete gaps as an array."""
        return np.asarray(self.failure_gaps_min, dtype=np.float64)

    @property
    def gap_median_min(self) -> float:
        """Median complete gap (``nan`` without one)."""
        return float(np.median(self.gaps)) if self.gaps.size else math.nan

    @property
    def gap_iqr_min(self) -> Interval:
        """Quartiles of the complete gaps."""
        return quartiles(self.gaps)

    @property
    def gap_range_min(self) -> Interval:
        """Shortest and longest complete gap."""
        g = self.gaps
        return (float(g.min()), float(g.max())) if g.size else (math.nan, math.nan)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready values, keyed as ``goodput measure`` keys a full measurement.

        Keys only a step log measures are ``null`` (``not_measured`` names the main ones); ``weibull`` is the fit
        or ``null``; infinite or undefined numbers are ``null``.
        """
        full = {f.name: None for f in fields(Measurement) if f.name != "prediction_check"}
        full |= {"prediction_first_order_error": None, "gap": None}
        mine = {f.name: json_ready(getattr(self, f.name)) for f in fields(self) if f.name not in ("fit", "end_states")}
        mine["end_states"] = dict(self.end_states)
        extra = {
            "failure_gap_median_min": json_ready(self.gap_median_min),
            "failure_gap_iqr_min": json_ready(self.gap_iqr_min),
            "failure_gap_range_min": json_ready(self.gap_range_min),
            "weibull": self.fit.to_dict() if self.fit else None,
            "not_measured": list(NOT_MEASURED),
        }
        return full | mine | extra


def as_planned(events: EventLog, times: Sequence[float]) -> EventLog:
    """The same log with the failures at these times (minutes on the log's clock) counted as planned stops.

    A sensitivity check. Raises InputError for a time that is not a failure's.
    """
    code = events.event.copy()
    for when in times:
        hit = np.flatnonzero((code == FAILURE) & np.isclose(events.time, when, rtol=0.0, atol=1e-6))
        if hit.size == 0:
            raise InputError(events.source, f"{when:g} min", "the time of a failure in the log")
        code[hit[0]] = STOP
    return replace(events, event=code)


def exposure_clock(events: EventLog) -> Array:
    """Each event's time on the exposure clock: minutes since the first event, less the planned downtime before it.

    A ``start`` after a planned stop has the stop's exposure time.
    """
    t = events.time - events.time[0]
    after_stop = np.zeros(t.size, dtype=bool)
    after_stop[1:] = (events.event[1:] == START) & (events.event[:-1] == STOP)
    down = np.where(after_stop, np.diff(t, prepend=0.0), 0.0)
    return np.asarray(t - np.cumsum(down), dtype=np.float64)


def failure_gaps(events: EventLog) -> tuple[Array, float]:
    """The complete gaps between failures on the exposure clock (the first from the log's start), and the open one."""
    clock = exposure_clock(events)
    at = clock[events.event == FAILURE]
    gaps = np.diff(at, prepend=0.0)
    last = float(at[-1]) if at.size else 0.0
    return gaps, float(clock[-1]) - last


def measure_events(
    events: EventLog | str | os.PathLike[str], *, confidence: float = 0.95, log_format: str | None = None
) -> EventMeasurement:
    """Measure M, R, the gaps between failures and their Weibull shape from an event log alone.

    ``events`` is a log or a file: by default sacct output when its first line has a ``|`` and a JobID field
    (:func:`goodput.logs.sacct.is_sacct`), else the CSV event log. Raises InputError naming the line of a bad
    file, or for a log that spans no time.
    """
    states: tuple[tuple[str, int], ...] = ()
    failing: tuple[str, ...] = ()
    if isinstance(events, EventLog):
        log, kind = events, log_format or "events"
    elif (log_format or ("sacct" if is_sacct(events) else "events")) == "sacct":
        accounting = read_sacct(Path(events))
        log, kind = accounting.events, "sacct"
        states, failing = tuple(accounting.state_counts().items()), accounting.failure_states
    else:
        log, kind = read_events(Path(events)), "events"
    a_start, a_end = log.time[0::2], log.time[1::2]
    # a restart runs to the next start; one of no time was not recorded
    counted = np.append(False, a_start[1:] - a_end[:-1] > 0.0)
    attempt, restart_each = attempt_fields(log, confidence, a_start, counted, floor=True)
    recorded = restart_each[restart_each > 0.0]
    gaps, open_gap = failure_gaps(log)
    problem = fit_problem(gaps, [open_gap])
    fit = fit_weibull(gaps, [open_gap], confidence) if problem is None else None
    return EventMeasurement(
        **attempt,
        log_format=kind,
        running_min=float((a_end - a_start).sum()),
        recovery_min=float(restart_each.sum()),
        restarts_unrecorded=int(restart_each.size - recorded.size),
        restarts_min=tuple(float(r) for r in recorded),
        failure_gaps_min=tuple(float(g) for g in gaps),
        open_gap_min=open_gap,
        fit=fit,
        fit_problem=problem,
        end_states=states,
        failure_states=failing,
    )
