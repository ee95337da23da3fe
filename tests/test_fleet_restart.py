"""The fleet's one plan and the restart: R's parts at other sizes, the spare count through the whole scheme, the part
that matters most.

Values and limits: R at 2N with a start-up per node is the parts at twice the nodes plus the wait at M/2; each spare
count is the fleet's plan at R(c), with R(0) = parts + a r and R(∞) = parts; the command's best count is the chapter's.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
from pathlib import Path

import numpy as np
import pytest
import yaml

from goodput.cli import main
from goodput.exact import exact_goodput
from goodput.fleet import FleetPlan, fleet_plan
from goodput.params import load_params, mtbi_from_rate, params_from_mapping
from goodput.plan import plan_for
from goodput.restart import spare_wait
from goodput.units import format_duration

#: The planner's 65,536-GPU fleet given as what planners know (size, bandwidths, R as its parts, 32 hot spares).
STORED_FLEET = Path(__file__).parent / "data" / "fleet-stored.yml"

FLEET_65K = {"gpus": 65536, "rate_per_gpu_hour": 2.2e-5, "checkpoint_cost": "25 s", "slow_checkpoint_cost": "5 min",
             "restart": "15 min", "price_per_gpu_hour": 3.2, "month": "730 h", "drain": "4 min",
             "persistent": {"cost": "3 min", "restart": "25 min"}, "fast_survives": 0.75}
#: The same fleet with R as its parts (start-up 1 min + 8,192 nodes x 0.05 s) and a pool of 24 spare nodes.
PARTS = {"detect": "1 min", "replace": "2 min", "startup": "1 min", "startup_per_node": "0.05 s", "warmup": "2 min"}
POOL = {"nodes": 24, "repair": "24 h", "takes_node": 0.5}
FLEET_PARTS = {**FLEET_65K, "restart": PARTS, "spares": POOL}


@pytest.fixture(scope="module")
def parts_fleet() -> FleetPlan:
    return fleet_plan(params_from_mapping(FLEET_PARTS, source="fleet-65k-parts.yml"))


@pytest.mark.slow
def test_by_size_rederives_r_from_its_parts(parts_fleet: FleetPlan) -> None:
    """At 2N the start-up per node is paid on 16,384 nodes and the 24 spares wait at M/2: R(2N) = 1 + 2 + 1 + 16,384 x
    0.05 s + 2 min + wait(24, M/2), larger than R(N); at N/2 smaller; the plan at each size is planned with it."""
    p = parts_fleet.params
    n = p.gpus
    plans = parts_fleet.by_size
    m2 = float(mtbi_from_rate(p.rate_per_gpu_hour, 2 * n))
    expected = 1 + 2 + 1 + 16384 * 0.05 / 60 + 2 + spare_wait(24, m2, 24 * 60.0, 0.5)
    assert math.isclose(parts_fleet.restart_at(2 * n), expected, rel_tol=1e-12)
    assert parts_fleet.restart_at(n // 2) < p.restart < parts_fleet.restart_at(2 * n)
    assert math.isclose(parts_fleet.restart_at(n), p.restart, rel_tol=1e-12)
    if 2 * n in plans:
        assert math.isclose(plans[2 * n].restart, expected, rel_tol=1e-12)
    assert math.isclose(plans[n // 2].restart, parts_fleet.restart_at(n // 2), rel_tol=1e-12)
    at = parts_fleet.at_size(2 * n)
    assert at.restart_parts is not None and at.restart_parts.nodes == 16384
    # R_p is the 25 min typed plus R's wait at N, and moves with R: at 2N it waits as R does there
    assert p.spares is not None and p.persistent_restart == pytest.approx(25.0 + p.spares.wait(p.mtbi))
    assert at.persistent_restart == pytest.approx(p.persistent_restart + expected - p.restart)
    # The same fleet with R given whole and no spares plans every size with the same R.
    whole = fleet_plan(params_from_mapping(FLEET_65K))
    assert {plan.restart for plan in whole.by_size.values()} == {15.0}


def test_by_size_with_spares_alone_waits_longer_at_twice_the_size() -> None:
    """R given whole with a pool: the parts are R minus the pool's wait at M, the same at every size; the wait at 2N
    (M/2) is longer."""
    fleet = fleet_plan(params_from_mapping({**FLEET_65K, "spares": POOL}))
    p = fleet.params
    wait = spare_wait(24, p.mtbi, 1440.0, 0.5)
    assert math.isclose(p.restart, 15.0 + wait, rel_tol=1e-12) and math.isclose(fleet.parts_restart(), 15.0)
    assert fleet.restart_at(2 * p.gpus) - 15.0 > wait > fleet.restart_at(p.gpus // 2) - 15.0 > 0.0


STORY = Path(__file__).parent / "data" / "tiered-48k <img src=x onerror=alert(1)> & co.yml"


def test_r_grows_with_size_only_where_the_change_shows() -> None:
    """The stored fleet: R = 10.047 min at 65,536 GPUs and 10 min + 7e-9 min at 100,000 (the wait for one of 32 spares):
    written the same at every size planned, so nothing makes R change with size. The story fleet (start-up per node,
    a pool of spares): R 18.3 min grows to 31 min at 100,000 GPUs, both causes counted."""
    stored = fleet_plan(load_params(STORED_FLEET))
    assert stored.params.spares is not None
    assert 0 < stored.restart_at(100_000) - stored.params.restart < 1e-8
    assert stored.restart_by_size == ()
    # A million GPUs (the scale study's largest size) wait visibly: R reads 14.7 min there
    assert stored.restart_changes([1_000_000]) == ("spares",) and format_duration(stored.restart_at(10**6)) == "14.7 min"
    story = fleet_plan(load_params(STORY))
    assert story.restart_by_size == ("startup", "spares")


@pytest.mark.slow
def test_each_spare_count_is_the_fleets_plan(parts_fleet: FleetPlan) -> None:
    """R(0) = parts + a r, R(c) falls to the parts; each goodput is plan_for at R(c) (drain and tiers), not the
    one-tier model; the best count maximizes the useful share; the dollars are against none, net of the spares."""
    choice = parts_fleet.best_spares
    assert choice is not None
    p = parts_fleet.params
    parts = parts_fleet.parts_restart()
    assert math.isclose(choice.restart[0], parts + 0.5 * 1440.0, rel_tol=1e-12)
    assert choice.restart[-1] - parts < 1.0 / 60.0 and np.all(np.diff(choice.restart) <= 0)
    assert np.all(np.diff(choice.goodput) >= -1e-12)
    for c in (0, choice.best, len(choice.counts) - 1):
        assert choice.goodput[c] == plan_for(parts_fleet.with_restart(choice.restart[c])).goodput
    b = choice.best
    assert choice.goodput[b] < float(exact_goodput(p.checkpoint_cost, p.mtbi, choice.restart[b]))
    assert b == int(np.argmax(choice.net)) == int(np.argmax(choice.dollars)) and choice.dollars[0] == 0.0
    per_spare = parts_fleet.dollars(8 / 65536)
    assert choice.dollars[b] == pytest.approx(parts_fleet.dollars(choice.goodput[b] - choice.goodput[0]) - b * per_spare)
    # The pool held is a point on the same curve: its goodput is the plan's.
    assert choice.goodput[24] == pytest.approx(parts_fleet.goodput, abs=1e-12)
    assert parts_fleet.goodput_with_spares(24, 1440.0, 0.5) == pytest.approx(parts_fleet.goodput, abs=1e-12)
    assert fleet_plan(params_from_mapping(FLEET_65K)).best_spares is None


@pytest.mark.slow
def test_the_command_quotes_the_same_best_count(parts_fleet: FleetPlan, tmp_path: Path) -> None:
    """goodput plan --format json: best_spares is the fleet's, count, goodput and restart."""
    path = tmp_path / "fleet.yml"
    path.write_text(yaml.safe_dump(FLEET_PARTS), encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["plan", "--params", str(path), "--format", "json"]) == 0
    best = json.loads(out.getvalue())["best_spares"]
    choice = parts_fleet.best_spares
    assert choice is not None
    assert (best["nodes"], best["goodput"], best["restart_min"]) == (choice.best, choice.goodput[choice.best],
                                                                    choice.restart[choice.best])


