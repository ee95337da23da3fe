"""Words: plans and measurements as text, Markdown tables and JSON, and the phrases the book quotes.

The command prints :func:`render_plan` and :func:`render_measurement`; :mod:`goodput.pages` quotes the phrases.
"""

from __future__ import annotations

import json
import math
import re
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from goodput import model
from goodput.errors import Refused
from goodput.plan import CAPPED_LEVERS, STORAGE_LEVERS, Plan, levers_at_optimum, make_plan, plan_levers
from goodput.units import (
    DAY,
    WAIT_FLOOR,
    YEAR,
    format_duration,
    format_durations,
    format_rate,
    format_wait,
    significant,
    written_minutes,
)

if TYPE_CHECKING:
    from goodput.fleet import FleetPlan
    from goodput.fleets import PublishedFleet
    from goodput.logs.events import EventMeasurement
    from goodput.logs.fit import WeibullFit
    from goodput.logs.measure import Measurement
    from goodput.params import Params
    from goodput.provenance import Provenance
    from goodput.restart import SparesChoice
    from goodput.storage import BestBandwidth
    from goodput.uncertainty import InputRange, Swing

# --------------------------------------------------------------------------- numbers as words


def percent(x: float, digits: int = 1) -> str:
    """A fraction of 1 as a percentage (``0.869`` -> ``"86.9%"``); ``"undefined"`` for NaN.

    A share that is not zero but would round to it is written with one significant digit instead; so is what a share
    short of the whole lacks, where it would read as all of it (a goodput of 99.94%, not 100.0%).

    >>> percent(0.869), percent(0.00012), percent(0.0), percent(1e-9), percent(0.99962), percent(1.0)
    ('86.9%', '0.01%', '0.0%', '0.0%', '99.96%', '100.0%')
    """
    if math.isnan(x):
        return "undefined"
    text = _unsigned_zero(100 * x, digits)
    short = 100 * (1.0 - x)
    if float(text) >= 100.0 and short >= NEGLIGIBLE_PERCENT:
        text = f"{100 * x:.{point_decimals(1.0 - x, 1, digits)}f}"
    return f"{text}%"


def percent_apart(x: float, *others: float, digits: int = 1) -> str:
    """:func:`percent` of `x` with the decimals (`digits` at least, three at most) that set it apart from `others`.

    For a goodput the text compares with another: "70.16%, below the 70.24%", not "70.2%, below the 70.2%". Two values,
    each called with the other, get the same decimals.

    >>> percent_apart(0.7016, 0.7024), percent_apart(0.7024, 0.7016), percent_apart(0.876, 0.70), percent_apart(0.5, 0.5)
    ('70.16%', '70.24%', '87.6%', '50.0%')
    """
    def apart(d: int) -> bool:
        return all(percent(x, d) != percent(y, d) for y in others if y != x)
    return percent(x, next((d for d in range(digits, digits + 3) if apart(d)), digits))


def percent_ends(low: float, high: float) -> tuple[str, str]:
    """Two goodputs that bound a swing written in :func:`points`, with the decimals at which they differ by what it says.

    >>> percent_ends(0.5946, 0.6304), percent_ends(0.5, 0.6)
    (('59.46%', '63.04%'), ('50.0%', '60.0%'))
    """
    gap = points(high - low).split()[0]
    for digits in (1, 2, 3):
        lo, hi = percent(low, digits), percent(high, digits)
        if f"{float(hi[:-1]) - float(lo[:-1]):.{len(gap.partition('.')[2])}f}" == gap:
            return lo, hi
    return percent(low), percent(high)


def points(x: float, digits: int = 1) -> str:
    """A difference of two fractions of 1 in percentage points (``0.128`` -> ``"12.8 points"``; singular for 1).

    As :func:`percent`, a difference that is not zero but would round to it keeps one significant digit.
    """
    text = _unsigned_zero(100 * x, digits)
    return f"{text} point" + ("" if float(text) == 1.0 else "s")


def points_past(x: float, limit: float, digits: int = 1) -> str:
    """:func:`points` of a difference past a threshold, with the decimals it takes to read past it as written.

    >>> points_past(0.01004, 0.01), points_past(0.012, 0.01)
    ('1.004 points', '1.2 points')
    """
    for more in range(digits, digits + 6):
        text = points(x, more)
        if float(text.split()[0]) > 100 * limit:
            return text
    return points(x, digits)


#: Below this many percent (a millionth of the whole), a value is written as zero: what is left is rounding.
NEGLIGIBLE_PERCENT = 1e-4


def _unsigned_zero(x: float, digits: int) -> str:
    """``x`` to `digits` decimals, never ``"-0.0"``.

    One significant digit where the decimals would show zero of a value that is not (``"0.01"``, not ``"0.0"``).
    """
    text = f"{x:.{digits}f}"
    if float(text) != 0.0:
        return text
    if abs(x) >= NEGLIGIBLE_PERCENT:
        return f"{x:.1g}"
    return text.lstrip("-")


def money(dollars: float) -> str:
    """US dollars as a planning document quotes them, two significant digits: ``"$3.8M"``, ``"$420K"``, ``"$950"``.

    >>> money(3.78e6), money(4.2e5), money(-1.5e6), money(1.985e9), money(0.457), money(0.0)
    ('$3.8M', '$420K', '-$1.5M', '$2.0B', 'under $1', '$0')
    """
    if math.isnan(dollars):  # no amount (a difference of two unbounded ones): never a crash in a note
        return "an undefined amount"
    if dollars < 0:
        return "-" + money(-dollars)
    if math.isinf(dollars):
        return "an unbounded amount"
    if 0 < dollars < 0.5:  # not nothing, beside a loss that is not nothing
        return "under $1"
    if dollars >= 9.95e8:
        return f"${dollars / 1e9:.{1 if dollars < 9.95e9 else 0}f}B"
    if dollars >= 9.95e5:
        return f"${dollars / 1e6:.{1 if dollars < 9.95e6 else 0}f}M"
    if dollars >= 1e3:
        return f"${significant(dollars / 1e3, 2)}K"
    return f"${math.floor(dollars + 0.5):.0f}"  # half up, as the calculator rounds


def indefinite(text: str) -> str:
    """`text` after the article it is spoken with: "an" before a number said with a vowel (eight, eleven, eighteen).

    >>> indefinite("6.3 s"), indefinite("8.4 ms"), indefinite("11 s"), indefinite("11,000 GPUs"), indefinite("110 s")
    ('a 6.3 s', 'an 8.4 ms', 'an 11 s', 'an 11,000 GPUs', 'a 110 s')
    """
    lead = re.match(r"\d+", text)
    spoken_vowel = lead is not None and (lead.group().startswith("8") or lead.group() in ("11", "18"))
    return ("an " if spoken_vowel else "a ") + text


def count(n: int, thing: str, plural: str | None = None) -> str:
    """``"1 failure"``, ``"2 failures"``, ``"16,384 GPUs"``."""
    return f"{n:,} {thing if n == 1 else plural or thing + 's'}"


def join_words(words: Sequence[str]) -> str:
    """A list as a sentence writes it: ``"a"``, ``"a and b"``, ``"a, b and c"``.

    >>> join_words(["a"]), join_words(["a", "b"]), join_words(["a", "b", "c"])
    ('a', 'a and b', 'a, b and c')
    """
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def gain_text(gain: float, plus: bool = False) -> str:
    """A lever's gain in points (``"+6.6 points"`` with `plus`), or that it loses: ``"a loss of 4.3 points"``.

    Never a negative number of points. A gain under a point keeps two significant digits (``"0.50 points"``,
    ``"0.0071 points"``), so that levers ranked apart do not read alike ("0.5 points" twice, 0.496 and 0.483). A gain
    too small for that, yet a gain, is "under 0.0001 points", not "0.0 points" beside the dollars it is still worth.

    >>> gain_text(0.066, plus=True), gain_text(-0.043), gain_text(-1e-12), gain_text(0.00496), gain_text(7.1e-5)
    ('+6.6 points', 'a loss of 4.3 points', '0.0 points', '0.50 points', '0.0071 points')
    >>> gain_text(3.8e-7), gain_text(3.8e-7, plus=True), gain_text(0.0, plus=True)
    ('under 0.0001 points', 'under 0.0001 points', '+0.0 points')
    """
    if gain > -0.0005:
        x = max(gain, 0.0)
        small = 0.0 < 100 * x < NEGLIGIBLE_PERCENT
        return f"under {NEGLIGIBLE_PERCENT:g} points" if small else f"{'+' if plus else ''}{points_sig2(x)}"
    return f"a loss of {points(-gain)}"


#: A lever with nothing to move, the plan being at that optimum (:func:`goodput.plan.levers_at_optimum`): its gain
#: and its worth, in place of "+0.0 points" and "$0".
AT_OPTIMUM, NOTHING = "at the optimum", "none"


def lever_gain_text(plan: Plan, name: str, gain: float, plus: bool = False) -> str:
    """A lever's gain as the command and the book's tables write it: :func:`gain_text`, or :data:`AT_OPTIMUM`.

    >>> plan = make_plan(1.0, 185.6, 5.0)
    >>> lever_gain_text(plan, "set the interval right", 0.0, plus=True), lever_gain_text(plan, "halve C", 0.03, True)
    ('at the optimum', '+3.0 points')
    """
    return AT_OPTIMUM if name in levers_at_optimum(plan) else gain_text(gain, plus)


def lever_worth_text(plan: Plan, name: str, dollars: float) -> str:
    """What a lever's gain is worth a month, :func:`money` (never below $0), or :data:`NOTHING` at the optimum."""
    return NOTHING if name in levers_at_optimum(plan) else money(max(0.0, dollars))


def large_count(x: float, thing: str = "") -> str:
    """A large quantity as a planning document writes it: ``"26.7 million GPU-hours"``, ``"238,000"``, ``"950"``.

    >>> large_count(26_700_466, "GPU-hours"), large_count(238_412.5), large_count(3.2e9), large_count(950.4)
    ('26.7 million GPU-hours', '238,000', '3.2 billion', '950')
    >>> large_count(1_580_123, "GPU-hours"), large_count(999.6)
    ('1.58 million GPU-hours', '1,000')
    >>> large_count(2.9e13), large_count(0.183, "GPU-hours"), large_count(1.2, "GPU-hours"), large_count(0.0, "GPU-hours")
    ('29 trillion', 'under 1 GPU-hour', '1 GPU-hour', '0 GPU-hours')
    """
    x = float(f"{x:.3g}")
    size, word = next(((size, word) for size, word in ((1e12, " trillion"), (1e9, " billion"), (1e6, " million"))
                       if x >= size), (0, ""))
    text = f"{significant(x / size)}{word}" if size else f"{x:,.0f}"
    if thing.endswith("s") and (text == "1" or (text == "0" and x > 0)):  # "1 GPU-hour", "under 1 GPU-hour"
        text, thing = ("1" if text == "1" else "under 1"), thing[:-1]
    return f"{text} {thing}" if thing else text


def code(text: str) -> str:
    """A flag or a command in a Markdown code span, so that it pastes into a shell unchanged."""
    return f"`{text}`"


def cell(text: str) -> str:
    """Text made safe for a Markdown table cell (a ``|`` would end the cell)."""
    return text.replace("|", "\\|").replace("\n", " ")


