"""The inputs: read and check a parameters file such as ``book/params.yml``.

YAML; durations are strings with a unit::

    gpus: 16384
    interruptions: {count: 419, window: 54 days}   # or rate_per_gpu_hour: 2.0e-5 | mtbi: 186 min
    checkpoint_cost: 1 min
    slow_checkpoint_cost: 5 min
    restart: 5 min
    price_per_gpu_hour: 2.5
    month: 720 h
    # optional:
    logs: {steps: steps.csv, events: events.csv}
    ranges: {checkpoint_cost: [45 s, 2 min], fast_survives: [0.6, 0.9]}
    drain: 5 min                                    # durable this long after the snapshot
    persistent: {cost: 5 min, restart: 10 min, every: 4}
    fast_survives: 0.8
    # what a planner knows, each exclusive with the duration it derives (see derive; a C typed beside a snapshot is
    # the stall measured at a checkpoint, the snapshot giving D and the copy alone):
    checkpoint: {size: 2.3 TB}   # or {parameters: 530e9, bytes_per_parameter: 12}
    gpus_per_node: 8
    storage: {write_bandwidth: 20 Gb/s, read_bandwidth: 40 GB/s, efficiency: 0.16, price: 1500}
    snapshot: {bandwidth: 25 GB/s, host_memory: 780 GB, double_buffered: true}
    restart: {detect: 30 s, replace: 2 min, startup: 1 min, startup_per_node: 6 s, load: 3 min, warmup: 2 min}
    spares: {nodes: 16, repair: 12 h, takes_node: 0.6}
    just_in_time: 0.7            # or {share: 0.7, recovery: 30 s}
    planned: {rate: 0.036 per hour}   # or {count: 47, window: 54 days}

Exactly one of ``interruptions``, ``rate_per_gpu_hour`` and ``mtbi`` gives M; storage
``price`` is US dollars per GB/s of write bandwidth per month. Bad input raises
:class:`~goodput.errors.InputError`. The file is read as data a person typed
(:func:`read_yaml`): every value is text checked by :mod:`goodput.validate` (``020000`` is
twenty thousand, ``4:33:04`` is refused, not sexagesimal); duplicate keys, anchors, aliases,
tags, non-UTF-8 and files over :data:`MAX_FILE_BYTES` are refused.
"""

from __future__ import annotations

import copy
import dataclasses
import difflib
import functools
import hashlib
import math
import os
import re
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from goodput import storage as st
from goodput import validate
from goodput.errors import InputError
from goodput.storage import Storage
from goodput.units import LONGEST, MINUTES_PER_UNIT, SHORTEST, format_duration, format_wait, parse_duration

if TYPE_CHECKING:
    from goodput.restart import RestartParts, Spares

#: The worked example shipped with the package (same values as ``book/params.yml``).
WORKED_EXAMPLE = Path(__file__).with_name("worked_example.yml")

#: Largest parameters file read, in bytes: a real one is well under a kilobyte.
MAX_FILE_BYTES = 64 * 1024
#: Deepest nesting of mappings and lists accepted.
MAX_DEPTH = 4
#: The slow checkpoint is taken for the fleet's own synchronous write to shared storage only where its cost is within
#: this factor of the storage's own time to write the checkpoint (size / achieved write bandwidth), either way.
SLOW_WRITE_FACTOR = 2.0

_REQUIRED = ("gpus", "checkpoint_cost", "slow_checkpoint_cost", "restart", "price_per_gpu_hour", "month")
_MTBI_KEYS = ("interruptions", "rate_per_gpu_hour", "mtbi")
#: What a planner knows: each optional.
_KNOWN_KEYS = ("checkpoint", "gpus_per_node", "storage", "snapshot", "spares", "just_in_time", "planned")
_OPTIONAL = ("logs", "ranges", "drain", "persistent", "fast_survives", *_KNOWN_KEYS)
#: Required keys a planner's inputs can give instead: C and the slow C (from ``storage:``).
_DERIVABLE = ("checkpoint_cost", "slow_checkpoint_cost")
_CHECKPOINT_KEYS = ("size", "parameters", "bytes_per_parameter")
_STORAGE_KEYS = ("write_bandwidth", "read_bandwidth", "efficiency", "read_efficiency", "snapshot", "price")
_SNAPSHOT_KEYS = ("bandwidth", "host_memory", "double_buffered")
_PART_KEYS = ("detect", "replace", "startup", "startup_per_node", "load", "warmup")
_SPARES_KEYS = ("nodes", "repair", "takes_node")
_JIT_KEYS = ("share", "recovery")
_PLANNED_KEYS = ("rate", "count", "window")
#: Minutes a just-in-time recovery costs when not given (a replayed step and a short restart).
DEFAULT_JIT_RECOVERY = 0.5
#: GPUs per node when not given.
DEFAULT_GPUS_PER_NODE = 8
_KNOWN = _REQUIRED + _MTBI_KEYS + _OPTIONAL
_INTERRUPTION_KEYS = ("count", "window")
_LOG_KEYS = ("steps", "events")
#: The inputs a range can be given for (``ranges:``), as :data:`goodput.uncertainty.INPUTS` lists them.
_RANGE_KEYS = ("checkpoint_cost", "mtbi", "restart", "drain", "persistent_cost", "persistent_restart", "fast_survives",
               "just_in_time", "slow_checkpoint_cost")
#: The ranged inputs that are shares of interruptions, not durations.
_RANGE_SHARES = ("fast_survives", "just_in_time")
_PERSISTENT_KEYS = ("cost", "restart", "every")


