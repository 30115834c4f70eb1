"""Geometric stiffness K_G(sigma0) and its unit load cases against closed forms (floatframe.fem.geometric_stiffness)."""
import numpy as np
import pytest
import scipy.sparse.linalg as spla

from floatframe.components.base import ModelError
from floatframe.fem import block_mesh, linear_elastic_matrices, rigid_body_modes
from floatframe.fem.geometric_stiffness import (geometric_stiffness_cases, geometric_stiffness_matrix,
                                                 stress_geometric_stiffness_matrix)

YOUNGS_MODULUS, DENSITY = 2.1e11, 7850.0


def transverse_field(mesh, power, component=1):
    """u_component = x^power at every node, the other components 0 (3 N,)."""
    field = np.zeros(mesh.n_coordinates)
    field[component::3] = mesh.nodes[:, 0] ** power
    return field


@pytest.mark.parametrize("kind", ["Tet4", "Tet10", "Hex8", "Hex20"])
def test_string_stiffness_of_a_bar_under_tension(kind):
    """Uniform tension T = sigma A: the energy of a lateral field v(x) is T int v'^2 dx (a string), T L for v = x,
    exactly represented by every element; 4 T L^3 / 3 for v = x^2, exact for the quadratic elements."""
    length, width, stress = 2.0, 0.1, 3.0e6
    mesh = block_mesh(length, width, width, 6, 1, 1, element=kind)
    geometric = stress_geometric_stiffness_matrix(mesh, np.diag([stress, 0.0, 0.0]))
    tension = stress * width ** 2
    linear = transverse_field(mesh, 1)
    assert linear @ geometric @ linear == pytest.approx(tension * length, rel=1e-12)
    if kind in ("Tet10", "Hex20"):
        quadratic = transverse_field(mesh, 2, component=2)
        assert quadratic @ geometric @ quadratic == pytest.approx(tension * 4 * length ** 3 / 3, rel=1e-12)
    # rigid translations carry no geometric energy; K_G is symmetric
    translation = np.tile([0.0, 1.0, 0.0], mesh.n_nodes)
    assert abs(translation @ geometric @ translation) < 1e-9 * tension * length
    assert abs(geometric - geometric.T).max() == 0.0


def test_bar_pulled_at_its_end_gives_the_uniform_prestress():
    """A bar clamped at x = 0 (nu = 0) pulled by F at the far face: the FE solution is the exact u_x = F x / (E A),
    so K_G of the unit interface case equals that of the constant stress F / A, and the lateral energy of v = x is F L."""
    length, width = 1.5, 0.05
    mesh = block_mesh(length, width, width, 8, 1, 1, element="Hex8")     # equal end forces: a uniform traction
    mass, stiffness = linear_elastic_matrices(mesh, YOUNGS_MODULUS, 0.0, DENSITY)
    root = np.flatnonzero(np.isclose(mesh.nodes[:, 0], 0.0))
    tip = np.flatnonzero(np.isclose(mesh.nodes[:, 0], length))
    cases = geometric_stiffness_cases(mesh, YOUNGS_MODULUS, 0.0, mass, stiffness, held_nodes=root, frame_cases=(),
                                      interface_sets={"tip": tip})
    assert cases.names[:3] == ["tip force x", "tip force y", "tip force z"]
    pulled = cases.cases[0]
    assert np.allclose(pulled.displacement[0::3], mesh.nodes[:, 0] / (YOUNGS_MODULUS * width ** 2), rtol=0,
                       atol=1e-9 * length / (YOUNGS_MODULUS * width ** 2))
    expected = stress_geometric_stiffness_matrix(mesh, np.diag([1.0 / width ** 2, 0.0, 0.0]))
    assert abs(pulled.geometric_stiffness - expected).max() < 1e-9 * abs(expected).max()
    linear = transverse_field(mesh, 1)
    assert linear @ pulled.geometric_stiffness @ linear == pytest.approx(length, rel=1e-9)


