"""One plan for one fleet: the interval, the three losses, the levers, and how it is printed.

The book's answer page and the ``goodput plan`` command both go through
:func:`make_plan`, so they always show the same numbers.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from goodput import model
from goodput.errors import InputError
from goodput.params import Params
from goodput.units import format_minutes


@dataclass(frozen=True)
class Plan:
    """A checkpoint plan and the goodput it leaves under the first-order model.

    Parameters
    ----------
    checkpoint_cost : float
        C in minutes.
    mtbi : float
        M in minutes.
    restart : float
        R in minutes.
    losses : model.Losses
        The interval used and the three losses.
    optimal_interval : float
        T* in minutes (sqrt(2CM) at first order), whether or not it is the interval used.
    problem : str or None
        Why the first-order numbers should not be quoted, or ``None``.
    model : {"first-order", "exact"}
        Which model computed the losses and the optimum.
    caution : str or None
        How far off a first-order number may be, when that is more than a point.
    """

    checkpoint_cost: float
    mtbi: float
    restart: float
    losses: model.Losses
    optimal_interval: float
    problem: str | None
    model: str = "first-order"
    caution: str | None = None

    @property
    def interval(self) -> float:
        """The interval T the losses were computed for, in minutes."""
        return self.losses.interval

    @property
    def goodput(self) -> float:
        """First-order goodput as a fraction of 1."""
        return self.losses.goodput

    def to_dict(self) -> dict[str, float | str | None]:
        """Plain-Python summary (fractions of 1, minutes), as printed by ``--format json``."""
        return {
            "mtbi_min": self.mtbi,
            "checkpoint_cost_min": self.checkpoint_cost,
            "restart_min": self.restart,
            "interval_min": self.interval,
            "optimal_interval_min": self.optimal_interval,
            "checkpoint_overhead": self.losses.checkpoint_overhead,
            "lost_work": self.losses.lost_work,
            "restart_loss": self.losses.restart_loss,
            "goodput": self.goodput,
            "model": self.model,
            "problem": self.problem,
            "caution": self.caution,
        }


#: The models a plan can use.
MODELS = ("first-order", "exact")


def _goodput_function(which: str) -> Callable[..., float]:
    """``goodput(C, M, R, interval=None)`` of the named model."""
    if which == "exact":
        from goodput.exact import exact_goodput

        return exact_goodput
    return model.goodput


def make_plan(
    checkpoint_cost: float, mtbi: float, restart: float, interval: float | None = None, *, which: str = "first-order"
) -> Plan:
    """Plan a checkpoint interval and compute the goodput it leaves.

    Parameters
    ----------
    checkpoint_cost : float
        C, minutes per checkpoint.
    mtbi : float
        M, mean minutes between interruptions of the job.
    restart : float
        R, minutes per restart.
    interval : float, optional
        T, minutes of work between checkpoints; the model's optimum when omitted.
    which : {"first-order", "exact"}
        The first-order model (:mod:`goodput.model`, T* = sqrt(2CM)) or the exact
        model of exponential failures (:mod:`goodput.exact`, Lambert-W optimum).

    Returns
    -------
    Plan
        The plan; with the first-order model, :attr:`Plan.problem` says when the
        formula is out of range. The exact model has no such range.

    Raises
    ------
    InputError
        If an input is zero, negative, NaN or infinite, or the model is unknown.
    """
    model.check_inputs(checkpoint_cost, mtbi, restart, interval)
    if which not in MODELS:
        raise InputError("model", which, f"one of {', '.join(MODELS)}")
    if which == "exact":
        from goodput.exact import exact_losses, exact_optimal_interval

        losses = exact_losses(checkpoint_cost, mtbi, restart, interval)
        best = float(exact_optimal_interval(checkpoint_cost, mtbi))
        problem = caution = None
    else:
        losses = model.losses(checkpoint_cost, mtbi, restart, interval)
        best = float(model.optimal_interval(checkpoint_cost, mtbi))
        problem = model.range_problem(checkpoint_cost, mtbi, restart, interval)
        caution = model.range_caution(checkpoint_cost, mtbi, restart, interval)
    return Plan(
        checkpoint_cost=float(checkpoint_cost),
        mtbi=float(mtbi),
        restart=float(restart),
        losses=losses,
        optimal_interval=best,
        problem=problem,
        model=which,
        caution=caution,
    )


def plan_for(params: Params, *, slow: bool = False, interval: float | None = None, which: str = "first-order") -> Plan:
    """Plan for a fleet described by a parameters file.

    Parameters
    ----------
    params : Params
        The fleet's inputs.
    slow : bool, optional
        Use ``slow_checkpoint_cost`` instead of ``checkpoint_cost``.
    interval : float, optional
        The interval in use, in minutes; the optimum when omitted.
    which : {"first-order", "exact"}
        The model (see :func:`make_plan`).

    Returns
    -------
    Plan
        See :func:`make_plan`.
    """
    cost = params.slow_checkpoint_cost if slow else params.checkpoint_cost
    return make_plan(cost, params.mtbi, params.restart, interval, which=which)


def first_order_warning(params: Params) -> str | None:
    """A warning for pages that quote first-order numbers, when these inputs put them out of range.

    Parameters
    ----------
    params : Params
        The fleet's inputs.

    Returns
    -------
    str or None
        Markdown text naming the problem for the fast or the slow checkpoint, or
        ``None`` when the first-order formula applies to both.
    """
    plans = {"fast": plan_for(params), "slow": plan_for(params, slow=True)}
    out = [label for label, plan in plans.items() if plan.problem]
    if not out:
        return None
    which = "both checkpoint costs" if len(out) == 2 else f"the {out[0]} checkpoint"
    problems = "; ".join(f"with the {label} checkpoint, {plans[label].problem}" for label in out)
    return (
        f"**Warning: for {which}, these inputs are beyond the first-order formula's range** ({problems}). "
        f"The first-order numbers on this page for {which} do not describe this fleet; the chapters on the "
        "exact model and on fleet size give the numbers to use."
    )


def file_sources(params: Params) -> dict[str, str]:
    """Where each input of a plan built from a parameters file came from.

    Parameters
    ----------
    params : Params
        The fleet's inputs.

    Returns
    -------
    dict of str to str
        Keyed ``"M"``, ``"C"`` and ``"R"``, as :func:`render` takes them.
    """
    return {
        "M": params.describe_mtbi(),
        "C": f"checkpoint_cost ({params.source})",
        "R": f"restart ({params.source})",
    }


#: The levers, in the order the book shows them.
LEVERS = ("halve C", "halve R", "halve the failure rate", "set the interval right")


def levers(
    checkpoint_cost: float, mtbi: float, restart: float, interval: float, *, which: str = "first-order"
) -> dict[str, float]:
    """Goodput gained by each lever, in fractions of 1.

    The three input levers are measured optimum to optimum: goodput at the best
    interval for the changed input minus goodput at the best interval for the
    current inputs, so they do not also count the interval fix. The interval
    lever is goodput at T* minus goodput at the interval in use. The gains of
    an input lever and of the interval lever therefore add up to the gain of
    doing both.

    Parameters
    ----------
    checkpoint_cost : float
        C, minutes per checkpoint.
    mtbi : float
        M, mean minutes between interruptions.
    restart : float
        R, minutes per restart.
    interval : float
        The interval in use, in minutes.
    which : {"first-order", "exact"}
        The model that computes goodput (see :func:`make_plan`).

    Returns
    -------
    dict of str to float
        Keyed by the names in :data:`LEVERS`.
    """
    g = _goodput_function(which)
    best = float(g(checkpoint_cost, mtbi, restart))
    return {
        "halve C": float(g(checkpoint_cost / 2, mtbi, restart)) - best,
        "halve R": float(g(checkpoint_cost, mtbi, restart / 2)) - best,
        "halve the failure rate": float(g(checkpoint_cost, 2 * mtbi, restart)) - best,
        "set the interval right": best - float(g(checkpoint_cost, mtbi, restart, interval)),
    }


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _is_optimal(plan: Plan) -> bool:
    return abs(plan.interval - plan.optimal_interval) <= 1e-9 * plan.optimal_interval


def recommendation(plan: Plan) -> str:
    """One sentence: the interval to use and the goodput it leaves.

    Parameters
    ----------
    plan : Plan
        The plan.

    Returns
    -------
    str
        Plain text, suitable for a terminal or a Markdown document.
    """
    how = "T* = sqrt(2CM)" if plan.model == "first-order" else "exact optimum for exponential failures"
    best = f"Checkpoint every {format_minutes(plan.optimal_interval)} of work ({how})"
    if _is_optimal(plan):
        return f"{best}: goodput {_pct(plan.goodput)}."
    at_best = make_plan(plan.checkpoint_cost, plan.mtbi, plan.restart, which=plan.model).goodput
    return (
        f"{best}: goodput {_pct(at_best)}. The interval in use, {format_minutes(plan.interval)}, "
        f"gives {_pct(plan.goodput)} ({100 * (at_best - plan.goodput):.1f} points less)."
    )


def _sections(plan: Plan, sources: Mapping[str, str]) -> list[tuple[str, list[tuple[str, str, str]]]]:
    """The rows of each section as (name, value, note)."""
    first = plan.model == "first-order"
    optimum = "optimum sqrt(2CM)" if first else "exact optimum"
    interval_note = optimum if _is_optimal(plan) else sources.get("T", "given")
    inputs = [
        ("mean time between interruptions, M", format_minutes(plan.mtbi), sources.get("M", "")),
        ("checkpoint cost, C", format_minutes(plan.checkpoint_cost), sources.get("C", "")),
        ("restart time, R", format_minutes(plan.restart), sources.get("R", "")),
        ("checkpoint interval, T", format_minutes(plan.interval), interval_note),
    ]
    losses = [
        ("checkpoint overhead" + (", C/T" if first else ""), _pct(plan.losses.checkpoint_overhead), ""),
        ("lost work" + (", T/(2M)" if first else ""), _pct(plan.losses.lost_work), ""),
        ("restart" + (", R/M" if first else ""), _pct(plan.losses.restart_loss), ""),
        ("goodput", _pct(plan.goodput), "" if first else "exact model"),
    ]
    gains = levers(plan.checkpoint_cost, plan.mtbi, plan.restart, plan.interval, which=plan.model)
    lever_rows = [(name, f"+{100 * gain:.1f} points", "") for name, gain in sorted(gains.items(), key=lambda x: -x[1])]
    return [("inputs", inputs), ("losses", losses), ("levers", lever_rows)]


def render(plan: Plan, fmt: str = "table", sources: Mapping[str, str] | None = None) -> str:
    """Print a plan as a terminal table, a Markdown section for a planning document, or one JSON object.

    Every format carries the same content: the recommendation, the inputs
    (with where each came from), the three losses and goodput, and the goodput
    each lever would gain (see :func:`levers`).

    Parameters
    ----------
    plan : Plan
        The plan; it must be in the first-order formula's range.
    fmt : {"table", "markdown", "json"}
        Output format.
    sources : mapping of str to str, optional
        Where each input came from, keyed ``"M"``, ``"C"``, ``"R"`` and ``"T"``.

    Returns
    -------
    str
        The rendered plan, without a trailing newline.
    """
    sources = sources or {}
    if fmt == "json":
        data: dict[str, object] = dict(plan.to_dict())
        data["levers"] = levers(plan.checkpoint_cost, plan.mtbi, plan.restart, plan.interval, which=plan.model)
        data["sources"] = dict(sources)
        return json.dumps(data, indent=2)
    sections = _sections(plan, sources)
    if fmt == "markdown":
        lines = ["### Checkpoint plan", "", f"**Recommendation.** {recommendation(plan)}", ""]
        headers = {
            "inputs": "| input | value | source |\n|---|---:|---|",
            "losses": "| loss | share of wall time |\n|---|---:|",
            "levers": "| lever | goodput gained |\n|---|---:|",
        }
        for name, rows in sections:
            lines.append(headers[name])
            for key, value, note in rows:
                if name == "inputs":
                    lines.append(f"| {key} | {value} | {note} |")
                elif key == "goodput":
                    lines.append(f"| **{key}** | **{value}** |")
                else:
                    lines.append(f"| {key} | {value} |")
            lines.append("")
        lines.append("Levers: inputs halved and the interval re-optimized; the interval lever moves T to the optimum.")
        if plan.caution:
            lines += ["", f"> Note: {plan.caution}."]
        return "\n".join(lines)
    width = max(len(k) for _, rows in sections for k, _, _ in rows)
    vwidth = max(len(v) for _, rows in sections for _, v, _ in rows)
    lines = textwrap.wrap(recommendation(plan), width=78)
    for name, rows in sections:
        lines += ["", f"{name}:"]
        for key, value, note in rows:
            if key == "goodput":
                lines.append("  " + "-" * (width + 2 + vwidth))
            # Notes longer than a short tag (the inputs' sources) go on their own line, to keep the table narrow.
            short = note if len(note) <= 20 else ""
            lines.append(f"  {key:<{width}}  {value:>{vwidth}}" + (f"   {short}" if short else ""))
            if note and not short:
                lines.append(f"    from {note}")
    if plan.caution:
        lines += ["", *textwrap.wrap(f"note: {plan.caution}.", width=78)]
    return "\n".join(lines)


def headline(params: Params) -> dict[str, float]:
    """The answer page's numbers for one fleet, as plain floats.

    Parameters
    ----------
    params : Params
        The fleet's inputs.

    Returns
    -------
    dict of str to float
        ``mtbi`` and ``interval`` (minutes), the three losses and ``goodput``
        (fractions of 1) at the optimum with the fast checkpoint; ``slow_interval``
        and ``slow_goodput`` with the slow one; ``points`` (the goodput
        difference, a fraction of 1) and ``capacity`` (US dollars a month that
        difference is worth at list price).
    """
    fast = plan_for(params)
    slow = plan_for(params, slow=True)
    points = fast.goodput - slow.goodput
    return {
        "mtbi": fast.mtbi,
        "interval": fast.interval,
        "checkpoint_overhead": fast.losses.checkpoint_overhead,
        "lost_work": fast.losses.lost_work,
        "restart_loss": fast.losses.restart_loss,
        "goodput": fast.goodput,
        "slow_interval": slow.interval,
        "slow_goodput": slow.goodput,
        "points": points,
        "capacity": model.capacity_per_month(points, params.gpus, params.price_per_gpu_hour, params.month),
    }
