"""Volume meshes of 4- and 10-node tetrahedra and 8- and 20-node hexahedra, node queries,
generators and mesh files read through meshio.

Node numbers and element connectivities are 0-based. Element node order follows
Abaqus/VTK: ``'Hex8'`` nodes 0-1-2-3 go counterclockwise around one face seen from the
opposite face 4-5-6-7 (node 4 above node 0, ...); ``'Tet4'`` nodes 0-1-2 go counterclockwise
seen from node 3. Elements of this orientation have positive volume. The quadratic elements
have these corners first, then one node on each edge in the order of ``EDGES``: ``'Tet10'``
(Abaqus C3D10, VTK/meshio tetra10) on 0-1, 1-2, 2-0, 0-3, 1-3, 2-3; ``'Hex20'`` (Abaqus C3D20,
VTK/meshio hexahedron20) on 0-1, 1-2, 2-3, 3-0, 4-5, 5-6, 6-7, 7-4, 0-4, 1-5, 2-6, 3-7.
"""

import re
from dataclasses import InitVar, dataclass, field

import meshio
import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components
from scipy.spatial import cKDTree

NODES_PER_ELEMENT = {"Hex8": 8, "Tet4": 4, "Tet10": 10, "Hex20": 20}

#: corner element of each element type: its first nodes are the corners
CORNER_TYPE = {"Hex8": "Hex8", "Tet4": "Tet4", "Tet10": "Tet4", "Hex20": "Hex8"}

#: the (corner, corner) edge of each further node of a quadratic element, in node order
EDGES = {
    "Tet10": ((0, 1), (1, 2), (2, 0), (0, 3), (1, 3), (2, 3)),
    "Hex20": ((0, 1), (1, 2), (2, 3), (3, 0), (4, 5), (5, 6), (6, 7), (7, 4), (0, 4), (1, 5), (2, 6), (3, 7)),
}

# meshio's (= VTK's) node order of these cells is the Abaqus order above
_MESHIO_CELL_TYPE = {"Hex8": "hexahedron", "Tet4": "tetra", "Tet10": "tetra10", "Hex20": "hexahedron20"}

_OUTWARD_FACES = {
    "Hex8": ((0, 3, 2, 1), (4, 5, 6, 7), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7)),
    "Tet4": ((0, 2, 1), (0, 1, 3), (1, 2, 3), (0, 3, 2)),
}

# the six tetrahedra of a hexahedron around its diagonal 0-6: neighbouring hexahedra split alike conform; each
# numbered with positive volume, (x1 - x0) . ((x2 - x0) x (x3 - x0)) > 0, as Abaqus and VTK number them
_KUHN_TETS = np.array([[0, 1, 2, 6], [0, 5, 1, 6], [0, 2, 3, 6], [0, 3, 7, 6], [0, 4, 5, 6], [0, 7, 4, 6]])

_HEX_CORNERS = np.array(
    [[-1, -1, -1], [1, -1, -1], [1, 1, -1], [-1, 1, -1],
     [-1, -1, 1], [1, -1, 1], [1, 1, 1], [-1, 1, 1]], dtype=float)


#: coincident nodes: closer than this times the diagonal of the mesh's bounding box
DUPLICATE_NODE_TOLERANCE = 1e-9
DUPLICATE_NODE_CHOICES = ("refuse", "merge", "keep")


def coincident_node_pairs(nodes) -> tuple[np.ndarray, float]:
    """Pairs (i, j), i < j, of nodes closer than the tolerance, shape (P, 2) sorted, and the tolerance [m]:
    DUPLICATE_NODE_TOLERANCE (1e-9) times the diagonal of the bounding box of ``nodes`` (N, 3) [m]. One k-d
    tree query (0.014 s for 33,000 nodes, ``python benchmarks/input_checks.py``)."""
    nodes = np.asarray(nodes, dtype=float)
    if len(nodes) < 2:
        return np.zeros((0, 2), dtype=np.int64), 0.0
    tolerance = DUPLICATE_NODE_TOLERANCE * float(np.linalg.norm(nodes.max(axis=0) - nodes.min(axis=0)))
    pairs = cKDTree(nodes).query_pairs(tolerance, output_type="ndarray").astype(np.int64)
    pairs = np.sort(pairs, axis=1)
    return pairs[np.lexsort((pairs[:, 1], pairs[:, 0]))], tolerance


