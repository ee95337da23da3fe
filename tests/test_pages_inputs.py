"""The inputs chapter's page object (goodput.pages.inputs): values and verdicts for the worked example and fleets unlike it.

The fleet unlike it (conftest's fleet-24k.yml): 24,576 GPUs, 1.6e-5 interruptions per GPU-hour (no count, no
stated range of M), C = 40 s, R = 12 min, $2.1 per GPU-hour. The worked example's aside shows the same numbers
whichever inputs file the book is built from; the spread of published rates is carried through the fleet's own
scheme (examples/fleet-24k.yml has a drain and a persistent tier).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from pathlib import Path

import pytest
from scipy.stats import chi2

from goodput import sources
from goodput.book import input_tables, variant_text
from goodput.book.data import published_fleets
from goodput.fleet import fleet_plan
from goodput.fleets import PublishedFleet
from goodput.model import capacity_per_month
from goodput.pages import Variant
from goodput.pages import inputs as pages
from goodput.params import Params, load_params, params_from_mapping
from goodput.plan import make_plan, plan_for
from goodput.report import (
    duration_range_text,
    escape_markdown,
    money,
    per_million,
    percent,
    points,
    record_name,
    restart_sum,
    scheme_words,
)
from goodput.units import format_duration, format_rate

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def records() -> tuple[PublishedFleet, ...]:
    return published_fleets(ROOT)


def build(params: Params, records: tuple[PublishedFleet, ...]) -> pages.Page:
    return pages.build(fleet_plan(params), records)


def test_rates_per_million_and_duration_ranges() -> None:
    """Per million GPU-hours 1.9732e-5 -> 19.7; a range of durations is written in one unit."""
    assert [per_million(x) for x in (1.9732e-5, 9.042e-6, 7.113e-5, 1.6e-5)] == ["19.7", "9.04", "71.1", "16"]
    assert duration_range_text(168.6, 204.7) == "169 to 205 min"
    assert duration_range_text(0.75, 2.0) == "45 to 120 s"


def test_the_file_is_named_as_given(fleet_variant: Callable[..., Params], records: tuple[PublishedFleet, ...],
                                    book: Params) -> None:
    assert build(fleet_variant("FleetA.yml"), records).params_file == "FleetA.yml"
    assert build(book, records).params_file_is == Variant("worked")
    assert build(fleet_variant("FleetA.yml"), records).params_file_is == Variant("other")


def test_worked_example_m_from_its_own_count_and_rate(book: Params, records: tuple[PublishedFleet, ...]) -> None:
    """54 days / 419 = 185.6 min; 419 / (16,384 x 1,296 h) = 1.97e-5; 2e-5 x 16,384 = 0.328/h, whose inverse is
    183 min; 1/0.32 h = 187.5 min: the analysis's 0.32 and 186 min do not follow from its rate."""
    page = build(book, records)
    assert page.w_m_count == "185.6 min" and page.w_m_count_rounded == "186 min"
    assert 16384 * 54 * 24 == 21_233_664 and page.w_gpu_hours == "21.2 million"
    assert page.w_rate == "1.97e-5" and page.w_rate_rounded == "2e-5"
    assert page.w_per_hour == "0.328" and 2e-5 * 16384 == pytest.approx(0.32768)
    assert page.w_m_rate == format_duration(60 / 0.32768) == "183 min"
    assert page.w_brief_inverse == "187.5 min" and page.w_brief_per_hour == "0.32"
    assert (page.w_all, page.w_planned, page.w_unexpected) == ("466", "47", "419")


