"""The logs chapter's page object (goodput.pages.logs): values and verdicts, for the worked example and fleets unlike it.

Builds: the worked example (book/params.yml names the bundled sample logs), a fleet that names logs of its
own (copies of the sample logs under other names), one that names only an event log (GLM-130B's, or Slurm
accounting), one that names none, a tiered fleet (examples/fleet-24k.yml: the Weibull simulator knows one
tier, so the page simulates the job of C, M and R alone and says so), a fleet with just-in-time recovery and planned
stops (likewise) and an inputs file the simulator refuses.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from goodput.book import log_tables, variant_text
from goodput.book.data import logs_sources
from goodput.book.paths import GLM_EVENTS, SAMPLE_EVENTS, SAMPLE_SACCT, SAMPLE_STEPS
from goodput.fleet import fleet_plan
from goodput.logs import checks
from goodput.logs.events import measure_events
from goodput.logs.fit import survival_curve
from goodput.logs.measure import measure
from goodput.logs.sacct import FAILURE_STATES, STATE_EVENTS
from goodput.logs.samples import SampleSpec, write_logs
from goodput.logs.sources import Sources
from goodput.pages import Variant
from goodput.pages import logs as pages
from goodput.params import Params, load_params
from goodput.plan import plan_for
from goodput.report import durations_together, percent
from goodput.units import DAY, format_duration, format_rate, significant

ROOT = Path(__file__).resolve().parent.parent

FLEET = """\
gpus: 24576
rate_per_gpu_hour: 1.6e-5
checkpoint_cost: 40 s
slow_checkpoint_cost: 3 min
restart: 12 min
price_per_gpu_hour: 2.1
month: 730 h
"""


def inputs_file(tmp_path: Path, logs: str | None = None, body: str = FLEET, name: str = "fleet.yml") -> Params:
    """A fleet unlike the worked example (C = 40 s, R = 12 min, 24,576 GPUs), with the given ``logs:`` line."""
    path = tmp_path / name
    path.write_text(body + (f"logs: {logs}\n" if logs else ""), encoding="utf-8")
    return load_params(path)


Build = Callable[[Params], pages.Page]


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Build:
    """Build a fleet's page with 100 simulated samples for the shape's coverage and power (the book takes 2,000)."""

    def build(params: Params) -> pages.Page:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(checks, "TRIALS", 100)
            return pages.build(fleet_plan(params), logs_sources(params, ROOT))

    return build


@pytest.fixture(scope="module")
def sources() -> Sources:
    return logs_sources(load_params(ROOT / "book" / "params.yml"), ROOT)


@pytest.fixture(scope="module")
def page(sources: Sources) -> pages.Page:
    """The worked example's page, as the book builds it."""
    return pages.build(fleet_plan(load_params(ROOT / "book" / "params.yml")), sources)


def no_nan(page: pages.Page) -> bool:
    return all(isinstance(v, (str, Variant)) and "nan" not in str(v).lower().split()
               for v in (getattr(page, f.name) for f in dataclasses.fields(page)))


# ---------------------------------------------------------------- which logs (issue #10)


@pytest.mark.slow
def test_worked_example_measures_the_sample_logs_it_names(sources: Sources, page: pages.Page) -> None:
    assert sources.which == "sample" and sources.sample is sources.measured
    assert page.logs_origin == page.own_measured == Variant("sample") and page.sample_which == Variant("same")
    assert page.events_only == Variant("fleet")  # the event log the worked example names is its own
    assert page.model_note == Variant("within") and page.model_caveat == ""  # the sample logs suit first order
    assert (page.steps_name, page.events_name) == ("sample-steps.csv", "sample-events.csv")
    assert no_nan(page)


