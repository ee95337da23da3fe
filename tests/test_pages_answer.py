"""The answer, planning and citation pages: one recommendation (the exact model's) on each, the brief's first-order
arithmetic labelled beside it, and a citation that names the inputs of the build."""

from __future__ import annotations

from pathlib import Path

import pytest

from goodput.exact import exact_goodput, exact_optimal_interval
from goodput.pages import answer, planning
from goodput.pages.cite import citation
from goodput.params import load_params
from goodput.plan import plan_for
from goodput.provenance import Provenance
from goodput.units import format_duration

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def tiered():
    """The 24,576-GPU fleet with a 6 min drain and a persistent tier (examples/fleet-24k.yml)."""
    return load_params(ROOT / "examples" / "fleet-24k.yml")


def test_the_answer_is_the_exact_model(worked) -> None:
    """Worked example: T* = M (1 + W0(-e^{-1-C/M})) = 18.6 min, goodput T e^{-R/M}/(M(e^{(T+C)/M} - 1)) = 87.6%;
    the slow checkpoint's exact optimum 11.1 points lower, $3.3M a month at $2.5 per GPU-hour over 720 h."""
    n = answer.numbers(worked)
    assert n["interval"] == format_duration(exact_optimal_interval(1.0, worked.mtbi)) == "18.6 min"
    assert n["goodput"] == f"{exact_goodput(1.0, worked.mtbi, 5.0):.1%}" == "87.6%"
    assert (n["points"], n["capacity"], n["mtbi"], n["drain_text"]) == ("11.1 points", "$3.3M", "186 min", "")
    assert n["recommendation"].startswith("Checkpoint every 18.6 min of work (exact optimum")
    assert n["params_file"].endswith("(the brief's worked example)")


def test_the_brief_arithmetic_is_first_order_and_labelled(worked) -> None:
    """Worked example by first order: √(2 x 1 x 185.6) = 19.3 min, 86.9%; slow 74.1%, 12.8 points, $3.8M; and the
    note says how far it is from the exact model (0.7 points below)."""
    f = answer.first_order(worked)
    assert (f["fo_interval"], f["fo_goodput"], f["fo_slow_goodput"], f["fo_points"], f["fo_capacity"]) == (
        "19.3 min", "86.9%", "74.1%", "12.8 points", "$3.8M")
    assert "0.7 points below the exact model's 87.6%" in f["fo_note"]
    assert "2.4 points below the exact model" in f["fo_note"]  # the slow checkpoint, cautioned


def test_a_fleet_gets_its_own_numbers_and_no_worked_ones(fleet) -> None:
    """A 24,576-GPU fleet (M = 60/(1.6e-5 x 24,576) = 153 min, C = 40 s, R = 12 min): its exact optimum and goodput,
    durations as people write them, none of the worked example's strings."""
    n = answer.numbers(fleet)
    plan = plan_for(fleet)
    assert n["interval"] == format_duration(plan.interval) and n["goodput"] == f"{plan.goodput:.1%}"
    assert (n["cost"], n["restart"], n["mtbi"], n["gpus"]) == ("40 s", "12 min", "153 min", "24,576")
    assert n["params_file"] == "fleet-24k.yml"
    text = " ".join(list(n.values()) + list(answer.first_order(fleet).values()))
    for worked_string in ("18.6 min", "87.6%", "19.3 min", "86.9%", "$3.8M", "16,384"):
        assert worked_string not in text


def test_a_tiered_fleet_names_its_drain_loss(tiered) -> None:
    """With a drain and a persistent tier the losses sentence adds the share lost to checkpoints not yet durable,
    and the first-order note says its numbers leave the tiers aside."""
    n = answer.numbers(tiered)
    assert "not yet durable" in n["drain_text"] and "persistent tier" in n["recommendation"]
    assert "drain and tiers are in the recommendation" in answer.first_order(tiered)["fo_note"]


def test_first_order_gives_no_number_where_it_is_out_of_range(tiered) -> None:
    """The 24k example's slow checkpoint (5 min against M = 153 min, R = 12 min) puts first order more than 3 points
    below the exact model: no goodput for it, and no points or capacity between the two checkpoints."""
    f = answer.first_order(tiered)
    assert "outside its range, so it gives no number for it, nor for the difference" in f["fo_text"]
    assert "points less" not in f["fo_text"] and "$" not in f["fo_text"]
    assert f["fo_points"] == f["fo_capacity"] == f["fo_slow_goodput"] == "no number"


def test_how_sure_says_when_no_input_has_a_range(fleet, worked) -> None:
    """No ranges in the file and M from a rate: single values, said in words; the worked example's count gives M a
    Poisson interval and its stated ranges give C and R theirs."""
    assert "no input a range" in answer.how_sure(fleet)["sure_top_text"]
    sure = answer.how_sure(worked)
    assert "Poisson interval" in sure["sure_ranges"] and "moves goodput the most" in sure["sure_top_text"]
    assert "ranges." not in sure["sure_ranges"] and "params.yml" not in sure["sure_ranges"]


def test_planning_page_tables(tiered, worked) -> None:
    """The planning page's inputs table names the tier inputs when there are some, its losses table adds the drain,
    and its levers table lists the drain and fast-tier levers, largest first."""
    inputs = planning.inputs_table(tiered)
    assert "drain until durable, D" in set(inputs["input"]) and "every n-th checkpoint persistent, n" in set(inputs["input"])
    losses, _ = planning.losses_table(tiered)
    assert "not yet durable (drain)" in set(losses["share of wall time"])
    levers, values = planning.levers_table(tiered)
    assert {"shorten the drain", "make the fast tier survive more failures"} <= set(levers["lever"])
    assert values["top_lever"] == levers["lever"].iloc[0]
    assert planning.summary(worked)["interval"] == answer.numbers(worked)["interval"]  # one recommendation
    assert planning.summary(worked)["params_file"].endswith("(the brief's worked example)")
    assert planning.summary(tiered)["params_file"] == "fleet-24k.yml"
    assert "First order of this checkpoint scheme" in planning.summary(tiered)["model_note"]
    assert "Young's √(2CM), the brief's arithmetic" in planning.summary(worked)["model_note"]


def test_each_build_cites_its_own_inputs() -> None:
    """Two builds from different inputs files are two citations: the key and the note carry the inputs' hash."""
    cff = {"title": "Goodput", "authors": [{"name": "The goodput authors"}], "preferred-citation": {"year": 2026}}
    a = citation(cff, Provenance("0.2.0", "params.yml", "a" * 64, "abc123"), 16384)
    b = citation(cff, Provenance("0.2.0", "fleet.yml", "b" * 64, "abc123"), 24576)
    assert a["key"] != b["key"] and "a" * 64 in a["bibtex"] and "fleet.yml" in b["bibtex"]
    assert "version = {0.2.0}" in a["bibtex"] and "commit abc123" in a["bibtex"]
