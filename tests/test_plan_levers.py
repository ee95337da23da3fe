"""The levers of a tiered plan (goodput.plan.plan_levers): each is the scheme it names re-optimized minus the plan's
scheme at its best, and a lever that improves an input never loses goodput."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from goodput import tiers
from goodput.errors import InputError
from goodput.fleet import fleet_plan
from goodput.params import Params, at_bandwidths, load_params, params_from_mapping
from goodput.plan import CAPPED_LEVERS, STORAGE_LEVERS, TIER_LEVERS, make_plan, plan_for, plan_levers, storage_levers
from goodput.tiers import Tiers

#: The planner's tiered fleet of issue 18 (restart its largest loss).
FLEET_65K = {"gpus": 65536, "rate_per_gpu_hour": 2.2e-5, "checkpoint_cost": "25 s", "slow_checkpoint_cost": "5 min",
             "restart": "15 min", "price_per_gpu_hour": 3.2, "month": "730 h", "drain": "4 min",
             "persistent": {"cost": "3 min", "restart": "25 min"}, "fast_survives": 0.75}

#: Levers that make an input better (or move T or n to their optimum): they can only gain.
IMPROVING = ("halve C", "halve R", "halve the failure rate", "set the interval right", "shorten the drain",
             "make the fast tier survive more failures", "halve C_p", "halve R_p", "shorten C_p to C", "shorten R_p to R",
             "set the persistent cadence right")


def best(scheme: Tiers, mtbi: float, *, choose: bool = True) -> float:
    """The scheme's goodput at its best interval (and best n when `choose`), by the exact model, from goodput.tiers."""
    if choose:
        scheme = tiers.best_every(scheme, mtbi)
    return tiers.exact_goodput(scheme, mtbi, tiers.exact_optimal_interval(scheme, mtbi))


@pytest.mark.slow
def test_every_tier_lever_is_its_scheme_re_optimized_minus_the_plan() -> None:
    """A two-tier plan with n chosen: each lever equals goodput of the changed scheme at its best T and n minus the plan's."""
    m = 41.6
    plan = make_plan(25 / 60, m, 15.0, drain=4.0, persistent_cost=3.0, persistent_restart=25.0, fast_survives=0.75)
    assert plan.tiers is not None and plan.every_chosen
    s = plan.tiers
    base = best(s, m)
    assert base == pytest.approx(plan.goodput, abs=1e-12)
    gains = plan_levers(plan)
    r = dataclasses.replace
    expected = {
        "halve C": best(r(s, checkpoint_cost=s.checkpoint_cost / 2), m),
        "halve R": best(r(s, restart=7.5), m),
        "halve the failure rate": best(s, 2 * m),
        "shorten the drain": best(r(s, drain=2.0), m),
        "make the fast tier survive more failures": best(r(s, fast_survives=0.875), m),
        "halve C_p": best(r(s, persistent_cost=1.5), m),
        "shorten R_p to R": best(r(s, persistent_restart=15.0), m),  # half of 25 min is below R = 15 min: R_p to R
        # the persistent snapshot as cheap as the fast one; its 3 min write drained, durable after max(D, C_p) = 4 min
        "drain the persistent write as well": best(r(s, persistent_cost=25 / 60, drain=4.0), m),
        "set the persistent cadence right": base,
        "set the interval right": base,
    }
    assert set(gains) == set(expected)
    for name, value in expected.items():
        assert gains[name] == pytest.approx(value - base, abs=1e-9), name


def test_a_given_cadence_is_held_by_the_input_levers_and_moved_by_its_own() -> None:
    """With n = 1 given, halving C_p keeps n = 1; the cadence lever is the best n minus n = 1, both at their best T."""
    m = 60.0
    plan = make_plan(0.5, m, 5.0, drain=3.0, persistent_cost=4.0, persistent_restart=12.0, fast_survives=0.8,
                     persistent_every=1)
    s = plan.tiers
    assert s is not None and not plan.every_chosen
    gains = plan_levers(plan)
    at_one = best(s, m, choose=False)
    assert gains["halve C_p"] == pytest.approx(best(dataclasses.replace(s, persistent_cost=2.0), m, choose=False)
                                               - at_one, abs=1e-9)
    assert gains["set the persistent cadence right"] == pytest.approx(best(s, m) - at_one, abs=1e-9)
    assert gains["set the persistent cadence right"] > 0.001  # every 1st of 8x dearer checkpoints: n = 1 is wrong


@pytest.mark.slow
def test_the_persistent_write_drained_is_the_commands_53_7_percent_for_the_65k_fleet() -> None:
    """Issue 18: a 25 s persistent write drained gives 53.7% against the plan's 44.2% (9.5 points, $14.6M a month)."""
    fleet = fleet_plan(params_from_mapping(FLEET_65K, source="fleet-65k.yml"))
    gain = fleet.levers["drain the persistent write as well"]
    assert round(100 * fleet.goodput, 1) == 44.2
    assert round(100 * (fleet.goodput + gain), 1) == 53.7
    assert round(fleet.dollars(gain) / 1e6, 1) == 14.6


