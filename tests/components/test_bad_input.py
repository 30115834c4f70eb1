"""Bad input is refused before any integration, with an error naming the component and the fault."""
import warnings

import numpy as np
import pytest
import scipy.sparse as sp

import floatframe as ff
from floatframe.components.base import ModelError
from floatframe.components.bodies import ImpossibleInertiaWarning
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



# --- physically impossible input (issue 23 item 4) ------------------------------------------------------
def turned(principal):
    """R diag(principal) R^T [kg m^2] for a fixed rotation R: the principal values hidden in a full tensor."""
    from floatframe import rotations

    rotation = rotations.rotation_matrix_from_rotation_vector(np.array([0.3, -0.5, 0.8]))
    return rotation @ np.diag(principal) @ rotation.T


def rigid_body(inertia, mass=2.0, center_of_mass=(0.0, 0.0, 0.0), name="arm"):
    system = ff.System()
    node = system.add(ff.NodeRigidBodyEP([0, 0, 0, 1, 0, 0, 0]))
    return ff.ObjectRigidBody(node, mass, inertia, center_of_mass=center_of_mass, name=name)


def test_a_negative_principal_inertia_is_refused_with_its_value():
    with pytest.raises(ModelError, match=r"ObjectRigidBody 'arm': inertia has the negative principal value -0\.1 "
                                         r"kg m\^2 \(principal inertias: -0\.1, 1, 1\); a body would turn against"):
        rigid_body(turned([-0.1, 1.0, 1.0]))
    body = rigid_body(turned([0.1, 1.0, 1.0]))
    assert np.linalg.eigvalsh(body.inertia) == pytest.approx([0.1, 1.0, 1.0], rel=1e-12)


def test_an_inertia_that_breaks_the_triangle_inequality_is_refused_with_its_principal_values():
    with pytest.raises(ModelError, match=r"ObjectRigidBody 'arm': inertia breaks the triangle inequality J1 \+ J2 >= "
                                         r"J3 of its principal values \(principal inertias: 0\.1, 0\.2, 1; "
                                         r"0\.1 \+ 0\.2 < 1\)"):
        rigid_body(turned([0.1, 0.2, 1.0]))
    with pytest.raises(ModelError, match=r"inertia breaks the triangle inequality.*0\.4 \+ 0\.5 < 1\)"):
        rigid_body([0.4, 0.5, 1.0, 0.0, 0.0, 0.0])


def test_asked_to_warn_a_broken_triangle_inequality_warns_but_a_negative_inertia_is_still_refused():
    """broken_triangle="warn" (the Exudyn layer's choice, as Exudyn accepts such inertias) keeps the body as given."""
    with pytest.warns(ImpossibleInertiaWarning, match=r"ObjectRigidBody 'arm': inertia breaks the triangle "
                                                      r"inequality .*0\.1 \+ 0\.2 < 1\): no mass distribution has it; "
                                                      r"simulated as given"):
        body = ff.ObjectRigidBody(0, 1.0, turned([0.1, 0.2, 1.0]), name="arm", broken_triangle="warn")
    assert np.linalg.eigvalsh(body.inertia) == pytest.approx([0.1, 0.2, 1.0], rel=1e-12)
    with pytest.raises(ModelError, match=r"inertia has the negative principal value -0\.1"):
        ff.ObjectRigidBody(0, 1.0, turned([-0.1, 1.0, 1.0]), name="arm", broken_triangle="warn")
    with pytest.raises(ModelError, match=r"broken_triangle must be 'refuse' or 'warn', got 'ignore'"):
        ff.ObjectRigidBody(0, 1.0, np.eye(3), name="arm", broken_triangle="ignore")


@pytest.mark.parametrize("principal", [[0.5, 0.5, 1.0], [0.0, 1.0, 1.0], [0.0, 0.0, 0.0]],
                         ids=["flat plate", "thin rod", "point mass"])
def test_the_limits_of_a_mass_distribution_are_accepted(principal):
    """J1 + J2 = J3 (a flat plate), a zero principal inertia (a thin rod) and a zero inertia (a point mass);
    the triangle's equality with round-off of the turned tensor (1e-16 of it) is within the tolerance."""
    body = rigid_body(turned(principal))
    assert np.abs(body.inertia - turned(principal)).max() == 0.0


