"""No import circle anywhere in the pyd2ke package.

The imports are read from the source with ast (module-level and
function-level ones alike, so a lazy import inside a function counts), and
a circle of any length fails the test with the modules it runs through.
"""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "pyd2ke"


def module_name(path):
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules():
    return {module_name(p): p for p in PACKAGE.rglob("*.py")}


def imported_modules(name, path, known):
    """The package modules that module `name` imports."""
    is_package = path.name == "__init__.py"
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = name.split(".") if is_package else name.split(".")[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            # `from .x import y` imports x.y when y is a module, x otherwise.
            targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            # A module importing its own package (or a parent) is how Python
            # loads it, not a circle.
            if target and target != name and not name.startswith(target + "."):
                found.add(target)
    return found


def find_cycle(graph):
    """One circle of the directed graph as a list of nodes, or None."""
    state = {}  # node -> "open" while on the path, "done" after

    def visit(node, path):
        state[node] = "open"
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                cycle = visit(nxt, path)
                if cycle:
                    return cycle
        path.pop()
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = visit(node, [])
            if cycle:
                return cycle
    return None


def import_graph():
    known = modules()
    return {name: imported_modules(name, path, known) for name, path in known.items()}


def test_find_cycle_sees_circles():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    assert find_cycle({"a": {"a"}}) == ["a", "a"]


def test_import_graph_sees_lazy_and_relative_imports():
    graph = import_graph()
    assert "pyd2ke._domains.strings" in graph["pyd2ke.strings"]  # from ._domains.strings import ...
    assert "pyd2ke.reports.tasks" in graph["pyd2ke.__main__"]  # imported inside a function


def test_no_import_cycle():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import circle: " + " -> ".join(cycle)
