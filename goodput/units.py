"""Durations: read ``"90 s"``, ``"5min"`` or ``"54 days"`` into minutes, and write minutes as a person would.

The package works in minutes throughout: what a user types goes through :func:`parse_duration`, which refuses what it
cannot read instead of guessing; what it writes goes through :func:`format_duration`, the one formatter.
"""

from __future__ import annotations

import math
import re

from goodput.errors import InputError
from goodput.validate import NUMBER

#: Minutes in one of each accepted unit; keys are the spellings accepted.
MINUTES_PER_UNIT: dict[str, float] = {
    **dict.fromkeys(("ms", "millisecond", "milliseconds"), 1.0 / 60000.0),
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds"), 1.0 / 60.0),
    **dict.fromkeys(("min", "mins", "minute", "minutes"), 1.0),
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours"), 60.0),
    **dict.fromkeys(("d", "day", "days"), 24.0 * 60.0),
    **dict.fromkeys(("w", "week", "weeks"), 7.0 * 24.0 * 60.0),
    **dict.fromkeys(("y", "yr", "year", "years"), 365.0 * 24.0 * 60.0),
}

#: The shortest duration read, in minutes: a microsecond (a slip such as 1e-300 is refused, not planned).
SHORTEST = 1e-6 / 60.0
#: The longest duration read, in minutes: a million years (a slip such as 1e308 min is refused, not planned into an
#: overflow; the longest horizon a simulation needs is far shorter).
LONGEST = 1e6 * 365.0 * 24.0 * 60.0  # a million years of 365 days, as the unit "years" reads

#: Minutes in a day and in a (365-day) year.
DAY = MINUTES_PER_UNIT["day"]
YEAR = MINUTES_PER_UNIT["year"]

_DURATION = re.compile(rf"\s*(?P<number>{NUMBER.pattern}|[-+]?\.?(?:nan|inf(?:inity)?))\s*(?P<unit>[a-z]*)\s*",
                       re.ASCII | re.IGNORECASE)

#: A duration in parts, as :func:`format_duration` writes one ("1 min 30 s"): unsigned numbers, each with its unit.
_PART = r"(?:\d+(?:\.\d*)?|\.\d+)\s*[a-z]+"
_COMPOUND = re.compile(rf"\s*{_PART}(?:\s+{_PART})+\s*", re.ASCII | re.IGNORECASE)
_PARTS = re.compile(r"(\d+(?:\.\d*)?|\.\d+)\s*([a-z]+)", re.ASCII | re.IGNORECASE)

_EXPECTED = "a duration such as '90 s', '5 min', '3.1 h' or '54 days'"


def parse_duration(value: object, name: str, *, bare_unit: str | None = None, allow_zero: bool = False) -> float:
    """Read a duration (``"90 s"``, ``"5min"``, ``"3.1 h"``, ``"54 days"``) and return it in minutes.

    Numbers are read as :mod:`goodput.validate` reads them. A bare number takes `bare_unit`, and is an error without one
    (parameter files). Raises InputError for an unknown unit, a negative, NaN or infinite value, and zero unless
    `allow_zero` (a drain that takes no time).

    >>> parse_duration("90 s", "restart")
    1.5
    >>> parse_duration("54 days", "window")
    77760.0
    >>> parse_duration("2", "interval", bare_unit="min")
    2.0

    A duration in parts, as :func:`format_duration` writes it, reads back as their sum:

    >>> parse_duration("1 min 30 s", "checkpoint_cost"), parse_duration("2 h 5 min", "restart")
    (1.5, 125.0)
    """
    if isinstance(value, bool):
        raise InputError(name, value, _EXPECTED)
    if isinstance(value, str) and _COMPOUND.fullmatch(value):
        parts = [(float(number), unit.lower()) for number, unit in _PARTS.findall(value)]
        for _, unit in parts:
            if unit not in MINUTES_PER_UNIT:
                raise InputError(name, value, f"a known unit (ms, s, min, h, days, weeks, years), not {unit!r}")
        number, unit = sum(n * MINUTES_PER_UNIT[u] for n, u in parts), "min"
    elif isinstance(value, (int, float)):
        number, unit = value, ""
    elif isinstance(value, str):
        match = _DURATION.fullmatch(value)
        if match is None:
            raise InputError(name, value, _EXPECTED)
        number = float(match["number"].replace(".", "") if not NUMBER.fullmatch(match["number"]) else match["number"])
        unit = match["unit"].lower()
    else:
        raise InputError(name, value, _EXPECTED)
    if not unit:
        if bare_unit is None:
            raise InputError(name, value, f"{_EXPECTED} (a number needs a unit)")
        unit = bare_unit
    if unit not in MINUTES_PER_UNIT:
        raise InputError(name, value, f"a known unit (ms, s, min, h, days, weeks, years), not {unit!r}")
    minutes = float(number) * MINUTES_PER_UNIT[unit]
    if float(number) > 0 and minutes < SHORTEST:  # checked before zero: '5e-324 s' underflows to 0 min, not zero typed
        raise InputError(name, value, "a duration of at least a microsecond" + (" (or zero)" if allow_zero else ""))
    if not math.isfinite(minutes) or minutes < 0 or (minutes == 0 and not allow_zero):
        raise InputError(name, value, "a finite duration of zero or more" if allow_zero else
                         "a finite duration greater than zero")
    if minutes > LONGEST:
        raise InputError(name, value, "a duration of at most a million years")
    return minutes


