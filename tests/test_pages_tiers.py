"""The chapter "Checkpoints that are not yet safe" (goodput.pages.tiers): which interruptions take a node's local copy,
what a drain does to the brief's worked example, when a fast tier pays, and the section on the fleet the book is built
for, with the worked example and with fleets unlike it (one with tier keys, one without, one with a drain alone)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from numpy.testing import assert_allclose

from goodput import exact, sources
from goodput.pages import tiers as page
from goodput.params import Params, load_params, params_from_mapping, read_yaml
from goodput.plan import headline, plan_for
from goodput.report import money, percent, points
from goodput.tiers import Tiers, best_every, exact_goodput, exact_optimal_interval, fast_tier_pays_from
from goodput.units import format_duration

ROOT = Path(__file__).resolve().parent.parent
#: Table 5 counts of the components that lose the local copy: every GPU and Host component and unplanned host
#: maintenance; software bugs, dependencies, network switches and cables and NCCL timeouts leave it.
LOST = 148 + 72 + 19 + 17 + 6 + 6 + 32 + 7 + 3 + 3 + 2 + 2 + 2 + 2
#: The fleet unlike the worked example, with tier keys (examples/fleet-24k.yml).
FLEET_24K = ROOT / "examples" / "fleet-24k.yml"


@pytest.fixture(scope="module")
def tiered() -> Params:
    """24,576 GPUs at 1.6e-5 per GPU-hour (M = 152.6 min), C = 40 s, R = 12 min, a 4-minute persistent tier restarting
    in 15 min and durable 6 min later, fast tier surviving 70%, $2.1 a GPU-hour."""
    return load_params(FLEET_24K)


def _fleet(**changes: object) -> Params:
    """examples/fleet-24k.yml with some keys changed (None removes a key)."""
    data = read_yaml(FLEET_24K.read_text(encoding="utf-8"), "fleet-24k.yml")
    assert isinstance(data, dict)
    data.update(changes)
    return params_from_mapping({k: v for k, v in data.items() if v is not None}, source="test.yml")


# --------------------------------------------------------------------------- the categorization


def test_every_root_cause_is_decided_with_a_reason() -> None:
    """Each of Table 5's 18 components is decided (loses the local copy or not), with a reason, and nothing else is."""
    components = {c for c, _, _ in sources.LLAMA3_ROOT_CAUSES}
    assert set(page.LOSES_LOCAL_COPY) == components
    assert all(isinstance(v, bool) and len(why) > 10 for v, why in page.LOSES_LOCAL_COPY.values())


def test_the_share_that_takes_the_node_is_computed_from_the_counts() -> None:
    """q = (GPU + Host + unplanned host maintenance) / 419 = 321/419 = 76.6%, and s = 1 - q = 98/419."""
    assert_allclose(page.lost_share(), LOST / 419, rtol=1e-15)
    assert LOST == 321
    by_category = {g for c, g, _ in sources.LLAMA3_ROOT_CAUSES if page.LOSES_LOCAL_COPY[c][0]}
    assert by_category == {"GPU", "Host", "Unplanned maintenance"}
    words = page.categorization()
    assert (words["lost_count"], words["kept_count"], words["lost_share"], words["kept_share"]) == (
        "321", "98", "76.6%", "23.4%")


def test_the_two_judgment_calls_move_the_share() -> None:
    """Counting network switches and cables as losing the copy gives (321 + 35)/419 = 85.0%; counting no GPU failure
    as losing it (a drain that outlives the training process) gives (321 - 268)/419 = 12.6%."""
    words = page.categorization()
    assert words["with_network_share"] == percent((321 + 35) / 419) == "85.0%"
    assert words["without_gpu_share"] == percent((321 - 268) / 419) == "12.6%"
    assert words["gpu_count"] == "268"


def test_the_root_cause_table_sums_to_the_snapshot() -> None:
    """The table has Table 5's 18 rows, largest first, counts summing to 419 and the "yes" rows to 321."""
    table = page.root_cause_table()
    assert len(table) == 18 and table["count"].sum() == 419
    assert table["count"].is_monotonic_decreasing
    assert table.loc[table["loses the copy"] == "yes", "count"].sum() == LOST
    assert_allclose(table["share"].sum(), 1.0)


# --------------------------------------------------------------------------- the worked example


