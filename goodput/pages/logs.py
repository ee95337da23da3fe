"""The chapter on measuring from logs: its numbers and sentences.

Which logs a build measures
---------------------------
- The inputs file names a step log and an event log: every section measures them (when they are
  the bundled sample logs, the page says it demonstrates the method on a simulated job whose
  truth is known, not on a fleet's logs).
- It names an event log only (a CSV event log, or Slurm accounting): the sections that need
  steps (C, T, goodput) use the bundled sample logs and say so; the section on an event log
  alone measures the fleet's.
- It names none: every section uses the bundled sample logs and says plainly that they are not
  the fleet's (issue #10).

GLM-130B's event log, its Weibull fit and Slurm's sample accounting are the same in every build;
the simulated effect of GLM-130B's shape on goodput uses this build's C, M and R at the interval
the book recommends (the exact model's optimum).

Every function takes the inputs and the book's root folder (the chapter passes
:func:`goodput.book.paths.book_root`), and returns text and numbers for
:func:`goodput.book.glue_all`, or a table for :func:`goodput.book.tables.book_table`.
Durations are written by :func:`goodput.units.format_duration`.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from goodput.logs import measure as logs_measure
from goodput.logs.events import EventMeasurement, as_planned, measure_events
from goodput.logs.fit import (
    WeibullFit,
    coverage,
    power,
    shape_effect,
    shape_test,
    survival_curve,
)
from goodput.logs.read import EVENT_COLUMNS, STEP_COLUMNS, read_events, read_steps
from goodput.logs.sacct import FAILURE_STATES, STATE_EVENTS, read_sacct
from goodput.logs.samples import read_truth, recovery
from goodput.params import Params
from goodput.plan import RECOMMENDED_MODEL, Plan, make_plan
from goodput.report import (
    MODEL_NAMES,
    count,
    measurement_note,
    p_value_text,
    percent,
    points,
    shape_interval_text,
    shape_verdict,
)
from goodput.uncertainty import propagate
from goodput.units import MINUTES_PER_UNIT, format_duration, format_rate, significant

#: The bundled sample logs, their truth, and the other data the page reads, relative to the book's root.
SAMPLE_STEPS = "book/data/sample-steps.csv"
SAMPLE_EVENTS = "book/data/sample-events.csv"
SAMPLE_TRUTH = "book/data/truth.yml"
SAMPLE_SACCT = "book/data/sample-sacct.txt"
GLM_EVENTS = "book/data/fleets/glm130b-events.csv"
GLM_STOPS = "book/data/fleets/glm130b-interruptions.csv"
PUBLISHED_FLEETS = "book/data/fleets/published-fleets.csv"

#: The Weibull shape the failures chapter takes as "high infant mortality".
INFANT_SHAPE = 0.5
#: Samples simulated to measure the interval's coverage and the test's power.
TRIALS = 2000
#: Length of each goodput simulation, in mean gaps between failures.
SIM_FAILURES = 200_000
#: Seeds of the simulations on this page.
COVERAGE_SEED, POWER_SEED, SIZE_SEED, EFFECT_SEED = 1301, 1302, 1303, 1304
#: Below this many points either way, a shape's effect on goodput is "a fraction of a point".
SMALL_EFFECT = 0.005

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

_DAY = MINUTES_PER_UNIT["day"]


# ---------------------------------------------------------------- which logs


@dataclass(frozen=True)
class Logs:
    """The logs a build measures.

    Parameters
    ----------
    steps, events : Path
        The step and event logs of the full measurement.
    fleet_pair : bool
        Whether those two are the ones the inputs file names.
    fleet_events : Path or None
        The event log the inputs file names (with or without a step log).
    sample : bool
        Whether the full measurement's logs are the bundled sample logs.
    """

    steps: Path
    events: Path
    fleet_pair: bool
    fleet_events: Path | None
    sample: bool


def logs_for(params: Params, root: Path) -> Logs:
    """Which logs this build measures (rules in the module docstring)."""
    sample_steps, sample_events = (root / SAMPLE_STEPS).resolve(), (root / SAMPLE_EVENTS).resolve()
    named_events = params.events_log.resolve() if params.events_log is not None else None
    if params.steps_log is not None and named_events is not None:
        steps, events, pair = params.steps_log.resolve(), named_events, True
    else:
        steps, events, pair = sample_steps, sample_events, False
    return Logs(steps=steps, events=events, fleet_pair=pair, fleet_events=named_events,
                sample=(steps, events) == (sample_steps, sample_events))


@functools.lru_cache(maxsize=8)
def _full(steps: Path, events: Path, stamp: tuple[float, float]) -> logs_measure.Measurement:
    del stamp  # part of the cache key only: a file rewritten during a session is measured again
    return logs_measure.measure(steps, events, which="first-order")


def _stamp(*paths: Path) -> tuple[float, ...]:
    return tuple(p.stat().st_mtime if p.exists() else 0.0 for p in paths)


def _measured(steps: Path, events: Path) -> logs_measure.Measurement:
    stamp = _stamp(steps, events)
    return _full(steps.resolve(), events.resolve(), (stamp[0], stamp[1]))


def full_measurement(params: Params, root: Path) -> logs_measure.Measurement:
    """The step and event logs measured, with the first-order prediction the chapter explains."""
    logs = logs_for(params, root)
    return _measured(logs.steps, logs.events)


def sample_measurement(root: Path) -> logs_measure.Measurement:
    """The bundled sample logs measured."""
    return _measured(root / SAMPLE_STEPS, root / SAMPLE_EVENTS)


@functools.lru_cache(maxsize=16)
def _events_alone(path: Path, stamp: tuple[float, ...]) -> EventMeasurement:
    del stamp
    return measure_events(path)


def events_measurement(path: Path) -> EventMeasurement:
    """An event log (CSV or Slurm accounting) measured alone, cached by file and time of change."""
    return _events_alone(path.resolve(), _stamp(path))


# ---------------------------------------------------------------- the opening


def intro(params: Params, root: Path) -> dict[str, str]:
    """Which logs this build measured, in one or two sentences.

    Returns
    -------
    dict
        ``logs_origin``: the sentence; ``steps_name``, ``events_name``: the files' names.
    """
    logs = logs_for(params, root)
    where = f"the inputs file, {params.source},"
    if logs.fleet_pair and logs.sample:
        origin = (f"{where.capitalize()} names the sample logs bundled with the book, so this chapter demonstrates "
                  "the method on a simulated job whose true inputs are known, not on a fleet's logs.")
    elif logs.fleet_pair:
        origin = (f"This build measured the step and event logs {where} names: {logs.steps.name} and "
                  f"{logs.events.name}.")
    elif logs.fleet_events is not None:
        origin = (f"{where.capitalize()} names an event log, {logs.fleet_events.name}, but no step log: the sections "
                  "that need steps (C, T and goodput) demonstrate the method on the sample logs bundled with the "
                  "book, whose truth is known, and the section on an event log alone measures yours.")
    else:
        origin = (f"{where.capitalize()} names no logs, so this chapter demonstrates the method on the sample logs "
                  "bundled with the book, a simulated job whose true inputs are known: they are not your fleet's "
                  "logs. Name your step and event logs in the inputs file and every number here follows.")
    return {"logs_origin": origin, "steps_name": logs.steps.name, "events_name": logs.events.name}


# ---------------------------------------------------------------- the two logs

_CLOCK_WORDS = {"seconds": "times in seconds", "iso8601": "ISO-8601 times without a UTC offset",
                "iso8601 with UTC offsets": "ISO-8601 times with a UTC offset"}


def formats(params: Params, root: Path) -> dict[str, str]:
    """How many rows the two logs measured have, and on which clock."""
    logs = logs_for(params, root)
    steps = read_steps(logs.steps)
    events = read_events(logs.events)
    return {
        "n_steps": f"{len(steps):,}",
        "n_events": f"{len(events):,}",
        "steps_clock": _CLOCK_WORDS[steps.clock],
        "events_clock": _CLOCK_WORDS[events.clock],
    }


def step_rows(params: Params, root: Path) -> pd.DataFrame:
    """A few rows of the step log as written: the first, a checkpoint and its stall, the first after a restart."""
    path = logs_for(params, root).steps
    raw = pd.read_csv(path, dtype=str, keep_default_na=False, usecols=list(STEP_COLUMNS))
    numbers = raw["step"].astype(int)
    first_ckpt = int((raw["checkpoint"].str.strip() == "1").to_numpy().argmax())
    picks = [(0, "the first step"), (first_ckpt - 1, ""), (first_ckpt, "checkpoint after this step"),
             (first_ckpt + 1, "starts after the stall")]
    back = numbers.diff().le(0).to_numpy()
    if back.any():
        first_back = int(back.argmax())
        picks += [(first_back - 1, "the last step before a failure"),
                  (first_back, "after the restart: back to a checkpoint")]
    rows = [(i, note) for i, note in dict(picks).items() if 0 <= i < len(raw)]
    out = raw.iloc[[i for i, _ in rows]].copy()
    out.insert(0, "line", [i + 2 for i, _ in rows])
    out["note"] = [note for _, note in rows]
    return out.reset_index(drop=True)


def event_rows(params: Params, root: Path) -> pd.DataFrame:
    """The first rows of the event log, and the first planned stop with the start after it."""
    path = logs_for(params, root).events
    raw = pd.read_csv(path, dtype=str, keep_default_na=False, usecols=list(EVENT_COLUMNS))
    kinds = raw["event"].str.strip()
    keep = list(range(min(5, len(raw))))
    stops = [int(i) for i in kinds.index[kinds == "stop"] if i < len(raw) - 1]
    if stops:
        keep += [stops[0], stops[0] + 1]
    out = raw.iloc[sorted(set(keep))].copy()
    out.insert(0, "line", [i + 2 for i in out.index])
    return out.reset_index(drop=True)


# ---------------------------------------------------------------- exposure and the estimators


def exposure(params: Params, root: Path) -> dict[str, str]:
    """Wall time, planned downtime and exposure of the logs measured."""
    m = full_measurement(params, root)
    return {
        "wall": format_duration(m.wall_min),
        "planned_down": format_duration(m.planned_downtime_min),
        "planned_stops": count(m.planned_stops, "planned stop"),
        "exposure": format_duration(m.exposure_min),
        "failures": count(m.failures, "failure"),
        "attempts": count(m.attempts, "attempt"),
    }


def _range(low: float, high: float) -> str:
    return f"{format_duration(low)} to {format_duration(high)}"


def estimators(params: Params, root: Path) -> dict[str, str]:
    """C, M, R, T, lost work and goodput of the logs measured, each with its spread, as text."""
    m = full_measurement(params, root)
    relative = {
        "C": (m.checkpoint_cost_interval_min[1] - m.checkpoint_cost_interval_min[0]) / m.checkpoint_cost_min,
        "M": (m.mtbi_interval_min[1] - m.mtbi_interval_min[0]) / m.mtbi_min if m.failures else math.inf,
        "R": (m.restart_interval_min[1] - m.restart_interval_min[0]) / m.restart_min
        if m.restart_samples >= 2 else math.inf,
    }
    return {
        "conf": f"{m.confidence:.0%}",
        "gap0": format_duration(m.ordinary_gap_min),
        "c": format_duration(m.checkpoint_cost_min),
        "c_n": f"{m.checkpoint_samples:,}",
        "c_range": _range(*m.checkpoint_cost_interval_min),
        "c_quartiles": _range(*m.checkpoint_cost_iqr_min),
        "m": format_duration(m.mtbi_min),
        "m_range": _range(*m.mtbi_interval_min),
        "widest_name": max(relative, key=lambda k: relative[k]),
        "r": format_duration(m.restart_min),
        "r_n": count(m.restart_samples, "restart"),
        "r_range": _range(*m.restart_interval_min),
        "r_median": format_duration(m.restart_median_min),
        "r_quartiles": _range(*m.restart_iqr_min),
        "t": format_duration(m.interval_measured_min),
        "t_quartiles": _range(*m.interval_iqr_min),
        "t_opt": format_duration(m.optimal_interval_min),
        "lost": format_duration(m.lost_work_per_failure_min),
        "lost_quartiles": _range(*m.lost_work_iqr_min),
        "redone_steps": f"{m.redone_steps:,}",
        "g_meas": percent(m.measured_goodput),
        "g_pred": percent(m.predicted_goodput),
        "gap_pts": points(m.gap),
    }


def estimates_table(params: Params, root: Path) -> pd.DataFrame:
    """The estimates with their spread and what each was measured from."""
    m = full_measurement(params, root)
    pct = f"{m.confidence:.0%} interval"
    rows = [
        ("C, checkpoint cost", format_duration(m.checkpoint_cost_min),
         f"{pct} {_range(*m.checkpoint_cost_interval_min)}", f"{m.checkpoint_samples:,} stalls"),
        ("M, mean time between interruptions", format_duration(m.mtbi_min), f"{pct} {_range(*m.mtbi_interval_min)}",
         count(m.failures, "failure")),
        ("R, restart time (mean)", format_duration(m.restart_min), f"{pct} {_range(*m.restart_interval_min)}",
         count(m.restart_samples, "restart")),
        ("T, interval in use (median)", format_duration(m.interval_measured_min),
         f"quartiles {_range(*m.interval_iqr_min)}", "intervals between checkpoints"),
        ("lost work per failure (mean)", format_duration(m.lost_work_per_failure_min),
         f"quartiles {_range(*m.lost_work_iqr_min)}", count(m.failures, "failure")),
        ("measured goodput", percent(m.measured_goodput), "", f"{m.steps:,} step rows"),
        ("predicted goodput (first order)", percent(m.predicted_goodput), "", "at the measured C, M, R and T"),
    ]
    return pd.DataFrame(rows, columns=["estimate", "value", "spread", "from"])


# ---------------------------------------------------------------- measured against predicted


def gap(params: Params, root: Path) -> dict[str, str]:
    """The gap between predicted and measured goodput, loss by loss, and the note on first order."""
    m = full_measurement(params, root)
    comparison = logs_measure.loss_comparison(m)
    expected = logs_measure.surviving_checkpoint_loss(m.checkpoint_cost_min, m.interval_min, m.measured_goodput)

    gaps = comparison["adds to the gap"].to_dict()

    def adds(row: str) -> str:
        value = float(gaps[row])
        return f"{'+' if value >= 0 else '−'}{points(abs(value), 2)}"

    return {
        "ck_meas": percent(m.checkpoint_loss_measured),
        "ck_pred": percent(m.checkpoint_loss_predicted),
        "ck_expected": percent(expected),
        "ck_relation": "below" if m.checkpoint_loss_measured < m.checkpoint_loss_predicted else "above",
        "ck_goodput": percent(m.measured_goodput),
        "ck_adds": adds("checkpoint overhead"),
        "lw_adds": adds("lost work"),
        "rs_adds": adds("restart"),
        "unmodelled": percent(m.unmodelled_loss),
        "unmodelled_pts": points(m.unmodelled_loss),
        "model_note": measurement_note(m) or "The measured C, M, R and T are within the first-order formula's range.",
    }


def loss_table(params: Params, root: Path) -> pd.DataFrame:
    """Each loss as measured and as first order predicts it, and what it adds to the gap."""
    comparison = logs_measure.loss_comparison(full_measurement(params, root))
    out = comparison.reset_index()
    out["adds to the gap"] = [f"{'+' if x >= 0 else '−'}{points(abs(x), 2)}" for x in out["adds to the gap"]]
    return out.rename(columns={"predicted": "predicted (first order)"})


def loss_pairs(params: Params, root: Path) -> dict[str, tuple[float, float]]:
    """Each loss as (measured, predicted by first order), for the figure."""
    comparison = logs_measure.loss_comparison(full_measurement(params, root)).drop(index="goodput")
    return {str(name): (float(row["measured"]), float(row["predicted"])) for name, row in comparison.iterrows()}


# ---------------------------------------------------------------- the known truth


def truth(params: Params, root: Path) -> dict[str, str | int]:
    """The sample logs' true inputs against what the estimators recover."""
    logs = logs_for(params, root)
    known = read_truth(root / SAMPLE_TRUTH)
    table = recovery(sample_measurement(root), known)
    spec = known.spec
    out: dict[str, str | int] = {
        "sample_which": "They are the logs measured above." if logs.sample else
        "They are not the logs measured above, so they are measured again here.",
        "sample_days": format_duration(spec.duration_min),
        "sample_step": format_duration(spec.step_s / 60.0),
        "sample_every": f"{spec.interval_steps}",
        "sample_seed": f"{spec.seed}",
        "sample_jitter_c": f"{spec.checkpoint_jitter:.0%}",
        "sample_jitter_r": f"{spec.restart_jitter:.0%}",
        "sample_pause_share": f"{spec.pause_probability:.1%}",
        "sample_pause": format_duration(spec.pause_mean_s / 60.0),
        "sample_maint_every": format_duration(spec.maintenance_every_min or 0.0),
        "sample_maint": format_duration(spec.maintenance_min),
        "truth_t": format_duration(float(table["truth"].to_dict()["T"])),
    }
    col = {name: table[name].to_dict() for name in ("truth", "measured", "low", "high", "agrees")}
    for key in ("C", "M", "R"):
        short = key.lower()
        out[f"truth_{short}"] = format_duration(float(col["truth"][key]))
        out[f"meas_{short}"] = format_duration(float(col["measured"][key]), 4)
        out[f"range_{short}"] = (f"{format_duration(float(col['low'][key]), 4)} to "
                                 f"{format_duration(float(col['high'][key]), 4)}")
        out[f"inside_{short}"] = "inside" if col["agrees"][key] else "outside"
    interval_rows = table.loc[["C", "M", "R"]]
    counted = table.drop(index=["C", "M", "R"])
    out |= {
        "n_inside": int(interval_rows["agrees"].sum()),
        "n_interval_rows": len(interval_rows),
        "n_match": int(counted["agrees"].sum()),
        "n_counted_rows": len(counted),
        "counted_names": ", ".join(counted["quantity"]),
    }
    return out


