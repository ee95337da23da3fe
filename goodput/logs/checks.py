"""What the logs chapter computes beyond measuring: the shape test's trust, a shape's effect on goodput, own ranges.

Numbers only, seeded; :mod:`goodput.pages.logs` words them.
"""

from __future__ import annotations

from dataclasses import dataclass

from goodput.errors import InputError
from goodput.fleet import FleetPlan
from goodput.logs.events import EventMeasurement
from goodput.logs.fit import ShapeEffect, WeibullFit, coverage, power, shape_effect, shape_test
from goodput.logs.measure import Measurement
from goodput.plan import RECOMMENDED_MODEL, Plan
from goodput.simulate import MAX_SHAPE, MIN_SHAPE
from goodput.uncertainty import Propagation, propagate
from goodput.units import significant

#: The Weibull shape the failures chapter takes as "high infant mortality".
INFANT_SHAPE = 0.5
#: Samples simulated to measure the interval's coverage and the test's power.
TRIALS = 2000
#: Length of each goodput simulation in all, in mean gaps between failures (split over the runs).
SIM_FAILURES = 200_000
#: Seeds of the simulations on this page.
COVERAGE_SEED, POWER_SEED, SIZE_SEED, EFFECT_SEED = 1301, 1302, 1303, 1304
#: Below this many points either way, a shape's effect on goodput is "a fraction of a point".
SMALL_EFFECT = 0.005


@dataclass(frozen=True)
class ShapeTrust:
    """How far an event log's shape test can be trusted, simulated at its number of gaps (:func:`shape_trust`).

    ``p_infant`` the p-value of shape :data:`INFANT_SHAPE` (the open gap censored); ``coverage`` of the shape's interval
    at the fitted shape (rounded to 3 decimals), ``size`` the test's false alarms at shape 1, ``power`` its detection
    of shape :data:`INFANT_SHAPE`, each over ``trials`` samples (:data:`TRIALS`), the test at ``level`` (one minus the
    fit's confidence, as its verdict takes it).
    """

    trials: int
    p_infant: float
    coverage: float
    size: float
    power: float
    level: float


def shape_trust(events: EventMeasurement, fit: WeibullFit) -> ShapeTrust:
    """The shape test's p-value at :data:`INFANT_SHAPE` and its coverage, size and power (seeded)."""
    _, p_half = shape_test(events.gaps, INFANT_SHAPE, [events.open_gap_min])
    level = 1.0 - fit.confidence  # the test's level, as the fit's verdict takes it
    cover = coverage(round(fit.shape, 3), fit.gaps, confidence=fit.confidence, trials=TRIALS, seed=COVERAGE_SEED)
    detect = power(INFANT_SHAPE, fit.gaps, level=level, trials=TRIALS, seed=POWER_SEED)
    size = power(1.0, fit.gaps, level=level, trials=TRIALS, seed=SIZE_SEED)
    return ShapeTrust(TRIALS, p_half, cover, size, detect, level)


@dataclass(frozen=True)
class FleetShapeEffect:
    """A shape's simulated effect on the fleet's goodput (:func:`fleet_shape_effect`).

    ``job`` the plan simulated (the fleet's where its scheme is the model of C, M and R alone, else the job of its C, M
    and R alone), ``shapes`` the fitted shape, its interval's ends
    (kept inside the simulator's limits) and :data:`INFANT_SHAPE`, 3 significant digits; ``effect`` the simulation
    (None where refused, ``refused`` saying why), ``largest`` the largest difference from exponential failures among
    the first three shapes and ``small`` whether it is below :data:`SMALL_EFFECT`.
    """

    job: Plan
    shapes: tuple[float, ...]
    effect: ShapeEffect | None
    refused: str
    largest: float
    small: bool


def fleet_shape_effect(fleet: FleetPlan, fit: WeibullFit) -> FleetShapeEffect:
    """Goodput with Weibull failures of the fitted shapes against exponential ones, at the job's interval (seeded).

    The job is the fleet's plan where that plan is the model of C, M and R alone (:attr:`FleetPlan.plain`), else the job
    of its C, M and R alone at that job's own exact optimum: no drain, no persistent tier, no just-in-time recovery and
    no planned stops, none of which the Weibull simulator models.
    """
    p = fleet.params
    job = fleet.alone
    low, high = fit.shape_interval
    shapes = tuple(float(significant(k, 3)) for k in (fit.shape, max(low, MIN_SHAPE), min(high, MAX_SHAPE),
                                                       INFANT_SHAPE))
    try:
        effect = shape_effect(p.checkpoint_cost, p.mtbi, p.restart, job.interval, list(shapes),
                              failures=SIM_FAILURES, seed=EFFECT_SEED)
    except InputError as error:
        return FleetShapeEffect(job, shapes, None, str(error), 0.0, False)
    largest = max(abs(x) for x in effect.difference[:3])
    return FleetShapeEffect(job, shapes, effect, "", largest, largest < SMALL_EFFECT)


def own_ranges(m: Measurement) -> Propagation | None:
    """T* and goodput over the intervals the logs measured (the recommended model); None with too few restarts."""
    if not (m.failures and m.restart_samples >= 2):
        return None
    return propagate(m.checkpoint_cost_min, m.mtbi_min, m.restart_min,
                     checkpoint_cost_range=m.checkpoint_cost_interval_min, mtbi_range=m.mtbi_interval_min,
                     restart_range=m.restart_interval_min, which=RECOMMENDED_MODEL)


def m_against_logs(own: Measurement | EventMeasurement, mtbi: float) -> str:
    """Where the M a fleet plans with lies against the interval its own logs give M.

    ``inside``, ``outside``, or ``none`` where the logs count no failure (only a lower bound).
    """
    if not own.failures:
        return "none"
    low, high = own.mtbi_interval_min
    return "inside" if low <= mtbi <= high else "outside"
