"""The in-page calculator's JavaScript formulas and constants, generated from the package at build time.

No formula is typed in JavaScript: :func:`formulas_js` prints :func:`goodput.symbolic.calculator_formulas` with
:func:`sympy.jscode` (``goodputFormulas``) and, as ``goodputConstants``, what the form's checks share with the package
(units, the number pattern, ``str.strip``'s whitespace, each input error's words asked of the package's own checks,
tolerances, levers, defaults, the restart's parts). Hand-written are only the Lambert-W solver
(``_ext/static/goodput-lambertw.js``) and the page script's ports of what the package computes by algorithm.
``_ext/goodput_book.py`` calls :func:`write_formulas` when the builder starts (``_static/goodput-formulas.js``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from goodput import storage, validate
from goodput.errors import InputError
from goodput.exact import _POLISH_BELOW, _SMALL_C_OVER_M
from goodput.model import FIRST_ORDER_CAUTION, FIRST_ORDER_TOLERANCE
from goodput.params import (
    _STORAGE_KEYS,
    DEFAULT_GPUS_PER_NODE,
    DEFAULT_JIT_RECOVERY,
    MOST_MONTH,
    MOST_PLANNED_PER_HOUR,
    WORKED_EXAMPLE,
    Known,
    Params,
    _known_from_mapping,
    _recovery_from_mapping,
    derive,
    load_params,
    mtbi_from_rate,
    mtbi_of_rate,
    params_from_mapping,
    parse_month,
    parse_rate,
    planned_per_hour,
    read_yaml,
)
from goodput.plan import CAPPED_LEVERS, LEVERS, MAX_RATIO, OPTIMUM_LEVERS, STORAGE_LEVERS, TIER_LEVERS, make_plan
from goodput.report import AT_OPTIMUM, NEGLIGIBLE_PERCENT, RESTART_SUM_NAMES, not_paying_text
from goodput.restart import MOST_SPARES, RestartParts
from goodput.storage import parse_bandwidth, parse_size
from goodput.symbolic import calculator_formulas
from goodput.tiers import MAX_EVERY
from goodput.units import (
    LONGEST,
    MINUTES_PER_UNIT,
    SHORTEST,
    WAIT_FLOOR,
    duration_text,
    format_duration,
    parse_duration,
)

#: The calculator page, relative to the other chapters of the built book.
PAGE = "calculator.html"

#: The generated file's name under the site's ``_static/``.
FORMULAS_FILE = "goodput-formulas.js"

#: How SymPy functions with no JavaScript built-in are printed.
JS_FUNCTIONS = {"expm1": "Math.expm1", "log1p": "Math.log1p", "LambertW": "lambertW0"}

#: Inputs of the downloaded params.yml that the form does not ask for: where each comes from.
FILE_DEFAULTS = {
    "slow_checkpoint_cost": "the checkpoint cost you typed (the form has no slow write path; edit it to compare one)",
    "price_per_gpu_hour": "the worked example's price",
    "month": "the worked example's accounting month",
    "gpus": "the worked example's GPU count, when you give M directly and leave GPUs empty",
}


def _expected(check: Callable[[], object]) -> str:
    """What a check of the package says it expected, from the InputError it raises."""
    try:
        check()
    except InputError as exc:
        return str(exc.expected)
    raise AssertionError("the check accepted its probe")  # pragma: no cover - the probes are all bad values


def _known_expected(known: Known, **changes: Any) -> str:
    """What :func:`goodput.params.derive` expected of `known` on a probe fleet (16,384 GPUs, 8 a node)."""
    base = load_params().replace(checkpoint_cost=0.0, slow_checkpoint_cost=0.0, **changes)
    return _expected(lambda: derive(base, known))


def _template(text: str, **holes: str) -> str:
    """`text` with each value of `holes` replaced by ``{key}``; each must be there."""
    for key, value in holes.items():
        assert value in text, (value, text)
        text = text.replace(value, "{" + key + "}")
    return text


def messages() -> dict[str, str]:
    """The words of each input error, asked of the package's own checks (``{unit}``, ``{least}`` and the like to fill)."""
    typed = {"checkpoint_cost": 1.0, "slow_checkpoint_cost": 1.0, "restart": 5.0}
    snapshot = {"gpus": "8", "mtbi": "186 min", "restart": "5 min", "price_per_gpu_hour": "2.5", "month": "720 h",
                "checkpoint": {"size": "1 TB"}, "storage": {"write_bandwidth": "1 TB/s"}, "snapshot": {"bandwidth": "1 GB/s"}}
    return {
        "duration": _expected(lambda: parse_duration("x", "x")),
        "duration_needs_unit": _expected(lambda: parse_duration("1", "x")),
        "duration_unit": _expected(lambda: parse_duration("1 zz", "x")).replace("'zz'", "'{unit}'"),
        "duration_positive": _expected(lambda: parse_duration("0 s", "x")),
        "duration_non_negative": _expected(lambda: parse_duration("-1 s", "x", allow_zero=True)),
        "duration_shortest": _expected(lambda: parse_duration("1e-9 s", "x")),
        "duration_shortest_zero": _expected(lambda: parse_duration("1e-9 s", "x", allow_zero=True)),
        "duration_longest": _expected(lambda: parse_duration("1e7 years", "x")),
        "month": _expected(lambda: parse_month("2 years", "x")),
        "parameters_size": _expected(lambda: storage.checkpoint_size(1e308, 14.0)),
        "planned_most": _expected(lambda: planned_per_hour(61.0, "x", "x")),
        "positive": _expected(lambda: validate.positive("0", "x")),
        "price": _expected(lambda: validate.price("0", "x")),
        "whole": _expected(lambda: validate.whole("0", "x", 7)).replace("7", "{least}"),
        "whole_most": _expected(lambda: validate.whole("0", "x", 7, 9_999)).replace("7", "{least}").replace(
            "9,999", "{most}"),
        "share": _expected(lambda: validate.share("2", "x")),
        "interval_drain": _expected(lambda: make_plan(1.0, 100.0, 5.0, 3.0, drain=7.0)).replace("7 min", "{drain}"),
        "rate_overflow": _expected(lambda: mtbi_of_rate(1e308, 7_777)).replace("7,777", "{gpus}"),
        "non_negative": _expected(lambda: validate.non_negative("-1", "x")),
        "size": _expected(lambda: parse_size("x", "x")),
        "size_positive": _expected(lambda: parse_size("0 B", "x")),
        "size_most": _expected(lambda: parse_size("2e18 B", "x")),
        "bandwidth": _expected(lambda: parse_bandwidth("x", "x")),
        "bandwidth_positive": _expected(lambda: parse_bandwidth("0 B/s", "x")),
        "bandwidth_most": _expected(lambda: parse_bandwidth("2e15 B/s", "x")),
        "efficiency": _expected(lambda: _known_from_mapping({"storage": {"write_bandwidth": "1 GB/s", "efficiency": "0"}})),
        "just_in_time": _expected(lambda: _recovery_from_mapping({"just_in_time": "1"})),
        "planned_rate": _expected(lambda: parse_rate("x", "x")),
        "restart_parts_total": _expected(lambda: RestartParts()),
        "derived_and_typed": _template(_known_expected(Known(size=1e12, write_bandwidth=1e9, typed=typed)),
                                       source="write_bandwidth", key="checkpoint_cost",
                                       words="a synchronous write of 1 TB at 1 GB/s"),
        "restart_and_parts": _known_expected(Known(parts={"detect": 1.0}, typed=typed)),
        "restart_and_read": _known_expected(Known(size=1e12, write_bandwidth=1e9, read_bandwidth=1e9,
                                                  typed={"restart": 5.0})),
        "storage_needs_size": _known_expected(Known(write_bandwidth=1e9, typed=typed)),
        "storage_needs_write": _known_expected(Known(read_bandwidth=1e9, typed=typed)),
        "size_and_parameters": _known_expected(Known(size=1e12, parameters=1e9, typed=typed)),
        "bytes_needs_parameters": _known_expected(Known(bytes_per_parameter=12.0, typed=typed)),
        "host_memory": _template(_known_expected(Known(size=1e12, write_bandwidth=1e9, snapshot_bandwidth=1e9,
                                                       host_memory=1e6, typed=typed)), needed="488 MB"),
        "gpus_per_node": _template(_known_expected(Known(size=1e12, write_bandwidth=1e9, typed=typed),
                                                   gpus_per_node=7), gpus="16,384"),
        "missing_duration": _known_expected(Known(size=1e12, write_bandwidth=1e9, typed={})),
        "snapshot_slower": _template(_expected(lambda: params_from_mapping(snapshot)), slow="1 s"),
        "slow_below_c": _template(_expected(lambda: params_from_mapping(
            {key: snapshot[key] for key in ("gpus", "mtbi", "restart", "price_per_gpu_hour", "month")}
            | {"checkpoint_cost": "7 min", "slow_checkpoint_cost": "1 min"})), cost="7 min"),
        "stall_below_copy": _template(_known_expected(Known(size=1e12, write_bandwidth=1e12, snapshot_bandwidth=1e9,
                                                            typed=typed | {"checkpoint_cost": 1e-5})),
                                      copy="0.488 s", size="488 MB", bandwidth="1 GB/s"),
    }


