"""Checkpoints that are not yet safe: the drain and two-tier model against its closed forms, its reductions to the
single-level model, its monotone properties, and the independent Monte Carlo simulator."""

from __future__ import annotations

import math
import random
import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from goodput import exact
from goodput.errors import InputError
from goodput.simulate_tiers import simulate_tiers
from goodput.tiers import (
    Tiers,
    best_every,
    exact_goodput,
    exact_losses,
    exact_optimal_interval,
    fast_tier_pays_from,
    first_order_every,
    first_order_losses,
    first_order_optimal_interval,
    lost_checkpoint_optimal_interval,
    lost_checkpoint_tiers,
    peak,
)

M, C, R = 185.6, 1.0, 5.0
minutes = st.floats(min_value=0.05, max_value=20.0)
share = st.floats(min_value=0.0, max_value=1.0)


@given(c=minutes, r=minutes, t=st.floats(min_value=0.5, max_value=100.0))
def test_one_tier_without_a_drain_is_the_single_level_exact_model(c: float, r: float, t: float) -> None:
    """n = 1, s = 0, C_p = C, R_p = R, D = 0: every loss equals goodput.exact's, to rounding."""
    tiers, single = exact_losses(Tiers(c, r), M, t), exact.exact_losses(c, M, r, t)
    for name in ("checkpoint_overhead", "lost_work", "restart_loss", "goodput"):
        assert_allclose(getattr(tiers, name), getattr(single, name), rtol=1e-12, atol=1e-15)
    assert tiers.drain_loss == 0.0


@given(d=st.floats(min_value=0.0, max_value=20.0), t=st.floats(min_value=20.0, max_value=100.0))
def test_a_drain_multiplies_goodput_by_e_to_the_minus_d_over_m(d: float, t: float) -> None:
    """One tier with a drain D <= T: goodput is the single-level exact goodput times e^{-D/M}, and the drain loss is
    e^{-R/M} (1 - e^{-D/M}) x/(e^x - 1) with x = (T + C)/M; the restart loss stays 1 - e^{-R/M}."""
    b = exact_losses(Tiers(C, R, drain=d), M, t)
    x = (t + C) / M
    assert_allclose(b.goodput, exact.exact_goodput(C, M, R, t) * math.exp(-d / M), rtol=1e-12)
    assert_allclose(b.drain_loss, math.exp(-R / M) * -math.expm1(-d / M) * x / math.expm1(x), rtol=1e-10, atol=1e-16)
    assert_allclose(b.restart_loss, -math.expm1(-R / M), rtol=1e-12)


def test_the_drain_does_not_move_the_optimum() -> None:
    """e^{-D/M} does not depend on T, so the optimum is the single-level Lambert-W one, or D where D is longer
    (Vaidya's result that the interval is independent of the checkpoint latency)."""
    t_single = exact.exact_optimal_interval(C, M)
    assert_allclose(exact_optimal_interval(Tiers(C, R, drain=6.0), M), t_single, rtol=1e-7)
    assert_allclose(exact_optimal_interval(Tiers(C, R, drain=30.0), M), 30.0, rtol=1e-9)
    assert first_order_optimal_interval(Tiers(C, R, drain=30.0), M) == 30.0


@given(s=share, n=st.integers(1, 8), cp=st.floats(1.0, 10.0), rp=st.floats(5.0, 30.0), d=st.floats(0.0, 10.0))
def test_first_order_is_the_brief_formula(s: float, n: int, cp: float, rp: float, d: float) -> None:
    """loss = [(n-1)C + C_p]/(nT) + s T/(2M) + (1-s) nT/(2M) + [sR + (1-s)R_p]/M + (1-s)D/M, term by term."""
    t = 20.0
    b = first_order_losses(Tiers(C, R, d, C * cp, rp, s, n), M, t)
    assert_allclose(b.checkpoint_overhead, ((n - 1) * C + C * cp) / (n * t))
    assert_allclose(b.lost_work, s * t / (2 * M) + (1 - s) * n * t / (2 * M))
    assert_allclose(b.restart_loss, (s * R + (1 - s) * rp) / M)
    assert_allclose(b.drain_loss, (1 - s) * d / M, atol=1e-15)


def test_first_order_reduces_to_young() -> None:
    """One tier, no drain: T* = sqrt(2CM), and the losses C/T, T/(2M), R/M."""
    assert_allclose(first_order_optimal_interval(Tiers(C, R), M), math.sqrt(2 * C * M))


