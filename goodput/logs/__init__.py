"""A job's own logs: reading them, measuring C, M and R from them, and sample logs with a known truth.

- :mod:`goodput.logs.read`: the step and event log formats, read into checked arrays;
- :mod:`goodput.logs.measure`: C, M, R, lost work and goodput measured, against the model;
- :mod:`goodput.logs.events`: what an event log (or Slurm's accounting) alone gives;
- :mod:`goodput.logs.fit`: the shape of the failures (a Weibull fit with intervals);
- :mod:`goodput.logs.sacct`: Slurm accounting output read as an event log;
- :mod:`goodput.logs.samples`: a seeded simulation that writes logs whose truth is known.

:func:`json_ready` turns what the measurements hold into values JSON can carry.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np


def json_ready(value: Any) -> Any:
    """A measured value as plain JSON: tuples as lists, NumPy scalars as Python ones, inf and nan as ``None``.

    >>> json_ready((np.float64(1.5), math.inf)), json_ready(np.int64(3)), json_ready(np.bool_(True))
    ([1.5, None], 3, True)
    """
    if isinstance(value, tuple):
        return [json_ready(v) for v in value]
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return float(value) if math.isfinite(value) else None
    return value
