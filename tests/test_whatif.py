"""The what-ifs the pages quote (goodput.whatif), each against an expectation computed apart from it."""

from __future__ import annotations

from pathlib import Path

import pytest

from goodput import whatif
from goodput.exact import exact_goodput
from goodput.fleet import fleet_plan
from goodput.params import Params, load_params
from goodput.plan import plan_for

DATA = Path(__file__).parent / "data"


def test_the_largest_losss_lever_outranked_is_its_input_halved_and_planned_again(book: Params) -> None:
    """M = 25 min, C = 6 min, R = 8 min: restart is the largest loss; halving R (5.8 points) is outranked by halving C
    (9.4): the plan at R = 4 min cuts restart to 14.8% while overhead and lost work grow back. The worked example's
    largest loss's lever is not outranked."""
    refused = book.replace(mtbi=25.0, checkpoint_cost=6.0, slow_checkpoint_cost=12.0, restart=8.0, ranges={})
    x = whatif.loss_lever_whatif(fleet_plan(refused))
    assert x is not None and (x.own, x.better, x.grown) == ("halve R", "halve C", ("checkpoint_overhead", "lost_work"))
    assert x.after.goodput == pytest.approx(plan_for(refused.replace(restart=4.0)).goodput)
    assert x.after.losses.restart_loss == pytest.approx(0.148, abs=5e-4)
    assert whatif.loss_lever_whatif(fleet_plan(book)) is None


def test_the_answer_whatif_of_the_worked_example_and_of_a_fleet_whose_own_write_is_not_its_slow_checkpoint(
        worked: Params, small_params: Params) -> None:
    """The worked example: no storage, no spares, no drain; first order keeps 12.8 points above the slow checkpoint's.
    The small fleet's storage writes its 182 GB checkpoint at 12 GB/s in 15.2 s, which as the only checkpoint keeps
    what the exact model of C = 15.2 s, M and R does (97.4%)."""
    w = whatif.answer_whatif(fleet_plan(worked))
    assert (w.own_write, w.own_write_plan, w.spares_short, w.busy, w.busy_loss) == (None, None, None, None, 0.0)
    assert w.slow_fo_gain == pytest.approx(0.128, abs=5e-4)
    p = small_params
    small = whatif.answer_whatif(fleet_plan(p))
    assert small.own_write == pytest.approx(182e9 / 12e9 / 60) and small.own_write_plan is not None
    assert small.own_write_plan.goodput == pytest.approx(exact_goodput(small.own_write, p.mtbi, p.restart))
    assert small.busy is not None and small.busy_loss == pytest.approx(0.049, abs=5e-4)


def test_the_measuring_whatif_of_the_worked_example(worked: Params) -> None:
    """The worked example is C, M and R alone: PyTorch's 6.3 s asynchronous save and its 148.8 s synchronous one keep
    what the exact model keeps with that C (94.1%, 82.3%); overhead and lost work are about equal (4.7%, 5.1%)."""
    w = whatif.measuring_whatif(fleet_plan(worked))
    m, r = worked.mtbi, worked.restart
    assert w.async_ == pytest.approx(exact_goodput(6.3 / 60, m, r)) and w.sync == pytest.approx(exact_goodput(2.48, m, r))
    assert (round(w.async_, 3), round(w.sync, 3), w.about_equal) == (0.941, 0.823, True)
    assert w.async_over_sync == pytest.approx(w.async_ - w.sync)


def test_the_storage_whatif_doubles_the_synchronous_write_where_the_snapshot_does_not_pay() -> None:
    """tests/data/fleet-stored-stall.yml: the snapshot's measured stall does not pay, so its synchronous write is the
    one to double: 73.4% at the stated 2 TB/s, 74.9% at 4 TB/s, 1.5 points more."""
    fleet = fleet_plan(load_params(DATA / "fleet-stored-stall.yml"))
    w = whatif.storage_whatif(fleet)
    assert fleet.synchronous is not None and w.measured is not None and w.stall is None
    assert (round(fleet.slow.goodput, 3), round(w.sync_doubled, 3)) == (0.734, 0.749)
    assert w.sync_gain == pytest.approx(w.sync_doubled - fleet.slow.goodput) and round(w.sync_gain, 3) == 0.015
