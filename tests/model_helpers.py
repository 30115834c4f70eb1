"""Small models and random states shared by the tests."""
import numpy as np


def small_beam(system, angular_velocity=(0.0, 0.0, 0.0), velocity=(0.0, 0.0, 0.0), stiffness_scale=1e-3,
               euler_parameters=(1.0, 0.0, 0.0, 0.0), damping=False):
    """A 0.4 x 0.1 x 0.1 m steel Hex8 beam (20 nodes) as an FFRF body; returns (body, mesh)."""
    from floatframe.components.ffrf import add_ffrf_body
    from floatframe.fem import block_mesh, linear_elastic_matrices

    mesh = block_mesh(0.4, 0.1, 0.1, 4, 1, 1)
    mass, stiffness = linear_elastic_matrices(mesh, youngs_modulus=2.1e11, poissons_ratio=0.3, density=7850.0)
    stiffness = stiffness_scale * stiffness
    body = add_ffrf_body(system, mesh.nodes, mass, stiffness, 1e-4 * stiffness if damping else None,
                         position=(0.1, -0.2, 0.3), euler_parameters=euler_parameters, velocity=velocity,
                         angular_velocity=angular_velocity)
    return body, mesh


def random_state(assembled, rng, scale=1e-2):
    """A random state with unit-norm Euler parameters and tangent Euler-parameter rates."""
    from floatframe.components.nodes import NodeRigidBodyEP

    n, m = assembled.n_coordinates, assembled.n_multipliers
    q, v, a = scale * rng.standard_normal(n), rng.standard_normal(n), rng.standard_normal(n)
    for node in assembled.system.nodes:
        if isinstance(node, NodeRigidBodyEP):
            rows = node.coordinate_indices[3:]
            theta = node.reference_coordinates[3:] + q[rows] + 0.3 * rng.standard_normal(4)
            theta /= np.linalg.norm(theta)
            q[rows] = theta - node.reference_coordinates[3:]
            v[rows] -= theta * (theta @ v[rows])
    return 0.37, q, v, a, rng.standard_normal(m)
