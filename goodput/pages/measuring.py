"""The measuring chapter: where C, M and R come from, where the model is wrong, and common mistakes.

Every number is the fleet's (the book's inputs file), by the exact model the recommendation
comes from (:data:`goodput.plan.RECOMMENDED_MODEL`); first-order values appear only in the
takeaways, labelled. The illustrations that are not the fleet's own inputs (a dozen
interruptions, a failure rate three times the settled one, PyTorch's published asynchronous
checkpoint, an elastic restart) are named as such and combined only with the fleet's inputs.

The elastic restart is :func:`goodput.pages.common.elastic_restart`, the definition the failures chapter uses
(``min(1 min, R/2)``), so the two pages give the same gain.
"""

from __future__ import annotations

import math

from goodput.exact import exact_goodput, exact_losses, exact_optimal_interval
from goodput.pages.common import elastic_restart
from goodput.pages.uncertainty import capital, how_mtbi_given
from goodput.params import Params, mtbi_from_rate
from goodput.plan import RECOMMENDED_MODEL, plan_for
from goodput.report import MODEL_NAMES, count, mtbi_origin, percent, points
from goodput.uncertainty import poisson_interval
from goodput.units import format_duration, format_rate

#: The model every number on the page comes from.
MODEL = RECOMMENDED_MODEL
#: A small count of interruptions, to show how little a few events pin M down.
SMALL_COUNT = 12
#: Confidence level of the Poisson intervals.
CONFIDENCE = 0.95
#: How many times the settled failure rate the first days of a run are taken to have.
EARLY_FACTOR = 3.0
#: PyTorch Distributed Checkpoint, 7B model: blocking time of a synchronous and an asynchronous save, in seconds
#: (PyTorch blog, 2024).
SYNC_SECONDS, ASYNC_SECONDS = 148.8, 6.3
#: Below this share of wall time, goodput is written as "less than 0.1%".
TINY = 0.001


def share(x: float) -> str:
    """A share of wall time as a percentage, ``"less than 0.1%"`` when it would round to nothing."""
    return "less than 0.1%" if x < TINY else percent(x)


def source_phrase(params: Params) -> str:
    """Where the inputs came from, after "from": ``"params.yml"``, or ``"the worked example"``."""
    return "the worked example" if params.source == "worked example" else params.source


def intro(params: Params) -> dict[str, str]:
    """Which inputs this build uses, and which model the page's numbers come from.

    Returns
    -------
    dict
        ``inputs_text``: one paragraph.
    """
    return {"inputs_text": (
        f"This build's inputs are M = {format_duration(params.mtbi)} ({mtbi_origin(params)}), "
        f"C = {format_duration(params.checkpoint_cost)} and R = {format_duration(params.restart)}, from "
        f"{source_phrase(params)}. The numbers on this page are {MODEL_NAMES[MODEL]}'s, the model the recommendation "
        "comes from, unless they are labelled first order."
    )}


def count_example(params: Params) -> dict[str, str]:
    """How little a dozen interruptions pin M down, at this fleet's M and C; and this build's own count, if any.

    Returns
    -------
    dict
        ``count_text``: the dozen's Poisson interval of M (relative to the estimate, which it does
        not depend on) and the exact optimum at its ends; then the build's own count's interval,
        or that M was not given as a count.
    """
    m, c = params.mtbi, params.checkpoint_cost
    low, high = poisson_interval(SMALL_COUNT, SMALL_COUNT * m, CONFIDENCE)
    t, t_low, t_high = (float(exact_optimal_interval(c, x)) for x in (m, low, high))
    text = (
        f"For example, a dozen unexpected terminations, which this job sees in about "
        f"{format_duration(SMALL_COUNT * m)} of running, give M a {CONFIDENCE:.0%} interval from "
        f"{1 - low / m:.0%} below to {high / m - 1:.0%} above the count's estimate: {format_duration(low)} to "
        f"{format_duration(high)} around {format_duration(m)}. The exact optimum interval, which grows about as "
        f"√M, goes from {format_duration(t_low)} to {format_duration(t_high)} around {format_duration(t)}. A "
        f"count's relative uncertainty is roughly one over its square root: {1 / math.sqrt(SMALL_COUNT):.0%} "
        "for a dozen."
    )
    n, window = params.interruption_count, params.window
    if params.mtbi_source == "interruptions" and n and window:
        own_low, own_high = poisson_interval(n, window, CONFIDENCE)
        text += (f" The {count(n, 'interruption')} this build's M comes from narrow it to "
                 f"{format_duration(own_low)} to {format_duration(own_high)} ({1 / math.sqrt(n):.0%} by that rule).")
    else:
        text += (f" This build's M is given {how_mtbi_given(params)}, not as a count; the count behind it, "
                 "if there is one, says how far to trust it.")
    return {"count_text": text}


