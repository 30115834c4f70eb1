"""Geometric stiffening of the FFRF bodies (option ``geometric_stiffness`` of ObjectFFRF and
ObjectFFRFReducedOrder) and the warning where a body without it spins too fast for linear FFRF.

With the unit load cases k of :func:`floatframe.fem.geometric_stiffness.geometric_stiffness_cases` (K_G,k
(n_f, n_f), projected K_G,k -> Psi^T K_G,k Psi for a reduced body) the flexible rows of the residual get

    sum_k f_k(q, v, a, lambda) K_G,k q_f          (reduced body: sum_k f_k Psi^T K_G,k Psi zeta)

with the amplitudes f_k of the frame kinematics in body axes: omega_i omega_j (omega = G theta_t), alpha_i
(alpha = G theta_tt + G_t theta_t) and (A^T a_t)_i (the frame origin's acceleration), and for an interface case
the amplitude the user gives (a number, or a function of the assembly context returning a CasADi scalar, e.g.
of a joint's multiplier). The amplitudes are CasADi expressions of (q, v, a, lambda), so every Jacobian of the
residual (Newton matrix, IDAS, optimal control) is exact, including the dependence of f_k on the frame motion.
Without the option the bodies' expression graphs are those of before, untouched.
"""
from __future__ import annotations

import math
import warnings

import casadi as ca
import numpy as np
import scipy.sparse as sp

from floatframe import rotations
from floatframe.components.external import ExactFunction

SPIN_FRACTION = 0.3   # a frame spinning faster than this fraction of the lowest elastic frequency needs stiffening


def validated_cases(body, cases, amplitudes, n_flexible: int):
    """The cases a body uses: [(kind, index, amplitude)] and their K_G,k (n_f, n_f), after checking ``cases``
    (GeometricStiffnessCases of ``n_flexible`` coordinates) and ``amplitudes`` ({interface case name: number or
    callable(ctx)}). Interface cases without an amplitude are left out; errors name the body."""
    from floatframe.fem.geometric_stiffness import GeometricStiffnessCases

    if not isinstance(cases, GeometricStiffnessCases):
        raise body.error(f"geometric_stiffness must be GeometricStiffnessCases (floatframe.fem."
                         f"geometric_stiffness_cases), got {type(cases).__name__}")
    if not cases.cases:
        raise body.error("geometric_stiffness holds no load cases")
    if not cases.reference_conditions:
        raise body.error("geometric_stiffness: its load cases were solved without reference conditions")
    if cases.n_coordinates != n_flexible:
        raise body.error(f"geometric_stiffness has load cases of {cases.n_coordinates} mesh coordinates, the body "
                         f"{n_flexible}")
    amplitudes = dict(amplitudes or {})
    interface_names = [case.name for case in cases.cases if case.kind == "interface"]
    for name, value in amplitudes.items():
        if name not in interface_names:
            known = sorted(cases.interface_sets)
            raise body.error(f"geometric_stiffness_amplitudes: unknown interface load case {name!r}; the cases' "
                             f"interface sets are {known or 'none'} (cases '<set> force x' ... '<set> torque z')")
        if not callable(value) and not np.isfinite(float(value)):
            raise body.error(f"geometric_stiffness_amplitudes[{name!r}] must be a finite number or a callable, "
                             f"got {value!r}")
    used, matrices = [], []
    for case in cases.cases:
        if case.kind == "interface" and case.name not in amplitudes:
            continue
        used.append((case.kind, case.index, amplitudes.get(case.name)))
        matrices.append(case.geometric_stiffness)
    return used, matrices


def case_amplitudes(body, ctx, used) -> ca.SX:
    """f (m,): the current amplitude of each used case, from the body's frame kinematics in body axes."""
    frame = body.frame(ctx)
    acceleration = body.accelerations(ctx)
    omega = frame["omega"]                                                           # omega = G theta_t
    alpha = frame["g_local"] @ acceleration[3:7] + rotations.g_local(frame["theta_t"]) @ frame["theta_t"]
    a_local = frame["rotation"].T @ acceleration[:3]                                 # A^T a_t
    values = []
    for kind, index, amplitude in used:
        if kind == "omega":
            values.append(omega[index[0]] * omega[index[1]])
        elif kind == "alpha":
            values.append(alpha[index[0]])
        elif kind == "acceleration":
            values.append(a_local[index[0]])
        else:
            values.append(amplitude(ctx) if callable(amplitude) else ca.SX(float(amplitude)))
    return ca.vertcat(*values)


