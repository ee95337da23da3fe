"""The calculator's optional inputs in a real browser: what a planner knows (issues 19, 20) gives the package's numbers.

The page (book/calculator.md, _ext/static/goodput-calculator.js) takes the model and the storage
(checkpoint size or parameters, GPUs per node, bandwidths, the share achieved, a snapshot to host
memory, a price of storage bandwidth), the restart's parts, hot spares, recovery without rollback and
planned stops. These tests run its script in headless Chromium (conftest.py's ``chromium``: skipped
without a browser, failing under CI=true) on seeded random fleets given in those terms, and check
against the package, read from the same inputs as a parameters file (goodput.params.params_from_mapping)
and planned by goodput.fleet.fleet_plan:

- the derived C, D, R (and its parts, load and waits for repairs) to the last bit, and their words;
- the plan (interval, losses, goodput), the levers, the first-order verdict; the best spare count and
  goodput against the count;
- the parsers of sizes, bandwidths and rates, value for value and word for word;
- bad inputs: the page says what the package says;
- the link (goodput.book.calculator.link) carries them, and the downloaded params.yml writes them back
  in the package's keys, giving the same plan through `goodput plan`.

Just-in-time recovery with a drain or a persistent tier, the storage levers and the best write bandwidth
net of its price (with its end of the search) are checked against the package too.
"""

from __future__ import annotations

import functools
import io
import json
import math
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from goodput import storage as st
from goodput.book import calculator
from goodput.cli import main as goodput_main
from goodput.errors import InputError, Refused
from goodput.fleet import fleet_plan
from goodput.params import Known, derive, load_params, params_from_mapping, parse_rate
from goodput.plan import STORAGE_LEVERS, plan_for, plan_levers
from goodput.units import format_duration

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

pytestmark = pytest.mark.browser

#: Agreement where neither side searches numerically (closed forms, the same arithmetic).
REL = 1e-9
#: Where the package searches (the exact optimum with a drain or a persistent tier, by Brent's method to ~1e-7).
SEARCHED = 1e-6


# ------------------------------------------------------------------ the form's fields as a parameters file

_STORAGE = (("write_bandwidth", "write_bandwidth"), ("read_bandwidth", "read_bandwidth"),
            ("bandwidth_efficiency", "efficiency"))
_PARTS = ("detect", "replace", "startup", "startup_per_node", "load", "warmup")


def to_mapping(q: dict[str, str]) -> dict[str, Any]:
    """The page's form fields as a parameters file's mapping, in the package's keys (goodput/params.py's docstring)."""
    m: dict[str, Any] = {key: q[key] for key in ("gpus", "rate_per_gpu_hour", "mtbi", "drain", "fast_survives",
                                                 "gpus_per_node") if key in q}
    m["price_per_gpu_hour"] = q.get("price_per_gpu_hour", "2.5")
    m["month"] = q.get("month", "720 h")
    if "write_bandwidth" not in q:
        m["checkpoint_cost"] = m["slow_checkpoint_cost"] = q["checkpoint_cost"]
    elif "checkpoint_cost" in q:
        m["checkpoint_cost"] = q["checkpoint_cost"]
    if "slow_checkpoint_cost" in q:  # typed, it is kept beside the storage too (goodput.params.derive)
        m["slow_checkpoint_cost"] = q["slow_checkpoint_cost"]
    parts = {key: q[key] for key in _PARTS if key in q}
    if parts:
        m["restart"] = parts
    if "restart" in q:
        m["restart"] = q["restart"] if not parts else m["restart"]
    if "persistent_cost" in q:
        m["persistent"] = {k.removeprefix("persistent_"): q[k] for k in ("persistent_cost", "persistent_restart",
                                                                       "persistent_every") if k in q}
    if "checkpoint_size" in q or "parameters" in q or "bytes_per_parameter" in q:
        m["checkpoint"] = {key: q[field] for field, key in (("checkpoint_size", "size"), ("parameters", "parameters"),
                                                             ("bytes_per_parameter", "bytes_per_parameter")) if field in q}
    if "write_bandwidth" in q:
        m["storage"] = {key: q[field] for field, key in (*_STORAGE, ("storage_price", "price")) if field in q}
    if "snapshot_bandwidth" in q:
        m["snapshot"] = {key: q[field] for field, key in (("snapshot_bandwidth", "bandwidth"),
                                                           ("host_memory", "host_memory")) if field in q}
    if "spares" in q:
        m["spares"] = {"nodes": q["spares"], "repair": q["repair"], "takes_node": q["takes_node"]}
    if "just_in_time" in q:
        m["just_in_time"] = ({"share": q["just_in_time"], "recovery": q["jit_recovery"]} if "jit_recovery" in q
                             else q["just_in_time"])
    if "planned_rate" in q:
        m["planned"] = {"rate": q["planned_rate"]}
    return m


def _log(rng: np.random.Generator, low: float, high: float) -> float:
    return float(np.exp(rng.uniform(np.log(low), np.log(high))))


def _fleet_base(rng: np.random.Generator) -> dict[str, str]:
    nodes = int(rng.integers(32, 8192))
    q = {"gpus": str(8 * nodes), "rate_per_gpu_hour": f"{_log(rng, 3e-6, 4e-5):.3g}"}
    if rng.random() < 0.4:
        q["price_per_gpu_hour"] = f"{float(rng.uniform(0.8, 6)):.3g}"
    return q


def storage_fleets(count: int, seed: int) -> list[dict[str, str]]:
    """Seeded random fleets given by their model and storage: size or parameters, a snapshot or none, the load read."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        q = _fleet_base(rng)
        gpus = int(q["gpus"])
        if rng.random() < 0.5:
            q["parameters"] = f"{_log(rng, 1e9, 1e12):.4g}"
            if rng.random() < 0.5:
                q["bytes_per_parameter"] = str(rng.choice(["12", "14", "16"]))
            size = float(q["parameters"]) * float(q.get("bytes_per_parameter", "14"))
        else:
            size = _log(rng, 2e10, 1e13)
            q["checkpoint_size"] = f"{size / 1e12:.3g} TB" if rng.random() < 0.5 else f"{size / 2**30:.4g} GiB"
            size = st.parse_size(q["checkpoint_size"], "size")
        # a write of 30 s to 40 min, in bytes or bits
        write = size / (60 * _log(rng, 0.5, 40))
        q["write_bandwidth"] = f"{write / 1e9:.4g} GB/s" if rng.random() < 0.6 else f"{8 * write / 1e9:.4g} Gb/s"
        if rng.random() < 0.5:
            q["bandwidth_efficiency"] = f"{float(rng.uniform(0.1, 1)):.2f}"
        if rng.random() < 0.5:  # a snapshot to host memory, faster than the write
            per_node = size / (gpus // 8)
            write_min = size / st.parse_bandwidth(q["write_bandwidth"], "w") / float(q.get("bandwidth_efficiency", "1")) / 60
            snap = per_node / (60 * write_min * float(rng.uniform(0.02, 0.5)))
            q["snapshot_bandwidth"] = f"{snap / 1e9:.4g} GB/s"
            if rng.random() < 0.5:
                q["host_memory"] = f"{per_node * float(rng.uniform(1.05, 4)) / 1e9:.4g} GB"
        if rng.random() < 0.6:  # the load from the read bandwidth, the restart in parts
            q["read_bandwidth"] = f"{2 * write * float(rng.uniform(0.5, 3)) / 1e9:.4g} GB/s"
            q["detect"] = f"{float(rng.uniform(10, 120)):.0f} s"
            q["startup"] = f"{float(rng.uniform(0.5, 10)):.3g} min"
        else:
            q["restart"] = f"{_log(rng, 1, 30):.3g} min"
        out.append(q)
    return out


def restart_fleets(count: int, seed: int) -> list[dict[str, str]]:
    """Seeded random fleets with the restart in parts (or whole) and a pool of hot spares; a third with a drain or tiers."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(count):
        q = _fleet_base(rng)
        q["checkpoint_cost"] = f"{_log(rng, 1 / 6, 5):.3g} min"
        if rng.random() < 0.75:
            q |= {"detect": f"{float(rng.uniform(5, 120)):.0f} s", "replace": f"{float(rng.uniform(0, 5)):.2g} min",
                  "startup": f"{float(rng.uniform(0.2, 8)):.2g} min", "warmup": f"{float(rng.uniform(0, 4)):.2g} min"}
            if rng.random() < 0.5:
                q["startup_per_node"] = f"{float(rng.uniform(0.01, 1)):.2g} s"
            if rng.random() < 0.5:
                q["load"] = f"{float(rng.uniform(0.2, 6)):.2g} min"
        else:
            q["restart"] = f"{_log(rng, 1, 30):.3g} min"
        q |= {"spares": str(int(rng.integers(0, 24))), "repair": f"{_log(rng, 1, 48):.3g} h",
              "takes_node": f"{float(rng.uniform(0.1, 1)):.2f}"}
        if i % 3 == 1:
            q["drain"] = f"{_log(rng, 0.5, 10):.3g} min"
        elif i % 3 == 2:
            c = float(q["checkpoint_cost"].split()[0])
            q |= {"persistent_cost": f"{c * float(rng.uniform(1.5, 8)):.3g} min",
                  "fast_survives": f"{float(rng.uniform(0.3, 0.95)):.2f}"}
            # R_p given a little above R on half; on the other half it defaults to R and moves with R(c), never
            # below it (FleetPlan.with_restart)
            if rng.random() < 0.5:
                q["persistent_restart"] = f"{1.3 * params_from_mapping(to_mapping(q)).restart:.4g} min"
        out.append(q)
    return out


