"""Shared fixtures: the CLI run in-process, as a player's shell would run it."""

import json
from dataclasses import dataclass
from typing import Any

import pytest

from scanner.cli import main


@dataclass
class CliRun:
    code: int
    out: str
    err: str

    @property
    def json(self) -> Any:
        return json.loads(self.out)


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]):
    """``cli("score", path, "--json")`` runs ``handfoot`` and returns its code and output."""

    def run(*args: str) -> CliRun:
        code = main([str(arg) for arg in args])
        out, err = capsys.readouterr()
        assert "Traceback" not in out + err
        return CliRun(code, out, err)

    return run


@pytest.fixture
def shipped():
    """The shipped locator: it marks the scenes the verifier, refiner and wider classifier
    learn from, and teaches the `fold` stage."""
    from scanner.vision.networks import default_model_dir

    locator = default_model_dir() / "locator.onnx"
    if not locator.is_file():
        pytest.skip("no shipped locator")
    return locator
