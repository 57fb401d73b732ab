"""What a stranger on the Wi-Fi or two phones at once could do to the table, each tried through
the real app with a real SQLite game record: every attack here once worked."""

import csv
import io
import json
import re
import subprocess
import sys
import threading
import time
import tracemalloc
import zlib
from urllib.parse import urljoin

import pytest
from fastapi.testclient import TestClient

from scanner.service import TableCamera, TableService
from scanner.store import Store
from scanner.vision import Recogniser
from scanner.web import WebSettings, create_app

ORIGIN = {"Origin": "http://localhost"}


@pytest.fixture(scope="module")
def recogniser():
    return Recogniser.load()


class Table:
    def __init__(self, folder, recogniser, **settings) -> None:
        self.store = Store.open(folder)
        self.service = TableService(self.store, recogniser, TableCamera("synthetic:5"), frames=1)
        self.app = create_app(self.service, WebSettings(**settings))


@pytest.fixture
def table(tmp_path, recogniser):
    made = Table(tmp_path / "data", recogniser)
    yield made
    made.store.close()


def phone(app, address: str = "10.0.0.7") -> TestClient:
    return TestClient(app, base_url="http://localhost", client=(address, 50000), headers=ORIGIN)


@pytest.fixture
def client(table):
    with phone(table.app) as client:
        yield client


def start_game(client, sides=("Us", "Them"), **extra) -> dict:
    body = {"name": "Friday", "sides": [{"name": name} for name in sides]} | extra
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()


# 1. House rules that would size memory by a number the page sent.
def test_absurd_deal_counts_are_refused_before_any_work(client):
    tracemalloc.start()
    try:
        started = time.monotonic()
        answer = client.post(
            "/api/rules/check", json={"rules_toml": 'base = "pagat"\ndeals = 200000000'}
        )
        took = time.monotonic() - started
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert answer.status_code == 400 and "deals" in answer.json()["error"]
    assert peak < 20 * 2**20 and took < 0.5, (peak, took)
    huge = 'base = "pagat"\ndeals = 9223372036854775807'
    assert client.post("/api/rules/check", json={"rules_toml": huge}).status_code == 400
    game = client.post("/api/games", json={"sides": [{"name": "Us"}], "rules_toml": huge})
    assert game.status_code == 400 and "deals" in game.json()["error"]
    bonus = 'base = "pagat"\nclean_bonus = 99999999999999999999'
    assert client.post("/api/rules/check", json={"rules_toml": bonus}).status_code == 400


# 3. One phone's wrong PINs must not lock the players out.
def test_wrong_pins_from_one_phone_do_not_lock_out_another(tmp_path, recogniser):
    guarded = Table(tmp_path / "pin", recogniser, pin="2468")
    with phone(guarded.app, "10.0.0.66") as stranger:
        player = phone(guarded.app, "10.0.0.7")
        for guess in range(30):
            stranger.post("/api/panel/mode", headers={"X-Table-PIN": f"{guess:04}"})
        locked = stranger.post("/api/panel/mode", headers={"X-Table-PIN": "2468"})
        assert locked.status_code == 429 and "wait" in locked.json()["error"]
        assert re.search(r"\d+ (seconds|minutes)", locked.json()["error"])
        right = player.post("/api/panel/mode", headers={"X-Table-PIN": "2468"})
        assert right.status_code == 200, right.text
        cookie = right.headers["set-cookie"]
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie.replace("samesite", "SameSite")
        # the PIN once per phone: the cookie carries it from now on
        assert player.post("/api/panel/mode").status_code == 200
        assert stranger.post("/api/panel/mode").status_code in (401, 429)
    guarded.store.close()


def test_wrong_pins_wait_longer_each_time():
    from scanner.web.security import FREE_TRIES, LONGEST_WAIT_S, PinTries

    now = [0.0]
    tries = PinTries(clock=lambda: now[0])
    waits = []
    for guess in range(FREE_TRIES + 12):
        assert tries.wait_s("10.0.0.66") == 0
        tries.wrong("10.0.0.66", f"{guess:04}")
        waits.append(tries.wait_s("10.0.0.66"))
        now[0] += waits[-1]
    assert waits[:FREE_TRIES] == [0] * FREE_TRIES
    assert waits[FREE_TRIES : FREE_TRIES + 3] == [2, 4, 8] and waits[-1] == LONGEST_WAIT_S
    assert tries.wait_s("10.0.0.7") == 0  # another phone
    # a page sending again the wrong PIN it remembered makes no new guess
    for _ in range(20):
        tries.wrong("10.0.0.8", "1111")
    assert tries.wait_s("10.0.0.8") == 0
    # every 4-digit PIN from one phone: three months, not 17 hours
    assert sum(waits) + (10_000 - len(waits)) * LONGEST_WAIT_S > 90 * 24 * 3600


