"""Hostile and careless input: whatever a params file, a flag or a log holds, the command answers with a result
that is physically possible, or refuses in one short line; it never lets an exception escape.

Property tests (hypothesis) throw generated files, durations and CSV logs at ``goodput plan``, ``simulate`` and
``measure`` in-process and check: the exit status is 0, 1 or 2; stderr is at most one line of at most 500
characters, with no traceback; and every exit-0 result is finite, with losses and goodput in [0, 1] and every
cost and duration at least zero.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import math
import os
import re
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from goodput.cli import main

ROOT = Path(__file__).resolve().parent.parent
BASE = (ROOT / "book" / "params.yml").read_text(encoding="utf-8").replace("logs:", "# logs:")
KEYS = ("gpus", "checkpoint_cost", "slow_checkpoint_cost", "restart", "price_per_gpu_hour", "month", "drain",
        "fast_survives", "interruptions", "mtbi", "rate_per_gpu_hour", "ranges", "persistent")

#: Values a careless or hostile hand types.
HOSTILE = [".inf", "-.inf", ".nan", "-1 min", "0", "0 s", "1:30", "4:33:04", "0x10", "0o17", "yes", "~", "null", "",
           "[1, 2]", "{a: 1}", "&a 3", "*a", "!!binary AAAA", "!!python/object:os.system x", "1e400", "1e-400 s",
           "020000", "\u0663 min", "5 parsecs", "'5 min'", "5 min 3 s", "1_000", "16,384", "-", "+", "e5", ".",
           "5 min # comment", "\t", "😀", "x" * 5000, "2.0e-5", "1e308 years", "1e-300 s", "3 weeks", "[45 s, 2 min]",
           "{count: 419, window: 54 days}", "{count: .inf, window: 54 days}", "{cost: 1 s}", "0.5", "1.5", "-0.1"]


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def strict(out: str) -> Any:
    """Parse JSON as a strict parser does: NaN, Infinity and -Infinity are refused."""

    def refuse(constant: str) -> Any:
        raise AssertionError(f"{constant} in the JSON output")

    return json.loads(out, parse_constant=refuse)


#: Keys whose numbers are shares of wall time (or of interruptions), wherever they are nested.
FRACTIONS = {"checkpoint_overhead", "lost_work", "restart_loss", "drain_loss", "goodput", "fast_survives",
             "measured_goodput", "predicted_goodput", "exact_goodput", "unmodelled_loss", "checkpoint_loss_measured",
             "lost_work_loss_measured", "restart_loss_measured", "checkpoint_loss_predicted",
             "lost_work_loss_predicted", "restart_loss_predicted", "stderr"}
#: Keys (and key endings) whose numbers are costs, durations or counts: never below zero.
NON_NEGATIVE = ("_min", "_usd_per_month", "_per_month", "price_per_gpu_hour", "gpus", "failures", "levers")


def numbers(data: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], float]]:
    """Every number in a JSON document with the keys that lead to it (list positions are not keys)."""
    if isinstance(data, bool) or data is None or isinstance(data, str):
        return
    if isinstance(data, (int, float)):
        yield path, float(data)
    elif isinstance(data, dict):
        for key, value in data.items():
            yield from numbers(value, (*path, str(key)))
    elif isinstance(data, list):
        for value in data:
            yield from numbers(value, path)


def check_json(out: str, *, all_non_negative: bool = True) -> Any:
    """Strict JSON whose every number, nested ones included, is possible: shares in [0, 1], costs at least zero.

    A lever's gain is signed: a lever that changes the scheme (draining the persistent write too) can lose
    goodput, and the output says so; it must still be a difference of two goodputs, within [-1, 1].
    """
    data = strict(out)
    for path, value in numbers(data):
        assert math.isfinite(value), path
        if path and path[0] == "levers":
            assert -1.0 <= value <= 1.0, (path, value)
            continue
        if all_non_negative or set(path) & FRACTIONS or any(k.endswith(NON_NEGATIVE) for k in path):
            assert value >= 0.0, (path, value)
        if path and path[-1] in FRACTIONS and "levers" not in path:
            assert value <= 1.0 + 1e-12, (path, value)
    return data


#: What no text or Markdown output may show: a negative number, NaN or infinity in words, "+-", a share over 100%.
IMPOSSIBLE = re.compile(r"(?<![\w-])-\$?\d|\bnan\b|\binf\b|\binfinity\b|\bundefined\b|\+-", re.IGNORECASE)


def check_text(out: str) -> None:
    """Text or Markdown output: no impossible number, and every percentage a share of at most 100%."""
    assert not IMPOSSIBLE.search(out), IMPOSSIBLE.search(out)
    for share in re.findall(r"(\d[\d,]*(?:\.\d+)?)%", out):
        assert float(share.replace(",", "")) <= 100.0, share


def check(code: int, out: str, err: str, fmt: str = "json", *, all_non_negative: bool = True) -> None:
    """The contract: status 0, 1 or 2; a short error line; a possible result in any format."""
    assert code in (0, 1, 2), (code, err)
    assert "Traceback" not in err and "Warning" not in err and len(err) <= 500 and err.count("\n") <= 1, err
    if code != 0:
        assert out == "" and err.strip()
        return
    if fmt == "json":
        check_json(out, all_non_negative=all_non_negative)
    else:
        check_text(out)


@st.composite
def params_files(draw: st.DrawFn) -> bytes:
    """A params file: the book's, with a few values replaced by hostile ones, keys dropped, doubled or misspelt,
    or plain random bytes."""
    kind = draw(st.sampled_from(["edit", "edit", "edit", "bytes", "text"]))
    if kind == "bytes":
        return draw(st.binary(max_size=400))
    if kind == "text":
        return draw(st.text(max_size=400)).encode("utf-8")
    lines = BASE.splitlines()
    for _ in range(draw(st.integers(1, 3))):
        key = draw(st.sampled_from(KEYS))
        value = draw(st.sampled_from(HOSTILE) | st.text(max_size=30))
        action = draw(st.sampled_from(["replace", "add", "drop", "typo"]))
        lines = [line for line in lines if not (action in ("replace", "drop", "typo") and line.startswith(f"{key}:"))]
        if action in ("replace", "add"):
            lines.append(f"{key}: {value}")
        elif action == "typo":
            lines.append(f"{key[:-1]}: {value}")
    return "\n".join(lines).encode("utf-8", "surrogatepass")


FORMATS = st.sampled_from(["table", "markdown", "json"])


@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=params_files(), model=st.sampled_from(["exact", "first-order"]), fmt=FORMATS)
def test_plan_on_hostile_params_files(tmp_path_factory, raw: bytes, model: str, fmt: str) -> None:
    """goodput plan --params FILE: a possible plan in every format, or one short line and status 1 or 2."""
    path = tmp_path_factory.mktemp("hostile") / "p.yml"
    path.write_bytes(raw)
    check(*run("plan", "--params", str(path), "--format", fmt, "--model", model), fmt)


durations = st.sampled_from(HOSTILE) | st.text(max_size=20) | st.floats(allow_nan=True).map(repr)


@settings(deadline=None)
@given(flag=st.sampled_from(["--checkpoint-cost", "--restart", "--mtbi", "--interval", "--drain",
                             "--persistent-cost", "--persistent-restart"]), value=durations,
       gpus=st.sampled_from([None, "1", "1000000000", "0", "-5", "1.5", ".inf", "16384"]), fmt=FORMATS)
def test_plan_on_hostile_flags(flag: str, value: str, gpus: str | None, fmt: str) -> None:
    """goodput plan with a hostile duration flag (and GPU count): a possible plan in every format, or one short line."""
    args = ["plan", "--format", fmt, flag, value]
    if flag.startswith("--persistent"):
        args += ["--fast-survives", "0.5"]
    if gpus is not None:
        args += ["--gpus", gpus]
    check(*run(*args), fmt)


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(mtbi=st.sampled_from(["2", "3", "30", "186", "1e4", "45 s"]), cost=st.sampled_from(["1", "5", "20 s", "40"]),
       restart=st.sampled_from(["5", "30 s", "60"]), persistent=st.sampled_from([None, "1.0", "4", "1000"]),
       survives=st.sampled_from(["0", "0.3", "0.999999", "1"]), every=st.sampled_from([None, "1", "2", "1000"]),
       drain=st.sampled_from([None, "0", "3", "1e4"]), model=st.sampled_from(["exact", "first-order"]), fmt=FORMATS)
def test_plan_on_tier_inputs(mtbi: str, cost: str, restart: str, persistent: str | None, survives: str,
                             every: str | None, drain: str | None, model: str, fmt: str) -> None:
    """Tier and drain inputs at their limits (s = 1, a cadence of 1,000, a drain far beyond M, C, T or R beyond M):
    a possible plan, with its nested cross-check, in every format, or one short line. C_p is a multiple of C."""
    args = ["plan", "--mtbi", mtbi, "--checkpoint-cost", cost, "--restart", restart, "--model", model, "--format", fmt]
    if persistent is not None:
        from goodput.units import parse_duration

        c_p = float(persistent) * parse_duration(cost, "C", bare_unit="min")
        args += ["--persistent-cost", f"{c_p!r} min", "--fast-survives", survives]
        if every is not None:
            args += ["--persistent-every", every]
    if drain is not None:
        args += ["--drain", drain]
    check(*run(*args), fmt)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(mtbi=st.floats(1.0, 1e4), cost=st.floats(0.01, 100.0), restart=st.floats(0.01, 100.0),
       horizon=st.sampled_from(["1 h", "2 days", "1 year", "-1 year", "1e9 years", "0 s"]),
       shape=st.sampled_from([None, "0.01", "0.5", "25", "1"]))
def test_simulate_on_careless_inputs(mtbi: float, cost: float, restart: float, horizon: str, shape: str | None) -> None:
    """goodput simulate with any M, C and R and careless horizons and shapes: a possible result or one short line
    (a horizon too short for the job's rhythm, or implying too much work, is refused, not simulated)."""
    args = ["simulate", "--format", "json", "--mtbi", f"{mtbi} min", "--checkpoint-cost", f"{cost} min",
            "--restart", f"{restart} min", "--horizon", horizon]
    if shape is not None:
        args += ["--failures", "weibull", "--shape", shape]
    check(*run(*args))


@st.composite
def logs(draw: st.DrawFn) -> tuple[str, str]:
    """A step log and an event log: mostly plausible rows, with hostile cells mixed in."""
    cell = st.sampled_from(["0", "1", "-1", "x", "", "nan", "inf", "1e400", "9" * 30, "2025-01-06T00:00:00Z",
                            "2025-13-40T99:00:00", "start", "failure", "stop", "crash"]) | st.integers(0, 5000).map(str)
    steps = ["step,start,end,checkpoint"]
    t = 0
    for step in range(draw(st.integers(0, 12))):
        if draw(st.booleans()):
            steps.append(f"{step},{t},{t + 10},{int(step % 3 == 2)}")
        else:
            steps.append(",".join(draw(cell) for _ in range(draw(st.integers(1, 5)))))
        t += draw(st.integers(0, 40))
    events = ["time,event"] + [f"{draw(cell)},{draw(cell)}" for _ in range(draw(st.integers(0, 6)))]
    return "\n".join(steps) + "\n", "\n".join(events) + "\n"


@pytest.mark.slow
@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pair=logs())
def test_measure_on_hostile_logs(tmp_path_factory, pair: tuple[str, str]) -> None:
    """goodput measure on hostile CSV logs: a possible measurement or one short line naming the file and line."""
    folder = tmp_path_factory.mktemp("logs")
    (folder / "s.csv").write_text(pair[0])
    (folder / "e.csv").write_text(pair[1])
    code, out, err = run("measure", "--steps", str(folder / "s.csv"), "--events", str(folder / "e.csv"),
                         "--format", "json")
    check(code, out, err, all_non_negative=False)
    if code == 0:
        data = strict(out)
        assert data["checkpoint_cost_min"] > 0 and 0 <= data["measured_goodput"] <= 1


