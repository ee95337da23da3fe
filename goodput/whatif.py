"""What-ifs the book quotes: a fleet's scheme with one input changed and planned again, and a local-first drain.

Also the chapters' labelled illustrations, each assumption a module constant. Numbers only; :mod:`goodput.pages`
words them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial

from goodput import exact, fleets, hazards, simulate, simulate_restart, sources
from goodput.errors import Refused
from goodput.fleet import CONFIDENCE, FleetPlan, Ranges, fleet_plan, ranges_for
from goodput.hazards import elastic_params
from goodput.params import Params, load_params, mtbi_from_count, mtbi_from_rate
from goodput.plan import STORAGE_LEVERS, Plan, make_plan, plan_for, recovery_of, with_restart
from goodput.restart import Recovery, RestartParts, SparesChoice, spare_wait
from goodput.storage import FASTEST, bandwidth_for_goodput, checkpoint_size, storage_cost_per_month
from goodput.tiers import Tiers, best_every, exact_losses, exact_optimal_interval, fast_tier_pays_from
from goodput.uncertainty import PLAN_INPUTS, MonteCarlo, monte_carlo, poisson_interval

#: The mean repair time of a node assumed where the inputs give none, minutes (an illustration: one day).
ILLUSTRATIVE_REPAIR = 24 * 60.0
#: The share of interruptions recovered just in time assumed where the inputs give none (an illustration).
ILLUSTRATIVE_JIT = 0.8
#: The illustrative checkpoint of a fleet whose inputs give no size: BLOOM's parameters at 14 bytes.
ILLUSTRATIVE_PARAMETERS = sources.BLOOM_PARAMETERS
#: How close to the goodput an instant write would give the needed bandwidth aims: one point.
TARGET_BELOW_CEILING = 0.01
#: The drain of the worked example's local-first path, minutes: an assumption (the worked example gives none).
WORKED_DRAIN = 5.0
#: Share of interruptions a fast copy held on a peer node as well survives: an assumption for illustration
#: (Table 5 does not say how many nodes each interruption took).
PEER_SURVIVES = 0.95
#: How much slower training runs while a drain competes with it for network and storage: an illustration.
DRAIN_SLOWDOWN = 0.10
#: Draws and seed of the Monte Carlo reading (fewer through a scheme, where each draw is a tier model).
DRAWS, SCHEME_DRAWS, SEED = 100_000, 4_000, 0


def plan_or_none(params: Params, interval: float | None = None) -> Plan | None:
    """The fleet's scheme planned for changed inputs, or None where the model keeps no work (refused)."""
    try:
        return plan_for(params, interval=interval)
    except Refused:
        return None


def goodput_of(plan: Plan | None) -> float:
    """A plan's goodput; 0 where the model refused (it keeps less than e^-600 of the time)."""
    return 0.0 if plan is None else plan.goodput


def with_cost(params: Params, cost: float) -> Params:
    """The fleet with another fast checkpoint cost (a persistent checkpoint kept no cheaper than it)."""
    if params.persistent_cost is None:
        return params.replace(checkpoint_cost=cost)
    return params.replace(checkpoint_cost=cost, persistent_cost=max(params.persistent_cost, cost))


#: The per-GPU rate as the analysis behind the worked example rounds it ("about 2e-5").
BRIEF_RATE = 2.0e-5


def _sign(x: float, se: float) -> int:
    """1 or -1 with the sign of `x` where it is measurable against its standard error `se`; else 0."""
    return 0 if not hazards.measurable(x, se) else 1 if x > 0 else -1


@dataclass(frozen=True)
class FailuresWhatIf:
    """The failures chapter's what-ifs: C, M and R alone (:mod:`goodput.hazards`), elastic training on the whole plan."""

    base: float  # goodput of C, M and R alone at their exact optimum
    age: hazards.RunAge
    sim: hazards.Simulated
    lost: hazards.LostCheckpoint
    early_vs_base: int  # 1, 0 or -1: the simulation at the fixed optimum measurably above base, not apart, below
    renewal_vs_base: int
    early_helps: bool  # the run-age schedule measurably gains
    retune_helps: bool  # re-tuning to every interruption of a burst measurably gains
    m_all: float  # M counting every interruption of a burst, and its exact optimum
    t_all: float
    as_many: float  # goodput with as many independent interruptions at the simulations' fixed interval; base less it
    same_count: float
    burst_cost: float  # goodput bursts cost (the independent simulation less the bursty one), its standard error
    burst_se: float
    cheaper: bool  # bursts cost measurably less than as many independent interruptions
    burst_renewal: float  # the renewal-reward goodput of bursts; how many standard errors the simulation is off it
    burst_sigma: float
    elastic_params: Params
    elastic: Plan
    elastic_gain: float  # the elastic plan's goodput above the fleet's, its lost work's change, restart loss returned
    lost_change: float
    returned: float


