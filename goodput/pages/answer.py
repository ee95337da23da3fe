"""The answer page: the fleet's recommendation, the same inputs by first order (the brief's arithmetic), and how sure.

Every function takes the book's :class:`~goodput.params.Params` and returns the page's
values as text (durations, percentages, points and money already written as a person
writes them), for :func:`goodput.book.glue_all`.
"""

from __future__ import annotations

from goodput.pages.common import inputs_name
from goodput.params import Params
from goodput.plan import RECOMMENDED_MODEL, headline, plan_for
from goodput.report import (
    INPUT_WORDS,
    first_order_caution,
    first_order_problem,
    money,
    mtbi_origin,
    percent,
    points,
    range_origin,
    recommendation,
)
from goodput.uncertainty import input_ranges, one_at_a_time, propagate_params
from goodput.units import format_duration


def numbers(params: Params) -> dict[str, str]:
    """The recommendation and its numbers, by the recommended (exact) model.

    Parameters
    ----------
    params : Params
        The fleet's inputs.

    Returns
    -------
    dict of str to str
        ``params_file`` (the inputs file, named as the brief's worked example when it is),
        ``recommendation`` (one sentence), ``gpus``, ``mtbi`` and ``mtbi_hours``, ``mtbi_how`` (how M was
        given), ``cost``, ``restart``, ``interval``, the losses (``checkpoint_overhead``, ``lost_work``,
        ``restart_loss`` and, with a drain or two tiers, ``drain_text``), ``goodput``, the slow checkpoint's
        ``slow_cost``, ``slow_interval``, ``slow_goodput``, the ``points`` between them and their ``capacity``
        a month at ``price`` over a ``month_hours``-hour month.

    Examples
    --------
    >>> from goodput.params import load_params
    >>> n = numbers(load_params())
    >>> n["interval"], n["goodput"], n["points"], n["capacity"]
    ('18.6 min', '87.6%', '11.1 points', '$3.3M')
    """
    plan = plan_for(params)
    h = headline(params)
    b = plan.losses
    drain = (f", and {percent(plan.drain_loss)} lost because a checkpoint was not yet durable"
             if plan.tiers is not None else "")
    return {
        "params_file": inputs_name(params),
        "recommendation": recommendation(plan),
        "gpus": f"{params.gpus:,}",
        "mtbi": format_duration(params.mtbi),
        "mtbi_hours": f"{params.mtbi / 60:.1f} h",
        "mtbi_how": _mtbi_how(params),
        "cost": format_duration(params.checkpoint_cost),
        "restart": format_duration(params.restart),
        "interval": format_duration(h["interval"]),
        "checkpoint_overhead": percent(b.checkpoint_overhead),
        "lost_work": percent(b.lost_work),
        "restart_loss": percent(b.restart_loss),
        "drain_text": drain,
        "goodput": percent(h["goodput"]),
        "slow_cost": format_duration(params.slow_checkpoint_cost),
        "slow_interval": format_duration(h["slow_interval"]),
        "slow_goodput": percent(h["slow_goodput"]),
        "points": points(h["points"]),
        "capacity": money(h["capacity"]),
        "price": f"${params.price_per_gpu_hour:g}",
        "month_hours": f"{params.month / 60:,.0f}",
    }


def _mtbi_how(params: Params) -> str:
    """How M was given, for the sentence "M = 186 min, from ..."."""
    if params.mtbi_source == "interruptions":
        return f"{mtbi_origin(params)} on this fleet"
    if params.mtbi_source == "rate_per_gpu_hour":
        return f"a rate of {mtbi_origin(params)}"
    return "the inputs file, which gives M directly"


