"""Mass and stiffness matrices generated with scikit-fem on the package's own meshes."""

import numpy as np
import pytest
import scipy.linalg as sla
import scipy.sparse as sp

from floatframe.fem import (Mesh, add_node_mass, block_mesh, center_of_mass, gyroscopic_matrix, lame_parameters,
                            linear_elastic_matrices, lumped_mass_matrix, mass_matrix, rigid_body_modes, rotor_disc_mesh, stiffness_matrix)

STEEL = {"youngs_modulus": 2.1e11, "poissons_ratio": 0.3, "density": 7850.0}


def octagon_area(radius):
    """Area [m^2] of the regular octagon inscribed in a circle of ``radius``."""
    return 2.0 * np.sqrt(2.0) * radius**2


def translation_modes(n_nodes):
    """Phi_t, shape (3 N, 3)."""
    return np.kron(np.ones(n_nodes), np.eye(3)).T


def frequencies_hz(mass, stiffness, count):
    eigenvalues = sla.eigh(stiffness.toarray(), mass.toarray(), eigvals_only=True, subset_by_index=[0, count - 1])
    return np.sqrt(np.abs(eigenvalues)) / (2.0 * np.pi)


@pytest.fixture(scope="module")
def block():
    mesh = block_mesh(4.0, 1.0, 1.0, 10, 3, 3)
    return mesh, *linear_elastic_matrices(mesh, 2e11, 0.3, 2900.0)


@pytest.fixture(scope="module")
def rotor():
    mesh = rotor_disc_mesh()
    return mesh, *linear_elastic_matrices(mesh, **STEEL)


def test_matrices_are_csr_and_interleaved_on_a_unit_cube():
    """Trilinear cube: M[3i+k, 3j+l] = rho prod_d (1/3 if same coordinate else 1/6) delta_kl."""
    mesh = block_mesh(1.0, 1.0, 1.0, 1, 1, 1)
    mass, stiffness = linear_elastic_matrices(mesh, 1.0, 0.25, 2.0)
    assert sp.isspmatrix_csr(mass) and sp.isspmatrix_csr(stiffness)
    assert mass[0, 0] == pytest.approx(2.0 / 27.0, rel=1e-14)
    assert mass[0, 3] == pytest.approx(2.0 / 54.0, rel=1e-14)
    assert mass[0, 3 * 6] == pytest.approx(2.0 / 108.0, rel=1e-14)
    assert mass[0, 3 * 7] == pytest.approx(2.0 / 216.0, rel=1e-14)
    assert mass[0, 1] == 0.0 and mass[0, 4] == 0.0
    stretch = np.zeros(24)
    stretch[0::3] = mesh.nodes[:, 0]
    forces = (stiffness @ stretch).reshape(-1, 3)
    lam, mu = lame_parameters(1.0, 0.25)
    np.testing.assert_allclose(np.abs(forces[:, 0]), (lam + 2 * mu) / 4, rtol=1e-12)
    np.testing.assert_allclose(np.abs(forces[:, 1:]), lam / 4, rtol=1e-12)


def test_block_total_mass_and_translational_inertia(block):
    mesh, mass, _ = block
    phi_t = translation_modes(mesh.n_nodes)
    np.testing.assert_allclose(phi_t.T @ mass @ phi_t, 2900.0 * 4.0 * np.eye(3), rtol=1e-13, atol=1e-9)


def test_rotor_total_mass_equals_density_times_polygonal_volume(rotor):
    mesh, mass, _ = rotor
    volume = octagon_area(0.05) * 0.45 + octagon_area(0.2) * 0.05
    phi_t = translation_modes(mesh.n_nodes)
    np.testing.assert_allclose(phi_t.T @ mass @ phi_t, 7850.0 * volume * np.eye(3), rtol=1e-13, atol=1e-9)


def test_mass_rotational_inertia_of_block_is_exact(block):
    """Phi_r^T M Phi_r = inertia tensor of the box about the origin, integrated exactly."""
    mesh, mass, _ = block
    phi_r = rigid_body_modes(mesh.nodes)[:, 3:]
    m, lx, ly, lz = 11600.0, 4.0, 1.0, 1.0
    second_moments = m * np.array([lx**2, ly**2, lz**2]) / 3.0
    cross = m * np.array([[0, lx * ly, lx * lz], [lx * ly, 0, ly * lz], [lx * lz, ly * lz, 0]]) / 4.0
    expected = np.diag(second_moments.sum() - second_moments) - cross
    np.testing.assert_allclose(phi_r.T @ mass @ phi_r, expected, rtol=1e-12)


