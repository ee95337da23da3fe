"""`goodput measure` on an event log alone, on Slurm accounting and on a params file naming only events.

The command runs in-process, as in tests/test_cli.py.
"""

from __future__ import annotations

import contextlib
import io
import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from numpy.testing import assert_allclose

from goodput.cli import main
from goodput.logs.events import measure_events
from goodput.uncertainty import poisson_interval

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "book" / "data"
GLM = DATA / "fleets" / "glm130b-events.csv"
SACCT = DATA / "sample-sacct.txt"


@dataclass
class Result:
    returncode: int
    stdout: str
    stderr: str


def run(*args: str) -> Result:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return Result(code, out.getvalue(), err.getvalue())


def test_events_alone_on_glm130b_json() -> None:
    """GLM-130B events alone: 13 failures, M = exposure / 13 with its Garwood interval, R from 10 recorded restarts;
    C, T and the goodputs null; the Weibull fit with its interval and p-value."""
    result = run("measure", "--events", str(GLM), "--format", "json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["failures"] == 13 and data["restart_samples"] == 10
    assert_allclose(data["mtbi_interval_min"], poisson_interval(13, data["exposure_min"]))
    assert_allclose(data["mtbi_min"], data["exposure_min"] / 13)
    for key in ("checkpoint_cost_min", "interval_min", "measured_goodput", "predicted_goodput", "steps_source"):
        assert data[key] is None
    weibull = data["weibull"]
    low, high = weibull["shape_interval"]
    assert low < weibull["shape"] < high and 0 < weibull["p_value"] < 1
    assert "step log" in data["model_note"]


def test_events_alone_table_says_what_needs_a_step_log() -> None:
    """The table names M, R, the shape with its interval, the test, and what cannot be measured without steps."""
    result = run("measure", "--events", str(GLM))
    assert result.returncode == 0 and result.stderr == ""
    for needle in ("mean time between interruptions, M", "restart time, R", "Weibull shape k", "likelihood-ratio",
                   "interval", "without a step log", "13 failures"):
        assert needle in result.stdout, needle
    assert max(len(line) for line in result.stdout.splitlines()[1:]) <= 80  # the first names the file


def test_sacct_sample() -> None:
    """--sacct reads Slurm accounting: six attempts ended in failure states, the states are listed."""
    result = run("measure", "--sacct", str(SACCT))
    assert result.returncode == 0, result.stderr
    assert "6 failures" in result.stdout and "NODE_FAIL 2" in result.stdout and "Slurm accounting" in result.stdout
    data = json.loads(run("measure", "--sacct", str(SACCT), "--format", "json").stdout)
    assert data["log_format"] == "sacct" and data["end_states"]["PREEMPTED"] == 1


def test_events_flag_recognises_sacct_output() -> None:
    """--events given a sacct file reads it as sacct (its header says so): the same numbers as --sacct."""
    a = json.loads(run("measure", "--events", str(SACCT), "--format", "json").stdout)
    b = json.loads(run("measure", "--sacct", str(SACCT), "--format", "json").stdout)
    assert a == b


def test_params_with_only_events(tmp_path: Path) -> None:
    """A params file whose logs: key names only events measures them alone."""
    params = (ROOT / "book" / "params.yml").read_text(encoding="utf-8")
    params = params.replace("logs: {steps: data/sample-steps.csv, events: data/sample-events.csv}",
                            f"logs: {{events: {GLM}}}")
    path = tmp_path / "fleet.yml"
    path.write_text(params, encoding="utf-8")
    result = run("measure", "--params", str(path), "--format", "json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["failures"] == 13


@pytest.mark.slow
def test_full_measurement_carries_the_shape() -> None:
    """With steps and events, the full measurement adds the gaps' Weibull fit, the same as the events alone give."""
    data = json.loads(run("measure", "--steps", str(DATA / "sample-steps.csv"), "--events",
                          str(DATA / "sample-events.csv"), "--format", "json").stdout)
    alone = measure_events(DATA / "sample-events.csv")
    assert alone.fit is not None
    assert_allclose(data["weibull"]["shape"], alone.fit.shape)
    assert data["checkpoint_cost_min"] is not None and data["shape_verdict"]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--sacct", str(SACCT), "--steps", "s.csv"], "--sacct alone"),
        (["--events", str(GLM), "--sacct", str(SACCT)], "--sacct alone"),
        (["--params", "p.yml", "--events", str(GLM)], "either --params"),
        (["--events", str(GLM), "--interval", "20"], "step log"),
        (["--steps", "s.csv"], "--events"),
        (["--steps", str(DATA / "sample-steps.csv"), "--events", str(SACCT)], "alone"),
        (["--sacct", str(GLM)], "line 1"),
    ],
)
def test_bad_combinations_exit_2_with_one_line(args: list[str], needle: str) -> None:
    """Logs that do not go together, an interval without a step log, a CSV given as sacct: exit 2, one line."""
    result = run("measure", *args)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], result.stderr


def test_bad_sacct_row_names_file_and_line(tmp_path: Path) -> None:
    """A bad row in sacct output: exit 2, the file and line on one line of stderr."""
    path = tmp_path / "job.sacct"
    path.write_text("JobID|Start|End|State\n1|2024-05-01T00:00:00|2024-05-01T01:00:00|FAILED\n"
                    "2|2024-05-01T02:00:00|soon|COMPLETED\n", encoding="utf-8")
    result = run("measure", "--sacct", str(path))
    assert result.returncode == 2 and f"{path}:line 3" in result.stderr


def test_no_failure_is_a_result_not_a_refusal(tmp_path: Path) -> None:
    """An event log without a failure still prints M's lower bound and says no fit was made: exit 0."""
    path = tmp_path / "e.csv"
    path.write_text("time,event\n0,start\n36000,stop\n", encoding="utf-8")
    result = run("measure", "--events", str(path))
    assert result.returncode == 0 and "lower bound" in result.stdout and "No Weibull fit" in result.stdout


def test_the_measured_optimum_is_named_by_its_model() -> None:
    """The table's optimum is the prediction model's: the exact model's 19 min by default, first order's 19.7 min
    with --model first-order; both had been labelled "√(2CM)"."""
    exact = run("measure", "--params", str(ROOT / "book" / "params.yml"))
    first = run("measure", "--params", str(ROOT / "book" / "params.yml"), "--model", "first-order")
    assert "optimum (the exact model) 19 min" in exact.stdout and "√(2CM)" not in exact.stdout
    assert "optimum (first order) 19.7 min" in first.stdout


def test_a_log_with_no_failure_says_so(tmp_path: Path) -> None:
    """One COMPLETED job: "No attempt ended in a failure state" (it read "Attempts ended in no failure state
    (counted as failures)")."""
    log = tmp_path / "one.txt"
    log.write_text("JobID|Start|End|Elapsed|State\n1|2025-01-01T00:00:00|2025-01-01T01:00:00|01:00:00|COMPLETED\n",
                   encoding="utf-8")
    result = run("measure", "--sacct", str(log))
    assert result.returncode == 0 and "No attempt ended in a failure state" in " ".join(result.stdout.split())
    assert "counted as failures" not in result.stdout
