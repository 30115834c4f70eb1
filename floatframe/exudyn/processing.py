"""Exudyn's ``exudyn.processing`` for scripts: parameter variations and a genetic optimizer.

``ParameterVariation`` runs a parameter function over the grid of all combinations of the given parameter
values, as Exudyn 1.13.6 builds it (same combinations, order, types and ``computationIndex``), so a script gets
the same parameter lists and values. ``GeneticOptimization`` is Exudyn's genetic algorithm with its calls to
NumPy's global random generator in Exudyn's order, so a seed gives Exudyn's individuals, optimum and lists of
evaluated parameters and values. ``PlotOptimizationResults2D`` plots the values over each parameter with
matplotlib, as Exudyn's figures.

With ``useMultiProcessing=True`` the calls run in worker processes of :class:`concurrent.futures.ProcessPoolExecutor`
(``numberOfThreads`` workers, default: the number of CPUs). Where the operating system can fork (Linux,
macOS) the workers are forked after the function is stored, so any function works, also one defined in the
script or inside another function; elsewhere the function must be picklable (defined at a module's top level).
The results come back in the order of the parameter sets. Cluster computation (``clusterHostNames``, dispy)
and MPI (``useMPI``) are not available: use :func:`floatframe.study.run_study` on a Dask cluster instead.
"""
from __future__ import annotations

import math
import multiprocessing
import os
import platform
import warnings
from concurrent.futures import ProcessPoolExecutor
from numbers import Integral, Real

import numpy as np

from floatframe.exudyn._names import ExudynLayerError
from floatframe.exudyn._unknown import module_getattr

SUPPORTED = ["ParameterVariation", "ProcessParameterList", "GeneticOptimization", "PlotOptimizationResults2D"]
# Names of Exudyn 1.13.6's exudyn.processing that the layer does not have.
EXUDYN_NAMES = ["Minimize", "ComputeSensitivities", "PlotSensitivityResults", "WriteToFile",
                "GetVersionPlatformString", "AddComputationIndexAndFunctionData", "SingleIndex2SubIndices"]
__all__ = SUPPORTED
__getattr__ = module_getattr("floatframe.exudyn.processing", SUPPORTED, EXUDYN_NAMES)

_RESERVED_KEYS = ("computationIndex", "functionData")


# ---------------------------------------------------------------------------------------------------------------
# running a function over a list of parameter sets
# ---------------------------------------------------------------------------------------------------------------

_worker_function = None  # the parameter function inside a forked worker process


def _store_worker_function(function):
    global _worker_function
    _worker_function = function


def _call_worker_function(parameterSet):
    return _worker_function(parameterSet)


def _is_integer(value) -> bool:
    """A Python or NumPy integer (not a bool-like float): Exudyn's test for an integer parameter."""
    return isinstance(value, (int, np.integer))


def _without_function_data(parameterSet: dict) -> dict:
    return {key: value for key, value in parameterSet.items() if key != "functionData"}


