"""Tutorial step 3: the same beam as a reduced-order body.

The beam of step 2 (``flexible_beam.py``) with its mesh deformation reduced to its 4 lowest free-free
eigenmodes: an ObjectFFRFReducedOrder on a frame node and one NodeGenericODE2 of modal coordinates. The
markers, joint, load and sensor are the same calls. It needs no reference conditions (the modes hold no
rigid-body motion). It prints the first bending frequency, to compare with beam theory, and the period,
to compare with step 2:

    first_bending_hz = ...
    period_s = ...

Run from the repository root:  python docs/examples/reduced_beam.py [--output DIR]
"""
import argparse
from pathlib import Path

import floatframe as ff
from floatframe.components.ffrf_reduced import add_reduced_ffrf_body
from floatframe.fem import eigenmodes
from flexible_beam import add_hinge_load_and_sensor, beam_mesh, period_from, plot


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", default="output/tutorial", help="folder for the plot")
    parser.add_argument("--modes", type=int, default=4, help="number of eigenmodes")
    arguments = parser.parse_args(argv)
    output = Path(arguments.output)
    output.mkdir(parents=True, exist_ok=True)

    mesh, mass, stiffness = beam_mesh()
    modes = eigenmodes(mass, stiffness, arguments.modes)       # free-free, rigid-body modes left out
    print("eigenfrequencies [Hz]: " + ", ".join(f"{f:.1f}" for f in modes.frequencies_hz))
    # Beam theory for the free-free beam: 531.7 Hz (Euler-Bernoulli), 513.6 Hz (Timoshenko).
    print(f"first_bending_hz = {modes.frequencies_hz[0]:.2f}")
    system = ff.System()
    body = add_reduced_ffrf_body(system, mesh.nodes, mass, stiffness, modes, name="beam")
    _, sensor = add_hinge_load_and_sensor(system, body, mesh)

    assembled = system.assemble()
    print(f"{assembled.n_coordinates} coordinates, {assembled.n_multipliers} multipliers")
    result = ff.GeneralizedAlpha(spectral_radius=0.8).solve(assembled, t_end=1.6, n_steps=160)
    plot(result, sensor, output / "reduced_beam.png", f"reduced body, {arguments.modes} modes")
    print(f"period_s = {period_from(result, sensor):.6f}")


if __name__ == "__main__":
    main()
