"""Readers for Abaqus input files (nodes and solid elements) and exported matrices (.mtx)."""

import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from .mesh import NODES_PER_ELEMENT, Mesh

ELEMENT_TYPES = {
    "C3D8": "Hex8", "C3D8R": "Hex8", "C3D8I": "Hex8", "C3D8H": "Hex8", "C3D8RH": "Hex8",
    "C3D4": "Tet4", "C3D4H": "Tet4",
    "C3D10": "Tet10", "C3D10H": "Tet10", "C3D10M": "Tet10", "C3D10MH": "Tet10", "C3D10HS": "Tet10",
    "C3D20": "Hex20", "C3D20R": "Hex20", "C3D20H": "Hex20", "C3D20RH": "Hex20",
}

_SEPARATORS = re.compile(r"[,\s]+")


def read_abaqus_inp(path, instance: str | None = None) -> Mesh:
    """Mesh from the ``*Node`` and ``*Element`` blocks of an Abaqus input file.

    Parameters
    ----------
    path : str or Path
        The ``.inp`` file; coordinates are taken as [m].
    instance : str, optional
        Read the ``*Instance, name=...`` section with this name (case-insensitive); if it has
        no nodes of its own, read the part it instantiates. Default: the first ``*Part`` with
        nodes, else the first ``*Instance`` with nodes, else the whole file.

    Returns
    -------
    Mesh
        Nodes renumbered 0-based in increasing Abaqus node number; element types C3D8, C3D8R,
        C3D8I, C3D8H, C3D8RH become ``'Hex8'``, C3D4, C3D4H ``'Tet4'``, C3D10, C3D10H, C3D10M,
        C3D10MH, C3D10HS ``'Tet10'``, C3D20, C3D20R, C3D20H, C3D20RH ``'Hex20'``, in Abaqus's node
        order. Only the connectivity is read: the element formulation is chosen when the matrices
        are computed (:func:`floatframe.fem.stiffness_matrix`).
    """
    path = Path(path)
    cards = _parse_cards(path)
    section = _select_section(cards, instance, path)
    return _mesh_from_cards(section, path)


def read_abaqus_mtx(path, size: int | None = None) -> sp.csr_matrix:
    """Sparse matrix from an Abaqus ``*MATRIX OUTPUT, FORMAT=COORDINATE`` file.

    Each line is ``row col value`` (1-based coordinates) or ``node dof node dof value``
    (1-based, coordinate ``3 (node - 1) + (dof - 1)``), separated by commas and/or blanks.
    The file is expected in full symmetric storage; a file holding only one triangle
    (no entry on the other side of the diagonal) is mirrored.

    Parameters
    ----------
    path : str or Path
        The ``.mtx`` file.
    size : int, optional
        Matrix dimension; default the largest coordinate in the file.

    Returns
    -------
    scipy.sparse.csr_matrix, shape (size, size)
    """
    path = Path(path)
    rows, cols, values = [], [], []
    with path.open() as lines:
        for number, line in enumerate(lines, start=1):
            text = line.strip()
            if not text or text.startswith("*"):
                continue
            fields = _SEPARATORS.split(text.strip(", "))
            try:
                if len(fields) == 3:
                    row, col, value = int(fields[0]) - 1, int(fields[1]) - 1, float(fields[2])
                elif len(fields) == 5:
                    row = 3 * (int(fields[0]) - 1) + int(fields[1]) - 1
                    col = 3 * (int(fields[2]) - 1) + int(fields[3]) - 1
                    value = float(fields[4])
                else:
                    raise ValueError(f"expected 3 or 5 fields, got {len(fields)}")
                if row < 0 or col < 0:
                    raise ValueError("indices are 1-based and must be positive")
            except ValueError as error:
                raise ValueError(f"{path}:{number}: malformed matrix entry {text!r}: {error}") from None
            rows.append(row)
            cols.append(col)
            values.append(value)
    if not rows:
        raise ValueError(f"{path}: no matrix entries")
    rows, cols, values = np.array(rows), np.array(cols), np.array(values)
    n = int(max(rows.max(), cols.max())) + 1 if size is None else size
    if rows.max() >= n or cols.max() >= n:
        raise ValueError(f"{path}: entries beyond the requested size {n}")
    if np.all(rows >= cols) or np.all(rows <= cols):
        off_diagonal = rows != cols
        rows, cols, values = (np.concatenate([rows, cols[off_diagonal]]),
                              np.concatenate([cols, rows[off_diagonal]]),
                              np.concatenate([values, values[off_diagonal]]))
    return sp.csr_matrix((values, (rows, cols)), shape=(n, n))


@dataclass
class _Card:
    """One keyword line: lower-case keyword, lower-case parameter names, its data lines."""

    keyword: str
    parameters: dict
    line_number: int
    data: list = field(default_factory=list)


def _parse_cards(path):
    cards = []
    with path.open() as lines:
        for number, line in enumerate(lines, start=1):
            text = line.strip()
            if not text or text.startswith("**"):
                continue
            if text.startswith("*"):
                keyword, *options = [item.strip() for item in text[1:].split(",")]
                parameters = {}
                for option in filter(None, options):
                    name, _, value = option.partition("=")
                    parameters[name.strip().lower()] = value.strip()
                cards.append(_Card(keyword.lower(), parameters, number))
            elif cards:
                cards[-1].data.append((number, text))
    return cards


