"""One set of input checks: finite numbers, positive numbers, shares, whole numbers and choices.

Every module that takes a value from a user goes through these, so that a value is
refused the same way everywhere, with an :class:`~goodput.errors.InputError` that
names the input, quotes what was given and says what was expected.

Numbers are read as a person means them: a string of ASCII digits with an optional
sign, decimal point and exponent (``"16384"``, ``"020000"`` is twenty thousand,
``"2.0e-5"``). Anything else is refused rather than guessed: a sexagesimal
``"4:33:04"``, a hexadecimal ``"0x10"``, digits of other scripts, separators
(``"16,384"``), ``".inf"`` and ``".nan"``. Booleans are not numbers.

Nothing heavy is imported here: NumPy loads only for :func:`positive_array`.
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
    """Read `value` as a finite number, as a person means it.

    Parameters
    ----------
    value : Any
        A real number (not a bool), or a string such as ``"2.5e-5"`` (see the module docstring).
    name : str
        The input's name, for the message.
    expected : str, optional
        What was expected, in words, for the message.

    Returns
    -------
    float
        The number.

    Raises
    ------
    InputError
        If the value is not a number, or is NaN or infinite.

    Examples
    --------
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
    """Read `value` as a finite number greater than zero.

    Parameters
    ----------
    value : Any
        A number or a numeric string.
    name : str
        The input's name, for the message.
    expected : str, optional
        What was expected, in words.

    Returns
    -------
    float
        The number.

    Raises
    ------
    InputError
        If the value is not a finite number greater than zero.
    """
    number = finite(value, name, expected)
    if number <= 0.0:
        raise InputError(name, value, expected)
    return number


def non_negative(value: Any, name: str, expected: str = "a finite number, zero or more") -> float:
    """Read `value` as a finite number of zero or more.

    Parameters
    ----------
    value : Any
        A number or a numeric string.
    name : str
        The input's name, for the message.
    expected : str, optional
        What was expected, in words.

    Returns
    -------
    float
        The number.

    Raises
    ------
    InputError
        If the value is not a finite number of zero or more.
    """
    number = finite(value, name, expected)
    if number < 0.0:
        raise InputError(name, value, expected)
    return number


def share(value: Any, name: str, *, open_low: bool = False, open_high: bool = False, expected: str | None = None) -> float:
    """Read `value` as a share (a probability, a confidence level) between 0 and 1.

    Parameters
    ----------
    value : Any
        A number or a numeric string.
    name : str
        The input's name, for the message.
    open_low, open_high : bool, optional
        Whether 0, or 1, is excluded.
    expected : str, optional
        What was expected, in words; by default it is said from the bounds.

    Returns
    -------
    float
        The share.

    Raises
    ------
    InputError
        If the value is not a number in the range.

    Examples
    --------
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


def whole(value: Any, name: str, least: int = 1) -> int:
    """Read `value` as a whole number of at least `least`.

    Parameters
    ----------
    value : Any
        An integer, an integral float (``16384.0``) or a string of digits.
    name : str
        The input's name, for the message.
    least : int, optional
        The smallest value accepted (default 1).

    Returns
    -------
    int
        The number.

    Raises
    ------
    InputError
        If the value is not a whole number of at least `least` (NaN and infinity included).

    Examples
    --------
    >>> whole("16384", "gpus")
    16384
    """
    expected = f"a whole number of at least {least}"
    if isinstance(value, bool):
        raise InputError(name, value, expected)
    if isinstance(value, numbers.Integral):
        count = int(value)
    else:
        number = finite(value, name, expected)
        if number != math.floor(number):
            raise InputError(name, value, expected)
        count = int(number)
    if count < least:
        raise InputError(name, value, expected)
    return count


def choice(value: Any, name: str, choices: Sequence[str]) -> str:
    """Read `value` as one of `choices`, ignoring case and treating spaces and underscores as hyphens.

    Parameters
    ----------
    value : Any
        The value given.
    name : str
        The input's name, for the message.
    choices : sequence of str
        The accepted values, hyphenated and in lower case.

    Returns
    -------
    str
        The matching choice.

    Raises
    ------
    InputError
        If the value is none of them.

    Examples
    --------
    >>> choice("Run age", "hazard", ("renewal", "run-age"))
    'run-age'
    """
    key = value.strip().lower().replace(" ", "-").replace("_", "-") if isinstance(value, str) else value
    if key not in choices:
        raise InputError(name, value, "one of " + ", ".join(repr(c) for c in choices))
    return str(key)


def positive_array(value: Any, name: str, expected: str = POSITIVE_MINUTES) -> npt.NDArray[np.float64]:
    """Read `value` (a number or an array) as a float array whose every element is finite and positive.

    Parameters
    ----------
    value : Any
        A number or an array-like of numbers (not strings).
    name : str
        The input's name, for the message.
    expected : str, optional
        What was expected, in words.

    Returns
    -------
    numpy.ndarray
        The values as float64 (0-d for a number).

    Raises
    ------
    InputError
        If any element is not a finite number greater than zero.
    """
    import numpy as np

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
