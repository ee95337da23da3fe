"""Sizes, bandwidths and the times they give: published figures reproduced, units that cannot be confused."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from goodput.errors import InputError
from goodput.storage import (
    Storage,
    bandwidth_for_goodput,
    checkpoint_size,
    parse_bandwidth,
    parse_size,
    transfer_minutes,
)

GIB = 2.0**30
TIB = 2.0**40


def test_gemini_mt_nlg_at_20_gbps() -> None:
    """GEMINI (SOSP'23): about 42 minutes to checkpoint MT-NLG's 530B-parameter model states at 20 Gb/s."""
    minutes = transfer_minutes(checkpoint_size(530e9, 12), parse_bandwidth("20 Gb/s", "write_bandwidth"))
    assert minutes == pytest.approx(42.0, rel=0.01)


def test_bloom_sizes() -> None:
    """BLOOM-176B: bf16 weights 329 GB (binary: 2 bytes x 176.25e9 = 328 GiB), full checkpoint 2.3 TB (14 bytes:
    2.24 TiB, within the report's rounding)."""
    assert checkpoint_size(176.25e9, 2) / GIB == pytest.approx(329, rel=0.01)
    assert checkpoint_size(176.25e9, 14) / TIB == pytest.approx(2.3, rel=0.03)


def test_lablup_achieved_bandwidth() -> None:
    """16% of a nominal 250 GB/s is 40 GB/s achieved, so 1 TB takes 25 s to save; 21.5% of 700 GB/s to restore."""
    s = Storage(size=1e12, nodes=63, write_bandwidth=parse_bandwidth("250 GB/s", "w"), efficiency=0.16,
                read_bandwidth=parse_bandwidth("700 GB/s", "r"), read_efficiency=0.215)
    assert s.checkpoint_cost * 60 == pytest.approx(25.0)
    assert s.load is not None and s.load * 60 == pytest.approx(1e12 / (0.215 * 700e9))


@pytest.mark.parametrize(("text", "expected"), [
    ("20 Gb/s", 2.5e9), ("2.5 GB/s", 2.5e9), ("1.2 TB/s", 1.2e12), ("900 MiB/s", 900 * 2**20),
    ("20 Gbps", 2.5e9), ("20 Gbit/s", 2.5e9), ("2.5GB/s", 2.5e9), ("100 MB / s", 1e8),
])
def test_bandwidths_read_as_people_write_them(text: str, expected: float) -> None:
    assert parse_bandwidth(text, "write_bandwidth") == pytest.approx(expected)


@pytest.mark.parametrize("text", ["20 gb/s", "2.5 GB", "20", "0 GB/s", "-1 GB/s", "1e999 GB/s", "fast", "2.5 G/s"])
def test_a_bandwidth_that_could_be_misread_is_refused(text: str) -> None:
    with pytest.raises(InputError, match="write_bandwidth"):
        parse_bandwidth(text, "write_bandwidth")


@pytest.mark.parametrize("text", ["2.3 Tb", "2.3", "1 GB/s", "0 GB", "lots"])
def test_a_size_in_bits_or_without_unit_is_refused(text: str) -> None:
    with pytest.raises(InputError, match="checkpoint_size"):
        parse_size(text, "checkpoint_size")


def test_snapshot_makes_a_drain_and_host_memory_is_checked() -> None:
    """With a snapshot, C is each node's share over its device-to-host bandwidth and D the shared write."""
    s = Storage(size=8e12, nodes=1000, write_bandwidth=1e11, snapshot_bandwidth=5e10, host_memory=800e9)
    assert s.checkpoint_cost == pytest.approx(8e9 / 5e10 / 60)
    assert s.drain == pytest.approx(80 / 60)
    with pytest.raises(InputError, match="host_memory"):
        Storage(size=8e12, nodes=10, write_bandwidth=1e11, snapshot_bandwidth=5e10, host_memory=780e9,
                double_buffered=False)


@given(size=st.floats(1e6, 1e15), bandwidth=st.floats(1e6, 1e13), k=st.floats(0.1, 10))
def test_size_and_bandwidth_scale_c_linearly(size: float, bandwidth: float, k: float) -> None:
    base = Storage(size=size, nodes=4, write_bandwidth=bandwidth).checkpoint_cost
    assert Storage(size=k * size, nodes=4, write_bandwidth=bandwidth).checkpoint_cost == pytest.approx(k * base)
    assert Storage(size=size, nodes=4, write_bandwidth=k * bandwidth).checkpoint_cost == pytest.approx(base / k)


def test_bandwidth_for_goodput_inverts_a_monotone_goodput() -> None:
    def goodput_at(b: float) -> float:
        return 1.0 - math.sqrt(2.0 * (1e12 / b / 60.0) / 100.0)

    needed = bandwidth_for_goodput(goodput_at, 0.9)
    assert needed is not None and goodput_at(needed) == pytest.approx(0.9, abs=1e-6)
    assert bandwidth_for_goodput(lambda b: 0.5, 0.9) is None
