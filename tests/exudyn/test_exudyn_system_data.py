"""``mbs.systemData``: the coordinate vectors of every configuration, read and set, as exudyn 1.13.6 gives them."""
import importlib

import numpy as np
import pytest

import floatframe.exudyn as ffexu
from floatframe.exudyn import itemInterface as ffitems
from floatframe.exudyn._names import ExudynLayerError

CONFIGURATIONS = ("Initial", "Reference", "Current", "StartOfStep", "Visualization")
GETTERS = ("GetODE2Coordinates", "GetODE2Coordinates_t", "GetODE2Coordinates_tt", "GetAECoordinates")


def point_and_pendulum(exu, items):
    """A mass point under a force and a rigid pendulum on a spherical joint, assembled; (mbs, settings)."""
    mbs = exu.SystemContainer().AddSystem()
    point = mbs.AddNode(items.NodePoint(referenceCoordinates=[1, 2, 3], initialCoordinates=[0.1, 0, 0],
                                        initialVelocities=[0, 0.5, 0]))
    mbs.AddObject(items.ObjectMassPoint(nodeNumber=point, mass=2.0))
    mbs.AddLoad(items.LoadForceVector(markerNumber=mbs.AddMarker(items.MarkerNodePosition(nodeNumber=point)),
                                      loadVector=[0, 0, -1]))
    ground = mbs.AddObject(items.ObjectGround())
    node = mbs.AddNode(items.NodeRigidBodyEP(referenceCoordinates=[0, 1, 0, 1, 0, 0, 0]))
    body = mbs.AddObject(items.ObjectRigidBody(nodeNumber=node, mass=1.0, inertia=[1, 2, 3, 0, 0, 0]))
    pivot = mbs.AddMarker(items.MarkerBodyPosition(bodyNumber=ground, localPosition=[0, 0, 0]))
    end = mbs.AddMarker(items.MarkerBodyPosition(bodyNumber=body, localPosition=[0, -1, 0]))
    mbs.AddObject(items.ObjectJointSpherical(markerNumbers=[pivot, end]))
    centre = mbs.AddMarker(items.MarkerBodyPosition(bodyNumber=body, localPosition=[0, 0, 0]))
    mbs.AddLoad(items.LoadForceVector(markerNumber=centre, loadVector=[3, 0, 1]))
    mbs.Assemble()
    settings = exu.SimulationSettings()
    settings.timeIntegration.numberOfSteps = 10
    settings.timeIntegration.endTime = 0.1
    settings.timeIntegration.newton.relativeTolerance = 1e-12
    settings.timeIntegration.newton.useModifiedNewton = False
    settings.solution.file.write = False
    return mbs, settings


def every_vector(exu, mbs):
    """{(configuration, getter): vector} over all configurations and getters."""
    return {(kind, getter): np.asarray(getattr(mbs.systemData, getter)(configuration=getattr(
        exu.ConfigurationType, kind)), dtype=float) for kind in CONFIGURATIONS for getter in GETTERS}


def system_data_history(exu, items):
    """The vectors of every configuration after Assemble, after setting the initial and current state, after a
    solve from that initial state, and after setting StartOfStep and Visualization."""
    mbs, settings = point_and_pendulum(exu, items)
    history = [every_vector(exu, mbs)]
    n = len(mbs.systemData.GetODE2Coordinates())
    kinds = exu.ConfigurationType
    mbs.systemData.SetODE2Coordinates(mbs.systemData.GetODE2Coordinates() + 0.01 * np.arange(n) * (np.arange(n) < 3),
                                      configuration=kinds.Initial)
    mbs.systemData.SetODE2Coordinates_t(0.2 * np.ones(n) * (np.arange(n) < 3), configuration=kinds.Initial)
    mbs.systemData.SetODE2Coordinates(np.full(n, 7.0), configuration=kinds.Current)   # the solve starts from Initial
    history.append(every_vector(exu, mbs))
    exu.SolveDynamic(mbs, settings)
    history.append(every_vector(exu, mbs))
    mbs.systemData.SetODE2Coordinates(np.linspace(0, 1, n), configuration=kinds.Visualization)
    mbs.systemData.SetODE2Coordinates_t(np.linspace(1, 2, n), configuration=kinds.StartOfStep)
    mbs.systemData.SetAECoordinates(np.arange(len(mbs.systemData.GetAECoordinates())), configuration=kinds.Current)
    history.append(every_vector(exu, mbs))
    return history