def truth_table(params: Params, root: Path) -> pd.DataFrame:
    """The recovery table of the sample logs, agreement as yes or NO."""
    del params
    table = recovery(sample_measurement(root), read_truth(root / SAMPLE_TRUTH))
    return (table.assign(agrees=table["agrees"].map({True: "yes", False: "NO"}))
            .rename(columns={"agrees": "truth inside interval / equal", "low": "interval low",
                             "high": "interval high"})
            .reset_index(drop=True))


# ---------------------------------------------------------------- an event log alone


def events_only(params: Params, root: Path) -> dict[str, str]:
    """What the event log alone gives for the fleet's event log (or the bundled sample's), in one paragraph."""
    logs = logs_for(params, root)
    path = logs.fleet_events or (root / SAMPLE_EVENTS).resolve()
    e = events_measurement(path)
    if logs.fleet_events is None:
        whose = "Your inputs file names no event log; on the sample event log bundled with the book"
    elif logs.fleet_events == (root / SAMPLE_EVENTS).resolve():
        whose = "On the sample event log your inputs file names"
    else:
        whose = f"On the event log your inputs file names, {path.name}"
    return {"events_only_text": f"{whose}, {_events_summary(e)}"}


def _events_summary(e: EventMeasurement) -> str:
    """M, R and the shape an event log gives, as the rest of a sentence."""
    if e.failures:
        m_text = (f"{count(e.failures, 'failure')} over {format_duration(e.exposure_min)} of exposure give "
                  f"M = {format_duration(e.mtbi_min)} ({e.confidence:.0%} interval {_range(*e.mtbi_interval_min)})")
    else:
        m_text = (f"no failure in {format_duration(e.exposure_min)} of exposure puts M above "
                  f"{format_duration(e.mtbi_interval_min[0])} ({e.confidence:.0%} lower bound)")
    if e.restart_samples:
        r_text = (f"the restarts, failure to next start, average {format_duration(e.restart_min)} (median "
                  f"{format_duration(e.restart_median_min)}, {count(e.restart_samples, 'restart')})")
    else:
        r_text = "no restart time is recorded"
    if e.fit is not None:
        k_text = (f"the gaps between failures have a Weibull shape of {significant(e.fit.shape, 3)} "
                  f"({shape_interval_text(e.fit)}). {shape_verdict(e.fit)}")
    else:
        k_text = f"no shape can be fitted. {shape_verdict(None, e.fit_problem)}"
    return f"{m_text}; {r_text}; {k_text}"


