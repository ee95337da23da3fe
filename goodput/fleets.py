"""Published interruption rates of large training runs, and what each implies for another fleet.

The records are the book's table (``book/data/fleets/published-fleets.csv``, described in the README beside it). A
record with a count, GPUs and a window gets its rate per GPU-hour ``count / (GPUs x window in hours)`` with the exact
(Garwood) Poisson interval (:func:`rate_interval`); one without a count (a stated frequency, a rate reported by someone
else) keeps the table's rate and has no interval. M at another size is ``60 / (rate x GPUs)`` minutes, assuming GPUs
fail independently. Records count different things (:attr:`PublishedFleet.kind`). Numbers only:
:mod:`goodput.pages.inputs` words them.
"""

from __future__ import annotations

import csv
import math
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from goodput import validate
from goodput.errors import InputError
from goodput.params import mtbi_from_rate
from goodput.uncertainty import poisson_interval

#: The columns the table must have (others are ignored).
COLUMNS = (
    "fleet", "gpus", "gpu_type", "window_start", "window_end", "window_days", "unplanned", "planned",
    "what_counts", "source_key", "source_location", "grade", "rate_per_gpu_hour", "rate_basis", "note",
)  # fmt: skip

#: What a record counts, in the order the book lists them:
#: interruptions of one job, counted; a frequency stated in words; a rate per node-day reported
#: for a whole cluster; hardware events counted on a whole machine (not interruptions of a job).
KINDS = ("job interruptions", "stated frequency", "cluster rate", "machine-wide events")

#: Grades of a record: read in the primary source, only seen quoted, or arithmetic from primary figures.
GRADES = ("P", "S", "D")

#: Largest table read, in bytes: the shipped one is a few kilobytes.
MAX_FILE_BYTES = 1024 * 1024

#: A GPU model in the ``gpu_type`` column: a letter and two or three digits (A100, H100, V100).
_GPU_MODEL = re.compile(r"\b([A-Z]\d{2,3})\b")


@dataclass(frozen=True)
class PublishedFleet:
    """One published record of a fleet's interruptions, fields as the table gives them.

    None where the source gives no value; dates are ISO; `source_keys` are BibTeX keys of ``book/references.bib``;
    `grade` is P (read in the primary source), S (only seen quoted) or D (arithmetic from primary figures); `table_rate`
    is the table's rounded rate, `rate_basis` ``"count"`` or how it was stated.
    """

    fleet: str
    gpus: int | None
    gpu_type: str
    window_start: str | None
    window_end: str | None
    window_days: float | None
    unplanned: int | None
    planned: int | None
    what_counts: str
    source_keys: tuple[str, ...]
    grade: str
    table_rate: float
    rate_basis: str
    note: str

    @property
    def counted(self) -> bool:
        """Whether the rate comes from a count over a known number of GPU-hours (and so has a counting interval)."""
        return (self.rate_basis == "count" and self.unplanned is not None and self.gpus is not None
                and self.window_days is not None)

    @property
    def gpu_hours(self) -> float | None:
        """GPU-hours observed, ``GPUs x window_days x 24``; ``None`` without GPUs or a window."""
        if self.gpus is None or self.window_days is None:
            return None
        return self.gpus * self.window_days * 24.0

    @property
    def rate(self) -> float:
        """Unplanned interruptions per GPU-hour: ``count / GPU-hours`` where counted, else the table's rate."""
        if self.counted:
            assert self.unplanned is not None and self.gpu_hours is not None
            return self.unplanned / self.gpu_hours
        return self.table_rate

    @property
    def lower_bound(self) -> bool:
        """Whether the table's note calls the count a lower bound (events may have gone unrecorded)."""
        return "lower bound" in self.note.lower()

    @property
    def kind(self) -> str:
        """What the record counts, one of :data:`KINDS`, from the table's ``rate_basis`` and ``what_counts``."""
        if self.rate_basis.startswith("stated frequency"):
            return "stated frequency"
        if self.rate_basis.startswith("published rate"):
            return "cluster rate"
        if "not job interruptions" in self.what_counts:
            return "machine-wide events"
        return "job interruptions"

    @property
    def gpu_model(self) -> str | None:
        """The GPU model named in ``gpu_type`` (``"A100"``, ``"H100"``), or ``None`` where it names none."""
        found = _GPU_MODEL.search(self.gpu_type)
        return found.group(1) if found else None

    def rate_interval(self, confidence: float = 0.95) -> tuple[float, float] | None:
        """The exact Poisson interval of the rate (see :func:`rate_interval`); ``None`` where nothing was counted."""
        if not self.counted:
            return None
        assert self.unplanned is not None and self.gpu_hours is not None
        return rate_interval(self.unplanned, self.gpu_hours, confidence)

    def mtbi_at(self, gpus: float) -> float:
        """M in minutes this record's rate implies for a job of `gpus` GPUs: ``60 / (rate x gpus)``."""
        return float(mtbi_from_rate(self.rate, validate.positive(gpus, "gpus")))

    def mtbi_interval_at(self, gpus: float, confidence: float = 0.95) -> tuple[float, float] | None:
        """The interval of M at `gpus` GPUs from the rate's counting interval (ends swapped); ``None`` if uncounted.

        For a count of zero the rate's lower end is 0, so M's upper end is infinite.
        """
        interval = self.rate_interval(confidence)
        if interval is None:
            return None
        low, high = interval
        gpus = validate.positive(gpus, "gpus")
        return float(mtbi_from_rate(high, gpus)), (math.inf if low == 0.0 else float(mtbi_from_rate(low, gpus)))


