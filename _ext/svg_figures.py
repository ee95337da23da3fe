"""Kernel start-up file for the print edition: matplotlib figures display as SVG, and only as SVG.

_ext/goodput_execute.py passes this file to every kernel (``--IPKernelApp.exec_files``) when the
book is built with ``GOODPUT_FIGURES=svg``, as ``make pdf`` does, so that the PDF's figures are
vectors. The HTML book keeps the PNGs the figures make themselves (``_repr_png_``). The
formatters are registered by name, so matplotlib is imported only by a chapter that makes a
figure, and nothing is left in the chapter's namespace.
"""


def _goodput_svg_figures() -> None:
    import io

    from IPython import get_ipython

    def svg(figure):  # saved under the book's style, as its PNG is: savefig.bbox "tight" keeps labels and legends whole
        import matplotlib

        from goodput.book.figures import STYLE

        buffer = io.StringIO()
        with matplotlib.rc_context(STYLE):
            figure.savefig(buffer, format="svg")
        return buffer.getvalue()

    formatters = get_ipython().display_formatter.formatters
    formatters["image/svg+xml"].for_type_by_name("matplotlib.figure", "Figure", svg)
    for mime in ("image/png", "image/jpeg", "application/pdf"):
        formatters[mime].for_type_by_name("matplotlib.figure", "Figure", lambda figure: None)


_goodput_svg_figures()
del _goodput_svg_figures