def failures_whatif(fleet: FleetPlan) -> FailuresWhatIf:
    """The failures chapter's what-ifs for a fleet (its C, M and R; elastic training through its plan)."""
    p, plan = fleet.params, fleet.plan
    c, m, r = p.checkpoint_cost, p.mtbi, p.restart
    base = float(exact.exact_goodput(c, m, r))
    sim = fleet.failure_simulations
    age = sim.age
    early, bursts = sim.early, sim.bursts
    m_all = simulate.effective_mtbi(m, hazards.BURST_PROBABILITY, hazards.BURST_WINDOW)
    as_many = float(exact.exact_goodput(c, m_all, r, age.fixed))  # at the same fixed interval as the simulations
    cost = sim.independent.goodput - bursts.goodput[0]
    se = math.hypot(sim.independent.stderr, bursts.stderr[0])  # two independent simulations
    renewal = hazards.burst_goodput(c, m, r, age.fixed)
    elastic = fleet.elastic
    gain = elastic.goodput - plan.goodput
    return FailuresWhatIf(
        base=base, age=age, sim=sim, lost=hazards.lost_checkpoint(c, m, r),
        early_vs_base=_sign(early.goodput[0] - base, early.stderr[0]),
        renewal_vs_base=_sign(sim.renewal.goodput[0] - base, sim.renewal.stderr[0]),
        early_helps=_sign(early.difference[1], early.difference_stderr[1]) > 0,
        retune_helps=_sign(bursts.difference[1], bursts.difference_stderr[1]) > 0,
        m_all=m_all, t_all=float(exact.exact_optimal_interval(c, m_all)), as_many=as_many, same_count=base - as_many,
        burst_cost=cost, burst_se=se, cheaper=cost < base - as_many - hazards.SIGNIFICANT * se, burst_renewal=renewal,
        burst_sigma=abs(bursts.goodput[0] - renewal) / bursts.stderr[0] if bursts.stderr[0] > 0 else 0.0,
        elastic_params=elastic_params(p), elastic=elastic, elastic_gain=gain,
        lost_change=elastic.losses.lost_work - plan.losses.lost_work,
        returned=max(0.0, plan.losses.restart_loss - elastic.losses.restart_loss - gain))


@dataclass(frozen=True)
class InputsWhatIf:
    """The inputs chapter's what-ifs: the worked example's M by count and by rate; the published records' spread."""

    by_count: Plan  # the worked example by first order at M from its count, and from BRIEF_RATE
    by_rate: Plan
    at_low: Plan  # the fleet's plan at the M the lowest and the highest rate give its size (R's wait for a spare there)
    at_high: Plan
    gap: float  # the goodput between them


def inputs_whatif(fleet: FleetPlan, low: fleets.PublishedFleet, high: fleets.PublishedFleet) -> InputsWhatIf:
    """The inputs chapter's what-ifs for a fleet, beside the published records of the lowest and highest rate."""
    w = load_params()
    assert w.interruption_count is not None and w.window is not None
    at_low, at_high = (plan_for(fleet.at_mtbi(f.mtbi_at(fleet.params.gpus))) for f in (low, high))
    return InputsWhatIf(
        by_count=make_plan(w.checkpoint_cost, mtbi_from_count(w.interruption_count, w.window), w.restart,
                           which="first-order"),
        by_rate=make_plan(w.checkpoint_cost, float(mtbi_from_rate(BRIEF_RATE, w.gpus)), w.restart, which="first-order"),
        at_low=at_low, at_high=at_high, gap=max(0.0, at_low.goodput - at_high.goodput))


#: A badly chosen interval, as the levers and measuring pages plan it: this many times the plan's, and its inverse.
OFF_BY = 2.0


def off_optimum_plans(fleet: FleetPlan) -> tuple[Plan, Plan | None]:
    """The fleet's scheme at :data:`OFF_BY` times its interval, and at 1/:data:`OFF_BY` of it (None below the drain)."""
    plan, p = fleet.plan, fleet.params
    short_ok = plan.interval / OFF_BY >= (plan.tiers.drain if plan.tiers else 0.0)
    return plan_for(p, interval=OFF_BY * plan.interval), plan_for(p, interval=plan.interval / OFF_BY) if short_ok else None


@dataclass(frozen=True)
class LeversWhatIf:
    """The levers chapter's what-ifs: the slow checkpoint's gap; the brief's debate on the worked example."""

    slow_gap: float  # the goodput between the plan and the slow checkpoint
    debate: tuple[float, float]  # the worked example's slow checkpoint at the debate's two intervals, at its optimum
    debate_optimum: float
    debate_best: float
    fast_best: float  # the worked example's fast checkpoint at its optimum


def levers_whatif(fleet: FleetPlan, debate: tuple[float, float]) -> LeversWhatIf:
    """The levers chapter's what-ifs for a fleet; the debate's two intervals."""
    plan, w = fleet.plan, load_params()
    cs, m, r = w.slow_checkpoint_cost, w.mtbi, w.restart
    return LeversWhatIf(
        slow_gap=abs(plan.goodput - fleet.slow.goodput),
        debate=(float(exact.exact_goodput(cs, m, r, debate[0])), float(exact.exact_goodput(cs, m, r, debate[1]))),
        debate_optimum=float(exact.exact_optimal_interval(cs, m)), debate_best=float(exact.exact_goodput(cs, m, r)),
        fast_best=float(exact.exact_goodput(w.checkpoint_cost, m, r)))


@dataclass(frozen=True)
class RestartWhatIf:
    """The restart chapter's what-ifs, each through the fleet's whole scheme (:func:`restart_whatif`)."""

    inputs: RestartInputs
    restart_none: float  # R with no spare (its parts and the whole wait for a repair), and with the pool
    pool_restart: float
    half: int  # half the best count of spares, and Delta's share of the nodes
    delta: int
    half_goodput: float  # the goodput with each, and with the pool
    delta_goodput: float
    pool_goodput: float
    checks: list[tuple[int, float, simulate_restart.Estimate]]  # the wait for a repair by simulation, a few pools
    worst: float  # the most standard errors any of them is off the closed form
    jit: Plan  # the plan with the share recovered just in time, with none, and the first simulated
    zero: Plan
    jit_sim: simulate_restart.Estimate
    stops: tuple[float, float, float, bool]  # planned_stops


