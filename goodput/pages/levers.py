"""The chapter "What moves the number" (``book/levers.md``): what each lever is worth, and the brief's worked example.

Two sets of inputs, never mixed in one number:

- **the fleet's** (the book's inputs file, ``params``): every section but the last, by the
  exact model the recommendation comes from (:func:`goodput.plan.plan_for`,
  :func:`goodput.plan.headline`), in neutral words. A "badly chosen interval" for the fleet
  is one off its exact optimum by a factor of two (:data:`OFF_BY`).
- **the brief's worked example** (:func:`goodput.params.load_params` with no argument): its
  team, its 15-versus-45-minute debate (:data:`DEBATE`), its 40-minute habit (:data:`HABIT`),
  its 12.8 points and $3.8M, in the brief's first-order arithmetic, labelled as such and set
  beside the exact model, whatever file the book is built from.

How far first order is off at a fleet size is the one measure of :mod:`goodput.pages.scale`
(:func:`~goodput.pages.scale.first_order_limits`, :func:`~goodput.pages.scale.error_verdict`),
so this page and ``book/scale.md`` give the same thresholds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from goodput import exact, model
from goodput.pages.common import is_worked_example, worked_example
from goodput.pages.scale import close_enough, error_verdict, first_order_limits, gpus_text
from goodput.params import Params, mtbi_from_rate
from goodput.plan import LEVERS, Plan, headline, plan_for, plan_levers
from goodput.report import count, money, ordinal, percent, points
from goodput.units import format_duration, format_rate

if TYPE_CHECKING:
    import pandas as pd

#: The two intervals of the brief's debate, minutes.
DEBATE = (15.0, 45.0)
#: The brief's interval chosen by habit, minutes.
HABIT = 40.0
#: How this book reads the brief's "within a few percent": fewer than this many points (a fraction of 1).
FEW = 0.05
#: The range of ratios read as the brief's "four times".
FOUR_TIMES = (3.0, 5.0)
#: The fleet's badly chosen intervals: this many times the exact optimum, and its inverse.
OFF_BY = 2.0
#: Fleet sizes in the table of the fleet-size section (the fleet's own size is added).
FLEET_SIZES = tuple(1024 * 2**k for k in range(8))


def _duration_cost(cost: float) -> str:
    return f"C = {format_duration(cost)}"


def scheme_text(plan: Plan) -> str:
    """The fast checkpoint of a plan as a phrase: "a checkpoint of 1 min", or its snapshot, drain and persistent tier.

    Parameters
    ----------
    plan : Plan
        A plan from :func:`goodput.plan.plan_for`.

    Returns
    -------
    str
        For a plan with a drain or two tiers, e.g. "a snapshot of 40 s, durable 6 min later, with every 3rd
        checkpoint also written to the persistent tier in 4 min".
    """
    s = plan.tiers
    if s is None:
        return f"a checkpoint of {format_duration(plan.checkpoint_cost)}"
    text = f"a snapshot of {format_duration(s.checkpoint_cost)}"
    if s.drain > 0:
        text += f", durable {format_duration(s.drain)} later"
    if not s.one_tier:
        which = "every checkpoint" if s.every == 1 else f"every {ordinal(s.every)} checkpoint"
        text += f", with {which} also written to the persistent tier in {format_duration(s.persistent_cost or 0.0)}"
    return text


def _tier_parts(plan: Plan) -> str:
    """What a plan adds to one checkpoint: drain, persistent tier, or both; empty for a single tier."""
    s = plan.tiers
    if s is None:
        return ""
    return " and ".join((["drain"] if s.drain > 0 else []) + ([] if s.one_tier else ["persistent tier"]))


def scheme_name(plan: Plan) -> str:
    """The fast checkpoint of a plan, named short: "the 1 min checkpoint", "the 40 s snapshot with its drain"."""
    if plan.tiers is None:
        return f"the {format_duration(plan.checkpoint_cost)} checkpoint"
    return f"the {format_duration(plan.checkpoint_cost)} snapshot with its {_tier_parts(plan)}"


def tier_note(params: Params) -> str:
    """A sentence for sections that leave a fleet's drain and persistent tier out; empty for a single tier."""
    if not params.tiered:
        return ""
    return (" This section takes one checkpoint that is safe as soon as it is taken; this fleet's drain and "
            "persistent tier are left out of it (they are in the goodput of the sections above).")


