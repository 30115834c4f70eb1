"""Constraint forms of the assembled DAE: the reactions C_q^T lambda (projected on the rotations) and the
velocity-level (index-2) form where connectors declare one."""
from __future__ import annotations

import casadi as ca
import numpy as np

from floatframe.components.base import ModelError


def index2_form(ctx, items, constraints, norm_rows, reactions, multipliers):
    """(velocity equations J v + c (m,), their reactions minus ``reactions`` (n,)), or None.

    Where connectors declare their own velocity-level equations (``Context.add_velocity_constraint``:
    a spherical joint on a rigid body, in Exudyn's omega form with the unnormalised A_E), the index-2
    schemes use them instead of dC/dt, and the reactions become J^T lambda with J = d/dv of them, or of the
    reaction rows a connector declares with them or as its reaction form (``Context.add_reaction_form``, which
    holds at every index; the Euler-parameter norm rows keep C_q^T lambda). On theta^T theta = 1 both forms are equal; they differ
    by O(theta^T theta - 1), the drift of the norm at index 2. Other rows keep dC/dt = C_q v + C_t.
    ``multipliers``: the symbol of lambda (``ctx.lam`` is its expansion to all declared rows where rows were
    removed as redundant).
    """
    if not ctx.velocity_constraints:
        return None
    parts, reaction_parts = [], []
    for item in items:
        if not item.multiplier_indices.size:
            continue
        equations = ctx.velocity_constraints.get(item)
        if equations is None:
            position = ctx.constraints[item]
            equations = ca.jtimes(position, ctx.q, ctx.v) + ca.jacobian(position, ctx.t)
        elif equations.numel() != item.multiplier_indices.size:
            raise item.error("declared velocity-level constraints of another size than its constraints")
        # its reactions: the rows it declares for index 2, else its reaction form (at every index), else J of the rows
        reaction = ctx.velocity_reactions.get(item, ctx.reaction_forms.get(item, equations))
        if reaction.numel() != equations.numel():
            raise item.error("declared index-2 reaction rows of another size than its constraints")
        parts.append(equations)
        reaction_parts.append(reaction)
    velocity = ca.vertcat(*parts)
    if ca.depends_on(ca.vertcat(velocity, *reaction_parts), ca.vertcat(ctx.a, multipliers)):
        raise ModelError("velocity-level constraints may depend only on q, v and t")
    mask = ca.DM(np.asarray(norm_rows, dtype=float))
    jacobian = ca.jacobian(ca.vertcat(*reaction_parts), ctx.v)                                   # J
    index2_reactions = ca.jtimes(constraints, ctx.q, mask * ctx.lam, True) + jacobian.T @ ((1 - mask) * ctx.lam)
    return velocity, index2_reactions - reactions


def reaction_forces(ctx, constraints, norm_rows, items=()) -> ca.SX:
    """C_q^T lambda, with the reactions of all constraints but the Euler-parameter norms projected (P).

    Like applied forces (``Context.add_force_at``), joint reactions do work on rotations only through
    omega = G theta_t: their part along theta is removed, and only the norm constraint
    theta^T theta - 1 = 0 acts along theta. Coordinates do not change (that part was carried by the norm
    constraint's multiplier before), and the multipliers agree with Exudyn's.
    """
    if constraints.numel() == 0:
        return ca.SX.zeros(ctx.q.numel())
    mask = ca.DM(np.asarray(norm_rows, dtype=float))
    norms = ca.jtimes(constraints, ctx.q, mask * ctx.lam, True)
    if any(item in ctx.reaction_forms for item in items):     # J^T lambda where a connector declares J v
        parts = []
        for item in items:
            if not item.multiplier_indices.size:
                continue
            form = ctx.reaction_forms.get(item)
            if form is None:
                form = ca.jtimes(ctx.constraints[item], ctx.q, ctx.v)
            elif form.numel() != item.multiplier_indices.size:
                raise item.error("declared a reaction form of another size than its constraints")
            parts.append(form)
        others = ca.jacobian(ca.vertcat(*parts), ctx.v).T @ ((1 - mask) * ctx.lam)
    else:
        others = ca.jtimes(constraints, ctx.q, (1 - mask) * ctx.lam, True)
    return norms + ctx.project_rotations(others)
