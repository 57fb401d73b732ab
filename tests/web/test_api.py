"""The page's API through the real app: a temporary SQLite game record, the shipped recogniser
and the simulated camera. A whole deal is played, corrected, scored, undone and exported."""

import re
import threading
import time

import pytest
from fastapi.testclient import TestClient

from engine import Deal, Side, get_preset, parse_cards, score_deal
from scanner.service import Busy, TableCamera, TableService
from scanner.store import Store
from scanner.vision import Recogniser
from scanner.web import WebSettings, create_app

PAGAT = get_preset("pagat")


@pytest.fixture(scope="module")
def recogniser():
    return Recogniser.load()


@pytest.fixture(scope="module")
def photo() -> bytes:
    from model.synth.scene import render_scene

    return render_scene(11, 2, split="test", deck="standard", size=(1024, 768)).jpeg


class Table:
    """The app, its service and its record, for one test."""

    def __init__(self, folder, recogniser, **settings) -> None:
        self.store = Store.open(folder)
        self.service = TableService(self.store, recogniser, TableCamera("synthetic:5"), frames=1)
        self.app = create_app(self.service, WebSettings(**settings))


@pytest.fixture
def table(tmp_path, recogniser):
    made = Table(tmp_path / "data", recogniser)
    yield made
    made.store.close()


@pytest.fixture
def client(table):
    with TestClient(
        table.app, base_url="http://localhost", headers={"Origin": "http://localhost"}
    ) as client:
        yield client


def new_game(client, **extra) -> dict:
    body = {"name": "Friday", "sides": [{"name": "Us", "players": "Ann, Bob"}, {"name": "Them"}]}
    answer = client.post("/api/games", json=body | extra)
    assert answer.status_code == 201, answer.text
    return answer.json()


def post(client, url: str, body: dict | None = None, status: int = 200) -> dict:
    answer = client.post(url, json=body or {})
    assert answer.status_code == status, answer.text
    return answer.json()


def make_legal(client, scan_id: int) -> dict:
    """Remove melds until the engine finds the scan's table legal (the simulated camera lays
    busier tables than any one side's, so a player removes the melds that are not theirs)."""
    for _ in range(80):
        view = client.get(f"/api/scans/{scan_id}").json()
        if view["legal"]:
            return view
        illegal = [meld["number"] for meld in view["melds"] if not meld["legal"]]
        found = re.match(r"meld (\d+):", view["problems"][0]) if view["problems"] else None
        if illegal or found:
            number = illegal[-1] if illegal else int(found.group(1))
            post(
                client,
                f"/api/scans/{scan_id}/corrections",
                {"action": "remove_meld", "meld": number},
            )
        else:
            card = view["red_threes"][0]["id"]
            post(client, f"/api/scans/{scan_id}/corrections", {"action": "delete", "card": card})
    raise AssertionError("the scan never became legal")


def engine_side(name: str, table: dict | None, leftovers: dict | None, typed=()) -> Side:
    melds = tuple(parse_cards(" ".join(c["code"] for c in m["cards"])) for m in table["melds"])
    threes = parse_cards(" ".join(c["code"] for c in table["red_threes"]))
    hand = [c["code"] for c in leftovers["leftovers"]] if leftovers else []
    return Side(name, melds=melds, red_threes=threes, hand=parse_cards(" ".join([*hand, *typed])))


