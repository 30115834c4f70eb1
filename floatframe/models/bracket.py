"""A bracket from geometry to result: a flat L-shaped aluminium bracket with two bolt holes, made with Netgen's
constructive solid geometry, meshed with Netgen (Tet10), reduced to a Craig-Bampton basis of its bolt holes and
swinging on a hinge under gravity with a weight bolted to its second hole (docs/bracket.md).

Geometry (body frame = global frame at the start, metres): the bracket lies in the x-y plane, from z = 0 to
z = ``thickness``. Arm 1 runs along +x from bolt hole A at the origin to the corner above bolt hole B at
(``arm_length``, -``drop``); arm 2 runs down from the corner to hole B. Both arms are ``width`` wide with square
ends, and both holes have radius ``hole_radius`` and go through the thickness along z. Netgen names the hole
surfaces "hole A" and "hole B".

Mechanism, gravity along -y:

- a revolute joint about the global z axis between the ground and hole A (a ``MarkerSuperElementRigid`` on the
  nodes of the hole's surface, equal weights): the bolt the bracket hangs on;
- a spherical joint between the nodes of hole B (a ``MarkerSuperElementPosition``, equal weights) and a point
  mass ``weight`` [kg]: a weight bolted to the bracket;
- released at rest with arm 1 horizontal, the bracket swings as a flexible pendulum.

The bracket is an ObjectFFRFReducedOrder on the Craig-Bampton basis of its two holes, the nodes of each hole
surface found by ``Mesh.nodes_on_cylinder``. Hole A is the first interface, excluded from the static modes:
with RBE2 interfaces (the default: rigid hole surfaces) every mode vanishes on it, with RBE3 (averaged) every
mode keeps its mean motion at zero, so that in both the body's frame is the frame of hole A, held by the hinge,
and no Tisserand projection is needed. Hole B adds 6 static modes; ``n_eigenmodes`` fixed-interface eigenmodes
follow. ``n_eigenmodes=None`` makes the bracket the full FE mesh instead (an ObjectFFRF with the Tisserand
frame). The rigid reference is the same bracket and weight as one rigid body on the same hinge
(:meth:`Bracket.rigid_swing`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy.integrate import solve_ivp

from floatframe import components as c
from floatframe import rotations
from floatframe.components.base import checked_keywords
from floatframe.components.ffrf import add_ffrf_body
from floatframe.components.reference_conditions import add_tisserand_frame
from floatframe.fem import Mesh, craig_bampton_modes, linear_elastic_matrices, mesh_from_ngsolve
from floatframe.models.flexible_link import ALUMINIUM
from floatframe.optional import require
from floatframe.assembly import System

GRAVITY = 9.81
HOLE_NAMES = ("hole A", "hole B")


@dataclass(frozen=True)
class BracketGeometry:
    """The bracket's dimensions [m] (see the module docstring).

    Parameters
    ----------
    arm_length : float, m
        Distance along x from hole A to hole B.
    drop : float, m
        Distance along -y from hole A to hole B.
    width : float, m
        Width of both arms.
    thickness : float, m
        Plate thickness (along z).
    hole_radius : float, m
        Radius of both bolt holes; below half the width.
    """

    arm_length: float = 0.12
    drop: float = 0.08
    width: float = 0.03
    thickness: float = 0.005
    hole_radius: float = 0.005

    def __post_init__(self):
        for name in ("arm_length", "drop", "width", "thickness", "hole_radius"):
            value = getattr(self, name)
            if not (np.isfinite(value) and value > 0):
                raise ValueError(f"BracketGeometry: {name} must be a positive length [m], got {value!r}")
        if self.hole_radius >= 0.5 * self.width:
            raise ValueError(f"BracketGeometry: hole_radius {self.hole_radius} m must be below half the width "
                             f"{0.5 * self.width} m, else the hole cuts the arm through")
        if min(self.arm_length, self.drop) <= self.width:
            raise ValueError(f"BracketGeometry: arm_length and drop must exceed the width {self.width} m, got "
                             f"{self.arm_length} m and {self.drop} m")

    @property
    def hole_centres(self) -> np.ndarray:
        """(2, 3) [m]: the points of the axes of holes A and B on the face z = 0."""
        return np.array([[0.0, 0.0, 0.0], [self.arm_length, -self.drop, 0.0]])


def bracket_geometry(geometry: BracketGeometry = BracketGeometry()):
    """The bracket as a ``netgen.csg.CSGeometry``: two bricks (the arms) minus two cylinders (the bolt holes,
    boundaries named "hole A" and "hole B")."""
    csg = require("netgen.csg", "meshing the bracket with Netgen", "ngsolve", package="ngsolve")
    g, half = geometry, 0.5 * geometry.width
    arm1 = csg.OrthoBrick(csg.Pnt(-half, -half, 0.0), csg.Pnt(g.arm_length + half, half, g.thickness))
    arm2 = csg.OrthoBrick(csg.Pnt(g.arm_length - half, -g.drop - half, 0.0),
                          csg.Pnt(g.arm_length + half, half, g.thickness))
    solid = arm1 + arm2
    for (x, y, _), name in zip(g.hole_centres, HOLE_NAMES):
        solid = solid - csg.Cylinder(csg.Pnt(x, y, -1.0), csg.Pnt(x, y, 1.0), g.hole_radius).bc(name)
    result = csg.CSGeometry()
    result.Add(solid)
    return result


@dataclass
class BracketMesh:
    """The meshed bracket: the floatframe mesh, the Netgen mesh and the nodes of each bolt hole's surface."""

    mesh: Mesh                  # Tet10 (order 2) or Tet4 (order 1), coordinates [m]
    netgen_mesh: object         # netgen.meshing.Mesh, with the named hole boundaries
    holes: tuple                # (nodes of hole A, nodes of hole B), 0-based node numbers, sorted


