"""The ``goodput`` command: the book's numbers without building the book.

Usage::

    goodput plan [--params FILE] [--gpus N --rate PER_GPU_HOUR | --mtbi DURATION]
                 [--checkpoint-cost DURATION] [--restart DURATION] [--interval DURATION]
                 [--format table|markdown|json]

Bad usage or bad input prints one line on stderr and exits with status 2.
A plan outside the first-order formula's range prints why on stderr and exits 1.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn

from goodput.errors import InputError

if TYPE_CHECKING:
    from goodput.params import Params

EXIT_USAGE = 2
EXIT_OUT_OF_RANGE = 1


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def _duration(name: str):  # type: ignore[no-untyped-def]
    """Argument type for a duration flag: a bare number means minutes."""
    from goodput.units import parse_duration

    def parse(text: str) -> float:
        try:
            return parse_duration(text, name, bare_unit="min")
        except InputError as exc:
            raise argparse.ArgumentTypeError(f"got {exc.value!r}, expected {exc.expected}") from None

    return parse


def _positive(name: str, kind: type = float):  # type: ignore[no-untyped-def]
    """Argument type for a positive number (``kind`` int or float)."""
    from goodput.units import positive_number

    def parse(text: str) -> float | int:
        try:
            value = positive_number(text, name)
            if kind is int:
                if value != int(value):
                    raise InputError(name, text, "a whole number of at least 1")
                return int(value)
            return value
        except InputError as exc:
            raise argparse.ArgumentTypeError(f"got {exc.value!r}, expected {exc.expected}") from None

    return parse


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser for every subcommand.

    Returns
    -------
    argparse.ArgumentParser
        The ``goodput`` parser.
    """
    parser = _Parser(prog="goodput", description="How often to checkpoint, and what goodput that leaves.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    plan = sub.add_parser(
        "plan",
        help="the optimum interval and the three losses for one fleet",
        description="Print the checkpoint interval and the goodput it leaves. Flags override the params file; "
        "with neither, the book's worked example is used. A bare number as a duration means minutes.",
    )
    plan.add_argument("--params", metavar="FILE", help="parameters file (YAML, as book/params.yml)")
    plan.add_argument("--gpus", type=_positive("--gpus", int), metavar="N", help="GPUs in the job")
    how = plan.add_mutually_exclusive_group()
    how.add_argument("--rate", type=_positive("--rate"), metavar="PER_GPU_HOUR", help="interruptions per GPU-hour")
    how.add_argument("--mtbi", type=_duration("--mtbi"), metavar="DURATION", help="mean time between interruptions")
    plan.add_argument("--checkpoint-cost", type=_duration("--checkpoint-cost"), metavar="DURATION")
    plan.add_argument("--restart", type=_duration("--restart"), metavar="DURATION")
    plan.add_argument("--interval", type=_duration("--interval"), metavar="DURATION", help="default: the optimum")
    plan.add_argument("--format", choices=("table", "markdown", "json"), default="table")
    return parser


def _mtbi(args: argparse.Namespace, params: Params) -> tuple[float, str]:
    """M after the command-line overrides, and where it came from.

    ``--rate`` uses ``--gpus`` (or the file's GPU count); ``--gpus`` alone
    keeps the file's per-GPU rate and rescales M to the new fleet size.
    """
    from goodput.params import mtbi_from_rate

    gpus = args.gpus or params.gpus
    if args.mtbi is not None:
        return float(args.mtbi), "--mtbi"
    if args.rate is not None:
        return mtbi_from_rate(args.rate, gpus), f"--rate {args.rate:g} per GPU-hour x {gpus:,} GPUs"
    if args.gpus:
        return params.mtbi * params.gpus / gpus, f"{params.describe_mtbi()}, rescaled to {gpus:,} GPUs"
    return params.mtbi, params.describe_mtbi()


def _run_plan(args: argparse.Namespace) -> int:
    from goodput.params import load_params
    from goodput.plan import file_sources, make_plan, render

    params = load_params(args.params)
    mtbi, m_source = _mtbi(args, params)
    cost = params.checkpoint_cost if args.checkpoint_cost is None else args.checkpoint_cost
    restart = params.restart if args.restart is None else args.restart
    sources = {**file_sources(params), "M": m_source, "T": "--interval"}
    if args.checkpoint_cost is not None:
        sources["C"] = "--checkpoint-cost"
    if args.restart is not None:
        sources["R"] = "--restart"
    plan = make_plan(cost, mtbi, restart, args.interval)
    if plan.problem is not None:
        print(f"goodput: {plan.problem}; no first-order number is printed", file=sys.stderr)
        return EXIT_OUT_OF_RANGE
    print(render(plan, args.format, sources))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``goodput`` command.

    Parameters
    ----------
    argv : sequence of str, optional
        Arguments without the program name; ``sys.argv[1:]`` when omitted.

    Returns
    -------
    int
        Exit status: 0 on success, 1 when the plan is outside the model's range, 2 on bad input.
    """
    args = build_parser().parse_args(argv)
    try:
        return _run_plan(args)
    except InputError as exc:
        print(f"goodput: error: {exc}", file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
