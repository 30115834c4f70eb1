"""The component catalogue, read from the code.

Every component class exported by :mod:`floatframe.components` is described by what the code says about it:
the parameters of its ``__init__`` (names and defaults from the signature, type, shape, unit and meaning from
the NumPy-style ``Parameters`` section of its docstring), the coordinates it owns and the equations it adds
(class attributes ``n_coordinates`` / ``n_constraints`` where they are fixed, else the count of an instance
made with the default parameters), the output variables it declares (``output_variables``: the names its
``output`` method accepts), and the Exudyn item names that the Exudyn layer (:mod:`floatframe.exudyn`)
translates into it. Where a class docstring refers to its module's docstring for the equations, that
docstring is shown too.

:func:`catalogue_markdown` writes the catalogue page; :func:`undocumented_parameters` lists the parameters
without a docstring entry (the documentation test requires that list to be empty).
"""
from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, field

import numpy as np

from floatframe import components
from floatframe.components.base import Component

FAMILIES = ("node", "body", "connector", "marker", "load", "sensor")
FAMILY_TITLES = {"node": "Nodes", "body": "Bodies", "connector": "Connectors", "marker": "Markers",
                 "load": "Loads", "sensor": "Sensors"}
_SECTION = re.compile(r"^(\s*)([A-Z][A-Za-z ]+)\n\1-{3,}\s*$", re.MULTILINE)
_ENTRY = re.compile(r"^(?P<names>\*{0,2}\w+(?:\s*,\s*\*{0,2}\w+)*)\s*(?::(?P<type>.*))?$")


@dataclass
class ParameterEntry:
    """One parameter: its name, its default as source text (None: required), and its docstring entry."""

    name: str
    default: str | None
    type: str = ""
    description: str = ""
    keyword_only: bool = False


@dataclass
class ComponentEntry:
    """What the catalogue says about one component class."""

    cls: type
    family: str
    summary: str
    details: str
    parameters: list = field(default_factory=list)
    coordinates: str = ""
    equations: str = ""
    outputs: tuple = ()
    mesh_outputs: tuple = ()
    exudyn_names: tuple = ()

    @property
    def name(self) -> str:
        return self.cls.__name__


# --- docstrings -------------------------------------------------------------------------------------------
def split_sections(docstring: str | None) -> tuple[str, dict]:
    """The free text before the first NumPy section, and {section title: body} of the sections."""
    text = inspect.cleandoc(docstring or "")
    matches = list(_SECTION.finditer(text))
    head = text[:matches[0].start()] if matches else text
    sections = {}
    for number, match in enumerate(matches):
        end = matches[number + 1].start() if number + 1 < len(matches) else len(text)
        sections[match.group(2).strip()] = text[match.end():end].strip("\n")
    return head.strip(), sections


def parse_parameters(section: str) -> dict:
    """{name: (type, description)} of a NumPy ``Parameters`` section; ``a, b : type`` documents both."""
    entries, names = {}, []
    for line in section.splitlines():
        if line and not line[0].isspace():
            match = _ENTRY.match(line)
            names = [name.strip().lstrip("*") for name in match["names"].split(",")] if match else []
            for name in names:
                entries[name] = [(match["type"] or "").strip(), []]
        elif names and line.strip():
            for name in names:
                entries[name][1].append(line.strip())
    return {name: (kind, " ".join(words)) for name, (kind, words) in entries.items()}


def section_prose(section: str) -> str:
    """The text of a ``Parameters`` section from its first line that is neither an entry nor indented on."""
    lines = section.splitlines()
    for number, line in enumerate(lines):
        if line and not line[0].isspace() and not _ENTRY.match(line):
            return "\n".join(lines[number:]).strip()
    return ""


def documented_parameters(cls) -> dict:
    """The parameter entries that apply to ``cls``: those of its own class and ``__init__`` docstrings first,
    then those of its base classes (an entry written once on a base class serves every subclass)."""
    entries = {}
    for klass in reversed(cls.__mro__):
        if klass is object:
            continue
        for doc in (klass.__dict__.get("__doc__"), getattr(klass.__dict__.get("__init__"), "__doc__", None)):
            entries.update(parse_parameters(split_sections(doc)[1].get("Parameters", "")))
    return entries


def signature_parameters(cls) -> list:
    """The parameters of ``cls.__init__`` (without self, *args and **kwargs), defaults as source text."""
    result = []
    for parameter in inspect.signature(cls.__init__).parameters.values():
        if parameter.name == "self" or parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        default = None if parameter.default is parameter.empty else _default_text(parameter.default)
        result.append(ParameterEntry(parameter.name, default,
                                     keyword_only=parameter.kind is parameter.KEYWORD_ONLY))
    return result


