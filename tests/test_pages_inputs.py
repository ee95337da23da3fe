"""The inputs chapter's numbers and sentences (goodput.pages.inputs), for the worked example and for a fleet unlike it.

The fleet unlike it: 24,576 GPUs, 1.6e-5 interruptions per GPU-hour (no count, no stated range of M),
C = 40 s, R = 12 min, $2.1 per GPU-hour. The brief's worked example's section must show the same
numbers whichever inputs file the book is built from, and never the fleet's.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from scipy.stats import chi2

from goodput import sources
from goodput.pages import inputs as pages
from goodput.params import Params
from goodput.plan import make_plan, plan_for
from goodput.units import format_duration

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / pages.PUBLISHED_FLEETS


def test_rates_per_million_and_duration_ranges() -> None:
    """Per million GPU-hours 1.9732e-5 -> 19.7; a range of minutes shares its unit when both ends have it."""
    assert [pages.per_million(x) for x in (1.9732e-5, 9.042e-6, 7.113e-5, 1.6e-5)] == ["19.7", "9.04", "71.1", "16"]
    assert pages.duration_range_text(168.6, 204.7) == "169 to 205 min"
    assert pages.duration_range_text(0.75, 2.0) == "45 s to 2 min"


def test_the_page_names_the_file_it_read(fleet: Params) -> None:
    """The 24,576-GPU fleet's page says which file the build read."""
    assert pages.inputs_file(fleet)["params_file_is"] == "This build read fleet-24k.yml:"


def test_worked_example_m_from_its_own_count_and_rate() -> None:
    """54 days / 419 = 185.6 min; 419 / (16,384 x 1,296 h) = 1.97e-5; 2e-5 x 16,384 = 0.328/h, whose inverse is
    183 min; 1/0.32 h = 187.5 min: the brief's 0.32 and 186 min do not follow from its rate."""
    w = pages.worked_example_m()
    assert w["w_m_count"] == "185.6 min" and w["w_m_count_rounded"] == "186 min"
    assert w["w_gpu_hours"] == f"{16384 * 54 * 24:,}" == "21,233,664"
    assert w["w_rate"] == "1.97e-5" and w["w_rate_rounded"] == "2e-5"
    assert w["w_per_hour"] == "0.328" and 2e-5 * 16384 == pytest.approx(0.32768)
    assert w["w_m_rate"] == format_duration(60 / 0.32768) == "183 min"
    assert "0.328 per hour, not 0.32" in w["w_arithmetic"]
    assert "187.5 min" in w["w_arithmetic"] and "54 days over 419 interruptions" in w["w_arithmetic"]
    assert (w["w_all"], w["w_planned"], w["w_unexpected"]) == ("466", "47", "419")


def test_worked_example_decision_is_first_order_at_its_own_inputs(fleet: Params) -> None:
    """T* = sqrt(2 x 1 x 185.6) = 19.3 min from the count, sqrt(2 x 1 x 183.1) = 19.1 min from the rounded rate,
    labelled first order; C and R are the worked example's (1 min, 5 min), never the fleet's."""
    decision = pages.worked_example_m()["w_decision"]
    assert "first order" in decision and "C = 1 min and R = 5 min" in decision
    assert "19.3 min from the count and 19.1 min from the rounded rate" in decision
    by_count = make_plan(1.0, 54 * 1440 / 419, 5.0, which="first-order").goodput
    by_rate = make_plan(1.0, 60 / 0.32768, 5.0, which="first-order").goodput
    assert f"{100 * by_count:.1f}% against {100 * by_rate:.1f}%" in decision
    text = " ".join(pages.worked_example_m().values())
    assert "24,576" not in text and "40 s" not in text and "12 min" not in text


def test_table5_printed_share_disagrees_with_its_count() -> None:
    """148 / 419 = 35.3% against a printed 30.1%; every other printed share is its count / 419 rounded to 0.1%;
    the printed column sums to 94.9%."""
    wrong = pages.printed_disagreements()
    assert [(name, n) for name, n, _, _ in wrong] == [("Faulty GPU", 148)]
    assert wrong[0][2] == pytest.approx(148 / 419)
    text = pages.root_causes()["rc_printed"]
    assert f"{100 * 148 / 419:.1f}%" == "35.3%"
    assert "it prints 30.1% for “Faulty GPU”, but 148 of 419 is 35.3%" in text
    assert f"adds up to {100 * sum(sources.LLAMA3_PRINTED_SHARES):.1f}%" in text and "94.9%" in text
    table = pages.root_cause_table()
    assert table["interruptions"].sum() == 419
    assert table["share (from the counts)"].iloc[0] == pytest.approx(148 / 419)
    assert table["share as printed"].iloc[0] == 0.301


