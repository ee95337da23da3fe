"""The chapter "Checkpoints that are not yet safe" (``book/tiers.md``): the fleet's drain and tiers, in words.

The fleet's numbers are its one plan's (:func:`goodput.fleet.fleet_plan`, the full scheme by the exact model):
the interval, the cadence, the goodput, the losses (the drain's is the share of wall time lost to checkpoints not
yet durable) and the levers. The worked example appears only in labelled asides, with assumptions stated in
:mod:`goodput.whatif`, which computes them: the drain of its local-first path (:data:`goodput.whatif.WORKED_DRAIN`),
the share a copy on a peer survives (:data:`goodput.whatif.PEER_SURVIVES`) and the slowdown of training during a drain
(:data:`goodput.whatif.DRAIN_SLOWDOWN`). Which of
Llama 3's root causes lose a node's local copy is data (:data:`goodput.sources.LOSES_LOCAL_COPY`), argued component by component.
"""

from __future__ import annotations

from dataclasses import dataclass

from goodput import sources
from goodput.fleet import FleetPlan, fleet_plan
from goodput.pages import Raw, Variant
from goodput.pages.common import LOSS_WORDS, is_worked_example
from goodput.params import load_params
from goodput.report import money, ordinal, percent, points, share_text
from goodput.units import format_duration
from goodput.whatif import (
    DRAIN_SLOWDOWN,
    PEER_SURVIVES,
    WORKED_DRAIN,
    contention_whatif,
    fast_tier_whatif,
    illustrative_drain,
    worked_tier_asides,
)

#: The plan's losses as the chapter names them.
LOSS_NAMES = {**LOSS_WORDS, "drain_loss": "the drain"}


@dataclass(frozen=True)
class Page:
    """The chapter's values; the fleet's from its plan, ``wx_``/``ft_``/``peer_`` the worked example's asides."""

    # the fleet and its plan
    inputs: str
    opening: Variant
    gpus: str
    mtbi: str
    cost: str
    restart: str
    survives: str
    persistent_cost: str
    persistent_restart: str
    durable: str
    drain: str
    interval: str
    cadence: str
    goodput: str
    loss_overhead: str
    loss_lost: str
    loss_restart: str
    loss_drain: str
    largest_loss: str
    largest_loss_share: str
    lost_dollars: str
    drain_dollars: str
    # the drain's lever and whether it sets the interval
    drain_fleet: Variant
    half_drain: str
    lever_drain: str
    lever_drain_dollars: str
    # the fast tier
    fast_fleet: Variant
    ratio: str
    every: str
    all_interval: str
    all_goodput: str
    fast_gain: str
    fast_gain_dollars: str
    threshold: str
    # copies on peers: the lever that raises s
    peer_fleet: Variant
    survives_more: str
    lever_survive: str
    lever_survive_dollars: str
    # an untiered fleet: a drain as an illustration, and the inputs that describe one
    ill_interval: str
    ill_goodput: str
    ill_drain_loss: str
    ill_drain_dollars: str
    snippet_survives: str
    # storage contention, at the interval the sentence names
    lim_whose: str
    lim_slowdown: str
    lim_drain: str
    lim_extra: str
    lim_cost: str
    lim_interval: str
    lim_counted: str
    lim_goodput: str
    lim_points: str
    # Llama 3's root causes
    total_count: str
    lost_count: str
    lost_share: str
    kept_share: str
    gpu_count: str
    gpu_share: str
    without_gpu_share: str
    network_count: str
    with_network_share: str
    maintenance_count: str
    # the worked example's asides (exact model)
    wx_cost: str
    wx_slow_cost: str
    wx_drain: str
    wx_interval: str
    wx_interval_shift: str
    wx_goodput: str
    wx_goodput_drained: str
    wx_drain_loss: str
    wx_points: str
    wx_points_drained: str
    wx_dollars_drained: str
    ft_local_n: str
    ft_local: Variant
    ft_local_nth: str
    ft_threshold: str
    ft_peer_s: str
    ft_peer_n: str
    ft_peer_interval: str
    ft_peer_goodput: str
    ft_sync_goodput: str
    ft_gain: str
    ft_gain_dollars: str
    ft_drained_vs_tiers: str
    peer_drain_loss: str
    peer_goodput: str
    peer_saved: str