def _default_text(value) -> str:
    if isinstance(value, np.ndarray):
        identity = value.shape == (3, 3) and np.array_equal(value, np.eye(3))
        return "identity (3, 3)" if identity else repr(value.tolist())
    return repr(value)


def undocumented_parameters(cls) -> list:
    """Names of the ``__init__`` parameters of ``cls`` that have no docstring entry."""
    entries = documented_parameters(cls)
    return [p.name for p in signature_parameters(cls) if p.name not in entries]


# --- classes ----------------------------------------------------------------------------------------------
def family_of(cls) -> str:
    """node, body, connector, marker, load or sensor."""
    from floatframe.components.connectors import Connector

    if cls.family == "object":
        return "connector" if issubclass(cls, Connector) else "body"
    return cls.family


def component_classes() -> list:
    """The component classes that a model uses (exported by :mod:`floatframe.components`), in family order."""
    classes = [getattr(components, name) for name in components.__all__]
    classes = [cls for cls in classes if isinstance(cls, type) and issubclass(cls, Component)
               and cls is not Component and cls.__dict__.get("type_name") == cls.__name__]
    return sorted(classes, key=lambda cls: (FAMILIES.index(family_of(cls)), cls.__name__))


def exudyn_names() -> dict:
    """{component class name: (Exudyn item names translated into it)}, read from the Exudyn layer's table."""
    from floatframe.exudyn import _items

    names = {}
    for item in _items.ITEM_CLASSES:
        for target in set(re.findall(r"fc\.(\w+)\(", inspect.getsource(item.translation))):
            names.setdefault(target, []).append(item.__name__)
    return {key: tuple(sorted(value)) for key, value in names.items()}


def _method_source(cls, name: str) -> str:
    """The source of the method ``name`` that ``cls`` uses ("" where it is not written in Python)."""
    for klass in cls.__mro__:
        if name in klass.__dict__:
            method = klass.__dict__[name]
            return inspect.getsource(method) if inspect.isfunction(method) else ""
    return ""


def output_variables(cls) -> tuple:
    """The output variables that ``cls.output`` accepts: the class's declaration ``output_variables`` (the
    mesh-node outputs of an FFRF body are its ``mesh_outputs``)."""
    return tuple(cls.output_variables)


def _count(cls, attribute: str):
    """The class's fixed count, or None where ``__init__`` sets it from the parameters."""
    for klass in cls.__mro__:
        if f"self.{attribute} =" in _method_source(klass, "__init__"):
            return None
        if attribute in klass.__dict__:
            return klass.__dict__[attribute]
    return 0


def coordinates_text(cls) -> str:
    """Which coordinates the component owns (nodes) or uses (bodies)."""
    family = family_of(cls)
    count = _count(cls, "n_coordinates")
    if family == "node":
        return f"{count}" if count is not None else "as many as its reference_coordinates have"
    if family == "body" and hasattr(cls, "mesh_outputs"):
        return "none of its own: the object's coordinates are those of its node_numbers, frame node first"
    if _uses_node(cls):
        return "none of its own: those of its node"
    return "none"


def _uses_node(cls) -> bool:
    return "node_number" in inspect.signature(cls).parameters


def equations_text(cls) -> str:
    """What the component adds to the DAE: residual terms, constraint equations and multipliers."""
    family = family_of(cls)
    constraints = _count(cls, "n_constraints")
    if family in ("marker", "sensor"):
        return "none (evaluated on the state only)"
    if family == "load":
        return "a generalized force on the rows of the coordinates its marker depends on"
    if constraints is None:
        default = _default_constraint_count(cls)
        if default is None:
            return "one constraint equation and multiplier per row of the scaling matrices (none if inactive)"
        if default == 0:
            return ("forces on the rows of the coordinates its markers depend on; a constraint only with "
                    "non-default parameters (see the table)")
        return f"{_equations(default)} with the default parameters (none if inactive)"
    if constraints:
        return _equations(constraints)
    if family == "node":
        return "none"
    if family == "body" and hasattr(cls, "mesh_outputs"):
        return "inertia, elastic and damping terms on the rows of its nodes' coordinates"
    if family == "body":
        return "inertia terms on the rows of its node's coordinates" if _uses_node(cls) else "none"
    return "forces on the rows of the coordinates its markers depend on; no constraint"


def _equations(count: int) -> str:
    plural = "s" if count != 1 else ""
    return f"{count} constraint equation{plural} and {count} multiplier{plural}"


