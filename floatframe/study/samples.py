"""A study's samples: grids, Monte Carlo and Latin-hypercube draws, and the checks every sample passes before a
run is sent."""
from __future__ import annotations

import itertools
import math
import numbers

import numpy as np

from floatframe.study.errors import StudyError


class Samples(list):
    """A list of parameter dicts that knows the sampler that made it.

    ``sampler`` names the sampler and its settings except the number of samples (``"grid"``,
    ``"monte_carlo(seed=1, length=normal:1.0:0.01)"``): it is part of a study's identity, so that a study can
    be resumed with more samples of the same sampler but not with another sampler. ``distributions`` maps each
    parameter to its frozen scipy.stats distribution (empty for a grid); every sample must lie in their
    support.
    """

    def __init__(self, samples, sampler: str, distributions: dict | None = None):
        super().__init__(samples)
        self.sampler = sampler
        self.distributions = dict(distributions or {})

    def __getitem__(self, index):
        """A sample, or for a slice the samples of the same sampler (a study of the first 10 can be resumed
        with all of them)."""
        item = super().__getitem__(index)
        return Samples(item, self.sampler, self.distributions) if isinstance(index, slice) else item


def grid(**values) -> Samples:
    """All combinations of the given values, e.g. ``grid(length=[0.5, 1.0], mass=[1, 2])`` (4 samples).

    Raises
    ------
    StudyError
        For a parameter without values or with a value that is not a finite number.
    """
    names = list(values)
    lists = [np.atleast_1d(np.asarray(values[name], dtype=float)).tolist() for name in names]
    for name, entries in zip(names, lists):
        if not entries:
            raise StudyError(f"grid: parameter '{name}' has no values")
        bad = [value for value in entries if not math.isfinite(value)]
        if bad:
            raise StudyError(f"grid: parameter '{name}' has the value {bad[0]}; every value must be a finite number")
    return Samples([dict(zip(names, combination)) for combination in itertools.product(*lists)], "grid")


def distribution(spec):
    """A frozen scipy.stats distribution from one or a string "normal:mu:sigma", "uniform:low:high" or
    "lognormal:mu:sigma" (mu, sigma of the logarithm)."""
    import scipy.stats as stats

    if hasattr(spec, "ppf"):
        return spec
    kind, *numbers_ = str(spec).split(":")
    try:
        a, b = (float(x) for x in numbers_)
    except ValueError:
        raise StudyError(f"distribution '{spec}': give kind:a:b with two numbers, e.g. normal:1.0:0.05") from None
    makers = {"normal": lambda: stats.norm(a, b), "uniform": lambda: stats.uniform(a, b - a),
              "lognormal": lambda: stats.lognorm(b, scale=np.exp(a))}
    if kind not in makers:
        raise StudyError(f"distribution '{spec}': unknown kind '{kind}' (normal, uniform, lognormal)")
    if not (math.isfinite(a) and math.isfinite(b)):
        raise StudyError(f"distribution '{spec}': both numbers must be finite")
    if kind == "uniform" and b <= a:
        raise StudyError(f"distribution '{spec}': the second number must be above the first")
    if kind != "uniform" and b <= 0:
        raise StudyError(f"distribution '{spec}': the second number must be positive")
    return makers[kind]()


def describe_distribution(spec) -> str:
    """A distribution's text for a study's identity: the string as given, or a frozen one's name and arguments."""
    if not hasattr(spec, "ppf"):
        return str(spec)
    arguments = [repr(a) for a in getattr(spec, "args", ())]
    arguments += [f"{k}={v!r}" for k, v in sorted(getattr(spec, "kwds", {}).items())]
    return f"{getattr(getattr(spec, 'dist', spec), 'name', type(spec).__name__)}({', '.join(arguments)})"


def _sampler_name(kind: str, seed, distributions: dict) -> str:
    settings = [f"seed={seed}", *[f"{name}={describe_distribution(spec)}" for name, spec in distributions.items()]]
    return f"{kind}({', '.join(settings)})"


def monte_carlo(n: int, seed: int = 0, **distributions) -> Samples:
    """``n`` independent random samples of the named distributions (see :func:`distribution`)."""
    frozen = {name: distribution(spec) for name, spec in distributions.items()}
    rng = np.random.default_rng(seed)
    columns = {name: d.rvs(size=int(n), random_state=rng) for name, d in frozen.items()}
    return Samples([{name: float(columns[name][k]) for name in frozen} for k in range(int(n))],
                   _sampler_name("monte_carlo", seed, distributions), frozen)


def latin_hypercube(n: int, seed: int = 0, **distributions) -> Samples:
    """``n`` Latin-hypercube samples: each distribution's n equiprobable strata hit once (scipy.stats.qmc)."""
    from scipy.stats import qmc

    frozen = {name: distribution(spec) for name, spec in distributions.items()}
    unit = qmc.LatinHypercube(d=len(frozen), seed=seed).random(int(n))
    return Samples([{name: float(d.ppf(unit[k, j])) for j, (name, d) in enumerate(frozen.items())}
                    for k in range(int(n))], _sampler_name("latin_hypercube", seed, distributions), frozen)


def checked_samples(function, samples) -> list[str]:
    """The parameter names of ``samples`` after checking them against ``function``; nothing is run.

    Checked: ``function`` is callable and takes every name (or ``**kwargs``); there is at least one sample;
    every sample is a dict of the first one's names; every value is a real, finite number (not a bool); no two
    samples are equal; for samples of :func:`monte_carlo` or :func:`latin_hypercube`, every value lies in its
    distribution's support (``dist.support()``, ends included).

    Raises
    ------
    StudyError
        Naming the sample, the parameter and the value at fault.
    """
    import inspect

    if not callable(function):
        raise StudyError(f"run_study: the study function must be callable, got {function!r}")
    if not samples:
        raise StudyError("run_study: no samples")
    names = list(samples[0]) if isinstance(samples[0], dict) else []
    supports = {name: d.support() for name, d in getattr(samples, "distributions", {}).items()}
    seen = {}
    for k, sample in enumerate(samples):
        if not isinstance(sample, dict) or list(sample) != names:
            raise StudyError(f"run_study: sample {k} has parameters "
                             f"{list(sample) if isinstance(sample, dict) else sample!r}, the first one {names}")
        for name, value in sample.items():
            if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
                raise StudyError(f"run_study: sample {k} has {name} = {value!r}; every value must be a finite "
                                 f"number")
            if name in supports and not supports[name][0] <= value <= supports[name][1]:
                low, high = supports[name]
                raise StudyError(f"run_study: sample {k} has {name} = {value!r}, outside the support [{low}, {high}] "
                                 f"of its distribution {describe_distribution(samples.distributions[name])}")
        key = sample_key(sample, names)
        if key in seen:
            raise StudyError(f"run_study: samples {seen[key]} and {k} are the same ({sample}); a study runs each "
                             f"sample once")
        seen[key] = k
    signature = inspect.signature(function)
    accepts_any = any(p.kind is p.VAR_KEYWORD for p in signature.parameters.values())
    unknown = [name for name in names if name not in signature.parameters and not accepts_any]
    if unknown:
        raise StudyError(f"run_study: {getattr(function, '__name__', function)} has no parameter "
                         f"{', '.join(map(repr, unknown))}; it takes {', '.join(signature.parameters)}")
    return names


def sample_key(sample: dict, names) -> tuple:
    """The parameter values of a sample or row as a tuple of floats, in the order of ``names``."""
    return tuple(float(sample[name]) for name in names)
