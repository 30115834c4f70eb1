"""A battery of bad input, tried as a new user would: each case must end in a clear error that names the item
and the fault (never a silently wrong result, a hang, or a traceback from deep inside). Each entry is a claim:
this input raises this error type with this message. The areas' own test files hold the details; this file
keeps the whole list in one place."""
import math
import warnings

import numpy as np
import pytest

import floatframe as ff
from floatframe.models.pendulum import build_pendulum


def pendulum():
    system, _ = build_pendulum()
    return system.assemble()


def rigid_body(system, mass=1.0, inertia=(1, 1, 1, 0, 0, 0)):
    node = system.add(ff.NodeRigidBodyEP([0, 0, 0, 1, 0, 0, 0]))
    return system.add(ff.ObjectRigidBody(node, mass, inertia))


def assembled(*builders):
    system = ff.System()
    for build in builders:
        build(system)
    return system.assemble()


def q_shifted(amount):
    system = pendulum()
    q0 = system.q_initial.copy()
    q0[0] += amount
    return system, q0


def v_along_rod():
    system = pendulum()
    v0 = system.v_initial.copy()
    v0[1] = 0.4
    return system, v0


def driven_wheel_at_rest():
    """A wheel whose rotation is prescribed at 2 pi rad/s by an Input from t = 0, started at rest."""
    system = ff.System()
    node = system.add(ff.NodeRigidBodyEP([0, 0, 0, 1, 0, 0, 0]))
    body = system.add(ff.ObjectRigidBody(node, 1.0, (0.1, 0.1, 0.2, 0, 0, 0)))
    ground = system.add(ff.MarkerBodyRigid(system.add(ff.ObjectGround())))
    drive = ff.Input("drive", 6, signal=lambda t: [0.0, 0.0, 0.0, 0.0, 0.0, 2 * math.pi * t])
    system.add(ff.GenericJoint([ground, system.add(ff.MarkerBodyRigid(body))], offset=drive, name="drive"))
    return system.assemble()


def failing_load_system():
    system = ff.System()
    node = system.add(ff.NodePoint([0, 0, 0]))
    system.add(ff.ObjectMassPoint(node, 1.0))
    system.add(ff.LoadForceVector(system.add(ff.MarkerNodePosition(node)),
                                  lambda t: [1.0 if t < 0.02 else math.log(-1.0), 0.0, 0.0]))
    return system.assemble()


