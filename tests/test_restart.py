"""The restart's parts, hot spares and recovery without rollback: closed forms, limits and simulation."""

from __future__ import annotations

import math

import numpy as np
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from goodput.errors import InputError
from goodput.exact import exact_goodput, exact_optimal_interval
from goodput.model import optimal_interval
from goodput.params import load_params
from goodput.plan import plan_for
from goodput.restart import Recovery, RestartParts, best_spares, erlang_b, recovery_goodput, spare_wait
from goodput.simulate_restart import simulate_recovery, simulate_spare_waits


def recovery_optimal_interval(checkpoint_cost: float, mtbi: float, *, just_in_time: float = 0.0) -> float:
    """The optimum with a share p recovered just in time: the exact model's at M' = M / (1 - p)."""
    return float(exact_optimal_interval(checkpoint_cost, Recovery(just_in_time).rollback_mtbi(mtbi)))


def test_parts_add_up_and_name_the_largest() -> None:
    """R is the sum of the parts, the start-up per node multiplied out (Aurora: about 6 s a node)."""
    parts = RestartParts(detect=1.0, replace=2.0, startup=0.5, startup_per_node=0.1, load=3.0, warmup=1.0, nodes=256)
    assert parts.total == pytest.approx(1 + 2 + 0.5 + 25.6 + 3 + 1)
    assert parts.largest == "startup"
    with pytest.raises(InputError, match="detect"):
        RestartParts(detect=-1.0, load=2.0)
    with pytest.raises(InputError, match="restart"):
        RestartParts()


def test_erlang_b_against_its_closed_form() -> None:
    """B(c, ρ) = (ρ^c / c!) / Σ_k ρ^k / k!."""
    for c in range(12):
        for rho in (0.01, 0.5, 2.0, 9.0):
            closed = rho**c / math.factorial(c) / sum(rho**k / math.factorial(k) for k in range(c + 1))
            assert erlang_b(c, rho) == pytest.approx(closed, rel=1e-12)


def test_spares_limits() -> None:
    """No spares: every node-taking interruption waits a whole repair; many spares: no wait."""
    assert spare_wait(0, 42.0, 600.0, 0.4) == pytest.approx(0.4 * 600.0)
    assert spare_wait(200, 42.0, 600.0, 0.4) < 1e-9


@given(c=st.integers(0, 30), m=st.floats(5, 1e4), r=st.floats(1, 1e4), a=st.floats(0, 1))
def test_more_spares_never_wait_longer(c: int, m: float, r: float, a: float) -> None:
    assert spare_wait(c + 1, m, r, a) <= spare_wait(c, m, r, a) * (1 + 1e-12) + 1e-15


@pytest.mark.parametrize(("spares", "mtbi", "repair", "takes"), [
    (0, 42.0, 240.0, 0.5), (1, 42.0, 240.0, 0.5), (3, 42.0, 240.0, 0.5), (6, 30.0, 600.0, 0.8),
    (2, 120.0, 60.0, 1.0), (10, 20.0, 1440.0, 0.3),
])
def test_spares_model_agrees_with_a_simulation_of_failures_and_repairs(spares: int, mtbi: float, repair: float,
                                                                       takes: float) -> None:
    """Within three standard errors over a grid of pool sizes, repair times and rates."""
    sim = simulate_spare_waits(spares, mtbi, repair, takes)
    model = spare_wait(spares, mtbi, repair, takes)
    assert abs(sim.mean - model) <= 3 * sim.stderr + 1e-9, (sim, model)


