"""The drain / two-tier simulator: against closed forms where they exist, and against a slow event-by-event reference.

The reference (:func:`reference_run`) follows the rules in :mod:`goodput.simulate_tiers`'s docstring literally, one
event at a time (segment compute ends, snapshot ends, drain ends, restart ends, interruption), keeping the list of
completed checkpoints and booking each piece of wall time when its fate is known. It shares no code with
goodput.simulate_tiers: it is compared with it path by path on the same interruptions (exact agreement) and
statistically on its own draws.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from goodput.errors import InputError
from goodput.simulate import simulate
from goodput.simulate_tiers import TierResult, _advance, _fractions, _State, _Tiers, simulate_tiers

NAMES = ("goodput", "checkpoint_overhead", "lost_work", "restart_loss", "drain_loss")
LOSSES = NAMES[1:]


def total_loss(result: TierResult) -> float:
    """The sum of the four losses (one minus goodput)."""
    return sum(getattr(result, name) for name in LOSSES)


def value_and_error(result: TierResult, name: str) -> tuple[float, float]:
    """A fraction of `result` and its standard error."""
    return getattr(result, name), result.stderr if name == "goodput" else getattr(result, f"{name}_stderr")


def assert_within(result: TierResult, expected: dict[str, float], sigmas: float = 4.0) -> None:
    """Each named fraction of `result` is within `sigmas` standard errors of the expected value."""
    for name, value in expected.items():
        simulated, error = value_and_error(result, name)
        assert error > 0.0, name
        assert abs(simulated - value) <= sigmas * error, (
            f"{name}: simulated {simulated:.6f} +- {error:.1e}, expected {value:.6f}, "
            f"z = {(simulated - value) / error:.2f}"
        )


def single_level(cost: float, mtbi: float, restart: float, interval: float) -> dict[str, float]:
    """The single-level exact model: goodput e^{-R/M} (T/M)/(e^x - 1), checkpoint e^{-R/M} (C/M)/(e^x - 1),
    lost work e^{-R/M} (1 - x/(e^x - 1)), restart 1 - e^{-R/M}, x = (T + C)/M."""
    x = (interval + cost) / mtbi
    survive = math.exp(-restart / mtbi)
    return {
        "goodput": survive * (interval / mtbi) / math.expm1(x),
        "checkpoint_overhead": survive * (cost / mtbi) / math.expm1(x),
        "lost_work": survive * (1.0 - x / math.expm1(x)),
        "restart_loss": -math.expm1(-restart / mtbi),
    }


# --------------------------------------------------------------------------- the reference


@dataclass(frozen=True)
class Case:
    """One set of inputs (minutes)."""

    cost: float
    mtbi: float
    restart: float
    interval: float
    drain: float = 0.0
    persistent_cost: float | None = None
    persistent_restart: float | None = None
    fast_survives: float = 0.0
    persistent_every: int = 1

    def keywords(self) -> dict[str, Any]:
        return {
            "drain": self.drain,
            "persistent_cost": self.persistent_cost,
            "persistent_restart": self.persistent_restart,
            "fast_survives": self.fast_survives,
            "persistent_every": self.persistent_every,
        }

    def run(self, horizon: float, seed: int = 0) -> TierResult:
        return simulate_tiers(self.cost, self.mtbi, self.restart, self.interval, horizon, **self.keywords(), seed=seed)

    def tiers(self) -> _Tiers:
        return _Tiers.check(
            self.cost, self.restart, self.interval, self.drain, self.persistent_cost, self.persistent_restart,
            self.fast_survives, self.persistent_every,
        )  # fmt: skip


def reference_run(case: Case, run_length: float, interruptions: Iterator[tuple[float, bool]]) -> dict[str, float]:
    """Simulate one run event by event and return the minutes in each category, the counts, and branch tallies.

    `interruptions` yields (minutes since the previous interruption or the start, soft?) pairs.
    """
    T, C, R = case.interval, case.cost, case.restart
    Cp = C if case.persistent_cost is None else case.persistent_cost
    Rp = R if case.persistent_restart is None else case.persistent_restart
    D, n = case.drain, case.persistent_every
    inf = math.inf

    minutes = {"lost_work": 0.0, "restart_loss": 0.0, "drain_loss": 0.0}
    seen: Counter[str] = Counter()
    chain: list[tuple[float, float]] = []  # completed checkpoints since the start: (segment compute, snapshot)
    durable = 0  # chain[:durable] is covered by the latest durable persistent checkpoint
    pending: int | None = None  # chain length at a persistent checkpoint that is not durable yet
    drain_end = inf  # when the drain in progress ends; inf when none is in progress
    mode = "compute"  # "compute", "snapshot" or "restart"
    t = 0.0
    phase_end = T
    segment_start = 0.0  # when the segment in progress started computing
    snapshot_cost = 0.0
    restart_kind = ""  # "R" or "Rp"
    restart_start = 0.0
    gap, soft = next(interruptions)
    interruption = gap

    def roll_back_to_durable() -> None:
        nonlocal pending, drain_end
        if pending is not None:
            for work, snap in chain[durable:pending]:
                minutes["drain_loss"] += work + snap
            rest = chain[pending:]
            seen["drain cycle lost"] += 1
        else:
            rest = chain[durable:]
        for work, snap in rest:
            minutes["lost_work"] += work + snap
        if rest:
            seen["fast checkpoints lost"] += 1
        del chain[durable:]
        pending = None
        drain_end = inf

    def start_restart(kind: str) -> None:
        nonlocal mode, restart_kind, restart_start, phase_end
        mode, restart_kind, restart_start = "restart", kind, t
        phase_end = t + (R if kind == "R" else Rp)

    while True:
        following = min(interruption, phase_end, drain_end)
        if run_length <= following:  # the end of the run
            t = run_length
            if mode == "restart":
                minutes["restart_loss"] += t - restart_start
            else:
                minutes["lost_work"] += t - segment_start
            break
        if drain_end == following:  # the drain ends: the pending checkpoint is durable
            t = drain_end
            assert pending is not None and mode != "restart"
            durable, pending, drain_end = pending, None, inf
            seen["drain done"] += 1
        elif phase_end == following:
            t = phase_end
            if mode == "compute":  # compute done: the snapshot, persistent if this is the n-th checkpoint
                mode = "snapshot"
                snapshot_cost = Cp if (len(chain) + 1) % n == 0 else C
                phase_end = t + snapshot_cost
            elif mode == "snapshot":  # snapshot done: a completed checkpoint
                chain.append((T, snapshot_cost))
                if len(chain) % n == 0:
                    if D == 0.0:
                        durable = len(chain)
                    else:
                        assert pending is None  # D <= T: one drain at a time
                        pending, drain_end = len(chain), t + D
                mode, segment_start, phase_end = "compute", t, t + T
            else:  # restart done: compute resumes, and a pending checkpoint's drain starts from scratch
                minutes["restart_loss"] += t - restart_start
                mode, segment_start, phase_end = "compute", t, t + T
                if pending is not None:
                    drain_end = t + D
        else:  # an interruption
            t = interruption
            seen["soft" if soft else "hard"] += 1
            if mode == "restart":
                minutes["restart_loss"] += t - restart_start
                if restart_kind == "Rp" or soft:
                    seen[f"{'soft' if soft else 'hard'} during {restart_kind}"] += 1
                    start_restart(restart_kind)  # over again, from the same checkpoint
                else:
                    seen["hard during R" + (" from pending" if pending is not None else "")] += 1
                    roll_back_to_durable()
                    start_restart("Rp")
            else:
                minutes["lost_work"] += t - segment_start  # the partial segment (compute and any snapshot)
                if drain_end < inf:
                    seen[f"{'soft' if soft else 'hard'} during drain"] += 1
                drain_end = inf  # any drain in progress is abandoned
                if soft:  # back to the latest completed checkpoint of either tier
                    start_restart("R")
                else:
                    roll_back_to_durable()
                    start_restart("Rp")
            gap, soft = next(interruptions)
            interruption = t + gap

    kept = {
        "goodput": sum(work for work, _ in chain),
        "checkpoint_overhead": sum(snap for _, snap in chain),
    }
    out = {name: value / run_length for name, value in (kept | minutes).items()}
    out["failures"] = seen["soft"] + seen["hard"]
    out["hard_failures"] = seen["hard"]
    return out | {f"seen: {key}": float(value) for key, value in seen.items()}


def random_interruptions(case: Case, rng: random.Random) -> Iterator[tuple[float, bool]]:
    """Poisson interruptions of mean gap M, each soft with probability s."""
    while True:
        yield rng.expovariate(1.0 / case.mtbi), rng.random() < case.fast_survives


def given_interruptions(gaps: npt.NDArray[np.float64], soft: npt.NDArray[np.bool_]) -> Iterator[tuple[float, bool]]:
    """The interruptions of one run, from arrays."""
    yield from zip(gaps.tolist(), soft.tolist(), strict=True)


def reference(
    case: Case, run_length: float, runs: int, seed: int
) -> tuple[dict[str, tuple[float, float]], Counter[str]]:
    """Mean and standard error over `runs` reference runs of each fraction, and the branch tallies summed."""
    rows = [reference_run(case, run_length, random_interruptions(case, random.Random(seed + i))) for i in range(runs)]
    tallies: Counter[str] = Counter()
    for row in rows:
        tallies.update({key[6:]: int(v) for key, v in row.items() if key.startswith("seen: ")})
    stats = {}
    for name in NAMES:
        values = np.array([row[name] for row in rows])
        stats[name] = (float(values.mean()), float(values.std(ddof=1) / math.sqrt(runs)))
    return stats, tallies


def _replay(
    tiers: _Tiers, run_length: float, gaps: npt.NDArray[np.float64], soft: npt.NDArray[np.bool_]
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The simulator's state machine on given gaps (rows: steps, columns: runs): fractions, failures, hard ones."""
    state = _State.fresh(gaps.shape[1])
    for gap, flag in zip(gaps, soft, strict=True):
        _advance(tiers, run_length, state, np.array(gap, dtype=np.float64), np.asarray(flag, dtype=bool))
    if np.any(state.clock < run_length):
        raise ValueError("the gaps end before the run does")
    return _fractions(tiers, run_length, state), state.failures, state.hard


