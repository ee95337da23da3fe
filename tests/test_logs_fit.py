"""Tests of goodput.logs.fit: the Weibull fit to the gaps between failures, its interval and its tests."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy import stats

from goodput.errors import InputError
from goodput.logs.fit import (
    FIT_PROBLEMS,
    coverage,
    fit_problem,
    fit_weibull,
    power,
    shape_effect,
    shape_test,
    survival_curve,
)


def sample(shape: float, n: int, seed: int, scale: float = 100.0) -> np.ndarray:
    return np.asarray(stats.weibull_min.rvs(shape, scale=scale, size=n, random_state=np.random.default_rng(seed)))


@pytest.mark.parametrize(("shape", "n", "seed"), [(0.5, 13, 1), (0.7, 40, 2), (1.0, 200, 3), (2.5, 25, 4)])
def test_mle_matches_scipy_weibull_min_fit(shape: float, n: int, seed: int) -> None:
    """The root of the profile score equation is the MLE scipy.stats.weibull_min.fit(floc=0) finds, shape and scale."""
    x = sample(shape, n, seed)
    fit = fit_weibull(x)
    k, _, lam = stats.weibull_min.fit(x, floc=0)
    assert_allclose(fit.shape, k, rtol=1e-5)
    assert_allclose(fit.scale, lam, rtol=1e-5)
    assert_allclose(fit.log_likelihood, stats.weibull_min.logpdf(x, fit.shape, scale=fit.scale).sum(), rtol=1e-10)


def test_censored_mle_matches_scipy_censored_data() -> None:
    """With right-censored gaps the MLE is scipy's on CensoredData, and the log-likelihood adds log S(c) for each."""
    x, c = sample(0.8, 30, 5), np.array([250.0, 40.0])
    fit = fit_weibull(x, c)
    k, _, lam = stats.weibull_min.fit(stats.CensoredData(uncensored=x, right=c), floc=0)
    assert_allclose([fit.shape, fit.scale], [k, lam], rtol=1e-5)
    expected = stats.weibull_min.logpdf(x, k, scale=lam).sum() + stats.weibull_min.logsf(c, k, scale=lam).sum()
    assert_allclose(fit.log_likelihood, expected, rtol=1e-8)
    assert fit.gaps == 30 and fit.censored == 2


def test_exponential_likelihood_is_the_closed_form() -> None:
    """At k = 1 the best scale is total time / complete gaps, so l(1) = -r log(S/r) - r."""
    x, c = np.array([3.0, 9.0, 1.5, 20.0, 7.0]), np.array([4.0])
    fit = fit_weibull(x, c)
    s, r = x.sum() + c.sum(), x.size
    assert_allclose(fit.log_likelihood_exponential, -r * math.log(s / r) - r, rtol=1e-12)


def test_lr_statistic_and_p_value_are_chi_square_one() -> None:
    """LR = 2 (l(k_hat) - l(1)) and p = chi2.sf(LR, 1), the same as scipy.stats.chi2."""
    fit = fit_weibull(sample(0.6, 30, 6))
    assert_allclose(fit.lr_statistic, 2 * (fit.log_likelihood - fit.log_likelihood_exponential), rtol=1e-12)
    assert_allclose(fit.p_value, stats.chi2.sf(fit.lr_statistic, 1), rtol=1e-10)
    stat, p = shape_test(sample(0.6, 30, 6), 1.0)
    assert_allclose([stat, p], [fit.lr_statistic, fit.p_value], rtol=1e-10)


def test_profile_interval_ends_are_where_the_likelihood_drops_by_half_the_chi_square_quantile() -> None:
    """At each end of the interval the LR statistic against the MLE equals chi2.ppf(0.95, 1) = 3.841."""
    x = sample(1.3, 20, 7)
    fit = fit_weibull(x)
    low, high = fit.shape_interval
    assert low < fit.shape < high
    for end in (low, high):
        stat, p = shape_test(x, end)
        assert_allclose(stat, stats.chi2.ppf(0.95, 1), rtol=1e-6)
        assert_allclose(p, 0.05, rtol=1e-5)


def test_scale_does_not_change_the_shape() -> None:
    """Gaps in seconds or in minutes give the same shape and interval; the scale follows the unit."""
    x = sample(0.9, 15, 8)
    a, b = fit_weibull(x), fit_weibull(60 * x)
    assert_allclose([a.shape, *a.shape_interval, a.p_value], [b.shape, *b.shape_interval, b.p_value], rtol=1e-8)
    assert_allclose(b.scale, 60 * a.scale, rtol=1e-8)


def test_mean_is_scale_times_gamma() -> None:
    """The fitted mean gap is lam Gamma(1 + 1/k)."""
    fit = fit_weibull(sample(0.5, 50, 9))
    assert_allclose(fit.mean, fit.scale * math.gamma(1 + 1 / fit.shape), rtol=1e-12)