@dataclass
class _Section:
    """A ``*Part`` or ``*Instance`` card and the cards up to its ``*End``."""

    header: _Card
    cards: list = field(default_factory=list)

    @property
    def name(self):
        return self.header.parameters.get("name", "").lower()

    @property
    def has_nodes(self):
        return any(card.keyword == "node" for card in self.cards)


def _split_sections(cards):
    sections, current = {"part": [], "instance": []}, None
    for card in cards:
        if card.keyword in sections:
            current = _Section(card)
            sections[card.keyword].append(current)
        elif card.keyword in ("end part", "end instance"):
            current = None
        elif current is not None:
            current.cards.append(card)
    return sections["part"], sections["instance"]


def _select_section(cards, instance, path):
    """The cards holding the mesh: see :func:`read_abaqus_inp` for the choice."""
    parts, instances = _split_sections(cards)
    if instance is None:
        for section in parts + instances:
            if section.has_nodes:
                if section.header.keyword == "instance":
                    _require_unpositioned(section.header, path)
                return section.cards
        return cards
    matches = [section for section in instances if section.name == instance.lower()]
    if not matches:
        raise ValueError(f"{path}: no *Instance named {instance!r}; instances: {[s.name for s in instances]}")
    chosen = matches[0]
    _require_unpositioned(chosen.header, path)
    if chosen.has_nodes:
        return chosen.cards
    part_name = chosen.header.parameters.get("part", "").lower()
    for part in parts:
        if part.name == part_name and part.has_nodes:
            return part.cards
    raise ValueError(f"{path}:{chosen.header.line_number}: instance {instance!r} and its part have no *Node")


def _require_unpositioned(instance_card, path):
    """Reject instances with a non-zero translation or rotation (data lines of ``*Instance``)."""
    for number, text in instance_card.data:
        values = _numbers(text, float, path, number)
        moves = values[:3] if len(values) == 3 else values[6:7]
        if any(value != 0.0 for value in moves):
            raise ValueError(f"{path}:{number}: positioned instances (translation/rotation) are not supported")


def _mesh_from_cards(cards, path):
    node_ids, coordinates = [], []
    element_rows = {kind: [] for kind in NODES_PER_ELEMENT}
    for card in cards:
        if card.keyword == "node":
            for number, text in card.data:
                values = _numbers(text, float, path, number)
                if len(values) not in (3, 4) or values[0] != int(values[0]):
                    raise ValueError(f"{path}:{number}: expected 'node, x, y[, z]', got {text!r}")
                node_ids.append(int(values[0]))
                coordinates.append(list(values[1:]) + [0.0] * (4 - len(values)))
        elif card.keyword == "element":
            abaqus_type = card.parameters.get("type", "").upper()
            if abaqus_type not in ELEMENT_TYPES:
                raise ValueError(f"{path}:{card.line_number}: unsupported element type {abaqus_type!r}; "
                                 f"supported: {sorted(ELEMENT_TYPES)}")
            kind = ELEMENT_TYPES[abaqus_type]
            element_rows[kind].extend(_element_rows(card, NODES_PER_ELEMENT[kind] + 1, path))
    if not node_ids:
        raise ValueError(f"{path}: no *Node data found")

    node_ids = np.array(node_ids)
    order = np.argsort(node_ids, kind="stable")
    sorted_ids = node_ids[order]
    if np.any(np.diff(sorted_ids) == 0):
        duplicate = sorted_ids[np.flatnonzero(np.diff(sorted_ids) == 0)[0]]
        raise ValueError(f"{path}: node {duplicate} is defined twice")
    nodes = np.array(coordinates)[order]

    elements = {}
    for kind, rows in element_rows.items():
        if not rows:
            continue
        line_numbers = np.array([number for number, _ in rows])
        connectivity = np.array([row[1:] for _, row in rows])
        position = np.searchsorted(sorted_ids, connectivity)
        position = np.minimum(position, sorted_ids.size - 1)
        undefined = sorted_ids[position] != connectivity
        if np.any(undefined):
            bad = np.argwhere(undefined)[0]
            raise ValueError(f"{path}:{line_numbers[bad[0]]}: element refers to undefined node "
                             f"{connectivity[tuple(bad)]}")
        elements[kind] = position
    return Mesh(nodes, elements)


def _element_rows(card, n_values, path):
    """(line number, [element id, node ids...]) per element; data may continue over lines."""
    rows, pending, first_line = [], [], None
    for number, text in card.data:
        if not pending:
            first_line = number
        pending.extend(_numbers(text, int, path, number))
        if len(pending) == n_values:
            rows.append((first_line, pending))
            pending = []
        elif len(pending) > n_values:
            raise ValueError(f"{path}:{number}: expected {n_values} integers per element, got {len(pending)}")
    if pending:
        raise ValueError(f"{path}:{first_line}: incomplete element with {len(pending)} of {n_values} integers")
    return rows


def _numbers(text, kind, path, number):
    try:
        return [kind(item) for item in _SEPARATORS.split(text.strip(", "))]
    except ValueError:
        raise ValueError(f"{path}:{number}: malformed data line {text!r}") from None