def replay_both(case: Case, run_length: float, runs: int, seed: int) -> None:
    """Same interruptions through the vectorized state machine and the reference: equal per run, to rounding."""
    rng = np.random.default_rng(seed)
    steps = int(run_length / case.mtbi + 8.0 * math.sqrt(run_length / case.mtbi) + 20.0)
    gaps = rng.exponential(case.mtbi, (steps, runs))
    soft = rng.random((steps, runs)) < case.fast_survives
    fractions, failures, hard = _replay(case.tiers(), run_length, gaps, soft)
    for i in range(runs):
        expected = reference_run(case, run_length, given_interruptions(gaps[:, i], soft[:, i]))
        got = dict(zip(NAMES, fractions[:, i], strict=True))
        for name in NAMES:
            assert got[name] == pytest.approx(expected[name], abs=1e-9), (name, i, case)
        assert failures[i] == expected["failures"] and hard[i] == expected["hard_failures"]


# Each case aims at some branches of the spec; `needs` lists reference tallies that must occur in it.
CASES = {
    "one tier, drain": (Case(1.0, 30.0, 3.0, 10.0, drain=6.0), ("hard during drain", "hard during Rp")),
    "two tiers, no drain": (
        Case(1.0, 60.0, 2.0, 8.0, persistent_cost=4.0, persistent_restart=8.0, fast_survives=0.6, persistent_every=3),
        ("fast checkpoints lost", "hard during R", "soft during R"),
    ),
    "two tiers, drain, long restarts": (
        Case(1.0, 25.0, 6.0, 10.0, drain=8.0, persistent_cost=3.0, persistent_restart=15.0, fast_survives=0.5,
             persistent_every=2),
        ("hard during R from pending", "hard during R", "soft during drain", "hard during drain", "soft during Rp"),
    ),
    "all soft, D = T": (
        Case(0.5, 20.0, 2.0, 5.0, drain=5.0, persistent_cost=2.0, persistent_restart=10.0, fast_survives=1.0,
             persistent_every=4),
        ("soft during drain", "soft during R", "drain done"),
    ),
    "mostly soft, drain = T": (
        Case(0.5, 15.0, 1.0, 6.0, drain=6.0, persistent_cost=1.5, persistent_restart=4.0, fast_survives=0.8,
             persistent_every=3),
        ("soft during drain", "hard during drain", "hard during R from pending", "fast checkpoints lost"),
    ),
    "n = 1, two restart tiers": (
        Case(1.0, 20.0, 2.0, 7.0, drain=3.0, persistent_cost=2.0, persistent_restart=6.0, fast_survives=0.5),
        ("soft during drain", "hard during R from pending", "hard during drain"),
    ),
}  # fmt: skip


