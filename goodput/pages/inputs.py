"""The inputs chapter (book/inputs.md): this build's M, C and R, the brief's worked example, and published rates.

Each function returns what one part of the chapter shows: a mapping of glue keys to text (for
``goodput.book.glue_all``), or a table. Three sets of numbers appear on the page and are never
mixed in one number:

- **this build's inputs** (the file the book was built from), presented as the fleet's own;
- **the brief's worked example** (:func:`goodput.params.load_params` with no argument, and the
  Llama 3 figures it is taken from), computed from its own inputs and labelled as such in every
  build, with plain words where its arithmetic does not support its text;
- **published fleets** (``book/data/fleets/published-fleets.csv``, read by :mod:`goodput.fleets`),
  each turned into the M it implies at this build's fleet size.

Phrases other pages share (:func:`goodput.pages.common.is_worked_example`,
:func:`goodput.pages.common.inputs_name`) live in :mod:`goodput.pages.common`; rates are written by
:func:`goodput.units.format_rate`.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

from goodput import fleets, sources
from goodput.model import capacity_per_month
from goodput.pages.common import is_worked_example
from goodput.params import Params, load_params, mtbi_from_count, mtbi_from_rate
from goodput.plan import make_plan, plan_for
from goodput.report import count, money, percent, points
from goodput.uncertainty import input_ranges
from goodput.units import DAY, format_duration, format_rate, significant

if TYPE_CHECKING:
    import pandas as pd

#: The table of published fleets, relative to the book's root folder.
PUBLISHED_FLEETS = "book/data/fleets/published-fleets.csv"

#: The per-GPU rate as the brief's worked example rounds it ("about 2e-5").
BRIEF_RATE = 2.0e-5
#: The brief's worked example's product of that rate and 16,384 GPUs, as it writes it (per hour).
BRIEF_PER_HOUR = 0.32
#: The M the brief's worked example quotes for that product, in minutes.
BRIEF_MTBI = 186.0

#: Two rates closer than this (relative) are called the same.
_SAME_RATE = 1e-3


# --------------------------------------------------------------------------- phrases


def per_million(rate: float) -> str:
    """A rate per GPU-hour as interruptions per million GPU-hours, three significant digits (1.97e-5 -> ``19.7``)."""
    return significant(rate * 1e6)


def per_million_range(low: float, high: float) -> str:
    """A range of rates per GPU-hour, per million GPU-hours: ``17.9 to 21.7``."""
    return f"{per_million(low)} to {per_million(high)}"


def duration_range_text(low: float, high: float) -> str:
    """A range of durations in minutes: ``169 to 205 min`` when both ends share a unit, else ``40 s to 2 min``."""
    lo, hi = format_duration(low), format_duration(high)
    lo_number, _, lo_unit = lo.partition(" ")
    _, _, hi_unit = hi.partition(" ")
    if lo_unit == hi_unit and " " not in lo_unit and lo_unit:
        return f"{lo_number} to {hi}"
    return f"{lo} to {hi}"


def short_name(fleet: fleets.PublishedFleet) -> str:
    """A published fleet's name without what the table adds to it: ``"OPT-175B holiday week"``, ``"Meta RSC-1"``."""
    name = re.sub(r"\s*\([^)]*\)", "", fleet.fleet)
    for extra in (" pre-training", " research cluster"):
        name = name.replace(extra, "")
    return name.strip()


# --------------------------------------------------------------------------- the inputs file


def inputs_file(params: Params) -> dict[str, str]:
    """Which file this build read, for the section on the inputs file.

    Returns
    -------
    dict of str to str
        ``params_file`` (its name) and ``params_file_is`` (a sentence ending in a colon, before the file).
    """
    which = ", the brief's worked example" if is_worked_example(params) else ""
    return {"params_file": params.source, "params_file_is": f"This build read {params.source}{which}:"}


