"""The goodput chapter (book/goodput.md): goodput as one minus three named losses.

The page states the first-order formula and evaluates it at this build's inputs, labelled as
first order, beside the exact model's three losses at its own optimum (the interval the book
recommends). The comparison with what Llama 3 reports is about the brief's worked example, so it
is computed from the worked example's own inputs (:func:`goodput.params.load_params`) in every
build and labelled as such.
"""

from __future__ import annotations

from typing import Any

from goodput import model, sources
from goodput.exact import checkpoint_cost_for_goodput, exact_losses
from goodput.pages.common import first_order_warning, inputs_name
from goodput.params import Params, load_params
from goodput.plan import Plan, plan_for
from goodput.report import first_order_caution, first_order_problem, percent, points
from goodput.tiers import TierLosses
from goodput.units import format_duration

#: What the table calls each loss, with its first-order term.
_ROWS = (("checkpoint overhead", "C/T"), ("lost work", "T/(2M)"), ("restart", "R/M"))


def warnings(params: Params) -> list[str]:
    """The first-order warning for these inputs in Markdown, as a list: empty when first order applies.

    A list, so that the chapter displays each warning there is and nothing otherwise.
    """
    warning = first_order_warning(params)
    return [warning] if warning else []


def _values(plan: Plan, tiered: bool) -> list[float]:
    b = plan.losses
    drain = [plan.drain_loss] if tiered else []
    return [b.checkpoint_overhead, b.lost_work, b.restart_loss, *drain, b.total, b.goodput]


def losses_table(params: Params) -> dict[str, Any]:
    """The three losses at this build's fast checkpoint: the first-order terms at T* beside the exact model.

    Parameters
    ----------
    params : Params
        This build's inputs.

    Returns
    -------
    dict
        ``frame``: rows for the interval, the three losses (and, with a drain or a persistent tier, the
        loss to checkpoints not yet durable), their total and goodput; columns ``at the optimum``,
        ``first-order term`` (one tier only), ``first order`` (at its optimum; ``"out of range"`` where
        first order should not be quoted for these inputs) and ``exact model`` (at its own optimum), all
        text. ``caption`` and ``right`` (the columns to right-align), for
        :func:`goodput.book.tables.book_table`.
    """
    import pandas as pd

    first = plan_for(params, which="first-order")
    exact = plan_for(params)
    tiered = params.tiered
    if tiered:  # the scheme's first-order losses are not the three single-level terms
        names = [("interval, T", "first-order optimum"), *((n, "") for n, _ in _ROWS),
                 ("not yet durable (drain)", ""), ("total loss", ""), ("goodput", "")]
    else:
        names = [("interval, T", "T* = √(2CM)"), *_ROWS, ("total loss", ""), ("goodput", "")]
    first_values = [format_duration(first.interval), *(percent(v) for v in _values(first, tiered))]
    columns = {
        "at the optimum": [n for n, _ in names],
        "first-order term": [t for _, t in names],
        "first order": ["out of range"] * len(names) if first.refused else first_values,
        "exact model": [format_duration(exact.interval), *(percent(v) for v in _values(exact, tiered))],
    }
    if tiered:
        del columns["first-order term"]
        caption = ("The interval and the four losses (shares of wall time) at this build's fast checkpoint: this "
                   "scheme's first-order losses at their optimum, and the exact model at its own optimum, the "
                   "interval to use.")
    else:
        caption = ("The interval and the three losses (shares of wall time) at this build's fast checkpoint: the "
                   "first-order terms at their optimum, and the exact model at its own optimum, the interval to use.")
    return {"frame": pd.DataFrame(columns), "caption": caption, "right": ["first order", "exact model"]}