# --------------------------------------------------------------------------- the opening


def opening(params: Params) -> dict[str, str]:
    """The opening: which fleet the page is about, and how that relates to the brief's worked example.

    Parameters
    ----------
    params : Params
        The fleet's inputs.

    Returns
    -------
    dict of str to str
        ``fleet`` (GPUs and inputs file) and ``inputs_note`` (a sentence).
    """
    if is_worked_example(params):
        note = ("This build's inputs are the brief's worked example, so the sections before the last give that "
                "example's numbers by the exact model, and the last reproduces the brief's own first-order "
                "arithmetic beside them.")
    else:
        note = (f"That section does not use {params.source}: it is computed from the brief's own inputs whatever "
                "file the book is built from.")
    return {"fleet": f"{count(params.gpus, 'GPU')}, from {params.source}", "inputs_note": note}


# --------------------------------------------------------------------------- a cheaper checkpoint


def cheaper_checkpoint(params: Params) -> dict[str, str]:
    """The fleet's fast against its slow checkpoint, each at its exact optimum, and the capacity between them.

    Parameters
    ----------
    params : Params
        The fleet's inputs.

    Returns
    -------
    dict of str to str
        Keys prefixed ``cost_``: both costs and goodputs, the points between them, GPU-hours and dollars
        a month, the price and the month.
    """
    h = headline(params)
    gpu_hours = h["points"] * params.gpus * params.month / 60.0
    return {
        "cost_fast": format_duration(params.checkpoint_cost),
        "cost_scheme": scheme_text(plan_for(params)),
        "cost_slow": format_duration(params.slow_checkpoint_cost),
        "cost_fast_interval": format_duration(h["interval"]),
        "cost_slow_interval": format_duration(h["slow_interval"]),
        "cost_goodput": percent(h["goodput"]),
        "cost_slow_goodput": percent(h["slow_goodput"]),
        "cost_points": points(h["points"]),
        "cost_gpus": count(params.gpus, "GPU"),
        "cost_month": format_duration(params.month),
        "cost_gpu_hours": f"{gpu_hours:,.0f} GPU-hours",
        "cost_capacity": money(h["capacity"]),
        "cost_price": f"${params.price_per_gpu_hour:g}",
    }


def cost_figure(params: Params) -> dict[str, Any]:
    """The arguments of :func:`goodput.book.figures.goodput_vs_cost`: the fleet's M and R, its two costs marked.

    For a fleet with a drain or a persistent tier, its checkpoint's goodput (from the plan) is a separate
    point, off the curves of one immediately safe checkpoint; the slow checkpoint stays on them.
    """
    best = plan_for(params)
    if best.tiers is None:
        return {"mtbi": params.mtbi, "restart": params.restart,
                "marks": [params.checkpoint_cost, params.slow_checkpoint_cost]}
    label = f"this fleet: {_duration_cost(params.checkpoint_cost)} with its {_tier_parts(best)} (exact)"
    return {"mtbi": params.mtbi, "restart": params.restart, "marks": [params.slow_checkpoint_cost],
            "points": [(params.checkpoint_cost, best.goodput, label)]}


# --------------------------------------------------------------------------- a badly chosen interval