@given(s=st.floats(0.01, 0.99), ratio=st.floats(1.5, 200.0))
def test_continuous_cadence_minimizes_the_first_order_loss(s: float, ratio: float) -> None:
    """n* = sqrt(s (C_p - C) / ((1 - s) C)) minimizes 2 sqrt(A B) over n (A, B the T-terms): the loss at n*
    is no larger than at n* x 1.01 or n* / 1.01, with T re-optimized."""
    tiers = Tiers(C, R, 0.0, C * ratio, 2 * R, s, 1)
    n = first_order_every(tiers)

    def loss(k: float) -> float:
        a, b = ((k - 1) * C + C * ratio) / k, (s + (1 - s) * k) / (2 * M)
        return 2 * math.sqrt(a * b)

    assert loss(n) <= loss(n * 1.01) + 1e-15 and loss(n) <= loss(n / 1.01) + 1e-15


def test_a_fast_tier_that_survives_every_interruption_needs_no_persistent_one() -> None:
    """s = 1: n* is infinite and the exact goodput does not depend on C_p, R_p or D."""
    base = Tiers(C, R, 5.0, 8.0, 20.0, 1.0, 3)
    assert math.isinf(first_order_every(base))
    other = Tiers(C, R, 10.0, 8.0, 40.0, 1.0, 3)
    assert_allclose(exact_goodput(base, M, 20.0), exact_goodput(other, M, 20.0), rtol=1e-13)


def test_all_hard_with_one_tier_of_persistent_checkpoints_is_the_single_level_model() -> None:
    """s = 0, n = 1: every checkpoint persistent (C_p, R_p); it is the single-level model at C_p and R_p."""
    b = exact_losses(Tiers(C, R, 0.0, 4.0, 9.0, 0.0, 1), M, 25.0)
    assert_allclose(b.goodput, exact.exact_goodput(4.0, M, 9.0, 25.0), rtol=1e-12)


@given(s=share, n=st.integers(1, 6), d=st.floats(0.0, 15.0), cp=st.floats(1.0, 8.0), rp=st.floats(5.0, 20.0))
def test_losses_sum_to_one_and_lie_in_zero_one(s: float, n: int, d: float, cp: float, rp: float) -> None:
    """Goodput and the four losses are shares of wall time: each in [0, 1], together one."""
    b = exact_losses(Tiers(C, R, d, C * cp, rp, s, n), M, 20.0)
    parts = (b.goodput, b.checkpoint_overhead, b.lost_work, b.restart_loss, b.drain_loss)
    assert all(-1e-12 <= p <= 1 + 1e-12 for p in parts)
    assert_allclose(sum(parts), 1.0, atol=1e-12)


@given(s=st.floats(0.0, 0.95), n=st.integers(1, 6), d=st.floats(0.0, 15.0), cp=st.floats(1.0, 8.0),
       rp=st.floats(5.0, 20.0), more=st.floats(0.01, 5.0))
def test_goodput_falls_as_the_drain_the_persistent_cost_and_restart_grow_and_as_s_falls(
    s: float, n: int, d: float, cp: float, rp: float, more: float
) -> None:
    """Exact goodput at a fixed T is lower with a longer drain, a dearer persistent checkpoint, a slower persistent
    restart, and a fast tier that survives fewer interruptions."""
    t = 20.0
    base = exact_goodput(Tiers(C, R, d, C * cp, rp, s, n), M, t)
    assert exact_goodput(Tiers(C, R, min(d + more, t), C * cp, rp, s, n), M, t) <= base + 1e-13
    assert exact_goodput(Tiers(C, R, d, C * cp + more, rp, s, n), M, t) <= base + 1e-13
    assert exact_goodput(Tiers(C, R, d, C * cp, rp + more, s, n), M, t) <= base + 1e-13
    assert exact_goodput(Tiers(C, R, d, C * cp, rp, max(s - 0.05, 0.0), n), M, t) <= base + 1e-13


def test_the_best_cadence_grows_with_the_persistent_cost() -> None:
    """At s = 0.8 the best whole n (exact, each n at its own optimum) does not fall as C_p/C grows, and is 1
    (the fast tier does not pay) when C_p = C."""
    ns = [best_every(Tiers(C, R, 0.0, C * ratio, 15.0, 0.8, 1), M).every for ratio in (1.0, 2.0, 5.0, 20.0, 80.0)]
    assert ns[0] == 1
    assert ns == sorted(ns) and ns[-1] > ns[1]


