// _ext/make_pdf.py: writes the page on which each chapter starts into the contents.
(pages) => {
  const cells = document.querySelectorAll('.goodput-contents .page');
  cells.forEach((cell, i) => { cell.textContent = pages[i] === undefined ? '' : String(pages[i]); });
  return cells.length;
}
