"""Unit tests of goodput.pages.logs, the chapter on measuring from logs.

Each test states the result it checks: which logs a build measures and how the page says so (issue #10),
GLM-130B's numbers against the data set's own counts, the Weibull fit's numbers against the fit itself, and
the simulated effect of a shape against the exact model. Builds are the worked example (book/params.yml, which
names the sample logs), a fleet unlike it that names only an event log (GLM-130B's or Slurm accounting), and
one that names no logs at all.
"""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import pandas as pd
import pytest

from goodput.logs.events import measure_events
from goodput.logs.measure import measure
from goodput.pages import logs as pages_logs
from goodput.params import load_params
from goodput.plan import plan_for
from goodput.report import percent
from goodput.units import format_duration

ROOT = Path(__file__).resolve().parent.parent
BOOK_PARAMS = ROOT / "book" / "params.yml"

FLEET = """\
gpus: 24576
rate_per_gpu_hour: 1.6e-5
checkpoint_cost: 40 s
slow_checkpoint_cost: 3 min
restart: 12 min
price_per_gpu_hour: 2.1
month: 730 h
"""


def fleet(tmp_path: Path, logs: str | None) -> Path:
    """A fleet unlike the worked example (C = 40 s, R = 12 min, 24,576 GPUs), with the given logs: line."""
    path = tmp_path / "fleet.yml"
    path.write_text(FLEET + (f"logs: {logs}\n" if logs else ""), encoding="utf-8")
    return path


def strings_and_numbers(values: dict[str, object]) -> bool:
    return all(isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in values.values())


# ---------------------------------------------------------------- which logs (issue #10)


def test_worked_example_names_the_sample_logs_and_says_it_is_a_demonstration() -> None:
    """book/params.yml names the bundled sample logs: the page measures them and says they are not a fleet's."""
    params = load_params(BOOK_PARAMS)
    logs = pages_logs.logs_for(params, ROOT)
    assert logs.fleet_pair and logs.sample
    text = pages_logs.intro(params, ROOT)["logs_origin"]
    assert "demonstrates the method" in text and "not on a fleet's logs" in text


def test_no_logs_named_says_plainly_these_are_not_your_logs(tmp_path: Path) -> None:
    """A fleet naming no logs: the sample logs are measured and the page says they are not the fleet's."""
    params = load_params(fleet(tmp_path, None))
    logs = pages_logs.logs_for(params, ROOT)
    assert not logs.fleet_pair and logs.sample and logs.fleet_events is None
    text = pages_logs.intro(params, ROOT)["logs_origin"]
    assert "names no logs" in text and "not your fleet's" in text
    assert "names no event log" in pages_logs.events_only(params, ROOT)["events_only_text"]
    assert "names no logs" in pages_logs.own(params, ROOT)["own_measured"]


def test_events_only_fleet_measures_its_events_and_demonstrates_the_rest(tmp_path: Path) -> None:
    """A fleet naming only GLM-130B's event log: C and goodput on the sample logs (said so), the events alone on
    the fleet's log: 13 failures, M = exposure / 13."""
    params = load_params(fleet(tmp_path, f"{{events: {ROOT / pages_logs.GLM_EVENTS}}}"))
    logs = pages_logs.logs_for(params, ROOT)
    assert logs.sample and not logs.fleet_pair and logs.fleet_events is not None
    assert "no step log" in pages_logs.intro(params, ROOT)["logs_origin"]
    assert "sample logs" in pages_logs.own(params, ROOT)["own_measured"]
    text = pages_logs.events_only(params, ROOT)["events_only_text"]
    e = measure_events(ROOT / pages_logs.GLM_EVENTS)
    assert "glm130b-events.csv" in text and "13 failures" in text and format_duration(e.mtbi_min) in text


def test_fleet_naming_slurm_accounting(tmp_path: Path) -> None:
    """An event log given as sacct output is recognised and measured alone: 6 failures in the bundled sample."""
    params = load_params(fleet(tmp_path, f"{{events: {ROOT / pages_logs.SAMPLE_SACCT}}}"))
    assert "6 failures" in pages_logs.events_only(params, ROOT)["events_only_text"]


# ---------------------------------------------------------------- the full measurement


def test_estimators_are_the_measurement_written_as_durations() -> None:
    """C, M and R on the page are format_duration of the measurement; goodputs are percentages."""
    params = load_params(BOOK_PARAMS)
    m = measure(ROOT / pages_logs.SAMPLE_STEPS, ROOT / pages_logs.SAMPLE_EVENTS, which="first-order")
    values = pages_logs.estimators(params, ROOT)
    assert values["c"] == format_duration(m.checkpoint_cost_min)
    assert values["m"] == format_duration(m.mtbi_min)
    assert values["r"] == format_duration(m.restart_min)
    assert values["g_meas"] == percent(m.measured_goodput) and values["g_pred"] == percent(m.predicted_goodput)
    assert strings_and_numbers(values)


