"""Teaching a deck through the page's routes: the real app, the real store on a temporary
folder, the shipped recogniser and the simulated camera, which lays the chosen deck out. A
deck is photographed, shown for confirmation, kept, looked at, trimmed and deleted; what
cannot be done is refused in plain words with the right status."""

import re

import cv2
import pytest
from fastapi.testclient import TestClient

from scanner.decks.layouts import layout_codes
from scanner.service import TableCamera, TableService
from scanner.store import Store
from scanner.vision import Recogniser
from scanner.web import WebSettings, create_app

pytestmark = pytest.mark.slow  # reads rendered photos with the shipped networks


@pytest.fixture(scope="module")
def recogniser():
    return Recogniser.load()


@pytest.fixture
def table(tmp_path, recogniser):
    store = Store.open(tmp_path / "data")
    service = TableService(store, recogniser, TableCamera("synthetic:5"), frames=1)
    yield store, create_app(service, WebSettings())
    store.close()


@pytest.fixture
def client(table):
    with TestClient(
        table[1], base_url="http://localhost", headers={"Origin": "http://localhost"}
    ) as client:
        yield client


def post(client, url: str, body: dict | None = None, status: int = 200) -> dict:
    answer = client.post(url, json=body or {})
    assert answer.status_code == status, answer.text
    return answer.json()


def keep_url(lesson: dict) -> str:
    return f"/api/decks/lessons/{lesson['id']}/keep"


@pytest.mark.parametrize("layout", ["standard", "special"])
def test_a_deck_photographed_by_the_simulated_camera_is_shown_then_kept(client, table, layout):
    store, _ = table
    lesson = post(client, "/api/decks/lessons", {"name": "Grandma's blue", "layout": layout})
    found = [card["code"] for card in lesson["found"]]
    # most of the deck is found, each card of it once, in the layout's order, with its crops
    codes = layout_codes(layout)
    assert len(found) >= len(codes) // 2 and found == [c for c in codes if c in found]
    assert set(lesson["missing"]) == set(codes) - set(found)
    assert all(card["crops"] for card in lesson["found"])
    assert store.decks() == []  # nothing is kept before the players say so

    page = client.get(lesson["page"])
    assert page.status_code == 200
    assert "These are the cards we saw: right?" in page.text
    if layout == "special":  # JESTER and JOKER end in R but are no red cards
        assert "Red JESTE" not in page.text and 'class="crop-code red"' not in page.text
    crops = re.findall(rf'src="(/teach/{lesson["id"]}/crops/\d+\.png)"', page.text)
    assert len(crops) == sum(len(card["crops"]) for card in lesson["found"])
    picture = client.get(crops[0])
    assert picture.status_code == 200 and picture.content.startswith(b"\x89PNG")

    deck = post(client, keep_url(lesson))
    assert deck["name"] == "Grandma's blue" and deck["layout"] == layout
    kept = store.deck("Grandma's blue")
    assert kept.taught >= len(found)
    taught = {e.code for e in store.deck_examples(kept.name)} - {"none"}
    assert taught == set(found)
    # kept once: the lesson is no longer waiting
    gone = client.post(keep_url(lesson))
    assert gone.status_code == 404 and "take the photo again" in gone.json()["error"]
    listing = client.get("/decks").text
    assert "Grandma&#39;s blue" in listing and "/decks/Grandma%27s%20blue" in listing


def test_the_confirmation_names_the_cards_not_found_in_words(client):
    # taken again and again, the simulated camera lays out fresh tables: one misses a card
    for _ in range(8):
        lesson = post(client, "/api/decks/lessons", {"name": "club", "layout": "standard"})
        if lesson["missing"]:
            break
        lesson = post(client, f"/api/decks/lessons/{lesson['id']}/again")
    else:
        pytest.skip("every photo found the whole deck")
    page = client.get(lesson["page"]).text
    words = {"AR": "Red ace", "QB": "Black queen", "JK": "Joker", "10R": "Red 10"}
    missing = lesson["missing"]
    assert "Not found: " in page
    for code in missing:
        if code in words:
            assert words[code] in page


def test_taking_the_photo_again_replaces_the_waiting_lesson(client):
    first = post(client, "/api/decks/lessons", {"name": "blue", "layout": "special"})
    second = post(client, f"/api/decks/lessons/{first['id']}/again")
    assert second["id"] != first["id"] and second["name"] == "blue"
    assert client.get(first["page"]).status_code == 404
    assert client.get(second["page"]).status_code == 200


