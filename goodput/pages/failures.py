"""The chapter "When failures are not independent": its numbers and sentences.

Every function takes the book's inputs (:class:`goodput.params.Params`) and returns
what the chapter glues: text, each duration through
:func:`goodput.units.format_duration`, each share as a percentage and each
difference in points. Simulated numbers carry their standard error and come from
seeded runs of :mod:`goodput.simulate`; the rest comes from the exact model of
exponential failures (:mod:`goodput.exact`) and, for a checkpoint lost with the job,
from the two-tier model (:mod:`goodput.tiers`). The chapter's assumptions are the
constants below.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from goodput import exact, tiers
from goodput.params import Params
from goodput.plan import levers
from goodput.report import percent
from goodput.simulate import (
    DEFAULT_BURST_WINDOW,
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
from goodput.units import DAY, format_duration

if TYPE_CHECKING:
    import pandas as pd

#: Weibull shape of the "high infant mortality" case checkpointing research is reported to use.
SHAPE = 0.5
#: One run, over which M is the average under the run-age hazard: the length of the Llama 3 snapshot.
RUN_LENGTH = 54 * DAY
#: The short first period of the two-period schedule.
FIRST_WEEK = 7 * DAY
#: Where the six-period schedule changes interval (run ages).
SIX_PERIODS = (1 * DAY, 3 * DAY, 7 * DAY, 15 * DAY, 30 * DAY)
#: Simulated runs of the run-age and renewal comparisons, at most; fewer when a run holds very many failures.
RUNS = 1_000
#: Most failures expected over all the runs of one comparison (keeps the chapter fast for any fleet).
MAX_FAILURES = 2_000_000
#: A fixed interval this many times the exact optimum, tried under the renewal hazard.
LONGER = 1.25
#: Assumed share of interruptions followed by another within the burst window.
BURST_PROBABILITY = 0.25
#: The burst window, minutes.
BURST_WINDOW = DEFAULT_BURST_WINDOW
#: Independent interruptions simulated in the burst comparison.
BURST_INTERRUPTIONS = 400_000
#: Assumed share of interruptions that also take the latest checkpoint.
LOST_SHARE = 0.1
#: An elastic continuation's effective restart, minutes (or half of R, when R is under twice this).
ELASTIC_RESTART = 1.0
#: Seeds of the simulations.
SEEDS = {"early": 11, "early_slow": 12, "renewal": 13, "bursts": 21, "independent": 22}
#: A simulated difference is called a change when it is at least this many standard errors from zero.
SIGNIFICANT = 2.0


# --------------------------------------------------------------------------- phrases


def _pct(x: float) -> str:
    return percent(x, 2)


def _pts(x: float, digits: int = 2) -> str:
    """A difference in points (``"0.99 points"``, ``"1.0 point"``); two significant digits when it would round to 0."""
    text = f"{100 * x:.{digits}f}"
    if float(text) == 0.0 and x != 0.0:
        text = f"{100 * x:.2g}"
    text = text.replace("-", "\u2212")
    return f"{text} point" + ("" if text in ("1", "1.0", "1.00") else "s")


def _signed(x: float, digits: int = 2) -> str:
    """A number of points with a true minus sign when negative."""
    text = f"{100 * x:.{digits}f}"
    return text.replace("-", "\u2212") if float(text) != 0.0 else text.lstrip("-")


def _se_digits(se: float) -> int:
    """Decimals of a number of points that show its standard error `se` (a fraction) to one significant digit."""
    points = 100 * se
    return 2 if not points > 0 or points >= 0.0095 else min(6, -math.floor(math.log10(points)))


def _pm(x: float, se: float) -> str:
    """A simulated difference with its standard error, in points: ``"0.26 ± 0.01 points"``, ``"0.281 ± 0.005 points"``."""
    digits = _se_digits(se)
    return f"{_signed(x, digits)} ± {100 * se:.{digits}f} points"


def _share_pm(x: float, se: float) -> str:
    """A simulated goodput with its standard error: ``"87.89% ± 0.02 points"``."""
    digits = _se_digits(se)
    return f"{percent(x, digits)} ± {100 * se:.{digits}f} points"


def _measurable(x: float, se: float) -> bool:
    return abs(x) >= SIGNIFICANT * se


def _change(x: float, se: float) -> str:
    """What a simulated difference does to goodput: gains, loses, or changes it by no more than its error."""
    if not _measurable(x, se):
        return f"changes goodput by no more than the simulation can tell ({_pm(x, se)})"
    return f"{'gains' if x > 0 else 'loses'} {_pm(abs(x), se)}"


# --------------------------------------------------------------------------- the chapter's numbers


def _inputs(params: Params) -> tuple[float, float, float, float]:
    return params.checkpoint_cost, params.slow_checkpoint_cost, params.mtbi, params.restart


def run_length(params: Params) -> float:
    """One run in minutes: :data:`RUN_LENGTH`, or longer when a run must hold more checkpoint cycles.

    The simulator needs each run to last :data:`goodput.simulate.MIN_RUN_RHYTHMS` times T + C + R;
    with the slow checkpoint of a small fleet (a long interval) 54 days may not.

    Parameters
    ----------
    params : Params
        The book's inputs.

    Returns
    -------
    float
        Minutes.
    """
    c, cs, m, r = _inputs(params)
    # A period's M under the run-age hazard of shape 1/2 is at most 2M, so no schedule's interval is longer than
    # the optimum for 2M; the renewal comparison also tries LONGER times the optimum for M.
    longest = max(max(float(exact.exact_optimal_interval(cost, 2.0 * m)),
                      LONGER * float(exact.exact_optimal_interval(cost, m))) + cost for cost in (c, cs))
    return max(RUN_LENGTH, 1.01 * MIN_RUN_RHYTHMS * (longest + r))


def runs(params: Params) -> int:
    """Simulated runs per comparison: :data:`RUNS`, fewer when they would hold more than :data:`MAX_FAILURES`."""
    return max(100, min(RUNS, int(MAX_FAILURES * params.mtbi / run_length(params))))


@dataclass(frozen=True)
class _Simulated:
    """The chapter's simulations, each seeded (:data:`SEEDS`)."""

    early: Comparison  # run-age hazard: fixed optimum, two periods, six periods
    early_slow: Comparison  # the same with the slow checkpoint: fixed, two periods
    renewal: Comparison  # renewal hazard: fixed optimum, two periods, LONGER x the optimum
    bursts: Comparison  # bursts: fixed optimum, re-tuned to all interruptions
    independent: SimulationResult  # no bursts, fixed optimum


