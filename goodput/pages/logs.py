"""The chapter on measuring from logs (book/logs.md): what the logs measured give, and the data the book ships.

GLM-130B's event log, its Weibull fit and Slurm's sample accounting are the same in every build. The simulated effect
of a Weibull shape (:mod:`goodput.logs.checks`) is run for the fleet's plan where that plan is the model of C, M and R
alone or, where it has a drain, tiers, just-in-time recovery or planned stops (none of which the Weibull simulator
models), for the job of its C, M and R alone, labelled so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from goodput.fleet import FleetPlan
from goodput.hazards import measurable
from goodput.logs.checks import (
    EFFECT_SEED,
    INFANT_SHAPE,
    SIM_FAILURES,
    fleet_shape_effect,
    m_against_logs,
    own_ranges,
    shape_trust,
)
from goodput.logs.events import EventMeasurement
from goodput.logs.fit import ShapeEffect, WeibullFit
from goodput.logs.measure import loss_comparison, surviving_checkpoint_loss
from goodput.logs.samples import recovery
from goodput.logs.sources import Sources
from goodput.model import optimal_interval
from goodput.pages import Variant
from goodput.pages.common import Fleet, fleet_values
from goodput.params import rate_from_mtbi
from goodput.report import (
    MODEL_NAMES,
    count,
    day_text,
    durations_together,
    events_summary,
    first_order_problem,
    interval_text,
    p_value_text,
    percent,
    percent_pm,
    points,
    se_digits,
    shape_interval_text,
    shape_verdict,
    signed_points,
)
from goodput.simulate import DEFAULT_REPLICAS
from goodput.units import format_duration, format_rate, significant

_CLOCK_WORDS = {"seconds": "times in seconds", "iso8601": "ISO-8601 times without a UTC offset",
                "iso8601 with UTC offsets": "ISO-8601 times with a UTC offset"}


@dataclass(frozen=True)
class Page(Fleet):
    """The logs chapter's glue keys."""

    logs_origin: Variant
    logs_error: str
    steps_name: str
    events_name: str
    fleet_events_name: str
    n_steps: str
    steps_clock: str
    n_events: str
    events_clock: str
    wall: str
    planned_down: str
    planned_stops: str
    exposure: str
    failures: str
    attempts: str
    conf: str
    gap0: str
    c: str
    c_n: str
    c_range: str
    c_quartiles: str
    m: str
    m_range: str
    widest_name: str
    r_estimate: Variant
    r: str
    r_n: str
    r_range: str
    r_median: str
    r_quartiles: str
    t: str
    t_quartiles: str
    t_opt: str
    lost_estimate: Variant
    redone_steps: str
    lost: str
    lost_quartiles: str
    g_meas: str
    predicted_by: Variant
    pred_name: str
    g_pred: str
    gap_pts: str
    pred_side: str
    model_note: Variant
    model_caveat: str
    ck_why: Variant
    ck_relation: str
    ck_meas: str
    ck_pred: str
    ck_expected: str
    ck_adds: str
    lw_adds: str
    rs_adds: str
    unmodelled: str
    unmodelled_pts: str
    sample_seed: str
    sample_days: str
    sample_step: str
    sample_every: str
    sample_jitter_c: str
    sample_jitter_r: str
    sample_pause: str
    sample_pause_share: str
    sample_maint: str
    sample_maint_every: str
    sample_which: Variant
    truth_t: str
    truth_c: str
    truth_m: str
    truth_r: str
    meas_c: str
    meas_m: str
    meas_r: str
    range_c: str
    range_m: str
    range_r: str
    inside_c: str
    inside_m: str
    inside_r: str
    n_inside: str
    n_interval_rows: str
    n_match: str
    n_counted_rows: str
    counted_names: str
    events_only: Variant
    events_only_summary: str
    glm_gpus: str
    glm_window: str
    glm_stops: str
    glm_unplanned: str
    glm_ambiguous: str
    glm_planned: str
    glm_failures: str
    glm_planned_measured: str
    glm_attempts: str
    glm_wall: str
    glm_running: str
    glm_recovery: str
    glm_planned_down: str
    glm_exposure: str
    glm_m: str
    glm_m_range: str
    glm_m_factor: str
    glm_rate: str
    glm_rate_published: str
    glm11_failures: str
    glm11_m: str
    glm11_m_range: str
    glm_r: str
    glm_r_median: str
    glm_r_n: str
    glm_r_max: str
    glm_r_unrecorded: str
    glm_gaps: str
    glm_gap_range: str
    glm_gap_median: str
    glm_open: str
    glm_k: str
    glm_k_method: str
    glm_k_conf: str
    glm_k_range: str
    glm_scale: str
    glm_fit_mean: str
    glm_lr: str
    glm_p: str
    glm_verdict: str
    infant_shape: str
    infant_where: str
    infant_p: str
    trust_trials: str
    trust_coverage: str
    trust_size: str
    trust_power: str
    trust_level: str
    glm11_k: str
    glm11_k_range: str
    glm11_p: str
    sample_gaps: str
    sample_k: str
    sample_k_range: str
    sample_k_inside: str
    sim_scope: Variant
    sim_result: Variant
    sim_shape: Variant
    sim_close: Variant
    sim_k: str
    sim_t: str
    sim_g_model: str
    sim_total: str
    sim_runs: str
    sim_seed: str
    sim_g_exp: str
    sim_g_k: str
    sim_d_k: str
    sim_k_low: str
    sim_k_high: str
    sim_d_low: str
    sim_d_high: str
    sim_d_infant: str
    infant_sign: Variant
    sim_largest: str
    sim_refused: str
    sacct_records: str
    sacct_steps: str
    sacct_never: str
    sacct_attempts: str
    sacct_summary: str
    own_measured: Variant
    m_against: Variant
    own_m_range: str
    own_range: Variant
    own_t_low: str
    own_t_high: str
    own_g_low: str
    own_g_high: str