@pytest.mark.slow
def test_the_spares_row_writes_the_two_restarts_as_far_apart_as_they_are() -> None:
    """The stored fleet holds 32 spares (R = 10.047 min); the best pool is 15 (R = 10.057 min), 0.56 s longer. At
    three digits they would read 10 min and 10.1 min, 6 s apart; the command's row writes 10.06 and 10.05 min."""
    fleet = fleet_plan(load_params(STORED_FLEET))
    choice = fleet.best_spares
    assert choice is not None and choice.best == 15
    assert (choice.restart[15] - fleet.params.restart) * 60 == pytest.approx(0.559, abs=5e-4)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["plan", "--params", str(STORED_FLEET)]) == 0
    assert "R = 10.06 min (R = 10.05 min with the 32 held)" in " ".join(out.getvalue().split())


def test_the_largest_restart_part_gains_the_most_when_halved(parts_fleet: FleetPlan) -> None:
    """Start-up, 1 min + 8,192 x 0.05 s = 7.83 min, is the largest part; halving it (the plan made again at R minus
    3.91 min, R_p with it) gains more than halving any other part; none without parts."""
    part = parts_fleet.largest_restart_part
    assert part is not None and part.name == "startup"
    assert math.isclose(part.minutes, 1 + 8192 * 0.05 / 60, rel_tol=1e-12)
    r = parts_fleet.params.restart
    assert part.gain == pytest.approx(plan_for(parts_fleet.with_restart(r - part.minutes / 2)).goodput
                                      - parts_fleet.goodput, abs=1e-12)
    assert part.gain > 0
    parts = parts_fleet.params.restart_parts
    assert parts is not None
    for name, minutes in parts.parts.items():
        if name != part.name:
            assert plan_for(parts_fleet.with_restart(r - minutes / 2)).goodput - parts_fleet.goodput < part.gain
    assert fleet_plan(load_params()).largest_restart_part is None


