"""The explicit schemes (floatframe/solvers/explicit.py, explicit_adaptive.py): each scheme's declared order
against the measured order, the step-size control against its tolerance, the elimination of fixed coordinates
and the refusal of other constraints, and agreement with exudyn 1.13.6's explicit solvers on the same model and
step (same tableau, same numbers)."""
import numpy as np
import pytest

from floatframe.assembly import System
from floatframe.components import (CartesianSpringDamper, CoordinateConstraint, CoordinateSpringDamper,
                                   LoadForceVector, LoadTorqueVector, MarkerBodyPosition, MarkerNodeCoordinate,
                                   MarkerNodePosition, NodePoint, NodePointGround, ObjectGround, ObjectMassPoint)
from floatframe.components.planar import MarkerBodyRigid2D, NodeRigidBody2D, ObjectRigidBody2D
from floatframe.models.pendulum import build_pendulum
from floatframe.solvers.explicit import (TABLEAUX, ExplicitEuler, ExplicitMidpoint, RK33, RK44,
                                         RK67, VelocityVerlet)
from floatframe.solvers.explicit_adaptive import DOPRI5, DVERK6, ODE23
from floatframe.solvers.result import SolverError
from model_helpers import ContractOnly

MASS, STIFFNESS, START = 2.0, 100.0, 0.1
FIXED = [ExplicitEuler, ExplicitMidpoint, RK33, RK44, RK67, VelocityVerlet]


def oscillator(damping=0.0, fixed_y=False, mass=MASS, stiffness=STIFFNESS, start=START):
    """A mass point [kg] on a coordinate spring [N/m] (x) started ``start`` [m] out at rest, optionally with y fixed to
    the ground and a load on it."""
    system = System()
    ground = system.add(NodePointGround([0.0, 0.0, 0.0]))
    node = system.add(NodePoint([0.0, 0.0, 0.0], [start, 0.0, 0.0]))
    system.add(ObjectMassPoint(node, mass))
    system.add(CoordinateSpringDamper([system.add(MarkerNodeCoordinate(ground, 0)),
                                       system.add(MarkerNodeCoordinate(node, 0))], stiffness, damping))
    if fixed_y:
        system.add(CoordinateConstraint([system.add(MarkerNodeCoordinate(ground, 1)),
                                         system.add(MarkerNodeCoordinate(node, 1))]))
        system.add(LoadForceVector(system.add(MarkerNodePosition(node)), [0.0, -3.0, 1.0]))
    return system.assemble()


def planar_body():
    """A planar rigid body, its centre of mass off the node (M depends on the angle), on a Cartesian spring to the
    ground, with a weight and a torque: it swings and spins."""
    system = System()
    node = system.add(NodeRigidBody2D([0.0, 0.0, 0.0], initial_velocities=[0.3, 0.0, 2.0]))
    body = system.add(ObjectRigidBody2D(node, 2.0, 0.5, center_of_mass=(0.2, 0.1)))
    ground = system.add(ObjectGround())
    system.add(CartesianSpringDamper([system.add(MarkerBodyPosition(ground, [0.5, 0.0, 0.0])),
                                      system.add(MarkerBodyRigid2D(body, [0.5, 0.0, 0.0]))],
                                     [50.0, 80.0, 0.0], [0.5, 0.5, 0.0]))
    system.add(LoadForceVector(system.add(MarkerBodyRigid2D(body, [0.2, 0.1, 0.0])), [0.0, -19.62, 0.0]))
    system.add(LoadTorqueVector(system.add(MarkerBodyRigid2D(body)), [0.0, 0.0, 0.3]))
    return system.assemble()


def exact_position(t, damping=0.0):
    """x(t) of the oscillator (under-damped, from rest at START)."""
    decay = damping / (2.0 * MASS)
    omega = np.sqrt(STIFFNESS / MASS - decay ** 2)
    return START * np.exp(-decay * t) * (np.cos(omega * t) + decay / omega * np.sin(omega * t))