@pytest.mark.slow
def test_a_fleets_own_logs_are_named_exactly_as_given(tmp_path: Path, quick: Build) -> None:
    """Copies of the sample logs under mixed-case names: the page measures them, names them as written
    (no capitalising, no lower-casing), and measures the sample logs again for the known truth."""
    shutil.copy(ROOT / SAMPLE_STEPS, tmp_path / "Steps-A.csv")
    shutil.copy(ROOT / SAMPLE_EVENTS, tmp_path / "events_B.CSV")
    params = inputs_file(tmp_path, "{steps: Steps-A.csv, events: events_B.CSV}", name="fleetA.yml")
    page = quick(params)
    assert page.logs_origin == page.own_measured == Variant("fleet") and page.sample_which == Variant("other")
    assert (page.inputs_file, page.steps_name, page.events_name) == ("fleetA.yml", "Steps-A.csv", "events_B.CSV")
    assert page.interval == format_duration(plan_for(params).interval)  # the fleet's plan, beside what its logs measure


@pytest.mark.slow
def test_events_only_fleet_measures_its_events_and_demonstrates_the_rest(tmp_path: Path, quick: Build) -> None:
    """GLM-130B's event log alone: C and goodput on the sample logs, the events alone on the fleet's log."""
    page = quick(inputs_file(tmp_path, f"{{events: {ROOT / GLM_EVENTS}}}"))
    e = measure_events(ROOT / GLM_EVENTS)
    assert page.logs_origin == page.own_measured == Variant("events")
    assert page.fleet_events_name == "glm130b-events.csv" and page.events_only == Variant("fleet")
    assert page.events_only_summary.startswith(f"13 failures over {format_duration(e.exposure_min)}")
    assert f"M = {durations_together(e.mtbi_min, *e.mtbi_interval_min)[0]}" in page.events_only_summary
    assert page.steps_name == "sample-steps.csv"
    # the lines to plan with are the fleet's own M and R: they printed the sample logs' 221 failures and their C
    params = inputs_file(tmp_path, f"{{events: {ROOT / GLM_EVENTS}}}")
    lines = log_tables.inputs_lines(logs_sources(params, ROOT).own)
    assert lines.startswith(f"interruptions: {{count: {e.failures}, ") and "checkpoint_cost" not in lines
    assert page.own_range == Variant("events")
    # the M the file plans with against the interval its own log gives M: said either way
    low, high = e.mtbi_interval_min
    assert page.m_against == Variant("inside" if low <= params.mtbi <= high else "outside")
    assert quick(load_params(ROOT / "book" / "params.yml")).m_against == Variant("none")  # the bundled sample logs


@pytest.mark.slow
def test_no_logs_and_slurm_accounting(tmp_path: Path, quick: Build) -> None:
    """No logs: the sample logs throughout. Slurm accounting as the event log: its 6 failures."""
    page = quick(inputs_file(tmp_path))
    assert page.logs_origin == page.own_measured == Variant("none") and page.fleet_events_name == ""
    assert page.sample_which == Variant("same")  # the logs measured above are the sample logs
    sacct = quick(inputs_file(tmp_path, f"{{events: {ROOT / SAMPLE_SACCT}}}"))
    assert sacct.events_only_summary.startswith("6 failures")


# ---------------------------------------------------------------- the full measurement


@pytest.mark.slow
def test_estimators_are_the_measurement(page: pages.Page) -> None:
    m = measure(ROOT / SAMPLE_STEPS, ROOT / SAMPLE_EVENTS, which="first-order")
    from goodput.units import written_minutes

    # each as the page writes it beside its interval (durations_together), to three significant digits
    for text, x in zip((page.c, page.m, page.r), (m.checkpoint_cost_min, m.mtbi_min, m.restart_min), strict=True):
        assert written_minutes(text) == pytest.approx(x, rel=5e-3), text
    assert page.g_meas == percent(m.measured_goodput) and page.g_pred == percent(m.predicted_goodput)
    assert page.pred_side == ("above" if m.predicted_goodput >= m.measured_goodput else "below")
    assert page.widest_name == "M"  # a count of failures has the widest relative interval here


def test_losses_add_up_to_the_gap(sources: Sources) -> None:
    """The four contributions add to predicted minus measured goodput (the loss_comparison identity)."""
    pairs = log_tables.loss_pairs(sources.measured)
    assert sum(a - b for a, b in pairs.values()) == pytest.approx(sources.measured.gap, abs=1e-12)
    assert len(log_tables.losses(sources.measured)) == 5


