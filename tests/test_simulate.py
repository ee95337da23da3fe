"""The simulator tests the formulas: Monte Carlo against the exact model and against renewal-reward theory."""

from __future__ import annotations

import io
import math

import numpy as np
import pytest
from numpy.testing import assert_allclose
from scipy.integrate import quad

from goodput.errors import InputError
from goodput.exact import exact_goodput, exact_losses, exact_optimal_interval
from goodput.simulate import (
    FailureProcess,
    SimulationResult,
    compare_intervals,
    effective_mtbi,
    expected_failures,
    normalize_schedule,
    run_age_mtbi,
    run_age_scale,
    run_age_schedule,
    segments_in,
    simulate,
    weibull_scale,
)

LOSSES = ("checkpoint_overhead", "lost_work", "restart_loss")


def assert_within(result: SimulationResult, expected: dict[str, float], sigmas: float = 4.0) -> None:
    """Each named fraction of `result` is within `sigmas` standard errors of the expected value."""
    errors = {"goodput": result.stderr} | {name: getattr(result, f"{name}_stderr") for name in LOSSES}
    for name, value in expected.items():
        simulated, error = getattr(result, name), errors[name]
        assert error > 0.0
        assert abs(simulated - value) <= sigmas * error, (
            f"{name}: simulated {simulated:.6f} +- {error:.1e}, expected {value:.6f}"
        )


def exact_fractions(cost: float, mtbi: float, restart: float, interval: float) -> dict[str, float]:
    """The exact model's goodput and three losses as a dict."""
    b = exact_losses(cost, mtbi, restart, interval)
    return {"goodput": b.goodput, **{name: getattr(b, name) for name in LOSSES}}


def renewal_reward(
    cost: float, restart: float, interval: float, survival, mean: float, tail: float
) -> dict[str, float]:  # type: ignore[no-untyped-def]
    """Long-run fractions for i.i.d. gaps X with survival function S and mean mu, by renewal-reward.

    Per gap: restart min(X, R), with E = int_0^R S(x) dx; completed segments floor((X - R)/(T + C)), with
    E = sum_{j>=1} S(R + j (T + C)). Goodput = T E[n]/mu, checkpoint = C E[n]/mu, restart = E[min(X, R)]/mu.
    `tail` is a length beyond which S is negligible.
    """
    cycles = np.arange(1, int(tail / (interval + cost)) + 2)
    segments = float(np.sum(survival(restart + cycles * (interval + cost))))
    restarting = quad(survival, 0.0, restart, limit=200)[0] / mean
    good, checkpointing = interval * segments / mean, cost * segments / mean
    return {
        "goodput": good,
        "checkpoint_overhead": checkpointing,
        "restart_loss": restarting,
        "lost_work": 1.0 - good - checkpointing - restarting,
    }


# ---------------------------------------------------------------- against the exact model

GRID = [
    (cost, restart, factor)
    for cost in (0.005, 0.05, 0.3, 1.0)
    for restart in (0.01, 0.5)
    for factor in ((1.0,) if restart == 0.5 else (1.0, 2.5))
]


@pytest.mark.parametrize(("cost", "restart", "factor"), GRID)
def test_matches_exact_model(cost: float, restart: float, factor: float) -> None:
    """Exponential failures: simulated goodput and each loss agree with the exact model within 4 standard errors:
    goodput e^{-R/M}(T/M)/(e^x - 1), checkpoint e^{-R/M}(C/M)/(e^x - 1), lost work e^{-R/M}(1 - x/(e^x - 1)),
    restart 1 - e^{-R/M}, x = (T + C)/M; at the optimum T* and at 2.5 T*. (M = 1; about 1.5 million failures.)"""
    interval = factor * exact_optimal_interval(cost, 1.0)
    seed = int(1000 * cost) + int(100 * restart) + int(10 * factor)
    result = simulate(cost, 1.0, restart, interval, 1.5e6, seed=seed)
    assert_within(result, exact_fractions(cost, 1.0, restart, interval))
    assert_allclose(result.goodput + sum(getattr(result, name) for name in LOSSES), 1.0, rtol=1e-12)
    assert abs(result.failures - 1.5e6) < 5.0 * math.sqrt(1.5e6)


