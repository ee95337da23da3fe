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
import json
import math
from pathlib import Path

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


def check(code: int, out: str, err: str) -> None:
    """The contract: status 0, 1 or 2; a short error line; a possible result."""
    assert code in (0, 1, 2), (code, err)
    assert "Traceback" not in err and len(err) <= 500 and err.count("\n") <= 1, err
    if code != 0:
        assert out == "" and err.strip()
        return
    data = json.loads(out)
    for key, value in data.items():
        if isinstance(value, float):
            assert math.isfinite(value), key
            if key.endswith("_min") or key in ("checkpoint_overhead", "lost_work", "restart_loss", "drain_loss",
                                                "goodput", "stderr"):
                assert value >= 0.0, (key, value)
            if key in ("checkpoint_overhead", "lost_work", "restart_loss", "drain_loss", "goodput"):
                assert value <= 1.0 + 1e-12, (key, value)


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


@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=params_files(), model=st.sampled_from(["exact", "first-order"]))
def test_plan_on_hostile_params_files(tmp_path_factory, raw: bytes, model: str) -> None:
    """goodput plan --params FILE: a possible plan, or one short line and status 1 or 2."""
    path = tmp_path_factory.mktemp("hostile") / "p.yml"
    path.write_bytes(raw)
    check(*run("plan", "--params", str(path), "--format", "json", "--model", model))


durations = st.sampled_from(HOSTILE) | st.text(max_size=20) | st.floats(allow_nan=True).map(repr)


@settings(deadline=None)
@given(flag=st.sampled_from(["--checkpoint-cost", "--restart", "--mtbi", "--interval", "--drain",
                             "--persistent-cost", "--persistent-restart"]), value=durations,
       gpus=st.sampled_from([None, "1", "1000000000", "0", "-5", "1.5", ".inf", "16384"]))
def test_plan_on_hostile_flags(flag: str, value: str, gpus: str | None) -> None:
    """goodput plan with a hostile duration flag (and GPU count): a possible plan, or one short line."""
    args = ["plan", "--format", "json", flag, value]
    if flag.startswith("--persistent"):
        args += ["--fast-survives", "0.5"]
    if gpus is not None:
        args += ["--gpus", gpus]
    check(*run(*args))


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


@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pair=logs())
def test_measure_on_hostile_logs(tmp_path_factory, pair: tuple[str, str]) -> None:
    """goodput measure on hostile CSV logs: a possible measurement or one short line naming the file and line."""
    folder = tmp_path_factory.mktemp("logs")
    (folder / "s.csv").write_text(pair[0])
    (folder / "e.csv").write_text(pair[1])
    code, out, err = run("measure", "--steps", str(folder / "s.csv"), "--events", str(folder / "e.csv"),
                         "--format", "json")
    assert code in (0, 1, 2), err
    assert "Traceback" not in err and len(err) <= 500 and err.count("\n") <= 1, err
    if code == 0:
        data = json.loads(out)
        assert data["checkpoint_cost_min"] > 0 and 0 <= data["measured_goodput"] <= 1
