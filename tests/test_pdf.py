"""The print edition: the PDF ``make pdf`` writes, read back with pypdf.

The session fixture ``book_pdf`` runs the script ``make pdf`` runs (_ext/make_pdf.py) into a
temporary folder: a clean, strict one-page build of the whole book (every chapter executed,
figures as SVG) printed by Debian's Chromium. The tests read the PDF with pypdf (each page's text,
the page count and size, the outline, the link annotations and named destinations, the drawing
of figures) and the images' resolutions with Debian's ``poppler-utils`` (``pdfimages``; .ci/run
installs it): the worked numbers of the answer page, the references, no TeX left unset, the title
page, page numbers, vector figures, links that stay within the PDF, and pages neither ended by a
heading nor left mostly blank.

The tests marked ``pdf`` read that PDF. The others (in ``make test-fast``) check the script's parts
without a build: an ``--output`` that is not a file is refused and left alone, the PDF is written to a
temporary file and renamed into place only after the contents check passes, and that check reads
the links Chromium writes.

Without Chromium or poppler-utils the ``pdf`` tests are skipped with the reason, except under CI=true,
where they fail (as in tests/test_browser.py). The build ignores a GOODPUT_PARAMS set in the
environment, so the tests see the book of book/params.yml.
"""

from __future__ import annotations

import errno
import importlib.util
import os
import re
import shutil
import stat
import subprocess
import sys
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: The tests that read the printed book (``-m pdf``); the others test _ext/make_pdf.py's parts without a build.
printed = pytest.mark.pdf

#: What the answer page shows (the worked example of book/params.yml); tests/test_book.py checks the HTML.
ANSWER_NUMBERS = ("186 min", "19.3 min", "86.9%", "74.1%", "12.8 points", "$3.8M")
#: TeX that must not survive typesetting.
RAW_TEX = ("\\frac", "\\sqrt", "$$", "\\begin", "\\end{", "\\left", "\\right", "\\mathrm", "\\cdot")


def load_make_pdf() -> ModuleType:
    """_ext/make_pdf.py as a module (it is a script, not part of the package)."""
    spec = importlib.util.spec_from_file_location("make_pdf", ROOT / "_ext" / "make_pdf.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("make_pdf", module)  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def missing(reason: str) -> None:
    """Skip with the reason, or fail under CI=true, where a missing tool is a broken set-up."""
    if in_ci():
        pytest.fail(f"CI is set and {reason}; .ci/run installs chromium and poppler-utils", pytrace=False)
    pytest.skip(reason)


@dataclass
class BookPdf:
    """The printed book: the file, its text page by page, and how long ``make pdf`` took."""

    path: Path
    pages: list[str]
    seconds: float
    html: Path

    @property
    def text(self) -> str:
        return "\n".join(self.pages)


@pytest.fixture(scope="session")
def book_pdf(tmp_path_factory: pytest.TempPathFactory) -> BookPdf:
    """Run _ext/make_pdf.py (what ``make pdf`` runs) into a temporary folder, and read the PDF's text."""
    make_pdf = load_make_pdf()
    if make_pdf.find_chromium() is None:
        missing("no Chromium is installed; install Debian's: apt-get install chromium")
    if shutil.which("pdfimages") is None:
        missing("pdfimages is not installed; install Debian's poppler-utils: apt-get install poppler-utils")
    out = tmp_path_factory.mktemp("pdf")
    env = {k: v for k, v in os.environ.items() if k != "GOODPUT_PARAMS"}
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, str(ROOT / "_ext" / "make_pdf.py"), "--build-dir", str(out)],
        capture_output=True, text=True, check=False, env=env,
    )
    seconds = time.perf_counter() - start
    assert result.returncode == 0, (result.stdout + result.stderr)[-5000:]
    pdf = out / "goodput.pdf"
    assert pdf.is_file(), result.stdout
    # NFKC: the ligatures the fonts set ("ﬁ") read as their letters.
    pages = [unicodedata.normalize("NFKC", page.extract_text(extraction_mode="layout")) for page in _reader(pdf).pages]
    return BookPdf(pdf, pages, seconds, out / "_build" / "singlehtml")


def _reader(path: Path) -> Any:
    """The PDF at ``path`` opened with pypdf (a ``pypdf.PdfReader``)."""
    from pypdf import PdfReader

    return PdfReader(path)


