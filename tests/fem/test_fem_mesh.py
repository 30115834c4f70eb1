"""Mesh container, node queries, surface extraction and the structured generators."""

import meshio
import numpy as np
import pytest

from floatframe.fem import Mesh, block_mesh, hex_corner_jacobians, rotor_disc_mesh


def octagon_area(radius, n=8):
    """Area [m^2] of the regular n-gon inscribed in a circle of ``radius``."""
    return 0.5 * n * radius**2 * np.sin(2.0 * np.pi / n)


def divergence_volume(mesh):
    """Enclosed volume [m^3] from the surface triangles (divergence theorem, exact for planar faces)."""
    corners = mesh.nodes[mesh.surface_triangles()]
    return np.einsum("ti,ti->t", corners[:, 0], np.cross(corners[:, 1], corners[:, 2])).sum() / 6.0


def test_block_mesh_counts_numbering_and_corners():
    mesh = block_mesh(4.0, 1.0, 1.0, 10, 3, 3)
    assert mesh.n_nodes == 11 * 4 * 4
    assert mesh.elements["Hex8"].shape == (90, 8)
    assert mesh.node_at_point((4.0, 1.0, 1.0)) == mesh.n_nodes - 1
    assert mesh.node_at_point((0.4, 0.0, 0.0)) == 1
    np.testing.assert_allclose(hex_corner_jacobians(mesh.nodes, mesh.elements["Hex8"]), 0.4 / 3 / 3 / 8)


def test_block_surface_is_closed_outward_and_encloses_the_box():
    mesh = block_mesh(2.0, 0.5, 0.3, 4, 2, 3)
    triangles = mesh.surface_triangles()
    assert triangles.shape == (2 * 2 * (4 * 2 + 4 * 3 + 2 * 3), 3)
    assert divergence_volume(mesh) == pytest.approx(2.0 * 0.5 * 0.3, rel=1e-12)
    edges = np.sort(np.concatenate([triangles[:, [0, 1]], triangles[:, [1, 2]], triangles[:, [2, 0]]]), axis=1)
    _, uses = np.unique(edges, axis=0, return_counts=True)
    assert np.all(uses == 2)


@pytest.mark.parametrize("element, n_nodes, n_elements", [
    ("Hex8", 3 * 4 * 3, 2 * 3 * 2), ("Tet4", 3 * 4 * 3, 6 * 2 * 3 * 2),
    ("Hex20", 36 + 2 * 4 * 3 + 3 * 3 * 3 + 3 * 4 * 2, 2 * 3 * 2),
    ("Tet10", 36 + 2 * 4 * 3 + 3 * 3 * 3 + 3 * 4 * 2 + 2 * 3 * 3 + 2 * 4 * 2 + 3 * 3 * 2 + 2 * 3 * 2, 6 * 2 * 3 * 2)])
def test_block_mesh_of_every_element_type_is_conforming(element, n_nodes, n_elements):
    """Node counts: corners, then one node per edge (hexahedron edges; Tet10 also the face and
    body diagonals); the surface is closed (every edge in two triangles) and encloses the box."""
    mesh = block_mesh(2.0, 0.6, 0.4, 2, 3, 2, element=element)
    assert mesh.n_nodes == n_nodes and mesh.elements[element].shape[0] == n_elements
    triangles = mesh.surface_triangles()
    edges = np.sort(np.concatenate([triangles[:, [0, 1]], triangles[:, [1, 2]], triangles[:, [2, 0]]]), axis=1)
    _, uses = np.unique(edges, axis=0, return_counts=True)
    assert np.all(uses == 2)
    assert divergence_volume(mesh) == pytest.approx(2.0 * 0.6 * 0.4, rel=1e-12)
    corners = mesh.elements[element][:, :8 if element.startswith("Hex") else 4]
    if element.startswith("Hex"):
        assert hex_corner_jacobians(mesh.nodes, corners).min() > 0.0
    else:  # numbered as Abaqus and VTK number them: (x1 - x0) . ((x2 - x0) x (x3 - x0)) = 6 V > 0
        x = mesh.nodes[corners]
        six_volumes = np.einsum("ij,ij->i", x[:, 1] - x[:, 0], np.cross(x[:, 2] - x[:, 0], x[:, 3] - x[:, 0]))
        np.testing.assert_allclose(six_volumes, 6.0 * 2.0 * 0.6 * 0.4 / n_elements, rtol=1e-12)
    with pytest.raises(ValueError, match="unknown element type 'Hex27'"):
        block_mesh(1.0, 1.0, 1.0, 1, 1, 1, element="Hex27")