class _ResultsFile:
    """Exudyn's results file of a parameter variation or genetic optimization, written row by row.

    The header (lines starting with '#') names the kind of run, the version, the columns
    ``globalIndex,value,<parameters>,computationIndex`` and the parameter ranges; each row is
    ``globalIndex, value, <the parameter set's values>``. An empty file name writes nothing.
    """

    def __init__(self, fileName: str, parameters: dict, kind: str, processing: str):
        self.fileName = _output_file_path(fileName, kind)
        self.parameters, self.kind, self.processing = parameters, kind, processing
        self.rows = 0

    def write(self, parameterSets, values):
        if not self.fileName:
            return
        if self.rows == 0:
            self._write_header()
        with open(self.fileName, "a") as file:
            for parameterSet, value in zip(parameterSets, values):
                cells = [str(self.rows), str(value)] + [str(v) for key, v in parameterSet.items()
                                                        if key != "functionData"]
                file.write(", ".join(cells) + "\n")
                self.rows += 1

    def _write_header(self):
        directory = os.path.dirname(self.fileName)
        if directory:
            os.makedirs(directory, exist_ok=True)
        names = [key for key in self.parameters if key != "functionData"]
        from floatframe.exudyn import GetVersionString
        version = f"floatframe.exudyn version = {GetVersionString(True)}; {platform.system()}{platform.release()}"
        if self.processing:
            version += f"(processing={self.processing})"
        functionData = (f"functionData:{self.parameters['functionData']}" if "functionData" in self.parameters
                        else "#")
        lines = [f"#EXUDYN {self.kind} results file:{self.fileName}",
                 "#results stored columnwise for every parameter and individual",
                 "#" + version,
                 functionData,
                 "#columns:",
                 "#" + ",".join(["globalIndex", "value", *names, "computationIndex"]),
                 '#parameter ranges [format: (begin, end, numberOfVariations) or list, parameters separated with ";"]:',
                 "#" + ";".join(str(self.parameters[key]) for key in names)]
        with open(self.fileName, "w") as file:
            file.write("\n".join(lines) + "\n")


def _output_file_path(fileName: str, caller: str) -> str:
    """fileName inside ``exu.config.outputDirectory`` where a script set one (as Exudyn writes its output files)."""
    from floatframe.exudyn import config
    directory = getattr(config, "outputDirectory", "")
    if not directory or not fileName:
        return fileName
    if os.path.isabs(fileName) or (len(fileName) > 1 and fileName[1] == ":"):
        raise ExudynLayerError(f"{caller}: the results file '{fileName}' is an absolute path while "
                               f"exu.config.outputDirectory is '{directory}'; give a relative file name")
    return os.path.join(directory, fileName)


def _number_of_workers(numberOfThreads) -> int:
    if numberOfThreads is None:
        return os.cpu_count() or 1
    if not isinstance(numberOfThreads, Integral) or isinstance(numberOfThreads, bool) or numberOfThreads < 1:
        raise ValueError(f"numberOfThreads must be a positive integer or None, got {numberOfThreads!r}")
    return int(numberOfThreads)


def _progress(index: int, count: int, parameterSet: dict, value):
    shown = f", value = {value}" if type(value) in (float, int) else ""
    print(f"\rrun {index + 1} / {count}{shown}: parameters={_without_function_data(parameterSet)}", end="",
          flush=True)