def measured_orders(scheme_class, damping, steps):
    errors = [abs(scheme_class().solve(oscillator(damping), 1.0, k).q[-1, 0] - exact_position(1.0, damping))
              for k in steps]
    return np.log2(np.array(errors[:-1]) / np.array(errors[1:])), errors


@pytest.mark.parametrize("scheme_class, steps", [
    (ExplicitEuler, (400, 800, 1600)), (ExplicitMidpoint, (200, 400, 800)), (RK33, (200, 400, 800)),
    (RK44, (100, 200, 400)), (RK67, (50, 100, 200)), (VelocityVerlet, (200, 400, 800))])
def test_each_fixed_step_scheme_converges_with_its_declared_order(scheme_class, steps):
    # undamped oscillator, x(1 s) against the exact solution; measured: Euler 1.03, 1.02; midpoint 1.98, 1.99;
    # RK33 3.02, 3.01; RK44 3.95, 3.98; RK67 5.88, 5.95; Verlet 2.00, 2.00
    orders, errors = measured_orders(scheme_class, 0.0, steps)
    assert np.all(np.abs(orders - scheme_class.order) < 0.15), (errors, orders)


@pytest.mark.parametrize("scheme_class, order", [(RK44, 4), (RK67, 6), (VelocityVerlet, 1)])
def test_with_damping_the_runge_kutta_orders_hold_and_velocity_verlet_drops_to_one(scheme_class, order):
    # Exudyn's velocity Verlet takes the end accelerations at the half-step velocities: first order with damping
    # measured: RK44 3.98, 3.99; RK67 5.98, 5.99; Verlet 1.01, 1.01
    steps = {RK44: (100, 200, 400), RK67: (50, 100, 200), VelocityVerlet: (400, 800, 1600)}[scheme_class]
    orders, errors = measured_orders(scheme_class, 3.0, steps)
    assert np.all(np.abs(orders - order) < 0.15), (errors, orders)


def test_the_tableaux_meet_their_order_conditions():
    # sum b = 1, b.c = 1/2, b.c^2 = 1/3, b.A c = 1/6, ... up to order 4 (and row sums of A = c)
    for key, tableau in TABLEAUX.items():
        c, a, b, embedded = tableau.arrays()
        assert a.sum(axis=1) == pytest.approx(c, abs=1e-15), key
        for weights, order in ((b, tableau.order), (embedded, tableau.embedded_order)):
            if weights is None:
                continue
            conditions = [weights.sum() - 1.0, weights @ c - 1 / 2, weights @ c ** 2 - 1 / 3,
                          weights @ (a @ c) - 1 / 6, weights @ c ** 3 - 1 / 4, weights @ (c * (a @ c)) - 1 / 8,
                          weights @ (a @ c ** 2) - 1 / 12, weights @ (a @ (a @ c)) - 1 / 24]
            needed = {1: 1, 2: 2, 3: 4, 4: 8}[min(order, 4)]
            assert np.abs(conditions[:needed]).max() < 1e-14, (key, order, conditions)


@pytest.mark.parametrize("scheme_class", [ODE23, DOPRI5, DVERK6])
@pytest.mark.parametrize("tolerance", [1e-6, 1e-9])
def test_the_adaptive_pairs_meet_their_tolerance(scheme_class, tolerance):
    # damped oscillator over 1 s with 10 output times: the largest error over the outputs within 10 tolerances
    # (the control bounds the error per step; measured ODE23 8.1e-6 and 8.3e-9, DOPRI5 8.5e-7 and 1.1e-9, x ~ 0.1 m)
    system = oscillator(0.5)
    result = scheme_class(rtol=tolerance, atol=tolerance).solve(system, 1.0, 10)
    error = np.abs(result.q[:, 0] - exact_position(result.t, 0.5)).max()
    assert error < 10 * tolerance * START / 0.1, error
    assert result.statistics.steps > 10
    # a tighter tolerance takes more steps and gets closer
    tighter = scheme_class(rtol=tolerance / 100, atol=tolerance / 100).solve(system, 1.0, 10)
    assert tighter.statistics.steps > result.statistics.steps
    assert np.abs(tighter.q[:, 0] - exact_position(tighter.t, 0.5)).max() < error


