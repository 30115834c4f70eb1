"""Volume meshes read through meshio (gmsh .msh, VTU, VTK), node orders, and meshio export."""

import meshio
import numpy as np
import pytest

from floatframe.fem import Mesh, block_mesh, mass_matrix, mesh_from_meshio, read_mesh
from floatframe.fem.mesh import EDGES

# gmsh's own node order (gmsh manual, "Node ordering"): the edge of each further node
GMSH_EDGES = {
    11: ((0, 1), (1, 2), (2, 0), (3, 0), (3, 2), (3, 1)),   # 10-node tetrahedron
    17: ((0, 1), (0, 3), (0, 4), (1, 2), (1, 5), (2, 3), (2, 6), (3, 7), (4, 5), (4, 7), (5, 6), (6, 7)),
}
TET_CORNERS = np.array([[2.0, 0.0, 0.0], [3.0, 0.0, 0.0], [2.0, 1.0, 0.0], [2.0, 0.0, 1.0]])
HEX_CORNERS = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]],
                       dtype=float) * [1.0, 0.5, 0.25]


def gmsh22_file(path):
    """A gmsh 2.2 ASCII file written by hand in gmsh's node order: one 10-node tetrahedron, one 20-node
    hexahedron (distorted: node 6 moved), a surface triangle, and a node no element uses; node tags
    are 7, 10, 13, ... ."""
    corners = HEX_CORNERS.copy()
    corners[6] += [0.2, 0.1, 0.05]
    points, elements = [], []
    for gmsh_type, element_corners in ((11, TET_CORNERS), (17, corners)):
        first = len(points)
        points += list(element_corners) + [element_corners[list(edge)].mean(axis=0) for edge in GMSH_EDGES[gmsh_type]]
        elements.append((gmsh_type, range(first, len(points))))
    elements.append((2, range(3)))
    points.append(np.array([9.0, 9.0, 9.0]))
    tags = 7 + 3 * np.arange(len(points))
    lines = ["$MeshFormat", "2.2 0 8", "$EndMeshFormat", "$Nodes", str(len(points))]
    lines += [f"{tag} {x!r} {y!r} {z!r}" for tag, (x, y, z) in zip(tags, np.array(points).tolist())]
    lines += ["$EndNodes", "$Elements", str(len(elements))]
    lines += [f"{number} {gmsh_type} 2 1 1 " + " ".join(str(tags[i]) for i in nodes)
              for number, (gmsh_type, nodes) in enumerate(elements, start=1)]
    path.write_text("\n".join(lines + ["$EndElements", ""]))
    return path


def test_gmsh_file_in_gmsh_order_is_read_in_abaqus_order(tmp_path):
    """meshio converts gmsh's node order (it differs for the quadratic cells) to VTK's, which is
    Abaqus's: every further node then lies on the middle of its EDGES edge; the triangle is ignored
    and the unused node dropped."""
    mesh = read_mesh(gmsh22_file(tmp_path / "two.msh"))
    assert mesh.n_nodes == 10 + 20
    assert sorted(mesh.elements) == ["Hex20", "Tet10"]
    for kind, corners in (("Tet10", 4), ("Hex20", 8)):
        connectivity = mesh.elements[kind]
        assert connectivity.shape == (1, corners + len(EDGES[kind]))
        for node, edge in enumerate(EDGES[kind], start=corners):
            np.testing.assert_allclose(mesh.nodes[connectivity[0, node]],
                                       mesh.nodes[connectivity[0, list(edge)]].mean(axis=0), rtol=0, atol=1e-15)
    np.testing.assert_array_equal(mesh.nodes[mesh.elements["Tet10"][0, :4]], TET_CORNERS)


@pytest.mark.parametrize("file_format, suffix", [("gmsh22", ".msh"), ("gmsh", ".msh"), ("vtu", ".vtu"),
                                                 ("vtk", ".vtk")])
