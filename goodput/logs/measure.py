"""Measure C, M and R from a job's own logs, and compare measured goodput with the model.

Logs are read by :mod:`goodput.logs.read` (formats there). In minutes:

- W, wall time: first event to last.
- C: median stall at checkpoint steps (next ``start`` minus ``end``, within an attempt) minus the median
  ordinary gap, with the median's order-statistic interval and the interquartile range.
- M: exposure over failures, exact Poisson (Garwood) interval. Exposure is W less planned downtime (each
  ``stop`` to the next ``start``). Restarts count because the model's M is the whole failure cycle: with
  it ``R/M`` and ``T/(2M)`` are exactly (failures x per-failure loss) / time, as M means 54 days / 419
  for the Llama 3 figure. Planned downtime does not: a stopped job cannot be interrupted.
- R: failure to the first step of the next attempt (restarts cut short by another failure are left out
  of the samples, their time counted as restart loss); the mean (R/M is linear in R) with Student's t
  interval, median and quartiles.
- T: median work from the step after one checkpoint to the end of the next checkpoint step, same attempt.
- Goodput: a step survives unless a later row repeats its number or an earlier one; surviving step time over W.
- Lost work per failure: from the start of the failed attempt's first non-surviving step (or its last
  step's end) to the failure.

The prediction is the recommended model (:data:`goodput.plan.RECOMMENDED_MODEL`) or first order at the
measured C, M, mean R and T; the gap is split into the three losses, measured (fractions of W) against
predicted, plus the unmodelled remainder (ordinary gaps, planned stops and their restarts and redone
work, the first startup and the tail).
"""
from __future__ import annotations

import dataclasses
import math
import os
from dataclasses import dataclass, fields
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from goodput import model, validate
from goodput.errors import InputError
from goodput.exact import model_functions
from goodput.logs import json_ready
from goodput.logs.read import FAILURE, STOP, Array, EventLog, StepLog, _raw_line, _where, read_events, read_steps
from goodput.model import RangeCheck
from goodput.plan import RECOMMENDED_MODEL, make_plan
from goodput.uncertainty import mean_interval, median_interval, poisson_interval, quartiles

# ---------------------------------------------------------------- measuring


Interval = tuple[float, float]


@dataclass(frozen=True)
class AttemptMeasurement:
    """What the event log gives to every measurement: the attempts, M and R (minutes).

    Shared by :class:`Measurement` and :class:`goodput.logs.events.EventMeasurement`, which each say where a
    restart ends. ``mtbi_min`` is ``inf`` without a failure (its Garwood interval's upper end too);
    ``restart_min`` ``nan`` without a restart, its t interval ``nan`` below two; ``planned_stops`` excludes
    a final ``stop``.
    """

    events_source: str
    confidence: float
    wall_min: float
    exposure_min: float
    planned_downtime_min: float
    attempts: int
    failures: int
    planned_stops: int
    mtbi_min: float
    mtbi_interval_min: Interval
    restart_min: float
    restart_interval_min: Interval
    restart_median_min: float
    restart_iqr_min: Interval
    restart_samples: int