#: Past this code point no character is whitespace to Python (U+3000, the ideographic space, is the last);
#: tests/test_calculator_formulas.py checks it over all of Unicode, so the build need not.
LAST_WHITESPACE = 0x3000


def python_whitespace() -> str:
    """Every character Python's ``str.strip()`` removes (what :func:`goodput.validate.finite` strips)."""
    return "".join(ch for ch in map(chr, range(LAST_WHITESPACE + 1)) if ch.isspace())


def file_defaults() -> dict[str, str]:
    """What the downloaded params.yml gives the inputs the form does not ask for, as the worked example types them.

    ``gpus`` is used only when M is given directly; ``slow_checkpoint_cost`` is not here (left empty, it is the C typed).
    """
    example = read_yaml(WORKED_EXAMPLE.read_text(encoding="utf-8"), "worked example")
    assert isinstance(example, dict)
    return {key: str(example[key]) for key in ("price_per_gpu_hour", "month", "gpus")}


#: What the page says when opened with no inputs in its address.
WORKED_EXAMPLE_NOTE = (
    "Opened without inputs in its address, the page shows the book's worked example (M rounded to three digits), "
    "not your fleet: type your numbers, or open the page from a chapter's link, which carries its fleet's inputs."
)


def worked_example_inputs() -> dict[str, str]:
    """The worked example as the form shows it when the page is opened bare: :func:`link_query` with M rounded."""
    query = link_query(load_params())
    if "mtbi" in query:
        query["mtbi"] = format_duration(float(load_params().mtbi))
    typed = file_defaults()
    return query | {key: typed[key] for key in ("price_per_gpu_hour", "month")}


