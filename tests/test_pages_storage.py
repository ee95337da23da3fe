"""The storage page (goodput.pages.storage.build) and its figure and table: published figures and the fleet's bandwidth.

The published figures are reproduced from their sources' own inputs (BLOOM to a fraction of a percent for the weights,
GEMINI to within a percent); the fleet's part is its plan at each write bandwidth, with its storage inputs or, without
them, the labelled illustration.
"""

from __future__ import annotations

import dataclasses
import itertools
import math

import numpy as np
import pytest

from goodput.book import storage_figures, variant_text
from goodput.exact import exact_goodput
from goodput.fleet import FleetPlan, fleet_plan
from goodput.pages import Variant
from goodput.pages import storage as pages
from goodput.params import Params, load_params, params_from_mapping
from goodput.storage import Storage, checkpoint_size, transfer_minutes
from goodput.whatif import fleet_write

FLEET_65K = {"gpus": 65536, "rate_per_gpu_hour": 2.2e-5, "checkpoint_cost": "25 s", "slow_checkpoint_cost": "5 min",
             "restart": "15 min", "price_per_gpu_hour": 3.2, "month": "730 h", "drain": "4 min",
             "persistent": {"cost": "3 min", "restart": "25 min"}, "fast_survives": 0.75}


@pytest.fixture(scope="module")
def example() -> FleetPlan:
    return fleet_plan(load_params())


@pytest.fixture(scope="module")
def tiered() -> FleetPlan:
    return fleet_plan(params_from_mapping(FLEET_65K, source="fleet-65k.yml"))


def with_storage(params: Params, storage: Storage) -> FleetPlan:
    """A fleet whose checkpoint is the storage's synchronous write (C = S / (e B))."""
    return fleet_plan(params.replace(checkpoint_cost=storage.checkpoint_cost, storage=storage))


def test_the_published_figures_are_reproduced(example: FleetPlan) -> None:
    """BLOOM: 176.25e9 x 2 B = 328 GiB against 329 (0.2%); x 14 B = 2.47 TB = 2.24 TiB against 2.3 (2.4% binary,
    7.3% decimal). GEMINI: 530e9 x 12 B at 20 Gb/s = 2.5 GB/s, 42.4 min against 42 (1.0%). 744B / 16 nodes: 651 GB."""
    page = pages.build(example)
    assert (page.bloom_weights_gib, page.bloom_weights_gap) == ("328 GiB", "0.2%")
    assert (page.bloom_full, page.bloom_full_tib, page.bloom_full_gap_binary, page.bloom_full_gap_decimal) == (
        "2.47 TB", "2.24 TiB", "2.4%", "7.3%")
    assert (page.gemini_size, page.gemini_bandwidth, page.gemini_minutes, page.gemini_gap) == (
        "6.36 TB", "2.5 GB/s", "42.4 min", "1.0%")
    assert abs(transfer_minutes(530e9 * 12, 20e9 / 8) - 42.0) / 42.0 < 0.01
    assert (page.staging_per_node, page.staging_share, page.staging_double) == ("651 GB", "83%", "1.3 TB")
    assert (page.lablup_write_achieved, page.lablup_read_achieved) == ("40 GB/s", "150 GB/s")
    # The user reports' implied bandwidths: 8.03e9 x 12..14 B in 6 min; 70e9 x 12..14 B in 10 min.
    assert page.titan_bandwidth == "268 to 312 MB/s" and page.megatron_bandwidth == "1.40 to 1.63 GB/s"


def test_without_storage_the_fleet_part_is_the_labelled_illustration(example: FleetPlan) -> None:
    """The worked example's 5 min slow checkpoint as a write of 2.47 TB: 8.22 GB/s, its goodput the slow plan's 76.5%;
    matching the plan's 87.6% needs the bandwidth that makes the write the fast checkpoint's 1 min."""
    page = pages.build(example)
    assert page.fleet_storage == Variant("illustration")
    assert (page.size, page.achieved, page.cost_now, page.goodput_now) == ("2.47 TB", "8.22 GB/s", "5 min", "76.5%")
    assert page.goodput_now == f"{100 * example.slow.goodput:.1f}%"
    assert page.match == Variant("reachable") and page.match_cost == "60 s"
    ceiling = float(exact_goodput(1e-9, example.params.mtbi, example.params.restart))
    assert page.ceiling == f"{100 * ceiling:.1f}%"