def significant(x: float, digits: int = 3) -> str:
    """Write a non-negative number with `digits` significant digits, without an exponent where it is readable.

    Numbers with more integer digits are rounded to a whole number with thousands separators; from 1e12, an exponent.

    >>> significant(1296.0), significant(5.0), significant(0.0123)
    ('1,296', '5', '0.0123')
    """
    if 10**digits <= x < 1e12:  # beyond a trillion, digits that are not significant would fill a line: an exponent
        return f"{round(x):,}"
    return f"{x:.{digits}g}"


def format_rate(rate: float, digits: int = 3) -> str:
    """Write a rate (interruptions per GPU-hour) the way the inputs file takes it.

    E-notation below 0.001 without the exponent's padding zero, :func:`significant` from there up; trailing zeros
    dropped.

    >>> format_rate(1.9732e-5), format_rate(2e-5), format_rate(0.32768), format_rate(0.0)
    ('1.97e-5', '2e-5', '0.328', '0')
    """
    if rate == 0.0:
        return "0"
    if abs(rate) >= 1e-3:
        return significant(rate, digits)
    mantissa, exponent = f"{rate:.{digits - 1}e}".split("e")
    mantissa = mantissa.rstrip("0").rstrip(".")
    return f"{mantissa}e{int(exponent)}"


def format_duration(minutes: float, digits: int = 3) -> str:
    """Write a duration in minutes the way a person writes it.

    Milliseconds below a tenth of a second, seconds below a minute; minutes and whole seconds below ten minutes when the seconds are whole; minutes below five
    hours; hours below two days; days below a year; years beyond. Negative durations keep their sign; ``"unbounded"``
    for infinity, ``"undefined"`` for NaN.

    >>> format_duration(19.287)
    '19.3 min'
    >>> format_duration(2 / 3)
    '40 s'
    >>> format_duration(0.0355 / 60)
    '35.5 ms'
    >>> format_duration(1.5)
    '1 min 30 s'
    >>> format_duration(185.6)
    '186 min'
    >>> format_duration(77760.0), format_duration(6.048e10)
    ('54 days', '115,000 years')
    """
    if math.isnan(minutes):
        return "undefined"
    if minutes < 0:
        return "-" + format_duration(-minutes, digits)
    if math.isinf(minutes):
        return "unbounded"
    seconds = minutes * 60.0
    if 0.0 < seconds and float(f"{seconds:.{digits}g}") < 0.1:
        return f"{significant(seconds * 1000.0, digits)} ms"
    if round(seconds, 9) < 60.0:
        return f"{significant(seconds, digits)} s"
    if minutes < 10.0 and abs(seconds - round(seconds)) < 1e-6:
        whole_minutes, rest = divmod(round(seconds), 60)
        return f"{whole_minutes} min" + (f" {rest} s" if rest else "")
    if minutes < 300.0:
        return f"{significant(minutes, digits)} min"
    if minutes < 2 * DAY:
        return f"{significant(minutes / 60.0, digits)} h"
    if minutes < YEAR:
        return f"{significant(minutes / DAY, digits)} days"
    # no more digits than `digits` in thousands of years either: "115,000 years", not "115,068 years"
    years = significant(float(f"{minutes / YEAR:.{digits}g}"), digits)
    return f"{years} year" + ("" if years == "1" else "s")