def test_root_cause_shares_come_from_the_counts() -> None:
    """The GPU category is 268 / 419 = 64%; the largest cause is Faulty GPU, 148 / 419 = 35%."""
    rc = pages.root_causes()
    assert rc["rc_gpu_share"] == "64%" and rc["rc_top_component"] == "Faulty GPU" and rc["rc_top_share"] == "35%"
    components, categories, counts = pages.root_cause_columns()
    assert len(components) == len(categories) == len(counts) == 18 and sum(counts) == 419


def test_fleet_inputs_for_a_count(book: Params) -> None:
    """A count: M = 54 days / 419 = 186 min, 1.97e-5 per GPU-hour, and the count's Garwood interval 169 to 205 min."""
    f = pages.fleet_inputs(book)
    assert "419 interruptions in 54 days on 16,384 GPUs" in f["fleet_m"] and "= 186 min" in f["fleet_m"]
    assert "1.97e-5 interruptions per GPU-hour" in f["fleet_m"]
    assert f["fleet_m_range"] == "The count's 95% exact Poisson interval for M is 169 to 205 min."
    assert f["fleet_c"].startswith("This build's inputs take C = 1 min") and f["fleet_r"].endswith("R = 5 min.")


def test_fleet_inputs_for_a_rate(fleet: Params) -> None:
    """A rate: M = 60 / (1.6e-5 x 24,576) = 152.6 min, shown as 153 min; no counting interval and no stated range."""
    f = pages.fleet_inputs(fleet)
    assert f"= {format_duration(60 / (1.6e-5 * 24576))}." in f["fleet_m"] and "153 min" in f["fleet_m"]
    assert "1.6e-5 interruptions per GPU-hour on 24,576 GPUs" in f["fleet_m"]
    assert f["fleet_m_range"].startswith("A rate carries no counting interval") and "states no range for M" in f["fleet_m_range"]
    assert "C = 40 s" in f["fleet_c"] and "4 min" in f["fleet_c"] and "R = 12 min" in f["fleet_r"]


def test_published_rates_spread_for_the_fleet(fleet: Params) -> None:
    """Lowest IDEFICS-80B 3/(512 x 648 h) = 9.04e-6, highest OPT-175B 105/(992 x 1,488 h) = 7.11e-5: 7.9 times;
    at 24,576 GPUs, C = 40 s and R = 12 min, T* and goodput by the exact model at M = 60/(rate x 24,576)."""
    pr = pages.published_rates(fleet, TABLE)
    low, high = 3 / (512 * 27 * 24), 105 / (992 * 62 * 24)
    assert "from 9.04 per million GPU-hours (IDEFICS-80B) to 71.1 (OPT-175B)" in pr["pr_spread"]
    assert f"{high / low:.1f} times" in pr["pr_spread"] and "7.9 times" in pr["pr_spread"]
    for rate in (low, high):
        m = 60 / (rate * 24576)
        plan = make_plan(40 / 60, m, 12.0)
        assert f"M = {format_duration(m)}" in pr["pr_effect"]
        assert format_duration(plan.interval) in pr["pr_effect"] and f"{100 * plan.goodput:.1f}%" in pr["pr_effect"]
    gap = make_plan(40 / 60, 60 / (low * 24576), 12.0).goodput - make_plan(40 / 60, 60 / (high * 24576), 12.0).goodput
    assert f"{100 * gap:.1f} points" in pr["pr_effect"] and "exact model" in pr["pr_effect"]
    assert "$2.1 per GPU-hour" in pr["pr_effect"]
    assert pr["pr_own"].startswith("Of the 9 published rates, 4 are lower than this build's own, 16,")
    assert "this build's rate, 1.6e-5 per GPU-hour, is 16." in pr["pr_intro"]


def test_published_rates_name_what_is_counted(book: Params) -> None:
    """Five job counts, one stated frequency, two cluster rates, one machine-wide count; IDEFICS rests on 3
    interruptions, whose 95% interval spans a factor of 14; the A100 records alone span 7.9 times."""
    pr = pages.published_rates(book, TABLE)
    assert "5 count the interruptions of one job" in pr["pr_counting"]
    assert "1 states a frequency" in pr["pr_counting"] and "2 are rates per node-day" in pr["pr_counting"]
    assert "It rests on 3 interruptions" in pr["pr_extremes"] and "a factor of 14" in pr["pr_extremes"]
    assert "from 1.86 to 26.4 per million GPU-hours" in pr["pr_extremes"]
    assert "both counts lower bounds" in pr["pr_extremes"]
    assert "the 7 A100 records alone run from 9.04 to 71.1 per million GPU-hours" in pr["pr_generation"]
    assert "Llama 3 405B (H100, 19.7) sits inside that range" in pr["pr_generation"]
    assert "Llama 3 405B has the same" in pr["pr_own"]


