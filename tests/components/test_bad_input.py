"""Bad input is refused before any integration, with an error naming the component and the fault."""
import warnings

import numpy as np
import pytest
import scipy.sparse as sp

import floatframe as ff
from floatframe.components.base import ModelError
from floatframe.fem import block_mesh, linear_elastic_matrices

MESH = block_mesh(0.2, 0.1, 0.1, 2, 1, 1)
MASS, STIFFNESS = linear_elastic_matrices(MESH, youngs_modulus=1e7, poissons_ratio=0.3, density=1000.0)


def body_nodes(system):
    rigid = system.add(ff.NodeRigidBodyEP([0, 0, 0, 1, 0, 0, 0]))
    return [rigid] + [system.add(ff.NodePoint(p)) for p in MESH.nodes]


def test_matrix_size_must_be_three_times_the_mesh_nodes():
    system = ff.System()
    nodes = body_nodes(system)
    with pytest.raises(ModelError, match=r"ObjectFFRF.*stiffness_matrix_ff has size 36, expected 3 x \(number of mesh nodes\) = 33"):
        ff.ObjectFFRF(nodes[:-1], MASS[:33, :33], STIFFNESS)


@pytest.mark.parametrize("which", ["mass_matrix_ff", "stiffness_matrix_ff"])
def test_non_symmetric_matrices_are_refused(which):
    broken = STIFFNESS.tolil() if which == "stiffness_matrix_ff" else MASS.tolil()
    broken[0, 1] += 1e-3 * abs(broken).max()
    matrices = {"mass_matrix_ff": MASS, "stiffness_matrix_ff": STIFFNESS, which: broken.tocsr()}
    with pytest.raises(ModelError, match=rf"ObjectFFRF.*{which} is not symmetric"):
        ff.ObjectFFRF(body_nodes(ff.System()), **matrices)


def test_non_square_matrix_is_refused():
    with pytest.raises(ModelError, match="must be square"):
        ff.ObjectFFRF(body_nodes(ff.System()), MASS[:, :30], STIFFNESS)


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_nan_or_inf_is_refused(bad):
    broken = MASS.toarray()
    broken[3, 3] = bad
    with pytest.raises(ModelError, match="mass_matrix_ff contains NaN or inf"):
        ff.ObjectFFRF(body_nodes(ff.System()), broken, STIFFNESS)
    with pytest.raises(ModelError, match="NodePoint.*reference_coordinates contains NaN or inf"):
        ff.NodePoint([0.0, bad, 0.0])


def test_first_node_must_be_the_rigid_reference_node():
    system = ff.System()
    nodes = body_nodes(system)
    body = ff.ObjectFFRF(nodes[1:] + [nodes[0]], MASS, STIFFNESS, name="rotor")
    system.add(body)
    with pytest.raises(ModelError, match=r"ObjectFFRF 0 'rotor': node_numbers\[0\] must be a NodeRigidBodyEP"):
        system.assemble()


def test_node_and_marker_numbers_out_of_range_are_named():
    system = ff.System()
    nodes = body_nodes(system)
    system.add(ff.ObjectFFRF(nodes[:-1] + [99], MASS, STIFFNESS))
    with pytest.raises(ModelError, match=r"node_numbers\[12\] 99 is out of range: the system has 13 nodes"):
        system.assemble()
    system = ff.System()
    body = system.add(ff.ObjectFFRF(body_nodes(system), MASS, STIFFNESS))
    system.add(ff.CartesianSpringDamper([0, 7], [1, 1, 1]))
    system.add(ff.MarkerSuperElementPosition(body, [0], [1.0]))
    with pytest.raises(ModelError, match=r"CartesianSpringDamper 1: marker_numbers\[1\] 7 is out of range"):
        system.assemble()
    system = ff.System()
    body = system.add(ff.ObjectFFRF(body_nodes(system), MASS, STIFFNESS))
    system.add(ff.SensorSuperElement(body, 12, "Displacement"))
    with pytest.raises(ModelError, match="SensorSuperElement 0: mesh node 12 is out of range"):
        system.assemble()


def test_user_function_of_wrong_shape_is_refused_at_assembly():
    system = ff.System()
    body = ff.ObjectFFRF(body_nodes(system), MASS, STIFFNESS,
                         force_user_function=lambda mbs, t, i, q, q_t: np.zeros(5))
    system.add(body)
    with pytest.raises(ModelError, match=r"ObjectFFRF 0: force user function returned shape \(5,\), expected \(43,\)"):
        system.assemble()


