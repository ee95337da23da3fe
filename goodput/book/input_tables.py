"""Tables of the inputs chapter (book/inputs.md), and the arguments of its figures.

Each function takes the fleet's plan or inputs and the published records (:func:`goodput.book.data.published_fleets`)
and returns a :class:`pandas.DataFrame` of text for :func:`goodput.book.tables.book_table`.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from goodput import fleets, sources
from goodput.fleet import CONFIDENCE, FleetPlan
from goodput.model import capacity_per_month
from goodput.params import Params, mtbi_from_rate
from goodput.report import (
    duration_and_range,
    per_million,
    per_million_range,
    planned_text,
    record_name,
    restart_sum,
    share_text,
)
from goodput.units import DAY, format_duration

#: What each kind of record counts, as a table cell (:data:`goodput.fleets.KINDS`).
KIND_CELLS = {
    "job interruptions": "one job",
    "stated frequency": "stated in words",
    "cluster rate": "a cluster, as reported",
    "machine-wide events": "a machine's GPU events",
}
#: What each grade of a record means, as a table cell.
GRADE_CELLS = {"P": "primary source", "S": "as reported by others", "D": "counted from primary sources"}


def root_causes() -> pd.DataFrame:
    """Table 5 of the Llama 3 paper: counts, shares computed from them, and the shares as printed (fractions of 1)."""
    table = sources.llama3_root_causes().rename(columns={"count": "interruptions", "share": "share (from the counts)"})
    table["share as printed"] = list(sources.LLAMA3_PRINTED_SHARES)
    return table


def root_cause_columns() -> tuple[list[str], list[str], list[int]]:
    """Table 5's components, categories and counts, as :func:`goodput.book.figures.root_causes` takes them."""
    table = sources.llama3_root_causes()
    return table["component"].tolist(), table["category"].tolist(), [int(n) for n in table["count"]]


def published(params: Params, records: Sequence[fleets.PublishedFleet]) -> pd.DataFrame:
    """The published records beside this fleet's: GPUs, window, count, rate with its interval, M at this size."""
    rate_column, m_column = "rate per million GPU-hours", f"M at {params.gpus:,} GPUs"
    own_rate, own_m = per_million(params.rate_per_gpu_hour), format_duration(params.mtbi)
    if params.counted:
        n, window = params.counted
        gpu_hours = capacity_per_month(1.0, params.gpus, 1.0, window)  # GPU-hours: $1 each
        lo, hi = fleets.rate_interval(n, gpu_hours, CONFIDENCE)
        own_rate += f" ({per_million_range(lo, hi)})"
        own_m = duration_and_range(params.mtbi, float(mtbi_from_rate(hi, params.gpus)),
                                   float(mtbi_from_rate(lo, params.gpus)))
    rows = [{"fleet": f"this fleet: {params.source}", "GPUs": f"{params.gpus:,}",
             "window": format_duration(params.window) if params.window else "",
             "interruptions": f"{params.interruption_count:,}" if params.interruption_count else "",
             rate_column: own_rate, m_column: own_m, "counts": "this fleet"}]
    for f in records:
        interval, m_interval = f.rate_interval(CONFIDENCE), f.mtbi_interval_at(params.gpus, CONFIDENCE)
        rows.append({
            "fleet": record_name(f),
            "GPUs": f"{f.gpus:,}" if f.gpus is not None else "",
            "window": format_duration(f.window_days * DAY) if f.window_days is not None else "",
            "interruptions": f"{f.unplanned:,}" if f.unplanned is not None else "not counted",
            rate_column: per_million(f.rate) + (f" ({per_million_range(*interval)})" if interval is not None else ""),
            m_column: format_duration(f.mtbi_at(params.gpus)) if m_interval is None
            else duration_and_range(f.mtbi_at(params.gpus), *m_interval),
            "counts": KIND_CELLS[f.kind],
        })
    return pd.DataFrame(rows)


