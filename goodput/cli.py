"""The ``goodput`` command: the book's numbers without building the book.

Usage::

    goodput plan [--params FILE] [--gpus N --rate PER_GPU_HOUR | --mtbi DURATION]
                 [--checkpoint-cost DURATION] [--restart DURATION] [--interval DURATION]
                 [--format table|markdown|json]
    goodput measure (--steps STEPS.csv --events EVENTS.csv | --params FILE) [--interval DURATION]
                    [--format table|json]
    goodput simulate [plan inputs] [--interval DURATION] [--horizon DURATION] [--seed N]
                     [--failures exponential|weibull] [--shape K] [--hazard renewal|run-age]
                     [--format table|json]

Bad usage or bad input prints one line on stderr and exits with status 2.
A plan outside the first-order formula's range prints why on stderr and exits 1.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn

from goodput.errors import InputError

if TYPE_CHECKING:
    from goodput.logs import Measurement
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


def _seed(text: str) -> int:
    """Argument type for a random seed: a whole number, zero or more."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"got {text!r}, expected a whole number of zero or more") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"got {text!r}, expected a whole number of zero or more")
    return value


def _add_inputs(parser: argparse.ArgumentParser) -> None:
    """The inputs every planning subcommand takes: a params file and flags that override it."""
    parser.add_argument("--params", metavar="FILE", help="parameters file (YAML, as book/params.yml)")
    parser.add_argument("--gpus", type=_positive("--gpus", int), metavar="N", help="GPUs in the job")
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--rate", type=_positive("--rate"), metavar="PER_GPU_HOUR", help="interruptions per GPU-hour")
    how.add_argument("--mtbi", type=_duration("--mtbi"), metavar="DURATION", help="mean time between interruptions")
    parser.add_argument("--checkpoint-cost", type=_duration("--checkpoint-cost"), metavar="DURATION")
    parser.add_argument("--restart", type=_duration("--restart"), metavar="DURATION")
    parser.add_argument("--interval", type=_duration("--interval"), metavar="DURATION", help="default: the optimum")


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
    _add_inputs(plan)
    plan.add_argument("--model", choices=("first-order", "exact"), default="first-order",
                      help="first-order: T* = sqrt(2CM); exact: exponential failures, Lambert-W optimum")
    plan.add_argument("--format", choices=("table", "markdown", "json"), default="table")
    plan.set_defaults(run=_run_plan)

    simulate = sub.add_parser(
        "simulate",
        help="Monte Carlo simulation of the job's goodput, with its standard error",
        description="Simulate the checkpointed job (failures may strike during checkpoints and restarts) and "
        "print the simulated goodput, its standard error and the loss breakdown. Inputs as for plan; without "
        "--interval the exact optimum is used.",
    )
    _add_inputs(simulate)
    simulate.add_argument("--horizon", type=_duration("--horizon"), metavar="DURATION", default=100 * 365 * 24 * 60.0,
                          help="simulated wall time (default: 100 years)")
    simulate.add_argument("--seed", type=_seed, metavar="N", default=0, help="random seed (default 0)")
    simulate.add_argument("--failures", choices=("exponential", "weibull"), default="exponential")
    simulate.add_argument("--shape", type=_positive("--shape"), metavar="K", default=None,
                          help="Weibull shape (k < 1: more failures early); needs --failures weibull")
    simulate.add_argument("--hazard", choices=("renewal", "run-age"), default="renewal",
                          help="Weibull hazard restarts at each restart (renewal) or follows the run's age")
    simulate.add_argument("--format", choices=("table", "json"), default="table")
    simulate.set_defaults(run=_run_simulate)

    measure = sub.add_parser(
        "measure",
        help="measure C, M, R and goodput from step and event logs",
        description="Measure the checkpoint cost, the mean time between interruptions, the restart time and "
        "goodput from a job's logs, and compare measured with predicted goodput. The log formats are "
        "documented in the book's chapter on measuring from logs.",
    )
    measure.add_argument("--steps", metavar="STEPS.csv", help="step log: step,start,end,checkpoint")
    measure.add_argument("--events", metavar="EVENTS.csv", help="event log: time,event (start|failure|stop)")
    measure.add_argument("--params", metavar="FILE", help="take the log paths from this file's logs: key")
    measure.add_argument("--interval", type=_duration("--interval"), metavar="DURATION",
                         help="interval in use for the prediction (default: measured from the logs)")
    measure.add_argument("--format", choices=("table", "json"), default="table")
    measure.set_defaults(run=_run_measure)
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
        return mtbi_from_rate(params.rate_per_gpu_hour, gpus), f"{params.describe_mtbi()}, rescaled to {gpus:,} GPUs"
    return params.mtbi, params.describe_mtbi()