def constants() -> dict[str, Any]:
    r"""What the page's checks and words share with the package (see the module docstring).

    ``quantity_pattern`` is goodput.storage's pattern of a size or a bandwidth for a JavaScript RegExp: Python's
    ``(?P<name>`` becomes ``(?<name>``, and ``\s`` and ``\d`` (ASCII under ``re.ASCII``) the explicit ASCII classes,
    JavaScript's ``\s`` being wider.
    """
    assert storage._QUANTITY.flags & re.ASCII
    return {
        "minutes_per_unit": MINUTES_PER_UNIT,
        "number_pattern": validate.NUMBER.pattern,
        "python_whitespace": python_whitespace(),
        "messages": messages(),
        # goodput plan's "Not paying:" note, with {cost}, {goodput}, {every} and {gain} to fill
        "not_paying": {kind: not_paying_text(kind == "derived", "{cost}", "{goodput}", "{every}", "{gain}")
                       for kind in ("derived", "stated")},
        "first_order_tolerance": FIRST_ORDER_TOLERANCE,
        "first_order_caution": FIRST_ORDER_CAUTION,
        "levers": list(LEVERS),
        "tier_levers": list(TIER_LEVERS),
        "capped_levers": CAPPED_LEVERS,
        "optimum_levers": list(OPTIMUM_LEVERS),
        "at_optimum": AT_OPTIMUM,
        "max_every": MAX_EVERY,
        "most_gpus": validate.MOST_GPUS,
        "most_held_spares": validate.MOST_HELD_SPARES,
        "most_price": validate.MOST_PRICE,
        "shortest_duration": SHORTEST,
        "longest_duration": LONGEST,
        "most_month": MOST_MONTH,
        "most_planned_per_hour": MOST_PLANNED_PER_HOUR,
        "most_storage_price": validate.MOST_STORAGE_PRICE,
        "max_ratio": MAX_RATIO,
        "negligible_percent": NEGLIGIBLE_PERCENT,
        "wait_floor": WAIT_FLOOR,
        "exact_polish_below": _POLISH_BELOW,
        "exact_small_c_over_m": _SMALL_C_OVER_M,
        "worked_example": worked_example_inputs(),
        "worked_example_note": WORKED_EXAMPLE_NOTE,
        "file_defaults": file_defaults(),
        "file_default_notes": FILE_DEFAULTS,
        "quantity_pattern": storage._QUANTITY.pattern.replace("(?P<", "(?<").replace(r"\s", "[ \\t\\n\\r\\f\\v]")
        .replace(r"\d", "[0-9]"),
        "size_prefixes": storage._PREFIX,
        "largest_size": storage.LARGEST,
        "fastest_bandwidth": storage.FASTEST,
        "bit_units": ["b", "bit", "bits"],
        "default_bytes_per_parameter": storage.DEFAULT_BYTES_PER_PARAMETER,
        "default_gpus_per_node": DEFAULT_GPUS_PER_NODE,
        "default_jit_recovery": DEFAULT_JIT_RECOVERY,
        "restart_parts": list(RestartParts(detect=1.0).parts),
        # R's parts as goodput.report.restart_sum names them, the wait for repairs included
        "restart_part_names": RESTART_SUM_NAMES,
        "storage_levers": list(STORAGE_LEVERS.values()),
        "storage_file_keys": list(_STORAGE_KEYS),
        "most_spares": MOST_SPARES,
        "bandwidth_search": {"span": storage.SEARCH_SPAN, "per_octave": storage.SEARCH_PER_OCTAVE,
                             "tolerance": storage.SEARCH_TOLERANCE, "flat_share": storage.FLAT_SHARE},
        "price_expected": storage.PRICE_EXPECTED,
    }