def ProcessParameterList(parameterFunction, parameterList, useMultiProcessing, clusterHostNames=[], **kwargs):
    """Call ``parameterFunction(parameterSet)`` for every parameter set of ``parameterList``.

    Parameters
    ----------
    parameterFunction : callable
        Takes one parameter set (a dict) and returns anything that can be stored in a list.
    parameterList : list of dict
        The parameter sets, called in this order.
    useMultiProcessing : bool
        Run the calls in worker processes (see the module's description); the values keep the list's order.
    clusterHostNames : list
        Must be empty: cluster computation is not available (use :func:`floatframe.study.run_study`).
    **kwargs
        ``showProgress`` (default False), ``numberOfThreads`` (workers, default: CPUs), ``resultsFile`` (written
        row by row as the values come in; with ``parameters``, the ranges for its header).

    Returns
    -------
    list
        The function's values, one per parameter set, in the order of ``parameterList``.
    """
    unknown = set(kwargs) - {"showProgress", "numberOfThreads", "resultsFile", "parameters", "useMPI",
                             "useDispyWebMonitor", "resultsFileKind"}
    if unknown:
        raise TypeError(f"ProcessParameterList: unknown keyword arguments {sorted(unknown)}")
    if not callable(parameterFunction):
        raise TypeError(f"ProcessParameterList: parameterFunction must be callable, got {parameterFunction!r}")
    if useMultiProcessing and (clusterHostNames or kwargs.get("useMPI", False)):
        what = "cluster computation (clusterHostNames)" if clusterHostNames else "MPI (useMPI=True)"
        raise ExudynLayerError(f"ProcessParameterList: {what} is not available in floatframe.exudyn; run the "
                               f"study on a Dask cluster with floatframe.study.run_study(..., scheduler=...)")
    showProgress = kwargs.get("showProgress", False)
    workers = _number_of_workers(kwargs.get("numberOfThreads"))
    processing = f"concurrent.futures.ProcessPoolExecutor, numberOfThreads={workers}" if useMultiProcessing \
        else "serial"
    results = _ResultsFile(kwargs.get("resultsFile", ""), kwargs.get("parameters", {}),
                           kwargs.get("resultsFileKind", "parameter variation"), processing)
    parameterList = list(parameterList)
    count = len(parameterList)
    values = []

    def collect(index, value):
        values.append(value)
        results.write([parameterList[index]], [value])
        if showProgress:
            _progress(index, count, parameterList[index], value)

    if not useMultiProcessing or count == 0:
        for index, parameterSet in enumerate(parameterList):
            collect(index, parameterFunction(parameterSet))
    else:
        if "fork" in multiprocessing.get_all_start_methods():
            context = multiprocessing.get_context("fork")
            _store_worker_function(parameterFunction)   # inherited by the forked workers, never pickled
            call = _call_worker_function
        else:
            context, call = None, parameterFunction
        try:
            with warnings.catch_warnings(), ProcessPoolExecutor(max_workers=min(workers, count),
                                                                mp_context=context) as executor:
                # Python 3.12+ warns about fork in a process with threads; the workers only run the function
                warnings.filterwarnings("ignore", message=".*use of fork\\(\\) may lead to deadlocks.*")
                for index, value in enumerate(executor.map(call, parameterList)):
                    collect(index, value)
        finally:
            _store_worker_function(None)
    if showProgress and count:
        print("", flush=True)
    return values


# ---------------------------------------------------------------------------------------------------------------
# ParameterVariation
# ---------------------------------------------------------------------------------------------------------------

def _parameter_values(name, value, useLogSpace: bool):
    """The values one parameter takes (array) and whether they are passed as int, per Exudyn's rules."""
    if isinstance(value, tuple):
        if len(value) != 3:
            raise ValueError(f"ParameterVariation: parameter '{name}' must be (begin, end, numberOfValues), "
                             f"got a tuple of {len(value)} entries {value!r}")
        begin, end, count = value
        if not isinstance(count, Real) or int(count) != count:
            raise ValueError(f"ParameterVariation: parameter '{name}': numberOfValues must be an integer, "
                             f"got {count!r}")
        if count <= 0:
            raise ValueError(f"ParameterVariation: parameter '{name}': numberOfValues must be positive, got {count!r}")
        if begin > end:
            raise ValueError(f"ParameterVariation: parameter '{name}': begin {begin!r} is larger than end {end!r}")
        count = int(count)
        if useLogSpace:
            if begin <= 0:
                raise ValueError(f"ParameterVariation: parameter '{name}': useLogSpace needs begin > 0, "
                                 f"got {begin!r}")
            values = np.logspace(np.log10(begin), np.log10(end), count)
        else:
            values = np.linspace(begin, end, count)
        # Exudyn passes a range of integer ends whose (end - begin + 1) / count is whole as int values
        step = (end - begin + 1) / count
        return values, _is_integer(begin) and _is_integer(end) and step == int(step)
    if isinstance(value, list):
        values = np.asarray(value)
        # Exudyn's grid multiplies the values by integer ones: bools become int64, float32 becomes float64
        return values.astype(np.result_type(np.int_, values.dtype)), all(_is_integer(v) for v in value)
    raise ValueError(f"ParameterVariation: parameter '{name}' must be a tuple (begin, end, numberOfValues) or a "
                     f"list of values [v0, v1, ...], got {type(value).__name__} {value!r}")