def test_many_chunks_and_short_runs_agree_with_exact_model() -> None:
    """Tiny chunks (many chunk boundaries, the general code path) and many runs still reproduce the exact model
    at C/M = 0.05, R/M = 0.1 (runs of 20,000 M, so edge effects are far below the standard error)."""
    interval = exact_optimal_interval(5.0, 100.0)
    result = simulate(5.0, 100.0, 10.0, interval, 100.0 * 2e4 * 40, replicas=40, chunk_size=997, seed=11)
    assert_within(result, exact_fractions(5.0, 100.0, 10.0, interval))


def test_worked_example_goodput() -> None:
    """At the worked example (C = 1, M = 185.6, R = 5, T = 18.6) the simulated goodput is the exact 87.6%,
    half a point above the first-order 86.9%, and that gap is many standard errors wide."""
    result = simulate(1.0, 185.6, 5.0, exact_optimal_interval(1.0, 185.6), 185.6 * 4e6, seed=5)
    assert_within(result, {"goodput": exact_goodput(1.0, 185.6, 5.0)})
    assert result.goodput - 0.869 > 10.0 * result.stderr


def test_without_failures_the_arithmetic_is_deterministic() -> None:
    """With M far beyond the run no failure happens: a run of L minutes keeps floor(L/(T + C)) segments, spends no
    time restarting (a run starts by computing) and loses only the unfinished segment at its end."""
    run = 2510.0
    result = simulate(1.0, 1e15, 5.0, 19.0, 4 * run, replicas=4, seed=0)
    assert result.failures == 0
    segments = math.floor(run / 20.0)
    assert result.checkpoints == 4 * segments
    assert_allclose(result.goodput, segments * 19.0 / run, rtol=1e-12)
    assert_allclose(result.checkpoint_overhead, segments * 1.0 / run, rtol=1e-12)
    assert result.restart_loss == 0.0
    assert_allclose(result.lost_work, (run - segments * 20.0) / run, atol=1e-12)
    assert result.stderr == 0.0


def test_standard_error_matches_the_spread_over_seeds() -> None:
    """The reported standard error is the spread of goodput between independent simulations: over 24 seeds the
    sample standard deviation of goodput is within [0.6, 1.5] times the mean reported standard error."""
    results = [simulate(5.0, 100.0, 10.0, 30.0, 100.0 * 2e4, seed=seed) for seed in range(100, 124)]
    spread = np.std([r.goodput for r in results], ddof=1)
    reported = np.mean([r.stderr for r in results])
    assert 0.6 < spread / reported < 1.5


def test_same_seed_same_result_other_seed_other_result() -> None:
    """A run is a pure function of its inputs and seed."""
    a = simulate(1.0, 185.6, 5.0, 19.0, 1e7, seed=4)
    assert a == simulate(1.0, 185.6, 5.0, 19.0, 1e7, seed=4)
    assert a.goodput != simulate(1.0, 185.6, 5.0, 19.0, 1e7, seed=5).goodput


# ---------------------------------------------------------------- other failure processes


@pytest.mark.parametrize("hazard", ["renewal", "run-age"])
def test_weibull_shape_one_is_exponential(hazard: str) -> None:
    """Weibull with shape 1 has scale M under both conventions, so it reproduces the exponential case:
    identical to failures='exponential' with the same seed, and within 4 standard errors of the exact model."""
    interval = exact_optimal_interval(2.0, 100.0)
    weibull = simulate(2.0, 100.0, 5.0, interval, 1e8, process=FailureProcess("weibull", shape=1.0, hazard=hazard), seed=8)
    exponential = simulate(2.0, 100.0, 5.0, interval, 1e8, process=FailureProcess(hazard=hazard), seed=8)
    assert_allclose(weibull.goodput, exponential.goodput, rtol=1e-12)
    assert weibull.failures == exponential.failures
    assert_within(weibull, exact_fractions(2.0, 100.0, 5.0, interval))
    assert weibull_scale(100.0, 1.0) == 100.0
    assert_allclose(run_age_scale(100.0, 1.0, 5e3), 100.0, rtol=1e-15)


