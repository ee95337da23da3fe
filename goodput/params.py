"""The inputs: read and check a parameters file such as ``book/params.yml``.

A parameters file is YAML with these keys (durations are strings with a unit)::

    gpus: 16384
    interruptions: {count: 419, window: 54 days}   # or rate_per_gpu_hour: 2.0e-5 | mtbi: 186 min
    checkpoint_cost: 1 min
    slow_checkpoint_cost: 5 min
    restart: 5 min
    price_per_gpu_hour: 2.5
    month: 720 h

and, optionally::

    logs: {steps: steps.csv, events: events.csv}          # or just {events: events.csv}
    ranges: {checkpoint_cost: [45 s, 2 min], restart: [3 min, 8 min], mtbi: [...]}
    drain: 5 min                 # a checkpoint is durable only this long after its snapshot
    persistent: {cost: 5 min, restart: 10 min, every: 4}  # a second, persistent tier
    fast_survives: 0.8           # share of interruptions the fast tier survives (with persistent:)

Exactly one of ``interruptions``, ``rate_per_gpu_hour`` and ``mtbi`` gives the
mean time between interruptions M. Unknown keys, missing keys, unknown units
and impossible values raise :class:`~goodput.errors.InputError`.

A parameters file is data a person typed, so it is read as such (:func:`read_yaml`):
every value is kept as the text that was written and checked by
:mod:`goodput.validate` (``020000`` is twenty thousand, ``4:33:04`` is refused,
not read as sexagesimal); a key given twice, an anchor or alias, a tag, a file that
is not UTF-8 or larger than :data:`MAX_FILE_BYTES` are refused.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import hashlib
import os
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from goodput import validate
from goodput.errors import InputError
from goodput.units import format_duration, parse_duration

#: The worked example shipped with the package (same values as ``book/params.yml``).
WORKED_EXAMPLE = Path(__file__).with_name("worked_example.yml")

#: Largest parameters file read, in bytes: a real one is well under a kilobyte.
MAX_FILE_BYTES = 64 * 1024
#: Deepest nesting of mappings and lists accepted.
MAX_DEPTH = 4

_REQUIRED = ("gpus", "checkpoint_cost", "slow_checkpoint_cost", "restart", "price_per_gpu_hour", "month")
_MTBI_KEYS = ("interruptions", "rate_per_gpu_hour", "mtbi")
_OPTIONAL = ("logs", "ranges", "drain", "persistent", "fast_survives")
_KNOWN = _REQUIRED + _MTBI_KEYS + _OPTIONAL
_INTERRUPTION_KEYS = ("count", "window")
_LOG_KEYS = ("steps", "events")
_RANGE_KEYS = ("checkpoint_cost", "restart", "mtbi")
_PERSISTENT_KEYS = ("cost", "restart", "every")


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
        Where the values came from: a file's name, ``"worked example"``, or a note of overrides.
    path : Path or None
        The parameters file, when the values came from one.
    sha256 : str or None
        SHA-256 of the parameters file's bytes, in hex.
    steps_log, events_log : Path or None
        The job's step and event logs (``logs: {steps: FILE, events: FILE}``),
        relative paths taken from the parameters file's folder.
    ranges : dict of str to (float, float)
        Stated ranges (minutes) of ``checkpoint_cost``, ``restart`` and, when M is
        not given as a count, ``mtbi`` (``ranges: {restart: [3 min, 8 min]}``).
    drain : float
        D: minutes after a (persistent) checkpoint's snapshot until it is durable; 0 for none.
    persistent_cost, persistent_restart : float or None
        C_p and R_p of a persistent tier, when there is one.
    persistent_every : int or None
        n, every n-th checkpoint persistent, when fixed; ``None`` lets the plan choose it.
    fast_survives : float or None
        s, the share of interruptions the fast tier survives (with a persistent tier).
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
    path: Path | None = None
    sha256: str | None = None
    steps_log: Path | None = None
    events_log: Path | None = None
    ranges: dict[str, tuple[float, float]] = dataclasses.field(default_factory=dict)
    drain: float = 0.0
    persistent_cost: float | None = None
    persistent_restart: float | None = None
    persistent_every: int | None = None
    fast_survives: float | None = None

    @property
    def rate_per_gpu_hour(self) -> float:
        """Interruptions per GPU-hour implied by M and the fleet size."""
        return float(rate_from_mtbi(self.mtbi, self.gpus))

    @property
    def tiered(self) -> bool:
        """Whether the inputs describe a drain or a persistent tier (not one immediately safe checkpoint)."""
        return self.drain > 0.0 or self.persistent_cost is not None

    def replace(self, **changes: Any) -> Params:
        """Return a copy with some fields changed (see :func:`dataclasses.replace`)."""
        return dataclasses.replace(self, **changes)

    def without_tiers(self) -> Params:
        """The same inputs with one checkpoint that is safe as soon as it is taken: no drain, no persistent tier."""
        return self.replace(drain=0.0, persistent_cost=None, persistent_restart=None, persistent_every=None,
                            fast_survives=None)


def _suggest(key: str, choices: tuple[str, ...]) -> str:
    close = difflib.get_close_matches(key, choices, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


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


def mtbi_from_rate(rate_per_gpu_hour: Any, gpus: Any) -> Any:
    """M from a per-GPU interruption rate, assuming GPUs fail independently.

    Parameters
    ----------
    rate_per_gpu_hour : float or ndarray
        Interruptions per GPU-hour.
    gpus : int or ndarray
        GPUs in the job; the job is interrupted when any of them is.

    Returns
    -------
    float or ndarray
        Mean time between interruptions of the job in minutes, ``60 / (rate * gpus)``.
    """
    return 60.0 / (rate_per_gpu_hour * gpus)


def rate_from_mtbi(mtbi: Any, gpus: Any) -> Any:
    """The per-GPU interruption rate that gives a job of `gpus` GPUs the mean time M.

    Its own inverse with :func:`mtbi_from_rate`: the same formula, 60 / (M x GPUs),
    also gives the fleet size whose M is `mtbi` at a per-GPU rate (pass the rate as `gpus`).

    Parameters
    ----------
    mtbi : float or ndarray
        M, mean minutes between interruptions of the job.
    gpus : int or ndarray
        GPUs in the job.

    Returns
    -------
    float or ndarray
        Interruptions per GPU-hour, ``60 / (M * gpus)``.
    """
    return 60.0 / (mtbi * gpus)


# --------------------------------------------------------------------------- reading YAML as typed


def read_yaml(text: str, source: str) -> object:
    r"""Parse YAML as data a person typed: every scalar a string, no aliases, no tags, no duplicate keys.

    Parameters
    ----------
    text : str
        The document.
    source : str
        Its name, for messages.

    Returns
    -------
    object
        Nested dicts and lists of strings (an empty value is ``""``).

    Raises
    ------
    InputError
        For invalid YAML, an anchor, alias or tag, a key that is not plain text, a key
        given twice, or nesting deeper than :data:`MAX_DEPTH`.

    Examples
    --------
    >>> read_yaml("gpus: 020000\nrestart: 1:30", "x")
    {'gpus': '020000', 'restart': '1:30'}
    """
    import yaml

    def line(mark: Any) -> str:
        return f"{source}: line {mark.line + 1}" if mark is not None else source

    try:
        depth = 0
        for event in yaml.parse(text, Loader=yaml.BaseLoader):
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                raise InputError(line(event.start_mark), getattr(event, "anchor", None), "plain values: anchors and aliases (& and *) "
                                 "are not accepted in a parameters file")
            tag = getattr(event, "tag", None)
            if tag is not None and not (isinstance(event, yaml.ScalarEvent) and tag == "!"):
                raise InputError(line(event.start_mark), tag, "plain values: tags (!!) are not accepted")
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    raise InputError(line(event.start_mark), f"nesting {depth} deep",
                                     f"at most {MAX_DEPTH} levels of mappings and lists")
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
        return yaml.load(text, Loader=_strict_loader())
    except yaml.YAMLError as exc:
        where = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or "unreadable YAML"
        raise InputError(line(where), problem, "valid YAML") from None


@functools.cache
def _strict_loader() -> type:
    """The YAML loader class of :func:`read_yaml`, built on first use (importing this module does not import YAML)."""
    import yaml

    class StrictLoader(yaml.BaseLoader):
        """BaseLoader (every scalar a string) that refuses a key given twice or a key that is not text."""

        def construct_mapping(self, node: Any, deep: bool = False) -> dict[Hashable, Any]:
            if not isinstance(node, yaml.MappingNode):  # pragma: no cover - the composer only sends mappings here
                raise InputError("parameters", node.id, "a mapping")
            mapping: dict[Hashable, Any] = {}
            for key_node, value_node in node.value:
                where = f"line {key_node.start_mark.line + 1}"
                if not isinstance(key_node, yaml.ScalarNode):
                    raise InputError(where, "a key that is a list or mapping", "a plain key such as 'gpus'")
                key = self.construct_scalar(key_node)
                if key in mapping:
                    raise InputError(where, key, "each key once (this key is given twice)")
                mapping[key] = self.construct_object(value_node, deep=True)
            return mapping

    return StrictLoader


# --------------------------------------------------------------------------- checking the values


def _mapping(value: object, name: str, keys: tuple[str, ...], *, required: tuple[str, ...] = (), shape: str) -> Mapping[str, Any]:
    """Check that `value` is a mapping whose keys are among `keys`, with `required` present."""
    if not isinstance(value, Mapping):
        raise InputError(name, value, shape)
    for key in value:
        if key not in keys:
            raise InputError(f"{name}: key {key!r}", value[key], f"one of {', '.join(keys)}{_suggest(str(key), keys)}")
    for key in required:
        if key not in value:
            raise InputError(f"{name}.{key}", None, f"a value (the key is missing): {shape}")
    return value


def params_from_mapping(
    data: object, source: str = "parameters", base: Path | None = None, *, path: Path | None = None,
    sha256: str | None = None,
) -> Params:
    """Check a mapping of raw values (as read from YAML, or Python values) and build :class:`Params`.

    Parameters
    ----------
    data : object
        The parsed YAML document; must be a mapping of the documented keys.
    source : str, optional
        Where the mapping came from, kept in :attr:`Params.source`.
    base : Path, optional
        Folder that relative log paths are taken from (the parameters file's folder).
    path : Path, optional
        The parameters file, kept in :attr:`Params.path`.
    sha256 : str, optional
        The hash of the file's bytes, kept in :attr:`Params.sha256`.

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
        shown = "an empty file" if data in (None, "") else type(data).__name__
        raise InputError(source, shown, "a mapping of keys such as 'gpus: 16384'")
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
            ", ".join(given) if given else "none of them",
            "exactly one of interruptions, rate_per_gpu_hour or mtbi",
        )

    gpus = validate.whole(data["gpus"], "gpus")
    count: int | None = None
    window: float | None = None
    how = given[0]
    if how == "interruptions":
        spec = _mapping(data["interruptions"], "interruptions", _INTERRUPTION_KEYS, required=_INTERRUPTION_KEYS,
                        shape="a mapping {count: N, window: DURATION}")
        count = validate.whole(spec["count"], "interruptions.count")
        window = parse_duration(spec["window"], "interruptions.window")
        mtbi = mtbi_from_count(count, window)
    elif how == "rate_per_gpu_hour":
        mtbi = float(mtbi_from_rate(validate.positive(data["rate_per_gpu_hour"], "rate_per_gpu_hour"), gpus))
    else:
        mtbi = parse_duration(data["mtbi"], "mtbi")

    steps_log = events_log = None
    if "logs" in data:
        spec = _mapping(data["logs"], "logs", _LOG_KEYS, required=("events",),
                        shape="a mapping {steps: FILE, events: FILE} (steps optional)")
        logs: dict[str, Path] = {}
        for key in _LOG_KEYS:
            if key in spec:
                if not isinstance(spec[key], str) or not spec[key].strip():
                    raise InputError(f"logs.{key}", spec[key], "a file path")
                logs[key] = (base / spec[key]) if base else Path(spec[key])
        steps_log, events_log = logs.get("steps"), logs["events"]

    ranges: dict[str, tuple[float, float]] = {}
    if "ranges" in data:
        spec = _mapping(data["ranges"], "ranges", _RANGE_KEYS, shape=f"a mapping of {', '.join(_RANGE_KEYS)} to [LOW, HIGH]")
        for key, pair in spec.items():
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

    checkpoint_cost = parse_duration(data["checkpoint_cost"], "checkpoint_cost")
    slow_checkpoint_cost = parse_duration(data["slow_checkpoint_cost"], "slow_checkpoint_cost")
    if slow_checkpoint_cost < checkpoint_cost:  # the book sets it beside C, and as a persistent tier's C_p >= C
        raise InputError("slow_checkpoint_cost", data["slow_checkpoint_cost"],
                         f"a checkpoint no faster than checkpoint_cost ({format_duration(checkpoint_cost)}): the "
                         "slow one is the synchronous write that the fast checkpoint replaces")
    restart = parse_duration(data["restart"], "restart")
    drain = parse_duration(data["drain"], "drain", allow_zero=True) if "drain" in data else 0.0
    persistent_cost = persistent_restart = None
    persistent_every: int | None = None
    if "persistent" in data:
        spec = _mapping(data["persistent"], "persistent", _PERSISTENT_KEYS, required=("cost",),
                        shape="a mapping {cost: DURATION, restart: DURATION, every: N} (restart and every optional)")
        persistent_cost, persistent_restart, persistent_every = tier_inputs(
            checkpoint_cost, restart, spec["cost"], spec.get("restart"), spec.get("every"), prefix="persistent.",
            parse=lambda value, name: parse_duration(value, name),
        )
    fast_survives = None
    if "fast_survives" in data:
        if persistent_cost is None:
            raise InputError("fast_survives", data["fast_survives"],
                             "a persistent tier as well (persistent: {cost: ...}): the share only matters with two tiers")
        fast_survives = validate.share(data["fast_survives"], "fast_survives")
    elif persistent_cost is not None:
        raise InputError("fast_survives", None,
                         "a value with a persistent tier: the share of interruptions the fast tier survives, 0 to 1")

    return Params(
        gpus=gpus,
        mtbi=mtbi,
        mtbi_source=how,
        checkpoint_cost=checkpoint_cost,
        slow_checkpoint_cost=slow_checkpoint_cost,
        restart=restart,
        price_per_gpu_hour=validate.positive(data["price_per_gpu_hour"], "price_per_gpu_hour"),
        month=parse_duration(data["month"], "month"),
        interruption_count=count,
        window=window,
        source=source,
        path=path,
        sha256=sha256,
        steps_log=steps_log,
        events_log=events_log,
        ranges=ranges,
        drain=drain,
        persistent_cost=persistent_cost,
        persistent_restart=persistent_restart,
        persistent_every=persistent_every,
        fast_survives=fast_survives,
    )