SOLVER_CASES = {
    "pendulum 5 cm off its pivot": (
        lambda: ff.GeneralizedAlpha().solve(q_shifted(0.05)[0], 0.1, 10, q0=q_shifted(0.05)[1]),
        ff.SolverError, r"does not meet the constraints: SphericalJoint 2 'pivot': position gap 0\.05 m"),
    "pendulum 5 cm off its pivot, IDAS": (
        lambda: ff.IDAS().solve(q_shifted(0.05)[0], 0.1, 10, q0=q_shifted(0.05)[1]),
        ff.SolverError, r"idas: the initial state at t = 0 does not meet the constraints"),
    "pendulum moving along its rod": (
        lambda: ff.GeneralizedAlpha().solve(v_along_rod()[0], 0.1, 10, v0=v_along_rod()[1]),
        ff.SolverError, r"'pivot': velocity gap 0\.4 m/s"),
    "a driven joint whose body starts at rest": (
        lambda: ff.GeneralizedAlpha().solve(driven_wheel_at_rest(), 0.1, 10),
        ff.SolverError, r"GenericJoint \d 'drive': velocity gap 6\.28 m/s"),
    "an unassembled system": (
        lambda: ff.GeneralizedAlpha().solve(ff.System(), 0.1, 10),
        TypeError, r"expected an AssembledSystem \(call system\.assemble\(\) and pass its result\), got System"),
    "an empty system": (
        lambda: ff.GeneralizedAlpha().solve(ff.System().assemble(), 0.1, 10),
        ValueError, "the system has no coordinates"),
    "a node without a body": (
        lambda: ff.GeneralizedAlpha().solve(assembled(lambda s: s.add(ff.NodePoint([0, 0, 0]))), 0.1, 2),
        ff.SolverError, r"no mass, stiffness or constraint acts on NodePoint 0 coordinates 0, 1, 2"),
    "NaN initial coordinates": (
        lambda: ff.GeneralizedAlpha().solve(pendulum(), 0.1, 10, q0=np.full(7, np.nan)),
        ff.SolverError, r"the initial coordinates q0 are not finite at NodeRigidBodyEP 0"),
    "initial coordinates of the wrong size": (
        lambda: ff.GeneralizedAlpha().solve(pendulum(), 0.1, 10, q0=[0.0, 0.0]),
        ValueError, "initial q must have 7 entries, got 2"),
    "an infinite end time": (
        lambda: ff.GeneralizedAlpha().solve(pendulum(), math.inf, 10),
        ValueError, r"t_end > t0 \(finite\), got n_steps = 10, t_end = inf"),
    "a load function that fails mid-run": (
        lambda: ff.GeneralizedAlpha().solve(failing_load_system(), 0.1, 10),
        ff.SolverError, r"genalpha: at t = 0\.02: the load user function of LoadForceVector0 raised ValueError: "
                        r"math domain error"),
    "a pre_step function that raises": (
        lambda: ff.GeneralizedAlpha().solve(pendulum(), 0.1, 10, pre_step=lambda t, state: 1 / 0),
        ff.SolverError, r"at t = 0: the pre_step function raised ZeroDivisionError"),
    "store_every = 0": (
        lambda: ff.GeneralizedAlpha().solve(pendulum(), 0.1, 10, store_every=0),
        ValueError, r"store_every must be an integer >= 1, got 0"),
    "max_iterations = 0": (lambda: ff.GeneralizedAlpha(max_iterations=0), ValueError, "max_iterations"),
    "a negative tolerance": (lambda: ff.GeneralizedAlpha(relative_tolerance=-1e-6), ValueError,
                             "relative_tolerance must be a finite number >= 0"),
    "min_step = 0": (lambda: ff.Newmark(min_step=0.0), ValueError, "min_step must be a finite number > 0"),
    "a spectral radius as text": (lambda: ff.GeneralizedAlpha(spectral_radius="0.5"), ValueError,
                                  r"spectral_radius must be a number in \[0, 1\], got '0\.5'"),
    "IDAS rtol as text": (lambda: ff.IDAS(rtol="1e-6"), ValueError, "rtol must be a finite number > 0"),
    "an unknown IDAS linear solver": (lambda: ff.IDAS(linear_solver="superlu_dist"), ValueError,
                                      "linear_solver must be 'auto' or a CasADi linear solver plugin"),
    "Newmark beta = 0": (lambda: ff.Newmark(gamma=0.5, beta=0.0), ValueError, "beta must be > 0"),
    "static solver q0 of the wrong size": (lambda: ff.StaticSolver().solve(pendulum(), q0=[1.0, 2.0]), ValueError,
                                           "initial q must have 7 entries, got 2"),
    "a sensor that does not exist": (lambda: ff.GeneralizedAlpha().solve(pendulum(), 0.01, 1).sensor(5),
                                     IndexError, r"no sensor 5; the result has 1 sensors: 0 'SensorBody'"),
}

