"""Tables of the chapter on measuring from logs (book/logs.md), written for the page from what it read.

Each function takes what :func:`goodput.book.data.logs_sources` read and returns a :class:`pandas.DataFrame` of text for
:func:`goodput.book.tables.book_table`.
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from goodput.logs.events import EventMeasurement
from goodput.logs.measure import Measurement, loss_comparison
from goodput.logs.read import EVENT_COLUMNS, STEP_COLUMNS
from goodput.logs.sacct import FAILURE_STATES, STATE_EVENTS, SacctLog
from goodput.logs.samples import SampleTruth, recovery
from goodput.logs.sources import Sources
from goodput.params import rate_from_mtbi
from goodput.report import MODEL_NAMES, count, percent, signed_points
from goodput.report import interval_text as span
from goodput.units import format_duration, format_rate

#: Why each Slurm state counts as it does, for the table of states.
STATE_REASONS = {
    "NODE_FAIL": "a node of the job died; Slurm records this even when it requeues the job",
    "FAILED": "the program exited with an error: a crashed rank, a collective that timed out, a GPU fault",
    "BOOT_FAIL": "the nodes failed to boot for the job",
    "OUT_OF_MEMORY": "the job ran out of memory",
    "PREEMPTED": "the scheduler took the nodes for another job; the job did not choose the moment and loses its "
                 "work since the last checkpoint unless it is given time to save one",
    "COMPLETED": "the job ended by itself",
    "CANCELLED": "a person or a script chose the moment (scancel), so the job could checkpoint first",
    "TIMEOUT": "the job reached the time limit it was submitted with, known from the start",
    "DEADLINE": "the job reached the deadline it was submitted with",
    "REQUEUED": "someone requeued it (scontrol requeue), often the job itself after saving a checkpoint",
    "RUNNING": "still running when sacct ran: the attempt ends there, at Start + Elapsed",
}


def step_rows(path: Path) -> pd.DataFrame:
    """A few rows of the step log as written: the first, a checkpoint and its stall, the first after a restart."""
    # The rows shown sit near the top of a long log: read the head, longer until it holds them or the whole file.
    nrows = 1024
    while True:
        raw = pd.read_csv(path, dtype=str, keep_default_na=False, usecols=list(STEP_COLUMNS), nrows=nrows)
        ckpt = (raw["checkpoint"].str.strip() == "1").to_numpy()
        back = raw["step"].astype(int).diff().le(0).to_numpy()
        if len(raw) < nrows or (ckpt.any() and back.any() and max(ckpt.argmax(), back.argmax()) < len(raw) - 1):
            break
        nrows *= 4
    first_ckpt = int(ckpt.argmax())
    picks = [(0, "the first step"), (first_ckpt - 1, ""), (first_ckpt, "checkpoint after this step"),
             (first_ckpt + 1, "starts after the stall")]
    if back.any():
        first_back = int(back.argmax())
        picks += [(first_back - 1, "the last step before a failure"),
                  (first_back, "after the restart: back to a checkpoint")]
    rows = [(i, note) for i, note in dict(picks).items() if 0 <= i < len(raw)]
    out = raw.iloc[[i for i, _ in rows]].copy()
    out.insert(0, "line", [i + 2 for i, _ in rows])
    out["note"] = [note for _, note in rows]
    return out.reset_index(drop=True)


def event_rows(path: Path) -> pd.DataFrame:
    """The first rows of the event log, and the first planned stop with the start after it."""
    raw = pd.read_csv(path, dtype=str, keep_default_na=False, usecols=list(EVENT_COLUMNS))
    kinds = raw["event"].str.strip()
    keep = list(range(min(5, len(raw))))
    stops = [int(i) for i in kinds.index[kinds == "stop"] if i < len(raw) - 1]
    if stops:
        keep += [stops[0], stops[0] + 1]
    out = raw.iloc[sorted(set(keep))].copy()
    out.insert(0, "line", [i + 2 for i in out.index])
    return out.reset_index(drop=True)


def estimates(m: Measurement) -> pd.DataFrame:
    """The estimates with their spread and what each was measured from."""
    pct = f"{m.confidence:.0%} interval"
    rows = [
        ("C, checkpoint cost", format_duration(m.checkpoint_cost_min), f"{pct} {span(*m.checkpoint_cost_interval_min)}",
         f"{m.checkpoint_samples:,} stalls"),
        ("M, mean time between interruptions", format_duration(m.mtbi_min), f"{pct} {span(*m.mtbi_interval_min)}",
         count(m.failures, "failure")),
        ("R, restart time (mean)", format_duration(m.restart_min) if m.restart_samples else "none timed",
         f"{pct} {span(*m.restart_interval_min)}" if m.restart_samples >= 2 else "too few for an interval",
         count(m.restart_samples, "restart")),
        ("T, interval in use (median)", format_duration(m.interval_measured_min),
         f"quartiles {span(*m.interval_iqr_min)}", "intervals between checkpoints"),
        ("lost work per failure (mean)", format_duration(m.lost_work_per_failure_min) if m.failures else "no failure",
         f"quartiles {span(*m.lost_work_iqr_min)}" if m.failures else "", count(m.failures, "failure")),
        ("measured goodput", percent(m.measured_goodput), "", f"{m.steps:,} step rows"),
        (f"predicted goodput ({predicted_by(m)})", percent(m.predicted_goodput), "", "at the measured C, M, R and T"),
    ]
    return pd.DataFrame(rows, columns=["estimate", "value", "spread", "from"])


def predicted_by(m: Measurement) -> str:
    """The model of `m`'s prediction, for a column or a legend: ``"first order"``, ``"exact model"``."""
    return MODEL_NAMES[m.prediction_model].removeprefix("the ")


