"""The calculator page in a real browser: its JavaScript gives the package's numbers, to 1e-9 relative.

The page (book/calculator.md) runs JavaScript generated from the package's SymPy expressions
(goodput.book.calculator) and one hand-written routine, the Lambert-W solver. These tests run
them in headless Chromium (conftest.py's ``chromium``, shared with tests/test_browser.py: skipped
without a browser, failing under CI=true):

- the Lambert-W solver against scipy.special.lambertw and mpmath across [-1/e, 0);
- the page's parser against the shared table of typed inputs (tests/duration_cases.json) and
  against goodput.units / goodput.validate, value for value;
- the generated formulas, evaluated in Chromium, against goodput.model, goodput.exact and goodput.tiers;
- the built page, opened from file:// with the inputs in its address, for 60 seeded random
  fleets (one tier, with a drain, with a persistent tier): every data-value against the package;
- typing into the form updates the outputs and the address; bad input shows an alert and blanks
  every output; the downloaded params.yml gives the same numbers through `goodput plan`.
"""

from __future__ import annotations

import io
import json
import math
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import mpmath
import numpy as np
import pytest
from scipy.special import lambertw

from goodput import exact, model, tiers, validate
from goodput.book import calculator
from goodput.cli import main as goodput_main
from goodput.errors import InputError
from goodput.params import load_params
from goodput.plan import CAPPED_LEVERS, LEVERS, TIER_LEVERS, Plan, levers_at_optimum, make_plan, plan_for, plan_levers
from goodput.report import AT_OPTIMUM, gain_text, lever_gain_text, percent
from goodput.symbolic import calculator_formulas
from goodput.units import format_duration, format_wait, parse_duration

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CASES = json.loads((HERE / "duration_cases.json").read_text(encoding="utf-8"))
SCREENSHOTS = ROOT / "_build" / "screenshots"

#: Schemes the page may load from: the site on disk, and inert ones. Anything else is a request outside the site.
LOCAL_SCHEMES = ("file", "data", "blob", "about")

pytestmark = pytest.mark.browser

#: Relative agreement asked of every number the page shows, against the package.
REL = 1e-9
#: Absolute floor for numbers that are zero in both (the interval lever at the optimum).
ABS = 1e-15


# ------------------------------------------------------------------ the Lambert-W solver


def lambert_points() -> list[float]:
    """z across [-1/e, 0): a uniform grid, points crowding the branch point -1/e, and points crowding 0."""
    branch = -1.0 / math.e
    points = [branch] + [float(z) for z in np.linspace(branch, -1e-12, 2001)]
    points += [branch + float(d) for d in np.logspace(-16, -0.5, 400)]
    points += [-float(d) for d in np.logspace(-300, -0.5, 400)]
    return [z for z in points if branch <= z < 0.0]


def test_lambert_w_against_scipy_and_mpmath(js: Any) -> None:
    """W0 in the page is within 1e-15 relative of mpmath at 50 digits, and within SciPy's own conditioning of SciPy.

    SciPy's lambertw is accurate to a few ulps away from -1/e; next to it W0 is ill-conditioned
    (its relative condition number is 1/|1 + W|) and SciPy drifts by up to that many ulps, so
    the comparison with SciPy allows 8 ulps times (1 + 1/|1 + W|); mpmath settles the truth.
    """
    zs = lambert_points()
    got = js.evaluate("zs => zs.map(z => goodputLambertW0(z))", zs)
    mpmath.mp.dps = 50
    worst_truth = worst_scipy = 0.0
    for z, w in zip(zs, got, strict=True):
        truth = float(mpmath.lambertw(mpmath.mpf(z)).real)
        ref = float(lambertw(z, 0).real)
        assert w is not None and math.isfinite(w), z
        if math.isnan(ref):  # the double nearest -1/e lies just below it: SciPy says NaN, the page the branch point
            assert w == -1.0 and abs(truth + 1.0) < 1e-7
            continue
        rel_truth = abs(w - truth) / abs(truth)
        rel_scipy = abs(w - ref) / abs(ref)
        assert rel_truth <= 1e-15, (z, w, truth)
        assert rel_scipy <= 8 * 2.2e-16 * (1 + 1 / max(abs(1 + truth), 1e-300)), (z, w, ref)
        worst_truth, worst_scipy = max(worst_truth, rel_truth), max(worst_scipy, rel_scipy)
    print(f"Lambert W0: worst relative error {worst_truth:.2g} against mpmath, {worst_scipy:.2g} against SciPy")
    ends = js.evaluate("[goodputLambertW0(0), goodputLambertW0(-1/Math.E), goodputLambertW0(-0.5), goodputLambertW0(NaN)]")
    assert ends[:2] == [0, -1] and math.isnan(ends[2]) and math.isnan(ends[3])  # NaN outside [-1/e, 0]


# ------------------------------------------------------------------ the parser: the shared table, and the package


def _js_parse(js: Any, kind: str, text: str, options: dict[str, Any]) -> dict[str, Any]:
    return js.evaluate(
        """([kind, text, options]) => {
          const c = goodputCalculator;
          try {
            const v = kind === "duration" ? c.parseDuration(text, options)
              : kind === "whole" ? c.whole(text, 1) : kind === "positive" ? c.positive(text) : c.share(text);
            return {value: v};
          } catch (e) { if (e instanceof c.InputError) { return {error: e.expected}; } throw e; }
        }""",
        [kind, text, options],
    )


@pytest.mark.parametrize("case", CASES["durations"], ids=lambda c: repr(c["text"]))
def test_duration_table_in_the_page(js: Any, case: dict[str, Any]) -> None:
    """The page reads each text of the shared table as the table says, and to the same double as parse_duration."""
    options = {"bareUnit": case.get("bare_unit"), "allowZero": case.get("allow_zero", False)}
    got = _js_parse(js, "duration", case["text"], options)
    if "error" in case:
        assert got == {"error": case["error"]}
    else:
        assert got["value"] == parse_duration(case["text"], "x", bare_unit=case.get("bare_unit"),
                                              allow_zero=case.get("allow_zero", False))
        assert math.isclose(got["value"], case["minutes"], rel_tol=1e-15)


@pytest.mark.parametrize("case", CASES["numbers"], ids=lambda c: f"{c['check']} {c['text']!r}")
def test_number_table_in_the_page(js: Any, case: dict[str, Any]) -> None:
    """The page reads GPU counts, rates and shares as goodput.validate does, for each text of the shared table."""
    got = _js_parse(js, case["check"], case["text"], {})
    assert got == ({"error": case["error"]} if "error" in case else {"value": case["value"]})


def test_durations_as_people_write_them(js: Any) -> None:
    """The page writes durations with goodput.units.format_duration's words, value for value."""
    values = [0.01, 0.5, 2 / 3, 0.999, 1.0, 1.5, 5.0, 9.75, 10.0, 19.287, 99.95, 185.6, 299.9, 300.0, 1234.5,
              2879.0, 2880.0, 77760.0, 400000.0, 525600.0, 2e6, 1e9, 12.3456e-4, 0.0999 / 60, 0.09996 / 60,
              5.9e-5, 1e-9, 1e12 * 525600, 1e308, 6.048e10]
    assert js.evaluate("vs => vs.map(v => goodputCalculator.formatDuration(v))", values) == \
        [format_duration(v) for v in values]


def test_gains_and_waits_as_the_package_writes_them(js: Any) -> None:
    """The page writes a lever's gain (two significant digits under a point) and a wait for repairs ("under 1 ms")
    with goodput.report.gain_text's and goodput.units.format_wait's words, value for value."""
    gains = [0.066, 0.0102, 0.01, 0.00996, 0.00496, 0.00483, 7.1e-5, 6.4e-5, 1e-7, 1e-9, 0.0, -1e-12, -0.043]
    assert js.evaluate("vs => vs.map(v => goodputCalculator.gain(v))", gains) == [gain_text(g, plus=True) for g in gains]
    waits = [0.0, 1e-20, 1.9e-13, 0.0009 / 60, 0.001 / 60, 0.917 / 60, 3.0]
    assert js.evaluate("vs => vs.map(v => goodputCalculator.formatWait(v))", waits) == [format_wait(w) for w in waits]


def test_money_as_the_package_writes_it(js: Any) -> None:
    """The page writes dollars with goodput.report.money's words, billions and "under $1" included (it had written
    a loss of $2.0B a month as "$1985M")."""
    from goodput.report import money

    values = [0.0, 0.457, 0.5, 3.0, 950.4, 4.2e5, 3.78e6, 9.96e8, 1.985e9, 2.6e10, -1.5e6]
    assert js.evaluate("vs => vs.map(v => goodputCalculator.money(v))", values) == [money(v) for v in values]