def recovery_fleets(count: int, seed: int, scheme: str = "one tier") -> list[dict[str, str]]:
    """Seeded random fleets with a share recovered just in time and planned stops (one tier, or with a drain or tiers)."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(count):
        q = _fleet_base(rng)
        q |= {"checkpoint_cost": f"{_log(rng, 1 / 6, 8):.3g} min", "restart": f"{_log(rng, 1, 30):.3g} min"}
        if rng.random() < 0.8:
            q["just_in_time"] = f"{float(rng.uniform(0, 0.95)):.2f}"
            if rng.random() < 0.5:
                q["jit_recovery"] = f"{float(rng.uniform(5, 120)):.0f} s"
        if rng.random() < 0.6 or "just_in_time" not in q:
            q["planned_rate"] = rng.choice([f"{_log(rng, 0.005, 0.5):.3g} per hour", f"{_log(rng, 0.1, 5):.3g} per day"])
        if scheme == "tiers":
            c = float(q["checkpoint_cost"].split()[0])
            if i % 3 == 2:  # a slow checkpoint typed, as a fleet's link carries it
                q["slow_checkpoint_cost"] = f"{c * _log(rng, 1, 30):.3g} min"
            if i % 2 == 0:
                q["drain"] = f"{c * _log(rng, 1, 20):.3g} min"
            else:
                q |= {"persistent_cost": f"{c * float(rng.uniform(1.5, 8)):.3g} min",
                      "fast_survives": f"{float(rng.uniform(0.3, 0.95)):.2f}"}
        out.append(q)
    return out


# ------------------------------------------------------------------ the page's numbers and the package's

_COMPUTE = """rows => rows.map(raw => {
  const c = goodputCalculator, checked = c.readInputs(raw);
  if (!checked.inputs) { return {errors: checked.errors}; }
  const r = c.compute(checked.inputs);
  if (r.errors || r.refused) { return r; }
  const x = r.inputs, d = x.derived;
  return {exact: r.exact, first: r.first, spares: r.spares, bandwidth: r.bandwidth, C: x.C, R: x.R, D: x.D,
          slow: x.slowC, notes: d.notes, size: d.size, parts: d.parts, wait: x.wait, synchronous: r.synchronous,
          not_paying: c.notPaying(r)};
})"""


def page_plans(js: Any, fleets: list[dict[str, str]]) -> list[dict[str, Any]]:
    """The page's plan for each fleet (its form fields), computed in Chromium."""
    return list(js.evaluate(_COMPUTE, fleets))


def _searched(params: Any) -> bool:
    return params.drain > 0 or params.persistent_cost is not None


def assert_same_plan(q: dict[str, str], page: dict[str, Any], *, levers: set[str] | None = None) -> dict[str, float]:
    """The page's plan for `q` is the package's (fleet_plan of the same inputs as a file); returns the worst errors."""
    params = params_from_mapping(to_mapping(q))
    fleet = fleet_plan(params)
    assert "exact" in page, (q, page)
    # the derived durations to the last bit, and how they were derived in the package's words
    assert (page["C"], page["R"], page["D"]) == (params.checkpoint_cost, params.restart, params.drain), q
    assert page["slow"] == params.slow_checkpoint_cost, q
    assert page["notes"] == params.derived, q
    if params.restart_parts is not None:
        assert page["parts"] == params.restart_parts.parts, q
    e, plan = page["exact"], fleet.plan
    tol = SEARCHED if _searched(params) else REL
    # the scheme pays, or the slow checkpoint at its own optimum keeps more (goodput.plan.scheme_pays), as the package says
    assert (page["synchronous"] is not None) == fleet.slow_keeps_more, q
    if page["synchronous"] is not None:
        assert abs(page["synchronous"]["goodput"] - fleet.slow.goodput) <= REL, q
    assert math.isclose(e["optimal_interval_min"], plan.optimal_interval, rel_tol=tol), q
    assert abs(e["goodput"] - plan.goodput) <= tol, q
    if plan.tiers is not None and not plan.tiers.one_tier:
        assert e["persistent_every"] == plan.tiers.every, q
    for key in ("checkpoint_overhead", "lost_work", "restart_loss"):
        assert abs(e[key] - float(getattr(plan.losses, key))) <= tol, (q, key)
    gains = plan_levers(plan)
    shown = {name: value for name, value in e["levers"].items() if levers is None or name in levers}
    assert set(shown) >= set(gains), (q, set(shown), set(gains))
    worst_lever = 0.0
    for name, value in gains.items():
        assert abs(shown[name] - value) <= tol, (q, name, shown[name], value)
        worst_lever = max(worst_lever, abs(shown[name] - value))
    assert page["first"]["status"] == plan.check.status, q
    if plan.check.quotable:
        assert abs(page["first"]["goodput"] - fleet.first_order.goodput) <= tol, q
    return {"interval": abs(e["optimal_interval_min"] / plan.optimal_interval - 1), "goodput": abs(e["goodput"] - plan.goodput),
            "lever": worst_lever}


def _report(name: str, worst: list[dict[str, float]]) -> None:
    print(f"{name}: {len(worst)} fleets; interval within {max(w['interval'] for w in worst):.2g} relative, goodput within "
          f"{max(w['goodput'] for w in worst):.2g}, levers within {max(w['lever'] for w in worst):.2g}")