def test_exponential_run_age_matches_renewal_statistically() -> None:
    """The run-age sampler (t_i = lam S_i^{1/k}) with k = 1 is a Poisson process of mean gap M: same exact goodput."""
    interval = exact_optimal_interval(2.0, 100.0)
    result = simulate(2.0, 100.0, 5.0, interval, 1e8, process=FailureProcess("weibull", hazard="run-age"), seed=21)
    assert_within(result, exact_fractions(2.0, 100.0, 5.0, interval))


@pytest.mark.parametrize("shape", [0.5, 0.7, 2.0])
def test_weibull_renewal_matches_renewal_reward(shape: float) -> None:
    """Weibull renewal gaps, mean M, scale lam = M/Gamma(1 + 1/k): goodput and losses agree with renewal-reward
    theory (S(x) = exp(-(x/lam)^k)) within 4 standard errors. Shape 0.5 is the 'infant mortality' case."""
    mtbi, cost, restart = 100.0, 2.0, 5.0
    interval = exact_optimal_interval(cost, mtbi)
    scale = mtbi / math.gamma(1.0 + 1.0 / shape)
    expected = renewal_reward(
        cost,
        restart,
        interval,
        lambda x: np.exp(-((np.asarray(x) / scale) ** shape)),
        mtbi,
        scale * 45.0 ** (1 / shape),
    )
    result = simulate(cost, mtbi, restart, interval, mtbi * 1e6, process=FailureProcess("weibull", shape=shape), seed=13)
    assert_within(result, expected)
    assert_allclose(weibull_scale(mtbi, shape), scale, rtol=1e-15)


def test_decreasing_hazard_renewal_differs_from_exponential() -> None:
    """With shape 0.5 (same mean gap) the renewal-reward goodput differs from the exponential one by far more
    than the simulation's standard error, and the simulation sees the difference (a test that could fail)."""
    interval = exact_optimal_interval(2.0, 100.0)
    weibull = simulate(2.0, 100.0, 5.0, interval, 1e8, process=FailureProcess("weibull", shape=0.5), seed=3)
    exponential = exact_goodput(2.0, 100.0, 5.0, interval)
    assert abs(weibull.goodput - exponential) > 10.0 * weibull.stderr


@pytest.mark.parametrize(("shape", "ratio"), [(0.5, 4.0), (0.7, 1.0), (1.5, 0.25)])
def test_run_age_failure_count(shape: float, ratio: float) -> None:
    """Run-age hazard (t/lam)^k with lam = P (M/P)^{1/k}: a run of length L has on average (L/lam)^k failures,
    which is L/M when L = P and 4^k P/M when L = 4P (more failures early for k < 1, fewer than L/M)."""
    mtbi, replicas, reference = 100.0, 400, 10_000.0
    run = ratio * reference
    result = simulate(
        1.0,
        mtbi,
        5.0,
        15.0,
        run * replicas,
        process=FailureProcess("weibull", shape=shape, hazard="run-age", reference_period=reference),
        replicas=replicas,
        seed=17,
    )
    mean = replicas * (run / run_age_scale(mtbi, shape, reference)) ** shape
    assert_allclose(mean, replicas * ratio**shape * reference / mtbi, rtol=1e-12)
    assert abs(result.failures - mean) < 4.0 * math.sqrt(mean)
    assert_allclose(
        expected_failures(
            mtbi,
            run * replicas,
            process=FailureProcess("weibull", shape=shape, hazard="run-age", reference_period=reference),
            replicas=replicas,
        ),
        mean,
        rtol=1e-12,
    )


def test_run_age_default_reference_is_the_run() -> None:
    """By default the reference period is one run, so a run of length L has L/M failures on average for any shape."""
    result = simulate(
        1.0, 100.0, 5.0, 15.0, 500 * 8000.0, process=FailureProcess("weibull", shape=0.5, hazard="run-age"), replicas=500, seed=19
    )
    mean = 500 * 8000.0 / 100.0
    assert abs(result.failures - mean) < 4.0 * math.sqrt(mean)


