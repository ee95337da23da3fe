"""Tables as the book shows them: no index, numbers right-aligned with a stated precision, a caption."""

from __future__ import annotations

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
    if formats:
        styler = styler.format(cast(Any, formats), na_rep="")
    classes = pd.DataFrame(
        [["num" if c in numeric else "" for c in frame.columns]] * len(frame), index=frame.index, columns=frame.columns
    )
    styler = styler.set_td_classes(classes)
    styler = styler.set_table_styles({c: [{"selector": "", "props": [("text-align", "right")]}] for c in numeric},
                                     overwrite=False)
    if caption:
        styler = styler.set_caption(caption)
    return styler