def test_the_inertia_is_checked_about_the_centre_of_mass():
    """J about the node is possible, but J - m (b^T b I - b b^T) about the centre of mass b is not."""
    offset = np.array([1.0, 0.0, 0.0])
    steiner = 2.0 * (offset @ offset * np.eye(3) - np.outer(offset, offset))
    with pytest.raises(ModelError, match=r"inertia has the negative principal value -1\.9 kg m\^2 \(about the centre "
                                         r"of mass: -1\.9, -1\.9, 0\.1\)"):
        rigid_body(0.1 * np.eye(3), center_of_mass=offset)
    rigid_body(0.1 * np.eye(3) + steiner, center_of_mass=offset)


def test_a_parameter_inertia_is_checked_at_its_value():
    with pytest.raises(ModelError, match=r"inertia has the negative principal value -1 kg m\^2"):
        rigid_body(ff.Parameter("inertia", [-1.0, 1.0, 1.0, 0.0, 0.0, 0.0]))
    rigid_body(ff.Parameter("inertia", [1.0, 1.0, 1.0, 0.0, 0.0, 0.0]))
    rigid_body(ff.Parameter("inertia", size=6))


def springs(kind, **values):
    """A spring-damper of ``kind`` between two point nodes' markers (numbers 0 and 1), not yet in a system."""
    if kind == "CartesianSpringDamper":
        return ff.CartesianSpringDamper([0, 1], **{k: [1.0, v, 1.0] for k, v in values.items() if k != "allow_negative"},
                                        **{k: v for k, v in values.items() if k == "allow_negative"})
    return ff.CoordinateSpringDamper([0, 1], **values)


@pytest.mark.parametrize("kind", ["CartesianSpringDamper", "CoordinateSpringDamper"])
@pytest.mark.parametrize("which", ["stiffness", "damping"])
def test_negative_spring_stiffness_and_damping_are_refused_unless_allowed(kind, which):
    values = {"stiffness": 10.0, "damping": 0.5, which: -3.0}
    with pytest.raises(ModelError, match=rf"{kind}: {which} must be >= 0, got \[.*-3\.0.*\]; pass "
                                         rf"allow_negative=True if a negative value is intended"):
        springs(kind, **values)
    spring = springs(kind, allow_negative=True, **values)
    assert np.min(getattr(spring, which)) == -3.0
    assert np.min(getattr(springs(kind, **{**values, which: 0.0}), which)) == 0.0


def test_a_negative_parameter_stiffness_is_refused_at_its_value():
    with pytest.raises(ModelError, match=r"CartesianSpringDamper: stiffness must be >= 0, got \[1\.0, -2\.0, 1\.0\]"):
        ff.CartesianSpringDamper([0, 1], ff.Parameter("k", [1.0, -2.0, 1.0]))
    ff.CartesianSpringDamper([0, 1], ff.Parameter("k", size=3))


def indefinite_mass():
    """M - s I with s between the two smallest distinct eigenvalues of M: three negative eigenvalues (the
    smallest is threefold, one per direction), every diagonal entry positive."""
    eigenvalues = np.linalg.eigvalsh(MASS.toarray())
    assert eigenvalues[2] - eigenvalues[0] < 1e-12 * eigenvalues[0] < eigenvalues[3] - eigenvalues[2]
    shift = 0.5 * (eigenvalues[2] + eigenvalues[3])
    assert shift < MASS.diagonal().min()
    return MASS - shift * sp.identity(MASS.shape[0])


def test_an_indefinite_mass_matrix_with_a_positive_diagonal_is_refused_with_its_negative_eigenvalue_count():
    with pytest.raises(ModelError, match=r"ObjectFFRF 'beam': mass_matrix_ff has 3 negative eigenvalues below "
                                         r"-[0-9.e+-]+ \(-1e-8 max \|K_ii\|\): it is indefinite; an FE mass matrix "
                                         r"is positive semidefinite$"):
        ff.ObjectFFRF(body_nodes(ff.System()), indefinite_mass(), STIFFNESS, name="beam")
    ff.ObjectFFRF(body_nodes(ff.System()), MASS, STIFFNESS, name="beam")


def test_a_mesh_node_listed_twice_is_refused_at_assembly():
    system = ff.System()
    nodes = body_nodes(system)
    system.add(ff.ObjectFFRF(nodes[:5] + [nodes[3]] + nodes[6:], MASS, STIFFNESS, name="beam"))
    with pytest.raises(ModelError, match=r"ObjectFFRF 0 'beam': node_numbers\[3\] and node_numbers\[5\] are the same "
                                         r"NodePoint 3 \(mesh nodes 2 and 4\): a mesh node listed twice"):
        system.assemble()


