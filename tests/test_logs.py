"""Tests of goodput.logs (reading and measuring logs) and goodput.samplelogs (logs with known truth)."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose

from goodput import model
from goodput.errors import InputError
from goodput.logs.measure import Measurement, measure
from goodput.logs.read import read_events, read_steps
from goodput.logs.samples import BOOK_SAMPLE, SampleSpec, SampleTruth, simulate_logs, write_logs, write_sample_logs

BOOK_DATA = Path(__file__).resolve().parent.parent / "book" / "data"

# A hand-built run, seconds. Steps take 10 s with a 1 s ordinary gap; a checkpoint
# after steps 2, 4, 6, 8 stalls 31 s (30 s beyond the ordinary gap). The failure at
# 140 s strikes during step 6's checkpoint, which is therefore not taken (flag 0),
# so the second attempt resumes at step 5; its first step starts 90 s after the failure.
TINY_STEPS = [
    (1, 5, 15, 0),
    (2, 16, 26, 1),
    (3, 57, 67, 0),
    (4, 68, 78, 1),
    (5, 109, 119, 0),
    (6, 120, 130, 0),
    (5, 230, 240, 0),
    (6, 241, 251, 1),
    (7, 282, 292, 0),
    (8, 293, 303, 1),
]
TINY_EVENTS = [(0, "start"), (140, "failure"), (200, "start"), (333, "stop")]
ORIGIN = pd.Timestamp("2025-01-06T00:00:00")


def _stamp(seconds: float, clock: str) -> str:
    if clock == "seconds":
        return f"{seconds:g}"
    when = ORIGIN + pd.Timedelta(seconds=seconds)
    if clock == "iso8601":
        return when.strftime("%Y-%m-%dT%H:%M:%S")
    return (when + pd.Timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M:%S+02:00")  # same instant, written at +02:00


def tiny_text(clock: str = "seconds") -> tuple[list[str], list[str]]:
    """The tiny run as CSV lines (header first)."""
    steps = ["step,start,end,checkpoint"] + [
        f"{n},{_stamp(a, clock)},{_stamp(b, clock)},{c}" for n, a, b, c in TINY_STEPS
    ]
    events = ["time,event"] + [f"{_stamp(t, clock)},{e}" for t, e in TINY_EVENTS]
    return steps, events


def write_pair(directory: Path, steps: list[str], events: list[str]) -> tuple[Path, Path]:
    """Write two lists of lines as steps.csv and events.csv."""
    s, e = directory / "steps.csv", directory / "events.csv"
    s.write_text("".join(line + "\n" for line in steps), encoding="utf-8")
    e.write_text("".join(line + "\n" for line in events), encoding="utf-8")
    return s, e


def exact_goodput(c: float, m: float, r: float, t: float) -> float:
    """Exact long-run goodput for exponential failures striking compute, checkpoint and restart."""
    return t / (m * math.exp(r / m) * (math.exp((t + c) / m) - 1.0))


# ---------------------------------------------------------------- hand-built logs


@pytest.mark.parametrize("clock", ["seconds", "iso8601", "iso8601+02:00"])
def test_tiny_logs_give_hand_computed_answers(tmp_path: Path, clock: str) -> None:
    """Hand computation on the tiny run, the same on every clock.

    W = 333 s. Surviving steps: 1-4 of the first attempt and 5-8 of the second,
    8 x 10 s = 80 s, so goodput = 80/333. Ordinary gap 1 s, stalls 31 s, so
    C = 30 s. T = 78 - 57 = 303 - 282 = 21 s. One failure over 333 s of
    exposure: M = 333 s. R = 230 - 140 = 90 s. Lost work = 140 - 109 = 31 s
    (redone steps 5 and 6, the gap between them, and step 6's broken checkpoint).
    Measured losses: checkpoints 3 x 30 s, lost 31 s, restart 90 s; the rest,
    42 s = 5 s startup + 4 x 1 s gaps + 3 x 1 s gap inside stalls + 30 s final
    checkpoint before the stop, is unmodelled.
    """
    steps, events = write_pair(tmp_path, *tiny_text(clock.replace("+02:00", "-offset")))
    m = measure(steps, events, which="first-order")
    w = 333.0
    assert (m.failures, m.attempts, m.planned_stops, m.redone_steps, m.checkpoint_samples) == (1, 2, 0, 2, 3)
    assert_allclose(
        [m.wall_min, m.exposure_min, m.checkpoint_cost_min, m.ordinary_gap_min, m.interval_min, m.mtbi_min],
        np.array([w, w, 30.0, 1.0, 21.0, w]) / 60.0,
        atol=1e-10,
    )
    assert_allclose(
        [m.restart_min, m.restart_median_min, m.lost_work_per_failure_min, m.redone_step_min],
        np.array([90.0, 90.0, 31.0, 20.0]) / 60.0,
        atol=1e-10,
    )
    assert_allclose(m.measured_goodput, 80.0 / w, rtol=1e-12)
    assert_allclose(
        [m.checkpoint_loss_measured, m.lost_work_loss_measured, m.restart_loss_measured, m.unmodelled_loss],
        np.array([90.0, 31.0, 90.0, 42.0]) / w,
        atol=1e-12,
    )
    c, mt, r, t = 0.5, w / 60.0, 1.5, 21.0 / 60.0
    # A 21 s interval against a 5.5 min M is far outside the first-order formula's range (its goodput would be
    # 1 - C/T - T/(2M) - R/M < 0): the prediction is refused, not printed, as `goodput plan` refuses it.
    assert float(model.goodput(c, mt, r, t)) < 0 and not m.prediction_check.quotable
    assert all(math.isnan(x) for x in (m.checkpoint_loss_predicted, m.predicted_goodput))
    exact = measure(steps, events)
    assert_allclose(exact.predicted_goodput, exact_goodput(c, mt, r, t), rtol=1e-9)
    assert_allclose(exact.gap, exact.predicted_goodput - exact.measured_goodput)


def test_to_dict_is_plain_json(tmp_path: Path) -> None:
    """to_dict holds only JSON types: with one failure the t interval of R is undefined and becomes None."""
    m = measure(*write_pair(tmp_path, *tiny_text()))
    data = m.to_dict()
    text = json.dumps(data, allow_nan=False)
    for key in ("checkpoint_cost_min", "mtbi_min", "restart_min", "failures", "measured_goodput", "predicted_goodput",
                "interval_min", "mtbi_interval_min", "checkpoint_cost_interval_min", "unmodelled_loss"):
        assert key in data
    assert data["restart_interval_min"] == [None, None]
    assert isinstance(data["failures"], int) and isinstance(data["mtbi_min"], float)
    assert json.loads(text)["interval_source"] == "measured"


def test_given_interval_is_used(tmp_path: Path) -> None:
    """With T given, the prediction is at that T (exact checkpoint overhead e^{-R/M}(C/M)/(e^x - 1)) and the optimum
    is unchanged by it (first order: T* = sqrt(2CM))."""
    paths = write_pair(tmp_path, *tiny_text())
    m = measure(*paths, interval=2.0)
    assert m.interval_source == "given" and m.interval_min == 2.0
    c, mt, r = 0.5, 333.0 / 60.0, 1.5
    assert_allclose(m.checkpoint_loss_predicted, math.exp(-r / mt) * (c / mt) / math.expm1((2.0 + c) / mt))
    assert_allclose(measure(*paths, which="first-order").optimal_interval_min, math.sqrt(2 * c * mt))


def test_no_failure_gives_infinite_m_with_a_lower_bound(tmp_path: Path) -> None:
    """No failure: M = inf, its interval is [E / ln(2/0.05), inf), and the prediction is 1 - C/T at first order and
    T/(T + C) by the exact model (its limit as M grows)."""
    steps = ["step,start,end,checkpoint"] + [f"{n},{a},{b},{c}" for n, a, b, c in TINY_STEPS[:4]]
    paths = write_pair(tmp_path, steps, ["time,event", "0,start", "100,stop"])
    assert_allclose(measure(*paths).predicted_goodput, (21.0 / 60.0) / (21.0 / 60.0 + 0.5))
    m = measure(*paths, which="first-order")
    assert m.failures == 0 and math.isinf(m.mtbi_min) and math.isnan(m.restart_min)
    assert_allclose(m.mtbi_interval_min[0], (100.0 / 60.0) / math.log(2 / 0.05))
    assert math.isinf(m.mtbi_interval_min[1])
    # First order's 1 - C/T is below zero here (C = 30 s, T = 21 s): no prediction, and the reason.
    assert math.isnan(m.predicted_goodput) and m.prediction_check.status == "below zero"
    assert_allclose(m.prediction_check.goodput, 1.0 - 0.5 / (21.0 / 60.0))
    assert m.to_dict()["mtbi_min"] is None


# ---------------------------------------------------------------- bad logs


def _set(lines: list[str], line: int, text: str) -> list[str]:
    out = list(lines)
    out[line - 1] = text
    return out


Mutation = Callable[[list[str], list[str]], tuple[list[str], list[str]]]

BAD_LOGS: list[tuple[str, Mutation, list[str]]] = [
    ("missing step column", lambda s, e: (_set(s, 1, "step,begin,end,checkpoint"), e),
     ["steps.csv: column start", "got 'step,begin,end,checkpoint'", "columns step,start,end,checkpoint"]),
    ("missing event column", lambda s, e: (s, _set(e, 1, "time,kind")),
     ["events.csv: column event", "got 'time,kind'"]),
    ("unparsable step time", lambda s, e: (_set(s, 4, "3,5x7,67,0"), e),
     ["steps.csv:line 4", "got '5x7'", "a time in seconds", "column start"]),
    ("ISO time in a seconds file", lambda s, e: (_set(s, 4, "3,57,2025-01-06T00:01:07,0"), e),
     ["steps.csv:line 4", "got '2025-01-06T00:01:07'", "a time in seconds", "column end"]),
    ("empty time", lambda s, e: (_set(s, 4, "3,,67,0"), e),
     ["steps.csv:line 4", "got ''", "a time in seconds"]),
    ("unparsable event time", lambda s, e: (s, _set(e, 3, "1x40,failure")),
     ["events.csv:line 3", "got '1x40'", "a time in seconds"]),
    ("checkpoint flag 2", lambda s, e: (_set(s, 5, "4,68,78,2"), e),
     ["steps.csv:line 5", "got '2'", "a checkpoint flag, 0 or 1"]),
    ("checkpoint flag yes", lambda s, e: (_set(s, 5, "4,68,78,yes"), e),
     ["steps.csv:line 5", "got 'yes'", "a checkpoint flag, 0 or 1"]),
    ("fractional step number", lambda s, e: (_set(s, 5, "4.5,68,78,1"), e),
     ["steps.csv:line 5", "got '4.5'", "a whole step number"]),
    ("end before start", lambda s, e: (_set(s, 4, "3,57,50,0"), e),
     ["steps.csv:line 4", "got '3,57,50,0'", "ends before it starts"]),
    ("steps backwards in time", lambda s, e: (_set(s, 5, "4,60,78,1"), e),
     ["steps.csv:line 5", "end of the step before (line 4)", "backwards in time"]),
    ("blank line", lambda s, e: ([*s[:4], "", *s[4:]], e),
     ["steps.csv:line 5", "got ''", "not a blank line"]),
    ("extra field", lambda s, e: (_set(s, 6, "5,109,119,0,9"), e),
     ["steps.csv:line 6", "as many fields as the header"]),
    ("events out of order", lambda s, e: (s, _set(e, 4, "130,start")),
     ["events.csv:line 4", "got '130,start'", "events out of order"]),
    ("unknown event", lambda s, e: (s, _set(e, 3, "140,crash")),
     ["events.csv:line 3", "got 'crash'", "start, failure or stop"]),
    ("log begins with a failure", lambda s, e: (s, _set(e, 2, "0,failure")),
     ["events.csv:line 2", "a 'start' first"]),
    ("start while an attempt runs", lambda s, e: (s, _set(e, 3, "140,start")),
     ["events.csv:line 3", "the attempt that started at line 2 has not ended"]),
    ("failure with no attempt", lambda s, e: (s, _set(e, 4, "200,failure")),
     ["events.csv:line 4", "the attempt ended at line 3"]),
    ("log ends inside an attempt", lambda s, e: (s, e[:-1]),
     ["events.csv:line 4", "the log ends inside an attempt"]),
    ("empty steps file", lambda s, e: ([], e), ["steps.csv: got 'an empty file'"]),
    ("empty events file", lambda s, e: (s, []), ["events.csv: got 'an empty file'"]),
    ("header only", lambda s, e: (s[:1], e), ["steps.csv: got 'a header and no rows'"]),
    ("step past its attempt", lambda s, e: (_set(s, 7, "6,120,150,0"), e),
     ["steps.csv:line 7", "runs past the end of its attempt (", "events.csv:line 3)"]),
    ("step between attempts", lambda s, e: (_set(s, 7, "6,160,170,0"), e),
     ["steps.csv:line 7", "after the attempt ended (", "events.csv:line 3) and before the next 'start'"]),
    ("step before the first start", lambda s, e: (s, _set(e, 2, "6,start")),
     ["steps.csv:line 2", "starts before the first 'start'"]),
    ("step number repeats within an attempt", lambda s, e: (_set(s, 4, "2,57,67,0"), e),
     ["steps.csv:line 4", "a step number above 2 (line 3)", "repeat only after a 'start'"]),
    ("no checkpoint stall", lambda s, e: ([x[:-1] + "0" if i else x for i, x in enumerate(s)], e),
     ["steps.csv: column checkpoint", "to measure the checkpoint stall"]),
    ("clocks differ", lambda s, e: (s, tiny_text("iso8601")[1]),
     ["steps.csv and ", "events.csv: got 'seconds and iso8601'", "the same clock in both files"]),
]


@pytest.mark.parametrize(("mutate", "fragments"), [case[1:] for case in BAD_LOGS], ids=[case[0] for case in BAD_LOGS])
def test_bad_logs_raise_one_clear_error(tmp_path: Path, mutate: Mutation, fragments: list[str]) -> None:
    """Each bad log raises InputError naming the file, the line (header = line 1) and the problem."""
    steps, events = mutate(*tiny_text())
    with pytest.raises(InputError) as caught:
        measure(*write_pair(tmp_path, steps, events))
    message = str(caught.value)
    for fragment in fragments:
        assert fragment in message, message


def test_bad_iso_time_is_named(tmp_path: Path) -> None:
    """An ISO-8601 file with one unparsable timestamp names its line and the column."""
    steps, events = tiny_text("iso8601")
    steps = _set(steps, 4, "3,2025-01-06 noon,2025-01-06T00:01:07,0")
    with pytest.raises(InputError, match=r"steps\.csv:line 4: got '2025-01-06 noon', expected an ISO-8601 time"):
        read_steps(write_pair(tmp_path, steps, events)[0])


def test_mixed_offsets_are_refused(tmp_path: Path) -> None:
    """Timestamps with a UTC offset and without it in one file cannot share a clock: the first odd row is named."""
    steps, events = tiny_text("iso8601-offset")
    steps = _set(steps, 6, "5,2025-01-06T00:01:49,2025-01-06T02:01:59+02:00,0")
    with pytest.raises(InputError, match=r"steps\.csv:line 6: got '2025-01-06T00:01:49'.*with a UTC offset"):
        read_steps(write_pair(tmp_path, steps, events)[0])


def test_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    """A UTF-8 byte order mark before the header (as some spreadsheets write) changes nothing: same answer as without."""
    plain = measure(*write_pair(tmp_path, *tiny_text()))
    steps, events = tmp_path / "steps.csv", tmp_path / "events.csv"
    steps.write_bytes(b"\xef\xbb\xbf" + steps.read_bytes())
    assert measure(steps, events).to_dict() == plain.to_dict()


def test_missing_file_is_named(tmp_path: Path) -> None:
    """A file that does not exist is named in the error."""
    with pytest.raises(InputError, match=r"nothere\.csv"):
        read_events(tmp_path / "nothere.csv")


# ---------------------------------------------------------------- generated logs


NOISE_FREE = SampleSpec(step_s=20.0, interval_steps=60, checkpoint_cost_min=1.0, restart_min=5.0, startup_min=2.0,
                        mtbi_min=186.0, duration_min=60 * 24 * 60.0, seed=1)


@pytest.fixture(scope="module")
def noise_free(tmp_path_factory: pytest.TempPathFactory) -> tuple[SampleTruth, Measurement]:
    """60 days of noise-free 20-second steps, T = 20 min, C = 1 min, R = 5 min, M = 186 min.

    Writing and measuring 259,200 steps takes over a CPU-second, so every test that reads them is marked slow."""
    directory = tmp_path_factory.mktemp("noise-free")
    truth = write_logs(directory, NOISE_FREE)
    return truth, measure(directory / "steps.csv", directory / "events.csv")


@pytest.mark.slow
def test_generated_logs_recover_the_truth(noise_free: tuple[SampleTruth, Measurement]) -> None:
    """C and R come back within a few seconds, T exactly, and the true M lies in its 95% Garwood interval."""
    truth, m = noise_free
    assert_allclose([m.checkpoint_cost_min, m.restart_min, m.restart_median_min], [1.0, 5.0, 5.0], atol=3 / 60)
    assert_allclose(m.interval_min, truth.spec.interval_min, atol=1e-6)
    low, high = m.mtbi_interval_min
    assert low <= truth.spec.mtbi_min <= high
    assert m.failures == truth.failures and m.attempts == truth.attempts and m.redone_steps == truth.redone_steps
    assert_allclose(m.exposure_min, truth.exposure_min, rtol=1e-9)
    assert_allclose(m.mtbi_min, truth.exposure_min / truth.failures, rtol=1e-9)


@pytest.mark.slow
def test_measured_goodput_is_the_generators(noise_free: tuple[SampleTruth, Measurement]) -> None:
    """Measured goodput equals the simulation's own useful time / wall time (same survival rule, ms rounding)."""
    truth, m = noise_free
    assert_allclose(m.measured_goodput, truth.goodput, rtol=1e-6)


@pytest.mark.slow
def test_noise_free_goodput_matches_the_models(noise_free: tuple[SampleTruth, Measurement]) -> None:
    """Noise-free logs: measured goodput is the exact model T / (M e^{R/M} (e^{(T+C)/M} - 1)) at the measured inputs,
    which is the prediction (to 0.3 points, loss by loss to 3%); nothing is unmodelled.

    The first-order 1 - C/T - T/(2M) - R/M drops terms of order ((T+C)/M)^2 and
    sits about 0.6 points below (0.869 vs 0.876 at the worked example), so it
    agrees to within a point.
    """
    _, m = noise_free
    assert m.prediction_model == "exact"
    assert_allclose(m.measured_goodput, exact_goodput(1.0, m.mtbi_min, 5.0, 20.0), atol=0.005)
    assert_allclose(m.predicted_goodput, exact_goodput(m.checkpoint_cost_min, m.mtbi_min, m.restart_min, 20.0))
    assert_allclose(m.measured_goodput, m.predicted_goodput, atol=0.003)
    first = float(model.goodput(m.checkpoint_cost_min, m.mtbi_min, m.restart_min, 20.0))
    assert_allclose(m.measured_goodput, first, atol=0.01)
    assert abs(m.unmodelled_loss) < 1e-3
    # each measured loss is near the exact model's, which counts the checkpoints of work that survives
    assert_allclose(m.checkpoint_loss_measured, m.checkpoint_loss_predicted, rtol=0.03)
    assert_allclose(m.restart_loss_measured, m.restart_loss_predicted, rtol=0.03)
    assert_allclose(m.lost_work_per_failure_min, (20.0 + 1.0) / 2.0, rtol=0.1)


@pytest.mark.slow
def test_seconds_and_iso_clocks_agree(tmp_path: Path) -> None:
    """The same run written with a seconds clock and with ISO-8601 (UTC) timestamps gives the same measurement."""
    spec = replace(NOISE_FREE, duration_min=10 * 24 * 60.0, pause_probability=0.01, seed=7)
    (tmp_path / "s").mkdir()
    (tmp_path / "i").mkdir()
    write_logs(tmp_path / "s", spec)
    write_logs(tmp_path / "i", replace(spec, clock="iso8601"))
    a = measure(tmp_path / "s" / "steps.csv", tmp_path / "s" / "events.csv").to_dict()
    b = measure(tmp_path / "i" / "steps.csv", tmp_path / "i" / "events.csv").to_dict()
    assert read_steps(tmp_path / "i" / "steps.csv").clock == "iso8601 with UTC offsets"
    for key, value in a.items():
        if key.endswith("_source"):
            continue
        if isinstance(value, (float, list)):
            assert_allclose(np.array(b[key], dtype=float), np.array(value, dtype=float), rtol=1e-7, atol=1e-7, err_msg=key)
        else:
            assert b[key] == value, key


@pytest.mark.slow
def test_maintenance_is_unmodelled(tmp_path: Path) -> None:
    """With daily maintenance, the unmodelled loss is what the maintenance costs.

    Unmodelled time = first startup + for each planned stop (the checkpoint
    taken before it, C, + its downtime + the startup after it) + the tail
    after the last step (under one step and one checkpoint).
    """
    spec = replace(NOISE_FREE, duration_min=20 * 24 * 60.0, maintenance_every_min=24 * 60.0, maintenance_min=30.0, seed=3)
    truth = write_logs(tmp_path, spec)
    m = measure(tmp_path / "steps.csv", tmp_path / "events.csv")
    assert m.planned_stops == truth.planned_stops > 10
    expected = m.planned_downtime_min + (m.planned_stops + 1) * spec.startup_min + m.planned_stops * 1.0
    assert_allclose(m.unmodelled_loss * m.wall_min, expected, atol=spec.step_s / 60.0 + 1.0)
    assert_allclose(m.planned_downtime_min, 30.0 * m.planned_stops, rtol=1e-9)
    assert_allclose(m.measured_goodput, truth.goodput, rtol=1e-6)


@pytest.mark.slow
def test_jitter_and_pauses_leave_medians_alone(tmp_path: Path) -> None:
    """Uniform jitter of C and R is symmetric, so median C and mean R still come back; pauses only move the tail."""
    spec = replace(NOISE_FREE, duration_min=30 * 24 * 60.0, checkpoint_jitter=0.3, restart_jitter=0.5,
                              pause_probability=0.005, seed=11)
    write_logs(tmp_path, spec)
    m = measure(tmp_path / "steps.csv", tmp_path / "events.csv")
    assert_allclose([m.checkpoint_cost_min, m.restart_min], [1.0, 5.0], atol=3 / 60)
    assert m.restart_interval_min[0] <= 5.0 <= m.restart_interval_min[1]
    assert m.checkpoint_cost_iqr_min[1] - m.checkpoint_cost_iqr_min[0] > 0.2  # +/- 18 s uniform: IQR 18 s = 0.3 min


@pytest.mark.slow
def test_simulated_failure_count_is_poisson() -> None:
    """Over 200 seeded 10-day runs the failure count has mean exposure / M (Poisson), within 3 standard errors."""
    counts, means = [], []
    for seed in range(200):
        truth = simulate_logs(SampleSpec(step_s=300.0, interval_steps=4, duration_min=10 * 24 * 60.0, seed=seed)).truth
        counts.append(truth.failures)
        means.append(truth.exposure_min / truth.spec.mtbi_min)
    ratio = np.sum(counts) / np.sum(means)
    assert abs(ratio - 1.0) < 3.0 / math.sqrt(np.sum(means))


# ---------------------------------------------------------------- the book's sample logs


@pytest.mark.slow
def test_sample_logs_regenerate_byte_identical(tmp_path: Path) -> None:
    """write_sample_logs with the default seed reproduces book/data byte for byte."""
    write_sample_logs(tmp_path)
    for name in ("sample-steps.csv", "sample-events.csv", "truth.yml"):
        assert (tmp_path / name).read_bytes() == (BOOK_DATA / name).read_bytes(), name


@pytest.mark.slow
def test_book_sample_logs_recover_their_truth() -> None:
    """On the book's sample (jitter, pauses, maintenance) C and R come back within seconds and M within its interval."""
    import yaml

    truth = yaml.safe_load((BOOK_DATA / "truth.yml").read_text(encoding="utf-8"))
    m = measure(BOOK_DATA / "sample-steps.csv", BOOK_DATA / "sample-events.csv")
    assert truth["inputs"]["seed"] == BOOK_SAMPLE.seed
    assert_allclose([m.checkpoint_cost_min, m.restart_min], [BOOK_SAMPLE.checkpoint_cost_min, BOOK_SAMPLE.restart_min],
                    atol=5 / 60)
    assert m.mtbi_interval_min[0] <= BOOK_SAMPLE.mtbi_min <= m.mtbi_interval_min[1]
    assert m.failures == truth["outcome"]["failures"]
    assert_allclose(m.measured_goodput, truth["outcome"]["goodput"], rtol=1e-6)
    assert m.unmodelled_loss > 0.005  # the daily maintenance and the pauses


# ---------------------------------------------------------------- comparisons for the chapter on logs


@pytest.mark.slow
def test_loss_comparison_rows_add_up_to_the_gap(noise_free: tuple[SampleTruth, Measurement]) -> None:
    """Predicted - measured goodput = sum over the three losses of (measured - predicted) + unmodelled, exactly."""
    from goodput.logs.measure import LOSS_ROWS, loss_comparison

    _, m = noise_free
    table = loss_comparison(m)
    assert tuple(table) == LOSS_ROWS
    losses = [table[name] for name in LOSS_ROWS[:4]]
    assert_allclose(sum(row.adds for row in losses), m.gap, atol=1e-12)
    assert_allclose(table["goodput"].adds, m.predicted_goodput - m.measured_goodput)
    assert table["unmodelled"].predicted == 0.0
    assert_allclose(sum(row.measured for row in losses) + m.measured_goodput, 1.0)


@pytest.mark.slow
def test_surviving_checkpoint_loss_is_what_the_log_shows(noise_free: tuple[SampleTruth, Measurement]) -> None:
    """(C/T) x goodput: 1/20 x 0.8 = 0.04 exactly; on noise-free logs it is the measured checkpoint loss within 2%."""
    from goodput.logs.measure import surviving_checkpoint_loss

    assert surviving_checkpoint_loss(1.0, 20.0, 0.8) == pytest.approx(0.04, rel=1e-15)
    _, m = noise_free
    expected = surviving_checkpoint_loss(m.checkpoint_cost_min, m.interval_min, m.measured_goodput)
    assert_allclose(m.checkpoint_loss_measured, expected, rtol=0.02)
    assert m.checkpoint_loss_measured < float(model.checkpoint_overhead(m.interval_min, m.checkpoint_cost_min))


@pytest.mark.slow
def test_read_truth_round_trips(tmp_path: Path) -> None:
    """read_truth of the truth.yml that write_sample_logs writes gives back the SampleTruth it returned."""
    from goodput.logs.samples import read_truth

    truth = write_sample_logs(tmp_path)
    assert read_truth(tmp_path / "truth.yml") == truth
    assert read_truth(BOOK_DATA / "truth.yml") == truth


def test_read_truth_refuses_other_files(tmp_path: Path) -> None:
    """A YAML file that is not a truth file, or no file, is an InputError naming it."""
    from goodput.logs.samples import read_truth

    (tmp_path / "other.yml").write_text("gpus: 16384\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"other\.yml"):
        read_truth(tmp_path / "other.yml")
    with pytest.raises(InputError, match=r"missing\.yml"):
        read_truth(tmp_path / "missing.yml")


@pytest.mark.slow
def test_recovery_of_the_book_sample() -> None:
    """On the book's sample, C, M and R truths lie in their intervals; counts, exposure and goodput match exactly."""
    from goodput.logs.samples import read_truth, recovery

    truth = read_truth(BOOK_DATA / "truth.yml")
    m = measure(BOOK_DATA / "sample-steps.csv", BOOK_DATA / "sample-events.csv")
    table = recovery(m, truth)
    assert list(table.index) == ["C", "M", "R", "T", "failures", "planned stops", "exposure", "goodput"]
    assert table["agrees"].all()
    assert table.loc["M", "truth"] == 186.0 and table.loc["M", "low"] == m.mtbi_interval_min[0]
    assert table.loc["failures", "measured"] == truth.failures == 221


@pytest.mark.slow
def test_recovery_says_when_a_truth_is_outside() -> None:
    """A truth outside its interval, or a count that differs, gives agrees = False for that row only."""
    from goodput.logs.samples import read_truth, recovery

    truth = read_truth(BOOK_DATA / "truth.yml")
    m = measure(BOOK_DATA / "sample-steps.csv", BOOK_DATA / "sample-events.csv")
    wrong = truth.__class__(**{**truth.__dict__, "spec": replace(truth.spec, mtbi_min=300.0), "failures": 220})
    table = recovery(m, wrong)
    assert not table.loc["M", "agrees"] and not table.loc["failures", "agrees"]
    assert table.drop(["M", "failures"])["agrees"].all()


def test_a_column_given_twice_is_refused(tmp_path: Path) -> None:
    """A header with 'checkpoint' twice would let one copy be silently ignored: it is refused, naming the column."""
    steps, events = tiny_text()
    steps = ["step,start,end,checkpoint,checkpoint"] + [line + ",0" for line in steps[1:]]
    with pytest.raises(InputError, match=r"column checkpoint.*each column once"):
        measure(*write_pair(tmp_path, steps, events))


def test_a_step_number_beyond_int64_names_its_line(tmp_path: Path) -> None:
    """A step number of 30 digits does not fit a 64-bit integer: refused with the file and line, not a crash."""
    steps, events = tiny_text()
    steps[2] = "9" * 30 + steps[2][steps[2].index(","):]
    with pytest.raises(InputError, match=r"s\.csv:line 3"):
        measure(*write_pair(tmp_path, steps, events))


def test_a_restart_interval_from_step_and_event_logs_stops_at_zero(tmp_path: Path) -> None:
    """Two restarts far apart (seeded): the t interval of their mean reaches below zero. The event log alone cut it
    at zero; with a step log the command printed "95% interval -4.18 days to 12.2 days" for another such log."""
    from goodput.logs.samples import SampleSpec, write_logs

    write_logs(tmp_path, SampleSpec(seed=9, step_s=60.0, interval_steps=15, restart_min=10.0, restart_jitter=0.8,
                                    startup_min=2.0, mtbi_min=600.0, duration_min=1800.0))
    m = measure(tmp_path / "steps.csv", tmp_path / "events.csv")
    assert m.restart_samples == 2 and m.restart_interval_min[0] == 0.0 < m.restart_interval_min[1]