def chapter_title(source: Path) -> str:
    """A chapter's title: its first level-1 heading outside code."""
    fenced = False
    for line in source.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("# "):
            return line[2:].strip()
    raise AssertionError(f"{source} has no title")


def collapsed(text: str) -> str:
    return re.sub(r"\s+", " ", text)


@printed
def test_pdf_shows_the_worked_numbers(book_pdf: BookPdf) -> None:
    """The answer page's worked numbers are in the PDF's text: 186 min, 19.3 min, 86.9%, 74.1%, 12.8 points, $3.8M."""
    text = collapsed(book_pdf.text)
    absent = [number for number in ANSWER_NUMBERS if number not in text]
    assert not absent, absent


@printed
def test_pdf_has_every_chapter_in_toc_order_and_the_references(book_pdf: BookPdf) -> None:
    """Every chapter starts a page, in _toc.yml's order, and the last is the references, with Young (1974)."""
    toc = (ROOT / "_toc.yml").read_text(encoding="utf-8")
    chapters = re.findall(r"^\s*(?:root|- file):\s*(\S+)", toc, flags=re.MULTILINE)
    titles = [chapter_title(ROOT / f"{chapter}.md") for chapter in chapters]
    firsts = [collapsed(page).strip() for page in book_pdf.pages]
    starts = [next((i for i, page in enumerate(firsts) if page.startswith(title)), -1) for title in titles]
    assert -1 not in starts, [t for t, s in zip(titles, starts, strict=True) if s == -1]
    assert starts == sorted(starts), list(zip(titles, starts, strict=True))
    references = collapsed("\n".join(book_pdf.pages[starts[-1]:]))
    assert titles[-1] == "References"
    assert "Young" in references and "1974" in references and "Daly" in references


@printed
def test_no_tex_is_left_unset(book_pdf: BookPdf) -> None:
    """MathJax typeset every formula: no \\frac, \\sqrt, $$ or \\begin (or other TeX command) in the PDF's text."""
    found = {tex: book_pdf.text.count(tex) for tex in RAW_TEX if tex in book_pdf.text}
    assert not found, found
    assert "√(2CM)" in book_pdf.text or "√" in book_pdf.text


@printed
def test_title_page_says_what_the_book_was_built_from(book_pdf: BookPdf) -> None:
    """Page 1 has the book's title, the goodput version, the inputs file with its full SHA-256, and the commit."""
    import yaml

    from goodput import __version__

    made = load_make_pdf().provenance()
    title = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))["title"]
    first = collapsed(book_pdf.pages[0])
    assert collapsed(title) in first
    assert f"goodput {__version__}" in first and made.version == __version__
    assert made.params_name == "params.yml" and "params.yml" in first
    assert made.params_sha256 in first and re.fullmatch(r"[0-9a-f]{64}", made.params_sha256)
    if made.commit:
        assert made.commit in first


@printed
def test_every_page_is_numbered(book_pdf: BookPdf) -> None:
    """Each page's footer reads "n / N", with n its page number and N the PDF's page count, and names the version
    and the inputs the book was built from (a page copied into a plan keeps them); every page is A4."""
    reader = _reader(book_pdf.path)
    count = len(reader.pages)
    assert count == len(book_pdf.pages) >= 30
    unnumbered = [i for i, page in enumerate(book_pdf.pages, start=1)
                  if not re.search(rf"^.*\S.*\s{i} / {count}\s*$", page, flags=re.MULTILINE)]
    assert not unnumbered, unnumbered
    made = load_make_pdf().provenance()
    unnamed = [i for i, page in enumerate(book_pdf.pages, start=1)  # NFKC: a printed "fl" may be one ligature
               if collapsed(made.summary()) not in collapsed(unicodedata.normalize("NFKC", page))]
    assert not unnamed, unnamed
    sizes = {(round(float(page.mediabox.width)), round(float(page.mediabox.height))) for page in reader.pages}
    assert sizes <= {(595, 842), (594, 841), (595, 841), (594, 842)}, sizes


def _page_contents(path: Path) -> list[bytes]:
    """Each page's content stream, decompressed by pypdf, in page order."""
    return [page.get_contents().get_data() if page.get_contents() is not None else b""
            for page in _reader(path).pages]