@pytest.mark.slow
def test_a_persistent_restart_that_defaults_to_r_moves_with_it_and_stays_no_shorter() -> None:
    """R_p defaulting to R, with spares: R + (R(c) - R) rounds below R(c) at c = 2 here, and the plan was refused
    (InputError: a persistent restart shorter than the fast one); with_restart keeps R_p at R(c) at least, so
    every count is planned and the best count found."""
    fleet = fleet_plan(params_from_mapping({
        "gpus": 16384, "rate_per_gpu_hour": 2e-5, "checkpoint_cost": "1 min", "slow_checkpoint_cost": "1 min",
        "restart": {"detect": "20 s", "startup": "1.1 min", "warmup": "1 min"}, "persistent": {"cost": "4 min"},
        "fast_survives": 0.6, "spares": {"nodes": 4, "repair": "6 h", "takes_node": 0.5},
        "price_per_gpu_hour": 2.5, "month": "720 h"}))
    p = fleet.params
    assert p.persistent_restart == p.restart
    r2 = fleet.parts_restart() + spare_wait(2, p.mtbi, 360.0, 0.5)
    assert p.persistent_restart + (r2 - p.restart) < r2  # the rounding that tripped the plan
    moved = fleet.with_restart(r2)
    assert moved.persistent_restart == moved.restart == r2
    choice = fleet.best_spares
    assert choice is not None and 2 in choice.counts
    assert choice.goodput[2] == pytest.approx(plan_for(moved).goodput, abs=1e-15) and choice.goodput[2] > 0
    # a persistent restart given above R still moves by as much as R does
    longer = fleet_plan(p.replace(persistent_restart=p.restart + 3.0))
    assert longer.with_restart(r2).persistent_restart == pytest.approx(r2 + 3.0, rel=1e-12)


def test_a_persistent_restart_waits_for_repairs_as_r_does() -> None:
    """A restart of 14.2 min typed, no spare for repairs of 24 h at 77%: R waits 7.84 h for a repaired node, and so
    does a restart from the persistent tier: R_p is the 32.3 min typed plus that wait, checked against R before it.
    Such a file was refused ("no shorter than the fast restart (8.08 h)"); an R_p shorter than R's 14.2 min still is,
    in words that say the wait is left out of the comparison."""
    from goodput.errors import InputError
    from goodput.fleet import fleet_plan
    from goodput.params import params_from_mapping

    mapping = {"gpus": 64, "gpus_per_node": 8, "mtbi": "3.29 h", "checkpoint_cost": "1.28 min",
               "slow_checkpoint_cost": "12.75 min", "restart": "14.24 min", "price_per_gpu_hour": 2.0, "month": "730 h",
               "spares": {"nodes": 1, "repair": "24 h", "takes_node": 0.77}, "drain": "1.39 min",
               "persistent": {"cost": "2.63 min", "restart": "32.29 min"}, "fast_survives": 0.5}
    p = params_from_mapping(mapping)
    assert p.spares is not None
    wait = p.spares.wait(p.mtbi)
    assert wait == pytest.approx(7.84 * 60, abs=0.5)
    assert (p.restart, p.persistent_restart) == (pytest.approx(14.24 + wait), pytest.approx(32.29 + wait))
    fleet = fleet_plan(p)
    assert fleet.plan.tiers is not None and fleet.plan.tiers.rp == pytest.approx(32.29 + wait)
    # at another spare count both restarts move by the change in the wait (FleetPlan.with_restart)
    none = fleet.with_restart(fleet.parts_restart())
    assert none.persistent_restart == pytest.approx(32.29) and none.restart == pytest.approx(14.24)
    with pytest.raises(InputError, match=r"no shorter than the fast restart \(14\.2 min before the wait for repairs\)"):
        params_from_mapping(mapping | {"persistent": {"cost": "2.63 min", "restart": "10 min"}})