def test_bursts_with_zero_probability_are_exponential() -> None:
    """p = 0 is the plain exponential process (same seed, same result)."""
    base = simulate(1.0, 185.6, 5.0, 19.0, 1e8, seed=6)
    assert simulate(1.0, 185.6, 5.0, 19.0, 1e8, process=FailureProcess(burst_probability=0.0, burst_window=30.0), seed=6) == base


def test_bursts_match_renewal_reward_and_lower_goodput() -> None:
    """With probability p the next gap is U(0, w), else Exp(M): renewal-reward with S(x) = p max(0, 1 - x/w)
    + (1 - p) e^{-x/M} and mean (1 - p) M + p w/2 predicts the goodput and losses; goodput falls with p."""
    mtbi, p, window = 185.6, 0.3, 10.0
    interval = exact_optimal_interval(1.0, mtbi)

    def survival(x):  # type: ignore[no-untyped-def]
        x = np.asarray(x, dtype=float)
        return p * np.clip(1.0 - x / window, 0.0, 1.0) + (1.0 - p) * np.exp(-x / mtbi)

    mean = effective_mtbi(mtbi, p, window)
    assert_allclose(mean, (1 - p) * mtbi + p * window / 2)
    expected = renewal_reward(1.0, 5.0, interval, survival, mean, 45.0 * mtbi)
    bursty = simulate(1.0, mtbi, 5.0, interval, mtbi * 2e6, process=FailureProcess(burst_probability=p, burst_window=window), seed=9)
    assert_within(bursty, expected)
    assert_allclose(bursty.horizon / bursty.failures, mean, rtol=5.0 / math.sqrt(bursty.failures))
    plain = simulate(1.0, mtbi, 5.0, interval, mtbi * 2e6, seed=10)
    assert plain.goodput - bursty.goodput > 4.0 * math.hypot(plain.stderr, bursty.stderr)


# ---------------------------------------------------------------- schedules


def test_constant_schedule_equals_fixed_interval() -> None:
    """A schedule whose intervals are all T is the fixed interval T: the same result, exactly, with the same seed."""
    fixed = simulate(1.0, 185.6, 5.0, 19.0, 1e8, seed=2)
    schedule = [(3 * 1440.0, 19.0), (10 * 1440.0, 19.0), (math.inf, 19.0)]
    assert simulate(1.0, 185.6, 5.0, schedule, 1e8, seed=2) == fixed
    assert normalize_schedule(schedule) == ((math.inf,), (19.0,))


def test_schedule_boundary_beyond_the_run_is_the_first_interval() -> None:
    """A schedule that changes after the run ends never applies its second interval: same as the fixed first
    interval (same draws; only the order of floating-point sums may differ)."""
    fixed = simulate(1.0, 185.6, 5.0, 19.0, 3.2e7, seed=12)
    late = simulate(1.0, 185.6, 5.0, [(2e6, 19.0), (math.inf, 40.0)], 3.2e7, seed=12)
    for name in ("goodput", *LOSSES):
        assert_allclose(getattr(late, name), getattr(fixed, name), rtol=1e-9)
    assert late.failures == fixed.failures


def test_segments_split_at_boundaries_count_like_floor() -> None:
    """Splitting compute phases at schedule boundaries with equal intervals gives floor((end - start)/(T + C))
    segments, as without a schedule; with unequal intervals each segment uses the interval in force at its start."""
    rng = np.random.default_rng(0)
    start = rng.uniform(0.0, 100.0, 20000)
    end = start + rng.exponential(30.0, start.size)
    work, count = segments_in(start, end, (13.7, 50.0, 77.7, math.inf), (4.0, 4.0, 4.0, 4.0), 1.0)
    assert np.array_equal(count, np.floor((end - start) / 5.0))
    assert_allclose(work, 4.0 * count)
    # Interval 4 (cycle 5) for segments starting before 12, then 9 (cycle 10): from 0 to 31 the segments
    # start at 0, 5, 10 (three of 4 minutes, done at 15) and 15 (9 minutes, done at 25); the next would end at 35.
    work, count = segments_in(np.array([0.0, 0.0]), np.array([31.0, 14.0]), (12.0, math.inf), (4.0, 9.0), 1.0)
    assert_allclose(count, [4.0, 2.0])
    assert_allclose(work, [3 * 4.0 + 9.0, 8.0])


