"""The answer page: the fleet's one plan, its largest loss and levers chosen by the numbers, first order quoted only
where the one measure allows it, and the worked example's numbers where the build is the worked example."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import pytest

from goodput import model, whatif
from goodput.exact import exact_goodput, exact_optimal_interval
from goodput.fleet import FleetPlan, fleet_plan
from goodput.pages import Variant, answer, planning
from goodput.params import Params, load_params, params_from_mapping
from goodput.plan import plan_for
from goodput.report import gain_text, money, percent, points
from goodput.units import format_duration

#: The planner's tiered fleet of issue 18 (restart its largest loss).
FLEET_65K = {"gpus": 65536, "rate_per_gpu_hour": 2.2e-5, "checkpoint_cost": "25 s", "slow_checkpoint_cost": "5 min",
             "restart": "15 min", "price_per_gpu_hour": 3.2, "month": "730 h", "drain": "4 min",
             "persistent": {"cost": "3 min", "restart": "25 min"}, "fast_survives": 0.75}


@pytest.fixture(scope="module")
def fleet_65k() -> FleetPlan:
    return fleet_plan(params_from_mapping(FLEET_65K, source="fleet-65k.yml"))


def _strings(page: answer.Page) -> list[str]:
    return [v for v in (getattr(page, f.name) for f in dataclasses.fields(page)) if isinstance(v, str)]


def test_the_worked_example(book: Params) -> None:
    """Exact: T* = M (1 + W0(-e^{-1-C/M})) = 18.6 min, 87.6%; the slow checkpoint 11.1 points lower, $3.3M a month.
    First order: √(2 x 1 x 185.6) = 19.3 min, 86.9%, 0.7 points below; slow 74.1%, 12.8 points, $3.8M."""
    worked = book
    page = answer.build(fleet_plan(worked))
    assert page.interval == format_duration(exact_optimal_interval(1.0, worked.mtbi)) == "18.6 min"
    assert page.goodput == f"{exact_goodput(1.0, worked.mtbi, 5.0):.1%}" == "87.6%"
    assert (page.slow_points, page.slow_dollars, page.mtbi) == ("11.1 points", "$3.3M", "186 min")
    assert (page.fo_interval, page.fo_goodput, page.fo_slow_goodput, page.fo_points, page.fo_dollars) == (
        "19.3 min", "86.9%", "74.1%", "12.8 points", "$3.8M")
    assert format_duration(math.sqrt(2 * 1.0 * worked.mtbi)) == page.fo_interval
    assert (page.first_order, page.fo_slow, page.gap, page.gap_side) == (Variant("ok"), Variant("quoted"),
                                                                          "0.66 points", "below")
    assert page.fo_slow_gap == "2.4 points"
    assert page.params_file == "params.yml (the worked example)" and page.scheme == Variant("single")
    assert (page.ranges, page.t_span, page.g_span) == (Variant("given"), "between 15.4 min and 27.3 min",
                                                        "between 81.0% and 90.3%")
    assert page.cost_lever == Variant("top")  # halving C is one of its two largest levers


@pytest.mark.slow
def test_the_tiered_fleet_tells_its_own_story(fleet_65k: FleetPlan) -> None:
    """65,536 GPUs at 2.2e-5 per GPU-hour (M = 41.6 min): every 5.91 min, every 4th persistent, 44.2%; restart is
    the largest loss (35.9%); halving the failure rate and draining the persistent write as well are the largest
    levers. Draining it is a cheaper checkpoint too (its stall falls from C_p to C), so it is the checkpoint's lever
    the page quotes, 9.5 points, and a top one (halving C_p, 3.7 points, had been quoted as "matters less")."""
    page = answer.build(fleet_65k)
    assert (page.interval, page.goodput, page.mtbi) == ("5.91 min", "44.2%", "41.6 min")
    assert "every 4th one to the persistent tier" in page.recommendation
    assert (page.largest_loss, page.largest_loss_share) == ("restart", "35.9%")
    assert (page.top_lever, page.lever_2, page.halve_c_points) == ("halve the failure rate", "drain the persistent write as well", "9.5 points")
    assert page.cost_lever == Variant("top") and page.halve_c_points == gain_text(fleet_65k.levers["drain the persistent write as well"])
    assert page.scheme == Variant("tiered")
    gain = fleet_65k.levers["halve the failure rate"]
    assert page.top_dollars == money(gain * 65536 * 3.2 * 730) == "$29M"
    assert (page.lost_dollars, page.lost_gpu_hours) == ("$85M", "26.7 million")
    assert page.drain == "4 min" and page.fast_lost == "25%"


def test_no_first_order_number_where_first_order_is_out_of_range(fleet_65k: FleetPlan) -> None:
    """The scheme's first order is 18.5 points below its exact model (more than 3): the page says so and quotes
    no first-order interval, goodput, points or dollars, for the fast or the slow checkpoint."""
    page = answer.build(fleet_65k)
    assert fleet_65k.first_order_gap > model.FIRST_ORDER_TOLERANCE
    assert (page.first_order, page.fo_slow, page.gap) == (Variant("out_of_range"), Variant("none"), "18.5 points")
    first = fleet_65k.first_order
    for number in (percent(first.goodput), format_duration(first.interval), percent(fleet_65k.slow_first_order.goodput)):
        assert not any(number in text for text in _strings(page)), number
    assert page.fo_interval == page.fo_goodput == page.fo_points == page.fo_dollars == answer.NOT_QUOTED


def test_a_fleet_gets_its_own_numbers_and_no_worked_ones(fleet: Params) -> None:
    """A one-tier 24,576-GPU fleet with no ranges: its own plan, single values for the ranges, no worked strings."""
    page = answer.build(fleet_plan(fleet))
    assert (page.cost, page.restart_text, page.mtbi, page.gpus, page.params_file) == ("40 s", "12 min", "153 min",
                                                                                "24,576", "fleet-24k.yml")
    assert page.ranges == Variant("none") and page.scheme == Variant("single")
    assert page.t_span == f"at {page.interval}" and page.g_span == f"at {page.goodput}"
    for worked_string in ("18.6 min", "87.6%", "19.3 min", "86.9%", "$3.8M", "16,384"):
        assert not any(worked_string in text for text in _strings(page)), worked_string


@pytest.mark.parametrize("changes", [
    {"rate_per_gpu_hour": None, "mtbi": "2 min"},
    {"slow_checkpoint_cost": "40 s"},
    {"rate_per_gpu_hour": None, "interruptions": {"count": 1, "window": "1 s"}, "restart": "5 min"},
])
def test_any_accepted_inputs_give_a_page_with_no_impossible_number(fleet_variant, changes) -> None:
    """Hostile but accepted inputs: the page builds, and no value is NaN, negative points or negative dollars."""
    page = answer.build(fleet_plan(fleet_variant("hostile.yml", **changes)))
    for text in _strings(page):
        tail = text.split(" point")[0][-6:].replace("e-", "e")  # a rate's exponent, "1.6e-5", is not a minus sign
        assert "nan" not in text.lower() and "-$" not in text and "-" not in tail, text
    assert points(0.0) == "0.0 points"


def test_the_calculator_link_carries_the_fleets_inputs(fleet_65k: FleetPlan) -> None:
    """The link the book layer gives is put in the page as an HTML attribute (its & escaped), unchanged otherwise."""
    from goodput.book.calculator import link

    url = link(fleet_65k.params)
    page = answer.build(fleet_65k, url)
    assert page.calculator_url == url.replace("&", "&amp;") and page.calculator == Variant("link")
    assert "persistent_cost=3+min" in page.calculator_url and "drain=4+min" in page.calculator_url


#: The tiered fleet with R as its parts (start-up 1 min + 8,192 nodes x 0.05 s) and a pool of 24 spare nodes.
FLEET_PARTS = {**FLEET_65K, "restart": {"detect": "1 min", "replace": "2 min", "startup": "1 min",
                                        "startup_per_node": "0.05 s", "warmup": "2 min"},
               "spares": {"nodes": 24, "repair": "24 h", "takes_node": 0.5}}


@pytest.mark.slow
def test_the_best_spare_count_and_r_as_its_parts_are_the_fleets() -> None:
    """R = 1 + 2 + 7.83 + 2 min + the 24 spares' wait, written part by part; the best count (the fleet's plan at each
    R(c)) and its dollars against none, and the part that matters most, quoted once for the answer, planning and
    restart pages alike."""
    from goodput.pages import planning, restart

    fleet = fleet_plan(params_from_mapping(FLEET_PARTS, source="fleet-65k-parts.yml"))
    p, choice, part = fleet.params, fleet.best_spares, fleet.largest_restart_part
    assert choice is not None and part is not None
    page, plan_page, chapter = answer.build(fleet), planning.build(fleet), restart.build(fleet)
    wait = p.spares.wait(p.mtbi) if p.spares is not None else 0.0
    assert math.isclose(p.restart, 1 + 2 + (1 + 8192 * 0.05 / 60) + 2 + wait, rel_tol=1e-12)
    assert page.restart_text == (f"{format_duration(p.restart)} = detection 1 min + replacement 2 min + start-up 7.83 min "
                            f"(1 min + 8,192 nodes × {format_duration(0.05 / 60)}) + warm-up 2 min + waiting for repairs "
                            f"{format_duration(wait)}") == plan_page.restart_text
    b = choice.best
    assert page.spares == Variant("given") and page.best_spares == f"{b} spare nodes" == chapter.best
    assert page.best_spares_goodput == percent(choice.goodput[b]) == chapter.best_goodput
    assert page.best_spares_dollars == money(choice.dollars[b]) == chapter.best_dollars
    assert choice.dollars[b] > 0 and choice.goodput[b] >= fleet.goodput
    # the pool held (24 nodes, not the best count): what the best count gains over it, net of the spares' own GPUs
    held_worth = fleet.dollars(fleet.goodput - choice.goodput[0]) - fleet.dollars(24 * fleet.params.gpus_per_node / fleet.params.gpus)
    assert b != 24 and (page.spares_held, page.spares_held_dollars) == (
        "24 spare nodes", money(max(0.0, choice.dollars[b] - held_worth)))
    two_tier = fleet.plan.tiers is not None and not fleet.plan.tiers.one_tier  # the part shortens R_p as well
    assert (page.restart_part, page.largest_part, page.largest_part_minutes) == (
        Variant("both_tiers" if two_tier else "given"), "start-up", "7.83 min")
    assert page.largest_part_points == points(part.gain) == chapter.largest_part_gain
    assert page.largest_part_dollars == money(fleet.dollars(part.gain)) == chapter.largest_part_dollars
    for key in ("spares", "best_spares", "best_spares_goodput", "best_spares_dollars", "spares_held", "restart_part",
                "largest_part", "largest_part_points", "largest_part_dollars"):
        assert getattr(page, key) == getattr(plan_page, key), key


def test_nothing_said_of_spares_or_parts_without_them(fleet_65k: FleetPlan) -> None:
    """R given whole, no pool: R is quoted as given and neither paragraph is shown."""
    from goodput.pages import planning

    for page in (answer.build(fleet_65k), planning.build(fleet_65k)):
        assert page.restart_text == "15 min"
        assert (page.spares, page.restart_part) == (Variant("none"), Variant("none"))
        assert page.best_spares == page.largest_part == "none"


def test_the_scheme_paragraph_drains_only_the_checkpoint_that_drains(book: Params, fleet_65k: FleetPlan) -> None:
    """Two tiers: the paragraph for a drain and a persistent tier is chosen, naming the plan's persistent cadence
    (n of the plan) for the drain; a drain alone: every checkpoint drains, and first order's scheme names the drain
    and no tier it does not have."""
    from goodput.book import variant_text

    tiered = answer.build(fleet_65k)
    assert fleet_65k.plan.tiers is not None and fleet_65k.plan.tiers.every == 4
    assert tiered.scheme == Variant("tiered") and tiered.persistent_which == "every 4th checkpoint"
    assert "persistent tier" in tiered.fo_model and "drain" in tiered.fo_model
    drained = answer.build(fleet_plan(book.replace(drain=5.0)))
    assert drained.scheme == Variant("drain") and drained.persistent_which == "none"
    assert "drain" in drained.fo_model and "tier" not in drained.fo_model
    assert "{" not in variant_text(tiered, "scheme")


def test_first_order_is_labelled_by_the_fleets_scheme(book: Params) -> None:
    """Young's formula only where C, M and R alone are the scheme; with 60% recovered just in time first order is
    √(2CM/(1−p)) = √(2 x 1 x 185.6 / 0.4) = 30.5 min, and the page says so."""
    plain = answer.build(fleet_plan(book))
    assert plain.fo_model == "Young's formula"
    jit = fleet_plan(book.replace(just_in_time=0.6, jit_recovery=0.75, planned_rate=0.03))
    page = answer.build(jit)
    assert page.fo_model != "Young's formula" and "√(2CM/(1−p))" in page.fo_model
    # p is named with its value (the answer page has not defined it), and the planned stops it counts only where q > 0.
    assert "p = 60%" in page.fo_model and "planned stops" in page.fo_model
    assert "planned stops" not in answer.build(fleet_plan(book.replace(just_in_time=0.6, jit_recovery=0.75))).fo_model
    assert math.isclose(jit.first_order.interval, math.sqrt(2 * 1.0 * book.mtbi / 0.4), rel_tol=1e-6)


#: fleet-jit.yml: C derived from a 9 TB checkpoint written synchronously at 200 GB/s achieved (no snapshot), the slow
#: checkpoint typed, 60% of interruptions recovered just in time, planned stops with notice.
FLEET_JIT = {"gpus": 98304, "gpus_per_node": 8, "interruptions": {"count": 610, "window": "30 days"},
             "checkpoint": {"size": "9 TB"},
             "storage": {"write_bandwidth": "400 GB/s", "read_bandwidth": "800 GB/s", "efficiency": 0.5, "price": 1500},
             "slow_checkpoint_cost": "12 min",
             "restart": {"detect": "1 min", "replace": "4 min", "startup": "2 min", "startup_per_node": "0.05 s",
                         "warmup": "3 min"},
             "just_in_time": {"share": 0.6, "recovery": "45 s"}, "planned": {"count": 20, "window": "30 days"},
             "price_per_gpu_hour": 2.2, "month": "730 h"}


@pytest.mark.slow
def test_a_checkpoint_written_synchronously_is_not_contrasted_with_a_synchronous_one(book: Params) -> None:
    """C = 9 TB / 200 GB/s = 45 s is itself the synchronous write: the 12 min checkpoint is only the slower one the
    file compares it with, on the answer, levers, scale, measuring and inputs pages; the worked example keeps its
    synchronous one."""
    from goodput.book import variant_text
    from goodput.book.data import published_fleets
    from goodput.pages import inputs, levers, measuring, scale

    records = published_fleets()

    params = params_from_mapping(FLEET_JIT, source="fleet-jit.yml")
    assert params.checkpoint_cost == pytest.approx(9e12 / 200e9 / 60) and params.checkpoint_is_write
    jit = fleet_plan(params)
    assert answer.build(jit).slow_kind == Variant("compared")
    jl = levers.build(jit)
    assert (jl.slow_compared, jl.slow_cost) == (Variant("given"), "12 min")
    assert variant_text(jl, "slow_compared").startswith("the slower checkpoint of 12 min")
    assert levers.build(jit).rederived == "the checkpoint's write and the load after an interruption"
    assert measuring.build(jit).slow_its == Variant("other")
    # Nor is either called "fast" or "slow", nor only the 12 min one "written synchronously", on any of the pages.
    ja, js = answer.build(jit), scale.build(jit)
    assert (ja.slow_pair, jl.scheme_worth, js.cost_pair, js.slow_named) == (
        Variant("write"), Variant("write"), Variant("slower"), Variant("given"))
    jit_words = [variant_text(ja, "slow_pair"), variant_text(jl, "scheme_worth"), variant_text(js, "cost_pair"),
                 variant_text(js, "slow_named"), variant_text(measuring.build(jit), "slow_its")]
    assert not any(w in t for t in jit_words for w in ("fast", "slow ", "synchronous"))
    assert (inputs.build(jit, records).sync_time, jit.params.checkpoint_cost) == (Variant("write"), pytest.approx(0.75))
    worked = fleet_plan(book)
    assert not book.checkpoint_is_write and answer.build(worked).slow_kind == Variant("write")
    assert measuring.build(worked).slow_its == Variant("write")
    assert scale.build(worked).slow_named == Variant("write")
    assert "synchronously" in variant_text(scale.build(worked), "slow_named")
    assert inputs.build(worked, records).sync_time == Variant("minutes")


def test_a_largest_loss_whose_lever_pays_less_says_why(book: Params) -> None:
    """M = 25 min, C = 6 min, R = 8 min: restart is the largest loss (27.4%) but halving R gains 5.8 points against
    9.4 for halving C: halving R cuts restart to 14.8% while lost work and overhead grow back (24.8% to 29.0%, 14.7% to
    17.2%). Checkpoint overhead is the smallest loss, so halving C is the 'second' lever, not where 'much' goodput is."""
    from goodput.pages import levers, measuring

    refused = fleet_plan(book.replace(mtbi=25.0, checkpoint_cost=6.0, slow_checkpoint_cost=12.0, restart=8.0,
                                      ranges={}))
    page = answer.build(refused)
    assert (page.largest_loss, page.largest_loss_share) == ("restart", "27.4%")
    assert (page.own_lever, page.own_points, page.better_lever, page.better_points, page.loss_after) == (
        "halve R", "5.8 points", "halve C", "9.4 points", "14.8%")
    assert (page.loss_lever, page.cost_lever) == (Variant("other"), Variant("second"))
    assert levers.build(refused).loss_lever == measuring.build(refused).loss_mistake == Variant("other")
    worked = answer.build(fleet_plan(book))
    assert (worked.loss_lever, worked.cost_lever, worked.own_lever) == (Variant("own"), Variant("top"), "none")


#: The story's fleet (tests/test_fleet_story.py): no storage inputs, a 3 min drain, every 5th checkpoint persistent.
STORY = Path(__file__).parent / "data" / "tiered-48k <img src=x onerror=alert(1)> & co.yml"


@pytest.mark.slow
def test_a_slow_checkpoint_far_from_the_storages_own_write_is_only_the_one_the_file_states(
        small_params: Params, book: Params) -> None:
    """The small fleet types slow_checkpoint_cost = 20 min while its storage writes the 182 GB checkpoint at 12 GB/s
    achieved in 15.2 s (its drain): 79 times that, so the 20 min one is not its synchronous write. The answer page says
    what the write takes (15.2 s) and leaves as the only checkpoint (97.4% at its own optimum, T* = 31.3 min for
    C = 15.2 s, M = 32.6 h, R = 19 min), and no page calls the 20 min one written synchronously. The worked example
    (no storage) keeps "write"; C itself the write (jit) keeps "compared"; the storage's own write typed within a
    factor of two of its time is still the write."""
    from goodput.book import figures, variant_text
    from goodput.pages import levers, measuring, scale

    p = small_params
    assert p.storage is not None and p.storage.write_minutes == pytest.approx(182e9 / 12e9 / 60)
    assert p.drain == pytest.approx(p.storage.write_minutes) and not p.slow_is_write and not p.checkpoint_is_write
    small = fleet_plan(p)
    page = answer.build(small)
    assert page.slow_kind == Variant("stated") and page.own_write == "15.2 s"
    write_alone = exact_goodput(p.storage.write_minutes, p.mtbi, p.restart)
    assert page.own_write_goodput == percent(write_alone) == "97.4%"
    assert format_duration(exact_optimal_interval(p.storage.write_minutes, p.mtbi)) == "31.3 min"
    sl = levers.build(small)
    assert sl.slow_compared == Variant("given") and variant_text(sl, "slow_compared").startswith("the slower checkpoint of ")
    assert measuring.build(small).slow_its == Variant("other") and scale.build(small).slow_named == Variant("given")
    assert "synchronously" not in variant_text(scale.build(small), "slow_named")
    labels = figures.fleet_cost(small).axes[0].get_legend_handles_labels()[1]
    assert "the inputs file's slower checkpoint" in labels and not any("synchronous" in t for t in labels), labels
    story_labels = figures.fleet_cost(fleet_plan(load_params(STORY))).axes[0].get_legend_handles_labels()[1]
    assert "this fleet's synchronous checkpoint" in story_labels
    # Typed within a factor of two of the storage's own write (15.2 s x 1.9), it is that write.
    near = p.replace(slow_checkpoint_cost=1.9 * p.storage.write_minutes)
    assert near.slow_is_write and answer.build(fleet_plan(near)).slow_kind == Variant("write")
    assert p.replace(slow_checkpoint_cost=2.1 * p.storage.write_minutes).slow_is_write is False
    assert book.slow_is_write and whatif.answer_whatif(fleet_plan(book)).own_write is None
    assert answer.build(fleet_plan(book)).own_write == "none"
    jit = params_from_mapping(FLEET_JIT, source="fleet-jit.yml")
    assert not jit.slow_is_write and answer.build(fleet_plan(jit)).slow_kind == Variant("compared")


@pytest.mark.slow
def test_a_drain_that_keeps_the_storage_busy_is_said_with_the_recommendation(small_params: Params, book: Params) -> None:
    """Small: a 15.2 s drain every 28.9 s of work runs through 53% of it (at least BUSY_DRAIN = 25%): the answer page
    gives the tiers page's contention what-if, 94.1%, 4.9 points below 99.0%. The story drains only its persistent
    checkpoint, every 5th of 6.67 min: 3 min in 33.4 min, 9%, not busy; nor are the worked example (no drain), the
    refused fleet and jit (one tier, no drain)."""
    from goodput.pages import tiers
    from goodput.plan import BUSY_DRAIN
    from goodput.whatif import contention_whatif

    small = fleet_plan(small_params)
    assert small.plan.tiers is not None
    assert small.plan.drain_share == pytest.approx(small.plan.tiers.drain / small.interval)
    assert small.plan.drain_share > 0.5 >= BUSY_DRAIN and small.plan.drain_busy
    page = answer.build(small)
    lim = contention_whatif(small)
    assert (page.drain_busy, page.drain_share, page.drained_every) == (Variant("busy"), "53%", "28.9 s")
    assert (page.busy_goodput, page.busy_points) == (percent(lim.goodput), points(lim.counted - lim.goodput))
    assert (page.busy_goodput, page.busy_points) == ("94.1%", "4.9 points")
    tiers_page = tiers.build(small)
    assert (tiers_page.lim_goodput, tiers_page.lim_points) == (page.busy_goodput, page.busy_points)
    story = fleet_plan(load_params(STORY))
    assert story.plan.tiers is not None and story.plan.tiers.every == 5
    assert story.plan.drain_share == pytest.approx(3.0 / (5 * story.interval)) and not story.plan.drain_busy
    assert answer.build(story).drain_busy == Variant("none")
    refused = params_from_mapping({"gpus": 131072, "mtbi": "25 min", "checkpoint_cost": "6 min",
                                   "slow_checkpoint_cost": "15 min", "restart": "8 min", "price_per_gpu_hour": 2.0,
                                   "month": "730 h"}, source="fleet-refused.yml")
    for quiet in (book, refused, params_from_mapping(FLEET_JIT, source="fleet-jit.yml")):
        fleet = fleet_plan(quiet)
        assert not fleet.plan.drain_busy and answer.build(fleet).drain_busy == Variant("none")
    # A drain just under a quarter of the interval is not busy.
    assert not plan_for(small_params.replace(drain=0.24 * small.interval), interval=small.interval).drain_busy


#: The stored fleet with C the stall measured beside its snapshot (6.3 s), longer than the 5.67 s synchronous write.
STALL = Path(__file__).resolve().parent / "data" / "fleet-stored-stall.yml"
#: The stall fleet beside a snapshot no faster than its storage, where the scheme does not pay.
NOT_PAYING = STALL.with_name("fleet-stall-slow-snapshot.yml")


def test_a_write_that_keeps_more_than_the_scheme_is_said_to_gain(book: Params) -> None:
    """Beside a snapshot no faster than its storage, the stall fleet's 6.2 s synchronous write keeps 73.1%, 0.21 points
    MORE than its 72.9% plan: the page says it gains, in points and dollars (FleetPlan.slow_gain), not "0.0 points
    less, worth $0", and calls it the shorter checkpoint; the worked example's 5 min write is still the slower one,
    11.1 points less."""
    fleet = fleet_plan(load_params(NOT_PAYING))
    page = answer.build(fleet)
    assert fleet.slow_keeps_more and fleet.slow_points == 0.0
    assert (page.goodput, page.slow_goodput, page.slow_cost) == ("72.9%", "73.1%", "6.2 s")
    assert (page.slow_verdict, page.slow_word) == (Variant("more"), "shorter")
    assert page.slow_kind == Variant("derived_more")  # not "the fleet does not take one"
    assert page.slow_gain == gain_text(fleet.slow.goodput - fleet.goodput) == "0.21 points"  # as `goodput plan` says
    assert page.not_paying == planning.build(fleet).not_paying == Variant("loses")
    assert page.slow_gain_dollars == money(fleet.dollars(fleet.slow.goodput - fleet.goodput)) != "$0"
    worked = answer.build(fleet_plan(book))
    assert (worked.slow_verdict, worked.slow_word, worked.slow_points) == (Variant("less"), "slower", "11.1 points")
    assert worked.slow_gain == "0.0 points" and worked.not_paying == Variant("pays")


def test_a_slow_checkpoint_as_long_as_c_is_neither_slower_nor_shorter(book: Params) -> None:
    """A fleet whose checkpoint is its synchronous write types it twice (slow = C = 1 min): one decision
    (Params.slow_against_c) makes the answer page call it "equally long" with the same goodput, the inputs page's
    paths "same", and the tiers page count it as not dearer; it was "a slower checkpoint ... 0.0 points less", then
    "leaves 87.6% ...: the same as this fleet's plan". Now it compares nothing (FleetPlan.slow_is_own)."""
    from goodput.pages import measuring, scale

    same = book.replace(slow_checkpoint_cost=book.checkpoint_cost)
    fleet = fleet_plan(same)
    page = answer.build(fleet)
    assert same.slow_against_c == "same" and same.slow_not_dearer and fleet.slow_is_own
    assert (page.slow_line, page.fo_slow) == (Variant("own_typed"), Variant("alone"))
    assert measuring.build(fleet).slow_against == Variant("own_typed")
    assert (scale.build(fleet).own_slow, scale.build(fleet).slow_with) == (Variant("alone"), Variant("own"))
    assert answer.compared_name(same) == "slow checkpoint"
    slower = book.replace(slow_checkpoint_cost=book.checkpoint_cost * 1.02)
    assert (slower.slow_against_c, answer.build(fleet_plan(slower)).slow_word) == ("longer", "slower")


def test_the_recommendation_says_which_interruptions_do_not_roll_back(book: Params) -> None:
    """A fleet recovering 20% of interruptions just in time (30 s each), with 21 planned stops in 30 days: the
    recommendation's scheme says so beside the drain or tier it has, as the goodput page does; the worked example,
    whose every interruption rolls back, says nothing more. The recommendation named only the drain."""
    recovered = book.replace(just_in_time=0.2, jit_recovery=0.5, planned_rate=21 / (30 * 24), planned_count=21,
                             planned_window=30 * 24 * 60.0)
    page = answer.build(fleet_plan(recovered))
    assert (page.scheme_recovery, page.recovery) == (Variant("given"), Variant("both"))
    assert (page.jit_share, page.jit_time) == ("20%", "30 s") and page.planned_rate.startswith("21 in 30 days")
    worked = answer.build(fleet_plan(book))
    assert (worked.scheme_recovery, worked.recovery) == (Variant("none"), Variant("none"))


def test_a_scheme_whose_own_checkpoint_is_cheaper_and_still_loses_says_where(book: Params) -> None:
    """128 GPUs, C = 8.8 s against a 43.9 s synchronous write, a drain of 10 min and 28 planned stops a month: the
    write keeps 98.7% against the scheme's 98.4%. The page said the scheme pays only once C "comes down below the
    synchronous write's 43.9 s", which it already is; it now says the loss is in the rest of the scheme. The stall
    beside a slow snapshot (C = 6.3 s measured, above its 6.2 s write) keeps the stall's words."""
    small = params_from_mapping({
        "gpus": 128, "gpus_per_node": 8, "rate_per_gpu_hour": 1e-5, "checkpoint_cost": "8.8 s",
        "slow_checkpoint_cost": "43.9 s", "price_per_gpu_hour": 1.5, "month": "730 h",
        "restart": {"detect": "1.08 min", "replace": "4.33 min", "startup": "3.25 min", "startup_per_node": "0.2 s",
                    "warmup": "2.17 min"},
        "spares": {"nodes": 1, "repair": "8 h", "takes_node": 0.6}, "drain": "10 min",
        "planned": {"count": 28, "window": "30 days"}})
    fleet = fleet_plan(small)
    assert fleet.slow_keeps_more and (percent(fleet.goodput), percent(fleet.slow.goodput)) == ("98.4%", "98.7%")
    assert answer.build(fleet).not_paying == planning.build(fleet).not_paying == Variant("loses_elsewhere")
    assert answer.build(fleet_plan(load_params(NOT_PAYING))).not_paying == Variant("loses")