def tier_inputs(
    checkpoint_cost: float, restart: float, cost: object, persistent_restart: object, every: object, *, prefix: str,
    parse: Any,
) -> tuple[float, float, int | None]:
    """Check a persistent tier's cost, restart and cadence against the fast tier's.

    Parameters
    ----------
    checkpoint_cost, restart : float
        C and R of the fast tier, minutes.
    cost, persistent_restart, every : object
        C_p, R_p (``None``: the same as R) and n (``None``: to be chosen) as given.
    prefix : str
        How the inputs are named in messages (``"persistent."`` or ``"--persistent-"``).
    parse : callable
        ``parse(value, name)`` reading a duration in minutes.

    Returns
    -------
    tuple of (float, float, int or None)
        C_p, R_p and n.

    Raises
    ------
    InputError
        If C_p < C, R_p < R, or n is not a whole number of at least 1.
    """
    cost_p = float(parse(cost, f"{prefix}cost"))
    if cost_p < checkpoint_cost:
        raise InputError(f"{prefix}cost", cost, f"a persistent checkpoint no cheaper than the fast one ({format_duration(checkpoint_cost)})")
    restart_p = restart if persistent_restart is None else float(parse(persistent_restart, f"{prefix}restart"))
    if restart_p < restart:
        raise InputError(f"{prefix}restart", persistent_restart,
                         f"a persistent restart no shorter than the fast restart ({format_duration(restart)})")
    from goodput.tiers import MAX_EVERY

    n = None if every is None else validate.whole(every, f"{prefix}every")
    if n is not None and n > MAX_EVERY:
        raise InputError(f"{prefix}every", every, f"a whole number from 1 to {MAX_EVERY:,}")
    return cost_p, restart_p, n


