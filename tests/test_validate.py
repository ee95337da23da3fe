"""One set of input checks: numbers are read as a person types them, and everything else is refused by name."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from goodput import validate
from goodput.errors import InputError, quote


@pytest.mark.parametrize(("text", "value"), [("16384", 16384.0), ("020000", 20000.0), (" 2.0e-5 ", 2e-5),
                                              ("+3", 3.0), (".5", 0.5), ("7.", 7.0)])
def test_numbers_are_read_as_typed(text: str, value: float) -> None:
    """ASCII digits with an optional sign, point and exponent; a leading zero is not octal."""
    assert validate.finite(text, "x") == value


@pytest.mark.parametrize("bad", ["4:33:04", "0x10", "\u0661\u0662", "16,384", "1_000", ".inf", ".nan", "nan", "inf",
                                 "", "yes", True, None, [1], math.nan, math.inf, 10**400])
def test_anything_else_is_refused(bad: object) -> None:
    """Sexagesimal, hexadecimal, other scripts' digits, separators, YAML specials, booleans and infinities."""
    with pytest.raises(InputError) as caught:
        validate.finite(bad, "gpus")
    assert caught.value.name == "gpus"


def test_positive_non_negative_and_share() -> None:
    """positive refuses 0, non_negative accepts it, share is a closed [0, 1] unless an end is opened."""
    assert validate.non_negative("0", "drain") == 0.0
    with pytest.raises(InputError, match="greater than zero"):
        validate.positive(0, "rate")
    assert validate.share("1", "s") == 1.0
    for bad, kwargs in ((1.5, {}), (-0.1, {}), (1.0, {"open_high": True}), (0.0, {"open_low": True})):
        with pytest.raises(InputError):
            validate.share(bad, "s", **kwargs)


@pytest.mark.parametrize(("value", "ok"), [(16384, True), (16384.0, True), ("16384", True), (1.5, False),
                                           (0, False), (math.inf, False), (math.nan, False), (".inf", False),
                                           (np.int64(4), True), (True, False)])
def test_whole_numbers(value: object, ok: bool) -> None:
    """A whole number is an integer, an integral float or digits; infinity and NaN are refused, not crashed on."""
    if ok:
        assert validate.whole(value, "gpus") == int(float(value))  # type: ignore[arg-type]
    else:
        with pytest.raises(InputError, match="whole number"):
            validate.whole(value, "gpus")


def test_choice_normalizes_spelling() -> None:
    """Case, spaces and underscores do not matter; an unknown value lists the choices."""
    assert validate.choice("Run_Age", "hazard", ("renewal", "run-age")) == "run-age"
    with pytest.raises(InputError, match="'renewal', 'run-age'"):
        validate.choice("weekly", "hazard", ("renewal", "run-age"))


def test_arrays_are_checked_element_by_element() -> None:
    """One bad element refuses the array; a good one comes back as float64."""
    assert validate.positive_array([1, 2], "c").dtype == np.float64
    with pytest.raises(InputError):
        validate.positive_array([1.0, -1.0], "c")


@given(st.text(min_size=0, max_size=5000))
def test_quotes_are_short_and_on_one_line(text: str) -> None:
    """Whatever a user wrote, a message quotes at most about 60 characters of it, on one line."""
    shown = quote(text)
    assert "\n" not in shown and len(shown) < 120
    assert str(InputError("x", text, "y")).count("\n") == 0


def test_prices_are_bounded_so_no_output_is_infinite() -> None:
    """A price of 1e308 a GPU-hour (a typing slip) made the capacity read "$infB a month": refused above ten thousand
    dollars a GPU-hour, and storage above ten million a GB/s a month, on the command line and in a file alike."""
    assert validate.price("10000", "p") == 10_000.0
    for bad in ("1e308", "10000.5", "0", "-1"):
        with pytest.raises(InputError, match="at most 10,000"):
            validate.price(bad, "price_per_gpu_hour")
    assert validate.price("0", "storage.price", most=validate.MOST_STORAGE_PRICE, zero=True) == 0.0
    with pytest.raises(InputError):
        validate.price("1e308", "storage.price", most=validate.MOST_STORAGE_PRICE, zero=True)
