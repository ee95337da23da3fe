"""The chapter "When failures are not independent" (``book/failures.md``): its values, formatted once.

The numbers are :func:`goodput.whatif.failures_whatif`'s: :mod:`goodput.hazards`' (one checkpoint tier, seeded
simulations, each with its standard error) and the fleet's plan's (the whole scheme: the largest lever, elastic training).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from goodput import hazards
from goodput.fleet import FleetPlan
from goodput.pages import Variant
from goodput.pages.common import (
    MATERIAL,
    NOT_QUOTED,
    ElasticValues,
    Fleet,
    SchemeValues,
    elastic_values,
    fleet_values,
    scheme_values,
)
from goodput.report import (
    change_text,
    gain_text,
    money,
    percent,
    percent_pm,
    percent_sig2,
    point_decimals,
    points,
    points_pm,
    se_digits,
    slow_words,
    small_points,
)
from goodput.simulate import Comparison
from goodput.units import format_duration
from goodput.whatif import failures_whatif


def _change(sim: Comparison, i: int) -> str:
    """What a simulation's schedule `i` does to goodput against its first, with the standard error."""
    x, se = sim.difference[i], sim.difference_stderr[i]
    return change_text(x, se, hazards.measurable(x, se))


def _decimals(x: float, one_from: float = 0.095) -> int:
    """Decimals of points for a loss `x` (a fraction): one from `one_from` points (a tenth), else two significant digits."""
    return 1 if 100 * x >= one_from else point_decimals(x, least=1)


def _moves(before: str, after: str) -> str:
    """``"goes from before to after"``, or ``"stays at before"`` where the two read the same."""
    return f"stays at {before}" if before == after else f"goes from {before} to {after}"


@dataclass(frozen=True)
class Page(Fleet, SchemeValues, ElasticValues):
    """The glue keys of ``book/failures.md``, formatted."""

    scope: Variant
    model_name: str
    shape: str
    run_length: str
    run_length_why: Variant
    week: str
    week_share_of_time: str
    share_first_week: str
    m_first_week: str
    m_after_week: str
    t_early: str
    t_late: str
    t_six_first: str
    six_first_until: str
    t_six_last: str
    six_last_from: str
    runs: str
    early_fixed: str
    early_base: str
    renewal_base: str
    early_bunched: str
    early_two: str
    early_two_change: str
    early_six_change: str
    slow_with: str
    early_slow: Variant
    early_slow_change: str
    early_verdict: Variant
    early_gain_size: str
    largest_lever_gain: str
    renewal: Variant
    renewal_fixed: str
    renewal_two: str
    longer: str
    renewal_longer: str
    burst_p: str
    burst_w: str
    burst_mean: str
    m_all: str
    burst_horizon: str
    burst_count: str
    burst_runs: str
    burst_independent: str
    burst_bursts: str
    burst_renewal: str
    burst_sigma: str
    burst_as_many: str
    burst_cost: Variant
    burst_cost_pm: str
    burst_same_count: str
    t_all: str
    burst_retune: str
    lost_q: str
    lost_q_share: str
    lost_base: str
    lost_shared: str
    lost_cost: str
    lost_first_order: str
    lost_how: Variant
    lost_retuned_interval: str
    lost_retune_gain: str
    lost_ratio: str
    lost_scheme: Variant
    fast_survives: str
    elastic_gain: str
    elastic_dollars: str
    elastic_scheme: Variant
    jit_time: str
    jit_share: str
    elastic_rp: str
    restart_full: str
    restart_elastic: str
    elastic_returned: str
    t_elastic_moves: str
    lost_elastic_moves: str
    lost_change: str
    take_early: Variant
    early_gain_pm: str
    take_bursts_cost: str
    take_bursts_retune: Variant


