"""The shape of ``skill_retriever.bench``: no import cycle among its modules (imports inside
functions included), small modules, one section registry, and the benchmark-only
packages kept out of the rest of the package and out of its runtime dependencies."""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Mapping
from pathlib import Path

import skill_retriever
import skill_retriever.bench
from skill_retriever.bench import sections

PACKAGE = "skill_retriever.bench"
BENCH = Path(skill_retriever.bench.__file__).parent
SRC = Path(skill_retriever.__file__).parent
PYPROJECT = SRC.parents[1] / "pyproject.toml"
MAX_LINES = 400


def _module_name(path: Path) -> str:
    return PACKAGE if path.stem == "__init__" else f"{PACKAGE}.{path.stem}"


def bench_imports(source: str, module: str, modules: set[str]) -> set[str]:
    """The bench modules that ``module`` imports, at any depth of its code (module level,
    in functions, in classes, under ``if TYPE_CHECKING``)."""
    package = module if module == PACKAGE else module.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from . import x, from .x import y
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            # `from pkg import x` names the module pkg.x when there is one, else pkg
            names = [f"{target}.{a.name}" if f"{target}.{a.name}" in modules else target for a in node.names]
        else:
            continue
        for name in names:
            # `import skill_retriever.bench.x.y` runs skill_retriever.bench.x first
            parts = name.split(".")
            for i in range(len(parts), 0, -1):
                prefix = ".".join(parts[:i])
                if prefix in modules:
                    found.add(prefix)
                    break
    found.discard(module)
    return found


def find_cycle(graph: Mapping[str, set[str]]) -> list[str] | None:
    """One import cycle (``[a, b, ..., a]``) in ``graph``, or None (depth-first search)."""
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                cycle = visit(nxt)
                if cycle:
                    return cycle
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            cycle = visit(start)
            if cycle:
                return cycle
    return None


def bench_graph() -> dict[str, set[str]]:
    files = sorted(BENCH.glob("*.py"))
    modules = {_module_name(p) for p in files}
    return {_module_name(p): bench_imports(p.read_text(encoding="utf-8"), _module_name(p), modules) for p in files}


def test_no_import_cycle_among_bench_modules() -> None:
    graph = bench_graph()
    assert f"{PACKAGE}.runner" in graph and f"{PACKAGE}.sections" in graph["skill_retriever.bench.runner"]
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_walk_sees_function_level_and_relative_imports_and_finds_a_cycle() -> None:
    modules = {PACKAGE, f"{PACKAGE}.a", f"{PACKAGE}.b", f"{PACKAGE}.c"}
    source = (
        "from skill_retriever.bench.b import thing\n"
        "def f() -> None:\n"
        "    from . import c\n"
        "    import skill_retriever.bench.a\n"
    )
    assert bench_imports(source, f"{PACKAGE}.a", modules) == {f"{PACKAGE}.b", f"{PACKAGE}.c"}
    assert bench_imports("from skill_retriever.bench import NAME\n", f"{PACKAGE}.c", modules) == {PACKAGE}
    lazy = "def g() -> None:\n    from skill_retriever.bench.a import f\n"
    graph = {f"{PACKAGE}.a": bench_imports(source, f"{PACKAGE}.a", modules),
             f"{PACKAGE}.b": bench_imports(lazy, f"{PACKAGE}.b", modules)}
    assert find_cycle(graph) == [f"{PACKAGE}.a", f"{PACKAGE}.b", f"{PACKAGE}.a"]
    assert find_cycle({"x": {"y"}, "y": set()}) is None


def test_bench_modules_are_small() -> None:
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in BENCH.glob("*.py")}
    assert {name: n for name, n in sizes.items() if n > MAX_LINES} == {}


def test_one_registry_lists_every_section_in_run_order() -> None:
    assert sections.NAMES == ("battery", "incidents", "skills", "toolret", "multihop", "speed", "startup", "scale")
    from skill_retriever.bench import cli

    assert cli.NAMES == sections.NAMES  # the copy --help reads without importing the sections
    by_name = {s.name: s for s in sections.SECTIONS}
    assert [n for n, s in by_name.items() if not s.quick] == ["scale"]
    assert {n for n, s in by_name.items() if s.needs_data} == {"skills", "toolret", "multihop"}
    assert all(callable(s.run) for s in sections.SECTIONS)


def _imported_top_levels(path: Path) -> set[str]:
    tops: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            tops |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            tops.add(node.module.split(".")[0])
    return tops


def test_plotting_and_process_metrics_are_imported_only_by_bench() -> None:
    outside = [p for p in SRC.rglob("*.py") if BENCH not in p.parents]
    offenders = {str(p.relative_to(SRC)): sorted(_imported_top_levels(p) & {"matplotlib", "psutil", "pytest"})
                 for p in outside}
    assert {k: v for k, v in offenders.items() if v} == {}
    # inside bench: through extras.require only, never a bare import
    bare = {p.name: sorted(_imported_top_levels(p) & {"matplotlib", "psutil", "pytest"}) for p in BENCH.glob("*.py")}
    assert {k: v for k, v in bare.items() if v} == {}


def test_benchmark_only_packages_are_an_extra_not_dependencies() -> None:
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]

    def names(reqs: list[str]) -> set[str]:
        return {r.split(";")[0].split("[")[0].split("=")[0].split(">")[0].split("<")[0].strip().lower() for r in reqs}

    runtime = names(project["dependencies"])
    assert not runtime & {"pytest", "matplotlib", "psutil"}
    assert {"matplotlib", "psutil"} <= names(project["optional-dependencies"]["bench"])