def in_one_element(pairs, elements) -> np.ndarray:
    """Whether some element holds both nodes of each pair (P, 2), (P,) bool: coincident nodes of one element
    make it degenerate, which the FE matrices refuse naming the element, not a crack between elements."""
    shared = np.zeros(len(pairs), dtype=bool)
    if not len(pairs):
        return shared
    size = 1 + max([int(pairs.max())] + [int(c.max()) for c in elements.values() if c.size])
    keys = pairs[:, 0] * size + pairs[:, 1]                              # i < j in each pair
    for connectivity in elements.values():
        candidates = connectivity[np.isin(connectivity, pairs).any(axis=1)]     # elements with a paired node
        first, second = np.triu_indices(connectivity.shape[1], 1)               # every pair of an element's nodes
        low = np.minimum(candidates[:, first], candidates[:, second])
        high = np.maximum(candidates[:, first], candidates[:, second])
        shared |= np.isin(keys, (low * size + high).ravel())
    return shared


def coincident_nodes_fault(nodes, pairs, tolerance, names=None) -> str:
    """The message for coincident node ``pairs`` (P, 2) of ``nodes`` (N, 3) [m]; ``names`` (N,) the numbers to
    print (default the 0-based indices)."""
    names = np.arange(len(nodes)) if names is None else np.asarray(names)
    i, j = pairs[0]
    return (f"{len(pairs)} pair{'s' if len(pairs) > 1 else ''} of coincident nodes (closer than {tolerance:.3g} m, "
            f"1e-9 of the bounding-box diagonal), the first nodes {names[i]} and {names[j]} at "
            f"{tuple(np.round(nodes[i], 12).tolist())}: the elements on either side are not connected there (a "
            f"crack); pass duplicate_nodes='merge' to merge them, or duplicate_nodes='keep' for an intended crack")


def merged_duplicate_nodes(nodes, elements, pairs):
    """(nodes, elements) with each group of coincident nodes (``pairs`` (P, 2)) replaced by its first node;
    the remaining nodes keep their order."""
    graph = sp.coo_matrix((np.ones(len(pairs)), (pairs[:, 0], pairs[:, 1])), shape=(len(nodes), len(nodes)))
    _, group = connected_components(graph, directed=False)
    first = np.full(group.max() + 1, len(nodes))
    np.minimum.at(first, group, np.arange(len(nodes)))
    representative = first[group]                                  # each node to the first node of its group
    kept = np.flatnonzero(representative == np.arange(len(nodes)))
    number = np.full(len(nodes), -1, dtype=np.int64)
    number[kept] = np.arange(kept.size)
    return nodes[kept], {kind: number[representative[connectivity]] for kind, connectivity in elements.items()}


