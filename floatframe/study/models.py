"""The study functions of the ready models: the rigid pendulum's period, the rotor disc's largest displacement
(against its disc radius, or its supports with the model built once per worker), the reduced rotor's sensor
with its exact gradient, and an oscillator with a stiffness fit; ``STUDY_MODELS`` names them for the command
line, as the table of ready models (``floatframe.models.registry``) says."""
from __future__ import annotations

import numpy as np

from floatframe.models.registry import READY_MODELS
from floatframe.study.functions import ModelStudy, SensorStudy


def pendulum_period(length=1.0, mass=2.0, radius_of_gyration=0.2, angle0=0.3, steps_per_period=200):
    """The rigid pendulum (``floatframe.models.pendulum``) released at ``angle0`` [rad]: its period [s] from
    the simulation (two upward zero crossings of the centre's x, interpolated) and the closed-form small-
    oscillation period."""
    from floatframe.models.pendulum import build_pendulum
    from floatframe.solvers.genalpha import GeneralizedAlpha

    if length <= 0 or mass <= 0:
        raise ValueError(f"length and mass must be positive, got length={length}, mass={mass}")
    system, info = build_pendulum(length=length, mass=mass, radius_of_gyration=radius_of_gyration, angle0=angle0)
    period = info.small_oscillation_period
    t_end = 2.2 * period
    result = GeneralizedAlpha(1.0).solve(system.assemble(), t_end, int(np.ceil(2.2 * steps_per_period)),
                                         progress=False)
    x = result.sensor(info.position_sensor)[:, 0]
    rising = np.flatnonzero((x[:-1] < 0) & (x[1:] >= 0))
    if rising.size < 2:
        raise RuntimeError(f"the pendulum crossed x = 0 upward {rising.size} times in {t_end:.3g} s")
    times = [result.t[k] - x[k] * (result.t[k + 1] - result.t[k]) / (x[k + 1] - x[k]) for k in rising[:2]]
    return {"period": times[1] - times[0], "period_small_oscillation": period}


def rotor_disc_response(disc_radius=0.2, steps=10):
    """The rotor disc of ``floatframe.models.rotor_disc`` (Tisserand frame, full Hex8 mesh of
    ``rotor_disc_mesh``, steel) with a disc of ``disc_radius`` [m]: the largest displacement [m] of the axis
    node at the disc over ``steps`` steps of the model's step size."""
    from floatframe.fem import linear_elastic_matrices, rotor_disc_mesh
    from floatframe.models.rotor_disc import STEEL, build_rotor_disc
    from floatframe.solvers.genalpha import GeneralizedAlpha

    mesh = rotor_disc_mesh(disc_radius=disc_radius)
    mass, stiffness = linear_elastic_matrices(mesh, **STEEL)
    rotor = build_rotor_disc(nodes=mesh.nodes, mass_matrix=mass, stiffness_matrix=stiffness)
    result = GeneralizedAlpha(rotor.spectral_radius).solve(rotor.system.assemble(), steps * rotor.h, int(steps),
                                                           progress=False)
    return {"max_displacement": float(np.abs(result.sensor(rotor.sensor)).max())}


def _rotor_disc_on_symbolic_supports(names):
    """The rotor disc of :func:`rotor_disc_response` (default disc) with symbolic supports, assembled."""
    from floatframe.models.rotor_disc import build_rotor_disc

    rotor = build_rotor_disc(symbolic_supports=True)
    return rotor, rotor.system.assemble()


def _rotor_disc_support_run(model, support_stiffness=2e8, support_damping=2e6, steps=10):
    """The rotor disc (built-in mesh, Tisserand frame) on supports of ``support_stiffness`` [N/m] and
    ``support_damping`` [N s/m], symbolic Parameters of one model built once per worker: the largest
    displacement [m] of the axis node at the disc over ``steps`` steps of the model's step size."""
    from floatframe.models.rotor_disc import support_parameter_values
    from floatframe.solvers.genalpha import GeneralizedAlpha

    if support_stiffness <= 0 or support_damping < 0:
        raise ValueError(f"support_stiffness must be positive and support_damping >= 0, got "
                         f"{support_stiffness}, {support_damping}")
    rotor, assembled = model
    for name, value in support_parameter_values(support_stiffness, support_damping).items():
        assembled.set_parameter(name, value)
    result = GeneralizedAlpha(rotor.spectral_radius).solve(assembled, steps * rotor.h, int(steps), progress=False)
    return {"max_displacement": float(np.abs(result.sensor(rotor.sensor)).max())}


#: the rotor disc against its supports' stiffness and damping, built once per worker (a :class:`ModelStudy`)
rotor_disc_supports = ModelStudy(_rotor_disc_on_symbolic_supports, _rotor_disc_support_run,
                                 name="rotor_disc_supports")


def _reduced_rotor_disc_on_symbolic_supports(names):
    """The rotor disc reduced to 4 free-free eigenmodes, with symbolic supports, assembled."""
    from floatframe.models.rotor_disc import build_rotor_disc

    return build_rotor_disc(modes=4, symbolic_supports=True).system.assemble()