def losses(m: Measurement) -> pd.DataFrame:
    """Each loss as a share of wall time, measured and predicted (by :func:`predicted_by`), and what it adds to the gap."""
    rows = [(name, percent(r.measured), percent(r.predicted), signed_points(r.adds))
            for name, r in loss_comparison(m).items()]
    return pd.DataFrame(rows, columns=["share of wall time", "measured", f"predicted ({predicted_by(m)})",
                                       "adds to the gap"])


def loss_pairs(m: Measurement) -> dict[str, tuple[float, float]]:
    """Each loss as (measured, predicted), for :func:`goodput.book.log_figures.measured_vs_predicted`."""
    return {name: (r.measured, r.predicted) for name, r in loss_comparison(m).items() if name != "goodput"}


def truth(sample: Measurement, known: SampleTruth) -> pd.DataFrame:
    """The sample logs' truth against what the estimators recover: durations, counts and goodput as a reader writes them."""
    table = recovery(sample, known)

    def cell(unit: str, x: float) -> str:
        if math.isnan(x):  # the quantity has no interval
            return ""
        if unit == "min":
            return format_duration(x, 4)
        return percent(x, 2) if unit == "fraction" else f"{x:,.0f}"

    out = table[["quantity"]].copy()
    for column in ("truth", "measured", "low", "high"):
        out[column] = [cell(u, float(x)) for u, x in zip(table["unit"], table[column], strict=True)]
    out["truth inside interval / equal"] = table["agrees"].map({True: "yes", False: "NO"})
    return out.rename(columns={"low": "interval low", "high": "interval high"}).reset_index(drop=True)


