"""The book's tables tell the fleet's own story: what the page refuses is not in its table, the planning table's sources
are the command's, the 'built from' table lists what C, D and R were derived from, and a range is in one unit.

Values: each table against the function that decides or derives it (the page's decision, the command's JSON, the
inputs file's own numbers), for the worked example, the small fleet whose C and D are derived, and a fleet built here.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

import pytest

from goodput.book import input_tables, restart_figures, scale_figures, tables
from goodput.book.data import published_fleets
from goodput.cli import main
from goodput.fleet import FleetPlan, fleet_plan
from goodput.limits import plan_at_size
from goodput.pages import Variant, scale
from goodput.params import Params, params_from_mapping
from goodput.report import (
    duration_and_range,
    duration_range_text,
    input_rows,
    interval_text,
    restart_sum,
)
from goodput.units import format_duration

ROOT = Path(__file__).resolve().parent.parent
SMALL_FLEET = ROOT / "tests" / "data" / "fleet-small-tiered.yml"

#: A one-tier fleet whose failure rate is low enough that first order holds at 100,000 GPUs (M = 5 h there).
QUOTABLE = {"gpus": 8192, "rate_per_gpu_hour": 2e-6, "checkpoint_cost": "30 s", "slow_checkpoint_cost": "5 min",
            "restart": "5 min", "price_per_gpu_hour": 2.0, "month": "730 h"}

#: A number and a unit, as a table writes a duration.
DURATION = re.compile(r"([\d.,]+) (ms|s|min|h|days|years)\b")


@pytest.fixture(scope="module")
def small(small_params: Params) -> FleetPlan:
    return fleet_plan(small_params)


def _units(text: str) -> list[str]:
    return [unit for _, unit in DURATION.findall(text)]


@pytest.mark.slow
@pytest.mark.parametrize("which", ["worked", "small", "quotable"])
def test_the_scale_table_gives_first_order_exactly_where_the_page_quotes_it(which: str, worked: Params,
                                                                           small_params: Params) -> None:
    """The 100,000-GPU table has a first-order column iff the chapter's paragraph is the one that quotes first order
    ("planned"); there its interval and goodput are first order's plan; elsewhere neither appears, and the caption
    says first order is left out."""
    params = {"worked": worked, "small": small_params,
              "quotable": params_from_mapping(QUOTABLE, source="quotable.yml")}[which]
    fleet = fleet_plan(params)
    at = plan_at_size(fleet)
    assert at is not None
    quoted = scale.at_size_values(fleet)["at_size"] == Variant("planned")
    assert quoted == (which == "quotable")  # the worked example and the small fleet are out of range at that size
    styler = scale_figures.plan_table(fleet)
    frame, caption = styler.data, str(styler.caption)  # type: ignore[attr-defined]
    assert ("first order" in frame.columns) == quoted
    first_interval = format_duration(at.first.interval)
    if quoted:
        assert list(frame["first order"]) == [first_interval, f"{100 * at.check.goodput:.1f}%"]
        assert "left out" not in caption
    else:
        cells = {str(v) for v in frame.to_numpy().ravel()}
        exact_interval = format_duration(at.plan.interval)
        assert first_interval == exact_interval or first_interval not in cells
        assert "First order is left out" in caption
    assert frame.set_index("")["exact model"]["interval"] == format_duration(at.plan.interval)


def _command_sources(path: str) -> dict[str, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["plan", "--params", path, "--format", "json"]) == 0
    sources: dict[str, str] = json.loads(out.getvalue())["sources"]
    return sources


@pytest.mark.slow
def test_the_planning_table_names_the_sources_the_command_prints(small: FleetPlan, worked: Params) -> None:
    """The small fleet: C is the snapshot's derivation, D the write's, R the sum of its parts, M the rate on 1,024
    GPUs, each the string ``goodput plan`` prints for the same file; the worked example's stay its file."""
    table = tables.plan_inputs_table(small).set_index("input")["source"]
    command = _command_sources(str(SMALL_FLEET))
    assert table["checkpoint cost, C"] == "a snapshot of 1.42 GB per node to host memory at 400 GB/s"
    assert table["checkpoint cost, C"] == command["C"] == small.params.derived["checkpoint_cost"]
    assert table["drain until durable, D"] == command["D"] == small.params.derived["drain"]
    assert "182 GB" in table["drain until durable, D"] and "12 GB/s" in table["drain until durable, D"]
    assert table["restart time, R"] == command["R"] == restart_sum(small.params)
    assert table["mean time between interruptions, M"] == command["M"]
    book = tables.plan_inputs_table(fleet_plan(worked)).set_index("input")["source"]
    assert (book["checkpoint cost, C"], book["restart time, R"]) == (worked.source, worked.source)