@pytest.mark.slow
def test_the_needed_bandwidth_gives_the_target_back(tiered: FleetPlan) -> None:
    """Plugging the returned bandwidth back in gives the target goodput to within 0.1 point, and a tenth less misses it."""
    size, _, _ = fleet_write(tiered)
    target = tiered.plan.goodput
    from goodput.storage import bandwidth_for_goodput

    needed = bandwidth_for_goodput(lambda b: tiered.goodput_at_write_bandwidth(b, size), target)
    assert needed is not None
    assert abs(tiered.goodput_at_write_bandwidth(needed, size) - target) < 1e-3
    assert tiered.goodput_at_write_bandwidth(0.9 * needed, size) < target
    assert pages.build(tiered).match == Variant("reachable")


def test_goodput_never_falls_as_bandwidth_rises(tiered: FleetPlan) -> None:
    size, achieved, _ = fleet_write(tiered)
    values = [tiered.goodput_at_write_bandwidth(achieved * 2.0**k, size) for k in range(-8, 9)]
    assert all(b >= a - 1e-12 for a, b in itertools.pairwise(values))
    assert values[0] >= 0.0 and values[-1] <= 1.0


def test_with_storage_the_fleet_part_is_its_own_plan(example: FleetPlan) -> None:
    """A synchronous write of 2.3 TB at 16% of 250 GB/s: C = 2.3e12 / 40e9 s = 57.5 s, the plan's own C; doubling the
    bandwidth halves C and gains what halving C gains."""
    storage = Storage(size=2.3e12, nodes=2048, write_bandwidth=250e9, efficiency=0.16)
    fleet = with_storage(example.params, storage)
    page = pages.build(fleet)
    assert page.fleet_storage == Variant("given") and page.match == Variant("none")
    assert (page.datasheet, page.achieved, page.efficiency, page.cost_now) == ("250 GB/s", "40 GB/s", "16%", "57.5 s")
    assert math.isclose(fleet.params.checkpoint_cost, 2.3e12 / 40e9 / 60.0, rel_tol=1e-12)
    assert page.goodput_now == f"{100 * fleet.plan.goodput:.1f}%"
    halved = float(exact_goodput(fleet.params.checkpoint_cost / 2, fleet.params.mtbi, fleet.params.restart))
    assert page.double_goodput == f"{100 * halved:.1f}%"


def test_with_a_snapshot_the_write_is_the_drain(example: FleetPlan) -> None:
    storage = Storage(size=2.3e12, nodes=2048, write_bandwidth=250e9, efficiency=0.16, snapshot_bandwidth=25e9)
    fleet = fleet_plan(example.params.replace(checkpoint_cost=storage.checkpoint_cost, drain=storage.drain,
                                              storage=storage))
    page = pages.build(fleet)
    assert page.written == "the drain D" and page.cost_now == "57.5 s"
    assert fleet.plan_at_write_bandwidth(80e9, storage.size).tiers is not None
    assert math.isclose(fleet.plan_at_write_bandwidth(80e9, storage.size).tiers.drain,  # type: ignore[union-attr]
                        2.3e12 / 80e9 / 60.0, rel_tol=1e-12)


def test_a_write_so_slow_no_work_is_kept_reads_zero(tiered: FleetPlan) -> None:
    assert tiered.goodput_at_write_bandwidth(1.0, checkpoint_size(176.25e9)) == 0.0


def test_figure_and_table(tiered: FleetPlan) -> None:
    page = pages.build(tiered)
    table = storage_figures.published_table(page).data
    assert len(table) == 8 and table["this book"].iloc[2].startswith(page.gemini_minutes)
    fig = storage_figures.goodput_vs_bandwidth(tiered)
    (ax,) = fig.axes
    curve = np.asarray(ax.lines[0].get_ydata(), dtype=float)
    assert ((curve >= 0.0) & (curve <= 1.0)).all() and np.all(np.diff(curve) >= -1e-12)



@pytest.mark.slow
def test_what_to_buy_quotes_the_lever_and_the_best_bandwidth(stored: FleetPlan) -> None:
    """The chapter's doubling is the lever (write and read doubled), the snapshot's lever is quoted, and B* with its
    goodput, storage cost and net, beside the net at the fleet's own bandwidth, which B* does not fall below."""
    from goodput.model import capacity_per_month
    from goodput.report import money

    page = pages.build(stored)
    gain = stored.levers["double the storage bandwidth"]
    assert page.double_goodput == f"{100 * (stored.plan.goodput + gain):.1f}%"
    assert page.double_points == f"{100 * gain:.1f} points"
    assert "snapshot" in page.snapshot_lever and page.top_lever == stored.levers_ranked[0][0]
    best = stored.best_write_bandwidth
    assert best is not None and page.best == Variant("inside")
    assert (page.storage_price, page.best_net, page.best_cost) == ("$1,500", money(best.net_per_month),
                                                                   money(best.storage_cost_per_month))
    own = capacity_per_month(stored.plan.goodput, 65536, 3.2, 730 * 60.0) - 1500 * 2000
    assert page.fleet_net == money(own) and page.fleet_cost == "$3.0M"
    assert best.net_per_month >= own
    for key in ("fleet_storage", "best", "needed", "match"):
        assert "{" not in variant_text(page, key)


