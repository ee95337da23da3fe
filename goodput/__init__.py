"""goodput: how often to checkpoint a large training job, and what goodput that leaves.

The package behind the book. Modules, one idea each:

- :mod:`goodput.units` and :mod:`goodput.params`: the inputs and their parsing;
- :mod:`goodput.model`: the first-order model (T* = sqrt(2CM), three losses);
- :mod:`goodput.exact`: the exact model of exponential failures, its Lambert-W optimum, Daly;
- :mod:`goodput.simulate`: the Monte Carlo simulator that tests both models;
- :mod:`goodput.plan`: one plan for a fleet, the levers, and how it is printed;
- :mod:`goodput.derivation`: the symbolic derivation with SymPy;
- :mod:`goodput.logs` and :mod:`goodput.samplelogs`: measuring C, M and R from logs, and sample logs;
- :mod:`goodput.uncertainty`: intervals of the inputs carried to T* and goodput;
- :mod:`goodput.sources`: published figures the book cites;
- :mod:`goodput.figures`, :mod:`goodput.scalefigures`, :mod:`goodput.logfigures`: the book's figures;
- :mod:`goodput.provenance`: the version and inputs a build was made from;
- :mod:`goodput.cli`: the ``goodput`` command.

Importing the package is cheap: SymPy, matplotlib and pandas load only in the
modules that use them.
"""

__version__ = "0.1.0"
