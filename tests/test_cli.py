"""The goodput command: the book's numbers from a terminal, and one clear line for every kind of bad input.

The command runs in-process (``goodput.cli.main``), with its output captured; one test starts the
installed console script to check that it exists.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import math
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from numpy.testing import assert_allclose

from goodput import model
from goodput.cli import main
from goodput.params import load_params
from goodput.units import format_duration

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Result:
    """What a run of the command left: its exit status and what it wrote."""

    returncode: int
    stdout: str
    stderr: str


def run(*args: str) -> Result:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return Result(code, out.getvalue(), err.getvalue())


def plan_json(*args: str) -> dict:
    result = run("plan", "--format", "json", *args)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_default_is_the_worked_example_by_first_order() -> None:
    """No file, --model first-order: M = 185.6 min, T* = sqrt(2 x 1 x 185.6), goodput 86.9%."""
    data = plan_json("--model", "first-order")
    m = 1296 * 60 / 419
    assert_allclose(data["mtbi_min"], m)
    assert_allclose(data["interval_min"], (2 * m) ** 0.5)
    assert_allclose(data["goodput"], model.goodput(1.0, m, 5.0))
    assert_allclose(data["checkpoint_overhead"] + data["lost_work"] + data["restart_loss"] + data["goodput"], 1.0)


def test_params_file_is_read(tmp_path) -> None:
    """--params FILE uses that file: M = 3 h given directly gives T* = sqrt(2 x 1 x 180)."""
    f = tmp_path / "fleet.yml"
    text = (ROOT / "book" / "params.yml").read_text().replace("interruptions: {count: 419, window: 54 days}", "mtbi: 3 h")
    f.write_text(text)
    assert_allclose(plan_json("--params", str(f), "--model", "first-order")["interval_min"], 360**0.5)


def test_flags_override_the_file() -> None:
    """--gpus with --rate: M = 60 / (2e-5 x 16,384) = 183 min; --mtbi, --checkpoint-cost and --restart replace inputs."""
    assert_allclose(plan_json("--gpus", "16384", "--rate", "2e-5")["mtbi_min"], 60 / (2e-5 * 16384))
    data = plan_json("--mtbi", "3h", "--checkpoint-cost", "90 s", "--restart", "2", "--model", "first-order")
    assert_allclose(data["interval_min"], (2 * 1.5 * 180) ** 0.5)
    assert_allclose(data["restart_loss"], 2 / 180)


def test_gpus_alone_keeps_the_per_gpu_rate() -> None:
    """Doubling --gpus halves M and shortens the first-order optimum by sqrt(2)."""
    base = plan_json("--model", "first-order")
    doubled = plan_json("--gpus", "32768", "--model", "first-order")
    assert_allclose(doubled["mtbi_min"], base["mtbi_min"] / 2)
    assert_allclose(base["interval_min"] / doubled["interval_min"], 2**0.5)


def test_interval_flag_and_bare_minutes() -> None:
    """--interval 40 (bare number = minutes) at the worked example gives 84.0% at first order."""
    data = plan_json("--interval", "40", "--model", "first-order")
    assert data["interval_min"] == 40.0
    assert round(100 * data["goodput"], 1) == 84.0


def test_table_and_markdown() -> None:
    """The table and the Markdown section give the recommendation (exact model), the inputs with their sources,
    losses, levers, the first-order cross-check (19.3 min, 86.9%) and what the result was computed from."""
    table = run("plan")
    assert table.returncode == 0
    assert table.stdout.startswith("Checkpoint every 18.6 min of work")
    assert "419 interruptions in 54 days (worked example)" in table.stdout
    assert "86.9% at 19.3 min" in table.stdout and "87.6%" in table.stdout
    assert "halve C" in table.stdout and "goodput 0.2.0" in table.stdout
    assert max(len(line) for line in table.stdout.splitlines()) <= 80
    md = run("plan", "--format", "markdown", "--checkpoint-cost", "2", "--interval", "30", "--model", "first-order").stdout
    assert md.startswith("### Checkpoint plan")
    assert "| checkpoint cost, C | 2 min | --checkpoint-cost |" in md
    g = model.goodput(2.0, 1296 * 60 / 419, 5.0, 30.0)
    assert f"| **goodput** | **{g:.1%}** | first order |" in md
    assert f"The interval in use, 30 min, gives {g:.1%}" in md
    assert "> Caution: first order is" in md and "below the exact model" in md and "(`--model exact`)" in md


def test_far_outside_first_order_is_refused() -> None:
    """C = 5 min every 15 min: first order says 59.9% but drops 12 points (exact 69.1%), so it prints no number."""
    result = run("plan", "--checkpoint-cost", "5", "--interval", "15", "--model", "first-order")
    assert result.returncode == 1
    assert result.stdout == ""
    assert "outside its range" in result.stderr


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["plan", "--checkpoint-cost", "-1"], "--checkpoint-cost"),
        (["plan", "--checkpoint-cost", "0"], "greater than zero"),
        (["plan", "--restart", "nan"], "--restart"),
        (["plan", "--mtbi", "inf h"], "--mtbi"),
        (["plan", "--interval", "5 parsecs"], "known unit"),
        (["plan", "--gpus", "1.5"], "--gpus"),
        (["plan", "--rate", "2e-5", "--mtbi", "3 h"], "not allowed with"),
        (["plan", "--params", "/nonexistent/params.yml"], "readable file"),
        (["plan", "--format", "xml"], "invalid choice"),
        (["plan", "--bogus"], "unrecognized arguments"),
        ([], "required"),
        # rate x GPUs overflows, so M rounds to zero; a checkpoint of infinite size: each was a traceback
        (["plan", "--rate", "1e308"], "--rate: got '1e308', expected a rate per GPU-hour at which 16,384 GPUs leave"),
        (["plan", "--rate", "5e-324"], "--rate: got '5e-324', expected a rate per GPU-hour at which 16,384 GPUs leave"),
        (["plan", "--parameters", "1e308", "--write-bandwidth", "20 GB/s"], "--parameters: got '1e308', expected"),
        (["plan", "--mtbi", "1e308", "--drain", "2"], "--mtbi: got '1e308', expected a duration of at most a million"),
        (["plan", "--month", "1e308"], "--month: got '1e308', expected a duration of at most a million years"),
        (["plan", "--month", "2 years"], "--month: got '2 years', expected an accounting month of at most a year"),
        # times its efficiency, a subnormal bandwidth rounded to zero: a division by zero
        (["plan", "--params", str(ROOT / "tests" / "data" / "fleet-stored.yml"), "--write-bandwidth", "5e-324 B/s"],
         "--write-bandwidth: got '5e-324 B/s', expected a bandwidth of at least 1 B/s"),
    ],
)
def test_bad_usage_exits_2_with_one_line(args: list[str], needle: str) -> None:
    """Bad input: exit status 2, nothing on stdout, one line on stderr naming the problem, no traceback."""
    result = run(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert needle in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        ("gpus: [16384\n", "valid YAML"),
        ("- 1\n- 2\n", "mapping"),
        ("", "mapping"),
        (("gpus: 16384\nrate_per_gpu_hour: 1e308\ncheckpoint_cost: 1 min\nslow_checkpoint_cost: 5 min\nrestart: 5 min\n"
         "price_per_gpu_hour: 2.5\nmonth: 720 h\n"), "rate_per_gpu_hour: got '1e308', expected a rate per GPU-hour"),
    ],
)
def test_malformed_params_file_exits_2(tmp_path, content: str, needle: str) -> None:
    """An unreadable or malformed params file is one line on stderr and exit status 2."""
    f = tmp_path / "p.yml"
    f.write_text(content)
    result = run("plan", "--params", str(f))
    assert result.returncode == 2
    assert needle in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_unknown_key_in_params_file_exits_2(tmp_path) -> None:
    """A typo'd key is named, with the key it was probably meant to be."""
    f = tmp_path / "p.yml"
    f.write_text((ROOT / "book" / "params.yml").read_text().replace("restart:", "restrat:"))
    result = run("plan", "--params", str(f))
    assert result.returncode == 2
    assert "'restrat'" in result.stderr and "did you mean 'restart'" in result.stderr


