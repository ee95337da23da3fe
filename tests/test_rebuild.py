"""The book rebuilt from another fleet's inputs file shows that fleet's numbers, not the worked example's.

Builds the whole book from clean, strictly (``-W -n --keep-going``, every chapter executed), with
``GOODPUT_PARAMS=examples/fleet-32k.yml``: 32,768 GPUs, M given as a per-GPU rate (not a count), a
90-second checkpoint, an 8-minute restart, stated ranges of C, M and R, and the sample logs.
"""

from __future__ import annotations

import html
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from goodput.params import load_params
from goodput.plan import headline
from goodput.uncertainty import propagate_params

ROOT = Path(__file__).resolve().parent.parent
FLEET = ROOT / "examples" / "fleet-32k.yml"
pytestmark = pytest.mark.book


def page_text(html_dir: Path, page: str) -> str:
    """The visible text of a built page, whitespace collapsed."""
    raw = (html_dir / "book" / f"{page}.html").read_text(encoding="utf-8")
    raw = re.sub(r"<(script|style)\b.*?</\1>", " ", raw, flags=re.DOTALL)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", raw)))


def shown(h: dict[str, float]) -> dict[str, str]:
    """The answer page's numbers as it formats them (see book/answer.md)."""
    return {
        "M": f"M = {h['mtbi']:.0f} min",
        "T*": f"{h['interval']:.1f} min of work",
        "checkpoint overhead": f"checkpoint overhead {h['checkpoint_overhead']:.1%}",
        "lost work": f"lost work {h['lost_work']:.1%}",
        "restart": f"restart {h['restart_loss']:.1%}",
        "goodput": f"Goodput {h['goodput']:.1%}",
        "slow goodput": f"leaves {h['slow_goodput']:.1%}",
        "slow interval": f"interval of {h['slow_interval']:.0f} min",
        "points": f"{100 * h['points']:.1f} points less",
        "capacity": f"${h['capacity'] / 1e6:.1f}M",
    }


@pytest.fixture(scope="module")
def fleet_book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build the book from clean with GOODPUT_PARAMS=examples/fleet-32k.yml and return the HTML folder."""
    out = tmp_path_factory.mktemp("fleet-32k")
    exe = Path(sys.executable).parent / "jupyter-book"
    env = dict(os.environ, GOODPUT_PARAMS=str(FLEET))
    result = subprocess.run(
        [str(exe), "build", str(ROOT), "--path-output", str(out), "-W", "-n", "--keep-going"],
        capture_output=True, text=True, check=False, env=env,
    )
    log = result.stdout + result.stderr
    assert result.returncode == 0, log[-5000:]
    assert "build succeeded" in log
    return out / "_build" / "html"


def test_the_fleet_file_differs_from_the_worked_example() -> None:
    """The example fleet is a different fleet: another GPU count, M from a rate, and every shown number changed."""
    fleet, worked = load_params(FLEET), load_params(ROOT / "book" / "params.yml")
    assert fleet.gpus != worked.gpus and fleet.mtbi_source == "rate_per_gpu_hour" != worked.mtbi_source
    assert fleet.steps_log is not None and fleet.steps_log.resolve() == (ROOT / "book/data/sample-steps.csv")
    new, old = shown(headline(fleet)), shown(headline(worked))
    assert all(new[key] != old[key] for key in new), {k: (new[k], old[k]) for k in new if new[k] == old[k]}


def test_answer_page_shows_the_fleet_numbers(fleet_book: Path) -> None:
    """Every headline number on the answer page is goodput's for examples/fleet-32k.yml, formatted as the page does."""
    text = page_text(fleet_book, "answer")
    for key, value in shown(headline(load_params(FLEET))).items():
        assert value in text, (key, value)
    assert "32,768" in text


def test_answer_page_names_the_file_it_was_built_from(fleet_book: Path) -> None:
    """The answer page (its opening and its 'Built from' table) names examples/fleet-32k.yml."""
    text = page_text(fleet_book, "answer")
    assert "This build was made from examples/fleet-32k.yml" in text
    assert "params file examples/fleet-32k.yml" in text


def test_no_worked_number_is_left_where_it_was(fleet_book: Path) -> None:
    """None of the worked example's headline strings (T* 19.3 min, 86.9%, 186 min, ...) appears in its place."""
    text = page_text(fleet_book, "answer")
    for key, value in shown(headline(load_params(ROOT / "book" / "params.yml"))).items():
        assert value not in text, (key, value)
    assert "For a job on 16,384 GPUs" not in text


def test_answer_and_planning_pages_show_the_fleet_ranges(fleet_book: Path) -> None:
    """The uncertainty range of T* and goodput is the one propagated from the fleet file's stated ranges."""
    params = load_params(FLEET)
    h = headline(params)
    fixed = propagate_params(params, interval=h["interval"])
    best = propagate_params(params)
    t_lo, t_hi = best.optimal_interval_range
    g_lo, g_hi = fixed.goodput_range
    for page in ("answer", "planning"):
        text = page_text(fleet_book, page)
        assert f"between {t_lo:.1f} and {t_hi:.1f} min" in text, page
        assert f"between {g_lo:.1%} and {g_hi:.1%}" in text, page
    assert "ranges.mtbi" in page_text(fleet_book, "answer")  # M from a rate: its stated range, not a count


def test_logs_chapter_names_the_logs_of_the_fleet_file(fleet_book: Path) -> None:
    """The logs chapter says it measured the files named by the fleet file's logs: key."""
    text = page_text(fleet_book, "logs")
    assert "This build measured book/data/sample-steps.csv and book/data/sample-events.csv" in text
    assert "examples/fleet-32k.yml" in text