@dataclass(frozen=True)
class Measurement(AttemptMeasurement):
    """C, M, R and goodput measured from logs, with the model's prediction (minutes; losses fractions of W).

    A restart runs from the failure to the first step of the next attempt. C and its interval and quartiles
    are net of ``ordinary_gap_min`` (0 without ordinary steps). ``interval_min`` is the T predicted with
    (``interval_source``: ``"measured"`` or ``"given"``); ``optimal_interval_min`` is T* by the prediction's
    model. ``predicted_goodput`` and the ``*_predicted`` losses are by ``prediction_model``;
    ``unmodelled_loss`` is 1 - measured goodput - the three measured losses. ``prediction_check`` is None
    without a failure or a restart.
    """

    steps_source: str
    steps: int
    redone_steps: int
    checkpoint_cost_min: float
    checkpoint_cost_interval_min: Interval
    checkpoint_cost_iqr_min: Interval
    checkpoint_samples: int
    ordinary_gap_min: float
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
    prediction_model: str
    prediction_check: RangeCheck | None

    @property
    def gap(self) -> float:
        """Predicted minus measured goodput: the sum of the three loss differences and the unmodelled loss."""
        return self.predicted_goodput - self.measured_goodput

    @property
    def widest(self) -> str:
        """Which of ``"C"``, ``"M"``, ``"R"`` has the widest interval relative to its estimate (none: infinite)."""
        def relative(interval: tuple[float, float], value: float, enough: bool) -> float:
            return (interval[1] - interval[0]) / value if enough else math.inf

        relatives = {"C": relative(self.checkpoint_cost_interval_min, self.checkpoint_cost_min, True),
                     "M": relative(self.mtbi_interval_min, self.mtbi_min, self.failures > 0),
                     "R": relative(self.restart_interval_min, self.restart_min, self.restart_samples >= 2)}
        return max(relatives, key=lambda k: relatives[k])

    def to_dict(self) -> dict[str, Any]:
        """All fields and :attr:`gap` as JSON values; infinite or undefined ones (no failure, no restart) ``None``."""
        out = {f.name: json_ready(getattr(self, f.name)) for f in fields(self) if f.name != "prediction_check"}
        out["prediction_first_order_error"] = json_ready(self.prediction_check.error) if self.prediction_check else None
        out["gap"] = json_ready(self.gap)
        return out


def _median(values: Array) -> float:
    return float(np.median(values)) if values.size else math.nan


def attempt_fields(
    events: EventLog, confidence: float, resume: Array, counted: npt.NDArray[np.bool_], *, floor: bool = False
) -> tuple[dict[str, Any], Array]:
    """The fields of :class:`AttemptMeasurement`, and each restart: from a failure to the next attempt's ``resume``.

    ``resume`` and ``counted`` (which restarts are R's samples) are per attempt; ``floor`` cuts R's interval at
    zero. Raises InputError for a log that spans no time, or no time outside planned downtime.
    """
    a_start, a_end, a_kind = events.time[0::2], events.time[1::2], events.event[1::2]
    wall = float(events.time[-1] - events.time[0])
    if not wall > 0.0:
        raise InputError(events.source, "events that span no time", "a log whose last event is later than its first")
    ends_stop = a_kind == STOP
    planned = float((a_start[1:] - a_end[:-1])[ends_stop[:-1]].sum())
    exposure = wall - planned
    if not exposure > 0.0:
        raise InputError(events.source, "attempts that span no time", "a log in which the job runs for some time")
    failed = np.flatnonzero(a_kind == FAILURE)
    n_fail = int(failed.size)
    nxt = failed[failed + 1 < a_start.size] + 1
    each = resume[nxt] - a_end[nxt - 1]
    restarts = each[counted[nxt]]
    r_ci = mean_interval(restarts, confidence) if restarts.size >= 2 else (math.nan, math.nan)
    out = {
        "events_source": events.source,
        "confidence": float(confidence),
        "wall_min": wall,
        "exposure_min": exposure,
        "planned_downtime_min": planned,
        "attempts": int(a_start.size),
        "failures": n_fail,
        "planned_stops": int(ends_stop[:-1].sum()),
        "mtbi_min": exposure / n_fail if n_fail else math.inf,
        "mtbi_interval_min": poisson_interval(n_fail, exposure, confidence),
        "restart_min": float(restarts.mean()) if restarts.size else math.nan,
        "restart_interval_min": (max(r_ci[0], 0.0), r_ci[1]) if floor and restarts.size >= 2 else r_ci,
        "restart_median_min": _median(restarts),
        "restart_iqr_min": quartiles(restarts),
        "restart_samples": int(restarts.size),
    }
    return out, each


