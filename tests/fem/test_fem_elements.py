"""The quadratic elements (Tet10, Hex20), lumped mass and mixed meshes on the package's own meshes."""

import numpy as np
import pytest
import scipy.sparse as sp

from floatframe.fem import (Mesh, block_mesh, linear_elastic_matrices, lumped_mass_matrix,
                            mass_matrix, quadratic_mesh, rigid_body_modes, stiffness_matrix)
from floatframe.fem.mesh import EDGES

BOX = (2.0, 1.0, 0.5)


def distorted(mesh, seed=1, amount=0.08):
    """``mesh`` with its interior nodes moved randomly by up to ``amount`` of the box size [m]."""
    low, high = mesh.nodes.min(axis=0), mesh.nodes.max(axis=0)
    interior = np.all((mesh.nodes > low + 1e-9) & (mesh.nodes < high - 1e-9), axis=1)
    nodes = mesh.nodes.copy()
    nodes[interior] += amount * (high - low) * np.random.default_rng(seed).uniform(-1, 1, (interior.sum(), 3))
    return Mesh(nodes, mesh.elements)


@pytest.fixture(scope="module", params=["Tet4", "Hex8"])
def linear_block(request):
    """The BOX meshed with 2 x 2 x 2 hexahedra or 48 tetrahedra: quadratic_mesh makes it Hex20 or Tet10."""
    return block_mesh(*BOX, 2, 2, 2, element=request.param)


def test_quadratic_mesh_puts_shared_nodes_on_the_edge_midpoints():
    mesh = quadratic_mesh(block_mesh(2.0, 1.0, 1.0, 2, 1, 1))
    connectivity = mesh.elements["Hex20"]
    assert mesh.n_nodes == 12 + 20 and connectivity.shape == (2, 20)
    for node, edge in enumerate(EDGES["Hex20"], start=8):
        np.testing.assert_array_equal(mesh.nodes[connectivity[:, node]], mesh.nodes[connectivity[:, edge]].mean(axis=1))
    assert len(set(connectivity[0]) & set(connectivity[1])) == 4 + 4
    with pytest.raises(ValueError, match="already has quadratic elements"):
        quadratic_mesh(mesh)


def test_quadratic_mass_and_inertia_are_exact(linear_block):
    """Phi^T M Phi of the six rigid-body modes: the consistent mass gives 1000 kg and the box's inertia
    about the origin exactly; the lumped mass (positive) keeps the total mass, not the second moments."""
    mesh = quadratic_mesh(linear_block)
    m, (lx, ly, lz) = 1000.0, BOX
    density = m / (lx * ly * lz)
    modes = rigid_body_modes(mesh.nodes)
    consistent = mass_matrix(mesh, density)
    second_moments = m * np.array([lx**2, ly**2, lz**2]) / 3.0
    cross = m * np.array([[0, lx * ly, lx * lz], [lx * ly, 0, ly * lz], [lx * lz, ly * lz, 0]]) / 4.0
    np.testing.assert_allclose(modes[:, :3].T @ consistent @ modes[:, :3], m * np.eye(3), rtol=1e-13, atol=1e-9)
    np.testing.assert_allclose(modes[:, 3:].T @ consistent @ modes[:, 3:],
                               np.diag(second_moments.sum() - second_moments) - cross, rtol=1e-12)
    lumped = mass_matrix(mesh, density, lumped=True)
    assert lumped.nnz == mesh.n_coordinates and lumped.diagonal().min() > 0.0
    np.testing.assert_allclose(modes[:, :3].T @ lumped @ modes[:, :3], m * np.eye(3), rtol=1e-13, atol=1e-9)


@pytest.mark.parametrize("formulation", ["full", "bbar", "reduced"])
def test_quadratic_stiffness_has_exactly_six_rigid_body_modes(linear_block, formulation):
    """Also Hex20 with 2 x 2 x 2 points (C3D20R): its single-element spurious modes do not survive
    in a mesh of 2 x 2 x 2 elements."""
    mesh = quadratic_mesh(distorted(linear_block))
    stiffness = stiffness_matrix(mesh, 2e11, 0.3, formulation)
    assert abs(stiffness - stiffness.T).max() <= 1e-14 * abs(stiffness).max()
    modes = rigid_body_modes(mesh.nodes)
    assert np.abs(stiffness @ modes).max() < 1e-10 * abs(stiffness).max() * np.abs(modes).max()
    eigenvalues = np.linalg.eigvalsh(stiffness.toarray())
    assert np.all(np.abs(eigenvalues[:6]) < 1e-12 * eigenvalues[-1])
    assert eigenvalues[6] > 1e-6 * eigenvalues[-1]


