// _ext/make_pdf.py: adds the title and contents pages, marks where each chapter starts, and makes
// every link to an anchor of the page a link within it (so that it becomes a link within the PDF).
(args) => {
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
  // Each heading takes the level its place in its chapter gives it: a chapter's title h1, its sections' h2,
  // their subsections' h3. On one page the first chapter's sections hold the other chapters, whose titles
  // Sphinx writes as h2 (and their sections as h3): Chromium builds the PDF's bookmarks from the heading
  // levels, and would nest every chapter under the first, beside that chapter's own sections. The element
  // is replaced, with its attributes and children; goodput-print.css sizes headings by level.
  let relevelled = 0;
  for (const heading of Array.from(article.querySelectorAll('h1, h2, h3, h4, h5, h6'))) {
    const chapter = heading.closest('.goodput-chapter');
    if (!chapter) continue;
    let level = 1;
    for (let e = heading.parentElement; e && e !== chapter; e = e.parentElement) {
      if (e.tagName === 'SECTION') level++;
    }
    level = Math.min(level, 6);
    if (heading.tagName === `H${level}`) continue;
    const renamed = document.createElement(`h${level}`);
    for (const {name, value} of Array.from(heading.attributes)) renamed.setAttribute(name, value);
    renamed.append(...heading.childNodes);
    heading.replaceWith(renamed);
    relevelled++;
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
  // A number in e-notation (2.2e-5, 1.22e-5) is kept on one line (goodput-print.css): Chromium would
  // break it after the exponent's hyphen. Only a span is added; the characters stay as they are.
  const E_NUMBER = /(?<![\w.])\d+(?:\.\d+)?e[-+]?\d+(?![\w.])/g;
  const texts = [];
  const walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT, {acceptNode: node =>
    node.parentElement.closest('script, style, mjx-container, .goodput-nowrap') ? NodeFilter.FILTER_REJECT
      : NodeFilter.FILTER_ACCEPT});
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    E_NUMBER.lastIndex = 0;
    if (E_NUMBER.test(node.data)) texts.push(node);
  }
  let unbroken = 0;
  for (const node of texts) {
    const parts = node.data.split(new RegExp(`(${E_NUMBER.source})`, 'g'));
    const pieces = parts.map((part, i) => {
      if (i % 2 === 0) return document.createTextNode(part);
      const span = document.createElement('span');
      span.className = 'goodput-nowrap';
      span.textContent = part;
      unbroken++;
      return span;
    });
    node.replaceWith(...pieces);
  }
  // A timestamp in a table (goodput-tables.js) may break after its T in the HTML's narrow column, at a <wbr>,
  // which Chromium honours even where white-space is nowrap: on paper the table has room, and it is whole.
  article.querySelectorAll('.goodput-timestamp > wbr').forEach(e => e.remove());
  // A table of more than a dozen rows, or one whose wrapped rows make it taller than about a third of a
  // page (LONG_TABLE_PX), may run over pages (goodput-print.css): mark it and each block around it up to
  // the chapter, which would otherwise keep it whole on a page of its own.
  const LONG_TABLE_PX = 380;
  let longTables = 0;
  for (const table of article.querySelectorAll('table')) {
    if (table.querySelectorAll('tbody tr').length <= 12 && table.getBoundingClientRect().height <= LONG_TABLE_PX) continue;
    longTables++;
    for (let e = table; e && e !== article && !e.classList.contains('goodput-chapter'); e = e.parentElement) {
      e.classList.add('goodput-long-table');
    }
  }
  // So may a block of code or output of more than 30 lines (the plan as the command prints it), which kept
  // whole would leave most of a page blank before it.
  for (const pre of article.querySelectorAll('pre')) {
    if (pre.textContent.split('\n').length <= 30) continue;
    for (let e = pre; e && e !== article && !e.classList.contains('goodput-chapter'); e = e.parentElement) {
      e.classList.add('goodput-long-block');
    }
  }
  // A section's heading is kept on one page with the text after it, at least LINES_PX of it (three lines;
  // a one-line paragraph takes the block after it too): Chromium takes break-after: avoid as a wish, and a
  // heading may otherwise end a page (make_pdf.py refuses such a PDF). Chapter titles start a page anyway;
  // a block taller than KEEP_PX (five lines or so) is left free to break, or every page would fill less.
  const KEEP_PX = 120, LINES_PX = 60;
  let kept = 0;
  for (const heading of article.querySelectorAll('section > :is(h2, h3, h4, h5)')) {
    if (heading.parentElement.classList.contains('goodput-chapter')) continue;
    const group = [];
    let height = 0;
    for (let next = heading.nextElementSibling; next && height < LINES_PX; next = next.nextElementSibling) {
      const h = next.getBoundingClientRect().height;
      if (h > KEEP_PX || height + h > KEEP_PX || /^H[1-6]$/.test(next.tagName) || next.tagName === 'SECTION') break;
      group.push(next);
      height += h;
    }
    if (!group.length) continue;
    const keep = document.createElement('div');
    keep.className = 'goodput-keep';
    heading.before(keep);
    keep.append(heading, ...group);
    kept++;
  }
  // A chapter's last section, if short (SECTION_PX, about 40% of a page: a heading, a paragraph and a small
  // table), is printed whole: split, its last lines would sit alone on the chapter's last page, the rest of
  // which stays blank as the next chapter starts a page. Where the last section is longer, its own last
  // subsection is looked at, and so on down. A section holding a long table or block may break anyway.
  const SECTION_PX = 400;
  let wholeSections = 0;
  for (const {section} of chapters) {
    let last = section;
    for (;;) {
      const subsections = Array.from(last.children).filter(
        e => e.tagName === 'SECTION' && !e.classList.contains('goodput-chapter'));
      if (!subsections.length) break;
      last = subsections[subsections.length - 1];
      if (last.classList.contains('goodput-long-table') || last.classList.contains('goodput-long-block')) break;
      if (last.getBoundingClientRect().height <= SECTION_PX) {
        last.classList.add('goodput-keep-section');
        wholeSections++;
        break;
      }
    }
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
  // Every heading's text, for make_pdf.py to title the PDF's bookmarks with.
  const headings = Array.from(article.querySelectorAll('h1, h2, h3, h4, h5, h6')).map(h => {
    const copy = h.cloneNode(true);
    copy.querySelectorAll('.headerlink').forEach(e => e.remove());
    return copy.textContent.trim();
  });
  return {chapters: chapters.map(c => [c.id, c.title]), relinked, relevelled, longTables, kept, unbroken, wholeSections,
          headings};
}
