"""Build time of chains of rigid bodies joined by spring-dampers or joints: linear in the number of bodies?

A chain of n rigid bodies, each joined to the previous one (the first to the ground) by a
RigidBodySpringDamper (Tait-Bryan or intrinsic), a TorsionalSpringDamper and a SpringDamper, with a
traced force user function on every SpringDamper; and a chain of n bodies on alternating RevoluteJoints
and UniversalJoints under gravity (the assembly includes its check of redundant constraints). Prints the
assembly time per body for n = 8, 16, 32 and its ratios in one run (linear build: the time per body stays
about constant), and the time of 100 generalized-alpha steps.

Run:  PYTHONPATH=$PWD python benchmarks/springs_build.py
"""
from __future__ import annotations

import time

import numpy as np

import floatframe as ff


def chain(n_bodies, intrinsic):
    system = ff.System()
    ground = system.add(ff.ObjectGround())
    previous = system.add(ff.MarkerBodyRigid(ground, [0.0, 0.0, 0.0]))
    stiffness = np.diag([1e4, 1e4, 1e4, 1e2, 1e2, 1e2])
    for k in range(n_bodies):
        node = system.add(ff.NodeRigidBodyEP([0.3 * (k + 1), 0.0, 0.0, 1.0, 0.0, 0.0, 0.0],
                                             initial_velocities=[0.0, 0.1, 0.0, 0.0, 0.0, 0.0, 0.05]))
        body = system.add(ff.ObjectRigidBody(node, 1.0, [0.01, 0.02, 0.03, 0.0, 0.0, 0.0]))
        left = system.add(ff.MarkerBodyRigid(body, [-0.1, 0.0, 0.0]))
        system.add(ff.RigidBodySpringDamper([previous, left], stiffness, 0.01 * stiffness, intrinsic=intrinsic))
        system.add(ff.TorsionalSpringDamper([previous, left], 5.0, 0.01))
        system.add(ff.SpringDamper([previous, left], 100.0, 1.0, reference_length=0.1,
                                   force_user_function=lambda t, u, v: 100.0 * u + 10.0 * u ** 3 + v))
        previous = system.add(ff.MarkerBodyRigid(body, [0.15, 0.0, 0.0]))
    return system


def joint_chain(n_bodies, _=None):
    system = ff.System()
    ground = system.add(ff.ObjectGround())
    previous = system.add(ff.MarkerBodyRigid(ground, [0.0, 0.0, 0.0]))
    for k in range(n_bodies):
        node = system.add(ff.NodeRigidBodyEP([0.3 * k + 0.15, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]))
        body = system.add(ff.ObjectRigidBody(node, 1.0, [0.01, 0.02, 0.03, 0.0, 0.0, 0.0]))
        left = system.add(ff.MarkerBodyRigid(body, [-0.15, 0.0, 0.0]))
        joint = ff.RevoluteJoint if k % 2 == 0 else ff.UniversalJoint
        system.add(joint([previous, left]))
        previous = system.add(ff.MarkerBodyRigid(body, [0.15, 0.0, 0.0]))
    system.add(ff.Gravity([0.0, -9.81, -1.0]))
    return system


def main():
    for label, build, variant in (("Tait-Bryan springs", chain, False), ("intrinsic springs", chain, True),
                                  ("revolute/universal joints", joint_chain, None)):
        per_body = {}
        for n in (8, 16, 32):
            started = time.perf_counter()
            assembled = build(n, variant).assemble()
            per_body[n] = (time.perf_counter() - started) / n
        started = time.perf_counter()
        ff.GeneralizedAlpha(0.9).solve(assembled, 0.1, 100, progress=False)
        solve = time.perf_counter() - started
        print(f"{label}: build time per body {', '.join(f'n={n}: {t * 1e3:.1f} ms' for n, t in per_body.items())}; "
              f"ratios to n=8: {', '.join(f'{per_body[n] / per_body[8]:.2f}' for n in (16, 32))}; "
              f"100 steps of n=32: {solve:.2f} s")


if __name__ == "__main__":
    main()