def test_storage_derived_fleets_in_chromium_equal_the_package(js: Any) -> None:
    """On 40 seeded fleets given by size or parameters and bandwidths (a snapshot on half), the page's C, D, R and
    their words are the package's to the bit, and its plan, levers and verdict the package's."""
    fleets = storage_fleets(40, 19)
    worst = [assert_same_plan(q, page, levers=set(plan_levers(plan_for(params_from_mapping(to_mapping(q))))))
             for q, page in zip(fleets, page_plans(js, fleets), strict=True)]
    assert sum("snapshot_bandwidth" in q for q in fleets) >= 10 and sum("read_bandwidth" in q for q in fleets) >= 10
    _report("storage-derived fleets", worst)


def assert_same_spares(js: Any, fleets: list[dict[str, str]]) -> tuple[list[dict[str, float]], list[tuple[int, int]]]:
    """Each fleet's plan (assert_same_plan) and spare counts are the package's: the expected restart to the bit, the
    counts searched as goodput.restart.best_spares searches them, goodput and dollars against the count (to 1e-9, or
    1e-6 where the package searches) and the best count. Returns the worst errors and (page's, package's) best counts."""
    worst, bests = [], []
    for q, page in zip(fleets, page_plans(js, fleets), strict=True):
        worst.append(assert_same_plan(q, page))
        params = params_from_mapping(to_mapping(q))
        choice = fleet_plan(params).best_spares
        assert choice is not None and page["spares"] is not None, q
        assert page["wait"] == params.spares.wait(params.mtbi), q  # type: ignore[union-attr]
        # the page searches as goodput.restart.best_spares does (past the best while ceiling x N - c g could win)
        counts = page["spares"]["counts"]
        assert counts == choice.counts[:len(counts)] and choice.best in counts, q
        tol = SEARCHED if _searched(params) else REL
        for got, want in zip(page["spares"]["restart"], choice.restart[:len(counts)], strict=True):
            assert math.isclose(got, want, rel_tol=1e-12), q
        for got, want in zip(page["spares"]["goodput"], choice.goodput[:len(counts)], strict=True):
            assert abs(got - want) <= tol, q
        net = choice.net
        best = page["spares"]["best"]
        assert best == choice.best or abs(net[best] - net[choice.best]) <= tol * params.gpus, (q, best, choice.best)
        for got, want in zip(page["spares"]["dollars"], choice.dollars[:len(counts)], strict=True):
            assert abs(got - want) <= tol * fleet_plan(params).dollars(1.0) + 1e-6, q
        bests.append((best, choice.best))
    return worst, bests


def test_restart_parts_and_spares_in_chromium_equal_the_package(js: Any) -> None:
    """On 30 seeded fleets with the restart in parts and hot spares (a third with a drain, a third with tiers), the
    spare counts and the plan are the package's (assert_same_spares); the best count varies across the fleets."""
    worst, bests = assert_same_spares(js, restart_fleets(30, 20))
    assert len({b for b, _ in bests}) > 3  # the best count varies across the fleets
    _report("restart parts and spares", worst)
    print(f"best spare count equal on {sum(a == b for a, b in bests)} of {len(bests)}")


_RESTART_LINE = """rows => rows.map(raw => {
  const c = goodputCalculator, checked = c.readInputs(raw);
  if (!checked.inputs) { return {errors: checked.errors}; }
  const r = c.compute(checked.inputs);
  if (r.errors || r.refused) { return r; }
  return {sum: c.restartSum(r.inputs), items: c.derivedOutputs(r).items};
})"""

#: The tiered fleet the reviewer opened (its restart in parts, 6,144 nodes starting at 0.1 s each, 16 spares).
TIERED48 = {"gpus": "49152", "rate_per_gpu_hour": "1.8e-5", "checkpoint_cost": "20 s", "drain": "3 min",
            "persistent_cost": "2 min", "persistent_restart": "22 min", "fast_survives": "0.85", "detect": "1 min",
            "replace": "3 min", "startup": "2 min", "startup_per_node": "0.1 s", "warmup": "2 min", "spares": "16",
            "repair": "12 h", "takes_node": "0.6", "price_per_gpu_hour": "2.8", "month": "730 h"}


def test_the_restart_is_written_as_goodput_plan_writes_it(js: Any) -> None:
    """The page writes R's parts as goodput plan and the book do (goodput.report.restart_sum: start-up 12.24 min, not
    12.2 min, the parts adding up to R as written), and its derivation line gives R's value beside R and ρ's own
    beside ρ ("= 18.3 min, with ρ = a·r/M = 6.37"), where it read "..., ρ = a·r/M = 18.3 min"."""
    from goodput.report import restart_sum

    fleets = [TIERED48, *restart_fleets(30, 20), *storage_fleets(10, 21)]
    pages = js.evaluate(_RESTART_LINE, fleets)
    lines = 0
    for q, page in zip(fleets, pages, strict=True):
        if "sum" not in page:
            continue
        params = params_from_mapping(to_mapping(q))
        assert page["sum"] == restart_sum(params), q
        line = [item for item in page["items"] if item.startswith("R = ")]
        assert len(line) == ("restart" in params.derived), (q, page["items"])
        if line:
            lines += 1
            head = line[0].split(": ", 1)[0]
            assert head.count(" = ") == 2 + 2 * (params.spares is not None), line  # R = formula = value[, with ρ = ... = v]
            assert f" = {format_duration(params.restart)}" in head, line
            if params.spares is not None:
                rho = params.spares.takes_node * params.spares.repair / params.mtbi
                assert head.endswith(f", with ρ = a·r/M = {rho:.3g}"), line
            assert line[0].endswith(restart_sum(params) or "") or "spare nodes" in line[0], line
    assert lines > 20
    tiered = pages[0]
    assert "start-up 12.24 min (2 min + 6,144 nodes × 0.1 s)" in tiered["sum"]
    assert tiered["items"][0].startswith("R = detect + replace + start-up (fixed + per node × nodes) + load + warm-up "
                                         "+ a·B(c, ρ)·r/(c + 1) = 18.3 min, with ρ = a·r/M = 6.37: the sum of its "
                                         "parts, detection 1 min + "), tiered["items"]


def test_spares_beside_planned_stops_in_chromium_equal_the_package(js: Any) -> None:
    """Spares with planned stops (and a share recovered just in time on half), one tier, a drain or tiers: a planned
    stop takes no node, so its restart skips R's wait for repairs in the page as in the package; the plan, its levers
    (halve R halves that wait with R where the stop restarts from R) and the spare counts agree (assert_same_spares)."""
    rng = np.random.default_rng(25)
    fleets = restart_fleets(24, 24)
    for q in fleets:
        q["planned_rate"] = f"{_log(rng, 0.1, 5):.3g} per day"
        if rng.random() < 0.5:
            q["just_in_time"] = f"{float(rng.uniform(0, 0.9)):.2f}"
    worst, _ = assert_same_spares(js, fleets)
    assert sum(params_from_mapping(to_mapping(q)).stop_saving > 1.0 for q in fleets) >= 5  # waits that matter
    _report("spares beside planned stops", worst)


def test_one_tier_recovery_in_chromium_equals_the_package(js: Any) -> None:
    """On 40 seeded one-tier fleets with a share recovered just in time and planned stops, the page's one wrapper
    gives goodput.restart.recovery_losses's plan by both models, and its levers (plan_levers)."""
    fleets = recovery_fleets(40, 21)
    worst = [assert_same_plan(q, page) for q, page in zip(fleets, page_plans(js, fleets), strict=True)]
    _report("one tier with recovery", worst)