#: Cells an event log or Slurm accounting may hold by accident or malice: words for times, times beyond any
#: clock, dates without a time, separators and line breaks inside a name, equal gaps.
TIME_CELLS = ["now", "today", "yesterday", "1e300", "9" * 400, "2024-03-01", "2024-03-01T10:00:00",
              "2024-11-03T01:30:00", "2024-11-03T01:10:00", "2024-03-01T10:00:00+01:00", "-5", "", "nan", "1e12"]


@st.composite
def event_logs(draw: st.DrawFn) -> str:
    """An event log alone: start/failure pairs with equal, huge or hostile times mixed in."""
    rows = ["time,event"]
    t = 0
    for _ in range(draw(st.integers(1, 8))):
        gap = draw(st.sampled_from([100, 100, 100, 7, 0, 10**6]))
        cell = draw(st.sampled_from([None, None, None, *TIME_CELLS]))
        rows.append(f"{t if cell is None else cell},start")
        t += gap
        rows.append(f"{t},{draw(st.sampled_from(['failure', 'failure', 'stop']))}")
        t += draw(st.sampled_from([0, 5, 60]))
    return "\n".join(rows) + "\n"


@st.composite
def sacct_logs(draw: st.DrawFn) -> str:
    """Slurm accounting (sacct --parsable2) with hostile times, states and job names."""
    rows = ["JobID|JobName|Start|End|Elapsed|State"]
    for job in range(draw(st.integers(1, 6))):
        name = draw(st.sampled_from(["train", "a\u2028b", "a\fb", "a\x0bb", "<b>&", "x" * 300]))
        start = draw(st.sampled_from([None, None, *TIME_CELLS]))
        end = draw(st.sampled_from([None, None, None, *TIME_CELLS]))
        state = draw(st.sampled_from(["FAILED", "NODE_FAIL", "COMPLETED", "CANCELLED by 0", "TIMEOUT", "BOGUS"]))
        start_text = f"2024-05-01T{job:02d}:00:00" if start is None else start
        end_text = f"2024-05-01T{job:02d}:30:00" if end is None else end
        rows.append(f"{1000 + job}|{name}|{start_text}|{end_text}|00:30:00|{state}")
    return "\n".join(rows) + "\n"


