"""No import cycles in the project, and conformance/'s layers as docs/contributing.rst states them.

Imports are read with ``ast``, not by importing: every ``import`` statement
counts wherever it stands (a lazy import inside a function to dodge a cycle is
still one), except those under ``if TYPE_CHECKING:``, which never run. An
import of ``a.b.c`` is an edge to that module only: the packages above it run
first, but every package does that to its submodules, which would make each
``__init__`` that re-exports them a cycle.
"""

from __future__ import annotations

import ast
import graphlib
import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.paths import REPO

ROOTS = [REPO / name for name in ("reference_impl", "dask_impl", "conformance")]

#: module -> {imported module: "file:line" of the first such import}
Graph = dict[str, dict[str, str]]

# -- reading the imports ------------------------------------------------------------------


def modules_under(root: Path) -> dict[str, Path]:
    """The dotted name of every module below ``root`` (a package folder)."""
    modules: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _is_type_checking(test: ast.expr) -> bool:
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def imported_names(tree: ast.AST, module: str, is_package: bool) -> Iterator[tuple[str, int]]:
    """Each ``(dotted name, line)`` an import of ``tree`` may load, outside TYPE_CHECKING.

    ``from a import b`` yields ``a.b``: the submodule if there is one, else a name in ``a``.
    """
    package = module if is_package else module.rpartition(".")[0]
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)  # the body never runs
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*base_parts, *([node.module] if node.module else [])])
            else:
                base = node.module or ""
            for alias in node.names:  # a submodule, or a name in the module ``base``
                yield f"{base}.{alias.name}", node.lineno
        stack.extend(ast.iter_child_nodes(node))


def import_graph(roots: list[Path]) -> Graph:
    """The imports between the modules below ``roots``; imports of anything else are left out."""
    files: dict[str, Path] = {}
    bases: dict[str, Path] = {}
    for root in roots:
        found = modules_under(root)
        files.update(found)
        bases.update(dict.fromkeys(found, root.parent))
    graph: Graph = {}
    for module, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        edges: dict[str, str] = {}
        is_package = path.name == "__init__.py"
        for name, line in imported_names(tree, module, is_package):
            target = _known_module(name, files)
            if target is not None and target != module and target not in edges:
                edges[target] = f"{path.relative_to(bases[module]).as_posix()}:{line}"
        graph[module] = edges
    return graph


def _known_module(name: str, files: dict[str, Path]) -> str | None:
    """``name`` if it is a module of ours; a name inside a module: that module; else None."""
    while name:
        if name in files:
            return name
        name = name.rpartition(".")[0]
    return None


def find_cycle(graph: Graph) -> list[str] | None:
    """One import cycle (its first module repeated at the end), or None."""
    sorter = graphlib.TopologicalSorter({module: set(edges) for module, edges in graph.items()})
    try:
        sorter.prepare()
    except graphlib.CycleError as error:
        cycle: list[str] = error.args[1]
        return cycle[::-1]  # graphlib lists it against the arrows
    return None


def describe_cycle(graph: Graph, cycle: list[str]) -> str:
    steps = [
        f"{source} imports {target} ({graph[source][target]})"
        for source, target in itertools.pairwise(cycle)
    ]
    return "import cycle:\n  " + "\n  ".join(steps)


# -- conformance/'s layers (docs/contributing.rst, "The suite: one folder per layer") ----------

#: layer -> the modules in it (a name, and everything below it)
LAYERS = {
    "sphinx_doctest": ("conformance.sphinx_doctest",),
    "programs": ("conformance.programs",),
    "probe_kit": ("conformance.probe_kit",),
    "catalog": ("conformance.catalog",),
    "adapter": ("conformance.adapter", "conformance.adapters"),
    "executor": ("conformance.executor",),
    "reports": ("conformance.reports",),
    "run": ("conformance.run",),
    "cli": (
        "conformance.cli",
        "conformance.command",
        "conformance.stopping",
        "conformance.subcommands",
    ),
    "sphinx_ext": ("conformance.sphinx_ext",),
}
#: layer -> the other layers it may import; nothing may import cli or sphinx_ext
MAY_IMPORT: dict[str, frozenset[str]] = {
    "sphinx_doctest": frozenset(),
    "programs": frozenset(),
    "probe_kit": frozenset(),
    "catalog": frozenset({"sphinx_doctest"}),
    "adapter": frozenset({"sphinx_doctest", "catalog"}),
    "executor": frozenset({"sphinx_doctest", "catalog", "adapter"}),
    "reports": frozenset({"sphinx_doctest", "catalog", "adapter"}),
    "run": frozenset({"sphinx_doctest", "programs", "catalog", "adapter", "executor", "reports"}),
    "cli": frozenset(
        {"sphinx_doctest", "programs", "catalog", "adapter", "executor", "reports", "run"}
    ),
    "sphinx_ext": frozenset({"catalog", "adapter", "reports"}),
}
#: the layers that import nothing else of the suite: the generic engine, and what probes
#: import where they run (the executor, sphinx-build) whatever the run around them
IMPORT_NOTHING = ("sphinx_doctest", "programs", "probe_kit")
SUITE = "conformance"  # the package itself: its version, importable by every layer but the engine


