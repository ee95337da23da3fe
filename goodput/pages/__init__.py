"""Each page's numbers and sentences, one module per chapter.

A chapter cell calls one function here, which returns a mapping of values and
words, and glues it in a loop; every sentence that depends on the numbers is made
(and unit-tested) here, not in the chapter.
"""