def test_node_queries_on_a_block():
    mesh = block_mesh(1.0, 1.0, 1.0, 2, 2, 2)
    assert mesh.nodes_in_plane((0.0, 0.0, 1.0), (0.0, 0.0, 2.0)).size == 9
    assert mesh.nodes_in_plane((0.5, 0.5, 0.5), (1.0, 1.0, 0.0)).size == 9
    on_cylinder = mesh.nodes_on_cylinder((0.5, 0.5, 0.0), (0.0, 0.0, 1.0), np.sqrt(0.5))
    assert np.allclose(np.abs(mesh.nodes[on_cylinder, :2] - 0.5), 0.5)
    assert on_cylinder.size == 4 * 3
    with pytest.raises(ValueError, match=r"\(0\.3, 0\.3, 0\.3\)"):
        mesh.node_at_point((0.3, 0.3, 0.3))


def test_mesh_rejects_bad_connectivity():
    with pytest.raises(ValueError, match="outside"):
        Mesh(np.zeros((4, 3)), {"Tet4": [[0, 1, 2, 4]]})
    with pytest.raises(ValueError, match="unknown element type"):
        Mesh(np.zeros((4, 3)), {"Wedge6": [[0, 1, 2, 3, 0, 1]]})


def test_tet_surface_and_meshio_export():
    nodes = [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]]
    mesh = Mesh(nodes, {"Tet4": [[0, 1, 2, 3], [1, 2, 3, 4]]})
    assert mesh.surface_triangles().shape == (6, 3)
    assert divergence_volume(mesh) == pytest.approx(1.0 / 6.0 + 1.0 / 3.0, rel=1e-12)
    exported = mesh.to_meshio()
    assert isinstance(exported, meshio.Mesh)
    assert exported.cells[0].type == "tetra"
    np.testing.assert_array_equal(exported.cells[0].data, mesh.elements["Tet4"])


def test_rotor_disc_default_mesh_size_and_axis_nodes():
    mesh = rotor_disc_mesh()
    assert 100 <= mesh.n_nodes <= 300
    assert mesh.n_nodes == 245
    for z in (0.0, 0.25, 0.5):
        node = mesh.node_at_point((0.0, 0.0, z))
        assert np.linalg.norm(mesh.nodes[node] - (0.0, 0.0, z)) < 1e-12
    for z in (0.0, 0.5):
        face = mesh.nodes_in_plane((0.0, 0.0, z), (0.0, 0.0, 1.0))
        assert face.size == 17
        np.testing.assert_allclose(mesh.nodes[face, :2].mean(axis=0), 0.0, atol=1e-15)
    assert mesh.nodes_on_cylinder((0, 0, 0), (0, 0, 1), 0.2).size == 3 * 8


@pytest.mark.parametrize("options", [
    {},
    {"n_circumferential": 16, "n_radial_shaft": 2, "n_radial_disc": 3, "axial_element_size": 0.025},
    {"n_circumferential": 24, "n_radial_shaft": 3, "core_fraction": 0.3, "disc_position": 0.025},
])
def test_rotor_disc_elements_have_positive_jacobians(options):
    mesh = rotor_disc_mesh(**options)
    jacobians = hex_corner_jacobians(mesh.nodes, mesh.elements["Hex8"])
    assert jacobians.min() > 0.0


def test_rotor_disc_refined_mesh_is_benchmark_sized():
    mesh = rotor_disc_mesh(n_circumferential=16, n_radial_shaft=2, n_radial_disc=3, axial_element_size=0.025)
    assert 1000 <= mesh.n_nodes <= 1500


def test_rotor_disc_volume_equals_polygonal_geometry():
    """Shaft n-gon over the full length plus disc n-gon ring over the disc thickness; the
    divergence theorem over the (planar-faced) boundary gives the same volume."""
    mesh = rotor_disc_mesh()
    expected = octagon_area(0.05) * (0.5 - 0.05) + octagon_area(0.2) * 0.05
    assert divergence_volume(mesh) == pytest.approx(expected, rel=1e-12)
    corner_sum = hex_corner_jacobians(mesh.nodes, mesh.elements["Hex8"]).sum()
    assert corner_sum == pytest.approx(expected, rel=1e-12)


def test_rotor_disc_rejects_invalid_parameters():
    with pytest.raises(ValueError, match="multiple of 8"):
        rotor_disc_mesh(n_circumferential=12)
    with pytest.raises(ValueError, match="within the shaft length"):
        rotor_disc_mesh(disc_position=0.49)