#: Each input a range can be given for: (its name in a table, in a sentence, its symbol as in "range of C_p").
_INPUTS = {
    "checkpoint_cost": ("checkpoint cost, C", "the checkpoint cost C", "C"),
    "mtbi": ("mean time between interruptions, M", "the mean time between interruptions M", "M"),
    "restart": ("restart time, R", "the restart time R", "R"),
    "drain": ("drain until durable, D", "the drain D", "D"),
    "persistent_cost": ("persistent checkpoint cost, C_p", "the persistent checkpoint cost C_p", "C_p"),
    "persistent_restart": ("persistent restart, R_p", "the persistent restart R_p", "R_p"),
    "fast_survives": ("interruptions the fast tier survives, s", "the share s of interruptions the fast tier survives",
                      "s"),
    "just_in_time": ("interruptions recovered just in time, p", "the share p of interruptions recovered just in time",
                     "p"),
    "slow_checkpoint_cost": ("slow checkpoint cost (comparison)", "the slow checkpoint's cost", "the slow C"),
}
INPUT_NAMES, INPUT_WORDS, INPUT_SYMBOLS = ({key: names[i] for key, names in _INPUTS.items()} for i in range(3))
#: The inputs that are shares of interruptions (written as percentages), not durations.
SHARE_INPUTS = ("fast_survives", "just_in_time")


def input_value(name: str, value: float) -> str:
    """One input's value as a person writes it: a duration, or a share as a percentage (``"75%"``, ``"82.5%"``).

    >>> input_value("fast_survives", 0.825), input_value("drain", 4.0)
    ('82.5%', '4 min')
    """
    return f"{100 * value:.3g}%" if name in SHARE_INPUTS else format_duration(value)


def duration_beside(minutes: float, beside: float) -> str:
    """A duration compared with another written in hours, in hours too: "from 9 h to 4.5 h", not "to 270 min".

    >>> duration_beside(270.0, 540.0), duration_beside(92.8, 185.6)
    ('4.5 h', '92.8 min')
    """
    text = format_duration(minutes)
    if format_duration(beside).endswith(" h") and text.endswith(" min") and minutes >= 60.0:
        return f"{significant(minutes / 60.0, 3)} h"
    return text


def input_ends(name: str, low: float, high: float) -> tuple[str, str]:
    """The two ends of an input's range, written alike: ``"3.05 min"`` and ``"6.54 min"``, not ``"3 min 3 s"`` beside it.

    Each end as :func:`input_value` writes it, but an end in minutes and seconds beside one in decimal minutes is
    written in decimal minutes too, and ends of minutes or more in different units in one (:func:`range_ends`).

    >>> input_ends("checkpoint_cost", 3.05, 6.54), input_ends("checkpoint_cost", 0.75, 2.0)
    (('3.05 min', '6.54 min'), ('45 s', '2 min'))
    >>> input_ends("mtbi", 245.0, 340.0)
    ('245 min', '340 min')

    Ends typed as whole numbers of the larger end's unit read so (``3 h to 8 h``, ``1 day to 5 days``), not in the
    smaller end's (``180 min to 480 min``):

    >>> input_ends("mtbi", 180.0, 480.0), input_ends("mtbi", 1440.0, 7200.0)
    (('3 h', '8 h'), ('1 day', '5 days'))
    """
    if name not in SHARE_INPUTS and (whole := _whole_in_unit(low, high)) is not None:
        return whole
    low_text, high_text = input_value(name, low), input_value(name, high)
    units = {text.rsplit(" ", 1)[-1] for text in (low_text, high_text)}
    if name not in SHARE_INPUTS and len(units) > 1 and "s" not in units and "ms" not in units:
        return range_ends(low, high)
    mixed = (" min " in low_text, " min " in high_text)
    if any(mixed) and any(e.endswith(" min") and "." in e for e in (low_text, high_text)):
        low_text, high_text = (f"{significant(x, 3)} min" if m else e
                               for e, m, x in zip((low_text, high_text), mixed, (low, high), strict=True))
    return low_text, high_text


def _whole_in_unit(low: float, high: float) -> tuple[str, str] | None:
    """Both ends as whole numbers of the unit the larger is written in (hours or longer), else None."""
    if not (math.isfinite(low) and math.isfinite(high)) or min(low, high) <= 0:
        return None
    unit, size = _unit(max(low, high))
    counts = [x / size for x in (low, high)]
    if size < 60.0 or not all(c >= 1 and abs(c - round(c)) < 1e-9 * c for c in counts):
        return None
    one = unit.removesuffix("s")  # "1 day", "1 year"
    low_text, high_text = (f"{round(c):,} {one if round(c) == 1 else unit}" for c in counts)
    return low_text, high_text


def input_span(name: str, low: float, high: float) -> str:
    """An input's range as written, both ends alike (:func:`input_ends`): ``"3.05 min to 6.54 min"``."""
    return " to ".join(input_ends(name, low, high))

#: How each model is named in prose.
MODEL_NAMES = {"exact": "the exact model", "first-order": "first order"}


def first_order_optimum(just_in_time: float) -> str:
    """First order's optimum as a formula: ``"√(2CM)"``, or ``"√(2CM/(1 − p))"`` with a share p recovered just in time.

    Only the rest of the interruptions roll back.
    """
    return "√(2CM/(1 − p))" if just_in_time > 0 else "√(2CM)"


def optimum_name(plan: Plan) -> str:
    """How a plan's optimum is named: the exact model's, first order's T* = √(2CM), or (with a drain or tiers) the scheme's.

    With a share p recovered just in time, first order's is √(2CM/(1 − p)): only the rest roll back.
    """
    if plan.drain_bound:  # not the model's own optimum: that would start a checkpoint before the last drain ends
        return "the drain itself: the exact optimum is shorter" if plan.model == "exact" else \
            "the drain itself: first order's optimum is shorter"
    if plan.model == "exact":
        return "exact optimum for exponential failures"
    if plan.tiers is not None:
        return "first order of this checkpoint scheme"
    return f"first order, T* = {first_order_optimum(plan.recovery[0] if plan.recovery else 0.0)}"



# --------------------------------------------------------------------------- how far first order holds


def first_order_problem(check: model.RangeCheck) -> str | None:
    """Why first-order numbers should not be quoted for these inputs, or ``None``: a clause without a final stop."""
    if check.status == "below zero":
        # three digits at most, and never a "0%" that reads as no loss below zero (-0.3%); far below, said so
        value = 100 * check.goodput
        shown = ("far below zero (under −1,000%)" if value <= -1000 else "zero or less" if value > -0.005
                 else f"{value:.2g}%, below zero")
        return f"the first-order goodput is {shown}: the formula does not apply here"
    if check.status == "out of range":
        return (f"first order is {gap_text(check)} below the exact model here (more than "
                f"{points(model.FIRST_ORDER_TOLERANCE, 0)}): it is outside its range")
    return None


def gap_text(check: model.RangeCheck) -> str:
    """First order's gap below the exact model in points, with the decimals that read past the limit it crossed.

    Refused at 3.04 points reads "3.04 points", not "3.0 points (more than 3 points)"; cautioned at 1.04, "1.04". Within
    the caution level, under a point, it keeps two significant digits, as a lever's gain does: "0.060 points", not
    "0.1 points" between 96.16% and 96.22%.
    """
    limit = {"out of range": model.FIRST_ORDER_TOLERANCE, "caution": model.FIRST_ORDER_CAUTION}.get(check.status)
    return points_sig2(abs(check.error)) if limit is None else points_past(check.error, limit)


def first_order_caution(check: model.RangeCheck) -> str | None:
    """How far off a quotable first-order number is, when over a point (a clause, no final stop); else ``None``."""
    if check.status != "caution":
        return None
    return f"first order is {gap_text(check)} below the exact model here, so it underestimates goodput by that much"


# --------------------------------------------------------------------------- inputs and where they came from


def mtbi_origin(params: Params) -> str:
    """How M was given: ``"419 interruptions in 54 days"``, ``"1.5e-5 interruptions per GPU-hour on 32,768 GPUs"``."""
    if params.counted:
        n, window = params.counted
        return f"{count(n, 'interruption')} in {format_duration(window)}"
    if params.mtbi_source == "rate_per_gpu_hour":
        return f"{format_rate(params.rate_per_gpu_hour)} interruptions per GPU-hour on {count(params.gpus, 'GPU')}"
    return "given as M"


def stops_per(per_hour: float, what: str = "") -> str:
    """A rate of stops as a planner says it: per day below one an hour, else per hour; `what` names the stops.

    >>> stops_per(0.7 / 24), stops_per(0.87 / 24, "stops"), stops_per(2.0), stops_per(1 / 36)
    ('0.7 a day', '0.87 stops a day', '2 an hour', '0.667 a day')
    """
    number, unit = (format_rate(per_hour * 24.0), "a day") if per_hour < 1.0 else (format_rate(per_hour), "an hour")
    return " ".join(filter(None, (number, what, unit)))


def planned_text(params: Params) -> str:
    """The planned stops q as the inputs gave them, with their spacing.

    A count over a window where the inputs counted them, ``"20 in 30 days (one every 36 h)"``, else the rate,
    :func:`stops_per`, ``"0.667 a day (one every 36 h)"``.

    >>> from goodput.params import load_params
    >>> planned_text(load_params().replace(planned_rate=1 / 36))
    '0.667 a day (one every 36 h)'
    >>> planned_text(load_params().replace(planned_rate=20 / 720, planned_count=20, planned_window=43200.0))
    '20 in 30 days (one every 36 h)'
    """
    q = params.planned_rate
    counted = params.planned_counted
    given = f"{counted[0]:,} in {format_duration(counted[1])}" if counted else stops_per(q)
    return f"{given} (one every {format_duration(60.0 / q)})"


def file_sources(params: Params) -> dict[str, str]:
    """Where each input of a plan built from a parameters file came from, as ``goodput plan`` says it.

    Keyed ``"M"``, ``"C"``, ``"R"`` (``"D"`` with a drain): a derived input's derivation (:func:`derived_sources`),
    else the file.

    >>> from goodput.params import load_params
    >>> file_sources(load_params())
    {'M': '419 interruptions in 54 days (worked example)', 'C': 'worked example', 'R': 'worked example'}
    """
    given = {"M": f"{mtbi_origin(params)} ({params.source})", "C": params.source, "R": params.source}
    return derived_sources(params, given | ({"D": params.source} if params.drain > 0 else {}))


def derived_sources(params: Params, sources: Mapping[str, str]) -> dict[str, str]:
    """`sources` with each derived input's derivation in place of where it was given, and R as the sum of its parts.

    The derivations are :attr:`~goodput.params.Params.derived`'s (C, D, R), the sum :func:`restart_sum`'s; a C that
    is the stall measured beside a snapshot (:attr:`~goodput.params.Params.checkpoint_is_stall`) says so, and what the
    copy alone takes. The one place the command (after its flags) and the book's tables say where C, D and R came from.
    """
    out = dict(sources) | {symbol: params.derived[key] for key, symbol in
                           (("checkpoint_cost", "C"), ("drain", "D"), ("restart", "R")) if key in params.derived}
    wait = params.spares.wait(params.mtbi) if params.spares is not None else 0.0
    if (typed := params.persistent_restart_typed) is not None and wait > 0:  # R_p waits for a repaired node as R does
        out["R_p"] = (f"{format_duration(typed)} given ({sources.get('R_p', params.source)}), "
                      f"and {format_wait(wait)} waiting for repairs, as the fast restart waits")
    if params.checkpoint_is_stall and (copy := params.snapshot_copy) is not None:  # C typed beside a snapshot
        flag = params.known.name("checkpoint_cost") if params.known is not None else ""
        given = f"given by {flag}" if flag.startswith("--") else f"given in {params.source}"
        out["C"] = (f"the stall measured at a checkpoint, {given}; the copy alone, "
                    f"{params.derived.get('snapshot_copy', 'the snapshot')}, takes {format_duration(copy)}")
    if (parts := restart_sum(params)) is not None:
        out["R"] = parts
    return out