@pytest.mark.exudyn
def test_every_configuration_of_every_coordinate_vector_is_exudyns():
    """Reference gives the nodes' reference coordinates (it gave zeros: sphericalJointTest was off by 0.25),
    empty velocities, accelerations and multipliers; Initial set by SetODE2Coordinates starts the solve, a
    Current set before it does not; StartOfStep is the start of the last step; Visualization stays at the state
    of Assemble (nothing is rendered) unless set."""
    exu = pytest.importorskip("exudyn")
    import exudyn.itemInterface as items
    reference = system_data_history(exu, items)
    ours = system_data_history(ffexu, ffitems)
    assert reference[0][("Reference", "GetODE2Coordinates")].tolist() == [1, 2, 3, 0, 1, 0, 1, 0, 0, 0]
    for stage, (expected, got) in enumerate(zip(reference, ours)):
        assert expected.keys() == got.keys()
        for key, value in expected.items():
            scale = max(1.0, float(np.abs(value).max(initial=0.0)))
            assert got[key].shape == value.shape, (stage, key)
            np.testing.assert_allclose(got[key], value, rtol=0, atol=1e-9 * scale, err_msg=f"stage {stage}, {key}")
    moved = ours[2][("Current", "GetODE2Coordinates")] - ours[2][("StartOfStep", "GetODE2Coordinates")]
    assert np.abs(moved).max() > 1e-3   # the last step moved the system: StartOfStep is not Current


def test_a_reference_configuration_cannot_be_set_after_assemble():
    """floatframe builds the reference configuration into the model; setting it is refused, naming what to do."""
    mbs, _ = point_and_pendulum(ffexu, ffitems)
    with pytest.raises(ExudynLayerError, match="referenceCoordinates"):
        mbs.systemData.SetODE2Coordinates(np.zeros(10), configuration=ffexu.ConfigurationType.Reference)
    with pytest.raises(ExudynLayerError, match="expected 10 values for the Initial configuration, got 9"):
        mbs.systemData.SetODE2Coordinates(np.zeros(9), configuration=ffexu.ConfigurationType.Initial)


@pytest.mark.exudyn
def test_local_to_global_ode2_indices_are_exudyns():
    """systemData.GetObjectLTGODE2 / GetNodeLTGODE2 / ODE2Size of a mass point, a rigid body and a Mass1D (a ground
    node has none), as exudyn's; an unknown SystemData function is refused naming it."""
    results = []
    for name in ("exudyn", "floatframe.exudyn"):
        exu = pytest.importorskip(name)
        utilities = importlib.import_module(name + ".utilities")
        mbs = exu.SystemContainer().AddSystem()
        ground = mbs.AddNode(utilities.NodePointGround())
        point = mbs.CreateMassPoint(referencePosition=[1, 0, 0], mass=1.0)
        body = mbs.CreateRigidBody(inertia=utilities.InertiaCuboid(1000, [0.1, 0.2, 0.3]), referencePosition=[0, 1, 0])
        node = mbs.AddNode(utilities.Node1D(referenceCoordinates=[0]))
        slider = mbs.AddObject(utilities.Mass1D(nodeNumber=node, mass=1.0))
        mbs.Assemble()
        data = mbs.systemData
        results.append(([list(data.GetObjectLTGODE2(item)) for item in (point, body, slider)],
                        list(data.GetNodeLTGODE2(ground)), list(data.GetNodeLTGODE2(node)), data.ODE2Size()))
    assert results[0] == results[1] == ([[0, 1, 2], [3, 4, 5, 6, 7, 8, 9], [10]], [], [10], 11)
    with pytest.raises(AttributeError, match="unknown SystemData function 'GetObjectLTGData'"):
        mbs.systemData.GetObjectLTGData(point)
