"""Words: plans rendered as a table, Markdown and JSON carry the same numbers as the plan, in a person's units."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from goodput import model
from goodput.fleet import fleet_plan
from goodput.params import load_params, params_from_mapping
from goodput.plan import LEVERS, TIER_LEVERS, make_plan, plan_for
from goodput.report import (
    money,
    optimum_name,
    ordinal,
    percent,
    plan_report,
    points,
    recommendation,
    render_plan,
    scheme_words,
    slow_words,
)
from goodput.units import format_duration

ROOT = Path(__file__).resolve().parent.parent

TIERED = """gpus: 24576
rate_per_gpu_hour: 1.6e-5
checkpoint_cost: 40 s
slow_checkpoint_cost: 5 min
drain: 6 min
restart: 12 min
price_per_gpu_hour: 2.1
month: 720 h
persistent: {cost: 4 min, restart: 15 min}
fast_survives: 0.7
"""


@pytest.fixture
def tiered(tmp_path: Path):
    path = tmp_path / "fleet24k.yml"
    path.write_text(TIERED)
    return load_params(path)


def test_numbers_as_words() -> None:
    """Shares as percentages, differences in points (singular for one), money to two digits, ordinals."""
    assert percent(0.8692) == "86.9%" and points(0.128) == "12.8 points" and points(0.01) == "1.0 point"
    assert money(3.78e6) == "$3.8M" and money(4.2e5) == "$420K" and money(12.4e6) == "$12M"
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 102)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "102nd"]


def test_render_formats(worked) -> None:
    """Table and Markdown show the rounded worked numbers (first order: 186 min, 19.3 min, 5.2%, 2.7%, 86.9%);
    JSON has the documented keys as fractions of 1, adding up to one, and the levers of LEVERS."""
    p = plan_for(worked, which="first-order")
    report = plan_report(p, worked)
    table = render_plan(report, "table")
    for text in ("186 min", "19.3 min", "5.2%", "2.7%", "86.9%", "16,384"):
        assert text in table
    md = render_plan(report, "markdown")
    assert "| mean time between interruptions, M | 186 min | 419 interruptions in 54 days (worked example) |" in md
    data = json.loads(render_plan(report, "json"))
    assert set(data["levers"]) == set(LEVERS)
    for key in ("mtbi_min", "interval_min", "checkpoint_overhead", "lost_work", "restart_loss", "goodput"):
        assert isinstance(data[key], float)
    assert_allclose(data["goodput"], p.goodput)
    assert_allclose(1 - data["checkpoint_overhead"] - data["lost_work"] - data["restart_loss"], data["goodput"])
    assert data["gpus"] == 16384 and data["model"] == "first-order" and data["cross_check"]["model"] == "exact"
    assert data["ranges"]["checkpoint_cost"] == [0.75, 2.0] and data["ranges"]["mtbi"][0] < 185.6 < data["ranges"]["mtbi"][1]
    assert_allclose(data["capacity"]["lost_usd_per_month"], (1 - p.goodput) * 16384 * 2.5 * 720)


def test_recommendation_names_the_model_and_the_interval_in_use() -> None:
    """At the optimum one sentence; with another interval, the goodput it gives and the points it costs."""
    assert recommendation(make_plan(1.0, 185.6, 5.0)).startswith("Checkpoint every 18.6 min of work (exact optimum")
    g = float(model.goodput(1.0, 185.6, 5.0, 40.0))
    text = recommendation(make_plan(1.0, 185.6, 5.0, 40.0, which="first-order"))
    assert "first order, T* = √(2CM)" in text and f"The interval in use, 40 min, gives {g:.1%}" in text


def test_recommendation_with_recovery_compares_like_with_like() -> None:
    """With just-in-time recovery and an interval in use, the optimum quoted is the optimum with that recovery."""
    given = make_plan(1.0, 185.6, 5.0, 40.0, just_in_time=0.5, jit_recovery=1.0)
    best = make_plan(1.0, 185.6, 5.0, None, just_in_time=0.5, jit_recovery=1.0)
    assert best.goodput > given.goodput
    text = recommendation(given)
    assert f"every {format_duration(best.optimal_interval)} of work" in text
    assert f"goodput {best.goodput:.1%}. The interval in use, 40 min, gives {given.goodput:.1%}" in text
    assert f"({(best.goodput - given.goodput) * 100:.1f} points less)" in text


def test_scheme_words_give_the_drain_to_the_checkpoint_that_drains() -> None:
    """One tier with a drain: every checkpoint drains, so the drain follows the snapshot. Two tiers: only the
    persistent copy (every n-th) drains, so the drain is among the persistent copy's values and not the fast one's;
    without a drain none is named."""
    one = scheme_words(make_plan(0.5, 60.0, 5.0, drain=3.0))
    assert one == f"a 30 s snapshot drained in {format_duration(3.0)}"
    tiers = {"persistent_cost": 2.0, "persistent_restart": 22.0, "fast_survives": 0.85, "persistent_every": 5}
    two = scheme_words(make_plan(0.5, 60.0, 5.0, drain=3.0, **tiers))
    fast, persistent, _ = two.split("; ")
    assert "drain" not in fast and "3 min" not in fast
    assert persistent == "every 5th copy persistent (2 min stall, drained in 3 min, restart 22 min)"
    undrained = scheme_words(make_plan(0.5, 60.0, 5.0, **tiers))
    assert "drain" not in undrained and "(2 min stall, restart 22 min)" in undrained


@pytest.mark.slow
def test_a_tiered_plan_carries_every_tier_key(tiered) -> None:
    """With a drain and a persistent tier, JSON adds drain_min, drain_loss, persistent_cost_min,
    persistent_restart_min, fast_survives, persistent_every and persistent_interval_min (= n T); the four losses
    and goodput add up to one; the levers add the drain and the fast tier; the recommendation names the cadence."""
    p = plan_for(tiered)
    data = json.loads(render_plan(plan_report(p, tiered), "json"))
    assert data["drain_min"] == 6.0 and data["persistent_cost_min"] == 4.0 and data["persistent_restart_min"] == 15.0
    assert data["fast_survives"] == 0.7 and data["persistent_every"] == p.tiers.every
    assert_allclose(data["persistent_interval_min"], p.tiers.every * data["interval_min"])
    total = data["checkpoint_overhead"] + data["lost_work"] + data["restart_loss"] + data["drain_loss"]
    assert_allclose(total + data["goodput"], 1.0)
    # R_p 15 min halved is below R, 12 min: the lever stops at R and is named for it
    assert set(data["levers"]) == set(LEVERS) | set(TIER_LEVERS) - {"halve R_p"} | {"shorten R_p to R"}
    text = recommendation(p)
    assert f"every {ordinal(p.tiers.every)} one to the persistent tier" in text
    table = render_plan(plan_report(p, tiered), "table")
    assert "not yet durable (drain)" in table and "persistent interval, nT" in table
    assert max(len(line) for line in table.splitlines()) <= 80


def test_a_single_tier_plan_has_no_tier_keys(worked) -> None:
    """Without a drain or a persistent tier the JSON has exactly the single-level keys (no null tier keys)."""
    data = json.loads(render_plan(plan_report(plan_for(worked), worked), "json"))
    assert not {"drain_min", "drain_loss", "persistent_cost_min", "persistent_every"} & set(data)


def test_markdown_cells_survive_a_pipe_in_a_file_name(tmp_path: Path) -> None:
    """A '|' in the inputs file's name does not break the Markdown table."""
    path = tmp_path / "a|b.yml"
    path.write_text((ROOT / "book" / "params.yml").read_text().replace("logs:", "# logs:"))
    params = load_params(path)
    md = render_plan(plan_report(plan_for(params), params), "markdown")
    assert "a\\|b.yml" in md


