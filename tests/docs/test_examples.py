"""The tutorial's scripts (docs/examples/): each runs, and the number it prints agrees with an expectation
worked out here independently (closed-form periods, the order of the schemes, an unoptimised manoeuvre)."""
import importlib.util
import inspect
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.special import ellipk

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples"
_runs = {}


def run_example(name, tmp_path_factory):
    """Run docs/examples/NAME.py once per session; returns {printed name: value} and the output folder."""
    if name not in _runs:
        output = tmp_path_factory.mktemp(name)
        environment = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT),
                                                                                 os.environ.get("PYTHONPATH")])),
                           MPLBACKEND="Agg")
        completed = subprocess.run([sys.executable, str(EXAMPLES / f"{name}.py"), "--output", str(output)],
                                   cwd=ROOT, env=environment, capture_output=True, text=True, timeout=300)
        assert completed.returncode == 0, completed.stderr[-3000:]
        numbers = {key: float(value) for key, value
                   in re.findall(r"^(\w+) = ([-+0-9.eE]+)$", completed.stdout, flags=re.MULTILINE)}
        _runs[name] = numbers, output
    return _runs[name]


def example_module(name):
    """The example as a module (for its parameters), without running main()."""
    sys.path.insert(0, str(EXAMPLES))
    try:
        spec = importlib.util.spec_from_file_location(f"tutorial_{name}", EXAMPLES / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(EXAMPLES))
    return module


def physical_pendulum_period(inertia_per_mass, distance, gravity, amplitude):
    """Exact period of a rigid pendulum released from rest at ``amplitude`` [rad]:
    4 sqrt(J / (m g d)) K(sin^2(amplitude / 2)), K the complete elliptic integral of the first kind."""
    return 4 * np.sqrt(inertia_per_mass / (gravity * distance)) * ellipk(np.sin(amplitude / 2) ** 2)


def test_pendulum_period_is_the_closed_form_one(tmp_path_factory):
    numbers, output = run_example("pendulum", tmp_path_factory)
    p = {name: parameter.default for name, parameter in
         inspect.signature(example_module("pendulum").build).parameters.items()}
    small_angle = 2 * np.pi * np.sqrt((p["radius_of_gyration"] ** 2 + p["length"] ** 2) / (p["gravity"] * p["length"]))
    assert numbers["period_s"] == pytest.approx(small_angle * (1 + p["angle0"] ** 2 / 16), rel=2e-4)
    assert (output / "pendulum.png").stat().st_size > 0


def test_flexible_beam_swings_as_the_rigid_bar(tmp_path_factory):
    """A steel beam's flexibility changes its pendulum period by far less than 1e-3: the period is the
    rigid bar's (pivot at the centre of its end face, released from the horizontal)."""
    numbers, output = run_example("flexible_beam", tmp_path_factory)
    beam = example_module("flexible_beam")
    length, section = beam.LENGTH, beam.SECTION
    inertia_per_mass = (length ** 2 + section ** 2) / 12 + (length / 2) ** 2
    expected = physical_pendulum_period(inertia_per_mass, length / 2, 9.81, np.pi / 2)
    assert numbers["period_s"] == pytest.approx(expected, rel=1e-3)
    tip = np.loadtxt(output / "flexible_beam_tip.csv", delimiter=",", skiprows=1)
    assert tip.shape[1] == 4 and np.allclose(np.linalg.norm(tip[:, 1:3], axis=1), beam.LENGTH, rtol=1e-3)
    assert len(list(output.glob("flexible_beam_*.vtu"))) == tip.shape[0]
    assert (output / "flexible_beam.pvd").is_file() and (output / "flexible_beam.png").is_file()


def test_reduced_beam_agrees_with_the_full_beam(tmp_path_factory):
    full, _ = run_example("flexible_beam", tmp_path_factory)
    reduced, output = run_example("reduced_beam", tmp_path_factory)
    assert reduced["period_s"] == pytest.approx(full["period_s"], rel=1e-4)
    assert (output / "reduced_beam.png").is_file()


STEEL_BEAM_SHEAR_COEFFICIENT = 10 * (1 + 0.3) / (12 + 11 * 0.3)    # square section, Cowper


def timoshenko_free_free_frequency(length, youngs_modulus, shear_modulus, density, area, second_moment,
                                   shear_coefficient, n_elements=400):
    """Lowest bending frequency [Hz] of a free-free Timoshenko beam: 1D finite elements with linear w and
    theta and one-point shear integration (converged to 1e-5 at 400 elements)."""
    from scipy.linalg import eigh

    h = length / n_elements
    size = 2 * (n_elements + 1)
    stiffness, mass = np.zeros((size, size)), np.zeros((size, size))
    bending = np.array([0.0, -1.0, 0.0, 1.0]) / h
    shear = np.array([-1.0 / h, -0.5, 1.0 / h, -0.5])
    line_mass = np.array([[2.0, 1.0], [1.0, 2.0]]) * h / 6
    for e in range(n_elements):
        dofs = np.arange(2 * e, 2 * e + 4)
        stiffness[np.ix_(dofs, dofs)] += (youngs_modulus * second_moment * h * np.outer(bending, bending)
                                          + shear_coefficient * shear_modulus * area * h * np.outer(shear, shear))
        mass[np.ix_(dofs[::2], dofs[::2])] += density * area * line_mass
        mass[np.ix_(dofs[1::2], dofs[1::2])] += density * second_moment * line_mass
    eigenvalues = eigh(stiffness, mass, eigvals_only=True)
    return np.sqrt(eigenvalues[2]) / (2 * np.pi)          # the first two are the rigid-body motions


