"""Recovery without rollback and planned stops with a drain and a persistent tier (spec 22, section A).

The rule: the scheme's model at M' = M / (1 - p), and pauses π = p R_j / M + (q / 60) S_q per minute of
running time; exactly, every loss L / (1 + u π) and the restart loss (L_R + u π) / (1 + u π), u the scheme's
running share at M'; to first order π added to the restart loss.
"""

from __future__ import annotations

import dataclasses
import math

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from goodput import tiers
from goodput.errors import InputError
from goodput.exact import exact_losses as one_tier_losses
from goodput.plan import make_plan, plan_for, plan_levers
from goodput.restart import Recovery, recovery_losses
from goodput.simulate_tiers import TierResult, simulate_tiers
from goodput.tiers import TierLosses, Tiers

SHARES = ("checkpoint_overhead", "lost_work", "restart_loss", "drain_loss")

#: Tiered schemes (drain, C_p, R_p, s, n) with recovery (p, R_j, q), at M = 60 min.
GRID = [
    (Tiers(1.0, 5.0, drain=3.0), Recovery(0.6, 0.5, 0.2)),
    (Tiers(1.0, 5.0, drain=2.0, persistent_cost=3.0, persistent_restart=20.0, fast_survives=0.5, every=3),
     Recovery(0.5, 2.0, 0.3)),
    (Tiers(0.5, 4.0, persistent_cost=2.0, persistent_restart=15.0, fast_survives=0.8, every=2),
     Recovery(0.8, 1.0, 0.5)),
    (Tiers(1.0, 3.0, drain=4.0, persistent_cost=2.0, persistent_restart=12.0, fast_survives=0.3, every=1),
     Recovery(0.3, 3.0, 0.0)),
]
MTBI = 60.0


def simulate(scheme: Tiers, recovery: Recovery, interval: float, seed: int) -> TierResult:
    return simulate_tiers(scheme.checkpoint_cost, MTBI, scheme.restart, interval, MTBI * 4e5, drain=scheme.drain,
                          persistent_cost=scheme.persistent_cost, persistent_restart=scheme.persistent_restart,
                          fast_survives=scheme.fast_survives, persistent_every=scheme.every,
                          just_in_time=recovery.just_in_time, jit_recovery=recovery.jit_recovery,
                          planned_rate=recovery.planned_rate, planned_cost=scheme.stop_cost, seed=seed)


def deviations(model: TierLosses, sim: TierResult) -> dict[str, float]:
    """Model minus simulation in standard errors, for goodput and each loss the simulation saw."""
    out = {"goodput": (model.goodput - sim.goodput) / sim.stderr}
    for name in SHARES:
        error = getattr(sim, name + "_stderr")
        if error > 0:
            out[name] = (getattr(model, name) - getattr(sim, name)) / error
    return out


@pytest.fixture(scope="module")
def simulated() -> list[tuple[Tiers, Recovery, float, TierResult]]:
    out = []
    for k, (scheme, recovery) in enumerate(GRID):
        t = tiers.exact_optimal_interval(scheme, MTBI, recovery)
        out.append((scheme, recovery, t, simulate(scheme, recovery, t, seed=100 + k)))
    return out


def test_the_exact_model_agrees_with_the_simulator(simulated: list[tuple[Tiers, Recovery, float, TierResult]]) -> None:
    """Goodput and the four losses within 3 standard errors of a simulation that draws the pauses (seeded)."""
    for scheme, recovery, t, sim in simulated:
        assert sim.recoveries > 0 and (sim.planned_stops > 0) == (recovery.planned_rate > 0)
        off = deviations(tiers.exact_losses(scheme, MTBI, t, recovery), sim)
        assert all(abs(v) <= 3.0 for v in off.values()), (scheme, recovery, off)


def test_a_wrong_rule_fails_the_same_check(simulated: list[tuple[Tiers, Recovery, float, TierResult]]) -> None:
    """Pauses on all wall time (no u factor) or the scheme at M instead of M' fail the check over the grid."""
    no_u, at_m = [], []
    for scheme, recovery, t, sim in simulated:
        base = tiers.exact_losses(scheme, recovery.rollback_mtbi(MTBI), t)
        pi = recovery.pauses(MTBI, scheme.stop_cost)
        wrong = dataclasses.replace(base, **{name: (getattr(base, name) + (pi if name == "restart_loss" else 0.0))
                                             / (1.0 + pi) for name in SHARES})
        no_u.append(abs(deviations(wrong, sim)["goodput"]))
        at_m.append(abs(deviations(recovery.exact(tiers.exact_losses(scheme, MTBI, t), MTBI, scheme.stop_cost),
                                   sim)["goodput"]))
    assert max(no_u) > 5.0, no_u
    assert min(at_m) > 5.0, at_m


