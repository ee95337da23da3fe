"""Bad input from the hostile-input sweep: one line naming what was typed, exit 2 (1 where the model does not apply).

Each test asserts the exit status and that the message names the input the user typed and quotes its value, not a
quantity derived from it.
"""

from __future__ import annotations

import contextlib
import io
import math
from dataclasses import dataclass
from pathlib import Path

import pytest

from goodput.cli import main
from goodput.report import money

ROOT = Path(__file__).resolve().parent.parent
STORED = str(ROOT / "tests" / "data" / "fleet-stored.yml")


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


def refused(code: int, *args: str) -> str:
    """Run the command; assert it exits `code` with one line on stderr, nothing on stdout and no traceback."""
    result = run(*args)
    assert result.returncode == code, (result.returncode, result.stderr)
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr, result.stderr
    return result.stderr


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
    assert run("plan", "--planned-rate", "0 per hour").returncode == 0
