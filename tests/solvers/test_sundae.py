"""Claims about the peer DAE code SundialsIDA (SUNDIALS IDA through scikit-SUNDAE, floatframe/solvers/sundae.py): it
integrates the same index-1 form as IDAS through the DAE contract alone, agrees with IDAS at tight tolerances, meets
the constraints after each output, and a missing package is one error naming the extra."""
import sys

import numpy as np
import pytest

from floatframe.models.pendulum import build_pendulum
from floatframe.optional import MissingDependencyError
from floatframe.solvers.idas import IDAS
from floatframe.solvers.sundae import SundialsIDA
from model_helpers import ContractOnly

GRID = np.linspace(0.0, 1.0, 21)


@pytest.fixture(scope="module")
def pendulum():
    system, info = build_pendulum()
    return system.assemble(), info.position_sensor


@pytest.fixture(scope="module")
def reference(pendulum):
    system, sensor = pendulum
    return IDAS(rtol=1e-11, atol=1e-14).solve(system, t_grid=GRID).sensor(sensor)


def test_it_agrees_with_idas_to_its_tolerance_and_converges(pendulum, reference):
    pytest.importorskip("sksundae")
    system, sensor = pendulum
    errors = [np.abs(SundialsIDA(rtol=rtol, atol=rtol * 1e-3).solve(system, t_grid=GRID).sensor(sensor)
                     - reference).max() for rtol in (1e-5, 1e-8)]
    assert errors[1] < 1e-6                 # [m], on a 1 m pendulum
    assert errors[1] < errors[0] / 30       # three orders of tolerance: at least 1.5 orders of error


def test_it_runs_on_the_contract_alone_and_meets_the_constraints(pendulum):
    pytest.importorskip("sksundae")
    system, sensor = pendulum
    direct = SundialsIDA(rtol=1e-7).solve(system, t_grid=GRID[:6])
    seen = SundialsIDA(rtol=1e-7).solve(ContractOnly(system), t_grid=GRID[:6])
    assert np.array_equal(direct.q, seen.q)
    assert max(np.abs(system.constraints(t, q)).max() for t, q in zip(direct.t, direct.q)) < 1e-10


def test_without_scikit_sundae_the_error_names_the_extra(pendulum, monkeypatch):
    monkeypatch.setitem(sys.modules, "sksundae", None)        # an import of it now fails
    with pytest.raises(MissingDependencyError, match=r"scikit-sundae.*floatframe\[sundae\]"):
        SundialsIDA().solve(pendulum[0], t_grid=GRID[:3])
