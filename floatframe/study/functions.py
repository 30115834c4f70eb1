"""Study functions whose model is built once per worker: :class:`ModelStudy` (build, then set values and solve
in each task), :class:`SensorStudy` (a sensor's values through the differentiable step map, optionally with
their exact gradient), the per-process cache :func:`built_model`, and :func:`function_identity`, the name of a
study function in its study's record."""
from __future__ import annotations

import functools
import threading
from typing import Callable

import numpy as np

from floatframe.study.errors import StudyError


class ModelStudy:
    """A study function in two parts: a model with symbolic Parameters, built once per worker, and a run on it.

    ``build(names)`` returns the model (e.g. an assembled system) in which the study's parameters ``names``
    (a sorted tuple) are symbolic :class:`~floatframe.parameters.Parameter` objects; ``solve(model, **values)``
    sets their numeric values (``assembled.set_parameter``), solves and returns the outputs. Called as a study
    function, ``ModelStudy(build, solve)(**values)`` builds the model on the first call in a worker process
    and thread (:func:`built_model`, keyed by ``build`` and the names; :func:`model_builds` counts the
    builds) and only solves on later ones. So each task sends the study function (its two functions by
    reference) and one parameter dict, not a model. ``build`` and ``solve`` must be module-level functions.

    Parameters
    ----------
    build : callable
        ``build(names) -> model``, ``names`` the sorted tuple of the study's parameter names.
    solve : callable
        ``solve(model, **values) -> dict`` of named scalar outputs; its keyword parameters are the study's.
    cache : bool, default True
        False builds the model on every call (the reference that the cached runs must equal).
    name : str, optional
        The study function's name in messages; default the name of ``solve``.

    Notes
    -----
    A solve must leave no state in the model that the next run would see: it sets every Parameter it
    varies. Tasks of one worker share its model only within a thread, so a worker with several threads
    builds it once per thread.
    """

    def __init__(self, build: Callable, solve: Callable, cache: bool = True, name: str | None = None):
        import inspect

        self.build, self.solve, self.cache = build, solve, cache
        self.__name__ = name or getattr(solve, "__name__", "ModelStudy")
        signature = inspect.signature(solve)
        self.__signature__ = signature.replace(parameters=list(signature.parameters.values())[1:])
        self.__doc__ = solve.__doc__

    def __call__(self, **values) -> dict:
        names = tuple(sorted(values))
        model = built_model(self.build, names) if self.cache else self.build(names)
        return self.solve(model, **values)

    def uncached(self) -> "ModelStudy":
        """The same study function building its model on every call."""
        return ModelStudy(self.build, self.solve, cache=False, name=self.__name__)

    def __repr__(self):
        return (f"ModelStudy({self.build.__name__}, {self.solve.__name__}"
                f"{'' if self.cache else ', cache=False'}, name={self.__name__!r})")


_BUILD_COUNTS: dict = {}


@functools.lru_cache(maxsize=16)
def _built_in_thread(make: Callable, arguments: tuple, thread: int):
    key = f"{make.__module__}.{make.__qualname__}{_describe(arguments)}"
    _BUILD_COUNTS[key] = _BUILD_COUNTS.get(key, 0) + 1
    return make(*arguments)


def _describe(arguments: tuple) -> str:
    return "(" + ", ".join(getattr(a, "__qualname__", None) or repr(a) for a in arguments) + ")"


def built_model(make: Callable, *arguments):
    """``make(*arguments)``, made on the first call in this process and thread and taken from a cache later.

    The cache (``functools.lru_cache``) holds the 16 models used last. ``make`` and ``arguments`` are its key:
    module-level functions (which unpickling gives back as the same object) and values such as tuples of
    names and numbers. :func:`model_builds` counts the calls of ``make``.

    Parameters
    ----------
    make : callable
        A module-level function that builds the model.
    *arguments
        Hashable arguments of ``make``.
    """
    return _built_in_thread(make, arguments, threading.get_ident())


def model_builds() -> dict:
    """How many models :func:`built_model` has made in this process.

    Returns
    -------
    dict
        ``"module.make(arguments)"`` -> count. On a cluster, ``client.run(model_builds)`` gives each worker's.
    """
    return dict(_BUILD_COUNTS)