@pytest.mark.slow
def test_truth_is_inside_and_the_table_is_formatted(sources: Sources, page: pages.Page) -> None:
    """Three true inputs inside their intervals, five counts equal; the table prints durations, counts and a
    percentage, not raw floats (1.01667, 4.95574, 0.865544)."""
    assert (page.n_inside, page.n_interval_rows, page.n_match, page.n_counted_rows) == ("3", "3", "5", "5")
    assert page.inside_c == page.inside_m == page.inside_r == "inside"
    table = log_tables.truth(sources.sample, sources.truth).set_index("quantity")
    assert table.loc["checkpoint cost", "interval high"] == format_duration(sources.sample.checkpoint_cost_interval_min[1], 4)
    assert table.loc["unexpected interruptions", "measured"] == f"{sources.measured.failures:,}"
    assert table.loc["goodput", "measured"] == percent(sources.measured.measured_goodput, 2)
    assert not any("." in cell and cell.replace(".", "").isdigit() for cell in table.to_numpy().ravel())


# ---------------------------------------------------------------- GLM-130B and the shape


@pytest.mark.slow
def test_glm_counts_and_m(page: pages.Page) -> None:
    """31 stops: 11 unplanned + 2 ambiguous (13 failures) and 18 planned on 768 GPUs; M = exposure / 13, and
    exposure / 11 with the ambiguous stops planned; the rate is 13 over the GPU-hours exposed."""
    e = measure_events(ROOT / GLM_EVENTS)
    assert (page.glm_stops, page.glm_unplanned, page.glm_ambiguous, page.glm_planned) == ("31", "11", "2", "18")
    assert page.glm_failures == "13 failures" and page.glm_gpus == "768"
    assert page.glm_window == "6 May to 3 July 2022"
    assert page.glm_m == durations_together(e.exposure_min / 13, *e.mtbi_interval_min)[0]
    value, unit = page.glm11_m.split()  # written with its own interval, to that interval's decimals
    assert unit == "days" and abs(float(value) - e.exposure_min / 11 / DAY) <= 0.05
    assert page.glm_rate == format_rate(13 / (768 * e.exposure_min / 60))
    table = log_tables.glm(logs_sources(load_params(ROOT / "book" / "params.yml"), ROOT)).set_index("quantity")
    assert table.loc["failures", "measured here"] == "13"


@pytest.mark.slow
def test_shape_and_the_claims_the_chapter_makes_of_it(sources: Sources, page: pages.Page) -> None:
    """The fit's shape and interval; the chapter writes that shape 0.5 lies below GLM-130B's interval and that
    neither counting rule shows a shape below 1: both hold of the fits. Coverage and the test's size are near
    their nominal 95% and 5% at 2,000 samples; the sample logs (true shape 1) have 1 inside."""
    fit, clear = sources.glm.fit, sources.glm_clear.fit
    assert fit is not None and clear is not None
    assert page.glm_k == f"{fit.shape:.3g}" and page.infant_where == "outside"
    assert fit.shape_interval[0] > checks.INFANT_SHAPE and clear.shape_interval[0] > checks.INFANT_SHAPE
    assert all(f.shape_interval[1] >= 1.0 for f in (fit, clear))
    assert page.sample_k_inside == "inside"
    assert 0.90 <= float(page.trust_coverage.rstrip("%")) / 100 <= 0.98
    assert float(page.trust_size.rstrip("%")) / 100 <= 0.10


def test_survival_figure_steps_fall() -> None:
    e = measure_events(ROOT / GLM_EVENTS)
    _, survival = survival_curve(e.gaps, [e.open_gap_min])
    assert len(survival) == 13 and survival[0] < 1.0 and all(a >= b for a, b in itertools.pairwise(survival))


def _value(text: str) -> float:
    return float(text.split(maxsplit=1)[0].rstrip("%").replace("−", "-").lstrip("+"))


