"""Shared fixtures: the worked example's inputs, a 24,576-GPU fleet unlike it, a clean build of the book, headless Chromium, and a hypothesis profile for CI."""

from __future__ import annotations

import html
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import settings

from goodput.params import Params, load_params, params_from_mapping

ROOT = Path(__file__).resolve().parent.parent

settings.register_profile("ci", max_examples=200, deadline=None, derandomize=True)
settings.register_profile("dev", max_examples=100, deadline=None)
# `make test-fast` (--hypothesis-profile=fast): each property on 20 examples, a quick loop; `make test` keeps 100
# (200, derandomized, under CI). Properties with their own max_examples keep it.
settings.register_profile("fast", max_examples=20, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(scope="session")
def worked() -> Params:
    """The worked example shipped with the package."""
    return load_params()


#: A small fleet with a drain: C and the drain from its model's size and storage bandwidth, R as its parts.
SMALL_FLEET = Path(__file__).parent / "data" / "fleet-small-tiered.yml"


@pytest.fixture(scope="session")
def small_params() -> Params:
    """The small fleet (:data:`SMALL_FLEET`): 1,024 GPUs, a 3.55 ms snapshot drained in 15.2 s, R = 19 min."""
    return load_params(SMALL_FLEET)


@pytest.fixture(scope="session")
def book() -> Params:
    """book/params.yml, read as the book reads it (the worked example's values, from that file)."""
    return load_params(ROOT / "book" / "params.yml")


#: A fleet unlike the worked example in every input: 24,576 GPUs at 1.6e-5 interruptions per GPU-hour
#: (M = 60 / (1.6e-5 x 24,576) = 153 min, from a rate, with no range), C = 40 s (slow 4 min), R = 12 min,
#: $2.1 per GPU-hour over a 730 h month; one tier. Tests take it through the fixtures below.
FLEET_24K: Mapping[str, object] = {
    "gpus": 24576, "rate_per_gpu_hour": 1.6e-5, "checkpoint_cost": "40 s", "slow_checkpoint_cost": "4 min",
    "restart": "12 min", "price_per_gpu_hour": 2.1, "month": "730 h",
}


@pytest.fixture(scope="session")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> Params:
    """:data:`FLEET_24K` read from a file named fleet-24k.yml, as a reader's would be (its source is that name)."""
    path = tmp_path_factory.mktemp("fleet") / "fleet-24k.yml"
    path.write_text(yaml.safe_dump(dict(FLEET_24K), sort_keys=False), encoding="utf-8")
    return load_params(path)


#: The planner's 65,536-GPU fleet given in storage terms (issue 19): a snapshot to host memory, its drain to shared
#: storage at 50% of 2 TB/s, the load at 50% of 4 TB/s, the restart as its parts, and a price of storage bandwidth.
STORED = {"gpus": 65536, "rate_per_gpu_hour": 2.2e-5, "checkpoint": {"parameters": "405e9"},
          "storage": {"write_bandwidth": "2 TB/s", "read_bandwidth": "4 TB/s", "efficiency": 0.5, "price": 1500},
          "snapshot": {"bandwidth": "50 GB/s", "host_memory": "2 TiB"},
          "restart": {"detect": "1 min", "replace": "3 min", "startup": "4 min", "warmup": "2 min"},
          "price_per_gpu_hour": 3.2, "month": "730 h"}


@pytest.fixture(scope="session")
def stored() -> Any:
    """The storage-given fleet's plan (a :class:`goodput.fleet.FleetPlan`), for the levers and storage pages."""
    from goodput.fleet import fleet_plan

    return fleet_plan(params_from_mapping(STORED, source="fleet-405b.yml"))


def _fleet_variant(source: str, **changes: object) -> Params:
    data = {**FLEET_24K, **changes}
    return params_from_mapping({key: value for key, value in data.items() if value is not None}, source=source)


@pytest.fixture(scope="session")
def fleet_variant() -> Callable[..., Params]:
    """``fleet_variant(source, **changes)``: :data:`FLEET_24K` with some keys changed or added (None removes one),
    checked as the inputs named `source`."""
    return _fleet_variant


def build_book(out: Path, params: Path | None = None) -> Path:
    """Build the book from clean into `out`, strictly, from `params` (default: book/params.yml); return the HTML folder.

    The build is strict (``-W -n --keep-going``: any warning or unresolved reference fails it),
    starts from an empty output folder and executes every chapter. A GOODPUT_PARAMS set in the
    environment is ignored unless `params` is given.

    It is the build ``make book`` runs, fast path included: _ext/goodput_execute.py executes the
    chapters in parallel into a jupyter-cache it empties first and deletes after. So the log must
    show every chapter with code executed by this build, and no cache may be left behind.
    """
    exe = Path(sys.executable).parent / "jupyter-book"
    env = {k: v for k, v in os.environ.items() if k != "GOODPUT_PARAMS"}
    if params is not None:
        env["GOODPUT_PARAMS"] = str(params)
    result = subprocess.run(
        [str(exe), "build", str(ROOT), "--path-output", str(out), "-W", "-n", "--keep-going"],
        capture_output=True, text=True, check=False, env=env,
    )
    log = result.stdout + result.stderr
    assert result.returncode == 0, log[-5000:]
    assert "build succeeded" in log
    executed = set(re.findall(r"\[goodput\] \S*?(book/\w+)\.md: executed in [\d.]+ seconds", log))
    assert executed == executable_chapters(), log[-5000:]
    assert not (out / "_build" / ".jupyter_cache").exists()
    return out / "_build" / "html"


def executable_chapters() -> set[str]:
    """The chapters in _toc.yml that are text notebooks with code cells, as ``book/<name>``."""
    toc = (ROOT / "_toc.yml").read_text(encoding="utf-8")
    chapters = set(re.findall(r"^\s*(?:root|- file):\s*(\S+)", toc, flags=re.MULTILINE))
    return {
        chapter for chapter in chapters
        if (text := (ROOT / f"{chapter}.md").read_text(encoding="utf-8")).startswith("---\njupytext:")
        and "```{code-cell}" in text
    }


def _page_text(html_dir: Path, page: str) -> str:
    """The visible text of a built page, whitespace collapsed."""
    raw = (html_dir / "book" / f"{page}.html").read_text(encoding="utf-8")
    raw = re.sub(r"<(script|style)\b.*?</\1>", " ", raw, flags=re.DOTALL)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", raw)))


@pytest.fixture(scope="session")
def page_text() -> Callable[[Path, str], str]:
    """``page_text(html_dir, page)``: the visible text of a built page, whitespace collapsed."""
    return _page_text


@pytest.fixture(scope="session")
def book_builder() -> Callable[..., Path]:
    """``book_builder(out, params=None)``: :func:`build_book`, for tests that build from another inputs file."""
    return build_book


@pytest.fixture(scope="session")
def built_book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The book built from clean from book/params.yml (see :func:`build_book`): its HTML folder."""
    return build_book(tmp_path_factory.mktemp("book"))


# ---------------------------------------------------------------------------------------------
# Headless Chromium, for tests/test_browser.py and tests/test_calculator.py: one browser per session.

#: Flags that keep Chromium from calling home; Playwright adds a fresh temporary --user-data-dir.
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
#: Where a Chromium is looked for, after $GOODPUT_CHROMIUM.
CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable")

def find_chromium() -> str | None:
    """The Chromium to drive: $GOODPUT_CHROMIUM if set, else the first of CHROMIUM_CANDIDATES found."""
    wanted = os.environ.get("GOODPUT_CHROMIUM")
    for candidate in ([wanted] if wanted else list(CHROMIUM_CANDIDATES)):
        path = candidate if os.path.isabs(candidate) else shutil.which(candidate)
        if path and os.access(path, os.X_OK):
            return path
    return None


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def no_browser(reason: str) -> None:
    """Skip with the reason, or fail under CI=true, where a missing browser is a broken set-up."""
    if in_ci():
        pytest.fail(f"CI is set and {reason}; .ci/run installs Debian's chromium before `make test`", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """A headless Chromium (Debian's), launched by Playwright with a fresh temporary profile.

    Session-scoped and requested before ``built_book``, so that without a browser the tests are
    skipped (or fail, under CI) before the book is built for them.
    """
    path = find_chromium()
    if path is None:
        no_browser("no Chromium is installed (looked for $GOODPUT_CHROMIUM, " + ", ".join(CHROMIUM_CANDIDATES)
                   + "); install Debian's: apt-get install chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        no_browser("the playwright package is not installed (pip install -c constraints.txt -e '.[test]')")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="module")
def js(chromium: Any) -> Iterator[Any]:
    """A blank page with the calculator's three scripts loaded (no book build needed): the calculator's tests."""
    from goodput.book import calculator

    static = Path(__file__).resolve().parent.parent / "_ext" / "static"
    page = chromium.new_page()
    page.goto("about:blank")
    page.add_script_tag(path=str(static / "goodput-lambertw.js"))
    page.add_script_tag(content=calculator.formulas_js())
    page.add_script_tag(path=str(static / "goodput-calculator.js"))
    yield page
    page.close()


# ---------------------------------------------------------------------------------------------
# Markers that follow from fixtures: a test that reads the built book is a `book` test, one that drives
# Chromium a `browser` test, so `make test-fast` (which deselects them) never builds the book or opens a browser.

#: Fixture -> the marker a test that requests it (directly or through another fixture) must carry.
FIXTURE_MARKERS = {"built_book": "book", "book_builder": "book", "chromium": "browser"}


#: Doctests (``module.function``) that take a CPU-second or more, marked ``slow`` here as tests are in their files:
#: sympy's derivation of the tiers (tested again in tests/test_symbolic.py).
SLOW_DOCTESTS = frozenset({"goodput.symbolic.derive_tiers"})


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the slow doctests; refuse a test that requests an expensive fixture without the marker that deselects it."""
    for item in items:
        if item.name in SLOW_DOCTESTS:
            item.add_marker(pytest.mark.slow)
    unmarked = [
        f"{item.nodeid} uses {fixture} but is not marked {marker}"
        for item in items
        for fixture, marker in FIXTURE_MARKERS.items()
        if fixture in getattr(item, "fixturenames", ()) and item.get_closest_marker(marker) is None
    ]
    if unmarked:
        raise pytest.UsageError("; ".join(unmarked))