# --------------------------------------------------------------------------- closed forms


@pytest.mark.slow
def test_one_tier_without_drain_is_the_single_level_model() -> None:
    """Defaults (one tier, no drain), C = 1, M = 185.6, R = 5, T = 18.6: goodput T e^{-R/M}/(M (e^x - 1)) and the
    losses checkpoint e^{-R/M} (C/M)/(e^x - 1), lost work e^{-R/M} (1 - x/(e^x - 1)), restart 1 - e^{-R/M},
    x = (T + C)/M, each within 4 standard errors; drain loss exactly 0 (about a million interruptions)."""
    result = simulate_tiers(1.0, 185.6, 5.0, 18.6, 185.6 * 1e6, seed=1)
    assert_within(result, single_level(1.0, 185.6, 5.0, 18.6))
    assert result.drain_loss == 0.0 and result.drain_loss_stderr == 0.0
    assert result.hard_failures == result.failures
    assert abs(result.failures - 1e6) < 5.0 * math.sqrt(1e6)


@pytest.mark.slow
def test_one_tier_agrees_with_the_single_level_simulator() -> None:
    """The single-level simulator goodput.simulate.simulate and this one, each on its own draws, agree for goodput
    and the three losses within 4 combined standard errors, sqrt(se1^2 + se2^2)."""
    mine = simulate_tiers(2.0, 100.0, 10.0, 25.0, 100.0 * 1e6, seed=2)
    theirs = simulate(2.0, 100.0, 10.0, 25.0, 100.0 * 1e6, seed=3)
    pairs = [("goodput", "stderr")] + [(name, f"{name}_stderr") for name in LOSSES[:-1]]
    for name, error in pairs:
        combined = math.hypot(getattr(mine, error), getattr(theirs, error))
        assert abs(getattr(mine, name) - getattr(theirs, name)) <= 4.0 * combined, name


