"""The command line tried as the table's page was (issue: the table's page as players use
it): a Lady's meld explained, every card to check marked in the text as in the JSON, and
``handfoot game`` reading the page's own export."""

import json
from types import SimpleNamespace

from engine import get_preset
from scanner.cli.scan_cmd import print_scan
from scanner.service import TableCamera, TableService
from scanner.service.history import export
from scanner.store import Store
from scanner.table.modes import Mode, TableResult
from scanner.vision.cards import CardReading


def test_a_ladys_meld_says_the_lady_is_not_counted(cli):
    run = cli("check-meld", "--rules", "handnfoot", "LADY LADY 12")
    assert run.code == 1
    assert "at least 3 cards besides its Lady (this one has 1 and 2 Ladies)" in run.out
    assert "(this one has 1)" not in run.out


def reading(code: str, check: bool) -> CardReading:
    square = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    return CardReading(code, 0.4 if check else 0.99, (0, 0, 1, 1), square, 0.0, check)


def test_leftovers_to_check_are_marked_in_the_text(capsys):
    cards = (reading("KB", True), reading("5R", False), reading("9B", True))
    result = TableResult(Mode.LEFTOVERS, get_preset("pagat"), 1, leftovers=cards)
    scan = SimpleNamespace(
        timing_ms={"total": 12.0},
        result=result,
        vote=SimpleNamespace(cards=cards),
        frames=[object()],
        advice=None,
        message=None,
    )
    print_scan("hand.jpg", scan)
    out = capsys.readouterr().out
    assert "left over: KB? 5R 9B?" in out
    assert "check the cards marked ?" in out


def played_game(folder, rules_toml: str | None = None) -> dict:
    """A game of two deals played on the page (cards typed, as a table without a camera
    would), then exported as the page exports it."""
    store = Store.open(folder)
    service = TableService(store, None, TableCamera("synthetic:5"), frames=1)
    service.start()
    try:
        sides = [{"name": "Us", "players": ["Ann"]}, {"name": "Them", "players": []}]
        rules = {"rules_toml": rules_toml} if rules_toml else {"rules": "pagat"}
        game = service.new_game(name="Export", sides=sides, **rules)
        for hand in ("5B JK", "KB"):
            service.set_side("Us", hand=hand)
            service.set_side("Them", hand="4R")
            service.confirm(accept_checks=True)
        return export(store, game["id"], "json")
    finally:
        service.stop()
        store.close()


def test_handfoot_game_reads_the_pages_export(cli, tmp_path):
    exported = played_game(tmp_path / "preset")
    path = tmp_path / "game.json"
    path.write_text(json.dumps(exported))
    run = cli("game", path, "--json")
    assert run.code == 0, run.err
    running = {team["name"]: team["running"] for team in run.json["teams"]}
    assert running == {side["name"]: side["running"] for side in exported["sides"]}


def test_handfoot_game_reads_a_house_rules_export(cli, tmp_path):
    house = 'base = "pagat"\nname = "Grandma"\ncard_values = { K = 25 }\n'
    exported = played_game(tmp_path / "house", house)
    path = tmp_path / "grandma.json"
    path.write_text(json.dumps(exported))
    run = cli("game", path, "--json")
    assert run.code == 0, run.err
    totals = {team["name"]: team["running"][-1] for team in run.json["teams"]}
    assert totals == {side["name"]: side["total"] for side in exported["sides"]}
