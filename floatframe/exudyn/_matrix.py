"""MatrixContainer: the matrix holder Exudyn's ObjectFFRF takes (kept as scipy.sparse or dense array)."""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from floatframe.exudyn._names import ExudynLayerError


class MatrixContainer:
    """A dense or sparse matrix for ``massMatrixFF``, ``stiffnessMatrixFF``, ``dampingMatrixFF``.

    ``MatrixContainer(matrix)`` takes a NumPy array or a scipy.sparse matrix directly.
    """

    def __init__(self, matrix=None):
        self.matrix = None
        self.declared_shape = None   # sparse triplets beyond numberOfRows x numberOfColumns: that shape (see below)
        if matrix is not None:
            if sp.issparse(matrix):
                self.SetWithSparseMatrix(matrix)
            else:
                self.SetWithDenseMatrix(matrix)

    def SetWithDenseMatrix(self, pyArray, useDenseMatrix=False, bandwidth=0):
        """Store a dense matrix (as sparse unless ``useDenseMatrix``)."""
        array = np.asarray(pyArray, dtype=float)
        if array.ndim != 2:
            raise ExudynLayerError(f"MatrixContainer.SetWithDenseMatrix: expected a 2D array, got shape {array.shape}")
        self.matrix = array.copy() if useDenseMatrix else sp.csr_matrix(array)
        self.declared_shape = None

    def SetWithSparseMatrix(self, sparseMatrix, numberOfRows=-1, numberOfColumns=-1, useDenseMatrix=False,
                            factor=1.0):
        """Store a scipy.sparse matrix, or sparse triplets [row, column, value] (a list of lists or an array) of a
        numberOfRows x numberOfColumns matrix (ignored for a scipy matrix), times ``factor`` (Exudyn 1.13.6)."""
        if not sp.issparse(sparseMatrix):
            if not isinstance(sparseMatrix, (list, tuple, np.ndarray)):
                raise ExudynLayerError("MatrixContainer.SetWithSparseMatrix: expected a scipy.sparse matrix or sparse "
                                       f"triplets, got {type(sparseMatrix).__name__}")
            if int(numberOfRows) < 0 or int(numberOfColumns) < 0:
                raise ExudynLayerError("MatrixContainer.SetWithSparseMatrix: sparse triplets need numberOfRows and "
                                       "numberOfColumns")
            self.SetWithSparseMatrixCSR(numberOfRows, numberOfColumns, sparseMatrix, useDenseMatrix, factor)
            return
        matrix = sp.csr_matrix(sparseMatrix, dtype=float) * float(factor)
        self.matrix = matrix.toarray() if useDenseMatrix else matrix
        self.declared_shape = None

    def SetWithSparseMatrixCSR(self, numberOfRowsInit, numberOfColumnsInit, pyArrayCSR, useDenseMatrix=False,
                               factor=1.0):
        """Store a matrix given as rows [row, column, value] (0-based); repeated entries are added.

        Sparse triplets beyond numberOfRows x numberOfColumns are kept, as Exudyn keeps them (a system Jacobian
        user function may return entries at system indices in a container of any size): the matrix then holds
        them (``declared_shape`` the given size), and only the uses that need the given size refuse it."""
        triplets = np.asarray(pyArrayCSR, dtype=float).reshape(-1, 3)
        shape = (int(numberOfRowsInit), int(numberOfColumnsInit))
        rows, columns = triplets[:, 0].astype(int), triplets[:, 1].astype(int)
        if triplets.size and (rows.min() < 0 or columns.min() < 0):
            raise ExudynLayerError("MatrixContainer.SetWithSparseMatrixCSR: a negative index")
        outside = bool(triplets.size) and (rows.max() >= shape[0] or columns.max() >= shape[1])
        if outside and useDenseMatrix:
            raise ExudynLayerError(f"MatrixContainer.SetWithSparseMatrixCSR: an index lies outside the shape {shape}")
        stored = (max(shape[0], rows.max() + 1), max(shape[1], columns.max() + 1)) if outside else shape
        matrix = sp.csr_matrix((triplets[:, 2] * float(factor), (rows, columns)), shape=stored)
        self.matrix = matrix.toarray() if useDenseMatrix else matrix
        self.declared_shape = shape if outside else None

    def check_declared_shape(self, what: str) -> None:
        """Refuse (ExudynLayerError naming ``what``) a container whose sparse triplets lie beyond its size."""
        if self.declared_shape is not None:
            raise ExudynLayerError(f"{what}: the MatrixContainer has entries outside its numberOfRows x "
                                   f"numberOfColumns {self.declared_shape}")

    def GetPythonObject(self):
        """The stored matrix (dense array, or the triplets [row, column, value] of a sparse one)."""
        if self.matrix is None:
            return np.zeros((0, 0))
        if sp.issparse(self.matrix):
            coo = self.matrix.tocoo()
            return np.column_stack([coo.row, coo.col, coo.data])
        return self.matrix.copy()

    def Initialize(self, numberOfRows, numberOfColumns, useDenseMatrix=True):
        """A zero numberOfRows x numberOfColumns matrix, dense or sparse."""
        shape = (int(numberOfRows), int(numberOfColumns))
        self.matrix = np.zeros(shape) if useDenseMatrix else sp.csr_matrix(shape)
        self.declared_shape = None

    def SetAllZero(self):
        """Every entry zero, the size and the storage kept."""
        if self.matrix is not None:
            self.matrix = sp.csr_matrix(self.matrix.shape) if sp.issparse(self.matrix) else np.zeros(self.matrix.shape)

    def AddSparseMatrix(self, sparseMatrix, factor=1.0):
        """Add a scipy sparse matrix or sparse triplets [row, column, value] (times ``factor``) to the stored matrix
        (Initialize it first); entries outside its size are an error."""
        if self.matrix is None:
            raise ExudynLayerError("MatrixContainer.AddSparseMatrix: the container is empty; call Initialize first")
        shape = self.matrix.shape
        if sp.issparse(sparseMatrix):
            addition = sp.coo_matrix(sparseMatrix, dtype=float)
            rows, columns, values = addition.row, addition.col, addition.data
        else:
            triplets = np.asarray(sparseMatrix, dtype=float).reshape(-1, 3)
            rows, columns, values = triplets[:, 0].astype(int), triplets[:, 1].astype(int), triplets[:, 2]
        if rows.size and (rows.max() >= shape[0] or columns.max() >= shape[1] or min(rows.min(), columns.min()) < 0):
            raise ExudynLayerError(f"MatrixContainer.AddSparseMatrix: an entry lies outside the size {shape}")
        addition = sp.csr_matrix((values * float(factor), (rows, columns)), shape=shape)
        self.matrix = self.matrix + addition if sp.issparse(self.matrix) else self.matrix + addition.toarray()

    def Convert2DenseMatrix(self) -> np.ndarray:
        self.check_declared_shape("MatrixContainer.Convert2DenseMatrix")
        if self.matrix is None:
            return np.zeros((0, 0))
        return self.matrix.toarray() if sp.issparse(self.matrix) else self.matrix.copy()

    def UseDenseMatrix(self) -> bool:
        return self.matrix is not None and not sp.issparse(self.matrix)

    def __repr__(self):
        shape = None if self.matrix is None else self.matrix.shape
        return f"MatrixContainer(shape={shape}, sparse={sp.issparse(self.matrix)})"


