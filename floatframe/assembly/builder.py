"""The system builder: items in, one implicit index-3 DAE out.

``System`` collects nodes, objects (bodies and connectors), markers, loads and sensors, numbered per
family in the order added. ``System.assemble()`` gives every node its coordinates, lets each component
declare its terms as CasADi expressions, removes (or refuses) redundant constraint rows
(``floatframe.assembly.redundancy``), runs the components' post-assembly checks, and returns an
:class:`~floatframe.assembly.assembled.AssembledSystem`: numeric functions of the residual, the constraints and
their exact sparse Jacobians. Solvers see only that, through the DAE contract.
"""
from __future__ import annotations

import time
import warnings

import casadi as ca
import numpy as np
import scipy.sparse as sp

from floatframe.assembly.assembled import AssembledSystem
from floatframe.assembly.forms import index2_form, reaction_forces
from floatframe.assembly.redundancy import (REDUNDANCY_TOLERANCE, RedundantConstraintsWarning,
                                            dependent_constraint_rows, redundant_constraints)
from floatframe.components.base import Component, Context, ModelError
from floatframe.components.connectors import Connector
from floatframe.components.nodes import NodeRigidBodyEP

FAMILIES = ("node", "object", "marker", "load", "sensor")


def run_post_assembly_checks(items, assembled) -> None:
    """The components' declared post-assembly hook (``Component.check(assembled)``), item by item in order:
    checks that need the assembled system (trying user functions, an FFRF body's reference conditions). A check
    that needs the values of Parameters not yet set hands itself to ``assembled.defer_check``."""
    for item in items:
        item.check(assembled)