def test_tiered_recovery_in_chromium_equals_the_package(js: Any) -> None:
    """Spec A with a drain or a persistent tier: the page's wrapper around the tier model is the package's."""
    fleets = recovery_fleets(20, 22, scheme="tiers")
    worst = [assert_same_plan(q, page) for q, page in zip(fleets, page_plans(js, fleets), strict=True)]
    _report("tiers with recovery", worst)


def test_storage_levers_in_chromium_equal_the_package(js: Any) -> None:
    """Spec B: "double the storage bandwidth" (and the snapshot's) are FleetPlan.levers's, as the other levers."""
    fleets = storage_fleets(20, 23)
    for q, page in zip(fleets, page_plans(js, fleets), strict=True):
        params = params_from_mapping(to_mapping(q))
        fleet = fleet_plan(params)
        names = set(STORAGE_LEVERS.values())
        assert names & set(fleet.levers), q
        for name in names & set(fleet.levers):
            tol = SEARCHED if _searched(params) else REL
            assert abs(page["exact"]["levers"][name] - fleet.levers[name]) <= tol, (q, name)


def test_best_write_bandwidth_in_chromium_equals_the_package(js: Any) -> None:
    """Spec C: with a price of storage bandwidth, the best write bandwidth net of its cost is the package's."""
    fleets = storage_fleets(12, 24)
    for i, q in enumerate(fleets):
        q["storage_price"] = ["1500", "0", "1e7"][i % 3] if i < 3 else "1500"  # at a price of 0 the top; far dearer
    # a snapshot slower than the write at 64 times the bandwidth (a slow checkpoint shorter than C there)
    fleets.append({"gpus": "16384", "rate_per_gpu_hour": "2e-5", "checkpoint_size": "2.4 TB", "write_bandwidth": "40 GB/s",
                   "snapshot_bandwidth": "0.1 GB/s", "restart": "5 min", "storage_price": "1"})
    # storage far dearer than 64 GPUs' work, at the highest price read ($10M per GB/s a month): the bottom of the search
    fleets.append({"gpus": "64", "rate_per_gpu_hour": "2e-5", "checkpoint_size": "1 TB", "write_bandwidth": "40 GB/s",
                   "restart": "5 min", "storage_price": "1e7"})
    # a fleet that already holds B* (its own, to four digits): the net is flat, nothing to buy or shed
    inside = next(q for q in fleets if fleet_plan(params_from_mapping(to_mapping(q))).best_write_bandwidth.edge is None)
    held = fleet_plan(params_from_mapping(to_mapping(inside))).best_write_bandwidth
    ratio = held.bandwidth / st.parse_bandwidth(inside["write_bandwidth"], "write_bandwidth")  # the read scales alike
    fleets.append(inside | {"write_bandwidth": f"{held.bandwidth / 1e9:.6g} GB/s"} | (
        {"read_bandwidth": f"{st.parse_bandwidth(inside['read_bandwidth'], 'rb') * ratio / 1e9:.6g} GB/s"}
        if "read_bandwidth" in inside else {}))
    edges, flat = [], []
    for q, page in zip(fleets, page_plans(js, fleets), strict=True):
        best = fleet_plan(params_from_mapping(to_mapping(q))).best_write_bandwidth
        got = page["bandwidth"]
        assert best is not None and got is not None, q
        assert math.isclose(got["bandwidth_bytes_per_s"], best.bandwidth, rel_tol=1e-3), q
        assert abs(got["goodput"] - best.goodput) <= 1e-6, q
        assert got["edge"] == best.edge and got["flat"] == best.flat, q
        edges.append(best.edge)
        flat.append(best.flat)
    assert {"top", "bottom", None} <= set(edges) and flat[-1] and not all(flat)


def _net_at_bandwidth(params: Any, known: Any, stated: float, bandwidth: float) -> float:
    """Capacity a month kept at a stated write bandwidth (the read scaled alike), net of $1,500 per GB/s a month."""
    import dataclasses

    from goodput.model import capacity_per_month

    read = None if known.read_bandwidth is None else known.read_bandwidth * (bandwidth / stated)
    typed = {k: v for k, v in known.typed.items() if k not in ("checkpoint_cost", "drain", "slow_checkpoint_cost")}
    p = derive(params, dataclasses.replace(known, write_bandwidth=bandwidth, read_bandwidth=read, typed=typed))
    try:
        g = plan_for(p).goodput
    except Refused:
        g = 0.0
    return capacity_per_month(g, params.gpus, params.price_per_gpu_hour, params.month) - 1500 * bandwidth / 1e9


def test_best_write_bandwidth_is_the_best_on_the_page_s_own_terms(js: Any) -> None:
    """With a storage price the page's bandwidth beats its neighbours (x 0.9, x 1.1) net of cost, by its own plan,
    and its goodput is the package's plan at that bandwidth (read bandwidth scaled alike)."""
    fleets = storage_fleets(6, 25)
    for q in fleets:
        q["storage_price"] = "1500"
    for q, page in zip(fleets, page_plans(js, fleets), strict=True):
        got = page["bandwidth"]
        assert got is not None, q
        b = got["bandwidth_bytes_per_s"]
        params = params_from_mapping(to_mapping(q))
        known = params.known
        assert known is not None and known.write_bandwidth is not None
        net = functools.partial(_net_at_bandwidth, params, known, known.write_bandwidth)
        low, high = known.write_bandwidth / 64, known.write_bandwidth * 64  # the range searched (spec C)
        assert low * (1 - 1e-12) <= b <= high * (1 + 1e-12), q
        neighbours = [n for n in (0.9 * b, 1.1 * b) if low <= n <= high]
        assert net(b) >= max(net(n) for n in neighbours) - 1.0, q  # within a dollar a month
        assert math.isclose(got["net_per_month"], net(b), rel_tol=1e-6, abs_tol=1.0), q


# ------------------------------------------------------------------ the parsers


SIZES = ["2.3 TB", "329 GB", "650 GiB", "1 TiB", "900 MB", "1e3 kB", " 12 B ", "1.5TB", "2.3 tb", "2.3", "20 Gb", "5 GB/s",
         "0 B", "-1 GB", "1e400 GB", "2.3 TBs", "2,3 TB", "2.3 bytes", "4 Kibytes", ".5 PB", "5. GB", "NaN GB", "inf TB"]
BANDWIDTHS = ["2.5 GB/s", "20 Gb/s", "20 Gbps", "1.2 TB/s", "900 MiB/s", "20 gb/s", "20 GB", "20", "0 GB/s", "-2 GB/s",
              "1e400 GB/s", "25 GB / s", "3 bits/s", "3 bit/s", "7 byte/s", "2.5GB/s", " 10 Tb/s\t", "1e-3 PB/s", "5 GiB/S"]
RATES = ["0.036 per hour", "0.87 per day", "2/h", "1 per week", "0 per hour", "-1 per hour", "1 per parsec", "1 per",
         "x per hour", "3 / min", "0.5 per Days", "1e-3/h"]


def _outcome(parse: Any, text: str) -> dict[str, Any]:
    try:
        return {"value": parse(text, "x")}
    except InputError as exc:
        return {"error": exc.expected}


