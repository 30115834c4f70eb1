"""FEMinterface.ComputeEigenmodes on a Netgen mesh gives the same bits in every fresh process (skipped without ngsolve
or pypardiso).

Claim: with ngsolve imported first (it loads its own MKL runtime before floatframe asks for MKL's reproducible mode,
as Exudyn's NGsolve scripts do) and PARDISO taking the shift-invert solves, two fresh processes give bit-identical
mode matrices, so a reduced body built from them names the same compiled kernel in both runs."""
import importlib.util
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(importlib.util.find_spec("ngsolve") is None
                                or importlib.util.find_spec("pypardiso") is None, reason="needs ngsolve and pypardiso")

NGSOLVE_MODES_RUN = """
import hashlib, numpy as np
import ngsolve
from netgen.csg import CSGeometry, OrthoBrick, Pnt
import floatframe.linalg
floatframe.linalg.PARDISO_MIN_SIZE = 0          # PARDISO also for this small mesh
import floatframe.exudyn.FEM as layer_fem
geometry = CSGeometry()
geometry.Add(OrthoBrick(Pnt(0, -0.025, -0.025), Pnt(1, 0.025, 0.025)))
mesh = ngsolve.Mesh(geometry.GenerateMesh(maxh=0.02))
fem = layer_fem.FEMinterface()
fem.ImportMeshFromNGsolve(mesh, density=1000, youngsModulus=1e7, poissonsRatio=0.3)
fem.ComputeEigenmodes(10, excludeRigidBodyModes=6, useSparseSolver=True)
modes = np.ascontiguousarray(fem.modeBasis["matrix"], dtype=float)
assert modes.shape[1] == 10 and np.isfinite(modes).all()
print(modes.shape[0], hashlib.sha256(modes.tobytes()).hexdigest())
"""


def test_ngsolve_mesh_modes_are_the_same_bits_in_two_processes():
    environment = {name: value for name, value in os.environ.items() if name != "MKL_CBWR"}
    outputs = [tuple(subprocess.run([sys.executable, "-c", NGSOLVE_MODES_RUN], capture_output=True, text=True,
                                    check=True, env=environment).stdout.split()[-2:]) for _ in range(2)]
    (rows, digest), (rows_again, digest_again) = outputs
    assert int(rows) > 300 and len(digest) == 64
    assert (rows, digest) == (rows_again, digest_again)
