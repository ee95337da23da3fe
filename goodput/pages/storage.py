"""The chapter "From your model and your storage to C and R" (``book/storage.md``): sizes, times and bandwidth.

The published figures are data (:mod:`goodput.sources`), the book's numbers computed from them by
:mod:`goodput.storage`. The fleet's part is :func:`goodput.whatif.storage_whatif`': its whole scheme with its storage
inputs; without them, its slow checkpoint read as a synchronous write of BLOOM's checkpoint, labelled as such.
"""

from __future__ import annotations

from dataclasses import dataclass

from goodput import sources
from goodput.fleet import FleetPlan
from goodput.pages import Variant
from goodput.pages.common import Fleet, fleet_values
from goodput.plan import STORAGE_LEVERS
from goodput.report import gain_text, money, percent, percent_apart, points, small_points, storage_rederived
from goodput.storage import (
    BF16_BYTES_PER_PARAMETER,
    DEFAULT_BYTES_PER_PARAMETER,
    FASTEST,
    FLAT_SHARE,
    SEARCH_SPAN,
    checkpoint_size,
    format_bandwidth,
    format_size,
    parse_bandwidth,
    transfer_minutes,
)
from goodput.units import format_duration, significant
from goodput.whatif import storage_whatif


def gib(size: float) -> str:
    """A size in binary units: ``"328 GiB"``, ``"2.24 TiB"``."""
    if size >= 2.0**40:
        return f"{significant(size / 2.0**40)} TiB"
    return f"{significant(size / 2.0**30)} GiB"


def gap(book: float, published: float) -> str:
    """How far the book's number is from the published one, as a share of the published: ``"1.0%"``."""
    return percent(abs(book - published) / published)


def span(low: float, high: float) -> str:
    """Two bandwidths as a range, both ends to three significant digits: ``"268 to 312 MB/s"``, ``"1.40 to 1.63 GB/s"``.

    >>> span(268e6, 312e6), span(1.4e9, 1.63e9), span(900e6, 1.2e9)
    ('268 to 312 MB/s', '1.40 to 1.63 GB/s', '900 MB/s to 1.20 GB/s')
    """
    units = ("B/s", "kB/s", "MB/s", "GB/s", "TB/s", "PB/s")

    def end(x: float) -> tuple[str, str]:
        unit = format_bandwidth(x).split()[1]  # the unit format_bandwidth chooses, the value with its trailing zeros
        return f"{x / 1000.0 ** units.index(unit):#.3g}".rstrip("."), unit

    (a, a_unit), (b, b_unit) = end(low), end(high)
    return f"{a} to {b} {b_unit}" if a_unit == b_unit else f"{a} {a_unit} to {b} {b_unit}"


@dataclass(frozen=True)
class Page(Fleet):
    """The values ``book/storage.md`` quotes."""

    bytes_default: str
    bloom_parameters: str
    bloom_weights: str
    bloom_weights_gib: str
    bloom_weights_published: str
    bloom_weights_gap: str
    bloom_full: str
    bloom_full_tib: str
    bloom_full_published: str
    bloom_full_gap_decimal: str
    bloom_full_gap_binary: str
    gemini_size: str
    gemini_bandwidth: str
    gemini_minutes: str
    gemini_published: str
    gemini_gap: str
    lablup_write: str
    lablup_write_share: str
    lablup_write_achieved: str
    lablup_read: str
    lablup_read_share: str
    lablup_read_achieved: str
    lablup_save: str
    lablup_save_datasheet: str
    lablup_load: str
    lablup_load_datasheet: str
    staging_size: str
    staging_per_node: str
    staging_published: str
    staging_free: str
    staging_share: str
    staging_double: str
    titan_size: str
    titan_bandwidth: str
    megatron_size: str
    megatron_bandwidth: str
    fleet_storage: Variant
    size: str
    achieved: str
    datasheet: str
    efficiency: str
    written: Variant
    cost_now: str
    goodput_now: str
    ceiling: str
    ceiling_gap: str
    fastest: str
    target: str
    needed: Variant
    needed_bandwidth: str
    needed_cost: str
    double_goodput: str
    double_points: str
    double_dollars: str
    read_doubled: str
    rederived: str
    match: Variant
    search: Variant
    match_bandwidth: str
    match_cost: str
    snapshot_lever: Variant
    snapshot_points: str
    snapshot_dollars: str
    best: Variant
    storage_price: str
    span: str
    best_bandwidth: str
    best_achieved: str
    best_goodput: str
    best_cost: str
    best_net: str
    flat_share: str
    fleet_cost: str
    fleet_net: str
    best_gain: str
    best_every: Variant
    best_interval: str
    best_drain: str
    double_cost: str
    stall: Variant
    copy_words: str
    stall_published: str
    stall_interval: str
    stall_goodput: str
    stall_points: str
    stall_copy: str
    stall_times: str
    stall_rest: str
    stall_copy_goodput: str
    ceiling_scheme: Variant
    best_for: Variant
    write_scheme: Variant
    best_scheme: Variant
    sync_double_goodput: str
    sync_double_points: str
    sync_best_bandwidth: str
    sync_best_achieved: str
    sync_best_goodput: str
    sync_best_net: str
    sync_best_interval: str
    sync_at_best_cost: str


