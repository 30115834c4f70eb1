"""Readers for Abaqus input files (nodes and solid elements) and exported matrices (.mtx)."""

import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from .mesh import NODES_PER_ELEMENT, Mesh, coincident_node_pairs, coincident_nodes_fault, in_one_element

ELEMENT_TYPES = {
    "C3D8": "Hex8", "C3D8R": "Hex8", "C3D8I": "Hex8", "C3D8H": "Hex8", "C3D8RH": "Hex8",
    "C3D4": "Tet4", "C3D4H": "Tet4",
    "C3D10": "Tet10", "C3D10H": "Tet10", "C3D10M": "Tet10", "C3D10MH": "Tet10", "C3D10HS": "Tet10",
    "C3D20": "Hex20", "C3D20R": "Hex20", "C3D20H": "Hex20", "C3D20RH": "Hex20",
}

_SEPARATORS = re.compile(r"[,\s]+")


def read_abaqus_inp(path, instance: str | None = None, duplicate_nodes: str = "refuse") -> Mesh:
    """Mesh from the ``*Node`` and ``*Element`` blocks of an Abaqus input file.

    Parameters
    ----------
    path : str or Path
        The ``.inp`` file; coordinates are taken as [m].
    instance : str, optional
        Read the ``*Instance, name=...`` section with this name (case-insensitive); if it has
        no nodes of its own, read the part it instantiates. Default: the first ``*Part`` with
        nodes, else the first ``*Instance`` with nodes, else the whole file.
    duplicate_nodes : {"refuse", "merge", "keep"}, default "refuse"
        What to do with coincident nodes (see :class:`~floatframe.fem.mesh.Mesh`); refused with their Abaqus
        node numbers and lines.

    Returns
    -------
    Mesh
        Nodes renumbered 0-based in increasing Abaqus node number; element types C3D8, C3D8R,
        C3D8I, C3D8H, C3D8RH become ``'Hex8'``, C3D4, C3D4H ``'Tet4'``, C3D10, C3D10H, C3D10M,
        C3D10MH, C3D10HS ``'Tet10'``, C3D20, C3D20R, C3D20H, C3D20RH ``'Hex20'``, in Abaqus's node
        order. Only the connectivity is read: the element formulation is chosen when the matrices
        are computed (:func:`floatframe.fem.stiffness_matrix`).

    Raises
    ------
    ValueError
        Naming the file and line: binary data (a NUL byte or bytes that are not UTF-8 text outside comments),
        a file cut off (a ``*Part``, ``*Instance``, ``*Assembly`` or ``*Step`` without its ``*End``, a last data
        line without a line end, an incomplete element), malformed lines, undefined or repeated nodes, and
        coincident nodes unless ``duplicate_nodes`` says otherwise.
    """
    path = Path(path)
    cards = _parse_cards(path)
    section = _select_section(cards, instance, path)
    return _mesh_from_cards(section, path, duplicate_nodes)


def _text_lines(raw_lines, path):
    """(line number, line) of a file opened in binary mode, each line decoded as UTF-8; a line that is not
    text is a ValueError naming the file and the line."""
    for number, raw in enumerate(raw_lines, start=1):
        try:
            yield number, raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError(f"{path}:{number}: not a text line (binary data): a matrix file is text") from None


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
    rows, cols, values, line_numbers = [], [], [], []
    with path.open("rb") as raw_lines:
        for number, line in _text_lines(raw_lines, path):
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
            line_numbers.append(number)
    if not rows:
        raise ValueError(f"{path}: no matrix entries")
    rows, cols, values = np.array(rows), np.array(cols), np.array(values)
    _refuse_repeated_entries(rows, cols, np.array(line_numbers), path)
    n = int(max(rows.max(), cols.max())) + 1 if size is None else size
    if rows.max() >= n or cols.max() >= n:
        raise ValueError(f"{path}: entries beyond the requested size {n}")
    if np.all(rows >= cols) or np.all(rows <= cols):
        off_diagonal = rows != cols
        rows, cols, values = (np.concatenate([rows, cols[off_diagonal]]),
                              np.concatenate([cols, rows[off_diagonal]]),
                              np.concatenate([values, values[off_diagonal]]))
    return sp.csr_matrix((values, (rows, cols)), shape=(n, n))


def _refuse_repeated_entries(rows, cols, line_numbers, path):
    """Refuse a matrix file that gives one (row, column) entry on more than one line: summed, as a sparse
    matrix's duplicate entries are, it would double that entry (a file with every entry written twice doubles
    the matrix)."""
    keys = rows.astype(np.int64) * (int(cols.max()) + 1) + cols
    order = np.argsort(keys, kind="stable")
    repeated = np.flatnonzero(np.diff(keys[order]) == 0)
    if repeated.size:
        first, second = order[repeated[0]], order[repeated[0] + 1]
        count = np.unique(keys[order][repeated]).size
        raise ValueError(f"{path}:{line_numbers[second]}: entry (row {rows[second] + 1}, column {cols[second] + 1}) "
                         f"(1-based coordinates) is given again, first on line {line_numbers[first]}; "
                         f"{count} entr{'y is' if count == 1 else 'ies are'} repeated: summing them would "
                         f"multiply the matrix's values, so the file is refused")


