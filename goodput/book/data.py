"""The data files the book ships and the logs an inputs file names, read for the chapters that quote them.

The chapter's first cell reads through here and hands what it read to its page's ``build``; the page modules (words)
never open a file. Paths are :mod:`goodput.book.paths`'s.
"""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from goodput.book.paths import (
    GLM_EVENTS,
    GLM_STOPS,
    PUBLISHED_FLEETS,
    SAMPLE_EVENTS,
    SAMPLE_SACCT,
    SAMPLE_STEPS,
    SAMPLE_TRUTH,
    book_data,
)
from goodput.errors import InputError
from goodput.fleets import PublishedFleet, read_published_fleets
from goodput.logs.events import EventMeasurement, as_planned, measure_events
from goodput.logs.measure import measure_explained
from goodput.logs.read import read_events, read_steps
from goodput.logs.sacct import read_sacct
from goodput.logs.samples import read_truth
from goodput.logs.sources import Sources
from goodput.params import Params

Start = str | os.PathLike[str] | None


def published_fleets(start: Start = None) -> tuple[PublishedFleet, ...]:
    """The published interruption records (:data:`goodput.book.paths.PUBLISHED_FLEETS`)."""
    return read_published_fleets(book_data(PUBLISHED_FLEETS, start))


def _glm_clear(events: Path, stops: Path) -> EventMeasurement:
    """GLM-130B with the two ambiguous stops counted as planned: the eleven clear failures."""
    log = read_events(events)
    table = pd.read_csv(stops, dtype=str, keep_default_na=False)
    ambiguous = table[table["kind"] == "ambiguous"]
    when = [row["interrupted_at"] or row["restarted_at"] for _, row in ambiguous.iterrows()]
    origin = pd.Timestamp(log.origin_us, unit="us", tz="UTC")
    minutes = [(pd.Timestamp(w).tz_convert("UTC") - origin) / pd.Timedelta(minutes=1) for w in when]
    return measure_events(as_planned(log, minutes))


def logs_sources(params: Params, start: Start = None) -> Sources:
    """The logs the build measures (the inputs file's, else the bundled sample logs) and the data the chapter quotes."""
    sample_steps, sample_events = book_data(SAMPLE_STEPS, start), book_data(SAMPLE_EVENTS, start)
    named = params.events_log.resolve() if params.events_log is not None else None
    which, error = "none", ""
    steps, events = sample_steps, sample_events
    fleet_events: EventMeasurement | None = None
    try:
        if params.steps_log is not None and named is not None:
            steps, events = params.steps_log.resolve(), named
            which = "sample" if (steps, events) == (sample_steps, sample_events) else "fleet"
            step_log, event_log = read_steps(steps), read_events(events)
            measured = measure_explained(step_log, event_log)
        elif named is not None:
            which, fleet_events = "events", measure_events(named)
    except InputError as problem:  # the logs the inputs file names cannot be read: say so, measure the samples
        which, error, named = "unreadable", str(problem), None
        steps, events = sample_steps, sample_events
    if which not in ("sample", "fleet"):
        step_log, event_log = read_steps(steps), read_events(events)
        measured = measure_explained(step_log, event_log)
    sample = measured if (steps, events) == (sample_steps, sample_events) else measure_explained(sample_steps, sample_events)
    sample_alone = measure_events(sample_events)
    glm_events, glm_stops = book_data(GLM_EVENTS, start), book_data(GLM_STOPS, start)
    glm_record = next(f for f in published_fleets(start) if f.fleet.startswith("GLM-130B"))
    sacct = book_data(SAMPLE_SACCT, start)
    kinds = pd.read_csv(glm_stops, dtype=str, keep_default_na=False)["kind"].value_counts()
    return Sources(
        which=which, steps_path=steps, events_path=events, steps=step_log, events=event_log,
        measured=measured, sample=sample, truth=read_truth(book_data(SAMPLE_TRUTH, start)),
        fleet_events_path=named, fleet_events=fleet_events or (measure_events(named) if named is not None
                                                               else sample_alone), error=error,
        sample_events=sample_alone, glm=measure_events(glm_events), glm_clear=_glm_clear(glm_events, glm_stops),
        glm_record=glm_record, glm_kinds={str(k): int(n) for k, n in kinds.items()}, sacct=read_sacct(sacct),
        sacct_events=measure_events(sacct),
    )
