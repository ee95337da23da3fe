"""What several pages say alike: how the inputs are named, first order's verdict, the ranges in words."""

from __future__ import annotations

from goodput.fleet import FleetPlan
from goodput.pages import Variant
from goodput.params import Params, load_params
from goodput.report import INPUT_WORDS, input_value, join_words, percent, points, range_origin
from goodput.units import format_duration

#: What a page says in place of a number it does not quote (first order where the one measure refuses it).
NOT_QUOTED = "not quoted"


def is_worked_example(params: Params) -> bool:
    """Whether a fleet's inputs are ``book/params.yml``'s as shipped (GPUs, M, both C, R, price, month, one tier)."""
    w = load_params()
    fields = ("gpus", "mtbi", "checkpoint_cost", "slow_checkpoint_cost", "restart", "price_per_gpu_hour", "month")
    return all(getattr(params, f) == getattr(w, f) for f in fields) and not params.tiered


def inputs_name(params: Params) -> str:
    """The inputs file as named, with ``" (the worked example)"`` when it is: ``"params.yml (the worked example)"``."""
    return f"{params.source} (the worked example)" if is_worked_example(params) else params.source


def span(low: str, high: str) -> str:
    """``"between low and high"``, or ``"at low"`` when the two read the same."""
    return f"at {low}" if low == high else f"between {low} and {high}"


#: How each loss of :data:`goodput.fleet.LOSSES` is named in a sentence or a table.
LOSS_WORDS = {"checkpoint_overhead": "checkpoint overhead", "lost_work": "lost work", "restart_loss": "restart",
              "drain_loss": "checkpoints not yet durable (the drain)"}


def losses_text(fleet: FleetPlan, *, largest_first: bool = True) -> str:
    """The plan's losses in a sentence: ``"lost work 5.1%, checkpoint overhead 4.7% and restart 2.7%"``."""
    losses = fleet.losses
    names = sorted(losses, key=lambda n: -losses[n]) if largest_first else list(losses)
    return join_words([f"{LOSS_WORDS[n]} {percent(losses[n])}" for n in names])


def first_order_variant(fleet: FleetPlan) -> Variant:
    """The paragraph first order's one verdict for the fleet chooses: ``ok``, ``caution``, ``out_of_range``, ``below_zero``.

    The verdict is :attr:`goodput.fleet.FleetPlan.first_order_status` (the scheme's first order against its
    exact model); only ``ok`` and ``caution`` may quote a first-order number.
    """
    return Variant(fleet.first_order_status.replace(" ", "_"))


def gap(fleet: FleetPlan) -> str:
    """How far first order is off for the fleet, in points (``"0.7 points"``); ``"not quoted"`` below zero."""
    return points(abs(fleet.first_order_gap)) if fleet.first_order_status != "below zero" else NOT_QUOTED


def ranges_text(fleet: FleetPlan) -> str:
    """The inputs' ranges with their values and where each came from, then those taken as exact, for a sentence.

    Examples
    --------
    >>> from goodput.fleet import fleet_plan
    >>> ranges_text(fleet_plan(load_params())).split("; ")[0]
    'the checkpoint cost C from 45 s to 2 min (the range stated in the inputs file)'
    """
    r = fleet.ranges
    given = [f"{INPUT_WORDS.get(name, name)} from {input_value(name, r.inputs[name].low)} to "
             f"{input_value(name, r.inputs[name].high)} ({range_origin(r.inputs[name])})" for name in r.ranged]
    exact = [f"{INPUT_WORDS.get(name, name)} taken as exact (no range given)" for name in r.exact]
    return "; ".join(given + exact)


def t_span(fleet: FleetPlan) -> str:
    """Where the best interval lies over the inputs' ranges, through the fleet's scheme: ``"between 15.4 min and 27.3 min"``."""
    return span(*(format_duration(t) for t in fleet.ranges.best.optimal_interval_range))


def g_span(fleet: FleetPlan) -> str:
    """Where goodput at the recommended interval lies over the inputs' ranges: ``"between 81.0% and 90.3%"``."""
    return span(*(percent(g) for g in fleet.ranges.fixed.goodput_range))