def test_the_built_from_table_lists_what_c_and_d_were_derived_from(small_params: Params, worked: Params) -> None:
    """The small fleet's 13e9 parameters x 14 bytes (182 GB), 20 GB/s at 60%, the 400 GB/s snapshot and its 2 TB of
    host memory, each as the command's row; a derived C and D carry their derivation. The worked example, which derives
    nothing, gains no row."""
    rows = dict(input_rows(small_params))
    assert rows["checkpoint size"] == "182 GB (13 billion parameters × 14 bytes)"
    assert rows["write bandwidth (stated)"] == "20 GB/s (60% achieved)"
    assert rows["snapshot bandwidth per node"] == "400 GB/s"
    assert rows["host memory a snapshot needs per node"] == "1.42 GB (one copy; 2 TB free)"
    assert rows["checkpoint cost, C"] == f"3.55 ms ({small_params.derived['checkpoint_cost']})"
    assert rows["drain until durable, D"].startswith("15.2 s (the write of 182 GB")
    assert rows["restart time, R"] == "19 min = detection 2 min + replacement 10 min + start-up 4 min + warm-up 3 min"
    assert not any(name.startswith("restart part:") for name in rows)  # R's row gives each part already
    assert [name for name, _ in input_rows(worked)] == [
        "inputs file", "GPUs", "interruptions", "mean time between interruptions, M", "checkpoint cost, C",
        "slow checkpoint cost (comparison)", "restart time, R", "price per GPU-hour", "accounting month",
        *(f"range of {s}" for s in ("C", "R"))]


def test_a_derived_load_and_recovery_without_rollback_are_listed() -> None:
    """A fleet whose load is read at a stated bandwidth, with just-in-time recovery and planned stops: the load's
    derivation, p with R_j and q as counted, as the command lists them; the planning table lists p, R_j and q."""
    p = params_from_mapping({
        "gpus": 8192, "gpus_per_node": 8, "interruptions": {"count": 60, "window": "30 days"},
        "checkpoint": {"size": "2 TB"}, "storage": {"write_bandwidth": "100 GB/s", "read_bandwidth": "200 GB/s"},
        "slow_checkpoint_cost": "10 min", "restart": {"detect": "1 min", "replace": "2 min", "warmup": "1 min"},
        "just_in_time": {"share": 0.5, "recovery": "45 s"}, "planned": {"count": 10, "window": "30 days"},
        "price_per_gpu_hour": 2.0, "month": "730 h"}, source="load.yml")
    rows = dict(input_rows(p))
    assert p.restart_parts is not None
    assert rows["restart part: checkpoint load"] == f"{format_duration(p.restart_parts.load)} ({p.derived['load']})"
    assert rows["recovered just in time, p"] == "50% (each recovery 45 s)"
    assert rows["planned stops, q"] == "10 in 30 days (one every 3 days; with notice)"
    planning = tables.plan_inputs_table(fleet_plan(p)).set_index("input")["value"]  # the plan's inputs, p and q too
    assert (planning["interruptions recovered just in time, p"], planning["a just-in-time recovery, R_j"],
            planning["planned stops, q"]) == ("50%", "45 s", "10 in 30 days (one every 3 days)")


@pytest.mark.parametrize(("low", "high", "text"), [
    (168.6, 204.7, "169 to 205 min"),  # one unit already: as each end is written alone
    (1116.0, 3773.0, "18.6 to 62.9 h"),  # 18.6 h and 2.62 days: the smaller's unit, not 0.78 days
    (106.0, 359.0, "106 to 359 min"),  # 106 min and 5.99 h: the smaller's unit, where the larger reads under 1,000
    (2820.0, 9043.0, "47 to 151 h"),  # 47 h and 6.28 days
    (2220.0, 90000.0, "1.5 to 62.5 days"),  # 37 h and 62.5 days: 1,500 h would be too many hours
    (0.75, 2.0, "45 to 120 s"),
    (0.1, 50.0, "6 s to 50 min"),  # 0.1 min would keep one digit: each end its own unit
    (0.0, 39.27, "0 to 39.3 min"),  # an interval cut at zero: not "0.0 min"
    (0.0, 7.5, "0 min to 7 min 30 s"),
])
def test_a_range_is_written_in_one_unit(low: float, high: float, text: str) -> None:
    assert duration_range_text(low, high) == text
    assert interval_text(low, high) == (text if " s to " in text else
                                        re.sub(r"^([\d.,]+) to ([\d.,]+) (\S+)$", r"\1 \3 to \2 \3", text))


def test_a_duration_with_its_range_shares_their_unit() -> None:
    assert duration_and_range(1956.0, 1116.0, 3773.0) == "32.6 h (18.6 to 62.9 h)"
    assert duration_and_range(4824.0, 2820.0, 9043.0) == "3.35 days (1.96 to 6.28 days)"
    assert duration_and_range(185.6, 168.6, 204.7) == "186 min (169 to 205 min)"