def test_worked_example_decision_is_first_order_and_the_same_in_every_build(
        book: Params, fleet: Params, records: tuple[PublishedFleet, ...]) -> None:
    """T* = sqrt(2 x 1 x 185.6) = 19.3 min from the count, sqrt(2 x 1 x 183.1) = 19.1 min from the rounded rate;
    the aside's values do not change with the fleet."""
    page = build(book, records)
    assert (page.w_t_count, page.w_t_rate) == ("19.3 min", "19.1 min")
    assert math.sqrt(2 * 54 * 1440 / 419) == pytest.approx(19.27, abs=0.01)
    by_count = make_plan(1.0, 54 * 1440 / 419, 5.0, which="first-order").goodput
    by_rate = make_plan(1.0, 60 / 0.32768, 5.0, which="first-order").goodput
    assert (page.w_g_count, page.w_g_rate) == (percent(by_count), percent(by_rate))
    other = build(fleet, records)
    for f in dataclasses.fields(page):
        if f.name.startswith(("w_", "rc_")):
            assert getattr(page, f.name) == getattr(other, f.name), f.name


def test_table5_printed_share_disagrees_with_its_count(book: Params, records: tuple[PublishedFleet, ...]) -> None:
    """148 / 419 = 35.3% against a printed 30.1%, the only such row (the chapter says so); the printed column sums
    to 94.9%; the GPU category is 268 / 419 = 64%."""
    page = build(book, records)
    total = sum(n for _, _, n in sources.LLAMA3_ROOT_CAUSES)
    off = [name for (name, _, n), printed in zip(sources.LLAMA3_ROOT_CAUSES, sources.LLAMA3_PRINTED_SHARES, strict=True)
           if abs(n / total - printed) > 0.0005]
    assert off == ["Faulty GPU"] == [page.rc_wrong_component]
    assert (page.rc_wrong_share, page.rc_wrong_printed, page.rc_printed_sum) == ("35.3%", "30.1%", "94.9%")
    assert (page.rc_gpu_share, page.rc_top_component, page.rc_top_share) == ("64%", "Faulty GPU", "35%")
    table = input_tables.root_causes()
    assert table["interruptions"].sum() == 419 and table["share (from the counts)"].iloc[0] == pytest.approx(148 / 419)


def test_how_m_is_given_and_its_range(book: Params, fleet: Params, fleet_variant: Callable[..., Params],
                                      records: tuple[PublishedFleet, ...]) -> None:
    """A count: 186 min with its Garwood interval 169 to 205 min; a rate: 60 / (1.6e-5 x 24,576) = 153 min, exact;
    a rate with a stated range; M given directly."""
    page = build(book, records)
    assert (page.fleet_m, page.fleet_m_range, page.fleet_m_span) == (Variant("count"), Variant("count"),
                                                                     "169 to 205 min")
    rate = build(fleet, records)
    assert (rate.fleet_m, rate.fleet_m_range, rate.mtbi) == (Variant("rate"), Variant("none"), "153 min")
    assert rate.mtbi == format_duration(60 / (1.6e-5 * 24576))
    stated = build(fleet_variant("s.yml", ranges={"mtbi": ["2 h", "3 h"]}), records)
    assert stated.fleet_m_range == Variant("stated") and stated.fleet_m_span == "120 to 180 min"
    direct = build(fleet_variant("d.yml", rate_per_gpu_hour=None, mtbi="90 min"), records)
    assert direct.fleet_m == Variant("given") and direct.rate == format_rate(60 / (90 * 24576)) == "2.71e-5"


def test_published_spread_through_the_fleets_plan(fleet: Params, records: tuple[PublishedFleet, ...]) -> None:
    """Lowest IDEFICS-80B 3/(512 x 648 h) = 9.04e-6, highest OPT-175B 105/(992 x 1,488 h) = 7.11e-5: 7.9 times;
    each turned into M at 24,576 GPUs and the fleet's plan at that M; the goodput between them in points and
    dollars at the fleet's price and month."""
    page = build(fleet, records)
    low, high = 3 / (512 * 27 * 24), 105 / (992 * 62 * 24)
    assert (page.pr_low, page.pr_high, page.pr_ratio) == ("9.04", "71.1", f"{high / low:.2g}")
    at_low, at_high = (plan_for(fleet.replace(mtbi=60 / (r * 24576))) for r in (low, high))
    assert (page.fx_g_low, page.fx_g_high) == (percent(at_low.goodput), percent(at_high.goodput))
    assert page.fx_t_low == format_duration(at_low.interval)
    gap = at_low.goodput - at_high.goodput
    assert gap > 0 and page.fx_points == points(gap)
    assert page.fx_dollars == money(capacity_per_month(gap, 24576, 2.1, 730 * 60)) and page.price == "$2.1"


