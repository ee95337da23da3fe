"""One plan for one fleet: the interval, the losses, the levers and the headline numbers.

The pages and ``goodput plan`` all go through :func:`make_plan` (or :func:`plan_for`), so they show the
same numbers; the recommending model is decided once, :data:`RECOMMENDED_MODEL`. Words: :mod:`goodput.report`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from goodput import model, tiers
from goodput.errors import InputError, Refused
from goodput.exact import MODELS, exact_losses, model_functions, range_check
from goodput.model import Losses, RangeCheck
from goodput.params import Params, at_bandwidths
from goodput.restart import Recovery, recovery_losses
from goodput.tiers import TierLosses, Tiers
from goodput.units import format_duration
from goodput.validate import choice

#: The model every recommendation comes from: the exact model of exponential failures,
#: which also counts interruptions during checkpoints and restarts and holds at any
#: fleet size. First-order numbers (Young's T* = sqrt(2CM)) are shown beside it, labelled,
#: where the book derives them and where it reproduces the brief.
RECOMMENDED_MODEL = "exact"
#: A plan's drain keeps the shared storage busy where it runs through at least this share of the work between two
#: drained checkpoints, D / (n T): then its contention with training, which the model does not count, is no detail.
BUSY_DRAIN = 0.25


@dataclass(frozen=True)
class Plan:
    """A checkpoint plan and the goodput it leaves under one model; durations in minutes.

    ``optimal_interval`` is T* by the plan's ``model``, used or not. ``check`` is how far first order is off
    (:func:`goodput.exact.range_check`; with a drain or two tiers, exact minus first-order goodput of the
    scheme). With ``tiers``, ``losses`` is a :class:`~goodput.tiers.TierLosses` and ``tiers.every`` the n
    used (``every_chosen``: n chosen by the plan). ``recovery`` is (p, R_j minutes, q per hour) of
    :class:`goodput.restart.Recovery`.
    """

    checkpoint_cost: float
    mtbi: float
    restart: float
    losses: Losses | TierLosses
    optimal_interval: float
    model: str
    check: RangeCheck
    tiers: Tiers | None = None
    every_chosen: bool = False
    recovery: tuple[float, float, float, float] | None = None

    @property
    def interval(self) -> float:
        """The interval T the losses were computed for, minutes."""
        return self.losses.interval

    @property
    def goodput(self) -> float:
        """Goodput, a fraction of 1."""
        return self.losses.goodput

    @property
    def drained(self) -> bool:
        """Whether the plan has a drain (D > 0): only then is there a drain loss to list (without one it is none)."""
        return self.tiers is not None and self.tiers.drain > 0

    @property
    def drain_loss(self) -> float:
        """Share of wall time lost because checkpoints were not yet durable (0 without a drain)."""
        return self.losses.drain_loss if isinstance(self.losses, TierLosses) else 0.0

    @property
    def drain_share(self) -> float:
        """The share of the work between two drained checkpoints that a drain runs through, D / (n T).

        Only the persistent checkpoint, every n-th (every one in one tier), drains; 0 without a drain.
        """
        return self.tiers.drain / (self.tiers.every * self.interval) if self.tiers is not None else 0.0

    @property
    def drain_busy(self) -> bool:
        """Whether a drain runs through :data:`BUSY_DRAIN` of the work or more (:attr:`drain_share`)."""
        return self.drain_share >= BUSY_DRAIN

    @property
    def at_drain(self) -> bool:
        """Whether the interval is the drain bound, T = D: no checkpoint starts before the last is durable."""
        return self._is_drain(self.interval)

    @property
    def drain_bound(self) -> bool:
        """Whether the model's optimum is the drain itself, T* = D: unbound, it would be shorter than one drain."""
        return self._is_drain(self.optimal_interval)

    def _is_drain(self, interval: float) -> bool:
        return self.tiers is not None and self.drained and abs(interval - self.tiers.drain) <= 1e-9 * self.tiers.drain

    @property
    def at_optimum(self) -> bool:
        """Whether the interval used is the model's optimum."""
        return abs(self.interval - self.optimal_interval) <= 1e-9 * self.optimal_interval

    @property
    def refused(self) -> bool:
        """Whether this is a first-order plan whose numbers must not be quoted (:class:`model.RangeCheck`)."""
        return self.model == "first-order" and not self.check.quotable