@pytest.mark.parametrize(
    ("cost", "mtbi", "restart", "interval", "drain"),
    [
        (1.0, 100.0, 5.0, 15.0, 15.0),
        (1.0, 100.0, 5.0, 15.0, 4.0),
        (5.0, 60.0, 20.0, 40.0, 30.0),
        (0.2, 30.0, 1.0, 6.0, 3.0),
    ],
)
@pytest.mark.slow
def test_one_tier_with_a_drain(cost: float, mtbi: float, restart: float, interval: float, drain: float) -> None:
    """One tier with a drain (s = 0, n = 1): goodput e^{-D/M} T e^{-R/M}/(M (e^x - 1)), drain loss
    e^{-R/M} (1 - e^{-D/M}) x/(e^x - 1) and restart 1 - e^{-R/M} (the spec's exact check), within 4 standard errors;
    every kept segment carries one snapshot, so checkpoint = goodput C/T to rounding. (About 10^6 interruptions.)"""
    result = simulate_tiers(cost, mtbi, restart, interval, mtbi * 1e6, drain=drain, seed=int(drain))
    x = (interval + cost) / mtbi
    base = single_level(cost, mtbi, restart, interval)
    assert_within(
        result,
        {
            "goodput": math.exp(-drain / mtbi) * base["goodput"],
            "drain_loss": math.exp(-restart / mtbi) * -math.expm1(-drain / mtbi) * x / math.expm1(x),
            "restart_loss": base["restart_loss"],
        },
    )
    assert_allclose(result.checkpoint_overhead, result.goodput * cost / interval, rtol=1e-12)


