"""Exudyn's exudyn.processing: ParameterVariation, GeneticOptimization, PlotOptimizationResults2D.

Claims: ParameterVariation calls the function with the same parameter sets (values and int/float types, in the
same order) and returns the same parameter lists and values as exudyn 1.13.6, for linear and logarithmic ranges,
lists and computationIndex, and writes the same results file apart from the version line; worker processes give
the same values in the same order as the serial run. GeneticOptimization finds the minimum of a paraboloid to
within the last generation's mutation range, ranks vector objectives by their norm, is reproducible with
randomizerInitialization, and returns every evaluated individual. PlotOptimizationResults2D plots each
parameter's values against the objective values."""
import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

import floatframe.exudyn.processing as ffp  # noqa: E402
from floatframe.exudyn import ExudynLayerError  # noqa: E402


def analytic_function(parameterSet):
    """A cheap parameter function whose value depends on every parameter and on computationIndex."""
    return (parameterSet["mass"] ** 2 + np.sin(parameterSet["spring"]) * parameterSet.get("damper", 1.0)
            + 0.125 * parameterSet.get("computationIndex", 0))


VARIATIONS = [
    dict(parameters={"mass": (1, 10, 2), "spring": (100, 10000, 3)}, useLogSpace=True, addComputationIndex=True),
    dict(parameters={"mass": (0.5, 2.5, 4), "spring": [1, 2, 5], "damper": (1, 9, 3)}),
    dict(parameters={"mass": (1, 10, 10), "spring": [0.1, 2.0]}, addComputationIndex=True),
    dict(parameters={"mass": (1, 100, 3), "spring": (2.0, 3.0, 2)}, useLogSpace=True),
]


def run_recording(module, variation):
    """ParameterVariation of ``module`` with the parameter sets it passed, in call order."""
    calls = []

    def function(parameterSet):
        calls.append(dict(parameterSet))
        return analytic_function(parameterSet)

    parameterLists, values = module.ParameterVariation(function, showProgress=False, **variation)
    return parameterLists, values, calls


@pytest.mark.parametrize("variation", VARIATIONS)
def test_parameter_variation_equals_exudyns(variation):
    exp = pytest.importorskip("exudyn.processing")
    ours, theirs = run_recording(ffp, variation), run_recording(exp, variation)
    assert list(ours[0]) == list(theirs[0])
    for name in theirs[0]:
        assert ours[0][name].dtype == theirs[0][name].dtype, name
        np.testing.assert_array_equal(ours[0][name], theirs[0][name])
    assert ours[1] == theirs[1]
    assert [[(k, type(v), v) for k, v in call.items()] for call in ours[2]] == \
        [[(k, type(v), v) for k, v in call.items()] for call in theirs[2]]


def test_parameter_variation_grid_closed_form():
    parameterLists, values = ffp.ParameterVariation(analytic_function, {"mass": (1.0, 100.0, 3), "spring": [3, 4]},
                                                    useLogSpace=True, addComputationIndex=True, showProgress=False)
    np.testing.assert_allclose(parameterLists["mass"], [1, 1, 10, 10, 100, 100], rtol=1e-14)
    assert parameterLists["spring"].tolist() == [3, 4, 3, 4, 3, 4]
    assert parameterLists["computationIndex"].tolist() == list(range(6))
    expected = [m ** 2 + np.sin(s) + 0.125 * i for i, (m, s) in enumerate(zip(parameterLists["mass"],
                                                                                parameterLists["spring"]))]
    np.testing.assert_allclose(values, expected, rtol=1e-14)


def test_parameter_variation_function_data_and_results_file_as_exudyns(tmp_path):
    exp = pytest.importorskip("exudyn.processing")
    variation = dict(parameters={"mass": (1, 10, 2), "spring": (100, 10000, 3)}, useLogSpace=True,
                     addComputationIndex=True, parameterFunctionData={"scale": 2.0}, showProgress=False)
    files = []
    for module in (ffp, exp):
        calls = []
        files.append(tmp_path / f"{module.__name__}.txt")
        module.ParameterVariation(lambda p: calls.append(p) or p["functionData"]["scale"] * analytic_function(p),
                                  resultsFile=str(files[-1]), **variation)
        assert [call["functionData"] for call in calls] == [{"scale": 2.0}] * 6
    ours, theirs = (file.read_text().splitlines() for file in files)
    assert len(ours) == len(theirs) == 8 + 6
    for index, (line, reference) in enumerate(zip(ours, theirs)):
        if index == 0:
            assert line.split(":")[0] == reference.split(":")[0]   # the kind; then the file's own name
        elif index != 2:                                         # line 2: the version of the code
            assert line == reference


