// _ext/make_pdf.py: formulas MathJax left as TeX, and images that did not load.
() => ({
  rawTex: Array.from(document.querySelectorAll('.math, .mathjax_process, .tex2jax_process'))
    .filter(e => !e.querySelector('mjx-container') && /\\[a-zA-Z]+|\$\$/.test(e.textContent))
    .map(e => e.textContent.trim().slice(0, 80)),
  brokenImages: Array.from(document.images).filter(i => !i.complete || i.naturalWidth === 0)
    .map(i => i.getAttribute('src')),
  math: document.querySelectorAll('mjx-container').length,
})
