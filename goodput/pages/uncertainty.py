"""The uncertainty chapter: each input's range, carried through the recommended model to T* and goodput.

Every range here is the exact model's (:data:`goodput.plan.RECOMMENDED_MODEL`), the model
the recommendation comes from: T* over the box of inputs with each corner at its own
optimum, and goodput at the recommended interval (the definitions the planning page
uses). First-order values appear in one labelled cross-check. An input with no range
is named as taken as exact and left out of the swings; when no input has a range the
page says so instead of showing ranges of zero width.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from goodput.pages.common import CONFIDENCE, Ranges, ranges_for, span
from goodput.params import Params
from goodput.plan import RECOMMENDED_MODEL
from goodput.report import INPUT_NAMES, INPUT_WORDS, MODEL_NAMES, mtbi_origin, percent, points, range_origin, range_text
from goodput.uncertainty import (
    INPUTS,
    InputRange,
    input_ranges,
    monte_carlo,
)
from goodput.units import format_duration

if TYPE_CHECKING:
    import pandas as pd

#: The model every range on the page comes from.
MODEL = RECOMMENDED_MODEL
#: Draws and seed of the Monte Carlo reading.
DRAWS, SEED = 100_000, 0
#: Below this (a fraction of 1) a difference of goodput rounds to 0.0 points and is called negligible.
NEGLIGIBLE = 0.0005

#: Each input's symbol.
SYMBOLS = {"checkpoint_cost": "C", "mtbi": "M", "restart": "R"}



# --------------------------------------------------------------------------- small phrases


def join_words(words: list[str]) -> str:
    """``"a"``, ``"a and b"``, ``"a, b and c"``."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def capital(text: str) -> str:
    """The sentence with its first letter capitalised (the rest untouched)."""
    return text[:1].upper() + text[1:]


def how_mtbi_given(params: Params) -> str:
    """How M was given, as a phrase after "M is given": ``"as a rate, 1.5e-5 interruptions per GPU-hour on 32,768 GPUs"``."""
    how = {"interruptions": "a count", "rate_per_gpu_hour": "a rate"}.get(params.mtbi_source)
    return f"as {how}, {mtbi_origin(params)}" if how else f"as a duration, {format_duration(params.mtbi)}"


def span_cell(low: str, high: str) -> str:
    """``"low to high"`` for a table cell, or ``"low"`` when the two read the same."""
    return low if low == high else f"{low} to {high}"


# --------------------------------------------------------------------------- the numbers, once


def _words(names: list[str]) -> str:
    return join_words([INPUT_WORDS[name] for name in names])


def _together(n: int) -> str:
    """The last row of the swings: all inputs with a range moved at once."""
    return {2: "both together", 3: "all three together"}.get(n, "all together")


# --------------------------------------------------------------------------- the page, section by section


def intro(params: Params) -> dict[str, str]:
    """The opening: which inputs file, and which model the ranges come from.

    Returns
    -------
    dict
        ``inputs_file`` (the file's name) and ``model_text`` (one sentence).
    """
    return {
        "inputs_file": params.source,
        "model_text": (
            f"Every range on this page is {MODEL_NAMES[MODEL]}'s, the model the recommendation comes from; "
            "first-order values appear once, labelled, as a cross-check."
            + (" This fleet's drain and persistent tier are part of every range: each combination of inputs is "
               "its scheme with that combination's C and R, cadence held as planned." if params.tiered else "")
        ),
    }


def input_text(r: InputRange, params: Params) -> str:
    """One sentence on where an input's range comes from, or that it has none.

    Parameters
    ----------
    r : InputRange
        The input's range.
    params : Params
        The fleet's inputs (for how M was given).

    Returns
    -------
    str
        For M given as a count, its Poisson interval; else the range you gave, or that the input
        is taken as exact.
    """
    low, high, point = format_duration(r.low), format_duration(r.high), format_duration(r.point)
    if r.name == "mtbi":
        if r.origin == "count":
            return (f"M is given {how_mtbi_given(params)}, so it gets the exact Poisson (Garwood) "
                    f"{r.confidence:.0%} interval of that count: {low} to {high}, around {point}.")
        if r.origin == "stated" and r.exact:
            return (f"M is given {how_mtbi_given(params)}, not as a count, and the range you gave for it is the "
                    f"single value {point}, so it is taken as exact.")
        if r.origin == "stated":
            return (f"M is given {how_mtbi_given(params)}, not as a count, so it has no counting interval; "
                    f"the range you gave for it is {low} to {high}, around {point}.")
        return (f"M is given {how_mtbi_given(params)}, not as a count, and you gave no range for it, "
                f"so it is taken as exact at {point}.")
    if r.origin == "stated" and r.exact:
        return f"The range you gave for {INPUT_WORDS[r.name]} is the single value {point}, so it is taken as exact."
    if r.origin == "stated":
        return f"{capital(INPUT_WORDS[r.name])} has the range you gave, {low} to {high}, around {point}."
    return f"You gave no range for {INPUT_WORDS[r.name]}, so it is taken as exact at {point}."


