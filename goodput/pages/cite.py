"""The "How to cite" page: the citation of the build the reader is looking at, inputs file and hash included."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from goodput.provenance import Provenance


def citation(cff: Mapping[str, Any], built: Provenance, gpus: int) -> dict[str, str]:
    """The values of the citation page and a BibTeX entry for this build.

    Parameters
    ----------
    cff : mapping
        ``CITATION.cff``, read (its title, authors and preferred citation's year).
    built : Provenance
        What this build was made from.
    gpus : int
        The GPU count of the inputs (named beside the inputs file).

    Returns
    -------
    dict of str to str
        ``version``, ``title``, ``authors``, ``year``, ``params_name``, ``params_sha``, ``commit``, ``gpus``,
        ``key`` and ``bibtex``. The key and the note name the inputs file's hash, so that two builds from
        different inputs are two different citations.

    Examples
    --------
    >>> cff = {"title": "Goodput", "authors": [{"name": "The goodput authors"}], "preferred-citation": {"year": 2026}}
    >>> c = citation(cff, Provenance("0.2.0", "fleet.yml", "ab" * 32, None), 24576)
    >>> c["key"]
    'goodput2026-0.2.0-abababab'
    """
    authors = ", ".join(a.get("name") or f"{a['given-names']} {a['family-names']}" for a in cff["authors"])
    year = str(cff["preferred-citation"]["year"])
    sha = built.params_sha256 or ""
    key = f"goodput{year}-{built.version}" + (f"-{sha[:8]}" if sha else "")
    commit = built.commit or "not recorded (built outside a Git checkout)"
    note = f"Version {built.version}, built from {built.params_name}" + (f" (SHA-256 {sha})" if sha else "")
    if built.commit:
        note += f", commit {built.commit}"
    bibtex = "\n".join([
        f"@book{{{key},",
        f"  author  = {{{{{authors}}}}},",
        f"  title   = {{{{{cff['title']}}}}},",
        f"  year    = {{{year}}},",
        f"  version = {{{built.version}}},",
        f"  note    = {{{note}}}",
        "}",
    ])
    return {
        "version": built.version,
        "title": str(cff["title"]),
        "authors": authors,
        "year": year,
        "params_name": built.params_name,
        "params_sha": sha or "not recorded",
        "commit": commit,
        "gpus": f"{gpus:,}",
        "key": key,
        "bibtex": bibtex,
    }