def test_two_tiers_all_hard_with_n_one_is_one_tier_with_persistent_costs() -> None:
    """s = 0, n = 1: every checkpoint is persistent and every restart R_p, so it is one tier with C = C_p and
    R = R_p: the same seed gives the same result (to rounding), with or without a drain."""
    for drain in (0.0, 7.0):
        two = simulate_tiers(
            1.0, 100.0, 2.0, 20.0, 1e7, drain=drain, persistent_cost=3.0, persistent_restart=9.0, seed=4
        )
        one = simulate_tiers(3.0, 100.0, 9.0, 20.0, 1e7, drain=drain, seed=4)
        for name in NAMES:
            assert getattr(two, name) == pytest.approx(getattr(one, name), abs=1e-12)
        assert two.failures == one.failures == two.hard_failures


@pytest.mark.slow
def test_all_soft_ignores_the_persistent_restart_and_the_drain() -> None:
    """s = 1: no interruption is hard, so R_p and D play no part (same seed, same result) and nothing is lost to a
    drain; with C_p = C it is the single-level model at any n (within 4 standard errors)."""
    common: dict[str, Any] = {"persistent_cost": 1.0, "fast_survives": 1.0, "persistent_every": 5, "seed": 6}
    plain = simulate_tiers(1.0, 100.0, 4.0, 15.0, 1e8, **common)
    other = simulate_tiers(1.0, 100.0, 4.0, 15.0, 1e8, drain=15.0, persistent_restart=50.0, **common)
    assert other == plain
    assert plain.hard_failures == 0 and plain.drain_loss == 0.0
    assert_within(plain, single_level(1.0, 100.0, 4.0, 15.0))


def brute_force_all_soft(case: Case, run_length: float, rng: random.Random) -> dict[str, float]:
    """s = 1 by the simplest loop: each gap restarts R (none before the first), then completes segments of T + C
    (T + C_p for every n-th) one by one while they fit; the rest of the gap is lost work. Fractions of one run."""
    T, C, Cp, R, n = case.interval, case.cost, case.persistent_cost or case.cost, case.restart, case.persistent_every
    t, done, good, snaps, restarts = 0.0, 0, 0.0, 0.0, 0.0
    first = True
    while t < run_length:
        gap = min(rng.expovariate(1.0 / case.mtbi), run_length - t)
        t += gap
        spent = 0.0 if first else min(gap, R)
        first = False
        restarts += spent
        left = gap - spent
        while True:
            cost = Cp if (done + 1) % n == 0 else C
            if left < T + cost:
                break
            left -= T + cost
            done += 1
            good += T
            snaps += cost
    return {"goodput": good / run_length, "checkpoint_overhead": snaps / run_length,
            "restart_loss": restarts / run_length}  # fmt: skip


@pytest.mark.slow
def test_all_soft_two_tiers_against_a_brute_force_loop() -> None:
    """s = 1, n = 4, C_p = 4 C: goodput, checkpoint and restart agree with a brute-force segment-by-segment loop
    (its own draws, 40 runs of about 150 interruptions) within 4 combined standard errors."""
    case = Case(0.5, 20.0, 2.0, 5.0, drain=5.0, persistent_cost=2.0, persistent_restart=10.0, fast_survives=1.0,
                persistent_every=4)  # fmt: skip
    result = case.run(20.0 * 1e6, seed=7)
    rows = [brute_force_all_soft(case, 3000.0, random.Random(100 + i)) for i in range(40)]
    for name, expected in rows[0].items():
        values = np.array([row[name] for row in rows])
        simulated, error = value_and_error(result, name)
        combined = math.hypot(error, values.std(ddof=1) / math.sqrt(values.size))
        assert abs(simulated - values.mean()) <= 4.0 * combined, (name, expected)