def test_without_recovery_the_simulator_draws_as_before() -> None:
    """p = q = 0: the same draws and numbers as a run that never heard of recovery."""
    plain = simulate_tiers(1.0, 60.0, 5.0, 12.0, 60.0 * 1e4, drain=3.0, seed=7)
    zero = simulate_tiers(1.0, 60.0, 5.0, 12.0, 60.0 * 1e4, drain=3.0, seed=7, just_in_time=0.0, planned_rate=0.0)
    assert plain == zero and plain.recoveries == plain.planned_stops == 0
    with pytest.raises(InputError, match="planned_cost"):
        simulate_tiers(1.0, 60.0, 5.0, 12.0, 60.0 * 1e4, planned_rate=0.1)
    with pytest.raises(InputError, match="just_in_time"):
        simulate_tiers(1.0, 60.0, 5.0, 12.0, 60.0 * 1e4, just_in_time=1.0)


def test_the_planned_stop_costs_a_durable_checkpoint_and_its_restart() -> None:
    """S_q: C + R with one tier, (C + D) + R with a drain, C_p + R_p with a persistent tier."""
    assert Tiers(1.0, 5.0).stop_cost == 6.0
    assert Tiers(1.0, 5.0, drain=4.0).stop_cost == 10.0
    assert Tiers(1.0, 5.0, drain=4.0, persistent_cost=3.0, persistent_restart=25.0, fast_survives=0.75).stop_cost == 28.0


def test_the_rule_reduces_to_the_scheme_and_to_one_tier() -> None:
    """p = q = 0 is the scheme's own model; one tier without a drain is goodput.restart.recovery_losses."""
    scheme, m = GRID[1][0], MTBI
    for which, losses in (("exact", tiers.exact_losses), ("first-order", tiers.first_order_losses)):
        assert losses(scheme, m, 15.0, Recovery()) == losses(scheme, m, 15.0)
        one = losses(Tiers(1.0, 5.0), m, 15.0, GRID[0][1])
        ref = recovery_losses(1.0, m, 5.0, 15.0, just_in_time=0.6, jit_recovery=0.5, planned_rate=0.2, which=which)
        for name in ("checkpoint_overhead", "lost_work", "restart_loss", "goodput"):
            assert getattr(one, name) == pytest.approx(getattr(ref, name), rel=1e-12, abs=1e-15)


def test_one_tier_wall_time_is_the_closed_form() -> None:
    """One tier: goodput T / W with W = (e^{x'} - 1)(M' e^{R/M'} + M' (p/M) R_j + M' q (C + R))."""
    c, m, r, t, p, rj, q = 1.0, 185.6, 5.0, 30.0, 0.6, 0.5, 0.05
    mm = m / (1 - p)
    wall = math.expm1((t + c) / mm) * (mm * math.exp(r / mm) + mm * p / m * rj + mm * q / 60 * (c + r))
    got = recovery_losses(c, m, r, t, just_in_time=p, jit_recovery=rj, planned_rate=q)
    assert got.goodput == pytest.approx(t / wall, rel=1e-13)
    assert got.checkpoint_overhead == pytest.approx(c / wall, rel=1e-13)
    assert got.lost_work == pytest.approx((mm * math.expm1((t + c) / mm) - t - c) / wall, rel=1e-12)


