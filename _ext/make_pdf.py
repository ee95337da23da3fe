"""Print the book to one PDF: ``make pdf`` writes _build/pdf/goodput.pdf.

Run by ``make pdf`` as ``.venv/bin/python _ext/make_pdf.py``; ``GOODPUT_PARAMS=my.yml make pdf``
prints the book of that inputs file. It

1. builds the whole book as one HTML page, from clean and as strictly as ``make book``
   (``jupyter-book build --builder singlehtml -W -n --keep-going``, every chapter executed), with
   ``GOODPUT_FIGURES=svg`` so that every figure is a vector (see _ext/svg_figures.py); on one page,
   every cross-reference, citation and contents entry is a link within the page;
2. opens that page in Debian's Chromium (driven by Playwright, which downloads no browser), waits
   until MathJax (served from the site) has typeset every formula, and checks none is left as TeX;
3. adds a title page (the book's title, the ``goodput`` version, the inputs file and its SHA-256,
   the commit) and a contents page, starts each chapter on a new page, hides the HTML theme's
   navigation, sidebars and buttons, and prints to A4 with the page number in every footer,
   a PDF outline (bookmarks) of the chapters and sections, and links that stay within the PDF.
   It prints twice: the first print tells on which page each chapter starts, for the contents;
   every heading is given the level of its place in its chapter (on one page Sphinx makes the other
   chapters sections of the first), so that each chapter is a top-level bookmark, which is checked;
   Chromium's bookmark titles are mended (pypdf) to read as the headings they stand for;
4. reads the PDF back with pypdf: checks that the contents list the page each chapter starts on and
   that no page ends with a heading, nor with a table's head whose rows start on the next page (a page
   more than half blank that is not a chapter's last is reported as a warning), and only then writes the PDF to
   ``--output``: to a temporary file in its folder, renamed into place, so that a failed run leaves
   no PDF and a previous PDF stays whole. An ``--output`` that is not a regular file (``/dev/full``, a
   folder) is refused before anything is built, and never touched.

The print edition's CSS, its JavaScript and the footer are files of _ext/static/ (goodput-print*).
Without a Chromium it fails at once with one line saying how to install one; every failure is one
line on stderr and exit status 1.
"""

from __future__ import annotations

import argparse
import datetime as dt
import html
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_BUILD = ROOT / "_build" / "pdf"
PDF_NAME = "goodput.pdf"

#: Flags that keep Chromium from calling home; Playwright adds a fresh temporary --user-data-dir.
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
#: Where a Chromium is looked for, after $GOODPUT_CHROMIUM.
CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
INSTALL_HINT = (
    "make pdf needs Chromium to print the book: install Debian's with `apt-get install chromium` (as root), "
    "or set GOODPUT_CHROMIUM=/path/to/chromium"
)

#: The print edition's CSS and JavaScript, and the footer's HTML template: files of _ext/static/
#: (goodput-print*), read by :func:`static`. Sphinx copies them into the site's _static/ with the rest.
STATIC = Path(__file__).resolve().parent / "static"


def static(name: str) -> str:
    """The text of ``_ext/static/<name>``."""
    return (STATIC / name).read_text(encoding="utf-8")


def find_chromium() -> str | None:
    """The Chromium to print with: $GOODPUT_CHROMIUM if set, else the first of CHROMIUM_CANDIDATES found."""
    wanted = os.environ.get("GOODPUT_CHROMIUM")
    for candidate in ([wanted] if wanted else list(CHROMIUM_CANDIDATES)):
        path = candidate if os.path.isabs(candidate) else shutil.which(candidate)
        if path and os.access(path, os.X_OK):
            return path
    return None


def provenance() -> Any:
    """What the book is built from (version, inputs file and its hash, commit): the book's inputs, from the package."""
    from goodput.book.paths import book_provenance

    return book_provenance(ROOT)


def book_settings() -> tuple[str, str, str]:
    """The book's title and author (_config.yml) and its root document (_toc.yml)."""
    import yaml

    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    return str(config.get("title", "goodput")), str(config.get("author", "")), str(toc["root"])


