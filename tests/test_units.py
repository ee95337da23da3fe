"""Durations: every accepted spelling converts to the right number of minutes, and nothing else is accepted."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from goodput.errors import InputError
from goodput.units import format_minutes, parse_duration, positive_number


@pytest.mark.parametrize(
    ("text", "minutes"),
    [
        ("90 s", 1.5),
        ("1 min", 1.0),
        ("5min", 5.0),
        ("3.1 h", 186.0),
        ("54 days", 54 * 24 * 60.0),
        ("1e1 s", 10 / 60),
        ("  2 Hours ", 120.0),
        ("1 week", 7 * 24 * 60.0),
    ],
)
def test_units_convert_to_minutes(text: str, minutes: float) -> None:
    """Each unit is a fixed number of minutes: 1 s = 1/60 min, 1 h = 60 min, 1 day = 1440 min."""
    assert_allclose(parse_duration(text, "x"), minutes)


def test_bare_number_needs_a_unit_in_files_but_means_minutes_on_the_command_line() -> None:
    """A bare number is minutes only where the caller says so (the command line)."""
    assert parse_duration("2.5", "interval", bare_unit="min") == 2.5
    assert parse_duration(7, "interval", bare_unit="min") == 7.0
    with pytest.raises(InputError, match="needs a unit"):
        parse_duration("2.5", "restart")
    with pytest.raises(InputError, match="needs a unit"):
        parse_duration(5, "restart")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("-1 min", "greater than zero"),
        ("0 s", "greater than zero"),
        ("nan min", "finite"),
        ("inf h", "finite"),
        ("5 parsecs", "known unit"),
        ("five min", "duration such as"),
        ("", "duration such as"),
        ("1 2 min", "duration such as"),
    ],
)
def test_bad_durations_name_the_input_the_value_and_what_was_expected(text: str, message: str) -> None:
    """Impossible or unreadable durations raise InputError naming the key and the value."""
    with pytest.raises(InputError, match=message) as info:
        parse_duration(text, "checkpoint_cost")
    assert str(info.value).startswith("checkpoint_cost: got ")
    assert repr(text) in str(info.value)


@pytest.mark.parametrize("value", [True, None, [1], {"a": 1}])
def test_non_strings_are_refused(value: object) -> None:
    """Only strings (and numbers where allowed) are durations."""
    with pytest.raises(InputError):
        parse_duration(value, "restart", bare_unit="min")


@given(st.floats(min_value=1e-6, max_value=1e9, allow_nan=False, allow_infinity=False))
def test_seconds_and_minutes_agree(x: float) -> None:
    """x seconds is x/60 minutes, and x minutes is 60x seconds."""
    assert_allclose(parse_duration(f"{x!r} s", "x"), x / 60, rtol=1e-12)
    assert_allclose(parse_duration(f"{x!r} min", "x"), parse_duration(f"{60 * x!r} s", "x"), rtol=1e-12)


def test_positive_number() -> None:
    """Rates and prices are finite and strictly positive."""
    assert positive_number("2.0e-5", "rate") == 2.0e-5
    for bad in (0, -1, math.nan, math.inf, "x", None, True):
        with pytest.raises(InputError, match="rate"):
            positive_number(bad, "rate")


def test_format_minutes_picks_a_readable_unit() -> None:
    """Below a minute in seconds, below ten hours in minutes, beyond in hours."""
    assert format_minutes(0.5) == "30 s"
    assert format_minutes(19.2657) == "19.3 min"
    assert format_minutes(1200.0) == "20 h"
