"""floatframe.exudyn's GeneticOptimization against exudyn 1.13.6's, on cheap objectives (no simulation).

Claims: for the same seed both call the objective with the same parameter sets (values, keys and types, in the
same order), return the same optimum (parameters and numpy.float64 value), the same lists of evaluated
parameters and values, leave NumPy's global generator in the same state, and write the same results file apart
from the version line; for two seeds and two settings of the options (uniform children without crossover
pressure, and normal children with crossover, a limited distance rule, an initial population of its own, a
computation index, function data and a vector objective). Without a seed both continue the global generator's
sequence alike. ParameterVariation's grid keeps Exudyn's dtypes for lists of bools and float32."""
import numpy as np
import pytest

import floatframe.exudyn.processing as ffp

exp = pytest.importorskip("exudyn.processing")


def quadratic(p):
    """A paraboloid in three parameters, minimum 0 at (1.3, -0.4, 2)."""
    return (p["a"] - 1.3) ** 2 + 3.0 * (p["b"] + 0.4) ** 2 + 0.5 * (p["c"] - 2.0) ** 2


def residual(p):
    """A vector objective (ranked by its norm); its scale comes from the function data."""
    scale = p["functionData"]["scale"]
    return [scale * (p["a"] - 1.3), p["b"] + 0.4, 0.1 * (p["c"] - 2.0)]


RANGES = {"a": (0, 5), "b": (-2.0, 1.0), "c": (1.0, 3.0)}
SETTINGS = {
    "uniform": dict(objective=quadratic, options=dict(populationSize=20, numberOfGenerations=6)),
    "normal crossover": dict(objective=residual, options=dict(
        populationSize=15, numberOfGenerations=5, initialPopulationSize=25, elitistRatio=0.2,
        crossoverProbability=0.6, childDistribution="normal", distanceFactor=0.3, distanceFactorGenerations=2,
        rangeReductionFactor=0.5, addComputationIndex=True, parameterFunctionData={"scale": 2.0})),
}


def run(module, setting, resultsFile="", **seed):
    """GeneticOptimization of ``module``; its result, the parameter sets it passed and the generator's next draw."""
    calls = []

    def objective(parameterSet):
        calls.append([(key, type(value), value) for key, value in parameterSet.items()])
        return setting["objective"](parameterSet)

    result = module.GeneticOptimization(objective, RANGES, showProgress=False, resultsFile=resultsFile,
                                        **seed, **setting["options"])
    return result, calls, np.random.random()


def assert_same_run(ours, theirs):
    (pOpt, vOpt, pLists, values), calls, nextDraw = ours
    (pOptRef, vOptRef, pListsRef, valuesRef), callsRef, nextDrawRef = theirs
    assert calls == callsRef
    assert pOpt == pOptRef and [type(v) for v in pOpt.values()] == [type(v) for v in pOptRef.values()]
    assert type(vOpt) is type(vOptRef) is np.float64 and vOpt == vOptRef
    assert list(pLists) == list(pListsRef)
    for name in pListsRef:
        assert pLists[name].dtype == pListsRef[name].dtype
        np.testing.assert_array_equal(pLists[name], pListsRef[name])
    assert values == valuesRef
    assert nextDraw == nextDrawRef


@pytest.mark.parametrize("seed", [0, 11])
@pytest.mark.parametrize("setting", list(SETTINGS))
def test_genetic_optimization_equals_exudyns(seed, setting, tmp_path):
    files = [tmp_path / "floatframe.txt", tmp_path / "exudyn.txt"]
    ours = run(ffp, SETTINGS[setting], str(files[0]), randomizerInitialization=seed)
    theirs = run(exp, SETTINGS[setting], str(files[1]), randomizerInitialization=seed)
    assert_same_run(ours, theirs)
    options = SETTINGS[setting]["options"]
    evaluations = (options.get("initialPopulationSize", options["populationSize"])
                   + (options["numberOfGenerations"] - 1) * options["populationSize"])
    assert len(ours[0][3]) == evaluations
    lines, reference = (file.read_text().splitlines() for file in files)
    assert len(lines) == len(reference) == 8 + evaluations
    for index, (line, referenceLine) in enumerate(zip(lines, reference)):
        if index == 0:
            assert line.split(":")[0] == referenceLine.split(":")[0]   # the kind; then the file's own name
        elif index != 2:                                              # line 2: the version of the code
            assert line == referenceLine


def test_genetic_optimization_without_seed_continues_the_global_generator_as_exudyn():
    runs = []
    for module in (ffp, exp):
        np.random.seed(1234)
        runs.append(run(module, SETTINGS["uniform"]))
    assert_same_run(*runs)


def test_deprecated_surviving_individuals_as_exudyn():
    setting = dict(objective=quadratic, options=dict(populationSize=12, numberOfGenerations=4,
                                                     survivingIndividuals=3, distanceFactor=0.0))
    with pytest.warns(DeprecationWarning, match="survivingIndividuals"):
        ours = run(ffp, setting, randomizerInitialization=5)
    with pytest.warns(DeprecationWarning, match="survivingIndividuals"):
        theirs = run(exp, setting, randomizerInitialization=5)
    assert_same_run(ours, theirs)


def test_parameter_variation_list_dtypes_as_exudyns():
    for values in ([True, False], [np.float32(1.5), np.float32(2.0)], [1, 2.5]):
        ours = ffp.ParameterVariation(lambda p: 0.0, {"k": values}, showProgress=False)[0]["k"]
        theirs = exp.ParameterVariation(lambda p: 0.0, {"k": values}, showProgress=False)[0]["k"]
        assert ours.dtype == theirs.dtype
        np.testing.assert_array_equal(ours, theirs)
