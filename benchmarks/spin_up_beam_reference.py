"""Geometrically exact reference of Kane's spin-up beam (Kane, Ryan, Banerjee 1987), computed with Exudyn's 2D ANCF
cable (ObjectANCFCable2D: exact kinematics, axial strain from the slope's length, curvature from its turn).

The root node's position is held at the hub and its slope prescribed as (cos theta(t), sin theta(t)) by
CoordinateConstraints with offset user functions. The tip deflection in the rotating frame,
-x sin theta + y cos theta [m], is written every 0.05 s for Omega_s = 4 and 10 rad/s to
tests/models/data/spin_up_reference.csv, which tests/models/test_spin_up_beam.py compares with.

    python benchmarks/spin_up_beam_reference.py [--elements 10] [--step 5e-3]
"""
import argparse
import sys
from pathlib import Path

import exudyn as exu
import numpy as np
from exudyn.itemInterface import (CoordinateConstraint, MarkerNodeCoordinate, NodePoint2DSlope1, NodePointGround,
                                  ObjectANCFCable2D, SensorNode)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from floatframe.models.spin_up_beam import (AXIAL_STIFFNESS, BENDING_STIFFNESS, LENGTH, MASS_PER_LENGTH,  # noqa: E402
                                            hub_angle)

OUTPUT = Path(__file__).resolve().parents[1] / "tests" / "models" / "data" / "spin_up_reference.csv"
SAMPLE = 0.05   # [s] between written values


def exact_tip_deflection(spin: float, elements: int, step: float, end_time: float = 20.0):
    """(times [s], tip deflection in the rotating frame [m]) of the ANCF cable for the final speed ``spin`` [rad/s]."""
    container = exu.SystemContainer()
    mbs = container.AddSystem()
    ground = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=mbs.AddNode(NodePointGround()), coordinate=0))
    nodes = [mbs.AddNode(NodePoint2DSlope1(referenceCoordinates=[LENGTH * i / elements, 0.0, 1.0, 0.0]))
             for i in range(elements + 1)]
    for first, second in zip(nodes[:-1], nodes[1:]):
        mbs.AddObject(ObjectANCFCable2D(physicsMassPerLength=MASS_PER_LENGTH, physicsBendingStiffness=BENDING_STIFFNESS,
                                        physicsAxialStiffness=AXIAL_STIFFNESS, physicsLength=LENGTH / elements,
                                        nodeNumbers=[first, second]))
    offsets = (lambda mbs, t, item, offset: 0.0, lambda mbs, t, item, offset: 0.0,          # x, y of the root
               lambda mbs, t, item, offset: np.cos(hub_angle(t, spin)) - 1.0,            # slope change from (1, 0)
               lambda mbs, t, item, offset: np.sin(hub_angle(t, spin)))
    for coordinate, offset in enumerate(offsets):
        root = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=nodes[0], coordinate=coordinate))
        mbs.AddObject(CoordinateConstraint(markerNumbers=[ground, root], offsetUserFunction=offset))
    sensor = mbs.AddSensor(SensorNode(nodeNumber=nodes[-1], storeInternal=True,
                                      outputVariableType=exu.OutputVariableType.Position))
    mbs.Assemble()
    settings = exu.SimulationSettings()
    settings.timeIntegration.numberOfSteps = int(round(end_time / step))
    settings.timeIntegration.endTime = end_time
    settings.timeIntegration.generalizedAlpha.spectralRadius = 0.8
    settings.timeIntegration.verboseMode = 0
    settings.solutionSettings.writeSolutionToFile = False
    exu.SolveDynamic(mbs, settings)
    data = mbs.GetSensorStoredData(sensor)
    angle = np.array([hub_angle(t, spin) for t in data[:, 0]])
    return data[:, 0], -data[:, 1] * np.sin(angle) + data[:, 2] * np.cos(angle)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--elements", type=int, default=10)
    parser.add_argument("--step", type=float, default=5e-3)
    args = parser.parse_args(argv)
    samples = np.arange(0.0, 20.0 + 1e-9, SAMPLE)
    columns = [samples]
    for spin in (4.0, 10.0):
        times, tip = exact_tip_deflection(spin, args.elements, args.step)
        columns.append(np.interp(samples, times, tip))
        print(f"Omega_s = {spin:g} rad/s: peak {tip.min():.4f} m at {times[tip.argmin()]:.2f} s, "
              f"at 20 s {tip[-1]:.5f} m ({args.elements} ANCF elements, step {args.step:g} s)")
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    np.savetxt(OUTPUT, np.column_stack(columns), delimiter=",", fmt="%.8g",
               header=f"t [s], tip deflection [m] at Omega_s = 4 and 10 rad/s (Exudyn ANCF cable, {args.elements} "
                      f"elements, step {args.step:g} s; python benchmarks/spin_up_beam_reference.py)")


if __name__ == "__main__":
    main()