def test_out_of_range_prints_no_number() -> None:
    """262,144 GPUs with a 5-minute checkpoint: first-order goodput is below zero, so the command refuses to print it."""
    result = run("plan", "--gpus", "262144", "--checkpoint-cost", "5 min", "--model", "first-order")
    assert result.returncode == 1
    assert result.stdout == ""
    assert "below zero" in result.stderr


@pytest.mark.slow
def test_console_script_is_installed() -> None:
    """`goodput` is on the PATH of the environment the tests run in, and prints the same table."""
    exe = shutil.which("goodput", path=str(Path(sys.executable).parent))
    assert exe is not None
    result = subprocess.run([exe, "plan"], capture_output=True, text=True, check=False)
    assert result.returncode == 0 and "86.9%" in result.stdout


SAMPLE = ROOT / "book" / "data"


@pytest.mark.slow
def test_measure_recovers_the_sample_truth() -> None:
    """On the sample logs (truth: C = 1 min, R = 5 min, M = 186 min), C and R come back within a few seconds
    and the 95% interval of M contains 186 min."""
    truth = yaml.safe_load((SAMPLE / "truth.yml").read_text())["inputs"]
    result = run("measure", "--steps", str(SAMPLE / "sample-steps.csv"), "--events", str(SAMPLE / "sample-events.csv"),
                 "--format", "json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert abs(data["checkpoint_cost_min"] - truth["checkpoint_cost_min"]) < 5 / 60
    assert abs(data["restart_min"] - truth["restart_min"]) < 10 / 60
    low, high = data["mtbi_interval_min"]
    assert low <= truth["mtbi_min"] <= high
    for key in ("checkpoint_cost_min", "mtbi_min", "restart_min", "failures", "measured_goodput", "predicted_goodput"):
        assert key in data


@pytest.mark.slow
def test_measure_takes_log_paths_from_the_params_file() -> None:
    """--params book/params.yml measures the logs its logs: key names, and prints a table with both goodputs."""
    result = run("measure", "--params", str(ROOT / "book" / "params.yml"))
    assert result.returncode == 0, result.stderr
    assert "sample-steps.csv" in result.stdout
    assert "measured" in result.stdout and "predicted" in result.stdout


@pytest.mark.parametrize(
    ("steps", "events", "needle"),
    [
        ("step,start,end\n1,0,1\n", "time,event\n0,start\n5,stop\n", "checkpoint"),
        ("step,start,end,checkpoint\n1,0,x,0\n", "time,event\n0,start\n5,stop\n", "line 2"),
        ("step,start,end,checkpoint\n1,0,1,0\n", "time,event\n5,start\n0,stop\n", "line 3"),
        ("", "time,event\n0,start\n5,stop\n", "empty"),
    ],
)
def test_measure_bad_logs_exit_2_with_one_line(tmp_path, steps: str, events: str, needle: str) -> None:
    """A missing column, an unparsable time, events out of order or an empty file: exit 2, one line naming it."""
    (tmp_path / "s.csv").write_text(steps)
    (tmp_path / "e.csv").write_text(events)
    result = run("measure", "--steps", str(tmp_path / "s.csv"), "--events", str(tmp_path / "e.csv"))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert needle in lines[0]
    assert "Traceback" not in result.stderr


def test_measure_needs_both_logs() -> None:
    """Only one of --steps and --events, or neither, is bad usage."""
    for args in (["measure", "--steps", "s.csv"], ["measure"]):
        result = run(*args)
        assert result.returncode == 2
        assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_plan_loads_no_heavy_library() -> None:
    """`goodput plan` imports neither scipy.stats, SymPy, pandas nor matplotlib: its arithmetic needs NumPy and
    scipy.special only. (Its speed is measured in benchmarks/bench_cli.py; this test checks the cause, not the clock.)
    """
    code = (
        "import sys, contextlib, io\n"
        "from goodput.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    assert main(['plan']) == 0\n"
        "print(sorted(m for m in ('scipy.stats', 'sympy', 'pandas', 'matplotlib') if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_plan_exact_model() -> None:
    """--model exact: T* = M(1 + W0(-e^-(1+C/M))) and goodput T/[M e^(R/M)(e^((T+C)/M) - 1)] for the worked example."""
    from scipy.special import lambertw

    m = 1296 * 60 / 419
    data = plan_json("--model", "exact")
    t = m * (1 + lambertw(-math.exp(-(1 + 1 / m))).real)
    assert_allclose(data["interval_min"], t, rtol=1e-9)
    assert_allclose(data["goodput"], t / (m * math.exp(5 / m) * math.expm1((t + 1) / m)), rtol=1e-9)
    assert data["model"] == "exact"


def test_plan_exact_model_answers_where_first_order_refuses() -> None:
    """At 262,144 GPUs with C = 5 min the exact model still gives a goodput between 0 and 1."""
    data = plan_json("--model", "exact", "--gpus", "262144", "--checkpoint-cost", "5 min")
    assert 0 < data["goodput"] < 1


def test_simulate_agrees_with_the_exact_model() -> None:
    """Simulated goodput (exponential failures, seed 1, 200 years) is within 4 standard errors of the exact model."""
    result = run("simulate", "--horizon", "200 years", "--seed", "1", "--format", "json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["failures"] > 0
    assert data["stderr"] > 0
    assert abs(data["goodput"] - data["exact_goodput"]) < 4 * data["stderr"]
    assert_allclose(data["goodput"] + data["checkpoint_overhead"] + data["lost_work"] + data["restart_loss"], 1.0)


def test_simulate_is_reproducible_and_takes_weibull() -> None:
    """The same seed gives the same numbers; a Weibull run reports its process in the table."""
    args = ("simulate", "--horizon", "5 years", "--seed", "7", "--format", "json")
    assert run(*args).stdout == run(*args).stdout
    table = run("simulate", "--horizon", "5 years", "--failures", "weibull", "--shape", "0.5", "--hazard", "run-age")
    assert table.returncode == 0, table.stderr
    assert "Weibull, shape 0.5, run-age" in table.stdout


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["simulate", "--horizon", "-3 years"], "--horizon"),
        (["simulate", "--seed", "x"], "--seed"),
        (["simulate", "--shape", "0.5"], "--failures weibull"),
        (["simulate", "--failures", "gamma"], "invalid choice"),
        (["simulate", "--failures", "weibull", "--shape", "0"], "--shape"),
        (["plan", "--model", "second-order"], "invalid choice"),
        (["simulate", "--price", "9"], "unrecognized arguments: --price"),  # simulate counts no capacity
        (["simulate", "--planned-rate", "1e15"], "expected planned stops of at most one a minute"),  # drew < 0 stops
        (["simulate", "--seed", "1e308"], "--seed: got '1e308', expected a whole number from 0 to"),  # 309 digits
        (["plan", "--gpus-per-node", "1e308"], "--gpus-per-node: got '1e308', expected a whole number from 1 to"),
    ],
)
def test_simulate_bad_usage_exits_2(args: list[str], needle: str) -> None:
    """Bad simulate input: exit 2, one line on stderr naming it, no traceback."""
    result = run(*args)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert needle in result.stderr


