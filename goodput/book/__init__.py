"""The book's own layer: figures, tables styled for the page, and where the book's inputs are.

Chapters import from here and from :mod:`goodput.pages`; nothing in the numbers or
words layers imports from here.
"""