def badly_chosen_interval(params: Params) -> dict[str, str]:
    """The fleet's fast checkpoint at twice and at half its exact optimum, against the slower checkpoint's cost.

    With a drain, an interval shorter than the drain is not possible (one drain is in flight at a time), so
    the shorter interval is left out when half the optimum is below the drain.

    Parameters
    ----------
    params : Params
        The fleet's inputs.

    Returns
    -------
    dict of str to str
        Keys prefixed ``interval_``: the checkpoint's name, the optimum and its goodput, the longer interval
        and the points it loses, ``interval_shorter`` (a sentence on the shorter one, or empty), and
        ``interval_verdict``, which compares the worse of them with the points the slower checkpoint costs.
    """
    best = plan_for(params)
    slow = plan_for(params, slow=True)
    long_ = plan_for(params, interval=OFF_BY * best.interval)
    losses = [best.goodput - long_.goodput]
    shorter = ""
    if best.interval / OFF_BY >= (best.tiers.drain if best.tiers else 0.0):
        short = plan_for(params, interval=best.interval / OFF_BY)
        losses.append(best.goodput - short.goodput)
        shorter = (f" Checkpointing twice as often, every {format_duration(short.interval)}, gives "
                   f"{percent(short.goodput)}, {points(best.goodput - short.goodput)} less.")
    worse = max(losses)
    cheaper = best.goodput - slow.goodput
    factor = f"{OFF_BY:g}"
    if cheaper > worse:
        verdict = (f"The slower checkpoint of {format_duration(params.slow_checkpoint_cost)} costs "
                   f"{points(cheaper)} even at its own best interval, {cheaper / worse:.1f} times as much as an "
                   f"interval off by a factor of {factor}: once the interval is roughly right, the checkpoint cost "
                   "is where the goodput is.")
    else:
        verdict = (f"The slower checkpoint of {format_duration(params.slow_checkpoint_cost)} costs "
                   f"{points(cheaper)} at its own best interval, no more than an interval off by a factor of "
                   f"{factor}: for this fleet, setting the interval right is worth as much as a cheaper checkpoint.")
    return {
        "interval_scheme": scheme_name(best),
        "interval_best": format_duration(best.interval),
        "interval_goodput": percent(best.goodput),
        "interval_long": format_duration(long_.interval),
        "interval_long_goodput": percent(long_.goodput),
        "interval_long_points": points(best.goodput - long_.goodput),
        "interval_shorter": shorter,
        "interval_verdict": verdict,
    }


#: Points on a curve computed through the plan (for a checkpoint with a drain or a persistent tier).
CURVE_POINTS = 120


def interval_figure(params: Params) -> dict[str, Any]:
    """The arguments of :func:`goodput.book.figures.goodput_vs_interval` for the fleet: its two costs, no marks.

    For a fleet with a drain or a persistent tier, its checkpoint's curve is computed through
    :func:`goodput.plan.plan_for` at each interval (by both models, from the drain up), so it is the curve of
    the plan the page quotes; the slow checkpoint is one immediately safe checkpoint.
    """
    best = plan_for(params)
    if best.tiers is None:
        return {"mtbi": params.mtbi, "restart": params.restart,
                "costs": [params.checkpoint_cost, params.slow_checkpoint_cost]}
    import numpy as np

    low = max(best.tiers.drain, best.interval / 4)
    t = np.linspace(low, 2.5 * best.interval, CURVE_POINTS)
    exact_g = [plan_for(params, interval=float(x)).goodput for x in t]
    first_g = [plan_for(params, interval=float(x), which="first-order").goodput for x in t]
    label = f"{_duration_cost(params.checkpoint_cost)} with its {_tier_parts(best)}"
    return {"mtbi": params.mtbi, "restart": params.restart, "costs": [params.slow_checkpoint_cost],
            "curves": {label: (t, exact_g, first_g, (best.interval, best.goodput))}}


# --------------------------------------------------------------------------- the levers