#: Said after an interval written to more digits than the chapter's other intervals, since the truth is near an end.
_CLOSE = ", to more digits than above since the true value lies near an end"


def _digits(truth: float, measured: float, low: float, high: float) -> int:
    """Digits that show an interval as the chapter does (three), or more where the truth reads as an end it is not.

    The interval is written with its estimate (:func:`goodput.report.durations_together`); an end equal to the truth reads the same at any
    digits, so it does not count.
    """
    ends = [i for i, x in enumerate((low, high)) if not math.isclose(x, truth, rel_tol=1e-9)]
    for digits in range(3, 6):
        texts = durations_together(measured, truth, low, high, digits=digits)
        if texts[1] not in [texts[2 + i] for i in ends]:
            return digits
    return 6


def _quartiles(low: str, high: str) -> str:
    """Two quartiles, written alike, as ``"4.04 min to 5.87 min"``, or ``"both 20.0 min"`` where they read the same."""
    return f"both {low}" if low == high else f"{low} to {high}"


def _spread(estimate: float, interval: tuple[float, float] = (math.nan, math.nan), median: float = math.nan,
            quartiles: tuple[float, float] = (math.nan, math.nan)) -> tuple[str, str, str, str]:
    """An estimate, its interval, median and quartiles, written alike (:func:`goodput.report.durations_together`).

    An interval with an undefined end is ``"no interval"``; what is not given is read as that too, and not quoted.
    """
    e, a, b, md, c, d = durations_together(estimate, *interval, median, *quartiles)
    return e, "no interval" if any(map(math.isnan, interval)) else f"{a} to {b}", md, _quartiles(c, d)


def _fit(e: EventMeasurement) -> WeibullFit:
    if e.fit is None:  # pragma: no cover - the bundled logs have a dozen gaps and more
        raise ValueError(f"{e.events_source}: no Weibull fit ({e.fit_problem})")
    return e.fit


def infant_sign(effect: ShapeEffect | None) -> str:
    """What the infant-mortality shape's simulation does to goodput: ``gains``, ``loses``, ``unclear`` or ``refused``.

    A change only where :func:`goodput.hazards.measurable` calls it one (two standard errors or more).
    """
    if effect is None:
        return "refused"
    d, se = effect.difference[3], effect.difference_stderr[3]
    return "unclear" if not measurable(d, se) else "gains" if d > 0 else "loses"


