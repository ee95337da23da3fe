"""Tables as the book shows them: no index, numbers right-aligned with a stated precision, a caption."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    import pandas as pd
    from pandas.io.formats.style import Styler


def book_table(
    frame: pd.DataFrame,
    formats: Mapping[str, str] | None = None,
    caption: str | None = None,
    right: Sequence[str] = (),
) -> Styler:
    """A pandas table as the book shows it: no index, stated precision, numbers right-aligned, a caption.

    Parameters
    ----------
    frame : pandas.DataFrame
        The table. Put units in the column names ("M (min)") or in the values ("186 min").
    formats : mapping of str to str, optional
        Format string per column, for example ``{"goodput": "{:.1%}"}``.
    caption : str, optional
        Shown above the table.
    right : sequence of str, optional
        Further columns to right-align (numeric and formatted columns always are), such as
        numbers held as text ("16,384", "19.3 min").

    Returns
    -------
    pandas.io.formats.style.Styler
        Renders as ``<table class="book-table">``, styled by the book's stylesheet; missing values are blank.
    """
    import pandas as pd

    formats = dict(formats or {})
    numeric = [c for c in frame.columns if c in formats or c in right or pd.api.types.is_numeric_dtype(frame[c])]
    styler = frame.style.hide(axis="index").set_table_attributes('class="book-table"')
    # The one place the book's tables become HTML: every cell, header and caption is text, escaped here, so that an
    # inputs file named '<img src=x onerror=...>.yml' shows as its name and runs nothing.
    styler = styler.format(cast(Any, formats or None), na_rep="", escape="html")
    styler = styler.format_index(escape="html", axis=1)
    classes = pd.DataFrame(
        [["num" if c in numeric else "" for c in frame.columns]] * len(frame), index=frame.index, columns=frame.columns
    )
    styler = styler.set_td_classes(classes)
    styler = styler.set_table_styles({c: [{"selector": "", "props": [("text-align", "right")]}] for c in numeric},
                                     overwrite=False)
    if caption:
        styler = styler.set_caption(html.escape(caption, quote=False))
    return styler


def escape_text(text: object) -> str:
    r"""Text from outside the book (an inputs file's name, a job name from a log) made safe for Markdown.

    What a chapter writes into Markdown output (``display(Markdown(...))``) or a caption that MyST
    reads: every character Markdown may read as markup gets a backslash, so ``<b>`` stays ``<b>`` on the page
    instead of bold (or a script), ``&`` stays ``&`` and ``|`` does not end a table cell. It is
    :func:`goodput.report.escape_markdown`, the one escape the command's Markdown uses too. For a
    string put into HTML directly, use :func:`html.escape`; :func:`book_table` escapes its cells,
    headers and caption itself.

    Parameters
    ----------
    text : object
        The text.

    Returns
    -------
    str
        Markdown that renders as exactly `text`, on one line.

    Examples
    --------
    >>> print(escape_text("<img src=x onerror=alert(1)>.yml"))
    \<img src=x onerror=alert(1)\>.yml
    """
    from goodput.report import escape_markdown

    return escape_markdown(text)
