"""Tables as the book shows them: no index, numbers right-aligned with a stated precision, a caption."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

import pandas as pd

from goodput import exact, tiers
from goodput.pages.common import LOSS_WORDS
from goodput.pages.levers import DEBATE
from goodput.params import load_params
from goodput.plan import persistent_lever_name, survives_more
from goodput.report import (
    INPUT_NAMES,
    file_sources,
    input_value,
    lever_gain_text,
    lever_worth_text,
    loss_texts,
    percent,
    percent_sig2,
    planned_text,
    points,
    range_origin,
    range_text,
    share_text,
    slow_origin,
    spares_text,
)
from goodput.units import format_duration, format_rate

if TYPE_CHECKING:
    from pandas.io.formats.style import Styler

    from goodput.fleet import FleetPlan
    from goodput.plan import Plan


def book_table(
    frame: pd.DataFrame,
    formats: Mapping[str, str] | None = None,
    caption: str | None = None,
    right: Sequence[str] = (),
) -> Styler:
    """A pandas table as the book shows it: no index, stated precision, numbers right-aligned, a caption.

    Units go in column names ("M (min)") or values ("186 min"); `right` names further columns to right-align (numbers
    held as text). Renders as ``<table class="book-table">``; missing values are blank.
    """
    formats = dict(formats or {})
    numeric = [c for c in frame.columns if c in formats or c in right or pd.api.types.is_numeric_dtype(frame[c])]
    styler = frame.style.hide(axis="index").set_table_attributes('class="book-table"')
    # The one place the book's tables become HTML: every cell, header and caption is text, escaped here, so that an
    # inputs file named '<img src=x onerror=...>.yml' shows as its name and runs nothing.
    styler = styler.format(cast(Any, formats or None), na_rep="", escape="html")
    styler = styler.format_index(escape="html", axis=1)
    classes = pd.DataFrame(
        [["num" if c in numeric else "" for c in frame.columns]] * len(frame), index=frame.index, columns=frame.columns
    )
    styler = styler.set_td_classes(classes)
    styler = styler.set_table_styles({c: [{"selector": "", "props": [("text-align", "right")]}] for c in numeric},
                                     overwrite=False)
    if caption:
        styler = styler.set_caption(html.escape(caption, quote=False))
    return styler


# --------------------------------------------------------------------------- the levers chapter


def lever_table(fleet: FleetPlan) -> Styler:
    """The fleet's levers (exact model of the whole scheme), largest first, with each gain's worth a month."""
    from goodput.units import format_duration as d

    plan, p = fleet.plan, fleet.params
    s = plan.tiers
    best_t = d(plan.optimal_interval)
    what = {"halve C": f"C {d(p.checkpoint_cost)} → {d(p.checkpoint_cost / 2)}",
            "halve R": f"R {d(p.restart)} → {d(p.restart / 2)}",
            "halve the failure rate": f"M {d(p.mtbi)} → {d(2 * p.mtbi)}",
            "set the interval right": f"T {d(plan.interval)} → {best_t}" if best_t != d(plan.interval)
            else f"T = {best_t}, already the optimum"}
    if s is not None:
        best_n = tiers.best_every(s, p.mtbi).every if not s.one_tier else 1
        what |= {"shorten the drain": f"D {d(s.drain)} → {d(s.drain / 2)}",
                 "make the fast tier survive more failures":
                     f"s {share_text(s.fast_survives)} → {share_text(survives_more(s.fast_survives))}",
                 persistent_lever_name("halve C_p", s): f"C_p {d(s.cp)} → {d(max(s.cp / 2, s.checkpoint_cost))}",
                 persistent_lever_name("halve R_p", s): f"R_p {d(s.rp)} → {d(max(s.rp / 2, s.restart))}",
                 "drain the persistent write as well":
                     f"C_p {d(s.cp)} → {d(s.checkpoint_cost)}, durable after {d(max(s.drain, s.cp))}",
                 "set the persistent cadence right": f"n {s.every} → {best_n}" if best_n != s.every
                 else f"n = {best_n}, already the best"}
    if (st := p.storage) is not None:
        from goodput.plan import STORAGE_LEVERS
        from goodput.storage import format_bandwidth as bw

        read = "" if st.read_bandwidth is None else f", read {bw(st.read_bandwidth)} → {bw(2 * st.read_bandwidth)}"
        what[STORAGE_LEVERS["double_write_bandwidth"]] = (f"write {bw(st.write_bandwidth)} → "
                                                          f"{bw(2 * st.write_bandwidth)}{read} (stated)")
        if st.snapshot_bandwidth is not None:
            what[STORAGE_LEVERS["double_snapshot_bandwidth"]] = (f"snapshot {bw(st.snapshot_bandwidth)} → "
                                                                 f"{bw(2 * st.snapshot_bandwidth)} per node")
    rows = [{"lever": name, "what changes": what[name], "goodput after": percent(plan.goodput + gain),
             "gain": lever_gain_text(plan, name, gain),
             "worth a month (this lever's gain)": lever_worth_text(plan, name, fleet.dollars(gain))}
            for name, gain in fleet.levers_ranked]
    frame = pd.DataFrame(rows)
    caption = (f"The levers of this fleet's plan (goodput {percent(plan.goodput)}), by the exact model of its whole "
               f"scheme, largest first; each input lever re-plans the interval (and the cadence where the plan "
               f"chooses it). Dollars: the capacity one lever's gain is worth a month at "
               f"${p.price_per_gpu_hour:g} per GPU-hour on {p.gpus:,} GPUs.")
    return book_table(frame, caption=caption, right=["goodput after", "gain", "worth a month (this lever's gain)"])


def fleet_size_table(fleet: FleetPlan) -> Styler:
    """The fleet's scheme planned at other sizes at its per-GPU rate (:attr:`~goodput.fleet.FleetPlan.by_size`)."""
    p = fleet.params
    two_tier = fleet.plan.tiers is not None and not fleet.plan.tiers.one_tier
    by_size = fleet.by_size
    restarts = {gpus: format_duration(plan.restart) for gpus, plan in by_size.items()}
    r_varies = len(set(restarts.values())) > 1
    c_varies = p.checkpoint_per_node  # each node's share of the checkpoint, re-derived at each size
    frame = pd.DataFrame([
        {"GPUs": f"{gpus:,}" + (" (this fleet)" if gpus == p.gpus else ""), "M": format_duration(plan.mtbi),
         **({"C": format_duration(plan.checkpoint_cost)} if c_varies else {}),
         **({"R": restarts[gpus]} if r_varies else {}), "T*": format_duration(plan.interval),
         **({"every n-th persistent": str(plan.tiers.every)} if two_tier and plan.tiers is not None else {}),
         "goodput": percent(plan.goodput)}
        for gpus, plan in by_size.items()])
    parts = [part for part, given in (
        ("the start-up per node at that size's nodes",
         p.restart_parts is not None and p.restart_parts.startup_per_node > 0),
        ("the wait for repairs of its spares at its M", p.spares is not None)) if given]
    rederived = (f"R re-derived at each size from its parts ({' and '.join(parts)}), " if r_varies and parts
                 else "R re-derived at each size from its parts, " if r_varies else "")
    if c_varies:
        rederived = "C re-derived at each size as each node's share of the checkpoint, " + rederived
    caption = (f"M, {'C, ' if c_varies else ''}{'R, ' if r_varies else ''}the plan's interval T*{' and cadence n' if two_tier else ''} and its "
               f"goodput by fleet size, by the exact model of this fleet's scheme at {format_rate(p.rate_per_gpu_hour)} "
               f"interruptions per GPU-hour, {rederived}every other input this fleet's.")
    return book_table(frame, caption=caption, right=list(frame.columns))