@pytest.mark.slow
def test_a_tiered_fleet_spread_uses_its_whole_scheme(records: tuple[PublishedFleet, ...]) -> None:
    """examples/fleet-24k.yml (drain, persistent tier): the spread's plans are the full scheme's, not one tier's;
    the page quotes the fleet's plan and its persistent cadence."""
    params = load_params(ROOT / "examples" / "fleet-24k.yml")
    page, fp = build(params, records), fleet_plan(params)
    m_high = 60 / (105 / (992 * 62 * 24) * params.gpus)
    full, one = plan_for(params.replace(mtbi=m_high)), plan_for(params.without_tiers().replace(mtbi=m_high))
    assert page.fx_g_high == percent(full.goodput) != percent(one.goodput)
    assert page.fleet_scheme == Variant("tiered") and page.interval == format_duration(fp.interval)
    assert fp.plan.tiers is not None and page.scheme_words == scheme_words(fp.plan)
    table = input_tables.inputs(fp)
    assert table["symbol"].tolist() == ["M", "C", "R", "D", "C_p", "R_p", "s", "T"]
    assert table["this fleet"].iloc[-1] == format_duration(fp.interval)


@pytest.mark.slow
def test_a_fleet_with_spares_waits_longer_at_a_higher_rate(records: tuple[PublishedFleet, ...]) -> None:
    """The story fleet (16 hot spares, 12 h repairs): at the highest published rate M is 17.2 min and R's wait for a
    spare grows with the rate (FleetPlan.at_mtbi), so goodput is that of R re-derived, below the 19.0% of R kept."""
    params = load_params(ROOT / "tests" / "data" / "tiered-48k <img src=x onerror=alert(1)> & co.yml")
    fp = fleet_plan(params)
    page = pages.build(fp, records)
    m_high = 60 / (105 / (992 * 62 * 24) * params.gpus)
    full, kept_r = plan_for(fp.at_mtbi(m_high)), plan_for(params.replace(mtbi=m_high))
    assert fp.at_mtbi(m_high).restart > params.restart + 5.0
    assert (page.fx_changed, page.fx_r_high) == (Variant("spare"), format_duration(fp.at_mtbi(m_high).restart))
    assert page.fx_g_high == percent(full.goodput) and full.goodput < kept_r.goodput - 0.01
    assert page.fx_t_high == format_duration(full.interval)
    assert page.fx_points == points(plan_for(fp.at_mtbi(60 / (3 / (512 * 27 * 24) * params.gpus))).goodput
                                    - full.goodput)


def test_rates_compared_as_printed(fleet_variant: Callable[..., Params], book: Params,
                                   records: tuple[PublishedFleet, ...]) -> None:
    """The worked example's 1.97e-5 prints as 19.7, as do Llama 3's and Titan's: neither is called lower or higher."""
    same = [f for f in records if per_million(f.rate) == "19.7"]
    assert len(same) == 2
    page = build(book, records)
    below = sum(1 for f in records if per_million(f.rate) != "19.7" and f.rate < book.rate_per_gpu_hour)
    assert (page.pr_lower, page.pr_below, page.pr_above) == (Variant("many"), f"{below}", f"{len(records) - below - 2}")
    assert page.pr_compare == Variant("many_same") and page.pr_same_names.count(" and ") == 1
    fast = build(fleet_variant("f.yml", rate_per_gpu_hour=1e-3), records)
    assert (fast.pr_lower, fast.pr_below) == (Variant("many"), f"{len(records)}")
    assert (fast.pr_above, fast.pr_compare) == ("none", Variant("all_lower"))
    slow = build(fleet_variant("s.yml", rate_per_gpu_hour=1e-7), records)
    assert (slow.pr_lower, slow.pr_above, slow.pr_compare) == (Variant("none"), f"{len(records)}", Variant("all_higher"))
    between = build(fleet_variant("b.yml", rate_per_gpu_hour=1.6e-5), records)
    assert between.pr_compare == Variant("mixed")