def ParameterVariation(parameterFunction, parameters, useLogSpace=False, debugMode=False, addComputationIndex=False,
                       useMultiProcessing=False, showProgress=True, parameterFunctionData={}, clusterHostNames=[],
                       numberOfThreads=None, resultsFile='', **kwargs):
    """Call ``parameterFunction(parameterSet)`` for every combination of the given parameter values.

    Parameters
    ----------
    parameterFunction : callable
        Takes a dict {name: value, ...} (plus 'computationIndex' and 'functionData' when asked for) and returns a
        value that can be stored in a list.
    parameters : dict
        name -> (begin, end, numberOfValues) for ``numberOfValues`` values from begin to end (as np.linspace, or
        np.logspace with ``useLogSpace``), or name -> [v0, v1, ...] for these values. The first parameter varies
        slowest, the last fastest. A range of integer ends with (end - begin + 1) / numberOfValues whole, and a
        list of integers, are passed as int (``int(value)``), every other value as float.
    useLogSpace : bool
        Space the ranges logarithmically (begin > 0).
    debugMode : bool
        Print the number of variations and the parameter lists.
    addComputationIndex : bool
        Add 'computationIndex' (0, 1, ... in the order of the calls) to every parameter set.
    useMultiProcessing : bool
        Run the calls in worker processes (``numberOfThreads``, default: CPUs); see the module's description.
    showProgress : bool
        Print a line per call.
    parameterFunctionData : dict
        Passed as 'functionData' in every parameter set when not empty.
    clusterHostNames : list
        Must be empty (cluster computation is not available).
    numberOfThreads : int or None
        Number of worker processes.
    resultsFile : str
        File written row by row in Exudyn's format ('' writes none).

    Returns
    -------
    list
        [parameterLists, values]: parameterLists maps each name (and 'computationIndex') to a NumPy array of its
        value in every call; values holds the function's results in the order of the calls.
    """
    unknown = set(kwargs) - {"useMPI", "useDispyWebMonitor"}
    if unknown:
        raise TypeError(f"ParameterVariation: unknown keyword arguments {sorted(unknown)}")
    if not isinstance(parameters, dict) or not parameters:
        raise ValueError(f"ParameterVariation: parameters must be a non-empty dict name -> (begin, end, "
                         f"numberOfValues) or [values], got {parameters!r}")
    for name in parameters:
        if name in _RESERVED_KEYS:
            raise ValueError(f"ParameterVariation: '{name}' is a reserved key and cannot be a varied parameter")
    spaces = {}
    passedAsInt = {}
    for name, value in parameters.items():
        spaces[name], passedAsInt[name] = _parameter_values(name, value, useLogSpace)
    counts = [len(space) for space in spaces.values()]
    numberOfVariations = math.prod(counts)
    if numberOfVariations == 0:
        empty = [name for name, space in spaces.items() if len(space) == 0]
        print(f"WARNING: ParameterVariation: no variations, the list of parameter(s) {empty} is empty")
        return []
    if debugMode:
        print("number of variations =", numberOfVariations)
    # the grid: parameter k repeats each of its values (product of the later counts) times, and that block
    # (product of the earlier counts) times
    parameterLists = {}
    for k, (name, space) in enumerate(spaces.items()):
        parameterLists[name] = np.tile(np.repeat(space, math.prod(counts[k + 1:])), math.prod(counts[:k]))
    if debugMode:
        print("parameterDict =", parameterLists)
    if addComputationIndex:
        parameterLists["computationIndex"] = np.arange(numberOfVariations, dtype=int)
    parameterList = []
    for i in range(numberOfVariations):
        parameterSet = {name: (int(values[i]) if name == "computationIndex" or passedAsInt[name]
                               else float(values[i]))
                        for name, values in parameterLists.items()}
        if parameterFunctionData:
            parameterSet["functionData"] = parameterFunctionData
        parameterList.append(parameterSet)
    values = ProcessParameterList(parameterFunction, parameterList, useMultiProcessing, clusterHostNames,
                                  showProgress=showProgress, numberOfThreads=numberOfThreads,
                                  resultsFile=resultsFile, parameters=parameters, **kwargs)
    return [parameterLists, values]