def test_a_first_order_plan_of_a_scheme_is_not_called_young(worked, tiered) -> None:
    """√(2CM) names the first-order optimum of one checkpoint safe at once; a drain or a persistent tier has its own."""
    assert optimum_name(plan_for(worked, which="first-order")) == "first order, T* = √(2CM)"
    assert optimum_name(plan_for(worked)) == "exact optimum for exponential failures"
    scheme = plan_for(tiered, which="first-order")
    assert optimum_name(scheme) == "first order of this checkpoint scheme"
    assert "√(2CM)" not in render_plan(plan_report(scheme, tiered), "table")


#: The story fleet: R = 18.3 min given as parts (start-up 2 min + 6,144 nodes × 0.1 s) and 16 hot spares.
STORY = ROOT / "tests" / "data" / "tiered-48k <img src=x onerror=alert(1)> & co.yml"


def test_the_restart_parts_add_up_to_r_as_written() -> None:
    """The story fleet's R, 18.3 min, is 1 + 3 + 12.24 + 2 min and a wait of 0.917 s: the start-up written 12.2 min
    would add up to 18.2 min. The parts as the sum writes them add up to R as written, and the command's rows of the
    parts are the same texts."""
    from goodput.report import planner_rows, restart_part_texts
    from goodput.units import written_minutes as _written

    p = load_params(STORY)
    texts = restart_part_texts(p)
    assert format_duration(sum(_written(t) for t in texts.values())) == format_duration(p.restart)
    assert abs(_written(texts["startup"]) - (2 + 6144 * 0.1 / 60)) < 0.005  # 12.24 min to the hundredth
    rows = {key: value for key, value, _ in planner_rows(p)}
    assert rows["restart part: start-up"] == texts["startup"] and rows["restart part: detection"] == texts["detect"]


