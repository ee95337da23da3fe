"""Durations: parse strings such as ``"90 s"``, ``"5min"`` or ``"54 days"`` into minutes.

The package works in minutes throughout. Anything a user types goes through
:func:`parse_duration`, which refuses what it cannot read instead of guessing.
"""

from __future__ import annotations

import math
import re

from goodput.errors import InputError

#: Minutes in one of each accepted unit; keys are the spellings accepted.
MINUTES_PER_UNIT: dict[str, float] = {
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds"), 1.0 / 60.0),
    **dict.fromkeys(("min", "mins", "minute", "minutes"), 1.0),
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours"), 60.0),
    **dict.fromkeys(("d", "day", "days"), 24.0 * 60.0),
    **dict.fromkeys(("w", "week", "weeks"), 7.0 * 24.0 * 60.0),
    **dict.fromkeys(("y", "yr", "year", "years"), 365.0 * 24.0 * 60.0),
}

_DURATION = re.compile(
    r"^\s*(?P<number>[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?|[-+]?nan|[-+]?inf(?:inity)?)\s*(?P<unit>[a-z]*)\s*$",
    re.IGNORECASE,
)

_EXPECTED = "a duration such as '90 s', '5 min', '3.1 h' or '54 days'"


def parse_duration(value: object, name: str, *, bare_unit: str | None = None) -> float:
    """Read a duration and return it in minutes.

    Parameters
    ----------
    value : object
        A string with a number and a unit (``"90 s"``, ``"1 min"``, ``"5min"``,
        ``"3.1 h"``, ``"54 days"``), or a bare number when `bare_unit` is set.
    name : str
        The input's name, used in the error message.
    bare_unit : str, optional
        Unit assumed for a number without a unit. ``None`` (the default, used
        for parameter files) makes a bare number an error.

    Returns
    -------
    float
        The duration in minutes, finite and strictly positive.

    Raises
    ------
    InputError
        If the value is not a number with a known unit, or is zero, negative,
        NaN or infinite.

    Examples
    --------
    >>> parse_duration("90 s", "restart")
    1.5
    >>> parse_duration("54 days", "window")
    77760.0
    >>> parse_duration("2", "interval", bare_unit="min")
    2.0
    """
    if isinstance(value, bool):
        raise InputError(name, value, _EXPECTED)
    if isinstance(value, (int, float)):
        if bare_unit is None:
            raise InputError(name, value, f"{_EXPECTED} (a number needs a unit)")
        number, unit = float(value), bare_unit
    elif isinstance(value, str):
        match = _DURATION.match(value)
        if match is None:
            raise InputError(name, value, _EXPECTED)
        try:
            number = float(match["number"])
        except ValueError:
            raise InputError(name, value, _EXPECTED) from None
        unit = match["unit"].lower()
        if not unit:
            if bare_unit is None:
                raise InputError(name, value, f"{_EXPECTED} (a number needs a unit)")
            unit = bare_unit
    else:
        raise InputError(name, value, _EXPECTED)
    if unit not in MINUTES_PER_UNIT:
        known = "s, min, h, days, weeks, years"
        raise InputError(name, value, f"a known unit ({known}), not {unit!r}")
    if not math.isfinite(number) or number <= 0:
        raise InputError(name, value, "a finite duration greater than zero")
    return number * MINUTES_PER_UNIT[unit]


def positive_number(value: object, name: str) -> float:
    """Check that `value` is a finite number greater than zero and return it as a float.

    Parameters
    ----------
    value : object
        The value to check; numeric strings such as ``"2.5e-5"`` are accepted.
    name : str
        The input's name, used in the error message.

    Returns
    -------
    float
        The value as a Python float.

    Raises
    ------
    InputError
        If the value is not a number, or is zero, negative, NaN or infinite.
    """
    if isinstance(value, bool):
        raise InputError(name, value, "a finite number greater than zero")
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise InputError(name, value, "a finite number greater than zero") from None
    if not math.isfinite(number) or number <= 0:
        raise InputError(name, value, "a finite number greater than zero")
    return number


def format_minutes(minutes: float, digits: int = 3) -> str:
    """Format a duration in minutes with a unit that reads naturally.

    Parameters
    ----------
    minutes : float
        The duration in minutes.
    digits : int, optional
        Significant digits (default 3).

    Returns
    -------
    str
        Seconds below one minute, minutes below two hours, hours beyond.

    Examples
    --------
    >>> format_minutes(19.287)
    '19.3 min'
    >>> format_minutes(0.25)
    '15 s'
    >>> format_minutes(185.6)
    '186 min'
    """
    if minutes < 1.0:
        return f"{minutes * 60.0:.{digits}g} s"
    if minutes < 600.0:
        return f"{minutes:.{digits}g} min"
    return f"{minutes / 60.0:.{digits}g} h"