def test_the_best_bandwidth_variants(example: FleetPlan, stored: FleetPlan) -> None:
    """No storage: none; storage without a price: unpriced; free bandwidth: the top of the search, 64 times."""
    assert pages.build(example).best == Variant("none")
    unpriced = fleet_plan(stored.params.replace(storage=dataclasses.replace(stored.params.storage, price=None)))
    assert pages.build(unpriced).best == Variant("unpriced")
    for fleet in (example, unpriced):  # each says how to give a price, its braces written as braces
        assert "storage: {" in variant_text(pages.build(fleet), "best")
    free = fleet_plan(stored.params.replace(storage=dataclasses.replace(stored.params.storage, price=0.0)))
    page = pages.build(free)
    assert page.best == Variant("top") and page.best_bandwidth == "128 TB/s" and page.span == "64"
    assert "{" not in variant_text(page, "best")


@pytest.mark.slow
def test_the_bandwidth_figure_marks_b_star_at_its_achieved_bandwidth(stored: FleetPlan) -> None:
    fig = storage_figures.goodput_vs_bandwidth(stored)
    (ax,) = fig.axes
    best = stored.best_write_bandwidth
    assert best is not None
    marks = [line for line in ax.lines if line.get_linestyle() == "-." and line.get_label().startswith("B*")]
    assert len(marks) == 1
    assert float(marks[0].get_xdata()[0]) == pytest.approx(best.bandwidth * 0.5)


def test_the_search_is_described_only_where_a_bandwidth_for_a_target_is_quoted(example: FleetPlan,
                                                                               small_params: Params) -> None:
    """The worked example's illustration quotes the bandwidth that matches its plan (a search); the small fleet is
    already within a point of its ceiling and has its own storage, so it quotes no searched bandwidth and the page does
    not describe the search."""
    page = pages.build(example)
    assert page.match == Variant("reachable") and page.search == Variant("quoted")
    small = pages.build(fleet_plan(small_params))
    assert (small.needed, small.match, small.search) == (Variant("already"), Variant("none"), Variant("none"))


def test_the_storage_lever_says_only_what_the_fleet_derives_again(small_params: Params, stored: FleetPlan) -> None:
    """The small fleet states no read bandwidth and its R has no load part: its storage page and its plan's footer
    double the write bandwidth alone and derive the drain again; the 405B fleet states a read bandwidth and derives
    its load from it, and both say so (report.storage_rederived, the levers page's words)."""
    from goodput.plan import plan_for, storage_levers
    from goodput.report import _notes, plan_report, storage_rederived

    small = fleet_plan(small_params)
    page = pages.build(small)
    assert (page.read_doubled, page.rederived) == ("", "the drain")
    assert (pages.build(stored).read_doubled, pages.build(stored).rederived) == tuple(
        storage_rederived(stored.params).values())

    def footer(p: Params) -> str:
        report = dataclasses.replace(plan_report(plan_for(p), p), params=p, storage_levers=storage_levers(p))
        return next(n for n in _notes(report) if n.startswith("Storage levers"))

    assert "read" not in footer(small_params) and "load" not in footer(small_params)
    assert "the drain" in footer(small_params) and "snapshot" in footer(small_params)
    assert "read" in footer(stored.params) and "load" in footer(stored.params)


def test_a_fleet_already_near_its_ceiling_quotes_its_own_gap(small_params: Params) -> None:
    """The small fleet's goodput at 12 GB/s is 0.013 points below the ceiling of a write taking no time: the page
    quotes that gap, not 'within a point'."""
    from goodput.report import small_points
    from goodput.whatif import write_whatifs

    small = fleet_plan(small_params)
    w = write_whatifs(small)
    gap = w.ceiling - w.now.goodput
    assert 0.0 < gap < 0.01
    page = pages.build(small)
    assert page.needed == Variant("already") and page.ceiling_gap == small_points(gap) == "0.013 points"