def _schedules(c: float, m: float, length: float) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    two = run_age_schedule(c, m, SHAPE, [FIRST_WEEK], length)
    six = run_age_schedule(c, m, SHAPE, list(SIX_PERIODS), length)
    return two, six


@functools.lru_cache(maxsize=8)
def _simulate(c: float, cs: float, m: float, r: float, length: float, n_runs: int) -> _Simulated:
    fixed = float(exact.exact_optimal_interval(c, m))
    two, six = _schedules(c, m, length)
    horizon = n_runs * length
    run_age = FailureProcess("weibull", shape=SHAPE, hazard="run-age")
    renewal = FailureProcess("weibull", shape=SHAPE, hazard="renewal")
    slow_two = run_age_schedule(cs, m, SHAPE, [FIRST_WEEK], length)
    m_all = effective_mtbi(m, BURST_PROBABILITY, BURST_WINDOW)
    bursts = FailureProcess(burst_probability=BURST_PROBABILITY, burst_window=BURST_WINDOW)
    burst_horizon = BURST_INTERRUPTIONS * m
    return _Simulated(
        early=compare_intervals(c, m, r, [fixed, two, six], horizon, process=run_age, replicas=n_runs,
                                seed=SEEDS["early"]),
        early_slow=compare_intervals(cs, m, r, [float(exact.exact_optimal_interval(cs, m)), slow_two], horizon,
                                     process=run_age, replicas=n_runs, seed=SEEDS["early_slow"]),
        renewal=compare_intervals(c, m, r, [fixed, two, LONGER * fixed], horizon, process=renewal, replicas=n_runs,
                                  seed=SEEDS["renewal"]),
        bursts=compare_intervals(c, m, r, [fixed, float(exact.exact_optimal_interval(c, m_all))], burst_horizon,
                                 process=bursts, seed=SEEDS["bursts"]),
        independent=simulate(c, m, r, fixed, burst_horizon, seed=SEEDS["independent"]),
    )


