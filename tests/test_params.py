"""The inputs file: the worked example reads as the brief's numbers, and every kind of bad file is refused clearly."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from numpy.testing import assert_allclose

from goodput.book.paths import book_params_path, book_root
from goodput.errors import InputError
from goodput.params import MAX_FILE_BYTES, WORKED_EXAMPLE, load_params, params_from_mapping

ROOT = Path(__file__).resolve().parent.parent

GOOD = {
    "gpus": 16384,
    "interruptions": {"count": 419, "window": "54 days"},
    "checkpoint_cost": "1 min",
    "slow_checkpoint_cost": "5 min",
    "restart": "5 min",
    "price_per_gpu_hour": 2.5,
    "month": "720 h",
}


def test_worked_example_m_from_count_and_window(worked) -> None:
    """M = 54 days / 419 = 1296 h / 419 = 185.6 min (the brief rounds it to 186)."""
    assert_allclose(worked.mtbi, 54 * 24 * 60 / 419)
    assert round(worked.mtbi) == 186
    assert worked.interruption_count == 419
    assert_allclose(worked.window, 1296 * 60)


def test_worked_example_inputs(worked) -> None:
    """C = 1 min, slow C = 5 min, R = 5 min, 16,384 GPUs, $2.5 per GPU-hour, a 720-hour month."""
    assert (worked.gpus, worked.checkpoint_cost, worked.slow_checkpoint_cost, worked.restart) == (16384, 1, 5, 5)
    assert worked.price_per_gpu_hour == 2.5
    assert worked.month == 720 * 60


def test_implied_rate_per_gpu_hour(worked) -> None:
    """419 interruptions over 16,384 GPUs x 1,296 h = 1.97e-5 per GPU-hour."""
    assert_allclose(worked.rate_per_gpu_hour, 419 / (16384 * 1296))


def test_rate_and_mtbi_alternatives() -> None:
    """M = 60 / (rate x GPUs) minutes: 2e-5 x 16,384 = 0.328 per hour, M = 183 min; or M given directly."""
    by_rate = params_from_mapping({**_without("interruptions"), "rate_per_gpu_hour": 2.0e-5})
    assert_allclose(by_rate.mtbi, 60 / (2.0e-5 * 16384))
    assert round(by_rate.mtbi) == 183
    by_m = params_from_mapping({**_without("interruptions"), "mtbi": "3.1 h"})
    assert_allclose(by_m.mtbi, 186.0)


def test_book_params_file_is_the_worked_example() -> None:
    """book/params.yml and the packaged worked example give the same inputs (the book also names sample logs)."""
    book = load_params(ROOT / "book" / "params.yml")
    assert book.steps_log == ROOT / "book" / "data" / "sample-steps.csv"
    assert book.events_log == ROOT / "book" / "data" / "sample-events.csv"
    assert book.steps_log.exists() and book.events_log.exists()
    same = {"source": "x", "path": None, "sha256": None, "steps_log": None, "events_log": None}
    assert book.replace(**same) == load_params(WORKED_EXAMPLE).replace(**same)


def test_book_params_path_follows_the_environment(monkeypatch, tmp_path) -> None:
    """GOODPUT_PARAMS, when set, names the file the book is built from; else book/params.yml under the book's root,
    found from the working directory (a chapter runs in book/), not from where the package is installed."""
    monkeypatch.delenv("GOODPUT_PARAMS", raising=False)
    monkeypatch.chdir(ROOT / "book")
    assert book_root() == ROOT
    assert book_params_path() == ROOT / "book" / "params.yml"
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError, match="inside the book"):
        book_root()
    monkeypatch.setenv("GOODPUT_PARAMS", str(tmp_path / "fleet.yml"))
    assert book_params_path() == tmp_path / "fleet.yml"


def _without(*keys: str) -> dict:
    return {k: v for k, v in GOOD.items() if k not in keys}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({**GOOD, "restrat": "5 min"}, "key 'restrat'.*did you mean 'restart'"),
        (_without("restart"), "key 'restart'.*missing"),
        ({**GOOD, "restart": "5 minutes please"}, "restart"),
        ({**GOOD, "restart": "5 fortnights"}, "known unit"),
        ({**GOOD, "checkpoint_cost": "-1 min"}, "checkpoint_cost.*greater than zero"),
        ({**GOOD, "checkpoint_cost": ".nan min"}, "checkpoint_cost"),
        ({**GOOD, "gpus": 0}, "gpus.*from 1 to 10,000,000"),
        ({**GOOD, "gpus": 1.5}, "gpus.*whole number"),
        ({**GOOD, "gpus": "many"}, "gpus"),
        ({**GOOD, "price_per_gpu_hour": float("inf")}, "price_per_gpu_hour.*above 0 and at most"),
        ({**GOOD, "rate_per_gpu_hour": 2e-5}, "exactly one of"),
        (_without("interruptions"), "exactly one of"),
        ({**GOOD, "interruptions": {"count": 419}}, "interruptions.*count: N, window"),
        ({**GOOD, "interruptions": {"count": -3, "window": "54 days"}}, "interruptions.count"),
        ({**GOOD, "interruptions": {"count": 419, "window": 54}}, "interruptions.window.*needs a unit"),
        ({**GOOD, "month": 720}, "month.*needs a unit"),
        ({**GOOD, "logs": {"steps": "s.csv"}}, "logs.events.*missing"),
        ({**GOOD, "logs": {"steps": "s.csv", "events": 3}}, "logs.events.*file path"),
        ({**GOOD, "ranges": {"restart": ["3 min"]}}, "ranges.restart.*pair"),
        ({**GOOD, "ranges": {"restart": ["8 min", "3 min"]}}, "ranges.restart.*LOW no greater than HIGH"),
        ({**GOOD, "ranges": {"restrat": ["3 min", "8 min"]}}, "did you mean 'restart'"),
        ({**GOOD, "ranges": {"restart": ["3", "8 min"]}}, "ranges.restart.*needs a unit"),
        ({**GOOD, "ranges": {"mtbi": ["2 h", "4 h"]}}, "ranges.mtbi.*comes from the count"),
        ({**GOOD, "slow_checkpoint_cost": "1 s"}, "slow_checkpoint_cost.*no faster than checkpoint_cost"),
        ({**GOOD, "persistent": {"cost": "5 min", "every": 1001}, "fast_survives": 0.5}, "persistent.every.*1,000"),
        ([1, 2], "mapping"),
        (None, "mapping"),
    ],
)
def test_bad_parameters_are_refused_with_the_key_and_value(data: object, message: str) -> None:
    """Unknown, missing, unitless, impossible or ambiguous inputs raise InputError that names them."""
    with pytest.raises(InputError, match=message):
        params_from_mapping(data)


def test_unreadable_and_malformed_files(tmp_path) -> None:
    """A missing file and invalid YAML are errors that name the file."""
    with pytest.raises(InputError, match="readable file"):
        load_params(tmp_path / "missing.yml")
    bad = tmp_path / "bad.yml"
    bad.write_text("gpus: [16384\nrestart: 5 min\n")
    with pytest.raises(InputError, match=r"bad.yml: line \d+: .*valid YAML"):
        load_params(bad)


def test_ranges_and_log_paths(tmp_path) -> None:
    """Ranges convert to minutes; relative log paths are taken from the params file's folder."""
    path = tmp_path / "fleet.yml"
    path.write_text(yaml.safe_dump({**GOOD, "logs": {"steps": "logs/s.csv", "events": "/abs/e.csv"},
                                    "ranges": {"checkpoint_cost": ["45 s", "2 min"]}}))
    params = load_params(path)
    assert params.ranges == {"checkpoint_cost": (0.75, 2.0)}
    assert params.steps_log == tmp_path / "logs" / "s.csv"
    assert params.events_log == Path("/abs/e.csv")


