"""The command line's successful paths: what a player reads and what a program parses."""

import json
import tomllib
from pathlib import Path

import pytest

from scanner.cli import main

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "deal-pagat.json"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_check_meld_legal_and_illegal(capsys):
    code, out, _ = run(capsys, "check-meld", "--rules", "pagat", "8R 8B 2R JK")
    assert code == 1
    assert "a dirty meld of 4 cards may hold only 1 wild card (this one has 2)" in out
    code, out, _ = run(capsys, "check-meld", "KH KS KD KC KH KS KD")
    assert code == 0 and "legal clean book" in out and "570 points" in out


def test_check_meld_json_and_initial(capsys):
    code, out, _ = run(
        capsys, "check-meld", "--initial", "--deal", "2", "--json", "AR AB AR", "KR KB 2R"
    )
    data = json.loads(out)
    assert code == 0 and data["legal"] is True
    assert data["initial"] == {"deal": 2, "points": 60 + 40, "met": True, "problems": []}
    assert [m["kind"] for m in data["melds"]] == ["clean meld", "dirty meld"]
    code, out, _ = run(capsys, "check-meld", "--initial", "--deal", "2", "--json", "AR AB AR")
    data = json.loads(out)
    assert code == 1 and data["initial"]["met"] is False
    assert data["problems"][0]["code"] == "initial-minimum"


def test_check_meld_context_between_melds(capsys):
    code, out, _ = run(capsys, "check-meld", "9R 9B 9R", "9B 9B 2R")
    assert code == 1 and "a second incomplete meld of nines" in out


def test_score_the_example_deal(capsys):
    code, out, _ = run(capsys, "score", str(EXAMPLE))
    assert code == 0
    assert "North-South" in out and "Deal total" in out
    code, out, _ = run(capsys, "score", str(EXAMPLE), "--json")
    data = json.loads(out)
    assert [(t["name"], t["total"]) for t in data["teams"]] == [
        ("North-South", 3950),
        ("East-West", 570),
    ]
    for team in data["teams"]:
        lines = {k: v for k, v in team["breakdown"].items() if k != "melds"}
        assert sum(lines.values()) == team["total"]


def test_score_rules_override_and_stdin(capsys, monkeypatch):
    import io

    deal = json.loads(EXAMPLE.read_text())
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(deal)))
    code, out, _ = run(capsys, "score", "-", "--rules", "classic", "--json")
    data = json.loads(out)
    assert code == 1 and data["rules"] == "classic"  # classic plays no wild books
    assert {p["code"] for p in data["problems"]} == {"wild-meld-not-allowed"}


def test_score_with_a_house_rules_file_next_to_the_deal(tmp_path, capsys):
    (tmp_path / "ours.toml").write_text('base = "pagat"\nclean_bonus = 600\n')
    deal = json.loads(EXAMPLE.read_text()) | {"rules": "ours.toml"}
    (tmp_path / "deal.json").write_text(json.dumps(deal))
    code, out, _ = run(capsys, "score", str(tmp_path / "deal.json"), "--json")
    assert code == 0
    assert json.loads(out)["teams"][0]["total"] == 3950 + 2 * 100


def test_game_table_and_winner(tmp_path, capsys):
    deal = json.loads(EXAMPLE.read_text())
    deals = [deal | {"deal": n} for n in range(1, 5)]
    (tmp_path / "game.json").write_text(json.dumps(deals))
    code, out, _ = run(capsys, "game", str(tmp_path / "game.json"))
    assert code == 0 and "Winner: North-South" in out
    code, out, _ = run(capsys, "game", str(tmp_path / "game.json"), "--json")
    data = json.loads(out)
    assert data["winner"] == "North-South" and data["draw"] is False
    assert data["teams"][0]["running"] == [3950, 7900, 11850, 15800]


@pytest.mark.parametrize("name", ["pagat", "handnfoot", "brouillette:low"])
def test_rules_show_prints_a_usable_house_rules_file(name, capsys, tmp_path):
    code, out, _ = run(capsys, "rules", "show", name)
    assert code == 0
    parsed = tomllib.loads(out)
    assert parsed["base"] == name and "card_values" in parsed
    (tmp_path / "copy.toml").write_text(out)
    code, again, _ = run(capsys, "rules", "show", str(tmp_path / "copy.toml"))
    assert code == 0 and tomllib.loads(again)["clean_bonus"] == parsed["clean_bonus"]


def test_rules_lists_every_preset(capsys):
    code, out, _ = run(capsys, "rules")
    assert code == 0
    for name in (
        "pagat",
        "classic",
        "family",
        "saskatchewan",
        "simpson",
        "brouillette",
        "brouillette-partners",
        "handnfoot",
        "brouillette:low",
    ):
        assert name in out
    code, out, _ = run(capsys, "rules", "show", "simpson", "--json")
    assert json.loads(out)["red_three_points"] == 500


def test_files_saved_with_a_byte_order_mark_are_read(tmp_path, capsys):
    (tmp_path / "deal.json").write_text(EXAMPLE.read_text(), encoding="utf-8-sig")
    code, out, _ = run(capsys, "score", str(tmp_path / "deal.json"), "--json")
    assert code == 0 and json.loads(out)["teams"][0]["total"] == 3950
