"""Every way the CLI says no: the exit code and the sentence on stderr, never a traceback."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import PRESETS
from scanner.cli import main

ROOT = Path(__file__).resolve().parents[2]


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run the CLI in-process; return its exit code, stdout and stderr."""
    code = main(args)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def fails(args: list[str], capsys: pytest.CaptureFixture[str], *parts: str) -> str:
    """Assert exit 2 with one ``handfoot: ...`` line on stderr holding every part."""
    code, out, err = run(args, capsys)
    assert code == 2, (out, err)
    assert out == ""
    assert err.startswith("handfoot: ")
    assert err.count("\n") == 1, err
    for part in parts:
        assert part in err, err
    return err


def team(name: str, **fields: Any) -> dict[str, Any]:
    return {"name": name, "melds": [], "red_threes": [], "hand": [], "foot": []} | fields


def deal(number: int = 1, teams: list[dict[str, Any]] | None = None, **fields: Any) -> dict:
    teams = teams if teams is not None else [team("North-South"), team("East-West")]
    return {"rules": "pagat", "deal": number, "teams": teams} | fields


def write(tmp_path: Path, data: Any, name: str = "deal.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


# -- check-meld ---------------------------------------------------------------------------------


def test_unknown_card_names_the_token_and_the_deck(capsys: pytest.CaptureFixture[str]) -> None:
    fails(["check-meld", "KR ZZ KB"], capsys, "'ZZ'", "standard deck")


def test_unknown_card_of_the_special_deck(capsys: pytest.CaptureFixture[str]) -> None:
    fails(
        ["check-meld", "--rules", "handnfoot", "7 7 13"],
        capsys,
        "'13'",
        "special Hand 'N Foot deck",
    )


def test_special_token_under_a_standard_preset(capsys: pytest.CaptureFixture[str]) -> None:
    fails(
        ["check-meld", "LORD LORD JESTER"],
        capsys,
        "'LORD'",
        "standard deck",
        "belongs to the special Hand 'N Foot deck",
    )


def test_standard_token_under_the_special_preset(capsys: pytest.CaptureFixture[str]) -> None:
    fails(
        ["check-meld", "--rules", "handnfoot", "KR KB KR"],
        capsys,
        "'KR'",
        "special Hand 'N Foot deck",
    )


def test_a_rank_without_its_colour(capsys: pytest.CaptureFixture[str]) -> None:
    fails(["check-meld", "K K K"], capsys, "'K'", "needs its colour")


def test_an_empty_meld(capsys: pytest.CaptureFixture[str]) -> None:
    fails(["check-meld", "  "], capsys, "a meld is empty")


def test_unknown_rules_name(capsys: pytest.CaptureFixture[str]) -> None:
    fails(["check-meld", "--rules", "poker", "KR KB KR"], capsys, "'poker'", "pagat, classic")


def test_unknown_preset_option(capsys: pytest.CaptureFixture[str]) -> None:
    fails(["check-meld", "--rules", "brouillette:high", "KR KB KR"], capsys, "'high'", ":low")


def test_rules_file_not_found(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = str(tmp_path / "missing.toml")
    fails(["check-meld", "--rules", missing, "KR KB KR"], capsys, missing, "no preset or rules")


def test_rules_file_is_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fails(["rules", "show", str(tmp_path)], capsys, str(tmp_path), "cannot read")


def test_rules_file_with_invalid_toml(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, 'base = "pagat"\nclean_bonus = = 5\n', "house.toml")
    fails(["check-meld", "--rules", path, "KR KB KR"], capsys, path, "not valid TOML")


def test_rules_file_with_an_unknown_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, 'base = "pagat"\nclean_bonnus = 600\n', "house.toml")
    fails(
        ["check-meld", "--rules", path, "KR KB KR"],
        capsys,
        f"{path}: clean_bonnus: is not a rule parameter",
    )


def test_rules_file_with_an_impossible_value(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, 'base = "pagat"\nmeld_min = 1\n', "house.toml")
    fails(["check-meld", "--rules", path, "KR KB KR"], capsys, f"{path}: meld_min: ", "(it is 1)")


def test_rules_file_with_a_wrong_type(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, 'base = "pagat"\nwild_melds = "yes"\n', "house.toml")
    fails(["rules", "show", path], capsys, f"{path}: wild_melds: must be true or false")


def test_rules_file_without_a_base(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "clean_bonus = 600\n", "house.toml")
    fails(["rules", "show", path], capsys, f"{path}: base: ", "names no base preset")


def test_rules_file_with_an_unknown_base(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, 'base = "poker"\n', "house.toml")
    fails(["rules", "show", path], capsys, f"{path}: base: ", "'poker'")


def test_special_deck_with_red_threes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, 'base = "pagat"\ndeck = "special"\n', "house.toml")
    fails(["rules", "show", path], capsys, f"{path}: red_threes: ", "no red threes")