def test_mid_edge_nodes_of_a_quadratic_block():
    mesh = block_mesh(1.0, 1.0, 1.0, 1, 1, 1, element="Hex20")
    mids = mesh.mid_edge_nodes([[0, 1], [1, 0], [0, 3]])
    np.testing.assert_array_equal(mesh.nodes[mids[:2]], [[0.5, 0.0, 0.0]] * 2)
    assert mids[2] == -1
    assert np.all(block_mesh(1.0, 1.0, 1.0, 1, 1, 1).mid_edge_nodes([[0, 1]]) == -1)


def two_blocks_with_a_crack(gap):
    """Two unit Hex8 cubes side by side along x, each with its own 8 nodes: the 4 nodes of the shared face
    twice, the second cube's copies moved by ``gap`` [m] along x."""
    cube = block_mesh(1.0, 1.0, 1.0, 1, 1, 1)
    second = cube.nodes + [1.0 + gap, 0.0, 0.0]
    return np.vstack([cube.nodes, second]), {"Hex8": np.vstack([cube.elements["Hex8"], cube.elements["Hex8"] + 8])}


def test_coincident_nodes_are_refused_with_their_numbers_and_position():
    nodes, elements = two_blocks_with_a_crack(0.0)
    with pytest.raises(ValueError, match=r"mesh has 4 pairs of coincident nodes \(closer than 2\.45e-09 m, 1e-9 of "
                                         r"the bounding-box diagonal\), the first nodes 1 and 8 at \(1\.0, 0\.0, 0\.0\): "
                                         r"the elements on either side are not connected there \(a crack\); pass "
                                         r"duplicate_nodes='merge'"):
        Mesh(nodes, elements)


def test_merging_coincident_nodes_gives_the_conforming_mesh():
    """Within the tolerance (1e-9 of the bounding-box diagonal, 2.45e-9 m here) the copies are merged into the
    first node of each pair; the result is the two-element block mesh up to the order of its nodes."""
    nodes, elements = two_blocks_with_a_crack(1e-9)
    merged = Mesh(nodes, elements, duplicate_nodes="merge")
    conforming = block_mesh(2.0, 1.0, 1.0, 2, 1, 1)
    assert merged.n_nodes == conforming.n_nodes == 12
    assert len(np.unique(merged.elements["Hex8"])) == 12
    corners = np.sort(np.round(merged.nodes[merged.elements["Hex8"]], 6).reshape(2, -1), axis=1)
    np.testing.assert_array_equal(corners, np.sort(conforming.nodes[conforming.elements["Hex8"]].reshape(2, -1), axis=1))
    np.testing.assert_array_equal(merged.nodes[merged.elements["Hex8"][0]], nodes[elements["Hex8"][0]])


def test_nodes_beyond_the_tolerance_or_kept_on_request_stay_apart():
    nodes, elements = two_blocks_with_a_crack(1e-8)
    assert Mesh(nodes, elements).n_nodes == 16
    crack = Mesh(*two_blocks_with_a_crack(0.0), duplicate_nodes="keep")
    assert crack.n_nodes == 16
    with pytest.raises(ValueError, match=r"duplicate_nodes must be one of \('refuse', 'merge', 'keep'\), got 'yes'"):
        Mesh(nodes, elements, duplicate_nodes="yes")


def test_a_mesh_with_every_element_on_its_own_nodes_is_refused_and_merged_back():
    """The 1000 Hex8 of a 10 x 10 x 10 block, each with its own 8 nodes: a node shared by k elements has
    k (k - 1) / 2 coincident pairs; merged, the block's 1331 nodes remain and every element keeps its corners."""
    block = block_mesh(1.0, 1.0, 1.0, 10, 10, 10)
    hexes = block.elements["Hex8"]
    exploded_nodes = block.nodes[hexes.ravel()]
    exploded = {"Hex8": np.arange(hexes.size).reshape(hexes.shape)}
    shared_by = np.bincount(hexes.ravel())
    pairs = int(np.sum(shared_by * (shared_by - 1) // 2))
    with pytest.raises(ValueError, match=rf"mesh has {pairs} pairs of coincident nodes"):
        Mesh(exploded_nodes, exploded)
    merged = Mesh(exploded_nodes, exploded, duplicate_nodes="merge")
    assert merged.n_nodes == block.n_nodes == 1331
    np.testing.assert_array_equal(merged.nodes[merged.elements["Hex8"]], block.nodes[hexes])


def test_coincident_nodes_of_one_element_are_left_to_the_element_check():
    """A flat Hex8 (top face on the bottom face) has coincident nodes within itself: a degenerate element, which
    the FE matrices refuse by its number (tests/fem/test_fem_matrices.py), not a crack between elements."""
    mesh = block_mesh(1.0, 1.0, 1.0, 1, 1, 1)
    nodes = mesh.nodes.copy()
    nodes[4:, 2] = 0.0
    assert Mesh(nodes, mesh.elements).n_nodes == 8