def exact_text(exact: list[str]) -> str:
    """Which inputs are taken as exact, and what that does to the ranges below."""
    if not exact:
        return "Every input has a range."
    if len(exact) == len(INPUTS):
        return ("No input has a range, so there is nothing to carry through: the rest of this chapter "
                "can only show the point values.")
    return (f"Taken as exact, for want of a range: {_words(exact)}. The ranges below understate the "
            f"uncertainty by whatever {'its range' if len(exact) == 1 else 'their ranges'} would add.")


def inputs_section(params: Params) -> dict[str, str]:
    """The section on each input's range: M's sentence, C's and R's, and one on those taken as exact.

    Returns
    -------
    dict
        ``m_text``, ``cr_text`` (one sentence each for C and R, or one for both when neither has a
        range) and ``exact_text``.
    """
    inputs = input_ranges(params, CONFIDENCE)
    c, r = inputs["checkpoint_cost"], inputs["restart"]
    if c.origin == r.origin == "none":
        cr_text = (f"You gave no range for C or R, so they are taken as exact at {format_duration(c.point)} and "
                   f"{format_duration(r.point)}.")
    else:
        cr_text = f"{input_text(c, params)} {input_text(r, params)}"
    return {
        "m_text": input_text(inputs["mtbi"], params),
        "cr_text": cr_text,
        "exact_text": exact_text([name for name in INPUTS if inputs[name].exact]),
    }


def inputs_table(params: Params) -> pd.DataFrame:
    """Each input's value, its range (or "exact (no range given)") and where the range comes from."""
    import pandas as pd

    rows = [(INPUT_NAMES[name], format_duration(r.point), range_text(r), range_origin(r))
            for name, r in input_ranges(params, CONFIDENCE).items()]
    return pd.DataFrame(rows, columns=["input", "value", "range", "where the range comes from"])


def range_paragraph(ranges: Ranges) -> str:
    """What the ranges do to T* and goodput by the recommended model, in sentences.

    Parameters
    ----------
    ranges : Ranges
        From :func:`ranges_for` with the recommended model.

    Returns
    -------
    str
        T*'s range (or that it does not move), goodput's range at the recommended interval and its
        width, what choosing the interval per corner would add, and that the range is not a
        probability; with no range at all, the point values only.
    """
    plan, fixed, best = ranges.plan, ranges.fixed, ranges.best
    model = MODEL_NAMES[plan.model]
    interval, goodput = format_duration(plan.optimal_interval), percent(plan.goodput)
    if not ranges.ranged:
        return (f"With no range on any input, {model} gives one optimum, {interval}, and one goodput, {goodput}, "
                "at the point values; there is no range to report.")
    t_low, t_high = (format_duration(t) for t in best.optimal_interval_range)
    if t_low == t_high:
        t_part = (f"By {model}, the model the recommendation comes from, T* stays at {interval}: neither C nor M "
                  "has a range, and R does not move the optimum.")
    else:
        t_part = (f"By {model}, the model the recommendation comes from, T* lies between {t_low} and {t_high} "
                  f"({interval} at the point values).")
    g_low, g_high = fixed.goodput_range
    g_part = (f"Checkpointing every {interval}, goodput lies between {percent(g_low)} and {percent(g_high)} "
              f"({goodput} at the point values): a range {points(g_high - g_low)} wide.")
    b_low, b_high = best.goodput_range
    regret = b_low - g_low
    if regret >= NEGLIGIBLE:
        b_part = (f"Had each combination of inputs used its own best interval, goodput would lie between "
                  f"{percent(b_low)} and {percent(b_high)}: at the low end {points(regret)} more than the fixed "
                  "interval gives. That is what not knowing the inputs costs through the choice of interval; "
                  "the rest of the range is the inputs themselves.")
    else:
        b_part = (f"Had each combination of inputs used its own best interval, goodput would lie between "
                  f"{percent(b_low)} and {percent(b_high)}, no more at the low end to a tenth of a point: "
                  "not knowing the inputs costs next to nothing through the choice of interval, and the range "
                  "is the inputs themselves.")
    n = len(ranges.ranged)
    if n == 1:
        caveat = "The range says what the one uncertain input allows at either end of its range; it is not a probability."
    else:
        caveat = (f"The range says what the inputs allow, with {'both inputs' if n == 2 else 'all three inputs'} at their worst "
                  "(or best) together; it is not a probability.")
    return f"{t_part} {g_part} {b_part} {caveat}"