def title_page(title: str, author: str) -> str:
    """The title page's HTML: the title, and what this edition was built from."""
    made = provenance()
    rows = [
        ("Version", f"goodput {made.version}"),
        ("Inputs file", made.params_name),
        ("Inputs SHA-256", made.params_sha256 or "not recorded"),
        ("Commit", made.commit or "unknown (not built from a Git checkout)"),
        ("Printed", dt.date.today().isoformat()),
    ]
    table = "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>" for k, v in rows)
    return (
        f"<h1>{html.escape(title)}</h1>"
        f'<div class="subtitle">{html.escape(author)} · print edition</div>'
        f"<table>{table}</table>"
        '<p class="note">Every number, table and figure in this book was computed, when it was built, '
        "from the inputs file above by the <code>goodput</code> package at that version and commit. "
        "Rebuild it with your own inputs file: <code>GOODPUT_PARAMS=my-fleet.yml make pdf</code>.</p>"
    )


def build_single_page(out: Path) -> Path:
    """Build the book as one HTML page into ``out`` (strict, from clean, figures as SVG); return the page."""
    shutil.rmtree(out / "_build", ignore_errors=True)
    exe = Path(sys.executable).parent / "jupyter-book"
    env = dict(os.environ, GOODPUT_FIGURES="svg")
    result = subprocess.run(
        [str(exe), "build", str(ROOT), "--builder", "singlehtml", "--path-output", str(out), "-W", "-n", "--keep-going"],
        capture_output=True, text=True, check=False, env=env,
    )
    log = result.stdout + result.stderr
    (out / "build.log").write_text(log, encoding="utf-8")
    if result.returncode != 0 or "build succeeded" not in log:
        sys.stderr.write(log[-6000:])
        raise SystemExit(f"make pdf: the one-page build of the book failed (log: {out / 'build.log'})")
    page = out / "_build" / "singlehtml" / "index.html"  # see place_single_page in goodput_book.py
    if not page.is_file():
        raise SystemExit(f"make pdf: the one-page build wrote no {page}")
    return page


def read_pdf(pdf: bytes) -> Any:
    """``pdf`` opened with pypdf (a ``pypdf.PdfReader``)."""
    import io

    from pypdf import PdfReader

    return PdfReader(io.BytesIO(pdf))


def _destination_name(value: Any) -> str:
    """A named destination's name as pypdf's ``named_destinations`` keys it (a PDF name has no slash there)."""
    return str(value).removeprefix("/")


def internal_links(pdf: bytes) -> list[tuple[int, int]]:
    """Each link within ``pdf`` as (page it is on, page it lands on), pages counted from 1.

    Chromium writes a link to an anchor of the printed page as a ``/Link`` annotation with a named
    ``/Dest``; pypdf reads the annotations and resolves the names (and explicit or ``/GoTo`` destinations).
    """
    reader = read_pdf(pdf)
    number = {page.indirect_reference.idnum: i for i, page in enumerate(reader.pages, start=1)}
    named = {_destination_name(name): dest for name, dest in reader.named_destinations.items()}

    def landing(dest: Any) -> int | None:
        dest = dest.get_object()
        if isinstance(dest, str):  # a name (NameObject) or a string naming a destination
            found = named.get(_destination_name(dest))
            target = found.page if found is not None else None
        elif isinstance(dest, list) and dest:
            target = dest[0]
        else:
            return None
        if isinstance(target, int) and not hasattr(target, "idnum"):
            return target + 1 if 0 <= target < len(reader.pages) else None
        return number.get(getattr(target, "idnum", None)) if target is not None else None

    links = []
    for i, page in enumerate(reader.pages, start=1):
        for ref in page.get("/Annots") or []:
            annot = ref.get_object()
            if annot.get("/Subtype") != "/Link":
                continue
            dest = annot.get("/Dest")
            action = annot.get("/A")
            if dest is None and action is not None and action.get_object().get("/S") == "/GoTo":
                dest = action.get_object().get("/D")
            target = landing(dest) if dest is not None else None
            if target is not None:
                links.append((i, target))
    return links


