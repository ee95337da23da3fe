"""The goodput chapter (book/goodput.md): goodput as one minus named losses, for the fleet's plan.

The fleet's losses are its plan's (:class:`goodput.fleet.FleetPlan`, the whole scheme); first order's are
shown beside them only where the one measure allows. The comparison with what Llama 3 reports is about the
worked example, so it is computed from the worked example's own inputs in every build and labelled so.
"""

from __future__ import annotations

from dataclasses import dataclass

from goodput import sources
from goodput.exact import checkpoint_cost_for_goodput, exact_losses
from goodput.fleet import FleetPlan, fleet_plan
from goodput.model import FIRST_ORDER_CAUTION, FIRST_ORDER_TOLERANCE
from goodput.pages import Variant
from goodput.pages.answer import compared_name
from goodput.pages.common import (
    NOT_QUOTED,
    Fleet,
    RecoveryValues,
    SlowRestartValues,
    first_order_variant,
    fleet_values,
    quoted,
    recovery_values,
    slow_restart_values,
)
from goodput.params import load_params
from goodput.report import percent, point_decimals, points, points_past
from goodput.units import format_duration


@dataclass(frozen=True)
class Page(Fleet, RecoveryValues, SlowRestartValues):
    """The goodput chapter's values; each field is a glue key of book/goodput.md."""

    first_order: Variant
    breakdown_pair: Variant
    compared_name: str

    scheme: Variant
    scheme_recovery: Variant
    balance: Variant
    balance_checkpoint: str
    balance_lost: str
    slow: Variant
    fo_slow_each: str
    slow_this: Variant
    slow_off: str
    a_reported: str
    a_mtbi: str
    a_cost: str
    a_fo_goodput: str
    a_goodput: str
    a_gap: Variant
    a_above_fo: str
    a_above_exact: str
    a_below_exact: str
    a_no_restart: str
    a_needed: Variant
    a_needed_cost: str
    a_restart: str
    a_planned: str
    planned: Variant
    leaves_out: Variant
    larger_fleet: str
    out_of_range_fleet: str
    largest_fleet: str


#: Below this relative difference the two losses first order balances are still about equal at the plan's optimum.
BALANCED = 0.05


def larger_fleet(fleet: FleetPlan, beyond: tuple[str, ...] = ("ok",)) -> str:
    """Where first order stops holding as the fleet grows, for a fleet where it holds: ``""`` if it holds at every size.

    The smallest size of :attr:`goodput.fleet.FleetPlan.by_size` beyond the fleet (its scheme at the same per-GPU
    rate, R re-derived) whose first order is more than :data:`goodput.model.FIRST_ORDER_CAUTION` off, as a clause:
    ``"at 16,384 GPUs (16 times that fleet, at the same per-GPU rate) it is 1.2 points off"``, with R at that size where
    it differs from the fleet's (``"..., where R is 358 min) ..."``). With `beyond`
    ``("ok", "caution")``, the smallest where it is out of its range (more than the tolerance off, or below zero).
    """
    own = fleet.params.gpus
    for gpus, plan in fleet.by_size.items():
        if gpus > own and plan.check.status not in beyond:
            limit = FIRST_ORDER_CAUTION if beyond == ("ok",) else FIRST_ORDER_TOLERANCE  # the page says "more than" it
            off = ("its goodput is below zero" if plan.check.status == "below zero"
                   else f"it is {points_past(abs(plan.check.error), limit)} off")
            times = "twice" if gpus == 2 * own else f"{gpus / own:.3g} times"
            # where R is re-derived to another value there (a pool of spares held for more nodes), say so: the gap is
            # then the restart's as much as the size's
            grows = f", where R is {format_duration(fleet.restart_at(gpus))}" if fleet.restart_changes([gpus]) else ""
            return f"at {gpus:,} GPUs ({times} that fleet, at the same per-GPU rate{grows}) {off}"
    return ""