@pytest.mark.slow
def test_shape_effect_on_the_fleets_plan(page: pages.Page) -> None:
    """A one-tier fleet is simulated at its own plan (18.6 min, 87.6%): exponential failures reproduce the exact
    model within 4 standard errors (plus the rounding of two printed decimals)."""
    plan = plan_for(load_params(ROOT / "book" / "params.yml"))
    assert page.sim_scope == Variant("fleet") and page.sim_t == format_duration(plan.interval) == "18.6 min"
    assert page.sim_g_model == percent(plan.goodput, 2)
    goodput, stderr = page.sim_g_exp.split(" ± ")
    assert abs(_value(goodput) - 100 * plan.goodput) <= 4 * _value(stderr) + 0.005
    assert page.sim_result == Variant("small" if _value(page.sim_largest) < 0.5 else "large")
    assert page.sim_total == "200,000" and page.sim_runs == "32"
    assert page.sim_shape == Variant("glm")  # the sample logs are exponential by construction: GLM-130B's shape shown


@pytest.mark.slow
def test_a_tiered_fleet_is_simulated_as_a_one_tier_job_and_says_so(quick: Build) -> None:
    """examples/fleet-24k.yml has a drain and a persistent tier: the simulation is of a one-tier job with its
    C, M and R at that job's optimum, never called the fleet's plan."""
    params = load_params(ROOT / "examples" / "fleet-24k.yml")
    page = quick(params)
    one, full = plan_for(params.without_tiers()), plan_for(params)
    assert page.sim_scope == Variant("cmr_alone")
    assert page.sim_t == format_duration(one.interval) != format_duration(full.interval)
    assert page.sim_g_model == percent(one.goodput, 2)


@pytest.mark.slow
def test_a_recovered_fleet_is_simulated_as_the_job_of_its_c_m_and_r_alone(quick: Build) -> None:
    """One tier, but 60% of interruptions recovered just in time and planned stops: the Weibull simulator models
    neither, so the simulated job is that of C, M and R alone at its own optimum, whose exact goodput is that job's
    (lower than the fleet's), and exponential failures reproduce it, not the fleet's."""
    params = load_params(ROOT / "book" / "params.yml").replace(just_in_time=0.6, jit_recovery=0.75, planned_rate=0.03)
    fleet = fleet_plan(params)
    assert fleet.recovered and not fleet.tiered
    alone = plan_for(params.replace(just_in_time=0.0, planned_rate=0.0))
    what = checks.fleet_shape_effect(fleet, measure_events(ROOT / GLM_EVENTS).fit)  # type: ignore[arg-type]
    assert what.job.interval == pytest.approx(alone.interval) and what.job.goodput == pytest.approx(alone.goodput)
    assert fleet.goodput - alone.goodput > 0.01
    assert what.effect is not None
    assert abs(what.effect.exponential - alone.goodput) <= 4 * what.effect.exponential_stderr + 1e-4
    page = quick(params)
    assert page.sim_scope == Variant("cmr_alone") and page.beyond_cmr
    assert page.sim_t == format_duration(alone.interval) and page.sim_g_model == percent(alone.goodput, 2)


@pytest.mark.slow
def test_inputs_the_simulator_refuses_still_build(tmp_path: Path, quick: Build) -> None:
    """One interruption in one second: the simulator refuses the job, the page says so, no NaN anywhere."""
    body = FLEET.replace("rate_per_gpu_hour: 1.6e-5", "interruptions: {count: 1, window: 1 s}").replace(
        "restart: 12 min", "restart: 5 min")  # accepted by `goodput plan` (R/M = 300), goodput about 0%
    page = quick(inputs_file(tmp_path, body=body))
    assert page.sim_result == Variant("refused") and page.sim_refused and page.sim_g_exp == ""
    assert no_nan(page)


# ---------------------------------------------------------------- Slurm and your own logs