def glm(data: Sources) -> pd.DataFrame:
    """What GLM-130B's notes and paper give, next to what the event log alone measures."""
    e, record, kinds = data.glm, data.glm_record, data.glm_kinds
    unplanned, ambiguous, planned = (kinds.get(k, 0) for k in ("unplanned", "ambiguous", "planned"))
    gpus = record.gpus or 0
    rows = [
        ("stops logged", f"{unplanned + ambiguous + planned}", f"{e.failures + e.planned_stops}",
         "the final stop (the end of the log) is not a stop of the job"),
        ("failures", f"{unplanned} + {ambiguous} ambiguous", f"{e.failures}",
         "the ambiguous node swaps count as failures"),
        ("planned stops", f"{planned}", f"{e.planned_stops}", ""),
        ("training window", f"{record.window_days:.0f} days, {record.window_start} to {record.window_end}",
         format_duration(e.wall_min), "the paper's dates; the log runs from the first start to its final stop"),
        ("running, failure to relaunch, planned downtime", "not given",
         ", ".join(format_duration(x) for x in (e.running_min, e.recovery_min, e.planned_downtime_min)),
         "from the times of the stops and relaunches"),
        ("M, mean time between interruptions", "not given",
         f"{format_duration(e.mtbi_min)} ({span(*e.mtbi_interval_min)})", f"{e.confidence:.0%} exact Poisson interval"),
        ("failures per GPU-hour", format_rate(record.table_rate), format_rate(float(rate_from_mtbi(e.mtbi_min, gpus))),
         f"over the calendar window, against the exposure; {gpus:,} GPUs"),
        ("R, failure to relaunch", "not given",
         f"mean {format_duration(e.restart_min)}, median {format_duration(e.restart_median_min)}",
         f"{count(e.restart_samples, 'relaunch', 'relaunches')}; {e.restarts_unrecorded} not timed in the notes"),
    ]
    return pd.DataFrame(rows, columns=["quantity", "the team's notes and paper", "measured here", "note"])


def sacct_states() -> pd.DataFrame:
    """Each state a Slurm attempt can end in, what it counts as, and why."""
    counted = {"failure": "failure", "stop": "planned stop", "running": "end of the log"}
    rows = [(state, counted[STATE_EVENTS[state]], STATE_REASONS[state]) for state in STATE_EVENTS]
    return pd.DataFrame(rows, columns=["state", "counts as", "why"])


def sacct_attempts(log: SacctLog) -> pd.DataFrame:
    """The attempts the reader finds in Slurm accounting: line, job, state, start, length, counted as."""
    rows = [(a.line, a.job_id, a.state, format_duration(a.start), format_duration(a.end - a.start),
             "failure" if a.state in FAILURE_STATES else "still running" if a.state == "RUNNING" else "planned")
            for a in log.attempts]
    return pd.DataFrame(rows, columns=["line", "JobID", "state", "starts after", "runs for", "counts as"])


def _typed_minutes(minutes: float) -> str:
    """A duration as an inputs file reads it back exactly: minutes to four significant digits."""
    return f"{minutes:.4g} min" if minutes < 1000 else f"{minutes:.0f} min"


def inputs_lines(m: Measurement | EventMeasurement) -> str:
    """The lines of an inputs file that would plan with what the logs measured (M as a count, C and R with ranges).

    An event log alone measures M and R, not C: no C line then. A range only where there is an interval.
    """
    lines = [f"interruptions: {{count: {m.failures}, window: {m.exposure_min:.0f} min}}"]
    ranges = []
    if isinstance(m, Measurement):
        low_c, high_c = m.checkpoint_cost_interval_min
        lines.append(f"checkpoint_cost: {_typed_minutes(m.checkpoint_cost_min)}")
        ranges.append(f"checkpoint_cost: [{_typed_minutes(low_c)}, {_typed_minutes(high_c)}]")
    if m.restart_samples:
        lines.append(f"restart: {_typed_minutes(m.restart_min)}")
    if m.restart_samples >= 2:
        low_r, high_r = m.restart_interval_min
        ranges.append(f"restart: [{_typed_minutes(low_r)}, {_typed_minutes(high_r)}]")
    if ranges:
        lines.append(f"ranges: {{{', '.join(ranges)}}}")
    return "\n".join(lines)