def early_rate(params: Params) -> dict[str, str]:
    """A failure rate three times the settled one early in a run: the exact optimum then, and the cost of not following it.

    Returns
    -------
    dict
        ``early_text``.
    """
    c, m, r = params.checkpoint_cost, params.mtbi, params.restart
    early_m = m / EARLY_FACTOR
    settled = plan_for(params, which=MODEL).optimal_interval
    early_t = float(exact_optimal_interval(c, early_m))
    keep = float(exact_goodput(c, early_m, r, settled))
    follow = float(exact_goodput(c, early_m, r))
    return {"early_text": (
        f"If the failure rate in the first days is {EARLY_FACTOR:g} times the settled rate, M is "
        f"{format_duration(early_m)} then and the exact optimum interval is {format_duration(early_t)}, not "
        f"{format_duration(settled)}. Keeping the settled interval through that period gives {share(keep)} "
        f"instead of {share(follow)} ({points(follow - keep)} less, by {MODEL_NAMES[MODEL]})."
    )}


def asynchronous(params: Params) -> dict[str, str]:
    """PyTorch's published synchronous and asynchronous checkpoint stalls, as C with this fleet's M and R.

    Returns
    -------
    dict
        ``sync_time`` and ``async_time`` (the published stalls, in seconds as published) and
        ``async_text`` (goodput with each as C, each at its exact optimum).
    """
    m, r = params.mtbi, params.restart
    sync_c, async_c = SYNC_SECONDS / 60.0, ASYNC_SECONDS / 60.0
    g_sync, g_async = float(exact_goodput(sync_c, m, r)), float(exact_goodput(async_c, m, r))
    return {
        "sync_time": f"{SYNC_SECONDS:g} s",  # as published; format_duration would write 2.48 min
        "async_time": format_duration(async_c, 4),
        "async_text": (
            f"With this build's M and R, that change of C moves goodput from {share(g_sync)} to {share(g_async)} "
            f"({points(g_async - g_sync)}), each at its exact optimum interval."
        ),
    }


def elastic(params: Params) -> dict[str, str]:
    """An elastic job's goodput by the exact model: R replaced by :func:`elastic_restart`, at the optimum.

    Returns
    -------
    dict
        ``elastic_text``: goodput with the full and the elastic restart, the gain, and that the
        optimum interval does not move.
    """
    c, m, r = params.checkpoint_cost, params.mtbi, params.restart
    r_elastic = elastic_restart(r)
    full, fast = exact_losses(c, m, r), exact_losses(c, m, r_elastic)
    return {"elastic_text": (
        f"With an effective restart of {format_duration(r_elastic)} instead of {format_duration(r)}, "
        f"{MODEL_NAMES[MODEL]}'s goodput at the optimum rises from {percent(full.goodput)} to "
        f"{percent(fast.goodput)} ({points(fast.goodput - full.goodput)}); the optimum interval stays "
        f"{format_duration(full.interval)}, since R does not move it."
    )}