def test_losses_as_the_package_writes_them(js: Any) -> None:
    """The page writes a loss with goodput.report.percent_sig2's digits, as the command's and the book's loss rows do:
    two significant digits under 1% (0.14% + 0.14%, not 0.1% twice beside a goodput 0.3 points short)."""
    from goodput.report import percent_sig2

    values = [0.0, 1.39e-3, 4.6e-5, 2.3e-7, 0.00995, 0.0104, 0.047, 0.359, 0.9997, 0.99994, 0.99999999, 1.0]
    assert js.evaluate("vs => vs.map(v => goodputCalculator.percentSig2(v))", values) == [percent_sig2(v) for v in values]


def test_shares_as_the_package_writes_them(js: Any) -> None:
    """The page writes a goodput with goodput.report.percent's digits, value for value: one decimal, one significant
    digit for a share that would read as zero, and for what a share short of the whole lacks where it would read as
    all of it (99.95%, not 100.0%)."""
    shares = [0.876, 0.0, 1e-9, 0.00012, 0.999, 0.99949, 0.9995, 0.99962, 0.99996, 1 - 2e-6, 1 - 1e-7, 1.0]
    assert js.evaluate("vs => vs.map(v => goodputCalculator.percent(v))", shares) == [percent(x) for x in shares]


def test_ties_round_to_even_as_python_writes_them(js: Any) -> None:
    """The page's fixed-point digits are Python's format(x, ".{f}f"), exact binary ties rounded half to even: C/T =
    0.75/60 is exactly 1.25%, which the package writes "1.2%" and JavaScript's toFixed "1.3%"."""
    import random

    from goodput.report import money, percent_sig2

    rng = random.Random(20250106)
    values = [1.25, 0.125, 2.5, 0.0125 * 100, 0.5, 1.5, 2.675, 0.375, 1e-7, 0.0, -0.0, -1.25, -0.125, 123456.785,
              99.95, 1e20, 1.5e21]
    values += [rng.randrange(-4000, 4000) / 2 ** rng.randrange(0, 8) for _ in range(300)]  # ties at many places
    values += [rng.uniform(-1000, 1000) for _ in range(200)] + [10 ** rng.uniform(-9, 9) for _ in range(200)]
    cases = [(x, f) for x in values for f in range(7)]
    page = js.evaluate("cs => cs.map(([x, f]) => goodputCalculator.fixed(x, f))", cases)
    wrong = [(x, f, p, f"{x:.{f}f}") for (x, f), p in zip(cases, page, strict=True) if p != f"{x:.{f}f}"]
    assert not wrong, wrong[:10]
    # and where the page writes them: the small fleet's first-order losses at T = 60 min, C = 45 s, and dollars
    shares = [0.0125, 0.00125, 0.125, 0.5]
    assert js.evaluate("vs => vs.map(v => goodputCalculator.percent(v))", shares) == [percent(x) for x in shares]
    assert js.evaluate("vs => vs.map(v => goodputCalculator.percentSig2(v))", shares) == \
        [percent_sig2(x) for x in shares]
    assert percent(0.75 / 60) == "1.2%" and js.evaluate("goodputCalculator.percent(0.75 / 60)") == "1.2%"
    dollars = [1.25e6, 2.5e6, 1.25e9, 2.5e10]
    assert js.evaluate("vs => vs.map(v => goodputCalculator.money(v))", dollars) == [money(v) for v in dollars]


#: The reviewer's small fleet (384 GPUs, M = 40 h, one tier, planned stops), as the form takes it.
SMALL = {"gpus": "384", "mtbi": "40 h", "checkpoint_cost": "45 s", "slow_checkpoint_cost": "4 min",
         "restart": "12 min", "price_per_gpu_hour": "2.2", "month": "730 h", "planned_rate": "0.5 per day"}

_CHART = """q => {
  const c = goodputCalculator, r = c.compute(c.readInputs(q).inputs), holder = document.createElement('div');
  c.drawCurve(holder, r);
  return {ticks: Array.from(holder.querySelectorAll('.gc-axis > text')).map(t => t.textContent),
          lines: holder.querySelectorAll('line.gc-chosen').length,
          labels: Array.from(holder.querySelectorAll('svg > text.gc-label')).map(t => t.textContent),
          optimum: c.formatDuration(r.exact.optimal_interval_min)};
}"""


@pytest.mark.parametrize("q", [SMALL | {"checkpoint_cost": "300 h", "slow_checkpoint_cost": "300 h"}, SMALL,
                               SMALL | {"interval": "2 h"}], ids=["C=300h", "optimum", "T typed"])
def test_the_chart_writes_long_intervals_as_the_book_does_and_marks_the_interval_evaluated(js: Any,
                                                                                           q: dict[str, str]) -> None:
    """The chart's ticks are written as the book's figures write them ("1,000", not "1e+03"), and the interval
    evaluated has its vertical line, as the caption says, also where it is the optimum (no line was drawn)."""
    chart = js.evaluate(_CHART, q)
    assert not [t for t in chart["ticks"] if "e+" in t or "e-" in t], chart["ticks"]
    if q["checkpoint_cost"] == "300 h":
        assert "1,000" in chart["ticks"] and "10,000" in chart["ticks"], chart["ticks"]
    assert chart["lines"] == 1, chart
    evaluated = q.get("interval")
    want = f"T = {format_duration(parse_duration(evaluated, 'interval'))}" if evaluated else \
        f"T = {chart['optimum']}, the optimum"
    assert want in chart["labels"], chart


def test_numbers_keep_their_units_in_the_page_s_prose(js: Any) -> None:
    """The prose the page writes keeps a number with its unit at a line break (U+00A0, as goodput plan's terminal
    wrapping glues them): "over a month of 730\u00a0h", where the page split "730" from "h"."""
    cases = {
        "over a month of 730 h.": "over a month of 730\u00a0h.",
        "start-up 12.24 min (2 min + 6,144 nodes × 0.1 s)": "start-up 12.24\u00a0min (2\u00a0min + 6,144\u00a0nodes × 0.1\u00a0s)",
        "every 1 min 30 s": "every 1\u00a0min\u00a030\u00a0s",
        "16 spare nodes, 60% of interruptions, 12.4 GB per node at 50 GB/s, 3 points": "16\u00a0spare nodes, 60% of "
        "interruptions, 12.4\u00a0GB per node at 50\u00a0GB/s, 3\u00a0points",
        '<span data-value="6.67">6.67 min</span> of work, 5 seconds, 2 hours, 10 mins, 3 hosts': '<span '
        'data-value="6.67">6.67\u00a0min</span> of work, 5 seconds, 2 hours, 10 mins, 3 hosts',
    }
    assert js.evaluate("vs => vs.map(v => goodputCalculator.glue(v))", list(cases)) == list(cases.values())


# ------------------------------------------------------------------ the generated formulas, run in Chromium