# 4. A small file that declares a huge picture is refused from its header.
def png_header_only(width: int, height: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return len(data).to_bytes(4, "big") + body + zlib.crc32(body).to_bytes(4, "big")

    header = width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes([8, 2, 0, 0, 0])
    rows = zlib.compress(b"\x00" * (width * 3 + 1) * 64, 9)  # only the first rows
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", rows)


def test_a_declared_huge_picture_is_not_decoded(tmp_path):
    bomb = tmp_path / "bomb.png"
    bomb.write_bytes(png_header_only(20000, 20000))
    script = (
        "import resource, sys\n"
        "from scanner.service.images import decode_upload\n"
        "from scanner.service.errors import BadUpload\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "try:\n"
        "    decode_upload(open(sys.argv[1], 'rb').read())\n"
        "except BadUpload as error:\n"
        "    print(error)\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(bomb)], capture_output=True, text=True, timeout=120
    )
    message, grown_kb = done.stdout.strip().splitlines()
    assert "too large" in message and "20000" in message
    assert int(grown_kb) < 50 * 1024, grown_kb


# 13. Tiny pictures and ids too large for SQLite: a sentence, never a 500.
def test_tiny_pictures_and_huge_ids_are_answered_plainly(client):
    import cv2
    import numpy as np

    for width, height in ((4, 4), (7, 300), (1, 1)):
        tiny = cv2.imencode(".png", np.zeros((height, width, 3), np.uint8))[1].tobytes()
        answer = client.post("/api/scans/upload", content=tiny)
        assert answer.status_code == 400, (width, height, answer.text)
        assert "picture" in answer.json()["error"] or "photo" in answer.json()["error"]
    huge = 2**63
    for method, url in (
        ("GET", f"/api/games/{huge}"),
        ("GET", f"/api/games/{huge}/export.csv"),
        ("GET", f"/api/games/{huge}/export.json"),
        ("GET", f"/api/scans/{huge}"),
        ("GET", f"/scans/{huge}/image"),
        ("GET", f"/scans/{huge}/annotated"),
        ("GET", f"/history/{huge}"),
        ("GET", f"/scan/{huge}"),
        ("POST", f"/api/games/{huge}/resume"),
        ("POST", f"/api/scans/{huge}/corrections"),
    ):
        body = {"action": "delete", "card": 1} if "corrections" in url else None
        answer = client.request(method, url, json=body)
        assert 400 <= answer.status_code < 500, (url, answer.status_code, answer.text)
        assert "Traceback" not in answer.text and "SQLite" not in answer.text


# 5. Another site must not frame the page, and a change must say where it comes from.
def test_every_answer_carries_the_security_headers(client):
    start_game(client)
    for url in ("/", "/deal", "/api/state", "/static/handfoot.js", "/healthz", "/nowhere"):
        answer = client.get(url)
        policy = answer.headers.get("content-security-policy", "")
        assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy, url
        assert "unsafe-inline" not in policy.split("script-src")[1].split(";")[0], url
        assert answer.headers.get("x-content-type-options") == "nosniff", url
        assert answer.headers.get("x-frame-options") == "DENY", url
        assert answer.headers.get("referrer-policy") == "no-referrer", url
    for page in ("/", "/deal", "/new", "/history"):
        text = client.get(page).text
        assert not re.search(r"<script(?![^>]*\bsrc=)", text), page
        assert not re.search(r"\son[a-z]+=", text), page


def test_a_change_without_origin_is_refused(table):
    with TestClient(table.app, base_url="http://localhost") as bare:
        forged = bare.post("/api/panel/mode", headers={"Referer": "http://evil.example/x"})
        assert forged.status_code == 403 and "own page" in forged.json()["error"]
        site = bare.post("/api/panel/mode", headers={"Sec-Fetch-Site": "same-origin"})
        assert site.status_code == 200
        framed = bare.post("/api/panel/mode", headers={"Sec-Fetch-Site": "cross-site"})
        assert framed.status_code == 403


def test_with_a_pin_photos_and_exports_need_it(tmp_path, recogniser):
    from model.synth.scene import render_scene

    guarded = Table(tmp_path / "pin", recogniser, pin="correct horse")
    with phone(guarded.app) as player:
        pin = {"X-Table-PIN": "correct horse"}
        start = player.post("/api/games", json={"sides": [{"name": "Us"}]}, headers=pin)
        assert start.status_code == 201
        photo = render_scene(11, 2, split="test", deck="standard", size=(640, 480)).jpeg
        scan = player.post("/api/scans/upload", content=photo, headers=pin)
        assert scan.status_code == 200, scan.text
        scan_id = guarded.store.scans()[0].id
        game_id = start.json()["game"]["id"]
        stranger = phone(guarded.app, "10.0.0.66")
        urls = (
            f"/scans/{scan_id}/image",
            f"/scans/{scan_id}/annotated",
            f"/api/games/{game_id}/export.csv",
            f"/api/games/{game_id}/export.json",
            "/api/games",
            f"/api/games/{game_id}",
        )
        for url in urls:
            refused = stranger.get(url)
            assert refused.status_code == 401 and "PIN" in refused.json()["error"], url
        for url in urls:
            assert phone(guarded.app, "10.0.0.8").get(url, headers=pin).status_code == 200
        assert player.get(f"/scans/{scan_id}/image").status_code == 200  # its cookie
        # a phone that only watches opens its session with the PIN once, as the page does
        watcher = phone(guarded.app, "10.0.0.9")
        assert watcher.get(f"/scans/{scan_id}/image").status_code == 401
        assert watcher.post("/api/session", headers=pin).status_code == 200
        assert watcher.get(f"/scans/{scan_id}/image").status_code == 200
        assert stranger.get("/api/state").status_code == 200  # the table itself stays open
    guarded.store.close()


# 6. Names and players are bounded and cleaned.
def test_names_and_players_are_bounded_and_cleaned(client, table):
    many = client.post("/api/games", json={"sides": [{"name": "Us", "players": ["p"] * 100_000}]})
    assert many.status_code in (400, 413, 422), many.status_code
    assert "players" in many.json()["error"]
    game = start_game(client, sides=("Ann\x00\x1b[31m", "Bob\nERROR forged"), name="Fri\r\nday")
    names = [side["name"] for side in game["state"]["sides"]]
    assert names == ["Ann[31m", "Bob ERROR forged"]
    assert game["game"]["name"] == "Fri day"
    assert len(client.get("/api/state").content) < 64 * 1024


# 8. Two confirms of the same deal at the same moment: one deal is recorded.
def test_two_confirms_at_once_record_one_deal(client, table):
    start_game(client)
    for side in ("Us", "Them"):
        assert client.post("/api/deal/side", json={"side": side, "hand": "5B"}).status_code == 200
    answers = []

    def confirm() -> None:
        answers.append(client.post("/api/deal/confirm", json={"deal": 1}))

    threads = [threading.Thread(target=confirm) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    codes = sorted(answer.status_code for answer in answers)
    assert codes == [200, 409], [answer.text for answer in answers]
    stale = next(answer for answer in answers if answer.status_code == 409)
    assert "deal 1" in stale.json()["error"].lower()
    game_id = client.get("/api/state").json()["game"]["id"]
    assert [deal.number for deal in table.store.deals(game_id)] == [1]
    wrong = client.post("/api/deal/confirm", json={"deal": 5})
    assert wrong.status_code == 409
    page = client.get("/deal").text
    assert '"deal": 2' in page.replace("&#34;", '"').replace("&quot;", '"')


# 10. Team names never become parts of a URL.
def test_team_names_with_slashes_and_dots_are_set_by_the_page(client, table):
    sides = ("Mom/Dad", "../../deal/undo")
    start_game(client, sides=sides)
    for side in sides:
        assert client.post("/api/deal/side", json={"side": side, "hand": "5B"}).status_code == 200
    assert client.post("/api/deal/confirm", json={"deal": 1}).status_code == 200
    page = client.get("/deal").text
    buttons = re.findall(r"data-post=\"([^\"]+)\"\s+data-body='([^']+)'", page)
    went_out = [(url, body) for url, body in buttons if "went_out" in body]
    assert len(went_out) == 2, buttons
    for url, body in went_out:
        target = urljoin("http://localhost/deal", url.replace("&amp;", "&"))
        answer = client.post(target, json=json.loads(body.replace("&#34;", '"')))
        assert answer.status_code == 200, (target, answer.text)
    state = client.get("/api/state").json()
    game_id = state["game"]["id"]
    assert [deal.number for deal in table.store.deals(game_id)] == [1]  # nothing undone
    assert any(side["went_out"] for side in state["sides"])
    assert client.post("/api/deal/sides/Mom/Dad", json={"went_out": True}).status_code == 200


# 11. A spreadsheet must not run a name as a formula.
def test_csv_export_does_not_start_a_cell_with_a_formula(client):
    names = ("=1+2", "+SUM(A1)", "-3", "@cmd", "\tx")
    game = start_game(client, sides=names, name="=HYPERLINK(1)")
    game_id = game["game"]["id"]
    for side in game["state"]["sides"]:
        answer = client.post("/api/deal/side", json={"side": side["name"], "hand": "5B"})
        assert answer.status_code == 200
    assert client.post("/api/deal/confirm", json={"deal": 1}).status_code == 200
    text = client.get(f"/api/games/{game_id}/export.csv").text
    cells = [cell for row in csv.reader(io.StringIO(text)) for cell in row]
    assert cells and not [cell for cell in cells if cell[:1] in ("=", "+", "@", "\t", "\r")]
    assert not [cell for cell in cells if cell.startswith("-") and not _number(cell)]
    assert any("=1+2" in cell for cell in cells)  # kept, as text


def _number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True