def test_a_one_tier_scheme_with_a_drain_has_no_persistent_levers() -> None:
    gains = plan_levers(make_plan(1.0, 185.6, 5.0, drain=5.0))
    assert set(TIER_LEVERS) & set(gains) == {"shorten the drain"}


minutes = st.floats(min_value=0.1, max_value=5.0)


def test_a_persistent_lever_that_stops_at_the_fast_tier_is_named_for_what_it_does() -> None:
    """"halve R_p" takes R_p 40 min to 20 min with R 15 min; with R_p 22 min it stops at R (15 min, not 11): it is
    "shorten R_p to R", the same gain as R_p set to R. Likewise C_p 0.6 min with C 25 s: "shorten C_p to C"."""
    m, c, r = 41.6, 25 / 60, 15.0
    scheme = {"drain": 4.0, "fast_survives": 0.75, "persistent_every": 3}
    halved = plan_levers(make_plan(c, m, r, persistent_cost=3.0, persistent_restart=40.0, **scheme))
    assert {"halve C_p", "halve R_p"} <= set(halved) and not set(CAPPED_LEVERS.values()) & set(halved)
    capped = make_plan(c, m, r, persistent_cost=0.6, persistent_restart=22.0, **(scheme | {"drain": 0.5}))
    gains = plan_levers(capped)
    assert {"shorten C_p to C", "shorten R_p to R"} <= set(gains) and not {"halve C_p", "halve R_p"} & set(gains)
    at_r = make_plan(c, m, r, persistent_cost=0.6, persistent_restart=r, **(scheme | {"drain": 0.5})).goodput
    assert gains["shorten R_p to R"] == pytest.approx(at_r - capped.goodput, abs=1e-12) and gains["shorten R_p to R"] > 0
    # with a drain of C_p or more, C_p shortened to C is the persistent write drained as well: one lever, not two rows
    drained = plan_levers(make_plan(c, m, r, persistent_cost=0.6, persistent_restart=22.0, **scheme))
    assert "shorten C_p to C" not in drained and "drain the persistent write as well" in drained
    at_c = make_plan(c, m, r, persistent_cost=c, persistent_restart=22.0, **scheme).goodput
    best = make_plan(c, m, r, persistent_cost=0.6, persistent_restart=22.0, **scheme)
    assert drained["drain the persistent write as well"] == pytest.approx(
        at_c - best.goodput - drained["set the interval right"], abs=1e-9)


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(c=minutes, extra=st.floats(0.0, 10.0), r=st.floats(1.0, 20.0), rp_extra=st.floats(0.0, 30.0),
       d=st.floats(0.0, 10.0), s=st.floats(0.0, 0.99), m=st.floats(30.0, 600.0),
       n=st.one_of(st.none(), st.integers(1, 6)), off=st.floats(0.5, 2.0))
def test_levers_that_improve_an_input_never_lose(c: float, extra: float, r: float, rp_extra: float, d: float,
                                                 s: float, m: float, n: int | None, off: float) -> None:
    """Property: at any interval in use, halving an input, moving T or n to the optimum never loses goodput; and
    draining the persistent write gains when the drain is no shorter than the persistent write."""
    plan = make_plan(c, m, r, drain=d, persistent_cost=c + extra, persistent_restart=r + rp_extra, fast_survives=s,
                     persistent_every=n)
    t = max(off * plan.interval, d)
    at = make_plan(c, m, r, t, drain=d, persistent_cost=c + extra, persistent_restart=r + rp_extra, fast_survives=s,
                   persistent_every=plan.tiers.every if n is None else n)  # type: ignore[union-attr]
    for p in (plan, at):
        gains = plan_levers(p)
        for name in IMPROVING:
            if name in gains:
                assert gains[name] >= -1e-12, (name, gains[name])
        if "drain the persistent write as well" in gains and d >= c + extra:
            assert gains["drain the persistent write as well"] >= -1e-12


# --------------------------------------------------------------------------- the storage's levers (spec B)

#: A planner's 65,536-GPU fleet in storage terms: C the snapshot, D the write, the load part of R.
STORED = {"gpus": 65536, "rate_per_gpu_hour": 2.2e-5, "checkpoint": {"parameters": "405e9"},
          "storage": {"write_bandwidth": "2 TB/s", "read_bandwidth": "4 TB/s", "efficiency": 0.5},
          "snapshot": {"bandwidth": "50 GB/s", "host_memory": "2 TiB"},
          "restart": {"detect": "1 min", "replace": "3 min", "startup": "4 min", "warmup": "2 min"},
          "price_per_gpu_hour": 3.2, "month": "730 h"}