@pytest.mark.parametrize("formulation", ["full", "reduced"])
def test_quadratic_patch_test(linear_block, formulation):
    """A linear displacement field on a distorted mesh (straight edges): no force at the interior nodes, and the
    strain energy u^T K u of u = eps (x, -nu y, -nu z) is E eps^2 V (to 1e-11)."""
    mesh = quadratic_mesh(distorted(linear_block))
    youngs_modulus, poissons_ratio, strain = 2e11, 0.3, 1e-3
    field = (strain * mesh.nodes * np.array([1.0, -poissons_ratio, -poissons_ratio])).ravel()
    stiffness = stiffness_matrix(mesh, youngs_modulus, poissons_ratio, formulation)
    forces = (stiffness @ field).reshape(-1, 3)
    low, high = mesh.nodes.min(axis=0), mesh.nodes.max(axis=0)
    interior = np.all((mesh.nodes > low + 1e-9) & (mesh.nodes < high - 1e-9), axis=1)
    assert interior.sum() >= 1
    assert np.abs(forces[interior]).max() < 1e-11 * np.abs(forces).max()
    energy = field @ stiffness @ field
    assert energy == pytest.approx(youngs_modulus * strain**2 * 2.0 * 1.0 * 0.5, rel=1e-11)


def test_tet10_lumped_mass_is_hrz_and_row_sums_are_negative():
    """One straight Tet10 of mass m: consistent diagonal 6 m / 420 (corners), 32 m / 420 (edges),
    so HRZ gives m / 36 and 4 m / 27; the row sums are -m / 20 at the corners."""
    nodes = np.array([[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.3, 1.5, 0.0], [0.4, 0.2, 3.0]])
    mesh = quadratic_mesh(Mesh(nodes, {"Tet4": [[0, 1, 2, 3]]}))
    volume = abs(np.linalg.det(nodes[1:] - nodes[0])) / 6.0
    m = 7.0 * volume
    consistent = mass_matrix(mesh, 7.0)
    np.testing.assert_allclose(consistent.diagonal()[::3], m * np.array([6] * 4 + [32] * 6) / 420, rtol=1e-13)
    np.testing.assert_allclose(mass_matrix(mesh, 7.0, lumped=True).diagonal()[::3],
                               m * np.array([1 / 36] * 4 + [4 / 27] * 6), rtol=1e-13)
    np.testing.assert_allclose(lumped_mass_matrix(consistent).diagonal()[:12:3], -m / 20, rtol=1e-13)


def test_hex20_row_sums_and_hrz_on_a_cube():
    """Serendipity brick of mass m: row sums -m/8 (corners) and m/6 (edges); consistent edge diagonal
    m 8 / 135 (the integral of ((1 - xi^2)(1 + eta)(1 + zeta) / 4)^2 over the cube / 8); HRZ keeps
    the ratio of the diagonal entries and the total."""
    mesh = quadratic_mesh(block_mesh(1.0, 1.0, 1.0, 1, 1, 1))
    consistent = mass_matrix(mesh, 3.0)
    row_sums = lumped_mass_matrix(consistent).diagonal()[::3]
    np.testing.assert_allclose(row_sums, 3.0 * np.array([-1 / 8] * 8 + [1 / 6] * 12), rtol=1e-13, atol=1e-15)
    diagonal = consistent.diagonal()[::3]
    np.testing.assert_allclose(diagonal[8:], 3.0 * 8 / 135, rtol=1e-13)
    hrz = mass_matrix(mesh, 3.0, lumped=True).diagonal()[::3]
    np.testing.assert_allclose(hrz, 3.0 * diagonal / diagonal.sum(), rtol=1e-13)


def test_first_order_lumped_mass_is_the_row_sum():
    """Tet4 and Hex8 lump by element row sums: the row sums of the assembled consistent matrix,
    also on distorted elements (where HRZ would differ)."""
    for kind in ("Hex8", "Tet4"):
        mesh = distorted(block_mesh(*BOX, 2, 2, 2, element=kind))
        difference = mass_matrix(mesh, 5.0, lumped=True) - lumped_mass_matrix(mass_matrix(mesh, 5.0))
        assert abs(difference).max() < 1e-13 * mass_matrix(mesh, 5.0, lumped=True).max()