def measure(
    steps: StepLog | str | os.PathLike[str],
    events: EventLog | str | os.PathLike[str],
    interval: float | None = None,
    *,
    confidence: float = 0.95,
    which: str = RECOMMENDED_MODEL,
) -> Measurement:
    """Measure C, M, R, lost work and goodput from a step log and an event log (or their files).

    T is measured when ``interval`` (minutes) is None. Raises InputError for a bad file, different clocks,
    a step outside every attempt or not increasing within one, no measurable checkpoint stall, or no T.
    """
    if not isinstance(steps, StepLog):
        steps = read_steps(steps)
    if not isinstance(events, EventLog):
        events = read_events(events)
    given = interval is not None
    if interval is not None:
        interval = validate.positive(interval, "interval", validate.POSITIVE_MINUTES)
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
    if not wall > 0.0:
        raise InputError(events.source, "events that span no time", "a log whose last event is later than its first")

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
    if not c_hat > 0.0:
        raise InputError(
            f"{steps.source}: column checkpoint",
            f"checkpoint stalls of {60 * _median(stalls):.3g} s against ordinary gaps of {60 * g0:.3g} s (medians)",
            "checkpoint steps that pause longer than ordinary steps: no checkpoint cost can be measured here",
        )
    c_ci = median_interval(stalls, confidence)
    c_iqr = quartiles(stalls)
    # a stall no longer than an ordinary gap cost no checkpoint time (never a negative one)
    ckpt_loss = float(np.maximum(stalls[survived[:-1][is_ck]] - g0, 0.0).sum()) / wall

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

    # attempts: a restart ends at the first step of the next attempt (at its end, if it has none); lost work
    resume = np.where(has_steps, start[np.minimum(first, max(len(steps) - 1, 0))], a_end)
    attempt, restart_each = attempt_fields(events, confidence, resume, has_steps, floor=True)
    failed = np.flatnonzero(a_kind == FAILURE)
    n_fail = int(failed.size)
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

    measured_goodput = useful / wall

    return Measurement(
        **attempt,
        steps_source=steps.source,
        steps=len(steps),
        redone_steps=int(redone.size),
        checkpoint_cost_min=c_hat,
        checkpoint_cost_interval_min=(_at_least_zero(c_ci[0] - g0), _at_least_zero(c_ci[1] - g0)),
        checkpoint_cost_iqr_min=(_at_least_zero(c_iqr[0] - g0), _at_least_zero(c_iqr[1] - g0)),
        checkpoint_samples=int(stalls.size),
        ordinary_gap_min=g0,
        lost_work_per_failure_min=float(lost.mean()) if n_fail else math.nan,
        lost_work_iqr_min=quartiles(lost),
        redone_step_min=redone_min,
        interval_min=float(interval),
        interval_measured_min=t_measured,
        interval_iqr_min=quartiles(work),
        interval_source="given" if given else "measured",
        measured_goodput=measured_goodput,
        checkpoint_loss_measured=ckpt_loss,
        lost_work_loss_measured=lost_loss,
        restart_loss_measured=restart_loss,
        unmodelled_loss=_at_least_zero(1.0 - measured_goodput - ckpt_loss - lost_loss - restart_loss),
        **_prediction(c_hat, attempt["mtbi_min"], attempt["restart_min"], float(interval), which),
    )


def measure_explained(steps: StepLog | str | os.PathLike[str], events: EventLog | str | os.PathLike[str]) -> Measurement:
    """:func:`measure`, predicted by first order where it holds at the measured inputs, else by the exact model.

    First order's losses (C/T, T/2M, R/M) explain a gap term by term, so the book compares with them; where first
    order is out of its range at the measured C, M, R and T it predicts nothing, and the recommended model
    (:data:`goodput.plan.RECOMMENDED_MODEL`) stands in. Its ``prediction_check`` still says how far first order is off.
    """
    steps = steps if isinstance(steps, StepLog) else read_steps(steps)
    events = events if isinstance(events, EventLog) else read_events(events)
    first = measure(steps, events, which="first-order")
    check = first.prediction_check
    if check is None or check.quotable:
        return first
    return dataclasses.replace(first, **_prediction(first.checkpoint_cost_min, first.mtbi_min, first.restart_min,
                                                    first.interval_min, RECOMMENDED_MODEL))


