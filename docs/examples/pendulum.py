"""Tutorial step 1: a rigid pendulum.

A rigid body hangs from the ground by a spherical joint. It is released from rest at a small angle, and
its period, measured from the simulation, is printed:

    period_s = ...

Run from the repository root:  python docs/examples/pendulum.py [--output DIR]
"""
import argparse
from pathlib import Path

import numpy as np

import floatframe as ff


def build(length=1.0, mass=2.0, radius_of_gyration=0.2, angle0=0.05, gravity=9.81):
    """The pendulum: returns the System and the numbers of its body and position sensor."""
    system = ff.System()
    # The node: position of the centre of mass and Euler parameters (scalar first) of a turn by angle0
    # about z, so that the pivot, at body-fixed (0, L, 0), lies at the global origin.
    centre = [length * np.sin(angle0), -length * np.cos(angle0), 0.0]
    theta = [np.cos(angle0 / 2), 0.0, 0.0, np.sin(angle0 / 2)]
    node = system.add(ff.NodeRigidBodyEP(centre + theta))
    # The body: mass [kg] and inertia [kg m^2] about its centre of mass, as (Jxx, Jyy, Jzz, Jyz, Jxz, Jxy).
    inertia = mass * radius_of_gyration ** 2
    body = system.add(ff.ObjectRigidBody(node, mass, [inertia, inertia, inertia, 0, 0, 0], name="pendulum"))
    # The joint: a marker on the ground and one on the body, held together.
    ground = system.add(ff.ObjectGround())
    pivot_on_ground = system.add(ff.MarkerBodyPosition(ground, [0.0, 0.0, 0.0]))
    pivot_on_body = system.add(ff.MarkerBodyPosition(body, [0.0, length, 0.0]))
    system.add(ff.SphericalJoint([pivot_on_ground, pivot_on_body], name="pivot"))
    # The load: gravity along -y (Gravity acts on every body with mass).
    system.add(ff.Gravity([0.0, -gravity, 0.0]))
    # The sensor: the global position of the centre of mass.
    sensor = system.add(ff.SensorBody(body, "Position", name="centre"))
    return system, body, sensor


def zero_crossings(t, x):
    """Times at which x changes sign, by linear interpolation."""
    k = np.flatnonzero(np.sign(x[:-1]) != np.sign(x[1:]))
    return t[k] - x[k] * (t[k + 1] - t[k]) / (x[k + 1] - x[k])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", default="output/tutorial", help="folder for the plot")
    output = Path(parser.parse_args(argv).output)

    system, body, sensor = build()
    assembled = system.assemble()
    print(f"{assembled.n_coordinates} coordinates, {assembled.n_multipliers} multipliers")
    # spectral_radius 1: no numerical damping, so the amplitude is kept.
    result = ff.GeneralizedAlpha(spectral_radius=1.0).solve(assembled, t_end=3.0, n_steps=600)
    x = result.sensor(sensor)[:, 0]
    crossings = zero_crossings(result.t, x)
    period = 2 * np.mean(np.diff(crossings))

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    output.mkdir(parents=True, exist_ok=True)
    figure, axes = plt.subplots(figsize=(6, 3))
    axes.plot(result.t, x)
    axes.set_xlabel("t [s]")
    axes.set_ylabel("x of the centre of mass [m]")
    figure.tight_layout()
    figure.savefig(output / "pendulum.png", dpi=100)
    print(f"period_s = {period:.6f}")


if __name__ == "__main__":
    main()
