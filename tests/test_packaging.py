"""Packaging: environment.yml installs from pyproject's one dependency list under the same pins, and the wheel works
on its own, outside the repository, with the lowest versions of its dependencies that pyproject declares."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
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


# --------------------------------------------------------------------------- the wheel, with the lowest versions


def floors() -> dict[str, str]:
    """The lowest version pyproject allows of each core dependency (its ``>=`` bound)."""
    out = {}
    for text in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]:
        req = Requirement(text)
        lows = [s.version for s in req.specifier if s.operator == ">="]
        assert len(lows) == 1, f"{text} has no single lower bound"
        out[req.name] = lows[0]
    return out


@pytest.mark.packaging
def test_the_wheel_works_outside_the_repository_with_the_lowest_dependencies(tmp_path: Path) -> None:
    """Build the wheel, install it in a new venv with every core dependency at its declared floor, and run the
    command from an empty folder: plan, simulate and measure answer with the same numbers as in development."""
    import contextlib
    import io
    import json
    import subprocess
    import sys
    import venv

    from goodput.cli import main

    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(wheels), str(ROOT)],
                   check=True)
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    pins = tmp_path / "floors.txt"
    pins.write_text("".join(f"{name}=={version}\n" for name, version in floors().items()))
    wheel = next(wheels.glob("goodput-*.whl"))
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "-c", str(pins), str(wheel)], check=True)
    installed = subprocess.run([str(python), "-m", "pip", "freeze"], capture_output=True, text=True, check=True)
    for name, version in floors().items():
        assert f"{name.lower()}=={version}" in installed.stdout.lower(), name
    work = tmp_path / "elsewhere"
    work.mkdir()
    (work / "steps.csv").write_bytes((ROOT / "book" / "data" / "sample-steps.csv").read_bytes())
    (work / "events.csv").write_bytes((ROOT / "book" / "data" / "sample-events.csv").read_bytes())
    goodput = env_dir / "bin" / "goodput"

    def run(*args: str) -> dict:
        result = subprocess.run([str(goodput), *args, "--format", "json"], cwd=work, capture_output=True, text=True,
                                check=False)
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout)

    def here(*args: str) -> dict:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main([*args, "--format", "json"]) == 0
        return json.loads(out.getvalue())

    plan = run("plan")
    assert plan["goodput"] == pytest.approx(here("plan")["goodput"], rel=1e-12)
    assert plan["provenance"]["commit"] is None  # an installed wheel is no work tree
    simulated = run("simulate", "--horizon", "20 years", "--seed", "3")
    assert simulated["goodput"] == pytest.approx(here("simulate", "--horizon", "20 years", "--seed", "3")["goodput"])
    measured = run("measure", "--steps", "steps.csv", "--events", "events.csv")
    assert measured["failures"] > 0 and 0 < measured["measured_goodput"] < 1