def test_where_every_checkpoint_is_persistent_its_cost_is_c_p_s() -> None:
    """s = 0.1: every checkpoint goes to the persistent tier (n = 1), so the stall that counts is C_p's: the page's
    checkpoint lever is halving C_p (second of all levers), where it said 'Making the checkpoint cheaper matters less
    here: halving the checkpoint cost C gains 0.0 points' beside C_p's 4.1 points."""
    fleet = fleet_plan(params_from_mapping({
        "gpus": 16384, "rate_per_gpu_hour": 2.5e-5, "checkpoint_cost": "1 min", "slow_checkpoint_cost": "3 min",
        "restart": "6 min", "drain": "2 min", "persistent": {"cost": "2 min", "restart": "9 min"}, "fast_survives": 0.1,
        "price_per_gpu_hour": 3.0, "month": "730 h"}, source="x.yml"))
    page = answer.build(fleet)
    assert fleet.plan.tiers is not None and fleet.plan.tiers.every == 1
    assert page.cost_lever_words == "halving the persistent checkpoint's cost C_p"
    assert page.halve_c_points == gain_text(fleet.levers["halve C_p"]) and page.cost_lever != Variant("minor")


@pytest.mark.parametrize("name", ["fleet-stored.yml", "fleet-small-tiered.yml", "fleet-stored-stall.yml"])
def test_lever_gains_in_prose_read_as_the_levers_table_writes_them(name: str) -> None:
    """The answer page's checkpoint lever and the failures page's largest lever read as the levers table writes them
    (halving C: '0.076 points' in both, where the answer page wrote '0.1 points')."""
    from goodput.book.tables import plan_levers_table
    from goodput.pages import failures

    fleet = fleet_plan(load_params(Path(__file__).parent / "data" / name))
    table = dict(zip(plan_levers_table(fleet)["lever"], plan_levers_table(fleet)["goodput gained"], strict=True))
    cost = max((n for n in whatif.LOSS_LEVERS["checkpoint_overhead"] if n in fleet.levers), key=fleet.levers.get)
    assert "+" + answer.build(fleet).halve_c_points == table[cost]
    assert "+" + failures.build(fleet).largest_lever_gain == table[fleet.levers_ranked[0][0]]


