"""House rules as a form, the rules it could not set before (issue 72): books to go out deal
by deal, the deals whose first meld must be a concealed canasta, who plays together and the
deck, each a labelled field with its allowed values, checked by the engine over HTTP."""

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


def fields(form: dict) -> dict:
    return {field["key"]: field for field in form["fields"]}


def test_the_form_shows_every_deals_books_and_the_rules_it_lacked(client):
    form = client.get("/api/rules/brouillette/form").json()
    shown = fields(form)
    assert shown["go_out_deals"]["label"] == "Books needed to go out, deal by deal"
    rows = form["values"]["go_out_deals"]
    assert len(rows) == 4 and rows[0]["clean"] == "1" and rows[3]["clean"] == "2"
    assert form["values"]["go_out"] == rows[0]  # the field every deal follows, as before
    assert [value for value, _ in shown["play"]["choices"]] == [
        "partnership",
        "individual",
        "either",
    ]
    assert [value for value, _ in shown["deck"]["choices"]] == ["standard", "special"]
    assert shown["concealed_first_meld_deals"]["kind"] == "numbers"
    assert form["values"]["concealed_first_meld_deals"] == ""
    danish = client.get("/api/rules/pagat/form", headers={"Accept-Language": "da"}).json()
    assert fields(danish)["concealed_first_meld_deals"]["label"] == (
        "Give hvor første melding skal være en lukket kanasta"
    )


def test_books_deal_by_deal_concealed_canasta_and_play_style_are_checked_and_kept(client):
    books = {"clean": "1", "dirty": "1", "wild": "0", "any": "0"}
    changed = {
        "go_out_deals": [books, books, books, books | {"clean": "3"}],
        "concealed_first_meld_deals": "4",
        "play": "individual",
    }
    checked = client.post("/api/rules/form", json={"base": "pagat", "changed": changed}).json()
    assert checked["ok"], checked
    assert "concealed_first_meld_deals = [4]" in checked["toml"]
    assert 'play = "individual"' in checked["toml"]
    assert (
        "deal by deal 1 clean + 1 dirty / 1 clean + 1 dirty / 1 clean + 1 dirty / 3 clean + 1 dirty"
        in " ".join(checked["summary"])
    )
    assert "The first meld of deal 4 must be a concealed canasta." in checked["summary"]
    game = client.post(
        "/api/games",
        json={"sides": [{"name": "Us"}, {"name": "Them"}], "rules_toml": checked["toml"]},
    )
    assert game.status_code == 201, game.text
    assert client.get("/api/state").json()["game"]["rules_toml"] == checked["toml"]

    # Fewer rows than deals: the deals after the last row ask what it asks.
    fewer = client.post(
        "/api/rules/form",
        json={"base": "pagat", "changed": {"deals": "3", "go_out_deals": [books]}},
    ).json()
    assert fewer["ok"], fewer
    assert "1 clean + 1 dirty" in " ".join(fewer["summary"])


def test_a_rule_the_engine_refuses_is_named_beside_its_field(client):
    bad = {"concealed_first_meld_deals": "9"}
    answer = client.post("/api/rules/form", json={"base": "pagat", "changed": bad}).json()
    assert not answer["ok"]
    problem = answer["problems"][0]
    assert problem["key"] == "concealed_first_meld_deals"
    assert problem["message"].startswith("Deals whose first meld must be a concealed canasta:")
    assert "deal 9 does not exist" in problem["message"]
    wild = {"go_out_deals": [{"clean": "0", "dirty": "0", "wild": "x", "any": "0"}]}
    answer = client.post("/api/rules/form", json={"base": "pagat", "changed": wild}).json()
    assert answer["problems"][0]["key"] == "go_out_deals"
    assert "deal 1 (wild)" in answer["problems"][0]["message"]
    style = client.post(
        "/api/rules/form", json={"base": "pagat", "changed": {"play": "solo"}}
    ).json()
    assert style["problems"][0]["key"] == "play"
