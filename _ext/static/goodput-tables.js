// The book's tables and what a command printed (a cell's stream output, which wraps to the column), on every
// page and on the one page make_pdf.py prints: a number is never parted from its unit at a line break ("18.3"
// at a line's end, "min" on the next), nor an ISO timestamp at its hyphens ("2025-01-" and "06T00:02:00Z").
// Each is wrapped in a span.goodput-nowrap (goodput-book.css, goodput-print.css); a timestamp in two, its date
// and its time, within a span.goodput-timestamp, which may break after the T in a narrow column of the HTML and
// is whole in print. The characters stay as they are, so that what a planner copies from a table is what the
// command prints. Prose is left alone.
(() => {
  'use strict';
  const UNITS = [
    'GB/s', 'TB/s', 'Gb/s', 'GiB/s', 'MB/s', 'node-days', 'node-hours', 'GPU-hours', 'GPU-days',
    'ms', 'min', 'mins', 's', 'h', 'd', 'days?', 'hours?', 'weeks?', 'months?', 'years?',
    '[KMGTP]i?B', 'points?', 'GPUs?', 'nodes?', 'billion', 'million', 'thousand',
  ];
  // A number (1,024 / 18.3 / -0.5 / 2.2e-5 / 85%) and its unit after one space; or an ISO 8601 timestamp.
  const NUMBER = String.raw`[-+\u2212]?\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?%?`;
  const TOGETHER = new RegExp(String.raw`(?<![\w.])(?:` +
    String.raw`\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?` +
    String.raw`|${NUMBER}[ \u00a0](?:${UNITS.join('|')}))(?![\w/-])`, 'g');

  const KEPT = 'table, div.cell_output div.output.stream pre';

  function nowrap(text) {
    const span = document.createElement('span');
    span.className = 'goodput-nowrap';
    span.textContent = text;
    return span;
  }

  function keepTogether(root) {
    const texts = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {acceptNode: node =>
      !node.parentElement.closest(KEPT) || node.parentElement.closest('script, style, mjx-container, .goodput-nowrap, .goodput-timestamp')
        ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT});
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      TOGETHER.lastIndex = 0;
      if (TOGETHER.test(node.data)) texts.push(node);
    }
    let kept = 0;
    for (const node of texts) {
      const pieces = [];
      let last = 0;
      TOGETHER.lastIndex = 0;
      for (let m = TOGETHER.exec(node.data); m; m = TOGETHER.exec(node.data)) {
        if (m.index > last) pieces.push(document.createTextNode(node.data.slice(last, m.index)));
        const at = /^\d{4}-\d{2}-\d{2}T/.test(m[0]) ? m[0].indexOf('T') + 1 : 0;
        if (at) {
          // A timestamp may break after its T (date, then time) where a narrow column needs it, never at a
          // hyphen; in print (goodput-print.css) it stays whole.
          const stamp = document.createElement('span');
          stamp.className = 'goodput-timestamp';
          stamp.append(nowrap(m[0].slice(0, at)), document.createElement('wbr'), nowrap(m[0].slice(at)));
          pieces.push(stamp);
        } else {
          pieces.push(nowrap(m[0]));
        }
        last = m.index + m[0].length;
        kept++;
      }
      if (last < node.data.length) pieces.push(document.createTextNode(node.data.slice(last)));
      node.replaceWith(...pieces);
    }
    return kept;
  }

  window.goodputKeepTogether = keepTogether;
  const run = () => keepTogether(document.querySelector('article.bd-article') || document.body);
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', run);
  else run();
})();
