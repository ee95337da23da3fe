"""Tests of goodput.logs.sacct: Slurm accounting output read as the job's attempts and an event log.

The samples are hand-written the way `sacct --duplicates --parsable2` prints a requeued, resubmitted training job:
job records and their steps (1234.batch, 1234.extern, 1234.0), the same JobID once per run, 'Unknown' for the End
of a job still running, 'CANCELLED by UID', local times or times with UTC offsets.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from goodput.errors import InputError
from goodput.logs.read import CLOCKS, FAILURE, START, STOP
from goodput.logs.sacct import FAILURE_STATES, STATE_EVENTS, is_sacct, read_sacct

BOOK_DATA = Path(__file__).resolve().parent.parent / "book" / "data"

HEADER = "JobID|JobName|Start|End|Elapsed|State|ExitCode"

# A job requeued after a node failure (same JobID, two runs), then resubmitted after a crash,
# cancelled by its owner for a config change, and resubmitted again: still running.
REQUEUED = [
    HEADER,
    "1234|train|2024-05-01T08:00:00|2024-05-01T20:00:00|12:00:00|NODE_FAIL|0:0",  # line 2
    "1234.batch|batch|2024-05-01T08:00:00|2024-05-01T20:00:02|12:00:02|CANCELLED|0:15",
    "1234.extern|extern|2024-05-01T08:00:00|2024-05-01T20:00:02|12:00:02|COMPLETED|0:0",
    "1234.0|python|2024-05-01T08:00:30|2024-05-01T20:00:00|11:59:30|CANCELLED|0:15",
    "1234|train|2024-05-01T20:10:00|2024-05-02T06:10:00|10:00:00|FAILED|1:0",  # line 6
    "1234.batch|batch|2024-05-01T20:10:00|2024-05-02T06:10:00|10:00:00|FAILED|1:0",
    "1235|train|Unknown|2024-05-02T06:20:00|00:00:00|CANCELLED by 4021|0:0",  # never started
    "1236|train|2024-05-02T06:30:00|2024-05-03T06:30:00|1-00:00:00|CANCELLED by 4021|0:0",  # line 9
    "1236.0|python|2024-05-02T06:30:20|2024-05-03T06:30:00|23:59:40|CANCELLED|0:15",
    "1240|train|2024-05-03T07:00:00|Unknown|2-01:30:00|RUNNING|0:0",  # line 11
    "1240.0|python|2024-05-03T07:00:20|Unknown|2-01:29:40|RUNNING|0:0",
]


def write(tmp_path: Path, lines: list[str], name: str = "job.sacct") -> Path:
    path = tmp_path / name
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def test_state_mapping_table() -> None:
    """The mapping the docs argue for: stops nobody chose are failures; chosen or foreseen stops are planned."""
    assert STATE_EVENTS == {
        "NODE_FAIL": "failure", "FAILED": "failure", "BOOT_FAIL": "failure", "OUT_OF_MEMORY": "failure",
        "PREEMPTED": "failure",
        "COMPLETED": "stop", "CANCELLED": "stop", "TIMEOUT": "stop", "DEADLINE": "stop", "REQUEUED": "stop",
        "RUNNING": "running",
    }
    assert FAILURE_STATES == ("NODE_FAIL", "FAILED", "BOOT_FAIL", "OUT_OF_MEMORY", "PREEMPTED")


def test_requeued_job_becomes_attempts_in_time_order(tmp_path: Path) -> None:
    """Four job records with a Start (of six) are four attempts: two failures (NODE_FAIL, FAILED), a cancel (planned) and
    the running one, cut at Start + Elapsed. Steps and the never-started record are skipped; times are minutes
    from the first Start."""
    log = read_sacct(write(tmp_path, REQUEUED))
    assert [(a.job_id, a.state, a.line) for a in log.attempts] == [
        ("1234", "NODE_FAIL", 2), ("1234", "FAILED", 6), ("1236", "CANCELLED", 9), ("1240", "RUNNING", 11)]
    assert log.steps_skipped == 6 and log.never_started == 1 and log.running
    ev = log.events
    assert list(ev.event) == [START, FAILURE, START, FAILURE, START, STOP, START, STOP]
    assert_allclose(ev.time, [0, 720, 730, 1330, 1350, 2790, 2820, 2820 + 49 * 60 + 30])
    assert ev.clock == CLOCKS[1]
    assert log.state_counts() == {"NODE_FAIL": 1, "FAILED": 1, "CANCELLED": 1, "RUNNING": 1}


def test_failure_states_can_be_chosen(tmp_path: Path) -> None:
    """A site whose watchdog cancels hung jobs can count CANCELLED as a failure."""
    log = read_sacct(write(tmp_path, REQUEUED), failure_states=[*FAILURE_STATES, "CANCELLED"])
    assert [a.event for a in log.attempts] == [FAILURE, FAILURE, FAILURE, STOP]
    with pytest.raises(InputError, match="failure_states"):
        read_sacct(write(tmp_path, REQUEUED), failure_states=["RUNNING"])


def test_utc_offsets_across_daylight_saving(tmp_path: Path) -> None:
    """With offsets, an attempt from 01:00+01:00 to 04:00+02:00 (the night clocks go forward) lasts 2 h, not 3."""
    lines = [HEADER,
             "7|t|2024-03-31T01:00:00+0100|2024-03-31T04:00:00+0200|02:00:00|NODE_FAIL|0:0",
             "7|t|2024-03-31T04:30:00+02:00|2024-03-31T05:30:00Z|03:00:00|COMPLETED|0:0"]
    ev = read_sacct(write(tmp_path, lines)).events
    assert_allclose(ev.time, [0, 120, 150, 330])
    assert ev.clock == CLOCKS[2]


def test_unix_seconds(tmp_path: Path) -> None:
    """SLURM_TIME_FORMAT=%s: seconds, read on the seconds clock (minutes = seconds / 60, as in read_events)."""
    lines = [HEADER, "9|t|1714550400|1714554000|01:00:00|PREEMPTED|0:0", "9|t|1714554600|1714558200|01:00:00|TIMEOUT|0:0"]
    log = read_sacct(write(tmp_path, lines))
    assert log.events.clock == CLOCKS[0] and log.events.origin_us == 0
    assert_allclose(log.events.time - log.events.time[0], [0, 60, 70, 130])
    assert [a.event for a in log.attempts] == [FAILURE, STOP]


def test_parsable_with_trailing_bar_and_het_and_array_jobs(tmp_path: Path) -> None:
    """--parsable ends every line with '|'. A heterogeneous job's leader 55+0 is its attempt, 55+1 is skipped;
    an array task 60_3 is a job of its own."""
    lines = ["JobID|Start|End|State|",
             "55+0|2024-05-01T00:00:00|2024-05-01T01:00:00|NODE_FAIL|",
             "55+1|2024-05-01T00:00:00|2024-05-01T01:00:00|NODE_FAIL|",
             "55+0.0|2024-05-01T00:00:00|2024-05-01T01:00:00|CANCELLED|",
             "60_3|2024-05-01T02:00:00|2024-05-01T03:00:00|COMPLETED|"]
    log = read_sacct(write(tmp_path, lines))
    assert [a.job_id for a in log.attempts] == ["55+0", "60_3"] and log.steps_skipped == 2


def test_records_are_sorted_by_start(tmp_path: Path) -> None:
    """sacct lists by JobID; attempts are put in time order (a lower id may have run later)."""
    lines = [HEADER, "20|t|2024-05-02T00:00:00|2024-05-02T01:00:00|01:00:00|COMPLETED|0:0",
             "19|t|2024-05-01T00:00:00|2024-05-01T01:00:00|01:00:00|FAILED|1:0"]
    log = read_sacct(write(tmp_path, lines))
    assert [a.job_id for a in log.attempts] == ["19", "20"]


def test_book_sample_reads() -> None:
    """The book's sample: ten runs over two weeks across the March 2024 change to summer time, 7 ending in failure
    states but 6 counted (REQUEUED is planned), the last still running."""
    log = read_sacct(BOOK_DATA / "sample-sacct.txt")
    assert len(log.attempts) == 10 and log.running and log.never_started == 1
    assert sum(a.event == FAILURE for a in log.attempts) == 6
    assert log.events.clock == CLOCKS[2]
    assert is_sacct(BOOK_DATA / "sample-sacct.txt") and not is_sacct(BOOK_DATA / "sample-events.csv")


@pytest.mark.parametrize(
    ("lines", "needle"),
    [
        ([], "empty file"),
        (["JobID|Start|State", "1|2024-05-01T00:00:00|FAILED"], "line 1"),
        ([HEADER, "1|t|2024-05-01T00:00:00|2024-05-01T01:00:00|01:00:00|FAILED"], "line 2"),
        ([HEADER, "1|t|2024-05-01T00:00:00|2024-05-01T01:00:00|01:00:00|FAILED|0:0|x"], "line 2"),
        ([HEADER, "abc|t|2024-05-01T00:00:00|2024-05-01T01:00:00|01:00:00|FAILED|0:0"], "JobID"),
        ([HEADER, "1|t|2024-05-01T00:00:00|2024-05-01T01:00:00|01:00:00|SUSPENDED|0:0"], "state"),
        ([HEADER, "1|t|yesterday|2024-05-01T01:00:00|01:00:00|FAILED|0:0"], "line 2"),
        ([HEADER, "1|t|2024-05-01T02:00:00|2024-05-01T01:00:00|01:00:00|FAILED|0:0"], "daylight-saving"),
        ([HEADER, "1|t|2024-05-01T00:00:00|Unknown|01:00:00|FAILED|0:0"], "End time"),
        (["JobID|Start|End|State", "1|2024-05-01T00:00:00|Unknown|RUNNING"], "Elapsed"),
        ([HEADER, "1|t|2024-05-01T00:00:00|2024-05-01T01:00:00+0000|01:00:00|FAILED|0:0"], "UTC offset"),
        ([HEADER, "1|t|2024-05-01T00:00:00|2024-05-01T05:00:00|05:00:00|FAILED|0:0",
          "2|t|2024-05-01T04:00:00|2024-05-01T06:00:00|02:00:00|COMPLETED|0:0"], "line 3"),
        ([HEADER, "1|t|2024-05-01T00:00:00|Unknown|01:00:00|RUNNING|0:0",
          "2|t|2024-05-01T04:00:00|2024-05-01T06:00:00|02:00:00|COMPLETED|0:0"], "running one"),
        ([HEADER, "1.batch|batch|2024-05-01T00:00:00|2024-05-01T01:00:00|01:00:00|FAILED|0:0"], "Start time"),
    ],
)
def test_bad_files_name_file_and_line(tmp_path: Path, lines: list[str], needle: str) -> None:
    """Each problem is one InputError naming the file (and the line, for a row) and what was expected."""
    path = write(tmp_path, lines)
    with pytest.raises(InputError) as caught:
        read_sacct(path)
    message = str(caught.value)
    assert message.startswith(str(path)) and needle in message


def test_non_utf8_and_missing_files(tmp_path: Path) -> None:
    """Bytes that are not UTF-8, and a file that is not there, are InputErrors naming the file."""
    bad = tmp_path / "bad.sacct"
    bad.write_bytes(b"JobID|Start|End|State\n1|\xff\xfe|x|FAILED\n")
    with pytest.raises(InputError, match="UTF-8"):
        read_sacct(bad)
    with pytest.raises(InputError, match="readable"):
        read_sacct(tmp_path / "missing.sacct")


_CELLS = st.one_of(
    st.sampled_from(["", "Unknown", "None", "1234", "1234.0", "1234_[1-3]", "99+1", "FAILED", "RUNNING",
                     "CANCELLED by 0", "PENDING", "SUSPENDED", "2024-05-01T00:00:00", "2024-05-01T00:00:00+0200",
                     "1714550400", "25:61:00", "1-00:00:00", "2024-13-40T99:00:00", "nan", "-5"]),
    st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=12),
)


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cells=st.lists(_CELLS, min_size=0, max_size=9), where=st.integers(min_value=1, max_value=len(REQUEUED)))
def test_a_malformed_row_raises_only_input_error_with_file_and_line(tmp_path: Path, cells: list[str],
                                                                     where: int) -> None:
    """Any row put into a good file either reads or raises InputError naming the file and a line, nothing else."""
    row = "|".join(cells)
    path = write(tmp_path, [*REQUEUED[:where], row, *REQUEUED[where:]], "prop.sacct")
    message = None
    try:
        read_sacct(path)
    except InputError as exc:
        message = str(exc)
    if message is not None:
        assert re.match(rf"{re.escape(str(path))}:line \d+: ", message), message
