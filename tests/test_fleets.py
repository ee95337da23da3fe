"""Published fleet rates (goodput.fleets): rates from counts, their Garwood intervals, and the M each implies.

The shipped table book/data/fleets/published-fleets.csv is read through the path the book passes;
small tables written in the test check the reader's refusals.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from scipy.stats import chi2

from goodput import fleets
from goodput.errors import InputError

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "book" / "data" / "fleets" / "published-fleets.csv"
HEADER = ",".join(fleets.COLUMNS)


@pytest.fixture(scope="module")
def records() -> tuple[fleets.PublishedFleet, ...]:
    return fleets.read_published_fleets(TABLE)


def _by_name(records: tuple[fleets.PublishedFleet, ...], start: str) -> fleets.PublishedFleet:
    return next(f for f in records if f.fleet.startswith(start))


def test_the_shipped_table_reads_as_nine_records_of_four_kinds(records) -> None:
    """Nine records: six with a count (five job counts and Titan's machine-wide events), BLOOM's stated
    frequency, and the two Meta clusters' reported rates."""
    assert len(records) == 9
    assert sum(f.counted for f in records) == 6
    kinds = {f.fleet.split()[0]: f.kind for f in records}
    assert kinds["Titan"] == "machine-wide events"
    assert kinds["BLOOM-176B"] == "stated frequency"
    assert [f.kind for f in records if f.fleet.startswith("Meta")] == ["cluster rate", "cluster rate"]
    assert {f.kind for f in records if f.fleet.split()[0] in ("GLM-130B", "OPT-175B", "IDEFICS-80B", "Llama")} \
        == {"job interruptions"}
    assert all(f.kind in fleets.KINDS for f in records)


def test_a_counted_rate_is_the_count_over_gpu_hours(records) -> None:
    """rate = unplanned / (GPUs x window_days x 24 h), and agrees with the table's rounded rate to 0.1%."""
    for f in records:
        if f.counted:
            assert f.gpus is not None and f.window_days is not None and f.unplanned is not None
            assert f.rate == pytest.approx(f.unplanned / (f.gpus * f.window_days * 24.0), rel=1e-12)
            assert f.rate == pytest.approx(f.table_rate, rel=1e-3)
    llama = _by_name(records, "Llama 3")
    assert llama.rate == pytest.approx(419 / (16384 * 54 * 24), rel=1e-12)


def test_an_uncounted_rate_is_the_tables_and_has_no_interval(records) -> None:
    """BLOOM (1 per week on 384 GPUs) and the Meta clusters (per 1000 node-days / 8) keep the table's rate; no
    counting interval for the rate or for M."""
    bloom = _by_name(records, "BLOOM")
    assert not bloom.counted and bloom.rate == bloom.table_rate == pytest.approx(1 / (384 * 168), rel=1e-3)
    rsc1 = _by_name(records, "Meta RSC-1")
    assert rsc1.rate == pytest.approx(6.50 / (1000 * 24 * 8), rel=1e-3)
    for f in (bloom, rsc1):
        assert f.rate_interval() is None and f.mtbi_interval_at(16384) is None


@pytest.mark.parametrize(("k", "exposure"), [(419, 16384 * 54 * 24.0), (3, 512 * 27 * 24.0), (1, 1000.0), (0, 50.0)])
@pytest.mark.parametrize("confidence", [0.95, 0.8])
def test_rate_interval_is_garwoods(k: int, exposure: float, confidence: float) -> None:
    """Garwood: [chi2(a/2; 2k) / 2E, chi2(1 - a/2; 2k + 2) / 2E], with 0 as the lower end for k = 0."""
    a = 1 - confidence
    low, high = fleets.rate_interval(k, exposure, confidence)
    expected_low = 0.0 if k == 0 else chi2.ppf(a / 2, 2 * k) / (2 * exposure)
    assert low == pytest.approx(expected_low, rel=1e-9, abs=1e-300)
    assert high == pytest.approx(chi2.ppf(1 - a / 2, 2 * k + 2) / (2 * exposure), rel=1e-9)
    if k:
        assert low < k / exposure < high


def test_implied_mtbi_is_sixty_over_rate_times_gpus(records) -> None:
    """M at N GPUs = 60 / (rate x N) minutes; Llama 3's rate at 16,384 GPUs gives back 54 days / 419 = 185.6 min;
    M's interval is the rate's, inverted and swapped."""
    for f in records:
        for n in (512, 16384, 24576):
            assert f.mtbi_at(n) == pytest.approx(60.0 / (f.rate * n), rel=1e-12)
    llama = _by_name(records, "Llama 3")
    assert llama.mtbi_at(16384) == pytest.approx(54 * 1440 / 419, rel=1e-12)
    low, high = llama.rate_interval()
    m_low, m_high = llama.mtbi_interval_at(24576)
    assert m_low == pytest.approx(60 / (high * 24576)) and m_high == pytest.approx(60 / (low * 24576))
    assert m_low < llama.mtbi_at(24576) < m_high


def test_extremes_and_lower_bounds(records) -> None:
    """The lowest rate is IDEFICS-80B's 3 / (512 x 27 x 24), the highest OPT-175B's 105 / (992 x 62 x 24), 7.9 times
    apart; the notes call both counts lower bounds; the A100 is the GPU model of seven records."""
    low, high = fleets.extremes(records)
    assert low.fleet.startswith("IDEFICS") and low.rate == pytest.approx(3 / (512 * 27 * 24))
    assert high.fleet.startswith("OPT-175B pre") and high.rate == pytest.approx(105 / (992 * 62 * 24))
    assert high.rate / low.rate == pytest.approx(7.87, abs=0.01)
    assert low.lower_bound and high.lower_bound
    assert not _by_name(records, "Llama 3").lower_bound
    assert sum(f.gpu_model == "A100" for f in records) == 7
    assert _by_name(records, "Llama 3").gpu_model == "H100" and _by_name(records, "Titan").gpu_model is None
    assert sum(f.rate < 2e-5 for f in records) == 6
    with pytest.raises(InputError):
        fleets.extremes(())


ROW = "X,100,A100,,,10,5,,job stops,llama3,somewhere,D,2.08e-4,count,"


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("fleet,gpus\nX,1\n", "columns"),
        (f"{HEADER}\n", "at least one row"),
        (f"{HEADER}\n" + ROW.replace(",D,", ",Q,"), "grade"),
        (f"{HEADER}\n" + ROW.replace("X,100,", "X,many,"), "gpus"),
        (f"{HEADER}\n" + ROW.replace(",10,5,", ",10,2.5,"), "unplanned"),
        (f"{HEADER}\n" + ROW.replace("2.08e-4", "-1"), "rate_per_gpu_hour"),
    ],
)
def test_a_bad_table_is_refused_by_name(tmp_path: Path, text: str, match: str) -> None:
    """A missing column, no rows, an unknown grade, GPUs or counts that are not whole numbers, a rate that is not
    positive: InputError naming what is wrong."""
    path = tmp_path / "fleets.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=match):
        fleets.read_published_fleets(path)


def test_a_small_table_reads_with_its_count(tmp_path: Path) -> None:
    """A one-row table: 5 interruptions on 100 GPUs over 10 days is 5 / 24,000 per GPU-hour; a missing file is refused."""
    path = tmp_path / "fleets.csv"
    path.write_text(f"{HEADER}\n{ROW}\n", encoding="utf-8")
    (only,) = fleets.read_published_fleets(path)
    assert only.counted and only.rate == pytest.approx(5 / 24000) and only.planned is None
    assert only.source_keys == ("llama3",)
    with pytest.raises(InputError, match="readable"):
        fleets.read_published_fleets(tmp_path / "missing.csv")
    assert math.isinf(fleets.PublishedFleet(**{**only.__dict__, "unplanned": 0}).mtbi_interval_at(100)[1])