def test_a_whole_deal(client, table, photo):
    new_game(client)
    state = client.get("/api/state").json()
    assert state["deal"] == 1 and state["minimum"] == "50 points"
    assert [side["name"] for side in state["sides"]] == ["Us", "Them"]

    # Us: the camera reads the table; a misread card is corrected and the meld re-scored.
    scan = post(client, "/api/scan", {"mode": "table", "side": "Us"})
    assert scan["side"] == "Us" and scan["melds"]
    meld = scan["melds"][0]
    card = meld["cards"][0]
    other = "QB" if card["code"] != "QB" else "KB"
    fixed = post(client, f"/api/scans/{scan['id']}/corrections",
                 {"action": "change", "card": card["id"], "code": other})  # fmt: skip
    codes = [c["code"] for c in fixed["melds"][0]["cards"]]
    assert codes[0] == other
    from engine import check_meld

    assert fixed["melds"][0]["points"] == check_meld(parse_cards(" ".join(codes)), PAGAT).points
    assert table.store.corrections(scan["id"])[0].detail == {"card": card["id"], "code": other}
    us_table = make_legal(client, scan["id"])

    # Them: a phone's photo instead of the camera.
    answer = client.post(
        "/api/scans/upload?mode=table&side=Them",
        content=photo,
        headers={"Content-Type": "image/jpeg"},
    )
    assert answer.status_code == 200, answer.text
    them_table = make_legal(client, answer.json()["id"])
    assert table.store.scan(them_table["id"]).image_file.endswith(".jpg")

    # Leftovers: Us scanned, Them typed in.
    post(client, "/api/camera/new-table")
    leftovers = post(client, "/api/scan", {"mode": "leftovers", "side": "Us"})
    assert leftovers["mode"] == "leftovers"
    post(client, "/api/deal/sides/Them", {"hand": "5b jk"})

    preview = client.get("/api/deal/preview").json()
    assert preview["possible"], preview["problems"]
    state = client.get("/api/state").json()
    assert state["sides"][0]["table"]["id"] == us_table["id"]
    assert state["sides"][1]["typed_hand"] == ["5B", "JK"]

    if preview["checks"]:
        refused = client.post("/api/deal/confirm", json={})
        assert refused.status_code == 409 and "still marked check" in refused.json()["error"]
    deal = post(client, "/api/deal/confirm", {"accept_checks": True})["deal"]
    assert deal["number"] == 1 and set(deal["scan_ids"]) >= {us_table["id"], them_table["id"]}

    # The totals are the engine's for the same cards.
    us = engine_side("Us", us_table, client.get(f"/api/scans/{leftovers['id']}").json())
    them = engine_side("Them", them_table, None, typed=("5B", "JK"))
    result = score_deal(Deal(PAGAT, 1, (us, them)))
    state = client.get("/api/state").json()
    assert state["deal"] == 2 and state["minimum"] == "90 points"
    assert [side["total"] for side in state["sides"]] == [side.total for side in result.sides]
    assert state["sides"][0]["table"] is None  # a fresh deal

    # Undo: the deal is in progress again, with its scans and typed cards.
    undone = post(client, "/api/deal/undo")["deal"]
    assert undone["number"] == 1 and undone["undone_at"]
    state = client.get("/api/state").json()
    assert state["deal"] == 1 and [side["total"] for side in state["sides"]] == [0, 0]
    assert state["sides"][0]["table"]["id"] == us_table["id"]
    assert state["sides"][1]["typed_hand"] == ["5B", "JK"]
    post(client, "/api/deal/confirm", {"accept_checks": True})

    # History and exports.
    games = client.get("/api/games").json()
    assert games[0]["deals_played"] == 1 and games[0]["totals"]["Us"] == result.sides[0].total
    game = client.get("/api/games/1").json()
    assert game["deals"][0]["number"] == 1
    exported = client.get("/api/games/1/export.json")
    assert exported.json()["sides"][0]["total"] == result.sides[0].total
    assert "attachment" in exported.headers["content-disposition"]
    csv = client.get("/api/games/1/export.csv")
    assert csv.headers["content-type"].startswith("text/csv")
    assert csv.text.splitlines()[0].startswith("game,deal,side")
    for page in ("/", "/deal", "/history", "/history/1", f"/scan/{us_table['id']}", "/new"):
        answer = client.get(page)
        assert answer.status_code == 200, page
        assert "Traceback" not in answer.text
    assert client.get(f"/scans/{us_table['id']}/annotated").headers["content-type"] == "image/jpeg"
    assert "Friday" in client.get("/history").text


def test_pages_before_any_game(client):
    page = client.get("/")
    assert page.status_code == 200 and "Start a new game" in page.text
    assert 'src="/static/handfoot.js"' in page.text
    assert client.get("/static/handfoot.css").status_code == 200
    deal = client.get("/deal")
    assert deal.status_code == 200 and "There is no game yet" in deal.text
    refused = client.post("/api/deal/confirm", json={})
    assert refused.status_code == 409 and refused.json()["error"] == (
        "There is no game yet: start one first."
    )


def test_health(client):
    report = client.get("/healthz").json()
    assert report["ok"] and report["storage"]["ok"] and report["models"]["ok"]
    assert report["camera"]["kind"] == "synthetic" and report["panel"]["kind"] == "simulated"


