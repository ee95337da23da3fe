"""Published fleet records in book/data/fleets: the extracted counts, the GLM-130B event log's form, and the rates.

These files were extracted by hand from public logs and papers (see
book/data/fleets/README.md). The tests pin what was extracted so that an edit
that changes a count, breaks the event-log format or makes a rate disagree
with its own count fails loudly. Standard library, pandas and numpy only.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parent.parent
FLEETS = ROOT / "book" / "data" / "fleets"
OFFSET = re.compile(r"T\d{2}:\d{2}:\d{2}(?:Z|[+-]\d{2}:\d{2})$")
BEIJING = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+08:00$")


def _csv(name: str) -> pd.DataFrame:
    return pd.read_csv(FLEETS / name, dtype=str, keep_default_na=False)


def _utc(values: pd.Series) -> pd.Series:
    return pd.to_datetime(values, format="ISO8601", utc=True)


def test_the_folder_ships_three_csv_files_and_no_titan_data() -> None:
    """Exactly the GLM-130B interruptions, the GLM-130B events and the fleet table; no Titan file (licence unclear)."""
    shipped = sorted(p.name for p in FLEETS.glob("*.csv"))
    assert shipped == ["glm130b-events.csv", "glm130b-interruptions.csv", "published-fleets.csv"]
    assert (FLEETS / "README.md").is_file()


def test_glm_interruptions_count_each_kind() -> None:
    """31 stops: 11 unplanned, 2 ambiguous, 18 planned; times in Beijing time (+08:00), stop before relaunch."""
    rows = _csv("glm130b-interruptions.csv")
    assert list(rows.columns) == ["interrupted_at", "restarted_at", "kind", "cause", "log_ref", "note"]
    assert len(rows) == 31
    assert rows["kind"].value_counts().to_dict() == {"planned": 18, "unplanned": 11, "ambiguous": 2}
    for column in ("interrupted_at", "restarted_at"):
        given = rows[column][rows[column] != ""]
        assert given.str.match(BEIJING).all(), column
    assert ((rows["interrupted_at"] != "") | (rows["restarted_at"] != "")).all()
    both = rows[(rows["interrupted_at"] != "") & (rows["restarted_at"] != "")]
    assert len(both) == 25
    assert (_utc(both["interrupted_at"]) < _utc(both["restarted_at"])).all()
    assert rows["log_ref"].str.fullmatch(r"logs/main-log-en\.md:(\d+-\d+); logs/main-log\.md:\1").all()
    assert (rows.loc[rows["kind"] == "ambiguous", "note"] != "").all()
    order = _utc(rows["interrupted_at"].where(rows["interrupted_at"] != "", rows["restarted_at"]))
    assert (order.diff().dropna() > pd.Timedelta(0)).all()


def test_glm_events_alternate_with_offsets_and_never_go_back() -> None:
    """Starts with start, alternates start / (failure|stop), ends with stop; 32 starts, 13 failures, 19 stops; every time has an offset."""
    events = _csv("glm130b-events.csv")
    assert list(events.columns) == ["time", "event"]
    names = events["event"].tolist()
    assert names[0] == "start"
    assert names[-1] == "stop"
    assert all(name == "start" for name in names[0::2])
    assert all(name in ("failure", "stop") for name in names[1::2])
    assert events["event"].value_counts().to_dict() == {"start": 32, "stop": 19, "failure": 13}
    assert events["time"].str.contains(OFFSET).all()
    assert events["time"].str.match(BEIJING).all()
    times = _utc(events["time"])
    steps = times.diff().dropna()
    assert (steps >= pd.Timedelta(0)).all()
    # Six stops whose stop or relaunch time the log does not give: the known time stands for both.
    ties = [i for i in range(1, len(times)) if times.iloc[i] == times.iloc[i - 1]]
    assert len(ties) == 6
    assert all(names[i - 1] in ("failure", "stop") and names[i] == "start" for i in ties)
    assert events["time"].iloc[0] == "2022-05-06T03:53:15+08:00"
    assert events["time"].iloc[-1] == "2022-07-03T00:00:00+08:00"


def test_glm_events_follow_from_the_interruption_rows() -> None:
    """The event log is the interruption file by the README's rule: unplanned/ambiguous -> failure, planned -> stop; a missing time takes the other."""
    rows = _csv("glm130b-interruptions.csv")
    expected = [("2022-05-06T03:53:15+08:00", "start")]
    for stopped, restarted, kind in zip(rows["interrupted_at"], rows["restarted_at"], rows["kind"], strict=True):
        stop, start = str(stopped or restarted), str(restarted or stopped)
        expected += [(stop, "stop" if kind == "planned" else "failure"), (start, "start")]
    expected.append(("2022-07-03T00:00:00+08:00", "stop"))
    events = _csv("glm130b-events.csv")
    assert list(events.itertuples(index=False, name=None)) == expected


