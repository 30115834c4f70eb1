"""Claims about mass-proportional loads (gravity): a rigid body and a free FFRF body fall as a point
mass, the flexible body neither deforms nor turns, and the reduced body's load is the full body's
projected on its modes."""
import numpy as np
import pytest

import floatframe as ff
from model_helpers import random_state, small_beam
from floatframe.components.ffrf import add_ffrf_body
from floatframe.components.reference_conditions import add_tisserand_frame
from floatframe.components.ffrf_reduced import add_reduced_ffrf_body
from floatframe.fem import block_mesh, eigenmodes, linear_elastic_matrices

GRAVITY = np.array([0.3, -9.81, 1.2])


def add_gravity(system, body):
    marker = system.add(ff.MarkerBodyMass(body))
    return system.add(ff.LoadMassProportional(marker, GRAVITY))


def test_a_rigid_body_falls_with_g():
    system = ff.System()
    node = system.add(ff.NodeRigidBodyEP([0, 0, 0, 1, 0, 0, 0]))
    body = system.add(ff.ObjectRigidBody(node, 2.5, [1, 2, 3, 0, 0, 0]))
    add_gravity(system, body)
    result = ff.GeneralizedAlpha(0.8).solve(system.assemble(), 0.5, 50)
    assert result.q[-1][:3] == pytest.approx(0.5 * GRAVITY * 0.5 ** 2, rel=1e-10)


def test_a_free_ffrf_body_falls_with_g_without_deforming_or_turning():
    """A uniform field puts no stress into a free body: q_f and the Euler parameters stay, the frame falls."""
    system = ff.System()
    body, _ = small_beam(system, euler_parameters=(np.cos(0.3), np.sin(0.3), 0.0, 0.0))
    add_tisserand_frame(system, body)
    add_gravity(system, body)
    result = ff.GeneralizedAlpha(0.8).solve(system.assemble(), 0.2, 40)
    rigid = body.rigid_node.coordinate_indices
    assert result.q[-1][rigid[:3]] == pytest.approx(0.5 * GRAVITY * 0.2 ** 2, rel=1e-9)
    assert np.abs(result.q[:, rigid[3:]]).max() <= 1e-12
    assert np.abs(result.q[:, body.coordinate_indices[7:]]).max() <= 1e-12


def test_the_reduced_body_gets_the_full_bodys_gravity_projected_on_its_modes():
    mesh = block_mesh(0.4, 0.1, 0.1, 4, 1, 1)
    mass, stiffness = linear_elastic_matrices(mesh, youngs_modulus=2.1e8, poissons_ratio=0.3, density=7850.0)
    basis = np.random.default_rng(2).standard_normal((mass.shape[0], 7)) * 1e-2    # any basis
    pose = dict(position=(0.1, -0.2, 0.3), euler_parameters=(np.cos(0.2), 0.0, np.sin(0.2), 0.0))
    systems = []
    for reduced in (False, True):
        system = ff.System()
        if reduced:
            body = add_reduced_ffrf_body(system, mesh.nodes, mass, stiffness, basis, **pose)
        else:
            body = add_ffrf_body(system, mesh.nodes, mass, stiffness, **pose)
            add_tisserand_frame(system, body)      # to assemble; its multipliers are zero below
        add_gravity(system, body)
        systems.append(system.assemble())
    full, reduced = systems
    t, q, v, a, lam = random_state(reduced, np.random.default_rng(3), scale=1e-2)
    zero = np.zeros_like(q)

    def lift(x):
        return np.concatenate([x[:7], basis @ x[7:]])

    r_full = full.residual(t, lift(q), lift(zero), lift(zero), np.zeros(full.n_multipliers))
    r_reduced = reduced.residual(t, q, zero, zero, np.zeros_like(lam))
    stiffness_full = np.concatenate([np.zeros(7), stiffness @ (basis @ q[7:])])
    stiffness_reduced = np.concatenate([np.zeros(7), basis.T @ (stiffness @ (basis @ q[7:]))])
    load_full = r_full - stiffness_full                       # -(generalized gravity force) of the full body
    load_reduced = r_reduced - stiffness_reduced
    projected = np.concatenate([load_full[:7], basis.T @ load_full[7:]])
    assert np.abs(load_reduced - projected).max() <= 1e-12 * np.abs(projected).max()
    assert np.abs(load_full[:3] + mass.sum() / 3 * GRAVITY).max() <= 1e-12 * 9.81 * mass.sum()


def test_a_mass_proportional_load_needs_a_body_mass_marker():
    system = ff.System()
    node = system.add(ff.NodeRigidBodyEP([0, 0, 0, 1, 0, 0, 0]))
    system.add(ff.ObjectRigidBody(node, 1.0, [1, 1, 1, 0, 0, 0]))
    marker = system.add(ff.MarkerNodePosition(node))
    system.add(ff.LoadMassProportional(marker, GRAVITY))
    with pytest.raises(ff.ModelError, match="must be a body mass marker"):
        system.assemble()