# ---------------------------------------------------------------------------------------------------------------
# GeneticOptimization
# ---------------------------------------------------------------------------------------------------------------

def _ranking_value(value):
    """The number Exudyn ranks an objective value by: a float (Python or NumPy float64) itself, anything else
    (an int, a list or array of numbers) ``sqrt(value . value)``, so an int counts by its magnitude."""
    return value if isinstance(value, float) else np.sqrt(np.dot(value, value))


def _scaled_distance(first: dict, second: dict, ranges: dict):
    """Root mean square over the parameters of (first - second) / range: Exudyn's survivor distance.

    Summed in the parameters' order with Python floats, as Exudyn does, so that ties with distanceFactor
    are decided as there."""
    total = 0
    for name, width in ranges.items():
        total += (first[name] - second[name]) ** 2 / width ** 2
    return np.sqrt(total / len(ranges))


def _select_survivors(order, candidates, ranges, count: int, distanceFactor: float):
    """Indices of the survivors: the best ``count`` candidates (``order``: best first); with distanceFactor > 0
    only those farther than distanceFactor (:func:`_scaled_distance`) from every better survivor."""
    if distanceFactor <= 0:
        return [int(index) for index in order[:count]]
    nearest = [1.0] * len(candidates)   # distance of each candidate to the closest survivor so far
    chosen = []
    for index in order:
        if len(chosen) == count:
            break
        if nearest[index] > distanceFactor:
            chosen.append(int(index))
            for k, other in enumerate(candidates):
                distance = _scaled_distance(candidates[index], other, ranges)
                if distance < nearest[k]:
                    nearest[k] = distance
    return chosen


def _mutated_gene(distribution: str, begin, end, lower, upper):
    """One gene from NumPy's global generator: uniform in [begin, end) or normal about its middle with half its
    width as standard deviation, drawn again until it lies in the search range [lower, upper]."""
    while True:
        if distribution == "uniform":
            gene = np.random.uniform(begin, end)
        else:
            gene = np.random.normal(loc=0.5 * (begin + end), scale=0.5 * (end - begin))
        if not (gene < lower or gene > upper):
            return gene


def _children(survivors, parameters, relativeRange, populationSize, crossoverProbability, childDistribution):
    """The next generation (populationSize genomes) from the survivors, with Exudyn's draws in Exudyn's order.

    The survivors are visited in turn, in whole passes, until the generation is full; the last pass is
    completed (its draws are made, surplus children dropped). A visited survivor gives one child around itself
    or, with crossoverProbability, two children: one around each of two randomly chosen survivors. Exudyn draws
    a swap decision per gene for such a pair, but then mutates around the two chosen survivors' own genes, so the
    decisions only advance the generator. Every gene is drawn within relativeRange times its search range about
    the parent's gene, cut to the search range (:func:`_mutated_gene`)."""
    children = []
    while len(children) < populationSize:
        for survivor in survivors:
            parents = [survivor]
            if crossoverProbability > 0 and np.random.random() < crossoverProbability:
                parents = [survivors[np.random.randint(len(survivors))],
                           survivors[np.random.randint(len(survivors))]]
                for _ in parameters:
                    np.random.random()   # the swap decisions (see above)
            for parent in parents:
                child = {}
                for name, (lower, upper) in parameters.items():
                    halfWidth = 0.5 * ((upper - lower) * relativeRange)
                    child[name] = _mutated_gene(childDistribution, max(parent[name] - halfWidth, lower),
                                                min(parent[name] + halfWidth, upper), lower, upper)
                if len(children) < populationSize:
                    children.append(child)
    return children


