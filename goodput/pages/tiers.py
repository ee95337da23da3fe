"""The chapter "Checkpoints that are not yet safe" (``book/tiers.md``): the fleet's drain and tiers, in words.

The fleet's numbers are its one plan's (the full scheme by the exact model). The worked example appears only in
labelled asides, with the assumptions :mod:`goodput.whatif` states and computes (its drain, a peer copy's share, the
slowdown during a drain); :func:`goodput.whatif.tiers_whatif` computes every what-if, this module formats. Which of Llama 3's root causes lose a node's local copy is data
(:data:`goodput.sources.LOSES_LOCAL_COPY`), argued component by component.
"""

from __future__ import annotations

from dataclasses import dataclass

from goodput import sources
from goodput.fleet import FleetPlan
from goodput.pages import Raw, Variant
from goodput.pages.common import (
    LOSS_WORDS,
    MATERIAL,
    Fleet,
    SchemeValues,
    fleet_values,
    is_worked_example,
    scheme_values,
)
from goodput.plan import survives_more
from goodput.report import (
    gain_text,
    money,
    ordinal,
    percent,
    percent_apart,
    percent_sig2,
    points,
    points_sig2,
    share_text,
    slow_words,
    small_points,
)
from goodput.tiers import Tiers
from goodput.units import duration_text, format_duration
from goodput.whatif import DRAIN_SLOWDOWN, PEER_SURVIVES, WORKED_DRAIN, tiers_whatif