@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=event_logs() | sacct_logs(), fmt=st.sampled_from(["table", "json"]))
def test_measure_on_hostile_event_logs_and_slurm_accounting(tmp_path_factory, text: str, fmt: str) -> None:
    """goodput measure on an event log alone or Slurm accounting (recognised by its header): a possible
    measurement in strict JSON or a table, or one short line naming the file and line."""
    path = tmp_path_factory.mktemp("events") / "log.txt"
    path.write_text(text, encoding="utf-8")
    code, out, err = run("measure", "--events", str(path), "--format", fmt)
    check(code, out, err, fmt, all_non_negative=False)
    if code == 0 and fmt == "json":
        data = strict(out)
        assert data["mtbi_min"] is None or data["mtbi_min"] > 0
        weibull = data.get("weibull")
        if weibull is not None:  # a fit is a fit, never the search's bound standing in for equal gaps
            from goodput.logs.fit import SHAPE_SEARCH

            assert SHAPE_SEARCH[0] < weibull["shape"] < SHAPE_SEARCH[1]
    if code == 2:
        assert str(path) in err


# --------------------------------------------------------------------------- one test per kind


@pytest.mark.slow
@pytest.mark.parametrize("args", [
    ["--mtbi", "3min", "--checkpoint-cost", "5min", "--restart", "5min"],  # first order below zero
    ["--mtbi", "30", "--checkpoint-cost", "5", "--restart", "5"],  # first order out of its range
    ["--mtbi", "3", "--checkpoint-cost", "1", "--persistent-cost", "20", "--fast-survives", "0.9"],  # tiers
])
def test_the_other_models_cross_check_is_range_checked(args: list[str]) -> None:
    """Where first order is below zero or out of its range, the cross-check beside an exact plan gives no number:
    null with its reason in JSON, "not quoted" in text and Markdown."""
    code, out, err = run("plan", *args, "--format", "json")
    assert code == 0, err
    cross = check_json(out)["cross_check"]
    assert cross["goodput"] is None and cross["interval_min"] is None and cross["problem"]
    for fmt in ("table", "markdown"):
        code, out, err = run("plan", *args, "--format", fmt)
        assert code == 0, err
        check_text(out)
        assert "not quoted" in out