def first_order_paragraph(ranges: Ranges, first: Ranges) -> str:
    """The first-order cross-check of :func:`range_paragraph`, labelled as such.

    Parameters
    ----------
    ranges : Ranges
        By the recommended model (for which inputs have a range).
    first : Ranges
        The same inputs by first order.

    Returns
    -------
    str
        First order's T* and goodput (ranges when there are any); that it is out of range, when it is.
    """
    label = ("First order (Young's T* = √(2CM), the formula the brief uses)" if first.plan.tiers is None else
             "First order (the first-order formulas of this fleet's scheme, which reduce to Young's √(2CM) for one "
             "checkpoint that is safe at once)")
    if first.plan.refused:
        return f"{label} is outside its range for these inputs, so this page gives no first-order number."
    interval, goodput = format_duration(first.plan.optimal_interval), percent(first.plan.goodput)
    if not ranges.ranged:
        return f"{label}, shown only as a cross-check, gives {interval} and {goodput} for the same inputs."
    t_span = span(*(format_duration(t) for t in first.best.optimal_interval_range))
    g_span = span(*(percent(g) for g in first.fixed.goodput_range))
    return (f"{label}, shown only as a cross-check, puts T* {t_span} and goodput at its own interval of "
            f"{interval} {g_span} ({goodput} at the point values). These are first-order values, not the "
            "ranges to plan with.")


def propagated(params: Params) -> dict[str, str]:
    """The section on what the ranges do to T* and goodput.

    Returns
    -------
    dict
        ``range_text`` (the recommended model) and ``first_order_text`` (the labelled cross-check).
    """
    ranges = ranges_for(params)
    return {"range_text": range_paragraph(ranges),
            "first_order_text": first_order_paragraph(ranges, ranges_for(params, "first-order"))}


def dominant(params: Params) -> dict[str, str]:
    """The section on which input's range matters most.

    Returns
    -------
    dict
        ``dominant_text``: the widest swing and the others, or that one input or none has a range.
    """
    ranges = ranges_for(params)
    interval = format_duration(ranges.plan.optimal_interval)
    swings = ranges.swings
    if not swings:
        text = ("No input has a range, so there is nothing to take one at a time: both show only the point value. "
                "Measuring the inputs, or stating how far each may be off, is what gives this section something "
                "to show.")
    elif len(swings) == 1:
        s = swings[0]
        text = (f"Only {INPUT_WORDS[s.name]} has a range, so the whole width comes from it: with the interval fixed "
                f"at {interval}, it moves goodput {points(s.goodput_swing)}, from {percent(s.goodput_range[0])} "
                f"to {percent(s.goodput_range[1])} by {MODEL_NAMES[MODEL]}. Measuring it more closely is what "
                "makes the plan more certain.")
    else:
        top, rest = swings[0], swings[1:]
        others = join_words([f"{INPUT_WORDS[s.name]} {points(s.goodput_swing)}" for s in rest])
        text = (f"With the others at their point values and the interval fixed at {interval}, "
                f"{INPUT_WORDS[top.name]} alone moves goodput {points(top.goodput_swing)} over its range, from "
                f"{percent(top.goodput_range[0])} to {percent(top.goodput_range[1])} by {MODEL_NAMES[MODEL]}; "
                f"{others}. Narrowing the widest range, by measuring that input, is what makes the plan more "
                "certain.")
    if ranges.exact and swings:
        text += f" Taken as exact, and so left out: {_words(ranges.exact)}."
    return {"dominant_text": text}


def swings_table(params: Params) -> pd.DataFrame:
    """One row per input with a range moved alone, then all of them together; one row of point values if none.

    Returns
    -------
    pandas.DataFrame
        Columns "input" (moved alone), "over", "goodput", "width (points)" (a number) and "T*",
        goodput by the recommended model at the recommended interval, T* its optimum.
    """
    import pandas as pd

    ranges = ranges_for(params)
    columns = ["input", "over", "goodput", "width (points)", "T*"]

    def row(name: str, over: str, goodput: tuple[float, float], interval: tuple[float, float]) -> tuple[Any, ...]:
        return (name, over, span_cell(percent(goodput[0]), percent(goodput[1])), 100 * (goodput[1] - goodput[0]),
                span_cell(format_duration(interval[0]), format_duration(interval[1])))

    if not ranges.swings:
        plan = ranges.plan
        return pd.DataFrame([row("none: no input has a range", "point values", (plan.goodput,) * 2,
                                 (plan.optimal_interval,) * 2)], columns=columns)
    rows = [row(INPUT_NAMES[s.name], range_text(ranges.inputs[s.name]), s.goodput_range, s.optimal_interval_range)
            for s in ranges.swings]
    if len(ranges.swings) > 1:
        rows.append(row(_together(len(ranges.swings)), "their ranges", ranges.fixed.goodput_range,
                        ranges.best.optimal_interval_range))
    return pd.DataFrame(rows, columns=columns)