def test_round_trip_through_a_file(tmp_path) -> None:
    """A file written from the documented keys reads back to the same inputs."""
    path = tmp_path / "fleet.yml"
    path.write_text(yaml.safe_dump({**GOOD, "gpus": 32768}))
    params = load_params(path)
    assert params.gpus == 32768
    assert params.source == "fleet.yml"
    assert params.path == path and len(params.sha256) == 64


def test_rate_and_mtbi_are_inverse() -> None:
    """rate_from_mtbi(mtbi_from_rate(r, N), N) = r; 419 interruptions over 16,384 GPUs x 1,296 h give 1.97e-5."""
    from goodput.params import mtbi_from_rate, rate_from_mtbi

    assert_allclose(rate_from_mtbi(mtbi_from_rate(2.0e-5, 16384), 16384), 2.0e-5)
    assert_allclose(rate_from_mtbi(1296 * 60 / 419, 16384), 419 / (16384 * 1296))


BASE = (ROOT / "book" / "params.yml").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (BASE + "restart: 6 min\n", "line .*'restart'.*each key once"),
        ("x: &a [1, 2]\ny: *a\n" + BASE, "anchors and aliases"),
        ("gpus: !!int 16384\n" + BASE.replace("gpus: 16384", ""), "tags"),
        (BASE.replace("restart: 5 min", "restart: 1:30"), "restart: got '1:30'"),
        (BASE.replace("gpus: 16384", "gpus: .inf"), "gpus: got '.inf', expected a whole number"),
        (BASE.replace("count: 419", "count: .nan"), "interruptions.count: got '.nan'"),
        (BASE.replace("gpus: 16384", "gpus: 0x4000"), "gpus: got '0x4000'"),
        (BASE.replace("gpus: 16384", "gpus: \u0661\u0666\u0663\u0668\u0664"), "gpus"),
        ("a: [[[[[[1]]]]]]\n", "levels of mappings and lists"),
        (BASE.replace("gpus: 16384", "gpus: yes"), "gpus: got 'yes'"),
    ],
)
def test_a_params_file_is_read_as_typed(tmp_path, text: str, message: str) -> None:
    """Duplicate keys, aliases, tags, sexagesimal and other YAML 1.1 readings, infinities and deep nesting are
    refused with the line or key and the value as written."""
    path = tmp_path / "p.yml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=message):
        load_params(path)