def stiffening_function(name: str, matrices) -> ExactFunction:
    """(f (m,), x (n,)) -> sum_k f_k K_k x as one MX Function with its exact Jacobian [K_1 x, ..., K_m x] (n, m)
    and sum_k f_k K_k (n, n), for sparse or dense K_k (n, n)."""
    n, m = matrices[0].shape[0], len(matrices)
    amplitudes, x = ca.MX.sym("f", m), ca.MX.sym("x", n)
    stacked = sp.vstack([sp.csr_matrix(matrix) for matrix in matrices]).tocsc()      # [K_1; ...; K_m] (m n, n)
    stacked_casadi = ca.DM(ca.Sparsity(stacked.shape[0], stacked.shape[1], stacked.indptr.tolist(),
                                       stacked.indices.tolist()), stacked.data)
    products = ca.reshape(stacked_casadi @ x, n, m)                                  # [K_k x]_k
    blocks = [stacked_casadi[k * n:(k + 1) * n, :] for k in range(m)]
    return ExactFunction(name, [amplitudes, x], products @ amplitudes,
                         [products, sum(amplitudes[k] * blocks[k] for k in range(m))])


def stiffening_terms(body, ctx, used, matrices, flexible, dense_limit: int = 0):
    """sum_k f_k K_k x for the body's flexible vector ``flexible`` (q_f or zeta): written into the SX graph as one
    product with [K_1; ...; K_m] where there are at most ``dense_limit`` flexible coordinates, else through
    :func:`stiffening_function` (made once per body)."""
    amplitudes = case_amplitudes(body, ctx, used)
    n = flexible.numel()
    if n <= dense_limit:
        stacked = ca.DM(np.vstack([np.asarray(matrix.toarray() if sp.issparse(matrix) else matrix)
                                   for matrix in matrices]))
        return ca.reshape(stacked @ flexible, n, len(matrices)) @ amplitudes
    if getattr(body, "_stiffening_function", None) is None:
        body._stiffening_function = stiffening_function(f"{body.type_name}{body.index}_geometric_stiffness", matrices)
    return ctx.external(body._stiffening_function, [amplitudes, flexible])


# --- the warning where linear FFRF is invalid ----------------------------------------------------------------
def lowest_elastic_frequency(body) -> float:
    """The lowest elastic angular frequency omega_1 [rad/s] of a body, computed once and kept: of K_red, M_red for
    an ObjectFFRFReducedOrder (its modes' own supports); for an ObjectFFRF whose frame the constraints fix, of its mesh
    with the coordinates that its constraints hold (``held_mesh_coordinates``, found at assembly: a root clamped to a
    driven hub gives the clamped omega_1), the rigid-body motions that these leave free removed; for a floating
    frame (reference conditions only, the Tisserand frame) or before assembly, of the free mesh, six rigid-body modes
    removed."""
    cached = getattr(body, "_lowest_elastic_frequency", None)
    if cached is not None:
        return cached
    import scipy.linalg

    if hasattr(body, "invariants"):
        values = scipy.linalg.eigvalsh(body.invariants.stiffness_reduced, body.invariants.mass_reduced)
    else:
        values = supported_mesh_eigenvalues(body, getattr(body, "held_mesh_coordinates", None))
    body._lowest_elastic_frequency = float(np.sqrt(max(values[0], 0.0)))
    return body._lowest_elastic_frequency


