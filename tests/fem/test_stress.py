"""Stress and strain recovery (floatframe.fem.stress): exact for homogeneous strain on every element type,
uniaxial tension sigma = F / A, cantilever bending sigma = M y / I converging under refinement, von Mises,
and post-processing modes for reduced bodies (layout, complete basis, Exudyn's ComputePostProcessingModes)."""
import numpy as np
import pytest
import scipy.sparse.linalg as spla

from floatframe.fem import block_mesh, eigenmodes, linear_elastic_matrices, stiffness_matrix
from floatframe.fem.stress import (elasticity_matrix, modal_field, nodal_strains, nodal_stresses,
                                   post_processing_modes, strain_recovery_matrix, von_mises)

E, NU = 2.1e11, 0.3


def solve_held(stiffness, held_coordinates, held_values, load):
    """Static K u = f with the ``held_coordinates`` prescribed to ``held_values`` [m]."""
    n = stiffness.shape[0]
    u = np.zeros(n)
    u[held_coordinates] = held_values
    free = np.setdiff1d(np.arange(n), held_coordinates)
    right = load[free] - stiffness[free][:, held_coordinates] @ u[held_coordinates]
    u[free] = spla.spsolve(stiffness[free][:, free].tocsc(), right)
    return u


@pytest.mark.parametrize("element", ["Hex8", "Hex20", "Tet4", "Tet10"])
def test_homogeneous_strain_is_recovered_exactly_at_every_node(element):
    mesh = block_mesh(2.0, 1.0, 1.0, 3, 2, 2, element=element)
    gradient = np.array([[1e-3, 2e-4, 0.0], [0.0, -3e-4, 5e-4], [1e-4, 0.0, 2e-3]])
    strains = nodal_strains(mesh, mesh.nodes @ gradient.T)
    voigt = [gradient[0, 0], gradient[1, 1], gradient[2, 2], gradient[1, 2] + gradient[2, 1],
             gradient[0, 2] + gradient[2, 0], gradient[0, 1] + gradient[1, 0]]
    np.testing.assert_allclose(strains, np.broadcast_to(voigt, (mesh.n_nodes, 6)), atol=1e-15)


def test_rigid_motion_gives_no_strain():
    mesh = block_mesh(1.0, 0.5, 0.2, 4, 2, 1, element="Hex20")
    rotation = np.cross([0.0, 0.0, 1e-3], mesh.nodes) + np.array([0.1, -0.2, 0.3])
    assert np.abs(nodal_strains(mesh, rotation)).max() < 1e-13   # round-off of 0.3 m / 0.25 m elements


@pytest.mark.parametrize("element", ["Hex8", "Tet4", "Hex20"])
def test_uniaxial_tension_gives_force_over_area(element):
    """Rollers on x = 0, y = 0, z = 0 and u_x = delta on x = L: a homogeneous uniaxial stress, whose
    sigma_xx must equal the reaction force (from K u) over the cross-section."""
    length, width, height, delta = 1.0, 0.2, 0.1, 1e-4
    mesh = block_mesh(length, width, height, 4, 2, 2, element=element)
    stiffness = stiffness_matrix(mesh, E, NU)
    x, y, z = mesh.nodes.T
    end = np.flatnonzero(x > length - 1e-9)
    held = np.concatenate([3 * np.flatnonzero(x < 1e-9), 3 * np.flatnonzero(y < 1e-9) + 1,
                           3 * np.flatnonzero(z < 1e-9) + 2, 3 * end])
    values = np.where(np.isin(held, 3 * end), delta, 0.0)
    u = solve_held(stiffness, held, values, np.zeros(mesh.n_coordinates))
    force = (stiffness @ u)[3 * end].sum()
    stress = nodal_stresses(mesh, u, E, NU)
    np.testing.assert_allclose(force, E * delta / length * width * height, rtol=1e-9)
    np.testing.assert_allclose(stress[:, 0], force / (width * height), rtol=1e-9)
    assert np.abs(stress[:, 1:]).max() < 1e-9 * force / (width * height)
    np.testing.assert_allclose(von_mises(stress), force / (width * height), rtol=1e-9)


def cantilever_bending_error(element, refinement, x_section=0.3):
    """Relative error of sigma_xx on the top surface at x = x_section L of a clamped 1 m x 0.1 m x 0.1 m
    cantilever with a tip load F (spread over the end face), against M y / I = F (L - x) (h / 2) / I."""
    length, side, load = 1.0, 0.1, 1e3
    mesh = block_mesh(length, side, side, 10 * refinement, 2 * refinement, 2 * refinement, element=element)
    stiffness = stiffness_matrix(mesh, E, NU)
    x, y, _ = mesh.nodes.T
    end = np.flatnonzero(x > length - 1e-9)
    force = np.zeros(mesh.n_coordinates)
    force[3 * end + 1] = -load / end.size
    held = (3 * np.flatnonzero(x < 1e-9)[:, None] + np.arange(3)).ravel()
    u = solve_held(stiffness, held, np.zeros(held.size), force)
    top = np.flatnonzero((np.abs(x - x_section * length) < 1e-9) & (y > side - 1e-9))
    expected = load * (1 - x_section) * length * (side / 2) / (side ** 4 / 12)
    return np.abs(nodal_stresses(mesh, u, E, NU)[top, 0] / expected - 1).max()