def test_published_fleets_table_turns_each_rate_into_m_at_this_size(fleet: Params) -> None:
    """One row for this build, then nine; rates per million GPU-hours with the Garwood interval of the count;
    M at 24,576 GPUs = 60/(rate x 24,576) with its interval; each row says what kind of thing it counts."""
    table = pages.published_fleets_table(fleet, TABLE)
    rate, m = "rate per million GPU-hours", "M at 24,576 GPUs"
    assert list(table.columns) == ["fleet", "GPUs", "window", "interruptions", rate, m, "counts"]
    assert len(table) == 10 and table["fleet"].iloc[0] == "this build: fleet-24k.yml"
    assert table[m].iloc[0] == "153 min" and table[rate].iloc[0] == "16" and table["window"].iloc[0] == ""
    llama = table[table["fleet"] == "Llama 3 405B"].iloc[0]
    exposure = 16384 * 54 * 24.0
    low, high = chi2.ppf(0.025, 2 * 419) / (2 * exposure), chi2.ppf(0.975, 2 * 420) / (2 * exposure)  # Garwood
    assert llama[rate] == f"19.7 ({1e6 * low:.3g} to {1e6 * high:.3g})" == "19.7 (17.9 to 21.7)"
    assert llama[m].startswith(format_duration(60 / (419 / exposure * 24576)) + " (")
    assert llama["interruptions"] == "419" and llama["window"] == "54 days"
    assert llama["counts"] == "one job"
    bloom = table[table["fleet"] == "BLOOM-176B"].iloc[0]
    assert bloom[rate] == "15.5" and bloom["interruptions"] == "not counted"
    assert "(" not in bloom[m] and bloom["counts"] == "stated in words"
    rsc = table[table["fleet"] == "Meta RSC-1"].iloc[0]
    assert rsc["GPUs"] == "" and rsc["counts"] == "a cluster, as reported"
    assert table["counts"].iloc[-1] == "a machine's GPU events"


def test_published_sources_say_what_each_counts() -> None:
    """Each record's own what-counts text, its rate's basis (the count, or the stated frequency or published rate)
    and how it was read: Llama 3 in the primary source, the Meta clusters as reported by others."""
    sources_table = pages.published_fleets_sources(TABLE)
    assert len(sources_table) == 9
    rows = sources_table.set_index("fleet")
    assert rows.loc["Llama 3 405B", "read"] == "primary source"
    assert rows.loc["Meta RSC-2", "read"] == "as reported by others"
    assert rows.loc["BLOOM-176B", "rate from"] == "stated frequency: 1 per week"
    assert rows.loc["GLM-130B", "rate from"] == "the count"
    assert rows.loc["IDEFICS-80B", "what counts"].startswith("restarts forced by GPU memory errors")


def test_figure_inputs_are_the_records_and_this_build(fleet: Params) -> None:
    """Nine lines, six with a counting interval; the marked fleet is this build's GPUs and M."""
    fig = pages.published_rates_figure(fleet, TABLE)
    assert len(fig["rates"]) == len(fig["labels"]) == len(fig["kinds"]) == 9
    assert sum(i is not None for i in fig["intervals"]) == 6
    assert fig["gpus"] == 24576 and fig["mtbi"] == pytest.approx(60 / (1.6e-5 * 24576))
    assert fig["label"] == "this build, 16" and "24,576 GPUs" in fig["mark"]


def test_inputs_table_interval_is_the_exact_models(book: Params, fleet: Params) -> None:
    """The interval to use is plan_for's (the exact model): 18.6 min for the worked example."""
    for params in (book, fleet):
        table = pages.inputs_table(params)
        row = table[table["symbol"] == "T"].iloc[0]
        assert row["this build"] == format_duration(plan_for(params).interval)
        assert "exact model" in row["measured or derived"]
    assert pages.inputs_table(book)["this build"].tolist()[-1] == "18.6 min"
    assert pages.inputs_table(fleet)["measured or derived"].iloc[0] == "derived: a per-GPU rate × GPUs"


def test_inputs_file_text_is_the_file(tmp_path: Path) -> None:
    """The file as written, trailing blank lines dropped."""
    path = tmp_path / "x.yml"
    path.write_text("gpus: 8\n\n\n", encoding="utf-8")
    assert pages.inputs_file_text(path) == "gpus: 8"