def test_a_pool_that_gains_more_than_the_top_lever_says_so() -> None:
    """32,768 GPUs holding 12 spares where 27 pay best: growing the pool gains 19.5 points, more than halving the
    failure rate (18.5), the top lever of a table that does not list spares; the page says so. The stored fleet's
    pool gains less than its top lever and the page adds nothing."""
    fleet = fleet_plan(params_from_mapping({
        "gpus": 32768, "rate_per_gpu_hour": 2.75e-05, "checkpoint": {"parameters": 180e9}, "gpus_per_node": 8,
        "storage": {"write_bandwidth": "800 GB/s", "read_bandwidth": "1.6 TB/s", "efficiency": 0.35, "price": 2500},
        "snapshot": {"bandwidth": "30 GB/s", "host_memory": "1.5 TB", "double_buffered": True},
        "restart": {"detect": "1 min", "replace": "5 min", "startup": "3 min", "startup_per_node": "0.1 s",
                    "warmup": "2 min"},
        "spares": {"nodes": 12, "repair": "24 h", "takes_node": 0.65}, "planned": {"count": 8, "window": "20 days"},
        "price_per_gpu_hour": 2.81, "month": "730 h"}, source="x.yml"))
    page = answer.build(fleet)
    choice = fleet.best_spares
    assert choice is not None and choice.best > 12
    gain = choice.goodput[choice.best] - fleet.goodput
    assert gain > fleet.levers_ranked[0][1]
    assert (page.spares_rank, page.spares_rank_gain) == (Variant("beats"), gain_text(gain))
    stored = answer.build(fleet_plan(load_params(Path(__file__).parent / "data" / "fleet-stored.yml")))
    assert stored.spares_rank == Variant("none")