def rotor_support_parameters(support_stiffness=2e8, support_damping=2e6) -> dict:
    """The rotor disc's support Parameters (``SUPPORT_PARAMETERS``) for a support stiffness [N/m] and damping
    [N s/m] (arithmetic only: a :class:`SensorStudy` calls it with CasADi symbols)."""
    from floatframe.models.rotor_disc import support_parameter_values

    return support_parameter_values(support_stiffness, support_damping)


#: the displacement of the reduced rotor disc's axis node at the disc at 1, ..., 5 ms (outputs
#: ``displacement_{i}_{j}``, i the time, j = x, y, z as 0, 1, 2) against the supports' stiffness and damping,
#: through the step map; ``rotor_disc_sensitivity.with_gradient()`` also returns the exact derivatives
rotor_disc_sensitivity = SensorStudy(_reduced_rotor_disc_on_symbolic_supports, rotor_support_parameters, sensor=0,
                                     times=[1e-3, 2e-3, 3e-3, 4e-3, 5e-3], h=1e-4, spectral_radius=0.5,
                                     tolerance=1e-6, output="displacement", name="rotor_disc_sensitivity")


def oscillator_response(stiffness=40.0, damping=0.5, mass=1.0, times=(0.2, 0.4, 0.6, 0.8, 1.0), steps=100,
                        gradient=False):
    """A point mass [kg] on a spring-damper along x (released from x = 0.1 m at rest), its ``stiffness``
    [N/m] and ``damping`` [N s/m] symbolic Parameters: the displacements x(t_i) [m] at ``times`` [s] (outputs
    ``x_0``, ``x_1``, ...) after generalized-alpha steps of ``times[-1] / steps``; with ``gradient`` also
    their exact derivatives ``dx_i_dstiffness`` and ``dx_i_ddamping`` (through the step map,
    ``floatframe.ocp.step``, by the implicit-function theorem)."""
    import casadi as ca

    import floatframe.components as fc
    from floatframe.ocp.step import initial_state, step_map
    from floatframe.parameters import Parameter
    from floatframe.assembly import System

    system = System()
    ground = system.add(fc.NodePointGround([0.0, 0.0, 0.0]))
    point = system.add(fc.NodePoint([0.0, 0.0, 0.0], initial_coordinates=[0.1, 0.0, 0.0]))
    system.add(fc.ObjectMassPoint(point, mass))
    system.add(fc.CoordinateSpringDamper([system.add(fc.MarkerNodeCoordinate(ground, 0)),
                                          system.add(fc.MarkerNodeCoordinate(point, 0))],
                                         Parameter("stiffness", stiffness), Parameter("damping", damping)))
    assembled = system.assemble()
    h = times[-1] / steps
    samples = {int(round(t / h)): i for i, t in enumerate(times)}
    p = ca.MX.sym("p", len(assembled.parameters))
    no_input = ca.MX(0, 1)
    a, lam = initial_state(assembled)(0.0, assembled.q_initial, assembled.v_initial, no_input, p)
    state, step, displacements = (assembled.q_initial, assembled.v_initial, a, a, lam), step_map(assembled), []
    for k in range(1, steps + 1):
        state = tuple(step((k - 1) * h, h, *state, no_input, p))
        if k in samples:
            displacements.append(state[0][0])
    x = ca.vertcat(*displacements)
    values, jacobian = ca.Function("response", [p], [x, ca.jacobian(x, p)])(assembled.parameter_vector())
    values, jacobian = np.array(values).reshape(-1), np.array(jacobian)
    outputs = {f"x_{i}": values[i] for i in range(len(times))}
    if gradient:
        for j, parameter in enumerate(assembled.parameters):
            outputs.update({f"dx_{i}_d{parameter.name}": jacobian[i, j] for i in range(len(times))})
    return outputs


def fit_stiffness(measured, initial=30.0, **options):
    """The stiffness [N/m] whose :func:`oscillator_response` best matches the ``measured`` displacements
    (least squares), found by scipy's Gauss-Newton-type ``least_squares`` with the exact gradient."""
    from scipy.optimize import least_squares

    measured = np.asarray(measured, dtype=float)

    def residual_and_jacobian(k):
        outputs = oscillator_response(stiffness=float(k[0]), gradient=True, **options)
        n = measured.size
        return (np.array([outputs[f"x_{i}"] for i in range(n)]) - measured,
                np.array([[outputs[f"dx_{i}_dstiffness"]] for i in range(n)]))

    cache = {}

    def evaluate(k):
        key = float(k[0])
        if key not in cache:
            cache[key] = residual_and_jacobian(k)
        return cache[key]

    solution = least_squares(lambda k: evaluate(k)[0], [initial], jac=lambda k: evaluate(k)[1], xtol=1e-14,
                             ftol=1e-14, gtol=1e-14)
    return float(solution.x[0])


STUDY_MODELS = {model.name: globals()[model.study] for model in READY_MODELS if "study" in model.commands}