# --------------------------------------------------------------------------- hostile and careless input


def test_a_flag_given_twice_is_refused() -> None:
    """A repeated flag would silently let the last value win: it is bad usage instead."""
    result = run("plan", "--restart", "5", "--restart", "8")
    assert result.returncode == 2 and "--restart is given more than once" in result.stderr


def test_hazard_without_weibull_is_refused() -> None:
    """--hazard only applies to Weibull failures; with exponential ones it would be ignored, so it is refused."""
    result = run("simulate", "--hazard", "run-age", "--horizon", "5 years")
    assert result.returncode == 2 and "--failures weibull" in result.stderr


def test_gpus_with_mtbi_sets_the_fleet_size_only() -> None:
    """--mtbi gives M as is; --gpus with it sets the GPU count the capacity is counted for (not ignored)."""
    data = plan_json("--mtbi", "3 h", "--gpus", "1000")
    assert data["mtbi_min"] == 180.0 and data["gpus"] == 1000
    assert_allclose(data["capacity"]["lost_gpu_hours_per_month"], (1 - data["goodput"]) * 1000 * 720)


def test_a_full_disk_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Writing the result to a full device (the kernel's /dev/full) gives one line and status 74, no traceback."""
    err = io.StringIO()
    with open("/dev/full", "w") as full, contextlib.redirect_stderr(err):
        monkeypatch.setattr(sys, "stdout", full)
        code = main(["plan"])
    assert code == 74
    assert err.getvalue().count("\n") == 1 and "cannot write the output" in err.getvalue()


def test_ctrl_c_is_status_130(monkeypatch: pytest.MonkeyPatch) -> None:
    """An interrupt during a long simulation ends with one line and status 130."""
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    # The module itself: the name goodput.simulate on the package is the facade's re-exported function.
    monkeypatch.setattr(importlib.import_module("goodput.simulate"), "simulate", interrupted)
    result = run("simulate")
    assert result.returncode == 130 and result.stderr.strip() == "goodput: interrupted"


def test_help_states_the_exit_codes() -> None:
    """`goodput --help` and `goodput plan --help` list the exit statuses."""
    for args in (["--help"], ["plan", "--help"]):
        result = run(*args)
        assert result.returncode == 0
        for code in ("0", "1", "2", "74", "130"):
            assert f"  {code} " in result.stdout


def test_json_names_no_interval_source_when_none_was_given() -> None:
    """Without --interval the JSON's sources say nothing of one, and they hold no absolute path."""
    data = plan_json("--params", str(ROOT / "book" / "params.yml"))
    assert "T" not in data["sources"]
    assert not any("/" in value for value in data["sources"].values())
    assert data["provenance"]["inputs"] == "params.yml" and len(data["provenance"]["inputs_sha256"]) == 64


# --------------------------------------------------------------------------- drains and two tiers


def test_drain_flag_multiplies_goodput_by_e_to_the_minus_d_over_m() -> None:
    """--drain 5: the exact goodput is the single-level one times e^{-D/M}, at the same interval, and the JSON
    adds drain_min and drain_loss; first order adds D/M to the losses."""
    m = 1296 * 60 / 419
    base, drained = plan_json(), plan_json("--drain", "5 min")
    assert_allclose(drained["goodput"], base["goodput"] * math.exp(-5 / m), rtol=1e-9)
    assert drained["drain_min"] == 5.0 and drained["drain_loss"] > 0
    first = plan_json("--drain", "5 min", "--model", "first-order")
    assert_allclose(first["drain_loss"], 5 / m)


@pytest.mark.slow
def test_tier_flags_override_the_file_and_choose_n() -> None:
    """--persistent-cost with --fast-survives: the best whole n is chosen unless --persistent-every fixes it, and
    persistent_interval_min is n times the interval."""
    data = plan_json("--persistent-cost", "5 min", "--persistent-restart", "10 min", "--fast-survives", "0.8")
    assert data["persistent_every"] >= 2
    assert_allclose(data["persistent_interval_min"], data["persistent_every"] * data["interval_min"])
    fixed = plan_json("--persistent-cost", "5 min", "--fast-survives", "0.8", "--persistent-every", "1")
    assert fixed["persistent_every"] == 1 and fixed["goodput"] <= data["goodput"]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--fast-survives", "0.5"], "--persistent-cost as well"),
        (["--persistent-every", "3"], "--persistent-cost as well"),
        (["--persistent-cost", "5 min"], "--fast-survives as well"),
        (["--persistent-cost", "30 s", "--fast-survives", "0.5"], "no cheaper than the fast one"),
        (["--persistent-cost", "5 min", "--persistent-restart", "1 min", "--fast-survives", "0.5"],
         "no shorter than the fast restart"),
        # R = 5 min plus a wait for repairs (no spares, 24 h repairs): R_p is checked against R before the wait
        (["--persistent-cost", "5 min", "--persistent-restart", "4 min", "--fast-survives", "0.5", "--spares", "0",
          "--repair", "24 h", "--takes-node", "0.5"], "(5 min before the wait for repairs)"),
        (["--persistent-cost", "5 min", "--fast-survives", "1.5"], "--fast-survives"),
        (["--persistent-cost", "5 min", "--fast-survives", "0.5", "--persistent-every", "0"], "--persistent-every"),
        (["--drain", "-1 min"], "--drain"),
        (["--gpus", "1e300"], "a whole number from 1 to 10,000,000"),
        (["--price", "1e308"], "--price: got '1e308', expected a price in US dollars per GPU-hour, above 0 and at most"),
        # a negative number after its flag is its value, refused as such, not "expected one argument"
        (["--rate", "-1e-5"], "--rate: got '-1e-5', expected a finite number greater than zero"),
        (["--mtbi", "-5 min"], "--mtbi: got '-5 min', expected a finite duration greater than zero"),
        (["--spares", "1e9", "--repair", "12 h", "--takes-node", "0.5"], "a whole number from 0 to 1,000,000"),
        (["--drain", "30 min", "--interval", "20 min"], "at least the drain"),
        (["--gpus-per-node", "7"], "--gpus-per-node: got '7', expected with an input it divides"),  # changes nothing
    ],
)
def test_bad_tier_flags_exit_2_naming_the_flag(args: list[str], needle: str) -> None:
    """A tier flag without the persistent cost, a persistent tier cheaper or faster than the fast one, a share
    outside [0, 1], n below 1, a negative drain, or an interval shorter than the drain: exit 2, one line."""
    result = run("plan", *args)
    assert result.returncode == 2, result.stdout
    assert needle in result.stderr and len(result.stderr.strip().splitlines()) == 1


