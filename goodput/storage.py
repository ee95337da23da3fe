"""From the model and the storage a planner knows to the checkpoint's size and its times.

Mixed-precision Adam keeps per parameter bf16 weights (2 bytes), fp32 master weights (4) and two fp32
moments (4 + 4): 14 bytes (12 without the bf16 copy, 16 with fp32 gradients). A transfer of S bytes
takes S / B at the achieved bandwidth B (stated x efficiency): without a snapshot C = S / B_write; with a
snapshot to host memory C = S / (nodes x B_d2h per node) and the drain D = S / B_write; the load after an
interruption, part of R, is S / B_read. Units are read as written (``"329 GiB"``, ``"20 Gb/s"`` bits,
``"2.5 GB/s"`` bytes); only the case of ``b`` tells bits from bytes, so ``"20 gb/s"`` is refused, as is a
bandwidth without ``/s``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from goodput import validate
from goodput.errors import InputError

#: The default: bf16 weights + fp32 master weights + first and second moments, 2 + 4 + 4 + 4.
DEFAULT_BYTES_PER_PARAMETER = 14.0
#: Bytes per parameter of bf16 weights alone.
BF16_BYTES_PER_PARAMETER = 2.0

_PREFIX = {"": 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15,
           "Ki": 2.0**10, "Mi": 2.0**20, "Gi": 2.0**30, "Ti": 2.0**40, "Pi": 2.0**50}
_QUANTITY = re.compile(
    r"\s*(?P<number>[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)\s*"
    r"(?P<prefix>[kKMGTP]i?|)(?P<unit>B|b|bit|bits|byte|bytes)?(?P<per>\s*/\s*s|ps)?\s*",
    re.ASCII,
)
#: What a storage price must be, in words (for the one-line error).
PRICE_EXPECTED = "US dollars per GB/s of write bandwidth per month, zero to ten million, e.g. 1500"


def storage_price(value: object, name: str = "storage.price") -> float:
    """Read a price of storage bandwidth: US dollars per GB/s a month, from zero to :data:`~goodput.validate.MOST_STORAGE_PRICE`.

    >>> storage_price("1500")
    1500.0
    """
    return validate.price(value, name, most=validate.MOST_STORAGE_PRICE, expected=PRICE_EXPECTED, zero=True)


#: The fastest write any search or ceiling considers, bytes per second (1 PB/s); also the fastest bandwidth read
#: (a slip such as '1e306 B/s' is refused, not planned into storage costs of $1e298 a month or an overflow).
FASTEST = 1e15
#: The largest size read, bytes: 1,000 PB (1 EB), thousands of times the largest checkpoint (a slip such as
#: '1e300 PB' is refused as too large, not as "at least 1 B").
LARGEST = 1e18
#: What a bandwidth efficiency must be, in words (``storage.efficiency``, ``--bandwidth-efficiency``).
EFFICIENCY_EXPECTED = "a share of the stated bandwidth achieved, above 0 and at most 1"
_SIZE_EXPECTED = "a size such as '2.3 TB', '329 GB' or '650 GiB' (B is bytes; 1 TB = 1e12 B, 1 TiB = 2^40 B)"
_BANDWIDTH_EXPECTED = ("a bandwidth such as '2.5 GB/s' (bytes), '20 Gb/s' (bits), '1.2 TB/s' or '900 MiB/s': "
                       "B is bytes, b is bits, and a bandwidth ends in /s")

_SIZE_MOST = "a size of at most 1,000 PB (1e18 B)"
_BANDWIDTH_MOST = "a bandwidth of at most 1 PB/s (1e15 B/s)"


def _quantity(value: object, name: str, rate: bool) -> float:
    """A size in bytes or (`rate`) a bandwidth in bytes per second, above zero, or an InputError."""
    expected, what = (_BANDWIDTH_EXPECTED, "a bandwidth") if rate else (_SIZE_EXPECTED, "a size")
    if isinstance(value, bool) or not isinstance(value, str):
        raise InputError(name, value, f"{expected} (a number needs a unit)")
    match = _QUANTITY.fullmatch(value)
    if match is None or match["unit"] is None:
        raise InputError(name, value, expected)
    bits = match["unit"] in ("b", "bit", "bits")
    if (match["per"] is not None) != rate or (bits and not rate):
        raise InputError(name, value, expected)
    number = float(match["number"]) * _PREFIX[match["prefix"]] / (8.0 if bits else 1.0)
    # at least a byte (a second): a subnormal bandwidth times its efficiency rounded to zero, a division by zero
    if not 1.0 <= number:  # the value as written in the message, not the number read from it
        raise InputError(name, value, f"{what} of at least 1 B{'/s' if rate else ''}: {expected}")
    if number > (FASTEST if rate else LARGEST):  # an overflow to infinity included
        raise InputError(name, value, _BANDWIDTH_MOST if rate else _SIZE_MOST)
    return number


def parse_size(value: object, name: str) -> float:
    """Read a size such as ``"2.3 TB"`` or ``"650 GiB"`` in bytes (not bits, not a rate, above zero).

    >>> parse_size("2.3 TB", "checkpoint_size"), parse_size("1 GiB", "host_memory")
    (2300000000000.0, 1073741824.0)
    """
    return _quantity(value, name, rate=False)


def parse_bandwidth(value: object, name: str) -> float:
    """Read a bandwidth such as ``"2.5 GB/s"`` or ``"20 Gb/s"`` / ``"20 Gbps"`` (bits) in bytes per second.

    >>> parse_bandwidth("20 Gb/s", "write_bandwidth"), parse_bandwidth("2.5 GB/s", "write_bandwidth")
    (2500000000.0, 2500000000.0)
    """
    return _quantity(value, name, rate=True)


def parse_efficiency(value: object, name: str) -> float:
    """The share of a stated bandwidth achieved: above 0 and at most 1."""
    return validate.share(value, name, open_low=True, expected=EFFICIENCY_EXPECTED)


def _scaled(x: float, units: tuple[str, ...]) -> str:
    """Three significant digits in the largest decimal unit that keeps the number at 1 or more."""
    exponent = min(len(units) - 1, max(0, math.floor(math.log10(x) / 3)) if x > 0 else 0)
    value = x / 1000.0**exponent
    return f"{value:.3g} {units[exponent]}"


def format_size(size: float) -> str:
    """Write a size in bytes with decimal units.

    >>> format_size(176.25e9 * 14), format_size(329e9)
    ('2.47 TB', '329 GB')
    """
    return _scaled(size, ("B", "kB", "MB", "GB", "TB", "PB"))


def format_bandwidth(bytes_per_s: float) -> str:
    """Write a bandwidth in bytes per second with decimal units: ``"2.5 GB/s"``.

    >>> format_bandwidth(2.5e9), format_bandwidth(40e9)
    ('2.5 GB/s', '40 GB/s')
    """
    return _scaled(bytes_per_s, ("B/s", "kB/s", "MB/s", "GB/s", "TB/s", "PB/s"))


def checkpoint_size(parameters: float, bytes_per_parameter: float = DEFAULT_BYTES_PER_PARAMETER) -> float:
    """A checkpoint's size in bytes: parameters x bytes per parameter (:data:`DEFAULT_BYTES_PER_PARAMETER`: 14, mixed-precision Adam).

    >>> format_size(checkpoint_size(530e9, 12))
    '6.36 TB'
    """
    p = validate.positive(parameters, "parameters")
    b = validate.positive(bytes_per_parameter, "bytes_per_parameter")
    if not math.isfinite(p * b):
        raise InputError("parameters", parameters, "a count whose checkpoint, parameters × bytes per parameter, "
                         "has a finite size")
    return p * b


def transfer_minutes(size: float, bandwidth: float, efficiency: float = 1.0) -> float:
    """Minutes to move ``size`` bytes at ``bandwidth`` bytes per second, of which a share ``efficiency`` is achieved.

    >>> round(transfer_minutes(checkpoint_size(530e9, 12), parse_bandwidth("20 Gb/s", "bw")), 1)
    42.4
    """
    s = validate.positive(size, "checkpoint_size")
    b = validate.positive(bandwidth, "bandwidth")
    e = validate.share(efficiency, "bandwidth_efficiency", open_low=True)
    return s / (b * e) / 60.0


@dataclass(frozen=True)
class Storage:
    """What a planner knows of the checkpoint and the storage: bytes, bytes per second (stated, aggregate).

    ``efficiency`` is the share of stated bandwidth achieved (1: measured); ``read_efficiency`` None means
    the same. ``snapshot_bandwidth`` is device-to-host per node (None: a synchronous write); ``host_memory``
    free bytes per node (None: not checked); ``double_buffered`` keeps two snapshots in host memory;
    ``price`` US dollars per GB/s (1e9 bytes/s) per month. Raises InputError when the host memory is short.
    """

    size: float
    nodes: int
    write_bandwidth: float
    read_bandwidth: float | None = None
    efficiency: float = 1.0
    read_efficiency: float | None = None
    snapshot_bandwidth: float | None = None
    host_memory: float | None = None
    double_buffered: bool = False
    price: float | None = None

    def __post_init__(self) -> None:
        validate.positive(self.size, "checkpoint_size")
        validate.whole(self.nodes, "nodes")
        validate.positive(self.write_bandwidth, "write_bandwidth")
        validate.share(self.efficiency, "bandwidth_efficiency", open_low=True)
        if self.read_bandwidth is not None:
            validate.positive(self.read_bandwidth, "read_bandwidth")
        if self.read_efficiency is not None:
            validate.share(self.read_efficiency, "read_efficiency", open_low=True)
        if self.price is not None:
            storage_price(self.price)
        if self.snapshot_bandwidth is not None:
            validate.positive(self.snapshot_bandwidth, "snapshot_bandwidth")
        if self.host_memory is not None:
            validate.positive(self.host_memory, "host_memory")
            if self.snapshot_bandwidth is not None and self.host_memory_needed > self.host_memory:
                raise InputError("host_memory", f"{format_size(self.host_memory)} per node",
                                 f"at least {format_size(self.host_memory_needed)} per node, the snapshot's share of "
                                 f"the checkpoint{' twice (double-buffered)' if self.double_buffered else ''}")

    @property
    def doubling_cost_per_month(self) -> float | None:
        """What doubling the stated write bandwidth adds to the storage's cost, US dollars a month; None unpriced.

        The lever "double the storage bandwidth" is worth its goodput before this cost.

        >>> Storage(size=5.67e12, nodes=8192, write_bandwidth=2e12, price=1500.0).doubling_cost_per_month
        3000000.0
        """
        if self.price is None:
            return None
        return storage_cost_per_month(self.price, 2.0 * self.write_bandwidth) - storage_cost_per_month(
            self.price, self.write_bandwidth)

    @property
    def write_minutes(self) -> float:
        """Minutes to write the whole checkpoint to shared storage at the achieved bandwidth."""
        return transfer_minutes(self.size, self.write_bandwidth, self.efficiency)

    @property
    def checkpoint_cost(self) -> float:
        """C, minutes: the snapshot to host memory if there is one, else the synchronous write."""
        if self.snapshot_bandwidth is None:
            return self.write_minutes
        return transfer_minutes(self.size / self.nodes, self.snapshot_bandwidth)

    @property
    def drain(self) -> float:
        """D, minutes: the write to shared storage after a snapshot (0 without one)."""
        return 0.0 if self.snapshot_bandwidth is None else self.write_minutes

    @property
    def load(self) -> float | None:
        """Minutes to read the checkpoint back after an interruption (None without a read bandwidth)."""
        if self.read_bandwidth is None:
            return None
        efficiency = self.efficiency if self.read_efficiency is None else self.read_efficiency
        return transfer_minutes(self.size, self.read_bandwidth, efficiency)

    @property
    def host_memory_needed(self) -> float:
        """Host memory bytes a snapshot needs per node: its share, twice if double-buffered."""
        return self.size / self.nodes * (2.0 if self.double_buffered else 1.0)


def bandwidth_for_goodput(goodput_at: Callable[[float], float], target: float, low: float = 1e6,
                          high: float = FASTEST) -> float | None:
    """The least bandwidth (bytes/s) at which ``goodput_at`` reaches ``target``, by bisection on its logarithm.

    ``goodput_at`` must never fall as bandwidth rises. Within a relative 1e-9; ``low`` if even that reaches
    the target; None if not even ``high`` does (the target needs more than bandwidth).

    >>> round(bandwidth_for_goodput(lambda b: 1 - 1e9 / b, 0.9) / 1e10, 6)
    1.0
    """
    t = validate.share(target, "target_goodput", open_low=True, open_high=True)
    if goodput_at(low) >= t:
        return low
    if goodput_at(high) < t:
        return None
    lo, hi = math.log(low), math.log(high)
    while hi - lo > 1e-9:
        mid = (lo + hi) / 2.0
        if goodput_at(math.exp(mid)) >= t:
            hi = mid
        else:
            lo = mid
    return math.exp(hi)


def storage_cost_per_month(price: float, bandwidth: float) -> float:
    """What a stated write bandwidth costs a month, US dollars: price (per GB/s per month) x bandwidth / 1e9.

    >>> storage_cost_per_month(1500.0, 2e12)
    3000000.0
    """
    return storage_price(price) * validate.positive(
        bandwidth, "bandwidth") / 1e9


#: How far either side of the fleet's bandwidth :func:`best_bandwidth` searches: B / 64 to 64 B.
SEARCH_SPAN = 64.0
#: Grid points per factor of two of that search (a quarter octave apart).
SEARCH_PER_OCTAVE = 4
#: The golden-section refinement stops when the bracket is this narrow in log B (a relative 1e-6).
SEARCH_TOLERANCE = 1e-6


#: Below this share of the fleet's own net a month, B* is no better than the fleet's own bandwidth: a bandwidth
#: efficiency and a datasheet price, two digits each, do not tell a thousandth apart (BestBandwidth.flat).
FLAT_SHARE = 1e-3


@dataclass(frozen=True)
class BestBandwidth:
    """The stated write bandwidth B* (bytes/s) that maximizes goodput's worth net of the bandwidth's cost.

    Dollars are US dollars a month. ``edge`` (``"top"``/``"bottom"``) says B* is an end of the search
    (:data:`SEARCH_SPAN`): no optimum inside the range searched. ``interval`` is the checkpoint interval of the
    fleet's plan at B* and ``drain`` that plan's drain (minutes; 0 without one, and both 0 where no plan is made);
    ``at_drain`` whether that plan checkpoints as often as its drain allows (:attr:`goodput.plan.Plan.at_drain`).
    """

    bandwidth: float
    goodput: float
    net_per_month: float
    storage_cost_per_month: float
    edge: str | None = None
    interval: float = 0.0
    drain: float = 0.0
    at_drain: bool = False
    own_net_per_month: float = math.nan

    @property
    def flat(self) -> bool:
        """Whether the fleet's own bandwidth nets as much as B* to the inputs' precision (:data:`FLAT_SHARE`).

        B* inside the search that nets no more than that share of the fleet's own net above it: no bandwidth to buy
        or shed, whatever B* is.
        """
        return self.edge is None and self.net_per_month - self.own_net_per_month <= FLAT_SHARE * abs(self.own_net_per_month)


def best_bandwidth(net_at: Callable[[float], float], bandwidth: float, span: float = SEARCH_SPAN) -> tuple[float, str | None]:
    """The bandwidth maximizing ``net_at``, from ``bandwidth`` / ``span`` to ``span`` x ``bandwidth``, and its edge.

    A log grid (:data:`SEARCH_PER_OCTAVE` per factor of two), then golden-section on log B between the grid
    points either side of the best, to a relative :data:`SEARCH_TOLERANCE`. A best grid point at an end is
    returned as ``"top"``/``"bottom"`` (at a price of zero, always the top).

    >>> import math
    >>> b, edge = best_bandwidth(lambda b: math.log(b) - b / 3e9, 1e9)  # maximum at 3 GB/s
    >>> round(b / 1e9, 4), edge
    (3.0, None)
    >>> best_bandwidth(lambda b: math.log(b), 1e9)[1]
    'top'
    """
    b = validate.positive(bandwidth, "bandwidth")
    octaves = math.log2(validate.positive(span, "span"))
    steps = max(2, round(2 * octaves * SEARCH_PER_OCTAVE))
    lo, hi = math.log(b / span), math.log(b * span)
    grid = [lo + (hi - lo) * k / steps for k in range(steps + 1)]
    values = [net_at(math.exp(x)) for x in grid]
    k = max(range(len(grid)), key=lambda i: (values[i], -i))  # the lowest bandwidth among equal values
    if k == len(grid) - 1:
        return math.exp(grid[-1]), "top"
    if k == 0:
        return math.exp(grid[0]), "bottom"
    a, c = grid[k - 1], grid[k + 1]
    ratio = (math.sqrt(5.0) - 1.0) / 2.0
    x1, x2 = c - ratio * (c - a), a + ratio * (c - a)
    f1, f2 = net_at(math.exp(x1)), net_at(math.exp(x2))
    while c - a > SEARCH_TOLERANCE:
        if f1 >= f2:
            c, x2, f2 = x2, x1, f1
            x1 = c - ratio * (c - a)
            f1 = net_at(math.exp(x1))
        else:
            a, x1, f1 = x1, x2, f2
            x2 = a + ratio * (c - a)
            f2 = net_at(math.exp(x2))
    best = max((values[k], grid[k]), (f1, x1), (f2, x2))
    return math.exp(best[1]), None