def slow_origin(params: Params) -> str:
    """Where a derived slow checkpoint (:attr:`goodput.params.Params.slow_derived`) comes from, for a table's note.

    The one phrase that says it is a comparison the book draws, not an input; "" where the inputs file states it.
    """
    return f"derived for comparison, not given: {params.derived['slow_checkpoint_cost']}" if params.slow_derived else ""


def slow_words(params: Params, keeps_more: bool = False) -> str:
    """What a derived slow checkpoint is, as a noun phrase with its cost; "none" where the inputs file states one.

    ``"the synchronous write of the whole checkpoint (5.67 TB at 1 TB/s achieved: 5.67 s), which the book derives from
    the fleet's storage for comparison and the fleet does not take"``; where that write `keeps_more` than the fleet's
    scheme (:attr:`goodput.fleet.FleetPlan.slow_keeps_more`: the scheme does not pay), "..., which the book derives
    from the fleet's storage for comparison and which, as measured, keeps more than the fleet's scheme"; where the fleet
    checkpoints by that very write (no snapshot), "... and which is the fleet's own checkpoint".
    """
    s = params.storage
    if not params.slow_derived or s is None:
        return "none"
    from goodput.storage import format_bandwidth, format_size

    own = s.snapshot_bandwidth is None and params.slow_against_c == "same"  # C is this very write: no snapshot
    taken = ("which is the fleet's own checkpoint" if own else
             "which, as measured, keeps more than the fleet's scheme" if keeps_more else "the fleet does not take")
    # beside a measured stall the write pays its barrier and quiesce too: "5.67 s and 6.29 s of barrier and quiesce"
    barrier = params.known.barrier if params.known is not None else 0.0
    parts = (f", {format_duration(s.write_minutes)}, with the same {format_duration(barrier)} of barrier and quiesce"
             if barrier > 0 else "")
    return (f"the synchronous write of the whole checkpoint ({format_size(s.size)} at "
            f"{format_bandwidth(s.write_bandwidth * s.efficiency)} achieved{parts}: "
            f"{format_duration(params.slow_checkpoint_cost)}), which the book derives from the fleet's storage for "
            f"comparison and {taken}")


#: A derived slow checkpoint's short name (:func:`slow_label`), in a legend, a bar, a page and the calculator.
DERIVED_SLOW = "the synchronous write derived for comparison"


def slow_label(params: Params, stated: str) -> str:
    """A derived slow checkpoint's short name, for a legend or a bar; `stated` (a page's own) where the inputs give it."""
    return DERIVED_SLOW if params.slow_derived else stated


def not_paying_text(derived: bool, cost: str, goodput: str, every: str, gain: str) -> str:
    """The note under a plan whose scheme keeps less than its slow checkpoint (:func:`goodput.plan.scheme_pays`).

    Values as written; the calculator fills the same words from ``{cost}``-style holes.
    """
    name = DERIVED_SLOW if derived else "the slow checkpoint"
    return (f"Not paying: {name} ({cost}) keeps {goodput} checkpointing every {every}, {gain} more than this plan; "
            "as the inputs give it, the fleet's checkpoint scheme costs more than it saves.")


def range_origin(r: InputRange) -> str:
    """Where an input's range came from, in words (for a table of inputs or a sentence)."""
    if r.origin == "count":
        return f"the {r.confidence:.0%} exact Poisson interval of the interruption count"
    if r.origin == "stated":
        return "the range stated in the inputs file"
    return "none given: taken as exact"


def range_text(r: InputRange) -> str:
    """An input's range: ``"45 s to 2 min"`` (``"60% to 85%"`` for a share), ``"exact (no range given)"`` or one value."""
    if not r.exact:
        return input_span(r.name, r.low, r.high)
    return "exact (no range given)" if r.origin == "none" else f"{input_value(r.name, r.low)} (a range of one value)"


#: The restart's parts as the book names them (keys of :attr:`goodput.restart.RestartParts.parts`).
RESTART_PART_NAMES = {"detect": "detection", "replace": "replacement", "startup": "start-up",
                      "load": "checkpoint load", "warmup": "warm-up"}
#: The terms of R's sum as :func:`restart_sum` names them: the parts and the wait for a repaired node.
RESTART_SUM_NAMES = RESTART_PART_NAMES | {"wait": "waiting for repairs"}


def adding_up(total: float, parts: Sequence[float]) -> list[str]:
    """Durations written so that, as written, they add up to `total` as :func:`format_duration` writes it.

    Each part as ``format_duration`` writes it, and where the written parts would not add up to the written total,
    the part rounded most gets one more digit, until they do: ``12.24 min``, not ``12.2 min``, in 18.3 min.

    >>> adding_up(1 + 3 + 12.24 + 2 + 0.917 / 60, [1, 3, 12.24, 2, 0.917 / 60])
    ['1 min', '3 min', '12.24 min', '2 min', '0.917 s']
    """
    shown = format_duration(total)
    digits = [3] * len(parts)
    texts = [format_duration(x) for x in parts]
    for _ in range(6 * len(parts)):  # at most six more digits each: then every part is as written to 1e-9
        if format_duration(sum(written_minutes(t) for t in texts)) == shown:
            break
        worst = max(range(len(parts)), key=lambda i: abs(written_minutes(texts[i]) - parts[i]))
        digits[worst] += 1
        texts[worst] = format_duration(parts[worst], digits[worst])
    return texts


def restart_part_texts(params: Params) -> dict[str, str]:
    """R's parts as written, keyed by part (:data:`RESTART_PART_NAMES`, ``"given"`` and ``"wait"``), adding up to R.

    The parts given (those above zero; ``"given"``, R without the wait, when R is given whole), and with spares the
    expected wait for repairs (:meth:`goodput.restart.Spares.wait`), written by :func:`adding_up` so that a planner
    who adds them finds R as written. Empty when R is given whole without spares.
    """
    parts, spares = params.restart_parts, params.spares
    if parts is None and spares is None:
        return {}
    wait = spares.wait(params.mtbi) if spares is not None else 0.0
    minutes = {"given": params.restart - wait} if parts is None else {
        key: value for key, value in parts.parts.items() if value > 0}
    if spares is not None:
        minutes["wait"] = wait
    texts = adding_up(params.restart, list(minutes.values()))
    return {key: format_wait(value, "0 s") if key == "wait" and value < WAIT_FLOOR else text
            for (key, value), text in zip(minutes.items(), texts, strict=True)}


def spares_text(params: Params) -> str:
    """The spare pool's repairs and the wait they leave, for a table row; ``""`` without spares.

    For example ``"repairs of 12 h, 60% of interruptions take a node; 0.917 s waiting per interruption"``.
    """
    if (spares := params.spares) is None:
        return ""
    return (f"repairs of {format_duration(spares.repair)}, {spares.takes_node:.0%} of interruptions take a node; "
            f"{format_wait(spares.wait(params.mtbi))} waiting per interruption")



def restart_sum(params: Params) -> str | None:
    """R as the sum of its parts, the one way every page and the command write it; None when R is given whole.

    The parts of :func:`restart_part_texts` (adding up to R as written), the start-up per node multiplied out.

    >>> from goodput.params import load_params
    >>> from goodput.restart import RestartParts
    >>> p = load_params().replace(restart=13.0, restart_parts=RestartParts(detect=1.0, replace=2.0, startup=1.0,
    ...                           startup_per_node=0.1 / 60, warmup=2.0, nodes=4200))
    >>> restart_sum(p)
    'detection 1 min + replacement 2 min + start-up 8 min (1 min + 4,200 nodes × 0.1 s) + warm-up 2 min'
    >>> restart_sum(load_params()) is None
    True
    """
    texts = restart_part_texts(params)
    names = RESTART_SUM_NAMES
    items = {key: f"{text} given" if key == "given" else f"{names[key]} {text}" for key, text in texts.items()}
    if "startup" in texts and (parts := params.restart_parts) is not None and parts.startup_per_node > 0:
        fixed = f"{format_duration(parts.startup)} + " if parts.startup > 0 else ""
        items["startup"] += f" ({fixed}{parts.nodes:,} nodes × {format_duration(parts.startup_per_node)})"
    return " + ".join(items.values()) or None


def restart_text(params: Params) -> str:
    """R as quoted beside C and M: ``"5 min"``, or with its parts ``"13.6 min = detection 1 min + ..."`` (:func:`restart_sum`).

    >>> from goodput.params import load_params
    >>> restart_text(load_params())
    '5 min'
    """
    total = format_duration(params.restart)
    parts = restart_sum(params)
    return total if parts is None else f"{total} = {parts}"


def _with_note(value: str, note: str) -> str:
    """A value with its note in parentheses: ``"20 GB/s (60% achieved)"``.

    Inside the value's own where it ends in parentheses: ``"20 in 30 days (one every 36 h; with notice)"``.
    """
    if not note:
        return value
    return f"{value[:-1]}; {note})" if value.endswith(")") else f"{value} ({note})"


def input_rows(params: Params) -> list[tuple[str, str]]:
    """The inputs as (name, value) rows, for a table of what a book or a plan was built from.

    A derived C or D with its derivation, and what it was derived from: the rows ``goodput plan`` lists
    (:func:`planner_rows`), each note in parentheses after its value.
    """
    how = derived_sources(params, {})
    rows = [
        ("inputs file", params.source),
        ("GPUs", f"{params.gpus:,}"),
        ("interruptions", mtbi_origin(params)),
        ("mean time between interruptions, M", format_duration(params.mtbi)),
        ("checkpoint cost, C", _with_note(format_duration(params.checkpoint_cost), how.get("C", ""))),
        ("slow checkpoint cost (comparison)", _with_note(format_duration(params.slow_checkpoint_cost),
                                                          slow_origin(params))),
        ("restart time, R", restart_text(params)),
    ]
    if params.drain > 0:
        rows.append(("drain until durable, D", _with_note(format_duration(params.drain), how.get("D", ""))))
    if params.persistent_cost is not None:
        rows += [("persistent checkpoint cost, C_p", format_duration(params.persistent_cost)),
                 ("persistent restart, R_p", format_duration(params.persistent_restart or params.restart))]

        if params.fast_survives is not None:
            rows.append(("share of interruptions the fast tier survives, s", share_text(params.fast_survives)))
        if params.persistent_every is not None:
            rows.append(("every n-th checkpoint persistent, n", str(params.persistent_every)))
    # what C, D and R were derived from, as the command lists it; a restart part whose row would only repeat R's sum
    # above is left out, one that says how it was derived (the load) kept
    rows += [(name, _with_note(value, note)) for name, value, note in planner_rows(params)
             if note or not name.startswith("restart part:")]
    rows += [("price per GPU-hour", f"${params.price_per_gpu_hour:g}"), ("accounting month", f"{significant(params.month / 60, 4)} h")]
    rows += [(f"range of {INPUT_SYMBOLS[key]}", input_span(key, low, high))
             for key, (low, high) in params.ranges.items()]
    return rows + [(name, log.name) for name, log in (("event log", params.events_log), ("step log", params.steps_log))
                   if log is not None]


# --------------------------------------------------------------------------- one plan