def build(fleet: FleetPlan) -> Page:
    """The goodput chapter of a fleet.

    >>> page = build(fleet_plan(load_params()))
    >>> page.interval, page.goodput, page.gap, page.fo_slow_goodput, page.slow_goodput
    ('18.6 min', '87.6%', '0.66 points', '74.1%', '76.5%')
    """
    slow_ok = fleet.first_order_quotable and fleet.slow_first_order.check.quotable
    sf = fleet.slow_first_order
    s, p = fleet.plan.tiers, fleet.params
    planned = p.planned_rate > 0
    w = fleet_plan(load_params())
    reported = sources.LLAMA3_EFFECTIVE_TRAINING_TIME
    wp = w.params
    at_optimum = exact_losses(wp.checkpoint_cost, wp.mtbi, wp.restart)
    needed = checkpoint_cost_for_goodput(reported, wp.mtbi, wp.restart)
    larger = larger_fleet(fleet) if fleet.first_order_status == "ok" else ""
    out_at = larger_fleet(fleet, ("ok", "caution")) if fleet.first_order_status == "caution" else ""
    ckpt, lost = fleet.losses["checkpoint_overhead"], fleet.losses["lost_work"]
    digits = point_decimals(min(ckpt, lost), 2, 1)
    return Page(
        **fleet_values(fleet), first_order=first_order_variant(fleet),
        # Fig. 4's pair: a measured stall longer than the write it is compared with is not the "fast" checkpoint
        breakdown_pair=Variant("own" if fleet.slow_is_own else "fast" if compared_name(p) == "slow checkpoint"
                               else "stall"),
        compared_name=compared_name(p),
        scheme=Variant(("recovered" if fleet.recovered else "single") if s is None
                       else "tiered" if s.drain > 0 else "persistent"),
        **recovery_values(p), **slow_restart_values(p),
        # A tiered fleet's scheme paragraph names its tiers; its just-in-time recovery and planned stops follow.
        scheme_recovery=Variant("tiered" if s is not None and fleet.recovered else "none"),
        balance=Variant("close" if abs(lost - ckpt) < BALANCED * max(lost, ckpt) else "apart"),
        balance_checkpoint=percent(ckpt, digits), balance_lost=percent(lost, digits),
        slow=Variant("own" if fleet.slow_is_own else "quoted" if slow_ok else "refused" if fleet.first_order_quotable
                     else "own_refused"),
        fo_slow_each=quoted(percent(sf.losses.checkpoint_overhead), slow_ok), slow_off=points(abs(sf.check.error)),
        # a derived slow checkpoint is the book's comparison, not the fleet's (Params.slow_derived)
        slow_this=Variant("derived" if p.slow_derived else "given"),
        a_reported=percent(reported, 0),
        a_mtbi=format_duration(wp.mtbi), a_cost=format_duration(wp.checkpoint_cost),
        a_fo_goodput=percent(w.first_order.goodput), a_goodput=percent(w.goodput),
        a_gap=Variant("above" if reported > w.goodput else "below"),
        a_above_fo=points(max(0.0, reported - w.first_order.goodput)),
        a_above_exact=points(max(0.0, reported - w.goodput)), a_below_exact=points(max(0.0, w.goodput - reported)),
        a_no_restart=percent(at_optimum.goodput / (1.0 - at_optimum.restart_loss), 2),  # T* does not depend on R
        a_needed=Variant("none" if needed is None else "cost"),
        a_needed_cost=format_duration(needed) if needed is not None else NOT_QUOTED,
        a_restart=format_duration(wp.restart), a_planned=f"{sources.LLAMA3_PLANNED:,}",
        planned=Variant("counted" if planned else "none"),
        leaves_out=Variant("ok_throughout") if fleet.first_order_status == "ok" and not larger
        else Variant("caution_throughout") if fleet.first_order_status == "caution" and not out_at
        else first_order_variant(fleet),
        out_of_range_fleet=out_at or NOT_QUOTED,
        larger_fleet=larger or NOT_QUOTED, largest_fleet=f"{max(fleet.by_size):,}",
    )

