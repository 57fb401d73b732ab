"""One direction between the packages: training and evaluation (``model/``) import the runtime
(``scanner/``), never the reverse; the panel (``hardware/``) imports the service, never the
reverse; and no module imports, when it is loaded, a module that imports it back.

Every module is read with ``ast``, so an import inside a function counts for what a package may
import at all; only the imports that run when a module is loaded (not those inside a function
or under ``if TYPE_CHECKING:``) make the graph whose cycles are looked for.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "model", "scanner", "hardware")

# The runtime's only ways into model/: a command that renders scenes on purpose, and the eval
# command, which scores the recogniser on labelled scenes. ``model`` itself is the folder the
# shipped models are read from.
SCANNER_MAY_IMPORT = {
    "scanner/camera/synthetic_source.py": ("model.synth",),
    "scanner/cli/bench_cmd.py": ("model.synth",),
    "scanner/cli/synth_cmd.py": ("model.synth",),
    "scanner/cli/scan_cmd.py": ("model.evaluate",),
    "scanner/cli/eval_labels.py": ("model.evaluate",),
}
# The composition root that builds the panel the command line asks for.
HARDWARE_FROM = ("scanner/cli/serve_cmd.py",)


@dataclass(frozen=True)
class Import:
    module: str  # the project module, or the outside one, the statement loads
    line: int
    on_load: bool  # runs when the importing module is loaded (not in a function, not typing)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for name in PACKAGES for path in (ROOT / name).rglob("*.py")}


def _typing_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _statements(body: list[ast.stmt], on_load: bool) -> Iterator[tuple[ast.stmt, bool]]:
    """Every import statement in ``body`` and whether it runs when the module is loaded."""
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node, on_load
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield from _statements(node.body, False)
        elif isinstance(node, ast.If):
            yield from _statements(node.body, on_load and not _typing_only(node))
            yield from _statements(node.orelse, on_load)
        else:
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                for child in getattr(node, field, []):
                    inner = (
                        child.body
                        if isinstance(child, ast.ExceptHandler | ast.match_case)
                        else [child]
                    )
                    yield from _statements(inner, on_load)


def _resolved(name: str) -> str:
    """The project module ``name`` loads: itself, or the package a name is taken from."""
    while name not in MODULES and "." in name:
        name = name.rpartition(".")[0]
    return name


def imports_of(module: str) -> list[Import]:
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node, on_load in _statements(ast.parse(path.read_text(encoding="utf-8")).body, True):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, *([base] if base else [])])
            names = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                for alias in node.names
            ]
        found += [Import(_resolved(name), node.lineno, on_load) for name in names]
    return found


IMPORTS = {module: imports_of(module) for module in MODULES}


def _where(module: str, found: Import) -> str:
    return f"{MODULES[module].relative_to(ROOT)}:{found.line} imports {found.module}"


def _is_in(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def test_the_runtime_imports_training_only_where_a_command_renders_or_evaluates_scenes():
    offenders = []
    for module, found in IMPORTS.items():
        if not _is_in(module, "scanner"):
            continue
        allowed = SCANNER_MAY_IMPORT.get(str(MODULES[module].relative_to(ROOT)), ())
        for each in found:
            if not _is_in(each.module, "model") or each.module == "model":
                continue
            if not any(_is_in(each.module, prefix) for prefix in allowed) or each.on_load:
                offenders.append(_where(module, each))
    assert offenders == []


def test_the_runtime_imports_the_panel_only_where_the_command_line_builds_it():
    offenders = [
        _where(module, each)
        for module, found in IMPORTS.items()
        if _is_in(module, "scanner")
        for each in found
        if _is_in(each.module, "hardware")
        and (str(MODULES[module].relative_to(ROOT)) not in HARDWARE_FROM or each.on_load)
    ]
    assert offenders == []


def _cycles(graph: dict[str, set[str]]) -> list[str]:
    """The cycles among the groups of nodes that reach each other (Tarjan's strongly connected
    components): for each node of a group, the shortest chain back to it, ``a → b → a``."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def visit(node: str) -> None:
        order[node] = low[node] = len(order)
        stack.append(node)
        for after in sorted(graph.get(node, ())):
            if after not in order:
                visit(after)
                low[node] = min(low[node], low[after])
            elif after in stack:
                low[node] = min(low[node], order[after])
        if low[node] == order[node]:
            group = set(stack[stack.index(node) :])
            del stack[stack.index(node) :]
            if len(group) > 1 or node in graph.get(node, ()):
                groups.append(group)

    for node in sorted(graph):
        if node not in order:
            visit(node)
    chains: dict[frozenset[str], str] = {}
    for group in groups:
        for start in sorted(group):
            chain = _chain(graph, group, start)
            chains.setdefault(frozenset(chain.split(" → ")), chain)
    return list(chains.values())


def _chain(graph: dict[str, set[str]], group: set[str], start: str) -> str:
    """The shortest way from ``start`` back to itself, within its group."""
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for after in sorted(graph.get(node, ()) & group):
                if after == start:
                    return " → ".join([*paths[node], start])
                if after not in paths:
                    paths[after] = [*paths[node], after]
                    following.append(after)
        frontier = following
    raise AssertionError(f"no way back to {start} within {sorted(group)}")


def _graph(level: int | None = None) -> dict[str, set[str]]:
    """The imports that run on load, between modules (``level`` None) or between the packages
    named by a module's first ``level`` parts."""

    def node(module: str) -> str:
        return module if level is None else ".".join(module.split(".")[:level])

    graph: dict[str, set[str]] = {}
    for module, found in IMPORTS.items():
        for each in found:
            if each.on_load and each.module in MODULES and node(each.module) != node(module):
                graph.setdefault(node(module), set()).add(node(each.module))
    return graph


def test_no_module_imports_itself_back_when_it_is_loaded():
    assert _cycles(_graph()) == []


def test_the_packages_import_one_way():
    assert _cycles(_graph(level=1)) == []
    assert _cycles(_graph(level=2)) == []  # nor do engine, model.recogniser, scanner.vision …


def test_the_checks_see_every_package_and_the_imports_they_guard():
    assert {module.partition(".")[0] for module in MODULES} == set(PACKAGES)
    assert "model" in _graph(level=1) and "scanner" in _graph(level=1)["model"]
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a → b → c → a"]
    lazy = [each for each in IMPORTS["scanner.cli.serve_cmd"] if _is_in(each.module, "hardware")]
    assert lazy and not any(each.on_load for each in lazy)