def single_peaked(top: int, at: int, left: float, right: float) -> list[float]:
    """Values over n = 1..top rising to n = `at` and falling after it, with slopes of different steepness."""
    return [-(left if n < at else right) * abs(n - at) ** 1.5 for n in range(1, top + 1)]


@given(top=st.integers(1, 1000), at=st.floats(0.0, 1.0), start=st.floats(0.0, 1.0),
       left=st.floats(0.01, 100.0), right=st.floats(0.01, 100.0))
def test_peak_finds_the_top_of_a_single_peak_in_few_values(top: int, at: float, start: float, left: float,
                                                           right: float) -> None:
    """peak's n is the argmax of any single-peaked sequence, from any start, in at most 3 log2(top) + 3 values."""
    peak_n, start_n = 1 + round(at * (top - 1)), 1 + round(start * (top - 1))
    values = single_peaked(top, peak_n, left, right)
    asked: list[int] = []
    found = peak(lambda n: asked.append(n) or values[n - 1], start_n, top)
    assert found == peak_n
    assert len(set(asked)) <= 3 * math.log2(top) + 3


def test_peak_stops_where_the_value_does_not_rise() -> None:
    """A flat or NaN neighbour is no rise: the start stands, as the single steps before it did."""
    assert peak(lambda n: 0.0, 5, 10) == 5
    assert peak(lambda n: math.nan if n != 5 else 0.1, 5, 10) == 5


def test_a_best_cadence_hundreds_of_steps_from_first_order_is_found() -> None:
    """A snapshot of 0.18 ms beside an 8 s drain pins the interval at the drain: first order says n* = 1,000 (the
    limit), the exact model's best n is 399 (found by single steps from n* too), and n = 398 and 400 give less."""
    scheme, m = Tiers(3.0381944444444447e-06, 9.048, 0.13333333333333333, 2.0, 25.0, 0.9), 81.38020833333333
    assert first_order_every(scheme) > 1000
    best = best_every(scheme, m).every

    def value(n: int) -> float:
        s = scheme.with_every(n)
        return exact_goodput(s, m, exact_optimal_interval(s, m))

    assert best == 399
    assert value(398) < value(399) > value(400)


def test_first_order_approaches_exact_as_the_losses_shrink() -> None:
    """Scaling T, R, D by eps and C, C_p by eps^2 (M fixed), exact - first order shrinks as eps^2 (second order)."""
    def gap(eps: float) -> float:
        tiers = Tiers(eps**2, 0.5 * eps, 0.3 * eps, 4 * eps**2, 1.5 * eps, 0.7, 3)
        t = 0.8 * eps
        return exact_goodput(tiers, 1.0, t) - first_order_losses(tiers, 1.0, t).goodput

    ratios = [gap(e) / gap(e / 2) for e in (0.04, 0.02)]
    assert_allclose(ratios, 4.0, rtol=0.1)


@pytest.mark.slow
@pytest.mark.parametrize(
    "scheme",
    [
        Tiers(1.0, 5.0, drain=5.0),
        Tiers(1.0, 5.0, 0.0, 6.0, 12.0, 0.7, 4),
        Tiers(2.0, 3.0, 8.0, 10.0, 20.0, 0.5, 3),
        Tiers(0.5, 10.0, 15.0, 3.0, 30.0, 0.9, 1),
        Tiers(5.0, 10.0, 20.0, 20.0, 40.0, 0.3, 2),
    ],
)
def test_the_simulator_agrees_with_the_exact_model(scheme: Tiers) -> None:
    """The independent Monte Carlo simulator (goodput.simulate_tiers), with M = 100 min and T = 20 min, gives
    goodput and every loss within 4 standard errors of the exact chain."""
    t, m = max(20.0, scheme.drain), 100.0
    sim = simulate_tiers(scheme.checkpoint_cost, m, scheme.restart, t, m * 2e6, drain=scheme.drain,
                         persistent_cost=scheme.persistent_cost, persistent_restart=scheme.persistent_restart,
                         fast_survives=scheme.fast_survives, persistent_every=scheme.every, seed=11)
    want = exact_losses(scheme, m, t)
    for name in ("goodput", "checkpoint_overhead", "lost_work", "restart_loss", "drain_loss"):
        se = getattr(sim, "stderr" if name == "goodput" else f"{name}_stderr")
        assert abs(getattr(sim, name) - getattr(want, name)) <= 4 * se + 1e-12, name


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"drain": -1.0}, "drain"),
        ({"persistent_cost": 0.5}, "persistent_cost"),
        ({"persistent_cost": 5.0, "persistent_restart": 1.0}, "persistent_restart"),
        ({"persistent_cost": 5.0, "fast_survives": 1.2}, "fast_survives"),
        ({"persistent_cost": 5.0, "every": 0}, "persistent_every"),
        ({"fast_survives": 0.5}, "persistent_cost"),
        ({"every": 3}, "persistent_cost"),
    ],
)
def test_impossible_schemes_are_refused_by_name(kwargs: dict[str, float], name: str) -> None:
    """A negative drain, a persistent tier cheaper or faster than the fast one, a share outside [0, 1], n below 1,
    or a share or cadence without a persistent tier: InputError naming the input."""
    with pytest.raises(InputError) as caught:
        Tiers(1.0, 5.0, **kwargs)  # type: ignore[arg-type]
    assert caught.value.name == name


