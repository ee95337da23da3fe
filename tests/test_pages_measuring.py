"""The measuring page (goodput.pages.measuring): every number is the fleet's by the exact model, the elastic gain
is the failures chapter's, and first-order values appear only labelled.

Checked with the worked example, examples/fleet-32k.yml, and a 24,576-GPU fleet at 1.6e-5 per GPU-hour with
C = 40 s and R = 12 min (with and without ranges).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from goodput.exact import exact_goodput, exact_losses, exact_optimal_interval
from goodput.pages import measuring as page
from goodput.pages.common import elastic_restart
from goodput.params import Params, load_params
from goodput.plan import plan_for
from goodput.uncertainty import poisson_interval

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def fleets(fleet_variant: Callable[..., Params]) -> dict[str, Params]:
    """The worked example, the 32k example fleet, and the 24k fleet with and without ranges."""
    return {
        "worked": load_params(),
        "fleet-32k": load_params(ROOT / "examples" / "fleet-32k.yml"),
        "24k": fleet_variant("fleet-24k.yml", ranges={"restart": ["8 min", "20 min"]}),
        "24k-no-ranges": fleet_variant("fleet-24k-no-ranges.yml"),
    }


SECTIONS = (page.intro, page.count_example, page.early_rate, page.asynchronous, page.elastic, page.mistakes,
            page.takeaways)


def all_text(params: Params) -> dict[str, str]:
    out: dict[str, str] = {}
    for section in SECTIONS:
        out.update(section(params))
    return out


def test_elastic_gain_is_the_exact_models_and_the_failures_chapters(fleets: dict[str, Params]) -> None:
    """Elastic restart R_e = min(1 min, R/2), as in the failures chapter. At the exact optimum goodput is e^{-R/M}
    times a factor free of R, and the optimum does not depend on R, so G(R_e) / G(R) = e^{(R - R_e)/M} and the
    interval stays put."""
    assert elastic_restart(5.0) == 1.0 and elastic_restart(1.5) == 0.75
    for params in fleets.values():
        c, m, r = params.checkpoint_cost, params.mtbi, params.restart
        r_e = min(1.0, r / 2)  # the failures chapter's definition
        full, fast = exact_losses(c, m, r), exact_losses(c, m, r_e)
        assert fast.goodput / full.goodput == pytest.approx(math.exp((r - r_e) / m), rel=1e-12)
        assert fast.interval == full.interval
        text = page.elastic(params)["elastic_text"]
        assert f"rises from {full.goodput:.1%} to {fast.goodput:.1%} ({100 * (fast.goodput - full.goodput):.1f} points)" \
            in text
        assert "the exact model" in text


def test_worked_example_elastic_and_restart(fleets: dict[str, Params]) -> None:
    """Worked example (C = 1 min, M = 185.6 min, R = 5 min): elastic R = 1 min lifts exact goodput from 87.6% to
    89.5%, 1.9 points; the restart term is 1 - e^{-5/185.6} = 2.7%."""
    text = all_text(fleets["worked"])
    assert "from 87.6% to 89.5% (1.9 points)" in text["elastic_text"]
    assert text["restart_loss"] == f"{-math.expm1(-5 / (54 * 1440 / 419)):.1%}" == "2.7%"


def test_fleet_24k_numbers(fleets: dict[str, Params]) -> None:
    """24,576 GPUs at 1.6e-5 per GPU-hour: M = 152.6 min; exact optimum with C = 40 s is 13.8 min; the restart
    term 1 - e^{-12/152.6} is 7.6%; elastic R = 1 min gives e^{11/152.6} = 1.075 times the goodput."""
    params = fleets["24k"]
    text = all_text(params)
    assert "M = 153 min (1.6e-5 interruptions per GPU-hour on 24,576 GPUs), C = 40 s and R = 12 min" \
        in text["inputs_text"]
    assert text["restart_loss"] == "7.6%"
    assert "Checkpoint every 13.8 min of work" in text["take_interval"]
    g = exact_goodput(40 / 60, params.mtbi, 12.0)
    assert f"to {g * math.exp(11 / params.mtbi):.1%}" in text["elastic_text"]


def test_count_example(fleets: dict[str, Params]) -> None:
    """A dozen interruptions over 12 M give M's Garwood interval (M x 12/21.0, M x 12/6.20): 43% below and 94% above
    the estimate, whatever M is; the exact optimum is taken at both ends. A count given in the file gets its own
    interval (169 to 205 min for 419 in 54 days)."""
    for params in fleets.values():
        m = params.mtbi
        low, high = poisson_interval(12, 12 * m)
        assert (round(1 - low / m, 2), round(high / m - 1, 2)) == (0.43, 0.94)
        text = page.count_example(params)["count_text"]
        assert "from 43% below to 94% above the count's estimate" in text
        t_low = exact_optimal_interval(params.checkpoint_cost, low)
        assert f"{t_low:.1f} min" in text or f"{t_low:.3g} min" in text
    assert "narrow it to 169 min to 205 min" in page.count_example(fleets["worked"])["count_text"]
    assert "not as a count" in page.count_example(fleets["24k"])["count_text"]


def test_early_rate(fleets: dict[str, Params]) -> None:
    """With M/3 early in a run, the exact optimum is T*(C, M/3), shorter than the settled T*(C, M); keeping the
    settled interval gives less than the early optimum (the optimum is a maximum)."""
    for params in fleets.values():
        c, m, r = params.checkpoint_cost, params.mtbi, params.restart
        settled = float(exact_optimal_interval(c, m))
        early = float(exact_optimal_interval(c, m / 3))
        assert early < settled
        keep, follow = float(exact_goodput(c, m / 3, r, settled)), float(exact_goodput(c, m / 3, r))
        assert keep < follow
        text = page.early_rate(params)["early_text"]
        assert f"gives {keep:.1%} instead of {follow:.1%}" in text


def test_asynchronous_checkpoint(fleets: dict[str, Params]) -> None:
    """PyTorch's 148.8 s and 6.3 s stalls as C, with the fleet's M and R, each at its exact optimum."""
    params = fleets["worked"]
    out = page.asynchronous(params)
    assert (out["sync_time"], out["async_time"]) == ("148.8 s", "6.3 s")
    g_sync = exact_goodput(148.8 / 60, params.mtbi, params.restart)
    g_async = exact_goodput(6.3 / 60, params.mtbi, params.restart)
    assert f"from {g_sync:.1%} to {g_async:.1%}" in out["async_text"]


def test_per_gpu_mistake(fleets: dict[str, Params], fleet_variant: Callable[..., Params]) -> None:
    """One GPU's M is 60/rate minutes (5.79 years at 1.97e-5); the exact optimum from it is about sqrt(2 C M_gpu)
    (41.1 h), and at that interval the job keeps T e^{-R/M} / (M (e^{(T+C)/M} - 1)) of its time, which is tiny."""
    params = fleets["worked"]
    text = page.mistakes(params)["per_gpu_text"]
    m_gpu = 60 / params.rate_per_gpu_hour
    assert m_gpu / (365.25 * 1440) == pytest.approx(5.79, abs=0.01)
    assert "about every 5.79 years" in text and "would be 41.1 h" in text
    wrong = exact_optimal_interval(params.checkpoint_cost, m_gpu)
    assert wrong == pytest.approx(math.sqrt(2 * params.checkpoint_cost * m_gpu), rel=0.01)
    assert exact_goodput(params.checkpoint_cost, params.mtbi, params.restart, wrong) < 0.001
    assert "keep less than 0.1% of its wall time instead of 87.6%" in text
    one = fleet_variant("one.yml", gpus=1)
    assert "cannot make that mistake" in page.mistakes(one)["per_gpu_text"]


def test_slow_checkpoint_and_takeaways(fleets: dict[str, Params], fleet_variant: Callable[..., Params]) -> None:
    """The slow checkpoint's cost is exact goodput at each optimum, fast minus slow (11.1 points in the worked
    example); takeaways give the exact interval and goodput first and label Young's √(2CM) and 1 - C/T - T/(2M) - R/M
    as first order (19.3 min and 86.9% in the worked example)."""
    params = fleets["worked"]
    fast, slow = plan_for(params), plan_for(params, slow=True)
    assert fast.model == "exact"
    text = all_text(params)
    assert f"{100 * (fast.goodput - slow.goodput):.1f} points" in text["slow_text"] == \
        "Here the slow checkpoint (5 min) leaves 76.5% at its own optimum, against 87.6% with the fast one (1 min): " \
        "11.1 points."
    assert text["take_interval"] == ("Checkpoint every 18.6 min of work at C = 1 min and M = 186 min: the exact "
                                     "model's optimum. Young's first-order T* = √(2CM) gives 19.3 min.")
    assert text["take_goodput"] == ("Goodput is 87.6% by the exact model; first order, 1 − C/T − T/(2M) − R/M, "
                                    "gives 86.9%.")
    twice = exact_goodput(1.0, params.mtbi, 5.0, 2 * fast.optimal_interval)
    assert f"an interval twice the optimum costs {100 * (fast.goodput - twice):.1f} points" in text["take_cost"]
    same = fleet_variant("same.yml", slow_checkpoint_cost="40 s")
    assert "no slower than the fast one" in page.mistakes(same)["slow_text"]


def test_first_order_out_of_range_is_not_quoted(fleet_variant: Callable[..., Params]) -> None:
    """Where first order is out of its range (C = 20 min against M = 60 min), the takeaways say so instead of
    quoting its T* or goodput."""
    params = fleet_variant("bad.yml", rate_per_gpu_hour=None, mtbi="60 min", checkpoint_cost="20 min",
                           slow_checkpoint_cost="30 min")
    assert plan_for(params, which="first-order").refused
    text = page.takeaways(params)
    assert "outside its range" in text["take_interval"] and "outside its range" in text["take_goodput"]


@pytest.mark.parametrize("name", ["worked", "fleet-32k", "24k", "24k-no-ranges"])
def test_prose_names_no_keys_files_or_functions(fleets: dict[str, Params], name: str) -> None:
    """No sentence names a key path, a file other than the inputs file, or a function; durations are written by
    format_duration (no "0.666667 min"); every number that is first order says so."""
    params = fleets[name]
    for key, sentence in all_text(params).items():
        sentence = sentence.replace(params.source, "the inputs file")
        assert "ranges." not in sentence and "goodput." not in sentence and "_" not in sentence, (key, sentence)
        assert not re.search(r"\d\.\d{4,}", sentence), (key, sentence)
        assert ".yml" not in sentence, (key, sentence)
        if "√(2CM)" in sentence or "C/T" in sentence:
            assert "first order" in sentence or "first-order" in sentence, (key, sentence)
    assert params.source in page.intro(params)["inputs_text"]
    assert page.intro(load_params())["inputs_text"].count("from the worked example.") == 1
