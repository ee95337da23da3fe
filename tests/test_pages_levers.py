"""The levers page's numbers and sentences (goodput.pages.levers), and the figures drawn from them.

Two sets of inputs that must never mix: the fleet's (every section but the last, exact model) and the brief's
worked example (the last section, always from the shipped inputs). Checked with the worked example and with a
fleet unlike it (24,576 GPUs, 1.6e-5 interruptions per GPU-hour, C = 40 s, slow C = 4 min, R = 12 min,
$2.1 per GPU-hour), and with examples/fleet-32k.yml.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from numpy.testing import assert_allclose

from goodput import exact, model
from goodput.book import figures
from goodput.pages import levers as pages
from goodput.pages import scale
from goodput.params import Params, load_params
from goodput.plan import LEVERS, levers, plan_for, plan_levers
from goodput.units import format_duration

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(params=["worked", "fleet", "fleet-32k"])
def inputs(request: pytest.FixtureRequest, worked: Params, fleet: Params) -> Params:
    return {"worked": worked, "fleet": fleet, "fleet-32k": load_params(ROOT / "examples" / "fleet-32k.yml")}[
        request.param]


def _legend_texts(fig) -> list[str]:
    return [t.get_text() for legend in fig.legends + [ax.get_legend() for ax in fig.axes if ax.get_legend()]
            for t in legend.get_texts()]


# --------------------------------------------------------------------------- which inputs


def test_opening_says_which_inputs(worked: Params, fleet: Params) -> None:
    """The default build is told its inputs are the worked example; a fleet build that the last section is not its."""
    assert "are the brief's worked example" in pages.opening(worked)["inputs_note"]
    note = pages.opening(fleet)["inputs_note"]
    assert "does not use fleet-24k.yml" in note and "brief's own inputs" in note
    assert pages.opening(fleet)["fleet"] == "24,576 GPUs, from fleet-24k.yml"


# --------------------------------------------------------------------------- the fleet, exact model


def test_cheaper_checkpoint_is_the_exact_headline(worked: Params, fleet: Params) -> None:
    """Worked example by the exact model: 87.6% at 18.6 min, 76.5% at 39.8 min, 11.1 points, $3.3M a month
    (points x 16,384 x $2.5 x 720 h). The 24k fleet: 84.1% and 72.9%, 11.2 points, points x 24,576 x $2.1 x 730 h."""
    w = pages.cheaper_checkpoint(worked)
    assert (w["cost_goodput"], w["cost_slow_goodput"], w["cost_points"], w["cost_capacity"]) == (
        "87.6%", "76.5%", "11.1 points", "$3.3M")
    assert (w["cost_fast_interval"], w["cost_slow_interval"]) == ("18.6 min", "39.8 min")
    f = pages.cheaper_checkpoint(fleet)
    assert (f["cost_fast"], f["cost_slow"], f["cost_goodput"], f["cost_slow_goodput"]) == ("40 s", "4 min", "84.1%",
                                                                                           "72.9%")
    gap = exact.exact_goodput(2 / 3, fleet.mtbi, 12.0) - exact.exact_goodput(4.0, fleet.mtbi, 12.0)
    assert f["cost_points"] == f"{100 * gap:.1f} points"
    assert f["cost_gpu_hours"] == f"{gap * 24576 * 730:,.0f} GPU-hours"
    assert f["cost_capacity"] == f"${gap * 24576 * 2.1 * 730 / 1e6:.1f}M"


def test_cost_figure_marks_the_fleets_costs(fleet: Params) -> None:
    """The cost figure marks the fleet's two checkpoint costs and names both models in its legend."""
    args = pages.cost_figure(fleet)
    assert args["marks"] == [pytest.approx(2 / 3), 4.0]
    legend = _legend_texts(figures.goodput_vs_cost(**args))
    assert any("exact model" in t for t in legend) and any("first order" in t for t in legend)
    assert "this fleet's checkpoint costs" in legend


def test_badly_chosen_interval_is_twice_and_half_the_exact_optimum(inputs: Params) -> None:
    """The fleet's misset intervals are 2 T* and T*/2 of the exact model; each loses less than the slow checkpoint
    costs at its own optimum, so the verdict says the checkpoint cost is where the goodput is."""
    words = pages.badly_chosen_interval(inputs)
    best = float(exact.exact_optimal_interval(inputs.checkpoint_cost, inputs.mtbi))
    assert words["interval_best"] == format_duration(best)
    assert words["interval_long"] == format_duration(2 * best)
    assert words["interval_shorter"].startswith(f" Checkpointing twice as often, every {format_duration(best / 2)},")
    assert words["interval_verdict"].endswith("the checkpoint cost is where the goodput is.")
    assert words["interval_scheme"] == f"the {format_duration(inputs.checkpoint_cost)} checkpoint"