def test_tutorial_beam_bends_as_beam_theory_says(tmp_path_factory):
    """The tutorial's Hex20 beam: its first free-free bending frequency (printed by step 3) is within 0.5 %
    of Timoshenko's and 4 % of Euler-Bernoulli's (which ignores shear and rotary inertia, 3.4 % at L/h = 10);
    its tip, clamped at x = 0, sags under its own weight within 2 % of Euler-Bernoulli's q L^4 / (8 E I).
    The 4 x 2 x 1 Hex8 mesh the tutorial had was 1.9 times too stiff in frequency, 3.4 times in deflection."""
    from scipy.sparse.linalg import spsolve

    numbers, _ = run_example("reduced_beam", tmp_path_factory)
    beam = example_module("flexible_beam")
    length, section, steel = beam.LENGTH, beam.SECTION, beam.STEEL
    area, second_moment = section ** 2, section ** 4 / 12
    youngs_modulus, density = steel["youngs_modulus"], steel["density"]
    shear_modulus = youngs_modulus / (2 * (1 + steel["poissons_ratio"]))
    bending_stiffness, line_density = youngs_modulus * second_moment, density * area
    euler_bernoulli = 4.730040745 ** 2 * np.sqrt(bending_stiffness / (line_density * length ** 4)) / (2 * np.pi)
    timoshenko = timoshenko_free_free_frequency(length, youngs_modulus, shear_modulus, density, area, second_moment,
                                                STEEL_BEAM_SHEAR_COEFFICIENT)
    assert euler_bernoulli == pytest.approx(531.66, abs=0.01) and timoshenko == pytest.approx(513.63, abs=0.01)
    assert numbers["first_bending_hz"] == pytest.approx(timoshenko, rel=5e-3)
    assert numbers["first_bending_hz"] == pytest.approx(euler_bernoulli, rel=4e-2)

    mesh, mass, stiffness = beam.beam_mesh()
    assert "Hex8" not in mesh.elements
    root = mesh.nodes_in_plane((0.0, 0.0, 0.0), (1.0, 0.0, 0.0))
    free = np.setdiff1d(np.arange(mesh.n_coordinates), np.concatenate([3 * root, 3 * root + 1, 3 * root + 2]))
    weight = mass @ np.tile([0.0, -9.81, 0.0], mesh.n_nodes)
    deflection = np.zeros(mesh.n_coordinates)
    deflection[free] = spsolve(stiffness.tocsc()[free][:, free], weight[free])
    tip = mesh.node_at_point((length, 0.0, -section / 2))
    sag = line_density * 9.81 * length ** 4 / (8 * bending_stiffness)
    assert -deflection[3 * tip + 1] == pytest.approx(sag, rel=2e-2)


def test_optimal_slew_leaves_less_vibration_than_the_bang_bang_torque(tmp_path_factory):
    """The unoptimised move, the rigid body's bang-bang torque, is simulated here on the same model."""
    numbers, _ = run_example("slew_ocp", tmp_path_factory)
    from floatframe.ocp.slew import reference_torque, simulate, slew_model

    example = example_module("slew_ocp")
    model = slew_model()
    torque = reference_torque(model, example.ANGLE, example.DURATION, example.STEPS, "bang-bang")
    unoptimised = simulate(model, torque, example.DURATION, after=2 * example.DURATION).amplitude
    assert 0 < numbers["residual_vibration_mm"] < 0.25 * unoptimised * 1e3


def test_solver_comparison_shows_the_orders_of_the_schemes(tmp_path_factory):
    """Generalized-alpha is second-order accurate; Newmark with gamma = 0.6 > 1/2 is first order."""
    numbers, output = run_example("compare_solvers", tmp_path_factory)
    assert numbers["genalpha_order"] == pytest.approx(2.0, abs=0.2)
    assert numbers["newmark_order"] == pytest.approx(1.0, abs=0.2)
    assert (output / "comparison" / "comparison.csv").is_file()


def test_a_scheme_of_ones_own_converges_with_its_order(tmp_path_factory):
    """BDF2 is second order (theory), measured on the pendulum by the script itself."""
    numbers, _ = run_example("bdf2_scheme", tmp_path_factory)
    assert numbers["order0"] == pytest.approx(2.0, abs=0.1)
    assert numbers["order1"] == pytest.approx(2.0, abs=0.1)


def test_every_example_is_checked():
    """A new script in docs/examples/ needs a test here (and a page in docs/tutorial/)."""
    tested = {name for name in re.findall(r'run_example\("(\w+)"', Path(__file__).read_text())}
    scripts = {path.stem for path in EXAMPLES.glob("*.py")}
    assert scripts == tested
    pages = "".join(path.read_text() for path in (ROOT / "docs" / "tutorial").glob("*.md"))
    assert all(f'--8<-- "docs/examples/{name}.py"' in pages for name in scripts)