def chapter_pages(pdf: bytes, chapters: int) -> list[int]:
    """The page each chapter starts on: where the links of the contents land.

    The contents is the first page with links, and the next one too when it runs over a page (only the
    first `chapters` links count, so a chapter's own links after a one-page contents are never read).
    """
    links = internal_links(pdf)
    if not links:
        return []
    contents = sorted({page for page, _ in links})[:2]
    return [target for page, target in links if page in contents][:chapters]


#: The printed page's text area, in points from the top of an A4 page: the page margins of goodput-print.css
#: (18 mm above, 20 mm below; the footer is printed in the bottom margin).
TEXT_TOP, TEXT_BOTTOM = 18 / 25.4 * 72, 842 - 20 / 25.4 * 72
#: Text this much larger than the body's (10 pt) is a heading's (chapter 20 pt, section 14 pt, subsection 11.5 pt).
HEADING_SIZE = 11.4


@dataclass(frozen=True)
class PrintedPage:
    """What a printed page holds, read from its text: each run's distance from the top (points), size and text."""

    number: int
    runs: tuple[tuple[float, float, str], ...]

    @property
    def filled(self) -> float:
        """How far down the text area the page's text reaches: 0 (no text) to 1 (its last line)."""
        lowest = max((top for top, _, _ in self.runs), default=TEXT_TOP)
        return max(0.0, min(1.0, (lowest - TEXT_TOP) / (TEXT_BOTTOM - TEXT_TOP)))

    def last_heading(self) -> tuple[str, int] | None:
        """The page's lowest heading and how many lines of text are under it, or None without a heading."""
        headings = [(top, text) for top, size, text in self.runs
                    if size >= HEADING_SIZE and sum(c.isalpha() for c in text) >= 3]  # not a large math glyph
        if not headings:
            return None
        top, text = max(headings)
        return text.strip(), len({round(t) for t, _, _ in self.runs if t > top + 4})


    def lines(self) -> list[str]:
        """The page's lines of text, top to bottom: the runs within 2 points of one height, left to right as read."""
        rows: list[tuple[float, list[str]]] = []
        for top, _, text in sorted(self.runs, key=lambda run: run[0]):
            if rows and top - rows[-1][0] <= 2:
                rows[-1][1].append(text.strip())
            else:
                rows.append((top, [text.strip()]))
        return [" ".join(t for t in texts if t) for _, texts in rows]


def head_left_behind(page: PrintedPage, following: PrintedPage, most: int = 3) -> str | None:
    """The table head ``page`` ends with while the table's rows start on ``following``, or None.

    A long table's head is printed again at the top of each page it runs onto; if the page before ends with
    that head (its last one to ``most`` lines are the next page's first ones), no row came under it there.
    """
    ending, starting = page.lines(), following.lines()
    for count in range(1, most + 1):
        if len(ending) > count and len(starting) > count and ending[-count:] == starting[:count]:
            return " ".join(ending[-count:])
    return None


def printed_pages(pdf: bytes) -> list[PrintedPage]:
    """Each page of ``pdf`` with its runs of text inside the text area (not the footer), as pypdf reads them."""
    import math

    pages = []
    for number, page in enumerate(read_pdf(pdf).pages, start=1):
        height = float(page.mediabox.height)
        runs: list[tuple[float, float, str]] = []

        def visit(text: str, cm: list[float], tm: list[float], font: Any, size: float,
                  runs: list[tuple[float, float, str]] = runs, height: float = height) -> None:
            if not text.strip():
                return
            top = height - (cm[1] * tm[4] + cm[3] * tm[5] + cm[5])
            if TEXT_TOP - 20 <= top <= TEXT_BOTTOM:
                runs.append((top, size * math.hypot(tm[2], tm[3]) * math.hypot(cm[2], cm[3]), text))

        page.extract_text(visitor_text=visit)
        pages.append(PrintedPage(number, tuple(runs)))
    return pages