def build(fleet: FleetPlan) -> Page:
    """Everything the chapter quotes, formatted from :func:`goodput.whatif.failures_whatif` and the fleet's plan."""
    p, w, full = fleet.params, failures_whatif(fleet), fleet.plan
    age, sim, lost, early, elastic = w.age, w.sim, w.lost, w.sim.early, w.elastic
    model_name = "this fleet's plan" if fleet.plain else "the model of C, M and R alone"
    bunched = {0: "about as much as", 1: "less than", -1: "more than"}[w.early_vs_base]
    gain, gain_se = early.difference[1], early.difference_stderr[1]
    why = ("published" if age.length == hazards.RUN_LENGTH
           else "longer" if age.length > hazards.RUN_LENGTH else "shorter")
    bursts = "slower" if w.m_all >= p.mtbi else "cheaper" if w.cheaper else "same"
    # the loss to two significant digits under a point, so that its ratio to the re-tuning's gain reads as printed
    ratio, lost_d = lost.domain_ratio, _decimals(lost.cost, one_from=0.95)
    scheme = full.tiers
    persistent = scheme is not None and not scheme.one_tier
    return Page(
        **fleet_values(fleet), **scheme_values(fleet), scope=Variant("one_tier" if fleet.plain else "beyond"),
        model_name=model_name, shape=f"{hazards.SHAPE:g}",
        run_length=format_duration(age.length), run_length_why=Variant(why), week=format_duration(age.first),
        week_share_of_time=percent(age.first / age.length, 0), share_first_week=percent(age.first_share, 0),
        m_first_week=format_duration(age.m_first), m_after_week=format_duration(age.m_rest),
        t_early=format_duration(age.two_schedule[0][1]), t_late=format_duration(age.two_schedule[1][1]),
        t_six_first=format_duration(age.six_schedule[0][1]), six_first_until=format_duration(age.six[0]),
        t_six_last=format_duration(age.six_schedule[-1][1]), six_last_from=format_duration(age.six[-1]),
        runs=f"{early.replicas:,}", early_fixed=percent_pm(early.goodput[0], early.stderr[0]), early_bunched=bunched,
        # the exponential baseline beside a simulated goodput, to the decimals of its standard error
        early_base=percent(w.base, se_digits(early.stderr[0])),
        renewal_base=percent(w.base, se_digits(sim.renewal.stderr[0])),
        early_two=percent_pm(early.goodput[1], early.stderr[1]), early_two_change=_change(early, 1),
        early_six_change=_change(early, 2), early_slow_change=_change(sim.early_slow, 1),
        early_slow=Variant("own" if fleet.slow_is_own else "compared"),  # no slower checkpoint: no bullet for it
        # a derived slow checkpoint is the book's comparison, not the fleet's (Params.slow_derived)
        slow_with=slow_words(p, fleet.slow_keeps_more) if p.slow_derived else f"the slow checkpoint ({format_duration(p.slow_checkpoint_cost)})",
        early_verdict=Variant("helps" if w.early_helps else "no_help"),
        early_gain_size="a fraction of a point" if gain < 0.01 else small_points(gain),
        largest_lever_gain=gain_text(fleet.levers_ranked[0][1]),
        renewal=Variant({0: "about", 1: "more", -1: "less"}[w.renewal_vs_base]),
        renewal_fixed=percent_pm(sim.renewal.goodput[0], sim.renewal.stderr[0]), renewal_two=_change(sim.renewal, 1),
        renewal_longer=_change(sim.renewal, 2), longer=f"{hazards.LONGER:g}", burst_p=f"{hazards.BURST_PROBABILITY:g}",
        burst_w=format_duration(hazards.BURST_WINDOW), burst_mean=f"{1 / (1 - hazards.BURST_PROBABILITY):.2f}",
        m_all=format_duration(w.m_all), burst_horizon=format_duration(sim.bursts.horizon),
        burst_count=f"{sim.bursts.horizon / p.mtbi:,.0f}", burst_runs=f"{sim.bursts.replicas:,}",
        burst_independent=percent_pm(sim.independent.goodput, sim.independent.stderr),
        burst_bursts=percent_pm(sim.bursts.goodput[0], sim.bursts.stderr[0]),
        burst_renewal=percent(w.burst_renewal, se_digits(sim.bursts.stderr[0])), burst_sigma=f"{w.burst_sigma:.1f}",
        burst_as_many=percent(w.as_many, 2), burst_cost=Variant(bursts),
        burst_cost_pm=(points_pm(w.burst_cost, w.burst_se) if w.burst_cost >= 0 or bursts == "slower"
                       else f"nothing measurable ({points_pm(w.burst_cost, w.burst_se)})"),
        burst_same_count=small_points(abs(w.same_count)), t_all=format_duration(w.t_all),
        burst_retune=_change(sim.bursts, 1), lost_q=f"{lost.lost_share:g}",
        lost_q_share=percent(lost.lost_share, 0), lost_base=percent(w.base, lost_d), lost_shared=percent(lost.shared, lost_d),
        lost_cost=points(lost.cost, lost_d),
        lost_first_order=(NOT_QUOTED if not fleet.first_order_quotable else points(lost.first_order_cost, lost_d)
                          if lost.first_order_cost < 1 else "more than all of it"),
        lost_how=Variant("first_order" if fleet.first_order_quotable else "exact"),
        lost_retuned_interval=format_duration(lost.retuned_interval),
        lost_retune_gain=points(max(0.0, lost.retune_gain), max(lost_d, _decimals(lost.retune_gain))),
        lost_ratio=f", {ratio:.0f} times as much" if 2 <= ratio < math.inf else "",
        lost_scheme=Variant("persistent" if persistent else "one_tier" if fleet.plain else "beyond"),
        fast_survives=percent(scheme.fast_survives, 0) if scheme is not None else "none",
        **elastic_values(w.elastic_params, elastic, full.goodput),
        elastic_gain=small_points(w.elastic_gain), elastic_dollars=money(fleet.dollars(w.elastic_gain)),
        elastic_scheme=Variant("persistent" if persistent else "jit" if p.just_in_time > 0 else "one_restart"),
        jit_time=format_duration(p.jit_recovery), jit_share=percent(p.just_in_time, 0),
        elastic_rp=format_duration(elastic.tiers.rp if elastic.tiers is not None else w.elastic_params.restart),
        restart_full=percent_sig2(full.losses.restart_loss), restart_elastic=percent_sig2(elastic.losses.restart_loss),
        elastic_returned=small_points(w.returned),
        t_elastic_moves=_moves(format_duration(full.interval), format_duration(elastic.interval)),
        lost_elastic_moves=_moves(percent_sig2(full.losses.lost_work), percent_sig2(elastic.losses.lost_work)),
        lost_change=f"{'up' if w.lost_change >= 0 else 'down'} {small_points(abs(w.lost_change))}",
        take_early=Variant("no_help" if not w.early_helps else "helps" if gain >= MATERIAL else "slight"), early_gain_pm=points_pm(gain, gain_se),
        take_bursts_cost="less than" if w.cheaper or bursts == "slower" else "about what",
        take_bursts_retune=Variant("helps" if w.retune_helps else "no_help"),
    )