def test_best_spares_trades_waits_against_idle_gpus() -> None:
    """The best count beats none and every other count tried on kept work net of the spares, goodput x N - c g."""
    choice = best_spares(parts=15.0, checkpoint_cost=0.5, mtbi=42.0, repair=720.0, takes_node=0.6, gpus=65536)
    assert 0 < choice.best < choice.counts[-1]
    assert choice.net[choice.best] > choice.net[0]
    assert choice.net[choice.best] == max(choice.net)
    c = choice.best
    assert choice.net[c] == pytest.approx(choice.goodput[c] * 65536 - 8 * c)
    assert choice.useful[c] == pytest.approx(choice.goodput[c] * 65536 / (65536 + 8 * c))
    # the net rule holds fewer spares than the share-of-all-GPUs rule would (each spare must pay for itself)
    assert c <= int(np.argmax(choice.useful))


@pytest.mark.slow
def test_first_order_optimum_with_just_in_time_recovery_derived_symbolically() -> None:
    """Minimizing C/T + (1 - p) T/(2M) gives T* = √(2CM/(1 - p))."""
    c, m, t, kept = sp.symbols("C M T kept", positive=True)  # kept = 1 - p, the share that rolls back
    loss = c / t + kept * t / (2 * m)
    solutions = sp.solve(sp.diff(loss, t), t)
    assert len(solutions) == 1
    assert sp.simplify(solutions[0] - sp.sqrt(2 * c * m / kept)) == 0
    assert sp.diff(loss, t, 2).subs(t, solutions[0]).is_positive
    first_order = optimal_interval(1.0, Recovery(0.5).rollback_mtbi(185.6))
    assert first_order == pytest.approx(math.sqrt(2 * 185.6 / 0.5)) and round(first_order, 2) == 27.25
    assert round(recovery_optimal_interval(1.0, 185.6, just_in_time=0.75), 1) == 37.9


def test_recovery_model_reduces_to_the_exact_model() -> None:
    for t in (5.0, 18.6, 60.0):
        assert recovery_goodput(1.0, 185.6, 5.0, t) == pytest.approx(float(exact_goodput(1.0, 185.6, 5.0, t)))
    assert recovery_optimal_interval(1.0, 185.6) == pytest.approx(float(exact_optimal_interval(1.0, 185.6)))


@pytest.mark.slow
@pytest.mark.parametrize(("p", "rj", "q"), [(0.0, 0.0, 0.0), (0.6, 0.2, 0.0), (0.9, 0.5, 0.0), (0.5, 0.1, 0.05)])
def test_recovery_model_agrees_with_the_simulator(p: float, rj: float, q: float) -> None:
    """Goodput at the optimum within three standard errors of a segment-by-segment simulation."""
    c, m, r = 0.5, 42.0, 15.0
    t = recovery_optimal_interval(c, m, just_in_time=p)
    sim = simulate_recovery(c, m, r, t, just_in_time=p, jit_recovery=rj, planned_rate=q, segments=20_000)
    model = recovery_goodput(c, m, r, t, just_in_time=p, jit_recovery=rj, planned_rate=q)
    assert abs(sim.mean - model) <= 3 * sim.stderr, (sim, model)


def test_recovery_raises_goodput_and_lengthens_the_interval() -> None:
    base = recovery_goodput(0.5, 42.0, 15.0)
    assert recovery_goodput(0.5, 42.0, 15.0, just_in_time=0.7, jit_recovery=0.2) > base
    assert recovery_optimal_interval(0.5, 42.0, just_in_time=0.7) > recovery_optimal_interval(0.5, 42.0)


def test_best_spares_tries_at_most_the_cap() -> None:
    """Interruptions every minute and repairs of 70 days: no pool keeps up, so the search stops at MOST_SPARES."""
    from goodput.restart import MOST_SPARES

    choice = best_spares(parts=5.0, checkpoint_cost=0.5, mtbi=1.0, repair=1e5, takes_node=1.0, gpus=65536)
    assert choice.counts == list(range(MOST_SPARES + 1)) and choice.dollars == []


