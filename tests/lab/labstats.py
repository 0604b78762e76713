# SPDX-License-Identifier: ISC
"""The lab's statistics: whether a change helped beyond noise, and how
large a value must be. Python 3 standard library only, and reproducible:
the bootstrap is seeded.

A change is judged on the workload's own figure (a time, a throughput, a
share delivered), measured in repeated phases before and after it. The
effect is the ratio after/before; its 95 % confidence interval comes from
the Hodges-Lehmann estimate of the shift of log(figure) with the exact
Mann-Whitney interval (distribution-free; with 5 repeats a side it is the
3rd to the 23rd of the 25 pairwise log ratios, coverage 96.8 %), or from a
seeded bootstrap of the ratio of medians. "Helped" is an interval wholly
beyond the scenario's margin in the better direction; a no-change control
(the same value written again) must give an interval that holds 1.

The API (tests/lab/README.md says it too):

  ratio_interval(before, after, level=0.95)          -> Interval (HL/Mann-Whitney)
  bootstrap_interval(before, after, level=0.95, seed=1, draws=4000) -> Interval
  helped(interval, margin, better)                   -> bool
  holds_one(interval)                                -> bool
  log_spaced(start, stop, count, integer=True)       -> [values]
  smallest_sufficient(symptoms, baseline, fall=0.9)  -> value or None
  removed(samples, baseline, fall=0.9)               -> bool

Figures must be positive: a ratio of a zero means nothing, so a scenario
whose symptom can vanish judges a figure that cannot (the share
delivered, not the share lost; a burst's time, not its retries).
"""

import math
import random
import statistics

LEVEL = 0.95
SEED = 1


class Interval:
    """A confidence interval of the ratio after/before: lo <= est <= hi,
    with the level and how it was had ("hl" or "bootstrap")."""

    def __init__(self, lo, est, hi, level, method, n_before, n_after):
        self.lo, self.est, self.hi = lo, est, hi
        self.level = level
        self.method = method
        self.n_before, self.n_after = n_before, n_after

    def as_dict(self):
        return {"lo": self.lo, "est": self.est, "hi": self.hi, "level": self.level,
                "method": self.method, "n_before": self.n_before, "n_after": self.n_after}

    @staticmethod
    def from_dict(d):
        return Interval(d["lo"], d["est"], d["hi"], d["level"], d["method"], d["n_before"],
                        d["n_after"])

    def text(self):
        """"0.42 (0.38-0.47)": the estimate and the interval."""
        return "%s (%s-%s)" % (fmt_ratio(self.est), fmt_ratio(self.lo), fmt_ratio(self.hi))

    def __repr__(self):
        return "Interval(%s, %s, %s, %s)" % (self.lo, self.est, self.hi, self.method)


def fmt_ratio(x):
    if x == 0:
        return "0"
    if x >= 100:
        return "%.0f" % x
    if x >= 10:
        return "%.1f" % x
    return ("%.3f" % x if x < 0.1 else "%.2f" % x)


def _positive(name, xs):
    xs = [float(x) for x in xs]
    if not xs:
        raise ValueError("no %s figures" % name)
    for x in xs:
        if not x > 0 or math.isinf(x):
            raise ValueError("a %s figure of %r: ratios need positive figures" % (name, x))
    return xs


_COUNTS = {}


def _u_counts(m, n):
    """How many of the C(m+n, m) orderings give each Mann-Whitney U
    (0..m*n): the exact null distribution, by the usual recursion
    c(m, n, u) = c(m-1, n, u-n) + c(m, n-1, u)."""
    key = (m, n)
    if key in _COUNTS:
        return _COUNTS[key]
    if m == 0 or n == 0:
        out = [1]
    else:
        a = _u_counts(m - 1, n)
        b = _u_counts(m, n - 1)
        out = [0] * (m * n + 1)
        for u, c in enumerate(a):
            out[u + n] += c
        for u, c in enumerate(b):
            out[u] += c
    _COUNTS[key] = out
    return out


