"""Claims about what keeps a solve from returning a silently wrong result: an initial state off the constraints
is refused (or projected on request, by the least mass-weighted change), a state that grows without bound
or turns non-finite ends the solve with the cause, a failed solve keeps what it computed, a user function
that fails is named with its component and time, and senseless solver settings are refused."""
import math
import warnings

import numpy as np
import pytest

import floatframe as ff
from floatframe.errors import UserFunctionError
from floatframe.models.pendulum import build_pendulum
from floatframe.solvers.newmark import StabilityWarning
from floatframe.solvers.safeguards import DRIFT, STRICT, InitialStateWarning

FIXED_STEP = [ff.GeneralizedAlpha, ff.Newmark, ff.Trapezoidal, ff.GeneralizedAlphaGGL]


@pytest.fixture(scope="module")
def pendulum():
    system, info = build_pendulum()
    return system.assemble(), info


def oscillator(stiffness=400.0, mass=2.0, start=0.1, force_user_function=None, load=None):
    """A mass point on a coordinate spring along x (sqrt(k/m) rad/s), with a position sensor."""
    system = ff.System()
    node = system.add(ff.NodePoint([0.0, 0.0, 0.0], initial_coordinates=[start, 0.0, 0.0]))
    body = system.add(ff.ObjectMassPoint(node, mass))
    ground = system.add(ff.MarkerNodeCoordinate(system.add(ff.NodePointGround([0.0, 0.0, 0.0])), 0))
    system.add(ff.CoordinateSpringDamper([ground, system.add(ff.MarkerNodeCoordinate(node, 0))], stiffness,
                                         force_user_function=force_user_function))
    if load is not None:
        system.add(ff.LoadForceVector(system.add(ff.MarkerNodePosition(node)), load))
    system.add(ff.SensorBody(body, "Position"))
    return system.assemble()


# --- the initial state ------------------------------------------------------------------------------------
@pytest.mark.parametrize("solver", [ff.GeneralizedAlpha(), ff.Newmark(), ff.GeneralizedAlphaGGL(), ff.IDAS()],
                         ids=lambda s: s.name)
def test_a_pendulum_started_5_cm_off_its_pivot_is_refused_naming_the_joint_and_the_gap(pendulum, solver):
    assembled, _ = pendulum
    q0 = assembled.q_initial.copy()
    q0[0] += 0.05
    with pytest.raises(ff.SolverError, match=r"SphericalJoint 2 'pivot': position gap 0\.05 m") as failure:
        solver.solve(assembled, 0.1, 10, q0=q0)
    assert failure.value.time == 0.0


def test_a_pendulum_moving_along_its_rod_is_refused_with_the_gap_in_metres_per_second(pendulum):
    assembled, _ = pendulum
    v0 = assembled.v_initial.copy()
    v0[1] = 0.4                                   # along the rod (the pivot is straight above)
    for solver in (ff.GeneralizedAlpha(), ff.IDAS()):
        with pytest.raises(ff.SolverError, match=r"'pivot': velocity gap 0\.4 m/s"):
            solver.solve(assembled, 0.1, 10, v0=v0)


def test_a_state_within_the_documented_tolerance_is_accepted_and_one_just_above_refused(pendulum):
    assembled, _ = pendulum
    q0 = assembled.q_initial.copy()
    q0[0] += 0.5 * STRICT                         # the scale L of this pendulum is 1 m
    assert ff.GeneralizedAlpha().solve(assembled, 0.01, 2, q0=q0).t[-1] == pytest.approx(0.01)
    q0[0] += 1.0 * STRICT
    with pytest.raises(ff.SolverError, match=r"position gap 1\.5e-06 m"):
        ff.GeneralizedAlpha().solve(assembled, 0.01, 2, q0=q0)


@pytest.mark.parametrize("first, then", [(ff.GeneralizedAlpha(), ff.GeneralizedAlpha()),
                                         (ff.GeneralizedAlpha(index=2), ff.GeneralizedAlpha(index=2)),
                                         (ff.GeneralizedAlpha(), ff.IDAS())], ids=["index3", "index2", "to-idas"])