def test_quadratic_elements_converge_where_linear_ones_lock_in_bending():
    """Free-free steel beam 4 x 0.5 x 0.5 m on an 8 x 1 x 1 grid: the first bending frequency of
    Hex20 (measured +0.33 %) and Tet10 (six per hexahedron, +0.43 %) lies within 0.6 % of Hex20 on a
    16 x 2 x 2 grid (157.8 Hz; Euler-Bernoulli without shear: 166.1 Hz); fully integrated Hex8 is
    26 % and Tet4 84 % too stiff."""
    steel = {"youngs_modulus": 2.1e11, "poissons_ratio": 0.3, "density": 7850.0}

    def first_bending_hz(mesh):
        mass, stiffness = linear_elastic_matrices(mesh, **steel)
        eigenvalues = sp.linalg.eigsh(stiffness, k=8, M=mass, sigma=-1e3, which="LM", return_eigenvectors=False)
        return np.sqrt(np.sort(eigenvalues)[6]) / (2 * np.pi)

    reference = first_bending_hz(quadratic_mesh(block_mesh(4.0, 0.5, 0.5, 16, 2, 2)))
    assert reference == pytest.approx(157.77, rel=1e-4)
    assert first_bending_hz(quadratic_mesh(block_mesh(4.0, 0.5, 0.5, 8, 1, 1))) == pytest.approx(reference, rel=0.006)
    assert first_bending_hz(block_mesh(4.0, 0.5, 0.5, 8, 1, 1, element="Tet10")) == pytest.approx(reference, rel=0.006)
    assert first_bending_hz(block_mesh(4.0, 0.5, 0.5, 8, 1, 1)) > 1.2 * reference
    assert first_bending_hz(block_mesh(4.0, 0.5, 0.5, 8, 1, 1, element="Tet4")) > 1.5 * reference


def test_reduced_hex20_has_spurious_modes_in_single_element_layers():
    """The 2 x 2 x 2-point Hex20 (C3D20R) has 6 spurious zero-energy modes as a single element and
    9 in a row of 8 elements, one element across (measured); none with 2 x 2 elements across (the
    rigid-body test above and the Abaqus block)."""
    for grid, zero_modes in (((1, 1, 1), 12), ((8, 1, 1), 15), ((2, 2, 1), 6)):
        mesh = quadratic_mesh(block_mesh(4.0, 0.5, 0.5, *grid))
        eigenvalues = np.linalg.eigvalsh(stiffness_matrix(mesh, 2.1e11, 0.3, "reduced").toarray())
        assert np.sum(np.abs(eigenvalues) < 1e-10 * eigenvalues[-1]) == zero_modes


def test_reduced_formulation_rejects_hex8():
    with pytest.raises(ValueError, match="not available for Hex8"):
        stiffness_matrix(block_mesh(1.0, 1.0, 1.0, 1, 1, 1), 1.0, 0.3, "reduced")


def test_mixed_mesh_sums_the_element_types():
    """A mesh of a Hex8 block, a Hex20 block, a Tet4 and a Tet10 block on disjoint nodes: its matrices
    are the block-diagonal assembly of the four separate ones (numbering: the blocks one after
    another)."""
    parts = [block_mesh(1.0, 1.0, 1.0, 1, 1, 1, element=kind) for kind in ("Hex8", "Hex20", "Tet4", "Tet10")]
    offsets = np.cumsum([0] + [part.n_nodes for part in parts])
    mixed = Mesh(np.vstack([part.nodes + 2.0 * i for i, part in enumerate(parts)]),
                 {kind: connectivity + offset for part, offset in zip(parts, offsets)
                  for kind, connectivity in part.elements.items()})
    for matrices in (lambda mesh: linear_elastic_matrices(mesh, 2e11, 0.3, 2900.0, "bbar"),
                     lambda mesh: (mass_matrix(mesh, 2900.0, lumped=True),)):
        expected = [sp.block_diag(blocks, format="csr") for blocks in zip(*[matrices(part) for part in parts])]
        for ours, reference in zip(matrices(mixed), expected):
            assert abs(ours - reference).max() < 1e-14 * abs(reference).max()


def test_mismatched_mid_edge_nodes_are_rejected():
    mesh = quadratic_mesh(block_mesh(2.0, 1.0, 1.0, 2, 1, 1))
    connectivity = mesh.elements["Hex20"].copy()
    shared = sorted(set(connectivity[0, 8:]) & set(connectivity[1, 8:]))[0]
    connectivity[1, connectivity[1] == shared] = mesh.n_nodes
    broken = Mesh(np.vstack([mesh.nodes, mesh.nodes[shared]]), {"Hex20": connectivity}, duplicate_nodes="keep")
    with pytest.raises(ValueError, match="different mid-edge nodes"):
        mass_matrix(broken, 1.0)


def test_ffrf_body_refuses_row_sum_lumped_tet10_and_takes_hrz():
    import floatframe as ff
    from floatframe.components.base import ModelError
    from floatframe.components.ffrf import add_ffrf_body

    mesh = block_mesh(0.4, 0.1, 0.1, 2, 1, 1, element="Tet10")
    consistent, stiffness = linear_elastic_matrices(mesh, 2e11, 0.3, 7850.0)
    with pytest.raises(ModelError, match="negative diagonal entries"):
        add_ffrf_body(ff.System(), mesh.nodes, lumped_mass_matrix(consistent), stiffness)
    add_ffrf_body(ff.System(), mesh.nodes, mass_matrix(mesh, 7850.0, lumped=True), stiffness)
