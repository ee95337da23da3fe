"""The book's own layer: figures, tables styled for the page, where the book's inputs are, and glue.

Chapters import from here and from :mod:`goodput.pages`; nothing in the numbers or
words layers imports from here.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping


def glue_all(values: Mapping[str, object]) -> None:
    """Glue every value of a page function's mapping under its key, for ``{glue:text}`` in the chapter.

    Parameters
    ----------
    values : mapping of str to str, int or float
        What a :mod:`goodput.pages` function returns. NumPy scalars are turned into Python
        floats (NumPy 2 scalars do not format in ``{glue:text}``).

    Raises
    ------
    TypeError
        For a value that is not text or a number.
    """
    from myst_nb import glue

    for key, value in values.items():
        if isinstance(value, bool) or not isinstance(value, (str, numbers.Real)):
            raise TypeError(f"glue {key!r}: {type(value).__name__} is not text or a number")
        glue(key, value if isinstance(value, (str, int)) else float(value), display=False)