def debate_table() -> Styler:
    """The worked example's debate: its slow and fast checkpoint every 15 and every 45 minutes, exact model."""
    w = load_params()
    short, long_ = DEBATE
    rows = []
    for cost in (w.checkpoint_cost, w.slow_checkpoint_cost):
        at_short, at_long = (float(exact.exact_goodput(cost, w.mtbi, w.restart, t)) for t in DEBATE)
        best = float(exact.exact_optimal_interval(cost, w.mtbi))
        rows.append({"checkpoint cost": format_duration(cost), f"every {format_duration(short)}": percent(at_short),
                     f"every {format_duration(long_)}": percent(at_long), "difference": points(abs(at_long - at_short)),
                     "at the exact optimum": f"{percent(float(exact.exact_goodput(cost, w.mtbi, w.restart)))} every "
                                             f"{format_duration(best)}"})
    frame = pd.DataFrame(rows)
    caption = (f"The worked example (M = {format_duration(w.mtbi)}, R = {format_duration(w.restart)}), by the exact "
               f"model: goodput with a checkpoint every {format_duration(short)} or every {format_duration(long_)}, "
               "and at the optimum.")
    return book_table(frame, caption=caption, right=list(frame.columns[1:]))


# --------------------------------------------------------------------------- the uncertainty chapter