@pytest.mark.parametrize(("scheme", "recovery"), GRID)
def test_first_order_optimum_is_the_base_at_m_prime(scheme: Tiers, recovery: Recovery) -> None:
    """To first order the pauses add a constant: T* is the scheme's first-order optimum at M' = M/(1 - p)."""
    base = tiers.first_order_optimal_interval(scheme, MTBI / (1.0 - recovery.just_in_time))
    assert tiers.first_order_optimal_interval(scheme, MTBI, recovery) == pytest.approx(base, rel=1e-14)
    plan = make_plan(scheme.checkpoint_cost, MTBI, scheme.restart, which="first-order", drain=scheme.drain,
                     persistent_cost=scheme.persistent_cost, persistent_restart=scheme.persistent_restart,
                     fast_survives=None if scheme.one_tier else scheme.fast_survives,
                     persistent_every=None if scheme.one_tier else scheme.every, just_in_time=recovery.just_in_time,
                     jit_recovery=recovery.jit_recovery, planned_rate=recovery.planned_rate)
    assert plan.interval == pytest.approx(base, rel=1e-14)
    first = tiers.first_order_losses(scheme, MTBI / (1.0 - recovery.just_in_time), base)
    assert plan.losses.restart_loss == pytest.approx(
        first.restart_loss + recovery.pauses(MTBI, scheme.stop_cost), rel=1e-14)


@pytest.mark.slow
def test_first_order_optimum_derived_symbolically() -> None:
    """d/dT of the tiered first-order loss with the pauses: the optimum is the scheme's at M' = M/(1 - p)."""
    # kept = 1 - p (the share that rolls back) and h = 1 - s, so that SymPy knows both positive.
    t, n, c, delta, m, s, h, r, rp, d, kept, rj, q, sq = sp.symbols("T n C Delta_C M s h R R_p D kept R_j q S_q",
                                                                     positive=True)
    cp = c + delta  # C_p >= C
    mm = m / kept
    loss = (((n - 1) * c + cp) / (n * t) + (s + h * n) * t / (2 * mm) + (s * r + h * rp) / mm
            + h * d / mm + (1 - kept) * rj / m + q / 60 * sq)
    roots = sp.solve(sp.diff(loss, t), t)
    assert len(roots) == 1
    expected = sp.sqrt(2 * mm * ((n - 1) * c + cp) / (n * (s + h * n)))
    assert sp.simplify(roots[0] - expected) == 0
    assert sp.simplify(sp.diff(loss, t, 2).subs(t, roots[0])).is_positive


@pytest.mark.parametrize(("scheme", "recovery"), GRID[:3])
def test_the_plan_chooses_the_best_interval_and_cadence(scheme: Tiers, recovery: Recovery) -> None:
    """The exact plan maximizes the exact goodput with the pauses over T and the whole n; check is exact minus
    first order, each at its own optimum (and own n)."""
    kw = {"drain": scheme.drain, "persistent_cost": scheme.persistent_cost,
          "persistent_restart": scheme.persistent_restart, "fast_survives": scheme.fast_survives,
          "just_in_time": recovery.just_in_time, "jit_recovery": recovery.jit_recovery,
          "planned_rate": recovery.planned_rate}
    if scheme.one_tier:
        del kw["fast_survives"], kw["persistent_cost"], kw["persistent_restart"]
    plan = make_plan(scheme.checkpoint_cost, MTBI, scheme.restart, **kw)  # type: ignore[arg-type]
    first = make_plan(scheme.checkpoint_cost, MTBI, scheme.restart, which="first-order", **kw)  # type: ignore[arg-type]
    assert plan.tiers is not None and plan.recovery == (recovery.just_in_time, recovery.jit_recovery,
                                                        recovery.planned_rate, recovery.stop_saving)
    best = plan.tiers

    def g(every: int, t: float) -> float:
        return tiers.exact_goodput(best.with_every(every), MTBI, t, recovery)

    assert plan.goodput == pytest.approx(g(best.every, plan.interval), rel=1e-14)
    for factor in (0.97, 1.03):
        assert g(best.every, plan.interval * factor) < plan.goodput
    if not best.one_tier:
        for other in (best.every - 1, best.every + 1):
            if other >= 1:
                alt = best.with_every(other)
                assert g(other, tiers.exact_optimal_interval(alt, MTBI, recovery)) <= plan.goodput + 1e-12
    at_first = tiers.first_order_losses(best, MTBI, tiers.first_order_optimal_interval(best, MTBI, recovery),
                                        recovery)
    assert plan.check.error == pytest.approx(plan.goodput - (1.0 - at_first.total), abs=1e-14)
    assert first.tiers is not None
    assert first.interval == pytest.approx(tiers.first_order_optimal_interval(first.tiers, MTBI, recovery), rel=1e-14)
    levers = plan_levers(plan)
    assert all(math.isfinite(v) for v in levers.values())
    assert levers["set the interval right"] == 0.0