SPARE_TIER_FLEET = """gpus: 16384
rate_per_gpu_hour: 2e-5
checkpoint_cost: 1 min
slow_checkpoint_cost: 20 min
restart: {detect: 1 min, replace: 3 min, startup: 2 min, warmup: 2 min}
spares: {nodes: 16, repair: 12 h, takes_node: 0.6}
persistent: {cost: 4 min, restart: 22 min}
fast_survives: 0.8
price_per_gpu_hour: 2.0
month: 730 h
"""


@pytest.mark.parametrize(("flags", "edit"), [
    (["--spares", "0"], ("nodes: 16", "nodes: 0")),
    (["--repair", "48 h"], ("repair: 12 h", "repair: 48 h")),
    (["--rate", "8e-5"], ("2e-5", "8e-5")),
])
def test_flags_that_change_the_wait_for_repairs_move_r_p_with_r(tmp_path: Path, flags: list[str],
                                                                edit: tuple[str, str]) -> None:
    """R_p is the file's 22 min plus the wait R now takes: the flags give the plan of the file so edited. The file's
    R_p no longer kept the wait of the file's spares, refused beside the longer R of none ('got 22.0152...')."""
    (tmp_path / "fleet.yml").write_text(SPARE_TIER_FLEET)
    (tmp_path / "edited.yml").write_text(SPARE_TIER_FLEET.replace(*edit))
    flagged = plan_json("--params", str(tmp_path / "fleet.yml"), *flags)
    edited = plan_json("--params", str(tmp_path / "edited.yml"))
    for key in ("restart_min", "persistent_restart_min", "goodput", "persistent_every", "interval_min"):
        assert_allclose(flagged[key], edited[key], rtol=1e-12, err_msg=key)
    assert flagged["persistent_restart_min"] - flagged["restart_min"] == pytest.approx(22.0 - 8.0)


def test_a_part_flag_moves_r_p_with_r(tmp_path: Path) -> None:
    """--detect 30 min makes R's parts 37 min, past the file's R_p of 22 min: a restart from either tier detects the
    interruption alike, so R_p moves with R (R_p - R stays the file's 14 min), as the book moves it with the fleet's
    size; it was refused, naming persistent.restart."""
    (tmp_path / "fleet.yml").write_text(SPARE_TIER_FLEET)
    data = plan_json("--params", str(tmp_path / "fleet.yml"), "--detect", "30 min")
    assert data["persistent_restart_min"] - data["restart_min"] == pytest.approx(22.0 - 8.0)


def test_the_command_at_another_size_is_the_book_s_fleet_at_that_size(tmp_path: Path) -> None:
    """A tiered fleet whose start-up grows by 0.1 s a node: `--gpus` at twice, half and a quarter the size plans what
    the book's fleet-size table plans there (FleetPlan.by_size): R_p moves with R's start-up and wait. At twice the
    size the command refused the file's R_p of 22 min against an R of 37.5 min before its wait."""
    from goodput.fleet import fleet_plan

    fleet_text = SPARE_TIER_FLEET.replace("startup: 2 min,", "startup: 2 min, startup_per_node: 0.1 s,")
    (tmp_path / "fleet.yml").write_text(fleet_text)
    by_size = fleet_plan(load_params(tmp_path / "fleet.yml")).by_size
    for gpus in (32768, 8192, 4096):
        data = plan_json("--params", str(tmp_path / "fleet.yml"), "--gpus", str(gpus))
        plan = by_size[gpus]
        assert plan.tiers is not None
        assert data["persistent_restart_min"] == pytest.approx(plan.tiers.rp, rel=1e-12)
        assert data["goodput"] == pytest.approx(plan.goodput, rel=1e-9)
        assert "22 min in fleet.yml, moved with R's parts by" in data["sources"]["R_p"]  # not "given" as moved


@pytest.mark.parametrize(("key", "pair", "typed"), [("persistent_restart", "[20 min, 25 min]", "22 min"),
                                                  ("restart", "[7 min, 9 min]", "8 min")])
def test_a_range_around_the_typed_restart_says_the_wait_is_in_the_range(tmp_path: Path, key: str, pair: str,
                                                                       typed: str) -> None:
    """With spares, R and R_p wait for repairs, and a stated range is of the value with the wait: a range around the
    typed value is refused, in one line that gives the typed value and the wait as well as the value to contain."""
    fleet = SPARE_TIER_FLEET.replace("nodes: 16", "nodes: 1") + f"ranges: {{{key}: {pair}}}\n"
    (tmp_path / "fleet.yml").write_text(fleet)
    params = load_params(tmp_path / "fleet.yml")
    assert params.spares is not None
    wait = params.spares.wait(params.mtbi)
    result = run("plan", "--params", str(tmp_path / "fleet.yml"))
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    assert f"ranges.{key}" in result.stderr and f"({typed} before its wait for repairs of {format_duration(wait)}" \
        in result.stderr


def test_simulate_with_tiers_agrees_with_the_exact_model() -> None:
    """goodput simulate with a drain and a persistent tier runs the tier simulator at the plan's interval and n,
    within 4 standard errors of the exact model."""
    result = run("simulate", "--drain", "5 min", "--persistent-cost", "4 min", "--fast-survives", "0.7",
                 "--horizon", "50 years", "--format", "json", "--seed", "2")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert abs(data["goodput"] - data["exact_goodput"]) < 4 * data["stderr"]
    assert data["drain_loss"] > 0 and data["hard_failures"] > 0


def test_out_of_scale_inputs_are_refused_not_overflowed() -> None:
    """M of 1 ms against a 1-minute checkpoint: the job keeps no work; status 1 and one line, no overflow. M of
    1e-300 s is no duration the command reads (under a microsecond): status 2."""
    result = run("plan", "--mtbi", "1 ms")
    assert result.returncode == 1 and "keep essentially no work" in result.stderr
    assert run("plan", "--mtbi", "1e-300 s").returncode == 2


# --------------------------------------------------------------------------- what a planner knows (issues 19, 20)


def test_gemini_figure_from_parameters_and_bits_per_second() -> None:
    """GEMINI: MT-NLG's 530e9 parameters x 12 bytes at 20 Gb/s take about 42 min: within 1%."""
    data = plan_json("--parameters", "530e9", "--bytes-per-parameter", "12", "--write-bandwidth", "20 Gb/s")
    assert data["checkpoint_size_bytes"] == 530e9 * 12
    assert abs(data["checkpoint_cost_min"] - 42.0) / 42.0 < 0.01
    assert "checkpoint_cost" in data["derived"] and data["sources"]["C"] == data["derived"]["checkpoint_cost"]


def test_no_new_flag_leaves_the_json_numbers_unchanged() -> None:
    data = plan_json()
    assert (data["checkpoint_cost_min"], data["restart_min"]) == (1.0, 5.0)
    assert all(data[key] is None for key in ("checkpoint_size_bytes", "load_min", "restart_parts", "spares",
                                             "best_spares", "needed"))