def make_plan(
    checkpoint_cost: float, mtbi: float, restart: float, interval: float | None = None, *,
    which: str = RECOMMENDED_MODEL, drain: float = 0.0, persistent_cost: float | None = None,
    persistent_restart: float | None = None, fast_survives: float | None = None, persistent_every: int | None = None,
    just_in_time: float = 0.0, jit_recovery: float = 0.0, planned_rate: float = 0.0, stop_saving: float = 0.0,
) -> Plan:
    """Plan a checkpoint interval (the model's optimum when None) and compute the goodput it leaves.

    Minutes throughout; ``planned_rate`` q per hour. D is the drain, C_p/R_p/s/n the persistent tier
    (:mod:`goodput.tiers`; n the best whole one when None), p/R_j/q recovery without rollback and planned
    stops (:class:`goodput.restart.Recovery`; ``stop_saving`` what a planned stop's restart saves, its wait for repairs).
    Raises InputError on an impossible input, an unknown model
    or an interval shorter than the drain; Refused when a duration is over :data:`MAX_RATIO` times M.

    >>> p = make_plan(1.0, 185.6, 5.0)
    >>> round(p.interval, 1), round(100 * p.goodput, 1)
    (18.6, 87.6)
    """
    model.check_inputs(checkpoint_cost, mtbi, restart, interval)
    which = choice(which, "model", MODELS)
    _check_scale(float(mtbi), checkpoint_cost, restart, interval or 0.0, drain or 0.0, persistent_cost or 0.0,
                 persistent_restart or 0.0)
    tiered = drain or persistent_cost is not None or fast_survives is not None or persistent_every is not None
    recovery = Recovery(just_in_time, jit_recovery, planned_rate, stop_saving) if just_in_time or planned_rate else None
    if tiered:
        scheme = Tiers(checkpoint_cost, restart, drain, persistent_cost, persistent_restart, fast_survives or 0.0,
                       persistent_every or 1)
        return _tier_plan(scheme, float(mtbi), interval, which, chosen=persistent_every is None and not scheme.one_tier,
                          recovery=recovery)
    if recovery is not None:
        return _recovery_plan(checkpoint_cost, float(mtbi), restart, interval, which, recovery)
    return Plan(
        checkpoint_cost=float(checkpoint_cost),
        mtbi=float(mtbi),
        restart=float(restart),
        losses=(exact_losses if which == "exact" else model.losses)(checkpoint_cost, mtbi, restart, interval),
        optimal_interval=float(model_functions(which)[1](checkpoint_cost, mtbi)),
        model=which,
        check=range_check(checkpoint_cost, mtbi, restart, interval),
    )


#: Largest ratio of a checkpoint, interval, drain or restart to M that is planned: beyond it the job keeps less
#: than e^{-MAX_RATIO} of its time (about 1e-260), and e^{ratio} no longer fits in a float.
MAX_RATIO = 600.0


def _check_scale(mtbi: float, *durations: float) -> None:
    """Refuse inputs so far out of scale that the job keeps essentially no work."""
    longest = max(float(d) for d in durations)
    if longest / mtbi > MAX_RATIO:
        raise Refused(
            f"interruptions come every {format_duration(mtbi)}, against a checkpoint, interval or restart of "
            f"{format_duration(longest)}: the job would keep essentially no work, so there is no plan to make"
        )


def _recovery_plan(checkpoint_cost: float, mtbi: float, restart: float, interval: float | None, which: str,
                   recovery: Recovery) -> Plan:
    """A one-tier plan with a share recovered just in time and planned stops (each model at its own optimum)."""
    kw = dataclasses.asdict(recovery)
    exact = recovery_losses(checkpoint_cost, mtbi, restart, interval, which="exact", **kw)
    first = recovery_losses(checkpoint_cost, mtbi, restart, interval, which="first-order", **kw)
    best = recovery_losses(checkpoint_cost, mtbi, restart, None, which=which, **kw).interval
    return Plan(checkpoint_cost=float(checkpoint_cost), mtbi=mtbi, restart=float(restart),
                losses=exact if which == "exact" else first, optimal_interval=best, model=which,
                check=RangeCheck(goodput=first.goodput, error=exact.goodput - first.goodput),
                recovery=dataclasses.astuple(recovery))


