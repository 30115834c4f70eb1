"""The buffers of the C step loop: native.py's BUFFERS names them in the order of native_loop.c's B_* enum (the pool's
layout is computed in C, the names given in Python), and the pool a solve wires has each buffer's size."""
import re

import numpy as np
import pytest

from floatframe.models.pendulum import build_pendulum
from floatframe.solvers import GeneralizedAlpha, native
from floatframe.solvers.compiling import compiler


def c_buffer_enum() -> list:
    """The members of native_loop.c's enum of buffers (B_Q, ...), BUFFER_COUNT left off, in their order."""
    source = native.SOURCE.read_text()
    enums = [body for body in re.findall(r"enum\s*\{([^}]*)\}", source) if body.strip().startswith("B_")]
    assert len(enums) == 1
    members = [member.strip() for member in enums[0].split(",")]
    assert members[-1] == "BUFFER_COUNT" and all(re.fullmatch(r"B_[A-Z_]+", name) for name in members[:-1])
    return members[:-1]


def test_buffers_follow_the_c_enum():
    """BUFFERS, upper-cased with B_, is the enum member for member; the layout's table of sizes has one a buffer."""
    assert [f"B_{name.upper()}" for name in native.BUFFERS] == c_buffer_enum()
    counts = re.search(r"counts\[BUFFER_COUNT\]\s*=\s*\{([^}]*)\}", native.SOURCE.read_text())
    assert len(counts.group(1).split(",")) == len(native.BUFFERS) == 25


@pytest.mark.skipif(compiler() is None, reason="the C step loop needs a C compiler")
def test_a_solves_buffers_have_their_sizes():
    """After a pendulum solve in C, each named buffer of the pool has the size its name says (n coordinates, m
    multipliers, s = n + m)."""
    system = build_pendulum()[0].assemble()
    scheme = GeneralizedAlpha(compile=True)
    result = scheme.solve(system, 0.1, 10)
    assert result.info["native_steps"] == 10
    n, m = system.n_coordinates, system.n_multipliers
    s = n + m
    expected = dict(q=n, v=n, a_state=n, abar=n, lam_state=m, t_next=1, scheme=8, u=0,
                    p=system.parameters_now().size, a=n, lam=m, factors=s * s, permutation=s * s, a_new=n, lam_new=m,
                    iterate_rows=s, scalars=3, q_new=n, v_new=n, abar_new=n, rows_out=s, matrix_out=s * s,
                    initial_matrix=s * s, initial_rows=s)
    buffers = scheme._native.buffers
    assert list(buffers) == list(native.BUFFERS)
    assert {name: buffers[name].size for name in expected} == expected
    assert np.array_equal(buffers["q"], result.q[-1]) and m > 0 and n != m
