"""What more than one page uses: sentences, and the book's assumptions that two pages must share."""

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


#: Minutes an elastic job takes to continue on fewer nodes after an interruption, instead of a full restart
#: (an assumption of the book's: the failures and measuring chapters both use it, through :func:`elastic_restart`).
ELASTIC_RESTART = 1.0


def elastic_restart(restart: float) -> float:
    """The effective restart of an elastic job: :data:`ELASTIC_RESTART`, or half the full restart if that is shorter.

    Parameters
    ----------
    restart : float
        R, the full restart, in minutes.

    Returns
    -------
    float
        ``min(1 min, R / 2)``: always shorter than R.

    Examples
    --------
    >>> elastic_restart(5.0), elastic_restart(1.5)
    (1.0, 0.75)
    """
    return min(ELASTIC_RESTART, restart / 2.0)