def written_minutes(text: str) -> float:
    """The minutes a duration written by :func:`format_duration` stands for, as written.

    >>> written_minutes("1 min 30 s"), written_minutes("10.1 min"), written_minutes("1,296 min")
    (1.5, 10.1, 1296.0)
    """
    sign = -1.0 if text.startswith("-") else 1.0
    pairs = re.findall(r"([0-9][0-9,]*(?:\.[0-9]+)?(?:e[-+]?[0-9]+)?)\s*([a-z]+)", text)
    return sign * sum(float(number.replace(",", "")) * MINUTES_PER_UNIT[unit] for number, unit in pairs)


#: Durations written side by side differ as written by their true difference to within this share of it.
APART = 0.25
#: The most significant digits :func:`format_durations` writes.
MOST_DIGITS = 6


def format_durations(*minutes: float, digits: int = 3) -> tuple[str, ...]:
    """Durations written side by side so that they differ as they do.

    :func:`format_duration` at the fewest significant digits, from `digits` up to :data:`MOST_DIGITS`, at which each
    one's written difference from the first is its true difference to within :data:`APART` of it.

    R = 10.047 min held and 10.057 min at the best pool differ by 0.56 s; at three digits they read 10 min and 10.1 min
    (6 s apart), at four 10.05 min and 10.06 min:

    >>> format_durations(10.04725, 10.05657)
    ('10.05 min', '10.06 min')
    >>> format_durations(18.6, 25.0)
    ('18.6 min', '25 min')
    """
    def close(texts: tuple[str, ...]) -> bool:
        first = written_minutes(texts[0])
        return all(abs((written_minutes(t) - first) - (m - minutes[0])) <= APART * abs(m - minutes[0])
                   for t, m in zip(texts, minutes, strict=True))

    for d in range(digits, MOST_DIGITS + 1):
        texts = tuple(format_duration(m, d) for m in minutes)
        if close(texts):
            return texts
    return texts


#: A wait for repairs below this (minutes: a millisecond) is written "under 1 ms", not to its digits (1.16e-08 ms).
WAIT_FLOOR = 0.001 / 60.0


def format_wait(minutes: float, none: str = "no time") -> str:
    """An expected wait (for repairs) as written: `none` at zero, ``"under 1 ms"`` below :data:`WAIT_FLOOR`.

    >>> format_wait(0.0), format_wait(1e-10), format_wait(0.917 / 60)
    ('no time', 'under 1 ms', '0.917 s')
    """
    return none if minutes <= 0 else "under 1 ms" if minutes < WAIT_FLOOR else format_duration(minutes)


#: Units tried, in order, to write a duration so that it reads back exactly (:func:`duration_text`).
_LINK_UNITS = ("s", "min", "h", "days")


def duration_text(minutes: float) -> str:
    """A duration as ``goodput plan`` and the calculator read it, back to exactly `minutes` (for a link or a file).

    The shortest number of ``"25 s"``, ``"3 min"``, ``"1.5 h"``, ``"54 days"`` (the larger unit on a tie) that
    :func:`goodput.units.parse_duration` reads back to the same float; otherwise the minutes with every digit
    (``"0.4166666666666667 min"``).

    >>> duration_text(25 / 60), duration_text(180.0), duration_text(0.0)
    ('25 s', '3 h', '0 days')
    """
    candidates = [f"{minutes / MINUTES_PER_UNIT[unit]:.15g} {unit}" for unit in reversed(_LINK_UNITS)]
    exact = [text for text in candidates if parse_duration(text, "link", allow_zero=True) == minutes]
    return min(exact, key=lambda text: len(text.split()[0])) if exact else f"{minutes!r} min"