def _scenarios(params: Params) -> dict[str, Plan]:
    """Two ways the fleet could run, labelled.

    Its fast checkpoint at :data:`OFF_BY` times its optimum, and its slow one at its optimum divided by it.
    """
    fast_best, slow_best = plan_for(params), plan_for(params, slow=True)
    fast = plan_for(params, interval=fast_best.interval * OFF_BY)
    slow = plan_for(params, slow=True, interval=slow_best.interval / OFF_BY)
    tiers = f" with {_tier_parts(fast)}" if fast.tiers else ""
    return {
        f"{_duration_cost(params.checkpoint_cost)}{tiers}, every {format_duration(fast.interval)} "
        f"({OFF_BY:g} × its T*)": fast,
        f"{_duration_cost(params.slow_checkpoint_cost)}, every {format_duration(slow.interval)} "
        f"(its T* / {OFF_BY:g})": slow,
    }


def lever_scenarios(params: Params) -> dict[str, dict[str, float]]:
    """The goodput each lever gains (fractions of 1, exact model) in the two scenarios of the lever figure.

    Parameters
    ----------
    params : Params
        The fleet's inputs.

    Returns
    -------
    dict of str to dict of str to float
        Scenario label (the checkpoint and the interval in use), then :data:`goodput.plan.LEVERS` and, for a
        fleet with a drain or a persistent tier, the levers those add (:func:`goodput.plan.plan_levers`).
    """
    return {label: plan_levers(plan) for label, plan in _scenarios(params).items()}


def lever_figure(params: Params) -> dict[str, Any]:
    """The arguments of :func:`goodput.book.figures.lever_gains`: the fleet's scenarios, by the exact model."""
    return {"gains": lever_scenarios(params), "which": "exact"}


def lever_section(params: Params) -> dict[str, str]:
    """The sentences on the levers for the fleet, by the exact model.

    Parameters
    ----------
    params : Params
        The fleet's inputs.

    Returns
    -------
    dict of str to str
        Keys prefixed ``levers_``: the two checkpoints and intervals in use, each lever's gain in each scenario
        (``levers_fast_halve_C`` ...), the largest input lever with the fast checkpoint, a sentence on R and
        one on the drain and persistent-tier levers (empty without them).
    """
    scenarios = _scenarios(params)
    (fast_label, fast), (slow_label, slow) = scenarios.items()
    gains = lever_scenarios(params)
    out = {"levers_fast_interval": format_duration(fast.interval), "levers_slow_interval": format_duration(slow.interval),
           "levers_fast": scheme_name(fast), "levers_slow": f"the {format_duration(params.slow_checkpoint_cost)} checkpoint"}
    for key, label in (("fast", fast_label), ("slow", slow_label)):
        for lever in LEVERS:
            out[f"levers_{key}_{lever.replace(' ', '_')}"] = points(gains[label][lever])
    inputs_only = {k: v for k, v in gains[fast_label].items() if k != "set the interval right"}
    top = max(inputs_only, key=lambda k: inputs_only[k])
    out["levers_top"] = f"{top}, {points(inputs_only[top])}"
    restart = (f"Halving the restart time is worth {points(gains[fast_label]['halve R'])} with the fast checkpoint and "
               f"{points(gains[slow_label]['halve R'])} with the slow one")
    if fast.tiers is None:
        restart += (": in the exact model R scales goodput by e^(−R/M) whatever the interval, so halving it gains in "
                    "proportion to the goodput that is left")
    out["levers_restart"] = restart
    tiers = [f"{lever} {points(gains[fast_label][lever])}" for lever in ("shorten the drain",
                                                                          "make the fast tier survive more failures")
             if lever in gains[fast_label]]
    out["levers_tiers"] = (" The drain and the persistent tier add levers of their own (each halves what it names): "
                           + " and ".join(f"to {t}" for t in tiers) + ".") if tiers else ""
    return out


# --------------------------------------------------------------------------- fleet size


def _sizes(params: Params) -> list[int]:
    return sorted({*FLEET_SIZES, params.gpus})