def restart_whatif(fleet: FleetPlan) -> RestartWhatIf:
    """The restart chapter's what-ifs: spares, recovery just in time and planned stops (:func:`restart_inputs`)."""
    x = restart_inputs(fleet)
    m, best = fleet.params.mtbi, x.choice.best
    half, delta = best // 2, math.ceil(sources.DELTA_SPARE_SHARE * x.nodes)

    def goodput_at(spares: int) -> float:
        return (x.choice.goodput[spares] if spares < len(x.choice.counts)
                else fleet.goodput_with_spares(spares, x.repair, x.takes_node))

    checks = simulate_restart.spares_checks(best, m, x.repair, x.takes_node)
    jit = recovery_plan(fleet, x.p)
    return RestartWhatIf(
        inputs=x, restart_none=x.r_parts + spare_wait(0, m, x.repair, x.takes_node),
        pool_restart=x.r_parts + spare_wait(x.spares, m, x.repair, x.takes_node), half=half, delta=delta,
        half_goodput=goodput_at(half), delta_goodput=goodput_at(delta), pool_goodput=goodput_at(x.spares),
        checks=checks, worst=max(sim.apart(closed) for _, closed, sim in checks), jit=jit,
        zero=recovery_plan(fleet, 0.0), jit_sim=simulate_restart.check_recovery(jit), stops=planned_stops(fleet.params))


@dataclass(frozen=True)
class TiersWhatIf:
    """The tiers chapter's what-ifs (:func:`tiers_whatif`); the worked example's (``wx``) for its labelled asides."""

    fast: FastTierWhatIf | None
    ill: tuple[float, float, float]  # illustrative_drain; the fleet's goodput above it
    ill_gain: float
    lim: ContentionWhatIf
    peer_own: float  # a one-tier drain's goodput with its copy on a peer (PEER_SURVIVES), else 0; its gain
    peer_own_gain: float
    wx: FleetPlan
    aside: WorkedTierAsides
    drained_gain: float  # the worked example drained above its slow checkpoint; its peer tiers above all persistent
    tiers_gain: float


def tiers_whatif(fleet: FleetPlan, worked: bool) -> TiersWhatIf:
    """The tiers chapter's what-ifs for a fleet; `worked`: the fleet is the worked example (its plan the asides')."""
    p, plan, scheme = fleet.params, fleet.plan, fleet.plan.tiers
    ill = illustrative_drain(p)
    wx = fleet if worked else fleet_plan(load_params())
    aside = worked_tier_asides(wx.params)
    peer_own = 0.0  # one tier with a drain: the snapshot on the node until durable, a copy on a peer survives more
    if scheme is not None and scheme.one_tier and scheme.drain > 0:
        recovery = Recovery(*plan.recovery) if plan.recovery is not None else None
        _, peer_own, _ = at_best(local_first(p.checkpoint_cost, scheme.restart, scheme.drain, PEER_SURVIVES),
                                 plan.mtbi, None, recovery)
    return TiersWhatIf(
        fast=fast_tier_whatif(fleet), ill=ill, ill_gain=max(0.0, fleet.goodput - ill[1]), lim=contention_whatif(fleet),
        peer_own=peer_own, peer_own_gain=max(0.0, peer_own - fleet.goodput), wx=wx, aside=aside,
        drained_gain=max(0.0, aside.drained_goodput - wx.slow.goodput),
        tiers_gain=max(0.0, aside.tiers_goodput - aside.sync_goodput))


#: The stall a snapshot-derived C is read against where it counts the copy alone: PyTorch's published asynchronous
#: checkpoint downtime, minutes (a what-if: a 7B model's barrier, quiesce and copy, not this fleet's measured stall).
PUBLISHED_STALL = sources.ASYNC_DCP_STALL_SECONDS / 60.0


@dataclass(frozen=True)
class StallWhatIf:
    """The fleet's plan with C the published stall :data:`PUBLISHED_STALL` in place of a C derived from a snapshot.

    A C derived from a snapshot (:attr:`goodput.params.Params.checkpoint_per_node`) is the copy alone; the barrier and
    the quiesce add to it. ``plan`` is the fleet's scheme at C = ``stall`` (None where the model keeps no work);
    ``slow`` the goodput of the fleet's synchronous write, which a stall this long may not beat.
    """

    stall: float
    plan: Plan | None
    slow: float

    @property
    def goodput(self) -> float:
        """Goodput of the plan at the published stall; 0 where the model keeps no work."""
        return goodput_of(self.plan)

    @property
    def below_slow(self) -> bool:
        """Whether the plan at this stall keeps less than the synchronous write does: the snapshot would not pay."""
        return self.goodput < self.slow


def stall_whatif(fleet: FleetPlan) -> StallWhatIf | None:
    """The plan at the published stall where the fleet's C is derived from a snapshot (the copy alone); else None.

    None too where C is the stall measured beside the snapshot (:func:`measured_stall`): the published what-if is
    for a fleet whose stall is not measured.

    >>> from goodput.fleet import fleet_plan
    >>> from goodput.params import load_params
    >>> stall_whatif(fleet_plan(load_params())) is None  # the worked example types its C
    True
    """
    if not fleet.params.checkpoint_per_node:
        return None
    return StallWhatIf(stall=PUBLISHED_STALL, plan=plan_or_none(with_cost(fleet.params, PUBLISHED_STALL)),
                       slow=fleet.slow.goodput)


