"""What several pages say alike: which inputs are the worked example, first order's one verdict, ranges in words.

The worked example is recognised by its numbers (GPUs, M, both checkpoint costs, R, price and month,
one tier), not by its file name, so a copy of book/params.yml under another name is still it.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from goodput import report
from goodput.fleet import fleet_plan
from goodput.pages import Variant, common
from goodput.params import Params, load_params
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
    assert common.first_order_variant(worked) == Variant("ok") and common.fleet_values(worked)["gap"] == "0.66 points"
    tiered = fleet_plan(load_params(ROOT / "examples" / "fleet-24k.yml"))
    assert common.first_order_variant(tiered).name == tiered.first_order_status.replace(" ", "_")


def test_the_worked_examples_scheme_and_intervals_off_its_optimum() -> None:
    """One tier, durable at once (C_p = C, R_p = R); twice the 18.6 min interval costs 2.2 points, half is 9.3 min."""
    fleet = fleet_plan(load_params())
    assert common.scheme_values(fleet) == {"drain": "0 s", "persistent_cost": "1 min", "persistent_restart": "5 min"}
    assert common.off_optimum(fleet)[0] == {"twice_interval": "37.2 min", "twice_points": "2.2 points",
                                            "half_interval": "9.3 min"}


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


STORY = ROOT / "tests" / "data" / "tiered-48k <img src=x onerror=alert(1)> & co.yml"
SMALL = ROOT / "tests" / "data" / "fleet-small-tiered.yml"
#: A fleet like the stored one: the model's size, storage and a snapshot, but no C, D or slow C typed.
DERIVED_SLOW = {"gpus": "65536", "rate_per_gpu_hour": "2.2e-5", "checkpoint": {"parameters": "405e9"},
                "storage": {"write_bandwidth": "2 TB/s", "read_bandwidth": "4 TB/s", "efficiency": "0.5",
                            "price": "1500"},
                "snapshot": {"bandwidth": "50 GB/s", "host_memory": "2 TiB"}, "restart": {"detect": "1 min", "replace": "3 min", "startup": "4 min", "warmup": "2 min"},
                "spares": {"nodes": "32", "repair": "8 h", "takes_node": "0.5"}, "price_per_gpu_hour": "3.2", "month": "730 h"}


def _derived_slow() -> Params:
    from goodput.params import params_from_mapping

    return params_from_mapping(DERIVED_SLOW, source="derived-slow.yml")


def test_a_slow_checkpoint_is_derived_only_where_the_inputs_file_states_none() -> None:
    """The stored-like fleet (no slow C typed) derives it, 5.67 TB at 1 TB/s; the worked, small and story fleets state it."""
    derived = _derived_slow()
    assert derived.slow_derived and format_duration(derived.slow_checkpoint_cost) == "5.67 s"
    assert report.slow_origin(derived).startswith("derived for comparison, not given: a synchronous write of 5.67 TB")
    assert ("slow checkpoint cost (comparison)", "5.67 s (" + report.slow_origin(derived) + ")") in \
        report.input_rows(derived)
    for path in (ROOT / "book" / "params.yml", SMALL, STORY):
        p = load_params(path)
        assert not p.slow_derived and report.slow_origin(p) == "" and report.slow_words(p) == "none"
        assert ("slow checkpoint cost (comparison)", format_duration(p.slow_checkpoint_cost)) in report.input_rows(p)


@pytest.mark.slow
def test_each_page_names_a_derived_slow_checkpoint_as_the_books_comparison() -> None:
    """A derived slow checkpoint is the book's synchronous write on every page; the worked example keeps its words."""
    from goodput.book import figures, tables, variant_text
    from goodput.book.data import published_fleets
    from goodput.pages import answer, failures, goodput, inputs, levers, measuring, scale, tiers, uncertainty
    from goodput.report import escape_markdown

    fleet = fleet_plan(_derived_slow())
    what = report.slow_words(fleet.params)
    assert what.startswith("the synchronous write of the whole checkpoint (5.67 TB at 1 TB/s achieved: 5.67 s)")
    assert common.fleet_values(fleet)["slow_what"] == what
    assert answer.build(fleet).slow_kind == Variant("derived")
    a = answer.build(fleet)
    assert a.slow_pair == Variant("derived") and variant_text(a, "slow_pair") == "this fleet's plan against that derived write"
    lv = levers.build(fleet)
    assert (lv.slow_compared, lv.slow_short) == (Variant("derived"), Variant("derived")) and lv.slow_what == what
    assert variant_text(lv, "slow_compared") == escape_markdown(what) + ","
    assert measuring.build(fleet).slow_its == Variant("derived") and measuring.build(fleet).slow_said == what[0].upper() + what[1:]
    assert uncertainty.build(fleet).slow_range == Variant("derived")
    g = goodput.build(fleet)
    assert (g.slow_this, g.slow_what, g.slow) == (Variant("derived"), what, Variant("refused"))
    assert variant_text(g, "slow_this") == escape_markdown(what)
    assert (g.slow_off, g.tolerance) == ("4.3 points", "3 points")  # first order's error for it, above the tolerance
    assert g.leaves_out == Variant("caution") and g.out_of_range_fleet.startswith("at 131,072 GPUs (twice that fleet")
    assert tiers.build(fleet).slow_drawn == what + "," and failures.build(fleet).slow_with == what
    s = scale.build(fleet)
    assert (s.cost_pair, s.cost, s.slow_what) == (Variant("derived"), "13.8 ms", what)
    assert variant_text(s, "cost_pair") == f"this fleet's own ({escape_markdown(s.cost)}), {escape_markdown(what)},"
    assert s.slow_named == Variant("derived") and "derived" in variant_text(s, "slow_named")
    assert s.slow_with == Variant("derived")
    records = published_fleets()
    assert inputs.build(fleet, records).c_paths == Variant("derived")
    assert (inputs.build(fleet, records).sync_time, fleet.params.slow_checkpoint_cost) == (
        Variant("derived"), pytest.approx(5.67 / 60, rel=1e-3))
    assert any(k.startswith("derived write, C = 5.67 s") for k in figures.breakdown_cases(fleet))
    rows = tables.inputs_range_table(fleet).data.set_index("input")
    assert rows.loc["slow checkpoint cost (comparison)", "where the range comes from"].startswith("derived for comp")

    worked = fleet_plan(load_params(ROOT / "book" / "params.yml"))
    assert answer.build(worked).slow_kind == Variant("write")
    wl = levers.build(worked)
    assert (wl.slow_compared, wl.slow_cost) == (Variant("write"), "5 min")
    assert variant_text(wl, "slow_compared") == "the synchronous checkpoint of 5 min that the inputs file compares it with"
    assert (measuring.build(worked).slow_its, measuring.build(worked).slow_cost) == (Variant("write"), "5 min")
    wg = goodput.build(worked)
    assert (wg.slow_this, variant_text(wg, "slow_this")) == (Variant("given"), "the slow 5 min checkpoint")
    assert uncertainty.build(worked).slow_range == Variant("none")
    assert tiers.build(worked).slow_drawn == "the slow checkpoint of its inputs file"
    assert failures.build(worked).slow_with == "the slow checkpoint (5 min)"
    ws = scale.build(worked)
    assert (ws.cost_pair, ws.slow_cost, ws.cost) == (Variant("slow_fast"), "5 min", "1 min")
    assert variant_text(ws, "cost_pair") == "the inputs file's slow and fast ones (5 min and 1 min)"
    assert scale.build(worked).slow_with == Variant("given")
    assert not any(k.startswith("derived") for k in figures.breakdown_cases(worked))


