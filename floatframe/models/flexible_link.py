"""A flexible link for mechanisms: a straight bar of hexahedra (Hex20 or Hex8) as an FFRF body (reduced or
full), with a rigid-body marker on each end face for its joints.

The bar lies along its local x axis, from x = 0 to x = ``length``, with a square cross-section
``width`` x ``width`` centred on the axis. Its end faces are its interfaces: a ``MarkerSuperElementRigid`` on
the nodes of each face (equal weights) gives the position of the face centre and the orientation of the face,
which is what a joint at a bar's end holds.

- ``modes=N`` (default 4): an ObjectFFRFReducedOrder on the Hurty-Craig-Bampton basis of the two end faces
  (RBE2: each face moves rigidly; 12 static modes, of which the 6 rigid-body ones are described by the frame)
  with N fixed-interface eigenmodes, made M-orthogonal to the rigid-body modes (``tisserand_basis``): the
  link's frame floats, it is held only through its joints (docs/reduced_order.md).
  ``craig_bampton="clamped-root"`` takes instead the N modes of the link clamped at its root face (a
  cantilever's; the frame is then the root face's), False N free-free eigenmodes.
- ``modes=None``: the full ObjectFFRF with the Tisserand frame (3 x nodes coordinates).

Linear elasticity with consistent mass (``linear_elastic_matrices``); the default material is aluminium.

The element: the bar must bend as a beam. Linear Hex8 elements lock in bending (their edges stay straight, so
bending also shears them): with 2 x 2 Hex8 across and elements half as long as the bar is wide (the links
before issue 29), a cantilever's first frequency is 7 % above Euler-Bernoulli's and its sag under its own
weight 13 % short of it, whatever the length. Quadratic Hex20 bend: 2 x 2 across (a corner node on the axis)
and elements 2.5 widths long put the clamped first frequency within 1.1 % of Euler-Bernoulli's and the sag
within 2.1 % (0.5 m x 20 mm: 66.48 Hz against 65.80 Hz, 86.8 um against 88.7 um; tests/models/test_links.py),
with fewer nodes. The slider-crank takes Hex20; ``element="Hex8"`` (the default) keeps the former bar for the
models still built on it: the double pendulum (its energy test's step-halving ratio needs the Hex8 link) and the
flexible arm (its optimal control is tuned on it; ``build_flexible_arm(element="Hex20", n_elements=20)`` is
within 0.54 % and 1.08 % of beam theory).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from floatframe import components as c
from floatframe.components.base import checked_keywords
from floatframe.components.ffrf import add_ffrf_body
from floatframe.components.reference_conditions import add_tisserand_frame
from floatframe.fem import block_mesh, craig_bampton_modes, eigenmodes, linear_elastic_matrices, tisserand_basis

ALUMINIUM = dict(youngs_modulus=7.0e10, poissons_ratio=0.33, density=2700.0)


def interface_modes(nodes, mass_matrix, stiffness_matrix, n_modes, interface_faces, craig_bampton=True):
    """The mode basis of a reduced body: ``n_modes`` free-free eigenmodes (``craig_bampton`` False); the
    Craig-Bampton basis of ``interface_faces`` (lists of node numbers) with ``n_modes`` fixed-interface
    eigenmodes, made M-orthogonal to the rigid-body modes since the body's frame floats (True, "RBE2" or
    "RBE3"); or the ``n_modes`` modes of the link clamped at its first face, a cantilever's ("clamped-root":
    the modes vanish on that face, so the body's frame is the root face's)."""
    if not craig_bampton:
        return eigenmodes(mass_matrix, stiffness_matrix, n_modes, node_positions=nodes)
    if craig_bampton == "clamped-root":
        return craig_bampton_modes(mass_matrix, stiffness_matrix, nodes, interface_faces[:1], n_modes)
    variant = "RBE2" if craig_bampton is True else craig_bampton
    basis = craig_bampton_modes(mass_matrix, stiffness_matrix, nodes, interface_faces, n_modes, variant=variant)
    return tisserand_basis(basis, mass_matrix, stiffness_matrix, nodes)


@dataclass
class FlexibleLink:
    """A flexible link added to a system: its body, its two end-face markers and its data."""

    body: c.FloatingFrameBody     # ObjectFFRFReducedOrder, or ObjectFFRF with modes=None
    root_marker: int              # MarkerSuperElementRigid on the face x = 0
    tip_marker: int               # MarkerSuperElementRigid on the face x = length
    tip_node: int                 # the mesh node at the tip face centre (for sensors)
    nodes: np.ndarray             # (N, 3) reference positions in the link frame [m]
    mass: float                   # [kg]
    length: float
    width: float
    modes: object = None          # the ModeBasis of a reduced link
    mass_matrix: object = None    # (3N, 3N) scipy.sparse
    stiffness_matrix: object = None
    cells: dict | None = None     # mesh cells for export, {"hexahedron20": (E, 20)} (meshio types)
    stress_material: dict | None = None   # youngs_modulus [Pa] (with the stiffness scale), poissons_ratio

    @property
    def inertia_about_centre(self) -> float:
        """J_c = m (L^2 + w^2) / 12 [kg m^2] about the axis normal to the x-y plane through the centre."""
        return self.mass * (self.length ** 2 + self.width ** 2) / 12.0


@checked_keywords
def add_flexible_link(system, length=0.5, width=0.02, n_elements=50, modes: int | None = 4, craig_bampton=True,
                      material=None, stiffness_scale=1.0, position=(0.0, 0.0, 0.0),
                      euler_parameters=(1.0, 0.0, 0.0, 0.0), velocity=(0.0, 0.0, 0.0),
                      angular_velocity=(0.0, 0.0, 0.0), name="link", element="Hex8") -> FlexibleLink:
    """Add a flexible link; ``position`` and ``euler_parameters`` place its frame (the root face centre).

    ``n_elements`` along the bar, 2 x 2 across, so that a node lies on the axis; ``element`` "Hex20" (30 n_elements
    + 21 nodes; elements about 2.5 widths long bend as beam theory says, see the module text: the slider-crank's
    rod) or "Hex8" (9 (n_elements + 1) nodes; the default, kept for the models built on it, too stiff in bending
    unless the elements are much shorter than wide); ``material`` a dict of youngs_modulus [Pa], poissons_ratio,
    density [kg/m^3] (default aluminium); ``stiffness_scale`` multiplies the stiffness matrix (a stiffer or
    softer link of the same mass).
    """
    if int(n_elements) != n_elements or n_elements < 1:
        raise ValueError(f"add_flexible_link: n_elements must be a positive integer, got {n_elements!r}")
    if element not in ("Hex20", "Hex8"):
        raise ValueError(f"add_flexible_link: element must be 'Hex20' or 'Hex8', got {element!r}")
    mesh = block_mesh(length, width, width, int(n_elements), 2, 2, origin=(0.0, -0.5 * width, -0.5 * width),
                      element=element)
    mass_matrix, stiffness_matrix = linear_elastic_matrices(mesh, **(material or ALUMINIUM))
    stiffness_matrix = stiffness_scale * stiffness_matrix
    nodes = mesh.nodes
    faces = [np.flatnonzero(np.abs(nodes[:, 0]) < 1e-9 * length),
             np.flatnonzero(np.abs(nodes[:, 0] - length) < 1e-9 * length)]
    tip_node = int(np.argmin(np.linalg.norm(nodes - [length, 0.0, 0.0], axis=1)))
    pose = dict(position=position, euler_parameters=euler_parameters, velocity=velocity,
                angular_velocity=angular_velocity, name=name)
    basis = None
    if modes is None:
        body = add_ffrf_body(system, nodes, mass_matrix, stiffness_matrix, **pose)
        add_tisserand_frame(system, body)
    else:
        basis = interface_modes(nodes, mass_matrix, stiffness_matrix, modes, faces, craig_bampton)
        body = c.add_reduced_ffrf_body(system, nodes, mass_matrix, stiffness_matrix, basis, **pose)
    markers = [system.add(c.MarkerSuperElementRigid(body, face, np.full(face.size, 1.0 / face.size),
                                                    name=f"{name} {where}"))
               for face, where in zip(faces, ("root", "tip"))]
    mass = float(mass_matrix.sum() / 3.0)
    elastic = material or ALUMINIUM
    stress_material = dict(youngs_modulus=stiffness_scale * elastic["youngs_modulus"],
                           poissons_ratio=elastic["poissons_ratio"])
    return FlexibleLink(body, markers[0], markers[1], tip_node, nodes, mass, length, width, basis,
                        mass_matrix, stiffness_matrix, mesh.to_meshio().cells_dict, stress_material)