def mw_rank(m, n, level=LEVEL):
    """The 1-based rank c of the pairwise differences whose c-th smallest
    and c-th largest bound the interval: the largest c with
    P(U < c) <= (1 - level) / 2. ValueError where no c reaches the level
    (too few repeats: 4 a side is the least for 95 %)."""
    counts = _u_counts(m, n)
    total = math.comb(m + n, m)
    tail = (1.0 - level) / 2.0
    below, c = 0, 0
    while c < len(counts) and (below + counts[c]) / total <= tail:
        below += counts[c]
        c += 1
    if c == 0:
        raise ValueError("%d and %d repeats cannot give a %d %% interval" % (
            m, n, round(level * 100)))
    return c


def ratio_interval(before, after, level=LEVEL):
    """The ratio after/before: Hodges-Lehmann estimate and exact
    Mann-Whitney interval of the shift in log(figure)."""
    b = [math.log(x) for x in _positive("before", before)]
    a = [math.log(x) for x in _positive("after", after)]
    d = sorted(x - y for x in a for y in b)
    c = mw_rank(len(a), len(b), level)
    return Interval(math.exp(d[c - 1]), math.exp(statistics.median(d)), math.exp(d[-c]),
                    level, "hl", len(b), len(a))


def bootstrap_interval(before, after, level=LEVEL, seed=SEED, draws=4000):
    """The ratio of medians after/before, its percentile interval over
    draws resamples of each side (seeded: the same samples give the same
    interval)."""
    b = _positive("before", before)
    a = _positive("after", after)
    rng = random.Random(seed)
    est = statistics.median(a) / statistics.median(b)
    ratios = sorted(statistics.median(rng.choices(a, k=len(a))) /
                    statistics.median(rng.choices(b, k=len(b))) for _ in range(draws))
    tail = (1.0 - level) / 2.0
    lo = ratios[int(math.floor(tail * (draws - 1)))]
    hi = ratios[int(math.ceil((1.0 - tail) * (draws - 1)))]
    return Interval(lo, est, hi, level, "bootstrap", len(b), len(a))


def helped(iv, margin, better):
    """The interval lies wholly beyond the margin in the better direction:
    better "lower", hi <= 1 - margin; "higher", lo >= 1 + margin."""
    if better == "lower":
        return iv.hi <= 1.0 - margin
    if better == "higher":
        return iv.lo >= 1.0 + margin
    raise ValueError("better is 'lower' or 'higher', not %r" % (better,))


def holds_one(iv):
    return iv.lo <= 1.0 <= iv.hi


def log_spaced(start, stop, count, integer=True):
    """count values from start to stop (both in), evenly spaced in log:
    log_spaced(1000, 16000, 6) -> 1000, 1741, 3031, 5278, 9190, 16000."""
    if count < 2 or start <= 0 or stop <= start:
        raise ValueError("log_spaced(%r, %r, %r)" % (start, stop, count))
    out = []
    for k in range(count):
        v = start * (stop / start) ** (k / (count - 1))
        v = int(round(v)) if integer else v
        if not out or v != out[-1]:
            out.append(v)
    out[-1] = stop
    return out


def removed(samples, baseline, fall=0.9):
    """Whether a value's symptom samples (rates) show at least `fall` of
    the baseline's symptom gone: their median at most (1 - fall) times
    the baseline's median (a baseline of 0 has nothing to remove)."""
    base = statistics.median(baseline)
    if base <= 0:
        raise ValueError("a baseline without the symptom: nothing to remove")
    return statistics.median(samples) <= (1.0 - fall) * base


def smallest_sufficient(symptoms, baseline, fall=0.9):
    """The smallest value of {value: [symptom rates]} that removes the
    symptom (removed()) and every larger value measured too: a value that
    helps only by chance between two that do not is not the bound. None
    where the largest does not."""
    values = sorted(symptoms)
    best = None
    for v in reversed(values):
        if not removed(symptoms[v], baseline, fall):
            break
        best = v
    return best