def fleet_size(params: Params) -> dict[str, str]:
    """The sentences on fleet size: doubling the fleet, and where first order stops being close.

    Parameters
    ----------
    params : Params
        The fleet's inputs.

    Returns
    -------
    dict of str to str
        Keys prefixed ``fleet_``: the rate; M, the exact optimum and goodput now and at twice the GPUs, the
        ratio of the optima; the sizes beyond which first order is off by one and by three points
        (:func:`goodput.pages.scale.first_order_limits`) and the verdict for this fleet.
    """
    c, r = params.checkpoint_cost, params.restart
    single = params.without_tiers()
    doubled = single.replace(gpus=2 * params.gpus, mtbi=params.mtbi / 2)
    now, then = plan_for(single), plan_for(doubled)
    limits = first_order_limits(c, r, params.rate_per_gpu_hour)
    error = float(exact.first_order_error(c, params.mtbi, r))
    return {
        "fleet_rate": format_rate(params.rate_per_gpu_hour),
        "fleet_gpus": count(params.gpus, "GPU"),
        "fleet_gpus2": count(doubled.gpus, "GPU"),
        "fleet_m": format_duration(params.mtbi),
        "fleet_m2": format_duration(doubled.mtbi),
        "fleet_t": format_duration(now.interval),
        "fleet_t2": format_duration(then.interval),
        "fleet_ratio": f"{now.interval / then.interval:.3f}",
        "fleet_g": percent(now.goodput),
        "fleet_g2": percent(then.goodput),
        "fleet_cost": format_duration(c),
        "fleet_restart": format_duration(r),
        "fleet_caution": points(model.FIRST_ORDER_CAUTION, 0),
        "fleet_tolerance": points(model.FIRST_ORDER_TOLERANCE, 0),
        "fleet_one_point": gpus_text(limits.one_point),
        "fleet_three_points": gpus_text(limits.three_points),
        "fleet_error": points(error),
        "fleet_verdict": error_verdict(error),
        "fleet_note": tier_note(params),
    }


def fleet_table(params: Params) -> dict[str, Any]:
    """M, both optima and both goodputs by fleet size, as arguments of :func:`goodput.book.tables.book_table`.

    Parameters
    ----------
    params : Params
        The fleet's inputs (its per-GPU rate, fast checkpoint and restart; its own size is a row).

    Returns
    -------
    dict
        ``frame``, ``caption`` and ``right``.
    """
    import pandas as pd

    c, r, rate = params.checkpoint_cost, params.restart, params.rate_per_gpu_hour
    rows = []
    for n in _sizes(params):
        m = float(mtbi_from_rate(rate, n))
        error = float(exact.first_order_error(c, m, r))
        rows.append({
            "GPUs": gpus_text(n),
            "M": format_duration(m),
            "exact T*": format_duration(float(exact.exact_optimal_interval(c, m))),
            "exact goodput": percent(float(exact.exact_goodput(c, m, r))),
            "first-order T*": format_duration(float(model.optimal_interval(c, m))),
            "first-order goodput": percent(float(model.goodput(c, m, r))),
            "first order low by (points)": f"{100 * error:.1f}",
        })
    frame = pd.DataFrame(rows)
    caption = (f"M, the optimum interval T* and goodput at T* by fleet size, by the exact model and by first order, "
               f"and how far first order's goodput is below the exact one, at {format_rate(rate)} interruptions per "
               f"GPU-hour, C = {format_duration(c)} and R = {format_duration(r)}. This fleet is the row of "
               f"{count(params.gpus, 'GPU')}.")
    return {"frame": frame, "caption": caption, "right": list(frame.columns)}


def fleet_figure(params: Params) -> dict[str, Any]:
    """The arguments of :func:`goodput.book.figures.fleet_scaling`.

    Parameters
    ----------
    params : Params
        The fleet's inputs.

    Returns
    -------
    dict
        The fleet's rate, fast checkpoint and restart, the sizes of :func:`fleet_table`, the fleet's own
        size to mark, and whether first order is within three points at each size.
    """
    sizes = _sizes(params)
    m = [float(mtbi_from_rate(params.rate_per_gpu_hour, n)) for n in sizes]
    in_range = [close_enough(float(exact.first_order_error(params.checkpoint_cost, mi, params.restart))) for mi in m]
    return {"rate_per_gpu_hour": params.rate_per_gpu_hour, "checkpoint_cost": params.checkpoint_cost,
            "restart": params.restart, "gpus": sizes, "fleet": float(params.gpus), "in_range": in_range}