def test_first_order_in_the_small_loss_regime() -> None:
    """Small C/T, T/M, R/M, D/M (n = 4, s = 0.7): the total loss is within 10% of the spec's first order
    [(n-1) C + C_p]/(n T) + s T/(2M) + (1-s) n T/(2M) + [s R + (1-s) R_p]/M + (1-s) D/M; the neglected terms,
    of order (n T/M)^2, are a few per cent of it here. The standard error is far smaller than the tolerance."""
    c, cp, mtbi, r, rp, t, d, n, s = 0.5, 2.0, 20_000.0, 5.0, 20.0, 60.0, 30.0, 4, 0.7
    result = simulate_tiers(c, mtbi, r, t, mtbi * 2e5, drain=d, persistent_cost=cp, persistent_restart=rp,
                            fast_survives=s, persistent_every=n, seed=8)  # fmt: skip
    first = ((n - 1) * c + cp) / (n * t) + s * t / (2 * mtbi) + (1 - s) * n * t / (2 * mtbi)
    first += (s * r + (1 - s) * rp) / mtbi + (1 - s) * d / mtbi
    assert abs(total_loss(result) - first) <= 0.1 * first
    assert result.stderr < 0.01 * first


# --------------------------------------------------------------------------- against the reference


@pytest.mark.parametrize("name", list(CASES))
def test_same_interruptions_same_path_as_the_reference(name: str) -> None:
    """On the same interruption times and soft/hard draws, the vectorized per-gap arithmetic and the event-by-event
    reference book every run's wall time identically (to 1e-9), and count the same interruptions."""
    case, _ = CASES[name]
    replay_both(case, 300.0 * case.mtbi, 6, seed=len(name))


@pytest.mark.slow
@pytest.mark.parametrize("name", list(CASES))
def test_agrees_with_the_reference_statistically(name: str) -> None:
    """The vectorized simulator (10^6 interruptions) and the reference on its own draws (40 runs of about 2000
    interruptions, seeds of its own) agree for goodput and every loss within 4 combined standard errors; each case
    reaches the branches it is meant to test (e.g. hard interruptions during an R-restart from a pending checkpoint)."""
    case, needs = CASES[name]
    result = case.run(case.mtbi * 1e6, seed=11)
    # Each case its own reference draws, so that the cases are independent checks.
    stats, tallies = reference(case, 2000.0 * case.mtbi, 40, seed=1000 * (1 + list(CASES).index(name)))
    for needed in needs:
        assert tallies[needed] > 0, (needed, tallies)
    for quantity in NAMES:
        simulated, error = value_and_error(result, quantity)
        mean, ref_error = stats[quantity]
        combined = math.hypot(error, ref_error)
        if combined == 0.0:
            assert simulated == mean == 0.0
        else:
            assert abs(simulated - mean) <= 4.0 * combined, (quantity, simulated, mean, combined)


DURATIONS = st.floats(0.1, 30.0)


@given(
    cost=DURATIONS, extra_cost=st.floats(0.0, 10.0), mtbi=st.floats(2.0, 100.0), restart=DURATIONS,
    extra_restart=st.floats(0.0, 30.0), interval=st.floats(0.5, 40.0),
    drain_share=st.one_of(st.just(0.0), st.just(1.0), st.floats(0.0, 1.0)),
    survives=st.one_of(st.just(0.0), st.just(1.0), st.floats(0.0, 1.0)), every=st.integers(1, 5),
    seed=st.integers(0, 2**32),
)  # fmt: skip
@example(  # once found by hypothesis: floor(3 (T + C)/(T + C)) = 2 sent a run back a segment in a restart
    cost=13.802144954651338, extra_cost=0.0, mtbi=8.0, restart=1.0, extra_restart=0.0, interval=8.191901700735794,
    drain_share=0.0, survives=1.0, every=4, seed=0,
)  # fmt: skip
def test_any_inputs_follow_the_reference_path(
    cost: float, extra_cost: float, mtbi: float, restart: float, extra_restart: float, interval: float,
    drain_share: float, survives: float, every: int, seed: int,
) -> None:  # fmt: skip
    """Random inputs (including D = 0, D = T, s = 0, s = 1, n = 1): the same interruptions give the same booking of
    every run's wall time as the reference, to 1e-9. The example pins a rounding bug hypothesis once found."""
    case = Case(cost, mtbi, restart, interval, drain=drain_share * interval, persistent_cost=cost + extra_cost,
                persistent_restart=restart + extra_restart, fast_survives=survives, persistent_every=every)  # fmt: skip
    replay_both(case, 40.0 * mtbi, 2, seed)