def test_sizes_bandwidths_and_rates_are_read_as_the_package_reads_them(js: Any) -> None:
    """The page reads each size, bandwidth and planned rate as goodput.storage and goodput.params do: the same bytes
    (or events an hour) to the bit, or the same words of refusal; "20 gb/s" and a bandwidth without /s refused."""
    got = js.evaluate("""([sizes, bws, rates]) => {
      const c = goodputCalculator;
      const run = (f, t) => { try { return {value: f(t)}; } catch (e) { if (e instanceof c.InputError) { return {error: e.expected}; } throw e; } };
      return [sizes.map(t => run(c.parseSize, t)), bws.map(t => run(c.parseBandwidth, t)), rates.map(t => run(c.parseRate, t))];
    }""", [SIZES, BANDWIDTHS, RATES])
    assert got[0] == [_outcome(st.parse_size, t) for t in SIZES]
    assert got[1] == [_outcome(st.parse_bandwidth, t) for t in BANDWIDTHS]
    assert got[2] == [_outcome(parse_rate, t) for t in RATES]
    assert {"error": st._BANDWIDTH_EXPECTED} in got[1] and any("value" in g for g in got[1])


def test_sizes_and_bandwidths_are_written_as_the_package_writes_them(js: Any) -> None:
    """formatSize and formatBandwidth in the page are goodput.storage.format_size and format_bandwidth."""
    values = [1.0, 999.0, 1000.0, 999.5e3, 2.3e12, 329e9, 176.25e9 * 14, 2.5e9, 40e9, 1e15, 3.7e18, 0.5]
    got = js.evaluate("vs => [vs.map(v => goodputCalculator.formatSize(v)), vs.map(v => goodputCalculator.formatBandwidth(v))]",
                      values)
    assert got == [[st.format_size(v) for v in values], [st.format_bandwidth(v) for v in values]]


# ------------------------------------------------------------------ bad inputs: the package's words


TYPED = {"checkpoint_cost": 1.0, "slow_checkpoint_cost": 1.0, "restart": 5.0}
BASE = {"gpus": "16384", "rate_per_gpu_hour": "2e-5", "checkpoint_cost": "1 min", "restart": "5 min"}
BAD = [
    ({"checkpoint_size": "2.3"}, "checkpoint_size"),
    ({"checkpoint_size": "2.3 TB", "write_bandwidth": "20 gb/s"}, "write_bandwidth"),
    ({"checkpoint_size": "2.3 TB", "write_bandwidth": "20 GB"}, "write_bandwidth"),
    ({"checkpoint_size": "2.3 TB", "write_bandwidth": "0 GB/s"}, "write_bandwidth"),
    ({"checkpoint_size": "2.3 TB", "write_bandwidth": "20 GB/s", "bandwidth_efficiency": "0"}, "bandwidth_efficiency"),
    ({"checkpoint_size": "2.3 TB", "write_bandwidth": "20 GB/s", "bandwidth_efficiency": "1.5"}, "bandwidth_efficiency"),
    ({"write_bandwidth": "20 GB/s"}, "write_bandwidth"),
    ({"checkpoint_size": "2.3 TB", "read_bandwidth": "20 GB/s"}, "read_bandwidth"),  # derive's words (the file's differ)
    ({"bytes_per_parameter": "12"}, "bytes_per_parameter"),  # derive's words (the file's differ)
    ({"checkpoint_size": "2.3 TB", "write_bandwidth": "20 GB/s", "gpus_per_node": "7"}, "gpus_per_node"),
    ({"checkpoint_size": "2.3 TB", "write_bandwidth": "1 TB/s", "snapshot_bandwidth": "10 GB/s", "host_memory": "100 MB"},
     "host_memory"),
    ({"checkpoint_size": "2.3 TB", "write_bandwidth": "1 TB/s", "snapshot_bandwidth": "0.1 GB/s"}, "snapshot_bandwidth"),
    ({"detect": "30 s", "startup": "1 min"}, "restart"),  # --restart with --detect: derive's words
    ({"checkpoint_size": "2.3 TB", "write_bandwidth": "20 GB/s", "read_bandwidth": "40 GB/s"}, "restart"),
    ({"detect": "0 s"}, "detect"),
    ({"just_in_time": "1"}, "just_in_time"),
    ({"planned_rate": "2 per parsec"}, "planned_rate"),
    ({"planned_rate": "1e308 per hour"}, "planned_rate"),
    ({"rate_per_gpu_hour": "1e308"}, "rate_per_gpu_hour"),
    ({"rate_per_gpu_hour": "5e-324"}, "rate_per_gpu_hour"),  # M overflows: it read "mtbi: got inf"
    ({"month": "2 years"}, "month"),  # a month of 1e308 min wrote "$InfinityB a month"
    ({"planned_rate": "2 per minute"}, "planned_rate"),
    ({"parameters": "1e308", "write_bandwidth": "20 GB/s"}, "parameters"),  # "Infinite+Infinity PB per node"  # at most one a minute: 1e15 an hour drew negative counts
    ({"spares": "-1", "repair": "12 h", "takes_node": "0.5"}, "spares"),
    ({"spares": "1e9", "repair": "12 h", "takes_node": "0.5"}, "spares"),  # a million at most: the search hung
    ({"gpus": "1e300"}, "gpus"),  # ten million at most: planned as a 300-digit fleet
    ({"spares": "4", "repair": "12 h", "takes_node": "1.5"}, "takes_node"),
    ({"checkpoint_size": "2.3 TB", "write_bandwidth": "20 GB/s", "storage_price": "-1"}, "storage_price"),
]


@pytest.mark.parametrize(("changes", "field"), BAD, ids=[f"{field}-{i}" for i, (_, field) in enumerate(BAD)])
def test_bad_planner_inputs_get_the_package_s_words(js: Any, changes: dict[str, str], field: str) -> None:
    """Each bad input is refused by the page on its field with the words the package refuses the same file with."""
    q = BASE | changes
    derives_c = "snapshot_bandwidth" in changes or ("write_bandwidth" in changes and field != "write_bandwidth")
    if derives_c and not (field == "restart" and "detect" in changes):
        q.pop("checkpoint_cost")
    if "detect" in changes and field == "detect":
        q.pop("restart")
    got = js.evaluate("raw => goodputCalculator.readInputs(raw)", q)
    assert "errors" in got, (q, got)
    derive_only = {"read_bandwidth": Known(size=2.3e12, read_bandwidth=2e10, typed=dict(TYPED)),
                   "bytes_per_parameter": Known(bytes_per_parameter=12.0, typed=dict(TYPED)),
                   "restart": Known(parts={"detect": 0.5, "startup": 1.0}, typed=dict(TYPED))}
    if (field in derive_only and "read_bandwidth" not in changes) or field == "read_bandwidth":
        with pytest.raises(InputError) as info:  # what goodput plan says of the same inputs as flags (derive's check)
            derive(load_params().replace(checkpoint_cost=0.0, slow_checkpoint_cost=0.0), derive_only[field])
    else:
        with pytest.raises(InputError) as info:
            params_from_mapping(to_mapping(q))
    assert got["errors"].get(field) == info.value.expected, (q, got["errors"], info.value.expected)


def test_a_derived_duration_typed_as_well_is_refused_in_the_package_s_words(js: Any) -> None:
    """C typed beside a write bandwidth that derives it: refused on both fields, in derive's words and description."""
    q = BASE | {"parameters": "530e9", "bytes_per_parameter": "12", "write_bandwidth": "20 Gb/s"}
    with pytest.raises(InputError) as info:
        derive(load_params().replace(checkpoint_cost=0.0, slow_checkpoint_cost=0.0),
               Known(parameters=530e9, bytes_per_parameter=12.0, write_bandwidth=2.5e9,
                     typed={"checkpoint_cost": 1.0, "restart": 5.0}))
    got = js.evaluate("raw => goodputCalculator.readInputs(raw)", q)
    assert got["errors"]["checkpoint_cost"] == got["errors"]["write_bandwidth"] == info.value.expected
    assert "6.36 TB" in info.value.expected


