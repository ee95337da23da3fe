"""Monte Carlo simulation of a checkpointed job, to test the formulas and to go where they cannot.

Minutes throughout. The job computes segments of T, each followed by a checkpoint of C; a
failure discards the work since the last completed checkpoint and starts a restart of R,
which a failure starts over. A run starts computing at 0; at the horizon an unfinished
segment counts as lost work and an unfinished restart as restart, shifting the result from
the steady state of :mod:`goodput.exact` by about (T + C + R)/(run length).

Per gap X between failures, min(X, R) is restart and the rest cycles of T + C: kept work
floor((X - R)/(T + C)) T. Gaps are drawn in chunks of at most :data:`CHUNK_SIZE`, so
memory stays bounded.

Failure processes (:class:`FailureProcess`): ``"exponential"`` is Poisson with mean M;
``"weibull"`` with ``hazard="renewal"`` draws independent Weibull(k) gaps of mean M, scale
M / Gamma(1 + 1/k) (:func:`weibull_scale`); with ``hazard="run-age"`` (the brief's "more
failures in the first days of a run") failures are a non-homogeneous Poisson process of
cumulative hazard (t/lam)^k at run age t, sampled as t_i = lam S_i^(1/k) with S_i unit-rate
Poisson arrivals, lam = P (M/P)^(1/k) (:func:`run_age_scale`) so that a reference period P
(default one run) has P/M failures on average, as the worked example's M was measured (419
over 54 days). Shape 1 is exponential under both; ``"run age"`` and ``"run_age"`` are accepted.

Bursts (renewal processes only): after each failure, with probability p the next comes
uniformly within w minutes; the effective mean gap is (1 - p) M + p w/2 (:func:`effective_mtbi`).

Schedules: ``(until, interval)`` pairs; a segment starting (wall time since the run started)
before ``until`` and not before the previous pair's has that interval; the last applies on
(its until may be ``math.inf``). Applied exactly, segment by segment; equal neighbours merge.

Standard errors: the horizon is split into ``replicas`` runs, each starting afresh at age 0;
each estimate is the mean over runs and its standard error their standard deviation over
sqrt(replicas).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from goodput import validate
from goodput.errors import InputError
from goodput.units import format_duration

#: Most gaps drawn and processed at once (about 8 MB of float64 per array).
CHUNK_SIZE = 2**20

#: Accepted values of ``failures``.
FAILURE_PROCESSES = ("exponential", "weibull")

#: Accepted values of ``hazard``.
HAZARDS = ("renewal", "run-age")

#: Default number of independent runs the horizon is split into.
DEFAULT_REPLICAS = 32

#: Default burst window in minutes.
DEFAULT_BURST_WINDOW = 10.0

#: Smallest and largest Weibull shape accepted (beyond them the draws overflow or the mean is meaningless).
MIN_SHAPE, MAX_SHAPE = 0.1, 20.0

#: Each run must last at least this many times T + C + R: shorter runs are biased by their
#: start (a run begins computing, with no restart) and their end (an unfinished segment),
#: by about (T/2 + R) / run length, a point or more below 100 cycles.
MIN_RUN_RHYTHMS = 100.0

#: Most failures one simulation may draw (seconds to a minute of work on a slow machine).
MAX_FAILURES = 2.0e8

#: Seconds a simulation runs before its progress bar appears (tqdm's ``delay``).
PROGRESS_DELAY_S = 2.0

_MINUTES_PER_DAY = 1440.0

#: An interval schedule: (until wall-time minutes, interval minutes) pairs.
Schedule = Sequence[tuple[float, float]]

Progress = bool | Callable[[float], None] | None


@dataclass(frozen=True)
class SimulatedLosses:
    """What every simulation reports: goodput and the three losses as fractions of wall time, with standard errors.

    Shared by :class:`SimulationResult` and :class:`goodput.simulate_tiers.TierResult`, each of
    which says what its losses hold. Standard errors are over the independent runs; ``lost_work``
    includes the unfinished segment at each run's end; ``horizon`` and ``run_length`` are
    minutes; counts are over all runs.
    """

    goodput: float
    stderr: float
    checkpoint_overhead: float
    lost_work: float
    restart_loss: float
    checkpoint_overhead_stderr: float
    lost_work_stderr: float
    restart_loss_stderr: float
    failures: int
    horizon: float
    replicas: int
    run_length: float
    seed: int


def _over_runs(rows: npt.NDArray[np.float64]) -> tuple[list[float], list[float]]:
    """Each row's mean over runs (columns) and its standard error, the standard deviation / sqrt(runs)."""
    errors = rows.std(axis=1, ddof=1) / math.sqrt(rows.shape[1])
    return [float(m) for m in rows.mean(axis=1)], [float(e) for e in errors]


