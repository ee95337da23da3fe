"""Sphinx extension for the goodput book: a book that reads offline and says what it was built from.

Loaded by Jupyter Book through ``sphinx.local_extensions`` in ``_config.yml``. It

- copies MathJax 3 from the pinned PyPI package ``django-static-mathjax`` into the
  site's ``_static/mathjax/`` (``mathjax_path`` in ``_config.yml`` points there), so
  that math renders with no network and from ``file://``;
- drops sphinx-thebe's assets and configuration from every page: Jupyter Book 1.x
  always loads sphinx-thebe, which names a CDN URL, and this book has no live kernels;
- sets the Sphinx version from :data:`goodput.__version__` and writes the version, the
  inputs file (with its hash) and the commit into the footer of every page;
- in the one-page (``singlehtml``) build that ``make pdf`` prints, makes links between chapters
  links within the page, and writes the page as ``index.html``, where its links to ``_static/``
  and ``_images/`` resolve;
- registers the citation styles: author-year in round brackets in the text, and a
  bibliography sorted by author whose anchors are the BibTeX keys (``#cite-young1974``);
- writes the calculator's formulas, generated from the package's SymPy expressions by
  :mod:`goodput.book.calculator`, into ``_static/goodput-formulas.js``, and loads them with the
  Lambert-W solver and the calculator's script on the calculator page only.
"""

from __future__ import annotations

import html
import importlib.metadata
import shutil
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.util import logging

logger = logging.getLogger(__name__)

#: The MathJax package on PyPI and the version range the book is tested with.
MATHJAX_DIST = "django-static-mathjax"
#: What of MathJax's ``es5/`` tree the site needs: the combined TeX+MathML/CHTML component,
#: and everything it may load later (TeX extensions on demand, CHTML fonts, the menu's
#: accessibility and speech components), plus the licence.
MATHJAX_PARTS = ("tex-mml-chtml.js", "input", "output/chtml", "output/chtml.js", "ui", "a11y", "sre", "adaptors")
HERE = Path(__file__).resolve().parent


def _mathjax_source() -> Path:
    try:
        version = importlib.metadata.version(MATHJAX_DIST)
        root = Path(str(files("mathjax"))) / "static" / "mathjax"
    except (importlib.metadata.PackageNotFoundError, ModuleNotFoundError) as exc:
        raise ExtensionError(
            f"{MATHJAX_DIST} is not installed; the book serves MathJax from it. "
            "Install the book's dependencies: pip install -c constraints.txt -e '.[book]'"
        ) from exc
    if not version.startswith("3.") or not (root / "es5" / "tex-mml-chtml.js").is_file():
        raise ExtensionError(f"{MATHJAX_DIST} {version} does not provide MathJax 3 (es5/tex-mml-chtml.js)")
    return root


def copy_mathjax(app: Sphinx) -> None:
    """Copy the MathJax files the site uses into ``<outdir>/_static/mathjax`` before pages are written."""
    if app.builder.format != "html":
        return
    source = _mathjax_source()
    target = Path(app.outdir) / "_static" / "mathjax"
    for part in MATHJAX_PARTS:
        src, dst = source / "es5" / part, target / part
        if src.is_dir():
            shutil.copytree(src, dst, dirs_exist_ok=True)
        elif src.is_file():
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)
    shutil.copy2(source / "LICENSE", target / "LICENSE")
    expected = Path(app.outdir) / "_static" / app.config.mathjax_path
    if not expected.is_file():
        raise ExtensionError(f"mathjax_path {app.config.mathjax_path!r} is not among the copied MathJax files")


def set_version(app: Sphinx, config: Any) -> None:
    """Take the version from the package and keep the theme from guessing a colour mode."""
    import goodput

    config.version = config.release = goodput.__version__
    config.html_context.setdefault("default_mode", "light")
    config.html_static_path.append(str(HERE / "static"))