def recommendation(plan: Plan) -> str:
    """One sentence: the interval to use and the goodput it leaves (and the persistent cadence, with two tiers).

    >>> recommendation(make_plan(0.5, 60.0, 5.0, persistent_cost=2.0, fast_survives=0.8, persistent_every=4))
    'Checkpoint every 7.32 min of work, every 4th one to the persistent tier as the inputs fix it (every 29.3 min; exact optimum for exponential failures): goodput 73.2%.'
    """
    best = f"Checkpoint every {format_duration(plan.optimal_interval)} of work"
    scheme, cycle = plan.tiers, ""
    if scheme is not None and not scheme.one_tier:
        if scheme.every == 1:
            best += ", every checkpoint to the persistent tier"
        else:
            best += f", every {ordinal(scheme.every)} one to the persistent tier"
            cycle = f"every {format_duration(scheme.every * plan.optimal_interval)}; "
        if not plan.every_chosen:  # a cadence the inputs fix, not the model's best
            best += " as the inputs fix it"
    best += f" ({cycle}{optimum_name(plan)})"
    if plan.at_optimum:
        text = f"{best}: goodput {percent(plan.goodput)}."
    else:
        at_best = at_optimum(plan).goodput
        text = (f"{best}: goodput {percent(at_best)}. The interval in use, {format_duration(plan.interval)}, "
                f"gives {percent(plan.goodput)} ({points(at_best - plan.goodput)} less).")
    if scheme is not None and not scheme.one_tier and scheme.every == 1 and plan.every_chosen:
        text += " Fast checkpoints between persistent ones do not pay here."
    return text


def at_optimum(plan: Plan) -> Plan:
    """The plan at its optimum interval: itself, or its scheme planned again there (a cadence the inputs fix kept)."""
    if plan.at_optimum:
        return plan
    return _replan(plan, None, plan.model, None if plan.every_chosen or plan.tiers is None else plan.tiers.every)


def _replan(plan: Plan, interval: float | None, which: str, every: int | None) -> Plan:
    """The plan's scheme and recovery planned again at `interval` (the optimum when None) by `which`, with n = `every`."""
    s, (p, rj, q, saving) = plan.tiers, plan.recovery or (0.0, 0.0, 0.0, 0.0)
    scheme: dict[str, Any] = {} if s is None else {
        "drain": s.drain, "persistent_cost": s.persistent_cost, "persistent_restart": s.persistent_restart,
        "fast_survives": None if s.one_tier else s.fast_survives, "persistent_every": every}
    return make_plan(plan.checkpoint_cost, plan.mtbi, plan.restart, interval, which=which, just_in_time=p,
                     jit_recovery=rj, planned_rate=q, stop_saving=saving, **scheme)


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st ..."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n:,}{suffix}"


# --------------------------------------------------------------------------- phrases the book's pages share


def share_text(x: float) -> str:
    """A share as an inputs file gives it: ``"75%"`` for 0.75, ``"23.4%"`` for 0.234."""
    return percent(x, 0) if abs(100 * x - round(100 * x)) < 1e-9 else percent(x)


def scheme_words(plan: Plan, params: Params | None = None) -> str:
    """A plan's checkpoint scheme in one phrase, the same on every page.

    With one tier a drain follows every checkpoint; with two, only the persistent copy (every n-th) drains. Where the
    fleet's `params` give C as the stall measured at a checkpoint (:attr:`goodput.params.Params.checkpoint_is_stall`),
    the phrase names that stall beside the snapshot's copy alone: "a measured 6.3 s stall at each snapshot (the copy
    alone 13.8 ms), drained in 5.67 s".

    >>> scheme_words(make_plan(1.0, 186.0, 5.0))
    'one 1 min checkpoint, safe as soon as it is written'
    """
    s = plan.tiers
    if s is None:
        return f"one {format_duration(plan.checkpoint_cost)} checkpoint, safe as soon as it is written"
    copy = params.snapshot_copy if params is not None and params.checkpoint_is_stall else None
    drained = f" drained in {format_duration(s.drain)}" if s.drain else ""

    def snapshot(kind: str) -> str:  # "a 6.3 s snapshot", or the measured stall at each one
        if copy is None:
            return f"{indefinite(format_duration(s.checkpoint_cost))} {kind}"
        return (f"a measured {format_duration(s.checkpoint_cost)} stall at each {kind} (the copy alone "
                f"{format_duration(copy)}){',' * bool(drained)}")

    if s.one_tier:
        return snapshot("snapshot") + drained if s.drain else f"{snapshot('snapshot')}, safe as soon as it is written"
    every = "every copy" if s.every == 1 else f"every {ordinal(s.every)} copy"
    persistent = ", ".join([f"{format_duration(s.cp)} stall"] + [drained.strip()] * bool(s.drain)
                           + [f"restart {format_duration(s.rp)}"])
    return (f"{snapshot('fast snapshot').rstrip(',')}; {every} persistent ({persistent}); "
            f"the fast copy survives {share_text(s.fast_survives)} of interruptions")


def small_points(x: float) -> str:
    """A goodput difference in points: one decimal; two significant digits below a tenth of a point; below that, less."""
    if abs(x) >= 0.00095 or x == 0:
        return points(x, 1)
    return f"{100 * x:.2g} points" if abs(x) >= 0.00005 else "less than 0.01 points"


def percent_sig2(x: float) -> str:
    """A small share of wall time: one decimal from 1%, two significant digits below (``"0.17%"``, not ``"0.2%"``).

    So that two equal terms of 0.166% do not read "0.2%" each beside a total of "0.3%".

    >>> percent_sig2(0.104), percent_sig2(0.00166), percent_sig2(0.00332), percent_sig2(0.0)
    ('10.4%', '0.17%', '0.33%', '0.0%')
    """
    return percent(x, point_decimals(x, 2, 1))


def loss_texts(losses: Mapping[str, float]) -> dict[str, str]:
    """Each of a plan's losses as :func:`percent_sig2` writes it, with a decimal more where two that differ read alike.

    So that "the largest" reads as the largest: "lost work 1.43%, checkpoint overhead 1.40%", not 1.4% twice (two
    decimals more at most).

    >>> loss_texts({"lost_work": 0.01433, "checkpoint_overhead": 0.01402, "restart_loss": 0.0098})
    {'lost_work': '1.43%', 'checkpoint_overhead': '1.40%', 'restart_loss': '0.98%'}
    """
    return {name: percent_apart(x, *losses.values(), digits=point_decimals(x, 2, 1)) for name, x in losses.items()}


def points_sig2(x: float) -> str:
    """A small difference in points: one decimal from a point, two significant digits below (``"0.083 points"``)."""
    return points(x, point_decimals(x, 2, 1))


def signed_points(x: float, digits: int = 2) -> str:
    """A signed contribution in points: ``"+0.12 points"``, ``"−0.05 points"``; no sign on one that reads as zero.

    >>> signed_points(0.0012), signed_points(-0.0005), signed_points(-4e-9, 3)
    ('+0.12 points', '−0.05 points', '0.000 points')
    """
    text = points(abs(x), digits)
    return text if float(text.split()[0]) == 0 else f"{'+' if x >= 0 else '−'}{text}"


def point_decimals(x: float, significant: int = 2, least: int = 2) -> int:
    """Decimals that show a fraction `x` in points to `significant` digits: `least` at least, six at most.

    >>> point_decimals(0.00005), point_decimals(0.0123), point_decimals(0.0000996, 1)
    (4, 2, 3)
    """
    pts = 100 * abs(x)
    return least if not pts > 0 else min(6, max(least, significant - 1 - math.floor(math.log10(pts))))


def se_digits(se: float) -> int:
    """Decimals of a number of points that show its standard error `se` (a fraction) to one significant digit."""
    pts = 100 * se
    return 2 if not pts > 0 or pts >= 0.0095 else min(6, -math.floor(math.log10(pts)))


def points_pm(x: float, se: float) -> str:
    """A simulated difference (its size) with its standard error: ``"0.26 ± 0.01 points"``."""
    d = se_digits(se)
    return f"{100 * abs(x):.{d}f} ± {100 * se:.{d}f} points"


def percent_pm(x: float, se: float) -> str:
    """A simulated goodput with its standard error: ``"86.84% ± 0.02 points"``."""
    d = se_digits(se)
    return f"{percent(x, d)} ± {100 * se:.{d}f} points"


def change_text(x: float, se: float, measurable: bool) -> str:
    """What a simulated difference does to goodput: gains, loses, or changes it by no more than its error."""
    if not measurable:
        return f"changes goodput by no more than the simulation can tell ({points_pm(x, se)})"
    return f"{'gains' if x > 0 else 'loses'} {points_pm(x, se)}"


def per_million(rate: float) -> str:
    """A rate per GPU-hour as interruptions per million GPU-hours, three significant digits (1.97e-5 -> ``19.7``)."""
    return significant(rate * 1e6)


def per_million_range(low: float, high: float) -> str:
    """A range of rates per GPU-hour, per million GPU-hours: ``17.9 to 21.7``."""
    return f"{per_million(low)} to {per_million(high)}"


def duration_range_text(low: float, high: float, digits: int = 3) -> str:
    """A range of durations in minutes, in one unit: ``169 to 205 min``; ``45 to 120 s``, not ``45 s to 2 min``.

    Ends that :func:`format_duration` writes in one unit are written so; else both in the unit of :func:`range_unit`,
    to the decimals of the larger end (:func:`durations_together`).

    >>> duration_range_text(168.6, 204.7), duration_range_text(1116.0, 3773.0), duration_range_text(106.0, 359.0)
    ('169 to 205 min', '18.6 to 62.9 h', '106 to 359 min')
    """
    return _range_words(*range_ends(low, high, digits))


def duration_and_range(value: float, low: float, high: float, digits: int = 3) -> str:
    """A duration with its range, all in one unit: ``"186 min (169 to 205 min)"``, ``"3.35 days (1.96 to 6.28 days)"``.

    The value's unit where the range's ends read in it with two significant digits or more and under a thousand,
    else :func:`duration_range_text`'s; the value as :func:`format_duration` writes it where that is the unit.

    >>> duration_and_range(185.6, 168.6, 204.7), duration_and_range(4824.0, 2820.0, 9043.0)
    ('186 min (169 to 205 min)', '3.35 days (1.96 to 6.28 days)')
    >>> duration_and_range(6480.0, 2220.0, 31392.0), duration_and_range(1956.0, 1116.0, 3773.0)
    ('4.5 days (1.5 to 21.8 days)', '32.6 h (18.6 to 62.9 h)')
    """
    own = format_duration(value, digits)
    finite = all(math.isfinite(x) for x in (value, low, high))
    like = value if finite and value > 0 and max(abs(low), abs(high)) / _unit(value)[1] < 1000.0 else None
    lo, hi = range_ends(low, high, digits, like)
    unit = hi.partition(" ")[2]
    if own.partition(" ")[2] != unit and lo.partition(" ")[2] == unit and finite:
        own = durations_together(value, low, high, digits=digits, like=range_unit(low, high) if like is None else like)[0]
    return f"{own} ({_range_words(lo, hi)})"


def range_unit(low: float, high: float) -> float:
    """The duration (minutes) whose unit a range from `low` to `high` is written in.

    The smaller end's where the larger reads under a thousand in it (``106 to 359 min``, ``18.6 to 62.9 h``, not
    ``0.78 to 2.62 days``), else the larger's (``2.0 to 21.8 days``).
    """
    small, large = sorted((abs(low), abs(high)))
    return small if small > 0 and large / _unit(small)[1] < 1000.0 else large


def _range_words(low: str, high: str) -> str:
    """Two ends as a range says them: the unit once where they share it (``"169 to 205 min"``)."""
    number, _, unit = low.partition(" ")
    return f"{number} to {high}" if unit and unit == high.partition(" ")[2] else f"{low} to {high}"


