"""Export of results: for ParaView one VTU file per stored step and a PVD collection over time; for
floatframe's pictures (``floatframe animate``, ``floatframe plot``) one ``.npz`` file per run (:func:`save_result`,
:func:`load_result`)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import casadi as ca
import meshio
import numpy as np

from floatframe.components.ffrf import FloatingFrameBody
from floatframe.fem.mesh import _MESHIO_CELL_TYPE, Mesh
from floatframe.paths import check_output_file, check_output_folder

RESULT_FORMAT = "floatframe-result"
RESULT_VERSION = 2          # 2: no redundant arrays (see save_result); 1 is still read


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


def frame_and_deformation(assembled, body: FloatingFrameBody, result) -> dict:
    """The frame's "FramePosition" (k, 3) [m] and "FrameRotation" A (k, 3, 3), the body-fixed elastic
    "Deformation" u_f (k, N, 3) [m] of all mesh nodes and, for a reduced-order body, the "ModalCoordinates"
    zeta (k, m) at every stored step; global positions are FramePosition + A (x_ref + u_f)."""
    n, modal = body.n_mesh_nodes, hasattr(body, "modal")

    def build(ctx):
        frame = body.frame(ctx)
        parts = [frame["position"], ca.vec(frame["rotation"].T), ca.vec(body.local_displacements(ctx))]
        return ca.vertcat(*parts, *([body.modal(ctx, "q")] if modal else []))

    function = assembled.output_function(build, "frame_and_deformation")
    values = np.array([function(t, q, v, a, lam) for t, q, v, a, lam
                       in zip(result.t, result.q, result.v, result.a, result.lam)]).reshape(len(result.t), -1)
    motion = {"FramePosition": values[:, :3], "FrameRotation": values[:, 3:12].reshape(-1, 3, 3),
              "Deformation": values[:, 12:12 + 3 * n].reshape(-1, n, 3)}
    if modal:
        motion["ModalCoordinates"] = values[:, 12 + 3 * n:]
    return motion


def mesh_from_cells(nodes, cells: dict) -> Mesh:
    """The :class:`floatframe.fem.Mesh` of ``nodes`` (N, 3) [m] and meshio ``cells`` {type: (E, n)}; coincident
    nodes are kept (a body's mesh, checked when it was made, node for node)."""
    kinds = {cell: kind for kind, cell in _MESHIO_CELL_TYPE.items()}
    unknown = sorted(set(cells) - set(kinds))
    if unknown:
        raise ValueError(f"cells of type {unknown} have no stress recovery; supported: {sorted(kinds)}")
    return Mesh(nodes, {kinds[cell]: np.asarray(block, dtype=int) for cell, block in cells.items()},
                duplicate_nodes="keep")


def stress_history(body: FloatingFrameBody, mesh: Mesh, motion: dict, material: dict) -> np.ndarray:
    """Local nodal stresses (k, N, 6) [Pa], Voigt order, at every stored step (:mod:`floatframe.fem.stress`).

    ``motion`` from :func:`frame_and_deformation`; ``material`` {"youngs_modulus": [Pa], "poissons_ratio": [-]}
    as used for the body's stiffness. A reduced-order body combines its post-processing modes with its modal
    coordinates; a full body recovers the stress from its nodal deformation.
    """
    from floatframe.fem.stress import modal_field, nodal_stresses, post_processing_modes

    if "ModalCoordinates" in motion:
        modes = post_processing_modes(mesh, body.invariants.mode_basis, **material)
        return modal_field(modes, motion["ModalCoordinates"])
    return nodal_stresses(mesh, motion["Deformation"], **material)


def write_paraview(path, assembled, body: FloatingFrameBody, cells: dict, result,
                   material: dict | None = None) -> Path:
    """Write ``path``.pvd and one ``path``_NNNN.vtu per stored step; returns the .pvd path.

    ``cells``: {meshio cell type: mesh-node numbers (0-based, VTK order)}, e.g. {"hexahedron": (E, 8)}, or
    ``mesh.to_meshio().cells_dict`` for a :class:`floatframe.fem.Mesh` of any of its element types
    (hexahedron, hexahedron20, tetra, tetra10).
    Point data: displacement and velocity (global, [m], [m/s]); points at their current global positions.
    With ``material`` ({"youngs_modulus": [Pa], "poissons_ratio": [-]}) also "stress" (local, Voigt xx, yy, zz,
    yz, xz, xy [Pa]) and "von_mises" [Pa] (:func:`stress_history`).
    An OutputPathError (an OSError) naming the path and the cause, before any step is computed, if the files
    cannot be written there.
    """
    path = Path(path)
    check_output_folder(path.parent, "write_paraview")
    check_output_file(path.with_suffix(".pvd"), "write_paraview")
    path.parent.mkdir(parents=True, exist_ok=True)
    trajectories = mesh_node_trajectories(assembled, body, result)
    stress = None
    if material is not None:
        from floatframe.fem.stress import von_mises

        stress = stress_history(body, mesh_from_cells(body.reference_positions.reshape(-1, 3), cells),
                                frame_and_deformation(assembled, body, result), material)
    cell_blocks = [(kind, np.asarray(block, dtype=int)) for kind, block in cells.items()]
    entries = []
    for step, t in enumerate(result.t):
        file = path.parent / f"{path.stem}_{step:04d}.vtu"
        point_data = {"displacement": trajectories["Displacement"][step], "velocity": trajectories["Velocity"][step]}
        if stress is not None:
            point_data.update(stress=stress[step], von_mises=von_mises(stress[step]))
        meshio.write(file, meshio.Mesh(trajectories["Position"][step], cell_blocks, point_data=point_data))
        entries.append(f'    <DataSet timestep="{t!r}" part="0" file="{file.name}"/>')
    collection = path.with_suffix(".pvd")
    collection.write_text('<?xml version="1.0"?>\n<VTKFile type="Collection" version="0.1">\n  <Collection>\n'
                          + "\n".join(entries) + "\n  </Collection>\n</VTKFile>\n")
    return collection


def save_result(path, assembled, body: FloatingFrameBody, cells: dict, result, material: dict | None = None,
                model: str = "", precision: str = "double") -> Path:
    """Write one run of one flexible body as ``path`` (.npz) for ``floatframe animate`` and ``floatframe plot``.

    The file holds what the run cannot be recomputed from, compressed (``numpy.savez_compressed``); the
    rest :func:`load_result` recomputes (format version 2; version 1 files, which held every array, are read as
    before). Arrays (k stored steps, N mesh nodes): "t" (k,) [s]; "reference_positions" (N, 3) [m] global and
    "local_positions" x_ref (N, 3) [m] body-fixed, of the reference configuration; "cells_<meshio type>"
    (E, n); "frame_position" (k, 3) [m], "frame_rotation" (k, 3, 3); for a reduced body "modal_coordinates"
    zeta (k, m) and "mode_basis" Psi (3 N, m), for a full body "deformation" u_f (k, N, 3) [m] body-fixed;
    with ``material`` ({"youngs_modulus": [Pa], "poissons_ratio": [-]}) "stress_material" (E, nu), from which
    the loaded run recovers the stresses; "sensor_<i>" (k, size), "sensor_names" and "sensor_variables"
    (their output variable types, e.g. "Displacement"); "format", "version", "model".

    ``precision``: "double" keeps every digit (the loaded run equals the computed one to round-off);
    "single" stores a full body's deformation as float32 (relative 6e-8 of its largest value, ample for
    pictures), half the size again. A reduced body's arrays are small and always double.

    Returns the path written (".npz" appended if missing). An OutputPathError (an OSError) naming the path and
    the cause, before anything is computed, if it cannot be written.
    """
    if not cells:
        raise ValueError("save_result: the body's mesh cells are needed ({meshio cell type: (E, n)}), to draw it")
    if precision not in ("double", "single"):
        raise ValueError(f"save_result: precision must be 'double' or 'single', got {precision!r}")
    path = Path(path)
    path = check_output_file(path if path.suffix == ".npz" else path.with_name(path.name + ".npz"), "save_result")
    path.parent.mkdir(parents=True, exist_ok=True)
    reference, local = body.reference_mesh_positions(), body.reference_positions.reshape(-1, 3)
    motion = frame_and_deformation(assembled, body, result)
    arrays = {"format": RESULT_FORMAT, "version": RESULT_VERSION, "model": model, "t": np.asarray(result.t),
              "reference_positions": reference, "local_positions": local, "frame_position": motion["FramePosition"],
              "frame_rotation": motion["FrameRotation"],
              "sensor_names": np.array([str(name) for name in result.sensor_names], dtype=str),
              "sensor_variables": np.array([str(getattr(sensor, "output_variable_type", ""))
                                            for sensor in assembled.system.sensors], dtype=str)}
    arrays.update({f"cells_{kind}": np.asarray(block, dtype=int) for kind, block in cells.items()})
    arrays.update({f"sensor_{i}": np.asarray(values) for i, values in enumerate(result.sensors)})
    if "ModalCoordinates" in motion:
        arrays["modal_coordinates"] = motion["ModalCoordinates"]
        arrays["mode_basis"] = np.asarray(body.invariants.mode_basis, dtype=float)
    else:
        arrays["deformation"] = motion["Deformation"].astype(np.float32 if precision == "single" else float)
    if material is not None:
        arrays["stress_material"] = np.array([material["youngs_modulus"], material["poissons_ratio"]], dtype=float)
    np.savez_compressed(path, **arrays)
    return path


@dataclass
class SavedResult:
    """A run read by :func:`load_result`; the arrays as described in :func:`save_result`. ``deformation``
    (k, N, 3) [m] body-fixed and ``displacement`` (k, N, 3) [m] global are always there, ``stress`` (k, N, 6) [Pa]
    where the run was saved with a material, whatever the file's version."""

    path: Path
    t: np.ndarray
    reference_positions: np.ndarray
    local_positions: np.ndarray
    cells: dict
    frame_position: np.ndarray
    frame_rotation: np.ndarray
    deformation: np.ndarray
    displacement: np.ndarray
    sensors: list
    sensor_names: list
    model: str = ""
    stress: np.ndarray | None = None
    modal_coordinates: np.ndarray | None = None
    sensor_variables: list = field(default_factory=list)

    def positions(self, deformation_scale: float = 1.0, steps=None) -> np.ndarray:
        """Global node positions (k, N, 3) [m] with the elastic deformation u_f magnified by the factor, at all
        stored steps or at the step numbers ``steps``."""
        steps = slice(None) if steps is None else np.asarray(steps, dtype=int)
        local = self.local_positions[None] + deformation_scale * self.deformation[steps]
        return self.frame_position[steps][:, None, :] + np.einsum("kij,knj->kni", self.frame_rotation[steps], local)

    def sensor(self, number: int) -> np.ndarray:
        """Values (k, size) of sensor ``number``; a ValueError names the sensors there are."""
        if not 0 <= number < len(self.sensors):
            there = ", ".join(f"{i} '{name}'" if name else str(i) for i, name in enumerate(self.sensor_names))
            raise ValueError(f"{self.path}: no sensor {number}; the run has {len(self.sensors)} sensors: "
                             f"{there or 'none'}")
        return self.sensors[number]


def load_result(path) -> SavedResult:
    """Read a run written by :func:`save_result`; a ValueError says when the file is not one."""
    path = Path(path)
    if path.is_dir():
        raise IsADirectoryError(f"{path}: a folder, not a saved run (a .npz file from 'floatframe run MODEL --save "
                                f"RUN.npz')")
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such file (write one with 'floatframe run MODEL --save {path}')")
    try:
        data = np.load(path, allow_pickle=False)
    except (OSError, ValueError) as error:
        raise ValueError(f"{path}: not a floatframe result file (.npz from 'floatframe run --save'): {error}") from None
    with data:
        if "format" not in data.files or str(data["format"]) != RESULT_FORMAT:
            raise ValueError(f"{path}: not a floatframe result file (.npz from 'floatframe run --save')")
        if int(data["version"]) > RESULT_VERSION:
            raise ValueError(f"{path}: result file version {int(data['version'])} is newer than this floatframe "
                             f"reads ({RESULT_VERSION})")
        n_sensors = sum(name.startswith("sensor_") and name[7:].isdigit() for name in data.files)
        arrays = {name: data[name] for name in data.files}
    saved = SavedResult(path=path, t=arrays["t"], reference_positions=arrays["reference_positions"],
                        local_positions=arrays["local_positions"],
                        cells={name[6:]: arrays[name] for name in arrays if name.startswith("cells_")},
                        frame_position=arrays["frame_position"], frame_rotation=arrays["frame_rotation"],
                        deformation=arrays.get("deformation"), displacement=arrays.get("displacement"),
                        sensors=[arrays[f"sensor_{i}"] for i in range(n_sensors)],
                        sensor_names=[str(name) for name in arrays["sensor_names"]], model=str(arrays["model"]),
                        stress=arrays.get("stress"), modal_coordinates=arrays.get("modal_coordinates"),
                        sensor_variables=[str(v) for v in arrays.get("sensor_variables", [])])
    return _recomputed(saved, arrays)


def _recomputed(saved: SavedResult, arrays: dict) -> SavedResult:
    """The arrays a version 2 file leaves out, from those it holds: a reduced body's deformation Psi zeta, the
    global displacement, the stresses of "stress_material" (as :func:`stress_history` at saving)."""
    if saved.deformation is None:
        modal, basis = arrays["modal_coordinates"], arrays["mode_basis"]
        saved.deformation = (modal @ basis.T).reshape(len(saved.t), -1, 3)
    saved.deformation = np.asarray(saved.deformation, dtype=float)
    if saved.displacement is None:
        saved.displacement = saved.positions() - saved.reference_positions[None]
    if saved.stress is None and "stress_material" in arrays:
        from floatframe.fem.stress import modal_field, nodal_stresses, post_processing_modes

        youngs_modulus, poissons_ratio = (float(value) for value in arrays["stress_material"])
        mesh = mesh_from_cells(saved.local_positions, saved.cells)
        if "mode_basis" in arrays:
            modes = post_processing_modes(mesh, arrays["mode_basis"], youngs_modulus, poissons_ratio)
            saved.stress = modal_field(modes, saved.modal_coordinates)
        else:
            saved.stress = nodal_stresses(mesh, saved.deformation, youngs_modulus, poissons_ratio)
    return saved