def layer_of(module: str) -> str | None:
    for layer, prefixes in LAYERS.items():
        if any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes):
            return layer
    return None


def layer_violations(graph: Graph) -> list[str]:
    """Every import against the layer order, and every suite module in no layer."""
    problems: list[str] = []
    for module, edges in sorted(graph.items()):
        here = layer_of(module)
        in_suite = module == SUITE or module.startswith(SUITE + ".")
        if in_suite and here is None and module != SUITE:
            problems.append(f"{module} belongs to no layer of {SUITE}/")
        for target, where in sorted(edges.items()):
            there = layer_of(target)
            if here in IMPORT_NOTHING and there != here:
                problems.append(f"{module} imports {target} ({where}): {here} imports nothing")
            elif module == SUITE:
                problems.append(f"{module} imports {target} ({where}): it imports nothing")
            elif there is None or there == here:
                continue
            elif here is None and there in ("cli", "sphinx_ext"):
                problems.append(f"{module} imports {target} ({where}): nothing imports {there}")
            elif here is not None and there not in MAY_IMPORT[here]:
                problems.append(
                    f"{module} ({here}) imports {target} ({there}) at {where}: "
                    f"{here} may import only {', '.join(sorted(MAY_IMPORT[here])) or 'nothing'}"
                )
    return problems


# -- the project ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def project() -> Graph:
    return import_graph(ROOTS)


def test_the_project_has_no_import_cycle(project: Graph) -> None:
    assert {module.partition(".")[0] for module in project} == {root.name for root in ROOTS}
    cycle = find_cycle(project)
    assert cycle is None, describe_cycle(project, cycle)


def test_the_conformance_layers_hold(project: Graph) -> None:
    assert {layer_of(module) for module in project} >= set(LAYERS)
    assert layer_violations(project) == []


def test_the_reference_core_imports_no_extension(project: Graph) -> None:
    """Tracing and schedules plug into the core through ``_interceptors``, never the reverse."""
    extensions = ("reference_impl.schedules", "reference_impl.tracing")
    core = [m for m in project if m.startswith("reference_impl._")]
    assert "reference_impl._interceptors" in core
    assert len(core) >= 10
    imports_of_extensions = {
        f"{module} imports {target} ({where})"
        for module in core
        for target, where in project[module].items()
        if target.startswith(extensions)
    }
    assert imports_of_extensions == set()


# -- the checks catch what they are for --------------------------------------------------------


def write_tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_a_planted_cycle_through_a_lazy_import_is_caught(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "def later():\n    from pkg import b  # lazy: still a cycle\n",
            "pkg/b.py": "import pkg.c\n",
            "pkg/c.py": "from .a import later\n",
        },
    )
    graph = import_graph([tmp_path / "pkg"])
    cycle = find_cycle(graph)
    assert cycle is not None
    assert set(cycle) == {"pkg.a", "pkg.b", "pkg.c"}
    assert cycle[0] == cycle[-1]
    assert "pkg/a.py:2" in describe_cycle(graph, cycle)


def test_an_import_under_type_checking_is_no_cycle(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "pkg/__init__.py": "from pkg.d import D\n",
            "pkg/d.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n    from pkg.e import E\nelse:\n    import json\n"
                "class D: ...\n"
            ),
            "pkg/e.py": "from pkg.d import D\nE = D\n",
        },
    )
    graph = import_graph([tmp_path / "pkg"])
    assert graph["pkg.d"] == {}
    assert graph["pkg.e"] == {"pkg.d": "pkg/e.py:1"}
    assert find_cycle(graph) is None


def test_planted_layer_violations_are_caught(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "conformance/__init__.py": "",
            "conformance/cli.py": "from conformance.run import plugin\n",
            "conformance/adapter.py": "from conformance.catalog import terms\n",
            "conformance/catalog/terms.py": "",
            "conformance/run/plugin.py": "from conformance.reports import results\n",
            "conformance/reports/results.py": (
                "from conformance import adapter\n"
                "def late():\n    from conformance.run import plugin\n"
            ),
            "conformance/sphinx_doctest/engine.py": "import conformance.catalog.terms\n",
            "conformance/sphinx_ext/pages.py": "from conformance.cli import main\n",
            "conformance/probe_kit.py": "from conformance.catalog.terms import PROFILES\n",
            "conformance/stray.py": "",
        },
    )
    problems = layer_violations(import_graph([tmp_path / "conformance"]))
    assert len(problems) == 5, problems
    joined = "\n".join(problems)
    assert "conformance.reports.results (reports) imports conformance.run.plugin (run)" in joined
    assert "conformance.sphinx_doctest.engine imports conformance.catalog.terms" in joined
    assert "conformance.sphinx_ext.pages (sphinx_ext) imports conformance.cli (cli)" in joined
    assert "conformance.stray belongs to no layer" in joined
    assert "conformance.probe_kit imports conformance.catalog.terms" in joined