@pytest.fixture(scope="module")
def planar_reference():
    """(q, v) of the planar body at 1 s by RK67 with 1600 steps (error below 1e-13)."""
    result = RK67().solve(planar_body(), 1.0, 1600)
    return np.concatenate([result.q[-1], result.v[-1]])


@pytest.mark.parametrize("scheme_class, steps, order", [
    (ExplicitEuler, (400, 800, 1600), 1), (ExplicitMidpoint, (100, 200, 400), 2), (RK33, (50, 100, 200), 3),
    (RK44, (50, 100, 200), 4), (RK67, (25, 50, 100), 6), (VelocityVerlet, (100, 200, 400), 1),
    (ODE23, (50, 100, 200), 3), (DOPRI5, (25, 50, 100), 5), (DVERK6, (25, 50, 100), 6)])
def test_the_orders_hold_on_a_nonlinear_model(planar_reference, scheme_class, steps, order):
    # the planar body (M depends on the angle, centrifugal terms, damping), q and v at 1 s; the pairs with fixed
    # steps. Measured: Euler 1.02, 1.01; midpoint 1.98, 1.99; RK33 3.04, 3.02; RK44 3.94, 3.97; RK67 5.81, 5.92;
    # Verlet 0.89, 0.95 (damping); ODE23 3.05, 3.03; DOPRI5 5.34, 5.23; DVERK6 5.86, 5.97
    options = dict(automatic_step_size=False) if scheme_class in (ODE23, DOPRI5, DVERK6) else {}
    errors = []
    for k in steps:
        result = scheme_class(**options).solve(planar_body(), 1.0, k)
        errors.append(np.abs(np.concatenate([result.q[-1], result.v[-1]]) - planar_reference).max())
    orders = np.log2(np.array(errors[:-1]) / np.array(errors[1:]))
    assert np.all(np.abs(orders - order) < 0.35), (errors, orders)


def test_a_coordinate_fixed_to_the_ground_is_eliminated_and_its_multiplier_is_the_reaction():
    system = oscillator(0.5, fixed_y=True)
    assert system.n_multipliers == 1
    result = RK44().solve(system, 1.0, 100)
    assert np.all(result.q[:, 1] == 0.0) and np.all(result.v[:, 1] == 0.0) and np.all(result.a[:, 1] == 0.0)
    assert result.lam[:, 0] == pytest.approx(-3.0, abs=1e-12)        # the load -3 N on y, held by the constraint
    assert result.a[:, 2] == pytest.approx(0.5, abs=1e-12)           # z is free: 1 N / 2 kg
    assert result.q[-1, 0] == pytest.approx(exact_position(1.0, 0.5), abs=1e-7)
    assert result.info["eliminated_coordinates"] == 1


def test_a_fixed_coordinate_starts_where_its_constraint_holds():
    # q0 violates y = 0 by 0.2 (initial='accept'): the scheme holds y where C = 0, at rest
    system = oscillator(0.5, fixed_y=True)
    q0 = system.q_initial.copy()
    q0[1] = 0.2
    result = RK44().solve(system, 0.1, 10, q0=q0, v0=np.array([0.0, 1.0, 0.0]), initial="accept")
    assert np.all(result.q[:, 1] == 0.0) and np.all(result.v[:, 1] == 0.0)