def inputs_file_text(path: str | os.PathLike[str]) -> str:
    """The inputs file as the reader wrote it, without trailing blank lines (printed on the page)."""
    with open(path, encoding="utf-8-sig") as handle:
        return handle.read().strip()


# --------------------------------------------------------------------------- this build's M, C and R


def fleet_inputs(params: Params) -> dict[str, str]:
    """The build's M, C and R, in the fleet's own words.

    Returns
    -------
    dict of str to str
        ``fleet_m`` (how the file gives M and what it comes to), ``fleet_m_range`` (its interval or
        the range stated for it, or that none was given), ``fleet_c`` and ``fleet_r`` (sentences).
    """
    gpus = count(params.gpus, "GPU")
    m = format_duration(params.mtbi)
    rate = format_rate(params.rate_per_gpu_hour)
    if params.mtbi_source == "interruptions" and params.interruption_count and params.window:
        how = (f"This build's inputs give M as a count: {count(params.interruption_count, 'interruption')} in "
               f"{format_duration(params.window)} on {gpus}, so M = {format_duration(params.window)} / "
               f"{params.interruption_count:,} = {m}, or {rate} interruptions per GPU-hour.")
    elif params.mtbi_source == "rate_per_gpu_hour":
        how = (f"This build's inputs give M as a per-GPU rate: {rate} interruptions per GPU-hour on {gpus}, so "
               f"M = 60 min / ({rate} × {params.gpus:,}) = {m}.")
    else:
        how = f"This build's inputs give M directly: {m}, which on {gpus} is {rate} interruptions per GPU-hour."
    r = input_ranges(params)["mtbi"]
    given = "A rate" if params.mtbi_source == "rate_per_gpu_hour" else "An M given directly"
    if r.origin == "count":
        span = f"The count's {r.confidence:.0%} exact Poisson interval for M is {duration_range_text(r.low, r.high)}."
    elif r.origin == "stated":
        span = (f"{given} carries no counting interval; the range of M stated in the inputs file is "
                f"{duration_range_text(r.low, r.high)}.")
    else:
        span = (f"{given} carries no counting interval, and the inputs file states no range for M, so the book "
                "takes it as exact.")
    return {
        "fleet_m": how,
        "fleet_m_range": span,
        "fleet_c": (f"This build's inputs take C = {format_duration(params.checkpoint_cost)} for the fast path and "
                    f"{format_duration(params.slow_checkpoint_cost)} for the slow one it is compared with."),
        "fleet_r": f"This build's inputs take R = {format_duration(params.restart)}.",
    }


# --------------------------------------------------------------------------- the brief's worked example