def for_these_inputs(params: Params) -> dict[str, str]:
    """The fast and the slow checkpoint at this build's inputs, by first order (labelled) and by the exact model.

    Returns
    -------
    dict of str to str
        ``l_intro`` (the inputs and the two intervals), ``l_range`` (how far first order holds here),
        ``l_slow`` (the slow checkpoint by both models) and ``l_exact`` (the exact model's losses at
        its optimum: the recommendation).
    """
    first, exact = plan_for(params, which="first-order"), plan_for(params)
    slow_first, slow_exact = plan_for(params, slow=True, which="first-order"), plan_for(params, slow=True)
    intro = (f"This build's inputs, {inputs_name(params)}, have C = {format_duration(params.checkpoint_cost)}, "
             f"M = {format_duration(params.mtbi)} and R = {format_duration(params.restart)}. ")
    if params.tiered:
        young = plan_for(params.without_tiers(), which="first-order")
        intro += (f"They also have a drain and a persistent tier, so the table sets this scheme's first-order "
                  f"losses (the chapter on checkpoints that are not yet safe) at their optimum, {format_duration(first.interval)}, not the three terms "
                  f"above at Young's √(2CM) = {format_duration(young.interval)}, which would be for one checkpoint "
                  f"safe as soon as it is taken; beside them, the exact model at its own optimum, "
                  f"{format_duration(exact.interval)}, the interval this book recommends.")
    else:
        intro += (f"The table sets the first-order terms at their optimum T* = √(2CM) = "
                  f"{format_duration(first.interval)} beside the exact model at its own optimum, "
                  f"{format_duration(exact.interval)}, the interval this book recommends.")
    if problem := first_order_problem(first.check):
        check = f"For these inputs {problem}, so the table leaves the first-order column out."
    elif caution := first_order_caution(first.check):
        check = f"For these inputs {caution}."
    else:
        check = (f"For these inputs first order is {points(first.check.error)} below the exact model, so the two "
                 "columns agree to within a point.")
    cost = format_duration(params.slow_checkpoint_cost)
    if slow_first.refused:
        slow_words = (f"With the slow {cost} checkpoint, first order is out of its range; the exact model puts the "
                      f"optimum at {format_duration(slow_exact.interval)} and leaves {percent(slow_exact.goodput)}.")
    else:
        slow_words = (f"The same arithmetic with the slow {cost} checkpoint puts the first-order optimum at "
                      f"{format_duration(slow_first.interval)}, where each of the two balanced losses is "
                      f"{percent(slow_first.losses.checkpoint_overhead)}, and leaves {percent(slow_first.goodput)}; "
                      f"the exact model gives {percent(slow_exact.goodput)} at "
                      f"{format_duration(slow_exact.interval)}.")
    b = exact.losses
    exact_words = (f"By the exact model the losses at {format_duration(exact.interval)} are "
                   f"{percent(b.checkpoint_overhead)} checkpoint overhead, {percent(b.lost_work)} lost work and "
                   f"{percent(b.restart_loss)} restart"
                   + (f", with {percent(exact.drain_loss)} lost because a checkpoint was not yet durable"
                      if params.tiered else "")
                   + f", leaving {percent(exact.goodput)}. The exact model counts "
                   "interruptions that strike during a checkpoint or a restart, which first order leaves out, so "
                   "at its optimum the two balanced losses are no longer exactly equal.")
    return {"l_intro": intro, "l_range": check, "l_slow": slow_words, "l_exact": exact_words}


def breakdown_cases(params: Params) -> dict[str, model.Losses | TierLosses]:
    """The bars of the loss figure: the fast and the slow checkpoint, by first order (where it holds) and exactly.

    Returns
    -------
    dict of str to goodput.model.Losses or goodput.tiers.TierLosses
        Label (cost, model and interval) to losses, fast checkpoint first (with its drain, if any).
    """
    cases: dict[str, model.Losses | TierLosses] = {}
    for slow in (False, True):
        cost = format_duration(params.slow_checkpoint_cost if slow else params.checkpoint_cost)
        first, exact = plan_for(params, slow=slow, which="first-order"), plan_for(params, slow=slow)
        if not first.refused:
            cases[f"C = {cost}, first order\nT* = {format_duration(first.interval)}"] = first.losses
        cases[f"C = {cost}, exact model\nT = {format_duration(exact.interval)}"] = exact.losses
    return cases


