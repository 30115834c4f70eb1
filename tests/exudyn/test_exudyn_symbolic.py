"""floatframe.exudyn.symbolic (Exudyn's exudyn.symbolic on CasADi) against exudyn 1.13.6 in the same test.

Claims: its Reals, Vectors and Matrices, functions, comparisons, variables and derivatives give exudyn's values,
recording or not; a recorded user function gives exudyn's values and strings, and in a floatframe item it is a
CasADi expression (exact derivative, no callback); Exudyn's three test models that use it (symbolicModuleTest,
symbolicUserFunctionTest, loadUserFunctionTest, vendored in testmodels/) compute exudyn's test results."""
import json
import math
import subprocess
import sys
from pathlib import Path

import casadi as ca
import numpy as np
import pytest

import floatframe.exudyn as fexu
import floatframe.exudyn.symbolic as fsym
from floatframe.exudyn.utilities import CreateSymbolicUserFunction as ff_create

exu = pytest.importorskip("exudyn")
from exudyn.utilities import CreateSymbolicUserFunction as exu_create  # noqa: E402

pytestmark = pytest.mark.exudyn
esym = exu.symbolic
UNARY = ["abs", "sign", "Not", "round", "ceil", "floor", "exp", "sqrt", "log", "sin", "cos", "tan", "asin", "acos",
         "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "isfinite"]
BINARY = ["pow", "atan2", "mod", "min", "max"]
NUMBERS = [-3, 0, 2, -0.6, 0.0, 0.25, 0.5, 2.5, -2.5, math.pi]


@pytest.fixture(params=[True, False], ids=["recording", "not recording"])
def recording(request):
    fsym.SetRecording(request.param)
    esym.SetRecording(request.param)
    yield request.param
    fsym.SetRecording(True)
    esym.SetRecording(True)


def same(ours, theirs):
    """Equal values (NaN where exudyn gives NaN), to one unit in the last place."""
    ours, theirs = np.asarray(ours, dtype=float), np.asarray(theirs, dtype=float)
    assert ours.shape == theirs.shape
    np.testing.assert_allclose(ours, theirs, rtol=4e-16, atol=1e-300, equal_nan=True)


def scalar_expressions(lib, x, y):
    """Expressions of two Reals (y a variable) in every operation and function; lib is one symbolic module."""
    results = [x + y, y + x, x - y, y - x, x * y, x / 3, 2 - x, 2 / (y + 1), -x, +x, y ** x, x ** 2,
               x < y, x <= y, x > y, x >= y, x == y, x != y, lib.IfThenElse(x, x + 1, y + x),
               x + lib.sin(x / y) ** 2 + lib.tan(x) * lib.cos(x) * y * 3]
    results += [getattr(lib, name)(x) for name in UNARY]
    results += [getattr(lib, name)(x, y) for name in BINARY] + [getattr(lib, name)(y, x) for name in BINARY]
    return results


@pytest.mark.parametrize("number", NUMBERS)
def test_real_operations_and_functions_give_exudyns_values(recording, number):
    ours = scalar_expressions(fsym, fsym.Real(number), fsym.Real("y", 0.7))
    theirs = scalar_expressions(esym, esym.Real(number), esym.Real("y", 0.7))
    same([r.Evaluate() for r in ours], [r.Evaluate() for r in theirs])
    assert all(type(r) is fsym.Real for r in ours)


def test_recorded_expressions_read_variables_when_evaluated_and_copy_numbers(recording):
    for lib in (fsym, esym):
        a, w = lib.Real("a", 1.5), lib.Vector([3.0, 4.0])
        v = lib.Vector("v", [1.0, 2.0])
        e, z = a * 2 + lib.sin(a), v + w
        a.SetValue(2.0)
        w[0], v[1] = 100.0, 7.0
        if lib is fsym:
            ours = [e.Evaluate(), *z.Evaluate()]
        else:
            theirs = [e.Evaluate(), *z.Evaluate()]
    same(ours, theirs)
    expected = [4 + math.sin(2), 4, 11] if recording else [3 + math.sin(1.5), 4, 6]
    np.testing.assert_allclose(ours, expected, rtol=1e-15)


def vector_matrix_expressions(lib):
    a = lib.Real("a", 0.5)
    v, w = lib.Vector("v", [1.0, 2.0, -0.5]), lib.Vector([4.2, -1.2, 0.3])
    M = lib.Matrix("M", np.array([[2.0, 0.1, 0.33], [-0.1, 2.3, 0.7], [0.0, 0.34, 1.8]]))
    N = lib.Matrix(np.array([[1.0, 0.3, -0.33], [-0.9, 1.3, -0.7], [0.0, 0.64, -1.8]]))
    N[2, 1] = 0.5
    u = lib.Vector([a, 2 * a, a * a])
    return [v + w, v - w, -v, a * v, v * a, 3.3 * v, v * w, v.MultComponents(w), v.NormL2(), v == w, v != w,
            v == v, w[1], u, u * v, M + N, M - N, a * M, M * 0.5, M * N, M * v, v * M, M[0, 2], M.Get(2, 1),
            lib.Matrix([[a, 1.0], [2.0, a * 3]]), 0.0 * M, (M * N) * (v + w)]


def test_vector_and_matrix_operations_give_exudyns_values(recording):
    ours, theirs = vector_matrix_expressions(fsym), vector_matrix_expressions(esym)
    for i, (x, y) in enumerate(zip(ours, theirs)):
        assert type(x).__name__ == type(y).__name__, i
        same(x.Evaluate(), y.Evaluate())


def test_strings_are_exudyns_for_variables_numbers_and_expressions():
    for lib in (fsym, esym):
        a, b, v = lib.Real("a", 1.5), lib.Real("b", 2.0), lib.Vector("v", [1.0, 2.0])
        texts = [a * b + lib.sin(a) / 3, a ** 2, lib.atan2(a, b), lib.IfThenElse(a < b, a, b), -a,
                 lib.Vector([3.0, 4.0]), v + lib.Vector([3.0, 4.0]), v * v, lib.Matrix([[1.0, 0.0], [0.0, 2.0]]),
                 a * 3.14159265358979 + 1e-7, v[1]]
        if lib is fsym:
            ours = [str(x) for x in texts]
        else:
            theirs = [str(x) for x in texts]
    assert ours == theirs


def test_derivatives_are_exudyns_and_exact():
    for lib in (fsym, esym):
        a, b = lib.Real("a", 0.3), lib.Real("b", -1.2)
        e = a * b + lib.sin(a) * lib.exp(b) + lib.sqrt(a) ** 3 + lib.pow(a, b) + lib.tanh(a / b) + lib.abs(b)
        values = [e.Diff(a), e.Diff(b), a.Diff(a), lib.IfThenElse(a, a * a, b).Diff(a)]
        if lib is fsym:
            ours = values
        else:
            theirs = values
    same(ours, theirs)
    a, b = 0.3, -1.2
    exact = (b + math.cos(a) * math.exp(b) + 1.5 * math.sqrt(a) + b * a ** (b - 1)
             + (1 - math.tanh(a / b) ** 2) / b)
    assert ours[0] == pytest.approx(exact, rel=1e-14)


def test_the_derivative_of_atan2_is_exact_where_exudyn_has_the_opposite_sign():
    """d atan2(y, x)/dy = x / (x^2 + y^2); Exudyn 1.13.6 gives -x / (x^2 + y^2) (and the opposite sign for x)."""
    y, x = fsym.Real("y", 0.3), fsym.Real("x", -1.2)
    angle = fsym.atan2(y, x)
    assert angle.Diff(y) == pytest.approx(-1.2 / 1.53, rel=1e-15)
    assert angle.Diff(x) == pytest.approx(-0.3 / 1.53, rel=1e-15)
    h = 1e-7
    assert angle.Diff(y) == pytest.approx((math.atan2(0.3 + h, -1.2) - math.atan2(0.3 - h, -1.2)) / (2 * h),
                                          rel=1e-8)
    ey, ex = esym.Real("y", 0.3), esym.Real("x", -1.2)
    assert esym.atan2(ey, ex).Diff(ey) == pytest.approx(-angle.Diff(y), rel=1e-15)


def test_variable_set_behaves_as_exudyns():
    for lib in (fsym, esym):
        variables = lib.VariableSet()
        variables.Set("flag", 2.0)
        variables.Add("x", 3.0)
        doubled = variables.Get("flag") * 2
        variables.Set("flag", 10.0)
        variables["x"] = 4.0
        with pytest.raises(Exception, match="exist"):
            variables.Add("x", 5.0)
        with pytest.raises(Exception, match="exist"):
            variables.Get("missing")
        values = [doubled.Evaluate(), variables["x"].Evaluate(), variables.NumberOfItems(),
                  variables.Exists("flag"), variables.Exists("y"), sorted(variables.GetNames())]
        if lib is fsym:
            ours = values
        else:
            theirs = values
    assert ours == theirs == [20.0, 4.0, 2, True, False, ["flag", "x"]]


def spring_force(mbs, t, itemNumber, deltaL, deltaL_t, stiffness, damping, force):
    module = fsym if isinstance(mbs, fexu.MainSystem) else esym
    return (10 * damping * deltaL_t + stiffness * module.sign(deltaL) * module.abs(deltaL) ** 1.2 + force
            + module.IfThenElse(deltaL > 0.2, module.Real(3.0) * t, module.Real(0)))


def load_vector(mbs, t, loadVector):
    module = fsym if isinstance(mbs, fexu.MainSystem) else esym
    return module.cos(2 * (2 * math.pi) * t) * loadVector


def mass_spring_system(code):
    """A mass point on a spring-damper to ground with a force, as in symbolicUserFunctionTest."""
    mbs = code.SystemContainer().AddSystem()
    ground = mbs.CreateGround()
    mass = mbs.CreateMassPoint(referencePosition=[1.05, 0, 0], physicsMass=1)
    spring = mbs.CreateSpringDamper(bodyNumbers=[ground, mass], referenceLength=0.1, stiffness=100, damping=1)
    load = mbs.CreateForce(bodyNumber=mass, loadVector=[10, 0, 0])
    return mbs, mass, spring, load


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_recorded_user_functions_give_exudyns_values_and_strings():
    ours, theirs = mass_spring_system(fexu), mass_spring_system(exu)
    ff_spring = ff_create(ours[0], spring_force, "springForceUserFunction", ours[2])
    ff_load = ff_create(ours[0], load_vector, "loadVectorUserFunction", ours[3])
    exu_spring = exu_create(theirs[0], spring_force, "springForceUserFunction", theirs[2])
    exu_load = exu_create(theirs[0], load_vector, "loadVectorUserFunction", theirs[3])
    assert str(ff_load) == str(exu_load) == "(cos((12.5664 * t)) * loadVector)"
    for arguments in [(0.5, 2, 0.1, 0.2, 100.0, 1.0, 3.0), (1.7, 0, -0.4, -2.0, 50.0, 0.5, 0.0),
                      (0.2, 1, 0.3, 0.1, 10.0, 2.0, -1.0)]:
        same(ff_spring.Evaluate(ours[0], *arguments), exu_spring.Evaluate(theirs[0], *arguments))
        same(ff_spring(ours[0], *arguments), exu_spring.Evaluate(theirs[0], *arguments))
    same(ff_load.Evaluate(ours[0], 0.3, [1.0, 2.0, -3.0]), exu_load.Evaluate(theirs[0], 0.3, [1.0, 2.0, -3.0]))
    with pytest.raises(ValueError, match="takes 3"):
        ff_create(ours[0], lambda mbs, t: t, "loadVectorUserFunction", ours[3])


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_a_recorded_user_function_called_with_casadi_symbols_is_an_expression_with_its_exact_derivative():
    mbs, _, spring, load = mass_spring_system(fexu)
    function = ff_create(mbs, spring_force, "springForceUserFunction", spring)
    t, deltaL, deltaL_t = ca.SX.sym("t"), ca.SX.sym("dl"), ca.SX.sym("dl_t")
    expression = function(mbs, t, spring, deltaL, deltaL_t, 100.0, 1.0, 3.0)
    assert isinstance(expression, ca.SX) and expression.shape == (1, 1)
    derivative = ca.Function("d", [t, deltaL, deltaL_t], [ca.jacobian(expression, deltaL)])
    for length in (0.1, 0.3, -0.15):
        exact = 100 * 1.2 * abs(length) ** 0.2
        assert float(derivative(0.4, length, 0.0)) == pytest.approx(exact, rel=1e-14)
    variables = fsym.VariableSet()
    variables.Set("gain", 2.0)

    def switched(mbs, t, loadVector):
        return variables.Get("gain") * loadVector
    reading = ff_create(mbs, switched, "loadVectorUserFunction", load)
    with pytest.raises(TypeError, match="gain"):       # an item then calls it numerically, at the current value
        reading(mbs, t, np.array([1.0, 0.0, 0.0]))
    variables.Set("gain", 5.0)
    assert reading(mbs, 0.0, [1.0, 0.0, 0.0]) == [5.0, 0.0, 0.0]


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_in_a_floatframe_item_the_symbolic_user_function_is_traced_into_the_residual():
    mbs, mass, spring, load = mass_spring_system(fexu)
    mbs.SetObjectParameter(spring, "springForceUserFunction",
                           ff_create(mbs, spring_force, "springForceUserFunction", spring))
    mbs.SetLoadParameter(load, "loadVectorUserFunction", ff_create(mbs, load_vector, "loadVectorUserFunction", load))
    mbs.Assemble()
    connector = mbs.GetFloatframeSystem().objects[spring]
    traces = connector.force_user_function.traces
    assert traces and all(trace is not None for trace in traces.values())
    assert not connector.force_user_function.callbacks


def cartesian_force(mbs, t, itemNumber, u, v, k, d, offset):
    module = fsym if isinstance(mbs, fexu.MainSystem) else esym
    return [0.5 * u[0] ** 2 * k[0] + module.sign(v[0]) * 10 + d[0] * v[0], k[1] * u[1], k[2] * u[2] + offset[0]]


def cartesian_spring_position(code, create):
    """A mass point on a CartesianSpringDamper with a recorded vector user function (as Exudyn's
    cartesianSpringDamperUserFunction example), 2000 RK44 steps to 0.5 s: the final position."""
    mbs = code.SystemContainer().AddSystem()
    ground = mbs.CreateGround(referencePosition=[0, 0, 0])
    mass = mbs.CreateMassPoint(referencePosition=[0.5, 0, 0], initialDisplacement=[-0.08, 0.01, 0],
                               initialVelocity=[1, 0, 0.2], physicsMass=1.6)
    spring = mbs.CreateCartesianSpringDamper(bodyNumbers=[ground, mass], stiffness=[4000, 4000, 4000],
                                             damping=[8, 0, 0], offset=[0.5, 0, 0])
    mbs.CreateForce(bodyNumber=mass, loadVector=[80, 0, 0])
    mbs.SetObjectParameter(spring, "springForceUserFunction",
                           create(mbs, cartesian_force, "springForceUserFunction", spring))
    mbs.Assemble()
    settings = code.SimulationSettings()
    settings.timeIntegration.numberOfSteps = 2000
    settings.timeIntegration.endTime = 0.5
    settings.solutionSettings.writeSolutionToFile = False
    mbs.SolveDynamic(settings, solverType=code.DynamicSolverType.RK44)
    node = mbs.GetObject(mass)["nodeNumber"]
    return mbs.GetNodeOutput(node, code.OutputVariableType.Position), mbs, spring


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_a_recorded_vector_user_function_moves_the_mass_as_in_exudyn():
    ours, mbs, spring = cartesian_spring_position(fexu, ff_create)
    theirs, _, _ = cartesian_spring_position(exu, exu_create)
    np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12)
    assert np.abs(np.asarray(ours) - [0.5, 0, 0]).max() > 1e-3          # it moved
    traces = mbs.GetFloatframeSystem().objects[spring].force_user_function.traces
    assert traces and all(trace is not None for trace in traces.values())


