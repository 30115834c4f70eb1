"""Sparse matrix-vector products accurate to the working precision of their result, for FE stiffness matrices
that cancel.

A solid FE mesh of a slender beam in bending moves its nodes nearly rigidly, element by element: the products
K_ij q_j of a row of K q are up to ten million times larger than their sum (Kane's spin-up beam, 40 Hex20 along
10 m, at 0.3 s: sum_j |K_ij q_j| = 1.3e7 N against |K q| = 2 N). Summed in double precision, the elastic forces
then carry a rounding error of eps sum_j |K_ij q_j| that has nothing to do with the displacement: a random
force, which the soft bending modes turn into accelerations (2e-9 N gives 5e-9 m/s^2 there), so a Newton
iteration cannot reduce its updates below that level however often it iterates (docs/geometric_stiffening.md).

:class:`AccurateSparseProduct` computes each row as if the products were summed exactly and rounded once or
twice at the end: every product is split without error into its rounded value and its error (Dekker's
TwoProduct, with Veltkamp's splitting), the rounded products of a row are split at one common power of two
sigma >= 2^M max_j |K_ij| max |q| (2^M >= the row's terms + 2) into a high part, a multiple of eps sigma, which
sums without error in any order, and a low part below eps sigma (Rump, Ogita and Oishi's error-free
extraction, "Accurate floating-point summation part I", SIAM J. Sci. Comput. 31, 2008). The low parts and the
product errors are summed in working precision: their error is eps^2 of the products, not eps. All NumPy
operations on the nonzeros (O(nnz), about 30 times a plain sparse product).

:class:`AccurateProductFunction` is the product x -> A x as an :class:`~floatframe.components.external.ExactFunction`
(its Jacobian the matrix itself) whose numeric value is the accurate one; its CasADi Function (for symbolic uses:
IDAS, optimal control) is the plain product.
"""
from __future__ import annotations

import casadi as ca
import numpy as np
import scipy.sparse as sp

from floatframe.components.external import ExactFunction

SPLITTER = 134217729.0  # 2^27 + 1: Veltkamp's splitting of a double into two halves of 26 bits


def split_halves(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(high, low) with high + low = values exactly, each of at most 26 significant bits (Veltkamp)."""
    scaled = SPLITTER * values
    high = scaled - (scaled - values)
    return high, values - high


class AccurateSparseProduct:
    """y = A x for a constant sparse ``matrix`` A (n, m), each row accurate to a few units of its own last place
    (not of the sum of its terms' magnitudes); see the module docstring. Call with x (m,) -> y (n,)."""

    def __init__(self, matrix):
        matrix = sp.csr_matrix(matrix, dtype=float)
        matrix.sum_duplicates()
        matrix.eliminate_zeros()
        matrix.sort_indices()
        self.shape = matrix.shape
        counts = np.diff(matrix.indptr)
        self.rows = np.flatnonzero(counts)                           # rows with terms
        self.starts = matrix.indptr[:-1][self.rows]                  # where each such row's terms begin
        self.row_of_term = np.repeat(np.arange(self.rows.size), counts[self.rows])
        self.columns = matrix.indices
        self.values = matrix.data
        self.high, self.low = split_halves(matrix.data)
        # sigma = 2^M 2^e with 2^M >= terms + 2 and 2^e > max_j |A_ij| max |x|: the products' common split point
        self.row_bound = np.abs(matrix).max(axis=1).toarray().reshape(-1)[self.rows]
        self.term_factor = np.exp2(np.ceil(np.log2(counts[self.rows] + 2.0)))

    def __call__(self, x) -> np.ndarray:
        x = np.asarray(x, dtype=float).reshape(-1)
        if x.size != self.shape[1]:
            raise ValueError(f"AccurateSparseProduct: x has {x.size} entries, the matrix {self.shape[1]} columns")
        result = np.zeros(self.shape[0])
        if not self.rows.size:
            return result
        terms = x[self.columns]
        products = self.values * terms                                          # rounded products p
        term_high, term_low = split_halves(terms)
        errors = (((self.high * term_high - products) + self.high * term_low + self.low * term_high)
                  + self.low * term_low)                                        # p + errors = A_ij x_j exactly
        largest = float(np.abs(terms).max())
        _, exponents = np.frexp(self.row_bound * largest)                      # row_bound max|x| < 2^e
        sigma = np.ldexp(self.term_factor, exponents)[self.row_of_term]
        high = (sigma + products) - sigma                                       # multiples of eps sigma
        low = products - high                                                   # |low| <= eps sigma
        result[self.rows] = np.add.reduceat(high, self.starts) + (np.add.reduceat(low, self.starts)
                                                                  + np.add.reduceat(errors, self.starts))
        if not np.isfinite(sigma).all() or not np.isfinite(largest):           # beyond the range: plain products
            plain = np.add.reduceat(products, self.starts)
            result[self.rows] = np.where(np.isfinite(result[self.rows]), result[self.rows], plain)
        return result


class AccurateProductFunction(ExactFunction):
    """x (n,) -> A x as an ExactFunction: the Jacobian is A; the numeric value (``values``, what the solvers'
    residual evaluates) is :class:`AccurateSparseProduct`'s; the CasADi Function the plain sparse product."""

    def __init__(self, name: str, matrix):
        matrix = sp.csc_matrix(matrix, dtype=float)
        matrix.sort_indices()
        constant = ca.DM(ca.Sparsity(matrix.shape[0], matrix.shape[1], matrix.indptr.tolist(),
                                     matrix.indices.tolist()), matrix.data)
        x = ca.MX.sym("x", matrix.shape[1])
        super().__init__(name, [x], constant @ x, [ca.MX(constant)])
        self.product = AccurateSparseProduct(matrix)

    def values(self, stacked: np.ndarray) -> np.ndarray:
        """A x at x = ``stacked``, accurate (see :class:`AccurateSparseProduct`), as a column."""
        return self.product(stacked).reshape(self.output_shape)