def test_the_tier_model_with_every_interruption_soft_is_its_closed_form() -> None:
    """s = 1: every interruption restarts from the latest checkpoint, so a cycle of n segments costs the
    single-level M e^{R/M} (e^{L/M} - 1) each. The chain agrees as s -> 1; at (T + C)/M of 600 goodput is still a
    number in [0, 1]; with n = 1 and C_p = C it is the single-level exact goodput; and the best n is the largest."""
    from goodput import exact, tiers

    m, c, r, cp = 30.0, 1.0, 5.0, 4.0
    for n, t, drain in ((1, 7.0, 0.0), (3, 7.0, 2.0), (5, 40.0, 0.0)):
        soft = tiers.Tiers(c, r, drain, cp, None, 1.0, n)
        closed = n * t / (m * math.exp(r / m) * ((n - 1) * math.expm1((t + c) / m) + math.expm1((t + cp) / m)))
        assert math.isclose(tiers.exact_goodput(soft, m, t), closed, rel_tol=1e-12)
        nearly = tiers.Tiers(c, r, drain, cp, None, 1.0 - 1e-12, n)
        assert math.isclose(tiers.exact_goodput(nearly, m, t), closed, rel_tol=1e-6)
    same = tiers.Tiers(c, r, 0.0, c, None, 1.0, 1)
    assert math.isclose(tiers.exact_goodput(same, m, 7.0), float(exact.exact_goodput(c, m, r, 7.0)), rel_tol=1e-12)
    far = tiers.exact_losses(tiers.Tiers(5.0, 5.0, 0.0, 20.0, None, 1.0, 2), 2.0, 1200.0)
    for share in (far.goodput, far.checkpoint_overhead, far.lost_work, far.restart_loss, far.drain_loss):
        assert 0.0 <= share <= 1.0
    assert tiers.best_every(tiers.Tiers(5.0, 5.0, 0.0, 20.0, None, 1.0), 2.0).every == tiers.MAX_EVERY
    # The chain itself, just below s = 1 where 1 - stay cancelled to zero before: finite, and no warning (pytest
    # turns warnings into errors).
    chain = tiers.exact_losses(tiers.Tiers(5.0, 5.0, 0.0, 20.0, None, 1.0 - 1e-15, 2), 2.0, 100.0)
    assert 0.0 <= chain.goodput <= 1.0 and math.isfinite(chain.lost_work)