def test_cantilever_root_stress_converges_to_beam_theory():
    """Hex8 (which locks in bending: 24 % low on 2 x 2 elements a section) converges at second order; the
    quadratic elements are close at once (Hex20 0.1 %, Tet10 1.8 %)."""
    coarse, fine = cantilever_bending_error("Hex8", 1), cantilever_bending_error("Hex8", 2)
    assert coarse < 0.3 and fine < 0.07 and fine < coarse / 3.5
    assert cantilever_bending_error("Hex20", 1) < 2e-3
    assert cantilever_bending_error("Tet10", 1) < 0.04


def test_von_mises_of_pure_shear_and_of_a_hydrostatic_state():
    shear = np.array([0, 0, 0, 0, 0, 5.0])
    hydrostatic = np.array([3.0, 3.0, 3.0, 0, 0, 0])
    np.testing.assert_allclose(von_mises(np.stack([shear, hydrostatic])), [5.0 * np.sqrt(3.0), 0.0])


def test_elasticity_matrix_gives_uniaxial_stress_for_the_poisson_strain():
    strain = np.array([1.0, -NU, -NU, 0, 0, 0]) * 1e-3
    np.testing.assert_allclose(elasticity_matrix(E, NU) @ strain, [E * 1e-3, 0, 0, 0, 0, 0], atol=1e-6)


@pytest.fixture(scope="module")
def small_free_block():
    mesh = block_mesh(0.4, 0.1, 0.1, 4, 1, 1, element="Tet4")
    mass, stiffness = linear_elastic_matrices(mesh, E, NU, density=7850.0)
    return mesh, mass, stiffness


def test_post_processing_modes_of_a_complete_basis_give_the_full_body_stress(small_free_block):
    """All 3 N modes (6 rigid-body modes included): S zeta equals the full recovery of Psi zeta."""
    mesh, mass, stiffness = small_free_block
    basis = eigenmodes(mass, stiffness, mesh.n_coordinates, n_rigid_body_modes=0, solver="dense").vectors
    assert basis.shape == (mesh.n_coordinates, mesh.n_coordinates)
    displacement = np.random.default_rng(3).normal(scale=1e-5, size=mesh.n_coordinates)
    modal = basis.T @ (mass @ displacement)
    modes_matrix = post_processing_modes(mesh, basis, E, NU)
    assert modes_matrix.shape == (mesh.n_nodes, 6 * mesh.n_coordinates)
    full = nodal_stresses(mesh, displacement, E, NU)
    np.testing.assert_allclose(modal_field(modes_matrix, modal), full, atol=1e-8 * np.abs(full).max())


def test_post_processing_modes_column_layout_and_strain_output(small_free_block):
    mesh, mass, stiffness = small_free_block
    basis = eigenmodes(mass, stiffness, 3).vectors
    strain_modes = post_processing_modes(mesh, basis, output="strain")
    recovery = strain_recovery_matrix(mesh)
    np.testing.assert_allclose(strain_modes[:, 6:12], (recovery @ basis[:, 1]).reshape(-1, 6), rtol=1e-12)
    modal = np.array([[1.0, 0.0, 0.0], [0.5, 0.0, -2.0]])
    fields = modal_field(strain_modes, modal)
    assert fields.shape == (2, mesh.n_nodes, 6)
    np.testing.assert_allclose(fields[1], nodal_strains(mesh, basis @ modal[1]), atol=1e-12)
    with pytest.raises(ValueError, match="youngs_modulus and poissons_ratio"):
        post_processing_modes(mesh, basis)


@pytest.mark.exudyn
def test_post_processing_modes_equal_exudyn_compute_post_processing_modes(small_free_block):
    exudyn_fem = pytest.importorskip("exudyn.FEM")
    import exudyn

    mesh, mass, stiffness = small_free_block
    basis = eigenmodes(mass, stiffness, 4).vectors
    fem = exudyn_fem.FEMinterface()
    fem.nodes = {"Position": mesh.nodes}
    fem.elements = [{"Tet4": mesh.elements["Tet4"]}]
    fem.modeBasis = {"matrix": basis}
    for output, variable, material in (("stress", exudyn.OutputVariableType.StressLocal,
                                        exudyn_fem.KirchhoffMaterial(E, NU, 7850.0)),
                                       ("strain", exudyn.OutputVariableType.StrainLocal, 0)):
        fem.ComputePostProcessingModes(material=material, outputVariableType=variable)
        ours = post_processing_modes(mesh, basis, E, NU, output=output)
        reference = fem.postProcessingModes["matrix"]
        np.testing.assert_allclose(ours, reference, atol=1e-9 * np.abs(reference).max())