def worked_example_m() -> dict[str, str]:
    """The brief's worked example's M, from its own inputs: the Llama 3 count, and the rate it rounds to.

    Every number is computed from the worked example (:func:`goodput.params.load_params`) and the
    Llama 3 figures in :mod:`goodput.sources`, whatever inputs file the book is built from. First-order
    numbers are labelled as such: they reproduce the brief's arithmetic.

    Returns
    -------
    dict of str to str
        Keys starting ``w_``: the window, counts, GPUs, M from the count, the GPU-hours and rate, the
        rounded rate and what it gives, ``w_arithmetic`` (where the brief's figures do not follow
        from its inputs) and ``w_decision`` (what the difference does to T* and goodput, first order).
    """
    worked = load_params()
    assert worked.interruption_count is not None and worked.window is not None
    window, unexpected, gpus = worked.window, worked.interruption_count, worked.gpus
    m_count = mtbi_from_count(unexpected, window)
    gpu_hours = gpus * window / 60.0
    rate = unexpected / gpu_hours
    per_hour = BRIEF_RATE * gpus
    m_rate = float(mtbi_from_rate(BRIEF_RATE, gpus))
    m_brief_product = 60.0 / BRIEF_PER_HOUR
    by_count = make_plan(worked.checkpoint_cost, m_count, worked.restart, which="first-order")
    by_rate = make_plan(worked.checkpoint_cost, m_rate, worked.restart, which="first-order")
    arithmetic = (
        f"The brief's worked example writes this product as {BRIEF_PER_HOUR:g} per hour and its inverse as "
        f"{format_duration(BRIEF_MTBI)}. Its own figures give neither: "
        f"{format_rate(BRIEF_RATE)} × {gpus:,} is {format_rate(per_hour)} per hour, not {BRIEF_PER_HOUR:g}, and one "
        f"over that is {format_duration(m_rate)}; one over {BRIEF_PER_HOUR:g} per hour would be "
        f"{format_duration(m_brief_product, 4)}. The {format_duration(BRIEF_MTBI)} is the count's: "
        f"{format_duration(window)} over {unexpected:,} interruptions."
    )
    decision = (
        f"The difference does not change the decision. With the worked example's "
        f"C = {format_duration(worked.checkpoint_cost)} and R = {format_duration(worked.restart)}, first order "
        f"(T* = √(2CM)) puts the interval at {format_duration(by_count.interval)} from the count and "
        f"{format_duration(by_rate.interval)} from the rounded rate, and goodput at {percent(by_count.goodput)} "
        f"against {percent(by_rate.goodput)}: {points(abs(by_count.goodput - by_rate.goodput))} apart."
    )
    return {
        "w_window": format_duration(window),
        "w_all": f"{sources.LLAMA3_INTERRUPTIONS:,}",
        "w_planned": f"{sources.LLAMA3_PLANNED:,}",
        "w_unexpected": f"{unexpected:,}",
        "w_gpus": f"{gpus:,}",
        "w_m_count": format_duration(m_count, 4),
        "w_m_count_rounded": format_duration(m_count),
        "w_gpu_hours": f"{gpu_hours:,.0f}",
        "w_rate": format_rate(rate),
        "w_rate_rounded": format_rate(BRIEF_RATE),
        "w_per_hour": format_rate(per_hour),
        "w_m_rate": format_duration(m_rate),
        "w_arithmetic": arithmetic,
        "w_decision": decision,
        "w_restart": format_duration(worked.restart),
    }


# --------------------------------------------------------------------------- what interrupts a job (Llama 3)


def printed_disagreements(tolerance: float = 0.0005) -> list[tuple[str, int, float, float]]:
    """Rows of Llama 3's Table 5 whose printed percentage is not their count's share, rounded.

    Parameters
    ----------
    tolerance : float, optional
        How far (a fraction of 1) a printed share may be from count / total: half its last printed
        digit (default 0.0005, for shares printed to 0.1%), plus floating-point slack.

    Returns
    -------
    list of (component, count, computed share, printed share)
        In the table's order.
    """
    total = sum(n for _, _, n in sources.LLAMA3_ROOT_CAUSES)
    rows = zip(sources.LLAMA3_ROOT_CAUSES, sources.LLAMA3_PRINTED_SHARES, strict=True)
    return [(name, n, n / total, printed) for (name, _, n), printed in rows
            if abs(n / total - printed) > tolerance + 1e-9]