def test_badly_chosen_interval_other_verdict_when_the_slow_checkpoint_is_hardly_slower(worked: Params) -> None:
    """With a slow checkpoint only 3 s slower, it costs less than a factor-two interval error: the other verdict."""
    close = worked.replace(slow_checkpoint_cost=1.05)
    assert pages.badly_chosen_interval(close)["interval_verdict"].endswith(
        "setting the interval right is worth as much as a cheaper checkpoint.")


def test_interval_figure_of_the_fleet_has_no_debate_marks(fleet: Params) -> None:
    """The fleet's interval figure marks only the exact optima: no square markers and no debate in the legend."""
    args = pages.interval_figure(fleet)
    assert "marks" not in args
    fig = figures.goodput_vs_interval(**args)
    legend = _legend_texts(fig)
    assert not any("debate" in t or "15 min" in t for t in legend)
    assert {"exact model", "first order"} <= set(legend)
    squares = [line for line in fig.axes[0].get_lines() if line.get_marker() == "s"]
    assert squares == []


def test_fast_scenario_levers_are_the_plans_levers(inputs: Params) -> None:
    """Input levers are measured optimum to optimum, so at 2 T* they equal the plan's levers at T*; and one input
    lever plus the interval lever is the gain of doing both: g(C/2, T*(C/2)) - g(C, 2 T*)."""
    scenarios = pages.lever_scenarios(inputs)
    fast = next(iter(scenarios.values()))
    plan = plan_levers(plan_for(inputs))
    for lever in LEVERS[:3]:
        assert_allclose(fast[lever], plan[lever], atol=1e-12)
    c, m, r = inputs.checkpoint_cost, inputs.mtbi, inputs.restart
    t = 2 * float(exact.exact_optimal_interval(c, m))
    both = float(exact.exact_goodput(c / 2, m, r)) - float(exact.exact_goodput(c, m, r, t))
    assert_allclose(fast["halve C"] + fast["set the interval right"], both, rtol=1e-12)


def test_levers_are_by_the_exact_model_and_labelled_so(fleet: Params) -> None:
    """The lever figure is drawn from exact-model gains and says so on its axis; the slow scenario runs at T*/2."""
    args = pages.lever_figure(fleet)
    assert args["which"] == "exact"
    label, gains = list(args["gains"].items())[1]
    slow_t = float(exact.exact_optimal_interval(4.0, fleet.mtbi)) / 2
    assert gains == levers(4.0, fleet.mtbi, 12.0, slow_t)
    assert "every " + format_duration(slow_t) in label
    fig = figures.lever_gains(**args)
    assert "exact model" in fig.axes[0].get_xlabel()


def test_lever_sentences(fleet: Params) -> None:
    """24k fleet, fast checkpoint at 2 T*: halving the failure rate is the largest input lever; halving R gains
    G (e^{R/(2M)} - 1) at each checkpoint's optimum, so more with the fast checkpoint than with the slow."""
    words = pages.lever_section(fleet)
    assert words["levers_top"].startswith("halve the failure rate, ")
    assert (words["levers_fast"], words["levers_slow"]) == ("the 40 s checkpoint", "the 4 min checkpoint")
    assert words["levers_tiers"] == ""
    g_fast = float(exact.exact_goodput(2 / 3, fleet.mtbi, 12.0))
    assert words["levers_fast_halve_R"] == f"{100 * g_fast * math.expm1(6.0 / fleet.mtbi):.1f} points"
    assert "with the fast checkpoint and" in words["levers_restart"]


# --------------------------------------------------------------------------- fleet size


def test_fleet_size_thresholds_are_the_scale_pages(inputs: Params) -> None:
    """The levers page and the scale page give the same one-point and three-point fleet sizes for the fast cost."""
    here, there = pages.fleet_size(inputs), scale.thresholds(inputs)
    assert here["fleet_one_point"] == there["fast_one_point"]
    assert here["fleet_three_points"] == there["fast_three_points"]
    assert (here["fleet_caution"], here["fleet_tolerance"]) == ("1 point", "3 points")


