"""The chapter "What a restart is made of" (``book/restart.md``): R's parts, hot spares, recovery without rollback.

The published figures are data (module constants, each with its source). The fleet's numbers come from its
inputs: the parts of R (``restart: {detect: ...}``), the spare pool (``spares:``) and the share recovered just in
time (``just_in_time:``) when it gives them; otherwise each section is a labelled illustration with the fleet's
own C, M and R and an assumption stated here (:data:`ILLUSTRATIVE_REPAIR`, :data:`ILLUSTRATIVE_JIT`; the share of
interruptions that take a node out is Llama 3's, judged cause by cause in :data:`goodput.sources.LOSES_LOCAL_COPY`).
Each spare count is planned through the fleet's whole scheme (:meth:`goodput.fleet.FleetPlan.spares_choice`, the
command's :attr:`~goodput.fleet.FleetPlan.best_spares`), and the part of R that matters most is the fleet's
(:attr:`~goodput.fleet.FleetPlan.largest_restart_part`). The just-in-time numbers and curve are the fleet's own
plan with the share recovered just in time (:func:`recovery_plan`, its drain and tiers included), checked against
the simulator of its scheme (:func:`check_recovery`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from goodput import sources
from goodput.fleet import FleetPlan
from goodput.pages import Variant
from goodput.pages.common import LOSS_WORDS
from goodput.plan import Plan, plan_for
from goodput.report import RESTART_PART_NAMES, count, money, percent, percent_pm, points, restart_sum
from goodput.restart import RestartParts, SparesChoice, spare_wait
from goodput.simulate_restart import Estimate, simulate_recovery, simulate_spare_waits
from goodput.units import format_duration, format_rate, significant

#: ALCF Aurora, ``deepspeed.initialize`` (Megatron-DeepSpeed notes): (world size, seconds), 12 ranks a node.
AURORA: tuple[tuple[int, float], ...] = (
    (96, 61.073), (192, 107.74411), (192, 107.201338), (192, 107.10853), (384, 200.23095), (384, 206.49485),
    (384, 200.49485), (768, 413.55765), (768, 394.92617), (768, 414.725), (768, 387.987), (768, 411.72035),
    (768, 394.926), (768, 409.375), (768, 393.091), (768, 412.600), (1536, 789.30077), (1536, 788.86531),
    (1536, 792.71864), (1536, 836.98), (1536, 801.205), (1536, 836.98), (1536, 820.9538), (1536, 707.048),
    (3072, 1639.62374), (3072, 1591.345), (3072, 1632.12712), (3072, 1674.444), (3072, 1618.100),
)
AURORA_RANKS_PER_NODE = 12
#: MegaScale (NSDI 2024): NCCL initialization at 2,048 GPUs before and after its optimizations, seconds
#: (the second an upper bound: "under 5 s"), at 8 GPUs a node.
MEGASCALE_GPUS, MEGASCALE_BEFORE, MEGASCALE_AFTER, MEGASCALE_GPUS_PER_NODE = 2048, 1047.0, 5.0, 8
#: NCSA Delta: the spare capacity its study projects as needed, a share of the nodes.
DELTA_SPARE_SHARE = 0.05
#: BLOOM-176B: nodes in the job and spare nodes kept beside them.
BLOOM_NODES, BLOOM_SPARES = 48, 4
#: The mean repair time of a node assumed where the inputs give none, minutes (an illustration: one day).
ILLUSTRATIVE_REPAIR = 24 * 60.0
#: The share of interruptions recovered just in time assumed where the inputs give none (an illustration).
ILLUSTRATIVE_JIT = 0.8
#: The largest R (1 - p) / M the just-in-time check simulates (e^10 restart attempts on average).
MOST_RESTART_EXPONENT = 10.0
#: The seed of the tier simulator's just-in-time check (the one-tier check's is simulate_recovery's default).
SIM_SEED = 20261201
#: Standard errors within which the closed forms must agree with their simulations.
AGREEMENT = 3.0


def aurora_fit() -> tuple[float, float]:
    """Aurora's start-up fitted by least squares as fixed + per node x nodes: (fixed, per node), seconds."""
    nodes = np.array([w / AURORA_RANKS_PER_NODE for w, _ in AURORA])
    seconds = np.array([s for _, s in AURORA])
    per_node, fixed = np.polyfit(nodes, seconds, 1)
    return float(fixed), float(per_node)


