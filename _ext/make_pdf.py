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
   It prints twice: the first print tells on which page each chapter starts, for the contents.

Without a Chromium it fails at once with one line saying how to install one.
"""

from __future__ import annotations

import argparse
import datetime as dt
import html
import os
import re
import shutil
import subprocess
import sys
import zlib
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

#: The print edition's layout: A4, the theme's navigation hidden, each chapter on a new page.
PRINT_CSS = """
@page { size: A4; margin: 18mm 17mm 20mm 17mm; }
html { font-size: 10pt !important; }
body { background: white !important; }
/* Shadows print as blurred images: none in print. */
*, *::before, *::after { box-shadow: none !important; text-shadow: none !important; }
.bd-header, .bd-header-announcement, .bd-sidebar-primary, .bd-sidebar-secondary, .bd-header-article,
.prev-next-footer, .prev-next-area, .bd-footer, .bd-footer-article, .bd-footer-content, .headerlink,
.copybtn, .toggle-button, button, .search-button, .theme-switch-button, .skip-link, #pst-back-to-top,
.bd-search, .search-button-field, .sidebar-toggle, .dropdown-toggle, .goodput-provenance,
#jb-print-docs-body, .onlyprint, details.hide.above-input, details.hide.below-input {
  display: none !important;
}
.bd-container, .bd-container__inner, .bd-page-width, .bd-main, .bd-content, .bd-article-container,
.bd-article { max-width: none !important; width: 100% !important; margin: 0 !important;
  padding: 0 !important; overflow: visible !important; }
.bd-main .bd-content .bd-article-container .bd-article { padding: 0 !important; }
.goodput-chapter { break-before: page; }
h1, h2, h3, h4, .caption, figcaption { break-after: avoid; break-inside: avoid; }
/* The theme hides each page's first h1 in print (it prints its own title block, hidden here). */
.bd-main .bd-content .bd-article h1:first-of-type { display: block !important; }
.goodput-chapter > :is(h1, h2):first-of-type { font-size: 2rem !important; margin: 0 0 1.2rem !important; }
.goodput-chapter > section:not(.goodput-chapter) > :is(h2, h3):first-of-type { font-size: 1.4rem !important; }
.goodput-chapter > section:not(.goodput-chapter) > section > :is(h3, h4):first-of-type { font-size: 1.15rem !important; }
figure, table, img, svg, .math, mjx-container[display="true"], .admonition, .cell_output,
div.highlight, dl, .goodput-title, .goodput-contents li { break-inside: avoid; }
img { max-width: 100% !important; height: auto !important; }
pre, .output pre, .highlight pre { white-space: pre-wrap !important; word-break: break-word;
  overflow: visible !important; max-height: none !important; font-size: 8.5pt !important; }
