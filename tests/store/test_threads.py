"""Many threads on one store, as FastAPI's thread pool calls it: nothing lost, nothing doubled,
every thread reads its own writes."""

import sqlite3
import threading
from collections import Counter
from pathlib import Path

from scanner.store import Conflict, Store

THREADS = 8
CALLS = 50
SIDES = [{"name": "Us", "players": []}, {"name": "Them", "players": []}]


def result(number: int, us: int) -> dict:
    return {"deal": number, "teams": [{"name": "Us", "total": us}, {"name": "Them", "total": 0}]}


def test_eight_threads_of_mixed_calls_lose_nothing(tmp_path: Path):
    store = Store.open(tmp_path)
    shared = store.create_game("Shared", "pagat", "", SIDES)
    start = threading.Barrier(THREADS)
    outcomes: Counter[str] = Counter()
    outcome_lock = threading.Lock()
    own_games: dict[int, int] = {}
    failures: list[BaseException] = []

    def worker(index: int) -> None:
        try:
            start.wait()
            game = store.create_game(f"Thread {index}", "pagat", "", SIDES)
            own_games[index] = game.id
            confirmed, scans = 0, []
            for call in range(CALLS - 1):  # the game above was the first call
                kind = call % 5
                if kind == 0:
                    confirmed += 1
                    store.confirm_deal(game.id, confirmed, {"n": confirmed}, result(confirmed, 1))
                elif kind == 1:
                    image = f"image {index}/{call}".encode()
                    scans.append(store.add_scan(mode="meld", image=image, reading={"c": call}))
                elif kind == 2 and scans:
                    store.correct_scan(scans[-1].id, "change", {"call": call}, {"c": -call})
                elif kind == 3:
                    number = call // 5 + 1
                    try:
                        store.confirm_deal(shared.id, number, {}, result(number, index))
                        won = "won"
                    except Conflict:
                        won = "conflict"
                    with outcome_lock:
                        outcomes[won] += 1
                else:
                    # Read-your-writes, through the reading connection.
                    assert len(store.deals(game.id)) == confirmed
                    assert store.scans(limit=1)  # someone's newest scan
                    for scan in scans:
                        assert store.path_of(scan.image_file).read_bytes().startswith(b"image")
                    store.games()
                    store.health()
        except BaseException as error:  # reported below, with the thread that raised it
            failures.append(error)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    assert failures == []

    per_thread_deals = len(range(0, CALLS - 1, 5))
    for game_id in own_games.values():
        deals = store.deals(game_id, include_undone=True)
        assert [deal.number for deal in deals] == list(range(1, per_thread_deals + 1))
    shared_deals = store.deals(shared.id, include_undone=True)
    numbers = [deal.number for deal in shared_deals]
    assert numbers == sorted(set(numbers))  # each number exactly once
    assert outcomes["won"] == len(numbers)
    assert outcomes["won"] + outcomes["conflict"] == THREADS * len(range(3, CALLS - 1, 5))
    scans = store.scans(limit=10_000)
    assert len(scans) == THREADS * len(range(1, CALLS - 1, 5))
    assert len({scan.image_file for scan in scans}) == len(scans)
    corrected = [scan for scan in scans if store.corrections(scan.id)]
    assert all(scan.reading["c"] < 0 for scan in corrected)
    corrections = sum(len(store.corrections(scan.id)) for scan in scans)
    assert corrections == THREADS * len(range(2, CALLS - 1, 5))
    assert len(store.games()) == THREADS + 1
    store.close()

    conn = sqlite3.connect(tmp_path / "handfoot.sqlite3")
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    conn.close()
