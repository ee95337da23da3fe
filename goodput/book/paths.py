"""Where the book is and which inputs file it is built from.

The book is built from its root folder (the one holding ``_config.yml`` and ``_toc.yml``); chapters run with their own
folder as the working directory. The inputs file is ``$GOODPUT_PARAMS`` when set, else ``book/params.yml``. Nothing here
depends on where the package is installed.
"""

from __future__ import annotations

import os
from pathlib import Path

from goodput.errors import InputError
from goodput.params import Params, load_params
from goodput.provenance import Provenance, commit_of, provenance

#: Environment variable naming the parameters file the book is built from.
PARAMS_ENV = "GOODPUT_PARAMS"


def book_root(start: str | os.PathLike[str] | None = None) -> Path:
    """The nearest folder at or above `start` (default: cwd) with ``_config.yml`` and ``_toc.yml``; else InputError."""
    here = Path.cwd() if start is None else Path(start)
    for folder in (here.resolve(), *here.resolve().parents):
        if (folder / "_config.yml").is_file() and (folder / "_toc.yml").is_file():
            return folder
    raise InputError("book", str(here), "a folder inside the book (one holding _config.yml and _toc.yml above it)")


def book_params_path(start: str | os.PathLike[str] | None = None) -> Path:
    """The parameters file the book is built from: ``$GOODPUT_PARAMS`` when set, else ``book/params.yml``."""
    env = os.environ.get(PARAMS_ENV)
    if env:
        return Path(env).resolve()
    return book_root(start) / "book" / "params.yml"


def book_params(start: str | os.PathLike[str] | None = None) -> Params:
    """Read the parameters the book is built from (see :func:`book_params_path`)."""
    return load_params(book_params_path(start))


def book_provenance(start: str | os.PathLike[str] | None = None) -> Provenance:
    """The version, inputs file (with its hash) and commit the book is built from; the commit is the book root's."""
    try:
        root: Path | None = book_root(start)
    except InputError:
        root = None
    return provenance(book_params(start), commit=commit_of(root))


# ------------------------------------------------------------------ the data the book ships (inputs and logs chapters)
#: Published interruption records (read by :func:`goodput.fleets.read_published_fleets`), relative to the book's root.
PUBLISHED_FLEETS = "book/data/fleets/published-fleets.csv"
#: The bundled sample logs of a simulated job, and its truth.
SAMPLE_STEPS = "book/data/sample-steps.csv"
SAMPLE_EVENTS = "book/data/sample-events.csv"
SAMPLE_TRUTH = "book/data/truth.yml"
#: A hand-written sample of Slurm accounting.
SAMPLE_SACCT = "book/data/sample-sacct.txt"
#: GLM-130B's stops as an event log, and one row per stop with its kind.
GLM_EVENTS = "book/data/fleets/glm130b-events.csv"
GLM_STOPS = "book/data/fleets/glm130b-interruptions.csv"


def book_data(name: str, start: str | os.PathLike[str] | None = None) -> Path:
    """A data file the book ships, by its name relative to the book's root (one of the constants above)."""
    return (book_root(start) / name).resolve()