def test_other_constraints_are_refused_naming_the_solver_and_their_owners():
    system, _ = build_pendulum()
    assembled = system.assemble()
    with pytest.raises(ValueError, match=r"rk44: .* 4 of the model's 4 constraint rows .*pivot"):
        RK44().solve(assembled, 0.1, 10)
    with pytest.raises(ValueError, match="dopri5: .*Euler-parameter"):
        DOPRI5().solve(assembled, 0.1, 10)


def test_options_are_checked():
    with pytest.raises(ValueError, match="a0 and lam0 are not options"):
        RK44().solve(oscillator(), 0.1, 10, a0=np.zeros(3))
    with pytest.raises(ValueError, match="chooses its own steps"):
        DOPRI5().solve(oscillator(), 0.1, 10, h=0.01)
    with pytest.raises(ValueError, match="constraints must be one of"):
        RK44(constraints="drop")
    with pytest.raises(ValueError, match="no embedded weights"):
        from floatframe.solvers.explicit_adaptive import EmbeddedRungeKutta
        EmbeddedRungeKutta(TABLEAUX["RK44"])


@pytest.mark.parametrize("scheme_class", FIXED + [ODE23, DOPRI5, DVERK6])
def test_every_explicit_scheme_runs_on_the_contract_alone(scheme_class):
    for system in (planar_body(), oscillator(0.5, fixed_y=True)):
        full = scheme_class().solve(system, 0.2, 20)
        seen = scheme_class().solve(ContractOnly(system), 0.2, 20)
        assert np.array_equal(full.q, seen.q) and np.array_equal(full.lam, seen.lam)


# --- agreement with exudyn 1.13.6 ---------------------------------------------------------------------------------
def exudyn_run(build, solver_type, steps, t_end, **explicit):
    """Final (q, v, a) of exudyn's solver on the model ``build(mbs, exu)`` builds."""
    exu = pytest.importorskip("exudyn")
    container = exu.SystemContainer()
    mbs = container.AddSystem()
    build(mbs, exu)
    mbs.Assemble()
    settings = exu.SimulationSettings()
    settings.timeIntegration.numberOfSteps = steps
    settings.timeIntegration.endTime = t_end
    settings.timeIntegration.verboseMode = 0
    for name, value in explicit.items():
        setattr(settings.timeIntegration.explicit, name, value)
    mbs.SolveDynamic(settings, solverType=getattr(exu.DynamicSolverType, solver_type))
    data = mbs.systemData
    return (np.array(data.GetODE2Coordinates()), np.array(data.GetODE2Coordinates_t()),
            np.array(data.GetODE2Coordinates_tt()))


def exudyn_oscillator(mbs, exu):
    from exudyn.itemInterface import (CoordinateSpringDamper as Spring, MarkerNodeCoordinate as Coordinate,
                                      MassPoint, NodePoint as Point, NodePointGround as Ground)
    ground = mbs.AddNode(Ground(referenceCoordinates=[0, 0, 0]))
    node = mbs.AddNode(Point(referenceCoordinates=[0, 0, 0], initialCoordinates=[START, 0, 0]))
    mbs.AddObject(MassPoint(nodeNumber=node, mass=MASS))
    mbs.AddObject(Spring(markerNumbers=[mbs.AddMarker(Coordinate(nodeNumber=ground, coordinate=0)),
                                        mbs.AddMarker(Coordinate(nodeNumber=node, coordinate=0))],
                         stiffness=STIFFNESS, damping=0.5))