def test_restart_parts_load_and_spares_in_json() -> None:
    data = plan_json("--checkpoint-size", "2.3 TB", "--write-bandwidth", "100 GB/s", "--read-bandwidth", "460 GB/s",
                     "--detect", "30 s", "--startup", "1", "--startup-per-node", "6 s", "--warmup", "2",
                     "--spares", "4", "--repair", "12 h", "--takes-node", "0.6")
    assert_allclose(data["load_min"], 2.3e12 / 460e9 / 60)
    parts = data["restart_parts"]
    assert_allclose(parts["startup"], 1 + 0.1 * 16384 / 8)
    assert_allclose(data["restart_min"], sum(parts.values()) + data["spares"]["wait_min"])
    assert data["derived"]["restart"] == data["sources"]["R"]  # R's derivation written once, as the table writes it
    best = data["best_spares"]
    assert best["nodes"] >= 0 and 0 < best["goodput"] < 1 and best["useful"] <= best["goodput"]
    assert max(row["net_gpus"] for row in best["by_count"]) == best["net_gpus"]  # the best count: most kept work net
    for row in best["by_count"]:  # of the spares' own GPUs, goodput x N - c g
        assert_allclose(row["net_gpus"], row["goodput"] * 16384 - 8 * row["nodes"])


@pytest.mark.parametrize("target", [0.6, 0.85])
def test_needed_bandwidth_plugged_back_gives_the_target(target: float) -> None:
    common = ("--parameters", "70e9", "--write-bandwidth", "1 GB/s")
    needed = plan_json(*common, "--target-goodput", str(target))["needed"]
    bandwidth = needed["write_bandwidth_bytes_per_s"]
    assert bandwidth is not None and needed["reason"] is None
    back = plan_json("--parameters", "70e9", "--write-bandwidth", f"{bandwidth!r} B/s")
    assert abs(back["goodput"] - target) < 0.001
    assert_allclose(back["checkpoint_cost_min"], needed["checkpoint_cost_min"])


def test_an_unreachable_target_is_null_with_a_reason() -> None:
    needed = plan_json("--parameters", "70e9", "--write-bandwidth", "1 GB/s", "--target-goodput", "0.999")["needed"]
    assert needed["write_bandwidth_bytes_per_s"] is None and needed["checkpoint_cost_min"] is None
    assert needed["reason"]


def test_table_and_markdown_show_the_derivation() -> None:
    args = ("plan", "--checkpoint-size", "2.3 TB", "--write-bandwidth", "250 GB/s", "--bandwidth-efficiency", "0.16")
    for fmt in ("table", "markdown"):
        result = run(*args, "--format", fmt)
        assert result.returncode == 0
        assert "2.3 TB at 40 GB/s achieved (16% of 250 GB/s)" in result.stdout


@pytest.mark.parametrize("args", [
    ["--checkpoint-size", "2.3", "--write-bandwidth", "1 GB/s"],          # a size with no unit
    ["--checkpoint-size", "2.3 TB", "--write-bandwidth", "1 GB"],         # a bandwidth with no /s
    ["--checkpoint-size", "2.3 TB", "--write-bandwidth", "0 GB/s"],       # zero bandwidth
    ["--checkpoint-size", "2.3 TB", "--write-bandwidth", "-1 GB/s"],
    ["--checkpoint-size", "2.3 TB", "--write-bandwidth", "20 gb/s"],      # bits or bytes? refused
    ["--checkpoint-size", "2.3 TB", "--write-bandwidth", "1 GB/s", "--bandwidth-efficiency", "0"],
    ["--checkpoint-size", "2.3 TB", "--write-bandwidth", "1 GB/s", "--bandwidth-efficiency", "1.01"],
    ["--checkpoint-size", "2.3 TB", "--write-bandwidth", "1 GB/s", "--snapshot-bandwidth", "20 GB/s",
     "--host-memory", "1 GB"],                                            # host memory too small
    ["--checkpoint-size", "2.3 TB", "--write-bandwidth", "1 GB/s", "--checkpoint-cost", "1"],
    ["--restart", "5", "--detect", "30 s"],
    ["--write-bandwidth", "1 GB/s"],                                      # no size
    ["--spares", "4"],
    ["--target-goodput", "0.9"],                                          # no size
    ["--target-goodput", "1"],
])
def test_bad_planner_flags_exit_2_with_one_line(args: list[str]) -> None:
    result = run("plan", *args)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert any(arg in result.stderr for arg in args if arg.startswith("--"))


def test_a_flag_beats_the_file_and_the_file_typed_c_yields_to_a_flagged_bandwidth(tmp_path) -> None:
    path = tmp_path / "fleet.yml"
    path.write_text(yaml.safe_dump({"gpus": 1024, "mtbi": "10 h", "checkpoint": {"size": "1 TB"},
                                    "storage": {"write_bandwidth": "10 GB/s"}, "restart": "5 min",
                                    "price_per_gpu_hour": 2.0, "month": "720 h"}))
    assert_allclose(plan_json("--params", str(path))["checkpoint_cost_min"], 1e12 / 10e9 / 60)
    assert plan_json("--params", str(path), "--checkpoint-cost", "2")["checkpoint_cost_min"] == 2.0
    assert_allclose(plan_json("--params", str(path), "--write-bandwidth", "20 GB/s")["checkpoint_cost_min"],
                    1e12 / 20e9 / 60)


def test_just_in_time_and_planned_stops_through_the_plan() -> None:
    """A share p recovered just in time: first order's optimum is sqrt(2CM/(1 - p)); the exact plan's goodput is
    goodput.restart.recovery_goodput's; planned stops cost goodput; with a drain it is the fleet's plan with both (goodput.plan.make_plan)."""
    from goodput.plan import make_plan
    from goodput.restart import recovery_goodput

    base = plan_json()
    jit = plan_json("--just-in-time", "0.75")
    assert_allclose(jit["goodput"], recovery_goodput(1.0, base["mtbi_min"], 5.0, just_in_time=0.75, jit_recovery=0.5))
    assert jit["goodput"] > base["goodput"]
    assert jit["just_in_time"] == {"share": 0.75, "recovery_min": 0.5, "planned_rate_per_hour": 0.0}
    first = plan_json("--just-in-time", "0.75", "--model", "first-order")
    assert_allclose(first["interval_min"], math.sqrt(2 * 1.0 * base["mtbi_min"] / 0.25))
    planned = plan_json("--just-in-time", "0.75", "--planned-rate", "0.036 per hour")
    assert planned["goodput"] < jit["goodput"]
    assert_allclose(sum(planned[k] for k in ("checkpoint_overhead", "lost_work", "restart_loss", "goodput")), 1.0)
    tiered = plan_json("--just-in-time", "0.5", "--drain", "2")
    assert_allclose(tiered["goodput"], make_plan(1.0, base["mtbi_min"], 5.0, drain=2.0, just_in_time=0.5,
                                                 jit_recovery=0.5).goodput)
    assert tiered["goodput"] > plan_json("--drain", "2")["goodput"]


def test_price_and_month_flags_set_the_capacity() -> None:
    """--price and --month change the capacity the losses take: (1 - goodput) x GPUs x price x hours; without a
    file or --price the output says the price is the worked example's."""
    data = plan_json("--price", "3.2", "--month", "730 h")
    capacity = data["capacity"]
    assert capacity["price_per_gpu_hour"] == 3.2 and capacity["month_min"] == 730 * 60
    expected = (1 - data["goodput"]) * data["gpus"] * 3.2 * 730
    assert math.isclose(capacity["lost_usd_per_month"], expected, rel_tol=1e-9)
    assert "the worked example's price" in run("plan").stdout
    assert "the worked example's price" not in run("plan", "--price", "3").stdout


