"""What several pages share: which inputs are the brief's worked example, and how a page names the inputs.

The worked example is recognised by its numbers (GPUs, M, both checkpoint costs, R, price and month,
one tier), not by its file name, so a copy of book/params.yml under another name is still it.
"""

from __future__ import annotations

from pathlib import Path

from goodput.pages import common
from goodput.params import load_params
from goodput.plan import plan_for
from goodput.report import ordinal, percent
from goodput.units import format_duration

ROOT = Path(__file__).resolve().parent.parent


def test_the_worked_example_is_recognised_by_its_numbers(tmp_path: Path) -> None:
    """book/params.yml and a renamed copy are the worked example; the 24k and 32k fleets and a changed copy are not."""
    book = load_params(ROOT / "book" / "params.yml")
    copy = tmp_path / "renamed.yml"
    copy.write_text((ROOT / "book" / "params.yml").read_text(encoding="utf-8"), encoding="utf-8")
    assert common.is_worked_example(book) and common.is_worked_example(load_params(copy))
    assert common.is_worked_example(common.worked_example())
    for other in ("fleet-24k.yml", "fleet-32k.yml"):
        assert not common.is_worked_example(load_params(ROOT / "examples" / other)), other
    assert not common.is_worked_example(book.replace(gpus=2 * book.gpus, mtbi=book.mtbi / 2))
    assert not common.is_worked_example(book.replace(drain=6.0))  # a drain makes it another scheme


def test_pages_name_the_inputs_by_file_and_say_when_they_are_the_worked_example() -> None:
    """The worked example is named as such beside its file; another fleet by its file alone."""
    book = load_params(ROOT / "book" / "params.yml")
    fleet = load_params(ROOT / "examples" / "fleet-24k.yml")
    assert common.inputs_name(book) == "params.yml (the brief's worked example)"
    assert common.inputs_name(fleet) == "fleet-24k.yml"
    assert common.inputs_phrase(book) == "the brief's worked example"
    assert common.inputs_phrase(fleet) == "the inputs of fleet-24k.yml"


def test_carried_ranges_are_around_the_recommendation() -> None:
    """With no range in the file, T* and goodput are single values ("at ..."), and for a fleet with a drain and a
    persistent tier they are its plan's (tier model, cadence held), not the one-tier model's."""
    tiered = load_params(ROOT / "examples" / "fleet-24k.yml")
    plan = plan_for(tiered)
    r = common.carried_ranges(tiered)
    assert r["t_span"] == f"at {format_duration(plan.interval)}"
    assert r["g_span"] == f"at {percent(plan.goodput)}"
    assert f"every {ordinal(plan.tiers.every)} checkpoint" in r["scheme_note"]
    assert "no input a range" in r["top_text"]
    ranged = common.carried_ranges(tiered.replace(ranges={"checkpoint_cost": (0.5, 1.0), "restart": (10.0, 15.0)}))
    low, high = (float(x.rstrip("%")) for x in ranged["g_span"].removeprefix("between ").split(" and "))
    assert low < 100 * plan.goodput < high
    assert common.carried_ranges(load_params(ROOT / "book" / "params.yml"))["scheme_note"] == ""