def test_generated_formulas_equal_the_package_in_chromium(js: Any) -> None:
    """Every generated function, run by Chromium on 200 random inputs, equals the package's numbers to 1e-12 relative (T*: 1e-10)."""
    rng = np.random.default_rng(7)
    names = list(calculator_formulas())
    rows = []
    for _ in range(200):
        c = float(np.exp(rng.uniform(np.log(1 / 12), np.log(20))))
        m = float(np.exp(rng.uniform(np.log(20), np.log(5000))))
        r = float(np.exp(rng.uniform(np.log(0.5), np.log(40))))
        t = float(np.sqrt(2 * c * m) * np.exp(rng.uniform(-1.2, 1.2)))
        d = float(rng.uniform(0, t))
        cp, rp, s, n = 3.5 * c, 1.7 * r, float(rng.uniform(0, 0.95)), int(rng.integers(1, 30))
        rows.append({"C": c, "M": m, "R": r, "T": t, "D": d, "Cp": cp, "Rp": rp, "s": s, "n": n,
                     "rate": 60 / (m * 1000), "gpus": 1000, "points": float(rng.uniform(0, 1)),
                     "price": float(rng.uniform(0.5, 8)), "month": 720 * 60.0})
    args = {name: list(f.arguments) for name, f in calculator_formulas().items()}
    got = js.evaluate("([rows, args]) => rows.map(x => Object.fromEntries(Object.entries(args).map(([k, a]) => "
                      "[k, goodputFormulas[k](...a.map(n => x[n]))])))", [rows, args])
    assert set(got[0]) == set(names)
    for x, out in zip(rows, got, strict=True):
        c, m, r, t, d = x["C"], x["M"], x["R"], x["T"], x["D"]
        scheme = tiers.Tiers(c, r, drain=d, persistent_cost=x["Cp"], persistent_restart=x["Rp"],
                             fast_survives=x["s"], every=x["n"])
        fo = tiers.first_order_losses(scheme, m, t)  # d < t
        ex = exact.exact_losses(c, m, r, t)
        chain = tiers.exact_losses(tiers.Tiers(c, r, drain=d), m, t)
        phases = tiers._restart_phases(scheme, m)
        expected = {
            "mtbi_from_rate": m,
            "first_order_optimal_interval": model.optimal_interval(c, m),
            "first_order_checkpoint_overhead": model.checkpoint_overhead(t, c),
            "first_order_lost_work": model.lost_work(t, m),
            "first_order_restart_loss": model.restart_loss(r, m),
            "first_order_goodput": model.goodput(c, m, r, t),
            "second_order_term": model.second_order_term(c, m, r, t),
            "exact_optimal_interval": exact.exact_optimal_interval(c, m),
            "exact_checkpoint_overhead": ex.checkpoint_overhead,
            "exact_lost_work": ex.lost_work,
            "exact_restart_loss": ex.restart_loss,
            "exact_goodput": ex.goodput,
            "drain_exact_optimal_interval": max(exact.exact_optimal_interval(c, m), d),
            "drain_exact_checkpoint_overhead": chain.checkpoint_overhead,
            "drain_exact_drain_loss": chain.drain_loss,
            "drain_exact_goodput": chain.goodput,
            "tiers_optimal_interval": tiers.first_order_optimal_interval(scheme, m),
            "tiers_every": tiers.first_order_every(scheme),
            "tiers_checkpoint_overhead": fo.checkpoint_overhead,
            "tiers_lost_work": fo.lost_work,
            "tiers_restart_loss": fo.restart_loss,
            "tiers_drain_loss": fo.drain_loss,
            "tiers_goodput": fo.goodput,
            "tiers_restart_phase": phases[0],
            "tiers_restart_ok": phases[1],
            "tiers_persistent_restart_phase": phases[3],
            "capacity_per_month": model.capacity_per_month(x["points"], x["gpus"], x["price"], x["month"]),
        }
        for name in names:
            tol = 1e-10 if "optimal" in name or "goodput" in name or "lost" in name else 1e-12
            if name == "tiers_goodput":  # the formula is the raw remainder; the package floors it at zero
                out[name] = max(0.0, out[name])
            assert math.isclose(out[name], expected[name], rel_tol=tol, abs_tol=1e-300), (name, x, out[name], expected[name])


# ------------------------------------------------------------------ the first-order verdict and the exact tier model, in Chromium


def test_first_order_verdict_is_the_package_s(js: Any) -> None:
    """The page's verdict on first order is goodput.model.RangeCheck.status, at and around each threshold."""
    edges = [-1.0, -1e-12, 0.0, 1e-12, 0.5, 1.0]
    errors = [-0.02, 0.0, model.FIRST_ORDER_CAUTION, model.FIRST_ORDER_CAUTION + 1e-12, 0.02,
              model.FIRST_ORDER_TOLERANCE, model.FIRST_ORDER_TOLERANCE + 1e-12, 0.5, 3.0]
    cases = [[g, e] for g in edges for e in errors]
    got = js.evaluate("cs => cs.map(([g, e]) => goodputCalculator.rangeStatus(g, e))", cases)
    assert got == [model.RangeCheck(goodput=g, error=e).status for g, e in cases]


def test_the_gap_past_a_threshold_reads_past_it_as_the_command_writes_it(js: Any) -> None:
    """First order refused at 3.02 points read "3.0 points below the exact model (more than 3 points)" on the page,
    where the command writes goodput.report.gap_text's "3.02 points"; a caution at 1.004 likewise."""
    from goodput.report import gap_text

    errors = [0.0302, 0.03004, 0.0312, 0.01004, 0.0104, 0.02]
    got = js.evaluate("es => es.map(e => goodputCalculator.warning({first: {status: goodputCalculator.rangeStatus("
                      "0.5, e), error: e}}))", errors)
    for error, text in zip(errors, got, strict=True):
        assert f" {gap_text(model.RangeCheck(goodput=0.5, error=error))} below the exact model" in text, (error, text)