@dataclass(eq=False)
class Mesh:
    """A volume mesh.

    Attributes
    ----------
    nodes : ndarray, shape (N, 3)
        Node coordinates [m].
    elements : dict of str to ndarray
        Connectivity per element type, ``'Hex8'``: (E, 8), ``'Tet4'``: (E, 4), ``'Tet10'``: (E, 10),
        ``'Hex20'``: (E, 20) int arrays of 0-based node numbers.

    Parameters
    ----------
    duplicate_nodes : {"refuse", "merge", "keep"}, default "refuse"
        Nodes closer than 1e-9 of the bounding-box diagonal (``DUPLICATE_NODE_TOLERANCE``) leave the elements
        on either side unconnected (a crack): "refuse" raises a ValueError naming them; "merge" replaces each
        group by its first node (the others are removed, the elements renumbered); "keep" accepts them (an
        intended crack or contact interface).
    """

    nodes: np.ndarray
    elements: dict = field(default_factory=dict)
    duplicate_nodes: InitVar[str] = "refuse"

    def __post_init__(self, duplicate_nodes="refuse"):
        self.nodes = np.asarray(self.nodes, dtype=float)
        if self.nodes.ndim != 2 or self.nodes.shape[1] != 3:
            raise ValueError(f"nodes must have shape (N, 3), got {self.nodes.shape}")
        if duplicate_nodes not in DUPLICATE_NODE_CHOICES:
            raise ValueError(f"duplicate_nodes must be one of {DUPLICATE_NODE_CHOICES}, got {duplicate_nodes!r}")
        checked = {}
        for kind, connectivity in self.elements.items():
            if kind not in NODES_PER_ELEMENT:
                raise ValueError(f"unknown element type {kind!r}, expected one of {list(NODES_PER_ELEMENT)}")
            connectivity = np.asarray(connectivity, dtype=np.int64).reshape(-1, NODES_PER_ELEMENT[kind])
            if connectivity.size and (connectivity.min() < 0 or connectivity.max() >= self.n_nodes):
                raise ValueError(f"{kind} connectivity refers to nodes outside 0..{self.n_nodes - 1}")
            checked[kind] = connectivity
        self.elements = checked
        if duplicate_nodes != "keep":
            pairs, tolerance = coincident_node_pairs(self.nodes)
            pairs = pairs[~in_one_element(pairs, self.elements)]
            if len(pairs) and duplicate_nodes == "refuse":
                raise ValueError(f"mesh has {coincident_nodes_fault(self.nodes, pairs, tolerance)}")
            if len(pairs):
                self.nodes, self.elements = merged_duplicate_nodes(self.nodes, self.elements, pairs)

    @property
    def n_nodes(self) -> int:
        """Number of nodes N."""
        return self.nodes.shape[0]

    @property
    def n_coordinates(self) -> int:
        """Number of nodal displacement coordinates, 3 N."""
        return 3 * self.n_nodes

    def node_at_point(self, point, tol: float = 1e-6) -> int:
        """Index of the node nearest to ``point`` [m], which must lie within ``tol`` [m]."""
        point = np.asarray(point, dtype=float)
        distances = np.linalg.norm(self.nodes - point, axis=1)
        index = int(np.argmin(distances))
        if distances[index] > tol:
            raise ValueError(
                f"no mesh node within {tol} m of point {tuple(point.tolist())}; "
                f"nearest node {index} is {distances[index]:.3g} m away")
        return index

    def nodes_in_plane(self, point, normal, tol: float = 1e-6) -> np.ndarray:
        """Indices of the nodes within ``tol`` [m] of the plane through ``point`` with ``normal``."""
        normal = np.asarray(normal, dtype=float)
        normal = normal / np.linalg.norm(normal)
        offsets = (self.nodes - np.asarray(point, dtype=float)) @ normal
        return np.flatnonzero(np.abs(offsets) <= tol)

    def nodes_on_cylinder(self, p_axis, axis, radius: float, tol: float = 1e-6) -> np.ndarray:
        """Indices of the nodes within ``tol`` [m] of the cylinder of ``radius`` [m] about
        the line through ``p_axis`` along ``axis``."""
        axis = np.asarray(axis, dtype=float)
        axis = axis / np.linalg.norm(axis)
        relative = self.nodes - np.asarray(p_axis, dtype=float)
        distances = np.linalg.norm(relative - np.outer(relative @ axis, axis), axis=1)
        return np.flatnonzero(np.abs(distances - radius) <= tol)

    def surface_triangles(self) -> np.ndarray:
        """Boundary faces as outward-oriented triangles, shape (T, 3).

        A face is on the boundary when no other element shares it; a boundary quad
        (a, b, c, d) of a hexahedron gives the triangles (a, b, c) and (a, c, d). Quadratic
        elements contribute the triangles of their corners (flat faces).
        """
        faces = {3: [], 4: []}
        for kind, connectivity in self.elements.items():
            corners = CORNER_TYPE[kind]
            oriented = _positively_oriented(self.nodes, corners, connectivity[:, :NODES_PER_ELEMENT[corners]])
            for local in _OUTWARD_FACES[corners]:
                faces[len(local)].append(oriented[:, list(local)])
        quads = _unshared(faces[4], 4)
        return np.vstack([_unshared(faces[3], 3), quads[:, [0, 1, 2]], quads[:, [0, 2, 3]]])

    def mid_edge_nodes(self, pairs) -> np.ndarray:
        """The node on the middle of the edge between each pair of corner nodes, shape (P,), from the
        Tet10 and Hex20 elements; -1 where no quadratic element has that edge."""
        pairs = np.sort(np.asarray(pairs, dtype=np.int64).reshape(-1, 2), axis=1)
        table = {}
        for kind, connectivity in self.elements.items():
            for node, edge in enumerate(EDGES.get(kind, ()), start=NODES_PER_ELEMENT[CORNER_TYPE[kind]]):
                corners = np.sort(connectivity[:, list(edge)], axis=1)
                table.update(zip(map(tuple, corners.tolist()), connectivity[:, node].tolist()))
        return np.array([table.get(pair, -1) for pair in map(tuple, pairs.tolist())], dtype=np.int64)

    def to_meshio(self) -> meshio.Mesh:
        """The mesh as a ``meshio.Mesh`` with hexahedron, tetra, tetra10 and/or hexahedron20 cells."""
        cells = [(_MESHIO_CELL_TYPE[kind], connectivity) for kind, connectivity in self.elements.items()]
        return meshio.Mesh(self.nodes, cells)


