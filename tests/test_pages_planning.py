"""The planning page: the answer page's one plan in tables, first order by the same measure, and its copy of the
command's output the command's own."""

from __future__ import annotations

import contextlib
import io
import json

import pytest
import yaml

from goodput.book import tables
from goodput.cli import main
from goodput.fleet import FleetPlan, fleet_plan
from goodput.pages import Variant, answer, planning
from goodput.params import Params, params_from_mapping
from goodput.report import money, points

FLEET_65K = {"gpus": 65536, "rate_per_gpu_hour": 2.2e-5, "checkpoint_cost": "25 s", "slow_checkpoint_cost": "5 min",
             "restart": "15 min", "price_per_gpu_hour": 3.2, "month": "730 h", "drain": "4 min",
             "persistent": {"cost": "3 min", "restart": "25 min"}, "fast_survives": 0.75}


@pytest.fixture(scope="module")
def fleet_65k() -> FleetPlan:
    return fleet_plan(params_from_mapping(FLEET_65K, source="fleet-65k.yml"))


@pytest.mark.slow
def test_planning_and_answer_pages_give_one_plan_and_one_first_order_measure(fleet_65k: FleetPlan, book: Params) -> None:
    """Same recommendation, interval, goodput and first-order gap on both pages, for a tiered and the worked fleet."""
    for fleet in (fleet_65k, fleet_plan(book)):
        a, p = answer.build(fleet), planning.build(fleet)
        assert (a.recommendation, a.interval, a.goodput, a.gap, a.first_order) == (
            p.recommendation, p.interval, p.goodput, p.gap, p.first_order)
    p = planning.build(fleet_65k)
    assert (p.interval, p.goodput, p.gap, p.first_order) == ("5.91 min", "44.2%", "18.5 points", Variant("out_of_range"))
    assert p.fo_interval == p.fo_goodput == "not quoted"
    w = planning.build(fleet_plan(book))
    assert (w.fo_interval, w.fo_goodput, w.gap, w.first_order) == ("19.3 min", "86.9%", "0.66 points", Variant("ok"))


def test_tables_carry_the_scheme_and_the_levers_worth(fleet_65k: FleetPlan) -> None:
    """The inputs table names D, C_p, R_p, s and the best n = 4; the losses table adds the drain's 1.7%; the levers
    table is largest first, each with its gain x GPUs x price x hours."""
    inputs = tables.plan_inputs_table(fleet_65k).set_index("input")
    assert inputs.loc["every n-th checkpoint persistent, n", "value"] == "4"
    assert inputs.loc["every n-th checkpoint persistent, n", "source"] == "best n"
    assert inputs.loc["drain until durable, D", "value"] == "4 min"
    assert inputs.loc["persistent restart, R_p", "value"] == "25 min"
    losses = tables.plan_losses_table(fleet_65k).set_index("where the time goes")["share of wall time"]
    assert (losses["restart"], losses["checkpoints not yet durable (the drain)"], losses["goodput"]) == (
        "35.9%", "1.7%", "44.2%")
    levers = tables.plan_levers_table(fleet_65k)
    assert list(levers["lever"][:2]) == ["halve the failure rate", "drain the persistent write as well"]
    gain = fleet_65k.levers["drain the persistent write as well"]
    assert levers["worth a month"][1] == money(gain * 65536 * 3.2 * 730) and levers["goodput gained"][1] == f"+{points(gain)}"


@pytest.mark.slow
def test_the_command_fills_every_source_and_says_best_n(tmp_path) -> None:
    """The page shows the command's own Markdown: every tier input has its source, and n is "best n" in JSON too."""
    path = tmp_path / "fleet-65k.yml"
    path.write_text(yaml.safe_dump(FLEET_65K), encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["plan", "--params", str(path), "--format", "json"]) == 0
    sources = json.loads(out.getvalue())["sources"]
    assert {key: sources[key] for key in ("D", "C_p", "R_p", "s")} == dict.fromkeys(("D", "C_p", "R_p", "s"),
                                                                                   "fleet-65k.yml")
    assert sources["n"] == "best n"