def mesh_bracket(mesh_size: float = 0.005, order: int = 2, geometry: BracketGeometry = BracketGeometry(),
                 tolerance: float = 1e-7) -> BracketMesh:
    """Mesh the bracket with Netgen and find the nodes on the surface of each bolt hole.

    Parameters
    ----------
    mesh_size : float, m
        Netgen's largest element size ``maxh``; Netgen refines further near the holes (curvature).
    order : int
        2: Tet10 (mid-edge nodes placed on the curved hole surfaces); 1: Tet4.
    geometry : BracketGeometry
        The dimensions.
    tolerance : float, m
        Distance from a hole's cylinder within which a node belongs to the hole (``Mesh.nodes_on_cylinder``).
    """
    if not (np.isfinite(mesh_size) and 0 < mesh_size):
        raise ValueError(f"mesh_bracket: mesh_size must be a positive length [m], got {mesh_size!r}")
    if mesh_size > geometry.width:
        raise ValueError(f"mesh_bracket: mesh_size {mesh_size} m is coarser than the arm width {geometry.width} m; "
                         f"use at most the width")
    if order not in (1, 2):
        raise ValueError(f"mesh_bracket: order must be 1 (Tet4) or 2 (Tet10), got {order!r}")
    netgen_mesh = bracket_geometry(geometry).GenerateMesh(maxh=float(mesh_size))
    if order == 2:
        netgen_mesh.SecondOrder()
    mesh = mesh_from_ngsolve(netgen_mesh)
    holes = tuple(mesh.nodes_on_cylinder(centre, (0.0, 0.0, 1.0), geometry.hole_radius, tolerance)
                  for centre in geometry.hole_centres)
    for nodes, name in zip(holes, HOLE_NAMES):
        if nodes.size < 3:
            raise ValueError(f"mesh_bracket: {nodes.size} nodes found on the cylinder of {name} within {tolerance} "
                             f"m; its interface needs at least 3 (give a larger tolerance)")
    return BracketMesh(mesh, netgen_mesh, holes)


