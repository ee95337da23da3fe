"""FleetPlan.at_mtbi: the fleet's inputs at another M, its size kept, R re-derived as at_size re-derives it.

With a pool of hot spares R holds a wait for a spare that grows as M shortens (goodput.restart.spare_wait), and a
persistent restart moves by as much; without spares only M changes. At the fleet's own M the inputs are its own, and
at the M another size gives, R is at_size's less the start-up of the extra nodes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from goodput.fleet import FleetPlan, fleet_plan
from goodput.params import load_params, mtbi_from_rate, params_from_mapping
from goodput.plan import plan_for
from goodput.restart import spare_wait

ROOT = Path(__file__).resolve().parent.parent
STORY = ROOT / "tests" / "data" / "tiered-48k <img src=x onerror=alert(1)> & co.yml"
FLEET_65K = {"gpus": 65536, "rate_per_gpu_hour": 2.2e-5, "checkpoint_cost": "25 s", "slow_checkpoint_cost": "5 min",
             "restart": "15 min", "price_per_gpu_hour": 3.2, "month": "730 h", "drain": "4 min",
             "persistent": {"cost": "3 min", "restart": "25 min"}, "fast_survives": 0.75}


@pytest.fixture(scope="module")
def story() -> FleetPlan:
    return fleet_plan(load_params(STORY))


def test_without_spares_only_m_changes() -> None:
    """The worked example and the 65k fleet (no spares): the same inputs as replacing M, so the same plans."""
    for params in (load_params(), params_from_mapping(FLEET_65K, source="fleet-65k.yml")):
        fleet = fleet_plan(params)
        for m in (0.5 * params.mtbi, 3.0 * params.mtbi):
            assert fleet.at_mtbi(m) == params.replace(mtbi=m)


def test_the_wait_for_a_spare_follows_m(story: FleetPlan) -> None:
    """The story fleet (16 spares, 12 h repairs, 60% take a node): R = parts + wait(M'), R_p moved by as much; at its own M
    its own R; a third of M waits far longer than the settled M's 0.9 s."""
    p = story.params
    assert p.spares is not None and p.persistent_restart is not None
    assert story.at_mtbi(p.mtbi).restart == pytest.approx(p.restart, rel=1e-12)
    third = story.at_mtbi(p.mtbi / 3)
    wait = spare_wait(16, p.mtbi / 3, 12 * 60.0, 0.6)
    assert third.restart == pytest.approx(story.parts_restart() + wait, rel=1e-12)
    assert story.repair_wait() * 60 == pytest.approx(0.92, abs=0.01)  # seconds
    assert third.restart - p.restart > 5.0  # minutes: the pool runs dry at three times the rate
    assert third.persistent_restart == pytest.approx(p.persistent_restart + (third.restart - p.restart), rel=1e-12)
    assert (third.gpus, third.mtbi) == (p.gpus, p.mtbi / 3)
    assert plan_for(third).goodput < plan_for(p.replace(mtbi=p.mtbi / 3)).goodput


def test_agrees_with_at_size_but_for_the_nodes(story: FleetPlan) -> None:
    """At the M of twice the GPUs, at_mtbi's R is at_size's less the start-up of the added nodes (0.1 s each)."""
    p = story.params
    n = 2 * p.gpus
    sized = story.at_size(n)
    assert sized.mtbi == pytest.approx(float(mtbi_from_rate(p.rate_per_gpu_hour, n)), rel=1e-12)
    same_m = story.at_mtbi(sized.mtbi)
    extra_nodes = (n - p.gpus) / p.gpus_per_node
    assert sized.restart - same_m.restart == pytest.approx(extra_nodes * 0.1 / 60, rel=1e-9)
