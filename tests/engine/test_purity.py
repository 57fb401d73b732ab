"""engine/ is the pure core: it imports the standard library and itself, nothing else."""

import ast
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"


def imported_modules(path: Path) -> set[str]:
    modules = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules.add(node.module.split(".")[0])
    return modules


def test_engine_imports_only_the_standard_library_and_itself():
    allowed = set(sys.stdlib_module_names) | {"engine", "__future__"}
    files = sorted(ENGINE.rglob("*.py"))
    assert files, "the engine package has no modules"
    offenders = {
        str(path.relative_to(ENGINE)): sorted(imported_modules(path) - allowed) for path in files
    }
    assert {name: bad for name, bad in offenders.items() if bad} == {}


def test_engine_does_no_io():
    forbidden = {"open", "print", "input"}
    for path in ENGINE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls = {
            node.func.id
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        }
        assert not calls & forbidden, f"{path.name} calls {calls & forbidden}"
