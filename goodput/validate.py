"""One set of input checks: finite numbers, positive numbers, shares, whole numbers and choices.

Each raises an :class:`~goodput.errors.InputError` naming the input, the value and what was expected.

Numbers are read as a person means them: ASCII digits with optional sign, decimal point and exponent
(``"020000"`` is twenty thousand). Refused, not guessed: ``"4:33:04"``, ``"0x10"``, other scripts'
digits, ``"16,384"``, ``".inf"``, ``".nan"``, booleans. NumPy loads only for :func:`positive_array`.
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from goodput.errors import InputError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

#: A number as a person types it: ASCII digits, optional sign, decimal point and exponent.
NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)

#: What :func:`positive` expects, in words.
POSITIVE = "a finite number greater than zero"
#: What a positive duration in minutes is, in words (for values given in minutes).
POSITIVE_MINUTES = "a finite number of minutes greater than zero"


def finite(value: Any, name: str, expected: str = "a finite number") -> float:
    """Read ``value`` (a real number, not a bool, or a numeric string) as a finite float.

    >>> finite("020000", "gpus")
    20000.0
    """
    if isinstance(value, bool):
        raise InputError(name, value, expected)
    if isinstance(value, numbers.Real):
        try:
            number = float(value)
        except OverflowError:
            raise InputError(name, value, expected) from None
    elif isinstance(value, str) and NUMBER.fullmatch(value.strip()):
        number = float(value.strip())
    else:
        raise InputError(name, value, expected)
    if not math.isfinite(number):
        raise InputError(name, value, expected)
    return number


def positive(value: Any, name: str, expected: str = POSITIVE) -> float:
    """Read ``value`` as a finite number greater than zero."""
    number = finite(value, name, expected)
    if number <= 0.0:
        raise InputError(name, value, expected)
    return number


def non_negative(value: Any, name: str, expected: str = "a finite number, zero or more") -> float:
    """Read ``value`` as a finite number of zero or more."""
    number = finite(value, name, expected)
    if number < 0.0:
        raise InputError(name, value, expected)
    return number


def share(value: Any, name: str, *, open_low: bool = False, open_high: bool = False, expected: str | None = None) -> float:
    """Read ``value`` as a share in [0, 1]; ``open_low``/``open_high`` exclude 0 or 1.

    >>> share("0.78", "fast_survives")
    0.78
    """
    if expected is None:
        low = "above 0" if open_low else "from 0"
        high = "below 1" if open_high else "to 1"
        expected = f"a share {low} {high}" if not (open_low and open_high) else "a number strictly between 0 and 1"
    number = finite(value, name, expected)
    if number < 0.0 or number > 1.0 or (open_low and number == 0.0) or (open_high and number == 1.0):
        raise InputError(name, value, expected)
    return number


#: The most GPUs a job may have: ten million, a hundred times the largest clusters built, so that a typing slip
#: (1e300) is refused rather than planned.
MOST_GPUS = 10_000_000
#: The most US dollars a GPU-hour may cost: ten thousand, thousands of times any list price, so that a typing slip
#: (1e308) is refused rather than printed as an infinite number of dollars.
MOST_PRICE = 10_000.0
#: The most US dollars a GB/s of storage write bandwidth may cost a month: ten million, thousands of times a list price.
MOST_STORAGE_PRICE = 10_000_000.0


def price(value: Any, name: str, *, most: float = MOST_PRICE, expected: str | None = None, zero: bool = False) -> float:
    """Read ``value`` as a price: above zero (or zero, with `zero`) and at most `most` (a GPU-hour's, by default).

    >>> price("2.5", "price_per_gpu_hour"), price("0", "storage.price", most=MOST_STORAGE_PRICE, zero=True)
    (2.5, 0.0)
    """
    if expected is None:
        expected = f"a price in US dollars per GPU-hour, above 0 and at most {most:,.0f}"
    number = (non_negative if zero else positive)(value, name, expected)
    if number > most:
        raise InputError(name, value, expected)
    return number


#: The most hot spare nodes a pool may hold: a million (the search for the best pool stops far below).
MOST_HELD_SPARES = 1_000_000


def whole(value: Any, name: str, least: int = 1, most: int | None = None) -> int:
    """Read ``value`` (an int, an integral float or a string of digits) as a whole number of at least ``least``.

    With ``most``, of at most that too.

    >>> whole("16384", "gpus"), whole("8", "spares", 0, 1_000)
    (16384, 8)
    """
    expected = f"a whole number of at least {least}" if most is None else f"a whole number from {least} to {most:,}"
    if isinstance(value, bool):
        raise InputError(name, value, expected)
    if isinstance(value, numbers.Integral):
        count = int(value)
    else:
        number = finite(value, name, expected)
        if number != math.floor(number):
            raise InputError(name, value, expected)
        count = int(number)
    if count < least or (most is not None and count > most):
        raise InputError(name, value, expected)
    return count


def choice(value: Any, name: str, choices: Sequence[str]) -> str:
    """Read ``value`` as one of ``choices`` (lower case, hyphenated), ignoring case, spaces and underscores as hyphens.

    >>> choice("Run age", "hazard", ("renewal", "run-age"))
    'run-age'
    """
    key = value.strip().lower().replace(" ", "-").replace("_", "-") if isinstance(value, str) else value
    if key not in choices:
        raise InputError(name, value, "one of " + ", ".join(repr(c) for c in choices))
    return str(key)


def positive_array(value: Any, name: str, expected: str = POSITIVE_MINUTES) -> npt.NDArray[np.float64]:
    """Read a number or array-like (not strings) as a float64 array (0-d for a number), all finite and positive."""
    import numpy as np

    if isinstance(value, float) and 0.0 < value < math.inf:  # a plain positive number: the common case, quickly
        return np.array(value, dtype=np.float64)
    if isinstance(value, (bool, str, bytes)):
        raise InputError(name, value, expected)
    try:
        array = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):
        raise InputError(name, value, expected) from None
    with np.errstate(invalid="ignore"):
        ok = bool(np.all(np.isfinite(array) & (array > 0.0)))
    if not ok:
        raise InputError(name, value, expected)
    return array