def test_published_table_turns_each_rate_into_m_at_this_size(fleet: Params, records: tuple[PublishedFleet, ...]) -> None:
    """This fleet's row, then nine; Llama 3's rate with the Garwood interval of 419 over 16,384 x 1,296 GPU-hours."""
    table = input_tables.published(fleet, records)
    rate, m = "rate per million GPU-hours", "M at 24,576 GPUs"
    assert len(table) == 10 and table["fleet"].iloc[0] == "this fleet: fleet-24k.yml"
    assert table[m].iloc[0] == "153 min" and table[rate].iloc[0] == "16"
    llama = table[table["fleet"] == "Llama 3 405B"].iloc[0]
    exposure = 16384 * 54 * 24.0
    low, high = chi2.ppf(0.025, 2 * 419) / (2 * exposure), chi2.ppf(0.975, 2 * 420) / (2 * exposure)
    assert llama[rate] == f"19.7 ({1e6 * low:.3g} to {1e6 * high:.3g})" == "19.7 (17.9 to 21.7)"
    assert input_tables.published_sources(records).set_index("fleet").loc["GLM-130B", "rate from"] == "the count"
    args = input_tables.published_rates_args(fleet, records)
    rates, intervals = args["rates"], args["intervals"]
    assert isinstance(rates, list) and isinstance(intervals, list)
    assert len(rates) == 9 and sum(i is not None for i in intervals) == 6


def test_extreme_records(book: Params, records: tuple[PublishedFleet, ...]) -> None:
    """IDEFICS rests on 3 interruptions, whose interval spans a factor of 14; both extremes are lower bounds (the
    chapter says so); the A100 records alone span 7.9 times."""
    page = build(book, records)
    assert (page.low_n, page.low_factor, page.low_ratio, page.low_range) == (
        "3 interruptions", Variant("factor"), "14", "1.86 to 26.4")
    low, high = (f for f in records if record_name(f) in (page.pr_low_name, page.pr_high_name))
    assert low.lower_bound and high.lower_bound
    assert (page.gen_n, page.gen_model, page.gen_ratio, page.gen_where) == ("7", "A100", "7.9", Variant("inside"))
    assert (page.n_job, page.n_stated, page.n_cluster, page.n_machine) == ("5", "1", "2", "1")


def test_any_accepted_inputs_build(fleet_variant: Callable[..., Params], records: tuple[PublishedFleet, ...]) -> None:
    """One interruption in one second, or M = 2 min with a 1 s slow checkpoint: no NaN, no negative points."""
    for params in (fleet_variant("c.yml", rate_per_gpu_hour=None, interruptions={"count": 1, "window": "1 s"},
                                 restart="5 min"),
                   fleet_variant("m.yml", rate_per_gpu_hour=None, mtbi="2 min", slow_checkpoint_cost="40 s")):
        page = build(params, records)
        values = [str(getattr(page, f.name)) for f in dataclasses.fields(page)]
        assert not any("nan" in v.lower().split() or "$nan" in v for v in values)
        assert not page.fx_points.startswith(("-", "−"))


