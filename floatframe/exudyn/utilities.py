"""Exudyn's ``utilities`` for FFRF scripts: rotation helpers, matrix helpers and the item classes.

``from floatframe.exudyn.utilities import *`` gives a script what ``from exudyn.utilities import *``
gives it for the supported items. The rotation helpers call :mod:`floatframe.rotations`.
"""
from __future__ import annotations

from math import pi  # noqa: F401  (scripts use it via the star import)

import numpy as np

from floatframe import rotations
from floatframe.exudyn._items import ITEM_CLASSES, SHORT_NAMES, VISUALIZATION_CLASSES
from floatframe.exudyn._names import ExudynLayerError
from floatframe.exudyn.graphics import color  # noqa: F401  (scripts use it after a star import)
from floatframe.exudyn.graphicsDataUtilities import *  # noqa: F401,F403  (color4... names)

eulerParameters0 = [1.0, 0.0, 0.0, 0.0]


def AngularVelocity2EulerParameters_t(angularVelocity, eulerParameters) -> np.ndarray:
    """theta_t of a global angular velocity for unit Euler parameters."""
    return rotations.euler_parameters_t(angularVelocity, eulerParameters)


def EulerParameters2GLocal(eulerParameters) -> np.ndarray:
    """G_local (3 x 4): body-fixed angular velocity = G_local theta_t."""
    return np.asarray(rotations.g_local(np.asarray(eulerParameters, dtype=float)), dtype=float)


def EulerParameters2G(eulerParameters) -> np.ndarray:
    """G (3 x 4): global angular velocity = G theta_t."""
    return np.asarray(rotations.g_global(np.asarray(eulerParameters, dtype=float)), dtype=float)


def EulerParameters2RotationMatrix(eulerParameters) -> np.ndarray:
    return np.asarray(rotations.rotation_matrix(np.asarray(eulerParameters, dtype=float)), dtype=float)


def RotationMatrix2EulerParameters(rotationMatrix) -> np.ndarray:
    return rotations.euler_parameters_from_rotation_matrix(rotationMatrix)


def Skew(vector) -> np.ndarray:
    """3 x 3 matrix with Skew(a) @ b = a x b."""
    return np.asarray(rotations.skew(np.asarray(vector, dtype=float)), dtype=float)


def ComputeSkewMatrix(v) -> np.ndarray:
    """Skew matrices of the 3-vectors stacked in v: a 3n vector gives (3n x 3), a (3n x m) matrix
    gives (3n x 3m) (column j of v in columns 3j..3j+2)."""
    array = np.asarray(v, dtype=float)
    columns = array.reshape(-1, 1) if array.ndim == 1 else array
    if columns.ndim != 2 or columns.shape[0] % 3:
        raise ExudynLayerError(f"ComputeSkewMatrix: expected 3n entries per column, got shape {array.shape}")
    n = columns.shape[0] // 3
    result = np.zeros((3 * n, 3 * columns.shape[1]))
    for j in range(columns.shape[1]):
        for i in range(n):
            result[3 * i:3 * i + 3, 3 * j:3 * j + 3] = Skew(columns[3 * i:3 * i + 3, j])
    return result


def FillInSubMatrix(subMatrix, destinationMatrix, destRow, destColumn):
    """Copy subMatrix into destinationMatrix (in place) with its upper left corner at (destRow, destColumn)."""
    rows, columns = np.shape(subMatrix)
    destinationMatrix[destRow:destRow + rows, destColumn:destColumn + columns] = subMatrix


globals().update({cls.__name__: cls for cls in ITEM_CLASSES})
globals().update(SHORT_NAMES)
globals().update(VISUALIZATION_CLASSES)