@given(x=st.floats(-1e-6, 1e-6) | st.floats(-1.0, 1.0), digits=st.integers(0, 3))
def test_remainders_are_floored_and_no_formatter_writes_minus_zero(x: float, digits: int) -> None:
    """A share that rounds to zero is written without a sign; a loss total over one leaves goodput zero, not less."""
    from goodput import model
    from goodput.report import percent, points

    for text in (percent(x, digits), points(x, digits)):
        number = text.split()[0].rstrip("%")
        assert not (number.startswith("-") and float(number) == 0.0), text
    assert model.Losses(1.0, 0.6, 0.5 + abs(x), 0.1).goodput == 0.0


def test_equal_gaps_are_equal_within_rounding() -> None:
    """Gaps of 100 s read from times in seconds and kept in minutes differ in their last bits: still equal gaps,
    no fit at the search's bound; gaps that truly differ are fitted."""
    from goodput.logs.fit import fit_problem

    times = [0.0, 100.0, 200.0, 300.0, 400.0, 500.0, 600.0]
    gaps = [b / 60.0 - a / 60.0 for a, b in itertools.pairwise(times)]
    assert len(set(gaps)) > 1  # the rounding this is about
    assert fit_problem(gaps, [0.0]) == "equal gaps"
    assert fit_problem([1.0, 1.1, 1.2], [0.0]) is None