class System:
    """A multibody model under construction."""

    def __init__(self):
        self._items = {family: [] for family in FAMILIES}
        self.assembled = None  # the AssembledSystem of the last assemble()
        self.user_function_handle = self  # first argument of user functions (the Exudyn layer sets its mbs)

    def items(self, family: str) -> list:
        return self._items[family]

    @property
    def nodes(self):
        return self._items["node"]

    @property
    def objects(self):
        return self._items["object"]

    @property
    def markers(self):
        return self._items["marker"]

    @property
    def loads(self):
        return self._items["load"]

    @property
    def sensors(self):
        return self._items["sensor"]

    def add(self, item: Component) -> int:
        """Add an item; returns its number within its family (node, object, marker, load, sensor)."""
        if not isinstance(item, Component) or item.family not in self._items:
            raise ModelError(f"System.add: expected a node, object, marker, load or sensor, got {item!r}")
        if item.index is not None:
            raise item.error("was already added to a system")
        family = self._items[item.family]
        item.index = len(family)
        item.owner = self
        family.append(item)
        for companion in item.companions():
            self.add(companion)
        return item.index

    def assemble(self, check_redundancy: bool = True, redundant: str = "remove",
                 tolerance: float = REDUNDANCY_TOLERANCE) -> "AssembledSystem":
        """Number the coordinates, check every reference, and build the symbolic DAE.

        With ``check_redundancy`` (the default) constraint equations that are linearly dependent at the initial
        state (a planar loop drawn with revolute joints in 3D, or a spherical and a revolute joint on the same
        pair of markers) are found by ``dependent_constraint_rows`` (pivoted QR of C_q, then Gram-Schmidt
        in the order of the rows, ``tolerance`` relative to each row's norm). ``redundant="remove"`` (the
        default) drops them from the DAE and warns with one line naming them (``RedundantConstraintsWarning``);
        ``redundant="refuse"`` raises a ModelError naming them instead.

        Removed rows: the multiplier vector lambda has only the kept rows; ``multiplier_indices`` of an owner
        whose rows were removed holds its kept rows only, ``removed_constraint_rows`` its removed (local) rows,
        and its reaction outputs read 0 on them: the forces it shares with the joint it repeats are carried by
        that joint's multipliers (reaction forces of redundant joints are not unique; floatframe reports this
        choice). The check is made at the initial state only: a dependence that appears later in the motion
        (a singular configuration) shows as a singular iteration matrix, named by the solver's error.
        """
        if redundant not in ("remove", "refuse"):
            raise ModelError(f"System.assemble: redundant must be 'remove' or 'refuse', got {redundant!r}")
        for item in [*self.nodes, *self.objects]:
            if hasattr(item, "multiplier_indices"):
                item.removed_constraint_rows = np.zeros(0, dtype=int)
        assembled = self._build({})
        if not check_redundancy:
            return assembled
        jacobian = assembled.initial_constraint_jacobian()
        owners = assembled.constraint_owners
        description = redundant_constraints(jacobian, owners, tolerance)
        if not description:
            return assembled
        if redundant == "refuse":
            raise ModelError(f"redundant constraints at the initial state: {description}; remove them, or free "
                             f"their axes (constrained_axes), or assemble(redundant='remove')")
        rows = dependent_constraint_rows(jacobian, tolerance)
        removed = {}
        for item in [*self.nodes, *[o for o in self.objects if isinstance(o, Connector)]]:
            indices = item.multiplier_indices
            local = np.flatnonzero(np.isin(indices, rows))
            if local.size:
                removed[item] = local
        assembled = self._build(removed)
        for item, local in removed.items():
            item.removed_constraint_rows = local
        warnings.warn(f"removed {len(rows)} redundant constraint equation{'s' if len(rows) > 1 else ''} at the "
                      f"initial state: {description}", RedundantConstraintsWarning, stacklevel=2)
        return assembled

    def _build(self, removed: dict) -> "AssembledSystem":
        """The assembly proper; ``removed``: owner -> its constraint rows (local) to leave out of the DAE."""
        started = time.perf_counter()
        offset = 0
        for node in self.nodes:
            node.coordinate_indices = np.arange(offset, offset + node.n_coordinates)
            offset += node.n_coordinates
        n_coordinates = offset
        bodies = [o for o in self.objects if not isinstance(o, Connector)]
        connectors = [o for o in self.objects if isinstance(o, Connector)]
        for item in [*bodies, *self.markers, *connectors, *self.loads, *self.sensors]:
            item.connect(self)
        offset = 0
        owners, norm_rows = [], []  # norm_rows: the Euler-parameter norm constraints
        for item in [*self.nodes, *connectors]:
            count = getattr(item, "n_constraints", 0)
            item.multiplier_indices = np.arange(offset, offset + count)
            owners += [item.label] * count
            norm_rows += [isinstance(item, NodeRigidBodyEP)] * count
            offset += count
        n_multipliers = offset
        kept = np.ones(n_multipliers, dtype=bool)             # the rows of the DAE, of all declared rows
        for item, local in removed.items():
            kept[item.multiplier_indices[local]] = False
        lam_symbol = ca.SX.sym("lam", int(kept.sum()))
        lam_declared = ca.SX.zeros(n_multipliers)            # lambda of all declared rows, 0 at the removed ones
        for position, row in enumerate(np.flatnonzero(kept)):
            lam_declared[int(row)] = lam_symbol[position]

        q_reference = np.zeros(n_coordinates)
        q_initial = np.zeros(n_coordinates)
        v_initial = np.zeros(n_coordinates)
        for node in self.nodes:
            if node.n_coordinates:
                q_reference[node.coordinate_indices] = node.reference_coordinates
                q_initial[node.coordinate_indices] = node.initial_coordinates
                v_initial[node.coordinate_indices] = node.initial_velocities

        ctx = Context(t=ca.SX.sym("t"), q=ca.SX.sym("q", n_coordinates), v=ca.SX.sym("v", n_coordinates),
                      a=ca.SX.sym("a", n_coordinates), lam=lam_declared if removed else lam_symbol,
                      q_reference=q_reference, system=self, q_initial=q_initial)
        ctx.project_rotation_rates([n.coordinate_indices[3:] for n in self.nodes if isinstance(n, NodeRigidBodyEP)])
        for item in [*self.nodes, *self.objects, *self.loads]:
            item.add_terms(ctx)

        residual = ca.SX.zeros(n_coordinates)
        for indices, terms in ctx.lhs:
            residual[indices] += terms
        linear = {name: sp.csc_matrix((n_coordinates, n_coordinates)) for name in ("q", "v", "a")}
        for rows, columns, matrix, variable in ctx.linear:
            block = sp.coo_matrix(matrix)
            linear[variable] = linear[variable] + sp.csc_matrix(
                (block.data, (rows[block.row], columns[block.col])), shape=(n_coordinates, n_coordinates))
        constraint_parts = []
        for item in [*self.nodes, *connectors]:
            if item.multiplier_indices.size:
                equations = ctx.constraints.get(item)
                if equations is None or equations.numel() != item.multiplier_indices.size:
                    raise item.error("declared constraints that it did not add")
                constraint_parts.append(equations)
        constraints = ca.vertcat(*constraint_parts) if constraint_parts else ca.SX(0, 1)
        if ca.depends_on(constraints, ca.vertcat(ctx.v, ctx.a, lam_symbol)):
            raise ModelError("position-level constraints may depend only on q and t")
        reactions = reaction_forces(ctx, constraints, norm_rows, [*self.nodes, *connectors])  # C_q^T lambda, see there
        residual += reactions
        index2 = index2_form(ctx, [*self.nodes, *connectors], constraints, norm_rows, reactions, lam_symbol)

        sensor_expressions = [ca.vec(s.expression(ctx)) for s in self.sensors]
        if removed:                                          # the DAE holds the kept rows only
            rows = np.flatnonzero(kept)
            constraints = constraints[rows.tolist()]
            if index2 is not None:
                index2 = (index2[0][rows.tolist()], index2[1])
            owners = [owners[row] for row in rows]
            new_position = np.cumsum(kept) - 1
            for item in [*self.nodes, *connectors]:
                item.multiplier_indices = new_position[item.multiplier_indices[kept[item.multiplier_indices]]]
            ctx.lam = lam_symbol
        assembled = AssembledSystem(ctx, residual, linear, constraints, sensor_expressions, q_reference, q_initial,
                                    v_initial, owners, self, time.perf_counter() - started, index2)
        self.assembled = assembled  # user functions may query the system during the checks
        run_post_assembly_checks([*self.objects, *self.loads], assembled)
        return assembled