def build(fleet: FleetPlan) -> Page:
    """The chapter's values, from the fleet's one plan (and, in labelled asides, the worked example's)."""
    p = fleet.params
    c, m, r = p.checkpoint_cost, p.mtbi, p.restart
    worked = is_worked_example(p)
    wx = fleet if worked else fleet_plan(load_params())
    scheme = fleet.plan.tiers
    losses = fleet.losses
    two_tiers = scheme is not None and not scheme.one_tier

    # The fast tier against every checkpoint persistent (n = 1 at its own best interval).
    fast_what = fast_tier_whatif(fleet)
    fast = "none" if not two_tiers else ("pays" if scheme is not None and scheme.every > 1 else "not")

    # An untiered fleet: its own C, R and M with an assumed drain at Llama 3's share (an illustration).
    q = sources.lost_share()
    ill_interval, ill_goodput, ill_drain_loss = illustrative_drain(p)

    # Llama 3's Table 5: the counts behind the share, and what the two judgment calls would change.
    total, lost, gpu_count = (sources.llama3_count(), sources.llama3_count(loses_copy=True),
                              sources.llama3_count(category="GPU"))

    # The worked example's asides, by the exact model: its local-first path drained, a fast tier, a peer copy.
    wp = wx.params
    aside = worked_tier_asides(wp)
    shift = abs(aside.drained_interval - wx.interval)

    # Storage contention: each drained checkpoint costs slowdown x D more work, at the interval the plan uses.
    lim = contention_whatif(fleet)
    whose = "this fleet's" if lim.own else "the worked example's" if worked else "the illustration's"

    levers = fleet.levers
    lever_drain = max(0.0, levers.get("shorten the drain", 0.0))
    lever_survive = max(0.0, levers.get("make the fast tier survive more failures", 0.0))
    s = scheme.fast_survives if scheme is not None else 0.0
    every = scheme.every if scheme is not None else 1
    largest = fleet.largest_loss
    opening = ("worked" if worked else "none") if scheme is None else "drain" if scheme.one_tier else "tiered"
    return Page(
        inputs="the worked example" if worked else f"the inputs file {p.source}", opening=Variant(opening),
        gpus=f"{p.gpus:,}", mtbi=format_duration(m), cost=Raw(format_duration(c)), restart=format_duration(r),
        survives=share_text(s), persistent_cost=format_duration(scheme.cp if scheme is not None else c),
        persistent_restart=format_duration(scheme.rp if scheme is not None else r),
        durable=(f"durable {format_duration(scheme.drain)} after its snapshot"
                 if scheme is not None and scheme.drain > 0 else "durable at once"),
        drain=format_duration(scheme.drain if scheme is not None else 0.0), interval=format_duration(fleet.interval),
        cadence=("every checkpoint persistent" if every == 1 else f"every {ordinal(every)} checkpoint persistent")
        + (" (the cadence the inputs file fixes)" if p.persistent_every is not None else ""),
        goodput=percent(fleet.goodput), loss_overhead=percent(losses["checkpoint_overhead"]),
        loss_lost=percent(losses["lost_work"]), loss_restart=percent(losses["restart_loss"]),
        loss_drain=percent(losses.get("drain_loss", 0.0)),
        largest_loss=LOSS_NAMES[largest], largest_loss_share=percent(losses[largest]),
        lost_dollars=money(fleet.lost_dollars), drain_dollars=money(fleet.dollars(losses.get("drain_loss", 0.0))),
        drain_fleet=Variant("none" if scheme is None or scheme.drain == 0 else
                            "sets" if fleet.interval <= scheme.drain * (1 + 1e-9) else "drained"),
        half_drain=format_duration((scheme.drain if scheme is not None else 0.0) / 2), lever_drain=points(lever_drain),
        lever_drain_dollars=money(fleet.dollars(lever_drain)),
        fast_fleet=Variant(fast), ratio=f"{(scheme.cp / c) if scheme is not None else 1.0:.3g}", every=str(every),
        all_interval=format_duration(fast_what.interval if fast_what else 0.0),
        all_goodput=percent(fast_what.goodput if fast_what else 0.0),
        fast_gain=points(fast_what.gain if fast_what else 0.0),
        fast_gain_dollars=money(fleet.dollars(fast_what.gain if fast_what else 0.0)),
        threshold="more than any share" if fast_what is None or fast_what.threshold is None
        else percent(fast_what.threshold, 0),
        peer_fleet=Variant("tiered" if two_tiers and s < 1.0 else "none"), survives_more=share_text(s + (1.0 - s) / 2),
        lever_survive=points(lever_survive), lever_survive_dollars=money(fleet.dollars(lever_survive)),
        ill_interval=format_duration(ill_interval), ill_goodput=percent(ill_goodput),
        ill_drain_loss=percent(ill_drain_loss), ill_drain_dollars=money(fleet.dollars(ill_drain_loss)),
        snippet_survives=Raw(f"{1.0 - q:.3f}"), lim_whose=whose, lim_slowdown=percent(DRAIN_SLOWDOWN, 0),
        lim_drain=format_duration(lim.drain), lim_extra=format_duration(lim.extra), lim_cost=format_duration(lim.cost),
        lim_interval=format_duration(lim.interval), lim_counted=percent(lim.counted), lim_goodput=percent(lim.goodput),
        lim_points=points(max(0.0, lim.counted - lim.goodput)), total_count=f"{total:,}", lost_count=f"{lost:,}",
        lost_share=percent(lost / total), kept_share=percent(1 - lost / total), gpu_count=f"{gpu_count:,}",
        gpu_share=percent(gpu_count / total),
        without_gpu_share=percent(sources.lost_share_if(gpu_loses=False)),
        network_count=f"{sources.llama3_count(category='Network'):,}",
        with_network_share=percent(sources.lost_share_if(network_loses=True)),
        maintenance_count=f"{sources.llama3_count(component='Host maintenance'):,}", wx_cost=format_duration(wp.checkpoint_cost),
        wx_slow_cost=format_duration(wp.slow_checkpoint_cost), wx_drain=Raw(format_duration(WORKED_DRAIN)), wx_interval=format_duration(wx.interval),
        wx_interval_shift="less than a second" if shift * 60 < 1 else format_duration(shift),
        wx_goodput=percent(wx.goodput), wx_goodput_drained=percent(aside.drained_goodput), wx_drain_loss=percent(aside.drained_loss),
        wx_points=points(max(0.0, wx.goodput - wx.slow.goodput)),
        wx_points_drained=points(max(0.0, aside.drained_goodput - wx.slow.goodput)),
        wx_dollars_drained=money(wx.dollars(max(0.0, aside.drained_goodput - wx.slow.goodput))), ft_local_n=str(aside.local_every),
        ft_local=Variant("not" if aside.local_every == 1 else "pays"), ft_local_nth=ordinal(aside.local_every),
        ft_threshold="never" if aside.threshold is None else percent(aside.threshold, 0), ft_peer_s=percent(PEER_SURVIVES, 0),
        ft_peer_n=str(aside.peer_every), ft_peer_interval=format_duration(aside.tiers_interval), ft_peer_goodput=percent(aside.tiers_goodput),
        ft_sync_goodput=percent(aside.sync_goodput), ft_gain=points(max(0.0, aside.tiers_goodput - aside.sync_goodput)),
        ft_gain_dollars=money(wx.dollars(max(0.0, aside.tiers_goodput - aside.sync_goodput))),
        ft_drained_vs_tiers=points(max(0.0, aside.peer_goodput - aside.tiers_goodput)), peer_drain_loss=percent(aside.peer_drain_loss),
        peer_goodput=percent(aside.peer_goodput), peer_saved=points(max(0.0, aside.peer_goodput - aside.drained_goodput)),
    )
