"""The chapter "How far does the simple answer go" (``book/scale.md``): first order, exact and simulated by fleet size.

Every number here is the fleet's, from its inputs file: its per-GPU interruption rate,
its restart time, its two checkpoint costs and an asynchronous one that blocks training
for :data:`ASYNC_COST`. How far first order is off is measured one way on every page that
says it (this one and ``book/levers.md``): the exact goodput at the exact optimum minus the
first-order goodput at √(2CM) (:func:`goodput.exact.first_order_error`), against one point
(:data:`goodput.model.FIRST_ORDER_CAUTION`) and three points
(:data:`goodput.model.FIRST_ORDER_TOLERANCE`); :func:`first_order_limits` gives the fleet
sizes where it crosses them and :func:`error_verdict` the words for one fleet.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from goodput import exact, model
from goodput.params import Params, mtbi_from_rate
from goodput.report import percent, points
from goodput.units import format_duration, format_rate

if TYPE_CHECKING:
    import pandas as pd

#: An asynchronous checkpoint that blocks training for about 10 s, in minutes: the order PyTorch's
#: asynchronous distributed checkpoint reports for a 7B model.
ASYNC_COST = 10.0 / 60.0
#: The fleet sizes the chapter covers, GPUs.
SMALLEST, LARGEST = 1_000, 1_000_000
#: Fleet sizes simulated for each checkpoint cost.
SIM_SIZES = (1_000, 10_000, 100_000, 1_000_000)
#: Expected interruptions simulated at each point: the horizon is this many M.
FAILURES_PER_POINT = 200_000
#: The fleet size of the worked plan at scale, GPUs.
PLAN_GPUS = 100_000
#: Expected interruptions simulated for that plan.
PLAN_FAILURES = 1_000_000
#: Seed of the simulation of that plan.
PLAN_SEED = 99


def gpus_text(n: float) -> str:
    """A fleet size as a count of GPUs, ``"22,862"`` (rounded to a whole GPU)."""
    return f"{n:,.0f}"


def costs(params: Params) -> dict[str, float]:
    """The three checkpoint costs the chapter follows, in minutes.

    The slow and the fast one of the inputs, and an asynchronous one of :data:`ASYNC_COST`.

    Parameters
    ----------
    params : Params
        The fleet's inputs.

    Returns
    -------
    dict of str to float
        Keyed ``"slow"``, ``"fast"`` and ``"async"``, in that order.
    """
    return {"slow": params.slow_checkpoint_cost, "fast": params.checkpoint_cost, "async": ASYNC_COST}


# --------------------------------------------------------------------------- how far first order holds


@dataclass(frozen=True)
class FirstOrderLimits:
    """The fleet sizes where first order stops being close, at a constant per-GPU rate.

    Parameters
    ----------
    checkpoint_cost, restart : float
        C and R in minutes.
    rate_per_gpu_hour : float
        Interruptions per GPU-hour.
    one_point : float
        GPUs beyond which first order is off by more than one point (:data:`model.FIRST_ORDER_CAUTION`).
    three_points : float
        GPUs beyond which it is off by more than three points (:data:`model.FIRST_ORDER_TOLERANCE`).
    zero : float
        GPUs at which the first-order goodput at √(2CM) reaches zero.
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

    Parameters
    ----------
    checkpoint_cost, restart : float
        C and R in minutes.
    rate_per_gpu_hour : float
        Interruptions per GPU-hour.

    Returns
    -------
    FirstOrderLimits
        From :func:`goodput.exact.first_order_error_threshold` and :func:`goodput.exact.first_order_zero_fleet`.
    """
    return FirstOrderLimits(
        checkpoint_cost=checkpoint_cost, restart=restart, rate_per_gpu_hour=rate_per_gpu_hour,
        one_point=exact.first_order_error_threshold(checkpoint_cost, restart, rate_per_gpu_hour,
                                                    model.FIRST_ORDER_CAUTION),
        three_points=exact.first_order_error_threshold(checkpoint_cost, restart, rate_per_gpu_hour,
                                                       model.FIRST_ORDER_TOLERANCE),
        zero=exact.first_order_zero_fleet(checkpoint_cost, restart, rate_per_gpu_hour),
    )


def error_verdict(error: float) -> str:
    """What a first-order error (exact minus first order, a fraction of 1) means for quoting first order.

    Up to one point (:data:`model.FIRST_ORDER_CAUTION`) first order is close enough to quote; up to three
    points (:data:`model.FIRST_ORDER_TOLERANCE`) only with a caution; beyond, not at all.

    Parameters
    ----------
    error : float
        From :func:`goodput.exact.first_order_error`.

    Returns
    -------
    str
        ``"close enough to quote"``, ``"to be quoted only with a caution"`` or ``"too far off to quote"``.
    """
    if error <= model.FIRST_ORDER_CAUTION:
        return "close enough to quote"
    if error <= model.FIRST_ORDER_TOLERANCE:
        return "to be quoted only with a caution"
    return "too far off to quote"


def close_enough(error: float) -> bool:
    """Whether first order is close enough to be quoted at all: off by no more than three points."""
    return error <= model.FIRST_ORDER_TOLERANCE


# --------------------------------------------------------------------------- the opening


def opening(params: Params) -> dict[str, str]:
    """The opening's numbers: the fleet's rate and restart, the range of sizes, and the three checkpoint costs.

    Parameters
    ----------
    params : Params
        The fleet's inputs.

    Returns
    -------
    dict of str to str
        ``rate``, ``restart``, ``smallest``, ``largest``, ``gpus``, ``slow_text``, ``fast_text``, ``async_text``,
        and ``tier_note`` (a sentence when the inputs describe a drain or a persistent tier, which this chapter
        leaves out; empty otherwise).
    """
    note = (" This fleet's drain and persistent tier are left out here: the chapter follows one checkpoint of each "
            "cost that is safe as soon as it is taken, so its numbers for the fast checkpoint are not the "
            "recommendation's, which count them.") if params.tiered else ""
    out = {"rate": format_rate(params.rate_per_gpu_hour), "restart": format_duration(params.restart),
           "smallest": gpus_text(SMALLEST), "largest": gpus_text(LARGEST), "gpus": gpus_text(params.gpus),
           "tier_note": note}
    out |= {f"{key}_text": format_duration(cost) for key, cost in costs(params).items()}
    return out


# --------------------------------------------------------------------------- three models


@dataclass(frozen=True)
class SimulatedPoints:
    """Simulated goodput at the exact optimum for each checkpoint cost and fleet size.

    Parameters
    ----------
    points : dict of float to (list, list, list)
        For each cost: fleet sizes, simulated goodput, standard errors.
    deviations : tuple of float
        |simulated - exact| / standard error, every point.
    stderrs : tuple of float
        The standard errors, every point.
    """

    points: dict[float, tuple[list[float], list[float], list[float]]]
    deviations: tuple[float, ...]
    stderrs: tuple[float, ...]


@lru_cache(maxsize=4)
def _simulate_points(rate: float, restart: float, cost_values: tuple[float, ...]) -> SimulatedPoints:
    from goodput.simulate import simulate

    out: dict[float, tuple[list[float], list[float], list[float]]] = {}
    deviations: list[float] = []
    stderrs: list[float] = []
    for seed, cost in enumerate(cost_values):
        values: list[float] = []
        errors: list[float] = []
        for n in SIM_SIZES:
            m = float(mtbi_from_rate(rate, n))
            t = float(exact.exact_optimal_interval(cost, m))
            run = simulate(cost, m, restart, t, FAILURES_PER_POINT * m, seed=seed * len(SIM_SIZES) + len(values))
            values.append(run.goodput)
            errors.append(run.stderr)
            deviations.append(abs(run.goodput - float(exact.exact_goodput(cost, m, restart))) / run.stderr)
            stderrs.append(run.stderr)
        out[cost] = ([float(n) for n in SIM_SIZES], values, errors)
    return SimulatedPoints(points=out, deviations=tuple(deviations), stderrs=tuple(stderrs))


def simulated_points(params: Params) -> SimulatedPoints:
    """The seeded simulations behind the chapter's figure (cached: the figure and the sentences share them).

    Parameters
    ----------
    params : Params
        The fleet's inputs.

    Returns
    -------
    SimulatedPoints
        One point per checkpoint cost of :func:`costs` and size of :data:`SIM_SIZES`.
    """
    return _simulate_points(params.rate_per_gpu_hour, params.restart, tuple(costs(params).values()))


def models(params: Params) -> dict[str, str]:
    """What the simulations show: how many points, how many interruptions each, how close to the exact model.

    Parameters
    ----------
    params : Params
        The fleet's inputs.

    Returns
    -------
    dict of str to str
        ``sim_count``, ``failures_per_point``, ``max_sigma`` (standard errors) and ``max_stderr`` (points).
    """
    sim = simulated_points(params)
    return {"sim_count": str(len(sim.deviations)), "failures_per_point": f"{FAILURES_PER_POINT:,}",
            "max_sigma": f"{max(sim.deviations):.1f}", "max_stderr": points(max(sim.stderrs), 2)}


def models_figure(params: Params) -> dict[str, Any]:
    """The arguments of :func:`goodput.book.scale_figures.goodput_vs_fleet` for this fleet (its size marked)."""
    return {"rate_per_gpu_hour": params.rate_per_gpu_hour, "restart": params.restart,
            "costs": list(costs(params).values()), "simulated": simulated_points(params).points,
            "gpus": (float(SMALLEST), float(LARGEST)), "fleet": float(params.gpus)}


# --------------------------------------------------------------------------- where first order stops


def thresholds(params: Params) -> dict[str, str]:
    """Where first order stops being close, for each of the three checkpoint costs, and how far off it is here.

    Parameters
    ----------
    params : Params
        The fleet's inputs.

    Returns
    -------
    dict of str to str
        ``{slow,fast,async}_one_point``, ``_three_points`` and ``_zero`` (GPUs); ``own_fast`` and ``own_slow``
        (sentences on the fleet's own error with each of its checkpoint costs); ``one_point`` and
        ``three_points`` (the two tolerances in points).
    """
    out = {"one_point": points(model.FIRST_ORDER_CAUTION, 0), "three_points": points(model.FIRST_ORDER_TOLERANCE, 0)}
    for key, cost in costs(params).items():
        limits = first_order_limits(cost, params.restart, params.rate_per_gpu_hour)
        out[f"{key}_one_point"] = gpus_text(limits.one_point)
        out[f"{key}_three_points"] = gpus_text(limits.three_points)
        out[f"{key}_zero"] = gpus_text(limits.zero)
    for key, cost in (("fast", params.checkpoint_cost), ("slow", params.slow_checkpoint_cost)):
        error = float(exact.first_order_error(cost, params.mtbi, params.restart))
        out[f"own_{key}"] = (f"with C = {format_duration(cost)} first order is {points(error)} below the exact "
                             f"goodput, {error_verdict(error)}")
    return out


def thresholds_table(params: Params) -> dict[str, Any]:
    """The table of thresholds by checkpoint cost, as arguments of :func:`goodput.book.tables.book_table`."""
    import pandas as pd

    rows = []
    for cost in costs(params).values():
        limits = first_order_limits(cost, params.restart, params.rate_per_gpu_hour)
        rows.append({
            "checkpoint cost": format_duration(cost),
            "1 point: GPUs": gpus_text(limits.one_point),
            "1 point: M": format_duration(limits.mtbi_at(limits.one_point)),
            "3 points: GPUs": gpus_text(limits.three_points),
            "3 points: M": format_duration(limits.mtbi_at(limits.three_points)),
            "zero: GPUs": gpus_text(limits.zero),
        })
    frame: pd.DataFrame = pd.DataFrame(rows)
    caption = (f"The fleet sizes (and M there) beyond which the first-order goodput at √(2CM) is more than 1 point "
               f"and more than 3 points below the exact goodput at the exact optimum, and at which it reaches zero, at "
               f"{format_rate(params.rate_per_gpu_hour)} interruptions per GPU-hour and R = "
               f"{format_duration(params.restart)}.")
    return {"frame": frame, "caption": caption, "right": list(frame.columns)}


# --------------------------------------------------------------------------- a plan at scale


@dataclass(frozen=True)
class ScalePlan:
    """The fast checkpoint at :data:`PLAN_GPUS` GPUs by first order, the exact model and a simulation.

    Parameters
    ----------
    mtbi : float
        M there, minutes.
    first_interval, first_goodput : float
        First order's √(2CM) and its goodput.
    exact_interval, exact_goodput : float
        The exact optimum and the exact goodput there.
    exact_at_first : float
        The exact goodput at first order's interval.
    simulated, stderr, horizon : float
        The simulated goodput at the exact optimum, its standard error and the simulated wall time (minutes).
    """

    mtbi: float
    first_interval: float
    first_goodput: float
    exact_interval: float
    exact_goodput: float
    exact_at_first: float
    simulated: float
    stderr: float
    horizon: float


@lru_cache(maxsize=4)
def _scale_plan(rate: float, cost: float, restart: float) -> ScalePlan:
    from goodput.simulate import simulate

    m = float(mtbi_from_rate(rate, PLAN_GPUS))
    t_first = float(model.optimal_interval(cost, m))
    t_exact = float(exact.exact_optimal_interval(cost, m))
    run = simulate(cost, m, restart, t_exact, PLAN_FAILURES * m, seed=PLAN_SEED)
    return ScalePlan(mtbi=m, first_interval=t_first, first_goodput=float(model.goodput(cost, m, restart)),
                     exact_interval=t_exact, exact_goodput=float(exact.exact_goodput(cost, m, restart)),
                     exact_at_first=float(exact.exact_goodput(cost, m, restart, t_first)),
                     simulated=run.goodput, stderr=run.stderr, horizon=run.horizon)


def scale_plan(params: Params) -> ScalePlan:
    """The plan at :data:`PLAN_GPUS` GPUs for the fleet's per-GPU rate, fast checkpoint and restart (cached)."""
    return _scale_plan(params.rate_per_gpu_hour, params.checkpoint_cost, params.restart)


def plan_at_scale(params: Params) -> dict[str, str]:
    """The sentences of the plan at :data:`PLAN_GPUS` GPUs.

    Parameters
    ----------
    params : Params
        The fleet's inputs.

    Returns
    -------
    dict of str to str
        Keys prefixed ``plan_``: the size, M, C, both models' interval and goodput, their gap, how far first
        order is off (:func:`error_verdict`), the simulation and what first order's interval would cost.
    """
    p = scale_plan(params)
    error = float(exact.first_order_error(params.checkpoint_cost, p.mtbi, params.restart))
    years = p.horizon / (365.0 * 24.0 * 60.0)
    return {
        "plan_gpus": gpus_text(PLAN_GPUS),
        "plan_mtbi": format_duration(p.mtbi),
        "plan_cost": format_duration(params.checkpoint_cost),
        "plan_first_interval": format_duration(p.first_interval),
        "plan_first_goodput": percent(p.first_goodput),
        "plan_verdict": f"first order is {error_verdict(error)} there",
        "plan_exact_interval": format_duration(p.exact_interval),
        "plan_exact_goodput": percent(p.exact_goodput),
        "plan_gap": points(p.exact_goodput - p.first_goodput),
        "plan_years": f"{years:,.0f} years",
        "plan_simulated": percent(p.simulated),
        "plan_stderr": points(p.stderr, 2),
        "plan_sigma": f"{abs(p.simulated - p.exact_goodput) / p.stderr:.1f}",
        "plan_exact_at_first": percent(p.exact_at_first),
        "plan_interval_cost": points(p.exact_goodput - p.exact_at_first, 2),
    }


def plan_table(params: Params) -> dict[str, Any]:
    """The plan at :data:`PLAN_GPUS` GPUs as a table, as arguments of :func:`goodput.book.tables.book_table`."""
    import pandas as pd

    p = scale_plan(params)
    frame = pd.DataFrame({
        "": ["interval", "goodput"],
        "first order": [format_duration(p.first_interval), percent(p.first_goodput)],
        "exact model": [format_duration(p.exact_interval), percent(p.exact_goodput)],
        "simulated at the exact interval": ["", f"{percent(p.simulated)} ± {points(p.stderr, 2)}"],
    })
    caption = (f"A {gpus_text(PLAN_GPUS)}-GPU plan at {format_rate(params.rate_per_gpu_hour)} interruptions per "
               f"GPU-hour: C = {format_duration(params.checkpoint_cost)}, R = {format_duration(params.restart)}, "
               f"M = {format_duration(p.mtbi)}.")
    return {"frame": frame, "caption": caption, "right": ["first order", "exact model",
                                                          "simulated at the exact interval"]}


# --------------------------------------------------------------------------- below zero


def beyond_zero_size(params: Params) -> int:
    """A fleet size past the slow checkpoint's first-order zero: the first power of two at least 1.25 times it."""
    zero = exact.first_order_zero_fleet(params.slow_checkpoint_cost, params.restart, params.rate_per_gpu_hour)
    return int(2 ** math.ceil(math.log2(1.25 * zero)))


def below_zero(params: Params) -> dict[str, str]:
    """The sentences on where first order goes below zero, with the slow checkpoint.

    Parameters
    ----------
    params : Params
        The fleet's inputs.

    Returns
    -------
    dict of str to str
        ``zero_gpus`` (where the first-order goodput reaches zero), ``big`` (a size past it), ``big_mtbi``,
        ``big_first`` and ``big_exact`` (the goodput by each model there), ``big_interval`` (the exact optimum).
    """
    slow = params.slow_checkpoint_cost
    big = beyond_zero_size(params)
    m = float(mtbi_from_rate(params.rate_per_gpu_hour, big))
    return {
        "zero_gpus": gpus_text(exact.first_order_zero_fleet(slow, params.restart, params.rate_per_gpu_hour)),
        "big": gpus_text(big),
        "big_mtbi": format_duration(m),
        "big_first": percent(float(model.goodput(slow, m, params.restart))),
        "big_exact": percent(float(exact.exact_goodput(slow, m, params.restart))),
        "big_interval": format_duration(float(exact.exact_optimal_interval(slow, m))),
    }