def layout_findings(pdf: bytes, chapter_starts: list[int]) -> tuple[list[str], list[str]]:
    """What a reader would see wrong on the printed pages: (faults, warnings), one line each.

    A fault is a heading with at most one line of text under it at the bottom of a page (the CSS keeps a
    heading with what follows it), or a table's head at the bottom of a page whose rows all start on the
    next (the CSS keeps a long table's caption and head with its first rows). A warning is a page less than half filled that is not the last page of
    a chapter (nor the title, contents or last page): what is left blank there is space a figure or a
    table too tall for it was pushed past.
    """
    pages = printed_pages(pdf)
    ends = {start - 1 for start in chapter_starts} | {len(pages)}
    faults, warnings = [], []
    for page in pages:
        heading = page.last_heading()
        if heading is not None and heading[1] <= 1:
            faults.append(f"page {page.number} ends with the heading {heading[0]!r}")
        following = pages[page.number] if page.number < len(pages) else None
        head = head_left_behind(page, following) if following is not None else None
        if head is not None:
            faults.append(f"page {page.number} ends with the head of a table whose rows start on page "
                          f"{page.number + 1}: {head!r}")
        if page.number > 2 and page.number not in ends and page.filled < 0.5:
            warnings.append(f"page {page.number} is {1 - page.filled:.0%} blank, not at a chapter's end")
    return faults, warnings


def print_pdf(page: Path, chromium: str) -> dict[str, Any]:
    """Print the one-page book ``page`` in Chromium; return the PDF (``pdf``, bytes) and what was printed.

    The PDF is returned, not written: :func:`check_pages` and :func:`write_pdf` come after.
    """
    from playwright.sync_api import sync_playwright

    title, author, _ = book_settings()
    options: dict[str, Any] = {
        "format": "A4", "print_background": True, "display_header_footer": True, "prefer_css_page_size": True,
        "header_template": "<span></span>",
        # every page names the version and the inputs it was built from, as the HTML pages' footer does
        "footer_template": static("goodput-print-footer.html").format(title=html.escape(title),
                                                                       made=html.escape(provenance().summary())),
        "outline": True, "tagged": True,
    }
    problems: list[str] = []
    settle = static("goodput-print-settle.js")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport={"width": 665, "height": 940}, service_workers="block")
            tab = context.new_page()
            tab.on("pageerror", lambda e: problems.append(f"uncaught exception: {e}"))
            # The one-page build has no search index; the theme's search script asks for it anyway.
            tab.on("requestfailed", lambda r: r.url.endswith("/searchindex.js")
                   or problems.append(f"request failed: {r.url}"))
            tab.goto(page.as_uri(), wait_until="load")
            tab.wait_for_load_state("networkidle")
            tab.evaluate(settle)
            tab.add_style_tag(content=static("goodput-print.css"))
            prepared = tab.evaluate(static("goodput-print-prepare.js"), {"title": title_page(title, author)})
            tab.evaluate(settle)
            checked = tab.evaluate(static("goodput-print-check.js"))
            if checked["rawTex"]:
                raise SystemExit(f"make pdf: MathJax left formulas as TeX: {checked['rawTex'][:5]}")
            if checked["brokenImages"]:
                raise SystemExit(f"make pdf: images did not load: {checked['brokenImages'][:5]}")
            if problems:
                raise SystemExit("make pdf: " + "; ".join(problems[:5]))
            chapters = len(prepared["chapters"])
            # First print: where each chapter starts. Second: the same, with those pages in the contents.
            draft = {**options, "outline": False, "tagged": False}  # the same layout, made faster
            pages = chapter_pages(tab.pdf(**draft), chapters)
            # Numbering the contents can move a chapter's start, and Chromium may lay a page out one way on one
            # print and the other way on the next: print until the chapters start where the contents says. On a
            # miss, print once more with the same numbers before adopting the pages just seen.
            for attempt in range(8):
                tab.evaluate(static("goodput-print-number.js"), pages)
                printed = tab.pdf(**options)
                now = chapter_pages(printed, chapters)
                if now == pages:
                    break
                if attempt % 2:
                    pages = now
            else:
                raise SystemExit(f"make pdf: the contents' page numbers never held (the chapters start on {now}, the "
                                 f"contents says {pages}); print again, or report it with the inputs file")
            context.close()
        finally:
            browser.close()
    pdf = mend_outline(printed, prepared["headings"])
    check_outline(pdf, [title for _, title in prepared["chapters"]])
    return {"pdf": pdf, "chapters": prepared["chapters"], "pages": pages, "relinked": prepared["relinked"],
            "math": checked["math"]}