def inputs_range_table(fleet: FleetPlan) -> Styler:
    """Each input's value, its range (or that it has none) and where the range comes from."""
    slow = slow_origin(fleet.params) if fleet.ranges.inputs["slow_checkpoint_cost"].exact else ""
    rows = [(INPUT_NAMES[name], input_value(name, r.point), range_text(r),
             slow if name == "slow_checkpoint_cost" and slow else range_origin(r))
            for name, r in fleet.ranges.inputs.items()]
    frame = pd.DataFrame(rows, columns=["input", "value", "range", "where the range comes from"])
    return book_table(frame, right=["value", "range"], caption="Each input, its range, and where the range comes from.")


def swings_table(fleet: FleetPlan) -> Styler:
    """Each ranged input moved alone, then all together (else one row of point values): exact goodput and T*."""
    r = fleet.ranges

    def cell(low: str, high: str) -> str:
        return low if low == high else f"{low} to {high}"

    def row(name: str, over: str, goodput: tuple[float, float], interval: tuple[float, float]) -> tuple[str, ...]:
        return (name, over, cell(percent(goodput[0]), percent(goodput[1])),
                cell(format_duration(interval[0]), format_duration(interval[1])))

    if not r.swings:
        rows = [row("none: no input has a range", "point values", (fleet.goodput,) * 2, (fleet.interval,) * 2)]
    else:
        rows = [row(INPUT_NAMES[s.name], range_text(r.inputs[s.name]), s.goodput_range, s.optimal_interval_range)
                for s in r.swings]
        if len(r.swings) > 1:
            rows.append(row("all together", "their ranges", r.fixed.goodput_range, r.best.optimal_interval_range))
    frame = pd.DataFrame(rows, columns=["input", "over", "goodput", "T*"])
    caption = ("Goodput by the exact model of this fleet's scheme at the recommended interval, and the exact optimum "
               "T*, for each input with a range moved alone over it (the others at their point values) and, when "
               "more than one has a range, for all of them together. Inputs taken as exact are not listed.")
    return book_table(frame, right=["over", "goodput", "T*"], caption=caption)


# --------------------------------------------------------------------------- the goodput and planning chapters


def loss_column(plan: Plan, drained: bool, total: bool = False) -> list[str]:
    """A plan's interval, losses, total loss (when `total`) and goodput, as text.

    The drain's loss where `drained` (the fleet's :attr:`goodput.plan.Plan.drained`).
    """
    b = plan.losses
    losses = {"checkpoint_overhead": b.checkpoint_overhead, "lost_work": b.lost_work, "restart_loss": b.restart_loss,
              **({"drain_loss": plan.drain_loss} if drained else {})}
    # each loss as every page and the command write a loss (loss_texts: 0.085%, not 0.1%), and their total
    return [format_duration(plan.interval), *loss_texts(losses).values(), *([percent_sig2(b.total)] if total else []),
            percent(b.goodput)]