def _at_least_zero(minutes: float) -> float:
    """A share or duration that cannot be negative (a remainder, a cost less the ordinary gap), floored; NaN stays."""
    return minutes if math.isnan(minutes) else max(0.0, minutes)


def _prediction(cost: float, mtbi: float, restart: float, interval: float, which: str) -> dict[str, Any]:
    """The prediction fields of :class:`Measurement` by model `which` at the measured C, M, R and T."""
    optimal, (ckpt, lost, restart_loss), check = _predict(cost, mtbi, restart, interval, which)
    return {"optimal_interval_min": optimal, "predicted_goodput": _at_least_zero(1.0 - ckpt - lost - restart_loss),
            "checkpoint_loss_predicted": ckpt, "lost_work_loss_predicted": lost, "restart_loss_predicted": restart_loss,
            "prediction_model": which, "prediction_check": check}


def _predict(
    cost: float, mtbi: float, restart: float, interval: float, which: str
) -> tuple[float, tuple[float, float, float], RangeCheck | None]:
    """T*, the model's checkpoint, lost-work and restart losses at the measured inputs, and its range check.

    NaN for what the logs cannot give (R without a restart).
    """
    unknown = (math.nan, math.nan, math.nan)
    if math.isinf(mtbi):  # no failure: only checkpoints cost anything (the limit of either model as M grows)
        share = cost / interval if which == "first-order" else cost / (interval + cost)
        if share >= 1.0:  # first order's C/T of one or more: a goodput of zero or less, which it does not predict
            return math.inf, unknown, RangeCheck(goodput=1.0 - share, error=0.0)
        return math.inf, (share, 0.0, 0.0), None
    if not math.isfinite(restart):
        return float(model_functions(which)[1](cost, mtbi)), unknown, None
    plan = make_plan(cost, mtbi, restart, interval, which=which)
    b = plan.losses  # refused (first order outside its range): no number, only the reason, as the plan command
    losses = unknown if plan.refused else (b.checkpoint_overhead, b.lost_work, b.restart_loss)
    return plan.optimal_interval, losses, plan.check


#: Rows of :func:`loss_comparison`, in order.
LOSS_ROWS = ("checkpoint overhead", "lost work", "restart", "unmodelled", "goodput")


class LossRow(NamedTuple):
    """One loss (or goodput) as a share of wall time: measured, predicted by first order, and what it adds to the gap."""

    measured: float
    predicted: float
    adds: float


def loss_comparison(measurement: Measurement) -> dict[str, LossRow]:
    """Measured against predicted losses (fractions of wall time), and what each adds to the gap, by :data:`LOSS_ROWS`.

    Predicted goodput is 1 - (the three predicted losses) and measured 1 - (the three measured + the
    unmodelled), so the gap, predicted minus measured goodput (the ``goodput`` row), is exactly the sum of
    measured - predicted over the four rows above it.
    """
    m = measurement
    measured = [m.checkpoint_loss_measured, m.lost_work_loss_measured, m.restart_loss_measured, m.unmodelled_loss]
    predicted = [m.checkpoint_loss_predicted, m.lost_work_loss_predicted, m.restart_loss_predicted, 0.0]
    rows = [LossRow(a, b, a - b) for a, b in zip(measured, predicted, strict=True)]
    rows.append(LossRow(m.measured_goodput, m.predicted_goodput, m.gap))
    return dict(zip(LOSS_ROWS, rows, strict=True))


def surviving_checkpoint_loss(checkpoint_cost: float, interval: float, goodput: float) -> float:
    """The checkpoint loss a log shows: (C/T) x goodput, a fraction of wall time, not C/T.

    A log counts only checkpoints protecting surviving work, ``goodput * W / T`` of them. The difference,
    ``(C/T) * (1 - goodput)``, is a product of two small losses: second order, dropped by first order, not
    a loss the model misses.

    >>> round(surviving_checkpoint_loss(1.0, 20.0, 0.8), 12)
    0.04
    """
    return float(model.checkpoint_overhead(interval, checkpoint_cost)) * float(goodput)
