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