def range_ends(low: float, high: float, digits: int = 3, like: float | None = None) -> tuple[str, str]:
    """The two ends of a range in one unit.

    As :func:`format_duration` writes them where they share one (`like`'s, when given); else in `like`'s unit, or
    :func:`range_unit`'s.
    """
    lo, hi = format_duration(low, digits), format_duration(high, digits)
    if not (math.isfinite(low) and math.isfinite(high)):
        return lo, hi
    if low == 0.0 and like is None and high != 0.0:  # an interval cut at zero: "0 min to 39.3 min", not "0.0 min"
        return f"0 {hi.split(' ')[1]}", hi
    unit = lo.partition(" ")[2]
    if unit and unit == hi.partition(" ")[2] and (unit == _unit(like)[0] if like is not None else " " not in unit):
        # one unit, and the same decimals where both ends have some ("4.81 min to 5.10 min", not "5.1 min")
        if "." in lo and "." in hi:
            return tuple(durations_together(low, high, digits=digits, like=max(low, high)))  # type: ignore[return-value]
        return lo, hi
    alike = durations_together(low, high, digits=digits, like=range_unit(low, high) if like is None else like)
    # a range so wide that an end would keep fewer than two significant digits in the other's unit ("0.1 to 50.0 min")
    # keeps each end in its own: "6 s to 50 min"
    if any(x != 0 and len(text.partition(" ")[0].replace(",", "").replace(".", "").lstrip("0")) < 2
           for x, text in zip((low, high), alike, strict=True)):
        return (lo, hi) if like is None else range_ends(low, high, digits)
    return alike[0], alike[1]


def record_name(record: PublishedFleet) -> str:
    """A published record's name without what the table adds to it: ``"OPT-175B holiday week"``, ``"Meta RSC-1"``."""
    name = re.sub(r"\s*\([^)]*\)", "", record.fleet)
    for extra in (" pre-training", " research cluster"):
        name = name.replace(extra, "")
    return name.strip()


def day_text(text: str | None, *, year: bool = False) -> str:
    """An ISO date as a sentence writes it: ``"4 May"``, ``"4 May 2022"``."""
    from datetime import date

    day = date.fromisoformat(str(text))
    return f"{day.day} {day:%B}" + (f" {day.year}" if year else "")


def _unit(minutes: float) -> tuple[str, float]:
    """The unit :func:`format_duration` would write a duration in, and its size in minutes, never minutes and seconds."""
    seconds = minutes * 60.0
    for name, size, below in (("ms", 1.0 / 60_000.0, 0.1 / 60.0), ("s", 1.0 / 60.0, 1.0), ("min", 1.0, 300.0),
                              ("h", 60.0, 2 * DAY), ("days", DAY, YEAR)):
        if round(seconds, 9) < below * 60.0:
            return name, size
    return "years", YEAR


def durations_together(*minutes: float, digits: int = 3, like: float | None = None) -> list[str]:
    """Durations that share a sentence, written alike: in one unit, to the same decimals.

    The largest finite duration sets the unit (``20.3 h``, not ``1,218 min``; the unit of `like` when given) and the
    decimals that give the largest `digits` significant digits, so that none shows more (``4.96 min``, ``4.81 min``,
    ``5.10 min``, ``4.98 min``, not ``5.1 min`` and ``4 min 59 s``); an infinite one is ``"unbounded"``, NaN
    ``"undefined"``.

    >>> durations_together(4.96, 4.81, 5.1, 299 / 60)
    ['4.96 min', '4.81 min', '5.10 min', '4.98 min']
    >>> durations_together(238.0, 108.0, 1218.0)
    ['4.0 h', '1.8 h', '20.3 h']
    >>> durations_together(1116.0, 3773.0, like=1116.0)
    ['18.6 h', '62.9 h']

    Whole numbers of the unit all, they read whole (``25 h`` and ``60 h``, not ``25.0 h`` beside a typed ``40 h``):

    >>> durations_together(1500.0, 3600.0, like=1500.0), durations_together(1440.0, 7200.0)
    (['25 h', '60 h'], ['1 day', '5 days'])
    """
    ref = max((abs(x) for x in minutes if math.isfinite(x)), default=0.0)
    name, size = _unit(ref if like is None else abs(like))
    whole = all(abs(x / size - round(x / size)) <= 1e-9 * abs(x / size) for x in minutes if math.isfinite(x))
    decimals = 0 if whole or not ref else max(0, digits - 1 - math.floor(math.log10(ref / size)))
    def text(x: float) -> str:
        number = f"{x / size:,.{decimals}f}"
        return f"{number} {name.removesuffix('s') if number == '1' and name in ('days', 'years') else name}"

    return [text(x) if math.isfinite(x) else format_duration(x) for x in minutes]


def events_summary(e: EventMeasurement) -> str:
    """M, R and the shape an event log gives, as the rest of a sentence (each clause branches on the log)."""
    if e.failures:
        m, low, high = durations_together(e.mtbi_min, *e.mtbi_interval_min)
        m_text = (f"{count(e.failures, 'failure')} over {format_duration(e.exposure_min)} of exposure give "
                  f"M = {m} ({e.confidence:.0%} interval {low} to {high})")
    else:
        m_text = (f"no failure in {format_duration(e.exposure_min)} of exposure puts M above "
                  f"{format_duration(e.mtbi_interval_min[0])} ({e.confidence:.0%} lower bound)")
    mean, median = durations_together(e.restart_min, e.restart_median_min)
    r_text = (f"the restarts, failure to next start, average {mean} (median {median}, "
              f"{count(e.restart_samples, 'restart')})"
              if e.restart_samples else "no restart time is recorded")
    k_text = (f"the gaps between failures have a Weibull shape of {significant(e.fit.shape, 3)} "
              f"({shape_interval_text(e.fit)}). {shape_verdict(e.fit)}" if e.fit is not None
              else f"no shape can be fitted. {shape_verdict(None, e.fit_problem)}")
    return f"{m_text}; {r_text}; {k_text}"


@dataclass(frozen=True)
class PlanReport:
    """A plan with everything a planning document quotes beside it.

    Minutes, fractions of 1 and US dollars; ``sources`` keyed ``"M"``, ``"C"``, ``"R"`` (``"T"`` when given); ``swings``
    (widest first) and ``goodput_range``: goodput at the plan's interval as each ranged input moves alone, or all.
    """

    plan: Plan
    cross_check: Plan
    gpus: int
    price_per_gpu_hour: float
    month: float
    sources: Mapping[str, str] = field(default_factory=dict)
    ranges: Mapping[str, InputRange] = field(default_factory=dict)
    provenance: Provenance | None = None
    swings: Sequence[Swing] = ()
    goodput_range: tuple[float, float] | None = None
    params: Params | None = None
    spares_choice: SparesChoice | None = None
    needed: Needed | None = None
    storage_levers: Mapping[str, float] = field(default_factory=dict)
    best_bandwidth: BestBandwidth | None = None
    #: The slow checkpoint at its own optimum where it keeps more than the plan (the scheme does not pay); else None.
    slow_keeps_more: Plan | None = None

    @property
    def levers(self) -> dict[str, float]:
        """Goodput gained by each lever: the plan's (:func:`goodput.plan.plan_levers`) and the storage's."""
        return plan_levers(self.plan) | dict(self.storage_levers)

    @property
    def lost_capacity(self) -> float:
        """US dollars a month of GPU time the losses take at list price: (1 - goodput) x GPUs x price x hours."""
        return model.capacity_per_month(1.0 - self.plan.goodput, self.gpus, self.price_per_gpu_hour, self.month)

    @property
    def lost_gpu_hours(self) -> float:
        """GPU-hours a month the losses take."""
        return model.capacity_per_month(1.0 - self.plan.goodput, self.gpus, 1.0, self.month)  # at $1 a GPU-hour


@dataclass(frozen=True)
class Needed:
    """The write bandwidth a target goodput needs (``goodput plan --target-goodput``), and C and D there.

    Bytes per second and minutes; all None, with a ``reason``, when the target is out of reach.
    """

    target: float
    write_bandwidth: float | None
    checkpoint_cost: float | None
    drain: float | None
    reason: str | None


def needed_for(fleet: FleetPlan, target: float) -> Needed:
    """The write bandwidth `target` needs (:meth:`goodput.fleet.FleetPlan.needed_write_bandwidth`), or why not."""
    from goodput.plan import plan_for
    from goodput.storage import FASTEST, format_bandwidth

    bandwidth = fleet.needed_write_bandwidth(target)
    if bandwidth is None:
        best = plan_for(fleet.at_write_bandwidth(FASTEST)).goodput
        return Needed(target, None, None, None, f"even {format_bandwidth(FASTEST)} leaves goodput at "
                      f"{percent(best)}, short of {percent(target)}: the failures and the restart take the rest, which bandwidth does not buy")
    at = fleet.at_write_bandwidth(bandwidth)
    return Needed(target, bandwidth, at.checkpoint_cost, at.drain, None)


def plan_report(
    plan: Plan, params: Params, sources: Mapping[str, str] | None = None, provenance: Provenance | None = None
) -> PlanReport:
    """Put a plan together with its cross-check, ranges, capacity and provenance."""
    from goodput.uncertainty import PLAN_INPUTS, input_ranges, one_at_a_time, propagate_params

    s = plan.tiers
    # the other model's own plan, as the book's (goodput.fleet.FleetPlan.first_order): its own cadence where the plan
    # chose one, the plan's where the inputs fix it
    cross = _replan(plan, None if plan.at_optimum else plan.interval, "first-order" if plan.model == "exact" else "exact",
                    None if s is None or s.one_tier or plan.every_chosen else s.every)
    same = (plan.checkpoint_cost, plan.mtbi, plan.restart) == (params.checkpoint_cost, params.mtbi, params.restart)
    ranges = input_ranges(params) if same else {}  # the file's ranges apply to the file's C, M and R
    swings: list[Swing] = []
    goodput_range = None
    if any(not r.exact for name, r in ranges.items() if name in PLAN_INPUTS):
        try:  # the plan's goodput at its interval, through its scheme, as each input moves (no T* over the box)
            carried = propagate_params(params, interval=plan.interval, which=plan.model, scheme=plan.tiers,
                                       corners=False)
        except Refused:  # a corner of the box where the model does not apply: the ranges are listed, not carried
            pass
        else:
            swings = [x for x in one_at_a_time(carried) if not ranges[x.name].exact]
            goodput_range = carried.goodput_range
    return PlanReport(plan=plan, cross_check=cross, gpus=params.gpus, price_per_gpu_hour=params.price_per_gpu_hour,
                      month=params.month, sources=dict(sources or file_sources(params)), ranges=ranges,
                      provenance=provenance, swings=swings, goodput_range=goodput_range)


def range_rows(report: PlanReport) -> list[tuple[str, str, str]]:
    """A row per ranged input: its range, where it came from, and how many points it alone moves goodput.

    Widest swing first; then those whose swing was not computed, and the slow checkpoint (it moves only the comparison).
    """
    swings = {x.name: x for x in report.swings}
    rows = []
    for name in dict.fromkeys([*swings, *(name for name, r in report.ranges.items() if not r.exact)]):
        r = report.ranges[name]
        note = range_origin(r)
        if name in swings:
            note += f" ({points(swings[name].goodput_swing)} alone)"
        elif name == "slow_checkpoint_cost":
            note += " (moves only the comparison)"
        rows.append((f"range of {INPUT_SYMBOLS[name]}", range_text(r), note))
    if report.goodput_range is not None and len(swings) > 1:
        low, high = report.goodput_range
        rows.append(("goodput over all the ranges", f"{percent(low)} to {percent(high)}",
                     "every input at its worst, or at its best, at once"))
    return rows