def test_parameter_variation_worker_processes_give_the_serial_values_in_order(tmp_path):
    offset = 0.5   # a local function (closure): the forked workers need not pickle it
    function = lambda p: [analytic_function(p) + offset, p["computationIndex"]]  # noqa: E731
    variation = dict(parameters={"mass": (0.0, 1.0, 5), "spring": [1.0, 2.0, 3.0]}, addComputationIndex=True,
                     showProgress=False)
    serial = ffp.ParameterVariation(function, **variation)
    parallel = ffp.ParameterVariation(function, useMultiProcessing=True, numberOfThreads=2,
                                      resultsFile=str(tmp_path / "parallel.txt"), **variation)
    assert parallel[1] == serial[1]
    assert [v[1] for v in parallel[1]] == list(range(15))
    rows = [line for line in (tmp_path / "parallel.txt").read_text().splitlines() if not line.startswith("#")]
    assert [int(row.split(",")[0]) for row in rows] == list(range(15))


def test_parameter_variation_refuses_bad_ranges_and_clusters():
    for parameters, message in (({"mass": (1, 2)}, "'mass' must be \\(begin, end, numberOfValues\\)"),
                                ({"mass": (2, 1, 3)}, "'mass': begin 2 is larger than end 1"),
                                ({"mass": (1, 2, 2.5)}, "'mass': numberOfValues must be an integer"),
                                ({"mass": (1, 2, 0)}, "'mass': numberOfValues must be positive"),
                                ({"mass": 3.0}, "'mass' must be a tuple")):
        with pytest.raises(ValueError, match=message):
            ffp.ParameterVariation(analytic_function, parameters, showProgress=False)
    with pytest.raises(ExudynLayerError, match="cluster computation"):
        ffp.ParameterVariation(analytic_function, {"mass": (1, 2, 2)}, useMultiProcessing=True,
                               clusterHostNames=["10.0.0.1"], showProgress=False)
    with pytest.raises(ImportError, match="does not support exudyn's 'Minimize'"):
        from floatframe.exudyn.processing import Minimize  # noqa: F401


MINIMIZER = np.array([2.0, -1.0, 0.3])
RANGES = {"x": (-5.0, 5.0), "y": (-3.0, 3.0), "z": (0.0, 1.0)}


def paraboloid(parameterSet):
    point = np.array([parameterSet["x"], parameterSet["y"], parameterSet["z"]])
    return float(np.sum((point - MINIMIZER) ** 2 * [1.0, 3.0, 10.0]))


@pytest.mark.parametrize("seed", range(8))
def test_genetic_optimization_finds_a_paraboloids_minimum(seed):
    generations, reduction = 12, 0.7
    pOpt, vOpt, pList, values = ffp.GeneticOptimization(paraboloid, RANGES, populationSize=30,
                                                        numberOfGenerations=generations, elitistRatio=0.1,
                                                        rangeReductionFactor=reduction, distanceFactor=0.0,
                                                        randomizerInitialization=seed, showProgress=False)
    # the last generation's children lie within a half-width h = reduction**(generations-1) / 2 of each range
    # around a survivor; converged means the survivor is within h of the minimizer, so the optimum (a child or
    # that survivor) is within 2 h in every parameter (200 seeds: at most 1.62 h; without range reduction,
    # rangeReductionFactor=1, all of seeds 0-7 miss 2 h)
    halfWidths = 0.5 * reduction ** (generations - 1) * np.array([b - a for a, b in RANGES.values()])
    found = np.array([pOpt["x"], pOpt["y"], pOpt["z"]])
    assert np.all(np.abs(found - MINIMIZER) < 2 * halfWidths), (found, halfWidths)
    assert vOpt == paraboloid(pOpt) == min(values)
    assert len(values) == 30 * generations and all(len(pList[name]) == len(values) for name in RANGES)
    assert [paraboloid({n: pList[n][i] for n in RANGES}) for i in range(len(values))] == values
    for name, (begin, end) in RANGES.items():
        assert begin <= pList[name].min() and pList[name].max() <= end


