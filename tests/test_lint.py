"""The chapters are code too: each one, as Python (through jupytext), passes the same ruff checks as the package."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import jupytext
import pytest

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = sorted((ROOT / "book").glob("*.md"))


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.name)
def test_chapter_passes_ruff(chapter: Path) -> None:
    """No unused import, unsorted import block or other ruff finding in the chapter's code cells (docstring rules
    and imports below the first cell aside, which a notebook's cells do not follow)."""
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent))
    assert ruff is not None, "ruff is installed with the dev extra"
    code = jupytext.writes(jupytext.read(chapter), fmt="py:percent")
    result = subprocess.run(
        [ruff, "check", "--config", str(ROOT / "pyproject.toml"), "--extend-ignore", "D,E402",
         "--stdin-filename", f"{chapter.stem}.py", "-"],
        input=code, capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, result.stdout
