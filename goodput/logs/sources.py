"""What the logs chapter reads, already read and measured (:func:`goodput.book.data.logs_sources` fills it)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from goodput.fleets import PublishedFleet
from goodput.logs.events import EventMeasurement
from goodput.logs.measure import Measurement
from goodput.logs.read import EventLog, StepLog
from goodput.logs.sacct import SacctLog
from goodput.logs.samples import SampleTruth


@dataclass(frozen=True)
class Sources:
    """What the chapter reads, already read and measured (:func:`goodput.book.data.logs_sources`).

    ``which`` is ``"fleet"`` (the step and event logs the inputs file names), ``"sample"`` (those are the bundled
    sample logs), ``"events"`` (an event log alone: the sections that need steps use the sample logs and say so),
    ``"none"`` (no logs: likewise) or ``"unreadable"`` (the logs the inputs name are refused, with ``error`` saying
    why: the bundled sample logs are measured); ``measured``
    is the step and event logs measured (first-order prediction), ``sample`` the bundled sample logs
    measured, ``fleet_events`` the event log the inputs name measured alone (the sample's when they
    name none), ``glm_clear`` GLM-130B with its two ambiguous stops counted as planned.
    """

    which: str
    steps_path: Path
    events_path: Path
    steps: StepLog
    events: EventLog
    measured: Measurement
    sample: Measurement
    truth: SampleTruth
    fleet_events_path: Path | None
    fleet_events: EventMeasurement
    sample_events: EventMeasurement
    glm: EventMeasurement
    glm_clear: EventMeasurement
    glm_record: PublishedFleet
    glm_kinds: dict[str, int]
    sacct: SacctLog
    sacct_events: EventMeasurement
    error: str = ""

    @property
    def own(self) -> Measurement | EventMeasurement:
        """What the logs measured that an inputs file may plan with.

        The fleet's event log where it names one alone (M and R, no C), else the step and event logs measured.
        """
        return self.fleet_events if self.which == "events" else self.measured