def _sections(report: PlanReport) -> list[tuple[str, list[tuple[str, str, str]]]]:
    """The rows of each section as (name, value, note)."""
    plan, sources, s = report.plan, report.sources, report.plan.tiers
    given = {"M": format_duration(plan.mtbi), "C": format_duration(plan.checkpoint_cost),
             "R": format_duration(plan.restart)}
    if s is not None and s.drain > 0:
        given["D"] = format_duration(s.drain)
    if s is not None and not s.one_tier:
        given |= {"C_p": format_duration(s.cp), "R_p": format_duration(s.rp), "s": share_text(s.fast_survives)}
    names = {symbol: INPUT_NAMES[key] for key, symbol in INPUT_SYMBOLS.items()}
    inputs = [("GPUs", f"{report.gpus:,}", ""), *((names[x], value, sources.get(x, "")) for x, value in given.items())]
    if s is not None and not s.one_tier:
        inputs.append(("every n-th checkpoint persistent, n", f"{s.every:,}",
                       "best n" if plan.every_chosen else sources.get("n", "given")))
    inputs.append(("checkpoint interval, T", format_duration(plan.interval),
                   optimum_name(plan) if plan.at_optimum else sources.get("T", "given")))
    if s is not None and not s.one_tier and s.every > 1:
        inputs.append(("persistent interval, nT", format_duration(s.every * plan.interval), ""))
    inputs += range_rows(report)
    single = plan.model == "first-order" and s is None and plan.recovery is None  # the brief's three formulas
    # a loss under 1% to two significant digits, so that small losses add up as printed (0.14% + 0.14%, not 0.1% twice)
    shares = loss_texts({"checkpoint_overhead": plan.losses.checkpoint_overhead, "lost_work": plan.losses.lost_work,
                         "restart_loss": plan.losses.restart_loss} | ({"drain_loss": plan.drain_loss} if plan.drained else {}))
    losses = [
        ("checkpoint overhead" + (", C/T" if single else ""), shares["checkpoint_overhead"], ""),
        ("lost work" + (", T/(2M)" if single else ""), shares["lost_work"], ""),
        ("restart" + (", R/M" if single else ""), shares["restart_loss"], ""),
    ]
    if plan.drained:
        losses.append(("not yet durable (drain)", shares["drain_loss"], ""))
    losses.append(("goodput", percent(plan.goodput), MODEL_NAMES[plan.model]))
    lever_rows = [(name, lever_gain_text(plan, name, gain, plus=True), "") for name, gain in
                  sorted(report.levers.items(), key=lambda x: -x[1])]
    cross, problem = report.cross_check, cross_check_problem(report)
    checks = [
        (f"by {MODEL_NAMES[cross.model]}", "not quoted" if problem else
         f"{percent(cross.goodput)} at {format_duration(cross.interval)}",
         # quoted with the book's caution where first order is over a point off (goodput.fleet first_order_status)
         problem or (cross.model == "first-order" and first_order_caution(plan.check))
         or ("optimum" if cross.at_optimum else "same interval")),
        ("capacity the losses take", f"{money(report.lost_capacity)} a month",
         f"{large_count(report.lost_gpu_hours, 'GPU-hours')} at ${report.price_per_gpu_hour:g}"
         + (f", {report.sources['price']}" if report.sources.get("price", "").startswith("the worked") else "")),
    ]
    buy = _buy_rows(report)
    planner = [] if report.params is None else planner_rows(report.params)
    return [("inputs", inputs + planner), ("losses", losses), ("levers", lever_rows), ("cross-check", checks),
            *([("to hold or buy", buy)] if buy else [])]


def planner_rows(p: Params) -> list[tuple[str, str, str]]:
    """Rows of what a planner gave (size, storage, the restart's parts, spares, recovery without rollback).

    As (name, value, note): ``goodput plan`` lists them under its inputs, the book's table of what it was built from
    (:func:`input_rows`) with them.
    """
    from goodput.storage import format_bandwidth, format_size

    rows = []
    if p.checkpoint_size is not None:
        rows.append(("checkpoint size", format_size(p.checkpoint_size), p.derived.get("checkpoint_size", "given")))
    if p.storage is not None:
        s = p.storage
        rows.append(("write bandwidth (stated)", format_bandwidth(s.write_bandwidth),
                     f"{s.efficiency:.0%} achieved" if s.efficiency < 1 else "measured"))
        if s.read_bandwidth is not None:
            rows.append(("read bandwidth (stated)", format_bandwidth(s.read_bandwidth), ""))
        if s.snapshot_bandwidth is not None:
            rows.append(("snapshot bandwidth per node", format_bandwidth(s.snapshot_bandwidth), ""))
            rows.append(("host memory a snapshot needs per node", format_size(s.host_memory_needed),
                         ("double-buffered" if s.double_buffered else "one copy")
                         + (f"; {format_size(s.host_memory)} free" if s.host_memory is not None else "")))
    if p.restart_parts is not None:
        written = restart_part_texts(p)  # as R's sum writes them, adding up to R
        rows += [(f"restart part: {RESTART_PART_NAMES[part]}", written[part], p.derived.get(part, ""))
                 for part, minutes in p.restart_parts.parts.items() if minutes > 0]
    if p.spares is not None:
        rows.append(("hot spare nodes", f"{p.spares.nodes:,}", spares_text(p)))
    if p.just_in_time > 0:
        rows.append(("recovered just in time, p", share_text(p.just_in_time),
                     f"each recovery {format_duration(p.jit_recovery)}"))
    if p.planned_rate > 0:
        rows.append(("planned stops, q", planned_text(p), "with notice"))
    return rows


def _buy_rows(report: PlanReport) -> list[tuple[str, str, str]]:
    """Rows of the best spare count and the bandwidth a target goodput needs."""
    from goodput.storage import format_bandwidth

    rows = []
    if (choice := report.spares_choice) is not None:
        b, p = choice.best, report.params
        note = f"goodput {percent(choice.goodput[b])}, {percent(choice.useful[b])} of all GPUs bought doing kept work"
        if p is not None and p.spares is not None and p.spares.nodes != b:
            # R at the best count and with the pool held, written so they differ as they do (0.56 s is not 6 s)
            best_r, held_r = format_durations(choice.restart[b], p.restart)
            held = "none" if p.spares.nodes == 0 else f"the {p.spares.nodes:,}"
            note += f"; R = {best_r} (R = {held_r} with {held} held)"
        else:
            note += f"; R = {format_duration(choice.restart[b])}"
        rows.append(("best number of spare nodes", f"{b:,}", note))
    if (n := report.needed) is not None:
        name = f"write bandwidth for {percent(n.target)} goodput"
        if n.write_bandwidth is None or n.checkpoint_cost is None:
            rows.append((name, "out of reach", n.reason or ""))
        else:
            rows.append((name, format_bandwidth(n.write_bandwidth), f"stated; C = {format_duration(n.checkpoint_cost)}"
                         + (f", D = {format_duration(n.drain)}" if n.drain else "")))
    if (best := report.best_bandwidth) is not None:
        rows.append(("best write bandwidth net of its cost", best_bandwidth_text(best),
                     best_bandwidth_note(best, scheme_as_measured=report.slow_keeps_more is not None)))
    return rows


def best_bandwidth_text(best: BestBandwidth) -> str:
    """B* as the command and the book write it: ``"810 GB/s"``, or ``"at least 128 TB/s"`` at the top of the search."""
    from goodput.storage import format_bandwidth

    return ("at least " if best.edge == "top" else "at most " if best.edge == "bottom" else "") + format_bandwidth(
        best.bandwidth)


def best_bandwidth_note(best: BestBandwidth, *, scheme_as_measured: bool = False) -> str:
    """What B* gives and costs, in words: goodput and interval of the plan there, storage cost and net a month.

    And, where B* is an end of the search, that it is. ``scheme_as_measured``: the fleet's scheme does not pay
    (:func:`goodput.plan.scheme_pays`), so B* is said to be that scheme's, as measured, not the synchronous write's.
    """
    from goodput.storage import SEARCH_SPAN

    every = ""
    if best.interval > 0.0:
        every = f" checkpointing every {format_duration(best.interval)}" + (
            " (its drain's length there: one drain at a time)" if best.at_drain else "")
    scheme = "with the fleet's scheme as measured, " if scheme_as_measured else ""
    note = (f"stated, as the inputs' write bandwidth is; {scheme}goodput {percent(best.goodput)}{every}, storage "
            f"{money(best.storage_cost_per_month)} a month; kept work's worth less storage {money(best.net_per_month)} a month")
    if best.flat:  # the fleet's own bandwidth nets as much, as far as its inputs tell (BestBandwidth.flat)
        note += (f"; {money(best.net_per_month - best.own_net_per_month)} a month more than at the fleet's own "
                 "bandwidth, finer than its inputs tell apart: none to buy or shed")
    if best.edge == "top":
        note += f"; no optimum below {SEARCH_SPAN:g} times the fleet's bandwidth, the top of the search"
    elif best.edge == "bottom":
        note += f"; no optimum above 1/{SEARCH_SPAN:g} of the fleet's bandwidth, the bottom of the search"
    return note


def planner_keys(report: PlanReport) -> dict[str, Any]:
    """The JSON keys of what a planner gave and what follows from it (null where not given)."""
    p, b, c, n = report.params, report.best_bandwidth, report.spares_choice, report.needed
    best = None if b is None else {"bandwidth_bytes_per_s": b.bandwidth, "goodput": b.goodput,
                                   "storage_cost_per_month": b.storage_cost_per_month,
                                   "net_per_month": b.net_per_month, "edge": b.edge,
                                   "own_net_per_month": b.own_net_per_month, "flat": b.flat}
    if p is None:
        return dict.fromkeys(("checkpoint_size_bytes", "load_min", "restart_parts", "spares", "best_spares", "needed"),
                             None) | {"best_write_bandwidth": best, "just_in_time": None, "derived": {}}
    parts, spares = p.restart_parts, p.spares
    load = parts is not None and ((p.known is not None and "load" in p.known.parts) or "load" in p.derived)
    by_count = [] if c is None else [{"nodes": n, "restart_min": r, "goodput": g, "useful": u, "net_gpus": k}
                                     for n, r, g, u, k in zip(c.counts, c.restart, c.goodput, c.useful, c.net, strict=True)]
    return {
        "checkpoint_size_bytes": p.checkpoint_size,
        "load_min": parts.load if parts is not None and load else None,
        "restart_parts": None if parts is None else parts.parts,
        "spares": None if spares is None else {"nodes": spares.nodes, "repair_min": spares.repair,
                                               "takes_node": spares.takes_node, "wait_min": spares.wait(p.mtbi)},
        "best_spares": None if c is None else {**by_count[c.best], "by_count": by_count},  # counts are 0, 1, 2 ...
        "needed": None if n is None else {"target_goodput": n.target, "write_bandwidth_bytes_per_s": n.write_bandwidth,
                                          "checkpoint_cost_min": n.checkpoint_cost, "drain_min": n.drain,
                                          "reason": n.reason},
        "best_write_bandwidth": best,
        "just_in_time": {"share": p.just_in_time, "recovery_min": p.jit_recovery, "planned_rate_per_hour": p.planned_rate}
        if p.just_in_time > 0 or p.planned_rate > 0 else None,
        # R's derivation as the table writes it (:func:`restart_sum`, parts that add up to R), not the inputs' note
        "derived": dict(p.derived) | ({"restart": restart_sum(p)} if "restart" in p.derived else {}),
    }



def cross_check_problem(report: PlanReport) -> str | None:
    """Why the other model's number is not quoted beside the plan, or ``None`` when it is.

    Range-checked like a plan: a refused first-order number, or a value outside [0, 1], is not printed.
    """
    from goodput.plan import first_order_refusal

    cross = report.cross_check
    worst = first_order_refusal(report.plan.check, cross) if cross.model == "first-order" else \
        (cross.check if cross.refused else None)
    if worst is not None and worst.status == "below zero":  # said without the impossible number
        return "first order gives a goodput below zero here: the formula does not apply"
    if worst is not None:
        return first_order_problem(worst)
    if not 0.0 <= cross.goodput <= 1.0:  # NaN included
        return "the other model gives no goodput between 0% and 100% here"
    return None


