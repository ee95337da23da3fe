"""Execute every chapter of the book from scratch, in parallel, while Sphinx reads the book.

Loaded by Jupyter Book through ``sphinx.local_extensions`` in ``_config.yml``, which also sets
``execute_notebooks: cache``. Sphinx reads documents one after the other, and MyST-NB executes a
notebook when Sphinx reads it, so a book of a dozen executed chapters spends most of its build
waiting on one kernel at a time. This extension

- at ``builder-inited``, empties MyST-NB's jupyter-cache folder (``_build/.jupyter_cache``), so that
  nothing executed by an earlier build, from older package code or an older inputs file, can be
  served: every entry the build reads is written by this build, from the sources as they are now;
- at ``env-before-read-docs``, reads each notebook Sphinx is about to read with MyST-NB's own
  reader and configuration and starts executing them all, each in a fresh kernel, one more at a
  time than the machine has cores (``GOODPUT_BUILD_JOBS`` overrides), as MyST-NB would (same
  working folder, timeout and error settings; each kernel inherits the build's environment,
  ``GOODPUT_PARAMS`` included), in the order Sphinx will read them; with ``GOODPUT_FIGURES=svg``
  (``make pdf``) each kernel first runs _ext/svg_figures.py, so that figures display as SVG;
- at ``source-read``, just before Sphinx parses a chapter, waits for that chapter's execution and
  stores the executed notebook in the cache, where MyST-NB finds it by the hash of its code and
  merges its outputs in. So Sphinx reads one chapter while the next ones execute. A chapter that
  failed stops the build with its traceback (with ``nb_execution_raise_on_error``, as MyST-NB's
  own execution would); without that setting it is left to MyST-NB, which runs it again and
  reports it as usual;
- at ``env-updated``, warns (an error under ``-W``) if MyST-NB executed any notebook itself: the
  parallel run would have missed it and the build would have fallen back to serial execution;
- at ``build-finished``, stops what is still running and deletes the cache folder.

With ``execute_notebooks`` set to anything but ``cache`` the extension does nothing.

It leans on private APIs of MyST-NB (its notebook reader and configuration) and of jupyter-cache
(its one-notebook execution and cache bundles), which may change in any minor release: at
``builder-inited`` it checks the installed versions (:func:`check_versions`) and stops the build with
one line if they are not of the series it was written for (:data:`WRITTEN_FOR`, which
constraints.txt pins).
"""

from __future__ import annotations

import importlib.metadata
import os
import re
import shutil
import time
import traceback
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.errors import ExtensionError
from sphinx.util import logging

logger = logging.getLogger(__name__)

#: Environment variable: ``svg`` makes every kernel display matplotlib figures as SVG only (the
#: print edition, ``make pdf``); unset or ``png``, figures display as they choose (PNG).
FIGURES_ENV = "GOODPUT_FIGURES"
#: The kernel start-up file that registers the SVG display of figures.
SVG_STARTUP = Path(__file__).resolve().parent / "svg_figures.py"

#: Environment variable: how many chapters to execute at a time (default: one more than the usable
#: cores, so that a core is not idle while a kernel starts or stops).
JOBS_ENV = "GOODPUT_BUILD_JOBS"


#: The distributions whose private APIs this extension uses, and the release series (major.minor) it
#: was written and tested against; constraints.txt pins a release of each.
WRITTEN_FOR = {"myst-nb": "1.4", "jupyter-cache": "1.0"}


def check_versions(installed: Callable[[str], str] = importlib.metadata.version) -> None:
    """Stop the build with one line unless MyST-NB and jupyter-cache are of the series in :data:`WRITTEN_FOR`.

    It raises SystemExit, not a Sphinx error, which Jupyter Book would print with its traceback: at
    ``builder-inited`` nothing has been read or written yet, and the one line says all there is.
    """
    found = {}
    for distribution in WRITTEN_FOR:
        try:
            found[distribution] = installed(distribution)
        except importlib.metadata.PackageNotFoundError:
            found[distribution] = "(not installed)"
    wrong = [f"{name} {version}" for name, version in found.items()
             if version.split(".")[:2] != WRITTEN_FOR[name].split(".")]
    if wrong:
        written = " and ".join(f"{name} {series}.x" for name, series in WRITTEN_FOR.items())
        raise SystemExit(
            f"_ext/goodput_execute.py uses private APIs of {written}, but found {', '.join(wrong)}: install the "
            "pinned versions (pip install -c constraints.txt -e '.[book]') or update the extension"
        )