class SensorStudy:
    """A study function over symbolic Parameters whose outputs are one sensor's values at given times, through
    the differentiable generalized-alpha step map; with ``gradient`` each run also returns their exact
    derivatives with respect to the study's parameters.

    Each worker process (and thread) builds the model and the CasADi function of the run
    (:func:`floatframe.ocp.step.sensor_response`, with its Jacobian) once per set of parameter names; each
    task only evaluates it. The derivatives come from the implicit-function theorem on every step (no finite
    differences).

    Parameters
    ----------
    build : callable
        ``build(names) -> AssembledSystem`` with symbolic Parameters; a module-level function.
    parameters : tuple of str or callable
        The study's parameter names, each a scalar Parameter of the model; or a module-level function of the
        study's parameters (keywords with defaults) that returns the model's Parameter values by name, written
        with arithmetic only (it is also called with CasADi symbols), e.g. a scalar support stiffness that sets
        two size-3 Parameters. Parameters it does not return keep their values.
    sensor : int
        The sensor's number in the model.
    times : sequence of float
        Output times [s], multiples of ``h``.
    h : float
        Step size [s].
    spectral_radius : float, default 0.9
        Of generalized-alpha.
    tolerance : float, default 1e-9
        Of the Newton iteration of each step (residual rows of R and C / beta').
    gradient : bool, default False
        Also return ``d{output}_{i}_d{name}``: the derivative of output i with respect to parameter ``name``.
    output : str, default "sensor"
        Name of the outputs: ``{output}_{i}`` for time i of a scalar sensor, ``{output}_{i}_{j}`` for
        component j of a vector one.
    name : str, optional
        The study function's name in messages; default ``SensorStudy(build's name)``.
    """

    def __init__(self, build: Callable, parameters, sensor: int, times, h: float, *, spectral_radius: float = 0.9,
                 tolerance: float = 1e-9, gradient: bool = False, output: str = "sensor", name: str | None = None):
        import inspect

        if not h > 0:
            raise StudyError(f"SensorStudy: the step size h must be positive, got {h!r}")
        self.build, self.parameters, self.sensor, self.h = build, parameters, int(sensor), float(h)
        self.steps = tuple(int(round(t / self.h)) for t in times)
        mismatched = [t for t, k in zip(times, self.steps) if abs(k * self.h - t) > 1e-9 * max(abs(t), self.h)]
        if mismatched or not self.steps or min(self.steps) < 1 or list(self.steps) != sorted(set(self.steps)):
            raise StudyError(f"SensorStudy: times must increase and be positive multiples of h = {h:g} s, got "
                             f"{list(times)}")
        self.spectral_radius, self.tolerance, self.gradient, self.output = spectral_radius, tolerance, gradient, output
        if callable(parameters):
            self.__signature__ = inspect.signature(parameters)
        else:
            self.__signature__ = inspect.Signature([inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY)
                                                    for name in parameters])
        self.__name__ = name or f"SensorStudy({getattr(build, '__name__', build)})"

    def __call__(self, **values) -> dict:
        names = tuple(sorted(values))
        function = built_model(_sensor_response_function, self.build, names, self.parameters, self.sensor,
                               self.steps, self.h, self.spectral_radius, self.tolerance, self.gradient)
        results = function(np.array([float(values[name]) for name in names]))
        y = np.array(results[0] if self.gradient else results).reshape(len(self.steps), -1)
        labels = [f"{self.output}_{i}" if y.shape[1] == 1 else f"{self.output}_{i}_{j}"
                  for i in range(y.shape[0]) for j in range(y.shape[1])]
        outputs = dict(zip(labels, y.reshape(-1)))
        if self.gradient:
            jacobian = np.array(results[1])
            for column, name in enumerate(names):
                outputs.update({f"d{label}_d{name}": jacobian[row, column] for row, label in enumerate(labels)})
        return outputs

    def with_gradient(self) -> "SensorStudy":
        """The same study whose runs also return the derivatives."""
        return SensorStudy(self.build, self.parameters, self.sensor, [k * self.h for k in self.steps], self.h,
                           spectral_radius=self.spectral_radius, tolerance=self.tolerance, gradient=True,
                           output=self.output, name=self.__name__)


def _sensor_response_function(build, names, parameters, sensor, steps, h, spectral_radius, tolerance, gradient):
    """The CasADi function s -> sensor values (and their Jacobian) of a :class:`SensorStudy` (s: the values of
    ``names``)."""
    import casadi as ca

    from floatframe.ocp.step import sensor_response

    assembled = build(names)
    s = ca.MX.sym("s", len(names))
    symbols = {name: s[k] for k, name in enumerate(names)}
    values = parameters(**symbols) if callable(parameters) else {name: symbols[name] for name in names}
    known = {parameter.name: parameter for parameter in assembled.parameters}
    unknown = [name for name in values if name not in known]
    if unknown:
        raise StudyError(f"SensorStudy: the model has no Parameter {unknown[0]!r}; it has {sorted(known)}")
    entries = {name: value if isinstance(value, (list, tuple)) else [value] for name, value in values.items()}
    p = ca.vertcat(*[ca.vertcat(*entries[q.name]) if q.name in entries
                     else ca.MX(assembled.parameter_values[q.name]) for q in assembled.parameters])
    return sensor_response(assembled, sensor, steps, h, s, p, spectral_radius, tolerance, gradient)



def _qualified(item) -> str:
    """``module.qualname`` of a function or class, else its repr."""
    module, name = getattr(item, "__module__", None), getattr(item, "__qualname__", None)
    return f"{module}.{name}" if module and name else repr(item)


def function_identity(function) -> str:
    """The study function's name in its study's record: ``module.qualname`` of a function; for a
    :class:`ModelStudy` its build and solve functions; for a :class:`SensorStudy` its build, parameters, sensor,
    times, step and whether it returns the gradient; else the object's repr (e.g. a ``functools.partial``)."""
    if isinstance(function, ModelStudy):
        return f"ModelStudy({_qualified(function.build)}, {_qualified(function.solve)})"
    if isinstance(function, SensorStudy):
        parameters = function.parameters if not callable(function.parameters) else _qualified(function.parameters)
        return (f"SensorStudy({_qualified(function.build)}, {parameters}, sensor={function.sensor}, "
                f"steps={list(function.steps)}, h={function.h!r}, spectral_radius={function.spectral_radius!r}, "
                f"tolerance={function.tolerance!r}, gradient={function.gradient}, output={function.output!r})")
    if isinstance(function, functools.partial):
        return repr(function)
    return _qualified(function)