def formulas_js() -> str:
    """The generated ES2015 script (after ``goodput-lambertw.js``): ``goodputFormulas`` and ``goodputConstants``."""
    import sympy

    functions = "\n".join(
        f"  F.{name} = function ({', '.join(f.arguments)}) "
        f"{{ return {sympy.jscode(f.expression, user_functions=JS_FUNCTIONS)}; }};"
        for name, f in calculator_formulas().items())
    return (
        "// Generated by goodput.book.calculator from goodput.symbolic.calculator_formulas() at build time.\n"
        "// Do not edit: change the SymPy expressions and rebuild. The formulas are sympy.jscode's printing.\n"
        "(function (root) {\n"
        '  "use strict";\n'
        "  const lambertW0 = root.goodputLambertW0;  // the hand-written solver, goodput-lambertw.js\n"
        "  const F = {};\n"
        f"{functions}\n"
        "  root.goodputFormulas = Object.freeze(F);\n"
        f"  root.goodputConstants = Object.freeze({json.dumps(constants(), ensure_ascii=True, sort_keys=True)});\n"
        "})(globalThis);\n"
    )


def write_formulas(folder: str | Path) -> Path:
    """Write :data:`FORMULAS_FILE` into `folder` (the site's ``_static``), creating it if needed."""
    target = Path(folder) / FORMULAS_FILE
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(formulas_js(), encoding="utf-8")
    return target