def random_tier_mappings(count: int, seed: int) -> list[dict[str, str]]:
    """Seeded random tiered fleets as the page's form fields: a drain or none, C_p, R_p or none, s, n given or chosen."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        c = float(np.exp(rng.uniform(np.log(1 / 6), np.log(10))))
        q = {"gpus": str(int(rng.integers(512, 131072))),
             "rate_per_gpu_hour": f"{float(np.exp(rng.uniform(np.log(3e-6), np.log(6e-5)))):.3g}",
             "checkpoint_cost": f"{c:.4g} min", "restart": f"{float(np.exp(rng.uniform(0, np.log(30)))):.4g} min",
             "persistent_cost": f"{c * float(rng.uniform(1.2, 12)):.4g} min",
             "fast_survives": f"{float(rng.uniform(0, 0.98)):.2f}"}
        if rng.random() < 0.7:
            q["drain"] = f"{c * float(np.exp(rng.uniform(0, np.log(30)))):.4g} min"
        if rng.random() < 0.5:
            q["persistent_restart"] = f"{float(q['restart'].split()[0]) * float(rng.uniform(1, 3)):.4g} min"
        if rng.random() < 0.3:
            q["persistent_every"] = str(int(rng.integers(1, 12)))
        out.append(q)
    return out


def _params(q: dict[str, str]) -> Any:
    """The package's Params for the page's form fields."""
    from goodput.params import params_from_mapping

    mapping: dict[str, Any] = {k: v for k, v in q.items() if not k.startswith("persistent_")}
    mapping["persistent"] = {k.removeprefix("persistent_"): v for k, v in q.items() if k.startswith("persistent_")}
    mapping |= {"slow_checkpoint_cost": q["checkpoint_cost"], "price_per_gpu_hour": "2.5", "month": "720 h"}
    return params_from_mapping(mapping)


#: Two levers whose gains differ by less than this may be listed in either order: each gain is within
#: SEARCHED_ABS of the package's, so a near-tie can fall either way.
TIE = 2 * 1e-6


def assert_same_order(shown: list[str], gains: dict[str, float], where: Any) -> bool:
    """`shown` lists the levers of `gains` largest first (goodput plan's order), but for near-ties. Returns whether exactly."""
    want = [name for name, _ in sorted(gains.items(), key=lambda item: -item[1])]
    assert sorted(shown) == sorted(want), (where, shown, want)
    for got_name, want_name in zip(shown, want, strict=True):
        assert abs(gains[got_name] - gains[want_name]) <= TIE, (where, shown, want)
    return shown == want


def test_a_persistent_restart_waits_for_repairs_in_the_page_as_in_the_package(js: Any) -> None:
    """No spare for 24 h repairs at 77%: the page plans R_p as the 32.3 min typed plus R's 7.84 h wait, as
    goodput.params does (same n, interval and goodput), and refuses an R_p below R's 14.2 min in the package's words."""
    from goodput.errors import InputError
    from goodput.params import params_from_mapping

    raw = {"gpus": "64", "gpus_per_node": "8", "mtbi": "3.29 h", "checkpoint_cost": "1.28 min", "restart": "14.24 min",
           "spares": "1", "repair": "24 h", "takes_node": "0.77", "persistent_cost": "2.63 min",
           "persistent_restart": "32.29 min", "fast_survives": "0.5", "price_per_gpu_hour": "2", "month": "730 h"}
    script = ("rows => rows.map(raw => { const c = goodputCalculator, checked = c.readInputs(raw);"
              " return checked.inputs ? c.compute(checked.inputs) : checked; })")
    got, short = js.evaluate(script, [raw, raw | {"persistent_restart": "10 min"}])
    mapping = {"gpus": 64, "gpus_per_node": 8, "mtbi": "3.29 h", "checkpoint_cost": "1.28 min",
               "slow_checkpoint_cost": "12.75 min", "restart": "14.24 min", "price_per_gpu_hour": 2.0, "month": "730 h",
               "spares": {"nodes": 1, "repair": "24 h", "takes_node": 0.77},
               "persistent": {"cost": "2.63 min", "restart": "32.29 min"}, "fast_survives": 0.5}
    plan = plan_for(params_from_mapping(mapping))
    assert plan.tiers is not None and got["exact"]["persistent_every"] == plan.tiers.every
    assert math.isclose(got["exact"]["optimal_interval_min"], plan.optimal_interval, rel_tol=1e-6)
    assert abs(got["exact"]["goodput"] - plan.goodput) <= 1e-6
    with pytest.raises(InputError) as expected:
        params_from_mapping(mapping | {"persistent": {"cost": "2.63 min", "restart": "10 min"}})
    assert short["errors"]["persistent_restart"] == expected.value.expected
    assert expected.value.expected.endswith("(14.2 min before the wait for repairs)")


def test_tiered_plans_in_chromium_equal_plan_for(js: Any) -> None:
    """On 40 seeded tiered fleets the page's plan is goodput.plan.plan_for's: n equal, interval to 1e-6, goodput to 1e-6.

    Also its first-order verdict (the exact plan's RangeCheck.status, the fleet's) and every
    lever of goodput.plan.plan_levers, the persistent tier's included (halve C_p, halve R_p, drain the
    persistent write, set the persistent cadence right), by both models: the same levers, each gain to 1e-6,
    listed largest first as goodput plan lists them (near-ties aside), and its dollars a month.
    """
    fleets = random_tier_mappings(40, 29)
    got = js.evaluate("""rows => rows.map(raw => {
        const c = goodputCalculator, checked = c.readInputs(raw);
        if (!checked.inputs) { return {errors: checked.errors}; }
        const r = c.compute(checked.inputs);
        return r.errors || r.refused ? r : {exact: r.exact, first: r.first, order: c.leverOrder(r.exact.levers),
                                            price: checked.inputs.price, month: checked.inputs.month};
      })""", fleets)
    worst_t = worst_g = worst_lever = worst_dollars = 0.0
    in_order = compared = own_n = 0
    seen: set[str] = set()
    for q, page in zip(fleets, got, strict=True):
        params = _params(q)
        plan = plan_for(params)
        assert "exact" in page, (q, page)
        e = page["exact"]
        assert plan.tiers is not None and e["persistent_every"] == plan.tiers.every, q
        assert math.isclose(e["optimal_interval_min"], plan.optimal_interval, rel_tol=1e-6), q
        assert abs(e["goodput"] - plan.goodput) <= 1e-6, q
        # first order as goodput plan's cross-check: n as given, else its own best n
        first = plan_for(params, which="first-order")
        assert first.tiers is not None and page["first"]["persistent_every"] == first.tiers.every, q
        own_n += first.tiers.every != plan.tiers.every
        for which, package, shown in (("exact", plan, e), ("first-order", first, page["first"])):
            gains = plan_levers(package)
            assert set(shown["levers"]) == set(gains), (q, which)
            for name, value in gains.items():
                assert abs(shown["levers"][name] - value) <= 1e-6, (q, which, name, shown["levers"][name], value)
                dollars = model.capacity_per_month(value, int(q["gpus"]), page["price"], page["month"])
                unit = model.capacity_per_month(1e-6, int(q["gpus"]), page["price"], page["month"])
                assert abs(shown["lever_dollars"][name] - dollars) <= unit, (q, which, name)
                worst_lever = max(worst_lever, abs(shown["levers"][name] - value))
                worst_dollars = max(worst_dollars, abs(shown["lever_dollars"][name] - dollars))
                compared += 1
                seen.add(name)
        in_order += assert_same_order(page["order"], plan_levers(plan), q)
        assert page["first"]["status"] == plan.check.status, q
        worst_t = max(worst_t, abs(e["optimal_interval_min"] / plan.optimal_interval - 1))
        worst_g = max(worst_g, abs(e["goodput"] - plan.goodput))
    assert seen == set(LEVERS) | set(TIER_LEVERS) | set(CAPPED_LEVERS.values())  # every lever was compared
    assert own_n > 0  # some fleets where first order chooses another n than the exact model
    print(f"40 tiered fleets: interval within {worst_t:.2g} relative, goodput within {worst_g:.2g}; {compared} lever "
          f"gains within {worst_lever:.2g} (dollars within ${worst_dollars:.2g} a month); levers in goodput plan's "
          f"order exactly on {in_order} of 40")


def test_the_cadence_search_in_chromium_is_the_package_s(js: Any) -> None:
    """The page's peak finds goodput.tiers.peak's n, value for value, on 200 seeded single-peaked and flat sequences."""
    from goodput.tiers import peak

    rng = np.random.default_rng(41)
    rows = []
    for _ in range(200):
        top = int(rng.integers(1, 1001))
        at, start = (int(rng.integers(1, top + 1)) for _ in range(2))
        values = [float(-abs(n - at) ** rng.uniform(0.5, 2)) for n in range(1, top + 1)]
        if rng.uniform() < 0.1:
            values = [0.0] * top
        rows.append({"values": values, "start": start, "top": top})
    got = js.evaluate("rows => rows.map(r => goodputCalculator.peak(n => r.values[n - 1], r.start, r.top))", rows)
    assert got == [peak(lambda n, v=r["values"]: v[n - 1], r["start"], r["top"]) for r in rows]


@pytest.mark.parametrize("seed", [1, 2])
def test_tier_chain_in_chromium_equals_goodput_tiers(js: Any, seed: int) -> None:
    """The page's port of the chain gives goodput.tiers.exact_losses to 1e-12 at random intervals, s = 1 and n = 1 included."""
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(60):
        c = float(np.exp(rng.uniform(np.log(0.05), np.log(10))))
        m = float(np.exp(rng.uniform(np.log(20), np.log(5000))))
        sc = {"C": c, "R": float(rng.uniform(0.5, 30)), "D": float(rng.choice([0.0, c * rng.uniform(1, 20)])),
              "Cp": c * float(rng.uniform(1, 10)), "s": float(rng.choice([0.0, 1.0, rng.uniform(0, 1)])),
              "n": int(rng.choice([1, 2, 3, int(rng.integers(4, 60))]))}
        sc["Rp"] = sc["R"] * float(rng.uniform(1, 3))
        rows.append((sc, m, max(sc["D"], float(np.sqrt(2 * c * m) * np.exp(rng.uniform(-1, 1))))))
    # chains whose weights underflow or whose chance to stay put rounds to one (a thousand states, s near or at 1,
    # segments far longer than M): the page refused a plan there that goodput plan makes, its weights NaN
    rows += [({"C": 96.2, "R": 13.7, "D": 48.7, "Cp": 1785.0, "Rp": 43.9, "s": s, "n": 1000}, 48.2, 49.8)
             for s in (1.0, 0.999999, 0.5)]
    rows += [({"C": 5.0, "R": 30.0, "D": 0.0, "Cp": 50.0, "Rp": 60.0, "s": 0.99, "n": n}, 20.0, 400.0) for n in (2, 700)]
    got = js.evaluate("rows => rows.map(([sc, m, t]) => goodputCalculator.tierExactLosses(sc, m, t))", rows)
    for (sc, m, t), page in zip(rows, got, strict=True):
        scheme = tiers.Tiers(sc["C"], sc["R"], drain=sc["D"], persistent_cost=sc["Cp"], persistent_restart=sc["Rp"],
                             fast_survives=sc["s"], every=sc["n"])
        want = tiers.exact_losses(scheme, m, t)
        for key, attr in (("goodput", "goodput"), ("checkpoint_overhead", "checkpoint_overhead"),
                          ("restart_loss", "restart_loss"), ("drain_loss", "drain_loss")):
            assert page[key] is not None and math.isfinite(page[key]), (sc, m, t, key, page[key])
            assert abs(page[key] - getattr(want, attr)) <= 1e-12 * max(1.0, abs(getattr(want, attr))), (sc, m, t, key)


# ------------------------------------------------------------------ the built page


def calculator_url(built_book: Path, query: dict[str, str] | None = None) -> str:
    url = (built_book / "book" / "calculator.html").as_uri()
    return url + ("?" + urlencode(query) if query else "")


def _duration_text(rng: np.random.Generator, minutes: float) -> str:
    """A duration as a person might type it, in s, min or h."""
    unit = str(rng.choice(["s", "min", "h"]))
    factor = {"s": 60.0, "min": 1.0, "h": 1 / 60}[unit]
    return f"{minutes * factor:.4g} {unit}"


def random_fleets(count: int = 60, seed: int = 11) -> list[dict[str, str]]:
    """Seeded random fleets as query parameters: a third each one tier, with a drain, with a persistent tier."""
    rng = np.random.default_rng(seed)
    fleets = []
    for i in range(count):
        q: dict[str, str] = {}
        if rng.random() < 0.6:
            q["gpus"] = str(int(rng.integers(512, 131072)))
            q["rate_per_gpu_hour"] = f"{float(np.exp(rng.uniform(np.log(3e-6), np.log(6e-5)))):.3g}"
        else:
            if rng.random() < 0.5:
                q["gpus"] = str(int(rng.integers(512, 131072)))
            q["mtbi"] = _duration_text(rng, float(np.exp(rng.uniform(np.log(15), np.log(20000)))))
        q["checkpoint_cost"] = _duration_text(rng, float(np.exp(rng.uniform(np.log(1 / 6), np.log(10)))))
        q["restart"] = _duration_text(rng, float(np.exp(rng.uniform(np.log(1), np.log(30)))))
        c = parse_duration(q["checkpoint_cost"], "c")
        kind = i % 3
        if kind >= 1:
            q["drain"] = _duration_text(rng, float(c * np.exp(rng.uniform(0, np.log(30)))))
        if kind == 2:
            q["persistent_cost"] = _duration_text(rng, c * float(rng.uniform(1.5, 12)))
            if rng.random() < 0.5:
                q["persistent_restart"] = _duration_text(rng, parse_duration(q["restart"], "r") * float(rng.uniform(1, 3)))
            q["fast_survives"] = f"{float(rng.uniform(0, 0.97)):.2f}"
            if rng.random() < 0.4:
                q["persistent_every"] = str(int(rng.integers(1, 12)))
        if rng.random() < 0.5:
            q["price_per_gpu_hour"] = f"{float(rng.uniform(0.8, 6)):.3g}"
            q["month"] = str(rng.choice(["720 h", "730 h", "30 days", "31 days"]))
        if rng.random() < 0.4:
            d = parse_duration(q["drain"], "d") if "drain" in q else 0.0
            q["interval"] = _duration_text(rng, max(float(np.sqrt(2 * c * 200) * np.exp(rng.uniform(-1, 1.5))), d))
            if parse_duration(q["interval"], "t") < d:  # rounded below the drain: evaluate at the drain itself
                q["interval"] = q["drain"]
        fleets.append(q)
    return fleets


def _inputs(q: dict[str, str]) -> dict[str, Any]:
    """The query's inputs read by the package, in minutes."""
    gpus = validate.whole(q["gpus"], "gpus") if "gpus" in q else None
    if "mtbi" in q:
        mtbi = parse_duration(q["mtbi"], "mtbi")
    else:
        from goodput.params import mtbi_from_rate

        mtbi = float(mtbi_from_rate(validate.positive(q["rate_per_gpu_hour"], "rate"), gpus))
    c, r = parse_duration(q["checkpoint_cost"], "c"), parse_duration(q["restart"], "r")
    t = parse_duration(q["interval"], "t") if "interval" in q else None
    d = parse_duration(q["drain"], "d", allow_zero=True) if "drain" in q else 0.0
    scheme = None
    if "persistent_cost" in q:
        scheme = tiers.Tiers(c, r, drain=d, persistent_cost=parse_duration(q["persistent_cost"], "cp"),
                             persistent_restart=parse_duration(q["persistent_restart"], "rp") if "persistent_restart" in q else None,
                             fast_survives=validate.share(q["fast_survives"], "s"),
                             every=validate.whole(q.get("persistent_every", "1"), "n"))
    price = validate.positive(q["price_per_gpu_hour"], "price") if "price_per_gpu_hour" in q else 2.5
    month = parse_duration(q["month"], "month") if "month" in q else 720 * 60.0
    return {"gpus": gpus, "M": mtbi, "C": c, "R": r, "T": t, "D": d, "scheme": scheme, "price": price, "month": month}


def expected_plans(q: dict[str, str]) -> dict[str, Plan]:
    """The package's plans for a query by model: the exact plan of goodput.plan.make_plan (with a persistent tier, n as
    given or the best whole n), and first order as goodput plan's cross-check (n as given or its own best n)."""
    x = _inputs(q)
    c, m, r, t, d = x["C"], x["M"], x["R"], x["T"], x["D"]
    scheme = x["scheme"]
    tier = {} if scheme is None and d == 0.0 else {"drain": d}
    if scheme is not None:
        tier |= {"persistent_cost": scheme.persistent_cost, "persistent_restart": scheme.persistent_restart,
                 "fast_survives": scheme.fast_survives,
                 "persistent_every": scheme.every if "persistent_every" in q else None}
    exact_plan = make_plan(c, m, r, t, **tier)
    return {"exact": exact_plan, "first-order": make_plan(c, m, r, t, which="first-order", **tier)}


def expected_outputs(q: dict[str, str]) -> dict[tuple[str, str, str], float | None]:
    """What the page must show for a query, by (model, output key, lever), from goodput.plan; None: no number shown.

    The exact plan is goodput.plan.make_plan's (with a persistent tier, n as given or the best whole n); first
    order is goodput plan's cross-check: the first-order plan (n its own where the inputs leave it open), shown only
    when the fleet's verdict (the exact plan's model.RangeCheck.status) lets it be quoted. With a drain and one tier the exact optimum
    is max(T_W, D) (the Lambert-W optimum of goodput.exact, or D), where goodput.plan searches with Brent's
    method (to about 1e-7): the exact interval and the losses that move with it are taken from
    goodput.tiers.exact_losses at max(T_W, D). The capacity rows are goodput.model.capacity_per_month of the
    losses and of each lever, when the GPUs are given.
    """
    x = _inputs(q)
    c, m, r, t, d = x["C"], x["M"], x["R"], x["T"], x["D"]
    scheme = x["scheme"]
    out: dict[tuple[str, str, str], float | None] = {}
    plans = expected_plans(q)
    for which, plan in plans.items():
        values: dict[str, float | None] = {
            "mtbi_min": m, "optimal_interval_min": plan.optimal_interval, "interval_min": plan.interval,
            "checkpoint_overhead": plan.losses.checkpoint_overhead, "lost_work": plan.losses.lost_work,
            "restart_loss": plan.losses.restart_loss, "goodput": plan.goodput}
        if d > 0.0:  # the drain row only with a drain, as goodput plan lists it
            values["drain_loss"] = plan.drain_loss
        if scheme is not None:
            values["persistent_every"] = plan.tiers.every  # type: ignore[union-attr]
            values["persistent_interval_min"] = plan.tiers.every * plan.interval  # type: ignore[union-attr]
        if which == "exact" and d > 0 and scheme is None:
            best = max(float(exact.exact_optimal_interval(c, m)), d)
            b = tiers.exact_losses(tiers.Tiers(c, r, drain=d), m, best if t is None else t)
            values |= {"optimal_interval_min": best, "interval_min": b.interval, "checkpoint_overhead":
                       b.checkpoint_overhead, "lost_work": b.lost_work, "drain_loss": b.drain_loss, "goodput": b.goodput}
        levers: dict[str, float | None] = dict(plan_levers(plan))
        dollars = (lambda points: None) if x["gpus"] is None else (
            lambda points: model.capacity_per_month(points, x["gpus"], x["price"], x["month"]))
        goodput = values["goodput"]
        assert goodput is not None
        values["lost_capacity"] = dollars(1 - goodput)
        # first order is refused by the package's verdict
        if which == "first-order" and not plans["exact"].check.quotable:
            values = {k: (m if k == "mtbi_min" else None) for k in values}
            levers = {k: None for k in levers}
        for key, value in values.items():
            out[(which, key, "")] = value
        for name, value in levers.items():
            out[(which, "levers", name)] = value
    return out


#: How far the page may be from the package where the package searches numerically (the exact optimum of a
#: tiered scheme, by Brent's method to about 1e-7): the interval and what moves with it, relative; goodput and
#: the levers, flat at the optimum, absolute.
SEARCHED_REL = 1e-6
SEARCHED_ABS = 1e-6


def _tolerance(q: dict[str, str], key: tuple[str, str, str]) -> tuple[float, float]:
    """(relative, absolute) agreement asked of one output: REL, or the searched tolerances for a tiered exact plan."""
    if "persistent_cost" in q and key[0] == "exact" and key[1] not in ("mtbi_min", "restart_loss", "persistent_every"):
        return SEARCHED_REL, SEARCHED_ABS
    return REL, ABS


_READ = """() => Array.from(document.querySelectorAll('#goodput-calculator [data-output]')).map(e => ({
  model: e.dataset.model, output: e.dataset.output, lever: e.dataset.lever || '',
  value: e.hasAttribute('data-value') ? Number(e.dataset.value) : null, text: e.textContent,
  hidden: !!e.closest('[hidden]')}))"""


def _relative(got: float, want: float) -> float:
    return 0.0 if abs(got - want) <= ABS else abs(got - want) / abs(want)


def _open(context: Any, url: str, problems: list[str]) -> Any:
    page = context.new_page()
    page.on("console", lambda m: m.type == "error" and problems.append(f"console error: {m.text}"))
    page.on("pageerror", lambda e: problems.append(f"uncaught exception: {e}"))
    page.on("request", lambda r: urlsplit(r.url).scheme in LOCAL_SCHEMES
            or problems.append(f"request outside the site: {r.url}"))
    page.goto(url, wait_until="load")
    page.wait_for_selector("#goodput-calculator[data-ready='true']")
    return page


@pytest.fixture(scope="module")
def context(chromium: Any) -> Any:
    ctx = chromium.new_context(viewport={"width": 1280, "height": 900}, service_workers="block", accept_downloads=True)
    yield ctx
    ctx.close()


@pytest.mark.book
def test_sixty_random_fleets_from_the_address(context: Any, built_book: Path) -> None:
    """For 60 seeded fleets in the address, every number on the page is the package's, and nothing else shows.

    To 1e-9 relative, but for the exact plan of a tiered fleet (a third of them: drain, C_p, R_p, s, n given or
    chosen), which the package finds by a numerical search: its interval to 1e-6 relative, its goodput to
    1e-6, its cadence n equal.
    """
    problems: list[str] = []
    worst = 0.0
    compared = in_order = 0
    settled_seen: set[tuple[str, str]] = set()
    page = None
    for q in random_fleets():
        if page is not None:
            page.close()
        page = _open(context, calculator_url(built_book, q), problems)
        shown = page.evaluate(_READ)
        want = expected_outputs(q)
        seen = set()
        for item in shown:
            if item["hidden"]:
                continue
            key = (item["model"], item["output"], item["lever"])
            assert "NaN" not in item["text"] and "undefined" not in item["text"], (q, item)
            if item["value"] is None:
                assert want.get(key) is None, (q, key, "not shown", want.get(key))
                assert item["text"] == "—", (q, item)
                continue
            assert key in want and want[key] is not None, (q, key, item)
            rel, floor = _tolerance(q, key)
            error = _relative(item["value"], float(want[key]))  # type: ignore[arg-type]
            assert error <= rel or abs(item["value"] - float(want[key])) <= floor, (q, key, item["value"], want[key])  # type: ignore[arg-type]
            if key[1] == "persistent_every":
                assert item["value"] == want[key], (q, key)
            worst = max(worst, error) if rel == REL else worst
            compared += 1
            seen.add(key)
        missing = [k for k, v in want.items() if v is not None and k not in seen]
        assert not missing, (q, missing)
        # a lever the plan is at the optimum of by construction reads as the package writes it, and only that one
        plans = expected_plans(q)
        for item in shown:
            if item["output"] == "levers" and item["value"] is not None and not item["hidden"]:
                plan = plans[item["model"]]
                settled = item["lever"] in levers_at_optimum(plan)
                assert (item["text"] == lever_gain_text(plan, item["lever"], item["value"])) == settled, (q, item)
                if settled:
                    settled_seen.add((item["model"], item["lever"]))
        # the lever rows shown are the exact plan's levers, largest first (near-ties aside), and no other
        rows = [i["lever"] for i in shown if i["model"] == "exact" and i["output"] == "levers" and not i["hidden"]]
        gains = {k[2]: v for k, v in want.items() if k[:2] == ("exact", "levers") and v is not None}
        in_order += assert_same_order(rows, gains, q)
        # the address still holds exactly what was given
        assert {k: v[0] for k, v in parse_qs(urlsplit(page.url).query).items()} == q
    assert page is not None
    page.close()
    assert not problems, problems
    # both levers at the optimum were met, by both models (first order chooses its own n where the inputs leave it)
    assert settled_seen == {(which, lever) for which in ("exact", "first-order")
                            for lever in ("set the interval right", "set the persistent cadence right")}, settled_seen
    print(f"60 fleets: {compared} numbers compared, worst relative error {worst:.3g} where no search is involved; "
          f"levers listed in goodput plan's order exactly on {in_order} of 60")


@pytest.mark.book
def test_typing_updates_the_outputs_and_the_address(context: Any, built_book: Path) -> None:
    """Typing a checkpoint cost and an interval (key by key) changes the numbers to the package's and the address to the inputs."""
    problems: list[str] = []
    page = _open(context, calculator_url(built_book), problems)
    field = page.locator("#gc-checkpoint_cost")
    field.click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Backspace")
    field.press_sequentially("90 s")
    page.locator("#gc-interval").focus()
    page.keyboard.type("40 min")
    plan = make_plan(1.5, 186.0, 5.0, 40.0)
    shown = {(i["model"], i["output"], i["lever"]): i["value"] for i in page.evaluate(_READ) if i["value"] is not None}
    assert math.isclose(shown[("exact", "optimal_interval_min", "")], plan.optimal_interval, rel_tol=REL)
    assert math.isclose(shown[("exact", "goodput", "")], plan.goodput, rel_tol=REL)
    assert math.isclose(shown[("exact", "levers", "set the interval right")],
                        plan_levers(plan)["set the interval right"], rel_tol=REL)
    query = parse_qs(urlsplit(page.url).query)
    assert query["checkpoint_cost"] == ["90 s"] and query["interval"] == ["40 min"] and query["mtbi"] == ["186 min"]
    # the address reopens the same plan
    again = _open(context, page.url, problems)
    assert again.evaluate(_READ) == page.evaluate(_READ)
    again.close()
    # the form is used with the keyboard alone: Tab moves from field to field
    page.locator("#gc-gpus").focus()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "gc-rate_per_gpu_hour"
    page.close()
    assert not problems, problems


@pytest.mark.book
@pytest.mark.parametrize(
    ("field", "text", "message"),
    [
        ("checkpoint_cost", "5 parsecs", "a known unit (ms, s, min, h, days, weeks, years), not 'parsecs'"),
        ("checkpoint_cost", "", "a value"),
        ("restart", "-1 min", "a finite duration greater than zero"),
        ("interval", "90", "(a number needs a unit)"),
        ("rate_per_gpu_hour", "2e-5", "exactly one of a per-GPU rate (with GPUs) or M, not both"),
        ("gpus", "16,384", "a whole number from 1 to 10,000,000"),
        ("fast_survives", "0.5", "a persistent checkpoint cost as well"),
        ("price_per_gpu_hour", "1e308", "above 0 and at most 10,000"),
    ],
)
def test_bad_input_shows_an_alert_and_blanks_every_output(context: Any, built_book: Path, field: str, text: str,
                                                          message: str) -> None:
    """A bad value shows the package's words in the field's role=alert element, and no output keeps a number."""
    problems: list[str] = []
    page = _open(context, calculator_url(built_book), problems)
    if not page.is_visible(f"#gc-{field}"):
        page.click(".gc-tiers summary")  # the drain and persistent tier are folded away at first
    page.fill(f"#gc-{field}", text)
    alert = page.locator(f"#gc-{field}-error")
    assert alert.get_attribute("role") == "alert"
    assert message in alert.inner_text()
    assert page.get_attribute(f"#gc-{field}", "aria-invalid") == "true"
    for item in page.evaluate(_READ):
        assert item["value"] is None and item["text"] == "—", item
    assert page.locator("svg.gc-svg").count() == 0
    assert page.locator("[data-role='download']").is_disabled()
    body = page.inner_text("#goodput-calculator")
    assert "NaN" not in body and "Infinity" not in body
    page.close()
    assert not problems, problems


@pytest.mark.book
def test_an_interval_shorter_than_the_drain_is_refused(context: Any, built_book: Path) -> None:
    """With a 30-minute drain, T = 10 min is refused as goodput.plan refuses it (one drain in flight at a time)."""
    problems: list[str] = []
    q = {"mtbi": "186 min", "checkpoint_cost": "1 min", "restart": "5 min", "drain": "30 min", "interval": "10 min"}
    page = _open(context, calculator_url(built_book, q), problems)
    with pytest.raises(InputError) as info:
        make_plan(1.0, 186.0, 5.0, 10.0, drain=30.0)
    assert page.locator("#gc-interval-error").inner_text() == f"Expected {info.value.expected}."
    assert all(i["value"] is None for i in page.evaluate(_READ))
    page.close()
    assert not problems, problems


def _plan_json(path: Path, *extra: str) -> tuple[int, dict[str, Any] | None]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = goodput_main(["plan", "--params", str(path), "--format", "json", *extra])
    return status, (json.loads(out.getvalue()) if status == 0 else None)


@pytest.mark.book
@pytest.mark.parametrize("q", [
    {"gpus": "16384", "rate_per_gpu_hour": "2.0e-5", "checkpoint_cost": "1 min", "restart": "5 min"},
    {"mtbi": "3.1 h", "checkpoint_cost": "90 s", "restart": "8 min", "interval": "40 min"},
    {"gpus": "32768", "mtbi": "45 min", "checkpoint_cost": "5 min", "restart": "12 min"},
    {"gpus": "24576", "rate_per_gpu_hour": "1.6e-5", "checkpoint_cost": "40 s", "restart": "12 min", "drain": "6 min"},
    {"mtbi": "2 h", "checkpoint_cost": "30 s", "restart": "4 min", "drain": "2 min", "persistent_cost": "6 min",
     "persistent_restart": "10 min", "fast_survives": "0.8", "persistent_every": "4", "interval": "15 min"},
    {"gpus": "65536", "rate_per_gpu_hour": "2.2e-5", "checkpoint_cost": "25 s", "restart": "15 min", "drain": "4 min",
     "persistent_cost": "3 min", "persistent_restart": "25 min", "fast_survives": "0.75", "price_per_gpu_hour": "3.2",
     "month": "730 h"},
    {"gpus": "4096", "mtbi": "9 h", "checkpoint_cost": "2\tmin", "restart": "6 min\t", "price_per_gpu_hour": " 2.75"},
], ids=["rate", "mtbi-and-interval", "out-of-range", "drain", "two-tiers", "tiered-fleet-best-n", "tabs"])
def test_downloaded_params_round_trip_through_goodput_plan(context: Any, built_book: Path, tmp_path: Path,
                                                            q: dict[str, str]) -> None:
    """The downloaded params.yml is complete, and `goodput plan --params` on it prints the page's numbers, by both models.

    Every number to 1e-9 relative, but where the package searches numerically (the exact optimum with a
    drain and no interval given, or with a persistent tier): its optimum comes from Brent's method (about
    1e-7), so the interval and the losses that move with it agree to 1e-6 there, goodput and levers to 1e-6.
    The price and month are those typed, else the worked example's; a tab between number and unit, which
    goodput plan accepts, reaches the file intact.
    """
    problems: list[str] = []
    page = _open(context, calculator_url(built_book, q), problems)
    with page.expect_download() as info:
        page.click("[data-role='download']")
    path = tmp_path / "params.yml"
    info.value.save_as(path)
    shown = {(i["model"], i["output"], i["lever"]): i["value"] for i in page.evaluate(_READ) if i["value"] is not None}
    page.close()
    params = load_params(path)
    x = _inputs(q)
    assert math.isclose(params.mtbi, x["M"], rel_tol=1e-15)
    assert (params.checkpoint_cost, params.restart, params.drain) == (x["C"], x["R"], x["D"])
    assert params.slow_checkpoint_cost == params.checkpoint_cost
    assert (params.price_per_gpu_hour, params.month) == (x["price"], x["month"])
    assert params.gpus == int(q.get("gpus", "16384"))
    if x["scheme"] is not None:
        assert (params.persistent_cost, params.persistent_restart, params.fast_survives, params.persistent_every) == \
            (x["scheme"].persistent_cost, x["scheme"].persistent_restart, x["scheme"].fast_survives,
             int(q["persistent_every"]) if "persistent_every" in q else None)
    extra = ["--interval", q["interval"]] if "interval" in q else []
    for which in ("exact", "first-order"):
        status, plan = _plan_json(path, "--model", which, *extra)
        if which == "first-order" and ("first-order", "goodput", "") not in shown:
            assert status == 1  # refused by the command as by the page
            continue
        assert status == 0 and plan is not None
        assert math.isclose(plan["mtbi_min"], shown[(which, "mtbi_min", "")], rel_tol=REL)
        searched = which == "exact" and ((x["D"] > 0 and "interval" not in q) or x["scheme"] is not None)
        keys = ["interval_min", "optimal_interval_min", "checkpoint_overhead", "lost_work", "restart_loss", "goodput"]
        keys += ["drain_loss"] if params.tiered else []
        keys += ["persistent_every", "persistent_interval_min"] if x["scheme"] is not None else []
        for key in keys:
            tol = 1e-6 if searched and key not in ("goodput", "restart_loss") else REL
            assert math.isclose(plan[key], shown[(which, key, "")], rel_tol=tol, abs_tol=SEARCHED_ABS if searched else 0.0), \
                (which, key)
        assert set(plan["levers"]) == {k[2] for k in shown if k[0] == which and k[1] == "levers"}
        for name, value in plan["levers"].items():
            floor = SEARCHED_ABS if searched else ABS
            assert abs(value - shown[(which, "levers", name)]) <= max(REL * abs(value), floor), (which, name)
    assert not problems, problems


@pytest.mark.book
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_screenshots_in_light_and_dark_mode(context: Any, built_book: Path, theme: str) -> None:
    """Full-page screenshots of the calculator in the theme's light and dark modes, for a person to look at."""
    problems: list[str] = []
    q = {"gpus": "24576", "rate_per_gpu_hour": "1.6e-5", "checkpoint_cost": "40 s", "restart": "12 min",
         "interval": "40 min", "drain": "2 min"}
    page = _open(context, calculator_url(built_book, q), problems)
    page.evaluate(f"document.documentElement.dataset.theme = '{theme}'; document.documentElement.dataset.mode = '{theme}'")
    page.fill("#gc-restart", "12 min x")  # one field in error, to see the alert
    page.fill("#gc-restart", "12 min")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shot = SCREENSHOTS / f"calculator-{theme}.png"
    page.screenshot(path=str(shot), full_page=True)
    colours = page.evaluate("""() => [getComputedStyle(document.querySelector('.gc-table td')).color,
                                      getComputedStyle(document.body).backgroundColor]""")
    assert colours[0] != colours[1]
    page.close()
    assert shot.stat().st_size > 10_000
    assert not problems, problems


#: The reviewer's tiered fleet (/work/notes/tiered48.yml's inputs in the form's fields).
TIERED48 = {"gpus": "49152", "rate_per_gpu_hour": "1.8e-5", "checkpoint_cost": "20 s", "slow_checkpoint_cost": "7 min",
            "drain": "3 min", "persistent_cost": "2 min", "persistent_restart": "22 min", "fast_survives": "0.85",
            "price_per_gpu_hour": "2.8", "month": "730 h", "detect": "1 min", "replace": "3 min", "startup": "2 min",
            "startup_per_node": "0.1 s", "warmup": "2 min", "spares": "16", "repair": "12 h", "takes_node": "0.6"}

_LAYOUT = """() => {
  const lines = (e) => { const r = document.createRange(); r.selectNodeContents(e);  // lines of the label's text
    return Math.round(r.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight)); };
  const shown = (sel) => Array.from(document.querySelectorAll(sel)).filter(e => !e.closest('[hidden]'));
  const svg = document.querySelector('svg.gc-svg');
  return {
    labels: shown('table.gc-table th[scope=row]').map(th => [th.textContent, lines(th)]),
    overflow: shown('table.gc-table').map(t => t.getBoundingClientRect().right - document.documentElement.clientWidth),
    chartText: svg.getBoundingClientRect().width / svg.viewBox.baseVal.width *
      parseFloat(getComputedStyle(svg.querySelector('.gc-axis text')).fontSize),
    note: document.querySelector("[data-role='note']").textContent,
    derived: document.querySelector("[data-role='derived-list']").textContent,
  };
}"""


@pytest.mark.book
def test_labels_have_room_numbers_keep_their_units_and_the_chart_reads(context: Any, built_book: Path) -> None:
    """On the reviewer's tiered fleet: at a 1200 px window no label of the plan or the derived table wraps past two
    lines (they took four or five, the value columns half empty), at 420 px no table runs past the window; the
    chart's text is 12 px or more at 1200 px (it was about 10); the prose keeps numbers with their units."""
    problems: list[str] = []
    page = _open(context, calculator_url(built_book, TIERED48), problems)
    try:
        page.set_viewport_size({"width": 1200, "height": 1000})
        wide = page.evaluate(_LAYOUT)
        assert max(n for _, n in wide["labels"]) <= 2, wide["labels"]
        assert wide["chartText"] >= 12, wide["chartText"]
        assert "over a month of 730\u00a0h" in wide["note"], wide["note"]
        assert "start-up 12.24\u00a0min (2\u00a0min + 6,144\u00a0nodes × 0.1\u00a0s)" in wide["derived"], wide["derived"]
        page.set_viewport_size({"width": 420, "height": 1000})
        narrow = page.evaluate(_LAYOUT)
        assert max(narrow["overflow"]) <= 0, narrow["overflow"]
    finally:
        page.close()
    assert not problems, problems


# ------------------------------------------------------------------ links, the bare page, refusals

#: The tiered fleet of the planner's issue: 65,536 GPUs, M about 42 min, a drain and a persistent tier, $3.2.
TIERED_FLEET = """\
gpus: 65536
rate_per_gpu_hour: 2.2e-5
checkpoint_cost: 25 s
slow_checkpoint_cost: 5 min
restart: 15 min
drain: 4 min
persistent: {cost: 3 min, restart: 25 min}
fast_survives: 0.75
price_per_gpu_hour: 3.2
month: 730 h
"""


@pytest.mark.book
def test_the_fleet_s_link_opens_its_plan(context: Any, built_book: Path, tmp_path: Path) -> None:
    """calculator.link(params), opened from a chapter's folder, shows plan_for's interval, cadence and goodput, and dollars.

    A screenshot of it goes to _build/screenshots/calculator-tiered-fleet.png for a person to look at.
    """
    from goodput.report import money

    path = tmp_path / "fleet.yml"
    path.write_text(TIERED_FLEET, encoding="utf-8")
    params = load_params(path)
    plan = plan_for(params)
    problems: list[str] = []
    page = _open(context, (built_book / "book").as_uri() + "/" + calculator.link(params), problems)
    shown = {(i["model"], i["output"], i["lever"]): i for i in page.evaluate(_READ) if i["value"] is not None}
    assert plan.tiers is not None
    assert shown[("exact", "persistent_every", "")]["value"] == plan.tiers.every
    assert math.isclose(shown[("exact", "optimal_interval_min", "")]["value"], plan.interval, rel_tol=1e-6)
    assert abs(shown[("exact", "goodput", "")]["value"] - plan.goodput) <= 1e-6
    assert shown[("exact", "goodput", "")]["text"] == f"{100 * plan.goodput:.1f}%"
    assert shown[("exact", "optimal_interval_min", "")]["text"] == format_duration(plan.interval)
    lost = model.capacity_per_month(1 - plan.goodput, params.gpus, params.price_per_gpu_hour, params.month)
    assert shown[("exact", "lost_capacity", "")]["text"] == f"{money(lost)} a month"
    halve_r = plan_levers(plan)["halve R"]
    assert money(model.capacity_per_month(halve_r, params.gpus, 3.2, params.month)) in \
        shown[("exact", "levers", "halve R")]["text"]
    # the levers as goodput plan lists them: every one of plan_levers, largest first, in points and dollars
    rows = [i for i in page.evaluate(_READ) if i["model"] == "exact" and i["output"] == "levers" and not i["hidden"]]
    gains = plan_levers(plan)
    assert [i["lever"] for i in rows] == [name for name, _ in sorted(gains.items(), key=lambda item: -item[1])]
    settled = levers_at_optimum(plan)
    assert settled == {"set the interval right", "set the persistent cadence right"}  # the plan chose T and n
    for row in rows:
        dollars = model.capacity_per_month(gains[row["lever"]], params.gpus, 3.2, params.month)
        assert row["text"] == (AT_OPTIMUM if row["lever"] in settled else
                               f"{gain_text(gains[row['lever']], plus=True)}, {money(max(0.0, dollars))} a month"), row
    # first order is out of range here: no first-order number, and the page says why
    assert plan.check.status == "out of range"
    assert not [k for k in shown if k[0] == "first-order" and k[1] != "mtbi_min"]
    assert "no first-order number is shown" in page.inner_text("[data-role='warning']")
    assert page.inner_text("[data-role='origin']").strip() == ""  # inputs came from the address
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "calculator-tiered-fleet.png"), full_page=True)
    page.close()
    assert not problems, problems


