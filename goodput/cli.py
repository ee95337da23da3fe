"""The ``goodput`` command (``plan``, ``measure``, ``simulate``): the book's numbers without building the book.

Usage is ``goodput --help``; the exit statuses are :data:`EXIT_CODES` (0 a result; 1 refused, the reason on stderr and
no number on stdout; 2 bad usage or input, one line on stderr; 74 a write error; 130 interrupted; 141 a closed pipe).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, NoReturn

from goodput import validate
from goodput.__main__ import EXIT_INTERRUPTED
from goodput.errors import InputError, Refused
from goodput.params import jit_share, parse_month
from goodput.storage import parse_bandwidth, parse_efficiency, parse_size, storage_price
from goodput.units import format_duration, parse_duration

if TYPE_CHECKING:
    from goodput.params import Params
    from goodput.plan import Plan
    from goodput.simulate import SimulatedLosses

EXIT_OK = 0
EXIT_REFUSED = 1
EXIT_USAGE = 2
EXIT_WRITE_ERROR = 74
EXIT_BROKEN_PIPE = 141

EXIT_CODES = f"""exit status:
  {EXIT_OK}    a result
  {EXIT_REFUSED}    refused: the model does not apply to these inputs (why, on stderr)
  {EXIT_USAGE}    bad usage or bad input (one line on stderr naming it)
  {EXIT_WRITE_ERROR}   the output could not be written
  {EXIT_INTERRUPTED}  interrupted
  {EXIT_BROKEN_PIPE}  the output's reader went away (a closed pipe)"""


class _Once(argparse.Action):
    """Store an option's value, refusing the option when it is given twice (a second value would silently win)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        seen: set[str] = namespace.__dict__.setdefault("_given", set())
        if self.dest in seen:
            parser.error(f"{option_string} is given more than once; give it once")
        seen.add(self.dest)
        setattr(namespace, self.dest, values)


class _Parser(argparse.ArgumentParser):
    """A parser whose errors are one line on stderr and exit status 2, options given once, help ending in exit codes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs |= {"formatter_class": argparse.RawDescriptionHelpFormatter, "epilog": EXIT_CODES}
        super().__init__(*args, **kwargs)
        self.register("action", None, _Once)
        self.register("action", "store", _Once)

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


#: Readers of a duration flag: a bare number means minutes.
_minutes = partial(parse_duration, bare_unit="min")
_minutes_or_zero = partial(parse_duration, bare_unit="min", allow_zero=True)


#: The dests of the options that take a duration (metavar DURATION), filled as the parser is built: a value of theirs
#: in minutes is written as a duration in an error (:func:`_as_given`).
_DURATION_OPTIONS: set[str] = set()


def _add(group: argparse._ActionsContainer, flag: str, read: Callable[[str, str], Any] | None = _minutes,
         metavar: str = "DURATION", help: str | None = None, **kwargs: Any) -> None:
    """One option read by ``read(text, flag)`` (default: a duration; None: as text), its InputError a usage error."""
    if metavar == "DURATION":
        _DURATION_OPTIONS.add(flag.removeprefix("--").replace("-", "_"))
    if read is not None:
        def parse(text: str) -> Any:
            try:
                return read(text, flag)
            except InputError as exc:
                raise argparse.ArgumentTypeError(str(exc).split(": ", 1)[1]) from None

        parse.__name__ = flag
        kwargs["type"] = parse
    group.add_argument(flag, metavar=metavar, help=help, **kwargs)


def _add_inputs(parser: argparse.ArgumentParser, capacity: bool = True) -> None:
    """The inputs every planning subcommand takes: a params file and flags that override it.

    With `capacity`, the price and month that count capacity (``plan``; ``simulate`` counts none, so takes neither).
    """
    _add(parser, "--params", None, "FILE", "parameters file (YAML, as book/params.yml)")
    _add(parser, "--gpus", partial(validate.whole, most=validate.MOST_GPUS), "N",
         "GPUs in the job (alone: the file's per-GPU rate, M rescaled)")
    how = parser.add_mutually_exclusive_group()
    _add(how, "--rate", validate.positive, "PER_GPU_HOUR", "interruptions per GPU-hour")
    _add(how, "--mtbi", help="mean time between interruptions")
    _add(parser, "--checkpoint-cost")
    _add(parser, "--restart")
    _add(parser, "--interval", help="default: the optimum")
    if capacity:
        _add(parser, "--price", validate.price, "USD", "US dollars per GPU-hour, to count capacity (default: the file's)")
        _add(parser, "--month", partial(parse_month, bare_unit="min"),
             help="the accounting month, to count capacity (default: the file's)")
    tiers = parser.add_argument_group("checkpoints that are not yet safe (a drain, a persistent tier)")
    _add(tiers, "--drain", _minutes_or_zero, help="time after a checkpoint's snapshot until it is durable")
    _add(tiers, "--persistent-cost", None, help="C_p: a persistent checkpoint's blocking cost")
    _add(tiers, "--persistent-restart", None, help="R_p: a restart from the persistent tier")
    _add(tiers, "--fast-survives", validate.share, "FRACTION", "share of interruptions the fast tier survives (0 to 1)")
    _add(tiers, "--persistent-every", None, "N", "every N-th checkpoint persistent (default: the best N)")