class _ShapedList(list):
    """A list of float arrays of one shape (Exudyn's Vector3DList, Matrix3DList, ...): ``Append`` and item
    assignment check the shape and refuse others with an ExudynLayerError naming the list and the item;
    ``GetPythonObject`` gives a plain list of the arrays."""

    shape: tuple = ()

    def __init__(self, items=()):
        super().__init__()
        for item in items:
            self.Append(item)

    def _checked(self, item, position) -> np.ndarray:
        try:
            array = np.array(item, dtype=float)
        except (TypeError, ValueError):
            array = None
        if array is None or array.shape != self.shape:
            raise ExudynLayerError(f"{type(self).__name__}: item {position} must have shape {self.shape}, got "
                                   f"{item!r}")
        return array

    def Append(self, item) -> None:
        """Add ``item`` (array_like of the list's shape) at the end."""
        super().append(self._checked(item, len(self)))

    def __setitem__(self, index, item):
        super().__setitem__(index, self._checked(item, index))

    def GetPythonObject(self) -> list:
        """The items as a plain list of arrays."""
        return list(self)


class Vector2DList(_ShapedList):
    """Exudyn's Vector2DList: 2D vectors."""
    shape = (2,)


class Vector3DList(_ShapedList):
    """Exudyn's Vector3DList: 3D vectors (e.g. points of a reeving system or a kinematic tree's offsets)."""
    shape = (3,)


class Vector6DList(_ShapedList):
    """Exudyn's Vector6DList: 6D vectors."""
    shape = (6,)


class Matrix3DList(_ShapedList):
    """Exudyn's Matrix3DList: 3x3 matrices (e.g. a kinematic tree's joint transformations)."""
    shape = (3, 3)


class Matrix6DList(_ShapedList):
    """Exudyn's Matrix6DList: 6x6 matrices."""
    shape = (6, 6)