# ---------------------------------------------------------------- GLM-130B


def _glm(root: Path) -> EventMeasurement:
    return events_measurement(root / GLM_EVENTS)


def _glm_fit(root: Path) -> WeibullFit:
    fit = _glm(root).fit
    if fit is None:  # pragma: no cover - the bundled log has 13 gaps
        raise ValueError("GLM-130B's event log gives no Weibull fit")
    return fit


def _date(text: str, *, year: bool = False) -> str:
    day = pd.Timestamp(text)
    return f"{day.day} {day:%B}" + (f" {day.year}" if year else "")


def _fleet_row(root: Path) -> pd.Series:
    table = pd.read_csv(root / PUBLISHED_FLEETS, dtype=str, keep_default_na=False)
    return table[table["fleet"].str.startswith("GLM-130B")].iloc[0]


def _stop_kinds(root: Path) -> pd.DataFrame:
    return pd.read_csv(root / GLM_STOPS, dtype=str, keep_default_na=False)


def _glm_clear(root: Path) -> EventMeasurement:
    """GLM-130B with the two ambiguous stops counted as planned: the eleven clear failures."""
    log = read_events(root / GLM_EVENTS)
    stops = _stop_kinds(root)
    ambiguous = stops[stops["kind"] == "ambiguous"]
    when = [row["interrupted_at"] or row["restarted_at"] for _, row in ambiguous.iterrows()]
    origin = pd.Timestamp(log.origin_us, unit="us", tz="UTC")
    minutes = [(pd.Timestamp(w).tz_convert("UTC") - origin) / pd.Timedelta(minutes=1) for w in when]
    return measure_events(as_planned(log, minutes))