def _default_constraint_count(cls):
    """``n_constraints`` of an instance made with the default parameters (markers 0 and 1, and 1.0 for any other
    required parameter documented as a float), or None where such an instance cannot be made."""
    entries = documented_parameters(cls)
    arguments = {}
    for parameter in signature_parameters(cls):
        if parameter.default is None and parameter.name == "marker_numbers":
            arguments[parameter.name] = [0, 1]
        elif parameter.default is None:
            if not entries.get(parameter.name, ("",))[0].startswith("float"):
                return None
            arguments[parameter.name] = 1.0
    try:
        return int(cls(**arguments).n_constraints)
    except Exception:
        return None


def describe(cls, names: dict | None = None) -> ComponentEntry:
    """The catalogue entry of one component class."""
    head, sections = split_sections(cls.__doc__)
    summary, _, details = head.partition("\n\n")
    entries = documented_parameters(cls)
    parameters = signature_parameters(cls)
    for parameter in parameters:
        if parameter.name in entries:
            parameter.type, parameter.description = entries[parameter.name]
    prose = section_prose(sections.get("Parameters", ""))
    notes = "\n\n".join(filter(None, [prose] + [sections[title] for title in ("Notes", "Equations")
                                                  if title in sections]))
    if "module docstring" in (cls.__doc__ or ""):
        module = inspect.cleandoc(inspect.getmodule(cls).__doc__ or "")
        notes = "\n\n".join(filter(None, [notes, f"From `{cls.__module__}`:\n\n```text\n{module}\n```"]))
    names = exudyn_names() if names is None else names
    return ComponentEntry(cls, family_of(cls), " ".join(summary.split()), "\n\n".join(filter(None, [details, notes])),
                          parameters, coordinates_text(cls), equations_text(cls), output_variables(cls),
                          tuple(getattr(cls, "mesh_outputs", ())), names.get(cls.__name__, ()))


# --- the page ---------------------------------------------------------------------------------------------
_ROLE = re.compile(r":(?:func|meth|class|mod|attr|obj):`~?([^`]+)`")


def _markdown(text: str) -> str:
    """Docstring text as Markdown: Sphinx roles become code spans (``:class:`~a.B``` -> ```B```)."""
    return _ROLE.sub(lambda match: f"`{match[1]}`", text)


def _cell(text: str) -> str:
    return _markdown(text).replace("|", "\\|").replace("\n", " ")


def _names(names) -> str:
    return ", ".join(f"`{name}`" for name in names)


def _outputs_text(entry: ComponentEntry) -> str:
    if entry.family == "sensor":
        return "records the output variable `output_variable_type` of its target" if \
            "output_variable_type" in [p.name for p in entry.parameters] else "records the value of its load"
    return _names(entry.outputs) or "none"


def entry_markdown(entry: ComponentEntry) -> str:
    lines = [f"### {entry.name}", "", _markdown(entry.summary), ""]
    exudyn = ", ".join(f"`{name}`" for name in entry.exudyn_names) or "none (floatframe only)"
    lines += [f"- **Exudyn name:** {exudyn}",
              f"- **Coordinates it owns:** {entry.coordinates}",
              f"- **Equations it adds:** {entry.equations}",
              f"- **Output variables:** {_outputs_text(entry)}"]
    if entry.mesh_outputs:
        lines.append(f"- **Mesh-node output variables** (SensorSuperElement): {_names(entry.mesh_outputs)}")
    lines.append("")
    lines += ["| parameter | default | type, shape, unit | description |", "| --- | --- | --- | --- |"]
    for p in entry.parameters:
        default = "required" if p.default is None else f"`{p.default}`"
        name = f"`{p.name}`" + (" (keyword)" if p.keyword_only else "")
        lines.append(f"| {name} | {_cell(default)} | {_cell(p.type)} | {_cell(p.description)} |")
    if entry.details:
        lines += ["", _markdown(entry.details)]
    return "\n".join(lines) + "\n"


def catalogue_markdown() -> str:
    """The whole catalogue page (Markdown), one section per family."""
    names = exudyn_names()
    entries = [describe(cls, names) for cls in component_classes()]
    lines = ["# Component catalogue", "",
             "Generated from the code when the site is built (`floatframe/catalogue.py`): parameters and defaults "
             "from each `__init__` signature, their type, shape and unit from the docstring, outputs from each "
             "class's `output_variables` declaration, Exudyn names from the Exudyn layer's item table. Units are "
             "SI ([Conventions](conventions.md)).", ""]
    for family in FAMILIES:
        members = [entry for entry in entries if entry.family == family]
        if not members:
            continue
        lines += [f"## {FAMILY_TITLES[family]}", ""]
        lines += [entry_markdown(entry) for entry in members]
    return "\n".join(lines)