# ------------------------------------------------------------------ the link and the file

#: A fleet given in a planner's terms: the model, storage with a snapshot, the restart's parts, spares, recovery.
PLANNER_FLEET = """\
gpus: 65536
rate_per_gpu_hour: 2.2e-5
checkpoint: {parameters: 405e9}
storage: {write_bandwidth: 250 GB/s, read_bandwidth: 700 GB/s, efficiency: 0.16, price: 1500}
snapshot: {bandwidth: 25 GB/s, host_memory: 780 GB}
restart: {detect: 30 s, replace: 1 min, startup: 1 min, startup_per_node: 0.1 s, warmup: 2 min}
spares: {nodes: 16, repair: 12 h, takes_node: 0.6}
price_per_gpu_hour: 3.2
month: 730 h
"""

#: One tier, given whole, with a share recovered just in time and planned stops (the package plans it today).
RECOVERY_FLEET = """\
gpus: 16384
interruptions: {count: 419, window: 54 days}
checkpoint_cost: 1 min
slow_checkpoint_cost: 5 min
restart: {detect: 20 s, startup: 3 min, warmup: 1 min}
spares: {nodes: 4, repair: 8 h, takes_node: 0.5}
just_in_time: {share: 0.7, recovery: 20 s}
planned: {count: 47, window: 54 days}
price_per_gpu_hour: 2.5
month: 720 h
"""


@pytest.mark.parametrize("text", [PLANNER_FLEET, RECOVERY_FLEET], ids=["storage-snapshot-spares", "recovery-spares"])
def test_the_link_carries_a_planner_s_inputs(js: Any, tmp_path: Path, text: str) -> None:
    """calculator.link_query(params) read by the page gives the package's C, D, R and plan; nothing derived is typed."""
    path = tmp_path / "fleet.yml"
    path.write_text(text, encoding="utf-8")
    params = load_params(path)
    query = calculator.link_query(params)
    assert not set(params.derived) & set(query) - {"restart"} or "restart" not in params.derived
    page = page_plans(js, [query])[0]
    assert_same_plan_params(params, page)


def assert_same_plan_params(params: Any, page: dict[str, Any]) -> None:
    assert "exact" in page, page
    assert (page["C"], page["R"], page["D"]) == (params.checkpoint_cost, params.restart, params.drain)
    plan = plan_for(params)
    tol = SEARCHED if _searched(params) else REL
    assert abs(page["exact"]["goodput"] - plan.goodput) <= tol
    assert math.isclose(page["exact"]["optimal_interval_min"], plan.optimal_interval, rel_tol=tol)
    if params.spares is not None:
        assert page["spares"]["best"] == fleet_plan(params).best_spares.best  # type: ignore[union-attr]
    best = fleet_plan(params).best_write_bandwidth
    assert (page["bandwidth"] is None) == (best is None)
    if best is not None:
        assert math.isclose(page["bandwidth"]["bandwidth_bytes_per_s"], best.bandwidth, rel_tol=1e-3)
        assert page["bandwidth"]["edge"] == best.edge


def test_the_downloaded_file_writes_them_back_in_the_package_s_keys(js: Any, tmp_path: Path) -> None:
    """paramsYaml for a planner's fleet is read by goodput.params into the same C, D, R and plan, for random fleets."""
    fleets = storage_fleets(8, 26) + restart_fleets(6, 27) + recovery_fleets(6, 28)
    for q in fleets[:8:2]:
        q["storage_price"] = "1500"
    files = js.evaluate("""rows => rows.map(raw => { const c = goodputCalculator, x = c.readInputs(raw).inputs;
      return c.paramsYaml(raw, x); })""", fleets)
    for i, (q, text) in enumerate(zip(fleets, files, strict=True)):
        path = tmp_path / f"params{i}.yml"
        path.write_text(text, encoding="utf-8")
        got = load_params(path)
        want = params_from_mapping(to_mapping(q))
        assert (got.checkpoint_cost, got.restart, got.drain, got.mtbi) == \
            (want.checkpoint_cost, want.restart, want.drain, want.mtbi), text
        assert (got.just_in_time, got.jit_recovery, got.planned_rate) == \
            (want.just_in_time, want.jit_recovery, want.planned_rate), text
        assert got.storage == want.storage and got.spares == want.spares, text
        if "storage_price" in q:
            assert got.storage is not None and got.storage.price == 1500.0, text


# ------------------------------------------------------------------ the built page


def _plan_json(path: Path, *extra: str) -> tuple[int, dict[str, Any] | None]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = goodput_main(["plan", "--params", str(path), "--format", "json", *extra])
    return status, (json.loads(out.getvalue()) if status == 0 else None)


_DERIVED = """() => Object.fromEntries(Array.from(document.querySelectorAll('[data-derived]'))
  .filter(e => e.hasAttribute('data-value')).map(e => [e.dataset.derived, [Number(e.dataset.value), e.textContent]]))"""


@pytest.mark.book
def test_the_page_opened_on_a_planner_s_link_shows_the_command_s_numbers(chromium: Any, built_book: Path,
                                                                          tmp_path: Path) -> None:
    """The built page, opened on the link of a fleet given in a planner's terms, shows `goodput plan`'s JSON: C, D, the
    load, the expected restart, the best spare count, goodput; its folded sections open; its file gives the same plan."""
    path = tmp_path / "fleet.yml"
    path.write_text(PLANNER_FLEET, encoding="utf-8")
    params = load_params(path)
    status, command = _plan_json(path)
    assert status == 0 and command is not None
    problems: list[str] = []
    context = chromium.new_context(accept_downloads=True, service_workers="block")
    try:
        page = context.new_page()
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.goto((built_book / "book").as_uri() + "/" + calculator.link(params), wait_until="load")
        page.wait_for_selector("#goodput-calculator[data-ready='true']")
        derived = page.evaluate(_DERIVED)
        assert page.evaluate("document.querySelector('.gc-storage').open && document.querySelector('.gc-restart').open")
        assert derived["checkpoint_cost_min"][0] == command["checkpoint_cost_min"]
        assert derived["drain_min"][0] == command["drain_min"]
        assert derived["restart_min"][0] == command["restart_min"]
        assert derived["load_min"][0] == command["load_min"]
        assert derived["checkpoint_size_bytes"][0] == command["checkpoint_size_bytes"]
        choice = fleet_plan(params).best_spares
        assert choice is not None and derived["best_spares"][0] == choice.best
        assert derived["best_spares_dollars"][0] == pytest.approx(choice.dollars[choice.best], rel=1e-6)
        best = command["best_write_bandwidth"]
        assert math.isclose(derived["best_write_bandwidth"][0], best["bandwidth_bytes_per_s"], rel_tol=1e-3)
        assert derived["best_write_bandwidth"][1].startswith("at least ") == (best["edge"] == "top")
        assert derived["best_write_bandwidth_net"][0] == pytest.approx(best["net_per_month"], rel=1e-6)
        goodput = page.evaluate("Number(document.querySelector(\"td[data-model='exact'][data-output='goodput']\").dataset.value)")
        assert abs(goodput - command["goodput"]) <= SEARCHED
        assert "derived: " in (page.get_attribute("#gc-checkpoint_cost", "placeholder") or "")
        items = page.inner_text("[data-role='derived-list']").replace("\xa0", " ")  # numbers kept with units
        assert params.derived["checkpoint_cost"] in items and "C = (S ÷ nodes)" in items
        with page.expect_download() as info:
            page.click("[data-role='download']")
        saved = tmp_path / "params.yml"
        info.value.save_as(saved)
        again = load_params(saved)
        assert (again.checkpoint_cost, again.drain, again.restart) == (params.checkpoint_cost, params.drain, params.restart)
        # the storage lever's row: the package's name, and the read bandwidth doubled only where one is stated
        label = f"""document.querySelector("td[data-model='exact'][data-lever='{STORAGE_LEVERS['double_write_bandwidth']}']")
          .closest('tr').querySelector('th').innerText"""
        assert STORAGE_LEVERS["double_write_bandwidth"] in page.evaluate(label)
        assert "read" in page.evaluate(label) and params.storage is not None and params.storage.read_bandwidth
        page.fill("#gc-read_bandwidth", "")
        page.fill("#gc-load", "2 min")
        assert not problems and page.evaluate(_DERIVED) != {}, problems
        assert "write" in page.evaluate(label) and "read" not in page.evaluate(label)
        # a bad bandwidth: the package's words in the field's alert, and no numbers
        page.fill("#gc-write_bandwidth", "250 gb/s")
        assert st._BANDWIDTH_EXPECTED in page.inner_text("#gc-write_bandwidth-error")
        assert page.evaluate(_DERIVED) == {}
        page.close()
    finally:
        context.close()
    assert not problems, problems