@dataclass(frozen=True)
class MeasuredStall:
    """The fleet's C where it is the stall measured at a checkpoint beside a snapshot, against the copy alone.

    ``stall`` is C as typed (:attr:`goodput.params.Params.checkpoint_is_stall`), ``copy`` the snapshot's copy alone
    (:attr:`goodput.params.Params.snapshot_copy`), minutes; ``goodput`` the fleet's plan's at that stall, ``slow`` the
    goodput of the fleet's synchronous write, which a stall this long may not beat, and ``at_copy`` the plan's at C =
    the copy alone (no barrier or quiesce: the most a shorter stall could give; 0 where the model keeps no work).
    ``write`` is the storage's own time to write the whole checkpoint, minutes: what a synchronous write would stall.
    ``below_slow``: the plan at the measured stall keeps less than the synchronous write, the snapshot does not pay
    (:attr:`goodput.fleet.FleetPlan.slow_keeps_more`, decided there once).
    """

    stall: float
    copy: float
    goodput: float
    slow: float
    at_copy: float
    write: float
    below_slow: bool

    @property
    def longer_than_write(self) -> bool:
        """Whether the measured stall is longer than a synchronous write of the whole checkpoint would stall."""
        return self.stall > self.write

    @property
    def times_copy(self) -> float:
        """How many times the copy alone the measured stall is (at least 1: a shorter stall is refused)."""
        return self.stall / self.copy

    @property
    def rest(self) -> float:
        """Minutes of the stall that are not the copy: the barrier and the quiesce."""
        return self.stall - self.copy


def measured_stall(fleet: FleetPlan) -> MeasuredStall | None:
    """The fleet's measured stall beside its snapshot's copy, where its C is that stall; else None.

    >>> from goodput.fleet import fleet_plan
    >>> from goodput.params import load_params
    >>> measured_stall(fleet_plan(load_params())) is None  # the worked example has no snapshot
    True
    """
    p = fleet.params
    if not p.checkpoint_is_stall or p.snapshot_copy is None or p.storage is None:
        return None
    return MeasuredStall(stall=p.checkpoint_cost, copy=p.snapshot_copy, goodput=fleet.plan.goodput,
                         slow=fleet.slow.goodput, at_copy=goodput_of(plan_or_none(with_cost(p, p.snapshot_copy))),
                         write=p.storage.write_minutes, below_slow=fleet.slow_keeps_more)


def local_first(checkpoint_cost: float, restart: float, drain: float, survives: float) -> Tiers:
    """A local-first checkpoint drained every time: n = 1, C_p = C, R_p = R, durable D after its snapshot.

    An interruption inside the drain that leaves the node (a share `survives` of them) restarts from the local copy; one
    that takes the node goes back to the previous drained checkpoint. With `survives` = 0 it is one tier with a drain.
    """
    if survives == 0.0:
        return Tiers(checkpoint_cost, restart, drain=drain)
    return Tiers(checkpoint_cost, restart, drain, checkpoint_cost, restart, survives, 1)


def at_best(scheme: Tiers, mtbi: float, interval: float | None = None,
            recovery: Recovery | None = None) -> tuple[float, float, float]:
    """A scheme by the exact model at `interval` (its own optimum when omitted): (T, goodput, drain loss).

    With `recovery` (just-in-time recovery and planned stops) where given.
    """
    t = exact_optimal_interval(scheme, mtbi, recovery) if interval is None else interval
    losses = exact_losses(scheme, mtbi, t, recovery)
    return t, losses.goodput, losses.drain_loss


@dataclass(frozen=True)
class RestartInputs:
    """The restart inputs of a fleet, from its inputs file or the restart chapter's illustrations.

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


def restart_inputs(fleet: FleetPlan) -> RestartInputs:
    """The fleet's restart inputs, or the labelled illustrations where it gives none.

    Where the inputs give no spare pool, a node's repair takes :data:`ILLUSTRATIVE_REPAIR` and the share of
    interruptions that take a node out is Llama 3's (:func:`goodput.sources.lost_share`); where they give no share
    recovered just in time, it is :data:`ILLUSTRATIVE_JIT`.
    """
    params = fleet.params
    pool, p = params.spares, params.just_in_time
    repair, takes = (pool.repair, pool.takes_node) if pool is not None else (ILLUSTRATIVE_REPAIR, sources.lost_share())
    choice = fleet.spares_choice(repair, takes)
    g = params.gpus_per_node
    return RestartInputs(nodes=max(1, params.gpus // g), gpus_per_node=g, parts=params.restart_parts,
                         r_parts=fleet.parts_restart(), spares=pool.nodes if pool is not None else choice.best,
                         repair=repair, takes_node=takes, spares_given=pool is not None,
                         p=p if p > 0 else ILLUSTRATIVE_JIT, jit_recovery=params.jit_recovery,
                         planned_rate=params.planned_rate, jit_given=p > 0, choice=choice)


def recovery_plan(fleet: FleetPlan, share: float) -> Plan:
    """The fleet's own plan (its drain, tiers, R_j and planned stops) with a share `share` recovered just in time."""
    return plan_for(fleet.params.replace(just_in_time=share))


def planned_stops(params: Params) -> tuple[float, float, float, bool]:
    """Planned stops on this fleet, through its own plan: with notice, or counted among the interruptions.

    The fleet's own rate where its inputs give one, else Llama 3's (its count over its snapshot). Returns the rate
    per hour, the goodput with the stops as pauses with notice, the goodput with them as unexpected interruptions
    (M shortened to take them in, none of them recovered just in time: the share p is rescaled so that the same
    interruptions are), and whether the rate is the fleet's own.

    Counted among the interruptions, the stops still take no node out: R (and R_p) become the average over both
    kinds, the wait for a repaired node (:attr:`goodput.params.Params.stop_saving`) paid by the failures' share only.
    """
    own = params.planned_rate > 0.0
    planned = params.planned_rate if own else sources.LLAMA3_PLANNED / (sources.LLAMA3_SNAPSHOT_DAYS * 24.0)
    with_notice = plan_for(params.replace(planned_rate=planned)).goodput
    unplanned_rate = 1.0 / params.mtbi
    m_all = 1.0 / (unplanned_rate + planned / 60.0)
    share = params.just_in_time * unplanned_rate * m_all
    saving = params.stop_saving * (planned / 60.0) * m_all  # the stops' share of interruptions, without the wait
    counted = with_restart(params.replace(mtbi=m_all, just_in_time=share, planned_rate=0.0), params.restart - saving)
    as_unplanned = plan_for(counted).goodput
    return planned, with_notice, as_unplanned, own


