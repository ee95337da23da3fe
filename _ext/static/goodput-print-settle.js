// _ext/make_pdf.py: waits for MathJax to finish typesetting and for the fonts it uses.
async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) { await MathJax.startup.promise; }
  if (window.MathJax && MathJax.typesetPromise) { await MathJax.typesetPromise(); }
  await document.fonts.ready;
  return true;
}
