"""Claims about the package's layout (docs/architecture.md): its imports form no circle, and the core layers
import only from the layers below them; the solvers know the DAE contract, not the components or the builder."""
import ast
from pathlib import Path

import pytest

import floatframe

PACKAGE = Path(floatframe.__file__).parent

# the core, bottom up: each layer may import from itself and the layers before it
BASE = ("floatframe.errors", "floatframe.parameters", "floatframe.rotations", "floatframe.linalg",
        "floatframe.buffers", "floatframe.optional", "floatframe.paths")
LAYERS = {
    "base": BASE,
    "fem": ("floatframe.fem",),
    "components": ("floatframe.components",),
    "assembly": ("floatframe.assembly", "floatframe.system", "floatframe.system_functions",
                 "floatframe.user_function_terms"),
}
ALLOWED = {
    "base": ("base",),
    "fem": ("base", "fem"),
    "components": ("base", "fem", "components"),
    "assembly": ("base", "fem", "components", "assembly"),
    "solvers": ("base", "solvers"),   # the DAE contract only: no component, no builder
}
LAYERS["solvers"] = ("floatframe.solvers",)


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in PACKAGE.rglob("*.py")}


def resolve(name: str) -> str:
    """The module ``name`` refers to (a name inside a module resolves to that module)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name


def imports(name: str) -> set[str]:
    """The floatframe modules that module ``name`` imports, at any level of its code; ``from package import
    submodule`` is an import of the submodule (not of the package's own code)."""
    found = set()
    for node in ast.walk(ast.parse(MODULES[name].read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("floatframe"):
            submodules = {f"{node.module}.{alias.name}" for alias in node.names} & MODULES.keys()
            found |= submodules
            if len(submodules) < len(node.names):
                found.add(resolve(node.module))
        elif isinstance(node, ast.Import):
            found |= {resolve(alias.name) for alias in node.names if alias.name.startswith("floatframe")}
    return found - {name, "floatframe"}


def layer_of(name: str) -> str | None:
    for layer, prefixes in LAYERS.items():
        if any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes):
            return layer
    return None


def circles() -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    graph = {name: imports(name) & MODULES.keys() for name in MODULES}
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in graph:
        if node not in index:
            visit(node)
    return found


def test_the_import_graph_has_no_circle():
    assert circles() == []


@pytest.mark.parametrize("name", sorted(name for name in MODULES if layer_of(name)))
def test_a_core_module_imports_only_from_its_layer_and_those_below(name):
    allowed = ALLOWED[layer_of(name)]
    against_the_flow = sorted(other for other in imports(name) if layer_of(other) not in allowed)
    assert against_the_flow == []