def drop_thebe_config(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Remove the ``text/x-thebe-config`` and kernel-name scripts sphinx-thebe appends to each page."""
    for node in list(doctree.findall(nodes.raw)):
        text = node.astext()
        if "x-thebe-config" in text or "kernelName" in text:
            node.parent.remove(node)


def describe_figures(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Give each figure's image its caption as alt text (myst-nb leaves the file name there)."""
    for figure in doctree.findall(nodes.figure):
        captions = [c for c in figure.children if isinstance(c, nodes.caption)]
        if not captions:
            continue
        for image in figure.findall(nodes.image):
            alt = str(image.get("alt", ""))
            if not alt or alt == image.get("uri") or alt.endswith((".png", ".svg", ".jpg")):
                image["alt"] = captions[0].astext()


def page_context(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any) -> None:
    """Drop sphinx-thebe's scripts and stylesheet, and write what the book was built from into the footer."""
    for key in ("script_files", "css_files"):
        if key in context:
            context[key] = [
                asset for asset in context[key]
                if "thebe" not in str(getattr(asset, "filename", "") or "")
                and "THEBE" not in str(getattr(asset, "attributes", {}).get("body", ""))
            ]
    from goodput.book.paths import book_provenance

    cite = context["pathto"]("book/cite") if "book/cite" in app.env.found_docs and pagename != "book/cite" else None
    footer = html.escape(book_provenance(app.srcdir).summary())
    if cite:
        footer += f' · <a href="{cite}">How to cite this book</a>'
    context["theme_extra_footer"] = f'<p class="goodput-provenance">{footer}</p>'


#: The calculator page and its scripts, in load order (the formulas are generated; the others are in static/).
CALCULATOR_PAGE = "book/calculator"
CALCULATOR_SCRIPTS = ("goodput-lambertw.js", "goodput-formulas.js", "goodput-calculator.js")


def write_calculator_formulas(app: Sphinx) -> None:
    """Generate the calculator's JavaScript formulas into ``<outdir>/_static`` (see goodput.book.calculator).

    Importing SymPy and printing the formulas takes about half a second of CPU; it runs in a thread
    beside the reading of the chapters (which mostly waits for their kernels), and
    :func:`finish_calculator_formulas` waits for it before the build ends.
    """
    if app.builder.format != "html":
        return
    import threading
    import time

    def generate() -> None:
        try:
            from goodput.book.calculator import write_formulas

            wall, cpu = time.perf_counter(), time.thread_time()
            written = write_formulas(Path(app.outdir) / "_static")
            logger.info("goodput: calculator formulas generated into %s in %.2f s (%.2f s of CPU)", written.name,
                        time.perf_counter() - wall, time.thread_time() - cpu)
        except BaseException as exc:  # noqa: BLE001 - handed to the main thread, which raises it
            app.goodput_formulas_error = exc  # type: ignore[attr-defined]

    thread = threading.Thread(target=generate, name="goodput-calculator-formulas", daemon=True)
    app.goodput_formulas_thread = thread  # type: ignore[attr-defined]
    thread.start()


def finish_calculator_formulas(app: Sphinx, exception: Exception | None) -> None:
    """Wait for the calculator's formulas, and fail the build if they could not be generated."""
    thread = getattr(app, "goodput_formulas_thread", None)
    if thread is None:
        return
    thread.join()
    error = getattr(app, "goodput_formulas_error", None)
    if error is not None and exception is None:
        raise ExtensionError(f"the calculator's formulas could not be generated: {error}") from error


def calculator_scripts(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any) -> None:
    """Load the calculator's scripts on its page, and on no other."""
    if pagename == CALCULATOR_PAGE:
        for priority, script in enumerate(CALCULATOR_SCRIPTS, start=600):
            app.add_js_file(script, priority=priority)

def single_page_links(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any) -> None:
    """In the one-page build, make links to the page itself ``#anchor`` links.

    Sphinx's ``singlehtml`` builder writes a link to a label in another chapter as
    ``<root_doc>.html#label``; with the root document in a folder (``book/answer``) that is a path
    relative to the page's own folder, and leads nowhere. On the one page every anchor is local.
    """
    if app.builder.name != "singlehtml" or "body" not in context:
        return
    own = f'href="{app.config.root_doc}{app.builder.out_suffix}#'
    context["body"] = context["body"].replace(own, 'href="#')


def place_single_page(app: Sphinx) -> None:
    """Move the one-page book to ``index.html`` at the top of the output, where its links work.

    Sphinx's ``singlehtml`` builder writes the whole book to ``<root_doc>.html``
    (``book/answer.html``) but writes its links to ``_static/`` and ``_images/`` as if the page were
    at the top of the output folder; there, as ``index.html``, they all resolve.
    """
    outdir = Path(app.outdir)
    page = outdir / f"{app.config.root_doc}{app.builder.out_suffix}"
    if page.is_file():
        page.replace(outdir / "index.html")
        for folder in page.parents:
            if folder == outdir or any(folder.iterdir()):
                break
            folder.rmdir()


def write_index(app: Sphinx, exception: Exception | None) -> None:
    """Write the site's index.html: a redirect to the first page, with a title and an empty favicon.

    sphinx-external-toc would write a bare ``<meta http-equiv="Refresh">``; a browser on it asks
    the server for /favicon.ico, which the site does not have. Runs before sphinx-external-toc's
    handler, which then leaves an existing index.html alone.
    """
    if exception is not None or app.builder.format != "html" or app.config.root_doc == "index":
        return
    if app.builder.name == "singlehtml":
        place_single_page(app)
        return
    target = f"{app.config.root_doc}.html"
    title = html.escape(str(app.config.html_title or app.config.project))
    # An empty inline icon: the page is left at once, and a real icon's load would be aborted.
    icon = '<link rel="icon" href="data:,">'
    (Path(app.outdir) / "index.html").write_text(
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{title}</title>{icon}'
        f'<meta http-equiv="Refresh" content="0; url={target}"></head>\n'
        f'<body><p><a href="{target}">{title}</a></p></body></html>\n',
        encoding="utf-8",
    )


def _register_citation_styles() -> None:
    import pybtex.plugin
    import sphinxcontrib.bibtex.plugin
    from pybtex.style.formatting.plain import Style as PlainStyle
    from pybtex.style.labels import BaseLabelStyle
    from pybtex.style.sorting.author_year_title import SortingStyle
    from sphinxcontrib.bibtex.style.referencing import BracketStyle
    from sphinxcontrib.bibtex.style.referencing.author_year import AuthorYearReferenceStyle

    class AuthorYearLabels(BaseLabelStyle):  # type: ignore[misc]
        """Labels such as "Young 1974" (hidden on the page: the list is sorted by author)."""

        def format_labels(self, sorted_entries: Any) -> Any:
            for entry in sorted_entries:
                people = entry.persons.get("author", [])
                if people:
                    name = " ".join(people[0].last_names) or " ".join(people[0].first_names)
                else:
                    name = entry.fields.get("title", entry.key)
                yield f"{name.strip('{}')} {entry.fields.get('year', 'n.d.')}"

    class ByAuthor(SortingStyle):  # type: ignore[misc]
        """Author, year, title; a braced corporate author ({Llama Team}) sorts by its first letter."""

        def person_key(self, person: Any) -> str:
            return str(super().person_key(person)).replace("{", "").replace("}", "")

    class AuthorYearStyle(PlainStyle):  # type: ignore[misc]
        """pybtex's plain style, sorted by author then year, with author-year labels."""

        default_label_style = AuthorYearLabels
        default_sorting_style = ByAuthor

    def round_brackets() -> BracketStyle:
        return BracketStyle(left="(", right=")")

    @dataclass
    class RoundAuthorYear(AuthorYearReferenceStyle):  # type: ignore[misc]
        """Author-year references in round brackets: (Young, 1974)."""

        bracket_parenthetical: BracketStyle = field(default_factory=round_brackets)
        bracket_textual: BracketStyle = field(default_factory=round_brackets)
        bracket_author: BracketStyle = field(default_factory=round_brackets)
        bracket_label: BracketStyle = field(default_factory=round_brackets)
        bracket_year: BracketStyle = field(default_factory=round_brackets)

    pybtex.plugin.register_plugin("pybtex.style.formatting", "goodput_author_year", AuthorYearStyle)
    sphinxcontrib.bibtex.plugin.register_plugin(
        "sphinxcontrib.bibtex.style.referencing", "goodput_author_year_round", RoundAuthorYear
    )


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the handlers, the stylesheet and the citation styles."""
    _register_citation_styles()
    app.connect("config-inited", set_version)
    app.connect("builder-inited", copy_mathjax)
    app.connect("builder-inited", write_calculator_formulas)
    app.connect("doctree-resolved", drop_thebe_config, priority=900)
    app.connect("doctree-resolved", describe_figures, priority=900)
    app.connect("html-page-context", page_context, priority=900)
    app.connect("html-page-context", calculator_scripts)
    app.connect("build-finished", finish_calculator_formulas, priority=50)
    app.connect("html-page-context", single_page_links, priority=900)
    app.connect("build-finished", write_index, priority=100)
    app.add_css_file("goodput-book.css")
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