@dataclasses.dataclass(frozen=True)
class _Nested:
    """A page whose paragraph variant quotes a clause variant, which quotes a value."""

    paragraph: Variant
    clause: Variant
    cost: str
    loop: Variant


def test_a_variant_quotes_another_variant_filled_and_escaped_once(tmp_path: Path) -> None:
    from goodput.book import variant_text

    folder = tmp_path / "variants" / __name__.rsplit(".", 1)[-1]
    folder.mkdir(parents=True)
    (folder / "paragraph.long.md").write_text("The fleet {clause}. Next.\n", encoding="utf-8")
    (folder / "clause.pays.md").write_text("pays *{cost}* a month\n", encoding="utf-8")
    (folder / "clause.none.md").write_text("", encoding="utf-8")
    (folder / "loop.self.md").write_text("again {loop}\n", encoding="utf-8")
    page = _Nested(Variant("long"), Variant("pays"), "$2.6M", Variant("self"))
    assert variant_text(page, "paragraph", tmp_path) == "The fleet pays *\\$2.6M* a month. Next."
    assert variant_text(dataclasses.replace(page, clause=Variant("none")), "paragraph", tmp_path) == "The fleet . Next."
    with pytest.raises(ValueError, match="quotes itself"):
        variant_text(page, "loop", tmp_path)