def test_meshio_round_trip_keeps_nodes_elements_and_matrices(tmp_path, file_format, suffix):
    """A mesh of all four element types (on disjoint nodes) written by meshio and read back."""
    parts = [block_mesh(1.0, 0.5, 0.5, 2, 1, 1, origin=(2.0 * i, 0.0, 0.0), element=kind)
             for i, kind in enumerate(("Hex8", "Tet4", "Hex20", "Tet10"))]
    offsets = np.cumsum([0] + [part.n_nodes for part in parts])
    mesh = Mesh(np.vstack([part.nodes for part in parts]),
                {kind: c + offset for part, offset in zip(parts, offsets) for kind, c in part.elements.items()})
    exported = mesh.to_meshio()
    assert [block.type for block in exported.cells] == ["hexahedron", "tetra", "hexahedron20", "tetra10"]
    if file_format == "gmsh":   # gmsh 4: each cell block and its nodes in a volume entity of their own
        entities = np.repeat(np.arange(1, len(parts) + 1), np.diff(offsets))
        exported.point_data["gmsh:dim_tags"] = np.column_stack([np.full(mesh.n_nodes, 3), entities])
        for name in ("gmsh:geometrical", "gmsh:physical"):
            exported.cell_data[name] = [np.full(len(block.data), i + 1) for i, block in enumerate(exported.cells)]
    path = tmp_path / f"mixed{suffix}"
    meshio.write(path, exported, file_format=file_format)
    read = read_mesh(path)
    np.testing.assert_array_equal(read.nodes, mesh.nodes)
    assert read.elements.keys() == mesh.elements.keys()
    for kind in mesh.elements:
        np.testing.assert_array_equal(read.elements[kind], mesh.elements[kind])
    assert abs(mass_matrix(read, 2.0) - mass_matrix(mesh, 2.0)).max() == 0.0


def test_mesh_from_meshio_rejects_other_volume_cells_and_surface_meshes(tmp_path):
    points = np.vstack([TET_CORNERS, TET_CORNERS + [0.0, 0.0, 2.0]])
    wedge = meshio.Mesh(points, [("wedge", [[0, 1, 2, 4, 5, 6]]), ("tetra", [[0, 1, 2, 3]])])
    with pytest.raises(ValueError, match=r"unsupported volume cell types \['wedge'\]; supported: "
                                         r"\['hexahedron', 'hexahedron20', 'tetra', 'tetra10'\]"):
        mesh_from_meshio(wedge)
    path = tmp_path / "surface.vtu"
    meshio.write(path, meshio.Mesh(points, [("triangle", [[0, 1, 2]])]))
    with pytest.raises(ValueError, match=r"surface\.vtu: no volume cells \(found \['triangle'\]\)"):
        read_mesh(path)


@pytest.mark.parametrize("keep, message", [
    (lambda lines: lines[:-3], r"two\.msh:38: section \$Elements has no \$EndElements: the file ends at line 40 "
                               r"\(cut off\?\)"),
    (lambda lines: lines[:10], r"two\.msh:4: section \$Nodes has no \$EndNodes: the file ends at line 10"),
])
def test_a_gmsh_file_cut_off_is_refused_naming_the_open_section(tmp_path, keep, message):
    path = gmsh22_file(tmp_path / "two.msh")
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(keep(lines)))
    with pytest.raises(ValueError, match=message):
        read_mesh(path)


def test_a_gmsh_file_cut_off_inside_a_line_is_refused(tmp_path):
    path = gmsh22_file(tmp_path / "two.msh")
    text = path.read_text()
    path.write_text(text[:text.index("$EndElements") - 7])
    with pytest.raises(ValueError, match=r"two\.msh:38: section \$Elements has no \$EndElements"):
        read_mesh(path)


def test_a_binary_gmsh_file_is_read_and_refused_when_cut_off(tmp_path):
    path = tmp_path / "block.msh"
    meshio.write(path, block_mesh(1.0, 1.0, 1.0, 2, 2, 2).to_meshio(), file_format="gmsh", binary=True)
    assert read_mesh(path).n_nodes == 27
    content = path.read_bytes()
    path.write_bytes(content[:content.index(b"$EndElements") - 10])
    with pytest.raises(ValueError, match=r"block\.msh:\d+: section \$Elements has no \$EndElements"):
        read_mesh(path)


def test_a_binary_blob_is_refused_as_a_mesh_file(tmp_path):
    blob = np.random.default_rng(1).bytes(3000)
    path = tmp_path / "blob.msh"
    path.write_bytes(blob)
    with pytest.raises(ValueError, match=r"blob\.msh:1: not a gmsh file: it does not start with \$MeshFormat"):
        read_mesh(path)
    path = tmp_path / "blob.vtu"
    path.write_bytes(blob)
    with pytest.raises(ValueError, match=r"blob\.vtu: not a readable mesh file: meshio: "):
        read_mesh(path)