COMPONENT_CASES = {
    "a negative point mass": (lambda: ff.ObjectMassPoint(0, -1.0), ff.ModelError, "mass must be >= 0"),
    "an inertia of five entries": (lambda: ff.ObjectRigidBody(0, 1.0, [1, 1, 1, 0, 0]), ff.ModelError,
                                   r"inertia must have shape \(3, 3\)"),
    "a spring of negative stiffness": (lambda: ff.SpringDamper([0, 1], -5.0), ff.ModelError,
                                       "stiffness must be >= 0"),
    "a joint with one marker": (lambda: ff.SphericalJoint([0]), ff.ModelError, "must hold 2 markers, got 1"),
    "an unknown sensor output": (
        lambda: assembled(lambda s: (rigid_body(s), s.add(ff.SensorBody(0, "Foo")))),
        ff.ModelError, r"ObjectRigidBody 0: has no output variable 'Foo'; available"),
    "a sensor of a body that does not exist": (
        lambda: assembled(lambda s: (rigid_body(s), s.add(ff.SensorBody(3, "Position")))),
        ff.ModelError, "SensorBody 0: body_number 3 is out of range: the system has 1 objects"),
    "gravity with NaN": (lambda: ff.Gravity([0, np.nan, 0]), ff.ModelError, "acceleration contains NaN or inf"),
    "a load on a marker that does not exist": (
        lambda: assembled(lambda s: (rigid_body(s), s.add(ff.LoadForceVector(7, [0, 0, 1])))),
        ff.ModelError, "LoadForceVector 0: marker_number 7 is out of range"),
    "an item added twice": (
        lambda: (lambda s, n: (s.add(n), s.add(n)))(ff.System(), ff.NodePoint([0, 0, 0])),
        ff.ModelError, "NodePoint 0: was already added to a system"),
    "a rotation marker that is no rotation": (lambda: ff.RevoluteJoint([0, 1], np.zeros((3, 3))), ff.ModelError,
                                              "rotation_marker0 must be a rotation matrix"),
    "Euler parameters of norm 2": (
        lambda: assembled(lambda s: s.add(ff.NodeRigidBodyEP([0, 0, 0, 2, 0, 0, 0]))),
        ff.ModelError, "Euler parameters must have unit norm"),
    "a distance constraint of length 0": (lambda: ff.DistanceConstraint([0, 1], 0.0), ff.ModelError,
                                          "distance must be > 0"),
    "a negative principal inertia": (lambda: ff.ObjectRigidBody(0, 1.0, [-1, 1, 1, 0, 0, 0]), ff.ModelError,
                                     r"ObjectRigidBody: inertia has the negative principal value -1 kg m\^2"),
    "an inertia against the triangle inequality": (
        lambda: ff.ObjectRigidBody(0, 1.0, [0.1, 0.1, 1, 0, 0, 0]), ff.ModelError,
        r"inertia breaks the triangle inequality J1 \+ J2 >= J3 .* 0\.1 \+ 0\.1 < 1\)"),
    "a Cartesian spring of negative stiffness": (
        lambda: ff.CartesianSpringDamper([0, 1], [10.0, -5.0, 10.0]), ff.ModelError,
        r"CartesianSpringDamper: stiffness must be >= 0, got \[10\.0, -5\.0, 10\.0\]; pass allow_negative=True"),
    "a coordinate damper of negative damping": (
        lambda: ff.CoordinateSpringDamper([0, 1], 10.0, -0.5), ff.ModelError,
        r"CoordinateSpringDamper: damping must be >= 0, got \[-0\.5\]"),
    "an indefinite FE mass matrix": (lambda: ff.ObjectFFRF(list(range(9)), *indefinite_cube_mass()), ff.ModelError,
                                     r"ObjectFFRF: mass_matrix_ff has 3 negative eigenvalues .* it is indefinite"),
    "a mesh node listed twice": (lambda: assembled(cube_body_with_a_node_twice), ff.ModelError,
                                 r"ObjectFFRF 0: node_numbers\[2\] and node_numbers\[4\] are the same NodePoint 2"),
    "a mesh with coincident nodes": (lambda: cracked_mesh(), ValueError,
                                     r"mesh has 4 pairs of coincident nodes .* the first nodes 1 and 8"),
}


def cube_matrices():
    from floatframe.fem import block_mesh, linear_elastic_matrices

    mesh = block_mesh(1.0, 1.0, 1.0, 1, 1, 1)
    return (mesh, *linear_elastic_matrices(mesh, youngs_modulus=1e7, poissons_ratio=0.3, density=1000.0))


def indefinite_cube_mass():
    """(M - s I, K) of one Hex8 cube, s between the threefold smallest and the next eigenvalue of M."""
    _, mass, stiffness = cube_matrices()
    eigenvalues = np.linalg.eigvalsh(mass.toarray())
    return mass - 0.5 * (eigenvalues[2] + eigenvalues[3]) * np.eye(24), stiffness