# --------------------------------------------------------------------------- storage levers and price (issue 19, spec B and C)

STORED = ("--gpus", "65536", "--rate", "2.2e-5", "--parameters", "405e9", "--write-bandwidth", "2 TB/s",
          "--read-bandwidth", "4 TB/s", "--bandwidth-efficiency", "0.5", "--snapshot-bandwidth", "50 GB/s",
          "--host-memory", "2 TiB", "--detect", "1", "--replace", "3", "--startup", "4", "--warmup", "2")


def non_negative_numbers(value: object) -> list[float]:
    """Every number in a JSON value, nested ones included."""
    if isinstance(value, dict):
        return [x for v in value.values() for x in non_negative_numbers(v)]
    if isinstance(value, list):
        return [x for v in value for x in non_negative_numbers(v)]
    return [float(value)] if isinstance(value, (int, float)) and not isinstance(value, bool) else []


@pytest.mark.slow
def test_storage_levers_and_the_best_bandwidth_in_json() -> None:
    data = plan_json(*STORED, "--storage-price", "1500")
    levers = data["levers"]
    # the snapshot doubled is C halved, listed once as "halve C" (goodput.plan.storage_levers)
    assert "double the storage bandwidth" in levers and "double the snapshot bandwidth" not in levers
    doubled = {"2 TB/s": "4 TB/s", "4 TB/s": "8 TB/s"}  # the write and the read bandwidth
    faster = plan_json(*[doubled.get(a, a) for a in STORED])
    assert_allclose(levers["double the storage bandwidth"], faster["goodput"] - data["goodput"], atol=1e-12)
    best = data["best_write_bandwidth"]
    assert set(best) == {"bandwidth_bytes_per_s", "goodput", "storage_cost_per_month", "net_per_month", "edge",
                         "own_net_per_month", "flat"}
    assert all(x >= 0 for x in non_negative_numbers(best)) and 0.0 <= best["goodput"] <= 1.0
    assert_allclose(best["storage_cost_per_month"], 1500 * best["bandwidth_bytes_per_s"] / 1e9)
    assert all(0.0 <= v <= 1.0 for v in levers.values())


def test_no_storage_no_storage_levers_and_no_best_bandwidth() -> None:
    data = plan_json()
    assert data["best_write_bandwidth"] is None
    assert not {"double the storage bandwidth", "double the snapshot bandwidth"} & set(data["levers"])
    assert plan_json("--parameters", "70e9", "--write-bandwidth", "1 GB/s")["best_write_bandwidth"] is None


def test_the_best_bandwidth_in_table_and_markdown() -> None:
    for fmt in ("table", "markdown"):
        result = run("plan", "--parameters", "70e9", "--write-bandwidth", "1 GB/s", "--storage-price", "0",
                     "--format", fmt)
        assert result.returncode == 0, result.stderr
        assert "best write bandwidth net of its cost" in result.stdout and "at least 64 GB/s" in result.stdout
        assert "double the storage bandwidth" in result.stdout


@pytest.mark.parametrize("args", [
    ["--storage-price", "-1", "--parameters", "70e9", "--write-bandwidth", "1 GB/s"],
    ["--storage-price", "cheap", "--parameters", "70e9", "--write-bandwidth", "1 GB/s"],
    ["--storage-price", "1500"],                                          # no storage to price
])
def test_a_bad_storage_price_exits_2_with_one_line(args: list[str]) -> None:
    result = run("plan", *args)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "--storage-price" in result.stderr and "Traceback" not in result.stderr


def test_simulate_draws_just_in_time_recovery_and_planned_stops() -> None:
    """A tiered fleet with p = 0.6 and planned stops (S_q = C_p + R_p) simulates within 4 standard errors of its plan,
    which is below the same fleet's without planned stops; one tier with p is drawn too, against its plan."""
    tiered = ("simulate", "--drain", "5 min", "--persistent-cost", "4 min", "--fast-survives", "0.7",
              "--just-in-time", "0.6", "--horizon", "10 years", "--format", "json", "--seed", "3")
    planned = run(*tiered, "--planned-rate", "0.036 per hour")
    assert planned.returncode == 0, planned.stderr
    data = json.loads(planned.stdout)
    assert data["recoveries"] > 0 and data["planned_stops"] > 0 and data["hard_failures"] > 0
    assert data["just_in_time"] == 0.6 and data["planned_cost_min"] == 4.0 + 5.0
    assert abs(data["goodput"] - data["exact_goodput"]) < 4 * data["stderr"]
    unplanned = json.loads(run(*tiered).stdout)
    assert abs(unplanned["goodput"] - unplanned["exact_goodput"]) < 4 * unplanned["stderr"]
    assert data["exact_goodput"] < unplanned["exact_goodput"]
    one = run("simulate", "--just-in-time", "0.6", "--horizon", "10 years", "--format", "json", "--seed", "3")
    assert one.returncode == 0, one.stderr
    single = json.loads(one.stdout)
    assert single["recoveries"] > 0 and abs(single["goodput"] - single["exact_goodput"]) < 4 * single["stderr"]
    refused = run("simulate", "--just-in-time", "0.6", "--failures", "weibull")
    assert refused.returncode == 2 and "--failures" in refused.stderr


@pytest.mark.slow
def test_the_table_stays_within_80_columns_for_a_fleet_with_long_notes() -> None:
    """R's parts, the spares' note and a long file name wrap under their row instead of running past 80 columns."""
    story = Path(__file__).parent / "data" / "tiered-48k <img src=x onerror=alert(1)> & co.yml"
    result = run("plan", "--params", str(story))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert any("start-up 12.24 min" in line for line in lines)  # R's parts are still shown, wrapped


# --------------------------------------------------------------------------- a measured stall beside a snapshot

STALL_FLEET = Path(__file__).parent / "data" / "fleet-stored-stall.yml"
#: The stall fleet with a snapshot no faster than its storage: the synchronous write, with the stall's barrier and
#: quiesce, stalls 6.2 s against the scheme's 6.3 s and pays no drain, so the scheme does not pay.
NOT_PAYING_FLEET = Path(__file__).parent / "data" / "fleet-stall-slow-snapshot.yml"


@pytest.mark.slow
def test_plan_takes_the_measured_stall_and_says_what_the_copy_alone_takes() -> None:
    """fleet-stored-stall.yml: C = the typed 6.3 s, D the snapshot's 5.67 s drain; the C row says it is the measured
    stall and that the copy alone takes 13.8 ms; no snapshot lever (a faster copy does not change a measured C)."""
    data = plan_json("--params", str(STALL_FLEET))
    assert data["checkpoint_cost_min"] * 60.0 == pytest.approx(6.3) and data["drain_min"] * 60.0 == pytest.approx(5.67)
    assert "checkpoint_cost" not in data["derived"] and "692 MB per node" in data["derived"]["snapshot_copy"]
    assert data["sources"]["C"].startswith("the stall measured at a checkpoint, given in fleet-stored-stall.yml")
    assert data["sources"]["C"].endswith("takes 13.8 ms")
    assert "double the snapshot bandwidth" not in data["levers"] and "double the storage bandwidth" in data["levers"]
    text = run("plan", "--params", str(STALL_FLEET)).stdout
    assert "the stall measured at a checkpoint" in text and "C derived again" not in text