def build(fleet: FleetPlan) -> Page:
    """The storage page of a fleet.

    >>> from goodput.fleet import fleet_plan
    >>> from goodput.params import load_params
    >>> page = build(fleet_plan(load_params()))
    >>> page.bloom_full, page.gemini_minutes, page.staging_per_node
    ('2.47 TB', '42.4 min', '651 GB')
    """
    s = fleet.storage
    weights = checkpoint_size(sources.BLOOM_PARAMETERS, BF16_BYTES_PER_PARAMETER)
    full = checkpoint_size(sources.BLOOM_PARAMETERS)
    gemini_size = checkpoint_size(sources.GEMINI_PARAMETERS, sources.GEMINI_BYTES)
    gemini_bandwidth = parse_bandwidth(sources.GEMINI_BANDWIDTH, "GEMINI bandwidth")
    gemini_minutes = transfer_minutes(gemini_size, gemini_bandwidth)
    write = parse_bandwidth(sources.LABLUP_WRITE, "Lablup write")
    read = parse_bandwidth(sources.LABLUP_READ, "Lablup read")
    staging = checkpoint_size(sources.STAGING_PARAMETERS, sources.STAGING_BYTES)
    per_node = staging / sources.STAGING_NODES
    titan = [checkpoint_size(sources.TITAN_PARAMETERS, b) for b in sources.REPORT_BYTES]
    megatron = [checkpoint_size(sources.MEGATRON_PARAMETERS, b) for b in sources.REPORT_BYTES]
    sw = storage_whatif(fleet)
    w, stall, measured = sw.write, sw.stall, sw.measured  # measured: C typed beside the snapshot, no what-if
    size, achieved = w.size, w.achieved
    needed = w.needed if w.needed is not None else achieved
    match = w.match if w.match is not None else achieved
    snap = fleet.levers.get(STORAGE_LEVERS["double_snapshot_bandwidth"])
    best = fleet.best_write_bandwidth
    price = None if s is None else s.price
    best_variant = ("none" if s is None else "unpriced" if best is None else
                    "flat" if best.flat else "inside" if best.edge is None else best.edge)
    doubling = None if s is None else s.doubling_cost_per_month
    stall_variant = ("measured_loses" if measured.below_slow else "measured") if measured else \
        "none" if stall is None else "loses" if stall.below_slow else "pays"
    # Where the scheme does not pay, the ceiling, B* and the figure are its own as measured; the synchronous write's
    # (the fleet without its snapshot, where the write is C) beside them.
    sync = fleet.synchronous
    sync_best = None if sync is None else sync.best_write_bandwidth
    return Page(
        **fleet_values(fleet),
        bytes_default=f"{DEFAULT_BYTES_PER_PARAMETER:g}",
        bloom_parameters=f"{significant(sources.BLOOM_PARAMETERS / 1e9, 5)} billion",
        bloom_weights=format_size(weights),
        bloom_weights_gib=gib(weights), bloom_weights_published=f"{sources.BLOOM_WEIGHTS_PUBLISHED:g} GB",
        bloom_weights_gap=gap(weights / 2.0**30, sources.BLOOM_WEIGHTS_PUBLISHED), bloom_full=format_size(full),
        bloom_full_tib=gib(full), bloom_full_published=f"{sources.BLOOM_CHECKPOINT_PUBLISHED:g} TB",
        bloom_full_gap_decimal=gap(full / 1e12, sources.BLOOM_CHECKPOINT_PUBLISHED),
        bloom_full_gap_binary=gap(full / 2.0**40, sources.BLOOM_CHECKPOINT_PUBLISHED),
        gemini_size=format_size(gemini_size), gemini_bandwidth=format_bandwidth(gemini_bandwidth),
        gemini_minutes=format_duration(gemini_minutes), gemini_published=format_duration(sources.GEMINI_MINUTES),
        gemini_gap=gap(gemini_minutes, sources.GEMINI_MINUTES), lablup_write=format_bandwidth(write),
        lablup_write_share=percent(sources.LABLUP_WRITE_SHARE),
        lablup_write_achieved=format_bandwidth(write * sources.LABLUP_WRITE_SHARE),
        lablup_read=format_bandwidth(read), lablup_read_share=percent(sources.LABLUP_READ_SHARE),
        lablup_read_achieved=format_bandwidth(read * sources.LABLUP_READ_SHARE),
        lablup_save=format_duration(transfer_minutes(full, write, sources.LABLUP_WRITE_SHARE)),
        lablup_save_datasheet=format_duration(transfer_minutes(full, write)),
        lablup_load=format_duration(transfer_minutes(full, read, sources.LABLUP_READ_SHARE)),
        lablup_load_datasheet=format_duration(transfer_minutes(full, read)),
        staging_size=format_size(staging), staging_per_node=format_size(per_node),
        staging_published=format_size(sources.STAGING_PUBLISHED), staging_free=format_size(sources.STAGING_FREE),
        staging_share=percent(per_node / sources.STAGING_FREE, 0), staging_double=format_size(2.0 * per_node),
        titan_size=f"{format_size(titan[0])} to {format_size(titan[1])}",
        titan_bandwidth=span(*(x / (sources.TITAN_MINUTES * 60.0) for x in titan)),
        megatron_size=f"{format_size(megatron[0])} to {format_size(megatron[1])}",
        megatron_bandwidth=span(*(x / (sources.MEGATRON_MINUTES * 60.0) for x in megatron)),
        fleet_storage=Variant("illustration" if s is None else "given"),
        size=format_size(size), achieved=format_bandwidth(achieved), datasheet=format_bandwidth(w.stated),
        efficiency=percent(achieved / w.stated, 0),
        written=Variant("cost" if s is None or s.snapshot_bandwidth is None else "drain"),
        cost_now=format_duration(transfer_minutes(size, achieved)),
        goodput_now=percent(w.now.goodput), ceiling=percent(w.ceiling),
        ceiling_gap=small_points(max(0.0, w.ceiling - w.now.goodput)), fastest=format_bandwidth(FASTEST), target=percent(max(0.0, w.target)),
        needed=Variant("already" if w.needed is None else "more"),
        needed_bandwidth=format_bandwidth(needed), needed_cost=format_duration(transfer_minutes(size, needed)),
        double_goodput=percent(w.doubled), double_points=gain_text(sw.double_gain),
        double_dollars=money(fleet.dollars(sw.double_gain)),
        **storage_rederived(fleet.params),
        match=Variant("none" if s is not None else "unreachable" if w.match is None else "reachable"),
        # How a bandwidth for a target goodput is found, said where the page quotes one.
        search=Variant("none" if w.needed is None and (s is not None or w.match is None) else "quoted"),
        match_bandwidth=format_bandwidth(match), match_cost=format_duration(transfer_minutes(size, match)),
        snapshot_lever=Variant("none" if snap is None else "gains"),
        snapshot_points=gain_text(snap) if snap is not None else "",
        snapshot_dollars=money(max(0.0, fleet.dollars(snap))) if snap is not None else "", best=Variant(best_variant),
        storage_price=f"${price:,.6g}" if price is not None else "", span=f"{SEARCH_SPAN:g}",
        flat_share=percent(FLAT_SHARE),
        best_bandwidth=format_bandwidth(best.bandwidth) if best else "",
        best_achieved=format_bandwidth(best.bandwidth * s.efficiency) if best and s else "",
        best_goodput=percent(best.goodput) if best else "",
        best_cost=money(best.storage_cost_per_month) if best else "",
        best_net=money(best.net_per_month) if best else "", fleet_cost=money(sw.fleet_cost),
        fleet_net=money(sw.fleet_net), best_gain=money(sw.best_gain) if best else "",
        # How often the plan at B* checkpoints: as often as the drain allows where it outlasts the fleet's interval.
        best_every=Variant("none" if best is None or best.interval <= 0.0 else
                           "at_drain" if best.at_drain else "optimum"),
        best_interval=format_duration(best.interval) if best else "",
        best_drain=format_duration(best.drain) if best else "",
        double_cost=money(doubling) if doubling is not None else "",
        stall=Variant(stall_variant),
        copy_words=fleet.params.derived.get("snapshot_copy" if measured else "checkpoint_cost", ""),
        stall_published=format_duration(stall.stall) if stall else "",
        stall_interval=format_duration(stall.plan.interval) if stall and stall.plan else "",
        stall_goodput=percent_apart(stall.goodput, fleet.goodput, fleet.slow.goodput) if stall else "",
        stall_points=points(sw.stall_loss) if stall else "",
        stall_copy=format_duration(measured.copy) if measured else "",
        stall_times=significant(measured.times_copy, 2) if measured else "",
        stall_rest=format_duration(measured.rest) if measured else "",
        stall_copy_goodput=percent(measured.at_copy) if measured else "",
        ceiling_scheme=Variant("none" if sync is None else "as_measured"),
        best_for=Variant("fleet" if sync is None else "as_measured"),
        write_scheme=Variant("none" if sync is None else "as_measured"),
        best_scheme=Variant("as_measured" if sync is not None and best is not None and sync_best is not None
                            else "none"),
        sync_double_goodput=percent(sw.sync_doubled) if sync else "",
        sync_double_points=gain_text(sw.sync_gain) if sync else "",
        sync_best_bandwidth=format_bandwidth(sync_best.bandwidth) if sync_best else "",
        sync_best_achieved=format_bandwidth(sync_best.bandwidth * s.efficiency) if sync_best and s else "",
        sync_best_goodput=percent(sync_best.goodput) if sync_best else "",
        sync_best_net=money(sync_best.net_per_month) if sync_best else "",
        sync_best_interval=format_duration(sync_best.interval) if sync_best else "",
        # the write at the scheme's B*, with the barrier and quiesce it pays as well (Known.barrier)
        sync_at_best_cost=format_duration(transfer_minutes(size, best.bandwidth * s.efficiency)
                                          + (sync.params.known.barrier if sync and sync.params.known else 0.0))
        if sync_best and best and s else "",
    )