@pytest.mark.slow
def test_the_equations_cited_are_those_of_the_model_the_plan_uses(fleet_65k: FleetPlan, book: Params) -> None:
    """Two tiers: the tiers' equations (four losses, T*(n), n*), not Young's three losses; a drain alone: the exact
    optimum and the drain's factor; one tier: first order's formulas where quotable, the exact model's where first
    order is out of range. Every equation cited is one the book labels."""
    import re
    from pathlib import Path

    from goodput.book import variant_text

    book_dir = Path(__file__).resolve().parent.parent / "book"
    labels = set(re.findall(r":label: (\S+)", "".join(p.read_text(encoding="utf-8") for p in book_dir.glob("*.md"))))
    refused = book.replace(mtbi=20.0, checkpoint_cost=5.0, ranges={})
    cases = {"tiered": fleet_65k, "drain": fleet_plan(book.replace(drain=5.0)), "single": fleet_plan(book),
             "exact": fleet_plan(refused)}
    expected = {"tiered": ("tiered", "tiered"), "drain": ("drain", "drain"), "single": ("single", "first_order"),
                "exact": ("single", "exact")}
    assert not cases["exact"].first_order_quotable and cases["single"].first_order_quotable
    for name, fleet in cases.items():
        page = planning.build(fleet)
        assert (page.optimum.name, page.formulas.name) == expected[name], name
        cited = set(re.findall(r"\{eq\}`([^`]+)`", variant_text(page, "optimum") + variant_text(page, "formulas")))
        assert cited and cited <= labels, (name, cited - labels)
        tiered_eqs = {"eq-tiers-loss", "eq-tiers-interval", "eq-tiers-every"}
        assert (tiered_eqs <= cited) == (name == "tiered"), name
        assert ("eq-goodput" in cited) == (name == "single"), name


def test_a_recovered_fleet_cites_first_order_with_its_share(book: Params) -> None:
    """With just-in-time recovery the optimum and the formulas cite √(2CM/(1−p)), not Young's √(2CM)."""
    page = planning.build(fleet_plan(book.replace(just_in_time=0.6, jit_recovery=0.75)))
    assert (page.optimum, page.formulas) == (Variant("recovered"), Variant("recovered"))
    assert planning.build(fleet_plan(book)).optimum == Variant("single")


def test_planned_stops_alone_do_not_bring_in_the_just_in_time_share(worked: Params) -> None:
    """Planned stops and no share recovered just in time: the optimum is the exact model's own, which the stops do
    not move, and the page says so, without M/(1 − p) (it had written that formula for a fleet with no p)."""
    from goodput.exact import exact_optimal_interval

    fleet = fleet_plan(worked.replace(planned_rate=0.03))
    assert fleet.interval == pytest.approx(exact_optimal_interval(worked.checkpoint_cost, worked.mtbi))
    built = planning.build(fleet)
    assert (built.optimum, built.formulas) == (Variant("planned"), Variant("planned"))
    jit = planning.build(fleet_plan(worked.replace(just_in_time=0.5, jit_recovery=0.5)))
    assert (jit.optimum, jit.formulas) == (Variant("recovered"), Variant("recovered"))


def test_the_interval_names_what_else_it_rests_on() -> None:
    """A tiered fleet recovering 40% of interruptions just in time, with planned stops: the planning page said the
    interval came "with M = 67.8 min, C = 30 s and R = 20 min" alone; it now names the rest of the scheme."""
    from goodput.fleet import fleet_plan
    from goodput.params import load_params, params_from_mapping

    fleet = fleet_plan(params_from_mapping({
        "gpus": 73728, "rate_per_gpu_hour": 1.2e-5, "checkpoint_cost": "30 s", "slow_checkpoint_cost": "6 min",
        "restart": "20 min", "drain": "4 min", "persistent": {"cost": "3 min", "restart": "30 min"},
        "fast_survives": 0.8, "just_in_time": {"share": 0.4, "recovery": "2 min"}, "planned": {"rate": "2 per day"},
        "price_per_gpu_hour": 2.4, "month": "730 h"}))
    assert planning.build(fleet).inputs_more == (", and its drain and persistent tier, just-in-time recovery and "
                                                 "planned stops, as the inputs give them")
    assert planning.build(fleet_plan(load_params())).inputs_more == ""