def clamped_frequencies(mass_matrix, stiffness_matrix, clamped_nodes, count: int) -> np.ndarray:
    """The lowest eigenfrequencies of the full FE model with some nodes held (shift-invert Lanczos on the
    remaining coordinates): the reference for the reduced body's frequencies.

    Parameters
    ----------
    mass_matrix, stiffness_matrix : (3N, 3N) scipy.sparse
        M [kg] and K [N/m] of the free mesh.
    clamped_nodes : (k,) array_like of int
        The held nodes (0-based).
    count : int
        How many frequencies.

    Returns
    -------
    (count,) ndarray
        Frequencies [Hz], ascending.
    """
    import scipy.sparse.linalg as spla

    free = _free_coordinates(mass_matrix.shape[0], clamped_nodes)
    values = spla.eigsh(stiffness_matrix[free][:, free].tocsc(), int(count), mass_matrix[free][:, free].tocsc(),
                        sigma=0.0, which="LM", return_eigenvectors=False,
                        v0=np.random.default_rng(0).standard_normal(free.size))
    return np.sqrt(np.sort(values)) / (2.0 * np.pi)


def clamped_static_deflection(stiffness_matrix, clamped_nodes, load, rigid_nodes=None, node_positions=None):
    """The static deflection of the full FE model with some nodes held: K_ff u_f = f_f.

    With ``rigid_nodes`` those nodes move as one rigid body about their mean, u_k = u_0 + theta x (x_k - x_mean)
    (an RBE2 connection, as a bolt holds its hole): the model is then reduced by u = T y, y = (free coordinates,
    u_0, theta), and T^T K T y = T^T f is solved.

    Parameters
    ----------
    stiffness_matrix : (3N, 3N) scipy.sparse
        K [N/m] of the free mesh.
    clamped_nodes : (k,) array_like of int
        The held nodes (0-based).
    load : (N, 3) array_like
        Nodal forces [N].
    rigid_nodes : (r,) array_like of int, optional
        Nodes that move as one rigid body, disjoint from ``clamped_nodes``.
    node_positions : (N, 3) array_like, optional
        Node positions [m]; needed with ``rigid_nodes``.

    Returns
    -------
    (N, 3) ndarray
        Displacements u [m].
    """
    import scipy.sparse.linalg as spla

    load = np.asarray(load, dtype=float).reshape(-1)
    n = load.size
    if rigid_nodes is None:
        free = _free_coordinates(n, clamped_nodes)
        transform = sp.identity(n, format="csc")[:, free]
    else:
        rigid_nodes = np.asarray(rigid_nodes)
        if node_positions is None:
            raise ValueError("clamped_static_deflection: rigid_nodes need the node_positions (N, 3) [m]")
        if np.intersect1d(rigid_nodes, clamped_nodes).size:
            raise ValueError("clamped_static_deflection: rigid_nodes and clamped_nodes must be disjoint")
        positions = np.asarray(node_positions, dtype=float)[rigid_nodes]
        free = _free_coordinates(n, np.concatenate([np.asarray(clamped_nodes), rigid_nodes]))
        lever = positions - positions.mean(axis=0)
        rows = (3 * rigid_nodes[:, None] + np.arange(3)).reshape(-1)
        motion = np.zeros((rows.size, 6))
        motion[:, :3] = np.tile(np.eye(3), (rigid_nodes.size, 1))
        motion[:, 3:] = -np.concatenate([rotations.skew(arm) for arm in lever])     # theta x lever = -lever~ theta
        entries = (np.repeat(rows, 6), np.tile(np.arange(6), rows.size))
        transform = sp.hstack([sp.identity(n, format="csc")[:, free],
                               sp.csc_matrix((motion.reshape(-1), entries), shape=(n, 6))], format="csc")
    reduced = (transform.T @ stiffness_matrix @ transform).tocsc()
    return (transform @ spla.spsolve(reduced, transform.T @ load)).reshape(-1, 3)