#: Flags of what a planner knows: dest -> the key of :class:`goodput.params.Known` it sets.
_KNOWN_FLAGS = {"checkpoint_size": "size", "parameters": "parameters", "bytes_per_parameter": "bytes_per_parameter",
                "write_bandwidth": "write_bandwidth", "read_bandwidth": "read_bandwidth",
                "bandwidth_efficiency": "efficiency", "snapshot_bandwidth": "snapshot_bandwidth",
                "host_memory": "host_memory", "storage_price": "storage_price"}
#: Flags of the restart's parts (dest = the part's name), and of the spares.
_PART_FLAGS = ("detect", "replace", "startup", "startup_per_node", "load", "warmup")
_SPARE_FLAGS = ("spares", "repair", "takes_node")


def _flag(dest: str) -> str:
    """The flag that sets `dest`: ``--checkpoint-cost`` for ``checkpoint_cost``."""
    return "--" + dest.replace("_", "-")


def _add_planner_inputs(parser: argparse.ArgumentParser) -> None:
    """The inputs a planner knows: the model and the storage, the restart's parts, spares, recovery without rollback."""
    model = parser.add_argument_group("from the model and the storage (C, D and the load derived; see the params file's "
                                      "checkpoint:, storage: and snapshot:)")
    _add(model, "--checkpoint-size", parse_size, "SIZE", "the checkpoint's size, e.g. '2.3 TB' or '650 GiB'")
    _add(model, "--parameters", validate.positive, "N",
         "the model's parameter count, e.g. 530e9 (size = N x bytes per parameter)")
    _add(model, "--bytes-per-parameter", validate.positive, "B", "14 (default: bf16 weights, fp32 master weights, two "
         "fp32 moments), 12 without the bf16 copy, 16 with fp32 gradients")
    _add(model, "--gpus-per-node", partial(validate.whole, most=validate.MOST_GPUS), "N", "GPUs per node (default 8)")
    _add(model, "--write-bandwidth", parse_bandwidth, "BANDWIDTH",
         "the storage's aggregate write bandwidth: '20 Gb/s' is bits, '2.5 GB/s' bytes")
    _add(model, "--read-bandwidth", parse_bandwidth, "BANDWIDTH",
         "its aggregate read bandwidth (the load, part of the restart)")
    _add(model, "--bandwidth-efficiency", parse_efficiency, "FRACTION",
         "the share of the stated bandwidths achieved (default 1: the figures are measured)")
    _add(model, "--snapshot-bandwidth", parse_bandwidth, "BANDWIDTH",
         "a snapshot to host memory: device-to-host bandwidth per node")
    _add(model, "--host-memory", parse_size, "SIZE",
         "host memory free per node for the snapshot (refused when the snapshot does not fit)")
    _add(model, "--storage-price", storage_price, "USD", "US dollars per "
         "GB/s of stated write bandwidth per month (e.g. 1500): the best write bandwidth net of its cost")
    _add(model, "--target-goodput", partial(validate.share, open_low=True, open_high=True, expected="a goodput "
         "strictly between 0 and 1, e.g. 0.9"), "FRACTION", "the write bandwidth (and C) a goodput needs, e.g. 0.9")
    parts = parser.add_argument_group("the restart's parts (R is their sum; instead of --restart)")
    for part in _PART_FLAGS:
        _add(parts, _flag(part), _minutes_or_zero)
    spares = parser.add_argument_group("hot spare nodes (R includes the expected wait for repairs)")
    _add(spares, "--spares", partial(validate.whole, least=0, most=validate.MOST_HELD_SPARES), "N", "spare nodes held")
    _add(spares, "--repair", help="mean time to repair a node")
    _add(spares, "--takes-node", validate.share, "FRACTION", "share of interruptions that take a node out")
    _add_recovery(parser)


def _add_recovery(parser: argparse.ArgumentParser) -> None:
    """Recovery without rollback and planned stops (plan and simulate)."""
    jit = parser.add_argument_group("recovery without rollback and planned stops")
    _add(jit, "--just-in-time", jit_share, "FRACTION", "share of interruptions recovered just in time, without going back to a checkpoint")
    _add(jit, "--planned-rate", _planned_rate, "RATE",
         "planned stops with notice, e.g. '0.036 per hour' (a bare number: per hour)")