def quadratic_mesh(mesh: Mesh) -> Mesh:
    """The mesh with a node added at the middle of every element edge: Tet4 become Tet10, Hex8
    become Hex20 (straight edges); the existing nodes keep their numbers, the new ones follow."""
    quadratic = {"Tet4": "Tet10", "Hex8": "Hex20"}
    if set(mesh.elements) - set(quadratic):
        raise ValueError(f"the mesh already has quadratic elements {sorted(set(mesh.elements) - set(quadratic))}")
    edge_corners = [np.sort(connectivity[:, list(edge)], axis=1) for kind, connectivity in mesh.elements.items()
                    for edge in EDGES[quadratic[kind]]]
    if not edge_corners:
        return Mesh(mesh.nodes, {})
    unique, numbers = np.unique(np.vstack(edge_corners), axis=0, return_inverse=True)
    mid_nodes = np.split(mesh.n_nodes + numbers.ravel(), len(edge_corners))
    elements, start = {}, 0
    for kind, connectivity in mesh.elements.items():
        end = start + len(EDGES[quadratic[kind]])
        elements[quadratic[kind]] = np.column_stack([connectivity] + mid_nodes[start:end])
        start = end
    return Mesh(np.vstack([mesh.nodes, mesh.nodes[unique].mean(axis=1)]), elements)


def read_mesh(path, file_format: str | None = None, duplicate_nodes: str = "refuse") -> Mesh:
    """Volume mesh from any file meshio reads (gmsh ``.msh``, ``.vtu``, ``.vtk``, ``.inp``, ...).

    Parameters
    ----------
    path : str or Path
        The mesh file; coordinates are taken as [m].
    file_format : str, optional
        meshio's format name, default: from the file extension.
    duplicate_nodes : {"refuse", "merge", "keep"}, default "refuse"
        What to do with coincident nodes, see :class:`Mesh`.

    Returns
    -------
    Mesh
        See :func:`mesh_from_meshio`.

    Raises
    ------
    ValueError
        Naming the file: a gmsh file (``.msh`` or a gmsh format) that is not one (first line not
        ``$MeshFormat``) or that is cut off (a section without its ``$End`` line, named with its line), and any
        file meshio cannot read (with meshio's error).
    """
    path = str(path)
    gmsh = file_format.startswith("gmsh") if file_format else path.lower().endswith(".msh")
    if gmsh:
        _check_gmsh_sections(path)
    try:
        read = meshio.read(path, file_format=file_format)
    except (Exception, SystemExit) as error:      # meshio 5 exits (sys.exit) on a file it cannot read as VTU
        raise ValueError(f"{path}: not a readable {file_format or 'mesh'} file: meshio: {type(error).__name__}: "
                         f"{error}") from error
    return mesh_from_meshio(read, source=path, duplicate_nodes=duplicate_nodes)


def _check_gmsh_sections(path) -> None:
    """Refuse a gmsh file (ASCII or binary) whose first line is not ``$MeshFormat`` or whose last section has no
    ``$End...`` line (a file cut off), naming the file and the line."""
    with open(path, "rb") as file:
        content = file.read()
    if not content.lstrip().startswith(b"$MeshFormat"):
        raise ValueError(f"{path}:1: not a gmsh file: it does not start with $MeshFormat (got "
                         f"{content[:20]!r}{'...' if len(content) > 20 else ''})")
    open_section, opened_at = None, 0
    for line, text in enumerate(content.split(b"\n"), start=1):
        marker = re.fullmatch(rb"\$([A-Za-z0-9]+)", text.strip())   # a section line (binary data between them)
        if marker is None:
            continue
        name = marker.group(1).decode("ascii")
        if open_section is None:
            open_section, opened_at = name, line
        elif name == f"End{open_section}":
            open_section = None
    if open_section is not None:
        lines = content.count(b"\n") + (not content.endswith(b"\n"))
        raise ValueError(f"{path}:{opened_at}: section ${open_section} has no $End{open_section}: the file ends "
                         f"at line {lines} (cut off?)")