@pytest.mark.parametrize("text", [
    "time,event\nnow,start\ntoday,failure\n",  # a word where a time is expected
    "time,event\n0,start\n1e300,failure\n",  # a time beyond any clock
    "JobID|Start|End|State\n1|1700000000|" + "9" * 400 + "|FAILED\n",  # Unix seconds of 400 digits
])
def test_times_that_are_not_times_are_refused_naming_the_line(tmp_path: Path, text: str) -> None:
    """Words, and times no float holds or no clock reaches, are refused in one line naming the file and line."""
    path = tmp_path / "log.txt"
    path.write_text(text, encoding="utf-8")
    code, out, err = run("measure", "--events", str(path))
    assert code == 2 and out == "" and re.match(rf"goodput: error: {re.escape(str(path))}:line \d+: ", err), err
    check(code, out, err)


@pytest.mark.parametrize("flag", ["--events", "--sacct", "--steps"])
@pytest.mark.parametrize("path", ["/dev/zero", "/dev/urandom", "/dev/null", "DIR"])
def test_special_files_are_refused_at_once(tmp_path: Path, flag: str, path: str) -> None:
    """A device or a directory given as a log is refused in one line, without reading it (no endless read)."""
    if path == "DIR":
        path = str(tmp_path)
    elif not os.path.exists(path):
        pytest.skip(f"no {path}")
    args = ["measure", flag, path] + (["--events", str(tmp_path / "missing.csv")] if flag == "--steps" else [])
    code, out, err = run(*args)
    assert code == 2 and out == "", err
    check(code, out, err)


def test_a_log_from_a_pipe_is_read_once(tmp_path: Path) -> None:
    """--events <(cat file): the pipe is read once, so the header and the first event are not lost."""
    text = ROOT / "book" / "data" / "sample-events.csv"
    content = text.read_bytes()
    code, expected, err = run("measure", "--events", str(text), "--format", "json")
    assert code == 0, err
    read, write = os.pipe()

    def feed() -> None:
        with os.fdopen(write, "wb") as pipe:
            pipe.write(content)

    writer = threading.Thread(target=feed)
    writer.start()
    try:
        code, out, err = run("measure", "--events", f"/dev/fd/{read}", "--format", "json")
    finally:
        writer.join()
        os.close(read)
    assert code == 0, err
    got, want = strict(out), strict(expected)
    for key in ("failures", "attempts", "mtbi_min", "wall_min"):
        assert got[key] == want[key], key


