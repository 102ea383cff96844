"""Small-count statistics for noise-aware gate decisions.

Pass counts in a CI gate are small, where normal approximations mislead, so these are exact or
score-based; standard library only, so the gate installs without scipy.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist


def _z(confidence: float) -> float:
    """Two-sided standard normal quantile; rejects levels with no finite quantile."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


def _unit(name: str, value: float) -> None:
    """Reject a probability-like argument outside [0, 1] (NaN included: every comparison is false)."""
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"{name} must be in [0, 1], got {value}")


def wilson_interval(successes: float, n: float, confidence: float = 0.95) -> tuple[float, float]:
    """Two-sided Wilson score interval, which keeps its coverage at small n and rates near 0 or 1.

    Fractional successes are allowed (a sum of per-case pass rates, each case one unit).
    With no units nothing is known, so the interval is (0, 1).
    """
    z = _z(confidence)
    if not (0.0 <= successes <= n and math.isfinite(n)):
        raise ValueError(f"need 0 <= successes <= n, got {successes}/{n}")
    if n == 0:
        return (0.0, 1.0)
    p, q = successes / n, (n - successes) / n
    z2n = z * z / n
    root = z * math.sqrt(max(0.0, p * q / n + z2n / (4.0 * n)))
    # Bounds are a quadratic's roots; writing each via the product of roots avoids cancellation
    # (0/n gives exactly 0, n/n exactly 1).
    low = p * p / (p + z2n / 2.0 + root)
    high = 1.0 - q * q / (q + z2n / 2.0 + root)
    return (max(0.0, low), min(1.0, high))


def newcombe_interval(p1: float, n1: float, p2: float, n2: float,
                      confidence: float = 0.95) -> tuple[float, float]:
    """Newcombe's hybrid score interval for p2 − p1, each a share of its own runs.

    Newcombe (1998), method 10 for independent proportions: the two Wilson intervals combined
    (the runs of two groups, or of two cases, are independent samples). Rates and run counts may be
    fractional (a mean of per-case rates over its effective runs).
    """
    _unit("p1", p1)
    _unit("p2", p2)
    l1, u1 = wilson_interval(p1 * n1, n1, confidence)
    l2, u2 = wilson_interval(p2 * n2, n2, confidence)
    delta = p2 - p1
    return (max(-1.0, delta - math.hypot(p2 - l2, u1 - p1)), min(1.0, delta + math.hypot(u2 - p2, p1 - l1)))


def _check_table(base_pass: int, base_runs: int, now_pass: int, now_runs: int) -> bool:
    """Reject impossible 2x2 tables; True when both groups have runs (else nothing to test)."""
    if min(base_pass, base_runs, now_pass, now_runs) < 0:
        raise ValueError("counts must be non-negative")
    if base_pass > base_runs or now_pass > now_runs:
        raise ValueError(f"passes exceed runs: {base_pass}/{base_runs}, {now_pass}/{now_runs}")
    return base_runs > 0 and now_runs > 0


def _hypergeom_weights(base_pass: int, base_runs: int, now_pass: int, now_runs: int) -> tuple[int, list[int], int]:
    """(x_min, weights C(K,x)·C(N-K,n-x) for x = x_min.., C(N,n)): now_pass's null law as exact integers."""
    total_pass = base_pass + now_pass
    total_fail = base_runs + now_runs - total_pass
    lo, hi = max(0, now_runs - total_fail), min(now_runs, total_pass)
    weights = [math.comb(total_pass, x) * math.comb(total_fail, now_runs - x) for x in range(lo, hi + 1)]
    return lo, weights, math.comb(base_runs + now_runs, now_runs)


def fisher_less(base_pass: int, base_runs: int, now_pass: int, now_runs: int) -> float:
    """One-sided Fisher exact p-value for "now passes less often than the baseline".

    P(X <= now_pass), X hypergeometric given the margins; exact integer sums keep tiny p-values precise.
    """
    if not _check_table(base_pass, base_runs, now_pass, now_runs):
        return 1.0
    lo, weights, denom = _hypergeom_weights(base_pass, base_runs, now_pass, now_runs)
    return sum(weights[: now_pass - lo + 1]) / denom


def fisher_min_attainable(base_pass: int, base_runs: int, now_pass: int, now_runs: int) -> float:
    """Smallest p-value fisher_less could give with these margins; Tarone's correction needs it."""
    if not _check_table(base_pass, base_runs, now_pass, now_runs):
        return 1.0
    _, weights, denom = _hypergeom_weights(base_pass, base_runs, now_pass, now_runs)
    return weights[0] / denom


def tarone_bonferroni(
    p_values: Sequence[float], min_attainable: Sequence[float], alpha: float
) -> tuple[list[bool], int]:
    """Tarone (1990) modified Bonferroni for discrete tests: (rejections, K).

    K is the smallest k >= 1 with at most k tests able to reach alpha/k, so tests that could
    never reject stop diluting the others' threshold.
    """
    if len(p_values) != len(min_attainable):
        raise ValueError("p_values and min_attainable differ in length")
    if not 0.0 < alpha <= 1.0:
        raise ValueError(f"alpha must be in (0, 1], got {alpha}")
    for value in (*p_values, *min_attainable):
        _unit("probability", value)
    # k = len(p_values) always qualifies, so the scan ends; O(m log m) with sorting.
    mins = sorted(min_attainable)
    k, able = 1, len(mins)
    while True:
        while able and mins[able - 1] > alpha / k:
            able -= 1
        if able <= k:
            break
        k += 1
    return ([p <= alpha / k for p in p_values], k)