def fleet_write(fleet: FleetPlan) -> tuple[float, float, float]:
    """The fleet's checkpoint size, achieved and stated write bandwidth (bytes, bytes per second).

    From its storage inputs; without them, the illustration: :data:`ILLUSTRATIVE_PARAMETERS` at 14 bytes
    written in the fleet's slow checkpoint cost (achieved and stated the same).
    """
    s = fleet.storage
    if s is not None:
        return s.size, s.write_bandwidth * s.efficiency, s.write_bandwidth
    size = checkpoint_size(ILLUSTRATIVE_PARAMETERS)
    implied = size / (fleet.params.slow_checkpoint_cost * 60.0)
    return size, implied, implied


@dataclass(frozen=True)
class WriteWhatIfs:
    """The fleet's goodput against its write bandwidth to shared storage (:func:`write_whatifs`).

    ``size``, ``achieved`` and ``stated`` as :func:`fleet_write`; ``now`` the plan they describe (the fleet's plan
    with storage inputs, its slow checkpoint without); ``ceiling`` the goodput of a write taking no time
    (:data:`FASTEST`), ``target`` a point below it (:data:`TARGET_BELOW_CEILING`) and ``needed`` the achieved
    bandwidth that reaches it (None where it is already reached or cannot be); ``doubled`` the goodput with the write
    doubled; ``match`` the bandwidth at which the illustration's write gives the fleet's plan (None with storage
    inputs or where no bandwidth does).
    """

    size: float
    achieved: float
    stated: float
    now: Plan
    ceiling: float
    target: float
    needed: float | None
    doubled: float
    match: float | None


def write_whatifs(fleet: FleetPlan) -> WriteWhatIfs:
    """The fleet's write what-ifs, through its one plan (:meth:`goodput.fleet.FleetPlan.goodput_at_write_bandwidth`).

    Doubling: without storage inputs the illustration's write doubled; with them the fleet's lever (the stated write
    and read bandwidths doubled, C, D and the load derived again).
    """
    s = fleet.storage
    size, achieved, stated = fleet_write(fleet)
    now = fleet.slow if s is None else fleet.plan
    goodput_at = partial(fleet.goodput_at_write_bandwidth, size=size)
    ceiling = goodput_at(FASTEST)
    target = ceiling - TARGET_BELOW_CEILING
    needed = bandwidth_for_goodput(goodput_at, target) if now.goodput < target else None
    if s is None:
        doubled = goodput_at(2.0 * achieved)
    else:
        doubled = fleet.plan.goodput + fleet.levers[STORAGE_LEVERS["double_write_bandwidth"]]
    match = bandwidth_for_goodput(goodput_at, fleet.plan.goodput) if s is None and fleet.plan.goodput < ceiling \
        else None
    return WriteWhatIfs(size=size, achieved=achieved, stated=stated, now=now, ceiling=ceiling, target=target,
                        needed=needed, doubled=doubled, match=match)


def first_order_possible(fleet: FleetPlan) -> Ranges | None:
    """First order's ranges, where first order is quotable for the fleet and its goodputs are possible; else None."""
    if not fleet.first_order_quotable:
        return None
    first = ranges_for(fleet.params, fleet.first_order)
    lows_highs = (*first.fixed.goodput_range, *first.best.goodput_range, first.plan.goodput)
    if first.plan.refused or not all(0.0 < g <= 1.0 for g in lows_highs):
        return None
    return first


@dataclass(frozen=True)
class FleetMonteCarlo:
    """The Monte Carlo reading of a fleet's goodput (:func:`fleet_monte_carlo`).

    ``draws`` the number of draws, ``through_plan`` whether each goes through the fleet's own plan (its scheme, or its
    recovery without rollback); ``result`` None where M is not given as a count over a window; ``inside`` whether the
    reading's range lies inside the box of the fleet's ranges at the recommended interval.
    """

    draws: int
    through_plan: bool
    result: MonteCarlo | None
    inside: bool


def fleet_monte_carlo(fleet: FleetPlan) -> FleetMonteCarlo:
    """M drawn from its count, every other input of the plan with a range uniformly from it, at the plan's interval.

    Each draw goes through the fleet's own plan where it has a scheme or recovers without rollback (seeded,
    :data:`SEED`; :data:`SCHEME_DRAWS` draws then, else :data:`DRAWS`).
    """
    p, r, plan = fleet.params, fleet.ranges, fleet.plan
    s = plan.tiers
    through_plan = s is not None or plan.recovery is not None
    draws = SCHEME_DRAWS if through_plan else DRAWS
    if not p.counted:
        return FleetMonteCarlo(draws, through_plan, None, False)
    count, window = p.counted
    others = {name: r.inputs[name].bounds for name in PLAN_INPUTS[3:] if name in r.inputs}
    mc = monte_carlo(count, window, r.inputs["checkpoint_cost"].bounds, r.inputs["restart"].bounds,
                     interval=plan.optimal_interval, confidence=CONFIDENCE, draws=draws, seed=SEED, which=plan.model,
                     scheme=s, params=p if through_plan else None, ranges=others if through_plan else None)
    g_low, g_high = r.fixed.goodput_range
    inside = g_low - 1e-12 <= mc.goodput[0] and mc.goodput[2] <= g_high + 1e-12
    return FleetMonteCarlo(draws, through_plan, mc, inside)