def simulations(params: Params) -> _Simulated:
    """The chapter's simulations for these inputs (computed once per set of inputs)."""
    c, cs, m, r = _inputs(params)
    return _simulate(c, cs, m, r, run_length(params), runs(params))


# --------------------------------------------------------------------------- the sections


def introduction(params: Params) -> dict[str, str]:
    """The inputs the chapter is computed for and the exact model's baseline.

    Returns
    -------
    dict of str to str
        ``cost``, ``mtbi``, ``restart`` (durations), ``t_fixed`` (the exact optimum),
        ``g_exponential`` (the exact goodput there) and ``scope`` (a sentence on what the
        chapter models, which says so when the inputs also describe a drain or a persistent tier).
    """
    c, _, m, r = _inputs(params)
    if params.tiered:
        scope = ("The inputs also describe a drain or a persistent tier; this chapter leaves them aside and, except "
                 "where a checkpoint is lost with the job, takes one checkpoint that is safe as soon as it is "
                 "written, with the C, M and R above.")
    else:
        scope = ("The inputs describe one checkpoint that is safe as soon as it is written, and so does every model "
                 "here except where a checkpoint is lost with the job.")
    return {
        "cost": format_duration(c),
        "mtbi": format_duration(m),
        "restart": format_duration(r),
        "t_fixed": format_duration(float(exact.exact_optimal_interval(c, m))),
        "g_exponential": percent(float(exact.exact_goodput(c, m, r))),
        "scope": scope,
    }


def run_age(params: Params) -> dict[str, str]:
    """The run-age hazard and the two schedules that follow it (exact, no simulation).

    Returns
    -------
    dict of str to str
        The shape; the run length and why it is that long; the first week's share of the run
        and of its interruptions, and M over it and over the rest; the intervals of both schedules.
    """
    c, _, m, _ = _inputs(params)
    length = run_length(params)
    two, six = _schedules(c, m, length)
    m_week = run_age_mtbi(m, SHAPE, 0.0, FIRST_WEEK, length)
    m_rest = run_age_mtbi(m, SHAPE, FIRST_WEEK, length, length)
    share = (FIRST_WEEK / m_week) / (length / m)
    why = ("the length of the Llama 3 snapshot, taken as one run" if length == RUN_LENGTH else
           "long enough for every simulated run to hold a hundred checkpoint cycles at these inputs")
    return {
        "shape": f"{SHAPE:g}",
        "run_length": format_duration(length),
        "run_length_why": why,
        "week": format_duration(FIRST_WEEK),
        "week_share_of_time": percent(FIRST_WEEK / length, 0),
        "share_first_week": percent(share, 0),
        "m_first_week": format_duration(m_week),
        "m_after_week": format_duration(m_rest),
        "t_early": format_duration(two[0][1]),
        "t_late": format_duration(two[1][1]),
        "t_six_first": format_duration(six[0][1]),
        "t_six_last": format_duration(six[-1][1]),
        "six_first_until": format_duration(SIX_PERIODS[0]),
        "six_last_from": format_duration(SIX_PERIODS[-1]),
    }


def run_age_figure(params: Params) -> dict[str, Any]:
    """The arguments of :func:`goodput.book.scale_figures.run_age_profile` for these inputs.

    Returns
    -------
    dict
        ``mtbi``, ``shape``, ``run_length``, ``schedules`` (label to ``(until, interval)`` pairs, each
        period at the exact optimum for its own M) and ``fixed_interval`` (the exact optimum).
    """
    c, _, m, _ = _inputs(params)
    length = run_length(params)
    two, six = _schedules(c, m, length)
    return {
        "mtbi": m,
        "shape": SHAPE,
        "run_length": length,
        "schedules": {f"short for {format_duration(FIRST_WEEK)}, then relaxed": two, "six periods": six},
        "fixed_interval": float(exact.exact_optimal_interval(c, m)),
    }