@pytest.mark.slow
def test_sacct_sample(sources: Sources, page: pages.Page) -> None:
    """10 attempts, 6 failures, the last still running; the states table is the reader's mapping."""
    table = log_tables.sacct_attempts(sources.sacct)
    assert len(table) == 10 and (table["counts as"] == "failure").sum() == 6
    assert table["counts as"].iloc[-1] == "still running" and page.sacct_attempts == "10 attempts"
    states = log_tables.sacct_states()
    assert states["state"].tolist() == list(STATE_EVENTS)
    assert states.loc[states["counts as"] == "failure", "state"].tolist() == list(FAILURE_STATES)


@pytest.mark.slow
def test_measured_range_brackets_the_measured_plan(sources: Sources, page: pages.Page) -> None:
    """The range of T* from the measured intervals contains the exact optimum at the measured point values."""
    from goodput.plan import make_plan

    m = sources.measured
    point = make_plan(m.checkpoint_cost_min, m.mtbi_min, m.restart_min)
    assert page.own_range == Variant("ranged")
    assert _value(page.own_t_low) <= round(point.interval, 1) <= _value(page.own_t_high)


def test_inputs_lines_load_back(tmp_path: Path, sources: Sources) -> None:
    """The printed lines make a valid inputs file whose M is the measured exposure over the failures."""
    m = sources.measured
    body = FLEET.replace("rate_per_gpu_hour: 1.6e-5\n", "").replace("checkpoint_cost: 40 s\n", "")
    loaded = inputs_file(tmp_path, body=body.replace("restart: 12 min\n", "") + log_tables.inputs_lines(m) + "\n")
    assert loaded.mtbi == pytest.approx(m.exposure_min / m.failures, rel=1e-3)
    assert math.isclose(loaded.checkpoint_cost, m.checkpoint_cost_min, rel_tol=1e-3)


def test_rows_as_written(sources: Sources) -> None:
    """The step rows shown include a checkpoint and the first step after a restart, with file line numbers."""
    steps, events = log_tables.step_rows(sources.steps_path), log_tables.event_rows(sources.events_path)
    assert steps["line"].iloc[0] == 2 and "after the restart: back to a checkpoint" in steps["note"].tolist()
    assert events["line"].iloc[0] == 2 and "stop" in events["event"].str.strip().tolist()


@pytest.mark.slow
def test_logs_that_cannot_be_read_are_named_and_the_samples_measured(tmp_path: Path, quick: Build) -> None:
    """A step log with a bad checkpoint flag: the chapter still builds, on the sample logs, and quotes the reader's
    one-line error (file, line, value, what was expected)."""
    (tmp_path / "steps.csv").write_text("step,start,end,checkpoint\n1,0,10,0\n2,10,20,x\n", encoding="utf-8")
    shutil.copy(ROOT / SAMPLE_EVENTS, tmp_path / "events.csv")
    page = quick(inputs_file(tmp_path, "{steps: steps.csv, events: events.csv}"))
    assert page.logs_origin == page.own_measured == Variant("unreadable") and page.sample_which == Variant("same")
    assert "steps.csv" in page.logs_error and "line 3" in page.logs_error and "'x'" in page.logs_error
    assert page.steps_name == "sample-steps.csv" and no_nan(page)


@pytest.mark.slow
def test_logs_without_a_failure(tmp_path: Path, quick: Build) -> None:
    """The sample logs cut before their first failure: M has only a lower end, R and the lost work are not
    measured, and the page and the table say so rather than print an undefined mean."""
    events = (ROOT / SAMPLE_EVENTS).read_text(encoding="utf-8").splitlines()
    (tmp_path / "events.csv").write_text("\n".join([*events[:2], "2025-01-06T01:02:00Z,stop"]) + "\n", encoding="utf-8")
    steps = (ROOT / SAMPLE_STEPS).read_text(encoding="utf-8").splitlines()
    kept = [row for row in steps[1:] if row.split(",")[2] < "2025-01-06T01:02:00Z"]
    (tmp_path / "steps.csv").write_text("\n".join([steps[0], *kept]) + "\n", encoding="utf-8")
    params = inputs_file(tmp_path, "{steps: steps.csv, events: events.csv}")
    page = quick(params)
    assert page.failures == "0 failures" and page.m == "unbounded"
    assert page.r_estimate == Variant("too_few") and page.lost_estimate == Variant("none")
    assert page.own_range == Variant("too_few") and no_nan(page)
    shown = [variant_text(page, f.name, ROOT / "book") for f in dataclasses.fields(page)
             if isinstance(getattr(page, f.name), Variant)]
    assert not any("undefined" in text for text in shown)
    table = log_tables.estimates(logs_sources(params, ROOT).measured)
    assert "undefined" not in " ".join(table.to_numpy().ravel())