def test_a_drain_that_cannot_end_in_time_is_refused() -> None:
    """The model needs the drain to end by the end of the next snapshot, D <= T + C (a plan asks T >= D)."""
    assert exact_goodput(Tiers(1.0, 5.0, drain=10.0), M, 9.0) > 0  # ends with the next snapshot
    with pytest.raises(InputError, match="at least the drain"):
        exact_losses(Tiers(1.0, 5.0, drain=10.0), M, 5.0)


def test_a_checkpoint_lost_with_the_job_is_the_two_tier_model() -> None:
    """A share q of interruptions also takes the latest checkpoint, which is safe only once the next one is written:
    the two-tier model with s = 1 - q and a drain of T + C. To first order it costs q (T + C)/M, and the exact
    model at q = 0 is the single-level one."""
    t, q = 18.6, 0.1
    lost = Tiers(C, R, drain=t + C, persistent_cost=C, fast_survives=1 - q)
    first = first_order_losses(lost, M, t)
    assert_allclose(first.drain_loss, q * (t + C) / M)
    safe = Tiers(C, R, drain=t + C, persistent_cost=C, fast_survives=1.0)
    assert_allclose(exact_goodput(safe, M, t), exact.exact_goodput(C, M, R, t), rtol=1e-12)
    cost = exact.exact_goodput(C, M, R, t) - exact_goodput(lost, M, t)
    assert_allclose(cost, q * (t + C) / M, rtol=0.1)


def _lost_with_the_job(c: float, m: float, r: float, t: float, q: float, interruptions: int, seed: int) -> float:
    """Goodput of a job whose latest checkpoint a share q of interruptions also takes, event by event.

    The latest checkpoint is safe once the next one is written; until then a hard interruption (during compute or
    a restart) sends the job back to the one before it, which is safe. Restarts take R whatever the checkpoint."""
    rng = random.Random(seed)
    clock, progress, pending = 0.0, 0, False
    for _ in range(interruptions):
        gap = rng.expovariate(1.0 / m)
        while gap >= t + c:  # segments completed before the next interruption
            clock += t + c
            gap -= t + c
            progress += 1
            pending = True  # the new checkpoint is not yet safe; the one before it now is
        clock += gap
        if rng.random() < q and pending:
            progress, pending = progress - 1, False
        while (gap := rng.expovariate(1.0 / m)) < r:  # restarts cut short, each interruption possibly hard
            clock += gap
            if rng.random() < q and pending:
                progress, pending = progress - 1, False
        clock += r
    return progress * t / clock


def test_a_checkpoint_lost_with_the_job_matches_an_event_by_event_simulation() -> None:
    """lost_checkpoint_tiers(C, R, q, T) at M: the exact goodput is within 4 standard errors of a direct simulation
    of the rule "a hard interruption takes the latest checkpoint unless the next one is already written"."""
    c, m, r, t, q = 1.0, 20.0, 2.0, 6.0, 0.5
    runs = [_lost_with_the_job(c, m, r, t, q, 4_000, seed) for seed in range(20)]
    mean, se = sum(runs) / len(runs), statistics.stdev(runs) / math.sqrt(len(runs))
    assert abs(mean - exact_goodput(lost_checkpoint_tiers(c, r, q, t), m, t)) < 4 * se + 1e-3