def test_doubling_the_fleet_shortens_the_exact_optimum_by_a_bit_more_than_root_two(inputs: Params) -> None:
    """T* = sqrt(2CM)(1 - sqrt(2C/M)/3 + ...): halving M divides it by sqrt(2)(1 - a/3)/(1 - sqrt(2) a/3) > sqrt(2),
    a = sqrt(2C/M); first order would give exactly sqrt(2)."""
    words = pages.fleet_size(inputs)
    ratio = float(words["fleet_ratio"])
    a = math.sqrt(2 * inputs.checkpoint_cost / inputs.mtbi)
    assert ratio > math.sqrt(2)
    assert_allclose(ratio, math.sqrt(2) * (1 - a / 3) / (1 - math.sqrt(2) * a / 3), rtol=5e-3)
    assert words["fleet_gpus2"] == f"{2 * inputs.gpus:,} GPUs"


def test_fleet_verdict_for_the_24k_fleet(fleet: Params) -> None:
    """24k fleet at C = 40 s: first order is 1.3 points below the exact model, between 1 and 3 points; 20,808 and
    43,642 GPUs are where it passes 1 and 3 points."""
    words = pages.fleet_size(fleet)
    assert (words["fleet_error"], words["fleet_one_point"], words["fleet_three_points"]) == ("1.3 points", "20,808",
                                                                                             "43,642")
    assert words["fleet_verdict"] == "to be quoted only with a caution"


def test_fleet_table_has_the_fleets_own_row(fleet: Params, worked: Params) -> None:
    """The table's sizes are 1,024 to 131,072 GPUs and the fleet's own (added when it is not a power of two), named
    in the caption; its error column is exact minus first order at each size, in points."""
    table = pages.fleet_table(fleet)
    frame = table["frame"]
    assert len(frame) == 9 and list(frame["GPUs"]).count("24,576") == 1
    assert table["caption"].endswith("This fleet is the row of 24,576 GPUs.")
    assert len(pages.fleet_table(worked)["frame"]) == 8
    row = frame[frame["GPUs"] == "24,576"].iloc[0]
    assert row["first order low by (points)"] == "1.3"
    assert row["exact goodput"] == "84.1%"


def test_fleet_figure_marks_the_fleet_and_the_sizes_first_order_misses(fleet: Params) -> None:
    """The figure marks 24,576 GPUs; the sizes drawn open are exactly those where first order is over 3 points off."""
    args = pages.fleet_figure(fleet)
    assert args["fleet"] == 24576.0
    for n, ok in zip(args["gpus"], args["in_range"], strict=True):
        m = 60 / (fleet.rate_per_gpu_hour * n)
        assert ok == (exact.first_order_error(fleet.checkpoint_cost, m, fleet.restart) <= 0.03)
    assert args["in_range"][-1] is False
    legend = _legend_texts(figures.fleet_scaling(**args))
    assert "this fleet, 24,576 GPUs" in legend
    assert any("exact model" in t for t in legend) and any("first order" in t for t in legend)


# --------------------------------------------------------------------------- the brief's worked example


def test_brief_arithmetic_is_the_brief(worked: Params) -> None:
    """The brief's first-order arithmetic: 86.9% at 19.3 min, 74.1% at 43.1 min, 12.8 points, $3.8M a month;
    every 40 min: 1/40 + 40/(2M) + R/M = 2.5% + 10.8% + 2.7%, 84.0%, 2.9 points worse."""
    words = pages.brief_example(worked)
    assert (words["brief_t"], words["brief_g"], words["brief_slow_t"], words["brief_slow_g"]) == (
        "19.3 min", "86.9%", "43.1 min", "74.1%")
    assert (words["brief_points"], words["brief_capacity"]) == ("12.8 points", "$3.8M")
    assert (words["brief_habit_ckpt"], words["brief_habit_lost"], words["brief_habit_rst"]) == ("2.5%", "10.8%",
                                                                                                "2.7%")
    assert (words["brief_habit_g"], words["brief_habit_points"]) == ("84.0%", "2.9 points")


def test_brief_exact_numbers_are_labelled_beside_it(worked: Params) -> None:
    """By the exact model the same inputs give 87.6% at 18.6 min, 76.5% at 39.8 min (not first order's 43.1 min),
    11.1 points, $3.3M; the 5-minute checkpoint's first-order error is 2.4 points, which the package's check
    cautions about (dropped term between 1 and 3 points)."""
    words = pages.brief_example(worked)
    assert (words["brief_exact_t"], words["brief_exact_g"], words["brief_exact_slow_t"]) == ("18.6 min", "87.6%",
                                                                                             "39.8 min")
    assert (words["brief_exact_points"], words["brief_exact_capacity"]) == ("11.1 points", "$3.3M")
    assert words["brief_slow_error"] == "2.4 points"
    assert words["brief_slow_status"] == "first order's own check cautions about it"
    assert words["brief_conclusion"].endswith("the brief's conclusion stands.")