@pytest.mark.slow
def test_own_logs_where_first_order_is_out_of_range_are_predicted_by_the_exact_model(tmp_path: Path,
                                                                                     quick: Build) -> None:
    """Logs of a job with M = 95 min, C = 2 min, R = 14 min: first order is 5 points off at the measured inputs, so
    it predicts nothing. The page printed "undefined (nan points below the measurement)" and "-nan points"; it now
    predicts by the exact model, as `goodput measure` does, and says why."""
    write_logs(tmp_path, SampleSpec(seed=7, step_s=60.0, interval_steps=15, checkpoint_cost_min=2.0, restart_min=14.0,
                                    mtbi_min=95.0, duration_min=5 * DAY))
    params = inputs_file(tmp_path, "{steps: steps.csv, events: events.csv}")
    page = quick(params)
    command = measure(tmp_path / "steps.csv", tmp_path / "events.csv")  # the command's default: the exact model
    assert not command.prediction_check.quotable and command.prediction_model == "exact"
    assert (page.predicted_by, page.ck_why, page.model_note) == (Variant("exact"),) * 3
    assert page.g_pred == percent(command.predicted_goodput) and no_nan(page)
    assert page.model_caveat.startswith("First order is ") and page.pred_name == "the exact model"
    assert page.ck_relation == ("below" if command.checkpoint_loss_measured < command.checkpoint_loss_predicted
                                else "above")
    measured = logs_sources(params, ROOT).measured
    tables = [log_tables.estimates(measured), log_tables.losses(measured)]
    assert "predicted (exact model)" in tables[1].columns
    # the shape simulated is the one its own event log measures, not GLM-130B's
    own = measure_events(tmp_path / "events.csv").fit
    assert own is not None and page.sim_shape == Variant("own") and page.sim_k == significant(own.shape, 3)
    assert not any("nan" in str(v).lower() or "undefined" in str(v) for t in tables for v in t.to_numpy().ravel())


def test_truth_intervals_use_the_chapters_digits_unless_the_truth_is_at_an_end(page: pages.Page) -> None:
    """The sample's truth table writes intervals as the measured paragraph does (R's '4.81 min to 5.10 min' both
    times); more digits only where the truth would read the same as an end it is not."""
    assert page.range_r == page.r_range and page.range_m == page.m_range and page.range_c == page.c_range
    assert page.meas_r == page.r and page.meas_c == page.c
    assert pages._digits(5.0, 4.96, 4.81, 5.1) == 3 and pages._digits(5.0, 4.96, 5.0, 5.1) == 3
    assert pages._digits(5.0, 4.96, 4.81, 5.0004) == 5


def _unit_and_decimals(text: str) -> tuple[str, int]:
    number, unit = text.removeprefix("both ").split(" ")
    return unit, len(number.partition(".")[2])