def test_the_recovery_wrapper_around_the_tier_chain_reduces_to_one_tier(js: Any) -> None:
    """Spec A's wrapper around the tier chain, with a persistent tier that is the fast one (C_p = C, R_p = R, s = 0),
    gives goodput.restart.recovery_losses's one-tier plan (the package's side for tiers lands elsewhere)."""
    fleets = recovery_fleets(12, 29)
    for q in fleets:
        q |= {"persistent_cost": q["checkpoint_cost"], "fast_survives": "0", "persistent_every": "1"}
    for q, page in zip(fleets, page_plans(js, fleets), strict=True):
        one = {k: v for k, v in q.items() if k not in ("persistent_cost", "fast_survives", "persistent_every")}
        plan = plan_for(params_from_mapping(to_mapping(one)))
        assert plan.recovery is not None
        assert abs(page["exact"]["goodput"] - plan.goodput) <= SEARCHED, q
        assert math.isclose(page["exact"]["optimal_interval_min"], plan.optimal_interval, rel_tol=SEARCHED), q
        assert abs(page["exact"]["restart_loss"] - plan.losses.restart_loss) <= SEARCHED, q


# ------------------------------------------------------------------ a measured stall typed beside the snapshot

#: The stored fleet with the stall measured at a checkpoint typed beside its snapshot (C 6.3 s, the copy 13.8 ms, the
#: synchronous write 5.67 s shorter than C): goodput.params.derive keeps C as typed and the slow C derived.
STALL_FLEET = HERE / "data" / "fleet-stored-stall.yml"


def test_a_stall_fleet_s_link_gives_the_command_s_plan(js: Any) -> None:
    """The link of a fleet whose C is the measured stall beside a snapshot is read as goodput plan reads the file: C
    6.3 s as typed (not "one of them, not both"), the slow C the 5.67 s write with the stall's 6.29 s of barrier and
    quiesce, every 2.89 min, 72.9%; the words of the copy, the levers (no snapshot lever), the best write bandwidth the
    package's. With a snapshot no faster than the storage, the write (6.2 s) keeps more, and the page says so in
    goodput plan's words."""
    params = load_params(STALL_FLEET)
    assert params.checkpoint_is_stall and params.slow_checkpoint_cost > params.checkpoint_cost
    query = calculator.link_query(params)
    assert "checkpoint_cost" in query and "snapshot_bandwidth" in query
    page = page_plans(js, [query])[0]
    assert "errors" not in page, page
    assert_same_plan_params(params, page)
    assert page["slow"] == params.slow_checkpoint_cost
    assert page["notes"] == params.derived and "snapshot_copy" in page["notes"]
    fleet = fleet_plan(params)
    assert format_duration(page["exact"]["optimal_interval_min"]) == format_duration(fleet.interval) == "2.89 min"
    assert f"{page['exact']['goodput']:.1%}" == f"{fleet.goodput:.1%}" == "72.9%"
    levers = {name: gain for name, gain in page["exact"]["levers"].items() if name in fleet.levers}
    assert set(levers) == set(fleet.levers) and STORAGE_LEVERS["double_snapshot_bandwidth"] not in page["exact"]["levers"]
    for name, gain in levers.items():
        assert abs(gain - fleet.levers[name]) <= SEARCHED, name
    assert page["synchronous"] is None and not fleet.slow_keeps_more  # the write pays the barrier and quiesce too
    slow_snapshot = load_params(STALL_FLEET.with_name("fleet-stall-slow-snapshot.yml"))
    page = page_plans(js, [calculator.link_query(slow_snapshot)])[0]
    assert page["slow"] == slow_snapshot.slow_checkpoint_cost and page["notes"] == slow_snapshot.derived
    assert page["synchronous"] is not None and f"{page['synchronous']['goodput']:.1%}" == "73.1%"
    out = io.StringIO()
    with redirect_stdout(out):
        assert goodput_main(["plan", "--params", str(STALL_FLEET.with_name("fleet-stall-slow-snapshot.yml"))]) == 0
    said = " ".join(out.getvalue().split())
    assert page["not_paying"].startswith("Not paying: the synchronous write derived for comparison (6.2 s) keeps 73.1%")
    assert page["not_paying"] in said


def test_a_stall_shorter_than_the_copy_is_refused_in_the_package_s_words(js: Any) -> None:
    """C typed beside a snapshot below the copy alone: refused on C, in derive's words (the copy's time and terms)."""
    params = load_params(STALL_FLEET)
    query = calculator.link_query(params) | {"checkpoint_cost": "10 ms"}
    with pytest.raises(InputError) as info:
        params_from_mapping(to_mapping(query))
    got = js.evaluate("raw => goodputCalculator.readInputs(raw)", query)
    assert got.get("errors", {}).get("checkpoint_cost") == info.value.expected, got
    assert "13.8 ms" in info.value.expected


def test_a_stall_fleet_s_downloaded_file_gives_the_same_plan(js: Any, tmp_path: Path) -> None:
    """The page's params.yml for the stall fleet keeps checkpoint_cost beside the snapshot: goodput reads the same C."""
    params = load_params(STALL_FLEET)
    text = js.evaluate("raw => goodputCalculator.paramsYaml(raw, goodputCalculator.readInputs(raw).inputs)",
                       calculator.link_query(params))
    path = tmp_path / "params.yml"
    path.write_text(text, encoding="utf-8")
    again = load_params(path)
    assert again.checkpoint_is_stall, text
    assert (again.checkpoint_cost, again.slow_checkpoint_cost, again.drain, again.restart) == \
        (params.checkpoint_cost, params.slow_checkpoint_cost, params.drain, params.restart), text