@dataclass(frozen=True)
class FastTierWhatIf:
    """A two-tier fleet's fast tier against every checkpoint persistent (n = 1 at its own best interval).

    ``interval`` and ``goodput`` of every checkpoint persistent, ``gain`` the fleet's goodput above it (below zero
    where a cadence the inputs fix keeps less), ``threshold`` the share of interruptions the fast copy must survive for
    a fast tier to pay (None: no share does).
    """

    interval: float
    goodput: float
    gain: float
    threshold: float | None


def fast_tier_whatif(fleet: FleetPlan) -> FastTierWhatIf | None:
    """The fast tier's what-if for a fleet with two tiers; None for one tier (or no scheme)."""
    scheme = fleet.plan.tiers
    if scheme is None or scheme.one_tier:
        return None
    interval, goodput, _ = at_best(scheme.with_every(1), fleet.params.mtbi, recovery=recovery_of(fleet.params))
    # against the plan, at its cadence (which the inputs file may fix): what this fleet's fast checkpoints are worth;
    # where the file fixes n = 1 the plan has none, and the fast tier is worth what it would gain at its best cadence
    against = fleet.best_cadence.goodput if scheme.every == 1 else fleet.goodput
    return FastTierWhatIf(interval, goodput, against - goodput,
                          fast_tier_pays_from(scheme, fleet.params.mtbi))


def illustrative_drain(params: Params) -> tuple[float, float, float]:
    """An untiered fleet's own C, R and M with an assumed drain (:data:`WORKED_DRAIN`) on a local-first path.

    The local copy survives the share of Llama 3's interruptions that keep the node
    (:func:`goodput.sources.lost_share`), with the fleet's just-in-time recovery and planned stops. Returns (T*,
    goodput, drain loss) by the exact model.
    """
    scheme = local_first(params.checkpoint_cost, params.restart, WORKED_DRAIN, 1.0 - sources.lost_share())
    return at_best(scheme, params.mtbi, recovery=recovery_of(params))


@dataclass(frozen=True)
class ContentionWhatIf:
    """Storage contention: each drained checkpoint costs :data:`DRAIN_SLOWDOWN` x D more work.

    ``own`` whether the drain is the fleet's (else the illustration's, :func:`illustrative_drain`); ``counted`` the
    goodput without contention, at ``interval``; ``drain``, ``extra`` (the work lost per drain), ``cost`` the cost of a
    drained checkpoint with it, and ``goodput`` with contention at the same interval.
    """

    own: bool
    counted: float
    drain: float
    interval: float
    extra: float
    cost: float
    goodput: float


def contention_whatif(fleet: FleetPlan) -> ContentionWhatIf:
    """Storage contention on the fleet's drain where it has one, else on the illustration's, at the interval used."""
    p, scheme = fleet.params, fleet.plan.tiers
    c, r = p.checkpoint_cost, p.restart
    own = scheme is not None and scheme.drain > 0
    drain = scheme.drain if scheme is not None and own else WORKED_DRAIN
    extra = DRAIN_SLOWDOWN * drain
    if scheme is not None and own:
        interval, counted, cost = fleet.interval, fleet.goodput, scheme.cp + extra
        slowed = (Tiers(c + extra, r, drain=drain) if scheme.one_tier else
                  Tiers(c, r, drain, cost, scheme.rp, scheme.fast_survives, scheme.every))
    else:
        interval, counted, _ = illustrative_drain(p)
        cost = c + extra
        slowed = local_first(cost, r, drain, 1.0 - sources.lost_share())
    _, goodput, _ = at_best(slowed, p.mtbi, interval, recovery_of(p))
    return ContentionWhatIf(own, counted, drain, interval, extra, cost, goodput)


@dataclass(frozen=True)
class WorkedTierAsides:
    """The worked example's tier asides, by the exact model (:func:`worked_tier_asides`).

    Its local-first path drained (``drained_interval``, ``drained_goodput``, ``drained_loss``); the same with a copy on
    a peer (``peer_goodput``, ``peer_drain_loss``); a fast tier with a persistent one for a local copy
    (``local_every``) and for a peer copy (``peer_every``, ``tiers_interval``, ``tiers_goodput``, against
    ``sync_goodput`` with every checkpoint persistent, and ``threshold``, the share a fast copy must survive for the
    fast tier to pay, None where none does).
    """

    drained_interval: float
    drained_goodput: float
    drained_loss: float
    peer_goodput: float
    peer_drain_loss: float
    local_every: int
    peer_every: int
    tiers_interval: float
    tiers_goodput: float
    sync_goodput: float
    threshold: float | None


def worked_tier_asides(worked: Params) -> WorkedTierAsides:
    """The asides on the worked example's inputs: drain :data:`WORKED_DRAIN`, a peer copy :data:`PEER_SURVIVES`."""
    c, slow, m, r, d = worked.checkpoint_cost, worked.slow_checkpoint_cost, worked.mtbi, worked.restart, WORKED_DRAIN
    q = sources.lost_share()
    t_drained, g_drained, drain_loss = at_best(local_first(c, r, d, 1.0 - q), m)
    _, g_peer, peer_drain_loss = at_best(local_first(c, r, d, PEER_SURVIVES), m)
    local = best_every(Tiers(c, r, 0.0, slow, r, 1.0 - q), m)
    peer_scheme = Tiers(c, r, 0.0, slow, r, PEER_SURVIVES)
    peer = best_every(peer_scheme, m)
    t_tiers, g_tiers, _ = at_best(peer, m)
    _, g_sync, _ = at_best(peer_scheme, m)
    return WorkedTierAsides(t_drained, g_drained, drain_loss, g_peer, peer_drain_loss, local.every, peer.every,
                            t_tiers, g_tiers, g_sync, fast_tier_pays_from(peer_scheme, m))