def GeneticOptimization(objectiveFunction, parameters, populationSize=100, numberOfGenerations=10, elitistRatio=0.1,
                        crossoverProbability=0.25, crossoverAmount=0.5, rangeReductionFactor=0.7, distanceFactor=0.1,
                        childDistribution='uniform', distanceFactorGenerations=-1, debugMode=False,
                        addComputationIndex=False, useMultiProcessing=False, showProgress=True, clusterHostNames=[],
                        parameterFunctionData={}, **kwargs):
    """Minimize ``objectiveFunction`` over a box of parameters with Exudyn 1.13.6's genetic algorithm.

    The same algorithm and the same calls to NumPy's global random generator (``np.random``) in the same order
    as Exudyn, so a seed (``randomizerInitialization``, or ``np.random.seed`` called before) gives Exudyn's
    individuals and optimum to round-off (the objective values are the objective function's). Like Exudyn, the
    seed re-seeds the global generator, and without it the run continues the global generator's sequence.

    The first generation is ``initialPopulationSize`` uniform random individuals in the box (individual by
    individual, parameter by parameter). Each generation is evaluated, joined by the previous survivors (not
    evaluated again), and ranked (:func:`_ranking_value`, ties by position, NaN last). The best
    ``int(elitistRatio * populationSize)`` (at least 1) survive; while the distance rule is active
    (``distanceFactor`` > 0, in the first ``distanceFactorGenerations`` generations, all if negative) a survivor
    must lie farther than distanceFactor from every better survivor (root mean square of the parameter
    differences over the parameter ranges). The survivors give ``populationSize`` children (:func:`_children`)
    with the mutation range rangeReductionFactor**g times the search range in generation g = 1, 2, ...

    Parameters
    ----------
    objectiveFunction : callable
        Takes a dict {name: value, ...} (plus 'computationIndex', 'functionData' when asked for) and returns the
        value to minimize: a float, or a vector (ranked by its Euclidean norm; an int by its magnitude).
    parameters : dict
        name -> (begin, end), the search range, begin < end.
    populationSize, numberOfGenerations : int
        Children per generation (after the first) and number of generations.
    elitistRatio : float
        Share of populationSize that survives each generation (at least one individual).
    crossoverProbability : float
        Probability that a visited survivor gives two children around two random survivors instead of one
        around itself (0: never, and no draw for it).
    crossoverAmount : float
        Exudyn's share of swapped genes in a crossover; the swaps do not reach the children (see _children),
        so it has no effect on the result.
    rangeReductionFactor : float
        Factor by which the mutation range shrinks each generation.
    distanceFactor : float
        Minimum normalized distance between survivors (<= 0: none; should be < 0.5; >= 1 is replaced by 0.5).
    childDistribution : str
        'uniform' or 'normal'.
    distanceFactorGenerations : int
        Number of generations in which the distance rule applies (negative: all).
    debugMode, showProgress : bool
        Print the generations' best values; print a line per evaluation.
    addComputationIndex : bool
        Add 'computationIndex' (0, 1, ... within each generation) to every parameter set.
    useMultiProcessing : bool
        Evaluate each generation in worker processes (kwarg ``numberOfThreads``; see the module's description).
    clusterHostNames : list
        Must be empty (cluster computation is not available).
    parameterFunctionData : dict
        Passed as 'functionData' in every parameter set when not empty.
    **kwargs
        ``randomizerInitialization`` (int seed, 0 <= seed < 2**32), ``initialPopulationSize`` (default
        populationSize), ``numberOfThreads``, ``resultsFile`` (Exudyn's format, written after each generation);
        deprecated in Exudyn (warn): ``survivingIndividuals`` (replaces int(elitistRatio * populationSize)),
        ``numberOfChildren`` (ignored).

    Returns
    -------
    list
        [optimumParameters, optimumValue, parameterLists, values]: the best individual (dict of float), its
        ranking value (numpy.float64), every evaluated individual's parameters (name -> float64 array) and the
        objective values as returned, in evaluation order (survivors are not repeated).
    """
    unknown = set(kwargs) - {"randomizerInitialization", "initialPopulationSize", "numberOfThreads", "resultsFile",
                             "useMPI", "useDispyWebMonitor", "survivingIndividuals", "numberOfChildren"}
    if unknown:
        raise TypeError(f"GeneticOptimization: unknown keyword arguments {sorted(unknown)}")
    seed = kwargs.get("randomizerInitialization")
    if seed is not None and (not isinstance(seed, Integral) or isinstance(seed, bool) or not 0 <= seed < 2 ** 32):
        raise ValueError(f"GeneticOptimization: randomizerInitialization must be an integer in [0, 2**32), "
                         f"got {seed!r}")
    if not isinstance(parameters, dict) or not parameters:
        raise ValueError(f"GeneticOptimization: parameters must be a non-empty dict name -> (begin, end), "
                         f"got {parameters!r}")
    for name, value in parameters.items():
        if name in _RESERVED_KEYS:
            raise ValueError(f"GeneticOptimization: '{name}' is a reserved key and cannot be a parameter")
        if not isinstance(value, (tuple, list)) or len(value) != 2 or not all(
                isinstance(v, Real) and math.isfinite(v) for v in value):
            raise ValueError(f"GeneticOptimization: parameter '{name}' must be a range (begin, end) of two finite "
                             f"numbers, got {value!r}")
        if value[1] <= value[0]:
            raise ValueError(f"GeneticOptimization: parameter '{name}' has the empty range {tuple(value)!r}; "
                             f"it needs begin < end")
    initialPopulationSize = kwargs.get("initialPopulationSize", populationSize)
    for label, number in (("populationSize", populationSize), ("numberOfGenerations", numberOfGenerations),
                          ("initialPopulationSize", initialPopulationSize)):
        if not isinstance(number, Integral) or isinstance(number, bool) or number < 1:
            raise ValueError(f"GeneticOptimization: {label} must be a positive integer, got {number!r}")
    if childDistribution not in ("uniform", "normal"):
        raise ValueError(f"GeneticOptimization: childDistribution must be 'uniform' or 'normal', "
                         f"got {childDistribution!r}")
    if math.isnan(distanceFactor):
        raise ValueError("GeneticOptimization: distanceFactor is NaN; give a number (0: survivors at any distance)")
    if distanceFactor >= 1:   # no two individuals of the box could survive together; as Exudyn, use 0.5
        print(f"WARNING: GeneticOptimization: distanceFactor = {distanceFactor} >= 1; using 0.5")
        distanceFactor = 0.5
    for deprecated, use in (("numberOfChildren", "populationSize and elitistRatio (numberOfChildren is ignored)"),
                            ("survivingIndividuals", "populationSize and elitistRatio")):
        if deprecated in kwargs:
            warnings.warn(f"GeneticOptimization: the argument {deprecated} is deprecated in Exudyn; use {use}",
                          DeprecationWarning, stacklevel=2)
    survivorCount = kwargs.get("survivingIndividuals", int(elitistRatio * populationSize))
    if survivorCount < 1:
        print("WARNING: GeneticOptimization: elitistRatio * populationSize < 1; one individual survives")
        survivorCount = 1
    distanceGenerations = numberOfGenerations if distanceFactorGenerations < 0 else distanceFactorGenerations
    ranges = {name: upper - lower for name, (lower, upper) in parameters.items()}
    workers = _number_of_workers(kwargs.get("numberOfThreads"))
    processing = f"concurrent.futures.ProcessPoolExecutor, numberOfThreads={workers}" if useMultiProcessing else ""
    results = _ResultsFile(kwargs.get("resultsFile", ""), parameters, "genetic optimization", processing)

    if seed is not None:
        np.random.seed(seed)
    population = [{name: np.random.uniform(lower, upper) for name, (lower, upper) in parameters.items()}
                  for _ in range(initialPopulationSize)]
    survivors, survivorValues = [], []
    evaluated, allValues = [], []
    for generation in range(numberOfGenerations):
        parameterSets = []
        for index, genome in enumerate(population):
            parameterSet = dict(genome)
            if addComputationIndex:
                parameterSet["computationIndex"] = index
            if parameterFunctionData:
                parameterSet["functionData"] = parameterFunctionData
            parameterSets.append(parameterSet)
        values = ProcessParameterList(objectiveFunction, parameterSets, useMultiProcessing, clusterHostNames,
                                      showProgress=showProgress, numberOfThreads=workers)
        results.write(parameterSets, values)
        evaluated += population
        allValues += values
        candidates = population + survivors
        candidateValues = values + survivorValues
        ranking = np.array([_ranking_value(v) for v in candidateValues], dtype=float)
        order = np.argsort(ranking, kind="stable")   # ties by position, NaN last (Exudyn's sort by value, index)
        if debugMode:
            print(f"generation {generation}: best values {ranking[order[:min(survivorCount, 4)]]}")
        if generation == numberOfGenerations - 1:
            break
        chosen = _select_survivors(order, candidates, ranges, survivorCount,
                                   distanceFactor if generation < distanceGenerations else 0.0)
        survivors, survivorValues = [candidates[i] for i in chosen], [candidateValues[i] for i in chosen]
        population = _children(survivors, parameters, rangeReductionFactor ** (generation + 1), populationSize,
                               crossoverProbability, childDistribution)
    optimumParameters = dict(candidates[order[0]])
    optimumValue = ranking[order[0]]
    if debugMode:
        print(f"optimum parameters = {optimumParameters}, optimum value = {optimumValue}; "
              f"{len(allValues)} evaluations")
    parameterLists = {name: np.array([genome[name] for genome in evaluated], dtype=float) for name in parameters}
    return [optimumParameters, optimumValue, parameterLists, allValues]