def test_two_goodputs_the_pages_compare_read_apart() -> None:
    """The plan's goodput and the slow checkpoint's, 0.014 points apart, get the decimals that tell them apart."""
    book = load_params()
    fleet = fleet_plan(book.replace(slow_checkpoint_cost=1.003 * book.checkpoint_cost))
    assert percent(fleet.goodput) == percent(fleet.slow.goodput) != percent(fleet.goodput, 2)  # alike at 1 decimal
    values = common.fleet_values(fleet)
    assert (values["goodput"], values["slow_goodput"]) == ("87.58%", "87.57%")
    assert common.fleet_values(fleet_plan(book))["goodput"] == "87.6%"  # the worked example keeps its one decimal


def test_first_order_beside_the_exact_model_reads_apart() -> None:
    """256 GPUs with M of 5 days: first order 96.16% against the exact 96.22%. The answer page read "96.2% ...: 0.1
    points below the exact model's 96.2%"; each goodput now has the decimals that set it apart, and the gap two
    significant digits (0.060 points)."""
    from goodput.fleet import fleet_plan
    from goodput.params import params_from_mapping

    fleet = fleet_plan(params_from_mapping({"gpus": 256, "mtbi": "5 days", "checkpoint_cost": "3 min",
                                            "slow_checkpoint_cost": "12 min", "restart": "10 min",
                                            "spares": {"nodes": 2, "repair": "3 days", "takes_node": 0.7},
                                            "price_per_gpu_hour": 14, "month": "730 h"}))
    values = common.fleet_values(fleet)
    assert fleet.first_order_status == "ok"
    assert (values["fo_goodput"], values["goodput_fo"], values["gap"]) == ("96.16%", "96.22%", "0.060 points")


def test_the_largest_loss_reads_as_the_largest() -> None:
    """The same 256-GPU fleet loses 1.43% to lost work and 1.40% to checkpoints: the pages said "largest first: lost
    work 1.4%, checkpoint overhead 1.4%" and "the largest loss is lost work, 1.4%". Both now read apart, alike in the
    prose, the page's table and the command's (goodput.report.loss_texts)."""
    from goodput.book import tables
    from goodput.fleet import fleet_plan
    from goodput.params import params_from_mapping
    from goodput.report import plan_report, render_plan

    params = params_from_mapping({"gpus": 256, "mtbi": "5 days", "checkpoint_cost": "3 min",
                                  "slow_checkpoint_cost": "12 min", "restart": "10 min",
                                  "spares": {"nodes": 2, "repair": "3 days", "takes_node": 0.7},
                                  "price_per_gpu_hour": 14, "month": "730 h"})
    fleet = fleet_plan(params)
    values = common.fleet_values(fleet)
    assert (values["lost_work"], values["checkpoint_overhead"], values["largest_loss_share"]) == ("1.43%", "1.40%", "1.43%")
    assert common.losses_text(fleet).startswith("lost work 1.43%, checkpoint overhead 1.40%")
    shares = tables.plan_losses_table(fleet).set_index("where the time goes")["share of wall time"]
    assert (shares["lost work"], shares["checkpoint overhead"]) == ("1.43%", "1.40%")
    assert "1.43%" in render_plan(plan_report(fleet.plan, params, {}), "text")