def held_mesh_coordinates(body, constraint_jacobian) -> np.ndarray | None:
    """The mesh coordinates (indices into q_f) of a full FFRF ``body`` that hold it to a fixed frame: where the
    constraints fix the body's frame node (rows of C_q (m, n) on its 7 coordinates alone, rank 7 with the
    Euler-parameter norm: a driven or clamped hub), the mesh coordinates that rows hold on their own (rows whose only
    nonzero is one of them: a clamped root face). Otherwise none (an empty array): mesh coordinates held relative to
    a floating frame are reference conditions, which choose the frame and leave the body's elastic frequencies
    those of the free mesh (the rotor disc's 3-2-1 set-up). None where C_q is not finite (a parameter without
    value)."""
    jacobian = sp.csr_matrix(constraint_jacobian)
    if not np.all(np.isfinite(jacobian.data)):
        return None
    jacobian.eliminate_zeros()
    frame = np.asarray(body.coordinate_indices[:7])
    on_frame = np.zeros(jacobian.shape[1], dtype=bool)
    on_frame[frame] = True
    frame_rows = [row for row in range(jacobian.shape[0]) if jacobian.indptr[row + 1] > jacobian.indptr[row]
                  and on_frame[jacobian.indices[jacobian.indptr[row]:jacobian.indptr[row + 1]]].all()]
    if not frame_rows or np.linalg.matrix_rank(jacobian[frame_rows][:, frame].toarray()) < frame.size:
        return np.zeros(0, dtype=int)
    flexible = np.asarray(body.coordinate_indices[7:])
    mesh_coordinate = np.full(jacobian.shape[1], -1)
    mesh_coordinate[flexible] = np.arange(flexible.size)
    single = np.flatnonzero(np.diff(jacobian.indptr) == 1)
    held = mesh_coordinate[jacobian.indices[jacobian.indptr[single]]]
    return np.unique(held[held >= 0])


def rigid_body_motions(positions) -> np.ndarray:
    """The six rigid-body motions (n_f, 6) of mesh nodes at ``positions`` (k, 3) [m]: translations along x, y, z and
    rotations about them through the origin."""
    positions = np.asarray(positions, dtype=float).reshape(-1, 3)
    motions = np.zeros((positions.size, 6))
    for k, axis in enumerate(np.eye(3)):
        motions[:, k] = np.tile(axis, positions.shape[0])
        motions[:, 3 + k] = np.cross(axis, positions).reshape(-1)
    return motions


def supported_mesh_eigenvalues(body, held) -> np.ndarray:
    """The lowest elastic eigenvalue omega^2 [1/s^2] (as a 1-array) of a full body's mesh (K, M) with the mesh
    coordinates ``held`` (indices into q_f, or None / empty: the free mesh) fixed; the rigid-body motions that
    ``held`` leaves free (6 minus the rank of their rows at ``held``) are removed as zero modes."""
    from floatframe.fem.modes import eigenmodes

    positions = body.reference_positions.reshape(-1, 3)
    if held is None or not len(held):
        return eigenmodes(body.mass_matrix_ff, body.stiffness_matrix_ff, 1, 6, node_positions=positions).eigenvalues
    held = np.asarray(held, dtype=int)
    motions = rigid_body_motions(positions)
    scale = np.abs(motions).max()
    free_motions = 6 - np.linalg.matrix_rank(motions[held] / scale, tol=1e-9)
    kept = np.setdiff1d(np.arange(body.mass_matrix_ff.shape[0]), held)
    mass = sp.csr_matrix(body.mass_matrix_ff)[kept][:, kept]
    stiffness = sp.csr_matrix(body.stiffness_matrix_ff)[kept][:, kept]
    return eigenmodes(mass, stiffness, 1, free_motions).eigenvalues