@dataclass(frozen=True)
class Inputs:
    """The restart inputs of a fleet, from its inputs file or the chapter's illustrations.

    ``parts`` are R's parts where the inputs give them; ``r_parts`` is R without waits for repairs; ``spares``
    the pool (the best count where the inputs give none), ``repair`` r in minutes, ``takes_node`` a; ``p`` the share
    recovered just in time, at R_j = ``jit_recovery``; ``choice`` goodput and dollars against the number of spares
    through the fleet's whole scheme (:meth:`goodput.fleet.FleetPlan.spares_choice`).
    """

    nodes: int
    gpus_per_node: int
    parts: RestartParts | None
    r_parts: float
    spares: int
    repair: float
    takes_node: float
    spares_given: bool
    p: float
    jit_recovery: float
    planned_rate: float
    jit_given: bool
    choice: SparesChoice


def restart_inputs(fleet: FleetPlan) -> Inputs:
    """The fleet's restart inputs, or the labelled illustrations where it gives none (computed once per page)."""
    params = fleet.params
    pool, p = params.spares, params.just_in_time
    repair, takes = (pool.repair, pool.takes_node) if pool is not None else (ILLUSTRATIVE_REPAIR, sources.lost_share())
    choice = fleet.spares_choice(repair, takes)
    g = params.gpus_per_node
    return Inputs(nodes=max(1, params.gpus // g), gpus_per_node=g, parts=params.restart_parts,
                  r_parts=fleet.parts_restart(), spares=pool.nodes if pool is not None else choice.best,
                  repair=repair, takes_node=takes, spares_given=pool is not None,
                  p=p if p > 0 else ILLUSTRATIVE_JIT, jit_recovery=params.jit_recovery,
                  planned_rate=params.planned_rate, jit_given=p > 0, choice=choice)


def recovery_plan(fleet: FleetPlan, x: Inputs, share: float) -> Plan:
    """The fleet's own plan (its drain and tiers included) with a share `share` recovered just in time.

    Each recovery costs the inputs' R_j and the inputs' planned stops are kept (:func:`goodput.plan.plan_for`).
    """
    return plan_for(fleet.params.replace(just_in_time=share, jit_recovery=x.jit_recovery,
                                         planned_rate=x.planned_rate))


def check_recovery(plan: Plan, x: Inputs) -> Estimate:
    """The simulated goodput of a plan with recovery without rollback, at its interval (and cadence).

    One tier: :func:`goodput.simulate_restart.simulate_recovery`; a drain or tiers:
    :func:`goodput.simulate_tiers.simulate_tiers` with the scheme's stop cost. A standard error of 0 means not
    simulated: a restart is started over by every rollback during it, e^{R (1 - p) / M} attempts on average (R_p
    with a persistent tier), too many to simulate where that is astronomic (the closed form's goodput is then
    essentially zero anyway).
    """
    s = plan.tiers
    r = plan.restart if s is None else s.rp
    if r * (1.0 - x.p) / plan.mtbi > MOST_RESTART_EXPONENT:
        return Estimate(plan.goodput, 0.0)
    if s is None:
        return simulate_recovery(plan.checkpoint_cost, plan.mtbi, plan.restart, plan.interval, just_in_time=x.p,
                                 jit_recovery=x.jit_recovery, planned_rate=x.planned_rate, segments=20_000)
    from goodput.simulate import MIN_RUN_RHYTHMS
    from goodput.simulate_tiers import simulate_tiers

    replicas = 32
    rhythm = (s.every - 1) * (plan.interval + s.checkpoint_cost) + plan.interval + s.cp + s.rp
    horizon = max(10 * MIN_RUN_RHYTHMS * replicas * rhythm, 20_000 * (plan.interval + s.checkpoint_cost))
    result = simulate_tiers(s.checkpoint_cost, plan.mtbi, s.restart, plan.interval, horizon, drain=s.drain,
                            persistent_cost=s.persistent_cost, persistent_restart=s.persistent_restart,
                            fast_survives=s.fast_survives, persistent_every=s.every, just_in_time=x.p,
                            jit_recovery=x.jit_recovery, planned_rate=x.planned_rate,
                            planned_cost=s.stop_cost if x.planned_rate else None, replicas=replicas, seed=SIM_SEED)
    return Estimate(result.goodput, result.stderr)


def spares_checks(x: Inputs, mtbi: float) -> list[tuple[int, float, Estimate]]:
    """The wait for a repair per interruption by the closed form and simulated, at a few pool sizes.

    The sizes: none, half the best, the mean number of nodes in repair (where below the best) and the best.

    Returns
    -------
    list of (int, float, Estimate)
        Spares, the closed form's minutes (:func:`goodput.restart.spare_wait`) and the simulation's (seeded).
    """
    best = x.choice.best
    counts = sorted({0, best // 2, min(best, max(1, round(x.takes_node * x.repair / mtbi))), best})
    return [(k, spare_wait(k, mtbi, x.repair, x.takes_node),
             simulate_spare_waits(k, mtbi, x.repair, x.takes_node, interruptions=20_000)) for k in counts]


@dataclass(frozen=True)
class Page:
    """The values ``book/restart.md`` quotes."""

    gpus: str
    inputs_file: str
    nodes: str
    restart: str
    parts: Variant
    parts_list: str
    largest_part: str
    largest_part_share: str
    largest_part_gain: str
    largest_part_dollars: str
    per_node_now: str
    aurora_first: str
    aurora_last: str
    aurora_per_node: str
    aurora_at_fleet: str
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
    best_goodput: str
    best_restart: str
    best_dollars: str
    half: str
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
    restart_share: str
    restart_rank: str
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
    jit_agrees: Variant
    planned_count: str
    planned_days: str
    planned_rate: str
    planned_goodput: str
    unplanned_goodput: str
    planned_saved: str


def build(fleet: FleetPlan) -> Page:
    """The restart page of a fleet.

    Examples
    --------
    >>> from goodput.fleet import fleet_plan
    >>> from goodput.params import load_params
    >>> page = build(fleet_plan(load_params()))
    >>> page.restart, page.megascale_before, page.delta_share
    ('5 min', '1,047 s', '5%')
    """
    params = fleet.params
    x = restart_inputs(fleet)
    m, g = params.mtbi, x.gpus_per_node
    choice, best = x.choice, x.choice.best
    fixed, per_node = aurora_fit()
    by_nodes: dict[int, list[float]] = {}
    for world, seconds in AURORA:
        by_nodes.setdefault(world // AURORA_RANKS_PER_NODE, []).append(seconds)
    first, last = min(by_nodes), max(by_nodes)

    def restart_at(spares: int) -> float:
        return x.r_parts + spare_wait(spares, m, x.repair, x.takes_node)

    def goodput_at(spares: int) -> float:
        return (choice.goodput[spares] if spares < len(choice.counts)
                else fleet.goodput_with_spares(spares, x.repair, x.takes_node))

    half = best // 2
    delta = math.ceil(DELTA_SPARE_SHARE * x.nodes)
    checks = spares_checks(x, m)
    worst = max(abs(sim.mean - closed) / max(sim.stderr, 1e-12) for _, closed, sim in checks)

    r = params.restart
    jit_plan, zero_plan = recovery_plan(fleet, x, x.p), recovery_plan(fleet, x, 0.0)
    jit, zero = jit_plan.goodput, zero_plan.goodput
    sim = check_recovery(jit_plan, x)
    planned = sources.LLAMA3_PLANNED / (sources.LLAMA3_SNAPSHOT_DAYS * 24.0)
    # Through the fleet's own plan: the stops with notice as pauses, or counted among the interruptions.
    with_notice = plan_for(params.replace(just_in_time=0.0, planned_rate=planned)).goodput
    m_all = 1.0 / (1.0 / m + planned / 60.0)
    as_unplanned = plan_for(params.replace(mtbi=m_all, just_in_time=0.0, planned_rate=0.0)).goodput
    parts = x.parts
    largest = fleet.largest_restart_part
    per_spare = g / params.gpus  # each spare is GPUs bought that do not train
    return Page(
        gpus=count(params.gpus, "GPU"), inputs_file=params.source, nodes=count(x.nodes, "node"),
        restart=format_duration(r), parts=Variant("whole" if parts is None else "given"),
        parts_list=(restart_sum(params) or "") if parts is not None else "",
        largest_part=RESTART_PART_NAMES[largest.name] if largest is not None else "",
        largest_part_share=percent(largest.minutes / parts.total) if parts and largest else "",
        largest_part_gain=points(largest.gain) if largest is not None else "",
        largest_part_dollars=money(fleet.dollars(largest.gain)) if largest is not None else "",
        per_node_now=format_duration(parts.startup_per_node) if parts is not None else "",
        aurora_first=f"{significant(float(np.mean(by_nodes[first])))} s at {first} nodes",
        aurora_last=f"{significant(float(np.mean(by_nodes[last])))} s at {last}",
        aurora_per_node=f"{significant(per_node, 2)} s",
        aurora_at_fleet=format_duration((fixed + per_node * x.nodes) / 60.0),
        megascale_before=f"{significant(MEGASCALE_BEFORE)} s", megascale_after=f"{significant(MEGASCALE_AFTER)} s",
        megascale_nodes=count(MEGASCALE_GPUS // MEGASCALE_GPUS_PER_NODE, "node"),
        tiers_note=Variant("tiered" if fleet.tiered else "one_tier"),
        spares=Variant("given" if x.spares_given else "illustration"), takes_node=percent(x.takes_node, 0),
        repair=format_duration(x.repair), in_repair=significant(x.takes_node * x.repair / m, 2),
        wait_none=format_duration(restart_at(0) - x.r_parts), best=count(best, "spare node"),
        best_share=percent(best * per_spare), best_goodput=percent(choice.goodput[best]),
        best_restart=format_duration(choice.restart[best]), best_dollars=money(max(0.0, choice.dollars[best])),
        half=count(half, "spare node"), half_goodput=percent(goodput_at(half)),
        half_dollars=money(max(0.0, choice.dollars[best] - choice.dollars[half])),
        best_cost=money(fleet.dollars(best * per_spare)), pool=count(x.spares, "spare node"),
        pool_goodput=percent(goodput_at(x.spares)), pool_restart=format_duration(restart_at(x.spares)),
        delta_share=percent(DELTA_SPARE_SHARE, 0), delta_count=count(delta, "spare node"),
        delta_goodput=percent(goodput_at(delta)),
        delta_compare=Variant("more" if delta > best else "same" if delta == best else "fewer"),
        delta_more=money(fleet.dollars(max(0, delta - best) * per_spare)),
        restart_share=percent(fleet.losses["restart_loss"]),
        restart_rank=("its largest loss" if fleet.largest_loss == "restart_loss" else
                      f"against {percent(fleet.losses[fleet.largest_loss])} for its largest, "
                      f"{LOSS_WORDS[fleet.largest_loss]}"),
        bloom_spares=f"{BLOOM_SPARES}", bloom_nodes=f"{BLOOM_NODES}", bloom_share=percent(BLOOM_SPARES / BLOOM_NODES),
        sim_worst=f"{worst:.1f}", sim_counts=", ".join(str(k) for k, _, _ in checks),
        sim=Variant("agrees" if worst <= AGREEMENT else "differs"),
        jit=Variant("given" if x.jit_given else "illustration"), jit_p=percent(x.p, 0),
        jit_recovery=format_duration(x.jit_recovery), jit_goodput=percent(jit), zero_goodput=percent(zero),
        jit_points=points(max(0.0, jit - zero)), jit_dollars=money(fleet.dollars(max(0.0, jit - zero))),
        jit_interval=format_duration(jit_plan.interval), zero_interval=format_duration(zero_plan.interval),
        jit_sim=percent_pm(sim.mean, sim.stderr),
        jit_agrees=Variant("unchecked" if sim.stderr == 0.0 else
                           "agrees" if abs(sim.mean - jit) <= AGREEMENT * sim.stderr else "differs"),
        planned_count=f"{sources.LLAMA3_PLANNED}",
        planned_days=format_duration(sources.LLAMA3_SNAPSHOT_DAYS * 24 * 60.0),
        planned_rate=format_rate(planned), planned_goodput=percent(with_notice),
        unplanned_goodput=percent(as_unplanned), planned_saved=points(max(0.0, with_notice - as_unplanned)),
    )