def test_leading_zeros_are_decimal(tmp_path) -> None:
    """gpus: 020000 is twenty thousand, as a person means it, not octal 8,192."""
    path = tmp_path / "p.yml"
    path.write_text(BASE.replace("gpus: 16384", "gpus: 020000"), encoding="utf-8")
    assert load_params(path).gpus == 20000


@pytest.mark.parametrize("raw", [b"gpus: 16384 # caf\xe9\n", bytes(range(256))])
def test_a_file_that_is_not_utf8_is_refused(tmp_path, raw: bytes) -> None:
    """A Latin-1 accent in a comment or random bytes: one InputError naming the line, not a traceback."""
    path = tmp_path / "p.yml"
    path.write_bytes(raw)
    with pytest.raises(InputError, match="UTF-8"):
        load_params(path)


def test_an_alias_bomb_is_refused_quickly_with_a_short_message(tmp_path) -> None:
    """A 'billion laughs' file of a few hundred bytes is refused at its first alias, and the message is short."""
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}]" for i in range(1, 10)]
    path = tmp_path / "bomb.yml"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(InputError, match="anchors and aliases") as caught:
        load_params(path)
    assert len(str(caught.value)) < 300


def test_a_huge_file_is_refused_before_it_is_parsed(tmp_path) -> None:
    """A file of 500,000 keys is refused by its size, without reading it as YAML."""
    path = tmp_path / "big.yml"
    path.write_text("".join(f"k{i}: 1\n" for i in range(500_000)))
    assert path.stat().st_size > MAX_FILE_BYTES
    with pytest.raises(InputError, match="at most 64 KB"):
        load_params(path)


def test_without_tiers_keeps_the_fleet_and_drops_only_the_scheme() -> None:
    """The 24k example's drain and persistent tier go; GPUs, M, both C, R, price and month stay."""
    tiered = load_params(ROOT / "examples" / "fleet-24k.yml")
    assert tiered.tiered
    single = tiered.without_tiers()
    assert not single.tiered
    assert (single.drain, single.persistent_cost, single.persistent_restart, single.fast_survives) == (0.0, None, None, None)
    for name in ("gpus", "mtbi", "checkpoint_cost", "slow_checkpoint_cost", "restart", "price_per_gpu_hour", "month"):
        assert getattr(single, name) == getattr(tiered, name), name