@printed
def test_figures_are_vectors(book_pdf: BookPdf) -> None:
    """At least 7 numbered figures; each page with a figure caption draws it as vector paths, and no raster is under 200 dpi."""
    captions = sorted({int(n) for n in re.findall(r"Fig\.\s(\d+)\s", book_pdf.text)})
    assert len(captions) >= 7 and captions == list(range(1, len(captions) + 1)), captions
    assert list(book_pdf.html.joinpath("_images").glob("*.svg")) and not list(book_pdf.html.joinpath("_images").glob("*.png"))
    contents = _page_contents(book_pdf.path)
    assert len(contents) == len(book_pdf.pages)
    # A caption starts a line with "Fig. N"; so may a sentence that names the figure. One of the
    # pages where a line starts with "Fig. N" must draw the figure: hundreds of line and curve segments.
    segments = [len(re.findall(rb"\s[lc]\s", content)) for content in contents]
    undrawn = []
    for number in captions:
        pages = [i for i, page in enumerate(book_pdf.pages) if re.search(rf"^\s*Fig\.\s{number}\s", page, flags=re.MULTILINE)]
        if not any(segments[i] >= 500 for i in pages):
            undrawn.append((number, [(i + 1, segments[i]) for i in pages]))
    assert not undrawn, undrawn
    listing = subprocess.run(["pdfimages", "-list", str(book_pdf.path)], capture_output=True, text=True, check=True).stdout
    low = [line for line in listing.splitlines()[2:] if min(int(line.split()[12]), int(line.split()[13])) < 200]
    assert not low, low


