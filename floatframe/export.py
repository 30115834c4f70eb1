"""Export of results for ParaView: one VTU file per stored step and a PVD collection over time."""
from __future__ import annotations

from pathlib import Path

import casadi as ca
import meshio
import numpy as np

from floatframe.components.ffrf import FloatingFrameBody


def mesh_node_trajectories(assembled, body: FloatingFrameBody, result) -> dict:
    """Global positions, displacements and velocities of all mesh nodes at every stored step, (k, N, 3).

    For a reduced-order body the mesh is rebuilt through its mode basis (q_f = Psi zeta)."""
    names = ("Position", "Displacement", "Velocity")
    function = assembled.output_function(
        lambda ctx: ca.vertcat(*[ca.vec(matrix) for matrix in body.mesh_motion(ctx).values()]), "mesh_outputs")
    values = np.array([function(t, q, v, a, lam) for t, q, v, a, lam
                       in zip(result.t, result.q, result.v, result.a, result.lam)])
    values = values.reshape(len(result.t), len(names), body.n_mesh_nodes, 3)
    return {name: values[:, i] for i, name in enumerate(names)}


def write_paraview(path, assembled, body: FloatingFrameBody, cells: dict, result) -> Path:
    """Write ``path``.pvd and one ``path``_NNNN.vtu per stored step; returns the .pvd path.

    ``cells``: {meshio cell type: mesh-node numbers (0-based, VTK order)}, e.g. {"hexahedron": (E, 8)}, or
    ``mesh.to_meshio().cells_dict`` for a :class:`floatframe.fem.Mesh` of any of its element types
    (hexahedron, hexahedron20, tetra, tetra10).
    Point data: displacement and velocity (global, [m], [m/s]); points at their current global positions.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    trajectories = mesh_node_trajectories(assembled, body, result)
    cell_blocks = [(kind, np.asarray(block, dtype=int)) for kind, block in cells.items()]
    entries = []
    for step, t in enumerate(result.t):
        file = path.parent / f"{path.stem}_{step:04d}.vtu"
        meshio.write(file, meshio.Mesh(trajectories["Position"][step], cell_blocks,
                                       point_data={"displacement": trajectories["Displacement"][step],
                                                   "velocity": trajectories["Velocity"][step]}))
        entries.append(f'    <DataSet timestep="{t!r}" part="0" file="{file.name}"/>')
    collection = path.with_suffix(".pvd")
    collection.write_text('<?xml version="1.0"?>\n<VTKFile type="Collection" version="0.1">\n  <Collection>\n'
                          + "\n".join(entries) + "\n  </Collection>\n</VTKFile>\n")
    return collection
