"""Exudyn's ``exudyn.basicUtilities``: the numerical helpers (vector norm, Gauss and Lobatto quadrature), the
solution-file reader.

``LoadSolutionFile`` and ``LoadBinarySolutionFile`` read coordinates solution files (text and binary). Names Exudyn
1.13.6 has there that the layer lacks (the low-level binary read helpers, sensor recorders, item highlighting) raise
an error naming them.
"""
from __future__ import annotations

import math

import numpy as np

from floatframe.exudyn._solution_file import BINARY_MARK, read_binary_solution_file
from floatframe.exudyn._unknown import module_getattr

g = 9.81                  # Exudyn's standard gravity [m/s^2]
pi = math.pi
sqrt2 = math.sqrt(2.0)



def _gauss_points(count: int):
    points, weights = np.polynomial.legendre.leggauss(count)
    return [float(p) for p in points], [float(w) for w in weights]


def _lobatto_points(count: int):
    """Gauss-Lobatto points (ends and the roots of P'_{n-1}) and weights on [-1, 1]."""
    degree = count - 1
    legendre = np.polynomial.legendre.Legendre.basis(degree)
    inner = sorted(float(r) for r in legendre.deriv().roots().real) if degree > 1 else []
    points = [-1.0, *inner, 1.0]
    weights = [2.0 / (degree * (degree + 1) * float(legendre(x)) ** 2) for x in points]
    return points, weights


# point lists for 1..5 Gauss points (exact to degree 1, 3, ..., 9) and 2..4 Lobatto points (1, 3, 5), as Exudyn
gaussIntegrationPoints, gaussIntegrationWeights = map(list, zip(*(_gauss_points(n) for n in range(1, 6))))
lobattoIntegrationPoints, lobattoIntegrationWeights = map(list, zip(*(_lobatto_points(n) for n in range(2, 5))))


def _integrate(function, order: int, a: float, b: float, points, weights, rule: str):
    index = (order - 1) // 2     # Gauss: n points exact to degree 2n - 1; Lobatto: n + 1 points, 2n - 1
    if order < 1 or order % 2 == 0 or index >= len(points):
        raise ValueError(f"{rule}: integration order {order} is not one of 1, 3, ..., {2 * len(points) - 1}")
    half, middle = 0.5 * (b - a), 0.5 * (b + a)
    return sum(w * function(middle + half * x) for x, w in zip(points[index], weights[index])) * half


def GaussIntegrate(functionOfX, integrationOrder, a, b):
    """Integral of ``functionOfX`` over [a, b], exact for polynomials of degree ``integrationOrder`` (odd, 1..9)."""
    return _integrate(functionOfX, integrationOrder, a, b, gaussIntegrationPoints, gaussIntegrationWeights,
                      "GaussIntegrate")


def LobattoIntegrate(functionOfX, integrationOrder, a, b):
    """As :func:`GaussIntegrate`, with Lobatto points (the interval ends included); odd orders 1, 3, 5."""
    return _integrate(functionOfX, integrationOrder, a, b, lobattoIntegrationPoints, lobattoIntegrationWeights,
                      "LobattoIntegrate")


def Normalize(v):
    """``v`` divided by its Euclidean norm, as a list (a zero vector stays zero, as in Exudyn)."""
    vector = np.asarray(v, dtype=float)
    norm = float(np.linalg.norm(vector))
    return [float(x) for x in (vector / norm if norm else vector)]