# --------------------------------------------------------------------------- the brief's worked example


def brief_example(params: Params) -> dict[str, str]:
    """The brief's worked example: its inputs, its first-order arithmetic and the exact model on the same inputs.

    Every number is computed from :func:`worked_example`; `params` only decides the sentence saying whether
    this build's inputs are the same.

    Parameters
    ----------
    params : Params
        The inputs the book is built from.

    Returns
    -------
    dict of str to str
        Keys prefixed ``brief_``.
    """
    w = worked_example()
    c, cs, m, r = w.checkpoint_cost, w.slow_checkpoint_cost, w.mtbi, w.restart
    first, ex = headline(w, which="first-order"), headline(w)
    habit_first = model.losses(c, m, r, HABIT)
    habit_exact = float(exact.exact_goodput(c, m, r, HABIT))
    first_habit_pts = first["goodput"] - habit_first.goodput
    exact_habit_pts = ex["goodput"] - habit_exact
    first_ratio, exact_ratio = first["points"] / first_habit_pts, ex["points"] / exact_habit_pts
    if first_ratio > 1 and exact_ratio > 1:
        conclusion = (f"By either model the cheaper checkpoint is worth more than fixing the habitual interval "
                      f"({first_ratio:.1f} times as much by first order, {exact_ratio:.1f} by the exact model): the "
                      "brief's conclusion stands.")
    else:
        conclusion = (f"The cheaper checkpoint is worth {first_ratio:.1f} times the interval fix by first order and "
                      f"{exact_ratio:.1f} times by the exact model: the brief's conclusion does not hold by both.")
    slow_check = exact.range_check(cs, m, r)
    error = float(exact.first_order_error(cs, m, r))
    if is_worked_example(params):
        build = "These are also the inputs this build was made from."
    else:
        build = (f"They are not the inputs this build was made from ({params.source}): nothing in this section "
                 "uses that file.")
    return {
        "brief_gpus": count(w.gpus, "GPU"),
        "brief_m": format_duration(m),
        "brief_count": count(w.interruption_count or 0, "unexpected interruption"),
        "brief_window": format_duration(w.window or 0.0),
        "brief_cost": format_duration(c),
        "brief_slow": format_duration(cs),
        "brief_restart": format_duration(r),
        "brief_price": f"${w.price_per_gpu_hour:g}",
        "brief_month": format_duration(w.month),
        "brief_build": build,
        "brief_t": format_duration(first["interval"]),
        "brief_g": percent(first["goodput"]),
        "brief_slow_t": format_duration(first["slow_interval"]),
        "brief_slow_g": percent(first["slow_goodput"]),
        "brief_points": points(first["points"]),
        "brief_gpu_hours": f"{first['points'] * w.gpus * w.month / 60.0:,.0f} GPU-hours",
        "brief_capacity": money(first["capacity"]),
        "brief_habit": format_duration(HABIT),
        "brief_habit_ckpt": percent(habit_first.checkpoint_overhead),
        "brief_habit_lost": percent(habit_first.lost_work),
        "brief_habit_rst": percent(habit_first.restart_loss),
        "brief_habit_g": percent(habit_first.goodput),
        "brief_habit_points": points(first_habit_pts),
        "brief_exact_t": format_duration(ex["interval"]),
        "brief_exact_g": percent(ex["goodput"]),
        "brief_exact_slow_t": format_duration(ex["slow_interval"]),
        "brief_exact_slow_g": percent(ex["slow_goodput"]),
        "brief_exact_points": points(ex["points"]),
        "brief_exact_capacity": money(ex["capacity"]),
        "brief_exact_habit_g": percent(habit_exact),
        "brief_exact_habit_points": points(exact_habit_pts),
        "brief_conclusion": conclusion,
        "brief_slow_error": points(error),
        "brief_slow_status": ("first order's own check cautions about it" if slow_check.status == "caution"
                              else "first order's own check refuses it" if not slow_check.quotable
                              else "first order's own check lets it pass without a caution"),
    }