def test_schedule_is_the_time_average_of_its_intervals() -> None:
    """Interval T1 for the first half of each run and T2 for the second: goodput and losses are the averages of the
    exact model at T1 and at T2 (runs of 20,000 M, so the switch-over costs far less than the standard error)."""
    mtbi, run, replicas = 100.0, 2e6, 32
    t1, t2 = 8.0, 40.0
    result = simulate(2.0, mtbi, 5.0, [(run / 2, t1), (math.inf, t2)], run * replicas, replicas=replicas, seed=14)
    one, two = exact_fractions(2.0, mtbi, 5.0, t1), exact_fractions(2.0, mtbi, 5.0, t2)
    assert_within(result, {name: (one[name] + two[name]) / 2.0 for name in one})


# ---------------------------------------------------------------- bookkeeping


def test_progress_reports_the_whole_horizon() -> None:
    """A progress callable receives simulated minutes chunk by chunk, adding up to the horizon."""
    seen: list[float] = []
    simulate(1.0, 185.6, 5.0, 19.0, 3.2e8, chunk_size=50_000, progress=seen.append, seed=1)
    assert len(seen) > 5
    assert_allclose(sum(seen), 3.2e8, rtol=1e-9)


class _Terminal(io.StringIO):
    """A stderr that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_progress_bar_goes_to_stderr(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """progress=True draws a tqdm bar on stderr when it is a terminal, once PROGRESS_DELAY_S has passed (here 0),
    and nothing on stdout; on a stderr that is not a terminal (a log file, a pipe) it draws nothing."""
    monkeypatch.setattr("goodput.simulate.PROGRESS_DELAY_S", 0.0)
    simulate(1.0, 185.6, 5.0, 19.0, 1e7, progress=True, seed=1)
    assert capsys.readouterr().err == ""
    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    simulate(1.0, 185.6, 5.0, 19.0, 1e7, progress=True, seed=1)
    assert "simulated days" in terminal.getvalue()
    assert capsys.readouterr().out == ""


def test_a_short_simulation_shows_no_bar(capsys: pytest.CaptureFixture[str]) -> None:
    """Below PROGRESS_DELAY_S of work no bar appears at all (tqdm's delay decides, no guess of machine speed)."""
    simulate(1.0, 185.6, 5.0, 19.0, 1e6, progress=True, seed=1)
    assert capsys.readouterr().err == ""


def test_expected_failures() -> None:
    """Expected failures is horizon / ((1 - p) M + p w/2) for renewal processes."""
    assert_allclose(expected_failures(185.6, 1e9), 1e9 / 185.6)
    assert_allclose(expected_failures(100.0, 1e9, process=FailureProcess(burst_probability=0.5, burst_window=10.0)), 1e9 / 52.5)
    assert_allclose(expected_failures(100.0, 1e9, process=FailureProcess("weibull", shape=0.5)), 1e9 / 100.0, rtol=1e-12)


def test_runs_too_short_for_the_rhythm_are_refused() -> None:
    """Each run must last 100 times T + C + R (24.6 min here): 32 runs of a 3-hour horizon would be biased by
    their start and end, so it is refused by name instead."""
    with pytest.raises(InputError, match=r"horizon.*biased"):
        simulate(1.0, 185.6, 5.0, 18.6, 180.0)


def test_an_m_beyond_any_run_gives_no_failure_not_nonsense() -> None:
    """M of 1e300 years: no failure happens, goodput is T/(T + C) less the unfinished segment at each run's end."""
    result = simulate(1.0, 1e300 * 525_600, 5.0, 18.6, 1e8, seed=0)
    assert result.failures == 0
    assert_allclose(result.goodput, 18.6 / 19.6, rtol=1e-3)


def test_unbounded_work_is_refused_before_it_starts() -> None:
    """A horizon implying more than MAX_FAILURES failures (here M = 1 s over 10,000 years) is refused at once."""
    with pytest.raises(InputError, match="at most"):
        simulate(1e-4, 1 / 60, 1e-3, 1e-3, 1e4 * 525_600)


BAD = [
    ({"checkpoint_cost": 0.0}, "checkpoint_cost"),
    ({"checkpoint_cost": -1.0}, "checkpoint_cost"),
    ({"mtbi": math.nan}, "mtbi"),
    ({"mtbi": math.inf}, "mtbi"),
    ({"restart": -5.0}, "restart"),
    ({"interval": 0.0}, "interval"),
    ({"interval": math.nan}, "interval"),
    ({"interval": []}, "interval"),
    ({"interval": "19 min"}, "interval"),
    ({"interval": [(100.0, 10.0), (50.0, 20.0)]}, "interval[1]"),
    ({"interval": [(math.inf, 10.0), (1e9, 20.0)]}, "interval[0]"),
    ({"interval": [(100.0, -1.0)]}, "interval[0]"),
    ({"interval": [(100.0,)]}, "interval[0]"),
    ({"horizon": 0.0}, "horizon"),
    ({"horizon": math.inf}, "horizon"),
    ({"failures": "lognormal"}, "failures"),
    ({"failures": "weibull", "shape": 0.0}, "shape"),
    ({"failures": "weibull", "shape": -0.5}, "shape"),
    ({"failures": "weibull", "shape": math.nan}, "shape"),
    ({"failures": "weibull", "shape": 0.01}, "shape"),
    ({"shape": 0.5}, "shape"),
    ({"hazard": "calendar"}, "hazard"),
    ({"burst_probability": 1.0}, "burst_probability"),
    ({"burst_probability": -0.1}, "burst_probability"),
    ({"burst_probability": math.nan}, "burst_probability"),
    ({"burst_window": 0.0}, "burst_window"),
    ({"burst_probability": 0.2, "hazard": "run-age"}, "burst_probability"),
    ({"hazard": "run-age", "reference_period": -1.0}, "reference_period"),
    ({"replicas": 1}, "replicas"),
    ({"replicas": 2.5}, "replicas"),
    ({"seed": -1}, "seed"),
    ({"chunk_size": 0}, "chunk_size"),
    ({"progress": "yes"}, "progress"),
]


#: The simulator's keyword for each field of FailureProcess, as BAD names them.
PROCESS = {"failures": "kind", "shape": "shape", "hazard": "hazard", "burst_probability": "burst_probability",
           "burst_window": "burst_window", "reference_period": "reference_period"}


def _process(change: dict[str, object]) -> FailureProcess:
    return FailureProcess(**{PROCESS[k]: v for k, v in change.items() if k in PROCESS})  # type: ignore[arg-type]


@pytest.mark.parametrize(("change", "name"), BAD)
def test_bad_inputs_raise(change: dict[str, object], name: str) -> None:
    """Negative, zero, NaN or infinite durations, a shape outside [0.1, 20], a probability outside [0, 1), an
    unknown process or hazard, a bad schedule or too few replicas raise InputError naming the argument."""
    args: dict[str, object] = {
        "checkpoint_cost": 1.0,
        "mtbi": 185.6,
        "restart": 5.0,
        "interval": 19.0,
        "horizon": 1e6,
    } | {k: v for k, v in change.items() if k not in PROCESS}
    with pytest.raises(InputError) as caught:
        simulate(**args, process=_process(change))  # type: ignore[arg-type]
    assert caught.value.name == name


def test_hazard_spellings() -> None:
    """'run age', 'run-age' and 'run_age' name the same convention."""
    results = {
        simulate(1.0, 100.0, 5.0, 15.0, 1e6, process=FailureProcess("weibull", shape=0.5, hazard=h), seed=1).goodput
        for h in ("run age", "run-age", "Run_Age")
    }
    assert len(results) == 1


# --------------------------------------------------------------------------- paired comparisons and run-age schedules


def test_compare_intervals_sees_the_same_failures() -> None:
    """Every alternative sees the same failures: an interval against itself differs by exactly zero."""
    c = compare_intervals(1.0, 185.6, 5.0, [18.6, 18.6, [(1440.0, 10.0), (math.inf, 25.0)]], 600 * 185.6, seed=3)
    assert c.difference[0] == 0.0 and c.difference[1] == 0.0 and c.difference_stderr[1] == 0.0
    alone = simulate(1.0, 185.6, 5.0, [(1440.0, 10.0), (math.inf, 25.0)], 600 * 185.6, seed=3)
    assert c.goodput[2] == pytest.approx(alone.goodput, abs=1e-15) and c.failures == alone.failures


def test_compare_intervals_measures_the_exact_difference() -> None:
    """For exponential failures the paired difference matches exact_goodput(T1) - exact_goodput(T0) within 4 stderr,
    and its standard error is smaller than that of the difference of two independent estimates."""
    t0 = exact_optimal_interval(1.0, 185.6)
    c = compare_intervals(1.0, 185.6, 5.0, [t0, 2.0 * t0, 0.5 * t0], 20_000 * 185.6, seed=5)
    for i, t in enumerate((2.0 * t0, 0.5 * t0), start=1):
        expected = exact_goodput(1.0, 185.6, 5.0, t) - exact_goodput(1.0, 185.6, 5.0, t0)
        assert abs(c.difference[i] - expected) <= 4.0 * c.difference_stderr[i]
        assert c.difference_stderr[i] < 0.75 * math.hypot(c.stderr[0], c.stderr[i])  # unpaired stderr


def test_compare_intervals_refuses_no_alternatives() -> None:
    """An empty list of intervals is refused, naming it."""
    with pytest.raises(InputError, match="intervals"):
        compare_intervals(1.0, 185.6, 5.0, [], 1000.0)


def test_run_age_mtbi() -> None:
    """Over the whole reference period it is M; for k = 1/2 over [0, a] it is M sqrt(a/P); for k = 1 it is M."""
    period = 54 * 1440.0
    assert run_age_mtbi(185.6, 0.5, 0.0, period, period) == pytest.approx(185.6, rel=1e-12)
    for a in (0.01 * period, 0.25 * period, 2.0 * period):
        assert run_age_mtbi(185.6, 0.5, 0.0, a, period) == pytest.approx(185.6 * math.sqrt(a / period), rel=1e-12)
    assert run_age_mtbi(185.6, 1.0, 3000.0, 9000.0, period) == pytest.approx(185.6, rel=1e-12)
    with pytest.raises(InputError, match="start"):
        run_age_mtbi(185.6, 0.5, 9000.0, 3000.0, period)


def test_run_age_schedule() -> None:
    """Each period gets the exact optimum for its own M; with shape 1 every period gets the fixed optimum."""
    period = 54 * 1440.0
    cuts = [1440.0, 7 * 1440.0]
    schedule = run_age_schedule(1.0, 185.6, 0.5, cuts, period)
    assert [u for u, _ in schedule] == [*cuts, math.inf]
    first = exact_optimal_interval(1.0, 185.6 * math.sqrt(1440.0 / period))
    assert schedule[0][1] == pytest.approx(first, rel=1e-12)
    assert schedule[0][1] < schedule[1][1] < schedule[2][1]
    flat = run_age_schedule(1.0, 185.6, 1.0, cuts, period)
    assert all(t == pytest.approx(exact_optimal_interval(1.0, 185.6), rel=1e-12) for _, t in flat)
    with pytest.raises(InputError, match="boundaries"):
        run_age_schedule(1.0, 185.6, 0.5, [7 * 1440.0, 1440.0], period)
    with pytest.raises(InputError, match="boundaries"):
        run_age_schedule(1.0, 185.6, 0.5, [period], period)
