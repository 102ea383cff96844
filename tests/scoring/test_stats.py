"""Reference checks for gate.stats.

Literals marked "scipy" were computed once, outside the repository, with
scipy 1.17.1 and statsmodels 0.15.0 (scipy is not a dependency of the gate):
proportion_confint(method="wilson"), fisher_exact(alternative="less") on the
table [[now_pass, now_fail], [base_pass, base_fail]], hypergeom.cdf/pmf,
binom.cdf, and a brute-force scan over n with binom.cdf for the power sizes.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any

import pytest

from gate.scoring import stats
from gate.scoring.stats import (
    binomial_cdf,
    fisher_less,
    fisher_min_attainable,
    newcombe_interval,
    runs_for_power,
    runs_to_exclude,
    stratified_exact_less,
    stratified_min_attainable,
    tarone_bonferroni,
    wilson_interval,
)

EXACT = 1e-9


# statsmodels proportion_confint(successes, n, alpha=0.05, method="wilson")
WILSON_95 = [
    (5, 6, 0.43649717781352965, 0.9699466302516933),
    (0, 5, 0.0, 0.43448246478317487),
    (5, 5, 0.5655175352168252, 1.0),
    (7, 10, 0.39677814746114537, 0.8922087325936989),
    (4.8, 6, 0.40691789695942066, 0.9588815302992797),
    (21, 44, 0.33754991032251097, 0.6206453443937836),
    (14, 44, 0.1999930771085342, 0.4655689606218224),
]


@pytest.mark.parametrize(("successes", "n", "low", "high"), WILSON_95)
def test_wilson_matches_statsmodels(successes: float, n: int, low: float, high: float) -> None:
    assert wilson_interval(successes, n) == pytest.approx((low, high), rel=EXACT, abs=1e-15)


def test_wilson_edges_and_level() -> None:
    assert wilson_interval(0, 5)[0] == 0.0
    assert wilson_interval(5, 5)[1] == 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)
    # statsmodels, alpha=0.10
    assert wilson_interval(7, 10, 0.90) == pytest.approx((0.44169979586983493, 0.873123416096802), rel=EXACT)


# Fisher one-sided "now lower": scipy fisher_exact and hypergeom.cdf agree on these.
FISHER = [
    ((5, 5, 0, 5), 1 / 252, 1 / 252),
    ((5, 5, 0, 1), 1 / 6, 1 / 6),
    ((4, 5, 0, 6), 0.015151515151515152, 0.015151515151515152),  # = 1/66
    ((24, 25, 3, 5), 0.06403940886699507, 0.0024630541871921174),
    ((9, 10, 2, 4), 0.1758241758241758, 0.01098901098901099),
    ((30, 40, 10, 20), 0.0510108440334697, 2.3855846718909774e-16),
    ((5, 5, 5, 5), 1.0, 1.0),  # all pass: a single table has these margins
    ((20, 20, 3, 3), 1.0, 1.0),
]


@pytest.mark.parametrize(("table", "p", "p_min"), FISHER)
def test_fisher_matches_scipy(table: tuple[int, int, int, int], p: float, p_min: float) -> None:
    assert fisher_less(*table) == pytest.approx(p, rel=EXACT)
    assert fisher_min_attainable(*table) == pytest.approx(p_min, rel=EXACT)
    assert fisher_min_attainable(*table) <= fisher_less(*table)


def test_fisher_small_cases_exact_and_empty() -> None:
    assert fisher_less(5, 5, 0, 5) == float(Fraction(1, 252))
    assert fisher_less(5, 5, 0, 1) == float(Fraction(1, 6))
    assert fisher_less(0, 5, 0, 5) == 1.0  # all fail
    assert fisher_less(3, 5, 0, 0) == fisher_less(0, 0, 2, 4) == 1.0
    assert fisher_min_attainable(0, 0, 2, 4) == 1.0


def test_tarone_drops_tests_that_cannot_reject() -> None:
    # Two tests cannot reach 0.05 at all, so K = 1 and the third is judged at
    # 0.05 instead of Bonferroni's 0.05/3 = 0.0167, which 0.02 would miss.
    assert tarone_bonferroni([0.5, 0.6, 0.02], [0.5, 0.5, 0.001], 0.05) == ([False, False, True], 1)
    # k=1: three mins <= 0.05 (> 1); k=2: two mins <= 0.025 (<= 2) -> K = 2, threshold 0.025.
    assert tarone_bonferroni([0.01, 0.03, 0.03, 0.9], [0.001, 0.002, 0.03, 0.5], 0.05) == (
        [True, False, False, False],
        2,
    )
    # Every test can reach any threshold: plain Bonferroni, K = m.
    assert tarone_bonferroni([0.01, 0.02, 0.001], [0.0, 0.0, 0.0], 0.05) == ([True, False, True], 3)
    assert tarone_bonferroni([], [], 0.05) == ([], 1)


def _brute_stratified(strata: list[tuple[int, int, int, int]]) -> tuple[Fraction, Fraction]:
    """Enumerate every combination of per-stratum now_pass, multiplying exact hypergeometric pmfs."""
    supports = []
    for base_pass, base_runs, now_pass, now_runs in strata:
        passes, total = base_pass + now_pass, base_runs + now_runs
        xs = range(max(0, now_runs - (total - passes)), min(now_runs, passes) + 1)
        supports.append(
            [
                (
                    x,
                    Fraction(
                        math.comb(passes, x) * math.comb(total - passes, now_runs - x), math.comb(total, now_runs)
                    ),
                )
                for x in xs
            ]
        )
    t_obs = sum(s[2] for s in strata)
    p = Fraction(0)
    for combo in itertools.product(*supports):
        if sum(x for x, _ in combo) <= t_obs:
            p += math.prod((pr for _, pr in combo), start=Fraction(1))
    return p, math.prod((s[0][1] for s in supports), start=Fraction(1))


STRATA = [(5, 5, 3, 5), (4, 6, 2, 6), (9, 10, 1, 3)]


def test_stratified_matches_enumeration_and_scipy() -> None:
    p, p_min = _brute_stratified(STRATA)
    assert stratified_exact_less(STRATA) == pytest.approx(float(p), rel=1e-12)
    assert stratified_min_attainable(STRATA) == pytest.approx(float(p_min), rel=1e-12)
    # scipy: sum over the same enumeration of products of hypergeom.pmf
    assert stratified_exact_less(STRATA) == pytest.approx(0.014691957873776054, rel=EXACT)
    assert stratified_min_attainable(STRATA) == pytest.approx(8.409099318190227e-07, rel=EXACT)


def test_stratified_drops_empty_strata_and_reduces_to_fisher() -> None:
    for table, _, _ in FISHER:
        assert stratified_exact_less([table]) == fisher_less(*table)
        assert stratified_min_attainable([table]) == fisher_min_attainable(*table)
    assert stratified_exact_less([*STRATA, (3, 3, 0, 0), (0, 0, 1, 2)]) == stratified_exact_less(STRATA)
    assert stratified_exact_less([]) == stratified_min_attainable([]) == 1.0
    assert stratified_exact_less([(0, 0, 1, 1)]) == 1.0


def test_stratified_is_fast_on_many_strata() -> None:
    many = [(8, 10, 5, 10)] * 150
    assert 0.0 < stratified_exact_less(many) < 1e-10


# Paired binary table: e=12 pass in both, f=9 pass in A only, g=2 pass in B only, h=21 fail in both.
# statsmodels 0.15.0 confint_proportions_2indep(count1, nobs1, count2, nobs2, method="newcomb"):
# the interval of count1/nobs1 − count2/nobs2, here B − A with B first.
NEWCOMBE = [
    ((10, 10, 9, 10), (-0.4041500267952386, 0.1894283527495889)),
    ((50, 50, 35, 50), (-0.43750350464453414, -0.16975509786210125)),
    ((5, 6, 3, 6), (-0.6742831315008133, 0.17170380025515752)),
    ((5, 5, 0, 5), (-1.0, -0.38554900569034356)),
]


@pytest.mark.parametrize(("counts", "expected"), NEWCOMBE)
def test_newcombe_against_statsmodels(counts: tuple[int, int, int, int], expected: tuple[float, float]) -> None:
    ka, na, kb, nb = counts
    assert newcombe_interval(ka / na, na, kb / nb, nb) == pytest.approx(expected, rel=1e-9, abs=1e-12)


def test_newcombe_is_antisymmetric_and_takes_fractional_runs() -> None:
    low, high = newcombe_interval(0.8, 6.9, 0.95, 20)
    assert newcombe_interval(0.95, 20, 0.8, 6.9) == pytest.approx((-high, -low), rel=EXACT)
    assert low < 0.15 < high
    margin = 1 - wilson_interval(6, 6)[0]  # two groups that always pass: only the runs' noise is left
    assert newcombe_interval(1.0, 6, 1.0, 6) == pytest.approx((-margin, margin), rel=EXACT)


# scipy binom.cdf(k, n, p)
BINOM = [
    (3, 10, 0.5, 0.171875),
    (0, 6, 0.9, 9.999999999999987e-07),
    (5, 6, 0.9, 0.46855899999999995),
    (450, 500, 0.95, 3.575815040255189e-06),
    (200, 500, 0.5, 4.470033271126644e-06),
    (10, 500, 0.1, 1.1356918140477064e-12),
    (480, 500, 0.95, 0.8727654760909439),
    (999, 1000, 0.999, 0.6323045752290363),
    (50, 1000, 0.1, 5.995167632379605e-09),
]


@pytest.mark.parametrize(("k", "n", "p", "cdf"), BINOM)
def test_binomial_cdf_matches_scipy(k: int, n: int, p: float, cdf: float) -> None:
    assert binomial_cdf(k, n, p) == pytest.approx(cdf, rel=EXACT)


def test_binomial_cdf_edges() -> None:
    assert binomial_cdf(-1, 5, 0.5) == 0.0
    assert binomial_cdf(5, 5, 0.5) == binomial_cdf(0, 0, 0.3) == 1.0
    assert binomial_cdf(0, 5, 0.0) == 1.0
    assert binomial_cdf(4, 5, 1.0) == 0.0


def test_runs_for_power_by_hand_at_rate_one() -> None:
    # At rate 1 any failure rejects, so power = 1 - 0.5**n: 0.75 at n=2, 0.875 at n=3.
    assert runs_for_power(1.0, 0.5) == 3


# scipy brute force: first n where binom.cdf(c, n, rate - effect) >= power,
# c the largest k with binom.cdf(k, n, rate) <= alpha.
POWER = [
    ((0.95, 0.2), {}, 16),
    ((0.9, 0.3), {}, 13),
    ((0.9, 0.1), {}, 78),
    ((0.99, 0.05), {}, 71),
    ((0.5, 0.5), {}, 5),  # clipped-to-zero alternative: first n with 0.5**n <= 0.05
    ((0.9, 0.1), {"power": 0.9}, 109),
    ((0.95, 0.2), {"alpha": 0.01}, 26),
    ((0.8, 0.05), {}, None),  # needs more than 200 runs
]


@pytest.mark.parametrize(("args", "kwargs", "n"), POWER)
def test_runs_for_power_matches_scipy(args: tuple[float, float], kwargs: dict[str, Any], n: int | None) -> None:
    assert runs_for_power(*args, **kwargs) == n


def test_runs_for_power_clips_and_limits() -> None:
    assert runs_for_power(0.3, 0.9) == runs_for_power(0.3, 0.3)
    assert runs_for_power(0.95, 0.2, max_runs=15) is None


@pytest.mark.parametrize(
    ("rate", "line", "n_units"),
    [(0.95, 0.70, 6), (0.5, 0.7, 6), (1.0, 0.7, 1), (0.0, 0.05, 0), (0.71, 0.70, 1)],
)
def test_runs_to_exclude_is_the_first_excluding_n(rate: float, line: float, n_units: int) -> None:
    n = runs_to_exclude(rate, line, n_units)
    assert n is not None and n > n_units
    low, high = wilson_interval(rate * n, n)
    assert not low <= line <= high
    low, high = wilson_interval(rate * (n - 1), n - 1)
    assert low <= line <= high


def test_runs_to_exclude_values_and_none() -> None:
    assert runs_to_exclude(0.95, 0.70, 6) == 13
    assert runs_to_exclude(0.7, 0.95, 6) == 6  # already excluded
    assert runs_to_exclude(0.95, 0.70, 100) == 100
    assert runs_to_exclude(0.7, 0.7, 6) is None
    assert runs_to_exclude(0.71, 0.70, 1, max_units=1000) is None
    assert runs_to_exclude(0.701, 0.70, 20_000) is None  # past max_units and not yet excluded


def test_runs_to_exclude_does_not_scan(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = 0
    real = stats.wilson_interval

    def counting(successes: float, n: float, confidence: float = 0.95) -> tuple[float, float]:
        nonlocal calls
        calls += 1
        return real(successes, n, confidence)

    monkeypatch.setattr(stats, "wilson_interval", counting)
    assert runs_to_exclude(0.71, 0.70, 1) == 8068
    assert calls < 40


@pytest.mark.parametrize(
    "call",
    [
        lambda: wilson_interval(-1, 5),
        lambda: wilson_interval(6, 5),
        lambda: wilson_interval(1, -1),
        lambda: wilson_interval(1, 5, 1.0),
        lambda: wilson_interval(float("nan"), 5),
        lambda: newcombe_interval(1.5, 2, 1.0, 2),
        lambda: newcombe_interval(0.5, 2, -0.1, 2),
        lambda: fisher_less(-1, 5, 0, 5),
        lambda: fisher_less(6, 5, 0, 5),
        lambda: fisher_min_attainable(5, 5, 2, 1),
        lambda: tarone_bonferroni([0.1], [0.1, 0.2], 0.05),
        lambda: tarone_bonferroni([0.1], [0.1], 0.0),
        lambda: tarone_bonferroni([1.1], [0.1], 0.05),
        lambda: stratified_exact_less([(5, 5, 0, 5), (1, 0, 0, 5)]),
        lambda: stratified_min_attainable([(5, 5, -1, 5)]),
        lambda: binomial_cdf(1, -1, 0.5),
        lambda: binomial_cdf(1, 5, 1.5),
        lambda: runs_for_power(1.2, 0.1),
        lambda: runs_for_power(0.9, 0.0),
        lambda: runs_for_power(0.9, 0.1, alpha=0.0),
        lambda: runs_for_power(0.9, 0.1, max_runs=0),
        lambda: runs_to_exclude(0.9, 1.2, 5),
        lambda: runs_to_exclude(0.9, 0.7, -1),
    ],
)
def test_invalid_arguments_raise_value_error(call: object) -> None:
    assert callable(call)
    with pytest.raises(ValueError):
        call()


@pytest.mark.parametrize(("value", "expected"), [
    (0.012345678, 0.01235), (0.05, 0.05), (1 / 3, 0.3333), (2.5e-07, 2.5e-07), (1.0, 1.0), (0.0, 0.0),
])
def test_four_digits_keeps_four_significant_digits(value: float, expected: float) -> None:
    """results.json records p-values and levels this way; a number, not text."""
    assert stats.four_digits(value) == expected
    assert stats.four_digits_or_none(value) == expected and stats.four_digits_or_none(None) is None