#: A synchronous write of a 70B model to slow storage (no snapshot): C = S / (e B), the load in R.
SYNC = {"gpus": 4096, "mtbi": "3 h", "checkpoint": {"parameters": "70e9"},
        "storage": {"write_bandwidth": "5 GB/s", "read_bandwidth": "10 GB/s", "efficiency": 0.8},
        "restart": {"detect": "30 s", "startup": "3 min"}, "price_per_gpu_hour": 2.5, "month": "720 h"}


def with_storage(data: dict, **changes: str) -> dict:
    """`data` with some of its storage's (or snapshot's) keys written differently."""
    out = {**data, "storage": dict(data["storage"])}
    for key, value in changes.items():
        if key == "snapshot":
            out["snapshot"] = {**data["snapshot"], "bandwidth": value}
        else:
            out["storage"][key] = value
    return out


@pytest.mark.parametrize(("data", "faster"), [
    (STORED, {"write_bandwidth": "4 TB/s", "read_bandwidth": "8 TB/s"}),
    (SYNC, {"write_bandwidth": "10 GB/s", "read_bandwidth": "20 GB/s"}),
])
def test_double_the_storage_bandwidth_is_the_plan_with_it_typed_doubled_minus_the_plan(data: dict, faster: dict) -> None:
    """The lever's gain is the goodput of the inputs file with both bandwidths written doubled, minus the plan's."""
    fleet = fleet_plan(params_from_mapping(data))
    doubled = plan_for(params_from_mapping(with_storage(data, **faster)))
    gain = fleet.levers[STORAGE_LEVERS["double_write_bandwidth"]]
    assert gain == pytest.approx(doubled.goodput - fleet.plan.goodput, abs=1e-12)
    assert gain > 0.0  # the write sets C or D and the read the load: both shrink
    assert storage_levers(fleet.params) == {k: v for k, v in fleet.levers.items() if k in STORAGE_LEVERS.values()}


#: Review 4's 32,768-GPU fleet: C the snapshot alone, a drain, a persistent tier, R as its parts with hot spares.
SPARES_TIERED = Path(__file__).parent / "data" / "fleet-spares-tiered.yml"


@pytest.mark.parametrize("fleet", [params_from_mapping(STORED), load_params(SPARES_TIERED)],
                         ids=["stored", "spares-tiered"])
def test_double_the_snapshot_bandwidth_is_halve_c_and_listed_once(fleet: Params) -> None:
    """With C the snapshot's copy alone, the plan with the snapshot bandwidth doubled is the plan with C halved, to every
    digit (0.33 points both, for the tiered fleet): one change, listed once, as "halve C", the lever every plan has;
    so no "double the snapshot bandwidth" in the plan's levers, the command's or storage_levers."""
    plan = fleet_plan(fleet)
    assert fleet.checkpoint_per_node
    doubled = plan_for(at_bandwidths(fleet, snapshot=2.0))
    assert doubled.checkpoint_cost == pytest.approx(fleet.checkpoint_cost / 2, rel=1e-12)
    assert doubled.goodput - plan.plan.goodput == pytest.approx(plan.levers["halve C"], abs=1e-12)
    assert plan.levers["halve C"] > 0.0
    assert STORAGE_LEVERS["double_snapshot_bandwidth"] not in plan.levers
    assert STORAGE_LEVERS["double_snapshot_bandwidth"] not in storage_levers(fleet)
    assert STORAGE_LEVERS["double_write_bandwidth"] in plan.levers
    assert STORAGE_LEVERS["double_snapshot_bandwidth"] not in fleet_plan(params_from_mapping(SYNC)).levers


def test_no_storage_levers_without_storage() -> None:
    """Durations typed, no storage: no storage lever in the plan, the command's JSON or storage_levers."""
    fleet = fleet_plan(params_from_mapping(FLEET_65K))
    assert storage_levers(fleet.params) == {}
    assert not set(fleet.levers) & set(STORAGE_LEVERS.values())


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(write=st.floats(0.5, 500.0), share=st.floats(0.05, 1.0), snapshot=st.floats(5.0, 200.0))
def test_doubling_a_bandwidth_never_loses_goodput(write: float, share: float, snapshot: float) -> None:
    data = {**STORED, "storage": {"write_bandwidth": f"{write!r} GB/s", "read_bandwidth": f"{2 * write!r} GB/s",
                                  "efficiency": share},
            "snapshot": {"bandwidth": f"{snapshot!r} GB/s"}}
    try:
        fleet = fleet_plan(params_from_mapping(data))
    except InputError:  # a snapshot slower than the direct write is refused: not this lever's case
        return
    assert fleet.levers[STORAGE_LEVERS["double_write_bandwidth"]] >= 0.0
    # the snapshot doubled is C halved: the lever "halve C", never a gain lost
    assert STORAGE_LEVERS["double_snapshot_bandwidth"] not in fleet.levers and fleet.levers["halve C"] >= 0.0