def reduced_fields():
    """The invariants of four eigenmodes of the beam as the keyword arguments of ReducedOrderInvariants.validated."""
    import dataclasses

    from floatframe.components.ffrf_reduced import ReducedOrderInvariants
    from floatframe.fem import eigenmodes

    modes = eigenmodes(MASS, STIFFNESS, 4, solver="dense")
    invariants = ReducedOrderInvariants.from_fe_matrices(MASS, STIFFNESS, modes, MESH.nodes)
    return {field.name: getattr(invariants, field.name) for field in dataclasses.fields(invariants)}


def about_frame_origin(central, fields):
    """J = J_C + m (c^T c I - c c^T) [kg m^2] for the inertia J_C about the reduced body's centre of mass c."""
    centre = fields["center_of_mass"]
    return central + fields["mass"] * (centre @ centre * np.eye(3) - np.outer(centre, centre))


@pytest.mark.parametrize("change, fault", [
    (lambda fields: -fields["inertia"], r"inertia has the negative principal value -[0-9.]+ kg m\^2 \(about the "
                                        r"centre of mass: "),
    (lambda fields: about_frame_origin(np.diag([0.1, 0.2, 1.0]) * 1e-3, fields),
     r"inertia breaks the triangle inequality J1 \+ J2 >= J3 of its principal values \(about the centre of mass: "
     r"0\.0001, 0\.0002, 0\.001; "),
])
def test_a_reduced_body_given_an_impossible_inertia_is_refused(change, fault):
    """ReducedOrderInvariants.validated (the Exudyn layer's ObjectFFRFreducedOrder passes its inertia there) checks
    the inertia about the frame origin, moved to the centre of mass, with the check of ObjectRigidBody."""
    from floatframe.components.ffrf_reduced import ReducedOrderInvariants

    fields = reduced_fields()
    ReducedOrderInvariants.validated(what="ObjectFFRFReducedOrder 'arm'", **fields)
    fields["inertia"] = change(fields)
    with pytest.raises(ModelError, match=rf"ObjectFFRFReducedOrder 'arm': {fault}"):
        ReducedOrderInvariants.validated(what="ObjectFFRFReducedOrder 'arm'", **fields)


def test_a_reduced_body_of_an_indefinite_mass_matrix_is_refused():
    from floatframe.components.ffrf_reduced import add_reduced_ffrf_body
    from floatframe.fem import eigenmodes

    modes = eigenmodes(MASS, STIFFNESS, 4, solver="dense")
    with pytest.raises(ModelError, match=r"ObjectFFRFReducedOrder 'arm': mass_matrix_ff has 3 negative eigenvalues "
                                         r"below -[0-9.e+-]+ \(-1e-8 max \|K_ii\|\): it is indefinite; an FE mass "
                                         r"matrix is positive semidefinite"):
        add_reduced_ffrf_body(ff.System(), MESH.nodes, indefinite_mass(), STIFFNESS, modes, name="arm")
    add_reduced_ffrf_body(ff.System(), MESH.nodes, MASS, STIFFNESS, modes, name="arm")


def test_an_indefinite_mass_user_function_matrix_is_refused_at_assembly():
    """The matrix is checked at the initial state; here it is -1 kg on coordinate 10 and 0 elsewhere."""
    from floatframe.components.reference_conditions import add_tisserand_frame

    def negative_entry(mbs, t, item, q, q_t):
        matrix = np.zeros((43, 43))
        matrix[10, 10] = -1.0
        return matrix

    for function, refused in ((negative_entry, True), (lambda mbs, t, item, q, q_t: np.eye(43), False)):
        system = ff.System()
        body = ff.ObjectFFRF(body_nodes(system), MASS, STIFFNESS, mass_matrix_user_function=function, name="beam")
        system.add(body)
        add_tisserand_frame(system, body)
        if refused:
            with pytest.raises(ModelError, match=r"ObjectFFRF 0 'beam': mass user function returned a matrix with 1 "
                                                 r"negative eigenvalue below -1e-08 \(-1e-8 max \|M_ii\|, of its "
                                                 r"symmetric part, at the initial state\)"):
                system.assemble()
        else:
            assert system.assemble().n_coordinates == 43