def test_a_recovered_fleet_names_its_recovery_inputs(fleet: Params, small_params: Params,
                                                    records: tuple[PublishedFleet, ...]) -> None:
    """60% recovered just in time in 45 s and 0.03 planned stops an hour: the page chooses the recovered paragraphs,
    whose plan is the fleet's (p and q move T well above the plain model's optimum), and quotes the model
    of C, M and R alone only as what leaves them out; a plain fleet and a tiered one keep their own paragraphs."""
    jit = fleet.replace(just_in_time=0.6, jit_recovery=0.75, planned_rate=0.03)
    page, fp = build(jit, records), fleet_plan(jit)
    alone = make_plan(jit.checkpoint_cost, jit.mtbi, jit.restart)
    assert (page.fleet_scheme, page.more_inputs) == (Variant("recovered"), Variant("more"))
    assert page.interval == format_duration(fp.interval) and fp.interval > alone.interval * 1.2
    assert (page.plain_interval, page.plain_goodput) == (format_duration(alone.interval), percent(alone.goodput))
    assert fp.goodput > alone.goodput and page.beyond_cmr == "just-in-time recovery and planned stops"
    assert (page.scheme_inputs, page.recovery_inputs, page.jit_p, page.jit_r) == (
        Variant("recovery"), Variant("both"), "60%", "45 s")
    assert page.planned_q.startswith("0.72 a day") and format_duration(60 / 0.03) in variant_text(page, "scheme_inputs")
    plain = build(fleet, records)
    assert (plain.fleet_scheme, plain.more_inputs, plain.scheme_inputs) == (Variant("one"), Variant("none"), Variant("none"))
    assert variant_text(plain, "scheme_inputs") == "" and plain.recovery_inputs == Variant("none")
    tiered = build(small_params, records)
    assert (tiered.fleet_scheme, tiered.more_inputs) == (Variant("tiered"), Variant("more"))
    both = build(small_params.replace(planned_rate=0.03), records)  # a drain and planned stops: the scheme, then q
    assert (both.fleet_scheme, both.scheme_inputs, both.recovery_inputs) == (
        Variant("recovered"), Variant("tiered"), Variant("planned"))
    assert variant_text(both, "scheme_inputs").startswith(escape_markdown(both.scheme_words) + "; planned stops q = ")


def test_inputs_table_marks_derived_durations_and_lists_recovery(small_params: Params, fleet: Params) -> None:
    """C and R derived from a size, a bandwidth and R's parts are called derived (with how); typed ones given (the file states them);
    p, R_j and q get their own rows only where the inputs give them."""
    jit = params_from_mapping({"gpus": 98304, "gpus_per_node": 8, "interruptions": {"count": 610, "window": "30 days"},
                               "checkpoint": {"size": "9 TB"}, "storage": {"write_bandwidth": "400 GB/s",
                                                                           "efficiency": 0.5},
                               "slow_checkpoint_cost": "12 min", "restart": {"detect": "1 min", "warmup": "3 min"},
                               "just_in_time": {"share": 0.6, "recovery": "45 s"},
                               "planned": {"count": 20, "window": "30 days"},
                               "price_per_gpu_hour": 2.2, "month": "730 h"}, source="jit.yml")
    table = input_tables.inputs(fleet_plan(jit)).set_index("symbol")
    assert table.loc["C", "this fleet"] == "45 s" and 9e12 / 200e9 == 45
    assert table.loc["C", "given or derived"] == "derived: " + jit.derived["checkpoint_cost"]
    assert table.loc["R", "given or derived"] == "derived: the sum of its parts, " + restart_sum(jit)  # as written
    assert table.loc[["p", "R_j"], "this fleet"].tolist() == ["60%", "45 s"]
    assert table.loc["q", ["this fleet", "given or derived"]].tolist() == [
        "20 in 30 days (one every 36 h)", "derived: a count over a window"]
    small = input_tables.inputs(fleet_plan(small_params)).set_index("symbol")
    assert all(small.loc[s, "given or derived"].startswith("derived: ") for s in ("C", "R", "D"))
    plain = input_tables.inputs(fleet_plan(fleet)).set_index("symbol")
    assert plain.loc[["C", "R"], "given or derived"].tolist() == ["given", "given"]
    assert not {"p", "R_j", "q"} & set(plain.index)


