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
