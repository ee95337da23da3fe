"""What a result was computed from: the package version, the inputs file with its hash, and the commit.

Every output meant to be quoted (the book, ``goodput plan --format markdown`` and ``json``) carries it, so that a number
can be traced to what produced it. The commit is that of a folder the caller names (the book's root), never found from
the package's own location, and ``None`` where there is none.
"""

from __future__ import annotations

import functools
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from goodput._version import __version__
from goodput.params import Params


@dataclass(frozen=True)
class Provenance:
    """The version and inputs a result was computed from.

    `params_name` has no folder (a local path means nothing to a reader), or is ``"worked example"``; `params_sha256` is
    the hex SHA-256 of the file's bytes.
    """

    version: str
    params_name: str
    params_sha256: str | None
    commit: str | None

    def summary(self) -> str:
        """One line for a footer: ``goodput 0.2.0 · inputs params.yml (sha256 1a2b3c4d5e6f) · commit 0ee9960ad7d2``."""
        inputs = f"inputs {self.params_name}"
        if self.params_sha256:
            inputs += f" (sha256 {self.params_sha256[:12]})"
        parts = [f"goodput {self.version}", inputs]
        if self.commit:
            parts.append(f"commit {self.commit}")
        return " · ".join(parts)

    def to_dict(self) -> dict[str, str | None]:
        """The fields as a JSON-ready mapping."""
        return {"version": self.version, "inputs": self.params_name, "inputs_sha256": self.params_sha256,
                "commit": self.commit}


def commit_of(folder: str | os.PathLike[str] | None) -> str | None:
    """``git describe --always --dirty --abbrev=12`` in `folder`; else ``$GITHUB_SHA``'s first 12 digits; else None."""
    if folder is not None and Path(folder).is_dir():
        try:
            described = subprocess.run(
                ["git", "-C", str(folder), "describe", "--always", "--dirty", "--abbrev=12"],
                capture_output=True, text=True, check=True, timeout=10,
            ).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            described = ""
        if described:
            return described
    sha = os.environ.get("GITHUB_SHA")
    return sha[:12] if sha else None


def provenance(params: Params, commit: str | None = None) -> Provenance:
    """The provenance of a result computed from `params`."""
    name = params.path.name if params.path is not None and params.source != "worked example" else params.source
    return Provenance(version=__version__, params_name=name, params_sha256=params.sha256, commit=commit)


@functools.cache
def package_commit() -> str | None:
    """The commit of the package's own sources when Git tracks them; None for a wheel, even one inside a clone."""
    folder = Path(__file__).resolve().parent
    try:
        subprocess.run(["git", "-C", str(folder), "ls-files", "--error-unmatch", "__init__.py"],
                       capture_output=True, check=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return commit_of(folder)