def test_plan_says_where_the_slow_checkpoint_keeps_more() -> None:
    """A 6.3 s stall beside a snapshot no faster than the storage: the synchronous write, paying the same barrier and
    quiesce, stalls 6.2 s and keeps 73.1% against 72.9%. The command says so right under the recommendation, before the
    tables, as the book's answer page does, in the terminal and the Markdown alike; the worked example's 5 min slow
    checkpoint keeps less, and so does the stall fleet's own write (5.67 s and the stall's 6.29 s of barrier and
    quiesce), where it was compared bare and "kept 73.4%"."""
    text = " ".join(run("plan", "--params", str(NOT_PAYING_FLEET)).stdout.split())
    assert "Not paying:" in text and "keeps 73.1% checkpointing every 2.86 min, 0.21 points more" in text
    assert text.index("goodput 72.9%.") < text.index("Not paying:") < text.index("inputs:")
    markdown = run("plan", "--params", str(NOT_PAYING_FLEET), "--format", "markdown").stdout
    assert markdown.index("**Recommendation.**") < markdown.index("> Not paying:") < markdown.index("| input |")
    assert "Not paying:" not in run("plan").stdout and "Not paying:" not in run("plan", "--params", str(STALL_FLEET)).stdout


def test_a_stall_below_the_copy_exits_2_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "fleet.yml"
    path.write_text(STALL_FLEET.read_text(encoding="utf-8").replace("checkpoint_cost: 6.3 s", "checkpoint_cost: 5 ms"),
                    encoding="utf-8")
    for args in (["--params", str(path)], ["--params", str(STALL_FLEET), "--checkpoint-cost", "5 ms"]):
        result = run("plan", *args)
        assert result.returncode == 2 and result.stdout == "" and result.stderr.count("\n") == 1
        assert "got '5 ms', expected at least the snapshot's copy, 13.8 ms" in result.stderr


@pytest.mark.slow
def test_a_flag_beats_the_files_measured_stall() -> None:
    """--checkpoint-cost replaces the file's stall (still a measured stall); --snapshot-bandwidth derives C again."""
    flagged = plan_json("--params", str(STALL_FLEET), "--checkpoint-cost", "9 s")
    assert flagged["checkpoint_cost_min"] * 60.0 == pytest.approx(9.0)
    assert flagged["sources"]["C"].startswith("the stall measured at a checkpoint, given by --checkpoint-cost")
    faster = plan_json("--params", str(STALL_FLEET), "--snapshot-bandwidth", "100 GB/s")
    assert faster["checkpoint_cost_min"] * 60.0 == pytest.approx(5.67e12 / 8192 / 100e9, rel=1e-3)
    assert "checkpoint_cost" in faster["derived"]


@pytest.mark.parametrize(("flags", "quoted"), [
    (["--read-bandwidth", "10GB/s"], "--read-bandwidth: got '10GB/s'"),
    (["--host-memory=1TB"], "--host-memory: got '1TB'"),
    (["--target-goodput", "0.9"], "--target-goodput: got '0.9'"),
    (["--bandwidth-efficiency", "0.5"], "--bandwidth-efficiency: got '0.5'"),
    (["--takes-node", "0.5"], "--takes-node: got '0.5'"),
    (["--bytes-per-parameter", "12"], "--bytes-per-parameter: got '12'"),
])
def test_a_flag_refused_deeper_down_is_quoted_as_typed(flags: list[str], quoted: str) -> None:
    """A flag refused for want of another input is quoted as typed. Every decimal was written as a duration:
    "--read-bandwidth: got '19,026 years'" for 10GB/s, "--target-goodput: got '54 s'" for 0.9."""
    result = run("plan", *flags)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith(f"goodput: error: {quoted}, expected") and result.stderr.count("\n") == 1


def test_the_json_says_where_the_scheme_does_not_pay() -> None:
    """The JSON carries the "Not paying" the text prints: the slow-snapshot fleet's 6.2 s write keeps 73.1% every
    2.86 min, 0.21 points more than the scheme's 72.9%; null where the scheme pays (the worked example)."""
    data = plan_json("--params", str(NOT_PAYING_FLEET))
    slow = data["not_paying"]
    assert slow is not None and round(slow["checkpoint_cost_min"] * 60, 1) == 6.2
    assert (round(100 * slow["goodput"], 1), format_duration(slow["interval_min"])) == (73.1, "2.86 min")
    assert slow["gain"] == pytest.approx(slow["goodput"] - data["goodput"]) and round(100 * slow["gain"], 2) == 0.21
    assert plan_json()["not_paying"] is None


def test_none_held_and_trillions_read_as_a_person_writes_them(tmp_path: Path) -> None:
    """A file holding no spare node: "R = ... with none held", not "with the 0 held"; two trillion parameters are
    "2 trillion", not "2000 billion"."""
    fleet = tmp_path / "f.yml"
    fleet.write_text("gpus: 4096\nrate_per_gpu_hour: 2e-5\ncheckpoint: {parameters: 2e12}\n"
                     "storage: {write_bandwidth: 2 TB/s}\nrestart: {detect: 1 min, replace: 3 min, startup: 2 min}\n"
                     "spares: {nodes: 0, repair: 24 h, takes_node: 0.5}\nprice_per_gpu_hour: 2\nmonth: 730 h\n")
    text = " ".join(run("plan", "--params", str(fleet)).stdout.split())
    assert "with none held)" in text and "with the 0 held" not in text
    assert "2 trillion parameters" in text and "2000 billion" not in text


def test_first_order_labels_follow_recovery(tmp_path: Path) -> None:
    """With 55% of interruptions recovered just in time, first order's optimum is √(2CM/(1 − p)) and its losses are not
    the brief's C/T, T/(2M), R/M: the command labelled 9.63 min "T* = √(2CM)" (6.46 min) and 5.0% "T/(2M)" (11.1%)."""
    text = run("plan", "--rate", "2e-5", "--checkpoint-cost", "1", "--restart", "10", "--model", "first-order").stdout
    assert "T* = √(2CM)" in text and "T/(2M)" in text
    fleet = tmp_path / "jit.yml"
    fleet.write_text("gpus: 16384\nrate_per_gpu_hour: 2e-5\ncheckpoint_cost: 1 min\nslow_checkpoint_cost: 5 min\n"
                     "restart: 10 min\njust_in_time: 0.55\nprice_per_gpu_hour: 2\nmonth: 730 h\n")
    recovered = run("plan", "--params", str(fleet), "--model", "first-order").stdout
    assert "T* = √(2CM/(1 − p))" in " ".join(recovered.split()) and "T/(2M)" not in recovered


