"""The ``goodput`` command's entry point (and ``python -m goodput``).

A Ctrl-C exits 130 from the first instruction: the command's own modules load inside the guard, so an interruption
while they load is an interruption too, not a traceback (:func:`goodput.cli.main` guards the rest).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

#: The exit status of an interrupted command (128 + SIGINT); :mod:`goodput.cli` uses it too.
EXIT_INTERRUPTED = 130


def main(argv: Sequence[str] | None = None) -> int:
    """Load the command and run it on `argv`; exit 130 on a Ctrl-C at any moment."""
    try:
        from goodput.cli import main as run
    except KeyboardInterrupt:
        sys.stderr.write("goodput: interrupted\n")
        return EXIT_INTERRUPTED
    return run(argv)


if __name__ == "__main__":
    sys.exit(main())
