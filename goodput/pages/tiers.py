"""The chapter "Checkpoints that are not yet safe" (``book/tiers.md``): the fleet's drain and tiers, in words.

The fleet's numbers are its one plan's (:func:`goodput.fleet.fleet_plan`, the full scheme by the exact model):
the interval, the cadence, the goodput, the losses (the drain's is the share of wall time lost to checkpoints not
yet durable) and the levers. The worked example appears only in labelled asides, with assumptions stated as
module constants: the drain of its local-first path (:data:`WORKED_DRAIN`), the share a copy on a peer survives
(:data:`PEER_SURVIVES`) and the slowdown of training during a drain (:data:`DRAIN_SLOWDOWN`). Which of
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
from goodput.tiers import Tiers, best_every, fast_tier_pays_from
from goodput.units import format_duration
from goodput.whatif import at_best, local_first

#: The drain of the worked example's local-first path, minutes: an assumption (the worked example gives none).
WORKED_DRAIN = 5.0
#: Share of interruptions a fast copy held on a peer node as well survives: an assumption for illustration
#: (Table 5 does not say how many nodes each interruption took).
PEER_SURVIVES = 0.95
#: How much slower training runs while a drain competes with it for network and storage: an illustration.
DRAIN_SLOWDOWN = 0.10

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
    all_interval = all_goodput = fast_gain = 0.0
    threshold = None
    if scheme is not None and two_tiers:
        all_interval, all_goodput, _ = at_best(scheme.with_every(1), m)
        fast_gain = max(0.0, fleet.goodput - all_goodput)
        threshold = fast_tier_pays_from(scheme, m)
    fast = "none" if not two_tiers else ("pays" if scheme is not None and scheme.every > 1 else "not")

    # An untiered fleet: its own C, R and M with an assumed drain at Llama 3's share (an illustration).
    q = sources.lost_share()

    # Llama 3's Table 5: the counts behind the share, and what the two judgment calls would change.
    total, lost, gpu_count = (sources.llama3_count(), sources.llama3_count(loses_copy=True),
                              sources.llama3_count(category="GPU"))
    gpu = [c_ for c_, category, _ in sources.LLAMA3_ROOT_CAUSES if category == "GPU"]
    base = {k: v for k, (v, _) in sources.LOSES_LOCAL_COPY.items()}

    # The worked example's asides, by the exact model: its local-first path drained, a fast tier, a peer copy.
    wp = wx.params
    wc, wcs, wm, wr, wd = wp.checkpoint_cost, wp.slow_checkpoint_cost, wp.mtbi, wp.restart, WORKED_DRAIN
    t_drained, g_drained, wx_drain_loss = at_best(local_first(wc, wr, wd, 1.0 - q), wm)
    _, g_peer, peer_drain_loss = at_best(local_first(wc, wr, wd, PEER_SURVIVES), wm)
    local = best_every(Tiers(wc, wr, 0.0, wcs, wr, 1.0 - q), wm)
    peer_scheme = Tiers(wc, wr, 0.0, wcs, wr, PEER_SURVIVES)
    peer = best_every(peer_scheme, wm)
    t_tiers, g_tiers, _ = at_best(peer, wm)
    _, g_sync, _ = at_best(peer_scheme, wm)
    ft_threshold = fast_tier_pays_from(peer_scheme, wm)
    shift = abs(t_drained - wx.interval)
    ill_scheme = local_first(c, r, WORKED_DRAIN, 1.0 - q)
    ill_interval, ill_goodput, ill_drain_loss = at_best(ill_scheme, m)

    # Storage contention: each drained checkpoint costs slowdown x D more work, at the interval the plan uses.
    if scheme is not None and scheme.drain > 0:
        counted, whose, drain, interval = fleet.goodput, "this fleet's", scheme.drain, fleet.interval
        extra = DRAIN_SLOWDOWN * drain
        slowed_scheme = (Tiers(c + extra, r, drain=drain) if scheme.one_tier else
                         Tiers(c, r, drain, scheme.cp + extra, scheme.rp, scheme.fast_survives, scheme.every))
        lim_cost = scheme.cp + extra
    else:
        counted, drain, interval = ill_goodput, WORKED_DRAIN, ill_interval
        whose = "the worked example's" if worked else "the illustration's"
        extra = DRAIN_SLOWDOWN * drain
        slowed_scheme = local_first(c + extra, r, drain, 1.0 - q)
        lim_cost = c + extra
    _, slowed, _ = at_best(slowed_scheme, m, interval)

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
        all_interval=format_duration(all_interval), all_goodput=percent(all_goodput), fast_gain=points(fast_gain),
        fast_gain_dollars=money(fleet.dollars(fast_gain)),
        threshold="more than any share" if threshold is None else percent(threshold, 0),
        peer_fleet=Variant("tiered" if two_tiers and s < 1.0 else "none"), survives_more=share_text(s + (1.0 - s) / 2),
        lever_survive=points(lever_survive), lever_survive_dollars=money(fleet.dollars(lever_survive)),
        ill_interval=format_duration(ill_interval), ill_goodput=percent(ill_goodput),
        ill_drain_loss=percent(ill_drain_loss), ill_drain_dollars=money(fleet.dollars(ill_drain_loss)),
        snippet_survives=Raw(f"{1.0 - q:.3f}"), lim_whose=whose, lim_slowdown=percent(DRAIN_SLOWDOWN, 0),
        lim_drain=format_duration(drain), lim_extra=format_duration(extra), lim_cost=format_duration(lim_cost),
        lim_interval=format_duration(interval), lim_counted=percent(counted), lim_goodput=percent(slowed),
        lim_points=points(max(0.0, counted - slowed)), total_count=f"{total:,}", lost_count=f"{lost:,}",
        lost_share=percent(lost / total), kept_share=percent(1 - lost / total), gpu_count=f"{gpu_count:,}",
        gpu_share=percent(gpu_count / total),
        without_gpu_share=percent(sources.lost_share({**base, **dict.fromkeys(gpu, False)})),
        network_count=f"{sources.llama3_count(category='Network'):,}",
        with_network_share=percent(sources.lost_share({**base, "Network switch/cable": True})),
        maintenance_count=f"{sources.llama3_count(component='Host maintenance'):,}", wx_cost=format_duration(wc),
        wx_slow_cost=format_duration(wcs), wx_drain=Raw(format_duration(wd)), wx_interval=format_duration(wx.interval),
        wx_interval_shift="less than a second" if shift * 60 < 1 else format_duration(shift),
        wx_goodput=percent(wx.goodput), wx_goodput_drained=percent(g_drained), wx_drain_loss=percent(wx_drain_loss),
        wx_points=points(max(0.0, wx.goodput - wx.slow.goodput)),
        wx_points_drained=points(max(0.0, g_drained - wx.slow.goodput)),
        wx_dollars_drained=money(wx.dollars(max(0.0, g_drained - wx.slow.goodput))), ft_local_n=str(local.every),
        ft_local=Variant("not" if local.every == 1 else "pays"), ft_local_nth=ordinal(local.every),
        ft_threshold="never" if ft_threshold is None else percent(ft_threshold, 0), ft_peer_s=percent(PEER_SURVIVES, 0),
        ft_peer_n=str(peer.every), ft_peer_interval=format_duration(t_tiers), ft_peer_goodput=percent(g_tiers),
        ft_sync_goodput=percent(g_sync), ft_gain=points(max(0.0, g_tiers - g_sync)),
        ft_gain_dollars=money(wx.dollars(max(0.0, g_tiers - g_sync))),
        ft_drained_vs_tiers=points(max(0.0, g_peer - g_tiers)), peer_drain_loss=percent(peer_drain_loss),
        peer_goodput=percent(g_peer), peer_saved=points(max(0.0, g_peer - g_drained)),
    )