def root_causes() -> dict[str, str]:
    """What interrupted Llama 3 pre-training, with shares computed from the counts.

    Returns
    -------
    dict of str to str
        ``rc_total``, ``rc_gpu_share`` (the GPU category's share), ``rc_top_component`` and ``rc_top_share``
        (the largest single cause), and ``rc_printed`` (where the paper's printed percentages disagree with
        its counts, and which the book uses).
    """
    table = sources.llama3_root_causes()
    by_category = sources.llama3_by_category()
    total = int(table["count"].sum())
    gpu_share = float(by_category.loc[by_category["category"] == "GPU", "share"].iloc[0])
    top = table.iloc[int(table["count"].to_numpy().argmax())]
    wrong = printed_disagreements()
    printed_sum = sum(sources.LLAMA3_PRINTED_SHARES)
    if wrong:
        cases = "; ".join(f"it prints {percent(p)} for “{name}”, but {n:,} of {total:,} is {percent(s)}"
                          for name, n, s, p in wrong)
        others = " The other rows agree with their counts to the rounding." if len(wrong) < len(table) else ""
        printed = (f"The paper's printed percentages do not all follow from its own counts: {cases}.{others} "
                   f"The printed column adds up to {percent(printed_sum)}, not 100%, while the counts add up to "
                   f"the {total:,} unexpected interruptions; this book uses the counts and computes every share "
                   "from them.")
    else:
        printed = ("The paper's printed percentages agree with its counts to the rounding; this book computes "
                   "every share from the counts.")
    return {
        "rc_total": f"{total:,}",
        "rc_gpu_share": percent(gpu_share, 0),
        "rc_top_component": str(top["component"]),
        "rc_top_share": percent(float(top["share"]), 0),
        "rc_printed": printed,
    }


def root_cause_table() -> pd.DataFrame:
    """Table 5 of the Llama 3 paper: counts, shares computed from them, and the shares as printed.

    Returns
    -------
    pandas.DataFrame
        Columns ``component``, ``category``, ``interruptions``, ``share (from the counts)`` and
        ``share as printed`` (fractions of 1).
    """
    table = sources.llama3_root_causes().rename(columns={"count": "interruptions", "share": "share (from the counts)"})
    table["share as printed"] = list(sources.LLAMA3_PRINTED_SHARES)
    return table


def root_cause_columns() -> tuple[list[str], list[str], list[int]]:
    """Table 5's components, categories and counts, as the root-cause figure takes them."""
    table = sources.llama3_root_causes()
    return table["component"].tolist(), table["category"].tolist(), [int(n) for n in table["count"]]


# --------------------------------------------------------------------------- is this fleet's rate normal?


def _plan_at(params: Params, rate: float) -> tuple[float, float, float]:
    """M, the exact model's interval and its goodput for this build's GPUs, C and R at a per-GPU rate."""
    m = float(mtbi_from_rate(rate, params.gpus))
    plan = make_plan(params.checkpoint_cost, m, params.restart)
    return m, plan.interval, plan.goodput