def test_loss_table_adds_up_to_the_gap() -> None:
    """The four losses' contributions add to predicted minus measured goodput (the loss_comparison identity)."""
    params = load_params(BOOK_PARAMS)
    pairs = pages_logs.loss_pairs(params, ROOT)
    m = pages_logs.full_measurement(params, ROOT)
    total = sum(measured - predicted for measured, predicted in pairs.values())
    assert total == pytest.approx(m.gap, abs=1e-12)


def test_truth_section_finds_every_true_input_inside() -> None:
    """On the sample logs the three true inputs lie inside their intervals and the five counts match."""
    values = pages_logs.truth(load_params(BOOK_PARAMS), ROOT)
    assert (values["n_inside"], values["n_match"]) == (3, 5)
    assert values["inside_c"] == values["inside_m"] == values["inside_r"] == "inside"


# ---------------------------------------------------------------- GLM-130B and the shape


def test_glm_counts_are_the_data_sets() -> None:
    """31 stops: 11 unplanned + 2 ambiguous (13 failures measured) and 18 planned; 768 GPUs, 6 May to 3 July 2022;
    with the ambiguous stops planned, 11 failures over the same exposure (their downtime is zero)."""
    values = pages_logs.glm(load_params(BOOK_PARAMS), ROOT)
    assert (values["glm_stops"], values["glm_unplanned"], values["glm_ambiguous"], values["glm_planned"]) == (
        "31", "11", "2", "18")
    assert values["glm_failures"] == "13 failures" and values["glm_gpus"] == "768"
    assert (values["glm_from"], values["glm_to"]) == ("6 May", "3 July 2022")
    e = measure_events(ROOT / pages_logs.GLM_EVENTS)
    assert values["glm_m"] == format_duration(e.mtbi_min)
    assert values["glm11_m"] == format_duration(e.exposure_min / 11)


def test_glm_table_has_both_columns() -> None:
    """The comparison table: one row per quantity, the team's notes next to the measurement."""
    table = pages_logs.glm_table(load_params(BOOK_PARAMS), ROOT)
    assert list(table.columns) == ["quantity", "the team's notes and paper", "measured here", "note"]
    row = table.set_index("quantity").loc["failures"]
    assert row["the team's notes and paper"] == "11 + 2 ambiguous" and row["measured here"] == "13"


def test_shape_section_reports_the_fit_and_its_interval() -> None:
    """The page's shape, interval and p-value are the fit's; 0.5 lies outside GLM-130B's interval; the sample
    logs (true shape 1) have 1 inside theirs; coverage and power are shares."""
    values = pages_logs.shape(load_params(BOOK_PARAMS), ROOT)
    fit = measure_events(ROOT / pages_logs.GLM_EVENTS).fit
    assert fit is not None
    low, high = fit.shape_interval
    assert values["glm_k"] == f"{fit.shape:.3g}" and values["glm_k_range"] == f"{low:.2g} to {high:.2g}"
    assert values["infant_where"] == "outside" and values["sample_k_inside"] == "inside"
    for key in ("trust_coverage", "trust_power", "trust_size"):
        assert str(values[key]).endswith("%")
    assert "no infant mortality" in str(values["infant_conclusion"])


def test_survival_figure_inputs() -> None:
    """Kaplan-Meier steps fall from below 1 to the last complete gap; three curves, the fit first."""
    data = pages_logs.glm_survival(load_params(BOOK_PARAMS), ROOT)
    survival = data["survival"]
    assert isinstance(survival, list) and len(survival) == 13 and survival[0] < 1.0
    assert all(a >= b for a, b in itertools.pairwise(survival))
    curves = data["curves"]
    assert isinstance(curves, dict) and next(iter(curves)).startswith("Weibull fit")


def test_shape_goodput_exponential_matches_the_exact_model(tmp_path: Path) -> None:
    """The simulated exponential goodput at the recommended interval is within 4 standard errors of the exact
    model's, for the worked example and for a fleet unlike it; for those (no drain, one tier) the interval is
    plan_for's recommendation."""
    for path in (BOOK_PARAMS, fleet(tmp_path, None)):
        params = load_params(path)
        values = pages_logs.shape_goodput(params, ROOT)
        plan = plan_for(params)
        effect = pages_logs._effect(params.checkpoint_cost, params.mtbi, params.restart, plan.interval,
                                    pages_logs._shapes(ROOT))
        assert abs(effect.exponential - plan.goodput) < 4 * effect.exponential_stderr
        assert values["sim_t"] == format_duration(plan.interval)
        assert values["sim_g_model"] == percent(plan.goodput, 2)
        assert "recommends" in values["sim_scope"]