@pytest.mark.parametrize("which", ["worked", "small"])
def test_the_published_rates_table_writes_each_m_and_its_range_in_one_unit(which: str, worked: Params,
                                                                           small_params: Params) -> None:
    """Every cell of the M column: its duration and its range's two ends in one unit (47 h to 6.28 days was not)."""
    params = {"worked": worked, "small": small_params}[which]
    frame = input_tables.published(params, published_fleets(ROOT))
    cells = list(frame[f"M at {params.gpus:,} GPUs"])
    ranged = [cell for cell in cells if "(" in cell]
    assert len(ranged) >= 5
    for cell in ranged:
        assert len(set(_units(cell))) == 1, cell
        assert re.fullmatch(r"[\d.,]+ \S+ \([\d.,]+ to [\d.,]+ \S+\)", cell), cell


@pytest.mark.slow
def test_the_spares_check_writes_each_row_in_one_unit(small: FleetPlan) -> None:
    """Closed form, simulated mean and its standard error share a unit in each row; the caption claims no unit."""
    styler = restart_figures.spares_check_table(small)
    frame, caption = styler.data, str(styler.caption)  # type: ignore[attr-defined]
    assert len(frame) >= 2
    for closed, simulated in zip(frame["closed form"], frame["simulated"], strict=True):
        assert len(set(_units(f"{closed} {simulated}"))) == 1, (closed, simulated)
    assert "minutes" not in caption
    assert len({_units(c)[0] for c in frame["closed form"]}) > 1  # hours at no spare, minutes or seconds with some


def test_a_persistent_tier_without_a_drain_lists_no_drain_loss() -> None:
    """A persistent tier every 2nd checkpoint and no drain (a valid file): its drain loss is none by design, so no
    table, page or command lists one. The exact and goodput chapters failed to build ("All arrays must be of the same
    length": FleetPlan.losses had left the drain out, the loss columns put it in); the command printed "not yet
    durable (drain) 0.0%" and the answer page's first-order losses ended with the drain's 0.0%."""
    from goodput.book import exact_figures
    from goodput.pages.answer import plan_losses

    fleet = fleet_plan(params_from_mapping({
        "gpus": 40960, "interruptions": {"count": 330, "window": "38 days"}, "checkpoint_cost": "26 s",
        "slow_checkpoint_cost": "6 min", "restart": "7 min", "persistent": {"cost": "5 min", "restart": "23 min",
                                                                            "every": 2},
        "fast_survives": 0.67, "price_per_gpu_hour": 2.16, "month": "730 h"}, source="f15.yml"))
    assert fleet.tiered and not fleet.plan.drained and "drain_loss" not in fleet.losses
    table = tables.model_losses_table(fleet)
    assert "checkpoints not yet durable (the drain)" not in list(table.iloc[:, 0])
    assert exact_figures.breakdown_table(fleet) is not None
    assert "drain" not in plan_losses(fleet.first_order) and "drain" not in plan_losses(fleet.plan)
    drained = fleet_plan(fleet.params.replace(drain=2.0))
    assert drained.plan.drained and "drain" in plan_losses(drained.plan)
    assert len(tables.model_losses_table(drained)) == len(table) + 1


def test_the_tables_write_a_loss_as_the_prose_beside_them() -> None:
    """A 512-GPU fleet whose restart loss is 0.085%: the planning page's prose said 0.085% and the table under it
    0.1%; the model table, the elastic table and the prose now write each loss alike (percent_sig2), and the elastic
    table's two goodputs with the decimals that set them apart."""
    from goodput.pages.common import fleet_values

    fleet = fleet_plan(params_from_mapping({"gpus": 512, "rate_per_gpu_hour": 2e-5, "checkpoint_cost": "20 s",
                                            "slow_checkpoint_cost": "5 min", "restart": "5 min",
                                            "price_per_gpu_hour": 2.5, "month": "720 h"}))
    said = fleet_values(fleet)
    shares = tables.plan_losses_table(fleet).set_index("where the time goes")["share of wall time"]
    assert (shares["restart"], shares["lost work"]) == (said["restart_loss"], said["lost_work"])
    assert said["restart_loss"] == "0.085%"
    exact = tables.model_losses_table(fleet).set_index("at the optimum")["exact model"]
    assert exact["restart"] == said["restart_loss"] and exact["checkpoint overhead"] == said["checkpoint_overhead"]
    elastic = scale_figures.elastic_table(fleet).data.set_index("")
    assert elastic.loc["goodput", "full restart"] != elastic.loc["goodput", "elastic"]