@dataclass(frozen=True)
class Params:
    """One fleet's inputs, durations in minutes.

    C is the fast (local-first) checkpoint's cost, ``slow_checkpoint_cost`` a synchronous write to
    shared storage; R runs from an interruption to the next attempt's first step; D = ``drain``
    (0: none); C_p, R_p, n = ``persistent_*`` (n None: the plan chooses) and s =
    ``fast_survives`` describe a persistent tier; p = ``just_in_time``, R_j = ``jit_recovery``,
    q = ``planned_rate`` per hour (``planned_count`` stops in ``planned_window`` minutes where
    counted). ``mtbi_source`` is "interruptions", "rate_per_gpu_hour" or "mtbi"; ``window`` is
    in minutes. ``price_per_gpu_hour`` (US dollars) only expresses
    capacity. Log paths are relative to the parameters file's folder. ``ranges`` hold minutes,
    or shares for ``fast_survives`` and ``just_in_time``. ``derived`` says in words how each
    derived duration was derived (the fields hold the values); ``known`` keeps what the planner
    gave so command-line flags can be laid over it.
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
    checkpoint_size: float | None = None
    gpus_per_node: int = DEFAULT_GPUS_PER_NODE
    storage: Storage | None = None
    restart_parts: RestartParts | None = None
    spares: Spares | None = None
    just_in_time: float = 0.0
    jit_recovery: float = DEFAULT_JIT_RECOVERY
    planned_rate: float = 0.0
    planned_count: int | None = None
    planned_window: float | None = None
    #: Minutes by which a planned stop's restart is shorter than an interruption's: the wait for a repaired node in R
    #: and R_p, which a planned stop, taking no node, does not take (negative where interruptions restart quicker, as
    #: with elastic continuation). Set by :func:`derive` with spares; 0 where R is all a planned stop takes.
    stop_saving: float = 0.0
    derived: dict[str, str] = dataclasses.field(default_factory=dict)
    known: Known | None = None

    @property
    def nodes(self) -> int | None:
        """Nodes in the job, gpus / gpus_per_node, when that is whole (None otherwise)."""
        return self.gpus // self.gpus_per_node if self.gpus % self.gpus_per_node == 0 else None

    @property
    def rate_per_gpu_hour(self) -> float:
        """Interruptions per GPU-hour implied by M and the fleet size."""
        return float(rate_from_mtbi(self.mtbi, self.gpus))

    @property
    def counted(self) -> tuple[int, float] | None:
        """The interruptions counted and their window (minutes) where M comes from that count (None otherwise)."""
        n, window = self.interruption_count, self.window
        return (n, window) if self.mtbi_source == "interruptions" and n and window else None

    @property
    def planned_counted(self) -> tuple[int, float] | None:
        """The planned stops counted and their window (minutes) where q comes from that count (None otherwise)."""
        n, window = self.planned_count, self.planned_window
        return (n, window) if n and window and math.isclose(n * 60.0 / window, self.planned_rate) else None

    @property
    def tiered(self) -> bool:
        """Whether the inputs describe a drain or a persistent tier (not one immediately safe checkpoint)."""
        return self.drain > 0.0 or self.persistent_cost is not None

    def replace(self, **changes: Any) -> Params:
        """Return a copy with some fields changed (see :func:`dataclasses.replace`)."""
        return dataclasses.replace(self, **changes)

    @property
    def checkpoint_is_write(self) -> bool:
        """Whether C is itself a synchronous write to shared storage.

        So it is where C is derived from the checkpoint's size and the storage's write bandwidth, without a snapshot.
        Then the slow checkpoint is only the slower one the inputs file compares it with, not "the synchronous write"
        the fast checkpoint replaces.

        >>> load_params().checkpoint_is_write
        False
        """
        return "checkpoint_cost" in self.derived and self.storage is not None and \
            self.storage.snapshot_bandwidth is None

    @property
    def counts_nodes(self) -> bool:
        """Whether an input is per node, so that GPUs per node changes the plan.

        A start-up per node, a spare pool (of whole nodes), or a snapshot to each node's host memory.

        >>> load_params().counts_nodes
        False
        """
        parts, store = self.restart_parts, self.storage
        return (parts is not None and parts.startup_per_node > 0) or self.spares is not None or \
            (store is not None and store.snapshot_bandwidth is not None)

    @property
    def checkpoint_per_node(self) -> bool:
        """Whether C is derived from each node's share of the checkpoint (a snapshot to host memory), size / nodes.

        Such a C changes with the node count where the checkpoint is sharded over all the nodes; the fleet-size
        plans (:meth:`goodput.fleet.FleetPlan.at_size`) re-derive it.

        >>> load_params().checkpoint_per_node
        False
        """
        return "checkpoint_cost" in self.derived and self.storage is not None and \
            self.storage.snapshot_bandwidth is not None

    @property
    def checkpoint_is_stall(self) -> bool:
        """Whether C is the stall measured at a checkpoint, typed beside a snapshot to host memory.

        The inputs file (``checkpoint_cost:`` beside ``snapshot:``) or ``--checkpoint-cost`` gives C, the barrier,
        quiesce and copy the training loop waits for; the snapshot still gives the drain D, the host-memory check and
        the copy alone (:attr:`snapshot_copy`), which :func:`derive` keeps no longer than the stall. Such a C is the
        fleet's as measured: not re-derived per node at other sizes nor by a faster snapshot.

        >>> load_params().checkpoint_is_stall
        False
        """
        return "checkpoint_cost" not in self.derived and self.storage is not None and \
            self.storage.snapshot_bandwidth is not None

    @property
    def snapshot_copy(self) -> float | None:
        """Minutes the snapshot's copy alone takes, size / (nodes x snapshot bandwidth); None without a snapshot.

        C itself where C is derived from the snapshot (:attr:`checkpoint_per_node`); beside a measured stall
        (:attr:`checkpoint_is_stall`) the part of it the copy takes. ``derived["snapshot_copy"]`` says it in words.

        >>> load_params().snapshot_copy is None
        True
        """
        s = self.storage
        return None if s is None or s.snapshot_bandwidth is None else s.checkpoint_cost

    @property
    def slow_derived(self) -> bool:
        """Whether the slow checkpoint is derived, not stated: the inputs file gives none (or a flag changed the storage).

        Then it is the synchronous write of the whole checkpoint that :func:`derive` takes from the fleet's storage
        (its size over the achieved write bandwidth, :attr:`derived` says so in words): a comparison the book draws,
        not a checkpoint the inputs file states or the fleet uses.

        >>> load_params().slow_derived
        False
        """
        return "slow_checkpoint_cost" in self.derived

    @property
    def persistent_restart_typed(self) -> float | None:
        """R_p as the inputs give it, before the wait for a repaired node that R and R_p both take (None: no R_p).

        Rounded to 12 significant digits, so that a typed "22 min" comes back as 22.0, not a hair off it.
        """
        if self.persistent_restart is None or self.spares is None:
            return self.persistent_restart
        return float(f"{self.persistent_restart - self.spares.wait(self.mtbi):.12g}")

    @property
    def slow_against_c(self) -> str:
        """How long the slow checkpoint stalls against C: ``"longer"``, ``"same"`` or ``"shorter"``, decided here once.

        Shorter only where C is a measured stall beside a snapshot; the same where the fleet's checkpoint is its
        synchronous write, typed twice.

        >>> load_params().slow_against_c
        'longer'
        """
        slow, c = self.slow_checkpoint_cost, self.checkpoint_cost
        return "longer" if slow > c else "same" if slow == c else "shorter"

    @property
    def slow_restart(self) -> float:
        """The synchronous write's restart, minutes: R_p beside a persistent tier, else R (decided here once).

        The synchronous write is read back from shared storage, as the persistent copy is; R is the fast tier's
        restart from its nearer copy.

        >>> load_params().slow_restart
        5.0
        """
        return self.restart if self.persistent_restart is None else self.persistent_restart

    @property
    def slow_not_dearer(self) -> bool:
        """Whether the slow checkpoint stalls no longer than C (:attr:`slow_against_c`).

        A fast tier in front of a persistent tier that costs no more than it can never pay.

        >>> load_params().slow_not_dearer
        False
        """
        return self.slow_against_c != "longer"

    @property
    def slow_is_write(self) -> bool:
        """Whether the slow checkpoint is this fleet's own synchronous write to shared storage, safe when taken.

        Not where C is itself that write (:attr:`checkpoint_is_write`), nor where the inputs give the storage and the
        slow checkpoint's cost is more than :data:`SLOW_WRITE_FACTOR` times, or less than its inverse, the storage's
        own time to write the checkpoint (:attr:`goodput.storage.Storage.write_minutes`): then it is only the slower
        checkpoint the inputs file states. Without storage inputs it is taken as the inputs call it.

        >>> p = load_params()
        >>> p.slow_is_write
        True
        """
        if self.checkpoint_is_write:
            return False
        if self.storage is None:
            return True
        ratio = self.slow_checkpoint_cost / self.storage.write_minutes
        return 1.0 / SLOW_WRITE_FACTOR <= ratio <= SLOW_WRITE_FACTOR

    def without_tiers(self) -> Params:
        """The same inputs with one checkpoint that is safe as soon as it is taken: no drain, no persistent tier."""
        return self.replace(drain=0.0, persistent_cost=None, persistent_restart=None, persistent_every=None,
                            fast_survives=None)

    def synchronous(self) -> Params:
        """The fleet it is compared with: the slow checkpoint written synchronously, restarting in :attr:`slow_restart`.

        One tier, no drain; recovery without rollback and planned stops as the fleet's. Its ranges are the slow C's
        (as C), M's, the restart's it restarts in (as R) and p's, so a range of the comparison is one of this plan.

        >>> w = load_params()
        >>> s = w.synchronous()
        >>> (s.checkpoint_cost, s.restart, s.tiered)
        (5.0, 5.0, False)
        """
        sources = {"checkpoint_cost": "slow_checkpoint_cost", "mtbi": "mtbi", "just_in_time": "just_in_time",
                   "restart": "restart" if self.persistent_restart is None else "persistent_restart"}
        ranges = {name: self.ranges[source] for name, source in sources.items() if source in self.ranges}
        return self.without_tiers().replace(checkpoint_cost=self.slow_checkpoint_cost, restart=self.slow_restart,
                                            ranges=ranges)


def mtbi_from_count(count: int, window: float) -> float:
    """M = window / count, minutes."""
    return window / count


def mtbi_from_rate(rate_per_gpu_hour: Any, gpus: Any) -> Any:
    """M = 60 / (rate x GPUs) minutes, GPUs failing independently (elementwise)."""
    return 60.0 / (rate_per_gpu_hour * gpus)


#: The longest accounting month read, minutes: a year of 366 days (a month of 1e308 min wrote "$infB a month").
MOST_MONTH = 366 * 24 * 60.0


def parse_month(value: object, name: str, bare_unit: str | None = None) -> float:
    """The accounting month, minutes: a duration (:func:`goodput.units.parse_duration`) of at most :data:`MOST_MONTH`.

    >>> parse_month("720 h", "month"), parse_month("8760 h", "month")
    (43200.0, 525600.0)
    """
    month = parse_duration(value, name, bare_unit=bare_unit)
    if month > MOST_MONTH:
        raise InputError(name, value, "an accounting month of at most a year (366 days)")
    return month


def mtbi_of_rate(rate_per_gpu_hour: float, gpus: int, name: str = "rate_per_gpu_hour", given: object = None) -> float:
    """M from a rate and a GPU count, as :func:`mtbi_from_rate`; InputError where it is no duration.

    The error names `name` and quotes `given`, the rate as typed where known.

    A rate so high that rate x GPUs overflows leaves no mean time to plan with, not a tiny one; one so low that M
    overflows, or passes the longest duration read (:data:`goodput.units.LONGEST`), no finite one.
    """
    mtbi = float(mtbi_from_rate(rate_per_gpu_hour, gpus))
    given = rate_per_gpu_hour if given is None else given
    if not 0.0 < mtbi <= LONGEST:  # as a typed M is read (goodput.units.parse_duration)
        raise InputError(name, given, f"a rate per GPU-hour at which {gpus:,} GPUs leave a mean time "
                         "between interruptions above zero and at most a million years")
    return mtbi_at_least_shortest(mtbi, name, given, f"a rate per GPU-hour at which {gpus:,} GPUs")


def mtbi_at_least_shortest(mtbi: float, name: str, given: object, what: str) -> float:
    """M derived from a rate or a count, refused (naming `name`, quoting `given`) below a microsecond as a typed M is.

    A count of 1e308 in 54 days or a rate of 1e300 left M at 4.67e-299 ms, refused with exit 1 ("no plan to make")
    where ``mtbi: 4.67e-299 ms`` typed is an input error. `what` says what `given` is, in words.
    """
    if mtbi < SHORTEST:
        raise InputError(name, given, f"{what} leave a mean time between interruptions of at least a microsecond")
    return mtbi


#: The per-GPU rate 60 / (M x GPUs) per hour that gives `gpus` GPUs the mean time M: the same formula as
#: :func:`mtbi_from_rate`, its own inverse (a rate passed as `gpus` gives the fleet size).
rate_from_mtbi = mtbi_from_rate


# --------------------------------------------------------------------------- reading YAML as typed


def read_yaml(text: str, source: str) -> object:
    r"""Parse YAML as data a person typed: every scalar a string, no aliases, no tags, no duplicate keys.

    An empty value is ``""``. Raises InputError for invalid YAML, an anchor, alias or tag, a
    non-text or duplicate key, or nesting deeper than :data:`MAX_DEPTH`.

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


