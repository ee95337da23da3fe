"""A job's own logs: reading them, measuring C, M and R from them, and sample logs with a known truth.

- :mod:`goodput.logs.read`: the step and event log formats, read into checked arrays;
- :mod:`goodput.logs.measure`: C, M, R, lost work and goodput measured, against the model;
- :mod:`goodput.logs.samples`: a seeded simulation that writes logs whose truth is known.
"""