def check_before_executing(app: Sphinx) -> None:
    """At ``builder-inited``: when this extension will execute the book, check the versions it relies on."""
    if _cache_path(app) is not None:
        check_versions()


@dataclass
class Chapter:
    """One chapter's execution: the notebook as MyST-NB reads it, then as executed, and how it went."""

    docname: str
    path: Path
    notebook: Any
    seconds: float = 0.0
    error: str | None = None


@dataclass
class Run:
    """The parallel execution of one build: the pool, each chapter's future, and what was collected."""

    pool: ThreadPoolExecutor
    jobs: int
    started: float
    futures: dict[str, Future[Chapter]] = field(default_factory=dict)
    executed: dict[str, float] = field(default_factory=dict)


def jobs() -> int:
    """How many chapters to execute at a time: $GOODPUT_BUILD_JOBS, else one more than the usable cores."""
    wanted = os.environ.get(JOBS_ENV, "").strip()
    if wanted:
        try:
            value = int(wanted)
        except ValueError:
            raise ExtensionError(f"{JOBS_ENV}={wanted!r}: expected a whole number of parallel jobs, such as 2") from None
        if value < 1:
            raise ExtensionError(f"{JOBS_ENV}={wanted!r}: expected at least 1")
        return value
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, cores) + 1


def kernel_arguments() -> list[str]:
    """Extra command-line arguments for every kernel: the SVG start-up file when $GOODPUT_FIGURES is svg."""
    wanted = os.environ.get(FIGURES_ENV, "").strip().lower()
    if wanted in ("", "png"):
        return []
    if wanted == "svg":
        return [f"--IPKernelApp.exec_files={SVG_STARTUP}", "--InlineBackend.figure_formats=svg"]
    raise ExtensionError(f"{FIGURES_ENV}={wanted!r}: expected svg or png")


def _cache_path(app: Sphinx) -> Path | None:
    config = getattr(app.env, "mystnb_config", None)
    if config is None or config.execution_mode != "cache" or not config.execution_cache_path:
        return None
    return Path(config.execution_cache_path)


def empty_cache(app: Sphinx) -> None:
    """Delete MyST-NB's jupyter-cache folder, so that only this build's executions can be in it."""
    path = _cache_path(app)
    if path is not None:
        shutil.rmtree(path, ignore_errors=True)
        if path.exists():
            raise ExtensionError(f"could not empty the jupyter-cache folder {path}")


def _to_execute(env: BuildEnvironment, docnames: list[str]) -> list[Chapter]:
    """The notebooks among ``docnames`` that MyST-NB would execute, read as MyST-NB reads them."""
    from myst_nb.core.nb_to_tokens import nb_node_to_dict
    from myst_nb.core.read import create_nb_reader

    nb_config = env.mystnb_config  # type: ignore[attr-defined]
    chapters = []
    for docname in docnames:
        path = Path(env.doc2path(docname))
        text = path.read_text(encoding="utf-8")
        reader = create_nb_reader(str(path), env.myst_config, nb_config, text)  # type: ignore[attr-defined]
        if reader is None:
            continue
        notebook = reader.read(text)
        config = nb_config
        if config.metadata_key in notebook.metadata:
            overrides = nb_node_to_dict(notebook.metadata[config.metadata_key])
            overrides.pop("output_folder", None)
            config = config.copy(**overrides)
        kernel = notebook.metadata.get("kernelspec", {}).get("name")
        if kernel is not None:
            for pattern, alias in config.kernel_rgx_aliases.items():
                if re.fullmatch(pattern, kernel):
                    notebook.metadata["kernelspec"]["name"] = alias
                    break
        if config.execution_mode != "cache" or config.execution_in_temp:
            continue
        if any(PurePosixPath(path.as_posix()).match(p) for p in config.execution_excludepatterns):
            continue
        if not any(cell.cell_type == "code" for cell in notebook.cells):
            continue
        chapters.append(Chapter(docname, path, notebook))
    return chapters


def _execute(chapter: Chapter, timeout: int | None, allow_errors: bool, arguments: list[str]) -> Chapter:
    """Execute one notebook in a fresh kernel, in its own folder, as MyST-NB's cache client would."""
    from jupyter_cache.executors.utils import single_nb_execution

    start = time.perf_counter()
    try:
        result = single_nb_execution(
            chapter.notebook, cwd=str(chapter.path.parent), timeout=timeout,
            allow_errors=allow_errors, meta_override=True,
            # Every output has arrived once the last cell has replied: stop the kernel at once
            # rather than wait for it to exit, so that the next chapter starts sooner.
            shutdown_kernel="immediate",
            extra_arguments=arguments,
        )
    except Exception:  # noqa: BLE001 - a kernel that died or would not start: reported as the chapter's failure
        chapter.error = traceback.format_exc()
    else:
        chapter.notebook = result.nb
        if result.err is not None:
            chapter.error = result.exc_string or repr(result.err)
    chapter.seconds = time.perf_counter() - start
    return chapter