@pytest.mark.parametrize("which", ["block", "rotor"])
def test_mass_is_symmetric_positive_definite(which, request):
    _, mass, _ = request.getfixturevalue(which)
    assert abs(mass - mass.T).max() == 0.0
    eigenvalues = np.linalg.eigvalsh(mass.toarray())
    assert eigenvalues[0] > 1e-4 * eigenvalues[-1]


@pytest.mark.parametrize("which", ["block", "rotor"])
@pytest.mark.parametrize("formulation", ["full", "bbar"])
def test_stiffness_has_exactly_six_rigid_body_modes(which, formulation, request):
    mesh = request.getfixturevalue(which)[0]
    stiffness = stiffness_matrix(mesh, 2e11, 0.3, formulation)
    assert abs(stiffness - stiffness.T).max() <= 1e-14 * abs(stiffness).max()
    modes = rigid_body_modes(mesh.nodes)
    residual = np.abs(stiffness @ modes).max() / (abs(stiffness).max() * np.abs(modes).max())
    assert residual < 1e-10
    eigenvalues = np.linalg.eigvalsh(stiffness.toarray())
    assert np.all(np.abs(eigenvalues[:6]) < 1e-12 * eigenvalues[-1])
    assert eigenvalues[6] > 1e-6 * eigenvalues[-1]


@pytest.mark.parametrize("formulation", ["full", "bbar"])
def test_axial_bar_stiffness_is_EA_over_L(formulation):
    """Bar 2 x 0.2 x 0.1 m, nu = 0, x = 0 face held axially only, uniform traction on x = L:
    the end displacement gives k = E A / L; linear fields are exact, tolerance 1e-9."""
    length, width, height, youngs_modulus, force = 2.0, 0.2, 0.1, 7e10, 1e5
    mesh = block_mesh(length, width, height, 8, 2, 2)
    stiffness = stiffness_matrix(mesh, youngs_modulus, 0.0, formulation)
    left = mesh.nodes_in_plane((0, 0, 0), (1, 0, 0))
    right = mesh.nodes_in_plane((length, 0, 0), (1, 0, 0))
    fixed = np.concatenate([3 * left, [3 * mesh.node_at_point((0, 0, 0)) + 1, 3 * mesh.node_at_point((0, 0, 0)) + 2,
                                       3 * mesh.node_at_point((0, width, 0)) + 2]])
    loads = np.zeros(mesh.n_coordinates)
    tributary = np.prod([np.where(np.isclose(c, 0) | np.isclose(c, size), 0.5, 1.0)
                         for c, size in zip(mesh.nodes[right, 1:].T, (width, height))], axis=0)
    loads[3 * right] = force * tributary / tributary.sum()
    free = np.setdiff1d(np.arange(mesh.n_coordinates), fixed)
    displacement = np.zeros(mesh.n_coordinates)
    displacement[free] = sp.linalg.spsolve(stiffness[free][:, free].tocsc(), loads[free])
    end_stiffness = force / displacement[3 * right].mean()
    assert end_stiffness == pytest.approx(youngs_modulus * width * height / length, rel=1e-9)
    np.testing.assert_allclose(displacement[3 * right], displacement[3 * right].mean(), rtol=1e-9)


def test_uniaxial_stress_energy_with_poisson_contraction():
    """u = eps (x, -nu y, -nu z) stores u^T K u = E eps^2 V exactly."""
    mesh = block_mesh(1.5, 0.4, 0.3, 3, 2, 2)
    youngs_modulus, poissons_ratio, strain = 2e11, 0.3, 1e-3
    field = strain * mesh.nodes * np.array([1.0, -poissons_ratio, -poissons_ratio])
    stiffness = stiffness_matrix(mesh, youngs_modulus, poissons_ratio)
    energy = field.ravel() @ stiffness @ field.ravel()
    assert energy == pytest.approx(youngs_modulus * strain**2 * 1.5 * 0.4 * 0.3, rel=1e-12)


def test_center_of_mass_of_a_uniform_block_is_its_centroid_and_a_point_mass_moves_it_by_the_lever_rule(block):
    mesh, mass, _ = block
    np.testing.assert_allclose(center_of_mass(mesh.nodes, mass), [2.0, 0.5, 0.5], rtol=1e-13)
    body_mass = 2900.0 * 4.0
    corner = int(np.argmax(mesh.nodes.sum(axis=1)))                            # the node at (4, 1, 1)
    expected = (body_mass * np.array([2.0, 0.5, 0.5]) + 100.0 * mesh.nodes[corner]) / (body_mass + 100.0)
    np.testing.assert_allclose(center_of_mass(mesh.nodes, add_node_mass(mass, corner, 100.0)), expected, rtol=1e-13)
    with pytest.raises(ValueError, match="center_of_mass: .* not positive"):
        center_of_mass(mesh.nodes, 0.0 * mass)