def build(fleet: FleetPlan, data: Sources) -> Page:
    """The logs chapter's values for one fleet and the logs its build reads."""
    m, spec, table = data.measured, data.truth.spec, recovery(data.sample, data.truth)
    adds = {name: row.adds for name, row in loss_comparison(m).items()}
    intervals, counted = table.loc[["C", "M", "R"]], table.drop(index=["C", "M", "R"])
    rows = table.to_dict("index")
    glm, clear, kinds = data.glm, data.glm_clear, data.glm_kinds
    fit, clear_fit, sample_fit = _fit(glm), _fit(clear), _fit(data.sample_events)
    low, high = fit.shape_interval
    trust = shape_trust(glm, fit)
    gpus = data.glm_record.gpus or 0
    # the shape simulated: the fleet's own, measured from the event log it names, where one can be fitted; else GLM-130B's
    own_fit = data.fleet_events.fit if data.which in ("fleet", "events") else None
    what = fleet_shape_effect(fleet, own_fit or fit)
    job, shapes, effect = what.job, what.shapes, what.effect
    sim = dict.fromkeys(
        ("sim_g_exp", "sim_g_k", "sim_d_k", "sim_d_low", "sim_d_high", "sim_d_infant", "sim_largest"), "")
    if effect is not None:
        d, ds = effect.difference, effect.difference_stderr
        digits = se_digits(max(ds[:3]))  # the differences to the digits their standard errors justify
        sim = {"sim_g_exp": percent_pm(effect.exponential, effect.exponential_stderr),
               "sim_g_k": percent_pm(effect.goodput[0], effect.stderr[0]), "sim_largest": points(what.largest, digits),
               **{key: f"{signed_points(d[i], se_digits(ds[i]))} ± {points(ds[i], se_digits(ds[i]))}"
                  for i, key in enumerate(("sim_d_k", "sim_d_low", "sim_d_high", "sim_d_infant"))}}
    r = own_ranges(m)
    own = dict(zip(("own_t_low", "own_t_high", "own_g_low", "own_g_high"), [""] * 4 if r is None else
                   [*map(format_duration, r.optimal_interval_range), *map(percent, r.goodput_range)], strict=True))
    fleet_events = data.fleet_events_path
    # first order where it holds at the measured inputs, else the exact model (goodput.logs.measure.measure_explained)
    by = "first_order" if m.prediction_model == "first-order" else "exact"
    problem = first_order_problem(m.prediction_check) if m.prediction_check is not None else None
    truth = {k: [float(rows[k][col]) for col in ("measured", "truth", "low", "high")] for k in "CMR"}
    truth_digits = {k: _digits(*truth[k]) for k in "CMR"}
    shown = {k: durations_together(*truth[k], digits=truth_digits[k]) for k in "CMR"}
    c, c_range, _, c_quartiles = _spread(m.checkpoint_cost_min, m.checkpoint_cost_interval_min,
                                         quartiles=m.checkpoint_cost_iqr_min)
    mtbi, m_range, _, _ = _spread(m.mtbi_min, m.mtbi_interval_min)
    r_mean, r_range, r_median, r_quartiles = _spread(m.restart_min, m.restart_interval_min, m.restart_median_min,
                                                     m.restart_iqr_min)
    t, _, _, t_quartiles = _spread(m.interval_measured_min, quartiles=m.interval_iqr_min)
    lost, _, _, lost_quartiles = _spread(m.lost_work_per_failure_min, quartiles=m.lost_work_iqr_min)
    glm_m, glm_m_range, _, _ = _spread(glm.mtbi_min, glm.mtbi_interval_min)
    glm11_m, glm11_m_range, _, _ = _spread(clear.mtbi_min, clear.mtbi_interval_min)
    glm_r, glm_r_median, glm_r_max = durations_together(glm.restart_min, glm.restart_median_min, max(glm.restarts_min))
    glm_gap_median, gap_low, gap_high, glm_open = durations_together(glm.gap_median_min, *glm.gap_range_min, glm.open_gap_min)
    return Page(
        **fleet_values(fleet), logs_origin=Variant(data.which), logs_error=data.error, steps_name=data.steps_path.name,
        events_name=data.events_path.name, fleet_events_name=fleet_events.name if fleet_events is not None else "",
        n_steps=f"{len(data.steps):,}", steps_clock=_CLOCK_WORDS[data.steps.clock], n_events=f"{len(data.events):,}",
        events_clock=_CLOCK_WORDS[data.events.clock], wall=format_duration(m.wall_min),
        planned_down=format_duration(m.planned_downtime_min), planned_stops=count(m.planned_stops, "planned stop"),
        exposure=format_duration(m.exposure_min), failures=count(m.failures, "failure"),
        attempts=count(m.attempts, "attempt"), conf=f"{m.confidence:.0%}", gap0=format_duration(m.ordinary_gap_min),
        c=c, c_n=f"{m.checkpoint_samples:,}", c_range=c_range, c_quartiles=c_quartiles,
        m=mtbi, m_range=m_range, widest_name=m.widest,
        r_estimate=Variant("measured" if m.restart_samples >= 2 else "too_few"),
        r=r_mean if m.restart_samples else "not timed", r_n=count(m.restart_samples, "restart"),
        r_range=r_range, r_median=r_median, r_quartiles=r_quartiles, t=t,
        t_quartiles=t_quartiles, t_opt=format_duration(float(optimal_interval(m.checkpoint_cost_min, m.mtbi_min))),
        lost_estimate=Variant("measured" if m.failures else "none"), redone_steps=f"{m.redone_steps:,}",
        lost=lost, lost_quartiles=lost_quartiles,
        g_meas=percent(m.measured_goodput), g_pred=percent(m.predicted_goodput), gap_pts=points(abs(m.gap)),
        pred_side="above" if m.gap >= 0 else "below",
        predicted_by=Variant(by), pred_name=MODEL_NAMES[m.prediction_model], ck_why=Variant(by),
        model_note=Variant("exact" if by == "exact" else "within"),
        model_caveat=problem[0].upper() + problem[1:] if problem else "",
        ck_relation="below" if m.checkpoint_loss_measured < m.checkpoint_loss_predicted else "above",
        ck_meas=percent(m.checkpoint_loss_measured), ck_pred=percent(m.checkpoint_loss_predicted),
        ck_expected=percent(surviving_checkpoint_loss(m.checkpoint_cost_min, m.interval_min, m.measured_goodput)),
        ck_adds=signed_points(float(adds["checkpoint overhead"])), lw_adds=signed_points(float(adds["lost work"])),
        rs_adds=signed_points(float(adds["restart"])), unmodelled=percent(m.unmodelled_loss),
        unmodelled_pts=points(m.unmodelled_loss), sample_seed=f"{spec.seed}",
        sample_days=format_duration(spec.duration_min), sample_step=format_duration(spec.step_s / 60.0),
        sample_every=f"{spec.interval_steps}", sample_jitter_c=f"{spec.checkpoint_jitter:.0%}",
        sample_jitter_r=f"{spec.restart_jitter:.0%}", sample_pause=format_duration(spec.pause_mean_s / 60.0),
        sample_pause_share=f"{spec.pause_probability:.1%}", sample_maint=format_duration(spec.maintenance_min),
        sample_maint_every=format_duration(spec.maintenance_every_min or 0.0),
        sample_which=Variant("same" if data.sample is data.measured else "other"),
        **{f"truth_{k.lower()}": format_duration(float(rows[k]["truth"])) for k in "TCMR"},
        **{f"{name}_{k.lower()}": value for k in "CMR" for name, value in (
            ("meas", shown[k][0]), ("range", " to ".join(shown[k][2:]) + (_CLOSE if truth_digits[k] > 3 else "")),
            ("inside", "inside" if rows[k]["agrees"] else "outside"))},
        n_inside=f"{int(intervals['agrees'].sum())}",
        n_interval_rows=f"{len(intervals)}", n_match=f"{int(counted['agrees'].sum())}",
        n_counted_rows=f"{len(counted)}", counted_names=", ".join(counted["quantity"]),
        events_only=Variant("sample" if fleet_events is None else "fleet"),
        events_only_summary=events_summary(data.fleet_events), glm_gpus=f"{gpus:,}",
        glm_window=f"{day_text(data.glm_record.window_start)} to {day_text(data.glm_record.window_end, year=True)}",
        glm_stops=f"{sum(kinds.values())}",
        **{f"glm_{k}": f"{kinds.get(k, 0)}" for k in ("unplanned", "ambiguous", "planned")},
        glm_failures=count(glm.failures, "failure"), glm_planned_measured=count(glm.planned_stops, "planned stop"),
        glm_attempts=count(glm.attempts, "attempt"), glm_wall=format_duration(glm.wall_min),
        glm_running=format_duration(glm.running_min), glm_recovery=format_duration(glm.recovery_min),
        glm_planned_down=format_duration(glm.planned_downtime_min), glm_exposure=format_duration(glm.exposure_min),
        glm_m=glm_m, glm_m_range=glm_m_range,
        glm_m_factor=f"{glm.mtbi_interval_min[1] / glm.mtbi_interval_min[0]:.1f}",
        glm_rate=format_rate(float(rate_from_mtbi(glm.mtbi_min, gpus))),
        glm_rate_published=format_rate(data.glm_record.table_rate), glm11_failures=count(clear.failures, "failure"),
        glm11_m=glm11_m, glm11_m_range=glm11_m_range, glm_r=glm_r, glm_r_median=glm_r_median,
        glm_r_n=count(glm.restart_samples, "relaunch", "relaunches"), glm_r_max=glm_r_max,
        glm_r_unrecorded=f"{glm.restarts_unrecorded}", glm_gaps=count(fit.gaps, "complete gap"),
        glm_gap_range=f"{gap_low} to {gap_high}", glm_gap_median=glm_gap_median, glm_open=glm_open, glm_k=significant(fit.shape, 3), glm_k_method=fit.method,
        glm_k_conf=f"{fit.confidence:.0%}",
        glm_k_range=shape_interval_text(fit), glm_scale=format_duration(fit.scale),
        glm_fit_mean=format_duration(fit.mean), glm_lr=f"{fit.lr_statistic:.2f}", glm_p=p_value_text(fit.p_value),
        glm_verdict=shape_verdict(fit), infant_shape=f"{INFANT_SHAPE:g}",
        infant_where="inside" if low <= INFANT_SHAPE <= high else "outside", infant_p=p_value_text(trust.p_infant),
        trust_trials=f"{trust.trials:,}", trust_coverage=f"{trust.coverage:.0%}", trust_size=f"{trust.size:.0%}",
        trust_power=f"{trust.power:.0%}", trust_level=f"{trust.level:.0%}", glm11_k=significant(clear_fit.shape, 3),
        glm11_k_range=shape_interval_text(clear_fit), glm11_p=p_value_text(clear_fit.p_value),
        sample_gaps=count(sample_fit.gaps, "gap"), sample_k=significant(sample_fit.shape, 3),
        sample_k_range=shape_interval_text(sample_fit),
        sample_k_inside="inside" if sample_fit.exponential_inside else "outside",
        sim_scope=Variant("fleet" if fleet.plain else "cmr_alone"),
        sim_result=Variant("refused" if effect is None else "small" if what.small else "large"),
        sim_shape=Variant("own" if own_fit is not None else "glm"), sim_k=significant((own_fit or fit).shape, 3),
        sim_close=Variant(f"{'small' if what.small else 'large'}_{'own' if own_fit is not None else 'glm'}"),
        infant_sign=Variant(infant_sign(effect)),
        sim_t=format_duration(job.interval), sim_g_model=percent(job.goodput, 2), sim_total=f"{SIM_FAILURES:,}",
        sim_runs=f"{DEFAULT_REPLICAS}", sim_seed=f"{EFFECT_SEED}", sim_k_low=f"{shapes[1]:g}",
        sim_k_high=f"{shapes[2]:g}", sim_refused=what.refused, **sim,
        sacct_records=count(len(data.sacct.attempts) + data.sacct.never_started, "job record"),
        sacct_steps=count(data.sacct.steps_skipped, "step record"),
        sacct_never=count(data.sacct.never_started, "record"),
        sacct_attempts=count(len(data.sacct.attempts), "attempt"), sacct_summary=events_summary(data.sacct_events),
        own_measured=Variant(data.which),
        # the fleet's own logs against the M it plans with (a 40k fleet: 57.4 min measured, 48.8 min planned)
        m_against=Variant(m_against_logs(data.own, fleet.params.mtbi) if data.which in ("fleet", "events") else "none"),
        own_m_range=interval_text(*data.own.mtbi_interval_min) if data.own.failures else "", own_range=Variant("events" if data.which == "events" else "too_few" if r is None else "ranged"), **own,
    )