def _table() -> pd.DataFrame:
    table = pd.read_csv(FLEETS / "published-fleets.csv")
    assert list(table.columns) == [
        "fleet", "gpus", "gpu_type", "window_start", "window_end", "window_days", "unplanned", "planned",
        "what_counts", "source_key", "source_location", "grade", "rate_per_gpu_hour", "rate_basis", "note",
    ]  # fmt: skip
    return table


def test_every_fleet_row_names_its_source_and_grade() -> None:
    """Each row has a source location, a grade P/S/D and BibTeX keys that exist in book/references.bib."""
    table = _table()
    keys = set(re.findall(r"^@\w+\{([^,\s]+),", (ROOT / "book" / "references.bib").read_text(), flags=re.MULTILINE))
    assert table["source_location"].notna().all()
    assert (table["source_location"].str.len() > 10).all()
    assert table["grade"].isin(["P", "S", "D"]).all()
    for cell in table["source_key"]:
        for key in cell.split(";"):
            assert key in keys, key


def test_each_rate_agrees_with_its_count_or_its_published_rate() -> None:
    """Counted rows: rate = unplanned / (gpus x window_days x 24 h). Kokolis rows: per-1000-node-day rate / (1000 x 24 x 8). BLOOM: 1 per week."""
    table = _table()
    counted = table[table["rate_basis"] == "count"]
    assert len(counted) == 6
    assert counted[["unplanned", "gpus", "window_days"]].notna().all().all()
    implied = counted["unplanned"] / (counted["gpus"] * counted["window_days"] * 24.0)
    np.testing.assert_allclose(counted["rate_per_gpu_hour"], implied, rtol=1e-3)
    others = table[table["rate_basis"] != "count"].set_index("fleet")
    assert others["unplanned"].isna().all()
    per_node_day = {"Meta RSC-1 research cluster": 6.50, "Meta RSC-2 research cluster": 2.34}
    for fleet, published in per_node_day.items():
        assert others.loc[fleet, "grade"] == "S"
        assert others.loc[fleet, "rate_per_gpu_hour"] == pytest.approx(published / (1000 * 24 * 8), rel=1e-3)
    bloom = others.loc["BLOOM-176B pre-training"]
    assert bloom["rate_per_gpu_hour"] == pytest.approx(1 / (bloom["gpus"] * 7 * 24), rel=1e-3)


def test_windows_are_consistent_with_their_dates() -> None:
    """Where both dates are given, window_days is their difference (Titan's quarter counts its last day, so one more)."""
    table = _table()
    dated = table[table["window_start"].notna() & table["window_end"].notna()]
    span = (pd.to_datetime(dated["window_end"]) - pd.to_datetime(dated["window_start"])).dt.days
    assert ((dated["window_days"] - span).between(0, 1)).all()


def test_pinned_counts_per_fleet() -> None:
    """The extracted figures: GPUs, window days, unplanned and planned counts for each counted fleet."""
    table = _table().set_index("fleet")
    pinned = {
        "GLM-130B pre-training": (768, 58, 13, 18),
        "OPT-175B pre-training": (992, 62, 105, None),
        "OPT-175B holiday week (automated recovery)": (992, 7, 8, None),
        "IDEFICS-80B pre-training": (512, 27, 3, 10),
        "Llama 3 405B pre-training (54-day snapshot)": (16384, 54, 419, 47),
        "Titan GPUs, worst quarter (2016-Q4)": (18688, 92, 813, None),
    }
    for fleet, (gpus, days, unplanned, planned) in pinned.items():
        row = table.loc[fleet]
        assert (row["gpus"], row["window_days"], row["unplanned"]) == (gpus, days, unplanned), fleet
        if planned is None:
            assert np.isnan(row["planned"]), fleet
        else:
            assert row["planned"] == planned, fleet
    assert table.loc["BLOOM-176B pre-training", "gpus"] == 384


def test_glm_row_matches_the_glm_files() -> None:
    """The GLM-130B row's unplanned and planned counts are the event log's failures and planned stops."""
    row = _table().set_index("fleet").loc["GLM-130B pre-training"]
    events = _csv("glm130b-events.csv")["event"]
    assert row["unplanned"] == (events == "failure").sum()
    assert row["planned"] == (events == "stop").sum() - 1  # the final stop closes the log
