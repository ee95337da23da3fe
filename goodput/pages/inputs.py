"""The inputs chapter (book/inputs.md): this fleet's M, C and R, the worked example's M, and published rates.

Three sets of numbers are never mixed in one number: **this fleet's** (its :class:`goodput.fleet.FleetPlan`);
**the worked example's** (:func:`goodput.params.load_params` and :mod:`goodput.sources`' Llama 3 figures), alike in
every build; and **published records**, each turned into the M it gives a job of this fleet's size.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from goodput import fleets, sources
from goodput.fleet import CONFIDENCE, FleetPlan
from goodput.model import capacity_per_month
from goodput.pages import Variant
from goodput.pages.common import Fleet, fleet_values, is_worked_example, m_given, recovery_kind
from goodput.params import load_params, mtbi_from_rate, rate_from_mtbi
from goodput.report import (
    count,
    duration_range_text,
    join_words,
    money,
    per_million,
    per_million_range,
    percent,
    planned_text,
    points,
    record_name,
    share_text,
)
from goodput.uncertainty import input_ranges
from goodput.units import format_duration, format_rate, significant
from goodput.whatif import BRIEF_RATE, inputs_whatif, measured_stall

#: That analysis's product of the rate and 16,384 GPUs, as it writes it (per hour).
BRIEF_PER_HOUR = 0.32
#: The M it quotes for that product, in minutes.
BRIEF_MTBI = 186.0


@dataclass(frozen=True)
class Page(Fleet):
    """The inputs chapter's glue keys."""

    params_file_is: Variant
    more_inputs: Variant
    fleet_m: Variant
    fleet_m_range: Variant
    fleet_window: str
    fleet_m_given: Variant
    fleet_m_span: str
    fleet_scheme: Variant
    c_paths: Variant
    c_copy: Variant
    c_how: str
    c_copy_alone: str
    c_copy_times: str
    c_stall_write: str
    c_write: str
    sync_time: Variant
    scheme_inputs: Variant
    recovery_inputs: Variant
    jit_p: str
    jit_r: str
    planned_q: str
    w_window: str
    w_all: str
    w_planned: str
    w_unexpected: str
    w_gpus: str
    w_m_count: str
    w_m_count_rounded: str
    w_gpu_hours: str
    w_rate: str
    w_rate_rounded: str
    w_per_hour: str
    w_m_rate: str
    w_brief_per_hour: str
    w_brief_m: str
    w_brief_inverse: str
    w_c: str
    w_r: str
    w_t_count: str
    w_t_rate: str
    w_g_count: str
    w_g_rate: str
    w_g_apart: str
    rc_total: str
    rc_gpu_share: str
    rc_top_component: str
    rc_top_share: str
    rc_wrong_component: str
    rc_wrong_printed: str
    rc_wrong_count: str
    rc_wrong_share: str
    rc_printed_sum: str
    pr_n: str
    pr_own: str
    pr_low: str
    pr_low_name: str
    pr_high: str
    pr_high_name: str
    pr_ratio: str
    pr_m_low: str
    pr_m_high: str
    pr_lower: Variant
    pr_below: str
    pr_above: str
    pr_compare: Variant
    pr_same_names: str
    n_job: str
    n_stated: str
    n_cluster: str
    n_machine: str
    high_what: str
    high_n: str
    high_range: str
    high_factor: Variant
    high_ratio: str
    low_what: str
    low_n: str
    low_range: str
    low_factor: Variant
    low_ratio: str
    gen_n: str
    gen_model: str
    gen_range: str
    gen_ratio: str
    gen_others: str
    gen_where: Variant
    fx_changed: Variant
    fx_r_low: str
    fx_r_high: str
    fx_t_low: str
    fx_g_low: str
    fx_t_high: str
    fx_g_high: str
    fx_points: str
    fx_dollars: str
    fx_settle: Variant


def _factor(low: float, high: float) -> tuple[Variant, str]:
    """How wide a counting interval is: unbounded where its low end is zero, else its ratio."""
    return (Variant("unbounded"), "") if low == 0.0 else (Variant("factor"), significant(high / low, 2))