def run_age_simulated(params: Params) -> dict[str, str]:
    """What the schedules gain under the run-age hazard, simulated on the same failures.

    Returns
    -------
    dict of str to str
        ``runs``; ``sim_fixed`` (goodput at the fixed exact optimum ± its standard error, against
        exponential failures), ``sim_two``, ``sim_six`` and ``sim_slow`` (what each schedule does, ± its
        standard error), each a clause for a list; ``early_verdict``, a sentence weighing the gain
        against halving the checkpoint cost.
    """
    c, cs, m, r = _inputs(params)
    sim = simulations(params)
    early, slow = sim.early, sim.early_slow
    g_exp = float(exact.exact_goodput(c, m, r))
    above = early.goodput[0] - g_exp
    if not _measurable(above, early.stderr[0]):
        bunched = "failures bunched early cost about as much as the same number spread evenly"
    else:
        bunched = f"failures bunched early cost {'less' if above > 0 else 'more'} than the same number spread evenly"
    gain, gain_se = early.difference[1], early.difference_stderr[1]
    halve_c = levers(c, m, r, float(exact.exact_optimal_interval(c, m)))["halve C"]
    if _measurable(gain, gain_se) and gain > 0:
        size = "a fraction of a point" if gain < 0.01 else _pts(gain)
        verdict = (f"The advice to start short and relax holds, and it costs nothing but a configuration change, "
                   f"but the gain is {size}: halving the checkpoint cost would gain {_pts(halve_c, 1)} "
                   "(exact model).")
    else:
        verdict = (f"Here starting short and relaxing does not measurably help; halving the checkpoint cost would "
                   f"gain {_pts(halve_c, 1)} (exact model).")
    return {
        "runs": f"{early.replicas:,}",
        "sim_fixed": (f"the fixed exact optimum gives {_share_pm(early.goodput[0], early.stderr[0])}, against "
                      f"{_pct(g_exp)} for exponential failures with the same M (exact model): {bunched}"),
        "sim_two": (f"short for the first {format_duration(FIRST_WEEK)}, then relaxed, gives "
                    f"{_pct(early.goodput[1])}: it {_change(gain, gain_se)}"),
        "sim_six": f"the six-period schedule {_change(early.difference[2], early.difference_stderr[2])}",
        "sim_slow": (f"with the slower checkpoint ({format_duration(cs)}), the two-period schedule "
                     f"{_change(slow.difference[1], slow.difference_stderr[1])}"),
        "early_verdict": verdict,
    }


def renewal(params: Params) -> dict[str, str]:
    """The same schedules when the hazard restarts at each failure (a renewal process), simulated.

    Returns
    -------
    dict of str to str
        Three sentences: ``renewal_fixed`` (goodput at the fixed exact optimum ± its standard error, against
        exponential failures, and why), ``renewal_two`` and ``renewal_longer`` (what the two-period schedule
        and a fixed interval :data:`LONGER` times the optimum do, ± their standard errors).
    """
    c, _, m, r = _inputs(params)
    ren = simulations(params).renewal
    g_exp = float(exact.exact_goodput(c, m, r))
    above = ren.goodput[0] - g_exp
    shown = _share_pm(ren.goodput[0], ren.stderr[0])
    if not _measurable(above, ren.stderr[0]):
        fixed = f"The fixed exact optimum gives {shown}, about the {_pct(g_exp)} of exponential failures."
    elif above > 0:
        fixed = (f"The fixed exact optimum gives {shown}, more than the {_pct(g_exp)} of exponential failures: "
                 "many failures now come soon after a restart, before much new work is at risk.")
    else:
        fixed = f"The fixed exact optimum gives {shown}, less than the {_pct(g_exp)} of exponential failures."
    two, two_se = ren.difference[1], ren.difference_stderr[1]
    schedule = f"the short-then-relaxed schedule {_change(two, two_se)}."
    if _measurable(two, two_se) and two < 0:
        schedule = "A schedule by run age no longer follows the hazard: " + schedule
    else:
        schedule = schedule[0].upper() + schedule[1:]
    longer = (f"A fixed interval {LONGER:g} times the exact optimum "
              f"{_change(ren.difference[2], ren.difference_stderr[2])}.")
    return {"renewal_fixed": fixed, "renewal_two": schedule, "renewal_longer": longer}