def test_brief_example_never_takes_the_fleets_numbers(worked: Params, fleet: Params) -> None:
    """Built from another fleet, the worked example's section is word for word the same, but for the sentence saying
    these are not the build's inputs; no fleet number appears in it."""
    mine, theirs = pages.brief_example(worked), pages.brief_example(fleet)
    assert {k: v for k, v in mine.items() if k != "brief_build"} == {k: v for k, v in theirs.items()
                                                                      if k != "brief_build"}
    assert theirs["brief_build"] == ("They are not the inputs this build was made from (fleet-24k.yml): nothing in "
                                     "this section uses that file.")
    text = " ".join(theirs.values())
    for number in ("24,576", "40 s", "12 min", "$2.1", "84.1%"):
        assert number not in text


def test_debate_verdicts(worked: Params) -> None:
    """15 vs 45 min: at C = 1 min 3.5 points apart (< 5: holds); at C = 5 min 69.1% vs 76.3%, 7.2 points (does
    not hold). First order puts them 14.1 points apart: at C/T = 1/3 its (C/T)^2 term alone is 11 points, so the
    command refuses it. The fix, 11.2 points from 45 min, is 3.2 times the fast gap and 1.6 times the slow one."""
    words = pages.debate()
    assert (words["debate_fast_gap"], words["debate_fast_verdict"]) == ("3.5 points", "holds")
    assert (words["debate_slow_short"], words["debate_slow_long"], words["debate_slow_gap"]) == ("69.1%", "76.3%",
                                                                                                 "7.2 points")
    assert words["debate_slow_verdict"] == "does not hold"
    assert words["debate_slow_first_gap"] == "14.1 points"
    # At C = 5 min and T = 15 min first order gives 59.9% and the exact model 69.1%: 9.2 points apart.
    assert words["debate_first_status"] == "refuses to quote it: first order is 9.2 points below the exact model there"
    assert not any("`" in text or "--" in text for text in words.values())  # glued text is not Markdown
    assert (words["debate_fix"], words["debate_ratio_fast"], words["debate_ratio_slow"]) == ("11.2 points", "3.2",
                                                                                             "1.6")
    assert words["debate_four"] == "is about right only when the debate is held at the fast checkpoint cost"
    assert (words["debate_better"], words["debate_optimum"]) == ("45 min", "39.8 min")


def test_debate_numbers_are_the_models(worked: Params) -> None:
    """Each goodput in the debate is the model's at 15 or 45 min with the worked example's M and R."""
    d = pages.debate_numbers()
    for key, cost in (("fast", 1.0), ("slow", 5.0)):
        assert_allclose(d[key]["short"], exact.exact_goodput(cost, worked.mtbi, 5.0, 15.0))
        assert_allclose(d[key]["first_long"], model.goodput(cost, worked.mtbi, 5.0, 45.0))
        assert_allclose(d[key]["gap"], abs(d[key]["long"] - d[key]["short"]))
    assert_allclose(d["fix"]["long"], exact.exact_goodput(1.0, worked.mtbi, 5.0) - d["slow"]["long"])


@pytest.mark.parametrize(("gap", "words"), [(0.049, "holds"), (0.05, "does not hold")])
def test_few_percent_is_under_five_points(gap: float, words: str) -> None:
    """"Within a few percent" is read as fewer than 5 points."""
    assert pages._holds(gap) == words


@pytest.mark.parametrize(("fast", "slow", "words"), [
    (4.0, 4.0, "is about right at both checkpoint costs"),
    (3.2, 1.6, "is about right only when the debate is held at the fast checkpoint cost"),
    (1.6, 3.2, "is about right only at the slow checkpoint cost, the team's"),
    (1.6, 9.0, "does not hold at either checkpoint cost"),
])
def test_four_times_has_four_cases(fast: float, slow: float, words: str) -> None:
    """"Four times" is read as a ratio between 3 and 5, at each checkpoint cost."""
    assert pages._four_times(fast, slow) == words


def test_debate_table_and_figure_are_the_worked_examples(fleet: Params) -> None:
    """The debate's table and figure take no fleet: a row per checkpoint cost (1 and 5 min) and model, each model at
    its own optimum (first order 74.1% every 43.1 min, exact 76.5% every 39.8 min for 5 min), the 15 and 45-minute
    marks, and a legend that names the debate."""
    table = pages.debate_table()
    frame = table["frame"]
    assert list(frame["checkpoint cost"]) == ["1 min", "1 min", "5 min", "5 min"]
    assert list(frame["model"]) == ["first order", "exact"] * 2
    assert list(frame["at the model's optimum"])[2:] == ["74.1% every 43.1 min", "76.5% every 39.8 min"]
    assert list(frame["every 15 min"]) == ["86.6%", "87.4%", "59.9%", "69.1%"]
    assert "The brief's worked example" in table["caption"]
    args = pages.debate_figure()
    assert args["marks"] == [15.0, 45.0] and args["costs"] == [1.0, 5.0]
    legend = _legend_texts(figures.goodput_vs_interval(**args))
    assert "the debate: 15 min and 45 min" in legend


