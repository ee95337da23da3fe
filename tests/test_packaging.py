"""Packaging: environment.yml installs from pyproject's one dependency list under the same pins."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import yaml
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent


def test_environment_yml_uses_pyproject_extras_and_constraints() -> None:
    """environment.yml lists no package of its own: it pip-installs `.[extras]` with constraints.txt."""
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    conda = [d for d in env["dependencies"] if isinstance(d, str)]
    pip = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    assert sorted(re.split(r"[<>=]", d)[0] for d in conda) == ["pip", "python"]
    assert "-c constraints.txt" in pip
    editable = next(p for p in pip if p.startswith("-e ."))
    extras = set(re.search(r"\[(.*)\]", editable).group(1).split(","))
    assert extras <= set(pyproject["project"]["optional-dependencies"])
    python = next(d for d in conda if d.startswith("python"))
    assert python.removeprefix("python") == pyproject["project"]["requires-python"]


def test_constraints_pin_every_dependency_and_satisfy_it() -> None:
    """Every dependency and extra in pyproject is pinned in constraints.txt, at a version its range allows."""
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            name, version = line.split("==")
            pins[re.sub(r"[-_.]+", "-", name).lower()] = Version(version)
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = list(pyproject["dependencies"]) + [r for extra in pyproject["optional-dependencies"].values() for r in extra]
    for text in reqs:
        req = Requirement(text)
        name = re.sub(r"[-_.]+", "-", req.name).lower()
        assert name in pins, f"{req.name} is not pinned"
        assert pins[name] in req.specifier, f"{req.name}=={pins[name]} is outside {req.specifier}"


def test_jupyter_book_is_1x() -> None:
    """The book is a Jupyter Book 1.x project; 2.x is a different tool."""
    pins = (ROOT / "constraints.txt").read_text()
    assert re.search(r"^jupyter-book==1\.", pins, re.MULTILINE)
