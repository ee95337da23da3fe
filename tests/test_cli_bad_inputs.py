"""Bad input from the hostile-input sweep: one line naming what was typed, exit 2 (1 where the model does not apply).

Each test asserts the exit status and that the message names the input the user typed and quotes its value, not a
quantity derived from it.
"""

from __future__ import annotations

import contextlib
import io
import math
from pathlib import Path

import pytest

from goodput.cli import main
from goodput.report import money

ROOT = Path(__file__).resolve().parent.parent
STORED = str(ROOT / "tests" / "data" / "fleet-stored.yml")


def run(*args: str) -> tuple[int, str, str]:
    """The command's exit status, standard output and standard error for `args`, run in this process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(args))
    return status, out.getvalue(), err.getvalue()


def refused(code: int, *args: str) -> str:
    """Run the command; assert it exits `code` with one line on stderr, nothing on stdout and no traceback."""
    status, out, err = run(*args)
    assert status == code, (status, err)
    assert out == ""
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def params_file(tmp_path: Path, text: str, base: str = STORED) -> str:
    """A copy of `base` with `text` appended over its keys (the last line of a key given again replaces it)."""
    import yaml

    data = yaml.safe_load(Path(base).read_text())
    data.update(yaml.safe_load(text))
    path = tmp_path / "fleet.yml"
    path.write_text(yaml.safe_dump(data))
    return str(path)


# ---------------------------------------------------------------- A1, B3, C5, C11: sizes and bandwidths have a ceiling


@pytest.mark.parametrize(("flag", "value"), [("--write-bandwidth", "1e306 B/s"), ("--write-bandwidth", "1e15 TB/s"),
                                             ("--write-bandwidth", "1e308 B/s"), ("--read-bandwidth", "1e308 B/s"),
                                             ("--snapshot-bandwidth", "1e308 B/s"), ("--write-bandwidth", "1e308 GB/s")])
def test_a_typed_bandwidth_beyond_the_fastest_is_refused_naming_it(flag: str, value: str) -> None:
    """1e306 B/s crashed in money() (the doubled cost was inf - inf); 1e15 TB/s printed '$23437500000B a month'."""
    err = refused(2, "plan", "--params", STORED, flag, value)
    assert flag in err and repr(value) in err and "at most 1 PB/s" in err


@pytest.mark.parametrize(("flag", "value"), [("--checkpoint-size", "1e300 PB"), ("--host-memory", "1e308 TB")])
def test_a_typed_size_too_large_is_refused_as_too_large(flag: str, value: str) -> None:
    """It said 'expected a size of at least 1 B' of a size that overflowed."""
    err = refused(2, "plan", "--params", STORED, flag, value)
    assert flag in err and repr(value) in err and "at most" in err and "at least 1 B" not in err


@pytest.mark.parametrize(("text", "key"), [("storage: {write_bandwidth: 1e306 B/s, price: 1500}", "storage.write_bandwidth"),
                                           ("snapshot: {bandwidth: 1e308 B/s}", "snapshot.bandwidth")])
def test_a_bandwidth_in_the_file_beyond_the_fastest_is_refused_naming_its_key(tmp_path: Path, text: str, key: str) -> None:
    err = refused(2, "plan", "--params", params_file(tmp_path, text))
    assert f"{key}: got '1e30" in err and "at most 1 PB/s" in err


def test_money_never_crashes() -> None:
    """money() of a difference of unbounded costs (nan) or of an unbounded one writes words, not a ValueError."""
    assert "$" not in money(math.nan) and "$" not in money(math.inf)


# ---------------------------------------------------------------- B1: a planned rate whose spacing is unbounded


@pytest.mark.parametrize("value", ["5e-324 per hour", "1e-12 per day"])
def test_a_planned_rate_below_one_in_a_million_years_is_refused(tmp_path: Path, value: str) -> None:
    """It printed 'one every unbounded'."""
    err = refused(2, "plan", "--planned-rate", value)
    assert "--planned-rate" in err and repr(value) in err and "million years" in err
    err = refused(2, "plan", "--params", params_file(tmp_path, f"planned: {{rate: {value}}}"))
    assert "planned.rate" in err and repr(value) in err


def test_no_planned_stops_are_still_read() -> None:
    assert run("plan", "--planned-rate", "0 per hour")[0] == 0


# ---------------------------------------------------------------- B2, E1, C1-C4, D1: a derived size or duration out of
# range is refused naming the input typed


@pytest.mark.parametrize(("args", "flag", "value"), [
    (("--bandwidth-efficiency", "1e-300"), "--bandwidth-efficiency", "1e-300"),  # exit 1, C of 8.99e+292 years
    (("--bandwidth-efficiency", "5e-324"), "--bandwidth-efficiency", "5e-324"),  # "load: got inf"
    (("--write-bandwidth", "1 B/s", "--bandwidth-efficiency", "1e-300"), "--bandwidth-efficiency", "1e-300"),
    (("--parameters", "5e-324"), "--parameters", "5e-324"),  # "checkpoint_size: got 0.0"
    (("--parameters", "1e-300"), "--parameters", "1e-300"),  # accepted: C 3.42e-311 ms
    (("--bytes-per-parameter", "5e-324"), "--bytes-per-parameter", "5e-324"),  # "checkpoint_cost: got 0.0"
    (("--bytes-per-parameter", "1e308"), "--bytes-per-parameter", "1e308"),  # "parameters: got 405000000000.0"
    (("--bytes-per-parameter", "1e17"), "--bytes-per-parameter", "1e17"),
    (("--checkpoint-size", "1 B"), "--checkpoint-size", "1 B"),  # accepted: C 2.4 ns
    (("--snapshot-bandwidth", "1e15 B/s"), "--snapshot-bandwidth", "1e15 B/s"),
])
def test_a_derived_size_or_duration_out_of_range_names_the_flag_typed(args: tuple[str, ...], flag: str,
                                                                       value: str) -> None:
    err = refused(2, "plan", "--params", STORED, *args)
    assert f"{flag}: got {value!r}" in err, err


@pytest.mark.parametrize(("text", "key", "value"), [
    ("storage: {write_bandwidth: 2 TB/s, efficiency: 1e-300}", "storage.efficiency", "1e-300"),
    ("storage: {write_bandwidth: 2 TB/s, read_bandwidth: 4 TB/s, read_efficiency: 5e-324}", "storage.read_efficiency",
     "5e-324"),
    ("checkpoint: {parameters: 5e-324}", "checkpoint.parameters", "5e-324"),
    ("checkpoint: {parameters: 405e9, bytes_per_parameter: 1e308}", "checkpoint.bytes_per_parameter", "1e308"),
    ("checkpoint: {parameters: 1e308}", "checkpoint.parameters", "1e308"),
])
def test_a_derived_size_or_duration_out_of_range_names_the_key_typed(tmp_path: Path, text: str, key: str,
                                                                      value: str) -> None:
    err = refused(2, "plan", "--params", params_file(tmp_path, text))
    assert f"{key}: got {value!r}" in err, err


def test_a_write_long_but_within_a_million_years_is_still_the_model_s_refusal() -> None:
    """1 B/s writes the 5.67 TB checkpoint in 360,000 years: a duration a user may type, so exit 1 as before."""
    refused(1, "plan", "--params", STORED, "--write-bandwidth", "1 B/s")


# ---------------------------------------------------------------- C12, D2: a duration that underflows to zero minutes


@pytest.mark.parametrize(("flag", "value"), [("--drain", "5e-324 s"), ("--detect", "5e-324 s"), ("--repair", "5e-324 s"),
                                             ("--drain", "5e-324 ms"), ("--drain", "5e-324 min")])
def test_a_duration_below_a_microsecond_is_refused_in_any_unit(flag: str, value: str) -> None:
    """'5e-324 s' was read as zero where zero is allowed (a drain, a restart's part) and as 'expected greater than
    zero' where it is not, while '5e-324 min' was refused as below a microsecond."""
    err = refused(2, "plan", "--params", STORED, flag, value)
    assert flag in err and repr(value) in err and "at least a microsecond" in err


def test_a_drain_below_a_microsecond_in_the_file_is_refused(tmp_path: Path) -> None:
    err = refused(2, "plan", "--params", params_file(tmp_path, "drain: 5e-324 s", base=str(ROOT / "book" / "params.yml")))
    assert "drain: got '5e-324 s'" in err and "at least a microsecond" in err


def test_a_zero_drain_is_still_read() -> None:
    assert run("plan", "--drain", "0 s")[0] == 0


# ---------------------------------------------------------------- E2: M from a rate or a count below a microsecond


@pytest.mark.parametrize(("text", "key", "value"), [
    ("interruptions: {count: 1e308, window: 54 days}", "interruptions.count", "1e308"),
    ("interruptions: {count: 1e18, window: 54 days}", "interruptions.count", "1e18"),
    ("rate_per_gpu_hour: 1e300", "rate_per_gpu_hour", "1e300"),
])
def test_an_mtbi_below_a_microsecond_from_a_rate_or_count_is_an_input_error(tmp_path: Path, text: str, key: str,
                                                                            value: str) -> None:
    """It exited 1 ('interruptions come every 4.67e-299 ms ... no plan to make'); 'mtbi: 4.67e-299 ms' exits 2."""
    base = str(ROOT / "book" / "params.yml")
    import yaml

    data = yaml.safe_load(Path(base).read_text())
    for k in ("interruptions", "rate_per_gpu_hour", "mtbi"):
        data.pop(k, None)
    data.pop("ranges", None)
    data.update(yaml.safe_load(text))
    path = tmp_path / "fleet.yml"
    path.write_text(yaml.safe_dump(data))
    err = refused(2, "plan", "--params", str(path))
    assert f"{key}: got {value!r}" in err and "at least a microsecond" in err, err


def test_an_mtbi_below_a_microsecond_from_the_rate_flag_is_an_input_error() -> None:
    err = refused(2, "plan", "--rate", "1e300")
    assert "--rate: got '1e300'" in err


# ---------------------------------------------------------------- D3: a just-in-time recovery out of scale


def test_a_just_in_time_recovery_out_of_scale_is_refused_as_a_restart_as_long_is(tmp_path: Path) -> None:
    """'just_in_time: {share: 0.5, recovery: 999999 years}' exited 0 with 'goodput 0.0%'; 'restart: 999999 years' exits
    1 ('no plan to make')."""
    base = str(ROOT / "tests" / "data" / "fleet-planned-tiered.yml")
    jit = refused(1, "plan", "--params", params_file(tmp_path, "just_in_time: {share: 0.5, recovery: 999999 years}",
                                                     base=base))
    assert "no plan to make" in jit and "1,000,000 years" in jit
    assert run("plan", "--params", params_file(tmp_path, "just_in_time: {share: 0.5, recovery: 30 s}",
                                               base=base))[0] == 0


# ---------------------------------------------------------------- C10: restart parts adding up to zero


@pytest.mark.parametrize("value", ["0", "0 min", "5e-324 s"])
def test_a_restart_part_flag_adding_up_to_zero_names_the_flag(value: str) -> None:
    """'--detect 0' read 'restart: got 0.0', naming an input the flag replaced."""
    err = refused(2, "plan", "--detect", value)
    assert "--detect: got " in err and "restart: got" not in err


def test_restart_parts_in_the_file_adding_up_to_zero_quote_the_mapping(tmp_path: Path) -> None:
    path = tmp_path / "p.yml"
    path.write_text("gpus: 16384\nmtbi: 186 min\ncheckpoint_cost: 1 min\nslow_checkpoint_cost: 5 min\n"
                    "restart: {detect: 0 s}\nprice_per_gpu_hour: 2.5\nmonth: 720 h\n")
    err = refused(2, "plan", "--params", str(path))
    assert "restart: got {'detect': '0 s'}" in err


# ---------------------------------------------------------------- C9: GPUs that the default GPUs per node do not divide


@pytest.mark.parametrize("gpus", ["65537", "1"])
def test_gpus_the_default_per_node_does_not_divide_name_the_gpus(gpus: str) -> None:
    """It read 'gpus_per_node: got 8', an input nobody typed (the default)."""
    err = refused(2, "plan", "--params", STORED, "--gpus", gpus)
    assert f"--gpus: got {gpus!r}" in err and "gpus_per_node: got" not in err


def test_gpus_in_the_file_the_default_per_node_does_not_divide_name_the_gpus(tmp_path: Path) -> None:
    err = refused(2, "plan", "--params", params_file(tmp_path, "gpus: 65537"))
    assert "gpus: got 65537" in err and "gpus_per_node: got" not in err


def test_gpus_per_node_typed_is_still_named() -> None:
    err = refused(2, "plan", "--params", STORED, "--gpus-per-node", "7")
    assert "--gpus-per-node: got '7'" in err


# ---------------------------------------------------------------- E3, C14: the default horizon, which nobody typed


@pytest.mark.parametrize("args", [("--mtbi", "999999 years"),
                                  ("--params", str(ROOT / "tests" / "data" / "tiered-48k <img src=x onerror=alert(1)> & co.yml"),
                                   "--fast-survives", "1")])
def test_a_default_horizon_too_short_says_it_is_the_default(args: tuple[str, ...]) -> None:
    """It read "horizon: got '5.256e+07 min', expected at least 3.281e+09 min", blaming an input nobody typed."""
    err = refused(2, "simulate", *args)
    assert "--horizon: got nothing" in err and "default horizon, 100 years" in err and "pass --horizon" in err
    assert " min:" not in err and "e+" not in err  # durations written as durations


def test_a_typed_horizon_is_quoted_as_typed() -> None:
    err = refused(2, "simulate", "--horizon", "999999 years")
    assert "--horizon: got '999999 years'" in err and "default" not in err


# ---------------------------------------------------------------- C7, C15: the snapshot named by the key path typed


def test_a_snapshot_slower_than_the_write_quotes_the_bandwidth_typed(tmp_path: Path) -> None:
    """It read "snapshot.bandwidth: got 'a snapshot of 21.9 years'", a sentence nobody typed."""
    err = refused(2, "plan", "--params", params_file(tmp_path, "snapshot: {bandwidth: 1 B/s, host_memory: 2 TiB}"))
    assert "snapshot.bandwidth: got '1 B/s'" in err


def test_a_snapshot_nested_in_storage_is_named_by_its_whole_key_path(tmp_path: Path) -> None:
    """It read 'snapshot.bandwidth: ...' of storage: {snapshot: {bandwidth: ...}}."""
    base = str(ROOT / "tests" / "data" / "fleet-small-tiered.yml")
    err = refused(2, "plan", "--params", params_file(
        tmp_path, "storage: {write_bandwidth: 20 GB/s, efficiency: 0.6, snapshot: {bandwidth: inf GB/s, "
        "host_memory: 2 TB}}", base=base))
    assert "storage.snapshot.bandwidth: got 'inf GB/s'" in err