@pytest.mark.parametrize("kind, along, across", [("Hex20", 20, 1), ("Tet10", 20, 1)])
def test_cantilever_column_buckling_load(kind, along, across):
    """Clamped-free column under an end load: K phi = P K_G phi gives P_cr = pi^2 E I / (4 L^2) (Euler), to the
    3D solid's shear and discretization error, below 1e-3 for L / b = 50."""
    length, width = 1.0, 0.02
    mesh = block_mesh(width, width, length, across, across, along, element=kind)
    mass, stiffness = linear_elastic_matrices(mesh, YOUNGS_MODULUS, 0.0, DENSITY)
    base = np.flatnonzero(np.isclose(mesh.nodes[:, 2], 0.0))
    top = np.flatnonzero(np.isclose(mesh.nodes[:, 2], length))
    cases = geometric_stiffness_cases(mesh, YOUNGS_MODULUS, 0.0, mass, stiffness, held_nodes=base, frame_cases=(),
                                      interface_sets={"top": top})
    tension = cases.cases[cases.names.index("top force z")].geometric_stiffness     # unit tensile end force
    free = np.setdiff1d(np.arange(mesh.n_coordinates), (3 * base[:, None] + np.arange(3)).ravel())
    loads = spla.eigsh(stiffness[free][:, free].tocsc(), k=2, M=tension[free][:, free].tocsc(), sigma=0.0,
                       which="LM")[0]
    euler = np.pi ** 2 * YOUNGS_MODULUS * width ** 4 / 12 / (4 * length ** 2)
    assert np.sort(loads) == pytest.approx([euler, euler], rel=1e-3)


def test_centrifugal_case_of_a_clamped_beam():
    """The omega_z omega_z case of a beam along x clamped at the axis: axial force T(x) = rho A (L^2 - x^2) / 2 per
    unit omega^2, so the lateral energy of v = x is rho A L^3 / 3 (the quadratic elements' error in the cubic
    displacement stays below 1e-4 with 20 elements); the case's load is the outward d'Alembert force."""
    length, width = 2.0, 0.04
    mesh = block_mesh(length, width, width, 20, 1, 1, element="Hex20")
    mesh.nodes[:, 1:] -= width / 2                                        # axis through the section's centre
    mass, stiffness = linear_elastic_matrices(mesh, YOUNGS_MODULUS, 0.0, DENSITY)
    root = np.flatnonzero(np.isclose(mesh.nodes[:, 0], 0.0))
    cases = geometric_stiffness_cases(mesh, YOUNGS_MODULUS, 0.0, mass, stiffness, held_nodes=root,
                                      frame_cases=("omega",))
    spin = cases.cases[cases.names.index("omega_z omega_z")]
    assert spin.load[0::3].sum() == pytest.approx(DENSITY * width ** 2 * length ** 2 / 2, rel=1e-12)  # int rho A x dx
    linear = transverse_field(mesh, 1, component=2)
    assert linear @ spin.geometric_stiffness @ linear == pytest.approx(DENSITY * width ** 2 * length ** 3 / 3,
                                                                       rel=1e-4)


def test_inertia_relief_of_a_free_body():
    """A free block under the frame cases: each load's rigid resultant is removed (K u has none) and R^T M u = 0."""
    mesh = block_mesh(1.0, 0.3, 0.2, 4, 2, 2, element="Hex8")
    mass, stiffness = linear_elastic_matrices(mesh, YOUNGS_MODULUS, 0.3, DENSITY)
    cases = geometric_stiffness_cases(mesh, YOUNGS_MODULUS, 0.3, mass, stiffness, inertia_relief=True)
    rigid = rigid_body_modes(mesh.nodes)
    for case in cases.cases:
        if case.kind == "acceleration":   # a uniform acceleration's load is all rigid-body resultant: no strain
            assert np.abs(case.displacement).max() < 1e-12 * np.abs(cases.cases[0].displacement).max()
            continue
        momentum = mass @ case.displacement
        assert np.abs(rigid.T @ momentum).max() < 1e-12 * np.abs(momentum).sum()
        balanced = stiffness @ case.displacement
        assert np.abs(rigid.T @ balanced).max() < 1e-9 * np.abs(balanced).sum()


def test_bad_input_names_the_body():
    mesh = block_mesh(1.0, 0.1, 0.1, 4, 1, 1, element="Hex8")
    mass, stiffness = linear_elastic_matrices(mesh, YOUNGS_MODULUS, 0.3, DENSITY)
    with pytest.raises(ModelError, match="blade.*reference conditions"):
        geometric_stiffness_cases(mesh, YOUNGS_MODULUS, 0.3, mass, stiffness, name="blade")
    with pytest.raises(ModelError, match="blade.*interface set 'hub'"):
        geometric_stiffness_cases(mesh, YOUNGS_MODULUS, 0.3, mass, stiffness, held_nodes=[0, 1, 2, 3],
                                  interface_sets={"hub": [mesh.n_nodes + 5]}, name="blade")
    with pytest.raises(ValueError, match="3 per mesh node"):
        geometric_stiffness_matrix(mesh, np.zeros(5), YOUNGS_MODULUS, 0.3)
