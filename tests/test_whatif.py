"""The chapters' what-ifs (goodput.whatif): each against the model computed again from the changed inputs."""

from __future__ import annotations

import math

import pytest

from goodput import exact, fleets, whatif
from goodput.book.data import published_fleets
from goodput.fleet import fleet_plan
from goodput.params import load_params
from goodput.plan import plan_for
from goodput.restart import spare_wait
from goodput.tiers import Tiers, exact_goodput, exact_optimal_interval


@pytest.mark.slow
def test_failures_whatif_elastic_and_bursts_are_the_changed_inputs_planned() -> None:
    p = load_params()
    w = whatif.failures_whatif(fleet_plan(p))
    elastic = plan_for(p.replace(restart=1.0))  # the worked example's R = 5 min: elastic continuation takes 1 min
    assert w.elastic.goodput == pytest.approx(elastic.goodput, abs=1e-12)
    assert w.elastic_gain == pytest.approx(elastic.goodput - fleet_plan(p).goodput, abs=1e-12) and w.elastic_gain > 0
    assert w.m_all < p.mtbi and w.t_all == pytest.approx(float(exact.exact_optimal_interval(p.checkpoint_cost, w.m_all)))
    assert w.as_many == pytest.approx(float(exact.exact_goodput(1.0, w.m_all, 5.0, w.age.fixed)))
    assert w.base == pytest.approx(0.876, abs=5e-4) and w.early_vs_base in (-1, 0, 1)


def test_inputs_whatif_plans_the_fleet_at_the_records_extremes() -> None:
    fp = fleet_plan(load_params())
    low, high = fleets.extremes(published_fleets())
    w = whatif.inputs_whatif(fp, low, high)
    at_low = plan_for(load_params().replace(mtbi=60.0 / (low.rate * fp.params.gpus)))  # no spares: only M changes
    assert w.at_low.goodput == pytest.approx(at_low.goodput, rel=1e-9)
    assert w.gap == pytest.approx(w.at_low.goodput - w.at_high.goodput) and w.gap > 0
    # the worked example by first order: T* = sqrt(2 C M) at M from its count (419 in 54 days) and from 2e-5 per GPU-hour
    assert w.by_count.interval == pytest.approx(math.sqrt(2 * 1.0 * 54 * 1440 / 419), rel=1e-9)
    assert w.by_rate.mtbi == pytest.approx(60.0 / (2e-5 * 16_384))


def test_levers_whatif_short_plan_and_the_debate() -> None:
    p = load_params()
    fp = fleet_plan(p)
    w = whatif.levers_whatif(fp, 2.0, (15.0, 45.0))
    assert w.short is not None and w.short.goodput == pytest.approx(plan_for(p, interval=fp.interval / 2).goodput)
    cs, m, r = p.slow_checkpoint_cost, p.mtbi, p.restart
    assert w.debate == pytest.approx((float(exact.exact_goodput(cs, m, r, 15.0)), float(exact.exact_goodput(cs, m, r, 45.0))))
    assert round(100 * abs(w.debate[1] - w.debate[0]), 1) == 7.2  # the levers page's doctest: '7.2 points'


def test_restart_whatif_recovery_and_spares() -> None:
    p = load_params()
    fp = fleet_plan(p)
    w = whatif.restart_whatif(fp)
    x = w.inputs
    assert w.jit.goodput == pytest.approx(plan_for(p.replace(just_in_time=whatif.ILLUSTRATIVE_JIT)).goodput)
    assert w.zero.goodput == pytest.approx(fp.goodput) and w.jit.goodput > w.zero.goodput
    assert w.restart_none == pytest.approx(x.r_parts + spare_wait(0, p.mtbi, x.repair, x.takes_node))
    assert w.half == x.choice.best // 2 and w.delta == math.ceil(0.05 * 16_384 / 8)  # Delta: 5% of 2,048 nodes


def test_tiers_whatif_peer_copy_of_a_drained_fleet() -> None:
    p = load_params()
    fp = fleet_plan(p.replace(drain=5.0))  # the worked example (C = 1 min, R = 5 min) drained in 5 min, one tier
    w = whatif.tiers_whatif(fp, worked=False)
    peer = Tiers(1.0, 5.0, 5.0, 1.0, 5.0, whatif.PEER_SURVIVES, 1)  # the local copy on a peer, drained every time
    t = exact_optimal_interval(peer, p.mtbi)
    assert w.peer_own == pytest.approx(exact_goodput(peer, p.mtbi, t), rel=1e-9)
    assert w.peer_own_gain == pytest.approx(w.peer_own - fp.goodput) and w.peer_own_gain > 0
    assert whatif.tiers_whatif(fleet_plan(p), worked=True).peer_own == 0.0  # no drain, no peer copy
