"""What a planner knows (issues 19 and 20) read from a params file: C, D and R derived, stated, and checked.

The derived inputs must give the same plan as typing the derived durations; goodput never falls as the
storage gets faster; size and bandwidth scale C linearly; and every bad input is one InputError.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from goodput.errors import InputError
from goodput.fleet import fleet_plan
from goodput.params import load_params, params_from_mapping
from goodput.plan import plan_for
from goodput.restart import RestartParts, spare_wait
from goodput.storage import transfer_minutes

BASE = {
    "gpus": 4096,
    "mtbi": "3 h",
    "price_per_gpu_hour": 2.5,
    "month": "720 h",
}
TYPED = {**BASE, "checkpoint_cost": "1 min", "slow_checkpoint_cost": "5 min", "restart": "5 min"}


#: The stored fleet (tests/data/fleet-stored.yml) as a mapping: C derived from its snapshot, 13.8 ms.
STORED_STALL = {"gpus": 65536, "rate_per_gpu_hour": 2.2e-5, "checkpoint": {"parameters": "405e9"},
                "storage": {"write_bandwidth": "2 TB/s", "efficiency": 0.5},
                "snapshot": {"bandwidth": "50 GB/s", "host_memory": "2 TiB"}, "restart": "10 min",
                "price_per_gpu_hour": 3.2, "month": "730 h"}


def known(**keys: object) -> dict:
    """BASE with a restart, and the keys given."""
    return {**BASE, "restart": "5 min", **keys}


# --------------------------------------------------------------------------- what follows from the inputs


def test_gemini_checkpoint_of_mt_nlg_at_20_gbit_per_s_is_42_min() -> None:
    """GEMINI (SOSP'23): about 42 min to checkpoint MT-NLG (530e9 parameters, 12 bytes each) at 20 Gb/s."""
    p = params_from_mapping(known(checkpoint={"parameters": "530e9", "bytes_per_parameter": 12},
                                  storage={"write_bandwidth": "20 Gb/s"}))
    assert p.checkpoint_size == 530e9 * 12
    assert abs(p.checkpoint_cost - 42.0) / 42.0 < 0.01
    assert p.slow_checkpoint_cost == p.checkpoint_cost  # the comparison case is the synchronous write itself
    assert "checkpoint_cost" in p.derived and "drain" not in p.derived and p.drain == 0.0


def test_default_is_fourteen_bytes_per_parameter() -> None:
    p = params_from_mapping(known(checkpoint={"parameters": "176e9"}, storage={"write_bandwidth": "10 GB/s"}))
    assert p.checkpoint_size == 176e9 * 14


def test_snapshot_gives_c_and_the_drain() -> None:
    """With a snapshot: C is each node's share copied at the device-to-host bandwidth, D the write to storage."""
    p = params_from_mapping(known(checkpoint={"size": "2.4 TB"}, storage={"write_bandwidth": "250 GB/s",
                                  "efficiency": 0.16}, snapshot={"bandwidth": "25 GB/s", "host_memory": "780 GB"}))
    nodes = 4096 // 8
    assert_allclose(p.checkpoint_cost, 2.4e12 / nodes / 25e9 / 60)
    assert_allclose(p.drain, 2.4e12 / (250e9 * 0.16) / 60)
    assert_allclose(p.slow_checkpoint_cost, p.drain)
    assert plan_for(p).tiers is not None  # the drain puts the tier model to work


def test_load_from_the_read_bandwidth_is_a_part_of_the_restart() -> None:
    parts = {"detect": "30 s", "replace": "2 min", "startup": "1 min", "startup_per_node": "6 s", "warmup": "2 min"}
    p = params_from_mapping({**BASE, "checkpoint": {"size": "2.3 TB"}, "restart": parts,
                             "storage": {"write_bandwidth": "100 GB/s", "read_bandwidth": "700 GB/s",
                                         "efficiency": 0.5, "read_efficiency": 0.215}})
    load = 2.3e12 / (700e9 * 0.215) / 60
    expected = RestartParts(detect=0.5, replace=2.0, startup=1.0, startup_per_node=0.1, load=load, warmup=2.0,
                            nodes=512)
    assert p.restart_parts == expected
    assert_allclose(p.restart, expected.total)
    assert_allclose(p.restart, 0.5 + 2 + 1 + 0.1 * 512 + load + 2)


def test_a_given_load_wins_over_the_read_bandwidth() -> None:
    p = params_from_mapping({**BASE, "checkpoint": {"size": "2.3 TB"}, "restart": {"load": "3 min", "warmup": "1 min"},
                             "storage": {"write_bandwidth": "100 GB/s", "read_bandwidth": "700 GB/s"}})
    assert p.restart == 4.0 and "load" not in p.derived


def test_spares_add_the_expected_wait_for_repairs() -> None:
    p = params_from_mapping(known(checkpoint_cost="1 min", slow_checkpoint_cost="5 min",
                                  spares={"nodes": 2, "repair": "12 h", "takes_node": 0.6}))
    assert_allclose(p.restart, 5.0 + spare_wait(2, 180.0, 720.0, 0.6))
    assert p.restart > 5.0 and "restart" in p.derived


def test_no_new_inputs_leave_every_number_unchanged() -> None:
    p = params_from_mapping(TYPED)
    assert (p.checkpoint_cost, p.slow_checkpoint_cost, p.restart, p.drain) == (1.0, 5.0, 5.0, 0.0)
    assert (p.checkpoint_size, p.storage, p.restart_parts, p.spares, p.known) == (None, None, None, None, None)
    assert (p.derived, p.just_in_time, p.planned_rate, p.gpus_per_node) == ({}, 0.0, 0.0, 8)


def test_planned_stops_from_a_count_or_a_rate() -> None:
    count = params_from_mapping({**TYPED, "planned": {"count": 47, "window": "54 days"}})
    rate = params_from_mapping({**TYPED, "planned": {"rate": "0.87 per day"}})
    assert_allclose(count.planned_rate, 47 / (54 * 24))
    assert_allclose(rate.planned_rate, 0.87 / 24)
    # the count is kept to be shown as given, and only while it still gives the rate
    assert (count.planned_counted, rate.planned_counted) == ((47, 54 * 1440.0), None)
    assert count.replace(planned_rate=0.5).planned_counted is None
    jit = params_from_mapping({**TYPED, "just_in_time": {"share": 0.7, "recovery": "30 s"}})
    assert (jit.just_in_time, jit.jit_recovery) == (0.7, 0.5)


# --------------------------------------------------------------------------- properties


SIZES = st.floats(min_value=1e10, max_value=1e13)
BANDWIDTHS = st.floats(min_value=1e9, max_value=1e12)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(size=SIZES, bandwidth=BANDWIDTHS, efficiency=st.floats(min_value=0.05, max_value=1.0),
       snapshot=st.booleans())
def test_derived_inputs_give_the_plan_of_the_typed_durations(size: float, bandwidth: float, efficiency: float,
                                                             snapshot: bool) -> None:
    """Typing the derived C, D and R gives the very same plan as deriving them."""
    storage = {"write_bandwidth": f"{bandwidth!r} B/s", "efficiency": efficiency, "read_bandwidth": "500 GB/s"}
    extra = {"snapshot": {"bandwidth": "20 GB/s"}} if snapshot else {}
    derived = params_from_mapping({**BASE, "checkpoint": {"size": f"{size!r} B"}, "storage": storage,
                                   "restart": {"startup": "3 min"}, **extra})
    typed = params_from_mapping({**BASE, "checkpoint_cost": f"{derived.checkpoint_cost!r} min",
                                 "slow_checkpoint_cost": f"{derived.slow_checkpoint_cost!r} min",
                                 "restart": f"{derived.restart!r} min",
                                 **({"drain": f"{derived.drain!r} min"} if snapshot else {})})
    assert_allclose(derived.restart, 3.0 + transfer_minutes(size, 500e9, efficiency))
    a, b = plan_for(derived), plan_for(typed)
    assert_allclose((a.interval, a.goodput), (b.interval, b.goodput), rtol=1e-12)


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(size=SIZES, low=BANDWIDTHS, factor=st.floats(min_value=1.0, max_value=100.0), snapshot=st.booleans())
def test_goodput_never_falls_as_bandwidth_rises(size: float, low: float, factor: float, snapshot: bool) -> None:
    extra = {"snapshot": {"bandwidth": "20 GB/s"}} if snapshot else {}

    def goodput(bandwidth: float) -> float:
        return plan_for(params_from_mapping(known(checkpoint={"size": f"{size!r} B"},
                                                  storage={"write_bandwidth": f"{bandwidth!r} B/s"}, **extra))).goodput

    try:
        low_goodput, high_goodput = goodput(low), goodput(low * factor)
    except InputError as error:  # a snapshot slower than writing directly is refused, not planned
        assume("snapshot.bandwidth" not in str(error))
        raise
    assert high_goodput >= low_goodput - 1e-12


@settings(max_examples=30, deadline=None)
@given(size=SIZES, bandwidth=BANDWIDTHS, k=st.floats(min_value=0.1, max_value=10.0))
def test_size_and_bandwidth_scale_c_linearly(size: float, bandwidth: float, k: float) -> None:
    def cost(s: float, b: float) -> float:
        return params_from_mapping(known(checkpoint={"size": f"{s!r} B"},
                                         storage={"write_bandwidth": f"{b!r} B/s"})).checkpoint_cost

    c = cost(size, bandwidth)
    assert_allclose(cost(k * size, bandwidth), k * c, rtol=1e-12)
    assert_allclose(cost(size, k * bandwidth), c / k, rtol=1e-12)


@pytest.mark.parametrize("target", [0.5, 0.7, 0.8])
@pytest.mark.parametrize("snapshot", [False, True])
def test_the_needed_bandwidth_plugged_back_gives_the_target(target: float, snapshot: bool) -> None:
    extra = {"snapshot": {"bandwidth": "20 GB/s"}} if snapshot else {}
    p = params_from_mapping(known(checkpoint={"parameters": "70e9"}, storage={"write_bandwidth": "1 GB/s"}, **extra))
    fleet = fleet_plan(p)
    bandwidth = fleet.needed_write_bandwidth(target)
    assert bandwidth is not None
    back = params_from_mapping(known(checkpoint={"parameters": "70e9"},
                                     storage={"write_bandwidth": f"{bandwidth!r} B/s"}, **extra))
    assert abs(plan_for(back).goodput - target) < 0.001
    assert plan_for(fleet.at_write_bandwidth(bandwidth * 0.99)).goodput < target


def test_an_unreachable_target_gives_none() -> None:
    p = params_from_mapping(known(checkpoint={"parameters": "70e9"}, storage={"write_bandwidth": "1 GB/s"}))
    assert fleet_plan(p).needed_write_bandwidth(0.999) is None


def test_best_spares_uses_the_fleet_plan() -> None:
    p = params_from_mapping(known(checkpoint_cost="1 min", slow_checkpoint_cost="5 min", drain="10 min",
                                  spares={"nodes": 1, "repair": "12 h", "takes_node": 0.6}))
    choice = fleet_plan(p).best_spares
    assert choice is not None
    parts = 5.0
    for c in (0, choice.best):
        r = parts + spare_wait(c, p.mtbi, 720.0, 0.6)
        assert_allclose(choice.restart[c], r)
        assert_allclose(choice.goodput[c], plan_for(p.replace(restart=r)).goodput)  # with the drain, not one tier
    assert choice.goodput == sorted(choice.goodput)  # more spares never wait longer
    assert fleet_plan(params_from_mapping(TYPED)).best_spares is None


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(("keys", "needle"), [
    ({"checkpoint": {"size": "2.3"}, "storage": {"write_bandwidth": "1 GB/s"}}, "checkpoint.size"),
    ({"checkpoint": {"size": "2.3 Tb"}, "storage": {"write_bandwidth": "1 GB/s"}}, "checkpoint.size"),
    ({"checkpoint": {"size": "2.3 TB"}, "storage": {"write_bandwidth": "1 GB"}}, "storage.write_bandwidth"),
    ({"checkpoint": {"size": "2.3 TB"}, "storage": {"write_bandwidth": "20 gb/s"}}, "storage.write_bandwidth"),
    ({"checkpoint": {"size": "2.3 TB"}, "storage": {"write_bandwidth": "0 GB/s"}}, "storage.write_bandwidth"),
    ({"checkpoint": {"size": "2.3 TB"}, "storage": {"write_bandwidth": "-1 GB/s"}}, "storage.write_bandwidth"),
    ({"checkpoint": {"size": "2.3 TB"}, "storage": {"write_bandwidth": "1 GB/s", "efficiency": 0}}, "efficiency"),
    ({"checkpoint": {"size": "2.3 TB"}, "storage": {"write_bandwidth": "1 GB/s", "efficiency": 1.2}}, "efficiency"),
    ({"checkpoint": {"size": "2.3 TB"}, "storage": {"write_bandwidth": "1 GB/s"},
      "snapshot": {"bandwidth": "20 GB/s", "host_memory": "1 GB"}}, "snapshot.host_memory"),
    ({"checkpoint": {"size": "2.3 TB"}, "storage": {"write_bandwidth": "1 GB/s"}, "checkpoint_cost": "1 min"},
     "checkpoint_cost and storage.write_bandwidth"),
    ({"checkpoint": {"size": "2.3 TB"}, "storage": {"write_bandwidth": "1 GB/s", "read_bandwidth": "2 GB/s"},
     }, "restart and storage.read_bandwidth"),
    ({"storage": {"write_bandwidth": "1 GB/s"}}, "write_bandwidth"),
    ({"checkpoint": {"size": "2.3 TB", "parameters": "1e9"}}, "checkpoint"),
    ({"checkpoint": {"size": "2.3 TB"}, "storage": {"writebandwidth": "1 GB/s"}}, "write_bandwidth"),
    ({"checkpoint": {"size": "2.3 TB"}, "storage": {"write_bandwidth": "1 GB/s"}, "gpus_per_node": 7}, "gpus_per_node"),
    ({"spares": {"nodes": 2, "repair": "12 h"}}, "spares.takes_node"),
    ({"planned": {"rate": "2 per fortnight"}}, "planned.rate"),
    ({"just_in_time": 1}, "just_in_time"),
])
def test_bad_planner_input_is_one_line_naming_it(keys: dict, needle: str) -> None:
    data = {**known(), "slow_checkpoint_cost": "5 min", **keys}
    if "storage" not in keys:
        data["checkpoint_cost"] = "1 min"
    with pytest.raises(InputError) as info:
        params_from_mapping(data)
    message = str(info.value)
    assert needle in message and "\n" not in message


def test_unknown_key_suggests_the_close_one() -> None:
    with pytest.raises(InputError, match="did you mean 'spares'"):
        params_from_mapping({**TYPED, "spare": {"nodes": 1}})


def test_host_memory_that_fits_is_accepted_and_double_buffering_doubles_it() -> None:
    one = {"bandwidth": "20 GB/s", "host_memory": "5 GB"}
    data = known(checkpoint={"size": "2 TB"}, storage={"write_bandwidth": "1 GB/s"})  # 2 TB / 512 nodes = 3.9 GB
    assert params_from_mapping({**data, "snapshot": one}).storage is not None
    with pytest.raises(InputError, match="double-buffered"):
        params_from_mapping({**data, "snapshot": {**one, "double_buffered": "true"}})



@settings(max_examples=30, deadline=None)
@given(c=st.floats(0.1, 10.0), m=st.floats(30.0, 2000.0), r=st.floats(0.5, 30.0), p=st.floats(0.0, 0.95),
       q=st.floats(0.0, 0.2))
def test_recovery_losses_add_up_and_reduce_to_the_one_tier_models(c: float, m: float, r: float, p: float,
                                                                  q: float) -> None:
    from goodput.exact import exact_losses
    from goodput.model import losses
    from goodput.restart import recovery_goodput, recovery_losses

    exact = recovery_losses(c, m, r, just_in_time=p, jit_recovery=0.5, planned_rate=q)
    assert_allclose(exact.total + exact.goodput, 1.0)
    assert_allclose(exact.goodput, recovery_goodput(c, m, r, exact.interval, just_in_time=p, jit_recovery=0.5,
                                                    planned_rate=q), rtol=1e-12)
    assert min(exact.checkpoint_overhead, exact.lost_work, exact.restart_loss) >= 0.0
    one = recovery_losses(c, m, r, 17.0)
    ref = exact_losses(c, m, r, 17.0)
    assert_allclose((one.checkpoint_overhead, one.lost_work, one.restart_loss),
                    (ref.checkpoint_overhead, ref.lost_work, ref.restart_loss), rtol=1e-9, atol=1e-15)
    first, ref1 = recovery_losses(c, m, r, 17.0, which="first-order"), losses(c, m, r, 17.0)
    assert_allclose((first.checkpoint_overhead, first.lost_work, first.restart_loss),
                    (ref1.checkpoint_overhead, ref1.lost_work, ref1.restart_loss), rtol=1e-12)


# --------------------------------------------------------------------------- the price of storage bandwidth (spec C)


@pytest.mark.parametrize(("price", "read"), [("1500", 1500.0), ("0", 0.0), ("2.5e3", 2500.0)])
def test_the_storage_price_is_read_as_dollars_per_gb_per_s_a_month(price: str, read: float) -> None:
    p = params_from_mapping(known(checkpoint={"size": "2.3 TB"},
                                  storage={"write_bandwidth": "100 GB/s", "price": price}))
    assert p.storage is not None and p.storage.price == read
    assert p.known is not None and p.known.storage_price == read


@pytest.mark.parametrize("price", ["-1", "cheap", "1500 USD", "inf", "nan", ""])
def test_a_bad_storage_price_is_one_line_naming_it(price: str) -> None:
    with pytest.raises(InputError) as info:
        params_from_mapping(known(checkpoint={"size": "2.3 TB"},
                                  storage={"write_bandwidth": "100 GB/s", "price": price}))
    message = str(info.value)
    assert "storage.price" in message and "\n" not in message and "GB/s" in message


def test_a_price_without_a_storage_is_refused() -> None:
    with pytest.raises(InputError, match="write_bandwidth"):
        params_from_mapping(known(checkpoint={"size": "2.3 TB"}, storage={"price": "1500"}))


def test_no_price_leaves_the_plan_as_it_was() -> None:
    """The price only prices the bandwidth: C, D, R and the plan are the same with or without it."""
    base = known(checkpoint={"size": "2.3 TB"}, storage={"write_bandwidth": "100 GB/s"})
    priced = known(checkpoint={"size": "2.3 TB"}, storage={"write_bandwidth": "100 GB/s", "price": "1500"})
    a, b = params_from_mapping(base), params_from_mapping(priced)
    assert (a.checkpoint_cost, a.restart, a.drain) == (b.checkpoint_cost, b.restart, b.drain)
    assert plan_for(a).goodput == plan_for(b).goodput
    assert fleet_plan(a).best_write_bandwidth is None and fleet_plan(b).best_write_bandwidth is not None


# --------------------------------------------------------------------------- a measured stall beside a snapshot

DATA = Path(__file__).parent / "data"


def test_a_c_typed_beside_a_snapshot_is_the_measured_stall() -> None:
    """fleet-stored-stall.yml = fleet-stored.yml + checkpoint_cost: 6.3 s. C is the typed 6.3 s (given, not derived);
    the snapshot still gives the drain D = 5.67 TB / 1 TB/s = 5.67 s, the host memory and the copy alone,
    692 MB per node / 50 GB/s = 13.8 ms, kept beside C."""
    copy, stall = load_params(DATA / "fleet-stored.yml"), load_params(DATA / "fleet-stored-stall.yml")
    assert stall.checkpoint_cost == pytest.approx(6.3 / 60.0) and "checkpoint_cost" not in stall.derived
    assert stall.checkpoint_is_stall and not stall.checkpoint_per_node and not stall.checkpoint_is_write
    assert not copy.checkpoint_is_stall and copy.checkpoint_per_node and "snapshot_copy" not in copy.derived
    assert (stall.drain, stall.derived["drain"]) == (copy.drain, copy.derived["drain"])
    assert stall.drain * 60.0 == pytest.approx(5.67)
    assert stall.snapshot_copy == copy.snapshot_copy == copy.checkpoint_cost
    assert copy.checkpoint_cost * 60.0 == pytest.approx(0.0138, abs=1e-4)
    assert stall.derived["snapshot_copy"] == copy.derived["checkpoint_cost"]
    assert (stall.storage, stall.restart) == (copy.storage, copy.restart)
    # the synchronous write compared with pays the barrier and quiesce the stall holds beyond its copy (6.29 s)
    assert (stall.slow_checkpoint_cost - copy.slow_checkpoint_cost) * 60 == pytest.approx(6.3 - 0.0138, abs=1e-3)
    assert "with the 6.29 s of barrier and quiesce" in stall.derived["slow_checkpoint_cost"]
    assert load_params().snapshot_copy is None and not load_params().checkpoint_is_stall


def test_a_stall_shorter_than_the_copy_is_refused_in_one_line_with_the_copy() -> None:
    """5 ms is less than the 13.8 ms the copy alone takes: refused, naming checkpoint_cost, the value and the copy."""
    with pytest.raises(InputError) as info:
        params_from_mapping({**STORED_STALL, "checkpoint_cost": "5 ms"})
    message = str(info.value)
    assert message.startswith("checkpoint_cost: got '5 ms'") and "\n" not in message
    assert "at least the snapshot's copy, 13.8 ms (692 MB per node at 50 GB/s)" in message
    assert params_from_mapping({**STORED_STALL, "checkpoint_cost": "13.9 ms"}).checkpoint_is_stall


def test_a_range_of_the_stall_below_the_copy_is_refused_like_the_stall() -> None:
    """A range of the measured stall whose low end is below the 13.8 ms copy is refused in one line, naming the range;
    one from the copy up is taken; a range of C where C is the copy itself (no stall typed) is not checked against it."""
    with pytest.raises(InputError) as info:
        params_from_mapping({**STORED_STALL, "checkpoint_cost": "6.3 s", "ranges": {"checkpoint_cost": ["5 ms", "8 s"]}})
    message = str(info.value)
    assert message.startswith("ranges.checkpoint_cost: got ['5 ms', '8 s']") and "\n" not in message
    assert "at least the snapshot's copy, 13.8 ms" in message
    taken = params_from_mapping({**STORED_STALL, "checkpoint_cost": "6.3 s",
                                 "ranges": {"checkpoint_cost": ["13.9 ms", "8 s"]}})
    assert taken.ranges["checkpoint_cost"] == (pytest.approx(0.0139 / 60.0), pytest.approx(8 / 60.0))
    assert params_from_mapping({**STORED_STALL, "ranges": {"checkpoint_cost": ["5 ms", "20 ms"]}}).ranges


def test_a_stall_longer_than_the_synchronous_write_is_taken() -> None:
    """6.3 s is longer than the 5.67 s synchronous write alone: taken as measured, and the write compared with pays
    the same 6.29 s of barrier and quiesce (11.96 s), where a snapshot derived slower than that write is still
    refused. Beside a snapshot no faster than the storage, the write with them stalls less than the stall."""
    p = params_from_mapping({**STORED_STALL, "checkpoint_cost": "6.3 s"})
    assert p.storage is not None and p.checkpoint_cost > p.storage.write_minutes
    assert p.slow_checkpoint_cost * 60 == pytest.approx(11.96, abs=0.01)
    slow = params_from_mapping({**STORED_STALL, "checkpoint_cost": "6.3 s",
                                "snapshot": {"bandwidth": "120 MB/s", "host_memory": "2 TiB"}})
    assert slow.slow_checkpoint_cost < slow.checkpoint_cost
    with pytest.raises(InputError, match=r"snapshot\.bandwidth"):
        params_from_mapping({**STORED_STALL, "snapshot": {"bandwidth": "1 MB/s"}})


def test_storage_without_a_snapshot_still_refuses_a_typed_c() -> None:
    """Without a snapshot C is the synchronous write itself: a typed C beside it is refused as before."""
    data = {key: value for key, value in STORED_STALL.items() if key != "snapshot"}
    with pytest.raises(InputError, match=r"checkpoint_cost and storage\.write_bandwidth"):
        params_from_mapping({**data, "checkpoint_cost": "6.3 s"})


def test_an_error_quotes_a_bandwidth_as_the_file_typed_it() -> None:
    """A write bandwidth without a checkpoint size, typed "20 Gb/s", is quoted so (it was quoted "2.5 GB/s"); a
    snapshot bandwidth without storage likewise ("25 GB/s", not 25000000000.0)."""
    base = {"gpus": 64, "mtbi": "3 h", "checkpoint_cost": "1 min", "slow_checkpoint_cost": "5 min", "restart": "5 min",
            "price_per_gpu_hour": 2.5, "month": "730 h"}
    with pytest.raises(InputError, match=r"storage\.write_bandwidth: got '20 Gb/s'"):
        params_from_mapping({**base, "storage": {"write_bandwidth": "20 Gb/s"}})
    with pytest.raises(InputError, match=r"snapshot\.bandwidth: got '25 GB/s'"):
        params_from_mapping({**base, "snapshot": {"bandwidth": "25 GB/s", "host_memory": "1 TB"}})