def test_add_node_mass_changes_only_three_diagonal_entries(block):
    _, mass, _ = block
    augmented = add_node_mass(mass, 9, 0.1)
    assert sp.isspmatrix_csr(augmented)
    difference = (augmented - mass).tocoo()
    assert sorted(zip(difference.row, difference.col)) == [(27, 27), (28, 28), (29, 29)]
    np.testing.assert_allclose(difference.data, 0.1, rtol=1e-12)
    assert mass[27, 27] == pytest.approx(augmented[27, 27] - 0.1, rel=1e-14)
    with pytest.raises(ValueError, match="outside"):
        add_node_mass(mass, mass.shape[0] // 3, 1.0)


@pytest.mark.parametrize("point_mass", [-0.1, np.nan])
def test_a_negative_or_nan_point_mass_is_refused(block, point_mass):
    _, mass, _ = block
    with pytest.raises(ValueError, match=rf"the point mass on node 9 must be finite and >= 0 kg, got {point_mass}"):
        add_node_mass(mass, 9, point_mass)
    assert (add_node_mass(mass, 9, 0.0) - mass).nnz == 0


def test_lumped_mass_keeps_total_mass_and_is_diagonal(rotor):
    mesh, mass, _ = rotor
    lumped = lumped_mass_matrix(mass)
    assert lumped.nnz == mesh.n_coordinates
    assert lumped.sum() == pytest.approx(mass.sum(), rel=1e-14)


def test_rotor_default_mesh_eigenfrequencies(rotor):
    """Free-free steel rotor, disc at mid-span: 6 rigid-body modes (|f| < 0.1 Hz), then the
    first bending pair at 1452 Hz. Plausibility: below the Euler-Bernoulli free-free bending
    frequency of the bare octagonal shaft (the disc adds more mass than stiffness) and above
    half of it; measured ratio 0.83."""
    mesh, mass, stiffness = rotor
    frequencies = frequencies_hz(mass, stiffness, 10)
    assert np.all(frequencies[:6] < 0.1)
    radius, length = 0.05, 0.5
    area = octagon_area(radius)
    second_moment = octagon_second_moment(radius)
    beam = 4.7300407**2 / (2 * np.pi * length**2) * np.sqrt(STEEL["youngs_modulus"] * second_moment
                                                              / (STEEL["density"] * area))
    assert 0.5 * beam < frequencies[6] < beam
    assert frequencies[6] == pytest.approx(1452.5, rel=0.01)
    assert frequencies[7] == pytest.approx(frequencies[6], rel=1e-6)


def octagon_second_moment(radius):
    """Area moment [m^4] of the regular octagon inscribed in ``radius`` about any centroidal axis:
    for a regular n-gon I = n R^4 sin(2 pi / n) (2 + cos(2 pi / n)) / 24."""
    angle = 2.0 * np.pi / 8
    return 8 * radius**4 * np.sin(angle) * (2.0 + np.cos(angle)) / 24.0


def test_refinement_lowers_the_first_bending_frequency():
    """Full-integration trilinear hexes are too stiff in bending, so refining lowers f1;
    default (245 nodes) -> refined (1341 nodes): measured 1452.5 -> 1386 Hz (-4.6 %)."""
    coarse = rotor_disc_mesh()
    fine = rotor_disc_mesh(n_circumferential=16, n_radial_shaft=2, n_radial_disc=3, axial_element_size=0.025)
    f_coarse = frequencies_hz(*linear_elastic_matrices(coarse, **STEEL), 7)[6]
    mass, stiffness = linear_elastic_matrices(fine, **STEEL)
    eigenvalues = sp.linalg.eigsh(stiffness, k=8, M=mass, sigma=-1e3, which="LM", return_eigenvectors=False)
    f_fine = np.sqrt(np.abs(np.sort(eigenvalues)[6])) / (2 * np.pi)
    assert 0.90 * f_coarse < f_fine < f_coarse


def test_mass_matrix_is_density_linear():
    mesh = rotor_disc_mesh()
    assert abs(mass_matrix(mesh, 2.0) - 2.0 * mass_matrix(mesh, 1.0)).max() < 1e-15


def test_tet_and_hex_meshes_of_the_same_cube_have_equal_mass():
    cube = block_mesh(1.0, 1.0, 1.0, 1, 1, 1)
    tets = np.array([[0, 1, 3, 4], [1, 2, 3, 6], [1, 3, 4, 6], [4, 5, 6, 1], [4, 6, 7, 3]])
    hexahedron = cube.elements["Hex8"][0]
    tet_mesh = Mesh(cube.nodes, {"Tet4": hexahedron[tets]})
    phi_t = translation_modes(8)
    np.testing.assert_allclose(phi_t.T @ mass_matrix(tet_mesh, 3.0) @ phi_t, 3.0 * np.eye(3), rtol=1e-13)


@pytest.mark.parametrize("material, fault", [
    (dict(youngs_modulus=2e11, poissons_ratio=0.5, density=7850.0), r"poissons_ratio must be in \(-1, 0.5\), got 0.5"),
    (dict(youngs_modulus=2e11, poissons_ratio=-1.0, density=7850.0), r"poissons_ratio must be in \(-1, 0.5\)"),
    (dict(youngs_modulus=2e11, poissons_ratio=0.3, density=-1.0), r"density must be positive, got -1.0"),
    (dict(youngs_modulus=0.0, poissons_ratio=0.3, density=7850.0), r"youngs_modulus must be positive"),
    (dict(youngs_modulus=np.nan, poissons_ratio=0.3, density=7850.0), r"youngs_modulus must be positive"),
])
def test_material_parameters_out_of_range_are_refused_by_name(material, fault):
    with pytest.raises(ValueError, match=fault):
        linear_elastic_matrices(block_mesh(1.0, 0.1, 0.1, 2, 1, 1), **material)


@pytest.mark.parametrize("element", ["Hex8", "Hex20"])
def test_a_tangled_element_is_named_before_assembly(element):
    mesh = block_mesh(1.0, 0.1, 0.1, 2, 1, 1, element=element)
    connectivity = mesh.elements[element].copy()
    connectivity[1, [1, 3]] = connectivity[1, [3, 1]]          # two bottom corners swapped, the top kept: folded
    with pytest.raises(ValueError, match=rf"{element} element 1 \(nodes .*\) is inverted"):
        linear_elastic_matrices(Mesh(mesh.nodes, {element: connectivity}), 2e11, 0.3, 7850.0)


def test_an_element_numbered_mirror_wise_gets_the_same_matrices():
    """All corner volumes negative is a mirrored numbering, not a fault: scikit-fem integrates |det J|."""
    mesh = block_mesh(1.0, 0.1, 0.1, 2, 1, 1)
    mirrored = mesh.elements["Hex8"][:, [4, 5, 6, 7, 0, 1, 2, 3]]   # top and bottom faces exchanged
    expected = linear_elastic_matrices(mesh, 2e11, 0.3, 7850.0)
    for matrix, reference in zip(linear_elastic_matrices(Mesh(mesh.nodes, {"Hex8": mirrored}), 2e11, 0.3, 7850.0),
                                 expected):
        assert abs(matrix - reference).max() <= 1e-12 * abs(reference).max()


def test_a_flat_element_and_a_mesh_without_elements_are_refused():
    mesh = block_mesh(1.0, 0.1, 0.1, 1, 1, 1)
    nodes = mesh.nodes.copy()
    top = mesh.elements["Hex8"][0, 4:]
    nodes[top, 2] = nodes[mesh.elements["Hex8"][0, :4], 2]    # the top face onto the bottom face
    with pytest.raises(ValueError, match=r"Hex8 element 0 .* is degenerate"):
        linear_elastic_matrices(Mesh(nodes, mesh.elements), 2e11, 0.3, 7850.0)
    with pytest.raises(ValueError, match="no volume elements"):
        linear_elastic_matrices(Mesh(mesh.nodes, {}), 2e11, 0.3, 7850.0)


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_the_gyroscopic_matrix_is_skew_and_gives_a_translating_body_m_e_cross_u(block, axis):
    mass = block[1]
    gyroscopic = gyroscopic_matrix(mass, axis)
    assert sp.issparse(gyroscopic)
    assert abs(gyroscopic + gyroscopic.T).max() <= 1e-12 * abs(gyroscopic).max()      # M_s kron skew(e)
    velocity = np.array([0.3, -1.2, 0.7])                                              # u [m/s], every node
    total = translation_modes(mass.shape[0] // 3).T @ (gyroscopic @ np.tile(velocity, mass.shape[0] // 3))
    total_mass = translation_modes(mass.shape[0] // 3)[:, 0] @ mass @ translation_modes(mass.shape[0] // 3)[:, 0]
    np.testing.assert_allclose(total, total_mass * np.cross(np.eye(3)[axis], velocity), rtol=1e-12, atol=1e-12)


def test_a_gyroscopic_matrix_about_another_axis_is_refused(block):
    with pytest.raises(ValueError, match="gyroscopic_matrix: axis must be 0, 1 or 2"):
        gyroscopic_matrix(block[1], 3)