def test_a_restart_part_beside_two_tiers_says_it_shortens_r_p_too() -> None:
    """Two tiers (every checkpoint persistent), a 25 min replacement and a long wait for repairs, the largest part of
    R: halving the replacement gains more than halving R, because it shortens R_p as well; the page says why, as it
    does where a listed part is the largest."""
    fleet = fleet_plan(params_from_mapping({
        "gpus": 98304, "rate_per_gpu_hour": 2.41e-05, "checkpoint_cost": "5 s", "slow_checkpoint_cost": "12 min",
        "persistent": {"cost": "90 s", "restart": "50 min", "every": 1}, "fast_survives": 0.6,
        "restart": {"detect": "1 min", "replace": "25 min", "startup": "4 min", "startup_per_node": "0.05 s",
                    "load": "6 min", "warmup": "3 min"},
        "spares": {"nodes": 16, "repair": "48 h", "takes_node": 0.75}, "price_per_gpu_hour": 3.71, "month": "730 h"},
        source="x.yml"))
    part = fleet.largest_restart_part
    assert fleet.repair_wait_largest and part is not None and part.gain > fleet.levers["halve R"]
    assert answer.build(fleet).restart_part == planning.build(fleet).restart_part == Variant("wait_both_tiers")


def test_checkpoints_of_different_lengths_that_keep_alike_are_not_said_to_stall_alike() -> None:
    """A fleet that keeps next to nothing (one spare, 72 h repairs): its 30 s checkpoint and the 5 min write both keep
    0.0% to the tenth of a point, 'the same', but they do not 'stall alike' (variant 'level', not 'same')."""
    fleet = fleet_plan(params_from_mapping({
        "gpus": 8192, "rate_per_gpu_hour": 5.69e-05, "checkpoint_cost": "30 s", "slow_checkpoint_cost": "5 min",
        "restart": {"detect": "3 min", "replace": "45 min", "startup": "5 min", "load": "5 min", "warmup": "4 min"},
        "spares": {"nodes": 1, "repair": "72 h", "takes_node": 0.9}, "planned": {"rate": "0.01 per hour"},
        "price_per_gpu_hour": 2.34, "month": "730 h"}, source="x.yml"))
    assert fleet.params.slow_against_c == "longer" and points(fleet.slow_points) == points(0.0)
    assert answer.build(fleet).slow_verdict == Variant("level")