@pytest.mark.parametrize(
    ("gaps", "censored", "problem"),
    [([1.0, 2.0], [], "too few gaps"), ([1.0, 0.0, 3.0], [], "zero gap"), ([5.0, 5.0, 5.0], [4.0], "equal gaps")],
)
def test_no_fit_names_why(gaps: list[float], censored: list[float], problem: str) -> None:
    """Too few gaps, a zero gap (likelihood unbounded as k -> 0), equal gaps (unbounded as k -> inf): named, and refused."""
    assert fit_problem(gaps, censored) == problem and problem in FIT_PROBLEMS
    with pytest.raises(InputError, match=problem):
        fit_weibull(gaps, censored)


def test_equal_gaps_with_a_longer_open_gap_fit() -> None:
    """Equal complete gaps with a longer open one have a finite MLE (the open gap caps the shape)."""
    assert fit_problem([5.0, 5.0, 5.0], [50.0]) is None
    assert math.isfinite(fit_weibull([5.0, 5.0, 5.0], [50.0]).shape)


@pytest.mark.slow
def test_interval_covers_about_as_often_as_stated() -> None:
    """For 13 gaps the profile interval's simulated coverage is within a few points of 95% (the chi-square limit)."""
    assert 0.90 <= coverage(0.7, 13, trials=600, seed=11) <= 0.98


@pytest.mark.slow
def test_power_rises_with_the_sample_and_the_size_is_near_the_level() -> None:
    """With k = 1 the test rejects about 5% of samples; against k = 0.5 it rejects more with 40 gaps than with 10."""
    assert power(1.0, 30, trials=600, seed=12) < 0.10
    assert power(0.5, 10, trials=400, seed=13) < power(0.5, 40, trials=400, seed=13)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(min_value=1e-3, max_value=1e6), min_size=3, max_size=30),
       st.lists(st.floats(min_value=0.0, max_value=1e6), max_size=3))
@example(gaps=[1.0, 1.0, 8.0], censored=[5e-324])  # an open gap so short that dividing it by the unit underflows
def test_any_positive_sample_fits_or_names_its_problem(gaps: list[float], censored: list[float]) -> None:
    """Any gaps above zero either fit (estimate inside its interval, p in [0, 1]) or are refused with a named problem."""
    problem = fit_problem(gaps, censored)
    if problem is not None:
        with pytest.raises(InputError):
            fit_weibull(gaps, censored)
        return
    fit = fit_weibull(gaps, censored)
    low, high = fit.shape_interval
    assert low <= fit.shape <= high and 0.0 <= fit.p_value <= 1.0
    assert fit.lr_statistic >= 0.0


def test_shape_one_has_no_effect_and_small_shapes_cost_less_at_a_fixed_interval() -> None:
    """Weibull with k = 1 is the exponential: the difference is within 4 standard errors of 0. A renewal hazard
    with k < 1 brings failures soon after a restart, before much work is at risk, so goodput is higher."""
    effect = shape_effect(1.0, 186.0, 5.0, 18.6, [1.0, 0.5], failures=40_000, seed=3)
    assert abs(effect.difference[0]) < 4 * effect.difference_stderr[0]
    assert effect.difference[1] > 4 * effect.difference_stderr[1]
    assert_allclose(effect.difference_stderr[0], math.hypot(effect.stderr[0], effect.exponential_stderr))


def test_survival_curve_is_kaplan_meier() -> None:
    """Uncensored: 1 - the empirical CDF; with open gaps: scipy.stats.ecdf's Kaplan-Meier estimate."""
    x = sample(0.8, 25, 14)
    t, s = survival_curve(x)
    assert_allclose(s, 1 - np.arange(1, 26) / 25)
    c = np.array([x.max() / 2, x.max() * 2])
    t, s = survival_curve(x, c)
    km = stats.ecdf(stats.CensoredData(uncensored=x, right=c)).sf
    assert_allclose(s, km.evaluate(t), rtol=1e-12)


@pytest.mark.parametrize(("shape", "gaps"), [(0.5, 8), (1.0, 30), (2.5, 200)])
def test_the_samples_shapes_together_are_each_samples_own(shape: float, gaps: int) -> None:
    """coverage and power fit 2,000 samples at once: each row's shape and maximum are the one-sample fit's."""
    from goodput.logs.fit import _best_shape, _best_shapes, _gaps, _Profile, _simulated

    samples = _simulated(shape, gaps, 40, seed=7)
    _, k, top = _best_shapes(samples)
    for row, k_row, top_row in zip(samples, k, top, strict=True):
        prof = _Profile(*_gaps(row, ()))
        k_one, top_one = _best_shape(prof)
        assert k_row == pytest.approx(k_one, rel=1e-9)
        assert top_row == pytest.approx(top_one, rel=1e-12, abs=1e-9)