@functools.lru_cache(maxsize=64)
def _read_yaml_once(text: str, source: str) -> object:
    # The pure-Python YAML parser takes some 10 ms a file, and a build or a test run reads the same files many times.
    return read_yaml(text, source)


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
            close = difflib.get_close_matches(str(key), keys, n=1)
            raise InputError(f"{name}: key {key!r}", value[key],
                             f"one of {', '.join(keys)}" + (f" (did you mean {close[0]!r}?)" if close else ""))
    for key in required:
        if key not in value:
            raise InputError(f"{name}.{key}", None, f"a value (the key is missing): {shape}")
    return value


def params_from_mapping(
    data: object, source: str = "parameters", base: Path | None = None, *, path: Path | None = None,
    sha256: str | None = None,
) -> Params:
    """Check a mapping of raw values (as read from YAML, or Python values) and build :class:`Params`.

    Relative log paths are taken from `base`. Raises InputError for an unknown or missing key,
    an unknown unit or an impossible value.
    """
    if not isinstance(data, Mapping):
        shown = "an empty file" if data in (None, "") else type(data).__name__
        raise InputError(source, shown, "a mapping of keys such as 'gpus: 16384'")
    _mapping(data, source, _KNOWN, shape="a mapping of keys such as 'gpus: 16384'")
    for key in _REQUIRED:
        if key not in data and not (key in _DERIVABLE and "storage" in data):  # storage: derives C (see derive)
            raise InputError(f"{source}: key {key!r}", None, "a value (the key is missing)")
    given = [key for key in _MTBI_KEYS if key in data]
    if len(given) != 1:
        raise InputError(
            f"{source}: mean time between interruptions",
            ", ".join(given) if given else "none of them",
            "exactly one of interruptions, rate_per_gpu_hour or mtbi",
        )

    gpus = validate.whole(data["gpus"], "gpus", most=validate.MOST_GPUS)
    count: int | None = None
    window: float | None = None
    how = given[0]
    if how == "interruptions":
        spec = _mapping(data["interruptions"], "interruptions", _INTERRUPTION_KEYS, required=_INTERRUPTION_KEYS,
                        shape="a mapping {count: N, window: DURATION}")
        count = validate.whole(spec["count"], "interruptions.count")
        window = parse_duration(spec["window"], "interruptions.window")
        mtbi = mtbi_at_least_shortest(mtbi_from_count(count, window), "interruptions.count", spec["count"],
                                      f"a count at which {format_duration(window)}")
    elif how == "rate_per_gpu_hour":
        mtbi = mtbi_of_rate(validate.positive(data["rate_per_gpu_hour"], "rate_per_gpu_hour"), gpus,
                            given=data["rate_per_gpu_hour"])
    else:
        mtbi = parse_duration(data["mtbi"], "mtbi")

    steps_log = events_log = None
    if "logs" in data:
        spec = _mapping(data["logs"], "logs", _LOG_KEYS, required=("events",),
                        shape="a mapping {steps: FILE, events: FILE} (steps optional)")
        for key in _LOG_KEYS:
            if key in spec and (not isinstance(spec[key], str) or not spec[key].strip()):
                raise InputError(f"logs.{key}", spec[key], "a file path")
        steps_log, events_log = ((base / spec[k] if base else Path(spec[k])) if k in spec else None for k in _LOG_KEYS)

    known = _known_from_mapping(data) if any(key in data for key in _KNOWN_KEYS) or isinstance(
        data.get("restart"), Mapping) else None
    typed = {key: parse_duration(data[key], key, allow_zero=key == "drain")
             for key in ("checkpoint_cost", "slow_checkpoint_cost", "restart", "drain")
             if key in data and not (key == "restart" and isinstance(data[key], Mapping))}
    if known is not None:
        known = dataclasses.replace(known, typed=dict(typed))
        others = Params(gpus=gpus, mtbi=mtbi, mtbi_source=how, checkpoint_cost=0.0, slow_checkpoint_cost=0.0,
                      restart=0.0, price_per_gpu_hour=1.0, month=1.0,
                      gpus_per_node=validate.whole(data["gpus_per_node"], "gpus_per_node", most=validate.MOST_GPUS)
                      if "gpus_per_node" in data else DEFAULT_GPUS_PER_NODE)
        derived = derive(others, known, as_typed=True)
        typed |= {"checkpoint_cost": derived.checkpoint_cost, "slow_checkpoint_cost": derived.slow_checkpoint_cost,
                  "restart": derived.restart, "drain": derived.drain}
    checkpoint_cost = typed["checkpoint_cost"]
    slow_checkpoint_cost = typed["slow_checkpoint_cost"]
    if slow_checkpoint_cost < checkpoint_cost and "slow_checkpoint_cost" in data:  # beside C, and as a C_p >= C
        raise InputError("slow_checkpoint_cost", data["slow_checkpoint_cost"],
                         f"a checkpoint no faster than checkpoint_cost ({format_duration(checkpoint_cost)}): the "
                         "slow one is the synchronous write that the fast checkpoint replaces")
    # derived: the snapshot is slower than writing to storage directly (a measured stall may be: the page says so)
    if slow_checkpoint_cost < checkpoint_cost and not (known is not None and derived.checkpoint_is_stall):
        shown = f"a snapshot of {format_duration(checkpoint_cost)}"  # the key and the bandwidth as typed, where typed
        raise InputError(known.name("snapshot_bandwidth") if known is not None else "snapshot.bandwidth",
                         known.as_given("snapshot_bandwidth", shown) if known is not None else shown,
                         f"a snapshot to host memory faster than writing the checkpoint to storage directly "
                         f"({format_duration(slow_checkpoint_cost)}); without a snapshot the checkpoint is that write")
    restart = typed["restart"]
    drain = typed.get("drain", 0.0)
    persistent_cost = persistent_restart = None
    persistent_every: int | None = None
    if "persistent" in data:
        spec = _mapping(data["persistent"], "persistent", _PERSISTENT_KEYS, required=("cost",),
                        shape="a mapping {cost: DURATION, restart: DURATION, every: N} (restart and every optional)")
        persistent_cost, persistent_restart, persistent_every = tier_inputs(
            checkpoint_cost, restart, spec["cost"], spec.get("restart"), spec.get("every"), prefix="persistent.",
            parse=parse_duration, wait=known.spares.wait(mtbi) if known is not None and known.spares is not None else 0.0,
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

    extra: dict[str, Any] = _recovery_from_mapping(data)
    ranges = _ranges_from_mapping(data, how, drain=drain, persistent=persistent_cost is not None,
                                  just_in_time=extra.get("just_in_time", 0.0))
    copy = derived.snapshot_copy if known is not None and derived.checkpoint_is_stall else None
    if copy is not None and "checkpoint_cost" in ranges and ranges["checkpoint_cost"][0] < copy:
        # a range of the measured stall, like the stall itself, is never below the copy it includes
        raise InputError("ranges.checkpoint_cost", data["ranges"]["checkpoint_cost"],
                         f"a LOW of at least the snapshot's copy, {format_duration(copy)}: a measured stall includes "
                         "the copy")
    if known is not None:
        extra |= {key: getattr(derived, key) for key in ("checkpoint_size", "gpus_per_node", "storage", "restart_parts",
                                                         "spares", "derived", "known", "stop_saving")}
    return Params(
        gpus=gpus,
        mtbi=mtbi,
        mtbi_source=how,
        checkpoint_cost=checkpoint_cost,
        slow_checkpoint_cost=slow_checkpoint_cost,
        restart=restart,
        price_per_gpu_hour=validate.price(data["price_per_gpu_hour"], "price_per_gpu_hour"),
        month=parse_month(data["month"], "month"),
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
        **extra,
    )


def _ranges_from_mapping(data: Mapping[str, Any], how: str, *, drain: float, persistent: bool,
                         just_in_time: float) -> dict[str, tuple[float, float]]:
    """Read ``ranges:``: a pair [LOW, HIGH] for each input of the fleet that has one (durations; shares for s, p).

    A range of an input the fleet does not have (a drain, a persistent tier, a share recovered just in time) is
    refused, as is M's when M is given as a count (its interval comes from the count).
    """
    ranges: dict[str, tuple[float, float]] = {}
    if "ranges" not in data:
        return ranges
    spec = _mapping(data["ranges"], "ranges", _RANGE_KEYS, shape=f"a mapping of {', '.join(_RANGE_KEYS)} to [LOW, HIGH]")
    missing = {
        "mtbi": "no stated range when M is given as a count (its interval comes from the count)"
        if how == "interruptions" else None,
        "drain": None if drain > 0 else "a drain to range (drain: DURATION): without one a checkpoint is durable "
        "at once",
        "persistent_cost": None if persistent else "a persistent tier to range (persistent: {cost: ...})",
        "persistent_restart": None if persistent else "a persistent tier to range (persistent: {cost: ...})",
        "fast_survives": None if persistent else "a persistent tier to range (persistent: {cost: ...}): the share "
        "only matters with two tiers",
        "just_in_time": None if just_in_time > 0 else "a share recovered just in time to range (just_in_time: SHARE)",
    }
    for key, pair in spec.items():
        share = key in _RANGE_SHARES
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise InputError(f"ranges.{key}", pair, "a pair [LOW, HIGH] of " + ("shares from 0 to 1" if share else
                                                                                "durations"))
        if missing.get(key):
            raise InputError(f"ranges.{key}", pair, str(missing[key]))
        read = {"just_in_time": jit_share, "fast_survives": validate.share}.get(
            key, functools.partial(parse_duration, allow_zero=key == "drain"))
        low, high = (read(v, f"ranges.{key}") for v in pair)
        if low > high:
            raise InputError(f"ranges.{key}", pair, "LOW no greater than HIGH")
        ranges[str(key)] = (low, high)
    return ranges


def tier_inputs(
    checkpoint_cost: float, restart: float, cost: object, persistent_restart: object, every: object, *, prefix: str,
    parse: Any, wait: float = 0.0,
) -> tuple[float, float, int | None]:
    """Check a persistent tier's C_p, R_p (None: R) and n (None: to be chosen) against the fast tier's.

    `prefix` names the inputs in messages; ``parse(value, name)`` reads a duration in minutes. `wait` is the part of R
    spent waiting for a repaired node (spares): a restart from the persistent tier waits as long, so a typed R_p is
    checked against R without it and returned with it (R_p(c) then moves with R(c) at every spare count).
    Raises InputError if C_p < C, R_p < R, or n is not a whole number of at least 1.
    """
    cost_p = float(parse(cost, f"{prefix}cost"))
    if cost_p < checkpoint_cost:
        raise InputError(f"{prefix}cost", cost, f"a persistent checkpoint no cheaper than the fast one ({format_duration(checkpoint_cost)})")
    restart_p = restart if persistent_restart is None else float(parse(persistent_restart, f"{prefix}restart"))
    parts = restart - wait  # R as typed or summed, before any wait for a repaired node
    if restart_p < parts - 1e-9 * parts:
        before = " before the wait for repairs" if wait > 0 else ""
        raise InputError(f"{prefix}restart", persistent_restart,
                         f"a persistent restart no shorter than the fast restart ({format_duration(parts)}{before})")
    if persistent_restart is not None:
        restart_p = max(restart_p + wait, restart)
    from goodput.tiers import MAX_EVERY

    n = None if every is None else validate.whole(every, f"{prefix}every")
    if n is not None and n > MAX_EVERY:
        raise InputError(f"{prefix}every", every, f"a whole number from 1 to {MAX_EVERY:,}")
    return cost_p, restart_p, n


# --------------------------------------------------------------------------- what a planner knows


@dataclass(frozen=True)
class Known:
    """What a planner gave of the model, the storage and the restart, as read (bytes, bytes per second, minutes).

    :func:`derive` turns it into C, D, R and the slow C; every field is optional. Bandwidths are
    stated (``efficiency``, default 1, is the share achieved); snapshot fields are per node;
    ``storage_price`` is US dollars per GB/s of write bandwidth per month; ``typed`` holds the
    durations typed beside them; ``names`` how each input was named, a name starting with ``--``
    being a command-line flag, which beats the file.
    """

    size: float | None = None
    parameters: float | None = None
    bytes_per_parameter: float | None = None
    write_bandwidth: float | None = None
    read_bandwidth: float | None = None
    efficiency: float | None = None
    read_efficiency: float | None = None
    snapshot_bandwidth: float | None = None
    host_memory: float | None = None
    double_buffered: bool = False
    storage_price: float | None = None
    #: Minutes of barrier and quiesce a synchronous write pays beside its transfer: what a stall measured beside a
    #: snapshot holds beyond the copy. :func:`derive` finds it there and keeps it, so that the write derived again
    #: without the snapshot (:func:`goodput.fleet.without_snapshot`) pays it too.
    barrier: float = 0.0
    parts: dict[str, float] = dataclasses.field(default_factory=dict)
    spares: Spares | None = None
    typed: dict[str, float] = dataclasses.field(default_factory=dict)
    names: dict[str, str] = dataclasses.field(default_factory=dict)
    given: dict[str, Any] = dataclasses.field(default_factory=dict)

    def name(self, key: str) -> str:
        """How the input `key` was named."""
        return self.names.get(key, key)

    def as_given(self, key: str, fallback: object) -> object:
        """The input `key` as the inputs file typed it ("20 Gb/s"), for an error to quote; else `fallback`."""
        return self.given.get(key, fallback)

    def flagged(self, key: str) -> bool:
        """Whether the input `key` was given on the command line."""
        return self.name(key).startswith("--")


#: Typical values of what a planner types (bytes, bytes per second, shares), to tell which typed input a derived
#: size or duration out of range comes from: the one furthest from its typical value in the direction of the fault.
_TYPICAL = {"size": 1e12, "parameters": 1e11, "bytes_per_parameter": 14.0, "write_bandwidth": 1e12,
            "read_bandwidth": 1e12, "snapshot_bandwidth": 2.5e10, "efficiency": 0.5, "read_efficiency": 0.5}
#: What each of them is, in words, for a message.
_KIND = {"size": "a size", "parameters": "a parameter count", "bytes_per_parameter": "a number of bytes per parameter",
         "write_bandwidth": "a bandwidth", "read_bandwidth": "a bandwidth", "snapshot_bandwidth": "a bandwidth",
         "efficiency": "a share of the stated bandwidth achieved", "read_efficiency": "a share of the stated bandwidth "
         "achieved"}
#: The share of a size in the time to move it (+1), and of a bandwidth or an efficiency (-1).
_SIZE_FACTORS = {"size": 1, "parameters": 1, "bytes_per_parameter": 1}


def _typed_culprit(known: Known, factors: Mapping[str, int], too_large: bool) -> str:
    """The typed input (a field of :class:`Known`) a derived value out of range comes from.

    Among `factors` (field: +1 where the value grows with it, -1 where it falls) those typed, a flag before the file
    (the user has just changed it), the one furthest from its typical value (:data:`_TYPICAL`) towards the fault.
    """
    typed = [field for field in factors if getattr(known, field) is not None]
    flagged = [field for field in typed if known.flagged(field)]

    def pull(field: str) -> float:
        toward = factors[field] * (math.log(getattr(known, field)) - math.log(_TYPICAL[field]))  # no underflow
        return toward if too_large else -toward

    return max(flagged or typed, key=pull)


def _refuse_typed(known: Known, factors: Mapping[str, int], too_large: bool, expected: str) -> InputError:
    """The error naming the typed input (:func:`_typed_culprit`) as typed, what is expected of it prefixed by its kind."""
    field = _typed_culprit(known, factors, too_large)
    return InputError(known.name(field), known.as_given(field, getattr(known, field)), f"{_KIND[field]} {expected}")


def _checked_size(known: Known, bytes_per_parameter: float) -> float:
    """Parameters x bytes per parameter, from 1 B to :data:`goodput.storage.LARGEST` as a typed size is.

    Else an error naming the input typed (``--bytes-per-parameter 5e-324`` read as ``checkpoint_size: got 0.0``).
    """
    assert known.parameters is not None
    try:
        size = st.checkpoint_size(known.parameters, bytes_per_parameter)
    except InputError as exc:  # an overflow
        size, overflow = math.inf, exc
    else:
        overflow = None
    if 1.0 <= size <= st.LARGEST:
        return size
    error = _refuse_typed(known, {"parameters": 1, "bytes_per_parameter": 1}, size > 1.0,
                          "at which the checkpoint, parameters × bytes per parameter, is from 1 B to 1,000 PB")
    if overflow is not None and error.name == known.name("parameters"):  # the words the calculator page mirrors
        raise InputError(error.name, error.value, overflow.expected)
    raise error


def _check_transfers(known: Known, store: Storage) -> None:
    """Refuse, naming the typed input, a derived C, drain or load outside what a typed duration may be.

    From a microsecond to a million years (:data:`~goodput.units.SHORTEST`, :data:`~goodput.units.LONGEST`), as
    :func:`goodput.units.parse_duration` reads a typed one: an efficiency of 1e-300 had C at 8.99e+292 years (exit 1,
    "no plan to make"), one of 5e-324 "load: got inf", and 1e-300 parameters C at 3.42e-311 ms.
    """
    size = {key: 1 for key in _SIZE_FACTORS}
    read = "read_efficiency" if known.read_efficiency is not None else "efficiency"
    transfers = [("the checkpoint's write to storage", store.write_minutes,
                  size | {"write_bandwidth": -1, "efficiency": -1})]
    if store.snapshot_bandwidth is not None:
        transfers.append(("the snapshot to host memory", store.checkpoint_cost, size | {"snapshot_bandwidth": -1}))
    if store.load is not None:
        transfers.append(("the checkpoint's read from storage (the load)", store.load,
                          size | {"read_bandwidth": -1, read: -1}))
    for what, minutes, factors in transfers:
        if not SHORTEST <= minutes <= LONGEST:
            too_large = minutes > LONGEST
            raise _refuse_typed(known, factors, too_large, f"at which {what} takes " + (
                "at most a million years" if too_large else "at least a microsecond") + " (with the other inputs as given)")


def derive(params: Params, known: Known, *, as_typed: bool = False) -> Params:
    """C, D, R and the slow C from what a planner knows, each derivation stated in words.

    Size = given, or parameters x bytes per parameter (default 14). Without a snapshot C =
    size / achieved write bandwidth; with one, C = size / (nodes x snapshot bandwidth) and
    D = size / achieved write bandwidth, and the snapshot (twice if double-buffered) must fit
    in host memory. A C typed beside a snapshot (at its level or above) is the stall measured at
    a checkpoint (:attr:`Params.checkpoint_is_stall`): taken as typed, and refused if shorter than
    the snapshot's copy alone, which ``derived["snapshot_copy"]`` then describes. The slow C is
    typed or else the synchronous write. R = sum of the parts, the load defaulting to size /
    achieved read bandwidth, plus :func:`goodput.restart.spare_wait` with spares. Any other
    derived duration typed at the same level (both in the file, or both as
    flags) is refused; otherwise the command line wins. With `as_typed` (the fleet as the user gave it, not one a
    search tries), a derived C, D or load outside a typed duration's range is refused naming the input typed
    (:func:`_check_transfers`). Also raises InputError for storage
    without a size, GPUs per node that do not divide the GPUs, or a duration neither typed nor
    derivable.

    >>> from goodput.storage import parse_bandwidth
    >>> base = load_params().replace(checkpoint_cost=0.0, slow_checkpoint_cost=0.0)
    >>> p = derive(base, Known(parameters=530e9, bytes_per_parameter=12,
    ...                        write_bandwidth=parse_bandwidth("20 Gb/s", "bw"), typed={"restart": 5.0}))
    >>> round(p.checkpoint_cost, 1), p.derived["checkpoint_cost"]
    (42.4, 'a synchronous write of 6.36 TB (530 billion parameters × 12 bytes) at 2.5 GB/s')
    """
    from goodput.restart import RestartParts

    typed = dict(known.typed)
    values: dict[str, float] = {}
    notes: dict[str, str] = {}
    name = known.name

    def choose(key: str, value: float, source: str, words: str) -> None:
        """Take the derived `value` for `key` unless the same duration is typed at a higher level."""
        if key in typed:
            if known.flagged(key) == known.flagged(source):
                raise InputError(f"{name(key)} and {name(source)}", format_duration(typed[key]),
                                 f"one of them, not both: {name(source)} gives {key} ({words})")
            if known.flagged(key):
                return
            del typed[key]
        values[key], notes[key] = value, words

    def achieved(stated: float, e: float) -> str:
        shown = st.format_bandwidth(stated * e)
        return f"{shown} achieved ({e:.0%} of {st.format_bandwidth(stated)})" if e < 1.0 else shown

    def node_count() -> int:
        if params.nodes is None:
            if "gpus_per_node" not in known.names and params.gpus_per_node == DEFAULT_GPUS_PER_NODE:
                # nobody typed GPUs per node ('gpus_per_node: got 8' of gpus: 65537): the GPUs are what was typed
                raise InputError("gpus", params.gpus, f"a multiple of {params.gpus_per_node}, the default GPUs per "
                                 "node (no gpus_per_node or --gpus-per-node is given)")
            raise InputError(name("gpus_per_node"), params.gpus_per_node,
                             f"a number of GPUs per node that divides the job's {params.gpus:,} GPUs")
        return params.nodes

    size = known.size
    if known.parameters is not None:
        if known.size is not None:
            raise InputError(f"{name('size')} and {name('parameters')}", st.format_size(known.size),
                             "one of them: the checkpoint's size, or its parameters × bytes per parameter")
        bpp = st.DEFAULT_BYTES_PER_PARAMETER if known.bytes_per_parameter is None else known.bytes_per_parameter
        size = _checked_size(known, bpp)
        count = (f"{known.parameters / 1e12:.4g} trillion" if known.parameters >= 1e12 else
                 f"{known.parameters / 1e9:.4g} billion" if known.parameters >= 1e9 else f"{known.parameters:,.0f}")
        size_words = f"{st.format_size(size)} ({count} parameters × {bpp:g} bytes)"
        notes["checkpoint_size"] = f"{count} parameters × {bpp:g} bytes"
    elif known.bytes_per_parameter is not None:
        raise InputError(name("bytes_per_parameter"), known.bytes_per_parameter,
                         f"the parameter count as well ({name('parameters')}): the size is parameters × bytes each")
    else:
        size_words = st.format_size(size) if size is not None else ""

    store = None
    if known.write_bandwidth is not None:
        if size is None:
            raise InputError(name("write_bandwidth"),
                             known.as_given("write_bandwidth", st.format_bandwidth(known.write_bandwidth)),
                             "the checkpoint's size as well (checkpoint: {size: ...} or {parameters: ...}; "
                             "--checkpoint-size or --parameters)")
        try:
            store = Storage(size=size, nodes=node_count(), write_bandwidth=known.write_bandwidth,
                            read_bandwidth=known.read_bandwidth,
                            efficiency=1.0 if known.efficiency is None else known.efficiency,
                            read_efficiency=known.read_efficiency, snapshot_bandwidth=known.snapshot_bandwidth,
                            host_memory=known.host_memory, double_buffered=known.double_buffered,
                            price=known.storage_price)
        except InputError as exc:
            if exc.name == "host_memory":
                raise InputError(name("host_memory"), exc.value, exc.expected) from None
            raise
        if as_typed:
            _check_transfers(known, store)
    else:
        for key in ("read_bandwidth", "efficiency", "read_efficiency", "snapshot_bandwidth", "host_memory",
                    "storage_price"):
            if getattr(known, key) is not None:
                raise InputError(name(key), known.as_given(key, getattr(known, key)), "a write bandwidth as well (storage: {write_bandwidth: "
                                 "...} or --write-bandwidth): it is what the checkpoint is written at")

    if store is not None:
        write_words = f"{size_words} at {achieved(store.write_bandwidth, store.efficiency)}"
        # the stall's barrier and quiesce beyond its copy, which a synchronous write pays as well
        barrier = known.barrier
        if store.snapshot_bandwidth is not None and "checkpoint_cost" in typed and \
                known.flagged("checkpoint_cost") >= known.flagged("snapshot_bandwidth"):
            barrier = max(0.0, typed["checkpoint_cost"] - store.checkpoint_cost)
        with_barrier = (f", with the {format_duration(barrier)} of barrier and quiesce that the measured stall holds "
                        "beyond its copy") if barrier > 0 else ""
        if store.snapshot_bandwidth is None:
            choose("checkpoint_cost", store.checkpoint_cost + barrier, "write_bandwidth",
                   f"a synchronous write of {write_words}{with_barrier}")
        else:
            per_node = f"{st.format_size(store.size / store.nodes)} per node"
            copy_words = f"a snapshot of {per_node} to host memory at {st.format_bandwidth(store.snapshot_bandwidth)}"
            if "checkpoint_cost" in typed and known.flagged("checkpoint_cost") >= known.flagged("snapshot_bandwidth"):
                # C typed beside the snapshot (or on the command line over the file's): the stall measured at a
                # checkpoint, barrier and quiesce with the copy, so never shorter than the copy alone
                notes["snapshot_copy"] = copy_words
                if typed["checkpoint_cost"] < store.checkpoint_cost:
                    raise InputError(name("checkpoint_cost"), format_duration(typed["checkpoint_cost"]),
                                     f"at least the snapshot's copy, {format_duration(store.checkpoint_cost)} ({per_node} "
                                     f"at {st.format_bandwidth(store.snapshot_bandwidth)}): a measured stall includes "
                                     "the copy")
            else:
                choose("checkpoint_cost", store.checkpoint_cost, "snapshot_bandwidth", copy_words)
            choose("drain", store.drain, "write_bandwidth", f"the write of {write_words} after the snapshot")
        if "slow_checkpoint_cost" not in typed or (known.flagged("write_bandwidth")
                                                   and not known.flagged("slow_checkpoint_cost")):
            values["slow_checkpoint_cost"] = store.write_minutes + barrier
            notes["slow_checkpoint_cost"] = f"a synchronous write of {write_words}{with_barrier}"

    parts = dict(known.parts)
    if parts and "restart" in typed:
        flagged = [key for key in parts if known.flagged(key)]
        given = (flagged or list(parts))[0]
        if known.flagged("restart") == bool(flagged):
            raise InputError(f"{name('restart')} and {name(given)}", format_duration(typed["restart"]),
                             "the restart whole or as its parts, not both")
        if known.flagged("restart"):
            parts = {}
        else:
            del typed["restart"]
    if store is not None and store.load is not None and store.read_bandwidth is not None and "load" not in parts:
        if "restart" in typed and not parts:
            if known.flagged("restart") == known.flagged("read_bandwidth"):
                raise InputError(f"{name('restart')} and {name('read_bandwidth')}", format_duration(typed["restart"]),
                                 "the restart as its parts (restart: {detect: ..., startup: ...} or --detect, --startup "
                                 "...) with a read bandwidth, which gives the load; or no read bandwidth")
        else:
            read_e = store.efficiency if store.read_efficiency is None else store.read_efficiency
            parts["load"] = store.load
            notes["load"] = f"a read of {size_words} at {achieved(store.read_bandwidth, read_e)}"
    restart_parts = None
    if parts:
        try:
            restart_parts = RestartParts(**parts, nodes=node_count() if parts.get("startup_per_node") else
                                         (params.nodes or 1))
        except InputError as exc:  # parts adding up to zero: name a part typed ("restart: got 0.0" of --detect 0)
            if exc.name != "restart":
                raise
            flagged = [key for key in parts if known.flagged(key)]
            if flagged:
                raise InputError(name(flagged[0]), parts[flagged[0]], exc.expected) from None
            raise InputError("restart", known.as_given("restart", parts), exc.expected) from None
        values["restart"] = restart_parts.total
        shown = {"startup": "start-up", "warmup": "warm-up"}
        notes["restart"] = "the sum of its parts: " + " + ".join(
            f"{shown.get(k, k)} {format_duration(v)}" for k, v in restart_parts.parts.items() if v > 0)
    if known.spares is not None:
        base = values["restart"] if "restart" in values else typed.get("restart")
        if base is None:  # pragma: no cover - a restart is always given, whole or in parts
            raise InputError("restart", None, "a value (the key is missing)")
        wait = known.spares.wait(params.mtbi)
        values["restart"] = base + wait
        notes["restart"] = (notes.get("restart", f"{format_duration(base)} given")
                            + f", and {format_wait(wait)} waiting for repairs "
                            f"({known.spares.nodes:,} spare nodes, repairs of {format_duration(known.spares.repair)}, "
                            f"{known.spares.takes_node:.0%} of interruptions take a node)")
    for key in ("checkpoint_cost", "slow_checkpoint_cost", "restart"):
        if key not in values and key not in typed:
            raise InputError(name(key), None, "a value (the key is missing), or storage: {write_bandwidth: ...} "
                             "and checkpoint: to derive it")
    final = {**typed, **values}
    return params.replace(
        checkpoint_cost=final["checkpoint_cost"], slow_checkpoint_cost=final["slow_checkpoint_cost"],
        restart=final["restart"], drain=final.get("drain", 0.0), checkpoint_size=size, storage=store,
        # the barrier found beside a measured stall is kept, for the synchronous write without the snapshot
        restart_parts=restart_parts, spares=known.spares, derived=notes,
        known=known if store is None else dataclasses.replace(known, barrier=barrier),
        stop_saving=known.spares.wait(params.mtbi) if known.spares is not None else 0.0,
    )


def at_bandwidths(params: Params, *, write: float = 1.0, snapshot: float = 1.0) -> Params:
    """The fleet's inputs with its storage's stated bandwidths scaled, C, D, the load and the slow C derived again.

    `write` scales the shared storage's write and read bandwidths, `snapshot` the device-to-host
    one. Re-derived by :func:`derive` from :attr:`Params.known`, so a winning typed duration
    stays; without ``known`` (a Storage set by hand) the other durations are taken as typed.
    Raises InputError if the inputs give no storage.

    >>> from goodput.storage import parse_bandwidth
    >>> base = load_params().replace(checkpoint_cost=0.0, slow_checkpoint_cost=0.0)
    >>> p = derive(base, Known(size=2.4e12, write_bandwidth=parse_bandwidth("40 GB/s", "bw"), typed={"restart": 5.0}))
    >>> round(p.checkpoint_cost, 3), round(at_bandwidths(p, write=2.0).checkpoint_cost, 3)
    (1.0, 0.5)
    """
    s = params.storage
    if s is None:
        raise InputError("storage", None, "the storage's write bandwidth (storage: {write_bandwidth: ...} or "
                         "--write-bandwidth) and the checkpoint's size")
    known = params.known
    if known is None:
        typed = {"restart": params.restart, "slow_checkpoint_cost": params.slow_checkpoint_cost}
        known = Known(size=s.size, write_bandwidth=s.write_bandwidth, efficiency=s.efficiency,
                      snapshot_bandwidth=s.snapshot_bandwidth, host_memory=s.host_memory,
                      double_buffered=s.double_buffered, storage_price=s.price, typed=typed)
    assert known.write_bandwidth is not None  # a storage is derived from a write bandwidth
    changes: dict[str, Any] = {"write_bandwidth": known.write_bandwidth * write}
    if known.read_bandwidth is not None:
        changes["read_bandwidth"] = known.read_bandwidth * write
    if known.snapshot_bandwidth is not None:
        changes["snapshot_bandwidth"] = known.snapshot_bandwidth * snapshot
    return derive(params, dataclasses.replace(known, **changes))


#: The most planned stops read, per hour: one a minute (1e15 an hour drew a negative count of stops in simulate).
MOST_PLANNED_PER_HOUR = 60.0


def planned_per_hour(per_hour: float, name: str, given: object) -> float:
    """A rate of planned stops per hour: zero, or one in :data:`~goodput.units.LONGEST` up to :data:`MOST_PLANNED_PER_HOUR`.

    Else an InputError naming `given`.

    A rate so low that the time between stops passes the longest duration read (5e-324 per hour) printed "one every
    unbounded": it is refused as a typed duration that long is.
    """
    if per_hour > MOST_PLANNED_PER_HOUR:
        raise InputError(name, given, "planned stops of at most one a minute (60 per hour)")
    if 0.0 < per_hour and 60.0 / per_hour > LONGEST:
        raise InputError(name, given, "planned stops of at least one in a million years, or none (0 per hour)")
    return per_hour


def parse_rate(value: object, name: str) -> float:
    """Read a rate of events per hour: ``"0.036 per hour"``, ``"0.87 per day"``, ``"2/h"``.

    >>> round(parse_rate("0.87 per day", "planned.rate"), 4)
    0.0363
    """
    expected = "a rate such as '0.036 per hour' or '0.87 per day' (events per unit of time)"
    text = value if isinstance(value, str) else ""
    match = re.fullmatch(r"\s*(\S+?)\s*(?:/|\s+per\s+)\s*([a-zA-Z]+)\s*", text)
    if match is None or match[2].lower() not in MINUTES_PER_UNIT:
        raise InputError(name, value, expected)
    per_hour = validate.non_negative(match[1], name, expected) * 60.0 / MINUTES_PER_UNIT[match[2].lower()]
    return planned_per_hour(per_hour, name, value)  # an overflow to infinity included


def _restart_parts(value: Mapping[str, Any]) -> dict[str, float]:
    spec = _mapping(value, "restart", _PART_KEYS, shape="a duration, or a mapping of its parts {detect: DURATION, "
                    "replace: ..., startup: ..., startup_per_node: ..., load: ..., warmup: ...}")
    return {str(k): parse_duration(v, f"restart.{k}", allow_zero=True) for k, v in spec.items()}


def _true_or_false(value: object, name: str) -> bool:
    flag = str(value).strip().lower()
    if flag not in ("true", "false"):
        raise InputError(name, value, "true or false")
    return flag == "true"


def _known_from_mapping(data: Mapping[str, Any]) -> Known:
    """Read the keys of what a planner knows (checkpoint, storage, snapshot, restart parts, spares)."""
    from goodput.restart import Spares

    found: dict[str, Any] = {}
    names: dict[str, str] = {}
    given: dict[str, Any] = {}  # each value as typed, for an error to quote
    fields: dict[str, tuple[tuple[str, str, Any], ...]] = {  # section: (key, field of Known, reader), read in order
        "checkpoint": (("size", "size", st.parse_size), ("parameters", "parameters", validate.positive),
                       ("bytes_per_parameter", "bytes_per_parameter", validate.positive)),
        "storage": (("write_bandwidth", "write_bandwidth", st.parse_bandwidth),
                    ("read_bandwidth", "read_bandwidth", st.parse_bandwidth),
                    ("efficiency", "efficiency", st.parse_efficiency),
                    ("read_efficiency", "read_efficiency", st.parse_efficiency),
                    ("price", "storage_price", st.storage_price)),
        "snapshot": (("bandwidth", "snapshot_bandwidth", st.parse_bandwidth),
                     ("host_memory", "host_memory", st.parse_size), ("double_buffered", "double_buffered", _true_or_false)),
    }

    def read(section: str, spec: Mapping[str, Any], where: str | None = None) -> None:
        where = section if where is None else where  # the key path typed: storage.snapshot nested, snapshot alone
        for key, field, reader in fields[section]:
            if key in spec:
                found[field], names[field] = reader(spec[key], f"{where}.{key}"), f"{where}.{key}"
                given[field] = spec[key]

    if "checkpoint" in data:
        spec = _mapping(data["checkpoint"], "checkpoint", _CHECKPOINT_KEYS,
                        shape="a mapping {size: SIZE} or {parameters: N, bytes_per_parameter: B}")
        if "size" in spec and ("parameters" in spec or "bytes_per_parameter" in spec):
            raise InputError("checkpoint", spec, "either size or parameters (with bytes_per_parameter), not both")
        if "size" not in spec and "parameters" not in spec:
            raise InputError("checkpoint", spec, "a size (checkpoint: {size: 2.3 TB}) or a parameter count "
                             "(checkpoint: {parameters: 530e9})")
        read("checkpoint", spec)
    snapshot = None
    if "storage" in data:
        spec = _mapping(data["storage"], "storage", _STORAGE_KEYS, required=("write_bandwidth",),
                        shape="a mapping {write_bandwidth: BANDWIDTH, read_bandwidth: BANDWIDTH, efficiency: SHARE, "
                        "price: USD per GB/s per month}")
        read("storage", spec)
        snapshot = spec.get("snapshot")
        if snapshot is not None and "snapshot" in data:
            raise InputError("storage.snapshot and snapshot", snapshot, "the snapshot given once")
    where = "storage.snapshot" if snapshot is not None else "snapshot"
    if snapshot is None and "snapshot" in data:
        snapshot = data["snapshot"]
    if snapshot is not None:
        read("snapshot", _mapping(snapshot, where, _SNAPSHOT_KEYS, required=("bandwidth",),
                                  shape="a mapping {bandwidth: BANDWIDTH per node, host_memory: SIZE per node, "
                                  "double_buffered: true|false}"), where)
    if "gpus_per_node" in data:
        names["gpus_per_node"] = "gpus_per_node"
    parts: dict[str, float] = {}
    if isinstance(data.get("restart"), Mapping):
        parts = _restart_parts(data["restart"])
        names.update({key: f"restart.{key}" for key in parts})
        given["restart"] = data["restart"]
    if "spares" in data:
        spec = _mapping(data["spares"], "spares", _SPARES_KEYS, required=_SPARES_KEYS,
                        shape="a mapping {nodes: N, repair: DURATION, takes_node: SHARE}")
        found["spares"] = Spares(nodes=validate.whole(spec["nodes"], "spares.nodes", least=0,
                                                      most=validate.MOST_HELD_SPARES),
                                 repair=parse_duration(spec["repair"], "spares.repair"),
                                 takes_node=validate.share(spec["takes_node"], "spares.takes_node"))
        names["spares"] = "spares"
    return Known(**found, parts=parts, names=names, given=given)


def jit_share(value: object, name: str) -> float:
    """A share of interruptions recovered just in time (``just_in_time:``, ``--just-in-time``): from 0 to below 1."""
    return validate.share(value, name, open_high=True, expected="a share of interruptions from 0 to below 1")


def _recovery_from_mapping(data: Mapping[str, Any]) -> dict[str, Any]:
    """Read ``just_in_time:`` and ``planned:`` (recovery without rollback, planned stops with notice)."""
    out: dict[str, Any] = {}
    if "just_in_time" in data:
        value = data["just_in_time"]
        if isinstance(value, Mapping):
            spec = _mapping(value, "just_in_time", _JIT_KEYS, required=("share",),
                            shape="a share, or a mapping {share: SHARE, recovery: DURATION}")
            value = spec["share"]
            if "recovery" in spec:
                out["jit_recovery"] = parse_duration(spec["recovery"], "just_in_time.recovery")
        out["just_in_time"] = jit_share(value, "just_in_time")
    if "planned" in data:
        spec = _mapping(data["planned"], "planned", _PLANNED_KEYS,
                        shape="a mapping {rate: '0.036 per hour'} or {count: N, window: DURATION}")
        if ("rate" in spec and ("count" in spec or "window" in spec)) or ("rate" not in spec and not (
                "count" in spec and "window" in spec)):
            raise InputError("planned", spec, "either {rate: '0.036 per hour'} or {count: N, window: DURATION}")
        if "rate" in spec:
            out["planned_rate"] = parse_rate(spec["rate"], "planned.rate")
        else:
            n = validate.whole(spec["count"], "planned.count", least=0)
            window = parse_duration(spec["window"], "planned.window")
            out |= {"planned_rate": planned_per_hour(n * 60.0 / window, "planned.count", spec["count"]),
                    "planned_count": n, "planned_window": window}
    return out


def load_params(path: str | os.PathLike[str] | None = None) -> Params:
    """Read and check a parameters file; ``None`` reads the worked example shipped with the package.

    Sets :attr:`Params.source` (``"worked example"`` for the shipped one), ``path`` and
    ``sha256``. Raises InputError if the file cannot be read, is too large, is not UTF-8 or
    valid YAML, or its values are not usable.
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
    data = copy.deepcopy(_read_yaml_once(text, source))
    return params_from_mapping(
        data, source=source, base=file.resolve().parent, path=file, sha256=hashlib.sha256(raw).hexdigest()
    )