def _free_coordinates(n_coordinates, clamped_nodes) -> np.ndarray:
    held = (3 * np.asarray(clamped_nodes)[:, None] + np.arange(3)).reshape(-1)
    return np.setdiff1d(np.arange(n_coordinates), held)


def _turned(angle: float, vector) -> np.ndarray:
    """``vector`` (3,) turned by ``angle`` [rad] about the z axis."""
    cos, sin = np.cos(angle), np.sin(angle)
    return np.array([cos * vector[0] - sin * vector[1], sin * vector[0] + cos * vector[1], vector[2]])


@dataclass
class Bracket:
    """A built bracket pendulum and the numbers to run and read it."""

    system: System
    body: c.FloatingFrameBody   # ObjectFFRFReducedOrder, or ObjectFFRF for the full mesh
    mesh: Mesh
    cells: dict                 # {meshio cell type: (E, n)} for export and pictures
    holes: tuple                # (nodes of hole A, nodes of hole B)
    modes: object               # the Craig-Bampton ModeBasis; None for the full mesh
    mass_matrix: object         # (3N, 3N) scipy.sparse
    stiffness_matrix: object
    pivot: np.ndarray           # (3,) [m] the hinge point: the mean of hole A's nodes (body frame and global)
    bolt: np.ndarray            # (3,) [m] body-fixed point of hole B's joint: the mean of its nodes
    angle: float                # the hinge angle at the start [rad], about z; 0: arm 1 horizontal
    weight: float               # the point mass at hole B [kg]
    weight_node: int            # its NodePoint
    gravity: tuple              # g [m/s^2], global
    joints: tuple               # (hinge RevoluteJoint, bolt SphericalJoint) numbers
    tip_sensor: int             # SensorNode: Position of the weight
    stress_material: dict       # youngs_modulus [Pa], poissons_ratio, for stress recovery
    h: float = 1e-3
    spectral_radius: float = 0.8
    store_every: int = 10       # the command stores every 10th step: 100 per second (a saved run of the 4436-node
                                # mesh is 40 MB, 400 MB with every step)

    @property
    def bracket_mass(self) -> float:
        """The bracket's mass [kg] (the weight not included): Phi_t^T M Phi_t = m I."""
        return float(self.mass_matrix.sum() / 3.0)

    def rigid_lever(self) -> tuple[float, float, np.ndarray]:
        """The rigid bracket with its weight as one body on the hinge: (total mass m [kg], moment of inertia J
        about the hinge axis [kg m^2], centre of mass minus pivot l in the body frame (3,) [m]), from the FE mass
        matrix and the weight at the bolt point."""
        nodes, mass = self.mesh.nodes, self.bracket_mass
        centre = (self.mass_matrix @ nodes.reshape(-1)).reshape(-1, 3).sum(axis=0) / mass   # Phi_t^T M x / m
        turn = np.column_stack([-(nodes[:, 1] - self.pivot[1]), nodes[:, 0] - self.pivot[0],
                                np.zeros(len(nodes))]).reshape(-1)      # e_z x (x - p): a unit turn about the hinge
        inertia = float(turn @ (self.mass_matrix @ turn)) + self.weight * np.sum((self.bolt - self.pivot)[:2] ** 2)
        total = mass + self.weight
        lever = (mass * (centre - self.pivot) + self.weight * (self.bolt - self.pivot)) / total
        return total, inertia, lever

    def hanging_angle(self) -> float:
        """The hinge angle [rad] at which the rigid bracket hangs at rest: its centre of mass straight below
        the pivot (along gravity)."""
        _, _, lever = self.rigid_lever()
        down = np.arctan2(self.gravity[1], self.gravity[0])
        return float(np.angle(np.exp(1j * (down - np.arctan2(lever[1], lever[0])))))

    def rigid_swing(self, t_grid) -> tuple[np.ndarray, np.ndarray]:
        """The rigid bracket with its weight, released at rest from the same angle on the same hinge:
        (angle (k,) [rad] about z, weight position (k, 3) [m]) on ``t_grid`` [s] (scipy DOP853, tolerance
        1e-12). One rigid body turning about the z axis through the pivot p: J phi'' = (R(phi) l x m g)_z,
        with m, J and the lever l from :meth:`rigid_lever`."""
        total, inertia, lever = self.rigid_lever()
        g = np.asarray(self.gravity, dtype=float)

        def rates(_, state):
            angle, rate = state
            arm = _turned(angle, lever)
            return [rate, total * (arm[0] * g[1] - arm[1] * g[0]) / inertia]

        t_grid = np.asarray(t_grid, dtype=float)
        solution = solve_ivp(rates, (t_grid[0], t_grid[-1]), [self.angle, 0.0], method="DOP853", t_eval=t_grid,
                             rtol=1e-12, atol=1e-12)
        angle = solution.y[0]
        weight = self.pivot + np.array([_turned(phi, self.bolt - self.pivot) for phi in angle])
        return angle, weight

    def static_equilibrium(self) -> tuple[float, np.ndarray, np.ndarray]:
        """The bracket at rest under gravity from its initial state (the static solver; start it at
        :meth:`hanging_angle`): (hinge angle [rad], body-fixed deflection Psi zeta (N, 3) [m], the nodal forces
        (N, 3) [N] of the same loads on the full FE model, in the body frame: the bracket's weight M g_local and
        the weight's m g_local shared equally by hole B's nodes, as its spherical joint shares them)."""
        from floatframe.solvers import StaticSolver

        if self.modes is None or self.modes.kind != "craig-bampton RBE2":
            raise ValueError("Bracket.static_equilibrium: the deflection relative to hole A is Psi zeta only where "
                             "the modes vanish on hole A: build the bracket with n_eigenmodes and variant 'RBE2'")
        q = StaticSolver().solve(self.system.assemble()).q[-1]
        frame = self.body.rigid_node
        pose = frame.reference_coordinates + q[frame.coordinate_indices]
        g_local = rotations.rotation_matrix(pose[3:]).T @ np.asarray(self.gravity)
        deflection = (self.modes.vectors @ q[self.body.coordinate_indices[7:]]).reshape(-1, 3)
        load = (self.mass_matrix @ np.tile(g_local, self.mesh.n_nodes)).reshape(-1, 3)
        load[self.holes[1]] += self.weight * g_local / self.holes[1].size
        return float(2.0 * np.arctan2(pose[6], pose[3])), deflection, load

    def rigid_tip(self, result) -> np.ndarray:
        """The rigid bracket's weight position (k, 3) [m] at the result's times."""
        return self.rigid_swing(result.t)[1]


