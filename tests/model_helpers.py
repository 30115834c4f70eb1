"""Small models and random states shared by the tests."""
import numpy as np

import floatframe as ff
from floatframe import rotations


def small_beam(system, angular_velocity=(0.0, 0.0, 0.0), velocity=(0.0, 0.0, 0.0), stiffness_scale=1e-3,
               euler_parameters=(1.0, 0.0, 0.0, 0.0), damping=False, frame_at_center_of_mass=False):
    """A 0.4 x 0.1 x 0.1 m steel Hex8 beam (20 nodes) as an FFRF body; returns (body, mesh).

    The frame origin is the mesh's corner node (0, 0, 0), or with ``frame_at_center_of_mass`` its undeformed
    centre of mass (the returned mesh is then the shifted one)."""
    from floatframe.components.ffrf import add_ffrf_body
    from floatframe.fem import block_mesh, center_of_mass, linear_elastic_matrices

    mesh = block_mesh(0.4, 0.1, 0.1, 4, 1, 1)
    mass, stiffness = linear_elastic_matrices(mesh, youngs_modulus=2.1e11, poissons_ratio=0.3, density=7850.0)
    if frame_at_center_of_mass:
        mesh.nodes = mesh.nodes - center_of_mass(mesh.nodes, mass)
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


def newton_matrix_error(assembled, rng, n_states=3, step=1e-6, c_a=1.0, c_v=0.37, c_q=0.011):
    """Largest deviation of the exact Newton matrix [[R_a c_a + R_v c_v + R_q c_q, C_q^T], [C_q, 0]] from
    central finite differences at random states, relative to its largest entry."""
    n = assembled.n_coordinates
    worst = 0.0
    for _ in range(n_states):
        t, q, v, a, lam = random_state(assembled, rng)
        exact = assembled.newton_matrix(t, q, v, a, lam, c_a, c_v, c_q).toarray()

        def stacked(x):
            shift = x[:n]
            return np.concatenate([assembled.residual(t, q + c_q * shift, v + c_v * shift, a + c_a * shift,
                                                      lam + x[n:]),
                                   assembled.constraints(t, q + shift)])

        numeric = np.zeros_like(exact)
        for k in range(exact.shape[1]):
            e = np.zeros(exact.shape[1])
            e[k] = step
            numeric[:, k] = (stacked(e) - stacked(-e)) / (2 * step)
        worst = max(worst, np.abs(exact - numeric).max() / np.abs(exact).max())
    return worst


def rigid_body(system, position, mass=3.0, inertia=(0.4, 0.5, 0.6, 0.0, 0.0, 0.0), rotation=np.eye(3),
               angular_velocity=(0.0, 0.0, 0.0), velocity=(0.0, 0.0, 0.0), local_position=(0.0, 0.0, 0.0)):
    """A rigid body at ``position`` turned by ``rotation`` (global angular velocity [rad/s]); returns
    (body number, number of a MarkerBodyRigid at ``local_position``)."""
    theta = rotations.euler_parameters_from_rotation_matrix(rotation)
    theta_t = rotations.euler_parameters_t(np.asarray(angular_velocity, dtype=float), theta)
    node = system.add(ff.NodeRigidBodyEP([*position, *theta], initial_velocities=[*velocity, *theta_t]))
    body = system.add(ff.ObjectRigidBody(node, mass, list(inertia)))
    return body, system.add(ff.MarkerBodyRigid(body, local_position))


def initial_output(system, number, variable):
    """An output variable of object ``number`` at the initial state (t = 0)."""
    assembled = system.assemble()
    component = system.objects[number]
    function = assembled.output_function(lambda ctx: component.output(ctx, variable), variable)
    return function(0.0, assembled.q_initial, assembled.v_initial, 0 * assembled.q_initial,
                    np.zeros(assembled.n_multipliers))


def ground_marker(system, position=(0.0, 0.0, 0.0)):
    """A MarkerBodyRigid on a new ground at ``position``."""
    ground = system.add(ff.ObjectGround())
    return system.add(ff.MarkerBodyRigid(ground, list(position)))


def exact_function_errors(function, seed: int) -> tuple[float, float]:
    """An ExactFunction's given Jacobian at a random point against CasADi's AD of the same expressions and
    against central differences of the function: (max error / max |AD|, max error / max |given|)."""
    import casadi as ca

    stacked = ca.MX.sym("x", sum(function.input_sizes))
    parts = ca.vertsplit(stacked, np.cumsum([0] + function.input_sizes).tolist())
    point = np.random.default_rng(seed).standard_normal(stacked.numel())
    given = np.array(ca.Function("given", [stacked], [function.jacobian(stacked)])(point))
    by_ad = np.array(ca.Function("ad", [stacked], [ca.jacobian(function.with_ad(*parts), stacked)])(point))
    evaluate = ca.Function("e", [stacked], [function(*parts)])
    step = 1e-6
    numeric = np.column_stack([(np.array(evaluate(point + e)) - np.array(evaluate(point - e))).ravel() / (2 * step)
                               for e in step * np.eye(point.size)])
    return (float(np.abs(given - by_ad).max() / np.abs(by_ad).max()),
            float(np.abs(given - numeric).max() / np.abs(given).max()))


class ContractOnly:
    """An assembled system seen through the DAE contract only (floatframe.solvers.contract.CONTRACT): any other
    member is an AttributeError, so a solver run on it shows that the solver needs nothing else."""

    def __init__(self, system):
        object.__setattr__(self, "_system", system)

    def __getattr__(self, name):
        from floatframe.solvers import contract
        if name not in contract.CONTRACT:
            raise AttributeError(f"'{name}' is not part of the DAE contract")
        return getattr(object.__getattribute__(self, "_system"), name)

    def __setattr__(self, name, value):
        from floatframe.solvers import contract
        if name not in contract.CONTRACT:
            raise AttributeError(f"'{name}' is not part of the DAE contract")
        setattr(object.__getattribute__(self, "_system"), name, value)
