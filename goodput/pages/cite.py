"""The "How to cite" page (book/cite.md): the citation of the build the reader is looking at, inputs file and hash included."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from goodput.fleet import FleetPlan
from goodput.pages import Raw, Variant
from goodput.pages.common import Fleet, first_order_variant, fleet_values, scheme_kind
from goodput.provenance import Provenance


@dataclass(frozen=True)
class Page(Fleet):
    """The citation page's values; each field is a glue key of book/cite.md."""

    version: str
    title: str
    authors: str
    year: str
    params_name: str
    params_sha: str
    commit: str
    key: str
    bibtex: str
    entry: Variant
    first_order: Variant
    plan_eqs: Variant


def build(fleet: FleetPlan, cff: Mapping[str, Any], built: Provenance) -> Page:
    """The citation of this build: its version, inputs file and hash, commit, and a BibTeX entry.

    >>> from goodput.fleet import fleet_plan
    >>> from goodput.params import load_params
    >>> cff = {"title": "Goodput", "authors": [{"name": "The goodput authors"}], "preferred-citation": {"year": 2026}}
    >>> build(fleet_plan(load_params()), cff, Provenance("0.2.0", "fleet.yml", "ab" * 32, None)).key
    'goodput2026-0.2.0-abababab'
    """
    authors = ", ".join(a.get("name") or f"{a['given-names']} {a['family-names']}" for a in cff["authors"])
    year = str(cff["preferred-citation"]["year"])
    sha = built.params_sha256 or ""
    key = f"goodput{year}-{built.version}" + (f"-{sha[:8]}" if sha else "")
    note = (f"Version {built.version}, built from {built.params_name}" + (f" (SHA-256 {sha})" if sha else "")
            + (f", commit {built.commit}" if built.commit else ""))
    bibtex = "\n".join([
        f"@book{{{key},",
        f"  author  = {{{{{authors}}}}},",
        f"  title   = {{{{{cff['title']}}}}},",
        f"  year    = {{{year}}},",
        f"  version = {{{built.version}}},",
        f"  note    = {{{note}}}",
        "}",
    ])
    return Page(
        **fleet_values(fleet), version=built.version, title=str(cff["title"]), authors=authors, year=year,
        params_name=built.params_name,
        params_sha=sha or "not recorded", commit=built.commit or "not recorded (built outside a Git checkout)",
        key=key, bibtex=Raw(bibtex), entry=Variant("bibtex"),
        first_order=first_order_variant(fleet), plan_eqs=Variant(plan_equations(fleet)),
    )


def plan_equations(fleet: FleetPlan) -> str:
    """Which equations give this fleet's own plan, as the name of a variant of the cite page's ``plan_eqs``.

    The tier ones for a tiered fleet (``"drain"``, ``"tiered"``), the just-in-time ones where interruptions are
    recovered (``"recovered"``), else the exact optimum (``"single"``); the first-order ones only where first order may
    be quoted (else ``"_exact"`` is added: the exact model's alone).
    """
    kind = scheme_kind(fleet)
    kind = "recovered" if kind == "single" and fleet.recovered else kind
    return kind + ("_exact" if kind != "single" and not fleet.first_order_quotable else "")