def _both(cost: float, mtbi: float, restart: float, interval: float | None = None) -> tuple[float, float]:
    """Goodput by first order and by the exact model (at each model's own optimum when interval is None)."""
    return float(model.goodput(cost, mtbi, restart, interval)), float(exact.exact_goodput(cost, mtbi, restart, interval))


def debate_numbers() -> dict[str, dict[str, float]]:
    """The brief's debate in numbers, from the worked example, for its fast and its slow checkpoint.

    Returns
    -------
    dict of str to dict of str to float
        Keyed ``"fast"`` and ``"slow"``, then: ``cost``; ``first_short``, ``first_long``, ``short``, ``long``
        (goodput at the two intervals, first order and exact); ``best`` and ``optimum`` (the exact optimum's
        goodput and interval); ``gap`` and ``first_gap`` (the two intervals' difference, exact and first
        order); ``ratio``, the fix (below) over ``gap``. And keyed ``"fix"``: ``long`` and ``short``, the
        points the team gains by moving from its slow checkpoint at each interval to the fast checkpoint at
        its exact optimum.
    """
    w = worked_example()
    short, long_ = DEBATE
    out: dict[str, dict[str, float]] = {}
    for key, cost in (("fast", w.checkpoint_cost), ("slow", w.slow_checkpoint_cost)):
        fs, es = _both(cost, w.mtbi, w.restart, short)
        fl, el = _both(cost, w.mtbi, w.restart, long_)
        out[key] = {"cost": cost, "first_short": fs, "short": es, "first_long": fl, "long": el,
                    "best": float(exact.exact_goodput(cost, w.mtbi, w.restart)),
                    "optimum": float(exact.exact_optimal_interval(cost, w.mtbi)),
                    "gap": abs(el - es), "first_gap": abs(fl - fs)}
    fast_best = out["fast"]["best"]
    out["fix"] = {"long": fast_best - out["slow"]["long"], "short": fast_best - out["slow"]["short"]}
    for key in ("fast", "slow"):
        out[key]["ratio"] = out["fix"]["long"] / out[key]["gap"]
    return out


def _holds(gap: float) -> str:
    return "holds" if gap < FEW else "does not hold"


def _four_times(fast: float, slow: float) -> str:
    low, high = FOUR_TIMES
    near = (low <= fast <= high, low <= slow <= high)
    return {
        (True, True): "is about right at both checkpoint costs",
        (True, False): "is about right only when the debate is held at the fast checkpoint cost",
        (False, True): "is about right only at the slow checkpoint cost, the team's",
        (False, False): "does not hold at either checkpoint cost",
    }[near]