def test_panel_buttons(client):
    new_game(client)
    assert post(client, "/api/panel/mode")["panel"]["mode"] == "leftovers"
    assert post(client, "/api/panel/next")["panel"]["side"] == "Them"
    pressed = post(client, "/api/panel/scan")
    assert pressed["scan"]["mode"] == "leftovers" and pressed["scan"]["side"] == "Them"
    assert pressed["panel"]["display"] == str(pressed["scan"]["totals"]["total"])
    assert client.get("/api/panel").json()["light"] in ("green", "amber", "red")


def test_house_rules(client):
    checked = client.post("/api/rules/check", json={"rules_toml": 'base = "pagat"\nwild = 1'})
    assert checked.status_code == 400 and "wild" in checked.json()["error"]
    good = post(client, "/api/rules/check", {"rules_toml": 'base = "family"\nname = "Ours"'})
    assert good["name"] == "Ours"
    toml = client.get("/api/rules/family/toml")
    assert toml.status_code == 200 and 'base = "family"' in toml.text
    assert client.get("/api/rules/nope/toml").status_code == 404
    game = new_game(client, rules_toml='base = "family"\nname = "Ours"\ngoing_out_bonus = 150')
    assert game["game"]["rules_name"] == "Ours"
    assert client.get("/api/state").json()["rules"]["name"] == "Ours"


def test_uploads_refused_and_nothing_kept(table, recogniser, tmp_path):
    small = Table(tmp_path / "small", recogniser, max_upload_bytes=64 * 1024)
    with TestClient(
        small.app, base_url="http://localhost", headers={"Origin": "http://localhost"}
    ) as client:
        corrupt = client.post("/api/scans/upload", content=b"\x00not a photo" * 100)
        assert corrupt.status_code == 400 and "not a picture" in corrupt.json()["error"]
        empty = client.post("/api/scans/upload", content=b"")
        assert empty.status_code == 400
        big = client.post("/api/scans/upload", content=b"\xff" * (65 * 1024))
        assert big.status_code == 413 and "64 KB" in big.json()["error"]
        streamed = client.post(
            "/api/scans/upload", content=(b"\xff" * 8192 for _ in range(10))
        )  # no Content-Length: counted as it arrives
        assert streamed.status_code == 413
    assert small.store.scans() == []
    assert not any(path.is_file() for path in (tmp_path / "small" / "scans").rglob("*"))
    small.store.close()


def test_unknown_ids_are_404(client):
    for url in ("/api/games/99", "/api/scans/99", "/scans/99/image", "/api/games/99/export.csv"):
        answer = client.get(url)
        assert answer.status_code == 404, url
        assert answer.json()["error"].startswith("There is no"), url
    assert (
        client.post("/api/scans/99/corrections", json={"action": "delete", "card": 1}).status_code
        == 404
    )
    assert client.post("/api/games/99/resume").status_code == 404
    page = client.get("/history/99")
    assert page.status_code == 404 and "There is no game 99" in page.text and "<html" in page.text
    assert client.get("/no/such/page").status_code == 404


def test_bad_input_is_named(client):
    new_game(client)
    scan = post(client, "/api/scan", {"mode": "meld"})
    url = f"/api/scans/{scan['id']}/corrections"
    card = scan["melds"][0]["cards"][0]["id"] if scan["melds"] else scan["unplaced"][0]["id"]
    unknown = client.post(url, json={"action": "change", "card": card, "code": "ZZ"})
    assert unknown.status_code == 400
    assert "'ZZ' is not a card of the standard deck" in unknown.json()["error"]
    cases = [
        ("/api/scan", {"mode": "fast"}, "mode"),
        (url, {"action": "delete", "card": "seven"}, "card"),
        (url, {"card": 1}, "action"),
        ("/api/deal/confirm", {"accept_checks": True, "force": 1}, "force"),
        ("/api/games", {"sides": "Us"}, "sides"),
    ]
    for target, body, field in cases:
        answer = client.post(target, json=body)
        assert answer.status_code == 422, (target, body)
        assert f"'{field}'" in answer.json()["error"], answer.json()
    broken = client.post(url, content=b"{not json", headers={"Content-Type": "application/json"})
    assert broken.status_code == 422 and broken.json() == {
        "error": "The request is not valid JSON."
    }
    side = client.post("/api/deal/sides/Nobody", json={"went_out": True})
    assert side.status_code == 404 and "Nobody" in side.json()["error"]
    typed = client.post("/api/deal/sides/Us", json={"hand": "5B QQ"})
    assert typed.status_code == 400 and "'QQ'" in typed.json()["error"]
    names = client.post("/api/games", json={"sides": [{"name": "A"}, {"name": "a"}]})
    assert names.status_code == 400 and "two sides have that name" in names.json()["error"]