def test_a_wait_for_repairs_below_a_millisecond_is_not_written_to_its_digits() -> None:
    """The story fleet with 64 spares waits about 1e-21 min for repairs: R's sum, the spares row and the inputs note
    say "under 1 ms" (not "1.16e-08 ms"), and R as written is unchanged."""
    from goodput.report import restart_sum, spares_text

    p = load_params(STORY)
    many = params_from_mapping({**yaml.safe_load(STORY.read_text(encoding="utf-8")),
                                "spares": {"nodes": 64, "repair": "12 h", "takes_node": 0.6}}, source="many.yml")
    assert 0 < many.spares.wait(many.mtbi) < 1e-6 / 60
    assert restart_sum(many).endswith("waiting for repairs under 1 ms")
    assert spares_text(many).endswith("; under 1 ms waiting per interruption")
    assert ", and under 1 ms waiting for repairs (64 spare nodes" in many.derived["restart"]
    assert format_duration(many.restart) == format_duration(p.restart - p.spares.wait(p.mtbi))


def test_levers_ranked_apart_read_apart() -> None:
    """The small fleet's two largest levers gain 0.496 and 0.483 points: they read "+0.50" and "+0.48", not
    "+0.5" twice; levers that gain the same (halve C and double the snapshot bandwidth, which halves C) read alike.
    Gains of a point or more keep one decimal."""
    from goodput.fleet import fleet_plan
    from goodput.report import gain_text

    ranked = fleet_plan(load_params(ROOT / "tests" / "data" / "fleet-small-tiered.yml")).levers_ranked
    texts = [gain_text(gain) for _, gain in ranked]
    assert texts[:2] == ["0.50 points", "0.48 points"]
    for (_, a), (_, b) in itertools.pairwise(ranked):
        assert (gain_text(a) == gain_text(b)) == (abs(a - b) <= 0.01 * max(a, b)), (a, b)
    assert gain_text(0.0249) == "2.5 points"