@pytest.mark.book
def test_a_lever_that_loses_says_so(context: Any, built_book: Path) -> None:
    """Draining a 30 min persistent write against M = 10 min loses goodput: the page lists it last, as a loss, never
    as a negative number of points or dollars, with the package's value."""
    from goodput.report import money, points

    q = {"gpus": "1024", "mtbi": "10 min", "checkpoint_cost": "1 min", "restart": "1 min", "persistent_cost": "30 min",
         "fast_survives": "0.95"}
    plan = make_plan(1.0, 10.0, 1.0, persistent_cost=30.0, fast_survives=0.95)
    loss = plan_levers(plan)["drain the persistent write as well"]
    assert loss < -0.01  # the case this test is for
    problems: list[str] = []
    page = _open(context, calculator_url(built_book, q), problems)
    rows = [i for i in page.evaluate(_READ) if i["model"] == "exact" and i["output"] == "levers" and not i["hidden"]]
    page.close()
    assert rows[-1]["lever"] == "drain the persistent write as well"
    assert abs(rows[-1]["value"] - loss) <= 1e-6
    dollars = model.capacity_per_month(-loss, 1024, 2.5, 720 * 60.0)
    assert rows[-1]["text"] == f"a loss of {points(-loss)}, {money(dollars)} a month"
    assert not [r for r in rows if "-" in r["text"]]
    assert not problems, problems