@settings(max_examples=40, deadline=None, derandomize=True)
@given(m=st.floats(20.0, 2000.0), t=st.floats(5.0, 120.0), p=st.floats(0.0, 0.95), rj=st.floats(0.0, 30.0),
       q=st.floats(0.0, 5.0), s=st.floats(0.0, 1.0), every=st.integers(1, 6), d=st.floats(0.0, 5.0))
def test_no_impossible_number(m: float, t: float, p: float, rj: float, q: float, s: float, every: int,
                              d: float) -> None:
    """Every exact share in [0, 1], summing with goodput to 1; goodput in [0, 1] by either model."""
    scheme = Tiers(1.0, 5.0, drain=d, persistent_cost=4.0, persistent_restart=30.0, fast_survives=s, every=every)
    recovery = Recovery(p, rj, q)
    exact = tiers.exact_losses(scheme, m, t, recovery)
    for name in SHARES:
        assert 0.0 <= getattr(exact, name) <= 1.0
    assert 0.0 <= exact.goodput <= 1.0
    assert exact.goodput + exact.total == pytest.approx(1.0, abs=1e-9)
    assert 0.0 <= tiers.first_order_losses(scheme, m, t, recovery).goodput <= 1.0
    one = recovery_losses(1.0, m, 5.0, t, just_in_time=p, jit_recovery=rj, planned_rate=q)
    assert all(0.0 <= v <= 1.0 for v in (one.checkpoint_overhead, one.lost_work, one.restart_loss, one.goodput))


@settings(max_examples=25, deadline=None, derandomize=True)
@given(p=st.floats(0.05, 0.9), fall=st.floats(0.05, 1.0), rj=st.floats(0.0, 1.0), q=st.floats(0.0, 2.0),
       rise=st.floats(0.01, 2.0), s=st.floats(0.0, 0.95), which=st.sampled_from(["exact", "first-order"]))
@pytest.mark.slow
def test_goodput_never_rises_when_p_falls_or_q_rises(p: float, fall: float, rj: float, q: float, rise: float,
                                                     s: float, which: str) -> None:
    """The plan's goodput (best T and n) falls with fewer recoveries without rollback (each no dearer than a
    restart, R_j <= R) and with more planned stops."""
    assert 5.0 * rj <= 5.0
    def goodput(share: float, rate: float) -> float:
        return make_plan(1.0, 90.0, 5.0, which=which, drain=2.0, persistent_cost=3.0,
                         persistent_restart=20.0, fast_survives=s, just_in_time=share, jit_recovery=5.0 * rj,
                         planned_rate=rate).goodput

    at = goodput(p, q)
    assert goodput(p * (1.0 - fall), q) <= at + 1e-12
    assert goodput(p, q + rise) <= at + 1e-12


def test_the_fleet_plan_with_recovery_and_tiers(worked) -> None:  # type: ignore[no-untyped-def]
    """plan_for carries p, R_j and q into the full scheme: more goodput than without them, a longer interval."""
    tiered = worked.replace(drain=4.0, persistent_cost=3.0, persistent_restart=25.0, fast_survives=0.75)
    without, with_jit = plan_for(tiered), plan_for(tiered.replace(just_in_time=0.6))
    assert with_jit.tiers is not None and with_jit.recovery == (0.6, tiered.jit_recovery, 0.0, 0.0)
    assert with_jit.goodput > without.goodput and with_jit.interval > without.interval
    planned = plan_for(tiered.replace(just_in_time=0.6, planned_rate=0.05))
    assert planned.goodput < with_jit.goodput
    rec = Recovery(0.6, tiered.jit_recovery, 0.05)
    assert planned.tiers is not None
    assert planned.goodput == pytest.approx(tiers.exact_goodput(planned.tiers, tiered.mtbi, planned.interval, rec),
                                            rel=1e-14)


def test_one_tier_exact_losses_are_the_wrapper_of_the_exact_model() -> None:
    """The one-tier path is the same wrapper: exact losses at M' with the pauses of C + R."""
    rec = Recovery(0.75, 0.5, 0.036)
    got = recovery_losses(1.0, 185.6, 5.0, 30.0, just_in_time=0.75, jit_recovery=0.5, planned_rate=0.036)
    assert got == rec.exact(one_tier_losses(1.0, 185.6 / 0.25, 5.0, 30.0), 185.6, 6.0)
