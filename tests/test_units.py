"""Durations: every accepted spelling converts to the right number of minutes, and nothing else is accepted."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from goodput.errors import InputError
from goodput.units import format_duration, format_durations, format_rate, parse_duration, written_minutes


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


@pytest.mark.parametrize(
    ("minutes", "text"),
    [
        (0.5, "30 s"),
        (2 / 3, "40 s"),
        (0.0105, "0.63 s"),
        (0.1 / 60, "0.1 s"),
        (0.0999 / 60, "99.9 ms"),
        (0.00355 / 60, "3.55 ms"),
        (1.0, "1 min"),
        (1.5, "1 min 30 s"),
        (6.37, "6.37 min"),
        (19.2657, "19.3 min"),
        (185.6, "186 min"),
        (1200.0, "20 h"),
        (54 * 1440.0, "54 days"),
        (1296 * 60.0, "54 days"),
        (2 * 525600.0, "2 years"),
        (525600.0, "1 year"),
        (math.inf, "unbounded"),
    ],
)
def test_format_duration_writes_durations_as_people_do(minutes: float, text: str) -> None:
    """Seconds below a minute, minutes and seconds for whole seconds under ten minutes, minutes below five hours,
    hours below two days, days below a year, then years; never an exponent or a key path."""
    assert format_duration(minutes) == text


@given(st.floats(min_value=1e-3, max_value=1e7, allow_nan=False))
def test_formatted_durations_read_back_within_rounding(minutes: float) -> None:
    """What format_duration writes, parse_duration reads back to within its three significant digits."""
    text = format_duration(minutes)
    if " min " in text:  # "1 min 30 s": minutes and seconds
        whole, rest = text.split(" min ")
        back = parse_duration(f"{whole} min", "x") + parse_duration(rest, "x")
    else:
        back = parse_duration(text.replace(",", ""), "x")
    assert_allclose(back, minutes, rtol=5e-3)


def test_zero_is_a_duration_only_where_allowed() -> None:
    """A drain of zero is no drain; a restart of zero is an error."""
    assert parse_duration("0 s", "drain", allow_zero=True) == 0.0
    with pytest.raises(InputError, match="greater than zero"):
        parse_duration("0 s", "restart")


@pytest.mark.parametrize("text", ["1:30", "0x10 min", "\u0661\u0662 min", "1,5 min", "1_000 s", ".inf min"])
def test_durations_are_read_as_people_type_them(text: str) -> None:
    """Sexagesimal, hexadecimal, digits of other scripts, separators and YAML's .inf are refused, not guessed."""
    with pytest.raises(InputError, match="duration"):
        parse_duration(text, "restart")


@pytest.mark.parametrize(
    ("rate", "text"),
    [(1.9732e-5, "1.97e-5"), (2e-5, "2e-5"), (1.6e-5, "1.6e-5"), (6.31e-4, "6.31e-4"), (0.32768, "0.328"), (0.0, "0")],
)
def test_format_rate_writes_rates_as_the_inputs_file_takes_them(rate: float, text: str) -> None:
    """Three significant digits, trailing zeros dropped, e-notation below 0.001 with no padded exponent."""
    assert format_rate(rate) == text


@given(st.floats(min_value=1e-9, max_value=10.0, allow_nan=False))
def test_formatted_rates_read_back_within_rounding(rate: float) -> None:
    """What format_rate writes is a number float() reads back to within three significant digits, never 'e-05'."""
    text = format_rate(rate)
    assert "e-0" not in text and "e+" not in text
    assert_allclose(float(text.replace(",", "")), rate, rtol=5e-3)


def test_durations_side_by_side_differ_as_they_do() -> None:
    """R with 32 spares held (10.047 min) and at the best pool of 15 (10.057 min) are 0.56 s apart: at three digits
    '10 min' and '10.1 min' (6 s), so four: '10.05 min' and '10.06 min' (0.6 s). Equal ones keep three digits; one that
    writes seconds and minutes is read back as written."""
    assert format_durations(10.04725, 10.056572) == ("10.05 min", "10.06 min")
    assert format_durations(18.6, 18.6) == ("18.6 min", "18.6 min")
    assert format_durations(5.0, 250.0) == ("5 min", "250 min")
    assert written_minutes("1 min 30 s") == 1.5 and written_minutes("1,296 min") == 1296.0
    assert written_minutes("2.83 s") == pytest.approx(2.83 / 60)