@pytest.mark.book
def test_opened_bare_it_says_it_shows_the_worked_example(context: Any, built_book: Path) -> None:
    """With no query the page fills in the worked example and says so; its plan is the worked example's."""
    problems: list[str] = []
    page = _open(context, calculator_url(built_book), problems)
    assert page.inner_text("[data-role='origin']") == calculator.WORKED_EXAMPLE_NOTE
    values = {key: page.input_value(f"#gc-{key}") for key in calculator.worked_example_inputs()}
    assert values == calculator.worked_example_inputs()
    plan = plan_for(load_params())
    shown = {(i["model"], i["output"]): i["text"] for i in page.evaluate(_READ) if i["value"] is not None}
    assert shown[("exact", "optimal_interval_min")] == format_duration(plan.interval)
    assert shown[("exact", "goodput")] == f"{100 * plan.goodput:.1f}%"
    page.close()
    assert not problems, problems


@pytest.mark.book
def test_a_parameter_given_twice_is_refused(context: Any, built_book: Path) -> None:
    """gpus=16384&gpus=8 in the address: refused in the field's alert, not read as its first value; no plan, no file."""
    problems: list[str] = []
    url = calculator_url(built_book) + "?gpus=16384&gpus=8&rate_per_gpu_hour=2e-5&checkpoint_cost=1%20min&restart=5%20min"
    page = _open(context, url, problems)
    assert "not 2" in page.inner_text("#gc-gpus-error")
    assert page.get_attribute("#gc-gpus", "aria-invalid") == "true"
    assert all(i["value"] is None for i in page.evaluate(_READ))
    assert page.locator("[data-role='download']").is_disabled()
    page.fill("#gc-gpus", "16384")  # typing a value clears the refusal
    assert page.inner_text("#gc-gpus-error") == ""
    assert not page.locator("[data-role='download']").is_disabled()
    page.close()
    assert not problems, problems


