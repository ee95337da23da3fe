"""goodput: how often to checkpoint a large training job, and what goodput that leaves.

The package behind the book, in layers; a module imports only from its own layer or those below, never
relatively (``tests/test_layout.py`` and ruff's TID252 check). **numbers**: errors, validate, units, params,
model, exact, tiers, symbolic, simulate*, uncertainty, plan, sources, provenance, :mod:`goodput.logs`.
**words**: :mod:`~goodput.report` and :mod:`goodput.pages`. **book**: :mod:`goodput.book` and
:mod:`~goodput.cli`. **facade**: this module, the top layer, re-exporting the public API below; nothing in the
package imports it (the version is in :mod:`goodput._version`). Each name's module is imported on first use
(PEP 562), so NumPy, SymPy, SciPy, matplotlib and pandas load only where they are used.
"""

from __future__ import annotations

import importlib
from typing import Any

from goodput._version import __version__

#: Public name -> the module that defines it.
_EXPORTS = {
    "InputError": "goodput.errors",
    "parse_duration": "goodput.units",
    "format_duration": "goodput.units",
    "Params": "goodput.params",
    "load_params": "goodput.params",
    "optimal_interval": "goodput.model",
    "losses": "goodput.model",
    "range_check": "goodput.exact",
    "exact_goodput": "goodput.exact",
    "exact_optimal_interval": "goodput.exact",
    "exact_losses": "goodput.exact",
    "daly_interval": "goodput.exact",
    "Plan": "goodput.plan",
    "make_plan": "goodput.plan",
    "plan_for": "goodput.plan",
    "levers": "goodput.plan",
    "RECOMMENDED_MODEL": "goodput.plan",
    "Tiers": "goodput.tiers",
    "simulate": "goodput.simulate",
    "simulate_tiers": "goodput.simulate_tiers",
    "FailureProcess": "goodput.simulate",
    "poisson_interval": "goodput.uncertainty",
    "propagate": "goodput.uncertainty",
    "measure": "goodput.logs.measure",
    "render_plan": "goodput.report",
    "plan_report": "goodput.report",
}

__all__ = [  # noqa: PLE0604 - the names of _EXPORTS, which are strings
    "__version__", *_EXPORTS,
]


def __getattr__(name: str) -> Any:
    """Import a public name's module on first use."""
    if name in _EXPORTS:
        value = getattr(importlib.import_module(_EXPORTS[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'goodput' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
