"""Meshes from Netgen/NGSolve (optional: the ``ngsolve`` extra, ``pip install 'floatframe[ngsolve]'``).

:func:`mesh_from_ngsolve` reads the tetrahedra of an ``ngsolve.Mesh`` (or a ``netgen.meshing.Mesh``): first
order as Tet4, second order (after ``ngmesh.SecondOrder()``) as Tet10. Netgen's node numbers (1-based) become
0-based with the same order, so node i is Netgen point i + 1. Two conventions differ from Netgen's and are
converted: Netgen's tetrahedra have negative volume in the Abaqus/VTK order (nodes 1 and 2 are swapped here),
and its second-order tetrahedra number the edges 0-1, 0-2, 0-3, 1-2, 1-3, 2-3 (VTK: 0-1, 1-2, 2-0, 0-3, 1-3,
2-3). :func:`boundary_node_sets` gives the nodes of each named boundary.
"""
from __future__ import annotations

import numpy as np

from floatframe.optional import require

from .mesh import Mesh

# Abaqus/VTK local node k of a Tet10 is Netgen's local node NETGEN_TET10[k], after the 1 <-> 2 swap below
_NETGEN_TET10_ORDER = np.array([0, 1, 2, 3, 4, 7, 5, 6, 8, 9])
# swapping corners 1 and 2 (positive volume) maps the VTK edges 0-1, 1-2, 2-0, 0-3, 1-3, 2-3 to 0-2, 2-1, 1-0, ...
_MIRROR = {"Tet4": [0, 2, 1, 3], "Tet10": [0, 2, 1, 3, 6, 5, 4, 7, 9, 8]}


def _netgen_mesh(mesh):
    """The ``netgen.meshing.Mesh`` of an ``ngsolve.Mesh`` (or the netgen mesh itself)."""
    require("netgen.meshing", "reading a Netgen/NGSolve mesh", "ngsolve", package="ngsolve")
    return getattr(mesh, "ngmesh", mesh)


def mesh_from_ngsolve(mesh) -> Mesh:
    """The tetrahedral volume mesh of ``mesh`` (ngsolve.Mesh or netgen.meshing.Mesh, coordinates [m]) as a
    :class:`floatframe.fem.Mesh`: Tet4 for a first-order, Tet10 for a second-order mesh; positively oriented
    (Abaqus/VTK order). Raises ValueError for other volume elements (prisms, pyramids, hexahedra)."""
    ngmesh = _netgen_mesh(mesh)
    points = np.array(ngmesh.Coordinates(), dtype=float).reshape(-1, 3)
    elements = ngmesh.Elements3D().NumPy()["nodes"]
    counts = np.count_nonzero(elements, axis=1)
    if elements.size == 0 or not (np.all(counts == 4) or np.all(counts == 10)):
        kinds = sorted({int(n) for n in counts})
        raise ValueError(f"mesh_from_ngsolve: only tetrahedral meshes (all 4 or all 10 nodes) are supported; the "
                         f"mesh has volume elements of {kinds or 'no'} nodes")
    kind = "Tet4" if counts[0] == 4 else "Tet10"
    connectivity = elements[:, :counts[0]].astype(np.int64) - 1
    if kind == "Tet10":
        connectivity = connectivity[:, _NETGEN_TET10_ORDER]
    corners = points[connectivity[:, :4]]
    negative = np.linalg.det(corners[:, 1:] - corners[:, :1]) < 0
    connectivity[negative] = connectivity[negative][:, _MIRROR[kind]]
    used = int(connectivity.max()) + 1
    return Mesh(points[:used], {kind: connectivity})


def boundary_node_sets(mesh, names=None) -> dict:
    """{boundary name: sorted node numbers (0-based)} of the surface elements of each named boundary (all
    names, or those in ``names``); nodes of second-order surface elements included."""
    ngmesh = _netgen_mesh(mesh)
    surface = ngmesh.Elements2D().NumPy()
    boundary_names = [ngmesh.FaceDescriptor(int(index)).bcname for index in surface["index"]]
    wanted = list(dict.fromkeys(boundary_names)) if names is None else list(names)
    sets = {}
    for name in wanted:
        rows = surface["nodes"][[found == name for found in boundary_names]]
        sets[name] = np.unique(rows[rows > 0]) - 1
    return sets