def storage_rederived(params: Params) -> dict[str, str]:
    """What doubling the storage bandwidth doubles besides the write bandwidth, and the durations it derives again.

    ``read_doubled`` is " and the read bandwidth with it," where the inputs give one; ``rederived`` names the
    drain (after a snapshot) or the checkpoint's write, the load after an interruption where it is derived from the
    read bandwidth, and the slow checkpoint where it is derived (:func:`goodput.params.at_bandwidths`).

    >>> from goodput.params import load_params
    >>> storage_rederived(load_params())
    {'read_doubled': '', 'rederived': 'none'}
    """
    s = params.storage
    if s is None:
        return {"read_doubled": "", "rederived": "none"}
    parts = ["the drain" if s.snapshot_bandwidth is not None else "the checkpoint's write"]
    if "load" in params.derived:
        parts.append("the load after an interruption")
    # the slow checkpoint, where it is another write than C (not C itself, the synchronous write without a snapshot)
    if "slow_checkpoint_cost" in params.derived and not params.checkpoint_is_write:
        parts.append("the slow checkpoint (which the inputs file does not give)")
    return {"read_doubled": " and the read bandwidth with it," if s.read_bandwidth is not None else "",
            "rederived": join_words(parts)}


def storage_cost_note(report: PlanReport) -> str:
    """Where the inputs price storage: the storage lever's worth is gross, and what doubling costs a month, beside B*.

    "" without a price (or without storage).
    """
    from goodput.storage import format_bandwidth

    s = None if report.params is None else report.params.storage
    if s is None or s.price is None or (more := s.doubling_cost_per_month) is None:
        return ""
    best = "" if report.best_bandwidth is None else \
        f"; the best net of its cost is {best_bandwidth_text(report.best_bandwidth)} stated"
    return (f" The lever \"double the storage bandwidth\" is a gain before the storage's own cost: the stated "
            f"{format_bandwidth(s.write_bandwidth)} doubled costs {money(more)} a month more at ${s.price:,.6g} per "
            f"GB/s{best}.")


def _not_paying(report: PlanReport) -> str | None:
    """"Not paying: ...", printed right under the recommendation where the scheme does not pay, as the book says it."""
    if (slow := report.slow_keeps_more) is None or report.params is None:
        return None
    return not_paying_text(report.params.slow_derived, format_duration(slow.checkpoint_cost), percent(slow.goodput),
                           format_duration(slow.interval), gain_text(slow.goodput - at_optimum(report.plan).goodput))


def _notes(report: PlanReport) -> list[str]:
    """Sentences printed under a plan: a caution about first order, and how the levers are measured."""
    capped = [name for name in CAPPED_LEVERS.values() if name in report.levers]
    stops = "".join(f" ({name}: half of {name.split()[1]} would be below {name.split()[-1]})" for name in capped)
    notes = [f"Levers: an input halved with the interval re-optimized{stops}; the interval lever moves T to the optimum."]
    if report.storage_levers and report.params is not None:
        words = storage_rederived(report.params)
        read = " (and the read bandwidth)" if words["read_doubled"] else ""
        snapshot = "; the snapshot bandwidth doubled, C derived again" \
            if STORAGE_LEVERS["double_snapshot_bandwidth"] in report.storage_levers else ""
        notes.append(f"Storage levers: the stated write bandwidth doubled{read}, which derives again "
                     f"{words['rederived']}{snapshot}; the interval re-optimized.{storage_cost_note(report)}")
    if report.plan.model == "first-order" and (caution := first_order_caution(report.plan.check)):
        notes.append(f"Caution: {caution}; the exact model ({code('--model exact')}) is closer.")
    return notes


def plan_dict(report: PlanReport) -> dict[str, Any]:
    """The plan as one JSON-ready mapping (``goodput plan --format json``): minutes in ``_min`` keys, else fractions."""
    plan, cross, problem = report.plan, report.cross_check, cross_check_problem(report)
    return {
        "gpus": report.gpus,
        "mtbi_min": plan.mtbi,
        "checkpoint_cost_min": plan.checkpoint_cost,
        "restart_min": plan.restart,
        "interval_min": plan.interval,
        "optimal_interval_min": plan.optimal_interval,
        "checkpoint_overhead": plan.losses.checkpoint_overhead,
        "lost_work": plan.losses.lost_work,
        "restart_loss": plan.losses.restart_loss,
        "goodput": plan.goodput,
        **_tier_keys(plan),
        "model": plan.model,
        "problem": first_order_problem(plan.check) if plan.model == "first-order" else None,
        "caution": first_order_caution(plan.check) if plan.model == "first-order" else None,
        "cross_check": {"model": cross.model, "interval_min": None if problem else cross.interval,
                        "optimal_interval_min": None if problem else cross.optimal_interval,
                        "goodput": None if problem else cross.goodput, "problem": problem},
        "levers": report.levers,
        # where the scheme does not pay: the synchronous write that keeps more ("Not paying" in the text), else null
        "not_paying": None if (slow := report.slow_keeps_more) is None else {
            "checkpoint_cost_min": slow.checkpoint_cost, "restart_min": slow.restart, "interval_min": slow.interval,
            "goodput": slow.goodput, "gain": slow.goodput - at_optimum(plan).goodput},
        "ranges": {key: (None if r.exact else [r.low, r.high])  # widest swing first, then the rest as kept
                   for key, r in {**{x.name: report.ranges[x.name] for x in report.swings}, **report.ranges}.items()},
        "range_swings": {x.name: list(x.goodput_range) for x in report.swings},
        "goodput_range": None if report.goodput_range is None else list(report.goodput_range),
        "capacity": {"lost_gpu_hours_per_month": report.lost_gpu_hours, "lost_usd_per_month": report.lost_capacity,
                     "price_per_gpu_hour": report.price_per_gpu_hour, "month_min": report.month},
        "sources": dict(report.sources),
        "provenance": report.provenance.to_dict() if report.provenance else None,
        **planner_keys(report),
    }


