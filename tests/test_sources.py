"""Published figures: Table 5 of the Llama 3 paper is internally consistent and shares come from the counts."""

from __future__ import annotations

from numpy.testing import assert_allclose

from goodput import sources


def test_table5_counts_sum_to_the_unexpected_interruptions() -> None:
    """466 interruptions - 47 planned = 419 unexpected = the sum of Table 5's counts."""
    table = sources.llama3_root_causes()
    assert sources.LLAMA3_INTERRUPTIONS - sources.LLAMA3_PLANNED == 419
    assert table["count"].sum() == sources.LLAMA3_INTERRUPTIONS - sources.LLAMA3_PLANNED
    assert len(table) == 18


def test_shares_are_computed_from_counts() -> None:
    """Each share is count / 419; shares sum to 1; the GPU category is 268/419."""
    table = sources.llama3_root_causes()
    assert_allclose(table["share"], table["count"] / 419)
    assert_allclose(table["share"].sum(), 1.0)
    by = sources.llama3_by_category()
    assert by.iloc[0]["category"] == "GPU"
    assert by.iloc[0]["count"] == 148 + 72 + 19 + 17 + 6 + 6