def stratified_exact_less(strata: Sequence[tuple[int, int, int, int]]) -> float:
    """Exact conditional one-sided test of a common odds ratio 1 (Birch/Zelen) across cases.

    Strata are (base_pass, base_runs, now_pass, now_runs); under H0, T = sum of now_pass is the
    convolution of per-stratum hypergeometrics. Returns P(T <= observed), convolved in exact integers.
    """
    live = [s for s in strata if _check_table(*s)]  # strata without runs carry no information
    if not live:
        return 1.0
    tables = [_hypergeom_weights(*s) for s in live]
    t_obs = sum(s[2] for s in live)
    # Index j stands for T = (sum of minima) + j; entries past t_obs can never come back, so are cut.
    budget = t_obs - sum(lo for lo, _, _ in tables)
    dist, denom = [1], 1
    for _, weights, d in tables:
        out = [0] * min(len(dist) + len(weights) - 1, budget + 1)
        for i, di in enumerate(dist):
            for j, wj in enumerate(weights[: len(out) - i]):  # len(out) >= len(dist) > i
                out[i + j] += di * wj
        dist, denom = out, denom * d
    return sum(dist) / denom


def stratified_min_attainable(strata: Sequence[tuple[int, int, int, int]]) -> float:
    """P(T = its minimum), the smallest p-value stratified_exact_less could give: T is minimal
    only when every stratum is, so it is the product of the per-stratum minima's probabilities."""
    live = [s for s in strata if _check_table(*s)]  # strata without runs carry no information
    num, denom = 1, 1
    for _, weights, d in (_hypergeom_weights(*s) for s in live):
        num, denom = num * weights[0], denom * d
    return num / denom


def _binomial_pmfs(n: int, p: float) -> list[float]:
    """Binomial(n, p) pmf for k = 0..n through exact log C(n, k): no overflow, no early underflow."""
    if p == 0.0 or p == 1.0:
        return [1.0 if k == round(p * n) else 0.0 for k in range(n + 1)]
    log_p, log_q = math.log(p), math.log1p(-p)
    pmfs: list[float] = []
    comb = 1
    for k in range(n + 1):
        pmfs.append(math.exp(math.log(comb) + k * log_p + (n - k) * log_q))
        comb = comb * (n - k) // (k + 1)
    return pmfs


def binomial_cdf(k: int, n: int, p: float) -> float:
    """P(X <= k) for X ~ Binomial(n, p); sums positive terms, so small tails stay precise."""
    if n < 0:
        raise ValueError(f"n must be non-negative, got {n}")
    _unit("p", p)
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    return min(1.0, math.fsum(_binomial_pmfs(n, p)[: k + 1]))


def runs_for_power(
    rate: float, effect: float, alpha: float = 0.05, power: float = 0.8, max_runs: int = 200
) -> int | None:
    """Fewest runs for the exact one-sided binomial test of H0: p >= rate to detect a drop of effect.

    The true rate under the alternative is max(0, rate - effect). Power is not monotone in n for a
    discrete test, hence a scan for the first n that reaches it; None if max_runs does not.
    """
    _unit("rate", rate)
    if not 0.0 < effect <= 1.0:
        raise ValueError(f"effect must be in (0, 1], got {effect}")
    if not (0.0 < alpha < 1.0 and 0.0 < power <= 1.0):
        raise ValueError(f"need alpha in (0, 1) and power in (0, 1], got {alpha}, {power}")
    if max_runs < 1:
        raise ValueError(f"max_runs must be >= 1, got {max_runs}")
    target = max(0.0, rate - effect)
    for n in range(1, max_runs + 1):
        null = _binomial_pmfs(n, rate)
        # The null cdf rises with k: bisect for the count of rejected k (cdf <= alpha).
        lo, hi = 0, n + 1
        while lo < hi:
            mid = (lo + hi) // 2
            lo, hi = (mid + 1, hi) if math.fsum(null[: mid + 1]) <= alpha else (lo, mid)
        if math.fsum(_binomial_pmfs(n, target)[:lo]) >= power:
            return n
    return None


def runs_to_exclude(
    rate: float, line: float, n_units: int, confidence: float = 0.95, max_units: int = 10_000
) -> int | None:
    """Fewest units (>= n_units) at which a Wilson interval at this observed rate excludes line.

    At a fixed rate the intervals are nested, shrinking in n, so exclusion is monotone and
    doubling then bisection finds the first n in O(log n) interval evaluations.
    """
    _unit("rate", rate)
    _unit("line", line)
    _z(confidence)
    if n_units < 0 or max_units < 0:
        raise ValueError(f"unit counts must be non-negative, got {n_units}, {max_units}")
    if rate == line:
        return None

    def excludes(n: int) -> bool:
        low, high = wilson_interval(rate * n, n, confidence)
        return line < low or line > high

    if excludes(n_units):
        return n_units
    if n_units >= max_units:
        return None
    lo, hi = n_units, min(max(1, 2 * n_units), max_units)  # invariant: excludes(lo) is False
    while not excludes(hi):
        if hi >= max_units:
            return None
        lo, hi = hi, min(2 * hi, max_units)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if excludes(mid) else (mid, hi)
    return hi


def four_digits(value: float) -> float:
    """``value`` to four significant digits, as results.json records a p-value or a level (0.01234)."""
    return float(format(value, ".4g"))


def four_digits_or_none(value: float | None) -> float | None:
    return None if value is None else four_digits(value)