@pytest.mark.book
def test_no_download_for_inputs_goodput_plan_refuses(context: Any, built_book: Path, tmp_path: Path) -> None:
    """A checkpoint 1,200 times M: goodput plan refuses the file (no plan to make), and the page offers none, saying why."""
    problems: list[str] = []
    q = {"gpus": "100", "mtbi": "1 s", "checkpoint_cost": "20 min", "restart": "1 min"}
    page = _open(context, calculator_url(built_book, q), problems)
    assert page.locator("[data-role='download']").is_disabled()
    note = page.inner_text("[data-role='file-note']")
    assert "goodput plan refuses these inputs" in note and "no plan to make" in note
    assert all(i["value"] is None for i in page.evaluate(_READ))
    page.close()
    path = tmp_path / "refused.yml"
    path.write_text("gpus: 100\nmtbi: 1 s\ncheckpoint_cost: 20 min\nslow_checkpoint_cost: 20 min\nrestart: 1 min\n"
                    "price_per_gpu_hour: 2.5\nmonth: 720 h\n", encoding="utf-8")
    status, _ = _plan_json(path)
    assert status != 0
    assert not problems, problems


@pytest.mark.parametrize("q", [
    {"mtbi": "186 min", "checkpoint_cost": "1 min", "restart": "5 min"},
    {"mtbi": "186 min", "checkpoint_cost": "1 min", "restart": "5 min", "interval": "45 min"},
    {"mtbi": "60 min", "checkpoint_cost": "30 s", "restart": "5 min", "drain": "30 min"},  # the drain bounds T
    {"mtbi": "186 min", "checkpoint_cost": "1 min", "restart": "5 min", "persistent_cost": "5 min",
     "fast_survives": "0.8"},
    {"mtbi": "186 min", "checkpoint_cost": "1 min", "restart": "5 min", "persistent_cost": "1.1 min",
     "fast_survives": "0.1"},  # the best n is 1: fast checkpoints between persistent ones do not pay
    {"mtbi": "2 h", "checkpoint_cost": "30 s", "restart": "4 min", "drain": "2 min", "persistent_cost": "6 min",
     "persistent_restart": "10 min", "fast_survives": "0.8", "persistent_every": "4", "interval": "15 min"},
])
def test_the_recommendation_is_the_command_s_sentence(js: Any, q: dict[str, str]) -> None:
    """The page's bold sentence is goodput.report.recommendation's: "every checkpoint to the persistent tier" and "Fast
    checkpoints between persistent ones do not pay here" at n = 1, "as the inputs fix it", "The interval in use",
    the drain itself where it bounds T (the page wrote "every 1st checkpoint persistent" and "The interval evaluated")."""
    from goodput.params import params_from_mapping
    from goodput.report import recommendation

    got = js.evaluate("""raw => { const c = goodputCalculator, x = c.readInputs(raw).inputs;
        return c.recommendation(c.compute(x)).replace(/<[^>]*>/g, ""); }""", q)
    fields = {k: v for k, v in q.items() if k != "interval"} | {"gpus": "16384"}
    params = _params(fields) if "persistent_cost" in q else params_from_mapping(
        fields | {"slow_checkpoint_cost": q["checkpoint_cost"], "price_per_gpu_hour": "2.5", "month": "720 h"})
    interval = None if "interval" not in q else parse_duration(q["interval"], "interval")
    assert got == recommendation(plan_for(params, interval=interval))