def published_rates(params: Params, path: str | os.PathLike[str]) -> dict[str, str]:
    """The build's rate beside the published ones, and what the spread does to this fleet.

    Parameters
    ----------
    params : Params
        This build's inputs.
    path : str or path-like
        The table of published fleets (the book passes :data:`PUBLISHED_FLEETS` under its root).

    Returns
    -------
    dict of str to str
        ``pr_intro``, ``pr_spread`` (lowest, highest, their ratio), ``pr_own`` (where this build's rate
        sits), ``pr_counting``, ``pr_extremes`` and ``pr_generation`` (what may explain the spread, from the
        records' own columns), ``pr_effect`` (M, the exact interval and goodput at this build's GPUs, C and R for the
        lowest and the highest rate), and ``pr_gpus`` (this build's GPU count).
    """
    records = fleets.read_published_fleets(path)
    low, high = fleets.extremes(records)
    gpus = f"{params.gpus:,}"
    own = params.rate_per_gpu_hour
    intro = (f"Rates in this section are interruptions per million GPU-hours, so that they read as plain numbers: "
             f"this build's rate, {format_rate(own)} per GPU-hour, is {per_million(own)}. The table sets it beside "
             f"{len(records)} published records, each turned into the M it would give a job of this build's "
             f"{gpus} GPUs, M = 60 min / (rate × GPUs).")
    spread = (f"The published rates run from {per_million(low.rate)} per million GPU-hours ({short_name(low)}) to "
              f"{per_million(high.rate)} ({short_name(high)}): the highest is {high.rate / low.rate:.1f} times the "
              f"lowest. At {gpus} GPUs that is an interruption every {format_duration(low.mtbi_at(params.gpus))} "
              f"at one end and every {format_duration(high.mtbi_at(params.gpus))} at the other.")
    same = [f for f in records if abs(f.rate - own) <= _SAME_RATE * own]
    below = sum(1 for f in records if f.rate < own and f not in same)
    above = len(records) - below - len(same)

    lower = "none is" if below == 0 else f"{below} is" if below == 1 else f"{below} are"
    own_text = (f"Of the {len(records)} published rates, {lower} lower than this build's own, {per_million(own)}, "
                f"and {above or 'none'} higher")
    if same:
        own_text += "; " + _and([short_name(f) for f in same]) + (" has" if len(same) == 1 else " have") + " the same"
    own_text += "."
    kinds = {kind: [f for f in records if f.kind == kind] for kind in fleets.KINDS}
    kind_words = {  # (one, several)
        "job interruptions": ("counts the interruptions of one job", "count the interruptions of one job"),
        "stated frequency": ("states a frequency in words rather than a count",
                             "state a frequency in words rather than a count"),
        "cluster rate": ("is a rate per node-day for a whole cluster, as reported by others",
                         "are rates per node-day for whole clusters, as reported by others"),
        "machine-wide events": ("counts GPU hardware events on a whole machine, which are not job interruptions",
                                "count GPU hardware events on whole machines, which are not job interruptions"),
    }
    listed = [f"{len(v)} {kind_words[k][len(v) > 1]}" for k, v in kinds.items() if v]
    counting = f"Part of the spread is what is counted: of the {len(records)} records, " + _and(listed) + "."
    extremes = _extreme_text("highest", high) + " " + _extreme_text("lowest", low)
    if high.lower_bound and low.lower_bound:
        extremes += " The notes to the data call both counts lower bounds: events nobody wrote down are missing."
    models: dict[str, list[fleets.PublishedFleet]] = {}
    for f in records:
        if f.gpu_model:
            models.setdefault(f.gpu_model, []).append(f)
    generation = ""
    if models:
        main, group = max(models.items(), key=lambda item: len(item[1]))
        g_low, g_high = fleets.extremes(group)
        generation = (f"GPU generation explains little of it: the {len(group)} {main} records alone run from "
                      f"{per_million_range(g_low.rate, g_high.rate)} per million GPU-hours, "
                      f"{g_high.rate / g_low.rate:.1f} times "
                      "apart")
        others = [f for name, fs in models.items() if name != main for f in fs]
        if others:
            inside = [f for f in others if g_low.rate <= f.rate <= g_high.rate]
            described = _and([f"{short_name(f)} ({f.gpu_model}, {per_million(f.rate)})" for f in others])
            where = ("inside that range" if len(inside) == len(others)
                     else "outside it" if not inside else "partly inside it")
            generation += f", and {described} {'sits' if len(others) == 1 else 'sit'} {where}"
        generation += ". "
    generation += ("Software and operations (how fast a bad host is found and drained, whether a hang is caught and "
                   "counted) differ from one team and year to the next, and the records cannot separate them from "
                   "the hardware.")
    m_low, t_low, g_low_fleet = _plan_at(params, low.rate)
    m_high, t_high, g_high_fleet = _plan_at(params, high.rate)
    gap = g_low_fleet - g_high_fleet
    worth = capacity_per_month(gap, params.gpus, params.price_per_gpu_hour, params.month)
    tiers = (" (with one checkpoint that is safe at once: the drain or second tier in these inputs is not "
             "modelled here)") if params.tiered else ""
    effect = (f"What the spread does to this fleet: at {gpus} GPUs with C = {format_duration(params.checkpoint_cost)} "
              f"and R = {format_duration(params.restart)}, the lowest published rate gives "
              f"M = {format_duration(m_low)}, a best interval of {format_duration(t_low)} and goodput "
              f"{percent(g_low_fleet)}; the highest gives M = {format_duration(m_high)}, "
              f"{format_duration(t_high)} and {percent(g_high_fleet)} (exact model{tiers}). That is "
              f"{points(gap)} of goodput, {money(worth)} a month of GPU time at ${params.price_per_gpu_hour:g} "
              "per GPU-hour, which only a count of your own fleet's interruptions can settle.")
    return {"pr_intro": intro, "pr_spread": spread, "pr_own": own_text, "pr_counting": counting,
            "pr_extremes": extremes, "pr_generation": generation, "pr_effect": effect, "pr_gpus": gpus}


