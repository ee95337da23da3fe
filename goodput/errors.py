"""The one exception type for bad input, and how its message quotes what the user wrote.

Every check raises :class:`InputError`, naming the input, quoting the value (cut to :data:`QUOTE_LENGTH` characters, so
that a huge value cannot flood a terminal) and saying what was expected; the command prints it as one line and exits
with status 2.
"""

from __future__ import annotations

from typing import Any

#: Longest quotation of a value in a message, in characters.
QUOTE_LENGTH = 60


def quote(value: Any, length: int = QUOTE_LENGTH) -> str:
    """Quote a value for a message, on one line and cut to `length` characters.

    A string is quoted as written, anything else by its ``repr``; a cut value shows ``...`` and its full length, and a
    path is cut from the left so that its file name shows.

    >>> quote("1:30")
    "'1:30'"
    >>> quote("x" * 100, length=5)
    "'xxxxx...' (100 characters)"
    """
    text = value if isinstance(value, str) else repr(value)
    cut = len(text) > length
    if cut and isinstance(value, str) and "/" in text and "\n" not in text:  # a path: keep its file name
        shown = "..." + text[-length:]
    else:
        shown = text[:length] + ("..." if cut else "")
    if isinstance(value, str):
        shown = repr(shown)  # escapes line breaks and control characters, which can lengthen it
        if len(shown) > length + 20:
            shown, cut = shown[: length + 16] + "...'", True
    return f"{shown} ({len(text):,} characters)" if cut else shown


class InputError(ValueError):
    """An input (a parameter, a flag, a file or a log row) is not usable.

    `name` is as the user wrote it (a key, a flag or ``file:line N``); `expected` is phrased for the user.

    >>> str(InputError("checkpoint_cost", "-1 min", "a positive duration"))
    "checkpoint_cost: got '-1 min', expected a positive duration"
    >>> str(InputError("x.yml: key 'restart'", None, "a value (the key is missing)"))
    "x.yml: key 'restart': got nothing, expected a value (the key is missing)"
    """

    def __init__(self, name: str, value: Any, expected: str) -> None:
        self.name = name
        self.value = value
        self.expected = expected
        super().__init__(f"{name}: got {'nothing' if value is None else quote(value)}, expected {expected}")


class Refused(Exception):
    """The model does not apply to these inputs (the command prints why and exits with status 1)."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)
