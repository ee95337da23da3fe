"""The fleet's one plan: its full checkpoint scheme computed once, and everything a page says of "this fleet".

:func:`fleet_plan` computes, by the exact model and the fleet's whole scheme (drain, persistent tier,
cadence), the plan, the same scheme by first order with its verdict, the slow checkpoint it is compared
with, the levers, the losses and their worth in dollars. Every page object, figure and the command
build on it; a one-tier method must not call its number the fleet's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np

from goodput import model
from goodput import restart as restarts
from goodput.errors import InputError, Refused
from goodput.hazards import Simulated, elastic_params, simulations
from goodput.limits import PLAN_GPUS, ScaleStudy, scale_study
from goodput.params import Params, derive, mtbi_from_rate
from goodput.plan import (
    Plan,
    at_storage,
    derived_again,
    make_plan,
    plan_for,
    plan_levers,
    scheme_pays,
    storage_levers,
    with_restart,
)
from goodput.restart import SparesChoice
from goodput.storage import (
    SEARCH_SPAN,
    BestBandwidth,
    Storage,
    bandwidth_for_goodput,
    best_bandwidth,
    storage_cost_per_month,
    transfer_minutes,
)
from goodput.uncertainty import (
    PLAN_INPUTS,
    InputRange,
    Propagation,
    Swing,
    input_ranges,
    one_at_a_time,
    propagate_params,
)
from goodput.units import format_duration

#: Confidence level of M's Poisson interval (and of the uncertainty page's Monte Carlo percentiles).
CONFIDENCE = 0.95

#: The losses of a plan, in the order the book lists them (the drain's only where the plan has one).
LOSSES = ("checkpoint_overhead", "lost_work", "restart_loss", "drain_loss")

#: Fleet sizes the levers chapter plans the fleet's scheme at (:attr:`FleetPlan.by_size`; its own size is added).
FLEET_SIZES = tuple(1024 * 2**k for k in range(8))


@dataclass(frozen=True)
class Ranges:
    """A fleet's input ranges carried through its own scheme by one model.

    ``fixed`` is goodput over the box at the plan's interval (and cadence); ``best`` T* and goodput with
    each case at its own optimum; ``swings`` one ranged input at a time, widest first; ``slow`` the slow
    checkpoint at its own optimum over its range (one tier; it moves no number of the plan), when ranged.
    """

    plan: Plan
    inputs: dict[str, InputRange]
    fixed: Propagation
    best: Propagation
    swings: list[Swing]
    slow: Propagation | None = None

    @property
    def ranged(self) -> list[str]:
        """The plan inputs with a range, in :data:`goodput.uncertainty.PLAN_INPUTS` order."""
        return [name for name in PLAN_INPUTS if name in self.inputs and not self.inputs[name].exact]

    @property
    def exact(self) -> list[str]:
        """The inputs of the plan taken as exact, for want of a range."""
        return [name for name in PLAN_INPUTS if name in self.inputs and self.inputs[name].exact]


def ranges_for(params: Params, plan: Plan) -> Ranges:
    """The ranges of T* and goodput around the fleet's plan, by the plan's model and through its scheme."""
    which = plan.model
    inputs = input_ranges(params, CONFIDENCE)
    best = propagate_params(params, confidence=CONFIDENCE, which=which, scheme=plan.tiers)
    fixed = propagate_params(params, interval=plan.optimal_interval, confidence=CONFIDENCE, which=which,
                             scheme=plan.tiers, cases=best.cases)  # the optima of the cases, computed once
    swings = [s for s in one_at_a_time(fixed) if not inputs[s.name].exact]
    slow = None  # the comparison's range, through its own plan (recovery and all), where its C has one
    if not inputs["slow_checkpoint_cost"].exact:
        slow = propagate_params(params.synchronous(), confidence=CONFIDENCE, which=which)
    return Ranges(plan=plan, inputs=inputs, fixed=fixed, best=best, swings=swings, slow=slow)


@dataclass(frozen=True)
class RestartPart:
    """A restart part (a key of :attr:`goodput.restart.RestartParts.parts`), minutes, and the gain of halving it."""

    name: str
    minutes: float
    gain: float


@dataclass(frozen=True)
class FleetPlan:
    """Everything the book and the command say of one fleet, from its full scheme; build with :func:`fleet_plan`.

    Plain numbers (minutes, fractions of 1, US dollars). ``plan`` is the exact model of the whole scheme at its
    optimum; ``first_order`` the same scheme by first order, quotable only where :attr:`first_order_quotable`;
    ``slow`` the slow checkpoint written synchronously (one tier, no drain); ``levers`` goodput gains
    (:func:`goodput.plan.plan_levers`).
    """

    params: Params
    plan: Plan
    first_order: Plan
    slow: Plan
    slow_first_order: Plan
    levers: dict[str, float]

    # ------------------------------------------------------------------ the recommendation
    @property
    def interval(self) -> float:
        """The recommended interval T, minutes."""
        return self.plan.interval

    @property
    def goodput(self) -> float:
        """Goodput at the recommended interval."""
        return self.plan.goodput

    @property
    def tiered(self) -> bool:
        """Whether the plan has a drain or a persistent tier."""
        return self.plan.tiers is not None

    @property
    def recovered(self) -> bool:
        """Whether some interruptions are recovered just in time, or some stops are planned with notice."""
        return self.plan.recovery is not None

    @property
    def plain(self) -> bool:
        """Whether the model of C, M and R alone is this fleet's whole scheme.

        Plain: one checkpoint safe when taken, every interruption rolled back, no planned stop. Where not, a method
        that knows only C, M and R is not the fleet's and must say so.
        """
        return not self.tiered and not self.recovered

    @cached_property
    def alone(self) -> Plan:
        """The model of C, M and R alone at its exact optimum.

        One checkpoint safe when taken, every interruption rolled back, no planned stop: this fleet's plan only where
        :attr:`plain`; else what a method that knows only C, M and R works on, labelled as such.
        """
        p = self.params
        return self.plan if self.plain else make_plan(p.checkpoint_cost, p.mtbi, p.restart)

    @cached_property
    def best_cadence(self) -> Plan:
        """The scheme at the exact model's best whole n, the plan itself where it chose n (or has one tier).

        Where the inputs file fixes n, the plan with n chosen, which the lever "set the persistent cadence right" moves to.
        """
        s = self.plan.tiers
        if s is None or s.one_tier or self.plan.every_chosen:
            return self.plan
        return plan_for(self.params.replace(persistent_every=None))

    @cached_property
    def elastic(self) -> Plan:
        """The whole scheme planned for elastic continuation (:func:`goodput.hazards.elastic_params`), once a fleet.

        Only restarts shorten, so where the fleet's plan keeps work this one does too.
        """
        return plan_for(elastic_params(self.params))

    @cached_property
    def scale_study(self) -> ScaleStudy:
        """First order's limits, the sizes and the simulations of the scale chapter (:func:`goodput.limits.scale_study`)."""
        return scale_study(self.params)

    @cached_property
    def failure_simulations(self) -> Simulated:
        """The failures chapter's seeded simulations of C, M and R alone, run-age schedules included (one tier)."""
        p = self.params
        return simulations(p.checkpoint_cost, p.slow_checkpoint_cost, p.mtbi, p.restart)

    @property
    def losses(self) -> dict[str, float]:
        """The plan's losses by name (:data:`LOSSES`; the drain's only with a drain: without one it is none by design)."""
        out = {name: float(getattr(self.plan.losses, name)) for name in LOSSES[:3]}
        if self.plan.drained:
            out["drain_loss"] = self.plan.drain_loss
        return out

    @property
    def largest_loss(self) -> str:
        """The name of the largest loss (a key of :attr:`losses`)."""
        return max(self.losses, key=lambda name: self.losses[name])

    @property
    def levers_ranked(self) -> list[tuple[str, float]]:
        """The levers, largest gain first."""
        return sorted(self.levers.items(), key=lambda item: -item[1])

    # ------------------------------------------------------------------ first order, one measure and one policy
    @property
    def first_order_gap(self) -> float:
        """Exact minus first-order goodput of the scheme, each at its own optimum (:attr:`goodput.plan.Plan.check`)."""
        return self.plan.check.error

    @property
    def first_order_status(self) -> str:
        """The verdict on first order (:attr:`goodput.model.RangeCheck.status`)."""
        return self.plan.check.status

    @property
    def first_order_quotable(self) -> bool:
        """Whether any first-order number may be quoted for this fleet."""
        return self.plan.check.quotable

    # ------------------------------------------------------------------ the slow checkpoint and money
    @property
    def slow_points(self) -> float:
        """Goodput the fast scheme keeps over the slow checkpoint (never below 0)."""
        return max(0.0, self.plan.goodput - self.slow.goodput)

    @property
    def scheme_stall(self) -> float:
        """What one of the scheme's own checkpoints stalls training, minutes: C, or C_p where every one is persistent."""
        s = self.plan.tiers
        return s.cp if s is not None and not s.one_tier and s.every == 1 else self.params.checkpoint_cost

    @property
    def slow_keeps_more(self) -> bool:
        """Whether the slow checkpoint, at its own optimum, keeps more than the fleet's scheme: the scheme does not pay.

        So it is where a measured stall beside a snapshot is longer than the synchronous write would stall
        (tests/data/fleet-stored-stall.yml: 73.4% for the 5.67 s write against 72.9%).
        """
        return not scheme_pays(self.plan, self.slow)

    @property
    def slow_is_own(self) -> bool:
        """Whether there is no dearer checkpoint to set beside the fleet's: the slow one stalls as C does, keeping no more.

        So it is where C is itself the synchronous write the book derives from the storage (a fleet known by its
        model's size and its storage's bandwidth, without a snapshot), or where the inputs file gives the same cost
        twice; the pages then compare nothing, where they would set 93.9% beside 93.9%.
        """
        return self.params.slow_against_c == "same" and not self.slow_keeps_more

    @cached_property
    def synchronous(self) -> FleetPlan | None:
        """The fleet with its snapshot dropped, where its scheme does not pay (:attr:`slow_keeps_more`); else None.

        The whole checkpoint written synchronously to the fleet's own storage: C derived as size over achieved write
        bandwidth, no drain, every other input the fleet's; so its plan is :attr:`slow` and its own
        :meth:`goodput_at_stated_bandwidth` and :attr:`best_write_bandwidth` are the synchronous write's, where more
        bandwidth shortens C itself (tests/data/fleet-stored-stall.yml: 73.4% at the stated 2 TB/s, 74.9% at 4 TB/s,
        B* 2.42 TB/s stated for 73.9%, against the scheme's 710 GB/s). None too without storage and a snapshot, and
        beside a persistent tier: there the write restarts in R_p (:attr:`goodput.params.Params.slow_restart`), which
        this fleet of one tier re-derived from the storage would not keep, so its numbers would not be :attr:`slow`'s.
        """
        p = self.params
        if not self.slow_keeps_more or p.storage is None or p.storage.snapshot_bandwidth is None or p.known is None \
                or p.persistent_cost is not None:
            return None
        return fleet_plan(without_snapshot(p))

    @property
    def slow_gain(self) -> float:
        """Goodput the slow checkpoint keeps over the fleet's scheme (never below 0): the other side of :attr:`slow_points`."""
        return max(0.0, self.slow.goodput - self.plan.goodput)

    def dollars(self, points: float) -> float:
        """What a goodput difference is worth a month, US dollars (capacity, not cash)."""
        p = self.params
        return model.capacity_per_month(points, p.gpus, p.price_per_gpu_hour, p.month)

    @property
    def lost_dollars(self) -> float:
        """All the fleet's losses at the plan, US dollars a month."""
        return self.dollars(1.0 - self.plan.goodput)

    @property
    def lost_gpu_hours(self) -> float:
        """GPU-hours a month all the fleet's losses take at the plan."""
        p = self.params
        return model.capacity_per_month(1.0 - self.plan.goodput, p.gpus, 1.0, p.month)

    @cached_property
    def ranges(self) -> Ranges:
        """The inputs' ranges through the fleet's scheme by the exact model."""
        return ranges_for(self.params, self.plan)

    # ------------------------------------------------------------------ levers (by fleet size)
    @cached_property
    def by_size(self) -> dict[int, Plan]:
        """The fleet's scheme planned by the exact model at :data:`FLEET_SIZES`, its own size and twice it.

        Each size at M = 60 / (rate x GPUs), its restart and a per-node C re-derived (:meth:`at_size`); sizes where
        the model refuses to plan (:class:`~goodput.errors.Refused`) or a snapshot's share does not fit the host memory
        are left out.
        """
        p = self.params
        out = {}
        for n in sorted({*FLEET_SIZES, p.gpus, 2 * p.gpus}):
            try:
                out[n] = self.plan if n == p.gpus else plan_for(self.at_size(n))
            except (Refused, InputError):  # no work kept, or the snapshot's share does not fit: no plan at that size
                continue
        return out

    def at_size(self, gpus: int) -> Params:
        """The fleet's inputs at another size: M at its per-GPU rate, R re-derived (:meth:`restart_at`), and C.

        The restart's parts, where given with a start-up per node, are those of gpus / gpus_per_node nodes. A C derived
        from each node's share of the checkpoint (:attr:`~goodput.params.Params.checkpoint_per_node`) is that share's
        snapshot on gpus / gpus_per_node nodes (:attr:`goodput.storage.Storage.checkpoint_cost`): it doubles where the
        nodes halve. Raises InputError where that share would not fit the host memory the inputs give.

        >>> from goodput.params import load_params
        >>> f = fleet_plan(load_params())
        >>> p = f.at_size(2 * f.params.gpus)
        >>> round(2 * p.mtbi, 1) == round(f.params.mtbi, 1), p.restart == f.params.restart
        (True, True)
        """
        p = self.params
        mtbi = float(mtbi_from_rate(p.rate_per_gpu_hour, gpus))
        parts, storage, cost = p.restart_parts, p.storage, p.checkpoint_cost
        if parts is not None and parts.startup_per_node > 0 and gpus % p.gpus_per_node == 0:
            parts = replace(parts, nodes=gpus // p.gpus_per_node)
        if storage is not None and p.checkpoint_per_node and gpus != p.gpus and gpus % p.gpus_per_node == 0:
            storage = replace(storage, nodes=gpus // p.gpus_per_node)
            cost = storage.checkpoint_cost
        return self.with_restart(self.restart_at(gpus), self.repair_wait(gpus)).replace(gpus=gpus, mtbi=mtbi, restart_parts=parts,
                                                                storage=storage, checkpoint_cost=cost)

    def at_mtbi(self, mtbi: float) -> Params:
        """The fleet's inputs at another M, its size kept: R re-derived, its wait for a spare at that M.

        R is :meth:`parts_restart` plus the spare pool's wait at ``mtbi`` (:meth:`with_restart`: a persistent
        restart moves by as much); without spares it is R as given, and only M changes.

        >>> from goodput.params import load_params
        >>> f = fleet_plan(load_params())
        >>> f.at_mtbi(60.0) == f.params.replace(mtbi=60.0)
        True
        """
        p = self.params
        if p.spares is None:
            return p.replace(mtbi=mtbi)
        return self.with_restart(self.parts_restart() + p.spares.wait(mtbi), p.spares.wait(mtbi)).replace(mtbi=mtbi)

    # ------------------------------------------------------------------ storage, restart
    @property
    def storage(self) -> Storage | None:
        """The fleet's storage inputs, or None when it gives durations only."""
        return self.params.storage

    def plan_at_write_bandwidth(self, achieved: float, size: float) -> Plan:
        """The plan with the checkpoint written to shared storage at ``achieved`` B/s (``size`` bytes).

        With :attr:`storage`, the write sets C (synchronous) or the drain D (after a snapshot), S / B, and the read
        bandwidth scales with it (:meth:`at_write_bandwidth`, the inputs' own size); without, the slow checkpoint as a
        synchronous write, one tier. A storage set by hand, with nothing to derive again, keeps its read bandwidth.
        """
        minutes = transfer_minutes(size, achieved)
        p, s = self.params, self.storage
        if s is None:
            return plan_for(p.replace(slow_checkpoint_cost=minutes), slow=True)
        if p.known is not None and p.checkpoint_size is not None:  # the storage as a whole at that speed
            return plan_for(self.at_write_bandwidth(achieved / s.efficiency))
        measured = replace(s, write_bandwidth=achieved, efficiency=1.0,
                           read_efficiency=s.efficiency if s.read_efficiency is None else s.read_efficiency)
        if s.snapshot_bandwidth is None:
            return plan_for(p.replace(storage=measured, checkpoint_cost=minutes))
        return plan_for(p.replace(storage=measured, drain=minutes))

    def goodput_at_write_bandwidth(self, achieved: float, size: float) -> float:
        """Goodput of :meth:`plan_at_write_bandwidth`; 0 where no work is kept.

        No work is kept where the plan is refused, or where the slower write makes the scheme impossible (a derived
        fast checkpoint dearer than the persistent one the inputs type).
        """
        return _kept(lambda: self.plan_at_write_bandwidth(achieved, size), (InputError, Refused))

    # ------------------------------------------------------------------ what a planner knows: the restart
    def with_restart(self, restart: float, wait: float | None = None) -> Params:
        """The fleet's inputs with another expected restart; a persistent tier's restart moves by as much.

        :func:`goodput.plan.with_restart`, which the storage what-ifs use as well. ``wait``: the part of it spent waiting for a repaired node, which a planned stop does not take
        (:attr:`goodput.params.Params.stop_saving`); None keeps the fleet's. R_p is kept at least R': R + (R' - R) can
        round a hair below R' and be refused.
        """
        return with_restart(self.params, restart, wait)

    @cached_property
    def restart_by_size(self) -> tuple[str, ...]:
        """What makes R change with the fleet's size, as written, at the sizes the book plans (:meth:`restart_changes`).

        Those are :attr:`by_size`'s and :data:`goodput.limits.PLAN_GPUS`: a wait for a spare of 7e-9 min at 100,000
        GPUs does not make R "grow" from 10 min to 10 min.
        """
        p = self.params
        return self.restart_changes({*FLEET_SIZES, p.gpus, 2 * p.gpus, PLAN_GPUS})

    def restart_changes(self, sizes: Iterable[float]) -> tuple[str, ...]:
        """What makes R change over fleet sizes ``sizes``, as the book writes R; empty where it reads the same at each.

        ``"startup"``: a start-up per node; ``"spares"``: the wait for a spare pool's repairs, which grows as M falls.
        A cause counts only where its change alone writes R differently (:func:`goodput.units.format_duration`) at one
        of ``sizes`` (GPUs, rounded to whole ones).
        """
        p, parts = self.params, self.params.restart_parts
        written = format_duration(p.restart)

        def change(name: str, n: int) -> float:
            if name == "startup":
                return self.parts_restart(n) - self.parts_restart()
            return self.repair_wait(n) - self.repair_wait()

        given = {"startup": parts is not None and parts.startup_per_node != 0, "spares": p.spares is not None}
        whole = sorted({round(n) for n in sizes})
        return tuple(name for name in ("startup", "spares")
                     if given[name] and any(format_duration(p.restart + change(name, n)) != written for n in whole))

    def parts_restart(self, gpus: int | None = None) -> float:
        """R without the waits for repairs, minutes, at ``gpus`` GPUs (start-up per node at their nodes)."""
        p = self.params
        base = p.restart - self.repair_wait()
        parts = p.restart_parts
        if gpus is None or gpus == p.gpus or parts is None or parts.startup_per_node == 0:
            return base
        return base + parts.startup_per_node * (gpus / p.gpus_per_node - parts.nodes)

    def repair_wait(self, gpus: int | None = None) -> float:
        """Expected wait for a repair per interruption, minutes (0 without spares); the same pool, M at ``gpus``."""
        p = self.params
        if p.spares is None:
            return 0.0
        mtbi = p.mtbi if gpus is None or gpus == p.gpus else float(mtbi_from_rate(p.rate_per_gpu_hour, gpus))
        return p.spares.wait(mtbi)

    def restart_at(self, gpus: int) -> float:
        """The expected restart at ``gpus`` GPUs, minutes: :meth:`parts_restart` + :meth:`repair_wait`."""
        return self.parts_restart(gpus) + self.repair_wait(gpus)

    def goodput_at_restart(self, restart: float, wait: float | None = None) -> float:
        """Goodput of the whole scheme with an expected restart of ``restart`` minutes; 0 where no work is kept.

        ``wait`` of them wait for a repaired node (:meth:`with_restart`).
        """
        return _kept(lambda: plan_for(self.with_restart(restart, wait)))

    def _goodput_with_wait(self, restart: float) -> float:
        """:meth:`goodput_at_restart` of R's parts plus a wait for repairs: ``restart`` less the parts is the wait."""
        return self.goodput_at_restart(restart, restart - self.parts_restart())

    def spares_choice(self, repair: float, takes_node: float) -> SparesChoice:
        """Goodput and dollars against the number of hot spare nodes, and the best count, with the full plan.

        ``repair``: r, mean minutes to repair a node; ``takes_node``: a, the share of interruptions that take a
        node out. Each count's restart (:meth:`parts_restart` + :func:`goodput.restart.spare_wait`) is planned
        with the whole scheme; the best maximizes kept work net of the spares' own GPUs
        (:func:`goodput.restart.best_spares`). Dollars: against no spares, net of the spares, a month.
        """
        key = (repair, takes_node)
        if key not in self._spares_choices:  # each count is a plan: computed once per pool
            p = self.params
            choice = restarts.best_spares(self.parts_restart(), p.checkpoint_cost, p.mtbi, repair, takes_node, p.gpus,
                                          p.gpus_per_node, goodput_at=self._goodput_with_wait)
            dollars = [self.spares_dollars(c, g, choice.goodput[0]) for c, g in zip(choice.counts, choice.goodput,
                                                                                     strict=True)]
            self._spares_choices[key] = replace(choice, dollars=dollars)
        return self._spares_choices[key]

    def spares_through(self, repair: float, takes_node: float, count: int, extra: int = 16) -> SparesChoice:
        """:meth:`spares_choice` carried on to ``count`` spare nodes (the pool held, where it lies past its counts).

        Past the choice's last count, at most ``extra`` more counts, evenly to ``count``; the best is the choice's.
        """
        choice = self.spares_choice(repair, takes_node)
        last = choice.counts[-1]
        if count <= last:
            return choice
        p = self.params
        more = sorted({round(c) for c in np.linspace(last, count, extra + 1)[1:]})
        rows = [restarts.spares_row(c, self.parts_restart(), p.mtbi, repair, takes_node, p.gpus, p.gpus_per_node,
                                    self._goodput_with_wait) for c in more]
        return replace(choice, counts=[*choice.counts, *more], restart=[*choice.restart, *(r[1] for r in rows)],
                       goodput=[*choice.goodput, *(r[2] for r in rows)], useful=[*choice.useful, *(r[3] for r in rows)],
                       net=[*choice.net, *(r[4] for r in rows)],
                       dollars=[*choice.dollars, *(self.spares_dollars(r[0], r[2], choice.goodput[0]) for r in rows)])

    def spares_dollars(self, count: int, goodput: float, none: float) -> float:
        """A pool's monthly worth against no spares (goodput ``none``), net of its ``count`` nodes' own GPUs."""
        p = self.params
        return self.dollars(goodput - none) - self.dollars(count * p.gpus_per_node / p.gpus)

    @cached_property
    def _spares_choices(self) -> dict[tuple[float, float], SparesChoice]:
        """:meth:`spares_choice`'s answers by (repair, takes_node)."""
        return {}

    def goodput_with_spares(self, spares: int, repair: float, takes_node: float) -> float:
        """Goodput of the whole scheme with a pool of ``spares`` nodes."""
        wait = restarts.spare_wait(spares, self.params.mtbi, repair, takes_node)
        return self.goodput_at_restart(self.parts_restart() + wait, wait)

    @cached_property
    def best_spares(self) -> SparesChoice | None:
        """:meth:`spares_choice` for the inputs' pool; None unless the inputs give spares."""
        s = self.params.spares
        return None if s is None else self.spares_choice(s.repair, s.takes_node)

    @cached_property
    def largest_restart_part(self) -> RestartPart | None:
        """The restart's largest part (R is a sum: halving it gains most) and that gain; None without parts."""
        parts = self.params.restart_parts
        if parts is None:
            return None
        name = parts.largest
        minutes = parts.parts[name]
        gain = max(0.0, self.goodput_at_restart(self.params.restart - minutes / 2.0) - self.goodput)
        return RestartPart(name=name, minutes=minutes, gain=gain)

    @property
    def repair_wait_largest(self) -> bool:
        """Whether R's wait for a repaired node (too few hot spares) is longer than every part the inputs list.

        Then the spare pool, not a part halved, is where shortening the restart starts (tests/data: a pool of none with
        repairs of 3 days leaves 21.6 h of a 21.8 h R waiting).
        """
        part = self.largest_restart_part
        return part is not None and self.repair_wait() > part.minutes

    def at_write_bandwidth(self, bandwidth: float) -> Params:
        """The inputs at stated write bandwidth ``bandwidth`` B/s, rederived; InputError without a checkpoint size.

        The read bandwidth, where given, scales in the same ratio (the storage as a whole, as
        :func:`goodput.params.at_bandwidths` scales it), so the load in R moves with it, and R_p with R as ``goodput
        plan`` moves it (:func:`goodput.plan.derived_again`); the bandwidth sets C or D even where the inputs type them.
        """
        p = self.params
        if p.checkpoint_size is None or p.known is None:
            raise InputError("target goodput", "no checkpoint size",
                             "the checkpoint's size (checkpoint: {size: ...} or {parameters: ...}; "
                             "--checkpoint-size or --parameters) to find the write bandwidth it needs")
        known = p.known
        derives = "drain" if known.snapshot_bandwidth is not None else "checkpoint_cost"
        typed = {k: v for k, v in known.typed.items() if k not in (derives, "slow_checkpoint_cost")}
        if known.size is None and known.parameters is None:  # pragma: no cover - a size always comes from one
            known = dataclasses.replace(known, size=p.checkpoint_size)
        read = None if known.read_bandwidth is None or not known.write_bandwidth else \
            known.read_bandwidth * bandwidth / known.write_bandwidth
        return derived_again(p, derive(p, dataclasses.replace(known, write_bandwidth=bandwidth, read_bandwidth=read,
                                                              typed=typed)))

    def needed_write_bandwidth(self, target: float) -> float | None:
        """The least stated write bandwidth (bytes/s, before efficiency) at which the full plan reaches ``target``.

        Bisection (:func:`goodput.storage.bandwidth_for_goodput`; goodput never falls as bandwidth rises); None
        when even 1 PB/s does not reach it.
        """
        self.at_write_bandwidth(1e9)  # no size: the one-line reason, not a goodput of zero
        # A checkpoint so slow that no plan is made (refused, or an InputError) keeps nothing.
        return bandwidth_for_goodput(lambda b: _kept(lambda: plan_for(self.at_write_bandwidth(b)),
                                                     (InputError, Refused)), target)

    # ------------------------------------------------------------------ what to buy: storage
    def goodput_at_stated_bandwidth(self, bandwidth: float) -> float:
        """Goodput of the full plan at stated write bandwidth ``bandwidth`` B/s (read scaled alike); 0 if no plan."""
        s = self.storage
        if s is None:
            raise InputError("storage", None, "the storage's write bandwidth and the checkpoint's size")
        # A bandwidth so low that no plan is made keeps nothing: refused, or a scheme the slower write makes
        # impossible (a derived fast checkpoint dearer than the persistent one the inputs type).
        return _kept(lambda: self.plan_at_stated_bandwidth(bandwidth), (InputError, Refused))

    def plan_at_stated_bandwidth(self, bandwidth: float) -> Plan:
        """The full plan at stated write bandwidth ``bandwidth`` B/s (read scaled alike); raises where none is made."""
        s = self.storage
        if s is None:
            raise InputError("storage", None, "the storage's write bandwidth and the checkpoint's size")
        return plan_for(at_storage(self.params, write=bandwidth / s.write_bandwidth))

    def net_at_stated_bandwidth(self, bandwidth: float) -> float:
        """Goodput's worth minus the storage's cost at a stated write bandwidth, US dollars a month."""
        s = self.storage
        if s is None or s.price is None:
            raise InputError("storage.price", None, "a price of storage bandwidth (storage: {price: ...} or "
                             "--storage-price), US dollars per GB/s per month")
        return self.dollars(self.goodput_at_stated_bandwidth(bandwidth)) - storage_cost_per_month(s.price, bandwidth)

    @cached_property
    def best_write_bandwidth(self) -> BestBandwidth | None:
        """The stated write bandwidth B* that maximizes :meth:`net_at_stated_bandwidth`, searched over B/64 to 64 B.

        At a price of zero, 64 B with ``edge == "top"`` (goodput never falls as bandwidth rises). None without
        a storage price or a checkpoint size.
        """
        s = self.storage
        if s is None or s.price is None or self.params.checkpoint_size is None:
            return None
        edge: str | None = "top"
        if s.price == 0.0:  # goodput never falls as bandwidth rises: nothing to search for
            best = s.write_bandwidth * SEARCH_SPAN
        else:
            best, edge = best_bandwidth(self.net_at_stated_bandwidth, s.write_bandwidth)
        try:  # the plan at B*, once: its goodput, and the interval it checkpoints at there
            plan: Plan | None = self.plan_at_stated_bandwidth(best)
        except (InputError, Refused):
            plan = None
        goodput = 0.0 if plan is None else plan.goodput
        cost = storage_cost_per_month(s.price, best)
        return BestBandwidth(bandwidth=best, goodput=goodput, net_per_month=self.dollars(goodput) - cost,
                             storage_cost_per_month=cost, edge=edge, interval=0.0 if plan is None else plan.interval,
                             drain=0.0 if plan is None or plan.tiers is None else plan.tiers.drain,
                             at_drain=plan is not None and plan.at_drain,
                             own_net_per_month=self.net_at_stated_bandwidth(s.write_bandwidth))


def without_snapshot(params: Params) -> Params:
    """The inputs with the snapshot to host memory dropped: C the synchronous write of the whole checkpoint, derived.

    A C typed beside the snapshot (the stall measured there), the drain and the slow C are derived again or dropped;
    other typed durations stay. InputError without what the planner gave (:attr:`goodput.params.Params.known`).
    """
    known = params.known
    if known is None:
        raise InputError("storage", None, "the checkpoint's size and the storage's write bandwidth")
    typed = {k: v for k, v in known.typed.items() if k not in ("checkpoint_cost", "slow_checkpoint_cost", "drain")}
    # the write still pays the barrier and quiesce a measured stall holds beyond its copy (Known.barrier), as the slow
    # C does
    return derive(params, dataclasses.replace(known, snapshot_bandwidth=None, host_memory=None,
                                              double_buffered=False, typed=typed))


def _kept(make: Callable[[], Plan], nothing: tuple[type[Exception], ...] = (Refused,)) -> float:
    """The goodput of the plan ``make()`` makes; 0 where it raises one of `nothing` (refused: no work kept)."""
    try:
        return make().goodput
    except nothing:
        return 0.0


def fleet_plan(params: Params) -> FleetPlan:
    """The fleet's one plan.

    >>> from goodput.params import load_params
    >>> f = fleet_plan(load_params())
    >>> round(f.interval, 1), round(100 * f.goodput, 1), f.first_order_quotable
    (18.6, 87.6, True)
    """
    plan = plan_for(params)
    return FleetPlan(
        params=params,
        plan=plan,
        first_order=plan_for(params, which="first-order"),
        slow=plan_for(params, slow=True),
        slow_first_order=plan_for(params, slow=True, which="first-order"),
        levers=plan_levers(plan) | storage_levers(params),
    )

