"""The one exception type for bad input.

Every check in the package raises :class:`InputError` with a message that names
the input, the value it was given and what was expected, so the command line
can print it as one line and exit with status 2.
"""

from __future__ import annotations

from typing import Any


class InputError(ValueError):
    """An input (a parameter, a flag, a file or a log row) is not usable.

    Parameters
    ----------
    name : str
        The input's name as the user wrote it: a key, a flag or ``file:row``.
    value : Any
        The value that was given.
    expected : str
        What would have been accepted, phrased for the user.

    Examples
    --------
    >>> str(InputError("checkpoint_cost", "-1 min", "a positive duration"))
    "checkpoint_cost: got '-1 min', expected a positive duration"
    """

    def __init__(self, name: str, value: Any, expected: str) -> None:
        self.name = name
        self.value = value
        self.expected = expected
        super().__init__(f"{name}: got {value!r}, expected {expected}")
