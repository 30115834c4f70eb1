"""Tutorial step 2: a flexible body from the built-in mesh.

A steel beam (1 m x 0.1 m x 0.1 m, Hex20 mesh from ``floatframe.fem.block_mesh``) is an FFRF body: a frame
node, one node per mesh node, the body and its Tisserand frame. A revolute joint about z holds the centre
of its left face at the origin, and gravity (-y) swings it down from the horizontal. The steps: nodes,
body, markers, joint, load, sensor; assemble, solve, read the results, plot and export them. It prints the
period measured from the motion of the beam's tip:

    period_s = ...

Run from the repository root:  python docs/examples/flexible_beam.py [--output DIR]
"""
import argparse
from pathlib import Path

import numpy as np

import floatframe as ff
from floatframe.components.ffrf import add_ffrf_body
from floatframe.components.reference_conditions import add_tisserand_frame
from floatframe.export import write_paraview
from floatframe.fem import block_mesh, linear_elastic_matrices

LENGTH, SECTION = 1.0, 0.1                                       # m
STEEL = dict(youngs_modulus=2.1e11, poissons_ratio=0.3, density=7850.0)


def beam_mesh():
    """10 x 1 x 1 Hex20 elements (cubes of 0.1 m), the beam axis on the global x axis.

    The element decides whether the beam bends as a beam. Linear Hex8 elements lock in bending (their
    straight edges cannot bend, so a bending mode also shears them): 4 x 2 x 1 Hex8 give the first
    bending mode at 1011.5 Hz, 1.9 times beam theory's 531.7 Hz. Quadratic Hex20 bend: this mesh gives
    515.0 Hz, 0.3 % above Timoshenko's 513.6 Hz (shear and rotary inertia, which lower Euler-Bernoulli's
    value by 3.4 % for a beam 10 times as long as high), and its tip sags under its own weight, clamped at
    x = 0, by 1.7 % less than Euler-Bernoulli's q L^4 / (8 E I) (tests/docs/test_examples.py holds both).
    """
    mesh = block_mesh(LENGTH, SECTION, SECTION, 10, 1, 1, origin=(0.0, -SECTION / 2, -SECTION / 2),
                      element="Hex20")
    mass, stiffness = linear_elastic_matrices(mesh, **STEEL)    # kg, N/m; scipy.sparse (3N, 3N)
    return mesh, mass, stiffness


def add_hinge_load_and_sensor(system, body, mesh):
    """The parts shared with the reduced body (step 3): markers, joint, load and sensor."""
    # Markers: the left face of the mesh as a rigid frame, and the origin of the ground.
    face = mesh.nodes_in_plane((0.0, 0.0, 0.0), (1.0, 0.0, 0.0))
    face_frame = system.add(ff.MarkerSuperElementRigid(body, face, np.full(face.size, 1.0 / face.size)))
    ground = system.add(ff.ObjectGround())
    origin = system.add(ff.MarkerBodyRigid(ground, [0.0, 0.0, 0.0]))
    # Joint: a hinge about the z axis of both marker frames.
    hinge = system.add(ff.RevoluteJoint([origin, face_frame], name="hinge"))
    # Load: gravity on the whole body, through a body-mass marker.
    system.add(ff.LoadMassProportional(system.add(ff.MarkerBodyMass(body)), [0.0, -9.81, 0.0]))
    # Sensor: the global position of the mesh node at the tip, on the x-y plane of the hinge axis.
    tip = mesh.node_at_point((LENGTH, 0.0, -SECTION / 2))
    return hinge, system.add(ff.SensorSuperElement(body, tip, "Position", name="tip"))


def quarter_crossings(t, x):
    """Times at which x changes sign (the beam passes the vertical), by linear interpolation."""
    k = np.flatnonzero(np.sign(x[:-1]) != np.sign(x[1:]))
    return t[k] - x[k] * (t[k + 1] - t[k]) / (x[k + 1] - x[k])


def period_from(result, sensor):
    """Period [s]: the beam passes the vertical at T/4 and 3T/4."""
    crossings = quarter_crossings(result.t, result.sensor(sensor)[:, 0])
    return 2 * (crossings[1] - crossings[0])


def plot(result, sensor, path, label):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    tip = result.sensor(sensor)
    figure, axes = plt.subplots(figsize=(6, 3))
    axes.plot(result.t, tip[:, 0], label="x")
    axes.plot(result.t, tip[:, 1], label="y")
    axes.set_xlabel("t [s]")
    axes.set_ylabel(f"tip position [m], {label}")
    axes.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=100)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", default="output/tutorial", help="folder for the plot, CSV and VTU files")
    output = Path(parser.parse_args(argv).output)
    output.mkdir(parents=True, exist_ok=True)

    mesh, mass, stiffness = beam_mesh()
    system = ff.System()
    # Nodes and body: add_ffrf_body adds the frame node (NodeRigidBodyEP), one NodePoint per mesh node
    # and the ObjectFFRF; the Tisserand frame ties the frame to the mesh's mean motion.
    body = add_ffrf_body(system, mesh.nodes, mass, stiffness, name="beam")
    add_tisserand_frame(system, body)
    hinge, sensor = add_hinge_load_and_sensor(system, body, mesh)

    assembled = system.assemble()
    print(f"{assembled.n_coordinates} coordinates, {assembled.n_multipliers} multipliers")
    result = ff.GeneralizedAlpha(spectral_radius=0.8).solve(assembled, t_end=1.6, n_steps=160)

    # Reading the results: sensors by number; q, v, a (k, n) and lam (k, m) for the whole state. The hinge's
    # first three multipliers are the global force on its marker 0, the ground (conventions page).
    joint = system.objects[hinge]
    force = result.lam[-1, joint.multiplier_indices[:3]]
    print(f"tip at t = {result.t[-1]:g} s: {np.round(result.sensor(sensor)[-1], 4)} m; hinge force on the "
          f"ground {np.round(force, 1)} N; {result.statistics.steps} steps, "
          f"{result.statistics.newton_iterations} Newton iterations")
    result.write_csv(output / "flexible_beam_tip.csv", sensor)
    plot(result, sensor, output / "flexible_beam.png", "full FFRF body")
    pvd = write_paraview(output / "flexible_beam", assembled, body, mesh.to_meshio().cells_dict, result)
    print(f"wrote {pvd} ({result.t.size} VTU files)")
    print(f"period_s = {period_from(result, sensor):.6f}")


if __name__ == "__main__":
    main()