def glm(params: Params, root: Path) -> dict[str, str]:
    """GLM-130B's stops as the team logged them, and what the events-only measurement finds.

    Returns
    -------
    dict
        Text: the team's counts and window, the measured counts, time split, M with its
        interval, R, and M with the two ambiguous stops counted as planned.
    """
    del params  # the same in every build
    e = _glm(root)
    row = _fleet_row(root)
    kinds = _stop_kinds(root)["kind"].value_counts()
    gpus = int(row["gpus"])
    clear = _glm_clear(root)
    rate = 60.0 / (e.mtbi_min * gpus)
    return {
        "glm_gpus": f"{gpus:,}",
        "glm_from": _date(row["window_start"]),
        "glm_to": _date(row["window_end"], year=True),
        "glm_days": f"{int(row['window_days'])} days",
        "glm_stops": f"{int(kinds.sum())}",
        "glm_unplanned": f"{int(kinds.get('unplanned', 0))}",
        "glm_ambiguous": f"{int(kinds.get('ambiguous', 0))}",
        "glm_planned": f"{int(kinds.get('planned', 0))}",
        "glm_failures": count(e.failures, "failure"),
        "glm_planned_measured": count(e.planned_stops, "planned stop"),
        "glm_attempts": count(e.attempts, "attempt"),
        "glm_wall": format_duration(e.wall_min),
        "glm_running": format_duration(e.running_min),
        "glm_recovery": format_duration(e.recovery_min),
        "glm_planned_down": format_duration(e.planned_downtime_min),
        "glm_exposure": format_duration(e.exposure_min),
        "glm_m": format_duration(e.mtbi_min),
        "glm_m_hours": f"{e.mtbi_min / 60:.0f} h",
        "glm_m_range": _range(*e.mtbi_interval_min),
        "glm_conf": f"{e.confidence:.0%}",
        "glm_rate": format_rate(rate),
        "glm_rate_published": format_rate(float(row["rate_per_gpu_hour"])),
        "glm_r": format_duration(e.restart_min),
        "glm_r_median": format_duration(e.restart_median_min),
        "glm_r_range": _range(*e.restart_interval_min),
        "glm_r_n": count(e.restart_samples, "restart"),
        "glm_r_max": format_duration(max(e.restarts_min)),
        "glm_m_factor": f"{e.mtbi_interval_min[1] / e.mtbi_interval_min[0]:.1f}",
        "glm_r_unrecorded": f"{e.restarts_unrecorded}",
        "glm11_failures": count(clear.failures, "failure"),
        "glm11_m": format_duration(clear.mtbi_min),
        "glm11_m_range": _range(*clear.mtbi_interval_min),
    }