def _inputs(args: argparse.Namespace) -> tuple[float, float, float, dict[str, str]]:
    """C, M and R after the command-line overrides, and where each came from."""
    from goodput.params import load_params
    from goodput.plan import file_sources

    params = load_params(args.params)
    mtbi, m_source = _mtbi(args, params)
    cost = params.checkpoint_cost if args.checkpoint_cost is None else args.checkpoint_cost
    restart = params.restart if args.restart is None else args.restart
    sources = {**file_sources(params), "M": m_source, "T": "--interval"}
    if args.checkpoint_cost is not None:
        sources["C"] = "--checkpoint-cost"
    if args.restart is not None:
        sources["R"] = "--restart"
    return cost, mtbi, restart, sources


def _run_plan(args: argparse.Namespace) -> int:
    from goodput.plan import make_plan, render

    cost, mtbi, restart, sources = _inputs(args)
    plan = make_plan(cost, mtbi, restart, args.interval, which=args.model)
    if plan.problem is not None:
        print(f"goodput: {plan.problem}; no first-order number is printed (try --model exact)", file=sys.stderr)
        return EXIT_OUT_OF_RANGE
    print(render(plan, args.format, sources))
    return 0


#: Show a progress bar when a simulation is expected to take longer than this (seconds).
PROGRESS_AFTER_S = 2.0


def _run_simulate(args: argparse.Namespace) -> int:
    from goodput.exact import exact_goodput, exact_optimal_interval
    from goodput.simulate import estimated_seconds, simulate
    from goodput.units import format_minutes

    if args.shape is not None and args.failures != "weibull":
        raise InputError("--shape", args.shape, "--failures weibull as well (a shape only applies to Weibull)")
    cost, mtbi, restart, _ = _inputs(args)
    interval = float(exact_optimal_interval(cost, mtbi)) if args.interval is None else args.interval
    options = {"failures": args.failures, "shape": args.shape or 1.0, "hazard": args.hazard}
    slow = estimated_seconds(mtbi, args.horizon, **options) > PROGRESS_AFTER_S
    result = simulate(cost, mtbi, restart, interval, args.horizon, seed=args.seed, progress=slow or None, **options)
    expected = float(exact_goodput(cost, mtbi, restart, interval))
    if args.format == "json":
        import json

        data = {
            "goodput": result.goodput,
            "stderr": result.stderr,
            "failures": result.failures,
            "checkpoint_overhead": result.checkpoint_overhead,
            "lost_work": result.lost_work,
            "restart_loss": result.restart_loss,
            "interval_min": interval,
            "mtbi_min": mtbi,
            "horizon_min": args.horizon,
            "seed": args.seed,
            "failure_process": args.failures,
            "shape": args.shape or 1.0,
            "hazard": args.hazard,
            "exact_goodput": expected if args.failures == "exponential" else None,
        }
        print(json.dumps(data, indent=2))
        return 0
    years = args.horizon / (365 * 24 * 60)
    process = args.failures if args.failures == "exponential" else f"Weibull, shape {args.shape or 1.0:g}, {args.hazard}"
    lines = [
        f"Simulated {years:,.6g} years of wall time ({result.failures:,} failures, {process}; seed {args.seed})",
        (f"C = {format_minutes(cost)}, M = {format_minutes(mtbi)}, R = {format_minutes(restart)}, "
        f"T = {format_minutes(interval)}"),
        "",
        f"  checkpoint overhead   {result.checkpoint_overhead:7.2%}",
        f"  lost work             {result.lost_work:7.2%}",
        f"  restart               {result.restart_loss:7.2%}",
        "  " + "-" * 29,
        f"  goodput               {result.goodput:7.2%}  standard error {100 * result.stderr:.2g} points",
    ]
    if args.failures == "exponential":
        z = (result.goodput - expected) / result.stderr if result.stderr > 0 else float("nan")
        lines.append(f"  exact model           {expected:7.2%}  ({z:+.1f} standard errors from the simulation)")
    print("\n".join(lines))
    return 0


