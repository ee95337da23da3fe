"""Figures, table and derivations of the chapter on checkpoints that are not yet safe (``book/tiers.md``).

Drawn like :mod:`goodput.book.figures`; every number is the exact model's (:mod:`goodput.tiers`), the derivations
SymPy's (:func:`goodput.symbolic.derive_tiers`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np
import sympy as sp
from IPython.display import Math
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import FixedLocator, NullLocator

from goodput import sources
from goodput.book.figures import COLOURS, WIDTH, _figure, _pct_axis, styled
from goodput.book.tables import book_table
from goodput.plan import recovery_of
from goodput.report import percent
from goodput.restart import Recovery
from goodput.sources import LOSES_LOCAL_COPY, lost_share
from goodput.symbolic import derive_tiers
from goodput.tiers import MAX_EVERY, Tiers, best_every, exact_goodput, exact_optimal_interval
from goodput.units import format_duration
from goodput.whatif import PEER_SURVIVES

if TYPE_CHECKING:
    from pandas.io.formats.style import Styler

    from goodput.fleet import FleetPlan

#: Persistent-to-fast cost ratios C_p/C the survival figure draws beside the fleet's own.
FIGURE_RATIOS = (2.0, 5.0, 10.0, 30.0)

#: One colour and line style per persistent-to-fast cost ratio, in order.
_STYLES = (
    (COLOURS["checkpoint"], "-"),
    (COLOURS["lost"], (0, (6, 2))),
    (COLOURS["restart"], (0, (2, 1.5))),
    (COLOURS["accent"], (0, (6, 2, 1.5, 2))),
    (COLOURS["second"], (0, (6, 1.5, 1.5, 1.5, 1.5, 1.5))),
)
#: Legend handle length, in font sizes: long enough for one and a half periods of the dash patterns of :data:`_STYLES` at
#: their line width of 2 (the default, 2, shows under one period of the longest, which then reads as solid).
_HANDLE_LENGTH = 4.5
#: Marker shapes for the marked points, in order.
_MARKERS = ("o", "s", "D", "^")


def _ratio_label(ratio: float, checkpoint_cost: float) -> str:
    """A curve's legend: C_p as a duration, and as a multiple of C where that reads well (under a thousand, 3 digits).

    >>> _ratio_label(5.0, 1.0), _ratio_label(337582.0, 3.55 / 60_000)
    ('C_p = 5 C (5 min)', 'C_p = 20 min')
    """
    duration = format_duration(checkpoint_cost * ratio)
    return f"C_p = {ratio:.3g} C ({duration})" if ratio < 1000 else f"C_p = {duration}"


def _every_text(n: int) -> str:
    """The best cadence as found: ``"best n = 5"``, or that the search stopped at its limit (:data:`MAX_EVERY`).

    >>> _every_text(5), _every_text(MAX_EVERY)
    ('best n = 5', 'best n ≥ 1,000 (the search limit)')
    """
    return f"best n ≥ {MAX_EVERY:,} (the search limit)" if n >= MAX_EVERY else f"best n = {n}"


def _best(scheme: Tiers, mtbi: float, recovery: Recovery | None = None) -> tuple[float, int]:
    """Exact goodput at the best whole n and its best interval, and that n (with the fleet's `recovery`)."""
    best = best_every(scheme, mtbi, recovery=recovery)
    return exact_goodput(best, mtbi, exact_optimal_interval(best, mtbi, recovery), recovery), best.every


@styled
def goodput_against_survival(
    mtbi: float,
    checkpoint_cost: float,
    restart: float,
    ratios: Sequence[float],
    *,
    persistent_restart: float | None = None,
    drain: float = 0.0,
    marks: Mapping[str, tuple[float, float]] | None = None,
    shares: Sequence[float] | None = None,
    recovery: Recovery | None = None,
    fixed: tuple[str, float, float, int] | None = None,
) -> Figure:
    """Exact goodput at the best cadence and interval against the share s the fast tier survives, per C_p/C.

    Minutes; R_p defaults to R, D to 0; `marks` are (C_p/C, s), each on its ratio's curve; `fixed` a plan at a cadence
    the inputs fix, (label, s, goodput, n), drawn filled below its curve; `recovery` the fleet's
    recovery without rollback and planned stops, in every point. Left: goodput, solid, and
    with every checkpoint persistent (n = 1) thin dotted; right: the best n (log scale), which stops at the search's
    limit :data:`goodput.tiers.MAX_EVERY`.
    """
    grid = np.asarray(shares if shares is not None else np.linspace(0.0, 0.98, 43), dtype=float)
    rp = restart if persistent_restart is None else persistent_restart
    fig, (left, right) = _figure(3.9, WIDTH + 0.6, 2, width_ratios=(1.6, 1.0))
    best_n_max = 1
    for i, ratio in enumerate(ratios):
        colour, style = _STYLES[i % len(_STYLES)]
        schemes = [Tiers(checkpoint_cost, restart, drain, checkpoint_cost * ratio, rp, float(s), 1) for s in grid]
        values, cadences = zip(*(_best(scheme, mtbi, recovery) for scheme in schemes), strict=True)
        single = [exact_goodput(scheme, mtbi, exact_optimal_interval(scheme, mtbi, recovery), recovery)
                  for scheme in schemes]
        best_n_max = max(best_n_max, max(cadences))
        left.plot(grid, values, color=colour, ls=style, lw=2.0, label=_ratio_label(ratio, checkpoint_cost))
        left.plot(grid, single, color=colour, ls=":", lw=1.0, alpha=0.8)
        right.step(grid, cadences, where="post", color=colour, ls=style, lw=1.8)
    for j, (label, (ratio, s)) in enumerate((marks or {}).items()):
        scheme = Tiers(checkpoint_cost, restart, drain, checkpoint_cost * ratio, rp, s, 1)
        g, n = _best(scheme, mtbi, recovery)
        marker = _MARKERS[j % len(_MARKERS)]
        left.plot([s], [g], marker=marker, ls="", ms=8, mfc="white", mec="black", mew=1.5, zorder=4,
                  label=f"{label}: {_every_text(n)}")
        right.plot([s], [n], marker=marker, ls="", ms=8, mfc="white", mec="black", mew=1.5, zorder=4)
    if fixed is not None:
        label, s, g, n = fixed
        left.plot([s], [g], marker="s", ls="", ms=7, color="black", zorder=4, label=f"{label}: n = {n}, as the inputs fix it")
        right.plot([s], [n], marker="s", ls="", ms=7, color="black", zorder=4)
        best_n_max = max(best_n_max, n)
    handles, _ = left.get_legend_handles_labels()
    handles += [Line2D([], [], color="0.2", lw=2.0, label="exact model, best n and T"),
                Line2D([], [], color="0.2", lw=1.0, ls=":", label="every checkpoint persistent (n = 1)")]
    fig.legend(handles=handles, loc="outside lower center", ncols=2, handlelength=_HANDLE_LENGTH)
    _pct_axis(left.xaxis, "share of interruptions the fast tier survives, s")
    _pct_axis(left.yaxis, "goodput (share of wall time)")
    _pct_axis(right.xaxis, "share survived, s")
    right.set_ylabel("best n (log scale)")  # what n is, the legend's n = 1 line says: a label no longer than the axis
    right.set_yscale("log")
    right.set_ylim(0.8, max(2.0, best_n_max * 1.5))
    right.yaxis.set_major_locator(FixedLocator([1, 2, 3, 5, 10, 20, 50, 100, 200, 500, MAX_EVERY]))
    right.yaxis.set_minor_locator(NullLocator())
    right.yaxis.set_major_formatter(lambda y, _: f"{y:,.0f}")
    for ax in (left, right):
        ax.set_xlim(grid[0], grid[-1] + 0.01)
    fig.get_layout_engine().set(wspace=0.06)  # type: ignore[union-attr, call-arg]  # the panels' labels apart
    return fig


def survival_figure(fleet: FleetPlan) -> Figure:
    """:func:`goodput_against_survival` for the fleet: its M, C and R, its persistent tier and a mark at its s.

    Without a persistent tier the persistent checkpoint is the fleet's slow (synchronous) one, durable at once and
    restarting in R, marked at Llama 3's share of interruptions that leave the node and at the peer share the chapter
    assumes (both labelled); when the slow checkpoint is no dearer than the fast one, nothing is marked.
    """
    p, scheme, recovery = fleet.params, fleet.plan.tiers, recovery_of(fleet.params)
    c = p.checkpoint_cost
    if scheme is not None and not scheme.one_tier and scheme.cp > c:
        ratio, s = round(scheme.cp / c, 6), scheme.fast_survives
        best = fleet.best_cadence.tiers
        # a cadence the inputs fix, where it is not the best: the plan's own point, below the best n's
        fixed = None if fleet.plan.every_chosen or best is None or best.every == scheme.every else (
            f"this fleet's plan ({percent(fleet.goodput)})", s, fleet.goodput, scheme.every)
        return goodput_against_survival(
            p.mtbi, c, p.restart, sorted({*FIGURE_RATIOS, ratio}), persistent_restart=scheme.rp, drain=scheme.drain,
            marks={f"this fleet at its best n (s = {percent(s, 0)})" if fixed else
                   f"this fleet (s = {percent(s, 0)})": (ratio, s)}, recovery=recovery, fixed=fixed)
    if p.slow_not_dearer:
        return goodput_against_survival(p.mtbi, c, p.restart, FIGURE_RATIOS, recovery=recovery)
    ratio = round(p.slow_checkpoint_cost / c, 6)
    kept = 1.0 - lost_share()
    return goodput_against_survival(p.mtbi, c, p.restart, sorted({*FIGURE_RATIOS, ratio}), recovery=recovery, marks={
        f"what-if: copy on the node alone (Llama 3 share, {percent(kept, 0)})": (ratio, kept),
        f"what-if: copy on a peer too (assumed {percent(PEER_SURVIVES, 0)})": (ratio, PEER_SURVIVES)})


def root_cause_table() -> Styler:
    """Llama 3's unexpected interruptions by root cause and whether each loses a node's local copy, as a table."""
    table = sources.llama3_root_causes()
    table["loses the copy"] = ["yes" if LOSES_LOCAL_COPY[c][0] else "no" for c in table["component"]]
    table["why"] = [LOSES_LOCAL_COPY[c][1] for c in table["component"]]
    table = table.rename(columns={"category": "category (paper)"})
    table = table.sort_values("count", ascending=False, kind="stable", ignore_index=True)
    return book_table(table, formats={"share": "{:.1%}"}, caption=(
        "Llama 3's unexpected interruptions by root cause (Table 5 of the paper, shares computed from its "
        "counts), and whether each loses a node's local copy of a checkpoint."))


def _latex(*lines: str) -> Math:
    body = r" \\[4pt] ".join(lines)
    for opening in ("(", "{"):  # SymPy writes C_p - C as -C + C_p
        body = body.replace(opening + "- C + C_{p}", opening + "C_{p} - C")
    return Math(r"\begin{aligned}" + body + r"\end{aligned}")  # type: ignore[no-untyped-call]


def derivation_interval() -> Math:
    """The loss's derivative in T, the root T*(n), the curvature there and P(n), as one aligned block."""
    d = derive_tiers()
    return _latex(
        r"\frac{\partial L}{\partial T} &= " + sp.latex(d.plain(d.loss_derivative)),
        r"\frac{\partial L}{\partial T} = 0 \;&\Rightarrow\; T^{*}(n) = " + sp.latex(d.plain(d.interval)),
        r"\left.\frac{\partial^2 L}{\partial T^2}\right|_{T^{*}(n)} &= "
        + sp.latex(d.plain(d.interval_curvature)) + r" > 0",
        r"P(n) = 2Mab &= " + sp.latex(d.plain(2 * d.symbols["M"] * d.interval_terms[0] * d.interval_terms[1])),
        r"\left(L(T^{*}(n), n) - \text{rest}\right)^2 - \frac{2P(n)}{M} &= " + sp.latex(d.loss_at_interval_check),
    )


def derivation_cadence() -> Math:
    """dP/dn, its root n*, the curvature, P(n*) and the two Young-like intervals at n*, as one aligned block."""
    d = derive_tiers()
    sym = d.symbols
    c, cp, s = sym["C"], sym["C_p_symbol"], sym["s"]
    young_sum = sp.sqrt(s * c) + sp.sqrt((1 - s) * (cp - c))
    return _latex(
        r"\frac{dP}{dn} &= " + sp.latex(d.plain(d.cadence_derivative)),
        r"\frac{dP}{dn} = 0 \;&\Rightarrow\; n^{*} = " + sp.latex(d.plain(d.every)),
        r"\left.\frac{d^2 P}{dn^2}\right|_{n^{*}} &= " + sp.latex(d.plain(d.cadence_curvature)) + r" > 0",
        r"P(n^{*}) - \left(" + sp.latex(young_sum) + r"\right)^2 &= " + sp.latex(d.cadence_minimum_check),
        r"T^{*}(n^{*})^2 \,\frac{s}{2CM} &= " + sp.latex(d.interval_at_every_check),
        r"\left(n^{*}\,T^{*}(n^{*})\right)^2 \frac{1 - s}{2(C_p - C)M} &= " + sp.latex(d.persistent_period_check),
    )


def derivation_reductions() -> Math:
    """The one-tier reduction and the drain's exact factor, its series and its effect on the interval."""
    d = derive_tiers()
    return _latex(
        r"L\big|_{C_p = C,\ s = 0,\ n = 1,\ R_p = R} &= " + sp.latex(d.one_tier_loss),
        r"T^{*}(1)\big|_{C_p = C,\ s = 0} &= " + sp.latex(d.one_tier_interval),
        r"1 - e^{-D/M} &= " + sp.latex(d.drain_cost_series, order="rev-lex") + r" + \dots",
        r"\frac{\partial}{\partial T} \ln\!\left(G\, e^{-D/M}\right) - \frac{\partial}{\partial T} \ln G &= "
        + sp.latex(d.drain_interval_shift),
    )