def test_the_worked_example_reproduces_the_brief() -> None:
    """Without the drain the page shows the brief's first-order 19.3 min, 86.9%, 74.1%, 12.8 points and $3.8M, and the
    exact model's 18.6 min and 87.6%."""
    w = page.worked_example()
    assert (w["wx_fo_interval"], w["wx_fo_goodput"], w["wx_fo_slow_goodput"]) == ("19.3 min", "86.9%", "74.1%")
    assert (w["wx_fo_points"], w["wx_fo_capacity"]) == ("12.8 points", "$3.8M")
    assert (w["wx_ex_interval"], w["wx_ex_goodput"]) == ("18.6 min", "87.6%")
    assert (w["wx_cost"], w["wx_drain"], w["wx_mtbi"]) == ("1 min", "5 min", "186 min")


def test_the_drain_costs_q_d_over_m_to_first_order() -> None:
    """First order: the drain adds (1 - s) D/M = q D/M to the loss, q = 321/419, D = 5 min, M = 77,760/419 min:
    86.9% - 2.1 = 84.9%; the 12.8 points over the synchronous write become 10.8 ($3.2M); D/M alone is 2.7 points."""
    w, wp = page.worked_example(), load_params()
    q, d, m = LOST / 419, page.WORKED_DRAIN, wp.mtbi
    fo = headline(wp, "first-order")
    assert w["wx_fo_drain"] == points(q * d / m) == "2.1 points"
    assert w["wx_fo_drain_all"] == points(d / m) == "2.7 points"
    assert w["wx_fo_goodput_drained"] == percent(fo["goodput"] - q * d / m) == "84.9%"
    assert w["wx_fo_points_drained"] == points(fo["points"] - q * d / m) == "10.8 points"
    dollars = (fo["points"] - q * d / m) * wp.gpus * wp.price_per_gpu_hour * wp.month / 60
    assert w["wx_fo_capacity_drained"] == money(dollars) == "$3.2M"


def test_a_drain_that_every_interruption_breaks_multiplies_exact_goodput_by_e_to_the_minus_d_over_m() -> None:
    """s = 0: exact goodput is G0 e^{-D/M}, a cost of G0 (1 - e^{-D/M}) = 2.3 points on 87.6%."""
    w, wp = page.worked_example(), load_params()
    g0 = float(exact.exact_goodput(wp.checkpoint_cost, wp.mtbi, wp.restart))
    assert w["wx_ex_drain_factor"] == f"{math.exp(-page.WORKED_DRAIN / wp.mtbi):.4f}"
    assert w["wx_ex_drain_all"] == points(g0 * -math.expm1(-page.WORKED_DRAIN / wp.mtbi)) == "2.3 points"
    assert w["wx_ex_drain_all_goodput"] == percent(g0 * math.exp(-page.WORKED_DRAIN / wp.mtbi))


def test_the_exact_drained_numbers_and_the_unmoved_interval() -> None:
    """Exact, node-taking share: 87.6% becomes 85.8%, the 11.1 points over the synchronous write 9.3 points ($2.7M);
    the exact optimum moves by less than a second (the drain is a T-independent factor to first order)."""
    w, wp = page.worked_example(), load_params()
    scheme = page.local_first(wp.checkpoint_cost, wp.restart, page.WORKED_DRAIN, 1 - LOST / 419)
    t = exact_optimal_interval(scheme, wp.mtbi)
    g = exact_goodput(scheme, wp.mtbi, t)
    assert w["wx_ex_goodput_drained"] == percent(g) == "85.8%"
    assert (w["wx_ex_points"], w["wx_ex_points_drained"], w["wx_ex_capacity_drained"]) == ("11.1 points", "9.3 points",
                                                                                             "$2.7M")
    assert abs(t - exact.exact_optimal_interval(wp.checkpoint_cost, wp.mtbi)) * 60 < 1.0
    assert w["wx_ex_interval_shift"] == "less than a second"


def test_local_first_is_every_checkpoint_drained_at_the_fast_cost() -> None:
    """A local-first path is n = 1 with C_p = C and R_p = R, the drain D and s; s = 0 is one tier with a drain."""
    t = page.local_first(1.0, 5.0, 5.0, 0.25)
    assert (t.every, t.cp, t.rp, t.drain, t.fast_survives) == (1, 1.0, 5.0, 5.0, 0.25)
    assert page.local_first(1.0, 5.0, 5.0, 0.0).one_tier


