"""What several pages say alike: which inputs are the worked example, first order's one verdict, ranges in words.

The worked example is recognised by its numbers (GPUs, M, both checkpoint costs, R, price and month,
one tier), not by its file name, so a copy of book/params.yml under another name is still it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from goodput import report
from goodput.fleet import fleet_plan
from goodput.pages import Variant, common
from goodput.params import load_params
from goodput.report import percent
from goodput.units import format_duration

ROOT = Path(__file__).resolve().parent.parent


def test_the_worked_example_is_recognised_by_its_numbers(tmp_path: Path) -> None:
    """book/params.yml and a renamed copy are the worked example; the 24k and 32k fleets and a changed copy are not."""
    book = load_params(ROOT / "book" / "params.yml")
    copy = tmp_path / "renamed.yml"
    copy.write_text((ROOT / "book" / "params.yml").read_text(encoding="utf-8"), encoding="utf-8")
    assert common.is_worked_example(book) and common.is_worked_example(load_params(copy))
    assert common.is_worked_example(load_params())
    for other in ("fleet-24k.yml", "fleet-32k.yml"):
        assert not common.is_worked_example(load_params(ROOT / "examples" / other)), other
    assert not common.is_worked_example(book.replace(gpus=2 * book.gpus, mtbi=book.mtbi / 2))
    assert not common.is_worked_example(book.replace(drain=6.0))  # a drain makes it another scheme


def test_pages_name_the_inputs_file_as_given(tmp_path: Path) -> None:
    """The worked example is named as such beside its file; another fleet by its file alone, its case kept."""
    book = load_params(ROOT / "book" / "params.yml")
    fleet = load_params(ROOT / "examples" / "fleet-24k.yml")
    assert common.fleet_values(fleet_plan(book))["params_file"] == "params.yml (the worked example)"
    assert common.fleet_values(fleet_plan(fleet))["params_file"] == "fleet-24k.yml"
    named = tmp_path / "FleetA.yml"
    named.write_text((ROOT / "examples" / "fleet-24k.yml").read_text(encoding="utf-8"), encoding="utf-8")
    assert common.fleet_values(fleet_plan(load_params(named)))["params_file"] == "FleetA.yml"


@pytest.mark.slow
def test_ranges_are_carried_through_the_fleets_scheme() -> None:
    """With no range in the file T* and goodput are single values at the tiered plan's; with ranges of C and R the
    goodput range brackets the plan's goodput, and each range is quoted with its values."""
    tiered = fleet_plan(load_params(ROOT / "examples" / "fleet-24k.yml"))
    assert common.t_span(tiered) == f"at {format_duration(tiered.interval)}"
    assert common.g_span(tiered) == f"at {percent(tiered.goodput)}"
    ranged = fleet_plan(tiered.params.replace(ranges={"checkpoint_cost": (0.5, 1.0), "restart": (10.0, 15.0)}))
    low, high = (float(x.rstrip("%")) for x in common.g_span(ranged).removeprefix("between ").split(" and "))
    assert low < 100 * ranged.goodput < high
    assert "the checkpoint cost C from 30 s to 1 min" in common.ranges_text(ranged)
    assert "the restart time R from 10 min to 15 min" in common.ranges_text(ranged)


def test_first_order_verdict_is_the_fleets_one_measure() -> None:
    """The worked example's first order is 0.7 points below the exact model (ok); the 24k tiered fleet's verdict is
    its scheme's, the same status FleetPlan gives."""
    worked = fleet_plan(load_params())
    assert common.first_order_variant(worked) == Variant("ok") and common.fleet_values(worked)["gap"] == "0.7 points"
    tiered = fleet_plan(load_params(ROOT / "examples" / "fleet-24k.yml"))
    assert common.first_order_variant(tiered).name == tiered.first_order_status.replace(" ", "_")


def test_large_counts_read_as_people_write_them() -> None:
    """26,700,466 GPU-hours read "26.7 million"; below a million, three significant digits with separators."""
    assert report.large_count(26_700_466) == "26.7 million"
    assert report.large_count(238_412.5) == "238,000"
    assert report.large_count(999.6) == "1,000"


def test_scheme_parts_name_what_the_fleets_scheme_has() -> None:
    """The shared clause names the drain and the persistent tier only where the plan has them: a drain alone, a
    persistent tier alone, both, or nothing for one tier safe when taken."""
    worked = load_params()
    tiers = {"persistent_cost": 3.0, "persistent_restart": 20.0, "fast_survives": 0.8}
    cases = {"": worked, "drain": worked.replace(drain=5.0), "persistent tier": worked.replace(**tiers),
             "drain and persistent tier": worked.replace(drain=5.0, **tiers)}
    for expected, params in cases.items():
        assert common.fleet_values(fleet_plan(params))["scheme_parts"] == expected, expected