def start_execution(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    """Start executing the notebooks Sphinx is about to read, ``jobs()`` at a time, in its reading order."""
    if _cache_path(app) is None:
        return
    chapters = _to_execute(env, list(docnames))
    if not chapters:
        return
    nb_config = env.mystnb_config  # type: ignore[attr-defined]
    workers = min(jobs(), len(chapters))
    arguments = kernel_arguments()
    run = Run(ThreadPoolExecutor(max_workers=workers, thread_name_prefix="goodput-execute"), workers, time.perf_counter())
    app.goodput_run = run  # type: ignore[attr-defined]
    logger.info(f"[goodput] executing {len(chapters)} notebooks, {workers} at a time"
                + (" (figures as SVG)" if arguments else ""))
    for chapter in chapters:
        run.futures[chapter.docname] = run.pool.submit(
            _execute, chapter, nb_config.execution_timeout, nb_config.execution_allow_errors, arguments
        )
    if app.parallel > 1:  # Sphinx reads in forked processes: collect everything now, in this one
        for docname in list(run.futures):
            collect(app, docname, [])


def _stop(app: Sphinx) -> None:
    run: Run | None = getattr(app, "goodput_run", None)
    if run is not None:
        run.pool.shutdown(wait=True, cancel_futures=True)


def collect(app: Sphinx, docname: str, source: list[str]) -> None:
    """Before Sphinx parses ``docname``: wait for its execution and put the executed notebook in the cache."""
    run: Run | None = getattr(app, "goodput_run", None)
    if run is None or docname not in run.futures:
        return
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn

    chapter = run.futures.pop(docname).result()
    nb_config = app.env.mystnb_config  # type: ignore[attr-defined]
    if chapter.error is not None:
        if not nb_config.execution_raise_on_error:
            return  # MyST-NB executes it again, and reports and renders the error its own way
        _stop(app)
        detail = f"\n{chapter.error}" if nb_config.execution_show_tb else ""
        raise ExtensionError(f"Executing notebook failed: {chapter.path}{detail}")
    path = _cache_path(app)
    assert path is not None
    get_cache(str(path)).cache_notebook_bundle(
        CacheBundleIn(chapter.notebook, str(chapter.path), data={"execution_seconds": chapter.seconds}),
        check_validity=False, overwrite=True,
    )
    run.executed[docname] = chapter.seconds
    logger.info(f"[goodput] {chapter.path}: executed in {chapter.seconds:.2f} seconds")


def finish_execution(app: Sphinx, env: BuildEnvironment) -> None:
    """After reading: report the parallel run, and warn if MyST-NB had to execute a notebook itself."""
    run: Run | None = getattr(app, "goodput_run", None)
    path = _cache_path(app)
    if run is None or path is None:
        return
    _stop(app)
    if run.futures:
        logger.warning(f"[goodput] executed but never read: {', '.join(sorted(run.futures))}",
                       type="goodput", subtype="execute")
    logger.info(
        f"[goodput] executed {len(run.executed)} notebooks and read the book in "
        f"{time.perf_counter() - run.started:.1f} s ({sum(run.executed.values()):.1f} s of execution, "
        f"{run.jobs} at a time)"
    )
    from jupyter_cache import get_cache

    missed = sorted(record.uri for record in get_cache(str(path)).list_project_records())
    if missed:
        logger.warning(
            "[goodput] MyST-NB executed these notebooks again, one at a time, because their parallel "
            "execution did not match what it read: " + ", ".join(missed),
            type="goodput", subtype="execute",
        )


def drop_cache(app: Sphinx, exception: Exception | None) -> None:
    """Stop what still runs and delete the cache folder at the end of the build: no later build may read it."""
    _stop(app)
    path = _cache_path(app)
    if path is not None:
        shutil.rmtree(path, ignore_errors=True)


def setup(app: Sphinx) -> dict[str, Any]:
    """Hook the parallel execution into the build (after MyST-NB has set up its configuration)."""
    app.connect("builder-inited", check_before_executing, priority=899)
    app.connect("builder-inited", empty_cache, priority=900)
    app.connect("env-before-read-docs", start_execution, priority=900)
    app.connect("source-read", collect, priority=100)
    app.connect("env-updated", finish_execution)
    app.connect("build-finished", drop_cache)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