def losses_over_runs(fractions: npt.NDArray[np.float64], horizon: float, seed: int) -> dict[str, Any]:
    """:class:`SimulatedLosses`' fields but the counts, from per-run fractions (columns) of goodput and the losses.

    Rows: goodput, checkpoint, lost work, restart and (:class:`goodput.simulate_tiers.TierResult`) drain.
    """
    n_runs = fractions.shape[1]
    means, errors = _over_runs(fractions)
    names = ("goodput", "checkpoint_overhead", "lost_work", "restart_loss", "drain_loss")
    fields: dict[str, Any] = {"horizon": horizon, "replicas": n_runs, "run_length": horizon / n_runs, "seed": int(seed)}
    for name, mean, error in zip(names, means, errors, strict=False):
        fields[name] = mean
        fields["stderr" if name == "goodput" else f"{name}_stderr"] = error
    return fields


@dataclass(frozen=True)
class SimulationResult(SimulatedLosses):
    """Outcome of :func:`simulate`: the fields of :class:`SimulatedLosses`, and the checkpoints completed over all runs."""

    checkpoints: int


@dataclass(frozen=True)
class _Process:
    """A failure process resolved to what the sampler needs (times in units of `unit` minutes)."""

    run_age: bool
    unit: float
    inv_shape: float
    shape: float
    burst_probability: float
    burst_window: float  # in units
    mean_gap: float  # in units (renewal)
    count_cv2: float  # variance / mean of the number of failures in a long period


# --------------------------------------------------------------------------- checks


def _positive(value: Any, name: str) -> float:
    return validate.positive(value, name, validate.POSITIVE_MINUTES)


def _burst_probability(value: Any) -> float:
    return validate.share(value, "burst_probability", open_high=True)


def _shape(value: Any) -> float:
    k = validate.positive(value, "shape", f"a Weibull shape from {MIN_SHAPE:g} to {MAX_SHAPE:g}")
    if not MIN_SHAPE <= k <= MAX_SHAPE:
        raise InputError("shape", value, f"a Weibull shape from {MIN_SHAPE:g} to {MAX_SHAPE:g}")
    return k


@dataclass(frozen=True)
class FailureProcess:
    """How interruptions arrive: the failure process a simulation draws from (see the module docstring).

    Shape k from :data:`MIN_SHAPE` to :data:`MAX_SHAPE` (1 for exponential); p =
    ``burst_probability`` in [0, 1), w = ``burst_window`` minutes; ``reference_period`` (run-age
    only) defaults to one run. Raises InputError for an unknown kind or hazard, a shape out of
    range or other than 1 for exponential, p outside [0, 1), or bursts with the run-age hazard.

    >>> FailureProcess("weibull", shape=0.5, hazard="run age").hazard
    'run-age'
    """

    kind: str = "exponential"
    shape: float = 1.0
    hazard: str = "renewal"
    burst_probability: float = 0.0
    burst_window: float = DEFAULT_BURST_WINDOW
    reference_period: float | None = None

    def __post_init__(self) -> None:
        kind = validate.choice(self.kind, "failures", FAILURE_PROCESSES)
        k = _shape(self.shape)
        if kind == "exponential" and k != 1.0:
            raise InputError("shape", self.shape, "1 for exponential failures (a shape applies to Weibull failures)")
        hazard = validate.choice(self.hazard, "hazard", HAZARDS)
        p = _burst_probability(self.burst_probability)
        if hazard == "run-age" and p > 0.0:
            raise InputError("burst_probability", self.burst_probability, "0 with the run-age hazard (bursts need renewal)")
        period = None if self.reference_period is None else _positive(self.reference_period, "reference_period")
        for name, value in (("kind", kind), ("shape", k), ("hazard", hazard), ("burst_probability", p),
                            ("burst_window", _positive(self.burst_window, "burst_window")), ("reference_period", period)):
            object.__setattr__(self, name, value)

    @property
    def exponential(self) -> bool:
        """Whether this is a Poisson process without bursts (the exact model's assumption)."""
        return self.kind == "exponential" and self.burst_probability == 0.0

    def describe(self) -> str:
        """The process in a few words, e.g. ``"exponential"`` or ``"Weibull, shape 0.5, run-age hazard"``."""
        text = "exponential" if self.kind == "exponential" else f"Weibull, shape {self.shape:g}, {self.hazard} hazard"
        if self.burst_probability > 0.0:
            text += f", bursts (p = {self.burst_probability:g}, within {self.burst_window:g} min)"
        return text