def test_a_kept_deck_shows_its_examples_which_can_be_removed_and_it_deleted(client, table):
    store, _ = table
    lesson = post(client, "/api/decks/lessons", {"name": "Aunt May/2", "layout": "special"})
    deck = post(client, keep_url(lesson))
    assert deck["page"] == "/decks/Aunt%20May%2F2"
    page = client.get(deck["page"])
    assert page.status_code == 200 and "Delete this deck" in page.text
    assert "from the photo" in page.text and "Teach again" in page.text
    shown = re.findall(r'src="/decks/Aunt%20May%2F2/examples/(\d+)\.png"', page.text)
    held = store.deck_examples("Aunt May/2")
    assert sorted(map(int, shown)) == sorted(e.id for e in held)
    crop = client.get(f"{deck['page']}/examples/{shown[0]}.png")
    assert crop.status_code == 200 and crop.content == next(
        e.crop for e in held if e.id == int(shown[0])
    )

    after = post(
        client, "/api/decks/examples/remove", {"deck": "Aunt May/2", "example": held[0].id}
    )
    assert after["examples"] == len(held) - 1
    assert held[0].id not in {e.id for e in store.deck_examples("Aunt May/2")}
    missing = client.post(
        "/api/decks/examples/remove", json={"deck": "Aunt May/2", "example": held[0].id}
    )
    assert missing.status_code == 404

    # taught again: the deck's name is its own, the lesson replaces its taught examples
    again = post(
        client, "/api/decks/lessons", {"name": "aunt may/2", "layout": "special", "again": True}
    )
    assert again["name"] == "Aunt May/2"
    post(client, keep_url(again))
    assert len(store.decks()) == 1

    assert post(client, "/api/decks/delete", {"deck": "Aunt May/2"})["deleted"] == "Aunt May/2"
    assert store.decks() == []
    gone = client.get(deck["page"], headers={"Accept-Language": "sv"})
    assert gone.status_code == 404 and "Det finns ingen kortlek som heter Aunt May/2." in gone.text
    assert "Traceback" not in gone.text


def test_refusals_are_plain_words_with_the_right_status(client, table):
    def refused(url: str, body: dict, status: int, language: str = "en") -> str:
        answer = client.post(url, json=body, headers={"Accept-Language": language})
        assert answer.status_code == status, answer.text
        assert "Traceback" not in answer.text
        return answer.json()["shown"]

    assert refused("/api/decks/lessons", {"name": "  "}, 400) == (
        "Give the deck a name of 1 to 60 letters, on one line."
    )
    assert refused("/api/decks/lessons", {"name": "a\tb"}, 400, "da") == (
        "Giv kortspillet et navn på 1 til 60 tegn, på én linje."
    )
    lesson = post(client, "/api/decks/lessons", {"name": "Red", "layout": "standard"})
    post(client, keep_url(lesson))
    assert refused("/api/decks/lessons", {"name": "RED"}, 409, "nb").startswith(
        "Det finnes allerede en kortstokk som heter Red"
    )
    assert refused("/api/decks/lessons", {"name": "Blue", "again": True}, 404) == (
        "There is no deck called Blue."
    )
    assert refused("/api/decks/delete", {"deck": "Blue"}, 404, "sv") == (
        "Det finns ingen kortlek som heter Blue."
    )
    assert refused("/api/decks/lessons/99/keep", {}, 404) == (
        "This photo is no longer waiting to be kept: take the photo again."
    )
    bad = client.post("/api/decks/lessons", json={"name": "x", "layout": "tarot"})
    assert bad.status_code == 422 and "layout" in bad.json()["error"]


def camera_table(folder, recogniser, spec: str):
    store = Store.open(folder / "data")
    service = TableService(store, recogniser, TableCamera(spec), frames=1)
    return store, create_app(service, WebSettings())


def test_a_camera_without_a_frame_or_a_photo_without_a_card_teaches_nothing(tmp_path, recogniser):
    import cv2
    import numpy as np

    (tmp_path / "empty").mkdir()
    blank = tmp_path / "blank"
    blank.mkdir()
    cv2.imwrite(str(blank / "table.png"), np.full((480, 640, 3), 90, np.uint8))
    for spec, status, said in (
        (f"files:{tmp_path / 'empty'}", 503, "camera_silent"),
        (f"files:{blank}", 422, "nothing_to_teach"),
    ):
        store, app = camera_table(tmp_path / spec[-5:], recogniser, spec)
        try:
            with TestClient(
                app, base_url="http://localhost", headers={"Origin": "http://localhost"}
            ) as client:
                answer = client.post("/api/decks/lessons", json={"name": "blue"})
                assert answer.status_code == status, answer.text
                assert answer.json()["said"]["key"] == said
                assert "Traceback" not in answer.text
                if said == "nothing_to_teach":
                    shown = client.post(
                        "/api/decks/lessons",
                        json={"name": "blue"},
                        headers={"Accept-Language": "da"},
                    ).json()["shown"]
                    assert shown.startswith("Der blev ikke fundet noget kort på billedet")
            assert store.decks() == []
        finally:
            store.close()