def test_the_page_s_synchronous_write_restarts_in_r_p_beside_a_persistent_tier(js: Any) -> None:
    """Beside a persistent tier the synchronous write restarts in R_p (goodput.params.Params.slow_restart), on the page
    as in the package. The page compares the C typed (a link carries no slow C), so the file types the same. With R_p
    95 min and C_p 50.2 s the scheme (93.81%) pays against the write's 93.78%, where restarting in R the write kept
    99.0%; with C_p 2 min the write keeps more than the scheme's 93.69%, and the page gives its goodput."""
    base = {"gpus": 128, "gpus_per_node": 8, "rate_per_gpu_hour": 1e-5, "checkpoint_cost": "8.8 s",
            "slow_checkpoint_cost": "8.8 s", "restart": "10.8 min", "drain": "3.47 min", "fast_survives": 0.97,
            "planned": {"count": 28, "window": "30 days"}, "price_per_gpu_hour": 1.5, "month": "730 h"}
    fleets = [params_from_mapping(base | {"persistent": {"cost": cost, "restart": "94.95 min"}}, source="x.yml")
              for cost in ("50.2 s", "2 min")]
    pages = page_plans(js, [calculator.link_query(p) for p in fleets])
    for params, page, keeps_more in zip(fleets, pages, (False, True), strict=True):
        assert "errors" not in page, page
        assert_same_plan_params(params, page)
        fleet = fleet_plan(params)
        assert fleet.slow_keeps_more is keeps_more and (page["synchronous"] is not None) is keeps_more
        assert abs(fleet.slow.goodput - 0.9378) < 5e-5
        if keeps_more:
            assert abs(page["synchronous"]["goodput"] - fleet.slow.goodput) <= REL


def test_an_interval_typed_beside_a_persistent_tier_keeps_the_not_paying_verdict(js: Any) -> None:
    """A persistent tier that does not pay, with an interval typed: the command says the synchronous write keeps 11.7
    points more than the scheme at its optimum; the page compared the write with the one-tier model at that optimum
    and said nothing. Now it judges the tiered scheme at its optimum (goodput.report.at_optimum), as the command."""
    from goodput.plan import scheme_pays
    from goodput.report import at_optimum

    q = {"gpus": "16384", "rate_per_gpu_hour": "2e-5", "checkpoint_cost": "1 min", "restart": "5 min", "drain": "2 min",
         "persistent_cost": "5 min", "persistent_restart": "10 min", "fast_survives": "0", "interval": "30 min",
         "price_per_gpu_hour": "2.5", "month": "720 h"}
    page = page_plans(js, [q])[0]
    mapping = {k: v for k, v in to_mapping(q).items() if k != "interval"} | {"slow_checkpoint_cost": "1 min"}
    params = params_from_mapping(mapping)
    plan, slow = plan_for(params, interval=30.0), plan_for(params, slow=True)
    assert not scheme_pays(at_optimum(plan), slow)
    assert page["synchronous"] is not None
    assert abs(page["synchronous"]["goodput"] - slow.goodput) <= SEARCHED
    assert abs(page["synchronous"]["against"] - at_optimum(plan).goodput) <= SEARCHED
    assert "11.7 points more" in page["not_paying"]


def test_a_fleet_s_typed_slow_checkpoint_travels_with_its_link(js: Any, tmp_path: Path) -> None:
    """A tiered fleet's link carries its slow checkpoint (6 min), so the page judges the scheme against it as the book
    and the command do: the scheme pays. It carried none, and the page compared the C typed, 30 s, written
    synchronously: "Not paying: the slow checkpoint (30 s) keeps 66.9% ..." beside the book's "51.9%, 12.3 points less".
    A slow checkpoint typed below C is refused in the package's words, on its own field; the file keeps it."""
    params = params_from_mapping({
        "gpus": 73728, "rate_per_gpu_hour": 1.2e-5, "checkpoint_cost": "30 s", "slow_checkpoint_cost": "6 min",
        "restart": "20 min", "drain": "4 min", "persistent": {"cost": "3 min", "restart": "30 min"},
        "fast_survives": 0.8, "price_per_gpu_hour": 2.4, "month": "730 h"}, source="jit.yml")
    query = calculator.link_query(params)
    assert query["slow_checkpoint_cost"] == "6 min"
    page = page_plans(js, [query])[0]
    assert_same_plan_params(params, page)
    fleet = fleet_plan(params)
    assert page["slow"] == params.slow_checkpoint_cost == 6.0
    assert not fleet.slow_keeps_more and page["synchronous"] is None and page["not_paying"] == ""
    same = page_plans(js, [{k: v for k, v in query.items() if k != "slow_checkpoint_cost"}])[0]
    assert same["slow"] == 0.5 and same["synchronous"] is not None  # the C typed, the form's default, does not
    below = page_plans(js, [query | {"slow_checkpoint_cost": "10 s"}])[0]
    with pytest.raises(InputError) as refused:
        params_from_mapping({"gpus": 8, "mtbi": "3 h", "checkpoint_cost": "30 s", "slow_checkpoint_cost": "10 s",
                             "restart": "5 min", "price_per_gpu_hour": 1, "month": "730 h"})
    assert below["errors"] == {"slow_checkpoint_cost": refused.value.expected}
    text = js.evaluate("raw => { const c = goodputCalculator; return c.paramsYaml(raw, c.readInputs(raw).inputs); }",
                       query)
    path = tmp_path / "params.yml"
    path.write_text(text, encoding="utf-8")
    assert load_params(path).slow_checkpoint_cost == 6.0


def test_sizes_and_bandwidths_beyond_the_package_s_ceiling_are_refused_as_it_refuses_them(js: Any) -> None:
    """A size past 1,000 PB and a bandwidth past 1 PB/s are refused by the package with "at most ..."; the page said
    "at least 1 B" for "1e400 GB" (read as infinity) and planned with "2e15 B/s"."""
    run = """([kind, text]) => { const c = goodputCalculator;
      try { return {value: (kind === "size" ? c.parseSize : c.parseBandwidth)(text)}; }
      catch (e) { return {error: e.expected}; } }"""
    for kind, text, parse in (("size", "1e400 GB", st.parse_size), ("size", "2e18 B", st.parse_size),
                              ("bandwidth", "1e400 GB/s", st.parse_bandwidth), ("bandwidth", "2 PB/s", st.parse_bandwidth)):
        with pytest.raises(InputError) as refused:
            parse(text, "x")
        assert js.evaluate(run, [kind, text]) == {"error": refused.value.expected}, text
    assert js.evaluate(run, ["bandwidth", "1 PB/s"]) == {"value": 1e15}


# ------------------------------------------------------------------ R_p moving with a load re-derived

#: Review 4's spares-32k: R as its parts with the load from the read bandwidth, hot spares, a typed R_p.
SPARES_TIERED = HERE / "data" / "fleet-spares-tiered.yml"


def test_a_tiered_fleet_s_storage_lever_moves_r_p_with_the_load_on_the_page_as_in_the_package(js: Any) -> None:
    """Doubling the storage halves the load in R, and R_p moves with R (goodput.plan.derived_again, as goodput plan moves
    it): the page's levers are the package's, "double the storage bandwidth" 0.89 points (0.71 with R_p left put); no
    snapshot lever, which would repeat "halve C"."""
    params = load_params(SPARES_TIERED)
    page = page_plans(js, [calculator.link_query(params)])[0]
    assert "errors" not in page, page
    assert_same_plan_params(params, page)
    fleet = fleet_plan(params)
    levers = {name: gain for name, gain in page["exact"]["levers"].items() if name in fleet.levers}
    assert set(levers) == set(fleet.levers)
    for name, gain in levers.items():
        assert abs(gain - fleet.levers[name]) <= SEARCHED, name
    assert abs(levers[STORAGE_LEVERS["double_write_bandwidth"]] - 0.0089) < 5e-5
    # the snapshot doubled is C halved (C the copy alone): "halve C", listed once on the page as in the package
    assert STORAGE_LEVERS["double_snapshot_bandwidth"] not in page["exact"]["levers"] and "halve C" in levers
    assert STORAGE_LEVERS["double_snapshot_bandwidth"] not in page["first"]["levers"]
