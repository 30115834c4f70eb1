"""Claims about the DAE contract (floatframe/solvers/contract.py): every solver runs on a model that shows it the
contract's members and nothing else, with the same numbers as on the assembled system itself, and the
assembled system satisfies the Protocol (tests/test_architecture.py checks the solvers' imports)."""
import numpy as np
import pytest

import floatframe as ff
from floatframe.models.pendulum import build_pendulum
from floatframe.solvers import contract
from floatframe.solvers.modal import eigenmodes
from model_helpers import ContractOnly


def pendulum():
    system, _ = build_pendulum()
    return system.assemble()


def oscillator_with_user_function():
    """A mass point on a spring whose force is a Python user function (a numeric callback), driven by an
    Input at its anchor."""
    system = ff.System()
    node = system.add(ff.NodePoint([0.0, 0.0, 0.0], initial_coordinates=[0.1, 0.0, 0.0]))
    system.add(ff.ObjectMassPoint(node, 2.0))
    ground = system.add(ff.MarkerNodeCoordinate(system.add(ff.NodePointGround([0.0, 0.0, 0.0])), 0))
    system.add(ff.CoordinateSpringDamper([ground, system.add(ff.MarkerNodeCoordinate(node, 0))], 0.0,
                                         force_user_function=lambda t, u, u_t: 400.0 * float(u) + 0.5 * float(u_t)))
    system.add(ff.LoadForceVector(system.add(ff.MarkerNodePosition(node)),
                                  ff.Input("push", 3, signal=lambda t: [np.sin(3 * t), 0.0, 0.0])))
    system.add(ff.SensorNode(node, "Position"))
    return system.assemble()


def hanging_mass():
    """A mass point on a Cartesian spring to the ground, under gravity: statically determinate."""
    system = ff.System()
    node = system.add(ff.NodePoint([0.0, 0.0, 0.0]))
    system.add(ff.ObjectMassPoint(node, 2.0))
    ground = system.add(ff.MarkerBodyPosition(system.add(ff.ObjectGround())))
    system.add(ff.CartesianSpringDamper([ground, system.add(ff.MarkerNodePosition(node))], [100.0, 200.0, 300.0]))
    system.add(ff.Gravity([0.0, 0.0, -9.81]))
    return system.assemble()


CASES = [
    ("genalpha dense", ff.GeneralizedAlpha(compile=False, linear_algebra="dense"), pendulum),
    ("genalpha sparse", ff.GeneralizedAlpha(linear_algebra="sparse", compile=False), pendulum),
    ("genalpha index 2", ff.GeneralizedAlpha(index=2, compile=False), pendulum),
    ("newmark", ff.Newmark(compile=False), pendulum),
    ("trapezoidal", ff.Trapezoidal(compile=False), pendulum),
    ("ggl", ff.GeneralizedAlphaGGL(), pendulum),
    ("idas", ff.IDAS(rtol=1e-8, atol=1e-10), pendulum),
    ("idas baumgarte", ff.IDAS(drift="baumgarte"), pendulum),
    ("genalpha, user function", ff.GeneralizedAlpha(), oscillator_with_user_function),
    ("idas, user function", ff.IDAS(), oscillator_with_user_function),
]


def test_the_assembled_system_satisfies_the_protocol():
    assert isinstance(pendulum(), contract.DAE)
    missing = [name for name in contract.CONTRACT if not hasattr(pendulum(), name)]
    assert missing == []


@pytest.mark.parametrize("name, solver, build", CASES, ids=[case[0] for case in CASES])
def test_every_solver_runs_on_the_contract_alone_with_the_same_numbers(name, solver, build):
    direct = solver.solve(build(), 0.05, 10)
    through_contract = solver.solve(ContractOnly(build()), 0.05, 10)
    assert np.array_equal(through_contract.q, direct.q)
    assert np.array_equal(through_contract.sensors[0], direct.sensors[0])


def test_the_static_solver_and_the_modes_run_on_the_contract_alone():
    direct = ff.StaticSolver(number_of_load_steps=2).solve(hanging_mass())
    through_contract = ff.StaticSolver(number_of_load_steps=2).solve(ContractOnly(hanging_mass()))
    assert np.array_equal(through_contract.q, direct.q)
    assert through_contract.q[-1, 2] == pytest.approx(-2.0 * 9.81 / 300.0, rel=1e-12)
    modes = eigenmodes(ContractOnly(hanging_mass()))
    assert np.sqrt(modes.eigenvalues) == pytest.approx(np.sqrt([50.0, 100.0, 150.0]), rel=1e-12)


def test_a_member_outside_the_contract_is_not_reachable_through_the_wrapper():
    with pytest.raises(AttributeError, match="'context' is not part of the DAE contract"):
        ContractOnly(pendulum()).context