def test_durations_that_share_a_sentence_are_written_alike(page: pages.Page, sources: Sources) -> None:
    """R's mean, interval, median and quartiles (and C's, T's, the lost work's, GLM-130B's gaps) are in one unit with
    one number of decimals, each the measured value rounded: never '5.1 min' beside '4.81 min' and '4 min 59 s'."""
    m = sources.measured
    sets = {
        "R": [page.r, *page.r_range.split(" to "), page.r_median, *page.r_quartiles.split(" to ")],
        "C": [page.c, *page.c_range.split(" to "), *page.c_quartiles.split(" to ")],
        "T": [page.t, page.t_quartiles],
        "lost": [page.lost, *page.lost_quartiles.split(" to ")],
        "gaps": [*page.glm_gap_range.split(" to "), page.glm_gap_median, page.glm_open],
        "relaunches": [page.glm_r, page.glm_r_median, page.glm_r_max],
        "M": [page.glm_m, *page.glm_m_range.split(" to ")],
    }
    for name, texts in sets.items():
        assert len({_unit_and_decimals(text) for text in texts}) == 1, name
    values = [m.restart_min, *m.restart_interval_min, m.restart_median_min, *m.restart_iqr_min]
    assert [float(text.split()[0]) for text in sets["R"]] == [round(x, 2) for x in values]
    assert durations_together(4.96, 4.81, 5.1, 299 / 60) == ["4.96 min", "4.81 min", "5.10 min", "4.98 min"]
    assert durations_together(math.inf, 170.0) == ["unbounded", "170 min"]


def test_equal_quartiles_are_said_once(page: pages.Page) -> None:
    """The sample checkpoints every 20 min exactly: its interval's quartiles are said once ('both 20.0 min')."""
    assert page.t_quartiles == f"both {page.t}"
    assert pages._quartiles("4 min", "5 min") == "4 min to 5 min"


@pytest.mark.slow
def test_shape_differences_keep_the_digits_of_their_standard_errors(quick: Build, tmp_path: Path) -> None:
    """A fleet whose goodput is 99%: the simulated differences are thousandths of a point, so each is written to the
    decimals of its standard error ('−0.002 points ± 0.003 points'), never '−0.00 points ± 0.00 points'."""
    body = FLEET.replace("checkpoint_cost: 40 s", "checkpoint_cost: 1 s").replace("restart: 12 min", "restart: 1 min")
    page = quick(inputs_file(tmp_path, body=body.replace("24576", "1024")))
    for key in ("sim_d_k", "sim_d_low", "sim_d_high"):
        diff, se = getattr(page, key).split(" ± ")
        assert _value(se) > 0, (key, getattr(page, key))
        assert len(diff.split()[0].split(".")[1]) == len(se.split()[0].split(".")[1]), (key, getattr(page, key))


@pytest.mark.slow
def test_the_shapes_simulated_are_the_interval_the_chapter_names(page: pages.Page) -> None:
    """The ends of GLM-130B's shape interval simulated are its fitted ends, written as the chapter writes the
    interval (3 significant digits), so "across the interval" is the interval's own."""
    assert f"{page.sim_k_low} to {page.sim_k_high}" == page.glm_k_range
    fit = measure_events(ROOT / GLM_EVENTS).fit
    assert fit is not None
    low, high = fit.shape_interval
    assert abs(float(page.sim_k_low) - low) <= 0.005 * low and abs(float(page.sim_k_high) - high) <= 0.005 * high


def test_the_infant_shapes_gain_is_explained_where_it_gains(page: pages.Page) -> None:
    """Shape 0.5 gains on the simulated job (+1.44 points for the worked example: bunched failures strike during
    restarts): the page explains the sign where the simulation measures a gain, says it costs where it loses, and has
    nothing to explain where the simulation was refused."""
    from goodput.logs.fit import ShapeEffect

    assert page.infant_sign == Variant("gains") and page.sim_d_infant.startswith("+")
    assert pages.infant_sign(None) == "refused"

    def effect(d: float, se: float) -> ShapeEffect:
        return ShapeEffect(shapes=(1.0,) * 4, goodput=(0.8,) * 4, stderr=(0.001,) * 4, exponential=0.8,
                           exponential_stderr=0.001, difference=(0.0, 0.0, 0.0, d), difference_stderr=(0.0, 0.0, 0.0, se),
                           interval=1.0, horizon=1.0, seed=1)

    assert [pages.infant_sign(effect(d, 0.0003)) for d in (0.0144, -0.0144, 0.0004)] == ["gains", "loses", "unclear"]
