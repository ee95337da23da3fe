"""Tests of goodput.logs.events: what an event log alone measures (M, R, gaps between failures, their shape),
on hand-built logs, GLM-130B's log and the book's samples; and property tests that malformed CSV rows only ever
raise InputError naming the file and line."""

from __future__ import annotations

import dataclasses
import json
import math
import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy import stats

from goodput.errors import InputError
from goodput.logs.checks import shape_trust
from goodput.logs.events import NOT_MEASURED, as_planned, exposure_clock, failure_gaps, measure_events
from goodput.logs.fit import fit_weibull
from goodput.logs.measure import measure
from goodput.logs.read import read_events, read_steps
from goodput.uncertainty import poisson_interval

ROOT = Path(__file__).resolve().parent.parent
BOOK_DATA = ROOT / "book" / "data"
GLM = BOOK_DATA / "fleets" / "glm130b-events.csv"

# Minutes: failures at 100 and 250; planned stop 400-460 (60 min down); failure at 600; the log ends at 700.
# The second failure's restart is not recorded (start at the same instant).
HAND = [(0, "start"), (100, "failure"), (110, "start"), (250, "failure"), (250, "start"), (400, "stop"),
        (460, "start"), (600, "failure"), (630, "start"), (700, "stop")]


def write_events(tmp_path: Path, rows: list[tuple[float, str]]) -> Path:
    path = tmp_path / "events.csv"
    path.write_text("time,event\n" + "".join(f"{60 * t:g},{e}\n" for t, e in rows), encoding="utf-8")
    return path


def test_hand_built_log(tmp_path: Path) -> None:
    """W = 700, planned downtime 60, exposure 640, 3 failures: M = 640/3 with the Garwood interval; R from the two
    recorded restarts (10 and 30 min, a Student's t interval cut at zero), one left out; gaps on the exposure clock 100, 150, 290 and 100 open."""
    m = measure_events(write_events(tmp_path, HAND))
    assert (m.wall_min, m.planned_downtime_min, m.exposure_min) == (700, 60, 640)
    assert (m.attempts, m.failures, m.planned_stops) == (5, 3, 1)
    assert_allclose(m.mtbi_min, 640 / 3)
    assert_allclose(m.mtbi_interval_min, poisson_interval(3, 640))
    assert (m.restart_samples, m.restarts_unrecorded) == (2, 1)
    assert_allclose([m.restart_min, m.restart_median_min], [20, 20])
    t = stats.t.ppf(0.975, 1) * np.std([10, 30], ddof=1) / math.sqrt(2)
    assert_allclose(m.restart_interval_min, (max(20 - t, 0.0), 20 + t))  # t interval, cut at zero
    assert_allclose(m.failure_gaps_min, [100, 150, 290])
    assert_allclose(m.open_gap_min, 100)
    assert m.fit is not None and m.fit_problem is None
    assert_allclose(m.fit.shape, fit_weibull([100, 150, 290], [100]).shape)
    assert_allclose(m.running_min + m.recovery_min + m.planned_downtime_min, m.wall_min)


def test_exposure_clock_stands_still_in_planned_downtime(tmp_path: Path) -> None:
    """A start after a stop has the stop's exposure time; every other step of the clock is wall time."""
    log = read_events(write_events(tmp_path, HAND))
    assert_allclose(exposure_clock(log), [0, 100, 110, 250, 250, 400, 400, 540, 570, 640])
    gaps, open_gap = failure_gaps(log)
    assert_allclose(gaps, [100, 150, 290])
    assert open_gap == pytest.approx(100)


@pytest.mark.slow
def test_agrees_with_the_full_measurement_on_the_sample_logs() -> None:
    """On the book's sample logs the event log alone gives the full measurement's M, its interval and its counts."""
    full = measure(BOOK_DATA / "sample-steps.csv", BOOK_DATA / "sample-events.csv")
    alone = measure_events(BOOK_DATA / "sample-events.csv")
    assert (alone.failures, alone.attempts, alone.planned_stops) == (full.failures, full.attempts, full.planned_stops)
    assert_allclose([alone.mtbi_min, *alone.mtbi_interval_min], [full.mtbi_min, *full.mtbi_interval_min])
    assert_allclose(alone.exposure_min, full.exposure_min)
    # the event log sees the restart up to the next start; the step log adds the startup to the first step
    assert alone.restart_min < full.restart_min


def test_sample_logs_have_exponential_gaps() -> None:
    """The sample logs draw Poisson failures on the exposure clock: the fitted shape's 95% interval contains 1."""
    fit = measure_events(BOOK_DATA / "sample-events.csv").fit
    assert fit is not None and fit.exponential_inside and fit.p_value > 0.05


def test_glm130b_matches_the_fleet_readme() -> None:
    """GLM-130B: 13 failures, 19 stops (18 planned + the final one), 32 starts; 1,302 h of running attempts,
    46 h of planned downtime, 40 h from failures to relaunches; M = exposure / 13, about 103 h (the README's
    figures). Three failures share their instant with the relaunch (times not logged): no restart recorded."""
    m = measure_events(GLM)
    assert (m.failures, m.planned_stops, m.attempts) == (13, 18, 32)
    assert round(m.running_min / 60) == 1302 and round(m.planned_downtime_min / 60) == 46
    assert round(m.recovery_min / 60) == 40 and round(m.mtbi_min / 60) == 103
    assert m.restarts_unrecorded == 3 and m.restart_samples == 10
    assert len(m.failure_gaps_min) == 13 and m.fit is not None
    low, high = m.fit.shape_interval
    assert low < 1.0 < high and not low <= 0.5  # exponential inside, infant mortality (0.5) outside


