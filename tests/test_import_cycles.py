"""No import cycle between the package's modules: every ``import`` and ``from ... import``
statement is read with ``ast`` (module level and inside functions alike), and the graph
of ``skill_retriever.*`` modules must be acyclic. A cycle makes the import order matter
and means two modules are one module in disguise."""

from __future__ import annotations

import ast
from pathlib import Path

import skill_retriever

PACKAGE = Path(skill_retriever.__file__).parent
MAX_LINES = 400


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The package modules that ``name`` imports (a package import counts as its
    ``__init__``; ``from pkg import mod`` counts as the submodule when it is one)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{a.name}" for a in node.names)
    return {m for m in found if m in known and m != name}


def graph() -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    return {name: imports_of(name, path, known) for name, path in mods.items()}


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state and (cycle := visit(nxt)) is not None:
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state and (cycle := visit(node)) is not None:
            return cycle
    return None


def test_the_import_graph_is_read() -> None:
    edges = graph()
    assert "skill_retriever.retriever" in edges
    assert "skill_retriever.stores.index" in edges["skill_retriever.retriever"]
    assert "skill_retriever.phases.plan_query" in edges["skill_retriever.phases"]  # from a package's __init__


def test_the_finder_finds_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_cycle_between_modules() -> None:
    edges = graph()
    # A package's __init__ re-exports its modules, and its modules may import their
    # siblings through it: that edge into a package __init__ is not a design cycle.
    packages = {m for m, p in modules().items() if p.name == "__init__.py"}
    design = {m: {t for t in ts if t not in packages} for m, ts in edges.items()}
    cycle = find_cycle(design)
    assert cycle is None, " -> ".join(cycle or [])


def test_no_module_over_the_line_limit() -> None:
    long = {name: n for name, p in modules().items() if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines (split them by job): {long}"


def test_no_served_graph_over_the_line_limit() -> None:
    """The graphs langgraph.json serves (``graphs/``) keep the package's limit too."""
    graphs = Path(__file__).resolve().parents[1] / "graphs"
    long = {p.name: n for p in sorted(graphs.glob("*.py")) if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, f"graphs over {MAX_LINES} lines (move helpers into skill_retriever.adapters): {long}"
