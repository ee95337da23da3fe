"""The planning page: the plan in the shape a planning document needs, by the recommended model.

The page's tables are returned as pandas DataFrames of text, its sentences as a mapping
for :func:`goodput.book.glue_all`; the plan is :func:`goodput.plan.plan_for` of the book's
inputs, so it is the answer page's and the command's plan.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from goodput.pages.common import carried_ranges, inputs_name
from goodput.params import Params
from goodput.plan import RECOMMENDED_MODEL, plan_for, plan_levers
from goodput.report import (
    MODEL_NAMES,
    file_sources,
    first_order_caution,
    first_order_problem,
    percent,
    points,
    range_origin,
    range_text,
    recommendation,
)
from goodput.uncertainty import input_ranges
from goodput.units import format_duration

if TYPE_CHECKING:
    import pandas as pd


def summary(params: Params) -> dict[str, str]:
    """The recommendation, the model it comes from, and the first-order cross-check.

    Parameters
    ----------
    params : Params
        The fleet's inputs.

    Returns
    -------
    dict of str to str
        ``params_file``, ``gpus``, ``recommendation``, ``model_note`` (which model, and how far first order is
        from it here), ``interval``, ``goodput``, ``mtbi``, ``cost``, ``restart``.

    Examples
    --------
    >>> from goodput.params import load_params
    >>> summary(load_params())["interval"]
    '18.6 min'
    """
    plan = plan_for(params)
    first = plan_for(params, which="first-order")
    label = ("First order (Young's √(2CM), the brief's arithmetic)" if first.tiers is None
             else "First order of this checkpoint scheme")
    if first.refused:
        cross = f"{label} is out of range for these inputs: {first_order_problem(first.check)}."
    else:
        cross = (f"{label} puts the optimum at {format_duration(first.interval)} and goodput at "
                 f"{percent(first.goodput)}.")
        if caution := first_order_caution(first.check):
            cross += f" Caution: {caution}."
    return {
        "params_file": inputs_name(params),
        "gpus": f"{params.gpus:,}",
        "recommendation": recommendation(plan),
        "model_note": (f"The recommendation comes from {MODEL_NAMES[RECOMMENDED_MODEL]} of exponential failures, "
                       f"which also counts interruptions during checkpoints and restarts. {cross}"),
        "interval": format_duration(plan.interval),
        "goodput": percent(plan.goodput),
        "mtbi": format_duration(plan.mtbi),
        "cost": format_duration(plan.checkpoint_cost),
        "restart": format_duration(plan.restart),
    }


def inputs_table(params: Params) -> pd.DataFrame:
    """The inputs with their values, ranges and sources.

    Parameters
    ----------
    params : Params
        The fleet's inputs.

    Returns
    -------
    pandas.DataFrame
        Columns ``input``, ``value``, ``range``, ``source``.
    """
    import pandas as pd

    plan = plan_for(params)
    ranges = input_ranges(params)
    sources = file_sources(params)
    rows = [
        ("mean time between interruptions, M", format_duration(plan.mtbi), range_text(ranges["mtbi"]), sources["M"]),
        ("checkpoint cost, C", format_duration(plan.checkpoint_cost), range_text(ranges["checkpoint_cost"]),
         sources["C"]),
        ("restart time, R", format_duration(plan.restart), range_text(ranges["restart"]), sources["R"]),
    ]
    s = plan.tiers
    if s is not None and s.drain > 0:
        rows.append(("drain until durable, D", format_duration(s.drain), "", params.source))
    if s is not None and not s.one_tier:
        rows += [
            ("persistent checkpoint cost, C_p", format_duration(s.cp), "", params.source),
            ("persistent restart, R_p", format_duration(s.rp), "", params.source),
            ("interruptions the fast tier survives, s", f"{s.fast_survives:.0%}", "", params.source),
            ("every n-th checkpoint persistent, n", f"{s.every:,}", "",
             "the best n" if plan.every_chosen else params.source),
        ]
    rows.append(("checkpoint interval, T", format_duration(plan.interval), "", "the exact optimum"))
    return pd.DataFrame(rows, columns=["input", "value", "range", "source"])


def losses_table(params: Params) -> tuple[pd.DataFrame, dict[str, str]]:
    """Where the wall time goes at the recommended interval.

    Parameters
    ----------
    params : Params
        The fleet's inputs.

    Returns
    -------
    tuple of (pandas.DataFrame, dict of str to str)
        The table (``share of wall time``, ``value``) and its sentence's values ``ckpt``, ``lost``, ``rst``,
        ``drain_text``.
    """
    import pandas as pd

    plan = plan_for(params)
    b = plan.losses
    rows = [("checkpoint overhead", percent(b.checkpoint_overhead)), ("lost work", percent(b.lost_work)),
            ("restart", percent(b.restart_loss))]
    drain = ""
    if plan.tiers is not None:
        rows.append(("not yet durable (drain)", percent(plan.drain_loss)))
        drain = f" and checkpoints not yet durable {percent(plan.drain_loss)}"
    rows.append(("goodput", percent(plan.goodput)))
    values = {"ckpt": percent(b.checkpoint_overhead), "lost": percent(b.lost_work), "rst": percent(b.restart_loss),
              "drain_text": drain}
    return pd.DataFrame(rows, columns=["share of wall time", "value"]), values


def levers_table(params: Params) -> tuple[pd.DataFrame, dict[str, str]]:
    """The levers of the recommended plan, largest first, and the two largest in words.

    Parameters
    ----------
    params : Params
        The fleet's inputs.

    Returns
    -------
    tuple of (pandas.DataFrame, dict of str to str)
        The table (``lever``, ``goodput gained``) and ``top_lever``, ``top_gain``, ``second_lever``, ``second_gain``.
    """
    import pandas as pd

    gains = plan_levers(plan_for(params))
    ranked = sorted(gains, key=lambda name: -gains[name])
    table = pd.DataFrame([(name, f"+{points(gains[name])}") for name in ranked], columns=["lever", "goodput gained"])
    return table, {"top_lever": ranked[0], "top_gain": points(gains[ranked[0]]),
                   "second_lever": ranked[1], "second_gain": points(gains[ranked[1]])}


def how_sure(params: Params) -> dict[str, str]:
    """The range of T* and goodput over the inputs' ranges, by the recommended plan, and the input that dominates.

    Parameters
    ----------
    params : Params
        The fleet's inputs.

    Returns
    -------
    dict of str to str
        ``m_range_how`` (where M's range came from) and :func:`~goodput.pages.common.carried_ranges`'s
        ``t_span``, ``g_span``, ``scheme_note`` and ``top_text``.
    """
    return {"m_range_how": range_origin(input_ranges(params)["mtbi"])} | carried_ranges(params)