def check_pages(pdf: bytes, pages: list[int], chapters: int) -> list[str]:
    """Fail unless the contents of ``pdf`` link to its ``chapters`` chapters on the ``pages`` listed, and no page ends with a heading.

    Nor may a page end with a table's head whose rows start on the next (:func:`layout_findings`).

    Return the warnings of :func:`layout_findings`: pages left mostly blank.
    """
    if len(pages) != chapters or chapter_pages(pdf, chapters) != pages:
        raise SystemExit(f"make pdf: the contents do not match where the {chapters} chapters start: {pages}")
    faults, warnings = layout_findings(pdf, pages)
    if faults:
        raise SystemExit("make pdf: " + "; ".join(faults))
    return warnings


def outline_titles(pdf: bytes) -> list[str]:
    """The titles of the PDF's outline (bookmarks), depth first."""
    titles: list[str] = []

    def walk(items: list[Any]) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item)
            else:
                titles.append(str(item.title))

    walk(read_pdf(pdf).outline)
    return titles


def outline_levels(pdf: bytes) -> list[tuple[int, str]]:
    """The PDF's outline (bookmarks), depth first: each bookmark's depth (0 at the top) and title."""
    found: list[tuple[int, str]] = []

    def walk(items: list[Any], depth: int) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item, depth + 1)
            else:
                found.append((depth, str(item.title)))

    walk(read_pdf(pdf).outline, 0)
    return found


def check_outline(pdf: bytes, chapters: list[str]) -> None:
    """Fail unless each of the ``chapters`` (their titles) is a bookmark at the outline's top level.

    Chromium builds the outline from the heading levels; on the one page Sphinx makes every chapter after the
    first a section of it (an h2), which goodput-print-prepare.js undoes. Were it not, every chapter would be
    a child of the first, beside that chapter's own sections.
    """
    top = {" ".join(title.split()) for depth, title in outline_levels(pdf) if depth == 0}
    nested = [title for title in chapters if " ".join(title.split()) not in top]
    if nested:
        raise SystemExit(f"make pdf: these chapters are not top-level bookmarks of the PDF: {nested[:5]}")


def mended_title(bookmark: str, headings: list[str]) -> str:
    """The heading a bookmark of Chromium's stands for, or the bookmark as it is when none matches.

    Chromium titles a bookmark with the text of the heading's line boxes run together, without the
    spaces where the heading wraps ("atscale"), and a chapter's heading, which starts a new page, with
    its first line twice ("The answer firstThe answer first"). Compared without spaces, the bookmark is
    then a heading, or a start of the heading followed by the whole heading.
    """
    mangled = "".join(bookmark.split())
    for heading in headings:
        whole = "".join(heading.split())
        if whole and (mangled == whole or (mangled.endswith(whole) and whole.startswith(mangled[: -len(whole)]))):
            return " ".join(heading.split())
    return bookmark