def test_a_phones_photo_of_the_deck_laid_out_teaches_it_too(client, table):
    """The deck photographed by a phone and sent from the page: read as the camera's photo
    is, shown, then kept; a file that is no picture is refused in plain words."""
    store, _ = table
    laid_out = TableCamera("synthetic:9").photo_to_teach("special")
    photo = cv2.imencode(".jpg", laid_out[:, :, ::-1])[1].tobytes()
    answer = client.post(
        "/api/decks/lessons/upload?name=Blue%20special&layout=special", content=photo
    )
    assert answer.status_code == 200, answer.text
    lesson = answer.json()
    codes = layout_codes("special")
    found = [card["code"] for card in lesson["found"]]
    assert len(found) >= len(codes) // 2 and set(lesson["missing"]) == set(codes) - set(found)
    assert client.get(lesson["page"]).status_code == 200
    assert store.decks() == []
    post(client, keep_url(lesson))
    assert store.deck("Blue special").layout == "special"

    bad = client.post("/api/decks/lessons/upload?name=Other", content=b"not a picture")
    assert bad.status_code == 400 and "not a picture" in bad.json()["shown"]
    assert [d.name for d in store.decks()] == ["Blue special"]


def test_a_deck_saved_to_a_file_is_added_back_from_it(client, table):
    """A deck saved from its page and added from the file (at this table, after deleting it,
    as at another table): the same examples, its corrections too; a file that is no deck file
    and a name already kept are refused in plain words."""
    store, _ = table
    lesson = post(client, "/api/decks/lessons", {"name": "Grandma's blue", "layout": "standard"})
    post(client, keep_url(lesson))
    kept = [(e.code, e.source, e.crop) for e in store.deck_examples("Grandma's blue")]
    saved = client.get("/decks/Grandma%27s%20blue/deck-file")
    assert saved.status_code == 200 and saved.content.startswith(b"PK")
    assert "Grandma%27s%20blue.handfoot-deck.zip" in saved.headers["content-disposition"]
    page = client.get("/decks/Grandma%27s%20blue")
    assert 'href="/decks/Grandma%27s%20blue/deck-file"' in page.text

    taken = client.post("/api/decks/import", content=saved.content)
    assert (
        taken.status_code == 409 and "already a deck called Grandma's blue" in taken.json()["shown"]
    )
    post(client, "/api/decks/delete", {"deck": "Grandma's blue"})
    answer = client.post("/api/decks/import", content=saved.content)
    assert answer.status_code == 200, answer.text
    assert answer.json()["page"] == "/decks/Grandma%27s%20blue"
    assert [(e.code, e.source, e.crop) for e in store.deck_examples("Grandma's blue")] == kept

    for junk in (b"", b"PK\x03\x04 not really", saved.content[: len(saved.content) // 2]):
        bad = client.post("/api/decks/import", content=junk)
        assert bad.status_code == 400 and "not a deck handfoot can read" in bad.json()["shown"]
    assert len(store.decks()) == 1


def test_another_photo_is_read_with_the_lessons_photos_before(client, table):
    """A lesson takes more photos (a card missed, a layout too long for one photo), each read
    with those before, up to three; the newest lesson replaces the one before it."""
    store, _ = table
    first = post(client, "/api/decks/lessons", {"name": "Long table", "layout": "standard"})
    assert (first["photos"], first["more"]) == (1, True)
    second = post(client, f"/api/decks/lessons/{first['id']}/more")
    assert second["photos"] == 2 and second["id"] != first["id"]
    found = lambda lesson: {card["code"] for card in lesson["found"]}  # noqa: E731
    assert found(second) >= found(first)
    assert sum(len(c["crops"]) for c in second["found"]) > sum(
        len(c["crops"]) for c in first["found"]
    )
    assert client.get(f"/api/decks/lessons/{first['id']}").status_code == 404
    page = client.get(second["page"])
    assert f'data-post="/api/decks/lessons/{second["id"]}/more"' in page.text

    laid_out = TableCamera("synthetic:9").photo_to_teach("standard")
    photo = cv2.imencode(".jpg", laid_out[:, :, ::-1])[1].tobytes()
    bad = client.post(f"/api/decks/lessons/{second['id']}/more/upload", content=b"no photo")
    assert bad.status_code == 400 and "not a picture" in bad.json()["shown"]
    answer = client.post(f"/api/decks/lessons/{second['id']}/more/upload", content=photo)
    assert answer.status_code == 200, answer.text
    third = answer.json()
    assert (third["photos"], third["more"]) == (3, False)
    full = client.post(f"/api/decks/lessons/{third['id']}/more")
    assert full.status_code == 409 and "holds 3 photos already" in full.json()["shown"]
    assert 'id="more-lesson"' not in client.get(third["page"]).text
    post(client, keep_url(third))
    assert store.deck("Long table").taught >= sum(len(c["crops"]) for c in third["found"])