def test_first_order_s_comparison_says_which_side_keeps_more() -> None:
    """16,384 GPUs, C 2 min drained 6 min beside a persistent tier (2.5 min, R_p 24 min, s = 0.2) and a 150 s write: by
    first order the scheme keeps 75.9% and the write 76.2%. The page said "0.0 points less by first order, worth $0"
    (the gain clamped at zero); it now says the write keeps 0.3 points more."""
    fleet = fleet_plan(params_from_mapping({
        "gpus": 16384, "rate_per_gpu_hour": 2.0e-5, "checkpoint_cost": "2 min", "slow_checkpoint_cost": "150 s",
        "restart": "4 min", "persistent": {"cost": "2.5 min", "restart": "24 min"}, "drain": "6 min",
        "fast_survives": 0.2, "just_in_time": {"share": 0.3, "recovery": "1 min"},
        "planned": {"count": 10, "window": "30 days"}, "price_per_gpu_hour": 2.5, "month": "720 h"}, source="f05.yml"))
    page = answer.build(fleet)
    assert fleet.first_order.goodput < fleet.slow_first_order.goodput
    assert (page.fo_side, page.fo_points) == (Variant("more"), "0.3 points")
    assert answer.build(fleet_plan(load_params())).fo_side == Variant("less")


@pytest.mark.slow
def test_a_checkpoint_that_is_the_synchronous_write_is_not_compared_with_itself() -> None:
    """C derived from the storage (no snapshot, no slow checkpoint given): the write the book derives for comparison
    is the fleet's own checkpoint. The answer page says so (it had said "the fleet does not take one"), the levers
    page prices nothing against it (it had read "0.0 points less ... $0 a month") and the scale page lists its
    limits once, of two costs (it had printed the same bullet twice, of "three checkpoint costs")."""
    from goodput.pages import levers, scale

    fleet = fleet_plan(params_from_mapping({
        "gpus": 131072, "rate_per_gpu_hour": 1.2e-5, "checkpoint": {"parameters": 1.8e12},
        "storage": {"write_bandwidth": "1 TB/s", "efficiency": 0.6},
        "restart": "11 min", "price_per_gpu_hour": 2.2, "month": "730 h"}, source="own-write.yml"))
    p = fleet.params
    assert p.checkpoint_is_write and p.slow_derived and p.slow_against_c == "same"
    assert fleet.slow.goodput == pytest.approx(fleet.goodput)
    assert fleet.slow_is_own and answer.build(fleet).slow_line == Variant("own_derived")
    assert levers.build(fleet).cost_verdict == Variant("same")
    # nor do the goodput, failures and uncertainty pages, the loss figure's bars or the interval figure's curves
    from goodput.book.figures import breakdown_cases
    from goodput.pages import failures, goodput, uncertainty

    assert (goodput.build(fleet).slow, goodput.build(fleet).breakdown_pair) == (Variant("own"), Variant("own"))
    assert failures.build(fleet).early_slow == uncertainty.build(fleet).slow_range == Variant("own")
    assert levers.build(fleet).interval_pair == Variant("own")
    assert {case.split(",")[0] for case in breakdown_cases(fleet)} == {f"C = {format_duration(p.checkpoint_cost)}"}
    page = scale.build(fleet)
    assert (page.own_limits, page.cost_pair, page.cost_count) == (Variant("same"), Variant("same"), "two")
    worked = fleet_plan(load_params())
    assert (answer.build(worked).slow_kind, levers.build(worked).cost_verdict) == (Variant("write"), Variant("slower"))
    assert not worked.slow_is_own and answer.build(worked).slow_line == Variant("compare")
    assert scale.build(worked).own_limits == Variant("two")