def _log_paths(args: argparse.Namespace) -> tuple[str, str]:
    """The step and event logs named by --steps/--events, or by the params file's logs: key."""
    if args.steps and args.events:
        return args.steps, args.events
    if args.steps or args.events:
        raise InputError("--steps/--events", args.steps or args.events, "both --steps and --events")
    if args.params:
        from goodput.params import load_params

        params = load_params(args.params)
        if params.steps_log is not None and params.events_log is not None:
            return str(params.steps_log), str(params.events_log)
        raise InputError("--params", args.params, "a params file with a logs: {steps, events} key")
    raise InputError("goodput measure", "no logs", "--steps FILE --events FILE, or --params FILE with a logs: key")


def _interval_text(low: float, high: float, digits: int = 3) -> str:
    from goodput.units import format_minutes

    if math.isnan(low) or math.isnan(high):
        return "no interval"
    return f"[{format_minutes(low, digits)}, {format_minutes(high, digits) if high != float('inf') else 'inf'}]"


def render_measurement(m: Measurement, fmt: str = "table") -> str:
    """Print a measurement as a terminal table or one JSON object.

    Parameters
    ----------
    m : goodput.logs.Measurement
        The measurement.
    fmt : {"table", "json"}
        Output format.

    Returns
    -------
    str
        The rendered measurement, without a trailing newline.
    """
    import json

    from goodput.units import format_minutes

    if fmt == "json":
        return json.dumps(m.to_dict(), indent=2)
    pct = f"{m.confidence:.0%}"
    rows = [
        ("checkpoint cost, C", format_minutes(m.checkpoint_cost_min), f"{pct} CI {_interval_text(*m.checkpoint_cost_interval_min)}"),
        ("mean time between interruptions, M", format_minutes(m.mtbi_min) if m.failures else "no failure",
         f"{pct} CI {_interval_text(*m.mtbi_interval_min)}; {m.failures} failures in {format_minutes(m.exposure_min)}"),
        ("restart time, R", format_minutes(m.restart_min) if m.restart_samples else "no restart",
         f"{pct} CI {_interval_text(*m.restart_interval_min)}; median {format_minutes(m.restart_median_min)}"
         if m.restart_samples else ""),
        ("checkpoint interval, T", format_minutes(m.interval_min),
         f"{m.interval_source}; optimum sqrt(2CM) {format_minutes(m.optimal_interval_min)}"
         if m.failures else m.interval_source),
        ("lost work per failure", format_minutes(m.lost_work_per_failure_min) if m.failures else "-", ""),
    ]
    width = max(len(r[0]) for r in rows)
    vwidth = max(len(r[1]) for r in rows)
    lines = [f"Measured from {m.steps_source} and {m.events_source}", "", "inputs:"]
    lines += [f"  {k:<{width}}  {v:>{vwidth}}   {note}".rstrip() for k, v, note in rows]
    losses = [
        ("checkpoint", m.checkpoint_loss_measured, m.checkpoint_loss_predicted),
        ("lost work", m.lost_work_loss_measured, m.lost_work_loss_predicted),
        ("restart", m.restart_loss_measured, m.restart_loss_predicted),
        ("unmodelled", m.unmodelled_loss, None),
        ("goodput", m.measured_goodput, m.predicted_goodput),
    ]
    lines += ["", f"  {'share of wall time':<{width}}  {'measured':>9}  {'predicted':>9}"]
    for name, measured, predicted in losses:
        if name == "goodput":
            lines.append("  " + "-" * (width + 22))
        right = f"{predicted:.1%}" if predicted is not None and not math.isnan(predicted) else "-"
        lines.append(f"  {name:<{width}}  {measured:>9.1%}  {right:>9}")
    if m.model_note:
        lines += ["", f"note: {m.model_note}"]
    return "\n".join(lines)


def _run_measure(args: argparse.Namespace) -> int:
    from goodput.logs import measure

    steps, events = _log_paths(args)
    print(render_measurement(measure(steps, events, args.interval), args.format))
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
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.run(args)
        return status
    except InputError as exc:
        print(f"goodput: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # the reader (e.g. `head`) closed the pipe: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
