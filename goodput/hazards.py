"""Failures that are not independent: the failures chapter's study, computed once for a fleet.

The run-age, renewal and burst studies use the one-tier model of the fleet's C, M and R (the simulator knows one tier,
safe as soon as written): with a drain or a persistent tier their numbers are not the fleet's plan. The elastic study
goes through the whole scheme (:func:`elastic_params`). Every simulation is seeded (:data:`SEEDS`); the assumptions are
the constants below. Durations in minutes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from goodput import exact, tiers
from goodput.params import Params
from goodput.simulate import (
    DEFAULT_BURST_WINDOW,
    DEFAULT_REPLICAS,
    MIN_RUN_RHYTHMS,
    Comparison,
    FailureProcess,
    SimulationResult,
    compare_intervals,
    effective_mtbi,
    run_age_mtbi,
    run_age_schedule,
    simulate,
)
from goodput.units import DAY

#: Weibull shape of the "high infant mortality" case checkpointing research is reported to use.
SHAPE = 0.5
#: One run, over which M is the average under the run-age hazard: the length of the published Llama 3 snapshot
#: (an assumption: the inputs give no run length).
RUN_LENGTH = 54 * DAY
#: The first period of the two-period schedule, as run age in a run of :data:`RUN_LENGTH` (scaled with the run).
FIRST_WEEK = 7 * DAY
#: Where the six-period schedule changes interval, run ages in a run of :data:`RUN_LENGTH` (scaled with the run).
SIX_PERIODS = (1 * DAY, 3 * DAY, 7 * DAY, 15 * DAY, 30 * DAY)
#: Simulated runs of the run-age and renewal comparisons, at most; fewer when they would hold too many failures.
RUNS = 1_000
#: Fewest simulated runs of a comparison.
FEWEST_RUNS = DEFAULT_REPLICAS
#: Most failures expected over all the runs of one comparison (keeps the chapter fast for any fleet).
MAX_FAILURES = 2_000_000
#: A fixed interval this many times the exact optimum, tried under the renewal hazard.
LONGER = 1.25
#: Assumed share of interruptions followed by another within the burst window.
BURST_PROBABILITY = 0.25
#: The burst window, minutes.
BURST_WINDOW = DEFAULT_BURST_WINDOW
#: Independent interruptions (mean gaps M) simulated in the burst comparison, at least.
BURST_INTERRUPTIONS = 2_000_000
#: Runs the burst simulations are split into (their standard errors are over them).
BURST_RUNS = DEFAULT_REPLICAS
#: Assumed share of interruptions that also take the latest checkpoint.
LOST_SHARE = 0.1
#: Minutes an elastic job takes to continue on fewer nodes after an interruption, instead of a full restart.
ELASTIC_RESTART = 1.0
#: Seeds of the simulations.
SEEDS = {"early": 11, "early_slow": 12, "renewal": 13, "bursts": 21, "independent": 22}
#: A simulated difference is called a change when it is at least this many standard errors from zero.
SIGNIFICANT = 2.0


def measurable(x: float, se: float) -> bool:
    """Whether a simulated difference is at least :data:`SIGNIFICANT` standard errors from zero (and not nil)."""
    return abs(x) >= SIGNIFICANT * se and abs(x) >= 1e-6


def run_length(checkpoint_cost: float, slow_checkpoint_cost: float, mtbi: float, restart: float) -> float:
    """One simulated run in minutes: :data:`RUN_LENGTH`, unless the inputs need a longer or a shorter one.

    Longer when a run must hold :data:`goodput.simulate.MIN_RUN_RHYTHMS` checkpoint cycles (T + C + R) of the longest
    interval tried (a small fleet's slow checkpoint); shorter when :data:`FEWEST_RUNS` runs of 54 days would hold more
    than :data:`MAX_FAILURES` failures (a very short M).

    >>> run_length(1.0, 5.0, 185.6, 5.0) / DAY
    54.0
    """
    # A period's M under the run-age hazard of shape 1/2 is at most 2M, so no schedule's interval is longer than
    # the optimum for 2M; the renewal comparison also tries LONGER times the optimum for M.
    longest = max(max(float(exact.exact_optimal_interval(cost, 2.0 * mtbi)),
                      LONGER * float(exact.exact_optimal_interval(cost, mtbi))) + cost
                  for cost in (checkpoint_cost, slow_checkpoint_cost))
    least = 1.01 * MIN_RUN_RHYTHMS * (longest + restart)
    most = MAX_FAILURES * mtbi / FEWEST_RUNS
    return max(least, min(RUN_LENGTH, most))


def runs(mtbi: float, length: float) -> int:
    """Simulated runs per comparison: :data:`RUNS`, fewer (not below :data:`FEWEST_RUNS`) within :data:`MAX_FAILURES`."""
    return max(FEWEST_RUNS, min(RUNS, int(MAX_FAILURES * mtbi / length)))


def periods(length: float) -> tuple[float, tuple[float, ...]]:
    """The first period and the six-period boundaries for a run of `length` minutes (scaled from 54 days)."""
    scale = length / RUN_LENGTH
    return FIRST_WEEK * scale, tuple(b * scale for b in SIX_PERIODS)


@dataclass(frozen=True)
class RunAge:
    """The run-age hazard over one run (one tier): the run, the two schedules, and M early and late.

    Minutes of run age; each schedule is ``(until, interval)`` pairs, each period at the exact optimum for its own M;
    `first_share` is the share of the run's interruptions in the first period.
    """

    length: float
    first: float
    six: tuple[float, ...]
    fixed: float
    two_schedule: list[tuple[float, float]]
    six_schedule: list[tuple[float, float]]
    m_first: float
    m_rest: float
    first_share: float


def run_age(checkpoint_cost: float, slow_checkpoint_cost: float, mtbi: float, restart: float) -> RunAge:
    """The run-age hazard's numbers for one tier (no simulation): the run, the schedules, M early and late.

    >>> r = run_age(1.0, 5.0, 185.6, 5.0)
    >>> round(r.first_share, 2), round(r.m_first / 185.6, 3)
    (0.36, 0.36)
    """
    length = run_length(checkpoint_cost, slow_checkpoint_cost, mtbi, restart)
    first, six = periods(length)
    m_first = run_age_mtbi(mtbi, SHAPE, 0.0, first, length)
    return RunAge(
        length=length, first=first, six=six, fixed=float(exact.exact_optimal_interval(checkpoint_cost, mtbi)),
        two_schedule=run_age_schedule(checkpoint_cost, mtbi, SHAPE, [first], length),
        six_schedule=run_age_schedule(checkpoint_cost, mtbi, SHAPE, list(six), length),
        m_first=m_first, m_rest=run_age_mtbi(mtbi, SHAPE, first, length, length),
        first_share=(first / m_first) / (length / mtbi),
    )


@dataclass(frozen=True)
class Simulated:
    """The chapter's simulations of one tier, each seeded (:data:`SEEDS`)."""

    early: Comparison  # run-age hazard: fixed optimum, two periods, six periods
    early_slow: Comparison  # the same with the slow checkpoint: fixed, two periods
    renewal: Comparison  # renewal hazard: fixed optimum, two periods, LONGER x the optimum
    bursts: Comparison  # bursts: fixed optimum, re-tuned to all interruptions
    independent: SimulationResult  # no bursts, fixed optimum, as long as the burst simulations
    age: RunAge  # the run-age schedules simulated (:func:`run_age`)


def burst_horizon(checkpoint_cost: float, mtbi: float, restart: float, interval: float) -> float:
    """Wall time of the burst simulations: :data:`BURST_INTERRUPTIONS` M, or enough cycles for unbiased runs."""
    return max(BURST_INTERRUPTIONS * mtbi, 1.01 * MIN_RUN_RHYTHMS * BURST_RUNS * (interval + checkpoint_cost + restart))


def simulations(checkpoint_cost: float, slow_checkpoint_cost: float, mtbi: float, restart: float) -> Simulated:
    """Every simulation of the chapter for one tier of C, the slow C, M and R (seeded: same inputs, same numbers)."""
    c, cs, m, r = checkpoint_cost, slow_checkpoint_cost, mtbi, restart
    age = run_age(c, cs, m, r)
    slow_age = run_age(cs, c, m, r)
    n_runs = runs(m, age.length)
    horizon = n_runs * age.length
    run_age_process = FailureProcess("weibull", shape=SHAPE, hazard="run-age")
    renewal = FailureProcess("weibull", shape=SHAPE, hazard="renewal")
    m_all = effective_mtbi(m, BURST_PROBABILITY, BURST_WINDOW)
    bursts = FailureProcess(burst_probability=BURST_PROBABILITY, burst_window=BURST_WINDOW)
    fixed = age.fixed
    t_all = float(exact.exact_optimal_interval(c, m_all))
    burst_time = burst_horizon(c, m, r, max(fixed, t_all))
    return Simulated(
        early=compare_intervals(c, m, r, [fixed, age.two_schedule, age.six_schedule], horizon,
                                process=run_age_process, replicas=n_runs, seed=SEEDS["early"]),
        early_slow=compare_intervals(cs, m, r, [slow_age.fixed, slow_age.two_schedule], horizon,
                                     process=run_age_process, replicas=n_runs, seed=SEEDS["early_slow"]),
        renewal=compare_intervals(c, m, r, [fixed, age.two_schedule, LONGER * fixed], horizon, process=renewal,
                                  replicas=n_runs, seed=SEEDS["renewal"]),
        bursts=compare_intervals(c, m, r, [fixed, t_all], burst_time, process=bursts, replicas=BURST_RUNS,
                                 seed=SEEDS["bursts"]),
        independent=simulate(c, m, r, fixed, burst_time, replicas=BURST_RUNS, seed=SEEDS["independent"]), age=age,
    )


def burst_goodput(checkpoint_cost: float, mtbi: float, restart: float, interval: float,
                  burst_probability: float = BURST_PROBABILITY, burst_window: float = BURST_WINDOW) -> float:
    """Goodput under the simulator's burst rule at a fixed interval, by the renewal-reward theorem (no simulation).

    With p = 0 it is the exact model's T e^{-R/M} / (M (e^{(T + C)/M} - 1)).

    After every interruption the next gap X is uniform on (0, w) with probability p, else exponential with mean M; each
    gap starts with a restart of R (cut short by the next interruption) and keeps T of work for each whole T + C it
    computes. So goodput is E[kept(X)] / E[X], with E[X] = (1 - p) M + p w/2 and E[kept(X)] = T sum over k >= 1 of P(X
    >= R + k (T + C)), a geometric series for the exponential part and a finite sum for the uniform one. It leaves out
    each run's first and last gap, as a long run does.

    >>> round(100 * burst_goodput(1.0, 185.6, 5.0, 18.6), 2)
    86.8
    >>> abs(burst_goodput(1.0, 185.6, 5.0, 18.6, 0.0) - exact.exact_goodput(1.0, 185.6, 5.0, 18.6)) < 1e-12
    True
    """
    c, m, r, t, p, w = checkpoint_cost, mtbi, restart, interval, burst_probability, burst_window
    cycle = t + c
    exponential = math.exp(-r / m) / math.expm1(cycle / m)
    whole = max(0, math.floor((w - r) / cycle)) if w > r else 0
    uniform = whole * (1.0 - r / w) - cycle * whole * (whole + 1) / (2.0 * w)
    return t * ((1.0 - p) * exponential + p * uniform) / ((1.0 - p) * m + p * w / 2.0)


@dataclass(frozen=True)
class LostCheckpoint:
    """A share q of interruptions also takes the latest checkpoint: one tier by the two-tier model (exact).

    `interval` is the single-level exact optimum and `safe` the goodput there with q = 0, `shared` with q;
    `first_order_cost` is q (T + C)/M; `retuned` is the goodput at the interval best with q (the drain moving with it).
    """

    lost_share: float
    interval: float
    safe: float
    shared: float
    first_order_cost: float
    retuned_interval: float
    retuned: float

    @property
    def cost(self) -> float:
        """Goodput lost at the same interval."""
        return self.safe - self.shared

    @property
    def retune_gain(self) -> float:
        """Goodput won back by re-tuning the interval."""
        return self.retuned - self.shared

    @property
    def domain_ratio(self) -> float:
        """How many times more a separate failure domain wins back than re-tuning does."""
        return self.cost / self.retune_gain if self.retune_gain > 0 else math.inf


def lost_checkpoint(checkpoint_cost: float, mtbi: float, restart: float,
                    lost_share: float = LOST_SHARE) -> LostCheckpoint:
    """The numbers of a checkpoint lost with the job, by :func:`goodput.tiers.lost_checkpoint_tiers` (exact).

    >>> n = lost_checkpoint(1.0, 185.6, 5.0)
    >>> round(100 * n.safe, 2), round(100 * n.shared, 2), round(n.domain_ratio)
    (87.58, 86.6, 20)
    """
    c, m, r, q = checkpoint_cost, mtbi, restart, lost_share
    t = float(exact.exact_optimal_interval(c, m))
    best = tiers.lost_checkpoint_optimal_interval(c, m, r, q)
    return LostCheckpoint(
        lost_share=q, interval=t, safe=float(exact.exact_goodput(c, m, r, t)),
        shared=tiers.exact_goodput(tiers.lost_checkpoint_tiers(c, r, q, t), m, t),
        first_order_cost=q * (t + c) / m, retuned_interval=best,
        retuned=tiers.exact_goodput(tiers.lost_checkpoint_tiers(c, r, q, best), m, best),
    )


def elastic_restart(restart: float) -> float:
    """The effective restart of an elastic job: :data:`ELASTIC_RESTART`, or half the full restart if that is shorter.

    >>> elastic_restart(5.0), elastic_restart(1.5)
    (1.0, 0.75)
    """
    return min(ELASTIC_RESTART, restart / 2.0)


def elastic_params(params: Params) -> Params:
    """A fleet's inputs for elastic continuation, its whole scheme kept.

    R becomes :func:`elastic_restart` of R, and a persistent restart R_p becomes that plus R_p - R: continuing on fewer
    nodes saves the wait for replacement hardware, not the read of the persistent copy. A planned stop's restart stays
    as it was (:attr:`goodput.params.Params.stop_saving` moves by R's change).

    >>> from goodput.params import load_params
    >>> e = elastic_params(load_params().replace(persistent_cost=3.0, persistent_restart=12.0))
    >>> e.restart, e.persistent_restart
    (1.0, 8.0)
    """
    short = elastic_restart(params.restart)
    # a planned stop stops the whole job: it restarts as before, not on fewer nodes
    saving = params.stop_saving + short - params.restart
    if params.persistent_cost is None:
        return params.replace(restart=short, stop_saving=saving)
    rp = params.restart if params.persistent_restart is None else params.persistent_restart
    return params.replace(restart=short, persistent_restart=short + (rp - params.restart), stop_saving=saving)