def test_the_worked_schemes_table() -> None:
    """Six schemes; the safe-at-once row is the single-level exact model, the s = 0 row G0 e^{-D/M}, and the
    synchronous write has no difference to itself."""
    wp = load_params()
    table = page.worked_schemes()
    assert len(table) == 6
    g0 = float(exact.exact_goodput(wp.checkpoint_cost, wp.mtbi, wp.restart))
    assert table.loc[0, "goodput, exact"] == percent(g0)
    assert table.loc[1, "goodput, exact"] == percent(g0 * math.exp(-page.WORKED_DRAIN / wp.mtbi))
    assert table.loc[5, "above the sync write"] == "-"
    assert table.loc[0, "above the sync write"] == "11.1 points"
    assert list(table["n"]) == ["-", "1", "1", "1", "9", "-"]


def test_a_copy_on_the_node_alone_does_not_pay_a_copy_on_a_peer_does() -> None:
    """Fast host-memory copy beside the 5-minute synchronous write (C_p/C = 5): it pays from s of about 35%
    (first order: n* = 1.5 at s/(1 - s) = 2.25 C/(C_p - C), s = 36%); at s = 23.4% the best n is 1; at 95%, n* =
    sqrt(0.95 x 4 / 0.05) = 8.7 and the fast interval sqrt(2CM/s) = 19.8 min."""
    f, wp = page.fast_tier(), load_params()
    assert f["ft_local_n"] == "1" and f["ft_local_verdict"].startswith("does not pay")
    threshold = fast_tier_pays_from(Tiers(1.0, 5.0, 0.0, 5.0, 5.0, 0.95), wp.mtbi)
    assert threshold is not None and f["ft_threshold"] == percent(threshold, 0) == "35%"
    assert f["ft_peer_n"] == str(best_every(Tiers(1.0, 5.0, 0.0, 5.0, 5.0, 0.95), wp.mtbi).every) == "9"
    assert f["ft_peer_n_first_order"] == f"{math.sqrt(0.95 * 4 / 0.05):.1f}" == "8.7"
    assert f["ft_peer_interval_first_order"] == format_duration(math.sqrt(2 * wp.mtbi / 0.95))
    assert f["ft_sync_goodput"] == "76.5%"


def test_a_peer_copy_leaves_a_drain_cost_of_one_minus_s_d_over_m() -> None:
    """With s = 95% the drain's first-order cost is 0.05 x 5/M = 0.1 points."""
    p = page.peers()
    assert p["peer_drain_first_order"] == points(0.05 * page.WORKED_DRAIN / load_params().mtbi) == "0.1 points"


def test_storage_contention_acts_as_a_dearer_checkpoint() -> None:
    """A 10% slowdown during the 5-minute drain costs 30 s of work per checkpoint: C = 1 min 30 s."""
    lim = page.limits()
    assert (lim["lim_extra"], lim["lim_cost"]) == ("30 s", "1 min 30 s")


def test_the_derivation_blocks_are_latex() -> None:
    """Each block is an aligned environment; C_p - C is written so, and (n - 1)C + C_p is not rewritten."""
    for block in (page.derivation_interval(), page.derivation_cadence(), page.derivation_reductions()):
        assert block.startswith(r"\begin{aligned}") and block.endswith(r"\end{aligned}")
    assert "C_{p} - C" in page.derivation_cadence()
    assert "C n - C + C_{p}" in page.derivation_interval()


# --------------------------------------------------------------------------- the fleet


def test_the_worked_example_build_says_the_numbers_above_are_the_fleets() -> None:
    """Built from the worked example, the fleet section points to the numbers above."""
    assert page.same_as_worked_example(load_params())
    assert page.same_as_worked_example(load_params(ROOT / "book" / "params.yml"))
    assert "the numbers above are this fleet's" in page.fleet(load_params())


