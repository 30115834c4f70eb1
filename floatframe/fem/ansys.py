"""Readers for matrices and meshes exported from Ansys.

Formats (as Ansys writes them and as Exudyn reads them):

* matrices: Matrix Market coordinate files (APDL ``*SMAT`` + ``*EXPORT,...,MMF``), 1-based, a symmetric matrix
  stored as one triangle; or a dense comma-separated matrix (``*DMAT`` exported as text);
* the DOF mapping vector: a Matrix Market array (n x 1) of Ansys node numbers, entry i naming the node of the
  matrix's coordinates 3 i, 3 i + 1, 3 i + 2 (3 coordinates a node);
* nodal coordinates: a tab-separated text file (a named selection of mesh nodes exported from Workbench): one
  header line, then ``node x y z`` per line, decimal commas allowed;
* elements: a text file of the same kind: one header line, then ``number type node node ...`` per line, the
  element numbers 1, 2, 3, ... in order, the node numbers 1-based.
"""

from pathlib import Path

import numpy as np
import scipy.io
import scipy.sparse as sp

from .mesh import NODES_PER_ELEMENT


def read_ansys_dof_mapping(path) -> np.ndarray:
    """Matrix coordinate -> mesh coordinate of an Ansys DOF mapping vector file.

    Parameters
    ----------
    path : str or Path
        Matrix Market array file with one column of 1-based node numbers.

    Returns
    -------
    ndarray of int, shape (3 n,)
        Entry ``3 i + k`` is the 0-based coordinate ``3 (node_i - 1) + k`` of the mesh that the matrix's
        coordinate ``3 i + k`` belongs to.
    """
    path = Path(path)
    try:
        table = scipy.io.mmread(path)
    except (ValueError, OSError) as error:
        raise ValueError(f"Ansys DOF mapping vector '{path}': not a Matrix Market array file ({error})") from None
    table = np.asarray(table.toarray() if sp.issparse(table) else table)
    if table.ndim != 2 or table.shape[1] != 1:
        raise ValueError(f"Ansys DOF mapping vector '{path}': expected one column of node numbers, got shape "
                         f"{table.shape}")
    nodes = table[:, 0]
    if np.any(nodes != np.round(nodes)) or np.any(nodes < 1):
        raise ValueError(f"Ansys DOF mapping vector '{path}': entries must be node numbers >= 1")
    first = 3 * (nodes.astype(np.int64) - 1)
    return (first[:, None] + np.arange(3)).reshape(-1)


def read_ansys_matrix(path, dof_mapping_path, dense=False) -> sp.csr_matrix:
    """Mass or stiffness matrix exported from Ansys, in mesh coordinate order.

    Parameters
    ----------
    path : str or Path
        Matrix Market coordinate file (``dense=False``; a symmetric file's triangle is mirrored) or a dense
        comma-separated matrix (``dense=True``).
    dof_mapping_path : str or Path
        The DOF mapping vector file (:func:`read_ansys_dof_mapping`).

    Returns
    -------
    scipy.sparse.csr_matrix
        Entry (mapping[i], mapping[j]) holds the file's entry (i, j) (entries mapped to one place add up); the
        size is the largest mapped coordinate + 1.
    """
    path = Path(path)
    if dense:
        matrix = sp.coo_matrix(np.loadtxt(path, delimiter=",", ndmin=2))
    else:
        try:
            matrix = scipy.io.mmread(path)
        except (ValueError, OSError) as error:
            raise ValueError(f"Ansys matrix '{path}': not a Matrix Market file ({error})") from None
        matrix = sp.coo_matrix(matrix)
    mapping = read_ansys_dof_mapping(dof_mapping_path)
    if max(matrix.shape) > mapping.size:
        raise ValueError(f"Ansys matrix '{path}' ({matrix.shape[0]} x {matrix.shape[1]}) and DOF mapping vector "
                         f"'{dof_mapping_path}' ({mapping.size // 3} nodes, {mapping.size} coordinates) do not fit")
    size = int(mapping.max()) + 1
    return sp.csr_matrix((matrix.data.astype(float), (mapping[matrix.row], mapping[matrix.col])),
                         shape=(size, size))


def _table_lines(path, what):
    """The lines after the header line, split at blanks and tabs (blank lines skipped), with their line numbers."""
    path = Path(path)
    with path.open() as stream:
        lines = stream.read().splitlines()
    if not lines:
        raise ValueError(f"Ansys {what} '{path}': empty file (expected a header line)")
    return path, [(number, line.split()) for number, line in enumerate(lines[1:], start=2) if line.strip()]


def read_ansys_nodes(path) -> np.ndarray:
    """Node positions (N, 3) [m] of an Ansys nodal coordinates export, in increasing node number."""
    path, rows = _table_lines(path, "nodal coordinates")
    numbers, positions = [], []
    for line_number, fields in rows:
        try:
            if len(fields) != 4:
                raise ValueError(f"{len(fields)} fields")
            numbers.append(int(fields[0]))
            positions.append([float(value.replace(",", ".")) for value in fields[1:]])
        except ValueError as error:
            raise ValueError(f"Ansys nodal coordinates '{path}', line {line_number}: expected 'node x y z' "
                             f"({error})") from None
    order = np.argsort(np.asarray(numbers, dtype=np.int64), kind="stable")
    return np.asarray(positions, dtype=float).reshape(-1, 3)[order]


def read_ansys_elements(path) -> dict:
    """Connectivity per element type, {'Hex8': (E, 8), ...}, 0-based node numbers, of an Ansys element export.

    The types must be those of :data:`floatframe.fem.mesh.NODES_PER_ELEMENT` with their number of nodes;
    the element numbers must run 1, 2, 3, ... line by line.
    """
    path, rows = _table_lines(path, "elements")
    connectivity = {}
    for expected, (line_number, fields) in enumerate(rows, start=1):
        where = f"Ansys elements '{path}', line {line_number}"
        try:
            number, kind, nodes = int(fields[0]), fields[1], [int(node) - 1 for node in fields[2:]]
        except (ValueError, IndexError):
            raise ValueError(f"{where}: expected 'number type node node ...'") from None
        if number != expected:
            raise ValueError(f"{where}: element number {number}, expected {expected} (numbers must run 1, 2, ...)")
        if kind not in NODES_PER_ELEMENT:
            raise ValueError(f"{where}: element type {kind!r} is not supported ({', '.join(NODES_PER_ELEMENT)})")
        if len(nodes) != NODES_PER_ELEMENT[kind]:
            raise ValueError(f"{where}: a {kind} element has {NODES_PER_ELEMENT[kind]} nodes, got {len(nodes)}")
        connectivity.setdefault(kind, []).append(nodes)
    return {kind: np.asarray(rows_, dtype=np.int64) for kind, rows_ in connectivity.items()}