#: Units tried, in order, to write a duration of a link so that it reads back exactly.
def interruption_rate_text(rate: float, gpus: int, mtbi: float) -> str | None:
    """The shortest writing of a rate per GPU-hour that gives back exactly `mtbi` at `gpus`; None if none does.

    The rate derived from M may carry floating-point noise (``1.7999999999999997e-05``); three to seventeen
    significant digits are tried, the first that gives back the same M kept.

    >>> interruption_rate_text(1.7999999999999997e-05, 49152, 60.0 / (1.8e-5 * 49152))
    '1.8e-05'
    """
    for digits in range(3, 18):
        text = f"{rate:.{digits}g}"
        if float(mtbi_from_rate(float(text), gpus)) == mtbi:
            return text
    return None


def link_query(params: Params) -> dict[str, str]:
    """The calculator's inputs for a fleet as its form reads them (``persistent_every`` only when the fleet fixes n)."""
    query = {"gpus": str(params.gpus)}
    rate = interruption_rate_text(params.rate_per_gpu_hour, params.gpus, params.mtbi)
    if params.mtbi_source == "rate_per_gpu_hour" and rate is not None:
        query["rate_per_gpu_hour"] = rate
    else:  # a count over a window, M itself, or a rate that would not give back M to the last digit
        query["mtbi"] = duration_text(params.mtbi)
    query["checkpoint_cost"] = duration_text(params.checkpoint_cost)
    if not params.slow_derived:  # the slow checkpoint the inputs give; the page derives one from the storage itself
        query["slow_checkpoint_cost"] = duration_text(params.slow_checkpoint_cost)
    query["restart"] = duration_text(params.restart)
    if params.drain > 0.0:
        query["drain"] = duration_text(params.drain)
    if params.persistent_cost is not None:
        query["persistent_cost"] = duration_text(params.persistent_cost)
        # as typed: the page adds R's wait for repairs to R_p itself, as goodput.params does
        query["persistent_restart"] = duration_text(params.persistent_restart_typed or params.restart)
        query["fast_survives"] = f"{params.fast_survives!r}"
        if params.persistent_every is not None:
            query["persistent_every"] = str(params.persistent_every)
    query["price_per_gpu_hour"] = f"{params.price_per_gpu_hour!r}"
    query["month"] = duration_text(params.month)
    # What a planner knows, in the form's fields; a derived duration is left out (the page derives it).
    known, derived = params.known, params.derived
    for key in ("checkpoint_cost", "drain"):
        if key in derived:
            query.pop(key, None)
    if known is not None:
        if "restart" in derived:
            query.pop("restart", None)
            if "restart" in known.typed and not known.parts:
                query["restart"] = duration_text(known.typed["restart"])
        if known.size is not None:
            query["checkpoint_size"] = quantity_text(known.size, False)
        if known.parameters is not None:
            query["parameters"] = number_text(known.parameters)
        if known.bytes_per_parameter is not None:
            query["bytes_per_parameter"] = number_text(known.bytes_per_parameter)
        if params.gpus_per_node != DEFAULT_GPUS_PER_NODE:
            query["gpus_per_node"] = str(params.gpus_per_node)
        for key in ("write_bandwidth", "read_bandwidth", "snapshot_bandwidth", "host_memory"):
            if (amount := getattr(known, key)) is not None:
                query[key] = quantity_text(amount, key != "host_memory")
        if known.efficiency is not None:
            query["bandwidth_efficiency"] = f"{known.efficiency!r}"
        for part, minutes in known.parts.items():
            query[part] = duration_text(minutes)
    if params.spares is not None:
        query |= {"spares": str(params.spares.nodes), "repair": duration_text(params.spares.repair),
                  "takes_node": f"{params.spares.takes_node!r}"}
    if params.just_in_time:
        query["just_in_time"] = f"{params.just_in_time!r}"
        if params.jit_recovery != DEFAULT_JIT_RECOVERY:
            query["jit_recovery"] = duration_text(params.jit_recovery)
    if params.planned_rate:
        query["planned_rate"] = rate_text(params.planned_rate)
    if params.storage is not None and params.storage.price is not None:
        query["storage_price"] = f"{params.storage.price!r}"
    return query