def exudyn_planar_body(mbs, exu):
    from exudyn.itemInterface import (CartesianSpringDamper as Spring, LoadForceVector as Force,
                                      LoadTorqueVector as Torque, MarkerBodyPosition, MarkerBodyRigid,
                                      NodeRigidBody2D as Node, ObjectGround, ObjectRigidBody2D as Body)
    node = mbs.AddNode(Node(referenceCoordinates=[0, 0, 0], initialVelocities=[0.3, 0, 2.0]))
    body = mbs.AddObject(Body(nodeNumber=node, mass=2.0, inertia=0.5, centerOfMass=[0.2, 0.1]))
    ground = mbs.AddObject(ObjectGround())
    mbs.AddObject(Spring(markerNumbers=[mbs.AddMarker(MarkerBodyPosition(bodyNumber=ground, localPosition=[0.5, 0, 0])),
                                        mbs.AddMarker(MarkerBodyRigid(bodyNumber=body, localPosition=[0.5, 0, 0]))],
                         stiffness=[50, 80, 0], damping=[0.5, 0.5, 0]))
    mbs.AddLoad(Force(markerNumber=mbs.AddMarker(MarkerBodyRigid(bodyNumber=body, localPosition=[0.2, 0.1, 0])),
                      loadVector=[0, -19.62, 0]))
    mbs.AddLoad(Torque(markerNumber=mbs.AddMarker(MarkerBodyRigid(bodyNumber=body)), loadVector=[0, 0, 0.3]))


@pytest.mark.parametrize("scheme_class", FIXED)
@pytest.mark.parametrize("model", ["oscillator", "planar body"])
def test_the_fixed_step_schemes_agree_with_exudyn_to_round_off(scheme_class, model):
    # same tableau, same stages, same step: the final q, v, a agree to 1e-13 relative (measured at most 2e-15)
    steps, t_end = 200, 2.0
    system, build = ((oscillator(0.5), exudyn_oscillator) if model == "oscillator"
                     else (planar_body(), exudyn_planar_body))
    exudyn_type = {"explicit-euler": "ExplicitEuler", "explicit-midpoint": "ExplicitMidpoint", "rk33": "RK33",
                   "rk44": "RK44", "rk67": "RK67", "velocity-verlet": "VelocityVerlet"}[scheme_class.name]
    q, v, a = exudyn_run(build, exudyn_type, steps, t_end)
    result = scheme_class().solve(system, t_end, steps)
    for ours, theirs in ((result.q[-1], q), (result.v[-1], v), (result.a[-1], a)):
        assert np.abs(ours - theirs).max() <= 1e-13 * max(1.0, np.abs(theirs).max()), (ours, theirs)


# --- the batched step loop (floatframe/solvers/explicit_batch.py) ----------------------------------------------
@pytest.mark.parametrize("scheme_class", FIXED + [DOPRI5])
@pytest.mark.parametrize("model", ["planar body", "fixed coordinate"])
def test_the_batched_loop_gives_the_python_loops_numbers(scheme_class, model):
    # the same stages in one CasADi call per 20,000 steps; the sums in another order: measured at most 1.3e-15
    build = planar_body if model == "planar body" else (lambda: oscillator(0.5, fixed_y=True))
    options = dict(automatic_step_size=False) if scheme_class is DOPRI5 else {}
    grid = np.concatenate([np.linspace(0.0, 0.5, 11), [0.53, 0.6]])     # unequal intervals, 2 to 5 steps each
    batched, plain = scheme_class(**options), scheme_class(**options)
    plain.batched = False
    system = build()
    assert batched.native_loop(system, None) is None             # before init: no model known
    results = [scheme.solve(system, t_grid=grid, h=0.011, store_every=2) for scheme in (batched, plain)]
    assert type(batched.native_loop(system, None)).__name__ == "BatchedLoop"
    assert plain.native_loop(system, None) is None
    for name in ("t", "q", "v", "a", "lam"):
        ours, theirs = getattr(results[0], name), getattr(results[1], name)
        assert ours.shape == theirs.shape
        assert np.abs(ours - theirs).max(initial=0.0) <= 1e-13 * max(1.0, np.abs(theirs).max(initial=0.0)), name
    assert results[0].statistics.steps == results[1].statistics.steps
    assert results[0].statistics.residual_evaluations == results[1].statistics.residual_evaluations