# --------------------------------------------------------------------------- bookkeeping


def test_without_interruptions_the_arithmetic_is_deterministic() -> None:
    """With M far beyond the run: cycles of 11 + 11 + 14 minutes (T = 10, C = 1, C_p = 4, n = 3); 4,200 minutes
    hold 116 cycles, 2 fast segments and 2 minutes of an unfinished one, so goodput (116 x 30 + 20)/4200,
    checkpoint (116 x 6 + 2)/4200, lost 2/4200."""
    result = simulate_tiers(1.0, 1e15, 5.0, 10.0, 4 * 4200.0, drain=3.0, persistent_cost=4.0, persistent_every=3,
                            replicas=4)  # fmt: skip
    assert result.failures == 0
    assert_allclose(result.goodput, 3500 / 4200, rtol=1e-12)
    assert_allclose(result.checkpoint_overhead, 698 / 4200, rtol=1e-12)
    assert_allclose(result.lost_work, 2 / 4200, atol=1e-12)
    assert result.restart_loss == 0.0 and result.drain_loss == 0.0 and result.stderr == 0.0


def test_without_interruptions_planned_stops_are_pauses_of_the_running_time() -> None:
    """With M far beyond the run, only planned stops: each run of L = 4,200 min (the deterministic arithmetic
    above) gets a Poisson count of mean q L / 60 stops of S_q minutes, added to its wall time and to the restart
    loss; over the runs the count is q L / 60 per run within 5 standard deviations, and the fractions are the
    run's minutes over L plus its pauses."""
    runs, q, stop = 64, 0.5, 7.0
    result = simulate_tiers(1.0, 1e15, 5.0, 10.0, runs * 4200.0, drain=3.0, persistent_cost=4.0, persistent_every=3,
                            replicas=runs, just_in_time=0.5, jit_recovery=2.0, planned_rate=q, planned_cost=stop)
    expected = runs * q * 4200.0 / 60.0
    assert result.failures == 0 and result.recoveries == 0
    assert abs(result.planned_stops - expected) < 5.0 * math.sqrt(expected)
    assert_allclose(result.goodput + total_loss(result), 1.0, rtol=1e-12)
    # Each run's pauses are the same share of its wall time in every row, so goodput / checkpoint is as without them.
    assert_allclose(result.goodput / result.checkpoint_overhead, 3500 / 698, rtol=1e-9)
    mean_paused = result.restart_loss / result.goodput * 3500  # pause minutes per run, about (a ratio of means)
    assert abs(mean_paused - q * 4200.0 / 60.0 * stop) < 0.05 * q * 4200.0 / 60.0 * stop
    assert result.drain_loss == 0.0 and result.stderr > 0.0


def test_losses_sum_to_one_and_are_fractions() -> None:
    """Goodput plus the four losses is one, each is in [0, 1], and hard interruptions are about (1 - s) of all."""
    case = CASES["two tiers, drain, long restarts"][0]
    result = case.run(case.mtbi * 1e5, seed=12)
    assert_allclose(result.goodput + total_loss(result), 1.0, rtol=1e-12)
    for name in NAMES:
        assert 0.0 <= getattr(result, name) <= 1.0
    expected = 0.5 * result.failures
    assert abs(result.hard_failures - expected) < 5.0 * math.sqrt(expected)


def test_same_seed_same_result_other_seed_other_result() -> None:
    """A simulation is a pure function of its inputs and seed."""
    case = CASES["mostly soft, drain = T"][0]
    a = case.run(1e6, seed=4)
    assert a == case.run(1e6, seed=4)
    assert a.goodput != case.run(1e6, seed=5).goodput


