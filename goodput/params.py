"""The inputs: read and check a parameters file such as ``book/params.yml``.

A parameters file is YAML with these keys (durations are strings with a unit)::

    gpus: 16384
    interruptions: {count: 419, window: 54 days}   # or rate_per_gpu_hour: 2.0e-5 | mtbi: 186 min
    checkpoint_cost: 1 min
    slow_checkpoint_cost: 5 min
    restart: 5 min
    price_per_gpu_hour: 2.5
    month: 720 h

Exactly one of ``interruptions``, ``rate_per_gpu_hour`` and ``mtbi`` gives the
mean time between interruptions M. Unknown keys, missing keys, unknown units
and impossible values raise :class:`~goodput.errors.InputError`.
"""

from __future__ import annotations

import dataclasses
import difflib
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from goodput.errors import InputError
from goodput.units import parse_duration, positive_number

#: The worked example shipped with the package (same values as ``book/params.yml``).
WORKED_EXAMPLE = Path(__file__).with_name("worked_example.yml")

#: Environment variable naming the parameters file the book is built from.
PARAMS_ENV = "GOODPUT_PARAMS"

_REQUIRED = ("gpus", "checkpoint_cost", "slow_checkpoint_cost", "restart", "price_per_gpu_hour", "month")
_MTBI_KEYS = ("interruptions", "rate_per_gpu_hour", "mtbi")
_OPTIONAL = ("logs", "ranges")
_KNOWN = _REQUIRED + _MTBI_KEYS + _OPTIONAL
_INTERRUPTION_KEYS = ("count", "window")
_LOG_KEYS = ("steps", "events")
_RANGE_KEYS = ("checkpoint_cost", "restart", "mtbi")


@dataclass(frozen=True)
class Params:
    """One fleet's inputs, in minutes.

    Parameters
    ----------
    gpus : int
        Number of GPUs the job runs on.
    mtbi : float
        Mean time between interruptions of the whole job, M, in minutes.
    mtbi_source : str
        How M was given: ``"interruptions"`` (a count over a window),
        ``"rate_per_gpu_hour"`` or ``"mtbi"``.
    checkpoint_cost : float
        C: minutes of lost progress per checkpoint with the fast (local-first) path.
    slow_checkpoint_cost : float
        C for the comparison case: a synchronous write to shared storage.
    restart : float
        R: minutes from an interruption to the first step of the next attempt.
    price_per_gpu_hour : float
        Price of one GPU-hour in US dollars, used only to express capacity.
    month : float
        Length of the accounting month in minutes.
    interruption_count : int or None
        The count of unexpected interruptions, when M was given that way.
    window : float or None
        The observation window in minutes, when M was given that way.
    source : str
        Where the values came from (a file path, or a note of command-line overrides).
    steps_log, events_log : Path or None
        The job's step and event logs (``logs: {steps: FILE, events: FILE}``),
        relative paths taken from the parameters file's folder.
    ranges : dict of str to (float, float)
        Stated ranges (minutes) of ``checkpoint_cost``, ``restart`` and, when M is
        not given as a count, ``mtbi`` (``ranges: {restart: [3 min, 8 min]}``).
    """

    gpus: int
    mtbi: float
    mtbi_source: str
    checkpoint_cost: float
    slow_checkpoint_cost: float
    restart: float
    price_per_gpu_hour: float
    month: float
    interruption_count: int | None = None
    window: float | None = None
    source: str = "worked example"
    steps_log: Path | None = None
    events_log: Path | None = None
    ranges: dict[str, tuple[float, float]] = dataclasses.field(default_factory=dict)

    @property
    def rate_per_gpu_hour(self) -> float:
        """Interruptions per GPU-hour implied by M and the fleet size."""
        return rate_from_mtbi(self.mtbi, self.gpus)

    def describe(self) -> list[tuple[str, str]]:
        """The inputs as (key, value) rows for a table of what a book or plan was built from."""
        from goodput.units import format_minutes

        how = {
            "interruptions": f"{self.interruption_count} in {(self.window or 0) / (24 * 60):g} days",
            "rate_per_gpu_hour": f"{self.rate_per_gpu_hour:.3g}",
            "mtbi": format_minutes(self.mtbi),
        }[self.mtbi_source]
        rows = [
            ("params file", self.source),
            ("gpus", f"{self.gpus:,}"),
            (self.mtbi_source, how),
            ("mean time between interruptions, M (derived)", format_minutes(self.mtbi)),
            ("checkpoint_cost", format_minutes(self.checkpoint_cost)),
            ("slow_checkpoint_cost", format_minutes(self.slow_checkpoint_cost)),
            ("restart", format_minutes(self.restart)),
            ("price_per_gpu_hour", f"${self.price_per_gpu_hour:g}"),
            ("month", format_minutes(self.month)),
        ]
        rows += [
            (f"ranges.{key}", f"{format_minutes(low)} to {format_minutes(high)}")
            for key, (low, high) in self.ranges.items()
        ]
        if self.steps_log is not None and self.events_log is not None:
            rows += [("logs.steps", self.steps_log.name), ("logs.events", self.events_log.name)]
        return rows

    def describe_mtbi(self) -> str:
        """Say how M was given, for a table of inputs with their sources."""
        if self.mtbi_source == "interruptions" and self.interruption_count and self.window:
            days = self.window / (24 * 60)
            return f"{self.interruption_count} interruptions in {days:g} days ({self.source})"
        if self.mtbi_source == "rate_per_gpu_hour":
            return f"rate_per_gpu_hour x {self.gpus:,} GPUs ({self.source})"
        return f"mtbi ({self.source})"

    def replace(self, **changes: Any) -> Params:
        """Return a copy with some fields changed (see :func:`dataclasses.replace`)."""
        return dataclasses.replace(self, **changes)


