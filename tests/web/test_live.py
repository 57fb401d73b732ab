"""The page over real HTTP: uvicorn serving the app in a thread. Server-sent events reach an
open page after a scan, and a burst of concurrent requests loses nothing."""

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx2
import pytest
import uvicorn

from scanner.service import TableCamera, TableService
from scanner.store import Store
from scanner.vision import Recogniser
from scanner.web import WebSettings, create_app


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    store = Store.open(tmp_path_factory.mktemp("live"))
    service = TableService(store, Recogniser.load(), TableCamera("synthetic:9"), frames=1)
    app = create_app(service, WebSettings())
    config = uvicorn.Config(
        app, host="127.0.0.1", port=0, log_level="warning", timeout_graceful_shutdown=1
    )
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not running.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert running.started, "uvicorn did not start"
    port = running.servers[0].sockets[0].getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    with httpx2.Client(base_url=url, headers={"Origin": url}, timeout=30) as client:
        game = client.post("/api/games", json={"sides": [{"name": "Us"}, {"name": "Them"}]})
        assert game.status_code == 201, game.text
    yield url, service, store
    running.should_exit = True
    thread.join(10)
    store.close()


def read_events(lines, wanted: str, deadline: float) -> list[dict]:
    """Events from an open stream's lines until one of kind ``wanted`` (or the deadline)."""
    events, data = [], None
    for line in lines:
        if line.startswith("data:"):
            data = json.loads(line[5:])
        elif not line and data is not None:
            events.append(data)
            if data.get("kind") == wanted or time.monotonic() > deadline:
                return events
            data = None
    return events


def test_a_scan_reaches_an_open_page(server):
    url, _, _ = server
    client = httpx2.Client(base_url=url, headers={"Origin": url}, timeout=httpx2.Timeout(20.0))
    with client, client.stream("GET", "/api/events") as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        lines = stream.iter_lines()
        first = read_events(lines, "hello", time.monotonic() + 10)
        assert first[0]["kind"] == "hello"
        started, answered = time.monotonic(), {}

        def scan() -> None:
            answered["status"] = httpx2.post(
                f"{url}/api/scan", json={"side": "Us"}, headers={"Origin": url}, timeout=60
            )
            answered["at"] = time.monotonic()

        scanner = threading.Thread(target=scan)
        scanner.start()
        events = read_events(lines, "scan", started + 30)
        arrived = time.monotonic()
        scanner.join(60)
    kinds = [event["kind"] for event in events]
    assert "busy" in kinds and kinds[-1] == "scan", kinds
    assert events[-1]["panel"]["busy"] is False and events[-1]["last_scan"]
    assert events[-1]["version"] > first[0]["version"]
    # The open page hears of the scan within a second of the scan being answered.
    assert answered["status"].status_code == 200
    assert arrived - answered["at"] < 1.0


def test_a_burst_of_requests_loses_nothing(server):
    url, service, store = server
    with httpx2.Client(base_url=url, headers={"Origin": url}, timeout=60) as client:
        scan = client.post("/api/scan", json={"mode": "leftovers", "side": "Them"}).json()
    scan_id = scan["id"]
    before = len(scan["leftovers"])
    codes = ["5B", "KR", "JK", "9R"]
    reads = ["/api/state", f"/api/scans/{scan_id}", "/", "/healthz"]
    jobs = []
    for n in range(200):
        if n % 2:
            body = {"action": "add", "code": codes[n % 4], "to": "leftovers"}
            jobs.append(("POST", f"/api/scans/{scan_id}/corrections", body))
        else:
            jobs.append(("GET", reads[n % 8 // 2], None))

    def run(chunk):
        answers = []
        with httpx2.Client(base_url=url, headers={"Origin": url}, timeout=60) as client:
            for method, path, body in chunk:
                answers.append(client.request(method, path, json=body).status_code)
        return answers

    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=8) as pool:
        chunks = [jobs[i::8] for i in range(8)]
        statuses = [status for answers in pool.map(run, chunks) for status in answers]
    elapsed = time.monotonic() - started
    assert len(statuses) == 200 and set(statuses) == {200}, sorted(set(statuses))
    adds = sum(1 for method, _, _ in jobs if method == "POST")
    assert len(store.corrections(scan_id)) == adds
    kept = store.scan(scan_id).reading
    assert len(kept["leftovers"]) == before + adds
    ids = [card["id"] for card in kept["leftovers"]]
    assert len(set(ids)) == len(ids)  # every added card got its own id
    assert len(service.state.views[scan_id]["leftovers"]) == before + adds
    assert elapsed < 60
