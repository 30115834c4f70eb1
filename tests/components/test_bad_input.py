"""Bad input is refused before any integration, with an error naming the component and the fault."""
import numpy as np
import pytest

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