def LoadSolutionFile(fileName, safeMode=False, maxRows=-1, verbose=True, hasHeader=True) -> dict:
    """A coordinates solution file (as SolveDynamic/SolveStatic write it, or Exudyn's) as a dict.

    Returns 'data' ((rows, 1 + nColumns): time, then the exported coordinates), 'columnsExported' ([nODE2, nVel2,
    nAcc2, nODE1, nVel1, nAlgebraic, nData] from the header; [] without one), 'nColumns' and 'nRows'. With
    ``safeMode`` rows whose column count differs (a file cut off during a solve) are skipped and at most ``maxRows``
    rows are read (-1: all). A binary file (starting with EXUBIN) is read by :func:`LoadBinarySolutionFile`.
    """
    path = str(fileName)
    with open(path, "rb") as stream:
        if stream.read(len(BINARY_MARK)) == BINARY_MARK:
            return LoadBinarySolutionFile(path, maxRows, verbose, safeMode=safeMode)
    try:
        with open(path, encoding="utf-8") as stream:
            lines = stream.read().splitlines()
    except UnicodeDecodeError:
        raise ValueError(f"LoadSolutionFile: '{path}' is neither text nor a binary solution file with its header "
                         f"(EXUBIN...): a binary file written with writeHeader = False cannot be read") from None
    columns_exported = []
    if hasHeader:
        header = lines[:5]
        if len(header) < 5 or not header[4].startswith("#number of written coordinates"):
            raise ValueError(f"LoadSolutionFile: '{path}' has no solution-file header (its fifth line should be "
                             f"'#number of written coordinates [...] = [...]')")
        columns_exported = [int(n) for n in header[4].split("=")[1].strip(" []").split(",")]
    rows = [line.split(",") for line in lines if line and not line.startswith("#")]
    n_values = sum(columns_exported) + 1 if hasHeader else (len(rows[0]) if rows else 1)
    if safeMode:
        rows = [row for row in rows if len(row) == n_values]
        rows = rows[:maxRows] if maxRows >= 0 else rows
    elif any(len(row) != n_values for row in rows):
        raise ValueError(f"LoadSolutionFile: '{path}' has rows without {n_values} values (use safeMode=True to "
                         f"skip them)")
    data = np.array(rows, dtype=float).reshape(-1, n_values)
    if verbose:
        print(f"LoadSolutionFile: {data.shape[0]} rows of {n_values} columns (incl. time) from '{path}'")
    return {"data": data, "columnsExported": columns_exported, "nColumns": n_values - 1, "nRows": data.shape[0]}


def LoadBinarySolutionFile(fileName, maxRows=-1, verbose=True, safeMode=False) -> dict:
    """A binary coordinates solution file (``solution.file.binary``, floatframe's or Exudyn's) as a dict.

    Returns, as for a text file, 'data' ((rows, 1 + nColumns), in the file's real type: float64, or float32 where it
    was written with fewer than 8 digits), 'columnsExported' (the seven written counts), 'nColumns' and 'nRows';
    at most ``maxRows`` rows (-1: all). A file cut off within a row is refused unless ``safeMode`` (floatframe's
    addition), which keeps the whole rows before the cut; rows without the end marker are read with a warning.
    """
    content = read_binary_solution_file(fileName, maxRows, safeMode)
    data = content["data"]
    if verbose:
        print(f"LoadBinarySolutionFile: {data.shape[0]} rows of {data.shape[1]} columns (incl. time) from "
              f"'{fileName}'")
    return {"data": data, "columnsExported": content["columnsExported"], "nColumns": data.shape[1] - 1,
            "nRows": data.shape[0]}


SUPPORTED = ["g", "pi", "sqrt2", "gaussIntegrationPoints", "gaussIntegrationWeights", "lobattoIntegrationPoints",
             "lobattoIntegrationWeights", "GaussIntegrate", "LobattoIntegrate", "Normalize", "LoadSolutionFile",
             "LoadBinarySolutionFile"]
EXUDYN_NAMES = ["AddSensorRecorder", "AnimateSolution", "BinaryReadArrayIndex", "BinaryReadIndex", "BinaryReadReal",
                "BinaryReadRealVector", "BinaryReadString", "ClearWorkspace", "CreateDirectoryForFile",
                "GetJointArgs", "GetOtherMarker", "HighlightItem",
                "NumpyInt8ArrayToString", "OutputFilePath", "RecoverSolutionFile", "SetSolutionState",
                "ShowOnlyObjects", "SmartRound2String", "UFsensorRecord", "UIWindowSuppressed"]
__all__ = SUPPORTED
__getattr__ = module_getattr("floatframe.exudyn.basicUtilities", SUPPORTED, EXUDYN_NAMES)