def _tier_plan(scheme: Tiers, mtbi: float, interval: float | None, which: str, *, chosen: bool,
               recovery: Recovery | None = None) -> Plan:
    """A plan for a scheme with a drain or two tiers (n chosen when `chosen`), with `recovery` if given."""
    if chosen:
        scheme = tiers.best_every(scheme, mtbi, which=which, recovery=recovery)
    if interval is not None and interval < scheme.drain:
        raise InputError("interval", format_duration(interval), f"at least the drain, {format_duration(scheme.drain)}: "
                         "one drain is in flight at a time, so the next checkpoint cannot start before it ends")
    exact_best = tiers.exact_optimal_interval(scheme, mtbi, recovery)
    first_best = tiers.first_order_optimal_interval(scheme, mtbi, recovery)
    # Each model at its own optimum, or both at the interval given: as goodput.exact.range_check judges one tier.
    first = tiers.first_order_losses(scheme, mtbi, first_best if interval is None else float(interval), recovery)
    exact = tiers.exact_losses(scheme, mtbi, exact_best if interval is None else float(interval), recovery)
    return Plan(
        checkpoint_cost=scheme.checkpoint_cost,
        mtbi=mtbi,
        restart=scheme.restart,
        losses=exact if which == "exact" else first,
        optimal_interval=exact_best if which == "exact" else first_best,
        model=which,
        check=RangeCheck(goodput=1.0 - first.total, error=exact.goodput - (1.0 - first.total)),
        tiers=scheme,
        every_chosen=chosen,
        recovery=None if recovery is None else dataclasses.astuple(recovery),
    )


def first_order_refusal(exact: RangeCheck, own: Plan) -> RangeCheck | None:
    """The check that keeps a fleet's first-order numbers from being quoted, or None where they may be.

    The exact plan's check is the fleet's verdict (:attr:`goodput.fleet.FleetPlan.first_order_gap`); where it lets
    first order be quoted, first order's own plan (`own`, which may choose another cadence) may still refuse itself.
    """
    return exact if not exact.quotable else own.check if own.refused else None


def recovery_of(params: Params) -> Recovery | None:
    """The inputs' just-in-time recovery and planned stops (:class:`goodput.restart.Recovery`), or None without either."""
    p = params
    return (Recovery(p.just_in_time, p.jit_recovery, p.planned_rate, p.stop_saving) if p.just_in_time or p.planned_rate
            else None)


def scheme_pays(plan: Plan, slow: Plan) -> bool:
    """Whether the fleet's checkpoint scheme keeps at least what the slow checkpoint keeps at its own optimum.

    Not so where a stall measured beside a snapshot is longer than the synchronous write would stall (as
    tests/data/fleet-stored-stall.yml: 72.9% against the 5.67 s write's 73.4%): the scheme costs more than it saves.
    """
    return plan.goodput >= slow.goodput


def plan_for(params: Params, *, slow: bool = False, interval: float | None = None, which: str = RECOMMENDED_MODEL) -> Plan:
    """Plan for a fleet's inputs, with their drain and persistent tier.

    ``slow``: the comparison case instead, :meth:`~goodput.params.Params.synchronous`: ``slow_checkpoint_cost``
    written synchronously (one tier, no drain), restarting in :attr:`~goodput.params.Params.slow_restart` (R_p beside a
    persistent tier), with the fleet's just-in-time recovery and planned stops, which do not depend on the write path.
    """
    if slow:
        params = params.synchronous()
    return make_plan(
        params.checkpoint_cost, params.mtbi, params.restart, interval, which=which, drain=params.drain,
        persistent_cost=params.persistent_cost, persistent_restart=params.persistent_restart,
        fast_survives=params.fast_survives, persistent_every=params.persistent_every,
        just_in_time=params.just_in_time, jit_recovery=params.jit_recovery, planned_rate=params.planned_rate,
        stop_saving=params.stop_saving,
    )


#: The levers of a single checkpoint tier, in the order the book shows them.
LEVERS = ("halve C", "halve R", "halve the failure rate", "set the interval right")
#: The levers a drain or a persistent tier adds, where they apply (see :func:`plan_levers`).
TIER_LEVERS = ("shorten the drain", "make the fast tier survive more failures", "halve C_p", "halve R_p",
               "drain the persistent write as well", "set the persistent cadence right")