def bursts(params: Params) -> dict[str, str]:
    """Correlated bursts: their assumption, what they cost (simulated) and whether re-tuning helps.

    Returns
    -------
    dict of str to str
        ``burst_p``, ``burst_w``, ``burst_mean`` (interruptions per burst), ``m_all`` (M counting
        follow-ups), ``burst_cost`` (a sentence comparing what bursts cost with as many independent
        interruptions) and ``burst_retune`` (a sentence on re-tuning the interval to the higher count).
    """
    c, _, m, r = _inputs(params)
    sim = simulations(params)
    m_all = effective_mtbi(m, BURST_PROBABILITY, BURST_WINDOW)
    cost = sim.independent.goodput - sim.bursts.goodput[0]
    cost_se = math.hypot(sim.independent.stderr, sim.bursts.stderr[0])  # two independent simulations
    same_count = float(exact.exact_goodput(c, m, r)) - float(exact.exact_goodput(c, m_all, r))
    if cost < same_count - SIGNIFICANT * cost_se:
        verdict = (f"Bursts cost {_pm(cost, cost_se)}, less than the {_pts(same_count)} that as many independent "
                   "interruptions would (exact model). A follow-up lands during the restart or just after it, when "
                   "little new work is at risk: it costs about one more restart, not half an interval of work.")
    else:
        verdict = (f"Bursts cost {_pm(cost, cost_se)}; as many independent interruptions would cost "
                   f"{_pts(same_count)} (exact model).")
    t_all = float(exact.exact_optimal_interval(c, m_all))
    retune, retune_se = sim.bursts.difference[1], sim.bursts.difference_stderr[1]
    if _measurable(retune, retune_se) and retune > 0:
        again = (f"Re-tuning the interval to the higher count ({format_duration(t_all)}) gains "
                 f"{_pm(retune, retune_se)} on the same failures.")
    else:
        again = (f"Nor does the interval help: re-tuning it to the higher count ({format_duration(t_all)}) "
                 f"{_change(retune, retune_se)} on the same failures.")
    return {
        "burst_p": f"{BURST_PROBABILITY:g}",
        "burst_w": format_duration(BURST_WINDOW),
        "burst_mean": f"{1 / (1 - BURST_PROBABILITY):.2f}",
        "m_all": format_duration(m_all),
        "burst_cost": verdict,
        "burst_retune": again,
    }


def bursts_table(params: Params) -> pd.DataFrame:
    """Goodput at the fixed exact optimum: independent interruptions, bursts, and as many independent ones.

    Returns
    -------
    pandas.DataFrame
        Columns "interruptions", "model" and "goodput" (text, simulated ones with ± their standard error).
    """
    import pandas as pd

    c, _, m, r = _inputs(params)
    sim = simulations(params)
    m_all = effective_mtbi(m, BURST_PROBABILITY, BURST_WINDOW)
    return pd.DataFrame({
        "interruptions": [f"independent, M = {format_duration(m)}",
                          "in bursts, the same M between bursts",
                          f"independent, as many as with bursts (M = {format_duration(m_all)})"],
        "model": ["simulated", "simulated", "exact model"],
        "goodput": [_share_pm(sim.independent.goodput, sim.independent.stderr),
                    _share_pm(sim.bursts.goodput[0], sim.bursts.stderr[0]),
                    _pct(float(exact.exact_goodput(c, m_all, r)))],
    })


@dataclass(frozen=True)
class LostCheckpoint:
    """A share q of interruptions also takes the latest checkpoint: goodput by the two-tier model (exact).

    Parameters
    ----------
    lost_share : float
        q.
    interval : float
        The single-level exact optimum, minutes.
    safe : float
        Goodput at it when no interruption takes a checkpoint (the single-level exact goodput).
    shared : float
        Goodput at it with q.
    first_order_cost : float
        q (T + C)/M, the first-order cost.
    retuned_interval : float
        The interval that is best with q, the drain moving with it, minutes.
    retuned : float
        Goodput there.
    first_edition : float
        The single-level exact goodput times 1 - q (e^x - 1), x = (T + C)/M: the first edition's count,
        which leaves out interruptions during restarts.
    every_interruption : float
        Times 1 - q e^{R/M} (e^x - 1) instead: every interruption counted, each free to take the
        latest checkpoint left, the older one included.
    """

    lost_share: float
    interval: float
    safe: float
    shared: float
    first_order_cost: float
    retuned_interval: float
    retuned: float
    first_edition: float
    every_interruption: float

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