@pytest.mark.parametrize("scheme_class", [RK44, VelocityVerlet])
def test_the_compiled_step_gives_the_virtual_machines_bits(scheme_class, tmp_path, monkeypatch):
    """A step compiled to C (gcc without fused multiply-adds) does the SX graph's IEEE operations; a later solve
    of the same model finds it in the cache and takes every step compiled."""
    from floatframe.solvers import compiling, explicit_batch
    if compiling.compiler() is None:
        pytest.skip("no C compiler")
    monkeypatch.setenv("FLOATFRAME_CACHE", str(tmp_path))
    monkeypatch.setattr(compiling, "COMPILE_SECONDS", 1e9)    # the first solve stays on the virtual machine
    loops = []
    ready = explicit_batch.BatchedLoop.ready

    def keep(loop):
        loops.append(loop)
        return ready(loop)
    monkeypatch.setattr(explicit_batch.BatchedLoop, "ready", keep)
    system = planar_body()
    plain = scheme_class().solve(system, 0.5, 500)
    assert not loops[-1].kernel.is_compiled
    loops[-1].kernel.compile()
    compiled = scheme_class().solve(planar_body(), 0.5, 500)
    kernel = loops[-1].kernel
    assert kernel.is_compiled and kernel.buffered.function.class_name() == "External"
    assert kernel._functions is None     # found by the step's name: the chain was not built
    for name in ("q", "v", "a"):
        assert np.array_equal(getattr(plain, name), getattr(compiled, name)), name


def test_a_long_explicit_solve_compiles_its_step_in_the_background(tmp_path, monkeypatch):
    from floatframe.solvers import compiling, explicit_batch
    if compiling.compiler() is None:
        pytest.skip("no C compiler")
    monkeypatch.setenv("FLOATFRAME_CACHE", str(tmp_path))
    monkeypatch.setattr(compiling, "COMPILE_SECONDS", 0.0)
    monkeypatch.setattr(compiling, "COMPILE_SECONDS_PER_INSTRUCTION", 0.0)
    monkeypatch.setattr(explicit_batch, "STEPS_PER_CALL", 256)      # many calls: time to switch
    loops = []
    ready = explicit_batch.BatchedLoop.ready

    def keep(loop):
        loops.append(loop)
        return ready(loop)
    monkeypatch.setattr(explicit_batch.BatchedLoop, "ready", keep)
    plain = RK44()
    plain.batched = False
    reference = plain.solve(oscillator(0.5), 2.0, 4000)
    result = RK44().solve(oscillator(0.5), 2.0, 4000)
    kernel = loops[-1].kernel
    assert kernel.is_compiled or kernel._compilation is not None
    assert abs(result.q[-1, 0] - exact_position(2.0, 0.5)) < 1e-9
    assert np.abs(result.q - reference.q).max() <= 1e-13 * START


def test_models_with_user_functions_or_inputs_take_the_python_loop():
    import floatframe as ff
    system = ff.System()
    node = system.add(ff.NodePoint([0.0, 0.0, 0.0], initial_coordinates=[0.1, 0.0, 0.0]))
    system.add(ff.ObjectMassPoint(node, 2.0))
    ground = system.add(ff.MarkerNodeCoordinate(system.add(ff.NodePointGround([0.0, 0.0, 0.0])), 0))
    system.add(ff.CoordinateSpringDamper([ground, system.add(ff.MarkerNodeCoordinate(node, 0))], 0.0,
                                         force_user_function=lambda t, u, u_t: 400.0 * float(u)))
    system.add(ff.LoadForceVector(system.add(ff.MarkerNodePosition(node)),
                                  ff.Input("push", 3, signal=lambda t: [np.sin(3 * t), 0.0, 0.0])))
    assembled = system.assemble()
    scheme = RK44()
    result = scheme.solve(assembled, 0.5, 50)
    assert scheme.native_loop(assembled, None) is None
    reference = RK67().solve(assembled, 0.5, 200)
    assert abs(result.q[-1, 0] - reference.q[-1, 0]) < 1e-5      # RK44's own error: measured 1.5e-6