@dataclass(frozen=True)
class Page(Fleet, SchemeValues):
    """The chapter's values; ``wx_``/``ft_``/``peer_`` the worked example's asides (exact model), the rest the fleet's.

    The fleet's come from its plan (its drain, fast tier and copies on peers, ``lim_`` storage contention) or, where it
    is untiered, an illustrative drain (``ill_``); Llama 3's root causes are the same in every build.
    """

    opening: Variant
    snippet_cost: str
    survives: str
    durable: Variant
    persistent_cadence: Variant
    every_nth: str
    loss_drain: str
    largest_name: str
    drain_dollars: str
    drain_fleet: Variant
    half_drain: str
    lever_drain: str
    lever_drain_dollars: str
    fast_fleet: Variant
    slow_drawn: str
    ratio: str
    every: str
    cadence_found: Variant
    best_every: str
    cadence_gain: str
    all_interval: str
    all_goodput: str
    fast_gain: str
    fast_gain_dollars: str
    threshold: Variant
    threshold_share: str
    peer_fleet: Variant
    peer_fleet_goodput: str
    peer_fleet_points: str
    peer_fleet_dollars: str
    survives_more: str
    lever_survive: str
    lever_survive_dollars: str
    ill_interval: str
    ill_goodput: str
    ill_plan_goodput: str
    ill_drain_loss: str
    ill_points: str
    ill_drain_dollars: str
    snippet_survives: str
    contention: Variant
    lim_whose: Variant
    lim_slowdown: str
    lim_drain: str
    lim_extra: str
    lim_cost: str
    lim_interval: str
    lim_counted: str
    lim_goodput: str
    lim_points: str
    total_count: str
    lost_count: str
    lost_share: str
    kept_share: str
    gpu_failures: str
    gpu_share: str
    without_gpu_share: str
    network_count: str
    with_network_share: str
    maintenance_count: str
    wx_cost: str
    wx_slow_cost: str
    wx_drain: str
    wx_interval: str
    wx_interval_shift: Variant
    wx_shift: str
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
    p, scheme, losses, levers = fleet.params, fleet.plan.tiers, fleet.losses, fleet.levers
    c = p.checkpoint_cost
    t = scheme if scheme is not None else Tiers(c, p.restart)  # an untiered fleet: one tier, durable at once
    worked = is_worked_example(p)
    x = tiers_whatif(fleet, worked)
    fast, aside, lim, wx, peer_own = x.fast, x.aside, x.lim, x.wx, x.peer_own
    fast_interval, fast_goodput, fast_gain = (fast.interval, fast.goodput, fast.gain) if fast else (0.0, 0.0, 0.0)
    ill_interval, ill_goodput, ill_drain_loss = x.ill
    # Llama 3's Table 5: the counts behind the share, and what the two judgment calls would change.
    total, lost = sources.llama3_count(), sources.llama3_count(loses_copy=True)
    gpu_failures = sources.llama3_count(category="GPU")
    shift = abs(aside.drained_interval - wx.interval)
    lever_drain = max(0.0, levers.get("shorten the drain", 0.0))
    lever_survive = max(0.0, levers.get("make the fast tier survive more failures", 0.0))
    s, every = t.fast_survives, t.every
    best = fleet.best_cadence  # the plan's n, or where the inputs file fixes n, the exact model's best
    best_n = best.tiers.every if best.tiers is not None else every
    cadence_gain = max(0.0, best.goodput - fleet.goodput)
    cadence = ("every" if every == 1 else "nth") + ("_fixed" if p.persistent_every is not None else "")  # file's own n
    # a checkpoint that is itself a synchronous write to shared storage is durable at once: no drain to illustrate
    opening = ("worked" if worked else "write" if p.checkpoint_is_write else "none") if scheme is None else \
        "drain" if scheme.one_tier else "tiered" if scheme.drain > 0 else "tiered_at_once"
    return Page(
        **fleet_values(fleet), **scheme_values(fleet),
        # snippet_cost: read back as C exactly, so that the snippet is no cheaper than C
        opening=Variant(opening), snippet_cost=Raw(duration_text(c)), survives=share_text(s),
        durable=Variant("drained" if t.drain > 0 else "at_once"),
        persistent_cadence=Variant(cadence), every_nth=ordinal(every),
        loss_drain=percent_sig2(losses.get("drain_loss", 0.0)),
        largest_name="the drain" if fleet.largest_loss == "drain_loss" else LOSS_WORDS[fleet.largest_loss],
        drain_dollars=money(fleet.dollars(losses.get("drain_loss", 0.0))),
        drain_fleet=Variant("none" if t.drain == 0 else
                            "sets" if fleet.plan.at_drain else "drained"),
        half_drain=format_duration(t.drain / 2), lever_drain=gain_text(lever_drain),
        lever_drain_dollars=money(fleet.dollars(lever_drain)),
        # a derived slow checkpoint is the book's comparison, not the inputs file's (Params.slow_derived)
        slow_drawn=slow_words(p, fleet.slow_keeps_more) + "," if p.slow_derived else "the slow checkpoint of its inputs file",
        # a fast tier worth less than none: a cadence the inputs fix keeps less than every checkpoint persistent
        fast_fleet=Variant(("cheaper" if p.slow_not_dearer else "none") if t.one_tier else "not" if best_n == 1 else
                           "costs" if fast_gain < 0 else "pays"), ratio=f"{t.cp / c:.3g}",
        every=str(every), best_every=str(best_n), cadence_gain=gain_text(cadence_gain),
        cadence_found=Variant("chosen" if p.persistent_every is None else "fixed_best" if best_n == every else "fixed_other"), all_interval=format_duration(fast_interval), all_goodput=percent(fast_goodput),
        fast_gain=points(abs(fast_gain)), fast_gain_dollars=money(fleet.dollars(abs(fast_gain))),
        threshold=Variant("any" if fast is None or fast.threshold is None else "share"),
        threshold_share=percent(fast.threshold, 0) if fast and fast.threshold is not None else "",
        peer_fleet=Variant("tiered" if not t.one_tier and s < 1.0 else "none" if peer_own == 0
                           else "drained" if x.peer_own_gain >= MATERIAL else "drained_small"),
        peer_fleet_goodput=percent(peer_own) if peer_own > 0 else "", peer_fleet_points=small_points(x.peer_own_gain),
        peer_fleet_dollars=money(fleet.dollars(x.peer_own_gain)),
        survives_more=share_text(survives_more(s)), lever_survive=gain_text(lever_survive),
        lever_survive_dollars=money(fleet.dollars(lever_survive)), ill_interval=format_duration(ill_interval),
        # the illustration's goodput beside the plan's, each with the decimals that set them apart; a small loss and
        # difference in two significant digits (0.052%, 0.052 points: not 0.1 twice beside $1.3K of 0.05 points)
        ill_goodput=percent_apart(ill_goodput, fleet.goodput), ill_plan_goodput=percent_apart(fleet.goodput, ill_goodput),
        ill_drain_loss=percent_sig2(ill_drain_loss),
        ill_points=points_sig2(x.ill_gain), ill_drain_dollars=money(fleet.dollars(x.ill_gain)),
        snippet_survives=Raw(f"{1.0 - sources.lost_share():.3f}"),
        # a drain to slow training: the fleet's, or an illustration's where it has none and no persistent tier
        contention=Variant("drained" if lim.own or t.one_tier else "stalled"),
        lim_whose=Variant("own" if lim.own else "worked" if worked else "local" if opening == "write" else "illustration"),
        lim_slowdown=percent(DRAIN_SLOWDOWN, 0), lim_drain=format_duration(lim.drain),
        lim_extra=format_duration(lim.extra), lim_cost=format_duration(lim.cost),
        lim_interval=format_duration(lim.interval),
        lim_counted=percent(lim.counted), lim_goodput=percent(lim.goodput),
        lim_points=points(max(0.0, lim.counted - lim.goodput)), total_count=f"{total:,}", lost_count=f"{lost:,}",
        lost_share=percent(lost / total), kept_share=percent(1 - lost / total), gpu_failures=f"{gpu_failures:,}",
        gpu_share=percent(gpu_failures / total), without_gpu_share=percent(sources.lost_share_if(gpu_loses=False)),
        network_count=f"{sources.llama3_count(category='Network'):,}",
        with_network_share=percent(sources.lost_share_if(network_loses=True)),
        maintenance_count=f"{sources.llama3_count(component='Host maintenance'):,}",
        wx_cost=format_duration(wx.params.checkpoint_cost),
        wx_slow_cost=format_duration(wx.params.slow_checkpoint_cost),
        wx_drain=Raw(format_duration(WORKED_DRAIN)), wx_interval=format_duration(wx.interval),
        wx_interval_shift=Variant("second" if shift * 60 < 1 else "moves"), wx_shift=format_duration(shift),
        wx_goodput=percent(wx.goodput), wx_goodput_drained=percent(aside.drained_goodput),
        wx_drain_loss=percent(aside.drained_loss), wx_points=points(max(0.0, wx.goodput - wx.slow.goodput)),
        wx_points_drained=points(x.drained_gain), wx_dollars_drained=money(wx.dollars(x.drained_gain)),
        ft_local_n=str(aside.local_every), ft_local=Variant("not" if aside.local_every == 1 else "pays"),
        ft_local_nth=ordinal(aside.local_every),
        ft_threshold="never" if aside.threshold is None else percent(aside.threshold, 0),
        ft_peer_s=percent(PEER_SURVIVES, 0), ft_peer_n=str(aside.peer_every),
        ft_peer_interval=format_duration(aside.tiers_interval), ft_peer_goodput=percent(aside.tiers_goodput),
        ft_sync_goodput=percent(aside.sync_goodput), ft_gain=points(x.tiers_gain),
        ft_gain_dollars=money(wx.dollars(x.tiers_gain)),
        ft_drained_vs_tiers=points(max(0.0, aside.peer_goodput - aside.tiers_goodput)),
        peer_drain_loss=percent(aside.peer_drain_loss), peer_goodput=percent(aside.peer_goodput),
        peer_saved=points(max(0.0, aside.peer_goodput - aside.drained_goodput)),
    )