@given(parts=st.lists(st.floats(0.001, 600.0).map(lambda x: round(x, 4)), min_size=1, max_size=6))
def test_written_parts_add_up_to_the_written_total(parts: list[float]) -> None:
    """Any parts, as :func:`goodput.report.adding_up` writes them, add up to their total as written."""
    from goodput.report import adding_up
    from goodput.units import written_minutes as _written

    texts = adding_up(sum(parts), parts)
    assert format_duration(sum(_written(t) for t in texts)) == format_duration(sum(parts))


def test_a_lever_with_nothing_to_move_is_at_the_optimum(worked) -> None:
    """The story's plan chose T and n: its interval and cadence levers are "at the optimum" in the command, not
    "+0.0 points". An interval given off the optimum keeps the interval lever's gain; a cadence given keeps the
    cadence lever's, even where n given is the best (a gain of zero that is a measurement, not the construction)."""
    from goodput.plan import OPTIMUM_LEVERS, levers_at_optimum
    from goodput.report import AT_OPTIMUM, lever_gain_text

    story = load_params(STORY)
    plan = plan_for(story)
    assert levers_at_optimum(plan) == set(OPTIMUM_LEVERS)
    table = render_plan(plan_report(plan, story), "table")
    rows = [line.strip() for line in table.splitlines() if line.strip().startswith("set the ")]
    assert len(rows) == 2 and all(row.endswith(AT_OPTIMUM) for row in rows), rows
    off = plan_for(story, interval=2 * plan.interval)
    assert levers_at_optimum(off) == {"set the persistent cadence right"}  # n chosen, T off its optimum
    assert lever_gain_text(off, "set the interval right", 0.031, plus=True) == "+3.1 points"
    given_n = plan_for(story.replace(persistent_every=plan.tiers.every))  # type: ignore[union-attr]
    assert levers_at_optimum(given_n) == {"set the interval right"}
    assert levers_at_optimum(plan_for(worked)) == {"set the interval right"}
    assert levers_at_optimum(plan_for(worked, interval=30.0)) == set()


STALL = Path(__file__).resolve().parent / "data" / "fleet-stored-stall.yml"
#: The stall fleet beside a snapshot no faster than its storage: there the scheme does not pay.
NOT_PAYING = STALL.with_name("fleet-stall-slow-snapshot.yml")


def test_a_measured_stall_is_named_a_stall_beside_its_copy(stored: Any) -> None:
    """fleet-stored-stall.yml: C = 6.3 s is the stall measured at a snapshot whose copy alone takes 13.8 ms
    (Params.checkpoint_is_stall), so the scheme reads as that stall, not "a 6.3 s snapshot"; where the derived write
    keeps more (beside a snapshot no faster than the storage, 73.1% against 72.9%: FleetPlan.slow_keeps_more) the write
    is said to; the stored fleet, whose C is the copy and whose scheme beats the write, reads as before."""
    stall, losing = fleet_plan(load_params(STALL)), fleet_plan(load_params(NOT_PAYING))
    assert stall.params.checkpoint_is_stall and not stall.slow_keeps_more and losing.slow_keeps_more
    words = scheme_words(stall.plan, stall.params)
    assert words == "a measured 6.3 s stall at each snapshot (the copy alone 13.8 ms), drained in 5.67 s"
    assert scheme_words(stall.plan) == "a 6.3 s snapshot drained in 5.67 s"  # without the fleet's params, as before
    assert scheme_words(stored.plan, stored.params) == scheme_words(stored.plan)
    assert not stored.params.checkpoint_is_stall and not stored.slow_keeps_more
    kept = slow_words(losing.params, losing.slow_keeps_more)
    assert kept.endswith("which, as measured, keeps more than the fleet's scheme") and "does not take" not in kept
    assert slow_words(stored.params, stored.slow_keeps_more).endswith("and the fleet does not take")