def mistakes(params: Params) -> dict[str, str]:
    """The common mistakes, with this fleet's numbers.

    Returns
    -------
    dict
        ``slow_text`` (what the slow checkpoint costs against the fast one), ``per_gpu_text``
        (an interval computed from one GPU's mean time between interruptions) and
        ``restart_loss`` (the restart term at the optimum).
    """
    c, m, r = params.checkpoint_cost, params.mtbi, params.restart
    fast, slow = plan_for(params, which=MODEL), plan_for(params, slow=True, which=MODEL)
    if slow.checkpoint_cost > fast.checkpoint_cost:
        slow_text = (f"Here the slow checkpoint ({format_duration(slow.checkpoint_cost)}) leaves {share(slow.goodput)} "
                     f"at its own optimum, against {share(fast.goodput)} with the fast one "
                     f"({format_duration(fast.checkpoint_cost)}): {points(fast.goodput - slow.goodput)}.")
    else:
        slow_text = (f"This build's slow checkpoint ({format_duration(slow.checkpoint_cost)}) is no slower than "
                     f"the fast one ({format_duration(fast.checkpoint_cost)}), so it has nothing to show here.")
    if params.gpus == 1:
        per_gpu_text = "With one GPU, the job's M is the GPU's, so this build cannot make that mistake."
    else:
        m_gpu = float(mtbi_from_rate(params.rate_per_gpu_hour, 1))
        wrong = float(exact_optimal_interval(c, m_gpu))
        kept = float(exact_goodput(c, m, r, wrong))
        survive = math.exp(-(wrong + c) / m)
        reach = ("fewer than one in a thousand" if survive < TINY else f"{survive:.0%}")
        per_gpu_text = (
            f"At this build's rate of {format_rate(params.rate_per_gpu_hour)} interruptions per GPU-hour, one GPU "
            f"is interrupted about every {format_duration(m_gpu)}. The exact optimum computed from that would be "
            f"{format_duration(wrong)}; the job, interrupted every {format_duration(m)}, would then keep "
            f"{share(kept)} of its wall time instead of {share(fast.goodput)}, since {reach} of its attempts "
            "at a segment of work would reach the checkpoint at its end."
        )
    return {"slow_text": slow_text, "per_gpu_text": per_gpu_text,
            "restart_loss": percent(fast.losses.restart_loss)}


def takeaways(params: Params) -> dict[str, str]:
    """The key takeaways: the recommendation, the balance check, goodput and what moves it; first order labelled.

    Returns
    -------
    dict
        ``take_interval``, ``take_balance``, ``take_goodput`` and ``take_cost``.
    """
    plan, first = plan_for(params, which=MODEL), plan_for(params, which="first-order")
    slow = plan_for(params, slow=True, which=MODEL)
    c, m, r = plan.checkpoint_cost, plan.mtbi, plan.restart
    interval = format_duration(plan.optimal_interval)
    if first.tiers is None:
        young_name, first_name = "Young's first-order T* = √(2CM)", "first order, 1 − C/T − T/(2M) − R/M,"
    else:
        young_name = first_name = "first order of this checkpoint scheme"
    if first.refused:
        young = f"{capital(young_name)} is outside its range for these inputs."
        first_goodput = f"{first_name} is outside its range here"
    else:
        young = f"{capital(young_name)} gives {format_duration(first.optimal_interval)}."
        first_goodput = f"{first_name} gives {percent(first.goodput)}"
    twice = float(exact_goodput(c, m, r, 2 * plan.optimal_interval))
    slow_twice = float(exact_goodput(slow.checkpoint_cost, m, r, 2 * slow.optimal_interval))
    if slow.checkpoint_cost > c:
        cost = (f"Cutting the checkpoint from {format_duration(slow.checkpoint_cost)} to {format_duration(c)} is "
                f"worth {points(plan.goodput - slow.goodput)}; an interval twice the optimum costs "
                f"{points(plan.goodput - twice)}, and {points(slow.goodput - slow_twice)} with the slow checkpoint.")
    else:
        cost = (f"An interval twice the optimum costs {points(plan.goodput - twice)}; a slower checkpoint costs "
                "more, and makes the interval matter more.")
    return {
        "take_interval": (f"Checkpoint every {interval} of work at C = {format_duration(c)} and "
                          f"M = {format_duration(m)}: {MODEL_NAMES[MODEL]}'s optimum. {young}"),
        "take_balance": (f"At the first-order optimum, checkpoint overhead and lost work are equal, a check on any "
                         f"proposed cadence; by {MODEL_NAMES[MODEL]} they come to "
                         f"{percent(plan.losses.checkpoint_overhead)} and {percent(plan.losses.lost_work)} here."),
        "take_goodput": f"Goodput is {percent(plan.goodput)} by {MODEL_NAMES[MODEL]}; {first_goodput}.",
        "take_cost": cost,
    }
