"""What a built book was made from: the package version, the inputs file and the commit.

The book prints this in the footer of every page and on its "How to cite" page,
so that a number quoted from it can be traced to the version and the inputs that
produced it. :data:`goodput.__version__` is the one place the version is written.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

import goodput
from goodput.params import PARAMS_ENV, book_params_path

#: The repository root (the folder holding ``_config.yml`` and ``book/``).
ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Provenance:
    """The version and inputs a book was built from.

    Attributes
    ----------
    version : str
        :data:`goodput.__version__`.
    params_label : str
        The inputs file, relative to the repository when it lies inside it
        (``book/params.yml``), else its name followed by ``(GOODPUT_PARAMS)``.
    params_sha256 : str
        SHA-256 of the inputs file's bytes, in hex.
    commit : str or None
        The Git commit of the sources, as ``git describe --always --dirty`` gives it
        (12 hex digits, ``-dirty`` when tracked files have uncommitted changes), when
        it can be found; else the first 12 digits of ``$GITHUB_SHA``, else ``None``.
    """

    version: str
    params_label: str
    params_sha256: str
    commit: str | None

    def summary(self) -> str:
        """One line for a footer: version, inputs file with a short hash, and commit if known.

        Returns
        -------
        str
            For example ``goodput 0.1.0 · inputs book/params.yml (sha256 1a2b3c4d5e6f) · commit 0ee9960ad7d2``.
        """
        parts = [f"goodput {self.version}", f"inputs {self.params_label} (sha256 {self.params_sha256[:12]})"]
        if self.commit:
            parts.append(f"commit {self.commit}")
        return " · ".join(parts)


def _label(path: Path) -> str:
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return f"{path.name} ({PARAMS_ENV})"


def _commit() -> str | None:
    if (ROOT / ".git").exists():
        try:
            described = subprocess.run(
                ["git", "-C", str(ROOT), "describe", "--always", "--dirty", "--abbrev=12"],
                capture_output=True, text=True, check=True, timeout=10,
            ).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            described = ""
        if described:
            return described
    sha = os.environ.get("GITHUB_SHA")
    return sha[:12] if sha else None


def book_provenance(params_path: str | os.PathLike[str] | None = None) -> Provenance:
    """The provenance of a book built from ``params_path`` (default: the book's inputs file).

    Parameters
    ----------
    params_path : str or path-like, optional
        The inputs file; ``None`` means :func:`goodput.params.book_params_path`.

    Returns
    -------
    Provenance
        Version, inputs file label and hash, and commit.
    """
    path = book_params_path() if params_path is None else Path(params_path)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    return Provenance(version=goodput.__version__, params_label=_label(path), params_sha256=digest, commit=_commit())