# ---------------------------------------------------------------------------------------------------------------
# PlotOptimizationResults2D
# ---------------------------------------------------------------------------------------------------------------

def PlotOptimizationResults2D(parameterList, valueList, xLogScale=False, yLogScale=False):
    """Plot the objective values over each parameter, one matplotlib figure per parameter.

    Parameters
    ----------
    parameterList : dict
        name -> the parameter's values (GeneticOptimization's or ParameterVariation's parameter lists).
    valueList : list
        The objective values, as many as each parameter list has.
    xLogScale, yLogScale : bool
        Logarithmic axes.

    Returns
    -------
    list
        [figures, axes], one of each per parameter.
    """
    import matplotlib
    import matplotlib.pyplot as plt
    from matplotlib import ticker

    plt.close("all")
    if len(valueList) == 0:
        print("WARNING: PlotOptimizationResults2D: valueList is empty; the figures have no points")
    figures, axesList = [], []
    for name, values in parameterList.items():
        if len(values) != len(valueList):
            raise ValueError(f"PlotOptimizationResults2D: parameter '{name}' has {len(values)} values but "
                             f"valueList has {len(valueList)}")
        figure = plt.figure()
        axes = figure.gca()
        axes.plot(values, valueList, "b.", label=name)
        axes.set_xlabel(name)
        axes.set_ylabel("value (objective function)")
        axes.grid(True, "major", "both")
        axes.xaxis.set_major_locator(ticker.MaxNLocator(10))
        axes.yaxis.set_major_locator(ticker.MaxNLocator(10))
        if xLogScale:
            axes.set_xscale("log")
        if yLogScale:
            axes.set_yscale("log")
        axes.legend()
        figure.tight_layout()
        figures.append(figure)
        axesList.append(axes)
    if figures and matplotlib.get_backend().lower() != "agg":
        plt.show(block=False)
    return [figures, axesList]
