"""A game read with a taught deck, through the page's routes: the real app, the real store on a
temporary folder, the shipped recogniser. The deck is chosen with the game; a card the players
correct in one deal joins the deck once the deal is confirmed, and the next deal's scan of the
same card reads it as they said; what cannot be chosen is refused in plain words."""

from pathlib import Path

import pytest

from tests.web import test_decks as decks
from tests.web.test_decks import keep_url, post

# the real app on a temporary record, the shipped recogniser, as the decks' own tests have them
recogniser, table, client = decks.recogniser, decks.table, decks.client

pytestmark = pytest.mark.slow  # reads photos with the shipped networks

# a real photo of a King and an ace of hearts, both read surely as they are
PHOTO = Path(__file__).resolve().parents[1] / "fixtures" / "vision" / "second_look" / "IMG_2640.JPG"
SIDES = [{"name": "Us"}, {"name": "Them"}]


def taught(client, name: str, layout: str = "standard") -> dict:
    lesson = post(client, "/api/decks/lessons", {"name": name, "layout": layout})
    return post(client, keep_url(lesson))


def scanned(client) -> dict:
    answer = client.post("/api/scans/upload?mode=leftovers&side=Us", content=PHOTO.read_bytes())
    assert answer.status_code == 200, answer.text
    return answer.json()


def read(view: dict) -> dict[str, bool]:
    """The cards a scan read, each with whether it asks for a check."""
    return {card["code"]: card["check"] for card in view["leftovers"]}


def a_deal_corrected(client) -> int:
    """Deal 1: the photo scanned, its King said by the players to be a Queen, the deal
    confirmed. The scan's number."""
    view = scanned(client)
    assert read(view) == {"KR": False, "AR": False}
    king = next(card for card in view["leftovers"] if card["code"] == "KR")
    post(
        client,
        f"/api/scans/{view['id']}/corrections",
        {"action": "change", "card": king["id"], "code": "QR"},
    )
    post(client, "/api/deal/confirm", {"accept_checks": True, "deal": 1})
    return view["id"]


def test_a_card_corrected_in_one_deal_is_read_as_corrected_in_the_next(table, client):
    store, _ = table
    taught(client, "Grandma's red")
    game = post(
        client, "/api/games", {"sides": SIDES, "rules": "pagat", "deck": "grandma's RED"}, 201
    )
    assert game["game"]["deck"] == "Grandma's red"  # kept by the deck's own name

    scan_id = a_deal_corrected(client)
    # deal 2's scan runs after the deck has learnt deal 1's corrections (one scan thread)
    again = scanned(client)
    assert again["deal_number"] == 2
    # the Queen as the players said, asking for a check: the classifier alone reads a King
    assert read(again) == {"QR": True, "AR": False}

    deck = store.deck("Grandma's red")
    corrected = [e for e in store.deck_examples(deck.name) if e.source == "corrected"]
    assert corrected and {e.code for e in corrected} == {"QR"}
    assert {e.scan_id for e in corrected} == {scan_id}
    page = client.get(f"/decks/{deck.name}")
    assert page.status_code == 200 and "from a correction" in page.text


def test_a_game_without_a_deck_learns_nothing_from_its_corrections(table, client):
    store, _ = table
    taught(client, "Grandma's red")
    post(client, "/api/games", {"sides": SIDES, "rules": "pagat"}, 201)
    a_deal_corrected(client)
    assert read(scanned(client)) == {"KR": False, "AR": False}
    assert store.deck("Grandma's red").corrected == 0


def test_a_deck_gone_mid_game_leaves_the_scans_read_without_it(table, client):
    store, _ = table
    taught(client, "Grandma's red")
    post(client, "/api/games", {"sides": SIDES, "rules": "pagat", "deck": "Grandma's red"}, 201)
    post(client, "/api/decks/delete", {"deck": "Grandma's red"})
    assert read(scanned(client)) == {"KR": False, "AR": False}
    post(client, "/api/deal/confirm", {"accept_checks": True, "deal": 1})
    assert store.decks() == []


@pytest.mark.parametrize("language", ["en", "da"])
def test_a_deck_the_game_cannot_be_read_with_is_refused_in_plain_words(client, language):
    client.headers["Accept-Language"] = language
    answer = client.post("/api/games", json={"sides": SIDES, "rules": "pagat", "deck": "Nobody's"})
    assert answer.status_code == 404
    message = answer.json()["shown"]
    assert "Nobody's" in message and "Traceback" not in message
    taught(client, "Blue special", layout="special")
    answer = client.post(
        "/api/games", json={"sides": SIDES, "rules": "pagat", "deck": "Blue special"}
    )
    assert answer.status_code == 400
    message = answer.json()["shown"]
    assert "Blue special" in message
    if language == "en":
        assert "special Hand 'N Foot deck" in message and "choose another deck" in message
    else:
        assert "vælg et andet kortspil" in message
    assert client.get("/api/state").json()["game"] is None  # no game was started