def mesh_from_meshio(mesh: meshio.Mesh, source: str = "meshio mesh", duplicate_nodes: str = "refuse") -> Mesh:
    """Mesh of the volume cells of a ``meshio.Mesh``.

    tetra, tetra10, hexahedron and hexahedron20 cells become ``'Tet4'``, ``'Tet10'``, ``'Hex8'``,
    ``'Hex20'``. meshio stores them in VTK's node order, which is Abaqus's; its readers convert
    other orders (gmsh's tetra10 and hexahedron20 differ) on reading. Cells of lower dimension
    (surface triangles, lines, points: gmsh's physical groups) are ignored, and nodes that no
    volume cell uses are dropped, the others keeping their order.

    Raises
    ------
    ValueError
        For volume cells of another type (wedge, pyramid, hexahedron27, ...) or no volume cells.
    """
    from_meshio = {cell: kind for kind, cell in _MESHIO_CELL_TYPE.items()}
    volume = [block for block in mesh.cells if block.dim == 3]
    unsupported = sorted({block.type for block in volume} - set(from_meshio))
    if unsupported:
        raise ValueError(f"{source}: unsupported volume cell types {unsupported}; supported: {sorted(from_meshio)}")
    if not volume:
        raise ValueError(f"{source}: no volume cells (found {sorted({block.type for block in mesh.cells})}); "
                         f"supported: {sorted(from_meshio)}")
    elements = {}
    for block in volume:
        kind = from_meshio[block.type]
        elements[kind] = np.vstack([elements.get(kind, np.zeros((0, block.data.shape[1]), dtype=np.int64)),
                                    block.data])
    used = np.unique(np.concatenate([c.ravel() for c in elements.values()]))
    try:
        return Mesh(mesh.points[used], {kind: np.searchsorted(used, c) for kind, c in elements.items()},
                    duplicate_nodes)
    except ValueError as error:
        raise ValueError(f"{source}: {error} (node numbers: 0-based, among the nodes of volume cells)") from None


def hex_corner_jacobians(nodes: np.ndarray, hexes: np.ndarray) -> np.ndarray:
    """Jacobian determinants of the trilinear map at the 8 corners of each hexahedron.

    Parameters
    ----------
    nodes : ndarray, shape (N, 3)
        Node coordinates [m].
    hexes : ndarray, shape (E, 8)
        Hex8 connectivity.

    Returns
    -------
    ndarray, shape (E, 8)
        det(dx/dxi) [m^3] with respect to the reference cube [-1, 1]^3 (of volume 8).
    """
    return np.stack([_hex_jacobian(nodes, hexes, corner) for corner in _HEX_CORNERS], axis=1)


def _hex_jacobian(nodes, hexes, xi):
    signs = _HEX_CORNERS
    factors = 1.0 + signs * xi
    derivatives = np.empty((8, 3))
    derivatives[:, 0] = signs[:, 0] * factors[:, 1] * factors[:, 2] / 8.0
    derivatives[:, 1] = signs[:, 1] * factors[:, 0] * factors[:, 2] / 8.0
    derivatives[:, 2] = signs[:, 2] * factors[:, 0] * factors[:, 1] / 8.0
    jacobians = np.einsum("eai,aj->eij", nodes[hexes], derivatives)
    return np.linalg.det(jacobians)


def _positively_oriented(nodes, kind, connectivity):
    """Connectivity with the elements of negative volume mirrored to positive orientation."""
    if kind == "Hex8":
        negative = _hex_jacobian(nodes, connectivity, np.zeros(3)) < 0
        mirrored = connectivity[:, [0, 3, 2, 1, 4, 7, 6, 5]]
    else:
        corners = nodes[connectivity]
        negative = np.linalg.det(corners[:, 1:] - corners[:, :1]) < 0
        mirrored = connectivity[:, [0, 2, 1, 3]]
    return np.where(negative[:, None], mirrored, connectivity)


def _unshared(faces, size):
    """The faces, shape (F, size), whose node set occurs exactly once."""
    if not faces:
        return np.zeros((0, size), dtype=np.int64)
    stacked = np.vstack(faces)
    _, inverse, counts = np.unique(np.sort(stacked, axis=1), axis=0, return_inverse=True, return_counts=True)
    return stacked[counts[inverse.ravel()] == 1]