#: The levers of a loss that has its own: each cuts that loss first. With a persistent tier, restart is the restart
#: from either tier and checkpoint overhead the stall of either checkpoint, so each loss has two inputs.
#: The least growth of a loss, as a share of wall time, that counts as growing back (a twentieth of a point: it shows
#: at one decimal, where "from 4.7% to 4.7%" would not).
GROWN = 0.0005

LOSS_LEVERS = {"restart_loss": ("halve R", "halve R_p", "shorten R_p to R"),
               "checkpoint_overhead": ("halve C", "halve C_p", "shorten C_p to C")}
#: The levers that make a checkpoint stall less: the checkpoint overhead's, and draining the persistent write as well
#: (its stall falls from C_p to C).
CHEAPER_CHECKPOINT = (*LOSS_LEVERS["checkpoint_overhead"], "drain the persistent write as well")


def lever_inputs(params: Params, lever: str) -> Params:
    """The inputs with one of :data:`LOSS_LEVERS` pulled, as :func:`goodput.plan.plan_levers` pulls it.

    Halving C keeps a persistent checkpoint no cheaper than it; C_p and R_p halve no lower than C and R
    (:data:`goodput.plan.CAPPED_LEVERS`).
    """
    p = params
    if lever == "halve R":  # a persistent restart not given is R's own: it stays R, as the scheme's R_p does
        rp = p.persistent_restart if p.persistent_restart is not None or p.persistent_cost is None else p.restart
        # a planned stop restarts from R with one tier: what it saves (its wait for repairs) halves with R
        saving = p.stop_saving if p.persistent_cost is not None else p.stop_saving / 2
        return p.replace(restart=p.restart / 2, persistent_restart=rp, stop_saving=saving)
    if lever == "halve C":
        return with_cost(p, p.checkpoint_cost / 2)
    if lever in ("halve R_p", "shorten R_p to R") and p.persistent_restart is not None:
        return p.replace(persistent_restart=max(p.persistent_restart / 2, p.restart))
    if lever in ("halve C_p", "shorten C_p to C") and p.persistent_cost is not None:
        return p.replace(persistent_cost=max(p.persistent_cost / 2, p.checkpoint_cost))
    raise ValueError(f"{lever!r} is not one of the losses' own levers for these inputs")


@dataclass(frozen=True)
class LossLeverWhatIf:
    """The largest loss's lever ``own`` outranked by ``better``: ``after``, that lever pulled (:func:`lever_inputs`), ``grown`` losses."""

    own: str
    better: str
    after: Plan
    grown: tuple[str, ...]


def loss_lever_whatif(fleet: FleetPlan) -> LossLeverWhatIf | None:
    """The largest loss's own lever where so outranked (halving the failure rate, which cuts two losses, left aside)."""
    names = [name for name, _ in fleet.levers_ranked]
    own_levers = [name for name in names if name in LOSS_LEVERS.get(fleet.largest_loss, ())]
    if not own_levers:
        return None
    own = own_levers[0]  # the loss's best lever: with a persistent tier, R or R_p (C or C_p), whichever gains more
    better = [name for name in names[1:names.index(own)] if name != "halve the failure rate"]
    if not better:
        return None
    after = plan_for(lever_inputs(fleet.params, own))
    # the freed time always runs again; where no other loss grows visibly, that is not the reason: none given (empty)
    grown = tuple(n for n in ("checkpoint_overhead", "lost_work", "restart_loss") if n != fleet.largest_loss
                  and getattr(after.losses, n) - getattr(fleet.plan.losses, n) >= GROWN)
    return LossLeverWhatIf(own, better[0], after, grown)


@dataclass(frozen=True)
class AnswerWhatIf:
    """The answer page's what-ifs (:func:`answer_whatif`).

    The storage's own write where the slow checkpoint typed is not it (minutes; its plan, None where refused), the best
    spares' dollars above the pool held (None without one), contention where the drain is busy, first order's gain.
    """

    own_write: float | None
    own_write_plan: Plan | None
    spares_short: float | None
    busy: ContentionWhatIf | None
    busy_loss: float
    slow_fo_gain: float


def answer_whatif(fleet: FleetPlan) -> AnswerWhatIf:
    """The answer page's what-ifs of a fleet."""
    p, s, choice = fleet.params, fleet.params.storage, fleet.best_spares
    own_write, own_write_plan, short = None, None, None
    if s is not None and not p.slow_is_write and not p.checkpoint_is_write:
        own_write = s.write_minutes
        try:
            own_write_plan = plan_for(p.replace(slow_checkpoint_cost=own_write), slow=True)
        except Refused:  # a write so slow against M that no work is kept
            pass
    if choice is not None and p.spares is not None:  # what the pool held gives, net of its own GPUs
        held = fleet.dollars(fleet.goodput - choice.goodput[0] - p.spares.nodes * p.gpus_per_node / p.gpus)
        short = max(0.0, choice.dollars[choice.best] - held)
    busy = contention_whatif(fleet) if fleet.plan.drain_busy else None
    return AnswerWhatIf(own_write, own_write_plan, short, busy, max(0.0, busy.counted - busy.goodput) if busy else 0.0,
                        fleet.first_order.goodput - fleet.slow_first_order.goodput)