#: The names "halve C_p" and "halve R_p" take where half would be below the fast tier's C or R, where the lever stops:
#: it shortens C_p to C, or R_p to R, which is not a halving (R_p 22 min with R 18.3 min goes to 18.3 min, not 11).
CAPPED_LEVERS = {"halve C_p": "shorten C_p to C", "halve R_p": "shorten R_p to R"}


def survives_more(fast_survives: float) -> float:
    """The lever "make the fast tier survive more failures": half the interruptions it does not survive now survive.

    >>> survives_more(0.85)
    0.925
    """
    return fast_survives + (1.0 - fast_survives) / 2


def persistent_lever_name(lever: str, scheme: Tiers) -> str:
    """The name of "halve C_p" or "halve R_p" for `scheme`: itself, or :data:`CAPPED_LEVERS`'s where the cap applies.

    >>> s = Tiers(0.5, 18.3, persistent_cost=2.0, persistent_restart=22.0, fast_survives=0.85)
    >>> persistent_lever_name("halve C_p", s), persistent_lever_name("halve R_p", s)
    ('halve C_p', 'shorten R_p to R')
    """
    value, floor = {"halve C_p": (scheme.cp, scheme.checkpoint_cost), "halve R_p": (scheme.rp, scheme.restart)}[lever]
    return CAPPED_LEVERS[lever] if value / 2 < floor else lever


#: The levers a planner's storage inputs add (``storage:`` in the inputs file; see :func:`storage_levers`), by their
#: names in the specification (``double_write_bandwidth``, ``double_snapshot_bandwidth``); the book and the
#: command key them, as every lever, by the words. The snapshot's is named, never listed: it is "halve C"
#: (:func:`storage_levers`).
STORAGE_LEVERS = {"double_write_bandwidth": "double the storage bandwidth",
                  "double_snapshot_bandwidth": "double the snapshot bandwidth"}


def levers(
    checkpoint_cost: float, mtbi: float, restart: float, interval: float, *, which: str = RECOMMENDED_MODEL
) -> dict[str, float]:
    """Goodput gained by each of :data:`LEVERS` for a single checkpoint tier, fractions of 1.

    Input levers are measured optimum to optimum, so they do not also count the interval fix; the interval
    lever is goodput at T* minus at ``interval``. An input lever and the interval lever add up to doing both.
    """
    g, _ = model_functions(which)
    best = float(g(checkpoint_cost, mtbi, restart))
    return _floored({
        "halve C": float(g(checkpoint_cost / 2, mtbi, restart)) - best,
        "halve R": float(g(checkpoint_cost, mtbi, restart / 2)) - best,
        "halve the failure rate": float(g(checkpoint_cost, 2 * mtbi, restart)) - best,
        "set the interval right": best - float(g(checkpoint_cost, mtbi, restart, interval)),
    })


def _floored(gains: dict[str, float]) -> dict[str, float]:
    """Gains with the optimizer's rounding (above -1e-9) floored at zero.

    A lever that changes the scheme ("drain the persistent write as well") can lose goodput for real: kept.
    """
    return {name: max(0.0, gain) if gain > -1e-9 else gain for name, gain in gains.items()}


