"""Sentences more than one page uses."""

from __future__ import annotations

from goodput.params import Params
from goodput.plan import plan_for
from goodput.report import first_order_problem


def first_order_warning(params: Params) -> str | None:
    """A warning for pages that show first-order numbers, when these inputs put them out of range.

    Parameters
    ----------
    params : Params
        The fleet's inputs.

    Returns
    -------
    str or None
        Markdown naming the problem for the fast or the slow checkpoint, or ``None`` when
        the first-order formula applies to both.
    """
    plans = {"fast": plan_for(params, which="first-order"), "slow": plan_for(params, slow=True, which="first-order")}
    out = [label for label, plan in plans.items() if plan.refused]
    if not out:
        return None
    which = "both checkpoint costs" if len(out) == 2 else f"the {out[0]} checkpoint"
    problems = "; ".join(f"with the {label} checkpoint, {first_order_problem(plans[label].check)}" for label in out)
    return (
        f"**Warning: for {which}, these inputs are beyond the first-order formula's range** ({problems}). "
        f"The first-order numbers on this page for {which} do not describe this fleet; the recommendation, "
        "which comes from the exact model, does."
    )