@checked_keywords
def build(mesh_size: float = 0.005, n_eigenmodes: int | None = 8, weight: float = 0.5, angle: float = 0.0,
          variant: str = "RBE2", order: int = 2, gravity: float = GRAVITY, material=None,
          geometry: BracketGeometry = BracketGeometry()) -> Bracket:
    """Build the bracket pendulum (module docstring).

    Parameters
    ----------
    mesh_size : float, m
        Netgen's largest element size (0.005 for the documentation's run, 0.01 for quick tests).
    n_eigenmodes : int or None
        Fixed-interface eigenmodes of the Craig-Bampton basis (besides hole B's 6 static modes), >= 0; None: the
        bracket is the full FE mesh instead (an ObjectFFRF with the Tisserand frame), the reference for the
        reduced one.
    weight : float, kg
        The point mass bolted to hole B, >= 0.
    angle : float, rad
        The hinge angle about z at the start (released at rest): 0 with arm 1 horizontal,
        ``Bracket.hanging_angle()`` where the rigid bracket hangs at rest.
    variant : str
        The Craig-Bampton interfaces: "RBE2" (each hole surface moves rigidly, as a bolt holds it) or "RBE3"
        (each hole's weighted mean motion, as the joints' markers measure it on the full mesh; the modes then keep
        hole A's mean motion at zero instead of vanishing there).
    order : int
        2: Tet10 elements; 1: Tet4 (much too stiff in bending, for comparison only).
    gravity : float, m/s^2
        Magnitude of gravity, along -y.
    material : dict, optional
        youngs_modulus [Pa], poissons_ratio [-], density [kg/m^3]; default aluminium.
    geometry : BracketGeometry
        The dimensions [m].
    """
    if n_eigenmodes is not None and (not isinstance(n_eigenmodes, (int, np.integer)) or isinstance(n_eigenmodes, bool)
                                     or n_eigenmodes < 0):
        raise ValueError(f"bracket.build: n_eigenmodes must be an integer >= 0 or None, got {n_eigenmodes!r}")
    if not (np.isfinite(weight) and weight >= 0):
        raise ValueError(f"bracket.build: weight must be a mass >= 0 [kg], got {weight!r}")
    if not np.isfinite(angle):
        raise ValueError(f"bracket.build: angle must be a finite angle [rad], got {angle!r}")
    if variant not in ("RBE2", "RBE3"):
        raise ValueError(f"bracket.build: variant must be 'RBE2' or 'RBE3', got {variant!r}")
    material = dict(material or ALUMINIUM)
    meshed = mesh_bracket(mesh_size, order, geometry)
    mesh, holes = meshed.mesh, meshed.holes
    mass_matrix, stiffness_matrix = linear_elastic_matrices(mesh, **material)
    pivot, bolt = (mesh.nodes[nodes].mean(axis=0) for nodes in holes)
    system = System()
    pose = dict(position=pivot - _turned(angle, pivot), name="bracket",     # the frame turned about the hinge axis
                euler_parameters=(np.cos(0.5 * angle), 0.0, 0.0, np.sin(0.5 * angle)))
    if n_eigenmodes is None:
        modes = None
        body = add_ffrf_body(system, mesh.nodes, mass_matrix, stiffness_matrix, **pose)
        add_tisserand_frame(system, body)
    else:
        modes = craig_bampton_modes(mass_matrix, stiffness_matrix, mesh.nodes, list(holes), int(n_eigenmodes),
                                    variant=variant)
        body = c.add_reduced_ffrf_body(system, mesh.nodes, mass_matrix, stiffness_matrix, modes, **pose)
    weights_a, weights_b = (np.full(nodes.size, 1.0 / nodes.size) for nodes in holes)   # equal weights
    ground = system.add(c.ObjectGround(reference_position=pivot))
    hole_a = system.add(c.MarkerSuperElementRigid(body, holes[0], weights_a, name="hole A"))
    hinge = system.add(c.RevoluteJoint([system.add(c.MarkerBodyRigid(ground)), hole_a], name="hinge"))
    weight_node = system.add(c.NodePoint(pivot + _turned(angle, bolt - pivot)))
    weight_body = system.add(c.ObjectMassPoint(weight_node, float(weight), name="weight"))
    hole_b = system.add(c.MarkerSuperElementPosition(body, holes[1], weights_b, name="hole B"))
    bolt_joint = system.add(c.SphericalJoint([hole_b, system.add(c.MarkerBodyPosition(weight_body))], name="bolt"))
    g = (0.0, -float(gravity), 0.0)
    system.add(c.Gravity(g))
    tip_sensor = system.add(c.SensorNode(weight_node, "Position"))
    return Bracket(system, body, mesh, mesh.to_meshio().cells_dict, holes, modes, mass_matrix, stiffness_matrix,
                   pivot, bolt, float(angle), float(weight), weight_node, g, (hinge, bolt_joint), tip_sensor,
                   dict(youngs_modulus=material["youngs_modulus"], poissons_ratio=material["poissons_ratio"]))