def glm_table(params: Params, root: Path) -> pd.DataFrame:
    """What the team's notes and the data set's counting give, next to what the command measures."""
    del params
    e = _glm(root)
    row = _fleet_row(root)
    kinds = _stop_kinds(root)["kind"].value_counts()
    gpus = int(row["gpus"])
    unplanned, ambiguous, planned = (int(kinds.get(k, 0)) for k in ("unplanned", "ambiguous", "planned"))
    rate = 60.0 / (e.mtbi_min * gpus)
    rows = [
        ("stops logged", f"{unplanned + ambiguous + planned}", f"{e.failures + e.planned_stops}",
         "the final stop (the end of the log) is not a stop of the job"),
        ("failures", f"{unplanned} + {ambiguous} ambiguous", f"{e.failures}", "the ambiguous node swaps count as failures"),
        ("planned stops", f"{planned}", f"{e.planned_stops}", ""),
        ("training window", (f"{int(row['window_days'])} days, {_date(row['window_start'])} to "
         f"{_date(row['window_end'], year=True)}"), format_duration(e.wall_min),
         "the paper's dates; the log runs from the first start to its final stop"),
        ("running, failure to relaunch, planned downtime", "not given",
         (f"{format_duration(e.running_min)}, {format_duration(e.recovery_min)}, "
          f"{format_duration(e.planned_downtime_min)}"), "from the times of the stops and relaunches"),
        ("M, mean time between interruptions", "not given",
         f"{format_duration(e.mtbi_min)} ({_range(*e.mtbi_interval_min)})",
         f"{e.confidence:.0%} exact Poisson interval"),
        ("failures per GPU-hour", format_rate(float(row["rate_per_gpu_hour"])), format_rate(rate),
         f"over the calendar window, against the exposure; {gpus:,} GPUs"),
        ("R, failure to relaunch", "not given",
         f"mean {format_duration(e.restart_min)}, median {format_duration(e.restart_median_min)}",
         f"{count(e.restart_samples, 'restart')}; {e.restarts_unrecorded} not timed in the notes"),
    ]
    return pd.DataFrame(rows, columns=["quantity", "the team's notes and paper", "measured here", "note"])