def test_a_solve_continues_from_another_solves_end_state_where_that_scheme_lets_one_level_drift(pendulum, first,
                                                                                                then):
    assembled, _ = pendulum
    end = first.solve(assembled, 2.0, 40)                     # 20 steps a period: drift of about 4e-4
    drift = (np.abs(assembled.constraints(2.0, end.q[-1])).max(),
             np.abs(assembled.constraint_velocity(2.0, end.q[-1], end.v[-1])).max())
    assert max(drift) > STRICT                               # a gap the strict level alone would refuse
    assert max(drift) < DRIFT
    later = then.solve(assembled, 2.1, 10, t0=2.0, q0=end.q[-1], v0=end.v[-1])
    assert later.t[-1] == pytest.approx(2.1)


def test_each_scheme_is_strict_on_the_constraint_level_it_enforces():
    assert ff.GeneralizedAlpha().initial_tolerances == (STRICT, DRIFT)
    assert ff.Newmark(index=2).initial_tolerances == (DRIFT, STRICT)
    assert ff.GeneralizedAlphaGGL().initial_tolerances == (STRICT, STRICT)
    assert ff.IDAS().initial_tolerances == (STRICT, DRIFT)


def test_projection_moves_the_state_onto_the_constraints_by_the_least_mass_weighted_change(pendulum):
    assembled, _ = pendulum
    q0, v0 = assembled.q_initial.copy(), assembled.v_initial.copy()
    q0[0] += 0.05
    v0[1] = 0.4
    with pytest.warns(InitialStateWarning, match=r"moved NodeRigidBodyEP 0 by 0\.0\d+ \(positions\)"):
        result = ff.GeneralizedAlpha().solve(assembled, 0.01, 2, q0=q0, v0=v0, initial="project")
    q, v = result.q[0], result.v[0]
    assert np.abs(assembled.constraints(0.0, q)).max() < 1e-13
    assert np.abs(assembled.constraint_velocity(0.0, q, v)).max() < 1e-13
    # optimality of min (dq^T M dq) on C = 0: M dq lies in the span of the constraint normals C_q^T
    mass = assembled.mass_matrix(0.0, q, v).toarray()
    normals = assembled.constraint_jacobian(0.0, q).toarray().T
    for change in (q - q0, v - v0):
        weighted = mass @ change
        multipliers = np.linalg.lstsq(normals, weighted, rcond=None)[0]
        assert np.linalg.norm(normals @ multipliers - weighted) < 1e-6 * np.linalg.norm(weighted)
    moved = result.info["initial_projection"]["NodeRigidBodyEP 0"]
    assert moved["position"] == pytest.approx(np.abs(q - q0).max(), rel=1e-12)
    assert moved["velocity"] == pytest.approx(np.abs(v - v0).max(), rel=1e-12)


def test_idas_no_longer_moves_a_body_silently_and_projects_alike_on_request(pendulum):
    assembled, _ = pendulum
    q0 = assembled.q_initial.copy()
    q0[0] += 0.05
    with pytest.warns(InitialStateWarning):
        projected = ff.IDAS().solve(assembled, 0.01, 2, q0=q0, initial="project")
    with pytest.warns(InitialStateWarning):
        index3 = ff.GeneralizedAlpha().solve(assembled, 0.01, 2, q0=q0, initial="project")
    assert np.abs(projected.q[0] - index3.q[0]).max() < 1e-12


def test_accept_keeps_the_old_behaviour_the_first_step_snaps_onto_the_joint(pendulum):
    assembled, _ = pendulum
    q0 = assembled.q_initial.copy()
    q0[0] += 0.05
    result = ff.GeneralizedAlpha().solve(assembled, 0.01, 2, q0=q0, initial="accept")
    assert np.abs(assembled.constraints(result.t[1], result.q[1])).max() < 1e-10
    assert np.abs(result.v[1]).max() > 1.0           # the snap: 5 cm in 5 ms


def test_a_wrong_initial_mode_is_refused(pendulum):
    assembled, _ = pendulum
    with pytest.raises(ValueError, match="initial must be one of 'check', 'project', 'accept'"):
        ff.GeneralizedAlpha().solve(assembled, 0.01, 2, initial="fix")


