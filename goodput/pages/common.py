"""What more than one page uses: sentences, and the book's assumptions that two pages must share."""

from __future__ import annotations

from goodput.params import Params, load_params
from goodput.plan import plan_for
from goodput.report import first_order_problem


def worked_example() -> Params:
    """The brief's worked example: the inputs shipped with the package, whatever the book is built from."""
    return load_params()


def is_worked_example(params: Params) -> bool:
    """Whether a fleet's inputs are the brief's worked example (same GPUs, M, both C, R, price and month, one tier).

    Parameters
    ----------
    params : Params
        The fleet's inputs.

    Returns
    -------
    bool
        True for ``book/params.yml`` as shipped, whatever the file is called.
    """
    w = worked_example()
    fields = ("gpus", "mtbi", "checkpoint_cost", "slow_checkpoint_cost", "restart", "price_per_gpu_hour", "month")
    return all(getattr(params, f) == getattr(w, f) for f in fields) and not params.tiered


def inputs_name(params: Params) -> str:
    """The inputs file as a sentence names it: ``"params.yml (the brief's worked example)"``, ``"fleet-32k.yml"``."""
    return f"{params.source} (the brief's worked example)" if is_worked_example(params) else params.source


def inputs_phrase(params: Params) -> str:
    """The inputs as a noun phrase: ``"the brief's worked example"`` or ``"the inputs of fleet-32k.yml"``."""
    return "the brief's worked example" if is_worked_example(params) else f"the inputs of {params.source}"


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