def _and(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``; with semicolons (``a; b; and c``) when an item has a comma of its own."""
    if len(items) == 1:
        return items[0]
    if any("," in item for item in items):
        return "; ".join(items[:-1]) + "; and " + items[-1]
    return ", ".join(items[:-1]) + " and " + items[-1]


def _extreme_text(which: str, fleet: fleets.PublishedFleet) -> str:
    """A sentence on what the highest or lowest record counts, and how much its count alone can say."""
    what = fleet.what_counts.split(";")[0].rstrip(". ")
    text = f"The {which}, {short_name(fleet)}, counts {what}."
    interval = fleet.rate_interval()
    if interval is not None and fleet.unplanned is not None:
        lo, hi = interval
        factor = "an unbounded factor" if lo == 0.0 else f"a factor of {hi / lo:.0f}" if hi / lo >= 10 \
            else f"a factor of {hi / lo:.1f}"
        text += (f" It rests on {count(fleet.unplanned, 'interruption')}, so its 95% counting interval alone runs "
                 f"from {per_million_range(lo, hi)} per million GPU-hours, {factor}.")
    return text


#: What each kind of record counts, as a table cell (:data:`goodput.fleets.KINDS`).
KIND_CELLS = {
    "job interruptions": "one job",
    "stated frequency": "stated in words",
    "cluster rate": "a cluster, as reported",
    "machine-wide events": "a machine's GPU events",
}
#: What each grade of a record means, as a table cell.
GRADE_CELLS = {"P": "primary source", "S": "as reported by others", "D": "counted from primary sources"}


def published_fleets_table(params: Params, path: str | os.PathLike[str]) -> pd.DataFrame:
    """The published fleets beside this build's: GPUs, window, count, rate with its interval, M at this size.

    Parameters
    ----------
    params : Params
        This build's inputs (its GPUs set the size each rate is turned into an M for).
    path : str or path-like
        The table of published fleets.

    Returns
    -------
    pandas.DataFrame
        One row for this build, then one per published record, all text: ``fleet``, ``GPUs``, ``window``,
        ``interruptions`` (unplanned), ``rate per million GPU-hours`` (with its 95% counting interval in
        parentheses where there is a count), ``M at N GPUs`` (the same) and ``counts`` (what kind of record
        it is; :func:`published_fleets_sources` says more). GPUs or a window the source does not give are blank.
    """
    import pandas as pd

    rate_column, m_column = "rate per million GPU-hours", f"M at {params.gpus:,} GPUs"
    own_rate = per_million(params.rate_per_gpu_hour)
    own_m = format_duration(params.mtbi)
    if params.mtbi_source == "interruptions" and params.interruption_count and params.window:
        lo, hi = fleets.rate_interval(params.interruption_count, params.gpus * params.window / 60.0)
        own_rate += f" ({per_million_range(lo, hi)})"
        m_lo, m_hi = float(mtbi_from_rate(hi, params.gpus)), float(mtbi_from_rate(lo, params.gpus))
        own_m += f" ({duration_range_text(m_lo, m_hi)})"
    rows = [{
        "fleet": f"this build: {params.source}",
        "GPUs": f"{params.gpus:,}",
        "window": format_duration(params.window) if params.window else "",
        "interruptions": f"{params.interruption_count:,}" if params.interruption_count else "",
        rate_column: own_rate,
        m_column: own_m,
        "counts": "this build",
    }]
    for f in fleets.read_published_fleets(path):
        interval = f.rate_interval()
        m_interval = f.mtbi_interval_at(params.gpus)
        m = format_duration(f.mtbi_at(params.gpus))
        if m_interval is not None:
            m += f" ({duration_range_text(*m_interval)})"
        rows.append({
            "fleet": short_name(f),
            "GPUs": f"{f.gpus:,}" if f.gpus is not None else "",
            "window": format_duration(f.window_days * DAY) if f.window_days is not None else "",
            "interruptions": f"{f.unplanned:,}" if f.unplanned is not None else "not counted",
            rate_column: per_million(f.rate) + (f" ({per_million_range(*interval)})" if interval is not None else ""),
            m_column: m,
            "counts": KIND_CELLS[f.kind],
        })
    return pd.DataFrame(rows)


def published_fleets_sources(path: str | os.PathLike[str]) -> pd.DataFrame:
    """What each published record counts, where its rate comes from, and how it was read.

    Parameters
    ----------
    path : str or path-like
        The table of published fleets.

    Returns
    -------
    pandas.DataFrame
        Columns ``fleet``, ``GPUs`` (their type), ``what counts`` (in the record's own words),
        ``rate from`` (a count, or the stated frequency or published rate) and ``read``.
    """
    import pandas as pd

    return pd.DataFrame([{
        "fleet": short_name(f),
        "GPUs": f.gpu_type,
        "what counts": f.what_counts,
        "rate from": "the count" if f.counted else f.rate_basis,
        "read": GRADE_CELLS[f.grade],
    } for f in fleets.read_published_fleets(path)])


def published_rates_figure(params: Params, path: str | os.PathLike[str]) -> dict[str, object]:
    """The inputs of the figure of M against fleet size (:func:`goodput.book.figures.published_rates`).

    Returns
    -------
    dict
        ``labels``, ``rates``, ``intervals`` (``(low, high)`` or ``None``), ``kinds`` (one of
        :data:`goodput.fleets.KINDS` each), and this build's ``gpus``, ``mtbi``, ``rate``, ``label`` (its line's
        name) and ``mark`` (the text at its fleet).
    """
    records = fleets.read_published_fleets(path)
    return {
        "labels": [f"{short_name(f)}, {per_million(f.rate)}" for f in records],
        "rates": [f.rate for f in records],
        "intervals": [f.rate_interval() for f in records],
        "kinds": [f.kind for f in records],
        "gpus": params.gpus,
        "mtbi": params.mtbi,
        "rate": params.rate_per_gpu_hour,
        "label": f"this build, {per_million(params.rate_per_gpu_hour)}",
        "mark": f"this build: {params.gpus:,} GPUs,\nM = {format_duration(params.mtbi)}",
    }


# --------------------------------------------------------------------------- measured or derived


def inputs_table(params: Params) -> pd.DataFrame:
    """Which inputs are measured and which derived, with this build's values and the interval to use.

    Returns
    -------
    pandas.DataFrame
        Columns ``symbol``, ``input``, ``this build``, ``measured or derived`` and ``where to measure it``;
        the interval row is the exact model's optimum, the interval the book recommends.
    """
    import pandas as pd

    how_m = {"interruptions": "derived: a count over a window", "rate_per_gpu_hour": "derived: a per-GPU rate × GPUs",
             "mtbi": "measured: given as M"}[params.mtbi_source]
    plan = plan_for(params)
    return pd.DataFrame(
        [
            ("M", "mean time between interruptions", format_duration(params.mtbi), how_m, "job lifecycle events"),
            ("C", "checkpoint cost", format_duration(params.checkpoint_cost), "measured", "per-step timing"),
            ("R", "restart time", format_duration(params.restart), "measured",
             "job lifecycle events and step timing"),
            ("T", "checkpoint interval to use", format_duration(plan.interval),
             "derived: the exact model's optimum", "computed from C and M, then configured"),
        ],
        columns=["symbol", "input", "this build", "measured or derived", "where to measure it"],
    )
