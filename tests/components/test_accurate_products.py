"""Accurate sparse products (floatframe.components.accurate_products) and the full FFRF body's option
elastic_forces="accurate": exact row sums where the plain product loses seven digits, the same residual and Newton
matrix as the plain body, and bad input."""
from fractions import Fraction

import numpy as np
import pytest
import scipy.sparse as sp

from floatframe.components import CoordinateConstraint, MarkerNodeCoordinate, NodePointGround
from floatframe.components.accurate_products import AccurateSparseProduct
from floatframe.components.base import ModelError
from floatframe.components.ffrf import add_ffrf_body
from floatframe.fem import block_mesh, linear_elastic_matrices
from floatframe import System


def exact_product(matrix, x) -> np.ndarray:
    """A x with every row summed in rational arithmetic, then rounded once."""
    matrix = sp.csr_matrix(matrix)
    return np.array([float(sum(Fraction(matrix.data[k]) * Fraction(x[matrix.indices[k]])
                               for k in range(matrix.indptr[i], matrix.indptr[i + 1])))
                     for i in range(matrix.shape[0])])


def beam_in_bending(elements=10):
    """The stiffness of a 10 m Hex20 beam of 0.0775 m square section (Kane's spin-up beam) and a bending field
    w = 1e-3 (x / L)^2 along y with its section rotation: every node nearly rigidly displaced."""
    width = np.sqrt(12 * 1.4e4 / 2.8e7)
    mesh = block_mesh(10.0, width, width, elements, 1, 1, element="Hex20")
    mesh.nodes[:, 1:] -= width / 2
    _, stiffness = linear_elastic_matrices(mesh, 2.8e7 / width ** 2, 0.0, 1.2 / width ** 2)
    x, y = mesh.nodes[:, 0], mesh.nodes[:, 1]
    field = np.zeros_like(mesh.nodes)
    field[:, 1] = 1e-3 * (x / 10.0) ** 2
    field[:, 0] = -y * 2e-3 * x / 100.0                                    # -y w'(x): plane sections
    return mesh, stiffness, field.reshape(-1)


def test_rows_are_exact_where_the_plain_product_cancels():
    """Rows of a random matrix that annihilates a constant vector, against a nearly constant x: the plain product
    keeps about 8 digits, the accurate one equals the exactly summed, once rounded row to 1 unit in its last place."""
    generator = np.random.default_rng(3)
    for trial in range(5):
        dense = sp.random(40, 40, density=0.4, random_state=trial).toarray()
        dense[dense != 0] = generator.standard_normal(np.count_nonzero(dense)) * 10.0 ** generator.integers(-3, 10, np.count_nonzero(dense))
        dense -= np.diag(dense.sum(axis=1))                                   # A 1 = 0
        matrix = sp.csr_matrix(dense)
        x = 1e-3 + 1e-12 * generator.standard_normal(40)
        exact = exact_product(matrix, x)
        accurate = AccurateSparseProduct(matrix)(x)
        assert np.all(np.abs(accurate - exact) <= np.spacing(np.abs(exact)))
        assert np.max(np.abs(matrix @ x - exact) / np.abs(exact)) > 1e-9


def test_beam_in_bending_loses_digits_only_in_the_plain_product():
    """K q_f of the spin-up beam in bending: sum |K_ij q_j| is 1e5 times |K q_f| and more. Measured against
    s_i = max_j |K_ij| max |q| (the products' scale): the plain product is off by 7e-16 s_i, the accurate one by at
    most u^2 (terms)^2 2^M s_i < 1e-26 s_i (measured 3e-29, u = 2^-53, the bound of one error-free extraction)."""
    _, stiffness, field = beam_in_bending()
    exact = exact_product(stiffness, field)
    magnitude = abs(stiffness) @ np.abs(field)
    assert np.linalg.norm(magnitude) > 1e5 * np.linalg.norm(exact)
    scale = abs(stiffness).max(axis=1).toarray().reshape(-1) * np.abs(field).max()
    assert np.max(np.abs(AccurateSparseProduct(stiffness)(field) - exact) / scale) < 1e-26
    assert np.max(np.abs(stiffness @ field - exact) / scale) > 1e-16


def test_empty_rows_zero_vector_and_wrong_size():
    matrix = sp.csr_matrix(np.array([[0.0, 0.0], [2.0, -3.0]]))
    product = AccurateSparseProduct(matrix)
    assert product(np.array([1.5, 1.0])).tolist() == [0.0, 0.0]
    assert product(np.zeros(2)).tolist() == [0.0, 0.0]
    with pytest.raises(ValueError, match="3 entries, the matrix 2 columns"):
        product(np.ones(3))


def clamped_body(elastic_forces):
    """A 4-element Hex20 beam as a full FFRF body clamped at x = 0 by CoordinateConstraints, assembled."""
    mesh, _, _ = beam_in_bending(4)
    width = np.sqrt(12 * 1.4e4 / 2.8e7)
    mass, stiffness = linear_elastic_matrices(mesh, 2.8e7 / width ** 2, 0.0, 1.2 / width ** 2)
    system = System()
    body = add_ffrf_body(system, mesh.nodes, mass, stiffness, name="beam", elastic_forces=elastic_forces,
                         angular_velocity=(0.0, 0.0, 2.0))
    ground = system.add(MarkerNodeCoordinate(system.add(NodePointGround((0.0, 0.0, 0.0))), 0))
    for node in np.flatnonzero(np.isclose(mesh.nodes[:, 0], 0.0)):
        for k in range(3):
            system.add(CoordinateConstraint([ground, system.add(MarkerNodeCoordinate(body.node_numbers[1 + node], k))]))
    return body, system.assemble()


def test_accurate_body_has_the_plain_residual_and_newton_matrix():
    """At a bent, spinning state the residuals agree to rounding of the plain sum (1e-10 of sum |K_ij q_j|), the
    Newton matrices to 1e-12 of their largest entry."""
    _, plain = clamped_body("plain")
    body, accurate = clamped_body("accurate")
    _, _, field = beam_in_bending(4)
    n = plain.n_coordinates
    generator = np.random.default_rng(1)
    q = np.zeros(n)
    q[body.coordinate_indices[7:]] = field
    v, a = generator.standard_normal(n) * 1e-2, generator.standard_normal(n) * 1e-2
    lam = generator.standard_normal(plain.n_multipliers)
    scale = np.max(abs(body.stiffness_matrix_ff) @ np.abs(field))
    difference = accurate.residual(0.1, q, v, a, lam) - plain.residual(0.1, q, v, a, lam)
    assert np.max(np.abs(difference)) < 1e-10 * scale
    newton_plain = plain.newton_matrix(0.1, q, v, a, lam, 1.0, 0.5, 0.25).toarray()
    newton_accurate = accurate.newton_matrix(0.1, q, v, a, lam, 1.0, 0.5, 0.25).toarray()
    assert np.max(np.abs(newton_accurate - newton_plain)) < 1e-12 * np.max(np.abs(newton_plain))


def test_unknown_elastic_forces_is_refused_naming_the_body():
    mesh = block_mesh(1.0, 0.1, 0.1, 2, 1, 1, element="Hex8")
    mass, stiffness = linear_elastic_matrices(mesh, 1e9, 0.3, 1000.0)
    with pytest.raises(ModelError, match="beam.*elastic_forces must be 'plain' or 'accurate', got 'exact'"):
        add_ffrf_body(System(), mesh.nodes, mass, stiffness, name="beam", elastic_forces="exact")