def against_reports() -> dict[str, str]:
    """The brief's worked example against what Llama 3 reports, from the worked example's own inputs.

    Returns
    -------
    dict of str to str
        ``a_reported`` (Llama 3's effective training time), ``a_inputs`` (the worked example's M, C and R),
        ``a_goodput`` (its goodput by first order and by the exact model), ``a_claim`` (what the brief's
        worked example says about the gap), ``a_gap`` (why its arithmetic does not support that),
        ``a_bound`` (what it would take to reach the reported figure, by the exact model) and ``a_planned``
        (Llama 3's planned interruptions).
    """
    worked = load_params()
    c, m, r = worked.checkpoint_cost, worked.mtbi, worked.restart
    reported = sources.LLAMA3_EFFECTIVE_TRAINING_TIME
    first = plan_for(worked, which="first-order")
    exact = plan_for(worked)
    at_optimum = exact_losses(c, m, r)
    no_restart = at_optimum.goodput / (1.0 - at_optimum.restart_loss)  # T* does not depend on R
    needed = checkpoint_cost_for_goodput(reported, m, r)
    if reported > exact.goodput:
        gap = (f"Its arithmetic does not support that explanation. A loss the model leaves out would make a real run "
               f"do worse than the model, and Llama 3 did better: {points(reported - first.goodput)} above the worked "
               f"example's first-order goodput and {points(reported - exact.goodput)} above the exact model's.")
    else:
        gap = (f"Llama 3 did {points(exact.goodput - reported)} worse than the exact model's goodput for the worked "
               "example, which is the direction a loss the model leaves out would push it.")
    bound = (f"By the exact model, even a restart that took no time would leave {percent(no_restart, 2)} at "
             f"M = {format_duration(m)} and C = {format_duration(c)}")
    if needed is not None:
        bound += (f", and to reach {percent(reported, 0)} with R = {format_duration(r)} the checkpoint would have to "
                  f"cost at most {format_duration(needed)}.")
    else:
        bound += f", and no checkpoint cost reaches {percent(reported, 0)} with R = {format_duration(r)}."
    return {
        "a_reported": percent(reported, 0),
        "a_inputs": f"M = {format_duration(m)}, C = {format_duration(c)}, R = {format_duration(r)}",
        "a_goodput": (f"{percent(first.goodput)} by first order (the brief's arithmetic) and {percent(exact.goodput)} "
                      "by the exact model"),
        "a_claim": (f"The brief's worked example calls its {percent(first.goodput)} the right order against published "
                    f"runs near {percent(reported, 0)}, and puts the small gap down to planned maintenance and stragglers, which the "
                    "formula does not model."),
        "a_gap": gap,
        "a_bound": bound,
        "a_planned": f"{sources.LLAMA3_PLANNED:,}",
    }


def leaves_out(params: Params) -> dict[str, str]:
    """Whether this build's inputs are small enough against M for the first-order terms.

    Returns
    -------
    dict of str to str
        ``o_range``: a sentence on the terms first order drops for this build's fast checkpoint.
    """
    check = plan_for(params, which="first-order").check
    where = f"At {params.gpus:,} GPUs with M = {format_duration(params.mtbi)}"
    if problem := first_order_problem(check):
        text = f"{where}, {problem}; the exact model is needed."
    elif caution := first_order_caution(check):
        text = (f"{where}, {caution}. A few times that fleet puts it out of range, and the exact model is "
                "needed.")
    else:
        text = (f"{where}, first order is {points(check.error)} below the exact model, so it holds. "
                "At several times that fleet it does not, and the exact model is needed.")
    return {"o_range": text}
