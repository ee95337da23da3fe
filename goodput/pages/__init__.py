"""One page object per chapter: the chapter's values, already formatted, and the few clauses that branch.

Each chapter ``book/NAME.md`` has a module ``goodput.pages.NAME`` (``goodput.pages.goodput`` for
``book/goodput.md``) defining a frozen dataclass ``Page`` whose field names are the chapter's glue keys,
and ``build(params) -> Page``, which computes what the chapter quotes once, from the fleet's one plan
(:func:`goodput.plan.plan_for`). The chapter's first cell builds the page and glues it in one loop
(:func:`goodput.book.glue_page`) and its Markdown quotes the values with ``{glue:text}``. The fleet's
headline values, said alike on every page (its GPUs, C, M, R, the plan's interval and goodput, ...), are
formatted once in :class:`goodput.pages.common.Fleet`, which a ``Page`` inherits; it declares only its own.

The prose is in the chapter. A field holds a value as a person writes it ("18.6 min", "87.6%"), or
a short clause that truly branches on the numbers, or a :class:`Variant`: the name of one of a
paragraph's variants, each a Markdown file under ``book/variants/NAME/`` filled from the page's
values and glued as Markdown (``{glue:md}``). A variant may quote another: a clause that branches
inside a paragraph that branches is a file of its own (an empty file where the clause says nothing).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Variant:
    """Which variant of a paragraph the fleet's numbers choose.

    The text is ``book/variants/CHAPTER/FIELD.NAME.md``; ``{field}`` placeholders in it are filled
    from the page's other fields.

    Parameters
    ----------
    name : str
        The variant, e.g. ``"refused"``, ``"tiered"``.
    """

    name: str


class Raw(str):
    """A value a paragraph variant takes as it is, unescaped.

    Values filled into a variant are escaped for Markdown (a file name may hold ``<`` or ``&``, money
    holds ``$``). A value the package wrote as markup itself (an HTML link, escaped once) or one that
    stands inside a code block in the variant is marked ``Raw(...)`` instead.
    """

    __slots__ = ()