def rate_interval(count: int, gpu_hours: float, confidence: float = 0.95) -> tuple[float, float]:
    """Exact (Garwood) two-sided interval of a rate per GPU-hour from a count over GPU-hours.

    The reciprocals of :func:`goodput.uncertainty.poisson_interval` for GPU-hours per interruption, ``chi2(a/2; 2k) /
    2E`` and ``chi2(1 - a/2; 2k + 2) / 2E``; the low end is 0 for a count of zero.

    >>> low, high = rate_interval(419, 16384 * 54 * 24)
    >>> f"{low:.3g} {high:.3g}"
    '1.79e-05 2.17e-05'
    """
    long_end, short_end = poisson_interval(count, gpu_hours, confidence)
    return (0.0 if math.isinf(short_end) else 1.0 / short_end), 1.0 / long_end


def _count(value: str, name: str) -> int | None:
    """A whole number of zero or more, or ``None`` for an empty cell."""
    return validate.whole(value.strip(), name, 0) if value.strip() else None


def read_published_fleets(path: str | os.PathLike[str]) -> tuple[PublishedFleet, ...]:
    """Read the table of published fleets, one record per row in the file's order.

    Raises InputError when the file cannot be read, lacks a column of :data:`COLUMNS`, has no rows, or a row's GPUs,
    window, counts or rate are not numbers of the right kind.
    """
    file = Path(path)
    try:
        raw = file.read_bytes()
    except OSError as exc:
        raise InputError("published fleets", str(file), f"a readable file ({exc.strerror or exc})") from None
    if len(raw) > MAX_FILE_BYTES:
        raise InputError("published fleets", str(file), f"a table of at most {MAX_FILE_BYTES // 1024} KB")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError("published fleets", str(file), "UTF-8 text") from None
    reader = csv.DictReader(text.splitlines())
    missing = [c for c in COLUMNS if c not in (reader.fieldnames or ())]
    if missing:
        raise InputError(f"{file.name}: columns", ", ".join(missing), f"the columns {', '.join(COLUMNS)}")
    fleets = []
    for line, row in enumerate(reader, start=2):
        where = f"{file.name}: line {line}"
        grade = row["grade"].strip()
        if grade not in GRADES:
            raise InputError(f"{where}: grade", grade, "one of " + ", ".join(GRADES))
        fleets.append(PublishedFleet(
            fleet=row["fleet"].strip(),
            gpus=_count(row["gpus"], f"{where}: gpus"),
            gpu_type=row["gpu_type"].strip(),
            window_start=row["window_start"].strip() or None,
            window_end=row["window_end"].strip() or None,
            window_days=validate.positive(row["window_days"].strip(), f"{where}: window_days")
            if row["window_days"].strip() else None,
            unplanned=_count(row["unplanned"], f"{where}: unplanned"),
            planned=_count(row["planned"], f"{where}: planned"),
            what_counts=row["what_counts"].strip(),
            source_keys=tuple(k.strip() for k in row["source_key"].split(";") if k.strip()),
            grade=grade,
            table_rate=validate.positive(row["rate_per_gpu_hour"], f"{where}: rate_per_gpu_hour"),
            rate_basis=row["rate_basis"].strip(),
            note=row["note"].strip(),
        ))
    if not fleets:
        raise InputError("published fleets", str(file), "at least one row")
    return tuple(fleets)


def extremes(fleets: Sequence[PublishedFleet]) -> tuple[PublishedFleet, PublishedFleet]:
    """The records with the lowest and the highest rate (the first in the table's order on a tie)."""
    if not fleets:
        raise InputError("published fleets", "none", "at least one record")
    return min(fleets, key=lambda f: f.rate), max(fleets, key=lambda f: f.rate)