# --------------------------------------------------------------------------- a fleet with a drain and two tiers


@pytest.fixture(scope="module")
def tiered() -> Params:
    """examples/fleet-24k.yml: a 40 s snapshot durable 6 min later, a persistent tier (4 min) every n-th checkpoint."""
    return load_params(ROOT / "examples" / "fleet-24k.yml")


def test_tiered_fleet_numbers_are_the_recommendations(tiered: Params) -> None:
    """With a drain and a persistent tier the page's goodput and interval are plan_for's (the tier model), and the
    checkpoint is described with its drain and its persistent cadence."""
    plan = plan_for(tiered)
    assert plan.tiers is not None
    words = pages.cheaper_checkpoint(tiered)
    assert words["cost_goodput"] == f"{plan.goodput:.1%}"
    assert words["cost_fast_interval"] == format_duration(plan.interval)
    assert words["cost_scheme"].startswith("a snapshot of 40 s, durable 6 min later, with every ")
    assert words["cost_scheme"].endswith("checkpoint also written to the persistent tier in 4 min")
    interval = pages.badly_chosen_interval(tiered)
    assert interval["interval_scheme"] == "the 40 s snapshot with its drain and persistent tier"
    assert interval["interval_goodput"] == f"{plan.goodput:.1%}"


def test_tiered_fleet_shorter_interval_left_out_below_the_drain(tiered: Params) -> None:
    """An interval below the drain is impossible; with a 20-minute drain, half the optimum is below it, so the
    shorter interval is left out rather than planned."""
    long_drain = tiered.replace(drain=20.0)
    best = plan_for(long_drain).interval
    assert best / 2 < 20.0
    assert pages.badly_chosen_interval(long_drain)["interval_shorter"] == ""


def test_tiered_fleet_levers_include_the_tier_levers(tiered: Params) -> None:
    """The fast scenario's levers are plan_levers of the tier plan at 2 T*: the input levers of the plan, plus
    shortening the drain and making the fast tier survive more failures; the slow one has neither."""
    fast, slow = pages.lever_scenarios(tiered).values()
    plan = plan_levers(plan_for(tiered))
    for lever in (*LEVERS[:3], "shorten the drain", "make the fast tier survive more failures"):
        assert_allclose(fast[lever], plan[lever], atol=1e-12)
    assert "shorten the drain" not in slow
    words = pages.lever_section(tiered)
    assert words["levers_tiers"].startswith(" The drain and the persistent tier add levers of their own")
    assert "e^(−R/M)" not in words["levers_restart"]
    figures.lever_gains(**pages.lever_figure(tiered))


def test_tiered_fleet_size_section_says_it_is_single_tier(tiered: Params, fleet: Params) -> None:
    """The fleet-size section takes one immediately safe checkpoint and says so for a fleet with tiers only."""
    assert "drain and persistent tier are left out" in pages.fleet_size(tiered)["fleet_note"]
    assert pages.fleet_size(fleet)["fleet_note"] == ""
    assert pages.fleet_size(tiered)["fleet_g"] == f"{exact.exact_goodput(2 / 3, tiered.mtbi, 12.0):.1%}"


def test_tiered_fleet_figures_show_the_plans_goodput(tiered: Params) -> None:
    """With tiers, the cost figure draws the fleet's checkpoint at the plan's goodput, off the single-tier curves,
    and the interval figure draws its curve through plan_for, peaking at the plan's interval and goodput."""
    plan = plan_for(tiered)
    cost = pages.cost_figure(tiered)
    assert cost["marks"] == [5.0]
    ((c, g, label),) = cost["points"]
    assert (c, g) == (pytest.approx(2 / 3), plan.goodput) and "drain and persistent tier" in label
    interval = pages.interval_figure(tiered)
    ((label, (t, exact_g, first_g, best)),) = interval["curves"].items()
    assert best == (plan.interval, plan.goodput)
    assert max(exact_g) <= plan.goodput + 1e-9 and min(t) >= tiered.drain
    assert all(f < e for f, e in zip(first_g, exact_g, strict=True))
    figures.goodput_vs_cost(**cost)
    figures.goodput_vs_interval(**interval)