def test_tiered_fleet_is_compared_as_one_level() -> None:
    """A fleet with a drain and a persistent tier (examples/fleet-24k.yml): the Weibull simulator draws a one-level
    job, so the comparison is at that job's exact optimum, and the page says so."""
    params = load_params(ROOT / "examples" / "fleet-24k.yml")
    assert params.tiered
    values = pages_logs.shape_goodput(params, ROOT)
    one = pages_logs.one_level_plan(params)
    assert values["sim_t"] == format_duration(one.interval) and "beyond the Weibull simulator" in values["sim_scope"]


def test_shape_goodput_table_rows() -> None:
    """Five rows: exponential, GLM-130B's shape, the two ends of its interval and 0.5."""
    table = pages_logs.shape_goodput_table(load_params(BOOK_PARAMS), ROOT)
    assert len(table) == 5 and table["shape"].tolist()[-1] == "0.5"


# ---------------------------------------------------------------- Slurm


def test_sacct_states_table_is_the_readers_mapping() -> None:
    """One row per mapped state; the failures are exactly the reader's failure states."""
    from goodput.logs.sacct import FAILURE_STATES, STATE_EVENTS

    table = pages_logs.sacct_states_table()
    assert table["state"].tolist() == list(STATE_EVENTS)
    assert table.loc[table["counts as"] == "failure", "state"].tolist() == list(FAILURE_STATES)
    assert table["why"].str.len().min() > 10


def test_sacct_sample_attempts() -> None:
    """The bundled sample: 10 attempts, 6 failures, the last still running."""
    table = pages_logs.sacct_attempts(load_params(BOOK_PARAMS), ROOT)
    assert len(table) == 10 and (table["counts as"] == "failure").sum() == 6
    assert table["counts as"].iloc[-1] == "still running"


# ---------------------------------------------------------------- every page function


@pytest.mark.parametrize("name", ["intro", "formats", "exposure", "estimators", "gap", "truth", "events_only",
                                  "glm", "shape", "shape_goodput", "sacct", "own"])
def test_page_functions_return_text_and_numbers(tmp_path: Path, name: str) -> None:
    """Every glued mapping holds only text and numbers, for the worked example and an events-only fleet."""
    for path in (BOOK_PARAMS, fleet(tmp_path, f"{{events: {ROOT / pages_logs.GLM_EVENTS}}}")):
        values = getattr(pages_logs, name)(load_params(path), ROOT)
        assert values and strings_and_numbers(values)
        assert not any(isinstance(v, float) and math.isnan(v) for v in values.values())


def test_inputs_lines_are_a_valid_inputs_file(tmp_path: Path) -> None:
    """The printed lines, added to a fleet's file, load: M as a count over the exposure, C and R with ranges."""
    params = load_params(BOOK_PARAMS)
    lines = pages_logs.inputs_lines(params, ROOT)
    body = FLEET.replace("rate_per_gpu_hour: 1.6e-5\n", "").replace("checkpoint_cost: 40 s\n", "")
    body = body.replace("restart: 12 min\n", "")
    path = tmp_path / "measured.yml"
    path.write_text(body + lines + "\n", encoding="utf-8")
    loaded = load_params(path)
    m = pages_logs.full_measurement(params, ROOT)
    assert loaded.mtbi == pytest.approx(m.exposure_min / m.failures, rel=1e-3)


def test_tables_are_frames() -> None:
    """Every table function returns a non-empty DataFrame."""
    params = load_params(BOOK_PARAMS)
    for name in ("step_rows", "event_rows", "estimates_table", "loss_table", "truth_table", "glm_table",
                 "shape_goodput_table", "sacct_attempts"):
        table = getattr(pages_logs, name)(params, ROOT)
        assert isinstance(table, pd.DataFrame) and len(table) > 0, name


def test_glue_keys_are_unique_across_the_chapter(tmp_path: Path) -> None:
    """No two page functions glue the same key (myst-nb refuses a duplicate), and every key the chapter uses is
    glued by one of them."""
    import re

    params = load_params(BOOK_PARAMS)
    seen: dict[str, str] = {}
    for name in ("intro", "formats", "exposure", "estimators", "gap", "truth", "events_only", "glm", "shape",
                 "shape_goodput", "sacct", "own"):
        for key in getattr(pages_logs, name)(params, ROOT):
            assert key not in seen, f"{key} glued by {seen.get(key)} and {name}"
            seen[key] = name
    used = set(re.findall(r"\{glue:text\}`(\w+)", (ROOT / "book" / "logs.md").read_text(encoding="utf-8")))
    assert used <= set(seen), used - set(seen)