@pytest.mark.parametrize("extra", [["--initial"], []], ids=["initial", "plain"])
def test_a_deal_that_does_not_exist(extra: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    fails(
        ["check-meld", "--deal", "9", *extra, "KR KB KR"],
        capsys,
        "deal 9 does not exist",
        "deals 1 to 4",
    )


def test_an_illegal_meld_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["check-meld", "8R 8B 2R JK"], capsys)
    assert code == 1
    assert err == ""
    assert "8R 8B 2R JK  illegal" in out
    assert "a dirty meld of 4 cards may hold only 1 wild card (this one has 2)" in out


def test_an_illegal_meld_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["check-meld", "--json", "--rules", "classic", "2R 2B JK"], capsys)
    assert code == 1
    assert err == ""
    result = json.loads(out)
    assert result["legal"] is False
    assert [p["code"] for p in result["problems"]] == ["wild-meld-not-allowed"]


def test_a_first_meld_below_the_minimum_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["check-meld", "--initial", "--deal", "2", "9R 9B 9R"], capsys)
    assert code == 1
    assert err == ""
    assert "First meld of deal 2: no - " in out
    assert "needs at least 90 points (these cards make 30)" in out


def test_a_legal_meld_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["check-meld", "kh kd ks kc kr kb kr"], capsys)
    assert (code, err) == (0, "")
    assert "legal clean book, 70 + 500 bonus = 570 points" in out


# -- score: reading the deal ----------------------------------------------------------------------


def test_deal_file_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = str(tmp_path / "nothing.json")
    fails(["score", missing], capsys, f"{missing}: no such file")


def test_deal_file_is_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fails(["score", str(tmp_path)], capsys, f"{tmp_path}: is a folder")


def test_deal_file_is_not_utf8(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"name": "K\xf8benhavn"}')
    fails(["score", str(path)], capsys, f"{path}: is not UTF-8")


def test_deal_file_with_malformed_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, '{"deal": 1,\n "teams": [}')
    fails(["score", path], capsys, f"{path}: not valid JSON at line 2")