def strict_json(data: Any) -> str:
    """One JSON document any strict parser reads: a non-finite number is written ``null``.

    The last guard (every number is range-checked before), so that no ``NaN`` or ``Infinity`` reaches a reader.
    """

    def clean(value: Any) -> Any:
        if isinstance(value, float):
            return value if math.isfinite(value) else None
        if isinstance(value, Mapping):
            return {key: clean(v) for key, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [clean(v) for v in value]
        return value

    return json.dumps(clean(data), indent=2, allow_nan=False)


def _tier_keys(plan: Plan) -> dict[str, float | int]:
    """The JSON keys a drain or a persistent tier adds (none for a single immediately safe checkpoint)."""
    s = plan.tiers
    out: dict[str, float | int] = {}
    if s is not None and s.drain > 0:
        out |= {"drain_min": s.drain, "drain_loss": plan.drain_loss}
    if s is not None and not s.one_tier:
        out |= {"drain_loss": plan.drain_loss, "persistent_cost_min": s.cp, "persistent_restart_min": s.rp,
                "fast_survives": s.fast_survives, "persistent_every": s.every,
                "persistent_interval_min": s.every * plan.interval}
    return out


def render_plan(report: PlanReport, fmt: str = "table") -> str:
    """Print a plan as a terminal table, a Markdown section for a planning document, or one JSON object."""
    if fmt == "json":
        return strict_json(plan_dict(report))
    sections = _sections(report)
    notes, warning = _notes(report), _not_paying(report)
    where = report.provenance.summary() if report.provenance else None
    if fmt == "markdown":
        lines = ["### Checkpoint plan", "", f"**Recommendation.** {recommendation(report.plan)}", ""]
        lines += [f"> {warning}", ""] if warning else []
        headers = {"inputs": "input | value | source", "losses": "loss | share of wall time |",
                   "levers": "lever | goodput gained |"}
        # where the inputs came from, when that is the inputs file (its name as the user wrote it), not a flag
        given = {source for source in report.sources.values() if not source.startswith("--")}
        for name, rows in sections:
            lines.append(f"| {headers.get(name, name + ' | value |')} |\n|---|---:|---|")
            for key, value, note in rows:
                note = escape_markdown(note) if note in given else cell(note)
                bold = "**" if key == "goodput" else ""
                lines.append(f"| {bold}{cell(key)}{bold} | {bold}{cell(value)}{bold} | {note} |")
            lines.append("")
        lines += [f"> {note}" for note in notes]
        if where:
            lines += ["", f"*{escape_markdown(where)}*"]
        return "\n".join(lines)
    width = max(len(k) for _, rows in sections for k, _, _ in rows)
    vwidth = max(len(v) for _, rows in sections for _, v, _ in rows)
    lines = textwrap.wrap(recommendation(report.plan), width=78)
    lines += ["", *textwrap.wrap(warning, width=78)] if warning else []
    for name, rows in sections:
        lines += ["", f"{name}:"]
        for key, value, note in rows:
            if key == "goodput":
                lines.append("  " + "-" * (width + 2 + vwidth))
            # Notes longer than a short tag (the inputs' sources) go on their own line, to keep the table narrow.
            short = note if len(note) <= 20 else ""
            lines.append(f"  {key:<{width}}  {value:>{vwidth}}" + (f"   {short}" if short else ""))
            if note and not short:  # wrapped under its row, so the output stays within 80 columns
                lines += textwrap.wrap(note, width=78, initial_indent="    ", subsequent_indent="      ",
                                       break_long_words=False, break_on_hyphens=False)
    lines.append("")
    for note in notes:
        lines += textwrap.wrap(note.replace("`", ""), width=78)
    if where:
        lines += ["", *textwrap.wrap(where, width=78)]
    return "\n".join(lines)


#: Characters that Markdown (CommonMark, MyST) may read as markup anywhere in a line: HTML and entities, emphasis,
#: code, links, table cells, roles, math, headings; a backslash before each makes it text.
_MARKDOWN_MARKUP = re.compile(r"([\\`*_\[\]<>&|{}$~!#])")
#: What starts a block when it begins a line: a list item, a numbered item, a quote, a setext underline.
_MARKDOWN_LINE_START = re.compile(r"^(\s*)([-+=>]|\d+(?=[.)]))")


def escape_markdown(text: object) -> str:
    r"""Text from outside the package (an inputs file's name, a job name from a log) made safe for Markdown.

    A backslash before each character Markdown may read as markup (CommonMark and MyST then read it as text), and
    before what would start a list; line breaks become spaces. The command's Markdown output and the book both use it.

    >>> print(escape_markdown("<img src=x onerror=alert(1)>.yml"))
    \<img src=x onerror=alert(1)\>.yml
    >>> print(escape_markdown("1. a|b & *c*"))
    1\. a\|b \& \*c\*
    """
    text = _MARKDOWN_MARKUP.sub(r"\\\1", " ".join(str(text).splitlines()))
    return _MARKDOWN_LINE_START.sub(lambda m: m[1] + (m[2] + "\\" if m[2].isdigit() else "\\" + m[2]), text)


# --------------------------------------------------------------------------- measurements


def interval_text(low: float, high: float, digits: int = 3) -> str:
    """Two durations in minutes, in one unit: ``"169 min to 205 min"``; ``"no interval"`` for NaN.

    Ends that would read in two units take one (:func:`range_unit`): ``"18.6 h to 62.9 h"``, not ``"18.6 h to 2.62
    days"``; ``"106 min to 359 min"``, not ``"106 min to 5.99 h"``.

    >>> interval_text(168.6, 204.7), interval_text(1116.0, 3773.0), interval_text(4.81, 5.1)
    ('169 min to 205 min', '18.6 h to 62.9 h', '4.81 min to 5.10 min')
    """
    if math.isnan(low) or math.isnan(high):
        return "no interval"
    return " to ".join(range_ends(low, high, digits))


def render_measurement(m: Measurement, fmt: str = "table", shape: EventMeasurement | None = None) -> str:
    """Print a measurement as a table or JSON; with `shape`, also the failures' gaps and Weibull shape."""
    if fmt == "json":
        data = {**m.to_dict(), "model_note": measurement_note(m)}
        if shape is not None:
            extra = shape.to_dict()
            data |= {key: extra[key] for key in ("failure_gaps_min", "open_gap_min", "weibull", "fit_problem")}
            data["shape_verdict"] = shape_verdict(shape.fit, shape.fit_problem)
        return strict_json(data)
    pct = f"{m.confidence:.0%}"
    rows = [
        ("checkpoint cost, C", format_duration(m.checkpoint_cost_min),
         f"{pct} interval {interval_text(*m.checkpoint_cost_interval_min)}"),
        ("mean time between interruptions, M", format_duration(m.mtbi_min) if m.failures else "no failure",
         (f"{pct} interval {interval_text(*m.mtbi_interval_min)}; {count(m.failures, 'failure')} in "
         f"{format_duration(m.exposure_min)}")),
        ("restart time, R", format_duration(m.restart_min) if m.restart_samples else "no restart",
         f"{pct} interval {interval_text(*m.restart_interval_min)}; median {format_duration(m.restart_median_min)}"
         if m.restart_samples else ""),
        ("checkpoint interval, T", format_duration(m.interval_min),
         f"{m.interval_source}; optimum ({MODEL_NAMES[m.prediction_model]}) {format_duration(m.optimal_interval_min)}"
         if m.failures else m.interval_source),
        ("lost work per failure", format_duration(m.lost_work_per_failure_min) if m.failures else "-", ""),
    ]
    width = max(len(r[0]) for r in rows)
    vwidth = max(len(r[1]) for r in rows)
    lines = [f"Measured from {m.steps_source} and {m.events_source}", "", "inputs:"]
    lines += [f"  {k:<{width}}  {v:>{vwidth}}   {note}".rstrip() for k, v, note in rows]
    losses = [
        ("checkpoint", m.checkpoint_loss_measured, m.checkpoint_loss_predicted),
        ("lost work", m.lost_work_loss_measured, m.lost_work_loss_predicted),
        ("restart", m.restart_loss_measured, m.restart_loss_predicted),
        ("unmodelled", m.unmodelled_loss, math.nan),  # no prediction: written "-"
        ("goodput", m.measured_goodput, m.predicted_goodput),
    ]
    lines += ["", f"  {'share of wall time':<{width}}  {'measured':>9}  {'predicted':>9}"]
    for name, measured, predicted in losses:
        if name == "goodput":
            lines.append("  " + "-" * (width + 22))
        lines.append(f"  {name:<{width}}  {percent(measured):>9}  {'-' if math.isnan(predicted) else percent(predicted):>9}")

    lines += ["", f"predicted by {MODEL_NAMES[m.prediction_model]}"]
    if note := measurement_note(m):
        lines.append(f"note: {note}")
    if shape is not None:
        lines += ["", *_shape_section(shape)]
    return "\n".join(lines)


def measurement_note(m: Measurement) -> str | None:
    """Why a first-order prediction from these measurements should not be trusted, if it should not."""
    if m.prediction_model != "first-order" or m.prediction_check is None:
        return None
    problem = first_order_problem(m.prediction_check)
    return f"{problem}; the exact model (the default) applies" if problem else None


# --------------------------------------------------------------------------- an event log alone, and the failures' shape

#: Why no Weibull fit was made, for each code of :data:`goodput.logs.fit.FIT_PROBLEMS`.
FIT_PROBLEM_WORDS = {
    "too few gaps": "fewer than three gaps between failures",
    "zero gap": "two failures at the same instant (a gap of zero, which no Weibull shape can fit)",
    "equal gaps": "gaps between failures that are all equal",
}


def p_value_text(p: float) -> str:
    """A p-value as a reader quotes it: two significant digits, or "below 0.001".

    >>> p_value_text(0.18889), p_value_text(0.00002)
    ('p = 0.19', 'p below 0.001')
    """
    return "p below 0.001" if p < 0.001 else f"p = {significant(p, 2)}"


def shape_interval_text(fit: WeibullFit) -> str:
    """The shape's interval as "0.841 to 2.06" (an end the search did not reach is "0" or "no upper end").

    Three significant digits, as the shape itself and the ends the chapter on logs simulates.
    """
    low, high = fit.shape_interval
    return (f"{significant(low, 3) if low > 0 else '0'} to "
            f"{significant(high, 3) if math.isfinite(high) else 'no upper end'}")


def shape_verdict(fit: WeibullFit | None, problem: str | None = None) -> str:
    """One sentence on the shape of the failure process: the likelihood-ratio test's verdict, the lean, a small sample."""
    if fit is None:
        return f"No Weibull fit: {FIT_PROBLEM_WORDS.get(problem or '', 'no gaps to fit')}."
    level = 1.0 - fit.confidence
    lean = ("failures bunch soon after the last one (a hazard that falls, shape below 1)" if fit.shape < 1.0 else
            "failures come more evenly spaced than at random (a hazard that rises, shape above 1)")
    if fit.p_value < level:
        text = f"The likelihood-ratio test rejects exponential gaps ({p_value_text(fit.p_value)}): {lean}."
    else:
        text = (f"Consistent with exponential gaps ({p_value_text(fit.p_value)}; shape 1 lies inside the "
                f"{fit.confidence:.0%} interval).")
    low, high = fit.shape_interval
    if not (low > 0 and math.isfinite(high)) or high / low > 1.5:
        text += (f" With {count(fit.gaps, 'gap')} between failures the interval of the shape, "
                 f"{shape_interval_text(fit)}, is wide: a small sample.")
    return text


#: A number and the unit after it, which a line break must not part ("20.6 h", "2.5 GB/s", "16,384 GPUs").
_NUMBER_AND_UNIT = re.compile(r"(\d) (?=(?:ms|s|min|h|days?|weeks?|years?|points?|failures?|gaps?|GPUs?|nodes?|"
                              r"[kMGTP]i?B(?:/s)?|[kMGTP]b/s|B/s|B)(?![\w/]))")


def keep_with_units(text: str) -> str:
    """`text` with a no-break space between each number and its unit, so that no line ends between them.

    >>> keep_with_units("every 18.6 min, 2.5 GB/s, 16,384 GPUs, 3 spare nodes, 5 mine") == (
    ...     "every 18.6\u00a0min, 2.5\u00a0GB/s, 16,384\u00a0GPUs, 3 spare nodes, 5 mine")
    True
    """
    return _NUMBER_AND_UNIT.sub("\\1\u00a0", text)


def _wrap(text: str, first: str = "  ", rest: str = "    ") -> list[str]:
    """Wrap a sentence for a terminal without splitting a number from its unit ("20.6 h")."""
    return [line.replace("\u00a0", " ") for line in
            textwrap.wrap(keep_with_units(text), width=78, initial_indent=first, subsequent_indent=rest)]


def _shape_section(e: EventMeasurement) -> list[str]:
    """Lines on the gaps between failures and their Weibull fit, for a terminal."""
    texts = []
    if e.failure_gaps_min:
        low, high = e.gap_iqr_min
        shortest, longest = e.gap_range_min
        texts.append(f"gaps: median {format_duration(e.gap_median_min)}, quartiles {format_duration(low)} to "
                     f"{format_duration(high)}, from {format_duration(shortest)} to {format_duration(longest)} "
                     f"({count(len(e.failure_gaps_min), 'gap')}, and {format_duration(e.open_gap_min)} since the "
                     "last failure).")
    fit = e.fit
    if fit is not None:
        texts.append(f"Weibull shape k = {significant(fit.shape, 3)}, {fit.confidence:.0%} interval "
                     f"{shape_interval_text(fit)} ({fit.method}); scale {format_duration(fit.scale)}, "
                     f"mean gap {format_duration(fit.mean)}.")
        texts.append(f"Exponential (k = 1): likelihood-ratio statistic {fit.lr_statistic:.2f}, "
                     f"{p_value_text(fit.p_value)}.")
    texts.append(shape_verdict(fit, e.fit_problem))
    lines = ["failure process (gaps between failures on the exposure clock):", *(x for t in texts for x in _wrap(t))]
    if fit is not None and significant(fit.shape, 2) != "1":  # a flag's value: no thousands separator
        lines += ["  What this shape does to goodput:",
                  (f"    goodput simulate --failures weibull --shape {significant(fit.shape, 2).replace(',', '')} "
                   "--hazard renewal")]
    return lines


def render_event_measurement(e: EventMeasurement, fmt: str = "table") -> str:
    """Print what an event log alone measures (M, R, the gaps and their shape) and what needs a step log."""
    missing = ("Not measurable without a step log: the checkpoint cost C, the interval in use T, and measured and "
               "predicted goodput (add --steps STEPS.csv).")
    if fmt == "json":
        return strict_json({**e.to_dict(), "shape_verdict": shape_verdict(e.fit, e.fit_problem),
                            "model_note": missing})
    pct = f"{e.confidence:.0%}"
    restart_note = ""
    if e.restart_samples:
        restart_note = (f"{pct} interval {interval_text(*e.restart_interval_min)}; median "
                        f"{format_duration(e.restart_median_min)}; {count(e.restart_samples, 'restart')}, failure to "
                        "the next start")
        if e.restarts_unrecorded:
            restart_note += f" ({e.restarts_unrecorded} with no time recorded left out)"
    rows = [
        ("mean time between interruptions, M", format_duration(e.mtbi_min) if e.failures else "no failure",
         (f"{pct} interval {interval_text(*e.mtbi_interval_min)}" if e.failures else
          f"{pct} lower bound {format_duration(e.mtbi_interval_min[0])}")
         + f"; {count(e.failures, 'failure')} in {format_duration(e.exposure_min)} of exposure"),
        ("restart time, R (at least)", format_duration(e.restart_min) if e.restart_samples else "no restart",
         restart_note),
    ]
    width = max(len(r[0]) for r in rows)
    vwidth = max(len(r[1]) for r in rows)
    how = "Slurm accounting" if e.log_format == "sacct" else "an event log"
    lines = [f"Measured from {e.events_source} ({how}, no step log)", "", "inputs:"]
    for key, value, note in rows:
        lines.append(f"  {key:<{width}}  {value:>{vwidth}}")
        lines += _wrap(note, "    ", "    ")
    lines += ["", "time:",
              *_wrap(f"wall {format_duration(e.wall_min)}: running {format_duration(e.running_min)}, "
                     f"failure to restart {format_duration(e.recovery_min)}, planned downtime "
                     f"{format_duration(e.planned_downtime_min)}; {count(e.attempts, 'attempt')}, "
                     f"{count(e.failures, 'failure')}, {count(e.planned_stops, 'planned stop')}.")]
    if e.end_states:
        failed = ", ".join(f"{state} {n:,}" for state, n in e.end_states if state in e.failure_states)
        other = ", ".join(f"{state} {n:,}" for state, n in e.end_states if state not in e.failure_states)
        ended = f"Attempts ended {failed} (counted as failures)" if failed else "No attempt ended in a failure state"
        lines += _wrap(ended + (f"; {other} (planned, or still running)." if other else "."))
    lines += ["", *_shape_section(e), ""]
    lines += _wrap(missing + " R here ends at the next start; the model's R runs on to the first step.", "", "")
    return "\n".join(lines)