def block_mesh(lx: float, ly: float, lz: float, nx: int, ny: int, nz: int, origin=(0.0, 0.0, 0.0),
               element: str = "Hex8") -> Mesh:
    """Structured mesh of the box ``origin + [0, lx] x [0, ly] x [0, lz]`` [m].

    ``nx, ny, nz`` hexahedra along x, y, z; node (i, j, k) has number
    ``i + (nx + 1) * (j + (ny + 1) * k)``. ``element``: ``'Hex8'``, ``'Hex20'``, or ``'Tet4'``,
    ``'Tet10'`` (each hexahedron split into six tetrahedra around its diagonal from node 0 to 6,
    conforming); the mid-edge nodes of Hex20 and Tet10 follow (:func:`quadratic_mesh`).
    """
    if element not in NODES_PER_ELEMENT:
        raise ValueError(f"unknown element type {element!r}, expected one of {list(NODES_PER_ELEMENT)}")
    x = np.linspace(0.0, lx, nx + 1)
    y = np.linspace(0.0, ly, ny + 1)
    z = np.linspace(0.0, lz, nz + 1)
    zz, yy, xx = np.meshgrid(z, y, x, indexing="ij")
    nodes = np.column_stack([xx.ravel(), yy.ravel(), zz.ravel()]) + np.asarray(origin, dtype=float)
    number = np.arange(nodes.shape[0]).reshape(nz + 1, ny + 1, nx + 1)
    bottom = np.stack([number[:-1, :-1, :-1], number[:-1, :-1, 1:],
                       number[:-1, 1:, 1:], number[:-1, 1:, :-1]], axis=-1).reshape(-1, 4)
    hexes = np.hstack([bottom, bottom + (nx + 1) * (ny + 1)])
    corners = CORNER_TYPE[element]
    mesh = Mesh(nodes, {corners: hexes if corners == "Hex8" else hexes[:, _KUHN_TETS].reshape(-1, 4)})
    return mesh if element == corners else quadratic_mesh(mesh)


def rotor_disc_mesh(shaft_radius: float = 0.05, shaft_length: float = 0.5, disc_radius: float = 0.2,
                    disc_thickness: float = 0.05, disc_position: float = 0.25, n_circumferential: int = 8,
                    n_radial_shaft: int = 1, n_radial_disc: int = 1, axial_element_size: float = 0.05,
                    core_fraction: float = 0.5) -> Mesh:
    """Structured Hex8 mesh of a shaft along z with a disc.

    The cross-section is an O-grid: a square core of half-width
    ``core_fraction * shaft_radius`` with ``n_circumferential / 4`` elements a side,
    surrounded by ``n_radial_shaft`` rings out to the shaft polygon (``n_circumferential``
    corners on the circle of ``shaft_radius``) and, in the disc layers, ``n_radial_disc``
    further rings out to ``disc_radius``. The axial planes include z = 0, shaft_length / 2,
    shaft_length and the disc faces and mid-plane; each interval between them is split
    into layers no longer than ``axial_element_size``. Lengths in [m].

    Shaft and disc are thus regular ``n_circumferential``-gons inscribed in their circles.
    There is a node on the axis (x = y = 0) in every axial plane. The defaults give 245 nodes
    and 160 elements; ``n_circumferential=16, n_radial_shaft=2, n_radial_disc=3,
    axial_element_size=0.025`` gives 1341 nodes.
    """
    if n_circumferential < 8 or n_circumferential % 8:
        raise ValueError(f"n_circumferential must be a positive multiple of 8, got {n_circumferential}")
    if min(n_radial_shaft, n_radial_disc) < 1:
        raise ValueError("n_radial_shaft and n_radial_disc must be at least 1")
    if not 0.0 < shaft_radius < disc_radius:
        raise ValueError("need 0 < shaft_radius < disc_radius")
    if not 0.0 < core_fraction < 1.0 / np.sqrt(2.0):
        raise ValueError("core_fraction must lie in (0, 1/sqrt(2))")
    disc_start, disc_end = disc_position - disc_thickness / 2, disc_position + disc_thickness / 2
    if not (disc_thickness > 0.0 and 0.0 <= disc_start and disc_end <= shaft_length):
        raise ValueError("the disc must have positive thickness and lie within the shaft length")

    section = _o_grid_section(shaft_radius, disc_radius, n_circumferential, n_radial_shaft, n_radial_disc,
                              core_fraction)
    planes = _axial_planes([0.0, shaft_length / 2, shaft_length, disc_start, disc_position, disc_end],
                           axial_element_size)
    in_disc = (planes[:-1] >= disc_start - 1e-12) & (planes[1:] <= disc_end + 1e-12)
    has_disc_nodes = np.zeros(planes.size, dtype=bool)
    has_disc_nodes[:-1] |= in_disc
    has_disc_nodes[1:] |= in_disc

    n_shaft, n_all = section.n_shaft_points, section.points.shape[0]
    numbers, coordinates, next_number = [], [], 0
    for z, with_disc in zip(planes, has_disc_nodes):
        count = n_all if with_disc else n_shaft
        numbers.append(np.arange(next_number, next_number + count))
        coordinates.append(np.column_stack([section.points[:count], np.full(count, z)]))
        next_number += count

    hexes = []
    for layer, with_disc in enumerate(in_disc):
        quads = np.vstack([section.shaft_quads, section.disc_quads]) if with_disc else section.shaft_quads
        hexes.append(np.hstack([numbers[layer][quads], numbers[layer + 1][quads]]))
    return Mesh(np.vstack(coordinates), {"Hex8": np.vstack(hexes)})