def swings_figure(params: Params) -> dict[str, Any]:
    """The arguments of :func:`goodput.book.log_figures.goodput_swings` for this fleet.

    Returns
    -------
    dict
        ``labels`` and ``ranges`` of the inputs with a range only (widest first), ``goodput`` at the
        point values, ``box`` (all of them together, when more than one), ``box_label``, ``exact``
        (the names of the inputs taken as exact) and ``model`` (the model's name). A label is the
        input's name over its range, on two lines.
    """
    ranges = ranges_for(params)
    swings = ranges.swings
    return {
        "labels": [f"{INPUT_NAMES[s.name]}\n{range_text(ranges.inputs[s.name])}" for s in swings],
        "ranges": [s.goodput_range for s in swings],
        "goodput": ranges.plan.goodput,
        "box": ranges.fixed.goodput_range if len(swings) > 1 else None,
        "box_label": _together(len(swings)),
        "exact": [INPUT_NAMES[name] for name in ranges.exact],
        "model": MODEL_NAMES[MODEL],
    }


def probabilistic(params: Params) -> dict[str, str]:
    """The probabilistic reading: a seeded Monte Carlo by the recommended model when M is a count.

    Returns
    -------
    dict
        ``mc_text``: percentiles of goodput and T*, whether they lie inside the box, and what the
        draws assume; or, when M is not a count or the fleet has a drain or a persistent tier,
        why there is no such reading.
    """
    ranges = ranges_for(params)
    count_, window = params.interruption_count, params.window
    if params.tiered:
        return {"mc_text": ("The Monte Carlo reading draws one checkpoint that is safe as soon as it is taken; this "
                            "fleet's drain and persistent tier are outside it, so for this fleet the range above, "
                            "carried through its own scheme, is the one this book gives.")}
    if not (params.mtbi_source == "interruptions" and count_ and window):
        text = (f"This build's M is given {how_mtbi_given(params)}, not as a count, so there is no count to draw "
                "its rate from")
        if ranges.ranged:
            return {"mc_text": text + "; the range above is the one this book gives."}
        return {"mc_text": text + ", and C and R have no range to draw from either."}
    c, r = ranges.inputs["checkpoint_cost"], ranges.inputs["restart"]
    interval = ranges.plan.optimal_interval
    mc = monte_carlo(count_, window, c.bounds, r.bounds, interval=interval, confidence=CONFIDENCE, draws=DRAWS,
                     seed=SEED, which=MODEL)
    drawn = [SYMBOLS[x.name] for x in (c, r) if not x.exact]
    fixed_inputs = [SYMBOLS[x.name] for x in (c, r) if x.exact]
    if drawn:
        how = f"{join_words(drawn)} uniformly from {'its range' if len(drawn) == 1 else 'their ranges'}"
        if fixed_inputs:
            how += f", with {join_words(fixed_inputs)} taken as exact"
    else:
        how = "C and R taken as exact"
    g_low, g_mid, g_high = mc.goodput
    t_low, _, t_high = mc.optimal_interval
    text = (f"Drawing M's rate from its posterior given the count (a Jeffreys prior, so a Gamma distribution "
            f"with shape {count_} + 1/2) and {how}, {mc.draws:,} draws by {MODEL_NAMES[MODEL]} put the middle "
            f"{CONFIDENCE:.0%} of goodput at the recommended interval of {format_duration(interval)} between "
            f"{percent(g_low)} and {percent(g_high)} (median {percent(g_mid)}), and of T* between "
            f"{format_duration(t_low)} and {format_duration(t_high)}.")
    box_low, box_high = ranges.fixed.goodput_range
    if box_low <= g_low and g_high <= box_high:
        text += (" That goodput range lies inside the box above, whose ends need every input at its worst, "
                 "or best, at once.")
    else:
        text += " That goodput range is not inside the box above."
    if drawn:
        text += (f" The uniform draws for {join_words(drawn)} are an assumption about "
                 f"{'a range that was' if len(drawn) == 1 else 'ranges that were'} stated, not measured.")
    text += " The draws are seeded, so every build gives the same numbers."
    return {"mc_text": text}
