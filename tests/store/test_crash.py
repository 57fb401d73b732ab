"""Durability: a child process confirms deals as fast as it can and is SIGKILLed at random
moments. After each kill the record opens cleanly, every deal the child was told is confirmed is
there and whole, none is half-written, and every scan row names a whole image file."""

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from scanner.store import Store

ROOT = Path(__file__).resolve().parents[2]
KILLS = 6

# The child: scan, correct it, confirm a deal naming the scan, and only then say so.
CHILD = """
import itertools, sys
from pathlib import Path
from scanner.store import Store

store = Store.open(Path(sys.argv[1]))
game_id = int(sys.argv[2])
start = 1 + max((d.number for d in store.deals(game_id)), default=0)
print("ready", flush=True)
for number in itertools.count(start):
    pad = "x" * (number % 7 * 700)
    image = b"%d:" % number + bytes(20_000) + b"END"
    scan = store.add_scan(mode="table", image=image, reading={"n": number}, game_id=game_id)
    store.correct_scan(scan.id, "change", {"n": number}, {"n": -number})
    deal = {"deal": number, "pad": pad}
    result = {"deal": number, "teams": [{"name": "Us", "total": number}], "pad": pad}
    store.confirm_deal(game_id, number, deal, result, [scan.id])
    print(number, flush=True)
"""


def run_and_kill(data: Path, game_id: int, delay: float) -> list[int]:
    """Start the child, let it confirm for ``delay`` seconds, SIGKILL it; the deal numbers it
    printed as confirmed."""
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(data), str(game_id)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        first = child.stdout.readline()
        assert first == "ready\n", child.stderr.read()
        time.sleep(delay)
    finally:
        os.kill(child.pid, signal.SIGKILL)
        out, err = child.communicate(timeout=30)
    assert child.returncode == -signal.SIGKILL, err
    return [int(line) for line in out.split()]


def check_record(data: Path, game_id: int, told: set[int], note: str) -> int:
    """Everything a reopened record must show after a kill; returns how many deals stand."""
    with Store.open(data) as store:
        deals = store.deals(game_id, include_undone=True)
        numbers = [deal.number for deal in deals]
        assert told <= set(numbers), f"{note}: confirmed deals lost: {told - set(numbers)}"
        assert numbers == list(range(1, len(numbers) + 1)), note
        for deal in deals:
            pad = "x" * (deal.number % 7 * 700)
            assert deal.deal == {"deal": deal.number, "pad": pad}, note
            assert deal.result["pad"] == pad and deal.result["deal"] == deal.number, note
            (scan_id,) = deal.scan_ids
            assert store.scan(scan_id).reading == {"n": -deal.number}, note
        for scan in store.scans(limit=100_000):
            number = scan.first_reading["n"]
            image = store.path_of(scan.image_file).read_bytes()
            assert image == b"%d:" % number + bytes(20_000) + b"END", note
            corrections = store.corrections(scan.id)
            assert scan.reading == (corrections[-1].reading if corrections else {"n": number})
    for path in (data / "scans").rglob("*"):
        # A kill between writing an image and inserting its row leaves a whole, unreferenced
        # file; a kill during the write leaves only a hidden temporary file.
        if path.is_file() and not path.name.startswith("."):
            assert path.read_bytes().endswith(b"END"), f"{note}: partial image {path.name}"
    conn = sqlite3.connect(data / "handfoot.sqlite3")
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)], note
    conn.close()
    return len(numbers)


def test_killing_the_process_loses_no_confirmed_deal_and_leaves_none_half_written(
    tmp_path: Path,
):
    seed = int.from_bytes(os.urandom(4), "big")
    rng = random.Random(seed)
    with Store.open(tmp_path) as store:
        game_id = store.create_game("Crash", "pagat", "", [{"name": "Us"}]).id
    told: set[int] = set()
    standing = 0
    for kill in range(KILLS):
        printed = run_and_kill(tmp_path, game_id, rng.uniform(0.0, 0.25))
        told |= set(printed)
        note = f"seed {seed}, kill {kill}, child printed {printed[-3:]}"
        now = check_record(tmp_path, game_id, told, note)
        assert now >= standing, note
        standing = now
    assert standing >= 5, f"seed {seed}: the child confirmed too few deals to test much"


def test_a_deal_confirmed_in_a_killed_process_reads_back_in_a_new_one(tmp_path: Path):
    with Store.open(tmp_path) as store:
        game_id = store.create_game("Crash", "pagat", "", [{"name": "Us"}]).id
    script = (
        "import sys; from pathlib import Path; from scanner.store import Store; "
        "s = Store.open(Path(sys.argv[1])); "
        "s.confirm_deal(int(sys.argv[2]), 1, {'kept': True}, {'teams': []}); "
        "print('confirmed', flush=True); "
        "import os, signal; os.kill(os.getpid(), signal.SIGKILL)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path), str(game_id)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == -signal.SIGKILL and done.stdout == "confirmed\n", done.stderr
    with Store.open(tmp_path) as store:
        (deal,) = store.deals(game_id)
    assert deal.deal == {"kept": True}
    assert json.loads(json.dumps(deal.to_json()))["number"] == 1