def test_ctrl_c_from_the_first_instruction(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C while the parser is still being built ends with status 130 and one line, no traceback."""
    import goodput.cli

    def interrupted() -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(goodput.cli, "build_parser", interrupted)
    code, out, err = run("plan")
    assert code == 130 and out == "" and err.count("\n") == 1 and "Traceback" not in err


def test_messages_name_the_input_as_given(tmp_path: Path) -> None:
    """An error names the flag the user gave (not an internal key or a flag they did not give), writes minutes as
    a duration, and quotes an empty file name as empty."""
    tier_file = tmp_path / "tier.yml"
    tier_file.write_text(BASE + "\npersistent: {cost: 20 min, restart: 10 min}\nfast_survives: 0.5\n")
    cases = [
        (["plan", "--drain", "10", "--interval", "3"], "--interval: got '3 min'"),
        (["plan", "--persistent-cost", "20", "--fast-survives", "0.5", "--persistent-every", "1000000"],
         "--persistent-every: got '1000000'"),
        (["plan", "--params", str(tier_file), "--restart", "15"], "--restart: got '15 min'"),
        (["plan", "--params", str(tier_file), "--checkpoint-cost", "25"], "--checkpoint-cost: got '25 min'"),
        (["plan", "--params", ""], "params file: got ''"),
    ]
    for args, named in cases:
        code, out, err = run(*args)
        assert code == 2 and named in err, (args, err)
        check(code, out, err)
    code, out, err = run("plan", "--checkpoint-cost", "9" * 300)  # past a million years: bad input, quoted short
    assert code == 2 and "at most a million years" in err and "(300 characters)" in err, err
    code, out, err = run("plan", "--checkpoint-cost", "900000 years")  # within it, out of scale: an exponent at most
    assert code == 1 and not re.search(r"\d{13}", err), err


def test_slurm_lines_are_counted_at_line_ends_and_a_bare_date_has_no_offset(tmp_path: Path) -> None:
    """A form feed or U+2028 inside a job name does not shift the line numbers of later records; a Start given as
    a bare date is a local time like the others, not a UTC offset of -01."""
    from goodput.logs.sacct import read_sacct

    path = tmp_path / "job.sacct"
    path.write_text("JobID|JobName|Start|End|Elapsed|State\n"
                    "1|a\fb\u2028c|2024-03-01|2024-03-01T10:00:00|10:00:00|FAILED\n"
                    "2|x|2024-03-01T11:00:00|2024-03-01T10:30:00|00:30:00|FAILED\n", encoding="utf-8")
    code, _, err = run("measure", "--sacct", str(path))
    assert code == 2 and f"{path}:line 3:" in err, err
    path.write_text("JobID|JobName|Start|End|Elapsed|State\n"
                    "1|a\fb\u2028c|2024-03-01|2024-03-01T10:00:00|10:00:00|FAILED\n", encoding="utf-8")
    log = read_sacct(path)
    assert log.attempts[0].line == 2 and math.isclose(log.attempts[0].end - log.attempts[0].start, 600.0)


@pytest.mark.slow
def test_markup_in_user_text_is_text_in_the_books_html() -> None:
    """An inputs file named '<img src=x onerror=alert(1)>.yml' shows as its name: book_table escapes cells, headers
    and caption; escape_markdown makes Markdown that renders as exactly the text, in a paragraph and a table cell."""
    import html as html_module

    import markdown_it
    import pandas as pd

    from goodput.book.tables import book_table
    from goodput.report import escape_markdown

    name = "<img src=x onerror=alert(1)>&<b>|*x*_{y}`z`.yml"
    table = book_table(pd.DataFrame({"inputs file": [name], name: [1.0]}), caption=f"from {name}").to_html()
    assert "<img" not in table and "<b>" not in table and table.count("&lt;img src=x") == 3
    md = markdown_it.MarkdownIt("commonmark").enable("table")
    paragraph = md.render(escape_markdown(name))
    assert "<img" not in paragraph and html_module.unescape(paragraph) == f"<p>{name}</p>\n"
    cell = md.render(f"| a | b |\n|---|---|\n| {escape_markdown(name)} | 1 |\n")
    assert "<img" not in cell and f"<td>{html_module.escape(name, quote=False)}</td>" in cell


def test_markup_in_the_inputs_file_name_is_text_in_the_commands_markdown(tmp_path: Path) -> None:
    """goodput plan --format markdown, pasted into a document, shows the inputs file's name and runs nothing."""
    import markdown_it

    path = tmp_path / "<img src=x onerror=alert(1)>&<b>.yml"
    path.write_text(BASE, encoding="utf-8")
    code, out, err = run("plan", "--params", str(path), "--format", "markdown")
    assert code == 0, err
    page = markdown_it.MarkdownIt("commonmark").enable("table").render(out)
    assert "<img" not in page and "<b>" not in page and "&lt;img src=x onerror=alert(1)&gt;&amp;&lt;b&gt;.yml" in page


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_make_book_keeps_the_inputs_file_name_whole_and_checks_it_before_removing_anything(tmp_path: Path) -> None:
    """The Makefile's book rule, run with stand-ins for the tools: GOODPUT_PARAMS with spaces and a '$' reaches the
    check and the build whole and absolute; a refused inputs file stops the rule and leaves the last _build."""
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    for older in ("pyproject.toml", "constraints.txt"):  # what the venv stamp depends on, older than it
        (tmp_path / older).touch()
        os.utime(tmp_path / older, (1.0e9, 1.0e9))
    (tmp_path / "stamp").touch()
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "goodput").write_text('#!/bin/sh\nprintf "%s\\n" "$3" >> checked.txt\n[ -f "$3" ] || exit 2\n')
    (bin_dir / "jupyter-book").write_text('#!/bin/sh\nprintf "%s\\n" "$GOODPUT_PARAMS" >> built.txt\n'
                                          'mkdir -p _build/next/_build/html && echo new > _build/next/_build/html/i\n')
    for tool in bin_dir.iterdir():
        tool.chmod(0o755)
    old = tmp_path / "_build" / "html" / "i"
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAKE")}
    for name in ("my fleet 2027.yml", "fleet$1.yml"):
        (tmp_path / name).write_text("gpus: 1\n")
        old.parent.mkdir(parents=True, exist_ok=True)
        old.write_text("old\n")
        for how in ("environment", "command line"):
            args = ["make", "--no-print-directory", "book", "STAMP=stamp", "BIN=bin"]
            run_env = dict(env, GOODPUT_PARAMS=name) if how == "environment" else env
            if how == "command line":
                args.append(f"GOODPUT_PARAMS={name}")
            result = subprocess.run(args, cwd=tmp_path, env=run_env, capture_output=True, text=True, check=False)
            assert result.returncode == 0, result.stdout + result.stderr
            assert (tmp_path / "checked.txt").read_text().splitlines()[-1] == str(tmp_path / name)
            assert (tmp_path / "built.txt").read_text().splitlines()[-1] == str(tmp_path / name)
            assert old.read_text() == "new\n"
            old.write_text("old\n")
    result = subprocess.run(["make", "--no-print-directory", "book", "STAMP=stamp", "BIN=bin", "GOODPUT_PARAMS=gone.yml"],
                            cwd=tmp_path, env=env, capture_output=True, text=True, check=False)
    assert result.returncode != 0 and old.read_text() == "old\n"


@settings(max_examples=40, deadline=None)
@given(c=st.floats(0.01, 60.0), m=st.floats(1.0, 1e4), r=st.floats(0.01, 60.0), spread=st.floats(1.0, 20.0),
       which=st.sampled_from(["first-order", "exact"]), fixed=st.booleans())
def test_carried_ranges_of_goodput_are_shares(c: float, m: float, r: float, spread: float, which: str,
                                             fixed: bool) -> None:
    """Ranges of C, M and R carried through either model (corners of the box, or Monte Carlo draws) give goodput
    between 0 and 1: first order below zero at a corner is no goodput there, never a negative share."""
    from goodput.uncertainty import monte_carlo, propagate

    interval = 10.0 if fixed else None
    carried = propagate(c, m, r, checkpoint_cost_range=(c / spread, c * spread), mtbi_range=(m / spread, m * spread),
                        restart_range=(r / spread, r * spread), interval=interval, which=which)
    drawn = monte_carlo(3, 3 * m, (c / spread, c * spread), (r / spread, r * spread), interval=interval, draws=200,
                        which=which)
    for value in (carried.goodput, *carried.goodput_range, *drawn.goodput):
        assert 0.0 <= value <= 1.0, value