def quantity_text(amount: float, per_second: bool) -> str:
    """A size (bytes) or a bandwidth (bytes per second) as the calculator and goodput.storage read it, back exactly.

    The shortest of ``"2.3 TB"``, ``"2.5 GB/s"`` and the like in decimal units that :func:`goodput.storage.parse_size`
    (or ``parse_bandwidth``) reads back to the same float, or in binary ones (``"2 TiB"``); else the bytes with every
    digit (``"2500000000.0 B/s"``).

    >>> quantity_text(2.3e12, False), quantity_text(2.5e9, True), quantity_text(2.0**41, False)
    ('2.3 TB', '2.5 GB/s', '2 TiB')
    """
    parse = parse_bandwidth if per_second else parse_size
    suffix = "B/s" if per_second else "B"
    candidates = [f"{amount / 10.0**e:.15g} {prefix}{suffix}" for e, prefix in
                  ((15, "P"), (12, "T"), (9, "G"), (6, "M"), (3, "k"), (0, ""))]
    candidates += [f"{amount / 2.0**e:.15g} {prefix}{suffix}" for e, prefix in  # "2 TiB" as a host's memory is given
                   ((50, "Pi"), (40, "Ti"), (30, "Gi"), (20, "Mi"), (10, "Ki"))]
    exact = [text for text in candidates if parse(text, "link") == amount]
    return min(exact, key=lambda text: (len(text.split()[0]), float(text.split()[0]) < 1)) if exact else f"{amount!r} {suffix}"


def number_text(x: float) -> str:
    """The shortest ``.Ng`` text of a number that reads back to the same float: ``4.05e+11``, ``14``.

    >>> number_text(405e9), number_text(14.0), number_text(0.1 + 0.2)
    ('4.05e+11', '14', '0.30000000000000004')
    """
    return next(text for text in (f"{x:.{digits}g}" for digits in range(1, 18)) if float(text) == x)


def rate_text(per_hour: float) -> str:
    """Events per hour as goodput.params.parse_rate reads them back exactly, the shortest way.

    >>> rate_text(0.036), rate_text(0.5 / 24)
    ('0.036 per hour', '0.5 per day')
    """
    texts = [f"{per_hour * MINUTES_PER_UNIT[unit] / 60.0!r} per {unit}" for unit in ("hour", "day", "min", "week")]
    exact = [text for text in texts if parse_rate(text, "link") == per_hour]
    return min(exact, key=lambda text: len(text.split()[0])) if exact else f"{per_hour!r} per hour"  # any float


def link(params: Params) -> str:
    """The relative URL of the calculator opened on a fleet's inputs: ``calculator.html?gpus=...``.

    Every input of the fleet's scheme is in the query, written so that the page (and ``goodput plan``) reads back the
    same floats: the page then shows the fleet's plan.

    >>> from goodput.params import load_params
    >>> link(load_params()).split("&")[:3]
    ['calculator.html?gpus=16384', 'mtbi=185.58472553699283+min', 'checkpoint_cost=1+min']
    """
    return f"{PAGE}?{urlencode(link_query(params))}"