def test_a_checkpoint_derived_as_a_synchronous_write_is_not_called_the_fast_path(
        fleet: Params, small_params: Params, records: tuple[PublishedFleet, ...]) -> None:
    """C from a size and a write bandwidth with no snapshot is itself a synchronous write: the typed slow C is the
    slower checkpoint it is compared with, or, untyped, the same write (C = slow C = 9 TB / 200 GB/s = 45 s)."""
    data = {"gpus": 98304, "interruptions": {"count": 610, "window": "30 days"}, "checkpoint": {"size": "9 TB"},
            "storage": {"write_bandwidth": "400 GB/s", "efficiency": 0.5}, "restart": "20 min",
            "price_per_gpu_hour": 2.2, "month": "730 h"}
    slower = build(params_from_mapping({**data, "slow_checkpoint_cost": "12 min"}, source="a.yml"), records)
    same_params = params_from_mapping(data, source="b.yml")
    assert same_params.slow_checkpoint_cost == same_params.checkpoint_cost == pytest.approx(0.75)
    assert slower.c_paths == Variant("slower") and build(same_params, records).c_paths == Variant("same")
    assert build(fleet, records).c_paths == build(small_params, records).c_paths == Variant("fast")
    # a synchronous write takes C itself; a typed fast C, minutes
    assert (slower.sync_time, slower.cost) == (Variant("write"), "45 s")
    assert build(fleet, records).sync_time == Variant("minutes")


def test_a_c_derived_from_a_snapshot_is_said_to_be_the_copy_alone(
        small_params: Params, fleet: Params, records: tuple[PublishedFleet, ...]) -> None:
    """The stored fleet's C, 13.8 ms, is a 692 MB snapshot per node at 50 GB/s: the page says it is the copy alone
    (the barrier and the quiesce it defines C with are not in it); a typed C (the 24k fleet) gets no such remark."""
    stored = build(load_params(Path(__file__).parent / "data" / "fleet-stored.yml"), records)
    assert stored.c_copy == Variant("copy") and "692 MB per node" in stored.c_how
    assert (stored.sync_time, stored.slow_cost) == (Variant("derived"), "5.67 s")  # the write the book derives
    assert build(small_params, records).c_copy == Variant("copy")
    assert build(fleet, records).c_copy == Variant("none")


def test_a_c_typed_beside_a_snapshot_is_said_to_be_the_measured_stall(records: tuple[PublishedFleet, ...]) -> None:
    """fleet-stored-stall.yml: C is the measured 6.3 s, given; the copy alone, 692 MB per node at 50 GB/s, 13.8 ms,
    the stall 455 times it and longer than the 5.67 s synchronous write. The inputs table shows C as given (the measured stall), D still derived."""
    params = load_params(Path(__file__).parent / "data" / "fleet-stored-stall.yml")
    page = build(params, records)
    assert page.c_copy == Variant("measured") and "692 MB per node" in page.c_how
    assert (page.c_copy_alone, page.c_copy_times, page.c_stall_write, page.c_write) == (
        "13.8 ms", "455", "longer than", "5.67 s")
    table = input_tables.inputs(fleet_plan(params)).set_index("symbol")
    assert table.loc["C", ["this fleet", "given or derived"]].tolist() == [
        "6.3 s", "given: the measured stall (the copy alone takes 13.8 ms)"]
    assert table.loc["D", "given or derived"].startswith("derived: the write of 5.67 TB")


def test_a_counted_fleet_is_not_told_that_only_a_count_settles_its_m(records: tuple[PublishedFleet, ...]) -> None:
    """The spread of published rates "only a count of your own fleet's interruptions can settle", said to a fleet that
    gives a count and its interval: now said only where M is not a count."""
    counted = build(load_params(), records)
    assert counted.fx_settle == Variant("count")
    assert counted.fleet_m_span in variant_text(counted, "fx_settle", ROOT / "book")
    rated = build(load_params().replace(interruption_count=None, window=None, mtbi_source="rate_per_gpu_hour"), records)
    assert rated.fx_settle == Variant("none")