def lost_checkpoint_numbers(params: Params, lost_share: float = LOST_SHARE) -> LostCheckpoint:
    """The numbers of a checkpoint lost with the job, by :func:`goodput.tiers.lost_checkpoint_tiers` (exact).

    Parameters
    ----------
    params : Params
        The book's inputs.
    lost_share : float, optional
        q (default :data:`LOST_SHARE`).

    Returns
    -------
    LostCheckpoint
        The two-tier model's goodput at the single-level optimum and re-tuned, the first-order cost,
        and the first edition's two readings.
    """
    c, _, m, r = _inputs(params)
    t = float(exact.exact_optimal_interval(c, m))
    safe = float(exact.exact_goodput(c, m, r, t))
    best = tiers.lost_checkpoint_optimal_interval(c, m, r, lost_share)
    per_segment = math.expm1((t + c) / m)  # interruptions per kept segment, restarts left out
    return LostCheckpoint(
        lost_share=lost_share,
        interval=t,
        safe=safe,
        shared=tiers.exact_goodput(tiers.lost_checkpoint_tiers(c, r, lost_share, t), m, t),
        first_order_cost=lost_share * (t + c) / m,
        retuned_interval=best,
        retuned=tiers.exact_goodput(tiers.lost_checkpoint_tiers(c, r, lost_share, best), m, best),
        first_edition=safe * max(0.0, 1.0 - lost_share * per_segment),
        every_interruption=safe * max(0.0, 1.0 - lost_share * math.exp(r / m) * per_segment),
    )


def lost_checkpoint(params: Params) -> dict[str, str]:
    """A checkpoint lost with the job, in words.

    Returns
    -------
    dict of str to str
        ``lost_q`` and ``lost_q_share``; ``lost_result`` (goodput and points lost at the same
        interval, and the first-order cost); ``lost_retune`` (the re-tuned interval, what it wins
        back, and the failure-domain ratio); ``lost_first_edition`` (one sentence: what the first edition
        counted and gave, against this model).
    """
    n = lost_checkpoint_numbers(params)
    result = (f"With q = {n.lost_share:g} (an assumption) at the same interval ({format_duration(n.interval)}), "
              f"goodput falls from {_pct(n.safe)} to {_pct(n.shared)}: {_pts(n.cost)} lost (first order, "
              f"q(T + C)/M: {_pts(n.first_order_cost)}).")
    gain = f"Re-tuning the interval for it, with the drain moving with the interval, gives " \
           f"{format_duration(n.retuned_interval)} and wins back {_pts(n.retune_gain)}"
    if n.domain_ratio >= 2:
        retune = (f"{gain}; a separate failure domain for the checkpoint storage wins back all of it, "
                  f"{n.domain_ratio:.0f} times as much. No cadence fixes a checkpoint that is lost with the job.")
    else:
        retune = f"{gain}; a separate failure domain for the checkpoint storage wins back all {_pts(n.cost)}."
    first_edition = (f"The first edition of this chapter counted the interruptions per kept segment without those "
                     f"during restarts and gave {_pct(n.first_edition)}; counting them too, with any interruption "
                     f"free to take the older checkpoint as well, gives {_pct(n.every_interruption)}, and with the "
                     f"older checkpoint safe once the next one is written, as here, {_pct(n.shared)}.")
    return {
        "lost_q": f"{n.lost_share:g}",
        "lost_q_share": percent(n.lost_share, 0),
        "lost_result": result,
        "lost_retune": retune,
        "lost_first_edition": first_edition,
    }


def elastic_restart(params: Params) -> float:
    """The effective restart of an elastic continuation, minutes: :data:`ELASTIC_RESTART`, or R/2 if that is less."""
    return min(ELASTIC_RESTART, params.restart / 2.0)