def _planned_rate(text: str, name: str) -> float:
    """A rate of planned stops per hour: ``"0.036 per hour"``, ``"0.87 per day"`` or a bare number (per hour)."""
    from goodput.params import parse_rate, planned_per_hour

    try:
        per_hour = validate.non_negative(text, name)
    except InputError:
        return parse_rate(text, name)
    return planned_per_hour(per_hour, name, text)


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser for every subcommand."""
    from goodput.exact import MODELS
    from goodput.plan import RECOMMENDED_MODEL

    parser = _Parser(prog="goodput", description="How often to checkpoint, and what goodput that leaves.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    plan = sub.add_parser(
        "plan",
        help="the optimum interval and the losses for one fleet",
        description="Print the checkpoint interval and the goodput it leaves. Flags override the params file; "
        "with neither, the book's worked example is used. A bare number as a duration means minutes.",
    )
    _add_inputs(plan)
    _add_planner_inputs(plan)
    plan.add_argument("--model", choices=MODELS, default=RECOMMENDED_MODEL,
                      help="exact (default): exponential failures, Lambert-W optimum; first-order: T* = sqrt(2CM)")
    plan.add_argument("--format", choices=("table", "markdown", "json"), default="table")
    plan.set_defaults(run=_run_plan)

    simulate = sub.add_parser(
        "simulate",
        help="Monte Carlo simulation of the job's goodput, with its standard error",
        description="Simulate the checkpointed job (failures may strike during checkpoints and restarts) and "
        "print the simulated goodput, its standard error and the loss breakdown. Inputs as for plan; without "
        "--interval the exact optimum is used.",
    )
    _add_inputs(simulate, capacity=False)
    _add_recovery(simulate)
    _add(simulate, "--horizon", help="simulated wall time (default: 100 years)", default=100 * 365 * 24 * 60.0)
    _add(simulate, "--seed", partial(validate.whole, least=0, most=2**63 - 1), "N", "random seed (default 0)", default=0)
    simulate.add_argument("--failures", choices=("exponential", "weibull"), default="exponential")
    _add(simulate, "--shape", validate.positive, "K", "Weibull shape (k < 1: more failures early); needs --failures weibull")
    simulate.add_argument("--hazard", choices=("renewal", "run-age"), default=None,
                          help="Weibull hazard restarts at each failure (renewal, default) or follows the run's age")
    simulate.add_argument("--format", choices=("table", "json"), default="table")
    simulate.set_defaults(run=_run_simulate)

    measure = sub.add_parser(
        "measure",
        help="measure C, M, R and goodput from step and event logs, or M, R and the failures' shape from events alone",
        description="Measure the checkpoint cost, the mean time between interruptions, the restart time and "
        "goodput from a job's logs, and compare measured with predicted goodput. With an event log alone (or "
        "Slurm's accounting, --sacct), measure M, R, the failures and the Weibull shape of the gaps between them, "
        "and say what needs a step log. The log formats are documented in the book's chapter on measuring from "
        "logs.",
    )
    _add(measure, "--steps", None, "STEPS.csv", "step log: step,start,end,checkpoint (needs --events)")
    _add(measure, "--events", None, "EVENTS.csv",
         "event log: time,event (start|failure|stop); alone: M, R and the failures' shape")
    _add(measure, "--sacct", None, "FILE",
         "Slurm accounting, alone: sacct --duplicates --parsable2 --format=JobID,Start,End,Elapsed,State")
    _add(measure, "--params", None, "FILE", "take the log paths from this file's logs: key")
    _add(measure, "--interval", help="interval in use for the prediction (default: measured from the logs; needs --steps)")
    measure.add_argument("--model", choices=MODELS, default=RECOMMENDED_MODEL,
                         help="the model of the prediction (with a step log)")
    measure.add_argument("--format", choices=("table", "json"), default="table")
    measure.set_defaults(run=_run_measure)
    return parser


# --------------------------------------------------------------------------- inputs


def _inputs(args: argparse.Namespace) -> tuple[Params, dict[str, str]]:
    """The inputs after the command-line overrides, and where each came from.

    ``--rate`` uses ``--gpus`` (or the file's GPU count); ``--gpus`` alone keeps the file's per-GPU rate and rescales M;
    ``--mtbi`` gives M as is (``--gpus`` then only sets the fleet size the capacity is counted for). An input given on
    the command line drops the file's range of it, but for M from a count that ``--gpus`` rescales: the count's
    GPU-hours, and so its Poisson range, hold at any size.
    """
    from goodput.params import load_params, mtbi_of_rate
    from goodput.report import count, derived_sources, file_sources, mtbi_origin

    params = file_params = load_params(args.params)
    sources = file_sources(params)
    gpus = args.gpus or params.gpus
    ranges = dict(params.ranges)
    if args.mtbi is not None or args.rate is not None or args.gpus:
        if args.mtbi is not None:
            mtbi, how, sources["M"] = float(args.mtbi), "mtbi", "--mtbi"
        else:
            rate = params.rate_per_gpu_hour if args.rate is None else args.rate
            mtbi, how = mtbi_of_rate(rate, gpus, "--rate" if args.rate is not None else "--gpus"), "rate_per_gpu_hour"
            sources["M"] = (f"--rate {rate:g} per GPU-hour × {gpus:,} GPUs" if args.rate is not None
                            else f"{mtbi_origin(params)}, rescaled to {count(gpus, 'GPU')}")
        if args.mtbi is None and args.rate is None and params.counted:
            # a count rescaled: its exposure in GPU-hours, and so its Poisson range, holds at any size; at N GPUs it
            # is the count over a window (file's GPUs)/N as long
            params = params.replace(gpus=gpus, mtbi=mtbi, window=params.counted[1] * params.gpus / gpus)
        else:
            ranges.pop("mtbi", None)
            params = params.replace(gpus=gpus, mtbi=mtbi, mtbi_source=how, interruption_count=None, window=None)
    for key, symbol in (("checkpoint_cost", "C"), ("restart", "R")):
        if (value := getattr(args, key)) is not None:
            params, sources[symbol] = params.replace(**{key: value}), _flag(key)
            ranges.pop(key, None)
    if args.interval is not None:
        sources["T"] = "--interval"
    if (price := getattr(args, "price", None)) is not None:
        params, sources["price"] = params.replace(price_per_gpu_hour=price), "--price"
    elif args.params is None:
        sources["price"] = "the worked example's price (set --price)"
    if getattr(args, "month", None) is not None:
        params, sources["month"] = params.replace(month=args.month), "--month"
    # R_p as the file types it, before the wait for repairs, which the flags may change with M or the spares
    typed_rp = None if file_params.persistent_restart == file_params.restart else file_params.persistent_restart_typed
    params, sources = _planner_overrides(args, params.replace(ranges=ranges), sources)
    moved = None  # where R_p came from, where it moved with R's parts
    if typed_rp is not None and params.restart_parts is not None and file_params.restart_parts is not None:
        # R given as its parts: R_p moves with them (a start-up per node at another size, a part's flag), as the book
        # moves it with the fleet's size (FleetPlan.with_restart)
        shift = (params.restart - params.stop_saving) - (file_params.restart - file_params.stop_saving)
        if shift and args.persistent_restart is None:
            moved = f"{format_duration(typed_rp)} in {file_params.source}, moved with R's parts by {format_duration(shift)}"
        typed_rp += shift
    params, sources = _tier_overrides(args, params, sources, typed_rp)
    if moved is not None:
        sources["R_p"] = moved
    # a range of an input the flags changed (D, C_p, R_p, s, p, the slow C) no longer applies
    ranges = {key: r for key, r in params.ranges.items() if getattr(params, key) == getattr(file_params, key)}
    # a derived input: how; R as every page writes it, the sum of its parts
    return params.replace(ranges=ranges), derived_sources(params, sources)


def _planner_overrides(args: argparse.Namespace, params: Params,
                       sources: dict[str, str]) -> tuple[Params, dict[str, str]]:
    """Lay the flags of what a planner knows over the file's, and derive C, D and R again (:func:`goodput.params.derive`).

    A flag beats the file: a duration flag (``--checkpoint-cost``, ``--restart``, ``--drain``) beats the file's
    derivation of it, a storage flag the file's typed duration; a duration and what derives it, both on the command
    line, are refused. M, the GPUs and the nodes are the command's, so the start-up per node and the waits for repairs
    follow them.
    """
    import dataclasses

    from goodput.params import Known, derive
    from goodput.restart import Spares

    flags: dict[str, Any] = {dest: getattr(args, dest) for dest in (*_KNOWN_FLAGS, *_PART_FLAGS, *_SPARE_FLAGS,
                                                                    "gpus_per_node", "just_in_time", "planned_rate")
                             if getattr(args, dest, None) is not None}
    for dest, symbol in (("just_in_time", "p"), ("planned_rate", "q")):
        if dest in flags:
            params, sources[symbol] = params.replace(**{dest: flags.pop(dest)}), _flag(dest)
    per_node = flags.pop("gpus_per_node", None)
    if per_node is not None:
        params = params.replace(gpus_per_node=per_node)
    if params.known is None and not flags:
        return _divides(params, per_node), sources
    known = params.known or Known(typed={"checkpoint_cost": params.checkpoint_cost,
                                         "slow_checkpoint_cost": params.slow_checkpoint_cost, "restart": params.restart}
                                  | ({"drain": params.drain} if params.drain > 0 else {}))
    names, typed, parts = dict(known.names), dict(known.typed), dict(known.parts)
    if per_node is not None:
        names["gpus_per_node"] = "--gpus-per-node"
    for dest in ("checkpoint_cost", "restart", "drain"):
        if getattr(args, dest, None) is not None:
            typed[dest], names[dest] = getattr(args, dest), _flag(dest)
    changes: dict[str, Any] = {}
    if "checkpoint_size" in flags or "parameters" in flags:
        changes |= {"size": None, "parameters": None, "bytes_per_parameter": None}
    for dest, key in _KNOWN_FLAGS.items():
        if dest in flags:
            changes[key], names[key] = flags[dest], _flag(dest)
    for part in _PART_FLAGS:
        if part in flags:
            parts[part], names[part] = flags[part], _flag(part)
    spares, given = known.spares, {key: flags[key] for key in _SPARE_FLAGS if key in flags}
    if spares is None and 0 < len(given) < len(_SPARE_FLAGS):
        first = next(iter(given))
        raise InputError(_flag(first), given[first], f"{' and '.join(_flag(k) for k in _SPARE_FLAGS if k not in given)} "
                         "as well (or a spares: {nodes, repair, takes_node} mapping in the params file)")
    if given:
        fields = {"nodes" if key == "spares" else key: value for key, value in given.items()}
        spares = Spares(**fields) if spares is None else dataclasses.replace(spares, **fields)
    as_typed = {key: value for key, value in known.given.items() if key not in changes}  # the file's, not overridden
    known = dataclasses.replace(known, **changes, parts=parts, spares=spares, typed=typed, names=names, given=as_typed)
    derived = derive(params, known, as_typed=True)
    ranges = {key: r for key, r in params.ranges.items()  # a range of a duration the flags changed no longer applies
              if key not in ("checkpoint_cost", "restart") or getattr(derived, key) == getattr(params, key)}
    return _divides(derived.replace(ranges=ranges), per_node), sources


def _divides(params: Params, per_node: int | None) -> Params:
    """`params`, where ``--gpus-per-node`` (`per_node`) is not given or an input is per node; else InputError."""
    if per_node is not None and not params.counts_nodes:
        raise InputError("--gpus-per-node", per_node, "with an input it divides: a start-up per node "
                         "(--startup-per-node), spares (--spares) or a snapshot (--snapshot-bandwidth)")
    return params


def _tier_overrides(args: argparse.Namespace, params: Params, sources: dict[str, str],
                    typed_rp: float | None = None) -> tuple[Params, dict[str, str]]:
    """Apply --drain and the persistent-tier flags over the file's values, checked as the file's are.

    `typed_rp` is the file's R_p before its wait for repairs (None: R_p is R). R_p is that, or the flag's, plus the
    wait the fast restart now takes: the flags may have changed the spares or M, and with them the wait.
    """
    from goodput.params import tier_inputs

    flags = {dest: getattr(args, dest) for dest in ("persistent_cost", "persistent_restart", "fast_survives",
                                                    "persistent_every")}
    if args.drain is not None:
        params = params.replace(drain=args.drain)
        sources["D"] = "--drain"
    elif params.drain > 0:
        sources["D"] = params.source
    if args.persistent_cost is None and params.persistent_cost is None:
        for dest, value in flags.items():
            if value is not None:
                raise InputError(_flag(dest), value, "--persistent-cost as well (or a persistent: tier in the params file)")
        return params, sources
    cost, restart, survives, every = (getattr(params, dest) if value is None else value for dest, value in flags.items())
    if args.persistent_restart is None:
        restart = typed_rp
    if survives is None:
        raise InputError("--persistent-cost", args.persistent_cost,
                         "--fast-survives as well: the share of interruptions the fast tier survives, 0 to 1")

    def parse(value: object, name: str) -> float:
        return value if isinstance(value, float) else _minutes(value, name)

    try:
        cost_p, restart_p, n = tier_inputs(params.checkpoint_cost, params.restart, cost, restart, every,
                                           prefix="--persistent-", parse=parse,
                                           wait=params.spares.wait(params.mtbi) if params.spares is not None else 0.0)
    except InputError as exc:  # name the input the user gave, not the file's value it was checked against
        fast = {"--persistent-cost": ("--checkpoint-cost", args.persistent_cost, args.checkpoint_cost, cost,
                                      "a checkpoint cost no larger than the persistent one"),
                "--persistent-restart": ("--restart", args.persistent_restart, args.restart, restart,
                                         "a restart no longer than the persistent one")}.get(exc.name)
        if fast is None or fast[1] is not None:
            raise
        flag, _, value, persistent, what = fast
        if value is None:  # the file's value against a C or R that other flags derived again
            raise InputError(exc.name.replace("--persistent-", "persistent."),
                             format_duration(parse(persistent, exc.name)), exc.expected) from None
        raise InputError(flag, format_duration(value),
                         f"{what} in {params.source} ({format_duration(parse(persistent, exc.name))})") from None
    for symbol, (dest, given) in zip(("C_p", "R_p", "s", "n"), flags.items(), strict=True):
        sources[symbol] = params.source if given is None else _flag(dest)
    if every is None:  # n is the plan's choice, as the plan's table says
        sources["n"] = "best n"
    params = params.replace(persistent_cost=cost_p, persistent_restart=restart_p, persistent_every=n,
                            fast_survives=survives)
    return params, sources


# --------------------------------------------------------------------------- subcommands


def _run_plan(args: argparse.Namespace) -> str:
    import dataclasses

    from goodput.plan import RECOMMENDED_MODEL, first_order_refusal, plan_for, scheme_pays
    from goodput.provenance import package_commit, provenance
    from goodput.report import at_optimum, first_order_problem, plan_report, render_plan

    params, sources = _inputs(args)
    plan = plan_for(params, interval=args.interval, which=args.model)
    if args.model != RECOMMENDED_MODEL and (
            refusal := first_order_refusal(plan_for(params, interval=args.interval).check, plan)) is not None:
        raise Refused(f"{first_order_problem(refusal)}; no first-order "
                      "number is printed (the default, --model exact, applies at any fleet size)")
    report = plan_report(plan, params, sources, provenance(params, commit=package_commit()))
    more: dict[str, Any] = {"params": params}
    # the scheme at its optimum against the write at its own (an interval given off the optimum is not the scheme's
    # fault), e.g. a stall longer than the write
    if not scheme_pays(at_optimum(plan), slow := plan_for(params, slow=True, which=args.model)):
        more["slow_keeps_more"] = slow
    if params.storage is not None:
        from goodput.plan import storage_levers

        more["storage_levers"] = storage_levers(params, which=args.model)
    if params.spares is not None or args.target_goodput is not None or (
            params.storage is not None and params.storage.price is not None):
        from goodput.fleet import fleet_plan
        from goodput.report import needed_for

        if args.target_goodput is not None and params.checkpoint_size is None:
            raise InputError("--target-goodput", args.target_goodput, "the checkpoint's size as well (--checkpoint-size "
                             "or --parameters, or checkpoint: in the params file): the bandwidth it needs follows from it")
        fleet = fleet_plan(params)
        more |= {"spares_choice": fleet.best_spares, "needed": None if args.target_goodput is None else
                 needed_for(fleet, args.target_goodput), "best_bandwidth": fleet.best_write_bandwidth}
    return render_plan(dataclasses.replace(report, **more), args.format)


#: The simulated numbers both simulations print first in JSON.
_SIMULATED = ("goodput", "stderr", "failures", "checkpoint_overhead", "lost_work", "restart_loss")


@contextlib.contextmanager
def _default_horizon(args: argparse.Namespace) -> Iterator[None]:
    """A horizon refused where the user typed none: say the default is what does not suit, and to pass --horizon.

    ``simulate --mtbi '999999 years'`` read "horizon: got '5.256e+07 min', expected at least ...", blaming an input
    nobody typed.
    """
    try:
        yield
    except InputError as exc:
        if exc.name != "horizon" or "horizon" in getattr(args, "_given", set()):
            raise
        raise InputError("--horizon", None, f"{exc.expected}; the default horizon, {format_duration(args.horizon)}, "
                         "does not suit these inputs: pass --horizon DURATION") from None


def _run_simulate(args: argparse.Namespace) -> str:
    from goodput.exact import exact_goodput
    from goodput.plan import plan_for
    from goodput.report import strict_json
    from goodput.simulate import FailureProcess, simulate

    for flag, value, what in (("--shape", args.shape, "a shape"), ("--hazard", args.hazard, "a hazard")):
        if value is not None and args.failures != "weibull":
            raise InputError(flag, value, f"--failures weibull as well ({what} only applies to Weibull)")
    process = FailureProcess(args.failures, shape=args.shape or 1.0, hazard=args.hazard or "renewal")
    params, _ = _inputs(args)
    # planned first: inputs plan refuses as out of scale (no work kept) simulate refuses alike, before it blames a horizon
    plan = plan_for(params, interval=args.interval)
    if params.tiered or params.just_in_time or params.planned_rate:
        if not process.exponential:
            raise InputError("--failures", args.failures, "exponential failures with a drain, a persistent tier, "
                             "just-in-time recovery or planned stops (the tier simulator draws Poisson interruptions)")
        return _simulate_tiers(args, plan)
    cost, mtbi, restart, interval = params.checkpoint_cost, params.mtbi, params.restart, plan.interval
    with _default_horizon(args):
        result = simulate(cost, mtbi, restart, interval, args.horizon, process=process, seed=args.seed, progress=True)
    expected = float(exact_goodput(cost, mtbi, restart, interval)) if process.exponential else None
    if args.format == "json":
        return strict_json({key: getattr(result, key) for key in _SIMULATED} | {
            "interval_min": interval, "mtbi_min": mtbi, "horizon_min": args.horizon, "seed": args.seed,
            "failure_process": process.kind, "shape": process.shape, "hazard": process.hazard, "exact_goodput": expected,
        })
    lines = [
        (f"Simulated {format_duration(args.horizon)} of wall time ({result.failures:,} failures, "
        f"{process.describe()}; seed {args.seed})"),
        (f"C = {format_duration(cost)}, M = {format_duration(mtbi)}, R = {format_duration(restart)}, "
        f"T = {format_duration(interval)}"),
        "",
        *_loss_table(result, None if expected is None else (expected, "no failure was drawn: nothing to compare"
                     if result.stderr == 0 else _apart(result, expected))),
    ]
    return "\n".join(lines)


def _apart(result: SimulatedLosses, expected: float) -> str:
    """Where the simulated goodput lies from the model's, in its standard errors: "the simulation 0.8 ... below it"."""
    z = (result.goodput - expected) / result.stderr if result.stderr > 0 else 0.0
    return f"the simulation {abs(z):.1f} standard errors {'below' if z < 0 else 'above'} it"


def _loss_table(result: SimulatedLosses, against: tuple[float, str] | None, drain_loss: float | None = None) -> list[str]:
    """A simulation's losses (with `drain_loss`, the drain's too) and goodput with its standard error, as a table.

    `against`: the exact model's goodput and how far the simulation is from it, for the last row.
    """
    from goodput.report import percent

    rows = [("checkpoint overhead", result.checkpoint_overhead), ("lost work", result.lost_work),
            ("restart", result.restart_loss), *([] if drain_loss is None else [("not yet durable", drain_loss)])]
    lines = [*(f"  {name:<22}{percent(x, 2):>7}" for name, x in rows), "  " + "-" * 29,
             f"  {'goodput':<22}{percent(result.goodput, 2):>7}  standard error {100 * result.stderr:.2g} points"]
    return lines + ([] if against is None else [f"  {'exact model':<22}{percent(against[0], 2):>7}  ({against[1]})"])


def _simulate_tiers(args: argparse.Namespace, plan: Plan) -> str:
    """Simulate a drain, two tiers, just-in-time recovery or planned stops at the plan's T and n against its model."""
    from goodput.report import stops_per, strict_json
    from goodput.simulate_restart import planned_stop_cost, simulate_plan
    from goodput.tiers import Tiers

    s = plan.tiers if plan.tiers is not None else Tiers(plan.checkpoint_cost, plan.restart)
    p, rj, q, _ = plan.recovery if plan.recovery is not None else (0.0, 0.0, 0.0, 0.0)
    stop = planned_stop_cost(plan)  # it waits for no repaired node
    with _default_horizon(args):
        result = simulate_plan(plan, args.horizon, seed=args.seed, progress=True)
    if args.format == "json":
        return strict_json({key: getattr(result, key) for key in (*_SIMULATED[:3], "hard_failures", *_SIMULATED[3:],
                                                                  "drain_loss")} | {
            "interval_min": plan.interval, "mtbi_min": plan.mtbi, "drain_min": s.drain,
            "persistent_cost_min": s.cp, "persistent_restart_min": s.rp, "fast_survives": s.fast_survives,
            "persistent_every": s.every, "horizon_min": args.horizon, "seed": args.seed,
            "failure_process": "exponential", "exact_goodput": plan.goodput,
            "just_in_time": p, "jit_recovery_min": rj, "planned_rate_per_hour": q,
            "planned_cost_min": stop if q else None, "recoveries": result.recoveries,
            "planned_stops": result.planned_stops,
        })
    pauses = ("" if not (p or q) else
              f"{result.recoveries:,} recovered just in time, {result.planned_stops:,} planned stops; ")
    lines = [
        (f"Simulated {format_duration(args.horizon)} of wall time ({result.failures:,} failures that roll back"
        + ("" if s.one_tier else f", {result.hard_failures:,} the fast tier did not survive")
        + f"; {pauses}seed {args.seed})"),
        f"C = {format_duration(s.checkpoint_cost)}, M = {format_duration(plan.mtbi)}, R = {format_duration(s.restart)}, "
        f"T = {format_duration(plan.interval)}" + (f", D = {format_duration(s.drain)}" if plan.drained else "")
        + ("" if s.one_tier else f", C_p = {format_duration(s.cp)}, R_p = {format_duration(s.rp)}, "
           f"s = {s.fast_survives:g}, n = {s.every}")
        + ("" if not p else f", p = {p:g}, R_j = {format_duration(rj)}")
        + ("" if not q else f", q = {stops_per(q)}, S_q = {format_duration(stop)}"),
        "",
        *_loss_table(result, (plan.goodput, _apart(result, plan.goodput)),
                     result.drain_loss if plan.drained else None),
    ]
    return "\n".join(lines)


def _log_paths(args: argparse.Namespace) -> tuple[str | None, str, str | None]:
    """The step log (or None), the event log and its format (None: sacct by its header), from flags or params."""
    given = [flag for flag in ("steps", "events", "sacct") if getattr(args, flag)]
    if args.params and given:
        raise InputError("--params", args.params, f"either --params or --{given[0]}, not both")
    if args.sacct:
        if len(given) > 1:
            raise InputError("--sacct", args.sacct, "--sacct alone: Slurm accounting is measured without a step log")
        return None, args.sacct, "sacct"
    if args.steps and not args.events:
        raise InputError("--steps", args.steps, "--events EVENTS.csv as well: a step log is measured with its events")
    if args.events:
        return args.steps, args.events, None
    if args.params:
        from goodput.params import load_params

        params = load_params(args.params)
        if params.events_log is not None:
            return (str(params.steps_log) if params.steps_log is not None else None), str(params.events_log), None
        raise InputError("--params", args.params, "a params file with a logs: {events, steps} key")
    raise InputError("goodput measure", "no logs",
                     "--steps FILE --events FILE, --events FILE, --sacct FILE, or --params FILE with a logs: key")


def _run_measure(args: argparse.Namespace) -> str:
    from goodput.logs.events import measure_events
    from goodput.logs.measure import measure
    from goodput.logs.sacct import is_sacct
    from goodput.report import render_event_measurement, render_measurement

    steps, events, log_format = _log_paths(args)
    if steps is None:
        if args.interval is not None:
            raise InputError("--interval", args.interval, "a step log (--steps) as well: without one there is no "
                             "checkpoint cost, so no prediction at an interval")
        return render_event_measurement(measure_events(events, log_format=log_format), args.format)
    if is_sacct(events):
        raise InputError(events, "Slurm accounting output", "a CSV event log (time,event) to go with a step log; "
                         "Slurm accounting is measured alone (--sacct)")
    return render_measurement(measure(steps, events, args.interval, which=args.model), args.format,
                              shape=measure_events(events))


# --------------------------------------------------------------------------- running


def _say(message: str) -> None:
    """One line on stderr (cut to a terminal's width of text, never a flood)."""
    line = " ".join(message.split())
    sys.stderr.write(f"goodput: {line[:400]}\n")
    sys.stderr.flush()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``goodput`` command on `argv` (``sys.argv[1:]`` when omitted); return its exit status."""
    args: argparse.Namespace | None = None
    words = list(sys.argv[1:] if argv is None else argv)
    try:  # from the first instruction: a Ctrl-C while the parser is built is an interruption too
        parser = build_parser()
        try:
            args = parser.parse_args(_negatives_attached(words))
        except SystemExit as exc:  # --help (0) or a usage error (2), already printed
            return int(exc.code) if isinstance(exc.code, int) else EXIT_USAGE
        return _write(args.run(args))
    except InputError as exc:
        _say(f"error: {_as_given(exc, args, words)}")
        return EXIT_USAGE
    except Refused as exc:
        _say(str(exc))
        return EXIT_REFUSED
    except KeyboardInterrupt:
        _say("interrupted")
        return EXIT_INTERRUPTED


def _negatives_attached(argv: Sequence[str]) -> list[str]:
    """A value that reads as a negative number attached to its flag (``--rate=-1e-5``), which argparse takes for a flag.

    So that ``--rate -1e-5`` is refused for its value (one line naming it) rather than as "expected one argument".

    >>> _negatives_attached(["plan", "--rate", "-1e-5", "--gpus", "8"])
    ['plan', '--rate=-1e-5', '--gpus', '8']
    """
    out: list[str] = []
    for token in argv:
        if out and out[-1].startswith("--") and "=" not in out[-1] and re.match(r"-\.?[0-9]", token):
            out[-1] = f"{out[-1]}={token}"
        else:
            out.append(token)
    return out


def _typed(argv: Sequence[str]) -> dict[str, str]:
    """What the user typed after each flag (``--flag value`` or ``--flag=value``), by the flag's dest.

    >>> _typed(["plan", "--gpus", "8", "--read-bandwidth=10GB/s"])
    {'gpus': '8', 'read_bandwidth': '10GB/s'}
    """
    out: dict[str, str] = {}
    for i, token in enumerate(argv):
        if not token.startswith("--"):
            continue
        flag, sep, text = token.partition("=")
        if sep or i + 1 < len(argv):
            out[flag[2:].replace("-", "_")] = text if sep else argv[i + 1]
    return out


def _as_given(exc: InputError, args: argparse.Namespace | None, argv: Sequence[str] = ()) -> InputError:
    """The error named by the flag the user gave, when a check deeper down named the input by its key.

    ``interval: got 3.0`` becomes ``--interval: got 3 min`` when ``--interval 3`` was given: a duration option's
    minutes written as a duration, any other option's value as typed (``--target-goodput: got '0.9'``, where a
    share or a bandwidth is no duration); an input that came from the params file keeps its key.
    """
    given: set[str] = getattr(args, "_given", set()) if args is not None else set()
    key = exc.name.removeprefix("--").replace("-", "_")
    if key not in given:
        return exc
    typed = _typed(argv).get(key)
    if key in _DURATION_OPTIONS and (typed is None or validate.NUMBER.fullmatch(typed.strip())):
        # a bare number is written with the unit it was read in ('3' as '3 min'); a duration with its unit as typed
        value = format_duration(exc.value) if isinstance(exc.value, float) else exc.value
        return InputError(_flag(key), value, exc.expected)
    return InputError(_flag(key), exc.value if typed is None else typed, exc.expected)


def _discard_stdout() -> None:
    """Point stdout at the null device, so that the output still buffered is not written (and fails) again at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # pragma: no cover - stdout without a file descriptor
        pass


def _write(text: str) -> int:
    """Write the result to stdout: a closed pipe ends quietly, any other write error in one line."""
    try:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    except OSError as exc:
        _discard_stdout()
        if isinstance(exc, BrokenPipeError):  # the reader (e.g. `head`) closed the pipe: stop quietly
            return EXIT_BROKEN_PIPE
        _say(f"error: cannot write the output ({exc.strerror or exc})")
        return EXIT_WRITE_ERROR
    return EXIT_OK

if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