# ---------------------------------------------------------------- the shape


@functools.lru_cache(maxsize=4)
def _trust(shape: float, gaps: int) -> tuple[float, float, float]:
    """Coverage of the interval at this shape and size, power against k = 0.5, and the test's size."""
    return (coverage(shape, gaps, trials=TRIALS, seed=COVERAGE_SEED),
            power(INFANT_SHAPE, gaps, trials=TRIALS, seed=POWER_SEED),
            power(1.0, gaps, trials=TRIALS, seed=SIZE_SEED))


def shape(params: Params, root: Path) -> dict[str, str]:
    """GLM-130B's gaps between failures, their Weibull fit, how far a dozen gaps can be trusted, and the checks.

    Returns
    -------
    dict
        The fit (shape, interval, scale, mean), the test of exponential gaps, the test of
        shape 0.5, the interval's simulated coverage and the test's power at this size,
        the fit with the eleven clear failures, and the fit to the sample logs (truth: 1).
    """
    del params
    e = _glm(root)
    fit = _glm_fit(root)
    gaps = e.gaps
    _, p_half = shape_test(gaps, INFANT_SHAPE, [e.open_gap_min])
    cover, detect, size = _trust(round(fit.shape, 3), fit.gaps)
    low, high = fit.shape_interval
    clear = _glm_clear(root)
    sample = events_measurement(root / SAMPLE_EVENTS).fit
    out = {
        "glm_gaps": count(fit.gaps, "gap"),
        "glm_gap_median": format_duration(e.gap_median_min),
        "glm_gap_range": _range(*e.gap_range_min),
        "glm_open": format_duration(e.open_gap_min),
        "glm_k": significant(fit.shape, 3),
        "glm_k_range": shape_interval_text(fit),
        "glm_k_method": fit.method,
        "glm_scale": format_duration(fit.scale),
        "glm_fit_mean": format_duration(fit.mean),
        "glm_lr": f"{fit.lr_statistic:.2f}",
        "glm_p": p_value_text(fit.p_value),
        "glm_verdict": shape_verdict(fit),
        "infant_shape": f"{INFANT_SHAPE:g}",
        "infant_where": "inside" if low <= INFANT_SHAPE <= high else "outside",
        "infant_p": p_value_text(p_half),
        "trust_trials": f"{TRIALS:,}",
        "trust_coverage": f"{cover:.0%}",
        "trust_power": f"{detect:.0%}",
        "trust_size": f"{size:.0%}",
        "infant_conclusion": _infant_conclusion(fit),
        "shape_conclusion": _shape_conclusion([fit, clear.fit]),
    }
    if clear.fit is not None:
        out |= {"glm11_k": significant(clear.fit.shape, 3), "glm11_k_range": shape_interval_text(clear.fit),
                "glm11_p": p_value_text(clear.fit.p_value)}
    if sample is not None:
        out |= {"sample_k": significant(sample.shape, 3), "sample_k_range": shape_interval_text(sample),
                "sample_gaps": count(sample.gaps, "gap"),
                "sample_k_inside": "inside" if sample.exponential_inside else "outside"}
    return out


def _infant_conclusion(fit: WeibullFit) -> str:
    """Whether GLM-130B's gaps look like infant mortality, from where the fit and its interval lie."""
    low, high = fit.shape_interval
    if high < 1.0:
        return "GLM-130B's gaps do show a falling hazard: failures bunch."
    if low > INFANT_SHAPE:
        lean = ": if anything they are more regular than random" if fit.shape > 1.0 else ""
        return f"GLM-130B's gaps show no infant mortality{lean}."
    return f"{count(fit.gaps, 'gap').capitalize()} cannot tell infant mortality from random failures here."


def _shape_conclusion(fits: list[WeibullFit | None]) -> str:
    """What the fits under both counting rules agree on."""
    usable = [f for f in fits if f is not None]
    if usable and all(f.shape_interval[0] > 1.0 or (f.shape_interval[0] <= 1.0 <= f.shape_interval[1])
                      for f in usable) and all(f.shape_interval[0] > INFANT_SHAPE for f in usable):
        return ("Either way there is no sign of a shape below 1; whether the gaps are exponential or more regular, "
                "this many failures cannot settle.")
    return "The two counting rules do not agree on the shape: this many failures cannot settle it."


def glm_survival(params: Params, root: Path) -> dict[str, object]:
    """The inputs of :func:`goodput.book.shape_figures.gap_survival` for GLM-130B, in days."""
    del params
    e = _glm(root)
    fit = _glm_fit(root)
    times, survival = survival_curve(e.gaps / _DAY, [e.open_gap_min / _DAY])
    exp_mean = (e.gaps.sum() + e.open_gap_min) / e.gaps.size / _DAY  # the censored MLE of an exponential mean
    return {
        "times": times.tolist(),
        "survival": survival.tolist(),
        "curves": {
            f"Weibull fit, shape {significant(fit.shape, 3)}": (fit.shape, fit.scale / _DAY),
            "exponential, fitted to the same gaps": (1.0, exp_mean),
            f"Weibull shape {INFANT_SHAPE:g}, same mean (the failures chapter)": (
                INFANT_SHAPE, exp_mean / math.gamma(1.0 + 1.0 / INFANT_SHAPE)),
        },
        "unit": "days",
        "data_label": "GLM-130B's gaps (Kaplan-Meier)",
    }