def debate() -> dict[str, str]:
    """The sentences on the brief's debate: each claim of the brief against its own inputs, by both models.

    Returns
    -------
    dict of str to str
        Keys prefixed ``debate_``: the intervals, the gaps and the verdicts on "within a few percent"
        (fewer than :data:`FEW`) and "four times" (between the bounds of :data:`FOUR_TIMES`), and what first
        order gets wrong at the slow checkpoint with the short interval.
    """
    w = worked_example()
    d = debate_numbers()
    fast, slow = d["fast"], d["slow"]
    short, long_ = DEBATE
    better_short = slow["short"] > slow["long"]
    better = short if better_short else long_
    check = exact.range_check(slow["cost"], w.mtbi, w.restart, short)
    if not check.quotable:
        status = f"refuses to quote it: first order is {points(check.error)} below the exact model there"
    elif check.status == "caution":
        status = f"quotes it with a caution: first order is {points(check.error)} below the exact model there"
    else:
        status = "quotes it without a caution"
    return {
        "debate_short": format_duration(short),
        "debate_long": format_duration(long_),
        "debate_fast": format_duration(fast["cost"]),
        "debate_slow": format_duration(slow["cost"]),
        "debate_few": points(FEW, 0),
        "debate_fast_gap": points(fast["gap"]),
        "debate_fast_first_gap": points(fast["first_gap"]),
        "debate_fast_verdict": _holds(fast["gap"]),
        "debate_slow_short": percent(slow["short"]),
        "debate_slow_long": percent(slow["long"]),
        "debate_slow_gap": points(slow["gap"]),
        "debate_slow_verdict": _holds(slow["gap"]),
        "debate_times": f"{long_ / short:g}",
        "debate_better": format_duration(better),
        "debate_better_gap": points(slow["best"] - (slow["short"] if better_short else slow["long"])),
        "debate_optimum": format_duration(slow["optimum"]),
        "debate_slow_first_gap": points(slow["first_gap"]),
        "debate_ct": f"{slow['cost'] / short:.2f}",
        "debate_slow_first_short": percent(slow["first_short"]),
        "debate_slow_short_error": points(slow["short"] - slow["first_short"]),
        "debate_first_status": status,
        "debate_fix": points(d["fix"]["long"]),
        "debate_fix_short": points(d["fix"]["short"]),
        "debate_ratio_fast": f"{fast['ratio']:.1f}",
        "debate_ratio_slow": f"{slow['ratio']:.1f}",
        "debate_four": _four_times(fast["ratio"], slow["ratio"]),
        "debate_short_loss": points(slow["best"] - slow["short"]),
    }


def debate_table() -> dict[str, Any]:
    """The debate as a table (the worked example's inputs), as arguments of :func:`goodput.book.tables.book_table`.

    One row per checkpoint cost and model: goodput every 15 and every 45 minutes, their difference, and the
    model's own optimum with its goodput, so that first order's optimum and the exact one are both labelled.

    Returns
    -------
    dict
        ``frame``, ``caption`` and ``right``.
    """
    import pandas as pd

    w = worked_example()
    short, long_ = DEBATE
    numbers = debate_numbers()
    rows = []
    for d in (numbers["fast"], numbers["slow"]):
        first_best = plan_for(w.replace(checkpoint_cost=d["cost"]), which="first-order")
        for name, at_short, at_long, best, optimum in (
            ("first order", d["first_short"], d["first_long"], first_best.goodput, first_best.interval),
            ("exact", d["short"], d["long"], d["best"], d["optimum"]),
        ):
            rows.append({
                "checkpoint cost": format_duration(d["cost"]),
                "model": name,
                f"every {format_duration(short)}": percent(at_short),
                f"every {format_duration(long_)}": percent(at_long),
                "difference": points(abs(at_long - at_short)),
                "at the model's optimum": f"{percent(best)} every {format_duration(optimum)}",
            })
    frame: pd.DataFrame = pd.DataFrame(rows)
    caption = (f"The brief's worked example (M = {format_duration(w.mtbi)}, R = {format_duration(w.restart)}): "
               f"goodput with a checkpoint every {format_duration(short)} or every {format_duration(long_)}, the "
               "difference between the two, and each model's own optimum, by first order and by the exact model.")
    return {"frame": frame, "caption": caption, "right": list(frame.columns[2:])}


def debate_figure() -> dict[str, Any]:
    """The arguments of :func:`goodput.book.figures.goodput_vs_interval` for the worked example, the debate marked."""
    w = worked_example()
    return {"mtbi": w.mtbi, "restart": w.restart, "costs": [w.checkpoint_cost, w.slow_checkpoint_cost],
            "marks": list(DEBATE),
            "marks_label": "the debate: " + " and ".join(format_duration(t) for t in DEBATE)}
