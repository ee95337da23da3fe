"""The levers page (goodput.pages.levers.build) and its figures and tables: values and verdicts from the fleet's plan.

Checked with the worked example, with a fleet unlike it (the conftest's 24,576 GPUs, one tier) and with the planner's
tiered 65,536-GPU fleet of issue 18 (restart its largest loss; plan every 5.91 min, every 4th persistent, 44.2%).
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from matplotlib.text import Text

from goodput import exact
from goodput.book import figures, tables, variant_text
from goodput.fleet import FleetPlan, fleet_plan
from goodput.pages import Variant
from goodput.pages import levers as pages
from goodput.params import Params, load_params, mtbi_from_rate, params_from_mapping
from goodput.plan import plan_for
from goodput.report import AT_OPTIMUM, gain_text

FLEET_65K = {"gpus": 65536, "rate_per_gpu_hour": 2.2e-5, "checkpoint_cost": "25 s", "slow_checkpoint_cost": "5 min",
             "restart": "15 min", "price_per_gpu_hour": 3.2, "month": "730 h", "drain": "4 min",
             "persistent": {"cost": "3 min", "restart": "25 min"}, "fast_survives": 0.75}


@pytest.fixture(scope="module")
def tiered() -> FleetPlan:
    return fleet_plan(params_from_mapping(FLEET_65K, source="fleet-65k.yml"))


@pytest.fixture(scope="module")
def example() -> FleetPlan:
    return fleet_plan(load_params())


@pytest.mark.slow
def test_the_tiered_fleets_page_is_its_plan(tiered: FleetPlan) -> None:
    """Issue 18: the page's plan is the full scheme's (5.91 min, every 4th persistent, 44.2%), not the one-tier 60.3%."""
    page = pages.build(tiered)
    assert (page.interval, page.cadence, page.goodput) == ("5.91 min", ", every 4th one to the persistent tier", "44.2%")
    one_tier = fleet_plan(tiered.params.without_tiers())
    assert percent_of(one_tier.goodput) == "60.3%" and page.goodput != "60.3%"
    assert page.tier_levers == Variant("tiered")


def percent_of(x: float) -> str:
    return f"{100 * x:.1f}%"


def test_the_conclusion_names_the_fleets_own_largest_levers_in_points_and_dollars(tiered: FleetPlan) -> None:
    """65k: halving the failure rate (+19.1 points, 44.2% -> 63.3%, $29M at $3.2 x 65,536 x 730 h), then draining the
    persistent write (+9.5, the command's 53.7%), then halving R (+6.6); its largest loss is restart, 35.9%."""
    page = pages.build(tiered)
    assert (page.top_lever, page.top_points, page.top_goodput) == ("halve the failure rate", "19.1 points", "63.3%")
    gain = tiered.levers["halve the failure rate"]
    assert page.top_dollars == "$29M"
    assert math.isclose(tiered.dollars(gain), gain * 65536 * 3.2 * 730, rel_tol=1e-12)
    assert (page.lever_2, page.lever_2_points) == ("drain the persistent write as well", "9.5 points")
    assert (page.third, page.third_points) == ("halve R", "6.6 points")
    assert (page.largest_loss, page.largest_loss_share) == ("restart", "35.9%")
    assert page.drained_after == "4 min"  # max(D, C_p) = max(4 min, 3 min)


def test_every_lever_is_ranked_and_tabled_from_the_plan(tiered: FleetPlan) -> None:
    """The table has one row per lever of the plan, largest first; "set the interval right" is at the optimum (the plan is
    at T*), not the 3.4 of an interval twice the optimum."""
    frame = tables.lever_table(tiered).data
    assert list(frame["lever"]) == [name for name, _ in tiered.levers_ranked]
    row = frame.set_index("lever").loc["set the interval right"]
    assert row["gain"] == AT_OPTIMUM and row["goodput after"] == "44.2%"
    assert frame.set_index("lever").loc["drain the persistent write as well", "goodput after"] == "53.7%"


def test_the_worked_examples_levers(example: FleetPlan) -> None:
    """Worked example by the exact model: 87.6% at 18.6 min; halving the failure rate is its largest lever (4.0
    points), then halving C (2.8), then R (1.2); the slow checkpoint 76.5% at 39.8 min, 11.1 points, $3.3M."""
    page = pages.build(example)
    assert (page.interval, page.cadence, page.goodput, page.tier_levers) == ("18.6 min", "", "87.6%", Variant("single"))
    assert (page.top_lever, page.top_points, page.lever_2, page.lever_2_points, page.third, page.third_points) == (
        "halve the failure rate", "4.0 points", "halve C", "2.8 points", "halve R", "1.2 points")
    assert (page.slow_goodput, page.slow_interval, page.slow_points, page.slow_dollars) == (
        "76.5%", "39.8 min", "11.1 points", "$3.3M")
    assert page.cost_verdict == Variant("slower")
    assert page.largest_loss == "lost work"


def test_a_badly_chosen_interval_is_the_same_scheme(tiered: FleetPlan, example: FleetPlan) -> None:
    """Twice the optimum through the fleet's own scheme; half of it is refused where it is shorter than the drain."""
    page = pages.build(tiered)
    long_ = plan_for(tiered.params, interval=2 * tiered.interval)
    assert long_.tiers == tiered.plan.tiers
    assert page.long_goodput == percent_of(long_.goodput) and page.twice_interval == "11.8 min"
    assert page.shorter == Variant("drain")  # 2.96 min < D = 4 min
    w = pages.build(example)
    assert w.shorter == Variant("possible")
    g = example.goodput
    assert w.twice_points == f"{100 * (g - exact.exact_goodput(1.0, example.params.mtbi, 5.0, 2 * example.interval)):.1f} points"


def test_doubling_the_fleet_plans_its_scheme_at_half_m(tiered: FleetPlan) -> None:
    page = pages.build(tiered)
    doubled = tiered.by_size[2 * 65536]
    assert math.isclose(doubled.mtbi, float(mtbi_from_rate(2.2e-5, 2 * 65536)))
    assert doubled.tiers is not None and doubled.tiers.persistent_cost == tiered.plan.tiers.persistent_cost
    assert (page.mtbi, page.m2, page.gpus2) == ("41.6 min", "20.8 min", "131,072 GPUs")
    assert page.goodput2 == percent_of(doubled.goodput) and doubled.goodput < tiered.goodput


def test_the_debate_aside_is_the_worked_examples_whatever_the_fleet(tiered: FleetPlan, example: FleetPlan) -> None:
    """5 min checkpoint: 69.1% every 15 min, 76.3% every 45 min (7.2 points), exact optimum 39.8 min; the 1 min
    checkpoint at its optimum (87.6%) gains 11.2 points over the better of the two, 1.6 times the gap."""
    a, b = pages.build(tiered), pages.build(example)
    fields = ("debate_short_goodput", "debate_long_goodput", "debate_gap", "debate_optimum", "debate_fix", "debate_ratio")
    values = tuple(getattr(a, f) for f in fields)
    assert values == tuple(getattr(b, f) for f in fields)
    assert values == ("69.1%", "76.3%", "7.2 points", "39.8 min", "11.2 points", "1.6")


@pytest.mark.slow
def test_a_fleet_whose_slow_checkpoint_wins_says_so(fleet_variant) -> None:
    """A scheme whose persistent restart is long can lose to the slow checkpoint written synchronously: the page
    picks the variant that says so, and its points are never negative."""
    p = fleet_variant("slow-wins.yml", checkpoint_cost="1 min", slow_checkpoint_cost="70 s", drain="20 min",
                      persistent={"cost": "5 min", "restart": "60 min"}, fast_survives=0.1)
    f = fleet_plan(p)
    page = pages.build(f)
    assert f.slow.goodput > f.goodput
    assert page.cost_verdict == Variant("faster")
    assert not page.slow_points.startswith("-") and "-" not in page.slow_dollars


@pytest.mark.parametrize("data", [
    {"mtbi": "2 min"}, {"slow_checkpoint_cost": "1 min"}, {"interruptions": {"count": 1, "window": "1 s"}},
])
def test_hostile_inputs_give_a_page_without_impossible_numbers(data: dict[str, object]) -> None:
    base = {"gpus": 1024, "checkpoint_cost": "1 min", "slow_checkpoint_cost": "5 min", "restart": "5 min",
            "price_per_gpu_hour": 2.0, "month": "730 h", "mtbi": "3 h"}
    p = params_from_mapping({k: v for k, v in (base | data).items() if not (k == "mtbi" and "interruptions" in data)},
                            source="hostile.yml")
    page = pages.build(fleet_plan(p))
    for name, value in vars(page).items():
        if isinstance(value, str):
            assert "nan" not in value.lower() and not value.startswith("-") and "$-" not in value, (name, value)


@pytest.mark.slow
def test_variants_fill_and_figures_draw(tiered: FleetPlan, example: FleetPlan) -> None:
    for f in (tiered, example):
        page = pages.build(f)
        for key in ("tier_levers", "cost_verdict", "shorter"):
            assert "{" not in variant_text(page, key)
        for draw in (figures.fleet_levers, figures.fleet_cost, figures.fleet_interval, figures.fleet_scaling):
            assert draw(f).axes
    # first order is drawn only where it is quotable: not for the 65k fleet, and for the worked example
    def texts(fig) -> list[str]:
        return [t.get_text() for t in fig.findobj(Text)]

    assert not any("first order" in t for t in texts(figures.fleet_cost(tiered)) + texts(figures.fleet_interval(tiered)))
    assert any("first order" in t for t in texts(figures.fleet_cost(example)))

    def dashed(fig) -> int:
        return sum(line.get_linestyle() == "--" and len(line.get_xdata()) > 1 for ax in fig.axes for line in ax.lines)

    assert dashed(figures.fleet_cost(tiered)) == dashed(figures.fleet_interval(tiered)) == 0
    assert dashed(figures.fleet_interval(example)) == 2


def test_the_fleet_size_table_is_by_size(tiered: FleetPlan) -> None:
    frame = tables.fleet_size_table(tiered).data
    assert "65,536 (this fleet)" in list(frame["GPUs"])
    row = frame[frame["GPUs"] == "65,536 (this fleet)"].iloc[0]
    assert (row["T*"], row["every n-th persistent"], row["goodput"]) == ("5.91 min", "4", "44.2%")
    assert "R" not in frame.columns  # R given whole: the same at every size, no column


@pytest.mark.slow
def test_the_fleet_size_table_shows_r_rederived_from_its_parts(tiered: FleetPlan) -> None:
    """With a start-up per node, R grows with the fleet's nodes: the table's R column is by_size's R at each size,
    increasing with size, and this fleet's row is its own R."""
    from goodput.units import format_duration

    parts = {"detect": "1 min", "replace": "2 min", "startup": "1 min", "startup_per_node": "0.05 s", "warmup": "2 min"}
    fleet = fleet_plan(params_from_mapping({**FLEET_65K, "restart": parts}, source="fleet-65k-parts.yml"))
    frame = tables.fleet_size_table(fleet).data
    plans = fleet.by_size
    assert list(frame["R"]) == [format_duration(plan.restart) for plan in plans.values()]
    restarts = [plan.restart for plan in plans.values()]
    assert restarts == sorted(restarts) and restarts[0] < restarts[-1]
    row = frame[frame["GPUs"] == "65,536 (this fleet)"].iloc[0]
    assert row["R"] == format_duration(fleet.params.restart) == format_duration(1 + 2 + 1 + 8192 * 0.05 / 60 + 2)


@pytest.mark.slow
def test_the_page_says_r_moves_with_size_where_by_size_moves_it(tiered: FleetPlan) -> None:
    """R given whole: the same at every size, and the page says the optimum moves only through M. With a start-up
    per node, or a spare pool whose wait grows with the failure rate, R differs between sizes in by_size, and the
    page names R beside M and why, part by part."""
    assert len({plan.restart for plan in tiered.by_size.values()}) == 1 and pages.build(tiered).size_r == Variant("none")
    assert variant_text(pages.build(tiered), "size_r") == ""
    parts = {"detect": "1 min", "replace": "2 min", "startup": "1 min", "startup_per_node": "0.05 s", "warmup": "2 min"}
    spares = {"nodes": 16, "repair": "12 h", "takes_node": 0.6}
    for changes, variant, named in (({"restart": parts}, "startup", ("start-up",)),
                                    ({"spares": spares}, "spares", ("spares",)),
                                    ({"restart": parts, "spares": spares}, "startup_spares", ("start-up", "spares"))):
        fleet = fleet_plan(params_from_mapping({**FLEET_65K, **changes}, source="fleet-65k-parts.yml"))
        assert len({plan.restart for plan in fleet.by_size.values()}) > 1
        page = pages.build(fleet)
        size_r = variant_text(page, "size_r")
        assert page.size_r == Variant(variant) and "R" in size_r and all(word in size_r for word in named), size_r


@pytest.mark.slow
def test_the_storage_levers_are_tabled_figured_and_said(stored: FleetPlan, example: FleetPlan) -> None:
    """With storage, the table and figure rank the storage lever with the others (the snapshot's is "halve C", listed
    once); the paragraph quotes their
    gains (points, dollars) from the plan; without storage, the paragraph says there are none, and there are none."""
    page = pages.build(stored)
    assert page.storage_levers == Variant("snapshot")
    assert (page.write_now, page.write_doubled, page.snapshot_now, page.snapshot_doubled) == (
        "2 TB/s", "4 TB/s", "50 GB/s", "100 GB/s")
    gain = stored.levers["double the storage bandwidth"]
    assert page.storage_gain == gain_text(gain) == "0.13 points" and gain > 0
    frame = tables.lever_table(stored).data.set_index("lever")
    assert frame.loc["double the storage bandwidth", "what changes"] == "write 2 TB/s → 4 TB/s, read 4 TB/s → 8 TB/s (stated)"
    # the snapshot doubled is C halved: "halve C", listed once (goodput.plan.storage_levers)
    assert "double the snapshot bandwidth" not in frame.index and "halve C" in frame.index
    assert frame.loc["double the storage bandwidth", "goodput after"] == percent_of(stored.plan.goodput + gain)
    assert list(frame.index) == [name for name, _ in stored.levers_ranked]
    labels = [t.get_text() for t in figures.fleet_levers(stored).axes[0].get_yticklabels()]
    assert "double the storage bandwidth" in labels and "double the snapshot bandwidth" not in labels
    assert "{" not in variant_text(page, "storage_levers")
    none = pages.build(example)
    assert none.storage_levers == Variant("none") and "{" not in variant_text(none, "storage_levers")
    assert "double the storage bandwidth" not in list(tables.lever_table(example).data["lever"])


@pytest.mark.slow
def test_the_paragraph_says_one_storage_lever_where_the_snapshot_is_halve_c(stored: FleetPlan) -> None:
    """The snapshot doubled is C halved (C the copy alone): the paragraph names no lever of its own for it."""
    text = variant_text(pages.build(stored), "storage_levers")
    assert "two levers" not in text and "0\\.0 points" not in text, text


def test_the_optimum_is_called_shallow_only_where_a_factor_of_two_costs_little(example: FleetPlan, book: Params) -> None:
    """The worked example: twice the interval costs 2.2 points of 87.6% (shallow); M = 25 min, C = 6 min, R = 8 min:
    4.7 points of 33.2%, half what halving C gains (not flat)."""
    assert pages.build(example).optimum_depth == Variant("shallow")
    refused = fleet_plan(book.replace(mtbi=25.0, checkpoint_cost=6.0, slow_checkpoint_cost=12.0, restart=8.0, ranges={}))
    page = pages.build(refused)
    assert (page.twice_points, page.goodput, page.optimum_depth) == ("4.7 points", "33.2%", Variant("steep"))


def test_the_storage_lever_says_only_what_it_derives_again(small_params: Params, stored: FleetPlan,
                                                           example: FleetPlan) -> None:
    """The small fleet states no read bandwidth and gives R as parts without a load, and types its slow checkpoint:
    doubling its storage bandwidth doubles the write bandwidth alone and derives only the drain again. The 405B fleet
    states a read bandwidth, so it doubles that too and derives the load again; a fleet that types no slow checkpoint
    has it derived again too. Each paragraph's claim follows what at_bandwidths changes."""
    from goodput.params import at_bandwidths

    small = pages.storage_rederived(small_params)
    assert small == {"read_doubled": "", "rederived": "the drain"}
    doubled = at_bandwidths(small_params, write=2.0)
    assert doubled.restart == small_params.restart and doubled.slow_checkpoint_cost == small_params.slow_checkpoint_cost
    assert doubled.drain == pytest.approx(small_params.drain / 2)
    p = stored.params
    assert p.storage is not None and p.storage.read_bandwidth is not None and "load" in p.derived
    words = pages.storage_rederived(p)
    assert words["read_doubled"] != "" and "load" in words["rederived"] and "slow checkpoint" in words["rederived"]
    assert at_bandwidths(p, write=2.0).restart < p.restart
    assert pages.storage_rederived(example.params)["rederived"] == "none"


def test_a_per_node_snapshot_c_is_re_derived_across_fleet_sizes(small_params: Params, example: FleetPlan) -> None:
    """The small fleet's C is the snapshot of each node's share (182 GB / 128 nodes at 400 GB/s = 3.55 ms): on twice
    the nodes the share and C halve (1.78 ms), and the page says the plans re-derive it. A C typed as a duration is
    held at every size and not remarked on."""
    small = fleet_plan(small_params)
    assert small_params.checkpoint_per_node and not example.params.checkpoint_per_node
    assert small.at_size(2 * small_params.gpus).checkpoint_cost == pytest.approx(small_params.checkpoint_cost / 2)
    assert small.by_size[8 * small_params.gpus].checkpoint_cost == pytest.approx(small_params.checkpoint_cost / 8)
    assert example.at_size(2 * example.params.gpus).checkpoint_cost == example.params.checkpoint_cost
    assert (pages.build(small).size_c, pages.build(example).size_c) == (Variant("derived"), Variant("none"))
    assert pages.build(small).cost == "3.55 ms"


def test_the_page_says_where_the_drain_sets_the_interval_by_size(small_params: Params, example: FleetPlan) -> None:
    """The small fleet's plans by size sit at its 15.2 s drain from 2,048 GPUs on (T* = D, C halved to 1.78 ms there),
    though its own plan (28.9 s) does not: the size paragraph says so, and the doubling one says the doubled plan
    checkpoints as often as the drain allows. The same fleet at 2,048 GPUs doubles to 4,096, also at the drain bound.
    The worked example has no drain."""
    small = fleet_plan(small_params)
    bound = sorted(n for n, at in small.by_size.items() if at.at_drain)
    assert bound == [n for n in sorted(small.by_size) if n >= 2048] and small.plan.tiers is not None
    assert all(small.by_size[n].interval == pytest.approx(small.plan.tiers.drain) for n in bound)
    page = pages.build(small)
    assert (page.size_drain, page.drain_gpus, page.doubling) == (Variant("bound"), "2,048 GPUs", Variant("drain"))
    assert not small.plan.at_drain and small.by_size[2048].at_drain
    larger = fleet_plan(small.at_size(2048))
    assert larger.by_size[4096].at_drain and pages.build(larger).doubling == Variant("drain")
    worked = pages.build(example)
    assert (worked.size_drain, worked.doubling) == (Variant("none"), Variant("planned"))


def test_a_measured_stall_has_no_snapshot_lever() -> None:
    """C typed beside the snapshot (the measured stall): one storage lever, the write's; the page says why doubling the
    snapshot bandwidth is none, and the lever table does not rank it."""
    fleet = fleet_plan(load_params(Path(__file__).parent / "data" / "fleet-stored-stall.yml"))
    page = pages.build(fleet)
    text = variant_text(page, "storage_levers")
    assert page.storage_levers == Variant("stall") and "{" not in text.replace("{ref}`storage`", "")
    assert page.storage_gain == gain_text(fleet.levers["double the storage bandwidth"])
    assert "double the snapshot bandwidth" not in list(tables.lever_table(fleet).data["lever"])


@pytest.mark.slow
def test_where_the_scheme_does_not_pay_the_write_is_shorter_and_its_gain_two_digits(worked: Params) -> None:
    """fleet-stall-slow-snapshot.yml: the 6.2 s synchronous write keeps 73.1%, 0.21 points more than the 6.3 s stall's
    72.9% (FleetPlan.slow_gain, as the answer page writes it, not "0.2 points"); Fig. 15 calls it the shorter
    synchronous write, and its two optimum labels (2.86 min and 2.89 min) do not overprint. The worked example's
    5 min checkpoint stays "the slow checkpoint"."""
    fleet = fleet_plan(load_params(Path(__file__).parent / "data" / "fleet-stall-slow-snapshot.yml"))
    page = pages.build(fleet)
    assert page.cost_verdict == Variant("faster") and page.slow_gain == "0.21 points"
    assert "**0.21 points more**" in variant_text(page, "cost_verdict").replace("\\", "")
    assert page.interval_compared == "shorter synchronous write"
    assert pages.build(fleet_plan(worked)).interval_compared == "slow checkpoint"
    for case in (fleet, fleet_plan(worked)):
        fig = figures.fleet_interval(case)
        fig.draw_without_rendering()  # the boxes where they are drawn
        ax = fig.axes[0]
        boxes = [t.get_bbox_patch().get_window_extent() for t in ax.texts if t.get_bbox_patch() is not None]
        assert len(boxes) == 2 and not boxes[0].overlaps(boxes[1])


def test_the_cost_figure_caption_names_what_the_fleet_has(worked: Params) -> None:
    """The caption said every fleet's curve held "R (beside a persistent tier R_p ...), recovery without rollback and
    planned stops"; it names what this fleet has."""
    assert pages.build(fleet_plan(worked)).cost_with == "M and R"
    recovered = worked.replace(just_in_time=0.4, planned_rate=0.1)
    assert pages.build(fleet_plan(recovered)).cost_with == "M, R, share recovered just in time and planned stops"