def test_the_cheaper_checkpoint_quoted_is_the_largest_of_its_levers() -> None:
    """The tiered 48k fleet: draining the persistent write as well (its stall C_p falls to C) gains more than halving
    C_p or C, and is the lever "making the checkpoint cheaper" quotes; it had quoted halving C_p beside it."""
    fleet = fleet_plan(load_params(Path(__file__).parent / "data" / "tiered-48k <img src=x onerror=alert(1)> & co.yml"))
    drained = fleet.levers["drain the persistent write as well"]
    assert drained > max(fleet.levers["halve C_p"], fleet.levers["halve C"])
    page = answer.build(fleet)
    assert page.halve_c_points == gain_text(drained) and page.cost_lever == Variant("minor")


def test_the_cheaper_checkpoint_that_pays_is_named() -> None:
    """A tiered fleet whose checkpoint lever is draining the persistent write (10.5 points) while halving C gains 1.3:
    the page said "the checkpoint cost is where much of this fleet's goodput is", sending a planner to the fast
    checkpoint; it names the persistent checkpoint's stall."""
    from goodput.pages.common import COST_LEVER_WHAT

    fleet = fleet_plan(load_params(Path(__file__).parent / "data" / "fleet-planned-tiered.yml"))
    page = answer.build(fleet)
    assert fleet.levers["drain the persistent write as well"] > 5 * fleet.levers["halve C"]
    assert page.cost_lever == Variant("top")
    assert page.cost_lever_what == COST_LEVER_WHAT["drain the persistent write as well"] != COST_LEVER_WHAT["halve C"]


def test_where_every_checkpoint_is_persistent_its_stall_is_c_p() -> None:
    """A 28k fleet whose best cadence is every checkpoint persistent (n = 1), at C_p = 2.5 min like the synchronous
    write: "the scheme's own checkpoint of 2 min already stalls less than that write" was false, no 2 min checkpoint
    being taken; the page judges the stall the scheme takes."""
    fleet = fleet_plan(params_from_mapping({
        "gpus": 28672, "interruptions": {"count": 60, "window": "14 days"}, "checkpoint_cost": "2 min",
        "slow_checkpoint_cost": "2.5 min", "restart": "6 min", "drain": "10 min",
        "persistent": {"cost": "2.5 min", "restart": "8 min"}, "fast_survives": 0.3,
        "price_per_gpu_hour": 2.5, "month": "730 h"}))
    page = answer.build(fleet)
    assert fleet.plan.tiers is not None and fleet.plan.tiers.every == 1 and fleet.slow_keeps_more
    assert (page.not_paying, page.scheme_stall) == (Variant("loses"), "2 min 30 s")
