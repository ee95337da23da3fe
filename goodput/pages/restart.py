"""The chapter "What a restart is made of" (``book/restart.md``): R's parts, hot spares, recovery without rollback.

Published figures are :mod:`goodput.sources`' data. R's parts, the spare pool and the share recovered just in time
are the fleet's inputs where it gives them, else labelled illustrations (:func:`goodput.whatif.restart_inputs`).
Each is planned through the fleet's whole scheme, and the just-in-time plan checked against its simulator, by
:func:`goodput.whatif.restart_whatif`; this module formats.
"""

from __future__ import annotations

from dataclasses import dataclass

from goodput import sources
from goodput.fleet import FleetPlan
from goodput.pages import Variant
from goodput.pages.common import Fleet, fleet_values
from goodput.report import (
    RESTART_PART_NAMES,
    count,
    money,
    optimum_name,
    percent,
    percent_apart,
    percent_pm,
    planned_text,
    points,
    restart_part_texts,
    restart_sum,
    se_digits,
    share_text,
    stops_per,
)
from goodput.simulate_restart import AGREEMENT
from goodput.tiers import Tiers
from goodput.units import format_duration, format_durations, significant
from goodput.whatif import restart_whatif


@dataclass(frozen=True)
class Page(Fleet):
    """The values ``book/restart.md`` quotes."""

    nodes: str
    restart_paid: Variant
    restart_tier: Variant
    fast_lost: str
    tier_restart: str
    rollback_share: str
    parts: Variant
    parts_list: str
    largest_part: str
    largest_part_share: str
    largest_part_gain: str
    largest_part_dollars: str
    wait_share: str
    aurora_first: str
    aurora_last: str
    aurora_per_node: str
    aurora_at_fleet: str
    aurora_fleet: Variant
    startup_part: str
    megascale_before: str
    megascale_after: str
    megascale_nodes: str
    tiers_note: Variant
    spares: Variant
    takes_node: str
    repair: str
    in_repair: str
    wait_none: str
    best: str
    best_share: str
    best_pool: Variant
    node_share: str
    best_goodput: str
    best_restart: str
    best_dollars: str
    half: str
    half_words: Variant
    restart_none: str
    half_goodput: str
    half_dollars: str
    best_cost: str
    pool: str
    pool_goodput: str
    pool_restart: str
    delta_share: str
    delta_count: str
    delta_goodput: str
    delta_compare: Variant
    delta_more: str
    delta_net: str
    restart_rank: Variant
    bloom_spares: str
    bloom_nodes: str
    bloom_share: str
    sim_worst: str
    sim_counts: str
    sim: Variant
    jit: Variant
    jit_p: str
    jit_recovery: str
    jit_goodput: str
    zero_goodput: str
    jit_points: str
    jit_dollars: str
    jit_interval: str
    zero_interval: str
    jit_sim: str
    jit_closed: str
    jit_sigma: str
    jit_agrees: Variant
    planned: Variant
    planned_count: str
    planned_days: str
    planned_rate: str
    planned_goodput: str
    unplanned_goodput: str
    planned_saved: str
    notice: Variant
    stop_cost: str