def test_deal_that_is_not_an_object(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fails(["score", write(tmp_path, [1, 2])], capsys, "must be a JSON object, not a list")


def test_deal_without_teams(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = deal()
    del data["teams"]
    fails(["score", write(tmp_path, data)], capsys, 'missing field "teams"')


def test_deal_without_a_number(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = deal()
    del data["deal"]
    fails(["score", write(tmp_path, data)], capsys, 'missing field "deal"')


def test_deal_with_no_teams(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fails(["score", write(tmp_path, deal(teams=[]))], capsys, '"teams" is empty')


def test_deal_number_out_of_range(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fails(["score", write(tmp_path, deal(5))], capsys, "deal 5 does not exist")


def test_deal_with_an_unknown_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fails(["score", write(tmp_path, deal(round=1))], capsys, "unknown field 'round'")


@pytest.mark.parametrize("key", ["name", "melds", "red_threes", "hand", "foot"])
def test_team_missing_a_field(key: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = team("North-South")
    del broken[key]
    data = deal(teams=[team("East-West"), broken])
    fails(["score", write(tmp_path, data)], capsys, f'teams[1]: missing field "{key}"')


def test_team_with_an_unknown_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = deal(teams=[team("North-South", wentout=True)])
    fails(["score", write(tmp_path, data)], capsys, "teams[0]: unknown field 'wentout'", "went_out")


def test_team_with_a_wrong_type(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = deal(teams=[team("North-South", went_out="yes")])
    fails(["score", write(tmp_path, data)], capsys, 'teams[0]: "went_out" must be true or false')


def test_team_that_is_not_an_object(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fails(["score", write(tmp_path, deal(teams=["North-South"]))], capsys, "teams[0] must be")


def test_team_with_an_empty_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fails(["score", write(tmp_path, deal(teams=[team("  ")]))], capsys, '"name" is empty')


def test_card_that_is_not_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = deal(teams=[team("North-South", hand=["KR", 7])])
    fails(["score", write(tmp_path, data)], capsys, "teams[0].hand[1] must be a card")


def test_unknown_card_in_a_meld(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    melds = [["KR", "KB", "KR"], ["9R", "9X", "9B"]]
    data = deal(teams=[team("North-South", melds=melds)])
    fails(
        ["score", write(tmp_path, data)],
        capsys,
        "teams[0].melds[1]: ",
        "'9X' is not a card of the standard deck",
    )


def test_special_card_in_a_standard_deal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = deal(teams=[team("North-South", hand="LORD")])
    fails(["score", write(tmp_path, data)], capsys, "teams[0].hand: ", "'LORD'")


def test_two_teams_with_the_same_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = deal(teams=[team("North-South"), team("North-South")])
    fails(["score", write(tmp_path, data)], capsys, "two sides are both named 'North-South'")


def test_deal_names_unknown_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fails(["score", write(tmp_path, deal(rules="poker"))], capsys, "'poker'")


def test_deal_names_a_rules_file_next_to_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path, 'base = "pagat"\nclean_bonus = 600\n', "house.toml")
    data = deal(teams=[team("North-South", melds=["KR KB KR KB KR KB KR"])], rules="house.toml")
    code, out, err = run(["score", "--json", write(tmp_path, data)], capsys)
    assert (code, err) == (0, "")
    assert json.loads(out)["teams"][0]["total"] == 670


def test_stdin_deal(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    data = deal(teams=[team("North-South", melds=["KR KB KR KB KR KB KR"], hand=["5B", "JK"])])
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(data)))
    code, out, err = run(["score", "-", "--json"], capsys)
    assert (code, err) == (0, "")
    assert json.loads(out)["teams"][0]["total"] == 570 - 55


def test_stdin_with_malformed_json(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("{not json"))
    fails(["score", "-"], capsys, "standard input: not valid JSON at line 1")


def test_stdin_that_is_empty(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    fails(["game", "-"], capsys, "standard input: not valid JSON")


# -- score: deals that cannot have happened -------------------------------------------------------


def test_an_impossible_deal_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    melds = [["KR", "KB", "KR"], ["8R", "8B", "2R", "JK"]]
    data = deal(teams=[team("North-South", melds=melds), team("East-West")])
    code, out, err = run(["score", write(tmp_path, data)], capsys)
    assert code == 1
    assert err == ""
    assert "This deal cannot have happened:" in out
    assert (
        "North-South, meld 2 (8R 8B 2R JK): a dirty meld of 4 cards may hold only 1 wild card"
        in out
    )


def test_an_impossible_deal_as_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = deal(teams=[team("North-South", melds=[["KR", "KB", "KR"]], red_threes=["3B"])])
    code, out, err = run(["score", "--json", write(tmp_path, data)], capsys)
    assert (code, err) == (1, "")
    result = json.loads(out)
    assert result["possible"] is False
    assert [(p["code"], p["side"]) for p in result["problems"]] == [
        ("not-a-red-three", "North-South")
    ]


def test_several_sides_went_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    teams = [team(name, went_out=True) for name in ("North-South", "East-West")]
    code, out, err = run(["score", "--json", write(tmp_path, deal(teams=teams))], capsys)
    assert (code, err) == (1, "")
    problems = json.loads(out)["problems"]
    assert "several-went-out" in {p["code"] for p in problems}
    several = next(p for p in problems if p["code"] == "several-went-out")
    assert "North-South and East-West" in several["message"]


def test_went_out_without_the_books(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = deal(teams=[team("North-South", went_out=True), team("East-West")])
    code, out, err = run(["score", write(tmp_path, data)], capsys)
    assert (code, err) == (1, "")
    assert "North-South: North-South went out without the books deal 1 requires" in out


# -- game -----------------------------------------------------------------------------------------


def test_game_with_different_sides(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games = [deal(1), deal(2, teams=[team("North-South"), team("West-East")])]
    fails(
        ["game", write(tmp_path, games)],
        capsys,
        "deal 2 has the sides North-South, West-East but deal 1 has North-South, East-West",
    )


def test_game_with_an_empty_list(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fails(["game", write(tmp_path, [])], capsys, "a game must be a non-empty JSON list of deals")


def test_game_out_of_order(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fails(
        ["game", write(tmp_path, [deal(1), deal(3)])],
        capsys,
        "deal 2 of the game says it is deal 3",
    )


def test_game_with_more_deals_than_the_rules_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = [deal(n) for n in range(1, 6)]
    fails(["game", write(tmp_path, games)], capsys, "deal 5", "pagat plays deals 1 to 4")


def test_game_error_names_the_deal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games = [deal(1), deal(2, teams=[team("North-South", hand=["ZZ"]), team("East-West")])]
    fails(["game", write(tmp_path, games)], capsys, "deal 2: teams[0].hand: ", "'ZZ'")


def test_game_with_an_unknown_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fails(["game", write(tmp_path, {"deals": [deal(1)], "winner": "x"})], capsys, "'winner'")


def test_game_with_an_impossible_deal_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    teams = [team(name, went_out=True) for name in ("North-South", "East-West")]
    code, out, err = run(["game", write(tmp_path, [deal(1), deal(2, teams=teams)])], capsys)
    assert (code, err) == (1, "")
    assert "Deal 2: This deal cannot have happened:" in out


# -- rules ----------------------------------------------------------------------------------------


def test_rules_lists_every_preset(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["rules"], capsys)
    assert (code, err) == (0, "")
    listed = [line.split()[0] for line in out.splitlines() if line and not line[0].isspace()]
    assert len(PRESETS) == 8
    assert all(name in listed for name in PRESETS)
    assert "brouillette:low" in out


@pytest.mark.parametrize("name", [*PRESETS, "brouillette:low"])
def test_rules_show_a_preset(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["rules", "show", name], capsys)
    assert (code, err) == (0, "")
    assert out.startswith(f"# {name}: ")
    assert f'base = "{name}"' in out


def test_rules_show_a_house_rules_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, 'base = "family"\nname = "Kitchen"\nclean_bonus = 600\n', "house.toml")
    code, out, err = run(["rules", "show", path], capsys)
    assert (code, err) == (0, "")
    assert out.startswith("# Kitchen: ")
    assert "clean_bonus = 600" in out
    # The output is itself a house-rules file for the same rules.
    again = write(tmp_path, out, "again.toml")
    code, out_again, _ = run(["rules", "show", again], capsys)
    assert code == 0
    assert out_again == out
    code, as_json, _ = run(["rules", "show", "--json", path], capsys)
    assert code == 0
    assert json.loads(as_json)["clean_bonus"] == 600


def test_no_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run([], capsys)
    assert code == 2
    assert (
        err == "handfoot: the following arguments are required: COMMAND (see `handfoot --help`)\n"
    )


# -- through a real process -----------------------------------------------------------------------


def _command() -> list[str]:
    beside = shutil.which("handfoot", path=str(Path(sys.executable).parent))
    found = beside or shutil.which("handfoot")
    return [found] if found else [sys.executable, "-m", "scanner.cli"]


@pytest.mark.parametrize(
    ("args", "stdin", "code", "message"),
    [
        (["check-meld", "KR ZZ"], "", 2, "handfoot: 'ZZ' is not a card of the standard deck"),
        (["score", "-"], "[1, 2]", 2, "handfoot: the deal must be a JSON object, not a list"),
        (["game", "-"], "{oops", 2, "handfoot: standard input: not valid JSON at line 1"),
    ],
    ids=["unknown-card", "deal-not-an-object", "malformed-json"],
)
def test_a_real_process_shows_no_traceback(
    args: list[str], stdin: str, code: int, message: str
) -> None:
    done = subprocess.run(
        [*_command(), *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert done.returncode == code
    assert "Traceback" not in done.stdout + done.stderr
    assert done.stderr.startswith(message), done.stderr
    assert done.stderr.count("\n") == 1