@pytest.mark.slow
def test_the_best_bandwidth_note_says_the_scheme_as_measured_where_it_does_not_pay(capsys: pytest.CaptureFixture[str]) -> None:
    """Beside a snapshot no faster than the storage, the stall fleet's B* is its scheme's as measured, which the 6.2 s
    synchronous write beats: the command's note says so; the stall fleet's own and the stored fleet's (their schemes
    pay) do not."""
    from goodput.cli import main

    for name, said in (("fleet-stall-slow-snapshot.yml", True), ("fleet-stored-stall.yml", False),
                       ("fleet-stored.yml", False)):
        main(["plan", "--params", str(Path(__file__).parent / "data" / name)])
        text = " ".join(capsys.readouterr().out.split())
        assert "best write bandwidth net of its cost" in text, name
        assert ("with the fleet's scheme as measured, goodput" in text) is said, name


def test_a_fleet_whose_checkpoint_is_the_synchronous_write_is_not_said_not_to_take_it() -> None:
    """No snapshot: C is the synchronous write of 3 TB at 8.75 GB/s, 5.71 min, the very write the book compares with.
    Its words say it is the fleet's own checkpoint, not one 'the fleet does not take'."""
    from goodput.params import params_from_mapping
    from goodput.report import slow_words

    p = params_from_mapping({
        "gpus": 4096, "gpus_per_node": 4, "mtbi": "9 h", "checkpoint": {"size": "3 TB"},
        "storage": {"write_bandwidth": "100 Gb/s", "efficiency": 0.7}, "restart": "7 min",
        "price_per_gpu_hour": 1.71, "month": "730 h"}, source="x.yml")
    assert p.slow_derived and p.slow_against_c == "same"
    words = slow_words(p)
    assert "the fleet's own checkpoint" in words and "does not take" not in words


@pytest.mark.parametrize(("goodput", "said"), [
    (-0.12, "is -12%, below zero"), (-0.003, "is -0.3%, below zero"), (0.0, "is zero or less"),
    (-1.6e296, "is far below zero (under −1,000%)"),  # was 300 digits, cut mid-number at 400 characters
])
def test_a_first_order_goodput_below_zero_is_written_as_a_person_reads_it(goodput: float, said: str) -> None:
    from goodput.model import RangeCheck
    from goodput.report import first_order_problem

    text = first_order_problem(RangeCheck(goodput=goodput, error=0.0))
    assert text is not None and said in text and len(text) < 100


def test_a_checkpoint_that_is_the_write_is_not_said_to_rederive_a_slow_one() -> None:
    """2,048 GPUs whose C is the synchronous write (no snapshot): doubling the storage derives again the checkpoint's
    write and the load; it also said "and the slow checkpoint", which for this fleet is C itself."""
    from goodput.params import params_from_mapping
    from goodput.report import storage_rederived

    p = params_from_mapping({
        "gpus": 2048, "gpus_per_node": 8, "rate_per_gpu_hour": 5e-5, "checkpoint": {"parameters": 70e9},
        "storage": {"write_bandwidth": "8 GB/s", "read_bandwidth": "16 GB/s", "efficiency": 0.8},
        "restart": {"detect": "1 min", "startup": "2 min", "warmup": "1 min"}, "price_per_gpu_hour": 2.2,
        "month": "730 h"})
    assert storage_rederived(p)["rederived"] == "the checkpoint's write and the load after an interruption"


def test_a_stall_s_synchronous_write_names_the_barrier_it_pays() -> None:
    """The stall fleet's write is 5.67 s of transfer and the stall's 6.29 s of barrier and quiesce: the words said
    "(5.67 TB at 1 TB/s achieved: 12 s)", a transfer that cannot take 12 s."""
    from goodput.report import slow_words

    text = slow_words(load_params(STALL))
    assert "(5.67 TB at 1 TB/s achieved, 5.67 s, with the same 6.29 s of barrier and quiesce: 12 s)" in text
    assert "(5.67 TB at 1 TB/s achieved: 5.67 s)" in slow_words(load_params(STALL.with_name("fleet-stored.yml")))
