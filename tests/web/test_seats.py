"""Players and where they sit (issue 72: "players and seats as a short form, not free
text"): a seat per player, checked, kept in the game record beside the players, and shown on
the table's page with who deals the deal in progress."""

import pytest
from fastapi.testclient import TestClient


@pytest.fixture
def client(tmp_path):
    from scanner.service import TableCamera, TableService
    from scanner.store import Store
    from scanner.web import create_app

    store = Store.open(tmp_path / "data")
    service = TableService(store, None, TableCamera("synthetic:5"), frames=1)
    try:
        with TestClient(create_app(service), base_url="http://localhost") as client:
            client.headers["Origin"] = "http://localhost"
            yield client
    finally:
        store.close()


SEATED = [
    {"name": "Us", "players": ["Anna", "Bo"], "seats": [1, 3]},
    {"name": "Them", "players": ["Cai", "Dina"], "seats": [2, 4]},
]


def test_seats_are_kept_and_shown_with_who_deals(client):
    answer = client.post("/api/games", json={"sides": SEATED, "rules": "pagat"})
    assert answer.status_code == 201, answer.text
    game = answer.json()["game"]
    assert [side.get("seats") for side in game["sides"]] == [[1, 3], [2, 4]]
    state = client.get("/api/state").json()
    assert [place["player"] for place in state["seating"]] == ["Anna", "Cai", "Bo", "Dina"]
    assert state["dealer"] == {"seat": 1, "player": "Anna", "side": "Us"}
    page = client.get("/", headers={"Accept-Language": "en"}).text
    assert "seat 1 Anna (Us) · seat 2 Cai (Them) · seat 3 Bo (Us) · seat 4 Dina (Them)" in page
    assert '<strong class="dealer">Anna deals</strong>' in page
    danish = client.get("/", headers={"Accept-Language": "da"}).text
    assert "plads 2 Cai (Them)" in danish and "Anna giver" in danish
    confirmed = client.post("/api/deal/confirm", json={"deal": 1, "accept_checks": True})
    assert confirmed.status_code == 200, confirmed.text
    assert client.get("/api/state").json()["dealer"]["player"] == "Cai"  # the next seat
    stored = client.get(f"/api/games/{game['id']}").json()
    assert [side.get("seats") for side in stored["sides"]] == [[1, 3], [2, 4]]  # as recorded


def test_a_game_without_seats_is_as_before(client):
    sides = [{"name": "Us", "players": ["Anna"]}, {"name": "Them"}]
    game = client.post("/api/games", json={"sides": sides, "rules": "pagat"}).json()["game"]
    assert all("seats" not in side for side in game["sides"])
    state = client.get("/api/state").json()
    assert state["seating"] == [] and state["dealer"] is None
    assert "Who sits where" not in client.get("/").text


@pytest.mark.parametrize(
    ("sides", "said"),
    [
        ([SEATED[0], SEATED[1] | {"seats": [2, 3]}], "two players have that seat"),
        ([SEATED[0], SEATED[1] | {"seats": [2, 5]}], "the seats are 1 to 4"),
        ([SEATED[0], SEATED[1] | {"seats": [2]}], "give one seat number per player"),
        ([SEATED[0], SEATED[1] | {"seats": [2, None]}], "give every player a seat, or none"),
    ],
)
def test_seats_that_cannot_be_are_named(client, sides, said):
    answer = client.post("/api/games", json={"sides": sides, "rules": "pagat"})
    assert answer.status_code == 400 and said in answer.json()["error"], answer.text