def test_pin_guards_every_change(tmp_path, recogniser):
    guarded = Table(tmp_path / "pin", recogniser, pin="2468")
    with TestClient(
        guarded.app, base_url="http://localhost", headers={"Origin": "http://localhost"}
    ) as client:
        assert client.get("/api/state").status_code == 200
        missing = client.post("/api/panel/mode")
        assert missing.status_code == 401 and "PIN" in missing.json()["error"]
        wrong = client.post("/api/panel/mode", headers={"X-Table-PIN": "1111"})
        assert wrong.status_code == 403
        right = client.post("/api/panel/mode", headers={"X-Table-PIN": "2468"})
        assert right.status_code == 200
        assert "Table PIN" in client.get("/").text
    guarded.store.close()


def test_foreign_host_and_other_sites_refused(client):
    rebound = client.get("/api/state", headers={"Host": "evil.example"})
    assert rebound.status_code == 400 and "evil.example" in rebound.json()["error"]
    page = client.get("/", headers={"Host": "evil.example:8080"})
    assert page.status_code == 400 and "this machine" in page.text
    assert client.get("/api/state", headers={"Host": "127.0.0.1:8080"}).status_code == 200
    cross = client.post("/api/panel/mode", headers={"Origin": "http://evil.example"})
    assert cross.status_code == 403
    same = client.post("/api/panel/mode", headers={"Origin": "http://localhost"})
    assert same.status_code == 200
    assert "access-control-allow-origin" not in same.headers


def test_a_second_scan_while_busy_is_refused(table, client):
    outcome = {}

    def first() -> None:
        outcome["view"] = table.service.scan("table")

    worker = threading.Thread(target=first)
    worker.start()
    deadline = time.monotonic() + 10
    while not table.service.state.panel.busy and time.monotonic() < deadline:
        time.sleep(0.005)
    with pytest.raises(Busy):
        table.service.scan("table")
    answer = client.post("/api/scan", json={})
    worker.join(30)
    assert answer.status_code in (200, 409)  # 409 while the first still runs
    if answer.status_code == 409:
        assert "already running" in answer.json()["error"]
    assert outcome["view"]["mode"] == "table"


def test_a_photo_of_cards_too_small_to_read_well_says_to_bring_the_camera_closer(client):
    """A busy table seen from high above: the scan says so on the page and in its status, and
    the same table seen closer says nothing of the kind."""
    import cv2

    from scanner.vision.legibility import SMALL_BELOW_PX, SMALL_MESSAGE
    from tests.vision.test_legibility import FIXTURES

    high = cv2.imread(str(FIXTURES / "scale" / "busy-7777-65.png"))
    jpeg = cv2.imencode(".jpg", high, [cv2.IMWRITE_JPEG_QUALITY, 95])[1].tobytes()
    headers = {"Content-Type": "image/jpeg"}
    view = client.post("/api/scans/upload?mode=table", content=jpeg, headers=headers).json()
    assert view["advice"] == SMALL_MESSAGE and view["small_px"] < SMALL_BELOW_PX
    assert view["index_px"] >= view["small_px"]
    assert SMALL_MESSAGE in client.get("/api/state").json()["message"]
    assert SMALL_MESSAGE in client.get("/").text
    assert SMALL_MESSAGE in client.get(f"/scan/{view['id']}").text
    # the same table seen from a third as high
    closer = cv2.resize(high, None, fx=3, fy=3, interpolation=cv2.INTER_CUBIC)
    jpeg = cv2.imencode(".jpg", closer, [cv2.IMWRITE_JPEG_QUALITY, 95])[1].tobytes()
    near = client.post("/api/scans/upload?mode=table", content=jpeg, headers=headers).json()
    assert near["advice"] is None and near["melds"] and near["small_px"] >= SMALL_BELOW_PX
    assert SMALL_MESSAGE not in client.get("/").text