def check_spin_rate(body, time: float, angular_velocity, lowest_frequency=lowest_elastic_frequency,
                    fraction: float = SPIN_FRACTION) -> bool:
    """Warn once per body where a body without geometric stiffening spins, at ``time`` [s], with
    |``angular_velocity``| [rad/s] (3,) above ``fraction`` of its lowest elastic frequency [rad/s]
    (``lowest_frequency(body)``, a number or a callable). Returns whether it warned now."""
    if getattr(body, "geometric_stiffness", None) is not None or getattr(body, "_spin_warning_given", False):
        return False
    omega = np.asarray(angular_velocity, dtype=float)
    speed = math.sqrt(float(omega @ omega))   # (np.linalg.norm's value, without its overhead at every stored state)
    if speed == 0.0:
        return False
    frequency = float(lowest_frequency(body) if callable(lowest_frequency) else lowest_frequency)
    if speed <= fraction * frequency:
        return False
    body._spin_warning_given = True
    warnings.warn(f"{body.label}: at t = {time:.6g} s its frame spins at {speed:.4g} rad/s, above {fraction:g} of its "
                  f"lowest elastic frequency {frequency:.4g} rad/s; a linear FFRF body has no centrifugal (stress) "
                  f"stiffening there and softens or goes unstable. Pass geometric_stiffness="
                  f"geometric_stiffness_cases(...) to the body (docs/geometric_stiffening.md)", stacklevel=2)
    return True


def frame_angular_velocity(body, q, v, q_reference) -> np.ndarray:
    """omega (3,) [rad/s] of a body's frame in body axes at the system state (q without reference values, v): a
    frame node with Euler parameters or with Tait-Bryan angles (NodeRigidBodyRxyz)."""
    rows = body.rigid_node.coordinate_indices[3:]
    theta = np.asarray(q_reference)[rows] + np.asarray(q)[rows]
    g_local = rotations.g_local(theta) if rows.size == 4 else rotations.rot_xyz_g_local(theta)
    return np.asarray(g_local, dtype=float) @ np.asarray(v)[rows]


def frame_angular_velocities(body, q, v, q_reference) -> np.ndarray:
    """omega (k, 3) [rad/s] of a body's frame in body axes at k stacked states (q, v (k, n), q without reference
    values): :func:`frame_angular_velocity` of each, omega = G_local(theta) theta_t at once for Euler parameters and
    Tait-Bryan angles."""
    if q.shape[0] == 1:   # one state (the Python loop's): G of numbers takes a third of G of 1-arrays' time
        return frame_angular_velocity(body, q[0], v[0], q_reference)[None, :]
    rows = body.rigid_node.coordinate_indices[3:]
    g_local = rotations.g_local if rows.size == 4 else rotations.rot_xyz_g_local
    theta, theta_t = np.asarray(q_reference)[rows] + q[:, rows], v[:, rows]            # (k, r), r = 4 or 3
    return np.einsum("ijk,kj->ki", g_local(theta.T), theta_t)                          # G (3, r, k)


def check_spin_rates_stacked(body, times, q, v, q_reference, fraction: float = SPIN_FRACTION) -> bool:
    """:func:`check_spin_rate` at k stacked states (times (k,), q, v (k, n)) in their order: warns once, at the first
    state above the limit; the lowest elastic frequency is found only where the frame turns. Returns whether it
    warned (a stored state at a time took 7 us of Python, ten of a reduced body's 200-step solve)."""
    if getattr(body, "geometric_stiffness", None) is not None or getattr(body, "_spin_warning_given", False):
        return False
    omegas = frame_angular_velocities(body, q, v, q_reference)
    speeds = np.sqrt(np.einsum("ij,ij->i", omegas, omegas))
    if not speeds.max(initial=0.0) > 0.0:
        return False
    above = np.flatnonzero(speeds > fraction * lowest_elastic_frequency(body))
    return bool(above.size) and check_spin_rate(body, float(times[above[0]]), omegas[above[0]], fraction=fraction)


def check_spin_rates(assembled, time: float, q, v, fraction: float = SPIN_FRACTION) -> None:
    """:func:`check_spin_rate` for every FFRF body of an assembled system at the state (t, q, v); the call a
    solver makes after each accepted step."""
    for body in assembled.system.objects:
        if is_floating_frame_body(body):
            check_spin_rate(body, time, frame_angular_velocity(body, q, v, assembled.q_reference), fraction=fraction)


def is_floating_frame_body(item) -> bool:
    """Whether ``item`` is an FFRF body (full or reduced): it has a frame node and the stiffening option. (By its
    attributes: floatframe.components.ffrf imports this module, so this module does not import it.)"""
    return hasattr(item, "rigid_node") and hasattr(item, "geometric_stiffness")