def build(fleet: FleetPlan) -> Page:
    """The restart page of a fleet.

    >>> from goodput.fleet import fleet_plan
    >>> from goodput.params import load_params
    >>> page = build(fleet_plan(load_params()))
    >>> page.restart, page.megascale_before, page.delta_share
    ('5 min', '1,047 s', '5%')
    """
    params, w = fleet.params, restart_whatif(fleet)
    x, m, g, jit_plan, zero_plan, sim = w.inputs, params.mtbi, w.inputs.gpus_per_node, w.jit, w.zero, w.jit_sim
    choice, best, half, delta = x.choice, x.choice.best, w.half, w.delta
    fixed, per_node = sources.aurora_fit()
    by_nodes = sources.aurora_by_nodes()
    first, last = min(by_nodes), max(by_nodes)
    jit, zero = jit_plan.goodput, zero_plan.goodput
    planned, with_notice, as_unplanned, own = w.stops
    parts = x.parts
    largest = fleet.largest_restart_part
    per_spare = g / params.gpus  # each spare is GPUs bought that do not train
    aurora_at = (fixed + per_node * x.nodes) / 60.0  # minutes, Aurora's fit at this fleet's nodes
    startup = parts.parts["startup"] if parts is not None else 0.0  # the start-up the inputs give, as a part
    # The pool's R and the best count's, written so they differ as they do (0.56 s reads 10.05 and 10.06 min, not 6 s)
    pool_restart, best_restart = format_durations(w.pool_restart, choice.restart[best])
    tiers = fleet.plan.tiers
    delta_more = money(fleet.dollars(max(0, delta - best) * per_spare))
    delta_net = money(max(0.0, choice.dollars[best] - fleet.spares_dollars(delta, w.delta_goodput, choice.goodput[0])))
    return Page(
        **fleet_values(fleet), nodes=count(x.nodes, "node"),
        # where some interruptions are recovered just in time, the restart loss counts those pauses (and planned stops)
        restart_paid=Variant(("jit" if x.jit_given else "every") + ("_stops" if params.planned_rate > 0 else "")),
        # with a persistent tier the restart loss weighs R_p too, for the interruptions the fast copy does not survive
        restart_tier=Variant("none" if tiers is None or tiers.one_tier else "tiered"),
        fast_lost=share_text(1.0 - tiers.fast_survives) if tiers is not None else "",
        tier_restart=format_duration(tiers.rp) if tiers is not None else "",
        rollback_share=percent(1.0 - params.just_in_time, 0),
        parts=Variant("whole" if parts is None else "wait" if fleet.repair_wait_largest else "given"),
        wait_share=percent(fleet.repair_wait() / params.restart),
        parts_list=(restart_sum(params) or "") if parts is not None else "",
        largest_part=RESTART_PART_NAMES[largest.name] if largest is not None else "",
        largest_part_share=percent(largest.minutes / params.restart) if parts and largest else "",  # R = the listed sum
        largest_part_gain=points(largest.gain) if largest is not None else "",
        largest_part_dollars=money(fleet.dollars(largest.gain)) if largest is not None else "",
        aurora_first=f"{significant(by_nodes[first])} s at {first} nodes",
        aurora_last=f"{significant(by_nodes[last])} s at {last}",
        aurora_per_node=f"{significant(per_node, 3)} s",
        aurora_at_fleet=format_duration(aurora_at),
        aurora_fleet=Variant("plain" if startup <= 0.0 else "below" if startup < aurora_at else "above"),
        startup_part=restart_part_texts(params).get("startup", "") if startup > 0.0 else "",
        megascale_before=f"{significant(sources.MEGASCALE_BEFORE)} s",
        megascale_after=f"{significant(sources.MEGASCALE_AFTER)} s",
        megascale_nodes=count(sources.MEGASCALE_GPUS // sources.MEGASCALE_GPUS_PER_NODE, "node"),
        tiers_note=Variant(("tiered" if fleet.tiered else "one_tier") + ("_jit" if x.jit_given else "")),
        spares=Variant("given" if x.spares_given else "illustration"), takes_node=percent(x.takes_node, 0),
        repair=format_duration(x.repair), in_repair=significant(x.takes_node * x.repair / m, 2),
        wait_none=format_duration(w.restart_none - x.r_parts), best=count(best, "spare node"),
        best_pool=Variant("some" if best > 0 else "none"), node_share=percent(per_spare),
        best_share=percent(best * per_spare), best_goodput=percent(choice.goodput[best]),
        best_restart=best_restart, best_dollars=money(max(0.0, choice.dollars[best])),
        half=count(half, "spare node"), half_words=Variant("one" if best == 1 else "even" if best % 2 == 0 else "odd"),
        restart_none=format_duration(w.restart_none), half_goodput=percent(w.half_goodput),
        half_dollars=money(max(0.0, choice.dollars[best] - choice.dollars[half])),
        best_cost=money(fleet.dollars(best * per_spare)), pool=f"a pool of {count(x.spares, 'spare node')}" if x.spares else "no spare nodes",
        pool_goodput=percent(w.pool_goodput), pool_restart=pool_restart,
        delta_share=percent(sources.DELTA_SPARE_SHARE, 0), delta_count=count(delta, "spare node"),
        delta_goodput=percent(w.delta_goodput),
        # more spares: their cost, and net of the kept work they win back where that reads differently
        # (SparesChoice.dollars' measure, at any count)
        delta_compare=Variant(("more_net" if delta_net != delta_more else "more") if delta > best else
                              "same" if delta == best else "fewer"),
        delta_more=delta_more, delta_net=delta_net,
        restart_rank=Variant("largest" if fleet.largest_loss == "restart_loss" else "other"),
        bloom_spares=f"{sources.BLOOM_SPARES}", bloom_nodes=f"{sources.BLOOM_NODES}",
        bloom_share=percent(sources.BLOOM_SPARES / sources.BLOOM_NODES),
        sim_worst=f"{w.worst:.1f}", sim_counts=", ".join(str(k) for k, _, _ in w.checks),
        sim=Variant("agrees" if w.worst <= AGREEMENT else "differs"),
        jit=Variant("given" if x.jit_given else "illustration"), jit_p=percent(x.p, 0),
        jit_recovery=format_duration(x.jit_recovery), jit_goodput=percent(jit), zero_goodput=percent(zero),
        jit_points=points(max(0.0, jit - zero)), jit_dollars=money(fleet.dollars(max(0.0, jit - zero))),
        jit_interval=format_duration(jit_plan.interval), zero_interval=format_duration(zero_plan.interval)
        + (f", {optimum_name(zero_plan)}" if zero_plan.drain_bound else ""),  # the drain bounds it, not the model
        jit_sim=percent_pm(sim.mean, sim.stderr),
        jit_closed=percent(jit, se_digits(sim.stderr)) if sim.stderr > 0.0 else percent(jit),
        jit_sigma=("" if sim.stderr == 0.0 else "less than 0.1" if sim.apart(jit) < 0.05 else f"{sim.apart(jit):.1f}"),
        jit_agrees=Variant("unchecked" if sim.stderr == 0.0 else
                           "agrees" if sim.apart(jit) <= AGREEMENT else "differs"),
        planned=Variant("own" if own else "illustration"), planned_count=f"{sources.LLAMA3_PLANNED}",
        planned_days=format_duration(sources.LLAMA3_SNAPSHOT_DAYS * 24 * 60.0),
        planned_rate=planned_text(params) if own else stops_per(planned, "stops"), planned_goodput=percent_apart(with_notice, as_unplanned),
        # the two with the decimals that set them apart
        unplanned_goodput=percent_apart(as_unplanned, with_notice), planned_saved=points(abs(with_notice - as_unplanned)),
        # notice costs where a planned stop's checkpoint and restart (a persistent tier's C_p + R_p) take longer than
        # what an unexpected interruption loses on average (mostly the fast tier's R)
        notice=Variant("worth" if with_notice >= as_unplanned else "costs"),
        stop_cost=format_duration((fleet.plan.tiers or Tiers(params.checkpoint_cost, params.restart)).stop_cost
                                  - params.stop_saving),
    )