# ---------------------------------------------------------------- what the shape does to goodput


@functools.lru_cache(maxsize=8)
def _effect(cost: float, mtbi: float, restart: float, interval: float, shapes: tuple[float, ...]):  # type: ignore[no-untyped-def]
    return shape_effect(cost, mtbi, restart, interval, list(shapes), failures=SIM_FAILURES, seed=EFFECT_SEED)


def _shapes(root: Path) -> tuple[float, ...]:
    """GLM-130B's shape, the ends of its interval (within the simulator's range) and 0.5, rounded to 3 digits."""
    from goodput.simulate import MAX_SHAPE, MIN_SHAPE

    fit = _glm_fit(root)
    low, high = fit.shape_interval
    chosen = [fit.shape, max(low, MIN_SHAPE), min(high, MAX_SHAPE), INFANT_SHAPE]
    return tuple(float(significant(k, 3)) for k in chosen)


def one_level_plan(params: Params) -> Plan:
    """The exact model's plan for the fleet's C, M and R with one checkpoint tier and no drain.

    For a fleet without a drain or a persistent tier this is :func:`goodput.plan.plan_for`'s
    recommendation; the Weibull simulator models only such a job, so a tiered fleet is
    compared as one.
    """
    return make_plan(params.checkpoint_cost, params.mtbi, params.restart, which=RECOMMENDED_MODEL)


def shape_goodput(params: Params, root: Path) -> dict[str, str]:
    """Simulated goodput at the recommended interval with GLM-130B's shape against exponential failures.

    Returns
    -------
    dict
        This build's C, M, R and interval (:func:`one_level_plan`), the simulated goodputs
        with standard errors, each difference from exponential failures, and a verdict.
    """
    plan = one_level_plan(params)
    shapes = _shapes(root)
    effect = _effect(params.checkpoint_cost, params.mtbi, params.restart, plan.interval, shapes)
    diffs = dict(zip(("fit", "low", "high", "infant"), zip(effect.difference, effect.difference_stderr,
                                                            strict=True), strict=True))
    glm_spread = [effect.difference[i] for i in range(3)]

    def signed(x: float) -> str:
        return f"{'+' if x >= 0 else '−'}{points(abs(x), 2)}"

    def se(x: float) -> str:
        return points(x, 2)

    if max(abs(x) for x in glm_spread) < SMALL_EFFECT:
        verdict = (f"Over the whole interval of GLM-130B's shape the change is at most "
                   f"{points(max(abs(x) for x in glm_spread), 2)} either way: for a fleet that fails like GLM-130B, "
                   "the exponential model's interval and goodput hold.")
    else:
        verdict = ("Across the interval of GLM-130B's shape the change reaches "
                   f"{points(max(abs(x) for x in glm_spread), 1)}: enough to simulate this fleet's own shape "
                   "before trusting the exponential model's goodput.")
    return {
        "sim_c": format_duration(params.checkpoint_cost),
        "sim_m": format_duration(params.mtbi),
        "sim_r": format_duration(params.restart),
        "sim_t": format_duration(plan.interval),
        "sim_scope": ("the exact optimum of a job with one checkpoint tier and no drain: this fleet's drain and "
                      "persistent tier, which its recommendation accounts for, are beyond the Weibull simulator"
                      if params.tiered else
                      f"the interval the book recommends, {MODEL_NAMES[RECOMMENDED_MODEL]}'s optimum"),
        "sim_source": params.source,
        "sim_failures": f"{SIM_FAILURES:,}",
        "sim_seed": f"{EFFECT_SEED}",
        "sim_g_exp": percent(effect.exponential, 2),
        "sim_g_exp_se": se(effect.exponential_stderr),
        "sim_g_model": percent(plan.goodput, 2),
        "sim_k": f"{shapes[0]:g}",
        "sim_k_low": f"{shapes[1]:g}",
        "sim_k_high": f"{shapes[2]:g}",
        "sim_g_k": percent(effect.goodput[0], 2),
        "sim_g_k_se": se(effect.stderr[0]),
        "sim_d_k": signed(diffs["fit"][0]),
        "sim_d_k_se": se(diffs["fit"][1]),
        "sim_d_low": signed(diffs["low"][0]),
        "sim_d_low_se": se(diffs["low"][1]),
        "sim_d_high": signed(diffs["high"][0]),
        "sim_d_high_se": se(diffs["high"][1]),
        "sim_d_infant": signed(diffs["infant"][0]),
        "sim_d_infant_se": se(diffs["infant"][1]),
        "sim_verdict": verdict,
    }