@dataclass
class _Section:
    points: np.ndarray
    n_shaft_points: int
    shaft_quads: np.ndarray
    disc_quads: np.ndarray


def _o_grid_section(shaft_radius, disc_radius, n_circumferential, n_radial_shaft, n_radial_disc, core_fraction):
    """Planar O-grid: points (P, 2) [m], shaft points first; counterclockwise quads (Q, 4)."""
    m = n_circumferential // 4
    half_width = core_fraction * shaft_radius
    ticks = np.linspace(-half_width, half_width, m + 1)
    core_x, core_y = np.meshgrid(ticks, ticks, indexing="ij")
    core_number = np.arange((m + 1) ** 2).reshape(m + 1, m + 1)
    core_quads = np.stack([core_number[:-1, :-1], core_number[1:, :-1],
                           core_number[1:, 1:], core_number[:-1, 1:]], axis=-1).reshape(-1, 4)

    loop = np.concatenate([core_number[:-1, 0], core_number[-1, :-1], core_number[:0:-1, -1], core_number[0, :0:-1]])
    square = np.column_stack([core_x.ravel()[loop], core_y.ravel()[loop]])
    angles = -0.75 * np.pi + 2.0 * np.pi * np.arange(n_circumferential) / n_circumferential
    directions = np.column_stack([np.cos(angles), np.sin(angles)])

    points = [np.column_stack([core_x.ravel(), core_y.ravel()])]
    rings = [loop]
    next_number = core_number.size
    for layer in range(1, n_radial_shaft + 1):
        fraction = layer / n_radial_shaft
        points.append((1.0 - fraction) * square + fraction * shaft_radius * directions)
        rings.append(np.arange(next_number, next_number + n_circumferential))
        next_number += n_circumferential
    n_shaft_points = next_number
    for radius in np.linspace(shaft_radius, disc_radius, n_radial_disc + 1)[1:]:
        points.append(radius * directions)
        rings.append(np.arange(next_number, next_number + n_circumferential))
        next_number += n_circumferential

    ring_quads = [_ring_quads(inner, outer) for inner, outer in zip(rings[:-1], rings[1:])]
    return _Section(points=np.vstack(points), n_shaft_points=n_shaft_points,
                    shaft_quads=np.vstack([core_quads] + ring_quads[:n_radial_shaft]),
                    disc_quads=np.vstack(ring_quads[n_radial_shaft:]))


def _ring_quads(inner, outer):
    return np.column_stack([inner, outer, np.roll(outer, -1), np.roll(inner, -1)])


def _axial_planes(breakpoints, element_size):
    """Sorted z [m] of the node planes: the unique breakpoints, intervals split into equal layers."""
    breakpoints = np.unique(np.round(np.asarray(breakpoints, dtype=float), 12))
    planes = [breakpoints[:1]]
    for start, end in zip(breakpoints[:-1], breakpoints[1:]):
        n_layers = max(1, int(np.ceil((end - start) / element_size - 1e-9)))
        planes.append(np.linspace(start, end, n_layers + 1)[1:])
    return np.concatenate(planes)