#: A small count of interruptions, to show how little a few events pin M down.
SMALL_COUNT = 12
#: How many times the settled failure rate the first days of a run are taken to have.
EARLY_FACTOR = 3.0
#: PyTorch Distributed Checkpoint, 7B model: blocking time of a synchronous and an asynchronous save, in seconds.
SYNC_SECONDS, ASYNC_SECONDS = sources.ASYNC_DCP_SYNC_SECONDS, sources.ASYNC_DCP_STALL_SECONDS
#: Overhead and lost work are about equal where they differ by at most this share of the larger (first order quotable).
ABOUT_EQUAL = 0.15


@dataclass(frozen=True)
class MeasuringWhatIf:
    """The measuring page's what-ifs (:func:`measuring_whatif`): goodputs, gains and plans (None where refused).

    M's range from :data:`SMALL_COUNT` interruptions and from its own count, an early failure rate followed or not, C a
    synchronous or asynchronous save, the elastic job, the interval planned for one GPU's M; overhead and lost work.
    """

    low: float
    high: float
    t_low: Plan | None
    t_high: Plan | None
    own_low: float
    own_high: float
    early: Plan | None
    keep: Plan | None
    early_gain: float
    sync: float
    async_: float
    async_over_sync: float
    async_gain: float
    stalled: bool
    elastic_inputs: Params
    elastic: Plan  # the failures chapter's elastic job (FleetPlan.elastic): R and a persistent restart shortened
    elastic_gain: float
    m_gpu: float
    wrong_t: float
    kept: float
    survive: float
    about_equal: bool


def measuring_whatif(fleet: FleetPlan) -> MeasuringWhatIf:
    """The measuring page's what-ifs of a fleet (R's wait for a spare at each M changed: :meth:`FleetPlan.at_mtbi`)."""
    p, plan, scheme = fleet.params, fleet.plan, fleet.plan.tiers
    low, high = poisson_interval(SMALL_COUNT, SMALL_COUNT * p.mtbi, CONFIDENCE)
    own_low, own_high = poisson_interval(*p.counted, CONFIDENCE) if p.counted else (0.0, 0.0)
    # An early failure rate: the plan re-made for it, and the settled interval (and cadence) kept through it.
    early_params = fleet.at_mtbi(p.mtbi / EARLY_FACTOR)
    early = plan_or_none(early_params)
    kept = early_params if scheme is None or scheme.one_tier else early_params.replace(persistent_every=scheme.every)
    keep = plan_or_none(kept, interval=plan.interval)
    sync = goodput_of(plan_or_none(with_cost(p, SYNC_SECONDS / 60.0)))
    async_ = goodput_of(plan_or_none(with_cost(p, ASYNC_SECONDS / 60.0)))
    m_gpu = float(mtbi_from_rate(p.rate_per_gpu_hour, 1))
    wrong = plan_or_none(p.replace(gpus=1, mtbi=m_gpu))
    wrong_t = wrong.interval if wrong else math.inf
    overhead, lost = fleet.losses["checkpoint_overhead"], fleet.losses["lost_work"]
    return MeasuringWhatIf(
        low=low, high=high, t_low=plan_or_none(fleet.at_mtbi(low)), t_high=plan_or_none(fleet.at_mtbi(high)),
        own_low=own_low, own_high=own_high, early=early, keep=keep,
        early_gain=max(0.0, goodput_of(early) - goodput_of(keep)), sync=sync, async_=async_,
        async_over_sync=max(0.0, async_ - sync), async_gain=async_ - plan.goodput,
        stalled=scheme is not None and scheme.drain > 0 and scheme.cp > scheme.checkpoint_cost,
        elastic_inputs=elastic_params(p), elastic=fleet.elastic, elastic_gain=max(0.0, fleet.elastic.goodput - plan.goodput),
        m_gpu=m_gpu, wrong_t=wrong_t, kept=goodput_of(plan_or_none(p, interval=wrong_t)) if wrong else 0.0,
        survive=math.exp(-(wrong_t + p.checkpoint_cost) / p.mtbi) if math.isfinite(wrong_t) else 0.0,
        about_equal=fleet.first_order_quotable and abs(overhead - lost) <= ABOUT_EQUAL * max(overhead, lost))


@dataclass(frozen=True)
class StorageWhatIf:
    """The storage page's what-ifs (:func:`storage_whatif`).

    :func:`write_whatifs`, :func:`stall_whatif`, :func:`measured_stall`, the gains and dollars a month they give, and
    the synchronous write (:attr:`goodput.fleet.FleetPlan.synchronous`) at twice the stated bandwidth.
    """

    write: WriteWhatIfs
    stall: StallWhatIf | None
    measured: MeasuredStall | None
    double_gain: float
    stall_loss: float
    fleet_cost: float
    fleet_net: float
    best_gain: float
    sync_doubled: float
    sync_gain: float


def storage_whatif(fleet: FleetPlan) -> StorageWhatIf:
    """The storage page's what-ifs of a fleet."""
    s, w, stall, best, sync = fleet.storage, write_whatifs(fleet), stall_whatif(fleet), fleet.best_write_bandwidth, \
        fleet.synchronous
    cost = 0.0 if s is None or s.price is None else storage_cost_per_month(s.price, s.write_bandwidth)
    net = fleet.dollars(fleet.plan.goodput) - cost
    sync_doubled = 0.0 if sync is None else sync.goodput_at_stated_bandwidth(2.0 * w.stated)
    return StorageWhatIf(w, stall, measured_stall(fleet), max(0.0, w.doubled - w.now.goodput),
                         max(0.0, fleet.plan.goodput - stall.goodput) if stall else 0.0, cost, net,
                         # B*'s gain as BestBandwidth.flat judges it, against its own net at the stated bandwidth
                         max(0.0, best.net_per_month - best.own_net_per_month) if best else 0.0, sync_doubled,
                         max(0.0, sync_doubled - fleet.slow.goodput))