def test_best_spares_is_not_cut_short_by_the_counts_tried() -> None:
    """The best count is the best of all pools: no larger pool, even with no wait at all, beats it."""
    from goodput.exact import exact_goodput

    for mtbi, repair, takes in ((42.0, 1440.0, 0.5), (42.0, 720.0, 0.6), (186.0, 1440.0, 0.77), (10.0, 4320.0, 1.0)):
        choice = best_spares(parts=12.0, checkpoint_cost=0.5, mtbi=mtbi, repair=repair, takes_node=takes, gpus=65536)
        b, last = choice.best, choice.counts[-1]
        assert b < last  # a count past the best was tried
        ceiling = float(exact_goodput(0.5, mtbi, 12.0))
        assert ceiling * 65536 - (last + 1) * 8 <= choice.net[b]  # nothing further can do better


# --------------------------------------------------------------------------- planned stops beside spares

#: 32 nodes, no spare, 24 h repairs taking a node on 80% of interruptions (R: 5 min of parts and a 19.2 h wait), and a
#: planned stop every two days.
PLANNED_BESIDE_SPARES = {"gpus": 256, "gpus_per_node": 8, "mtbi": "30 h", "checkpoint_cost": "1 min",
                         "slow_checkpoint_cost": "5 min", "restart": {"detect": "1 min", "startup": "4 min"},
                         "spares": {"nodes": 0, "repair": "24 h", "takes_node": 0.8},
                         "planned": {"rate": "0.5 per day"}, "price_per_gpu_hour": 2, "month": "730 h"}


def one_tier_goodput(c: float, m: float, r: float, t: float, q: float, stop: float) -> float:
    """The module docstring's exact goodput with p = 0: T over (e^x - 1)(M e^{R/M} + M (q/60) S_q), x = (T + C)/M."""
    return t / ((math.exp((t + c) / m) - 1.0) * (m * math.exp(r / m) + m * q / 60.0 * stop))


def test_a_planned_stop_does_not_wait_for_a_repaired_node() -> None:
    """A planned stop takes no node: it costs C + R's parts (6 min), not C + R with its 19.2 h wait for repairs. The
    plan's goodput is the closed form's with that stop (51% at this fleet's T; 42% where stops waited); so is each
    spare count's, its R the parts and that count's wait; and the elastic plan restarts interruptions in R_e while a
    planned stop still restarts in R's parts."""
    from goodput.fleet import fleet_plan
    from goodput.hazards import elastic_restart
    from goodput.params import params_from_mapping

    fleet = fleet_plan(params_from_mapping(PLANNED_BESIDE_SPARES, source="x.yml"))
    p, plan = fleet.params, fleet.plan
    parts, c, m, q = 5.0, p.checkpoint_cost, p.mtbi, p.planned_rate
    assert p.restart == pytest.approx(parts + 0.8 * 24 * 60) and p.stop_saving == pytest.approx(p.restart - parts)
    want = one_tier_goodput(c, m, p.restart, plan.interval, q, c + parts)
    assert plan.goodput == pytest.approx(want, rel=1e-12) and want > 0.5
    assert one_tier_goodput(c, m, p.restart, plan.interval, q, c + p.restart) < 0.43  # as it was, stops waiting
    choice = fleet.spares_choice(24 * 60.0, 0.8)
    for count in (0, 1, 3):
        r = choice.restart[count]
        t = plan_for(fleet.with_restart(r, r - parts)).interval
        assert choice.goodput[count] == pytest.approx(one_tier_goodput(c, m, r, t, q, c + parts), rel=1e-12)
    r_e = elastic_restart(p.restart)
    elastic = fleet.elastic
    assert elastic.goodput == pytest.approx(one_tier_goodput(c, m, r_e, elastic.interval, q, c + parts), rel=1e-12)


