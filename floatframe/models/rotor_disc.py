"""The rotor-disc model: a spinning flexible rotor with a disc on two spring-damper supports.

Two set-ups (as in the reference data's README):

- ``"tisserand"``: the FFRF body with the Tisserand frame (6 coordinate-vector constraints);
- ``"constrained"``: instead, 6 coordinate constraints on mesh nodes (left axis node x, y, z; right
  axis node x, y; x of the unbalance node) and a small rigid body (1e-3 kg) on the frame node.

With ``modes`` (``build_rotor_disc(modes=8)``) the rotor is an ObjectFFRFReducedOrder instead: 8 free-free
eigenmodes, or with ``craig_bampton=True`` the Hurty-Craig-Bampton basis of the two support faces (RBE2: the
6 static modes of the right face, the left face's being the rigid-body motion the frame describes, and 8
fixed-interface eigenmodes), made M-orthogonal to the rigid-body modes (``tisserand_basis``) since the
rotor's frame floats. It needs no reference conditions.

All: stiffness scaled by 1e-2 (larger deformation), an unbalance mass of 0.1 kg on one node, initial spin
50 * 2 pi rad/s about z, supports by Cartesian spring-dampers (k = 2e8 N/m, d = 2e6 N s/m, no
stiffness in z on the right) between ground points and the averaged end faces z = 0 and z = length.
The sensor records the global displacement of the mesh node on the axis at the disc. With
``symbolic_supports=True`` the supports' stiffness and damping are symbolic Parameters
(``SUPPORT_PARAMETERS``), so that one assembled model serves runs with other support values
(``support_parameter_values``; the parameter studies of ``floatframe.study`` build it once per worker).

The mesh and matrices are built by the package itself (``floatframe.fem``); any other mesh with
matrices, e.g. read from Abaqus files, can be passed in.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from floatframe import components as c
from floatframe.components.ffrf import add_ffrf_body
from floatframe.components.reference_conditions import add_tisserand_frame
from floatframe.components.ffrf_reduced import add_reduced_ffrf_body
from floatframe.fem import add_node_mass, linear_elastic_matrices, rotor_disc_mesh
from floatframe.models.flexible_link import interface_modes
from floatframe.parameters import Parameter
from floatframe.assembly import System

SETUPS = ("tisserand", "constrained")
STEEL = dict(youngs_modulus=2.1e11, poissons_ratio=0.3, density=7850.0)
STIFFNESS_SCALE = 1e-2   # on the steel stiffness: larger deformation
#: the material whose stresses the scaled stiffness gives (stress recovery of the built-in mesh)
STRESS_MATERIAL = dict(youngs_modulus=STIFFNESS_SCALE * STEEL["youngs_modulus"], poissons_ratio=STEEL["poissons_ratio"])
SUPPORT_STIFFNESS, SUPPORT_DAMPING = 2e8, 2e6   # N/m, N s/m
#: names of the symbolic Parameters of ``build_rotor_disc(symbolic_supports=True)``, each of size 3 (x, y, z)
SUPPORT_PARAMETERS = ("left_support_stiffness", "right_support_stiffness", "support_damping")


def support_parameter_values(stiffness: float, damping: float) -> dict:
    """Values of the ``SUPPORT_PARAMETERS`` for supports of ``stiffness`` [N/m] and ``damping`` [N s/m]:
    the right support has no stiffness in z, as in the numeric model."""
    return {"left_support_stiffness": [stiffness] * 3, "right_support_stiffness": [stiffness, stiffness, 0.0],
            "support_damping": [damping] * 3}


@dataclass
class RotorDisc:
    """A built rotor-disc model and the numbers needed to run and read it."""

    system: System
    body: c.FloatingFrameBody   # ObjectFFRF, or ObjectFFRFReducedOrder with ``modes``
    sensor: int            # SensorSuperElement: Displacement of the axis node at the disc
    mesh_nodes: np.ndarray  # (N, 3) reference positions
    unbalance_node: int
    setup: str
    cells: dict | None = None  # mesh cells for export, e.g. {"hexahedron": (E, 8)}
    h: float = 1e-4
    spectral_radius: float = 0.5
    modes: object = None       # the ModeBasis of a reduced rotor

    def default_steps(self) -> int:
        """Steps of the reference runs: 25 (Tisserand) or 10 (constrained) steps of 1e-4 s."""
        return 25 if self.setup == "tisserand" else 10


def default_mesh_and_matrices(refinement: int = 1):
    """The built-in Hex8 rotor mesh with consistent steel mass and stiffness (scipy.sparse)."""
    if refinement == 1:
        mesh = rotor_disc_mesh()
    else:
        mesh = rotor_disc_mesh(n_circumferential=8 * refinement, n_radial_shaft=refinement,
                               n_radial_disc=refinement, axial_element_size=0.05 / refinement)
    mass, stiffness = linear_elastic_matrices(mesh, **STEEL)
    return mesh, mass, stiffness


def build_rotor_disc(setup: str = "tisserand", nodes=None, mass_matrix=None, stiffness_matrix=None,
                     unbalance_node: int | None = None, refinement: int = 1, length: float = 0.5,
                     disc_position: float = 0.25, cells: dict | None = None, modes: int | None = None,
                     craig_bampton: bool | str = False, support_stiffness: float = SUPPORT_STIFFNESS,
                     support_damping: float = SUPPORT_DAMPING, symbolic_supports: bool = False) -> RotorDisc:
    """Build one of the two set-ups; without matrices, on the built-in mesh (``refinement`` 1, 2, ...).

    ``nodes`` (N, 3), ``mass_matrix``, ``stiffness_matrix`` (3N, 3N) unscaled; ``unbalance_node``
    defaults to the node of largest y on the plane x = 0; ``cells`` (for export) as in ``RotorDisc``.
    ``modes``: number of (free-free, or with ``craig_bampton`` fixed-interface) eigenmodes of a reduced
    rotor; ``setup`` is then ignored (the modes need no reference conditions). ``craig_bampton``: True or
    "RBE2" (rigid support faces), "RBE3" (averaged support-face motion). ``support_stiffness`` [N/m] and
    ``support_damping`` [N s/m] of the two supports; with ``symbolic_supports`` they are the values of the
    symbolic Parameters ``SUPPORT_PARAMETERS`` (set others with ``assembled.set_parameter`` and
    :func:`support_parameter_values`).
    """
    if setup not in SETUPS:
        raise ValueError(f"build_rotor_disc: unknown setup '{setup}'; choose one of {SETUPS}")
    if craig_bampton and modes is None:
        raise ValueError("build_rotor_disc: craig_bampton needs the number of modes (modes=...)")
    if nodes is None:
        mesh, mass_matrix, stiffness_matrix = default_mesh_and_matrices(refinement)
        nodes, cells = mesh.nodes, {"hexahedron": mesh.elements["Hex8"]}
    nodes = np.asarray(nodes, dtype=float)
    if unbalance_node is None:
        on_plane = np.flatnonzero(np.abs(nodes[:, 0]) < 1e-9)
        unbalance_node = int(on_plane[np.argmax(nodes[on_plane, 1])])
    mass_matrix = add_node_mass(mass_matrix, unbalance_node, 0.1)
    stiffness_matrix = STIFFNESS_SCALE * stiffness_matrix

    def node_at(point):
        distance = np.linalg.norm(nodes - np.asarray(point), axis=1)
        if distance.min() > 1e-6:
            raise ValueError(f"build_rotor_disc: the mesh has no node at {point}")
        return int(np.argmin(distance))

    def face(z):
        return np.flatnonzero(np.abs(nodes[:, 2] - z) < 1e-5)

    system = System()
    spin = (0.0, 0.0, 50 * 2 * np.pi)
    left, right, middle = node_at((0, 0, 0)), node_at((0, 0, length)), node_at((0, 0, disc_position))
    basis = None
    if modes is None:
        body = add_ffrf_body(system, nodes, mass_matrix, stiffness_matrix, angular_velocity=spin, name="rotor")
        if setup == "tisserand":
            add_tisserand_frame(system, body)
        else:
            constrain_mesh_nodes(system, body, [left, right, unbalance_node], length)
    else:
        basis = interface_modes(nodes, mass_matrix, stiffness_matrix, modes, [face(0.0), face(length)], craig_bampton)
        body = add_reduced_ffrf_body(system, nodes, mass_matrix, stiffness_matrix, basis, angular_velocity=spin,
                                     name="rotor")
        setup = basis.kind.split(" (")[0].replace(" ", "-")

    ground = system.add(c.ObjectGround())
    values = support_parameter_values(support_stiffness, support_damping)
    if symbolic_supports:
        values = {name: Parameter(name, value) for name, value in values.items()}
    for z, stiffness in ((0.0, values["left_support_stiffness"]), (length, values["right_support_stiffness"])):
        nodes_on_face = face(z)
        face_marker = system.add(c.MarkerSuperElementPosition(body, nodes_on_face,
                                                              np.full(nodes_on_face.size, 1.0 / nodes_on_face.size)))
        ground_marker = system.add(c.MarkerBodyPosition(ground, (0.0, 0.0, z)))
        system.add(c.CartesianSpringDamper([face_marker, ground_marker], stiffness, values["support_damping"]))
    sensor = system.add(c.SensorSuperElement(body, middle, "Displacement"))
    return RotorDisc(system, body, sensor, nodes, unbalance_node, setup, cells, modes=basis)


def constrain_mesh_nodes(system, body, nodes, length):
    """The "constrained" reference conditions: left axis node x, y, z, right axis node x, y and x of the
    unbalance node (``nodes`` = [left, right, unbalance]) held, and a small rigid body on the frame node."""
    left, right, unbalance = nodes
    mesh_nodes = body.node_numbers[1:]
    ground_left = system.add(c.MarkerNodeCoordinate(system.add(c.NodePointGround((0, 0, 0))), 0))
    ground_right = system.add(c.MarkerNodeCoordinate(system.add(c.NodePointGround((0, 0, length))), 0))
    fixed = [(ground_left, left, 0), (ground_right, right, 0), (ground_left, left, 1),
             (ground_right, right, 1), (ground_left, left, 2), (ground_right, unbalance, 0)]
    for ground, node, coordinate in fixed:
        marker = system.add(c.MarkerNodeCoordinate(mesh_nodes[node], coordinate))
        system.add(c.CoordinateConstraint([ground, marker]))
    system.add(c.ObjectRigidBody(body.node_numbers[0], 1e-3, [1e-3, 1e-3, 1e-3, 0, 0, 0]))


def comparison(setup: str = "tisserand", **options) -> dict:
    """The rotor disc (``setup``: "tisserand" or "constrained") as ``floatframe compare`` runs it: assembled, its
    sensor, 1 ms in 10 outputs (the fields of ``floatframe.compare.ComparisonModel``)."""
    rotor = build_rotor_disc(setup, **options)
    return dict(system=rotor.system.assemble(), sensor=rotor.sensor, t_end=1e-3, n_outputs=10,
                name=f"rotor_disc ({setup})")
