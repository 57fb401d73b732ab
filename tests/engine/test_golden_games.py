"""Golden games: four deals each, running totals and winner worked out by hand from RULES.md."""

import itertools
import json
import tomllib
from pathlib import Path

import pytest

GAMES = Path(__file__).parents[1] / "golden" / "games"
EXPECTED = tomllib.loads((GAMES / "expected.toml").read_text(encoding="utf-8"))


def test_every_game_file_has_an_expectation() -> None:
    assert sorted(p.name for p in GAMES.glob("*.json")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_expectations_add_up(name: str) -> None:
    want = EXPECTED[name]
    for team, deals in want["deals"].items():
        assert list(itertools.accumulate(deals)) == want["running"][team]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_golden_game(name: str, cli) -> None:
    want = EXPECTED[name]
    result = cli("game", str(GAMES / name), "--json")
    code, out = result.code, result.json
    assert code == 0
    assert {team["name"]: team["running"] for team in out["teams"]} == want["running"]
    assert {team["name"]: team["total"] for team in out["teams"]} == {
        team: running[-1] for team, running in want["running"].items()
    }
    assert out["winner"] == want.get("winner")
    assert out["draw"] is want.get("draw", False)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_deal_scores_alone(name: str, tmp_path: Path, cli) -> None:
    deals = json.loads((GAMES / name).read_text(encoding="utf-8"))
    for index, deal in enumerate(deals):
        path = tmp_path / f"deal-{index + 1}.json"
        path.write_text(json.dumps(deal), encoding="utf-8")
        result = cli("score", str(path), "--json")
        code, out = result.code, result.json
        assert code == 0
        totals = {team["name"]: team["total"] for team in out["teams"]}
        assert totals == {team: d[index] for team, d in EXPECTED[name]["deals"].items()}
