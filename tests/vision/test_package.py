"""The vision package says what each of its modules is for, in its docstring."""

from pathlib import Path

import scanner.vision
from scanner.vision.recogniser import STAGE_NAMES

PACKAGE = Path(scanner.vision.__file__).parent


def test_the_package_docstring_names_every_module_and_stage():
    doc = scanner.vision.__doc__
    modules = {path.stem for path in PACKAGE.glob("*.py")} - {"__init__"}
    stages = {path.stem for path in (PACKAGE / "stages").glob("*.py")} - {"__init__"}
    assert {name for name in modules | stages if f"``{name}``" not in doc} == set()
    assert " → ".join(STAGE_NAMES) in doc


def test_every_stage_is_a_module_of_its_own_name():
    assert set(STAGE_NAMES) <= {path.stem for path in (PACKAGE / "stages").glob("*.py")}
