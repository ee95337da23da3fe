"""The answer page: the fleet's recommendation, the same inputs by first order (the brief's arithmetic), and how sure.

Every function takes the book's :class:`~goodput.params.Params` and returns the page's
values as text (durations, percentages, points and money already written as a person
writes them), for :func:`goodput.book.glue_all`.
"""

from __future__ import annotations

from goodput.pages.common import carried_ranges, inputs_name
from goodput.params import Params
from goodput.plan import RECOMMENDED_MODEL, headline, plan_for
from goodput.report import (
    INPUT_WORDS,
    MODEL_NAMES,
    first_order_caution,
    first_order_problem,
    money,
    mtbi_origin,
    percent,
    points,
    range_origin,
    recommendation,
)
from goodput.uncertainty import input_ranges
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
        ``fo_text`` (the first-order interval, losses and goodput, and the slower checkpoint's goodput and
        the points and capacity between them, each only where first order is in its range), the same
        numbers alone (``fo_interval``, ``fo_goodput``, ``fo_slow_goodput``, ``fo_points``, ``fo_capacity``;
        "no number" where it gives none), and ``fo_note``: how far first order is from the exact model
        here, and for a tiered fleet that these numbers leave its scheme aside.

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
    slow_cost = format_duration(slow.checkpoint_cost)
    if fast.refused:
        text = f"For these inputs {first_order_problem(fast.check)}, so this page gives no first-order number."
    else:
        text = (f"For these inputs they give an interval of {format_duration(fast.interval)}, losses of "
                f"{percent(fast.losses.checkpoint_overhead)}, {percent(fast.losses.lost_work)} and "
                f"{percent(fast.losses.restart_loss)}, and goodput {percent(fast.goodput)}.")
        if slow.refused:
            text += (f" For the slower checkpoint of {slow_cost}, {first_order_problem(slow.check)}, so it gives no "
                     "number for it, nor for the difference.")
        else:
            text += (f" The slower checkpoint of {slow_cost}, at its first-order optimum of "
                     f"{format_duration(slow.interval)}, leaves {percent(slow.goodput)}: {points(h['points'])} less, "
                     f"worth {money(h['capacity'])} a month.")
    notes = []
    if not fast.refused:
        gap = exact_fast.goodput - fast.goodput
        notes.append(f"First order is {points(abs(gap))} {'below' if gap > 0 else 'above'} the exact model's "
                     f"{percent(exact_fast.goodput)} here, mostly because it leaves out interruptions that strike "
                     "during a checkpoint or a restart.")
        if not slow.refused and (caution := first_order_caution(slow.check)):
            notes.append(f"For the slower checkpoint of {slow_cost}, {caution}.")
    if params.tiered:
        notes.append("These first-order numbers are for a checkpoint that is safe as soon as it is taken; this "
                     "fleet's drain and tiers are in the recommendation above.")
    return {
        "fo_text": text,
        "fo_interval": format_duration(fast.interval),
        "fo_goodput": "no number" if fast.refused else percent(fast.goodput),
        "fo_slow_goodput": "no number" if slow.refused or fast.refused else percent(slow.goodput),
        "fo_points": "no number" if slow.refused or fast.refused else points(h["points"]),
        "fo_capacity": "no number" if slow.refused or fast.refused else money(h["capacity"]),
        "fo_note": " ".join(notes),
    }


def how_sure(params: Params) -> dict[str, str]:
    """How far the inputs' ranges move T* and goodput, by the recommended model and plan.

    Parameters
    ----------
    params : Params
        The fleet's inputs.

    Returns
    -------
    dict of str to str
        ``sure_ranges`` (where each range came from), ``sure_model``, and :func:`~goodput.pages.common.carried_ranges`
        under ``sure_`` names: ``sure_t_span`` (T* over the ranges), ``sure_g_span`` (goodput at the recommended
        interval), ``sure_scheme_note`` and ``sure_top_text``.
    """
    ranges = input_ranges(params)
    origins = "; ".join(f"{INPUT_WORDS[name]}: {range_origin(r)}" for name, r in ranges.items())
    carried = {f"sure_{key}": value for key, value in carried_ranges(params).items()}
    return {"sure_ranges": origins, "sure_model": MODEL_NAMES[RECOMMENDED_MODEL]} | carried