def _suggest(key: str, choices: tuple[str, ...]) -> str:
    close = difflib.get_close_matches(key, choices, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _positive_int(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value) or value < 1:
        raise InputError(name, value, "a whole number of at least 1")
    return int(value)


def mtbi_from_count(count: int, window: float) -> float:
    """M from a count of interruptions over an observation window.

    Parameters
    ----------
    count : int
        Unexpected interruptions observed.
    window : float
        Length of the observation, in minutes.

    Returns
    -------
    float
        Mean time between interruptions in minutes, ``window / count``.
    """
    return window / count


def mtbi_from_rate(rate_per_gpu_hour: float, gpus: int) -> float:
    """M from a per-GPU interruption rate, assuming GPUs fail independently.

    Parameters
    ----------
    rate_per_gpu_hour : float
        Interruptions per GPU-hour.
    gpus : int
        GPUs in the job; the job is interrupted when any of them is.

    Returns
    -------
    float
        Mean time between interruptions of the job in minutes, ``60 / (rate * gpus)``.
    """
    return 60.0 / (rate_per_gpu_hour * gpus)


def rate_from_mtbi(mtbi: float, gpus: int) -> float:
    """The per-GPU interruption rate that gives a job of `gpus` GPUs the mean time M; inverse of :func:`mtbi_from_rate`.

    Parameters
    ----------
    mtbi : float
        M, mean minutes between interruptions of the job.
    gpus : int
        GPUs in the job.

    Returns
    -------
    float
        Interruptions per GPU-hour, ``60 / (M * gpus)``.
    """
    return 60.0 / (mtbi * gpus)


def params_from_mapping(data: object, source: str = "parameters", base: Path | None = None) -> Params:
    """Check a mapping of raw values (as read from YAML) and build :class:`Params`.

    Parameters
    ----------
    data : object
        The parsed YAML document; must be a mapping of the documented keys.
    source : str, optional
        Where the mapping came from, kept in :attr:`Params.source`.
    base : Path, optional
        Folder that relative log paths are taken from (the parameters file's folder).

    Returns
    -------
    Params
        The checked inputs.

    Raises
    ------
    InputError
        For an unknown or missing key, an unknown unit, or an impossible value.
    """
    if not isinstance(data, Mapping):
        raise InputError(source, type(data).__name__, "a mapping of keys such as 'gpus: 16384'")
    for key in data:
        if key not in _KNOWN:
            raise InputError(f"{source}: key {key!r}", data[key], f"one of {', '.join(_KNOWN)}{_suggest(str(key), _KNOWN)}")
    for key in _REQUIRED:
        if key not in data:
            raise InputError(f"{source}: key {key!r}", None, "a value (the key is missing)")
    given = [key for key in _MTBI_KEYS if key in data]
    if len(given) != 1:
        raise InputError(
            f"{source}: mean time between interruptions",
            given or None,
            "exactly one of interruptions, rate_per_gpu_hour or mtbi",
        )

    gpus = _positive_int(data["gpus"], "gpus")
    count: int | None = None
    window: float | None = None
    how = given[0]
    if how == "interruptions":
        spec = data["interruptions"]
        if not isinstance(spec, Mapping) or set(spec) != set(_INTERRUPTION_KEYS):
            raise InputError("interruptions", spec, "a mapping {count: N, window: DURATION}")
        count = _positive_int(spec["count"], "interruptions.count")
        window = parse_duration(spec["window"], "interruptions.window")
        mtbi = mtbi_from_count(count, window)
    elif how == "rate_per_gpu_hour":
        mtbi = mtbi_from_rate(positive_number(data["rate_per_gpu_hour"], "rate_per_gpu_hour"), gpus)
    else:
        mtbi = parse_duration(data["mtbi"], "mtbi")

    steps_log = events_log = None
    if "logs" in data:
        spec = data["logs"]
        if not isinstance(spec, Mapping) or set(spec) != set(_LOG_KEYS):
            raise InputError("logs", spec, "a mapping {steps: FILE, events: FILE}")
        for key in _LOG_KEYS:
            if not isinstance(spec[key], str) or not spec[key].strip():
                raise InputError(f"logs.{key}", spec[key], "a file path")
        steps_log = (base / spec["steps"]) if base else Path(spec["steps"])
        events_log = (base / spec["events"]) if base else Path(spec["events"])

    ranges: dict[str, tuple[float, float]] = {}
    if "ranges" in data:
        spec = data["ranges"]
        if not isinstance(spec, Mapping):
            raise InputError("ranges", spec, f"a mapping of {', '.join(_RANGE_KEYS)} to [LOW, HIGH]")
        for key, pair in spec.items():
            if key not in _RANGE_KEYS:
                raise InputError(f"ranges: key {key!r}", pair, f"one of {', '.join(_RANGE_KEYS)}{_suggest(str(key), _RANGE_KEYS)}")
            if not isinstance(pair, (list, tuple)) or len(pair) != 2:
                raise InputError(f"ranges.{key}", pair, "a pair [LOW, HIGH] of durations")
            if key == "mtbi" and how == "interruptions":
                raise InputError(
                    "ranges.mtbi", pair, "no stated range when M is given as a count (its interval comes from the count)"
                )
            low, high = (parse_duration(v, f"ranges.{key}") for v in pair)
            if low > high:
                raise InputError(f"ranges.{key}", pair, "LOW no greater than HIGH")
            ranges[str(key)] = (low, high)

    return Params(
        gpus=gpus,
        mtbi=mtbi,
        mtbi_source=how,
        checkpoint_cost=parse_duration(data["checkpoint_cost"], "checkpoint_cost"),
        slow_checkpoint_cost=parse_duration(data["slow_checkpoint_cost"], "slow_checkpoint_cost"),
        restart=parse_duration(data["restart"], "restart"),
        price_per_gpu_hour=positive_number(data["price_per_gpu_hour"], "price_per_gpu_hour"),
        month=parse_duration(data["month"], "month"),
        interruption_count=count,
        window=window,
        source=source,
        steps_log=steps_log,
        events_log=events_log,
        ranges=ranges,
    )


def load_params(path: str | os.PathLike[str] | None = None) -> Params:
    """Read a parameters file.

    Parameters
    ----------
    path : str or path-like, optional
        The YAML file. ``None`` reads the worked example shipped with the package.

    Returns
    -------
    Params
        The checked inputs, with :attr:`Params.source` set to the path.

    Raises
    ------
    InputError
        If the file cannot be read, is not valid YAML, or its values are not usable.
    """
    import yaml

    file = WORKED_EXAMPLE if path is None else Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError("params file", str(file), f"a readable file ({exc.strerror or exc})") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        where = getattr(exc, "problem_mark", None)
        line = f" (line {where.line + 1})" if where is not None else ""
        raise InputError("params file", str(file), f"valid YAML{line}") from None
    return params_from_mapping(
        data, source="worked example" if path is None else str(file), base=file.resolve().parent
    )


def book_params_path() -> Path:
    """The parameters file the book is built from.

    Returns
    -------
    Path
        ``$GOODPUT_PARAMS`` when set, else ``params.yml`` beside the chapters
        (``book/params.yml``).
    """
    env = os.environ.get(PARAMS_ENV)
    if env:
        return Path(env).resolve()
    return Path(__file__).resolve().parent.parent / "book" / "params.yml"


def book_params() -> Params:
    """Read the parameters the book is built from (see :func:`book_params_path`).

    Returns
    -------
    Params
        The checked inputs.
    """
    path = book_params_path()
    params = load_params(path)
    root = Path(__file__).resolve().parent.parent
    if path.is_relative_to(root):
        params = params.replace(source=str(path.relative_to(root)))
    return params