def plan_levers(plan: Plan) -> dict[str, float]:
    """The levers of a plan by its own model, with :data:`TIER_LEVERS` where they apply, fractions of 1.

    With a drain or two tiers each input lever changes one input and re-optimizes T (and n, if chosen),
    measured from the scheme at its best: halve C, R, the failure rate, the drain D, the share the fast tier
    does not survive (s < 1); with C_p > C, halve C_p and R_p (never below C and R: then named "shorten C_p to C",
    "shorten R_p to R", :data:`CAPPED_LEVERS`) and "drain the persistent
    write as well" (blocks for C only, durable max(D, C_p) after the snapshot). The interval lever moves T to
    the optimum for the plan's n; "set the persistent cadence right" moves n to the best (0 when chosen); the
    two add up to the scheme's best minus the plan. Recovery without rollback is kept in every lever.

    >>> p = make_plan(1.0, 60.0, 5.0, drain=2.0, persistent_cost=3.0, persistent_restart=10.0, fast_survives=0.5)
    >>> gains = plan_levers(p)
    >>> all(gains[name] >= 0 for name in TIER_LEVERS)
    True
    """
    if plan.recovery is not None and plan.tiers is None:
        p, rj, q, saving = plan.recovery

        def g(c: float, m: float, r: float, t: float | None = None, saved: float = saving) -> float:
            return recovery_losses(c, m, r, t, just_in_time=p, jit_recovery=rj, planned_rate=q, stop_saving=saved,
                                   which=plan.model).goodput

        c, m, r = plan.checkpoint_cost, plan.mtbi, plan.restart
        at_best = g(c, m, r)
        # halving R halves what a planned stop's restart saves (its wait for repairs) as well
        return {"halve C": g(c / 2, m, r) - at_best, "halve R": g(c, m, r / 2, saved=saving / 2) - at_best,
                "halve the failure rate": g(c, 2 * m, r) - at_best, "set the interval right": at_best - plan.goodput}
    if plan.tiers is None:
        return levers(plan.checkpoint_cost, plan.mtbi, plan.restart, plan.interval, which=plan.model)
    scheme, m = plan.tiers, plan.mtbi
    recovery = None if plan.recovery is None else Recovery(*plan.recovery)

    def best(changed: Tiers, mtbi: float = m, *, chosen: bool = plan.every_chosen,
             recovery: Recovery | None = recovery) -> float:
        return _tier_plan(changed, mtbi, None, plan.model, chosen=chosen, recovery=recovery).goodput

    # halving R halves what a planned stop's restart saves where the stop restarts from R (one tier), not from R_p
    halved = recovery if recovery is None or not scheme.one_tier else dataclasses.replace(
        recovery, stop_saving=recovery.stop_saving / 2)

    def changed(**kwargs: float) -> Tiers:
        return dataclasses.replace(scheme, **kwargs)  # type: ignore[arg-type]

    at_best = best(scheme)
    gains = {
        "halve C": best(changed(checkpoint_cost=scheme.checkpoint_cost / 2)) - at_best,
        "halve R": best(changed(restart=scheme.restart / 2), recovery=halved) - at_best,
        "halve the failure rate": best(scheme, 2 * m) - at_best,
        "set the interval right": at_best - plan.goodput,
    }
    if scheme.drain > 0:
        gains["shorten the drain"] = best(changed(drain=scheme.drain / 2)) - at_best
    if scheme.one_tier:
        return _floored(gains)
    if scheme.fast_survives < 1.0:
        gains["make the fast tier survive more failures"] = best(
            changed(fast_survives=survives_more(scheme.fast_survives))) - at_best
    if scheme.cp > scheme.checkpoint_cost:
        name = persistent_lever_name("halve C_p", scheme)
        # shortening C_p to C where the drain already lasts C_p or more is the same scheme as draining the persistent
        # write as well (its stall C, durable D after the snapshot): one lever, said once, by how it is done
        if name == "halve C_p" or scheme.drain < scheme.cp:
            gains[name] = best(changed(persistent_cost=max(scheme.cp / 2, scheme.checkpoint_cost))) - at_best
        drained = changed(persistent_cost=scheme.checkpoint_cost, drain=max(scheme.drain, scheme.cp))
        gains["drain the persistent write as well"] = best(drained) - at_best
    if scheme.rp > scheme.restart:
        gains[persistent_lever_name("halve R_p", scheme)] = best(
            changed(persistent_restart=max(scheme.rp / 2, scheme.restart))) - at_best
    gains["set the persistent cadence right"] = best(scheme, chosen=True) - at_best
    return _floored(gains)


#: The levers that move the plan to its own optimum: the interval T, and with two tiers the cadence n.
OPTIMUM_LEVERS = ("set the interval right", "set the persistent cadence right")


def levers_at_optimum(plan: Plan) -> frozenset[str]:
    """The :data:`OPTIMUM_LEVERS` with nothing to move: the plan is at that optimum, not merely near it.

    "set the interval right" where the plan uses its optimal interval (:attr:`Plan.at_optimum`, as when it chose it),
    "set the persistent cadence right" where the plan chose n. Their gain is zero by construction, which a page says
    in words rather than as "+0.0 points".

    >>> sorted(levers_at_optimum(make_plan(1.0, 185.6, 5.0))), sorted(levers_at_optimum(make_plan(1.0, 185.6, 5.0, 30.0)))
    (['set the interval right'], [])
    """
    interval, cadence = OPTIMUM_LEVERS
    settled = {interval} if plan.at_optimum else set()
    if plan.every_chosen and plan.tiers is not None and not plan.tiers.one_tier:
        settled.add(cadence)
    return frozenset(settled)


