"""How far first order holds as a fleet grows: the fleet sizes where it stops being close, at a constant per-GPU rate.

At a constant per-GPU rate M falls as the fleet grows, and first order's error (:func:`goodput.exact.first_order_error`)
grows; :func:`first_order_limits` gives the sizes where it crosses the caution and the tolerance of
:class:`goodput.model.RangeCheck`, and where first-order goodput reaches zero: one checkpoint tier at a fixed R, an
illustration of first order's limits, not a fleet's own. :func:`plan_at_size` plans a fleet's whole scheme at another
size (R re-derived there). Minutes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from goodput import exact, model
from goodput.errors import Refused
from goodput.params import mtbi_from_rate
from goodput.plan import Plan, plan_for
from goodput.simulate_restart import AGREEMENT, CONFIRM_LONGER, plan_rhythm, simulate_plan

if TYPE_CHECKING:
    from goodput.fleet import FleetPlan
    from goodput.params import Params


@dataclass(frozen=True)
class FirstOrderLimits:
    """The fleet sizes where first order stops being close, at a constant per-GPU rate (one checkpoint tier).

    GPUs beyond which it is off by more than :data:`goodput.model.FIRST_ORDER_CAUTION` (`one_point`) and
    :data:`goodput.model.FIRST_ORDER_TOLERANCE` (`three_points`), and at which goodput at sqrt(2CM) is zero.
    """

    checkpoint_cost: float
    restart: float
    rate_per_gpu_hour: float
    one_point: float
    three_points: float
    zero: float

    def mtbi_at(self, gpus: float) -> float:
        """M in minutes at a fleet size, at this rate."""
        return float(mtbi_from_rate(self.rate_per_gpu_hour, gpus))


def first_order_limits(checkpoint_cost: float, restart: float, rate_per_gpu_hour: float) -> FirstOrderLimits:
    """Where first order is off by more than one point and by more than three, and where it reaches zero.

    From :func:`goodput.exact.first_order_error_threshold` and :func:`goodput.exact.first_order_zero_fleet`.

    >>> limits = first_order_limits(1.0, 5.0, 2e-5)
    >>> round(limits.one_point), limits.one_point < limits.three_points < limits.zero
    (22557, True)
    """
    return FirstOrderLimits(
        checkpoint_cost=checkpoint_cost, restart=restart, rate_per_gpu_hour=rate_per_gpu_hour,
        one_point=exact.first_order_error_threshold(checkpoint_cost, restart, rate_per_gpu_hour,
                                                    model.FIRST_ORDER_CAUTION),
        three_points=exact.first_order_error_threshold(checkpoint_cost, restart, rate_per_gpu_hour,
                                                       model.FIRST_ORDER_TOLERANCE),
        zero=exact.first_order_zero_fleet(checkpoint_cost, restart, rate_per_gpu_hour),
    )


# --------------------------------------------------------------------------- the scale study of one fleet

#: An asynchronous checkpoint that blocks training for about 10 s, in minutes: the order PyTorch's
#: asynchronous distributed checkpoint reports for a 7B model.
ASYNC_COST = 10.0 / 60.0
#: The fleet sizes followed at least span these, GPUs (wider when the fleet or its limits lie outside).
SMALLEST, LARGEST = 1_000, 1_000_000
#: Expected interruptions simulated at each fleet size and checkpoint cost: the horizon is this many M.
FAILURES_PER_POINT = 200_000
#: Added to a point's seed for its second run (:func:`simulate_sizes`): no other point's seed.
CONFIRM_SEED = 1_000_000
#: The fleet size of the worked plan at scale, GPUs.
PLAN_GPUS = 100_000
#: Expected interruptions simulated for that plan.
PLAN_FAILURES = 1_000_000
#: Seed of the simulation of that plan.
PLAN_SEED = 99
#: Runs each simulation is split into (its standard error is over them).
REPLICAS = 32


def study_costs(checkpoint_cost: float, slow_checkpoint_cost: float) -> dict[str, float]:
    """The three checkpoint costs the scale study follows, in minutes: the slow, the fast and :data:`ASYNC_COST`.

    >>> study_costs(1.0, 5.0) == {"slow": 5.0, "fast": 1.0, "async": ASYNC_COST}
    True
    """
    return {"slow": slow_checkpoint_cost, "fast": checkpoint_cost, "async": ASYNC_COST}


def study_sizes(gpus: float, limits: list[FirstOrderLimits]) -> tuple[float, ...]:
    """The fleet sizes simulated: decades from :data:`SMALLEST` or less to :data:`LARGEST` or more.

    They reach a decade below and above the fleet itself, and a third of each one-point limit.

    >>> study_sizes(16384, [])
    (1000.0, 10000.0, 100000.0, 1000000.0)
    """
    low = min([float(SMALLEST), gpus / 10.0, *(lim.one_point / 3.0 for lim in limits)])
    high = max(float(LARGEST), 10.0 * gpus)
    first, last = math.floor(math.log10(max(low, 1.0))), math.ceil(math.log10(high))
    return tuple(10.0**k for k in range(first, last + 1))


def _simulated(rate_per_gpu_hour: float, checkpoint_cost: float, restart: float, gpus: float, failures: float,
               seed: int) -> tuple[SizePoint, float]:
    """A seeded simulation of one tier at the exact optimum at `gpus` GPUs, and its wall time in minutes.

    The wall time holds about `failures` interruptions, long enough for unbiased runs and not too many failures.
    """
    from goodput.simulate import MAX_FAILURES, MIN_RUN_RHYTHMS, simulate

    c, m, r = checkpoint_cost, float(mtbi_from_rate(rate_per_gpu_hour, gpus)), restart
    t = float(exact.exact_optimal_interval(c, m))
    least = 1.01 * MIN_RUN_RHYTHMS * REPLICAS * (t + c + r)
    horizon = min(max(failures * m, least), max(least, 0.5 * MAX_FAILURES * m))
    run = simulate(c, m, r, t, horizon, replicas=REPLICAS, seed=seed)
    return SizePoint(gpus, c, run.goodput, run.stderr, float(exact.exact_goodput(c, m, r))), run.horizon


@dataclass(frozen=True)
class SizePoint:
    """A simulation of one checkpoint cost at one fleet size, at the exact optimum, against the exact goodput."""

    gpus: float
    checkpoint_cost: float
    simulated: float
    stderr: float
    exact: float

    @property
    def sigmas(self) -> float:
        """|simulated - exact| in standard errors.

        With a zero standard error (no work kept in any run), 0 when the exact goodput is below 0.01 points too, else
        infinite.
        """
        gap = abs(self.simulated - self.exact)
        if self.stderr > 0:
            return gap / self.stderr
        return 0.0 if gap < 1e-4 else math.inf


#: Below this exact goodput a job keeps almost nothing, and its simulation may part from the model (:func:`agreement`).
NEAR_ZERO = 0.01


@dataclass(frozen=True)
class Agreement:
    """Whether the study's simulations agree with the exact model, by :data:`AGREEMENT` standard errors.

    `status`: ``"agree"`` (every point within), ``"near_zero"`` (the points beyond all keep less than
    :data:`NEAR_ZERO` and are simulated above the model: a run starts computing, not restarting, a head start not
    small beside the little such a job keeps) or ``"disagree"``. `largest` is the largest deviation, in standard
    errors, over the points the verdict vouches for (with ``"near_zero"``, those keeping at least :data:`NEAR_ZERO`);
    `worst` the point furthest beyond (with ``"disagree"``, of those near zero does not explain), None when all agree.
    """

    status: str
    largest: float
    worst: SizePoint | None


def agreement(points: list[SizePoint]) -> Agreement:
    """The study's verdict on its simulations against the exact model (see :class:`Agreement`).

    >>> ok, off = SizePoint(1e3, 1.0, 0.9, 0.001, 0.9005), SizePoint(1e6, 1.0, 3e-4, 3e-5, 1e-4)
    >>> agreement([ok]).status, agreement([ok, off]).status, round(agreement([ok, off]).largest, 1)
    ('agree', 'near_zero', 0.5)
    """
    beyond = [s for s in points if s.sigmas > AGREEMENT]
    if not beyond:
        return Agreement("agree", max(s.sigmas for s in points), None)
    unexplained = [s for s in beyond if not (s.exact < NEAR_ZERO and s.simulated > s.exact)]
    if not unexplained:
        vouched = [s.sigmas for s in points if s.exact >= NEAR_ZERO] or [s.sigmas for s in points if s not in beyond]
        return Agreement("near_zero", max(vouched, default=0.0), max(beyond, key=lambda s: s.sigmas))
    worst = max(unexplained, key=lambda s: s.sigmas)
    return Agreement("disagree", worst.sigmas, worst)


def simulate_sizes(rate_per_gpu_hour: float, restart: float, costs: list[float],
                   sizes: tuple[float, ...]) -> list[SizePoint]:
    """Seeded simulations of each cost at each size at the exact optimum (one tier; seed cost x len(sizes) + size).

    A point more than :data:`AGREEMENT` standard errors off that a job keeping almost nothing does not explain
    (:func:`agreement`) is run again, :data:`~goodput.simulate_restart.CONFIRM_LONGER` times as long on fresh draws, as
    the restart chapter's checks are (:func:`goodput.simulate_restart.confirmed`): by chance one point in 370 is that
    far off.
    """
    points = []
    for i, cost in enumerate(costs):
        for j, n in enumerate(sizes):
            seed = i * len(sizes) + j
            point = _simulated(rate_per_gpu_hour, cost, restart, n, FAILURES_PER_POINT, seed)[0]
            if point.sigmas > AGREEMENT and not (point.exact < NEAR_ZERO and point.simulated > point.exact):
                point = _simulated(rate_per_gpu_hour, cost, restart, n, CONFIRM_LONGER * FAILURES_PER_POINT,
                                   seed + CONFIRM_SEED)[0]
            points.append(point)
    return points


@dataclass(frozen=True)
class PlanAtSize:
    """The fleet's whole scheme at another size by the exact model, first order and a seeded simulation.

    `params` are the fleet's inputs at that size (:meth:`goodput.fleet.FleetPlan.at_size`: M at its per-GPU rate, R
    re-derived); `plan` the exact plan there and `first` first order's, each at its own optimum (and cadence);
    `plan.check` is first order's error and verdict. `exact_at_first` is the exact goodput following first order's
    plan; `simulated` the exact plan simulated at its interval (and cadence), over `horizon` minutes of wall time.
    """

    gpus: int
    params: Params
    plan: Plan
    first: Plan
    exact_at_first: float
    simulated: SizePoint
    horizon: float

    @property
    def mtbi(self) -> float:
        """M at this size, minutes."""
        return self.plan.mtbi

    @property
    def restart(self) -> float:
        """R at this size, minutes (re-derived: start-up per node, the spares' wait at this M)."""
        return self.params.restart

    @property
    def check(self) -> model.RangeCheck:
        """First order of the scheme against its exact model, each at its own optimum: the one measure and verdict."""
        return self.plan.check


def plan_at_size(fleet: FleetPlan, gpus: int = PLAN_GPUS) -> PlanAtSize | None:
    """The fleet's whole scheme planned at `gpus` GPUs, first order beside it, and simulated (seed :data:`PLAN_SEED`).

    None where the model refuses to plan at that size (:class:`~goodput.errors.Refused`: no work would be kept).

    >>> from goodput.fleet import fleet_plan
    >>> from goodput.params import load_params
    >>> p = plan_at_size(fleet_plan(load_params()))
    >>> round(p.mtbi), p.check.status, p.plan.interval < p.first.interval, p.simulated.sigmas < 4
    (30, 'out of range', True, True)
    """
    at = fleet.at_size(gpus)
    try:
        plan = plan_for(at)
        first = plan_for(at, which="first-order")
    except Refused:
        return None
    following = at
    if first.tiers is not None and at.persistent_cost is not None:  # first order's plan, its cadence included
        following = at.replace(persistent_every=first.tiers.every)
    exact_at_first = plan_for(following, interval=first.interval).goodput
    point, horizon = _simulated_plan(plan, at, PLAN_FAILURES, PLAN_SEED)
    return PlanAtSize(gpus=gpus, params=at, plan=plan, first=first, exact_at_first=exact_at_first, simulated=point,
                      horizon=horizon)


def restart_attempts(restart: float, mtbi: float) -> float:
    """Restarts begun, on average, for one to finish: a restart of R succeeds when no interruption comes for R, e^{R/M}.

    Capped at e^700, where a float would overflow.

    >>> round(restart_attempts(19.0, 2.0))
    13360
    """
    return math.exp(min(restart / mtbi, 700.0))


def _simulated_plan(plan: Plan, params: Params, failures: float, seed: int) -> tuple[SizePoint, float]:
    """A seeded simulation of a plan for `params` at its interval (and cadence) against its exact goodput; wall time.

    One plain tier: :func:`_simulated` (the study's); a drain, tiers or recovery without rollback:
    :func:`goodput.simulate_tiers.simulate_tiers`, over about `failures` interruptions.
    """
    if plan.tiers is None and plan.recovery is None:
        return _simulated(params.rate_per_gpu_hour, plan.checkpoint_cost, plan.restart, params.gpus, failures, seed)
    from goodput.simulate import MAX_FAILURES, MIN_RUN_RHYTHMS

    m = plan.mtbi
    rolls = m / (1.0 - (plan.recovery or (0.0,))[0])  # mean gap between the interruptions that roll back
    least = 1.01 * MIN_RUN_RHYTHMS * REPLICAS * plan_rhythm(plan)
    horizon = min(max(failures * m, least), max(least, 0.5 * MAX_FAILURES * rolls))
    run = simulate_plan(plan, horizon, replicas=REPLICAS, seed=seed)
    return SizePoint(params.gpus, plan.checkpoint_cost, run.goodput, run.stderr, plan.goodput), run.horizon


def beyond_zero(limits: FirstOrderLimits) -> int:
    """A fleet size past first order's zero: the first power of two at least 1.25 times it.

    >>> beyond_zero(first_order_limits(5.0, 5.0, 2e-5))
    262144
    """
    return int(2 ** math.ceil(math.log2(1.25 * limits.zero)))


#: The values of C/M in the table of Young's, Daly's and the exact optimum.
RATIOS = (1e-4, 1e-3, 1e-2, 0.1, 0.3, 1.0)


def estimates_sweep(mtbi: float, restart: float) -> dict[str, Any]:
    """Young's, Daly's and the exact optimum, the exact goodput and what each estimate gives up, over :data:`RATIOS`."""
    import numpy as np

    costs = np.array(RATIOS) * mtbi
    mtbis, restarts = np.full_like(costs, mtbi), np.full_like(costs, restart)
    t_y = np.asarray(model.optimal_interval(costs, mtbis))
    t_d = np.asarray(exact.daly_interval(costs, mtbis))
    t_e = np.asarray(exact.exact_optimal_interval(costs, mtbis))
    g_e = np.asarray(exact.exact_goodput(costs, mtbis, restarts))
    return {"t_y": t_y, "t_d": t_d, "t_e": t_e, "g_e": g_e,
            "short_y": g_e - np.asarray(exact.exact_goodput(costs, mtbis, restarts, t_y)),
            "short_d": g_e - np.asarray(exact.exact_goodput(costs, mtbis, restarts, t_d))}


def fleet_limits(params: Params) -> dict[str, FirstOrderLimits]:
    """Where first order stops being close for each of the study's checkpoint costs, at the fleet's rate and restart."""
    p = params
    return {key: first_order_limits(cost, p.restart, p.rate_per_gpu_hour)
            for key, cost in study_costs(p.checkpoint_cost, p.slow_checkpoint_cost).items()}


@dataclass(frozen=True)
class ScaleStudy:
    """The scale chapter's study of a fleet (:func:`scale_study`): limits by cost, the sizes drawn, the simulations."""

    limits: dict[str, FirstOrderLimits]  # :func:`fleet_limits`
    sizes: tuple[float, ...]  # the fleet sizes the study simulates and draws (:func:`study_sizes`)
    simulations: list[SizePoint]  # seeded, at the fleet's rate and restart, for each study cost and size


def scale_study(params: Params) -> ScaleStudy:
    """The study for a fleet's rate, restart and study costs, each part computed once (:attr:`FleetPlan.scale_study`)."""
    p, lims = params, fleet_limits(params)
    sizes = study_sizes(p.gpus, list(lims.values()))
    costs = list(study_costs(p.checkpoint_cost, p.slow_checkpoint_cost).values())
    return ScaleStudy(lims, sizes, simulate_sizes(p.rate_per_gpu_hour, p.restart, costs, sizes))