def test_explicit_euler_beyond_its_stability_limit_is_a_growth_failure_after_the_states_before_it():
    """Explicit Euler multiplies the undamped oscillator's amplitude by sqrt(1 + (omega h)^2) a step: at omega h = 1
    it passes the growth bound (1e6 times the initial state's reach) after some 40 steps; the batched loop tests its
    states itself and fails there with the time, keeping the states before."""
    assembled = oscillator()
    h = 1.0 / np.sqrt(STIFFNESS / MASS)
    with pytest.raises(SolverError, match=r"explicit-euler: at t = [\d.]+: the state grew without bound") as caught:
        ExplicitEuler().solve(assembled, 200 * h, 200)
    failure_time = caught.value.time
    stored = caught.value.result.t
    assert 30 * h < failure_time < 60 * h
    assert stored[-1] < failure_time and np.allclose(np.diff(stored), h)
    # the amplitude grows as the scheme's factor, exactly, up to the last stored state
    amplitude = np.hypot(caught.value.result.q[:, 0], caught.value.result.v[:, 0] * h)
    assert np.allclose(amplitude[1:] / amplitude[:-1], np.sqrt(2.0), rtol=1e-12)


def chain_of_mass_points(count, dense_mass=False):
    """``count`` mass points on Cartesian springs in a row from the ground, under a load (3 count coordinates);
    ``dense_mass``: the points' coordinates are instead one generic ODE2 object with a dense, positive definite
    mass matrix (every coordinate coupled to every other)."""
    from floatframe.components.generic_ode2 import ObjectGenericODE2
    system = System()
    ground = system.add(ObjectGround())
    nodes = [system.add(NodePoint([1.0 + i, 0.0, 0.0], [0.01 * i, 0.02, 0.0])) for i in range(count)]
    if dense_mass:
        size = 3 * count
        coupling = np.full((size, size), 0.1) + np.eye(size)
        system.add(ObjectGenericODE2(nodes, mass_matrix=coupling))
    else:
        for node in nodes:
            system.add(ObjectMassPoint(node, 1.5))
    previous = system.add(MarkerBodyPosition(ground, [0.0, 0.0, 0.0]))
    for node in nodes:
        marker = system.add(MarkerNodePosition(node))
        system.add(CartesianSpringDamper([previous, marker], [40.0, 50.0, 60.0], [0.1, 0.1, 0.1]))
        previous = marker
    system.add(LoadForceVector(previous, [0.0, -3.0, 1.0]))
    return system.assemble()


@pytest.mark.parametrize("dense_mass, symbolic", [(False, True), (True, False)])
def test_mass_points_beyond_the_symbolic_limit_get_an_sx_step_a_dense_mass_does_not_and_both_match_python(
        dense_mass, symbolic):
    """15 free coordinates (over SYMBOLIC_SOLVE_LIMIT): a diagonal M_ff falls apart into 1x1 blocks, so the step is
    SX (compiled in blocks); a dense 15x15 M_ff keeps the MX step. Either way the batched loop gives the Python
    loop's states (a pre_step hook makes the loop step in Python) to round-off."""
    from floatframe.solvers.explicit_batch import BatchedLoop, symbolic_step
    assembled = chain_of_mass_points(5, dense_mass)
    scheme = RK44()
    batched = scheme.solve(assembled, 0.5, 200)
    assert symbolic_step(scheme) is symbolic
    loop = BatchedLoop(scheme, assembled, 200)
    loop.ready()
    assert (loop.kernel is not None) is symbolic
    stepped = RK44().solve(assembled, 0.5, 200, pre_step=lambda t, state: None)
    scale = np.abs(stepped.q).max()
    assert np.abs(batched.q - stepped.q).max() <= 1e-13 * scale
    assert np.abs(stepped.q[-1]).max() > 1e-3   # it moved