def test_a_check_beyond_three_standard_errors_is_run_again_longer(monkeypatch: pytest.MonkeyPatch) -> None:
    """check_recovery and spares_checks run a simulation more than AGREEMENT standard errors off the closed form again,
    four times as long on fresh draws, and report that run; within, the first run stands. A gap of three standard
    errors comes by chance once in 370 checks: A_tiered_spares' just-in-time check read 3.2 at the seed the book uses,
    where 200 other seeds average -0.14 +- 0.07 standard errors."""
    from goodput import simulate_restart as sr
    from goodput.simulate_restart import Estimate

    plan = plan_for(load_params().replace(just_in_time=0.5, jit_recovery=0.5))
    calls: list[tuple[int, int]] = []

    def fake(*args: object, segments: int, seed: int, **kwargs: object) -> Estimate:
        calls.append((segments, seed))
        return Estimate(plan.goodput + (0.01 if seed == sr.SIM_SEED else 0.0001), 0.001)

    monkeypatch.setattr(sr, "simulate_recovery", fake)
    checked = sr.check_recovery(plan)
    assert calls == [(20_000, sr.SIM_SEED), (80_000, sr.SIM_SEED + 1)] and checked.apart(plan.goodput) < 1
    calls.clear()
    monkeypatch.setattr(sr, "simulate_recovery", lambda *a, segments, seed, **k: (
        calls.append((segments, seed)), Estimate(plan.goodput + 0.002, 0.001))[1])
    assert sr.check_recovery(plan).apart(plan.goodput) == pytest.approx(2.0) and len(calls) == 1

    waits: list[int] = []

    def fake_waits(spares: int, mtbi: float, repair: float, takes_node: float, *, interruptions: int,
                   seed: int = sr.SIM_SEED) -> Estimate:
        waits.append(interruptions)
        off = 10.0 if (spares, seed) == (0, sr.SIM_SEED) else 0.0
        return Estimate(spare_wait(spares, mtbi, repair, takes_node) + off, 1.0)

    monkeypatch.setattr(sr, "simulate_spare_waits", fake_waits)
    checks = sr.spares_checks(4, 100.0, 600.0, 0.7)
    assert waits.count(80_000) == 1 and all(sim.apart(closed) < 1 for _, closed, sim in checks)


def test_the_tier_check_holds_enough_rollbacks_for_a_small_fleet(monkeypatch: pytest.MonkeyPatch) -> None:
    """64 GPUs at 4.25e-5 an hour (M 15 days) with a 0.6 s checkpoint drained in 20 s, half recovered just in time: the
    horizon grew with the interval only, two rollbacks a run, and the check read 5.9 standard errors off the closed
    form. Each run now holds ROLLBACKS_PER_RUN of them, and the first run agrees."""
    from goodput import simulate_restart as sr
    from goodput.fleet import fleet_plan
    from goodput.params import params_from_mapping
    from goodput.whatif import recovery_plan

    fleet = fleet_plan(params_from_mapping({
        "gpus": 64, "gpus_per_node": 8, "rate_per_gpu_hour": 4.25e-05, "checkpoint": {"parameters": 7e9},
        "storage": {"write_bandwidth": "5 GB/s", "read_bandwidth": "10 GB/s", "price": 2000},
        "snapshot": {"bandwidth": "20 GB/s", "host_memory": "512 GB"},
        "restart": {"detect": "2 min", "replace": "15 min", "startup": "2 min", "warmup": "1 min"},
        "price_per_gpu_hour": 2.79, "month": "730 h"}, source="f14.yml"))
    plan = recovery_plan(fleet, 0.5)
    horizons: list[float] = []
    simulate = sr.simulate_plan

    def recorded(plan: object, horizon: float, **kwargs: object) -> object:
        horizons.append(horizon)
        return simulate(plan, horizon, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(sr, "simulate_plan", recorded)
    checked = sr.check_recovery(plan)
    assert len(horizons) == 1 and checked.apart(plan.goodput) <= sr.AGREEMENT
    assert horizons[0] >= sr.ROLLBACKS_PER_RUN * 32 * plan.mtbi / (1.0 - 0.5)