# --- growth without bound ---------------------------------------------------------------------------------
def test_conditionally_stable_newmark_is_warned_with_its_critical_step():
    with pytest.warns(StabilityWarning, match=r"omega h must stay below 2\.58"):
        ff.Newmark(gamma=0.5, beta=0.1)
    with pytest.raises(ValueError, match="beta must be > 0"):
        ff.Newmark(gamma=0.5, beta=0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ff.Newmark(gamma=0.5, beta=0.25)           # unconditionally stable: no warning


def test_a_newmark_blow_up_at_omega_h_1e4_is_a_failure_with_the_time_and_the_largest_coordinates():
    assembled = oscillator(stiffness=2e8, mass=2.0)             # omega = 1e4 rad/s
    with pytest.warns(StabilityWarning):
        scheme = ff.Newmark(gamma=0.5, beta=0.1)
    with pytest.raises(ff.SolverError, match=r"newmark: at t = 0\.\d+: the state grew without bound: .*largest "
                                             r"(coordinates|velocities): NodePoint 0 coordinate 0 = \S+; the step "
                                             r"is beyond the scheme's stability limit") as failure:
        scheme.solve(assembled, 1.0, 1000)                     # h = 1e-3 s: omega h = 10 > 2.58
    partial = failure.value.result
    assert 0.0 < failure.value.time < 1.0
    assert partial.t[-1] < failure.value.time                   # the state out of bounds is not kept
    assert np.all(np.isfinite(partial.q)) and partial.statistics.steps > 0
    assert partial.sensor(0).shape == (partial.t.size, 3)
    # the same scheme with a stable step, and the check switched off, run to the end
    assert scheme.solve(assembled, 1e-3, 100).t[-1] == pytest.approx(1e-3)
    free = scheme.solve(assembled, 0.1, 100, blow_up=None)
    assert np.abs(free.q[-1]).max() > 1e20                     # what the check keeps a user from taking


def test_a_stable_scheme_on_the_same_stiff_oscillator_is_not_stopped():
    assembled = oscillator(stiffness=2e8, mass=2.0)
    result = ff.GeneralizedAlpha(0.5).solve(assembled, 1.0, 1000)
    assert np.abs(result.q[:, 0]).max() <= 0.1 + 1e-12


def test_a_load_that_turns_nan_mid_run_is_named_with_its_time():
    def load(t):
        return [math.nan if t > 0.05 else 1.0, 0.0, 0.0]        # a branch: not traceable, a numeric callback
    assembled = oscillator(load=load)
    with pytest.raises(ff.SolverError, match=r"genalpha: at t = 0\.05\d*: the load user function of "
                                             r"LoadForceVector\d returned NaN or inf") as failure:
        ff.GeneralizedAlpha().solve(assembled, 0.1, 100)
    assert isinstance(failure.value.__cause__, UserFunctionError)
    assert failure.value.result.t[-1] == pytest.approx(0.05)


# --- failures keep what they computed ---------------------------------------------------------------------
def failing_spring(after):
    def force(t, displacement, velocity):
        if t > after:
            raise ZeroDivisionError("the user's own bug")
        return 400.0 * displacement
    return force


@pytest.mark.parametrize("solver", [ff.GeneralizedAlpha(), ff.IDAS(rtol=1e-8)], ids=lambda s: s.name)
def test_a_user_function_that_raises_mid_run_is_reported_with_component_time_and_its_exception(solver):
    assembled = oscillator(force_user_function=failing_spring(0.3))
    with pytest.raises(ff.SolverError, match=r"at t = 0\.3\d*: the force user function of "
                                             r"CoordinateSpringDamper\d raised ZeroDivisionError: the user's own "
                                             r"bug") as failure:
        solver.solve(assembled, 1.0, 100)
    error = failure.value
    assert isinstance(error.__cause__, UserFunctionError)
    assert isinstance(error.__cause__.__cause__, ZeroDivisionError)
    assert error.__cause__.component.startswith("CoordinateSpringDamper")
    partial = error.result
    assert partial.t[-1] == pytest.approx(0.3, abs=0.011) and partial.t[-1] <= 0.3 + 1e-12
    assert "ZeroDivisionError" in partial.failure
    # the partial run equals the same run stopped there
    whole = solver.solve(oscillator(), 1.0, 100)
    rows = partial.t.size
    assert np.abs(partial.q - whole.q[:rows]).max() < 1e-6 * 0.1


def test_a_user_function_of_the_wrong_size_mid_run_is_named():
    calls = []

    def force(t, displacement, velocity):   # right at the assembly's sample calls, wrong later; float():
        calls.append(t)                     # not traceable, a numeric callback
        return [400.0 * float(displacement), 0.0] if len(calls) > 40 else 400.0 * float(displacement)
    assembled = oscillator(force_user_function=force)
    with pytest.raises(ff.SolverError, match=r"the force user function of CoordinateSpringDamper\d returned 2 "
                                             r"values, expected 1"):
        ff.GeneralizedAlpha().solve(assembled, 1.0, 100)


def test_a_newton_failure_keeps_the_steps_before_it(pendulum):
    assembled, _ = pendulum
    solver = ff.GeneralizedAlpha(max_iterations=1, min_step=1e-3)    # one iteration cannot converge
    with pytest.raises(ff.SolverError, match="step size fell below the minimum") as failure:
        solver.solve(assembled, 0.1, 10)
    partial = failure.value.result
    assert partial.t[0] == 0.0 and partial.q.shape[0] == partial.t.size >= 1
    assert partial.statistics.rejected_steps > 0


# --- settings ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("make, message", [
    (lambda: ff.GeneralizedAlpha(max_iterations=0), "max_iterations must be an integer >= 1, got 0"),
    (lambda: ff.GeneralizedAlpha(max_iterations=2.5), "max_iterations must be an integer >= 1"),
    (lambda: ff.GeneralizedAlpha(relative_tolerance=-1e-8), "relative_tolerance must be a finite number >= 0"),
    (lambda: ff.Newmark(absolute_tolerance=float("nan")), "absolute_tolerance must be a finite number >= 0"),
    (lambda: ff.GeneralizedAlpha(min_step=0.0), "min_step must be a finite number > 0 or None, got 0.0"),
    (lambda: ff.Trapezoidal(min_step=-1e-6), "min_step must be a finite number > 0"),
    (lambda: ff.GeneralizedAlphaGGL(max_iterations=0), "GeneralizedAlphaGGL: max_iterations"),
    (lambda: ff.IDAS(max_step=0.0), "IDAS: max_step must be a finite number > 0 or None"),
    (lambda: ff.IDAS(max_num_steps=0), "IDAS: max_num_steps must be an integer >= 1"),
    (lambda: ff.IDAS(projection_tolerance=-1.0), "IDAS: projection_tolerance must be a finite number > 0"),
    (lambda: ff.StaticSolver(max_iterations=0), "StaticSolver: max_iterations must be an integer >= 1"),
    (lambda: ff.StaticSolver(minimum_step=0.0), "StaticSolver: minimum_step must be a finite number > 0"),
    (lambda: ff.StaticSolver(relative_tolerance=-1.0), "StaticSolver: relative_tolerance"),
])
def test_senseless_solver_settings_are_refused_at_construction(make, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        make()


@pytest.mark.parametrize("solver", [ff.GeneralizedAlpha(), ff.IDAS()], ids=lambda s: s.name)
def test_store_every_and_blow_up_are_checked_before_the_solve(pendulum, solver):
    assembled, _ = pendulum
    with pytest.raises(ValueError, match="store_every must be an integer >= 1, got 0"):
        solver.solve(assembled, 0.1, 10, store_every=0)
    with pytest.raises(ValueError, match="blow_up must be a factor > 1 or None"):
        solver.solve(assembled, 0.1, 10, blow_up=0.5)


# --- the model's monitors ---------------------------------------------------------------------------------
def spinning_beam(fraction):
    """The small FFRF beam spinning about z at ``fraction`` of its lowest elastic frequency, on a Tisserand frame."""
    from floatframe.components.geometric_stiffening import lowest_elastic_frequency
    from floatframe.components.reference_conditions import add_tisserand_frame
    from model_helpers import small_beam

    def build(spin):
        system = ff.System()
        body, _ = small_beam(system, angular_velocity=(0.0, 0.0, spin))
        add_tisserand_frame(system, body)
        return system.assemble(), body

    omega_1 = lowest_elastic_frequency(build(0.0)[1])
    return build(fraction * omega_1)[0], omega_1


def test_a_linear_ffrf_body_spinning_near_its_first_frequency_is_warned_once_during_a_solve():
    assembled, omega_1 = spinning_beam(0.5)
    with pytest.warns(UserWarning, match=r"ObjectFFRF 0: at t = 0 s its frame spins at \S+ rad/s, above 0.3 of its "
                                         r"lowest elastic frequency") as caught:
        ff.GeneralizedAlpha().solve(assembled, 1e-4, 4)
    assert sum("lowest elastic frequency" in str(w.message) for w in caught) == 1
    slow, _ = spinning_beam(0.2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ff.GeneralizedAlpha().solve(slow, 1e-4, 4)                 # 0.2 of omega_1: no warning