def test_unknown_output_variable_is_named():
    system = ff.System()
    body = system.add(ff.ObjectFFRF(body_nodes(system), MASS, STIFFNESS))
    system.add(ff.SensorSuperElement(body, 0, "Strain"))
    with pytest.raises(ModelError, match="mesh nodes have no output variable 'Strain'"):
        system.assemble()


def test_euler_parameters_must_have_unit_norm():
    with pytest.raises(ModelError, match="NodeRigidBodyEP: Euler parameters must have unit norm"):
        ff.NodeRigidBodyEP([0, 0, 0, 1, 0.1, 0, 0])


def test_negative_diagonal_of_the_stiffness_or_mass_matrix_is_refused_with_its_mesh_node():
    broken = STIFFNESS.tolil()
    broken[16, 16] = -broken[16, 16]
    with pytest.raises(ModelError, match=r"ObjectFFRF 'beam': stiffness_matrix_ff has 1 negative diagonal entry, "
                                         r"the smallest -[0-9.e+]+ at coordinate 16 \(mesh node 5, y\).*"
                                         r"allow_indefinite_stiffness=True"):
        ff.ObjectFFRF(body_nodes(ff.System()), MASS, broken.tocsr(), name="beam")
    broken = MASS.tolil()
    broken[3, 3] = -broken[3, 3]
    with pytest.raises(ModelError, match=r"mass_matrix_ff has 1 negative diagonal entry.*\(mesh node 1, x\); "
                                         r"an FE mass matrix is positive semidefinite$"):
        ff.ObjectFFRF(body_nodes(ff.System()), broken.tocsr(), STIFFNESS)


def indefinite_stiffness():
    """K - s I with s half the smallest nonzero eigenvalue of K: the six rigid-body modes become -s < 0,
    while every diagonal entry stays positive."""
    eigenvalues = np.linalg.eigvalsh(STIFFNESS.toarray())
    shift = 0.5 * eigenvalues[6]
    assert eigenvalues[5] < 1e-12 * eigenvalues[-1] and shift < STIFFNESS.diagonal().min()
    return STIFFNESS - shift * sp.identity(STIFFNESS.shape[0])


def test_indefinite_stiffness_with_a_positive_diagonal_is_refused_with_its_negative_eigenvalue_count():
    with pytest.raises(ModelError, match=r"stiffness_matrix_ff has 6 negative eigenvalues below -[0-9.e+-]+ "
                                         r"\(-1e-8 max \|K_ii\|\): it is indefinite; .*geometric stiffness"):
        ff.ObjectFFRF(body_nodes(ff.System()), MASS, indefinite_stiffness())


def test_indefinite_stiffness_is_accepted_with_a_warning_when_allowed():
    with pytest.warns(UserWarning, match=r"ObjectFFRF: stiffness_matrix_ff has 6 negative eigenvalues.*accepted"):
        body = ff.ObjectFFRF(body_nodes(ff.System()), MASS, indefinite_stiffness(), allow_indefinite_stiffness=True)
    assert abs(body.stiffness_matrix_ff - indefinite_stiffness()).max() == 0.0


def test_round_off_negative_eigenvalues_of_the_reference_rotor_matrices_are_accepted(shared_data):
    from floatframe.fem import read_abaqus_inp, read_abaqus_mtx

    folder = shared_data / "rotorDisc"
    mesh = read_abaqus_inp(folder / "rotorDiscTest.inp", instance="rotor-1")
    mass, stiffness = (read_abaqus_mtx(folder / f"rotorDiscTest{kind}1.mtx") for kind in ("MASS", "STIF"))
    eigenvalues = np.linalg.eigvalsh(stiffness.toarray())
    assert eigenvalues[0] < 0.0  # the rigid-body modes carry round-off of either sign
    system = ff.System()
    nodes = [system.add(ff.NodeRigidBodyEP([0, 0, 0, 1, 0, 0, 0]))] + [system.add(ff.NodePoint(p)) for p in mesh.nodes]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ff.ObjectFFRF(nodes, mass, stiffness)


@pytest.mark.parametrize("shift_index", [6, 10, 20, 35])
def test_the_negative_eigenvalue_count_of_the_inertia_test_equals_the_dense_count(shift_index):
    from floatframe.components.ffrf import negative_eigenvalue_count

    eigenvalues = np.linalg.eigvalsh(STIFFNESS.toarray())
    shifted = STIFFNESS - 0.5 * (eigenvalues[shift_index - 1] + eigenvalues[shift_index]) * sp.identity(36)
    round_off = 1e-8 * abs(shifted.diagonal()).max()
    assert negative_eigenvalue_count(shifted, round_off) == shift_index
    assert np.sum(np.linalg.eigvalsh(shifted.toarray()) < -round_off) == shift_index