def cube_body_with_a_node_twice(system):
    mesh, mass, stiffness = cube_matrices()
    nodes = [system.add(ff.NodeRigidBodyEP([0, 0, 0, 1, 0, 0, 0]))] + [system.add(ff.NodePoint(p)) for p in mesh.nodes]
    system.add(ff.ObjectFFRF(nodes[:4] + [nodes[2]] + nodes[5:], mass, stiffness))


def cracked_mesh():
    """Two Hex8 cubes side by side, each with its own nodes on the face they share."""
    from floatframe.fem import Mesh, block_mesh

    cube = block_mesh(1.0, 1.0, 1.0, 1, 1, 1)
    return Mesh(np.vstack([cube.nodes, cube.nodes + [1.0, 0.0, 0.0]]),
                {"Hex8": np.vstack([cube.elements["Hex8"], cube.elements["Hex8"] + 8])})


def written_twice_mtx(folder):
    from floatframe.fem import read_abaqus_mtx

    (folder / "mass.mtx").write_text("1 1 2.0\n2 2 2.0\n" * 2)
    return read_abaqus_mtx(folder / "mass.mtx")


def cut_off_inp(folder):
    from floatframe.fem import read_abaqus_inp

    (folder / "cut.inp").write_text("*Part, name=p\n*Node\n1, 0., 0., 0.\n2, 1., 0., 0.\n*Element, type=C3D4\n"
                                    "1, 1, 2,")
    return read_abaqus_inp(folder / "cut.inp")


def binary_inp(folder):
    from floatframe.fem import read_abaqus_inp

    (folder / "blob.inp").write_bytes(np.random.default_rng(0).bytes(500))
    return read_abaqus_inp(folder / "blob.inp")


def cut_off_msh(folder):
    from floatframe.fem import read_mesh

    (folder / "cut.msh").write_text("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n4\n1 0 0 0\n2 1 0 0\n")
    return read_mesh(folder / "cut.msh")


FILE_CASES = {
    "an .mtx with every entry written twice": (written_twice_mtx, ValueError,
                                               r"mass\.mtx:3: entry \(row 1, column 1\) .* first on line 1"),
    "an .inp cut off in an element": (cut_off_inp, ValueError,
                                      r"cut\.inp:6: the file ends inside this data line \('1, 1, 2,', no line end\)"),
    "a binary blob as .inp": (binary_inp, ValueError, r"blob\.inp:1: binary data"),
    "a .msh cut off in its nodes": (cut_off_msh, ValueError, r"cut\.msh:4: section \$Nodes has no \$EndNodes"),
}


@pytest.mark.parametrize("case", list(SOLVER_CASES), ids=list(SOLVER_CASES))
def test_bad_solver_input_ends_in_a_clear_error(case):
    run, error, message = SOLVER_CASES[case]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(error, match=message):
            run()


@pytest.mark.parametrize("case", list(COMPONENT_CASES), ids=list(COMPONENT_CASES))
def test_bad_component_input_ends_in_a_clear_error(case):
    run, error, message = COMPONENT_CASES[case]
    with pytest.raises(error, match=message):
        run()


@pytest.mark.parametrize("case", list(FILE_CASES), ids=list(FILE_CASES))
def test_bad_files_end_in_a_clear_error_naming_file_and_line(case, tmp_path):
    read, error, message = FILE_CASES[case]
    with pytest.raises(error, match=message):
        read(tmp_path)


def test_an_unstable_scheme_is_a_failure_not_a_result():
    system = ff.System()
    node = system.add(ff.NodePoint([0, 0, 0], initial_coordinates=[0.1, 0, 0]))
    system.add(ff.ObjectMassPoint(node, 2.0))
    ground = system.add(ff.MarkerNodeCoordinate(system.add(ff.NodePointGround([0, 0, 0])), 0))
    system.add(ff.CoordinateSpringDamper([ground, system.add(ff.MarkerNodeCoordinate(node, 0))], 2e8))
    with pytest.warns(UserWarning, match="only conditionally stable"):
        scheme = ff.Newmark(gamma=0.5, beta=0.1)
    with pytest.raises(ff.SolverError, match="grew without bound") as failure:
        scheme.solve(system.assemble(), 1.0, 1000)
    assert np.abs(failure.value.result.q).max() < 1e10     # what was kept is the run before the blow-up