def load_params(path: str | os.PathLike[str] | None = None) -> Params:
    """Read a parameters file.

    Parameters
    ----------
    path : str or path-like, optional
        The YAML file. ``None`` reads the worked example shipped with the package.

    Returns
    -------
    Params
        The checked inputs, with :attr:`Params.source` the file's name (``"worked example"``
        for the shipped one), :attr:`Params.path` and :attr:`Params.sha256` set.

    Raises
    ------
    InputError
        If the file cannot be read, is too large, is not UTF-8 or valid YAML, or its values are not usable.
    """
    if path is not None and not str(path).strip():
        raise InputError("params file", str(path), "the name of a parameters file (YAML)")
    file = WORKED_EXAMPLE if path is None else Path(path)
    try:
        with open(file, "rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise InputError("params file", str(file), f"a readable file ({exc.strerror or exc})") from None
    if len(raw) > MAX_FILE_BYTES:
        raise InputError("params file", str(file), f"a parameters file of at most {MAX_FILE_BYTES // 1024} KB")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise InputError(f"{file}: line {line}", raw[exc.start : exc.start + 4], "UTF-8 text (this byte is not UTF-8)") from None
    source = "worked example" if path is None else file.name
    data = read_yaml(text, source)
    return params_from_mapping(
        data, source=source, base=file.resolve().parent, path=file, sha256=hashlib.sha256(raw).hexdigest()
    )