def test_the_cross_check_is_the_book_s_first_order_plan(tmp_path: Path) -> None:
    """Where the plan chooses the cadence, the command's first-order cross-check chooses its own, as the book's
    FleetPlan.first_order does: for 512 GPUs with a persistent tier the command quoted first order at the exact plan's
    every 4th checkpoint (31.5 min) while the pages quoted its own every 5th (26.7 min), both 85.1%."""
    from goodput.fleet import fleet_plan
    from goodput.params import load_params

    fleet_file = tmp_path / "f02.yml"
    fleet_file.write_text(
        "gpus: 512\ngpus_per_node: 8\nrate_per_gpu_hour: 8.85e-05\ncheckpoint_cost: 11 s\nslow_checkpoint_cost: 4 min\n"
        "restart: {detect: 3 min, replace: 11 min, startup: 5 min, warmup: 3 min}\n"
        "spares: {nodes: 2, repair: 30 h, takes_node: 0.75}\ndrain: 80 s\npersistent: {cost: 2.7 min, restart: 59 min}\n"
        "fast_survives: 0.61\nprice_per_gpu_hour: 2.74\nmonth: 720 h\n")
    data = plan_json("--params", str(fleet_file))
    fleet = fleet_plan(load_params(fleet_file))
    cross = data["cross_check"]
    assert cross["goodput"] == pytest.approx(fleet.first_order.goodput, abs=1e-12)
    assert cross["optimal_interval_min"] == pytest.approx(fleet.first_order.optimal_interval, rel=1e-12)
    assert format_duration(cross["optimal_interval_min"]) == "26.7 min" and fleet.first_order.tiers.every == 5


def test_the_cross_check_quotes_first_order_with_the_book_s_caution() -> None:
    """Where first order is quotable but over a point off (the book's "caution"), the command's cross-check says so
    under its row, as the book does; it printed "optimum" alone. The worked example (0.7 points) keeps "optimum"."""
    text = " ".join(run("plan", "--gpus", "32768").stdout.split())
    assert "by first order 79.9% at 13.6 min first order is 1.6 points below the exact model here" in text
    assert "by first order 86.9% at 19.3 min optimum" in " ".join(run("plan").stdout.split())


def test_gpus_rescale_a_counted_m_with_its_poisson_range() -> None:
    """--gpus on the worked example's count (419 in 54 days on 16,384 GPUs): at 8,192 GPUs M and both ends of its
    Poisson range double, as the count's GPU-hours hold at any size (the range had been dropped, while "goodput over
    all the ranges" still read as if every input were ranged). --mtbi drops it: a typed M has no count."""
    from goodput.uncertainty import poisson_interval

    low, high = poisson_interval(419, 54 * 24 * 60)
    half = plan_json("--gpus", "8192")
    assert_allclose(half["mtbi_min"], 2 * 54 * 24 * 60 / 419)
    assert_allclose(half["ranges"]["mtbi"], [2 * low, 2 * high])
    assert half["goodput_range"][0] < plan_json("--gpus", "8192", "--mtbi", f"{2 * 54 * 24 * 60 / 419} min")[
        "goodput_range"][0]
    assert plan_json("--mtbi", "6 h")["ranges"]["mtbi"] is None


def test_an_interval_off_the_optimum_is_not_a_scheme_that_does_not_pay() -> None:
    """--interval 3 min keeps 72.2% against the slow checkpoint's 76.5%, but the scheme at its optimum keeps 87.6%: no
    "Not paying" (it had said the fleet's checkpoint scheme costs more than it saves). A stall longer than the write
    still does not pay, its gain counted from the scheme at its optimum."""
    data = plan_json("--interval", "3 min")
    slow = plan_json("--checkpoint-cost", "5 min")["goodput"]  # the slow checkpoint at its own optimum: 76.5%
    assert data["goodput"] < slow < plan_json()["goodput"] and data["not_paying"] is None
    assert "Not paying" not in run("plan", "--interval", "3 min").stdout
    stall = plan_json("--params", str(NOT_PAYING_FLEET), "--interval", "10 min")
    best = plan_json("--params", str(NOT_PAYING_FLEET))
    assert stall["not_paying"] is not None and best["not_paying"] is not None
    assert stall["not_paying"]["gain"] == pytest.approx(best["not_paying"]["gain"])
    assert best["not_paying"]["gain"] > 0


def test_first_orders_gap_reads_past_the_limit_it_crossed() -> None:
    """M = 57 min: first order is 3.001 points below the exact model, past the 3-point limit, and the refusal says so
    in enough digits (it read "3.0 points ... (more than 3 points)", as a 2.96-point caution elsewhere reads)."""
    result = run("plan", "--mtbi", "57 min", "--model", "first-order")
    assert result.returncode == 1 and "first order is 3.001 points below the exact model" in result.stderr


def test_simulate_says_which_side_of_the_model_the_simulation_lies() -> None:
    """Ten years of the worked example simulate 87.55% against the exact model's 87.58%: the model's row says the
    simulation lies 0.8 standard errors below it (it read "-0.8 standard errors from the simulation" on the model's
    row, the sign the other way round)."""
    result = run("simulate", "--horizon", "10 years")
    assert result.returncode == 0 and "(the simulation 0.8 standard errors below it)" in result.stdout


def test_a_ctrl_c_while_the_command_loads_exits_130(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The entry point loads the command inside its guard: a Ctrl-C while goodput.cli is imported exits 130 with one
    line (it had printed a KeyboardInterrupt traceback and died by the signal, the interrupt landing before
    goodput.cli.main could catch it)."""
    import builtins
    import sys

    from goodput import __main__ as entry

    real = builtins.__import__

    def interrupted(name: str, *args: object, **kwargs: object) -> object:
        if name == "goodput.cli":
            raise KeyboardInterrupt
        return real(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.delitem(sys.modules, "goodput.cli")
    monkeypatch.setattr(builtins, "__import__", interrupted)
    assert entry.main(["plan"]) == 130
    assert capsys.readouterr().err == "goodput: interrupted\n"


def test_the_verdict_on_first_order_is_the_fleets_whichever_model_plans() -> None:
    """A tiered fleet where the exact model persists every 6th checkpoint and first order every 7th: the book says
    first order is 5.4 points off (the exact plan's check); the command said 5.3 (first order's own plan's), on the
    same page. Both the cross-check and --model first-order now give the fleet's verdict."""
    from goodput.fleet import fleet_plan
    from goodput.plan import plan_for
    from goodput.report import points

    path = Path(__file__).parent / "data" / "fleet-planned-tiered.yml"
    fleet = fleet_plan(load_params(path))
    own = plan_for(fleet.params, which="first-order")
    assert fleet.plan.tiers is not None and own.tiers is not None and fleet.plan.tiers.every != own.tiers.every
    said = f"first order is {points(fleet.first_order_gap)} below the exact model"
    assert said != f"first order is {points(own.check.error)} below the exact model"  # the two checks read apart
    data = plan_json("--params", str(path))
    assert said in data["cross_check"]["problem"]
    refused = run("plan", "--params", str(path), "--model", "first-order")
    assert refused.returncode == 1 and said in refused.stderr


@pytest.mark.parametrize("args", [["--restart", "900000 years"], ["--rate", "1"]])
def test_simulate_refuses_what_plan_refuses_as_out_of_scale(args: list[str]) -> None:
    """Inputs that keep essentially no work: plan refuses them (exit 1); simulate blamed the horizon the user had not
    given ("horizon: got '5.256e+07 min', expected at least 1.514e+15 min")."""
    planned, simulated = run("plan", *args), run("simulate", *args)
    assert planned.returncode == simulated.returncode == 1
    assert simulated.stderr == planned.stderr and "horizon" not in simulated.stderr