def with_restart(params: Params, restart: float, wait: float | None = None) -> Params:
    """The inputs with another expected restart ``restart``; a persistent tier's restart moves by as much.

    As ``goodput plan`` moves a typed R_p with R's parts (a start-up per node at another size, a load at another read
    bandwidth): R_p - R holds. ``wait``: the part of R spent waiting for a repaired node, which a planned stop does not
    take (:attr:`goodput.params.Params.stop_saving`); None keeps the inputs'. R_p is kept at least R: R_p + (R' - R)
    can round a hair below R' and be refused.
    """
    rp = None if params.persistent_restart is None else \
        max(params.persistent_restart + (restart - params.restart), restart)
    return params.replace(restart=restart, persistent_restart=rp,
                          stop_saving=params.stop_saving if wait is None else wait)


def derived_again(params: Params, again: Params) -> Params:
    """``again``, the inputs ``params`` derived again (other bandwidths), with R_p moved as R moved (:func:`with_restart`).

    :func:`goodput.params.derive` sets R from its parts, the load among them, and leaves R_p as it was: at a slower
    read R would pass the fleet's R_p and be refused, where ``goodput plan`` with those bandwidths moves R_p with R.
    """
    moved = with_restart(params, again.restart, again.stop_saving)
    return again.replace(persistent_restart=moved.persistent_restart)


def at_storage(params: Params, *, write: float = 1.0, snapshot: float = 1.0) -> Params:
    """:func:`goodput.params.at_bandwidths` with R_p moved as R moved (:func:`derived_again`), as ``goodput plan`` does."""
    return derived_again(params, at_bandwidths(params, write=write, snapshot=snapshot))


def storage_levers(params: Params, which: str = RECOMMENDED_MODEL) -> dict[str, float]:
    """The :data:`STORAGE_LEVERS` that apply, fractions of 1; empty without ``params.storage``.

    Doubling the write (and read) bandwidth rederives C or D, the load part of R and the slow checkpoint, R_p moving
    with R (:func:`at_storage`), and re-plans at the best interval and cadence. "Double the snapshot bandwidth" is
    never a lever of its own: where C is the measured stall (:attr:`~goodput.params.Params.checkpoint_is_stall`) a
    faster copy would not change a C the fleet measured, and elsewhere C is the copy alone
    (:attr:`~goodput.params.Params.checkpoint_per_node`), which doubling the snapshot bandwidth halves and changes
    nothing else: "halve C", which every plan lists (the same gain to every digit), one change said once, as
    "shorten C_p to C" is dropped where it is the drain lever (:func:`plan_levers`).

    >>> from goodput.params import load_params
    >>> storage_levers(load_params())
    {}
    """
    if params.storage is None:
        return {}
    at_best = plan_for(params, which=which).goodput
    gains = {STORAGE_LEVERS["double_write_bandwidth"]: plan_for(at_storage(params, write=2.0), which=which).goodput}
    return _floored({name: goodput - at_best for name, goodput in gains.items()})


def headline(params: Params, which: str = RECOMMENDED_MODEL) -> dict[str, float]:
    """The answer page's numbers for one fleet, plain floats.

    ``mtbi``, ``interval``, ``slow_interval`` in minutes; losses, goodputs and ``points`` (fast minus slow)
    fractions of 1; ``capacity`` US dollars a month those points are worth at list price.
    """
    fast = plan_for(params, which=which)
    slow = plan_for(params, slow=True, which=which)
    points = fast.goodput - slow.goodput
    return {
        "mtbi": fast.mtbi,
        "interval": fast.interval,
        "checkpoint_overhead": fast.losses.checkpoint_overhead,
        "lost_work": fast.losses.lost_work,
        "restart_loss": fast.losses.restart_loss,
        "goodput": fast.goodput,
        "slow_interval": slow.interval,
        "slow_goodput": slow.goodput,
        "points": points,
        "capacity": model.capacity_per_month(points, params.gpus, params.price_per_gpu_hour, params.month),
    }