#: Independent Poisson failures: the default process.
EXPONENTIAL = FailureProcess()


def normalize_schedule(interval: object) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Check an interval or a schedule and return it as (untils, intervals) with the last until infinite.

    Untils strictly increase; consecutive equal intervals are merged. Raises InputError if an
    interval is not finite and positive, an until is not positive, the untils do not increase,
    or an until other than the last is infinite.

    >>> normalize_schedule(20.0)
    ((inf,), (20.0,))
    >>> normalize_schedule([(4320, 10.0), (8640, 10.0), (math.inf, 20.0)])
    ((8640.0, inf), (10.0, 20.0))
    """
    expected = "a positive interval in minutes, or a list of (until minutes, interval minutes) pairs"
    if isinstance(interval, (int, float, np.floating, np.integer)) and not isinstance(interval, bool):
        return (math.inf,), (_positive(interval, "interval"),)
    if isinstance(interval, (str, bytes)) or not isinstance(interval, Sequence) or len(interval) == 0:
        raise InputError("interval", interval, expected)
    untils: list[float] = []
    intervals: list[float] = []
    previous = 0.0
    for position, pair in enumerate(interval):
        if isinstance(pair, (str, bytes)) or not isinstance(pair, Sequence) or len(pair) != 2:
            raise InputError(f"interval[{position}]", pair, "an (until minutes, interval minutes) pair")
        until_raw, length_raw = pair
        length = _positive(length_raw, f"interval[{position}]")
        try:
            until = float(until_raw)
        except (TypeError, ValueError):
            raise InputError(f"interval[{position}]", pair, "a number of minutes as its until") from None
        last = position == len(interval) - 1
        if math.isnan(until) or until <= previous or (math.isinf(until) and not last):
            raise InputError(
                f"interval[{position}]", pair, "untils that increase from above zero (only the last may be inf)"
            )
        previous = until
        if intervals and intervals[-1] == length:
            untils[-1] = until
        else:
            untils.append(until)
            intervals.append(length)
    untils[-1] = math.inf
    return tuple(untils), tuple(intervals)


# --------------------------------------------------------------------------- failure processes


def weibull_scale(mtbi: float, shape: float) -> float:
    """Scale of a Weibull distribution of mean M and shape k: lam = M / Gamma(1 + 1/k)."""
    return _positive(mtbi, "mtbi") / math.gamma(1.0 + 1.0 / _shape(shape))


def run_age_scale(mtbi: float, shape: float, reference_period: float) -> float:
    """Scale of the run-age hazard (t/lam)^k that gives P/M failures over the period P: lam = P (M/P)^(1/k)."""
    m = _positive(mtbi, "mtbi")
    k = _shape(shape)
    p = _positive(reference_period, "reference_period")
    return float(p * (m / p) ** (1.0 / k))


def effective_mtbi(mtbi: float, burst_probability: float = 0.0, burst_window: float = DEFAULT_BURST_WINDOW) -> float:
    """Mean gap between all failures, counting follow-ups in bursts: (1 - p) M + p w/2 minutes."""
    p = _burst_probability(burst_probability)
    return (1.0 - p) * _positive(mtbi, "mtbi") + p * _positive(burst_window, "burst_window") / 2.0


def _process(mtbi: float, process: FailureProcess, run_length: float) -> _Process:
    m = _positive(mtbi, "mtbi")
    if not isinstance(process, FailureProcess):
        raise InputError("process", process, "a FailureProcess")
    k, p = process.shape, process.burst_probability
    period = run_length if process.reference_period is None else process.reference_period
    if process.hazard == "run-age":
        unit = run_age_scale(m, k, period)
        return _Process(True, unit, 1.0 / k, k, 0.0, process.burst_window / unit, math.nan, 1.0)
    unit = weibull_scale(m, k)
    base_mean = math.gamma(1.0 + 1.0 / k)
    base_square = math.gamma(1.0 + 2.0 / k)
    wu = process.burst_window / unit
    mean = (1.0 - p) * base_mean + p * wu / 2.0
    square = (1.0 - p) * base_square + p * wu * wu / 3.0
    return _Process(False, unit, 1.0 / k, k, p, wu, mean, max(square / (mean * mean) - 1.0, 1.0))


def expected_failures(
    mtbi: float, horizon: float, *, process: FailureProcess = EXPONENTIAL, replicas: int = DEFAULT_REPLICAS
) -> float:
    """Expected number of failures a :func:`simulate` call will draw (for renewal processes, to within each run's first gap).

    >>> round(expected_failures(185.6, 10_000 * 525_600))
    28318966
    """
    h = _positive(horizon, "horizon")
    n = validate.whole(replicas, "replicas", 2)
    return _expected_count(_process(mtbi, process, h / n), h / n, n)


def _expected_count(proc: _Process, run_length: float, n_runs: int) -> float:
    run = run_length / proc.unit
    per_run = run**proc.shape if proc.run_age else run / proc.mean_gap
    return n_runs * per_run


# --------------------------------------------------------------------------- the per-gap arithmetic


def segments_in(
    start: npt.NDArray[np.float64],
    end: npt.NDArray[np.float64],
    untils: Sequence[float],
    intervals: Sequence[float],
    cost: float,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Kept work and completed segments (as floats) per compute phase [start, end) under a schedule.

    Each segment uses the interval in force when it starts; a segment of interval T completes
    after T + C. Every phase is counted at its start's interval, then the few that cross a
    boundary are split there. Phases with end <= start hold nothing.
    """
    bounds = np.asarray(untils, dtype=np.float64)
    entry = np.searchsorted(bounds, start, side="right")
    np.minimum(entry, bounds.size - 1, out=entry)  # phases starting past the last until: last interval
    length = np.asarray(intervals, dtype=np.float64)[entry]
    count = end - start
    np.maximum(count, 0.0, out=count)
    count /= length + cost
    np.floor(count, out=count)
    work = count * length
    crossing = np.flatnonzero(end > bounds[entry])  # the next boundary falls inside the phase
    if crossing.size == 0:
        return work, count
    current, stop = start.reshape(-1)[crossing], end.reshape(-1)[crossing]
    split_work, split_count = np.zeros(crossing.size), np.zeros(crossing.size)
    active = stop > current
    for until, interval in zip(untils, intervals, strict=True):
        cycle = interval + cost
        here = active & (current < until)
        fits = np.floor((stop - current) / cycle)
        if math.isinf(until):
            done = fits
            onward = np.zeros_like(here)
        else:
            starts = np.ceil((until - current) / cycle)
            done = np.minimum(fits, starts)
            onward = here & (fits >= starts)
            current = np.where(onward, current + starts * cycle, current)
        done = np.where(here, np.maximum(done, 0.0), 0.0)
        split_work += done * interval
        split_count += done
        active = onward | (active & ~here)
    work.reshape(-1)[crossing] = split_work
    count.reshape(-1)[crossing] = split_count
    return work, count


@dataclass(frozen=True)
class _Plan:
    """The inputs of one simulation in the process's time unit, and how to size a chunk."""

    process: _Process
    horizon: float  # one run
    restart: float
    cost: float
    untils: tuple[float, ...]
    intervals: tuple[float, ...]

    @property
    def fixed(self) -> bool:
        """Whether the interval is fixed (not a schedule)."""
        return len(self.intervals) == 1

    def expected_left(
        self, anchor: npt.NDArray[np.float64], s_last: npt.NDArray[np.float64]
    ) -> npt.NDArray[np.float64]:
        """Expected failures still to come in each run, given its last failure."""
        if self.process.run_age:
            left = np.maximum(self.horizon**self.process.shape - s_last, 0.0)
        else:
            left = np.maximum(self.horizon - anchor, 0.0) / self.process.mean_gap
        return np.asarray(left, dtype=np.float64)

    def margin(self, expected: float) -> float:
        """Extra draws so that a chunk reaches the horizon with near certainty (6 standard deviations)."""
        return 6.0 * math.sqrt(expected * self.process.count_cv2) + 32.0

    def columns(self, state: _State, live: npt.NDArray[np.intp], chunk: int) -> int:
        """Gaps to draw for each live run in the next chunk.

        Far from the horizon, draw what very likely stays short of it (so the fast path applies);
        then what very likely reaches it. Independent of the interval, so a schedule sees the same
        draws as a fixed interval.
        """
        left = self.expected_left(state.anchor[live], state.s_last[live])
        low, high = float(left.min()), float(left.max())
        widest = max(1, chunk // live.size)
        if low - self.margin(low) > 1024:
            return int(min(widest, low - self.margin(low)))
        return int(min(widest, math.ceil(high + self.margin(high))))


@dataclass
class _State:
    """Where each run of a block stands (times in the process's unit)."""

    anchor: npt.NDArray[np.float64]  # time of the last failure, or 0 at the start
    s_last: npt.NDArray[np.float64]  # run-age: unit-rate time of the last failure
    head: npt.NDArray[np.float64]  # 1 until the run's first failure: its first gap has no restart
    done: npt.NDArray[np.bool_]

    @classmethod
    def fresh(cls, size: int) -> _State:
        return cls(np.zeros(size), np.zeros(size), np.ones(size), np.zeros(size, dtype=bool))


@dataclass
class _Totals:
    """Per-run sums: restart time and scheduled work (process units), completed segments, failures."""

    restart: npt.NDArray[np.float64]
    work: npt.NDArray[np.float64]
    count: npt.NDArray[np.float64]
    failures: npt.NDArray[np.int64]


def _step(
    rng: np.random.Generator,
    plan: _Plan,
    draws: npt.NDArray[np.float64],
    state: _State,
    live: npt.NDArray[np.intp],
    rows: npt.NDArray[np.intp],
    totals: _Totals,
) -> None:
    """Draw one chunk of failures for the live runs of a block and add up what happened in it."""
    proc = plan.process
    which = rows[live]
    rng.standard_exponential(out=draws)
    if proc.run_age:
        # Non-homogeneous Poisson process: unit-rate arrival times S, then t = S^(1/k) (in units of lam).
        times = np.cumsum(draws, axis=1)
        times += state.s_last[live, None]
        state.s_last[live] = times[:, -1]
        if proc.inv_shape != 1.0:
            np.power(times, proc.inv_shape, out=times)
    else:
        gaps = draws
        if proc.inv_shape != 1.0:
            np.power(gaps, proc.inv_shape, out=gaps)  # Weibull(k) gaps, in units of lam
        if proc.burst_probability > 0.0:
            uniform = rng.random(gaps.shape)
            follow = uniform < proc.burst_probability
            uniform *= proc.burst_window / proc.burst_probability  # U/p is uniform on (0, 1) given U < p
            np.copyto(gaps, uniform, where=follow)
        span = gaps.sum(axis=1)
        if plan.fixed and np.all(state.anchor[live] + span < plan.horizon):
            # Fast path: every gap ends before the horizon, so only sums are needed.
            lead = plan.restart * state.head[live]
            gaps[:, 0] += lead  # a run starts computing: give its first gap a restart to take off later
            gaps -= plan.restart
            np.maximum(gaps, 0.0, out=gaps)
            beyond = gaps.sum(axis=1)  # compute time: sum of max(X - R, 0)
            gaps *= 1.0 / (plan.intervals[0] + plan.cost)
            np.floor(gaps, out=gaps)
            totals.restart[which] += span + lead - beyond  # sum of min(X, R)
            totals.count[which] += gaps.sum(axis=1)
            totals.failures[which] += gaps.shape[1]
            state.anchor[live] += span
            state.head[live] = 0.0
            return
        times = np.cumsum(gaps, axis=1)
        times += state.anchor[live, None]
    # General path: failure times, the horizon and (for a schedule) the wall-clock time of each gap.
    previous = np.empty_like(times)
    previous[:, 0] = state.anchor[live] - plan.restart * state.head[live]
    previous[:, 1:] = times[:, :-1]
    last = times[:, -1].copy()
    totals.failures[which] += np.count_nonzero(times < plan.horizon, axis=1)
    np.minimum(times, plan.horizon, out=times)
    np.minimum(previous, plan.horizon, out=previous)
    span = times - previous
    totals.restart[which] += np.minimum(span, plan.restart).sum(axis=1)
    if plan.fixed:
        span -= plan.restart
        np.maximum(span, 0.0, out=span)
        span *= 1.0 / (plan.intervals[0] + plan.cost)
        np.floor(span, out=span)
        totals.count[which] += span.sum(axis=1)
    else:
        previous += plan.restart  # compute phases run from previous + R to the next failure
        work, count = segments_in(previous, times, plan.untils, plan.intervals, plan.cost)
        totals.work[which] += work.sum(axis=1)
        totals.count[which] += count.sum(axis=1)
    state.anchor[live] = last
    state.head[live] = 0.0
    state.done[live] = last >= plan.horizon


def progress_bar(
    progress: Progress, horizon: float, desc: str = "simulating"
) -> tuple[Callable[[float], None] | None, Callable[[], None]]:
    """Turn a simulator's `progress` argument into (update(minutes) or None, close()).

    ``True``: a tqdm bar on stderr when it is a terminal, shown after :data:`PROGRESS_DELAY_S`
    seconds; a callable taking simulated minutes; or nothing. Anything else raises InputError.
    """
    if progress is None or progress is False:
        return None, lambda: None
    if progress is True:
        from tqdm import tqdm  # only when a bar is wanted

        bar = tqdm(
            total=horizon / _MINUTES_PER_DAY,
            file=sys.stderr,
            delay=PROGRESS_DELAY_S,
            disable=None,  # no bar when stderr is not a terminal (a log file, a pipe, a test)
            desc=desc,
            unit="day",
            bar_format="{desc}: {percentage:3.0f}%|{bar}| {n:.0f}/{total:.0f} simulated days [{elapsed}<{remaining}]",
        )
        def update(minutes: float) -> None:
            bar.update(min(minutes / _MINUTES_PER_DAY, bar.total - bar.n))  # sums of floats may overshoot

        return update, bar.close
    if callable(progress):
        return progress, lambda: None
    raise InputError("progress", progress, "True, False, None or a callable taking simulated minutes")


# --------------------------------------------------------------------------- the simulator


def simulate(
    checkpoint_cost: float,
    mtbi: float,
    restart: float,
    interval: float | Schedule,
    horizon: float,
    *,
    process: FailureProcess = EXPONENTIAL,
    replicas: int = DEFAULT_REPLICAS,
    seed: int = 0,
    chunk_size: int = CHUNK_SIZE,
    progress: Progress = None,
) -> SimulationResult:
    """Simulate a checkpointed job and measure its goodput and losses (see the module docstring for the model).

    Minutes; `interval` is T or a schedule (:func:`normalize_schedule`); `horizon` is split into
    `replicas` runs (at least 2). Same inputs and seed, same result. `progress` as for
    :func:`progress_bar`. Raises InputError for a non-positive or non-finite duration, a bad
    schedule, fewer than 2 replicas, runs shorter than :data:`MIN_RUN_RHYTHMS` times T + C + R
    (biased), or more than :data:`MAX_FAILURES` expected failures.

    >>> r = simulate(1.0, 185.6, 5.0, 18.6, 100 * 525_600, seed=1)
    >>> abs(r.goodput - 0.876) < 4 * r.stderr + 0.001
    True
    """
    return _simulate_runs(
        checkpoint_cost, mtbi, restart, interval, horizon, process=process, replicas=replicas, seed=seed,
        chunk_size=chunk_size, progress=progress,
    )[0]


def _simulate_runs(
    checkpoint_cost: float,
    mtbi: float,
    restart: float,
    interval: float | Schedule,
    horizon: float,
    *,
    process: FailureProcess,
    replicas: int,
    seed: int,
    chunk_size: int = CHUNK_SIZE,
    progress: Progress = None,
) -> tuple[SimulationResult, npt.NDArray[np.float64]]:
    """:func:`simulate`, and the per-run fractions (rows: goodput, checkpoint, lost work, restart)."""
    c = _positive(checkpoint_cost, "checkpoint_cost")
    m = _positive(mtbi, "mtbi")
    r_min = _positive(restart, "restart")
    h_min = _positive(horizon, "horizon")
    n_runs = validate.whole(replicas, "replicas", 2)
    chunk = validate.whole(chunk_size, "chunk_size", 1)
    seed = validate.whole(seed, "seed", 0)
    untils, intervals = normalize_schedule(interval)
    run_length = h_min / n_runs
    rhythm = max(intervals) + c + r_min
    if run_length < MIN_RUN_RHYTHMS * rhythm:
        raise InputError(
            "horizon", format_duration(h_min),
            f"at least {format_duration(MIN_RUN_RHYTHMS * n_runs * rhythm)}: each of the {n_runs} runs at least "
            f"{MIN_RUN_RHYTHMS:g} times T + C + R, or its estimate is biased by its start and end",
        )
    proc = _process(m, process, run_length)
    expected = _expected_count(proc, run_length, n_runs)
    if expected > MAX_FAILURES:
        raise InputError("horizon", format_duration(h_min),
                         f"a horizon with at most {MAX_FAILURES:.0e} failures (these inputs imply {expected:.2g})")
    update, close = progress_bar(progress, h_min)

    u = proc.unit
    plan = _Plan(proc, run_length / u, r_min / u, c / u, tuple(x / u for x in untils), tuple(x / u for x in intervals))
    totals = _Totals(np.zeros(n_runs), np.zeros(n_runs), np.zeros(n_runs), np.zeros(n_runs, dtype=np.int64))
    whole_run = plan.expected_left(np.zeros(1), np.zeros(1))[0]
    per_run = min(chunk, math.ceil(whole_run + plan.margin(whole_run)))
    block = max(1, chunk // per_run)  # runs simulated side by side
    buffer = np.empty(min(chunk, block * per_run))
    rng = np.random.default_rng(seed)
    try:
        for first in range(0, n_runs, block):
            rows = np.arange(first, min(first + block, n_runs))
            state = _State.fresh(rows.size)
            while not state.done.all():
                live = np.flatnonzero(~state.done)
                cols = plan.columns(state, live, chunk)
                if buffer.size < live.size * cols:
                    buffer = np.empty(live.size * cols)
                draws = buffer[: live.size * cols].reshape(live.size, cols)
                before = np.minimum(state.anchor[live], plan.horizon)
                _step(rng, plan, draws, state, live, rows, totals)
                if update is not None:
                    update(float((np.minimum(state.anchor[live], plan.horizon) - before).sum()) * proc.unit)
    finally:
        close()

    # Back to minutes, per run: kept work, completed checkpoints, restarts (less the R given to each
    # run's first gap) and, as the remainder, lost work.
    kept = totals.count * intervals[0] if plan.fixed else totals.work * proc.unit
    checkpointing = totals.count * c
    restarting = totals.restart * proc.unit - r_min
    lost = run_length - kept - checkpointing - restarting
    fractions = np.stack([kept, checkpointing, lost, restarting]) / run_length
    result = SimulationResult(failures=int(totals.failures.sum()), checkpoints=round(float(totals.count.sum())),
                              **losses_over_runs(fractions, h_min, seed))
    return result, fractions


# --------------------------------------------------------------------------- comparisons and schedules


@dataclass(frozen=True)
class Comparison:
    """Outcome of :func:`compare_intervals`: goodput of each interval on the same failures, and the differences.

    ``difference`` is each goodput minus the first; its standard error comes from the paired
    per-run differences (smaller than for two independent simulations).
    """

    goodput: tuple[float, ...]
    stderr: tuple[float, ...]
    difference: tuple[float, ...]
    difference_stderr: tuple[float, ...]
    failures: int
    horizon: float
    replicas: int
    seed: int


def compare_intervals(
    checkpoint_cost: float,
    mtbi: float,
    restart: float,
    intervals: Sequence[float | Schedule],
    horizon: float,
    *,
    process: FailureProcess = EXPONENTIAL,
    replicas: int = DEFAULT_REPLICAS,
    seed: int = 0,
) -> Comparison:
    """Simulate several intervals or schedules on the same failures and measure their differences precisely.

    Each runs :func:`simulate` with the same seed; the failure draws do not depend on the interval
    (common random numbers), so differences are measured run by run. Raises InputError for no
    alternatives or any input :func:`simulate` refuses.

    >>> c = compare_intervals(1.0, 185.6, 5.0, [18.6, 40.0], 1_000 * 185.6, seed=1)
    >>> c.difference[1] < 0 and c.difference_stderr[1] < c.stderr[1]
    True
    """
    if isinstance(intervals, (str, bytes)) or not isinstance(intervals, Sequence) or len(intervals) == 0:
        raise InputError("intervals", intervals, "a list of at least one interval or schedule")
    runs = [_simulate_runs(checkpoint_cost, mtbi, restart, interval, horizon, process=process, replicas=replicas,
                           seed=seed) for interval in intervals]
    counts = [result.failures for result, _ in runs]
    if len(set(counts)) != 1:  # pragma: no cover - the sampler draws the same failures whatever the interval
        raise RuntimeError(f"the alternatives saw different failures: {counts}")
    goodput = np.stack([fractions[0] for _, fractions in runs])
    (means, errors), (differences, paired) = _over_runs(goodput), _over_runs(goodput - goodput[0])
    return Comparison(tuple(means), tuple(errors), tuple(differences), tuple(paired), counts[0], float(horizon),
                      int(replicas), int(seed))


def run_age_mtbi(mtbi: float, shape: float, start: float, end: float, reference_period: float) -> float:
    """The mean time between failures over run ages [start, end) under the run-age hazard.

    (end - start) / ((end/lam)^k - (start/lam)^k), lam from :func:`run_age_scale`: M over
    [0, P); for k = 1/2 and start = 0, M sqrt(end/P). Raises InputError for a non-finite or
    non-positive input (start may be 0) or start >= end.

    >>> round(run_age_mtbi(186.0, 0.5, 0.0, 0.25 * 77_760, 77_760), 6)
    93.0
    """
    lam = run_age_scale(mtbi, shape, reference_period)
    k = float(shape)
    b = _positive(end, "end")
    a = validate.non_negative(start, "start", "a number of minutes from 0 to below end")
    if a >= b:
        raise InputError("start", start, "a number of minutes from 0 to below end")
    return float((b - a) / ((b / lam) ** k - (a / lam) ** k))


def run_age_schedule(
    checkpoint_cost: float, mtbi: float, shape: float, boundaries: Sequence[float], reference_period: float
) -> list[tuple[float, float]]:
    """An interval schedule that follows the run-age hazard: each period's interval is the exact optimum for its M.

    Periods are cut at `boundaries` (increasing run ages in (0, P)), the last running to P; each
    gets :func:`goodput.exact.exact_optimal_interval` at :func:`run_age_mtbi`. A heuristic, not
    the optimal aperiodic policy; shape 1 gives the fixed exact optimum. Raises InputError for
    bad inputs or boundaries.

    >>> [(u, round(t, 1)) for u, t in run_age_schedule(1.0, 186.0, 0.5, [19_440], 77_760)]
    [(19440, 13.0), (inf, 23.0)]
    """
    from goodput.exact import exact_optimal_interval

    period = _positive(reference_period, "reference_period")
    cuts = list(boundaries)
    previous = 0.0
    for position, cut in enumerate(cuts):
        value = _positive(cut, f"boundaries[{position}]")
        if value <= previous or value >= period:
            raise InputError(f"boundaries[{position}]", cut, "run ages that increase within (0, reference_period)")
        previous = value
    return [
        (until, float(exact_optimal_interval(checkpoint_cost, run_age_mtbi(mtbi, shape, a, b, period))))
        for until, a, b in zip([*cuts, math.inf], [0.0, *cuts], [*cuts, period], strict=True)
    ]