def shape_goodput_table(params: Params, root: Path) -> pd.DataFrame:
    """The simulated goodputs, one row per failure process."""
    plan = one_level_plan(params)
    shapes = _shapes(root)
    effect = _effect(params.checkpoint_cost, params.mtbi, params.restart, plan.interval, shapes)
    names = ["GLM-130B's fitted shape", "low end of its interval", "high end of its interval",
             "the failures chapter's infant mortality"]
    rows = [("exponential (Poisson failures)", "1", percent(effect.exponential, 2),
             points(effect.exponential_stderr, 2), "")]
    for name, k, g, s, d, ds in zip(names, shapes, effect.goodput, effect.stderr, effect.difference,
                                    effect.difference_stderr, strict=True):
        rows.append((f"Weibull renewal: {name}", f"{k:g}", percent(g, 2), points(s, 2),
                     f"{'+' if d >= 0 else '−'}{points(abs(d), 2)} ± {points(ds, 2)}"))
    return pd.DataFrame(rows, columns=["failure process", "shape", "goodput", "standard error",
                                       "against exponential"])


# ---------------------------------------------------------------- Slurm


def sacct_states_table() -> pd.DataFrame:
    """Each state an attempt can end in, what it counts as, and why."""
    counted = {"failure": "failure", "stop": "planned stop", "running": "end of the log"}
    rows = [(state, counted[STATE_EVENTS[state]], STATE_REASONS[state]) for state in STATE_EVENTS]
    return pd.DataFrame(rows, columns=["state", "counts as", "why"])


def sacct_attempts(params: Params, root: Path) -> pd.DataFrame:
    """The bundled sample's attempts as the reader sees them: line, job, state, start, length, counted as."""
    del params
    log = read_sacct(root / SAMPLE_SACCT)
    rows = []
    for a in log.attempts:
        counted = "failure" if a.state in FAILURE_STATES else "still running" if a.state == "RUNNING" else "planned"
        rows.append((a.line, a.job_id, a.state, format_duration(a.start), format_duration(a.end - a.start), counted))
    return pd.DataFrame(rows, columns=["line", "JobID", "state", "starts after", "runs for", "counts as"])


def sacct(params: Params, root: Path) -> dict[str, str]:
    """What the reader makes of the bundled sample, and the measurement of it."""
    del params
    log = read_sacct(root / SAMPLE_SACCT)
    e = events_measurement(root / SAMPLE_SACCT)
    return {
        "sacct_attempts": count(len(log.attempts), "attempt"),
        "sacct_records": count(len(log.attempts) + log.never_started, "job record"),
        "sacct_steps": count(log.steps_skipped, "step record"),
        "sacct_never": count(log.never_started, "record"),
        "sacct_summary": f"Measured alone, {_events_summary(e)}",
    }


# ---------------------------------------------------------------- your own logs


def own(params: Params, root: Path) -> dict[str, str]:
    """Which logs this build measured and why, and the range their measured inputs give T* and goodput."""
    logs = logs_for(params, root)
    m = full_measurement(params, root)
    if m.failures and m.restart_samples >= 2:
        r = propagate(m.checkpoint_cost_min, m.mtbi_min, m.restart_min,
                      checkpoint_cost_range=m.checkpoint_cost_interval_min, mtbi_range=m.mtbi_interval_min,
                      restart_range=m.restart_interval_min, which=RECOMMENDED_MODEL)
        t_lo, t_hi = r.optimal_interval_range
        g_lo, g_hi = r.goodput_range
        text = (f"Carried through {MODEL_NAMES[RECOMMENDED_MODEL]} with their intervals, the measured C, M and R put "
                f"the best interval between {format_duration(t_lo)} and {format_duration(t_hi)} and the goodput at it "
                f"between {percent(g_lo)} and {percent(g_hi)}.")
    else:
        text = "These logs have too few failures or restarts to give M and R an interval."
    if logs.fleet_pair:
        measured = f"This build measured {logs.steps.name} and {logs.events.name}, the logs {params.source} names."
    else:
        missing = "no step log" if logs.fleet_events is not None else "no logs"
        measured = (f"This build measured the sample logs bundled with the book, {logs.steps.name} and "
                    f"{logs.events.name}: {params.source} names {missing}.")
    return {"own_measured": measured, "own_range_text": text}


def _typed_minutes(minutes: float) -> str:
    """A duration as an inputs file accepts it: minutes to four significant digits ("1.017 min", "4.81 min")."""
    return f"{minutes:.4g} min" if minutes < 1000 else f"{minutes:.0f} min"


def inputs_lines(params: Params, root: Path) -> str:
    """The lines of an inputs file that would plan with what the logs measured (M as a count, C and R with ranges).

    Durations are written in minutes, the form the inputs file reads back exactly (a person's "1 min 1 s" is not).
    """
    m = full_measurement(params, root)
    low_c, high_c = m.checkpoint_cost_interval_min
    low_r, high_r = m.restart_interval_min
    return (f"interruptions: {{count: {m.failures}, window: {m.exposure_min:.0f} min}}\n"
            f"checkpoint_cost: {_typed_minutes(m.checkpoint_cost_min)}\n"
            f"restart: {_typed_minutes(m.restart_min)}\n"
            f"ranges: {{checkpoint_cost: [{_typed_minutes(low_c)}, {_typed_minutes(high_c)}], "
            f"restart: [{_typed_minutes(low_r)}, {_typed_minutes(high_r)}]}}")


#: The bundled data files the page reads, relative to the root.
DATA_FILES = (SAMPLE_STEPS, SAMPLE_EVENTS, SAMPLE_TRUTH, SAMPLE_SACCT, GLM_EVENTS, GLM_STOPS, PUBLISHED_FLEETS)