@printed
def test_links_stay_within_the_pdf(book_pdf: BookPdf) -> None:
    """Cross-references, citations and the contents are /Link annotations to named destinations of the PDF.

    The contents page (page 2) links to every chapter, each entry's page number is the page its
    link lands on, and that page starts with the chapter's title; the PDF's outline lists the chapters.
    """
    reader = _reader(book_pdf.path)
    dests = {str(name).removeprefix("/") for name in reader.named_destinations}
    names = [str(annot["/Dest"]).removeprefix("/") for page in reader.pages for annot in
             (ref.get_object() for ref in page.get("/Annots") or [])
             if annot.get("/Subtype") == "/Link" and isinstance(annot.get("/Dest"), str)]
    assert len(names) >= 100, len(names)
    unknown = sorted({name for name in names if name not in dests})
    assert not unknown, unknown
    assert {"cite-young1974", "equation-eq-optimum"} <= set(names), sorted(set(names))[:20]
    outline = load_make_pdf().outline_titles(book_pdf.path.read_bytes())
    toc = (ROOT / "_toc.yml").read_text(encoding="utf-8")
    chapters = [chapter_title(ROOT / f"{chapter}.md") for chapter in
                re.findall(r"^\s*(?:root|- file):\s*(\S+)", toc, flags=re.MULTILINE)]
    assert [title for title in outline if title in chapters] == chapters, outline
    doubled = [t for t in outline if len(t) % 2 == 0 and t and t[: len(t) // 2] == t[len(t) // 2:]]
    assert not doubled, doubled
    # The contents end at the footer ("title  2 / 91", then the provenance line, whose commit
    # hash can be all digits and would otherwise read as an entry).
    contents = re.split(r"^.*\s\d+ / \d+\s*$", book_pdf.pages[1], maxsplit=1, flags=re.MULTILINE)[0]
    entries = re.findall(r"^\s*(\S.*?\S)\s+(\d+)\s*$", contents.split("Contents", 1)[1], flags=re.MULTILINE)
    assert len(entries) >= 13, entries
    for title, page in entries:
        assert collapsed(book_pdf.pages[int(page) - 1]).strip().startswith(title), (title, page)


@printed
def test_no_page_ends_with_a_heading_or_is_left_mostly_blank(book_pdf: BookPdf) -> None:
    """make pdf's layout check, read back: no heading ends a page with at most a line under it, no table's head
    ends a page with its rows on the next, and no page
    that is not a chapter's last is more than 60% blank. make pdf warns from half blank: a figure or table
    pushed to the next page may leave a little more than half a page (the warnings are in the message)."""
    make_pdf = load_make_pdf()
    pdf = book_pdf.path.read_bytes()
    starts = make_pdf.chapter_pages(pdf, 100)
    faults, warnings = make_pdf.layout_findings(pdf, starts)
    printed = make_pdf.printed_pages(pdf)
    ends = {start - 1 for start in starts} | {len(printed)}
    blank = [page.number for page in printed if page.number > 2 and page.number not in ends and page.filled < 0.4]
    assert not faults and not blank, (faults, blank, warnings)
    assert len(printed) == len(book_pdf.pages) and sum(page.filled > 0.9 for page in printed) > len(printed) / 2


@printed
def test_every_chapter_is_a_top_level_bookmark_and_headings_of_a_level_print_at_one_size(book_pdf: BookPdf) -> None:
    """Each chapter is a bookmark at the outline's top level with its sections one level under it (on the one page
    Sphinx makes the other chapters sections of the first: Chromium nested them all under "The answer first"),
    and the headings a level of the outline stands for print at one size (the answer's sections printed at two)."""
    from pypdf import PdfReader

    make_pdf = load_make_pdf()
    toc = (ROOT / "_toc.yml").read_text(encoding="utf-8")
    chapters = [chapter_title(ROOT / f"{chapter}.md") for chapter in
                re.findall(r"^\s*(?:root|- file):\s*(\S+)", toc, flags=re.MULTILINE)]
    levels = make_pdf.outline_levels(book_pdf.path.read_bytes())
    assert [title for depth, title in levels if depth == 0 and title in chapters] == chapters, levels
    assert not [title for depth, title in levels if depth > 0 and title in chapters], levels
    assert max(depth for depth, _ in levels) <= 2, levels
    answer = next(i for i, (_, title) in enumerate(levels) if title == chapters[0])
    sections = [title for depth, title in levels[answer + 1:][:20] if depth == 1]
    assert len(sections) >= 4, levels[answer:answer + 20]
    # The size each bookmark's heading prints at, read on the page the bookmark lands on.
    reader = PdfReader(book_pdf.path)
    pages = make_pdf.printed_pages(book_pdf.path.read_bytes())
    sizes: dict[int, set[float]] = {}

    def walk(items: list[Any], depth: int) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item, depth + 1)
                continue
            page = pages[reader.get_destination_page_number(item)]
            title = collapsed(unicodedata.normalize("NFKC", str(item.title)))
            found = {round(size, 1) for _, size, text in page.runs if size >= make_pdf.HEADING_SIZE
                     and sum(c.isalpha() for c in text) >= 3  # not a letter of a formula, set large
                     and collapsed(unicodedata.normalize("NFKC", text)).strip() in title}
            assert found, (depth, title, page.number)
            sizes.setdefault(depth, set()).update(found)

    walk(reader.outline[2:], 0)  # after the title page and the contents
    assert all(len(found) == 1 for found in sizes.values()), sizes


def test_the_outline_check_refuses_a_chapter_nested_under_another(tmp_path: Path) -> None:
    """check_outline passes chapters that are top-level bookmarks, and fails with one line on a chapter nested
    under another (as Chromium nested every chapter under "The answer first")."""
    import io

    from pypdf import PdfWriter

    make_pdf = load_make_pdf()

    def outlined(nested: bool) -> bytes:
        writer = PdfWriter()
        for _ in range(3):
            writer.add_blank_page(200, 200)
        first = writer.add_outline_item("The answer first", 0)
        writer.add_outline_item("The recommendation", 0, parent=first)
        second = writer.add_outline_item("The three  inputs", 1, parent=first if nested else None)
        writer.add_outline_item("The inputs file", 2, parent=second)
        buffer = io.BytesIO()
        writer.write(buffer)
        return buffer.getvalue()

    assert make_pdf.outline_levels(outlined(nested=True)) == [
        (0, "The answer first"), (1, "The recommendation"), (1, "The three  inputs"), (2, "The inputs file")]
    make_pdf.check_outline(outlined(nested=False), ["The answer first", "The three inputs"])
    with pytest.raises(SystemExit, match=r"^make pdf: these chapters are not top-level bookmarks of the PDF: "
                                         r"\['The three inputs'\]$"):
        make_pdf.check_outline(outlined(nested=True), ["The answer first", "The three inputs"])


#: A number in e-notation cut at the end of a line ("1.22e-" then "5" on the next line), as pypdf reads a page.
BROKEN_E_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?e[-+]?[ \t]*\n")


def broken_e_numbers(pages: list[str]) -> list[tuple[int, str]]:
    """Each (page, text) where a number in e-notation is broken over two lines."""
    return [(i, m.group().strip()) for i, page in enumerate(pages, start=1) for m in BROKEN_E_NUMBER.finditer(page)]


@printed
def test_no_number_in_e_notation_is_broken_over_lines(book_pdf: BookPdf) -> None:
    """A number such as 2.2e-5 is never split after its exponent's hyphen (the stored fleet's p. 77 had "1.22e-" and
    "5" on the next line), and stays written with the ASCII hyphen-minus a planner copies into an inputs file."""
    assert not broken_e_numbers(book_pdf.pages)
    assert re.search(r"\de-\d", book_pdf.text) and not re.search("\\de[\u2010\u2011\u2212]\\d", book_pdf.text)


#: An ISO timestamp as the step and event logs write them.
TIMESTAMP = re.compile(r"(?<![\w.-])\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})")


@printed
def test_no_timestamp_in_a_table_is_broken_over_lines(book_pdf: BookPdf) -> None:
    """Every timestamp of the book's tables prints whole: the stored fleet's step log (logs chapter, p. 75) had
    "2025-01-" in every row and "06T00:02:00Z" on the next line. goodput-tables.js keeps them whole, and the table
    within the page."""
    page = (book_pdf.html / "index.html").read_text(encoding="utf-8")
    tables = re.sub(r"<[^>]+>", "", "".join(re.findall(r"<table\b.*?</table>", page, flags=re.DOTALL)))
    stamps = TIMESTAMP.findall(tables)
    assert len(stamps) >= 10, stamps
    printed = TIMESTAMP.findall(book_pdf.text)
    missing = [stamp for stamp in set(stamps) if printed.count(stamp) < stamps.count(stamp)]
    assert not missing, sorted(missing)


def text_pdf(pages: list[list[tuple[float, float, str]]]) -> bytes:
    """An A4 PDF (written by pypdf) with, on each page, each (distance from the top in points, size, text) run."""
    import io

    from pypdf import PdfWriter
    from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

    writer = PdfWriter()
    font = DictionaryObject({NameObject("/Type"): NameObject("/Font"), NameObject("/Subtype"): NameObject("/Type1"),
                             NameObject("/BaseFont"): NameObject("/Helvetica")})
    for runs in pages:
        page = writer.add_blank_page(595, 842)
        page[NameObject("/Resources")] = DictionaryObject({NameObject("/Font"): DictionaryObject(
            {NameObject("/F1"): writer._add_object(font)})})
        stream = DecodedStreamObject()
        stream.set_data(b"".join(b"BT /F1 %g Tf 1 0 0 1 60 %g Tm (%s) Tj ET\n" % (size, 842 - top, text.encode())
                                 for top, size, text in runs))
        page[NameObject("/Contents")] = writer._add_object(stream)
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


@pytest.mark.slow
def test_the_layout_check_finds_a_heading_at_a_page_bottom_and_a_half_blank_page() -> None:
    """A heading with nothing under it at a page's foot is a fault; a half-blank page is a warning unless a
    chapter starts on the next page; a full page, a heading with text under it, and math glyphs pass."""
    make_pdf = load_make_pdf()
    body = [(60.0 + 16.5 * i, 10.0, f"line {i} of the text") for i in range(44)]
    half = body[:15]
    pages = [body, [*body[:40], (740.0, 14.0, "A section heading")], half,
             [*half, (400.0, 14.0, "Another heading"), (420.0, 10.0, "under it"), (440.0, 10.0, "and more"), (700.0, 20.0, "x")], body]
    pdf = text_pdf(pages)
    printed = make_pdf.printed_pages(pdf)
    assert [round(page.filled, 1) for page in printed] == [1.0, 0.9, 0.3, 0.9, 1.0]
    assert printed[1].last_heading() == ("A section heading", 0)
    assert make_pdf.layout_findings(pdf, [1]) == (
        ["page 2 ends with the heading 'A section heading'"], ["page 3 is 67% blank, not at a chapter's end"])
    assert make_pdf.layout_findings(pdf, [1, 4])[1] == []
    with pytest.raises(SystemExit, match="ends with the heading 'A section heading'"):
        make_pdf.check_pages(pdf, [], 0)


@pytest.mark.slow
def test_the_layout_check_finds_a_table_head_left_at_a_page_bottom() -> None:
    """A long table's head (printed again atop the next page) ending a page with no row under it is a fault, as
    on the stored fleet's p. 45; the head with its first rows under it, or a table that starts a page, passes."""
    make_pdf = load_make_pdf()
    body = [(60.0 + 16.5 * i, 10.0, f"line {i} of the text") for i in range(40)]
    caption = [(720.0, 8.5, "Published checkpoint sizes and times")]
    head = [(740.0, 8.5, "published figure and its inputs"), (740.0, 8.5, "published"), (740.0, 8.5, "this book")]
    rows = [(60.0 + 16.5 * i, 8.5, f"row {i}") for i in range(1, 5)]
    repeated = [(top - 680.0, size, text) for top, size, text in head]
    left_behind = text_pdf([[*body, *caption, *head], [*repeated, *rows]])
    faults, _ = make_pdf.layout_findings(left_behind, [1])
    assert faults == [("page 1 ends with the head of a table whose rows start on page 2: "
                       "'published figure and its inputs published this book'")]
    with_rows = text_pdf([[*body[:36], *[(top - 66.0, s, t) for top, s, t in [*caption, *head]],
                           (700.0, 8.5, "row 1"), (720.0, 8.5, "row 2")], [*repeated, *rows[2:]]])
    starting = text_pdf([body, [*[(top - 680.0, s, t) for top, s, t in caption], *repeated, *rows]])
    assert make_pdf.layout_findings(with_rows, [1])[0] == []
    assert make_pdf.layout_findings(starting, [1])[0] == []


def test_bookmarks_are_titled_as_their_headings() -> None:
    """Chromium's bookmark titles (wrapped spaces lost, a chapter's first line twice) read as the headings."""
    make_pdf = load_make_pdf()
    headings = ["Goodput: how often to checkpoint at scale", "The answer first",
                "Measuring the inputs, and where the model is wrong", "Where the model is wrong"]
    for bookmark, heading in [
        ("Goodput: how often to checkpoint atscale", headings[0]),
        ("The answer firstThe answer first", headings[1]),
        ("Measuring the inputs, and where the model isMeasuring the inputs, and where the model iswrong", headings[2]),
        ("Where the model is wrong", headings[3]),
        ("A bookmark of no heading", "A bookmark of no heading"),
    ]:
        assert make_pdf.mended_title(bookmark, headings) == heading


def tiny_pdf(link: bool, named: bool = True) -> bytes:
    """A two-page PDF (written by pypdf), its first page linking to its second when ``link``: by a named
    destination in the catalog's ``/Dests``, as Chromium writes one, or (``named=False``) explicitly."""
    import io

    from pypdf import PdfWriter
    from pypdf.generic import ArrayObject, DictionaryObject, FloatObject, NameObject

    writer = PdfWriter()
    for _ in range(2):
        writer.add_blank_page(200, 200)
    second = ArrayObject([writer.pages[1].indirect_reference, NameObject("/XYZ"),
                          FloatObject(0), FloatObject(200), FloatObject(0)])
    if link:
        writer.root_object[NameObject("/Dests")] = DictionaryObject({NameObject("/chapter-a"): second})
        writer.add_annotation(0, DictionaryObject({
            NameObject("/Type"): NameObject("/Annot"), NameObject("/Subtype"): NameObject("/Link"),
            NameObject("/Rect"): ArrayObject([FloatObject(10), FloatObject(10), FloatObject(50), FloatObject(30)]),
            NameObject("/Dest"): NameObject("/chapter-a") if named else second,
        }))
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def test_the_contents_check_reads_where_links_land() -> None:
    """The contents page's link lands on page 2: the check passes for [2] and fails for [3] or no link."""
    make_pdf = load_make_pdf()
    assert make_pdf.chapter_pages(tiny_pdf(link=True), 1) == [2]
    assert make_pdf.chapter_pages(tiny_pdf(link=True, named=False), 1) == [2]
    assert make_pdf.chapter_pages(tiny_pdf(link=False), 1) == []
    make_pdf.check_pages(tiny_pdf(link=True), [2], 1)
    for pdf, pages in ((tiny_pdf(link=True), [3]), (tiny_pdf(link=False), [2]), (tiny_pdf(link=True), [2, 2])):
        with pytest.raises(SystemExit, match="the contents do not match"):
            make_pdf.check_pages(pdf, pages, 1 if len(pages) == 1 else 2)


def test_the_pdf_replaces_the_old_one_whole(tmp_path: Path) -> None:
    """write_pdf leaves the new bytes at the path and nothing else in the folder, readable as any new file."""
    make_pdf = load_make_pdf()
    target = tmp_path / "goodput.pdf"
    target.write_bytes(b"old")
    make_pdf.write_pdf(target, b"%PDF new")
    assert target.read_bytes() == b"%PDF new" and list(tmp_path.iterdir()) == [target]
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask
    make_pdf.write_pdf(tmp_path / "new" / "folder" / "book.pdf", b"%PDF")
    assert (tmp_path / "new" / "folder" / "book.pdf").read_bytes() == b"%PDF"


def test_a_failed_write_leaves_the_old_pdf_and_no_temporary_file(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A disk that fills up before the rename: one line, the previous PDF as it was, no temporary file left."""
    make_pdf = load_make_pdf()
    target = tmp_path / "goodput.pdf"
    target.write_bytes(b"old")

    def full(*_: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(make_pdf.os, "replace", full)
    with pytest.raises(SystemExit) as failed:
        make_pdf.write_pdf(target, b"%PDF new")
    assert str(failed.value) == f"make pdf: cannot write {target}: {os.strerror(errno.ENOSPC)}"
    assert target.read_bytes() == b"old" and list(tmp_path.iterdir()) == [target]


def test_a_failed_contents_check_leaves_no_pdf(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """main() with a print whose contents do not match: exit with one line, and no PDF (nor temporary file)."""
    make_pdf = load_make_pdf()
    monkeypatch.setattr(make_pdf, "find_chromium", lambda: "/bin/true")
    monkeypatch.setattr(make_pdf, "print_pdf", lambda page, chromium: {
        "pdf": tiny_pdf(link=False), "chapters": [["a", "A"]], "pages": [2], "relinked": 0, "math": 0})
    with pytest.raises(SystemExit, match=r"^make pdf: the contents do not match where the 1 chapters start"):
        make_pdf.main(["--build-dir", str(tmp_path), "--no-build"])
    assert list(tmp_path.iterdir()) == []
    monkeypatch.setattr(make_pdf, "print_pdf", lambda page, chromium: {
        "pdf": tiny_pdf(link=True), "chapters": [["a", "A"]], "pages": [2], "relinked": 0, "math": 0})
    make_pdf.main(["--build-dir", str(tmp_path), "--no-build"])
    assert (tmp_path / "goodput.pdf").read_bytes() == tiny_pdf(link=True)


@pytest.mark.parametrize("kind", ["/dev/full", "folder", "fifo", "under a file"])
def test_an_output_that_is_not_a_file_is_refused_and_left_alone(tmp_path: Path, kind: str) -> None:
    """--output /dev/full, a folder, a named pipe or a path under a file: exit 1 with one line before anything
    is built, the path untouched, nothing written beside it."""
    if kind == "/dev/full" and not Path("/dev/full").is_char_device():
        pytest.skip("this system has no /dev/full")
    build = tmp_path / "build"
    target = {"/dev/full": Path("/dev/full"), "folder": tmp_path / "out", "fifo": tmp_path / "pipe",
              "under a file": tmp_path / "file" / "goodput.pdf"}[kind]
    if kind == "folder":
        target.mkdir()
    elif kind == "fifo":
        os.mkfifo(target)
    elif kind == "under a file":
        target.parent.write_bytes(b"x")
    watched = target if kind != "under a file" else target.parent
    before = watched.stat()
    siblings = sorted(watched.parent.iterdir())
    result = subprocess.run([sys.executable, str(ROOT / "_ext" / "make_pdf.py"), "--build-dir", str(build),
                             "--output", str(target)], capture_output=True, text=True, check=False, timeout=60)
    assert result.returncode == 1 and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith(f"make pdf: --output {target}: ")
    after = watched.stat()
    assert (after.st_mode, after.st_ino, after.st_rdev, after.st_size) == (
        before.st_mode, before.st_ino, before.st_rdev, before.st_size)
    assert sorted(watched.parent.iterdir()) == siblings and not build.exists()


def test_print_css_and_scripts_are_files_of_ext_static() -> None:
    """The print edition's CSS, scripts and footer are read from _ext/static/, and the script holds none."""
    make_pdf = load_make_pdf()
    names = ("goodput-print.css", "goodput-print-footer.html", "goodput-print-settle.js", "goodput-print-number.js",
             "goodput-print-check.js", "goodput-print-prepare.js")
    source = (ROOT / "_ext" / "make_pdf.py").read_text(encoding="utf-8")
    for name in names:
        assert make_pdf.static(name).strip() and f'"{name}"' in source
    assert "@page" in make_pdf.static("goodput-print.css") and "@page" not in source
    assert "{title}" in make_pdf.static("goodput-print-footer.html")
