"""What more than one page uses: sentences, and the book's assumptions that two pages must share."""

from __future__ import annotations

from dataclasses import dataclass

from goodput.hazards import ELASTIC_RESTART, elastic_restart  # noqa: F401 (re-exported: defined once, in the numbers)
from goodput.params import Params, load_params
from goodput.plan import RECOMMENDED_MODEL, Plan, plan_for
from goodput.report import INPUT_WORDS, first_order_problem, ordinal, percent, points
from goodput.uncertainty import INPUTS, InputRange, Propagation, Swing, input_ranges, one_at_a_time, propagate_params
from goodput.units import format_duration

#: Confidence level of M's Poisson interval (and of the uncertainty page's Monte Carlo percentiles).
CONFIDENCE = 0.95


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


def span(low: str, high: str) -> str:
    """``"between low and high"``, or ``"at low"`` when the two read the same."""
    return f"at {low}" if low == high else f"between {low} and {high}"


@dataclass(frozen=True)
class Ranges:
    """A fleet's input ranges carried through one model.

    Parameters
    ----------
    plan : Plan
        The plan at the model's optimum (the recommended interval, for the exact model).
    inputs : dict of str to InputRange
        Each input's range (:func:`goodput.uncertainty.input_ranges`).
    fixed : Propagation
        Goodput over the box at the plan's interval.
    best : Propagation
        T* and goodput over the box with each corner at its own optimum.
    swings : list of Swing
        One input at a time at the plan's interval, widest first, inputs with a range only.
    """

    plan: Plan
    inputs: dict[str, InputRange]
    fixed: Propagation
    best: Propagation
    swings: list[Swing]

    @property
    def ranged(self) -> list[str]:
        """The inputs with a range, in :data:`goodput.uncertainty.INPUTS` order."""
        return [name for name in INPUTS if not self.inputs[name].exact]

    @property
    def exact(self) -> list[str]:
        """The inputs taken as exact, for want of a range."""
        return [name for name in INPUTS if self.inputs[name].exact]



def ranges_for(params: Params, which: str = RECOMMENDED_MODEL) -> Ranges:
    """The ranges of T* and goodput for a fleet by one model.

    Parameters
    ----------
    params : Params
        The fleet's inputs.
    which : {"exact", "first-order"}
        The model (default: the recommended one).

    Returns
    -------
    Ranges
        T* over the box with each corner at its own optimum; goodput at the model's optimum
        interval for the point values; the swings of the inputs that have a range.
    """
    plan = plan_for(params, which=which)
    inputs = input_ranges(params, CONFIDENCE)
    fixed = propagate_params(params, interval=plan.optimal_interval, confidence=CONFIDENCE, which=which,
                             scheme=plan.tiers)
    best = propagate_params(params, confidence=CONFIDENCE, which=which, scheme=plan.tiers)
    swings = [s for s in one_at_a_time(fixed) if not inputs[s.name].exact]
    return Ranges(plan=plan, inputs=inputs, fixed=fixed, best=best, swings=swings)


def carried_ranges(params: Params) -> dict[str, str]:
    """The inputs' ranges carried through the recommended plan: where T* and goodput may lie, and why.

    A fleet with a drain or a persistent tier is carried through its own scheme (drain, persistent
    tier and cadence held as the plan has them), so the range is around the recommendation's goodput.

    Parameters
    ----------
    params : Params
        The fleet's inputs.

    Returns
    -------
    dict of str to str
        ``t_span`` ("between 15.4 min and 27.3 min", or "at 16.9 min" when no range moves it),
        ``g_span`` (goodput at the recommended interval, likewise), ``scheme_note`` (what was held,
        for a tiered fleet; empty otherwise) and ``top_text`` (which input's range moves goodput the
        most, or that no input has a range).

    Examples
    --------
    >>> r = carried_ranges(load_params())
    >>> r["t_span"], r["g_span"]
    ('between 15.4 min and 27.3 min', 'between 81.0% and 90.3%')
    """
    ranges = ranges_for(params)
    plan, fixed, best = ranges.plan, ranges.fixed, ranges.best
    if not ranges.ranged:
        top_text = ("This inputs file gives no input a range, so these are single values: state ranges in the "
                    "inputs file, or give M as a count, to get real ones.")
    else:
        top = ranges.swings[0]
        top_text = f"The range of {INPUT_WORDS[top.name]} moves goodput the most, {points(top.goodput_swing)} on its own."
    scheme_note = ""
    if plan.tiers is not None:
        held = "the drain" if plan.tiers.one_tier else (
            f"the drain, the persistent tier and its cadence (every {ordinal(plan.tiers.every)} checkpoint)")
        scheme_note = f" (with {held} as planned)"
    return {
        "t_span": span(*(format_duration(t) for t in best.optimal_interval_range)),
        "g_span": span(*(percent(g) for g in fixed.goodput_range)),
        "scheme_note": scheme_note,
        "top_text": top_text,
    }


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
