"""Exports of a game: deals scored by the real engine, stored, then read back as JSON and as CSV
parsed with the csv module."""

import copy
import csv
import io
import json
from pathlib import Path

import pytest

from engine import Breakdown, deal_from_json, score_deal
from scanner.cli.score_cmd import deal_as_json
from scanner.store import NotFound, Store
from scanner.store.export import game_to_csv, game_to_json, side_lines

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "deal-pagat.json"
SIDES = [
    {"name": "North-South", "players": ["Ann", "Bo"]},
    {"name": "East-West", "players": ["Cy", "Di"]},
]
HEADER = ["game", "deal", "side", *Breakdown.LINES, "deal_total", "running_total"]


def three_deals() -> list[dict]:
    """Three different deals of one game, as deal-file JSON."""
    base = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    first = base | {"deal": 1}
    second = copy.deepcopy(base) | {"deal": 2}
    # The same tables the other way round: East-West went out this time.
    ns, ew = second["teams"]
    second["teams"] = [ew | {"name": "North-South"}, ns | {"name": "East-West"}]
    third = copy.deepcopy(base) | {"deal": 3}
    third["teams"][1]["hand"] = []
    return [first, second, third]


@pytest.fixture
def played(tmp_path: Path):
    """A store with one game of three confirmed deals (and one undone), and the engine's
    totals per deal and side."""
    with Store.open(tmp_path) as store:
        game = store.create_game("Export me", "pagat", "", SIDES)
        totals = []
        for deal in three_deals():
            result = deal_as_json(score_deal(deal_from_json(deal)))
            assert result["possible"], result["problems"]
            store.confirm_deal(game.id, deal["deal"], deal, result)
            totals.append({team["name"]: team["total"] for team in result["teams"]})
            if deal["deal"] == 2:  # a mistaken deal 3 confirmed, then undone: not exported
                store.confirm_deal(game.id, 3, deal | {"deal": 3}, result)
                store.undo_last_deal(game.id)
        yield store, game.id, totals


def running(totals: list[dict]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {"North-South": [], "East-West": []}
    for name, values in out.items():
        so_far = 0
        for per_deal in totals:
            so_far += per_deal[name]
            values.append(so_far)
    return out


def test_the_three_deals_score_differently(played):
    _, _, totals = played
    assert len({tuple(t.values()) for t in totals}) == 3


def test_json_export_has_the_game_every_deal_and_running_totals(played):
    store, game_id, totals = played
    exported = game_to_json(store, game_id)
    json.dumps(exported)
    assert exported["game"]["name"] == "Export me"
    assert exported["game"]["sides"] == SIDES
    assert [deal["number"] for deal in exported["deals"]] == [1, 2, 3]
    expected = running(totals)
    for index, deal in enumerate(exported["deals"]):
        assert [side["name"] for side in deal["sides"]] == ["North-South", "East-West"]
        for side in deal["sides"]:
            assert side["total"] == totals[index][side["name"]]
            assert side["running_total"] == expected[side["name"]][index]
            assert sum(side["lines"].values()) == side["total"]
            assert list(side["lines"]) == list(Breakdown.LINES)
        assert deal["result"]["teams"][0]["breakdown"]["melds"]  # the whole result rides along
    sides = {side["name"]: side for side in exported["sides"]}
    for name in ("North-South", "East-West"):
        assert sides[name]["per_deal"] == [t[name] for t in totals]
        assert sides[name]["running"] == expected[name]
        assert sides[name]["total"] == expected[name][-1]
    assert sides["East-West"]["players"] == ["Cy", "Di"]


def test_csv_export_parses_back_with_running_totals(played):
    store, game_id, totals = played
    text = game_to_csv(store, game_id)
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == HEADER
    records = list(csv.DictReader(io.StringIO(text)))
    assert len(records) == 3 * 2
    expected = running(totals)
    for index, name in [(i, n) for i in range(3) for n in ("North-South", "East-West")]:
        row = records[2 * index + (name == "East-West")]
        assert (row["game"], row["deal"], row["side"]) == (str(game_id), str(index + 1), name)
        assert int(row["deal_total"]) == totals[index][name]
        assert int(row["running_total"]) == expected[name][index]
        assert sum(int(row[line]) for line in Breakdown.LINES) == int(row["deal_total"])


def test_a_game_without_deals_exports_empty(tmp_path: Path):
    with Store.open(tmp_path) as store:
        game = store.create_game("Empty", "pagat", "", SIDES)
        exported = game_to_json(store, game.id)
        assert exported["deals"] == []
        assert [side["total"] for side in exported["sides"]] == [0, 0]
        assert list(csv.reader(io.StringIO(game_to_csv(store, game.id)))) == [HEADER]


def test_exporting_an_unknown_game_is_not_found(tmp_path: Path):
    with Store.open(tmp_path) as store:
        with pytest.raises(NotFound):
            game_to_json(store, 1)
        with pytest.raises(NotFound):
            game_to_csv(store, 1)


def test_results_with_missing_and_unknown_lines_are_tolerated(tmp_path: Path):
    old = {"teams": [{"name": "North-South", "total": 300, "breakdown": {"melded_points": 300}}]}
    odd = {
        "sides": [  # not the engine's key, and no totals: summed from the lines
            {"name": "North-South", "breakdown": {"melded_points": 50, "new_bonus": 25}},
            {"name": "Visitors", "breakdown": {"hand": -10, "melds": []}},
            {"breakdown": {"hand": -99}},  # no name: skipped
        ]
    }
    with Store.open(tmp_path) as store:
        game = store.create_game("Mixed", "pagat", "", SIDES)
        store.confirm_deal(game.id, 1, {}, old)
        store.confirm_deal(game.id, 2, {}, odd)
        store.confirm_deal(game.id, 3, {}, {"teams": "garbled"})
        exported = game_to_json(store, game.id)
        rows = list(csv.DictReader(io.StringIO(game_to_csv(store, game.id))))
    totals = {side["name"]: side["per_deal"] for side in exported["sides"]}
    assert totals == {
        "North-South": [300, 75, 0],
        "East-West": [0, 0, 0],
        "Visitors": [0, -10, 0],
    }
    assert [row["running_total"] for row in rows if row["side"] == "North-South"] == [
        "300",
        "375",
        "375",
    ]
    assert "new_bonus" in rows[0] and rows[3]["new_bonus"] == "25"
    assert rows[0]["hand"] == "0"


def test_side_lines_reads_the_engines_own_output():
    deal = three_deals()[0]
    result = deal_as_json(score_deal(deal_from_json(deal)))
    sides = side_lines(result)
    assert [side.name for side in sides] == ["North-South", "East-West"]
    assert [side.total for side in sides] == [team["total"] for team in result["teams"]]
    assert all(sum(side.lines.values()) == side.total for side in sides)