@given(q=share, t=st.floats(min_value=2.0, max_value=60.0))
def test_a_lost_checkpoint_costs_more_as_q_grows_and_nothing_at_q_zero(q: float, t: float) -> None:
    """Goodput of lost_checkpoint_tiers is the single-level exact goodput at q = 0 and falls as q grows."""
    at = exact_goodput(lost_checkpoint_tiers(C, R, q, t), M, t)
    assert_allclose(exact_goodput(lost_checkpoint_tiers(C, R, 0.0, t), M, t), exact.exact_goodput(C, M, R, t),
                    rtol=1e-12)
    assert at <= exact_goodput(lost_checkpoint_tiers(C, R, q / 2, t), M, t) + 1e-15


def test_the_lost_checkpoint_cost_is_q_t_plus_c_over_m_to_first_order() -> None:
    """For small x = (T + C)/M the cost is q (T + C)/M, to a relative error of order x."""
    c, m, r, t, q = 0.01, 1000.0, 0.1, 4.0, 0.3
    cost = exact.exact_goodput(c, m, r, t) - exact_goodput(lost_checkpoint_tiers(c, r, q, t), m, t)
    assert_allclose(cost, q * (t + c) / m, rtol=5e-3)


def test_the_interval_for_a_lost_checkpoint_keeps_the_drain_tied_to_it() -> None:
    """At q = 0 it is the Lambert-W optimum; at q = 1 (every interruption takes the latest checkpoint) goodput is
    the single-level one times e^{-(T+C)/M}, whose optimum solves 1/T = 1/M + e^x/(M (e^x - 1)); for small C/M it
    tends to sqrt(2CM/(1 + 2q)); and it is the maximum of goodput over T with the drain moving with T."""
    assert_allclose(lost_checkpoint_optimal_interval(C, M, R, 0.0), exact.exact_optimal_interval(C, M), rtol=1e-6)
    t1 = lost_checkpoint_optimal_interval(C, M, R, 1.0)
    x = (t1 + C) / M
    assert_allclose(1.0 / t1, 1.0 / M + math.exp(x) / (M * math.expm1(x)), rtol=1e-6)
    for q in (0.1, 0.5, 1.0):
        assert_allclose(lost_checkpoint_optimal_interval(1e-4, 1.0, 1e-3, q), math.sqrt(2e-4 / (1 + 2 * q)), rtol=0.02)
    best = lost_checkpoint_optimal_interval(C, M, R, 0.1)
    at = exact_goodput(lost_checkpoint_tiers(C, R, 0.1, best), M, best)
    for other in (0.98 * best, 1.02 * best):
        assert exact_goodput(lost_checkpoint_tiers(C, R, 0.1, other), M, other) < at
    assert best < exact.exact_optimal_interval(C, M)


@pytest.mark.parametrize("bad", [-0.1, 1.5, math.nan, "x", True])
def test_a_lost_share_outside_zero_one_is_refused(bad: object) -> None:
    """A share of interruptions outside [0, 1] is refused, naming it."""
    with pytest.raises(InputError, match="lost_share"):
        lost_checkpoint_tiers(C, R, bad, 18.6)  # type: ignore[arg-type]


@pytest.mark.slow
@pytest.mark.parametrize("ratio", [2.0, 5.0, 30.0])
def test_the_fast_tier_pays_from_the_share_where_the_best_cadence_leaves_one(ratio: float) -> None:
    """Just below the threshold s the best whole n (exact) is 1; at it, n >= 2. It lies near the first-order share where
    n* = sqrt(s (C_p - C) / ((1 - s) C)) = 1.5, and it falls as the persistent checkpoint gets dearer."""
    scheme = Tiers(C, R, persistent_cost=C * ratio, persistent_restart=8.0)
    s = fast_tier_pays_from(scheme, M)
    assert s is not None

    def best(share: float) -> int:
        return best_every(Tiers(C, R, 0.0, C * ratio, 8.0, share), M).every

    assert best(s) >= 2 and best(s - 2e-4) == 1
    first_order = 2.25 / (ratio - 1 + 2.25)
    assert abs(s - first_order) < 0.1
    assert fast_tier_pays_from(Tiers(C, R, persistent_cost=C * ratio * 2), M) < s  # type: ignore[operator]


def test_a_fast_tier_that_costs_as_much_never_pays() -> None:
    """C_p = C (or one tier): no share makes fast checkpoints worth it, so there is no threshold."""
    assert fast_tier_pays_from(Tiers(C, R, persistent_cost=C), M) is None
    assert fast_tier_pays_from(Tiers(C, R, drain=5.0), M) is None