.cell_output, .output, .scroll-output { max-height: none !important; overflow: visible !important; }
.table-wrapper, .pst-scrollable-table-container { overflow: visible !important; }
table { max-width: 100% !important; font-size: 8.5pt; }
table td, table th { word-break: normal; overflow-wrap: break-word; }
mjx-container[display="true"] { overflow: visible !important; }
a { text-decoration: none; }
figcaption, .caption, p.caption, .caption-text, table caption { color: #222 !important; }
.goodput-title { break-after: page; min-height: 240mm; display: flex; flex-direction: column;
  justify-content: center; }
.goodput-title h1 { font-size: 2.6rem !important; line-height: 1.15; margin-bottom: 0.5rem !important; }
.goodput-title .subtitle { font-size: 1.25rem; margin-bottom: 4rem; color: #444; }
.goodput-title table { font-size: 10pt; border: none; margin: 0; }
.goodput-title th { text-align: left; padding: 0.2rem 1.2rem 0.2rem 0; font-weight: 600; border: none;
  vertical-align: top; white-space: nowrap; }
.goodput-title td { padding: 0.2rem 0; border: none; font-family: monospace; overflow-wrap: anywhere; }
.goodput-title .note { margin-top: 3rem; font-size: 9pt; color: #444; max-width: 40rem; }
.goodput-contents { break-after: page; }
.goodput-contents h1 { margin-bottom: 1.5rem !important; }
.goodput-contents ol { list-style: none; padding: 0; margin: 0; }
.goodput-contents li { display: flex; align-items: baseline; margin: 0.35rem 0; font-size: 11pt; }
.goodput-contents li a { flex: 0 1 auto; }
.goodput-contents li .dots { flex: 1 1 auto; border-bottom: 0.5pt solid #bbb; margin: 0 0.5rem; }
.goodput-contents li .page { flex: 0 0 auto; min-width: 2rem; text-align: right; }
"""

#: Chromium's footer template: the book's title and the page number on every page.
FOOTER = """<div style="font-size:8pt; width:100%; margin:0 17mm; display:flex; justify-content:space-between;
 color:#555; font-family:sans-serif;"><span>{title}</span>
 <span><span class="pageNumber"></span> / <span class="totalPages"></span></span></div>"""

#: Waits for MathJax to finish typesetting and for the fonts it uses.
SETTLE_JS = """async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) { await MathJax.startup.promise; }
  if (window.MathJax && MathJax.typesetPromise) { await MathJax.typesetPromise(); }
  await document.fonts.ready;
  return true;
}"""

#: Writes the page on which each chapter starts into the contents.
NUMBER_JS = """(pages) => {
  const cells = document.querySelectorAll('.goodput-contents .page');
  cells.forEach((cell, i) => { cell.textContent = pages[i] === undefined ? '' : String(pages[i]); });
  return cells.length;
}"""

#: Formulas MathJax left as TeX, and images that did not load.
CHECK_JS = """() => ({
  rawTex: Array.from(document.querySelectorAll('.math, .mathjax_process, .tex2jax_process'))
    .filter(e => !e.querySelector('mjx-container') && /\\\\[a-zA-Z]+|\\$\\$/.test(e.textContent))
    .map(e => e.textContent.trim().slice(0, 80)),
  brokenImages: Array.from(document.images).filter(i => !i.complete || i.naturalWidth === 0)
    .map(i => i.getAttribute('src')),
  math: document.querySelectorAll('mjx-container').length,
})"""

#: Adds the title and contents pages, marks where each chapter starts, and makes every link to an
#: anchor of the page a link within it (so that it becomes a link within the PDF).
PREPARE_JS = """(args) => {
  const article = document.querySelector('article.bd-article') || document.querySelector('main');
  const chapters = [];
  const first = article.querySelector('section');
  const starts = [first, ...Array.from(article.querySelectorAll('span[id^="document-"]'))
    .map(span => span.nextElementSibling).filter(e => e && e.tagName === 'SECTION')];
  for (const section of starts) {
    if (!section || chapters.some(c => c.section === section)) continue;
    section.classList.add('goodput-chapter');
    // On one page the chapters are sections of the first one: their titles are h2, not h1.
    const heading = section.querySelector(':scope > h1, :scope > h2');
    let title = section.id;
    if (heading) {
      const copy = heading.cloneNode(true);
      copy.querySelectorAll('.headerlink').forEach(e => e.remove());
      title = copy.textContent.trim();
    }
    chapters.push({section, id: section.id, title});
  }
  // Links to anything on this page become #anchor links.
  let relinked = 0;
  for (const a of document.querySelectorAll('a[href]')) {
    const url = new URL(a.getAttribute('href'), document.baseURI);
    if (url.protocol !== 'file:' && !(url.protocol.startsWith('http') && url.host === location.host)) continue;
    const id = decodeURIComponent(url.hash.slice(1));
    if (!id) continue;
    const target = document.getElementById(id);
    if (!target) continue;
    // An empty span (Sphinx's "document-..." marker) has no box to land on: use what follows it.
    const landing = (target.tagName === 'SPAN' && !target.textContent && target.nextElementSibling
                     && target.nextElementSibling.id) ? target.nextElementSibling.id : id;
    a.setAttribute('href', '#' + landing);
    relinked++;
  }
  const title = document.createElement('section');
  title.className = 'goodput-title';
  title.innerHTML = args.title;
  const contents = document.createElement('section');
  contents.className = 'goodput-contents';
  contents.id = 'goodput-contents';
  contents.innerHTML = '<h1>Contents</h1><ol>' + chapters.map((c, i) =>
    `<li><a href="#${c.id}">${c.title.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</a>` +
    `<span class="dots"></span><span class="page"></span></li>`).join('') + '</ol>';
  article.prepend(contents);
  article.prepend(title);
  return {chapters: chapters.map(c => [c.id, c.title]), relinked};
}"""


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


def internal_links(pdf: bytes) -> list[tuple[int, int]]:
    """Each link within ``pdf`` as (page it is on, page it lands on), pages counted from 1.

    Chromium writes a link to an anchor of the printed page as a ``/Link`` annotation with a named
    ``/Dest``, and the names in the catalog's ``/Dests`` dictionary, each with the page object it
    lands on. Enough of PDF syntax is read here for what Chromium (Skia) writes; no library needed.
    """
    objects = pdf_objects(pdf)
    order = page_order(objects)
    number = {obj: i + 1 for i, obj in enumerate(order)}
    catalog = next(body for body in objects.values() if re.search(rb"/Type\s*/Catalog", body))
    dests_ref = re.search(rb"/Dests (\d+) 0 R", catalog)
    dests = {
        name: int(page)
        for name, page in re.findall(rb"/([^\s/\[\]<>()]+)\s*\[\s*(\d+) 0 R", objects[int(dests_ref.group(1))])
    } if dests_ref else {}
    links = []
    for page in order:
        for annot in annotations(objects, page):
            if b"/Link" not in annot:
                continue
            named = re.search(rb"/Dest\s*/([^\s/\[\]<>()]+)", annot)
            direct = re.search(rb"/(?:Dest|D)\s*\[\s*(\d+) 0 R", annot)
            target = dests.get(named.group(1)) if named else int(direct.group(1)) if direct else None
            if target in number:
                links.append((number[page], number[target]))
    return links


def chapter_pages(pdf: bytes, chapters: int) -> list[int]:
    """The page each chapter starts on: where the links of the contents page (the first with links) land."""
    links = internal_links(pdf)
    if not links:
        return []
    contents = links[0][0]
    return [target for page, target in links if page == contents][:chapters]


def pdf_objects(pdf: bytes) -> dict[int, bytes]:
    """The PDF's numbered objects (``N 0 obj ... endobj``), with those in object streams unpacked."""
    objects = {int(m.group(1)): m.group(2) for m in re.finditer(rb"(\d+) 0 obj\s*(.*?)\s*endobj", pdf, re.DOTALL)}
    for body in list(objects.values()):
        head = re.match(rb"<<(.*?)>>\s*stream\r?\n", body, re.DOTALL)
        if head is None or b"/ObjStm" not in head.group(1):
            continue
        data = zlib.decompress(body[head.end():])
        n = int(re.search(rb"/N (\d+)", head.group(1)).group(1))  # type: ignore[union-attr]
        first = int(re.search(rb"/First (\d+)", head.group(1)).group(1))  # type: ignore[union-attr]
        pairs = [int(x) for x in data[:first].split()]
        offsets = [(pairs[2 * i], pairs[2 * i + 1]) for i in range(n)]
        for i, (obj, offset) in enumerate(offsets):
            end = offsets[i + 1][1] if i + 1 < n else len(data) - first
            objects[obj] = data[first + offset: first + end].strip()
    return objects


def page_order(objects: dict[int, bytes]) -> list[int]:
    """The page objects in reading order, walking the page tree from the catalog."""
    catalog = next(body for body in objects.values() if re.search(rb"/Type\s*/Catalog", body))
    root = int(re.search(rb"/Pages (\d+) 0 R", catalog).group(1))  # type: ignore[union-attr]

    def walk(obj: int) -> list[int]:
        body = objects[obj]
        if re.search(rb"/Type\s*/Pages", body):
            kids = re.search(rb"/Kids\s*\[(.*?)\]", body, re.DOTALL)
            return [page for kid in re.findall(rb"(\d+) 0 R", kids.group(1)) for page in walk(int(kid))] if kids else []
        return [obj]

    return walk(root)


def annotations(objects: dict[int, bytes], page: int) -> list[bytes]:
    """The annotation dictionaries of a page object, in the order the page lists them."""
    annots = re.search(rb"/Annots\s*(\[(.*?)\]|(\d+) 0 R)", objects[page], re.DOTALL)
    if annots is None:
        return []
    listing = annots.group(2) if annots.group(2) is not None else objects[int(annots.group(3))]
    return [objects.get(int(ref), b"") for ref in re.findall(rb"(\d+) 0 R", listing)]


def print_pdf(page: Path, pdf: Path, chromium: str) -> dict[str, Any]:
    """Print the one-page book ``page`` to ``pdf`` in Chromium; return what was printed."""
    from playwright.sync_api import sync_playwright

    title, author, _ = book_settings()
    options = {
        "format": "A4", "print_background": True, "display_header_footer": True, "prefer_css_page_size": True,
        "header_template": "<span></span>", "footer_template": FOOTER.format(title=html.escape(title)),
        "outline": True, "tagged": True,
    }
    problems: list[str] = []
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
            tab.evaluate(SETTLE_JS)
            tab.add_style_tag(content=PRINT_CSS)
            prepared = tab.evaluate(PREPARE_JS, {"title": title_page(title, author)})
            tab.evaluate(SETTLE_JS)
            checked = tab.evaluate(CHECK_JS)
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
            tab.evaluate(NUMBER_JS, pages)
            printed = tab.pdf(path=str(pdf), **options)
            if chapter_pages(printed, chapters) != pages or len(pages) != chapters:
                raise SystemExit(f"make pdf: the contents do not match where the {chapters} chapters start: {pages}")
            context.close()
        finally:
            browser.close()
    return {"chapters": prepared["chapters"], "pages": pages, "relinked": prepared["relinked"], "math": checked["math"]}


def main(argv: list[str] | None = None) -> None:
    """``make pdf``: build the one-page book and print it to _build/pdf/goodput.pdf (or --output)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check-browser", action="store_true", help="only check that a Chromium is installed")
    parser.add_argument("--build-dir", type=Path, default=DEFAULT_BUILD, help="where the one-page book is built")
    parser.add_argument("--output", type=Path, help=f"the PDF (default: BUILD_DIR/{PDF_NAME})")
    parser.add_argument("--no-build", action="store_true", help="print the one-page book already in BUILD_DIR")
    args = parser.parse_args(argv)
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
    build = args.build_dir.resolve()
    output = (args.output or build / PDF_NAME).resolve()
    if args.no_build:
        page = build / "_build" / "singlehtml" / "index.html"
    else:
        page = build_single_page(build)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.unlink(missing_ok=True)
    printed = print_pdf(page, output, chromium)
    print(f"{len(printed['chapters'])} chapters on pages {printed['pages']}, {printed['math']} formulas typeset, "
          f"{printed['relinked']} links within the book")
    print(f"The PDF is at {output}")


if __name__ == "__main__":
    main()