def test_a_tiered_fleet_gets_its_own_plan(tiered: Params) -> None:
    """The 24k fleet: M = 60/(1.6e-5 x 24,576) = 152.6 min; its tiers at the exact best n (3) and interval; the fast tier
    pays (n = 1 is worse); the drain costs the difference to a persistent checkpoint durable at once, (1 - s) D/M to
    first order; the text uses the fleet's numbers and none of the worked example's."""
    assert not page.same_as_worked_example(tiered)
    assert_allclose(tiered.mtbi, 60 / (1.6e-5 * 24576))
    t = page.fleet_tiers(tiered)
    assert t == Tiers(40 / 60, 12.0, 6.0, 4.0, 15.0, 0.7, 1)
    n = page.fleet_numbers(tiered)
    assert n is not None
    best = best_every(t, tiered.mtbi)
    assert n.plan.scheme.every == best.every == 3
    t_best = exact_optimal_interval(best, tiered.mtbi)
    assert_allclose(n.plan.exact.goodput, exact_goodput(best, tiered.mtbi, t_best), rtol=1e-12)
    recommended = plan_for(tiered)
    assert (n.plan.exact.goodput, n.plan.exact.interval) == (recommended.goodput, recommended.interval)
    assert n.all_persistent is not None and n.all_persistent < n.plan.exact.goodput
    assert n.without_drain > n.plan.exact.goodput
    assert_allclose(n.safe, exact.exact_goodput(40 / 60, tiered.mtbi, 12.0))
    text = page.fleet(tiered)
    assert "every 3rd checkpoint persistent" in text and percent(n.plan.exact.goodput) in text
    assert "survives 70% of interruptions" in text
    assert page.inputs_snippet(tiered).startswith("The numbers above come from") and "```" not in page.inputs_snippet(tiered)
    assert "The fast tier pays" in text
    assert f"(1 - s) D/M = {points(0.3 * 6.0 / tiered.mtbi)}" in text
    assert "24,576 GPUs" in text
    for worked in ("16,384", "86.9%", "12.8 points"):  # (its own capacity happens to round to $3.8M too)
        assert worked not in text


def test_a_fleet_that_fixes_its_cadence_keeps_it(tiered: Params) -> None:
    """With every: 1 in the file the plan keeps n = 1 and says the fast tier does not pay."""
    fixed = _fleet(persistent={"cost": "4 min", "restart": "15 min", "every": "1"})
    n = page.fleet_numbers(fixed)
    assert n is not None and n.every_given and n.plan.scheme.every == 1
    assert "does not pay" in page.fleet(fixed)


def test_a_drain_alone_costs_e_to_the_minus_d_over_m(tiered: Params) -> None:
    """A drain without a persistent tier: goodput G0 e^{-D/M}; the text gives D/M to first order."""
    alone = _fleet(persistent=None, fast_survives=None)
    n = page.fleet_numbers(alone)
    assert n is not None and n.plan.scheme.one_tier
    assert_allclose(n.plan.exact.goodput, n.safe * math.exp(-6.0 / alone.mtbi), rtol=1e-9)
    assert f"D/M = {points(6.0 / alone.mtbi)}" in page.fleet(alone)


def test_a_fleet_without_tier_keys_gets_a_labelled_illustration() -> None:
    """fleet-32k.yml has no tier keys: the section says so, labels the 5-minute drain at Llama 3's share as an
    illustration, and computes it from the fleet's own C, R and M."""
    p = load_params(ROOT / "examples" / "fleet-32k.yml")
    assert page.fleet_numbers(p) is None
    text = page.fleet(p)
    assert "As an illustration, not a measurement of this fleet" in text
    safe = float(exact.exact_goodput(p.checkpoint_cost, p.mtbi, p.restart))
    scheme = page.local_first(p.checkpoint_cost, p.restart, page.WORKED_DRAIN, 1 - LOST / 419)
    g = exact_goodput(scheme, p.mtbi, exact_optimal_interval(scheme, p.mtbi))
    assert f"from {percent(safe)} to {percent(g)}" in text
    assert "32,768 GPUs" in text and "16,384" not in text


def test_the_figure_marks_the_fleet(tiered: Params) -> None:
    """The figure draws the fleet's own C_p/C (6) among the ratios and marks s = 0.7; without a persistent tier it uses
    the slow checkpoint as the persistent one and marks Llama 3's share and the assumed peer share."""
    f = page.survival_figure(tiered)
    assert 6.0 in f["ratios"] and list(f["marks"].values()) == [(6.0, 0.7)]
    assert (f["persistent_restart"], f["drain"]) == (15.0, 6.0)
    w = page.survival_figure(load_params())
    assert 5.0 in w["ratios"] and [s for _, s in w["marks"].values()] == [1 - LOST / 419, page.PEER_SURVIVES]


def test_the_inputs_snippet_describes_the_local_first_path() -> None:
    """The YAML the page shows, added to the worked example's inputs, is the local-first scheme: n = 1, C_p = C,
    D = 5 min, s = 1 - q to three decimals."""
    snippet = page.inputs_snippet(load_params()).split("```yaml\n", 1)[1].rsplit("```", 1)[0]
    text = (ROOT / "goodput" / "worked_example.yml").read_text(encoding="utf-8") + snippet
    p = params_from_mapping(read_yaml(text, "snippet"), source="snippet")
    assert page.fleet_tiers(p) == page.local_first(1.0, 5.0, 5.0, round(1 - LOST / 419, 3))