@dataclass
class _Card:
    """One keyword line: lower-case keyword, lower-case parameter names, its data lines."""

    keyword: str
    parameters: dict
    line_number: int
    data: list = field(default_factory=list)


BLOCKS = {"part": "end part", "instance": "end instance", "assembly": "end assembly", "step": "end step"}


def _parse_cards(path):
    """The keyword cards of an input file; binary data and a file cut off are refused (:func:`read_abaqus_inp`)."""
    cards, last = [], None
    with path.open("rb") as lines:
        for number, raw in enumerate(lines, start=1):
            text = _text_line(raw, path, number).strip()
            if not text or text.startswith("**"):
                continue
            last = (number, text, raw.endswith(b"\n"))
            if text.startswith("*"):
                keyword, *options = [item.strip() for item in text[1:].split(",")]
                parameters = {}
                for option in filter(None, options):
                    name, _, value = option.partition("=")
                    parameters[name.strip().lower()] = value.strip()
                cards.append(_Card(keyword.lower(), parameters, number))
            elif cards:
                cards[-1].data.append((number, text))
    if last is not None and not last[1].startswith("*") and not last[2]:
        raise ValueError(f"{path}:{last[0]}: the file ends inside this data line ({last[1]!r}, no line end): it is "
                         f"cut off")
    _refuse_open_blocks(cards, path, number if last is not None else 0)
    return cards


def _text_line(raw: bytes, path, number) -> str:
    """A line of an input file as text; a NUL byte, or bytes that are not UTF-8 outside a comment, are binary."""
    try:
        if b"\0" in raw:
            raise UnicodeDecodeError("utf-8", raw, raw.index(b"\0"), raw.index(b"\0") + 1, "NUL byte")
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        if b"\0" not in raw and raw.lstrip().startswith(b"**"):
            return raw.decode("utf-8", errors="replace")            # a comment in another encoding
        raise ValueError(f"{path}:{number}: binary data (byte 0x{raw[error.start]:02x} at column {error.start + 1}): "
                         f"not an Abaqus input file, which is text") from None


def _refuse_open_blocks(cards, path, last_line):
    """Refuse a ``*Part``, ``*Instance``, ``*Assembly`` or ``*Step`` without its ``*End`` card: the file is cut
    off (or the block not closed)."""
    open_blocks = []
    for card in cards:
        if card.keyword in BLOCKS:
            open_blocks.append(card)
        elif open_blocks and card.keyword == BLOCKS[open_blocks[-1].keyword]:
            open_blocks.pop()
    if open_blocks:
        card = open_blocks[-1]
        name = card.parameters.get("name", "")
        raise ValueError(f"{path}:{card.line_number}: *{card.keyword.capitalize()}{f' {name!r}' if name else ''} "
                         f"has no *{BLOCKS[card.keyword].title()}: the file ends at line {last_line} (cut off?)")


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


def _mesh_from_cards(cards, path, duplicate_nodes="refuse"):
    node_ids, coordinates, node_lines = [], [], []
    element_rows = {kind: [] for kind in NODES_PER_ELEMENT}
    for card in cards:
        if card.keyword == "node":
            for number, text in card.data:
                values = _numbers(text, float, path, number)
                if len(values) not in (3, 4) or values[0] != int(values[0]):
                    raise ValueError(f"{path}:{number}: expected 'node, x, y[, z]', got {text!r}")
                node_ids.append(int(values[0]))
                coordinates.append(list(values[1:]) + [0.0] * (4 - len(values)))
                node_lines.append(number)
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
    if duplicate_nodes == "refuse":
        pairs, tolerance = coincident_node_pairs(nodes)
        pairs = pairs[~in_one_element(pairs, elements)]
        if len(pairs):
            lines = np.array(node_lines)[order][pairs[0]]
            raise ValueError(f"{path}:{lines[1]}: {coincident_nodes_fault(nodes, pairs, tolerance, sorted_ids)} "
                             f"(Abaqus node numbers; lines {lines[0]} and {lines[1]})")
    return Mesh(nodes, elements, duplicate_nodes)


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
        raise ValueError(f"{path}:{first_line}: incomplete element with {len(pending)} of {n_values} integers (the "
                         f"element data end at line {card.data[-1][0]}: a file cut off?)")
    return rows


def _numbers(text, kind, path, number):
    try:
        return [kind(item) for item in _SEPARATORS.split(text.strip(", "))]
    except ValueError:
        raise ValueError(f"{path}:{number}: malformed data line {text!r}") from None