def elastic(params: Params) -> dict[str, str]:
    """Elastic continuation as a shorter restart, by the exact model.

    Returns
    -------
    dict of str to str
        ``elastic_r``; ``g_full`` and ``g_elastic`` (exact goodput at the optimum); ``elastic_gain``
        (points); the restart and lost-work losses before and after, and the change in lost work.
    """
    c, _, m, r = _inputs(params)
    full = exact.exact_losses(c, m, r)
    fast = exact.exact_losses(c, m, elastic_restart(params))
    change = fast.lost_work - full.lost_work
    return {
        "elastic_r": format_duration(elastic_restart(params)),
        "g_full": percent(full.goodput),
        "g_elastic": percent(fast.goodput),
        "elastic_gain": _pts(fast.goodput - full.goodput, 1),
        "restart_full": percent(full.restart_loss),
        "restart_elastic": percent(fast.restart_loss),
        "lost_full": _pct(full.lost_work),
        "lost_elastic": _pct(fast.lost_work),
        "lost_change": ("+" if change >= 0 else "") + _signed(change) + " points",
    }


def elastic_table(params: Params) -> pd.DataFrame:
    """The exact model at its optimum with a full restart and with an elastic continuation.

    Returns
    -------
    pandas.DataFrame
        A first column naming the rows (R, the interval, the three losses, goodput) and the columns
        "full restart" and "elastic", all as text.
    """
    import pandas as pd

    c, _, m, r = _inputs(params)
    columns = {}
    for name, restart in (("full restart", r), ("elastic", elastic_restart(params))):
        b = exact.exact_losses(c, m, restart)
        columns[name] = [format_duration(restart), format_duration(b.interval), _pct(b.checkpoint_overhead),
                         _pct(b.lost_work), _pct(b.restart_loss), _pct(b.goodput)]
    rows = ["restart time, R", "interval, T*", "checkpoint overhead", "lost work", "restart", "goodput"]
    return pd.DataFrame({"": rows, **columns})


def takeaways(params: Params) -> dict[str, str]:
    """The chapter's conclusions for these inputs, one sentence each.

    Returns
    -------
    dict of str to str
        ``take_early``, ``take_bursts``, ``take_lost`` and ``take_elastic``.
    """
    c, _, m, r = _inputs(params)
    sim = simulations(params)
    gain, gain_se = sim.early.difference[1], sim.early.difference_stderr[1]
    if _measurable(gain, gain_se) and gain > 0:
        early = (f"With more failures early in a run, start with a short interval and relax it: worth "
                 f"{_pm(gain, gain_se)} here, with no engineering.")
    else:
        early = "With more failures early in a run, a shorter interval at first does not measurably help here."
    m_all = effective_mtbi(m, BURST_PROBABILITY, BURST_WINDOW)
    cost = sim.independent.goodput - sim.bursts.goodput[0]
    cost_se = math.hypot(sim.independent.stderr, sim.bursts.stderr[0])
    same_count = float(exact.exact_goodput(c, m, r)) - float(exact.exact_goodput(c, m_all, r))
    retune, retune_se = sim.bursts.difference[1], sim.bursts.difference_stderr[1]
    cheaper = cost < same_count - SIGNIFICANT * cost_se
    helps = _measurable(retune, retune_se) and retune > 0
    burst = ("Bursts of failures cost " + ("less than as many independent ones" if cheaper else
                                           "about what as many independent ones do")
             + (", and re-tuning the interval helps a little." if helps else ", and no interval helps against them."))
    n = lost_checkpoint_numbers(params)
    lost = (f"Put the checkpoint storage in a separate failure domain: a checkpoint lost with "
            f"{percent(n.lost_share, 0)} of interruptions costs {_pts(n.cost)}, and re-tuning the interval wins "
            f"back only {_pts(n.retune_gain)}.")
    fast = elastic(params)
    return {
        "take_early": early,
        "take_bursts": burst,
        "take_lost": lost,
        "take_elastic": (f"Elastic continuation (an effective restart of {fast['elastic_r']}) is worth "
                         f"{fast['elastic_gain']} through R alone, by the exact model."),
    }