def published_sources(records: Sequence[fleets.PublishedFleet]) -> pd.DataFrame:
    """What each published record counts (its own words), where its rate comes from, and how it was read."""
    return pd.DataFrame([{"fleet": record_name(f), "GPUs": f.gpu_type, "what counts": f.what_counts,
                          "rate from": "the count" if f.counted else f.rate_basis, "read": GRADE_CELLS[f.grade]}
                         for f in records])


def published_rates_args(params: Params, records: Sequence[fleets.PublishedFleet]) -> dict[str, object]:
    """The arguments of :func:`goodput.book.figures.published_rates`: the records and this fleet."""
    return {
        "labels": [f"{record_name(f)}, {per_million(f.rate)}" for f in records],
        "rates": [f.rate for f in records],
        "intervals": [f.rate_interval(CONFIDENCE) for f in records],
        "band": f"{CONFIDENCE:.0%} counting interval",
        "kinds": [f.kind for f in records],
        "gpus": params.gpus,
        "mtbi": params.mtbi,
        "rate": params.rate_per_gpu_hour,
        "label": f"this fleet, {per_million(params.rate_per_gpu_hour)}",
        "mark": f"this fleet: {params.gpus:,} GPUs,\nM = {format_duration(params.mtbi)}",
    }


def inputs(fleet: FleetPlan) -> pd.DataFrame:
    """Which inputs the file gives and which it derives, with this fleet's values and the plan's interval.

    A duration typed in the inputs file is "given": the file states it, and where to measure it is the last column. A
    C typed beside a snapshot is given as the measured stall, the copy alone beside it.
    """
    p = fleet.params
    how_m = {"interruptions": "derived: a count over a window", "rate_per_gpu_hour": "derived: 60 min / (per-GPU rate × GPUs)",
             "mtbi": "given as M"}[p.mtbi_source]

    def how(key: str) -> str:
        """``"derived: <how>"`` where the inputs file derived the duration (:attr:`Params.derived`), else given."""
        return f"derived: {p.derived[key]}" if key in p.derived else "given"

    rows = [
        ("M", "mean time between interruptions", format_duration(p.mtbi), how_m, "job lifecycle events"),
        ("C", "checkpoint cost", format_duration(p.checkpoint_cost),
         # typed beside a snapshot: the measured stall, given, of which the snapshot derives only the copy
         f"given: the measured stall (the copy alone takes {format_duration(p.snapshot_copy)})"
         if p.checkpoint_is_stall and p.snapshot_copy is not None else how("checkpoint_cost"), "per-step timing"),
        # R's parts as every page writes them, adding up to R as written
        ("R", "restart time", format_duration(p.restart),
         f"derived: the sum of its parts, {parts}" if (parts := restart_sum(p)) else how("restart"),
         "job lifecycle events and step timing"),
    ]
    if p.drain > 0:
        rows.append(("D", "drain: snapshot to durable copy", format_duration(p.drain), how("drain"),
                     "storage write timing"))
    if p.persistent_cost is not None and p.persistent_restart is not None:
        rows += [("C_p", "persistent checkpoint cost", format_duration(p.persistent_cost), "given",
                  "per-step timing"),
                 ("R_p", "restart from the persistent copy", format_duration(p.persistent_restart), "given",
                  "job lifecycle events and step timing")]
        if p.fast_survives is not None:
            rows.append(("s", "share of interruptions the fast copy survives", share_text(p.fast_survives),
                         "given", "which copy each restart loaded"))
    if p.just_in_time > 0:
        rows += [("p", "share of interruptions recovered just in time", share_text(p.just_in_time), "given",
                  "which restarts rolled back to a checkpoint"),
                 ("R_j", "a just-in-time recovery", format_duration(p.jit_recovery), "given",
                  "job lifecycle events and step timing")]
    if p.planned_rate > 0:
        rows.append(("q", "planned stops with notice", planned_text(p),
                     "derived: a count over a window" if p.planned_counted else "given",
                     "job lifecycle events (stops someone chose)"))
    rows.append(("T", "checkpoint interval to use", format_duration(fleet.interval),
                 "derived: the plan's exact optimum", "computed from the inputs above, then configured"))
    return pd.DataFrame(rows, columns=["symbol", "input", "this fleet", "given or derived", "where to measure it"])
