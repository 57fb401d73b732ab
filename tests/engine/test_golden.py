"""Golden deals: totals worked out by hand from RULES.md, checked against `handfoot score`."""

import tomllib
from pathlib import Path

import pytest

GOLDEN = Path(__file__).parents[1] / "golden"
EXPECTED = tomllib.loads((GOLDEN / "expected.toml").read_text(encoding="utf-8"))


def breakdown_sum(breakdown: dict) -> int:
    """Sum of the breakdown's numeric entries (the `melds` list is detail, not a term)."""
    return sum(v for v in breakdown.values() if isinstance(v, int) and not isinstance(v, bool))


def test_every_deal_file_has_an_expectation() -> None:
    assert sorted(p.name for p in GOLDEN.glob("*.json")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_golden_deal(name: str, cli) -> None:
    want = EXPECTED[name]
    result = cli("score", str(GOLDEN / name), "--json")
    code, out = result.code, result.json
    assert code == want["exit"]
    if want["exit"] == 0:
        assert {team["name"]: team["total"] for team in out["teams"]} == want["totals"]
        for team in out["teams"]:
            assert breakdown_sum(team["breakdown"]) == team["total"], team["name"]
    else:
        assert {problem["code"] for problem in out["problems"]} == set(want["problems"])