@pytest.mark.slow
def test_standard_error_matches_the_spread_over_seeds() -> None:
    """The reported standard error is the spread between independent simulations: over 24 seeds the sample
    standard deviation of goodput is within [0.6, 1.5] times the mean reported standard error."""
    case = CASES["n = 1, two restart tiers"][0]
    results = [case.run(case.mtbi * 2e4, seed=seed) for seed in range(200, 224)]
    spread = np.std([r.goodput for r in results], ddof=1)
    reported = np.mean([r.stderr for r in results])
    assert 0.6 < spread / reported < 1.5


@pytest.mark.slow
def test_progress_reports_the_whole_horizon(capsys: pytest.CaptureFixture[str]) -> None:
    """A progress callable receives simulated minutes block by block, adding up to the horizon; progress=True on a
    short simulation draws nothing (the bar waits PROGRESS_DELAY seconds) and writes nothing to stdout."""
    seen: list[float] = []
    simulate_tiers(1.0, 10.0, 1.0, 5.0, 2e7, replicas=1024, progress=seen.append)
    assert len(seen) > 3
    assert_allclose(sum(seen), 2e7, rtol=1e-9)
    simulate_tiers(1.0, 10.0, 1.0, 5.0, 2e5, progress=True)
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""


BAD = [
    ({"checkpoint_cost": 0.0}, "checkpoint_cost"),
    ({"checkpoint_cost": True}, "checkpoint_cost"),
    ({"mtbi": math.nan}, "mtbi"),
    ({"mtbi": math.inf}, "mtbi"),
    ({"restart": -5.0}, "restart"),
    ({"restart": 0.0}, "restart"),
    ({"interval": "19 min"}, "interval"),
    ({"horizon": 0.0}, "horizon"),
    ({"drain": -1.0}, "drain"),
    ({"drain": 19.5}, "drain"),
    ({"drain": math.nan}, "drain"),
    ({"persistent_cost": 0.5}, "persistent_cost"),
    ({"persistent_cost": math.inf}, "persistent_cost"),
    ({"persistent_restart": 4.0}, "persistent_restart"),
    ({"fast_survives": 1.5}, "fast_survives"),
    ({"fast_survives": -0.1}, "fast_survives"),
    ({"fast_survives": math.nan}, "fast_survives"),
    ({"persistent_every": 0}, "persistent_every"),
    ({"persistent_every": 2.5}, "persistent_every"),
    ({"persistent_every": True}, "persistent_every"),
    ({"replicas": 1}, "replicas"),
    ({"seed": -1}, "seed"),
    ({"progress": "yes"}, "progress"),
]


@pytest.mark.parametrize(("change", "name"), BAD)
def test_bad_inputs_raise(change: dict[str, object], name: str) -> None:
    """Zero, negative, NaN or infinite durations, D outside [0, T], C_p < C, R_p < R, s outside [0, 1], n not a
    whole number of at least 1, fewer than 2 replicas, a negative seed or a bad progress raise InputError naming
    the input, with its value in the message."""
    args: dict[str, object] = {
        "checkpoint_cost": 1.0, "mtbi": 185.6, "restart": 5.0, "interval": 19.0, "horizon": 1e6,
    } | change  # fmt: skip
    with pytest.raises(InputError) as caught:
        simulate_tiers(**args)  # type: ignore[arg-type]
    assert caught.value.name == name
    assert str(caught.value).startswith(f"{name}: got {change[name]!r}, expected ")


def test_edge_inputs_are_accepted() -> None:
    """D = 0 and D = T, C_p = C, R_p = R, s = 0 and 1, and numpy integers for n are all valid."""
    for drain in (0.0, 19.0):
        simulate_tiers(1.0, 185.6, 5.0, 19.0, 2e6, drain=drain, persistent_cost=1.0, persistent_restart=5.0,
                       fast_survives=1.0, persistent_every=np.int64(3))  # type: ignore[arg-type]  # fmt: skip