def test_genetic_optimization_is_reproducible_and_ranks_vectors_by_norm():
    def residual(p):
        return [p["x"] - 1.0, 2.0 * (p["y"] - 0.5)]

    options = dict(parameters={"x": (0.0, 3.0), "y": (0.0, 1.0)}, populationSize=12, numberOfGenerations=8,
                   crossoverProbability=0.5, childDistribution="normal", showProgress=False)
    first = ffp.GeneticOptimization(residual, randomizerInitialization=7, **options)
    again = ffp.GeneticOptimization(residual, randomizerInitialization=7, **options)
    other = ffp.GeneticOptimization(residual, randomizerInitialization=8, **options)
    assert first[0] == again[0] and first[1] == again[1] and first[3] == again[3]
    assert not np.array_equal(first[2]["x"], other[2]["x"])
    norms = [np.hypot(*v) for v in first[3]]
    assert first[1] == pytest.approx(min(norms), rel=1e-15) and first[1] == pytest.approx(
        np.hypot(*residual(first[0])), rel=1e-15)
    halfWidths = 0.5 * 0.7 ** 7 * np.array([3.0, 1.0])   # as in the paraboloid test: converged to 2 h
    assert np.all(np.abs([first[0]["x"] - 1.0, first[0]["y"] - 0.5]) < 2 * halfWidths)


def test_genetic_optimization_computation_index_function_data_survivors_and_results_file(tmp_path):
    calls = []

    def objective(p):
        calls.append(p)
        return abs(p["x"] - p["functionData"]["target"])

    file = tmp_path / "go.txt"
    pOpt, vOpt, pList, values = ffp.GeneticOptimization(objective, {"x": (0.0, 1.0)}, populationSize=5,
                                                        numberOfGenerations=3, initialPopulationSize=8,
                                                        elitistRatio=0.4, distanceFactor=0.05,
                                                        addComputationIndex=True, randomizerInitialization=3,
                                                        parameterFunctionData={"target": 0.25},
                                                        resultsFile=str(file), showProgress=False)
    assert [c["computationIndex"] for c in calls] == list(range(8)) + list(range(5)) * 2
    assert len(values) == len(pList["x"]) == 18
    rows = [line.split(", ") for line in file.read_text().splitlines() if not line.startswith("#")]
    assert [int(r[0]) for r in rows] == list(range(18))
    np.testing.assert_allclose([float(r[1]) for r in rows], values, rtol=1e-15)
    np.testing.assert_allclose([float(r[2]) for r in rows], pList["x"], rtol=1e-15)
    assert "#globalIndex,value,x,computationIndex" in file.read_text().splitlines()
    assert vOpt == min(values) and pOpt == {"x": pList["x"][int(np.argmin(values))]}


def test_genetic_optimization_in_worker_processes_equals_serial():
    options = dict(parameters=RANGES, populationSize=6, numberOfGenerations=3, randomizerInitialization=5,
                   showProgress=False)
    serial = ffp.GeneticOptimization(paraboloid, **options)
    parallel = ffp.GeneticOptimization(paraboloid, useMultiProcessing=True, numberOfThreads=2, **options)
    assert parallel[0] == serial[0] and parallel[1] == serial[1] and parallel[3] == serial[3]


def test_genetic_optimization_refuses_bad_input():
    for parameters, keywords, message in (
            ({"x": (1.0, 1.0)}, {}, "'x' has the empty range"),
            ({"x": (0.0, 1.0, 3)}, {}, "'x' must be a range \\(begin, end\\)"),
            ({"x": (0.0, 1.0)}, {"childDistribution": "gauss"}, "childDistribution must be 'uniform' or 'normal'"),
            ({"x": (0.0, 1.0)}, {"randomizerInitialization": -1}, "randomizerInitialization must be an integer")):
        with pytest.raises(ValueError, match=message):
            ffp.GeneticOptimization(paraboloid, parameters, showProgress=False, **keywords)


def test_plot_optimization_results_2d():
    parameterLists = {"x": np.array([1.0, 2.0, 4.0]), "y": np.array([0.5, 0.25, 0.125])}
    values = [3.0, 1.0, 2.0]
    figures, axes = ffp.PlotOptimizationResults2D(parameterLists, values, xLogScale=True, yLogScale=True)
    assert len(figures) == len(axes) == 2
    for name, ax in zip(parameterLists, axes):
        line = ax.get_lines()[0]
        np.testing.assert_array_equal(line.get_xdata(), parameterLists[name])
        np.testing.assert_array_equal(line.get_ydata(), values)
        assert ax.get_xlabel() == name and ax.get_xscale() == "log" and ax.get_yscale() == "log"
    with pytest.raises(ValueError, match="parameter 'x' has 3 values but valueList has 2"):
        ffp.PlotOptimizationResults2D(parameterLists, values[:2])
