"""Figure and table of the chapter on the model and the storage (``book/storage.md``).

The table's numbers are the chapter's page object's (:func:`goodput.pages.storage.build`), so each is computed once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from goodput.book.figures import _LABEL_BOX, COLOURS, _figure, _legend_below, _pct_axis, styled
from goodput.book.tables import book_table
from goodput.report import percent
from goodput.storage import FASTEST, format_bandwidth
from goodput.units import format_duration
from goodput.whatif import fleet_write

if TYPE_CHECKING:
    from pandas.io.formats.style import Styler

    from goodput.fleet import FleetPlan
    from goodput.pages.storage import Page

#: Points on the bandwidth curve (log-spaced).
CURVE_POINTS = 41


def published_table(page: Page) -> Styler:
    """The published sizes and times beside the book's, each computed from the source's own inputs."""
    rows = [
        (f"BLOOM-176B bf16 weights: {page.bloom_parameters} × 2 B", page.bloom_weights_published,
         f"{page.bloom_weights_gib} = {page.bloom_weights}; {page.bloom_weights_gap} off as GiB"),
        (f"BLOOM-176B full checkpoint: {page.bloom_parameters} × 14 B", page.bloom_full_published,
         (f"{page.bloom_full} = {page.bloom_full_tib}; {page.bloom_full_gap_binary} off as TiB, "
          f"{page.bloom_full_gap_decimal} as TB")),
        (f"GEMINI, MT-NLG's model states: 530 billion × 12 B at {page.gemini_bandwidth}", page.gemini_published,
         f"{page.gemini_minutes} ({page.gemini_size}); {page.gemini_gap} off"),
        (f"744B model staged in host memory: {page.staging_size} over 16 nodes", f"{page.staging_published} a node",
         f"{page.staging_per_node} a node, {page.staging_share} of the {page.staging_free} free"),
        (f"Lablup, 504 B200s, saves: {page.lablup_write_share} of {page.lablup_write}", "",
         f"{page.lablup_write_achieved} achieved"),
        (f"Lablup, 504 B200s, restores: {page.lablup_read_share} of {page.lablup_read}", "",
         f"{page.lablup_read_achieved} achieved"),
        (f"torchtitan, Llama 3 8B ({page.titan_size}) saved in about 6 min", "", f"{page.titan_bandwidth} implied"),
        (f"Megatron-LLM, 70B ({page.megatron_size}) written in about 10 min", "",
         f"{page.megatron_bandwidth} implied"),
    ]
    frame = pd.DataFrame(rows, columns=["published figure and its inputs", "published", "this book"])
    caption = ("Published checkpoint sizes and times beside the book's, each computed from the source's own inputs "
               "by the formulas above (S = P × b, time = S / B). Where the source gives a time and no bandwidth, the "
               "book gives the bandwidth the time implies, at 12 and 14 bytes per parameter.")
    return book_table(frame, caption=caption, right=["published"])


@styled
def goodput_vs_bandwidth(fleet: FleetPlan) -> Figure:
    """Goodput against the achieved write bandwidth (bytes per second, log scale) to shared storage, for the fleet.

    With the fleet's storage inputs, its whole scheme with its write (C, or the drain D after a snapshot) at each
    bandwidth, and with a storage price the best bandwidth net of its cost; else the slow checkpoint, one tier
    (:func:`goodput.whatif.fleet_write`).
    """
    size, achieved, stated = fleet_write(fleet)
    given = fleet.storage is not None
    best = fleet.best_write_bandwidth
    low, high = achieved / 30.0, max(achieved * 300.0, FASTEST)  # to the text's ceiling, the goodput at FASTEST
    if best is not None and fleet.storage is not None:  # B* (achieved) inside the curve's range
        low = min(low, best.bandwidth * fleet.storage.efficiency / 3.0)
        high = max(high, best.bandwidth * fleet.storage.efficiency * 3.0)
    bandwidths = np.geomspace(low, high, CURVE_POINTS)
    curve = [fleet.goodput_at_write_bandwidth(float(b), size) for b in bandwidths]
    ceiling = fleet.goodput_at_write_bandwidth(FASTEST, size)
    sync = fleet.synchronous  # where the scheme does not pay: the synchronous write's curve beside the scheme's
    fig, ax = _figure(3.6)
    label = "this fleet's plan" if given else "illustration: slow checkpoint as a BLOOM-sized write (one tier)"
    if sync is not None:
        label = (f"this fleet's plan: its scheme as measured ({format_duration(fleet.params.checkpoint_cost)} stall, "
                 "the write sets the drain)")
    ax.plot(bandwidths, curve, color=COLOURS["total"], label=label)
    ax.axhline(ceiling, color=COLOURS["restart"], ls=":", lw=1.2,
               label="a write taking no time" + (", the scheme's" if sync is not None else ""))
    top = max(ceiling, fleet.plan.goodput)
    if sync is not None:
        synchronous = [sync.goodput_at_write_bandwidth(float(b), size) for b in bandwidths]
        top = max(top, *synchronous)
        ax.plot(bandwidths, synchronous, color=COLOURS["lost"], ls="--",
                label="the synchronous write instead (no snapshot: the write is C, no drain)")
        at_now = sync.goodput_at_write_bandwidth(achieved, size)
        # hollow and on top: it sits half a point or so from the fleet's own marker at the same bandwidth
        ax.plot([achieved], [at_now], "s", color=COLOURS["lost"], mfc="none", mew=1.6, ms=8, zorder=4,
                label=f"synchronous write at the fleet's {format_bandwidth(achieved)} achieved: {percent(at_now)}")
        if (sb := sync.best_write_bandwidth) is not None and fleet.storage is not None:
            at_sb = sb.bandwidth * fleet.storage.efficiency
            ax.plot([at_sb], [sync.goodput_at_write_bandwidth(at_sb, size)], "^", color=COLOURS["lost"], ms=7,
                    zorder=3, label=f"the synchronous write's own best net of its cost: {format_bandwidth(sb.bandwidth)} stated "
                    f"({format_bandwidth(at_sb)} achieved), {percent(sb.goodput)}")
    now = fleet.goodput_at_write_bandwidth(achieved, size)
    ax.plot([achieved], [now], "o", color=COLOURS["accent"], ms=7, zorder=3,
            label="this fleet, achieved" if given else "implied by the slow checkpoint")
    ax.annotate(f"{format_bandwidth(achieved)}: {percent(now)}", (achieved, now), xytext=(8, -6),
                textcoords="offset points", va="top", bbox=_LABEL_BOX)
    if given and stated > achieved * 1.0001:
        at_stated = fleet.goodput_at_write_bandwidth(stated, size)
        ax.plot([stated], [at_stated], "D", color=COLOURS["second"], ms=7, zorder=3,
                label="if all of the stated bandwidth were achieved")
        ax.annotate(f"if all of the stated {format_bandwidth(stated)}\nwere achieved: {percent(at_stated)}",
                    (stated, at_stated), xytext=(14, -22) if sync is not None else (8, 6), textcoords="offset points",
                    va="top" if sync is not None else "bottom",
                    bbox=_LABEL_BOX)  # above: the achieved label is below; under it, where the synchronous curve rises
    if best is not None and fleet.storage is not None:
        at = best.bandwidth * fleet.storage.efficiency
        ax.axvline(at, color=COLOURS["checkpoint"], ls="-.", lw=1.2,
                   label=f"B*, the best net of its cost{' for the scheme' if sync is not None else ''}: "
                   f"{format_bandwidth(best.bandwidth)} stated "
                   f"({format_bandwidth(at)} achieved), {percent(best.goodput)}")
    if not given:
        plan = fleet.plan.goodput
        ax.axhline(plan, color=COLOURS["checkpoint"], ls="--", lw=1.2, label="this fleet's plan")
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(lambda x, _: format_bandwidth(x))
    ax.set_xlabel("achieved write bandwidth to shared storage")
    # Room under the curve for the stated point's label where the synchronous curve takes the room above it; that
    # curve may leave at the bottom.
    ax.set_ylim(max(0.0, min(curve) - (0.1 if sync is not None else 0.05)), min(1.0, top + 0.05))
    _pct_axis(ax.yaxis, "goodput (share of wall time)")
    _legend_below(ax, ncols=1 if best is not None or sync is not None else 2)  # B*'s label is long
    return fig
