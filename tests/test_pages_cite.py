"""The citation page: two builds from different inputs files are two citations (key and note carry the hash)."""

from __future__ import annotations

from goodput.fleet import fleet_plan
from goodput.pages import Variant, cite
from goodput.params import Params
from goodput.provenance import Provenance

CFF = {"title": "Goodput", "authors": [{"name": "The goodput authors"}, {"given-names": "A.", "family-names": "Planner"}],
       "preferred-citation": {"year": 2026}}


def test_each_build_cites_its_own_inputs(worked: Params, fleet: Params) -> None:
    a = cite.build(fleet_plan(worked), CFF, Provenance("0.2.0", "params.yml", "a" * 64, "abc123"))
    b = cite.build(fleet_plan(fleet), CFF, Provenance("0.2.0", "fleet-24k.yml", "b" * 64, None))
    assert (a.key, b.key) == ("goodput2026-0.2.0-aaaaaaaa", "goodput2026-0.2.0-bbbbbbbb")
    assert "a" * 64 in a.bibtex and "fleet-24k.yml" in b.bibtex and "commit abc123" in a.bibtex
    assert "version = {0.2.0}" in a.bibtex and a.bibtex.startswith("@book{goodput2026-0.2.0-aaaaaaaa,")
    assert (a.gpus, b.gpus, a.authors) == ("16,384", "24,576", "The goodput authors, A. Planner")
    assert b.commit.startswith("not recorded") and a.entry == Variant("bibtex")
    assert cite.build(fleet_plan(worked), CFF, Provenance("0.2.0", "x.yml", None, None)).params_sha == "not recorded"


def test_a_build_where_first_order_is_refused_says_so_under_the_quoted_results(worked: Params) -> None:
    """M = 25 min, C = 6 min, R = 8 min: first order's goodput is below zero, so the page's caveat is the refusal
    (not first order quoted beside the exact model); the worked example's first order is within range."""
    refused = worked.replace(mtbi=25.0, checkpoint_cost=6.0, slow_checkpoint_cost=6.0, restart=8.0, ranges={})
    fp = fleet_plan(refused)
    page = cite.build(fp, CFF, Provenance("0.2.0", "refused.yml", None, None))
    assert not fp.first_order_quotable and fp.plan.check.goodput < 0.0
    assert page.first_order == Variant("below_zero")
    ok = cite.build(fleet_plan(worked), CFF, Provenance("0.2.0", "params.yml", None, None))
    assert ok.first_order == Variant("ok") and fleet_plan(worked).first_order_quotable


def test_the_fleets_own_plan_is_cited_by_the_equations_of_its_scheme(worked: Params) -> None:
    """A fleet recovering 60% of interruptions just in time is planned with M/(1 - p), not by T* = sqrt(2CM); a
    tiered fleet by the tier equations; a plain one by the exact optimum."""
    prov = Provenance("0.2.0", "x.yml", None, None)
    jit = fleet_plan(worked.replace(just_in_time=0.6, jit_recovery=0.75, planned_rate=0.03))
    assert jit.recovered and cite.build(jit, CFF, prov).plan_eqs == Variant("recovered")
    assert fleet_plan(worked).plain and cite.build(fleet_plan(worked), CFF, prov).plan_eqs == Variant("single")


def test_a_tiered_fleet_cites_the_tier_equations(small_params: Params) -> None:
    fp = fleet_plan(small_params)
    assert fp.tiered and cite.build(fp, CFF, Provenance("0.2.0", "x.yml", None, None)).plan_eqs.name in ("drain", "tiered")


def test_a_fleet_whose_first_order_is_refused_is_cited_by_the_exact_equations_alone(worked: Params) -> None:
    """M = 25 min, C = 6 min, R = 8 min, 60% recovered just in time: first order of its scheme is out of range, so
    the page cites the exact optimum with M/(1 - p) and no first-order equation as its plan's."""
    fp = fleet_plan(worked.replace(mtbi=25.0, checkpoint_cost=6.0, slow_checkpoint_cost=6.0, restart=8.0, ranges={},
                                   just_in_time=0.6, jit_recovery=0.75, planned_rate=0.03))
    assert fp.recovered and not fp.first_order_quotable
    assert cite.build(fp, CFF, Provenance("0.2.0", "x.yml", None, None)).plan_eqs == Variant("recovered_exact")