def test_a_python_if_on_a_recorded_comparison_is_refused():
    def branching(mbs, t, load):
        return load if t > 1 else 2 * load
    mbs = fexu.SystemContainer().AddSystem()
    with pytest.raises(TypeError, match="IfThenElse"):
        ff_create(mbs, branching, "loadUserFunction", itemTypeName="LoadCoordinate")


@pytest.mark.parametrize("name, replace", [
    ("symbolicModuleTest", None),
    ("symbolicUserFunctionTest", {"u = NormL2(p)": "u = float(np.linalg.norm(p))"}),   # NormL2: not in 1.13.6
    ("loadUserFunctionTest", {"from floatframe.exudyn.basicUtilities import NormL2":
                              "from numpy.linalg import norm as NormL2"}),
])
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_exudyns_symbolic_test_models_compute_exudyns_results(tmp_path, name, replace):
    ours = run_in_a_process(name, tmp_path / "ff", "floatframe", replace)
    theirs = run_in_a_process(name, tmp_path / "exu", "exudyn", replace)
    assert ours == pytest.approx(theirs, rel=1e-12)


def run_in_a_process(name, folder, package, replace) -> float:
    """testResult of ``run_test_model`` in a fresh Python process: the scripts change module-level state of both
    symbolic modules (recording, class attributes) that, kept in the test process, stopped the Dask workers of a
    later test from starting."""
    code = ("import sys, json; sys.path[:0] = sys.argv[1:3]; from test_exudyn_testmodels import run_test_model; "
            "from pathlib import Path; import warnings; warnings.simplefilter('ignore'); "
            "print(json.dumps(run_test_model(sys.argv[3], Path(sys.argv[4]), package=sys.argv[5], "
            "replace=json.loads(sys.argv[6]))[0]))")
    here = Path(__file__).parent
    output = subprocess.run([sys.executable, "-c", code, str(here), str(here.parent), name, str(folder), package,
                             json.dumps(replace)], capture_output=True, text=True, check=True).stdout
    return float(output.strip().splitlines()[-1])
