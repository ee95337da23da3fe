"""The package's version, written once: :data:`goodput.__version__` re-exports it (numbers layer).

CITATION.cff repeats it (tests/test_citation.py checks); setuptools reads it as ``goodput.__version__``.
"""

__version__ = "0.2.0"