def build(fleet: FleetPlan, records: Sequence[fleets.PublishedFleet]) -> Page:
    """The inputs chapter's values for one fleet, beside the published records."""
    p = fleet.params
    # ------------------------------------------------------------ this fleet's M, C and R
    m_range = input_ranges(p, CONFIDENCE)["mtbi"]
    how = m_given(p)
    # ------------------------------------------------------------ the worked example (the what-ifs: whatif's)
    low, high = fleets.extremes(records)
    x, worked = inputs_whatif(fleet, low, high), load_params()
    assert worked.interruption_count is not None and worked.window is not None
    w_unexpected, w_window, w_gpus = worked.interruption_count, worked.window, worked.gpus
    by_count, by_rate = x.by_count, x.by_rate
    w_m_count, w_m_rate = by_count.mtbi, by_rate.mtbi
    # ------------------------------------------------------------ Llama 3's root causes
    table = sources.llama3_root_causes()
    by_category = sources.llama3_by_category()
    total = int(table["count"].sum())
    top = table.iloc[int(table["count"].to_numpy().argmax())]
    rows = zip(sources.LLAMA3_ROOT_CAUSES, sources.LLAMA3_PRINTED_SHARES, strict=True)
    wrong = [(name, n, printed) for (name, _, n), printed in rows if abs(n / total - printed) > 0.0005 + 1e-9]
    w_name, w_n, w_printed = wrong[0] if wrong else ("", 0, 0.0)
    # ------------------------------------------------------------ published records
    own = fleet.params.rate_per_gpu_hour
    same = [f for f in records if per_million(f.rate) == per_million(own)]
    below = sum(1 for f in records if f.rate < own and f not in same)
    above = len(records) - below - len(same)
    kinds = {kind: sum(1 for f in records if f.kind == kind) for kind in fleets.KINDS}
    by_model = Counter(f.gpu_model for f in records if f.gpu_model)  # GPU models, in the order of their first record
    main = by_model.most_common(1)[0][0]
    group = [f for f in records if f.gpu_model == main]
    g_low, g_high = fleets.extremes(group)
    others = [f for model in by_model if model != main for f in records if f.gpu_model == model]
    inside = [f for f in others if g_low.rate <= f.rate <= g_high.rate]
    (high_low, high_high), (low_low, low_high) = (f.rate_interval(CONFIDENCE) or (f.rate, f.rate) for f in (high, low))
    at_low, at_high = x.at_low, x.at_high  # what the spread does to this fleet's plan (R's wait for a spare at each M)
    # C itself derived as the synchronous write of the checkpoint to the storage (no snapshot to host memory)
    synchronous = p.checkpoint_is_write
    measured = measured_stall(fleet)
    (high_factor, high_ratio), (low_factor, low_ratio) = _factor(high_low, high_high), _factor(low_low, low_high)
    return Page(
        **fleet_values(fleet), params_file_is=Variant("worked" if is_worked_example(p) else "other"),
        fleet_m=Variant(how), fleet_m_range=Variant(m_range.origin),
        fleet_window=format_duration(p.window or 0.0),
        fleet_m_given=Variant("rate" if how == "rate" else "given"),
        fleet_m_span=duration_range_text(m_range.low, m_range.high),
        more_inputs=Variant("none" if fleet.plain else "more"),
        # a derived slow checkpoint is the book's comparison, not one the inputs state (Params.slow_derived)
        c_paths=Variant(("derived" if p.slow_derived else "fast") if not synchronous
                        else "slower" if p.slow_against_c == "longer" else "same"),
        # a C derived from a snapshot is the copy alone; one typed beside it the measured stall
        c_copy=Variant("copy" if p.checkpoint_per_node else "measured" if measured else "none"),
        c_how=p.derived.get("snapshot_copy" if measured else "checkpoint_cost", ""),
        c_copy_alone=format_duration(measured.copy) if measured else "",
        c_copy_times=significant(measured.times_copy, 2) if measured else "",
        c_stall_write=("longer than" if measured.longer_than_write else "no longer than") if measured else "",
        c_write=format_duration(measured.write) if measured else "",
        sync_time=Variant("write" if synchronous else "derived" if p.slow_derived else "minutes"),
        fleet_scheme=Variant("one" if fleet.plain else "recovered" if fleet.recovered else "tiered"),
        scheme_inputs=Variant("none" if not fleet.recovered else "tiered" if fleet.tiered else "recovery"),
        recovery_inputs=Variant(recovery_kind(p)),
        jit_p=share_text(p.just_in_time), jit_r=format_duration(p.jit_recovery),
        planned_q=planned_text(p) if p.planned_rate > 0 else "",
        w_window=format_duration(w_window), w_all=f"{sources.LLAMA3_INTERRUPTIONS:,}",
        w_planned=f"{sources.LLAMA3_PLANNED:,}", w_unexpected=f"{w_unexpected:,}", w_gpus=f"{w_gpus:,}",
        w_m_count=format_duration(w_m_count, 4), w_m_count_rounded=format_duration(w_m_count),
        w_gpu_hours=f"{capacity_per_month(1.0, w_gpus, 1.0, w_window) / 1e6:.1f} million",
        w_rate=format_rate(float(rate_from_mtbi(w_m_count, w_gpus))), w_rate_rounded=format_rate(BRIEF_RATE),
        w_per_hour=format_rate(float(rate_from_mtbi(w_m_rate, 1))), w_m_rate=format_duration(w_m_rate),
        w_brief_per_hour=f"{BRIEF_PER_HOUR:g}", w_brief_m=format_duration(BRIEF_MTBI),
        w_brief_inverse=format_duration(float(mtbi_from_rate(BRIEF_PER_HOUR, 1)), 4),
        w_c=format_duration(worked.checkpoint_cost), w_r=format_duration(worked.restart),
        w_t_count=format_duration(by_count.interval),
        w_t_rate=format_duration(by_rate.interval), w_g_count=percent(by_count.goodput),
        w_g_rate=percent(by_rate.goodput), w_g_apart=points(abs(by_count.goodput - by_rate.goodput)),
        rc_total=f"{total:,}",
        rc_gpu_share=percent(float(by_category.loc[by_category["category"] == "GPU", "share"].iloc[0]), 0),
        rc_top_component=str(top["component"]), rc_top_share=percent(float(top["share"]), 0), rc_wrong_component=w_name,
        rc_wrong_printed=percent(w_printed), rc_wrong_count=f"{w_n:,}", rc_wrong_share=percent(w_n / total),
        rc_printed_sum=percent(sum(sources.LLAMA3_PRINTED_SHARES)), pr_n=f"{len(records)}", pr_own=per_million(own),
        pr_low=per_million(low.rate), pr_low_name=record_name(low), pr_high=per_million(high.rate),
        pr_high_name=record_name(high), pr_ratio=significant(high.rate / low.rate, 2), pr_m_low=format_duration(at_low.mtbi),
        pr_m_high=format_duration(at_high.mtbi),
        pr_lower=Variant("none" if below == 0 else "one" if below == 1 else "many"), pr_below=f"{below}",
        pr_above=f"{above or 'none'}",
        pr_compare=Variant("all_higher" if above == len(records) else "all_lower" if below == len(records)
                           else "mixed" if not same else "one_same" if len(same) == 1 else "many_same"),
        pr_same_names=join_words([record_name(f) for f in same]),
        n_job=f"{kinds['job interruptions']}", n_stated=f"{kinds['stated frequency']}",
        n_cluster=f"{kinds['cluster rate']}", n_machine=f"{kinds['machine-wide events']}",
        high_what=high.what_counts.split(";")[0].rstrip(". "), high_n=count(high.unplanned or 0, "interruption"),
        high_range=per_million_range(high_low, high_high), high_factor=high_factor, high_ratio=high_ratio,
        low_what=low.what_counts.split(";")[0].rstrip(". "), low_n=count(low.unplanned or 0, "interruption"),
        low_range=per_million_range(low_low, low_high), low_factor=low_factor, low_ratio=low_ratio,
        gen_n=f"{len(group)}",
        gen_model=main, gen_range=per_million_range(g_low.rate, g_high.rate),
        gen_ratio=significant(g_high.rate / g_low.rate, 2),
        gen_others=join_words([f"{record_name(f)} ({f.gpu_model}, {per_million(f.rate)})" for f in others]),
        gen_where=Variant("inside" if len(inside) == len(others) else "outside" if not inside else "partly"),
        fx_changed=Variant("m" if p.spares is None else "spare"), fx_r_low=format_duration(at_low.restart),
        fx_r_high=format_duration(at_high.restart), fx_t_low=format_duration(at_low.interval),
        fx_g_low=percent(at_low.goodput),
        fx_t_high=format_duration(at_high.interval), fx_g_high=percent(at_high.goodput), fx_points=points(x.gap),
        fx_dollars=money(fleet.dollars(x.gap)), fx_settle=Variant("count" if how == "count" else "none"),
    )