def mend_outline(pdf: bytes, headings: list[str]) -> bytes:
    """``pdf`` with each bookmark titled as its heading reads (:func:`mended_title`); nothing else changed."""
    import io

    from pypdf import PdfWriter
    from pypdf.generic import NameObject, TextStringObject

    writer = PdfWriter(clone_from=read_pdf(pdf))
    outlines = writer.root_object.get("/Outlines")
    if outlines is None or "/First" not in outlines.get_object():
        return pdf

    def mend(node: Any) -> None:
        while node is not None:
            title = str(node.get("/Title", ""))
            mended = mended_title(title, headings)
            if mended != title:
                node[NameObject("/Title")] = TextStringObject(mended)
            if "/First" in node:
                mend(node["/First"].get_object())
            node = node["/Next"].get_object() if "/Next" in node else None

    mend(outlines.get_object()["/First"].get_object())
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def check_output(output: Path) -> None:
    """Fail with one line unless ``output`` can be a PDF: a regular file or no file yet, in a folder (or none yet).

    A device (``/dev/full``), a folder, a pipe or a socket at ``output`` is refused, before anything is
    built, and is never touched: the PDF only ever replaces a regular file.
    """
    try:
        mode = output.stat().st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise SystemExit(f"make pdf: --output {output}: {exc.strerror}") from None
    if mode is not None and not stat.S_ISREG(mode):
        raise SystemExit(f"make pdf: --output {output}: not a regular file; the PDF is written only to a file")
    folder = output.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        raise SystemExit(f"make pdf: --output {output}: {folder} is not a folder")


def write_pdf(output: Path, pdf: bytes) -> None:
    """Write ``pdf`` to ``output`` whole or not at all.

    The bytes go into a new temporary file in ``output``'s folder, which is renamed into place once written
    and synced. On any failure the temporary file is removed and ``output``, if it was there, is left as it
    was; nothing but that temporary file is ever unlinked.
    """
    check_output(output)
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=f".{output.name}.", suffix=".part", dir=output.parent)
    except OSError as exc:
        raise SystemExit(f"make pdf: cannot write the PDF in {output.parent}: {exc.strerror}") from None
    temporary = Path(name)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(pdf)
            file.flush()
            os.fsync(file.fileno())
        umask = os.umask(0)
        os.umask(umask)
        temporary.chmod(0o666 & ~umask)  # mkstemp makes it private; a PDF is as readable as any file written
        os.replace(temporary, output)
    except OSError as exc:
        temporary.unlink(missing_ok=True)
        raise SystemExit(f"make pdf: cannot write {output}: {exc.strerror or exc}") from None
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def main(argv: list[str] | None = None) -> None:
    """``make pdf``: build the one-page book and print it to _build/pdf/goodput.pdf (or --output)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check-browser", action="store_true", help="only check that a Chromium is installed")
    parser.add_argument("--build-dir", type=Path, default=DEFAULT_BUILD, help="where the one-page book is built")
    parser.add_argument("--output", type=Path, help=f"the PDF (default: BUILD_DIR/{PDF_NAME})")
    parser.add_argument("--no-build", action="store_true", help="print the one-page book already in BUILD_DIR")
    args = parser.parse_args(argv)
    build = args.build_dir.resolve()
    output = (args.output or build / PDF_NAME).resolve()
    check_output(output)
    chromium = find_chromium()
    if chromium is None:
        wanted = os.environ.get("GOODPUT_CHROMIUM")
        raise SystemExit(f"make pdf: GOODPUT_CHROMIUM={wanted} is not an executable Chromium" if wanted else INSTALL_HINT)
    if args.check_browser:
        return
    try:
        import playwright  # noqa: F401
    except ImportError:
        raise SystemExit("make pdf needs the playwright package: pip install -c constraints.txt -e '.[test]'") from None
    if args.no_build:
        page = build / "_build" / "singlehtml" / "index.html"
    else:
        page = build_single_page(build)
    printed = print_pdf(page, chromium)
    warnings = check_pages(printed["pdf"], printed["pages"], len(printed["chapters"]))
    write_pdf(output, printed["pdf"])
    for warning in warnings:
        print(f"make pdf: warning: {warning}", file=sys.stderr)
    print(f"{len(printed['chapters'])} chapters on pages {printed['pages']}, {printed['math']} formulas typeset, "
          f"{printed['relinked']} links within the book")
    print(f"The PDF is at {output}")


if __name__ == "__main__":
    main()