def first_order(params: Params) -> dict[str, str]:
    """The same inputs by first order (Young's T* = √(2CM) and C/T, T/(2M), R/M: the brief's arithmetic).

    Parameters
    ----------
    params : Params
        The fleet's inputs (its drain and persistent tier, if any, aside: first order here is
        the single-level formula the brief uses).

    Returns
    -------
    dict of str to str
        ``fo_interval``, ``fo_checkpoint_overhead``, ``fo_lost_work``, ``fo_restart_loss``, ``fo_goodput``,
        ``fo_slow_interval``, ``fo_slow_goodput``, ``fo_points``, ``fo_capacity``, and ``fo_note``: a
        sentence on how far first order is from the exact model here (or why it gives no number).

    Examples
    --------
    >>> from goodput.params import load_params
    >>> f = first_order(load_params())
    >>> f["fo_interval"], f["fo_goodput"], f["fo_slow_goodput"], f["fo_points"], f["fo_capacity"]
    ('19.3 min', '86.9%', '74.1%', '12.8 points', '$3.8M')
    """
    single = params.without_tiers()
    h = headline(single, which="first-order")
    fast = plan_for(single, which="first-order")
    slow = plan_for(single, slow=True, which="first-order")
    exact_fast = plan_for(single)
    notes = []
    for label, plan in (("the checkpoint of", fast), ("the slower checkpoint of", slow)):
        cost = format_duration(plan.checkpoint_cost)
        if plan.refused:
            notes.append(f"For {label} {cost}, {first_order_problem(plan.check)}.")
        elif caution := first_order_caution(plan.check):
            notes.append(f"For {label} {cost}, {caution}.")
    gap = exact_fast.goodput - fast.goodput
    note = (f"First order is {points(abs(gap))} {'below' if gap > 0 else 'above'} the exact model's "
            f"{percent(exact_fast.goodput)} here, mostly because it leaves out interruptions that strike during a "
            "checkpoint or a restart.")
    if notes:
        note += " " + " ".join(notes)
    if single.tiered != params.tiered:
        note += (" These first-order numbers are for a checkpoint that is safe as soon as it is taken; this fleet's "
                 "drain and tiers are in the recommendation above.")
    return {
        "fo_interval": format_duration(fast.interval),
        "fo_checkpoint_overhead": percent(fast.losses.checkpoint_overhead),
        "fo_lost_work": percent(fast.losses.lost_work),
        "fo_restart_loss": percent(fast.losses.restart_loss),
        "fo_goodput": percent(fast.goodput) if not fast.refused else "no number (out of range)",
        "fo_slow_interval": format_duration(slow.interval),
        "fo_slow_goodput": percent(slow.goodput) if not slow.refused else "no number (out of range)",
        "fo_points": points(h["points"]),
        "fo_capacity": money(h["capacity"]),
        "fo_note": note,
    }


def how_sure(params: Params) -> dict[str, str]:
    """How far the inputs' ranges move T* and goodput, by the recommended model.

    Parameters
    ----------
    params : Params
        The fleet's inputs.

    Returns
    -------
    dict of str to str
        ``sure_ranges`` (where each range came from), ``sure_t_lo``/``sure_t_hi`` (T* over the ranges),
        ``sure_g_lo``/``sure_g_hi`` (goodput at the recommended interval over the ranges) and ``sure_top``
        (which range matters most, or that none was given).
    """
    plan = plan_for(params)
    ranges = input_ranges(params)
    fixed = propagate_params(params, interval=plan.interval, which=RECOMMENDED_MODEL)
    best = propagate_params(params, which=RECOMMENDED_MODEL)
    top = one_at_a_time(fixed)[0]
    origins = "; ".join(f"{INPUT_WORDS[name]}: {range_origin(r)}" for name, r in ranges.items())
    if all(r.exact for r in ranges.values()):
        top_text = ("This inputs file gives no input a range, so these are single values: state ranges in the "
                    "inputs file, or give M as a count, to get real ones.")
    else:
        top_text = (f"The range of {INPUT_WORDS[top.name]} moves goodput the most, "
                    f"{points(top.goodput_swing)} on its own.")
    tier_note = (" (the ranges are carried through the single-tier exact model; the drain and the persistent tier "
                 "are taken as given)") if params.tiered else ""
    return {
        "sure_ranges": origins,
        "sure_t_lo": format_duration(best.optimal_interval_range[0]),
        "sure_t_hi": format_duration(best.optimal_interval_range[1]),
        "sure_g_lo": percent(fixed.goodput_range[0]),
        "sure_g_hi": percent(fixed.goodput_range[1]),
        "sure_top": top_text,
        "sure_tier_note": tier_note,
        "sure_model": "the exact model" if RECOMMENDED_MODEL == "exact" else "first order",
    }