def model_losses_table(fleet: FleetPlan) -> pd.DataFrame:
    """The interval, losses and goodput: the plan (``exact model``) and ``first order`` beside it where quotable."""
    drained = fleet.plan.drained
    names = ["interval, T", *(LOSS_WORDS[n] for n in fleet.losses), "total loss", "goodput"]
    columns = {"at the optimum": names}
    if fleet.first_order_quotable:
        columns["first order"] = loss_column(fleet.first_order, drained, total=True)
    columns["exact model"] = loss_column(fleet.plan, drained, total=True)
    return pd.DataFrame(columns)


def plan_inputs_table(fleet: FleetPlan) -> pd.DataFrame:
    """The inputs of the plan with their values, ranges and sources (columns ``input``, ``value``, ``range``, ``source``).

    The sources are those ``goodput plan`` prints (:func:`goodput.report.file_sources`): a derived input's derivation,
    R's parts, else the inputs file.
    """
    p, plan, s = fleet.params, fleet.plan, fleet.plan.tiers
    ranges, sources = fleet.ranges.inputs, file_sources(p)
    rows = [
        ("GPUs", f"{p.gpus:,}", "", p.source),
        ("mean time between interruptions, M", format_duration(p.mtbi), range_text(ranges["mtbi"]), sources["M"]),
        ("checkpoint cost, C", format_duration(p.checkpoint_cost), range_text(ranges["checkpoint_cost"]), sources["C"]),
        ("restart time, R", format_duration(p.restart), range_text(ranges["restart"]), sources["R"]),
    ]
    def stated(key: str) -> str:
        return range_text(ranges[key]) if key in ranges else ""

    if s is not None and s.drain > 0:
        rows.append(("drain until durable, D", format_duration(s.drain), stated("drain"), sources.get("D", p.source)))
    if s is not None and not s.one_tier:
        rows += [
            ("persistent checkpoint cost, C_p", format_duration(s.cp), stated("persistent_cost"), p.source),
            ("persistent restart, R_p", format_duration(s.rp), stated("persistent_restart"), sources.get("R_p", p.source)),
            ("interruptions the fast tier survives, s", share_text(s.fast_survives), stated("fast_survives"), p.source),
            ("every n-th checkpoint persistent, n", f"{s.every:,}", "", "best n" if plan.every_chosen else p.source),
        ]
    if p.just_in_time > 0:  # recovery without rollback and planned stops: the plan's too, as goodput plan lists them
        rows += [(INPUT_NAMES["just_in_time"], share_text(p.just_in_time), stated("just_in_time"), p.source),
                 ("a just-in-time recovery, R_j", format_duration(p.jit_recovery), "", p.source)]
    if p.planned_rate > 0:
        rows.append(("planned stops, q", planned_text(p), "", p.source))
    if p.spares is not None:  # R holds the wait for repairs the pool leaves, so the plan rests on it
        rows.append(("hot spare nodes", f"{p.spares.nodes:,}", "", spares_text(p)))
    rows.append(("checkpoint interval, T", format_duration(plan.interval), "", "the exact optimum"))
    return pd.DataFrame(rows, columns=["input", "value", "range", "source"])


def plan_losses_table(fleet: FleetPlan) -> pd.DataFrame:
    """Where the wall time goes at the plan (columns ``where the time goes``, ``share of wall time``), goodput last."""
    rows = [(LOSS_WORDS[name], share) for name, share in loss_texts(fleet.losses).items()]
    rows.append(("goodput", percent(fleet.goodput)))
    return pd.DataFrame(rows, columns=["where the time goes", "share of wall time"])


def plan_levers_table(fleet: FleetPlan) -> pd.DataFrame:
    """The plan's levers, largest first: columns ``lever``, ``goodput gained``, ``worth a month``."""
    plan = fleet.plan
    rows = [(name, lever_gain_text(plan, name, gain, plus=True), lever_worth_text(plan, name, fleet.dollars(gain)))
            for name, gain in fleet.levers_ranked]
    return pd.DataFrame(rows, columns=["lever", "goodput gained", "worth a month"])