# --------------------------------------------------------------------------- ranges of every input of the plan

TIERED = {**GOOD, "drain": "4 min", "persistent": {"cost": "3 min", "restart": "25 min"}, "fast_survives": 0.75}


def test_ranges_of_every_input_of_the_plan() -> None:
    """Each input the plan takes can have a range: durations in minutes (a drain may start at 0), shares as given."""
    params = params_from_mapping({**TIERED, "ranges": {
        "drain": ["0 s", "6 min"], "persistent_cost": ["2 min", "4 min"], "persistent_restart": ["20 min", "35 min"],
        "fast_survives": [0.6, "0.85"], "slow_checkpoint_cost": ["4 min", "8 min"], "checkpoint_cost": ["45 s", "2 min"],
        "restart": ["3 min", "8 min"]}})
    assert params.ranges == {"drain": (0.0, 6.0), "persistent_cost": (2.0, 4.0), "persistent_restart": (20.0, 35.0),
                             "fast_survives": (0.6, 0.85), "slow_checkpoint_cost": (4.0, 8.0),
                             "checkpoint_cost": (0.75, 2.0), "restart": (3.0, 8.0)}
    jit = params_from_mapping({**GOOD, "just_in_time": 0.7, "ranges": {"just_in_time": [0.5, 0.9]}})
    assert jit.ranges == {"just_in_time": (0.5, 0.9)}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({**GOOD, "ranges": {"drain": ["1 min", "3 min"]}}, r"ranges\.drain: .*a drain to range"),
        ({**GOOD, "ranges": {"persistent_cost": ["1 min", "3 min"]}}, r"ranges\.persistent_cost: .*a persistent tier"),
        ({**GOOD, "ranges": {"persistent_restart": ["1 min", "3 min"]}}, r"ranges\.persistent_restart: .*persistent tier"),
        ({**GOOD, "ranges": {"fast_survives": [0.5, 0.9]}}, r"ranges\.fast_survives: .*a persistent tier"),
        ({**GOOD, "ranges": {"just_in_time": [0.5, 0.9]}}, r"ranges\.just_in_time: .*a share recovered just in time"),
        ({**TIERED, "ranges": {"fast_survives": [0.5, 1.2]}}, r"ranges\.fast_survives: got '?1\.2"),
        ({**TIERED, "ranges": {"fast_survives": ["50%", 0.9]}}, r"ranges\.fast_survives: got '50%'"),
        ({**TIERED, "ranges": {"fast_survives": [0.9, 0.5]}}, r"ranges\.fast_survives: .*LOW no greater than HIGH"),
        ({**TIERED, "ranges": {"fast_survives": 0.5}}, r"ranges\.fast_survives: .*a pair \[LOW, HIGH\] of shares"),
        ({**TIERED, "ranges": {"drain": ["3", "6 min"]}}, r"ranges\.drain: .*needs a unit"),
        ({**TIERED, "ranges": {"drain": ["-1 min", "6 min"]}}, r"ranges\.drain: "),
        ({**TIERED, "ranges": {"persistent_cost": ["0 s", "4 min"]}}, r"ranges\.persistent_cost: .*greater than zero"),
        ({**TIERED, "ranges": {"persistant_cost": ["2 min", "4 min"]}}, "did you mean 'persistent_cost'"),
        ({**GOOD, "just_in_time": 0.7, "ranges": {"just_in_time": [0.5, 1.0]}}, r"ranges\.just_in_time: .*below 1"),
        ({**GOOD, "ranges": {"slow_checkpoint_cost": ["9 min", "4 min"]}}, r"ranges\.slow_checkpoint_cost: .*LOW"),
    ],
)
def test_bad_ranges_are_refused_in_one_line(data: object, message: str) -> None:
    """A range of an input the fleet does not have, a share outside [0, 1], LOW above HIGH or a bare number: refused
    with one line that names the key under ranges:."""
    with pytest.raises(InputError, match=message) as caught:
        params_from_mapping(data)
    assert "\n" not in str(caught.value)