def test_sacct_is_recognised(tmp_path: Path) -> None:
    """A file whose first line is a sacct header is read as sacct output, without being told."""
    assert measure_events(BOOK_DATA / "sample-sacct.txt").log_format == "sacct"
    assert measure_events(BOOK_DATA / "sample-events.csv").log_format == "events"


@pytest.mark.slow
def test_to_dict_keys_as_the_full_measurement_with_nulls(tmp_path: Path) -> None:
    """JSON keys are the full measurement's where they apply; C, T and both goodputs are null; the fit is there."""
    full = measure(BOOK_DATA / "sample-steps.csv", BOOK_DATA / "sample-events.csv").to_dict()
    data = json.loads(json.dumps(measure_events(write_events(tmp_path, HAND)).to_dict()))
    assert set(full) <= set(data)
    for key in NOT_MEASURED:
        assert data[key] is None
    assert data["mtbi_min"] == pytest.approx(640 / 3) and data["failures"] == 3
    assert data["weibull"]["shape"] > 0 and data["steps_source"] is None


def test_no_failure_and_too_few_gaps(tmp_path: Path) -> None:
    """No failure: M infinite (null in JSON) with only a lower bound, no restart, no fit ('too few gaps')."""
    m = measure_events(write_events(tmp_path, [(0, "start"), (500, "stop")]))
    assert m.failures == 0 and math.isinf(m.mtbi_min) and math.isinf(m.mtbi_interval_min[1])
    assert math.isnan(m.restart_min) and m.fit is None and m.fit_problem == "too few gaps"
    assert m.to_dict()["mtbi_min"] is None
    assert_allclose(m.open_gap_min, 500)


@pytest.mark.parametrize("rows", [[(5, "start"), (5, "stop")], [(0, "start"), (0, "stop"), (50, "start"), (50, "stop")]])
def test_log_spanning_no_time_is_refused(tmp_path: Path, rows: list[tuple[float, str]]) -> None:
    """All events at one instant, or attempts of no time between planned stops: nothing to measure, an InputError
    naming the file (not the exposure of zero it would otherwise pass on)."""
    path = write_events(tmp_path, rows)
    with pytest.raises(InputError, match=re.escape(str(path))):
        measure_events(path)


# ---------------------------------------------------------------- malformed CSV rows

GOOD_EVENTS = ["time,event", "0,start", "600,failure", "900,start", "3000,stop"]
GOOD_STEPS = ["step,start,end,checkpoint", "1,10,20,0", "2,21,31,1", "3,100,110,0", "1,950,960,0"]

_CSV_CELLS = st.one_of(
    st.sampled_from(["", "start", "failure", "stop", "0", "1", "2", "-1", "nan", "inf", "1e308", "x", "2025-01-06",
                     "2025-01-06T00:00:00", "2025-01-06T00:00:00+02:00", "99999999999999999999", "\"", "1,0"]),
    st.text(alphabet=st.characters(blacklist_categories=["Cs"], blacklist_characters="\r\n"), max_size=10),
)


def _check_only_input_error(path: Path, reader: Callable[[Path], object]) -> None:
    message = None
    try:
        reader(path)
    except InputError as exc:
        message = str(exc)
    if message is not None:
        assert re.match(rf"{re.escape(str(path))}(:line \d+|: column \w+|:)", message), message


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cells=st.lists(_CSV_CELLS, max_size=4), where=st.integers(min_value=1, max_value=len(GOOD_EVENTS)))
def test_a_malformed_event_row_raises_only_input_error(tmp_path: Path, cells: list[str], where: int) -> None:
    """Any row put into a good event log either reads or raises InputError naming the file (and line)."""
    path = tmp_path / "e.csv"
    lines = [*GOOD_EVENTS[:where], ",".join(cells), *GOOD_EVENTS[where:]]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _check_only_input_error(path, read_events)
    _check_only_input_error(path, measure_events)


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cells=st.lists(_CSV_CELLS, max_size=5), where=st.integers(min_value=1, max_value=len(GOOD_STEPS)))
def test_a_malformed_step_row_raises_only_input_error(tmp_path: Path, cells: list[str], where: int) -> None:
    """Any row put into a good step log either reads or raises InputError naming the file (and line)."""
    path = tmp_path / "s.csv"
    lines = [*GOOD_STEPS[:where], ",".join(cells), *GOOD_STEPS[where:]]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _check_only_input_error(path, read_steps)


def test_as_planned_turns_failures_into_stops(tmp_path: Path) -> None:
    """Counting the failure at 250 min as planned: 2 failures, its recovery becomes planned downtime (0 here,
    the restart was at the same instant), and the gaps 100 and 150 merge into 100 + 150 + 290."""
    log = read_events(write_events(tmp_path, HAND))
    m = measure_events(as_planned(log, [250.0]))
    assert (m.failures, m.planned_stops) == (2, 2)
    assert_allclose(m.failure_gaps_min, [100, 440])
    with pytest.raises(InputError, match="time of a failure"):
        as_planned(log, [251.0])


@pytest.mark.slow
def test_the_shape_tests_trust_is_simulated_at_the_fits_own_level() -> None:
    """The simulated size and coverage use the level the fit's verdict uses (1 - confidence), not a fixed 5%."""
    m = measure_events(GLM)
    loose = dataclasses.replace(m.fit, confidence=0.8)
    strict, relaxed = shape_trust(m, m.fit), shape_trust(m, loose)
    assert strict.level == pytest.approx(0.05) and relaxed.level == pytest.approx(0.2)
    assert strict.size < relaxed.size and relaxed.coverage < strict.coverage
